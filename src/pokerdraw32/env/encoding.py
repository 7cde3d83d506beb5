"""The research encoding with numpy arrays: :class:`Encoding` wraps the engine's compiled (or pure)
encoding functions, :mod:`pokerdraw32._handcore.encode`, whose module docstring is the full layout of the
action space and of the observation (also in the documentation's "The environments" page,
docs/research/environments.md).

Each function takes a :class:`~pokerdraw32.hand.Hand` (the dealer's) or a
:class:`~pokerdraw32.bots.SeatView` (what one seat may know, as a bot receives it): from a view the
encoding fills a hand's core with what that seat may know (:func:`pokerdraw32._handcore.encode.view_core`;
the amounts the view does not hold, such as the bet to match, the bets and raises of the round and
each seat's chips in the pot, are read back from its public log) and runs the same compiled
functions on it, so the arrays are those of the hand at that decision (tests/test_policy_bot.py
checks it over random hands of every rule set).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._kernels import encode as _encode
from ..actions import Action, ActionKind, Event, EventKind, LegalActions, Phase
from ..bots import _PHASE_CODE, SeatView, _action, _kinds_mask
from ..errors import MAX_CHIPS, IllegalActionError, PokerDraw32TypeError, PokerDraw32ValueError, shown
from ..hand import Hand
from ..rules import Rules

DEFAULT_BUCKETS: tuple[float, ...] = tuple(_encode.DEFAULT_BUCKETS)
"""Bet/raise buckets as pot fractions: minimum (``0``), half pot, pot, all-in (``< 0``)."""
OBS_SIZE: int = _encode.OBS_SIZE
"""Length of an observation (float32)."""


def action_index(index: Any) -> int | None:
    """``index`` as an action index: a Python or numpy integer, or a 0-d integer array (what
    Stable-Baselines3's ``predict`` returns for one environment); None for anything else (a bool,
    a float, a sequence)."""
    if isinstance(index, (bool, np.bool_)):
        return None
    if isinstance(index, (int, np.integer)):
        return int(index)
    if isinstance(index, np.ndarray) and index.shape == () and np.issubdtype(index.dtype, np.integer):
        return int(index)
    return None


_RECORD = {kind: code for code, kind in enumerate(EventKind)}
"""An event kind's record code in a hand's log (:func:`pokerdraw32._handcore.state.decode` reads them so)."""
_READ = {kind: _RECORD[kind] for kind in (
    EventKind.POST_BLIND, EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE,
    EventKind.SPLIT, EventKind.DECLINE, EventKind.TIMEOUT, EventKind.ROUND_END, EventKind.RETURN_UNCALLED)}
"""The events a view's state is read from, by their record codes (FOLD to DECLINE: the actions)."""
(_E_POST_BLIND, _E_FOLD, _E_CALL, _E_BET, _E_RAISE, _E_SPLIT, _E_DECLINE, _E_ROUND_END,
 _E_RETURN_UNCALLED) = (_RECORD[k] for k in (EventKind.POST_BLIND, EventKind.FOLD, EventKind.CALL, EventKind.BET,
                                             EventKind.RAISE, EventKind.SPLIT, EventKind.DECLINE,
                                             EventKind.ROUND_END, EventKind.RETURN_UNCALLED))
Source = Hand | SeatView
"""What the encoding reads: the dealer's :class:`~pokerdraw32.hand.Hand`, or one seat's
:class:`~pokerdraw32.bots.SeatView`."""


