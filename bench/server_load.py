"""The game server under load: many WebSocket clients playing at many tables at once.

    python bench/server_load.py                          # 20 tables x 5 clients, 2,000 hands, SQLite
    python bench/server_load.py --tables 40 --hands 4000
    python bench/server_load.py --postgres               # a throwaway PostgreSQL cluster instead
    python bench/server_load.py --hands 400 --profile server.prof   # the server under cProfile

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
``run_load`` in ``tests/server_support.py`` (``tests/test_server_load.py`` runs it too).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

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
    p.add_argument("--keep", type=Path, help="keep the database and the server log in this directory")
    p.add_argument("--profile", type=Path, metavar="FILE",
                   help="run the server under cProfile, its statistics written to FILE as it stops (read them "
                        "with python -m pstats FILE; profiled, the server is slower: its figures are not comparable)")
    args = p.parse_args(argv)
    try:
        import server_support
    except BaseException as exc:   # pytest's skip: the [server] extra is missing
        print(f"server_load: {exc}", file=sys.stderr)
        return 2

    def run(workdir: Path, db: str | None) -> server_support.LoadResult:
        return server_support.run_load(workdir, tables=args.tables, seats=args.seats, hands=args.hands,
                                       timeout=args.timeout, db=db, think=args.think, seed=args.seed,
                                       hand_pause=args.hand_pause, all_in=args.all_in,
                                       extra=tuple(shlex.split(args.server_args)),
                                       profile=None if args.profile is None else args.profile.resolve())

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pd32-load-") as tmp:
        workdir = args.keep or Path(tmp)
        if args.postgres:
            try:
                with server_support.postgres_server() as url:
                    result = run(workdir, url)
            except BaseException as exc:
                if type(exc).__name__ != "Skipped":
                    raise
                print(f"server_load: {exc}", file=sys.stderr)
                return 2
        else:
            result = run(workdir, args.db)
    print(f"$ python {' '.join(shlex.quote(a) for a in sys.argv)}")
    print(f"database: {'PostgreSQL' if args.postgres or (args.db or '').startswith('postgres') else 'SQLite'}")
    print(result.report())
    print(f"total time (server start, play, stop, checks): {time.monotonic() - started:.1f} s")
    bad = result.problems or result.timed_out or any(c not in server_support.RACES for c in result.errors)
    if result.problems:
        print("problems:", *result.problems[:20], sep="\n  ")
    if result.timed_out:
        print(f"timed out after {args.timeout} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
