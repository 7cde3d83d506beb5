"""Parole, the split by agreement of the second round (R8), with exact chip counts.

Hands are dealt explicitly (``auto_deal=False``); every finished hand checks the final
stack of every seat and chip conservation (R9.5).
"""

from __future__ import annotations

import pytest
import scenario
from scenario import (
    CLASSIC,
    FLUSH,
    FULL,
    HIGH,
    PAIR,
    QUADS,
    TRIPS,
    TWO_BLIND,
    assert_final,
    shows,
    stand_pat_all,
)

from pokerdraw32 import ActionKind, EventKind, Hand, IllegalActionError, Phase, Rules

HANDS = [QUADS, FLUSH, FULL, TRIPS, PAIR]


def new_hand(rules: Rules, stacks, button: int, holes, *, seed: int = 11) -> Hand:
    return scenario.new_hand(rules, stacks, button, holes, seed=seed)


def four_handed_pot_14(rules=CLASSIC, holes=None) -> Hand:
    """Classic, 4 players, button 0 (blinds 1, 2, 4 by seats 1, 2, 3): seats 0 and 1 call,
    the big blind (seat 2) folds its 2, the over blind checks: pot 14, three players."""
    h = new_hand(rules, [100] * 4, 0, holes or {0: FLUSH, 1: FULL, 2: QUADS, 3: TRIPS})
    h.call(seat=0)
    h.call(seat=1)
    h.fold(seat=2)
    h.check(seat=3)
    stand_pat_all(h)
    assert h.phase is Phase.SECOND_ROUND and h.pot == 14
    return h


# ----------------------------------------------------------------------------- R8.1, R8.3
def test_r8_1_r8_3_all_agree_pot_shared_odd_chips_from_left_of_button():
    """Pot 14 shared by seats 0, 1, 3: 4 each, the 2 odd chips one at a time from the left of
    the button (R9.4): seat 1, (seat 2 folded), seat 3 -- not seat 0."""
    h = four_handed_pot_14()
    assert h.actor == 0                     # left of the over blind (seat 3)
    legal = h.legal_actions()
    assert ActionKind.SPLIT in legal.kinds and ActionKind.CHECK in legal.kinds
    h.split(seat=0)
    assert ActionKind.SPLIT in h.legal_actions().kinds
    h.split(seat=1)
    h.split(seat=3)
    assert_final(h, [100, 101, 98, 101])
    (pot,) = h.result.pots
    assert (pot.amount, pot.eligible, pot.winners, pot.shared) == (14, (0, 1, 3), (0, 1, 3), True)
    assert h.result.shown == {} and h.result.showdown is False       # R8.3: no cards shown
    assert shows(h) == []
    assert [e.seat for e in h.events if e.kind is EventKind.SPLIT] == [0, 1, 3]


def test_r8_3_heads_up_split():
    h = new_hand(CLASSIC, [100, 100], 0, {0: QUADS, 1: HIGH})
    h.raise_to(5, seat=1)
    h.call(seat=0)
    stand_pat_all(h)
    h.split(seat=1)
    h.split(seat=0)
    assert_final(h, [100, 100])
    assert h.result.pots[0].shared and h.result.shown == {}


def test_r8_1_an_active_player_declines_by_betting():
    """Seat 0 splits, seat 1 bets: the offer is withdrawn for the rest of the hand; normal
    betting and showdown follow (seat 2's quads are not in: it folded in round one)."""
    h = four_handed_pot_14()
    h.split(seat=0)
    h.bet(10, seat=1)
    for seat in (3, 0):
        legal = h.legal_actions()
        assert legal.seat == seat and ActionKind.SPLIT not in legal.kinds
        with pytest.raises(IllegalActionError, match=r"R8\.1"):
            h.split(seat=seat)
        h.call(seat=seat)
    assert h.result.showdown
    # seat 1 bet last: shows first (full house); seat 3's trips muck; seat 0's flush shows
    assert shows(h) == [(EventKind.SHOW, 1), (EventKind.MUCK, 3), (EventKind.SHOW, 0)]
    assert_final(h, [130, 86, 98, 86])
    assert not any(p.shared for p in h.result.pots)


def test_r8_1_a_check_withdraws_the_offer():
    h = four_handed_pot_14()
    h.split(seat=0)
    h.check(seat=1)
    legal = h.legal_actions()
    assert legal.seat == 3 and legal.kinds == {ActionKind.CHECK, ActionKind.FOLD, ActionKind.BET}
    h.check(seat=3)
    assert h.phase is Phase.COMPLETE
    # nobody bet: seat 0 (left of the over blind) shows first and wins with the flush
    assert shows(h) == [(EventKind.SHOW, 0), (EventKind.MUCK, 1), (EventKind.MUCK, 3)]
    assert_final(h, [110, 96, 98, 96])


def test_r8_1_a_first_check_means_no_offer_for_the_others():
    h = four_handed_pot_14()
    h.check(seat=0)
    assert ActionKind.SPLIT not in h.legal_actions().kinds
    with pytest.raises(IllegalActionError):
        h.split(seat=1)
    h.check(seat=1)
    h.check(seat=3)
    assert_final(h, [110, 96, 98, 96])


