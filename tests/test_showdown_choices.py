"""Voluntary shows and mucks at the showdown (R9.3): ``Hand.set_showdown_choice``.

R9.3: a player who cannot win any pot they are eligible for may muck instead of showing; showing
is always allowed; option ``muck_losers`` says what happens when the player made no choice.
"""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from phh_scenarios import DATA, showdown_order, voluntary_show
from scenario import CLASSIC, FLUSH, PAIR, TRIPS, assert_final, call_around, new_hand, shows, stand_pat_all

from pokerdraw32 import EventKind, Hand, HandHistory, IllegalActionError, Rules, Table, TableError
from pokerdraw32.bots import RandomBot
from pokerdraw32.cli import main
from pokerdraw32.history import load_all
from pokerdraw32.snapshot import SnapshotError

SHOW, MUCK = EventKind.SHOW, EventKind.MUCK
CARD = re.compile(r"\b[789TJQKA][shdc]\b")
# the cards as the SHOW events and views write them (highest first)
FLUSH_SHOWN = ["Qh", "Th", "9h", "8h", "7h"]
TRIPS_SHOWN = ["Qd", "Qc", "Qs", "Ts", "8d"]
PAIR_SHOWN = ["Jc", "Js", "Td", "8c", "7c"]


def seen_cards(h: Hand, seat: int | None) -> set[str]:
    """Every card text in ``seat``'s view (the public view for None) and event log."""
    text = json.dumps(h.public_view() if seat is None else h.view(seat))
    text += json.dumps([e.to_dict() for e in h.events_for(seat)])
    return set(CARD.findall(text))


def heads_up(choice: bool | None, muck_losers: bool = True) -> Hand:
    """Heads-up, seat 0 the button (big blind, R4.3) holds the flush, seat 1 a pair; seat 0 bets 10
    in round two and seat 1 calls: seat 0 shows first (R9.3), seat 1 cannot win."""
    h = new_hand(CLASSIC.replace(muck_losers=muck_losers), [100, 100], 0, {0: FLUSH, 1: PAIR})
    call_around(h)
    stand_pat_all(h)
    h.check(seat=1)
    h.bet(10, seat=0)
    if choice is not None:
        h.set_showdown_choice(1, choice)
    h.call(seat=1)
    return h


def three_handed(choices: dict[int, bool | None], muck_losers: bool = True) -> Hand:
    """Seat 0 the flush, seat 1 trips (bets 10 in round two), seat 2 a pair: seat 1 shows first,
    then seat 2 (cannot beat the trips), then seat 0 (wins)."""
    return showdown_order(choices, CLASSIC.replace(muck_losers=muck_losers))


# ------------------------------------------------------------------------------ scenarios
def test_heads_up_loser_shows_voluntarily():
    h = heads_up(True)
    assert_final(h, [112, 88])                           # the pot of 24 to the flush
    assert shows(h) == [(SHOW, 0), (SHOW, 1)]
    show = [e for e in h.events if e.kind is SHOW]
    assert [str(c) for c in show[1].cards] == PAIR_SHOWN
    assert show[1].get("hand") == "pair of jacks, ten of diamonds kicker"
    assert [str(c) for c in h.result.shown[1]] == PAIR_SHOWN
    for seat in (None, 0, 1):
        v = h.public_view() if seat is None else h.view(seat)
        assert v["shown"] == [{"seat": 0, "cards": FLUSH_SHOWN}, {"seat": 1, "cards": PAIR_SHOWN}]
        assert seen_cards(h, seat) >= set(FLUSH_SHOWN) | set(PAIR_SHOWN)
        # the SHOW events are in everyone's log, cards included
        assert [(e.seat, [str(c) for c in e.cards]) for e in h.events_for(seat) if e.kind is SHOW] == \
            [(0, FLUSH_SHOWN), (1, PAIR_SHOWN)]
    assert h.view(1)["showdown_choice"] == "show" and h.view(0)["showdown_choice"] is None
    assert "showdown_choice" not in h.public_view()


