"""The game server's protocol against a real uvicorn on 127.0.0.1 (PROTOCOL.md).

Each test starts ``pokerdraw32.server`` under uvicorn in a thread of this process, on a free
port, with an SQLite database in ``tmp_path``, and talks to it with real WebSocket clients
(``websockets``' synchronous client).  Bad input must get an ``error`` that names the problem,
change nothing, and leave the connection open; no message may carry a card the receiving seat
may not see.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import random
import re
import socket
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server's tests need the [server] extra (starlette)")
pytest.importorskip("uvicorn", reason="the server's tests need the [server] extra (uvicorn)")
pytest.importorskip("websockets", reason="the server's tests need the [server] extra (websockets)")

import uvicorn
from server_support import read_db
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pokerdraw32.history import loads_all
from pokerdraw32.server.app import GameServer, create_app
from pokerdraw32.server.config import ServerSettings, TableConfig
from pokerdraw32.server.protocol import Limits
from pokerdraw32.server.run import UNACKED_TIMEOUT, uvicorn_server, ws_protocol
from pokerdraw32.server.store import archived_history
from pokerdraw32.table import Table

CARD = re.compile(r"^[789TJQKA][hdcs]$")


class Running:
    """A server under uvicorn in a background thread."""

    def __init__(self, db: str, tables: list[dict[str, Any]], settings: ServerSettings, limits: Limits,
                 admin_token: str | None = None, unacked: float = UNACKED_TIMEOUT) -> None:
        self.server = GameServer(db, [TableConfig.from_dict(t) for t in tables], settings, limits, admin_token)
        config = uvicorn.Config(create_app(self.server), host="127.0.0.1", port=0, log_level="warning",
                                ws=ws_protocol(), ws_max_size=limits.max_frame, lifespan="on")
        self.uv = uvicorn_server(config, unacked)
        self.thread = threading.Thread(target=self.uv.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not (self.uv.started and self.server.ready):
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        port = self.uv.servers[0].sockets[0].getsockname()[1]
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.http = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.uv.should_exit = True
        self.thread.join(20)
        assert not self.thread.is_alive()

    def locked(self, table: str, fn: Any) -> Any:
        """Run ``fn(room)`` on the server's event loop with the table's lock held."""
        room = self.server.rooms[table]

        async def run() -> Any:
            async with room.lock:
                return fn(room)
        assert self.server.loop is not None
        return asyncio.run_coroutine_threadsafe(run(), self.server.loop).result(10)


TABLE = {"id": "t1", "title": "test", "rules": {"structure": "no-limit", "sb": 1, "bb": 2}, "seats": 5,
         "bots": {"3": "rule", "4": "random"}, "seed": 11}


@contextlib.contextmanager
def serving(tmp_path: Path, tables: list[dict[str, Any]] | None = None, *, hand_pause: float = 0.02,
            bot_delay: float = 0.0, grace: float = 60.0, limits: Limits | None = None,
            db: str | None = None, unacked: float = UNACKED_TIMEOUT) -> Iterator[Running]:
    r = Running(db or str(tmp_path / "db.sqlite"), tables or [TABLE],
                ServerSettings(hand_pause=hand_pause, bot_delay=bot_delay, grace=grace), limits or Limits(),
                admin_token="s3cret", unacked=unacked)
    try:
        yield r
    finally:
        r.stop()


class Client:
    """A synchronous WebSocket client that keeps every message it receives."""

    _ids = itertools.count(1)

    def __init__(self, url: str) -> None:
        self.ws = connect(url, max_size=None, open_timeout=10)
        self.log: list[dict[str, Any]] = []
        self.frames: list[Any] = []                 # every frame received, decoded
        self.unread: list[dict[str, Any]] = []      # the last frame's messages not yet returned
        self.pending: list[dict[str, Any]] = []
        welcome = self.recv()
        assert welcome["type"] == "welcome" and welcome["v"] == 1
        self.seat: int | None = None
        self.token: str | None = None
        self.last_seq = 0

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message: the rest of the last frame's, else the next frame's first (a frame
        holds one message, or several as a JSON array: PROTOCOL.md, Frames)."""
        if not self.unread:
            data = json.loads(self.ws.recv(timeout=timeout))
            self.frames.append(data)
            self.unread = list(data) if isinstance(data, list) else [data]
            assert self.unread, "an empty frame"
        msg = self.unread.pop(0)
        self.log.append(msg)
        if msg["type"] in ("event", "state"):
            self.last_seq = max(self.last_seq, msg["seq"])
        return msg

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        if self.pending:
            return self.pending.pop(0)
        return self.recv(timeout)

    def send(self, msg: dict[str, Any] | str | bytes) -> None:
        self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def request(self, msg: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send ``msg`` with a fresh id; the reply with that id (other messages stay queued)."""
        rid = next(self._ids)
        self.send({**msg, "id": rid})
        return self.reply(rid, timeout)

    def reply(self, rid: Any, timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if msg.get("id") == rid and msg["type"] not in ("event", "state"):
                return msg
            self.pending.append(msg)

    def join(self, table: str = "t1", **fields: Any) -> dict[str, Any]:
        r = self.request({"type": "join", "table": table, **fields})
        assert r["type"] == "joined", r
        self.seat, self.token = r["seat"], r["token"]
        return r

    def until(self, pred: Any, timeout: float = 15.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message")
            msg = self.next(left)
            if pred(msg):
                return msg

    def my_turn(self, timeout: float = 15.0) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "state" and m["view"]["to_act"] == self.seat
                          and m["view"]["hand"] and m["view"]["hand"].get("legal"), timeout)

    def close(self) -> None:
        self.ws.close()


def act_for(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action for the state's seat."""
    legal = state["view"]["hand"]["legal"]
    kinds = legal["kinds"]
    kind = rng.choice(kinds)
    msg: dict[str, Any] = {"type": "act", "kind": kind, "seq": state["seq"]}
    if kind in ("bet", "raise"):
        msg["amount"] = rng.randint(legal["min_to"], min(legal["max_to"], legal["min_to"] * 3))
    elif kind == "discard":
        cards = state["view"]["hand"]["cards"]
        msg["cards"] = rng.sample(cards, rng.randint(0, legal["max_discard"]))
    if kind == "fold" and "check" in kinds:
        msg["kind"] = "check"
    return msg


def db_rows(path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql, args).fetchall()


def table_state(path: Path, table: str = "t1") -> tuple[dict[str, Any], int]:
    """The table's stored state (the table rebuilt from its journal and pd32_ledger in
    ``state["table"]``, :func:`server_support.read_db`) and last log entry."""
    _, state, seq = read_db(str(path)).tables[table]
    return state, seq


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    s = json.loads(json.dumps(state))
    s["table"].pop("clock")
    s["table"].pop("deadline")
    return s


# ---------------------------------------------------------------------------------------- basics
def test_welcome_tables_join_and_play_hands(tmp_path: Path) -> None:
    with serving(tmp_path) as srv:
        c = Client(srv.url)
        tables = c.request({"type": "tables"})
        assert tables["type"] == "tables" and [t["id"] for t in tables["tables"]] == ["t1"]
        info = tables["tables"][0]
        assert info["players"] == [{"seat": 3, "name": "bot-3", "bot": "rule"},
                                   {"seat": 4, "name": "bot-4", "bot": "random"}]
        assert (info["min_buy_in"], info["max_buy_in"], info["default_buy_in"]) == (20, 200, 200)
        r = c.join(name="ann", chips=150)
        assert r["seat"] == 0 and len(r["token"]) >= 40
        rng = random.Random(1)
        acted = 0
        while acted < 25:
            st = c.my_turn()
            ok = c.request(act_for(st, rng))
            assert ok["type"] == "ok", ok
            acted += 1
        c.close()
        # every chip accounted for (R9.5): the stored state restores and its ledger balances
    state, seq = table_state(tmp_path / "db.sqlite")
    t = Table.restore(state["table"])
    t.check_ledger()
    assert seq == db_rows(tmp_path / "db.sqlite", "SELECT max(seq) FROM pd32_events")[0][0]
    seqs = [s for (s,) in db_rows(tmp_path / "db.sqlite", "SELECT seq FROM pd32_events ORDER BY seq")]
    assert seqs == list(range(1, seq + 1))


def test_the_pages_are_served(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    with serving(tmp_path) as srv:
        for path, needle in [("/", "<html"), ("/table/t1", "<html"), ("/static/table.js", "function"),
                             ("/static/table-log.js", "function describeEvent"),
                             ("/static/table-amounts.js", "function setAmount"),
                             ("/static/table.css", "{"), ("/api/tables", '"tables"'), ("/healthz", "ok")]:
            with urllib.request.urlopen(srv.http + path, timeout=10) as r:
                assert r.status == 200 and needle in r.read().decode(), path
        for path in ("/table/nope", "/static/../app.py", "/static/%2e%2e/app.py", "/api/tables/nope/hands.phhs"):
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(srv.http + path, timeout=10)
            assert e.value.code == 404, path


def test_join_errors_change_nothing(tmp_path: Path) -> None:
    with serving(tmp_path) as srv:
        a, b = Client(srv.url), Client(srv.url)
        a.join(name="ann", seat=1)
        before = srv.locked("t1", lambda room: (room.seq, without_clock(room._state())))
        for msg, code in [
            ({"type": "join", "table": "t1", "name": "bob", "seat": 1}, "seat_taken"),
            ({"type": "join", "table": "t1", "name": "bob", "seat": 3}, "seat_taken"),      # a bot's seat
            ({"type": "join", "table": "t1", "name": "bob", "seat": 7}, "bad_message"),
            ({"type": "join", "table": "t1", "name": "ann", "seat": 2}, "table_error"),    # the name is seated
            ({"type": "join", "table": "t1", "name": "bob", "seat": 2, "chips": 5}, "table_error"),   # R10.1
            ({"type": "join", "table": "t1", "name": "bob", "seat": 2, "chips": 5000}, "table_error"),
            ({"type": "join", "table": "t1", "name": "bob", "seat": 2, "chips": -1}, "bad_message"),
            ({"type": "join", "table": "t1", "name": "bob", "seat": 2, "chips": 2.5}, "bad_message"),
            ({"type": "join", "table": "t1", "name": ""}, "bad_message"),
            ({"type": "join", "table": "t1", "name": "x" * 65}, "bad_message"),
            ({"type": "join", "table": "t1", "name": " bob"}, "table_error"),
            ({"type": "join", "table": "nope", "name": "bob"}, "no_such_table"),
            ({"type": "join", "table": ["t1"], "name": "bob"}, "no_such_table"),
            ({"type": "join", "table": "t1"}, "bad_message"),
        ]:
            r = b.request(msg)
            assert (r["type"], r["code"]) == ("error", code), (msg, r)
            assert r["message"]
        if True:
            r = b.request({"type": "join", "table": "t1", "name": "bob", "seat": 2, "chips": 5})
            assert "R10.1" in r["message"]
        assert srv.locked("t1", lambda room: (room.seq, without_clock(room._state()))) == before or \
            srv.locked("t1", lambda room: room.table.hand is not None)   # hands go on between the two reads
        assert b.request({"type": "ping"})["type"] == "pong"        # the connection survived


# ---------------------------------------------------------------------------------------- bad input
def test_bad_input_gets_an_error_changes_nothing_and_keeps_the_connection(tmp_path: Path) -> None:
    table = {**TABLE, "bots": {}}                 # nobody else moves: the table stands still
    with serving(tmp_path, [table], limits=Limits(max_message=1024)) as srv:
        a, b = Client(srv.url), Client(srv.url)
        a.join(name="ann", seat=0)
        b.join(name="bob", seat=1)
        st = a.until(lambda m: m["type"] == "state" and m["view"]["to_act"] is not None)
        actor, other = (a, b) if st["view"]["to_act"] == 0 else (b, a)
        st = actor.my_turn()
        db = tmp_path / "db.sqlite"
        before_db = table_state(db)
        before = srv.locked("t1", lambda room: (room.seq, without_clock(room._state())))
        cases: list[tuple[Any, str]] = [
            ("{not json", "bad_json"),
            ('{"type": "act", "kind": "raise", "amount": NaN}', "bad_json"),      # Python's json reads these
            ('{"type": "act", "kind": "raise", "amount": -Infinity}', "bad_json"),
            ("[1, 2]", "bad_message"),
            ('"act"', "bad_message"),
            ("{}", "bad_message"),
            (b"\x00\x01binary", "bad_message"),
            ({"type": "shout"}, "bad_message"),
            ({"type": "act"}, "bad_message"),
            ({"type": "act", "kind": "timeout"}, "bad_message"),          # the server's, never a client's
            ({"type": "act", "kind": "raise"}, "bad_message"),
            ({"type": "act", "kind": "raise", "amount": "10"}, "bad_message"),
            ({"type": "act", "kind": "raise", "amount": 10**20}, "bad_message"),
            ({"type": "act", "kind": "raise", "amount": 3}, "illegal"),      # below the minimum (R3.4)
            ({"type": "act", "kind": "raise", "amount": 100000}, "illegal"),  # more than the stack
            ({"type": "act", "kind": "bet", "amount": 10}, "illegal"),        # nothing to open in round 1
            ({"type": "act", "kind": "discard", "cards": ["Ah"]}, "illegal"),  # not the draw
            ({"type": "act", "kind": "discard", "cards": ["Zz"]}, "bad_message"),
            ({"type": "act", "kind": "discard", "cards": "Ah"}, "bad_message"),
            ({"type": "act", "kind": "check", "amount": 5}, "bad_message"),
            ({"type": "act", "kind": "call", "seq": 1}, "stale"),
            ({"type": "act", "kind": "call", "seq": -1}, "bad_message"),
            ({"type": "act", "kind": "call", "id": [1]}, "bad_message"),
            ({"type": "showdown", "show": "yes"}, "bad_message"),
            ({"type": "add_chips", "chips": 10}, "table_error"),              # R3.6: between hands only
            ({"type": "resume", "table": "t1", "token": "x" * 43}, "bad_token"),
            ({"type": "resume", "table": "t1", "token": 5}, "bad_message"),
            ("x" * 2000, "too_large"),
            (json.dumps({"type": "ping", "pad": "é" * 600}), "too_large"),   # 1,200 bytes in UTF-8
            ("[" * 100_000, "too_large"),
        ]
        for msg, code in cases:
            actor.send(msg)
            r = actor.until(lambda m: m["type"] in ("error", "ok", "pong"))
            assert (r["type"], r.get("code")) == ("error", code), (msg, r)
        # the other seat may not act for the player to act, and no field names a seat for it
        r = other.request({"type": "act", "kind": "call", "seat": st["you"]})
        assert r["code"] == "not_your_turn" and f"seat {st['you']} is" in r["message"]
        # a client that never joined
        c = Client(srv.url)
        assert c.request({"type": "act", "kind": "fold"})["code"] == "not_seated"
        assert c.request({"type": "leave"})["code"] == "not_seated"
        after = srv.locked("t1", lambda room: (room.seq, without_clock(room._state())))
        assert after == before
        assert table_state(db)[1] == before_db[1]
        assert without_clock(table_state(db)[0]) == without_clock(before_db[0])
        for cl in (actor, other, c):                                   # every connection survived
            assert cl.request({"type": "ping"})["type"] == "pong"
        r = actor.request({"type": "act", "kind": "call", "seq": st["seq"]})
        assert r["type"] == "ok" and r["seq"] > st["seq"], r


def test_flood_is_rate_limited_and_the_connection_survives(tmp_path: Path) -> None:
    with serving(tmp_path, limits=Limits(rate=20.0, burst=40)) as srv:
        c = Client(srv.url)
        for i in range(200):
            c.send({"type": "ping", "id": i})
        replies = [c.until(lambda m: m["type"] in ("pong", "error")) for _ in range(200)]
        pongs = [r for r in replies if r["type"] == "pong"]
        limited = [r for r in replies if r.get("code") == "rate_limited"]
        assert len(pongs) + len(limited) == 200
        assert 40 <= len(pongs) < 200 and limited
        time.sleep(0.3)
        assert c.request({"type": "ping"})["type"] == "pong"


def test_frames_above_the_transport_limit_close_only_that_connection(tmp_path: Path) -> None:
    with serving(tmp_path, limits=Limits(max_frame=1 << 16)) as srv:
        c, d = Client(srv.url), Client(srv.url)
        c.send("x" * (1 << 17))
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(5):
                c.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009       # message too big
        assert d.request({"type": "ping"})["type"] == "pong"


# ---------------------------------------------------------------------------------------- secrecy
def _hidden_cards_check(clients: list[Client], db: Path) -> int:
    """Every card string in every message each client received is one its seat may see:
    never another seat's private cards of that hand (deals, draws, discards) unless shown."""
    rows = db_rows(db, "SELECT seq, hand, event FROM pd32_events ORDER BY seq")
    dealt: dict[int, dict[int, set[str]]] = {}
    shown: dict[int, set[str]] = {}
    for _, hand, text in rows:
        ev = json.loads(text)
        if ev["kind"] in ("deal_hole", "deal_draw", "discard") and "cards" in ev:
            dealt.setdefault(hand, {}).setdefault(ev["seat"], set()).update(ev["cards"])
        if ev["kind"] == "show":
            shown.setdefault(hand, set()).update(ev["cards"])
    checked = 0

    def cards_in(obj: Any) -> Iterator[str]:
        if isinstance(obj, str):
            if CARD.match(obj):
                yield obj
        elif isinstance(obj, dict):
            for k, v in obj.items():
                if k != "token":
                    yield from cards_in(v)
        elif isinstance(obj, list):
            for v in obj:
                yield from cards_in(v)

    for cl in clients:
        for msg in cl.log:
            if msg["type"] == "event":
                hand = msg["hand"]
            elif msg["type"] == "state":
                hand = msg["view"]["hand_number"]
            else:
                continue
            mine = dealt.get(hand, {}).get(cl.seat, set()) if cl.seat is not None else set()
            secret = set().union(*(c for s, c in dealt.get(hand, {}).items() if s != cl.seat)) - mine \
                - shown.get(hand, set())
            seen = set(cards_in(msg))
            assert not seen & secret, (cl.seat, msg, seen & secret)
            checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2])
