"""A table owner frozen inside its commit transaction stalls nobody (issue 43, item 1): real
``pokerdraw32 serve`` processes on 127.0.0.1 sharing a throwaway PostgreSQL (skipped, saying why,
where it cannot run), real WebSocket clients and watchers, bounded in time.

Three processes A, B, C and three busy tables (two bots and two clients each), one table owned by
each process.  A runs with the test hook ``POKERDRAW32_TEST_FREEZE_IN_COMMIT`` (store.py): when
the test creates the hook's file, A's writer stops its own process (SIGSTOP) inside its next
transaction, after its fenced update and before its commit, holding the lock on the lease row of
its table (checked: ``SELECT ... FOR UPDATE NOWAIT`` of that row is refused, and A's writer
session is ``idle in transaction``).  A stays stopped for four leases; meanwhile the other tables
keep playing (no gap of more than a lease in what their watchers receive), and A's table answers
through another process within two leases of the freeze (a ``watching`` answer or a new entry,
past the last committed one, at its watcher, which connects to B and C only, as do the clients).
PostgreSQL ends A's transaction (``idle_in_transaction_session_timeout``): checked, its session is
gone.  Then SIGCONT: A finds its transaction ended and its lease gone, writes nothing, and gets a
table back when the tables spread again.  Repeated :data:`REPS` times; at the end
(:func:`cluster_support.check_run`): each table's log numbered without a gap or an entry twice,
chips conserved, every acknowledged action stored once, each client's log the stored one, no
error but races and failovers, no traceback in any log.

``PD32_CLUSTER_SEED=N`` replays a run's choices; ``PD32_FREEZE_REPS=N`` sets the repetitions.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from cluster_support import (
    LEASE,
    Watcher,
    check_run,
    more_hands,
    playing,
    processes,
    rotated,
    running,
    seeded,
    spread,
    terminate_all,
)
from server_support import BotClient, Postgres, read_db, tables_config

from pokerdraw32.server.store import FREEZE_ENV

REPS = int(os.environ.get("PD32_FREEZE_REPS", "10"))
"""Freezes per run, as issue 43 asks (about 7 s each here: ``PD32_FREEZE_REPS=N`` for fewer or more)."""


class TimedWatcher(Watcher):
    """A :class:`cluster_support.Watcher` that also notes when each answer came:
    ``(time.monotonic(), type, seq)`` of every ``event`` and ``watching``."""

    def __init__(self, urls: list[str], table: str) -> None:
        super().__init__(urls, table)
        self.times: list[tuple[float, str, int]] = []

    async def _receive(self, ws: Any, m: dict[str, Any]) -> None:
        if m["type"] in ("event", "watching"):
            self.times.append((time.monotonic(), m["type"], int(m.get("seq") or 0)))
        await super()._receive(ws, m)


def stopped(pid: int) -> bool:
    """The process is stopped (SIGSTOP): its state in ``/proc`` is ``T``."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] in ("T", "t")


@pytest.mark.xfail(strict=False, reason="open (issue 43, item 2): the stall itself is gone (a frozen owner's tables "
                   "answer through another process within 2 leases in every run), but around the takeovers a request "
                   "in flight can get no answer (a client's act or discard left pending: 'a hand everywhere before "
                   "it: not within 30 s', CI run of 8 Dec, freeze 5), which item 2 fixes; its branch "
                   "failover-answers in turn left other tables quiet 1.8-3.8 s during a freeze (3 of 3 runs)")
