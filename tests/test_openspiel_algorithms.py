"""OpenSpiel's algorithms on python_pokerdraw32 (issue 12 item 5), small: outcome-sampling and
external-sampling MCCFR give a policy on heads-up fixed-limit with small stacks, and an
information-set MCTS bot (resampling with resample_from_infostate, i.e. Hand.determinize) plays hands
against a random bot.  The tabular algorithms, which walk every state, are refused at once with
GameTooLargeError (issue 24 item 4)."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
os_mccfr = pytest.importorskip("open_spiel.python.algorithms.outcome_sampling_mccfr")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import pokerdraw32.openspiel  # noqa: E402, F401  (registers the game)
from pokerdraw32.errors import GameTooLargeError, PokerDraw32ValueError  # noqa: E402

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


def test_external_sampling_mccfr_gives_a_policy() -> None:
    es_mccfr = pytest.importorskip("open_spiel.python.algorithms.external_sampling_mccfr")
    game = pyspiel.load_game(SMALL)
    np.random.seed(5)
    solver = es_mccfr.ExternalSamplingSolver(game)        # the simple average (the default)
    for _ in range(3):
        solver.iteration()
    assert sum(bool(np.any(row[0] != 0)) for row in solver._infostates.values()) > 20
    rng = np.random.RandomState(6)
    policy = solver.average_policy()
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        probs = policy.action_probabilities(state)
        assert sorted(probs) == state.legal_actions() and abs(sum(probs.values()) - 1) < 1e-9
        state.apply_action(int(rng.choice(list(probs), p=list(probs.values()))))
    assert sum(state.returns()) == 0


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail (rather than hang the suite) if the block runs longer than ``seconds`` (POSIX alarm)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def timeout(signum: int, frame: object) -> None:
        raise AssertionError(f"still running after {seconds} s: not refused")

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _tabular_entry_points() -> dict[str, Callable[[object], object]]:
    from open_spiel.python import policy
    from open_spiel.python.algorithms import (
        best_response,
        cfr,
        exploitability,
        gambit,
        get_all_states,
        mmd_dilated,
        policy_aggregator,
        sequence_form_utils,
    )

    def uniform(game: object) -> object:
        return policy.UniformRandomPolicy(game)

    return {
        "get_all_states": lambda game: get_all_states.get_all_states(game),
        "TabularPolicy": lambda game: policy.TabularPolicy(game),
        "CFRSolver": lambda game: cfr.CFRSolver(game),
        "CFRPlusSolver": lambda game: cfr.CFRPlusSolver(game),
        "exploitability": lambda game: exploitability.exploitability(game, uniform(game)),
        "nash_conv": lambda game: exploitability.nash_conv(game, uniform(game)),
        "BestResponsePolicy": lambda game: best_response.BestResponsePolicy(game, 0, uniform(game)),
        "CPPBestResponsePolicy": lambda game: best_response.CPPBestResponsePolicy(game, 1, uniform(game)),
        "export_gambit": lambda game: gambit.export_gambit(game),
        "sequence_form": lambda game: sequence_form_utils.construct_vars(game),
        "MMDDilatedEnt": lambda game: mmd_dilated.MMDDilatedEnt(game, 1.0),
        "PolicyAggregator": lambda game: policy_aggregator.PolicyAggregator(game).aggregate(
            list(range(game.num_players())), [[uniform(game)]] * game.num_players(),
            [[1.0]] * game.num_players()),
    }


@pytest.mark.parametrize("name", ["get_all_states", "TabularPolicy", "CFRSolver", "CFRPlusSolver", "exploitability",
                                  "nash_conv", "BestResponsePolicy", "CPPBestResponsePolicy", "export_gambit",
                                  "sequence_form", "MMDDilatedEnt", "PolicyAggregator"])
@pytest.mark.parametrize("params", ["", "(structure=fixed-limit,stack=6)", "(players=5,structure=pot-limit)"])
def test_tabular_algorithms_are_refused_at_once(name: str, params: str) -> None:
    """Each would walk every state and never return (even heads-up fixed-limit with 6-chip stacks,
    where MCCFR runs); the game refuses the first state it asks for (from Python directly, or
    through pyspiel's new_initial_states), within a second, naming the game's size and the sampling
    algorithms to use.  The game stays usable."""
    game = pyspiel.load_game(f"python_pokerdraw32{params}")
    run = _tabular_entry_points()[name]
    if name == "exploitability" and game.num_players() > 2:
        with pytest.raises(ValueError, match="Game must be a 2-player game"):   # OpenSpiel's own check, first
            run(game)
        return
    if name == "MMDDilatedEnt" and game.num_players() > 2:
        with pytest.raises(AssertionError):                                    # OpenSpiel's own check, first
            run(game)
        return
    start = time.monotonic()
    with within(10), pytest.raises(GameTooLargeError) as caught:
        run(game)
    assert time.monotonic() - start < 1.0
    assert isinstance(caught.value, PokerDraw32ValueError) and isinstance(caught.value, ValueError)
    text = str(caught.value)
    assert text.startswith(f"{game} is too large to enumerate (asked by open_spiel.python.algorithms.")
    holes = "2.34e+14" if game.num_players() == 2 else "5.22e+31"    # 32!/22!, 32!/7!: hole-card orders
    assert f"dealt in {holes} orders" in text and "24,165,120 information sets" in text
    assert "outcome-sampling or external-sampling MCCFR" in text and "IS-MCTS" in text
    state = game.new_initial_state()                        # from anywhere else: as ever
    assert state.is_chance_node() and len(state.chance_outcomes()) == 32