def test_r8_1_a_fold_withdraws_the_offer():
    h = four_handed_pot_14()
    h.split(seat=0)
    h.split(seat=1)
    h.fold(seat=3)
    assert h.phase is Phase.COMPLETE             # seats 0 and 1 both acted: showdown
    assert shows(h) == [(EventKind.SHOW, 0), (EventKind.MUCK, 1)]
    assert_final(h, [110, 96, 98, 96])
    assert not h.result.pots[0].shared


def test_r8_1_a_bet_after_everyone_else_split_withdraws_it():
    h = four_handed_pot_14()
    h.split(seat=0)
    h.split(seat=1)
    h.bet(4, seat=3)
    legal = h.legal_actions()
    assert legal.seat == 0 and ActionKind.SPLIT not in legal.kinds
    h.fold(seat=0)
    h.fold(seat=1)
    assert_final(h, [96, 96, 98, 110])
    assert h.result.shown == {}


def test_r8_1_no_split_after_a_bet_or_with_option_off():
    h = four_handed_pot_14(CLASSIC.replace(parole=False))
    legal = h.legal_actions()
    assert ActionKind.SPLIT not in legal.kinds
    with pytest.raises(IllegalActionError):
        h.split(seat=0)
    h.check(seat=0)
    h.check(seat=1)
    h.check(seat=3)
    assert_final(h, [110, 96, 98, 96])


# ----------------------------------------------------------------------------- R8.2 all-in players
def all_in_four_handed(holes) -> Hand:
    """Classic, 4 players, button 0.  Seat 0 goes all-in for 20, seat 1 (small blind) folds
    its 1, seat 2 raises to 40, seat 3 calls: main pot 61 (seats 0, 2, 3), side pot 40
    (seats 2, 3)."""
    h = new_hand(CLASSIC, [20, 100, 100, 100], 0, holes)
    h.raise_to(20, seat=0)
    h.fold(seat=1)
    h.raise_to(40, seat=2)
    h.call(seat=3)
    stand_pat_all(h)
    assert h.phase is Phase.SECOND_ROUND
    return h


def test_r8_2_all_in_player_accepts_everything_shared():
    h = all_in_four_handed({0: QUADS, 1: HIGH, 2: PAIR, 3: TRIPS})
    # R7.1: seat 2, the first player not all-in left of the over blind, opens; the all-in
    # seat 0 answers when the rotation reaches its seat (R8.2)
    assert h.actor == 2
    h.split(seat=2)
    h.split(seat=3)
    legal = h.legal_actions()
    assert legal.seat == 0 and legal.kinds == {ActionKind.SPLIT, ActionKind.DECLINE}
    h.split(seat=0)                          # accept
    # main 61: 20 each + the odd chip to seat 2 (left of the button: seat 1 folded);
    # side 40: 20 each
    assert [(p.amount, p.eligible, p.winners, p.shared) for p in h.result.pots] == [
        (61, (0, 2, 3), (0, 2, 3), True), (40, (2, 3), (2, 3), True)]
    assert_final(h, [20, 99, 101, 100])
    assert h.result.shown == {} and not h.result.showdown and shows(h) == []


@pytest.mark.parametrize(
    "holes, final, shown",
    [
        # the all-in player holds the best hand: wins the main pot at showdown
        ({0: QUADS, 1: HIGH, 2: PAIR, 3: TRIPS}, [61, 99, 80, 80], {0}),
        # seat 3 wins the main pot; the side pot is still shared
        ({0: PAIR, 1: HIGH, 2: TRIPS, 3: QUADS}, [0, 99, 80, 141], {0, 2, 3}),
    ],
)
def test_r8_2_all_in_player_declines_only_side_pot_shared(holes, final, shown):
    h = all_in_four_handed(holes)
    h.split(seat=2)
    h.split(seat=3)
    h.decline(seat=0)
    # the decline does not undo the others' agreement: it only affects the pots seat 0 is in
    assert [(p.amount, p.eligible, p.shared) for p in h.result.pots] == [
        (61, (0, 2, 3), False), (40, (2, 3), True)]
    assert h.result.pots[1].winners == (2, 3)
    assert h.result.showdown
    assert set(h.result.shown) == shown
    assert_final(h, final)


def test_r8_2_offer_withdrawn_before_the_all_in_player_is_asked():
    h = all_in_four_handed({0: PAIR, 1: HIGH, 2: TRIPS, 3: QUADS})
    h.split(seat=2)
    h.check(seat=3)                 # withdraws the offer: everything is shown down,
    assert h.phase is Phase.COMPLETE            # and seat 0 is never asked
    assert not any(p.shared for p in h.result.pots)
    assert_final(h, [0, 99, 60, 161])     # quads win both pots


