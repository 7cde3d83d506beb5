"""The solver (pokerdraw32.cfr, issue 26): the compiled walk equals its pure twin bit for bit, a
resumed run equals an uninterrupted one, the files round-trip, the abstraction validates and saves,
and the shipped draw potentials are the kernels' exact values."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import compiled_module

from pokerdraw32.cfr import Abstraction, Strategy, Trainer, pseudo_harmonic
from pokerdraw32.cfr import _mccfr as pure
from pokerdraw32.cfr.abstraction import card_tables, potential_table
from pokerdraw32.errors import PokerDraw32TypeError, PokerDraw32ValueError

TINY = Abstraction(stack_bb=20, bet_fractions=(1.0,), raise_cap=1, pre_strength=2, pre_potential=2, post_buckets=3)
SMALL = Abstraction(stack_bb=50, bet_fractions=(0.5, 2.0), raise_cap=2, pre_strength=2, pre_potential=3, post_buckets=4)
FIXED = Abstraction(structure="fixed-limit", stack_bb=30, raise_cap=4, pre_strength=2, pre_potential=3,
                    post_buckets=4)


def _tables(trainer: Trainer) -> tuple[list[int], list[int], list[float], list[float]]:
    keys, offs, reg, strat = trainer.solver.tables()
    return list(keys), list(offs), list(reg), list(strat)


def _solver(module: object, a: Abstraction, seed: int) -> object:
    ct = card_tables(a.pre_strength, a.pre_potential, a.post_buckets)
    return module.Solver(a.milli, a.raise_cap, a.parole, 1, 2, a.stack, a.stack,  # type: ignore[attr-defined]
                         ct.pre, ct.post, ct.value, ct.ruled, seed, a.fixed_limit)


@pytest.mark.parametrize("a, iterations, outcome", [(TINY, 60, False), (SMALL, 12, False), (SMALL, 600, True),
                                                    (FIXED, 40, False), (FIXED, 600, True)])
def test_compiled_walk_equals_pure_twin(a: Abstraction, iterations: int, outcome: bool) -> None:
    """Same seed, same iterations: the same keys, layout, regrets and strategy sums, bit for bit
    (external and outcome sampling)."""
    compiled = compiled_module("pokerdraw32.cfr._mccfr_c")
    out = []
    for module in (pure, compiled):
        s = _solver(module, a, 99)
        s.outcome = outcome  # type: ignore[attr-defined]
        s.run(iterations)  # type: ignore[attr-defined]
        out.append([a.tobytes() for a in s.tables()] + [s.seed, s.count, s.used])  # type: ignore[attr-defined]
    assert out[0] == out[1]
    assert out[0][-2] > 50


def test_compiled_game_functions_equal_pure() -> None:
    """hand_index and draw_discard, every 53rd hand and every count."""
    compiled = compiled_module("pokerdraw32.cfr._mccfr_c")
    from itertools import combinations, islice
    ct = card_tables(4, 6, 16)
    for cards in islice(combinations(range(32), 5), 0, None, 53):
        mask = sum(1 << c for c in cards)
        i = pure.hand_index(mask)
        assert compiled.hand_index(mask) == i
        for k in range(5):
            assert compiled.draw_discard(mask, k, ct.ruled[i]) == pure.draw_discard(mask, k, ct.ruled[i])


def test_hand_index_is_a_bijection() -> None:
    from itertools import combinations
    seen = {pure.hand_index(sum(1 << c for c in cards)) for cards in combinations(range(32), 5)}
    assert seen == set(range(201376))


@pytest.mark.parametrize("sampling, n", [("external", 20), ("outcome", 300)])
def test_resume_equals_uninterrupted(tmp_path: Path, sampling: str, n: int) -> None:
    """Train 2n iterations; or n, checkpoint, load, n more: identical tables and generator."""
    whole = Trainer(TINY, seed=7, sampling=sampling)
    whole.train(2 * n)
    half = Trainer(TINY, seed=7, sampling=sampling)
    half.train(n, chunk=n // 2, checkpoint=tmp_path / "ck")
    resumed = Trainer.load(tmp_path / "ck")
    assert resumed.iterations == n and resumed.abstraction == TINY and resumed.sampling == sampling
    resumed.train(n)
    assert resumed.solver.nodes == whole.solver.nodes
    assert _tables(resumed) == _tables(whole)
    assert resumed.solver.seed == whole.solver.seed and resumed.info_sets == whole.info_sets


def test_training_is_linear_cfr_and_strategy_normalised(tmp_path: Path) -> None:
    trainer = Trainer(TINY, seed=3)
    seen = []
    report = trainer.train(30, chunk=10, progress=seen.append)
    assert [p["iterations"] for p in seen] == [10, 20, 30] and report["info_sets"] == trainer.info_sets > 0
    strategy = trainer.strategy()
    assert len(strategy) == trainer.info_sets and strategy.iterations == 30
    for i in range(len(strategy)):
        probs = strategy.get(strategy.keys[i])
        assert probs is not None and abs(sum(probs) - 1) < 1e-5 and min(probs) >= 0
    strategy.save(tmp_path / "s")
    loaded = Strategy.load(tmp_path / "s")
    assert loaded.abstraction == TINY and list(loaded.keys) == list(strategy.keys)
    assert list(loaded.probs) == list(strategy.probs) and loaded.get(1) is None
    # the regret sums of a linear-weighted run: the first iteration alone adds weight 1
    one = Trainer(TINY, seed=3)
    one.train(1)
    _keys, _offs, reg, strat = one.solver.tables()
    assert any(r != 0 for r in reg) and all(s in (0.0, 0.5, 1.0) or 0 < s <= 1 for s in strat)


def test_files_are_checked(tmp_path: Path) -> None:
    (tmp_path / "x").write_bytes(b"nonsense")
    with pytest.raises(PokerDraw32ValueError, match="cannot read the strategy"):
        Strategy.load(tmp_path / "x")
    Trainer(TINY).save(tmp_path / "ck")
    with pytest.raises(PokerDraw32ValueError, match="a checkpoint, not a strategy"):
        Strategy.load(tmp_path / "ck")
    data = (tmp_path / "ck").read_bytes()
    (tmp_path / "cut").write_bytes(data[:-40])
    with pytest.raises(PokerDraw32ValueError, match=r"the checkpoint .* is truncated or damaged"):
        Trainer.load(tmp_path / "cut")
    n = int.from_bytes(data[8:16], "little")
    header = json.loads(data[16:16 + n])
    del header["lengths"]
    head = json.dumps(header).encode()
    (tmp_path / "nolen").write_bytes(data[:8] + len(head).to_bytes(8, "little") + head + data[16 + n:])
    with pytest.raises(PokerDraw32ValueError, match="damaged: its header's 'lengths' is None"):
        Trainer.load(tmp_path / "nolen")
    with pytest.raises(PokerDraw32ValueError, match="seed"):
        Trainer(TINY, seed=-1)
    with pytest.raises(PokerDraw32ValueError, match="iterations"):
        Trainer(TINY).train(-1)
    with pytest.raises(PokerDraw32ValueError, match="sampling"):
        Trainer(TINY, sampling="full")


def test_abstraction_json_and_checks(tmp_path: Path) -> None:
    a = Abstraction(bet_fractions=(0.333, 1, 2.5), raise_cap=2, parole=False)
    a.save(tmp_path / "a.json")
    assert Abstraction.load(tmp_path / "a.json") == a
    assert json.loads((tmp_path / "a.json").read_text())["bet_fractions"] == [0.333, 1.0, 2.5]
    assert a.milli == (333, 1000, 2500) and a.stack == 200
    for bad, match in [({"raise_cap": 5}, "raise_cap"), ({"bet_fractions": (1.0, 0.5)}, "ascending"),
                       ({"bet_fractions": (0.0001,)}, "0.001"), ({"pre_strength": 16, "pre_potential": 8}, "127"),
                       ({"post_buckets": 0}, "post_buckets"), ({"stack_bb": 0}, "stack_bb")]:
        with pytest.raises(PokerDraw32ValueError, match=match):
            Abstraction(**bad)  # type: ignore[arg-type]
    with pytest.raises(PokerDraw32TypeError, match="parole"):
        Abstraction(parole=1)  # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match="unknown abstraction field"):
        Abstraction.from_dict({**a.to_dict(), "colour": 1})
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(PokerDraw32ValueError, match="cannot read the abstraction"):
        Abstraction.load(tmp_path / "bad.json")


def test_fixed_limit_abstraction_json_and_checks(tmp_path: Path) -> None:
    """structure: saved only when fixed-limit (no-limit files unchanged), bet_fractions refused there (R3.4)."""
    assert "structure" not in Abstraction().to_dict()
    assert Abstraction.from_dict(Abstraction().to_dict()) == Abstraction()
    FIXED.save(tmp_path / "f.json")
    assert json.loads((tmp_path / "f.json").read_text())["structure"] == "fixed-limit"
    assert Abstraction.load(tmp_path / "f.json") == FIXED and FIXED.fixed_limit and FIXED.raise_slots == 1
    from pokerdraw32.rules import Structure
    assert Abstraction(structure=Structure.FIXED_LIMIT) == Abstraction(structure="fixed-limit")   # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match=r"bet_fractions=\(1.0,\): not used in fixed-limit.*R3.4"):
        Abstraction(structure="fixed-limit", bet_fractions=(1.0,))
    with pytest.raises(PokerDraw32ValueError, match=r"structure='pot-limit'.*R3.4"):
        Abstraction(structure="pot-limit")
    with pytest.raises(PokerDraw32TypeError, match="structure"):
        Abstraction(structure=4)  # type: ignore[arg-type]


def test_fixed_limit_training_and_file(tmp_path: Path) -> None:
    """A fixed-limit run: its betting nodes' only raise is slot 3 (deep stacks: no all-in); the strategy file
    round-trips with its abstraction."""
    trainer = Trainer(FIXED, seed=3)
    trainer.train(200)
    st = trainer.strategy()
    st.save(tmp_path / "f.cfr")
    again = Strategy.load(tmp_path / "f.cfr")
    assert again.abstraction == FIXED and list(again.keys) == list(st.keys)
    slots = 0
    for key in st.keys:
        found = st.lookup(key)
        assert found is not None
        if found[0] != 2:
            slots |= found[1]
    assert slots & 8 and not slots >> 4    # the raise; no all-in at 30 bb (at most 8 + 16 chips a player, R3.4)

    """A seeded sample of the shipped potentials, recomputed from the exact draw kernels."""
    from itertools import combinations

    from pokerdraw32._kernels import draw_summary, rule_discard
    table = potential_table()
    rnd = random.Random(26)
    hands = [sum(1 << c for c in cards) for cards in combinations(range(32), 5)]
    sample = [h for h in rnd.sample(hands, 400) if bin(rule_discard(h)).count("1") <= 2][:40]
    sample.append(0b11111 << 27)          # a royal flush: stands pat, potential = its percentile
    for mask in sample:
        total, _cats, score = draw_summary(mask, rule_discard(mask), 0)
        den = total * 402752
        assert table[pure.hand_index(mask)] == (2 * 65535 * score + den) // (2 * den)


def test_buckets_cover_their_ranges() -> None:
    ct = card_tables(TINY.pre_strength, TINY.pre_potential, TINY.post_buckets)
    assert set(ct.pre) == set(range(4)) and set(ct.post) == set(range(3))
    assert ct.post[pure.hand_index(0b11111 << 27)] == 2          # the royal flush: the top bucket


def test_pseudo_harmonic() -> None:
    assert pseudo_harmonic(0.5, 0.5, 1.0) == 1.0 and pseudo_harmonic(1.0, 0.5, 1.0) == 0.0
    assert pseudo_harmonic(0.75, 0.5, 1.0) == pytest.approx(0.25 * 1.5 / (0.5 * 1.75))
    with pytest.raises(PokerDraw32ValueError):
        pseudo_harmonic(2.0, 0.5, 1.0)


def test_cli_train_resume_and_out(tmp_path: Path) -> None:
    """``python -m pokerdraw32.cfr``: abstraction, train with a checkpoint, resume to the same strategy."""
    run = [sys.executable, "-m", "pokerdraw32.cfr"]
    a = tmp_path / "a.json"
    subprocess.run([*run, "abstraction", "--out", str(a), "--stack-bb", "20", "--bet-fractions", "1",
                    "--raise-cap", "1", "--pre-strength", "2", "--pre-potential", "2", "--post-buckets", "3"],
                   check=True, capture_output=True)
    assert Abstraction.load(a) == TINY
    done = subprocess.run([*run, "train", "--iterations", "30", "--seed", "5", "--abstraction", str(a), "--out",
                           str(tmp_path / "s1")], check=True, capture_output=True, text=True)
    assert "30 iterations" in done.stdout and "information sets" in done.stdout
    subprocess.run([*run, "train", "--iterations", "10", "--seed", "5", "--abstraction", str(a), "--out",
                    str(tmp_path / "s2"), "--checkpoint", str(tmp_path / "ck")], check=True, capture_output=True)
    subprocess.run([*run, "train", "--iterations", "20", "--resume", str(tmp_path / "ck"), "--out",
                    str(tmp_path / "s2")], check=True, capture_output=True)
    one, two = Strategy.load(tmp_path / "s1"), Strategy.load(tmp_path / "s2")
    assert two.iterations == 30 and list(one.keys) == list(two.keys) and list(one.probs) == list(two.probs)
    fixed = tmp_path / "f.json"
    subprocess.run([*run, "abstraction", "--out", str(fixed), "--structure", "fixed-limit", "--stack-bb", "30",
                    "--raise-cap", "4", "--pre-strength", "2", "--pre-potential", "3", "--post-buckets", "4"],
                   check=True, capture_output=True)
    assert Abstraction.load(fixed) == FIXED
    done = subprocess.run([*run, "train", "--iterations", "20", "--seed", "5", "--structure", "fixed-limit",
                           "--out", str(tmp_path / "f1")], check=True, capture_output=True, text=True)
    assert "20 iterations" in done.stdout and Strategy.load(tmp_path / "f1").abstraction.fixed_limit
    clash = subprocess.run([*run, "train", "--iterations", "2", "--structure", "no-limit", "--abstraction", str(fixed),
                            "--out", str(tmp_path / "f2")], capture_output=True, text=True)
    assert clash.returncode == 2 and "is fixed-limit" in clash.stderr
    bad = subprocess.run([*run, "train", "--iterations", "x"], capture_output=True, text=True)
    assert bad.returncode == 2 and "iterations" in bad.stderr


def test_training_learns_to_fold_weak_hands_more() -> None:
    """300 seeded iterations on TINY: facing a bet after the draw, the average strategy folds the top
    third of final hands much less often than the bottom third (a mean over those information sets)."""
    trainer = Trainer(TINY, seed=5)
    trainer.train(300)
    strategy = trainer.strategy()
    fold: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for key in strategy.keys:
        found = strategy.lookup(key)
        assert found is not None
        phase, slots, probs = found
        if phase == pure.PH_SECOND and slots & 1:              # fold is legal: facing a bet
            fold[key & 127].append(probs[0])
    mean = {b: sum(v) / len(v) for b, v in fold.items()}
    assert [len(v) for v in fold.values()] == [386, 428, 422]
    assert mean[2] < 0.36 and mean[0] > 0.6 and mean[0] > mean[1] > mean[2]
