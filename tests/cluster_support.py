"""What the cluster tests share (``tests/test_server_cluster.py``, ``test_server_cluster_attack.py``,
``test_server_cluster_inprocess.py``, ``test_server_cluster_failover.py``); no tests here.

* real processes: :func:`processes` (``pokerdraw32 serve`` with ``--lease`` :data:`LEASE`),
  :func:`running`, :func:`terminate_all`, :func:`cluster_view` (``/api/cluster``),
  :func:`tables_run_by`, :func:`spread`, :func:`tracebacks`, :func:`http_status`;
* a bare WebSocket client, :class:`Raw`;
* ``GameServer`` s of this event loop: :func:`one_process`, :func:`two_processes` (sharing a database),
  :func:`client`, :func:`received`, :func:`wait`, :func:`join`; the relay's stand-ins
  :class:`FakeHost`, :class:`FakeConn`, :class:`FakeWebSocket`;
* runs under failovers: :func:`seeded` (``PD32_CLUSTER_SEED``), :func:`busy_cluster`,
  :func:`playing`, :func:`play_until`, :func:`hands_played`, :func:`more_hands`,
  :func:`just_after_an_act`, :class:`Watcher`, :class:`Lobby`, and :func:`check_run`, the
  checks of the database and the clients after a run.

Importing it needs the [server] extra: ``server_support`` skips the importing test module
(``pytest.importorskip``) where websockets, starlette or uvicorn are missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import urllib.error
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from server_support import (
    MOVES,
    RACES,
    BotClient,
    ServerProcess,
    check_archive,
    check_client_against_db,
    check_log,
    check_table_ledger,
    messages_of,
    read_db,
    redact,
    tables_config,
    until,
    write_tables,
)
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import WebSocketException

from pokerdraw32.server.config import ServerSettings, TableConfig
from pokerdraw32.server.connection import Connection, Remote
from pokerdraw32.server.protocol import Limits

LEASE = 1.5
"""The processes' ``--lease`` (seconds): a dead owner's tables are taken over after at most this."""


def seeded(name: str) -> random.Random:
    """The run's random choices: seeded from ``PD32_CLUSTER_SEED`` if set (to replay a failed
    run), else at random; the seed is printed, so that a failure's output says how to replay it."""
    seed = int(os.environ.get("PD32_CLUSTER_SEED", random.randrange(1 << 32)))
    print(f"{name}: PD32_CLUSTER_SEED={seed}")
    return random.Random(seed)


# ---------------------------------------------------------------------------- real processes
def processes(tmp_path: Path, url: str, tables: list[dict[str, Any]], n: int, **kw: Any) -> list[ServerProcess]:
    """``n`` server processes (not started) on the database ``url`` serving ``tables`` (written to
    ``tmp_path/tables.json``), logging to ``tmp_path/server<k>.log``, with ``--lease`` :data:`LEASE`;
    ``kw``: :class:`server_support.ServerProcess` options over these defaults."""
    tables_file = write_tables(tmp_path / "tables.json", tables)
    opts: dict[str, Any] = {"hand_pause": 0.05, "bot_delay": 0.01, "grace": 60.0, "log_level": "info"}
    opts.update(kw)
    return [ServerProcess(url, tables_file, tmp_path / f"server{k}.log", extra=("--lease", str(LEASE)), **opts)
            for k in range(n)]


@contextlib.contextmanager
def running(servers: list[ServerProcess], start: int | None = None) -> Iterator[list[ServerProcess]]:
    """Start the first ``start`` processes (all by default); kill every one on the way out."""
    try:
        for s in servers[:start]:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.kill()


def terminate_all(servers: list[ServerProcess], *, some_gone: bool = False) -> None:
    """Stop every process with SIGTERM and check that each exits cleanly (status 0 or -SIGTERM),
    after checking that it still runs (``some_gone``: those no longer running are passed over)."""
    for s in servers:
        if some_gone and not s.running():
            continue
        assert s.running(), s.log_tail()
        assert s.terminate() in (0, -signal.SIGTERM), s.log_tail()


def cluster_view(server: ServerProcess) -> dict[str, Any]:
    """The process's ``GET /api/cluster``: its ``server`` id, the live ``servers``, each table's
    owner (``tables``) and the tables it runs (``mine``)."""
    data: dict[str, Any] = json.loads(server.get("/api/cluster", timeout=5))
    return data


def tables_run_by(server: ServerProcess) -> list[str]:
    """The tables the process runs (owns), as its ``/api/cluster`` says (``mine``)."""
    mine: list[str] = cluster_view(server)["mine"]
    return mine