def test_no_message_carries_a_card_the_seat_may_not_see(tmp_path: Path, seed: int) -> None:
    table = {**TABLE, "seed": seed, "rules": {"structure": "pot-limit", "sb": 1, "bb": 2, "reshuffle_folded": True}}
    with serving(tmp_path, [table]) as srv:
        rng = random.Random(seed)
        players = [Client(srv.url) for _ in range(3)]
        for i, cl in enumerate(players):
            cl.join(name=f"p{i}", seat=i, chips=rng.choice([40, 120, 200]))
        watcher = Client(srv.url)
        assert watcher.request({"type": "watch", "table": "t1", "last_seq": 0})["type"] == "watching"
        end = time.monotonic() + 12
        hands = 0
        while time.monotonic() < end and hands < 12:
            progressed = False
            for cl in players:
                try:
                    msg = cl.next(0.05)
                except TimeoutError:
                    continue
                progressed = True
                if msg["type"] == "event" and msg["event"]["kind"] == "hand_end" and cl is players[0]:
                    hands += 1
                if msg["type"] == "state" and msg["view"]["to_act"] == cl.seat and (msg["view"]["hand"] or {}).get(
                        "legal") and msg["seq"] == cl.last_seq:
                    cl.send({**act_for(msg, rng), "id": f"a{msg['seq']}"})
                if msg["type"] == "state" and (msg["view"]["hand"] or {}).get("phase") == "second-round" and \
                        rng.random() < 0.1:
                    cl.send({"type": "showdown", "id": "sd", "show": rng.choice([True, False, None])})
            if not progressed:
                time.sleep(0.01)
        assert hands >= 3
        watcher.seat = None
    checked = _hidden_cards_check([*players, watcher], tmp_path / "db.sqlite")
    assert checked > 200
    for cl in players:
        errors = [m for m in cl.log if m["type"] == "error" and m["code"] not in ("stale", "not_your_turn")
                  and m.get("id") != "sd"]      # a showdown choice may race the hand's end
        assert not errors


