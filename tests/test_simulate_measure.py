"""Measuring bots with simulate(): win rates and their intervals, duplicate deals, chunks, workers,
executors, Ctrl-C, CSV and plots (issue 13).

The worker tests compare whole results: ``to_dict()`` without ``"run"`` (how and how fast it ran),
as JSON text, so "the same" means byte-identical output of ``pokerdraw32 simulate --json``."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import pokerdraw32
from pokerdraw32 import Rng, Rules
from pokerdraw32.bots import RandomBot, RuleBot
from pokerdraw32.errors import PokerDraw32TypeError, PokerDraw32ValueError
from pokerdraw32.parallel import chunk_seed, run_chunks
from pokerdraw32.simulate import CSV_FIELDS, Z95, SimulationInterrupted, SimulationResult, simulate, write_csv

COMPILED = pokerdraw32.IMPLEMENTATION == "cython"


def same(r: SimulationResult) -> str:
    """What must not depend on who ran the chunks: the JSON of everything but "run"."""
    d = r.to_dict()
    del d["run"]
    return json.dumps(d, sort_keys=True)


# -- the numbers ---------------------------------------------------------------------------------

def test_win_rate_and_interval_follow_from_the_per_hand_results() -> None:
    """bb/100 and the 95% interval, recomputed from each hand's result (the session's buffer)."""
    r = simulate(players=3, hands=900, seed=4, bots=["rule", "random", "random"], chunk=250)
    hands = [h for c in r.chunks for h in range(c.hands)]
    assert len(hands) == r.hands_played == 900 and [c.hands for c in r.chunks] == [252, 252, 252, 144]  # 3 seats
    bb = Rules().big_blind
    for b in r.per_bot:
        assert b.hands == 900 and b.samples == 900
        assert b.chips == sum(c.chips[b.bot] for c in r.chunks)
        assert b.bb_per_100 == 100 * b.chips / 900 / bb
        squares = sum(c.squares[b.bot] for c in r.chunks)
        variance = (900 * squares - b.chips ** 2) / (900 * 899)
        assert b.ci95 == pytest.approx(Z95 * math.sqrt(900 * variance) / 900 * 100 / bb, rel=1e-12)
        assert b.low < b.bb_per_100 < b.high
        assert 0 <= b.showdowns_won <= b.showdowns <= 900 and 0 <= b.hands_won <= 900
    assert sum(b.chips for b in r.per_bot) == 0                          # R9.5
    assert r.per_bot[0].bb_per_100 > 0 > r.per_bot[1].bb_per_100         # the rule bot beats random play


def test_squares_are_the_samples_squares() -> None:
    """A chunk's ``squares`` is the sum of its samples squared: hands, or deals with duplicate."""
    from array import array

    from pokerdraw32._kernels import play
    from pokerdraw32.hand import Hand

    for duplicate in (False, True):
        r = simulate(players=3, hands=60, seed=9, bots="mixed", duplicate=duplicate, chunk=60)
        c = r.chunks[0]
        rng = Rng(c.seed)
        seeds = [rng.next_u64() for _ in range(3)]
        session = play.Session(Hand, Rules(), 200, [play.RULE, play.RANDOM, play.RULE],
                               [Rng(s) for s in seeds] + [Rng(rng.next_u64())], reset=True, duplicate=duplicate)
        out = array("q", bytes(8 * 3 * 60))
        session.play(60, out)
        unit = 3 if duplicate else 1
        for b in range(3):
            column = out[b::3]
            samples = [sum(column[i:i + unit]) for i in range(0, 60, unit)]
            assert c.chips[b] == sum(column) and c.squares[b] == sum(x * x for x in samples)


def test_duplicate_deals_rotate_every_bot_through_every_seat() -> None:
    """A duplicate deal is dealt once per rotation from the same deck: the same hole cards at each
    seat, the button kept; each bot holds seat (b + r) % n in rotation r."""
    hands: list[Any] = []
    simulate(players=3, hands=9, seed=2, bots="mixed", duplicate=True, on_hand=hands.append)
    for deal in range(3):
        rotations = hands[3 * deal:3 * deal + 3]
        assert len({h.button for h in rotations}) == 1 and rotations[0].button == deal % 3
        first = [h.events_for(None) for h in rotations]
        dealt = [tuple(e.cards for e in h.events if e.kind.value == "deal_hole") for h in rotations]
        assert dealt[0] == dealt[1] == dealt[2] and len(first) == 3


