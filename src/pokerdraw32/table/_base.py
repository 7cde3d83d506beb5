"""The state every part of a table session shares, and the lookups they all use.

:class:`~pokerdraw32.table.Table` is composed of one class per concern, each in its own module
and all built on :class:`_TableBase`: the seats and buy-ins (:mod:`pokerdraw32.table._seats`), the
button and the blinds (:mod:`pokerdraw32.table._blinds`), the clock and the deadlines
(:mod:`pokerdraw32.table._clock`), the ledger (:mod:`pokerdraw32.table._ledger`) and the snapshot format
(:mod:`pokerdraw32.table._snapshot`).  This module declares the attributes that
:meth:`Table.__init__ <pokerdraw32.table.Table>` sets (documented there) and holds the lookups
of seat numbers and of the running hand that every part needs; it imports nothing of the table
above it, so the parts import it and never each other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import TableError, integer, shown

if TYPE_CHECKING:
    from .._kernels import Rng
    from ..hand import Hand
    from ..rules import Rules
    from ._clock import Deadline
    from ._ledger import LedgerEntry
    from ._seats import SeatState


class _TableBase:
    """The attributes of a table session (set by :class:`~pokerdraw32.table.Table`) and the
    lookups of its seats and running hand, in table seat numbers."""

    rules: Rules
    seat_count: int
    min_buy_in: int
    max_buy_in: int | None
    clock: Callable[[], float]
    decision_time: float
    raise_time: float | None
    rng: Rng
    keep_history: bool
    _seats: dict[int, SeatState]
    button: int | None
    hand: Hand | None
    hand_seats: tuple[int, ...]
    _dealt: tuple[SeatState, ...]
    hand_count: int
    ledger: list[LedgerEntry]
    hands: list[tuple[int, Hand, tuple[int, ...], tuple[str, ...]]]
    deadline: Deadline | None
    _settled: bool
    _brought: int
    _paid: int
    journal: list[dict[str, Any]] | None

    @property
    def actor(self) -> int | None:
        """Table seat of the player to act, or ``None``."""
        h = self.hand
        if h is None or self._settled or h.actor is None or h.pending_deal is not None:
            return None
        return self.hand_seats[h.actor]

    def _check_seat_number(self, seat: object) -> int:
        number = integer(seat)
        if number is None or not 0 <= number < self.seat_count:
            raise TableError(f"no seat {shown(seat)} at this table (seats 0..{self.seat_count - 1})")
        return number

    def _occupied(self, seat: object) -> SeatState:
        n = self._check_seat_number(seat)
        if n not in self._seats:
            raise TableError(f"seat {n} is empty", seat=n)
        return self._seats[n]

    def _in_hand(self, seat: int) -> bool:
        return self.hand is not None and not self._settled and seat in self.hand_seats

    def _running_hand(self) -> Hand:
        if self.hand is None or self._settled:
            raise TableError("no hand is running; start one with start_hand()")
        return self.hand

    def _hand_seat_or_none(self, seat: int | None) -> int | None:
        """The hand seat of the player sitting at table seat ``seat``, or ``None``: an onlooker, a
        seat not dealt in, and a seat whose player was dealt in but has left since (vacant, or
        another player sits there) see only what everyone sees.  Views follow the player, not the
        seat number: nobody sees the cards of the player who sat there before."""
        if seat is None or seat not in self.hand_seats:
            return None
        i = self.hand_seats.index(seat)
        return i if i < len(self._dealt) and self._seats.get(seat) is self._dealt[i] else None

    def _hand_seat(self, seat: object) -> int:
        n = self._check_seat_number(seat)
        if n not in self.hand_seats:
            raise TableError(f"seat {n} is not dealt in to this hand", seat=n)
        return self.hand_seats.index(n)


def _good_name(name: object) -> bool:
    """A player name: 1 to 64 printable characters without surrounding spaces."""
    return isinstance(name, str) and 0 < len(name) <= 64 and name == name.strip() and name.isprintable()