def test_a_new_player_never_sees_the_cards_of_the_seat_s_previous_player(tmp_path: Path) -> None:
    table = {**TABLE, "bots": {"3": "rule"}}
    with serving(tmp_path, [table], bot_delay=0.05) as srv:
        a = Client(srv.url)
        a.join(name="ann", seat=0)
        st = a.until(lambda m: m["type"] == "state" and (m["view"]["hand"] or {}).get("cards"))
        ann_cards = set(st["view"]["hand"]["cards"])
        r = a.request({"type": "leave"})
        assert r["type"] in ("left", "ok")
        a.until(lambda m: m["type"] == "left" and m.get("chips") is not None, timeout=30)
        b = Client(srv.url)
        b.join(name="bob", seat=0)
        b2 = Client(srv.url)
        r = b2.request({"type": "resume", "table": "t1", "token": b.token, "last_seq": 0})
        assert r["type"] == "resumed"
        b.until(lambda m: m["type"] == "error" and m["code"] == "replaced")
        b2.until(lambda m: m["type"] == "state")
        deals = [m for m in b2.log if m["type"] == "event" and m["event"]["kind"] == "deal_hole"
                 and m["event"]["seat"] == 0]
        assert deals and "cards" not in deals[0]["event"] and deals[0]["event"]["hidden"] == 5
        ann_hand = st["view"]["hand_number"]
        shown = {c for (e,) in db_rows(tmp_path / "db.sqlite", "SELECT event FROM pd32_events WHERE hand = ?", ann_hand)
                 if json.loads(e)["kind"] == "show" for c in json.loads(e)["cards"]}
        checked = 0
        for m in b2.log:
            hand = m["hand"] if m["type"] == "event" else m["view"]["hand_number"] if m["type"] == "state" else None
            if hand == ann_hand:
                assert not (ann_cards - shown) & set(re.findall(r'"([789TJQKA][hdcs])"', json.dumps(m))), m
                checked += 1
        assert checked >= 5


