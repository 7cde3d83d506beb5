"""Every worked example of RULES.md, as an exact test (rule ids in the names).

The hands are dealt by hand (``auto_deal=False``) so every card, and therefore every chip
of every seat at the end, is known in advance.  Each finished hand checks the exact final
stack of every seat and chip conservation (R9.5).
"""

from __future__ import annotations

import pytest
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
    blinds_posted,
    call_around,
    check_around,
    kinds_of,
    new_hand,
    stand_pat_all,
)

from pokerdraw32 import (
    ActionKind,
    EventKind,
    Hand,
    HandCategory,
    IllegalActionError,
    Phase,
    Rules,
    RulesError,
    evaluate,
)


# ----------------------------------------------------------------------------- R2 ranking
def test_r2_1_flush_beats_full_house_evaluator():
    flush, full = evaluate("Ah Kh 7h 8h Jh"), evaluate("Ks Kd Kc 9s 9h")
    assert flush.category is HandCategory.FLUSH and full.category is HandCategory.FULL_HOUSE
    assert flush > full
    # even the lowest flush beats the highest full house
    assert evaluate("Jh 9h 8h 7h Qh") > evaluate("As Ad Ac Ks Kd")
    assert evaluate("7s 8s 9s Js Qs") > evaluate("Ah Ad Ac Kh Kd")


def test_r2_1_flush_beats_full_house_at_showdown():
    """Heads-up, both check it down: the flush (seat 0) takes the full house's chips."""
    h = new_hand(CLASSIC, [100, 100], 0, {0: FLUSH, 1: FULL})
    h.call(seat=1)          # small blind completes
    h.check(seat=0)         # big blind (the button, R4.3) checks
    stand_pat_all(h)
    h.check(seat=1)
    h.check(seat=0)
    assert_final(h, [102, 98])
    assert h.result.pots[0].winners == (0,)
    assert h.result.showdown


def test_r2_2_ace_low_straight_is_lowest_and_ten_decides_suit():
    low = evaluate("As 7s 8s 9s Th")          # ace low: the top card is the ten of hearts
    assert low.category is HandCategory.STRAIGHT
    assert "ten high" in low.description and "ten of hearts" in low.description
    # lowest straight: loses to 7-8-9-T-J in any suits
    assert low < evaluate("7s 8s 9s Ts Jc")
    # highest straight T-J-Q-K-A
    top = evaluate("Ts Js Qs Ks Ad")
    assert top.category is HandCategory.STRAIGHT
    assert all(top > evaluate(s) for s in ("9h Th Jh Qh Kd", "7h 8h 9h Th Jd", "Ah 7h 8h 9h Td"))
    # the tie-break suit is the ten's, not the ace's: ten of hearts beats ten of diamonds
    # even though the second hand holds the ace of hearts
    assert low > evaluate("Ah 7h 8h 9h Td")
    # still a straight: above any three of a kind
    assert low > evaluate("As Ad Ac Kh Qh")


def test_r2_2_ace_low_straight_flush_is_lowest_straight_flush():
    sf = evaluate("Ah 7h 8h 9h Th")
    assert sf.category is HandCategory.STRAIGHT_FLUSH
    assert sf < evaluate("7s 8s 9s Ts Js")


@pytest.mark.parametrize("cards", ["Kc Ad 7s 8h 9h", "Qc Kd As 7h 8h", "Jc Qd Ks Ah 7h"])
def test_r2_2_no_wrap_around_straight(cards):
    assert evaluate(cards).category is HandCategory.HIGH_CARD


def test_r2_2_no_wrap_around_straight_flush():
    assert evaluate("Kh Ah 7h 8h 9h").category is HandCategory.FLUSH


def test_r2_table_two_pair_decided_by_suit_of_fifth_card():
    a = evaluate("Kh Ks Jd Jc 9h")
    b = evaluate("Kd Kc Js Jh 9d")
    assert a.category is b.category is HandCategory.TWO_PAIR
    assert a > b
    # the suits of the pairs play no part: only the odd card's suit
    assert evaluate("Ks Kc Js Jc 9c") > evaluate("Kh Kd Jh Jd 9s")
    # the odd card's rank comes before any suit
    assert evaluate("Ks Kc Js Jc Ts") > evaluate("Kh Kd Jh Jd 9h")


def test_r2_table_two_pair_decided_by_suit_at_showdown():
    h = new_hand(CLASSIC, [50, 50], 1, {0: "Kd Kc Js Jh 9d", 1: "Kh Ks Jd Jc 9h"})
    # button 1 posts the big blind, seat 0 the small blind (R4.3) and acts first
    assert blinds_posted(h) == [(0, 1, "small"), (1, 2, "big")]
    h.call(seat=0)
    h.check(seat=1)
    stand_pat_all(h)
    h.check(seat=0)
    h.check(seat=1)
    assert_final(h, [48, 52])


@pytest.mark.parametrize(
    "better, worse, column",
    [
        # straight flush: top card, then suit
        ("8h 9h Th Jh Qh", "7s 8s 9s Ts Js", "top card"),
        ("7h 8h 9h Th Jh", "7d 8d 9d Td Jd", "suit"),
        # four of a kind: rank of the four, then the odd card's rank
        ("8s 8h 8d 8c 7s", "7h 7d 7c 7s Ah", "rank"),
        ("Qs Qh Qd Qc 9s", "Qs Qh Qd Qc 8h", "odd card rank"),
        # flush: all five ranks, then suit
        ("As Ks 9s 8s 7s", "Ah Qh Jh 9h 7h", "second rank"),
        ("Ah Kh 9h 8h 7h", "As Ks 9s 8s 7s", "suit"),
        # straight: top card, then suit of that top card
        ("Ts Jh Qh Kh Ah", "9h Th Jh Qh Ks", "top card"),
        ("9s Ts Js Qs Kd", "9h Th Jh Qh Kc", "suit of the top card"),
        # three of a kind: the three, then the other two ranks
        ("Ts Th Td 8s 7s", "9s 9h 9d As Ks", "rank"),
        # two pair: higher pair, lower pair, odd card, then the odd card's suit
        ("As Ah 8s 8h 7s", "Ks Kh Qs Qh Js", "higher pair"),
        ("As Ah 9s 9h 7s", "Ad Ac 8s 8h Ks", "lower pair"),
        ("Ks Kc Js Jc 9c", "Kh Kd Jh Jd 9s", "odd card suit"),
        # one pair: pair rank, the three others, then the suit of the highest of them
        ("As Ad Kd 8s 7c", "Ah Ac Qh Jh 9h", "kicker"),
        ("As Ac Kh 8s 7s", "Ah Ad Ks 8h 7h", "suit of highest kicker"),
        # high card: all five ranks, then the suit of the highest card
        ("Ah Kd 9c 8s 7s", "As Kh 9h 8h 7h", "suit of highest card"),
        ("As Ks Qd Jd 9c", "Ah Kh Qh Jh 8s", "fifth rank"),
    ],
)
def test_r2_table_tiebreak_columns(better, worse, column):
    assert evaluate(better) > evaluate(worse), column
    assert evaluate(better).category is evaluate(worse).category
    if "suit" in column:
        assert evaluate(better, suit_tiebreak=False) == evaluate(worse, suit_tiebreak=False)   # R2.4


