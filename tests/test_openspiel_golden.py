"""python_pokerdraw32 plays exactly as before its internals were made faster (issue 24 item 4): seeded
random hands on 12 configurations (2-5 players, every structure and preset, all-in blinds, one
bucket; draws, R6.2 reshuffles, showdowns and Parole splits among them) give the digests recorded from
the implementation before the change (tests/data/openspiel_golden.json, written by
tests/openspiel_trace.py): the same chance outcomes and probabilities, legal actions, action strings,
strings and tensors of every seat at every node, returns and history."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("numpy")

from openspiel_trace import CONFIGS, GOLDEN, HANDS, hand_digest  # noqa: E402

import pokerdraw32.openspiel  # noqa: E402, F401  (registers the game)


@pytest.mark.parametrize("params", CONFIGS)
def test_random_hands_match_the_golden_trace(params: str) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    game = pyspiel.load_game(f"python_pokerdraw32({params})")
    got = [hand_digest(game, f"{params}:{i}") for i in range(HANDS)]
    assert got == golden[params]
