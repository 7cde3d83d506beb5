"""CfrBot (pokerdraw32.cfr.bot, issue 26): only legal actions in every heads-up situation, on the
abstract tree when the real game is the abstract one, heads-up only, and usable by simulate."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from pokerdraw32 import Hand, Rules
from pokerdraw32.bots import RandomBot, RuleBot, SeatView
from pokerdraw32.cfr import Abstraction, CfrBot, Strategy, Trainer
from pokerdraw32.errors import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError
from pokerdraw32.simulate import simulate

TINY = Abstraction(stack_bb=20, bet_fractions=(0.5, 1.0), raise_cap=2, pre_strength=2, pre_potential=2, post_buckets=3)


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    trainer = Trainer(TINY, seed=11)
    trainer.train(60)
    return trainer.strategy()


def _hand(bots: list[object], rules: Rules, stacks: list[int], button: int, seed: int) -> Hand:
    h = Hand(rules, stacks, button=button, seed=seed)
    while not h.is_complete:
        view = SeatView.of(h)
        action = bots[h.actor].decide(view)  # type: ignore[attr-defined]
        assert h.can(action), (seed, action, view.legal)
        h.act(action)
    assert h.result is not None and sum(h.result.stacks) == sum(stacks)       # R9.5
    return h


SITUATIONS = [([40, 40], Rules()), ([200, 200], Rules()), ([3, 500], Rules()), ([500, 2], Rules()), ([1, 9], Rules()),
              ([7, 7], Rules()), ([60, 25], Rules.preset("two-blind")), ([80, 80], Rules(structure="pot-limit")),
              ([50, 50], Rules(sb=3, bb=5)), ([90, 30], Rules(heads_up_button_posts_small=True)),
              ([45, 45], Rules(parole=False))]


def test_only_legal_actions_everywhere(strategy: Strategy) -> None:
    """Against random, rule and CFR bots, both seats, deep and short stacks, all-ins, other rules."""
    cfr = CfrBot(strategy, seed=1)
    opponents: list[object] = [RandomBot(seed=2), RuleBot(seed=3), CfrBot(strategy, seed=4)]
    hands = 0
    for i, (stacks, rules) in enumerate(SITUATIONS):
        for j in range(200):
            other = opponents[j % 3]
            seats = [cfr, other] if j % 2 else [other, cfr]
            _hand(seats, rules, stacks, button=j // 2 % 2, seed=100 * i + j)
            hands += 1
    assert hands == 2200
    assert cfr.stats["strategy"] > 1000 and sum(cfr.stats.values()) > 3000, cfr.stats


def test_self_play_at_the_trained_depth_stays_on_the_tree(strategy: Strategy) -> None:
    """Real game = abstract game (40 chips each, classic): every decision is the strategy's."""
    bots = [CfrBot(strategy, seed=5), CfrBot(strategy, seed=6)]
    for seed in range(150):
        _hand(bots, Rules(), [40, 40], button=seed % 2, seed=seed)
    for bot in bots:
        assert bot.stats["off_tree"] == 0 and bot.stats["mapped"] == 0 and bot.stats["strategy"] > 0
        assert bot.stats["unseen"] <= bot.stats["strategy"] // 4


def test_other_depths_map_or_fall_back(strategy: Strategy) -> None:
    """Shallower than trained: same-phase information sets are mapped onto the legal slots; a key that
    names a node of another phase at the trained depth (1-chip small blind: no first-round action, so
    the draw has the first round's empty history) is not used."""
    bot = CfrBot(strategy, seed=8)
    for seed in range(40):
        _hand([bot, RuleBot(seed=seed)], Rules(), [1, 9], button=1, seed=seed)
    assert bot.stats["strategy"] == bot.stats["mapped"] == 0 and bot.stats["unseen"] > 0
    bot = CfrBot(strategy, seed=8)
    for seed in range(40):
        _hand([bot, RuleBot(seed=seed)], Rules(), [7, 7], button=seed % 2, seed=seed)
    assert bot.stats["mapped"] > 0 and bot.stats["strategy"] > bot.stats["mapped"]


