"""A table session: seats, the button, blinds, buy-ins, sitting out and clocks (R4.1, R10).

A :class:`Table` owns up to 5 numbered seats and runs consecutive hands with the hand state
machine (:class:`~pokerdraw32.hand.Hand`).  Table seat numbers stay fixed for the session; a
hand numbers the seats it deals in ``0 .. n-1`` clockwise (:attr:`Table.hand_seats` maps them),
and every table method takes and gives table seat numbers.

Between hands (:meth:`Table.start_hand`), precisely:

* **Who is dealt in** (R10.2, R10.4): seated players who are not sitting out and have chips.  A
  player who joined with ``wait=True`` is dealt in at the first hand in which the largest blind
  falls on their seat (they post it); one who joined without waiting is dealt in at once and
  posts an entry bet of L, live (a blind due at their seat counts toward it).  Players joining
  before the first hand need neither.  A game never stalls: when fewer than two players would
  be dealt in, waiting players are dealt in too.
* **The button** (R4.1) moves clockwise from its last seat to the next seat dealt in to the new
  hand; the blinds follow it (R4.2, R4.3): small, big and, with 4-5 players dealt in and the
  option on, over blind, on the next seats dealt in clockwise.  So when a blind poster busts
  or leaves, nobody posts for them: the next hand's blinds are simply the next players dealt
  in after the new button.  Example, 4 players A (button), B (sb), C (bb), D (ob); B busts:
  the button moves to C, D posts the small blind, A the big one, and with 3 players dealt in
  there is no over blind.  If the button's own player leaves, the button still moves from that
  seat to the next seat dealt in.
* **Missed blinds** (R10.3): at each hand, a player sitting out (or busted, R10.4) whose seat
  would have posted a blind had they been dealt in has missed it.  On their return they post:
  missed only the small blind: bb live; the small and the big blind: bb live plus sb dead; all
  three: ob live plus sb + bb dead.  In general the live part is the larger of bb and the
  largest blind missed (never more than the current L), and the other blinds missed are dead.
  Dead chips go to the main pot and count toward no bet.  A player whose seat returns straight
  into the largest blind posts that blind only: the blinds have come round to them.

Chips (R3.6, R10.1): buy-ins are checked against the table's minimum and maximum (defaults: no-
limit and pot-limit 20·sb to 100·bb; fixed-limit 10 × the second-round bet 2·L, with L the
largest blind of a full table, and no maximum); chips are added only between hands and never
above the maximum; leaving pays the stack out.  The :attr:`Table.ledger` records every buy-in,
addition, cash-out and each seat's result of each hand, and :meth:`Table.check_ledger` proves
it balances: chips bought in minus chips paid out equals the chips on the table.

Clocks without wall time (R6.3, R7.3): the table reads time only from the ``clock`` it is
given (a callable returning seconds; a server passes :func:`time.monotonic`, tests a fake).
Each decision gets a :class:`Deadline`; :meth:`Table.expire` applies what is due once the clock
has passed it: after ``raise_time`` the player loses the right to raise for this turn (the
10-second raise limit of source 001, R7.3), after ``decision_time`` the timeout rules apply:
in the draw they stand pat and may not bet or raise later (R6.3), in a betting round they check
if nothing is owed, else fold (R7.3), and an all-in player asked about Parole declines.

>>> from pokerdraw32 import Rules
>>> from pokerdraw32.table import Table
>>> now = [0.0]
>>> t = Table(Rules(), seed=1, clock=lambda: now[0], decision_time=30, raise_time=10)
>>> for seat, name in enumerate(["ann", "bob", "cy"]):
...     t.join(seat, name, 100)
>>> h = t.start_hand()
>>> t.button, t.actor, t.deadline
(0, 0, Deadline(seat=0, raise_at=10.0, act_at=30.0))
>>> now[0] = 31.0
>>> str(t.expire(0))                     # R7.3: the button owed 2, so the timeout folds
'fold seat 0'
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from ._events import events_for as _events_for
from ._hand_snapshot import _Reader, read_rules
from ._kernels import Rng
from .actions import Action, Event, Phase
from .cards import CardsLike
from .errors import MAX_CHIPS, IllegalActionError, PokerDraw32Error, RulesError, TableError, integer, shown
from .hand import Hand
from .rules import Rules, Structure

if TYPE_CHECKING:
    from .history import HandHistory

__all__ = ["Deadline", "LedgerEntry", "SeatState", "Table", "TableError"]

_BLIND_NAMES = ("small", "big", "over")
TABLE_FORMAT = "pokerdraw32/table"
TABLE_VERSION = 1


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


class Table:
    """A table session (see the module docstring for the exact rules).

    :param rules: the :class:`~pokerdraw32.rules.Rules`.
    :param seats: number of seats, 2 to 5 (R3.1).
    :param seed: seed of the table's generator (every hand's shuffle comes from it, R11.1); ``None``:
        from the OS.
    :param min_buy_in: smallest buy-in in chips; default per R10.1.
    :param max_buy_in: largest stack after a buy-in or an addition; default per R10.1 (``None`` for
        fixed-limit: no maximum).
    :param clock: a callable giving the time in seconds; default :func:`time.monotonic`.
    :param decision_time: seconds a player has to act (R6.3, R7.3).
    :param raise_time: seconds after which the player may no longer bet or raise this turn (R7.3);
        ``None``: no separate raise limit.
    :param history: keep every finished hand in :attr:`hands` (for :meth:`write_history`); off by
        default, so a long session does not grow in memory (the ledger does: one line per seat per hand).
    :raises RulesError: a bad setting (named).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seats: int = 5,
        seed: int | None = None,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        clock: Callable[[], float] | None = None,
        decision_time: float = 30.0,
        raise_time: float | None = None,
        history: bool = False,
    ) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object, got {shown(rules)}")
        seat_count = integer(seats)
        if seat_count is None or not 2 <= seat_count <= 5:
            raise RulesError(f"a table has 2 to 5 seats, got {shown(seats)} [R3.1]")
        seats = seat_count
        default_min, default_max = default_buy_ins(rules)
        lo = default_min if min_buy_in is None else _chips("min_buy_in", min_buy_in)
        hi = default_max if max_buy_in is None else _chips("max_buy_in", max_buy_in)
        if hi is not None and hi < lo:
            raise RulesError(f"max_buy_in {hi} is below min_buy_in {lo} [R10.1]")
        for name, value in (("decision_time", decision_time), ("raise_time", raise_time)):
            if value is None and name == "raise_time":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1e9:
                raise RulesError(f"{name} must be a positive number of seconds, got {shown(value)}")
        if raise_time is not None and raise_time >= decision_time:
            raise RulesError(f"raise_time {raise_time} must be shorter than decision_time {decision_time} [R7.3]")
        if not isinstance(history, bool):
            raise RulesError(f"history must be True or False, got {shown(history)}")
        if clock is not None and not callable(clock):
            raise RulesError(f"clock must be a callable returning seconds, got {shown(clock)}")
        self.rules = rules
        self.seat_count = seats
        self.min_buy_in = lo
        self.max_buy_in = hi
        self.clock: Callable[[], float] = clock if clock is not None else time.monotonic
        self.decision_time = float(decision_time)
        self.raise_time = None if raise_time is None else float(raise_time)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
            raise RulesError(f"seed {shown(seed)} must be an int with 0 <= seed < 2**64 [R11.1]")
        self.rng = Rng(seed)
        self.keep_history = bool(history)
        self._seats: dict[int, SeatState] = {}
        self.button: int | None = None
        """Table seat of the button (``None`` before the first hand)."""
        self.hand: Hand | None = None
        """The hand being played, or ``None`` between hands."""
        self.hand_seats: tuple[int, ...] = ()
        """Table seat of each seat of the current (or last) hand: ``hand_seats[hand_seat]``."""
        self._dealt: tuple[SeatState, ...] = ()   # the players dealt in to that hand, by hand seat
        self.hand_count = 0
        self.ledger: list[LedgerEntry] = []
        self.hands: list[tuple[int, Hand, tuple[int, ...], tuple[str, ...]]] = []
        """Finished hands as (hand number, hand, table seats, player names), when ``history`` is on."""
        self.deadline: Deadline | None = None
        """The current decision's :class:`Deadline`, or ``None`` when nobody is to act."""
        self._settled = True
        self._brought = 0   # running ledger totals: chips bought in (buy-ins, additions) and paid out
        self._paid = 0

    # ------------------------------------------------------------------ seats
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

    def sit_out(self, seat: int) -> None:
        """The player sits out from the next hand on (the running hand is played out); blinds their
        seat would have posted are recorded as missed (R10.3)."""
        s = self._occupied(seat)
        s.sitting_out = True

    def sit_in(self, seat: int) -> None:
        """The player returns at the next hand and pays the blinds missed (R10.3)."""
        s = self._occupied(seat)
        s.sitting_out = False

    def leave(self, seat: int) -> int | None:
        """The player leaves and is paid out.

        :returns: the chips paid out, or ``None`` when the seat is dealt in to the running hand:
            it then leaves, paid out, when the hand ends (see :attr:`ledger`).
        """
        s = self._occupied(seat)
        if self._in_hand(seat):
            s.leaving = True
            return None
        return self._pay_out(s)

    # ------------------------------------------------------------------ hands
    def start_hand(self, *, deck: CardsLike | None = None) -> Hand:
        """Move the button, post the blinds, entry bets and missed blinds, and deal (R4, R10).

        :param deck: a stacked deck for this hand (all 32 cards, first dealt first; for tests and
            replays); by default the table's generator shuffles.  While such a hand runs, the
            table's :meth:`snapshot` is not restored (:meth:`Hand.restore
            <pokerdraw32.hand.Hand.restore>` refuses a stub the generator did not shuffle).

        :returns: the new :class:`~pokerdraw32.hand.Hand` (also :attr:`hand`).
        :raises TableError: a hand is running, or fewer than two players can be dealt in.
        """
        if self.hand is not None and not self._settled:
            raise TableError("a hand is running; finish it first")
        now = self._now()
        plan = self._plan()
        dealt, button, posts, missed = plan
        rules = self.rules
        hand_index = {seat: i for i, seat in enumerate(dealt)}
        hand_posts = {hand_index[seat]: amounts for seat, amounts in posts.items() if amounts != (0, 0)}
        stacks = [self._seats[seat].stack for seat in dealt]
        hand = Hand(rules, stacks, hand_index[button], rng=self.rng, deck=deck, posts=hand_posts or None)
        # the hand is running: commit the plan
        amount = _blind_amounts(rules)
        for seat, names in missed.items():
            s = self._seats[seat]
            for blind_name in names:
                s.missed.setdefault(blind_name, amount[blind_name])
        for seat in dealt:
            s = self._seats[seat]
            s.waiting = s.entry_due = False
            s.missed.clear()
        self.button = button
        self.hand = hand
        self.hand_seats = tuple(dealt)
        self._dealt = tuple(self._seats[seat] for seat in dealt)
        self.hand_count += 1
        self._settled = False
        self._after_step(now)
        return hand

    def can_start_hand(self) -> bool:
        """Whether :meth:`start_hand` would deal now: no hand is running and at least two players
        with chips are not sitting out (R3.1, R10.4).  A server polls this between hands."""
        if self.hand is not None and not self._settled:
            return False
        try:
            self._plan()
        except TableError:
            return False
        return True

    def _plan(self) -> tuple[list[int], int, dict[int, tuple[int, int]], dict[int, list[str]]]:
        """Who is dealt in, the button, the posts and the blinds missed (changes nothing)."""
        seats = self._seats
        active = [n for n, s in sorted(seats.items()) if not s.sitting_out and not s.waiting and s.stack > 0
                  and not s.leaving]
        waiting = [n for n, s in sorted(seats.items()) if not s.sitting_out and s.waiting and s.stack > 0
                   and not s.leaving]
        if len(active) + len(waiting) < 2:
            raise TableError(f"a hand needs at least 2 players with chips who are not sitting out; "
                             f"{len(active) + len(waiting)} can play", rule="R3.1")
        # R4.1: the button moves to the next player dealt in; a player waiting for the largest blind
        # (R10.2) is dealt in when it falls on their seat, and never takes the button on entering
        button = self._next_button(active) if active else None
        dealt = list(active)
        for w in waiting:
            group = sorted({*active, w})
            if button is not None and len(group) >= 2 and self._blind_seats(group, button)[-1] == w:
                dealt.append(w)
        if len(dealt) < 2:
            dealt = [*active, *waiting]                    # the game must not stall
            button = self._next_button(sorted(dealt))
        dealt.sort()
        assert button is not None
        blinds = self._blind_seats(dealt, button)
        amounts = dict(zip(blinds, self.rules.blinds(len(dealt)), strict=False))
        L = self.rules.largest_blind(len(dealt))
        posts: dict[int, tuple[int, int]] = {}
        for seat in dealt:
            s = seats[seat]
            due = amounts.get(seat, 0)
            if s.entry_due and due < L:
                posts[seat] = (L - due, 0)                                      # R10.2 entry bet
            elif s.missed and due < L:
                largest = max(s.missed.values())
                live = min(max(self.rules.big_blind, largest), L)
                dead = sum(s.missed.values()) - largest
                posts[seat] = (max(0, live - due), dead)                         # R10.3
        missed: dict[int, list[str]] = {}
        for n, s in sorted(seats.items()):
            if n in dealt or s.waiting or s.leaving:
                continue
            if s.sitting_out or s.stack == 0:
                group = sorted({*dealt, n})
                if len(group) > 5:
                    continue
                where = self._blind_seats(group, button)
                if n in where:
                    missed[n] = [_BLIND_NAMES[where.index(n)]]
        return dealt, button, posts, missed

    def _next_button(self, dealt: list[int]) -> int:
        """R4.1: clockwise from the last button to the next seat dealt in (the first hand: the
        lowest seat dealt in)."""
        if self.button is None:
            return dealt[0]
        for i in range(1, self.seat_count + 1):
            seat = (self.button + i) % self.seat_count
            if seat in dealt:
                return seat
        return dealt[0]  # pragma: no cover - dealt is never empty

    def _blind_seats(self, dealt: list[int], button: int) -> list[int]:
        """Table seats posting the small, big (and over) blind among ``dealt`` (R4.2, R4.3)."""
        order = sorted(dealt, key=lambda s: (s - button - 1) % self.seat_count)    # left of the button first
        if len(dealt) == 2:
            other = order[0] if order[0] != button else order[1]
            return [button, other] if self.rules.heads_up_button_posts_small else [other, button]
        return order[: len(self.rules.blinds(len(dealt)))]

    # ------------------------------------------------------------------ play
    @property
    def actor(self) -> int | None:
        """Table seat of the player to act, or ``None``."""
        h = self.hand
        if h is None or self._settled or h.actor is None or h.pending_deal is not None:
            return None
        return self.hand_seats[h.actor]

    def act(self, seat: int, action: Action | str) -> Event:
        """Apply the action of the player at table seat ``seat`` (see :meth:`Hand.act`).

        :raises TableError: no hand is running, or ``seat`` is not dealt in.
        :raises IllegalActionError: the action is not legal (the hand names the rule); nothing changes.
        """
        h = self._running_hand()
        hand_seat = self._hand_seat(seat)
        now = self._now()                         # read before anything changes: a failing clock changes nothing
        ev = h.act(action, hand_seat)
        self._after_step(now)
        return ev

    def set_showdown_choice(self, seat: int, show: bool | None) -> None:
        """The player at table seat ``seat`` says in advance to show (True) or muck (False) at the
        showdown, or withdraws the choice (None) (R9.3; see :meth:`Hand.set_showdown_choice`: a
        player who can win shows anyway).

        :raises TableError: no hand is running, or ``seat`` is not dealt in.
        :raises IllegalActionError: a bad ``show``, or the seat has folded; nothing changes.
        """
        self._running_hand().set_showdown_choice(self._hand_seat(seat), show)

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
            return ev
        if d.raise_at is not None and now >= d.raise_at:
            ev = h.withdraw_raise()
            self.deadline = Deadline(d.seat, None, d.act_at)
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

    # ------------------------------------------------------------------ chips
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

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` may see it (``None``: an onlooker), as JSON-serialisable data in
        table seat numbers throughout: the seats (name, stack, sitting out, waiting, dealt in), the
        button, whose turn and their deadline, and the running (or last) hand as
        :meth:`Hand.view` shows it to that seat (its cards and showdown choice), with one entry per
        player dealt in under ``"players"`` (table seat, name, stack, bet, folded, all-in, cards
        discarded).  Nothing a
        seat may not know appears (no other hole cards, stub or muck): the cards and legal actions
        are those of the player sitting there if they were dealt in to the hand; a player who sat
        down after the deal, and a vacated seat, see what an onlooker sees.

        One stack per player: ``seats[].stack`` is the chips in front of the player now, so during
        a hand it is the stack behind their bets, the same as ``hand.players[].stack``
        (:meth:`seat` gives the stack from before the hand).

        :raises TableError: no such seat.
        """
        if seat is not None:
            self._check_seat_number(seat)
        d = self.deadline
        out: dict[str, Any] = {
            "seats": [{"seat": n, "name": s.name, "stack": self._stack_now(n), "sitting_out": s.sitting_out,
                       "waiting": s.waiting, "in_hand": self._in_hand(n)} for n, s in sorted(self._seats.items())],
            "button": self.button,
            "hand_number": self.hand_count,
            "to_act": self.actor,
            "deadline": None if d is None else {"seat": d.seat, "raise_at": d.raise_at, "act_at": d.act_at},
            "hand": None,
        }
        h = self.hand
        if h is None:
            return out
        table_seat = self.hand_seats.__getitem__
        mine = self._hand_seat_or_none(seat)
        v = h.view(mine) if mine is not None else h.public_view()
        hv: dict[str, Any] = {
            "phase": v["phase"], "pot": v["pot"], "parole_open": v["parole_open"], "stub_count": v["stub_count"],
            "serial": v["serial"], "button": table_seat(v["button"]), "blinds": [table_seat(x) for x in v["blinds"]],
            "to_act": None if v["to_act"] is None else table_seat(v["to_act"]),
            "players": [{"seat": table_seat(i), "name": self._dealt[i].name if i < len(self._dealt) else None,
                         "stack": v["stacks"][i], "bet": v["bets"][i], "folded": v["folded"][i],
                         "all_in": v["all_in"][i], "discarded": v["discarded"][i]} for i in range(h.n)],
            "shown": [{"seat": table_seat(x["seat"]), "cards": x["cards"]} for x in v["shown"]],
            "pots": [{**pot, "eligible": [table_seat(x) for x in pot["eligible"]],
                      **({"winners": [table_seat(x) for x in pot["winners"]]} if "winners" in pot else {})}
                     for pot in v["pots"]],
        }
        if mine is not None:
            hv["cards"] = v["cards"]
            hv["showdown_choice"] = v["showdown_choice"]
            legal = v["legal"]
            hv["legal"] = None if legal is None else {**legal, "seat": table_seat(legal["seat"])}
        out["hand"] = hv
        return out

    def events_for(self, seat: int | None = None, start: int = 0) -> list[Event]:
        """The running (or last) hand's log as ``seat`` may see it (see :meth:`Hand.events_for`),
        with table seat numbers in ``seat`` and in the award details; a seat not dealt in, and a
        seat whose player was dealt in but has left (vacant, or taken by a new player), sees what
        an onlooker sees.

        :raises TableError: no such seat, or no hand yet.
        """
        if seat is not None:
            self._check_seat_number(seat)
        mine = self._hand_seat_or_none(seat)
        return _events_for(self.dealer_events(start), None if mine is None else self.hand_seats[mine], 0)

    def dealer_events(self, start: int = 0) -> list[Event]:
        """The running (or last) hand's complete log from index ``start`` on, every card included
        (the dealer's record, as :attr:`Hand.events`), in table seat numbers (``seat`` and the
        award details' ``winners``).  For a server's own log and audits, never for players: what a
        seat may see is :meth:`events_for`.

        :raises TableError: no hand yet.
        :raises IllegalActionError: ``start`` is not an event index 0..``serial`` (as
            :meth:`Hand.events_for`).
        """
        h = self.hand
        if h is None:
            raise TableError("no hand has been dealt yet")
        first = integer(start)
        if first is None or not 0 <= first <= h.serial:
            raise IllegalActionError(f"start {shown(start)} is not an event index 0..{h.serial}")   # as Hand's
        seats = self.hand_seats
        out = []
        for ev in h.events[first:]:
            info = tuple((k, tuple(seats[x] for x in v) if k == "winners" else v) for k, v in ev.info)
            out.append(Event(ev.kind, None if ev.seat is None else seats[ev.seat], ev.amount, ev.cards, info))
        return out

    def last_history(self) -> HandHistory:
        """The running or last hand as a PHH :class:`~pokerdraw32.history.HandHistory` (as
        :meth:`write_history` writes it: ``hand`` the session's hand number, ``seats`` the table
        seats + 1, ``players`` the names), without keeping every hand (``history`` off): a
        server archives each hand as it ends.

        :raises TableError: no hand yet.
        """
        h = self.hand
        if h is None:
            raise TableError("no hand has been dealt yet")
        return _history(self.hand_count, h, self.hand_seats, tuple(s.name for s in self._dealt))

    # ------------------------------------------------------------------ persistence
    def write_history(self, stream: TextIO) -> int:
        """Write every finished hand kept by the table (``history=True``) to ``stream`` as one
        ``.phhs`` file (PHH, see :mod:`pokerdraw32.history`): ``hand`` is the session's hand
        number, ``seats`` the table seat numbers + 1, ``players`` the names; entry bets and
        missed blinds are in ``_posts``.  ``pokerdraw32 replay`` reproduces every stack.

        :returns: the number of hands written.
        """
        from .history import HistoryWriter

        writer = HistoryWriter(stream)
        for number, hand, seats, names in self.hands:
            writer.write(_history(number, hand, seats, names))
        return len(self.hands)

    def snapshot(self, *, ledger_from: int = 0) -> dict[str, Any]:
        """The session as versioned, JSON-serialisable data: settings, seats (with missed blinds
        and waiting state), button, ledger, the generator's state, the running hand's snapshot
        (:meth:`Hand.snapshot`), the current deadline and the clock's time (``"clock"``).  Finished
        hands are not included (write them with :meth:`write_history`); the clock is not data: give
        one to :meth:`restore`, which shifts the deadline to it, keeping the time left to act.

        :param ledger_from: write only the ledger lines from this index on (``"ledger"``), for a
            store that keeps the earlier lines itself (a server saving after every action: the
            ledger grows by a line per seat per hand, the rest of the snapshot does not);
            :meth:`restore` needs the whole ledger back in ``"ledger"``.
        :raises TableError: the clock fails, or ``ledger_from`` is not 0..``len(ledger)``.

        Holds the running hand's cards: the dealer's record, never for players.
        """
        if isinstance(ledger_from, bool) or not isinstance(ledger_from, int) or \
                not 0 <= ledger_from <= len(self.ledger):
            raise TableError(f"ledger_from must be a ledger index 0..{len(self.ledger)}, got {shown(ledger_from)}")
        h = self.hand
        return {
            "format": TABLE_FORMAT,
            "version": TABLE_VERSION,
            "rules": self.rules.options(),
            "seat_count": self.seat_count,
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
            "decision_time": self.decision_time,
            "raise_time": self.raise_time,
            "history": self.keep_history,
            "seats": [s.to_dict() for _, s in sorted(self._seats.items())],
            "button": self.button,
            "hand_count": self.hand_count,
            "ledger": [e.to_dict() for e in self.ledger[ledger_from:]],
            "rng": [f"{word:016x}" for word in self.rng.getstate()],
            "clock": self._now(),
            "hand": None if h is None or self._settled else h.snapshot(),
            "hand_seats": list(self.hand_seats),
            "deadline": None if self.deadline is None else {
                "seat": self.deadline.seat, "raise_at": self.deadline.raise_at, "act_at": self.deadline.act_at},
        }

    @classmethod
    def restore(cls, data: dict[str, Any], *, clock: Callable[[], float] | None = None) -> Table:
        """The session saved by :meth:`snapshot`, continuing exactly (same seats, button, ledger,
        generator and running hand).

        The snapshot is checked against itself: every rules option is required (none filled in
        with a default), the running hand must restore (its log replayed, see
        :func:`pokerdraw32.snapshot.restore`) with the seats' stacks as its starting stacks and the
        table's generator as its own, and the seats must be what the ledger says line by line
        (who bought in where, their additions, results and cash-outs, R9.5, R10.1), so chips moved
        between seats are refused even when the totals balance.  The ledger must be one the table
        writes: buy-ins and additions within the snapshot's limits, one block of results per hand
        in seat order, hands numbered without a gap; the seats' flags (``leaving``, ``waiting``,
        ``entry_due``, ``missed``) must be ones the table sets, and ``hand_seats`` and the button
        the last hand's (see :meth:`_check_seats_against_ledger` for the exact list).

        The deadline: what is kept is the time left, ``act_at - clock`` in the snapshot's clock
        (and likewise for ``raise_at``); restored, the deadline is that far from the new clock's
        time.  It must be a deadline the table sets (:meth:`_check_deadline`): at most
        ``decision_time`` left (less than 0 when it had passed but was not yet applied with
        :meth:`expire`), ``raise_at`` only with a raise limit, for a player who may still raise
        in a betting round, exactly ``raise_time`` after the decision began.  The snapshot's
        ``clock`` is only checked to this extent: a clock moved later than the decision's start
        leaves less time (a state the table reaches when time passes), never more.

        :raises TableError: another format or version, a bad or inconsistent field (named: types,
            seats, names, seat flags, missed blinds, ledger lines, a buy-in outside the limits, a
            running hand that is over or whose seats, stacks, button, generator or rules are not
            the table's, a deadline for the wrong seat or with more time than the table gives),
            seats that are not the ledger's, or a ledger that does not balance.
        :raises SnapshotError: a bad running-hand snapshot (see :func:`pokerdraw32.snapshot.restore`).
        """
        if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
            got = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise TableError(f"not a table snapshot: format {shown(got)}, expected {TABLE_FORMAT!r}")
        if type(data.get("version")) is not int or data.get("version") != TABLE_VERSION:
            raise TableError(f"table snapshot version {shown(data.get('version'))} cannot be read: this pokerdraw32 "
                             f"reads version {TABLE_VERSION} only")
        rules = read_rules(_TableReader(data))
        try:
            t = cls(rules, seats=data["seat_count"], min_buy_in=data["min_buy_in"], max_buy_in=data["max_buy_in"],
                    clock=clock, decision_time=data["decision_time"], raise_time=data["raise_time"],
                    history=data["history"], seed=0)
        except KeyError as exc:
            raise TableError(f"table snapshot: field {exc} is missing") from None
        except PokerDraw32Error as exc:
            raise TableError(f"table snapshot: settings: {exc}") from None
        for key in ("min_buy_in", "max_buy_in"):          # null is not "the default" here (R10.1)
            if getattr(t, key) != data[key]:
                raise TableError(f"table snapshot: settings: {key} {shown(data[key])} is not what the table wrote; "
                                 f"the default would be {getattr(t, key)}")
        r = _TableReader(data, t)
        for key in data:
            if key not in _TABLE_FIELDS:
                raise TableError(f"table snapshot: {shown(key)} is not a field of a table snapshot")
        for sd in r.field("seats", list):
            s = r.seat_state(sd)
            if s.seat in t._seats:
                raise TableError(f"table snapshot: seat {s.seat} appears twice")
            if t._seats and s.seat < max(t._seats):
                raise TableError(f"table snapshot: the seats are not in seat order (seat {s.seat} after "
                                 f"{max(t._seats)})")
            if any(o.name == s.name for o in t._seats.values()):
                raise TableError(f"table snapshot: the name {s.name!r} appears twice")
            t._seats[s.seat] = s
        button = r.field("button", (int, type(None)))
        t.button = None if button is None else t._check_seat_number(button)
        t.hand_count = r.count("hand_count")
        t.ledger = [r.ledger_entry(e) for e in r.field("ledger", list)]
        t._brought = sum(e.chips for e in t.ledger if e.kind in ("buy_in", "add"))
        t._paid = sum(e.chips for e in t.ledger if e.kind == "cash_out")
        t.rng = r.rng("rng")
        t.hand_seats = tuple(t._check_seat_number(x) for x in r.field("hand_seats", list))
        hand = r.field("hand", (dict, type(None)))
        d = r.field("deadline", (dict, type(None)))
        if hand is not None:
            t.hand = Hand.restore(hand)
            if t.hand.rng.getstate() != t.rng.getstate():
                raise TableError("table snapshot: field 'rng' is not the running hand's generator (the hand deals "
                                 "from the table's)")
            t.rng = t.hand.rng                  # the hand deals from the table's generator
            t._settled = False
            h = t.hand
            if not h.auto_deal:
                raise TableError("table snapshot: field 'hand': auto_deal is false, but a table's hands deal "
                                 "themselves from the table's generator [R11.1]")
            if h.is_complete:
                raise TableError("table snapshot: the running hand is already over")
            if h.rules != rules:
                raise TableError("table snapshot: the running hand's rules are not the table's")
            if (h.n != len(t.hand_seats) or list(t.hand_seats) != sorted(set(t.hand_seats))
                    or not all(x in t._seats for x in t.hand_seats)):
                raise TableError("table snapshot: the running hand's seats are not occupied table seats in order")
            if [t._seats[x].stack for x in t.hand_seats] != list(h.starting_stacks):
                raise TableError("table snapshot: the seats' stacks are not the running hand's starting stacks")
            if t.button != t.hand_seats[h.button]:
                raise TableError(f"table snapshot: the button is seat {t.button}, the running hand's is "
                                 f"{t.hand_seats[h.button]}")
            t._dealt = tuple(t._seats[x] for x in t.hand_seats)
            if (d is None) != (t.actor is None):
                raise TableError("table snapshot: field 'deadline' must be given exactly when a player is to act")
        elif d is not None:
            raise TableError("table snapshot: a deadline but no running hand")
        if d is not None:
            try:
                seat, act_at, raise_at = d["seat"], d["act_at"], d["raise_at"]
            except KeyError as exc:
                raise TableError(f"table snapshot: field 'deadline' lacks {exc}") from None
            for what, v in (("act_at", act_at), ("raise_at", raise_at)):
                if v is not None or what == "act_at":
                    _seconds(v, f"table snapshot: deadline {what} must be")
            if seat != t.actor:
                raise TableError(f"table snapshot: the deadline is for seat {shown(seat)}, seat {t.actor} is to act")
            saved = _seconds(r.field("clock", (int, float)), "table snapshot: field 'clock' must be")
            t._check_deadline(float(act_at), None if raise_at is None else float(raise_at), saved)
            # the deadlines keep their remaining time: shifted from the saved clock to the new one
            shift = t._now() - saved
            t.deadline = Deadline(seat, None if raise_at is None else float(raise_at) + shift, float(act_at) + shift)
        t._check_seats_against_ledger()
        t.check_ledger()
        return t

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

    # ------------------------------------------------------------------ helpers
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

    def _stack_now(self, seat: int) -> int:
        """The chips in front of the player at ``seat`` now: during a hand they are dealt in to, the
        stack behind their bets."""
        if self._in_hand(seat):
            assert self.hand is not None
            return self.hand.stacks[self.hand_seats.index(seat)]
        return self._seats[seat].stack

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

    def __repr__(self) -> str:
        seats = ", ".join(f"{n}:{s.name}={s.stack}" for n, s in sorted(self._seats.items()))
        return f"<Table hands={self.hand_count} button={self.button} seats=[{seats}]>"


_LATEST = 2.0**53
"""Latest time a clock may give, in seconds (every later deadline stays exact in a float)."""


def _history(number: int, hand: Hand, seats: tuple[int, ...], names: tuple[str, ...]) -> HandHistory:
    """Hand ``number`` of a table's session as PHH: ``seats`` the hand's table seats (0-based; PHH
    numbers them from 1), ``names`` its players' (:meth:`Table.write_history`, :meth:`Table.last_history`)."""
    from .history import HandHistory

    return HandHistory.from_hand(hand, number=number, seats=[s + 1 for s in seats], players=names)


def _seconds(value: object, what: str) -> float:
    """``value`` as a time in seconds from 0 to 2**53, else a TableError starting with ``what``."""
    good = not isinstance(value, bool) and (
        (isinstance(value, int) and 0 <= value <= _LATEST)
        or (isinstance(value, float) and math.isfinite(value) and 0 <= value <= _LATEST))
    if not good:
        raise TableError(f"{what} a finite number of seconds from 0 to 2**53, got {shown(value)}")
    return float(value)  # type: ignore[arg-type]


def _good_name(name: object) -> bool:
    """A player name: 1 to 64 printable characters without surrounding spaces."""
    return isinstance(name, str) and 0 < len(name) <= 64 and name == name.strip() and name.isprintable()


def _blind_amounts(rules: Rules) -> dict[str, int]:
    """Each blind's amount by name, as :attr:`SeatState.missed` records them (R3.2, R10.3)."""
    return {"small": rules.sb, "big": rules.big_blind, "over": rules.over_blind_amount}


def default_buy_ins(rules: Rules) -> tuple[int, int | None]:
    """R10.1 defaults: (minimum, maximum) buy-in in chips.  No-limit and pot-limit: 20·sb and
    100·bb; fixed-limit: 10 × the second-round bet (2·L, L the largest blind of a full table) and
    no maximum."""
    if rules.structure is Structure.FIXED_LIMIT:
        return 10 * 2 * rules.largest_blind(5), None
    return 20 * rules.sb, 100 * rules.big_blind


def _chips(name: str, value: object) -> int:
    chips = integer(value)
    if chips is None or not 0 < chips <= MAX_CHIPS:
        limit = f", at most {MAX_CHIPS} (R3.2)" if chips is not None and chips > MAX_CHIPS else ""
        raise RulesError(f"{name}={shown(value)} must be a positive number of chips{limit} [R10.1]")
    return chips


_TABLE_FIELDS = frozenset({"format", "version", "rules", "seat_count", "min_buy_in", "max_buy_in", "decision_time",
                           "raise_time", "history", "seats", "button", "hand_count", "ledger", "rng", "clock", "hand",
                           "hand_seats", "deadline"})


class _TableReader(_Reader):
    """Typed access to a table snapshot's fields (the hand snapshot's reader, with TableError)."""

    error = TableError
    where = "table snapshot: field"

    def __init__(self, data: dict[str, Any], table: Table | None = None) -> None:
        super().__init__(data)
        self._table = table

    @property
    def table(self) -> Table:
        assert self._table is not None
        return self._table

    def count(self, name: str) -> int:
        return self.integer(name, 0, MAX_CHIPS)

    def seat_state(self, sd: Any) -> SeatState:
        fields = {"seat": int, "name": str, "stack": int, "sitting_out": bool, "waiting": bool, "entry_due": bool,
                  "missed": dict, "leaving": bool}
        if not isinstance(sd, dict) or set(sd) != set(fields):
            raise TableError(f"table snapshot: a seat must have the fields {sorted(fields)}, got {shown(sd)}")
        for key, kind in fields.items():
            v = sd[key]
            if (isinstance(v, bool) and kind is not bool) or not isinstance(v, kind):
                raise TableError(f"table snapshot: seat field {key!r}: {shown(v)} is not {kind.__name__}")
        self.table._check_seat_number(sd["seat"])
        if not _good_name(sd["name"]):
            raise TableError(f"table snapshot: bad player name {shown(sd['name'])}")
        if not 0 <= sd["stack"] <= MAX_CHIPS:
            raise TableError(f"table snapshot: seat {sd['seat']}: stack {shown(sd['stack'])} is out of range")
        amounts = _blind_amounts(self.table.rules)
        for blind, amount in sd["missed"].items():
            if blind not in amounts or amount != amounts[blind]:
                raise TableError(f"table snapshot: seat {sd['seat']}: missed {shown(blind)} {shown(amount)} is not a "
                                 "blind of this table [R10.3]")
        return SeatState(**sd)

    def ledger_entry(self, e: Any) -> LedgerEntry:
        if not isinstance(e, dict) or set(e) != {"kind", "seat", "name", "chips", "hand"}:
            raise TableError(f"table snapshot: bad ledger entry {shown(e)}")
        if e["kind"] not in ("buy_in", "add", "cash_out", "hand"):
            raise TableError(f"table snapshot: ledger kind {shown(e['kind'])} is not buy_in, add, cash_out or hand")
        for key in ("seat", "chips", "hand"):
            v = e[key]
            if isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_CHIPS:
                raise TableError(f"table snapshot: ledger {key} {shown(v)} is not an integer")
        if e["kind"] != "hand" and e["chips"] < 0:
            raise TableError(f"table snapshot: ledger {e['kind']} of {e['chips']} chips")
        if not isinstance(e["name"], str):
            raise TableError(f"table snapshot: ledger name {shown(e['name'])} is not a string")
        return LedgerEntry(**e)