# ---------------------------------------------------------------------------------------- resume
def test_resume_gives_exactly_the_missed_entries(tmp_path: Path) -> None:
    with serving(tmp_path, bot_delay=0.01) as srv:
        a = Client(srv.url)
        a.join(name="ann", seat=0)
        a.send({"type": "sit_out", "id": "so"})           # bots play on; ann just watches her seat
        a.until(lambda m: m.get("id") == "so")
        a.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "hand_end", timeout=20)
        last = a.last_seq
        a.close()
        time.sleep(0.5)                                   # bots play on
        b = Client(srv.url)
        r = b.request({"type": "resume", "table": "t1", "token": a.token, "last_seq": last})
        assert r["type"] == "resumed" and r["seat"] == 0
        got = [m["seq"] for m in b.pending + [b.recv() for _ in range(0)] if m["type"] == "event"]
        b.until(lambda m: m["type"] == "state")
        got = [m["seq"] for m in b.log if m["type"] == "event" and m["seq"] <= r["seq"]]
        assert got == list(range(last + 1, r["seq"] + 1))
        assert r["seq"] > last
        bad = b.request({"type": "resume", "table": "t1", "token": a.token, "last_seq": 10**9})
        assert bad["code"] == "bad_message"


def test_clock_raise_limit_time_bank_and_timeout(tmp_path: Path) -> None:
    table = {**TABLE, "bots": {"3": "rule"}, "decision_time": 0.6, "raise_time": 0.3, "time_bank": 0.4,
             "bank_refill": 0.0}
    with serving(tmp_path, [table], bot_delay=0.0) as srv:
        a = Client(srv.url)
        a.join(name="ann", seat=0)
        st = a.my_turn(timeout=20)
        assert st["clock"]["seat"] == 0 and 0 < st["clock"]["act_in"] <= 0.6 and st["clock"]["bank"] == 0.4
        kinds: list[str] = []
        seen = a.until(lambda m: m["type"] == "event" and m["event"]["seat"] == 0 if "seat" in m.get("event", {})
                       else False, timeout=5)
        kinds.append(seen["event"]["kind"])
        while kinds[-1] != "timeout":
            m = a.until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0, timeout=5)
            kinds.append(m["event"]["kind"])
        expected = ["time_bank", "timeout"] if "raise" not in st["view"]["hand"]["legal"]["kinds"] else \
            ["raise_withdrawn", "time_bank", "timeout"]
        assert kinds[-len(expected):] == expected
        bank = next(m for m in a.log if m["type"] == "event" and m["event"]["kind"] == "time_bank")
        assert bank["event"]["left"] == 0.0 and bank["event"]["used"] == pytest.approx(0.4)


