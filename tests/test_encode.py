"""The research encoding, :mod:`pokerdraw32._handcore.encode` (issue 12): the action space, the legal-action
mask and the observation of a seat, on the build ``pokerdraw32._kernels`` picked.

Exact values in hand-built situations, then seeded loops over every structure, preset and table
size for the invariants: the mask is exactly ``legal_actions()``, every masked action is accepted,
every other one is refused with the index and the rule named and the hand unchanged, chips are
conserved (R9.5), and a seat's observation never depends on what it may not see.  No numpy: the
functions write into ``array.array`` buffers here (the environments' tests use numpy).
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest
from conftest import RULE_VARIETY as RULES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdraw32 import Hand, Rules
from pokerdraw32._kernels import encode as E
from pokerdraw32.actions import Action, ActionKind, Phase
from pokerdraw32.cards import DECK, parse_cards
from pokerdraw32.errors import IllegalActionError, PokerDraw32ValueError

BUCKETS = array("d", E.DEFAULT_BUCKETS)
ACTIONS = E.action_count(BUCKETS)
DISCARD0 = E.BET0 + len(BUCKETS)


def f32(x: float) -> float:
    """``x`` rounded to float32, as the observation stores it."""
    return array("f", [x])[0]


def obs(h: Hand, seat: int, scale: float = 200.0) -> list[float]:
    out = array("f", [0.0] * E.OBS_SIZE)
    assert E.observe(h, seat, out, scale) == 0
    return list(out)


def mask(h: Hand, buckets: Any = BUCKETS) -> list[int]:
    out = array("B", [0] * E.action_count(buckets))
    count = E.action_mask(h, out, buckets)
    assert count == sum(out)
    return list(out)


def legal(m: list[int]) -> list[int]:
    return [i for i, v in enumerate(m) if v]


def play(h: Hand, index: int, buckets: Any = BUCKETS) -> int:
    decision = E.apply_action(h, index, buckets)
    if decision < 0:
        raise E.action_error(h, index, buckets)
    return decision


def seat_block(o: list[float], k: int) -> list[float]:
    start = E.OBS_SEATS + E.SEAT_FEATURES * k
    return o[start:start + E.SEAT_FEATURES]


# -- the layout ------------------------------------------------------------------------------------

def test_layout_constants() -> None:
    assert (E.FOLD, E.CHECK_CALL, E.SPLIT, E.DECLINE, E.BET0, E.DISCARDS) == (0, 1, 2, 3, 4, 31)
    assert ACTIONS == 39 and E.action_count([0.0]) == 36
    assert E.OBS_SIZE == E.OBS_SEATS + 5 * E.SEAT_FEATURES == 171
    assert E.SEAT_LAST + 7 == E.SEAT_LAST_AMOUNT == E.SEAT_FEATURES - 1
    names = [E.action_name(i, BUCKETS) for i in range(ACTIONS)]
    assert names[:8] == ["fold", "check/call", "split", "decline", "bet/raise min", "bet/raise 0.5 pot",
                         "bet/raise 1 pot", "bet/raise all-in"]
    assert names[DISCARD0] == "stand pat" and names[DISCARD0 + 0b00101] == "discard 10100"
    assert names[-1] == "discard 01111" and len(set(names)) == ACTIONS


# -- exact values ------------------------------------------------------------------------------------

def test_first_decision_exact_mask_and_observation() -> None:
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)     # seat 0 (button) to act, blinds 1/2
    assert h.hole_cards(0) == parse_cards("Kd Ac 9d 7h 9c")
    m = mask(h)
    # fold, call 2, raise buckets: min (to 4), half pot (2 + 5 // 2 = 4: the min again, masked), pot
    # (2 + (3 + 2) = 7), all-in (200); no discard, no Parole
    assert legal(m) == [E.FOLD, E.CHECK_CALL, E.BET0, E.BET0 + 2, E.BET0 + 3]
    assert E.decode_action(h, E.BET0 + 2, BUCKETS) == 4 | 7 << 8             # A_RAISE to 7
    assert E.decode_action(h, E.BET0 + 3, BUCKETS) == 4 | 200 << 8
    assert E.decode_action(h, E.CHECK_CALL, BUCKETS) == 2                     # A_CALL
    assert E.decode_action(h, E.BET0 + 1, BUCKETS) == -1                      # the duplicate bucket
    o = obs(h, 0)
    cards = [i for i in range(32) if o[E.OBS_CARDS + i]]
    assert cards == sorted(int(c) for c in parse_cards("Kd Ac 9d 7h 9c")) == [3, 9, 10, 26, 29]
    assert o[E.OBS_PHASE:E.OBS_PHASE + 5] == [0, 1, 0, 0, 0]
    assert o[E.OBS_POSITION:E.OBS_POSITION + 5] == [1, 0, 0, 0, 0]             # the button
    assert o[E.OBS_PLAYERS:E.OBS_PLAYERS + 4] == [0, 1, 0, 0]
    assert o[E.OBS_STRUCTURE:E.OBS_STRUCTURE + 3] == [1, 0, 0]
    assert o[E.OBS_POT] == f32(3 / 200) and o[E.OBS_TO_MATCH] == f32(2 / 200)
    assert o[E.OBS_CALL] == f32(2 / 200) and o[E.OBS_MIN_TO] == f32(4 / 200) and o[E.OBS_MAX_TO] == 1.0
    assert o[E.OBS_BET_COUNT] == 0.25 and o[E.OBS_PAROLE] == 0
    me, sb, bb, absent = (seat_block(o, k) for k in (0, 1, 2, 3))
    assert me[:9] == [1, 1, 0, 0, 1, 1, 1, 0, 0]        # dealt in, in the hand, to act, the button, stack 200
    assert sb[:9] == [1, 1, 0, 0, 0, 0, f32(199 / 200), f32(1 / 200), f32(1 / 200)]
    assert bb[:9] == [1, 1, 0, 0, 0, 0, f32(198 / 200), f32(2 / 200), f32(2 / 200)]
    assert me[9:] == sb[9:] == bb[9:] == [0] * 14       # nobody drew, no action yet (blinds are not actions)
    assert absent == [0] * 23 and seat_block(o, 4) == [0] * 23
    # the small blind's view: no cards of seat 0, no bounds (not its turn), position 1 after the button
    o1 = obs(h, 1)
    assert [i for i in range(32) if o1[i]] == sorted(int(c) for c in h.hole_cards(1))
    assert o1[E.OBS_POSITION + 1] == 1 and o1[E.OBS_CALL] == o1[E.OBS_MIN_TO] == o1[E.OBS_MAX_TO] == 0
    assert seat_block(o1, 2)[:6] == [1, 1, 0, 0, 1, 1]  # block 2 of seat 1 is seat 0: to act, the button


def test_round_actions_and_the_draw() -> None:
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    play(h, E.BET0 + 2)                                   # seat 0 raises to 7 (the pot bucket)
    play(h, E.CHECK_CALL)                                 # seat 1 calls 6
    o = obs(h, 2)                                         # the big blind to act
    assert seat_block(o, 1)[E.SEAT_LAST:] == [0, 0, 0, 0, 1, 0, 0, f32(7 / 200)]   # seat 0: raise to 7
    assert seat_block(o, 2)[E.SEAT_LAST:] == [0, 0, 1, 0, 0, 0, 0, f32(6 / 200)]   # seat 1: called 6
    assert seat_block(o, 0)[E.SEAT_LAST:] == [0] * 8
    play(h, E.FOLD)
    assert h.phase is Phase.DRAW and h.actor == 1
    o = obs(h, 1)
    assert o[E.OBS_SEATS + E.SEAT_LAST:E.OBS_SEATS + E.SEAT_FEATURES] == [0] * 8   # a new round: none yet
    m = mask(h)
    assert legal(m) == list(range(DISCARD0, DISCARD0 + 31))
    assert o[E.OBS_CALL] == o[E.OBS_MIN_TO] == 0
    cards = sorted(h.hole_cards(1))
    # discard mask 0b10010: positions 1 and 4 of the sorted hand
    decision = E.decode_action(h, DISCARD0 + 0b10010, BUCKETS)
    assert decision & 255 == 7 and decision >> 8 == 2 | int(cards[1]) << 3 | int(cards[4]) << 9
    play(h, DISCARD0 + 0b10010)
    assert h.discarded[1] == 2 and cards[1] not in h.hole_cards(1) and cards[4] not in h.hole_cards(1)
    play(h, DISCARD0)                                     # seat 0 stands pat
    o = obs(h, 2)                                         # the folded big blind still watches
    assert seat_block(o, 1)[E.SEAT_DRAWN:E.SEAT_DRAWN + 5] == [1, 0, 0, 0, 0]   # seat 0 (block 1) drew 0,
    assert seat_block(o, 2)[E.SEAT_DRAWN:E.SEAT_DRAWN + 5] == [0, 0, 1, 0, 0]   # seat 1 drew 2,
    assert seat_block(o, 0)[E.SEAT_DRAWN:E.SEAT_DRAWN + 5] == [0, 0, 0, 0, 0]   # seat 2 folded before the draw
    assert seat_block(o, 0)[:3] == [1, 0, 1]              # the seat itself: folded
    assert [i for i in range(32) if o[i]] == []          # a folded seat holds no cards


def test_parole_split_and_all_in_decline() -> None:
    # seat 2 posts the big blind all-in for 2 (R4.5); seats 0 and 1 call; second round: the offer
    h = Hand(Rules(), [200, 200, 2], button=0, seed=5)
    play(h, E.CHECK_CALL)
    play(h, E.CHECK_CALL)
    while h.phase is Phase.DRAW:
        play(h, DISCARD0)
    assert h.phase is Phase.SECOND_ROUND and h.offer_open and h.actor == 0
    m = mask(h)
    assert legal(m) == [E.FOLD, E.CHECK_CALL, E.SPLIT, E.BET0, E.BET0 + 1, E.BET0 + 2, E.BET0 + 3]
    assert obs(h, 0)[E.OBS_PAROLE] == 1
    play(h, E.SPLIT)
    o = obs(h, 1)
    assert seat_block(o, 2)[E.SEAT_SPLIT] == 1                       # seat 0 chose split
    assert seat_block(o, 2)[E.SEAT_LAST + 5] == 1
    play(h, E.SPLIT)
    assert h.actor == 2 and h.stacks[2] == 0
    assert legal(mask(h)) == [E.SPLIT, E.DECLINE]                     # R8.2: the all-in player answers
    assert seat_block(obs(h, 2), 0)[E.SEAT_ALL_IN] == 1
    play(h, E.DECLINE)
    assert h.is_complete and sum(h.stacks) == 402
    assert mask(h) == [0] * ACTIONS
    assert E.decode_action(h, E.FOLD, BUCKETS) == -1


def test_fixed_limit_has_one_bet_size() -> None:
    h = Hand(Rules(structure="fixed-limit"), [100, 100, 100, 100], button=0, seed=2)
    m = mask(h)
    assert [i for i in legal(m) if E.BET0 <= i < DISCARD0] == [E.BET0]
    assert E.decode_action(h, E.BET0, BUCKETS) >> 8 == h.legal_actions().min_to == h.legal_actions().max_to
    assert obs(h, h.actor, 100.0)[E.OBS_STRUCTURE + 2] == 1


def test_buckets_are_configurable_and_checked() -> None:
    h = Hand(Rules(structure="pot-limit"), [200, 200], button=0, seed=3)
    buckets = array("d", [-1.0, 0.0, 2.0, 0.25])          # max (the pot limit), min, twice the pot, a quarter
    m = mask(h, buckets)
    lo, hi = h.legal_actions().min_to, h.legal_actions().max_to
    amounts = {b: E.decode_action(h, E.BET0 + b, buckets) >> 8 for b in range(4) if m[E.BET0 + b]}
    assert amounts[0] == hi and amounts[1] == lo
    assert 2 not in amounts            # twice the pot, clipped to the pot limit: bucket 0 again
    assert all(lo <= a <= hi for a in amounts.values()) and len(set(amounts.values())) == len(amounts)
    for bad in ([], [0.0] * 17, [float("nan")], [1001.0]):
        with pytest.raises(PokerDraw32ValueError):
            E.action_mask(h, array("B", [0] * 60), array("d", bad))
    with pytest.raises(PokerDraw32ValueError, match="needs 39"):
        E.action_mask(h, array("B", [0] * 38), BUCKETS)
    with pytest.raises(PokerDraw32ValueError, match="needs 171"):
        E.observe(h, 0, array("f", [0.0] * 170), 200.0)
    with pytest.raises(PokerDraw32ValueError, match="no seat 2"):
        E.observe(h, 2, array("f", [0.0] * 171), 200.0)
    with pytest.raises(PokerDraw32ValueError, match="scale"):
        E.observe(h, 0, array("f", [0.0] * 171), 0.0)


def test_an_action_outside_the_mask_is_refused_with_index_and_rule() -> None:
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    before = h.snapshot()
    cases = {
        E.BET0 + 1: ("bet/raise 0.5 pot", "same amount as an earlier bucket", "R3.4"),
        E.SPLIT: ("split", "no Parole offer is open", "R8.1"),
        E.DECLINE: ("decline", "only an all-in player", "R8.2"),
        DISCARD0 + 3: ("discard 11000", "cannot discard outside the draw", "R6.1"),
    }
    for index, (name, why, rule) in cases.items():
        assert E.apply_action(h, index, BUCKETS) == -1
        err = E.action_error(h, index, BUCKETS)
        assert isinstance(err, IllegalActionError) and err.rule == rule and err.seat == 0
        assert f"action index {index} ({name}) is not in the legal-action mask of seat 0" in str(err)
        assert why in str(err) and str(err).endswith(f"[{rule}]")
        assert h.snapshot() == before
    assert "outside the action space 0..38" in str(E.action_error(h, 39, BUCKETS))
    assert E.decode_action(h, 39, BUCKETS) == E.decode_action(h, -1, BUCKETS) == -1
    play(h, E.FOLD)
    play(h, E.FOLD)
    assert h.is_complete
    assert "nobody is to act" in str(E.action_error(h, E.FOLD, BUCKETS))


# -- invariants over many hands ----------------------------------------------------------------------

def check_mask(h: Hand, m: list[int], buckets: Any) -> None:
    """The mask is exactly the hand's legal actions."""
    la = h.legal_actions()
    assert la is not None
    kinds = la.kinds
    nb = len(buckets)
    assert m[E.FOLD] == (ActionKind.FOLD in kinds)
    assert m[E.CHECK_CALL] == (ActionKind.CHECK in kinds or ActionKind.CALL in kinds)
    assert m[E.SPLIT] == (ActionKind.SPLIT in kinds)
    assert m[E.DECLINE] == (ActionKind.DECLINE in kinds)
    bets = [E.decode_action(h, E.BET0 + b, buckets) >> 8 for b in range(nb) if m[E.BET0 + b]]
    if ActionKind.BET in kinds or ActionKind.RAISE in kinds:
        assert bets and len(set(bets)) == len(bets)
        assert all(la.min_to <= a <= la.max_to for a in bets)
        assert la.min_to in bets and la.max_to in bets          # the default buckets hold min and all-in
    else:
        assert bets == []
    assert m[E.BET0 + nb:] == [int(ActionKind.DISCARD in kinds)] * 31


