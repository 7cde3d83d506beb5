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
* :func:`postgres_server`: a throwaway PostgreSQL cluster (skips the test where it cannot run);
* :func:`run_load`: the load driver of the load test and its benchmark.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import math
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
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
    data = _loads(frame)
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

    :param url: ``ws://127.0.0.1:PORT/ws``.
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

    def __init__(self, url: str, table: str, name: str, *, seat: int | None = None, seed: int = 0,
                 think: float = 0.0, record: bool = True, give_up: float = 60.0, chips: int | None = None,
                 all_in: float = 0.04) -> None:
        self.url = url
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

    # ------------------------------------------------------------------ the connection
    async def run(self, stop: asyncio.Event) -> None:
        """Play until ``stop`` is set (then close the connection), reconnecting after drops."""
        backoff = 0.05
        down_since: float | None = None
        while not stop.is_set() and not self.done:
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
            if self.token is None:
                msg: dict[str, Any] = {"type": "join", "id": self._id(), "table": self.table, "name": self.name}
                if self.want_seat is not None:
                    msg["seat"] = self.want_seat
                if self.chips is not None:
                    msg["chips"] = self.chips
            else:
                self.resumes += 1
                msg = {"type": "resume", "id": self._id(), "table": self.table, "token": self.token,
                       "last_seq": self.last_seq or 0}
            await ws.send(json.dumps(msg))
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
            if m.get("code") in ("bad_token", "seat_taken", "no_such_table") or (
                    self.token is None and m.get("id") is not None and m.get("code") not in RACES):
                raise ClientFailure(f"{self.name}: {m.get('code')}: {m.get('message')}")
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
        return [e for e in self.errors if e.get("code") not in RACES]


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
    whole snapshot put in its state (``state["table"]``, with the ledger)."""
    from pokerdraw32.server.room import stored_table

    if url.startswith(("postgresql://", "postgres://")):
        import psycopg

        conn: Any = psycopg.connect(url)
    else:
        path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
        conn = sqlite3.connect(path)
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
    (``HandHistory.loads(text).replay()``) to the stacks of its ``hand_end`` entry.  Returns
    the number of hands.

    :raises AssertionError: naming the hand.
    """
    from pokerdraw32.history import HandHistory

    ends = {hand: e["stacks"] for hand, e in dump.events[table_id].values() if e.get("kind") == "hand_end"}
    archived = dump.hands[table_id]
    assert sorted(archived) == sorted(ends), (
        f"table {table_id}: hands ended in the log {sorted(set(ends) - set(archived))} are not archived, "
        f"archived {sorted(set(archived) - set(ends))} did not end in the log")
    assert sorted(ends) == list(range(1, len(ends) + 1)), f"table {table_id}: hands {sorted(ends)} have gaps"
    for hand, text in sorted(archived.items()):
        replayed = HandHistory.loads(text, source=f"{table_id} hand {hand}").replay()
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


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on 127.0.0.1 and a free port (trust authentication, user
    ``postgres``), in a temporary directory removed afterwards; yields its URL
    ``postgresql://postgres@127.0.0.1:PORT/postgres``.

    PostgreSQL refuses to run as root: as root it runs as the ``postgres`` system user (through
    ``runuser``).  Skips the calling test, saying why, where the binaries are missing, psycopg is
    not installed, or the cluster cannot be set up or started.
    """
    pytest.importorskip("psycopg", reason="the PostgreSQL case needs psycopg (the [server] extra)")
    bindir, why = _postgres_bin()
    if bindir is None:
        pytest.skip(why)
    prefix: list[str] = []
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
        prefix = [runuser, "-u", "postgres", "--"]
        owner = (pw.pw_uid, pw.pw_gid)
    base = Path(tempfile.mkdtemp(prefix="pd32-pg-"))
    data, sockets, logfile = base / "data", base / "sock", base / "postgres.log"
    port = free_port()
    started = False
    try:
        sockets.mkdir()
        if owner is not None:
            os.chown(base, *owner)
            os.chown(sockets, *owner)
        env = dict(os.environ, LC_ALL="C", LANG="C")

        def run(args: list[str], what: str) -> None:
            r = subprocess.run(prefix + args, capture_output=True, text=True, env=env, timeout=120, cwd=base)
            if r.returncode != 0:
                log = logfile.read_text(errors="replace")[-2000:] if logfile.exists() else ""
                pytest.skip(f"PostgreSQL cannot run here: {what} failed ({r.returncode}): "
                            f"{(r.stderr or r.stdout).strip()[-800:]} {log}")
        run([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-instructions",
             "-E", "UTF8", "--no-sync"], "initdb")
        run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(logfile), "-w", "-t", "60", "-o",
             f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c max_connections=50", "start"],
            "pg_ctl start")
        started = True
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if started:
            subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop"],
                           capture_output=True, timeout=120, cwd=base)
        shutil.rmtree(base, ignore_errors=True)


# ---------------------------------------------------------------------------- the load driver
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
    server_cpu: float | None         # seconds of CPU the server used in the run
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

    def cpu_per_action(self, part: int, parts: int = 5) -> float:
        """The server's CPU milliseconds per action acknowledged in the ``part``-th of ``parts``
        slices of the run (by actions; from the samples taken 4 times a second)."""
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

    def percentile(self, q: float) -> float:
        if not self.rtts:
            return float("nan")
        xs = sorted(self.rtts)                     # the nearest rank
        return xs[min(len(xs) - 1, max(0, math.ceil(q / 100 * len(xs)) - 1))]

    def report(self) -> str:
        p50, p99 = self.percentile(50) * 1000, self.percentile(99) * 1000
        mean = statistics.fmean(self.rtts) * 1000 if self.rtts else float("nan")
        races = sum(n for c, n in self.errors.items() if c in RACES)
        other = sum(n for c, n in self.errors.items() if c not in RACES)
        rows = [
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
            ("errors (other)", f"{other}" + (f" {dict(self.errors)}" if other else "")),
            ("server CPU per action, first / last fifth",
             f"{self.cpu_per_action(0):.2f} / {self.cpu_per_action(4):.2f} ms"),
            ("engine CPU per decision (same run)", "n/a" if self.engine_decision is None else
             f"{self.engine_decision * 1e6:.2f} us"),
            ("server CPU per action / engine's per decision", "n/a" if self.engine_decision is None or
             self.server_cpu is None or not self.actions else
             f"{self.server_cpu / self.actions / self.engine_decision:.0f}x"),
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


async def _drive(server: ServerProcess, tables: list[str], seats: int, hands: int, timeout: float, think: float,
                 seed: int, all_in: float) -> tuple[list[BotClient], float, float | None, float, bool,
                                                    list[tuple[int, float]]]:
    stop = asyncio.Event()
    clients = [BotClient(server.ws_url, tid, f"c{ti}-{s}", seat=s, seed=seed * 1000 + ti * 10 + s, think=think,
                         record=False, give_up=30.0, all_in=all_in)
               for ti, tid in enumerate(tables) for s in range(seats)]
    tasks = [asyncio.create_task(c.run(stop), name=c.name) for c in clients]
    start = time.monotonic()
    cpu0, me0 = server.cpu_seconds(), _self_cpu()
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
                cpu = server.cpu_seconds()
                if cpu is not None:
                    samples.append((sum(len(c.rtts) for c in clients), cpu))
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
        cpu1 = server.cpu_seconds()
        client_cpu = _self_cpu() - me0
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    return clients, seconds, server_cpu, client_cpu, timed_out, samples


def run_load(workdir: Path, *, tables: int = 20, seats: int = 5, hands: int = 2000, timeout: float = 480.0,
             db: str | None = None, think: float = 0.0, seed: int = 1, hand_pause: float = 0.05,
             buy_in: int = 2000, all_in: float = 0.0, extra: tuple[str, ...] = (), engine: bool = True,
             profile: Path | None = None, wrap: tuple[str, ...] = (), start_timeout: float = 60.0) -> LoadResult:
    """The load run: a server (a subprocess) with ``tables`` tables of ``seats`` seats and no
    bots, one :class:`BotClient` per seat in this process, until ``hands`` hands in total have
    finished (or ``timeout`` seconds); then the clients leave, the server stops (SIGTERM) and
    the database is checked: every table's ledger, every finished hand archived and replayed,
    the log numbered without a gap.  ``db`` defaults to a SQLite file in ``workdir``.

    The tables' maximum buy-in is ``buy_in`` (the clients' buy-in: deep stacks, and clients that
    go all in on ``all_in`` of their bets, so that few go broke: a re-buy between hands lands
    in the next hand and makes the acting player's ``seq`` stale, a race the protocol means).
    With ``engine``, the engine's CPU per decision at such a table is measured afterwards, the
    server stopped (:func:`engine_cpu_per_decision`), for the ratio the report prints.  With
    ``profile``, the server runs under cProfile and writes its statistics (its event loop's
    thread) to that file as it stops (``python -m pstats FILE``).  With ``wrap``, the server
    runs under that command (``valgrind ...``; ``start_timeout``: seconds it may take to start)."""
    workdir.mkdir(parents=True, exist_ok=True)
    db = db or str(workdir / "load.sqlite")
    tables_file = write_tables(workdir / "tables.json",
                               tables_config(tables, seats, decision_time=60.0, max_buy_in=buy_in))
    server = ServerProcess(db, tables_file, workdir / "server.log", hand_pause=hand_pause, bot_delay=0.01,
                           grace=600.0, extra=extra, profile=profile, wrap=wrap)
    with server:
        server.start(timeout=start_timeout)
        ids = [f"t{i}" for i in range(tables)]
        with asyncio.Runner(loop_factory=_fast_loop()) as runner:     # the clients' loop: uvloop if installed
            clients, seconds, server_cpu, client_cpu, timed_out, samples = runner.run(
                _drive(server, ids, seats, hands, timeout, think, seed, all_in))
        status = server.terminate(timeout=max(30.0, start_timeout))
    dump = read_db(db)
    problems = [f"{c.name}: {p}" for c in clients for p in c.seq_problems[:5]]
    problems += [f"{c.name}: {c.failure}" for c in clients if c.failure]
    log = server.log_text()
    if "Traceback" in log:
        problems.append(f"the server logged an exception:\n{log[log.index('Traceback') - 300:][:3000]}")
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
                      client_cpu, ledgers, archived, problems, status, timed_out, acks, samples,
                      engine_cpu_per_decision(seats, buy_in, seed=seed) if engine else None,
                      sum(c.frames for c in clients))
