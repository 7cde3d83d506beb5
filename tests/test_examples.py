"""The examples in ``examples/`` run, at small sizes (issue 12, item 6).  Skipped where the ``[rl]``
extra is not installed, or outside the repository."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    path = EXAMPLES / f"{name}.py"
    if not path.exists():
        pytest.skip("examples/ is not next to tests/ (tests run outside the repository)")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reinforce_learns_to_beat_the_random_bots(capsys: pytest.CaptureFixture[str]) -> None:
    out = load("reinforce_drawenv").main(["--episodes", "1500", "--eval", "500"])
    assert "bb/hand against random bots" in capsys.readouterr().out
    trained, _ = out["trained (greedy)"]
    random_policy, _ = out["random legal"]
    # seeded: the same numbers on every run, compiled or pure (deterministic, not a timing)
    assert trained > random_policy and trained > 0


def test_reinforce_on_the_vector_environment_beats_the_random_bots(capsys: pytest.CaptureFixture[str]) -> None:
    out = load("reinforce_vector").main(["--tables", "64", "--rollouts", "60", "--eval", "10"])
    assert "bb/hand against random bots" in capsys.readouterr().out
    trained, half = out["trained (greedy)"]
    random_policy, random_half = out["random legal"]
    # seeded: the same numbers on every run, compiled or pure (deterministic, not a timing)
    assert trained - half > random_policy + random_half


def test_maskable_ppo_help_trains_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` prints the options and exits (issue 24: it used to start a 200k-step run)."""
    module = load("maskable_ppo")                        # importing it trains nothing either
    with pytest.raises(SystemExit) as exit_info:
        module.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--steps", "--envs", "--players", "--opponents", "--seed", "--output", "--hands"):
        assert option in out


def test_maskable_ppo_trains_and_is_measured_by_simulate(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("pokerdraw32.env")
    saved = tmp_path / "agent.zip"
    out = load("maskable_ppo").main(["--steps", "1024", "--envs", "8", "--n-steps", "64", "--batch-size", "256",
                                     "--epochs", "1", "--net", "16", "--hands", "100", "--output", str(saved)])
    text = capsys.readouterr().out
    assert "bb/100 hands dealt" in text and "(95% interval)" in text and saved.exists()
    assert "estimator aivat" in text and "plain estimate of the same hands" in text
    assert set(out) == {"rule", "random"}
    for result in out.values():
        assert result.estimator == "aivat" and result.plain is not None
        agent = result.per_bot[0]
        assert agent.label == "MaskablePPO" and agent.hands == 100 and agent.ci95 is not None
        assert agent.chips == result.plain[0].chips
