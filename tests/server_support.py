"""Shared helpers of the game server's end-to-end tests (``tests/test_server_crash.py``,
``tests/test_server_load.py``) and of ``bench/server_load.py``; no tests here.

Everything is real: the server is ``python -m pokerdraw32 serve`` in a subprocess on 127.0.0.1
(:class:`ServerProcess`), the clients speak PROTOCOL.md over real WebSockets with the
``websockets`` library (:class:`BotClient`), the database is a SQLite file or a throwaway
PostgreSQL cluster (:func:`postgres_server`).

* :func:`free_port`, :func:`write_tables`: a port for the server, its ``--tables`` file;
* :class:`ServerProcess`: start (wait for ``GET /healthz`` == 200), SIGKILL, SIGTERM, its log
  in a file, its CPU seconds from ``/proc``;
* :class:`BotClient`: joins a seat (or resumes it with its token and last ``seq``), records what
  it receives, answers its turns from ``state.view.hand.legal`` (always with the ``seq`` of the
  state it decided on), reconnects with backoff when the connection drops, and times each
  action's round trip (``act`` sent -> its ``ok``, matched by ``id``);
* :func:`read_db`: a database's three tables after the server stopped; :func:`redact`: a
  stored log entry as a seat may see it (written here again, independently of the server);
* :func:`postgres_server`, :func:`postgres_cluster`: a throwaway PostgreSQL cluster (skips the
  test where it cannot run), which :class:`Postgres` can stop and start again;
* the load driver of the load tests and their benchmark is in ``load_support.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ADMIN_TOKEN = "pd32-test-admin"
"""The token the test servers are started with (POKERDRAW32_ADMIN_TOKEN): /api/tables/<id>/hands.phhs."""

websockets = pytest.importorskip("websockets", reason="the server tests need the [server] extra (websockets)")
pytest.importorskip("starlette", reason="the server tests need the [server] extra (starlette)")
pytest.importorskip("uvicorn", reason="the server tests need the [server] extra (uvicorn)")

from websockets.asyncio.client import connect as ws_connect  # noqa: E402
from websockets.exceptions import WebSocketException  # noqa: E402

PRIVATE = frozenset({"deal_hole", "deal_draw", "discard"})
"""The log entries whose cards only their own seat may see (PROTOCOL.md: a deal, a discard, a draw)."""

RACES = frozenset({"stale", "not_your_turn"})
"""Error codes a client that acts on the latest state can still meet when the table moved on
between that state and its action (a join, a time-out, a reconnection ...)."""
MOVES = frozenset({"moved", "unavailable"})
"""Error codes of a cluster's failover (PROTOCOL.md, Cluster): the client resumes (again)."""


# ---------------------------------------------------------------------------- the server process
def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def write_tables(path: Path, tables: list[dict[str, Any]]) -> Path:
    """Write a ``--tables`` file (a JSON list of table objects, see ``TableConfig``)."""
    path.write_text(json.dumps(tables, indent=1), encoding="utf-8")
    return path


def tables_config(count: int, seats: int, *, bots: dict[str, str] | None = None, prefix: str = "t",
                  seed: int | None = None, **extra: Any) -> list[dict[str, Any]]:
    """``count`` no-limit classic tables ``t0``, ``t1`` ... of ``seats`` seats, with ``bots``
    (table seat as a string -> ``"rule"`` or ``"random"``) at each."""
    out = []
    for i in range(count):
        t: dict[str, Any] = {"id": f"{prefix}{i}", "title": f"{prefix}{i}", "seats": seats,
                             "rules": {"preset": "classic"}, "bots": dict(bots or {}), **extra}
        if seed is not None:
            t["seed"] = seed + i
        out.append(t)
    return out


_PROFILED = """
import cProfile, signal, sys
from pokerdraw32.cli import main
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
profile = cProfile.Profile()
try:
    profile.runcall(main, sys.argv[1:])
except SystemExit:
    pass
finally:
    profile.dump_stats({out!r})
"""