def _checked(view: SeatView) -> int:
    """The number of players of ``view``, checked as a view of a hand, as :meth:`SeatView.of` builds it
    (the compiled encoding indexes its arrays by these values without bounds checks).

    :raises PokerDraw32ValueError: a field that no hand gives (the message names it).
    """
    n = view.players
    if type(n) is not int or not 2 <= n <= 5:
        raise PokerDraw32ValueError(f"a SeatView of {n!r} players: a hand is dealt to 2 to 5 players [R3.1]")
    hole = view.hole_cards
    chips = (*view.stacks, *view.bets, *view.starting_stacks, view.pot)
    bad = None
    if not isinstance(view.rules, Rules):
        bad = f"rules {type(view.rules).__name__}"
    elif view.seat not in _SEATS[n] or type(view.seat) is not int:
        bad = f"seat {view.seat!r}"
    elif view.button not in _SEATS[n] or type(view.button) is not int:
        bad = f"button {view.button!r}"
    elif view.to_act is not None and (view.to_act not in _SEATS[n] or type(view.to_act) is not int):
        bad = f"to_act {view.to_act!r}"
    elif view.phase not in _PHASE_CODE:
        bad = f"phase {view.phase!r}"
    elif type(view.public_events) is not tuple:
        bad = f"public_events {type(view.public_events).__name__}"
    elif len(hole) > 5 or not _CODES.issuperset(hole) or len(set(hole)) != len(hole):
        bad = f"hole_cards {hole!r}"                                  # R3.1: at most five cards of the deck
    elif view.legal is not None and (type(view.legal) is not LegalActions or view.legal.seat != view.seat):
        bad = f"legal {view.legal!r}"
    elif not len(view.stacks) == len(view.bets) == len(view.folded) == len(view.discarded) \
            == len(view.starting_stacks) == n:
        bad = "a field with another number of seats"
    elif not _DRAWN.issuperset(view.discarded):
        bad = f"discarded {view.discarded!r}"                          # R6.1: 0 to 4 cards
    elif set(map(type, chips)) != _INT or min(chips) < 0 or max(chips) > MAX_CHIPS:
        bad = f"chips {chips!r}"                                      # R3.2
    elif any(isinstance(c, bool) or not isinstance(c, int) for c in hole):
        bad = f"hole_cards {hole!r}"
    elif any(type(f) is not bool for f in view.folded):
        bad = f"folded {view.folded!r}"
    elif view.legal is not None:
        bad = _bad_legal(view.legal, view.phase)
    if bad is None:
        bad = _bad_events(view.public_events, n)
    if bad is not None:
        raise PokerDraw32ValueError(f"a SeatView with {bad}: not a view of a hand of {n} players (build it with "
                                    "SeatView.of)")
    return n


def _chip_count(value: object) -> bool:
    """An int (not a bool) from 0 to MAX_CHIPS (R3.2)."""
    return type(value) is int and 0 <= value <= MAX_CHIPS


def _bad_legal(legal: LegalActions, phase: Phase) -> str | None:
    """What is wrong with a view's legal actions (as SeatView.of gives them), or None."""
    if phase is Phase.COMPLETE or legal.phase is not phase:
        return f"legal actions in phase {phase!r}"
    if not isinstance(legal.kinds, frozenset) or not all(isinstance(k, ActionKind) for k in legal.kinds):
        return f"legal kinds {legal.kinds!r}"
    if not _chip_count(legal.call_amount):
        return f"legal call_amount {legal.call_amount!r}"
    bounds = (legal.min_to, legal.max_to)
    if bounds != (None, None) and (not all(map(_chip_count, bounds)) or legal.min_to > legal.max_to):   # type: ignore[operator]
        return f"legal bounds min_to={legal.min_to!r}, max_to={legal.max_to!r}"
    return None


def _bad_events(events: tuple[Any, ...], n: int) -> str | None:
    """What is wrong with a view's public log (seats and amounts as a hand's log has them), or None."""
    for i, ev in enumerate(events):
        if not isinstance(ev, Event):
            return f"public_events[{i}] {type(ev).__name__}"
        if ev.seat is not None and (type(ev.seat) is not int or not 0 <= ev.seat < n):
            return f"public_events[{i}] seat {ev.seat!r}"
        if ev.amount is not None and not _chip_count(ev.amount):
            return f"public_events[{i}] amount {ev.amount!r}"
    return None


_SEATS = [frozenset(range(n)) for n in range(6)]
_CODES = frozenset(range(32))
_DRAWN = frozenset({None, 0, 1, 2, 3, 4})
_INT = {int}


