"""A restored snapshot is exactly a state the engine could have reached, or it is refused.

Snapshots taken at random steps of random hands are edited in many ways (every field, every
event field, events deleted, duplicated or swapped, keys added or removed, types changed, deep
nesting, huge numbers); each edit is either refused with :class:`SnapshotError` or restores to
a hand whose snapshot is the edited input exactly (then the edit made another reachable state,
say a TIMEOUT deleted before the fold it caused: the hand in which the player folded).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_snapshot import apply, random_actions

from pokerdraw32 import Hand, Rules
from pokerdraw32.errors import shown
from pokerdraw32.snapshot import SnapshotError

PRESETS = [Rules(), Rules.preset("two-blind"), Rules(structure="pot-limit"), Rules(structure="fixed-limit"),
           Rules(parole=False, suit_tiebreak=False), Rules.preset("two-blind", structure="pot-limit", sb=5)]


def deep(levels: int = 900) -> Any:
    x: Any = 1
    for _ in range(levels):
        x = [x]
    return x


DEEP = deep()
ODD_VALUES = [None, True, False, 0, -1, 1, 2**53, 10**30, 10**5000, 1.5, float("nan"), "", "x", [], {}, [1], {"a": 1},
              DEEP]


def snapshots(seed: int) -> Iterator[dict[str, Any]]:
    """Snapshots at a few random steps of one random hand (auto-dealt or dealt by hand)."""
    rnd = random.Random(seed)
    n = rnd.randint(2, 5)
    rules = rnd.choice(PRESETS)
    stacks = [rnd.choice([rules.sb, 3 * rules.sb, 40, 100, 250]) for _ in range(n)]
    h = Hand(rules, stacks, rnd.randrange(n), seed=rnd.getrandbits(64), auto_deal=rnd.random() < 0.8)
    if rnd.random() < 0.5:
        yield h.snapshot()
    while h.pending_deal is not None:
        h.deal()
        if rnd.random() < 0.3:
            yield h.snapshot()
    for action in random_actions(h, rnd):
        if rnd.random() < 0.25:
            yield h.snapshot()
        apply(h, action)
        while h.pending_deal is not None:
            h.deal()
    yield h.snapshot()


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a snapshot: dict keys and list indexes, depth first."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*prefix, k)
            yield from paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield (*prefix, i)
            yield from paths(v, (*prefix, i))


def parent(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path[:-1]:
        data = data[p]
    return data


def tweaks(value: Any, rnd: random.Random) -> list[Any]:
    """Plausible edits of one value: neighbours, other types, other cards."""
    out = [rnd.choice(ODD_VALUES) for _ in range(2)]
    if isinstance(value, bool):
        out.append(not value)
        out.append(int(value))
    elif isinstance(value, int):
        out += [value + 1, value - 1, value + rnd.randint(2, 90), float(value), str(value)]
    elif isinstance(value, str):
        out += [value.upper(), value + " ", rnd.choice(["Ah", "7s", "Kd", "Tc", "9h", "draw", "complete", "small"])]
    elif isinstance(value, list):
        out.append(list(reversed(value)))
        if value:
            out += [value[:-1], value + value[-1:], value[1:] + value[:1], tuple(value)]
    elif isinstance(value, dict):
        out.append({k: v for i, (k, v) in enumerate(value.items()) if i})
    return out


def mutations(snap: dict[str, Any], rnd: random.Random) -> Iterator[tuple[str, Callable[[dict[str, Any]], None]]]:
    everything = list(paths(snap))
    for path in rnd.sample(everything, min(len(everything), 60)):
        value = parent(snap, path)[path[-1]]
        for new in tweaks(value, rnd):
            def put(s: dict[str, Any], path: tuple[Any, ...] = path, new: Any = new) -> None:
                parent(s, path)[path[-1]] = copy.deepcopy(new, {id(DEEP): DEEP})
            yield f"set {path} = {shown(new)}", put

        def delete(s: dict[str, Any], path: tuple[Any, ...] = path) -> None:
            del parent(s, path)[path[-1]]
        yield f"delete {path}", delete
    for key in ("junk", "Phase", "seat", "amount", "info"):
        yield f"add top-level {key}", lambda s, key=key: s.__setitem__(key, 1)
    for key in snap["rules"]:
        yield f"drop rule {key}", lambda s, key=key: s["rules"].pop(key)
    yield "add rule", lambda s: s["rules"].__setitem__("ante", 1)
    events = snap["events"]
    for i in range(len(events)):
        yield f"delete event {i}", lambda s, i=i: s["events"].pop(i)
        yield f"duplicate event {i}", lambda s, i=i: s["events"].insert(i, copy.deepcopy(s["events"][i]))
        if i + 1 < len(events):
            def swap(s: dict[str, Any], i: int = i) -> None:
                e = s["events"]
                e[i], e[i + 1] = e[i + 1], e[i]
            yield f"swap events {i}, {i + 1}", swap
        for key in ("seat", "amount", "cards", "hidden", "all_in", "blind", "kind"):
            yield f"event {i}: add/replace {key}", lambda s, i=i, key=key: s["events"][i].__setitem__(key, 1)
        for key in list(events[i]):
            yield f"event {i}: drop {key}", lambda s, i=i, key=key: s["events"][i].pop(key)
    yield "deep event detail", lambda s: s["events"][-1].__setitem__("x", DEEP)
    yield "deep field", lambda s: s.__setitem__("stacks", [DEEP] * len(s["stacks"]))
    yield "deep rules", lambda s: s["rules"].__setitem__("sb", DEEP)


def strictly(data: Any) -> str:
    """JSON text in which true is not 1 and 1.0 is not 1 (nan and huge ints as text never match)."""
    return json.dumps(data, sort_keys=True, default=repr)


@pytest.mark.parametrize("seed", range(24))
def test_edited_snapshots_are_refused_or_reachable(seed):
    rnd = random.Random(1000 + seed)
    for snap in snapshots(seed):
        if rnd.random() < 0.5:
            continue
        Hand.restore(copy.deepcopy(snap))
        for what, change in mutations(snap, rnd):
            edited = copy.deepcopy(snap)
            try:
                change(edited)
            except (IndexError, KeyError):
                continue
            try:
                again = Hand.restore(edited)
            except SnapshotError as exc:
                assert len(str(exc)) < 400, what
                continue
            out = again.snapshot()
            out["engine"] = edited.get("engine")
            assert strictly(out) == strictly(edited), f"{what}: restored to another state"


# ----------------------------------------------------------------------------- reshuffles (R6.2, R11.1)
def _swap(x: Any, a: str, b: str) -> Any:
    if isinstance(x, dict):
        return {k: _swap(v, a, b) for k, v in x.items()}
    if isinstance(x, list):
        return [_swap(v, a, b) for v in x]
    return b if x == a else a if x == b else x


def _two_reshuffles(auto_deal: bool = True) -> Hand:
    """Hand(CLASSIC, 5 x 100, seed=5): everyone calls to the draw and discards 4: reshuffles."""
    from pokerdraw32 import CLASSIC
    h = Hand(CLASSIC, [100] * 5, 0, seed=5, auto_deal=auto_deal)
    while h.pending_deal is not None:
        h.deal()
    while h.phase.value != "draw":
        h.call() if "call" in h.legal_actions() else h.check()
    while h.phase.value == "draw":
        if h.pending_deal is not None:
            h.deal()
            continue
        h.discard(h.hole_cards(h.legal_actions().seat)[:4])
    assert sum(ev.kind.value == "reshuffle" for ev in h.events) >= 2
    return h


def test_reshuffled_cards_must_be_the_generators():
    """A card dealt from the reshuffled pile swapped with one left in the stub, or with one in the
    new discard pile, is refused: the reshuffle's order follows from the generator (R6.2, R11.1)."""
    h = _two_reshuffles()
    snap = json.loads(json.dumps(h.snapshot()))
    assert Hand.restore(copy.deepcopy(snap)).snapshot() == snap
    last = [ev for ev in snap["events"] if ev["kind"] == "deal_draw"][-1]
    assert last["seat"] == 0 and last["reshuffled"] and last["cards"][0] == "7d"
    assert "9d" in snap["stub"] and "Qh" in snap["pile"]
    for a, b in (("7d", "9d"), ("7d", "Qh"), ("7d", last["cards"][1])):   # the stub, the pile, the same deal
        with pytest.raises(SnapshotError, match=r"rng|events"):
            Hand.restore(_swap(snap, a, b))
    edited = copy.deepcopy(snap)                                    # the same cards, dealt in another order
    cards = [ev for ev in edited["events"] if ev["kind"] == "deal_draw"][-1]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    with pytest.raises(SnapshotError):
        Hand.restore(edited)
    for k in range(len(snap["stub"]) - 1):                         # the stub's order after a reshuffle
        edited = copy.deepcopy(snap)
        edited["stub"][k], edited["stub"][k + 1] = edited["stub"][k + 1], edited["stub"][k]
        with pytest.raises(SnapshotError):
            Hand.restore(edited)