def test_disconnect_grace_sits_out_and_return_sits_in(tmp_path: Path) -> None:
    with serving(tmp_path, grace=0.3) as srv:
        a = Client(srv.url)
        a.join(name="ann", seat=0)
        token = a.token
        a.close()
        w = Client(srv.url)
        w.request({"type": "watch", "table": "t1", "last_seq": 0})
        out = w.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "sat_out", timeout=10)
        assert out["event"] == {"kind": "sat_out", "seat": 0, "reason": "disconnected"}
        b = Client(srv.url)
        b.request({"type": "resume", "table": "t1", "token": token, "last_seq": 0})
        back = b.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "sat_in", timeout=10)
        assert back["event"] == {"kind": "sat_in", "seat": 0, "reason": "returned"}


# ---------------------------------------------------------------------------------------- persistence
def two_players(srv: Running) -> tuple[Client, Client, dict[str, Any]]:
    """ann at seat 0 and bob at seat 1 of a table without bots, and the first state with a hand."""
    a, b = Client(srv.url), Client(srv.url)
    a.join(name="ann", seat=0)
    b.join(name="bob", seat=1)
    return a, b, a.until(lambda m: m["type"] == "state" and m["view"]["to_act"] is not None)


def test_a_failed_commit_changes_nothing_and_the_same_request_then_succeeds(tmp_path: Path) -> None:
    table = {**TABLE, "bots": {}}
    with serving(tmp_path, [table]) as srv:
        a, b, st = two_players(srv)
        actor = a if st["view"]["to_act"] == 0 else b
        st = actor.my_turn()
        before = srv.locked("t1", lambda room: (room.seq, without_clock(room._state())))
        db = tmp_path / "db.sqlite"
        with contextlib.closing(sqlite3.connect(db)) as conn:     # the database breaks under the server
            conn.execute("ALTER TABLE pd32_events RENAME TO pd32_events_away")
            conn.commit()
        r = actor.request({"type": "act", "kind": "call", "seq": st["seq"]})
        assert r["code"] == "storage" and "nothing was applied" in r["message"]
        assert "pd32_events" not in r["message"], "the database's own error text went to a client"
        assert srv.locked("t1", lambda room: (room.seq, without_clock(room._state()))) == before
        with contextlib.closing(sqlite3.connect(db)) as conn:
            conn.execute("ALTER TABLE pd32_events_away RENAME TO pd32_events")
            conn.commit()
        r = actor.request({"type": "act", "kind": "call", "seq": st["seq"]})
        assert r["type"] == "ok"
        t = Table.restore(table_state(db)[0]["table"])
        t.check_ledger()


def test_restart_restores_every_table_exactly(tmp_path: Path) -> None:
    table = {**TABLE, "bots": {}}
    with serving(tmp_path, [table]) as srv:
        a, b, st = two_players(srv)
        before = srv.locked("t1", lambda room: (room.seq, without_clock(room._state()),
                                                 room.table.view(0)["hand"]["cards"]))
        a.close()
        b.close()
    with serving(tmp_path, [table]) as srv:
        after = srv.locked("t1", lambda room: (room.seq, without_clock(room._state()),
                                                room.table.view(0)["hand"]["cards"]))
        assert after == before
        c = Client(srv.url)
        r = c.request({"type": "resume", "table": "t1", "token": a.token, "last_seq": st["seq"]})
        assert r["type"] == "resumed" and r["seq"] == before[0]
        state = c.until(lambda m: m["type"] == "state")
        assert state["view"]["hand"]["cards"] == before[2]


