"""The game server's cluster attacked as an adversarial reviewer would: real ``pokerdraw32 serve``
processes on 127.0.0.1 sharing a throwaway PostgreSQL (skipped, saying why, where it cannot run),
real WebSocket clients, each run bounded in time (PROTOCOL.md, Cluster).

A client may connect to any process (its **edge**); a request for a table another process owns
is relayed to that **owner**.  What a client sees must not depend on that:

* bad input through an edge gets the answer the owner gives its own clients (the single-process
  code path), the connection stays open, the table does not change, nothing crashes;
* requests without an ``id``, requests pipelined behind a ``join``/``resume``/``watch``, a second
  ``join`` on a connection that holds a seat elsewhere, a request in flight when its table moves:
  each answered as a single process would (or with ``moved``/``unavailable``, never a misleading
  ``not_seated``);
* seat requests (``sit_out``, ``add_chips``, ``showdown``, ``leave``), watchers, a connection
  moving from one process's table to another's, two connections resuming one seat, a client
  that vanishes (its seat sat out after the grace period), replays longer than a notification;
* processes killed (the edge, the owner), stopped (SIGTERM), added (the tables spread), and
  PostgreSQL stopped (``-m immediate``, ``-m fast``, longer than the lease) while hands run: at the
  end no gap or duplicate in any client's log, every acknowledged action stored once, chips
  conserved, each table's log numbered without a gap, no traceback in any server log, and the
  lobby and the archive served (or refused with 503) by every process throughout.

``PD32_CLUSTER_SEED=N`` replays a failed run's choices (its seed is printed).
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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
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
    messages_of,
    postgres_cluster,
    read_db,
    redact,
    tables_config,
    write_tables,
)
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import WebSocketException

from pokerdraw32.server.config import ServerSettings, TableConfig
from pokerdraw32.server.connection import Connection
from pokerdraw32.server.protocol import Limits, ProtocolError, read_message
from pokerdraw32.server.store import StorageError

LEASE = 1.5
"""The processes' ``--lease`` (seconds)."""


def _seed(name: str) -> random.Random:
    seed = int(os.environ.get("PD32_CLUSTER_SEED", random.randrange(1 << 32)))
    print(f"{name}: PD32_CLUSTER_SEED={seed}")
    return random.Random(seed)


@pytest.fixture
def pg() -> Iterator[Postgres]:
    with postgres_cluster() as cluster:
        yield cluster


def _processes(tmp_path: Path, url: str, tables: list[dict[str, Any]], n: int, **kw: Any) -> list[ServerProcess]:
    tables_file = write_tables(tmp_path / "tables.json", tables)
    opts: dict[str, Any] = {"hand_pause": 0.05, "bot_delay": 0.01, "grace": 60.0, "log_level": "info"}
    opts.update(kw)
    return [ServerProcess(url, tables_file, tmp_path / f"server{k}.log", extra=("--lease", str(LEASE)), **opts)
            for k in range(n)]


@contextlib.contextmanager
def _running(servers: list[ServerProcess], start: int | None = None) -> Iterator[list[ServerProcess]]:
    """Start the first ``start`` processes (all by default); kill every one on the way out."""
    try:
        for s in servers[:start]:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.kill()


def _cluster(server: ServerProcess) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(server.get("/api/cluster", timeout=5))
    return data


def _spread(servers: list[ServerProcess], tables: int, timeout: float = 20.0) -> dict[str, ServerProcess]:
    """Wait until the tables are spread over ``servers`` (each table run by one, their counts
    within one of each other); table -> owner."""
    deadline = time.monotonic() + timeout
    while True:
        views = [_cluster(s) for s in servers]
        owner = {t: s for s, v in zip(servers, views, strict=True) for t in v["mine"]}
        counts = [len(v["mine"]) for v in views]
        if len(owner) == tables and max(counts) - min(counts) <= 1:
            return owner
        assert time.monotonic() < deadline, views
        time.sleep(0.1)


def _tracebacks(servers: list[ServerProcess]) -> list[str]:
    out = []
    for s in servers:
        text = s.log_text()
        if "Traceback" in text:
            i = text.index("Traceback")
            out.append(f"{s.log_path.name}:\n{text[max(0, i - 400):i + 3000]}")
    return out


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
                                     f"{[_brief(x) for x in out[-8:]]}") from None
            assert m is not None, f"{self.url}: the connection closed; got {[_brief(x) for x in out[-8:]]}"
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


def _brief(m: dict[str, Any]) -> tuple[Any, ...]:
    return (m.get("type"), m.get("code"), m.get("id"), m.get("seq"), (m.get("event") or {}).get("kind"))


def _answer(msgs: list[dict[str, Any]]) -> tuple[Any, ...]:
    """The reply (last message) of :meth:`Raw.ask` as compared between processes."""
    m = msgs[-1]
    return (m["type"], m.get("code"), m.get("id"), m.get("message"))


# ---------------------------------------------------------------------------- bad input through an edge
def _bad_inputs(table: str) -> list[tuple[Any, str]]:
    """(id, text) of requests that every server must refuse, none changing anything."""
    t = json.dumps(table)
    plain = [
        '{"type":"join","id":1,"table":T}',
        '{"type":"join","id":2,"table":T,"name":"' + "x" * 65 + '"}',
        '{"type":"join","id":3,"table":T,"name":"bot-evil"}',
        '{"type":"join","id":4,"table":T,"name":"a","seat":99}',
        '{"type":"join","id":5,"table":T,"name":"a","seat":"1"}',
        '{"type":"join","id":6,"table":T,"name":"a","seat":1.5}',
        '{"type":"join","id":7,"table":T,"name":"a","seat":-1}',
        '{"type":"join","id":8,"table":T,"name":"a","chips":-5}',
        '{"type":"join","id":9,"table":T,"name":"a","chips":100000000000000000000000000000}',
        '{"type":"join","id":10,"table":T,"name":"a","chips":1.0}',
        '{"type":"join","id":11,"table":T,"name":"a","wait":"yes"}',
        '{"type":"join","id":12,"table":T,"name":"a","key":""}',
        '{"type":"join","id":13,"table":T,"name":"a","key":{"k":[1,2]}}',
        '{"type":"join","id":14,"table":T,"name":"a","seat":0}',
        '{"type":"join","id":15,"table":T,"name":"a","chips":1}',
        '{"type":"join","id":16,"table":T,"name":"\\u0000\\t\\n"}',
        '{"type":"join","id":17,"table":T,"name":" padded "}',
        '{"type":"join","id":18,"table":T,"name":["a"]}',
        '{"type":"join","id":19,"table":12,"name":"a"}',
        '{"type":"join","id":20,"table":{"id":T},"name":"a"}',
        '{"type":"join","id":21,"table":"' + "z" * 300 + '","name":"a"}',
        '{"type":"resume","id":"q\\"uo\\\\te","table":T}',
        '{"type":"resume","id":"\\u00e9\\u20ac\\ud83d\\ude00","table":T,"token":5}',
        '{"type":"resume","id":"\\ud800","table":T,"token":""}',
        '{"type":"resume","id":-7,"table":T,"token":"' + "t" * 129 + '"}',
        '{"type":"resume","id":9007199254740991,"table":T,"token":"nope"}',
        '{"type":"resume","id":"","table":T,"token":"nope","last_seq":-1}',
        '{"type":"resume","id":27,"table":T,"token":"nope","last_seq":"3"}',
        '{"type":"resume","id":28,"table":T,"token":"nope","last_seq":9007199254740993}',
        '{"type":"watch","id":29,"table":T,"last_seq":99999999}',
        '{"type":"watch","id":30,"table":T,"last_seq":-3}',
        '{"type":"watch","id":31,"table":T,"last_seq":true}',
        '{"type":"act","id":32,"kind":"check"}',
        '{"type":"act","id":33,"kind":"bet"}',
        '{"type":"leave","id":34}',
        '{"type":"showdown","id":35,"show":"x"}',
        '{"type":"add_chips","id":36,"chips":10}',
        '{"type":"sit_in","id":37}',
        '{"type":"watch","id":38,"table":T,"last_seq":0,"pad":"' + "\u00e9\u20ac" * 600 + '"}',
    ]
    out: list[tuple[Any, str]] = [(json.loads(p.replace("T", "0"))["id"], p.replace("T", t)) for p in plain]
    # nested arrays in an ignored field and in a read one, up to what json reads at all: the
    # server answers each plainly (never "internal", never a traceback), the same through any process
    for k, depth in enumerate(range(900, 1000, 3)):
        nested = "[" * depth + "]" * depth
        out.append((100 + k, f'{{"type":"resume","id":{100 + k},"table":{t},"token":"nope","x":{nested}}}'))
        out.append((200 + k, f'{{"type":"join","id":{200 + k},"table":{t},"name":{nested}}}'))
    out.append((300, f'{{"type":"watch","id":300,"table":{t},"last_seq":{"[" * 40 + "]" * 40}}}'))
    return out