def test_r2_3_full_house_and_quads_never_by_suit():
    # different ranks only: identical ranks are impossible with one deck for these categories
    assert evaluate("Ks Kd Kc 8s 8d") > evaluate("Qh Qd Qc Ah Ad")
    assert evaluate("7s 7d 7c 7h 8s") == evaluate("7s 7d 7c 7h 8h")   # kicker suit never counts


def test_r2_4_off_hands_tie():
    a = evaluate("Kh Ks Jd Jc 9h", suit_tiebreak=False)
    b = evaluate("Kd Kc Js Jh 9d", suit_tiebreak=False)
    assert a == b


def test_r2_4_off_tie_splits_pot_odd_chip_left_of_button():
    """R2.4 off, R9.4: pot of 5 (button calls, small blind folds, big blind checks) shared by
    seats 0 and 2; the odd chip goes to the first sharer left of the button: seat 1 folded,
    so seat 2 (not seat 0, the lowest seat)."""
    rules = CLASSIC.replace(suit_tiebreak=False)
    h = new_hand(rules, [100, 100, 100], 0,
                 {0: "Kh Ks Jd Jc 9h", 1: "Ah Ad Ac 7s 8s", 2: "Kd Kc Js Jh 9d"})
    h.call(seat=0)
    h.fold(seat=1)
    h.check(seat=2)
    stand_pat_all(h)
    assert h.actor == 0           # R7.1: left of the big blind (seat 2)
    h.check(seat=0)
    h.check(seat=2)
    assert_final(h, [100, 99, 101])
    (pot,) = h.result.pots
    assert (pot.amount, pot.eligible, pot.winners, pot.shared) == (5, (0, 2), (0, 2), False)
    assert set(h.result.shown) == {0, 2}
    # no suit decides (R2.4 off), so the showdown names none
    assert [e.get("hand") for e in kinds_of(h, EventKind.SHOW)] == ["two pair, kings and jacks, nine kicker"] * 2


def test_r2_4_on_same_cards_suit_decides():
    h = new_hand(CLASSIC, [100, 100, 100], 0,
                 {0: "Kh Ks Jd Jc 9h", 1: "Ah Ad Ac 7s 8s", 2: "Kd Kc Js Jh 9d"})
    h.call(seat=0)
    h.fold(seat=1)
    h.check(seat=2)
    stand_pat_all(h)
    h.check(seat=0)
    h.check(seat=2)
    assert_final(h, [103, 99, 98])
    # the deciding suit is named; seat 2, beaten by the heart, mucks (R9.3)
    assert [e.get("hand") for e in kinds_of(h, EventKind.SHOW)] == ["two pair, kings and jacks, nine of hearts kicker"]


# ----------------------------------------------------------------------------- R3.4 structures
def test_r3_4_pot_limit_example_pot_10_bet_10_raise_to_at_most_40():
    """R3.4: "the pot holds 10, a player bets 10 (pot 20); the next player calls 10 (pot 30) and
    may raise by at most 30, to 40" -- the raise is at most the pot after the player's call."""
    rules = Rules(structure="pot-limit")
    h = new_hand(rules, [100, 100], 0, {0: FULL, 1: FLUSH})
    # heads-up, blinds 1/2: the small blind (seat 1) acts first; pot 3, 1 to call -> pot 4 -> to 2 + 4
    legal = h.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_to, legal.max_to) == (1, 1, 4, 6)
    with pytest.raises(IllegalActionError, match=r"raise to 7 is outside the legal range \(4 to 6 chips"):
        h.raise_to(7)
    h.raise_to(5, seat=1)
    h.call(seat=0)
    stand_pat_all(h)
    assert h.phase is Phase.SECOND_ROUND and h.pot == 10
    first = h.legal_actions()
    assert first.seat == 1 and ActionKind.BET in first.kinds
    assert (first.min_to, first.max_to) == (2, 10)          # a bet is at most the pot
    with pytest.raises(IllegalActionError):
        h.bet(11)
    h.bet(10, seat=1)
    legal = h.legal_actions()
    assert legal.seat == 0 and ActionKind.RAISE in legal.kinds
    assert legal.call_amount == 10
    assert legal.max_to == 40
    assert legal.min_to == 20                               # NL/PL min raise: the bet again
    with pytest.raises(IllegalActionError):
        h.raise_to(41)
    before = h.snapshot()
    with pytest.raises(IllegalActionError):
        h.raise_to(41)
    assert h.snapshot() == before                           # a refused raise changes nothing
    h.raise_to(40, seat=0)
    # pot 60, 30 to call -> 90: seat 1 could raise to 40 + 90 = 130, but has only 95 in all
    assert (h.legal_actions().min_to, h.legal_actions().max_to) == (70, 95)
    h.call(seat=1)
    assert_final(h, [55, 145])        # the flush (seat 1) wins 45 from seat 0


def test_r3_4_pot_limit_first_round_bounds():
    h = new_hand(Rules(structure="pot-limit"), [100, 100, 100], 0, {0: FULL, 1: FLUSH, 2: PAIR})
    legal = h.legal_actions()          # button, pot 3, owes 2: the call makes 5, raise to 2 + 5
    assert (legal.seat, legal.call_amount, legal.min_to, legal.max_to) == (0, 2, 4, 7)


