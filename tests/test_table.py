"""Table sessions (R4.1, R10): joins, entry bets, waiting for the blind, missed blinds, busts,
buy-in limits, clocks and the ledger, with the exact chips of every seat."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario import FLUSH, FULL, HIGH, PAIR, QUADS, TRIPS

from pokerdraw32 import EventKind, Hand, IllegalActionError, Phase, Rules
from pokerdraw32.actions import Action
from pokerdraw32.cards import DECK, parse_cards
from pokerdraw32.table import Deadline, Table, TableError

CLASSIC = Rules.preset("classic")       # sb 1, bb 2, ob 4
TWO_BLIND = Rules.preset("two-blind")


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def table(players: int, stacks: int | list[int] = 100, rules: Rules = CLASSIC, **kw) -> Table:
    kw.setdefault("seed", 1)
    kw.setdefault("min_buy_in", 1)
    t = Table(rules, **kw)
    amounts = stacks if isinstance(stacks, list) else [stacks] * players
    for seat in range(players):
        t.join(seat, f"p{seat}", amounts[seat])
    return t


def stacks(t: Table) -> list[int | None]:
    return [t.seat(s).stack if s in t.occupied else None for s in range(t.seat_count)]


def posts(t: Table) -> list[tuple[int, int, str]]:
    """(table seat, chips, blind/live/dead) of the running hand's posts."""
    h = t.hand
    assert h is not None
    return [(t.hand_seats[e.seat], e.amount, e.get("blind")) for e in h.events if e.kind is EventKind.POST_BLIND]


def fold_out(t: Table) -> int:
    """Everyone folds in turn until one player is left; returns the winner's table seat."""
    while t.actor is not None:
        t.act(t.actor, "f")
    h = t.hand
    assert h is not None and h.result is not None
    (winner,) = [t.hand_seats[i] for i in range(h.n) if not h.folded[i]]
    return winner


def stacked_deck(holes: list[str], button_index: int) -> list[str]:
    """A 32-card deck that deals ``holes[i]`` to hand seat ``i`` (R5.1: one card at a time from
    the seat left of the button), the other cards after."""
    n = len(holes)
    order = [(button_index + 1 + k) % n for k in range(n)]
    cards = [[str(c) for c in parse_cards(holes[seat])] for seat in order]
    top = [cards[k][j] for j in range(5) for k in range(n)]
    rest = [str(c) for c in DECK if str(c) not in top]
    return top + rest


def play_to_showdown(t: Table) -> None:
    """Check/call everything, everyone stands pat."""
    h = t.hand
    assert h is not None
    while t.actor is not None:
        legal = h.legal_actions()
        assert legal is not None
        if h.phase is Phase.DRAW:
            t.act(t.actor, "p")
        elif "check" in legal:
            t.act(t.actor, "k")
        elif "call" in legal:
            t.act(t.actor, "c")
        else:
            t.act(t.actor, "n")


# ----------------------------------------------------------------------------- R10.2
def test_join_mid_game_posting_the_entry_bet():
    t = table(3)
    t.start_hand()
    assert (t.button, posts(t)) == (0, [(1, 1, "small"), (2, 2, "big")])
    assert fold_out(t) == 2
    assert stacks(t)[:3] == [100, 99, 101]
    t.join(3, "dan", 100)                            # posts an entry bet (default)
    t.start_hand()
    # R4.1: the button moves to seat 1; 4 dealt in: sb 2, bb 3, ob 0; dan's bb counts toward L=4
    assert t.button == 1 and t.hand_seats == (0, 1, 2, 3)
    assert posts(t) == [(2, 1, "small"), (3, 2, "big"), (0, 4, "over"), (3, 2, "live")]
    assert fold_out(t) == 0
    assert stacks(t)[:4] == [105, 99, 100, 96]
    t.check_ledger()


def test_join_waiting_for_the_largest_blind():
    t = table(3)
    t.start_hand()
    fold_out(t)                                       # [100, 99, 101]
    t.join(3, "dan", 100, wait=True)
    assert t.seat(3).waiting
    t.start_hand()                                    # button 1; with dan the ob would be seat 0: not yet
    assert (t.button, t.hand_seats, posts(t)) == (1, (0, 1, 2), [(2, 1, "small"), (0, 2, "big")])
    assert fold_out(t) == 0                           # [101, 99, 100]
    t.start_hand()                                    # button 2; with dan the ob would be seat 1: not yet
    assert (t.button, t.hand_seats, posts(t)) == (2, (0, 1, 2), [(0, 1, "small"), (1, 2, "big")])
    assert fold_out(t) == 1                           # [100, 100, 100]
    t.start_hand()                                    # button 0: dan's seat gets the over blind
    assert (t.button, t.hand_seats) == (0, (0, 1, 2, 3))
    assert posts(t) == [(1, 1, "small"), (2, 2, "big"), (3, 4, "over")]
    assert not t.seat(3).waiting
    assert fold_out(t) == 3
    assert stacks(t) == [100, 99, 98, 103, None]
    t.check_ledger()


def test_first_hand_needs_no_entry_bet_and_a_lone_waiter_is_dealt_in():
    t = Table(CLASSIC, seed=3, min_buy_in=1)
    t.join(2, "a", 50)
    t.join(4, "b", 50, wait=True)                     # before the first hand: nobody waits
    assert not t.seat(4).waiting and not t.seat(4).entry_due
    t.start_hand()
    assert (t.button, t.hand_seats) == (2, (2, 4))
    assert posts(t) == [(4, 1, "small"), (2, 2, "big")]     # R4.3: heads-up the button posts the big blind


# ----------------------------------------------------------------------------- R10.3
def five_handed() -> Table:
    t = table(5)
    t.start_hand()                                    # button 0: sb 1, bb 2, ob 3
    assert posts(t) == [(1, 1, "small"), (2, 2, "big"), (3, 4, "over")]
    assert fold_out(t) == 3
    assert stacks(t) == [100, 99, 98, 103, 100]
    return t


