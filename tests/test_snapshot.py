"""Snapshots and restore, clone, determinization, live pots and the event stream (issue 4 parts 3-5)."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re

import pytest
from hypothesis import given, settings
from test_hand_properties import SETTINGS, check_invariants, tables

from pokerdraw32 import Action, ActionKind, Event, EventKind, Hand, Phase, Rules
from pokerdraw32.bots import RandomBot, RuleBot
from pokerdraw32.cards import DECK
from pokerdraw32.errors import IllegalActionError
from pokerdraw32.snapshot import SNAPSHOT_VERSION, SnapshotError

CARD = re.compile(r"\b[789TJQKA][shdc]\b")


def random_actions(h: Hand, rnd: random.Random):
    """Bots' choices with some timeouts and withdrawn raises (R6.3, R7.3)."""
    bots = [(RandomBot if rnd.random() < 0.6 else RuleBot)(seed=rnd.getrandbits(32)) for _ in range(h.n)]
    while not h.is_complete:
        x = rnd.random()
        if x < 0.04:
            yield Action.timeout()
        elif (x < 0.07 and h.phase in (Phase.FIRST_ROUND, Phase.SECOND_ROUND) and h.stacks[h.actor] > 0
              and h.raise_withdrawn != h.actor):
            yield "withdraw"
        else:
            yield bots[h.actor].decide(h)


def apply(h: Hand, action: Action | str) -> None:
    if action == "withdraw":
        h.withdraw_raise()
    else:
        assert isinstance(action, Action)
        h.act(action)


# ----------------------------------------------------------------------------- snapshot / restore
@settings(max_examples=120, **SETTINGS)
@given(tables())
def test_restore_at_every_step_continues_identically(table):
    """At every step: JSON round trip, the restored hand equals the original and, fed the same
    actions to the end, produces the same events, stacks and generator state."""
    rules, stacks, button, seed, play_seed = table
    rnd = random.Random(play_seed)
    h = Hand(rules, stacks, button, seed=seed)
    twins: list[Hand] = []
    for action in random_actions(h, rnd):
        snap = h.snapshot()
        text = json.dumps(snap)
        twin = Hand.restore(json.loads(text))
        assert twin.snapshot() == snap
        assert twin.legal_actions() == h.legal_actions()
        twins.append(twin)
        apply(h, action)
        for t in twins:
            apply(t, action)
    final = h.snapshot()
    for t in twins:
        assert t.events == h.events and t.stacks == h.stacks and t.result == h.result
        assert t.snapshot() == final
    assert Hand.restore(json.loads(json.dumps(final))).result == h.result


def test_restore_with_pending_deals_and_explicit_cards():
    """auto_deal=False: a snapshot taken while a deal is pending restores the pending deal."""
    h = Hand(Rules(), [50, 50, 50], 2, seed=9, auto_deal=False)
    h.deal()
    twin = Hand.restore(h.snapshot())
    assert twin.pending_deal == h.pending_deal
    for x in (h, twin):
        while x.pending_deal is not None:
            x.deal()
        x.call()
        x.call()
        x.check()
        x.discard(x.hole_cards(x.actor)[:4])
    assert twin.pending_deal == h.pending_deal and twin.pending_deal.kind == "draw"
    assert twin.snapshot() == h.snapshot()


def base_snapshot() -> dict:
    h = Hand(Rules(), [60, 60, 60, 60], 1, seed=21)
    h.call()
    h.raise_to(12)
    return h.snapshot()


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(version=0), f"snapshot version 0 .* reads version {SNAPSHOT_VERSION} only"),
    (lambda s: s.update(version=SNAPSHOT_VERSION + 1), f"snapshot version {SNAPSHOT_VERSION + 1} .* reads version"),
    (lambda s: s.pop("version"), "snapshot version None"),
    (lambda s: s.update(format="pokerkit"), "not a hand snapshot: format is 'pokerkit'"),
    (lambda s: s.pop("stub"), "snapshot field 'stub' is missing"),
    (lambda s: s.update(n=6), r"snapshot field 'n': 6 is outside 2\.\.5"),
    (lambda s: s.update(stacks=[60, 60, 60]), "snapshot field 'stacks': 3 entries, expected 4"),
    (lambda s: s.update(actor=4), r"snapshot field 'actor': 4 is outside 0\.\.3"),
    (lambda s: s.update(actor=True), "snapshot field 'actor': True is not int or null"),
    (lambda s: s.update(phase="flop"), "unknown phase 'flop'"),
    (lambda s: s["stub"].__setitem__(0, "6h"), "snapshot field 'stub': bad card '6h'"),
    (lambda s: s["stub"].__setitem__(0, s["stub"][1]), r"not the 32-card deck once each \[R1\.1\]"),
    (lambda s: s["stacks"].__setitem__(0, s["stacks"][0] + 1),
     r"chips do not add up \[R9\.5\]: the seats started with 240, the snapshot holds 241"),
    (lambda s: s.update(rng=["0" * 16] * 4), "snapshot field 'rng': state must not be all zero"),
    (lambda s: s.update(rng=["0"] * 4), "snapshot field 'rng': '0' is not 16 lower-case hex digits"),
    (lambda s: s.update(rng=["xyz"] * 4), "snapshot field 'rng'"),
    (lambda s: s["rules"].update(sb=-1), "snapshot field 'rules.sb': -1 is not a value of this option"),
    (lambda s: s["rules"].update(colour="red"), "snapshot field 'rules'"),
    (lambda s: s["events"].append({"kind": "explode"}), "snapshot field 'events': event has no valid kind"),
    (lambda s: s.update(result={"pots": [], "shown": {}, "showdown": False}), "snapshot field 'result'"),
])
def test_bad_snapshots_are_rejected_by_name(change, message):
    snap = base_snapshot()
    change(snap)
    with pytest.raises(SnapshotError, match=message):
        Hand.restore(snap)


