"""Negative-regret pruning (Trainer(prune_after=..., prune_bb=...), issue 26): the compiled walk
equals its pure twin with it, it changes what is learnt only through the pruned actions, a
checkpoint keeps it (resumed == not stopped), and bad options are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import compiled_module

from pokerdraw32.cfr import Abstraction, Trainer
from pokerdraw32.cfr import _mccfr as pure
from pokerdraw32.cfr.abstraction import card_tables
from pokerdraw32.errors import PokerDraw32ValueError

TINY = Abstraction(stack_bb=20, bet_fractions=(1.0,), raise_cap=1, pre_strength=2, pre_potential=2, post_buckets=3)
SMALL = Abstraction(stack_bb=50, bet_fractions=(0.5, 2.0), raise_cap=2, pre_strength=2, pre_potential=3, post_buckets=4)


def _run(module: object, chips: float, iterations: int = 80) -> list[object]:
    a = SMALL
    ct = card_tables(a.pre_strength, a.pre_potential, a.post_buckets)
    s = module.Solver(a.milli, a.raise_cap, a.parole, 1, 2, a.stack, a.stack,  # type: ignore[attr-defined]
                      ct.pre, ct.post, ct.value, ct.ruled, 99)
    s.prune_after = 20
    s.prune_chips = chips
    s.run(iterations)
    return [t.tobytes() for t in s.tables()] + [s.seed, s.count, s.used, s.nodes]


def test_pruning_compiled_equals_pure() -> None:
    compiled = compiled_module("pokerdraw32.cfr._mccfr_c")
    assert _run(compiled, 0.5) == _run(pure, 0.5)


def test_pruning_walks_fewer_states() -> None:
    """The same coins with a threshold no regret reaches walk more states."""
    assert _run(pure, 0.5)[-1] < _run(pure, 1e30)[-1]


def test_pruning_resumes_exactly(tmp_path: Path) -> None:
    whole = Trainer(TINY, seed=7, prune_after=10, prune_bb=0.5)
    whole.train(40)
    half = Trainer(TINY, seed=7, prune_after=10, prune_bb=0.5)
    half.train(20, checkpoint=tmp_path / "ck")
    resumed = Trainer.load(tmp_path / "ck")
    assert (resumed.prune_after, resumed.prune_bb) == (10, 0.5)
    resumed.train(20)
    assert [a.tobytes() for a in resumed.solver.tables()] == [a.tobytes() for a in whole.solver.tables()]
    assert resumed.solver.seed == whole.solver.seed and resumed.solver.nodes == whole.solver.nodes
    strategy = resumed.strategy()
    for key in strategy.keys:
        probs = strategy.get(key)
        assert probs is not None and abs(sum(probs) - 1) < 1e-5


def test_pruning_in_threads_and_outcome_sampling_ignores_it() -> None:
    t = Trainer(TINY, seed=3, prune_after=10, threads=2)
    t.train(60)
    assert t.iterations == 60 and t._helpers[0].prune_after == 10
    one, two = Trainer(TINY, seed=3, sampling="outcome"), Trainer(TINY, seed=3, sampling="outcome", prune_after=5)
    one.train(500)
    two.train(500)
    assert [a.tobytes() for a in one.solver.tables()] == [a.tobytes() for a in two.solver.tables()]


def test_bad_pruning_options() -> None:
    for kwargs, match in [({"prune_after": -1}, "prune_after"), ({"prune_after": 1.5}, "prune_after"),
                          ({"prune_bb": 0}, "prune_bb"), ({"prune_bb": float("nan")}, "prune_bb"),
                          ({"prune_bb": True}, "prune_bb")]:
        with pytest.raises(PokerDraw32ValueError, match=match):
            Trainer(TINY, **kwargs)  # type: ignore[arg-type]
