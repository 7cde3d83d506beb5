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
import os
import random
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from load_support import run_load
from server_support import (
    MOVES,
    RACES,
    BotClient,
    Postgres,
    ServerProcess,
    check_archive,
    check_client_against_db,
    check_log,
    check_table_ledger,
    postgres_cluster,
    read_db,
    tables_config,
    until,
    write_tables,
)

from pokerdraw32.server.store import Commit, StaleTableError, open_store

LEASE = 1.5
"""The processes' ``--lease`` (seconds): a dead owner's tables are taken over after at most this."""
HANDS = 16
"""Hands each client sees end before a run stops."""
TIMEOUT = 150.0


def _seed(name: str) -> random.Random:
    seed = int(os.environ.get("PD32_CLUSTER_SEED", random.randrange(1 << 32)))
    print(f"{name}: PD32_CLUSTER_SEED={seed}")
    return random.Random(seed)


def _busy_cluster(tmp_path: Path, pg: Postgres, n: int, rng: random.Random,
                  give_up: float) -> tuple[list[str], list[ServerProcess], list[BotClient]]:
    """``n`` started processes serving four tables of four seats (bots at seats 0 and 1), and a
    client for seats 2 and 3 of each, client ``i`` connected to process ``i mod n`` first (most
    of them to another process than their table's owner)."""
    tables = tables_config(4, 4, bots={"0": "rule", "1": "random"})
    ids = [t["id"] for t in tables]
    servers = _processes(tmp_path, pg.url, write_tables(tmp_path / "tables.json", tables), n)
    try:
        for s in servers:
            s.start()
    except BaseException:
        for s in servers:
            s.kill()
        raise
    urls = [s.ws_url for s in servers]
    clients = []
    for i, (tid, seat) in enumerate((t, s) for t in ids for s in (2, 3)):
        k = i % len(urls)
        clients.append(BotClient(urls[k:] + urls[:k], tid, f"{tid}-p{seat}", seat=seat, seed=rng.randrange(1 << 32),
                                 think=0.02, give_up=give_up))
    return ids, servers, clients


def _cluster(server: ServerProcess) -> dict[str, object]:
    data: dict[str, object] = json.loads(server.get("/api/cluster", timeout=5))
    return data


def _owners(servers: list[ServerProcess]) -> dict[str, str | None]:
    """Each table's owner as the first live process sees it."""
    for s in servers:
        if s.running():
            tables = _cluster(s)["tables"]
            assert isinstance(tables, dict)
            return tables
    return {}


def _processes(tmp_path: Path, url: str, tables_file: Path, n: int, **kw: object) -> list[ServerProcess]:
    return [ServerProcess(url, tables_file, tmp_path / f"server{k}.log", hand_pause=0.05, bot_delay=0.01, grace=60.0,
                          log_level="info", extra=("--lease", str(LEASE)), **kw)  # type: ignore[arg-type]
            for k in range(n)]


def _check_run(url: str, ids: list[str], clients: list[BotClient], servers: list[ServerProcess]) -> None:
    """The database and the clients after a run: chips, logs, archives, no leak, acks."""
    for s in servers:
        log = s.log_text()
        if "Traceback" in log:
            raise AssertionError(f"{s.log_path.name} logged an exception:\n{log[log.index('Traceback') - 500:][:4000]}")
    dump = read_db(url)
    assert sorted(dump.tables) == ids
    for tid in ids:
        check_log(dump, tid)                              # numbered 1..seq: no gap, nothing twice
        bought, paid, on_table = check_table_ledger(dump.tables[tid][1])
        assert bought == paid + on_table
        hands = check_archive(dump, tid)
        print(f"{tid}: {hands} hands archived, {dump.tables[tid][2]} entries; {bought} bought in, {paid} paid out, "
              f"{on_table} on the table")
    for c in clients:
        if c.seq_problems:                                # what it received around the first one
            seq = int(c.seq_problems[0].split("event ")[1].split()[0])
            at = [i for i, m in enumerate(c.messages) if m.get("seq") == seq]
            window = c.messages[max(0, at[0] - 8):at[-1] + 4] if at else []
            print(f"{c.name} around entry {seq}:", *[{k: m.get(k) for k in ("type", "seq", "id", "code", "message")
                                                       if k in m} for m in window], sep="\n  ")
        n = check_client_against_db(c, dump)              # its log == the stored log as its seat may see it
        acked = [a for a in c.acts if a.reply is not None and a.reply.get("type") == "ok"]
        assert acked, c.name
        other = [e for e in c.errors if e.get("code") not in RACES | MOVES]
        assert other == [], f"{c.name}: {other}"
        print(f"{c.name}: {n} entries, {c.connects} connections, {c.resumes} resumes, {c.moves} moved, "
              f"{len(acked)} acknowledged")
    # an act cut off by a failover and sent again (same seq) is applied at most once: the entry after
    # its state is that act, and no other entry of that seat follows it in the same betting turn
    for c in clients:
        seqs = Counter(a.seq for a in c.acts if a.reply is not None and a.reply.get("type") == "ok")
        assert max(seqs.values(), default=1) == 1, f"{c.name}: an act acknowledged twice: {seqs.most_common(3)}"


