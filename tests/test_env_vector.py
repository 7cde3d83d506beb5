"""The vector environment, :class:`pokerdraw32.env.DrawVectorEnv` (issue 12, item 4): its tables
are :class:`~pokerdraw32.env.DrawEnv` reset with ``seed + i`` (the same trajectories, step by step,
autoreset included), the pure and compiled cores agree, an action outside a mask changes nothing,
rewards are in big blinds and chips are conserved (R9.5), and a step releases the GIL.  Skipped
where the ``[rl]`` extra is not installed."""

from __future__ import annotations

import importlib
import random
import threading
import time
from types import ModuleType
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
gym_vector = pytest.importorskip("gymnasium.vector")

from conftest import compiled_module  # noqa: E402

from pokerdraw32 import Hand, Rules  # noqa: E402
from pokerdraw32.env import OBS_SIZE, DrawEnv, DrawVectorEnv  # noqa: E402
from pokerdraw32.errors import IllegalActionError, PokerDraw32ValueError  # noqa: E402

CONFIGS = [
    {"players": 2, "structure": "fixed-limit", "opponents": "rule"},
    {"players": 3, "opponents": "random"},
    {"players": 3, "opponents": ["rule", "random"], "seat": 2, "stack": 7},
    {"players": 4, "structure": "pot-limit", "opponents": "random", "preset": "two-blind"},
    {"players": 5, "opponents": "rule", "seat": 3, "stack": 12, "buckets": (0.0, 0.33, 2.0, -1.0)},
]


