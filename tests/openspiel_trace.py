"""Seeded random playthroughs of python_pokerdraw32 reduced to digests: the golden trace that proves a
change of the game's internals (issue 24: the faster game) changes nothing a caller sees.

At every node of each hand the trace records the player to act, the chance outcomes (codes and
probabilities) or the legal actions, the chosen action and its string, the dealer's view, and for
every seat the information-state and observation strings and tensors; at the end the returns and the
history.  One SHA-256 digest a hand (its first 16 hex digits).

    python tests/openspiel_trace.py      # rewrites tests/data/openspiel_golden.json (run on a known-good build)
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "data" / "openspiel_golden.json"
CONFIGS = [
    "players=2",
    "players=2,structure=fixed-limit,stack=20",
    "players=2,structure=pot-limit,preset=two-blind",
    "players=2,button=1,structure=pot-limit,stack=10,buckets=0:",
    "players=3,structure=no-limit,stack=40",
    "players=3,structure=fixed-limit",
    "players=4,structure=pot-limit,stack=60",
    "players=4,structure=fixed-limit,preset=two-blind",
    "players=5,structure=no-limit,stack=30",
    "players=5,structure=fixed-limit,preset=two-blind,stack=40",
    "players=5,structure=pot-limit,small_blind=5,big_blind=10,over_blind=25,stack=500",
    "players=5,stack=1",
]
HANDS = 6


def hand_digest(game: object, seed: str) -> str:
    """The digest of one random hand of ``game`` played with ``random.Random(seed)``."""
    import numpy as np
    import pyspiel

    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    n = game.num_players()  # type: ignore[attr-defined]
    digest = hashlib.sha256()

    def put(*items: object) -> None:
        for item in items:
            if isinstance(item, list) and item and isinstance(item[0], float) and len(item) > 8:
                digest.update(np.asarray(item, dtype=np.float32).tobytes())
            else:
                digest.update(repr(item).encode())
            digest.update(b"|")

    while True:
        player = state.current_player()
        put("node", player, state.is_chance_node(), state.is_terminal(), str(state))
        for p in range(n):
            put(state.information_state_string(p), state.information_state_tensor(p),
                state.observation_string(p), state.observation_tensor(p))
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            put([(c, p.hex()) for c, p in outcomes], state.legal_actions())
            action = rng.choice(outcomes)[0]
        else:
            legal = state.legal_actions()
            put(legal, state.legal_actions(player), [state.legal_actions(p) for p in range(n) if p != player])
            action = rng.choice(legal)
        put(action, state.action_to_string(player, action))
        state.apply_action(action)
    put("end", state.returns(), [(a.player, a.action) for a in state.full_history()], state.history(),
        state.move_number(), pyspiel.PlayerId.TERMINAL)
    return digest.hexdigest()[:16]


def digests() -> dict[str, list[str]]:
    import pyspiel

    import pokerdraw32.openspiel  # noqa: F401

    out = {}
    for params in CONFIGS:
        game = pyspiel.load_game(f"python_pokerdraw32({params})")
        out[params] = [hand_digest(game, f"{params}:{i}") for i in range(HANDS)]
    return out


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(digests(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
