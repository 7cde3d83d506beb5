"""Bots that expose their policy (issue 41): ``action_probabilities(view)`` is exactly the
distribution of ``decide(view)``, every action legal, and :func:`pokerdraw32.bots.known_policy`
trusts it only from the bot's own class.

The distributions are checked exactly, not by sampling: the rule bot over the 100 values of its
roll, the random bot over every sequence of its generator's draws (600 in the draw), the blueprint
bot over a grid of its one uniform draw, the test bots against their one decision.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest

from pokerdraw32 import Action, ActionKind, Hand, Rng, Rules, Structure
from pokerdraw32.bots import (
    CallBot,
    FoldBot,
    PotBot,
    RandomBot,
    RuleBot,
    SeatView,
    ShoveBot,
    known_policy,
)


def _same(action: Action) -> tuple[object, ...]:
    """An action, a discard's cards as a set (decide may give them in another order)."""
    return (action.kind, action.amount, frozenset(action.cards))


def _decisions(seed: int, hands: int = 12) -> Iterator[tuple[Hand, SeatView]]:
    """Decision points of hands played by random bots: 2-5 players, every structure, short and
    deep stacks (a clone of the hand at each, and its actor's view)."""
    rng = Rng(seed)
    for k in range(hands):
        players = 2 + rng.below(4)
        structure = [Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT][rng.below(3)]
        stacks = [3 + rng.below(300) for _ in range(players)]
        h = Hand(Rules(structure=structure), stacks, button=k % players, seed=seed * 1000 + k)
        player = RandomBot(seed + k)
        while h.actor is not None:
            yield h.clone(), SeatView.of(h)
            h.act(player.decide(hand=h))


def _check_distribution(h: Hand, dist: list[tuple[Action, float]]) -> None:
    assert dist and abs(sum(q for _, q in dist) - 1.0) < 1e-9 and all(q > 0 for _, q in dist)
    assert len({_same(a) for a, _ in dist}) == len(dist)
    for action, _ in dist:
        h.clone().act(action)            # legal: no IllegalActionError


class _Script(Rng):
    """A generator whose ``below`` answers are scripted, 0 once they run out; it records each bound
    asked (the rule bot's roll, the random bot's draws)."""

    def __init__(self, answers: tuple[int, ...]) -> None:
        super().__init__(0)
        self.answers = list(answers)
        self.asked: list[int] = []

    def below(self, n: int) -> int:
        self.asked.append(n)
        value = self.answers.pop(0) if self.answers else 0
        assert 0 <= value < n
        return value


