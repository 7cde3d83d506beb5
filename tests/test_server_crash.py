"""The crash test of the game server: a real ``pokerdraw32 serve`` subprocess is killed with
SIGKILL in the middle of hands, several times, and started again on the same database, while
real WebSocket clients play; they resume with their token and last ``seq``.

Two tables of four seats: seats 0 and 1 hold the tables' own bots, seats 2 and 3 two
:class:`~server_support.BotClient` each.  :data:`KILLS` kills come at random moments while a
hand runs, every other one just after a client sent an action (so that some land on its
commit); between the second and the third, the client at the first table's seat 3 leaves (paid
out) and a new client takes the seat.  Play goes on until every client has seen :data:`HANDS`
hands end (the newcomer a third of them); then the clients disconnect, the server is stopped
with SIGTERM and the database is read:

* every chip is accounted for: each table restored from its stored state
  (``Table.restore``, the ledger lines from ``pd32_ledger``), its ledger audited
  (``check_ledger``) and counted again: bought in == paid out + on the table;
* each client's log is exactly ``joined + 1 .. last`` without a gap or a duplicate across the
  kills, and equals the stored log redacted for its seat (no other seat's hole cards,
  discards or draws; for the newcomer, nor its seat's earlier player's);
* every ``ok`` a client received names an entry in the database, and every acknowledged
  action is the stored entry right after the state it was decided on (nothing acknowledged is
  lost);
* every finished hand is archived and replays to the stacks of its ``hand_end`` entry, also
  through ``pokerdraw32 replay`` on ``GET /api/tables/<id>/hands.phhs``.

Run once on SQLite and once on PostgreSQL (a throwaway cluster: skipped, saying why, where it
cannot be started).  ``PD32_CRASH_SEED=N`` replays the kill schedule and the clients' choices of
a failed run (its seed is printed).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import (
    BotClient,
    ServerProcess,
    check_archive,
    check_client_against_db,
    check_log,
    check_table_ledger,
    postgres_server,
    read_db,
    tables_config,
    until,
    write_tables,
)

TABLES = 2
SEATS = 4
HANDS = 20
"""Hands each client sees end (after its join) before the run stops."""
KILLS = 4
CASE_TIMEOUT = 100.0
"""Seconds the play of one case may take (kills and restarts included) before it fails."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "crash.sqlite")
    else:
        with postgres_server() as url:
            yield url


def _mid_hand(clients: list[BotClient]) -> list[str]:
    """The tables whose clients see a hand running now (their latest state)."""
    out = set()
    for c in clients:
        st = c.state
        hand = None if st is None else st["view"].get("hand")
        if hand is not None and hand.get("phase") != "complete" and c.live:
            out.add(f"{c.table}:{hand['phase']}")
    return sorted(out)


