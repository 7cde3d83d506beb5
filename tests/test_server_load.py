"""The game server under load: 100 real WebSocket clients at 20 tables of 5 seats (every seat a
client, no bots of the server's), over 127.0.0.1, until 2,000 hands have finished.

The server runs in a subprocess on a SQLite file; the clients run in this process (see
``run_load`` in ``load_support.py``; ``bench/server_load.py`` runs the same driver and prints
the same figures).  The run is bounded: it fails if the hands have not finished within
:data:`TIMEOUT` seconds.  The figures (actions/s, the p50 and p99 of an action's round trip,
``act`` -> ``ok``) are printed, never asserted.  Asserted:

* no ``error`` reply but the ``stale`` / ``not_your_turn`` races (counted and printed), no gap
  or duplicate in any client's log, no client failed;
* every table's ledger balances (restored from its stored state: bought in == paid out + on the
  table, ``check_ledger``), every finished hand is archived and replays to its ``hand_end``
  stacks, each table's log is numbered without a gap; the server stops cleanly on SIGTERM.
"""

from __future__ import annotations

import importlib.util
import re
import signal
from pathlib import Path

import pytest
from load_support import run_load
from server_support import RACES

TABLES = 20
SEATS = 5
HANDS = 2000
TIMEOUT = 480.0


def test_load(tmp_path: Path) -> None:
    r = run_load(tmp_path, tables=TABLES, seats=SEATS, hands=HANDS, timeout=TIMEOUT)
    print()
    print(r.report())
    assert not r.timed_out, f"{HANDS} hands not finished within {TIMEOUT:.0f} s:\n{r.report()}"
    assert r.clients == TABLES * SEATS
    assert r.problems == [], r.problems[:20]
    other = {code: n for code, n in r.errors.items() if code not in RACES}
    assert other == {}, f"error replies: {other}"
    assert r.hands >= HANDS
    assert sorted(r.archived) == sorted(f"t{i}" for i in range(TABLES)) and all(r.archived.values())
    for tid, (bought, paid, on_table) in r.ledgers.items():
        assert bought == paid + on_table, tid
    assert r.server_status in (0, -signal.SIGTERM), f"the server exited with {r.server_status}"


def test_bench_repeat_prints_each_run_and_the_median(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench/server_load.py --repeat 3`` (tiny: 2 tables, 6 hands): a line per run, the
    median, lowest and highest ratio of those lines, then the report of the run nearest the
    median; exit 0.  Skipped when ``bench/`` is not beside the tests (the sdist ships none)."""
    bench = Path(__file__).resolve().parent.parent / "bench" / "server_load.py"
    if not bench.is_file():
        pytest.skip(f"{bench} is not here")
    spec = importlib.util.spec_from_file_location("bench_server_load", bench)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--tables", "2", "--hands", "6", "--repeat", "3"]) == 0
    out = capsys.readouterr().out
    runs = [float(m) for m in re.findall(r"^run \d: .* ratio (\d+)x", out, re.M)]
    assert len(runs) == 3, out
    summary = re.search(r"ratio over 3 runs: median (\d+)x, lowest (\d+)x, highest (\d+)x", out)
    assert summary is not None, out
    assert [float(x) for x in summary.groups()] == [sorted(runs)[1], min(runs), max(runs)]
    assert out.count("server CPU per action / engine's per decision") == 1
    with pytest.raises(SystemExit):
        module.main(["--repeat", "2", "--postgres"])
