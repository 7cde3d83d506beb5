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
