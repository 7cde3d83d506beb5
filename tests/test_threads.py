"""Threads (issue 11 item 6): the engine used from several threads at once.

Separate hands, tables and kernel calls in concurrent threads give exactly what the same calls
give one after another, and the tables built on first use (the compiled kernels' lookup tables,
the pure twin's evaluation and score tables) are built safely when threads race to use them
first. Like the rest of the suite, this runs with the compiled kernels and with
POKERDRAW32_NO_EXTENSIONS=1; the first-use test starts a fresh interpreter for each
implementation in use.

The GIL switch interval is made tiny while threads run, so that they interleave at many more
points than usual; on a free-threaded CPython they run in parallel anyway.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import threading
from array import array
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

import pokerdraw32 as pd
from pokerdraw32.bots import RandomBot, RuleBot, SeatView
from pokerdraw32.simulate import simulate

THREADS = 4
T = TypeVar("T")
U32 = "I" if array("I").itemsize == 4 else "L"


@contextmanager
def frequent_switches() -> Iterator[None]:
    """Let the GIL change hands every microsecond (default: 5 ms) meanwhile."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def in_threads(function: Callable[[int], T], args: list[int]) -> list[T]:
    """``[function(a) for a in args]``, computed by THREADS threads that all start at once."""
    barrier = threading.Barrier(THREADS)

    def start(a: int) -> T:
        if a in args[:THREADS]:   # each worker's first task: wait for the others
            barrier.wait(timeout=60)
        return function(a)

    with frequent_switches(), ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(start, args))


# ---------------------------------------------------------------------------------------
# Separate hands and tables, one per thread


def play(seed: int) -> tuple[Any, ...]:
    """One seeded hand of 2 to 5 players with the built-in bots, each deciding from its seat's
    view; returns everything observable: the final stacks, the dealer's log, every view a bot
    decided from (its own cards and the events it saw) and every seat's log at the end."""
    players = 2 + seed % 4
    hand = pd.Hand(pd.Rules(), [40 + 20 * i for i in range(players)], button=seed % players, seed=seed)
    bots = [RuleBot(seed * 8 + i) if (seed + i) % 3 else RandomBot(seed * 8 + i) for i in range(players)]
    seen = []
    while hand.actor is not None:
        view = SeatView.of(hand, hand.actor)
        seen.append((view.seat, view.hole_cards, tuple(map(str, view.events))))
        hand.act(bots[view.seat].decide(view))
    logs = tuple(tuple(map(str, hand.events_for(seat))) for seat in [None, *range(players)])
    assert hand.result is not None
    return hand.result.stacks, tuple(map(str, hand.events)), tuple(seen), logs


def test_separate_hands_in_threads() -> None:
    """Hands played in four threads at once, interleaved, each with its own bots: the same
    stacks, logs and views as the same hands played one after another."""
    seeds = list(range(48))
    alone = [play(seed) for seed in seeds]
    assert in_threads(play, seeds) == alone
    assert len({result[0] for result in alone}) > 10   # the hands differ


def session(seed: int) -> tuple[Any, ...]:
    result = simulate(players=2 + seed % 4, hands=15, seed=seed)
    return result.final_stacks, result.bought_in, result.names


def test_separate_tables_in_threads() -> None:
    """simulate() (a Table, its bots, the ledger) in four threads at once: the same sessions."""
    seeds = list(range(100, 108))
    alone = [session(seed) for seed in seeds]
    assert in_threads(session, seeds) == alone


# ---------------------------------------------------------------------------------------
# evaluate_many from several threads, each with its own batch and output buffer


def test_evaluate_many_in_threads() -> None:
    """Threads evaluating batches at once, one shared read-only input and each its own output:
    the values of the same calls made in turn (exact sums of values, checked against known)."""
    batches = {seed: pd.deal_many(60, seed=seed, hands=5) for seed in range(8)}   # 300 hands each
    shared = pd.deal_many(200, seed=5, hands=5)                                   # 1000 hands

    def work(seed: int) -> tuple[list[int], list[int]]:
        out = pd.evaluate_many(shared)
        mine = array(U32, [0]) * 300
        assert pd.evaluate_many(batches[seed], out=mine, suit_tiebreak=seed % 2 == 0) is mine
        return list(out), list(mine)

    alone = [work(seed) for seed in batches]
    together = in_threads(work, list(batches))
    assert together == alone
    assert all(len(mine) == 300 for _, mine in together)
    for out, _ in together:
        assert (len(out), sum(out), max(out)) == (1000, 5484620211, 34603011)


# ---------------------------------------------------------------------------------------
# First use of the lazily built tables, by several threads at the same moment