def test_generator_state_must_be_the_one_the_reshuffles_leave():
    h = _two_reshuffles()
    snap = json.loads(json.dumps(h.snapshot()))
    for word in range(4):
        edited = copy.deepcopy(snap)
        edited["rng"][word] = f"{int(edited['rng'][word], 16) ^ 1:016x}"
        with pytest.raises(SnapshotError, match="'rng'"):
            Hand.restore(edited)
    from pokerdraw32 import Rng
    edited = copy.deepcopy(snap)
    rng = Rng(0)
    rng.setstate([int(w, 16) for w in snap["rng"]])
    rng.next_u64()                                                  # one draw too many
    edited["rng"] = [f"{w:016x}" for w in rng.getstate()]
    with pytest.raises(SnapshotError, match="'rng'"):
        Hand.restore(edited)


def test_explicitly_dealt_reshuffles_leave_the_generators_stub():
    """auto_deal=False: the cards dealt after a reshuffle are the dealer's choice, but the stub
    left is the reshuffled pile's order without them."""
    h = _two_reshuffles(auto_deal=False)
    snap = json.loads(json.dumps(h.snapshot()))
    assert Hand.restore(copy.deepcopy(snap)).snapshot() == snap
    assert len(snap["stub"]) >= 2
    edited = copy.deepcopy(snap)
    edited["stub"][0], edited["stub"][1] = edited["stub"][1], edited["stub"][0]
    with pytest.raises(SnapshotError, match="rng"):
        Hand.restore(edited)
