"""The server's database: every accepted request is one transaction, committed before anyone is told.

The tables, the same in SQLite and PostgreSQL:

* ``pd32_tables(id, config, state, seq)``: one row per game table: its settings (JSON), its
  state (JSON: the seats' tokens, time banks and bots, and where its journal stands; see
  :mod:`pokerdraw32.server.room`) and the number of its last log entry;
* ``pd32_journal(table_id, line, entry)``: how the game table got where it is: a base
  (``Table.snapshot()``) and the table's steps since (``Table.journal``), a row per commit that
  changed it, so that a commit writes only its own steps; a commit that writes a new base
  deletes the rows before it;
* ``pd32_events(table_id, seq, hand, event)``: the table's log, every card included (the
  dealer's record; what a seat may see is derived from it when sent);
* ``pd32_ledger(table_id, line, entry)``: the table's ledger (buy-ins, additions, each seat's
  result of each hand, cash-outs: :attr:`Table.ledger`), a row per line, so that a commit writes
  only the new lines (a base holds the rest of ``Table.snapshot()``, whose size does not grow
  with the hands played);
* ``pd32_hands(table_id, hand, phh)``: each finished hand's PHH fields as a JSON object
  (:meth:`HandHistory.to_document <pokerdraw32.history.HandHistory.to_document>`; a database
  of schema version 2 or 1 holds the PHH text, TOML, and both are read: :func:`archived_history`).
  The PHH text is written when a table's hands are asked for, not while the table plays.

A :class:`Commit` (a table's new log entries, its new state, and a finished hand's history) is
written in one transaction.  Commits of different tables that arrive while one is being written
are written together and made durable by one sync (group commit; a group begins at most every
:data:`SYNC_HOLD` seconds, so that under load more commits share it); each is still all or nothing
(if one fails, each is written again alone), and nobody is told about any of them before that
sync.

SQLite (the default, ``--db FILE``) runs in WAL mode with ``synchronous=FULL``: a commit is on
disk when :meth:`Store.commit` returns, and survives a crash of the process or of the machine.
PostgreSQL (``--db postgresql://...``) goes through psycopg (extra ``[server]``) with its own
durable commit (``synchronous_commit`` as the server sets it; on by default).

Writes run in one thread of the store's own, reads in another with their own connection, so the
event loop never waits on a disk and a long read never holds up the commits.  SQLite: one
server per database, the store holds a lock on the database file itself (so that another path to
it, a symbolic or a hard link, meets the same lock) and on ``REALFILE.lock``, and refuses to open
a database another server uses.  PostgreSQL: any number of server processes share the database
(:mod:`pokerdraw32.server.cluster`), each table owned by one at a time under a lease
(``pd32_owners``), every write fenced by it; a connection lost (a database restart) is opened
again at the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock file
    fcntl = None  # type: ignore[assignment]

from ..history import HandHistory, HistoryError
from ._loop import running_loop
from .protocol import dumps

log = logging.getLogger("pokerdraw32.server")

__all__ = ["SYNC_HOLD", "Commit", "StaleTableError", "StorageError", "Store", "TableRow", "archived_history",
           "open_store", "pg_connect_args"]

SYNC_HOLD = 0.002
"""Seconds at least between the starts of two groups of commits while several commit at once: a
commit that comes sooner after the last group began, when that group held more than one commit,
waits for the rest of that time and is written with those that come meanwhile, in one
transaction and one sync (PostgreSQL's ``commit_delay`` does the same, when others commit too).
A lone committer (one busy table) is not held (its first commit after a group of several may
wait once), and after a quiet spell a commit is written at once; under load, fewer and larger
groups: ``python bench/server_load.py --hands 1500``, 5,600 syncs for 28,500 commits without the hold, 3,150 with
it, and about 15% less server CPU per action (the writer's system calls, and its turns at the
interpreter lock between the event loop's)."""

SCHEMA_VERSION = 3
"""3: ``pd32_hands`` rows are JSON objects of PHH fields (version 2 wrote the PHH text, still
read).  2: ``pd32_journal``.  A database of an older version is migrated when opened: version 1,
whose table rows hold the whole state, gets ``pd32_journal`` and each table's first commit writes
its first base; the hands archived before stay as they are."""
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS pd32_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS pd32_tables (id TEXT PRIMARY KEY, config TEXT NOT NULL, state TEXT NOT NULL, "
    "seq BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS pd32_events (table_id TEXT NOT NULL, seq BIGINT NOT NULL, hand INTEGER NOT NULL, "
    "event TEXT NOT NULL, PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS pd32_ledger (table_id TEXT NOT NULL, line INTEGER NOT NULL, entry TEXT NOT NULL, "
    "PRIMARY KEY (table_id, line))",
    "CREATE TABLE IF NOT EXISTS pd32_hands (table_id TEXT NOT NULL, hand INTEGER NOT NULL, phh TEXT NOT NULL, "
    "PRIMARY KEY (table_id, hand))",
    "CREATE TABLE IF NOT EXISTS pd32_journal (table_id TEXT NOT NULL, line BIGINT NOT NULL, entry TEXT NOT NULL, "
    "PRIMARY KEY (table_id, line))",
)


def archived_history(text: str, source: str | None = None) -> HandHistory:
    """The history of a ``pd32_hands`` row's ``text``: a JSON object of PHH fields (schema
    version 3), or the PHH text (TOML) that versions 1 and 2 wrote; ``source`` names it in errors.
    For the histories the server archives (:meth:`Table.last_history
    <pokerdraw32.table.Table.last_history>`): JSON has no TOML date or time, so a history with an
    extra field of such a type would not read back from JSON.

    :raises HistoryError: the text is neither, or a field is bad (as :meth:`HandHistory.loads`).
    """
    if text.startswith("{"):            # a TOML document never starts with "{"
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise HistoryError(f"{source or 'an archived hand'}: not a JSON object of PHH fields ({exc})") from None
        hh = HandHistory.from_document(doc, source=source)
    else:
        hh = HandHistory.loads(text, source=source)
    return hh


class StorageError(RuntimeError):
    """The database failed or holds something this server cannot read; the request that caused
    the write was not applied."""


class StaleTableError(StorageError):
    """The database holds a newer state of the table than this server's copy (another process
    owns it now, or a commit whose answer was lost in a broken connection did go through): the
    write was refused; the table must be read again from the database, or let go."""


@dataclass
class TableRow:
    """A stored table: ``config`` and ``state`` as JSON-decoded data, ``seq`` its last log entry."""

    id: str
    config: dict[str, Any]
    state: dict[str, Any]
    seq: int


@dataclass(slots=True)
class Commit:
    """One transaction: the table's new log entries ``(seq, hand, event)``, its new ``state``
    (JSON-serialisable), its new ledger lines ``(line, entry)``, the hands that finished
    ``(hand, PHH fields as a JSON object)`` (:func:`archived_history` reads them), and its new
    journal rows ``(line, entry)``; with ``journal_from``, the journal rows before that line are
    deleted (a new base makes them useless).

    ``config`` is written only when the table is created (``new=True``).  ``fence`` is the
    ``(server id, epoch)`` of the writer's lease on the table in a cluster (PostgreSQL,
    :mod:`pokerdraw32.server.cluster`): the write is refused (:class:`StaleTableError`) unless
    that lease is still the table's, and a new table's lease row is written with it.
    """

    table_id: str
    seq: int
    state: dict[str, Any]
    events: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    hands: list[tuple[int, str]] = field(default_factory=list)
    ledger: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    new: bool = False
    config: dict[str, Any] | None = None
    fence: tuple[str, int] | None = None
    journal: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    journal_from: int | None = None


class Store:
    """A database behind one writer thread.  Use :func:`open_store`.

    :meth:`commit` (a coroutine) returns once the transaction is durable, or raises
    :class:`StorageError` when it was rolled back.
    """

    placeholder = "?"

    def __init__(self, connect: Callable[[], Any], url: str) -> None:
        self.url = url
        self._connect = connect
        self._conn: Any = None
        # the commits for the writer, then None once closed (a C queue and a C lock: a commit
        # costs no Python-level condition variable)
        self._queue: queue.SimpleQueue[tuple[Commit, _Waiter] | None] = queue.SimpleQueue()
        self._lock = threading.RLock()    # no commit is queued after the None; held, the writer takes no more
        self._closed = False
        # reads (restores, resumes, archives) run on a thread and a connection of their own, so a
        # long read never holds up the commits of every table
        self._reads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pokerdraw32-store-read",
                                         initializer=self._open_reader)
        self._local = threading.local()
        self._thread = threading.Thread(target=self._writer, name="pokerdraw32-store", daemon=True)
        self._ready: Future[None] = Future()
        self.commits = 0          # transactions written
        self.syncs = 0            # durable commits (one per group)
        self.sync_hold = SYNC_HOLD
        """Seconds between the starts of two groups of commits at least (:data:`SYNC_HOLD`)."""
        self._thread.start()
        self._ready.result()

    # ------------------------------------------------------------------ the writer thread
    def _open_reader(self) -> None:
        self._local.conn = self._connect_reader()

    def _connect_reader(self) -> Any:
        return self._connect()

    def _writer(self) -> None:
        try:
            self._conn = self._connect()
            self._claim()
            self._setup()
        except BaseException as exc:
            self._ready.set_exception(StorageError(f"cannot open the database {self.url}: {exc}"))
            return
        self._ready.set_result(None)
        last = -math.inf                  # when the last group was taken (time.monotonic)
        alone = True                      # it held one commit (nobody else was committing)
        waiting = self._queue
        closing = False
        while not closing:
            first = waiting.get()
            closing = first is None
            wait = last + self.sync_hold - time.monotonic()
            if wait > 0 and not closing and not alone:
                time.sleep(wait)          # the commits that come meanwhile join this group
            last = time.monotonic()
            batch = [] if first is None else [first]
            with self._lock:
                while not closing and not waiting.empty():
                    item = waiting.get()
                    if item is None:
                        closing = True    # written with this group, then the writer stops
                    else:
                        batch.append(item)
            if not batch:
                break
            # a commit whose waiter was cancelled (a server stopping) is not written: nobody
            # was told about it
            group = [(c, fut) for c, fut in batch if fut.set_running_or_notify_cancel()]
            alone = len(batch) == 1
            try:
                self._write_group(group)
            except Exception as exc:      # pragma: no cover - a bug: no waiter may hang, the writer goes on
                log.exception("writing a group of commits failed")
                for commit, fut in group:
                    if not fut.done():
                        fut.set_exception(StorageError(f"table {commit.table_id!r}: the write failed ({exc!r})"))
            finally:
                _wake([fut for _, fut in group if fut.done()])
        with contextlib.suppress(Exception):
            self._conn.close()

    def _claim(self) -> None:
        """Make sure no other server uses this database (its tables would be written twice)."""

    def _setup_lock(self) -> None:
        """Serialise the schema's creation among processes starting together."""

    def _end_read(self, conn: Any) -> None:
        pass

    def _write_group(self, batch: list[tuple[Commit, _Waiter]]) -> None:
        """Write the commits in one transaction, then sync once.  If one of them fails, the
        transaction is rolled back and each is written again in a transaction of its own: the
        one that fails gets its error alone (no savepoints: two statements fewer per commit on
        the path that counts)."""
        if self._broken(self._conn):      # the database went away (a restart): connect again
            try:
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = self._connect()
            except Exception as exc:
                for _, fut in batch:
                    fut.set_exception(StorageError(f"the database is unreachable: {exc}"))
                return
        try:
            self._transaction([c for c, _ in batch])
        except Exception as exc:
            if len(batch) == 1 or self._broken(self._conn):
                for commit, fut in batch:
                    fut.set_exception(self._refused(commit, exc))
                return
            for commit, fut in batch:     # one by one: the failing one alone is refused
                try:
                    self._transaction([commit])
                except Exception as one:
                    fut.set_exception(self._refused(commit, one))
                else:
                    fut.set_result(None)
            return
        for _, fut in batch:
            fut.set_result(None)

    def _transaction(self, commits: list[Commit]) -> None:
        """Write ``commits`` and commit, or roll back and raise."""
        try:
            self._begin()
            for commit in commits:
                self._write(commit)
            self._before_commit()
            self._conn.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                self._conn.rollback()
            raise
        self.syncs += 1
        self.commits += len(commits)

    def _before_commit(self) -> None:
        """Called in the writer's transaction, its statements run, before it commits."""

    @staticmethod
    def _refused(commit: Commit, exc: BaseException) -> StorageError:
        # a transaction PostgreSQL ended (idle in transaction too long: this process was frozen
        # in it) or whose lease row stayed locked (a takeover under way) is lost ownership, not a
        # failing database: the table is read again (and let go if its lease went elsewhere)
        lost = isinstance(exc, StaleTableError) or getattr(getattr(exc, "diag", None), "sqlstate", None) in _LOST
        kind = StaleTableError if lost else StorageError
        return kind(f"table {commit.table_id!r}: the database refused the write: {exc}")

    def _begin(self) -> None:
        pass   # both drivers open a transaction at the first statement

    @staticmethod
    def _broken(conn: Any) -> bool:
        """The connection was lost (psycopg's ``broken``; SQLite's never is)."""
        return bool(getattr(conn, "broken", False)) or bool(getattr(conn, "closed", False))

    def _sql(self, text: str) -> str:
        return text.replace("?", self.placeholder)

    schema: tuple[str, ...] = ()
    """Statements run after the common ``_SCHEMA`` (a driver's own tables)."""

    def _setup(self) -> None:
        self._setup_lock()
        for stmt in _SCHEMA + self.schema:
            self._conn.execute(stmt)
        row = self._conn.execute(self._sql("SELECT value FROM pd32_meta WHERE key = ?"), ("schema",)).fetchone()
        if row is None:
            self._conn.execute(self._sql("INSERT INTO pd32_meta (key, value) VALUES (?, ?)"),
                               ("schema", str(SCHEMA_VERSION)))
        elif row[0] in ("1", "2"):  # version 1 lacks pd32_journal (created above); their hands are read as they are
            self._conn.execute(self._sql("UPDATE pd32_meta SET value = ? WHERE key = ?"),
                               (str(SCHEMA_VERSION), "schema"))
        elif row[0] != str(SCHEMA_VERSION):
            raise StorageError(f"the database has schema version {row[0]}; this server reads {SCHEMA_VERSION} "
                               f"(and migrates versions 1 and 2)")
        self._conn.commit()

    def _write(self, c: Commit) -> None:
        ex = self._conn.execute
        sql = self._sql
        state = dumps(c.state)
        if c.new:
            ex(sql("INSERT INTO pd32_tables (id, config, state, seq) VALUES (?, ?, ?, ?)"),
               (c.table_id, dumps(c.config), state, c.seq))
        else:
            last = c.events[0][0] - 1 if c.events else c.seq
            if c.fence is None:
                cur = ex(sql("UPDATE pd32_tables SET state = ?, seq = ? WHERE id = ? AND seq = ?"),
                         (state, c.seq, c.table_id, last))
            else:
                cur = ex(self._fenced_update, (state, c.seq, c.table_id, last, c.table_id, *c.fence))
            if cur.rowcount != 1:
                raise StaleTableError(f"table {c.table_id!r} is not at the expected log entry in the database, or "
                                      f"this server process no longer holds its lease (another process took the "
                                      f"table over, or an earlier commit whose answer was lost went through)")
        if c.new and c.fence is not None:
            ex(sql("INSERT INTO pd32_owners (table_id, owner, epoch, expires) VALUES (?, ?, ?, now() + interval "
                   "'10 seconds')"), (c.table_id, c.fence[0], c.fence[1]))
        if c.events:                      # one statement for all of them
            ex(sql("INSERT INTO pd32_events (table_id, seq, hand, event) VALUES "
                   + ", ".join(["(?, ?, ?, ?)"] * len(c.events))),
               tuple(x for seq, hand, event in c.events for x in (c.table_id, seq, hand, dumps(event))))
        for line, entry in c.ledger:
            ex(sql("INSERT INTO pd32_ledger (table_id, line, entry) VALUES (?, ?, ?)"),
               (c.table_id, line, dumps(entry)))
        for hand, phh in c.hands:
            ex(sql("INSERT INTO pd32_hands (table_id, hand, phh) VALUES (?, ?, ?)"), (c.table_id, hand, phh))
        for line, entry in c.journal:
            ex(sql("INSERT INTO pd32_journal (table_id, line, entry) VALUES (?, ?, ?)"),
               (c.table_id, line, dumps(entry)))
        if c.journal_from is not None:
            ex(sql("DELETE FROM pd32_journal WHERE table_id = ? AND line < ?"), (c.table_id, c.journal_from))

    _fenced_update = ""
    """The UPDATE of a table's row that also checks the writer's lease (PostgreSQL cluster)."""

    # ------------------------------------------------------------------ the event loop's side
    async def commit(self, commit: Commit) -> None:
        """Write ``commit`` as one transaction; returns when it is durable.

        :raises StorageError: it was not written (nothing of it is in the database).
        """
        waiter = _Waiter(running_loop())
        with self._lock:
            if self._closed:
                raise StorageError("the store is closed")
            self._queue.put((commit, waiter))
        await waiter.future

    def load_tables(self) -> list[TableRow]:
        """Every stored table (blocking; called at start), its ledger lines in
        ``state["ledger"]`` and its journal rows from ``state["journal"]["base"]`` on in
        ``state["journal"]["rows"]`` (a state of schema version 1, without ``"journal"``: its
        ledger in ``state["table"]["ledger"]``)."""
        def read(conn: Any) -> list[TableRow]:
            rows = conn.execute("SELECT id, config, state, seq FROM pd32_tables ORDER BY id").fetchall()
            return [self._table_row(conn, r) for r in rows]
        result: list[TableRow] = self._read(read).result()
        return result

    def _table_row(self, conn: Any, r: Any) -> TableRow:
        """The :class:`TableRow` of the ``pd32_tables`` row ``r`` (id, config, state, seq), its
        ledger lines and journal rows read on ``conn`` (see :meth:`load_tables`)."""
        state = json.loads(r[2])
        lines = conn.execute(self._sql("SELECT entry FROM pd32_ledger WHERE table_id = ? ORDER BY line"),
                             (r[0],)).fetchall()
        ledger = [json.loads(line[0]) for line in lines]
        journal = state.get("journal")
        if isinstance(journal, dict):
            state["ledger"] = ledger
            journal["rows"] = [(int(x[0]), json.loads(x[1])) for x in conn.execute(self._sql(
                "SELECT line, entry FROM pd32_journal WHERE table_id = ? AND line >= ? ORDER BY line"),
                (r[0], journal.get("base"))).fetchall()]
        else:
            state["table"]["ledger"] = ledger
        return TableRow(r[0], json.loads(r[1]), state, int(r[3]))

    async def load_table(self, table_id: str) -> TableRow | None:
        """The stored table ``table_id`` as :meth:`load_tables` gives it, or None."""
        def read(conn: Any) -> TableRow | None:
            r = conn.execute(self._sql("SELECT id, config, state, seq FROM pd32_tables WHERE id = ?"),
                             (table_id,)).fetchone()
            if r is None:
                return None
            return self._table_row(conn, r)
        out: TableRow | None = await asyncio.wrap_future(self._read(read))
        return out

    async def table_rows(self) -> list[tuple[str, dict[str, Any], dict[str, Any], int]]:
        """Every stored table's ``(id, config, state without its ledger, seq)`` (the lobby of a
        cluster, for the tables other processes own)."""
        def read(conn: Any) -> list[tuple[str, dict[str, Any], dict[str, Any], int]]:
            rows = conn.execute("SELECT id, config, state, seq FROM pd32_tables ORDER BY id").fetchall()
            return [(r[0], json.loads(r[1]), json.loads(r[2]), int(r[3])) for r in rows]
        out: list[tuple[str, dict[str, Any], dict[str, Any], int]] = await asyncio.wrap_future(self._read(read))
        return out

    async def events(self, table_id: str, after: int, upto: int) -> list[tuple[int, int, dict[str, Any]]]:
        """The table's log entries ``after < seq <= upto``, in order: ``(seq, hand, event)``."""
        def read(conn: Any) -> list[tuple[int, int, dict[str, Any]]]:
            rows = conn.execute(
                self._sql("SELECT seq, hand, event FROM pd32_events WHERE table_id = ? AND seq > ? AND seq <= ? "
                          "ORDER BY seq"), (table_id, after, upto)).fetchall()
            return [(int(r[0]), int(r[1]), json.loads(r[2])) for r in rows]
        out: list[tuple[int, int, dict[str, Any]]] = await asyncio.wrap_future(self._read(read))
        return out

    def hands(self, table_id: str) -> list[tuple[int, HandHistory]]:
        """The table's archived hands ``(hand number, history)`` in order (blocking: the rows are
        read in the store's reading thread, the histories made in the calling one).

        :raises StorageError: the database cannot be read.
        :raises HistoryError: a stored hand is not a valid history (:func:`archived_history`).
        """
        def read(conn: Any) -> list[tuple[int, str]]:
            rows = conn.execute(self._sql("SELECT hand, phh FROM pd32_hands WHERE table_id = ? ORDER BY hand"),
                                (table_id,)).fetchall()
            return [(int(r[0]), r[1]) for r in rows]
        rows: list[tuple[int, str]] = self._read(read).result()
        return [(hand, archived_history(text, f"{table_id} hand {hand}")) for hand, text in rows]

    def _read(self, fn: Callable[[Any], Any]) -> Future[Any]:
        """Run ``fn(connection)`` on the read thread (it sees every commit made so far)."""
        if self._closed:
            raise StorageError("the store is closed")

        def run() -> Any:
            for attempt in (1, 2):
                conn = self._local.conn
                if self._broken(conn):          # the database went away (a restart): connect again
                    with contextlib.suppress(Exception):
                        conn.close()
                    try:
                        conn = self._local.conn = self._connect_reader()
                    except Exception as exc:
                        raise StorageError(f"the database is unreachable: {exc}") from exc
                try:
                    return fn(conn)
                except Exception as exc:
                    # a connection cut since its last use (a database restart) is found broken
                    # only now: a read changes nothing, so it is tried once more on a new one
                    if attempt == 1 and self._broken(conn):
                        continue
                    raise StorageError(f"the database read failed: {exc}") from exc
                finally:
                    with contextlib.suppress(Exception):    # a broken connection: its error is raised
                        self._end_read(conn)
            raise AssertionError("unreachable")  # pragma: no cover
        return self._reads.submit(run)

    def close(self) -> None:
        """Write what is queued, then close the connections."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._queue.put(None)
        self._thread.join()

        def close_reader() -> None:
            conn = getattr(self._local, "conn", None)
            if conn is not None:
                conn.close()
        with contextlib.suppress(Exception):
            self._reads.submit(close_reader).result()
        self._reads.shutdown()


class _Waiter:
    """A commit's waiter, the writer thread's side of the committing task's future: what a
    ``concurrent.futures.Future`` under ``asyncio.wrap_future`` did for it, without the lock,
    the condition and the chained callbacks they make for every commit.  The writer records the
    outcome (:meth:`set_result`, :meth:`set_exception`), then :func:`_wake` hands a group's
    outcomes to each loop at once: the futures are settled in the loop's thread by one
    ``call_soon_threadsafe`` per group, one wake-up of the loop instead of one per commit."""

    __slots__ = ("_exc", "_loop", "_settled", "future")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.future: asyncio.Future[None] = loop.create_future()
        self._settled = False
        self._exc: BaseException | None = None

    def set_running_or_notify_cancel(self) -> bool:
        """False when the committing task was cancelled (a server stopping): nobody would be told,
        the commit is not written."""
        return not self.future.cancelled()

    def done(self) -> bool:
        return self._settled

    def set_result(self, result: None) -> None:
        self._settled = True

    def set_exception(self, exc: BaseException) -> None:
        self._settled = True
        self._exc = exc


def _wake(waiters: list[_Waiter]) -> None:
    """Settle the futures of ``waiters`` (each settled by the writer) in their loops' threads:
    one ``call_soon_threadsafe`` per loop, in the waiters' order."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
    for w in waiters:
        by_loop.setdefault(w._loop, []).append((w.future, w._exc))
    for loop, outcomes in by_loop.items():
        with contextlib.suppress(RuntimeError):           # the loop is closed: nobody waits
            loop.call_soon_threadsafe(_settle_all, outcomes)


def _settle_all(outcomes: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for future, exc in outcomes:
        _settle(future, exc)


def _settle(future: asyncio.Future[None], exc: BaseException | None) -> None:
    if not future.done():
        if exc is None:
            future.set_result(None)
        else:
            future.set_exception(exc)


class _SQLiteStore(Store):
    """SQLite: one server per database *file*, whatever path names it.

    The lock is taken before the store opens any connection, and held until every one is
    closed: an exclusive ``flock`` on the database file itself (its inode: a symbolic link or a
    hard link to the file meets the same lock), and on ``REALFILE.lock`` beside the file's real
    path (the name earlier servers locked, so an older server is refused too).  ``flock`` locks
    are independent of the POSIX record locks SQLite takes on the same file (Linux, macOS, the
    BSDs; not on NFS, where SQLite should not run anyway); the descriptor of the file is never
    closed while this store's connections are open, since closing a descriptor of a file drops
    the process's POSIX locks on it.
    """

    placeholder = "?"

    def __init__(self, connect: Callable[[], Any], url: str, path: str) -> None:
        self.path = path
        self._locks: list[int] = []
        self._lock_files()
        try:
            super().__init__(connect, url)
        except BaseException:
            self._unlock()
            raise

    def _lock_files(self) -> None:
        """Take the two locks (the lock file first: a server refused on the same path or a
        symbolic link never opens the database file, whose descriptor it would close at once)."""
        if self.path in ("", ":memory:") or self.path.startswith("file:") or fcntl is None:
            return
        real = os.path.realpath(self.path)
        named = "" if real == os.path.abspath(self.path) else f" (its real file {real})"
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        try:
            self._take(os.open(real + ".lock", flags, 0o644),
                       f"another server uses {self.path}{named} (it holds {real}.lock)")
            fd = os.open(real, flags, 0o644)
            st = os.fstat(fd)
        except OSError as exc:
            self._unlock()
            raise StorageError(f"cannot open the database {self.path}: {exc}") from None
        except StorageError:
            self._unlock()
            raise
        try:
            self._take(fd, f"another server uses {self.path}{named}: it holds the lock on that file (device "
                           f"{st.st_dev}, inode {st.st_ino}) through another path to it, a hard link")
        except StorageError:
            self._unlock()
            raise

    def _take(self, fd: int, refused: str) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StorageError(refused) from None
        self._locks.append(fd)

    def _unlock(self) -> None:
        for fd in reversed(self._locks):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._locks = []

    def _begin(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def close(self) -> None:
        super().close()
        self._unlock()


_CLUSTER_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS pd32_servers (id TEXT PRIMARY KEY, address TEXT NOT NULL, "
    "started TIMESTAMPTZ NOT NULL DEFAULT now(), expires TIMESTAMPTZ NOT NULL)",
    "CREATE TABLE IF NOT EXISTS pd32_owners (table_id TEXT PRIMARY KEY, owner TEXT NOT NULL, epoch BIGINT NOT NULL, "
    "expires TIMESTAMPTZ NOT NULL)",
)
"""The cluster's tables (PostgreSQL only): the live server processes, and each table's lease."""


_LOST = frozenset({"25P03", "55P03"})
"""SQLSTATEs of a write that failed because its transaction was ended by PostgreSQL while idle
(``idle_in_transaction_session_timeout``: the process was frozen in it) or could not lock its
lease row in time (``lock_timeout``: a takeover held it): treated as a lost lease."""
FREEZE_ENV = "POKERDRAW32_TEST_FREEZE_IN_COMMIT"
"""Tests only: a file path; when that file exists, the writer deletes it and stops its own process
(SIGSTOP) inside its next transaction, after its statements and before its commit, holding its
locks on the lease rows (tests/test_server_cluster_freeze.py)."""


def pg_connect_args(url: str, lease: float, role: str) -> dict[str, Any]:
    """psycopg's connection arguments for a connection of the cluster on ``url``: ``role`` is
    ``"cluster"`` (leases, heartbeats, notifications), ``"writer"`` or ``"reader"`` (the store's).

    * TCP keepalives (libpq ``keepalives``, ``keepalives_idle`` the lease rounded,
      ``keepalives_interval`` a third of it, ``keepalives_count`` 3) and ``tcp_user_timeout``
      (twice the lease, at least 5 s): a lost database host is noticed in seconds, not minutes;
      the same keepalives are asked of the server for its side (``tcp_keepalives_*``): a lost
      server process's sessions end;
    * ``idle_in_transaction_session_timeout`` below the lease (half of it, at least 1 s, at most
      three quarters of it): a process frozen (SIGSTOP, a stalled machine) in the middle of a
      transaction has it ended by PostgreSQL, and its locks on lease rows released, before its
      leases expire;
    * ``lock_timeout`` (cluster: a sixth of the lease, at least 0.1 s; writer: half the lease)
      and ``statement_timeout`` (cluster: half the lease, at least 0.5 s; writer and reader:
      twice the lease, at least 10 s and 30 s): no statement waits for long on another session.

    Options in ``url`` (``?options=-c ...``) come after these and win.
    """
    from psycopg.conninfo import conninfo_to_dict

    def ms(seconds: float) -> str:
        return str(max(1, round(seconds * 1000)))
    idle_tx = min(0.75 * lease, max(lease / 2, 1.0))
    keep_idle, keep_interval = max(1, round(lease)), max(1, round(lease / 3))
    lock, statement = {"cluster": (max(0.1, lease / 6), max(0.5, lease / 2)),
                       "writer": (lease / 2, max(10.0, 2 * lease)),
                       "reader": (lease / 2, max(30.0, 2 * lease))}[role]
    settings = {"lock_timeout": ms(lock), "statement_timeout": ms(statement),
                "idle_in_transaction_session_timeout": ms(idle_tx), "tcp_keepalives_idle": str(keep_idle),
                "tcp_keepalives_interval": str(keep_interval), "tcp_keepalives_count": "3"}
    given = str(conninfo_to_dict(url).get("options") or "")
    options = " ".join(f"-c {k}={v}" for k, v in settings.items()) + (f" {given}" if given else "")
    return {"connect_timeout": 5, "application_name": f"pokerdraw32 {role}", "options": options,
            "keepalives": 1, "keepalives_idle": keep_idle, "keepalives_interval": keep_interval,
            "keepalives_count": 3, "tcp_user_timeout": int(ms(max(5.0, 2 * lease)))}


class _PostgresStore(Store):
    """PostgreSQL: any number of server processes share the database, each table owned by one of
    them at a time (:mod:`pokerdraw32.server.cluster`: a lease row per table in ``pd32_owners``,
    the processes in ``pd32_servers``); every write of a table is fenced by its lease.  Its
    connections time out (:func:`pg_connect_args`)."""

    placeholder = "%s"
    schema = _CLUSTER_SCHEMA

    def __init__(self, connect: Callable[[str], Any], url: str) -> None:
        self._freeze_file = os.environ.get(FREEZE_ENV) or None
        self._connect_as = connect
        super().__init__(lambda: connect("writer"), url)

    def _connect_reader(self) -> Any:
        return self._connect_as("reader")

    def _setup_lock(self) -> None:
        # concurrent CREATE TABLE IF NOT EXISTS can fail in PostgreSQL: one process at a time
        # (processes starting together may wait for each other longer than the lock timeout)
        self._conn.execute("SET LOCAL lock_timeout = '60s'")
        self._conn.execute("SELECT pg_advisory_xact_lock(hashtext('pokerdraw32 schema'))")

    def _before_commit(self) -> None:
        path = self._freeze_file
        if path is not None and os.path.exists(path):    # tests only: FREEZE_ENV
            import signal

            with contextlib.suppress(OSError):
                os.remove(path)
            log.warning("test hook %s: this process stops itself inside a transaction", FREEZE_ENV)
            # sent to this thread: os.kill may wake another thread to stop the process while
            # this one goes on for a moment, and commits
            signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)

    # FOR KEY SHARE: a process taking the lease over (it locks the row FOR UPDATE first) waits
    # for this transaction, then reads the table with this write in it; a takeover committed
    # first makes this write find no row.  The owner's renewals (plain UPDATEs of the expiry) do
    # not wait for it, nor it for them: no deadlock with a group of commits.
    _fenced_update = ("UPDATE pd32_tables SET state = %s, seq = %s WHERE id = %s AND seq = %s AND EXISTS (SELECT 1 "
                      "FROM pd32_owners WHERE table_id = %s AND owner = %s AND epoch = %s FOR KEY SHARE)")

    def _end_read(self, conn: Any) -> None:
        conn.rollback()    # psycopg opened a transaction for the read: end it


def open_store(url: str, lease: float = 3.0) -> Store:
    """Open (creating its tables if needed) the database at ``url``: a file path or
    ``sqlite:///path`` for SQLite, ``postgresql://...`` for PostgreSQL (needs psycopg, extra
    ``[server]``; ``lease``: the cluster's, which sets the connections' timeouts,
    :func:`pg_connect_args`).

    :raises StorageError: it cannot be opened, or holds another schema version.
    """
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError as exc:
            raise StorageError("--db postgresql://... needs psycopg: pip install 'pokerdraw32[server]'") from exc

        def connect_pg(role: str) -> Any:
            # connect_timeout, keepalives: a database host that does not answer (a cut network, not
            # a refusal) fails the commit or the read in seconds instead of holding the writer for minutes
            return psycopg.connect(url, autocommit=False, **pg_connect_args(url, lease, role))
        return _PostgresStore(connect_pg, url)
    path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url

    def connect_sqlite() -> Any:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=5000")
        return _AutoTx(conn)
    return _SQLiteStore(connect_sqlite, url, path)


class _AutoTx:
    """An sqlite3 connection in autocommit mode, with commit/rollback that end the transaction
    ``BEGIN IMMEDIATE`` opened (the module's own transaction handling would not cover
    savepoints)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, args)

    def commit(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.conn.close()