def test_return_after_missing_the_small_blind_only():
    t = five_handed()
    t.sit_out(2)                                      # paid the big blind, sits out
    t.start_hand()                                    # button 1: sb 3, bb 4, ob 0; seat 2 would have been sb
    assert posts(t) == [(3, 1, "small"), (4, 2, "big"), (0, 4, "over")]
    assert t.seat(2).missed == {"small": 1}
    assert fold_out(t) == 0
    assert stacks(t) == [103, 99, 98, 102, 98]
    t.sit_in(2)
    t.start_hand()                                    # button 2 (dealt in again): R10.3 posts bb live
    assert t.button == 2
    assert posts(t) == [(3, 1, "small"), (4, 2, "big"), (0, 4, "over"), (2, 2, "live")]
    assert t.seat(2).missed == {}
    assert fold_out(t) == 0
    assert stacks(t) == [108, 99, 96, 101, 96]
    t.check_ledger()


def test_return_after_missing_the_small_and_big_blind():
    t = five_handed()
    t.sit_out(3)                                      # paid the over blind, sits out
    t.start_hand()                                    # button 1, dealt 0 1 2 4: sb 2, bb 4, ob 0
    assert posts(t) == [(2, 1, "small"), (4, 2, "big"), (0, 4, "over")]
    assert fold_out(t) == 0
    t.start_hand()                                    # button 2: sb 4, bb 0, ob 1
    assert posts(t) == [(4, 1, "small"), (0, 2, "big"), (1, 4, "over")]
    assert t.seat(3).missed == {"big": 2, "small": 1}
    assert fold_out(t) == 1
    assert stacks(t) == [101, 102, 97, 103, 97]
    t.sit_in(3)
    t.start_hand()                                    # button 3: bb live plus sb dead
    assert t.button == 3
    assert posts(t) == [(4, 1, "small"), (0, 2, "big"), (1, 4, "over"), (3, 2, "live"), (3, 1, "dead")]
    assert t.hand.pot == 10 and t.hand.dead == 1 and t.hand.bets[t.hand_seats.index(3)] == 2
    assert fold_out(t) == 1
    assert stacks(t) == [99, 108, 97, 100, 96]
    t.check_ledger()


def test_return_after_missing_all_three_blinds():
    t = five_handed()
    t.sit_out(4)
    for button, winner in ((1, 0), (2, 1), (3, 2)):  # seat 4 misses the over, big and small blind
        t.start_hand()
        assert t.button == button and t.hand_seats == (0, 1, 2, 3)
        assert fold_out(t) == winner
    assert t.seat(4).missed == {"over": 4, "big": 2, "small": 1}
    assert stacks(t) == [100, 100, 100, 100, 100]
    t.sit_in(4)
    t.start_hand()                                    # button 4: ob live plus sb + bb dead
    assert t.button == 4
    assert posts(t) == [(0, 1, "small"), (1, 2, "big"), (2, 4, "over"), (4, 4, "live"), (4, 3, "dead")]
    assert fold_out(t) == 2
    assert stacks(t) == [99, 98, 110, 100, 93]
    t.check_ledger()


def test_returning_into_the_largest_blind_pays_only_that_blind():
    t = five_handed()
    t.sit_out(4)
    for button in (1, 2, 3, 0):                       # seat 4 misses over, big and small; then nothing
        t.start_hand()
        assert t.button == button and t.hand_seats == (0, 1, 2, 3)
        fold_out(t)
    assert t.seat(4).missed == {"over": 4, "big": 2, "small": 1}
    t.sit_in(4)
    t.start_hand()                                    # button 1: sb 2, bb 3, ob 4: the blinds came round
    assert t.button == 1
    assert posts(t) == [(2, 1, "small"), (3, 2, "big"), (4, 4, "over")]
    assert t.seat(4).missed == {}
    fold_out(t)
    t.check_ledger()


# ----------------------------------------------------------------------------- R4.1 busts
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("role", ["small", "big", "button"])
def test_bust_of_a_blind_or_the_button(players, role):
    """The busted player is not dealt in (R10.4); the button moves to the next seat dealt in and the
    blinds follow it (R4.1, R4.2): positions of the next two hands stated."""
    # hand 1: button 0, sb 1, bb 2 (ob 3 with 4-5 players); the role's player holds exactly its blind
    seat = {"button": 0, "small": 1, "big": 2}[role]
    amounts = [100] * players
    amounts[seat] = {"button": 0, "small": 1, "big": 2}[role] or 100
    t = table(players, amounts)
    if role == "button":
        # the button goes all-in with its whole stack and loses to the largest blind's quads
        L_seat = 3 if players >= 4 else 2
        others = iter([TRIPS, PAIR, FULL, FLUSH])
        t.start_hand(deck=stacked_deck([HIGH if s == 0 else QUADS if s == L_seat else next(others)
                                        for s in range(players)], 0))
        h = t.hand
        while t.actor is not None:
            actor = t.actor
            legal = h.legal_actions()
            if h.phase is Phase.DRAW:
                t.act(actor, "p")
            elif actor == 0 and h.phase is Phase.FIRST_ROUND:
                t.act(actor, f"r {h.bets[0] + h.stacks[0]}")
            elif actor == L_seat:
                t.act(actor, "c" if "call" in legal else "k")
            else:
                t.act(actor, "f")
        assert t.seat(0).stack == 0
    else:
        others = iter([TRIPS, PAIR, FULL, FLUSH])
        holes = [HIGH if s == seat else QUADS if s == (seat + 1) % players else next(others) for s in range(players)]
        t.start_hand(deck=stacked_deck(holes, 0))
        play_to_showdown(t)
        assert t.seat(seat).stack == 0
    t.check_ledger()
    left = [s for s in range(players) if s != seat]
    expected = {
        # (players, role): [(button, blinds) of hand 2, of hand 3]
        (3, "small"): [(2, [0, 2]), (0, [2, 0])],           # heads-up: the button posts the big blind (R4.3)
        (3, "big"): [(1, [0, 1]), (0, [1, 0])],
        (3, "button"): [(1, [2, 1]), (2, [1, 2])],
        (4, "small"): [(2, [3, 0]), (3, [0, 2])],           # 3 dealt in: no over blind
        (4, "big"): [(1, [3, 0]), (3, [0, 1])],
        (4, "button"): [(1, [2, 3]), (2, [3, 1])],
        (5, "small"): [(2, [3, 4, 0]), (3, [4, 0, 2])],
        (5, "big"): [(1, [3, 4, 0]), (3, [4, 0, 1])],
        (5, "button"): [(1, [2, 3, 4]), (2, [3, 4, 1])],
    }[(players, role)]
    for button, blinds in expected:
        t.start_hand()
        assert t.hand_seats == tuple(left)
        assert t.button == button
        assert [p[0] for p in posts(t) if p[2] in ("small", "big", "over")] == blinds
        fold_out(t)
        t.check_ledger()
    assert sum(s for s in stacks(t) if s is not None) == sum(amounts)