@pytest.mark.parametrize("seed", range(6))
def test_mask_is_the_legal_actions_and_every_masked_action_is_accepted(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(25):
        rules = rnd.choice(RULES)
        n = rnd.randint(2, 5)
        stacks = [rnd.choice([3, 8, 40, 200, 1000]) for _ in range(n)]
        h = Hand(rules, stacks, rnd.randrange(n), seed=rnd.getrandbits(64))
        while not h.is_complete:
            m = mask(h)
            check_mask(h, m, BUCKETS)
            p = h.actor
            for i in rnd.sample(range(ACTIONS), 4):              # refused ones change nothing
                if not m[i]:
                    before = h.snapshot()
                    assert E.apply_action(h, i, BUCKETS) == -1
                    err = E.action_error(h, i, BUCKETS)
                    assert f"action index {i} " in str(err) and err.rule is not None and err.seat == p
                    assert h.snapshot() == before
            index = rnd.choice(legal(m))
            decision = E.decode_action(h, index, BUCKETS)
            code = decision & 255
            if code == 7:
                w = decision >> 8
                action = Action.discard([DECK[w >> 3 + 6 * j & 63] for j in range(w & 7)])
            elif code in (3, 4):
                action = Action(ActionKind.BET if code == 3 else ActionKind.RAISE, decision >> 8)
            else:
                action = Action([ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, None, None, ActionKind.SPLIT,
                                 ActionKind.DECLINE][code])
            assert h.can(action)
            assert E.apply_action(h, index, BUCKETS) == decision
        assert sum(h.stacks) == sum(stacks)                      # R9.5
        assert mask(h) == [0] * ACTIONS


@pytest.mark.parametrize("seed", range(4))
def test_observation_never_depends_on_hidden_cards(seed: int) -> None:
    """Every seat's observation equals its observation in ``determinize(seat)``, where every card the
    seat cannot see (the others' hole cards and discards, the stub, the muck) is dealt again."""
    rnd = random.Random(100 + seed)
    for _ in range(15):
        rules = rnd.choice(RULES)
        n = rnd.randint(2, 5)
        h = Hand(rules, [rnd.choice([5, 40, 200]) for _ in range(n)], rnd.randrange(n), seed=rnd.getrandbits(64))
        while not h.is_complete:
            for s in range(n):
                other = h.determinize(s, seed=rnd.getrandbits(64))
                assert sorted(other.hole[s]) == sorted(h.hole[s])
                assert obs(other, s) == obs(h, s)
            play(h, rnd.choice(legal(mask(h))))


def test_a_whole_hand_with_other_cards_looks_the_same_to_the_seat() -> None:
    """Two stacked decks that differ only in the cards dealt to seats 1 and 2 (swapped between them):
    the same action indices give seat 0 the same observation at every step until the showdown."""
    rnd = random.Random(9)
    for trial in range(20):
        deck = list(range(32))
        rnd.shuffle(deck)
        n = 3
        # R5.1: from the button's left one card at a time; button 2: deal order 0, 1, 2
        other = deck[:]
        for j in range(5):
            other[n * j + 1], other[n * j + 2] = deck[n * j + 2], deck[n * j + 1]
        a = Hand(Rules(), [60, 60, 60], button=2, deck=[DECK[c] for c in deck], seed=trial)
        b = Hand(Rules(), [60, 60, 60], button=2, deck=[DECK[c] for c in other], seed=trial)
        assert a.hole_cards(0) == b.hole_cards(0) and a.hole_cards(1) == b.hole_cards(2)
        while not a.is_complete:
            assert obs(a, 0) == obs(b, 0)
            m = mask(a)
            assert m == mask(b)
            index = rnd.choice(legal(m))
            play(a, index)
            play(b, index)
        assert b.is_complete


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), stacks=st.lists(st.integers(1, 400), min_size=2, max_size=5),
       button=st.integers(0, 4), seed=st.integers(0, 2**64 - 1),
       buckets=st.lists(st.one_of(st.just(0.0), st.just(-1.0), st.floats(0.01, 20.0)), min_size=1, max_size=16),
       picks=st.lists(st.integers(0, 10**6), min_size=60, max_size=60))
