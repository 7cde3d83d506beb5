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

:func:`equity` answers the other question, the hand's chances against opponents: a seeded
Monte Carlo simulation against 1 to 4 random hands that draw by a policy (:data:`POLICIES`),
through the draw with the reshuffle of R6.2 to the showdown, with a Wilson confidence
interval (kernel :func:`pokerdraw32._kernels.equity_trials`, millions of trials a second
compiled).

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
from itertools import combinations
from math import lcm, sqrt

from ._kernels import Rng, draw_summary, equity_trials
from .cards import Card, CardsLike, format_cards, parse_cards
from .errors import InvalidCardError, PokerDraw32KeyError, PokerDraw32TypeError, PokerDraw32ValueError, shown
from .evaluation import HandCategory, HandRank, evaluate

# statistics and the rules are imported where equity needs them, fractions where a result is
# read, and typing not at all at run time: a first draw_odds does not pay for them (issue 15)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any, TypeVar, overload

    from .rules import Rules


def _fraction(numerator: int, denominator: int = 1) -> Fraction:
    """``fractions.Fraction(numerator, denominator)``; fractions (with decimal and re, about 5 ms)
    is imported when a result is first read, not when draw_odds is imported."""
    from fractions import Fraction

    return Fraction(numerator, denominator)

__all__ = ["POLICIES", "SCORE_SCALE", "DrawOdds", "DrawOption", "Equity", "EquityTable", "draw_odds", "equity"]

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
        return _fraction(self.score, self.combinations * SCORE_SCALE)

    def probability(self, category: HandCategory | int) -> Fraction:
        """Exact probability that the final hand has ``category`` (R2).

        :raises ValueError: ``category`` is not a :class:`HandCategory` value 0..8.
        """
        return _fraction(self.counts[HandCategory(category)], self.combinations)

    @property
    def probabilities(self) -> dict[HandCategory, Fraction]:
        """Exact probability of every category, best category first (a new dict each time)."""
        return {c: _fraction(self.counts[c], self.combinations) for c in _BEST_FIRST}

    def at_least(self, category: HandCategory | int) -> Fraction:
        """Exact probability that the final hand is ``category`` or a better category (R2, R2.1)."""
        c = HandCategory(category)
        return _fraction(sum(self.counts[c:]), self.combinations)

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
                         "exact": str(_fraction(self.counts[c], self.combinations))}
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
        return _find_option(self.options, discard)

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


def seed_arg(seed: object) -> int:
    """A checked seed, or one drawn from the OS for ``None`` (R11.1).

    :raises PokerDraw32TypeError: not an int or None.
    :raises PokerDraw32ValueError: outside ``0 <= seed < 2**64``.
    """
    if seed is None:
        return Rng().next_u64()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PokerDraw32TypeError(f"seed must be an int or None, got {shown(seed)}")
    if not 0 <= seed < 2**64:
        raise PokerDraw32ValueError(f"seed {shown(seed)} must be an int with 0 <= seed < 2**64 [R11.1]")
    return seed