def test_bad_input_through_an_edge_is_answered_as_by_the_owner(pg: Postgres, tmp_path: Path) -> None:
    """Every bad request for table T sent through a process that does not own T gets exactly
    the answer T's owner gives its own clients (the single-process code path), the connection
    stays open, T does not change, and no server logs a traceback or answers ``internal``."""
    tables = tables_config(2, 4, bots={"0": "rule"})           # one bot a table: no hand runs
    with _running(_processes(tmp_path, pg.url, tables, 2)) as servers:
        owner = _spread(servers, 2)
        table = "t0"
        edge = next(s for s in servers if s is not owner[table])
        probes = _bad_inputs(table)
        before = read_db(pg.url).tables[table][2]

        async def run(url: str) -> list[tuple[Any, ...]]:
            answers = []
            async with Raw(url) as c:
                for rid, text in probes:
                    reply = await c.ask(text, rid)
                    answers.append(_answer(reply))
                    await asyncio.sleep(0.06)                 # under the rate limit (20 a second)
                pong = await c.ask({"type": "ping", "id": "still-open"}, "still-open")
                assert pong[-1]["type"] == "pong"
            return answers
        at_owner = asyncio.run(run(owner[table].ws_url))
        through_edge = asyncio.run(run(edge.ws_url))
        errors = _tracebacks(servers)
    differ = [(text[:70], a, b) for (_, text), a, b in zip(probes, at_owner, through_edge, strict=True) if a != b]
    assert differ == [], "bad input through an edge answered differently than at the table's owner:\n" + "\n".join(
        f"  {t}\n    owner: {a}\n    edge:  {b}" for t, a, b in differ)
    internal = [(text[:60], a) for (_, text), a in zip(probes, at_owner, strict=True) if a[1] == "internal"]
    assert internal == [], f"bad input answered 'internal' (a server bug): {internal}"
    dump = read_db(pg.url)
    assert dump.tables[table][2] == before, "a refused request changed the table's log"
    assert [p["name"] for p in dump.tables[table][1]["players"]] == ["bot-0"]
    assert errors == [], errors[0]


def test_deeply_nested_json_is_refused_as_bad_message() -> None:
    """A message whose JSON nests deeper than a request ever does is refused by name
    (``bad_message``) before any handler sees it: nesting close to what ``json`` reads made
    the handlers' own ``json.dumps`` (the relay's forward, an error message quoting the value)
    overflow the stack, answered ``internal`` with a traceback."""
    limits = Limits()
    ok = read_message('{"type":"act","kind":"discard","cards":["7c","8d"],"x":{"a":[[{"b":1}]]}}', limits)
    assert ok["cards"] == ["7c", "8d"]
    for depth in (17, 40, 500):
        with pytest.raises(ProtocolError, match="nests at most 16 levels") as err:
            read_message('{"type":"ping","x":%s}' % ("[" * depth + "]" * depth), limits)
        assert err.value.code == "bad_message"
    with pytest.raises(ProtocolError, match=r"nests at most|not JSON"):   # json itself may give up first
        read_message('{"type":"ping","x":%s}' % ("[" * 980 + "]" * 980), limits)
    assert read_message('{"type":"ping","x":%s}' % ("[" * 14 + "{}" + "]" * 14), limits)["type"] == "ping"


# ---------------------------------------------------------------------------- requests through an edge
def test_join_resume_watch_without_an_id_through_an_edge(pg: Postgres, tmp_path: Path) -> None:
    """``id`` is optional (PROTOCOL.md, Conventions): a ``join``, ``resume`` or ``watch``
    without one, for a table another process owns, is answered through the edge exactly as at
    the owner (``joined`` with the token, ``resumed``, ``watching``, each followed by a state).
    The edge used to drop the answer: it binds a client by its answer's id."""
    tables = tables_config(2, 4, bots={"0": "rule"})
    with _running(_processes(tmp_path, pg.url, tables, 2)) as servers:
        owner = _spread(servers, 2)
        edge = next(s for s in servers if s is not owner["t0"])

        async def run() -> None:
            async with Raw(edge.ws_url) as c:
                await c.send({"type": "join", "table": "t0", "name": "no-id", "seat": 2})
                got = await c.until(lambda m: m["type"] in ("joined", "error"), 5)
                assert got[-1]["type"] == "joined", f"a join without id through an edge: {got}"
                assert "id" not in got[-1]
                token = got[-1]["token"]
                st = await c.until(lambda m: m["type"] == "state", 5)
                assert st[-1]["you"] == 2
            async with Raw(edge.ws_url) as c:
                await c.send({"type": "resume", "table": "t0", "token": token})
                got = await c.until(lambda m: m["type"] in ("resumed", "error"), 5)
                assert got[-1]["type"] == "resumed" and "id" not in got[-1], got
                await c.until(lambda m: m["type"] == "state", 5)
                ok = await c.ask({"type": "sit_out", "id": 1}, 1)
                assert ok[-1]["type"] == "ok", ok
                await c.send({"type": "sit_in"})                 # a seat request without id too
                got = await c.until(lambda m: m["type"] in ("ok", "error"), 5)
                assert got[-1]["type"] == "ok" and "id" not in got[-1], got
            async with Raw(edge.ws_url) as c:
                await c.send({"type": "watch", "table": "t0", "last_seq": 0})
                got = await c.until(lambda m: m["type"] in ("watching", "error"), 5)
                assert got[-1]["type"] == "watching" and "id" not in got[-1], got
                await c.until(lambda m: m["type"] == "state", 5)
                await c.send({"type": "resume", "table": "t0", "token": "not a token"})
                got = await c.until(lambda m: m["type"] in ("resumed", "error"), 5)
                assert got[-1].get("code") == "bad_token" and "id" not in got[-1], got
        asyncio.run(run())
        assert _tracebacks(servers) == []


