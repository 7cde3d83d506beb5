"""The PettingZoo AEC environment, :func:`pokerdraw32.env.env` / :class:`~pokerdraw32.env.raw_env`
(issue 12): PettingZoo's own api, seed and render tests for every table size, structure and preset,
then the game itself: rewards in big blinds that sum to zero (R9.5), masks, refusals, what an agent
sees.  Skipped where the ``[rl]`` extra (numpy, gymnasium, pettingzoo) is not installed."""

from __future__ import annotations

import itertools
import random
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from pokerdraw32 import Rules  # noqa: E402
from pokerdraw32._kernels import encode as E  # noqa: E402
from pokerdraw32.bots import SeatView  # noqa: E402
from pokerdraw32.env import OBS_SIZE, env, raw_env  # noqa: E402
from pokerdraw32.errors import IllegalActionError, PokerDraw32ValueError, RulesError  # noqa: E402

TABLES = [(players, preset, structure) for players, (preset, structure) in
          zip(range(2, 6), itertools.cycle([("classic", None), ("two-blind", "pot-limit"),
                                            ("classic", "fixed-limit"), ("two-blind", None)]), strict=False)]
TABLES += [(3, "classic", "pot-limit"), (5, "classic", "fixed-limit"), (2, "two-blind", "fixed-limit")]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():   # api_test's notes on Dict observations (as for PettingZoo's own poker)
        warnings.filterwarnings("ignore", message="Observation", category=UserWarning)
        yield


@pytest.mark.parametrize(("players", "preset", "structure"), TABLES)
def test_pettingzoo_api_test(players: int, preset: str, structure: str | None) -> None:
    api_test(env(players=players, preset=preset, structure=structure, stack=20), num_cycles=300)


@pytest.mark.parametrize("players", [2, 5])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: env(players=players, structure="pot-limit"), num_cycles=100)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(players=3, render_mode=render_mode))
    assert "first-round" in capsys.readouterr().out
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text.startswith("first-round  pot 3  button player_")
    assert text.count("\n") == 2


def play_random(e: Any, rnd: random.Random) -> dict[str, float]:
    """One hand with uniformly random legal actions; the rewards collected, checked along the way."""
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        totals[agent] += reward
        assert not truncated
        assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
        assert e.observation_space(agent).contains(obs)
        if terminated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any()
        # only the agent to act has a mask
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rnd.choice(np.flatnonzero(mask))))
    return totals


@pytest.mark.parametrize(("players", "preset", "structure"), TABLES)
def test_rewards_are_chips_in_big_blinds_and_sum_to_zero(players: int, preset: str, structure: str | None) -> None:
    rnd = random.Random(players)
    e = raw_env(players=players, preset=preset, structure=structure, stack=rnd.choice([1, 5, 100]))
    buttons = set()
    for hand in range(40):
        e.reset(seed=hand)
        buttons.add(e.hand.button)
        totals = play_random(e, rnd)
        h = e.hand
        assert h.is_complete and sum(h.stacks) == players * e.stack                       # R9.5
        for a, s in zip(e.possible_agents, range(players), strict=True):
            assert totals[a] == (h.stacks[s] - e.stack) / e.rules.bb
        assert abs(sum(totals.values())) < 1e-9
        assert e.agents == []
    assert buttons == set(range(players))              # the button moves with the seed


def test_short_stacks_facing_a_large_over_blind_stay_in_the_space() -> None:
    """Stacks of one big blind against an over blind of 10 big blinds: the bet to match in round one
    is the over blind, owed in full (R4.5), 10 stacks: the observation space allows it."""
    e = raw_env(players=5, rules=Rules(sb=1, bb=2, ob=20), stack=1)
    assert e.observation_space("player_0")["observation"].high.max() == 10.0
    rnd = random.Random(3)
    for hand in range(20):
        e.reset(seed=hand)
        play_random(e, rnd)


def test_same_seed_same_game_and_the_stack_in_big_blinds() -> None:
    def trajectory(seed: int) -> list[Any]:
        e = raw_env(players=4, stack=50)
        e.reset(seed=seed)
        rnd = random.Random(0)
        out = []
        for agent in e.agent_iter():
            obs, reward, terminated, _, _ = e.last()
            out.append((agent, obs["observation"].tobytes(), reward))
            e.step(None if terminated else int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    assert trajectory(3) == trajectory(3) != trajectory(4)
    e = raw_env(players=4, stack=50, rules=Rules(sb=5))
    e.reset(seed=0)
    assert e.stack == 500 and e.hand.starting_stacks == (500,) * 4


def test_observation_is_the_encoding_of_the_agent_seat() -> None:
    e = raw_env(players=3, stack=100)
    e.reset(seed=11)
    h = e.hand
    for agent, seat in zip(e.possible_agents, range(3), strict=True):
        out = np.zeros(OBS_SIZE, np.float32)
        E.observe(h, seat, out, float(e.stack))
        assert np.array_equal(e.observe(agent)["observation"], out)
        cards = np.flatnonzero(out[:32]).tolist()
        assert cards == sorted(int(c) for c in h.hole_cards(seat))
    actor = e.possible_agents[h.actor]
    assert e.agent_selection == actor
    assert SeatView.of(h, h.actor).legal == h.legal_actions()      # the documented full view


def test_an_action_outside_the_mask_raises_and_changes_nothing() -> None:
    e = env(players=3)
    e.reset(seed=2)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    inner = e.unwrapped
    before = inner.hand.snapshot()
    with pytest.raises(IllegalActionError, match=rf"action index {bad} \(.*\) is not in the legal-action mask"):
        e.step(bad)
    assert inner.hand.snapshot() == before and e.agent_selection == inner.possible_agents[inner.hand.actor]
    with pytest.raises(AssertionError):                 # PettingZoo's AssertOutOfBoundsWrapper
        e.step(inner.encoding.actions)


def test_penalty_mode_is_pettingzoo_terminate_illegal() -> None:
    e = env(players=3, illegal_action="penalty", penalty=2.5)
    e.reset(seed=2)
    agent = e.agent_selection
    obs, *_ = e.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert e.rewards[agent] == -2.5 and all(e.terminations.values())


def test_bad_arguments() -> None:
    with pytest.raises(PokerDraw32ValueError, match="2 to 5 players"):
        raw_env(players=6)
    with pytest.raises(PokerDraw32ValueError, match="big blinds"):
        raw_env(stack=0)
    with pytest.raises(RulesError):
        raw_env(preset="nope")
    with pytest.raises(PokerDraw32ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(PokerDraw32ValueError, match="illegal_action"):
        env(illegal_action="ignore")
    with pytest.raises(PokerDraw32ValueError, match="buckets"):
        raw_env(buckets=[])
    e = raw_env(players=2, buckets=[0.0, -1.0])
    assert e.action_space("player_0").n == 37
