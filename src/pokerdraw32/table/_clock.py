"""The clock of a table session: each decision's deadline and what happens when it passes (R6.3, R7.3).

The table reads time only from the ``clock`` it is given.  :class:`Deadline` is the current
decision's deadline; :class:`_TableClock` is the part of :class:`~pokerdraw32.table.Table` that reads
the clock (a failing or bad clock is a :class:`~pokerdraw32.errors.TableError` before anything
changes), sets the deadline after every step (settling the hand when it is over), applies what is
due (:meth:`~_TableClock.expire`: the raise limit, then the timeout rules) and checks a restored
deadline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..actions import Event, Phase
from ..errors import TableError, shown
from ._ledger import _TableLedger

_LATEST = 2.0**53
"""Latest time a clock may give, in seconds (every later deadline stays exact in a float)."""


def _seconds(value: object, what: str) -> float:
    """``value`` as a time in seconds from 0 to 2**53, else a TableError starting with ``what``."""
    good = not isinstance(value, bool) and (
        (isinstance(value, int) and 0 <= value <= _LATEST)
        or (isinstance(value, float) and math.isfinite(value) and 0 <= value <= _LATEST))
    if not good:
        raise TableError(f"{what} a finite number of seconds from 0 to 2**53, got {shown(value)}")
    return float(value)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Deadline:
    """When the player to act runs out of time, in the table clock's seconds.

    :ivar seat: the table seat to act.
    :ivar raise_at: from then on the player may no longer bet or raise this turn (R7.3), or ``None``.
    :ivar act_at: from then on the timeout rules apply (R6.3, R7.3).
    """

    seat: int
    raise_at: float | None
    act_at: float


class _TableClock(_TableLedger):
    """The clock's part of a :class:`~pokerdraw32.table.Table`: deadlines and timeouts (R6.3, R7.3)."""

    def expire(self, seat: int) -> Event:
        """Apply what the clock has made due for the player to act at ``seat``: after the raise
        limit, the loss of the right to raise this turn (R7.3); after the decision time, the
        timeout rules (R6.3 in the draw, R7.3 in a betting round).

        :raises TableError: ``seat`` is not to act, or nothing is due yet (the message gives the
            deadlines and the clock's time); nothing changes.
        """
        h = self._running_hand()
        d = self.deadline
        if d is None or d.seat != seat:
            raise TableError(f"seat {shown(seat)} is not to act (seat {self.actor} is)", seat=seat)
        now = self._now()
        if now >= d.act_at:
            ev = h.timeout(self._hand_seat(seat))
            self._after_step(now)
        elif d.raise_at is not None and now >= d.raise_at:
            ev = h.withdraw_raise()
            self.deadline = Deadline(d.seat, None, d.act_at)
        else:
            ev = None
        if ev is not None:
            if self.journal is not None:
                self.journal.append({"op": "expire", "seat": d.seat, "at": now})
            return ev
        raise TableError(f"seat {seat}: nothing is due at {now:g}: " +
                         (f"raise limit at {d.raise_at:g}, " if d.raise_at is not None else "") +
                         f"decision deadline at {d.act_at:g}", seat=seat)

    def _now(self) -> float:
        """The clock's time; a clock that fails or gives something other than a number of seconds
        from 0 to 2**53 (nan, an infinity, a huge int, a negative time, not a number) is a
        TableError, raised before the table changes."""
        try:
            now = self.clock()
        except Exception as exc:
            raise TableError(f"the table clock failed: {shown(exc)}") from exc
        return _seconds(now, "the table clock must return")

    def _after_step(self, now: float) -> None:
        h = self.hand
        assert h is not None
        if h.is_complete:
            self.deadline = None
            self._settle()
            return
        seat = self.actor
        if seat is None:
            self.deadline = None
            return
        betting = h.phase in (Phase.FIRST_ROUND, Phase.SECOND_ROUND) and h.stacks[h.actor or 0] > 0
        raise_at = now + self.raise_time if self.raise_time is not None and betting else None
        self.deadline = Deadline(seat, raise_at, now + self.decision_time)


    def _check_deadline(self, act_at: float, raise_at: float | None, clock: float) -> None:
        """A restored deadline is one :meth:`_after_step` sets (R6.3, R7.3): made at some time
        ``act_at - decision_time`` from 0 to the snapshot's ``clock``, so the time left to act,
        ``act_at - clock``, is at most ``decision_time`` (it is below 0 when the deadline has
        passed and :meth:`expire` was not called yet); ``raise_at`` is ``raise_time`` after that
        time exactly when a raise limit is set, the player to act is in a betting round with
        chips behind and has not lost the right to raise this turn (after :meth:`expire` took
        it, ``raise_at`` is ``None``)."""
        h = self.hand
        assert h is not None and h.actor is not None
        dt, rt = self.decision_time, self.raise_time
        made = act_at - dt
        slack = 4 * math.ulp(max(act_at, dt, clock, 1.0))
        if made < -slack or made > clock + slack:
            raise TableError(f"table snapshot: deadline act_at {act_at:g} leaves {act_at - clock:g} seconds to act at "
                             f"clock {clock:g}; the decision time is {dt:g} [R6.3, R7.3]")
        betting = h.phase in (Phase.FIRST_ROUND, Phase.SECOND_ROUND) and h.stacks[h.actor] > 0
        limited = rt is not None and betting and h.raise_withdrawn != h.actor
        if raise_at is None:
            if limited:
                raise TableError("table snapshot: deadline raise_at is missing: the raise limit is set and the player "
                                 "to act may still raise this turn [R7.3]")
            return
        if rt is None or not limited:
            raise TableError(f"table snapshot: deadline raise_at {raise_at:g}, but " +
                             ("the table has no raise limit" if rt is None else
                              "the player to act may not raise this turn") + " [R7.3]")
        if abs(raise_at - (made + rt)) > slack:
            raise TableError(f"table snapshot: deadline raise_at {raise_at:g} is not raise_time {rt:g} after the "
                             f"decision began ({made:g}, decision time {dt:g} before act_at {act_at:g}) [R7.3]")