@pytest.fixture
def pg() -> object:
    with postgres_cluster() as cluster:
        yield cluster


def test_routing_and_lobby(pg: Postgres, tmp_path: Path) -> None:
    tables = tables_config(2, 4, bots={"0": "rule"})
    ids = [t["id"] for t in tables]
    tables_file = write_tables(tmp_path / "tables.json", tables)
    servers = _processes(tmp_path, pg.url, tables_file, 3)
    try:
        for s in servers:
            s.start()
        deadline = time.monotonic() + 20
        while sorted(len(_cluster(s)["mine"]) for s in servers) != [0, 1, 1]:  # type: ignore[arg-type]
            assert time.monotonic() < deadline, [_cluster(s) for s in servers]
            time.sleep(0.1)
        views = [_cluster(s) for s in servers]
        assert len({json.dumps(v["tables"], sort_keys=True) for v in views}) == 1     # they agree on the owners
        assert {s for v in views for s in v["servers"]} == {v["server"] for v in views}  # type: ignore[union-attr]
        for s in servers:                                  # every process lists every table
            lobby = json.loads(s.get("/api/tables"))
            assert [t["id"] for t in lobby["tables"]] == ids
            assert all(t["players"][0]["name"] == "bot-0" for t in lobby["tables"])
        # one client per process at the first table: most requests are routed to its owner
        clients = [BotClient(s.ws_url, ids[0], f"p{k}", seat=k + 1, seed=k, think=0.01) for k, s in enumerate(servers)]

        async def play() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(c.run(stop)) for c in clients]
            try:
                await until(lambda: min(c.hands for c in clients) >= 5, 60, "5 hands", clients)
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
        asyncio.run(play())
        for s in servers:
            assert s.terminate() in (0, -signal.SIGTERM), s.log_tail()
    finally:
        for s in servers:
            s.kill()
    for c in clients:
        assert c.moves == 0 and c.seq_problems == [], (c.name, c.errors, c.seq_problems)
    _check_run(pg.url, ids, clients, [])