def test_five_four_three_players_as_players_bust():
    """The over blind disappears when fewer than 4 are dealt in (R4.2)."""
    t = table(5, [100, 1, 100, 100, 100])
    holes = [TRIPS, HIGH, QUADS, FULL, FLUSH]
    t.start_hand(deck=stacked_deck(holes, 0))
    play_to_showdown(t)
    assert t.seat(1).stack == 0
    t.start_hand()
    assert len(t.hand_seats) == 4 and [p[2] for p in posts(t)] == ["small", "big", "over"]
    fold_out(t)
    t.leave(3)
    t.start_hand()
    assert len(t.hand_seats) == 3 and [p[2] for p in posts(t)] == ["small", "big"]
    fold_out(t)
    t.check_ledger()


# ----------------------------------------------------------------------------- R10.1 chips
def test_buy_in_limits_and_rebuys():
    t = Table(CLASSIC, seed=1)                        # no-limit: 20·sb = 20 to 100·bb = 200
    assert (t.min_buy_in, t.max_buy_in) == (20, 200)
    with pytest.raises(TableError, match=r"buy-in of 19 is below the minimum 20 \[R10\.1\]"):
        t.join(0, "a", 19)
    with pytest.raises(TableError, match=r"0 \+ 201 chips would exceed the maximum 200 \[R10\.1\]"):
        t.join(0, "a", 201)
    t.join(0, "a", 150)
    t.join(1, "b", 20)
    with pytest.raises(TableError, match=r"150 \+ 51 chips would exceed the maximum 200 \[R10\.1\]"):
        t.add_chips(0, 51)
    t.add_chips(0, 50)
    assert t.seat(0).stack == 200
    t.start_hand()
    with pytest.raises(TableError, match=r"chips may be added between hands only \[R3\.6\]"):
        t.add_chips(1, 1)
    fold_out(t)
    t.add_chips(1, 1)
    assert [e.kind for e in t.ledger] == ["buy_in", "buy_in", "add", "hand", "hand", "add"]
    t.check_ledger()
    fl = Table(Rules(structure="fixed-limit"))
    assert (fl.min_buy_in, fl.max_buy_in) == (80, None)  # 10 × the second-round bet 2·L (L = 4)
    pl = Table(Rules(structure="pot-limit", sb=5))
    assert (pl.min_buy_in, pl.max_buy_in) == (100, 1000)


def test_busted_player_rebuys_at_least_the_minimum():
    t = Table(CLASSIC, seed=1, min_buy_in=20)
    t.join(0, "a", 20)
    t.join(1, "b", 20)
    t.join(2, "c", 20)
    t._seats[2].stack = 0     # as after a bust (chips moved to a: keep the ledger honest below)
    t._seats[0].stack = 40
    with pytest.raises(TableError, match=r"buy-in of 5 is below the minimum 20 \[R10\.1\]"):
        t.add_chips(2, 5)
    t.add_chips(2, 20)
    t.start_hand()
    assert t.hand_seats == (0, 1, 2)


def test_leaving_pays_out_and_the_ledger_balances():
    t = table(3)
    t.start_hand()
    assert t.leave(1) is None                         # dealt in: leaves when the hand ends
    assert t.seat(1).leaving
    fold_out(t)
    assert 1 not in t.occupied
    assert next(e for e in t.ledger if e.kind == "cash_out").chips == 99
    assert t.leave(0) == 100
    t.check_ledger()
    assert t.chips_on_table == 101
    with pytest.raises(TableError, match="at least 2 players"):
        t.start_hand()


# ----------------------------------------------------------------------------- clocks (R6.3, R7.3)
def test_timeouts_in_each_phase_with_a_fake_clock():
    clock = FakeClock()
    t = table(3, clock=clock, decision_time=30, raise_time=10)
    t.start_hand()
    assert t.deadline == Deadline(0, 10.0, 30.0)
    with pytest.raises(TableError, match="nothing is due at 0: raise limit at 10, decision deadline at 30"):
        t.expire(0)
    with pytest.raises(TableError, match=r"seat 1 is not to act \(seat 0 is\)"):
        t.expire(1)
    clock.now = 10
    ev = t.expire(0)                                  # R7.3: the right to raise is withdrawn
    assert ev.kind is EventKind.RAISE_WITHDRAWN
    assert not {"raise", "bet"} & {k.value for k in t.hand.legal_actions().kinds}
    assert t.deadline == Deadline(0, None, 30.0)
    t.act(0, "c")
    assert t.deadline == Deadline(1, 20.0, 40.0)
    t.act(1, "c")
    t.act(2, "k")
    assert t.hand.phase is Phase.DRAW and t.deadline == Deadline(1, None, 40.0)   # no raise clock in the draw
    clock.now = 40
    t.expire(1)                                       # R6.3: stands pat, may not bet later
    assert t.hand.discarded[1] == 0
    t.act(2, "p")
    t.act(0, "p")
    assert t.hand.phase is Phase.SECOND_ROUND and t.actor == 0          # R7.1: left of the big blind
    clock.now = 80
    assert t.expire(0).kind is EventKind.CHECK        # R7.3: nothing owed -> check
    assert {k.value for k in t.hand.legal_actions().kinds} == {"check", "fold"}   # R6.3: seat 1 may not bet
    t.act(1, "k")
    t.act(2, "b 4")
    clock.now = 200
    assert t.expire(0).kind is EventKind.FOLD         # R7.3: owes 4 -> fold
    assert t.actor == 1
    with pytest.raises(IllegalActionError, match=r"R6\.3"):
        t.act(1, "r 8")                               # no raising after a draw timeout
    t.act(1, "c")
    assert t.hand is not None and t.hand.is_complete and t.deadline is None
    t.check_ledger()


