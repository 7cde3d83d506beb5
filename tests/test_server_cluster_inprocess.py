"""The game server's cluster attacked in one event loop, where a race can be made exact: one
``GameServer`` (SQLite or PostgreSQL) whose table is dropped, refused a commit or fails to read
it again, as a cluster makes it; two ``GameServer`` s sharing a throwaway PostgreSQL (skipped,
saying why, where it cannot run) with clients made as ``serve`` makes them; the relay between
processes alone (:class:`cluster_support.FakeHost`).  Each case is one the real processes of
``test_server_cluster_failover.py`` and ``test_server_cluster_attack.py`` met by chance:

* a request in flight when its table moves, or behind a refused commit, keeps its seat (never
  a misleading ``not_seated``); a table that cannot be read again is let go (its lease too);
* a goodbye that overtakes a resume, a process relaying a request to itself, an old owner
  keeping a moved or replaced client, pieces of a lost notification glued to the next message,
  an edge bound to a client its owner let go, an edge taken for dead while it lived, a ``join``
  refused by a lost lease (``unavailable``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from cluster_support import (
    FakeConn,
    FakeHost,
    FakeWebSocket,
    client,
    join,
    one_process,
    received,
    two_processes,
    wait,
)
from server_support import MOVES, Postgres

from pokerdraw32.server.connection import Connection, Remote
from pokerdraw32.server.protocol import Limits
from pokerdraw32.server.store import StorageError


# ---------------------------------------------------------------------------- in one process
def test_a_request_in_flight_when_its_table_moves_is_not_answered_not_seated(tmp_path: Path) -> None:
    """When a table moves to another process its clients get ``moved`` and resume; a request
    they sent before that message reached them must not be answered ``not_seated`` (it reads as
    "you lost your seat", and PROTOCOL.md promises ``moved``/``unavailable`` instead).  Seen in
    the failover runs (``test_server_cluster_failover.py``) as ``not_seated`` errors for ``act``s
    in flight; here made exact in one process: the table is dropped as a cluster drops it, then
    the connection's request arrives."""
    async def run() -> list[dict[str, Any]]:
        async with one_process(str(tmp_path / "db.sqlite"), hand_pause=0.05) as server:
            conn = Connection(None, server.limits, 1)
            await server.dispatch(conn, {"type": "join", "id": 1, "table": "t0", "name": "x"})
            await server.drop("t0", "the tables are spread over the server processes")
            await server.dispatch(conn, {"type": "sit_out", "id": 2})
            return [json.loads(text) for text, _ in conn.out]
    got = asyncio.run(run())
    moved = [m for m in got if m.get("code") == "moved"]
    assert len(moved) == 1, got
    answer = next(m for m in got if m.get("id") == 2)
    assert answer["code"] in MOVES, f"a request in flight when its table moved was answered {answer}"


def test_a_request_behind_a_refused_commit_keeps_its_seat(tmp_path: Path) -> None:
    """A request waiting for the table's lock while another request's commit is refused (the
    database away: PostgreSQL restarting) must still find its seat: the refused commit puts the
    room back to its last committed state with new Player objects, and the waiting request was
    answered ``not_seated`` ("you no longer hold seat 2") though the seat was the connection's
    (seen in the PostgreSQL restart runs as an ``add_chips`` refused ``not_seated``).  One
    process, SQLite: the same code path."""
    async def run() -> list[dict[str, Any]]:
        async with one_process(str(tmp_path / "db.sqlite"), hand_pause=30.0) as server:
            assert server.store is not None
            first, second = (Connection(FakeWebSocket(), server.limits, k) for k in (1, 2))  # type: ignore[arg-type]
            await server.dispatch(first, {"type": "join", "id": 1, "table": "t0", "name": "a", "seat": 2})
            await server.dispatch(second, {"type": "join", "id": 1, "table": "t0", "name": "b", "seat": 3})
            for c in (first, second):
                c.out.clear()
            real = server.store.commit
            calls = 0

            async def commit(c: Any) -> None:
                nonlocal calls
                calls += 1
                if calls == 1:
                    raise StorageError("the database is unreachable (made to fail by the test)")
                await real(c)
            server.store.commit = commit  # type: ignore[method-assign]
            room = server.rooms["t0"]
            async with room.lock:               # both requests wait for the lock, in this order
                refused = asyncio.create_task(server.dispatch(second, {"type": "sit_out", "id": 2}))
                waiting = asyncio.create_task(server.dispatch(first, {"type": "sit_out", "id": 2}))
                await asyncio.sleep(0.05)
            await asyncio.gather(refused, waiting)
            assert next(m for m in received(second) if m.get("id") == 2)["code"] == "storage"
            return received(first)
    got = asyncio.run(run())
    answer = next(m for m in got if m.get("id") == 2)
    assert answer["type"] == "ok", f"a request behind a refused commit was answered {answer}"


