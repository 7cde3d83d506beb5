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

import pytest

from pokerdraw32 import Action, ActionKind, Hand, Rules, Structure
from pokerdraw32.bots import CallBot, FoldBot, RuleBot, SeatView
from pokerdraw32.errors import PokerDraw32ValueError

np = pytest.importorskip("numpy")        # the [aivat] extra (or [rl], [openspiel])

from pokerdraw32.lbr import LbrAgent, _Range, local_best_response  # noqa: E402


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


@pytest.mark.parametrize("structure", [Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT])
@pytest.mark.parametrize("stacks", [[200, 200], [7, 200], [3, 4]])
def test_chips_are_conserved_in_every_hand(structure: Structure, stacks: list[int]) -> None:
    """The agent's actions are always legal (all-in, short stacks, every structure) and every hand's
    nets sum to zero (R9.5)."""
    bot = RuleBot(1)
    for k in range(6):
        hand = Hand(Rules(structure=structure), stacks, button=k % 2, seed=900 + k)
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
        assert sum(hand.result.stacks) == sum(stacks)


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
            (["--against", "rule", "--hands", "1"], 2, "2 to 100,000,000 hands"),
            (["--against", "nosuchbot", "--hands", "2"], 1, "nosuchbot"),
            (["--against", "nosuchmodule:Bot", "--hands", "2"], 1, "cannot import"),
            (["--against", "rule", "--particles", "0"], 2, "1 to 100,000")):
        err = io.StringIO()
        assert main(["exploit", "lbr", *argv, "--no-progress"], stdout=io.StringIO(), stderr=err) == code, argv
        assert words in err.getvalue(), (argv, err.getvalue())


class _NoDistribution(RuleBot):
    def action_probabilities(self, view=None, *, hand=None):  # type: ignore[no-untyped-def, override]
        return None


class _Locked(RuleBot):
    action_probabilities = RuleBot.action_probabilities     # its own class's: a known policy

    def __init__(self, seed: int | None = None) -> None:
        import threading

        super().__init__(seed)
        self.lock = threading.Lock()


class _Local(RuleBot):
    action_probabilities = RuleBot.action_probabilities     # its own class's: a known policy

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.f = lambda: None       # copies, but does not pickle


class _Boom(RuleBot):
    action_probabilities = RuleBot.action_probabilities     # its own class's: a known policy

    def __init__(self, seed: int | None = None) -> None:
        raise RuntimeError("boom")


def test_refusals_of_bots_and_arguments() -> None:
    from pokerdraw32.errors import PokerDraw32TypeError
    from pokerdraw32.simulate._chunk import BotError

    small = {"hands": 2, "particles": 4, "samples": 2}
    with pytest.raises(BotError, match="no distribution"):
        local_best_response(_NoDistribution(1), **small)
    with pytest.raises(PokerDraw32TypeError, match="cannot make a _Boom: RuntimeError: boom"):
        local_best_response(_Boom, **small)
    with pytest.raises(PokerDraw32TypeError, match="cannot be copied"):
        local_best_response(_Locked(1), **small)
    with pytest.raises(PokerDraw32TypeError, match="worker processes"):
        local_best_response(_Local(1), workers=2, **small)
    assert local_best_response(_Local(1), **small).hands == 2              # one worker: fine
    assert local_best_response(RuleBot, seed=np.int64(3), **small).net == \
        local_best_response("rule", seed=3, **small).net                   # a class, a numpy seed
    with pytest.raises(PokerDraw32TypeError, match="progress"):
        local_best_response("rule", progress=5, **small)                   # type: ignore[arg-type]
    with pytest.raises(PokerDraw32TypeError, match="label"):
        local_best_response("rule", label=5, **small)                      # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match=r"stack_bb .*R3\.2"):
        local_best_response("rule", rules=Rules(sb=2**45, bb=2**46, ob=2**47), stack_bb=1000, **small)
    with pytest.raises(PokerDraw32ValueError, match="100,000,000"):
        local_best_response("rule", hands=10**12)


def test_the_agent_refuses_misuse() -> None:
    from pokerdraw32 import IllegalActionError
    from pokerdraw32.errors import PokerDraw32TypeError

    policy = RuleBot(1).action_probabilities
    with pytest.raises(PokerDraw32TypeError, match="Generator"):
        LbrAgent(policy, None)                                             # type: ignore[arg-type]
    with pytest.raises(PokerDraw32TypeError, match="policy"):
        LbrAgent(5, np.random.default_rng(1))                              # type: ignore[arg-type]
    for bad in (0, -3, "8", 2.5):
        with pytest.raises(PokerDraw32ValueError, match="particles"):
            LbrAgent(policy, np.random.default_rng(1), particles=bad)      # type: ignore[arg-type]
        with pytest.raises(PokerDraw32ValueError, match="samples"):
            LbrAgent(policy, np.random.default_rng(1), samples=bad)        # type: ignore[arg-type]
    agent = LbrAgent(policy, np.random.default_rng(1), 8, 2)
    hand = Hand(Rules(), [200, 200], button=0, seed=1)
    with pytest.raises(PokerDraw32ValueError, match="new_hand"):
        agent.decide(hand)
    with pytest.raises(PokerDraw32TypeError, match="Hand"):
        agent.new_hand(None, 0)                                            # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        agent.new_hand(hand, 2)
    me = 1 - hand.actor
    agent.new_hand(hand, me)
    with pytest.raises(PokerDraw32ValueError, match="not to act"):
        agent.decide(hand)
    with pytest.raises(IllegalActionError):
        agent.observe(hand, "nonsense")
    agent.observe(hand, "call")                   # text is parsed
    hand.act("call")
    with pytest.raises(PokerDraw32ValueError, match="just dealt"):
        LbrAgent(policy, np.random.default_rng(1), 8, 2).new_hand(hand, me)


def test_json_without_an_interval_is_strict_json() -> None:
    import io
    import json

    from pokerdraw32.cli import main

    out = io.StringIO()
    assert main(["exploit", "lbr", "--against", "fold", "--hands", "2", "--particles", "4", "--samples", "2",
                 "--workers", "1", "--json", "--no-progress"], stdout=out, stderr=io.StringIO()) == 0

    def refuse(name: str) -> None:
        raise AssertionError(f"not strict JSON: {name}")

    data = json.loads(out.getvalue(), parse_constant=refuse)
    assert data["ci95"] is None and data["low"] is None and data["high"] is None


def test_ctrl_c_stops_the_run() -> None:
    def stop(_hands: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        local_best_response("rule", hands=64, particles=4, samples=2, progress=stop)


def test_without_numpy_the_command_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from pokerdraw32.cli import main

    monkeypatch.setitem(sys.modules, "numpy", None)          # import numpy fails
    monkeypatch.delitem(sys.modules, "pokerdraw32.lbr")
    err = io.StringIO()
    assert main(["exploit", "lbr", "--against", "rule", "--hands", "2", "--no-progress"], stdout=io.StringIO(),
                stderr=err) == 1
    assert "pokerdraw32[aivat]" in err.getvalue()