# ----------------------------------------------------------------------------- bad input
def test_bad_table_calls_change_nothing():
    t = table(3)
    before = (stacks(t), list(t.ledger))
    for call, message in [
        (lambda: t.join(1, "x", 50), "seat 1 is taken by 'p1'"),
        (lambda: t.join(5, "x", 50), r"no seat 5 at this table \(seats 0\.\.4\)"),
        (lambda: t.join(3, "p0", 50), "the name 'p0' is already seated"),
        (lambda: t.join(3, "", 50), "a player name is 1 to 64 printable characters"),
        (lambda: t.join(3, "a\nb", 50), "a player name is 1 to 64 printable characters"),
        (lambda: t.join(3, " a", 50), "without surrounding spaces"),
        (lambda: t.join(3, "x", 0), r"0 is not a number of chips from 1 to 9007199254740991 \[R3\.2\]"),
        (lambda: t.join(3, "x", 2.5), r"2\.5 is not a number of chips"),
        (lambda: t.add_chips(4, 5), "seat 4 is empty"),
        (lambda: t.act(0, "c"), "no hand is running"),
        (lambda: t.expire(0), "no hand is running"),
        (lambda: t.sit_out(True), "no seat True"),
    ]:
        with pytest.raises(TableError, match=message):
            call()
        assert (stacks(t), list(t.ledger)) == before
    t.start_hand()
    with pytest.raises(TableError, match="a hand is running"):
        t.start_hand()
    with pytest.raises(IllegalActionError, match="out of turn"):
        t.act(1, "c")
    with pytest.raises(TableError, match="seat 3 is not dealt in to this hand"):
        t.act(3, "c")
    for bad in [dict(seats=6), dict(seats=1), dict(min_buy_in=0), dict(min_buy_in=50, max_buy_in=40),
                dict(decision_time=0), dict(raise_time=-1), dict(clock=5), dict(raise_time=40, decision_time=30),
                dict(history="no"), dict(seed=-1), dict(seed="x")]:
        with pytest.raises(ValueError):
            Table(CLASSIC, **bad)


# ----------------------------------------------------------------------------- random sessions
RULES_CHOICES = [CLASSIC, TWO_BLIND, Rules(structure="pot-limit"), Rules.preset("two-blind", structure="fixed-limit"),
                 Rules(sb=2, bb=5, ob=10), Rules(heads_up_button_posts_small=True, second_round_first="after_button")]


def assert_table_views_do_not_leak(t: Table, dealt: dict[int, str] | None = None) -> None:
    """Every seat's table view and event stream, serialised: no card but its own (and shown ones).
    ``dealt`` names the player dealt in at each seat of the hand (default: the players seated
    now): a seat's own cards are its cards only while that player still sits there."""
    import json
    import re

    h = t.hand
    shown = {str(c) for cards in (h.result.shown.values() if h is not None and h.result else ()) for c in cards}
    if dealt is None:
        dealt = {s: t.seat(s).name for s in t.hand_seats if s in t.occupied}
    for seat in [None, *range(t.seat_count)]:
        text = json.dumps(t.view(seat))
        if h is not None:
            text += json.dumps([e.to_dict() for e in t.events_for(seat)])
        own: set[str] = set()
        still_there = seat in t.occupied and dealt.get(seat) == t.seat(seat).name
        if h is not None and seat in t.hand_seats and still_there:
            i = t.hand_seats.index(seat)
            own = {str(c) for e in h.events if e.seat == i and e.kind in (EventKind.DEAL_HOLE, EventKind.DEAL_DRAW)
                   for c in e.cards}
        leaked = set(re.findall(r"\b[789TJQKA][shdc]\b", text)) - own - shown
        assert not leaked, (seat, leaked)


def random_session(rules: Rules, seed: int, hands: int, *, check_views: bool = False,
                   observe: Callable[[Table], None] | None = None) -> int:
    """Random joins (posting or waiting), leaves (also mid-hand), sit-outs, returns, rebuys and
    timeouts.  After every hand the ledger balances and nobody was dealt in with an empty stack
    (R10.4); the blinds are posted by the seats R4.1/R4.2 name; after the joins and leaves between
    hands, no seat's view or events show the last hand's hidden cards (a player who left, or a
    new one in their seat, sees what an onlooker sees).  ``check_views``: also at every step of
    every hand.  ``observe(table)`` is called after every change.  Returns the hands played."""
    from pokerdraw32.bots import RandomBot

    rnd = random.Random(seed)
    clock = FakeClock()
    t = Table(rules, seed=seed, clock=clock, decision_time=5, raise_time=2, min_buy_in=10, max_buy_in=300,
              seats=rnd.randint(2, 5), history=False)
    names = iter(f"p{i}" for i in range(10_000))
    bots = {}
    played = 0
    dealt: dict[int, str] = {}
    seen = observe or (lambda t: None)
    for _step in range(hands * 2):
        for seat in range(t.seat_count):
            x = rnd.random()
            if seat not in t.occupied:
                if x < 0.5:
                    t.join(seat, next(names), rnd.randint(10, 300), wait=rnd.random() < 0.3)
                    bots[seat] = RandomBot(rnd.getrandbits(32))
            elif x < 0.05:
                assert t.leave(seat) is not None
            elif x < 0.12:
                t.sit_out(seat)
            elif x < 0.3:
                t.sit_in(seat)
            elif t.seat(seat).stack == 0 and x < 0.6:
                t.add_chips(seat, rnd.randint(10, 300))
            seen(t)
        if t.hand is not None:
            assert_table_views_do_not_leak(t, dealt)
        try:
            h = t.start_hand()
        except TableError as exc:
            assert "at least 2 players" in str(exc)
            continue
        played += 1
        seen(t)
        seats = t.hand_seats
        dealt = {s: t.seat(s).name for s in seats}
        assert all(t.seat(s).stack > 0 for s in seats)                  # R10.4
        assert seats == tuple(sorted(seats)) and t.button in seats       # R4.1
        blinds = [t.hand_seats[e.seat] for e in h.events
                  if e.kind is EventKind.POST_BLIND and e.get("blind") in ("small", "big", "over")]
        assert blinds == t._blind_seats(list(seats), t.button)          # R4.2, R4.3
        while t.actor is not None:
            seat = t.actor
            x = rnd.random()
            if x < 0.05:
                clock.now = t.deadline.act_at
                t.expire(seat)
            elif x < 0.08 and t.deadline.raise_at is not None:
                clock.now = t.deadline.raise_at
                t.expire(seat)
            else:
                if x < 0.1 and rnd.random() < 0.5:
                    assert t.leave(seat) is None                        # leaves at the end of the hand
                t.act(seat, bots[seat].decide(h))
            if x > 0.9 and t.actor is not None and rnd.random() < 0.3:
                other = t.hand_seats[rnd.randrange(h.n)]
                if not h.folded[t.hand_seats.index(other)]:
                    t.set_showdown_choice(other, rnd.choice([True, False, None]))      # R9.3
            seen(t)
            clock.now += 1
            if check_views:
                assert_table_views_do_not_leak(t, dealt)
        assert h.is_complete and t.deadline is None
        t.check_ledger()
        if played == hands:
            break
    return played


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULES_CHOICES), st.integers(0, 2**32 - 1))
def test_random_sessions_keep_the_ledger_balanced(rules, seed):
    """A thousand random sessions of up to 6 hands."""
    random_session(rules, seed, 6)