def test_duplicate_rounds_up_to_whole_deals_and_narrows_the_interval() -> None:
    plain = simulate(players=2, hands=4000, seed=3, bots="rule")
    dup = simulate(players=2, hands=3999, seed=3, bots="rule", duplicate=True)
    assert dup.hands_played == dup.hands_requested == 4000 and dup.per_bot[0].samples == 2000
    assert plain.per_bot[0].ci95 is not None and dup.per_bot[0].ci95 is not None
    assert plain.per_bot[0].ci95 > 5 * dup.per_bot[0].ci95                # the luck of the cards cancels


def test_session_mode_keeps_the_tables_and_the_ledger() -> None:
    r = simulate(players=4, hands=700, seed=5, bots="mixed", mode="session", chunk=300)
    assert r.final_stacks is not None and r.bought_in is not None and r.rebuys is not None
    assert sum(r.final_stacks) == sum(r.bought_in)                        # R9.5 over the 3 tables
    assert r.net == [f - b for f, b in zip(r.final_stacks, r.bought_in, strict=True)]
    assert sum(r.bought_in) == 3 * 4 * 200 + 200 * sum(r.rebuys)         # a buy-in per seat per table
    d = r.to_dict()
    assert d["session"]["ledger"]["balanced"] and d["session"]["net"] == r.net
    reset = simulate(players=4, hands=700, seed=5, bots="mixed")
    assert reset.final_stacks is None and "session" not in reset.to_dict()


# -- chunks, workers, executors --------------------------------------------------------------------

def test_chunk_seeds_are_splitmix64_and_each_chunk_replays_alone() -> None:
    assert [chunk_seed(7, i) for i in range(4)] == list(Rng(7).getstate())   # the words Rng(7) starts from
    from pokerdraw32.simulate._chunk import Plan, play_chunk

    r = simulate(players=3, hands=1000, seed=7, bots="mixed", chunk=400)
    plan = Plan(3, Rules(), 200, ("rule", "random", "rule"), "reset", False, 0.0, False)
    assert [(c.index, c.seed, c.first_hand, c.hands) for c in r.chunks] == [
        (i, chunk_seed(7, i), 402 * i, min(402, 1000 - 402 * i)) for i in range(3)]
    for c in r.chunks:
        alone = play_chunk((plan, c.index, c.seed, c.first_hand, c.hands))
        assert (alone.chips, alone.squares, alone.categories, alone.trace) == (c.chips, c.squares, c.categories,
                                                                                c.trace)
    with pytest.raises(PokerDraw32ValueError, match="index"):
        chunk_seed(7, -1)


@pytest.mark.parametrize("kwargs", [dict(), dict(duplicate=True), dict(mode="session")],
                         ids=["reset", "duplicate", "session"])
def test_any_number_of_workers_gives_the_same_result(kwargs: dict[str, Any]) -> None:
    runs = [simulate(players=3, hands=2000, seed=13, bots="mixed", chunk=300, workers=w, **kwargs) for w in (1, 2, 3)]
    assert same(runs[0]) == same(runs[1]) == same(runs[2])
    assert [r.executor for r in runs] == ["this thread"] + ["threads" if COMPILED else "processes"] * 2
    assert runs[2].workers == 3 and runs[0].complete


def test_any_executor_gives_the_same_result() -> None:
    base = simulate(players=4, hands=1200, seed=21, bots=["rule", RandomBot, "random", RuleBot], chunk=250)
    with ThreadPoolExecutor(2) as pool:
        threads = simulate(players=4, hands=1200, seed=21, bots=["rule", RandomBot, "random", RuleBot], chunk=250,
                           executor=pool)
    with ProcessPoolExecutor(2) as pool:
        procs = simulate(players=4, hands=1200, seed=21, bots=["rule", RandomBot, "random", RuleBot], chunk=250,
                         executor=pool)
    assert same(base) == same(threads) == same(procs)
    assert (threads.executor, procs.executor, procs.workers) == ("ThreadPoolExecutor", "ProcessPoolExecutor", 2)