def test_r3_4_pot_limit_three_blinds_example():
    """R3.4: "with blinds 5/10/20 the first player may raise to at most 20 + (35 + 20) = 75";
    then the small blind, facing 75 with 5 in, calls 70 (pot 180) and may raise to 75 + 180 = 255."""
    rules = Rules(structure="pot-limit", sb=5)
    h = new_hand(rules, [1000] * 4, 0, {0: FULL, 1: FLUSH, 2: PAIR, 3: TRIPS})
    assert blinds_posted(h) == [(1, 5, "small"), (2, 10, "big"), (3, 20, "over")]
    legal = h.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_to, legal.max_to) == (0, 20, 40, 75)
    with pytest.raises(IllegalActionError, match="outside the legal range"):
        h.raise_to(76)
    h.raise_to(75, seat=0)
    legal = h.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_to, legal.max_to) == (1, 70, 130, 255)
    h.raise_to(255, seat=1)
    legal = h.legal_actions()            # pot 360, 245 to call -> 605: raise to 255 + 605 = 860
    assert (legal.seat, legal.call_amount, legal.min_to, legal.max_to) == (2, 245, 435, 860)
    call_around(h)
    stand_pat_all(h)
    check_around(h)
    assert_final(h, [745, 1765, 745, 745])   # the flush (seat 1) takes 255 from each


def test_r5_5_no_raise_nobody_can_answer():
    """R5.5: stacks [8, 2, 2], blinds 1/2: the big blind is all-in and the small blind can only put
    in its last chip, so the button may call or fold but not raise (a raise could only come back)."""
    h = new_hand(CLASSIC, [8, 2, 2], 0, {0: FULL, 1: FLUSH, 2: PAIR})
    legal = h.legal_actions()
    assert legal.seat == 0 and kinds_of_legal(legal) == ["call", "fold"] and legal.call_amount == 2
    assert (legal.min_to, legal.max_to) == (None, None)
    before = h.snapshot()
    for attempt in (lambda: h.raise_to(4), lambda: h.all_in(), lambda: h.act("r 8")):
        with pytest.raises(IllegalActionError, match=r"nobody could answer it .*\[R5\.5\]"):
            attempt()
        assert h.snapshot() == before
    assert not h.can("r 4")
    h.call(seat=0)
    h.call(seat=1)                     # the small blind's last chip: all-in
    assert h.phase is Phase.DRAW
    stand_pat_all(h)
    assert_final(h, [6, 6, 0])         # no second round: seat 0 alone has chips (R5.4); the flush takes the 6


def test_r5_5_a_raise_is_allowed_when_someone_keeps_chips_after_calling():
    """R5.5, the other side: with one chip behind after matching, the big blind could answer."""
    h = new_hand(CLASSIC, [8, 2, 3], 0, {0: FULL, 1: FLUSH, 2: PAIR})
    legal = h.legal_actions()
    assert legal.seat == 0 and kinds_of_legal(legal) == ["call", "fold", "raise"]
    assert (legal.min_to, legal.max_to) == (4, 8)


def kinds_of_legal(legal: object) -> list[str]:
    return sorted(k.value for k in legal.kinds)  # type: ignore[attr-defined]


def test_r3_4_no_limit_min_raises():
    h = new_hand(Rules(), [200, 200, 200], 0, {0: FULL, 1: FLUSH, 2: PAIR})
    legal = h.legal_actions()
    assert (legal.seat, legal.min_to, legal.max_to) == (0, 4, 200)      # L=2: raise to 2+2 at least
    with pytest.raises(IllegalActionError):
        h.raise_to(3)
    h.raise_to(10, seat=0)                                                # a raise of 8
    legal = h.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_to, legal.max_to) == (1, 9, 18, 200)
    with pytest.raises(IllegalActionError):
        h.raise_to(17)
    h.raise_to(30, seat=1)                                                # a raise of 20
    legal = h.legal_actions()
    assert (legal.seat, legal.min_to, legal.max_to) == (2, 50, 200)
    with pytest.raises(IllegalActionError):
        h.raise_to(49)
    h.call(seat=2)
    h.call(seat=0)
    stand_pat_all(h)
    legal = h.legal_actions()
    assert (legal.seat, legal.min_to, legal.max_to) == (0, 2, 170)      # R7.2: minimum bet L
    with pytest.raises(IllegalActionError):
        h.bet(1)
    h.bet(5, seat=0)
    legal = h.legal_actions()
    assert (legal.seat, legal.min_to, legal.max_to) == (1, 10, 170)
    h.fold(seat=1)
    h.fold(seat=2)
    assert_final(h, [260, 170, 170])


def test_r3_4_no_limit_min_bet_is_largest_blind_over_blind():
    """R3.3, R7.2: with the over blind posted, L = ob = 4 is the minimum bet of round two."""
    h = new_hand(Rules(), [100] * 4, 0, {0: FULL, 1: FLUSH, 2: PAIR, 3: HIGH})
    assert h.legal_actions().min_to == 8           # raise to 4 + 4
    call_around(h)
    stand_pat_all(h)
    legal = h.legal_actions()
    assert (legal.seat, legal.min_to) == (0, 4)


def test_r3_4_fixed_limit_sizes_and_cap():
    """Fixed-limit: raises of exactly L in round one, bets of 2L in round two, 4 bets a round
    with the largest blind as the first bet of round one."""
    rules = Rules(structure="fixed-limit")
    h = new_hand(rules, [100, 100, 100], 0, {0: FULL, 1: FLUSH, 2: PAIR})
    for seat, to in ((0, 4), (1, 6), (2, 8)):       # bets 2, 3 and 4 (the blind was bet 1)
        legal = h.legal_actions()
        assert (legal.seat, legal.min_to, legal.max_to) == (seat, to, to)
        with pytest.raises(IllegalActionError):
            h.raise_to(to + 1)
        h.raise_to(to, seat=seat)
    legal = h.legal_actions()
    assert legal.seat == 0 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}   # capped
    with pytest.raises(IllegalActionError):
        h.raise_to(10)
    h.call(seat=0)
    h.call(seat=1)
    assert h.pot == 24
    stand_pat_all(h)
    for seat, to in ((0, 4), (1, 8), (2, 12), (0, 16)):    # 2L = 4 each, cap 4 bets
        legal = h.legal_actions()
        assert (legal.seat, legal.min_to, legal.max_to) == (seat, to, to)
        h.act(f"{'b' if to == 4 else 'r'} {to}", seat=seat)
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}
    h.call(seat=1)
    h.call(seat=2)
    # pot 24 + 48 = 72, the flush wins
    assert_final(h, [76, 148, 76])


def test_r3_4_fixed_limit_no_cap():
    rules = Rules(structure="fixed-limit", cap=None)
    h = new_hand(rules, [100, 100, 100], 0, {0: FULL, 1: FLUSH, 2: PAIR})
    for to in (4, 6, 8, 10, 12):
        assert h.legal_actions().min_to == to
        h.raise_to(to)
    assert ActionKind.RAISE in h.legal_actions().kinds


