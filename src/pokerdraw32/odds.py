"""Exact draw odds (R6.1, R2): every discard of a hand, every replacement set, counted.

A player holding five cards may discard 0 to 4 of them (R6.1: never 5) and is dealt as
many from the cards they have not seen. :func:`draw_odds` looks at each of the 31 legal
discards (or the ones asked for), enumerates **every** set of replacement cards from the
unseen cards (the deck minus the hand, minus any ``dead`` cards the player knows are out:
their own folded or exposed cards, other players' known discards) and reports, exactly:

* how many replacement sets there are (``C(unseen, k)`` for ``k`` cards drawn);
* the probability of each final :class:`~pokerdraw32.evaluation.HandCategory` (R2), as a
  :class:`fractions.Fraction` and as a float;
* the **expected final strength**: the mean, over all replacement sets (all equally likely),
  of the final hand's *percentile* among all C(32, 5) = 201,376 five-card hands, that is the
  fraction of those hands it beats, ties counting half (R2, with option ``suit_tiebreak``,
  R2.4). 0 is worse than every hand, 1 better than every hand; standing pat with a royal
  flush of hearts gives 402751/402752. It measures the hand's absolute strength, not its
  equity against particular opponents.

The discards are ranked best first by expected strength (then fewer cards drawn first).
The work is done by the kernel :func:`pokerdraw32._kernels.draw_summary` (compiled: all 31
discards of a hand, about 120,000 evaluations, in about a millisecond).

>>> odds = draw_odds("Ah Kh Jh 8h 7s", discards=["7s", ""])
>>> best = odds.best
>>> format_cards(best.discard), best.combinations, best.probability(HandCategory.FLUSH)
('7s', 27, Fraction(4, 27))
>>> [format_cards(o.discard) or "pat" for o in odds.options]
['7s', 'pat']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from ._kernels import draw_summary
from .cards import Card, CardsLike, format_cards, parse_cards
from .errors import InvalidCardError, PokerDraw32Error
from .evaluation import HandCategory, HandRank, evaluate

__all__ = ["SCORE_SCALE", "DrawOdds", "DrawOption", "draw_odds"]

SCORE_SCALE = 2 * 201376
"""Strength scores (:func:`pokerdraw32._kernels.strength_score`) are percentiles in units of 1/402,752."""

_SHORT = {HandCategory.STRAIGHT_FLUSH: "SF", HandCategory.FOUR_OF_A_KIND: "4K", HandCategory.FLUSH: "FL",
          HandCategory.FULL_HOUSE: "FH", HandCategory.STRAIGHT: "ST", HandCategory.THREE_OF_A_KIND: "3K",
          HandCategory.TWO_PAIR: "2P", HandCategory.ONE_PAIR: "1P", HandCategory.HIGH_CARD: "HC"}
_BEST_FIRST = tuple(sorted(HandCategory, reverse=True))


@dataclass(frozen=True)
class DrawOption:
    """The exact outcome of one discard (R6.1); immutable.

    :ivar discard: the cards thrown away (0 to 4), in the hand's order.
    :ivar keep: the cards kept, in the hand's order.
    :ivar combinations: the number of equally likely replacement sets, ``C(unseen, len(discard))``.
    :ivar counts: 9 ints, ``counts[c]`` replacement sets end in category ``c`` (``HandCategory`` value).
    :ivar score: the sum over the replacement sets of the final hand's strength score
        (percentile in units of ``1 / SCORE_SCALE``).
    """

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    combinations: int
    counts: tuple[int, ...]
    score: int

    @property
    def draws(self) -> int:
        """How many cards are drawn (0 is standing pat)."""
        return len(self.discard)

    @property
    def expected_strength(self) -> Fraction:
        """Exact expected percentile of the final hand among all 201,376 hands (0..1, ties half)."""
        return Fraction(self.score, self.combinations * SCORE_SCALE)

    def probability(self, category: HandCategory | int) -> Fraction:
        """Exact probability that the final hand has ``category`` (R2).

        :raises ValueError: ``category`` is not a :class:`HandCategory` value 0..8.
        """
        return Fraction(self.counts[HandCategory(category)], self.combinations)

    @property
    def probabilities(self) -> dict[HandCategory, Fraction]:
        """Exact probability of every category, best category first (a new dict each time)."""
        return {c: Fraction(self.counts[c], self.combinations) for c in _BEST_FIRST}

    def at_least(self, category: HandCategory | int) -> Fraction:
        """Exact probability that the final hand is ``category`` or a better category (R2, R2.1)."""
        c = HandCategory(category)
        return Fraction(sum(self.counts[c:]), self.combinations)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form: cards as text, exact fractions as ``"n/d"`` strings next to floats."""
        strength = self.expected_strength
        return {
            "discard": format_cards(self.discard),
            "keep": format_cards(self.keep),
            "draws": self.draws,
            "combinations": self.combinations,
            "expected_strength": float(strength),
            "expected_strength_exact": str(strength),
            "categories": {
                c.name: {"count": self.counts[c], "probability": self.counts[c] / self.combinations,
                         "exact": str(Fraction(self.counts[c], self.combinations))}
                for c in _BEST_FIRST
            },
        }

    def __str__(self) -> str:
        what = f"discard {format_cards(self.discard)}" if self.discard else "stand pat"
        likely = ", ".join(f"{c.label} {100 * float(p):.1f}%" for c, p in self.probabilities.items() if p)
        return f"{what}: {self.combinations} draws, expected strength {float(self.expected_strength):.4f}; {likely}"