def test_heads_up_loser_mucks_by_default_and_nothing_leaks():
    h = heads_up(None)
    assert_final(h, [112, 88])
    assert shows(h) == [(SHOW, 0), (MUCK, 1)]
    assert set(h.result.shown) == {0}
    assert next(e for e in h.events if e.kind is MUCK).cards == ()
    assert h.public_view()["shown"] == h.view(0)["shown"] == [{"seat": 0, "cards": FLUSH_SHOWN}]
    for seat in (None, 0):
        assert not seen_cards(h, seat) & set(PAIR_SHOWN)             # R9.3: not revealed


@pytest.mark.parametrize("muck_losers, choice, seat2", [
    (True, None, MUCK), (True, False, MUCK), (True, True, SHOW),
    (False, None, SHOW), (False, True, SHOW), (False, False, MUCK),
])
def test_three_handed_choice_and_muck_losers(muck_losers, choice, seat2):
    h = three_handed({2: choice}, muck_losers)
    assert_final(h, [124, 88, 88])                       # the pot of 36 to the flush, whatever is shown
    assert shows(h) == [(SHOW, 1), (seat2, 2), (SHOW, 0)]
    shown = {1: TRIPS_SHOWN, 0: FLUSH_SHOWN} | ({2: PAIR_SHOWN} if seat2 is SHOW else {})
    assert {s: [str(c) for c in cs] for s, cs in h.result.shown.items()} == shown
    want = [{"seat": s, "cards": shown[s]} for s in sorted(shown)]
    for seat in (None, 0, 1, 2):
        v = h.public_view() if seat is None else h.view(seat)
        assert v["shown"] == want and v["stacks"] == [124, 88, 88]
        if seat != 2:
            assert bool(seen_cards(h, seat) & set(PAIR_SHOWN)) == (seat2 is SHOW)
    assert h.view(2)["showdown_choice"] == {None: None, True: "show", False: "muck"}[choice]
    assert h.view(0)["showdown_choice"] is None and h.view(1)["showdown_choice"] is None


@pytest.mark.parametrize("muck_losers", [True, False])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_player_who_can_win_shows_anyway(muck_losers, seat):
    """Seat 0's flush wins; seat 1 shows first, when nobody has shown, so it too could win (R9.3)."""
    h = three_handed({seat: False}, muck_losers)
    assert shows(h) == [(SHOW, 1), (MUCK if muck_losers else SHOW, 2), (SHOW, 0)]
    assert h.showdown_choices[seat] is False                # the choice stays, it was not honoured
    assert_final(h, [124, 88, 88])


def test_choice_can_be_changed_and_withdrawn_and_folding_drops_it():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    h.set_showdown_choice(2, True)
    h.set_showdown_choice(2, False)
    h.set_showdown_choice(2, None)                       # muck_losers decides again
    assert h.showdown_choices == [None, None, None]
    h.set_showdown_choice(0, True)
    h.fold(seat=0)
    assert h.showdown_choices == [None, None, None]      # no cards left to show


def test_choice_before_the_deal_is_allowed():
    h = Hand(CLASSIC, [100, 100, 100], 0, seed=3, auto_deal=False)
    assert h.pending_deal is not None
    h.set_showdown_choice(1, True)
    assert h.showdown_choices == [None, True, None]


def test_choice_is_private_until_the_showdown():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    call_around(h)
    before = {s: (h.view(s) if s is not None else h.public_view(), h.events_for(s)) for s in (None, 0, 1, 2)}
    h.set_showdown_choice(2, True)
    for seat in (None, 0, 1):                            # nothing changes for the others: no event either
        assert ((h.view(seat) if seat is not None else h.public_view()), h.events_for(seat)) == before[seat]
    assert h.view(2)["showdown_choice"] == "show" and h.events_for(2) == before[2][1]


