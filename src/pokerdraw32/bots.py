"""Bots for simulation: a uniformly random player and a rule-based player, and what a bot sees.

A bot decides from a :class:`SeatView`: what its seat may know at its turn (its own cards, the
public state, its legal actions, the events it may see), never the dealer's :class:`Hand`.
Any object with a ``decide(view)`` method (:class:`BotLike`), or a plain callable
``view -> action``, can sit at a :func:`~pokerdraw32.simulate.simulate` table.

Both built-in bots take their randomness from a seeded :class:`~pokerdraw32._kernels.Rng`, so a
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

import weakref
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, runtime_checkable
from weakref import WeakKeyDictionary

from ._events import PRIVATE_EVENTS as _PRIVATE_EVENTS
from ._events import hidden as _hidden
from ._kernels import ACTION_CODES, Rng, play
from .actions import Action, ActionKind, Event, EventKind, LegalActions, Phase
from .cards import DECK, Card
from .errors import MAX_CHIPS, PokerDraw32TypeError, PokerDraw32ValueError
from .hand import Hand
from .rules import Rules

__all__ = ["Bot", "BotLike", "RandomBot", "RuleBot", "SeatView", "choose_discards"]

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
                from .errors import IllegalActionError
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
        assert view.actor is not None, "nobody is to act"      # as before views
        view = SeatView.of(view)
    elif not isinstance(view, SeatView):
        raise PokerDraw32TypeError(f"a bot decides from a SeatView (or a Hand), got {type(view).__name__}")
    legal = view.legal
    assert legal is not None, "nobody is to act"
    return view, legal


_PHASE_CODE = {Phase.DEAL: 0, Phase.FIRST_ROUND: 1, Phase.DRAW: 2, Phase.SECOND_ROUND: 3, Phase.COMPLETE: 4}
_CONSTANTS = {code: Action(kind) for kind, code in ACTION_CODES.items()
              if kind not in (ActionKind.DISCARD, ActionKind.BET, ActionKind.RAISE)}


def _packed(cards: Any) -> int:
    """Five different card codes in order, 5 bits each (the policies' form of a hand,
    :mod:`pokerdraw32._play`).

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
    hole cards shuffled by ``rng.shuffle`` (the policy of :func:`pokerdraw32._play.random_action`,
    which :func:`~pokerdraw32.simulate.simulate` also plays in compiled code).
    """

    def decide(self, view: SeatView | Hand | None = None, *, hand: Hand | None = None) -> Action:
        _, legal = _legal_of(view, hand)
        lo = legal.min_to if legal.min_to is not None else 0
        hi = legal.max_to if legal.max_to is not None else 0
        _chips(lo, hi)
        return _action(play.random_action(self.rng, _packed(legal.hole_cards), _kinds_mask(legal), lo, hi))


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
    The policy is :func:`pokerdraw32._play.rule_action`, which
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
