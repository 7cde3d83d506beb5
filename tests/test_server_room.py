"""A server room's messages, without the network: the ``state`` texts made of the public part
written once and each seat's own part put in are the texts of each seat's whole message; a
change reaches each connection in one go, in order."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_server_journal import CONFIG, SETTINGS, _step

from pokerdraw32.server.protocol import Limits, dumps
from pokerdraw32.server.room import Player, Room
from pokerdraw32.server.store import open_store


class _Conn:
    """What a room needs of a connection: its seat, and what it is sent."""

    def __init__(self, player: Player | None) -> None:
        self.player = player
        self.room: Room | None = None
        self.batches: list[list[str]] = []
        self.urgent: list[bool] = []

    def send_texts(self, texts: list[str], *, urgent: bool = True, state: bool = False) -> None:
        self.batches.append(list(texts))
        self.urgent.append(urgent)


def test_state_texts_are_each_seat_s_whole_message(tmp_path: Path) -> None:
    """Before the first hand, during hands (every seat, a seat not dealt in, onlookers) and
    between them: the text of ``states_for`` is ``dumps(state_for(player))`` character for
    character (the clock's reading fixed)."""
    async def play() -> int:
        store = open_store(str(tmp_path / "r.sqlite"))
        try:
            room = await Room.create(CONFIG, store, SETTINGS)
            room.clock = lambda: {"seat": 1, "act_in": 2.5}        # type: ignore[method-assign]
            checked = 0

            def check() -> None:
                nonlocal checked
                viewers: list[Player | None] = [None, *room.players.values()]
                texts = room.states_for(viewers)
                for p in viewers:
                    assert texts[id(p)] == dumps(room.state_for(p))
                    json.loads(texts[id(p)])
                    checked += 1
            check()                                                # no hand yet
            for seat in range(2):
                await room.join(f"p{seat}", seat, None, False)
                check()
            rng = random.Random(11)
            while room.table.hand_count < 6:
                await _step(room, rng)
                if room.table.hand_count == 3 and 2 not in room.players:
                    await room.join("late", 2, None, True)        # waits for the big blind: not dealt in
                check()
            return checked
        finally:
            store.close()
    assert asyncio.run(play()) > 200


def test_a_change_is_queued_for_each_connection_in_one_go(tmp_path: Path) -> None:
    """Each connection gets the change's entries as its seat may see them, then its state, in one
    batch: its own cards in its deal, nobody else's; only the seat to act's is urgent."""
    async def play() -> None:
        store = open_store(str(tmp_path / "r.sqlite"))
        try:
            room = await Room.create(CONFIG, store, SETTINGS)
            for seat in range(3):
                await room.join(f"p{seat}", seat, None, False)
            conns = {seat: _Conn(p) for seat, p in room.players.items()}
            watcher = _Conn(None)
            for seat, c in conns.items():
                room.players[seat].conn = c                        # type: ignore[assignment]
            room.watchers.add(watcher)                             # type: ignore[arg-type]
            async with room.lock:
                await room._apply(room._start_hand)
            hand = room.table.hand
            assert hand is not None
            to_act = room.table.actor
            assert to_act in conns
            for seat, c in [*conns.items(), (None, watcher)]:
                # the seat to act gets its turn at once; the others' may wait (FRAME_HOLD)
                assert c.urgent == [seat == to_act], (seat, to_act, c.urgent)
                (batch,) = c.batches
                messages = [json.loads(text) for text in batch]
                assert [m["type"] for m in messages] == ["event"] * (len(batch) - 1) + ["state"]
                assert messages[-1]["you"] == seat
                dealt: dict[int, Any] = {}
                for m in messages[:-1]:
                    e = m["event"]
                    if e["kind"] == "deal_hole":
                        dealt[e["seat"]] = e.get("cards", [])
                for s, cards in dealt.items():
                    assert (len(cards) > 0) == (s == seat), (seat, s, cards)
        finally:
            store.close()
    asyncio.run(play())


def test_send_texts_queues_in_order_and_drops_a_client_that_does_not_read() -> None:
    pytest.importorskip("starlette", reason="the server's connections need the [server] extra (starlette)")
    from pokerdraw32.server.connection import Connection

    async def run() -> None:
        conn = Connection(object(), Limits(send_queue=5))        # type: ignore[arg-type]
        conn.send_texts(['{"a":1}', '{"b":2}'])
        conn.send_text('{"c":3}')
        assert conn._frame() == '[{"a":1},{"b":2},{"c":3}]'
        conn.held = []
        conn.send_texts(['{"d":4}'])
        assert conn.held == ['{"d":4}'] and not conn.out        # held back during a replay
        conn.held = None
        conn.send_texts(["{}"] * 5)
        assert not conn.closed
        conn.send_texts(["{}"])                                  # a sixth live message waiting
        assert conn.closed and conn.kicked
    asyncio.run(run())


def test_a_waiting_state_is_replaced_by_the_next_change_s() -> None:
    """PROTOCOL.md, Frames: a connection that waits gets every change's entries, in order, but
    only the latest ``state``: a published state not sent yet, with nothing queued after it, is
    dropped when the next change's comes; one with a message queued after it (an answer) stays,
    and so does anything but a published state."""
    pytest.importorskip("starlette", reason="the server's connections need the [server] extra (starlette)")
    from pokerdraw32.server.connection import Connection

    class _WS:
        async def send_text(self, text: str) -> None:
            pass

    async def run() -> None:
        conn = Connection(_WS(), Limits())                       # type: ignore[arg-type]
        conn.last_frame = asyncio.get_running_loop().time()      # just sent a frame: the next ones wait
        conn.send_texts(['{"e":1}', '{"s":1}'], urgent=False, state=True)
        conn.send_texts(['{"e":2}', '{"e":3}', '{"s":2}'], urgent=False, state=True)
        conn.send_texts(['{"s":3}'], urgent=False, state=True)  # a change without entries: its state alone
        assert [t for t, _ in conn.out] == ['{"e":1}', '{"e":2}', '{"e":3}', '{"s":3}']
        conn.send_text('{"ok":1}')                               # an answer after the state: it stays
        conn.send_texts(['{"e":4}', '{"s":4}'], urgent=False, state=True)
        assert conn._frame() == '[{"e":1},{"e":2},{"e":3},{"s":3},{"ok":1},{"e":4},{"s":4}]'
        conn.send_texts(['{"e":5}', '{"s":5}'], urgent=False, state=True)   # {"s":4} went out: nothing dropped
        conn.send_texts(['{"x":1}'], urgent=False)               # not a state ...
        conn.send_texts(['{"e":6}', '{"s":6}'], urgent=False, state=True)
        assert [t for t, _ in conn.out] == ['{"e":5}', '{"s":5}', '{"x":1}', '{"e":6}', '{"s":6}']   # ... kept
        conn._cancel_hold()
    asyncio.run(run())


def test_a_seat_not_to_act_gets_one_frame_per_hold_and_its_turn_at_once() -> None:
    """PROTOCOL.md, Frames: changes queued for a connection less than ``FRAME_HOLD`` seconds
    after its last frame, none urgent, wait and go out together in one frame at the end of the
    hold; an urgent one (its turn, an answer) takes what waits along at once; after a quiet
    spell a change goes out at once."""
    pytest.importorskip("starlette", reason="the server's connections need the [server] extra (starlette)")
    from pokerdraw32.server.connection import FRAME_HOLD, Connection

    class _WS:
        def __init__(self) -> None:
            self.frames: list[tuple[float, str]] = []

        async def send_text(self, text: str) -> None:
            self.frames.append((asyncio.get_running_loop().time(), text))

    async def run() -> None:
        loop = asyncio.get_running_loop()
        ws = _WS()
        conn = Connection(ws, Limits())                          # type: ignore[arg-type]
        conn.send_texts(['{"a":1}'], urgent=False)               # quiet so far: at once
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert [t for _, t in ws.frames] == ['{"a":1}']
        first = ws.frames[0][0]
        conn.send_texts(['{"b":2}'], urgent=False)               # within the hold: waits
        conn.send_texts(['{"c":3}'], urgent=False)
        await asyncio.sleep(FRAME_HOLD / 4)
        assert len(ws.frames) == 1 and conn.hold is not None
        await asyncio.sleep(FRAME_HOLD)
        assert [t for _, t in ws.frames] == ['{"a":1}', '[{"b":2},{"c":3}]']
        assert ws.frames[1][0] >= first + FRAME_HOLD - 1e-3
        conn.send_texts(['{"d":4}'], urgent=False)               # waits ...
        conn.send_texts(['{"e":5}'])                             # ... and goes with the urgent one at once
        t0 = loop.time()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert [t for _, t in ws.frames][2:] == ['[{"d":4},{"e":5}]'] and conn.hold is None
        assert ws.frames[2][0] - t0 < FRAME_HOLD / 2
        await asyncio.sleep(FRAME_HOLD * 2)
        assert len(ws.frames) == 3                               # the hold's timer was cancelled: nothing more
        sent = conn.last_frame
        conn.outbox.add(conn)                                    # listed with nothing to send: no frame ...
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(ws.frames) == 3 and conn.last_frame == sent   # ... so the hold still counts from the last
        assert conn.outbox is not None
    asyncio.run(run())