def spread(servers: list[ServerProcess], tables: int, timeout: float = 20.0) -> dict[str, ServerProcess]:
    """Wait until the tables are spread over ``servers`` (each table run by one, their counts
    within one of each other); table -> owner."""
    deadline = time.monotonic() + timeout
    while True:
        views = [cluster_view(s) for s in servers]
        owner = {t: s for s, v in zip(servers, views, strict=True) for t in v["mine"]}
        counts = [len(v["mine"]) for v in views]
        if len(owner) == sum(counts) == tables and max(counts) - min(counts) <= 1:
            return owner
        assert time.monotonic() < deadline, views
        time.sleep(0.1)


def tracebacks(servers: list[ServerProcess]) -> list[str]:
    """Each process log's first traceback, with what was logged just before it (should be none)."""
    out = []
    for s in servers:
        text = s.log_text()
        if "Traceback" in text:
            i = text.index("Traceback")
            out.append(f"{s.log_path.name}:\n{text[max(0, i - 400):i + 3000]}")
    return out


def http_status(server: ServerProcess, path: str) -> int:
    """The HTTP status of ``GET path`` at ``server`` (200, or the error's)."""
    try:
        server.get(path, timeout=10)
        return 200
    except urllib.error.HTTPError as exc:
        return exc.code


# ---------------------------------------------------------------------------- a bare WebSocket client
class Raw:
    """A bare WebSocket client: sends what it is given (text or an object), keeps every message."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ws: Any = None
        self.got: list[dict[str, Any]] = []
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Raw:
        self.ws = await ws_connect(self.url, proxy=None, max_size=1 << 24, open_timeout=10, ping_interval=None)

        async def read() -> None:
            try:
                async for raw in self.ws:
                    for m in messages_of(raw):
                        self.got.append(m)
                        self._queue.put_nowait(m)
            except Exception:       # closed: the None below says so
                pass
            finally:
                self._queue.put_nowait(None)
        self._reader = asyncio.create_task(read())
        welcome = await self.next(10)
        assert welcome is not None and welcome["type"] == "welcome", welcome
        return self

    async def __aexit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def next(self, timeout: float) -> dict[str, Any] | None:
        return await asyncio.wait_for(self._queue.get(), timeout)

    async def until(self, cond: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> list[dict[str, Any]]:
        """The messages up to and including the first for which ``cond`` holds."""
        out = []
        end = time.monotonic() + timeout
        while True:
            try:
                m = await self.next(max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                raise AssertionError(f"{self.url}: nothing matching within {timeout} s; got "
                                     f"{[brief(x) for x in out[-8:]]}") from None
            assert m is not None, f"{self.url}: the connection closed; got {[brief(x) for x in out[-8:]]}"
            out.append(m)
            if cond(m):
                return out

    async def ask(self, msg: dict[str, Any] | str, rid: Any, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Send ``msg`` and return the messages up to its answer: the reply with ``id`` ``rid``, or
        an error without ``id`` (a message refused before its ``id`` was read)."""
        await self.send(msg)
        return await self.until(lambda m: (m.get("id") == rid and m["type"] != "event")
                                or (m["type"] == "error" and "id" not in m and m.get("code") not in MOVES), timeout)

    async def quiet(self, seconds: float) -> list[dict[str, Any]]:
        """What arrives in the next ``seconds``."""
        out = []
        end = time.monotonic() + seconds
        with contextlib.suppress(asyncio.TimeoutError):
            while (left := end - time.monotonic()) > 0:
                m = await self.next(left)
                if m is None:
                    break
                out.append(m)
        return out


def brief(m: dict[str, Any]) -> tuple[Any, ...]:
    """A message in short, for a failure's message: type, code, id, seq, the entry's kind."""
    return (m.get("type"), m.get("code"), m.get("id"), m.get("seq"), (m.get("event") or {}).get("kind"))


# ---------------------------------------------------------------------------- two processes in one event loop
class FakeWebSocket:
    """Stands for a client's WebSocket (a connection without one is a relayed client's)."""


class FakeHost:
    """What a :class:`pokerdraw32.server.cluster.Cluster` needs of its server, for testing the
    relay alone: default limits, no store, no rooms, ``conns`` by connection id."""

    limits = Limits()
    store = None

    def __init__(self) -> None:
        self.rooms: dict[str, object] = {}
        self.conns: dict[int, Any] = {}


