"""The evaluation façade (R2): HandRank ordering, categories and descriptions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdraw32 import DECK, Card, HandCategory, HandRank, InvalidCardError, evaluate
from pokerdraw32._kernels import evaluate_mask


def test_r2_1_flush_beats_full_house() -> None:
    assert evaluate("7h 8h 9h Jh Kh") > evaluate("As Ad Ac Kh Kd")


def test_r2_2_lowest_straight_and_its_suit() -> None:
    low = evaluate("Ah 7s 8s 9s Tc")
    assert low.category is HandCategory.STRAIGHT
    assert low < evaluate("7c 8c 9c Td Js")          # 7-J beats A-7-8-9-T
    assert low < evaluate("As 7h 8h 9h Td")          # tie-break: the ten's suit (d > c)
    assert evaluate("Ts Jc Qd Kh Ac") > evaluate("Ks Qc Jd Th 9h")
    assert evaluate("Kc Ad 7s 8h 9h").category is HandCategory.HIGH_CARD


def test_r2_two_pair_fifth_card_suit() -> None:
    assert evaluate("Kh Ks Jd Jc 9h") > evaluate("Kd Kc Js Jh 9d")


def test_r2_4_no_suit_tiebreak_ties() -> None:
    a = evaluate("Kh Ks Jd Jc 9h", suit_tiebreak=False)
    b = evaluate("Kd Kc Js Jh 9d", suit_tiebreak=False)
    assert a == b and hash(a) == hash(b) and not a < b


def test_hand_rank_protocol() -> None:
    h = evaluate(["Ah", "Kh", "Qh", "Jh", "Th"])
    assert int(h) == h.value == evaluate_mask(sum(1 << int(c) for c in h.cards))
    assert h.category is HandCategory.STRAIGHT_FLUSH
    assert h.description == "royal flush, hearts"
    with pytest.raises(AttributeError):
        h.value = 3  # type: ignore[misc]
    assert sorted([evaluate("Ah Ad 7c 8s 9d"), h, evaluate("7s 8s 9s Ts Ac")])[-1] is h


@pytest.mark.parametrize(
    "cards, text",
    [
        ("Ah Kh Qh Jh Th", "royal flush, hearts"),
        ("7d 8d 9d Td Ad", "straight flush, ten high (ace low), diamonds"),
        ("9c Tc Jc Qc Kc", "straight flush, king high, clubs"),
        ("Qs Qh Qd Qc 7h", "four of a kind, queens, seven kicker"),
        ("Ah Kh 7h 8h Jh", "flush, ace high, hearts"),
        ("Ks Kd Kc 9s 9h", "full house, kings full of nines"),
        ("8s 9c Td Jh Qh", "straight, queen high, queen of hearts"),
        ("7s 7c 7d Ah Kh", "three of a kind, sevens"),
        ("As Ac 8d 8h Qh", "two pair, aces and eights, queen of hearts kicker"),
        ("Js Jc 8d 9h Qh", "pair of jacks, queen of hearts kicker"),
        ("Ac Kd 9s 8h 7h", "high card, ace of clubs"),
    ],
)
def test_descriptions(cards: str, text: str) -> None:
    assert evaluate(cards).description == text


@pytest.mark.parametrize("bad", ["Ah Kd 7c 8s", "Ah Kd 7c 8s 9h Th", "Ah Kd 7c 8s 8s", "Ah Kd 7c 8s 6h"])
def test_bad_hands(bad: str) -> None:
    with pytest.raises(InvalidCardError):
        evaluate(bad)


def test_category_of_every_hand_matches_kernel() -> None:
    counts = {c: 0 for c in HandCategory}
    for combo in itertools.combinations(range(32), 5):
        m = 0
        for c in combo:
            m |= 1 << c
        counts[HandCategory(evaluate_mask(m) >> 22)] += 1
    assert counts == {
        HandCategory.STRAIGHT_FLUSH: 20, HandCategory.FOUR_OF_A_KIND: 224, HandCategory.FLUSH: 204,
        HandCategory.FULL_HOUSE: 1344, HandCategory.STRAIGHT: 5100, HandCategory.THREE_OF_A_KIND: 10752,
        HandCategory.TWO_PAIR: 24192, HandCategory.ONE_PAIR: 107520, HandCategory.HIGH_CARD: 52020,
    }
    assert len(DECK) == 32


def test_description_names_the_deciding_suit_from_the_cards() -> None:
    """Descriptions take the deciding suit from the cards; with R2.4 off no suit decides and none is named."""
    assert evaluate("Ah Kh 7h 8h Jh").description == "flush, ace high, hearts"
    assert evaluate("Ah Kh 7h 8h Jh", suit_tiebreak=False).description == "flush, ace high"
    assert evaluate("Ah Kd 7c 8s 9h").description != evaluate("Ad Kh 7c 8s 9h").description
    assert evaluate("Ah Kd 7c 8s 9h", suit_tiebreak=False).description == "high card, ace"
    assert evaluate("Kh Ks Jd Jc 9h", suit_tiebreak=False).description == "two pair, kings and jacks, nine kicker"
    assert str(evaluate("Ah Kh 7h 8h Jh").category) == "flush"


@settings(max_examples=300, deadline=None)
@given(st.permutations([str(c) for c in DECK]), st.sampled_from([" ", "  ", "\t", "\n"]), st.booleans())
def test_the_fast_string_path_gives_what_the_general_path_gives(order: list[str], sep: str, tiebreak: bool) -> None:
    """evaluate("Ah Kd ...") takes one kernel call (evaluate_text); the HandRank it returns equals,
    attribute by attribute, the one built from the same cards given as a list (R1.3, R2)."""
    tokens = order[:5]
    fast = evaluate(sep.join(tokens), suit_tiebreak=tiebreak)
    general = evaluate(list(tokens), suit_tiebreak=tiebreak)
    assert type(fast) is HandRank
    assert (fast.cards, fast.value, fast.suit_tiebreak) == (general.cards, general.value, general.suit_tiebreak)
    assert all(type(c) is Card for c in fast.cards)
    assert fast.description == general.description and repr(fast) == repr(general)
    with pytest.raises(AttributeError):
        fast.value = 0  # type: ignore[misc]


@pytest.mark.parametrize("protocol", range(6))
def test_hand_rank_pickles(protocol: int) -> None:
    """A HandRank survives pickling with every protocol, equal in every attribute (it could not be
    pickled before: __slots__ and an immutable __setattr__)."""
    import pickle

    for rank in (evaluate("Ah Kh Qh Jh Th"), evaluate("Kh Ks Jd Jc 9h", suit_tiebreak=False)):
        back = pickle.loads(pickle.dumps(rank, protocol))
        assert type(back) is HandRank and back == rank
        assert (back.cards, back.value, back.suit_tiebreak, back.description) == (
            rank.cards, rank.value, rank.suit_tiebreak, rank.description)
        assert all(type(c) is Card for c in back.cards)