def test_unicode_names_join_keys_and_a_flood_through_an_edge(pg: Postgres, tmp_path: Path) -> None:
    """Through a process that does not own the table: a name and a join ``key`` outside ASCII
    reach the table intact (stored, listed in every lobby); the same join repeated with its key
    through the owner finds the seat (a new token; the first stops working); a seated client's
    bad actions get the owner's answers (``stale``, ``bad_message``); and a burst of 60 requests
    is cut by the edge's rate limit as at the owner (40 answered, then ``rate_limited``; each
    request answered once), the connection kept."""
    tables = tables_config(2, 4, bots={"0": "rule"})
    name, key = "Zo\u00eb \u540d\u524d \U0001f0a1", "cl\u00e9-\U0001f511-" + "k" * 40
    with _running(_processes(tmp_path, pg.url, tables, 2)) as servers:
        owner = _spread(servers, 2)
        b = owner["t0"]
        a = next(s for s in servers if s is not b)

        async def burst(c: Raw) -> Counter[str]:
            await asyncio.sleep(2.5)                       # the rate limiter's bucket full again
            c.got.clear()
            for rid in range(100, 160):
                await c.send({"type": "sit_out", "id": rid})
            await c.quiet(3.0)
            return Counter("rate_limited" if m.get("code") == "rate_limited" else "answered" for m in c.got
                           if m["type"] in ("ok", "error") and ((m.get("id") or 0) >= 100 or "id" not in m))

        async def run() -> dict[str, Any]:
            out: dict[str, Any] = {}
            async with Raw(a.ws_url) as c:
                got = await c.ask({"type": "join", "id": 1, "table": "t0", "name": name, "key": key}, 1)
                assert got[-1]["type"] == "joined", got
                first, seat = got[-1]["token"], got[-1]["seat"]
                st = await c.until(lambda m: m["type"] == "state", 5)
                assert next(x for x in st[-1]["view"]["seats"] if x["seat"] == seat)["name"] == name
                for rid, bad, code in ((2, {"kind": "check", "seq": 1}, "stale"),
                                       (3, {"kind": "fold", "amount": 3}, "bad_message"),
                                       (4, {"kind": "discard", "cards": ["Zz"]}, "bad_message"),
                                       (5, {"kind": "raise", "amount": -1}, "bad_message"),
                                       (6, {"kind": "timeout"}, "bad_message")):
                    got = await c.ask({"type": "act", "id": rid, **bad}, rid)
                    assert got[-1].get("code") == code, (bad, got[-1])
                out["edge"] = await burst(c)
                pong = await c.ask({"type": "ping", "id": "alive"}, "alive")
                assert pong[-1]["type"] == "pong"
            async with Raw(b.ws_url) as c:
                got = await c.ask({"type": "join", "id": 1, "table": "t0", "name": name, "key": key}, 1)
                assert got[-1]["type"] == "joined" and got[-1]["seat"] == seat and got[-1]["token"] != first, got
                out["owner"] = await burst(c)
            async with Raw(a.ws_url) as c:
                got = await c.ask({"type": "resume", "id": 1, "table": "t0", "token": first}, 1)
                assert got[-1].get("code") == "bad_token", got
            for s in servers:
                lobby = json.loads(s.get("/api/tables"))["tables"]
                assert name in [p["name"] for t in lobby for p in t["players"]], lobby
            return out
        out = asyncio.run(run())
        errors = _tracebacks(servers)
    for where in ("edge", "owner"):      # 40 at once, then 20 a second: the exact cut depends on timing
        assert sum(out[where].values()) == 60 and 15 <= out[where]["rate_limited"] <= 20, out
    stored = [p["name"] for p in read_db(pg.url).tables["t0"][1]["players"]]
    assert stored == ["bot-0", name], stored
    assert errors == [], errors[0]


def test_one_seat_per_connection_across_processes(pg: Postgres, tmp_path: Path) -> None:
    """A connection holds at most one seat (PROTOCOL.md): one seated at a table of process B
    through process A is refused a ``join`` at A's own table (``already_seated``), as a single
    process refuses it, and nothing changes at either table."""
    tables = tables_config(2, 4, bots={"0": "rule"})
    with _running(_processes(tmp_path, pg.url, tables, 2)) as servers:
        owner = _spread(servers, 2)
        a = owner["t0"]
        remote = "t1"
        assert owner[remote] is not a

        async def run() -> None:
            async with Raw(a.ws_url) as c:
                got = await c.ask({"type": "join", "id": 1, "table": remote, "name": "one"}, 1)
                assert got[-1]["type"] == "joined", got
                await c.until(lambda m: m["type"] == "state", 5)
                got = await c.ask({"type": "join", "id": 2, "table": "t0", "name": "two"}, 2)
                assert got[-1].get("code") == "already_seated", (
                    f"a connection seated at {remote} (another process's table) was let join t0 too: {got[-1]}")
                got = await c.ask({"type": "sit_out", "id": 3}, 3)   # still playing its first seat
                assert got[-1]["type"] == "ok", got
        asyncio.run(run())
    players = {t: [p["name"] for p in st["players"]] for t, (_, st, _) in read_db(pg.url).tables.items()}
    assert players == {"t0": ["bot-0"], "t1": ["bot-0", "one"]}, players


def test_requests_sent_at_once_through_an_edge_are_answered_in_order(pg: Postgres, tmp_path: Path) -> None:
    """A client may send its next request without waiting for the answer to the last one: a
    single process handles a connection's requests in order.  Through an edge, a request behind
    a ``join``/``resume``/``watch`` relayed to another process must be handled after its answer:

    * resume then ``sit_in``: ``resumed``, then ``ok`` at the resumed seat (was ``not_seated``,
      answered before the ``resumed``; or applied at the seat being left);
    * two joins, the first at another process's table, the second at the edge's own:
      ``joined`` then ``already_seated`` (the second used to seat the client a second time, and
      the first seat was silently let go);
    * a resume with a bad token then ``sit_out``: ``bad_token``, then ``ok`` at the seat the
      connection still holds.
    """
    tables = tables_config(2, 4, bots={"0": "rule"})
    with _running(_processes(tmp_path, pg.url, tables, 2)) as servers:
        owner = _spread(servers, 2)
        edge = owner["t1"]
        assert owner["t0"] is not edge

        async def run() -> None:
            async with Raw(owner["t0"].ws_url) as c:
                got = await c.ask({"type": "join", "id": 1, "table": "t0", "name": "pipe"}, 1)
                token, seq = got[-1]["token"], got[-1]["seq"]
            cases: list[tuple[str, str, list[dict[str, Any]], list[tuple[str, str | None]]]] = [
                ("owner", owner["t0"].ws_url, [{"type": "resume", "table": "t0", "token": token, "last_seq": seq},
                                               {"type": "sit_out"}], [("resumed", None), ("ok", None)]),
                ("edge", edge.ws_url, [{"type": "resume", "table": "t0", "token": token, "last_seq": seq},
                                       {"type": "sit_in"}], [("resumed", None), ("ok", None)]),
                ("edge", edge.ws_url, [{"type": "join", "table": "t0", "name": "twice", "seat": 3},
                                       {"type": "join", "table": "t1", "name": "twice-b"}],
                 [("joined", None), ("error", "already_seated")]),
                ("edge", edge.ws_url, [{"type": "resume", "table": "t0", "token": token, "last_seq": seq},
                                       {"type": "resume", "table": "t1", "token": "not a token"},
                                       {"type": "sit_out"}],
                 [("resumed", None), ("error", "bad_token"), ("ok", None)]),
            ]
            for where, url, msgs, want in cases:
                async with Raw(url) as c:
                    for rid, msg in enumerate(msgs, 1):
                        await c.send({**msg, "id": rid})
                    last = len(msgs)
                    got = await c.until(lambda m, last=last: m.get("id") == last and m["type"] != "event", 5)
                    order = [(m["type"], m.get("code")) for m in got if m.get("id") is not None]
                    assert order == want, (f"{where}: {[m['type'] for m in msgs]} sent at once, answered {order}, "
                                           f"as a single process: {want}")
        asyncio.run(run())
    players = {t: [p["name"] for p in st["players"]] for t, (_, st, _) in read_db(pg.url).tables.items()}
    assert players == {"t0": ["bot-0", "pipe", "twice"], "t1": ["bot-0"]}, players


