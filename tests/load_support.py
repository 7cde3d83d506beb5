"""The load driver of the game server's load tests (``tests/test_server_load.py``,
``tests/test_server_cluster.py``) and of ``bench/server_load.py``; no tests here.

:func:`run_load` starts one or more real server processes (:class:`server_support.ServerProcess`;
several share a PostgreSQL database as a cluster), one :class:`server_support.BotClient` per
seat, spread over the processes, plays until enough hands have finished, stops everything and
checks the database (every table's ledger, every finished hand archived and replayed, the log
numbered without a gap).  :func:`engine_cpu_per_decision` measures the engine alone at such a
table, for the ratio the benchmark reports.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server_support import (
    MOVES,
    RACES,
    BotClient,
    ServerProcess,
    check_archive,
    check_log,
    check_table_ledger,
    read_db,
    tables_config,
    write_tables,
)


@dataclass
class LoadResult:
    """What :func:`run_load` measured."""

    tables: int
    clients: int
    hands: int                       # finished hands (archived, counted in the database)
    actions: int                     # acts acknowledged (ok)
    seconds: float                   # from the first join to the last hand counted
    rtts: list[float]
    errors: Counter[str]             # error codes received, races included
    server_cpu: float | None         # seconds of CPU the server processes used in the run
    client_cpu: float                # seconds of CPU this (client) process used in the run
    ledgers: dict[str, tuple[int, int, int]]
    archived: dict[str, int]
    problems: list[str]              # seq gaps, client failures: should be empty
    server_status: int
    timed_out: bool
    ack_times: list[float] = field(default_factory=list)   # perf_counter of each ok, sorted
    cpu_samples: list[tuple[int, float]] = field(default_factory=list)  # (actions acknowledged, server CPU s)
    engine_decision: float | None = None   # the engine's CPU seconds per decision, same tables, same run
    frames: int | None = None              # WebSocket frames the clients received
    servers: int = 1                       # server processes (a cluster on PostgreSQL when > 1)
    moves: int = 0                         # "moved"/"unavailable" errors the clients met

    def cpu_per_action(self, part: int, parts: int = 5) -> float:
        """The server's CPU milliseconds per action acknowledged in the ``part``-th of ``parts``
        slices of the run (by actions; from the samples taken each second)."""
        xs = self.cpu_samples
        if len(xs) < 2 * parts or xs[-1][0] == xs[0][0]:
            return float("nan")
        total = xs[-1][0] - xs[0][0]
        lo_n, hi_n = xs[0][0] + total * part / parts, xs[0][0] + total * (part + 1) / parts
        lo = min(xs, key=lambda x: abs(x[0] - lo_n))
        hi = min(xs, key=lambda x: abs(x[0] - hi_n))
        return (hi[1] - lo[1]) / (hi[0] - lo[0]) * 1000 if hi[0] > lo[0] else float("nan")

    def rate_in(self, part: int, parts: int = 5) -> float:
        """Actions acknowledged a second in the ``part``-th of ``parts`` equal slices of the run."""
        if len(self.ack_times) < 2:
            return float("nan")
        t0, t1 = self.ack_times[0], self.ack_times[-1]
        span = (t1 - t0) / parts
        lo, hi = t0 + part * span, t0 + (part + 1) * span
        return sum(1 for t in self.ack_times if lo <= t < hi or (part == parts - 1 and t == t1)) / span

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def server_cpu_per_action(self) -> float:
        """The server's CPU seconds per acknowledged action over the whole run (nan: not measured)."""
        return self.server_cpu / self.actions if self.server_cpu is not None and self.actions else float("nan")

    @property
    def ratio(self) -> float:
        """:attr:`server_cpu_per_action` over the engine's CPU per decision in the same run
        (issue 27's target: at most 50; nan: either not measured)."""
        return self.server_cpu_per_action / self.engine_decision if self.engine_decision else float("nan")

    def percentile(self, q: float) -> float:
        if not self.rtts:
            return float("nan")
        xs = sorted(self.rtts)                     # the nearest rank
        return xs[min(len(xs) - 1, max(0, math.ceil(q / 100 * len(xs)) - 1))]

    def report(self) -> str:
        p50, p99 = self.percentile(50) * 1000, self.percentile(99) * 1000
        mean = statistics.fmean(self.rtts) * 1000 if self.rtts else float("nan")
        races = sum(n for c, n in self.errors.items() if c in RACES)
        other = sum(n for c, n in self.errors.items() if c not in RACES | MOVES)
        rows = [
            ("server processes", f"{self.servers}" + (" (a cluster on PostgreSQL)" if self.servers > 1 else "")),
            ("tables x clients", f"{self.tables} x {self.clients // max(1, self.tables)} = {self.clients}"),
            ("hands finished", f"{self.hands}"),
            ("actions (acknowledged)", f"{self.actions}"),
            ("wall time", f"{self.seconds:.1f} s"),
            ("actions/s", f"{self.actions_per_s:.0f}"),
            ("actions/s, first / last fifth", f"{self.rate_in(0):.0f} / {self.rate_in(4):.0f}"),
            ("hands/s", f"{self.hands / self.seconds if self.seconds else 0:.1f}"),
            ("act round trip p50", f"{p50:.1f} ms"),
            ("act round trip p99", f"{p99:.1f} ms"),
            ("act round trip mean", f"{mean:.1f} ms"),
            ("errors (stale/not_your_turn)", f"{races}"),
            ("errors (moved/unavailable: failover)", f"{sum(n for c, n in self.errors.items() if c in MOVES)}"),
            ("errors (other)", f"{other}" + (f" {dict(self.errors)}" if other else "")),
            ("server CPU per action, first / last fifth",
             f"{self.cpu_per_action(0):.2f} / {self.cpu_per_action(4):.2f} ms"),
            ("engine CPU per decision (same run)", "n/a" if self.engine_decision is None else
             f"{self.engine_decision * 1e6:.2f} us"),
            ("server CPU per action / engine's per decision", "n/a" if math.isnan(self.ratio) else
             f"{self.ratio:.0f}x"),
            ("frames received per action, all clients", "n/a" if self.frames is None or not self.actions else
             f"{self.frames / self.actions:.1f}"),
            ("server CPU", "n/a" if self.server_cpu is None else
             f"{self.server_cpu:.1f} s ({self.server_cpu / self.seconds * 100 if self.seconds else 0:.0f}% of a core)"),
            ("client CPU", f"{self.client_cpu:.1f} s"),
        ]
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def engine_cpu_per_decision(seats: int = 5, buy_in: int = 2000, seconds: float = 1.0, seed: int = 1) -> float:
    """The engine's CPU seconds per decision at a load-test table: a server ``Table`` (the same
    settings as :func:`run_load`'s, ``seats`` players of ``buy_in`` chips, its clock
    ``time.monotonic`` as the server's) plays hands for about ``seconds`` of CPU time, every
    player checking or calling, or raising the minimum now and then, and discarding 0-3 cards,
    as :meth:`Table.act` takes them (hands started with :meth:`Table.start_hand`; a busted
    player buys in again).  The server's work per action is measured against this."""
    from pokerdraw32 import ActionKind
    from pokerdraw32.actions import Action
    from pokerdraw32.server.config import TableConfig

    config = TableConfig.from_dict(tables_config(1, seats, decision_time=60.0, max_buy_in=buy_in, seed=seed)[0])
    t = config.new_table()
    for s in range(seats):
        t.join(s, f"p{s}", buy_in)
    rng = random.Random(seed)
    decisions = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        for s in range(seats):
            if t.seat(s).stack == 0:
                t.add_chips(s, buy_in)
        h = t.start_hand()
        while h.actor is not None:
            seat = t.hand_seats[h.actor]
            legal = h.legal_actions()
            kinds = legal.kinds
            if ActionKind.DISCARD in kinds:
                action = Action.discard(legal.hole_cards[:min(rng.randrange(4), legal.max_discard)])
            elif legal.min_to is not None and rng.random() < 0.1:
                action = Action.raise_to(legal.min_to) if ActionKind.RAISE in kinds else Action.bet(legal.min_to)
            elif ActionKind.CHECK in kinds:
                action = Action.check()
            elif ActionKind.CALL in kinds:
                action = Action.call()
            else:
                action = Action.fold()
            t.act(seat, action)
            decisions += 1
    return (time.process_time() - c0) / max(1, decisions)


