"""Deeply nested data in a snapshot, an event or a hand history is refused by name, never with a
``RecursionError`` (issue 25): ``Event.from_dict`` with a ``kind`` (or details) nested 100,000
deep, every field of a hand or table snapshot replaced by such a value, a TOML history nested so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_table import FakeClock

from pokerdraw32 import Event, Hand, Rules
from pokerdraw32.errors import SnapshotError, TableError
from pokerdraw32.history import HandHistory, HistoryError, loads_all
from pokerdraw32.table import Table

DEPTH = 100_000


def deep_list(levels: int = DEPTH) -> Any:
    x: Any = 1
    for _ in range(levels):
        x = [x]
    return x


def deep_dict(levels: int = DEPTH) -> Any:
    x: Any = 1
    for _ in range(levels):
        x = {"kind": x}
    return x


DEEP = {"list": deep_list(), "dict": deep_dict()}


@pytest.mark.parametrize("shape", sorted(DEEP))
def test_event_from_dict_refuses_a_deep_kind(shape: str) -> None:
    with pytest.raises(SnapshotError, match=r"^event has no valid kind: [\[{]"):
        Event.from_dict({"kind": DEEP[shape], "seat": 0})
    with pytest.raises(SnapshotError, match=r"^call event: details nested more than 8 deep$"):
        Event.from_dict({"kind": "call", "seat": 0, "note": DEEP[shape]})
    with pytest.raises(SnapshotError, match=r"an event must be a dict|no valid kind"):
        Event.from_dict(DEEP[shape])


def test_event_from_dict_keeps_its_messages_and_shallow_details() -> None:
    with pytest.raises(SnapshotError, match=r"^event has no valid kind: 'jump'$"):
        Event.from_dict({"kind": "jump"})
    with pytest.raises(SnapshotError, match=r"^event has no valid kind: \['call'\]$"):
        Event.from_dict({"kind": ["call"]})
    ev = Event.from_dict({"kind": "call", "seat": 1, "amount": 2, "note": {"a": [1, [2]]}, "list": [1, [2]]})
    assert ev.info == (("note", {"a": [1, [2]]}), ("list", (1, (2,))))


def places(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*prefix, k)
            yield from places(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield (*prefix, i)
            yield from places(v, (*prefix, i))


def replaced(text: str, path: tuple[Any, ...], value: Any) -> Any:
    data = json.loads(text)
    here = data
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return data


@pytest.mark.parametrize("shape", sorted(DEEP))
def test_every_hand_snapshot_field_nested_deep_is_refused(shape: str) -> None:
    h = Hand(Rules(), [100, 100, 100], 0, seed=1)
    h.call()
    text = json.dumps(h.snapshot())
    for path in places(json.loads(text)):
        with pytest.raises(SnapshotError):
            Hand.restore(replaced(text, path, DEEP[shape]))


@pytest.mark.parametrize("shape", sorted(DEEP))
def test_every_table_snapshot_field_nested_deep_is_refused(shape: str) -> None:
    t = Table(Rules(), seed=1, clock=FakeClock(), seats=3, min_buy_in=10)
    for seat in range(3):
        t.join(seat, f"p{seat}", 100)
    t.start_hand()
    t.act(t.actor, "call")
    text = json.dumps(t.snapshot())
    for path in places(json.loads(text)):
        with pytest.raises((SnapshotError, TableError)):
            Table.restore(replaced(text, path, DEEP[shape]), clock=lambda: 0.0)


@pytest.mark.parametrize("text", ["a = " + "[" * DEPTH + "]" * DEPTH,
                                  "a = " + "{b = " * 5000 + "1" + "}" * 5000])
def test_histories_nested_deep_are_refused(text: str) -> None:
    with pytest.raises(HistoryError, match="nested too deeply"):
        HandHistory.loads(text)
    with pytest.raises(HistoryError, match="nested too deeply"):
        list(loads_all(text))
