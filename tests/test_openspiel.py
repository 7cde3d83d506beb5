"""The OpenSpiel game python_pokerdraw32 (issue 12 item 5): pyspiel's random simulation test on every
table size and structure, exact chance outcomes and legal actions in hand-built spots (the R6.2
reshuffle among them), returns summing to zero (R9.5), clones and serialization, and
resample_from_infostate leaking nothing.  The algorithms (MCCFR, IS-MCTS): tests/test_openspiel_algorithms.py."""

from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import pokerdraw32.openspiel  # noqa: E402, F401  (registers the game)
from pokerdraw32._kernels import encode as E  # noqa: E402
from pokerdraw32.cards import DECK, parse_cards  # noqa: E402
from pokerdraw32.errors import IllegalActionError, PokerDraw32ValueError  # noqa: E402
from pokerdraw32.openspiel import SHORT_NAME, DrawGame, DrawState  # noqa: E402

CONFIGS = [
    "players=2",
    "players=2,structure=fixed-limit,stack=20",
    "players=2,structure=pot-limit,preset=two-blind",
    "players=3,structure=no-limit,stack=40",
    "players=3,structure=fixed-limit",
    "players=4,structure=pot-limit,stack=60",
    "players=4,structure=fixed-limit,preset=two-blind",
    "players=5,structure=no-limit,stack=30",
    "players=5,structure=fixed-limit,preset=two-blind,stack=40",
    "players=5,structure=pot-limit,small_blind=5,big_blind=10,over_blind=25,stack=500",
    "players=5,stack=1",                                   # every seat all-in from the blinds (R4.5)
    "players=2,button=1,structure=pot-limit,stack=10,buckets=0:",
]
D0 = E.BET0 + 4       # the first discard id (stand pat) with the default 4 buckets


def load(params: str = "") -> DrawGame:
    game: DrawGame = pyspiel.load_game(f"{SHORT_NAME}({params})" if params else SHORT_NAME)
    return game


def codes(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def play_random(state: DrawState, rng: random.Random) -> DrawState:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def deal(state: DrawState, cards: list[int]) -> None:
    for c in cards:
        assert state.is_chance_node()
        state.apply_action(c)


@pytest.mark.parametrize("params", CONFIGS)
def test_random_sim_test(params: str) -> None:
    """pyspiel's own consistency checks (legal actions, chance outcomes summing to 1, clones,
    strings and tensors of every player at every state, returns) on random hands."""
    pyspiel.random_sim_test(load(params), num_sims=4, serialize=False, verbose=False)


def test_random_sim_test_serialize() -> None:
    pyspiel.random_sim_test(load("players=3,structure=fixed-limit"), num_sims=3, serialize=True, verbose=False)


def test_game_type_and_info() -> None:
    game = load("players=4,structure=fixed-limit,stack=100")
    t = game.get_type()
    assert t.short_name == SHORT_NAME
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.provides_information_state_string and t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (t.min_num_players, t.max_num_players) == (2, 5)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 39
    assert game.max_chance_outcomes() == 32
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-100.0, 300.0, 0.0)
    assert game.observation_tensor_shape() == [E.OBS_SIZE]
    # fixed-limit, cap 4: R = 5 slots a round, plus the draw, one-hot over the 39 ids
    assert game.information_state_tensor_shape() == [E.OBS_SIZE + (5 + 1 + 5) * 39]
    assert game.rules.blinds(4) == (1, 2, 4)
    assert load("buckets=0:1").num_distinct_actions() == 37
    assert pickle.loads(pickle.dumps(game)).information_state_tensor_shape() == game.information_state_tensor_shape()


@pytest.mark.parametrize("params", ["players=6", "players=1", "stack=0", "button=2", "buckets=0:x",
                                    "small_blind=0", "buckets=2000:0"])
def test_bad_parameters(params: str) -> None:
    with pytest.raises(PokerDraw32ValueError):
        load(params)


