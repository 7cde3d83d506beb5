"""What the server stores of a table after each change (pokerdraw32.server.room and .store, on a
real SQLite file, without the network): a base (the table's snapshot) between hands and the
table's journal steps since, a row per commit; a restore replays them to exactly the table
played; a database of schema version 1 (the whole state in each commit) is migrated."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pokerdraw32 import ActionKind
from pokerdraw32.actions import Action
from pokerdraw32.history import HistoryError
from pokerdraw32.server.config import ServerSettings, TableConfig
from pokerdraw32.server.room import Room, stored_table
from pokerdraw32.server.store import SCHEMA_VERSION, StorageError, archived_history, open_store

CONFIG = TableConfig.from_dict({"id": "t1", "title": "t1", "seats": 4, "rules": {"preset": "classic"},
                                "bots": {"3": "random"}, "decision_time": 60.0, "raise_time": 0.001, "seed": 7})
"""A bot, three players, a raise limit that has always passed when a test asks the table to
apply it (R7.3)."""
SETTINGS = ServerSettings(hand_pause=0.0, bot_delay=0.0, grace=600.0)


def _choose(legal: Any, rng: random.Random) -> Action:
    kinds = legal.kinds
    if ActionKind.DISCARD in kinds:
        return Action.discard(legal.hole_cards[:min(rng.randrange(4), legal.max_discard)])
    if legal.min_to is not None and rng.random() < 0.2:
        return Action.raise_to(legal.min_to) if ActionKind.RAISE in kinds else Action.bet(legal.min_to)
    if ActionKind.CHECK in kinds:
        return Action.check()
    return Action.call() if ActionKind.CALL in kinds and rng.random() < 0.9 else Action.fold()


def _comparable(room_state: dict[str, Any]) -> dict[str, Any]:
    """A room's whole state (``Room._state()``) without the clock's readings (a restored table has
    the time left, in another clock)."""
    s = json.loads(json.dumps(room_state))
    s["table"].pop("clock")
    d = s["table"].pop("deadline")
    s["table"]["to_act"] = None if d is None else d["seat"]
    return s


async def _step(room: Room, rng: random.Random) -> None:
    """One change as the server makes them: the driver's (a hand starts, the bot acts, a re-buy),
    or a player's action, sometimes a showdown choice, a sit-out and back, an expired raise limit."""
    t = room.table
    if not room._hand_running():
        for p in room.players.values():          # between hands the players come back and buy in again
            if p.bot is None and (t.seat(p.seat).sitting_out or t.seat(p.seat).stack == 0):
                async with room.lock:
                    if t.seat(p.seat).sitting_out:
                        await room.sit_out(p, out=False)
                    else:
                        await room.add_chips(p, TableConfig.default_buy_in(t))
                return
    if not room._hand_running() or (t.actor is not None and room.players[t.actor].bot is not None):
        async with room.lock:
            await room._step()
        return
    seat = t.actor
    assert seat is not None and t.hand is not None
    p = room.players[seat]
    x = rng.random()
    async with room.lock:
        if x < 0.05:
            await room.showdown(p, rng.choice([True, False, None]))
        elif x < 0.08 and t.deadline is not None and t.deadline.raise_at is not None:
            await asyncio.sleep(0.002)
            await room._apply(lambda entries: t.expire(seat))           # the raise limit (R7.3)
        elif x < 0.1:
            await room.sit_out(p, out=not t.seat(seat).sitting_out)
        else:
            await room.act(p, _choose(t.hand.legal_actions(), rng), room.seq)