@dataclass(frozen=True)
class DrawOdds:
    """Exact odds of the discards of one hand, best first (see :func:`draw_odds`); immutable.

    :ivar hand: the five cards, as given.
    :ivar dead: the cards known not to be drawable, as given.
    :ivar suit_tiebreak: the R2.4 option the strengths were computed with.
    :ivar options: one :class:`DrawOption` per discard, best expected strength first.
    """

    hand: tuple[Card, ...]
    dead: tuple[Card, ...]
    suit_tiebreak: bool
    options: tuple[DrawOption, ...]

    @property
    def best(self) -> DrawOption:
        """The discard with the highest expected final strength."""
        return self.options[0]

    @property
    def current(self) -> HandRank:
        """The hand as it stands (R2)."""
        return evaluate(self.hand, suit_tiebreak=self.suit_tiebreak)

    @property
    def unseen(self) -> int:
        """How many cards replacements come from: 32 - 5 - len(dead)."""
        return 27 - len(self.dead)

    def option(self, discard: CardsLike) -> DrawOption:
        """The option of a given discard (cards in any order; ``""`` is standing pat).

        :raises KeyError: that discard was not computed.
        """
        wanted = frozenset(parse_cards(discard))
        for o in self.options:
            if frozenset(o.discard) == wanted:
                return o
        raise KeyError(f"no option discards {format_cards(sorted(wanted, reverse=True))!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (``json.dumps(odds.to_dict())`` works)."""
        current = self.current
        return {
            "hand": format_cards(self.hand),
            "dead": format_cards(self.dead),
            "suit_tiebreak": self.suit_tiebreak,
            "unseen": self.unseen,
            "current": {"category": current.category.name, "description": current.description},
            "options": [o.to_dict() for o in self.options],
        }

    def format(self, top: int | None = None) -> str:
        """A readable table of the ``top`` best options (all when ``None``); category columns in %."""
        shown = self.options if top is None else self.options[: max(top, 0)]
        dead = f", dead {format_cards(self.dead)}" if self.dead else ""
        lines = [
            f"{format_cards(self.hand)}: {self.current.description}",
            f"{self.unseen} unseen cards{dead}; {len(self.options)} discards, best expected strength first",
            "(strength: mean percentile of the final hand among all 201,376 hands; columns: % of draws)",
            f"{'#':>3}  {'discard':<12} {'draw':>4} {'combos':>6} {'strength':>8} "
            + " ".join(f"{_SHORT[c]:>5}" for c in _BEST_FIRST),
        ]
        for i, o in enumerate(shown, 1):
            cells = " ".join(f"{100 * o.counts[c] / o.combinations:>5.1f}" if o.counts[c] else f"{'-':>5}"
                             for c in _BEST_FIRST)
            what = format_cards(o.discard) if o.discard else "(stand pat)"
            lines.append(f"{i:>3}  {what:<12} {o.draws:>4} {o.combinations:>6} "
                         f"{float(o.expected_strength):>8.4f} {cells}")
        if len(shown) < len(self.options):
            lines.append(f"  ... {len(self.options) - len(shown)} more")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _all_discards(hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    return [d for k in range(5) for d in combinations(hand, k)]


def draw_odds(
    hand: CardsLike,
    *,
    dead: CardsLike = (),
    discards: Iterable[CardsLike] | None = None,
    suit_tiebreak: bool = True,
) -> DrawOdds:
    """Exact odds of every discard of a 5-card hand (R6.1), ranked best first.

    For each discard, every set of replacement cards from the unseen cards (the 32-card
    deck minus the hand minus ``dead``) is evaluated (R2); the result gives, per discard,
    the number of replacement sets, the exact probability of each final category and the
    expected final strength (the mean percentile of the final hand among all 201,376
    hands, ties counting half; see the module docstring).

    :param hand: five distinct cards: ``"Ah Ad 7c 8s 9d"`` or an iterable of
        :class:`~pokerdraw32.cards.Card`, codes or card strings.
    :param dead: cards that cannot be drawn (known to be out: folded, exposed, other
        players' discards); distinct, none of them in ``hand``. Default none.
    :param discards: the discards to compute, each an iterable of 0 to 4 cards of the hand
        (``""`` or ``()`` is standing pat), all different; default ``None``: all 31.
    :param suit_tiebreak: R2.4; with ``False`` hands equal in ranks tie (counting half).
    :returns: a :class:`DrawOdds`; its ``options`` are best expected strength first, then
        fewer cards drawn, then in the order the discards were listed.
    :raises TypeError: ``suit_tiebreak`` is not a bool, or ``discards`` is a single string.
    :raises InvalidCardError: a bad or repeated card, a hand of other than 5 cards, a dead
        card in the hand, a discarded card not in the hand (R1.3).
    :raises PokerDraw32Error: a discard of 5 cards (R6.1), a discard listed twice, no
        discards, or too few unseen cards for a draw.

    A pair of aces drawing three makes three of a kind or better 644 times out of 2925:

    >>> odds = draw_odds("Ah Ad 7c 8s 9d")
    >>> len(odds.options), format_cards(odds.best.discard)
    (31, '7c 8s 9d')
    >>> odds.best.at_least(HandCategory.THREE_OF_A_KIND)
    Fraction(644, 2925)
    >>> odds.option("").probability(HandCategory.ONE_PAIR)     # standing pat
    Fraction(1, 1)
    >>> draw_odds("Ah Ad 7c 8s 9d", discards=["Ah Ad 7c 8s 9d"])
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32Error: discard Ah Ad 7c 8s 9d has 5 cards: at most 4 may be discarded [R6.1]
    """
    if not isinstance(suit_tiebreak, bool):
        raise TypeError(f"suit_tiebreak must be True or False, got {suit_tiebreak!r}")
    cards = parse_cards(hand)
    if len(cards) != 5:
        raise InvalidCardError(f"a hand has exactly 5 cards, got {len(cards)}: {format_cards(cards)!r}", hand)
    out = parse_cards(dead)
    for c in out:
        if c in cards:
            raise InvalidCardError(f"dead card {c} is in the hand {format_cards(cards)}", str(c))
    if discards is None:
        chosen = _all_discards(cards)
    else:
        if isinstance(discards, str):
            raise TypeError("discards must be a list of discards, e.g. ['7c 8s 9d', ''], not a str")
        chosen = []
        seen: set[frozenset[Card]] = set()
        for item in discards:
            picked = parse_cards(item)
            for c in picked:
                if c not in cards:
                    raise InvalidCardError(f"discard {format_cards(picked)}: {c} is not in the hand "
                                           f"{format_cards(cards)}", str(c))
            if len(picked) > 4:
                raise PokerDraw32Error(f"discard {format_cards(picked)} has {len(picked)} cards: "
                                       "at most 4 may be discarded [R6.1]")
            key = frozenset(picked)
            if key in seen:
                raise PokerDraw32Error(f"discard {format_cards(picked) or '(stand pat)'} is listed twice")
            seen.add(key)
            chosen.append(tuple(c for c in cards if c in key))
        if not chosen:
            raise PokerDraw32Error("no discards given: list at least one, or pass None for all 31")
    hand_mask = 0
    for c in cards:
        hand_mask |= 1 << c
    dead_mask = 0
    for c in out:
        dead_mask |= 1 << c
    if len(out) > 23 and max(len(d) for d in chosen) > 27 - len(out):
        need = max(len(d) for d in chosen)
        raise PokerDraw32Error(f"only {27 - len(out)} unseen cards, too few to draw {need}")
    options = []
    for i, d in enumerate(chosen):
        discard_mask = 0
        for c in d:
            discard_mask |= 1 << c
        total, counts, score = draw_summary(hand_mask, discard_mask, dead_mask, suit_tiebreak)
        option = DrawOption(d, tuple(c for c in cards if c not in d), total, counts, score)
        options.append((Fraction(-score, total), len(d), i, option))
    options.sort(key=lambda t: t[:3])
    return DrawOdds(cards, out, suit_tiebreak, tuple(t[3] for t in options))