class Counting:
    """A user bot with state: each chunk plays with its own copy."""

    def __init__(self) -> None:
        self.calls = 0

    def decide(self, view: Any) -> str:
        self.calls += 1
        if view.phase is pokerdraw32.Phase.DRAW:
            return "pat"
        if "decline" in view.legal:
            return "decline"
        return "check" if "check" in view.legal else ("call" if self.calls % 3 else "fold")


def test_user_bots_are_copied_for_each_chunk_so_workers_do_not_matter() -> None:
    bot = Counting()
    one = simulate(players=2, hands=300, seed=8, bots=[bot, "rule"], chunk=100)
    two = simulate(players=2, hands=300, seed=8, bots=[bot, "rule"], chunk=100, workers=2)
    assert same(one) == same(two) and bot.calls == 0          # the object given is left as it was


def test_history_is_written_in_hand_order_whatever_the_workers() -> None:
    texts = []
    for w in (1, 3):
        buf = io.StringIO()
        simulate(players=3, hands=250, seed=6, bots="mixed", chunk=60, workers=w, history=buf)
        texts.append(buf.getvalue())
    assert texts[0] == texts[1] and texts[0].count("\n[") + texts[0].startswith("[") == 250
    numbers = [int(line.split("=")[1]) for line in texts[0].splitlines() if line.startswith("hand = ")]
    assert numbers == list(range(1, 251))
    hands = list(pokerdraw32.loads_all(texts[0]))                       # one .phhs file, every hand replays
    assert [hh.number for hh in hands] == list(range(1, 251))
    for hh in hands[::50]:
        hh.replay()


def test_progress_is_called_on_this_thread_once_per_chunk() -> None:
    import threading

    seen: list[tuple[int, str]] = []
    simulate(players=3, hands=1000, seed=1, bots="rule", chunk=300, workers=2,
             progress=lambda k: seen.append((k, threading.current_thread().name)))
    assert sorted(k for k, _ in seen) == [k for k, _ in seen] and seen[-1][0] == 1000 and len(seen) == 4
    assert {name for _, name in seen} == {threading.current_thread().name}


# -- Ctrl-C ---------------------------------------------------------------------------------------

def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize(("workers", "threads"), [(1, False), (2, True), (2, False)])
def test_a_ctrl_c_whose_keyboardinterrupt_is_lost_still_stops_the_run(workers: int, threads: bool) -> None:
    """A real SIGINT whose KeyboardInterrupt is swallowed where it lands (as in a ``__del__`` or a
    garbage-collector callback, where Python prints "Exception ignored" and drops it) still stops
    ``run_chunks``: the run keeps its own flag. Before, the run went on to the end."""
    from pokerdraw32.parallel import run_chunks

    def on_done(i: int, result: int) -> None:
        if i == 1:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(1)       # the handler runs here: its KeyboardInterrupt ...
            except KeyboardInterrupt:
                pass                # ... is lost
    outcome = run_chunks(_nap, [0.01] * 400, workers=workers, threads=threads, on_done=on_done)
    assert outcome.interrupted and outcome.results[1] == 0.01 and outcome.results[-1] is None   # [1]: on_done ran
    assert sum(1 for r in outcome.results if r is None) > 300
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # put back


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_returns_the_finished_chunks(workers: int) -> None:
    calls = []

    def progress(k: int) -> None:
        calls.append(k)
        if len(calls) == 2:
            raise KeyboardInterrupt

    buf = io.StringIO()
    with pytest.raises(SimulationInterrupted) as info:
        simulate(players=3, hands=5000, seed=5, bots="mixed", chunk=500, workers=workers, progress=progress,
                 history=buf)
    partial = info.value.result
    numbers = [hh.number for hh in pokerdraw32.loads_all(buf.getvalue())]
    assert numbers == list(range(1, partial.hands_played + 1))           # the history holds the same hands
    assert isinstance(info.value, KeyboardInterrupt) and not partial.complete
    # two chunks finished when Ctrl-C came; the result keeps the finished chunks before the first
    # unfinished one: both of them with one worker, and with two, whichever prefix finished (two
    # workers may finish the second and third chunks before the first on a loaded machine)
    least = 1000 if workers == 1 else 0
    assert least <= partial.hands_played < 5000 and partial.hands_requested == 5000
    assert partial.hands_played == sum(c.hands for c in partial.chunks)
    assert sum(b.chips for b in partial.per_bot) == 0
    assert [c.index for c in partial.chunks] == list(range(len(partial.chunks)))     # a prefix of the chunks
    shorter = simulate(players=3, hands=partial.hands_played, seed=5, bots="mixed", chunk=500)
    expected = json.loads(same(shorter))         # the shorter run's result, but for what was asked
    expected.update(complete=False, hands_requested=5000)
    expected["chunks"]["planned"] = 10
    assert json.dumps(expected, sort_keys=True) == same(partial)