@pytest.mark.parametrize("rules", RULES_CHOICES[:4])
def test_long_random_sessions(rules):
    assert sum(random_session(rules, seed, 60, check_views=seed == 0) for seed in range(3)) > 100


# ----------------------------------------------------------------------------- session snapshots
def test_session_snapshot_restores_and_continues_identically():
    """A table restored from its JSON snapshot (between hands and in the middle of hands) runs on
    exactly as the original: same seats, missed blinds, button, ledger, cards and deadlines."""
    import json

    from pokerdraw32.bots import RandomBot

    rnd = random.Random(5)
    clock = FakeClock()
    a = Table(CLASSIC, seed=9, clock=clock, raise_time=3, decision_time=8, min_buy_in=10, max_buy_in=300)
    for seat in range(4):
        a.join(seat, f"p{seat}", rnd.randint(10, 300))
    bots = {seat: RandomBot(seat) for seat in range(5)}

    def twin(t: Table) -> Table:
        b = Table.restore(json.loads(json.dumps(t.snapshot())), clock=clock)
        assert b.snapshot() == t.snapshot()
        return b

    b = twin(a)
    for hand in range(40):
        if hand == 5:
            for t in (a, b):
                t.sit_out(1)
        if hand == 9:
            for t in (a, b):
                t.join(4, "late", 100, wait=True)
                t.sit_in(1)
        for t in (a, b):
            t.start_hand()
        assert a.snapshot() == b.snapshot()
        while a.actor is not None:
            seat = a.actor
            if rnd.random() < 0.2:
                b = twin(a)
            if rnd.random() < 0.05:
                clock.now = a.deadline.act_at
                evs = [t.expire(seat) for t in (a, b)]
            else:
                action = bots[seat].decide(a.hand)
                evs = [t.act(seat, action) for t in (a, b)]
            assert evs[0] == evs[1]
            clock.now += 1
        assert a.snapshot() == b.snapshot()
        for t in (a, b):
            for seat in t.occupied:
                if t.seat(seat).stack == 0:
                    t.add_chips(seat, 50)
    assert [e.to_dict() for e in a.ledger] == [e.to_dict() for e in b.ledger]
    assert b.seat(1).missed == {} and a.hand_count == 40


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(format="x"), "not a table snapshot"),
    (lambda s: s.update(version=2), "table snapshot version 2 cannot be read"),
    (lambda s: s.pop("ledger"), "field 'ledger' is missing"),
    (lambda s: s.update(hand_count="2"), "field 'hand_count'"),
    (lambda s: s["seats"][0].update(missed={"big": "x"}), "missed 'big' 'x' is not a blind of this table"),
    (lambda s: s["seats"][0].update(missed={"big": -2}), "missed 'big' -2 is not a blind"),
    (lambda s: s["seats"][0].update(sitting_out="yes"), "seat field 'sitting_out'"),
    (lambda s: s["seats"][1].update(name="p0"), "the name 'p0' appears twice"),
    (lambda s: s["seats"].append(dict(s["seats"][0], name="z")), "seat 0 appears twice"),
    (lambda s: s["ledger"][0].update(chips=100.0), "ledger chips 100.0 is not an integer"),
    (lambda s: s["ledger"][0].update(kind="gift"), "ledger kind 'gift'"),
    (lambda s: s.update(deadline={"seat": 0, "raise_at": None, "act_at": 3}), "a deadline but no running hand"),
    (lambda s: s["seats"][0].update(stack=5000), "seat 0: 'p0' with 5000 chips, the ledger says 'p0' with 100"),
    (lambda s: s["seats"][0].update(seat=9), "no seat 9"),
    (lambda s: s["rules"].update(sb=0), "field 'rules': sb=0 must be a positive number of chips"),
    (lambda s: s["rules"].pop("structure"), "'rules': missing structure"),
    (lambda s: s.update(extra=1), "'extra' is not a field of a table snapshot"),
    (lambda s: s["ledger"].append(dict(s["ledger"][0], kind="cash_out", hand=1, chips=7)),
     "pays out 7 chips, the player has"),
    (lambda s: s["ledger"][0].update(seat=4), r"ledger line 3 \(hand, seat 0, 'p0'\): 'p0' is not seated there"),
    (lambda s: s["ledger"][-1].update(hand=0), "hand number 0 is out of order"),
])
def test_bad_table_snapshots(change, message):
    t = table(3)
    t.start_hand()
    fold_out(t)
    snap = t.snapshot()
    change(snap)
    with pytest.raises(ValueError, match=message):
        Table.restore(snap)


