"""The Gymnasium environment, :class:`pokerdraw32.env.DrawEnv` (``"pokerdraw32/Draw-v0"``, issue 12):
Gymnasium's env checker, the registration, then episodes against every kind of opponent: rewards in
big blinds, chips conserved (R9.5), masks, refusals, seeds.  Skipped where the ``[rl]`` extra is not
installed."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pokerdraw32 import Rules  # noqa: E402
from pokerdraw32._kernels import encode as E  # noqa: E402
from pokerdraw32.actions import Action  # noqa: E402
from pokerdraw32.bots import RuleBot, SeatView  # noqa: E402
from pokerdraw32.env import OBS_SIZE, DrawEnv  # noqa: E402
from pokerdraw32.errors import IllegalActionError, PokerDraw32ValueError  # noqa: E402


@pytest.mark.parametrize(("players", "structure"), [(2, "fixed-limit"), (3, None), (5, "pot-limit")])
def test_gymnasium_check_env(players: int, structure: str | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # no warning either
        check_env(gym.make("pokerdraw32/Draw-v0", players=players, structure=structure, illegal_action="penalty",
                           render_mode="ansi").unwrapped)


def test_registered_and_made() -> None:
    e = gym.make("pokerdraw32/Draw-v0", players=4, opponents="random", preset="two-blind")
    obs, info = e.reset(seed=0)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32 and e.observation_space.contains(obs)
    assert info["action_mask"].dtype == bool and info["action_mask"].any()
    assert e.unwrapped.rules.name == "two-blind" and e.unwrapped.players == 4


def run(e: DrawEnv, seed: int, rnd: random.Random) -> tuple[float, int, list[Any]]:
    obs, info = e.reset(seed=seed)
    steps = []
    total = 0.0
    while True:
        mask = info["action_mask"]
        assert np.array_equal(mask, e.action_masks()) and mask.any()
        assert e.observation_space.contains(obs)
        out = np.zeros(OBS_SIZE, np.float32)
        E.observe(e.hand, e.seat, out, float(e.stack))
        assert np.array_equal(obs, out)
        if info["no_decision"]:          # the acknowledge step of a hand without a decision
            assert e.hand.is_complete and np.flatnonzero(mask).tolist() == [1] and not steps
        else:
            assert e.hand.actor == e.seat
        action = int(rnd.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = e.step(action)
        steps.append((action, obs.tobytes(), reward))
        total += reward
        assert not truncated
        if terminated:
            assert not info["action_mask"].any() and not e.action_masks().any()
            return total, info["chips"], steps
        assert reward == 0.0


@pytest.mark.parametrize("opponents", ["rule", "random", "mixed", "callable"])
def test_episodes_rewards_and_chips(opponents: str) -> None:
    rnd = random.Random(1)
    decide = RuleBot(seed=4).decide
    given: Any = {"mixed": ["rule", "random", decide], "callable": lambda view: "fold" if view.legal.call_amount
                  else ("check" if view.phase.value != "draw" else "d")}.get(opponents, opponents)
    e = DrawEnv(players=4, opponents=given, seat=2, stack=30, rules=Rules(sb=2))
    buttons = set()
    for seed in range(30):
        total, chips, _ = run(e, seed, rnd)
        buttons.add(e.hand.button)
        h = e.hand
        assert h.is_complete and sum(h.stacks) == 4 * e.stack == 4 * 30 * 4          # R9.5
        assert chips == h.stacks[2] - e.stack and total == chips / 4
    assert buttons == {0, 1, 2, 3}                   # the button moves with the seed


def test_same_seed_same_episode() -> None:
    def episode(seed: int) -> list[Any]:
        return run(DrawEnv(players=3, opponents=["rule", "random"]), seed, random.Random(7))[2]

    assert episode(5) == episode(5) != episode(6)


def test_a_hand_without_a_decision_is_an_episode_of_one_acknowledge_step() -> None:
    """Everyone folds to seat 0's big blind: the episode is that hand, its final observation with one
    legal action, check/call (1); step(1) ends it with the blinds won; any other action is refused,
    nothing changed (issue 24, item 3: results per hand dealt)."""
    folder = lambda view: "fold" if view.legal.call_amount else "check"   # noqa: E731
    e = DrawEnv(players=3, opponents=folder, seat=0, stack=50)
    seen = 0
    for seed in range(20):
        obs, info = e.reset(seed=seed)
        h = e.hand
        if not info["no_decision"]:
            assert h.actor == 0 and not h.is_complete
            continue
        seen += 1
        assert h.is_complete and h.button == 1          # seat 0 posts the big blind only when seat 1 has the button
        assert np.flatnonzero(info["action_mask"]).tolist() == [1] == np.flatnonzero(e.action_masks()).tolist()
        assert obs[E.OBS_PHASE + 4] == 1.0 and e.observation_space.contains(obs)          # phase complete
        before = h.snapshot()
        for bad in (0, 2, 4, 38, -1, 39, 1.0, None):
            with pytest.raises(IllegalActionError, match=r"no decision\), and the only legal action is 1 "):
                e.step(bad)
        assert e.hand.snapshot() == before and e.action_masks()[1]
        obs2, reward, terminated, truncated, info = e.step(np.int64(1))
        won = (reward, terminated, truncated, info["no_decision"], info["chips"])
        assert won == (0.5, True, False, True, 1)                                       # the small blind
        assert np.array_equal(obs, obs2) and not info["action_mask"].any() and not e.action_masks().any()
        assert sum(h.stacks) == 3 * 50 * 2                                                 # R9.5
        with pytest.raises(PokerDraw32ValueError, match="reset"):
            e.step(1)
    assert seen > 0


def test_an_acknowledge_step_in_penalty_mode() -> None:
    folder = lambda view: "fold" if view.legal.call_amount else "check"   # noqa: E731
    e = DrawEnv(players=2, opponents=folder, seat=0, illegal_action="penalty", penalty=2)
    seed = next(s for s in range(50) if e.reset(seed=s)[1]["no_decision"])
    _, reward, terminated, _, info = e.step(0)
    assert (reward, terminated, info["illegal_action"]) == (-2.0, True, True)
    e.reset(seed=seed)
    assert e.step(1)[1:3] == (0.5, True)


def test_mean_per_episode_is_mean_per_hand_dealt() -> None:
    """Heads-up against random bots, every hand dealt is an episode: the episodes' rewards are the
    learning seat's chips over the hands dealt from the generator, and some are acknowledge steps."""
    e = DrawEnv(players=2, opponents="random")
    rnd = random.Random(0)
    episodes = no_decision = 0
    for seed in range(300):
        _, info = e.reset(seed=seed)
        no_decision += info["no_decision"]
        done = False
        while not done:
            _, reward, done, _, info = e.step(int(rnd.choice(np.flatnonzero(info["action_mask"]))))
        episodes += 1
        assert reward * e.big_blind == e.hand.stacks[0] - e.hand.starting_stacks[0]
    assert episodes == 300 and 0 < no_decision < 150