def test_mapped_moves_missing_slots() -> None:
    from pokerdraw32.cfr.bot import _mapped
    trained = 0b1111011            # fold, call, raise slots 3, 4, 5, 6
    probs = [0.1, 0.2, 0.3, 0.1, 0.2, 0.1]
    assert _mapped(trained, probs, [0, 1, 3, 6]) == pytest.approx({0: 0.1, 1: 0.2, 3: 0.4, 6: 0.3})
    assert _mapped(trained, probs, [0, 1]) == pytest.approx({0: 0.1, 1: 0.9})
    assert _mapped(0b110, [0.5, 0.5], [1, 3]) == {1: 1.0, 3: 0.0}


def test_decides_from_a_hand_too(strategy: Strategy) -> None:
    """As the built-in bots: ``decide(hand)`` and ``decide(hand=hand)`` are ``decide(SeatView.of(hand))``."""
    h = Hand(Rules(), [40, 40], button=1, seed=2)
    one, two, three = CfrBot(strategy, seed=3), CfrBot(strategy, seed=3), CfrBot(strategy, seed=3)
    assert one.decide(h) == two.decide(hand=h) == three.decide(SeatView.of(h))
    with pytest.raises(PokerDraw32TypeError, match="SeatView"):
        one.decide("fold")  # type: ignore[arg-type]


def test_translations_are_memoised_per_hand(strategy: Strategy) -> None:
    """A real raise is translated once per hand: every later decision's replay draws the same slot;
    a new hand forgets the old translations."""
    bot = CfrBot(strategy, seed=12)
    h = Hand(Rules(), [40, 40], button=1, seed=4)
    h.act("r 7")                                     # the small blind raises to 7: between abstract sizes
    view = SeatView.of(h)
    assert bot._replay(view) and list(bot._memo) == [4]
    first = bot._memo[4]
    for _ in range(20):
        bot._replay(view)
        assert bot._memo[4] == first
    other = Hand(Rules(), [40, 40], button=1, seed=5)
    bot._replay(SeatView.of(other, 0))
    assert bot._memo == {}


def test_heads_up_only(strategy: Strategy) -> None:
    h = Hand(Rules(), [100, 100, 100], button=0, seed=1)
    with pytest.raises(PokerDraw32ValueError, match="heads-up only: this hand has 3 players"):
        CfrBot(strategy).decide(SeatView.of(h))
    with pytest.raises(PokerDraw32TypeError, match="Strategy or the path"):
        CfrBot(42)  # type: ignore[arg-type]


def test_simulate_with_a_strategy_file(strategy: Strategy, tmp_path: Path) -> None:
    path = tmp_path / "s.cfr"
    strategy.save(path)
    bot = CfrBot(path, seed=9)
    again = pickle.loads(pickle.dumps(bot))
    assert isinstance(again, CfrBot) and again.rng.getstate() == bot.rng.getstate()
    assert list(again.strategy.keys) == list(strategy.keys) and again.strategy.get(strategy.keys[0]) is not None
    copied = copy.deepcopy(bot)                  # as simulate copies a bot object for each chunk
    assert copied.strategy is bot.strategy and copied.rng.getstate() == bot.rng.getstate() and copied is not bot
    r = simulate(players=2, hands=200, seed=3, stack=40, bots=[bot, "rule"], duplicate=True, workers=1)
    assert r.hands_played == 200 and sum(b.chips for b in r.per_bot) == 0
    with pytest.raises(PokerDraw32Error, match="heads-up only: this hand has 3 players"):   # as a BotError
        simulate(players=3, hands=10, seed=3, bots=[bot, "rule", "rule"], workers=1)


def test_an_opponent_in_the_gymnasium_env(strategy: Strategy) -> None:
    """``DrawEnv(players=2, opponents=bot.decide)``: a learning seat plays random legal actions
    against the CFR bot for 60 hands; every episode ends, the bot acts legally throughout."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from pokerdraw32.env import DrawEnv

    bot = CfrBot(strategy, seed=13)
    env = DrawEnv(players=2, opponents=bot.decide, stack=20)
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=1)
    episodes = 0
    while episodes < 60:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, _reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            episodes += 1
            _obs, info = env.reset()
    assert sum(bot.stats.values()) > 30


FIXED = Abstraction(structure="fixed-limit", stack_bb=20, raise_cap=4, pre_strength=2, pre_potential=2, post_buckets=3)


@pytest.fixture(scope="module")
def fixed_strategy() -> Strategy:
    trainer = Trainer(FIXED, seed=5)
    trainer.train(3000)
    return trainer.strategy()


def test_fixed_limit_plays_2000_hands_against_rule(fixed_strategy: Strategy) -> None:
    """A fixed-limit strategy in fixed-limit hands (R3.4): through simulate, every action legal (an illegal one
    stops simulate) and chips conserved; mostly the strategy's own decisions at the trained depth."""
    bot = CfrBot(fixed_strategy, seed=2)
    r = simulate(players=2, hands=2000, seed=7, stack=40, bots=[bot, "rule"], rules=Rules(structure="fixed-limit"),
                 workers=1)
    assert r.hands_played == 2000 and sum(b.chips for b in r.per_bot) == 0        # R9.5


