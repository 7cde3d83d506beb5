"""The same policy measured two ways gives the same win rate (issue 24 item 3): Stable-Baselines3's
``evaluate_policy`` on ``MaskableDrawVecEnv`` (a mean per episode, one episode a hand dealt) and
``simulate()`` through ``PolicyBot`` (bb/100 hands), within their intervals.  Needs the [sb3] extra."""

from __future__ import annotations

import math
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.evaluation import evaluate_policy  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

from pokerdraw32.env import PolicyBot  # noqa: E402
from pokerdraw32.env.sb3 import MaskableDrawVecEnv  # noqa: E402
from pokerdraw32.simulate import Z95, simulate  # noqa: E402


class Caller:
    """A model-like policy (SB3's ``predict`` with ``action_masks``, as ``evaluate_policy`` and
    ``PolicyBot`` call it): check/call (index 1) when legal, else the first legal index."""

    def predict(self, obs: Any, state: Any = None, episode_start: Any = None, deterministic: bool = True,
                action_masks: Any = None) -> tuple[Any, Any]:
        masks = np.asarray(action_masks, dtype=bool)
        single = masks.ndim == 1
        masks = masks.reshape(-1, masks.shape[-1])
        actions = np.where(masks[:, 1], 1, masks.argmax(axis=1))
        return (actions[0] if single else actions), state


def test_evaluate_policy_agrees_with_simulate() -> None:
    episodes = hands = 4000
    env = VecMonitor(MaskableDrawVecEnv(16, players=2, opponents="rule", stack=100, seed=11))
    rewards, lengths = evaluate_policy(Caller(), env, n_eval_episodes=episodes, deterministic=True,
                                       return_episode_rewards=True)
    per_hand = np.asarray(rewards, dtype=np.float64)              # big blinds a hand dealt
    env_mean = per_hand.mean()
    env_se = per_hand.std(ddof=1) / math.sqrt(len(per_hand))
    result = simulate(players=2, hands=hands, seed=12, bots=[PolicyBot(Caller(), name="caller"), "rule"])
    agent = result.per_bot[0]
    assert agent.ci95 is not None
    sim_mean = agent.bb_per_100 / 100
    sim_se = agent.ci95 / Z95 / 100
    assert abs(env_mean - sim_mean) < 3.5 * math.hypot(env_se, sim_se), (env_mean, env_se, sim_mean, sim_se)
    assert len(per_hand) == episodes and min(lengths) >= 1
    # measured: -1.103 +- 0.031 big blinds a hand dealt (evaluate_policy), -1.063 +- 0.032 (simulate)