def pick(mask: Any, rnd: random.Random) -> int:
    return int(rnd.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("config", CONFIGS)
def test_tables_are_drawenvs_with_consecutive_seeds(config: dict[str, Any]) -> None:
    """Every step of every table equals DrawEnv(seed + i) given the same actions; a table whose hand
    ended starts its next hand at the next step (reward 0), as DrawEnv.reset() without a seed."""
    count, seed = 6, 40
    envs = DrawVectorEnv(count, **config)
    singles = [DrawEnv(**config) for _ in range(count)]
    obs, info = envs.reset(seed=seed)
    single = [e.reset(seed=seed + i) for i, e in enumerate(singles)]
    rnd = random.Random(3)
    ended = [False] * count
    episodes = acknowledged = 0
    for _ in range(120):
        for i in range(count):
            assert np.array_equal(obs[i], single[i][0]), f"table {i}"
            assert np.array_equal(info["action_mask"][i], single[i][1]["action_mask"]), f"table {i}"
            assert info["no_decision"][i] == single[i][1]["no_decision"], f"table {i}"
        actions = np.array([0 if ended[i] else pick(info["action_mask"][i], rnd) for i in range(count)])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for i, e in enumerate(singles):
            if ended[i]:                                      # NEXT_STEP autoreset
                single[i] = e.reset()
                assert rewards[i] == 0.0 and not terminated[i]
                ended[i] = False
                continue
            o, r, term, _trunc, inf = e.step(int(actions[i]))
            single[i] = (o, inf)
            assert rewards[i] == r and terminated[i] == term, f"table {i}"
            if term:
                ended[i] = True
                episodes += 1
                acknowledged += inf["no_decision"]
                assert not info["action_mask"][i].any()
                hand = envs.hands[i]
                assert sum(hand.stacks) == sum(hand.starting_stacks)          # R9.5
                assert r * envs.big_blind == hand.stacks[envs.seat] - hand.starting_stacks[envs.seat]
                assert hand.events == e.hand.events
    assert episodes >= count
    if config["players"] == 2 and config["opponents"] == "rule":
        assert acknowledged > 0          # hands without a learning decision are episodes too (issue 24)


@pytest.mark.parametrize("config", CONFIGS)
def test_same_step_autoreset_tables_are_drawenvs_hand_by_hand(config: dict[str, Any]) -> None:
    """autoreset_mode="same_step": a table whose hand ends is dealt its next hand in the same step
    (its final observation in info["final_obs"]); hand by hand, table i is DrawEnv reset with seed + i
    and then reset() after every hand, its acknowledge steps included."""
    count, seed = 5, 70
    envs = DrawVectorEnv(count, autoreset_mode="same_step", **config)
    assert envs.metadata["autoreset_mode"] is gym_vector.AutoresetMode.SAME_STEP
    assert DrawVectorEnv.metadata["autoreset_mode"] is gym_vector.AutoresetMode.NEXT_STEP
    singles = [DrawEnv(**config) for _ in range(count)]
    obs, info = envs.reset(seed=seed)
    single = [e.reset(seed=seed + i) for i, e in enumerate(singles)]
    rnd = random.Random(5)
    hands = acknowledged = 0
    for _ in range(100):
        for i in range(count):
            assert np.array_equal(obs[i], single[i][0]) and info["action_mask"][i].any(), f"table {i}"
            assert np.array_equal(info["action_mask"][i], single[i][1]["action_mask"]), f"table {i}"
            assert info["no_decision"][i] == single[i][1]["no_decision"], f"table {i}"
        actions = np.array([pick(info["action_mask"][i], rnd) for i in range(count)])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        assert ("final_obs" in info) == terminated.any()
        for i, e in enumerate(singles):
            o, r, term, _trunc, inf = e.step(int(actions[i]))
            assert rewards[i] == r and terminated[i] == term, f"table {i}"
            if term:
                hands += 1
                acknowledged += inf["no_decision"]
                assert info["_final_obs"][i] and np.array_equal(info["final_obs"][i], o)
                assert info["final_info"]["no_decision"][i] == inf["no_decision"]
                single[i] = e.reset()
            else:
                single[i] = (o, inf)
                if "final_obs" in info:
                    assert info["final_obs"][i] is None and not info["_final_obs"][i]
    assert hands >= count


def test_acknowledge_steps_of_the_vector_environment() -> None:
    """A table at an acknowledge step refuses any action but 1 (naming the table), no table moved;
    its reward is the hand's result in big blinds at that step."""
    envs = DrawVectorEnv(64, players=2, opponents="rule")
    _obs, info = envs.reset(seed=11)
    flagged = np.flatnonzero(info["no_decision"])
    assert len(flagged) > 0
    t = int(flagged[0])
    assert np.flatnonzero(info["action_mask"][t]).tolist() == [1] and envs.hands[t].is_complete
    before = [h._records(0) for h in envs.hands]
    actions = info["action_mask"].argmax(axis=1)
    for bad in (0, 4):
        actions[t] = bad
        with pytest.raises(IllegalActionError, match=rf"table {t}: action index {bad} .* the only legal action is 1"):
            envs.step(actions)
    assert [h._records(0) for h in envs.hands] == before
    actions[t] = 1
    _obs, rewards, terminated, _, info = envs.step(actions)
    hand = envs.hands[t]
    assert terminated[t] and info["no_decision"][t] and not info["action_mask"][t].any()
    assert rewards[t] * envs.big_blind == hand.stacks[envs.seat] - hand.starting_stacks[envs.seat] > 0
    assert np.array_equal(envs.action_masks(), info["action_mask"])


@pytest.mark.parametrize("mode", ["rgb_array", "human"])
def test_an_unsupported_render_mode_warns(mode: str) -> None:
    with pytest.warns(UserWarning, match=r"render_mode=.* \(use one of \['ansi'\]"):
        envs = DrawVectorEnv(2, render_mode=mode)
    envs.reset(seed=1)
    assert envs.render_mode is None and envs.render() is None
    with pytest.raises(PokerDraw32ValueError, match="autoreset_mode"):
        DrawVectorEnv(2, autoreset_mode="disabled")


@pytest.fixture(scope="module")
def cores() -> tuple[ModuleType, ModuleType, type, type]:
    compiled = compiled_module("pokerdraw32._handcore.vector_c")
    state_c = compiled_module("pokerdraw32._handcore.state_view_c")
    pure = importlib.import_module("pokerdraw32._handcore.vector")
    state_py = importlib.import_module("pokerdraw32._handcore.state_view")
    return compiled, pure, type("CompiledHand", (state_c.HandState,), {}), type("PureHand", (state_py.HandState,), {})


def test_pure_and_compiled_cores_agree(cores: tuple[ModuleType, ModuleType, type, type]) -> None:
    compiled, pure, compiled_hand, pure_hand = cores
    count, actions = 5, 39
    runs = []
    for module, hand_class in ((compiled, compiled_hand), (pure, pure_hand)):
        core = module.VectorCore(hand_class, Rules(), 3, 1, 300, 2, [0, 0, 1], [0.0, 0.5, 1.0, -1.0], count)
        obs = np.zeros((count, OBS_SIZE), np.float32)
        mask = np.zeros((count, actions), np.uint8)
        rewards = np.zeros(count)
        terminated = np.zeros(count, np.uint8)
        flags = np.zeros(count, np.uint8)
        core.reset(list(range(10, 10 + count)), obs, mask)
        rnd = random.Random(8)
        trace = [obs.tobytes() + mask.tobytes()]
        for step in range(300):
            chosen = np.array([pick(m, rnd) if m.any() else 0 for m in mask], dtype=np.int64)
            assert core.step(chosen, obs, mask, rewards, terminated) == -1
            core.no_decision(flags)
            trace.append(obs.tobytes() + mask.tobytes() + rewards.tobytes() + terminated.tobytes() + flags.tobytes())
            if step >= 150:                            # the second half: SAME_STEP autoreset
                dealt = core.deal_ended(obs, mask)
                assert dealt == terminated.sum()
                trace.append(obs.tobytes() + mask.tobytes())
        runs.append((trace, core.decisions, [h._records(0) for h in core.hands]))
    assert runs[0] == runs[1]


def test_an_action_outside_a_mask_moves_no_table() -> None:
    envs = DrawVectorEnv(4, players=3, opponents="random", copy=True)
    _obs, info = envs.reset(seed=5)
    before = [h._records(0) for h in envs.hands]
    mask = info["action_mask"]
    actions = mask.argmax(axis=1)
    illegal = int(np.flatnonzero(~mask[2])[0])
    actions[2] = illegal
    with pytest.raises(IllegalActionError, match=rf"table 2: action index {illegal} "):
        envs.step(actions)
    assert [h._records(0) for h in envs.hands] == before
    for bad in (-1, 39, 2**40):
        actions[2] = bad
        with pytest.raises(IllegalActionError, match="table 2: action index"):
            envs.step(actions)
    assert [h._records(0) for h in envs.hands] == before
    with pytest.raises(PokerDraw32ValueError, match="4 integers"):
        envs.step(actions[:3])
    with pytest.raises(PokerDraw32ValueError, match="4 integers"):
        envs.step(actions.astype(float))
    actions[2] = mask[2].argmax()
    envs.step(actions)                                        # and the tables still play


def test_refusals() -> None:
    with pytest.raises(PokerDraw32ValueError, match="num_envs"):
        DrawVectorEnv(0)
    with pytest.raises(PokerDraw32ValueError, match=r"opponent .*: use a bot name \('rule', 'random', \.\.\.\)$"):
        DrawVectorEnv(2, opponents=lambda view: "f")  # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match="seat"):
        DrawVectorEnv(2, players=3, seat=3)
    with pytest.raises(PokerDraw32ValueError, match="reset"):
        DrawVectorEnv(2).step(np.zeros(2, np.int64))
    envs = DrawVectorEnv(3)
    with pytest.raises(PokerDraw32ValueError, match="3 tables"):
        envs.reset(seed=[1, 2])


def test_spaces_and_copies() -> None:
    envs = DrawVectorEnv(8, players=4, copy=False)
    obs, _info = envs.reset(seed=1)
    assert envs.observation_space.contains(obs) and envs.action_space.shape == (8,)
    assert obs is envs.reset(seed=1)[0]                       # copy=False: the environment's own array
    copied = DrawVectorEnv(8, players=4)
    first, _ = copied.reset(seed=1)
    assert first is not copied.reset(seed=1)[0] and np.array_equal(first, obs)


def test_a_step_releases_the_gil(cores: tuple[ModuleType, ModuleType, type, type]) -> None:
    """Another Python thread runs in the middle of a big compiled step (as for the sessions:
    no timing is asserted, only that the other thread ran while the step did)."""
    envs = DrawVectorEnv(20_000, players=5, opponents="random", copy=False)
    _, info = envs.reset(seed=2)
    samples: list[float] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            samples.append(time.perf_counter())

    thread = threading.Thread(target=sample)
    thread.start()
    inside: list[float] = []
    try:
        for _ in range(20):
            actions = info["action_mask"].argmax(axis=1)
            start = time.perf_counter()
            _obs, _rewards, _terminated, _truncated, info = envs.step(actions)
            end = time.perf_counter()
            quarter = (end - start) / 4
            inside = [t for t in samples if start + quarter < t < end - quarter]
            if inside:
                break
    finally:
        stop.set()
        thread.join()
    assert inside, "no other thread ran during the step: the GIL was held"


def test_vector_hands_are_hands() -> None:
    envs = DrawVectorEnv(2, players=2)
    envs.reset(seed=9)
    assert all(isinstance(h, Hand) for h in envs.hands)
    text = DrawVectorEnv(2, render_mode="ansi")
    text.reset(seed=1)
    assert "table 1" in (text.render() or "")


def test_one_thread_at_a_time() -> None:
    """A step started while another thread steps the same tables is refused, nothing changed
    (the tables would otherwise be played by two threads at once, without the GIL)."""
    import pokerdraw32

    tables = 30_000 if pokerdraw32.IMPLEMENTATION == "cython" else 300   # a step long enough to overlap
    envs = DrawVectorEnv(tables, players=5, opponents="random", copy=False)
    _, info = envs.reset(seed=4)
    actions = info["action_mask"].argmax(axis=1)
    errors: list[Exception] = []

    def other() -> None:
        try:
            envs.step(actions)
        except PokerDraw32ValueError as exc:
            errors.append(exc)

    for _ in range(20):
        thread = threading.Thread(target=other)
        thread.start()
        try:
            _, _, _, _, info = envs.step(actions)
        except PokerDraw32ValueError as exc:
            errors.append(exc)
        thread.join()
        actions = info["action_mask"].argmax(axis=1)
        if errors:
            break
    assert not errors or "another thread" in str(errors[0])


# -- the adversarial review (session 6) ----------------------------------------------------------

def test_the_encoding_refuses_no_hand() -> None:
    from pokerdraw32._kernels import encode
    from pokerdraw32.errors import PokerDraw32TypeError

    buckets = np.array([0.0, 0.5, 1.0, -1.0])
    with pytest.raises(PokerDraw32TypeError, match="not None"):
        encode.observe(None, 0, np.zeros(OBS_SIZE, np.float32), 200.0)
    with pytest.raises(PokerDraw32TypeError, match="not None"):
        encode.action_mask(None, np.zeros(39, np.uint8), buckets)
    with pytest.raises(PokerDraw32TypeError, match="not None"):
        encode.decode_action(None, 1, buckets)


def test_the_core_is_set_up_once_and_a_refused_reset_changes_nothing() -> None:
    from pokerdraw32._kernels import play, vector

    b = [0.0, 0.5, 1.0, -1.0]
    core = vector.VectorCore(Hand, Rules(), 3, 0, 200, 2, [play.RULE] * 3, b, 2)
    with pytest.raises((ValueError, TypeError)):
        core.reset([1, 2], np.zeros((2, OBS_SIZE)), np.zeros((2, 39), np.uint8))   # float64 observations
    assert core.hands == []
    with pytest.raises(PokerDraw32ValueError, match="reset"):
        core.step(np.zeros(2, np.int64), np.zeros((2, OBS_SIZE), np.float32), np.zeros((2, 39), np.uint8),
                  np.zeros(2), np.zeros(2, np.uint8))
    obs, mask = np.zeros((2, OBS_SIZE), np.float32), np.zeros((2, 39), np.uint8)
    core.reset([1, 2], obs, mask)
    with pytest.raises(PokerDraw32ValueError, match="set up once"):
        core.__init__(Hand, Rules(), 3, 0, 200, 2, [play.RULE] * 3, b, 2)  # type: ignore[misc]
    chosen = mask.argmax(axis=1).astype(np.int64)
    assert core.step(chosen, obs, mask, np.zeros(2), np.zeros(2, np.uint8)) == -1


def test_tables_need_their_own_hands_and_copies_cannot_move_them() -> None:
    from pokerdraw32._kernels import play, vector
    from pokerdraw32.errors import PokerDraw32TypeError

    shared = Hand.__new__(Hand)

    class Shared(Hand):
        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            return shared

    core = vector.VectorCore(Shared, Rules(), 3, 0, 200, 2, [play.RULE] * 3, [0.0, -1.0], 2)
    with pytest.raises(PokerDraw32TypeError, match="same object"):
        core.reset([1, 2], np.zeros((2, OBS_SIZE), np.float32), np.zeros((2, 37), np.uint8))
    envs = DrawVectorEnv(2, players=5, seat=4, opponents="random")
    _, info = envs.reset(seed=3)
    copy = envs.hands[0]
    copy.__init__(Rules(), [400, 400], 0)                   # type: ignore[misc]  # a copy: the table is untouched
    before = [h.events for h in envs.hands]
    assert before[0] != copy.events
    envs.step(info["action_mask"].argmax(axis=1))


def test_actions_the_way_learners_give_them() -> None:
    """A 0-d integer array (Stable-Baselines3's predict for one environment) is an action; a
    float, a bool, a list or None is not: refused by name, or the penalty in penalty mode."""
    e = DrawEnv(players=3, opponents="random")
    _, info = e.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    e.step(np.array(legal))
    for bad in (1.0, True, [1], "1", None):
        e.reset(seed=2)
        with pytest.raises(IllegalActionError, match="not an integer"):
            e.step(bad)
    p = DrawEnv(players=3, illegal_action="penalty")
    for bad in (1.0, True, [1], None, np.float32(1.7), 2**31, -1):
        p.reset(seed=3)
        _, reward, terminated, _, info = p.step(bad)
        assert reward == -1.0 and terminated and info["illegal_action"]


def test_both_builds_refuse_odd_indices_seats_and_read_only_buckets_alike() -> None:
    """What the compiled and pure encodings once did differently (the adversarial review, F14)."""
    from pokerdraw32._kernels import encode

    h = Hand(Rules(), [200] * 3, 0, seed=1)
    buckets = np.array([0.0, 0.5, 1.0, -1.0])
    buckets.flags.writeable = False                            # read-only buckets are read, not written
    assert encode.action_mask(h, np.zeros(39, np.uint8), buckets) == 5
    for index in (2**31, -1, True, 1.0, "1", None):
        assert encode.decode_action(h, index, buckets) == -1
    assert encode.decode_action(h, np.int64(1), buckets) == encode.decode_action(h, 1, buckets) >= 0
    with pytest.raises(PokerDraw32ValueError, match="no seat"):
        encode.observe(h, 1.0, np.zeros(OBS_SIZE, np.float32), 200.0)
