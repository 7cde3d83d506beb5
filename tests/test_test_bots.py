"""The test bots of issue 26 (the opponents a strong bot must beat): ``"call"`` (CallBot),
``"shove"`` (ShoveBot), ``"fold"`` (FoldBot) and ``"maniac"`` (PotBot).

Exact actions in constructed spots; every action legal and as documented in seeded hands across the
structures (R3.4) and 2 to 5 players (R3.1), with short stacks for all-ins (R3.5) and the Parole
(R8); chips conserved (R9.5) in simulations with each of them.
"""

from __future__ import annotations

import pytest
from conftest import RULE_VARIETY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdraw32 import Action, ActionKind, Hand, Phase, Rules
from pokerdraw32.bots import (
    Bot,
    CallBot,
    FoldBot,
    PotBot,
    RandomBot,
    RuleBot,
    SeatView,
    ShoveBot,
    choose_discards,
    make_bot,
    pot_raise_to,
)
from pokerdraw32.simulate import simulate

TEST_BOTS = {"call": CallBot, "shove": ShoveBot, "fold": FoldBot, "maniac": PotBot}


def _decide(cls: type[Bot], h: Hand) -> Action:
    return cls(0).decide(SeatView.of(h))


def test_the_names_make_the_test_bots() -> None:
    for name, cls in TEST_BOTS.items():
        bot = make_bot(name, 7)
        assert type(bot) is cls and isinstance(bot, Bot)


def test_heads_up_first_decision_facing_the_big_blind() -> None:
    """Heads-up, blinds 1/2 (R4.3: the non-dealer, seat 1, posts the small blind and acts first,
    owing 1; pot 3): call calls, fold folds, shove raises all-in to 200, the maniac raises the pot:
    call 1 (pot 4), raise by 4, to 1 + 1 + 3 + 1 = 6 (R3.4)."""
    h = Hand(Rules(), [200, 200], button=0, seed=5)
    assert h.actor == 1 and h.legal_actions().call_amount == 1 and h.pot == 3
    assert _decide(CallBot, h) == Action.call()
    assert _decide(FoldBot, h) == Action.fold()
    assert _decide(ShoveBot, h) == Action.raise_to(200)
    assert _decide(PotBot, h) == Action.raise_to(6)
    assert pot_raise_to(SeatView.of(h), h.legal_actions()) == 6
    h.act("call")                                       # the big blind's option: a check is free
    assert h.actor == 0 and ActionKind.CHECK in h.legal_actions().kinds
    assert _decide(CallBot, h) == Action.check()
    assert _decide(FoldBot, h) == Action.check()        # never a fold when a check is free
    assert _decide(ShoveBot, h) == Action.raise_to(200)
    assert _decide(PotBot, h) == Action.raise_to(6)     # 2 + 0 + pot 4 + 0


def test_the_draw_is_the_rule_draw() -> None:
    h = Hand(Rules(), [200, 200], button=0, seed=5)
    h.act("call")
    h.act("check")
    while h.phase is Phase.DRAW:
        cards = h.legal_actions().hole_cards
        expected = Action.discard(choose_discards(cards))
        for cls in TEST_BOTS.values():
            assert _decide(cls, h) == expected
        assert RuleBot(0).decide(SeatView.of(h)) == expected       # the rule bot's draw
        h.act(expected)
    assert h.phase is Phase.SECOND_ROUND


def test_second_round_open_and_facing_a_bet() -> None:
    """Second round, nothing bet, pot 4 (Parole open, R8.1: they check rather than split): call and
    fold check, shove bets its stack (198), the maniac bets the pot (4); facing a bet of 4, fold
    folds and call calls."""
    h = Hand(Rules(), [200, 200], button=0, seed=5)
    h.act("call")
    h.act("check")
    while h.phase is Phase.DRAW:
        h.act(Action.stand_pat())
    assert h.phase is Phase.SECOND_ROUND and h.pot == 4
    assert ActionKind.SPLIT in h.legal_actions().kinds
    assert _decide(CallBot, h) == Action.check()
    assert _decide(FoldBot, h) == Action.check()
    assert _decide(ShoveBot, h) == Action.bet(198)
    assert _decide(PotBot, h) == Action.bet(4)
    h.act(Action.bet(4))
    assert _decide(FoldBot, h) == Action.fold()
    assert _decide(CallBot, h) == Action.call()
    assert _decide(ShoveBot, h) == Action.raise_to(198)
    assert _decide(PotBot, h) == Action.raise_to(16)    # 0 + 4 + pot 8 + 4