def test_the_lobby_keeps_the_tables_file_s_order_across_a_restart(tmp_path: Path) -> None:
    """The welcome lists the tables in the tables file's order, the same after a restart; a
    table stored from an earlier tables file (still run) comes after them."""
    tables = [{**TABLE, "id": i, "bots": {}} for i in ("zeta", "alpha", "mid")]

    def lobby(srv: Running) -> list[str]:
        c = Client(srv.url)
        ids = [t["id"] for t in c.log[0]["tables"]]
        c.close()
        return ids
    with serving(tmp_path, tables) as srv:
        assert lobby(srv) == ["zeta", "alpha", "mid"]
    with serving(tmp_path, tables) as srv:
        assert lobby(srv) == ["zeta", "alpha", "mid"]
    with serving(tmp_path, [tables[2], tables[1]]) as srv:
        assert lobby(srv) == ["mid", "alpha", "zeta"]


def test_finished_hands_are_archived_as_phh_that_replays(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    table = {**TABLE, "bots": {"0": "rule", "1": "random", "2": "rule"}}
    with serving(tmp_path, [table]) as srv:
        w = Client(srv.url)
        w.request({"type": "watch", "table": "t1", "last_seq": 0})
        sizes = []
        for _ in range(8):
            w.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "hand_end", timeout=20)
            sizes.append(len(db_rows(tmp_path / "db.sqlite", "SELECT state FROM pd32_tables")[0][0]))
        # a commit writes the ledger's new lines only: the stored state does not grow with the hands
        assert max(sizes[3:]) < sizes[0] + 400, sizes
        url = srv.http + "/api/tables/t1/hands.phhs"
        for header in ({}, {"Authorization": "Bearer wrong"}):       # every card of every hand: admin only
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(urllib.request.Request(url, headers=header), timeout=10)
            assert e.value.code == 403
        request = urllib.request.Request(url, headers={"Authorization": "Bearer s3cret"})
        text = urllib.request.urlopen(request, timeout=10).read().decode()
    hands = list(loads_all(text))
    assert len(hands) >= 5
    rows = db_rows(tmp_path / "db.sqlite", "SELECT hand, phh FROM pd32_hands ORDER BY hand")
    ends = {h: json.loads(e)["stacks"] for h, e in db_rows(
        tmp_path / "db.sqlite", "SELECT hand, event FROM pd32_events WHERE event LIKE '%hand_end%'")}
    for number, phh in rows:
        assert phh.startswith("{")                              # its PHH fields, as JSON
        hh = archived_history(phh)
        assert hh.hand == number
        assert list(hh.replay().result.stacks) == ends[number]