def test_a_table_that_cannot_be_read_again_is_let_go(pg: Postgres) -> None:
    """A process whose commit is refused as stale drops the table and reads it again; if that
    read fails (the database restarting), the process must let go of the table's lease so that
    a process (maybe itself, later) takes it over.  It used to keep renewing the lease of a table
    it no longer ran: the table was dead, for every client of every process, until it stopped."""
    import psycopg

    async def run() -> None:
        async with one_process(pg.url, bots={"0": "rule", "1": "rule"}, hand_pause=0.01, bot_delay=0.0) as server:
            assert server.store is not None and server.cluster is not None
            real = server.store.load_table
            failing = True

            async def load_table(table_id: str) -> Any:
                if failing:
                    raise StorageError("the database read failed: (made to fail by the test)")
                return await real(table_id)
            server.store.load_table = load_table  # type: ignore[method-assign]
            assert "t0" in server.rooms and "t0" in server.cluster.owned
            with psycopg.connect(pg.url, autocommit=True) as c:      # a commit whose answer was lost
                c.execute("UPDATE pd32_tables SET seq = seq + 100 WHERE id = 't0'")
            await wait(lambda: "t0" not in server.rooms, 10, "the stale table dropped")
            await wait(lambda: "t0" not in server.cluster.owned, 3,
                       "the lease of table t0 let go (else nobody can take the table over: the process no longer "
                       "runs it, it could not read it again)")
            failing = False
            await wait(lambda: "t0" in server.rooms, 10, "table t0 taken again once readable")
    asyncio.run(run())


# ---------------------------------------------------------------------------- two processes in one event loop
def test_a_goodbye_that_overtakes_a_resume_leaves_the_seat_disconnected(pg: Postgres) -> None:
    """A client seated through process E at table X of process O resumes its other seat at O's
    table Y, and its WebSocket closes before O handled the resume (Y's lock was held by a
    commit): E tells O goodbye, and O must not then bind Y's seat to that dead relayed
    connection.  It did: the seat counted as connected for ever, never sat out after the grace
    period, dealt in and timed out hand after hand."""
    async def run() -> None:
        async with two_processes(pg.url, 3, hand_pause=0.05, grace=1.0) as (a, b):
            o, e = (a, b) if len(a.rooms) == 2 else (b, a)
            x, y = sorted(o.rooms)
            other = client(e)
            token = await join(e, other, y, "y-seat", seat=3)
            await e.gone(other)
            conn = client(e)
            await join(e, conn, x, "x-seat", seat=3)
            room = o.rooms[y]
            async with room.lock:                           # a commit of table y under way
                await e.dispatch(conn, {"type": "resume", "id": 2, "table": y, "token": token})
                await asyncio.sleep(0.3)                    # the resume waits at O for y's lock
                await e.gone(conn)                      # its goodbye reaches O meanwhile
                await asyncio.sleep(0.3)
            await asyncio.sleep(0.3)
            player = room.players[3]
            assert player.conn is None or not player.conn.closed, (
                "seat 3 of table y is held by a relayed connection that closed: it is never sat out")
            await wait(lambda: room.table.seat(3).sitting_out, 5, "seat 3 sat out after the grace period")
    asyncio.run(run())