class ServerProcess:
    """``python -m pokerdraw32 serve`` as a subprocess on 127.0.0.1 and a fixed port (so that a
    restarted server is found at the same address).  Its output goes to ``log_path`` (appended
    over restarts, each start marked).  Use as a context manager: leaving it kills what runs."""

    def __init__(self, db: str, tables_file: Path, log_path: Path, *, port: int | None = None,
                 hand_pause: float = 0.05, bot_delay: float = 0.01, grace: float = 60.0,
                 log_level: str = "warning", extra: tuple[str, ...] = (), profile: Path | None = None,
                 wrap: tuple[str, ...] = ()) -> None:
        self.db = db
        self.tables_file = tables_file
        self.log_path = log_path
        self.port = port if port is not None else free_port()
        # profile: run the server under cProfile, its statistics written to that file when it stops
        # (uvicorn re-raises the SIGTERM it handled: here it ends the profiled call instead)
        prof = ("-m", "pokerdraw32") if profile is None else ("-c", _PROFILED.format(out=str(profile)))
        # wrap: a command the server runs under (valgrind ...); its output goes to the log too
        self.args = [*wrap, sys.executable, *prof, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                     "--db", db, "--tables", str(tables_file), "--hand-pause", str(hand_pause),
                     "--bot-delay", str(bot_delay), "--grace", str(grace), "--log-level", log_level, *extra]
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        """Start the server and wait until ``GET /healthz`` answers 200 (its tables restored).

        :raises RuntimeError: it exited or did not become healthy in ``timeout`` seconds (with
            the end of its log).
        """
        assert self.proc is None or self.proc.poll() is not None, "the server is running"
        self.starts += 1
        with open(self.log_path, "ab") as f:
            f.write(f"\n===== start {self.starts}: {' '.join(self.args)}\n".encode())
        log = open(self.log_path, "ab")   # noqa: SIM115 - the child holds it; closed by the OS
        env = dict(os.environ, PYTHONUNBUFFERED="1", POKERDRAW32_ADMIN_TOKEN=ADMIN_TOKEN)
        for k in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
            env.pop(k, None)
        try:
            self.proc = subprocess.Popen(self.args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=env)
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}:\n{self.log_tail()}")
            if self.healthy():
                return
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"the server was not healthy after {timeout} s:\n{self.log_tail()}")
            time.sleep(0.05)

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.http_url + "/healthz", timeout=2) as r:
                return bool(r.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def get(self, path: str, timeout: float = 30.0) -> bytes:
        request = urllib.request.Request(self.http_url + path, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        with urllib.request.urlopen(request, timeout=timeout) as r:
            body: bytes = r.read()
            return body

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: the process dies at once, whatever it was doing (nothing is flushed)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM, then wait for it to exit (SIGKILL after ``timeout``); returns its exit status."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
                raise RuntimeError(f"the server did not stop within {timeout} s of SIGTERM:\n{self.log_tail()}") \
                    from None
        return self.proc.returncode

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the running server process, from ``/proc`` (None elsewhere)."""
        return cpu_seconds(self.pid)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of process ``pid`` from ``/proc/PID/stat`` (None if unreadable)."""
    if pid is None:
        return None
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    return (int(fields[11]) + int(fields[12])) / ticks     # utime, stime (fields 14, 15 of stat)


try:                 # the clients read every frame: orjson when installed (the [server] extra) spares them CPU
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - depends on the install
    _loads = json.loads


def messages_of(frame: str | bytes) -> list[dict[str, Any]]:
    """The messages of one WebSocket frame from the server (PROTOCOL.md, Frames): a JSON object
    is one message, a JSON array several, in order."""
    try:
        data = _loads(frame)
    except ValueError:      # orjson refuses what json reads: a lone surrogate escaped (an attack test's ids)
        data = json.loads(frame)
    return data if isinstance(data, list) else [data]


# ---------------------------------------------------------------------------- the bot client
@dataclass
class Sent:
    """An ``act`` the client sent: its ``id``, the action, the ``seq`` of the state it decided on,
    when it was sent (``time.perf_counter``) and, once answered, the reply."""

    id: int
    kind: str
    seq: int
    at: float
    amount: int | None = None
    cards: list[str] | None = None
    reply: dict[str, Any] | None = None
    rtt: float | None = None
    done_at: float | None = None


class ClientFailure(AssertionError):
    """The client met something it cannot go on from (a refused join or resume, no server)."""


class BotClient:
    """A player over one WebSocket (reopened after a drop): see the module docstring.

    :param url: ``ws://127.0.0.1:PORT/ws``, or several (server processes of a cluster): it
        connects to the first, and after a drop to the next one.
    :param table: the table id; ``seat`` (default the first free one), ``name``.
    :param seed: of its decisions (fold, bet or raise, split, which cards to throw).
    :param think: the longest time it waits before acting, in seconds (uniform from 0).
    :param record: keep every message received (``messages``) and every log entry (``events``,
        by ``seq``); without it only counts, checks and round trips are kept (the load test).
    :param give_up: seconds without a connection after which it stops (``failure`` says why).
    :param chips: its buy-in (default: the table's); ``all_in``: the share of its bets and raises
        that are all in.

    After :meth:`run`: ``token``, ``seat``, ``joined_seq``, ``last_seq``; ``events`` (seq -> the
    ``event`` message), ``acts`` (every :class:`Sent`), ``oks`` (every ``ok``), ``errors`` (every
    ``error``), ``seq_problems`` (gaps, duplicates, states out of step: should stay empty),
    ``rtts`` (seconds), ``hands`` (``hand_end`` entries seen), ``connects``, ``drops``, ``resumes``;
    ``live`` while it is connected and has its seat's state.

    Setting ``leave_wanted`` makes it send ``leave`` (it plays the running hand out); at its own
    ``left`` entry (``left_seq``) it stops: ``done``.
    """

    def __init__(self, url: str | list[str], table: str, name: str, *, seat: int | None = None, seed: int = 0,
                 think: float = 0.0, record: bool = True, give_up: float = 60.0, chips: int | None = None,
                 all_in: float = 0.04) -> None:
        self.urls = [url] if isinstance(url, str) else list(url)
        self.url = self.urls[0]
        self.table = table
        self.name = name
        self.want_seat = seat
        self.rng = random.Random(seed)
        self.think = think
        self.record = record
        self.give_up = give_up
        self.chips = chips
        self.all_in = all_in
        self.token: str | None = None
        self.seat: int | None = None
        self.joined_seq: int | None = None
        self.last_seq: int | None = None
        self.messages: list[dict[str, Any]] = []
        self.events: dict[int, dict[str, Any]] = {}
        self.acts: list[Sent] = []
        self.oks: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.seq_problems: list[str] = []
        self.rtts: list[float] = []
        self.hands = 0
        self.frames = 0                 # WebSocket frames received
        self.last_hand_end = 0          # the hand number of the last hand_end seen
        self.state: dict[str, Any] | None = None
        self.connects = 0
        self.drops = 0
        self.resumes = 0
        self.moves = 0                  # "moved" / "unavailable" errors met (a cluster's failover)
        self.join_key = f"{self.rng.getrandbits(128):032x}"
        self._rebind: str | None = None  # resume (or join) again on this connection: why
        self.failure: str | None = None
        self.joined = asyncio.Event()
        self.act_sent = asyncio.Event()  # set after each act is sent (a test may clear it and wait)
        self.leave_wanted = False       # set it to leave the table (the client plays the hand out)
        self.leave_sent_seq: int | None = None   # the log entry it had seen when it sent leave
        self.left_seq: int | None = None         # its own "left" entry: it stops there
        self.done = False
        self.live = False               # connected, seated, and its first state received
        self.default_buy_in: int | None = None
        self._next_id = 0
        self._pending: Sent | None = None
        self._pending_other: int | None = None   # id of an add_chips or leave in flight
        self._acted_seq: int | None = None
        self._rebuy_hand: int | None = None
        self._ws: Any = None
        self._session_no = 0
        self._retry = False                      # its act got "storage": decide again (after a ping)

    # ------------------------------------------------------------------ the connection
    async def run(self, stop: asyncio.Event) -> None:
        """Play until ``stop`` is set (then close the connection), reconnecting after drops."""
        backoff = 0.05
        down_since: float | None = None
        while not stop.is_set() and not self.done:
            self.url = self.urls[(self.connects + self.drops) % len(self.urls)]
            try:
                async with ws_connect(self.url, open_timeout=5, close_timeout=2, ping_interval=None, proxy=None,
                                      max_size=1 << 22, max_queue=None) as ws:
                    self.connects += 1
                    down_since = None
                    backoff = 0.05
                    await self._session(ws, stop)
            except ClientFailure as exc:
                self.failure = str(exc)
                return
            except (OSError, WebSocketException, asyncio.TimeoutError):
                pass
            if stop.is_set() or self.done:
                return
            self.drops += 1
            now = time.monotonic()
            down_since = down_since or now
            if now - down_since > self.give_up:
                self.failure = f"{self.name}: no connection for {self.give_up} s"
                return
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), backoff * (0.5 + self.rng.random()))
            backoff = min(1.0, backoff * 2)

    async def _session(self, ws: Any, stop: asyncio.Event) -> None:
        self._ws = ws
        self._session_no += 1
        self._pending = None
        self._pending_other = None
        self._acted_seq = None                    # an act lost with the connection may be sent again
        if self.leave_sent_seq is not None and self.left_seq is None:
            self.leave_sent_seq = None            # a leave lost with the connection: sent again
        self.state = None
        self.live = False
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        async def reader() -> None:
            try:
                async for raw in ws:
                    self.frames += 1
                    for m in messages_of(raw):
                        queue.put_nowait(m)
            except (WebSocketException, OSError):
                pass
            finally:
                queue.put_nowait(None)

        async def stopper() -> None:
            await stop.wait()
            await ws.close()

        tasks = [asyncio.create_task(reader()), asyncio.create_task(stopper())]
        try:
            welcome = await asyncio.wait_for(queue.get(), 10)
            if welcome is None:
                return
            self._receive(welcome)
            self._rebind = None
            await ws.send(json.dumps(self._bind_message()))
            while True:
                m = await queue.get()
                if m is None:
                    return
                self._receive(m)
                while not queue.empty() and not self.done:     # decide on the latest state only
                    m = queue.get_nowait()
                    if m is None:
                        return
                    self._receive(m)
                if self.done:
                    await ws.close()
                    return
                if self._rebind is not None:      # the table moved (a cluster's failover): resume again
                    if self._rebind == "unavailable":
                        await asyncio.sleep(0.2 * (0.5 + self.rng.random()))
                    self._rebind = None
                    await ws.send(json.dumps(self._bind_message()))
                    continue
                await self._maybe_act(ws, queue)
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t
            self._ws = None
            self.live = False

    def _id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _bind_message(self) -> dict[str, Any]:
        """``join`` (no seat yet) or ``resume`` from the last entry seen."""
        if self.token is None:       # with a key: a join repeated after its answer was lost finds its seat
            msg: dict[str, Any] = {"type": "join", "id": self._id(), "table": self.table, "name": self.name,
                                   "key": self.join_key}
            if self.want_seat is not None:
                msg["seat"] = self.want_seat
            if self.chips is not None:
                msg["chips"] = self.chips
            return msg
        self.resumes += 1
        return {"type": "resume", "id": self._id(), "table": self.table, "token": self.token,
                "last_seq": self.last_seq or 0}

    # ------------------------------------------------------------------ what arrives
    def _receive(self, m: dict[str, Any]) -> None:
        if self.done:
            return                                # it left: what follows is an onlooker's
        if self.record:
            self.messages.append(m)
        kind = m.get("type")
        if kind == "event":
            seq = m["seq"]
            if self.last_seq is None:
                self.seq_problems.append(f"event {seq} before joined/resumed")
            elif seq != self.last_seq + 1:
                what = "duplicate" if seq <= self.last_seq else "gap"
                self.seq_problems.append(f"{what}: event {seq} after {self.last_seq}")
            if self.record:
                if seq in self.events and self.events[seq] != m:
                    self.seq_problems.append(f"event {seq} received twice, differently")
                self.events[seq] = m
            if self.last_seq is None or seq > self.last_seq:
                self.last_seq = seq
                if m["event"].get("kind") == "hand_end":
                    self.hands += 1
                    self.last_hand_end = m["hand"]
                elif (m["event"].get("kind") == "left" and m["event"].get("seat") == self.seat
                      and self.leave_sent_seq is not None):
                    self.left_seq = seq
                    self.done = True
        elif kind == "state":
            if m.get("seq") != self.last_seq:
                self.seq_problems.append(f"state at {m.get('seq')} after event {self.last_seq}")
            self.state = m
            self.live = True
        elif kind == "joined":
            self.token = m["token"]
            self.seat = m["seat"]
            self.joined_seq = self.last_seq = m["seq"]
            self.joined.set()
        elif kind == "resumed":
            if m["seat"] != self.seat:
                raise ClientFailure(f"{self.name}: resumed at seat {m['seat']}, not {self.seat}")
            if self.last_seq is not None and m["seq"] < self.last_seq:
                self.seq_problems.append(f"resumed at {m['seq']}, behind the client's {self.last_seq}")
        elif kind == "welcome":
            for t in m.get("tables", []):
                if t.get("id") == self.table:
                    self.default_buy_in = t.get("default_buy_in")
        elif kind == "ok":
            self.oks.append(m)
            self._answered(m)
        elif kind == "error":
            self.errors.append(m)
            if m.get("code") in MOVES:
                # the table moved (PROTOCOL.md, Cluster): what was in flight may be lost; resume
                self.moves += 1
                self._rebind = m["code"]
                self._pending = self._pending_other = self._acted_seq = None
                if self.leave_sent_seq is not None and self.left_seq is None:
                    self.leave_sent_seq = None
                self.state = None
                self.live = False
                return
            if m.get("code") in ("bad_token", "seat_taken", "no_such_table") or (
                    self.token is None and m.get("id") is not None and m.get("code") not in RACES):
                raise ClientFailure(f"{self.name}: {m.get('code')}: {m.get('message')}")
            if m.get("code") == "storage" and self._pending is not None and m.get("id") == self._pending.id:
                # nothing was applied (the database away): the same action with the same seq is safe
                # to send again, and the table sends nothing new to wake the client: it pings itself
                self._acted_seq = None
                self._retry = True
            self._answered(m)

    def _answered(self, m: dict[str, Any]) -> None:
        rid = m.get("id")
        p = self._pending
        if p is not None and rid == p.id:
            p.reply = m
            if m["type"] == "ok":
                p.done_at = time.perf_counter()
                p.rtt = p.done_at - p.at
                self.rtts.append(p.rtt)
            self._pending = None
        if rid is not None and rid == self._pending_other:
            self._pending_other = None

    # ------------------------------------------------------------------ what it does
    async def _maybe_act(self, ws: Any, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        if self._retry:
            self._retry = False
            await asyncio.sleep(0.3)
            await ws.send(json.dumps({"type": "ping"}))
            return
        st = self.state
        if st is None or self._pending is not None or self._pending_other is not None or self.seat is None:
            return
        if st["seq"] != self.last_seq:
            return
        view = st["view"]
        hand = view.get("hand")
        me = next((s for s in view["seats"] if s["seat"] == self.seat), None)
        if me is None:
            return
        if self.leave_wanted and self.leave_sent_seq is None:
            rid = self._id()
            self._pending_other = rid
            self.leave_sent_seq = self.last_seq
            await ws.send(json.dumps({"type": "leave", "id": rid}))
            return
        if me["stack"] == 0 and not me["in_hand"] and self._rebuy_hand != view["hand_number"]:
            # busted: buy in again (between hands for this seat: R3.6, R10.1)
            self._rebuy_hand = view["hand_number"]
            rid = self._id()
            self._pending_other = rid
            await ws.send(json.dumps({"type": "add_chips", "id": rid, "chips": self.default_buy_in or 200}))
            return
        if view.get("to_act") != self.seat or hand is None or not hand.get("legal") or st["seq"] == self._acted_seq:
            return
        if self.think:
            await asyncio.sleep(self.rng.random() * self.think)
            if not queue.empty():
                return                            # something new arrived: decide on it instead
        legal = hand["legal"]
        act = self.decide(legal, hand.get("cards") or [], me["stack"])
        sent = Sent(self._id(), act["kind"], st["seq"], time.perf_counter(), act.get("amount"), act.get("cards"))
        self._pending = sent
        self._acted_seq = st["seq"]
        self.acts.append(sent)
        await ws.send(json.dumps({"type": "act", "id": sent.id, **act, "seq": st["seq"]}))
        self.act_sent.set()

    def decide(self, legal: dict[str, Any], cards: list[str], stack: int) -> dict[str, Any]:
        """An action from ``legal`` (PROTOCOL.md ``view.hand.legal``) for a player with
        ``stack`` chips behind: check or call mostly, sometimes fold (often against a bet of a
        third of its stack or more), bet or raise (between ``min_to`` and ``max_to``: mostly
        small, all in now and then), split when the Parole allows it; in the draw 0-3 of its
        own cards."""
        kinds = legal["kinds"]
        rng = self.rng
        if "discard" in kinds:
            k = min(rng.choice((0, 1, 1, 2, 2, 3)), legal.get("max_discard", 0), len(cards))
            return {"kind": "discard", "cards": rng.sample(cards, k)}
        r = rng.random()
        raise_kind = "bet" if "bet" in kinds else "raise" if "raise" in kinds else None
        if "split" in kinds and r < 0.25:
            return {"kind": "split"}
        if "decline" in kinds and "split" in kinds and r < 0.5:
            return {"kind": "decline"}
        call = legal.get("call_amount", 0)
        if "fold" in kinds and call > 0 and (r < 0.12 or (3 * call > stack and r < 0.6)):
            return {"kind": "fold"}
        if raise_kind is not None and legal.get("min_to") is not None and r > 0.8 and 10 * call <= stack:
            lo, hi = legal["min_to"], legal["max_to"]
            if rng.random() < self.all_in:
                amount = hi                                  # all in, now and then
            else:
                amount = min(hi, lo + rng.randrange(max(1, min(hi - lo, lo) // 2 + 1)))
            return {"kind": raise_kind, "amount": amount}
        for k in ("check", "call", "decline", "split", "fold"):
            if k in kinds:
                return {"kind": k}
        return {"kind": kinds[0]}

    # ------------------------------------------------------------------ summaries
    def race_errors(self) -> list[dict[str, Any]]:
        return [e for e in self.errors if e.get("code") in RACES]

    def other_errors(self) -> list[dict[str, Any]]:
        """Errors that are neither races nor a cluster's failover (``moved``, ``unavailable``)."""
        return [e for e in self.errors if e.get("code") not in RACES | MOVES]


# ---------------------------------------------------------------------------- waiting in tests
async def until(cond: Callable[[], bool], timeout: float, what: str, clients: list[BotClient]) -> None:
    """Wait until ``cond()``; fail, saying what each client sees, if a client failed or after
    ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not cond():
        failed = [f"{c.name}: {c.failure}" for c in clients if c.failure]
        if failed:
            raise AssertionError(f"while waiting for {what}: {failed}")
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {timeout:.0f} s\n" + "\n".join(map(describe, clients)))
        await asyncio.sleep(0.01)


def describe(c: BotClient) -> str:
    """One line on what ``c`` sees now (for a failure's message)."""
    st = c.state
    view = None if st is None else st["view"]
    hand = None if view is None else view.get("hand")
    return (f"{c.name}: seat {c.seat}, {c.hands} hands seen, last seq {c.last_seq}, connected {c._ws is not None}, "
            f"{c.connects} connections, pending {c._pending}, state seq {None if st is None else st['seq']} "
            f"to_act {None if view is None else view['to_act']} phase {None if hand is None else hand['phase']} "
            f"legal {None if hand is None else hand.get('legal')}, errors {c.errors[-3:]}")



# ---------------------------------------------------------------------------- the database
@dataclass
class DbDump:
    """A server database read after the server stopped: per table id, ``tables`` (config, state,
    seq; the state's ``["table"]`` the table's whole snapshot, rebuilt from its journal and
    ``pd32_ledger``), ``events`` (seq -> (hand, event)) and ``hands`` (hand -> PHH text)."""

    tables: dict[str, tuple[dict[str, Any], dict[str, Any], int]] = field(default_factory=dict)
    events: dict[str, dict[int, tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    hands: dict[str, dict[int, str]] = field(default_factory=dict)


def read_db(url: str) -> DbDump:
    """Read ``pd32_tables``, ``pd32_journal``, ``pd32_ledger``, ``pd32_events`` and
    ``pd32_hands`` of a SQLite file or a ``postgresql://`` database.  Each table is rebuilt as the
    server restores it (:func:`pokerdraw32.server.room.stored_table`: its journal's base, its
    ledger lines, a row each, numbered from 0 without a gap, and its steps replayed), and its
    whole snapshot put in its state (``state["table"]``, with the ledger).  Everything is read in
    one transaction, so a server may run meanwhile."""
    from pokerdraw32.server.room import stored_table

    if url.startswith(("postgresql://", "postgres://")):
        import psycopg

        conn: Any = psycopg.connect(url)
        # one snapshot for every statement below: a server may be committing meanwhile (a new
        # base deletes the journal rows before it)
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    else:
        path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN")       # likewise: one read transaction (WAL: one snapshot)
    try:
        out = DbDump()
        for tid, config, state, seq in conn.execute("SELECT id, config, state, seq FROM pd32_tables").fetchall():
            out.tables[tid] = (json.loads(config), json.loads(state), int(seq))
            out.events[tid] = {}
            out.hands[tid] = {}
        for tid, seq, hand, event in conn.execute("SELECT table_id, seq, hand, event FROM pd32_events").fetchall():
            out.events.setdefault(tid, {})[int(seq)] = (int(hand), json.loads(event))
        for tid, hand, phh in conn.execute("SELECT table_id, hand, phh FROM pd32_hands").fetchall():
            out.hands.setdefault(tid, {})[int(hand)] = phh
        ledgers: dict[str, dict[int, dict[str, Any]]] = {tid: {} for tid in out.tables}
        for tid, line, entry in conn.execute("SELECT table_id, line, entry FROM pd32_ledger").fetchall():
            ledgers.setdefault(tid, {})[int(line)] = json.loads(entry)
        journals: dict[str, list[tuple[int, dict[str, Any]]]] = {tid: [] for tid in out.tables}
        for tid, line, entry in conn.execute("SELECT table_id, line, entry FROM pd32_journal ORDER BY line"):
            journals.setdefault(tid, []).append((int(line), json.loads(entry)))
        for tid, lines in ledgers.items():
            assert sorted(lines) == list(range(len(lines))), f"table {tid}: ledger lines {sorted(lines)[:50]} ..."
            ledger = [lines[i] for i in range(len(lines))]
            state = out.tables[tid][1]
            rows = journals[tid]
            assert rows and rows[0][0] == state["journal"]["base"], f"table {tid}: journal lines before the base"
            assert rows[0][1]["base"]["table"]["ledger"] == [], \
                f"table {tid}: the base holds ledger lines as well as pd32_ledger"
            state["table"] = stored_table({**state, "ledger": ledger,
                                           "journal": {**state["journal"], "rows": rows}}).snapshot()
        return out
    finally:
        conn.close()


def redact(event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A stored log entry (the dealer's record) as seat ``viewer`` (None: an onlooker) may see
    it: the cards of another seat's deal, discard or draw are replaced by ``"hidden": N``."""
    if event.get("kind") in PRIVATE and event.get("cards") and event.get("seat") != viewer:
        e = {k: v for k, v in event.items() if k != "cards"}
        e["hidden"] = len(event["cards"])
        return e
    return event


def foreign_cards(client: BotClient) -> list[dict[str, Any]]:
    """The entries a client received that show another seat's private cards (should be none)."""
    return [m for m in client.events.values()
            if m["event"].get("kind") in PRIVATE and "cards" in m["event"] and m["event"].get("seat") != client.seat]


def check_table_ledger(state: dict[str, Any]) -> tuple[int, int, int]:
    """Restore a table from its stored state, audit its ledger (``Table.check_ledger``) and count
    again, independently: chips bought in (buy-ins and additions) == chips paid out + chips on
    the table (stacks, and the pot of a running hand).  Returns (bought, paid, on the table).

    :raises AssertionError: the chips do not add up.
    """
    from pokerdraw32.table import Table

    t = Table.restore(state["table"])
    t.check_ledger()
    ledger = state["table"]["ledger"]
    bought = sum(e["chips"] for e in ledger if e["kind"] in ("buy_in", "add"))
    paid = sum(e["chips"] for e in ledger if e["kind"] == "cash_out")
    on_table = t.chips_on_table
    assert bought == paid + on_table, f"{bought} bought in != {paid} paid out + {on_table} on the table"
    nets: Counter[int] = Counter()
    for e in ledger:
        if e["kind"] == "hand":
            nets[e["hand"]] += e["chips"]
    assert not +nets and not -nets, f"hand results that do not sum to zero: {dict(+nets + -nets)}"
    return bought, paid, on_table


def check_archive(dump: DbDump, table_id: str) -> int:
    """Every finished hand of the table's log (a ``hand_end`` entry) is archived in
    ``pd32_hands``, nothing else is, and each archived hand replays
    (``archived_history(text).replay()``) to the stacks of its ``hand_end`` entry.  Returns
    the number of hands.

    :raises AssertionError: naming the hand.
    """
    from pokerdraw32.server.store import archived_history

    ends = {hand: e["stacks"] for hand, e in dump.events[table_id].values() if e.get("kind") == "hand_end"}
    archived = dump.hands[table_id]
    assert sorted(archived) == sorted(ends), (
        f"table {table_id}: hands ended in the log {sorted(set(ends) - set(archived))} are not archived, "
        f"archived {sorted(set(archived) - set(ends))} did not end in the log")
    assert sorted(ends) == list(range(1, len(ends) + 1)), f"table {table_id}: hands {sorted(ends)} have gaps"
    for hand, text in sorted(archived.items()):
        replayed = archived_history(text, f"{table_id} hand {hand}").replay()
        assert list(replayed.result.stacks) == list(ends[hand]), (
            f"table {table_id} hand {hand}: replayed stacks {list(replayed.result.stacks)} != hand_end "
            f"{ends[hand]}")
    return len(ends)


def check_log(dump: DbDump, table_id: str) -> None:
    """The table's stored log is numbered 1..seq without a gap, ``seq`` being the table row's."""
    seqs = sorted(dump.events[table_id])
    last = dump.tables[table_id][2]
    assert seqs == list(range(1, last + 1)), (
        f"table {table_id}: the log has {len(seqs)} entries, up to {seqs[-1] if seqs else None}, table row at {last}")


def check_client_against_db(client: BotClient, dump: DbDump) -> int:
    """A client's view of the log against the database (needs ``record=True``):

    * the entries it received are exactly ``joined_seq + 1 .. last_seq``, without gap or
      duplicate (across reconnections and server restarts); a client that left stops at its
      ``left`` entry (those of the commit that paid it out it may see as an onlooker does);
    * each is the stored entry as its seat may see it (:func:`redact`), in the same hand;
      no entry shows another seat's private cards;
    * every ``ok`` names an entry that is in the database, and each acknowledged ``act`` is the
      stored entry just after the state it was decided on (acknowledged actions are never lost).

    Returns the number of entries checked.
    """
    assert client.failure is None, client.failure
    assert client.joined_seq is not None and client.last_seq is not None, f"{client.name} never joined"
    assert client.seq_problems == [], f"{client.name}: {client.seq_problems[:10]}"
    events = dump.events[client.table]
    expected = list(range(client.joined_seq + 1, client.last_seq + 1))
    assert sorted(client.events) == expected, (
        f"{client.name}: received {len(client.events)} entries, expected {client.joined_seq + 1}..{client.last_seq}")
    assert foreign_cards(client) == [], f"{client.name} saw other seats' cards: {foreign_cards(client)[:3]}"
    for seq, m in client.events.items():
        assert seq in events, f"{client.name}: entry {seq} was sent but is not in the database"
        hand, stored = events[seq]
        viewer = client.seat if seq > client.joined_seq else None
        seen = m["event"]
        if client.leave_sent_seq is not None and seq > client.leave_sent_seq and seen == redact(stored, None):
            seen = redact(stored, viewer)         # the entries that paid it out reach it as an onlooker
        assert m["hand"] == hand and seen == redact(stored, viewer), (
            f"{client.name} entry {seq}: received {m['event']} (hand {m['hand']}), stored {stored} (hand {hand})")
    for ok in client.oks:
        assert ok.get("seq") in events, f"{client.name}: ok {ok} names an entry that is not in the database"
    for sent in client.acts:
        if sent.reply is None or sent.reply.get("type") != "ok":
            continue
        hand, stored = events[sent.seq + 1]
        assert stored.get("kind") == sent.kind and stored.get("seat") == client.seat, (
            f"{client.name}: acknowledged {sent.kind} on entry {sent.seq}, but entry {sent.seq + 1} is {stored}")
        if sent.amount is not None:
            assert stored.get("amount") == sent.amount, f"{client.name}: {sent} stored as {stored}"
        if sent.cards is not None:
            assert sorted(stored.get("cards", [])) == sorted(sent.cards), f"{client.name}: {sent} stored as {stored}"
    return len(expected)


# ---------------------------------------------------------------------------- PostgreSQL
def _postgres_bin() -> tuple[Path | None, str]:
    """The directory of initdb and pg_ctl (PATH, then Debian's /usr/lib/postgresql/N/bin), or
    None and why not."""
    candidates = []
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        candidates.append(Path(on_path).parent)
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: [int(x) for x in p.split("/")[-2].split(".")
                                                                            if x.isdigit()], reverse=True):
        candidates.append(Path(d))
    for d in candidates:
        if (d / "initdb").is_file() and (d / "pg_ctl").is_file():
            return d, ""
    return None, "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin"


class Postgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1 and a free port (trust authentication, user
    ``postgres``) in a temporary directory: :attr:`url`, :meth:`stop` (``pg_ctl stop -m
    immediate``: every connection cut, as in a crash, or ``fast``) and :meth:`start` again, on the
    same port and data.  Use :func:`postgres_server`."""

    def __init__(self) -> None:
        pytest.importorskip("psycopg", reason="the PostgreSQL case needs psycopg (the [server] extra)")
        bindir, why = _postgres_bin()
        if bindir is None:
            pytest.skip(why)
        self.bindir = bindir
        self.prefix: list[str] = []
        owner: tuple[int, int] | None = None
        if os.geteuid() == 0:
            import pwd

            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root, and there is no 'postgres' system user to run PostgreSQL as")
            runuser = shutil.which("runuser")
            if runuser is None:
                pytest.skip("running as root, and runuser (to run PostgreSQL as 'postgres') is not found")
            self.prefix = [runuser, "-u", "postgres", "--"]
            owner = (pw.pw_uid, pw.pw_gid)
        self.base = Path(tempfile.mkdtemp(prefix="pd32-pg-"))
        self.data, self.sockets, self.logfile = self.base / "data", self.base / "sock", self.base / "postgres.log"
        self.port = free_port()
        self.running = False
        self.sockets.mkdir()
        if owner is not None:
            os.chown(self.base, *owner)
            os.chown(self.sockets, *owner)
        self.env = dict(os.environ, LC_ALL="C", LANG="C")
        self._run([str(bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-instructions",
                   "-E", "UTF8", "--no-sync"], "initdb")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, args: list[str], what: str) -> None:
        r = subprocess.run(self.prefix + args, capture_output=True, text=True, env=self.env, timeout=120,
                           cwd=self.base)
        if r.returncode != 0:
            log = self.logfile.read_text(errors="replace")[-2000:] if self.logfile.exists() else ""
            pytest.skip(f"PostgreSQL cannot run here: {what} failed ({r.returncode}): "
                        f"{(r.stderr or r.stdout).strip()[-800:]} {log}")

    def start(self) -> None:
        self._run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.logfile), "-w", "-t", "60", "-o",
                   f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c max_connections=100", "start"],
                  "pg_ctl start")
        self.running = True

    def stop(self, mode: str = "fast") -> None:
        subprocess.run([*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60",
                        "stop"], capture_output=True, timeout=120, cwd=self.base)
        self.running = False

    def remove(self) -> None:
        if self.running:
            self.stop()
        shutil.rmtree(self.base, ignore_errors=True)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Postgres]:
    """A started :class:`Postgres`, removed afterwards (skips the calling test, saying why, where
    the binaries are missing, psycopg is not installed, or it cannot be set up or started)."""
    pg = Postgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.remove()


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL ``postgresql://postgres@127.0.0.1:PORT/postgres`` of a throwaway PostgreSQL
    cluster (:func:`postgres_cluster`).

    PostgreSQL refuses to run as root: as root it runs as the ``postgres`` system user (through
    ``runuser``).  Skips the calling test, saying why, where the binaries are missing, psycopg is
    not installed, or the cluster cannot be set up or started.
    """
    with postgres_cluster() as pg:
        yield pg.url
