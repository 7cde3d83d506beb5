"""REINFORCE on :class:`pokerdraw32.env.DrawEnv` with numpy only: a linear softmax policy over the
legal actions learns to beat the random bots (issue 12, item 6; on many tables at once:
``examples/reinforce_vector.py``).

    python examples/reinforce_drawenv.py                   # 20,000 hands heads-up, about 20 seconds
    python examples/reinforce_drawenv.py --episodes 50000 --players 3

The policy: ``p(a | x) ∝ exp(W[a] · x + b[a])`` over the legal actions only (the mask of the
encoding), ``x`` the 171-value observation of :mod:`pokerdraw32._handcore.encode`.  One hand an episode,
the reward in big blinds at its end; the update is REINFORCE with a running-mean baseline, on
batches of hands.  At the end the trained policy (greedy and sampled) and the uniformly random
legal policy each play the same seeded hands against the same opponents, and the script prints
their mean results in big blinds a hand with a 95% interval.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from pokerdraw32.env import OBS_SIZE, DrawEnv


class LinearPolicy:
    """A softmax over the legal actions of a linear score of the observation."""

    def __init__(self, actions: int, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.w = np.zeros((actions, OBS_SIZE))
        self.b = np.zeros(actions)

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        scores = self.w @ obs + self.b
        scores = np.where(mask, scores, -np.inf)
        scores -= scores[mask].max()
        p = np.exp(scores)
        return p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        p = self.probabilities(obs, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))


def train(env: DrawEnv, policy: LinearPolicy, episodes: int, lr: float = 0.02, batch: int = 50,
          seed: int = 0) -> list[float]:
    """REINFORCE for ``episodes`` hands; returns the mean reward of each batch."""
    baseline = 0.0
    history = []
    grad_w = np.zeros_like(policy.w)
    grad_b = np.zeros_like(policy.b)
    rewards = []
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        steps: list[tuple[np.ndarray, np.ndarray, int]] = []
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"]
            action = policy.act(obs, mask)
            steps.append((obs, mask, action))
            obs, reward, done, _, info = env.step(action)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        rewards.append(reward)
        for x, mask, action in steps:            # grad log p(a|x) = (onehot(a) - p) x
            g = -policy.probabilities(x, mask)
            g[action] += 1.0
            grad_w += advantage * np.outer(g, x)
            grad_b += advantage * g
        if (episode + 1) % batch == 0:
            policy.w += lr * grad_w / batch
            policy.b += lr * grad_b / batch
            grad_w[:] = 0.0
            grad_b[:] = 0.0
            history.append(float(np.mean(rewards)))
            rewards = []
    return history


def evaluate(env: DrawEnv, choose: Any, episodes: int, seed: int) -> tuple[float, float]:
    """Mean reward in big blinds a hand of ``choose(obs, mask)`` and its 95% half-width."""
    results = []
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done = False
        reward = 0.0
        while not done:
            obs, reward, done, _, info = env.step(choose(obs, info["action_mask"]))
        results.append(reward)
    values = np.array(results)
    return float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=20_000, help="training hands")
    parser.add_argument("--eval", type=int, default=5_000, help="evaluation hands per policy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--stack", type=int, default=20, help="big blinds")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = DrawEnv(players=args.players, opponents="random", stack=args.stack)
    policy = LinearPolicy(env.encoding.actions, seed=args.seed)
    history = train(env, policy, args.episodes, seed=args.seed)
    if history:
        tenth = max(1, len(history) // 10)
        print(f"training: {np.mean(history[:tenth]):+.3f} bb/hand in the first tenth, "
              f"{np.mean(history[-tenth:]):+.3f} in the last")
    rng = np.random.default_rng(args.seed + 1)
    start = 10**9 + args.seed * args.eval          # hands never seen in training
    out = {
        "trained (greedy)": evaluate(env, lambda o, m: policy.act(o, m, greedy=True), args.eval, start),
        "trained (sampled)": evaluate(env, policy.act, args.eval, start),
        "random legal": evaluate(env, lambda o, m: int(rng.choice(np.flatnonzero(m))), args.eval, start),
    }
    for name, (mean, half) in out.items():
        print(f"{name:<18} {mean:+.3f} ± {half:.3f} bb/hand against random bots ({args.eval} hands)")
    return out


if __name__ == "__main__":
    main()