@pytest.mark.parametrize("data", [None, [], "hand", 3])
def test_snapshot_must_be_an_object(data):
    with pytest.raises(SnapshotError, match="a snapshot is a JSON object"):
        Hand.restore(data)


def test_snapshot_hides_nothing_from_the_dealer_and_is_versioned():
    snap = base_snapshot()
    assert snap["format"] == "pokerdraw32/hand" and snap["version"] == SNAPSHOT_VERSION
    assert len(snap["stub"]) + sum(len(x) for x in snap["hole"]) == 32
    assert all(re.fullmatch(r"[0-9a-f]{16}", w) for w in snap["rng"])


# ----------------------------------------------------------------------------- clone
@settings(max_examples=60, **SETTINGS)
@given(tables())
def test_clone_is_independent_and_identical(table):
    rules, stacks, button, seed, play_seed = table
    rnd = random.Random(play_seed)
    h = Hand(rules, stacks, button, seed=seed)
    for action in random_actions(h, rnd):
        before = h.snapshot()
        c = h.clone()
        assert c.snapshot() == before
        # the clone plays on to the end with its own choices; the original does not move
        crnd = random.Random(rnd.getrandbits(32))
        for other in random_actions(c, crnd):
            apply(c, other)
        check_invariants(c, sum(stacks))
        assert h.snapshot() == before
        # and a fresh clone fed the original's action stays in step with it
        c2 = h.clone()
        apply(h, action)
        apply(c2, action)
        assert c2.events == h.events and c2.rng.getstate() == h.rng.getstate() and c2.stub == h.stub


def test_clone_shares_only_immutable_parts():
    h = Hand(Rules(), [40, 40, 40], 0, seed=3)
    c = h.clone()
    assert c.rules is h.rules and c.rng is not h.rng and c.events is not h.events
    assert all(a is not b for a, b in zip(c.hole, h.hole, strict=True))
    c.stacks[0] = 0
    c.hole[0].append(99)
    assert h.stacks[0] == 40 and len(h.hole[0]) == 5


# ----------------------------------------------------------------------------- determinization
def seen_by(h: Hand, seat: int) -> set[int]:
    mine = set(h.hole[seat])
    for ev in h.events:
        if ev.seat == seat and ev.kind in (EventKind.DEAL_HOLE, EventKind.DEAL_DRAW, EventKind.DISCARD):
            mine.update(int(c) for c in ev.cards)
        if ev.kind is EventKind.SHOW:
            mine.update(int(c) for c in ev.cards)
    return mine