def test_seat_requests_watchers_and_replays_through_an_edge(pg: Postgres, tmp_path: Path) -> None:
    """Through a process that does not own the table: ``sit_out``/``sit_in``/``showdown``/
    ``add_chips``/``leave`` are applied once and answered as at the owner; a watcher and a
    resume from ``last_seq`` 0 replay the whole log (thousands of entries, far more than one
    notification holds) equal to the stored log as each may see it; a connection seated at its
    own process's table resumes a seat at another's and stops receiving the first table; two
    connections resuming one seat through two processes: the first gets ``replaced``; a client
    that vanishes is sat out after the grace period (the owner heard its goodbye)."""
    tables = tables_config(2, 4, bots={"0": "rule", "1": "rule"})
    with _running(_processes(tmp_path, pg.url, tables, 3, grace=2.0, hand_pause=0.0, bot_delay=0.0)) as servers:
        owner = _spread(servers, 2)
        b = owner["t0"]
        a = owner["t1"]
        c3 = next(s for s in servers if s not in (a, b))
        time.sleep(3.0)                                      # the bots play: a long log to replay

        async def run() -> dict[str, Any]:
            out: dict[str, Any] = {}
            async with Raw(a.ws_url) as p, Raw(c3.ws_url) as w:
                got = await p.ask({"type": "join", "id": 1, "table": "t1", "name": "mover"}, 1)   # A's own table
                t1_token, t1_joined = got[-1]["token"], got[-1]["seq"]
                got = await w.ask({"type": "watch", "id": 1, "table": "t0", "last_seq": 0}, 1)    # through C
                out["watch_from"] = 0
                out["watch"] = await w.until(lambda m: m["type"] == "state", 20)
                # seat at B's table through A, same connection: t1's seat is let go
                async with Raw(a.ws_url) as j:
                    got = await j.ask({"type": "join", "id": 1, "table": "t0", "name": "remote", "seat": 3}, 1)
                    token, joined = got[-1]["token"], got[-1]["seq"]
                got = await p.ask({"type": "resume", "id": 2, "table": "t0", "token": token, "last_seq": joined}, 2)
                assert got[-1]["type"] == "resumed", got
                await p.until(lambda m: m["type"] == "state", 10)
                await p.quiet(0.5)
                p.got.clear()
                for rid, msg in enumerate(({"type": "sit_out"}, {"type": "sit_in"}), 3):
                    got = await p.ask({**msg, "id": rid}, rid)
                    assert got[-1]["type"] == "ok", got
                await p.quiet(1.0)
                assert {m.get("table") for m in p.got if m["type"] in ("event", "state")} == {"t0"}, \
                    "t1's messages still reach the connection that resumed a seat at t0"
                # showdown during its hand, add_chips between hands (else the rule's refusal)
                for rid in range(10, 40):
                    got = await p.ask({"type": "showdown", "id": rid, "show": True}, rid)
                    if got[-1]["type"] == "ok":
                        break
                    assert got[-1].get("code") == "table_error", got
                got = await p.ask({"type": "add_chips", "id": 50, "chips": 1}, 50)
                assert got[-1]["type"] == "error" and got[-1]["code"] in ("table_error", "illegal"), got
                # the same seat resumed through C by another connection: p is replaced
                async with Raw(c3.ws_url) as q:
                    got = await q.ask({"type": "resume", "id": 1, "table": "t0", "token": token, "last_seq": 0}, 1)
                    assert got[-1]["type"] == "resumed", got
                    out["resume"] = await q.until(lambda m: m["type"] == "state", 20)
                    out["resume_seat"], out["joined"] = 3, joined
                    await p.until(lambda m: m.get("code") == "replaced", 5)
                    got = await p.ask({"type": "sit_out", "id": 60}, 60)
                    assert got[-1].get("code") == "not_seated", got
                    got = await q.ask({"type": "leave", "id": 2}, 2)
                    assert got[-1]["type"] == "ok", got
                    await q.until(lambda m: m["type"] == "left", 20)
                # the t1 seat let go by p: sat out after the grace period, as a vanished client's
                t1 = await w.ask({"type": "watch", "id": 9, "table": "t1", "last_seq": t1_joined}, 9)
                assert t1[-1]["type"] == "watching", t1
                await w.until(lambda m: m["type"] == "event" and m["event"].get("kind") == "sat_out"
                              and m["event"].get("seat") == 2, 10)
            # a client through B at A's table vanishes without a word: sat out after the grace period
            gone = Raw(b.ws_url)
            await gone.__aenter__()
            got = await gone.ask({"type": "join", "id": 1, "table": "t1", "name": "vanish", "seat": 3}, 1)
            assert got[-1]["type"] == "joined", got
            vanished = got[-1]["seq"]
            gone.ws.transport.abort()
            async with Raw(c3.ws_url) as w2:
                await w2.ask({"type": "watch", "id": 1, "table": "t1", "last_seq": vanished}, 1)
                await w2.until(lambda m: m["type"] == "event" and m["event"].get("kind") == "sat_out"
                               and m["event"].get("seat") == 3 and m["event"].get("reason") == "disconnected", 10)
            await gone.__aexit__()
            assert t1_token
            return out
        out = asyncio.run(run())
        assert _tracebacks(servers) == []
    dump = read_db(pg.url)
    stored = dump.events["t0"]
    for key, seat in (("watch", None), ("resume", out["resume_seat"])):
        events = [m for m in out[key] if m["type"] == "event"]
        seqs = [m["seq"] for m in events]
        assert seqs == list(range(1, len(seqs) + 1)), f"{key}: replayed {len(seqs)} entries with a gap or twice"
        assert len(seqs) > 500, f"{key}: only {len(seqs)} entries: not a long replay"
        for m in events:
            hand, e = stored[m["seq"]]
            viewer = seat if seat is not None and m["seq"] > out["joined"] else None
            assert m["event"] == redact(e, viewer) and m["hand"] == hand, (key, m, e)
    for tid in ("t0", "t1"):
        check_log(dump, tid)
        check_table_ledger(dump.tables[tid][1])