def test_failover(pg: Postgres, tmp_path: Path) -> None:
    rng = _seed("failover")
    ids, servers, clients = _busy_cluster(tmp_path, pg, 3, rng, give_up=30.0)
    kills: list[str] = []
    try:

        async def play() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(c.run(stop)) for c in clients]
            try:
                await until(lambda: all(c.joined.is_set() for c in clients), 30, "every client joined", clients)
                for n in range(2):
                    await until(lambda n=n: min(c.hands for c in clients) >= 3 + 5 * n, 60, "hands", clients)
                    if n == 1:           # just after a client sent an action: the kill may land on its commit
                        for c in clients:
                            c.act_sent.clear()
                        waits = [asyncio.create_task(c.act_sent.wait()) for c in clients]
                        await asyncio.wait(waits, timeout=10, return_when=asyncio.FIRST_COMPLETED)
                        for w in waits:
                            w.cancel()
                    owners = _owners(servers)
                    busy = Counter(o for t, o in owners.items() if o is not None)
                    victim = max((s for s in servers if s.running()),
                                 key=lambda s: busy[_cluster(s)["server"]])  # type: ignore[index]
                    vid = _cluster(victim)["server"]
                    theirs = sorted(t for t, o in owners.items() if o == vid)
                    running = [c.table for c in clients if c.table in theirs and c.state is not None
                               and (c.state["view"].get("hand") or {}).get("phase") not in (None, "complete")]
                    in_flight = sum(c._pending is not None for c in clients if c.table in theirs)
                    victim.kill()
                    killed = time.monotonic()
                    survivors = [s for s in servers if s.running()]
                    await until(lambda survivors=survivors, theirs=theirs, vid=vid: all(
                        _owners(survivors).get(t) not in (None, vid) for t in theirs), 15,
                        f"tables {theirs} taken over", clients)
                    took = time.monotonic() - killed
                    kills.append(f"killed {vid} owning {theirs} (hands running at {sorted(set(running))}, "
                                 f"{in_flight} act(s) in flight): taken over in {took:.1f} s")
                    assert took < 3 * LEASE + 2
                    start = {c.name: c.hands for c in clients}
                    await until(lambda start=start: all(c.hands >= start[c.name] + 2 for c in clients), 60,
                                 "two more hands everywhere after the failover", clients)
                    await asyncio.to_thread(victim.start)      # back, as a new process of the cluster
                await until(lambda: min(c.hands for c in clients) >= HANDS, 90, f"{HANDS} hands", clients)
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
        asyncio.run(asyncio.wait_for(play(), TIMEOUT))
        print("kills:", *kills, sep="\n  ")
        for s in servers:
            assert s.terminate() in (0, -signal.SIGTERM), s.log_tail()
    finally:
        for s in servers:
            s.kill()
    assert len(kills) == 2
    assert sum(c.moves for c in clients) > 0
    _check_run(pg.url, ids, clients, servers)


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
    rng = _seed("restart")
    ids, servers, clients = _busy_cluster(tmp_path, pg, 2, rng, give_up=60.0)
    try:

        async def play() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(c.run(stop)) for c in clients]
            try:
                await until(lambda: min(c.hands for c in clients) >= 3, 60, "3 hands", clients)
                await asyncio.to_thread(pg.stop, "immediate")
                await asyncio.sleep(rng.uniform(1.0, 3.0))
                await asyncio.to_thread(pg.start)
                start = {c.name: c.hands for c in clients}
                await until(lambda: all(c.hands >= start[c.name] + 4 for c in clients), 90,
                             "four more hands everywhere after the restart", clients)
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
        asyncio.run(asyncio.wait_for(play(), TIMEOUT))
        storage = sum(1 for c in clients for e in c.errors if e.get("code") == "storage")
        print(f"storage errors in the outage: {storage}; moved: {sum(c.moves for c in clients)}")
        for s in servers:
            assert s.running(), s.log_tail()
            assert s.terminate() in (0, -signal.SIGTERM), s.log_tail()
    finally:
        for s in servers:
            s.kill()
    for c in clients:
        c.errors = [e for e in c.errors if e.get("code") != "storage"]
    _check_run(pg.url, ids, clients, servers)


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
    from pokerdraw32.server.protocol import Limits

    class Host:
        limits = Limits()
        store = None

        def __init__(self) -> None:
            self.rooms: dict[str, object] = {}
            self.conns: dict[int, object] = {}

    class Conn:
        closed = False
        pending = None

        def __init__(self, remote: Remote) -> None:
            self.got: list[tuple[str, bool]] = []
            self.remote = remote
            self.asked: dict[object, float] = {}

        def send_text(self, text: str, *, replay: bool = False) -> None:
            self.got.append((text, replay))

    async def run() -> None:
        sender = Cluster(Host(), "postgresql://unused")  # type: ignore[arg-type]
        receiver = Cluster(Host(), "postgresql://unused")  # type: ignore[arg-type]
        conn = Conn(Remote("t0", sender.id, 2))     # bound at the sender's table
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
