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


def _cpp(method: str, state: object, *args: object) -> object:
    """pyspiel's own ``State.<method>`` (C++, calling back into the game), or the error it raises."""
    try:
        return getattr(pyspiel.State, method)(state, *args)
    except pyspiel.SpielError as exc:
        return ("SpielError", str(exc))


def _py(method: str, state: object, *args: object) -> object:
    try:
        return getattr(state, method)(*args)
    except pyspiel.SpielError as exc:
        return ("SpielError", str(exc))


@pytest.mark.parametrize("params", ["players=2", "players=4,structure=fixed-limit,stack=30"])
def test_python_answers_agree_with_pyspiel_s_own(params: str) -> None:
    """The methods the game answers in Python without pyspiel's C++ State (issue 24 item 4) give
    what pyspiel's C++ State gives at every node: current_player, is_chance_node, is_terminal,
    is_player_node, legal_actions of every player and pseudo-player (-5 .. n; a pseudo-player other
    than the one to act is refused as pyspiel refuses it), chance_outcomes."""
    import random
    game = pyspiel.load_game(f"python_pokerdraw32({params})")
    n = game.num_players()
    rng = random.Random(params)
    for _ in range(4):
        state = game.new_initial_state()
        while True:
            for method in ("current_player", "is_chance_node", "is_terminal", "is_player_node", "legal_actions"):
                assert _py(method, state) == _cpp(method, state), method
            for p in range(-5, n + 1):
                assert _py("legal_actions", state, p) == _cpp("legal_actions", state, p), p
            if state.is_terminal():
                break
            if state.is_chance_node():
                assert state.chance_outcomes() == pyspiel.State.chance_outcomes(state)
            state.apply_action(rng.choice(state.legal_actions()))
