"""OpenSpiel's algorithms on python_pokerdraw32 (issue 12 item 5), small: outcome-sampling MCCFR gives
a policy on heads-up fixed-limit with small stacks, and an information-set MCTS bot (resampling
with resample_from_infostate, i.e. Hand.determinize) plays hands against a random bot."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
os_mccfr = pytest.importorskip("open_spiel.python.algorithms.outcome_sampling_mccfr")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import pokerdraw32.openspiel  # noqa: E402, F401  (registers the game)

SMALL = "python_pokerdraw32(players=2,structure=fixed-limit,stack=6)"


def sample_chance(state: object, rng: np.random.RandomState) -> int:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
    return int(rng.choice(outcomes, p=probs))


def test_outcome_sampling_mccfr_gives_a_policy() -> None:
    game = pyspiel.load_game(SMALL)
    np.random.seed(3)                       # outcome sampling draws from numpy's global generator
    solver = os_mccfr.OutcomeSamplingSolver(game)
    for _ in range(60):
        solver.iteration()
    policy = solver.average_policy()
    # the solver's tables (key: the information-state string; [regrets, average policy weights]):
    # sampled regrets were recorded (with the cards in the key, few sets are met twice in 60 iterations)
    tables = solver._infostates
    assert len(tables) > 100
    assert sum(bool(np.any(row[0] != 0)) for row in tables.values()) > 50
    rng = np.random.RandomState(4)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            probs = policy.action_probabilities(state)
            assert sorted(probs) == state.legal_actions()
            assert abs(sum(probs.values()) - 1) < 1e-9 and min(probs.values()) >= 0
            actions, weights = zip(*probs.items(), strict=True)
            state.apply_action(int(rng.choice(actions, p=weights)))
        assert sum(state.returns()) == 0


def test_ismcts_bot_plays_against_a_random_bot() -> None:
    game = pyspiel.load_game(SMALL)
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=20,
                           random_state=rng)
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)   # seeded: a reproducible search
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    total = 0.0
    for hand in range(4):
        seat = hand % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.current_player() == seat:
                action = int(bot.step(state))
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert sum(returns) == 0 and abs(returns[seat]) <= 6
        total += returns[seat]
    assert -24 <= total <= 24