def test_an_action_outside_the_mask_raises_and_changes_nothing() -> None:
    e = DrawEnv(players=3)
    _, info = e.reset(seed=3)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    before = e.hand.snapshot()
    with pytest.raises(IllegalActionError, match=rf"action index {bad} \(.*\) is not in the legal-action mask "
                                                 r"of seat 0: .* \[R\d"):
        e.step(bad)
    assert e.hand.snapshot() == before
    with pytest.raises(IllegalActionError, match="outside the action space"):
        e.step(e.action_space.n)


def test_penalty_mode_ends_the_episode() -> None:
    e = DrawEnv(players=3, illegal_action="penalty", penalty=3)
    _, info = e.reset(seed=3)
    _obs, reward, terminated, truncated, info = e.step(int(np.flatnonzero(~info["action_mask"])[0]))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-3.0, True, False, True)
    with pytest.raises(PokerDraw32ValueError, match="reset"):
        e.step(0)


def test_opponent_errors_and_bad_arguments() -> None:
    e = DrawEnv(players=2, opponents=lambda view: 3, seat=1)
    with pytest.raises(TypeError, match="not an Action"):
        for seed in range(5):
            e.reset(seed=seed)
    e = DrawEnv(players=2, opponents=lambda view: Action.bet(10**6), seat=1)
    with pytest.raises(IllegalActionError):
        for seed in range(5):
            e.reset(seed=seed)
    for kwargs, message in [({"players": 1}, "2 to 5"), ({"seat": 3}, "learning seat"),
                            ({"opponents": ["rule"]}, "1 opponents for 3"), ({"opponents": "smart"}, "opponent"),
                            ({"illegal_action": "skip"}, "illegal_action")]:
        with pytest.raises(PokerDraw32ValueError, match=message):
            DrawEnv(**kwargs)