def test_session_history_replays_every_stack(tmp_path):
    """R10 hands (entry bets, missed blinds live and dead, waiting players) written as one .phhs
    file with seat numbers and names; replaying it reproduces every hand's stacks."""
    from pokerdraw32.bots import RuleBot
    from pokerdraw32.history import load_all

    t = Table(CLASSIC, seed=3, min_buy_in=10, max_buy_in=300, history=True)
    for seat in range(3):
        t.join(seat, f"p{seat}", 100)
    bots = {seat: RuleBot(seat) for seat in range(5)}
    for hand in range(30):
        if hand == 3:
            t.join(3, "entry", 100)
        if hand == 4:
            t.join(4, "waiter", 100, wait=True)
        if hand in (6, 12):
            t.sit_out(1)
        if hand in (10, 16):
            t.sit_in(1)
        for seat in t.occupied:
            if t.seat(seat).stack == 0:
                t.add_chips(seat, 100)
        h = t.start_hand()
        while t.actor is not None:
            t.act(t.actor, bots[t.actor].decide(h))
    path = tmp_path / "session.phhs"
    with open(path, "w", encoding="utf-8") as f:
        assert t.write_history(f) == 30
    dead = 0
    for (number, hand, seats, names), hh in zip(t.hands, load_all(path), strict=True):
        replayed = hh.replay()
        assert hh.number == number and replayed.result.stacks == hand.result.stacks
        assert replayed.events == hand.events
        assert list(hh.players) == [names[i] for i in _position_order(hand)]
        assert list(hh.seats) == [seats[i] + 1 for i in _position_order(hand)]
        dead += hand.dead
    assert dead > 0                                    # missed blinds were charged dead (R10.3)


def _position_order(hand):
    from pokerdraw32.phh import position_seats

    return position_seats(hand.n, hand.button)


@pytest.mark.parametrize("posts, message", [
    ({0: (5, 0)}, r"a live post of 5 is more than the largest blind 4 \[R10\.2, R10\.3\]"),
    ({2: (3, 0)}, r"seat 2 posts 2 as a blind and 3 live, more than the largest blind 4"),
    ({7: (1, 0)}, r"posts: 7 is not a seat 0\.\.3"),
    ({0: (1,)}, r"seat 0 must post \(live, dead\) chips"),
    ({0: (1, -1)}, r"seat 0: dead -1 is not a number of chips \[R3\.2\]"),
    ({0: (True, 0)}, "seat 0: live True is not a number of chips"),
    ([(0, 1, 1)], "posts must map seats to"),
])
def test_hand_posts_are_validated(posts, message):
    from pokerdraw32 import Hand, RulesError

    with pytest.raises(RulesError, match=message):
        Hand(CLASSIC, [50] * 4, 0, seed=1, posts=posts)


def test_hand_posts_short_stack_posts_live_then_dead():
    """R4.5 for posts: live chips first, then dead ones, all-in at worst; dead money is in the main
    pot and the hand's chips add up (R9.5)."""
    from pokerdraw32 import Hand

    h = Hand(CLASSIC, [50, 50, 50, 3], 0, seed=1, posts={3: (0, 3)})   # seat 3 owes the over blind 4
    assert [(e.seat, e.amount, e.get("blind")) for e in h.events if e.kind is EventKind.POST_BLIND] == [
        (1, 1, "small"), (2, 2, "big"), (3, 3, "over")]                # the blind takes the whole stack
    assert h.dead == 0
    h = Hand(CLASSIC, [50, 50, 50, 50, 4], 0, seed=1, posts={4: (4, 3)})
    assert [(e.seat, e.amount, e.get("blind")) for e in h.events if e.kind is EventKind.POST_BLIND][3:] == [
        (4, 4, "live")]                                                 # nothing left for the dead part
    assert h.stacks[4] == 0 and h.dead == 0
    h = Hand(CLASSIC, [50, 50, 50, 50, 6], 0, seed=1, posts={4: (4, 3)})
    assert (h.stacks[4], h.bets[4], h.dead, h.pot) == (0, 4, 2, 13)



def running_table_snapshot() -> tuple[Table, dict]:
    clock = FakeClock()
    t = table(3, clock=clock)
    t.start_hand()
    t.act(0, "c")
    return t, t.snapshot()


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(hand_seats=[1, 0, 2]), "seats are not occupied table seats in order"),
    (lambda s: s["seats"][0].update(stack=90), "stacks are not the running hand's starting stacks|out of balance"),
    (lambda s: s.update(button=2), "the button is seat 2, the running hand's is 0"),
    (lambda s: s["rules"].update(structure="fixed-limit", cap=4), "running hand's rules are not the table's"),
    (lambda s: s.update(deadline=None), "'deadline' must be given exactly when a player is to act"),
    (lambda s: s["deadline"].update(act_at="soon"), "deadline act_at must be a finite number of seconds .* got 'soon'"),
    (lambda s: s["deadline"].update(seat=0), "the deadline is for seat 0, seat 1 is to act"),
    (lambda s: s.update(hand=None), "a deadline but no running hand"),
])
def test_tampered_running_table_snapshots(change, message):
    _t, snap = running_table_snapshot()
    change(snap)
    with pytest.raises(ValueError, match=message):
        Table.restore(snap)


def test_finished_hand_in_a_table_snapshot_is_refused():
    t = table(3)
    t.start_hand()
    fold_out(t)
    snap = t.snapshot()
    assert snap["hand"] is None
    h = t.hand
    snap["hand"] = h.snapshot()
    with pytest.raises(TableError, match="the running hand is already over"):
        Table.restore(snap)


@pytest.mark.parametrize("bad_clock, message", [
    (lambda: 1 / 0, "the table clock failed: ZeroDivisionError"),
    (lambda: "12:00", r"the table clock must return a finite number of seconds from 0 to 2\*\*53, got '12:00'"),
    (lambda: None, "got None"),
    (lambda: float("nan"), "got nan"),
    (lambda: True, "got True"),
    (lambda: 10**400, "got <int of 1329 bits>"),
    (lambda: float("inf"), "got inf"),
    (lambda: float("-inf"), "got -inf"),
    (lambda: -1.0, "got -1.0"),
    (lambda: -5, "got -5"),
    (lambda: 2**60, "got 1152921504606846976"),
    (lambda: 1e300, "got 1e[+]?300"),
    (lambda: 3 + 0j, r"got \(3\+0j\)"),
])
def test_a_failing_clock_changes_nothing(bad_clock, message):
    t, snap = running_table_snapshot()
    good = t.clock
    for call in (lambda: t.act(1, "c"), lambda: t.expire(1), t.snapshot):
        t.clock = bad_clock
        with pytest.raises(TableError, match=message):
            call()
        t.clock = good
        assert t.snapshot() == snap
    t2 = table(3, clock=good)
    before = t2.snapshot()
    t2.clock = bad_clock
    with pytest.raises(TableError, match=message):
        t2.start_hand()
    t2.clock = good
    assert t2.snapshot() == before


