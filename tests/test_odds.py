"""Exact draw odds (R6.1, R2): the draw kernels, the ``draw_odds`` façade and ``pokerdraw32 odds``.

Card codes: ``4 * rank + suit``, ranks 7 8 9 T J Q K A = 0..7, suits s c d h = 0..3.
Category counts are tuples indexed by category: 0 high card, 1 one pair, 2 two pair,
3 three of a kind, 4 straight, 5 full house, 6 flush, 7 four of a kind, 8 straight flush.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import comb
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdraw32 import cards_to_mask, parse_cards

NHANDS = comb(32, 5)  # 201,376


def mask(text: str) -> int:
    return cards_to_mask(parse_cards(text))


# ---------------------------------------------------------------------------------------
# hand-checked exact distributions (the derivations are in the comments)

# Stand pat: no replacement, the one outcome is the hand itself (R6.1: 0 is standing pat).
PAT = ("Ah Ad 7c 8s 9d", "", "", 1, (0, 1, 0, 0, 0, 0, 0, 0, 0))

# Four to a flush, throw the 7s, draw 1 of the 27 unseen cards (32 - 5 held).
#   flush: the 4 hearts left (7h 9h Th Qh); A K J 8 + a heart is never a straight   -> 4
#   one pair: 3 aces, 3 kings, 3 jacks, 3 eights left                                -> 12
#   high card: the rest, 27 - 4 - 12 (7c 7d, 9s 9c 9d, Ts Tc Td, Qs Qc Qd)           -> 11
FLUSH_DRAW = ("Ah Kh Jh 8h 7s", "7s", "", 27, (11, 12, 0, 0, 0, 0, 4, 0, 0))

# The same with Qh and 9h dead: 25 unseen cards, 2 flush outs, the rest unchanged.
FLUSH_DRAW_DEAD = ("Ah Kh Jh 8h 7s", "7s", "Qh 9h", 25, (11, 12, 0, 0, 0, 0, 2, 0, 0))

# A-7-8-9 draws one to the lowest straight (R2.2: the ace plays low, top card the ten):
#   straight: 4 tens; one pair: 3 each of A 7 8 9 = 12; high card: 4 J + 4 Q + 3 K = 11.
ACE_LOW = ("As 7c 8d 9h Kc", "Kc", "", 27, (11, 12, 0, 0, 4, 0, 0, 0, 0))

# A pair of aces draws three: C(27, 3) = 2925 replacement sets from the 27 unseen cards:
# 2 aces, 3 each of 7 8 9 (one of each is in the hand), 4 each of T J Q K; 25 non-aces.
# "pairs among non-aces": 3 * C(3,2) + 4 * C(4,2) = 9 + 24 = 33.
#   four of a kind: both aces + any of the other 25                         C(2,2) * 25 = 25
#   full house: 1 ace + a non-ace pair, 2 * 33 = 66; or no ace + non-ace trips,
#               3 * C(3,3) + 4 * C(4,3) = 19                                     66 + 19 = 85
#   three of a kind: 1 ace + 2 non-aces of different ranks, 2 * (C(25,2) - 33)   = 534
#   two pair: no ace, a non-ace pair + a third non-ace of another rank:
#             9 * (25 - 3) + 24 * (25 - 4)                                      198 + 504 = 702
#   one pair: no ace, three different ranks, C(25,3) - 702 - 19                2300 - 721 = 1579
#   check: 25 + 85 + 534 + 702 + 1579 = 2925; trips or better: 644 / 2925.
ACES_DRAW_THREE = ("Ah Ad 7c 8s 9d", "7c 8s 9d", "", 2925, (0, 1579, 702, 534, 0, 85, 0, 25, 0))

HAND_CHECKED = [PAT, FLUSH_DRAW, FLUSH_DRAW_DEAD, ACE_LOW, ACES_DRAW_THREE]


@pytest.mark.parametrize(("hand", "discard", "dead", "total", "categories"), HAND_CHECKED)
def test_hand_checked_distributions(kernels: ModuleType, hand: str, discard: str, dead: str, total: int,
                                    categories: tuple[int, ...]) -> None:
    h, d, x = mask(hand), mask(discard), mask(dead)
    got_total, got_categories, score = kernels.draw_summary(h, d, x)
    assert (got_total, got_categories) == (total, categories)
    n, counts = kernels.draw_outcomes(h, d, x)
    assert n == total and sum(counts.values()) == total
    assert list(counts) == sorted(counts)
    by_category = [0] * 9
    for value, k in counts.items():
        by_category[value >> 22] += k
    assert tuple(by_category) == categories
    assert score == sum(k * kernels.strength_score(v) for v, k in counts.items())


def test_stand_pat_is_the_hand_itself(kernels: ModuleType) -> None:
    h = mask("Ah Ad 7c 8s 9d")
    for tiebreak in (True, False):
        assert kernels.draw_outcomes(h, 0, 0, tiebreak) == (1, {kernels.evaluate_mask(h, tiebreak): 1})


def test_excluded_may_name_the_hand(kernels: ModuleType) -> None:
    h = mask("Ah Kh Jh 8h 7s")
    assert kernels.draw_outcomes(h, mask("7s"), h) == kernels.draw_outcomes(h, mask("7s"), 0)
    assert kernels.draw_outcomes(h, mask("7s"), h | mask("Qh")) == kernels.draw_outcomes(h, mask("7s"), mask("Qh"))


def test_draw_from_exactly_enough_cards(kernels: ModuleType) -> None:
    h = mask("Ah Kh Jh 8h 7s")
    unseen = mask("7h 9h")
    excluded = 0xFFFFFFFF & ~unseen
    total, counts = kernels.draw_outcomes(h, mask("Ah 7s"), excluded)
    assert total == 1 and len(counts) == 1                       # Kh Jh 9h 8h 7h: a flush
    assert next(iter(counts)) >> 22 == 6


# ---------------------------------------------------------------------------------------
# strength scores: 2 * (hands below) + (hands equal), over all C(32, 5) hands


@pytest.fixture(scope="module")
def value_counts(pure: ModuleType) -> dict[bool, Counter[int]]:
    """How many of the 201,376 hands have each value, with R2.4 on and off (brute force)."""
    out: dict[bool, Counter[int]] = {}
    for tiebreak in (True, False):
        out[tiebreak] = Counter(pure.evaluate_mask(sum(1 << c for c in combo), tiebreak)
                                for combo in itertools.combinations(range(32), 5))
    return out


def test_strength_scores_brute_force(kernels: ModuleType, value_counts: dict[bool, Counter[int]]) -> None:
    for tiebreak, counts in value_counts.items():
        below = 0
        for value in sorted(counts):
            assert kernels.strength_score(value, tiebreak) == 2 * below + counts[value], (value, tiebreak)
            below += counts[value]
        assert below == NHANDS


def test_strength_score_extremes(kernels: ModuleType) -> None:
    assert kernels.strength_score(kernels.evaluate_mask(mask("Ah Kh Qh Jh Th"))) == 2 * NHANDS - 1
    # Q-T-9-8-7 with the queen of spades, not all spades: 4**4 - 1 = 255 hands share the worst value
    assert kernels.strength_score(kernels.evaluate_mask(mask("Qs Ts 9s 8s 7c"))) == 255
    # R2.4 off: the worst hand ties with the 4 * 255 = 1020 Q-T-9-8-7 non-flushes
    assert kernels.strength_score(kernels.evaluate_mask(mask("Qs Ts 9s 8s 7c"), False), False) == 1020


# ---------------------------------------------------------------------------------------
# a brute-force reference, written here: enumerate the unseen cards, evaluate, count


def reference(kernels: ModuleType, hand: int, discard: int, excluded: int, tiebreak: bool) -> dict[int, int]:
    unseen = [c for c in range(32) if not (hand | excluded) >> c & 1]
    kept = [c for c in range(32) if hand >> c & 1 and not discard >> c & 1]
    counts: Counter[int] = Counter()
    for new in itertools.combinations(unseen, 5 - len(kept)):
        counts[kernels.evaluate_codes(kept + list(new), tiebreak)] += 1
    return dict(counts)


@pytest.mark.parametrize(("hand", "discard", "dead"), [
    ("Ah Ad 7c 8s 9d", "7c 8s 9d", ""),
    ("Ks Kd Jc Jh 9s", "9s", "9c 9d"),
    ("7s 8s 9s Ts Ah", "Ah", "Js"),
    ("As Kc Qd Jh 7s", "As Kc Qd Jh", "Ac Ad Ah 7c 7d 7h Kd"),
])
@pytest.mark.parametrize("tiebreak", [True, False])
def test_against_reference(kernels: ModuleType, hand: str, discard: str, dead: str, tiebreak: bool) -> None:
    h, d, x = mask(hand), mask(discard), mask(dead)
    total, counts = kernels.draw_outcomes(h, d, x, tiebreak)
    assert counts == reference(kernels, h, d, x, tiebreak)
    assert total == comb(32 - 5 - bin(x & ~h).count("1"), bin(d).count("1"))


# ---------------------------------------------------------------------------------------
# errors: the same type and message in both implementations

H = mask("Ah Ad 7c 8s 9d")
ERRORS: list[tuple[tuple[Any, ...], type[Exception], str]] = [
    (("x", 0, 0), TypeError, "hand mask must be an int, not str"),
    ((True, 0, 0), TypeError, "hand mask must be an int, not bool"),
    ((1 << 32, 0, 0), ValueError, "hand mask 0x100000000 has bits outside the 32-card deck"),
    ((-1, 0, 0), ValueError, "hand mask -0x1 has bits outside the 32-card deck"),
    ((0b1111, 0, 0), ValueError, "hand mask 0xf has 4 cards, expected 5"),
    ((1, 0, 0), ValueError, "hand mask 0x1 has 1 card, expected 5"),
    ((H, 1.0, 0), TypeError, "discard mask must be an int, not float"),
    ((H, 1 << 40, 0), ValueError, "discard mask 0x10000000000 has bits outside the 32-card deck"),
    ((H, 1 << 5, 0), ValueError, f"discard mask 0x20 is not within hand mask {H:#x}"),
    ((H, H, 0), ValueError, f"discard mask {H:#x} has 5 cards; at most 4 may be discarded (R6.1)"),
    ((H, 0, None), TypeError, "excluded mask must be an int, not NoneType"),
    ((H, 0, -2), ValueError, "excluded mask -0x2 has bits outside the 32-card deck"),
    ((H, mask("7c 8s 9d"), 0xFFFFFFFF & ~mask("Ks Kc")), ValueError, "only 2 unseen cards for a draw of 3"),
]


@pytest.mark.parametrize("function", ["draw_outcomes", "draw_summary"])
@pytest.mark.parametrize(("args", "exc", "message"), ERRORS)
def test_draw_errors(kernels: ModuleType, function: str, args: tuple[Any, ...], exc: type[Exception],
                     message: str) -> None:
    with pytest.raises(exc) as info:
        getattr(kernels, function)(*args)
    assert str(info.value) == message


@pytest.mark.parametrize(("args", "exc", "message"), [
    (("1",), TypeError, "value must be an int, not str"),
    ((False,), TypeError, "value must be an int, not bool"),
    ((0,), ValueError, "0 is not the value of a 5-card hand (suit_tiebreak on)"),
    ((-5,), ValueError, "-5 is not the value of a 5-card hand (suit_tiebreak on)"),
    ((1 << 80,), ValueError, f"{1 << 80} is not the value of a 5-card hand (suit_tiebreak on)"),
    ((9 << 22,), ValueError, f"{9 << 22} is not the value of a 5-card hand (suit_tiebreak on)"),
])
def test_strength_score_errors(kernels: ModuleType, args: tuple[Any, ...], exc: type[Exception],
                               message: str) -> None:
    with pytest.raises(exc) as info:
        kernels.strength_score(*args)
    assert str(info.value) == message


def test_strength_score_suit_field_with_tiebreak_off(kernels: ModuleType) -> None:
    value = kernels.evaluate_mask(mask("Ah Kd 7c 8s 9h"))      # high card, ace of hearts: suit field 3
    assert value & 3 == 3
    with pytest.raises(ValueError, match="suit_tiebreak off"):
        kernels.strength_score(value, False)
    assert kernels.strength_score(value & ~3, False) < kernels.strength_score(value)


# ---------------------------------------------------------------------------------------
# parity: compiled and pure give the same results and the same errors


@st.composite
def draws(draw: st.DrawFn) -> tuple[int, int, int, bool]:
    codes = draw(st.lists(st.integers(0, 31), min_size=5, max_size=5, unique=True))
    hand = sum(1 << c for c in codes)
    kept = draw(st.lists(st.sampled_from(codes), min_size=0, max_size=5, unique=True))
    discard = hand & ~sum(1 << c for c in kept)
    excluded = draw(st.integers(0, 0xFFFFFFFF).map(lambda m: m & draw(st.sampled_from([0, 0x01010101, 0x00F0000F,
                                                                                     0xFFFFFFFF]))))
    return hand, discard, excluded, draw(st.booleans())


@settings(max_examples=60, deadline=None)
@given(draws())
def test_parity(core: ModuleType, pure: ModuleType, outcome: Callable[..., tuple[Any, Any]],
                args: tuple[int, int, int, bool]) -> None:
    for name in ("draw_outcomes", "draw_summary"):
        a = outcome(getattr(core, name), *args)
        b = outcome(getattr(pure, name), *args)
        assert a == b
        if name == "draw_outcomes" and a[0] == "ok":
            assert list(a[1][1]) == list(b[1][1])          # same (ascending) key order


@settings(max_examples=100, deadline=None)
@given(st.integers(-1, 1 << 27), st.booleans())
def test_strength_score_parity(core: ModuleType, pure: ModuleType, outcome: Callable[..., tuple[Any, Any]],
                               value: int, tiebreak: bool) -> None:
    assert outcome(core.strength_score, value, tiebreak) == outcome(pure.strength_score, value, tiebreak)


# ---------------------------------------------------------------------------------------
# the façade: pokerdraw32.draw_odds


def test_draw_odds_all_31_discards() -> None:
    import pokerdraw32
    from pokerdraw32 import HandCategory, draw_odds

    assert pokerdraw32.draw_odds is draw_odds and "draw_odds" in pokerdraw32.__all__
    odds = draw_odds("Ah Ad 7c 8s 9d")
    assert len(odds.options) == 31                                    # C(5,0..4) = 1 + 5 + 10 + 10 + 5
    assert sorted(o.draws for o in odds.options) == [0] + [1] * 5 + [2] * 10 + [3] * 10 + [4] * 5
    assert len({frozenset(o.discard) for o in odds.options}) == 31
    for o in odds.options:
        assert o.combinations == comb(27, o.draws)
        assert sum(o.probabilities.values()) == 1
        assert set(o.keep) | set(o.discard) == set(odds.hand) and not set(o.keep) & set(o.discard)
    strengths = [o.expected_strength for o in odds.options]
    assert strengths == sorted(strengths, reverse=True)               # ranked best first
    best = odds.best
    assert [str(c) for c in best.discard] == ["7c", "8s", "9d"]
    assert best.at_least(HandCategory.THREE_OF_A_KIND) == Fraction(644, 2925)   # ACES_DRAW_THREE
    assert best.probability(HandCategory.TWO_PAIR) == Fraction(702, 2925)
    assert best.probability(HandCategory.FOUR_OF_A_KIND) == Fraction(25, 2925)
    pat = odds.option("")
    assert pat.combinations == 1 and pat.probability(HandCategory.ONE_PAIR) == 1
    assert pat.expected_strength == Fraction(pat.score, 2 * NHANDS)


def test_draw_odds_dead_cards_and_selected_discards() -> None:
    from pokerdraw32 import HandCategory, draw_odds

    odds = draw_odds("Ah Kh Jh 8h 7s", dead="Qh 9h", discards=["7s", [], "Ah Kh"])
    assert odds.unseen == 25 and len(odds.options) == 3
    o = odds.option("7s")
    assert o.combinations == 25 and o.counts == FLUSH_DRAW_DEAD[4]
    assert o.probability(HandCategory.FLUSH) == Fraction(2, 25)
    assert draw_odds("Ah Kh Jh 8h 7s", discards=["7s"]).best.probability(HandCategory.FLUSH) == Fraction(4, 27)


def test_expected_strength_is_the_mean_percentile() -> None:
    from pokerdraw32 import draw_odds
    from pokerdraw32._kernels import draw_outcomes, strength_score

    odds = draw_odds("Ks Kd Jc Jh 9s", discards=["9s", "Jc Jh 9s"], suit_tiebreak=False)
    for o in odds.options:
        total, counts = draw_outcomes(mask("Ks Kd Jc Jh 9s"), sum(1 << c for c in o.discard), 0, False)
        mean = sum(Fraction(n * strength_score(v, False), 2 * NHANDS) for v, n in counts.items()) / total
        assert o.expected_strength == mean and 0 < mean < 1


def test_draw_odds_result_is_immutable_and_json_friendly() -> None:
    import dataclasses
    import json

    from pokerdraw32 import draw_odds

    odds = draw_odds("Ah Ad 7c 8s 9d", dead="Kc", discards=["7c 8s 9d", ""])
    with pytest.raises(dataclasses.FrozenInstanceError):
        odds.options = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        odds.best.score = 0  # type: ignore[misc]
    data = json.loads(json.dumps(odds.to_dict()))
    assert data["hand"] == "Ah Ad 7c 8s 9d" and data["dead"] == "Kc" and data["unseen"] == 26
    first = data["options"][0]
    assert first["discard"] == "7c 8s 9d" and first["combinations"] == comb(26, 3)
    assert Fraction(first["expected_strength_exact"]) == odds.best.expected_strength
    assert sum(Fraction(c["exact"]) for c in first["categories"].values()) == 1
    assert next(iter(first["categories"])) == "STRAIGHT_FLUSH"
    text = str(odds)
    assert "pair of aces" in text and "7c 8s 9d" in text and "(stand pat)" in text and "dead Kc" in text
    assert "three of a kind" in str(odds.best)


@pytest.mark.parametrize(("kwargs", "exc", "message"), [
    ({"hand": "Ah Ad 7c 8s"}, "InvalidCardError", "a hand has exactly 5 cards, got 4"),
    ({"hand": "Ah Ad 7c 8s 6d"}, "InvalidCardError", "'6d'"),
    ({"hand": "Ah Ah 7c 8s 9d"}, "InvalidCardError", "Ah"),
    ({"dead": "Kc Ah"}, "InvalidCardError", "dead card Ah is in the hand Ah Ad 7c 8s 9d [R1.1]"),
    ({"discards": ["Kc"]}, "InvalidCardError", "discard Kc: Kc is not in the hand Ah Ad 7c 8s 9d"),
    ({"discards": ["Ah Ad 7c 8s 9d"]}, "PokerDraw32Error",
     "discard Ah Ad 7c 8s 9d has 5 cards: at most 4 may be discarded [R6.1]"),
    ({"discards": ["7c 8s", "8s 7c"]}, "PokerDraw32Error", "discard 8s 7c is listed twice"),
    ({"discards": ["", ()]}, "PokerDraw32Error", "discard (stand pat) is listed twice"),
    ({"discards": []}, "PokerDraw32Error", "no discards given"),
    ({"discards": "7c 8s"}, "TypeError", "discards must be a list of discards"),
    ({"suit_tiebreak": 1}, "TypeError", "suit_tiebreak must be True or False, got 1"),
    ({"dead": "7s 7d 7h 8c 8d 8h 9s 9c 9h Ts Tc Td Th Js Jc Jd Jh Qs Qc Qd Qh Ks Kc Kd Kh As"}, "PokerDraw32Error",
     "only 1 unseen cards, too few to draw 4"),
])
def test_draw_odds_errors(kwargs: dict[str, Any], exc: str, message: str) -> None:
    import pokerdraw32

    args = {"hand": "Ah Ad 7c 8s 9d", **kwargs}
    with pytest.raises(getattr(pokerdraw32, exc) if exc != "TypeError" else TypeError) as info:
        pokerdraw32.draw_odds(args.pop("hand"), **args)
    assert message in str(info.value)
    if exc != "TypeError":
        assert isinstance(info.value, ValueError)


# ---------------------------------------------------------------------------------------
# the command: pokerdraw32 odds


def run_cli(*argv: str) -> tuple[int, str, str]:
    import io

    from pokerdraw32.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_odds_text() -> None:
    code, out, err = run_cli("odds", "Ah Ad 7c 8s 9d", "--dead", "Kc Kd", "--top", "3")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Ah Ad 7c 8s 9d: pair of aces, nine of diamonds kicker"
    assert "25 unseen cards, dead Kc Kd; 31 discards" in lines[1]
    table = [ln for ln in lines[4:] if ln[:3].strip().isdigit()]
    assert len(table) == 3 and table[0].split()[1:5] == ["7c", "8s", "9d", "3"]
    assert table[0].split()[5] == str(comb(25, 3))
    assert lines[-1] == "  ... 28 more"


def test_cli_odds_json() -> None:
    import json

    code, out, _ = run_cli("odds", "Ah Kh Jh 8h 7s", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["options"]) == 31
    by_discard = {o["discard"]: o for o in data["options"]}
    assert by_discard["7s"]["categories"]["FLUSH"]["exact"] == "4/27"
    assert by_discard[""]["categories"]["HIGH_CARD"]["probability"] == 1.0
    code, out, _ = run_cli("odds", "Ah Kh Jh 8h 7s", "--json", "--top", "2", "--no-suit-tiebreak")
    data = json.loads(out)
    assert len(data["options"]) == 2 and data["suit_tiebreak"] is False


@pytest.mark.parametrize(("argv", "needle"), [
    (["odds", "Ah Ad 7c 8s"], "5 cards"),
    (["odds", "Ah Ad 7c 8s 9d", "--dead", "Ad"], "dead card Ad is in the hand"),
])
def test_cli_odds_errors(argv: list[str], needle: str) -> None:
    code, out, err = run_cli(*argv)
    assert code == 1 and out == "" and needle in err and err.startswith("pokerdraw32 odds: error:")


def test_cli_odds_top_0_is_a_usage_error() -> None:
    code, out, err = run_cli("odds", "Ah Ad 7c 8s 9d", "--top", "0")
    assert code == 2 and out == "" and "argument --top: 0 is out of range" in err