class FakeConn:
    """A relayed client's connection, for testing the relay alone: bound at ``remote``; keeps what
    it is sent in ``got`` as (text, replay)."""

    closed = False
    pending = None

    def __init__(self, remote: Remote | None) -> None:
        self.got: list[tuple[str, bool]] = []
        self.remote = remote
        self.asked: dict[Any, float] = {}

    def send_text(self, text: str, *, replay: bool = False) -> None:
        self.got.append((text, replay))


def client(server: Any) -> Connection:
    """A client connection of ``server`` (a GameServer): what ``serve`` makes of a WebSocket."""
    conn = Connection(FakeWebSocket(), server.limits, next(server._cids))  # type: ignore[arg-type]
    server.conns[conn.cid] = conn
    conn.let_go = server.cluster.let_go
    return conn


def received(conn: Connection) -> list[dict[str, Any]]:
    """The messages queued for ``conn`` since the last call (taken off its queue)."""
    out = [json.loads(text) for text, _ in conn.out]
    conn.out.clear()
    return out


async def wait(cond: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait until ``cond()``; fail, naming ``what``, after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.02)


async def join(server: Any, conn: Connection, table: str, name: str, **fields: Any) -> str:
    """Join ``table`` through ``server`` (again after ``unavailable``: the tables may be spreading);
    the seat's token."""
    end = time.monotonic() + 10
    got: list[dict[str, Any]] = []
    for rid in range(1, 100):
        await server.dispatch(conn, {"type": "join", "id": rid, "table": table, "name": name, **fields})
        answer: dict[str, Any] | None = None
        while time.monotonic() < end:
            got += received(conn)
            answer = next((m for m in got if m.get("id") == rid), None)
            if answer is not None:
                break
            await asyncio.sleep(0.02)
        assert answer is not None and time.monotonic() < end, f"join {table}: no answer; got {got[-5:]}"
        if answer["type"] == "joined":
            await wait(lambda: conn.room is not None or conn.remote is not None, 5, "bound")
            return str(answer["token"])
        assert answer.get("code") in MOVES, answer
        await asyncio.sleep(0.2)
    raise AssertionError(f"join {table}: {got[-5:]}")


@contextlib.asynccontextmanager
async def one_process(db: str, tables: int = 1, bots: dict[str, str] | None = None,
                      **settings: Any) -> AsyncIterator[Any]:
    """A started GameServer of this event loop on ``db`` (a SQLite file, or a PostgreSQL URL: a
    process of a cluster, lease 1 s) serving ``tables`` tables of four seats (``bots``: a rule bot
    at seat 0 by default), ``settings`` its ServerSettings; stopped on the way out."""
    from pokerdraw32.server.app import GameServer

    configs = [TableConfig.from_dict(t) for t in tables_config(tables, 4, bots=bots or {"0": "rule"})]
    server = GameServer(db, configs, ServerSettings(**settings), lease=1.0)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def two_processes(url: str, tables: int, **settings: Any) -> AsyncIterator[tuple[Any, Any]]:
    """Two :func:`one_process` es on the PostgreSQL database ``url``, ``tables`` tables spread
    over them; both stopped on the way out."""
    async with one_process(url, tables, **settings) as a, one_process(url, tables, **settings) as b:
        await wait(lambda: abs(len(a.rooms) - len(b.rooms)) <= 1 and len(a.rooms) + len(b.rooms) == tables, 10,
                   "the tables spread over the two processes")
        yield a, b


# ---------------------------------------------------------------------------- runs under failovers
def rotated(urls: list[str], k: int) -> list[str]:
    """``urls`` starting at the ``k``-th (modulo their number): a client's processes, in the order it tries them."""
    k %= len(urls)
    return urls[k:] + urls[:k]


def busy_cluster(tmp_path: Path, url: str, n: int, rng: random.Random, *, think: float, give_up: float,
                 **kw: Any) -> tuple[list[str], list[ServerProcess], list[BotClient]]:
    """``n`` processes (not started; ``kw``: their options) serving four tables of four seats (bots
    at seats 0 and 1), and a client for seats 2 and 3 of each (``think``, ``give_up``: the
    :class:`server_support.BotClient` options, its seed from ``rng``), client ``i`` connected to
    process ``i mod n`` first (most of them to another process than their table's owner).
    Returns (table ids, processes, clients)."""
    tables = tables_config(4, 4, bots={"0": "rule", "1": "random"})
    ids = [t["id"] for t in tables]
    servers = processes(tmp_path, url, tables, n, **kw)
    urls = [s.ws_url for s in servers]
    clients = [BotClient(rotated(urls, i), tid, f"{tid}-p{seat}", seat=seat, seed=rng.randrange(1 << 32),
                         think=think, give_up=give_up)
               for i, (tid, seat) in enumerate((t, s) for t in ids for s in (2, 3))]
    return ids, servers, clients