# ----------------------------------------------------------------------------- R3.5 short all-in
def test_r3_5_short_all_in_does_not_reopen_for_player_who_acted():
    """NL: seat 0 raises to 10 (a raise of 8); seat 1 is all-in for 15 (5 more: short).
    The big blind has not acted yet and may raise; seat 0, who acted and faces only the
    short 5, may only call or fold."""
    h = new_hand(Rules(), [100, 15, 100], 0, {0: FLUSH, 1: FULL, 2: PAIR})
    h.raise_to(10, seat=0)
    legal = h.legal_actions()
    assert (legal.seat, legal.min_to, legal.max_to) == (1, 15, 15)   # all-in only, below a full raise
    h.raise_to(15, seat=1)
    legal = h.legal_actions()
    assert legal.seat == 2 and ActionKind.RAISE in legal.kinds and legal.min_to == 23
    h.call(seat=2)
    legal = h.legal_actions()
    assert legal.seat == 0 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}
    assert legal.call_amount == 5 and legal.min_to is None
    with pytest.raises(IllegalActionError):
        h.raise_to(23)
    h.call(seat=0)
    stand_pat_all(h)
    h.check(seat=0)
    h.check(seat=2)
    assert_final(h, [130, 0, 85])


def test_r3_5_full_raise_after_acting_reopens():
    h = new_hand(Rules(), [100, 100, 100], 0, {0: FLUSH, 1: FULL, 2: PAIR})
    h.raise_to(10, seat=0)
    h.raise_to(18, seat=1)           # a full raise of 8
    h.call(seat=2)
    legal = h.legal_actions()
    assert legal.seat == 0 and ActionKind.RAISE in legal.kinds and legal.min_to == 26


def test_r3_5_short_all_ins_adding_up_to_a_full_raise_reopen():
    """Two short all-ins (10 -> 15 -> 21) face the first raiser with 11 more >= the raise of 8:
    reopened for them; a player who called 15 faces only 6 more: call or fold only."""
    h = new_hand(TWO_BLIND, [100, 21, 100, 100, 15], 0,
                 {0: FLUSH, 1: FULL, 2: PAIR, 3: TRIPS, 4: QUADS})
    assert blinds_posted(h) == [(1, 1, "small"), (2, 2, "big")]
    h.raise_to(10, seat=3)
    h.raise_to(15, seat=4)           # all-in, 5 more: short
    h.call(seat=0)                   # calls 15
    h.raise_to(21, seat=1)           # small blind all-in, 6 more: short
    h.fold(seat=2)
    legal = h.legal_actions()
    assert legal.seat == 3 and ActionKind.RAISE in legal.kinds and legal.min_to == 29
    h.call(seat=3)
    legal = h.legal_actions()
    assert legal.seat == 0 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}
    h.call(seat=0)
    stand_pat_all(h)
    assert h.actor == 3              # R7.1: first active left of the big blind
    h.check(seat=3)
    h.check(seat=0)
    # main pot 15*4 + 2 = 62 to seat 4 (quads); side pot 6*3 = 18 to seat 0 (flush)
    assert_final(h, [97, 0, 98, 79, 62])
    assert [(p.amount, p.eligible, p.winners) for p in h.result.pots] == [
        (62, (0, 1, 3, 4), (4,)), (18, (0, 1, 3), (0,))]


def test_r3_5_fixed_limit_half_bet_all_in_is_a_full_raise():
    """FL, L=4: after a raise to 8, an all-in to 10 (2 more = half a bet) counts as a full
    raise: the first raiser may raise again (to 10 + 4)."""
    rules = Rules(sb=2, structure="fixed-limit")
    h = new_hand(rules, [100, 10, 100], 0, {0: FLUSH, 1: FULL, 2: PAIR})
    h.raise_to(8, seat=0)
    legal = h.legal_actions()
    assert (legal.seat, legal.min_to, legal.max_to) == (1, 10, 10)
    h.raise_to(10, seat=1)
    assert h.legal_actions().min_to == 14
    h.call(seat=2)
    legal = h.legal_actions()
    assert legal.seat == 0 and ActionKind.RAISE in legal.kinds and legal.min_to == legal.max_to == 14
    h.call(seat=0)
    stand_pat_all(h)
    h.check(seat=0)
    h.check(seat=2)
    assert_final(h, [120, 0, 90])


def test_r3_5_fixed_limit_less_than_half_bet_all_in_does_not_reopen():
    rules = Rules(sb=2, structure="fixed-limit")
    h = new_hand(rules, [100, 9, 100], 0, {0: FLUSH, 1: FULL, 2: PAIR})
    h.raise_to(8, seat=0)
    h.raise_to(9, seat=1)            # 1 more: less than half of 4
    assert h.legal_actions().min_to == 12          # the big blind may still raise (a full bet over 8)
    h.call(seat=2)
    legal = h.legal_actions()
    assert legal.seat == 0 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}
    h.call(seat=0)
    stand_pat_all(h)
    h.check(seat=0)
    h.check(seat=2)
    assert_final(h, [118, 0, 91])


# ----------------------------------------------------------------------------- R4 blinds
ANY = [QUADS, FLUSH, FULL, TRIPS, PAIR]