def test_chips_on_the_table_stay_below_the_largest_amount():
    from pokerdraw32.errors import MAX_CHIPS

    t = Table(Rules(structure="fixed-limit"), min_buy_in=1)          # no maximum buy-in
    t.join(0, "a", MAX_CHIPS - 100)
    with pytest.raises(TableError, match=r"would put more than 9007199254740991 chips on the table \[R3\.2\]"):
        t.join(1, "b", 101)
    t.join(1, "b", 100)
    with pytest.raises(TableError, match="more than 9007199254740991 chips"):
        t.add_chips(1, 1)
    t.start_hand()
    fold_out(t)
    Table.restore(t.snapshot())



def test_restore_keeps_the_time_left_to_act():
    clock = FakeClock()
    clock.now = 100.0
    t = table(3, clock=clock, raise_time=10, decision_time=30)
    t.start_hand()
    clock.now = 105.0
    snap = t.snapshot()
    assert snap["clock"] == 105.0
    other = FakeClock()
    other.now = 7.0                                    # a new process: another clock
    again = Table.restore(snap, clock=other)
    assert again.deadline == Deadline(0, 5.0 + 7.0, 25.0 + 7.0)   # 5 s to the raise limit, 25 s to act
    with pytest.raises(TableError, match="nothing is due"):
        again.expire(0)


def test_table_views_and_events_use_table_seats():
    """A server shows each seat the table in table seat numbers; nothing hidden leaks."""
    import json
    import re

    t = Table(CLASSIC, seed=8, min_buy_in=1)
    for seat, name in [(1, "a"), (3, "b"), (4, "c")]:
        t.join(seat, name, 50)
    t.join(0, "away", 50)
    assert t.view()["hand"] is None
    t.sit_out(0)
    h = t.start_hand()
    assert t.hand_seats == (1, 3, 4) and t.button == 1
    v = t.view(3)
    assert v["to_act"] == 1 and v["hand"]["to_act"] == 1 and v["hand"]["button"] == 1
    assert v["hand"]["blinds"] == [3, 4]
    assert [p["seat"] for p in v["hand"]["players"]] == [1, 3, 4]
    assert v["hand"]["cards"] == [str(c) for c in h.hole_cards(1)]        # hand seat 1 is table seat 3
    assert v["hand"]["legal"] is None
    assert t.view(1)["hand"]["legal"]["seat"] == 1
    for seat in [None, 0, 1, 2, 3, 4]:
        text = json.dumps(t.view(seat)) + json.dumps([e.to_dict() for e in t.events_for(seat)])
        own = {str(c) for c in h.hole_cards(t.hand_seats.index(seat))} if seat in t.hand_seats else set()
        assert set(re.findall(r"\b[789TJQKA][shdc]\b", text)) <= own
    while t.actor is not None:
        t.act(t.actor, "f")
    award = next(e for e in t.events_for(None) if e.kind is EventKind.AWARD)
    assert award.get("winners") == (4,) and t.view()["hand"]["pots"][0]["winners"] == [4]
    assert [e.seat for e in t.events_for(0) if e.kind is EventKind.FOLD] == [1, 3]


# ----------------------------------------------------------------------------- review findings
def test_chips_moved_between_seats_in_a_table_snapshot_are_refused():
    """The totals still balance, so check_ledger() alone passed: the seats must be what the
    ledger says, player by player (R9.5), between hands and with a hand running (where the
    running hand's starting stacks, edited to match, replay fine)."""
    t = table(3)
    t.start_hand()
    fold_out(t)
    snap = t.snapshot()
    snap["seats"][0]["stack"] += 90
    snap["seats"][1]["stack"] -= 90
    with pytest.raises(TableError, match=r"seat 0: 'p0' with 1\d\d chips, the ledger says 'p0' with \d+ \[R9\.5\]"):
        Table.restore(snap)
    _t, running = running_table_snapshot()
    running["seats"][0]["stack"] += 90
    running["seats"][1]["stack"] -= 90
    for chips in (running["hand"]["starting_stacks"], running["hand"]["stacks"]):
        chips[0] += 90
        chips[1] -= 90
    Hand.restore(running["hand"])                         # the hand alone is a reachable state
    with pytest.raises(TableError, match=r"seat 0: 'p0' with 190 chips, the ledger says 'p0' with 100 \[R9\.5\]"):
        Table.restore(running)


def test_a_new_player_in_a_vacated_seat_sees_nothing_of_the_last_hand():
    """Everyone folds to seat 2, who leaves; eve sits there.  Neither the empty seat nor eve
    may see the unshown cards of the player who sat there, nor anyone's folded cards."""
    import json
    import re

    t = table(3, seed=5)
    h = t.start_hand()
    winner = fold_out(t)
    assert winner == 2 and not h.result.shown
    mine = {str(c) for c in h.hole_cards(t.hand_seats.index(2))}
    seen = {str(c) for e in t.events_for(2) for c in e.cards}
    assert seen == mine                                  # the player, while seated, sees their cards
    t.leave(2)
    for who in ("vacant", "eve"):
        if who == "eve":
            t.join(2, "eve", 100)
        view, events = t.view(2), t.events_for(2)
        text = json.dumps(view) + json.dumps([e.to_dict() for e in events])
        assert not re.findall(r"\b[789TJQKA][shdc]\b", text), who
        assert view["hand"].get("cards") is None and view["hand"].get("legal") is None
        assert events == t.events_for(None)
    assert t.view(0)["hand"]["players"][2]["name"] == "p2"      # the hand part names who played


def test_a_table_view_shows_one_stack_per_player_and_the_names():
    t = table(3, 200)
    t.start_hand()
    t.act(0, "r 10")
    v = t.view(1)
    seats = {s["seat"]: s for s in v["seats"]}
    players = {p["seat"]: p for p in v["hand"]["players"]}
    assert seats[0]["stack"] == players[0]["stack"] == 190       # the stack behind the bet
    assert {s: p["name"] for s, p in players.items()} == {0: "p0", 1: "p1", 2: "p2"}
    assert t.seat(0).stack == 200                                # the stack before the hand
    for seat in seats:
        assert seats[seat]["stack"] == players[seat]["stack"]