# ------------------------------------------------------------------------------ bad input
def test_bad_input_raises_and_leaves_the_state_unchanged():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    h.set_showdown_choice(1, True)
    h.fold(seat=0)
    cases = [
        ((3, True), r"^no seat 3 at this table \(seats 0\.\.2\) to show or muck \[R9\.3\]$"),
        ((-1, True), r"^no seat -1 at this table"),
        ((True, True), r"^no seat True at this table"),
        (("1", True), r"^no seat '1' at this table"),
        ((1.0, True), r"^no seat 1\.0 at this table"),
        ((2, 1), r"^seat 2: the showdown choice must be True \(show\), False \(muck\) or None \(muck_losers "
                 r"decides\), got 1 \[R9\.3\]$"),
        ((2, "yes"), r"got 'yes' \[R9\.3\]"),
        ((2, 0), r"got 0 \[R9\.3\]"),
        ((0, True), r"^seat 0 has folded and has no cards to show or muck \[R9\.3\]$"),
        ((0, None), r"^seat 0 has folded"),
    ]
    for args, message in cases:
        before = h.snapshot()
        with pytest.raises(IllegalActionError, match=message) as info:
            h.set_showdown_choice(*args)
        assert info.value.rule == "R9.3"
        assert h.snapshot() == before
    # the hand completes; then no choice is possible (there is no show after the hand)
    h.call(seat=1)
    h.check(seat=2)
    stand_pat_all(h)
    h.check(seat=1)
    h.check(seat=2)
    assert h.is_complete and shows(h) == [(SHOW, 1), (MUCK, 2)]
    for seat in (1, 2):
        before = h.snapshot()
        with pytest.raises(IllegalActionError, match=rf"^seat {seat}: the hand is over; there is nothing left "
                                                     r"to show or muck \[R9\.3\]$") as info:
            h.set_showdown_choice(seat, True)
        assert info.value.seat == seat and h.snapshot() == before


# ------------------------------------------------------------------------------ state
def test_choices_survive_snapshot_restore_and_clone():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    h.set_showdown_choice(2, True)
    h.set_showdown_choice(0, False)
    call_around(h)
    snap = json.loads(json.dumps(h.snapshot()))
    assert snap["showdown_choices"] == [False, None, True]
    again = Hand.restore(snap)
    copy = h.clone()
    assert again.showdown_choices == copy.showdown_choices == [False, None, True]
    copy.set_showdown_choice(2, None)                    # the clone is independent
    assert h.showdown_choices == [False, None, True]
    for hand in (h, again):
        stand_pat_all(hand)
        hand.check(seat=0)
        hand.bet(10, seat=1)
        hand.call(seat=2)
        hand.call(seat=0)
        assert shows(hand) == [(SHOW, 1), (SHOW, 2), (SHOW, 0)]
    assert again.events == h.events and again.snapshot() == h.snapshot()
    # a finished hand with a voluntary show restores too (its log is replayed with the choices)
    done = Hand.restore(json.loads(json.dumps(h.snapshot())))
    assert done.result == h.result and done.showdown_choices == [False, None, True]


def test_determinize_keeps_only_the_seats_own_choice():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    h.set_showdown_choice(2, True)
    h.set_showdown_choice(1, False)
    assert h.determinize(2, seed=1).showdown_choices == [None, None, True]
    assert h.determinize(0, seed=1).showdown_choices == [None, None, None]
    assert h.showdown_choices == [None, False, True]


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(showdown_choices=[None, None]), r"'showdown_choices': 2 entries, expected 3"),
    (lambda s: s.update(showdown_choices=[None, "show", None]), r"'showdown_choices': 'show' is not bool or null"),
    (lambda s: s.update(showdown_choices=[None, 1, None]), r"'showdown_choices': 1 is not bool or null"),
    (lambda s: s.pop("showdown_choices"), r"'showdown_choices' is missing"),
    # seat 0 folded: its choice was dropped by the fold, so one in the snapshot is an edit
    (lambda s: s.update(showdown_choices=[True, None, None]), r"'showdown_choices' does not match the event log"),
])
def test_bad_snapshot_choices_are_refused(change, message):
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    h.fold(seat=0)
    snap = h.snapshot()
    change(snap)
    with pytest.raises(SnapshotError, match=message):
        Hand.restore(snap)