@pytest.mark.parametrize(
    "rules, n, button, posted, first",
    [
        # R4.3 heads-up: the non-dealer posts the small blind, the button the big one
        (CLASSIC, 2, 0, [(1, 1, "small"), (0, 2, "big")], 1),
        (CLASSIC, 2, 1, [(0, 1, "small"), (1, 2, "big")], 0),
        # R4.3 option: the button posts the small blind (and acts first, left of the big blind)
        (CLASSIC.replace(heads_up_button_posts_small=True), 2, 0, [(0, 1, "small"), (1, 2, "big")], 0),
        (CLASSIC.replace(heads_up_button_posts_small=True), 2, 1, [(1, 1, "small"), (0, 2, "big")], 1),
        # R4.2: three players, two blinds in both presets; the button acts first
        (CLASSIC, 3, 1, [(2, 1, "small"), (0, 2, "big")], 1),
        (TWO_BLIND, 3, 2, [(0, 1, "small"), (1, 2, "big")], 2),
        (CLASSIC.replace(heads_up_button_posts_small=True), 3, 0, [(1, 1, "small"), (2, 2, "big")], 0),
        # R4.2: four or five players, the over blind with the classic preset only
        (CLASSIC, 4, 2, [(3, 1, "small"), (0, 2, "big"), (1, 4, "over")], 2),
        (TWO_BLIND, 4, 2, [(3, 1, "small"), (0, 2, "big")], 1),
        (CLASSIC, 5, 4, [(0, 1, "small"), (1, 2, "big"), (2, 4, "over")], 3),
        (TWO_BLIND, 5, 4, [(0, 1, "small"), (1, 2, "big")], 2),
        (CLASSIC, 5, 0, [(1, 1, "small"), (2, 2, "big"), (3, 4, "over")], 4),
        (CLASSIC.replace(over_blind=False), 5, 0, [(1, 1, "small"), (2, 2, "big")], 3),
        # stakes: ob defaults to 2*bb (R3.2)
        (Rules(sb=5, bb=10), 4, 0, [(1, 5, "small"), (2, 10, "big"), (3, 20, "over")], 0),
        (Rules(sb=5, bb=10, ob=25), 5, 0, [(1, 5, "small"), (2, 10, "big"), (3, 25, "over")], 4),
    ],
)
def test_r4_2_r4_3_r5_2_blind_positions_and_first_to_act(rules, n, button, posted, first):
    h = new_hand(rules, [1000] * n, button, {s: ANY[s] for s in range(n)})
    assert blinds_posted(h) == posted
    assert h.phase is Phase.FIRST_ROUND
    assert h.actor == first                                      # R5.2
    L = posted[-1][1]
    assert h.largest_blind == L                                  # R3.3
    for seat, amount, _ in posted:
        assert h.bets[seat] == amount and h.stacks[seat] == 1000 - amount
    legal = h.legal_actions()
    assert legal.call_amount == L - h.bets[first]
    assert legal.min_to == 2 * L                                 # R4.4: the blind is the first bet


def test_r4_4_largest_blind_has_the_option():
    h = new_hand(CLASSIC, [100] * 4, 0, {s: ANY[s] for s in range(4)})
    h.call(seat=0)
    h.call(seat=1)
    h.call(seat=2)
    legal = h.legal_actions()
    assert legal.seat == 3 and legal.kinds == {ActionKind.CHECK, ActionKind.FOLD, ActionKind.RAISE}
    assert legal.min_to == 8
    h.raise_to(8, seat=3)
    assert h.actor == 0 and h.legal_actions().call_amount == 4


@pytest.mark.parametrize(
    "rules, n, button, fold, first",
    [
        (CLASSIC, 2, 0, None, 1),      # heads-up: the small blind (left of the big blind = button)
        (CLASSIC, 2, 1, None, 0),
        (CLASSIC.replace(heads_up_button_posts_small=True), 2, 0, None, 0),   # still the small blind
        (CLASSIC.replace(second_round_first="after_button"), 2, 0, None, 1),
        (CLASSIC.replace(second_round_first="after_button", heads_up_button_posts_small=True), 2, 0, None, 1),
        (CLASSIC, 3, 0, None, 0),      # left of the big blind (seat 2): the button
        (CLASSIC.replace(second_round_first="after_button"), 3, 0, None, 1),
        (CLASSIC, 4, 0, None, 0),      # left of the over blind (seat 3)
        (TWO_BLIND, 4, 0, None, 3),    # left of the big blind (seat 2)
        (TWO_BLIND.replace(second_round_first="after_button"), 4, 0, None, 1),
        (CLASSIC, 5, 0, None, 4),
        (CLASSIC, 5, 0, 4, 0),         # the first seat left of the over blind folded: next one
        (TWO_BLIND, 5, 0, None, 3),
        (TWO_BLIND, 5, 0, 3, 4),
        (TWO_BLIND.replace(second_round_first="after_button"), 5, 0, None, 1),
        (TWO_BLIND.replace(second_round_first="after_button"), 5, 0, 1, 2),
        (CLASSIC, 5, 3, None, 2),      # blinds 4, 0, 1 -> seat 2
    ],
)
def test_r7_1_first_to_act_second_round(rules, n, button, fold, first):
    h = new_hand(rules, [100] * n, button, {s: ANY[s] for s in range(n)})
    while h.phase is Phase.FIRST_ROUND:
        if h.actor == fold:
            h.fold()
        elif ActionKind.CHECK in h.legal_actions().kinds:
            h.check()
        else:
            h.call()
    stand_pat_all(h)
    assert h.phase is Phase.SECOND_ROUND
    assert h.actor == first


def test_r7_1_all_in_seat_is_skipped():
    """Seat 4 (first left of the over blind) went all-in in round one: seat 0 opens round two."""
    h = new_hand(CLASSIC.replace(parole=False), [100, 100, 100, 100, 10], 0,
                 {s: ANY[s] for s in range(5)})
    h.raise_to(10, seat=4)
    for s in (0, 1, 2, 3):
        h.call(seat=s)
    stand_pat_all(h)
    assert h.actor == 0


def test_r4_5_short_big_blind_is_all_in_and_others_owe_full_blind():
    """The big blind holds 1 chip: posts it all-in; L stays 2 (R4.5)."""
    h = new_hand(CLASSIC, [100, 100, 1], 0, {0: FULL, 1: PAIR, 2: FLUSH})
    assert blinds_posted(h) == [(1, 1, "small"), (2, 1, "big")]
    assert h.largest_blind == 2
    assert next(e for e in h.events if e.seat == 2).get("all_in") is True
    legal = h.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_to) == (0, 2, 4)
    h.call(seat=0)
    legal = h.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_to) == (1, 1, 4)
    h.call(seat=1)
    assert h.phase is Phase.DRAW          # the all-in big blind does not act
    stand_pat_all(h)
    assert h.actor == 0
    h.check(seat=0)
    h.check(seat=1)
    # main pot 3 (1 each) to the flush; side pot 2 (seats 0, 1) to the full house
    assert_final(h, [100, 98, 3])
    assert [(p.amount, p.eligible, p.winners) for p in h.result.pots] == [(3, (0, 1, 2), (2,)), (2, (0, 1), (0,))]


def test_r4_5_short_over_blind_all_in():
    h = new_hand(CLASSIC, [3, 100, 100, 100], 1, {0: QUADS, 1: FLUSH, 2: FULL, 3: TRIPS})
    # button 1: small blind seat 2, big blind seat 3, over blind seat 0 (3 chips: all-in)
    assert blinds_posted(h) == [(2, 1, "small"), (3, 2, "big"), (0, 3, "over")]
    assert h.largest_blind == 4
    legal = h.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_to) == (1, 4, 8)
    h.call(seat=1)
    h.call(seat=2)
    h.call(seat=3)
    assert h.phase is Phase.DRAW
    stand_pat_all(h)
    assert h.actor == 1
    check_around(h)
    # main pot 3*4 = 12 to the quads (seat 0); side 1*3 = 3 to the flush (seat 1)
    assert_final(h, [12, 99, 96, 96])


