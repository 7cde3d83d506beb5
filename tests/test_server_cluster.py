"""The game server as a cluster: several real ``pokerdraw32 serve`` processes on one real
PostgreSQL (a throwaway cluster; skipped, saying why, where it cannot run), real WebSocket
clients spread over the processes (PROTOCOL.md, Cluster).

* :func:`test_failover`: three processes, four tables (two bots and two clients each), each
  client connected to another process than its table's owner most of the time; the owner of
  tables with hands running is killed (SIGKILL) twice, once just after a client sent an
  action; its tables must continue on the other processes within a few seconds, the clients
  resume (through any process), and at the end every chip is accounted for, each table's log has
  no gap and no entry twice, each client's log equals the stored log redacted for its seat (no
  card leaked), and every acknowledged action is in the log, applied once.
* :func:`test_load_across_processes`: the load driver (``load_support.run_load``) with three
  processes, bounded in hands and time, checked as the single-process load test is.
* :func:`test_postgres_restart_under_load`: PostgreSQL itself is stopped (``-m immediate``: every
  connection cut, as in a crash) while two processes serve busy tables, and started again; the
  servers ride it out: requests in the outage get ``storage`` (or wait), nothing is
  half-applied, and play resumes, checked as above.
* :func:`test_routing_and_lobby`: one client per process at one table: joins, sees the others'
  actions, the lobby of every process lists every table, ``/api/cluster`` agrees.

``PD32_CLUSTER_SEED=N`` replays a failed run's choices (its seed is printed).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from pathlib import Path

import pytest
from cluster_support import (
    LEASE,
    FakeConn,
    FakeHost,
    busy_cluster,
    check_run,
    cluster_view,
    hands_played,
    just_after_an_act,
    more_hands,
    play_until,
    playing,
    processes,
    running,
    seeded,
    spread,
    terminate_all,
)
from load_support import run_load
from server_support import RACES, BotClient, Postgres, ServerProcess, postgres_cluster, tables_config

from pokerdraw32.server.store import Commit, StaleTableError, open_store

HANDS = 16
"""Hands each client sees end before a run stops."""
TIMEOUT = 150.0


def _owners(servers: list[ServerProcess]) -> dict[str, str | None]:
    """Each table's owner as the first live process sees it."""
    for s in servers:
        if s.running():
            tables = cluster_view(s)["tables"]
            assert isinstance(tables, dict)
            return tables
    return {}


def test_routing_and_lobby(pg: Postgres, tmp_path: Path) -> None:
    tables = tables_config(2, 4, bots={"0": "rule"})
    ids = [t["id"] for t in tables]
    with running(processes(tmp_path, pg.url, tables, 3)) as servers:
        spread(servers, 2)                                 # one process runs none, each other one
        views = [cluster_view(s) for s in servers]
        assert len({json.dumps(v["tables"], sort_keys=True) for v in views}) == 1     # they agree on the owners
        assert {s for v in views for s in v["servers"]} == {v["server"] for v in views}
        for s in servers:                                  # every process lists every table
            lobby = json.loads(s.get("/api/tables"))
            assert [t["id"] for t in lobby["tables"]] == ids
            assert all(t["players"][0]["name"] == "bot-0" for t in lobby["tables"])
        # one client per process at the first table: most requests are routed to its owner
        clients = [BotClient(s.ws_url, ids[0], f"p{k}", seat=k + 1, seed=k, think=0.01) for k, s in enumerate(servers)]

        async def play() -> None:
            async with playing(clients):
                await hands_played(clients, 5, 60)
        asyncio.run(play())
        terminate_all(servers)
    for c in clients:
        assert c.moves == 0 and c.seq_problems == [], (c.name, c.errors, c.seq_problems)
    check_run(pg.url, ids, clients, [])


def test_failover(pg: Postgres, tmp_path: Path) -> None:
    rng = seeded("failover")
    ids, servers, clients = busy_cluster(tmp_path, pg.url, 3, rng, think=0.02, give_up=30.0)
    kills: list[str] = []
    with running(servers):

        async def play() -> None:
            async with playing(clients):
                await play_until(lambda: all(c.joined.is_set() for c in clients), 30, "every client joined", clients)
                for n in range(2):
                    await hands_played(clients, 3 + 5 * n, 60)
                    if n == 1:           # just after a client sent an action: the kill may land on its commit
                        await just_after_an_act(clients)
                    owners = _owners(servers)
                    busy = Counter(o for t, o in owners.items() if o is not None)
                    victim = max((s for s in servers if s.running()),
                                 key=lambda s: busy[cluster_view(s)["server"]])
                    vid = cluster_view(victim)["server"]
                    theirs = sorted(t for t, o in owners.items() if o == vid)
                    mid_hand = [c.table for c in clients if c.table in theirs and c.state is not None
                               and (c.state["view"].get("hand") or {}).get("phase") not in (None, "complete")]
                    in_flight = sum(c._pending is not None for c in clients if c.table in theirs)
                    victim.kill()
                    killed = time.monotonic()
                    survivors = [s for s in servers if s.running()]
                    await play_until(lambda survivors=survivors, theirs=theirs, vid=vid: all(
                        _owners(survivors).get(t) not in (None, vid) for t in theirs), 15,
                        f"tables {theirs} taken over", clients)
                    took = time.monotonic() - killed
                    kills.append(f"killed {vid} owning {theirs} (hands running at {sorted(set(mid_hand))}, "
                                 f"{in_flight} act(s) in flight): taken over in {took:.1f} s")
                    assert took < 3 * LEASE + 2
                    await more_hands(clients, 2, 60, "two more hands everywhere after the failover")
                    await asyncio.to_thread(victim.start)      # back, as a new process of the cluster
                await hands_played(clients, HANDS, 90)
        asyncio.run(asyncio.wait_for(play(), TIMEOUT))
        print("kills:", *kills, sep="\n  ")
        terminate_all(servers)
    assert len(kills) == 2
    assert sum(c.moves for c in clients) > 0
    check_run(pg.url, ids, clients, servers)


