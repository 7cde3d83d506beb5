"""Speed of Stable-Baselines3 training on the vector core (issue 24, item 2): sb3-contrib's MaskablePPO
on :class:`pokerdraw32.env.sb3.MaskableDrawVecEnv` against the same learner on SB3's own
``DummyVecEnv`` and ``SubprocVecEnv`` of :class:`pokerdraw32.env.DrawEnv` copies, in the same run.

    python bench/sb3.py                                    # 16 tables a subject, 3 players, rule opponents
    python bench/sb3.py --envs 64 --steps 32768 --players 2

Subjects (the same ``--envs`` tables, opponents, network, ``n_steps``, minibatch and epochs):

* ``vector``: ``MaskableDrawVecEnv(envs)``: every table in one compiled call;
* ``dummy``: ``DummyVecEnv`` of ``envs`` DrawEnvs (one process, one table after another; the mask
  from ``DrawEnv.action_masks``, through ``env_method``, as sb3-contrib reads it);
* ``subproc``: ``SubprocVecEnv`` of ``envs`` DrawEnvs (a process a table, ``--subproc-envs`` of
  them when given, as users do to use more cores).

Two measures a subject:

* *env*: environment steps alone (the learner's steps: one a table a step, masks read and a
  uniformly random legal action drawn with numpy, counted in the time) for ``--seconds``;
* *learn*: ``MaskablePPO.learn(total_timesteps=--steps)`` (the model built before the clock).

Both per CPU second (this process's, plus the ``SubprocVecEnv`` workers' CPU time while they ran,
read with psutil) and per wall second, medians over ``--repeat`` interleaved rounds.  torch runs
on ``--torch-threads`` threads (default 1, so that CPU and wall seconds compare across subjects).
Measured, never asserted (shared machines).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any


def workers_cpu(env: Any) -> float:
    """CPU seconds used so far by the worker processes of a SubprocVecEnv (0 for other envs)."""
    processes = getattr(env, "processes", None)
    if not processes:
        return 0.0
    import psutil

    total = 0.0
    for p in processes:
        t = psutil.Process(p.pid).cpu_times()
        total += t.user + t.system
    return total


def make(kind: str, args: argparse.Namespace) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from pokerdraw32.env import DrawEnv
    from pokerdraw32.env.sb3 import MaskableDrawVecEnv

    config = {"players": args.players, "opponents": args.opponents, "stack": args.stack}
    if kind == "vector":
        env: Any = MaskableDrawVecEnv(args.envs, **config)
    else:
        count = args.subproc_envs if kind == "subproc" and args.subproc_envs else args.envs
        factories: list[Callable[[], Any]] = [lambda: DrawEnv(**config) for _ in range(count)]
        env = DummyVecEnv(factories) if kind == "dummy" else SubprocVecEnv(factories)
    env.seed(args.seed)
    return env


def clocks(env: Any) -> tuple[float, float]:
    return time.process_time() + workers_cpu(env), time.perf_counter()


def env_steps(kind: str, args: argparse.Namespace) -> tuple[float, float, int]:
    """Learner steps per CPU second and per wall second of the environment alone; its tables."""
    import numpy as np
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = make(kind, args)
    rng = np.random.default_rng(0)
    try:
        env.reset()
        steps = 0
        cpu0, wall0 = clocks(env)
        while time.perf_counter() - wall0 < args.seconds:
            masks = get_action_masks(env)
            env.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
            steps += env.num_envs
        cpu1, wall1 = clocks(env)
        return steps / (cpu1 - cpu0), steps / (wall1 - wall0), env.num_envs
    finally:
        env.close()


def learn_steps(kind: str, args: argparse.Namespace) -> tuple[float, float, int]:
    """MaskablePPO learner steps per CPU second and per wall second; the tables."""
    from sb3_contrib import MaskablePPO

    env = make(kind, args)
    try:
        model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.epochs,
                            gamma=1.0, policy_kwargs={"net_arch": list(args.net)}, seed=args.seed, device="cpu")
        cpu0, wall0 = clocks(env)
        model.learn(total_timesteps=args.steps)
        cpu1, wall1 = clocks(env)
        return model.num_timesteps / (cpu1 - cpu0), model.num_timesteps / (wall1 - wall0), env.num_envs
    finally:
        env.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=16, help="tables of every subject (default 16)")
    ap.add_argument("--subproc-envs", type=int, default=0, help="SubprocVecEnv's processes (default: --envs)")
    ap.add_argument("--players", type=int, default=3, help="players a table (default 3)")
    ap.add_argument("--opponents", default="rule", choices=["rule", "random"], help="built-in opponents")
    ap.add_argument("--stack", type=int, default=100, help="big blinds (default 100)")
    ap.add_argument("--steps", type=int, default=16_384, help="learner steps of each learn() (default 16,384)")
    ap.add_argument("--n-steps", type=int, default=64, help="PPO's n_steps, steps a table a rollout (default 64)")
    ap.add_argument("--batch-size", type=int, default=256, help="PPO's minibatch (default 256)")
    ap.add_argument("--epochs", type=int, default=4, help="PPO's epochs a rollout (default 4)")
    ap.add_argument("--net", type=int, nargs="+", default=[64, 64], help="hidden layers (default 64 64)")
    ap.add_argument("--seconds", type=float, default=3.0, help="wall seconds of each env measure (default 3)")
    ap.add_argument("--repeat", type=int, default=1, help="interleaved rounds (default 1)")
    ap.add_argument("--subjects", nargs="+", default=["vector", "dummy", "subproc"],
                    choices=["vector", "dummy", "subproc"])
    ap.add_argument("--torch-threads", type=int, default=1, help="torch.set_num_threads (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    import torch

    import pokerdraw32
    from pokerdraw32._kernels import evaluate_mask

    torch.set_num_threads(args.torch_threads)
    evaluate_mask(0x1F)   # the evaluator's tables, built once, outside the clocks
    rows: dict[str, dict[str, list[tuple[float, float]]]] = {k: {"env": [], "learn": []} for k in args.subjects}
    tables: dict[str, int] = {}
    for r in range(args.repeat):
        order = args.subjects if r % 2 == 0 else args.subjects[::-1]
        for kind in order:
            cpu, wall, tables[kind] = env_steps(kind, args)
            rows[kind]["env"].append((cpu, wall))
            cpu, wall, _ = learn_steps(kind, args)
            rows[kind]["learn"].append((cpu, wall))
    med = {k: {m: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v)) for m, v in d.items()}
           for k, d in rows.items()}
    print(f"{pokerdraw32.IMPLEMENTATION} build, torch {torch.__version__} on {args.torch_threads} thread(s), "
          f"{os.cpu_count()} CPUs; {args.players} players, {args.opponents} opponents; MaskablePPO "
          f"n_steps={args.n_steps}, batch {args.batch_size}, {args.epochs} epochs, net {args.net}, "
          f"{args.steps:,} steps a learn(); medians of {args.repeat} round(s)")
    print(f"  {'subject':<9} {'tables':>6} {'env steps/CPU s':>16} {'env steps/wall s':>17} "
          f"{'learn steps/CPU s':>18} {'learn steps/wall s':>19}")
    for k, m in med.items():
        print(f"  {k:<9} {tables[k]:>6} {m['env'][0]:>16,.0f} {m['env'][1]:>17,.0f} "
              f"{m['learn'][0]:>18,.0f} {m['learn'][1]:>19,.0f}")
    if "vector" in med:
        for k in med:
            if k != "vector":
                v, o = med["vector"], med[k]
                print(f"  vector / {k}: env {v['env'][0] / o['env'][0]:.0f}x per CPU s, "
                      f"{v['env'][1] / o['env'][1]:.0f}x per wall s; learn {v['learn'][0] / o['learn'][0]:.1f}x "
                      f"per CPU s, {v['learn'][1] / o['learn'][1]:.1f}x per wall s")


if __name__ == "__main__":
    main()