def _exact(bot: RuleBot | RandomBot, view: SeatView) -> dict[tuple[object, ...], Fraction]:
    """The exact distribution of ``bot.decide(view)``: every sequence of answers its generator can
    give, each with its probability (a tree: the next bound asked branches)."""
    out: dict[tuple[object, ...], Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        script = _Script(prefix)
        bot.rng = script
        action = bot.decide(view)
        if len(script.asked) > len(prefix):          # a draw not answered yet: branch on it
            n = script.asked[len(prefix)]
            stack.extend(((*prefix, v), p / n) for v in range(n))
            continue
        out[_same(action)] = out.get(_same(action), Fraction(0)) + p
    return out


@pytest.mark.parametrize("cls", [RuleBot, RandomBot])
def test_a_built_in_bots_distribution_is_its_decide_over_every_draw(cls: type) -> None:
    bot = cls(0)
    phases = set()
    checked = 0
    for h, view in _decisions(1 if cls is RuleBot else 2):
        dist = bot.action_probabilities(view)
        _check_distribution(h, dist)
        exact = _exact(bot, view)
        assert set(exact) == {_same(a) for a, _ in dist}
        for action, q in dist:
            assert abs(float(exact[_same(action)]) - q) < 1e-12
        phases.add(view.phase)
        checked += 1
    assert len(phases) == 3 and checked > 80


@pytest.mark.parametrize("cls", [CallBot, FoldBot, ShoveBot, PotBot])
def test_test_bots_are_certain(cls: type) -> None:
    bot = cls(0)
    for h, view in itertools.islice(_decisions(3), 200):
        dist = bot.action_probabilities(view)
        assert dist == [(bot.decide(view), 1.0)]
        _check_distribution(h, dist)


def test_the_blueprint_bot_distribution_is_its_decide() -> None:
    """CfrBot: over a grid of its one uniform draw per decision, decide's actions have the weights
    action_probabilities gives (the translations of the opponent's raises, drawn once per hand,
    the same for both)."""
    from pokerdraw32.cfr.blueprint import blueprint_bot

    bot = blueprint_bot(5)
    opponent = RandomBot(9)
    grid = 2000
    checked = 0
    for seed in range(24):
        h = Hand(Rules(), [200, 200], button=seed % 2, seed=seed)
        while h.actor is not None:
            view = SeatView.of(h)
            if h.actor == 0:
                dist = bot.action_probabilities(view)
                _check_distribution(h.clone(), dist)
                real = bot._uniform
                bot._uniform = iter([i / grid for i in range(grid)]).__next__   # type: ignore[method-assign]
                counts = Counter(_same(bot.decide(view)) for _ in range(grid))
                bot._uniform = real                    # type: ignore[method-assign]
                want = {_same(a): q for a, q in dist}
                assert set(counts) <= set(want)
                for a, q in want.items():
                    assert abs(counts[a] / grid - q) <= 1.5 / grid
                checked += 1
                action = bot.decide(view)
            else:
                action = opponent.decide(view)
            h.act(action)
    assert checked > 30


def test_the_blueprint_bot_decides_the_same_with_its_distribution_asked_first() -> None:
    """Asking action_probabilities before decide leaves decide's choices as they were (the estimator
    asks at every decision)."""
    from pokerdraw32.cfr.blueprint import blueprint_bot

    plays = []
    for ask in (False, True):
        bot, opponent, actions = blueprint_bot(7), RandomBot(3), []
        for seed in range(10):
            h = Hand(Rules(), [100, 100], button=seed % 2, seed=seed)
            while h.actor is not None:
                view = SeatView.of(h)
                if h.actor == 0:
                    if ask:
                        bot.action_probabilities(view)
                    action = bot.decide(view)
                else:
                    action = opponent.decide(view)
                actions.append(str(action))
                h.act(action)
        plays.append((actions, dict(bot.stats)))
    assert plays[0] == plays[1]


def test_known_policy_trusts_only_the_bots_own_class() -> None:
    rule = RuleBot(1)
    assert known_policy(rule) == rule.action_probabilities
    assert known_policy(CallBot(0)) is not None
    for not_a_bot in ("rule", RuleBot, len, None, 3):
        assert known_policy(not_a_bot) is None

    class Inherits(RuleBot):
        pass

    class Overrides(CallBot):
        def decide(self, view: object = None, *, hand: object = None) -> Action:   # type: ignore[override]
            return Action(ActionKind.FOLD)

    swapped = RuleBot(2)
    swapped.decide = lambda view=None, *, hand=None: Action(ActionKind.FOLD)   # type: ignore[method-assign]
    claimed = RuleBot(3)
    claimed.action_probabilities = lambda view: [(Action(ActionKind.FOLD), 1.0)]   # type: ignore[method-assign]
    for bot in (Inherits(1), Overrides(1), swapped, claimed):
        assert known_policy(bot) is None, bot


def test_policy_bot_exposes_what_its_policy_exposes() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from pokerdraw32.env import PolicyBot

    def passive(obs: object, mask: object) -> int:
        return 1 if mask[1] else int(np.flatnonzero(mask)[0])   # type: ignore[index]

    class Mixed:
        """A callable policy that says how it chooses: check/call or the first legal index, half each."""

        def __call__(self, obs: object, mask: object) -> int:
            return passive(obs, mask)

        def action_probabilities(self, obs: object, mask: object) -> object:
            p = np.zeros(len(mask))                               # type: ignore[arg-type]
            first = int(np.flatnonzero(mask)[0])                  # type: ignore[index]
            p[first] += 0.5
            p[1 if mask[1] else first] += 0.5                     # type: ignore[index]
            return p

    plain, mixed = PolicyBot(passive), PolicyBot(Mixed())
    assert known_policy(plain) is not None                        # the class defines it ...
    for h, view in itertools.islice(_decisions(4), 80):
        assert plain.action_probabilities(view) is None           # ... and it says "unknown" for a function
        dist = mixed.action_probabilities(view)
        assert dist is not None
        _check_distribution(h, dist)
        assert any(_same(a) == _same(mixed.decide(view)) for a, _ in dist)


def test_the_blueprint_bot_refuses_a_view_with_nobody_to_act_as_every_bot() -> None:
    from pokerdraw32.cfr.blueprint import blueprint_bot
    from pokerdraw32.errors import IllegalActionError

    h = Hand(Rules(), [100, 100], button=0, seed=1)
    other = 1 - h.actor   # type: ignore[operator]
    bot = blueprint_bot(1)
    for ask in (bot.decide, bot.action_probabilities):
        with pytest.raises(IllegalActionError, match=rf"^seat {other} is not to act \(seat {h.actor} is\)"):
            ask(SeatView.of(h, other))