def test_a_client_whose_process_dies_is_sat_out_after_the_grace_period(pg: Postgres, tmp_path: Path) -> None:
    """A client seated through process A at process B's table, and A is SIGKILLed: nobody says
    goodbye, B finds A gone when A's heartbeat lapses (a lease) and lets go of A's clients, so
    the seat is sat out after the grace period (``sat_out``, reason ``disconnected``), as a
    single process does when a WebSocket drops; resuming through B afterwards sits it in again."""
    tables = tables_config(2, 4, bots={"0": "rule"})
    with _running(_processes(tmp_path, pg.url, tables, 2, grace=2.0)) as servers:
        owner = _spread(servers, 2)
        b = owner["t0"]
        a = next(s for s in servers if s is not b)

        async def run() -> None:
            c = Raw(a.ws_url)
            await c.__aenter__()
            got = await c.ask({"type": "join", "id": 1, "table": "t0", "name": "orphan", "seat": 2}, 1)
            assert got[-1]["type"] == "joined", got
            token, joined = got[-1]["token"], got[-1]["seq"]
            a.kill()
            killed = time.monotonic()
            async with Raw(b.ws_url) as w:
                await w.ask({"type": "watch", "id": 1, "table": "t0", "last_seq": joined}, 1)
                await w.until(lambda m: m["type"] == "event" and m["event"].get("kind") == "sat_out"
                              and m["event"].get("seat") == 2, 3 * LEASE + 2.0 + 5.0)
                took = time.monotonic() - killed
                assert took < 3 * LEASE + 2.0 + 5.0
            async with Raw(b.ws_url) as r:
                got = await r.ask({"type": "resume", "id": 1, "table": "t0", "token": token, "last_seq": joined}, 1)
                assert got[-1]["type"] == "resumed", got
                await r.until(lambda m: m["type"] == "event" and m["event"].get("kind") == "sat_in"
                              and m["event"].get("reason") == "returned", 5)
            with contextlib.suppress(Exception):
                await c.__aexit__()
        asyncio.run(run())
        assert _tracebacks(servers) == []


# ---------------------------------------------------------------------------- in one process
def test_a_request_in_flight_when_its_table_moves_is_not_answered_not_seated(tmp_path: Path) -> None:
    """When a table moves to another process its clients get ``moved`` and resume; a request
    they sent before that message reached them must not be answered ``not_seated`` (it reads as
    "you lost your seat", and PROTOCOL.md promises ``moved``/``unavailable`` instead).  Seen in
    the failover runs below as ``not_seated`` errors for ``act``s in flight; here made exact in one
    process: the table is dropped as a cluster drops it, then the connection's request arrives."""
    from pokerdraw32.server.app import GameServer

    async def run() -> list[dict[str, Any]]:
        tables = [TableConfig.from_dict(t) for t in tables_config(1, 4, bots={"0": "rule"})]
        server = GameServer(str(tmp_path / "db.sqlite"), tables, ServerSettings(hand_pause=0.05))
        await server.start()
        try:
            conn = Connection(None, server.limits, 1)
            await server.dispatch(conn, {"type": "join", "id": 1, "table": "t0", "name": "x"})
            await server.drop("t0", "the tables are spread over the server processes")
            await server.dispatch(conn, {"type": "sit_out", "id": 2})
            return [json.loads(text) for text, _ in conn.out]
        finally:
            await server.stop()
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
    from pokerdraw32.server.app import GameServer

    async def run() -> list[dict[str, Any]]:
        tables = [TableConfig.from_dict(t) for t in tables_config(1, 4, bots={"0": "rule"})]
        server = GameServer(str(tmp_path / "db.sqlite"), tables, ServerSettings(hand_pause=30.0))
        await server.start()
        assert server.store is not None
        try:
            first, second = (Connection(_WebSocket(), server.limits, k) for k in (1, 2))  # type: ignore[arg-type]
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
            assert next(m for m in _received(second) if m.get("id") == 2)["code"] == "storage"
            return _received(first)
        finally:
            await server.stop()
    got = asyncio.run(run())
    answer = next(m for m in got if m.get("id") == 2)
    assert answer["type"] == "ok", f"a request behind a refused commit was answered {answer}"


def test_a_table_that_cannot_be_read_again_is_let_go(pg: Postgres) -> None:
    """A process whose commit is refused as stale drops the table and reads it again; if that
    read fails (the database restarting), the process must let go of the table's lease so that
    a process (maybe itself, later) takes it over.  It used to keep renewing the lease of a table
    it no longer ran: the table was dead, for every client of every process, until it stopped."""
    import psycopg

    from pokerdraw32.server.app import GameServer

    async def run() -> None:
        tables = [TableConfig.from_dict(t) for t in tables_config(1, 4, bots={"0": "rule", "1": "rule"})]
        server = GameServer(pg.url, tables, ServerSettings(hand_pause=0.01, bot_delay=0.0), lease=1.0)
        await server.start()
        assert server.store is not None and server.cluster is not None
        real = server.store.load_table
        failing = True

        async def load_table(table_id: str) -> Any:
            if failing:
                raise StorageError("the database read failed: (made to fail by the test)")
            return await real(table_id)
        server.store.load_table = load_table  # type: ignore[method-assign]
        try:
            assert "t0" in server.rooms and "t0" in server.cluster.owned
            with psycopg.connect(pg.url, autocommit=True) as c:      # a commit whose answer was lost
                c.execute("UPDATE pd32_tables SET seq = seq + 100 WHERE id = 't0'")
            deadline = time.monotonic() + 10
            while "t0" in server.rooms:
                assert time.monotonic() < deadline, "the stale table was not dropped"
                await asyncio.sleep(0.05)
            deadline = time.monotonic() + 3
            while "t0" in server.cluster.owned:
                assert time.monotonic() < deadline, (
                    "the process keeps the lease of table t0, which it no longer runs (it could not read it again): "
                    "nobody can take the table over")
                await asyncio.sleep(0.05)
            failing = False
            deadline = time.monotonic() + 10
            while "t0" not in server.rooms:                           # taken again once readable
                assert time.monotonic() < deadline, "table t0 was not taken again"
                await asyncio.sleep(0.05)
        finally:
            await server.stop()
    asyncio.run(run())


# ---------------------------------------------------------------------------- two processes in one event loop
class _WebSocket:
    """Stands for a client's WebSocket (a connection without one is a relayed client's)."""


def _client(server: Any) -> Connection:
    """A client connection of ``server`` (a GameServer): what ``serve`` makes of a WebSocket."""
    conn = Connection(_WebSocket(), server.limits, next(server._cids))  # type: ignore[arg-type]
    server.conns[conn.cid] = conn
    conn.let_go = server.cluster.let_go
    return conn


def _received(conn: Connection) -> list[dict[str, Any]]:
    out = [json.loads(text) for text, _ in conn.out]
    conn.out.clear()
    return out


async def _wait(cond: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.02)


async def _join(server: Any, conn: Connection, table: str, name: str, **fields: Any) -> str:
    """Join ``table`` through ``server`` (again after ``unavailable``: the tables may be spreading);
    the seat's token."""
    end = time.monotonic() + 10
    got: list[dict[str, Any]] = []
    for rid in range(1, 100):
        await server.dispatch(conn, {"type": "join", "id": rid, "table": table, "name": name, **fields})
        answer: dict[str, Any] | None = None
        while time.monotonic() < end:
            got += _received(conn)
            answer = next((m for m in got if m.get("id") == rid), None)
            if answer is not None:
                break
            await asyncio.sleep(0.02)
        assert answer is not None and time.monotonic() < end, f"join {table}: no answer; got {got[-5:]}"
        if answer["type"] == "joined":
            await _wait(lambda: conn.room is not None or conn.remote is not None, 5, "bound")
            return str(answer["token"])
        assert answer.get("code") in MOVES, answer
        await asyncio.sleep(0.2)
    raise AssertionError(f"join {table}: {got[-5:]}")


async def _two_processes(url: str, tables: int, **settings: Any) -> tuple[Any, Any]:
    from pokerdraw32.server.app import GameServer

    configs = [TableConfig.from_dict(t) for t in tables_config(tables, 4, bots={"0": "rule"})]
    a = GameServer(url, configs, ServerSettings(**settings), lease=1.0)
    await a.start()
    b = GameServer(url, configs, ServerSettings(**settings), lease=1.0)
    await b.start()
    await _wait(lambda: abs(len(a.rooms) - len(b.rooms)) <= 1 and len(a.rooms) + len(b.rooms) == tables, 10,
                "the tables spread over the two processes")
    return a, b