class _ViewState:
    """What the encoding and the refusal messages read of a hand, worked out from one seat's
    :class:`~pokerdraw32.bots.SeatView` and its public log (the view holds no betting history)."""

    __slots__ = ("actions", "bet_count", "contrib", "dead", "no_raise", "raise_withdrawn", "rules", "stacks",
                 "to_match", "view", "votes")

    def __init__(self, view: SeatView) -> None:
        n = _checked(view)
        self.view = view
        self.rules = view.rules
        self.stacks = view.stacks
        events = view.public_events
        try:
            self._read(view, n, events)
        except (AttributeError, TypeError, IndexError) as e:
            raise PokerDraw32ValueError(f"the SeatView's public_events are not a hand's log ({type(e).__name__}: "
                                        f"{e}); build the view with SeatView.of") from None

    def _read(self, view: SeatView, n: int, events: tuple[Any, ...]) -> None:
        contrib = [0] * n
        bets = [0] * n
        dead = 0
        levels = [view.rules.largest_blind(n), 0]    # round one: the largest blind is the first bet (R4.4)
        counts = [1, 0]                              # ... and counts as one (R3.4)
        r = 0
        actions: list[int] = []                      # the current round's actions, as the log's records
        no_raise = [False] * n
        votes = 0
        for ev in events:
            code = _READ.get(ev.kind)           # the log's record code, for the events read here
            if code is None:
                continue
            seat: Any = ev.seat                 # an int for every event read below but ROUND_END
            a: Any = ev.amount
            if code >= _E_FOLD and code <= _E_DECLINE:                  # a player's action in the round
                actions += (code, seat, 0 if a is None else a + 1)
                if code == _E_CALL:
                    contrib[seat] += a
                    bets[seat] += a
                elif code in (_E_BET, _E_RAISE):                        # to a: a - bet more chips
                    contrib[seat] += a - bets[seat]
                    bets[seat] = a
                    levels[r] = a
                    if ev.get("full"):
                        counts[r] += 1                                  # R3.5: a full bet or raise
                elif code == _E_SPLIT:       # R8.1: the offer's votes (read while it is open; kept after
                    votes |= 1 << seat       # the hand, as the hand keeps them)
            elif code == _E_POST_BLIND:
                if ev.get("blind") == "dead":                           # R10.3: nobody's bet
                    dead += a
                else:
                    contrib[seat] += a
                    bets[seat] += a
            elif code == _E_ROUND_END:
                r = 1
                bets = [0] * n
                actions = []
            elif code == _E_RETURN_UNCALLED:                            # R9.2
                contrib[seat] -= a
                bets[seat] = max(0, bets[seat] - a)
            elif ev.get("rule") == "R6.3":                              # a timeout in the draw
                no_raise[seat] = True
        last = events[-1] if events else None                           # R7.3: for this turn only
        withdrawn = last.seat if last is not None and last.kind is EventKind.RAISE_WITHDRAWN else None
        phase = view.phase
        k = 1 if phase is Phase.SECOND_ROUND else 0
        self.to_match = levels[k] if phase is not Phase.DEAL else 0
        self.bet_count = counts[k] if phase is not Phase.DEAL else 0
        self.contrib = contrib
        self.dead = dead
        self.actions = actions
        self.votes = votes
        self.no_raise = no_raise
        self.raise_withdrawn = withdrawn

    def core(self) -> Any:
        """The hand's core of :func:`pokerdraw32._handcore.encode.view_core` for this view."""
        view = self.view
        legal = view.legal
        seat = view.seat
        if legal is not None:
            kinds, call = _kinds_mask(legal), legal.call_amount
            lo = legal.min_to if legal.min_to is not None else 0
            hi = legal.max_to if legal.max_to is not None else 0
        else:
            kinds = call = lo = hi = 0
        return _encode.view_core(seat, view.players, view.button, view.rules, _PHASE_CODE[view.phase],
                                 -1 if view.to_act is None else view.to_act, [int(c) for c in view.hole_cards],
                                 view.stacks, view.bets, self.contrib, self.dead, view.folded,
                                 [-1 if d is None else d for d in view.discarded], view.parole_open, self.votes,
                                 self.to_match, self.bet_count, self.actions, kinds, call, lo, hi)

    # -- what pokerdraw32._handcore.encode.action_error and pokerdraw32._handcore.refusal read of a Hand
    @property
    def actor(self) -> int | None:
        return self.view.seat if self.view.legal is not None else None

    @property
    def phase(self) -> Phase:
        return self.view.phase

    @property
    def is_complete(self) -> bool:
        return self.view.phase is Phase.COMPLETE

    @property
    def pending_deal(self) -> None:
        return None

    @property
    def hole(self) -> list[list[int]]:
        view = self.view
        return [[int(c) for c in view.hole_cards] if s == view.seat else [] for s in range(view.players)]

    def legal_actions(self) -> LegalActions | None:
        return self.view.legal

    def _answerable(self, p: int) -> bool:
        """R5.5, as ``Hand._answerable``."""
        v = self.view
        return any(i != p and not v.folded[i] and v.stacks[i] > self.to_match - v.bets[i] for i in range(v.players))


