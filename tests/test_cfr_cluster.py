"""MCCFR on a Dask cluster (pokerdraw32.cfr.cluster, issue 26): rounds of worker tasks whose table
changes are added up.  One worker is one run (its generator reseeded each round), the results are
the same on this thread, a thread pool and a real LocalCluster (the cluster tests are skipped
without ``distributed``), and the CLI's ``--scheduler`` gives the API's strategy."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from pokerdraw32.cfr import Abstraction, CfrBot, Strategy, Trainer
from pokerdraw32.cfr._shared import fork_seed
from pokerdraw32.cfr.cluster import train_rounds
from pokerdraw32.errors import PokerDraw32ValueError
from pokerdraw32.simulate import simulate

TINY = Abstraction(stack_bb=20, bet_fractions=(1.0,), raise_cap=1, pre_strength=2, pre_potential=2, post_buckets=3)


def _by_key(trainer: Trainer) -> dict[int, tuple[list[float], list[float]]]:
    keys, offs, reg, strat = trainer.solver.tables()
    out = {}
    for h in range(len(keys)):
        if keys[h]:
            off, n = offs[h] >> 18, (offs[h] & 0xFFFF).bit_count()
            out[keys[h]] = (list(reg[off:off + n]), list(strat[off:off + n]))
    return out


def _state(trainer: Trainer) -> tuple[Any, ...]:
    s = trainer.solver
    return (*[a.tobytes() for a in s.tables()], s.seed, s.count, s.used, s.nodes, s.t)


def test_one_worker_is_one_run() -> None:
    """workers=1, rounds=1: the run of a trainer seeded as the task (same values by key, exactly);
    rounds=3: the same run with its generator reseeded each round (equal up to the rounding of
    adding and taking away the base)."""
    done = Trainer(TINY, seed=4)
    train_rounds(done, 60, workers=1)
    alone = Trainer(TINY, seed=fork_seed(4, 1))
    alone.train(60)
    assert _by_key(done) == _by_key(alone) and done.iterations == 60 and done.solver.nodes == alone.solver.nodes
    done = Trainer(TINY, seed=4)
    train_rounds(done, 60, workers=1, rounds=3)
    alone = Trainer(TINY, seed=0)
    seed = 4
    for _ in range(3):
        alone.solver.seed = fork_seed(seed, 1)
        alone.train(20)
        seed = fork_seed(seed, 0)
    got, want = _by_key(done), _by_key(alone)
    assert got.keys() == want.keys() and done.solver.seed == seed
    for key, (reg, strat) in want.items():
        assert got[key][0] == pytest.approx(reg, rel=1e-9, abs=1e-9)
        assert got[key][1] == pytest.approx(strat, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("rounds", [1, 3])
def test_rounds_are_reproducible_on_any_executor(rounds: int, tmp_path: Path) -> None:
    """Two workers: this thread and a thread pool give the same tables; the strategy is valid and plays."""
    one = Trainer(TINY, seed=9)
    seen: list[dict[str, float]] = []
    train_rounds(one, 90, workers=2, rounds=rounds, progress=seen.append, checkpoint=tmp_path / "ck")
    assert [p["rounds"] for p in seen] == list(range(1, rounds + 1)) and seen[-1]["iterations"] == 90
    two = Trainer(TINY, seed=9)
    with ThreadPoolExecutor(2) as pool:
        train_rounds(two, 90, workers=2, rounds=rounds, executor=pool)
    assert _state(one) == _state(two)
    assert _state(Trainer.load(tmp_path / "ck")) == _state(one)
    strategy = one.strategy()
    assert len(strategy) == one.info_sets > 100
    for key in strategy.keys:
        probs = strategy.get(key)
        assert probs is not None and abs(sum(probs) - 1) < 1e-5
    r = simulate(players=2, hands=60, seed=2, stack=40, bots=[CfrBot(strategy, seed=1), "rule"], workers=1)
    assert r.hands_played == 60 and sum(b.chips for b in r.per_bot) == 0


def test_bad_counts() -> None:
    t = Trainer(TINY)
    for kwargs, match in [({"workers": 0}, "workers"), ({"workers": 2, "rounds": 0}, "rounds"),
                          ({"workers": 3, "rounds": 2}, "at least 6"), ({"workers": True}, "workers")]:
        with pytest.raises(PokerDraw32ValueError, match=match):
            train_rounds(t, 5, **kwargs)
    assert t.iterations == 0
    bad = subprocess.run([sys.executable, "-m", "pokerdraw32.cfr", "train", "--iterations", "5", "--out", "x",
                          "--rounds", "2"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--scheduler" in bad.stderr


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close(timeout=30)


def test_on_a_dask_cluster_as_on_this_thread(cluster: Any, tmp_path: Path) -> None:
    """A LocalCluster of two worker processes, through the API and ``train --scheduler``."""
    distributed = pytest.importorskip("distributed")
    here = Trainer(TINY, seed=3)
    train_rounds(here, 80, workers=2, rounds=2)
    with distributed.Client(cluster, timeout=30, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        there = Trainer(TINY, seed=3)
        train_rounds(there, 80, workers=2, rounds=2, executor=client.get_executor())
    assert _state(here) == _state(there)
    TINY.save(tmp_path / "a.json")
    done = subprocess.run([sys.executable, "-m", "pokerdraw32.cfr", "train", "--iterations", "80", "--seed", "3",
                           "--abstraction", str(tmp_path / "a.json"), "--out", str(tmp_path / "s"), "--scheduler",
                           cluster.scheduler_address, "--rounds", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "2 Dask workers" in done.stdout
    got, want = Strategy.load(tmp_path / "s"), here.strategy()
    assert list(got.keys) == list(want.keys) and list(got.probs) == list(want.probs)