# Run in a fresh interpreter, so that the tables are not built yet: THREADS_AT_ONCE threads
# pass a barrier together, each then calls every function below, starting with a different
# one, and the results must be the known values. The evaluation table must have been built
# once: every thread gets the very same int object for a hand's value (from the compiled
# cache of int objects, or from the pure twin's dict). With the argument "warm", the main
# thread evaluates a hand first, and every thread starts with strength_score: then the threads
# race for the score tables, which the pure twin builds from the evaluation table (it used to
# fill them in place, and a thread could find a value missing: "... is not the value of a
# 5-card hand").
FIRST_USE = r"""
import sys, threading
import pokerdraw32 as pd
from pokerdraw32 import _kernels as k

THREADS_AT_ONCE = 8
ROYAL = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15     # Ah Kh Qh Jh Th
DRAW = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 15 | 1 << 0       # Ah Kh Qh Th 7s


def odds():
    option, = pd.draw_odds("Ah Ad 7c 8s 9d", discards=["7c 8s 9d"]).options
    return option.combinations, option.counts, option.score


TASKS = {
    "evaluate_mask": lambda: k.evaluate_mask(ROYAL),
    "evaluate": lambda: (int(pd.evaluate("Kh Ks Jd Jc 9h")), pd.evaluate("Kh Ks Jd Jc 9h").description),
    "strength_score": lambda: (k.strength_score(35389443), k.strength_score(35389443 & ~3, False)),
    "draw_summary": lambda: (k.draw_summary(DRAW, 1, 0), k.draw_summary(DRAW, 1, 0, False)),
    "draw_odds": odds,
    "equity": lambda: pd.equity("Ah Ad 7c 8s 9d", 2, discard="7c 8s 9d", trials=400, seed=7).counts,
    "evaluate_many": lambda: (lambda v: (len(v), sum(v), max(v)))(pd.evaluate_many(pd.deal_many(200, seed=5, hands=5))),
    "rule_discard": lambda: k.rule_discard(DRAW),
}
EXPECTED = {
    "evaluate_mask": 35389443,
    "evaluate": (10029059, "two pair, kings and jacks, nine of hearts kicker"),
    "strength_score": (402751, 402748),
    "draw_summary": ((27, (8, 12, 0, 0, 3, 0, 3, 0, 1), 6829639), (27, (8, 12, 0, 0, 3, 0, 3, 0, 1), 6817756)),
    "draw_odds": (2925, (0, 1579, 702, 534, 0, 85, 0, 25, 0), 989880372),
    "equity": (226, 174, 0, 0, 0, 0),
    "evaluate_many": (1000, 5484620211, 34603011),
    "rule_discard": 1,
}
names = list(TASKS)
warm = sys.argv[1:] == ["warm"]
if warm:
    k.evaluate_codes((0, 1, 2, 3, 4))
barrier = threading.Barrier(THREADS_AT_ONCE)
results = [None] * THREADS_AT_ONCE


def worker(i):
    order = names[i % len(names):] + names[:i % len(names)]
    if warm:
        order.remove("strength_score")
        order.insert(0, "strength_score")
    barrier.wait(timeout=60)
    got = {}
    for name in order:
        try:
            got[name] = TASKS[name]()
        except Exception as exc:
            got[name] = f"{type(exc).__name__}: {exc}"
    results[i] = got


sys.setswitchinterval(1e-6)
threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS_AT_ONCE)]
for t in threads:
    t.start()
for t in threads:
    t.join()
wrong = [(i, name, got[name]) for i, got in enumerate(results) for name in names if got[name] != EXPECTED[name]]
assert not wrong, wrong
same = {id(got["evaluate_mask"]) for got in results}
assert len(same) == 1, f"{len(same)} different int objects for one hand's value: the table was built more than once"
print(pd.IMPLEMENTATION, "ok")
"""


@pytest.mark.parametrize("start", ["cold", "warm"])
@pytest.mark.parametrize("implementation", ["cython", "python"])
def test_first_use_in_threads(request: pytest.FixtureRequest, implementation: str, start: str) -> None:
    if implementation == "cython":
        request.getfixturevalue("core")  # skips when the compiled kernels are not in use
    env = dict(os.environ)
    env.pop("POKERDRAW32_NO_EXTENSIONS", None)
    if implementation == "python":
        env.pop("POKERDRAW32_REQUIRE_EXTENSIONS", None)
        env["POKERDRAW32_NO_EXTENSIONS"] = "1"
    proc = subprocess.run([sys.executable, "-c", FIRST_USE, start], capture_output=True, text=True, timeout=300,
                          env=env)
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-3000:]}"
    assert proc.stdout == f"{implementation} ok\n"


# ---------------------------------------------------------------------------------------
# Free-threaded CPython


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="not a free-threaded CPython")
def test_free_threaded_gil_stays_off() -> None:
    """On a free-threaded CPython, importing the package (compiled kernels included) leaves the
    GIL off: _core.pyx declares freethreading_compatible. Checked in a fresh interpreter, where
    nothing else has switched it on."""
    program = "import sys, pokerdraw32; print(pokerdraw32.IMPLEMENTATION, sys._is_gil_enabled())"
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    proc = subprocess.run([sys.executable, "-W", "error", "-c", program], capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == f"{pd.IMPLEMENTATION} False\n"
