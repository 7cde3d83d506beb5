"""REINFORCE on :class:`pokerdraw32.env.DrawVectorEnv` with numpy only: a linear softmax policy,
trained on many tables at once, learns to beat the random bots (issue 12, item 6).

    python examples/reinforce_vector.py                         # 256 tables heads-up, about a minute
    python examples/reinforce_vector.py --tables 1024 --rollouts 400 --players 3

The policy: ``p(a | x) ∝ exp(W[a] · x + b[a])`` over the legal actions only (the mask in
``info["action_mask"]``), ``x`` the 171-value observation.  Each rollout steps every table
``--steps`` times with actions sampled from the policy (one batched numpy computation for all
tables), then gives every step of each hand that ended in the rollout that hand's result in big
blinds (one hand an episode, the reward at its end), minus a running-mean baseline, and takes one
REINFORCE step.  Steps that deal a table its next hand (the environment's ``NEXT_STEP`` autoreset:
the action is ignored) and hands still running at the rollout's end are left out.

At the end the trained policy (greedy) and the uniformly random legal policy each play the same
fresh seeded tables for ``--eval`` hands a table, and the script prints their mean results in big
blinds a hand with a 95% interval.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from pokerdraw32.env import OBS_SIZE, DrawVectorEnv


def softmax_policy(w: np.ndarray, b: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``float64[tables, actions]``: the policy's probabilities of the legal actions of each table
    (a table with no legal action, which the step ignores, gets a uniform row)."""
    scores = obs @ w.T + b
    scores = np.where(mask, scores, -np.inf)
    none = ~mask.any(axis=1)
    scores[none] = 0.0
    scores -= scores.max(axis=1, keepdims=True)
    p = np.exp(scores)
    return p / p.sum(axis=1, keepdims=True)


def sample(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action a row of probabilities ``p`` (inverse CDF, one uniform a row)."""
    u = rng.random((p.shape[0], 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def train(envs: DrawVectorEnv, rollouts: int, steps: int, lr: float, seed: int) -> tuple[Any, Any, list[float]]:
    """REINFORCE; returns ``(w, b, mean result of the hands that ended in each rollout)``."""
    actions_n = envs.single_action_space.n
    w = np.zeros((actions_n, OBS_SIZE))
    b = np.zeros(actions_n)
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    baseline = 0.0
    history = []
    tables = envs.num_envs
    for _ in range(rollouts):
        xs = np.zeros((steps, tables, OBS_SIZE))
        ps = np.zeros((steps, tables, actions_n))
        chosen = np.zeros((steps, tables), dtype=np.int64)
        acted = np.zeros((steps, tables), dtype=bool)
        rewards = np.zeros((steps, tables))
        ended = np.zeros((steps, tables), dtype=bool)
        for t in range(steps):
            mask = info["action_mask"]
            p = softmax_policy(w, b, obs, mask)
            a = sample(p, rng)
            xs[t], ps[t], chosen[t], acted[t] = obs, p, a, mask.any(axis=1)
            obs, rewards[t], ended[t], _, info = envs.step(a)
        # each step's return: the result of its hand, found going back from the hand's end
        returns = np.zeros((steps, tables))
        known = np.zeros(tables, dtype=bool)
        result = np.zeros(tables)
        for t in range(steps - 1, -1, -1):
            result = np.where(ended[t], rewards[t], result)
            known |= ended[t]
            returns[t] = result
            acted[t] &= known
        if not acted.any():
            continue
        finished = rewards[ended]
        history.append(float(finished.mean()))
        advantage = returns[acted] - baseline
        baseline += 0.05 * (float(finished.mean()) - baseline)
        grad = -ps[acted]                                          # grad log p(a|x) = onehot(a) - p
        grad[np.arange(len(grad)), chosen[acted]] += 1.0
        grad *= advantage[:, None]
        w += lr * grad.T @ xs[acted] / len(grad)
        b += lr * grad.mean(axis=0)
    return w, b, history


def evaluate(envs: DrawVectorEnv, choose: Any, hands: int, seed: int) -> tuple[float, float]:
    """Mean result in big blinds a hand of ``choose(obs, mask)`` over ``hands`` hands a table, and
    its 95% half-width."""
    obs, info = envs.reset(seed=seed)
    done = np.zeros(envs.num_envs, dtype=np.int64)
    results = []
    while done.min() < hands:
        obs, rewards, ended, _, info = envs.step(choose(obs, info["action_mask"]))
        counted = ended & (done < hands)
        results.extend(rewards[counted].tolist())
        done += ended
    values = np.array(results)
    return float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))


def main(argv: list[str] | None = None) -> dict[str, tuple[float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--rollouts", type=int, default=300, help="policy updates")
    parser.add_argument("--steps", type=int, default=16, help="steps of every table a rollout")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--eval", type=int, default=20, help="evaluation hands a table a policy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--stack", type=int, default=20, help="big blinds")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    envs = DrawVectorEnv(args.tables, players=args.players, opponents="random", stack=args.stack)
    w, b, history = train(envs, args.rollouts, args.steps, args.lr, args.seed)
    if history:
        tenth = max(1, len(history) // 10)
        print(f"training: {np.mean(history[:tenth]):+.3f} bb/hand in the first tenth of the rollouts, "
              f"{np.mean(history[-tenth:]):+.3f} in the last")
    rng = np.random.default_rng(args.seed + 1)
    start = 10**9 + args.seed * args.tables            # tables never seen in training

    def greedy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.argmax(softmax_policy(w, b, obs, mask), axis=1)

    def uniform(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.argmax(rng.random(mask.shape) * mask, axis=1)

    out = {"trained (greedy)": evaluate(envs, greedy, args.eval, start),
           "random legal": evaluate(envs, uniform, args.eval, start)}
    for name, (mean, half) in out.items():
        print(f"{name:<18} {mean:+.3f} ± {half:.3f} bb/hand against random bots "
              f"({args.eval} hands x {args.tables} tables)")
    return out


if __name__ == "__main__":
    main()
