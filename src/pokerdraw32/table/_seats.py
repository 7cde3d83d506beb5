"""The seats of a table session: who sits where with what stack, buy-ins, re-buys, sitting out, leaving.

:class:`SeatState` is one occupied seat; :class:`_TableSeats` is the part of
:class:`~pokerdraw32.table.Table` that seats and unseats players and checks every chip they bring
against the table's limits (R3.6, R10.1; :func:`default_buy_ins` gives the defaults), and marks
them sitting out or back in (the blinds they miss meanwhile are :mod:`pokerdraw32.table._blinds`'s).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import MAX_CHIPS, RulesError, TableError, integer, shown
from ..rules import Rules, Structure
from ._base import _good_name
from ._ledger import LedgerEntry, _TableLedger


@dataclass
class SeatState:
    """One occupied seat (read it through :meth:`Table.seat`; change it through the table).

    :ivar seat: the table seat number.
    :ivar name: the player's name.
    :ivar stack: chips in front of the player (between hands; during a hand, before it began).
    :ivar sitting_out: the player is away (R10.3); busted players (no chips) are also not dealt in (R10.4).
    :ivar waiting: joined with ``wait=True`` and not yet dealt in: waits for the largest blind (R10.2).
    :ivar entry_due: joined a running table without waiting: posts an entry bet of L when first dealt in (R10.2).
    :ivar missed: blinds missed while away, by name (``"small"``, ``"big"``, ``"over"``) with their amount (R10.3).
    :ivar leaving: leaves (and is paid out) when the running hand ends.
    """

    seat: int
    name: str
    stack: int
    sitting_out: bool = False
    waiting: bool = False
    entry_due: bool = False
    missed: dict[str, int] = field(default_factory=dict)
    leaving: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "stack": self.stack, "sitting_out": self.sitting_out,
                "waiting": self.waiting, "entry_due": self.entry_due, "missed": dict(self.missed),
                "leaving": self.leaving}


class _TableSeats(_TableLedger):
    """The seats' part of a :class:`~pokerdraw32.table.Table`: seating, chips in and out between
    hands, sitting out and in (R3.6, R10.1-R10.4)."""

    def seat(self, seat: int) -> SeatState:
        """A copy of the state of an occupied seat.

        :raises TableError: no such seat, or the seat is empty.
        """
        s = self._occupied(seat)
        return SeatState(s.seat, s.name, s.stack, s.sitting_out, s.waiting, s.entry_due, dict(s.missed), s.leaving)

    @property
    def occupied(self) -> tuple[int, ...]:
        """Occupied seats, in seat order."""
        return tuple(sorted(self._seats))

    def join(self, seat: int, name: str, chips: int, *, wait: bool = False) -> None:
        """Seat a player with a buy-in of ``chips`` (R10.1).

        At a running table the player either posts an entry bet of L when dealt in at the next
        hand (default) or, with ``wait=True``, waits until the largest blind reaches their seat
        (R10.2).

        :raises TableError: no such seat, the seat is taken, the name is used, or the buy-in is
            outside the table's limits (R10.1).
        """
        seat = self._check_seat_number(seat)
        if seat in self._seats:
            raise TableError(f"seat {seat} is taken by {self._seats[seat].name!r}", seat=seat)
        if not _good_name(name):
            raise TableError(f"seat {seat}: a player name is 1 to 64 printable characters without surrounding "
                             f"spaces, got {shown(name)}", seat=seat)
        if any(s.name == name for s in self._seats.values()):
            raise TableError(f"seat {seat}: the name {name!r} is already seated", seat=seat)
        if not isinstance(wait, bool):
            raise TableError(f"seat {seat}: wait must be True or False, got {shown(wait)}", seat=seat)
        chips = self._buy_in_amount(seat, chips, 0)
        running = self.button is not None
        self._seats[seat] = SeatState(seat, name, chips, waiting=running and wait, entry_due=running and not wait)
        self.ledger.append(LedgerEntry("buy_in", seat, name, chips, self.hand_count))
        self._brought += chips
        if self.journal is not None:
            self.journal.append({"op": "join", "seat": seat, "name": name, "chips": chips, "wait": wait})

    def add_chips(self, seat: int, chips: int) -> None:
        """Add chips between hands (R3.6), never above the table's maximum (R10.1).  A busted
        player (no chips) buys in again: at least the minimum buy-in.

        :raises TableError: a hand is running with this seat dealt in, a bad amount, or the limit.
        """
        seat = self._check_seat_number(seat)
        s = self._occupied(seat)
        if self._in_hand(seat):
            raise TableError(f"seat {seat}: chips may be added between hands only", seat=seat, rule="R3.6")
        chips = self._buy_in_amount(seat, chips, s.stack)
        s.stack += chips
        self.ledger.append(LedgerEntry("add", seat, s.name, chips, self.hand_count))
        self._brought += chips
        if self.journal is not None:
            self.journal.append({"op": "add_chips", "seat": seat, "chips": chips})

    def sit_out(self, seat: int) -> None:
        """The player sits out from the next hand on (the running hand is played out); blinds their
        seat would have posted are recorded as missed (R10.3)."""
        s = self._occupied(seat)
        s.sitting_out = True
        if self.journal is not None:
            self.journal.append({"op": "sit_out", "seat": s.seat})

    def sit_in(self, seat: int) -> None:
        """The player returns at the next hand and pays the blinds missed (R10.3)."""
        s = self._occupied(seat)
        s.sitting_out = False
        if self.journal is not None:
            self.journal.append({"op": "sit_in", "seat": s.seat})

    def leave(self, seat: int) -> int | None:
        """The player leaves and is paid out.

        :returns: the chips paid out, or ``None`` when the seat is dealt in to the running hand:
            it then leaves, paid out, when the hand ends (see :attr:`ledger`).
        """
        s = self._occupied(seat)
        if self.journal is not None:
            self.journal.append({"op": "leave", "seat": s.seat})
        if self._in_hand(seat):
            s.leaving = True
            return None
        return self._pay_out(s)

    def _buy_in_amount(self, seat: int, chips: object, stack: int) -> int:
        amount = integer(chips)   # a plain int, checked and used
        if amount is None or not 0 < amount <= MAX_CHIPS:
            raise TableError(f"seat {seat}: {shown(chips)} is not a number of chips from 1 to {MAX_CHIPS}",
                             seat=seat, rule="R3.2")
        chips = amount
        if stack == 0 and chips < self.min_buy_in:
            raise TableError(f"seat {seat}: a buy-in of {chips} is below the minimum {self.min_buy_in}", seat=seat,
                             rule="R10.1")
        if self.chips_on_table + chips > MAX_CHIPS:
            raise TableError(f"seat {seat}: {chips} more chips would put more than {MAX_CHIPS} chips on the table",
                             seat=seat, rule="R3.2")
        if self.max_buy_in is not None and stack + chips > self.max_buy_in:
            raise TableError(f"seat {seat}: {stack} + {chips} chips would exceed the maximum {self.max_buy_in}",
                             seat=seat, rule="R10.1")
        return chips

    def _stack_now(self, seat: int) -> int:
        """The chips in front of the player at ``seat`` now: during a hand they are dealt in to, the
        stack behind their bets."""
        if self._in_hand(seat):
            assert self.hand is not None
            return self.hand.stacks[self.hand_seats.index(seat)]
        return self._seats[seat].stack


def default_buy_ins(rules: Rules) -> tuple[int, int | None]:
    """R10.1 defaults: (minimum, maximum) buy-in in chips.  No-limit and pot-limit: 20·sb and
    100·bb; fixed-limit: 10 × the second-round bet (2·L, L the largest blind of a full table) and
    no maximum."""
    if rules.structure is Structure.FIXED_LIMIT:
        return 10 * 2 * rules.largest_blind(5), None
    return 20 * rules.sb, 100 * rules.big_blind


def _chips(name: str, value: object) -> int:
    """The buy-in limit ``name`` (``min_buy_in``, ``max_buy_in``) as chips, else a RulesError naming it."""
    chips = integer(value)
    if chips is None or not 0 < chips <= MAX_CHIPS:
        limit = f", at most {MAX_CHIPS} (R3.2)" if chips is not None and chips > MAX_CHIPS else ""
        raise RulesError(f"{name}={shown(value)} must be a positive number of chips{limit} [R10.1]")
    return chips
