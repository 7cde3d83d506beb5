"""Many server processes on one PostgreSQL database: ``pokerdraw32 serve --db postgresql://...``
run any number of times, on one machine or many, serves one set of tables.

**Ownership.**  Each table is owned by one process at a time under a lease, a row of
``pd32_owners`` (table, owner, epoch, expiry in PostgreSQL's clock) that its owner renews every
tick (a sixth of ``--lease``, 3 s by default).  Each process also renews its row of
``pd32_servers``.  A lease that has expired (its owner died: SIGKILL, a lost machine, a cut
network) is claimed by another process at its next tick, which adds one to the epoch, reads the
table from the database (:meth:`~pokerdraw32.server.store.Store.load_table`) and goes on with it:
the running hand continues where its last commit left it.  Tables spread over the live
processes: a process claims free tables while it owns fewer than its share (the tables divided
by the live processes, rounded up) and lets go of those beyond its share when another process
has room.  A process stopped by SIGTERM lets go of its tables at once.

**Fencing.**  Every write of a table checks, in its transaction, that the writer's lease is still
the table's (``SELECT ... FOR SHARE`` of the lease row: a takeover waits for a write in flight
and then reads the table with it; a takeover first makes the write fail).  A process that lost
a lease therefore never writes again to the table, even before it notices
(:class:`~pokerdraw32.server.store.StaleTableError`); every write acknowledged to a client is in
the database, and the new owner continues from it.

**Routing.**  A client may connect to any process.  A request for a table another process owns
is sent to the owner as a PostgreSQL notification (``NOTIFY pd32_<owner id>``, :meth:`forward`);
the owner handles it with a :class:`RemoteConnection`, the same code as for its own clients, and
sends the messages for that client back the same way, in order, each change in one notification
where it fits (PostgreSQL's 8,000-byte limit: longer ones are cut into pieces and put back
together).  Ownership changes are announced on ``pd32_owners``.  When a table's owner changes
(failover, rebalancing) its clients get the error ``moved`` and resume with their token and last
``seq``, through any process (PROTOCOL.md, Cluster); requests sent meanwhile get no answer, and an
``act`` sent again with its ``seq`` is refused as ``stale`` if it was applied: nothing is applied
twice.

**No stall.**  A process frozen (SIGSTOP, a lost machine), even in the middle of a commit that
holds its lease row, delays only its own tables: claims and renewals skip locked rows (one
statement each, ``FOR ... SKIP LOCKED``), the heartbeat locks only this process's row, and every
connection has lock, statement and idle-in-transaction timeouts and TCP keepalives
(:func:`~pokerdraw32.server.store.pg_connect_args`): PostgreSQL ends the frozen transaction
before the lease expires, and the next tick of another process takes the table.

PostgreSQL itself may restart: the processes connect again (requests in the outage get
``storage``), keep or retake their leases, and tell their remote clients to resume, since
notifications sent during the outage are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol

from .connection import Connection, Remote
from .protocol import PROTOCOL_VERSION, Limits, dumps
from .store import StorageError, Store, TableRow, pg_connect_args

if TYPE_CHECKING:
    from .room import Room

__all__ = ["Cluster", "Host", "RemoteConnection", "moved"]

log = logging.getLogger("pokerdraw32.server")

PAYLOAD = 7800
"""Most bytes of one notification (PostgreSQL's limit is 8,000)."""
PIECE = 1900
"""Characters of one piece of a message too long for a notification (at most 4 bytes each)."""
OWNERS = "pd32_owners"
"""The channel of ownership announcements."""
ANON = 1 << 53
"""Ids from this one up are the edge's own, given to a join, resume or watch sent without an id
(a client's ids are below 2**53, PROTOCOL.md): its answer is known by it, then sent on without it."""
_REPLY_ID = re.compile(r'^\{"type":"[a-z_]+","v":\d+,"id":("(?:[^"\\]|\\.)*"|-?\d+)[,}]')
"""The id of a reply as the server writes it (``_reply`` in app.py: type, v, id first)."""
_MOVED = f'{{"type":"error","v":{PROTOCOL_VERSION},"code":"moved",'
"""How the owner's ``moved`` error (:func:`moved`) begins, as the edge passes it on."""


def moved(table: str, why: str) -> dict[str, Any]:
    """The ``moved`` error a client gets when the table it is bound to changes process."""
    return {"type": "error", "v": PROTOCOL_VERSION, "code": "moved", "table": table,
            "message": f"table {table} moved to another server process ({why}): resume with your token and last "
                       f"seq (or watch again), through any server process"}


class Host(Protocol):
    """What the cluster needs of the game server (:class:`~pokerdraw32.server.app.GameServer`)."""

    rooms: dict[str, Room]
    conns: dict[int, Connection]
    limits: Limits
    store: Store | None

    def dispatch(self, conn: Connection, msg: dict[str, Any]) -> Awaitable[None]:
        """Handle one request of ``conn`` (errors answered as error messages)."""

    def adopt(self, row: TableRow, fence: tuple[str, int]) -> Awaitable[None]:
        """Run the table ``row`` under the lease ``fence`` (raise StorageError if it cannot)."""

    def drop(self, table_id: str, why: str) -> Awaitable[None]:
        """Stop running the table; its clients get ``moved``."""


class RemoteConnection(Connection):
    """A client connected to another process (its ``edge``) and bound to a table this process
    owns: its messages go back through :class:`Cluster`, never to a WebSocket."""

    def __init__(self, cluster: Cluster, edge: str, cid: int) -> None:
        super().__init__(None, cluster.host.limits, cid)
        self.cluster = cluster
        self.edge = edge
        self.told: tuple[str | None, int | None] = (None, None)     # the binding the edge knows
        self.requests: deque[dict[str, Any]] = deque()
        self.worker: asyncio.Task[None] | None = None

    def _wake(self, urgent: bool = True) -> None:
        self.cluster._dirty[self] = None
        self.cluster._flush.set()

    def binding(self) -> tuple[str | None, int | None]:
        return (None if self.room is None else self.room.id, None if self.player is None else self.player.seat)


class Cluster:
    """This process's part of the cluster (see the module docstring).

    :ivar id: this process's id (12 hex digits), new at each start.
    :ivar owned: table -> epoch of the leases this process holds.
    :ivar owners: every table -> ``(owner id or None, epoch, lease valid)`` as last read.
    :ivar live: the ids of the processes whose heartbeat is valid.
    """

    def __init__(self, host: Host, url: str, *, lease: float = 3.0, address: str = "") -> None:
        if not 0.5 <= lease <= 600:
            raise ValueError(f"--lease must be 0.5 to 600 seconds, got {lease}")
        self.host = host
        self.url = url
        self.lease = lease
        self.period = lease / 6
        self.address = address
        self.id = secrets.token_hex(6)
        self.owned: dict[str, int] = {}
        self.owners: dict[str, tuple[str | None, int, bool]] = {}
        self.live: set[str] = {self.id}
        self.remotes: dict[tuple[str, int], RemoteConnection] = {}
        self._dirty: dict[RemoteConnection, None] = {}
        self._lines: dict[str, list[str]] = {}         # owner/edge id -> lines to send
        self._pieces: dict[tuple[str, int], list[str]] = {}
        self._flush = asyncio.Event()
        self._tick_now = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._ctl: Any = None
        self._tx: Any = None
        self._lobby: tuple[float, list[tuple[str, dict[str, Any], dict[str, Any], int]]] = (-1.0, [])
        self.stopping = False
        self.listening = False
        self._anon = 0

    # ------------------------------------------------------------------ start, stop
    async def start(self) -> None:
        """Register this process, take its first share of the tables, start the loops.

        :raises StorageError: the database cannot be reached.
        """
        try:
            self._ctl = await self._connect()
            self._tx = await self._connect()
        except Exception as exc:
            raise StorageError(f"cannot open the database {self.url}: {exc}") from exc
        listening = asyncio.get_running_loop().create_future()
        self._tasks = [asyncio.create_task(self._listen_loop(listening), name="cluster listener"),
                       asyncio.create_task(self._flush_loop(), name="cluster relay")]
        await listening
        await self._tick()
        self._tasks.append(asyncio.create_task(self._tick_loop(), name="cluster leases"))
        log.info("cluster: server process %s, %d table(s) of %d", self.id, len(self.owned), len(self.owners))

    async def stop(self) -> None:
        """Let go of every table (other processes take them at once) and leave the cluster."""
        self.stopping = True
        for t in list(self.owned):
            with contextlib.suppress(Exception):
                await self._release(t, "this server process stopped")
        with contextlib.suppress(Exception):
            await self._flush_now()
        with contextlib.suppress(Exception):
            await self._ctl.execute("DELETE FROM pd32_servers WHERE id = %s", (self.id,))
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conn in (self._ctl, self._tx):
            with contextlib.suppress(Exception):
                await conn.close()

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                     **pg_connect_args(self.url, self.lease, "cluster"))

    async def _control(self) -> Any:
        if self._ctl is None or self._ctl.closed or self._ctl.broken:
            self._ctl = await self._connect()
        return self._ctl

    # ------------------------------------------------------------------ leases
    async def _tick_loop(self) -> None:
        while not self.stopping:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._tick_now.wait(), timeout=self.period)
            self._tick_now.clear()
            self._overdue()                   # the database may be away: this needs none
            try:
                await self._tick()
            except Exception as exc:          # the database is away: try again next tick
                log.warning("cluster: the lease tick failed: %s", exc)

    async def _tick(self) -> None:
        """Heartbeat, renew the leases (letting go of those lost), read who owns what, tell
        clients of tables that moved, claim free tables up to this process's share, and let go
        of tables beyond it."""
        ctl = await self._control()
        await ctl.execute("INSERT INTO pd32_servers (id, address, expires) VALUES (%s, %s, now() + "
                          "make_interval(secs => %s)) ON CONFLICT (id) DO UPDATE SET expires = EXCLUDED.expires",
                          (self.id, self.address, self.lease))
        # SKIP LOCKED: a row another session locks (a claim's statement in flight) is not waited
        # for; it is renewed next tick if it is still this process's (read without a lock)
        cur = await ctl.execute("UPDATE pd32_owners SET expires = now() + make_interval(secs => %s) WHERE table_id IN "
                                "(SELECT table_id FROM pd32_owners WHERE owner = %s AND table_id = ANY(%s) FOR NO KEY "
                                "UPDATE SKIP LOCKED) AND owner = %s RETURNING table_id, epoch",
                                (self.lease, self.id, list(self.owned), self.id))
        held = {t: int(e) for t, e in await cur.fetchall()}
        if len(held) < len(self.owned):
            cur = await ctl.execute("SELECT table_id, epoch FROM pd32_owners WHERE owner = %s AND table_id = ANY(%s)",
                                    (self.id, [t for t in self.owned if t not in held]))
            held.update({t: int(e) for t, e in await cur.fetchall()})
        for t, epoch in list(self.owned.items()):
            if held.get(t) != epoch:
                log.warning("cluster: table %s: the lease was lost (another process took it over)", t)
                self.owned.pop(t, None)
                await self.host.drop(t, "its server process lost the table")
        cur = await ctl.execute("SELECT id FROM pd32_servers WHERE expires > now()")
        self.live = {r[0] for r in await cur.fetchall()} | {self.id}
        cur = await ctl.execute("SELECT t.id, o.owner, o.epoch, o.expires > now() FROM pd32_tables t LEFT JOIN "
                                "pd32_owners o ON o.table_id = t.id")
        self.owners = {t: (o, int(e or 0), bool(v)) for t, o, e, v in await cur.fetchall()}
        self._moved_away()
        if self.stopping:
            return
        share = math.ceil(len(self.owners) / len(self.live))
        for t, (owner, _, valid) in sorted(self.owners.items()):
            if len(self.owned) >= share:
                break
            if owner is None or not valid:
                await self._claim(t)
        counts: dict[str, int] = dict.fromkeys(self.live, 0)
        for owner, _, valid in self.owners.values():
            if owner is not None and valid and owner in counts:
                counts[owner] += 1
        room_elsewhere = sum(max(0, share - n) for s, n in counts.items() if s != self.id)
        extra = min(len(self.owned) - share, room_elsewhere)
        if extra > 0:
            rooms = self.host.rooms
            idle = sorted(self.owned, key=lambda t: (t in rooms and rooms[t]._hand_running(), t))
            for t in idle[:extra]:
                await self._release(t, "the tables are spread over the server processes")

    async def _claim(self, table_id: str) -> None:
        ctl = await self._control()
        # One statement (no lock held between statements: a claimer frozen by SIGSTOP holds
        # none).  FOR UPDATE conflicts with the old owner's write in flight (FOR KEY SHARE,
        # store.py); SKIP LOCKED: the claim does not wait for it, it tries again next tick.  A
        # write whose owner froze in its transaction is ended by PostgreSQL
        # (idle_in_transaction_session_timeout, below the lease) and its lock released; a write
        # committed before the claim is in the table the claim reads; one after it is refused
        # (its fence names the old epoch).
        cur = await ctl.execute(
            "UPDATE pd32_owners SET owner = %s, epoch = epoch + 1, expires = now() + make_interval(secs => %s) "
            "WHERE table_id = (SELECT table_id FROM pd32_owners WHERE table_id = %s AND expires < now() FOR UPDATE "
            "SKIP LOCKED) RETURNING epoch", (self.id, self.lease, table_id))
        row = await cur.fetchone()
        if row is None and self.owners.get(table_id, (None, 0, False))[0] is None:    # no lease row yet
            cur = await ctl.execute("INSERT INTO pd32_owners (table_id, owner, epoch, expires) VALUES (%s, %s, 1, "
                                    "now() + make_interval(secs => %s)) ON CONFLICT (table_id) DO NOTHING RETURNING "
                                    "epoch", (table_id, self.id, self.lease))
            row = await cur.fetchone()
        if row is None:
            return                          # another process was first, or the old owner's write is in flight
        epoch = int(row[0])
        self.owned[table_id] = epoch
        try:
            stored = await self._store_row(table_id)
            await self.host.adopt(stored, (self.id, epoch))
        except Exception as exc:
            log.error("cluster: table %s cannot be restored here: %s; letting it go", table_id, exc)
            await self._release(table_id, "it could not be restored")
            return
        self.owners[table_id] = (self.id, epoch, True)
        log.info("cluster: table %s taken (epoch %d)", table_id, epoch)
        await self._announce(table_id, self.id, epoch)

    async def _store_row(self, table_id: str) -> TableRow:
        assert self.host.store is not None
        row = await self.host.store.load_table(table_id)
        if row is None:
            raise StorageError(f"table {table_id!r} is not in the database")
        return row

    async def reload(self, table_id: str) -> None:
        """The table's room was dropped as stale: read it again if this process still holds
        its lease, else forget it.  If it cannot be read (the database away), its lease is let
        go, never renewed for a table this process no longer runs: a process (maybe this one)
        takes it again once it can be read.

        :raises StorageError: it could not be read (its lease was let go).
        """
        epoch = self.owned.get(table_id)
        if epoch is None:
            return
        try:
            ctl = await self._control()
            cur = await ctl.execute("SELECT 1 FROM pd32_owners WHERE table_id = %s AND owner = %s AND epoch = %s",
                                    (table_id, self.id, epoch))
            if await cur.fetchone() is None:
                log.warning("cluster: table %s: the lease was lost (another process took it over)", table_id)
                self.owned.pop(table_id, None)
                return
            await self.host.adopt(await self._store_row(table_id), (self.id, epoch))
        except Exception:
            with contextlib.suppress(Exception):
                await self._release(table_id, "it could not be read again from the database")
            self.owned.pop(table_id, None)
            raise

    async def _release(self, table_id: str, why: str) -> None:
        """Stop running the table, then end the lease so that another process takes it now."""
        epoch = self.owned.pop(table_id, None)
        await self.host.drop(table_id, why)
        if epoch is None:
            return
        ctl = await self._control()
        await ctl.execute("UPDATE pd32_owners SET expires = now() - interval '1 second' WHERE table_id = %s AND "
                          "owner = %s AND epoch = %s", (table_id, self.id, epoch))
        self.owners[table_id] = (self.id, epoch, False)
        await self._announce(table_id, None, epoch)

    async def _announce(self, table_id: str, owner: str | None, epoch: int) -> None:
        with contextlib.suppress(Exception):
            await self._ctl.execute("SELECT pg_notify(%s, %s)",
                                    (OWNERS, json.dumps({"t": table_id, "o": owner, "e": epoch})))

    def _moved_away(self) -> None:
        """Clients of this process bound to a table whose owner died or changed: ``moved``;
        remote clients of processes that died: gone, and their process is told as :meth:`_lost`
        tells it (:meth:`_let_go_relayed`).  A process whose heartbeat lapsed may live on (a
        database outage longer than the lease): told nothing, its clients stayed bound to a
        relay that no longer sent them anything, and waited for ever (seen in
        ``test_postgres_restart_under_load``: clients stuck while their tables played on).  To a
        process that did die, the notification goes nowhere."""
        for conn in list(self.host.conns.values()):
            for r in (conn.remote, conn.pending):
                if r is None:
                    continue
                owner = self.owners.get(r.table, (None, 0, False))[0]
                if r.owner not in self.live or owner != r.owner:
                    self._unbind(conn)
                    conn.send(moved(r.table, "its server process stopped" if r.owner not in self.live else
                                    "failover"))
                    break
        for key, rconn in list(self.remotes.items()):
            if rconn.edge not in self.live:
                self._let_go_relayed(key, "the server process you are connected to was taken for dead")

    def _overdue(self) -> None:
        """Requests another process has not answered for long (lost with its notification
        connection, in a database restart): answered here ``unavailable``, and the client
        resumes."""
        overdue = time.monotonic() - max(3.0, 2 * self.lease)
        for conn in list(self.host.conns.values()):
            late = [rid for rid, at in conn.asked.items() if at < overdue]
            if not late:
                continue
            self._unbind(conn)
            for rid in late:
                conn.send({"type": "error", "v": PROTOCOL_VERSION, **({} if isinstance(rid, int) and rid >= ANON
                                                                      else {"id": rid}), "code": "unavailable",
                           "message": "the server process of the table did not answer in time (a failover may be "
                                      "under way): resume with your token and last seq, or try again"})

    # ------------------------------------------------------------------ lobby
    async def table_rows(self, max_age: float = 1.0) -> list[tuple[str, dict[str, Any], dict[str, Any], int]]:
        """Every stored table (id, config, state, seq), read at most ``max_age`` seconds ago."""
        now = asyncio.get_running_loop().time()
        if now - self._lobby[0] > max_age:
            assert self.host.store is not None
            self._lobby = (now, await self.host.store.table_rows())
        return self._lobby[1]

    def owner_of(self, table_id: str) -> str | None:
        """The live process that owns ``table_id`` now, or None (no such table, or a failover is
        under way)."""
        owner, _, valid = self.owners.get(table_id, (None, 0, False))
        return owner if valid and owner in self.live else None

    # ------------------------------------------------------------------ the relay: sending
    def forward(self, conn: Connection, owner: str, msg: dict[str, Any]) -> None:
        """Send client ``conn``'s request ``msg`` to the process ``owner`` of its table (a join,
        resume or watch is remembered until that process binds the client: if it dies first, the
        client gets ``moved``)."""
        now = time.monotonic()
        rid = msg.get("id")
        if msg["type"] in ("join", "resume", "watch"):
            if rid is None:                   # its answer binds the client: it must be known
                self._anon += 1
                rid = ANON + self._anon
                msg = {**msg, "id": rid}
            conn.pending = Remote(msg["table"], owner, None)
            conn.settled.clear()
            conn.pending_id = rid
        text = dumps(msg)
        if isinstance(rid, (str, int)) and not isinstance(rid, bool):
            conn.asked[rid] = now
        self._post(owner, conn.cid, "q", text)

    def _unbind(self, conn: Connection) -> None:
        """Forget where ``conn`` is bound or binding at another process, and tell that process
        (if it lives) to let go of it: what it still sends for ``conn`` is dropped from now on
        until it binds ``conn`` again."""
        for r in {conn.remote, conn.pending} - {None}:
            assert r is not None
            if r.owner in self.live and r.owner != self.id:
                self._post(r.owner, conn.cid, "x", "")
        conn.remote = conn.pending = None
        conn.settled.set()
        conn.asked.clear()                    # their answers will not pass: the client resumes

    def let_go(self, conn: Connection) -> None:
        """``conn`` (of this process) no longer uses its table at another process: tell it."""
        if conn.remote is not None:
            self._post(conn.remote.owner, conn.cid, "x", "")

    def _post(self, to: str, cid: int, flag: str, text: str) -> None:
        self._lines.setdefault(to, []).append(f"{cid}\t{flag}\t{text}")
        self._flush.set()

    def _drain(self) -> None:
        """Move what the remote connections queued into lines for their processes."""
        dirty, self._dirty = self._dirty, {}
        for rconn in dirty:
            lines = self._lines.setdefault(rconn.edge, [])
            b = rconn.binding()
            bound = b != rconn.told and b[0] is not None
            if bound:                         # a new binding: before what answers it
                lines.append(f"{rconn.cid}\tb\t{json.dumps(b)}")
            out = rconn.out
            while out:
                text, replay = out.popleft()
                lines.append(f"{rconn.cid}\t{'r' if replay else 'm'}\t{text}")
            rconn.replaying = 0
            if b != rconn.told and not bound:   # let go: after the last messages (a moved, ...)
                lines.append(f"{rconn.cid}\tb\t{json.dumps(b)}")
            rconn.told = b

    def _payloads(self) -> list[tuple[str, str, list[tuple[str, int, str]]]]:
        """The lines to send as notifications ``(channel, payload, [(to, client, flag) of its
        lines])``, each under :data:`PAYLOAD` bytes: a first line with this process's id, then
        whole lines; a line too long for one is sent as pieces (flag ``p``) that the receiver puts
        back together."""
        out: list[tuple[str, str, list[tuple[str, int, str]]]] = []
        lines_by, self._lines = self._lines, {}
        for to, lines in lines_by.items():
            channel = f"pd32_{to}"
            parts = [self.id]
            keys: list[tuple[str, int, str]] = []
            size = len(self.id)
            for line in lines:
                cid, flag, text = line.split("\t", 2)
                keys.append((to, int(cid), flag))
                pieces = [line]
                n = len(line) if line.isascii() else 4 * len(line)
                if n > PAYLOAD - 100:
                    cut = [text[i:i + PIECE] for i in range(0, len(text), PIECE)]
                    pieces = [f"{cid}\tp\t{c}" for c in cut[:-1]] + [f"{cid}\t{flag}\t{cut[-1]}"]
                for piece in pieces:
                    m = len(piece) if piece.isascii() else 4 * len(piece)
                    if size + m + 1 > PAYLOAD:
                        out.append((channel, "\n".join(parts), keys))
                        parts, size, keys = [self.id], len(self.id), [(to, int(cid), flag)]
                    parts.append(piece)
                    size += m + 1
            if len(parts) > 1:
                out.append((channel, "\n".join(parts), keys))
        return out

    async def _flush_loop(self) -> None:
        backoff = 0.0
        while True:
            await self._flush.wait()
            self._flush.clear()
            await asyncio.sleep(0)           # what the same change queues for other connections too
            try:
                await self._flush_now()
                backoff = 0.0
            except Exception as exc:          # the database is away: what was lost is resumed later
                backoff = min(2.0, backoff * 2 or 0.05)
                log.warning("cluster: notifications not sent (%s); trying again in %.2f s", exc, backoff)
                await asyncio.sleep(backoff)
                self._flush.set()

    async def _flush_now(self) -> None:
        """Send what is queued, 32 notifications a statement.  When a statement fails, whether
        its notifications went out is unknown: they are not sent again (a client could get a
        message twice); the clients concerned get ``moved`` instead, and resume."""
        self._drain()
        payloads = self._payloads()
        for i in range(0, len(payloads), 32):
            batch = payloads[i:i + 32]
            try:
                if self._tx is None or self._tx.closed or self._tx.broken:
                    self._tx = await self._connect()
                # one statement, the texts as parameters (sent as they are: an array parameter
                # would be escaped character by character); the notifications go out in order
                args = [x for channel, payload, _ in batch for x in (channel, payload)]
                await self._tx.execute("SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(batch)), args)
            except Exception:
                self._lost([k for _, _, keys in payloads[i:] for k in keys])
                raise

    def _lost(self, keys: list[tuple[str, int, str]]) -> None:
        """Lines that may not have reached their process: a request's client gets ``moved``
        here; a remote client of this process's table is let go and told ``moved`` (when the
        database is back); a client's goodbye is sent again."""
        why = "a message between server processes was lost"
        for to, cid in dict.fromkeys((to, cid) for to, cid, _ in keys):
            self._post(to, cid, "z", "")      # pieces of a long line it may have got: dropped
        for to, cid, flag in dict.fromkeys(keys):
            if flag == "x":
                if cid not in self.host.conns:    # gone: no later request can overtake it
                    self._post(to, cid, "x", "")
            elif flag == "q":
                conn = self.host.conns.get(cid)
                r = None if conn is None else conn.pending or conn.remote
                if conn is not None and r is not None:
                    self._unbind(conn)
                    conn.send(moved(r.table, why))
            else:
                self._let_go_relayed((to, cid), why)

    def _let_go_relayed(self, key: tuple[str, int], why: str) -> None:
        """Forget the relayed connection ``key`` (its process, its client) and tell that process:
        what it had queued, then ``moved`` (``why``), then unbound.  Queued lines drained after
        the ``moved`` would reach the client after it (a late ``resumed`` binds it again, to a
        relay that no longer exists); drained before the ``z`` of :meth:`_lost` they would be
        glued to the pieces that ``z`` drops: so here, between the two."""
        rconn = self.remotes.get(key)
        if rconn is None or rconn.closed:
            return
        self._drain()
        table = None if rconn.room is None else rconn.room.id
        self._bye(key)
        to, cid = key
        if table is not None:
            self._post(to, cid, "m", dumps(moved(table, why)))
        self._post(to, cid, "b", json.dumps([None, None]))

    # ------------------------------------------------------------------ the relay: receiving
    async def _listen_loop(self, listening: asyncio.Future[None]) -> None:
        backoff = 0.1
        first = True
        while not self.stopping:
            try:
                conn = await self._connect()
                try:
                    await conn.execute(f"LISTEN pd32_{self.id}")
                    await conn.execute(f"LISTEN {OWNERS}")
                    self.listening = True
                    if first:
                        listening.set_result(None)
                        first = False
                    else:
                        self._resync()
                    backoff = 0.1
                    async for n in conn.notifies():
                        try:
                            self._received(n.channel, n.payload)
                        except Exception:
                            log.exception("cluster: a notification could not be handled")
                finally:
                    self.listening = False
                    with contextlib.suppress(Exception):
                        await conn.close()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if first:
                    listening.set_exception(StorageError(f"cannot listen on the database {self.url}: {exc}"))
                    return
                log.warning("cluster: the notification connection failed (%s); connecting again", exc)
                await asyncio.sleep(backoff)
                backoff = min(2.0, backoff * 2)

    def _resync(self) -> None:
        """The notification connection was lost, and what was sent to this process meanwhile
        with it: every client bound across processes resumes."""
        for conn in list(self.host.conns.values()):
            r = conn.remote or conn.pending
            if r is not None:
                self._unbind(conn)
                conn.send(moved(r.table, "the connection between server processes was lost"))
        for key in list(self.remotes):
            rconn = self.remotes[key]
            if rconn.room is not None:
                rconn.send(moved(rconn.room.id, "the connection between server processes was lost"))
            self._bye(key)
        self._pieces.clear()

    def _received(self, channel: str, payload: str) -> None:
        if channel == OWNERS:
            d = json.loads(payload)
            t, owner, epoch = d["t"], d["o"], int(d["e"])
            self.owners[t] = (owner, epoch, owner is not None)
            if owner is None:
                self._tick_now.set()          # a table is free: claim it if there is room
            else:
                self._moved_away()
            return
        sender, *lines = payload.split("\n")
        for line in lines:
            cid_text, flag, text = line.split("\t", 2)
            cid = int(cid_text)
            key = (sender, cid)
            if flag == "p":
                self._pieces.setdefault(key, []).append(text)
                continue
            if flag == "z":                   # the rest of a long line was lost (_lost): not glued to the next
                self._pieces.pop(key, None)
                continue
            if key in self._pieces:
                text = "".join(self._pieces.pop(key)) + text
            if flag == "q":
                self._request(key, text)
            elif flag == "x":
                self._bye(key)
            elif flag in ("m", "r"):
                conn = self.host.conns.get(cid)
                if conn is None or conn.closed:
                    self._post(sender, cid, "x", "")
                else:
                    rid: Any = None
                    if conn.asked or conn.pending is not None:
                        m = _REPLY_ID.match(text)
                        if m is not None:
                            rid = json.loads(m.group(1))
                            conn.asked.pop(rid, None)
                            if isinstance(rid, int) and rid >= ANON:    # the edge's own id: taken off
                                text = text[:m.start(1) - len(',"id":')] + text[m.end(1):]
                    p = conn.pending
                    if p is not None and p.owner == sender and rid is not None and rid == conn.pending_id:
                        self._answered(conn, sender, text)
                    elif conn.remote is None or conn.remote.owner != sender:
                        continue      # from a binding let go (the client was told to resume): dropped
                    if text.startswith(_MOVED):   # the owner let go of the client (it always does with it)
                        conn.moved = True
                        conn.remote = None
                        if conn.pending is None:
                            conn.asked.clear()        # moved stands for what was in flight there
                        if conn.pending is None or conn.pending.owner != sender:
                            self._post(sender, cid, "x", "")   # it forgets its relayed connection
                    conn.send_text(text, replay=flag == "r")
            elif flag == "b":
                self._bound(sender, cid, text)

    def _answered(self, conn: Connection, owner: str, text: str) -> None:
        """The answer of process ``owner`` to ``conn``'s join, resume or watch: bound there, or
        refused."""
        conn.pending = None
        conn.settled.set()
        msg = json.loads(text)
        if msg.get("type") not in ("joined", "resumed", "watching"):
            return
        if conn.remote is not None and conn.remote.owner != owner:
            conn.detach()                      # tells the other owner
        elif conn.room is not None:
            conn.detach()                      # a seat or watch at this process
        seat = msg.get("seat")
        conn.remote = Remote(msg["table"], owner, seat if isinstance(seat, int) else None)
        conn.moved = False

    def _bound(self, owner: str, cid: int, text: str) -> None:
        """The owner bound (or unbound) client ``cid`` of this process at one of its tables."""
        table, seat = json.loads(text)
        conn = self.host.conns.get(cid)
        if conn is None or conn.closed:
            self._post(owner, cid, "x", "")
            return
        if conn.remote is None or conn.remote.owner != owner:
            if conn.pending is None or conn.pending.owner != owner:
                self._post(owner, cid, "x", "")  # a binding given up on (the client resumes)
            return                             # (a new binding is made by the answer, _answered)
        conn.remote = None if table is None else Remote(table, owner, seat)
        if table is None and (conn.pending is None or conn.pending.owner != owner):
            self._post(owner, cid, "x", "")      # let go there (replaced): it forgets its relayed connection

    def _request(self, key: tuple[str, int], text: str) -> None:
        rconn = self.remotes.get(key)
        if rconn is None:
            rconn = self.remotes[key] = RemoteConnection(self, *key)
        rconn.requests.append(json.loads(text))
        if rconn.worker is None or rconn.worker.done():
            rconn.worker = asyncio.create_task(self._work(rconn))

    async def _work(self, rconn: RemoteConnection) -> None:
        while rconn.requests and not rconn.closed:
            await self.host.dispatch(rconn, rconn.requests.popleft())

    def _bye(self, key: tuple[str, int]) -> None:
        rconn = self.remotes.pop(key, None)
        if rconn is None:
            return
        rconn.requests.clear()
        rconn.closed = True                   # sends nothing more (a new one may serve the same client)

        async def detach() -> None:
            room = rconn.room
            if room is not None:
                async with room.lock:
                    rconn.detach()
            rconn.closed = True
        asyncio.get_running_loop().create_task(detach())