@pytest.mark.parametrize("mode", ["rgb_array", "rgb"])
def test_an_unsupported_render_mode_warns_and_renders_nothing(mode: str) -> None:
    """As Gymnasium: a warning naming the supported modes, then render() gives None (issue 24:
    Stable-Baselines3's make_vec_env asks for "rgb_array")."""
    with pytest.warns(UserWarning, match=r"render_mode='rgb.*use one of \['human', 'ansi'\]"):
        e = DrawEnv(players=2, render_mode=mode)
    e.reset(seed=1)
    assert e.render_mode is None and e.render() is None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = gym.make("pokerdraw32/Draw-v0", players=2, render_mode=mode)
    messages = [str(w.message) for w in caught]
    assert all(w.category is UserWarning for w in caught) and len(messages) == 2, messages   # Gymnasium's and ours
    assert "not in the possible render_modes" in messages[0] and "nothing will be rendered" in messages[1]
    made.reset(seed=1)
    assert made.render() is None


def test_make_vec_env_of_stable_baselines3() -> None:
    """SB3's make_vec_env (which asks every copy for render_mode="rgb_array") builds a DummyVecEnv of
    four DrawEnvs, and it steps with masks."""
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        envs = env_util.make_vec_env("pokerdraw32/Draw-v0", n_envs=4, seed=3, env_kwargs={"players": 3})
    obs = envs.reset()
    assert obs.shape == (4, OBS_SIZE) and envs.render_mode is None
    for _ in range(30):
        masks = np.stack(envs.env_method("action_masks"))
        obs, rewards, dones, _ = envs.step(masks.argmax(axis=1))
        assert obs.shape == (4, OBS_SIZE) and rewards.shape == dones.shape == (4,)
    envs.close()


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    e = DrawEnv(players=2, render_mode="human")
    e.reset(seed=1)
    assert "> you" in capsys.readouterr().out
    e = DrawEnv(players=2, render_mode="ansi")
    e.reset(seed=1)
    assert SeatView.of(e.hand, e.seat).hole_cards == e.hand.hole_cards(0)
    text = e.render()
    assert isinstance(text, str) and "you" in text and "seat 1" in text


def test_docs_research_example(capsys: pytest.CaptureFixture[str]) -> None:
    """The documentation's research example (docs/research/environments.md, the code block that starts
    with ``# research example``) runs."""
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "research" / "environments.md"
    if not page.exists():
        pytest.skip("docs/ is not next to tests/ (tests run outside the repository)")
    text = page.read_text(encoding="utf-8")
    start = text.index("```python\n# research example")
    code = text[start + len("```python\n"):text.index("```", start + 10)]
    exec(compile(code, "docs/research/environments.md (research example)", "exec"), {})
    assert "big blinds a hand against random bots" in capsys.readouterr().out