@settings(max_examples=60, **SETTINGS)
@given(tables())
def test_determinize_keeps_what_the_seat_knows(table):
    rules, stacks, button, seed, play_seed = table
    rnd = random.Random(play_seed)
    h = Hand(rules, stacks, button, seed=seed)
    for action in random_actions(h, rnd):
        seat = rnd.randrange(h.n)
        d = h.determinize(seat, seed=rnd.getrandbits(64))
        # the seat's cards, every count and every chip stay; the cards are still the deck once each
        assert d.hole[seat] == h.hole[seat]
        assert [len(x) for x in d.hole] == [len(x) for x in h.hole]
        assert (len(d.stub), len(d.pile), len(d.muck)) == (len(h.stub), len(h.pile), len(h.muck))
        assert d.stacks == h.stacks and d.contrib == h.contrib and d.actor == h.actor
        assert sorted([*d.stub, *d.pile, *d.muck, *d._own_discards, *(c for x in d.hole for c in x)]) == list(range(32))
        known = seen_by(h, seat)
        for place in ("pile", "muck"):
            assert set(getattr(d, place)) & known == set(getattr(h, place)) & known
        # its log holds nothing the seat could not know
        log_cards = {str(c) for ev in d.events for c in ev.cards}
        assert log_cards <= {str(DECK[c]) for c in known}
        la, lb = h.legal_actions(), d.legal_actions()
        assert (la is None) == (lb is None)
        if la is not None:                        # the same decision, the actor's cards apart
            assert dataclasses.replace(la, hole_cards=()) == dataclasses.replace(lb, hole_cards=())
        with pytest.raises(SnapshotError, match="redacted_for"):
            Hand.restore(d.snapshot())            # a search copy, never restored as a played hand
        if rnd.random() < 0.2:                    # and it plays on to the end
            drnd = random.Random(rnd.getrandbits(32))
            for other in random_actions(d, drnd):
                apply(d, other)
            assert sum(d.stacks) == sum(stacks)
        apply(h, action)


def test_determinize_is_seeded_and_random():
    h = Hand(Rules(), [40, 40, 40, 40, 40], 0, seed=11)
    a, b, c = (h.determinize(2, seed=s) for s in (1, 1, 2))
    assert a.snapshot() == b.snapshot()
    assert a.hole[0] != c.hole[0] or a.stub != c.stub
    with pytest.raises(IllegalActionError, match="no seat 5"):
        h.determinize(5)


# ----------------------------------------------------------------------------- views and events
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_views_are_json_and_pots_add_up(players):
    for seed in range(30):
        h = Hand(Rules.preset("two-blind" if seed % 2 else "classic"), [8 + 13 * s for s in range(players)],
                 seed % players, seed=seed)
        rnd = random.Random(seed)
        for action in random_actions(h, rnd):
            for seat in [None, *range(players)]:
                v = h.public_view() if seat is None else h.view(seat)
                assert json.loads(json.dumps(v)) == v
                assert sum(p["amount"] for p in v["pots"]) == h.pot
                assert v["serial"] == len(h.events) and v["stub_count"] == len(h.stub)
                leaked = set(CARD.findall(json.dumps(v)))
                if seat is not None:
                    leaked -= {str(c) for c in h.hole_cards(seat)}
                assert not leaked
            apply(h, action)
        v = h.public_view()
        assert v["pots"] == [p.to_dict() for p in h.result.pots]


def test_live_side_pots():
    """R9.1: one pot per all-in level, the players still betting eligible for all of them."""
    h = Hand(Rules(), [10, 30, 100, 100], 0, seed=2)
    h.all_in()
    h.all_in()
    assert h.public_view()["pots"] == [{"amount": 26, "eligible": [0, 1, 2, 3]},
                                       {"amount": 20, "eligible": [1, 2, 3]}]
    h.raise_to(60)
    h.call()
    assert h.public_view()["pots"] == [{"amount": 40, "eligible": [0, 1, 2, 3]},
                                       {"amount": 60, "eligible": [1, 2, 3]},
                                       {"amount": 60, "eligible": [2, 3]}]


def test_event_stream_from_an_index():
    h = Hand(Rules(), [50, 50, 50], 0, seed=5)
    seen = len(h.events)
    h.call()
    new = h.events_for(1, start=seen)
    assert [e.kind for e in new] == [EventKind.CALL] and new[0].seat == 0
    assert h.events_for(1, start=len(h.events)) == []
    for bad in (-1, len(h.events) + 1, "0", True):
        with pytest.raises(IllegalActionError, match="is not an event index"):
            h.events_for(1, start=bad)


def test_events_round_trip_through_json():
    for seed in range(40):
        h = Hand(Rules.preset("two-blind" if seed % 2 else "classic"), [20, 30, 40, 50][: 2 + seed % 3],
                 0, seed=seed)
        for action in random_actions(h, random.Random(seed)):
            apply(h, action)
        for ev in h.events:
            text = json.dumps(ev.to_dict())
            back = Event.from_dict(json.loads(text))
            assert back == ev and hash(back) == hash(ev)
            with pytest.raises(AttributeError):
                back.seat = 3  # type: ignore[misc]


