"""The immutable rules object: defaults, presets, validation (R3, R4, and every option)."""

from __future__ import annotations

import dataclasses

import pytest

from pokerdraw32 import CLASSIC, TWO_BLIND, Rules, RulesError, SecondRoundFirst, Structure


def test_defaults_are_the_rule_book_defaults() -> None:
    r = Rules()
    assert (r.sb, r.bb, r.ob) == (1, 2, 4)                         # R3.2
    assert r.structure is Structure.NO_LIMIT                      # R3.4
    assert r.cap == 4                                              # R3.4
    assert r.over_blind is True                                    # R4.2 classic
    assert r.heads_up_button_posts_small is False                  # R4.3
    assert r.suit_tiebreak is True                                 # R2.4
    assert r.reshuffle_folded is False                             # R6.2 classic
    assert r.second_round_first is SecondRoundFirst.AFTER_LARGEST_BLIND   # R7.1
    assert r.parole is True                                        # R8.1
    assert r.muck_losers is True                                   # R9.3
    assert r == CLASSIC


def test_two_blind_preset() -> None:
    t = Rules.preset("two-blind")
    assert t == TWO_BLIND
    assert t.over_blind is False and t.reshuffle_folded is True
    assert t.blinds(5) == (1, 2) and t.largest_blind(5) == 2
    assert Rules.preset("two-blind", sb=5).blinds(4) == (5, 10)


def test_blinds_by_players() -> None:
    r = Rules(sb=5, bb=10, ob=25)
    assert r.blinds(2) == (5, 10) and r.blinds(3) == (5, 10)
    assert r.blinds(4) == (5, 10, 25) and r.blinds(5) == (5, 10, 25)
    assert r.largest_blind(3) == 10 and r.largest_blind(4) == 25   # R3.3


def test_immutable_and_replace() -> None:
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.sb = 3  # type: ignore[misc]
    assert r.replace(structure="fixed-limit", cap=None).cap is None
    with pytest.raises(RulesError):
        r.replace(sb=0)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"sb": 0}, "sb=0 must be a positive"),
        ({"sb": -1}, "sb=-1"),
        ({"sb": 1.5}, "not an integer"),
        ({"sb": True}, "not an integer"),
        ({"sb": 5, "bb": 2}, "smaller than the small blind"),
        ({"bb": 4, "ob": 3}, "smaller than the big blind"),
        ({"over_blind": False, "ob": 8}, "over_blind is off"),
        ({"structure": "limit"}, "unknown structure"),
        ({"cap": 0, "structure": "fixed-limit"}, "cap=0"),
        ({"cap": 3}, "only applies to fixed-limit"),
        ({"cap": None}, "only applies to fixed-limit"),
        ({"second_round_first": "dealer"}, "unknown second_round_first"),
        ({"parole": "yes"}, "must be True or False"),
    ],
)
def test_contradictory_or_bad_settings_rejected(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="unknown preset"):
        Rules.preset("triple-draw")


def test_options_are_plain_data() -> None:
    d = Rules.preset("two-blind", structure="pot-limit").options()
    assert d["structure"] == "pot-limit" and d["over_blind"] is False and d["name"] == "two-blind"
