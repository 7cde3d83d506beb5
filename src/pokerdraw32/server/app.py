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
import logging
import secrets
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import __version__
from ..errors import IllegalActionError, PokerDraw32Error
from ..history import HandHistory, HistoryWriter
from .config import DEFAULT_TABLES, ServerSettings, TableConfig
from .protocol import PROTOCOL_VERSION, Limits, ProtocolError, RateLimiter, action_of, dumps, field, read_message
from .room import Entry, Player, Room
from .store import StorageError, Store, open_store

__all__ = ["Connection", "GameServer", "create_app"]

log = logging.getLogger("pokerdraw32.server")
STATIC = Path(__file__).with_name("static")
PAGE_FILES = ("index.html", "table.html", "table.js", "table.css")
FRAME_MESSAGES = 256
"""Most messages in one outgoing WebSocket frame (PROTOCOL.md, Frames)."""
FRAME_CHARS = 64 * 1024
"""Most characters of JSON in one outgoing frame, unless a single message is larger."""


class Connection:
    """One client's WebSocket: its seat (``player``) or the table it watches (``room``), its
    rate limiter and its outgoing queue (a client that stops reading is disconnected, never
    allowed to hold up a table).

    Outgoing messages are queued as JSON text; the sender task writes everything queued when it
    runs as one WebSocket frame (PROTOCOL.md, Frames): a single message as itself, several as a
    JSON array of them, in order.  A published change (its log entries, the seat's ``state``
    and, for the requester, the ``ok``) is queued in one go, so it reaches each connection as
    one frame.  A frame holds at most :data:`FRAME_MESSAGES` messages and, unless one message
    alone is larger, :data:`FRAME_CHARS` characters (a long replay goes out in several)."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        self.limits = limits
        # what is queued for the client: (JSON text, is a replayed entry)
        self.out: deque[tuple[str, bool]] = deque()
        self.wanted = asyncio.Event()          # set when something is queued (or the connection must close)
        self.kicked = False                    # a client that does not read: close the connection
        self.replaying = 0           # replayed entries queued: they do not count against send_queue
        self.held: list[str] | None = None     # live messages held back while a replay is sent
        self.replays = RateLimiter(limits.replay_rate, limits.max_replay)   # entries replayed
        self.room: Room | None = None
        self.player: Player | None = None
        self.rate = RateLimiter(limits.rate, limits.burst)
        self.closed = False
        self.frames = 0                        # frames sent (for tests and measurements)

    def send(self, msg: dict[str, Any], *, replay: bool = False) -> None:
        """Queue ``msg`` (its ``"v"`` set if missing); see :meth:`send_text`."""
        if self.closed:
            return
        msg.setdefault("v", PROTOCOL_VERSION)
        self.send_text(dumps(msg), replay=replay)

    def send_text(self, text: str, *, replay: bool = False) -> None:
        """Queue one message already serialised as JSON ``text`` (an object with ``"v"``).  More
        than ``send_queue`` live messages waiting (a client that does not read) closes the
        connection; the client resumes later.  A resume's replayed entries (``replay=True``) are
        not counted: a client far behind can always catch up."""
        if self.closed:
            return
        if self.held is not None and not replay:
            self.held.append(text)
            return
        if not replay and len(self.out) - self.replaying >= self.limits.send_queue:
            self.closed = self.kicked = True
            log.warning("a client does not read its messages: disconnected")
            self.wanted.set()
            return
        self.replaying += replay
        self.out.append((text, replay))
        self.wanted.set()

    def send_texts(self, texts: list[str]) -> None:
        """Queue several messages already serialised, in order: as :meth:`send_text` of each
        (a client that does not read is disconnected once more than ``send_queue`` live
        messages wait)."""
        if self.closed:
            return
        if self.held is not None:
            self.held.extend(texts)
            return
        if len(self.out) - self.replaying + len(texts) > self.limits.send_queue:
            self.closed = self.kicked = True
            log.warning("a client does not read its messages: disconnected")
            self.wanted.set()
            return
        self.out.extend([(text, False) for text in texts])
        self.wanted.set()

    def _frame(self) -> str:
        """Take the next frame's messages off the queue: one message as itself, several as a
        JSON array."""
        out = self.out
        text, replayed = out.popleft()
        self.replaying -= replayed
        if not out:
            return text
        parts = [text]
        size = len(text)
        while out and len(parts) < FRAME_MESSAGES and size + len(out[0][0]) < FRAME_CHARS:
            text, replayed = out.popleft()
            self.replaying -= replayed
            parts.append(text)
            size += len(text) + 1
        return parts[0] if len(parts) == 1 else "[" + ",".join(parts) + "]"

    async def sender(self) -> None:
        try:
            while True:
                await self.wanted.wait()
                self.wanted.clear()
                while self.out and not self.kicked:
                    self.frames += 1
                    await self.ws.send_text(self._frame())
                if self.kicked:
                    self.out.clear()
                    await self.ws.close(code=1013, reason="not reading: resume with your token")
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    def release(self) -> None:
        """The replay is sent: the live messages held back meanwhile follow."""
        held, self.held = self.held or [], None
        for text in held:
            self.send_text(text)

    def detach(self) -> None:
        """Stop holding a seat or watching."""
        if self.player is not None and self.room is not None and self.player.conn is self:
            self.player.conn = None
            self.room.disconnected(self.player)
        if self.room is not None:
            self.room.watchers.discard(self)
        self.player = None
        self.room = None


class GameServer:
    """The rooms and the database.  :meth:`start` restores every stored table and creates the
    configured ones that are not stored yet; :meth:`stop` stops the clocks and closes the
    database (every accepted request is already committed)."""

    def __init__(self, db: str, tables: list[TableConfig] | None = None, settings: ServerSettings | None = None,
                 limits: Limits | None = None, admin_token: str | None = None) -> None:
        self.db = db
        self.admin_token = admin_token or None
        """The bearer token of ``/api/tables/<id>/hands.phhs`` (None: that route refuses everyone)."""
        self.configs = tables if tables is not None else [TableConfig.from_dict(t) for t in DEFAULT_TABLES]
        self.settings = settings or ServerSettings()
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.store: Store | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._replaying = asyncio.Semaphore(2)     # replays being sent at once, server-wide
        self.ready = False
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop the server runs in (once started)."""

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.store = store = await asyncio.to_thread(open_store, self.db)
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
        for room in self.rooms.values():
            self._tasks.append(asyncio.create_task(room.drive(), name=f"table {room.id}"))
        self.ready = True
        log.info("pokerdraw32 server: %d table(s) from %s", len(self.rooms), self.db)

    async def stop(self) -> None:
        for room in self.rooms.values():
            room.closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for room in self.rooms.values():      # wait for requests in flight (their commits)
            async with room.lock:
                pass
        if self.store is not None:
            await asyncio.to_thread(self.store.close)

    def table_info(self) -> list[dict[str, Any]]:
        out = []
        for room in self.rooms.values():
            t = room.table
            c = room.config
            out.append({"id": room.id, "title": c.title, "rules": c.rules, "seats": t.seat_count,
                        "players": [{"seat": s, "name": p.name, "bot": p.bot} for s, p in sorted(room.players.items())],
                        "min_buy_in": t.min_buy_in, "max_buy_in": t.max_buy_in,
                        "default_buy_in": TableConfig.default_buy_in(t), "decision_time": t.decision_time,
                        "raise_time": t.raise_time, "time_bank": c.time_bank, "hand_number": t.hand_count})
        return out

    def room(self, table_id: Any) -> Room:
        if not isinstance(table_id, str) or table_id not in self.rooms:
            raise ProtocolError("no_such_table", f"no table {table_id!r}" if isinstance(table_id, str) and
                                len(table_id) <= 64 else "no such table")
        return self.rooms[table_id]

    # ------------------------------------------------------------------ one client
    async def serve(self, ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws, self.limits)
        sender = asyncio.create_task(conn.sender())
        conn.send({"type": "welcome", "server": f"pokerdraw32 {__version__}", "limits": self.limits.to_dict(),
                   "tables": self.table_info()})
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                rid = None
                try:
                    if not conn.rate.allow():
                        raise ProtocolError("rate_limited", f"at most {self.limits.rate:g} messages a second "
                                            f"(bursts of {self.limits.burst}); message dropped")
                    msg = read_message(message.get("text", message.get("bytes")), self.limits)
                    rid = msg.get("id")
                    await self.handle(conn, msg)
                except ProtocolError as exc:
                    conn.send(_error(exc.code, exc.message, rid))
                except StorageError as exc:
                    conn.send(_error("storage", str(exc), rid))
                except PokerDraw32Error as exc:
                    code = "illegal" if isinstance(exc, IllegalActionError) else "table_error"
                    conn.send(_error(code, str(exc), rid))
                except Exception:                   # a bug: say so, keep the connection and the table
                    log.exception("request %r failed", rid)
                    conn.send(_error("internal", "the server failed on this request (logged); nothing was "
                                                 "applied unless an ok follows", rid))
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            conn.closed = True
            if conn.room is not None:
                async with conn.room.lock:
                    conn.detach()
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def handle(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        rid = msg.get("id")
        if kind == "ping":
            conn.send(_reply("pong", rid))
            return
        if kind == "tables":
            conn.send(_reply("tables", rid, tables=self.table_info()))
            return
        if kind == "join":
            await self._join(conn, msg, rid)
        elif kind == "resume":
            await self._resume(conn, msg, rid)
        elif kind == "watch":
            await self._watch(conn, msg, rid)
        else:
            await self._seated(conn, msg, rid)

    async def _join(self, conn: Connection, msg: dict[str, Any], rid: Any) -> None:
        room = self.room(msg.get("table"))
        name = field(msg, "name", "str")
        seat = field(msg, "seat", "seat", required=False)
        if conn.player is not None:
            raise ProtocolError("already_seated", f"join: this connection holds seat {conn.player.seat} of table "
                                f"{conn.room.id if conn.room else '?'}; leave it first, or join from another "
                                "connection")
        chips = field(msg, "chips", "int", required=False)
        wait = field(msg, "wait", "bool", required=False, default=False)
        async with room.lock:
            player, token = await room.join(name, seat, chips, wait)
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
            caught = self._catch_up(conn, room, None, last, "watch", _reply("watching", rid, table=room.id))
        await self._replay(conn, room, None, last, caught)

    async def _seated(self, conn: Connection, msg: dict[str, Any], rid: Any) -> None:
        """The requests of a seated player: act, showdown, sit_out, sit_in, add_chips, leave."""
        kind = msg["type"]
        room, player = conn.room, conn.player
        if room is None or player is None:
            raise ProtocolError("not_seated", f"{kind}: join a table or resume your seat first")
        async with room.lock:
            if conn.player is not player or room.players.get(player.seat) is not player:
                raise ProtocolError("not_seated", f"{kind}: you no longer hold seat {player.seat}")
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

    # ------------------------------------------------------------------ HTTP
    async def tables_json(self, request: Request) -> Response:
        return JSONResponse({"v": PROTOCOL_VERSION, "tables": self.table_info()})

    async def hands_phhs(self, request: Request) -> Response:
        """The table's finished hands as one PHH file: every card dealt, folded and mucked hands
        included (the dealer's record, for audits), so only for the bearer of the admin token."""
        table_id = request.path_params["id"]
        if table_id not in self.rooms or self.store is None:
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
            for _, text in store.hands(table_id):
                writer.write(HandHistory.loads(text))
            return out.getvalue()
        return PlainTextResponse(await asyncio.to_thread(build), media_type="application/toml")

    async def healthz(self, request: Request) -> Response:
        return PlainTextResponse("ok" if self.ready else "starting", status_code=200 if self.ready else 503)


def _reply(kind: str, rid: Any, **fields: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": kind, "v": PROTOCOL_VERSION}
    if rid is not None:
        msg["id"] = rid
    msg.update(fields)
    return msg


def _error(code: str, message: str, rid: Any = None) -> dict[str, Any]:
    return _reply("error", rid, code=code, message=message)


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
        if request.path_params["id"] not in server.rooms:
            return PlainTextResponse("no such table", status_code=404)
        return FileResponse(STATIC / "table.html")

    routes = [
        Route("/", lobby),
        Route("/table/{id}", table_page),
        Route("/api/tables", server.tables_json),
        Route("/api/tables/{id}/hands.phhs", server.hands_phhs),
        Route("/healthz", server.healthz),
        WebSocketRoute("/ws", server.serve),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
