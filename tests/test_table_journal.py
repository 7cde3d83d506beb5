"""The table's journal (``Table.journal``) and ``Table.restore(snapshot, steps=...)``: a snapshot
plus the steps recorded since is the table exactly, deals, deadlines and timeouts included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_table import RULES_CHOICES, FakeClock, random_session, table

from pokerdraw32 import Rules
from pokerdraw32.cards import DECK
from pokerdraw32.table import Deadline, Table, TableError


def _json(data: Any) -> Any:
    return json.loads(json.dumps(data))


class Twin:
    """Watches a table: now and then a new snapshot (the journal started afresh), after every
    change the snapshot plus the steps restored and compared with the table."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)
        self.base: dict[str, Any] | None = None
        self.text = ""
        self.checked = 0
        self.steps = 0

    def __call__(self, t: Table) -> None:
        if self.base is None or self.rnd.random() < 0.1:
            self.text = json.dumps(t.snapshot())
            self.base = json.loads(self.text)
            t.journal = []
            return
        assert t.journal is not None
        steps = _json(t.journal)
        again = Table.restore(self.base, clock=t.clock, steps=steps, saved_at=t.clock())
        assert json.dumps(self.base) == self.text, "the restore changed the snapshot it was given"
        assert again.snapshot() == t.snapshot()
        assert again.deadline == t.deadline and again.journal is None
        self.checked += 1
        self.steps = max(self.steps, len(steps))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULES_CHOICES), st.integers(0, 2**32 - 1))
def test_a_snapshot_and_the_steps_since_restore_the_table_exactly(rules: Rules, seed: int) -> None:
    """Random sessions (joins, leaves, sit-outs, rebuys, timeouts, raise limits, showdown
    choices): after every change, the last snapshot plus the journal is the table."""
    twin = Twin(seed)
    random_session(rules, seed, 4, observe=twin)
    assert twin.checked > 0


def test_the_steps_of_a_session() -> None:
    clock = FakeClock()
    clock.now = 10.0
    t = table(3, clock=clock, raise_time=2, decision_time=5)
    base = _json(t.snapshot())
    t.journal = []
    t.start_hand()
    clock.now = 11.0
    t.act(0, "c")
    clock.now = 13.5
    t.expire(1)                                      # the raise limit (R7.3)
    t.set_showdown_choice(2, True)
    t.leave(2)
    t.join(3, "late", 50, wait=True)
    t.sit_out(0)
    t.sit_in(0)
    clock.now = 20.0
    t.expire(1)                                      # the decision time: folds (R7.3)
    assert t.journal == [
        {"op": "start_hand", "at": 10.0}, {"op": "act", "seat": 0, "action": "c", "at": 11.0},
        {"op": "expire", "seat": 1, "at": 13.5}, {"op": "showdown", "seat": 2, "show": True},
        {"op": "leave", "seat": 2}, {"op": "join", "seat": 3, "name": "late", "chips": 50, "wait": True},
        {"op": "sit_out", "seat": 0}, {"op": "sit_in", "seat": 0}, {"op": "expire", "seat": 1, "at": 20.0}]
    clock.now = 21.0
    other = FakeClock()
    other.now = 500.0                                # another process: the time left at 21.0 is kept
    again = Table.restore(base, clock=other, steps=t.journal, saved_at=21.0)
    d = t.deadline
    assert d is not None and again.deadline == Deadline(d.seat, None if d.raise_at is None else d.raise_at + 479.0,
                                                        d.act_at + 479.0)
    assert again.snapshot() | {"clock": 0, "deadline": 0} == t.snapshot() | {"clock": 0, "deadline": 0}
    with pytest.raises(TableError, match="nothing is due"):
        again.expire(again.actor)


def test_refused_changes_record_nothing_and_a_stacked_deck_is_recorded() -> None:
    t = table(2)
    t.journal = []
    with pytest.raises(TableError):
        t.join(0, "again", 100)
    with pytest.raises(TableError):
        t.act(0, "c")
    assert t.journal == []
    deck = [str(c) for c in reversed(DECK)]
    base = _json(t.snapshot())
    t.journal = []
    t.start_hand(deck=deck)
    assert t.journal[0]["deck"] == deck
    again = Table.restore(base, clock=t.clock, steps=_json(t.journal), saved_at=t.clock())
    assert again.hand is not None and t.hand is not None and again.hand.hole == t.hand.hole


@pytest.mark.parametrize("steps, message", [
    ("x", "the steps must be a list"),
    ([{"op": "deal"}], "step 0: .* is not a step the table records"),
    ([7], "step 0: 7 is not a step the table records"),
    ([{"op": "sit_out"}], r"step 0 \(sit_out\): fields \['op'\], expected \['op', 'seat'\]"),
    ([{"op": "sit_out", "seat": 0, "x": 1}], r"step 0 \(sit_out\): fields"),
    ([{"op": "sit_out", "seat": True}], "seat True is not int"),
    ([{"op": "sit_out", "seat": "0"}], "seat '0' is not int"),
    ([{"op": "showdown", "seat": 0, "show": 1}], "show 1 is not bool or null"),
    ([{"op": "start_hand", "at": 5.0, "deck": "AsKs"}], "deck 'AsKs' is not a list of cards"),
    ([{"op": "start_hand", "at": float("nan")}], "at must be a finite number"),
    ([{"op": "start_hand", "at": 99.0}], r"at 99 is before the time before it \(100\)"),
    ([{"op": "sit_out", "seat": 4}], r"step 0 \(sit_out\) is refused: seat 4 is empty"),
    ([{"op": "start_hand", "at": 100.0}, {"op": "act", "seat": 1, "action": "c", "at": 100.0}],
     r"step 1 \(act\) is refused: .*"),
    ([{"op": "start_hand", "at": 100.0}, {"op": "expire", "seat": 0, "at": 101.0}],
     r"step 1 \(expire\) is refused: seat 0: nothing is due at 101"),
])
def test_bad_steps_are_refused_naming_the_step(steps: Any, message: str) -> None:
    clock = FakeClock()
    clock.now = 100.0
    base = _json(table(3, clock=clock, decision_time=5).snapshot())
    with pytest.raises(TableError, match=message):
        Table.restore(base, clock=clock, steps=steps)


def test_saved_before_the_last_step_is_refused() -> None:
    clock = FakeClock()
    clock.now = 100.0
    t = table(3, clock=clock)
    base = _json(t.snapshot())
    t.journal = []
    t.start_hand()
    with pytest.raises(TableError, match=r"saved at 99, before its last step \(100\)"):
        Table.restore(base, steps=t.journal, saved_at=99.0)
    with pytest.raises(TableError, match="not a table snapshot"):
        Table.restore({"format": "x"}, steps=t.journal)