def test_any_table_any_buckets_mask_is_legal_and_chips_are_conserved(
        rules: Any, stacks: list[int], button: int, seed: int, buckets: list[float], picks: list[int]) -> None:
    """Hypothesis: any stacks (1 chip up), button, shuffle and buckets; actions picked among the
    masked ones: each is accepted, the mask is the legal actions, the hand ends with chips conserved
    (R9.5) and nobody to act; every seat's observation stays in ``[0, players]`` except the bet to
    match (R4.5)."""
    b = array("d", buckets)
    h = Hand(rules, stacks, button % len(stacks), seed=seed)
    n = len(stacks)
    scale = float(max(stacks))
    for pick in picks:
        if h.is_complete:
            break
        m = mask(h, b)
        la = h.legal_actions()
        assert la is not None
        assert m[E.FOLD] == (ActionKind.FOLD in la.kinds) and m[E.SPLIT] == (ActionKind.SPLIT in la.kinds)
        assert any(m[E.BET0:E.BET0 + len(b)]) == (ActionKind.BET in la.kinds or ActionKind.RAISE in la.kinds)
        for s in range(n):
            o = obs(h, s, scale)
            assert min(o) >= 0 and max(o[:E.OBS_TO_MATCH] + o[E.OBS_TO_MATCH + 1:]) <= sum(stacks) / scale + 1e-6
        index = legal(m)[pick % sum(m)]
        assert E.apply_action(h, index, b) >= 0
    else:
        while not h.is_complete:          # finish by the first legal action (fold or check/call)
            play(h, legal(mask(h, b))[0], b)
    assert h.is_complete and sum(h.stacks) == sum(stacks) and mask(h, b) == [0] * E.action_count(b)