def test_large_stacks() -> None:
    """The largest stack an OpenSpiel int parameter holds (2**31 - 1 chips; the engine allows up to
    MAX_CHIPS at the table): the bound on a hand's moves stays an OpenSpiel int."""
    game = pyspiel.load_game(SHORT_NAME, {"stack": 2**31 - 1, "players": 5})
    assert game.max_game_length() == 2**31 - 1 and game.max_utility() == 4 * (2**31 - 1)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_bad_rules() -> None:
    from pokerdraw32.errors import RulesError
    for params in ("structure=spread-limit", "preset=stud", "preset=two-blind,over_blind=8"):
        with pytest.raises(RulesError):
            load(params)


def test_hole_deal_chance_nodes() -> None:
    """R5.1: five chance nodes a seat, left of the button first; each over the cards not yet dealt."""
    game = load("players=3")
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(c, 1 / 32) for c in range(32)]
    assert state.hand.pending_deal.seat == 1          # left of the button (seat 0)
    deal(state, [31, 0, 7])
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == [c for c in range(32) if c not in (31, 0, 7)]
    assert all(p == 1 / 29 for _, p in outcomes)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 31) == f"deal {DECK[31]}"
    with pytest.raises(PokerDraw32ValueError):
        state.apply_action(0)                          # already dealt
    deal(state, [1, 2])
    assert sorted(state.hand.hole[1]) == [0, 1, 2, 7, 31] and state.hand.pending_deal.seat == 2
    deal(state, [c for c in range(32) if c not in (31, 0, 7, 1, 2)][:10])
    assert state.current_player() == 0          # the first round has begun: left of the big blind
    assert sum(len(h) for h in state.hand.hole) == 15


def test_heads_up_fixed_limit_legal_actions() -> None:
    """Heads-up the button posts the big blind (R4.3) and the small blind acts first (R5.2);
    fixed-limit has one bet size (R3.4): fold, call, raise bucket 0 only."""
    game = load("players=2,structure=fixed-limit,stack=20")
    state = game.new_initial_state()
    deal(state, range(10))
    assert state.current_player() == 1
    assert state.legal_actions() == [E.FOLD, E.CHECK_CALL, E.BET0]
    assert [state.action_to_string(1, a) for a in state.legal_actions()] == ["fold", "check/call", "bet/raise min"]
    state.apply_action(E.CHECK_CALL)       # the small blind completes
    assert state.legal_actions() == [E.FOLD, E.CHECK_CALL, E.BET0]   # the big blind may raise (R4.4)
    with pytest.raises(IllegalActionError):
        state.apply_action(E.FOLD + 2)       # a Parole split in round one
    state.apply_action(E.CHECK_CALL)
    # the draw: the 31 discards of 0-4 of the five cards
    assert state.hand.phase.value == "draw" and state.current_player() == 1
    assert state.legal_actions() == list(range(D0, D0 + 31))
    assert state.action_to_string(1, D0) == "stand pat"