@contextlib.contextmanager
def memory_backed_db() -> Iterator[str]:
    """A database path on a RAM-backed file system (/dev/shm) where there is one, else in the temp
    directory. The same SQLite, WAL and synchronous=FULL; only its fsync costs nothing, so a test
    that needs thousands of commits does not wait on a busy disk (in .ci/run, a wheel's tests run
    beside the suite: 1,500 entries took more than 180 s there)."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=base) as d:
        yield str(Path(d) / "db.sqlite")


def test_resume_far_behind_replays_everything_and_a_limit_says_from_where(tmp_path: Path) -> None:
    with memory_backed_db() as db, serving(tmp_path, hand_pause=0.0, db=db) as srv:
        a = Client(srv.url)
        # wait: ann waits for the big blind instead of posting an entry bet (R10.2), so she is
        # never dealt in before her sit_out: dealt in and gone, her turn would wait for her whole
        # clock (the bots' hand stalls; how often depended on the timing of the join)
        joined = a.join(name="ann", seat=0, wait=True)
        a.request({"type": "sit_out"})
        a.close()
        end = time.monotonic() + 180
        while srv.locked("t1", lambda room: room.seq) < joined["seq"] + 1500:     # bots play on
            assert time.monotonic() < end
            time.sleep(0.2)
        b = Client(srv.url)
        r = b.request({"type": "resume", "table": "t1", "token": a.token, "last_seq": joined["seq"]}, timeout=30)
        assert r["type"] == "resumed" and r["seq"] - joined["seq"] >= 1500     # more than the send queue
        b.until(lambda m: m["type"] == "state", timeout=30)
        # the replay, then the live entries held back meanwhile and those after: no gap, no repeat
        b.until(lambda m: m["type"] == "event" and m["seq"] > r["seq"] + 50, timeout=30)
        got = [m["seq"] for m in b.log if m["type"] == "event"]
        assert got == list(range(joined["seq"] + 1, got[-1] + 1))
        states = [m["seq"] for m in b.log if m["type"] == "state"]
        assert states == sorted(states) and states[0] == r["seq"]
        # the replay allowance: its limit and its refill
        srv.server.limits = Limits(max_replay=100, replay_rate=10.0)
        c = Client(srv.url)
        r = c.request({"type": "resume", "table": "t1", "token": a.token, "last_seq": 0})
        assert r["code"] == "too_far_behind" and "ask from last_seq" in r["message"]
        seq = srv.locked("t1", lambda room: room.seq)
        r = c.request({"type": "watch", "table": "t1", "last_seq": seq - 90})
        assert r["type"] == "watching"
        c.until(lambda m: m["type"] == "state")
        seq = srv.locked("t1", lambda room: room.seq)      # the bots play on: ask for about 50 more
        r = c.request({"type": "watch", "table": "t1", "last_seq": seq - 50})
        assert r["code"] == "rate_limited", r
        assert c.request({"type": "ping"})["type"] == "pong"


def test_seat_squatting_reserved_names_and_showdown_between_hands(tmp_path: Path) -> None:
    table = {**TABLE, "bots": {"3": "rule", "4": "rule"}, "seats": 5, "decision_time": 2}
    with serving(tmp_path, [table], grace=0.2, hand_pause=0.5) as srv:
        quick = ServerSettings(hand_pause=0.5, bot_delay=0.0, grace=0.2, away_limit=0.3)
        srv.locked("t1", lambda room: setattr(room, "settings", quick))
        a = Client(srv.url)
        a.join(name="ann", seat=0)
        assert a.request({"type": "sit_out"})["type"] == "ok"        # the bots play on without her
        r = a.request({"type": "join", "table": "t1", "name": "ann2", "seat": 1})
        assert r["code"] == "already_seated"                       # one seat per connection
        assert a.request({"type": "join", "table": "t1", "name": "bot-9"})["code"] == "already_seated"
        b = Client(srv.url)
        r = b.request({"type": "join", "table": "t1", "name": "Bot-1", "seat": 1})
        assert r["code"] == "table_error" and "bot-" in r["message"]
        st = a.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "hand_end", timeout=20)
        r = a.request({"type": "showdown", "show": True})
        assert r["code"] in ("table_error", "ok")             # between hands (or the next one started)
        if r["code" if r["type"] == "error" else "type"] == "table_error":
            assert "R9.3" in r["message"] and "start_hand" not in r["message"]
        assert a.request({"type": "sit_in"})["type"] == "ok"
        a.close()                                             # gone: sat out after 0.2 s, leaves 0.3 s later
        w = Client(srv.url)
        w.request({"type": "watch", "table": "t1", "last_seq": st["seq"]})
        left = w.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left", timeout=30)
        assert left["event"]["seat"] == 0 and left["event"]["chips"] >= 0
        kinds = [m["event"]["kind"] for m in w.log if m["type"] == "event" and m["event"].get("seat") == 0]
        assert "sat_out" in kinds
        assert b.request({"type": "join", "table": "t1", "name": "bob", "seat": 0})["type"] == "joined"
    state, _ = table_state(tmp_path / "db.sqlite")
    Table.restore(state["table"]).check_ledger()


def test_server_tables_always_have_a_maximum_buy_in() -> None:
    fl = TableConfig.from_dict({"id": "fl", "rules": {"structure": "fixed-limit", "sb": 2, "bb": 4}, "seats": 2})
    t = fl.new_table()
    assert t.max_buy_in == 10 * t.min_buy_in and TableConfig.default_buy_in(t) == 2 * t.min_buy_in
    nl = TableConfig.from_dict({"id": "nl", "seats": 3}).new_table()
    assert (nl.min_buy_in, nl.max_buy_in) == (20, 200) and TableConfig.default_buy_in(nl) == 200


def test_a_change_reaches_each_connection_as_one_frame(tmp_path: Path) -> None:
    """PROTOCOL.md, Frames: the entries of one change and the seat's state (and, for the one
    who asked, the ok) come in one frame, a JSON array in that order; every other connection
    gets the entries as its seat may see them and its own state, in one frame too."""
    table = {**TABLE, "bots": {}}
    with serving(tmp_path, [table]) as srv:
        a, b, st = two_players(srv)
        w = Client(srv.url)
        assert w.request({"type": "watch", "table": "t1"})["type"] == "watching"
        w.until(lambda m: m["type"] == "state")
        actor, other = (a, b) if st["view"]["to_act"] == 0 else (b, a)
        st = actor.my_turn()
        time.sleep(0.2)                                  # nothing else is on its way
        for cl in (actor, other, w):
            cl.pending.clear()
            cl.unread.clear()
            cl.frames.clear()
        kind = "call" if "call" in st["view"]["hand"]["legal"]["kinds"] else "check"
        ok = actor.request({"type": "act", "kind": kind, "seq": st["seq"]})
        assert ok["type"] == "ok", ok
        frame = actor.frames[0]
        assert isinstance(frame, list) and [m["type"] for m in frame][-2:] == ["state", "ok"], frame
        events = frame[:-2]
        assert events and all(m["type"] == "event" for m in events)
        assert [m["seq"] for m in events] == list(range(st["seq"] + 1, ok["seq"] + 1)) == \
            list(range(st["seq"] + 1, frame[-2]["seq"] + 1))
        assert events[0]["event"]["kind"] == kind and events[0]["event"]["seat"] == actor.seat
        assert frame[-2]["you"] == actor.seat
        for cl, you in ((other, other.seat), (w, None)):
            m = cl.until(lambda m: m["type"] == "state")
            assert m["seq"] == ok["seq"] and m["you"] == you
            got = cl.frames[0]
            assert isinstance(got, list) and [x["type"] for x in got] == ["event"] * len(events) + ["state"]
            assert [x["event"] for x in got[:-1]] == [x["event"] for x in events]   # nothing private here
        assert len(actor.frames) == 1 and all(isinstance(m, dict) for m in actor.frames[0])
        # a single message is sent as itself, not as an array of one
        assert actor.request({"type": "ping"})["type"] == "pong" and isinstance(actor.frames[-1], dict)


def test_a_join_repeated_with_its_key_finds_its_seat_with_a_new_token(tmp_path: Path) -> None:
    """``join`` with an idempotency ``key`` (PROTOCOL.md): the same join again (its answer lost,
    say in a failover) gets the seat it took and a new token, the first token stops working,
    and nothing else changes: no second seat, no second buy-in, the same chips."""
    with serving(tmp_path) as srv:
        a = Client(srv.url)
        first = a.request({"type": "join", "table": "t1", "name": "ann", "seat": 1, "chips": 150, "key": "k" * 40})
        assert first["type"] == "joined" and first["seat"] == 1
        def seat_1(room: Any) -> tuple[Any, ...]:     # its buy-ins, the players, its chips brought
            return ([(e.kind, e.chips) for e in room.table.ledger if e.seat == 1 and e.kind != "hand"],
                    sorted(room.players), room.players[1].name)
        before = srv.locked("t1", seat_1)
        b = Client(srv.url)
        again = b.request({"type": "join", "table": "t1", "name": "ann", "seat": 1, "chips": 150, "key": "k" * 40})
        assert again["type"] == "joined" and again["seat"] == 1 and again["token"] != first["token"]
        assert srv.locked("t1", seat_1) == before == ([("buy_in", 150)], [1, 3, 4], "ann")
        while not any(m.get("code") == "replaced" for m in a.log):   # the first connection is told
            a.recv()
        c = Client(srv.url)
        r = c.request({"type": "resume", "table": "t1", "token": first["token"]})
        assert (r["type"], r["code"]) == ("error", "bad_token")
        assert c.request({"type": "resume", "table": "t1", "token": again["token"]})["type"] == "resumed"
        # the key under another name: refused, nothing changed
        c = Client(srv.url)
        r = c.request({"type": "join", "table": "t1", "name": "bob", "key": "k" * 40})
        assert (r["type"], r["code"]) == ("error", "seat_taken")
        for bad in ("", "x" * 65, 7):
            r = c.request({"type": "join", "table": "t1", "name": "cy", "key": bad})
            assert (r["type"], r["code"]) == ("error", "bad_message") and "key" in r["message"]
        assert srv.locked("t1", seat_1) == before


def test_a_client_past_its_queue_s_limit_is_closed_with_1013_even_during_its_own_request(tmp_path: Path) -> None:
    """PROTOCOL.md, Limits: more live messages queued than ``send_queue`` disconnects the client
    with close code 1013 and a reason that says to resume, also when its own request queued them
    (here a join: its change and the seat's state, two messages against a limit of one)."""
    with serving(tmp_path, [{**TABLE, "bots": {}}], limits=Limits(send_queue=1)) as r:
        c = Client(r.url)
        c.send({"type": "join", "table": "t1", "name": "a", "id": 1})
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                c.recv(10)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1013, "not reading: resume with your token")


