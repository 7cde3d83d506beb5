"""MCCFR in several threads on one table (pokerdraw32.cfr._shared, issue 26): one thread trains the
very tables it trained before threads existed (digests recorded then); two threads finish, leave a
consistent table (every key once, counts and value blocks matching), valid strategies that a bot
plays, and grow the tables between restarts; the hard limit abandons a walk cleanly."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from pokerdraw32.cfr import Abstraction, CfrBot, Strategy, Trainer, _shared
from pokerdraw32.errors import PokerDraw32ValueError
from pokerdraw32.simulate import simulate

TINY = Abstraction(stack_bb=20, bet_fractions=(1.0,), raise_cap=1, pre_strength=2, pre_potential=2, post_buckets=3)
SMALL = Abstraction(stack_bb=50, bet_fractions=(0.5, 2.0), raise_cap=2, pre_strength=2, pre_potential=3, post_buckets=4)


def _digest(trainer: Trainer) -> str:
    h = hashlib.sha256()
    for a in trainer.solver.tables():
        h.update(a.tobytes())
    s = trainer.solver
    h.update(str((s.seed, s.count, s.used, s.nodes)).encode())
    return h.hexdigest()[:32]


@pytest.mark.parametrize("sampling, n, digest", [("external", 200, "fe74f5d0d2f0a16ba082f0ae94c7ed09"),
                                                 ("outcome", 3000, "6c122716d2a18afcd44d131ac6f61abf")])
def test_one_thread_trains_the_tables_of_before(sampling: str, n: int, digest: str) -> None:
    """The digests of the tables, generator and counts after a seeded run, recorded with the solver
    of commit 419a19d (before threads): ``threads=1`` is that solver, compiled or pure."""
    trainer = Trainer(SMALL, seed=11, sampling=sampling, threads=1)
    trainer.train(n, chunk=n // 2)
    assert _digest(trainer) == digest


def _check_consistent(trainer: Trainer) -> None:
    """Every key once, the count right, value blocks inside ``used`` and not overlapping, as many
    values as legal slots, and every strategy a probability vector."""
    keys, offs, _reg, _strat = trainer.solver.tables()
    found = [h for h in range(len(keys)) if keys[h]]
    assert len(found) == trainer.info_sets == len({keys[h] for h in found}) > 0
    blocks = sorted((offs[h] >> 18, (offs[h] & 0xFFFF).bit_count()) for h in found)
    end = 0
    for off, n in blocks:
        assert off >= end and n >= 1
        end = off + n
    assert end <= trainer.solver.used
    assert trainer.solver.used - sum(n for _off, n in blocks) <= 16 * trainer.solver.lost + 16 * 2
    strategy = trainer.strategy()
    assert len(strategy) == trainer.info_sets
    for key in strategy.keys:
        probs = strategy.get(key)
        assert probs is not None and abs(sum(probs) - 1) < 1e-5 and min(probs) >= 0


@pytest.mark.parametrize("sampling, n", [("external", 300), ("outcome", 6000)])
def test_two_threads_finish_consistent(sampling: str, n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small least sizes, so that the threads stop for the tables to grow several times."""
    monkeypatch.setattr(_shared, "MIN_SLOTS", 1024)
    monkeypatch.setattr(_shared, "MIN_VALUES", 4096)
    trainer = Trainer(SMALL, seed=5, sampling=sampling, threads=2)
    seen: list[dict[str, float]] = []
    report = trainer.train(n, chunk=n // 3, progress=seen.append)
    assert [p["iterations"] for p in seen] == [n // 3, 2 * (n // 3), n] and trainer.iterations == n
    assert report["threads"] == 2 and sum(p["restarts"] for p in seen) >= 2 and report["overflows"] == 0
    assert trainer.solver.nodes > n * 2 and all(h.nodes == 0 for h in trainer._helpers)
    assert not trainer.solver.shared and len(trainer._helpers) == 1
    _check_consistent(trainer)


def test_two_threads_learn_and_the_result_plays(tmp_path: Path) -> None:
    """The strategy folds weak final hands more than strong ones facing a bet (as one thread's does,
    test_cfr_solver.py), a checkpoint of a 2-thread run goes on in 1 thread and in 2, and CfrBot plays
    the result in simulate (chips conserved, R9.5)."""
    trainer = Trainer(TINY, seed=5, threads=2)
    trainer.train(600, checkpoint=tmp_path / "ck")
    _check_consistent(trainer)
    strategy = trainer.strategy()
    fold: dict[int, list[float]] = {0: [], 2: []}
    for key in strategy.keys:
        found = strategy.lookup(key)
        assert found is not None
        phase, slots, probs = found
        if phase == 3 and slots & 1 and key & 127 in fold:      # PH_SECOND, facing a bet
            fold[key & 127].append(probs[0])
    assert sum(fold[0]) / len(fold[0]) > sum(fold[2]) / len(fold[2]) + 0.25     # 0.35-0.43 in 12 runs
    for threads in (1, 2):
        again = Trainer.load(tmp_path / "ck", threads=threads)
        assert again.iterations == 600 and again.threads == threads
        again.train(20)
        assert again.iterations == 620
        _check_consistent(again)
    r = simulate(players=2, hands=100, seed=3, stack=40, bots=[CfrBot(strategy, seed=1), "rule"], duplicate=True,
                 workers=1)
    assert r.hands_played == 100 and sum(b.chips for b in r.per_bot) == 0


def test_the_hard_limit_abandons_a_walk_and_the_table_stays_consistent() -> None:
    """One walk on a wide abstraction meets 7/8 of the first 1,024 slots: status 2, no growth, and
    the keys inserted so far are all there once with their values."""
    a = Abstraction(bet_fractions=(0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0), raise_cap=4)
    trainer = Trainer(a, seed=1)
    s = trainer.solver
    s.shared = True
    counters = s.counters()
    counters[2] = 0
    assert s.run_shared(3) == 2
    assert (s.count, s.mask, counters[2]) == (896, 1023, 1)
    s.shared = False
    s.t = 1
    _check_consistent(trainer)
    counters[3] = 1                     # a stop request: no iteration taken
    s.shared = True
    assert s.run_shared(5) == 3 and counters[2] == 1
    s.shared = False


def test_bad_thread_counts() -> None:
    for bad in (0, -1, 1.5, True, 2000):
        with pytest.raises(PokerDraw32ValueError, match="threads"):
            Trainer(TINY, threads=bad)  # type: ignore[arg-type]


def test_cli_threads(tmp_path: Path) -> None:
    TINY.save(tmp_path / "a.json")
    run = [sys.executable, "-m", "pokerdraw32.cfr", "train", "--iterations", "40", "--seed", "2", "--threads", "2",
           "--abstraction", str(tmp_path / "a.json"), "--out", str(tmp_path / "s"),
           "--checkpoint", str(tmp_path / "ck")]
    done = subprocess.run(run, check=True, capture_output=True, text=True)
    assert "2 threads" in done.stdout and "40 iterations" in done.stdout
    more = subprocess.run([sys.executable, "-m", "pokerdraw32.cfr", "train", "--iterations", "10", "--resume",
                           str(tmp_path / "ck"), "--out", str(tmp_path / "s2")], check=True, capture_output=True,
                          text=True)
    assert "1 thread)" in more.stdout
    assert Strategy.load(tmp_path / "s2").iterations == 50