def test_table_passes_choices_in_table_seats():
    t = Table(CLASSIC, seed=8, min_buy_in=1)
    for seat, name in [(1, "a"), (3, "b"), (4, "c")]:
        t.join(seat, name, 50)
    t.join(0, "away", 50)
    t.sit_out(0)
    h = t.start_hand()
    assert t.hand_seats == (1, 3, 4)
    t.set_showdown_choice(3, True)                       # table seat 3 is hand seat 1
    assert h.showdown_choices == [None, True, None]
    assert t.view(3)["hand"]["showdown_choice"] == "show"
    assert t.view(1)["hand"]["showdown_choice"] is None and "showdown_choice" not in t.view(None)["hand"]
    with pytest.raises(TableError, match="seat 0 is not dealt in"):
        t.set_showdown_choice(0, True)
    with pytest.raises(IllegalActionError, match=r"R9\.3"):
        t.set_showdown_choice(3, "show")
    again = Table.restore(json.loads(json.dumps(t.snapshot())))
    assert again.hand is not None and again.hand.showdown_choices == [None, True, None]
    while t.actor is not None:
        legal = t.hand.legal_actions()
        t.act(t.actor, "k" if "check" in legal else "c" if "call" in legal else "p")
    assert (EventKind.SHOW, 3) in [(e.kind, e.seat) for e in t.events_for(None)]


# ------------------------------------------------------------------------------ hand histories
def test_golden_voluntary_show_replays_with_the_cli():
    path = DATA / "r9_3_voluntary_show.phh"
    (hh,) = load_all(path)
    assert hh.actions[-3:] == ("p1 sm QdQcQsTs8d", "p2 sm JcJsTd8c7c", "p3 sm QhTh9h8h7h")
    assert hh.replay().events == voluntary_show().events
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", "--json", str(path)], stdout=out, stderr=err) == 0, err.getvalue()
    assert json.loads(out.getvalue()) == {
        "file": str(path), "hand": 1, "finishing_stacks": [88, 88, 124],
        "pots": [{"amount": 36, "eligible": [1, 2, 3], "winners": [3], "shared": False}], "winners": [3]}


@pytest.mark.parametrize("muck_losers", [True, False])
@pytest.mark.parametrize("choice", [None, True, False])
def test_history_round_trip_with_choices(muck_losers, choice):
    h = three_handed({2: choice}, muck_losers)
    hh = HandHistory.loads(HandHistory.from_hand(h).dumps())
    shown = "p2 sm JcJsTd8c7c" if shows(h)[1][0] is SHOW else "p2 sm"
    assert hh.actions[-3:] == ("p1 sm QdQcQsTs8d", shown, "p3 sm QhTh9h8h7h")
    again = hh.replay()
    assert again.events == h.events and again.result == h.result
    # the showdown lines are optional: without them the defaults apply (muck_losers)
    bare = HandHistory(hh.rules, hh.starting_stacks, hh.actions[:-3], seats=hh.seats)
    assert shows(bare.replay())[1] == (MUCK if muck_losers else SHOW, 2)


def test_history_muck_with_muck_losers_off_replays():
    """With muck_losers off, a player who could muck may (pN sm)."""
    h = three_handed({}, muck_losers=False)
    actions = list(HandHistory.from_hand(h).actions)
    assert actions[-2] == "p2 sm JcJsTd8c7c"
    actions[-2] = "p2 sm"
    hh = HandHistory(h.rules, (100, 100, 100), tuple(actions), seats=(2, 3, 1))
    assert shows(hh.replay()) == [(SHOW, 1), (MUCK, 2), (SHOW, 0)]


def test_random_hands_with_choices_round_trip_exactly():
    """Engine -> PHH -> engine, with random choices at random moments, both muck_losers values."""
    rnd = random.Random(5)
    for i in range(80):
        n = 2 + i % 4
        rules = Rules.preset("classic" if i % 2 else "two-blind", muck_losers=bool(i % 3), parole=i % 5 != 0)
        h = Hand(rules, [40 + 10 * s for s in range(n)], i % n, seed=i)
        bots = [RandomBot(i * 7 + s) for s in range(n)]
        while not h.is_complete:
            seat = rnd.randrange(n)
            if not h.folded[seat] and rnd.random() < 0.3:
                h.set_showdown_choice(seat, rnd.choice((True, False, None)))
            action = bots[h.actor].decide(h)
            if action.kind.value == "fold" and rnd.random() < 0.7:
                action = action.check() if h.can("check") else action.call()
            h.act(action)
        again = HandHistory.loads(HandHistory.from_hand(h).dumps()).replay()
        assert again.events == h.events, i