def test_ctrl_c_on_the_command_line_prints_the_partial_result(tmp_path: Path) -> None:
    """A real SIGINT to ``pokerdraw32 simulate --workers 2``: exit status 130, the JSON of the finished
    chunks on stdout, a line on stderr."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pokerdraw32", "simulate", "--players", "3", "--hands", "100000000",
                             "--seed", "3", "--workers", "2", "--json", "--chunk", "2000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert proc.stderr is not None
        seen, deadline = "", time.monotonic() + 120
        # the progress bar counts the finished chunks' hands: wait for three chunks (the first of them,
        # started first, is then finished in practice: a partial result is the chunks before the
        # first unfinished one)
        while not any(int(k) >= 6000 for k in re.findall(r"\b([0-9]+)/100000000\b", seen)):
            chunk = proc.stderr.read(20)
            assert chunk and time.monotonic() < deadline, seen
            seen += chunk
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    d = json.loads(out)
    assert not d["complete"] and 0 < d["hands_played"] < 100_000_000 and sum(b["chips"] for b in d["bots"]) == 0
    assert "interrupted:" in err


# -- refused arguments -----------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "error", "match"), [
    (dict(mode="tournament"), PokerDraw32ValueError, "mode='tournament'"),
    (dict(mode="session", duplicate=True), PokerDraw32ValueError, "duplicate deals need mode='reset'"),
    (dict(duplicate=1), PokerDraw32TypeError, "duplicate must be True or False"),
    (dict(sit_out=0.2), PokerDraw32ValueError, "sit_out needs mode='session'"),
    (dict(workers=0), PokerDraw32ValueError, "workers=0"),
    (dict(workers=True), PokerDraw32ValueError, "workers=True"),
    (dict(executor="threads"), PokerDraw32TypeError, "concurrent.futures.Executor"),
    (dict(chunk=0), PokerDraw32ValueError, "chunk=0"),
    (dict(on_hand=print, workers=2), PokerDraw32ValueError, "on_hand"),
    (dict(history=42), PokerDraw32TypeError, "history must be an open text stream, not int"),
    (dict(history=io.BytesIO()), PokerDraw32TypeError, "history must be an open text stream, not BytesIO"),
    (dict(workers=2**70), PokerDraw32ValueError, "workers=1180591620717411303424"),
    (dict(seed=-1), PokerDraw32ValueError, "seed=-1"),
])
def test_bad_arguments_are_refused_before_any_hand(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        simulate(players=3, hands=10, **kwargs)


def test_runs_too_long_to_keep_are_refused() -> None:
    with pytest.raises(PokerDraw32ValueError, match="hands=1180591620717411303424 must be an integer"):
        simulate(players=3, hands=2**70)
    with pytest.raises(PokerDraw32ValueError, match="at most 200,000"):
        simulate(players=3, hands=10**9, chunk=10)


def test_run_chunks_refuses_bad_workers_and_executors() -> None:
    with pytest.raises(PokerDraw32ValueError, match="workers"):
        run_chunks(abs, [1], workers=-2)
    with pytest.raises(PokerDraw32TypeError, match="Executor"):
        run_chunks(abs, [1], executor=object())  # type: ignore[arg-type]
    assert run_chunks(abs, [-1, -2, 3], workers=None, threads=True).results == [1, 2, 3]


def bad(view: Any) -> str:
    """A user bot that raises to more than anyone has."""
    return "r 100000"


def test_an_error_in_a_chunk_is_raised_and_stops_the_run() -> None:
    for workers in (1, 2):
        with pytest.raises(pokerdraw32.IllegalActionError, match=r"\(bad1\): the bot chose 'r 100000'"):
            simulate(players=2, hands=400, seed=1, bots=["rule", bad], chunk=100, workers=workers)


def test_a_bot_that_cannot_go_to_a_worker_process_is_named() -> None:
    with pytest.raises(PokerDraw32TypeError, match=r"bots\[1\]: .*<lambda> cannot be sent to worker processes"):
        simulate(players=2, hands=400, seed=1, bots=["rule", lambda view: "fold"], chunk=100, workers=2)


# -- output ---------------------------------------------------------------------------------------

def test_csv_rows_add_up_to_the_totals() -> None:
    r = simulate(players=3, hands=1100, seed=12, bots="mixed", chunk=500)
    buf = io.StringIO()
    assert write_csv(r, buf) == 3 * 3 + 3
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert tuple(rows[0]) == CSV_FIELDS
    chunk_rows = [row for row in rows if row["scope"] == "chunk"]
    totals = {int(row["bot"]): row for row in rows if row["scope"] == "total"}
    for b in range(3):
        mine = [row for row in chunk_rows if int(row["bot"]) == b]
        assert sum(int(row["chips"]) for row in mine) == int(totals[b]["chips"]) == r.per_bot[b].chips
        assert sum(int(row["squares"]) for row in mine) == int(totals[b]["squares"])
        assert float(totals[b]["bb_per_100"]) == r.per_bot[b].bb_per_100
        assert float(totals[b]["ci95"]) == r.per_bot[b].ci95
    assert [int(row["first_hand"]) for row in chunk_rows[::3]] == [0, 501, 1002]


def test_cli_csv_and_json(tmp_path: Path) -> None:
    from pokerdraw32.cli import main

    out = io.StringIO()
    code = main(["simulate", "--players", "2", "--hands", "500", "--seed", "4", "--duplicate", "--bots", "rule",
                 "--json", "--no-progress", "--csv", str(tmp_path / "r.csv"), "--chunk", "100"], stdout=out)
    assert code == 0
    d = json.loads(out.getvalue())
    assert d["duplicate"] and d["hands_played"] == 500 and d["chunks"]["planned"] == 5
    assert [b["samples"] for b in d["bots"]] == [250, 250]
    assert (tmp_path / "r.csv").read_text().count("\n") == 1 + 5 * 2 + 2


def test_plot_writes_a_png_of_the_cumulative_winnings(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from pokerdraw32 import plot

    r = simulate(players=3, hands=1000, seed=2, bots="mixed", chunk=300)
    hands, per_bot = plot.series(r)
    assert hands[0] == 0 and hands[-1] == 1000 and hands == sorted(hands)
    bb = Rules().big_blind
    assert [series[-1] for series in per_bot] == [b.chips / bb for b in r.per_bot]
    plot.winnings(r, str(tmp_path / "w.png"))
    assert (tmp_path / "w.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_each_chunk_starts_with_the_button_an_uncut_run_would_have() -> None:
    buttons: list[int] = []
    simulate(players=3, hands=6, seed=5, bots="rule", chunk=1, on_hand=lambda h: buttons.append(h.button))
    assert buttons == [0, 1, 2, 0, 1, 2]                     # chunk=1 is rounded up to the 3 seats
    buttons.clear()
    simulate(players=3, hands=18, seed=5, bots="rule", chunk=3, duplicate=True,
             on_hand=lambda h: buttons.append(h.button))
    assert buttons == [0] * 3 + [1] * 3 + [2] * 3 + [0] * 3 + [1] * 3 + [2] * 3   # a deal a chunk, one seat on each
    buttons.clear()
    simulate(players=3, hands=9, seed=5, bots=[RuleBot, RuleBot, RuleBot], chunk=3, duplicate=True,
             on_hand=lambda h: buttons.append(h.button))       # the Hand path
    assert buttons == [0] * 3 + [1] * 3 + [2] * 3


class Exploding:
    """A user bot whose decide raises."""

    def decide(self, view: Any) -> str:
        raise RuntimeError("out of ideas")


class Unmakeable:
    def __init__(self) -> None:
        raise ValueError("no")


def test_a_user_bots_exception_names_the_seat_and_the_bot() -> None:
    from pokerdraw32.simulate._chunk import BotError

    for mode in ("reset", "session"):
        with pytest.raises(BotError, match=r"seat \d \(exploding1\): the bot raised RuntimeError: out of ideas"):
            simulate(players=2, hands=5, seed=1, bots=["rule", Exploding()], mode=mode)
    with pytest.raises(PokerDraw32TypeError, match=r"bots\[1\]: cannot make a Unmakeable: ValueError: no"):
        simulate(players=2, hands=5, seed=1, bots=["rule", Unmakeable])


def test_numpy_integers_are_integers() -> None:
    np = pytest.importorskip("numpy")
    a = simulate(players=np.int64(3), hands=np.int64(30), seed=np.uint64(4), stack=np.int32(100), chunk=np.int16(9),
                 workers=np.int8(1))
    assert same(a) == same(simulate(players=3, hands=30, seed=4, stack=100, chunk=9))


def test_take_tally_is_refused_while_playing_and_exact_after_many_large_samples() -> None:
    """Compiled, the session adds squares in C and moves them to Python ints before they overflow."""
    import threading
    from array import array

    from pokerdraw32._kernels import play
    from pokerdraw32.hand import Hand

    session = play.Session(Hand, Rules(), 2**23 - 1, [play.RANDOM, play.RANDOM], [Rng(1), Rng(2), Rng(3)], reset=True)
    hands = 400_000 if COMPILED else 300
    out = array("q", bytes(8 * 2 * hands))
    refused: list[str] = []

    def poll() -> None:
        while worker.is_alive():
            try:
                session.take_tally()
            except PokerDraw32ValueError as e:
                refused.append(str(e))
                return

    worker = threading.Thread(target=session.play, args=(hands, out))
    worker.start()
    poll()
    worker.join()
    chips, squares = session.take_tally()
    assert chips == [sum(out[0::2]), sum(out[1::2])] and chips[0] == -chips[1]
    assert squares == [sum(x * x for x in out[0::2]), sum(x * x for x in out[1::2])]
    assert not COMPILED or squares[0] > 2**62                  # past the point where C sums move to Python ints
    assert not refused or "playing" in refused[0]
    with pytest.raises(PokerDraw32ValueError, match="not set up"):
        play.Session.__new__(play.Session).take_tally()


def test_cli_refuses_clashing_options_and_a_plot_it_cannot_write_before_playing(tmp_path: Path) -> None:
    from pokerdraw32.cli import main

    for argv, match in ((["--duplicate", "--mode", "session"], "--duplicate: duplicate deals need --mode reset"),
                        (["--sit-out", "0.1"], "--sit-out: sitting out is part of a table session"),
                        (["--hands", "0"], "--hands"),
                        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers: not with --scheduler")):
        err = io.StringIO()
        assert main(["simulate", "--no-progress", *argv], stdout=io.StringIO(), stderr=err) == 2, argv
        assert match in err.getvalue() and err.getvalue().startswith("usage: pokerdraw32 simulate")
    pytest.importorskip("matplotlib")
    out, err = io.StringIO(), io.StringIO()
    assert main(["simulate", "--hands", "10", "--plot", str(tmp_path / "w.txt"), "--no-progress"], stdout=out,
                stderr=err) == 1
    assert "name a file ending in one of" in err.getvalue() and out.getvalue() == ""
