"""The game server's work per action without the network: one room, its commits and its messages.

    python bench/server_room.py                      # 300 hands at one 5-seat table, SQLite
    python bench/server_room.py --hands 1000 --profile room.prof
    python bench/server_room.py --instructions        # counted by valgrind: immune to a busy machine

A :class:`~pokerdraw32.server.room.Room` on a SQLite file in a temporary directory (the
server's own store: WAL, ``synchronous=FULL``, its writer thread), run as the server runs it:
its driver task (starting each hand at once), five players seated, each with a
:class:`~pokerdraw32.server.connection.Connection` (written by the loop's ``Outbox``), whose
WebSocket is a stub that counts the frames and wakes the player's client.  A client acts at its turn as the server
handles an ``act`` (under the room's lock, then the ``ok``), as the load test's clients choose
(check or call mostly, sometimes a minimum bet or raise, discard 0-3 cards), and buys in again
when busted.  So: the server's path of an action from :meth:`Room.act` on (the engine,
numbering, the commit to the database, the messages of every seat, each connection's frame,
the driver's wake-up), on uvloop when it is installed (as uvicorn runs the server), without
uvicorn, the sockets and the parsing of the client's message (``bench/server_load.py``
measures the whole server).

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
    """A WebSocket that takes frames, counts them and tells its client one came."""

    def __init__(self) -> None:
        self.frames = 0
        self.chars = 0
        self.came = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.frames += 1
        self.chars += len(text)
        self.came.set()


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

    from pokerdraw32.server.config import ServerSettings, TableConfig
    from pokerdraw32.server.connection import Connection
    from pokerdraw32.server.protocol import Limits, dumps
    from pokerdraw32.server.room import Room
    from pokerdraw32.server.store import open_store

    config = TableConfig.from_dict(tables_config(1, 5, decision_time=60.0, max_buy_in=2000, seed=seed)[0])
    settings = ServerSettings(hand_pause=0.0, bot_delay=0.0, grace=600.0)     # a hand starts at once
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

    done = asyncio.Event()

    async def client(seat: int) -> None:
        """A player's client: at each frame, acts if it is its turn (as GameServer does with an
        ``act``: under the room's lock, then the ``ok``), buys in again when busted."""
        nonlocal actions
        ws, conn = sockets[seat], conns[seat]
        player = room.players[seat]
        while not done.is_set():
            await ws.came.wait()
            ws.came.clear()
            if t.hand_count >= hands and not room._hand_running():
                done.set()
                return
            async with room.lock:
                if t.actor == seat and t.hand is not None:
                    seq = await room.act(player, _choose(t.hand.legal_actions(), rng), room.seq)
                    conn.send({"type": "ok", "seq": seq})
                    actions += 1
                elif not room._hand_running() and t.seat(seat).stack == 0:
                    await room.add_chips(player, 2000)

    cpu0, thread0 = time.process_time(), time.thread_time()
    if profile is not None:
        profile.enable()
    driver = asyncio.create_task(room.drive())
    clients = [asyncio.create_task(client(seat)) for seat in range(5)]
    await asyncio.wait(clients, return_when=asyncio.FIRST_COMPLETED)
    # stop without cutting a commit short (the room would then differ from its database): the
    # clients and the driver finish what they do
    done.set()
    for ws in sockets:
        ws.came.set()
    await asyncio.gather(*clients)
    room.closed = True
    room.wake.set()
    await driver
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
        def table(state: dict[str, Any]) -> dict[str, Any]:      # without the clock's readings
            d = state["table"]["deadline"]
            return state["table"] | {"clock": 0, "deadline": None if d is None else d["seat"]}
        same = (again.seq == seq and table(again._state()) == table(saved)
                and again.players.keys() == room.players.keys())
    finally:
        restored.close()
    return {"actions": actions, "hands": t.hand_count, "cpu": cpu, "thread": thread, "commits": commits,
            "state_bytes": state_bytes, "frames": sum(ws.frames for ws in sockets), "restored": same}


