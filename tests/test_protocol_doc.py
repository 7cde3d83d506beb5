"""PROTOCOL.md's list of the `state` message's fields against real states.

The table in PROTOCOL.md ("The `state` message, field by field") names every field of a `state`
message and of its `view` with its type; fields marked **seat** are only in the view of a seat
dealt in to the hand shown, those marked **end** only once the hand is complete.  Here real
states (``Room.state_for``, the server's own code, on the engine's ``Table``) for a seat to act,
a seat waiting for its turn, a seat that sat down after the deal and an onlooker, before the first
hand, during a hand and after its showdown, must have exactly the fields the document says, each
of the documented type, so that the document cannot drift from the code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pokerdraw32.actions import Action
from pokerdraw32.server.config import ServerSettings, TableConfig
from pokerdraw32.server.room import Player, Room

PROTOCOL = Path(__file__).resolve().parents[1] / "PROTOCOL.md"
SECTION = "## The `state` message, field by field"
ROW = re.compile(r"^\| `([a-z_.\[\]]+)` \| ([^|]+) \| (.+) \|$", re.MULTILINE)
TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "string": (str,), "bool": (bool,),
                                      "object": (dict,), "list": (list,)}


def documented() -> list[tuple[str, str, str]]:
    """The rows (field path, type, meaning) of PROTOCOL.md's table of the state's fields."""
    if not PROTOCOL.exists():
        pytest.skip("PROTOCOL.md is not beside the tests (an installed copy of the tests)")
    text = PROTOCOL.read_text(encoding="utf-8")
    assert SECTION in text, f"PROTOCOL.md has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = [(path, kind.strip(), meaning) for path, kind, meaning in ROW.findall(section)]
    paths = [path for path, _, _ in rows]
    assert len(paths) == len(set(paths)), "a field listed twice"
    return rows


def paths_of(value: Any, prefix: str = "") -> set[str]:
    """Every field path of ``value``: ``view.seats[].stack`` for a key of the objects of a list."""
    out: set[str] = set()
    if isinstance(value, dict):
        for key, v in value.items():
            path = f"{prefix}.{key}" if prefix else key
            out.add(path)
            out |= paths_of(v, path)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                out |= paths_of(item, prefix + "[]")
    return out


def values_at(value: Any, path: str) -> list[Any]:
    """The values at ``path`` (every element's, under a ``[]``); [] where a parent is null or empty."""
    found = [value]
    for token in path.split("."):
        many = token.endswith("[]")
        key = token.removesuffix("[]")
        found = [v[key] for v in found if isinstance(v, dict) and key in v]
        if many:
            found = [item for v in found if isinstance(v, list) for item in v]
    return found


def expected_paths(state: dict[str, Any], rows: list[tuple[str, str, str]]) -> set[str]:
    """The fields PROTOCOL.md says ``state`` has: those whose parent is there (not null, not an
    empty list), less the **seat** ones for a view without the seat's part, and the **end** ones
    before the hand's end."""
    hand = state["view"]["hand"]
    dealt = hand is not None and "cards" in hand          # what tells, in the view, the seat's part
    complete = hand is not None and hand["phase"] == "complete"
    out = set()
    for path, _, meaning in rows:
        if ("**seat**" in meaning and not dealt) or ("**end**" in meaning and not complete):
            continue
        parents = values_at(state, path.rsplit(".", 1)[0]) if "." in path else [state]
        if parents and all(v is not None for v in parents):
            out.add(path)
    return out


def check_state(state: dict[str, Any], rows: list[tuple[str, str, str]], what: str) -> set[str]:
    """``state`` has exactly the documented fields, each of the documented type."""
    state = json.loads(json.dumps(state))                  # as a client reads it
    got = paths_of(state)
    want = expected_paths(state, rows)
    assert got == want, f"{what}: not documented {sorted(got - want)}; documented, missing {sorted(want - got)}"
    for path, kind, _ in rows:
        allowed = TYPES[kind.split()[0].rstrip(",")]
        nullable = "or null" in kind
        for v in values_at(state, path):
            if v is None:
                assert nullable, f"{what}: {path} is null, documented as {kind}"
            else:                                          # (a bool is no int here)
                assert isinstance(v, allowed) and (bool in allowed) == isinstance(v, bool), \
                    f"{what}: {path} = {v!r} is not {kind}"
    return got


def room(seats: int = 4) -> Room:
    config = TableConfig.from_dict({"id": "doc", "seats": seats, "raise_time": 10,
                                    "rules": {"structure": "no-limit", "sb": 1, "bb": 2}, "seed": 3})
    return Room(config, None, ServerSettings())    # type: ignore[arg-type]  # states need no store


def test_protocol_md_lists_exactly_the_fields_of_real_states() -> None:
    rows = documented()
    r = room()
    t = r.table
    players = {}
    for seat, name in enumerate(["ann", "bob", "cy"]):
        t.join(seat, name, 100)
        players[seat] = r.players[seat] = Player(seat, name, None, None, 0, 60.0)
    seen: set[str] = set()

    def states(what: str, *seats: int | None) -> list[dict[str, Any]]:
        out = []
        for seat in seats:
            state = r.state_for(None if seat is None else r.players[seat])
            seen.update(check_state(state, rows, f"{what}, seat {seat}"))
            # the server's other path (every seat's view at once, as JSON text) gives the same fields
            text = r.states_for([None if seat is None else r.players[seat]])
            assert paths_of(json.loads(next(iter(text.values())))) == paths_of(state)
            out.append(state)
        return out

    before = states("before the first hand", 0, None)
    assert before[0]["view"]["hand"] is None and before[0]["clock"] is None and before[1]["you"] is None

    t.start_hand()
    t.join(3, "dan", 100)                                  # sat down after the deal: sees what onlookers see
    r.players[3] = Player(3, "dan", None, None, 0, 60.0)
    actor = t.actor
    assert actor is not None
    waiting = next(s for s in range(3) if s != actor)
    to_act, other, late, onlooker = states("during a hand", actor, waiting, 3, None)
    assert to_act["view"]["hand"]["legal"]["kinds"] and to_act["clock"]["seat"] == actor
    assert other["view"]["hand"]["legal"] is None and len(other["view"]["hand"]["cards"]) == 5
    assert "cards" not in late["view"]["hand"] and "cards" not in onlooker["view"]["hand"]

    while t.actor is not None:                             # everyone calls or checks, and stands pat
        legal = t.hand.legal_actions()
        assert legal is not None
        kinds = {k.value for k in legal.kinds}
        t.act(t.actor, Action.discard([]) if "discard" in kinds else Action.call() if "call" in kinds
              else Action.check())
    after = states("after the showdown", 0, 3, None)
    hand = after[0]["view"]["hand"]
    assert hand["phase"] == "complete" and hand["shown"] and "winners" in hand["pots"][0]
    assert after[0]["clock"] is None and "winners" in after[2]["view"]["hand"]["pots"][0]

    # every documented field was seen in some real state
    assert seen == {path for path, _, _ in rows}, sorted({path for path, _, _ in rows} - seen)


def test_the_view_is_the_engine_s_table_view_without_its_deadline() -> None:
    """The state's ``view`` is ``Table.view(seat)`` less ``deadline`` (given as ``clock``)."""
    r = room(3)
    for seat, name in enumerate(["ann", "bob"]):
        r.table.join(seat, name, 100)
        r.players[seat] = Player(seat, name, None, None, 0, 60.0)
    r.table.start_hand()
    for seat in (0, 1, None):
        view = r.table.view(seat)
        assert view.pop("deadline") is not None
        state = r.state_for(None if seat is None else r.players[seat])
        assert paths_of(state["view"]) == paths_of(view)
        assert state["view"]["hand"] == view["hand"]