def test_reshuffle_chance_outcomes() -> None:
    """R6.2: 5 players leave a stub of 7; seat 1 draws 4 from it, seat 2's four replacements are the
    last 3 of the stub (1/3, 1/2, 1) then one of seat 1's discards (1/4: never seat 2's own), and
    the reshuffled pile is the stub from then on: seat 3's card and seat 4's first two come from it,
    seat 4's last two from the new pile (seats 2 and 3's discards), reshuffled in turn."""
    game = load("players=5,structure=fixed-limit")
    state = game.new_initial_state()
    hole = {1: codes("7h 7d 7c 7s 8h"), 2: codes("8d 8c 8s 9h 9d"), 3: codes("9c 9s Th Td Tc"),
            4: codes("Ts Jh Jd Jc Js"), 0: codes("Qh Qd Qc Qs Kh")}
    for s in (1, 2, 3, 4, 0):
        assert state.hand.pending_deal.seat == s
        deal(state, hole[s])
    stub = sorted(codes("Kd Kc Ks Ah Ad Ac As"))
    assert sorted(int(c) for c in state.hand.stub) == stub
    while state.hand.phase.value == "first-round":
        state.apply_action(E.CHECK_CALL)
    assert state.hand.phase.value == "draw" and state.current_player() == 1
    thrown1 = sorted(hole[1])[:4]               # positions 0-3 of the sorted cards
    state.apply_action(D0 + 0b01111)
    assert state.chance_outcomes() == [(c, 1 / 7) for c in stub]
    deal(state, stub[:4])
    assert state.current_player() == 2
    state.apply_action(D0 + 0b11110)            # seat 2 throws its four highest cards
    thrown2 = sorted(hole[2])[1:]
    assert state.chance_outcomes() == [(c, 1 / 3) for c in stub[4:]]
    state.apply_action(stub[4])
    assert state.chance_outcomes() == [(c, 1 / 2) for c in stub[5:]]
    state.apply_action(stub[5])
    assert state.chance_outcomes() == [(stub[6], 1.0)]
    state.apply_action(stub[6])
    assert state.chance_outcomes() == [(c, 1 / 4) for c in thrown1]     # the pile, not seat 2's own
    with pytest.raises(PokerDraw32ValueError):
        state.apply_action(thrown2[0])
    state.apply_action(thrown1[2])
    assert state.current_player() == 3
    assert sorted(state.hand.hole[2]) == sorted([sorted(hole[2])[0], *stub[4:], thrown1[2]])
    assert any(e.kind.value == "reshuffle" for e in state.hand.events)
    # the reshuffled pile is now the stub (3 cards); seat 2's discards start a new pile
    state.apply_action(D0 + 0b00001)            # seat 3 throws its lowest card
    restub = [c for c in thrown1 if c != thrown1[2]]
    assert state.chance_outcomes() == [(c, 1 / 3) for c in restub]
    state.apply_action(restub[0])
    assert state.current_player() == 4
    state.apply_action(D0 + 0b01111)            # seat 4 throws four: 2 from the stub, then the new pile
    assert state.chance_outcomes() == [(c, 1 / 2) for c in restub[1:]]
    state.apply_action(restub[1])
    state.apply_action(restub[2])
    pile = sorted([*thrown2, min(hole[3])])     # seats 2 and 3's discards, not seat 4's own
    assert state.chance_outcomes() == [(c, 1 / 5) for c in pile]
    state.apply_action(pile[0])
    assert state.chance_outcomes() == [(c, 1 / 4) for c in pile[1:]]
    state.apply_action(pile[1])
    assert state.current_player() == 0 and sum(1 for e in state.hand.events if e.kind.value == "reshuffle") == 2


def test_returns_sum_to_zero_and_match_the_hand() -> None:
    rng = random.Random(5)
    for params in CONFIGS:
        game = load(params)
        for _ in range(3):
            state = play_random(game.new_initial_state(), rng)
            returns = state.returns()
            assert sum(returns) == 0                                   # R9.5
            assert returns == [float(x) for x in state.hand.result.net]
            assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_clone_and_serialize() -> None:
    game = load("players=3,structure=pot-limit")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(25):
        choices = [c for c, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(choices))
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    before = str(state)
    play_random(copy, rng)
    assert str(state) == before and not state.is_terminal()
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)


def test_strings_and_tensors_show_only_the_seat_s_cards() -> None:
    game = load("players=3,structure=fixed-limit")
    rng = random.Random(9)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                for p in range(3):
                    info = state.information_state_string(p)
                    obs = state.observation_string(p)
                    known = {str(c) for e in state.hand.events_for(p) for c in e.cards}   # cards p was dealt
                    hidden = {str(DECK[c]) for s in range(3) if s != p for c in state.hand.hole[s]} - known
                    assert not hidden & set(info.replace(";", " ").split())
                    assert not hidden & set(obs.split())
                    assert info.startswith(f"seat {p} cards ")
                    tensor = np.array(state.observation_tensor(p))
                    assert sorted(np.flatnonzero(tensor[:32])) == sorted(state.hand.hole[p])
                    full = np.array(state.information_state_tensor(p))
                    assert (full[:E.OBS_SIZE] == tensor).all()
                    assert full[E.OBS_SIZE:].sum() == len(state._own[p])   # fixed-limit: R = 5 slots hold all
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))


