"""A table snapshot is restored exactly as written, or refused with the package's error.

Snapshots of random sessions (between hands and in the middle of one) are edited field by
field, in the ledger, the seats and the running hand; each edit is refused with
:class:`TableError` or :class:`SnapshotError`, or restores to a table whose snapshot is the
edited input (a table the seats, the ledger and the hand's replay agree on), and whose ledger
still balances.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from test_snapshot_mutations import DEEP, parent, paths, tweaks
from test_table import FakeClock

from pokerdraw32 import Rules
from pokerdraw32.bots import RandomBot
from pokerdraw32.errors import shown
from pokerdraw32.snapshot import SnapshotError
from pokerdraw32.table import Table, TableError


def session_snapshots(seed: int) -> list[dict]:
    rnd = random.Random(seed)
    clock = FakeClock()
    t = Table(rnd.choice([Rules(), Rules.preset("two-blind"), Rules(structure="pot-limit")]), seed=seed, clock=clock,
              seats=rnd.randint(3, 5), min_buy_in=10)
    for seat in range(t.seat_count):
        t.join(seat, f"p{seat}", rnd.randint(20, 150))
    out = []
    for _ in range(3):
        h = t.start_hand()
        bot = RandomBot(rnd.getrandbits(32))
        while t.actor is not None:
            if rnd.random() < 0.15:
                out.append(t.snapshot())
            t.act(t.actor, bot.decide(h))
            clock.now += 1
        out.append(t.snapshot())
        seat = rnd.randrange(t.seat_count)
        if seat in t.occupied and rnd.random() < 0.5:
            t.leave(seat)
            t.join(seat, f"new{seat}", 50)
        for s in t.occupied:
            if t.seat(s).stack == 0:
                t.add_chips(s, 30)
    return out


def times(data: dict) -> None:
    for key in ("decision_time", "raise_time"):
        if type(data.get(key)) is int:
            data[key] = float(data[key])
    d = data.get("deadline")
    if isinstance(d, dict):
        for key in ("act_at", "raise_at"):
            if type(d.get(key)) is int:
                d[key] = float(d[key])


@pytest.mark.parametrize("seed", range(6))
def test_edited_table_snapshots_are_refused_or_restored_as_written(seed):
    rnd = random.Random(seed)
    for snap in rnd.sample(session_snapshots(seed), 3):
        def clock(now: float = snap["clock"]) -> float:
            return now
        Table.restore(copy.deepcopy(snap), clock=clock)
        places = [p for p in paths(snap) if p[:1] != ("hand",) or rnd.random() < 0.1]
        for path in rnd.sample(places, min(len(places), 80)):
            value = parent(snap, path)[path[-1]]
            for new in [*tweaks(value, rnd), "delete"]:
                edited = copy.deepcopy(snap)
                if new == "delete":
                    del parent(edited, path)[path[-1]]
                else:
                    parent(edited, path)[path[-1]] = copy.deepcopy(new, {id(DEEP): DEEP})
                try:
                    t = Table.restore(edited, clock=clock)
                except (TableError, SnapshotError) as exc:
                    assert len(str(exc)) < 400, (path, shown(new))
                    continue
                t.check_ledger()
                again = t.snapshot()
                # the clock is not data: the restored table reads its own, and keeps the time left to act
                unclocked = ("clock", "deadline") if path == ("clock",) else ("clock",)
                for key in unclocked:
                    again.pop(key, None)
                    edited.pop(key, None)
                if path == ("hand", "engine") and isinstance(edited.get("hand"), dict):
                    again["hand"]["engine"] = edited["hand"]["engine"]   # the writer's version: information only
                for x in (again, edited):           # times in seconds: 30 and 30.0 are the same setting
                    times(x)
                assert json.dumps(again, sort_keys=True, default=repr) == json.dumps(edited, sort_keys=True,
                                                                                     default=repr), (path, shown(new))


# ----------------------------------------------------------------------------- edits that balance (review)
def _played() -> dict:
    """3 seats, 200 chips each (the maximum), two hands played, between hands."""
    t = Table(Rules.preset("classic"), seats=3, seed=1, clock=lambda: 100.0)
    for s in range(3):
        t.join(s, f"n{s}", 200)
    for _ in range(2):
        t.start_hand()
        while t.actor is not None:
            legal = t.hand.legal_actions()
            t.act(t.actor, "call" if "call" in legal else "check" if "check" in legal else "discard")
    return json.loads(json.dumps(t.snapshot()))


def _running(**settings) -> dict:
    t = Table(Rules.preset("classic"), seats=3, seed=1, clock=lambda: 100.0, **settings)
    for s in range(3):
        t.join(s, f"n{s}", 200)
    t.start_hand()
    return json.loads(json.dumps(t.snapshot()))


def _restores(data: dict) -> Table:
    t = Table.restore(data, clock=lambda: 100.0)
    t.check_ledger()
    return t


def _buy_250(m):
    m["ledger"][0]["chips"] = 250
    m["seats"][0]["stack"] += 50


def _hand_lines(m):
    m["ledger"] += [{"kind": "hand", "seat": 0, "name": "n0", "chips": 5, "hand": 2},
                    {"kind": "hand", "seat": 0, "name": "n0", "chips": -5, "hand": 2}]


def _flag(key, value, seat=0):
    return lambda m: m["seats"][seat].__setitem__(key, value)


BETWEEN_HANDS = {
    "leaving between hands": _flag("leaving", True),
    "waiting without joining late": _flag("waiting", True),
    "entry bet without joining late": _flag("entry_due", True),
    "blinds missed when dealt in since": _flag("missed", {"small": 1}),
    "buy-in above max_buy_in": _buy_250,
    "max_buy_in below the ledger's buy-ins": lambda m: m.__setitem__("max_buy_in", 100),
    "min_buy_in above the ledger's buy-ins": lambda m: m.update(min_buy_in=201, max_buy_in=300),
    "extra hand lines that cancel": _hand_lines,
    "hand lines out of seat order": lambda m: m["ledger"].__setitem__(
        slice(3, 6), [m["ledger"][4], m["ledger"][3], m["ledger"][5]]),
    "hand numbers with a gap": lambda m: [e.__setitem__("hand", 3) for e in m["ledger"][6:]]
    and m.__setitem__("hand_count", 3),
    "hand_seats not in seat order": lambda m: m.__setitem__("hand_seats", [2, 1, 0]),
    "hand_seats not the last hand's": lambda m: m.__setitem__("hand_seats", [0, 1]),
    "button not a seat of the last hand": lambda m: m.__setitem__("hand_seats", [0, 1]) or m.__setitem__(
        "button", 2),
}


@pytest.mark.parametrize("name", sorted(BETWEEN_HANDS))
def test_edits_a_table_never_makes_are_refused(name):
    """Each edit keeps the ledger balanced, yet makes a table the engine never reaches."""
    snap = _played()
    _restores(copy.deepcopy(snap))
    edited = copy.deepcopy(snap)
    BETWEEN_HANDS[name](edited)
    with pytest.raises(TableError):
        _restores(edited)


def test_a_ghost_leaving_flag_would_strand_the_players_chips():
    """The review's reproducer: restored with 'leaving' between hands, the next hand dealt seats
    1 and 2 while seat 0 stayed occupied with its chips."""
    edited = _played()
    edited["seats"][0]["leaving"] = True
    with pytest.raises(TableError, match="leaving"):
        _restores(edited)


def test_late_joiners_flags_must_match_the_ledger():
    t = Table(Rules.preset("classic"), seats=4, seed=1, clock=lambda: 100.0)
    for s in range(3):
        t.join(s, f"n{s}", 200)
    t.start_hand()
    t.join(3, "late", 100, wait=True)
    snap = json.loads(json.dumps(t.snapshot()))
    assert _restores(copy.deepcopy(snap)).seat(3).waiting
    for waiting, entry_due in ((False, False), (True, True)):
        edited = copy.deepcopy(snap)
        edited["seats"][3].update(waiting=waiting, entry_due=entry_due)
        with pytest.raises(TableError, match="entry_due"):
            _restores(edited)
    edited = copy.deepcopy(snap)                 # dealt in to the running hand: no flags but leaving
    edited["seats"][0]["entry_due"] = True
    with pytest.raises(TableError):
        _restores(edited)


def test_deadlines_must_be_ones_the_table_sets():
    snap = _running()
    assert _restores(copy.deepcopy(snap)).deadline.act_at == 130.0
    overdue = copy.deepcopy(snap)                 # the clock passed the deadline before expire(): reachable
    overdue["clock"] = 500.0
    assert _restores(overdue).deadline.act_at == 100.0 - 370.0
    edits = [
        lambda m: m["deadline"].__setitem__("act_at", 10**9),            # more than decision_time left
        lambda m: m.__setitem__("clock", 0.0),                           # the clock moved back
        lambda m: m.__setitem__("deadline", {"seat": 0, "raise_at": 120.0, "act_at": 130.0}),  # no raise limit
    ]
    for edit in edits:
        edited = copy.deepcopy(snap)
        edit(edited)
        with pytest.raises(TableError, match="deadline"):
            _restores(edited)
    limited = _running(raise_time=10)
    assert _restores(copy.deepcopy(limited)).deadline.raise_at == 110.0
    for raise_at in (None, 150.0, 105.0):
        edited = copy.deepcopy(limited)
        edited["deadline"]["raise_at"] = raise_at
        with pytest.raises(TableError, match="raise_at"):
            _restores(edited)