def _rows(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def test_every_commit_stores_the_steps_and_restores_the_table_exactly(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"

    async def play() -> None:
        store = open_store(str(db))
        try:
            room = await Room.create(CONFIG, store, SETTINGS)
            for seat in range(3):
                await room.join(f"p{seat}", seat, None, False)
            rng = random.Random(3)
            checked = biggest = 0
            while room.table.hand_count < 12:
                await _step(room, rng)
                (row,) = store.load_tables()
                journal = row.state["journal"]
                biggest = max(biggest, len(journal["rows"]))
                # the rows are the base and one per commit since; the rows before the base are gone
                assert [line for line, _ in journal["rows"]] == list(range(journal["base"], journal["line"] + 1))
                assert _rows(db, "SELECT min(line) FROM pd32_journal")[0][0] == journal["base"]
                if not room._hand_running():
                    assert len(journal["rows"]) == 1, "between hands: the base alone"
                restored = stored_table(row.state)
                assert restored.snapshot() | {"clock": 0, "deadline": 0} == \
                    room.table.snapshot() | {"clock": 0, "deadline": 0}
                assert (restored.deadline is None) == (room.table.deadline is None)
                checked += 1
            assert checked > 100 and 3 < biggest < 60
            # a commit's state is the players and where the journal stands: a few hundred bytes
            assert len(_rows(db, "SELECT state FROM pd32_tables")[0][0]) < 1500
        finally:
            store.close()
    asyncio.run(play())


def test_a_restored_room_plays_on_exactly_as_the_original(tmp_path: Path) -> None:
    """A room and its copy restored from the database mid-hand, given the same requests, write
    the same log entries and end in the same state; the copy's first commit writes a new base
    (its journal's times are in the clock of the process that wrote them)."""
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"

    async def play() -> None:
        store = open_store(str(first))
        room = await Room.create(CONFIG, store, SETTINGS)
        for seat in range(3):
            await room.join(f"p{seat}", seat, None, False)
        rng = random.Random(5)
        while room.table.hand_count < 3 or not room._hand_running() or len(room.table.journal or ()) < 4:
            await _step(room, rng)
        store.close()
        shutil.copy(first, second)
        room.store = open_store(str(first))
        copy_store = open_store(str(second))
        try:
            (row,) = copy_store.load_tables()
            copy = Room.restore(CONFIG, row.state, row.seq, copy_store, SETTINGS)
            assert _comparable(copy._state()) == _comparable(room._state())
            assert copy._rebase and copy.table.journal == room.table.journal
            split = room.seq
            for r in (room, copy):
                moves = random.Random(9)
                while r.table.hand_count < 6:
                    await _step(r, moves)
            assert [(s, h, e) for s, h, e in room.recent if s > split] == \
                [(s, h, e) for s, h, e in copy.recent if s > split]
            assert room.seq > split + 30 and _comparable(copy._state()) == _comparable(room._state())
            (row,) = copy_store.load_tables()
            assert _comparable({**copy._state(), "table": stored_table(row.state).snapshot(
                ledger_from=len(copy.table.ledger))}) == _comparable(copy._state())
        finally:
            room.store.close()
            copy_store.close()
    asyncio.run(play())


def _v1_database(db: Path) -> tuple[dict[str, Any], int]:
    """A database as a schema-1 server left it, mid-hand: each commit wrote the room's whole state
    (``Room._state()``) in pd32_tables, no pd32_journal.  Returns that state and the table's seq."""
    async def play() -> tuple[dict[str, Any], int, list[dict[str, Any]]]:
        store = open_store(str(db))
        try:
            room = await Room.create(CONFIG, store, SETTINGS)
            for seat in range(3):
                await room.join(f"p{seat}", seat, None, False)
            rng = random.Random(1)
            while room.table.hand_count < 2 or not room._hand_running() or room.table.hand.serial < 12:
                await _step(room, rng)
            return room._state(), room.seq, [e.to_dict() for e in room.table.ledger]
        finally:
            store.close()
    state, seq, ledger = asyncio.run(play())
    conn = sqlite3.connect(db)
    try:
        conn.execute("UPDATE pd32_tables SET state = ?", (json.dumps(state),))
        conn.execute("DROP TABLE pd32_journal")
        conn.execute("UPDATE pd32_meta SET value = '1' WHERE key = 'schema'")
        conn.commit()
    finally:
        conn.close()
    assert len(ledger) == len(_rows(db, "SELECT line FROM pd32_ledger"))
    return state, seq


def test_a_schema_1_database_is_migrated_and_its_tables_restore(tmp_path: Path) -> None:
    db = tmp_path / "v1.sqlite"
    state, seq = _v1_database(db)

    async def reopen() -> None:
        store = open_store(str(db))
        try:
            assert _rows(db, "SELECT value FROM pd32_meta WHERE key = 'schema'") == [(str(SCHEMA_VERSION),)]
            (row,) = store.load_tables()
            room = Room.restore(CONFIG, row.state, row.seq, store, SETTINGS)
            assert room.seq == seq and _comparable(room._state()) == _comparable(state)
            rng = random.Random(2)
            for _ in range(3):                      # the first commit writes the table's first base
                await _step(room, rng)
            journal = store.load_tables()[0].state["journal"]
            assert journal["base"] == 1 and journal["line"] == 3
            before = room._state()
        finally:
            store.close()
        store = open_store(str(db))
        try:
            (row,) = store.load_tables()
            again = Room.restore(CONFIG, row.state, row.seq, store, SETTINGS)
            assert _comparable(again._state()) == _comparable(before)
        finally:
            store.close()
    asyncio.run(reopen())


def test_a_database_of_an_unknown_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "v9.sqlite"
    open_store(str(db)).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE pd32_meta SET value = '9' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    with pytest.raises(StorageError, match="the database has schema version 9; this server reads 3 "
                                           r"\(and migrates versions 1 and 2\)"):
        open_store(str(db))


def test_a_schema_2_database_keeps_its_phh_text_archive_and_adds_json_rows(tmp_path: Path) -> None:
    """Version 2 archived each hand as its PHH text (TOML), version 3 as its PHH fields in JSON:
    a migrated database holds both, and :meth:`Store.hands` reads both to the same histories."""
    db = tmp_path / "v2.sqlite"

    async def play(until: int) -> list[Any]:
        store = open_store(str(db))
        try:
            rows = store.load_tables()
            room = Room.restore(CONFIG, rows[0].state, rows[0].seq, store, SETTINGS) if rows else \
                await Room.create(CONFIG, store, SETTINGS)
            if not rows:
                for seat in range(3):
                    await room.join(f"p{seat}", seat, None, False)
            rng = random.Random(until)
            while room.table.hand_count <= until:
                await _step(room, rng)
            return [h for _, h in store.hands(room.id)]
        finally:
            store.close()
    first = asyncio.run(play(3))
    assert len(first) == 3
    stored = _rows(db, "SELECT hand, phh FROM pd32_hands ORDER BY hand")
    assert [h for h, _ in stored] == [1, 2, 3] and all(text.startswith("{") for _, text in stored)
    assert [archived_history(text) for _, text in stored] == first
    conn = sqlite3.connect(db)                       # as version 2 left it: the PHH text
    for hand, text in stored:
        conn.execute("UPDATE pd32_hands SET phh = ? WHERE hand = ?", (archived_history(text).dumps(), hand))
    conn.execute("UPDATE pd32_meta SET value = '2' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    assert all(text.startswith("variant = ") for _, text in _rows(db, "SELECT hand, phh FROM pd32_hands"))
    again = asyncio.run(play(5))                      # migrated; two more hands archived as JSON
    assert _rows(db, "SELECT value FROM pd32_meta WHERE key = 'schema'") == [(str(SCHEMA_VERSION),)]
    assert again[:3] == first and len(again) == 5 and [h.hand for h in again] == [1, 2, 3, 4, 5]
    assert [text[:1] for _, text in _rows(db, "SELECT hand, phh FROM pd32_hands ORDER BY hand")] == \
        ["v", "v", "v", "{", "{"]
    for h in again:
        assert h.replay().is_complete


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", r"t1 hand 4: not a JSON object of PHH fields \(Expecting property name"),
    ('{"variant": "32D"}', r"t1 hand 4.*"),
    ("variant = 3", r"t1 hand 4.*"),
])
def test_an_archived_hand_that_is_not_a_history_is_refused_naming_it(text: str, message: str) -> None:
    with pytest.raises(HistoryError, match=message):
        archived_history(text, "t1 hand 4")


def test_a_journal_that_does_not_replay_is_refused_naming_the_table(tmp_path: Path) -> None:
    db = tmp_path / "bad.sqlite"

    async def play() -> None:
        store = open_store(str(db))
        try:
            room = await Room.create(CONFIG, store, SETTINGS)
            for seat in range(3):
                await room.join(f"p{seat}", seat, None, False)
            rng = random.Random(4)
            while not room._hand_running() or len(room.table.journal or ()) < 3:
                await _step(room, rng)
        finally:
            store.close()
    asyncio.run(play())
    conn = sqlite3.connect(db)
    (line, entry), = conn.execute("SELECT line, entry FROM pd32_journal ORDER BY line DESC LIMIT 1").fetchall()
    step = json.loads(entry)
    step["steps"][-1]["seat"] = 4                   # a seat the table has not
    conn.execute("UPDATE pd32_journal SET entry = ? WHERE line = ?", (json.dumps(step), line))
    conn.commit()
    conn.close()
    store = open_store(str(db))
    try:
        (row,) = store.load_tables()
        with pytest.raises(StorageError, match=r"table 't1': the stored state does not restore: table journal: "
                                               r"step \d+ \(\w+\) is refused"):
            Room.restore(CONFIG, row.state, row.seq, store, SETTINGS)
    finally:
        store.close()