class Encoding:
    """The action space and the observation of :mod:`pokerdraw32._handcore.encode`, with numpy arrays.

    Every method reads either a :class:`~pokerdraw32.hand.Hand` (the dealer's: the observation of
    any seat, the mask of the player to act) or a :class:`~pokerdraw32.bots.SeatView` (one seat's:
    the observation of that seat, its mask when it is to act, all zero otherwise), with the same
    result for a view as for the hand it was taken from at that decision.  The last view read is
    remembered, so that reading its observation, then its mask, then an action works it out once.

    :param buckets: the bet/raise buckets as pot fractions, 1 to 16 of them: a bucket ``f``
        raises to ``to_match + f * (pot + call)`` chips (rounded down), ``0`` is the minimum bet
        or raise and a negative value the maximum (all-in, or the pot-limit bound), always
        clipped to the legal bounds; a bucket that repeats an earlier one's amount is masked.
    :raises PokerDraw32ValueError: not 1 to 16 buckets, or a bucket above 1000 (or NaN).

    >>> from pokerdraw32 import Hand, Rules
    >>> from pokerdraw32.bots import SeatView
    >>> enc = Encoding()
    >>> h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    >>> enc.actions, [enc.action_name(i) for i in enc.action_mask(h).nonzero()[0]]   # half pot: the min raise
    (39, ['fold', 'check/call', 'bet/raise min', 'bet/raise 1 pot', 'bet/raise all-in'])
    >>> enc.observation(h, 0, scale=200).shape
    (171,)
    >>> view = SeatView.of(h)                      # what the seat to act may know
    >>> bool((enc.observation(view) == enc.observation(h, h.actor, 200)).all())
    True
    >>> enc.action(view, 1)
    Action(kind=<ActionKind.CALL: 'call'>, amount=None, cards=())
    """

    def __init__(self, buckets: Sequence[float] = DEFAULT_BUCKETS) -> None:
        values = [float(b) for b in buckets]
        if not 1 <= len(values) <= _encode.MAX_BUCKETS:
            raise PokerDraw32ValueError(f"{len(values)} bet/raise buckets: use 1 to {_encode.MAX_BUCKETS}")
        for b, f in enumerate(values):
            if math.isnan(f) or f > 1000:
                raise PokerDraw32ValueError(f"bucket {b}: pot fraction {f} must be a number, at most 1000")
        self.buckets: npt.NDArray[np.float64] = np.array(values, dtype=np.float64)
        self.buckets.flags.writeable = False
        self._buckets = np.array(values, dtype=np.float64)   # the writable copy the C functions take
        self.actions: int = _encode.action_count(values)
        """Size of the discrete action space: ``35 + len(buckets)``."""
        self.discard0: int = _encode.BET0 + len(values)
        """Index of the first discard action (stand pat); discard mask ``m`` is ``discard0 + m``."""
        self._last: tuple[SeatView, _ViewState, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_last"] = None                     # a cache: not pickled or copied
        return state

    def _core(self, source: Source) -> Any:
        """The hand's core the compiled functions read: the hand itself, or the view's."""
        if isinstance(source, SeatView):
            return self._state(source)[1]
        return source

    def _state(self, view: SeatView) -> tuple[_ViewState, Any]:
        last = self._last                          # one tuple, read once: threads see a whole entry
        if last is not None and last[0] is view:
            return last[1], last[2]
        state = _ViewState(view)
        core = state.core()
        self._last = (view, state, core)
        return state, core

    def observation(self, source: Source, seat: int | None = None, scale: float | None = None,
                    out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The observation of ``seat``: ``float32[OBS_SIZE]``, chips divided by ``scale``, written
        into ``out`` when given.

        :param source: a :class:`~pokerdraw32.hand.Hand`, or a
            :class:`~pokerdraw32.bots.SeatView` (then ``seat`` is the view's seat, or None).
        :param seat: the observing seat; default: the view's seat (required with a hand).
        :param scale: chips a unit of the amounts (positive); default: the seat's starting stack
            in this hand, ``starting_stacks[seat]`` (what :class:`~pokerdraw32.env.DrawEnv` uses).
        :raises PokerDraw32ValueError: no such seat, another seat than the view's, ``scale`` not
            positive.
        """
        if isinstance(source, SeatView):
            if seat is None:
                seat = source.seat
            elif seat != source.seat:
                raise PokerDraw32ValueError(f"a SeatView of seat {source.seat} holds no observation of seat {seat!r}")
            core = self._state(source)[1]
        else:
            if seat is None:
                raise PokerDraw32ValueError("observation(hand, seat): name the observing seat")
            core = source
        if scale is None:
            starting = source.starting_stacks
            if type(seat) is not int or not 0 <= seat < len(starting):
                raise PokerDraw32ValueError(f"no seat {seat!r} in this hand (seats 0..{len(starting) - 1})")
            scale = starting[seat]
        if out is None:
            out = np.empty(OBS_SIZE, dtype=np.float32)
        _encode.observe(core, seat, out, scale)
        return out

    def action_mask(self, source: Source, out: npt.NDArray[np.uint8] | None = None) -> npt.NDArray[np.uint8]:
        """The legal-action mask of the player to act: ``uint8[actions]`` (1 legal), all zero when
        nobody is to act (or, from a :class:`~pokerdraw32.bots.SeatView`, when its seat is not);
        written into ``out`` when given.  ``.view(np.int8)`` or ``.view(bool)`` gives the other
        dtypes without a copy."""
        if out is None:
            out = np.empty(self.actions, dtype=np.uint8)
        if isinstance(source, SeatView) and source.legal is None:      # not this seat's turn: all zero
            if len(out) < self.actions:
                raise PokerDraw32ValueError(f"the mask buffer holds {len(out)} values; it needs {self.actions}")
            out[:self.actions] = 0
        else:
            _encode.action_mask(self._core(source), out, self._buckets)
        return out

    def decode(self, source: Source, index: Any) -> int:
        """The packed decision of ``index`` for the player to act (see
        :func:`pokerdraw32._handcore.encode.decode_action`), or -1 when it is outside the mask."""
        number = action_index(index)
        if number is None or not 0 <= number < self.actions:
            return -1
        if isinstance(source, SeatView) and source.legal is None:
            return -1
        return int(_encode.decode_action(self._core(source), number, self._buckets))

    def action(self, source: Source, index: Any) -> Action:
        """The :class:`~pokerdraw32.actions.Action` of ``index`` for the player to act (a
        :class:`~pokerdraw32.bots.SeatView`'s seat), nothing played: what :meth:`apply` plays.

        :raises IllegalActionError: ``index`` is outside the legal-action mask (the message names
            the index, the action, the seat and the rule, as :meth:`apply`'s).
        """
        decision = self.decode(source, index)
        if decision < 0:
            raise self.action_error(source, index)
        return _action(decision)

    def action_error(self, source: Source, index: Any) -> IllegalActionError:
        """The :class:`~pokerdraw32.errors.IllegalActionError` for ``index`` outside the mask of
        ``source``: the one :meth:`apply` raises for a hand (the index, the action, the seat, the
        rule); for a view, the same message (a view of a seat that is not to act says so).  An
        ``index`` that is no action index (:func:`action_index`: a float, a bool, a sequence, an
        object with ``__index__``) is refused as such, naming its type (never as the action its
        ``__index__`` would stand for)."""
        number = action_index(index)
        if number is None:
            seat = source.seat if isinstance(source, SeatView) else source.actor
            return IllegalActionError(f"action index {shown(index)} is not an integer of the action space "
                                      f"0..{self.actions - 1} (of type {type(index).__name__}; an action index "
                                      "is an int, a numpy integer or a 0-d integer array)", seat=seat)
        if isinstance(source, SeatView):
            view = source
            if view.legal is None and view.to_act is not None:
                what = f"{number} ({self.action_name(number)})" if number is not None and \
                    0 <= number < self.actions else repr(index)
                return IllegalActionError(f"action index {what}: seat {view.seat} is not to act, seat {view.to_act} "
                                          "is", seat=view.seat, rule="R6.1" if view.phase is Phase.DRAW else "R5.2")
            hand: Any = self._state(view)[0]
        else:
            hand = source
        return _encode.action_error(hand, index if number is None else number, self._buckets)

    def apply(self, hand: Hand, index: Any) -> int:
        """Play action ``index`` for the player to act in ``hand``.

        :returns: the packed decision applied.
        :raises IllegalActionError: ``index`` is outside the legal-action mask (the message names
            the index, the action, the seat and the rule); the hand is unchanged.
        :raises PokerDraw32TypeError: ``hand`` is a :class:`~pokerdraw32.bots.SeatView` (a view
            cannot be played: :meth:`action` gives the action to play).
        """
        if isinstance(hand, SeatView):
            raise PokerDraw32TypeError("apply() plays on a Hand; a SeatView cannot be played: use action(view, index)")
        number = action_index(index)
        if number is None or not 0 <= number < self.actions:
            raise self.action_error(hand, index)
        decision = int(_encode.apply_action(hand, number, self._buckets))
        if decision < 0:
            raise _encode.action_error(hand, number, self._buckets)
        return decision

    def action_name(self, index: int) -> str:
        """A short text for action ``index`` (``"fold"``, ``"bet/raise 0.5 pot"``, ``"discard 01001"``, ...)."""
        return _encode.action_name(int(index), self._buckets)

    @property
    def action_names(self) -> list[str]:
        """The names of every action index, in order."""
        return [self.action_name(i) for i in range(self.actions)]
