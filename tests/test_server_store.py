"""The server's database layer (pokerdraw32.server.store) on a real SQLite file: a commit is all
or nothing, a failed transaction answers every waiter (none hangs), one server per database."""

from __future__ import annotations

import asyncio
import os
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


def test_commits_soon_after_a_group_wait_for_the_hold_and_go_together(tmp_path: Path) -> None:
    """SYNC_HOLD: a commit after a quiet spell, and a lone committer's, is written at once;
    commits that come less than ``sync_hold`` after a group of several began wait for the rest of
    it and are written as one group (one sync), each still all or nothing, all read back."""
    store = open_store(str(tmp_path / "h.sqlite"))
    try:
        store.sync_hold = 5.0                     # long enough that no machine's slowness blurs it

        async def run() -> None:
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            await store.commit(_commit("a", 0, new=True))
            await store.commit(_commit("a", 1))
            assert loop.time() - t0 < 2.5        # quiet, then one committer: never held
            assert store.syncs == 2
            with store._lock:                    # the writer waits: both are queued, one group
                both = [asyncio.create_task(store.commit(_commit(t, 0, new=True))) for t in "bc"]
                await asyncio.sleep(0)
            await asyncio.gather(*both)
            assert loop.time() - t0 < 2.5 and store.syncs == 3
            t1 = loop.time()
            await asyncio.gather(store.commit(_commit("b", 1)), store.commit(_commit("c", 1)),
                                 store.commit(_commit("a", 2)))
            assert loop.time() - t1 >= 4.9      # after a group of two, within the hold: waited ...
            assert store.syncs == 4              # ... and went together: one group, one sync
        asyncio.run(run())
        assert {r.id: r.seq for r in store.load_tables()} == {"a": 2, "b": 1, "c": 1}
        assert store.commits == 7
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


@pytest.mark.parametrize("link", ["symlink", "hardlink", "relative"])
def test_one_server_per_database_file_whatever_path_names_it(tmp_path: Path, link: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock belongs to the database's real file: a second server given a symbolic link or a
    hard link to it (or another spelling of its path) is refused at start, with the reason, and
    the first goes on committing."""
    real = tmp_path / "data" / "s.sqlite"
    real.parent.mkdir()
    first = open_store(str(real))
    try:
        asyncio.run(first.commit(_commit("a", 0, new=True)))
        other = tmp_path / "other.sqlite"
        if link == "symlink":
            other.symlink_to(real)
        elif link == "hardlink":
            os.link(real, other)
        else:
            monkeypatch.chdir(tmp_path)
            other = Path("data/../data/s.sqlite")
        with pytest.raises(StorageError, match="another server uses") as refused:
            open_store(str(other))
        message = str(refused.value)
        assert str(other) in message
        if link == "hardlink":
            assert "hard link" in message and f"inode {real.stat().st_ino}" in message
        else:
            assert f"{real}.lock" in message
        assert not (tmp_path / "other.sqlite-wal").exists()     # the refused server wrote nothing
        asyncio.run(first.commit(_commit("a", 1)))               # the first one goes on
        assert [(r.id, r.seq) for r in first.load_tables()] == [("a", 1)]
    finally:
        first.close()
    second = open_store(str(other))                              # free once the first is closed
    try:
        assert [(r.id, r.seq) for r in second.load_tables()] == [("a", 1)]
    finally:
        second.close()


def test_dumps_reads_back_the_same_with_or_without_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's JSON writer (orjson when installed, else json) gives text that reads back to
    the same data, a table's snapshot with a running hand included; what orjson refuses (an
    integer beyond 64 bits) goes through json."""
    import json

    from pokerdraw32 import Rules
    from pokerdraw32.server import protocol
    from pokerdraw32.table import Table

    t = Table(Rules(), seed=3)
    for seat in range(3):
        t.join(seat, f"p{seat}", 100)
    t.start_hand()
    samples = [t.snapshot(), t.view(0), {"big": 2**70, "keys": {1: "a"}, "x": [1.5, None, True, "é"]}]
    expected = [json.loads(json.dumps(x)) for x in samples]
    assert [json.loads(protocol.dumps(x)) for x in samples] == expected
    monkeypatch.setattr(protocol, "_orjson", None)
    assert [json.loads(protocol.dumps(x)) for x in samples] == expected
    assert protocol.dumps({"a": [1, 2]}) == '{"a":[1,2]}'


def test_read_message_refuses_bad_json_in_json_loads_words() -> None:
    """``read_message`` reads with a decoder built once: a text that is not JSON is ``bad_json``
    with ``json.loads``'s own words (a byte order mark included, which ``json.loads`` checks
    before decoding), and NaN and Infinity are refused by name."""
    import json

    from pokerdraw32.server.protocol import Limits, ProtocolError, read_message

    for text in ['\ufeff{"type":"ping"}', '{"type":', "[1", '{"type":"ping"} x', "", "{'type': 'ping'}"]:
        with pytest.raises(ValueError) as expected:
            json.loads(text)
        with pytest.raises(ProtocolError) as got:
            read_message(text, Limits())
        assert (got.value.code, got.value.message) == ("bad_json", f"not JSON: {expected.value}"), text
    for text, name in (('{"type":"ping","x":NaN}', "NaN"), ('{"type":"ping","x":-Infinity}', "-Infinity")):
        with pytest.raises(ProtocolError, match=f"{name} is not a JSON value") as got:
            read_message(text, Limits())
        assert got.value.code == "bad_json"
    assert read_message('{"type":"ping","id":7}', Limits()) == {"type": "ping", "id": 7}
