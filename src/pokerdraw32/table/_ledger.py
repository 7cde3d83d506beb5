"""The table's ledger: every buy-in, addition, cash-out and result, and the audits that it balances.

:class:`LedgerEntry` is one line of :attr:`Table.ledger <pokerdraw32.table.Table.ledger>`;
:class:`_TableLedger` is the part of :class:`~pokerdraw32.table.Table` that moves chips to and from
the ledger (a hand's results when it ends, a cash-out) and checks it: the running totals after
every hand, :meth:`~_TableLedger.check_ledger` over every line, and on restore that the seats are
what the ledger says line by line (R9.5, R10.1-R10.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import MAX_CHIPS, TableError, shown
from ._base import _good_name, _TableBase

if TYPE_CHECKING:
    from ._seats import SeatState


@dataclass(frozen=True)
class LedgerEntry:
    """One line of the table's ledger.

    :ivar kind: ``"buy_in"``, ``"add"`` (chips added between hands), ``"cash_out"`` or ``"hand"``.
    :ivar seat: the table seat.
    :ivar name: the player's name.
    :ivar chips: chips brought (buy-in, add), paid out (cash-out), or the hand's net result for the
        seat (negative: lost), in chips.
    :ivar hand: the hand number (1 = first hand of the session) for ``"hand"`` lines, else the number
        of hands played before the line.
    """

    kind: str
    seat: int
    name: str
    chips: int
    hand: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "name": self.name, "chips": self.chips, "hand": self.hand}


class _TableLedger(_TableBase):
    """The ledger's part of a :class:`~pokerdraw32.table.Table`: the chips on the table, paying out,
    settling a finished hand and the audits (R9.5)."""

    @property
    def chips_on_table(self) -> int:
        """All chips at the table: every seated stack, plus the pot of a running hand."""
        if self.hand is not None and not self._settled:
            dealt = set(self.hand_seats)
            return (sum(s.stack for n, s in self._seats.items() if n not in dealt) + sum(self.hand.stacks)
                    + self.hand.pot)
        return sum(s.stack for s in self._seats.values())

    def _check_balance(self) -> None:
        """The running totals against the chips on the table (checked after every hand)."""
        if self._brought - self._paid != self.chips_on_table:
            raise TableError(f"ledger out of balance: {self._brought} bought in, {self._paid} paid out, "
                             f"{self.chips_on_table} on the table [R9.5]")

    def check_ledger(self) -> None:
        """Audit the whole ledger: buy-ins + additions - cash-outs = chips on the table, and each
        hand's results sum to zero (R9.5).  (The table checks its running totals after every hand.)

        :raises TableError: the ledger does not balance (a bug: please report it).
        """
        brought = sum(e.chips for e in self.ledger if e.kind in ("buy_in", "add"))
        paid = sum(e.chips for e in self.ledger if e.kind == "cash_out")
        if (brought, paid) != (self._brought, self._paid):
            raise TableError(f"ledger lines ({brought} in, {paid} out) differ from the running totals "
                             f"({self._brought} in, {self._paid} out)")
        if brought - paid != self.chips_on_table:
            raise TableError(f"ledger out of balance: {brought} bought in, {paid} paid out, "
                             f"{self.chips_on_table} on the table [R9.5]")
        per_hand: dict[int, int] = {}
        for e in self.ledger:
            if e.kind == "hand":
                per_hand[e.hand] = per_hand.get(e.hand, 0) + e.chips
        bad = {k: v for k, v in per_hand.items() if v}
        if bad:
            raise TableError(f"hand results do not sum to zero: {bad} [R9.5]")

    def _pay_out(self, s: SeatState) -> int:
        chips = s.stack
        del self._seats[s.seat]
        self.ledger.append(LedgerEntry("cash_out", s.seat, s.name, chips, self.hand_count))
        self._paid += chips
        return chips

    def _settle(self) -> None:
        h = self.hand
        assert h is not None and h.result is not None
        names = tuple(self._seats[seat].name for seat in self.hand_seats)
        for i, seat in enumerate(self.hand_seats):
            s = self._seats[seat]
            s.stack = h.result.stacks[i]
            self.ledger.append(LedgerEntry("hand", seat, s.name, h.result.net[i], self.hand_count))
        if self.keep_history:
            self.hands.append((self.hand_count, h, self.hand_seats, names))
        self._settled = True
        if sum(h.result.net) != 0:
            raise TableError(f"hand {self.hand_count}: results {h.result.net} do not sum to zero [R9.5]")
        for seat in self.hand_seats:
            s = self._seats[seat]
            if s.leaving:
                self._pay_out(s)
        self._check_balance()

    def _check_seats_against_ledger(self) -> None:
        """A restored table's seats are what its ledger says, line by line, and the ledger is one
        the table writes (R9.5, R10.1-R10.4):

        * each buy-in seats a player at an empty seat, within the table's limits as :meth:`join`
          checks them (at least ``min_buy_in``, at most ``max_buy_in``, at most ``MAX_CHIPS`` on
          the table); each addition is the seated player's, within the limits as
          :meth:`add_chips` checks them (a busted player's at least the minimum), and never for
          a player dealt in to the hand running at the time; a cash-out pays the player's whole
          stack, and a player dealt in leaves only after the hand's results;
        * hand numbers never go back; each hand's results are one block of ``"hand"`` lines,
          one per seat dealt in, in increasing seat order, at least two, for players seated
          before the hand began and with chips; the hands are numbered 1, 2, ... without a gap,
          and ``hand_count`` is the last one (plus the running hand);
        * every seated player's stack is their buy-ins and additions plus their results, so
          chips moved between seats, or a player swapped, are refused even when totals balance;
        * the button is ``None`` exactly before the first hand, else a seat of the last hand;
          between hands ``hand_seats`` are the last hand's seats (as its ledger block lists them);
        * the seats' flags are ones the table sets: ``leaving`` only for a player dealt in to the
          running hand; ``waiting`` and ``entry_due`` (R10.2) never both, and exactly one of them
          for a player who joined after the first hand and has not been dealt in since, else
          neither; ``missed`` blinds (R10.3) only for a player not dealt in to the running hand,
          not waiting, and with a hand begun since they joined or were last dealt in; a player
          dealt in to the running hand has none of these but ``leaving``.
        """
        running = self.hand is not None and not self._settled
        blocks: dict[int, list[int]] = {}          # hand number -> seats of its "hand" lines
        for e in self.ledger:
            if e.kind == "hand":
                blocks.setdefault(e.hand, []).append(e.seat)
        dealt_in = dict(blocks)
        if running:
            dealt_in[self.hand_count] = list(self.hand_seats)
        seated: dict[int, list[Any]] = {}      # seat -> [name, chips, hand joined, last hand dealt in]
        last = 0
        block: int | None = None               # the hand whose "hand" lines are being read
        done = 0                               # the last hand whose results are read
        brought = paid = 0
        for k, e in enumerate(self.ledger):
            where = f"table snapshot: ledger line {k} ({e.kind}, seat {e.seat}, {shown(e.name)})"
            self._check_seat_number(e.seat)
            if not last <= e.hand <= self.hand_count or (e.kind == "hand" and e.hand < 1):
                raise TableError(f"{where}: hand number {e.hand} is out of order")
            last = e.hand
            player = seated.get(e.seat)
            if e.kind == "hand":
                if block != e.hand:
                    if e.hand != done + 1:
                        raise TableError(f"{where}: results of hand {e.hand} after those of hand {done}: one block "
                                         "of results per hand, the hands numbered without a gap")
                    block = done = e.hand
                seats = blocks[e.hand]
                if len(seats) < 2 or seats != sorted(set(seats)):
                    raise TableError(f"{where}: hand {e.hand}'s results are not one line per seat dealt in, in "
                                     "seat order [R3.1]")
                if player is None or player[0] != e.name:
                    raise TableError(f"{where}: {shown(e.name)} is not seated there")
                if player[2] >= e.hand or player[1] <= 0:
                    raise TableError(f"{where}: the player was not seated with chips when hand {e.hand} began "
                                     "[R10.4]")
                player[1] += e.chips
                player[3] = e.hand
                if player[1] < 0:
                    raise TableError(f"{where}: leaves the player {player[1]} chips [R9.5]")
                continue
            block = None
            during = e.hand >= 1 and e.hand > done and e.seat in dealt_in.get(e.hand, ())
            if e.kind == "buy_in":
                if player is not None:
                    raise TableError(f"{where}: the seat is taken by {player[0]!r}")
                if any(p[0] == e.name for p in seated.values()) or not _good_name(e.name):
                    raise TableError(f"{where}: not a buy-in the table accepts [R10.1]")
                self._check_buy_in_line(where, e.chips, 0, brought - paid)
                seated[e.seat] = [e.name, e.chips, e.hand, 0]
                brought += e.chips
                continue
            if player is None or player[0] != e.name:
                raise TableError(f"{where}: {shown(e.name)} is not seated there")
            if during:
                raise TableError(f"{where}: the player is dealt in to hand {e.hand}, which is still running: chips "
                                 "are added, and players paid out, between hands [R3.6]")
            if e.kind == "cash_out":
                if e.chips != player[1]:
                    raise TableError(f"{where}: pays out {e.chips} chips, the player has {player[1]}")
                del seated[e.seat]
                paid += e.chips
                continue
            self._check_buy_in_line(where, e.chips, player[1], brought - paid)
            player[1] += e.chips
            brought += e.chips
        if self.hand_count != done + running:
            raise TableError(f"table snapshot: field 'hand_count' is {self.hand_count}, the ledger has hands to "
                             f"{done}" + (" and a hand is running" if running else ""))
        if sorted(seated) != sorted(self._seats):
            raise TableError(f"table snapshot: the seated players {sorted(self._seats)} are not the ledger's "
                             f"{sorted(seated)}")
        if (self.button is None) != (self.hand_count == 0):
            raise TableError(f"table snapshot: the button is {shown(self.button)} after {self.hand_count} hands "
                             "[R4.1]")
        if not running:
            expected = tuple(blocks.get(self.hand_count, ()))
            if self.hand_seats != expected:
                raise TableError(f"table snapshot: field 'hand_seats' {list(self.hand_seats)} is not the last hand's "
                                 f"seats {list(expected)}")
            if self.button is not None and self.button not in self.hand_seats:
                raise TableError(f"table snapshot: the button {self.button} is not a seat of the last hand [R4.1]")
        for seat, (name, chips, joined, dealt) in sorted(seated.items()):
            s = self._seats[seat]
            if s.name != name or s.stack != chips:
                raise TableError(f"table snapshot: seat {seat}: {s.name!r} with {s.stack} chips, the ledger says "
                                 f"{name!r} with {chips} [R9.5]")
            where = f"table snapshot: seat {seat} ({name!r})"
            in_hand = running and seat in self.hand_seats
            if in_hand:
                if joined >= self.hand_count or s.stack <= 0:
                    raise TableError(f"{where}: dealt in to the running hand without being seated with chips when "
                                     "it began [R10.4]")
                dealt = self.hand_count
            if s.leaving and not in_hand:
                raise TableError(f"{where}: 'leaving' is set only for a player dealt in to the running hand (who "
                                 "leaves when it ends)")
            if in_hand and (s.waiting or s.entry_due or s.missed):
                raise TableError(f"{where}: dealt in to the running hand, yet waiting, owing an entry bet or blinds "
                                 "missed (dealing in clears them) [R10.2, R10.3]")
            fresh = joined >= 1 and not dealt           # joined a running table, not dealt in since
            if (s.waiting and s.entry_due) or (s.waiting or s.entry_due) != fresh:
                raise TableError(f"{where}: 'waiting' {s.waiting} and 'entry_due' {s.entry_due}: a player who joins "
                                 "after the first hand has exactly one of them until dealt in, others neither "
                                 "[R10.2]")
            if s.missed and (s.waiting or self.hand_count <= max(joined, dealt)):
                raise TableError(f"{where}: blinds missed {s.missed} with no hand begun without them since they "
                                 "joined or were dealt in [R10.3]")

    def _check_buy_in_line(self, where: str, chips: int, stack: int, on_table: int) -> None:
        """A ledger buy-in or addition of ``chips`` to ``stack`` as :meth:`_buy_in_amount` allows it."""
        if chips <= 0:
            raise TableError(f"{where}: {chips} chips [R10.1]")
        if stack == 0 and chips < self.min_buy_in:
            raise TableError(f"{where}: a buy-in of {chips} is below the minimum {self.min_buy_in}", rule="R10.1")
        if self.max_buy_in is not None and stack + chips > self.max_buy_in:
            raise TableError(f"{where}: {stack} + {chips} chips exceed the maximum {self.max_buy_in}", rule="R10.1")
        if on_table + chips > MAX_CHIPS:
            raise TableError(f"{where}: more than {MAX_CHIPS} chips on the table", rule="R3.2")