FIXED_SITUATIONS = [[40, 40], [200, 200], [3, 500], [500, 2], [1, 9], [5, 5], [7, 11], [13, 40]]


def test_fixed_limit_only_legal_actions(fixed_strategy: Strategy) -> None:
    """Fixed-limit hands at several depths (short stacks: all-ins for less than a raise, R3.5), caps 4 and 2, both
    seats, against random, rule and fixed-limit CFR bots: every action legal, chips conserved; at the trained
    depth with the abstraction's cap the strategy decides."""
    cfr = CfrBot(fixed_strategy, seed=1)
    opponents: list[object] = [RandomBot(seed=2), RuleBot(seed=3), CfrBot(fixed_strategy, seed=4)]
    for i, stacks in enumerate(FIXED_SITUATIONS):
        for cap in (4, 2):
            rules = Rules(structure="fixed-limit", cap=cap)
            for j in range(40):
                other = opponents[j % 3]
                seats = [cfr, other] if j % 2 else [other, cfr]
                _hand(seats, rules, stacks, button=j // 2 % 2, seed=1000 * i + 100 * cap + j)
    assert cfr.stats["strategy"] > 500 and cfr.stats["strategy"] > 4 * cfr.stats["off_tree"], cfr.stats
    self_play = [CfrBot(fixed_strategy, seed=5), CfrBot(fixed_strategy, seed=6)]
    for seed in range(100):
        _hand(self_play, Rules(structure="fixed-limit"), [40, 40], button=seed % 2, seed=seed)
    for b in self_play:
        assert b.stats["off_tree"] == 0 and b.stats["mapped"] == 0 and b.stats["strategy"] > 0, b.stats


def test_structures_must_match(strategy: Strategy, fixed_strategy: Strategy) -> None:
    """A no-limit strategy refuses fixed-limit hands, a fixed-limit one no-limit and pot-limit hands (R3.4): at the
    first decision and before any hand (simulate's check_fit)."""
    h = Hand(Rules(structure="fixed-limit"), [40, 40], button=0, seed=1)
    with pytest.raises(PokerDraw32ValueError, match=r"does not play fixed-limit \(R3.4\) with a no-limit strategy"):
        CfrBot(strategy).decide(SeatView.of(h))
    for structure in ("no-limit", "pot-limit"):
        h = Hand(Rules(structure=structure), [40, 40], button=0, seed=1)
        with pytest.raises(PokerDraw32ValueError,
                           match=rf"does not play {structure} \(R3.4\) with a fixed-limit strategy"):
            CfrBot(fixed_strategy).decide(SeatView.of(h))
        with pytest.raises(PokerDraw32Error, match=rf"does not play {structure} \(R3.4\) with a fixed-limit"):
            simulate(players=2, hands=4, seed=1, stack=40, rules=Rules(structure=structure),
                     bots=[CfrBot(fixed_strategy), "rule"], workers=1)
    with pytest.raises(PokerDraw32Error, match=r"does not play fixed-limit \(R3.4\) with a no-limit strategy"):
        simulate(players=2, hands=4, seed=1, stack=40, rules=Rules(structure="fixed-limit"),
                 bots=[CfrBot(strategy), "rule"], workers=1)
    CfrBot.check_rules(Rules(), 2)                            # the class: a no-limit strategy's check
    with pytest.raises(PokerDraw32ValueError, match="fixed-limit"):
        CfrBot.check_rules(Rules(structure="fixed-limit"), 2)
    CfrBot(fixed_strategy).check_rules(Rules(structure="fixed-limit"), 2)