def test_a_process_never_relays_a_request_to_itself(pg: Postgres) -> None:
    """While a process lets go of a table or reads it again (a stale commit), the table is not
    in its rooms but the owners it knows still name it: a ``resume`` from its own client was
    relayed to itself through PostgreSQL, bound there to a relayed connection of its own client,
    and when the client resumed again locally it got ``replaced`` and stopped receiving the table
    (seen in ``test_postgres_restart_under_load``: a client stuck, its table waiting for its
    decision).  Such a request is answered ``unavailable`` (try again in a moment)."""
    async def run() -> None:
        async with one_process(pg.url, hand_pause=0.05) as server:
            conn = client(server)
            await server.dispatch(conn, {"type": "join", "id": 1, "table": "t0", "name": "self"})
            token = next(m for m in received(conn) if m["type"] == "joined")["token"]
            await server.drop("t0", "its state is read again from the database")   # as _stale does
            assert server.cluster is not None and server.cluster.owner_of("t0") == server.cluster.id
            await server.dispatch(conn, {"type": "resume", "id": 2, "table": "t0", "token": token})
            assert conn.pending is None, "the process relayed its own client's resume to itself"
            answer = next(m for m in received(conn) if m.get("id") == 2)
            assert answer["code"] == "unavailable", answer
    asyncio.run(run())


def test_the_old_owner_forgets_a_client_whose_table_moved(pg: Postgres) -> None:
    """A client seated through process A at B's table; B lets the table go (the tables spread,
    SIGTERM): the client gets ``moved`` and B unbinds it, but B kept its RemoteConnection in
    ``Cluster.remotes`` for as long as A lived, even after the client left A: one leaked object
    per client and move, in a long-running cluster without bound (A sent B its goodbye only for
    the process it was bound to; after B's unbinding it was bound nowhere).  The same for a
    client ``replaced`` by another connection resuming its seat.  A now says goodbye when B
    lets go of its client."""
    async def run() -> None:
        async with two_processes(pg.url, 2, hand_pause=0.05) as (a, b):
            tb = next(iter(b.rooms))
            conn = client(a)
            await join(a, conn, tb, "x")
            assert list(b.cluster.remotes) == [(a.cluster.id, conn.cid)]
            await b.cluster._release(tb, "the tables are spread over the server processes")
            await wait(lambda: any(m.get("code") == "moved" for m in received(conn)), 5, "moved")
            await wait(lambda: conn.remote is None, 5, "unbound")
            await a.gone(conn)
            await asyncio.sleep(1.0)
            assert list(b.cluster.remotes) == [], (
                f"process B still keeps {len(b.cluster.remotes)} relayed connection(s) of clients that left")
            # replaced: a second connection (at B itself) resumes the seat of a client relayed through A
            await wait(lambda: len(a.rooms) == len(b.rooms) == 1, 10, "the tables spread again")
            ta = next(iter(a.rooms))
            tb2 = next(iter(b.rooms))
            assert tb2 != ta
            first = client(a)
            token = await join(a, first, tb2, "y")
            second = client(b)
            await b.dispatch(second, {"type": "resume", "id": 1, "table": tb2, "token": token})
            await wait(lambda: any(m.get("code") == "replaced" for m in received(first)), 5, "replaced")
            await wait(lambda: first.remote is None, 5, "unbound")
            await asyncio.sleep(0.5)
            assert list(b.cluster.remotes) == [], "process B keeps the relayed connection of a replaced client"
    asyncio.run(run())


def test_pieces_of_a_lost_notification_are_not_glued_to_the_next_message() -> None:
    """A line longer than a notification goes as pieces; when the statement carrying its last
    pieces fails (the database restarting), the receiver holds the first ones, and the next line
    for the same client was glued to them: a client got invalid JSON, or an owner failed to read
    a request (a traceback, and the rest of that notification dropped).  ``_lost`` now tells the
    receiver to drop them (flag ``z``)."""
    from pokerdraw32.server.cluster import Cluster

    async def run() -> None:
        owner = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        edge = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        conn = FakeConn(Remote("t0", owner.id, None))      # bound at the owner's table
        edge.host.conns[7] = conn
        long = json.dumps({"type": "event", "v": 1, "pad": "x" * 12_000})
        owner._post(edge.id, 7, "m", long)
        payloads = owner._payloads()
        assert len(payloads) == 2                            # its pieces in two notifications
        channel, payload, _ = payloads[0]
        edge._received(channel, payload)                     # the first went out; the second failed
        owner._lost(payloads[1][2])
        short = json.dumps({"type": "event", "v": 1, "seq": 9})
        owner._post(edge.id, 7, "m", short)
        for channel, payload, _ in owner._payloads():
            edge._received(channel, payload)
        texts = [t for t, _ in conn.got]
        assert texts == [short], f"the edge passed on {[t[:60] + '...' for t in texts]}"
    asyncio.run(run())


