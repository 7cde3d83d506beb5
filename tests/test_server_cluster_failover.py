"""The game server's cluster under failovers while hands run: real ``pokerdraw32 serve`` processes
on 127.0.0.1 sharing a throwaway PostgreSQL (skipped, saying why, where it cannot run), eight
real WebSocket clients at four busy tables, watchers of each table and a poller of the lobby,
each run bounded in time (PROTOCOL.md, Cluster).

Processes are killed (the edge, the owner), stopped (SIGTERM), added (the tables spread), and
PostgreSQL is stopped (``-m immediate``, ``-m fast``, longer than the lease) while hands run: at
the end no gap or duplicate in any client's or watcher's log, every acknowledged action stored
once, chips conserved, each table's log numbered without a gap, no traceback in any server log
(:func:`cluster_support.check_run`), and the lobby and the archive served (or refused with 503
during an outage) by every process throughout.

``PD32_CLUSTER_SEED=N`` replays a failed run's choices (its seed is printed).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from cluster_support import (
    LEASE,
    Lobby,
    Watcher,
    busy_cluster,
    check_run,
    hands_played,
    just_after_an_act,
    more_hands,
    playing,
    rotated,
    running,
    seeded,
    tables_run_by,
    terminate_all,
)
from server_support import Postgres, read_db


def test_processes_killed_stopped_and_added_while_hands_run(pg: Postgres, tmp_path: Path) -> None:
    """Four tables, eight clients each connected to a process that mostly does not own its
    table; while hands run: an edge is SIGKILLed (its clients reconnect elsewhere), an owner is
    stopped (SIGTERM: its tables are let go at once), a new process joins (the tables spread:
    ``moved``), the killed one comes back, another owner is SIGKILLed.  The lobby and the archive
    are polled on every process throughout.  Then everything is checked (:func:`check_run`)."""
    rng = seeded("processes")
    ids, servers, clients = busy_cluster(tmp_path, pg.url, 4, rng, think=0.03, give_up=30.0, hand_pause=0.02,
                                         bot_delay=0.0)
    urls = [s.ws_url for s in servers]
    lobby = Lobby(servers, ids)
    watchers = [Watcher(rotated(urls, k + 1), t) for k, t in enumerate(ids)]
    steps: list[str] = []
    with running(servers, start=3):
        a, b, c, d = servers

        async def play() -> None:
            t0 = time.monotonic()

            async def more(what: str, n: int = 4) -> None:
                steps.append(f"{time.monotonic() - t0:5.1f} s: {what}")
                await more_hands(clients, n, 30, f"{n} more hands after: {what}")
            async with playing([*clients, *watchers, lobby]):
                await hands_played(clients, 2, 30)
                mine = {s: len(tables_run_by(s)) for s in (a, b, c)}
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
                theirs = set(tables_run_by(last))           # kill it just after one of its clients acted
                await just_after_an_act(clients, [x for x in clients if x.table in theirs])
                last.kill()
                await more(f"an owner SIGKILLed (tables {sorted(theirs)}) just after an act")
        asyncio.run(asyncio.wait_for(play(), 150))
        print(*steps, sep="\n")
        terminate_all(servers, some_gone=True)
    assert sum(x.moves for x in clients) > 0
    assert lobby.polls > 20 and lobby.bad == [], lobby.bad[:10]
    check_run(pg.url, ids, clients, servers)
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
    (:func:`check_run`)."""
    rng = seeded("postgres")
    # (think: well under the rate limit, 20 messages a second)
    ids, servers, clients = busy_cluster(tmp_path, pg.url, 2, rng, think=0.03, give_up=60.0, hand_pause=0.03,
                                         bot_delay=0.005)
    lobby = Lobby(servers, ids)
    watchers = [Watcher(rotated([s.ws_url for s in servers], k), t) for k, t in enumerate(ids)]
    steps: list[str] = []
    with running(servers):
        async def play() -> None:
            t0 = time.monotonic()
            async with playing([*clients, *watchers, lobby]):
                await hands_played(clients, 2, 30)
                for mode, down in (("immediate", 0.5), ("immediate", 1.0), ("fast", 2 * LEASE + 2),
                                   ("immediate", 3 * LEASE)):
                    steps.append(f"{time.monotonic() - t0:5.1f} s: stop -m {mode} for {down:.1f} s")
                    lobby.outage = True
                    await asyncio.to_thread(pg.stop, mode)
                    await asyncio.sleep(down)
                    await asyncio.to_thread(pg.start)
                    await more_hands(clients, 2, 30, f"two more hands everywhere after the stop -m {mode}")
                    lobby.outage = False
        asyncio.run(asyncio.wait_for(play(), 150))
        print(*steps, sep="\n")
        terminate_all(servers)
    assert lobby.polls > 20 and lobby.bad == [], lobby.bad[:10]
    check_run(pg.url, ids, clients, servers, allowed=frozenset({"storage"}))
    dump = read_db(pg.url)
    for w in watchers:
        w.check(dump)
