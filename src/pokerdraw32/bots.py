"""Bots for simulation: a uniformly random player, a rule-based player, simple test bots, the
registry of bot names, and what a bot sees.

A bot decides from a :class:`SeatView`: what its seat may know at its turn (its own cards, the
public state, its legal actions, the events it may see), never the dealer's :class:`Hand`.
Any object with a ``decide(view)`` method (:class:`BotLike`), or a plain callable
``view -> action``, can sit at a :func:`~pokerdraw32.simulate.simulate` table.

The bots with a name (:func:`bot_names`, :func:`make_bot`): ``"rule"`` (:class:`RuleBot`),
``"random"`` (:class:`RandomBot`), the test bots ``"call"`` (:class:`CallBot`), ``"shove"``
(:class:`ShoveBot`), ``"fold"`` (:class:`FoldBot`) and ``"maniac"`` (:class:`PotBot`), the
names a program adds with :func:`register_bot`, and those installed packages declare as entry
points of the group ``"pokerdraw32.bots"`` (this package's own: ``"cfr"``, the heads-up
blueprint of :mod:`pokerdraw32.cfr`), loaded only when their name is asked for.

The rule and random bots take their randomness from a seeded :class:`~pokerdraw32._kernels.Rng`, so a
simulation with a seed is reproducible, with compiled or pure kernels alike.  For backward
compatibility their ``decide`` also accepts a :class:`Hand`: it decides for ``hand.actor`` from
that seat's view (``SeatView.of(hand)``), so the same bot makes the same decision either way.

>>> from pokerdraw32 import Hand, Rules
>>> h = Hand(Rules(), [50, 50, 50], button=0, seed=3)
>>> bots = [RuleBot(seed=i) for i in range(3)]
>>> while not h.is_complete:
...     _ = h.act(bots[h.actor].decide(SeatView.of(h)))   # or, as before, .decide(h)
>>> sum(h.result.stacks)
150
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from itertools import combinations
from math import comb
from typing import Any, NamedTuple, Protocol, runtime_checkable
from weakref import WeakKeyDictionary

from ._handcore.events import PRIVATE_EVENTS as _PRIVATE_EVENTS
from ._handcore.events import hidden as _hidden
from ._kernels import ACTION_CODES, Rng, play
from .actions import Action, ActionKind, Event, EventKind, LegalActions, Phase
from .cards import DECK, Card
from .errors import MAX_CHIPS, IllegalActionError, PokerDraw32TypeError, PokerDraw32ValueError
from .hand import Hand
from .rules import Rules

__all__ = ["ENTRY_POINT_GROUP", "ActionProbabilities", "Bot", "BotLike", "CallBot", "FoldBot", "PotBot", "RandomBot",
           "RuleBot", "SeatView", "ShoveBot", "bot_factory", "bot_names", "check_fit", "choose_discards",
           "known_policy", "make_bot", "pot_raise_to", "register_bot"]

_PLAYER_ACTIONS = frozenset({EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE,
                             EventKind.SPLIT, EventKind.DECLINE, EventKind.TIMEOUT, EventKind.RAISE_WITHDRAWN,
                             EventKind.DISCARD})

_CARD = DECK.__getitem__
A_BET, A_RAISE, A_DISCARD = (ACTION_CODES[k] for k in (ActionKind.BET, ActionKind.RAISE, ActionKind.DISCARD))
_new_tuple = tuple.__new__

# Each hand's event log as an onlooker sees it, with each seat's own events that it hides, kept
# up to date incrementally (events are only ever appended): building a view redacts only what
# was logged since, each event once for all seats.  Held here, weakly, never by a view.
# Threads: one hand is used by one thread at a time (as a Hand itself); separate hands in
# separate threads each have their own entry, and the fast path below is one (weak reference,
# logs) pair, stored and read as one object: two slots written one after the other could pair
# one thread's hand with another thread's logs.
_SEAT_LOGS: WeakKeyDictionary[Hand, dict[int | None, list[Event]]] = WeakKeyDictionary()
_last: list[Any] = [None]     # [(weak reference to the last hand, its logs)]: the fast path


def _logs(hand: Hand) -> dict[int | None, list[Event]]:
    """``{None: hand.events_for(None), seat: [the seat's events that log hides], ...}``, caught up."""
    events = hand.events
    last = _last[0]
    if last is not None and last[0]() is hand:
        logs: dict[int | None, list[Event]] = last[1]
    else:
        logs = _SEAT_LOGS.get(hand) or {None: []}
        _SEAT_LOGS[hand] = logs
        _last[0] = (weakref.ref(hand), logs)
    public = logs[None]
    k = len(public)
    if k > len(events):                 # not the log these were made from: start again
        logs.clear()
        public = logs[None] = []
        k = 0
    for ev in events[k:]:               # as Hand.events_for(None): others' cards hidden, their number kept
        if ev.cards and ev.kind in _PRIVATE_EVENTS:
            own = logs.get(ev.seat)
            if own is None:
                own = logs[ev.seat] = []
            own.append(ev)
            ev = _hidden(ev)
        public.append(ev)
    return logs


class SeatView(NamedTuple):
    """What seat ``seat`` may know of a hand at one moment: an immutable copy, with no way back
    to the :class:`~pokerdraw32.hand.Hand` (no other seat's cards, no stub, no muck).

    Build it with :meth:`of`.  Seats are the hand's seats (``0 .. players-1``, clockwise).

    :ivar seat: the seat whose view this is.
    :ivar players: seats dealt in.
    :ivar button: the dealer's seat (R4.1).
    :ivar blinds: seats that posted the blinds, small blind first (R4.2, R4.3).
    :ivar phase: the :class:`~pokerdraw32.actions.Phase`.
    :ivar to_act: the seat to act, or ``None``.
    :ivar hole_cards: this seat's own cards now (empty after folding).
    :ivar pot: chips in the pot, current bets included.
    :ivar stacks: each seat's chips behind.
    :ivar bets: each seat's bet in the current round.
    :ivar folded: each seat's fold.
    :ivar all_in: each seat in the hand with no chips behind (computed on access).
    :ivar discarded: how many cards each seat drew (``None`` before it drew, R6.1).
    :ivar parole_open: a Parole offer is open (R8).
    :ivar legal: this seat's :class:`~pokerdraw32.actions.LegalActions` on its turn, else ``None``.
    :ivar rules: the table's :class:`~pokerdraw32.rules.Rules`.
    :ivar public_events: the hand's log as an onlooker sees it (``Hand.events_for(None)``).
    :ivar own_events: this seat's own events that an onlooker sees without their cards (its
        deal, discards and replacement cards), in order; :attr:`events` puts them in place.
    :ivar starting_stacks: each seat's chips before the blinds.
    """

    seat: int
    players: int
    button: int
    blinds: tuple[int, ...]
    phase: Phase
    to_act: int | None
    hole_cards: tuple[Card, ...]
    pot: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    folded: tuple[bool, ...]
    discarded: tuple[int | None, ...]
    parole_open: bool
    legal: LegalActions | None
    rules: Rules
    public_events: tuple[Event, ...]
    own_events: tuple[Event, ...]
    starting_stacks: tuple[int, ...]

    @classmethod
    def of(cls, hand: Hand, seat: int | None = None) -> SeatView:
        """The view of ``seat`` (default: the seat to act) in ``hand`` now.

        :raises IllegalActionError: no such seat, or ``seat`` is None and nobody is to act.
        """
        if seat is None:
            seat = hand.actor
            if seat is None:
                raise IllegalActionError("nobody is to act: name the seat whose view you want")
        else:
            seat = hand._check_seat(seat)
        logs = _logs(hand)
        legal = hand.legal_actions()
        if legal is not None and legal.seat == seat:
            hole = legal.hole_cards
        else:
            legal = None
            hole = tuple(map(_CARD, hand.hole[seat]))
        n, button, blinds, phase, to_act, pot, stacks, bets, folded, discarded, offer, rules, start = \
            hand._public_state()
        return _new_tuple(cls, (seat, n, button, blinds, phase, to_act, hole, pot, stacks, bets, folded, discarded,
                                offer, legal, rules, tuple(logs[None]), tuple(logs.get(seat, ())), start))

    @property
    def all_in(self) -> tuple[bool, ...]:
        """Each seat still in the hand with no chips behind (all False once the hand is over)."""
        if self.phase is Phase.COMPLETE:
            return (False,) * self.players
        return tuple(not f and s == 0 for f, s in zip(self.folded, self.stacks, strict=True))

    @property
    def events(self) -> tuple[Event, ...]:
        """The hand's log as this seat may see it, as ``Hand.events_for(seat)`` (computed on access)."""
        own = iter(self.own_events)
        seat = self.seat
        return tuple(next(own) if ev.seat == seat and not ev.cards and ev.kind in _PRIVATE_EVENTS
                     and ev.get("hidden") is not None else ev for ev in self.public_events)

    @property
    def round_actions(self) -> tuple[Event, ...]:
        """The players' actions in the current betting round or draw so far (from :attr:`events`)."""
        out: list[Event] = []
        for ev in self.events:
            if ev.kind is EventKind.ROUND_END:
                out = []
            elif ev.kind in _PLAYER_ACTIONS:
                out.append(ev)
        return tuple(out)


@runtime_checkable
class BotLike(Protocol):
    """Anything that can sit at a simulated table: ``decide(view)`` returns an
    :class:`~pokerdraw32.actions.Action` or an action text (``"call"``, ``"r 8"``, ...) for
    ``view.seat``, which is to act."""

    def decide(self, view: SeatView) -> Action | str: ...


Policy = BotLike | Callable[[SeatView], Action | str]
"""A user bot: a :class:`BotLike` object or a plain callable ``view -> action``."""

ActionProbabilities = list[tuple[Action, float]]
"""A bot's exact distribution at one decision: ``[(action, probability), ...]``, each action legal,
the probabilities > 0 summing to 1 (what ``action_probabilities(view)`` returns; a discard's cards
in the order of the hole cards, whatever order ``decide`` gives them in)."""


def known_policy(bot: object) -> Callable[[SeatView], ActionProbabilities | None] | None:
    """A bot's ``action_probabilities`` when an estimator may take it for the distribution of the
    bot's ``decide`` (:mod:`pokerdraw32.aivat`), else None.

    Trusted only when the bot's own class defines ``action_probabilities`` (its ``decide`` there or
    inherited) and the instance replaces neither method: a subclass that overrides ``decide``, or
    inherits both, may decide otherwise than the distribution says, and a ``decide`` set on an
    instance surely does.  A class or a name is not a bot: None.  :class:`RuleBot`,
    :class:`RandomBot`, the test bots, :class:`~pokerdraw32.cfr.CfrBot` and
    :class:`~pokerdraw32.env.PolicyBot` define it (the last returns None at a decision whose
    distribution its policy does not expose).
    """
    if isinstance(bot, (type, str)):
        return None
    probabilities = getattr(bot, "action_probabilities", None)
    if probabilities is None or not callable(probabilities):
        return None
    own = getattr(bot, "__dict__", {})
    if "decide" in own or "action_probabilities" in own or "__call__" in own:
        return None
    cls = type(bot)
    if "action_probabilities" not in vars(cls):
        return None
    return probabilities  # type: ignore[no-any-return]


class Bot:
    """Base class: :meth:`decide` returns the action for the seat to act, from its :class:`SeatView`."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed)

    def decide(self, view: SeatView | Hand | None = None, *, hand: Hand | None = None) -> Action:
        """The :class:`~pokerdraw32.actions.Action` this bot takes for ``view.seat``.  Given a
        :class:`Hand` (the older form, also as ``hand=``), it decides for ``hand.actor`` from
        ``SeatView.of(hand)``."""
        raise NotImplementedError(f"{type(self).__name__}.decide: a Bot subclass decides (implement decide(view))")


def _legal_of(view: SeatView | Hand | None, hand: Hand | None) -> tuple[SeatView, LegalActions]:
    if hand is not None:
        if view is not None:
            raise PokerDraw32TypeError("decide() takes a view or hand=, not both")
        view = hand
    if isinstance(view, Hand):
        if view.actor is None:
            raise IllegalActionError(f"nobody is to act in this hand (phase {view.phase.value}): a bot decides for "
                                     "the seat to act")
        view = SeatView.of(view)
    elif not isinstance(view, SeatView):
        raise PokerDraw32TypeError(f"a bot decides from a SeatView (or a Hand), got {type(view).__name__}")
    legal = view.legal
    if legal is None:
        raise IllegalActionError(f"seat {view.seat} is not to act (seat {view.to_act} is): a bot decides from the "
                                 "view of the seat to act" if view.to_act is not None else
                                 f"nobody is to act in this hand (phase {view.phase.value}): a bot decides for the "
                                 "seat to act", seat=view.seat)
    return view, legal


_PHASE_CODE = {Phase.DEAL: 0, Phase.FIRST_ROUND: 1, Phase.DRAW: 2, Phase.SECOND_ROUND: 3, Phase.COMPLETE: 4}
_CONSTANTS = {code: Action(kind) for kind, code in ACTION_CODES.items()
              if kind not in (ActionKind.DISCARD, ActionKind.BET, ActionKind.RAISE)}


def _packed(cards: Any) -> int:
    """Five different card codes in order, 5 bits each (the policies' form of a hand,
    :mod:`pokerdraw32._handcore.play`).

    :raises PokerDraw32ValueError: not five different cards of the deck (R1.1, R3.1)."""
    codes = tuple(cards) if not isinstance(cards, tuple) else cards
    packed = mask = 0
    good = len(codes) == 5
    if good:
        for i, c in enumerate(codes):
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 32 or mask >> c & 1:
                good = False
                break
            mask |= 1 << c
            packed |= int(c) << 5 * i
    if not good:
        raise PokerDraw32ValueError(f"expected five different cards of the deck, got {cards!r}")
    return packed


def _chips(*amounts: Any) -> None:
    """The view's amounts the policies read are chip counts (0 to MAX_CHIPS, R3.2)."""
    for a in amounts:
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a <= MAX_CHIPS:
            raise PokerDraw32ValueError(f"a view's chip amount must be an int from 0 to {MAX_CHIPS}, got {a!r} [R3.2]")


def _kinds_mask(legal: LegalActions) -> int:
    mask = 0
    for kind in legal.kinds:
        mask |= 1 << ACTION_CODES[kind]
    return mask


def _action(decision: int) -> Action:
    """The :class:`Action` of a policy's packed decision."""
    code = decision & 255
    if code == A_DISCARD:
        return Action.discard(tuple(_CARD(c) for c in play.discard_cards(decision)))
    if code in (A_BET, A_RAISE):
        return Action(ActionKind.BET if code == A_BET else ActionKind.RAISE, decision >> 8)
    return _CONSTANTS[code]


class RandomBot(Bot):
    """Picks uniformly among the legal action kinds; amounts uniform over the legal range; in the
    draw, a uniformly random subset of 0-4 cards.

    Exactly: the legal kinds sorted by name, one by ``rng.below(count)``; a bet or raise to
    ``min_to + below(max_to - min_to + 1)``; a discard of the first ``rng.below(5)`` cards of the
    hole cards shuffled by ``rng.shuffle`` (the policy of :func:`pokerdraw32._handcore.play.random_action`,
    which :func:`~pokerdraw32.simulate.simulate` also plays in compiled code).
    """

    def decide(self, view: SeatView | Hand | None = None, *, hand: Hand | None = None) -> Action:
        _, legal = _legal_of(view, hand)
        lo = legal.min_to if legal.min_to is not None else 0
        hi = legal.max_to if legal.max_to is not None else 0
        _chips(lo, hi)
        return _action(play.random_action(self.rng, _packed(legal.hole_cards), _kinds_mask(legal), lo, hi))

    def action_probabilities(self, view: SeatView | Hand | None = None, *,
                             hand: Hand | None = None) -> ActionProbabilities:
        """The exact distribution of :meth:`decide` at ``view`` (:data:`ActionProbabilities`): each
        legal kind ``1/k``; a bet or raise to each amount of ``[min_to, max_to]`` alike; in the draw
        (R6.1) 0 to 4 cards alike, and each set of that many alike (``1/5 / C(5, n)``)."""
        _, legal = _legal_of(view, hand)
        kinds = legal.kinds
        if ActionKind.DISCARD in kinds:
            return [(Action.discard(cards), 0.2 / comb(5, n)) for n in range(5)
                    for cards in combinations(legal.hole_cards, n)]
        lo = legal.min_to if legal.min_to is not None else 0
        hi = legal.max_to if legal.max_to is not None else 0
        _chips(lo, hi)
        share = 1 / len(kinds)
        out: ActionProbabilities = []
        for kind in sorted(kinds, key=lambda k: k.value):
            if kind in (ActionKind.BET, ActionKind.RAISE):
                out.extend((Action(kind, to), share / (hi - lo + 1)) for to in range(lo, hi + 1))
            else:
                out.append((Action(kind), share))
        return out


# -- drawing by hand pattern -------------------------------------------------------------------

def choose_discards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards a sensible player throws away (R6.1: 0 to 4), by pattern:

    * a straight or better, or a flush: stand pat;
    * four of a kind: keep all; full house: stand pat;
    * three of a kind: keep the three;  two pair: keep both pairs;  one pair: keep the pair;
    * four to a flush: draw one;  four to an open straight: draw one (of two straight draws, the
      first card in ``cards`` whose removal leaves four to a straight);
    * otherwise keep the highest card and draw four.

    :param cards: five cards (R3.1), in the order that decides between two straight draws.
    :returns: the cards to throw, in the order of ``cards``.
    :raises PokerDraw32ValueError: not five different cards.

    >>> from pokerdraw32 import parse_cards
    >>> choose_discards(parse_cards("Ah Ad 7c 8s 9d"))
    (Card('7c'), Card('8s'), Card('9d'))
    >>> choose_discards(parse_cards("Ah Kh 7h 8h 9d"))
    (Card('9d'),)
    """
    cards = tuple(cards)
    thrown = play.rule_discards(_packed(cards))
    return tuple(c for c in cards if thrown >> c & 1)


class RuleBot(Bot):
    """A rule-based player: draws by :func:`choose_discards`, bets by hand strength.

    Strength is the hand category after the draw (before it, the category plus the draw's
    promise).  Strong hands bet or raise (about half the pot, within the legal range), medium
    hands call, weak hands check or fold; a small random share of bluffs and calls keeps it
    from being trivially exploitable.  In the second round it accepts a Parole split with a
    weak hand and declines it with a strong one.  One ``rng.below(100)`` per betting decision.
    The policy is :func:`pokerdraw32._handcore.play.rule_action`, which
    :func:`~pokerdraw32.simulate.simulate` also plays in compiled code.
    """

    def decide(self, view: SeatView | Hand | None = None, *, hand: Hand | None = None) -> Action:
        seen, legal = _legal_of(view, hand)
        lo = legal.min_to if legal.min_to is not None else 0
        hi = legal.max_to if legal.max_to is not None else 0
        _chips(lo, hi, seen.bets[legal.seat], legal.call_amount, seen.pot)
        return _action(play.rule_action(self.rng, _packed(legal.hole_cards), _PHASE_CODE[legal.phase],
                                        _kinds_mask(legal), seen.bets[legal.seat], legal.call_amount, lo, hi,
                                        seen.pot))

    def action_probabilities(self, view: SeatView | Hand | None = None, *,
                             hand: Hand | None = None) -> ActionProbabilities:
        """The exact distribution of :meth:`decide` at ``view`` (:data:`ActionProbabilities`): each
        decision with the share of the 100 values of its roll that give it
        (:func:`pokerdraw32._handcore.play.rule_policy`); the draw, certain."""
        seen, legal = _legal_of(view, hand)
        lo = legal.min_to if legal.min_to is not None else 0
        hi = legal.max_to if legal.max_to is not None else 0
        _chips(lo, hi, seen.bets[legal.seat], legal.call_amount, seen.pot)
        hole = legal.hole_cards
        out: ActionProbabilities = []
        for decision, count in play.rule_policy(_packed(hole), _PHASE_CODE[legal.phase], _kinds_mask(legal),
                                                seen.bets[legal.seat], legal.call_amount, lo, hi, seen.pot):
            action = _action(decision)
            if action.kind is ActionKind.DISCARD:
                action = Action.discard(tuple(c for c in hole if c in action.cards))
            out.append((action, count / 100))
        return out


# -- test bots: fixed, simple strategies (opponents a strong bot must beat, issue 26) -------------

_CHECK, _CALL, _FOLD, _DECLINE = Action(ActionKind.CHECK), Action(ActionKind.CALL), Action(ActionKind.FOLD), \
    Action(ActionKind.DECLINE)


def _passive(kinds: frozenset[ActionKind]) -> Action:
    """Check when nothing is owed, else call; an all-in player asked about a Parole offer, who may
    only split or decline, declines (R8.2)."""
    if ActionKind.CHECK in kinds:
        return _CHECK
    if ActionKind.CALL in kinds:
        return _CALL
    if ActionKind.DECLINE in kinds:
        return _DECLINE
    return _FOLD        # never: a seat to act may always check, call or (all-in, R8.2) decline


def _raise_to(legal: LegalActions, to: int) -> Action:
    """A bet or a raise (whichever is legal) to ``to`` clamped to the legal range (R3.4)."""
    assert legal.min_to is not None and legal.max_to is not None
    to = min(max(to, legal.min_to), legal.max_to)
    return Action(ActionKind.BET if ActionKind.BET in legal.kinds else ActionKind.RAISE, to)


class _FixedBot(Bot):
    """A test bot: draws as :class:`RuleBot` does (:func:`choose_discards`, R6.1), never proposes or
    accepts a Parole split (R8: it checks, and all-in it declines), never folds when it may check,
    and bets by :meth:`_bet`.  Deterministic: the ``seed`` is taken (as every bot's) and unused."""

    def decide(self, view: SeatView | Hand | None = None, *, hand: Hand | None = None) -> Action:
        seen, legal = _legal_of(view, hand)
        if ActionKind.DISCARD in legal.kinds:
            return Action.discard(choose_discards(legal.hole_cards))
        return self._bet(seen, legal)

    def _bet(self, view: SeatView, legal: LegalActions) -> Action:
        return _passive(legal.kinds)

    def _certain(self, view: SeatView | Hand | None = None, *, hand: Hand | None = None) -> ActionProbabilities:
        """The distribution of :meth:`decide`, which draws nothing: its action, certain."""
        return [(self.decide(view, hand=hand), 1.0)]


class CallBot(_FixedBot):
    """A calling station (name ``"call"``): checks when nothing is owed, else calls (all-in when
    short, R3.5); never bets, raises or folds.  Draws by :func:`choose_discards` (R6.1); all-in
    under a Parole offer it declines (R8.2)."""

    action_probabilities = _FixedBot._certain


class FoldBot(_FixedBot):
    """Folds to every bet (name ``"fold"``): checks when nothing is owed (never a fold when a check
    is free, R5.2), else folds; never bets or raises.  Draws by :func:`choose_discards` (R6.1)."""

    action_probabilities = _FixedBot._certain

    def _bet(self, view: SeatView, legal: LegalActions) -> Action:
        kinds = legal.kinds
        if ActionKind.CHECK not in kinds and ActionKind.FOLD in kinds:
            return _FOLD
        return _passive(kinds)


class ShoveBot(_FixedBot):
    """Shoves (name ``"shove"``): whenever a bet or raise is legal, bets or raises to the most the
    rules allow, ``legal.max_to`` (all-in in no-limit; the pot-limit maximum, R3.4; the fixed
    amount in fixed-limit); otherwise checks when nothing is owed, else calls.  Draws by
    :func:`choose_discards` (R6.1)."""

    action_probabilities = _FixedBot._certain

    def _bet(self, view: SeatView, legal: LegalActions) -> Action:
        if legal.max_to is not None and (ActionKind.BET in legal.kinds or ActionKind.RAISE in legal.kinds):
            return _raise_to(legal, legal.max_to)
        return _passive(legal.kinds)


def pot_raise_to(view: SeatView, legal: LegalActions) -> int:
    """The standard pot-size raise: call, then raise by the pot after the call, i.e. to
    ``current bet + pot + owed`` chips (total round bet), with the current bet the seat's bet plus
    ``legal.call_amount`` and the pot ``view.pot`` (current bets included); the pot-limit maximum of
    R3.4 in a game deep enough (blinds 5/10/20, nothing bet: 20 + 35 + 20 = 75).  Unclamped."""
    owed = legal.call_amount
    return view.bets[legal.seat] + owed + view.pot + owed


class PotBot(_FixedBot):
    """A pot-size maniac (name ``"maniac"``): whenever a bet or raise is legal, bets or raises the
    pot (:func:`pot_raise_to`), clamped to the legal range (R3.4: at least the minimum raise, at
    most all-in; in fixed-limit the fixed amount); otherwise checks when nothing is owed, else
    calls.  Draws by :func:`choose_discards` (R6.1)."""

    action_probabilities = _FixedBot._certain

    def _bet(self, view: SeatView, legal: LegalActions) -> Action:
        if legal.max_to is not None and (ActionKind.BET in legal.kinds or ActionKind.RAISE in legal.kinds):
            return _raise_to(legal, pot_raise_to(view, legal))
        return _passive(legal.kinds)


# -- the registry of bot names -----------------------------------------------------------------

ENTRY_POINT_GROUP = "pokerdraw32.bots"
"""The entry-point group where installed packages declare bots by name: ``name = "module:factory"``
with ``factory(seed: int | None) -> Bot`` (this package declares ``cfr``)."""

BotFactory = Callable[[int | None], Bot]
"""What makes a named bot: ``factory(seed)``, ``seed`` an int ``0 <= seed < 2**64`` or None."""

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")
_REGISTERED: dict[str, BotFactory] = {"rule": RuleBot, "random": RandomBot, "call": CallBot, "shove": ShoveBot,
                                      "fold": FoldBot, "maniac": PotBot}
_LOADED: dict[str, BotFactory] = {}      # entry points loaded so far, by name


def _entry_points() -> dict[str, list[Any]]:
    """The installed entry points of :data:`ENTRY_POINT_GROUP` by name (read anew each call: a
    scan of the installed packages' metadata, a few ms)."""
    from importlib.metadata import entry_points

    found: dict[str, list[Any]] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, []).append(ep)
    return found


def bot_names() -> tuple[str, ...]:
    """Every bot name :func:`make_bot` knows, sorted: the built-in ones (``call``, ``fold``,
    ``maniac``, ``random``, ``rule``, ``shove``), those given to :func:`register_bot`, and the
    entry points of :data:`ENTRY_POINT_GROUP` (listed without being loaded)."""
    return tuple(sorted({*_REGISTERED, *_LOADED, *(n for n in _entry_points() if _NAME.match(n))}))


def _unknown(name: object) -> PokerDraw32ValueError:
    return PokerDraw32ValueError(f"unknown bot name {name!r}: the bots are {', '.join(bot_names())}")


def bot_factory(name: str) -> BotFactory:
    """The factory of bot ``name`` (an entry point is loaded, once, the first time its name is asked
    for).

    :raises PokerDraw32TypeError: ``name`` is not a string, or its entry point is not callable.
    :raises PokerDraw32ValueError: an unknown name (the message lists the known ones), a name two
        installed packages declare differently, or an entry point that cannot be imported (the
        message names it and the import's error).
    """
    if not isinstance(name, str):
        raise PokerDraw32TypeError(f"a bot name is a string, got {type(name).__name__}: {name!r}")
    found = _REGISTERED.get(name) or _LOADED.get(name)
    if found is not None:
        return found
    points = _entry_points().get(name) if _NAME.match(name) else None
    if not points:
        raise _unknown(name)
    values = sorted({ep.value for ep in points})
    if len(values) > 1:
        raise PokerDraw32ValueError(f"bot name {name!r} is declared by several installed packages, as "
                                    f"{' and '.join(values)} (entry-point group {ENTRY_POINT_GROUP!r}): uninstall one")
    point = points[0]
    package = getattr(getattr(point, "dist", None), "name", None)
    where = f"entry point {name} = {point.value!r} (group {ENTRY_POINT_GROUP!r}" + \
        (f", package {package})" if package else ")")
    try:
        factory = point.load()
    except Exception as e:
        raise PokerDraw32ValueError(f"bot {name!r} cannot be loaded: {where}: {type(e).__name__}: {e}") from e
    if not callable(factory):
        raise PokerDraw32TypeError(f"bot {name!r}: {where} is a {type(factory).__name__}, not a factory "
                                   "seed -> Bot")
    _LOADED[name] = factory
    return factory          # type: ignore[no-any-return]


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of the registered ``name`` (see :func:`bot_names`), seeded with ``seed``.

    >>> type(make_bot("maniac", seed=1)).__name__
    'PotBot'
    >>> {"call", "fold", "maniac", "random", "rule", "shove"} <= set(bot_names())
    True

    :param seed: ``0 <= seed < 2**64`` for a reproducible bot, or None (from the operating system, R11.1).
    :raises PokerDraw32ValueError: an unknown name, a bot that cannot be loaded (see
        :func:`bot_factory`); what the factory raises (a bad seed, a bot that refuses) propagates.
    :raises PokerDraw32TypeError: the factory made something else than a :class:`Bot`.
    """
    factory = bot_factory(name)
    bot = factory(seed)
    if not isinstance(bot, Bot):
        made = getattr(factory, "__qualname__", type(factory).__name__)
        raise PokerDraw32TypeError(f"bot {name!r}: its factory {made} made a {type(bot).__name__}, not a "
                                   "pokerdraw32.bots.Bot")
    return bot


def check_fit(bot: Any, rules: Rules, players: int) -> None:
    """Ask a bot, before any hand, whether it plays ``players``-handed hands of ``rules``: calls its
    optional hook ``check_rules(rules, players)`` (on a bot object or class, or on a bot name's
    factory, :func:`bot_factory`), which returns when it does and raises
    :class:`~pokerdraw32.errors.PokerDraw32ValueError` naming the rule when it does not (e.g.
    :class:`pokerdraw32.cfr.CfrBot`: heads-up only, no fixed-limit).  A bot without the hook plays
    anything.  ``simulate``, ``pokerdraw32 play`` and the environments call it for their line-ups.

    >>> check_fit(bot_factory("rule"), Rules(), 5)          # no hook: plays anything

    :raises PokerDraw32ValueError: what the hook raises.
    """
    hook = getattr(bot, "check_rules", None)
    if callable(hook):
        hook(rules, players)


def register_bot(name: str, factory: BotFactory) -> None:
    """Give ``factory`` (``factory(seed) -> Bot``, e.g. a :class:`Bot` subclass) the bot name ``name``,
    for every interface that takes a bot name (``simulate(bots=...)``, the command line,
    :class:`~pokerdraw32.env.DrawEnv`, a server table...).  In this process only: a worker process
    gets the factory itself (by pickle: define it at module level); a package declares its bots
    for every process as entry points of :data:`ENTRY_POINT_GROUP` instead.

    :param name: 1 to 32 lower-case letters, digits, ``_`` or ``-``, starting with a letter; not
        ``"mixed"`` (``simulate``'s alternating line-up).
    :raises PokerDraw32ValueError: a bad name, or one that is taken (the message lists the names).
    :raises PokerDraw32TypeError: ``factory`` is not callable.
    """
    if not isinstance(name, str) or not _NAME.match(name) or name == "mixed":
        raise PokerDraw32ValueError(f"bot name {name!r}: a name is 1 to 32 lower-case letters, digits, '_' or '-', "
                                    "starting with a letter, and not 'mixed'")
    if not callable(factory):
        raise PokerDraw32TypeError(f"bot {name!r}: the factory must be callable (seed -> Bot), got "
                                   f"{type(factory).__name__}")
    if name in _REGISTERED or name in _LOADED or name in _entry_points():
        raise PokerDraw32ValueError(f"bot name {name!r} is taken: the bots are {', '.join(bot_names())}")
    _REGISTERED[name] = factory