# ----------------------------------------------------------------------------- R5.3, R5.4
def test_r5_3_everyone_folds_first_round_no_cards_shown():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: QUADS, 1: FLUSH, 2: HIGH})
    h.fold(seat=0)
    h.fold(seat=1)
    assert_final(h, [100, 99, 101])
    assert h.result.shown == {} and h.result.showdown is False
    assert not kinds_of(h, EventKind.SHOW) and not kinds_of(h, EventKind.MUCK)
    assert not kinds_of(h, EventKind.DISCARD)          # no draw
    # the big blind's uncalled extra 1 is returned (R9.2), the pot is the small blind's 1 + 1
    assert [(e.seat, e.amount) for e in kinds_of(h, EventKind.RETURN_UNCALLED)] == [(2, 1)]
    assert [(p.amount, p.winners) for p in h.result.pots] == [(2, (2,))]


def test_r5_3_everyone_folds_second_round_no_cards_shown():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: HIGH, 1: FLUSH, 2: QUADS})
    call_around(h)
    stand_pat_all(h)
    h.bet(20, seat=0)       # a bluff
    h.fold(seat=1)
    h.fold(seat=2)
    assert_final(h, [104, 98, 98])
    assert h.result.shown == {} and not h.result.showdown
    assert not kinds_of(h, EventKind.SHOW)
    assert [(e.seat, e.amount) for e in kinds_of(h, EventKind.RETURN_UNCALLED)] == [(0, 20)]


def test_r5_4_round_complete_as_it_starts_short_small_blind():
    """Heads-up, the small blind has 1 chip: all-in posting it; the big blind (the only
    player who can bet) owes nothing: no first-round action, no second-round action."""
    h = new_hand(CLASSIC, [50, 1], 0, {0: PAIR, 1: TRIPS})
    assert h.phase is Phase.DRAW and h.actor == 1
    ret = kinds_of(h, EventKind.RETURN_UNCALLED)
    assert [(e.seat, e.amount) for e in ret] == [(0, 1)]     # R9.2
    stand_pat_all(h)
    assert h.phase is Phase.COMPLETE
    assert_final(h, [49, 2])
    assert not any(e.kind in (EventKind.CHECK, EventKind.CALL, EventKind.SPLIT) for e in h.events)


def test_r5_4_all_in_and_call_skips_second_round():
    h = new_hand(CLASSIC, [40, 60], 0, {0: PAIR, 1: FLUSH})
    h.raise_to(60, seat=1)              # small blind all-in for 60
    legal = h.legal_actions()
    assert legal.seat == 0 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}   # R5.4 lone player
    assert legal.call_amount == 38
    h.call(seat=0)
    assert [(e.seat, e.amount) for e in kinds_of(h, EventKind.RETURN_UNCALLED)] == [(1, 20)]
    stand_pat_all(h)
    assert h.phase is Phase.COMPLETE   # no second round, no Parole (R8.2)
    assert_final(h, [0, 100])
    assert not kinds_of(h, EventKind.SPLIT)


def test_r5_4_lone_player_facing_all_in_acts_and_fold_ends_round():
    h = new_hand(CLASSIC, [30, 100, 100], 0, {0: QUADS, 1: FLUSH, 2: FULL})
    h.raise_to(30, seat=0)              # all-in
    h.fold(seat=1)
    legal = h.legal_actions()
    assert legal.seat == 2 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}
    h.call(seat=2)
    assert h.phase is Phase.DRAW
    stand_pat_all(h)
    assert h.phase is Phase.COMPLETE
    assert_final(h, [61, 99, 70])


def test_r5_4_second_round_ends_after_fold_leaves_one_bettor():
    """Seat 0 is all-in; in round two seat 1 bets, seat 2 folds: seat 1 is then the only one
    who can bet and owes nothing; its uncalled bet returns and the hand is shown down."""
    h = new_hand(CLASSIC.replace(parole=False), [10, 100, 100], 0, {0: FLUSH, 1: FULL, 2: QUADS})
    h.raise_to(10, seat=0)
    h.call(seat=1)
    h.call(seat=2)
    stand_pat_all(h)
    assert h.actor == 1               # seat 0 is all-in
    h.bet(20, seat=1)
    h.fold(seat=2)
    assert h.phase is Phase.COMPLETE
    assert [(e.seat, e.amount) for e in kinds_of(h, EventKind.RETURN_UNCALLED)] == [(1, 20)]
    assert_final(h, [30, 90, 90])


# ----------------------------------------------------------------------------- R6.3, R7.3
def test_r6_3_draw_timeout_stands_pat_then_no_bet_or_raise():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: HIGH, 1: FLUSH, 2: PAIR})
    call_around(h)
    assert h.actor == 1
    before = h.hole_cards(1)
    h.timeout(seat=1)
    assert h.hole_cards(1) == before
    d = kinds_of(h, EventKind.DISCARD)[-1]
    assert (d.seat, d.amount, d.cards) == (1, 0, ())
    assert kinds_of(h, EventKind.TIMEOUT)[-1].seat == 1
    h.stand_pat(seat=2)
    h.stand_pat(seat=0)
    assert h.actor == 0
    h.check(seat=0)
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.kinds == {ActionKind.CHECK, ActionKind.FOLD}   # no bet, no split
    with pytest.raises(IllegalActionError, match=r"R6\.3"):
        h.bet(2, seat=1)
    h.check(seat=1)
    h.bet(10, seat=2)
    h.call(seat=0)
    legal = h.legal_actions()
    assert legal.seat == 1 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}
    with pytest.raises(IllegalActionError):
        h.raise_to(20, seat=1)
    h.call(seat=1)
    assert_final(h, [88, 124, 88])