def test_a_relayed_connections_queued_lines_go_between_the_drop_and_the_moved() -> None:
    """When the statement carrying a relayed client's pieces fails, what its relayed connection
    queued since must reach the edge after the ``z`` (not glued to the dropped pieces) and
    before the ``moved`` (a late answer would bind the client again)."""
    from pokerdraw32.server.cluster import Cluster

    async def run() -> None:
        owner = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        edge = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        conn = FakeConn(Remote("t0", owner.id, None))      # bound at the owner's table
        conn.moved = False
        edge.host.conns[7] = conn
        rconn = _relayed(owner, edge.id, 7)
        rconn.told = ("t0", None)                            # the edge knows the binding
        owner._post(edge.id, 7, "m", json.dumps({"type": "event", "v": 1, "pad": "x" * 12_000}))
        payloads = owner._payloads()
        channel, payload, _ = payloads[0]
        edge._received(channel, payload)                     # the first pieces went out; the rest failed
        short = {"type": "event", "v": 1, "table": "t0", "seq": 9}
        rconn.send(dict(short))                              # queued meanwhile
        owner._lost(payloads[1][2])
        for channel, payload, _ in owner._payloads():
            edge._received(channel, payload)
        got = [json.loads(t) for t, _ in conn.got]
        assert [m.get("seq", m.get("code")) for m in got] == [9, "moved"], [t[:60] for t, _ in conn.got]
        assert conn.remote is None
    asyncio.run(run())


def test_an_edge_unbinds_a_client_its_owner_said_moved_to() -> None:
    """An owner that binds a client (its ``joined``) and lets go of it (``moved``: the table
    spread to another process) before its relay is flushed sends both in one go, and no
    binding change at all (bound, then unbound: as before).  The edge binds the client by the
    ``joined`` it passes on, so it stayed bound to a binding the owner had dropped; when it later
    saw the owner change it sent a second ``moved``, and a client that had already resumed
    resumed again: the same entries replayed twice (seen in ``test_postgres_restart_under_load``
    as "duplicate: event 178 after 195").  A ``moved`` from the owner now unbinds the client."""
    from pokerdraw32.server.cluster import Cluster, moved
    from pokerdraw32.server.protocol import dumps

    async def run() -> None:
        edge = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        owner = "0123456789ab"
        edge.live.add(owner)
        conn = Connection(FakeWebSocket(), Limits(), 7)  # type: ignore[arg-type]
        edge.host.conns[7] = conn
        edge.forward(conn, owner, {"type": "join", "id": 1, "table": "t0", "name": "x"})
        edge._lines.clear()
        lines = [dumps({"type": "joined", "v": 1, "id": 1, "table": "t0", "seat": 2, "token": "tok", "seq": 5}),
                 dumps({"type": "state", "v": 1, "table": "t0", "seq": 5}),
                 dumps(moved("t0", "the tables are spread over the server processes"))]
        edge._received(f"pd32_{edge.id}", "\n".join([owner] + [f"7\tm\t{t}" for t in lines]))
        assert [json.loads(t)["type"] for t, _ in conn.out] == ["joined", "state", "error"]
        assert conn.remote is None, f"the edge still binds the client to {conn.remote}, which its owner let go"
        assert conn.moved
    asyncio.run(run())


class _TableRoom:
    """What a relayed connection needs of its room, for testing the relay alone: table t0."""

    id = "t0"

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.watchers: set[Any] = set()


def _relayed(owner: Any, edge: str, cid: int) -> Any:
    """The owner's relayed connection of client ``cid`` of process ``edge``, bound at its t0."""
    from pokerdraw32.server.cluster import RemoteConnection

    rconn = RemoteConnection(owner, edge, cid)
    rconn.room = _TableRoom()  # type: ignore[assignment]
    owner.remotes[(edge, cid)] = rconn
    return rconn


