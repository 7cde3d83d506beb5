"""The game server under load: many WebSocket clients playing at many tables at once.

    python bench/server_load.py                          # 20 tables x 5 clients, 2,000 hands, SQLite
    python bench/server_load.py --tables 40 --hands 4000
    python bench/server_load.py --postgres               # a throwaway PostgreSQL cluster instead
    python bench/server_load.py --servers 3 --postgres   # 1 server process, then a cluster of 3
    python bench/server_load.py --hands 400 --profile server.prof   # the server under cProfile
    python bench/server_load.py --instructions     # instructions per action (valgrind): immune to the load
    python bench/server_load.py --hands 1500 --repeat 5  # 5 runs: each one's ratio, then their median

Starts ``pokerdraw32 serve`` in a subprocess on 127.0.0.1 (a SQLite file in a temporary
directory, or ``--db URL``, or ``--postgres``), with ``--tables`` tables of ``--seats`` seats
and no bots, and plays at every seat with one bot client over its own WebSocket, all clients in
this process (a separate process from the server: on a 2-core machine each gets a core), until
``--hands`` hands in total have finished.  The clients answer their turns at once, from the
``legal`` actions of their ``state`` (check or call mostly, sometimes fold, bet or raise, discard
0-3 cards), each ``act`` carrying the ``seq`` of the state it was decided on.

Then the server stops (SIGTERM) and the database is checked as the load test does: every
table's ledger balances (restored from its stored state), every finished hand is archived and
replays to its ``hand_end`` stacks, each table's log is numbered without a gap.

It prints: hands, actions acknowledged, actions/s (over the whole run, and in its first and last
fifth: the server's work per action must not grow with the hands a table has played), the
round trip of an action (``act`` sent -> its ``ok``) at p50 and p99, errors by code, the
CPU seconds of the server (from ``/proc``) and of the clients, the WebSocket frames the clients
received per action, and the engine's CPU per decision at a table like the load's, measured
after the load in the same run (``engine_cpu_per_decision``), with the server's CPU per
acknowledged action as a multiple of it (issue 27's target: at most 50x).  The shared driver is
``run_load`` in ``tests/load_support.py`` (``tests/test_server_load.py`` runs it too).

With ``--servers N`` (N > 1; needs ``--postgres``) it runs twice, each on a fresh PostgreSQL
cluster: one server process, then N processes sharing the database (``pokerdraw32 serve`` N
times; the run starts once the tables are spread over them), client ``i`` connected to process
``i mod N``, so that most requests are routed to another process (LISTEN/NOTIFY); and it prints
both reports and their ratios.  The server CPU is the sum over the processes.

With ``--repeat N`` (SQLite) it runs the load N times, each on a fresh database and with the
engine measured after it, prints one line per run and the median, lowest and highest ratio, then
the whole report of the median run: on a machine shared with others one run's ratio (and the
engine's CPU per decision alone) moves by 20% or more from one minute to the next.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seats", type=int, default=5)
    p.add_argument("--hands", type=int, default=2000, help="finished hands in total (default 2000)")
    p.add_argument("--timeout", type=float, default=900.0, help="give up after this many seconds (default 900)")
    p.add_argument("--db", help="database URL for the server (default: a SQLite file in a temporary directory)")
    p.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster as the database")
    p.add_argument("--think", type=float, default=0.0, help="clients wait up to this many seconds before acting")
    p.add_argument("--hand-pause", type=float, default=0.05, help="the server's pause between hands (default 0.05)")
    p.add_argument("--all-in", type=float, default=0.0, help="share of the clients' bets that are all in")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--server-args", default="", metavar="ARGS",
                   help="more options for pokerdraw32 serve, e.g. --server-args=--compression")
    p.add_argument("--servers", type=int, default=1, metavar="N",
                   help="with --postgres: also run a cluster of N server processes and compare it with one")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="SQLite: run the load N times and print each run's ratio and their median (default 1)")
    p.add_argument("--keep", type=Path, help="keep the database and the server log in this directory")
    p.add_argument("--instructions", action="store_true",
                   help="count the server's instructions per action with valgrind instead (2 tables, 6 then 40 "
                        "hands: the difference), against the engine's per decision; the machine's load does not "
                        "move them, unlike CPU times")
    p.add_argument("--profile", type=Path, metavar="FILE",
                   help="run the server under cProfile, its statistics written to FILE as it stops (read them "
                        "with python -m pstats FILE; profiled, the server is slower: its figures are not comparable)")
    args = p.parse_args(argv)
    if args.servers < 1 or (args.servers > 1 and not args.postgres):
        p.error("--servers N: N >= 1, and N > 1 needs --postgres")
    if args.repeat < 1 or (args.repeat > 1 and (args.postgres or args.profile or args.instructions)):
        p.error("--repeat N: N >= 1, and N > 1 runs SQLite loads (not with --postgres, --profile, --instructions)")
    try:
        import load_support
        import server_support
    except BaseException as exc:   # pytest's skip: the [server] extra is missing
        print(f"server_load: {exc}", file=sys.stderr)
        return 2

    def run(workdir: Path, db: str | None, servers: int = 1) -> load_support.LoadResult:
        return load_support.run_load(workdir, tables=args.tables, seats=args.seats, hands=args.hands,
                                     timeout=args.timeout, db=db, think=args.think, seed=args.seed,
                                     hand_pause=args.hand_pause, all_in=args.all_in,
                                     extra=tuple(shlex.split(args.server_args)), servers=servers,
                                     profile=None if args.profile is None else args.profile.resolve())

    if args.instructions:
        return _instructions(args.seed, load_support)
    started = time.monotonic()
    results = []
    with tempfile.TemporaryDirectory(prefix="pd32-load-") as tmp:
        workdir = args.keep or Path(tmp)
        if args.postgres:
            try:
                for n in sorted({1, args.servers}):
                    with server_support.postgres_server() as url:
                        results.append(run(workdir / f"servers{n}", url, n))
            except BaseException as exc:
                if type(exc).__name__ != "Skipped":
                    raise
                print(f"server_load: {exc}", file=sys.stderr)
                return 2
        else:
            for k in range(args.repeat):
                results.append(run(workdir / f"run{k}" if args.repeat > 1 else workdir, args.db))
    print(f"$ python {' '.join(shlex.quote(a) for a in sys.argv)}")
    print(f"database: {'PostgreSQL' if args.postgres or (args.db or '').startswith('postgres') else 'SQLite'}")
    bad = any(bool(r.problems) or r.timed_out or any(c not in server_support.RACES | server_support.MOVES
                                                       for c in r.errors) for r in results)
    for result in [_repeats(results)] if args.repeat > 1 else results:
        print()
        print(result.report())
    for k, result in enumerate(results, 1):
        run_name = f" (run {k})" if len(results) > 1 else ""
        if result.problems:
            print(f"problems{run_name}:", *result.problems[:20], sep="\n  ")
        if result.timed_out:
            print(f"timed out{run_name} after {args.timeout} s")
    if len(results) == 2 and args.postgres:
        one, many = results
        cpu = [r.server_cpu_per_action for r in results]
        print()
        print(f"{many.servers} processes / 1 process (same run): "
              f"actions/s x{many.actions_per_s / one.actions_per_s:.2f}, "
              f"p50 x{many.percentile(50) / one.percentile(50):.2f}, "
              f"p99 x{many.percentile(99) / one.percentile(99):.2f}, server CPU per action x{cpu[1] / cpu[0]:.2f}")
    print(f"total time (servers start, play, stop, checks): {time.monotonic() - started:.1f} s")
    return 1 if bad else 0


def _repeats(results: list[Any]) -> Any:
    """Print one line per run of ``--repeat`` and the median, lowest and highest ratio; return the
    median run (its whole report follows)."""
    print()
    for k, r in enumerate(results, 1):
        engine = (r.engine_decision or float("nan")) * 1e6
        print(f"run {k}: {r.actions_per_s:.0f} actions/s, server CPU per action {r.server_cpu_per_action * 1e3:.3f} "
              f"ms, engine CPU per decision {engine:.2f} us, ratio {r.ratio:.0f}x, act round trip p99 "
              f"{r.percentile(99) * 1e3:.1f} ms")
    ratios = [r.ratio for r in results]
    median = statistics.median(ratios)
    print(f"ratio over {len(results)} runs: median {median:.0f}x, lowest {min(ratios):.0f}x, highest "
          f"{max(ratios):.0f}x (the report of the run nearest the median follows)")
    return min(results, key=lambda r: abs(r.ratio - median))


def _instructions(seed: int, load_support: Any) -> int:
    """The whole server's user-space instructions per acknowledged action (valgrind's callgrind
    on the server process; the clients outside it): two load runs at 2 tables, of 6 and of 40
    hands, the difference divided by the difference in actions (start-up cancels out); and the
    engine's per decision, counted the same way (``bench/server_room.py``).  The system calls'
    work is not counted."""
    import shutil

    from server_room import VALGRIND, engine_instructions, report_instructions, valgrind_count

    if shutil.which("valgrind") is None:
        print("server_load: --instructions needs valgrind", file=sys.stderr)
        return 2
    counts = []
    for hands in (6, 40):
        with tempfile.TemporaryDirectory(prefix="pd32-load-") as tmp:
            r = load_support.run_load(Path(tmp), tables=2, hands=hands, seed=seed, timeout=1200.0, engine=False,
                                      wrap=VALGRIND, start_timeout=600.0)
            if r.problems or r.timed_out:
                print("server_load: the run under valgrind failed:", *r.problems[:5], file=sys.stderr)
                return 1
            counts.append((valgrind_count((Path(tmp) / "server0.log").read_text()), r.actions))
    (i0, a0), (i1, a1) = counts
    report_instructions("server", f"40 - 6 hands at 2 tables, {a1 - a0} actions", (i1 - i0) / (a1 - a0),
                        engine_instructions(seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
