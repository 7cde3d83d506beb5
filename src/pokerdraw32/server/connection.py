"""One client's WebSocket as the server sees it (:class:`Connection`): the seat it holds or the
table it watches, its rate limits, and its outgoing queue, sent as one frame per change
(PROTOCOL.md, Frames).

In a cluster (:mod:`pokerdraw32.server.cluster`) a connection may hold a seat at a table another
server process owns (:attr:`Connection.remote`), and the owner keeps a
:class:`~pokerdraw32.server.cluster.RemoteConnection` (a subclass) for it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ._loop import running_loop
from .protocol import PROTOCOL_VERSION, Limits, RateLimiter, dumps

if TYPE_CHECKING:
    from .room import Player, Room

__all__ = ["FRAME_CHARS", "FRAME_HOLD", "FRAME_MESSAGES", "KICKED", "AsgiSocket", "Connection", "Outbox", "Remote",
           "Socket"]

log = logging.getLogger("pokerdraw32.server")

FRAME_MESSAGES = 256
"""Most messages in one outgoing WebSocket frame (PROTOCOL.md, Frames)."""
FRAME_CHARS = 64 * 1024
"""Most characters of JSON in one outgoing frame, unless a single message is larger."""
FRAME_HOLD = 0.05
"""Seconds after its last frame during which a connection whose seat is not to act gets no
other (PROTOCOL.md, Frames): changes published meanwhile wait and go out together in one frame
at the end of that time, or at once with anything the connection must not wait for (the answer
to its request, its turn to act).  At a person's pace every change still goes out at once; at a
bot's pace the other seats and the onlookers get one frame per hold instead of one per change.
50 ms, below what a person notices: ``python bench/server_load.py --hands 1500``, 2.3 frames
received per action against 2.6 at 20 ms (each frame costs the server a system call and the
WebSocket layer's work)."""
KICKED = "not reading: resume with your token"
"""The reason of the close (code 1013) of a client that does not read its messages."""
_LIVE = itertools.repeat(False)
"""``(text, False)`` pairs with ``zip``: live messages, not replayed."""


class Socket(Protocol):
    """What a :class:`Connection` writes to: a WebSocket's sending side."""

    def send_text(self, text: str) -> Awaitable[None]:
        """Send ``text`` as one text frame."""

    def close(self, code: int = 1000, reason: str = "") -> Awaitable[None]:
        """Close the WebSocket with ``code`` and ``reason``."""


class AsgiSocket:
    """A WebSocket's sending side over the ASGI ``send`` callable of its connection (the ASGI
    WebSocket messages ``websocket.send`` and ``websocket.close``).

    The server answers the ASGI messages itself rather than through a framework's WebSocket
    object: a frame costs one call of the ASGI server's ``send``.  Sending to a client that has
    gone raises the ASGI server's error (uvicorn: an ``OSError``), or ``RuntimeError`` after
    the close."""

    __slots__ = ("_send",)

    def __init__(self, send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        self._send = send

    def send_text(self, text: str) -> Awaitable[None]:
        return self._send({"type": "websocket.send", "text": text})

    def close(self, code: int = 1000, reason: str = "") -> Awaitable[None]:
        return self._send({"type": "websocket.close", "code": code, "reason": reason})


@dataclass(frozen=True)
class Remote:
    """Where a connection is bound at another server process of the cluster: the ``table``, its
    ``owner`` (the process's id) and the ``seat`` held there (None: watching)."""

    table: str
    owner: str
    seat: int | None


class Connection:
    """One client's WebSocket: its seat (``player``) or the table it watches (``room``), its
    rate limiter and its outgoing queue (a client that stops reading is disconnected, never
    allowed to hold up a table).

    Outgoing messages are queued as JSON text; the event loop's :class:`Outbox` writes
    everything queued when it comes to the connection as one WebSocket frame (PROTOCOL.md,
    Frames): a single message as itself, several as a JSON array of them, in order.  A
    published change (its log entries, the seat's ``state`` and, for the requester, the ``ok``)
    is queued in one go, so it reaches each connection as one frame.  A frame holds at most
    :data:`FRAME_MESSAGES` messages and, unless one message alone is larger,
    :data:`FRAME_CHARS` characters (a long replay goes out in several)."""

    def __init__(self, ws: Socket | None, limits: Limits, cid: int = 0) -> None:
        self.ws = ws
        self.cid = cid                         # the connection's number in its server process
        self.limits = limits
        # what is queued for the client: (JSON text, is a replayed entry)
        self.out: deque[tuple[str, bool]] = deque()
        self.listed = False                    # in its Outbox's list of connections to write
        self.outbox: Outbox | None = None      # its event loop's Outbox, found at the first wake-up
        self.last_frame = -math.inf            # when the last frame went out (the loop's clock)
        self.hold: asyncio.TimerHandle | None = None   # what is queued waits for this (FRAME_HOLD)
        self.kicked = False                    # a client that does not read: close the connection
        self.replaying = 0           # replayed entries queued: they do not count against send_queue
        self._state: str | None = None   # the last published state queued (send_texts), while it may be replaced
        self.held: list[str] | None = None     # live messages held back while a replay is sent
        self.replays = RateLimiter(limits.replay_rate, limits.max_replay)   # entries replayed
        self.room: Room | None = None
        self.player: Player | None = None
        self.rate = RateLimiter(limits.rate, limits.burst)
        self.closed = False
        self.frames = 0                        # frames sent (for tests and measurements)
        self.remote: Remote | None = None      # bound at a table another process owns (a cluster)
        self.pending: Remote | None = None     # a join, resume or watch sent to that process, not answered yet
        self.pending_id: Any = None            # its id (its answer binds the client there, or refuses)
        self.settled = asyncio.Event()         # set while nothing is pending: the next request may go
        self.settled.set()
        self.asked: dict[Any, float] = {}      # ids of requests sent to that process -> when (monotonic)
        self.let_go: Callable[[Connection], None] | None = None   # tells that owner when unbound
        self.moved = False                     # told "moved" (a cluster), not bound again since
        self.sending: asyncio.Task[None] | None = None   # a send that waits, going on in a task of its own
        self.task: asyncio.Task[Any] | None = None       # the task serving the connection (GameServer.serve)
        self.idle = False                      # that task waits for the client's next message
        self.stuck = False                     # let go while a send to it waited: nothing more is sent

    def send(self, msg: dict[str, Any], *, replay: bool = False) -> None:
        """Queue ``msg`` (its ``"v"`` set if missing); see :meth:`send_text`."""
        if self.closed:
            return
        msg.setdefault("v", PROTOCOL_VERSION)
        if msg.get("code") == "moved":
            self.moved = True
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
            self._kick()
            return
        self.replaying += replay
        self.out.append((text, replay))
        self._wake()

    def send_texts(self, texts: list[str], *, urgent: bool = True, state: bool = False) -> None:
        """Queue several messages already serialised, in order: as :meth:`send_text` of each
        (a client that does not read is disconnected once more than ``send_queue`` live
        messages wait).  ``urgent=False``: they may wait until :data:`FRAME_HOLD` seconds have
        passed since the connection's last frame (a change published to a seat that is not to
        act; PROTOCOL.md, Frames); anything urgent queued meanwhile takes them along at once.
        ``state=True``: the last of ``texts`` is the seat's ``state`` after a published change,
        and the state of the change before, if it is still the last thing queued (it waited),
        is dropped: a state replaces the one before it (PROTOCOL.md, Frames)."""
        if self.closed:
            return
        if self.held is not None:
            self.held.extend(texts)
            return
        out = self.out
        if state and out and out[-1][0] is self._state:   # not sent yet, and nothing queued after it
            out.pop()
        if len(out) - self.replaying + len(texts) > self.limits.send_queue:
            self._kick()
            return
        out.extend(zip(texts, _LIVE, strict=False))
        self._state = texts[-1] if state and texts else None
        self._wake(urgent)

    def _kick(self) -> None:
        """Past the queue's limit (``send_queue``): close the connection with code 1013 (the
        outbox sends the close), nothing more queued."""
        self.closed = self.kicked = True
        log.warning("a client does not read its messages: disconnected")
        self._wake()

    def _wake(self, urgent: bool = True) -> None:
        """Something is queued (or the connection must close): the loop's :class:`Outbox`
        comes to it, at once, or (``urgent=False``) once :data:`FRAME_HOLD` seconds have passed
        since the connection's last frame."""
        if self.listed or self.ws is None:
            return
        box = self.outbox
        if box is None or box.task.done():
            box = self.outbox = Outbox.of_loop()
            self._cancel_hold()                # armed in a loop that is gone, if any
        if not urgent:
            due = self.last_frame + FRAME_HOLD
            if box.loop.time() < due:
                if self.hold is None:
                    self.hold = box.loop.call_at(due, self._held)
                return
        self._cancel_hold()
        self.listed = True
        box.add(self)

    def _cancel_hold(self) -> None:
        if self.hold is not None:
            self.hold.cancel()
            self.hold = None

    def _held(self) -> None:
        """The hold is over: what waited goes out."""
        self.hold = None
        self._wake()

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

    async def flush(self) -> None:
        """Write what is queued, a frame at a time, or close a connection that does not read
        (code 1013).  Called by the :class:`Outbox` only.  A send here waits only when the client
        does not read and its socket's buffers are full (the ASGI server's ``send`` then waits
        for them to drain): the task writing becomes the connection's own (:attr:`sending`), and
        a new one writes the other connections' frames (:meth:`Outbox.add`)."""
        try:
            assert self.ws is not None
            while self.out and not self.kicked:
                self.frames += 1
                await self.ws.send_text(self._frame())
            if self.kicked:
                self.out.clear()
                await self.ws.close(code=1013, reason=KICKED)
        except (RuntimeError, OSError):
            self.out.clear()             # gone: its serve loop finds out and forgets it
            self.replaying = 0

    def let_go_stuck(self) -> None:
        """Drop a client that does not read while a send to it waits (its queue's limit was
        passed): the waiting send is cancelled, nothing more is sent, and the task serving it
        (if it waits for the client's next message) is cancelled, so that the application returns
        and the seat is let go as at any disconnection.  The ASGI server then closes the socket,
        but a socket whose buffers never drain goes only when the kernel drops it
        (:data:`~pokerdraw32.server.run.UNACKED_TIMEOUT`)."""
        self.closed = self.kicked = self.stuck = True
        self.out.clear()
        self.replaying = 0
        if self.sending is not None:
            self.sending.cancel()
        if self.idle and self.task is not None and not self.task.done():
            self.task.cancel()

    def release(self) -> None:
        """The replay is sent: the live messages held back meanwhile follow."""
        held, self.held = self.held or [], None
        for text in held:
            self.send_text(text)

    def detach(self) -> None:
        """Stop holding a seat or watching (at this process, or at another's table: that process
        is told)."""
        if self.remote is not None:
            if self.let_go is not None:
                self.let_go(self)
            self.remote = None
        if self.player is not None and self.room is not None and self.player.conn is self:
            self.player.conn = None
            self.room.disconnected(self.player)
        if self.room is not None:
            self.room.watchers.discard(self)
        self.player = None
        self.room = None


class Outbox:
    """The connections with something to write, in the order they got it, and the one task of
    the event loop that writes them (:meth:`Connection.flush`).

    One task for every connection, not one each: a change queued for the five seats of a table
    is written in one task step instead of five wake-ups.  An ASGI server's send does not wait
    (uvicorn writes to the socket's buffer and returns) unless the client has stopped reading and
    its buffers are full.  Then the task is held up in that send, and it is the only way it can
    be while anything else runs: the next connection queued finds it so (:meth:`add`), gives
    the task to the connection it writes to (:attr:`Connection.sending`: it finishes that
    connection's frames, then ends) and starts a new one for the others.  The common case costs
    nothing more than an attribute set and cleared.
    """

    _by_loop: ClassVar[dict[asyncio.AbstractEventLoop, Outbox]] = {}

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: deque[Connection] = deque()
        self._waiting: asyncio.Future[None] | None = None
        self.writing: Connection | None = None     # what the task writes to, while it does
        self.task = loop.create_task(self._run(), name="pokerdraw32 outbox")

    @classmethod
    def of_loop(cls) -> Outbox:
        """The running loop's outbox (made at the first use; a closed loop's are dropped)."""
        loop = running_loop()
        box = cls._by_loop.get(loop)
        if box is None or box.task.done():
            for old in [x for x in cls._by_loop if x.is_closed()]:
                del cls._by_loop[old]
            box = cls._by_loop[loop] = cls(loop)
        return box

    def add(self, conn: Connection) -> None:
        self.queue.append(conn)
        if self.writing is not None:             # the task waits in a send: it is that connection's now
            self._hand_over(self.writing)
        w = self._waiting
        if w is not None:
            self._waiting = None
            if not w.done():
                w.set_result(None)

    def _hand_over(self, conn: Connection) -> None:
        """The task waits in a send to ``conn`` (a client that does not read): it becomes
        ``conn``'s (it finishes ``conn``'s frames, then ends), and a new task writes the others'."""
        self.writing = None
        conn.sending = self.task
        self.task = self.loop.create_task(self._run(), name="pokerdraw32 outbox")
        if conn.kicked:                          # what waits is the close of a client that does not read
            conn.let_go_stuck()

    async def _run(self) -> None:
        me = asyncio.current_task()
        queue = self.queue
        while True:
            if not queue:
                self._waiting = self.loop.create_future()
                await self._waiting
                continue
            conn = queue.popleft()
            conn.listed = False
            if conn.sending is not None:         # a send to it waits: what is queued goes after it
                if conn.kicked:
                    conn.let_go_stuck()
                continue
            if conn.closed and not conn.kicked:
                conn.out.clear()
                continue
            frames = conn.frames
            self.writing = conn
            try:
                await conn.flush()
            except asyncio.CancelledError:
                if self.task is me:              # the outbox itself (its loop closing)
                    raise
                return                           # given to a client then let go (let_go_stuck)
            except Exception:       # pragma: no cover - a bug: one connection must not stop every other's frames
                log.exception("writing to a client failed")
            if self.task is not me:              # given to ``conn`` while its send waited: done with it
                conn.sending = None
                conn.last_frame = self.loop.time()
                if conn.out or conn.kicked:
                    conn._wake()
                return
            self.writing = None
            if conn.frames != frames:            # a frame went out: the hold counts from it
                conn.last_frame = self.loop.time()
