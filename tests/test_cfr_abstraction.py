"""The solver's card buckets: potential slices over all hands or within each strength slice (issue 26)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pokerdraw32.cfr import Abstraction, Strategy, Trainer
from pokerdraw32.cfr.__main__ import main
from pokerdraw32.cfr.abstraction import HANDS, card_tables, potential_table
from pokerdraw32.cfr.exploitability import bucket_game, exploitability
from pokerdraw32.errors import PokerDraw32TypeError, PokerDraw32ValueError


def test_over_all_hands_leaves_buckets_empty_within_fills_every_one() -> None:
    over_all = Counter(card_tables(3, 4, 12).pre)
    assert sorted(over_all) == [0, 1, 5, 6, 10, 11]          # strength and potential are correlated
    within = card_tables(3, 4, 12, within=True)
    counts = Counter(within.pre)
    assert sorted(counts) == list(range(12)) and sum(counts.values()) == HANDS
    plain = card_tables(3, 4, 12)
    for s in range(3):                                        # the strength slice is the same as before
        slice_hands = [i for i in range(HANDS) if plain.pre[i] // 4 == s]
        assert {within.pre[i] // 4 for i in slice_hands} == {s}
        sizes = [counts[s * 4 + p] for p in range(4)]
        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == len(slice_hands)
        pot = potential_table()                               # higher potential, higher bucket, in a slice
        top = max(pot[i] for i in slice_hands if within.pre[i] == s * 4)
        low = min(pot[i] for i in slice_hands if within.pre[i] == s * 4 + 1)
        assert top <= low
    assert within.post == plain.post and within.value == plain.value and within.ruled == plain.ruled


def test_json_keeps_the_old_form_unless_asked(tmp_path: Path) -> None:
    a = Abstraction()
    assert "potential_within_strength" not in a.to_dict()
    b = Abstraction(potential_within_strength=True)
    assert b.to_dict()["potential_within_strength"] is True
    b.save(tmp_path / "b.json")
    assert Abstraction.load(tmp_path / "b.json") == b and Abstraction.load(tmp_path / "b.json") != a
    with pytest.raises(PokerDraw32TypeError, match="potential_within_strength must be True or False, got 1"):
        Abstraction(potential_within_strength=1)  # type: ignore[arg-type]
    assert main(["abstraction", "--out", str(tmp_path / "c.json"), "--potential-within-strength"]) == 0
    assert json.loads((tmp_path / "c.json").read_text())["potential_within_strength"] is True


def test_training_and_exploitability_use_the_chosen_buckets(tmp_path: Path) -> None:
    a = Abstraction(stack_bb=10, bet_fractions=(1.0,), raise_cap=1, pre_strength=2, pre_potential=2, post_buckets=3,
                    potential_within_strength=True)
    trainer = Trainer(a, seed=3)
    trainer.train(300)
    strategy = trainer.strategy()
    strategy.save(tmp_path / "s.cfr")
    again = Strategy.load(tmp_path / "s.cfr")
    assert again.abstraction == a
    e = exploitability(again)
    assert e.mbb >= 0
    first_round = {k & 127 for k, o in zip(strategy.keys, strategy.offsets, strict=True) if (o >> 16) & 3 == 1}
    assert first_round == {0, 1, 2, 3}             # every pre bucket met
    with pytest.raises(PokerDraw32ValueError, match=r"counted for the card abstraction \(2, 2, 3, False\)"):
        exploitability(again, game=bucket_game(2, 2, 3))