@contextlib.asynccontextmanager
async def playing(runners: Iterable[Any]) -> AsyncIterator[None]:
    """Run each of ``runners`` (``run(stop)``: clients, watchers, a lobby poller) as a task while
    the block runs; then tell them to stop and wait for them."""
    stop = asyncio.Event()
    tasks = [asyncio.create_task(x.run(stop)) for x in runners]
    try:
        yield
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)


async def play_until(cond: Callable[[], bool], timeout: float, what: str, clients: list[BotClient]) -> None:
    """:func:`server_support.until`; on a timeout it prints, too, what each client left more than
    five hands behind received last."""
    try:
        await until(cond, timeout, what, clients)
    except AssertionError:
        if not any(c.failure for c in clients):
            most = max(c.hands for c in clients)
            for c in clients:
                if c.hands < most - 5:
                    print(f"{c.name} (hands {c.hands}) received last:",
                          *[(*brief(m), (m.get("message") or "")[:80]) for m in c.messages[-25:]], sep="\n  ")
        raise


async def hands_played(clients: list[BotClient], hands: int, timeout: float) -> None:
    """Wait until every client has seen ``hands`` hands end (:func:`play_until`)."""
    await play_until(lambda: min(c.hands for c in clients) >= hands, timeout, f"{hands} hands", clients)


async def more_hands(clients: list[BotClient], hands: int, timeout: float, what: str) -> None:
    """Wait until every client has seen ``hands`` more hands end than now (:func:`play_until`)."""
    start = {c.name: c.hands for c in clients}
    await play_until(lambda: all(c.hands >= start[c.name] + hands for c in clients), timeout, what, clients)


async def just_after_an_act(clients: list[BotClient], among: list[BotClient] | None = None,
                            timeout: float = 10.0) -> None:
    """Return as soon as one of ``among`` (all ``clients`` by default) sends an action, or after
    ``timeout`` seconds: a process killed then may be killed in the middle of its commit."""
    for c in clients:
        c.act_sent.clear()
    waits = [asyncio.create_task(c.act_sent.wait()) for c in (clients if among is None else among)]
    await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for w in waits:
        w.cancel()


class Watcher:
    """An onlooker of one table that connects to the processes in turn (the next one after a
    drop) and watches again from its last entry after ``moved``/``unavailable``; records every
    entry (``events``), and ``problems``: a gap, an entry twice, an error of another kind."""

    def __init__(self, urls: list[str], table: str) -> None:
        self.urls = urls
        self.table = table
        self.last = 0
        self.events: dict[int, dict[str, Any]] = {}
        self.problems: list[str] = []
        self.watches = 0

    async def run(self, stop: asyncio.Event) -> None:
        k = 0
        while not stop.is_set():
            url = self.urls[k % len(self.urls)]
            k += 1
            try:
                async with ws_connect(url, proxy=None, max_size=1 << 24, open_timeout=5, ping_interval=None) as ws:
                    await asyncio.wait_for(ws.recv(), 5)                        # welcome
                    await self._watch(ws)
                    while not stop.is_set():
                        try:
                            raw = await asyncio.wait_for(ws.recv(), 0.5)
                        except asyncio.TimeoutError:
                            continue
                        for m in messages_of(raw):
                            await self._receive(ws, m)
            except (OSError, asyncio.TimeoutError, WebSocketException):
                await asyncio.sleep(0.2)

    async def _watch(self, ws: Any) -> None:
        self.watches += 1
        await ws.send(json.dumps({"type": "watch", "id": self.watches, "table": self.table, "last_seq": self.last}))

    async def _receive(self, ws: Any, m: dict[str, Any]) -> None:
        if m["type"] == "event":
            seq = m["seq"]
            if seq != self.last + 1:
                self.problems.append(f"{'gap' if seq > self.last + 1 else 'twice'}: entry {seq} after {self.last}")
            if seq > self.last:
                self.last = seq
            self.events[seq] = m
        elif m["type"] == "error":
            if m.get("code") in MOVES:
                if m["code"] == "unavailable":
                    await asyncio.sleep(0.2)
                await self._watch(ws)
            else:
                self.problems.append(f"error {m}")

    def check(self, dump: Any) -> None:
        """What it received against the database (a :class:`server_support.DbDump`): every entry
        from the first, once, each the stored entry as an onlooker may see it."""
        stored = dump.events[self.table]
        assert self.problems == [], f"watcher of {self.table}: {self.problems[:5]}"
        assert sorted(self.events) == list(range(1, self.last + 1)), f"watcher of {self.table}: entries missing"
        for seq, m in self.events.items():
            hand, e = stored[seq]
            assert m["event"] == redact(e, None) and m["hand"] == hand, (
                f"watcher of {self.table}, entry {seq}: received {m['event']}, stored {e}")