def test_a_goodbye_that_overtakes_a_resume_leaves_the_seat_disconnected(pg: Postgres) -> None:
    """A client seated through process E at table X of process O resumes its other seat at O's
    table Y, and its WebSocket closes before O handled the resume (Y's lock was held by a
    commit): E tells O goodbye, and O must not then bind Y's seat to that dead relayed
    connection.  It did: the seat counted as connected for ever, never sat out after the grace
    period, dealt in and timed out hand after hand."""
    async def run() -> None:
        a, b = await _two_processes(pg.url, 3, hand_pause=0.05, grace=1.0)
        try:
            o, e = (a, b) if len(a.rooms) == 2 else (b, a)
            x, y = sorted(o.rooms)
            other = _client(e)
            token = await _join(e, other, y, "y-seat", seat=3)
            await e.gone(other)
            conn = _client(e)
            await _join(e, conn, x, "x-seat", seat=3)
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
            await _wait(lambda: room.table.seat(3).sitting_out, 5, "seat 3 sat out after the grace period")
        finally:
            await a.stop()
            await b.stop()
    asyncio.run(run())


def test_a_process_never_relays_a_request_to_itself(pg: Postgres) -> None:
    """While a process lets go of a table or reads it again (a stale commit), the table is not
    in its rooms but the owners it knows still name it: a ``resume`` from its own client was
    relayed to itself through PostgreSQL, bound there to a relayed connection of its own client,
    and when the client resumed again locally it got ``replaced`` and stopped receiving the table
    (seen in ``test_postgres_restart_under_load``: a client stuck, its table waiting for its
    decision).  Such a request is answered ``unavailable`` (try again in a moment)."""
    from pokerdraw32.server.app import GameServer

    async def run() -> None:
        tables = [TableConfig.from_dict(t) for t in tables_config(1, 4, bots={"0": "rule"})]
        server = GameServer(pg.url, tables, ServerSettings(hand_pause=0.05), lease=1.0)
        await server.start()
        try:
            conn = _client(server)
            await server.dispatch(conn, {"type": "join", "id": 1, "table": "t0", "name": "self"})
            token = next(m for m in _received(conn) if m["type"] == "joined")["token"]
            await server.drop("t0", "its state is read again from the database")   # as _stale does
            assert server.cluster is not None and server.cluster.owner_of("t0") == server.cluster.id
            await server.dispatch(conn, {"type": "resume", "id": 2, "table": "t0", "token": token})
            assert conn.pending is None, "the process relayed its own client's resume to itself"
            answer = next(m for m in _received(conn) if m.get("id") == 2)
            assert answer["code"] == "unavailable", answer
        finally:
            await server.stop()
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
        a, b = await _two_processes(pg.url, 2, hand_pause=0.05)
        try:
            tb = next(iter(b.rooms))
            conn = _client(a)
            await _join(a, conn, tb, "x")
            assert list(b.cluster.remotes) == [(a.cluster.id, conn.cid)]
            await b.cluster._release(tb, "the tables are spread over the server processes")
            await _wait(lambda: any(m.get("code") == "moved" for m in _received(conn)), 5, "moved")
            await _wait(lambda: conn.remote is None, 5, "unbound")
            await a.gone(conn)
            await asyncio.sleep(1.0)
            assert list(b.cluster.remotes) == [], (
                f"process B still keeps {len(b.cluster.remotes)} relayed connection(s) of clients that left")
            # replaced: a second connection (at B itself) resumes the seat of a client relayed through A
            await _wait(lambda: len(a.rooms) == len(b.rooms) == 1, 10, "the tables spread again")
            ta = next(iter(a.rooms))
            tb2 = next(iter(b.rooms))
            assert tb2 != ta
            first = _client(a)
            token = await _join(a, first, tb2, "y")
            second = _client(b)
            await b.dispatch(second, {"type": "resume", "id": 1, "table": tb2, "token": token})
            await _wait(lambda: any(m.get("code") == "replaced" for m in _received(first)), 5, "replaced")
            await _wait(lambda: first.remote is None, 5, "unbound")
            await asyncio.sleep(0.5)
            assert list(b.cluster.remotes) == [], "process B keeps the relayed connection of a replaced client"
        finally:
            await a.stop()
            await b.stop()
    asyncio.run(run())


def test_pieces_of_a_lost_notification_are_not_glued_to_the_next_message() -> None:
    """A line longer than a notification goes as pieces; when the statement carrying its last
    pieces fails (the database restarting), the receiver holds the first ones, and the next line
    for the same client was glued to them: a client got invalid JSON, or an owner failed to read
    a request (a traceback, and the rest of that notification dropped).  ``_lost`` now tells the
    receiver to drop them (flag ``z``)."""
    from pokerdraw32.server.cluster import Cluster

    class Host:
        limits = Limits()
        store = None

        def __init__(self) -> None:
            self.rooms: dict[str, object] = {}
            self.conns: dict[int, object] = {}

    class Conn:
        closed = False
        pending = None

        def __init__(self, owner: str) -> None:
            self.got: list[str] = []
            self.asked: dict[Any, float] = {}
            self.remote = type("R", (), {"owner": owner, "table": "t0"})()

        def send_text(self, text: str, *, replay: bool = False) -> None:
            self.got.append(text)

    async def run() -> None:
        owner = Cluster(Host(), "postgresql://unused")  # type: ignore[arg-type]
        edge = Cluster(Host(), "postgresql://unused")  # type: ignore[arg-type]
        conn = Conn(owner.id)
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
        assert conn.got == [short], f"the edge passed on {[t[:60] + '...' for t in conn.got]}"
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

    class Host:
        limits = Limits()
        store = None

        def __init__(self) -> None:
            self.rooms: dict[str, object] = {}
            self.conns: dict[int, Connection] = {}

    async def run() -> None:
        edge = Cluster(Host(), "postgresql://unused")  # type: ignore[arg-type]
        owner = "0123456789ab"
        edge.live.add(owner)
        conn = Connection(_WebSocket(), Limits(), 7)  # type: ignore[arg-type]
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


def test_a_join_refused_by_a_lost_lease_is_answered_unavailable(pg: Postgres) -> None:
    """A process slow to renew a lease (a loaded machine: ``--lease`` 1.5 s) finds at its next
    commit that another process took the table: the write is refused (fenced), nothing applied.
    A ``join`` so refused was answered ``storage``, which clients take for a database failure (the
    test clients give up on a join so answered: a flaky failure of the cluster tests on a busy
    machine); it is answered ``unavailable`` (join again, with the same key).  The clients bound to
    the table get one ``moved`` each, and a refused request of theirs still ``storage``: one
    signal to resume, not two (two made clients resume twice and get the entries twice)."""
    import psycopg

    from pokerdraw32.server.app import GameServer

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        tables = [TableConfig.from_dict(t) for t in tables_config(1, 4, bots={"0": "rule"})]
        server = GameServer(pg.url, tables, ServerSettings(hand_pause=30.0), lease=1.0)
        await server.start()
        try:
            seated, joining = _client(server), _client(server)
            await server.dispatch(seated, {"type": "join", "id": 1, "table": "t0", "name": "seated"})
            _received(seated)
            with psycopg.connect(pg.url, autocommit=True) as c:        # another process took the table
                c.execute("UPDATE pd32_owners SET epoch = epoch + 1 WHERE table_id = 't0'")
            await server.dispatch(joining, {"type": "join", "id": 1, "table": "t0", "name": "late", "key": "k" * 20})
            await asyncio.sleep(0.5)
            return _received(joining), _received(seated)
        finally:
            await server.stop()
    joining, seated = asyncio.run(run())
    answer = next(m for m in joining if m.get("id") == 1)
    assert answer["code"] == "unavailable", f"a join refused by a lost lease was answered {answer}"
    signals = [m["code"] for m in seated if m.get("code") in MOVES]
    assert signals == ["moved"], f"a client bound to the table got {signals}"