def test_information_state_tensor_records_own_decisions() -> None:
    game = load("players=2,structure=fixed-limit,stack=20")
    state = game.new_initial_state()
    deal(state, range(10))
    state.apply_action(E.BET0)           # seat 1 raises
    state.apply_action(E.CHECK_CALL)     # seat 0 calls
    state.apply_action(D0 + 0b00011)     # seat 1 draws 2
    a = game.num_distinct_actions()
    t = np.array(state.information_state_tensor(1))[E.OBS_SIZE:]
    r = game.round_slots
    first, draw = t[:r * a].reshape(r, a), t[r * a:(r + 1) * a]
    assert first[0, E.BET0] == 1 and first.sum() == 1
    assert draw[D0 + 0b00011] == 1 and draw.sum() == 1
    t0 = np.array(state.information_state_tensor(0))[E.OBS_SIZE:]
    assert t0[:r * a].reshape(r, a)[0, E.CHECK_CALL] == 1 and t0.sum() == 1


def _second_round_states() -> tuple[DrawState, DrawState]:
    """Two 3-player hands that seat 0 cannot tell apart: its cards and every action are the same,
    seats 1 and 2 hold other cards (and throw other cards in the draw)."""
    game = load("players=3,structure=fixed-limit")
    mine = codes("Ah Kd Qc Js 9h")
    rest = [c for c in range(32) if c not in mine]
    states = []
    for order in (rest, rest[::-1]):
        state = game.new_initial_state()
        deal(state, order[:5])          # seat 1
        deal(state, order[5:10])        # seat 2
        deal(state, mine)               # seat 0, the button
        for a in (E.CHECK_CALL, E.CHECK_CALL, E.CHECK_CALL):
            state.apply_action(a)
        state.apply_action(D0 + 0b00011)       # seat 1 draws 2
        deal(state, order[10:12])
        state.apply_action(D0 + 0b00100)       # seat 2 draws 1
        deal(state, order[12:13])
        state.apply_action(D0 + 0b00001)       # seat 0 draws 1: it throws its lowest (9h)
        deal(state, [rest[13]])                 # a card neither order deals before
        states.append(state)
    a, b = states
    assert a.current_player() == b.current_player() == 0    # left of the big blind (R7.1)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.hand.hole[1] != b.hand.hole[1]
    return a, b


def test_resample_keeps_the_seat_s_view() -> None:
    a, _ = _second_round_states()
    for seed in range(5):
        r = a.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        assert r.information_state_string(0) == a.information_state_string(0)
        assert r.information_state_tensor(0) == a.information_state_tensor(0)
        assert r.observation_string(0) == a.observation_string(0)
        assert r.observation_tensor(0) == a.observation_tensor(0)
        assert r.legal_actions() == a.legal_actions() and r.current_player() == a.current_player()
        assert sorted(r.hand.hole[0]) == sorted(a.hand.hole[0])
        assert r.hand.stacks == a.hand.stacks and r.hand.bets == a.hand.bets
        assert [len(h) for h in r.hand.hole] == [len(h) for h in a.hand.hole]
        done = play_random(r, random.Random(seed))           # the resampled hand plays to its end
        assert sum(done.returns()) == 0


def test_resample_leaks_nothing() -> None:
    """The resampled cards do not depend on the true hidden cards: two states seat 0 cannot tell
    apart resample to the same deal with the same sampler, and the others' cards vary with it."""
    a, b = _second_round_states()
    seen = set()
    for seed in range(12):
        ra = a.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        rb = b.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        assert str(ra) == str(rb)                       # every seat's cards, the dealer's view
        assert sorted(ra.hand.stub) == sorted(rb.hand.stub)
        assert ra.information_state_string(1) == rb.information_state_string(1)
        assert ra._own == rb._own
        assert ra.history() == []                        # the true chance outcomes are not carried
        seen.add(tuple(sorted(ra.hand.hole[1])))
    assert len(seen) == 12                              # other hole cards, each sample
    unseen = set(range(32)) - set(a.hand.hole[0]) - set(codes("9h"))     # 9h: seat 0's discard
    assert set().union(*seen) <= unseen


