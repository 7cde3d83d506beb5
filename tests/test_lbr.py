"""The local best response (issue 41, item 2): :mod:`pokerdraw32.lbr`.

* the opponent's view rebuilt from a guess equal to its real cards *is* its real view (every field), at
  every decision of many hands, before and after the draw: the range is weighed by exactly the
  probabilities the opponent's policy gave;
* the agent never reads a card it may not see: two hands that differ only in the opponent's cards
  (and so its discards and replacement cards), with the same public actions, get the same decisions;
* exact results against fixed bots: against the fold bot it wins every blind (75 bb/100, no variance);
* chips conserved (R9.5), reproducible by seed and the same on 1 or 2 workers;
* refusals: unknown policies (a replaced ``decide``), more than two players, bad counts.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from pokerdraw32 import Action, ActionKind, Hand, Rules, Structure
from pokerdraw32.bots import CallBot, FoldBot, RuleBot, SeatView
from pokerdraw32.errors import PokerDraw32ValueError
from pokerdraw32.lbr import LbrAgent, _Range, local_best_response


def _agent(bot: object, seed: int = 0, particles: int = 8) -> LbrAgent:
    return LbrAgent(copy.deepcopy(bot).action_probabilities, np.random.default_rng(seed), particles, 4)


@pytest.mark.parametrize("structure", [Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT])
def test_a_guess_of_the_real_cards_gives_the_real_view(structure: Structure) -> None:
    checked = 0
    for k in range(12):
        hand = Hand(Rules(structure=structure), [200, 200], button=k % 2, seed=100 + k)
        bots = [RuleBot(k), RuleBot(k + 50)]
        me = k % 2
        agent = _agent(bots[1 - me], k)
        agent.seat = me
        while hand.actor is not None:
            seat = hand.actor
            if seat != me:
                opp = seat
                rg = _Range([next(ev.cards for ev in hand.events
                                   if ev.kind.value == "deal_hole" and ev.seat == opp)])
                thrown = [ev.cards for ev in hand.events if ev.kind.value == "discard" and ev.seat == opp]
                received = [ev.cards for ev in hand.events if ev.kind.value == "deal_draw" and ev.seat == opp]
                if thrown:
                    rg.thrown = [thrown[0]]
                    rg.received = [received[0] if received else ()]
                agent.range = rg
                real = SeatView.of(hand, opp)
                guessed = agent._as_if(SeatView.of(hand.determinize(me, k), opp), 0)
                assert guessed == real
                assert guessed.events == real.events
                assert bots[opp].action_probabilities(guessed) == bots[opp].action_probabilities(real)
                checked += 1
            hand.act(bots[seat].decide(SeatView.of(hand, seat)))
    assert checked > 40


def _deck(mine: str, theirs: str) -> list[int]:
    """A stacked deck: seat 0 (the agent: first dealt, button 1) gets ``mine``, seat 1 ``theirs``."""
    from pokerdraw32 import parse_cards

    a, b = [int(c) for c in parse_cards(mine)], [int(c) for c in parse_cards(theirs)]
    probe = Hand(Rules(), [200, 200], button=1, seed=7, deck=list(range(32)))      # where each position goes
    out = [-1] * 32
    for seat, cards in ((0, a), (1, b)):
        for position, card in zip(probe.hole[seat], cards, strict=True):
            out[position] = card
    rest = iter(c for c in range(32) if c not in a + b)
    return [c if c >= 0 else next(rest) for c in out]


def test_the_agent_never_sees_the_opponents_cards() -> None:
    """The same public game, the opponent holding other cards: the same decisions, and the same range."""
    from pokerdraw32 import parse_cards

    script = [Action.call(), Action.discard(()), Action.check()]

    def play(theirs: str) -> list[Action]:
        hand = Hand(Rules(), [200, 200], button=1, seed=7, deck=_deck("Ah Ad Kc Qs 9h", theirs))
        assert sorted(hand.hole[0]) == sorted(int(c) for c in parse_cards("Ah Ad Kc Qs 9h"))
        agent = _agent(CallBot(), 3, particles=32)
        agent.new_hand(hand, 0)
        mine: list[Action] = []
        moves = iter(script)
        while hand.actor is not None:
            if hand.actor == 0:
                action = agent.decide(hand)
                mine.append(action)
            else:
                action = next(moves)
                if action.kind is ActionKind.CALL and ActionKind.CALL not in hand.legal_actions().kinds:
                    action = Action.check()
                agent.observe(hand, action)
            hand.act(action)
        return mine

    first = play("Kh Kd Ks 7c 8c")
    second = play("7h 8d 9s Tc Jc")
    assert first == second
    assert len(first) >= 2


def _fold_nets(hands: int) -> tuple[int, ...]:
    return local_best_response(FoldBot(), hands=hands, seed=5, particles=16, samples=4).net


def test_against_the_fold_bot_it_wins_every_blind() -> None:
    """FoldBot folds whenever it owes chips: the agent wins its blind in every hand, 1 chip as the
    big blind, 2 as the small blind, whatever the cards (R4.2, R5.2): exactly 75 bb/100."""
    report = local_best_response(FoldBot(), hands=40, seed=5, particles=16, samples=4)
    rules = Rules()
    for deal in range(20):
        pair = report.net[2 * deal: 2 * deal + 2]
        assert sorted(pair) == [rules.sb, rules.bb]
    assert report.bb_per_100 == 75.0
    assert report.ci95 == 0.0
    assert report.hands == 40


def test_reproducible_and_conserved() -> None:
    a = local_best_response("rule", hands=6, seed=11, particles=16, samples=4)
    b = local_best_response(RuleBot(11), hands=6, seed=11, particles=16, samples=4)
    assert a.net == b.net
    assert all(abs(x) <= 200 for x in a.net)
    c = local_best_response("rule", hands=36, seed=11, particles=16, samples=4, workers=2)
    d = local_best_response("rule", hands=36, seed=11, particles=16, samples=4, workers=1)
    assert c.net == d.net and c.bb_per_100 == d.bb_per_100


def test_chips_are_conserved_in_every_hand() -> None:
    """The agent's actions are always legal and every hand's nets sum to zero (R9.5)."""
    bot = RuleBot(1)
    for k in range(6):
        hand = Hand(Rules(), [200, 200], button=k % 2, seed=900 + k)
        agent = _agent(bot, k, particles=16)
        agent.new_hand(hand, k % 2)
        while hand.actor is not None:
            if hand.actor == k % 2:
                action = agent.decide(hand)
            else:
                action = bot.decide(SeatView.of(hand, hand.actor))
                agent.observe(hand, action)
            hand.act(action)
        assert hand.result is not None
        assert sum(hand.result.net) == 0
        assert sum(hand.result.stacks) == 400


def test_refusals() -> None:
    bot = RuleBot(1)
    bot.decide = lambda view: Action.fold()           # type: ignore[method-assign]
    with pytest.raises(PokerDraw32ValueError, match="action probabilities"):
        local_best_response(bot, hands=2)
    with pytest.raises(PokerDraw32ValueError, match="action probabilities"):
        local_best_response(lambda view: "call", hands=2)      # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match="heads-up"):
        _agent(RuleBot(1)).new_hand(Hand(Rules(), [200, 200, 200], button=0, seed=1), 0)
    for bad in ({"hands": 1}, {"hands": "x"}, {"particles": 0}, {"samples": 10**9}, {"seed": -1},
                {"stack_bb": 0}):
        with pytest.raises(PokerDraw32ValueError):
            local_best_response("rule", **bad)          # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match="nosuchbot"):
        local_best_response("nosuchbot", hands=2)


def test_the_command_line() -> None:
    import io
    import json

    from pokerdraw32.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["exploit", "lbr", "--against", "fold", "--hands", "20", "--seed", "3", "--particles", "16",
                 "--samples", "4", "--workers", "1", "--json", "--no-progress"], stdout=out, stderr=err) == 0
    data = json.loads(out.getvalue())
    assert data["bb_per_100"] == 75.0 and data["ci95"] == 0.0 and data["hands"] == 20
    assert data["low"] == data["high"] == 75.0 and data["against"] == "fold"
    out = io.StringIO()
    assert main(["exploit", "lbr", "--against", "rule", "--hands", "4", "--particles", "8", "--samples", "2",
                 "--workers", "1", "--no-progress"], stdout=out, stderr=err) == 0
    assert "local best response against rule" in out.getvalue() and "bb/100" in out.getvalue()
    for argv, code, words in (
            (["--against", "rule", "--players", "3"], 2, "heads-up only"),
            (["--against", "rule", "--hands", "1"], 2, "at least 2 hands"),
            (["--against", "nosuchbot", "--hands", "2"], 1, "nosuchbot"),
            (["--against", "nosuchmodule:Bot", "--hands", "2"], 1, "cannot import"),
            (["--against", "rule", "--particles", "0"], 2, "1 to 100,000")):
        err = io.StringIO()
        assert main(["exploit", "lbr", *argv, "--no-progress"], stdout=io.StringIO(), stderr=err) == code, argv
        assert words in err.getvalue(), (argv, err.getvalue())