# ---------------------------------------------------------------------------- the database's connections lost
def test_a_stale_commit_after_a_lost_read_connection_does_not_orphan_the_table(pg: Postgres, tmp_path: Path) -> None:
    """PostgreSQL restarted under load: a commit whose answer was lost went through, so the
    owner's next commit is refused as stale and it reads the table again, on its read connection,
    which the restart also cut (psycopg finds out at the first use).  That read must be retried
    on a new connection (or the table let go); it used to fail, and the owner kept renewing the
    lease of a table it no longer ran: every request for it got ``moved`` (through another
    process, a resume loop until ``rate_limited``) or ``no_such_table`` (at the owner), for good.

    Here the restart is made exact: the read connections are cut (``pg_terminate_backend``) and
    the table's row is moved on as a lost commit would have.
    """
    import psycopg

    tables = tables_config(2, 4, bots={"0": "rule", "1": "rule"})
    with _running(_processes(tmp_path, pg.url, tables, 2, hand_pause=0.01, bot_delay=0.0)) as servers:
        owner = _spread(servers, 2)
        target = owner["t0"]
        with psycopg.connect(pg.url, autocommit=True) as c:
            cut = c.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                            "AND datname = current_database() AND query = 'ROLLBACK'").fetchall()
            assert cut, "no read connection found to cut"
            c.execute("UPDATE pd32_tables SET seq = seq + 100 WHERE id = 't0'")
        deadline = time.monotonic() + 15
        while True:
            view = _cluster(target)
            mine = "t0" in view["mine"]
            other = next((s for s in servers if s is not target and "t0" in _cluster(s)["mine"]), None)
            if mine or other is not None:
                break
            assert time.monotonic() < deadline, (
                f"table t0 runs nowhere 15 s after a stale commit (owner {view['tables']['t0']}, the process that "
                f"dropped it is {view['server']}):\n" + target.log_tail(30))
            time.sleep(0.2)
        start = read_db(pg.url).tables["t0"][2]
        time.sleep(1.0)
        assert read_db(pg.url).tables["t0"][2] > start, "table t0 does not play again"


def _http(server: ServerProcess, path: str) -> int:
    try:
        server.get(path, timeout=10)
        return 200
    except urllib.error.HTTPError as exc:
        return exc.code


def test_lobby_and_archive_during_a_database_outage(pg: Postgres, tmp_path: Path) -> None:
    """With PostgreSQL down, every process still answers its HTTP routes: the lobby
    (``/api/tables``) and the archive (``/api/tables/<id>/hands.phhs``) with 503 (they need the
    database), ``/api/cluster``, ``/table/<id>`` and ``/healthz`` as usual, and no traceback is
    logged; once PostgreSQL is back everything answers 200 again.  They used to fail with 500 and
    an "Exception in ASGI application" traceback."""
    tables = tables_config(2, 4, bots={"0": "rule", "1": "rule"})
    with _running(_processes(tmp_path, pg.url, tables, 2)) as servers:
        _spread(servers, 2)
        routes = ("/api/tables", "/api/cluster", "/table/t0", "/api/tables/t1/hands.phhs", "/healthz")
        assert {s.port: [_http(s, r) for r in routes] for s in servers} == {s.port: [200] * 5 for s in servers}
        pg.stop("immediate")
        try:
            down = {s.port: [_http(s, r) for r in routes] for s in servers}
        finally:
            pg.start()
        time.sleep(2 * LEASE)
        up = {s.port: [_http(s, r) for r in routes] for s in servers}
        errors = _tracebacks(servers)
    # the lobby may come from its cache (a second old): 200; the archive needs the database: 503
    assert all(codes[0] in (200, 503) and codes[1:] == [200, 200, 503, 200] for codes in down.values()), (
        f"with the database down: {down}")
    assert up == {s.port: [200] * 5 for s in servers}, f"with the database back: {up}"
    assert errors == [], errors[0][:3000]


# ---------------------------------------------------------------------------- failovers under play
async def _until(cond: Callable[[], bool], timeout: float, what: str, clients: list[BotClient]) -> None:
    end = time.monotonic() + timeout
    while not cond():
        failed = [f"{c.name}: {c.failure}" for c in clients if c.failure]
        if failed:
            raise AssertionError(f"while waiting for {what}: {failed}")
        if time.monotonic() > end:
            most = max(c.hands for c in clients)
            for c in clients:
                if c.hands < most - 5:                  # what a client left behind received last
                    print(f"{c.name} (hands {c.hands}) received last:",
                          *[(*_brief(m), (m.get("message") or "")[:80]) for m in c.messages[-25:]], sep="\n  ")
            raise AssertionError(f"{what}: not within {timeout:.0f} s\n" + "\n".join(
                f"{c.name}: hands {c.hands}, live {c.live}, url {c.url}, errors {c.errors[-3:]}" for c in clients))
        await asyncio.sleep(0.05)


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
                    code = await asyncio.to_thread(_http, s, route)
                except OSError:
                    continue                          # the process died meanwhile
                self.polls += 1
                if code != 200 and not (code == 503 and (outage or self.outage)):
                    self.bad.append(f"{s.port}{route}: {code}")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.3)


def _check_run(url: str, ids: list[str], clients: list[BotClient], servers: list[ServerProcess],
               allowed: frozenset[str] = frozenset()) -> None:
    """The database and the clients after a run: no traceback; each table's log numbered
    without a gap, chips conserved, hands archived; each client's log == the stored log as its
    seat may see it (no gap, no duplicate, no card leaked); acknowledged actions stored, once;
    no error but races, failovers and ``allowed``."""
    assert _tracebacks(servers) == [], _tracebacks(servers)[0]
    dump = read_db(url)
    for tid in ids:
        check_log(dump, tid)
        bought, paid, on_table = check_table_ledger(dump.tables[tid][1])
        assert bought == paid + on_table
        check_archive(dump, tid)
    problems = []
    for c in clients:
        if c.seq_problems:                                # what it received around the first one
            seq = int(c.seq_problems[0].split("event ")[1].split()[0])
            at = [i for i, m in enumerate(c.messages) if m.get("seq") == seq]
            window = c.messages[max(0, at[0] - 12):at[-1] + 4] if at else []
            print(f"{c.name} around entry {seq}:", *[(*_brief(m), (m.get("message") or "")[:70])
                                                     for m in window], sep="\n  ")
        try:
            check_client_against_db(c, dump)
        except AssertionError as exc:
            problems.append(f"{c.name}: {str(exc)[:600]}")
            continue
        other = [e for e in c.errors if e.get("code") not in RACES | MOVES | allowed]
        if other:
            i = c.messages.index(other[0])
            problems.append(f"{c.name}: errors {other[:3]}; around the first: "
                            f"{[_brief(m) for m in c.messages[max(0, i - 12):i + 2]]}")
        acked = Counter(a.seq for a in c.acts if a.reply is not None and a.reply.get("type") == "ok")
        if acked and max(acked.values()) > 1:
            problems.append(f"{c.name}: an act acknowledged twice: {acked.most_common(2)}")
        print(f"{c.name}: {len(c.events)} entries, {c.connects} connections, {c.resumes} resumes, {c.moves} moved")
    assert problems == [], "\n".join(problems)


