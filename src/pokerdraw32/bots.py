"""Bots for simulation: a uniformly random player and a rule-based player.

Both take their randomness from a seeded :class:`~pokerdraw32._kernels.Rng`, so a
simulation with a seed is reproducible, with compiled or pure kernels alike.

>>> from pokerdraw32 import Hand, Rules
>>> h = Hand(Rules(), [50, 50, 50], button=0, seed=3)
>>> bots = [RuleBot(seed=i) for i in range(3)]
>>> while not h.is_complete:
...     _ = h.act(bots[h.actor].decide(h))
>>> sum(h.result.stacks)
150
"""

from __future__ import annotations

from ._kernels import Rng, evaluate_mask
from .actions import Action, ActionKind, Phase
from .cards import Card
from .hand import Hand

__all__ = ["Bot", "RandomBot", "RuleBot", "choose_discards"]


class Bot:
    """Base class: :meth:`decide` returns the action for the player to act in ``hand``."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed)

    def decide(self, hand: Hand) -> Action:
        """The :class:`~pokerdraw32.actions.Action` this bot takes for ``hand.actor``."""
        raise NotImplementedError


def _uniform(rng: Rng, n: int) -> int:
    """Unbiased integer in ``[0, n)`` for any ``n >= 1`` (``Rng.below`` stops at 2**32)."""
    if n <= 2**32:
        return rng.below(n)
    bits = (n - 1).bit_length()
    while True:
        r = rng.next_u64() >> (64 - bits)
        if r < n:
            return r


class RandomBot(Bot):
    """Picks uniformly among the legal action kinds; amounts uniform over the legal range; in the
    draw, a uniformly random subset of 0-4 cards."""

    def decide(self, hand: Hand) -> Action:
        legal = hand.legal_actions()
        assert legal is not None, "nobody is to act"
        kinds = sorted(legal.kinds, key=lambda k: k.value)
        kind = kinds[self.rng.below(len(kinds))]
        if kind is ActionKind.DISCARD:
            cards = list(legal.hole_cards)
            self.rng.shuffle(cards)
            return Action.discard(cards[: self.rng.below(5)])
        if kind in (ActionKind.BET, ActionKind.RAISE):
            assert legal.min_to is not None and legal.max_to is not None
            return Action(kind, legal.min_to + _uniform(self.rng, legal.max_to - legal.min_to + 1))
        return Action(kind)


# -- drawing by hand pattern -------------------------------------------------------------------

def choose_discards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards a sensible player throws away (R6.1: 0 to 4), by pattern:

    * a straight or better, or a flush: stand pat;
    * four of a kind: keep all; full house: stand pat;
    * three of a kind: keep the three;  two pair: keep both pairs;  one pair: keep the pair;
    * four to a flush: draw one;  four to an open straight: draw one;
    * otherwise keep the highest card and draw four.

    >>> from pokerdraw32 import parse_cards
    >>> choose_discards(parse_cards("Ah Ad 7c 8s 9d"))
    (Card('7c'), Card('8s'), Card('9d'))
    >>> choose_discards(parse_cards("Ah Kh 7h 8h 9d"))
    (Card('9d'),)
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    cat = evaluate_mask(mask) >> 22
    if cat >= 4:                                     # straight or better: stand pat
        return ()
    ranks = [c >> 2 for c in cards]
    if cat >= 1:                                     # pairs / trips: keep the matched cards
        return tuple(c for c, r in zip(cards, ranks, strict=False) if ranks.count(r) == 1)
    suits = [c & 3 for c in cards]
    for suit in range(4):
        if suits.count(suit) == 4:                   # four to a flush
            return tuple(c for c in cards if c & 3 != suit)
    rank_set = set(ranks)                            # five distinct ranks here
    for c in cards:                                  # four to a straight (ace low included)
        rest = rank_set - {c >> 2}
        if any(rest <= s for s in _STRAIGHTS):
            return (c,)
    best = max(cards)
    return tuple(c for c in cards if c != best)


_STRAIGHTS = [frozenset({7, 0, 1, 2, 3})] + [frozenset(range(top - 4, top + 1)) for top in range(4, 8)]
"""Rank-index sets of the five straights (R2.2: A-7-8-9-T, then 7-J .. T-A)."""


class RuleBot(Bot):
    """A rule-based player: draws by :func:`choose_discards`, bets by hand strength.

    Strength is the hand category after the draw (before it, the category plus the draw's
    promise).  Strong hands bet or raise (about half the pot, within the legal range), medium
    hands call, weak hands check or fold; a small random share of bluffs and calls keeps it
    from being trivially exploitable.  In the second round it accepts a Parole split with a
    weak hand and declines it with a strong one.
    """

    def decide(self, hand: Hand) -> Action:
        legal = hand.legal_actions()
        assert legal is not None, "nobody is to act"
        cards = legal.hole_cards
        if legal.phase is Phase.DRAW:
            return Action.discard(choose_discards(cards))
        mask = 0
        for c in cards:
            mask |= 1 << c
        value = evaluate_mask(mask)
        cat = value >> 22
        top = (value >> 18) & 15
        kinds = legal.kinds
        if kinds == {ActionKind.SPLIT, ActionKind.DECLINE}:           # all-in, asked about Parole
            return Action.decline() if cat >= 2 else Action.split()
        roll = self.rng.below(100)
        first = legal.phase is Phase.FIRST_ROUND
        strong = cat >= 3 or (cat == 2 and top >= 4) or (first and cat == 1 and top >= 6 and roll < 30)
        medium = cat >= 1 or (first and len(choose_discards(cards)) == 1)
        if (strong or roll < 5) and legal.min_to is not None and legal.max_to is not None:
            kind = ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE
            target = hand.bets[legal.seat] + legal.call_amount + max(1, hand.pot // 2)
            target = max(legal.min_to, min(legal.max_to, target))
            return Action(kind, target)
        if ActionKind.SPLIT in kinds and not strong and cat <= 1:
            return Action.split()
        if ActionKind.CHECK in kinds:
            return Action.check()
        if medium or strong or roll < 10:
            return Action.call()
        return Action.fold()