def test_load_across_processes(tmp_path: Path) -> None:
    with postgres_cluster() as pg:
        r = run_load(tmp_path, tables=6, seats=5, hands=300, timeout=240.0, db=pg.url, servers=3, engine=False)
    print()
    print(r.report())
    assert not r.timed_out, r.report()
    assert r.problems == [], r.problems[:20]
    other = {code: n for code, n in r.errors.items() if code not in RACES}
    assert other == {}, f"error replies: {other}"
    assert r.hands >= 300
    for tid, (bought, paid, on_table) in r.ledgers.items():
        assert bought == paid + on_table, tid


def test_postgres_restart_under_load(pg: Postgres, tmp_path: Path) -> None:
    rng = seeded("restart")
    ids, servers, clients = busy_cluster(tmp_path, pg.url, 2, rng, think=0.02, give_up=60.0)
    with running(servers):

        async def play() -> None:
            async with playing(clients):
                await hands_played(clients, 3, 60)
                await asyncio.to_thread(pg.stop, "immediate")
                await asyncio.sleep(rng.uniform(1.0, 3.0))
                await asyncio.to_thread(pg.start)
                await more_hands(clients, 4, 90, "four more hands everywhere after the restart")
        asyncio.run(asyncio.wait_for(play(), TIMEOUT))
        storage = sum(1 for c in clients for e in c.errors if e.get("code") == "storage")
        print(f"storage errors in the outage: {storage}; moved: {sum(c.moves for c in clients)}")
        terminate_all(servers)
    check_run(pg.url, ids, clients, servers, allowed=frozenset({"storage"}))


# ---------------------------------------------------------------------------- the parts, one at a time
def _commit(table: str, last: int, fence: tuple[str, int] | None, *, new: bool = False) -> Commit:
    """Two entries after ``last`` (none for a new table)."""
    events = [] if new else [(last + 1, 1, {"kind": "seated", "seat": 0}),
                             (last + 2, 1, {"kind": "sat_out", "seat": 0})]
    return Commit(table, last + len(events), {"table": {"ledger": []}, "n": last}, events, new=new,
                  config={"id": table} if new else None, fence=fence)


def test_a_write_is_fenced_by_the_lease(pg: Postgres) -> None:
    """A table's write carries its writer's lease (server id, epoch): after a takeover (the epoch
    moved on) the old owner's write is refused as stale, whole, and the new owner's goes in."""
    import psycopg

    store = open_store(pg.url)
    try:
        asyncio.run(store.commit(_commit("a", 0, ("old", 1), new=True)))
        asyncio.run(store.commit(_commit("a", 0, ("old", 1))))              # entries 1, 2
        with psycopg.connect(pg.url, autocommit=True) as conn:             # the takeover
            conn.execute("UPDATE pd32_owners SET owner = 'new', epoch = 2 WHERE table_id = 'a'")
        with pytest.raises(StaleTableError, match="no longer holds its lease"):
            asyncio.run(store.commit(_commit("a", 2, ("old", 1))))
        asyncio.run(store.commit(_commit("a", 2, ("new", 2))))
        with pytest.raises(StaleTableError):                               # the same entries again: refused
            asyncio.run(store.commit(_commit("a", 2, ("new", 2))))
        assert [s for s, _, _ in asyncio.run(store.events("a", 0, 10))] == [1, 2, 3, 4]
        row = asyncio.run(store.load_table("a"))
        assert row is not None and row.seq == 4 and row.state["n"] == 2
        assert asyncio.run(store.load_table("nope")) is None
    finally:
        store.close()


def test_relay_cuts_long_messages_into_pieces_and_puts_them_back() -> None:
    """The relay's notifications stay under PostgreSQL's 8,000 bytes: many messages go in
    several notifications, a long one (non-ASCII too) in pieces, and the receiver gets each
    message whole, in order."""
    from pokerdraw32.server.cluster import PAYLOAD, Cluster
    from pokerdraw32.server.connection import Remote

    async def run() -> None:
        sender = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        receiver = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        conn = FakeConn(Remote("t0", sender.id, 2))     # bound at the sender's table
        receiver.host.conns[7] = conn
        texts = [json.dumps({"type": "event", "n": i, "pad": "é€" * (i * 997 % 5000)}) for i in range(40)]
        for i, t in enumerate(texts):
            sender._post(receiver.id, 7, "r" if i % 3 == 0 else "m", t)
        payloads = sender._payloads()
        assert len(payloads) > 5 and all(len(p.encode()) <= PAYLOAD for _, p, _ in payloads)
        assert {c for c, _, _ in payloads} == {f"pd32_{receiver.id}"}
        for channel, payload, _ in payloads:
            receiver._received(channel, payload)
        assert conn.got == [(t, i % 3 == 0) for i, t in enumerate(texts)]
        # what a process the client is no longer bound to sends is dropped (that process was told when
        # the binding was let go: telling it again could overtake the client's next resume there)
        conn.remote = None
        conn.got.clear()
        sender._post(receiver.id, 7, "m", texts[1])
        for channel, payload, _ in sender._payloads():
            receiver._received(channel, payload)
        assert conn.got == [] and receiver._lines == {}
    asyncio.run(run())