def test_r7_3_betting_timeout_checks_when_nothing_owed_else_folds():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: HIGH, 1: FLUSH, 2: PAIR})
    h.timeout(seat=0)                 # owes 2: folds
    assert h.events[-1].kind is EventKind.FOLD and h.events[-2].kind is EventKind.TIMEOUT
    h.call(seat=1)
    h.timeout(seat=2)                 # big blind owes nothing: checks
    assert [e.kind for e in h.events if e.seat == 2][-2:] == [EventKind.TIMEOUT, EventKind.CHECK]
    assert h.phase is Phase.DRAW
    stand_pat_all(h)
    assert h.actor == 1               # left of the big blind, seat 0 folded
    h.timeout(seat=1)                 # checks (and withdraws the Parole offer)
    assert [e.kind for e in h.events if e.seat == 1][-2:] == [EventKind.TIMEOUT, EventKind.CHECK]
    h.bet(6, seat=2)
    h.timeout(seat=1)                 # folds
    assert [e.kind for e in h.events if e.seat == 1][-2:] == [EventKind.TIMEOUT, EventKind.FOLD]
    assert_final(h, [100, 98, 102])


def test_r7_3_withdraw_raise_for_this_turn_only():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: HIGH, 1: FLUSH, 2: PAIR})
    ev = h.withdraw_raise()
    assert (ev.kind, ev.seat) == (EventKind.RAISE_WITHDRAWN, 0)
    legal = h.legal_actions()
    assert legal.kinds == {ActionKind.CALL, ActionKind.FOLD} and legal.min_to is None
    with pytest.raises(IllegalActionError):
        h.raise_to(4, seat=0)
    h.call(seat=0)
    assert ActionKind.RAISE in h.legal_actions().kinds          # the next player keeps the right
    h.raise_to(6, seat=1)
    h.call(seat=2)
    assert ActionKind.RAISE in h.legal_actions().kinds          # seat 0's right is back next turn
    h.call(seat=0)
    stand_pat_all(h)
    h.withdraw_raise()                  # second round: no bet either; check/fold remain
    legal = h.legal_actions()
    assert legal.seat == 0 and ActionKind.BET not in legal.kinds and ActionKind.CHECK in legal.kinds
    h.check(seat=0)
    h.bet(10, seat=1)
    h.withdraw_raise()
    legal = h.legal_actions()
    assert legal.seat == 2 and legal.kinds == {ActionKind.CALL, ActionKind.FOLD}
    h.fold(seat=2)
    h.fold(seat=0)
    assert_final(h, [94, 112, 94])


def test_r7_3_withdraw_raise_outside_betting_is_an_error():
    h = new_hand(CLASSIC, [100, 100], 0, {0: HIGH, 1: FLUSH})
    h.call()
    h.check()
    assert h.phase is Phase.DRAW
    with pytest.raises(IllegalActionError):
        h.withdraw_raise()


# ----------------------------------------------------------------------------- R9.2, R9.3
def test_r9_2_uncalled_part_of_a_raise_is_returned():
    """Seat 0 raises to 50; seat 1 calls all-in for 30: 20 of the raise go back."""
    h = new_hand(CLASSIC, [100, 30, 100], 0, {0: PAIR, 1: FLUSH, 2: HIGH})
    h.raise_to(50, seat=0)
    h.call(seat=1)
    assert h.events[-1].get("all_in") is True and h.bets[1] == 30
    h.fold(seat=2)
    ret = kinds_of(h, EventKind.RETURN_UNCALLED)
    assert [(e.seat, e.amount) for e in ret] == [(0, 20)]
    assert h.contrib == [30, 30, 2]
    stand_pat_all(h)
    assert h.phase is Phase.COMPLETE
    assert_final(h, [70, 62, 98])


def test_r9_3_last_aggressor_shows_first_and_losers_muck():
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    call_around(h)
    stand_pat_all(h)
    h.check(seat=0)
    h.bet(10, seat=1)
    h.call(seat=2)
    h.call(seat=0)
    shows = [(e.kind, e.seat) for e in h.events if e.kind in (EventKind.SHOW, EventKind.MUCK)]
    # seat 1 (the bettor) first, then clockwise: seat 2 cannot beat trips and mucks; seat 0 shows
    assert shows == [(EventKind.SHOW, 1), (EventKind.MUCK, 2), (EventKind.SHOW, 0)]
    assert set(h.result.shown) == {0, 1}
    assert sorted(h.result.shown[0]) == sorted(evaluate(FLUSH).cards)
    muck = kinds_of(h, EventKind.MUCK)[0]
    assert muck.cards == ()                      # not revealed
    assert_final(h, [124, 88, 88])


def test_r9_3_no_bet_first_left_of_largest_blind_shows_first():
    h = new_hand(CLASSIC, [100] * 4, 2, {0: FULL, 1: PAIR, 2: TRIPS, 3: FLUSH})
    # button 2: blinds 3, 0, 1 (over); first left of the over blind: seat 2
    call_around(h)
    stand_pat_all(h)
    check_around(h)
    shows = [(e.kind, e.seat) for e in h.events if e.kind in (EventKind.SHOW, EventKind.MUCK)]
    # seat 2 shows trips, seat 3 the flush; seats 0 and 1 cannot beat the flush: muck
    assert shows == [(EventKind.SHOW, 2), (EventKind.SHOW, 3), (EventKind.MUCK, 0), (EventKind.MUCK, 1)]
    assert set(h.result.shown) == {2, 3}
    assert_final(h, [96, 96, 96, 112])


def test_r9_3_after_button_variant_shows_left_of_button_first():
    rules = CLASSIC.replace(second_round_first="after_button")
    h = new_hand(rules, [100] * 4, 2, {0: FULL, 1: PAIR, 2: TRIPS, 3: FLUSH})
    call_around(h)
    stand_pat_all(h)
    assert h.actor == 3
    check_around(h)
    shows = [(e.kind, e.seat) for e in h.events if e.kind in (EventKind.SHOW, EventKind.MUCK)]
    # seat 3 (left of the button) shows the flush; nobody else can win: all muck
    assert shows == [(EventKind.SHOW, 3), (EventKind.MUCK, 0), (EventKind.MUCK, 1), (EventKind.MUCK, 2)]
    assert set(h.result.shown) == {3}
    assert_final(h, [96, 96, 96, 112])


def test_r9_3_muck_losers_off_everyone_shows():
    rules = CLASSIC.replace(muck_losers=False)
    h = new_hand(rules, [100] * 4, 2, {0: FULL, 1: PAIR, 2: TRIPS, 3: FLUSH})
    call_around(h)
    stand_pat_all(h)
    check_around(h)
    shows = [(e.kind, e.seat) for e in h.events if e.kind in (EventKind.SHOW, EventKind.MUCK)]
    assert shows == [(EventKind.SHOW, s) for s in (2, 3, 0, 1)]
    assert set(h.result.shown) == {0, 1, 2, 3}
    assert_final(h, [96, 96, 96, 112])