def test_owner_frozen_in_its_commit_transaction(pg: Postgres, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    psycopg = pytest.importorskip("psycopg")
    if not os.path.exists(f"/proc/{os.getpid()}/stat"):
        pytest.skip("needs /proc to see that a process is stopped")
    rng = seeded("freeze")
    tables = tables_config(3, 4, bots={"0": "rule", "1": "random"})
    ids = [t["id"] for t in tables]
    servers = processes(tmp_path, pg.url, tables, 3, hand_pause=0.02, bot_delay=0.0)
    a, b, c = servers
    hook = tmp_path / "freeze-now"
    edges = [b.ws_url, c.ws_url]             # the clients and watchers never connect to A
    clients = [BotClient(rotated(edges, i), tid, f"{tid}-p{seat}", seat=seat, seed=rng.randrange(1 << 32),
                         think=0.03, give_up=60.0)
               for i, (tid, seat) in enumerate((t, s) for t in ids for s in (2, 3))]
    watchers = {t: TimedWatcher(rotated(edges, k), t) for k, t in enumerate(ids)}
    report: list[str] = []
    with running(servers, start=0):
        monkeypatch.setenv(FREEZE_ENV, str(hook))
        a.start()
        monkeypatch.delenv(FREEZE_ENV)
        b.start()
        c.start()
        db = psycopg.connect(pg.url, autocommit=True)

        async def one_freeze(rep: int) -> None:
            owner = await asyncio.to_thread(spread, servers, 3, 30.0)
            mine = [t for t, s in owner.items() if s is a]
            assert len(mine) == 1, owner
            frozen, others = mine[0], [t for t in ids if t not in mine]
            await more_hands(clients, 1, 30, f"freeze {rep}: a hand everywhere before it")
            hook.touch()
            deadline = time.monotonic() + 10
            assert a.pid is not None
            while not stopped(a.pid):
                assert time.monotonic() < deadline and a.running(), "A did not stop itself in a commit"
                await asyncio.sleep(0.005)
            t0 = time.monotonic()
            # A holds its lease row: nobody can lock it, and its writer is idle in its transaction
            with pytest.raises(psycopg.errors.LockNotAvailable):
                db.execute("SELECT 1 FROM pd32_owners WHERE table_id = %s FOR UPDATE NOWAIT", (frozen,))
            await asyncio.sleep(0.1)             # the healthy writers' transactions last milliseconds
            held = db.execute("SELECT pid FROM pg_stat_activity WHERE application_name = 'pokerdraw32 writer' AND "
                              "state = 'idle in transaction' AND state_change < now() - interval '0.08 s'").fetchall()
            assert len(held) == 1, held
            committed = db.execute("SELECT seq FROM pd32_tables WHERE id = %s", (frozen,)).fetchone()[0]
            await asyncio.sleep(4 * LEASE)
            t1 = time.monotonic()
            gone = db.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (held[0][0],)).fetchone()[0]
            os.kill(a.pid, signal.SIGCONT)
            # the frozen owner's table answered through another process within two leases
            answers = [at for at, kind, seq in watchers[frozen].times
                       if at > t0 and (kind == "watching" or seq > committed)]
            assert answers, f"freeze {rep}: table {frozen} never answered while A was stopped"
            took = answers[0] - t0
            # every other table kept answering: no gap of more than a lease at its watcher
            gaps = {}
            for t in others:
                at = [t0] + [x for x, _, _ in watchers[t].times if t0 < x < t1] + [t1]
                gaps[t] = max(y - x for x, y in itertools.pairwise(at))
            report.append(f"freeze {rep}: table {frozen} answered {took:.2f} s after A stopped; longest gap "
                          f"elsewhere {max(gaps.values()):.2f} s; A's transaction ended by PostgreSQL: {gone == 0}")
            assert gone == 0, f"freeze {rep}: A's session still exists after {4 * LEASE} s"
            assert took <= 2 * LEASE, report[-1]
            assert max(gaps.values()) <= LEASE, (report[-1], gaps)

        async def play() -> None:
            async with playing([*clients, *watchers.values()]):
                for rep in range(REPS):
                    await one_freeze(rep)
                await more_hands(clients, 1, 30, "a hand everywhere after the last freeze")
        t_start = time.monotonic()
        try:
            asyncio.run(asyncio.wait_for(play(), 30 + 25 * REPS))
        finally:
            if a.pid is not None and a.running():
                os.kill(a.pid, signal.SIGCONT)
            print(*report, sep="\n")
            db.close()
        print(f"{REPS} freezes in {time.monotonic() - t_start:.1f} s")
        terminate_all(servers)
    # A's transaction was ended by PostgreSQL, and taken for a lost lease (the table read again, let go)
    text = a.log_text()
    assert text.count("idle-in-transaction timeout") >= REPS and "lease was lost" in text, a.log_tail()
    check_run(pg.url, ids, clients, servers)
    dump = read_db(pg.url)
    for w in watchers.values():
        w.check(dump)
