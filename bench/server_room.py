"""The game server's work per action without the network: one room, its commits and its messages.

    python bench/server_room.py                      # 300 hands at one 5-seat table, SQLite
    python bench/server_room.py --hands 1000 --profile room.prof

A :class:`~pokerdraw32.server.room.Room` on a SQLite file in a temporary directory (the
server's own store: WAL, ``synchronous=FULL``, its writer thread), five players seated, each
with a :class:`~pokerdraw32.server.app.Connection` whose WebSocket is a stub that only counts
frames: the server's path of an ``act`` from :meth:`Room.act` on (the engine, numbering,
the commit to the database, the messages built for every seat and queued, each connection's
frame put together), without uvicorn, the sockets and the message's parsing
(``bench/server_load.py`` measures the whole server).  The players act as the load test's
clients do (check or call mostly, sometimes a minimum bet or raise, discard 0-3 cards); the
hands are started as the room's driver does.

It prints the CPU per acknowledged action of the whole process (both threads: the event
loop's and the store's writer) and of the event loop's thread alone, each as a multiple of
the engine's CPU per decision at the same table measured in the same run (issue 27's target
for the whole server: at most 50x), and the bytes of the room's state and journal written per
commit (the rest of a commit is the log entries, as clients get them).
Then it restores the room from the database and checks it is the room that was played.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


class _Socket:
    """A WebSocket that takes frames and drops them."""

    def __init__(self) -> None:
        self.frames = 0
        self.chars = 0

    async def send_text(self, text: str) -> None:
        self.frames += 1
        self.chars += len(text)


def _choose(legal: Any, rng: random.Random) -> Any:
    from pokerdraw32 import ActionKind
    from pokerdraw32.actions import Action

    kinds = legal.kinds
    if ActionKind.DISCARD in kinds:
        return Action.discard(legal.hole_cards[:min(rng.randrange(4), legal.max_discard)])
    if legal.min_to is not None and rng.random() < 0.1:
        return Action.raise_to(legal.min_to) if ActionKind.RAISE in kinds else Action.bet(legal.min_to)
    if ActionKind.CHECK in kinds:
        return Action.check()
    return Action.call() if ActionKind.CALL in kinds else Action.fold()


async def _play(db: str, hands: int, seed: int, profile: cProfile.Profile | None) -> dict[str, Any]:
    from server_support import tables_config

    from pokerdraw32.server.app import Connection
    from pokerdraw32.server.config import ServerSettings, TableConfig
    from pokerdraw32.server.protocol import Limits, dumps
    from pokerdraw32.server.room import Room
    from pokerdraw32.server.store import open_store

    config = TableConfig.from_dict(tables_config(1, 5, decision_time=60.0, max_buy_in=2000, seed=seed)[0])
    settings = ServerSettings(hand_pause=0.0, bot_delay=0.0, grace=600.0)
    store = open_store(db)
    room = await Room.create(config, store, settings)
    limits = Limits(send_queue=1 << 30)
    sockets, conns = [], []
    for seat in range(5):
        player, _ = await room.join(f"p{seat}", seat, 2000, False)
        ws = _Socket()
        conn = Connection(ws, limits)     # type: ignore[arg-type]
        conn.room, conn.player, player.conn = room, player, conn
        sockets.append(ws)
        conns.append(conn)
    rng = random.Random(seed)
    actions = commits = 0
    state_bytes = 0
    write = store._write

    def counted(commit: Any) -> None:            # what a commit stores of the room (the writer thread)
        nonlocal state_bytes, commits
        state_bytes += len(dumps(commit.state)) + sum(len(dumps(entry)) for _, entry in
                                                      getattr(commit, "journal", ()))
        commits += 1
        write(commit)

    store._write = counted                       # type: ignore[method-assign]
    t = room.table

    async def flush() -> None:
        for conn, ws in zip(conns, sockets, strict=True):
            while conn.out:
                await ws.send_text(conn._frame())

    cpu0, thread0 = time.process_time(), time.thread_time()
    if profile is not None:
        profile.enable()
    while t.hand_count < hands:
        for p in room.players.values():                   # re-buys between hands, as the clients do
            if t.seat(p.seat).stack == 0:
                await room.add_chips(p, 2000)
        async with room.lock:
            await room._apply(room._start_hand)
        await flush()
        while room._hand_running():
            seat = t.actor
            assert seat is not None and t.hand is not None
            action = _choose(t.hand.legal_actions(), rng)
            player = room.players[seat]
            async with room.lock:
                seq = await room.act(player, action, room.seq)
            conns[seat].send({"type": "ok", "seq": seq})
            await flush()
            actions += 1
    if profile is not None:
        profile.disable()
    cpu, thread = time.process_time() - cpu0, time.thread_time() - thread0
    saved = room._state()
    seq = room.seq
    store.close()
    restored = open_store(db)
    try:
        (row,) = restored.load_tables()
        again = Room.restore(config, row.state, row.seq, restored, settings)
        same = again.seq == seq and again._state()["table"] | {"clock": 0} == saved["table"] | {"clock": 0}
    finally:
        restored.close()
    return {"actions": actions, "hands": t.hand_count, "cpu": cpu, "thread": thread, "commits": commits,
            "state_bytes": state_bytes, "frames": sum(ws.frames for ws in sockets), "restored": same}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=300, help="hands to play (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", type=Path, metavar="FILE", help="cProfile the event loop's thread into FILE")
    args = p.parse_args(argv)
    try:
        from server_support import engine_cpu_per_decision
    except BaseException as exc:   # pytest's skip: the [server] extra is missing
        print(f"server_room: {exc}", file=sys.stderr)
        return 2
    profile = None if args.profile is None else cProfile.Profile()
    try:                           # the event loop uvicorn runs the server on, when installed
        import uvloop
        loop_factory: Any = uvloop.new_event_loop
    except ImportError:
        loop_factory = None
    with tempfile.TemporaryDirectory(prefix="pd32-room-") as tmp, asyncio.Runner(loop_factory=loop_factory) as runner:
        r = runner.run(_play(str(Path(tmp) / "room.sqlite"), args.hands, args.seed, profile))
    engine = engine_cpu_per_decision(5, 2000, seed=args.seed)
    if profile is not None:
        profile.dump_stats(args.profile)
    n = max(1, r["actions"])
    print(f"$ python {' '.join(sys.argv)}")
    rows = [
        ("hands, actions", f"{r['hands']}, {r['actions']}"),
        ("commits", f"{r['commits']}"),
        ("room state and journal written per commit", f"{r['state_bytes'] / max(1, r['commits']):.0f} bytes"),
        ("frames per action", f"{r['frames'] / n:.1f}"),
        ("CPU per action, whole process", f"{r['cpu'] / n * 1e6:.1f} us"),
        ("CPU per action, event loop's thread", f"{r['thread'] / n * 1e6:.1f} us"),
        ("engine CPU per decision (same run)", f"{engine * 1e6:.2f} us"),
        ("whole process / engine", f"{r['cpu'] / n / engine:.1f}x"),
        ("event loop's thread / engine", f"{r['thread'] / n / engine:.1f}x"),
        ("restored from the database", "the same room" if r["restored"] else "DIFFERENT"),
    ]
    width = max(len(k) for k, _ in rows)
    print("\n".join(f"{k:<{width}}  {v}" for k, v in rows))
    return 0 if r["restored"] else 1


if __name__ == "__main__":
    sys.exit(main())
