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

The session is composed of one part per concern, each a private module built on
:mod:`pokerdraw32.table._base`: the seats and buy-ins (:mod:`pokerdraw32.table._seats`), the button and
the blinds (:mod:`pokerdraw32.table._blinds`), the clock and deadlines (:mod:`pokerdraw32.table._clock`), the
ledger (:mod:`pokerdraw32.table._ledger`) and the snapshot format (:mod:`pokerdraw32.table._snapshot`);
this module puts them together and runs the hands.

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

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .._handcore.events import events_for as _events_for
from .._kernels import Rng
from ..actions import Action, Event
from ..cards import DECK, CardsLike, parse_cards
from ..errors import IllegalActionError, RulesError, TableError, integer, shown
from ..hand import Hand
from ..rules import Rules
from ._blinds import _blind_amounts, _TableBlinds
from ._clock import Deadline, _TableClock
from ._ledger import LedgerEntry
from ._seats import SeatState, _chips, _TableSeats
from ._seats import default_buy_ins as default_buy_ins  # importable from here, as before
from ._snapshot import TABLE_FORMAT as TABLE_FORMAT  # the snapshot format's name and version
from ._snapshot import TABLE_VERSION as TABLE_VERSION
from ._snapshot import restore_table, table_snapshot

if TYPE_CHECKING:
    from ..history import HandHistory

__all__ = ["Deadline", "LedgerEntry", "SeatState", "Table", "TableError"]

_IDENTITY = tuple(tuple(range(n)) for n in range(6))
"""``_IDENTITY[n]``: the seats ``0..n-1``, hand seats that are their own table seats."""

_CARD_NAMES = tuple(str(c) for c in DECK)     # a card code's name ("As")

for _public in (Deadline, LedgerEntry, SeatState):   # defined in the private modules, documented here
    _public.__module__ = __name__