def test_an_all_in_player_declines_the_parole_offer() -> None:
    """R8.2: seat 2 all-in, the other two split: seat 2 may only split or decline; every test bot
    declines."""
    h = Hand(Rules(), [200, 200, 10], button=0, seed=0)
    while h.phase is Phase.FIRST_ROUND:
        legal = h.legal_actions()
        if h.actor == 2 and ActionKind.RAISE in legal.kinds:
            h.act(Action.raise_to(legal.max_to))
        else:
            h.act("call" if ActionKind.CALL in legal.kinds else "check")
    while h.phase is Phase.DRAW:
        h.act(Action.stand_pat())
    h.act("split")
    h.act("split")
    assert h.actor == 2 and h.legal_actions().kinds == {ActionKind.SPLIT, ActionKind.DECLINE}
    for cls in TEST_BOTS.values():
        assert _decide(cls, h) == Action.decline()


def test_the_limits_clamp_the_raises() -> None:
    """Pot-limit (R3.4): the pot-size raise is the largest legal one; fixed-limit: the fixed amount;
    no-limit with a short stack: all-in."""
    h = Hand(Rules(structure="pot-limit"), [200, 200, 200], button=0, seed=1)   # blinds 1/2, pot 3
    legal = h.legal_actions()
    assert _decide(PotBot, h) == Action.raise_to(legal.max_to) == Action.raise_to(7)    # 2 + (3 + 2)
    assert _decide(ShoveBot, h) == Action.raise_to(7)
    h = Hand(Rules(structure="fixed-limit"), [200, 200, 200], button=0, seed=1)
    assert _decide(PotBot, h) == _decide(ShoveBot, h) == Action.raise_to(4)
    h = Hand(Rules(), [200, 200, 5], button=0, seed=1)       # seat 0 to act, seat 2 short: still 200 to shove
    assert _decide(PotBot, h) == Action.raise_to(7) and _decide(ShoveBot, h) == Action.raise_to(200)
    h = Hand(Rules(), [6, 200, 200], button=0, seed=1)
    assert _decide(PotBot, h) == _decide(ShoveBot, h) == Action.raise_to(6)       # clamped to all-in


def _check_decision(cls: type[Bot], view: SeatView, action: Action) -> None:
    """What the test bots' docstrings promise, given the legal actions."""
    legal = view.legal
    assert legal is not None
    kinds = legal.kinds
    assert action.kind is not ActionKind.TIMEOUT
    if ActionKind.DISCARD in kinds:
        assert action == Action.discard(choose_discards(legal.hole_cards))
        return
    if ActionKind.CHECK in kinds:
        assert action.kind is not ActionKind.FOLD, "a fold when a check is free"
    raising = ActionKind.BET in kinds or ActionKind.RAISE in kinds
    passive = Action.check() if ActionKind.CHECK in kinds else Action.call() if ActionKind.CALL in kinds \
        else Action.decline()
    if cls is CallBot:
        assert action == passive
    elif cls is FoldBot:
        assert action == (Action.check() if ActionKind.CHECK in kinds else
                          Action.fold() if ActionKind.FOLD in kinds else passive)
    elif raising:
        assert legal.min_to is not None and legal.max_to is not None
        kind = ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE
        if cls is ShoveBot:
            assert action == Action(kind, legal.max_to)
        else:
            target = min(max(pot_raise_to(view, legal), legal.min_to), legal.max_to)
            assert action == Action(kind, target)
            if view.rules.structure.value == "pot-limit":
                assert action.amount == legal.max_to        # the pot-size raise is the pot-limit maximum
    else:
        assert action == passive


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_VARIETY), players=st.integers(2, 5), data=st.data(),
       seed=st.integers(0, 2**64 - 1))