@pytest.mark.parametrize("data, message", [
    ([], "an event must be a dict"),
    ({}, "event has no valid kind: None"),
    ({"kind": "jump"}, "event has no valid kind: 'jump'"),
    ({"kind": "call", "seat": 9}, "call event: seat 9 is not a seat"),
    ({"kind": "call", "seat": 1, "amount": "5"}, "call event: amount '5' is not a number of chips"),
    ({"kind": "deal_hole", "seat": 1, "cards": "Ah"}, "deal_hole event: cards must be a list"),
    ({"kind": "deal_hole", "seat": 1, "cards": ["Ah", "2c"]}, "bad card '2c'"),
])
def test_bad_event_dicts(data, message):
    with pytest.raises(ValueError, match=message):
        Event.from_dict(data)


def test_shared_constant_actions_are_values():
    assert Action.check() is Action.check() and Action.discard(()) is Action.stand_pat()
    assert Action.discard([]) == Action.stand_pat() and copy.deepcopy(Action.fold()) == Action.fold()
    assert ActionKind.DISCARD is Action.discard("Ah").kind


def mid_hand_snapshot() -> dict:
    h = Hand(Rules(), [100, 100, 100], 0, seed=1)
    h.raise_to(6)
    h.fold()
    return h.snapshot()


def _move_two_hole_cards_to_stub(s: dict) -> None:
    s["stub"] += s["hole"][0][3:]
    s["hole"][0] = s["hole"][0][:3]


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(actor=None), "field 'actor' does not match the event log: None, the log gives 2"),
    (lambda s: s.update(actor=1), "field 'actor' does not match the event log: 1, the log gives 2"),
    (_move_two_hole_cards_to_stub, "field 'hole' does not match the event log"),
    (lambda s: s.update(blind_seats=[]), "field 'blind_seats' does not match"),
    (lambda s: s.update(votes=2**40), "field 'votes' does not match"),
    (lambda s: s["bets"].__setitem__(0, 7), "field 'bets' does not match"),
    (lambda s: s.update(largest_blind=0), "field 'largest_blind' does not match"),
    (lambda s: s.update(starting_stacks=[150, 50, 100]), "field 'stacks' does not match"),
    (lambda s: s.update(phase="draw"), "field 'phase' does not match"),
    (lambda s: s["events"][-2].update(amount=3), r"event 5 is not legal: seat 0: raise to 3 is outside"),
    (lambda s: s["events"][-1].update(seat=2), "event 6 is not legal: seat 2 acted out of turn"),
    (lambda s: s["events"].pop(), "field 'actor' does not match"),
    (lambda s: s["events"].append({"kind": "award", "amount": 3}), r"event 7 \(award 3\) is not the next step"),
    (lambda s: s["events"][3]["cards"].reverse(), "field 'hole' does not match the event log"),
])
def test_edited_snapshots_do_not_restore(change, message):
    """A snapshot is the state its event log produces: edited fields or an illegal log are refused."""
    snap = mid_hand_snapshot()
    Hand.restore(copy.deepcopy(snap))
    change(snap)
    with pytest.raises(SnapshotError, match=message):
        Hand.restore(snap)


def test_determinized_snapshots_are_refused():
    """A determinize() clone's log hides the other seats' cards: its snapshot cannot be checked by
    replay, and it is not a hand that was played, so restore refuses it (even unedited)."""
    h = Hand(Rules(), [100, 100, 100], 0, seed=1)
    h.call()
    d = h.determinize(1, seed=2)
    snap = json.loads(json.dumps(d.snapshot()))
    assert snap["redacted_for"] == 1
    with pytest.raises(SnapshotError, match="'redacted_for': the snapshot of a determinize"):
        Hand.restore(snap)
    # the reviewer's case: a full snapshot marked as redacted, chips moved, is refused the same way
    full = h.snapshot()
    full.update(redacted_for=0, stacks=[full["stacks"][0] + 5, full["stacks"][1] - 5, full["stacks"][2]])
    with pytest.raises(SnapshotError, match="redacted_for"):
        Hand.restore(full)


def _timeout_snapshot() -> dict:
    h = Hand(Rules(), [100, 100, 100], 0, seed=3)
    h.withdraw_raise()
    h.timeout()                          # R7.3: the button owes 2, so the timeout folds
    return h.snapshot()


def _events_of(snap: dict, kind: str) -> list[int]:
    return [i for i, ev in enumerate(snap["events"]) if ev["kind"] == kind]