class Table(_TableSeats, _TableBlinds, _TableClock):
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
        self.journal: list[dict[str, Any]] | None = None
        """``None`` (the default), or a list to which every change made through the table's methods
        is appended as a step, a JSON-serialisable dict (``{"op": "act", "seat": 2, "action":
        "raise 30", "at": 12.5}``; the clock's time ``"at"`` where the change reads it): a server
        that saves the table after every action stores the new steps instead of a new
        :meth:`snapshot`, and :meth:`restore` replays them (``steps``).  Set it to a list to start
        recording (the steps since a :meth:`snapshot` taken then); a change refused records
        nothing.  Changes made to :attr:`hand` directly are not recorded."""

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
        if self.journal is not None:
            step: dict[str, Any] = {"op": "start_hand", "at": now}
            if deck is not None:
                step["deck"] = [str(c) for c in parse_cards(deck)]
            self.journal.append(step)
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

    # ------------------------------------------------------------------ play
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
        if self.journal is not None:
            self.journal.append({"op": "act", "seat": self.hand_seats[hand_seat],
                                 "action": action if isinstance(action, str) else str(action), "at": now})
        return ev

    def set_showdown_choice(self, seat: int, show: bool | None) -> None:
        """The player at table seat ``seat`` says in advance to show (True) or muck (False) at the
        showdown, or withdraws the choice (None) (R9.3; see :meth:`Hand.set_showdown_choice`: a
        player who can win shows anyway).

        :raises TableError: no hand is running, or ``seat`` is not dealt in.
        :raises IllegalActionError: a bad ``show``, or the seat has folded; nothing changes.
        """
        h = self._running_hand()
        hand_seat = self._hand_seat(seat)
        h.set_showdown_choice(hand_seat, show)
        if self.journal is not None:
            self.journal.append({"op": "showdown", "seat": self.hand_seats[hand_seat], "show": show})

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
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``seats`` (``None``: an onlooker), equal to ``[view(s) for s
        in seats]``, the part everyone sees computed once: for a server that sends every seat
        its view after each change.  The views share that part's lists and dicts (only the top
        level, ``"hand"`` and the seat's own ``cards``, ``showdown_choice`` and ``legal`` are
        each view's own): copy before changing anything below the top level.

        :raises TableError: no such seat (nothing is computed).
        """
        public, own = self.view_parts(seats)
        hv = public["hand"]
        if hv is None:
            return [dict(public) for _ in seats]
        return [{**public, "hand": dict(hv) if mine is None else {**hv, **mine}} for mine in own]

    def view_parts(self, seats: Sequence[int | None]) -> tuple[dict[str, Any], list[dict[str, Any] | None]]:
        """The views of ``seats`` in two parts: ``(public, own)``, ``public`` the view every
        onlooker gets (:meth:`view` of ``None``) and ``own[i]`` what seat ``seats[i]`` sees
        besides, in ``"hand"``: ``{"cards": [...], "showdown_choice": ..., "legal": ...}``, or
        ``None`` when it sees what an onlooker sees.  So :meth:`view` of ``seats[i]`` is
        ``{**public, "hand": {**public["hand"], **own[i]}}`` (or ``public`` when ``own[i]`` is
        None): a server can write the public part once as JSON and add each seat's own part.

        :raises TableError: no such seat (nothing is computed).
        """
        count = self.seat_count
        for seat in seats:
            if seat is not None and not (type(seat) is int and 0 <= seat < count):
                self._check_seat_number(seat)
        d = self.deadline
        in_hand = set(self.hand_seats) if self.hand is not None and not self._settled else ()
        h = self.hand
        stacks_now = h.stacks if in_hand and h is not None else ()
        hand_index = {seat: i for i, seat in enumerate(self.hand_seats)}
        public: dict[str, Any] = {
            "seats": [{"seat": n, "name": s.name,
                       "stack": stacks_now[hand_index[n]] if n in in_hand else s.stack,
                       "sitting_out": s.sitting_out, "waiting": s.waiting, "in_hand": n in in_hand}
                      for n, s in sorted(self._seats.items())],
            "button": self.button,
            "hand_number": self.hand_count,
            "to_act": self.actor,
            "deadline": None if d is None else {"seat": d.seat, "raise_at": d.raise_at, "act_at": d.act_at},
            "hand": None,
        }
        if h is None:
            return public, [None for _ in seats]
        hs = self.hand_seats                    # hand seat -> table seat
        dealt = self._dealt
        names = [p.name for p in dealt] + [None] * (h.n - len(dealt))
        public["hand"] = h._table_view(hs, names)
        own: list[dict[str, Any] | None] = []
        legal = hole = choices = None
        seated = self._seats
        for seat in seats:
            # as _hand_seat_or_none: the player dealt in at this seat, if they still sit there
            mine = None if seat is None else hand_index.get(seat)
            if seat is None or mine is None or mine >= len(dealt) or seated.get(seat) is not dealt[mine]:
                own.append(None)
                continue
            if hole is None:                        # once for all seats
                hole, choices = h.hole, h.showdown_choices
                legal = h.legal_actions()
            assert choices is not None
            choice = choices[mine]
            if legal is None or legal.seat != mine:
                yours = None
            else:
                yours = legal.to_dict()
                yours["seat"] = hs[legal.seat]      # its first key: in its place
            own.append({"cards": [_CARD_NAMES[c] for c in hole[mine]],
                        "showdown_choice": None if choice is None else "show" if choice else "muck",
                        "legal": yours})
        return public, own

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
        if seats == _IDENTITY[len(seats)]:     # hand seat i is table seat i: the hand's own events
            return h.events[first:]
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
        from ..history import HistoryWriter

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
        return table_snapshot(self, ledger_from)

    @classmethod
    def restore(cls, data: dict[str, Any], *, clock: Callable[[], float] | None = None,
                steps: list[dict[str, Any]] | None = None, saved_at: float | None = None) -> Table:
        """The session saved by :meth:`snapshot`, continuing exactly (same seats, button, ledger,
        generator and running hand); with ``steps``, the session that the snapshot's table became
        by the changes its :attr:`journal` recorded since the snapshot.

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

        The steps (:attr:`journal`: the changes made through the table's methods after the
        snapshot was taken) are applied in order by the same methods, the clock stopped at each
        step's recorded time (``"at"``), so that every deal (from the table's generator), every
        deadline and every timeout is the one the table made; the table then gets ``clock``, and
        the deadline keeps the time it had left at ``saved_at``, the time the steps were saved in
        the old clock (default: the last time a step read).  A step is checked as the method
        checks its arguments, and must be one the table records, at a time no earlier than the
        one before (nor the snapshot's ``clock``, nor after ``saved_at``).  Cheaper to save than a
        snapshot after every action: the steps of an action are a few dozen bytes.

        :raises TableError: another format or version, a bad or inconsistent field (named: types,
            seats, names, seat flags, missed blinds, ledger lines, a buy-in outside the limits, a
            running hand that is over or whose seats, stacks, button, generator or rules are not
            the table's, a deadline for the wrong seat or with more time than the table gives),
            seats that are not the ledger's, or a ledger that does not balance; a bad step (its
            index named: an unknown step, a bad field, a time going back, or a change the table
            refuses, with the table's reason).
        :raises SnapshotError: a bad running-hand snapshot (see :func:`pokerdraw32.snapshot.restore`).
        """
        return restore_table(cls, data, clock, steps, saved_at)

    def __repr__(self) -> str:
        seats = ", ".join(f"{n}:{s.name}={s.stack}" for n, s in sorted(self._seats.items()))
        return f"<Table hands={self.hand_count} button={self.button} seats=[{seats}]>"


def _history(number: int, hand: Hand, seats: tuple[int, ...], names: tuple[str, ...]) -> HandHistory:
    """Hand ``number`` of a table's session as PHH: ``seats`` the hand's table seats (0-based; PHH
    numbers them from 1), ``names`` its players' (:meth:`Table.write_history`, :meth:`Table.last_history`)."""
    from ..history import HandHistory

    return HandHistory.from_hand(hand, number=number, seats=[s + 1 for s in seats], players=names)