def test_resampled_state_clones_but_does_not_load_back() -> None:
    from pokerdraw32.snapshot import SnapshotError
    a, _ = _second_round_states()
    assert pickle.loads(pickle.dumps(a)).information_state_string(0) == a.information_state_string(0)
    r = a.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(2, 0.0, 1.0))
    assert str(r.clone()) == str(r)
    with pytest.raises(SnapshotError, match="determinize"):
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(r.get_game(), r))


def test_resample_mid_deal_is_refused() -> None:
    state = load().new_initial_state()
    state.apply_action(3)
    with pytest.raises(PokerDraw32ValueError):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))


def test_parameters_as_a_dict() -> None:
    """One bucket reads as a number in a load_game string (OpenSpiel refuses it for a string
    parameter): a dict of parameters takes it."""
    game = pyspiel.load_game(SHORT_NAME, {"buckets": "1", "players": 3})
    assert game.num_distinct_actions() == 36 and game.num_players() == 3
    assert load("buckets=0:,structure=fixed-limit").num_distinct_actions() == 36   # a trailing ':' works too


def test_docs_example(capsys: pytest.CaptureFixture[str]) -> None:
    """The documentation's OpenSpiel example (docs/research/openspiel.md, the code block that starts
    with ``# openspiel example``) runs."""
    from pathlib import Path
    page = Path(__file__).resolve().parent.parent / "docs" / "research" / "openspiel.md"
    if not page.exists():
        pytest.skip("docs/ is not next to tests/ (tests run outside the repository)")
    text = page.read_text(encoding="utf-8")
    start = text.index("```python\n# openspiel example")
    code = text[start + len("```python\n"):text.index("```", start + 10)]
    exec(compile(code, "docs/research/openspiel.md (openspiel example)", "exec"), {})
    returns, info = capsys.readouterr().out.splitlines()
    assert sum(eval(returns)) == 0 and info.startswith("seat 0 cards ")


def test_observers() -> None:
    """OpenSpiel's Python observer API: named views of the tensor; one seat's view only."""
    from open_spiel.python.observation import make_observation
    game = load("players=3,structure=fixed-limit")
    state = game.new_initial_state()
    deal(state, range(15))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, 2)
    assert sorted(info.dict) == ["draw", "first_round", "observation", "second_round"]
    assert info.dict["first_round"].shape == (game.round_slots, 39)
    assert list(info.tensor) == state.information_state_tensor(2)
    assert info.string_from(state, 2) == state.information_state_string(2)
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    obs.set_from(state, 0)
    assert list(obs.tensor) == state.observation_tensor(0) and list(obs.dict) == ["observation"]
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="one seat's view"):
        make_observation(game, public)


@pytest.mark.parametrize(("second_round", "returns"), [
    ((E.CHECK_CALL, E.CHECK_CALL), [-2.0, 2.0]),       # showdown: four sevens beat eights full (R2)
    ((E.BET0, E.CHECK_CALL), [-6.0, 6.0]),             # a 4-chip bet (2 x L, R7.2) called
    ((E.BET0, E.FOLD), [-2.0, 2.0]),                   # ... folded to: the bettor takes the pot (R5.3)
    ((E.SPLIT, E.SPLIT), [0.0, 0.0]),                  # Parole: both split, the pot is shared (R8.3)
])
def test_exact_returns(second_round: tuple[int, int], returns: list[float]) -> None:
    game = load("players=2,structure=fixed-limit,stack=20")
    state = game.new_initial_state()
    deal(state, codes("7h 7d 7c 7s 8h"))             # seat 1, the small blind (R4.3)
    deal(state, codes("8d 8c 8s 9h 9d"))             # seat 0, the button and big blind
    state.apply_action(E.CHECK_CALL)                 # the small blind completes to 2
    state.apply_action(E.CHECK_CALL)                 # the big blind checks
    state.apply_action(D0)                           # both stand pat (R6.1)
    state.apply_action(D0)
    assert state.current_player() == 1               # heads-up the small blind opens round two (R7.1)
    for seat, action in zip([1, 0], second_round, strict=True):
        assert state.current_player() == seat
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == returns
