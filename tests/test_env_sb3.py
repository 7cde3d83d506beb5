"""Stable-Baselines3 on the vector core, :class:`pokerdraw32.env.sb3.MaskableDrawVecEnv` (issue 24,
item 2): hand by hand it is SB3's own ``DummyVecEnv`` of :class:`~pokerdraw32.env.DrawEnv` copies
seeded the same way (same-step autoreset, terminal observations, masks, rewards per hand dealt),
sb3-contrib's MaskablePPO trains on it without a mask violation, and ``evaluate_policy`` gives
the same episodes on both.  Skipped where the ``[sb3]`` extra is not installed."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, VecCheckNan, VecEnv, VecMonitor  # noqa: E402

from pokerdraw32.env import OBS_SIZE, DrawEnv, DrawVectorEnv  # noqa: E402
from pokerdraw32.env.sb3 import MaskableDrawVecEnv  # noqa: E402
from pokerdraw32.errors import IllegalActionError, PokerDraw32ValueError  # noqa: E402

CONFIGS = [
    {"players": 2, "opponents": "rule"},
    {"players": 3, "opponents": ["rule", "random"], "seat": 1, "structure": "pot-limit"},
    {"players": 5, "opponents": "random", "seat": 4, "stack": 12, "structure": "fixed-limit", "preset": "two-blind"},
]


def dummy(count: int, config: dict[str, Any]) -> Any:
    return DummyVecEnv([lambda: DrawEnv(**config) for _ in range(count)])


@pytest.mark.parametrize("config", CONFIGS)
def test_it_is_a_dummyvecenv_of_drawenvs_hand_by_hand(config: dict[str, Any]) -> None:
    """The same seeds (seed(s): table i gets s + i), the same actions: every step gives the same
    observations, rewards, dones, terminal observations and masks as SB3's DummyVecEnv of DrawEnvs
    (SAME_STEP autoreset: DrawEnv.reset() without a seed after each hand)."""
    count, seed = 6, 123
    ours = MaskableDrawVecEnv(count, **config)
    theirs = dummy(count, config)
    assert isinstance(ours, VecEnv)
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    assert ours.seed(seed) == theirs.seed(seed) == [seed + i for i in range(count)]
    obs, expected = ours.reset(), theirs.reset()
    assert obs.dtype == np.float32 and np.array_equal(obs, expected)
    assert [i["no_decision"] for i in ours.reset_infos] == [i["no_decision"] for i in theirs.reset_infos]
    rnd = random.Random(4)
    hands = acknowledged = 0
    for _ in range(150):
        masks = ours.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (count, ours.action_space.n)
        assert np.array_equal(masks, np.stack(theirs.env_method("action_masks")))
        assert np.array_equal(np.stack(ours.env_method("action_masks")), masks)
        assert masks.any(axis=1).all()                 # every table always has a legal action
        actions = np.array([rnd.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = ours.step(actions)
        expected, their_rewards, their_dones, their_infos = theirs.step(actions)
        assert np.array_equal(obs, expected) and np.array_equal(dones, their_dones)
        assert rewards.dtype == their_rewards.dtype == np.float32 and np.array_equal(rewards, their_rewards)
        for i in range(count):
            if dones[i]:
                hands += 1
                acknowledged += infos[i]["no_decision"]
                assert np.array_equal(infos[i]["terminal_observation"], their_infos[i]["terminal_observation"])
                assert infos[i]["no_decision"] == their_infos[i]["no_decision"]
                assert infos[i]["TimeLimit.truncated"] is their_infos[i]["TimeLimit.truncated"] is False
            else:
                assert infos[i] == {} and rewards[i] == 0.0
    assert hands >= 2 * count
    if config["players"] == 2:
        assert acknowledged > 0                           # hands without a learning decision are episodes


def test_seeds_resets_and_errors() -> None:
    envs = MaskableDrawVecEnv(4, players=3, opponents="random", seed=9)
    first = envs.reset()
    expected, _ = DrawVectorEnv(4, players=3, opponents="random").reset(seed=9)
    assert np.array_equal(first, expected)
    again = MaskableDrawVecEnv(4, players=3, opponents="random", seed=9)
    again.reset()
    assert np.array_equal(envs.reset(), again.reset())     # unseeded resets follow the seeded one
    envs.seed(20)
    envs._seeds[2] = 99                                     # any seeds, one a table
    obs = envs.reset()
    single = DrawEnv(players=3, opponents="random")
    assert np.array_equal(obs[2], single.reset(seed=99)[0]) and np.array_equal(obs[1], single.reset(seed=21)[0])
    with pytest.raises(PokerDraw32ValueError, match="step_async"):
        envs.step_wait()
    masks = envs.action_masks()
    actions = masks.argmax(axis=1)
    actions[3] = np.flatnonzero(~masks[3])[0]
    before = [h.events for h in envs.hands]
    with pytest.raises(IllegalActionError, match="table 3: action index"):
        envs.step(actions)
    assert [h.events for h in envs.hands] == before         # no table moved
    with pytest.raises(PokerDraw32ValueError, match="4 integers"):
        envs.step(actions[:3])
    envs.step(masks.argmax(axis=1))                         # and the tables still play
    with pytest.raises(PokerDraw32ValueError, match="reset"):
        MaskableDrawVecEnv(2).step(np.zeros(2, np.int64))
    with pytest.raises(PokerDraw32ValueError, match="num_envs"):
        MaskableDrawVecEnv(0)
    with pytest.raises(PokerDraw32ValueError, match="opponent 'smart': unknown bot name 'smart': the bots are "):
        MaskableDrawVecEnv(2, opponents=["rule", "smart"])


def test_the_vecenv_methods() -> None:
    envs = MaskableDrawVecEnv(3, players=4, render_mode="ansi", seed=1)
    envs.reset()
    assert envs.get_attr("players") == [4, 4, 4] and envs.get_attr("seat", indices=[0, 2]) == [0, 0]
    assert envs.get_attr("render_mode") == ["ansi"] * 3 and envs.render_mode == "ansi"
    assert envs.has_attr("action_masks") and not envs.has_attr("no_such_thing")
    with pytest.raises(AttributeError):
        envs.get_attr("no_such_thing")
    envs.set_attr("note", "x")
    assert envs.get_attr("note", indices=1) == ["x"]
    with pytest.raises(PokerDraw32ValueError, match="share one configuration"):
        envs.set_attr("note", "y", indices=[0])
    with pytest.raises(PokerDraw32ValueError, match="table index 3"):
        envs.get_attr("players", indices=[3])
    masks = envs.env_method("action_masks", indices=[2, 0])
    assert np.array_equal(np.stack(masks), envs.action_masks()[[2, 0]])
    texts = envs.env_method("render", indices=1)
    assert len(texts) == 1 and "you" in texts[0]
    text = envs.render()
    assert isinstance(text, str) and "table 2" in text and texts[0] in text
    with pytest.raises(AttributeError, match="'action_masks' and 'render'"):
        envs.env_method("reset")
    assert envs.env_is_wrapped(object) == [False, False, False]
    envs.close()
    with pytest.warns(UserWarning, match="not supported"):
        quiet = MaskableDrawVecEnv(2, render_mode="rgb_array")
    assert quiet.render_mode is None and quiet.render() is None and quiet.render("rgb_array") is None


def test_stable_baselines3_checks_drawenv() -> None:
    """SB3's own env checker passes DrawEnv (penalty mode: it samples any action)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(DrawEnv(players=3, illegal_action="penalty"), warn=True)


