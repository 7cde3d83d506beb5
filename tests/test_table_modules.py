"""``pokerdraw32.table`` after its split by concern (issue 25, item 2): the public names stay
importable from it, and a seeded session's snapshots, views and logs are pinned byte for byte
(the digest was taken from the single-module table before the split; both builds give it)."""

from __future__ import annotations

import hashlib
import json

import pokerdraw32.table as table_module
from pokerdraw32 import Rules, errors
from pokerdraw32.table import (
    TABLE_FORMAT,
    TABLE_VERSION,
    Deadline,
    LedgerEntry,
    SeatState,
    Table,
    TableError,
    default_buy_ins,
)

SESSION_SHA256 = "63d6845d24b968218261a96b2d3a2495fdf1ec123f57b6dc07b1d2022ca3ffcb"


def test_public_names_stay_in_pokerdraw32_table() -> None:
    assert table_module.__all__ == ["Deadline", "LedgerEntry", "SeatState", "Table", "TableError"]
    assert TableError is errors.TableError
    assert (TABLE_FORMAT, TABLE_VERSION) == ("pokerdraw32/table", 1)
    assert default_buy_ins(Rules()) == (20, 200)                         # R10.1: 20 sb, 100 bb
    assert default_buy_ins(Rules(structure="fixed-limit")) == (80, None)  # 10 x 2L, L = 4
    assert SeatState(0, "ann", 5).to_dict()["missed"] == {}
    assert LedgerEntry("add", 1, "bob", 20, 3).to_dict() == {"kind": "add", "seat": 1, "name": "bob", "chips": 20,
                                                             "hand": 3}
    assert Deadline(2, None, 30.0).act_at == 30.0


def _session() -> tuple[list[str], Table]:
    """A seeded session through every part: joins (waiting and with an entry bet), sitting out
    and back (missed blinds), a player leaving mid-hand, re-buys, raise limits and timeouts."""
    now = [0.0]
    lines: list[str] = []
    t = Table(Rules(), seed=7, clock=lambda: now[0], decision_time=30, raise_time=10)
    for seat, name in enumerate(["ann", "bob", "cy"]):
        t.join(seat, name, 100 + 10 * seat)
    for k in range(16):
        if k == 2:
            t.sit_out(1)
            t.join(3, "dee", 120, wait=True)
        if k == 3:
            t.join(4, "eve", 90)
        if k == 5:
            t.sit_in(1)
        for s in t.occupied:
            if t.seat(s).stack == 0:
                t.add_chips(s, 100)
        t.start_hand()
        step = 0
        while (seat := t.actor) is not None:
            step += 1
            if k == 6 and step == 1:
                lines.append(repr(t.leave(0)))
            if step % 5 == 0:
                now[0] += 31.0
                lines.append(str(t.expire(seat)))
            elif step % 7 == 0 and t.deadline is not None and t.deadline.raise_at is not None:
                now[0] += 11.0
                lines.append(str(t.expire(seat)))
                lines.append(json.dumps(t.snapshot(ledger_from=1)))
            else:
                hand = t.hand
                assert hand is not None
                legal = hand.legal_actions()
                kinds = sorted(kind.value for kind in legal.kinds)
                kind = kinds[step % len(kinds)]
                if kind in ("bet", "raise"):
                    action = f"{kind[0]} {legal.min_to + (legal.max_to - legal.min_to) * (step % 3) // 4}"
                elif kind == "discard":
                    action = "d " + " ".join(str(c) for c in hand.hole_cards(hand.actor)[: step % 4]) \
                        if step % 4 else "p"
                else:
                    action = {"call": "c", "check": "k", "fold": "f"}.get(kind, kind)
                lines.append(str(t.act(seat, action)))
            now[0] += 1.0
            lines.append(json.dumps(t.snapshot()))
            lines.append(json.dumps(t.view(seat)))
        lines.append(json.dumps(t.snapshot()) + repr(t))
        lines.append(" | ".join(str(e) for e in t.events_for(1)))
        restored = Table.restore(json.loads(json.dumps(t.snapshot())), clock=lambda: now[0])
        assert json.dumps(restored.snapshot()) == json.dumps(t.snapshot())
    t.check_ledger()
    return lines, t


def test_a_seeded_session_is_byte_identical_to_the_single_module_table() -> None:
    lines, t = _session()
    assert t.hand_count == 16 and t.occupied == (1, 2, 3, 4)
    assert sum(e.chips for e in t.ledger if e.kind in ("buy_in", "add")) - \
        sum(e.chips for e in t.ledger if e.kind == "cash_out") == t.chips_on_table   # R9.5
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == SESSION_SHA256
