"""Monte Carlo equity (R6.1, R6.2, R2, R9.4, R11): the ``equity_trials`` and ``rule_discard``
kernels, the ``pokerdraw32.equity`` façade and ``pokerdraw32 odds --opponents``.

What is proved here:

* certain outcomes come out exactly (a hand that cannot lose: equity 1; a forced loss: 0; a
  forced tie with the suit tie-break off: 1/2, R2.4, R9.4);
* the simulation matches an independent *exact* enumeration of the same process (every deal,
  every discard of the policy, every replacement set, the reshuffle of R6.2 included) on small
  decks, and the closed form of pat-against-pat on the full deck: the 99.9% Wilson interval
  contains the exact equity, and so does the 95% one where noted;
* the ``rule`` policy is ``bots.choose_discards`` of the cards highest first, on all 201,376 hands;
* compiled and pure kernels give identical counts and identical errors for the same seed;
  a seed reproduces a run; a run continues where it stopped; every discard of a table sees the
  same deals (common random numbers);
* every bad input raises an exception that names it (and the rule, where one applies).
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache
from math import comb, sqrt
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pokerdraw32
from pokerdraw32 import Equity, EquityTable, Rules, cards_to_mask, equity, parse_cards
from pokerdraw32.bots import choose_discards
from pokerdraw32.cards import DECK, mask_to_cards

POLICY = {"pat": 0, "rule": 1, "random": 2}
FULL = 0xFFFFFFFF


def mask(text: str) -> int:
    return cards_to_mask(parse_cards(text))


def all_but(*texts: str) -> int:
    """The dead mask that leaves exactly the cards of ``texts`` in play."""
    keep = 0
    for text in texts:
        keep |= mask(text)
    return FULL & ~keep


def share(counts: tuple[int, ...]) -> Fraction:
    return sum((Fraction(counts[m], m) for m in range(1, 6)), Fraction(0)) / sum(counts)


def record(counts: tuple[int, ...], confidence: float = 0.95) -> Equity:
    """An :class:`Equity` around kernel counts, for its interval."""
    return Equity((), (), 1, "rule", 0, 0, False, (), True, 0, sum(counts), tuple(counts), confidence)


# ---------------------------------------------------------------------------------------
# an independent exact enumeration of the process equity_trials samples


def exact_equity(hand: int, discard: int, dead: int, opponents: int, policy: str, position: int,
                 folded: int = 0, reshuffle_folded: bool = False, suit_tiebreak: bool = True) -> Fraction:
    """The exact expected pot share of the hero, by enumerating every branch with its probability.

    The process, straight from RULES.md: the unseen cards are dealt 5 to each opponent, then 5 to
    each folded player (dead, or with ``reshuffle_folded`` into the discard pile, R6.2); the
    players draw in turn (the hero at ``position``, R6.1); a draw of ``k`` takes a uniformly random
    ``k``-set of the stub, or, if the stub has fewer, all of it and a uniformly random set of the rest
    from the discard pile, which then becomes the stub (R6.2); a player's discards join the pile
    after the player is served; the best hand wins, equal hands split (R2, R2.4, R9.4).
    Card sets are int masks; a leaf returns the hero's share times 60 (1, 1/2 .. 1/5 are whole).
    """
    from pokerdraw32._core_py import evaluate_mask

    keep = ~0 if suit_tiebreak else ~3
    unseen = FULL & ~(hand | dead)
    order = [-1 if seat == position else (seat if seat < position else seat - 1) for seat in range(opponents + 1)]

    def bits(m: int) -> list[int]:
        return [1 << c for c in range(32) if m >> c & 1]

    def subsets(m: int, k: int) -> list[int]:
        return [sum(combo) for combo in itertools.combinations(bits(m), k)]

    def deals(rest: int, count: int) -> Iterator[tuple[list[int], int, Fraction]]:
        if count == 0:
            yield [], rest, Fraction(1)
            return
        hands = subsets(rest, 5)
        for h in hands:
            for more, left, p in deals(rest & ~h, count - 1):
                yield [h, *more], left, p / len(hands)

    @cache
    def discards(held: int) -> tuple[tuple[int, Fraction], ...]:
        if policy == "pat":
            return ((0, Fraction(1)),)
        if policy == "rule":
            cards = tuple(sorted(mask_to_cards(held), reverse=True))
            return ((cards_to_mask(choose_discards(cards)), Fraction(1)),)
        out: list[tuple[int, Fraction]] = []
        for size in range(5):
            chosen = subsets(held, size)
            out += [(d, Fraction(1, 5 * len(chosen))) for d in chosen]
        return tuple(out)

    def showdown(hero: int, opps: tuple[int, ...]) -> int:
        mine = evaluate_mask(hero) & keep
        values = [evaluate_mask(h) & keep for h in opps]
        best = max(values)
        return 0 if best > mine else 60 if best < mine else 60 // (1 + values.count(best))

    def draw(turn: int, hero: int, opps: tuple[int, ...], stub: int, pile: int) -> Fraction:
        if turn == len(order):
            return Fraction(showdown(hero, opps))
        who = order[turn]
        held = hero if who < 0 else opps[who]
        total = Fraction(0)
        for thrown, p in ((discard, Fraction(1)),) if who < 0 else discards(held):
            k = thrown.bit_count()
            if stub.bit_count() >= k:
                branches = [(got, stub & ~got, pile) for got in subsets(stub, k)]
            else:                                   # R6.2: all of the stub, then from the reshuffled pile
                branches = [(stub | got, pile & ~got, 0) for got in subsets(pile, k - stub.bit_count())]
            part = Fraction(0)
            for got, new_stub, new_pile in branches:
                new_held = (held & ~thrown) | got
                new_opps = opps if who < 0 else (*opps[:who], new_held, *opps[who + 1:])
                part += draw(turn + 1, new_held if who < 0 else hero, new_opps, new_stub, new_pile | thrown)
            total += p * part / len(branches)
        return total

    result = Fraction(0)
    for dealt, stub, p in deals(unseen, opponents + folded):
        pile = sum(dealt[opponents:]) if reshuffle_folded else 0
        result += p * draw(0, hand, tuple(dealt[:opponents]), stub, pile)
    return result / 60


# name: hand, discard, dead (everything but these cards), opponents, policy, position, folded, reshuffle, tiebreak
SMALL_CASES = {
    # 9 unseen: the opponent gets 5, the stub 4; the hero draws 3 first, the opponent then needs the
    # reshuffled pile (the hero's discards) whenever it draws 2 or more (R6.2)
    "rule-hero-first-reshuffle": ("Ah Ad 7c 8s 9d", "7c 8s 9d", "Ks Kh Qc Qd Jh Th 9s 8h 7h", 1, "rule", 0, 0, False,
                                  True),
    # the same, the hero last: it may receive the opponent's discards, never its own
    "rule-hero-last-reshuffle": ("Ah Ad 7c 8s 9d", "7c 8s 9d", "Ks Kh Qc Qd Jh Th 9s 8h 7h", 1, "rule", 1, 0, False,
                                 True),
    # the hero second: after an opponent's draw of 3 or 4 it needs the opponent's discards
    "random-policy": ("Kc Qs Jd 9c 7h", "9c 7h", "As Ah Kd Ks Qd Jc Tc Ts 8s", 1, "random", 1, 0, False, True),
    # a folded hand joins the pile (R6.2 option): 10 unseen, nothing left in the stub
    "folded-reshuffled": ("Ah Kh Qh 8s 7c", "8s 7c", "Jh Th 9h Js Jc Ts Tc 9s 9c Kd", 1, "rule", 0, 1, True, True),
    # ties and three-way splits with the suit tie-break off (R2.4, R9.4)
    "two-way-splits": ("Ah Kd Qc 8s 7d", "8s 7d", "As Kh Qd Js Jh 9s 9h Tc 7h", 1, "rule", 1, 0, False, False),
    # the hero last, drawing the 2 cards left: A-K-Q-J-9 three times splits three ways
    "three-way-splits": ("Ah Kd Qc 8s 7d", "8s 7d", "As Ac Kh Ks Qh Qd Js Jh Jd 9s 9h 9d", 2, "pat", 2, 0, False,
                         False),
    "pat-vs-pat": ("Ks Kd 9c 8h 7s", "", "Kh Kc 9s 9d 8c 8s 7h 7d Ah", 1, "pat", 0, 0, False, True),
}


@cache
def small_exact(name: str) -> Fraction:
    hand, discard, keep, opponents, policy, position, folded, reshuffle, tiebreak = SMALL_CASES[name]
    return exact_equity(mask(hand), mask(discard), all_but(hand, keep), opponents, policy, position, folded,
                        reshuffle, tiebreak)


@pytest.mark.parametrize("name", list(SMALL_CASES))
def test_simulation_matches_exact_enumeration(kernels: ModuleType, name: str) -> None:
    hand, discard, keep, opponents, policy, position, folded, reshuffle, tiebreak = SMALL_CASES[name]
    exact = small_exact(name)
    assert 0 < exact < 1
    n = 10_000
    counts = kernels.equity_trials(kernels.Rng(12345), n, mask(hand), mask(discard), all_but(hand, keep), opponents,
                                   POLICY[policy], position, folded, reshuffle, tiebreak)
    low, high = record(counts, 0.999).interval
    assert low <= exact <= high, (name, float(exact), float(share(counts)), counts)
    # and the plain error is within 4 standard errors (a share in [0, 1] has variance <= p(1 - p))
    assert abs(float(share(counts) - exact)) <= 4 * sqrt(float(exact * (1 - exact)) / n)
    if name.endswith("-splits"):
        assert counts[2 if name.startswith("two") else 3] > 0


def test_exact_enumeration_sanity() -> None:
    # pat against pat: the share is the count of the 126 possible opponent hands the hero beats
    from pokerdraw32._core_py import evaluate_mask

    hand, _, keep, *_ = SMALL_CASES["pat-vs-pat"]
    mine = evaluate_mask(mask(hand))
    beaten = sum(evaluate_mask(sum(1 << c for c in h)) < mine
                 for h in itertools.combinations(sorted(parse_cards(keep)), 5))
    assert small_exact("pat-vs-pat") == Fraction(beaten, 126)
    # the position of the hero matters once the stub runs out (R6.2)
    assert small_exact("rule-hero-first-reshuffle") != small_exact("rule-hero-last-reshuffle")


@pytest.fixture(scope="module")
def pat_vs_pat_full_deck() -> tuple[str, Fraction]:
    """Ks Qd Jh 9c 7s standing pat against one opponent standing pat: exact equity over C(27, 5) hands."""
    from pokerdraw32 import evaluate_many

    hand = "Ks Qd Jh 9c 7s"
    mine = pokerdraw32.evaluate(hand).value
    rest = bytes(c for c in range(32) if not mask(hand) >> c & 1)
    rows = bytes(itertools.chain.from_iterable(itertools.combinations(rest, 5)))
    beaten = sum(v < mine for v in evaluate_many(rows))
    return hand, Fraction(beaten, comb(27, 5))


def test_full_deck_pat_against_pat(kernels: ModuleType, pat_vs_pat_full_deck: tuple[str, Fraction]) -> None:
    hand, exact = pat_vs_pat_full_deck
    n = 20_000
    counts = kernels.equity_trials(kernels.Rng(2024), n, mask(hand), 0, 0, 1, 0, 0)
    for confidence in (0.95, 0.999):
        low, high = record(counts, confidence).interval
        assert low <= exact <= high, (confidence, float(exact), counts)


def test_facade_interval_contains_exact_value(pat_vs_pat_full_deck: tuple[str, Fraction]) -> None:
    hand, exact = pat_vs_pat_full_deck
    e = equity(hand, 1, discard="", policy="pat", trials=20_000, seed=99)
    low, high = e.interval
    assert low <= exact <= high and low < e.equity < high


# ---------------------------------------------------------------------------------------
# certain outcomes


@pytest.mark.parametrize("opponents", [1, 2, 3, 4])
@pytest.mark.parametrize("policy", [0, 1, 2])
def test_royal_flush_never_loses(kernels: ModuleType, opponents: int, policy: int) -> None:
    hand = mask("Ah Kh Qh Jh Th")
    for position in range(opponents + 1):
        assert kernels.equity_trials(kernels.Rng(position), 200, hand, 0, 0, opponents, policy,
                                     position) == (0, 200, 0, 0, 0, 0)


@pytest.mark.parametrize("policy", [0, 1, 2])
def test_straight_flush_with_the_beating_cards_dead(kernels: ModuleType, policy: int) -> None:
    # Kh-high straight flush: only a royal flush beats it, and no royal is possible without an ace
    hand = mask("Kh Qh Jh Th 9h")
    assert kernels.equity_trials(kernels.Rng(1), 1000, hand, 0, mask("As Ac Ad"), 4, policy, 2) == (0, 1000, 0, 0, 0, 0)
    # with the aces live it can lose: here the opponent is dealt the only unseen cards, a royal flush
    dead = all_but("Kh Qh Jh Th 9h", "As Ks Qs Js Ts")
    assert kernels.equity_trials(kernels.Rng(1), 100, hand, 0, dead, 1, 0, 0) == (100, 0, 0, 0, 0, 0)


def test_forced_loss_and_forced_tie(kernels: ModuleType) -> None:
    # the only unseen cards are a royal flush in spades: the opponent is dealt it
    hand = mask("Qc Qd 9s 9c 8h")
    assert kernels.equity_trials(kernels.Rng(3), 100, hand, 0, all_but("Qc Qd 9s 9c 8h", "As Ks Qs Js Ts"), 1, 0,
                                 0) == (100, 0, 0, 0, 0, 0)
    # the opponent is dealt the same ranks: R2.4 off, a split every time (equity exactly 1/2); on, the suit of
    # the highest card decides (R2: hearts beat spades)
    hand = mask("Ah Kd Qc Js 9h")
    dead = all_but("Ah Kd Qc Js 9h", "As Kh Qd Jc 9s")
    assert kernels.equity_trials(kernels.Rng(4), 100, hand, 0, dead, 1, 0, 0, 0, False, False) == (0, 0, 100, 0, 0, 0)
    assert kernels.equity_trials(kernels.Rng(4), 100, hand, 0, dead, 1, 0, 0) == (0, 100, 0, 0, 0, 0)
    e = equity("Ah Kd Qc Js 9h", 1, discard="", policy="pat", dead=dead_text(dead), suit_tiebreak=False, trials=100,
               seed=4)
    assert e.equity_exact == Fraction(1, 2) and e.tie == 1.0 and e.win == e.lose == 0.0
    assert e.interval[0] < 0.5 < e.interval[1]


def dead_text(dead: int) -> str:
    return " ".join(str(c) for c in mask_to_cards(dead))


def test_symmetric_pat_hands_split_evenly() -> None:
    # two pair against the mirror two pair, everybody pat, R2.4 off: the pot is always split
    dead = all_but("Ks Kd 9c 9h 7s", "Kh Kc 9s 9d 7d")
    e = equity("Ks Kd 9c 9h 7s", 1, discard="", policy="pat", dead=dead_text(dead), suit_tiebreak=False,
               trials=50, seed=0)
    assert e.counts == (0, 0, 50, 0, 0, 0) and e.equity == 0.5


# ---------------------------------------------------------------------------------------
# the rule policy is bots.choose_discards, on every hand


@pytest.fixture(scope="module")
def rule_reference() -> dict[int, int]:
    out = {}
    for combo in itertools.combinations(range(32), 5):
        cards = tuple(DECK[c] for c in reversed(combo))          # highest first
        out[sum(1 << c for c in combo)] = cards_to_mask(choose_discards(cards))
    return out


def test_rule_discard_is_choose_discards(kernels: ModuleType, rule_reference: dict[int, int]) -> None:
    assert len(rule_reference) == comb(32, 5)
    rule = kernels.rule_discard
    assert all(rule(m) == d for m, d in rule_reference.items())


def test_rule_discard_examples(kernels: ModuleType) -> None:
    r = kernels.rule_discard
    assert r(mask("Ah Ad 7c 8s 9d")) == mask("7c 8s 9d")           # a pair: keep it
    assert r(mask("Ah Kh 7h 8h 9d")) == mask("9d")                 # four to a flush
    assert r(mask("7s 8c 9d Td Qh")) == mask("Qh")                 # 7-8-9-T: the open end, not the gutshot
    assert r(mask("As 7c 8d 9h Kc")) == mask("Kc")                 # A-7-8-9: R2.2, the ace plays low
    assert r(mask("Ah Kd Qc 9s 7h")) == mask("Kd Qc 9s 7h")        # nothing: keep the ace
    assert r(mask("Ks Kd 9c 9h 7s")) == mask("7s")                 # two pair
    assert r(mask("7s 8s 9s Ts Js")) == 0                          # straight flush: pat
    assert r(mask("Qs Qd Qc 8h 8s")) == 0                          # full house: pat


@pytest.mark.parametrize(("value", "exc", "message"), [
    (True, TypeError, "hand mask must be an int, not bool"),
    (1 << 32, ValueError, "hand mask 0x100000000 has bits outside the 32-card deck"),
    (0b1111, ValueError, "hand mask 0xf has 4 cards, expected 5"),
])
def test_rule_discard_errors(kernels: ModuleType, value: Any, exc: type[Exception], message: str) -> None:
    with pytest.raises(exc) as info:
        kernels.rule_discard(value)
    assert str(info.value) == message


# ---------------------------------------------------------------------------------------
# reproducibility, streams, parity


AA = mask("Ah Ad 7c 8s 9d")
AA_DRAW3 = mask("7c 8s 9d")


def test_rng_advances_once_per_trial_and_runs_continue(kernels: ModuleType) -> None:
    rng, other = kernels.Rng(8), kernels.Rng(8)
    first = kernels.equity_trials(rng, 700, AA, AA_DRAW3, 0, 3, 1, 1)
    for _ in range(700):
        other.next_u64()
    assert rng.getstate() == other.getstate()
    second = kernels.equity_trials(rng, 300, AA, AA_DRAW3, 0, 3, 1, 1)
    whole = kernels.equity_trials(kernels.Rng(8), 1000, AA, AA_DRAW3, 0, 3, 1, 1)
    assert tuple(a + b for a, b in zip(first, second, strict=True)) == whole
    assert kernels.equity_trials(kernels.Rng(8), 0, AA, AA_DRAW3, 0, 3, 1, 1) == (0,) * 6


def test_same_seed_same_counts(kernels: ModuleType) -> None:
    args = (500, AA, AA_DRAW3, 0, 4, 1, 4)
    assert kernels.equity_trials(kernels.Rng(5), *args) == kernels.equity_trials(kernels.Rng(5), *args)
    assert kernels.equity_trials(kernels.Rng(5), *args) != kernels.equity_trials(kernels.Rng(6), *args)


PARITY_GRID = [
    (hand, discard, dead, opponents, policy, position, folded, reshuffle, tiebreak)
    for hand, discard in (("Ah Ad 7c 8s 9d", "7c 8s 9d"), ("Ah Kh Jh 8h 7s", "7s"), ("Kc Qs Jd 9c 7h", "Qs Jd 9c 7h"),
                          ("Ts Tc Td 8s 8h", ""))
    for dead in ("", "Kc Ks")
    for opponents, folded, reshuffle in ((1, 0, False), (2, 2, True), (3, 1, False), (4, 0, False))
    for policy in (0, 1, 2)
    for position in {0, opponents}
    for tiebreak in (True, False)
]


@pytest.mark.parametrize("case", PARITY_GRID[::7])
def test_compiled_equals_pure(core: ModuleType, pure: ModuleType, case: tuple[Any, ...]) -> None:
    hand, discard, dead, opponents, policy, position, folded, reshuffle, tiebreak = case
    args = (400, mask(hand), mask(discard), mask(dead), opponents, policy, position, folded, reshuffle, tiebreak)
    a, b = core.Rng(77), pure.Rng(77)
    assert core.equity_trials(a, *args) == pure.equity_trials(b, *args)
    assert a.getstate() == b.getstate()


def kernel_args() -> st.SearchStrategy[tuple[Any, ...]]:
    @st.composite
    def build(draw: st.DrawFn) -> tuple[Any, ...]:
        codes = draw(st.lists(st.integers(0, 31), min_size=5, max_size=5, unique=True))
        hand = sum(1 << c for c in codes)
        thrown = draw(st.lists(st.sampled_from(codes), max_size=5, unique=True))
        dead = draw(st.integers(0, FULL)) & draw(st.sampled_from([0, 0x11, 0xF0F000, FULL]))
        opponents = draw(st.integers(0, 5))
        return (draw(st.integers(0, 60)), hand, sum(1 << c for c in thrown), dead, opponents,
                draw(st.integers(-1, 3)), draw(st.integers(-1, 5)), draw(st.integers(0, 3)), draw(st.booleans()),
                draw(st.booleans()))
    return build()


@settings(max_examples=80, deadline=None)
@given(kernel_args(), st.integers(0, 2**64 - 1))
def test_parity_with_errors(core: ModuleType, pure: ModuleType, outcome: Callable[..., tuple[Any, Any]],
                            args: tuple[Any, ...], seed: int) -> None:
    a = outcome(core.equity_trials, core.Rng(seed), *args)
    b = outcome(pure.equity_trials, pure.Rng(seed), *args)
    assert a == b


@pytest.mark.parametrize(("change", "exc", "message"), [
    ({"rng": 7}, TypeError, "rng must be an Rng, not int"),
    ({"trials": 1.5}, TypeError, "trials must be an int, not float"),
    ({"trials": -1}, ValueError, "trials must be in 0 <= trials <= 2**40, got -1"),
    ({"trials": 2**40 + 1}, ValueError, "trials must be in 0 <= trials <= 2**40, got 1099511627777"),
    ({"hand": 0b111}, ValueError, "hand mask 0x7 has 3 cards, expected 5"),
    ({"discard": 1 << 20}, ValueError, "discard mask 0x100000 is not within hand mask"),
    ({"discard": AA}, ValueError, "has 5 cards; at most 4 may be discarded (R6.1)"),
    ({"excluded": -1}, ValueError, "excluded mask -0x1 has bits outside the 32-card deck"),
    ({"opponents": True}, TypeError, "opponents must be an int, not bool"),
    ({"opponents": 0}, ValueError, "opponents must be 1 to 4 (2 to 5 players, R3.1), got 0"),
    ({"opponents": 5}, ValueError, "opponents must be 1 to 4 (2 to 5 players, R3.1), got 5"),
    ({"policy": 3}, ValueError, "policy must be 0 (pat), 1 (rule) or 2 (random), got 3"),
    ({"position": 3}, ValueError, "position must be 0 to 2 (the hero's place in the draw order), got 3"),
    ({"folded": 3}, ValueError, "3 players and 3 folded: 2 to 5 players are dealt in (R3.1)"),
    ({"folded": -1}, ValueError, "3 players and -1 folded"),
    ({"excluded": all_but("Ah Ad 7c 8s 9d", "Ks Kh Kd Kc Qs Qh Qd Qc Js")}, ValueError,
     "only 9 unseen cards, too few to deal 2 hands of 5"),
    ({"excluded": all_but("Ah Ad 7c 8s 9d", "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc Ts")}, ValueError,
     "only 3 cards for the draw, too few for a draw of 4 (R6.2)"),
])
def test_kernel_errors(kernels: ModuleType, change: dict[str, Any], exc: type[Exception], message: str) -> None:
    args = {"rng": kernels.Rng(1), "trials": 10, "hand": AA, "discard": AA_DRAW3, "excluded": 0, "opponents": 2,
            "policy": 1, "position": 0, "folded": 0}
    args.update(change)
    with pytest.raises(exc) as info:
        kernels.equity_trials(*args.values())
    assert message in str(info.value)


def test_pat_policy_needs_only_the_heros_draw(kernels: ModuleType) -> None:
    # 2 cards left after dealing: enough when nobody but the hero draws, and the hero draws 2
    dead = all_but("Ah Ad 7c 8s 9d", "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc")
    counts = kernels.equity_trials(kernels.Rng(1), 50, AA, mask("8s 9d"), dead, 2, 0, 2)
    assert sum(counts) == 50
    with pytest.raises(ValueError, match=r"only 2 cards for the draw, too few for a draw of 3 \(R6\.2\)"):
        kernels.equity_trials(kernels.Rng(1), 50, AA, AA_DRAW3, dead, 2, 0, 2)


# ---------------------------------------------------------------------------------------
# the façade: pokerdraw32.equity


def test_equity_record() -> None:
    assert pokerdraw32.equity is equity and {"equity", "Equity", "EquityTable", "POLICIES"} <= set(pokerdraw32.__all__)
    e = equity("Ah Ad 7c 8s 9d", 3, discard="9d 8s 7c", policy="rule", trials=5000, seed=11, position=2)
    assert isinstance(e, Equity)
    assert [str(c) for c in e.discard] == ["7c", "8s", "9d"] and [str(c) for c in e.keep] == ["Ah", "Ad"]
    assert (e.opponents, e.policy, e.position, e.trials, e.seed, e.draws) == (3, "rule", 2, 5000, 11, 3)
    assert sum(e.counts) == 5000 and e.wins + e.ties + e.losses == 5000 and e.ties == 0
    assert e.win + e.tie + e.lose == 1 and e.equity == e.win
    low, high = e.interval
    assert 0 < low < e.equity < high < 1 and e.method == "wilson" and e.confidence == 0.95
    assert abs(e.stderr - sqrt(e.win * (1 - e.win) / 4999)) < 1e-12
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.trials = 1  # type: ignore[misc]
    data = json.loads(json.dumps(e.to_dict()))
    assert data["discard"] == "7c 8s 9d" and data["counts"] == list(e.counts) and data["interval"] == [low, high]
    assert Fraction(data["equity_exact"]) == e.equity_exact
    assert "equity 0." in str(e) and "3 rule opponents" in str(e) and "seed 11" in str(e)


def test_equity_reproducible_and_seed_reported() -> None:
    a = equity("Ah Kh Jh 8h 7s", 2, discard="7s", trials=3000, seed=123)
    assert equity("Ah Kh Jh 8h 7s", 2, discard="7s", trials=3000, seed=123) == a
    fresh = equity("Ah Kh Jh 8h 7s", 2, discard="7s", trials=500)
    assert isinstance(fresh.seed, int) and 0 <= fresh.seed < 2**64
    assert equity("Ah Kh Jh 8h 7s", 2, discard="7s", trials=500, seed=fresh.seed).counts == fresh.counts


def test_wilson_interval_at_the_edges() -> None:
    e = equity("Ah Kh Qh Jh Th", 4, discard="", trials=1000, seed=1)
    low, high = e.interval
    z2 = 1.959963984540054 ** 2
    assert e.equity == 1.0 and high == 1.0 and low == pytest.approx(1000 / (1000 + z2))
    wider = equity("Ah Kh Qh Jh Th", 4, discard="", trials=1000, seed=1, confidence=0.999).interval
    assert wider[0] < low


def test_equity_table_ranks_discards() -> None:
    table = equity("Ah Ad 7c 8s 9d", 2, trials=500, seed=5)
    assert isinstance(table, EquityTable) and len(table.options) == 31
    values = [o.equity_exact for o in table.options]
    assert values == sorted(values, reverse=True)
    assert table.best is table.options[0] and [str(c) for c in table.best.discard] == ["7c", "8s", "9d"]
    # every discard ran from the same seed: its counts are those of a single run of that discard
    assert table.option("8s 7c") == equity("Ah Ad 7c 8s 9d", 2, discard="7c 8s", trials=500, seed=5)
    top = equity("Ah Ad 7c 8s 9d", 2, top=3, trials=500, seed=5)
    assert {frozenset(o.discard) for o in top.options} == {frozenset(o.discard) for o in table.odds.options[:3]}
    data = json.loads(json.dumps(top.to_dict()))
    assert len(data["options"]) == 3 and data["seed"] == 5 and "expected_strength" in data["options"][0]
    text = top.format()
    assert "Wilson" in text and "(stand pat)" not in text and "7c 8s 9d" in text
    assert "... 30 more" in table.format(1)
    with pytest.raises(KeyError):
        top.option("")


def test_common_random_numbers(kernels: ModuleType) -> None:
    # 6 unseen cards: the opponent (pat) is dealt 5 and the hero draws the one left, c. Throwing
    # 8s or 7d from Ah Ad Kc 8s 7d wins for the same four c of the six, so if trial t deals the
    # same cards whatever the hero throws (it does), both discards win in exactly the same trials;
    # with independent streams equal counts would be a ~3% accident.
    hand, unseen = mask("Ah Ad Kc 8s 7d"), "Jc Kh Js Ac Qd Td"
    dead = all_but("Ah Ad Kc 8s 7d", unseen)
    eight = kernels.equity_trials(kernels.Rng(31), 600, hand, mask("8s"), dead, 1, 0, 0)
    seven = kernels.equity_trials(kernels.Rng(31), 600, hand, mask("7d"), dead, 1, 0, 0)
    assert eight == seven and eight[0] > 0 and eight[1] > 0
    low, high = record(eight, 0.999).interval
    assert low < 2 / 3 < high                       # 4 winning cards of 6
    table = equity("Ah Ad Kc 8s 7d", 1, policy="pat", dead=dead_text(dead), trials=600, seed=31)
    assert table.option("8s").counts == table.option("7d").counts
    assert len(table.options) == 6                  # standing pat and the five draws of one card (R6.2)


def test_rules_and_folded_hands() -> None:
    e = equity("Ah Ad 7c 8s 9d", 2, discard="7c 8s 9d", folded=2, rules=pokerdraw32.TWO_BLIND, trials=1000, seed=3)
    assert e.folded == 2 and e.reshuffle_folded is True and e.suit_tiebreak is True
    off = equity("Ah Ad 7c 8s 9d", 1, discard="", rules=Rules(suit_tiebreak=False), trials=100, seed=3)
    assert off.suit_tiebreak is False
    assert equity("Ah Ad 7c 8s 9d", 1, discard="", rules=Rules(suit_tiebreak=False), suit_tiebreak=True, trials=100,
                  seed=3).suit_tiebreak is True
    # 4 players dealt in, 2 folded with the classic rules: 7 cards stay in the stub, plenty for everyone
    classic = equity("Ah Ad 7c 8s 9d", 1, discard="7c 8s 9d", folded=2, trials=1000, seed=3)
    assert classic.reshuffle_folded is False and sum(classic.counts) == 1000


@pytest.mark.parametrize(("kwargs", "exc", "message"), [
    ({"hand": "Ah Ad 7c 8s"}, "InvalidCardError", "a hand has exactly 5 cards, got 4"),
    ({"hand": "Ah Ad 7c 8s 6d"}, "InvalidCardError", "bad card '6d': rank 6 is not in the 32-card deck"),
    ({"hand": "Ah Ad 7c 8s ah"}, "InvalidCardError", "duplicate card 'ah' (Ah appears twice) [R1.3]"),
    ({"dead": "Kc Ad"}, "InvalidCardError", "dead card Ad is in the hand Ah Ad 7c 8s 9d [R1.1]"),
    ({"discard": "Kc"}, "InvalidCardError", "discard Kc: Kc is not in the hand Ah Ad 7c 8s 9d"),
    ({"discard": "Ah Ad 7c 8s 9d"}, "PokerDraw32Error", "has 5 cards: at most 4 may be discarded [R6.1]"),
    ({"opponents": 0}, "PokerDraw32Error", "opponents=0: 1 to 4 opponents, 2 to 5 players are dealt in [R3.1]"),
    ({"opponents": 5}, "PokerDraw32Error", "opponents=5: 1 to 4 opponents, 2 to 5 players are dealt in [R3.1]"),
    ({"opponents": True}, "TypeError", "opponents must be an int, got True"),
    ({"opponents": "2"}, "TypeError", "opponents must be an int, got '2'"),
    ({"folded": 3}, "PokerDraw32Error", "folded=3 with 2 opponents: 6 players dealt in, at most 5 [R3.1]"),
    ({"folded": -1}, "PokerDraw32Error", "folded=-1"),
    ({"position": 3}, "PokerDraw32Error", "position=3: the hero's place in the draw order is 0 (first) to 2 (last)"),
    ({"policy": "best"}, "PokerDraw32Error", "unknown policy 'best': use one of rule, pat, random"),
    ({"policy": 1}, "TypeError", "policy must be a str"),
    ({"trials": 0}, "PokerDraw32Error", "trials=0: run 1 to 2**40 trials"),
    ({"trials": -5}, "PokerDraw32Error", "trials=-5: run 1 to 2**40 trials"),
    ({"trials": 1e4}, "TypeError", "trials must be an int, got 10000.0"),
    ({"seed": -1}, "PokerDraw32Error", "seed -1 must be an int with 0 <= seed < 2**64 [R11.1]"),
    ({"seed": 2**64}, "PokerDraw32Error", "seed <int of 65 bits> must be an int with 0 <= seed < 2**64 [R11.1]"),
    ({"seed": "7"}, "TypeError", "seed must be an int or None, got '7'"),
    ({"seed": True}, "TypeError", "seed must be an int or None, got True"),
    ({"rules": "classic"}, "TypeError", "rules must be a pokerdraw32.Rules, got 'classic'"),
    ({"suit_tiebreak": 0}, "TypeError", "suit_tiebreak must be True, False or None, got 0"),
    ({"confidence": 1.0}, "PokerDraw32Error", "confidence=1.0: a level between 0 and 1"),
    ({"confidence": 0}, "PokerDraw32Error", "confidence=0: a level between 0 and 1"),
    ({"confidence": "95%"}, "TypeError", "confidence must be a float"),
    ({"top": 3}, "PokerDraw32Error", "top applies only with discard=None"),
    ({"discard": None, "top": 0}, "PokerDraw32Error", "top=0: simulate at least one discard"),
    ({"discard": None, "top": 2.0}, "TypeError", "top must be an int or None"),
    ({"dead": "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc Ts Th Td Tc 9s 9h"}, "PokerDraw32Error",
     "18 dead cards leave 9 unseen, too few to deal 2 hands of 5 [R3.1]"),
    ({"dead": "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc Ts Th"}, "PokerDraw32Error",
     "only 3 cards are left for the draw after dealing, too few for a draw of 4 [R6.2]"),
    ({"discard": None, "dead": "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc Ts Th"}, "PokerDraw32Error",
     "only 3 cards are left for the draw after dealing, too few for a draw of 4 [R6.2]"),
    ({"policy": "pat", "dead": "Ks Kh Kd Kc Qs Qh Qd Qc Js Jh Jd Jc Ts Th Td Tc"}, "PokerDraw32Error",
     "only 1 card is left for the draw after dealing, too few for a draw of 3 [R6.2]"),
])
def test_equity_errors(kwargs: dict[str, Any], exc: str, message: str) -> None:
    args: dict[str, Any] = {"hand": "Ah Ad 7c 8s 9d", "opponents": 2, "discard": "7c 8s 9d", "trials": 10,
                            "seed": 1, **kwargs}
    with pytest.raises(getattr(pokerdraw32, exc) if exc != "TypeError" else TypeError) as info:
        equity(args.pop("hand"), args.pop("opponents"), **args)
    assert message in str(info.value)
    if exc != "TypeError":
        assert isinstance(info.value, ValueError)


@st.composite
def equity_args(draw: st.DrawFn) -> dict[str, Any]:
    codes = draw(st.lists(st.integers(0, 31), min_size=5, max_size=5, unique=True))
    opponents = draw(st.integers(1, 4))
    return {
        "hand": [DECK[c] for c in codes],
        "opponents": opponents,
        "discard": [DECK[c] for c in draw(st.lists(st.sampled_from(codes), max_size=4, unique=True))],
        "policy": draw(st.sampled_from(sorted(POLICY))),
        "position": draw(st.integers(0, opponents)),
        "trials": draw(st.integers(1, 300)),
        "seed": draw(st.integers(0, 2**64 - 1)),
        "suit_tiebreak": draw(st.booleans()),
        "confidence": draw(st.sampled_from([0.5, 0.9, 0.95, 0.999])),
    }


@settings(max_examples=60, deadline=None)
@given(equity_args())
def test_equity_properties(args: dict[str, Any]) -> None:
    e = equity(args.pop("hand"), args.pop("opponents"), **args)
    assert sum(e.counts) == e.trials and all(c >= 0 for c in e.counts)
    assert 0 <= e.equity <= 1 and 0 <= e.equity_exact <= 1
    assert Fraction(e.wins + e.ties + e.losses, e.trials) == 1
    assert abs(e.win + e.tie + e.lose - 1) < 1e-12
    assert e.win <= e.equity <= e.win + e.tie
    low, high = e.interval
    assert 0 <= low <= e.equity <= high <= 1
    if e.suit_tiebreak:
        assert e.ties == 0                              # R2.3: with one deck no two hands tie


# ---------------------------------------------------------------------------------------
# the command: pokerdraw32 odds --opponents


def run_cli(*argv: str) -> tuple[int, str, str]:
    from pokerdraw32.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_equity_table() -> None:
    code, out, err = run_cli("odds", "Ah Ad 7c 8s 9d", "--opponents", "2", "--trials", "2000", "--seed", "5",
                             "--top", "3")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Ah Ad 7c 8s 9d: pair of aces, nine of diamonds kicker"
    assert "2 opponents drawing by policy 'rule', hero drawing 1st of 3" in lines[1]
    assert "2000 trials per discard, seed 5, 95% Wilson intervals" in lines[2]
    rows = [ln.split() for ln in lines if ln[:3].strip().isdigit() and ln[3:5] == "  "]
    assert len(rows) == 3 and rows[0][1:5] == ["7c", "8s", "9d", "3"]
    best = equity("Ah Ad 7c 8s 9d", 2, discard="7c 8s 9d", trials=2000, seed=5)
    low, high = best.interval
    assert rows[0][5] == f"{best.equity:.4f}" and rows[0][6] == f"{low:.4f}-{high:.4f}"


def test_cli_equity_one_discard_json() -> None:
    code, out, _ = run_cli("odds", "Ah Kh Jh 8h 7s", "--opponents", "4", "--discard", "pat", "--policy", "pat",
                           "--trials", "500", "--seed", "1", "--position", "4", "--json", "--no-suit-tiebreak")
    data = json.loads(out)
    assert code == 0 and len(data["options"]) == 1 and data["options"][0]["discard"] == ""
    assert data["opponents"] == 4 and data["position"] == 4 and data["suit_tiebreak"] is False
    e = equity("Ah Kh Jh 8h 7s", 4, discard="", policy="pat", trials=500, seed=1, position=4, suit_tiebreak=False)
    assert data["options"][0]["counts"] == list(e.counts)
    code, out, _ = run_cli("odds", "Ah Kh Jh 8h 7s", "--opponents", "1", "--discard", "7s", "--trials", "100",
                           "--folded", "2", "--reshuffle-folded", "--seed", "2")
    assert code == 0 and "2 folded (reshuffled)" in out


def test_cli_equity_seed_is_printed() -> None:
    code, out, _ = run_cli("odds", "Ah Kh Jh 8h 7s", "--opponents", "1", "--discard", "7s", "--trials", "200")
    seed = int(out.splitlines()[2].split("seed ")[1].split(",")[0])
    _, again, _ = run_cli("odds", "Ah Kh Jh 8h 7s", "--opponents", "1", "--discard", "7s", "--trials", "200",
                          "--seed", str(seed))
    assert code == 0 and again == out


@pytest.mark.parametrize(("argv", "needle", "status"), [
    # usage errors (exit 2, with the usage line), before anything runs
    (["--opponents", "0"], "--opponents: 0 is out of range: 1 to 4 opponents, 2 to 5 players are dealt in [R3.1]", 2),
    (["--opponents", "5"], "[R3.1]", 2),
    (["--opponents", "1", "--trials", "0"], "--trials: 0 is out of range", 2),
    (["--opponents", "1", "--seed", "-3"], "[R11.1]", 2),
    (["--opponents", "2", "--position", "3"], "--position 3: with 2 opponents", 2),
    (["--opponents", "1", "--discard", "7c 8s", "--top", "2"], "--top applies only without --discard", 2),
    (["--seed", "3"], "--seed is an equity option: add --opponents K (1-4)", 2),
    (["--trials", "50"], "--trials is an equity option", 2),
    # the engine refuses the input (exit 1)
    (["--opponents", "1", "--discard", "Kc"], "Kc is not in the hand", 1),
])
def test_cli_equity_errors(argv: list[str], needle: str, status: int) -> None:
    code, out, err = run_cli("odds", "Ah Ad 7c 8s 9d", *argv)
    assert code == status and out == "" and needle in err and "pokerdraw32 odds: error:" in err
    assert err.startswith("usage: pokerdraw32 odds") == (status == 2)


def test_cli_equity_bad_policy() -> None:
    code, _, err = run_cli("odds", "Ah Ad 7c 8s 9d", "--opponents", "1", "--policy", "best")
    assert code == 2 and "invalid choice: 'best'" in err


def test_cli_equity_shows_win_tie_lose_and_equity() -> None:
    """equity = win + the pot share of ties; win, tie and lose are shown with and without R2.4
    (the table printed equity and a win% column that were always identical, and no lose%)."""
    for extra in ([], ["--no-suit-tiebreak"]):
        code, out, _ = run_cli("odds", "Ah Kh 7d 8s 9c", "--opponents", "4", "--trials", "3000", "--seed", "2",
                               "--top", "2", *extra)
        lines = out.splitlines()
        header = next(ln for ln in lines if ln.lstrip().startswith("#"))
        assert code == 0 and header.split()[3:] == ["equity", "95%", "CI", "win%", "tie%", "lose%", "strength"]
        rows = [ln.split() for ln in lines if ln[:3].strip().isdigit() and ln[3:5] == "  "]
        for row in rows:
            discard = " ".join(row[1:-7])
            e = equity("Ah Kh 7d 8s 9c", 4, discard=discard, trials=3000, seed=2, suit_tiebreak=not extra)
            assert row[-6:-4] == [f"{e.equity:.4f}", "-".join(f"{x:.4f}" for x in e.interval)]
            assert row[-4:-1] == [f"{100 * e.win:.2f}", f"{100 * e.tie:.2f}", f"{100 * e.lose:.2f}"]
            assert abs(e.win + e.tie + e.lose - 1) < 1e-12 and e.win <= e.equity <= e.win + e.tie
