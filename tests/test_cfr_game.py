"""The solver's game model (pokerdraw32.cfr._mccfr) agrees with the engine's Hand (issue 26).

Seeded random walks of abstract actions (and hypothesis's: any stacks, bet sizes, caps, Parole), with
stacks from 1 chip to 200 big blinds, are played both
in the solver's model and in a :class:`pokerdraw32.Hand` (classic preset, heads-up, R4.3: seat 1 is
the button and posts the big blind), dealt the same cards: at every decision the seat to act, the
phase, the pot, the call amount and the legal kinds agree, every abstract raise is a legal amount
and the all-in is the engine's largest; at the end the net chips agree (R9.5 conservation too).
The engine is the reference.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdraw32 import Action, ActionKind, Hand, Phase, Rules
from pokerdraw32.cards import DECK
from pokerdraw32.cfr._select import mccfr
from pokerdraw32.cfr.abstraction import Abstraction, card_tables
from pokerdraw32.rules import Structure

M = mccfr
PHASES = {M.PH_FIRST: Phase.FIRST_ROUND, M.PH_DRAW: Phase.DRAW, M.PH_SECOND: Phase.SECOND_ROUND,
          M.PH_END: Phase.COMPLETE}
RAISES = (ActionKind.BET, ActionKind.RAISE)


def _solver(a: Abstraction, s0: int, s1: int) -> object:
    ct = card_tables(a.pre_strength, a.pre_potential, a.post_buckets)
    return M.Solver(a.milli, a.raise_cap, a.parole, 1, 2, s0, s1, ct.pre, ct.post, ct.value, ct.ruled, 1,
                    a.fixed_limit)


def _deal_pending(h: Hand, deck: list[int], hands: list[int], pos: list[int]) -> None:
    while h.pending_deal is not None:
        req = h.pending_deal
        if req.kind == "hole":
            cards = [c for c in range(32) if hands[req.seat] >> c & 1]
        else:
            cards = deck[pos[0]:pos[0] + req.count]
            pos[0] += req.count
        h.deal([DECK[c] for c in cards])


def _play(a: Abstraction, s0: int, s1: int, seed: int) -> int:
    rnd = random.Random(seed)
    deck = list(range(32))
    rnd.shuffle(deck)
    sv = _solver(a, s0, s1)
    sv.set_deck(deck)
    sv.start(0)
    rules = Rules(structure=Structure.FIXED_LIMIT, cap=a.raise_cap) if a.fixed_limit else Rules()
    h = Hand(rules, [s0, s1], button=1, auto_deal=False)
    hands = [sum(1 << c for c in deck[:5]), sum(1 << c for c in deck[5:10])]
    pos = [10]
    _deal_pending(h, deck, hands, pos)
    steps = 0
    while True:
        row = sv.row(0)
        assert h.phase is PHASES[row[M.F_PHASE]], (seed, steps, row)
        if row[M.F_PHASE] == M.PH_END:
            break
        p = row[M.F_ACTOR]
        assert h.actor == p, (seed, steps)
        assert h.pot == row[M.F_C0] + row[M.F_C1], (seed, steps)
        legal = h.legal_actions()
        slots = sv.legal(0)
        options = [s for s in range(16) if slots >> s & 1]
        if row[M.F_PHASE] == M.PH_DRAW:
            assert options == [0, 1, 2, 3, 4] and legal.max_discard == 4
        else:
            owe = row[M.F_C1 - p] - row[M.F_C0 + p]
            assert (ActionKind.CALL in legal.kinds) == (owe > 0) == (0 in options), (seed, steps)
            assert (ActionKind.CHECK in legal.kinds) == (owe <= 0) and 1 in options
            if owe > 0:
                assert legal.call_amount == min(owe, (s1 if p else s0) - row[M.F_C0 + p])
            assert (ActionKind.SPLIT in legal.kinds and a.parole) == (2 in options), (seed, steps)
            raises = [s for s in options if s >= 3]
            engine_raises = any(k in legal.kinds for k in RAISES)
            if a.fixed_limit:      # the rules' cap is the abstraction's (R3.4): the same raises, one amount
                assert engine_raises == bool(raises), (seed, steps)
                assert len(raises) <= 1 and (not raises or legal.min_to == legal.max_to == sv.amount(0, raises[0]))
                if raises:             # slot 4 (all-in) exactly when the full raise is beyond the stack
                    unit = 2 if row[M.F_PHASE] == M.PH_FIRST else 4
                    full = max(row[M.F_C0], row[M.F_C1]) - row[M.F_BASE] + unit
                    assert (raises[0] == 4) == (sv.amount(0, raises[0]) < full), (seed, steps)
            else:
                assert engine_raises == bool(raises) or (engine_raises and row[M.F_NRAISE] == a.raise_cap), \
                    (seed, steps)
            for s in raises:
                assert legal.min_to <= sv.amount(0, s) <= legal.max_to, (seed, steps, s)
            if raises:
                assert sv.amount(0, raises[-1]) == legal.max_to
                amounts = [sv.amount(0, s) for s in raises]
                assert amounts == sorted(set(amounts))
        slot = rnd.choice(options)
        if row[M.F_PHASE] == M.PH_DRAW:
            hand = row[M.F_H0 + p]
            out = M.draw_discard(hand, slot, card_tables(a.pre_strength, a.pre_potential, a.post_buckets)
                                 .ruled[M.hand_index(hand)])
            assert bin(out).count("1") == slot and out & hand == out
            action = Action.discard(tuple(DECK[c] for c in range(32) if out >> c & 1))
        elif slot == 0:
            action = Action.fold()
        elif slot == 1:
            action = Action.check() if ActionKind.CHECK in legal.kinds else Action.call()
        elif slot == 2:
            action = Action.split()
        else:
            kind = ActionKind.BET if ActionKind.BET in legal.kinds else ActionKind.RAISE
            action = Action(kind, sv.amount(0, slot))
        h.act(action)
        sv.child(0, slot)
        sv.set_row(0, sv.row(1))
        _deal_pending(h, deck, hands, pos)
        steps += 1
    result = h.result
    assert result is not None and sum(result.stacks) == s0 + s1      # R9.5
    u = sv.utility(0)
    assert result.net == (u, -u), (seed, result, u)
    return steps


STACKS = [(200, 200)] * 4 + [(1, 200), (200, 1), (2, 3), (3, 2), (5, 200), (200, 7), (13, 11), (40, 400)]


@pytest.mark.parametrize("abstraction", [Abstraction(), Abstraction(bet_fractions=(0.25, 0.75, 1.5, 3.0), raise_cap=4,
                                                                     parole=False),
                                         Abstraction(bet_fractions=(0.001, 1.0), raise_cap=1)])
def test_model_agrees_with_engine(abstraction: Abstraction) -> None:
    """Seeded random walks (every stack pair of STACKS, 25 seeds each): the model is the engine."""
    total = 0
    for i, (s0, s1) in enumerate(STACKS):
        for seed in range(25):
            total += _play(abstraction, s0, s1, 1000 * i + seed)
    assert total > 600


FIXED_STACKS = [(200, 200)] * 3 + [(1, 200), (200, 1), (2, 3), (3, 2), (3, 200), (200, 5), (4, 4), (6, 7), (7, 200),
                                   (200, 9), (11, 13), (13, 11), (15, 200), (20, 20), (40, 400)]


@pytest.mark.parametrize("abstraction", [Abstraction(structure="fixed-limit", raise_cap=4),
                                         Abstraction(structure="fixed-limit", raise_cap=3, parole=False),
                                         Abstraction(structure="fixed-limit", raise_cap=1),
                                         Abstraction(structure="fixed-limit", raise_cap=2, stack_bb=5)])
def test_fixed_limit_model_agrees_with_engine(abstraction: Abstraction) -> None:
    """Fixed-limit (R3.4, R3.5, R7.2) against the engine's Rules(structure=fixed-limit, cap=raise_cap): seeded
    random walks at every stack pair of FIXED_STACKS (short stacks: all-in for less than a raise), 25 seeds each."""
    total = 0
    for i, (s0, s1) in enumerate(FIXED_STACKS):
        for seed in range(25):
            total += _play(abstraction, s0, s1, 1000 * i + seed)
    assert total > 600


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s0=st.integers(1, 60), s1=st.integers(1, 60), seed=st.integers(0, 2**32), cap=st.integers(1, 4),
       parole=st.booleans())
def test_fixed_limit_model_agrees_with_engine_property(s0: int, s1: int, seed: int, cap: int, parole: bool) -> None:
    """Fixed-limit: any stacks from 1 to 60 chips (30 big blinds), caps and Parole setting."""
    _play(Abstraction(structure="fixed-limit", raise_cap=cap, parole=parole), s0, s1, seed)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s0=st.integers(1, 500), s1=st.integers(1, 500), seed=st.integers(0, 2**32),
       fractions=st.lists(st.integers(1, 4000), min_size=1, max_size=5, unique=True), cap=st.integers(1, 4),
       parole=st.booleans())
def test_model_agrees_with_engine_property(s0: int, s1: int, seed: int, fractions: list[int], cap: int,
                                           parole: bool) -> None:
    """Any stacks from 1 to 500 chips, any bet sizes (0.001 to 4 pots), caps and Parole setting."""
    a = Abstraction(bet_fractions=tuple(f / 1000 for f in sorted(fractions)), raise_cap=cap, parole=parole)
    _play(a, s0, s1, seed)


def test_draw_discard_is_the_rule_at_its_count() -> None:
    """``draw k`` with k the rule's count throws exactly the rule's cards (every 97th hand)."""
    ct = card_tables(4, 6, 16)
    from itertools import combinations, islice
    for cards in islice(combinations(range(32), 5), 0, None, 97):
        mask = sum(1 << c for c in cards)
        ruled = ct.ruled[M.hand_index(mask)]
        assert M.draw_discard(mask, bin(ruled).count("1"), ruled) == ruled
        assert M.draw_discard(mask, 0, ruled) == 0