def test_r8_2_all_in_player_not_asked_after_offer_withdrawn():
    """Two-blind, 3 players, button 2: the big blind (seat 1) is all-in; seat 2 (the
    button) opens round two; its check withdraws the offer before seat 1's turn."""
    h = new_hand(TWO_BLIND, [100, 30, 100], 2, {0: FLUSH, 1: FULL, 2: TRIPS})
    h.raise_to(30, seat=2)
    h.call(seat=0)
    h.call(seat=1)                  # all-in for 30
    stand_pat_all(h)
    assert h.actor == 2
    h.check(seat=2)
    assert h.actor == 0 and ActionKind.SPLIT not in h.legal_actions().kinds
    h.check(seat=0)
    assert h.phase is Phase.COMPLETE
    assert not any(e.kind in (EventKind.SPLIT, EventKind.DECLINE) for e in h.events)
    assert_final(h, [160, 0, 70])


def test_r8_2_all_in_player_asked_at_turn_position_between_actives():
    """Two-blind, button 2, the big blind (seat 1) all-in: round two goes 2, 0, then seat 1
    answers at its turn position; all accept: pot 90 shared 30 each."""
    h = new_hand(TWO_BLIND, [100, 30, 100], 2, {0: FLUSH, 1: FULL, 2: TRIPS})
    h.raise_to(30, seat=2)
    h.call(seat=0)
    h.call(seat=1)
    stand_pat_all(h)
    h.split(seat=2)
    h.split(seat=0)
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.kinds == {ActionKind.SPLIT, ActionKind.DECLINE}
    h.split(seat=1)
    assert_final(h, [100, 30, 100])      # pot 90 shared 30 each
    assert h.result.shown == {}


def test_r8_2_all_in_player_timeout_declines():
    h = all_in_four_handed({0: QUADS, 1: HIGH, 2: PAIR, 3: TRIPS})
    h.split(seat=2)
    h.split(seat=3)
    h.timeout(seat=0)
    kinds = [e.kind for e in h.events if e.seat == 0]
    i = kinds.index(EventKind.TIMEOUT)
    assert kinds[i:i + 2] == [EventKind.TIMEOUT, EventKind.DECLINE]
    assert_final(h, [61, 99, 80, 80])


def test_r8_2_no_offer_when_second_round_has_no_actions():
    """Heads-up all-in in round one: round two has no actions (R5.4), so no Parole."""
    h = new_hand(CLASSIC, [50, 50], 0, {0: FLUSH, 1: FULL})
    h.raise_to(50, seat=1)
    h.call(seat=0)
    stand_pat_all(h)
    assert h.phase is Phase.COMPLETE
    assert not any(e.kind in (EventKind.SPLIT, EventKind.DECLINE) for e in h.events)
    assert not h.result.pots[0].shared
    assert_final(h, [100, 0])


def test_r8_2_no_offer_with_one_active_player_and_all_ins():
    """Three-handed: two players all-in, the third covers them: no second-round actions,
    nobody is asked about Parole (not even the all-in players)."""
    h = new_hand(CLASSIC, [100, 20, 30], 0, {0: PAIR, 1: FLUSH, 2: FULL})
    h.raise_to(30, seat=0)
    h.call(seat=1)          # all-in 20
    h.call(seat=2)          # all-in 30
    stand_pat_all(h)
    assert h.phase is Phase.COMPLETE
    assert not any(e.kind in (EventKind.SPLIT, EventKind.DECLINE) for e in h.events)
    # main 60 -> seat 1 (flush); side 20 (seats 0, 2) -> seat 2 (full house)
    assert_final(h, [70, 60, 20])


# ----------------------------------------------------------------------------- R6.3 and Parole
def test_r6_3_timed_out_player_cannot_split():
    h = new_hand(CLASSIC, [100] * 4, 0, {0: FLUSH, 1: FULL, 2: QUADS, 3: TRIPS})
    h.call(seat=0)
    h.call(seat=1)
    h.fold(seat=2)
    h.check(seat=3)
    h.stand_pat(seat=1)
    h.stand_pat(seat=3)
    h.timeout(seat=0)                      # R6.3: stands pat, no bet/raise later
    assert h.actor == 0
    legal = h.legal_actions()
    assert legal.kinds == {ActionKind.CHECK, ActionKind.FOLD}
    with pytest.raises(IllegalActionError):
        h.split(seat=0)
    h.check(seat=0)                         # a check: no offer for the others
    assert ActionKind.SPLIT not in h.legal_actions().kinds
    h.check(seat=1)
    h.check(seat=3)
    assert_final(h, [110, 96, 98, 96])


def test_r6_3_timed_out_player_later_in_order_cannot_split():
    h = new_hand(CLASSIC, [100] * 4, 0, {0: FLUSH, 1: FULL, 2: QUADS, 3: TRIPS})
    h.call(seat=0)
    h.call(seat=1)
    h.fold(seat=2)
    h.check(seat=3)
    h.timeout(seat=1)
    h.stand_pat(seat=3)
    h.stand_pat(seat=0)
    h.split(seat=0)
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.kinds == {ActionKind.CHECK, ActionKind.FOLD}
    h.check(seat=1)
    assert ActionKind.SPLIT not in h.legal_actions().kinds
    h.check(seat=3)
    assert_final(h, [110, 96, 98, 96])
    assert not h.result.pots[0].shared