def test_edits_the_review_found_are_refused():
    """Each was accepted before: blinds that the replay never compared, rules filled with
    defaults, a redacted marker that skipped the replay, a missing phase (KeyError) and deep
    nesting (RecursionError)."""
    base = mid_hand_snapshot()
    small_blind = copy.deepcopy(base)
    small_blind["events"][0]["amount"] = 77
    with pytest.raises(SnapshotError, match=r"field 'events\[0\]\.amount' does not match the event log: 77, "
                                            r"the log gives 1"):
        Hand.restore(small_blind)
    pot_limit = Hand(Rules(structure="pot-limit"), [100, 100, 100], 0, seed=1).snapshot()
    for change, message in [(lambda r: r.pop("structure"), "'rules': missing structure"),
                            (lambda r: r.update(ante=1), "'rules': unknown 'ante'"),
                            (lambda r: r.update(parole=1), "'rules.parole': 1 is not a value of this option")]:
        edited = copy.deepcopy(pot_limit)
        change(edited["rules"])
        with pytest.raises(SnapshotError, match=message):
            Hand.restore(edited)
    no_phase = copy.deepcopy(base)
    del no_phase["phase"]
    with pytest.raises(SnapshotError, match="snapshot field 'phase' is missing"):
        Hand.restore(no_phase)
    nested: object = 1
    for _ in range(900):
        nested = [nested]
    for where in ("events", "stacks", "stub", "rules"):
        edited = copy.deepcopy(base)
        if where == "events":
            edited["events"][1]["junk"] = nested
        elif where == "rules":
            edited["rules"]["sb"] = nested
        else:
            edited[where][0] = nested
        with pytest.raises(SnapshotError) as caught:
            Hand.restore(edited)
        assert len(str(caught.value)) < 200
    edited = copy.deepcopy(base)
    edited["stub"][0] = "A" * 10_000
    with pytest.raises(SnapshotError, match=r"bad card"):
        Hand.restore(edited)


def test_deleted_and_duplicated_timeouts_and_withdrawals():
    """A duplicated RAISE_WITHDRAWN is refused (the engine withdraws once a turn, R7.3); a deleted
    TIMEOUT in the draw is refused (the player would not have lost the right to raise, R6.3).  A
    TIMEOUT deleted before the fold it caused leaves the log of the hand in which the player
    folded: a state the engine reaches, so it restores, to exactly that state."""
    snap = _timeout_snapshot()
    [withdrawn] = _events_of(snap, "raise_withdrawn")
    twice = copy.deepcopy(snap)
    twice["events"].insert(withdrawn, copy.deepcopy(twice["events"][withdrawn]))
    with pytest.raises(SnapshotError, match=r"event \d+ is not legal: seat 0 has already lost the right to raise"):
        Hand.restore(twice)
    [timeout] = _events_of(snap, "timeout")
    folded = copy.deepcopy(snap)
    del folded["events"][timeout]
    again = Hand.restore(folded)
    assert again.snapshot() == folded and len(again.events) == len(snap["events"]) - 1
    h = Hand(Rules(), [100, 100, 100], 0, seed=3)
    h.call(), h.call(), h.check()
    h.timeout()                          # R6.3: stands pat, may not bet or raise later
    draw = h.snapshot()
    del draw["events"][_events_of(draw, "timeout")[0]]
    with pytest.raises(SnapshotError, match="field 'no_raise' does not match the event log"):
        Hand.restore(draw)


def test_the_whole_snapshot_must_match_the_replay():
    """Beyond the fields the engine derives one by one: any event detail, the order of the
    dead cards, an extra field; and a pending deal in a hand that deals itself."""
    snap = mid_hand_snapshot()
    for change, message in [
        (lambda s: s["events"][0].update(blind="big"), r"'events\[0\]\.blind' does not match"),
        (lambda s: s["events"][0].update(all_in=0), r"'events\[0\]\.all_in' does not match the event log: 0, "
                                                     "the log gives False"),
        (lambda s: s["events"][-1].update(comment="x"), "event 6 does not follow from the ones before"),
        (lambda s: s.update(colour="red"), "field 'colour' is not a field of a hand snapshot"),
        (lambda s: s.update(engine=1), "field 'engine': 1 is not str"),
    ]:
        edited = copy.deepcopy(snap)
        change(edited)
        with pytest.raises(SnapshotError, match=message):
            Hand.restore(edited)
    h = Hand(Rules(), [50, 50, 50], 0, seed=4, auto_deal=False)
    h.deal()
    pending = h.snapshot()
    pending["auto_deal"] = True
    with pytest.raises(SnapshotError, match="'auto_deal': a hand that deals itself never waits"):
        Hand.restore(pending)
    stub = h.snapshot()
    stub["stub"][0], stub["stub"][1] = stub["stub"][1], stub["stub"][0]
    with pytest.raises(SnapshotError, match="'stub' is not what remains of the round-robin deal"):
        Hand.restore(stub)