@pytest.mark.parametrize(
    "holes, shows, final",
    [
        # the bettor (seat 1) shows a pair; seat 2 beats it (side pot) and shows; seat 0, all-in,
        # beats both for the main pot and shows
        ({0: FULL, 1: PAIR, 2: TRIPS},
         [(EventKind.SHOW, 1), (EventKind.SHOW, 2), (EventKind.SHOW, 0)], [60, 50, 110]),
        # seat 0's trips cannot beat seat 2's full house in the only pot it may win: muck
        ({0: TRIPS, 1: PAIR, 2: FULL},
         [(EventKind.SHOW, 1), (EventKind.SHOW, 2), (EventKind.MUCK, 0)], [0, 50, 170]),
        # the bettor's flush beats everyone: both others muck
        ({0: FULL, 1: FLUSH, 2: PAIR},
         [(EventKind.SHOW, 1), (EventKind.MUCK, 2), (EventKind.MUCK, 0)], [0, 170, 50]),
    ],
)
def test_r9_3_showing_with_a_side_pot(holes, shows, final):
    """Seat 0 is all-in for 20 (main pot 60); seats 1 and 2 add 30 each (side pot 60)."""
    h = new_hand(CLASSIC.replace(parole=False), [20, 100, 100], 0, holes)
    h.raise_to(20, seat=0)            # all-in
    h.call(seat=1)
    h.call(seat=2)
    stand_pat_all(h)
    h.bet(30, seat=1)
    h.call(seat=2)
    got = [(e.kind, e.seat) for e in h.events if e.kind in (EventKind.SHOW, EventKind.MUCK)]
    assert got == shows
    assert set(h.result.shown) == {seat for kind, seat in shows if kind is EventKind.SHOW}
    assert [(p.amount, p.eligible) for p in h.result.pots] == [(60, (0, 1, 2)), (60, (1, 2))]
    assert_final(h, final)


def test_r4_2_two_blind_preset_options_can_be_changed():
    """Regression: ``TWO_BLIND.replace(...)`` and ``replace(over_blind=False)`` used to raise
    RulesError because the derived ``ob`` was passed back with the over blind off."""
    r = TWO_BLIND.replace(parole=False)
    assert (r.over_blind, r.reshuffle_folded, r.parole, r.blinds(5)) == (False, True, False, (1, 2))
    r = CLASSIC.replace(over_blind=False)
    assert r.blinds(4) == (1, 2) and r.largest_blind(5) == 2
    assert CLASSIC.replace(parole=False).blinds(4) == (1, 2, 4)
    assert Rules(sb=5, bb=10, ob=25).replace(parole=False).ob == 25


# ----------------------------------------------------------------------------- rulings
# Where two rules meet and the book is silent; each ruling is stated in hand.py too.
def test_r3_4_pot_limit_short_blind_no_raise_below_L():
    """R3.4/R4.5: a short all-in blind leaves the pot (3) below a full raise; the minimum raise
    (never smaller than L) stays possible rather than a raise smaller than L."""
    h = new_hand(Rules(sb=2, structure="pot-limit"), [100, 100, 1], 0, {0: FULL, 1: PAIR, 2: FLUSH})
    assert blinds_posted(h) == [(1, 2, "small"), (2, 1, "big")]
    assert h.largest_blind == 4 and h.pot == 3
    legal = h.legal_actions()
    assert legal.seat == 0 and legal.call_amount == 4
    if ActionKind.RAISE in legal.kinds:
        all_in = h.bets[0] + h.stacks[0]
        for to in range(legal.min_to, legal.max_to + 1):
            assert to - 4 >= 4 or to == all_in, f"raise to {to} is a raise of {to - 4} < L=4"
    assert (legal.min_to, legal.max_to) == (8, 11)   # the call makes the pot 7: raise to 4 + 7


def test_r6_3_timed_out_all_in_player_cannot_accept_parole():
    """R6.3 over R8.2: after a draw timeout a player may only check, call or fold; all-in, they
    are not asked about the Parole offer and count as declining it."""
    h = new_hand(CLASSIC, [10, 100, 100], 0, {0: FULL, 1: PAIR, 2: FLUSH})
    h.raise_to(10, seat=0)           # all-in
    h.call(seat=1)
    h.call(seat=2)
    h.stand_pat(seat=1)
    h.stand_pat(seat=2)
    h.timeout(seat=0)                # R6.3
    assert h.actor == 1 and h.stacks[0] == 0
    h.split(seat=1)
    h.split(seat=2)                  # seats 1 and 2 share the side pot; seat 0 never agreed
    assert [(p.amount, p.eligible, p.shared) for p in h.result.pots] == [(30, (0, 1, 2), False)]
    assert h.legal_actions() is None and sum(h.result.stacks) == 210


def test_r7_1_all_in_player_not_first_to_answer_in_round_two():
    """R7.1 over R8.2: the first player not all-in opens round two; an all-in player seated
    before them answers the Parole offer when the rotation reaches their seat."""
    h = new_hand(CLASSIC, [10, 100, 100], 0, {0: FULL, 1: PAIR, 2: FLUSH})
    h.raise_to(10, seat=0)           # all-in, seat 0 is first left of the big blind (seat 2)
    h.call(seat=1)
    h.call(seat=2)
    stand_pat_all(h)
    assert h.actor == 1


# ----------------------------------------------------------------------------- table set-up
@pytest.mark.parametrize(
    "stacks, button",
    [
        ([100], 0),                          # R3.1: 2 to 5 players
        ([100] * 6, 0),
        ([100, 0], 0),                       # R10.4: no empty stack is dealt in
        ([100, -5], 0),
        ([100, 2.5], 0),                     # R3.2: integer chips
        ([100, True], 0),
        ([100, 100], 2),                     # R4.1: the button is a seat
        ([100, 100], -1),
    ],
)
def test_r3_1_r3_2_bad_table_set_up(stacks, button):
    with pytest.raises(RulesError):
        Hand(CLASSIC, stacks, button, seed=1)


def test_r7_3_withdraw_raise_twice_in_one_turn_is_an_error():
    """Withdrawing the right to raise twice in one turn means nothing: refused, so a log (and a
    snapshot, which restores only logs the engine writes) never holds a withdrawal twice."""
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: HIGH, 1: FLUSH, 2: PAIR})
    h.withdraw_raise()
    events = list(h.events)
    with pytest.raises(IllegalActionError, match=r"already lost the right to raise this turn \[R7\.3\]"):
        h.withdraw_raise()
    assert h.events == events
    h.call()
    h.withdraw_raise()                  # the next player's turn: a new withdrawal