def test_snapshot_ledger_from_writes_only_the_later_lines() -> None:
    t = Table(Rules(), seed=3)
    for seat in range(3):
        t.join(seat, f"p{seat}", 100)
    h = t.start_hand()
    while not h.is_complete:
        t.act(t.actor, "f" if "fold" in [k.value for k in h.legal_actions().kinds] else "k")
    full = t.snapshot()
    assert len(full["ledger"]) == 6
    for k in range(7):
        part = t.snapshot(ledger_from=k)
        assert part["ledger"] == full["ledger"][k:]
        assert {**part, "ledger": full["ledger"], "clock": 0} == {**full, "clock": 0}
    for bad in (-1, 7, True, 1.0, "2"):
        with pytest.raises(TableError, match="ledger_from"):
            t.snapshot(ledger_from=bad)   # type: ignore[arg-type]


def _in_table_seats(h, t):
    """Hand.public_view() as a table shows it: table seat numbers, the players' names, the keys a
    table shows (the reference for the compiled table view, HandState._table_view)."""
    v, hs = h.public_view(), t.hand_seats
    names = [t.seat(s).name for s in hs]
    pots = []
    for pot in v["pots"]:
        pot = dict(pot)
        pot["eligible"] = [hs[x] for x in pot["eligible"]]
        if "winners" in pot:
            pot["winners"] = [hs[x] for x in pot["winners"]]
        pots.append(pot)
    return {"phase": v["phase"], "pot": v["pot"], "parole_open": v["parole_open"], "stub_count": v["stub_count"],
            "serial": v["serial"], "button": hs[v["button"]], "blinds": [hs[x] for x in v["blinds"]],
            "to_act": None if v["to_act"] is None else hs[v["to_act"]],
            "players": [{"seat": hs[i], "name": names[i], "stack": v["stacks"][i], "bet": v["bets"][i],
                         "folded": v["folded"][i], "all_in": v["all_in"][i], "discarded": v["discarded"][i]}
                        for i in range(h.n)],
            "shown": [{"seat": hs[x["seat"]], "cards": x["cards"]} for x in v["shown"]], "pots": pots}


def test_dealer_events_are_the_hand_s_own_when_hand_seats_are_table_seats():
    """Hand seats 0..n-1 at table seats 0..n-1: Table.dealer_events gives the hand's events as they
    are (no rebuild); at other seats each event in table seats, award winners included."""
    for seats, expected in [((0, 1, 2), (0, 1, 2)), ((0, 2, 4), (0, 2, 4))]:
        t = Table(CLASSIC, seed=5, min_buy_in=1)
        for seat in seats:
            t.join(seat, f"p{seat}", 50)
        h = t.start_hand()
        assert t.hand_seats == expected
        while t.actor is not None:
            t.act(t.actor, "f")
        mapped = [(e.kind, None if e.seat is None else expected[e.seat], e.amount, e.cards,
                   tuple((k, tuple(expected[x] for x in v) if k == "winners" else v) for k, v in e.info))
                  for e in h.events]
        for start in (0, 3, h.serial):
            got = t.dealer_events(start)
            assert [(e.kind, e.seat, e.amount, e.cards, e.info) for e in got] == mapped[start:]
            if seats == (0, 1, 2):
                assert all(a is b for a, b in zip(got, h.events[start:], strict=True))


def test_views_of_every_seat_at_once_equal_each_seat_s_view():
    """Table.views (the server's state for every seat after each change, the public part computed
    once) equals view() seat by seat, in every situation of a session: between hands, each turn
    (blinds, betting, the draw, Parole), a seat sitting out, a vacant seat, a busted player; each
    seat's own part is Hand.view's for its hand seat, and a view's top level is its own.  The
    hand's part, built in one call (HandState._table_view), is Hand.public_view in table seats,
    side pots (R9.1) and shown hands (R9.3) included."""
    import json

    rng = random.Random(3)
    t = Table(CLASSIC, seed=21, min_buy_in=1)
    for seat, name in [(0, "a"), (1, "b"), (3, "c"), (4, "d")]:
        t.join(seat, name, rng.choice([6, 30, 80]))
    seats = [None, 0, 1, 2, 3, 4]
    checked = side_pots = shown_hands = 0
    for _ in range(25):
        for s in (0, 1, 3, 4):
            if t.seat(s).stack == 0:
                t.add_chips(s, 40)
        if rng.random() < 0.2:
            (t.sit_in if t.seat(1).sitting_out else t.sit_out)(1)
        if not t.can_start_hand():
            continue
        h = t.start_hand()
        while True:
            together = t.views(seats)
            assert json.dumps(together) == json.dumps([t.view(s) for s in seats])
            assert json.dumps(together[0]["hand"]) == json.dumps(_in_table_seats(h, t))
            for s, v in zip(seats, together, strict=True):
                if s in t.hand_seats:
                    own = h.view(t.hand_seats.index(s))
                    assert v["hand"]["cards"] == own["cards"] and v["hand"]["showdown_choice"] == own["showdown_choice"]
                    assert (v["hand"]["legal"] is None) == (own["legal"] is None)
                else:
                    assert "cards" not in v["hand"] and "legal" not in v["hand"]
            del together[0]["deadline"]
            together[0]["hand"]["pot"] = -1
            assert all("deadline" in v for v in together[1:]) and together[1]["hand"]["pot"] >= 0
            checked += 1
            if h.actor is None:
                break
            legal = h.legal_actions()
            actor = t.hand_seats[h.actor]
            if "discard" in legal:
                t.act(actor, Action.discard(legal.hole_cards[:rng.randrange(3)]))
            elif legal.min_to is not None and rng.random() < 0.2:
                t.act(actor, Action.raise_to(legal.min_to) if "raise" in legal else Action.bet(legal.min_to))
            else:
                t.act(actor, rng.choice(sorted(k.value for k in legal.kinds if k.value not in ("bet", "raise"))))
        assert json.dumps(t.views(seats)) == json.dumps([t.view(s) for s in seats])
        assert json.dumps(t.view(None)["hand"]) == json.dumps(_in_table_seats(h, t))   # complete: pots awarded
        side_pots += len(h.result.pots) > 1 if h.result is not None else 0
        shown_hands += bool(h.result is not None and h.result.shown)
    assert checked > 100 and side_pots and shown_hands
    with pytest.raises(TableError):
        t.views([0, 7])