def _stuck_client(url: str, request: dict[str, Any], times: int = 1) -> Any:
    """A WebSocket client that sends ``request`` ``times`` times and then never reads: a raw
    socket with a small receive buffer; it reads the handshake's answer and nothing after it."""
    import base64
    import struct

    host, port = url.split("//")[1].split("/")[0].split(":")
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:                           # the handshake's answer, then no more
        answer += s.recv(1)
    assert answer.startswith(b"HTTP/1.1 101")
    payload = json.dumps(request).encode()
    mask = os.urandom(4)
    assert len(payload) < 126
    s.sendall((struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask
               + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))) * times)
    return s


def test_a_client_that_does_not_read_holds_up_no_other_connection(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """PROTOCOL.md, Limits: a client that stops reading fills its socket's buffers, then the
    server's own for it; the server's send to it then waits, and that wait must not hold up the
    frames of any other connection (one task writes every connection's frames: a send that
    would wait goes on in a task of its own).  Its queue's limit then lets it go: the send
    cancelled, the connection forgotten, without an error logged; and the kernel drops its
    socket once what was sent stays unacknowledged (``UNACKED_TIMEOUT``, 2 s here)."""
    bots = {str(s): "rule" for s in range(5)}
    tables = [{**TABLE, "id": "t1", "bots": bots}, {**TABLE, "id": "t2", "bots": bots, "seed": 12}]
    limits = Limits(send_queue=1000, replay_rate=1e9, burst=40)
    with serving(tmp_path, tables, hand_pause=0.0, bot_delay=0.0, limits=limits, unacked=2.0) as r:
        deadline = time.monotonic() + 60
        while r.server.rooms["t1"].seq < 4000:                   # a long log to replay
            assert time.monotonic() < deadline
            time.sleep(0.1)
        # replays of 4000 entries, again and again: megabytes more than the socket's buffers hold
        stuck = _stuck_client(r.url, {"type": "watch", "table": "t1", "last_seq": 0}, times=30)
        try:
            while not r.server.conns:
                time.sleep(0.01)
            (stuck_conn,) = r.server.conns                        # its cid
            time.sleep(1.0)                                       # its replay fills every buffer
            c = Client(r.url)
            c.request({"type": "watch", "table": "t2"})
            before = len(c.frames)
            end = time.monotonic() + 2.0
            while time.monotonic() < end:
                with contextlib.suppress(TimeoutError):
                    c.next(timeout=0.2)
            assert len(c.frames) - before > 20, "frames stopped while another client did not read"
            deadline = time.monotonic() + 30                      # t1's live changes pass its queue's limit
            while stuck_conn in r.server.conns:
                assert time.monotonic() < deadline, "a client that does not read was never let go"
                time.sleep(0.1)
            c.request({"type": "watch", "table": "t1"})           # and everything goes on
            c.until(lambda m: m["type"] == "state" and m["table"] == "t1")
            c.close()
            if hasattr(socket, "TCP_USER_TIMEOUT"):               # the kernel drops its socket (unacked=2 s)
                deadline = time.monotonic() + 30
                while r.uv.server_state.connections:              # uvicorn's: every connection closed
                    assert time.monotonic() < deadline, "the socket of a client let go was never closed"
                    time.sleep(0.2)
        finally:
            stuck.close()
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR], caplog.text