async def _play(server: ServerProcess, clients: list[BotClient], rng: random.Random,
                kills_seen: Counter[str]) -> list[str]:
    """Play with :data:`KILLS` kills; returns what each kill interrupted.  After the second kill
    the client at the first table's seat 3 leaves (paid out) and a new one takes the seat:
    ``clients`` gets it.  ``kills_seen`` counts the kills each client was seated through."""
    stop = asyncio.Event()
    tasks = [asyncio.create_task(c.run(stop), name=c.name) for c in clients]
    first = list(clients)
    active = list(clients)
    kills: list[str] = []
    try:
        await until(lambda: all(c.joined.is_set() for c in clients), 30, "every client joined", clients)
        thresholds = sorted(rng.sample(range(1, HANDS - 2), KILLS))
        for at in thresholds:
            if len(kills) == 2:
                leaver = next(c for c in active if c.table == clients[0].table and c.seat == 3)
                leaver.leave_wanted = True
                await until(lambda leaver=leaver: leaver.done, 30, f"{leaver.name} left", clients)
                newcomer = BotClient(server.ws_url, leaver.table, f"{leaver.name}-next", seat=3,
                                     seed=rng.randrange(1 << 32), think=0.02)
                clients.append(newcomer)
                active.remove(leaver)
                active.append(newcomer)
                tasks.append(asyncio.create_task(newcomer.run(stop), name=newcomer.name))
                await until(newcomer.joined.is_set, 30, f"{newcomer.name} joined", clients)
            await until(lambda at=at: min(c.hands for c in active if c in first) >= at, 40, f"{at} hands", clients)
            # back at its seat since the last kill: `live` alone may still be the state from before it,
            # when a loaded machine lets the next kill come before the client noticed the last one
            await until(lambda: all(c.live and c.resumes >= kills_seen[c.name] for c in active), 20,
                         "every client back at its seat", clients)
            await asyncio.sleep(rng.uniform(0.0, 0.4))
            if len(kills) % 2:
                # at once after a client sent an action: the kill lands before, during or after
                # its commit (then the ok is lost, never the action)
                for c in clients:
                    c.act_sent.clear()
                waits = [asyncio.create_task(c.act_sent.wait()) for c in clients]
                _, pending = await asyncio.wait(waits, timeout=20, return_when=asyncio.FIRST_COMPLETED)
                for w in pending:
                    w.cancel()
                how = "just after an act was sent"
            else:
                await until(lambda: bool(_mid_hand(clients)), 20, "a hand running", clients)
                how = "at a random moment"
            running = _mid_hand(clients)
            in_flight = sum(c._pending is not None for c in clients)
            server.kill()
            kills_seen.update(c.name for c in active)
            kills.append(f"after {at} hands, {how}: {', '.join(running)}; {in_flight} client act(s) in flight")
            await asyncio.sleep(rng.uniform(0.0, 0.5))
            await asyncio.to_thread(server.start)
        # every client resumed after the last kill too (one that already has its hands would otherwise
        # be stopped before it noticed that kill)
        await until(lambda: all(c.live and c.resumes >= kills_seen[c.name] for c in active), 30,
                     "every client back at its seat after the last kill", clients)
        await until(lambda: min(c.hands for c in active if c in first) >= HANDS
                     and min(c.hands for c in active) >= HANDS // 3, 60, f"{HANDS} hands for every client", clients)
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
    return kills


def test_kill_and_restart(db_url: str, tmp_path: Path) -> None:
    seed = int(os.environ.get("PD32_CRASH_SEED", random.randrange(1 << 32)))
    print(f"PD32_CRASH_SEED={seed}")
    rng = random.Random(seed)
    tables = tables_config(TABLES, SEATS, bots={"0": "rule", "1": "random"})
    tables_file = write_tables(tmp_path / "tables.json", tables)
    ids = [t["id"] for t in tables]
    started = time.monotonic()
    with ServerProcess(db_url, tables_file, tmp_path / "server.log", hand_pause=0.05, bot_delay=0.01,
                       grace=60.0, log_level="info") as server:
        server.start()
        clients = [BotClient(server.ws_url, tid, f"{tid}-p{s}", seat=s, seed=rng.randrange(1 << 32), think=0.02)
                   for tid in ids for s in (2, 3)]
        kills_seen: Counter[str] = Counter()
        kills = asyncio.run(asyncio.wait_for(_play(server, clients, rng, kills_seen), CASE_TIMEOUT))
        print("kills:", *kills, sep="\n  ")
        assert server.running(), f"the server died on its own:\n{server.log_tail()}"
        # the archive as the HTTP API serves it, through the command-line replay
        for tid in ids:
            phhs = tmp_path / f"{tid}.phhs"
            phhs.write_bytes(server.get(f"/api/tables/{tid}/hands.phhs"))
            r = subprocess.run([sys.executable, "-m", "pokerdraw32", "replay", "--json", str(phhs)],
                               capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, f"pokerdraw32 replay {tid}.phhs: {r.stderr}"
            replayed = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
            assert len(replayed) >= HANDS, f"{tid}: {len(replayed)} hands replayed"
        status = server.terminate()
    log = server.log_text()
    assert server.starts == KILLS + 1
    assert "Traceback" not in log, f"the server logged an exception:\n{log[-4000:]}"
    # uvicorn shuts down gracefully on SIGTERM, then raises the signal again (status -15)
    assert status in (0, -signal.SIGTERM), f"the server exited with {status} on SIGTERM:\n{server.log_tail()}"
    assert "Application shutdown complete" in log.rsplit("===== start", 1)[-1], server.log_tail()

    dump = read_db(db_url)
    assert sorted(dump.tables) == ids
    for tid in ids:
        check_log(dump, tid)
        bought, paid, on_table = check_table_ledger(dump.tables[tid][1])
        hands = check_archive(dump, tid)
        assert hands >= HANDS
        # the leaver is paid out (a cash-out entry, 0 chips if they had lost them all): there only
        cash_outs = [e for e in dump.tables[tid][1]["table"]["ledger"] if e["kind"] == "cash_out"]
        assert len(cash_outs) == (1 if tid == ids[0] else 0), f"{tid}: cash-outs {cash_outs}"
        print(f"{tid}: {hands} hands archived, log of {dump.tables[tid][2]} entries; {bought} chips bought in, "
              f"{paid} paid out, {on_table} on the table")
    assert [c.name for c in clients if c.left_seq is not None] == [f"{ids[0]}-p3"]
    for c in clients:
        n = check_client_against_db(c, dump)
        acked = sum(1 for a in c.acts if a.reply is not None and a.reply.get("type") == "ok")
        print(f"{c.name}: {n} entries from {c.joined_seq + 1}, {c.connects} connections, {c.resumes} resumes, "
              f"{acked} actions acknowledged, races {[e['code'] for e in c.race_errors()]}")
        assert c.resumes >= kills_seen[c.name], f"{c.name}: {c.resumes} resumes, {kills_seen[c.name]} kills"
        assert c.other_errors() == [], f"{c.name}: {c.other_errors()}"
        assert acked > 0
    unanswered = [(c, a) for c in clients for a in c.acts if a.reply is None]
    applied = sum(1 for c, a in unanswered if dump.events[c.table].get(a.seq + 1, (0, {}))[1].get("seat") == c.seat
                  and dump.events[c.table][a.seq + 1][1].get("kind") == a.kind)
    print(f"acts cut off by a kill: {len(unanswered)}, of which committed before it: {applied}")
    kinds = Counter(a.kind for c in clients for a in c.acts if a.reply is not None and a.reply.get("type") == "ok")
    print(f"actions acknowledged by kind: {dict(kinds)}")
    print(f"case took {time.monotonic() - started:.1f} s")
