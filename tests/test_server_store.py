"""The server's database layer (pokerdraw32.server.store) on a real SQLite file: a commit is all
or nothing, a failed transaction answers every waiter (none hangs), one server per database."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from pokerdraw32.server.store import Commit, StorageError, open_store


def _commit(table: str, seq: int, *, new: bool = False) -> Commit:
    events = [] if new else [(seq, 1, {"kind": "seated", "seat": 0})]
    return Commit(table, seq, {"table": {"ledger": []}, "n": seq}, events, ledger=[(seq, {"line": seq})],
                  new=new, config={"id": table} if new else None)


def test_commits_are_all_or_nothing_and_a_locked_database_fails_every_waiter(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    store = open_store(str(db))
    try:
        asyncio.run(store.commit(_commit("a", 0, new=True)))
        asyncio.run(store.commit(_commit("a", 1)))
        blocker = sqlite3.connect(db, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")          # another process holds the database past busy_timeout

        async def two() -> list[BaseException | None]:
            results = await asyncio.gather(store.commit(_commit("a", 2)), store.commit(_commit("b", 0, new=True)),
                                           return_exceptions=True)
            return list(results)
        results = asyncio.run(asyncio.wait_for(two(), 30))
        assert all(isinstance(r, StorageError) for r in results), results
        blocker.execute("ROLLBACK")
        blocker.close()
        asyncio.run(store.commit(_commit("a", 2)))          # the same commit, once the database is free
        with pytest.raises(StorageError, match="expected log entry"):
            asyncio.run(store.commit(_commit("a", 2)))      # twice: refused, nothing written
        rows = store.load_tables()
        assert [(r.id, r.seq, r.state["n"]) for r in rows] == [("a", 2, 2)]
        assert rows[0].state["table"]["ledger"] == [{"line": 0}, {"line": 1}, {"line": 2}]
        assert [s for s, _, _ in asyncio.run(store.events("a", 0, 10))] == [1, 2]
    finally:
        store.close()


def test_one_server_per_database(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    first = open_store(db)
    try:
        with pytest.raises(StorageError, match="another server uses"):
            open_store(db)
    finally:
        first.close()
    open_store(db).close()                                  # free again once the first is closed