def test_maskableppo_learns_and_evaluates_on_it() -> None:
    """A short MaskablePPO run (tiny network) through SB3's VecMonitor and VecCheckNan: a mask
    violation would raise (IllegalActionError); then evaluate_policy gives the same episodes here as
    on a DummyVecEnv of DrawEnvs with the same seeds, one episode a hand dealt."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    config = {"players": 2, "opponents": "random", "stack": 20}
    envs = VecCheckNan(VecMonitor(MaskableDrawVecEnv(16, **config)), raise_exception=True)
    assert is_masking_supported(envs)
    model = MaskablePPO("MlpPolicy", envs, n_steps=32, batch_size=128, n_epochs=1, gamma=1.0, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(total_timesteps=2_048)
    assert model.num_timesteps == 2_048
    episodes = list(model.ep_info_buffer)
    assert episodes and all(e["r"] in {v / 2 for v in range(-40, 41)} for e in episodes)   # half big blinds
    envs.reset()
    assert get_action_masks(envs).shape == (16, envs.action_space.n)

    ours = MaskableDrawVecEnv(4, **config)
    theirs = dummy(4, config)
    results = []
    for vec in (ours, theirs):
        vec.seed(500)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)    # not wrapped in a Monitor: rewards as given
            rewards, lengths = evaluate_policy(model, vec, n_eval_episodes=40, deterministic=True,
                                               return_episode_rewards=True)
        results.append((rewards, lengths))
    assert results[0] == results[1]
    rewards, lengths = results[0]
    assert len(rewards) == 40 and min(lengths) >= 1


def test_pokerdraw32_env_imports_without_stable_baselines3() -> None:
    """pokerdraw32.env needs no SB3; pokerdraw32.env.sb3 without it names the extra."""
    code = ("import sys; sys.modules['stable_baselines3'] = None\n"
            "import pokerdraw32.env\n"
            "try:\n    import pokerdraw32.env.sb3\nexcept ImportError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONWARNINGS": "ignore"}).stdout
    assert "pokerdraw32.env.sb3 needs the [sb3] extra" in out and "download.pytorch.org/whl/cpu" in out


def test_observations_are_new_arrays() -> None:
    """SB3 keeps the observations of a step until after the next one (the rollout buffer): each step
    returns new arrays, not the environment's buffers."""
    envs = MaskableDrawVecEnv(3, seed=2)
    first = envs.reset()
    kept = first.copy()
    obs, rewards, dones, _ = envs.step(envs.action_masks().argmax(axis=1))
    assert np.array_equal(first, kept) and obs is not first and obs.shape == (3, OBS_SIZE)
    obs2, rewards2, dones2, _ = envs.step(envs.action_masks().argmax(axis=1))
    assert obs2 is not obs and rewards2 is not rewards and dones2 is not dones


def test_a_closed_environment_steps_no_more() -> None:
    env = MaskableDrawVecEnv(2, players=2, opponents="random", seed=3)
    env.reset()
    env.close()
    with pytest.raises(PokerDraw32ValueError, match="closed"):
        env.step(env.action_masks().argmax(axis=1))
