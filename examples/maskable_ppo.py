"""MaskablePPO (sb3-contrib) on :class:`pokerdraw32.env.sb3.MaskableDrawVecEnv`, then the trained agent
measured at the table by :func:`pokerdraw32.simulate` against the rule-based and the random bots.

    pip install torch --index-url https://download.pytorch.org/whl/cpu   # a CPU-only torch first
    pip install "pokerdraw32[rl,sb3]"
    python examples/maskable_ppo.py --help
    python examples/maskable_ppo.py --steps 200000 --envs 256 --players 2 --opponents rule

Training: ``--envs`` tables of the vector environment (one compiled call steps them all), each the
learning seat against ``--opponents`` bots, ``--stack`` big blinds each at every deal; the reward
is the hand's result in big blinds and one episode is one hand dealt (a hand in which the agent
has no decision is an acknowledge step), so the training log's ``ep_rew_mean`` (``VecMonitor``) is
big blinds per hand dealt.  The masks come from ``MaskableDrawVecEnv.action_masks()``.

Measurement: the trained policy plays as :class:`pokerdraw32.env.PolicyBot` (the observation and
mask built from its seat's view, as in training; deterministic: the most likely legal action) in
``--hands`` hands of ``simulate()`` against each kind of bot, with duplicate deals (every deal
played once from every seat, which cancels much of the cards' luck).  The figure is big blinds
per 100 hands dealt (every hand counts, those it folds or never acts in too) with its 95%
confidence interval (not a standard deviation).
"""

from __future__ import annotations

import argparse
import io
from typing import Any


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Train MaskablePPO on MaskableDrawVecEnv, then measure the agent "
                                     "with simulate() against the rule-based and the random bots (bb/100 hands "
                                     "dealt, 95% interval).", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--steps", type=int, default=200_000, help="learner steps (all tables together)")
    parser.add_argument("--envs", type=int, default=256, help="tables of the vector environment")
    parser.add_argument("--players", type=int, default=2, help="players a table, 2 to 5")
    parser.add_argument("--opponents", choices=["rule", "random"], default="rule", help="training opponents")
    parser.add_argument("--stack", type=int, default=20, help="every seat's stack at each deal, in big blinds")
    parser.add_argument("--n-steps", type=int, default=64, help="steps of every table a rollout (PPO's n_steps)")
    parser.add_argument("--batch-size", type=int, default=1024, help="PPO's minibatch")
    parser.add_argument("--epochs", type=int, default=4, help="PPO's epochs a rollout")
    parser.add_argument("--net", type=int, nargs="+", default=[64, 64], help="hidden layer sizes")
    parser.add_argument("--hands", type=int, default=20_000, help="hands of each measurement (simulate)")
    parser.add_argument("--estimator", choices=["aivat", "plain"], default="aivat",
                        help="simulate()'s estimator: aivat (variance-reduced, unbiased) or plain")
    parser.add_argument("--seed", type=int, default=0, help="the tables', the network's and the measurement's seed")
    parser.add_argument("--output", default=None, help="save the trained model here (a .zip, MaskablePPO.load)")
    parser.add_argument("--verbose", type=int, default=0, help="SB3's log: 0 none, 1 a table a rollout")
    return parser.parse_args(argv)


def train(args: argparse.Namespace) -> Any:
    """The trained ``MaskablePPO`` model."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from pokerdraw32.env.sb3 import MaskableDrawVecEnv

    envs = VecMonitor(MaskableDrawVecEnv(args.envs, players=args.players, opponents=args.opponents,
                                         stack=args.stack, seed=args.seed))
    model = MaskablePPO("MlpPolicy", envs, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.epochs,
                        gamma=1.0, gae_lambda=1.0, ent_coef=0.01, policy_kwargs={"net_arch": list(args.net)},
                        seed=args.seed, device="cpu", verbose=args.verbose)
    model.learn(total_timesteps=args.steps)
    return model


def fresh_policy(model: Any) -> Any:
    """The trained network as a new policy object, saved and loaded (simulate copies a bot for each
    chunk of hands: the model holds its tables, and a policy that has run holds tensors of its last
    forward pass, neither of which copy.deepcopy copies)."""
    from sb3_contrib import MaskablePPO

    buffer = io.BytesIO()
    model.save(buffer)
    buffer.seek(0)
    return MaskablePPO.load(buffer, device="cpu").policy


def measure(model: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The agent's :class:`~pokerdraw32.simulate.SimulationResult` against each kind of bot."""
    from pokerdraw32 import Rules
    from pokerdraw32.env import PolicyBot
    from pokerdraw32.simulate import simulate

    bb = Rules().big_blind
    agent = PolicyBot(fresh_policy(model), deterministic=True, name="MaskablePPO")
    out = {}
    for opponent in ("rule", "random"):
        result = simulate(players=args.players, hands=args.hands, seed=args.seed + 1, stack=args.stack * bb,
                          bots=[agent] + [opponent] * (args.players - 1), duplicate=True,
                          estimator=args.estimator)
        out[opponent] = result
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    model = train(args)
    if args.output:
        model.save(args.output)
        print(f"model saved to {args.output}")
    results = measure(model, args)
    print(f"MaskablePPO, {model.num_timesteps:,} steps (--steps {args.steps:,}, rounded up to whole rollouts) on "
          f"{args.envs} tables against {args.opponents} bots "
          f"({args.players} players, {args.stack} big blinds):")
    for opponent, result in results.items():
        r = result.per_bot[0]
        interval = "" if r.ci95 is None else f" ± {r.ci95:.1f} (95% interval)"
        print(f"  against {opponent} bots: {r.bb_per_100:+.1f}{interval} bb/100 hands dealt "
              f"({r.hands:,} hands, duplicate deals, estimator {result.estimator})")
        if result.plain is not None:
            p = result.plain[0]
            plain = "" if p.ci95 is None else f" ± {p.ci95:.1f}"
            print(f"    (plain estimate of the same hands: {p.bb_per_100:+.1f}{plain})")
    return results


if __name__ == "__main__":
    main()