def test_processes_killed_stopped_and_added_while_hands_run(pg: Postgres, tmp_path: Path) -> None:
    """Four tables, eight clients each connected to a process that mostly does not own its
    table; while hands run: an edge is SIGKILLed (its clients reconnect elsewhere), an owner is
    stopped (SIGTERM: its tables are let go at once), a new process joins (the tables spread:
    ``moved``), the killed one comes back, another owner is SIGKILLed.  The lobby and the archive
    are polled on every process throughout.  Then everything is checked (:func:`_check_run`)."""
    rng = _seed("processes")
    tables = tables_config(4, 4, bots={"0": "rule", "1": "random"})
    ids = [t["id"] for t in tables]
    servers = _processes(tmp_path, pg.url, tables, 4, hand_pause=0.02, bot_delay=0.0)
    urls = [s.ws_url for s in servers]
    clients: list[BotClient] = [
        BotClient(urls[i % 4:] + urls[:i % 4], tid, f"{tid}-p{seat}", seat=seat, seed=rng.randrange(1 << 32),
                  think=0.03, give_up=30.0)
        for i, (tid, seat) in enumerate((t, s) for t in ids for s in (2, 3))]
    lobby = Lobby(servers, ids)
    watchers = [Watcher(urls[k + 1:] + urls[:k + 1], t) for k, t in enumerate(ids)]
    steps: list[str] = []
    with _running(servers, start=3):
        a, b, c, d = servers

        async def play() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(x.run(stop)) for x in [*clients, *watchers, lobby]]
            t0 = time.monotonic()

            async def more(what: str, n: int = 4) -> None:
                steps.append(f"{time.monotonic() - t0:5.1f} s: {what}")
                start = {x.name: x.hands for x in clients}
                await _until(lambda: all(x.hands >= start[x.name] + n for x in clients), 30,
                             f"{n} more hands after: {what}", clients)
            try:
                await _until(lambda: min(x.hands for x in clients) >= 2, 30, "2 hands", clients)
                mine = {s: len(_cluster(s)["mine"]) for s in (a, b, c)}
                edge = min(mine, key=lambda s: mine[s])            # owns the fewest: mostly an edge
                busy = max((s for s in (a, b, c) if s is not edge), key=lambda s: mine[s])
                last = next(s for s in (a, b, c) if s not in (edge, busy))
                edge.kill()
                await more("an edge SIGKILLed")
                await asyncio.to_thread(busy.terminate)
                await more("an owner stopped (SIGTERM)")
                await asyncio.to_thread(d.start)
                await more("a process added")
                await asyncio.to_thread(edge.start)
                await more("the killed process back")
                theirs = set(_cluster(last)["mine"])
                for x in clients:                           # kill it just after one of its clients acted
                    x.act_sent.clear()
                waits = [asyncio.create_task(x.act_sent.wait()) for x in clients if x.table in theirs]
                await asyncio.wait(waits, timeout=10, return_when=asyncio.FIRST_COMPLETED)
                for w in waits:
                    w.cancel()
                last.kill()
                await more(f"an owner SIGKILLed (tables {sorted(theirs)}) just after an act")
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
        asyncio.run(asyncio.wait_for(play(), 150))
        print(*steps, sep="\n")
        for s in servers:
            if s.running():
                assert s.terminate() in (0, -signal.SIGTERM), s.log_tail()
    assert sum(x.moves for x in clients) > 0
    assert lobby.polls > 20 and lobby.bad == [], lobby.bad[:10]
    _check_run(pg.url, ids, clients, servers)
    dump = read_db(pg.url)
    for w in watchers:
        w.check(dump)
        print(f"watcher of {w.table}: {len(w.events)} entries, {w.watches} watches")


@pytest.mark.xfail(strict=False, reason="open (issue 27): after PostgreSQL outages longer than the lease, a table "
                   "could stay without progress for more than 30 s (t1 stuck while the others played on). Causes "
                   "found since: BotClient never acted again after a 'storage' answer (the table waited for its "
                   "clock: fixed in server_support), a process relaying its own client's resume to itself, an edge "
                   "left bound after its owner's 'moved', a request behind a refused commit answered not_seated "
                   "(fixed); it passed 13 of 14 runs after them, the other a gap in one client's log at the start "
                   "(PD32_CLUSTER_SEED=3746042451, not reproduced in 15 runs of the start alone)")
def test_postgres_stopped_twice_and_longer_than_the_lease(pg: Postgres, tmp_path: Path) -> None:
    """PostgreSQL stopped under load four times: ``-m immediate`` twice in a row, ``-m fast``
    for longer than the lease, ``-m immediate`` for three leases; the two processes ride it
    out (requests in an outage get ``storage`` or ``moved``/``unavailable``), every table plays
    on after each restart, the lobby answers 200 or 503 throughout, and the run checks out
    (:func:`_check_run`)."""
    rng = _seed("postgres")
    tables = tables_config(4, 4, bots={"0": "rule", "1": "random"})
    ids = [t["id"] for t in tables]
    servers = _processes(tmp_path, pg.url, tables, 2, hand_pause=0.03, bot_delay=0.005)
    urls = [s.ws_url for s in servers]
    clients: list[BotClient] = [            # (think: well under the rate limit, 20 messages a second)
        BotClient(urls[i % 2:] + urls[:i % 2], tid, f"{tid}-p{seat}", seat=seat, seed=rng.randrange(1 << 32),
                  think=0.03, give_up=60.0)
        for i, (tid, seat) in enumerate((t, s) for t in ids for s in (2, 3))]
    lobby = Lobby(servers, ids)
    watchers = [Watcher(urls[k % 2:] + urls[:k % 2], t) for k, t in enumerate(ids)]
    steps: list[str] = []
    with _running(servers):
        async def play() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(x.run(stop)) for x in [*clients, *watchers, lobby]]
            t0 = time.monotonic()
            try:
                await _until(lambda: min(x.hands for x in clients) >= 2, 30, "2 hands", clients)
                for mode, down in (("immediate", 0.5), ("immediate", 1.0), ("fast", 2 * LEASE + 2),
                                   ("immediate", 3 * LEASE)):
                    steps.append(f"{time.monotonic() - t0:5.1f} s: stop -m {mode} for {down:.1f} s")
                    lobby.outage = True
                    await asyncio.to_thread(pg.stop, mode)
                    await asyncio.sleep(down)
                    await asyncio.to_thread(pg.start)
                    start = {x.name: x.hands for x in clients}
                    await _until(lambda start=start: all(x.hands >= start[x.name] + 2 for x in clients), 30,
                                 f"two more hands everywhere after the stop -m {mode}", clients)
                    lobby.outage = False
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
        asyncio.run(asyncio.wait_for(play(), 150))
        print(*steps, sep="\n")
        for s in servers:
            assert s.running(), s.log_tail()
            assert s.terminate() in (0, -signal.SIGTERM), s.log_tail()
    assert lobby.polls > 20 and lobby.bad == [], lobby.bad[:10]
    _check_run(pg.url, ids, clients, servers, allowed=frozenset({"storage"}))
    dump = read_db(pg.url)
    for w in watchers:
        w.check(dump)
