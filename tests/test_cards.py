"""Cards, parsing and formatting (R1)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerdraw32 import DECK, Card, InvalidCardError, Rank, Suit, format_cards, parse_card, parse_cards
from pokerdraw32.cards import cards_to_mask, mask_to_cards


def test_r1_1_deck_has_32_cards_7_to_ace() -> None:
    assert len(DECK) == 32
    assert len(set(DECK)) == 32
    assert {c.rank for c in DECK} == set(Rank)
    assert [r.symbol for r in Rank] == list("789TJQKA")


def test_r1_2_suit_order_hearts_diamonds_clubs_spades() -> None:
    assert Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS > Suit.SPADES
    assert Card("Ah") > Card("Ad") > Card("Ac") > Card("As") > Card("Kh")


def test_card_code_layout() -> None:
    for code, card in enumerate(DECK):
        assert int(card) == code == 4 * card.rank + card.suit
        assert Card(code) is card
        assert card.mask == 1 << code
        assert Card(str(card)) is card
        assert eval(repr(card)) is card
        assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize(
    "token, expected",
    [("Ah", "Ah"), ("ah", "Ah"), ("AH", "Ah"), ("10h", "Th"), ("10♥", "Th"), ("T♦", "Td"), ("7♣", "7c"),
     ("Q♠", "Qs"), (" Kd ", "Kd"), ("j♡", "Jh")],
)
def test_r1_3_text_forms(token: str, expected: str) -> None:
    assert str(parse_card(token)) == expected


@pytest.mark.parametrize("token", ["6h", "2s", "5d", "Xh", "A", "Ahh", "Joker", "", "1h", "A x", "Az", "11h"])
def test_r1_3_bad_tokens_name_the_token(token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)
    assert info.value.token == token


def test_r1_3_duplicate_is_an_error_naming_it() -> None:
    with pytest.raises(InvalidCardError, match="duplicate card 'ah'"):
        parse_cards("Ah Kd ah")
    with pytest.raises(InvalidCardError, match="duplicate"):
        parse_cards([31, "Ah"])


def test_parse_cards_forms() -> None:
    expected = (Card("Ah"), Card("Kd"), Card("7c"))
    assert parse_cards("Ah Kd 7c") == expected
    assert parse_cards("Ah,Kd, 7c") == expected
    assert parse_cards("AhKd7c") == expected
    assert parse_cards("A♥K♦7♣") == expected
    assert parse_cards(["Ah", 26, Card("7c")]) == expected
    assert parse_cards("") == ()
    assert format_cards(expected) == "Ah Kd 7c"


@pytest.mark.parametrize("bad", [32, -1, True, 3.0, None])
def test_bad_codes(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        Card(bad)  # type: ignore[arg-type]


def test_masks_round_trip() -> None:
    cards = parse_cards("7s Ah Td")
    m = cards_to_mask(cards)
    assert m == (1 << 0) | (1 << 31) | (1 << 14)
    assert mask_to_cards(m) == (Card("7s"), Card("Td"), Card("Ah"))


@given(st.lists(st.sampled_from([str(c) for c in DECK]), max_size=8),
       st.sampled_from([" ", "  ", "\t", " \n "]))
def test_the_fast_string_path_agrees_with_the_general_one(tokens: list[str], sep: str) -> None:
    """parse_cards' fast path (canonical tokens split on whitespace) gives what the card-by-card
    path gives, and a repeat raises the same error (R1.3)."""
    text = sep.join(tokens)
    if len(set(tokens)) == len(tokens):
        assert parse_cards(text) == tuple(parse_card(t) for t in tokens)
        assert all(type(c) is Card for c in parse_cards(text))
    else:
        with pytest.raises(InvalidCardError, match=r"duplicate card .* \[R1\.3\]"):
            parse_cards(text)
        assert parse_cards(text, allow_duplicates=True) == tuple(parse_card(t) for t in tokens)