def _fast_loop() -> Any:
    """uvloop's event loop factory when it is installed (the server's too), else None (asyncio's)."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - depends on the install
        return None
    return uvloop.new_event_loop


def _self_cpu() -> float:
    t = os.times()
    return t.user + t.system


async def _drive(servers: list[ServerProcess], tables: list[str], seats: int, hands: int, timeout: float,
                 think: float, seed: int, all_in: float) -> tuple[list[BotClient], float, float | None, float, bool,
                                                                  list[tuple[int, float]]]:
    stop = asyncio.Event()
    urls = [s.ws_url for s in servers]
    clients = []
    for ti, tid in enumerate(tables):
        for s in range(seats):
            k = (ti * seats + s) % len(urls)           # clients spread over the processes
            clients.append(BotClient(urls[k:] + urls[:k], tid, f"c{ti}-{s}", seat=s, seed=seed * 1000 + ti * 10 + s,
                                     think=think, record=False, give_up=30.0, all_in=all_in))
    tasks = [asyncio.create_task(c.run(stop), name=c.name) for c in clients]

    def cpu() -> float | None:
        xs = [s.cpu_seconds() for s in servers]
        return None if any(x is None for x in xs) else sum(x for x in xs if x is not None)

    start = time.monotonic()
    cpu0, me0 = cpu(), _self_cpu()
    timed_out = False
    by_table: dict[str, list[BotClient]] = {}
    for c in clients:
        by_table.setdefault(c.table, []).append(c)
    samples: list[tuple[int, float]] = []       # (actions acknowledged, server CPU seconds), 4 times a second
    next_sample = 0.0
    try:
        while True:
            now = time.monotonic()
            if now >= next_sample:
                x = cpu()
                if x is not None:
                    samples.append((sum(len(c.rtts) for c in clients), x))
                next_sample = now + 0.25
            done = sum(max(c.last_hand_end for c in cs) for cs in by_table.values())
            failed = [c for c in clients if c.failure]
            if done >= hands or failed:
                break
            if time.monotonic() - start > timeout:
                timed_out = True
                break
            await asyncio.sleep(0.1)
        seconds = time.monotonic() - start
        cpu1 = cpu()
        client_cpu = _self_cpu() - me0
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    return clients, seconds, server_cpu, client_cpu, timed_out, samples


def wait_spread(servers: list[ServerProcess], tables: int, timeout: float = 60.0) -> None:
    """Wait until the cluster's tables are spread over the processes (each owns its share,
    ``/api/cluster``), so that a measurement does not include the start's rebalancing.

    :raises RuntimeError: not spread after ``timeout`` seconds."""
    import json

    share = math.ceil(tables / len(servers))
    deadline = time.monotonic() + timeout
    while True:
        mine = [len(json.loads(s.get("/api/cluster"))["mine"]) for s in servers]
        if sum(mine) == tables and all(share - 1 <= m <= share for m in mine):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the tables are not spread over the server processes after {timeout} s: {mine}")
        time.sleep(0.2)


def run_load(workdir: Path, *, tables: int = 20, seats: int = 5, hands: int = 2000, timeout: float = 480.0,
             db: str | None = None, think: float = 0.0, seed: int = 1, hand_pause: float = 0.05,
             buy_in: int = 2000, all_in: float = 0.0, extra: tuple[str, ...] = (), engine: bool = True,
             servers: int = 1, profile: Path | None = None, wrap: tuple[str, ...] = (),
             start_timeout: float = 60.0) -> LoadResult:
    """The load run: ``servers`` server processes (subprocesses; several need a PostgreSQL ``db``
    and form a cluster) with ``tables`` tables of ``seats`` seats and no bots, one
    :class:`BotClient` per seat in this process (client ``i`` connects to process ``i mod
    servers`` first), until ``hands`` hands in total have finished (or ``timeout`` seconds);
    then the clients leave, the servers stop (SIGTERM) and the database is checked: every
    table's ledger, every finished hand archived and replayed, the log numbered without a gap.
    ``db`` defaults to a SQLite file in ``workdir``.  The servers allow 200 messages a second
    per connection (``--rate``; unless ``extra`` sets it): the clients are bots, not people.

    The tables' maximum buy-in is ``buy_in`` (the clients' buy-in: deep stacks, and clients that
    go all in on ``all_in`` of their bets, so that few go broke: a re-buy between hands lands
    in the next hand and makes the acting player's ``seq`` stale, a race the protocol means).
    With ``engine``, the engine's CPU per decision at such a table is measured afterwards, the
    servers stopped (:func:`engine_cpu_per_decision`), for the ratio the report prints.  With
    ``profile`` (one process), the server runs under cProfile and writes its statistics (its
    event loop's thread) to that file as it stops (``python -m pstats FILE``).  With ``wrap``,
    the servers run under that command (``valgrind ...``; ``start_timeout``: seconds each may
    take to start)."""
    workdir.mkdir(parents=True, exist_ok=True)
    db = db or str(workdir / "load.sqlite")
    if servers > 1 and not db.startswith("postgresql://"):
        raise ValueError("several server processes need a PostgreSQL database")
    if servers > 1 and profile is not None:
        raise ValueError("a profile is of one server process")
    tables_file = write_tables(workdir / "tables.json",
                               tables_config(tables, seats, decision_time=60.0, max_buy_in=buy_in))
    # the clients are bots that act the moment it is their turn: at 6 tables a seat may get more
    # than the 20 messages a second a person's connection is allowed (--rate), and be refused
    # rate_limited; the limit is not what a load run measures (tests/test_server_protocol.py tests it)
    if "--rate" not in extra:
        extra = ("--rate", "200", *extra)
    procs = [ServerProcess(db, tables_file, workdir / f"server{k}.log", hand_pause=hand_pause, bot_delay=0.01,
                           grace=600.0, extra=extra, profile=profile, wrap=wrap) for k in range(servers)]
    try:
        for p in procs:
            p.start(timeout=start_timeout)
        if servers > 1:
            wait_spread(procs, tables)
        ids = [f"t{i}" for i in range(tables)]
        with asyncio.Runner(loop_factory=_fast_loop()) as runner:     # the clients' loop: uvloop if installed
            clients, seconds, server_cpu, client_cpu, timed_out, samples = runner.run(
                _drive(procs, ids, seats, hands, timeout, think, seed, all_in))
        statuses = [p.terminate(timeout=max(30.0, start_timeout)) for p in procs]
    finally:
        for p in procs:
            p.kill()
    dump = read_db(db)
    problems = [f"{c.name}: {p}" for c in clients for p in c.seq_problems[:5]]
    problems += [f"{c.name}: {c.failure}" for c in clients if c.failure]
    for p in procs:
        log = p.log_text()
        if "Traceback" in log:
            problems.append(f"a server logged an exception:\n{log[log.index('Traceback') - 300:][:3000]}")
    ledgers = {tid: check_table_ledger(dump.tables[tid][1]) for tid in ids}
    archived = {}
    for tid in ids:
        check_log(dump, tid)
        archived[tid] = check_archive(dump, tid)
    errors: Counter[str] = Counter(e.get("code") for c in clients for e in c.errors)
    rtts = [x for c in clients for x in c.rtts]
    actions = sum(1 for c in clients for a in c.acts if a.reply is not None and a.reply.get("type") == "ok")
    acks = sorted(a.done_at for c in clients for a in c.acts if a.done_at is not None)
    return LoadResult(tables, len(clients), sum(archived.values()), actions, seconds, rtts, errors, server_cpu,
                      client_cpu, ledgers, archived, problems, max(statuses, key=abs), timed_out, acks, samples,
                      engine_cpu_per_decision(seats, buy_in, seed=seed) if engine else None,
                      sum(c.frames for c in clients), servers, sum(c.moves for c in clients))