def _engine_only(hands: int, seed: int) -> int:
    """The engine alone, as :func:`load_support.engine_cpu_per_decision` plays: ``hands``
    hands at a load-test table (for ``--instructions``).  Returns the decisions."""
    from server_support import tables_config

    from pokerdraw32.server.config import TableConfig

    t = TableConfig.from_dict(tables_config(1, 5, decision_time=60.0, max_buy_in=2000, seed=seed)[0]).new_table()
    for s in range(5):
        t.join(s, f"p{s}", 2000)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(hands):
        for s in range(5):
            if t.seat(s).stack == 0:
                t.add_chips(s, 2000)
        h = t.start_hand()
        while h.actor is not None:
            t.act(t.hand_seats[h.actor], _choose(h.legal_actions(), rng))
            decisions += 1
    return decisions


VALGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")
"""How a process's instructions are counted (the count is in valgrind's "Collected : N" line)."""


def valgrind_count(text: str) -> int:
    """The instructions valgrind (callgrind) counted, from its output ``text``."""
    import re

    found = re.findall(r"Collected : (\d+)", text)
    if not found:
        raise RuntimeError(f"no instruction count in valgrind's output: {text[-2000:]}")
    return int(found[-1])


def count_instructions(mode: str, hands: int, seed: int) -> tuple[int, int]:
    """``(instructions, actions or decisions)`` of this script run with ``mode`` (``--play-only``:
    the room, ``--engine-only``: the engine) for ``hands`` hands, under valgrind."""
    import subprocess

    r = subprocess.run([*VALGRIND, sys.executable, __file__, mode, str(hands), "--seed", str(seed)],
                       capture_output=True, text=True, check=True)
    return valgrind_count(r.stderr), int(r.stdout.split()[-1])


def engine_instructions(seed: int) -> float:
    """The engine's instructions per decision at a load-test table (2000 - 200 hands)."""
    (e0, d0), (e1, d1) = count_instructions("--engine-only", 200, seed), count_instructions("--engine-only", 2000, seed)
    return (e1 - e0) / (d1 - d0)


def _instructions(seed: int) -> int:
    """Instructions per action of the room and per decision of the engine, counted by valgrind
    (callgrind): each run twice with different numbers of hands, the difference divided by the
    difference in actions (start-up and imports cancel out).  User-space instructions only: the
    system calls' work (the sockets, the disk's sync) is not counted; but nothing else running on
    the machine changes them, unlike CPU times."""
    import shutil

    if shutil.which("valgrind") is None:
        print("server_room: --instructions needs valgrind", file=sys.stderr)
        return 2
    (r0, a0), (r1, a1) = count_instructions("--play-only", 20, seed), count_instructions("--play-only", 80, seed)
    report_instructions("room", f"80 - 20 hands, {a1 - a0} actions", (r1 - r0) / (a1 - a0),
                        engine_instructions(seed))
    return 0


def report_instructions(what: str, how: str, per_action: float, engine: float) -> None:
    """Print the command, ``what``'s instructions per action (counted as ``how`` says), the
    engine's per decision and their ratio (``--instructions`` of this script and of
    ``server_load.py``)."""
    rows = [(f"{what}, instructions per action ({how})", f"{per_action:,.0f}"),
            ("engine, instructions per decision (2000 - 200 hands)", f"{engine:,.0f}"),
            (f"{what} / engine", f"{per_action / engine:.1f}x")]
    width = max(len(k) for k, _ in rows)
    print(f"$ python {' '.join(sys.argv)}")
    for k, v in rows:
        print(f"{k:<{width}}  {v}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=300, help="hands to play (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", type=Path, metavar="FILE", help="cProfile the event loop's thread into FILE")
    p.add_argument("--instructions", action="store_true",
                   help="count instructions per action with valgrind instead of timing (see _instructions)")
    p.add_argument("--play-only", type=int, metavar="HANDS", help=argparse.SUPPRESS)
    p.add_argument("--engine-only", type=int, metavar="HANDS", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.instructions:
        return _instructions(args.seed)
    if args.engine_only is not None:
        print(_engine_only(args.engine_only, args.seed))
        return 0
    try:
        from load_support import engine_cpu_per_decision
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
        r = runner.run(_play(str(Path(tmp) / "room.sqlite"), args.play_only or args.hands, args.seed, profile))
    if args.play_only is not None:
        print(r["actions"])
        return 0
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
