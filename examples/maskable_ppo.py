"""MaskablePPO (sb3-contrib) on :class:`pokerdraw32.env.DrawEnv`: a snippet for users who have
sb3-contrib installed (it is no dependency of pokerdraw32, and the test suite does not run this).

    pip install "pokerdraw32[rl]" sb3-contrib
    python examples/maskable_ppo.py

MaskablePPO reads the legal-action mask from ``DrawEnv.action_masks()``; the observation is the
171-value float32 vector of the encoding (:mod:`pokerdraw32._encode`), the reward the hand's result in
big blinds.
"""

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy

from pokerdraw32.env import DrawEnv

env = DrawEnv(players=3, opponents="rule", stack=50)
model = MaskablePPO("MlpPolicy", env, gamma=1.0, verbose=1, seed=0)
model.learn(total_timesteps=200_000)
mean, std = evaluate_policy(model, env, n_eval_episodes=2_000, use_masking=True)
print(f"MaskablePPO against two rule bots: {mean:+.2f} ± {std:.2f} big blinds a hand")