def _hand_and_dead(hand: CardsLike, dead: CardsLike) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Five distinct cards, and dead cards none of which is among them (R1.1, R2)."""
    cards = parse_cards(hand)
    if len(cards) != 5:
        raise InvalidCardError(f"a hand has exactly 5 cards, got {len(cards)}: {format_cards(cards)!r} [R2]", hand)
    out = parse_cards(dead)
    for c in out:
        if c in cards:
            raise InvalidCardError(f"dead card {c} is in the hand {format_cards(cards)} [R1.1]", str(c))
    return cards, out


def _draw_plan(
    hand: CardsLike, dead: CardsLike, discards: Iterable[CardsLike] | None
) -> tuple[tuple[Card, ...], tuple[Card, ...], list[tuple[Card, ...]], int, int]:
    """The checked arguments of :func:`draw_odds` (every check but ``suit_tiebreak``'s, the same
    errors): the hand, the dead cards, the discards in the hand's order, the hand's and the dead
    cards' masks.  :func:`pokerdraw32.odds_batch.draw_odds_many` checks a whole batch with it
    before any work starts."""
    cards, out = _hand_and_dead(hand, dead)
    if discards is None:
        chosen = _all_discards(cards)
    else:
        if isinstance(discards, str):
            raise PokerDraw32TypeError("discards must be a list of discards, e.g. ['7c 8s 9d', ''], not a str")
        try:
            items = iter(discards)
        except TypeError:
            raise PokerDraw32TypeError("discards must be a list of discards, e.g. ['7c 8s 9d', ''], not "
                                       f"{type(discards).__name__}") from None
        chosen = []
        seen: set[frozenset[Card]] = set()
        for item in items:
            picked = parse_cards(item)
            for c in picked:
                if c not in cards:
                    raise InvalidCardError(f"discard {format_cards(picked)}: {c} is not in the hand "
                                           f"{format_cards(cards)}", str(c))
            if len(picked) > 4:
                raise PokerDraw32ValueError(f"discard {format_cards(picked)} has {len(picked)} cards: "
                                       "at most 4 may be discarded [R6.1]")
            key = frozenset(picked)
            if key in seen:
                raise PokerDraw32ValueError(f"discard {format_cards(picked) or '(stand pat)'} is listed twice")
            seen.add(key)
            chosen.append(tuple(c for c in cards if c in key))
        if not chosen:
            raise PokerDraw32ValueError("no discards given: list at least one, or pass None for all 31")
    hand_mask = 0
    for c in cards:
        hand_mask |= 1 << c
    dead_mask = 0
    for c in out:
        dead_mask |= 1 << c
    if len(out) > 23 and max(len(d) for d in chosen) > 27 - len(out):
        need = max(len(d) for d in chosen)
        raise PokerDraw32ValueError(f"only {27 - len(out)} unseen cards, too few to draw {need}")
    return cards, out, chosen, hand_mask, dead_mask


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
    :raises TypeError: ``suit_tiebreak`` is not a bool, or ``discards`` is a single string or
        not iterable.
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
    pokerdraw32.errors.PokerDraw32ValueError: discard Ah Ad 7c 8s 9d has 5 cards: at most 4 may be discarded [R6.1]
    """
    if not isinstance(suit_tiebreak, bool):
        raise PokerDraw32TypeError(f"suit_tiebreak must be True or False, got {suit_tiebreak!r}")
    cards, out, chosen, hand_mask, dead_mask = _draw_plan(hand, dead, discards)
    options = []
    for i, d in enumerate(chosen):
        discard_mask = 0
        for c in d:
            discard_mask |= 1 << c
        total, counts, score = draw_summary(hand_mask, discard_mask, dead_mask, suit_tiebreak)
        option = DrawOption(d, tuple(c for c in cards if c not in d), total, counts, score)
        options.append((score, total, len(d), i, option))
    # best expected strength (score / total) first, exactly: over a common multiple of the totals
    common = lcm(*(t[1] for t in options)) if options else 1
    options.sort(key=lambda t: (-t[0] * (common // t[1]), t[2], t[3]))
    return DrawOdds(cards, out, suit_tiebreak, tuple(t[4] for t in options))



# --------------------------------------------------------------------------------------
# Monte Carlo equity against opponents who draw by a policy (R6.1, R6.2, R2, R9.4, R11)

POLICIES: dict[str, str] = {
    "rule": "stand pat with a straight or better; keep trips, two pair or a pair and throw the rest; "
            "with four to a flush or four to a straight throw the fifth card; else keep the highest card "
            "and draw four (pokerdraw32.bots.choose_discards, the cards taken highest first)",
    "pat": "always stand pat",
    "random": "draw 0 to 4 cards, each number equally likely, those cards chosen uniformly "
              "(the draw of pokerdraw32.bots.RandomBot)",
}
"""The opponents' draw policies of :func:`equity`, by name, with what each does."""

_POLICY_CODES = {"pat": 0, "rule": 1, "random": 2}  # the codes of the equity_trials kernel
_MAX_TRIALS = 2**40
INTERVAL_METHOD = "wilson"


def _wilson(share_sum: Fraction, n: int, confidence: float) -> tuple[float, float]:
    """Wilson score interval of a mean share in [0, 1] over ``n`` trials."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = float(share_sum / n)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if share_sum == 0 else max(0.0, min(p, centre - half))     # exact ends, no rounding dust
    high = 1.0 if share_sum == n else min(1.0, max(p, centre + half))
    return low, high


@dataclass(frozen=True)
class Equity:
    """A Monte Carlo estimate of one discard's equity (see :func:`equity`); immutable.

    :ivar hand: the hero's five cards, as given.
    :ivar discard: the cards the hero throws away (0 to 4), in the hand's order.
    :ivar opponents: the number of opponents, 1 to 4 (R3.1).
    :ivar policy: the opponents' draw policy (a key of :data:`POLICIES`).
    :ivar position: the hero's place in the draw order, 0 (first, left of the button) to
        ``opponents`` (last, the button) (R6.1).
    :ivar folded: players dealt in who folded before the draw (their cards unknown).
    :ivar reshuffle_folded: whether the folded hands joined the discard pile (R6.2 option).
    :ivar dead: cards known to be out of play, as given.
    :ivar suit_tiebreak: the R2.4 option the showdowns used.
    :ivar seed: the seed of the run (``Rng(seed)``); the same arguments and seed give the
        same counts, with compiled or pure kernels.
    :ivar trials: the number of trials.
    :ivar counts: 6 ints: ``counts[0]`` trials lost, ``counts[m]`` (m = 1..5) trials in which
        the hero won a ``1/m`` share of the pot (``counts[1]``: won alone; splits only with
        ``suit_tiebreak`` off, R9.4).
    :ivar confidence: the level of :attr:`interval`, e.g. 0.95.
    """

    hand: tuple[Card, ...]
    discard: tuple[Card, ...]
    opponents: int
    policy: str
    position: int
    folded: int
    reshuffle_folded: bool
    dead: tuple[Card, ...]
    suit_tiebreak: bool
    seed: int
    trials: int
    counts: tuple[int, ...]
    confidence: float

    method = INTERVAL_METHOD
    """How :attr:`interval` is computed: the Wilson score interval of the mean pot share."""

    @property
    def keep(self) -> tuple[Card, ...]:
        """The cards kept, in the hand's order."""
        return tuple(c for c in self.hand if c not in self.discard)

    @property
    def draws(self) -> int:
        """How many cards the hero draws (0 is standing pat)."""
        return len(self.discard)

    @property
    def wins(self) -> int:
        """Trials the hero won alone."""
        return self.counts[1]

    @property
    def ties(self) -> int:
        """Trials the hero split the pot (R9.4; only with ``suit_tiebreak`` off)."""
        return sum(self.counts[2:])

    @property
    def losses(self) -> int:
        """Trials the hero lost."""
        return self.counts[0]

    @property
    def win(self) -> float:
        """Share of trials won alone."""
        return self.wins / self.trials

    @property
    def tie(self) -> float:
        """Share of trials with a split pot; ``win + tie + lose == 1`` up to rounding."""
        return self.ties / self.trials

    @property
    def lose(self) -> float:
        """Share of trials lost."""
        return self.losses / self.trials

    @property
    def equity_exact(self) -> Fraction:
        """The estimate as an exact fraction: the mean over the trials of the hero's pot share."""
        return sum((_fraction(self.counts[m], m) for m in range(1, 6)), _fraction(0)) / self.trials

    @property
    def equity(self) -> float:
        """The estimate: the hero's mean share of the pot (1 won, ``1/m`` split m ways, 0 lost)."""
        return float(self.equity_exact)

    @property
    def interval(self) -> tuple[float, float]:
        """The :attr:`confidence` interval of the equity: the Wilson score interval.

        For the win/lose outcomes (no split pots) it is the Wilson interval of a binomial
        proportion. With split pots a trial's share is 0, a fraction or 1, whose variance is
        at most ``p(1 - p)``, so the same interval is conservative. Unlike the normal
        interval it never collapses to a point: an equity estimated at 1 from ``n`` trials
        gets ``(n / (n + z**2), 1)``.
        """
        return _wilson(self.equity_exact * self.trials, self.trials, self.confidence)

    @property
    def stderr(self) -> float:
        """The standard error of the equity estimate: sample standard deviation of the per-trial
        share over the square root of :attr:`trials` (0 for a single trial)."""
        n = self.trials
        if n < 2:
            return 0.0
        total = sum((_fraction(self.counts[m], m) for m in range(1, 6)), _fraction(0))
        squares = sum((_fraction(self.counts[m], m * m) for m in range(1, 6)), _fraction(0))
        variance = (squares - total * total / n) / (n - 1)
        return sqrt(float(variance) / n)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form: cards as text, shares as floats, the exact estimate as ``"n/d"``."""
        low, high = self.interval
        return {
            "hand": format_cards(self.hand),
            "discard": format_cards(self.discard),
            "keep": format_cards(self.keep),
            "draws": self.draws,
            "opponents": self.opponents,
            "policy": self.policy,
            "position": self.position,
            "folded": self.folded,
            "reshuffle_folded": self.reshuffle_folded,
            "dead": format_cards(self.dead),
            "suit_tiebreak": self.suit_tiebreak,
            "seed": self.seed,
            "trials": self.trials,
            "counts": list(self.counts),
            "win": self.win,
            "tie": self.tie,
            "lose": self.lose,
            "equity": self.equity,
            "equity_exact": str(self.equity_exact),
            "stderr": self.stderr,
            "interval": [low, high],
            "confidence": self.confidence,
            "method": self.method,
        }

    def __str__(self) -> str:
        what = f"discard {format_cards(self.discard)}" if self.discard else "stand pat"
        low, high = self.interval
        return (f"{what}: equity {self.equity:.4f} ({100 * self.confidence:g}% CI {low:.4f}-{high:.4f}), "
                f"win {100 * self.win:.2f}%, tie {100 * self.tie:.2f}%, lose {100 * self.lose:.2f}% "
                f"over {self.trials} trials vs {self.opponents} "
                f"{self.policy} opponent{'s' if self.opponents > 1 else ''}, seed {self.seed}")


@dataclass(frozen=True)
class EquityTable:
    """Monte Carlo equity of several discards of one hand, best first (see :func:`equity`); immutable.

    :ivar odds: the exact draw odds (:func:`draw_odds`) the discards were taken from.
    :ivar options: one :class:`Equity` per discard simulated, highest equity first (then
        fewer cards drawn, then higher exact expected strength). All share the seed, so
        trial ``t`` deals the opponents the same cards for every discard (common random
        numbers): differences between discards are estimated far more precisely than
        the separate intervals suggest.
    """

    odds: DrawOdds
    options: tuple[Equity, ...]

    @property
    def best(self) -> Equity:
        """The discard with the highest estimated equity."""
        return self.options[0]

    @property
    def hand(self) -> tuple[Card, ...]:
        """The hero's five cards."""
        return self.odds.hand

    def option(self, discard: CardsLike) -> Equity:
        """The estimate of a given discard (cards in any order; ``""`` is standing pat).

        :raises KeyError: that discard was not simulated.
        """
        return _find_option(self.options, discard)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (``json.dumps(table.to_dict())`` works)."""
        first = self.options[0]
        return {
            "hand": format_cards(self.hand),
            "dead": format_cards(first.dead),
            "opponents": first.opponents,
            "policy": first.policy,
            "position": first.position,
            "folded": first.folded,
            "reshuffle_folded": first.reshuffle_folded,
            "suit_tiebreak": first.suit_tiebreak,
            "seed": first.seed,
            "trials": first.trials,
            "confidence": first.confidence,
            "method": first.method,
            "options": [
                {**o.to_dict(), "expected_strength": float(self.odds.option(o.discard).expected_strength)}
                for o in self.options
            ],
        }

    def format(self, top: int | None = None) -> str:
        """A readable table of the ``top`` best options (all when ``None``): for each, the equity
        (win + the pot share of ties) with its interval, then how often it wins, ties and loses."""
        shown_options = self.options if top is None else self.options[: max(top, 0)]
        first = self.options[0]
        level = f"{100 * first.confidence:g}%"
        folded = f", {first.folded} folded{' (reshuffled)' if first.reshuffle_folded else ''}" if first.folded else ""
        dead = f", dead {format_cards(first.dead)}" if first.dead else ""
        ties = not first.suit_tiebreak
        lines = [
            f"{format_cards(self.hand)}: {self.odds.current.description}",
            f"equity vs {first.opponents} opponent{'s' if first.opponents > 1 else ''} drawing by policy "
            f"'{first.policy}', hero drawing {_ordinal(first.position + 1)} of {first.opponents + 1}{folded}{dead}",
            f"{first.trials} trials per discard, seed {first.seed}, {level} Wilson intervals"
            f"{', suit tie-break off (R2.4): ties split' if ties else ''}",
            "(equity: mean share of the pot at showdown, a win counting 1 and a tie its share of the pot;",
            " win%, tie%, lose%: how often; strength: exact expected percentile of the final hand)",
            f"{'#':>3}  {'discard':<12} {'draw':>4} {'equity':>7} {level + ' CI':>15} {'win%':>6} {'tie%':>6} "
            f"{'lose%':>6} {'strength':>8}",
        ]
        for i, o in enumerate(shown_options, 1):
            low, high = o.interval
            what = format_cards(o.discard) if o.discard else "(stand pat)"
            strength = float(self.odds.option(o.discard).expected_strength)
            lines.append(f"{i:>3}  {what:<12} {o.draws:>4} {o.equity:>7.4f} {low:>7.4f}-{high:<7.4f} "
                         f"{100 * o.win:>6.2f} {100 * o.tie:>6.2f} {100 * o.lose:>6.2f} {strength:>8.4f}")
        if len(shown_options) < len(self.options):
            lines.append(f"  ... {len(self.options) - len(shown_options)} more")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _are(n: int) -> str:
    return "is" if n == 1 else "are"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _int_arg(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PokerDraw32TypeError(f"{name} must be an int, got {shown(value)}")
    return value


if TYPE_CHECKING:
    from typing import NamedTuple

    class _EquityPlan(NamedTuple):
        """The checked arguments of :func:`equity`."""

        cards: tuple[Card, ...]
        dead: tuple[Card, ...]
        opponents: int
        position: int
        folded: int
        trials: int
        seed: int
        rules: Rules
        suit_tiebreak: bool
        discard: tuple[Card, ...] | None     # in the hand's order; None: every discard
        available: int                       # cards left for the draw after dealing
else:   # the same fields, without importing typing at run time
    from collections import namedtuple

    _EquityPlan = namedtuple("_EquityPlan", "cards dead opponents position folded trials seed rules suit_tiebreak "
                                            "discard available")


def _equity_plan(
    hand: CardsLike, opponents: int, discard: CardsLike | None, top: int | None, policy: str, trials: int,
    seed: int | None, position: int, dead: CardsLike, folded: int, rules: Rules | None, suit_tiebreak: bool | None,
    confidence: float,
) -> _EquityPlan:
    """Every check of :func:`equity`, in its order, with its errors, before any trial is run (``seed=None``
    draws the seed here).  :func:`pokerdraw32.odds_batch.equity_many` checks a whole batch with it before
    any work starts."""
    cards, out = _hand_and_dead(hand, dead)
    k = _int_arg("opponents", opponents)
    if not 1 <= k <= 4:
        raise PokerDraw32ValueError(f"opponents={k}: 1 to 4 opponents, 2 to 5 players are dealt in [R3.1]")
    n_folded = _int_arg("folded", folded)
    if n_folded < 0 or 1 + k + n_folded > 5:
        raise PokerDraw32ValueError(f"folded={n_folded} with {k} opponent{'s' if k > 1 else ''}: "
                               f"{1 + k + n_folded} players dealt in, at most 5 [R3.1]")
    seat = _int_arg("position", position)
    if not 0 <= seat <= k:
        raise PokerDraw32ValueError(f"position={seat}: the hero's place in the draw order is 0 (first) to {k} (last) "
                               "[R6.1]")
    if not isinstance(policy, str):
        raise PokerDraw32TypeError(f"policy must be a str, one of {', '.join(POLICIES)}; got {shown(policy)}")
    if policy not in POLICIES:
        raise PokerDraw32ValueError(f"unknown policy {policy!r}: use one of {', '.join(POLICIES)}")
    n = _int_arg("trials", trials)
    if not 1 <= n <= _MAX_TRIALS:
        raise PokerDraw32ValueError(f"trials={n}: run 1 to 2**40 trials")
    seed = seed_arg(seed)
    from .rules import Rules

    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        raise PokerDraw32TypeError(f"rules must be a pokerdraw32.Rules, got {shown(rules)}")
    if suit_tiebreak is None:
        suit_tiebreak = rules.suit_tiebreak
    elif not isinstance(suit_tiebreak, bool):
        raise PokerDraw32TypeError(f"suit_tiebreak must be True, False or None, got {shown(suit_tiebreak)}")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise PokerDraw32TypeError(f"confidence must be a float, got {shown(confidence)}")
    if not 0 < confidence < 1 or not 0 < 0.5 + confidence / 2 < 1:     # the second: float rounding near 1
        raise PokerDraw32ValueError(f"confidence={confidence!r}: a level between 0 and 1, e.g. 0.95")
    if discard is not None and top is not None:
        raise PokerDraw32ValueError("top applies only with discard=None (ranking discards); drop one of them")
    if top is not None and (isinstance(top, bool) or not isinstance(top, int)):
        raise PokerDraw32TypeError(f"top must be an int or None, got {shown(top)}")
    if top is not None and top < 1:
        raise PokerDraw32ValueError(f"top={top}: simulate at least one discard")

    unseen = 27 - len(out)
    if unseen < 5 * (k + n_folded):
        raise PokerDraw32ValueError(f"{len(out)} dead cards leave {unseen} unseen, too few to deal "
                               f"{k + n_folded} hands of 5 [R3.1]")
    available = unseen - 5 * (k + n_folded) + (5 * n_folded if rules.reshuffle_folded else 0)

    chosen: tuple[Card, ...] | None = None
    if discard is not None:
        picked = parse_cards(discard)
        for c in picked:
            if c not in cards:
                raise InvalidCardError(f"discard {format_cards(picked)}: {c} is not in the hand {format_cards(cards)}",
                                       str(c))
        if len(picked) > 4:
            raise PokerDraw32ValueError(f"discard {format_cards(picked)} has {len(picked)} cards: at most 4 may be "
                                   "discarded [R6.1]")
        chosen = tuple(c for c in cards if c in picked)
    need = (0 if chosen is None else len(chosen)) if policy == "pat" else 4    # pat: standing pat, at least
    if available < need:
        raise PokerDraw32ValueError(f"only {available} card{'' if available == 1 else 's'} {_are(available)} "
                                    f"left for the draw after dealing, too few for a draw of {need} [R6.2]")
    return _EquityPlan(cards, out, k, seat, n_folded, n, seed, rules, suit_tiebreak, chosen, available)


if TYPE_CHECKING:   # the signatures for type checkers; at run time, the one definition below
    @overload
    def equity(
        hand: CardsLike,
        opponents: int = ...,
        *,
        discard: None = ...,
        top: int | None = ...,
        policy: str = ...,
        trials: int = ...,
        seed: int | None = ...,
        position: int = ...,
        dead: CardsLike = ...,
        folded: int = ...,
        rules: Rules | None = ...,
        suit_tiebreak: bool | None = ...,
        confidence: float = ...,
    ) -> EquityTable: ...


    @overload
    def equity(
        hand: CardsLike,
        opponents: int = ...,
        *,
        discard: CardsLike,
        top: None = ...,
        policy: str = ...,
        trials: int = ...,
        seed: int | None = ...,
        position: int = ...,
        dead: CardsLike = ...,
        folded: int = ...,
        rules: Rules | None = ...,
        suit_tiebreak: bool | None = ...,
        confidence: float = ...,
    ) -> Equity: ...


def equity(
    hand: CardsLike,
    opponents: int = 1,
    *,
    discard: CardsLike | None = None,
    top: int | None = None,
    policy: str = "rule",
    trials: int = 10_000,
    seed: int | None = None,
    position: int = 0,
    dead: CardsLike = (),
    folded: int = 0,
    rules: Rules | None = None,
    suit_tiebreak: bool | None = None,
    confidence: float = 0.95,
) -> Equity | EquityTable:
    """Monte Carlo equity of a hand against ``opponents`` random hands that draw by a policy.

    The model of one trial (kernel :func:`pokerdraw32._kernels.equity_trials`, compiled
    or pure, identical results for a seed):

    1. the cards the hero has not seen (the deck minus ``hand`` minus ``dead``) are the
       stub, shuffled (R11.1); each opponent is dealt 5 of them, then each of ``folded``
       players who fold before the draw (their cards are unknown: dead, or with the R6.2
       option ``reshuffle_folded`` of ``rules`` they join the discard pile);
    2. the draw (R6.1): the ``opponents + 1`` players draw in turn, the hero ``position``-th
       (0: first, the player left of the button; ``opponents``: last, the button). The hero
       throws ``discard``; each opponent throws what ``policy`` says for their five cards
       (:data:`POLICIES`: ``"rule"``, ``"pat"``, ``"random"``). Replacements come from the
       stub; when it runs out, the discard pile (the cards thrown earlier in this draw by
       the others) is reshuffled and dealt from; a player's own discards join the pile only
       after the player is served, so nobody gets their own discards back (R6.2) (5 players
       drawing 4 each exhaust the 7-card stub, and later drawers get earlier discards);
    3. the showdown: the best hand wins (R2); with the suit tie-break off (R2.4) equal hands
       split the pot evenly (R9.4). Nobody folds after the deal: it is all-in equity, the
       mean share of the pot the hero takes.

    Each trial runs on its own generator, seeded from ``Rng(seed)`` (so trial ``t`` deals
    the opponents the same cards whatever the hero discards, and a run of N trials is the
    first N trials of a longer run with the same seed).

    :param hand: the hero's five distinct cards (R1.3).
    :param opponents: 1 to 4 (R3.1: 2 to 5 players are dealt in).
    :param discard: the cards the hero throws away, 0 to 4 of the hand (``""``: stand pat);
        returns an :class:`Equity`. ``None`` (default): every legal discard, the 31 of
        :func:`draw_odds` or its ``top`` best by exact expected strength, each simulated
        with the same seed; returns an :class:`EquityTable`, highest equity first. (With
        ``policy="pat"`` and so many dead cards that fewer than 4 are left for the draw,
        the discards too large to be drawn are left out.)
    :param top: with ``discard=None``, simulate only the ``top`` discards with the best
        expected strength (:func:`draw_odds`); default all 31.
    :param policy: the opponents' draw policy, a key of :data:`POLICIES` (default ``"rule"``).
    :param trials: trials per discard, 1 to 2**40 (default 10,000).
    :param seed: ``0 <= seed < 2**64`` for a reproducible run (R11.1); ``None`` draws one
        from the operating system, reported in the result.
    :param position: the hero's place in the draw order, 0 to ``opponents`` (default 0,
        the first to draw). It matters only when the stub runs out.
    :param dead: cards known to be out of play: never dealt, drawn or reshuffled (exposed
        or burnt cards; folded cards the hero has seen); none in ``hand``.
    :param folded: players who were dealt in and folded before the draw, with unknown
        cards; ``1 + opponents + folded <= 5`` (R3.1).
    :param rules: the :class:`~pokerdraw32.rules.Rules` whose ``suit_tiebreak`` (R2.4) and
        ``reshuffle_folded`` (R6.2) apply; default the classic preset.
    :param suit_tiebreak: overrides ``rules.suit_tiebreak`` when given.
    :param confidence: level of the Wilson intervals, ``0 < confidence < 1`` (default 0.95).
    :raises TypeError: an argument of the wrong type (``bool`` is not accepted for an int).
    :raises InvalidCardError: a bad or repeated card, a hand of other than 5 cards, a dead
        card in the hand, a discarded card not in the hand (R1.3).
    :raises PokerDraw32Error: a discard of 5 cards (R6.1), ``opponents`` or ``folded`` out of
        range (R3.1), an unknown policy, ``trials``, ``seed``, ``position``, ``confidence`` or
        ``top`` out of range, or so many dead cards that the hands cannot be dealt or a
        draw completed (R6.2).

    A royal flush cannot lose; a king-high straight flush can lose only to a royal flush,
    impossible once the other three aces are known to be dead:

    >>> equity("Kh Qh Jh Th 9h", 4, discard="", dead="As Ac Ad", trials=1000, seed=1).equity
    1.0
    >>> e = equity("Ah Ad 7c 8s 9d", 2, discard="7c 8s 9d", trials=20_000, seed=7)
    >>> round(e.equity, 3), [round(x, 3) for x in e.interval], e.method
    (0.431, [0.424, 0.438], 'wilson')
    >>> equity("Ah Ad 7c 8s 9d", 5, discard="")
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: opponents=5: 1 to 4 opponents, 2 to 5 players are dealt in [R3.1]
    """
    plan = _equity_plan(hand, opponents, discard, top, policy, trials, seed, position, dead, folded, rules,
                        suit_tiebreak, confidence)
    cards, out, k, seat, n_folded, n, seed, rules, suit_tiebreak, picked, available = plan

    def run(chosen: tuple[Card, ...]) -> Equity:
        hand_mask = sum(1 << c for c in cards)
        counts = equity_trials(Rng(seed), n, hand_mask, sum(1 << c for c in chosen), sum(1 << c for c in out), k,
                               _POLICY_CODES[policy], seat, n_folded, rules.reshuffle_folded, suit_tiebreak)
        return Equity(cards, chosen, k, policy, seat, n_folded, rules.reshuffle_folded, out, suit_tiebreak, seed, n,
                      tuple(counts), float(confidence))

    if picked is not None:
        return run(picked)

    odds = draw_odds(cards, dead=out, suit_tiebreak=suit_tiebreak)
    # with standing-pat opponents and many dead cards only the smaller discards can be drawn (the plan
    # made sure that standing pat, at least, can)
    feasible = [o for o in odds.options if available >= (o.draws if policy == "pat" else 4)]
    chosen = feasible if top is None else feasible[:top]
    ranked = [(-o.equity_exact, o.draws, i, o) for i, o in enumerate(run(c.discard) for c in chosen)]
    ranked.sort(key=lambda t: t[:3])
    return EquityTable(odds, tuple(t[3] for t in ranked))


if TYPE_CHECKING:
    _Option = TypeVar("_Option", DrawOption, Equity)


def _find_option(options: Iterable[_Option], discard: CardsLike) -> _Option:
    """The option whose discard is ``discard`` (cards in any order)."""
    wanted = frozenset(parse_cards(discard))
    for o in options:
        if frozenset(o.discard) == wanted:
            return o
    raise PokerDraw32KeyError(f"no option discards {format_cards(sorted(wanted, reverse=True))!r}")
