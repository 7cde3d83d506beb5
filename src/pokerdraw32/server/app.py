"""The ASGI application: the WebSocket endpoint, the pages, and the server that owns the rooms.

Routes:

* ``/ws``: the game protocol (PROTOCOL.md), one WebSocket per client;
* ``/``: the lobby page; ``/table/{id}``: the table page; ``/static/...``: their files;
* ``/api/tables``: the tables as JSON; ``/api/tables/{id}/hands.phhs``: the table's finished
  hands as one PHH file (``pokerdraw32 replay`` reads it); ``/healthz``: 200 once the tables are
  restored.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..errors import IllegalActionError, PokerDraw32Error
from ..history import HistoryWriter
from ..table import Table
from .cluster import Cluster, moved
from .config import DEFAULT_TABLES, ServerSettings, TableConfig
from .connection import KICKED, AsgiSocket, Connection
from .protocol import PROTOCOL_VERSION, Limits, ProtocolError, action_of, dumps, field, read_message
from .room import Entry, Player, Room
from .store import StaleTableError, StorageError, Store, TableRow, open_store

__all__ = ["GameServer", "create_app"]   # (Connection, imported here too, is documented in .connection)

log = logging.getLogger("pokerdraw32.server")
STATIC = Path(__file__).with_name("static")
PAGE_FILES = ("index.html", "table.html", "table.js", "table-log.js", "table-amounts.js", "table.css")


class GameServer:
    """The rooms and the database.  :meth:`start` restores every stored table and creates the
    configured ones that are not stored yet; :meth:`stop` stops the clocks and closes the
    database (every accepted request is already committed)."""

    def __init__(self, db: str, tables: list[TableConfig] | None = None, settings: ServerSettings | None = None,
                 limits: Limits | None = None, admin_token: str | None = None, *, lease: float = 3.0,
                 address: str = "") -> None:
        self.db = db
        self.admin_token = admin_token or None
        """The bearer token of ``/api/tables/<id>/hands.phhs`` (None: that route refuses everyone)."""
        self.configs = tables if tables is not None else [TableConfig.from_dict(t) for t in DEFAULT_TABLES]
        self._listed = {c.id: i for i, c in enumerate(self.configs)}     # each table's place in the tables file
        self.settings = settings or ServerSettings()
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        """The tables this process runs (in a cluster: those it owns now)."""
        self.conns: dict[int, Connection] = {}
        """This process's client connections by number."""
        self._cids = itertools.count(1)
        self.store: Store | None = None
        self.cluster: Cluster | None = None
        """This process's part of the cluster (``--db postgresql://...``), else None."""
        self.lease = lease
        self.address = address
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._replaying = asyncio.Semaphore(2)     # replays being sent at once, server-wide
        self.ready = False
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop the server runs in (once started)."""

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.store = store = await asyncio.to_thread(open_store, self.db, self.lease)
        if self.db.startswith(("postgresql://", "postgres://")):
            await self._start_cluster(store)
            return
        given = {c.id: c for c in self.configs}
        for row in await asyncio.to_thread(store.load_tables):
            config = TableConfig.from_dict(row.config)
            if row.id in given and given[row.id] != config:
                log.warning("table %s: restored with the settings stored in the database; the settings given "
                            "for it now differ and are not used (a table's settings are fixed at its creation)",
                            row.id)
            self.rooms[row.id] = Room.restore(config, row.state, row.seq, store, self.settings)
        for config in self.configs:
            if config.id not in self.rooms:
                self.rooms[config.id] = await Room.create(config, store, self.settings)
        self.rooms = {tid: self.rooms[tid] for tid in sorted(self.rooms, key=self._lobby_key)}
        for room in self.rooms.values():
            self._run(room)
        self.ready = True
        log.info("pokerdraw32 server: %d table(s) from %s", len(self.rooms), self.db)

    async def _start_cluster(self, store: Store) -> None:
        """PostgreSQL: join the cluster; create the configured tables no process created yet
        (each owned by its creator), then take a share of the tables."""
        self.cluster = cluster = Cluster(self, self.db, lease=self.lease, address=self.address)
        stored = {row[0] for row in await store.table_rows()}
        for config in self.configs:
            if config.id in stored:
                continue
            try:
                room = await Room.create(config, store, self.settings, fence=(cluster.id, 1))
            except StorageError:
                if await store.load_table(config.id) is None:
                    raise
                continue                          # another process created it first
            cluster.owned[config.id] = 1
            self.rooms[config.id] = room
            room.on_stale = self._stale
            self._run(room)
        await cluster.start()
        self.ready = True
        log.info("pokerdraw32 server %s: %d of %d table(s) of the cluster on %s", cluster.id, len(self.rooms),
                 len(cluster.owners), self.db)

    def _run(self, room: Room) -> None:
        room.on_stale = self._stale
        self._drivers[room.id] = asyncio.create_task(room.drive(), name=f"table {room.id}")

    async def adopt(self, row: TableRow, fence: tuple[str, int] | None) -> None:
        """Run the stored table ``row`` (a cluster took it under the lease ``fence``).

        :raises StorageError: its stored state does not restore.
        """
        await self.drop(row.id, "reloaded")
        room = Room.restore(TableConfig.from_dict(row.config), row.state, row.seq, self.store_or_fail(),
                            self.settings, fence)
        self.rooms[row.id] = room
        self._run(room)

    async def drop(self, table_id: str, why: str) -> None:
        """Stop running the table (its requests in flight end first); its clients get ``moved``
        and are let go (PROTOCOL.md, Cluster)."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        room.closed = True
        task = self._drivers.pop(table_id, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        async with room.lock:
            for conn in room.connections():
                conn.send(moved(table_id, why))
                conn.detach()

    def _stale(self, room: Room) -> None:
        """The database holds a newer state of the room's table than the room: read it again
        (in a cluster, if this process still holds the lease)."""
        async def reload() -> None:
            if self.rooms.get(room.id) is not room:     # replaced meanwhile (a claim read it again)
                return
            try:
                await self.drop(room.id, "its state is read again from the database")
                if self.cluster is not None:
                    await self.cluster.reload(room.id)
                else:
                    row = await self.store_or_fail().load_table(room.id)
                    if row is not None:
                        await self.adopt(row, None)
            except StorageError as exc:       # the database away: in a cluster its lease was let go
                log.error("table %s: reading it again failed: %s", room.id, exc)
            except Exception:
                log.exception("table %s: reading it again failed", room.id)
        if self.rooms.get(room.id) is room:
            asyncio.get_running_loop().create_task(reload())

    def store_or_fail(self) -> Store:
        if self.store is None:
            raise StorageError("the server is not started")
        return self.store

    async def stop(self) -> None:
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.stop()
        for room in self.rooms.values():
            room.closed = True
        for task in self._drivers.values():
            task.cancel()
        for task in self._drivers.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for room in self.rooms.values():      # wait for requests in flight (their commits)
            async with room.lock:
                pass
        if self.store is not None:
            await asyncio.to_thread(self.store.close)

    def _lobby_key(self, tid: str) -> tuple[int, int, str]:
        """Where table ``tid`` comes in the lobby: the tables of the tables file in its order, then
        the others (stored from an earlier tables file) by id; the same before and after a restart."""
        place = self._listed.get(tid)
        return (1, 0, tid) if place is None else (0, place, "")

    def table_info(self) -> list[dict[str, Any]]:
        """The tables this process runs, as the lobby lists them (see :meth:`all_tables`)."""
        return [_info(room.config, room.table, [(s, p.name, p.bot) for s, p in sorted(room.players.items())])
                for room in self.rooms.values()]

    async def all_tables(self) -> list[dict[str, Any]]:
        """Every table, as the lobby lists them: in a cluster, those other processes own too
        (as last committed, read at most a second ago)."""
        if self.cluster is None:
            return self.table_info()
        mine = {d["id"]: d for d in self.table_info()}
        out = []
        for tid, config, state, _ in await self.cluster.table_rows():
            if tid in mine:
                out.append(mine[tid])
                continue
            c = TableConfig.from_dict(config)
            table = _config_table(c)
            players = [(int(d["seat"]), str(d["name"]), d["bot"]) for d in state["players"]]
            hands = state["hand_count"] if "hand_count" in state else state.get("table", {}).get("hand_count", 0)
            out.append(_info(c, table, players, int(hands)))       # (schema version 1: in the table)
        return sorted(out, key=lambda d: self._lobby_key(d["id"]))

    def has_table(self, table_id: str) -> bool:
        """Whether ``table_id`` is a table of this server (in a cluster: of any process)."""
        return table_id in self.rooms or (self.cluster is not None and table_id in self.cluster.owners)

    def room(self, table_id: Any) -> Room:
        if not isinstance(table_id, str) or table_id not in self.rooms:
            raise ProtocolError("no_such_table", f"no table {table_id!r}" if isinstance(table_id, str) and
                                len(table_id) <= 64 else "no such table")
        return self.rooms[table_id]

    # ------------------------------------------------------------------ one client
    async def serve(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
                    send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        """The ASGI application of ``/ws``: one client's WebSocket, its requests answered in
        order until it closes.  It speaks ASGI's WebSocket messages itself: each request is one
        ``receive``, each frame out one ``send`` (:class:`~pokerdraw32.server.connection.AsgiSocket`)."""
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        conn = Connection(AsgiSocket(send), self.limits, next(self._cids))
        conn.task = asyncio.current_task()
        client_closed = False
        self.conns[conn.cid] = conn
        if self.cluster is not None:
            conn.let_go = self.cluster.let_go
        try:
            try:
                tables = await self.all_tables()
            except StorageError:
                tables = self.table_info()
            conn.send({"type": "welcome", "server": f"pokerdraw32 {__version__}", "limits": self.limits.to_dict(),
                       "tables": tables})
            while not conn.closed:
                conn.idle = True          # a client let go while it does not read is cancelled here only
                message = await receive()
                conn.idle = False
                if message["type"] == "websocket.disconnect":
                    client_closed = True
                    break
                rid = None
                try:
                    if not conn.rate.allow():
                        raise ProtocolError("rate_limited", f"at most {self.limits.rate:g} messages a second "
                                            f"(bursts of {self.limits.burst}); message dropped")
                    msg = read_message(message.get("text", message.get("bytes")), self.limits)
                except ProtocolError as exc:
                    conn.send(_error(exc.code, exc.message, rid))
                    continue
                if conn.pending is not None and self.cluster is not None:
                    # a join, resume or watch relayed to another process is not answered yet: the
                    # next request waits for it, as a single process answers a connection's requests
                    # in order (else it would go on the binding being left, or seat the client twice)
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(conn.settled.wait(), 3 * self.cluster.lease + 3.0)
                await self.dispatch(conn, msg)
        except (RuntimeError, OSError):
            pass
        except asyncio.CancelledError:
            conn.idle = False
            if not conn.stuck:
                raise
            # let go while it does not read (Connection.let_go_stuck): returning lets the ASGI
            # server close the WebSocket, which no close message of ours could (its send waits);
            # a cancellation besides that one (the server stopping) goes on
            task = asyncio.current_task()
            if task is not None and hasattr(task, "uncancel") and task.uncancel() > 0:
                raise
        finally:
            await self.gone(conn)
            if not client_closed and not conn.stuck:
                # kicked during its own request, this close goes out before the outbox's: the same code
                code, reason = (1013, KICKED) if conn.kicked else (1000, "")
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": code, "reason": reason})

    async def gone(self, conn: Connection) -> None:
        """``conn``'s WebSocket closed: it is forgotten, and lets go of its seat or watch (here
        under the table's lock; at another process's table, that process is told)."""
        conn.closed = True
        self.conns.pop(conn.cid, None)
        if conn.room is not None:
            async with conn.room.lock:
                conn.detach()
        elif conn.remote is not None:
            conn.detach()

    async def dispatch(self, conn: Connection, msg: dict[str, Any]) -> None:
        """Handle the request ``msg`` of ``conn``: refusals are answered as ``error`` messages
        (PROTOCOL.md), and nothing was applied; a bug is logged and answered ``internal``."""
        rid = msg.get("id")
        try:
            await self.handle(conn, msg)
        except ProtocolError as exc:
            conn.send(_error(exc.code, exc.message, rid))
        except StorageError as exc:
            bound = conn.room is not None and msg.get("table") in (None, conn.room.id)
            if self.cluster is not None and isinstance(exc.__cause__, StaleTableError) and not bound:
                # the table's lease went to another process (this one was too slow to renew it) or
                # a lost commit went through: nothing applied, and the table is read again; a client
                # bound to it gets "moved" (drop), one that was not (a join) must hear it here
                log.info("request %r: %s", rid, exc)
                conn.send(_error("unavailable", "the table is moving to another server process or being read "
                                                "again; nothing was applied: resume (or join with your key) and "
                                                "try again", rid))
            else:
                # the database's own words (its host, its port, its errors) go to the log, not to clients
                log.warning("request %r: %s", rid, exc)
                conn.send(_error("storage", "the database is unavailable or refused the change; nothing was "
                                            "applied: try again", rid))
        except PokerDraw32Error as exc:
            code = "illegal" if isinstance(exc, IllegalActionError) else "table_error"
            conn.send(_error(code, str(exc), rid))
        except Exception:                   # a bug: say so, keep the connection and the table
            log.exception("request %r failed", rid)
            conn.send(_error("internal", "the server failed on this request (logged); nothing was "
                                         "applied unless an ok follows", rid))

    async def handle(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        rid = msg.get("id")
        if kind == "ping":
            conn.send(_reply("pong", rid))
            return
        if kind == "tables":
            conn.send(_reply("tables", rid, tables=await self.all_tables()))
            return
        if self.cluster is not None and self._routed(conn, msg):
            return
        if kind == "join":
            await self._join(conn, msg, rid)
        elif kind == "resume":
            await self._resume(conn, msg, rid)
        elif kind == "watch":
            await self._watch(conn, msg, rid)
        else:
            await self._seated(conn, msg, rid)

    def _routed(self, conn: Connection, msg: dict[str, Any]) -> bool:
        """In a cluster: send the request to the process that owns its table, if that is not
        this one (True), else leave it to this process (False)."""
        assert self.cluster is not None
        kind = msg["type"]
        if kind in ("join", "resume", "watch"):
            table = msg.get("table")
            if not isinstance(table, str) or table in self.rooms or table not in self.cluster.owners:
                return False               # this process's, or no such table (said by the usual path)
            if conn.ws is None:            # a request relayed from another process: no second hop
                raise ProtocolError("unavailable", f"table {table} moved to another server process: resume with "
                                                   f"your token and last seq (or watch again) in a moment, through "
                                                   f"any server process")
            owner = self.cluster.owner_of(table)
            if owner is None or owner == self.cluster.id:   # this one, taking the table (back) or letting it go
                raise ProtocolError("unavailable", f"table {table} has no server process at the moment (a failover is "
                                                   f"under way): try again in a few seconds")
            if kind == "join" and (conn.player is not None or (conn.remote is not None and conn.remote.seat is not None
                                                                 and conn.remote.owner != owner)):
                seated = conn.remote.table if conn.remote is not None else conn.room.id if conn.room else "?"
                raise ProtocolError("already_seated", f"join: this connection holds a seat at table {seated}; leave "
                                                      f"it first, or join from another connection")
            self.cluster.forward(conn, owner, msg)
            return True
        bound = conn.pending or conn.remote   # behind a join, resume or watch: where it goes, in order
        if bound is not None:
            self.cluster.forward(conn, bound.owner, msg)
            return True
        return False

    async def _join(self, conn: Connection, msg: dict[str, Any], rid: Any) -> None:
        room = self.room(msg.get("table"))
        name = field(msg, "name", "str")
        seat = field(msg, "seat", "seat", required=False)
        if conn.player is not None:
            raise ProtocolError("already_seated", f"join: this connection holds seat {conn.player.seat} of table "
                                f"{conn.room.id if conn.room else '?'}; leave it first, or join from another "
                                "connection")
        if conn.remote is not None and conn.remote.seat is not None:     # at another process's table
            raise ProtocolError("already_seated", f"join: this connection holds seat {conn.remote.seat} of table "
                                f"{conn.remote.table}; leave it first, or join from another connection")
        chips = field(msg, "chips", "int", required=False)
        wait = field(msg, "wait", "bool", required=False, default=False)
        key = field(msg, "key", "str", required=False)
        async with room.lock:
            _open(room)
            _still_there(conn, "join")
            player, token = await room.join(name, seat, chips, wait, key)
            self._bind(conn, room, player)
            conn.send(_reply("joined", rid, table=room.id, seat=player.seat, token=token, seq=room.seq))
            conn.send(room.state_for(player))

    async def _resume(self, conn: Connection, msg: dict[str, Any], rid: Any) -> None:
        room = self.room(msg.get("table"))
        token = msg.get("token")
        if not isinstance(token, str) or not 1 <= len(token) <= 128:
            raise ProtocolError("bad_message", "resume: token must be the seat token the server gave")
        last = field(msg, "last_seq", "seq", required=False, default=0)
        async with room.lock:
            _open(room)
            player = room.by_token(token)
            if player is None:
                raise ProtocolError("bad_token", f"no seat at table {room.id} has this token (left, or never joined)")
            caught = self._catch_up(conn, room, player, last, "resume",
                                    _reply("resumed", rid, table=room.id, seat=player.seat))
            with contextlib.suppress(StorageError):   # else the seat stays sat out; sit_in can ask again
                await room.returned(player)
        await self._replay(conn, room, player, last, caught)

    async def _watch(self, conn: Connection, msg: dict[str, Any], rid: Any) -> None:
        room = self.room(msg.get("table"))
        last = field(msg, "last_seq", "seq", required=False, default=room.seq)
        async with room.lock:
            _open(room)
            caught = self._catch_up(conn, room, None, last, "watch", _reply("watching", rid, table=room.id))
        await self._replay(conn, room, None, last, caught)

    async def _seated(self, conn: Connection, msg: dict[str, Any], rid: Any) -> None:
        """The requests of a seated player: act, showdown, sit_out, sit_in, add_chips, leave."""
        kind = msg["type"]
        room, player = conn.room, conn.player
        if room is None or player is None:
            if conn.moved:      # sent before the client read its "moved": not_seated would read as a lost seat
                raise ProtocolError("unavailable", f"{kind}: the table moved to another server process: resume "
                                                   f"with your token and last seq, through any server process")
            raise ProtocolError("not_seated", f"{kind}: join a table or resume your seat first")
        async with room.lock:
            _open(room)
            # a commit refused meanwhile put the room back to its last committed state, with new
            # Player objects (the connection's own among them): the seat is the connection's now
            seat, player = player.seat, conn.player
            if conn.room is not room or player is None or room.players.get(player.seat) is not player:
                raise ProtocolError("not_seated", f"{kind}: you no longer hold seat {seat}")
            if kind == "act":
                action = action_of(msg)
                seq = field(msg, "seq", "seq", required=False)
                last = await room.act(player, action, seq)
            elif kind == "showdown":
                last = await room.showdown(player, field(msg, "show", "bool?"))
            elif kind == "sit_out":
                last = await room.sit_out(player)
            elif kind == "sit_in":
                last = await room.sit_out(player, out=False)
            elif kind == "add_chips":
                last = await room.add_chips(player, field(msg, "chips", "int"))
            elif kind == "leave":
                _, last = await room.leave(player)      # paid out now or at the hand's end: a "left" message
            else:  # pragma: no cover - read_message knows the types
                raise ProtocolError("bad_message", f"unknown message type {kind!r}")
            conn.send(_reply("ok", rid, seq=last))

    def _catch_up(self, conn: Connection, room: Room, player: Player | None, last: int, what: str,
                  reply: dict[str, Any]) -> tuple[list[Entry] | None, int, dict[str, Any]]:
        """``resume`` and ``watch``, with ``room``'s lock held: check ``last`` and the
        connection's replay allowance, make ``conn`` hold the seat (or watch) and send ``reply``
        (with the table's ``seq``); live messages are held back from then on until
        :meth:`_replay` has sent the entries after ``last`` and the ``state`` returned here.
        Returns the entries if they are in memory (else None: read from the database), the last
        entry to replay, and the state."""
        _still_there(conn, what)
        if last > room.seq:
            raise ProtocolError("bad_message", f"{what}: last_seq {last} is beyond the table's log ({room.seq})")
        count = room.seq - last
        limits = self.limits
        if count > limits.max_replay:
            raise ProtocolError("too_far_behind", f"{what}: {count} entries asked for, more than "
                                f"{limits.max_replay}; ask from last_seq {room.seq - limits.max_replay} or later")
        if conn.held is not None:
            raise ProtocolError("busy", f"{what}: the last replay is still being sent")
        if not conn.replays.allow(count):
            raise ProtocolError("rate_limited", f"{what}: at most {limits.max_replay} entries replayed at once "
                                f"and {limits.replay_rate:g} a second; ask again later or from a later last_seq")
        entries = room.recent_after(last, room.seq)
        self._bind(conn, room, player)
        conn.send({**reply, "seq": room.seq})
        conn.held = []
        return entries, room.seq, room.state_for(player)

    async def _replay(self, conn: Connection, room: Room, player: Player | None, last: int,
                      caught: tuple[list[Entry] | None, int, dict[str, Any]]) -> None:
        """Send the entries ``caught`` names and its state, a page at a time (the event loop
        serves others between pages; database pages are read on the store's read thread), then
        the live messages held back meanwhile.  Without the room's lock."""
        entries, upto, state = caught
        try:
            async with self._replaying:
                while last < upto and not conn.closed:
                    page = entries if entries is not None else await room.stored_after(last, upto)
                    if not page:
                        break
                    for i, entry in enumerate(page):
                        conn.send(room.entry_for(entry, player), replay=True)
                        if i % 256 == 255:
                            await asyncio.sleep(0)
                    last = page[-1][0]
                    if entries is not None:
                        break
                conn.send(state, replay=True)
        finally:
            conn.release()

    @staticmethod
    def _bind(conn: Connection, room: Room, player: Player | None) -> None:
        """Make ``conn`` hold ``player``'s seat (or watch ``room``), letting go of what it held; called
        with ``room``'s lock, once the request has succeeded.  A connection that held the seat
        before is told it was replaced.  (Letting go of another table's seat needs no lock of
        that table: a room reads its players' connections only when it publishes.)"""
        conn.detach()
        if player is not None:
            old = player.conn
            if old is not None and old is not conn:
                old.player = None
                old.room = None
                old.send(_error("replaced", f"seat {player.seat} of table {room.id} was taken up by another "
                                            f"connection with its token"))
            player.conn = conn
            player.gone_at = None
        else:
            room.watchers.add(conn)
        conn.room = room
        conn.player = player
        conn.moved = False

    # ------------------------------------------------------------------ HTTP
    async def tables_json(self, request: Request) -> Response:
        try:
            tables = await self.all_tables()
        except StorageError as exc:          # a cluster's lobby reads the database: it is away
            log.warning("/api/tables: %s", exc)
            return JSONResponse({"v": PROTOCOL_VERSION, "error": "storage",
                                 "message": "the database cannot be read now: try again"}, status_code=503)
        return JSONResponse({"v": PROTOCOL_VERSION, "tables": tables})

    async def cluster_json(self, request: Request) -> Response:
        """``/api/cluster``: this process's id, the live processes and each table's owner (a
        single process: itself, owning every table)."""
        c = self.cluster
        if c is None:
            return JSONResponse({"v": PROTOCOL_VERSION, "server": None, "servers": [],
                                 "tables": dict.fromkeys(self.rooms)})
        return JSONResponse({"v": PROTOCOL_VERSION, "server": c.id, "servers": sorted(c.live),
                             "tables": {t: c.owner_of(t) for t in sorted(c.owners)},
                             "mine": sorted(self.rooms)})

    async def hands_phhs(self, request: Request) -> Response:
        """The table's finished hands as one PHH file: every card dealt, folded and mucked hands
        included (the dealer's record, for audits), so only for the bearer of the admin token."""
        table_id = request.path_params["id"]
        if not self.has_table(table_id) or self.store is None:
            return PlainTextResponse("no such table", status_code=404)
        given = request.headers.get("authorization", "").encode()
        if self.admin_token is None or not secrets.compare_digest(given, f"Bearer {self.admin_token}".encode()):
            return PlainTextResponse("hand histories show every player's cards: they are served only with the "
                                     "header 'Authorization: Bearer <token>', the token the server was started with "
                                     "(environment variable POKERDRAW32_ADMIN_TOKEN)\n", status_code=403)
        store = self.store

        def build() -> str:                   # off the event loop: thousands of hands take seconds
            out = io.StringIO()
            writer = HistoryWriter(out)
            for _, history in store.hands(table_id):
                writer.write(history)
            return out.getvalue()
        try:
            text = await asyncio.to_thread(build)
        except StorageError as exc:
            log.warning("hand archive: %s", exc)
            return PlainTextResponse("the database cannot be read now: try again\n", status_code=503)
        return PlainTextResponse(text, media_type="application/toml")

    async def healthz(self, request: Request) -> Response:
        return PlainTextResponse("ok" if self.ready else "starting", status_code=200 if self.ready else 503)


_CONFIG_TABLES: dict[str, Table] = {}


def _open(room: Room) -> None:
    """A request that waited for ``room``'s lock while this process let the table go (a
    cluster): answered ``moved``, and nothing is applied (the room is no longer the table's)."""
    if room.closed:
        raise ProtocolError("moved", f"table {room.id} moved to another server process: resume with your token and "
                                     f"last seq (or watch again), through any server process")


def _config_table(config: TableConfig) -> Table:
    """An empty engine table of ``config`` (cached: the lobby shows its limits)."""
    key = dumps(config.to_dict())
    t = _CONFIG_TABLES.get(key)
    if t is None:
        if len(_CONFIG_TABLES) > 1024:
            _CONFIG_TABLES.clear()
        t = _CONFIG_TABLES[key] = config.new_table()
    return t


def _info(c: TableConfig, t: Table, players: list[tuple[int, str, str | None]],
          hand_number: int | None = None) -> dict[str, Any]:
    return {"id": c.id, "title": c.title, "rules": c.rules, "seats": t.seat_count,
            "players": [{"seat": s, "name": name, "bot": bot} for s, name, bot in players],
            "min_buy_in": t.min_buy_in, "max_buy_in": t.max_buy_in,
            "default_buy_in": TableConfig.default_buy_in(t), "decision_time": t.decision_time,
            "raise_time": t.raise_time, "time_bank": c.time_bank,
            "hand_number": t.hand_count if hand_number is None else hand_number}


def _reply(kind: str, rid: Any, **fields: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": kind, "v": PROTOCOL_VERSION}
    if rid is not None:
        msg["id"] = rid
    msg.update(fields)
    return msg


def _still_there(conn: Connection, what: str) -> None:
    """Refuse to seat (or let watch) a connection that closed while its request waited for the
    table's lock: a client of another process whose goodbye overtook its request (the seat would
    be held by a dead connection, never sat out after the grace period)."""
    if conn.closed:
        raise ProtocolError("not_seated", f"{what}: the connection closed meanwhile")


def _error(code: str, message: str, rid: Any = None) -> dict[str, Any]:
    return _reply("error", rid, code=code, message=message)


class _AsgiEndpoint:
    """A route's endpoint that Starlette calls as an ASGI application (an object, not a function:
    Starlette wraps a function in its WebSocket class)."""

    __slots__ = ("app",)

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        return self.app(scope, receive, send)


class _SocketFirst:
    """ASGI middleware ahead of Starlette's exception handling and routing: a WebSocket to
    ``/ws`` goes straight to the game server (:meth:`GameServer.serve`), so that each frame out
    is one call of the ASGI server's ``send`` (Starlette's exception middleware wraps ``send``
    in a coroutine of its own, a call more per frame).  Everything else goes on to the app, the
    ``/ws`` route included for a path this does not recognise (none today)."""

    __slots__ = ("app", "serve")

    def __init__(self, app: Callable[..., Awaitable[None]], serve: Callable[..., Awaitable[None]]) -> None:
        self.app = app
        self.serve = serve

    def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            return self.serve(scope, receive, send)
        return self.app(scope, receive, send)


def create_app(server: GameServer) -> Starlette:
    """The Starlette application serving ``server`` (started and stopped with the app).

    :raises RuntimeError: the page's files are not installed (a broken install).
    """
    missing = [name for name in PAGE_FILES if not (STATIC / name).is_file()]
    if missing:
        raise RuntimeError(f"the server's page files are missing from {STATIC}: {', '.join(missing)} "
                           f"(reinstall pokerdraw32[server])")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(request: Request) -> Response:
        if not server.has_table(request.path_params["id"]):
            return PlainTextResponse("no such table", status_code=404)
        return FileResponse(STATIC / "table.html")

    routes = [
        Route("/", lobby),
        Route("/table/{id}", table_page),
        Route("/api/tables", server.tables_json),
        Route("/api/tables/{id}/hands.phhs", server.hands_phhs),
        Route("/api/cluster", server.cluster_json),
        Route("/healthz", server.healthz),
        WebSocketRoute("/ws", _AsgiEndpoint(server.serve)),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(_SocketFirst, serve=server.serve)])