class Lobby:
    """Polls every running process's HTTP routes (the lobby, the cluster, a table page, an
    archive) and the ``tables`` message over a WebSocket; records any answer but 200 (503 is
    allowed only while ``outage`` is set)."""

    def __init__(self, servers: list[ServerProcess], tables: list[str]) -> None:
        self.servers = servers
        self.tables = tables
        self.outage = False
        self.bad: list[str] = []
        self.polls = 0

    async def run(self, stop: asyncio.Event) -> None:
        rng = random.Random(7)
        while not stop.is_set():
            s = rng.choice([s for s in self.servers if s.running()] or self.servers)
            t = rng.choice(self.tables)
            outage = self.outage
            for route in ("/api/tables", "/api/cluster", f"/table/{t}", f"/api/tables/{t}/hands.phhs"):
                try:
                    code = await asyncio.to_thread(http_status, s, route)
                except OSError:
                    continue                          # the process died meanwhile
                self.polls += 1
                if code != 200 and not (code == 503 and (outage or self.outage)):
                    self.bad.append(f"{s.port}{route}: {code}")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.3)


def check_run(url: str, ids: list[str], clients: list[BotClient], servers: list[ServerProcess],
              allowed: frozenset[str] = frozenset()) -> None:
    """The database and the clients after a run: no traceback in any of ``servers``' logs; the
    database holds exactly the tables ``ids``, each table's log numbered without a gap, chips
    conserved, hands archived; each client's log == the stored log as its seat may see it (no
    gap, no duplicate, no card leaked); each client had actions acknowledged, each stored, once;
    no error but races, failovers and ``allowed``.  Every client is checked before it fails."""
    errors = tracebacks(servers)
    assert errors == [], errors[0]
    dump = read_db(url)
    assert sorted(dump.tables) == sorted(ids)
    for tid in ids:
        check_log(dump, tid)                              # numbered 1..seq: no gap, nothing twice
        bought, paid, on_table = check_table_ledger(dump.tables[tid][1])
        assert bought == paid + on_table
        hands = check_archive(dump, tid)
        print(f"{tid}: {hands} hands archived, {dump.tables[tid][2]} entries; {bought} bought in, {paid} paid out, "
              f"{on_table} on the table")
    problems = []
    for c in clients:
        if c.seq_problems:                                # what it received around the first one
            seq = int(c.seq_problems[0].split("event ")[1].split()[0])
            at = [i for i, m in enumerate(c.messages) if m.get("seq") == seq]
            window = c.messages[max(0, at[0] - 12):at[-1] + 4] if at else []
            print(f"{c.name} around entry {seq}:", *[(*brief(m), (m.get("message") or "")[:70])
                                                     for m in window], sep="\n  ")
        try:
            n = check_client_against_db(c, dump)          # its log == the stored log as its seat may see it
        except AssertionError as exc:
            problems.append(f"{c.name}: {str(exc)[:600]}")
            continue
        other = [e for e in c.errors if e.get("code") not in RACES | MOVES | allowed]
        if other:
            i = c.messages.index(other[0])
            problems.append(f"{c.name}: errors {other[:3]}; around the first: "
                            f"{[brief(m) for m in c.messages[max(0, i - 12):i + 2]]}")
        # an act cut off by a failover and sent again (same seq) is applied at most once
        acked = Counter(a.seq for a in c.acts if a.reply is not None and a.reply.get("type") == "ok")
        if not acked:
            problems.append(f"{c.name}: no action acknowledged")
        elif max(acked.values()) > 1:
            problems.append(f"{c.name}: an act acknowledged twice: {acked.most_common(2)}")
        print(f"{c.name}: {n} entries, {c.connects} connections, {c.resumes} resumes, {c.moves} moved, "
              f"{sum(acked.values())} acknowledged")
    assert problems == [], "\n".join(problems)