def test_every_action_is_legal_and_as_documented(rules: Rules, players: int, data: st.DataObject,
                                                 seed: int) -> None:
    """Random line-ups of the test bots (with rule and random bots), stacks from 1 chip to deep
    (all-ins, R3.5, R4.5): every action is accepted by the engine (IllegalActionError otherwise),
    is the one the docstring gives, and the chips are conserved (R9.5)."""
    pool = [CallBot, ShoveBot, FoldBot, PotBot, RuleBot, RandomBot]
    lineup = data.draw(st.lists(st.sampled_from(pool), min_size=players, max_size=players), label="lineup")
    stacks = data.draw(st.lists(st.integers(1, 400), min_size=players, max_size=players), label="stacks")
    _play_checked(rules, stacks, seed, [cls(i) for i, cls in enumerate(lineup)])


@pytest.mark.parametrize("structure", ["no-limit", "pot-limit", "fixed-limit"])
def test_seeded_hands_of_every_test_bot_at_every_table_size(structure: str) -> None:
    """Seeded (no hypothesis): 2 to 5 players, each a test bot against the others and a rule bot."""
    rules = Rules(structure=structure)
    for players in range(2, 6):
        for seed in range(30):
            lineup = [list(TEST_BOTS.values())[(seed + i) % 4] if i < players - 1 else RuleBot
                      for i in range(players)]
            stacks = [20 + 37 * ((seed * 7 + i * 13) % 11) for i in range(players)]
            _play_checked(rules, stacks, seed, [cls(seed + i) for i, cls in enumerate(lineup)])


def _play_checked(rules: Rules, stacks: list[int], seed: int, bots: list[Bot]) -> None:
    """One hand of ``bots``, every test bot's decision checked (_check_decision), chips conserved (R9.5)."""
    h = Hand(rules, stacks, button=seed % len(stacks), seed=seed)
    while not h.is_complete:
        actor = h.actor
        assert actor is not None
        view = SeatView.of(h)
        action = bots[actor].decide(view)
        if type(bots[actor]) in TEST_BOTS.values():
            _check_decision(type(bots[actor]), view, action)
        h.act(action)
    assert sum(h.stacks) == sum(stacks)


@pytest.mark.parametrize("name", sorted(TEST_BOTS))
def test_simulations_with_each_test_bot_conserve_chips(name: str) -> None:
    """R9.5 in every mode: reset, duplicate deals, table sessions with sit-outs; 2 and 5 players,
    every structure."""
    for structure in ("no-limit", "pot-limit", "fixed-limit"):
        rules = Rules(structure=structure)
        r = simulate(players=2, hands=200, seed=3, rules=rules, bots=[name, "rule"], duplicate=True)
        assert r.hands_played == 200 and sum(b.chips for b in r.per_bot) == 0
        assert [b.label for b in r.per_bot] == [TEST_BOTS[name].__name__, "RuleBot"]
        assert [b.name for b in r.per_bot] == [f"{name}0", "rule1"]
        r = simulate(players=5, hands=100, seed=4, rules=rules, bots=[name, "random", name, "rule", "call"])
        assert sum(b.chips for b in r.per_bot) == 0
        r = simulate(players=4, hands=100, seed=5, rules=rules, bots=name, mode="session", sit_out=0.1)
        assert sum(r.net) == 0 and sum(r.final_stacks or []) == sum(r.bought_in or [])


def test_fold_bot_loses_its_blinds_and_call_bot_never_folds() -> None:
    """Heads-up against a shover: the fold bot folds every hand it owes chips, the call bot shows
    down every hand (2 players: the shover is all-in at once or the call bot checks it down)."""
    r = simulate(players=2, hands=200, seed=9, bots=["fold", "shove"])
    assert r.per_bot[0].showdowns == 0 and r.per_bot[0].chips < 0
    r = simulate(players=2, hands=200, seed=9, bots=["call", "shove"])
    assert r.per_bot[0].showdowns == 200