def test_an_owner_that_takes_an_edge_for_dead_tells_it_its_clients_moved() -> None:
    """A process whose heartbeat lapsed in a database outage longer than the lease lives on; the
    owner of the tables its clients sit at took it for dead and dropped their relayed
    connections without a word: the clients stayed bound to a relay that sent them nothing
    more, and waited for ever while their tables played on (``test_postgres_restart_under_load``,
    ``PD32_CLUSTER_SEED=2442153917``, one run in two).  The owner now tells the edge as it does
    for a lost notification: ``moved``, then unbound; the edge passes the ``moved`` on and the
    client resumes."""
    from pokerdraw32.server.cluster import Cluster

    async def run() -> None:
        owner = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        edge = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        conn = FakeConn(Remote("t0", owner.id, 2))          # seated through the edge at the owner's t0
        edge.host.conns[7] = conn
        edge.live.add(owner.id)
        rconn = _relayed(owner, edge.id, 7)
        owner.live.discard(edge.id)                          # its heartbeat lapsed
        owner._moved_away()
        assert owner.remotes == {}
        for channel, payload, _ in owner._payloads():
            edge._received(channel, payload)
        assert [json.loads(t)["code"] for t, _ in conn.got] == ["moved"], conn.got
        assert conn.remote is None
        await asyncio.sleep(0)                               # the relayed connection's detach
        assert rconn.room is None and rconn.closed
    asyncio.run(run())


def test_what_an_owner_queued_for_a_client_goes_before_its_moved() -> None:
    """The owner answered a client's ``resume`` (queued on the relayed connection, not yet sent)
    and then took the client's process for dead: its ``moved`` went out first and the answer
    after it, so the edge bound the client again by that late ``resumed``, to a relay the owner
    had dropped (found in review).  The queued lines now go first: the client gets ``resumed``,
    then ``moved``, and is left unbound, to resume."""
    from pokerdraw32.server.cluster import Cluster

    async def run() -> None:
        owner = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        edge = Cluster(FakeHost(), "postgresql://unused")  # type: ignore[arg-type]
        edge.live.add(owner.id)
        conn = Connection(FakeWebSocket(), Limits(), 7)  # type: ignore[arg-type]
        edge.host.conns[7] = conn
        edge.forward(conn, owner.id, {"type": "resume", "id": 5, "table": "t0", "token": "tok"})
        edge._lines.clear()
        rconn = _relayed(owner, edge.id, 7)
        rconn.send({"type": "resumed", "v": 1, "id": 5, "table": "t0", "seat": 2, "seq": 9})
        owner.live.discard(edge.id)                          # in the same turn: its heartbeat lapsed
        owner._moved_away()
        for channel, payload, _ in owner._payloads():
            edge._received(channel, payload)
        got = [json.loads(t) for t, _ in conn.out]
        assert [(m["type"], m.get("code")) for m in got] == [("resumed", None), ("error", "moved")], got
        assert conn.remote is None and conn.pending is None, f"the client is left bound to {conn.remote}"
    asyncio.run(run())


def test_a_join_refused_by_a_lost_lease_is_answered_unavailable(pg: Postgres) -> None:
    """A process slow to renew a lease (a loaded machine: ``--lease`` 1.5 s) finds at its next
    commit that another process took the table: the write is refused (fenced), nothing applied.
    A ``join`` so refused was answered ``storage``, which clients take for a database failure (the
    test clients give up on a join so answered: a flaky failure of the cluster tests on a busy
    machine); it is answered ``unavailable`` (join again, with the same key).  The clients bound to
    the table get one ``moved`` each, and a refused request of theirs still ``storage``: one
    signal to resume, not two (two made clients resume twice and get the entries twice)."""
    import psycopg

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with one_process(pg.url, hand_pause=30.0) as server:
            seated, joining = client(server), client(server)
            await server.dispatch(seated, {"type": "join", "id": 1, "table": "t0", "name": "seated"})
            received(seated)
            with psycopg.connect(pg.url, autocommit=True) as c:        # another process took the table
                c.execute("UPDATE pd32_owners SET epoch = epoch + 1 WHERE table_id = 't0'")
            await server.dispatch(joining, {"type": "join", "id": 1, "table": "t0", "name": "late", "key": "k" * 20})
            await asyncio.sleep(0.5)
            return received(joining), received(seated)
    joining, seated = asyncio.run(run())
    answer = next(m for m in joining if m.get("id") == 1)
    assert answer["code"] == "unavailable", f"a join refused by a lost lease was answered {answer}"
    signals = [m["code"] for m in seated if m.get("code") in MOVES]
    assert signals == ["moved"], f"a client bound to the table got {signals}"


