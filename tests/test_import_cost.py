"""Cold start (issue 15, item 4): ``import pokerdraw32`` loads the kernels, errors, cards and hand
evaluation only; every other public name is imported on first use (PEP 562), and still resolves.

Each check runs in a fresh interpreter, in both builds (compiled skipped when not built or when
``POKERDRAW32_NO_EXTENSIONS`` is set, as ``compiled_module`` says).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import compiled_module

# What `import pokerdraw32` and a first `evaluate()` may load, besides the kernels (_core or _core_py).
EVALUATE_NEEDS = {"pokerdraw32", "pokerdraw32._kernels", "pokerdraw32.errors", "pokerdraw32._version",
                  "pokerdraw32.cards", "pokerdraw32.evaluation", "pokerdraw32._handcore",
                  "pokerdraw32._handcore.describe"}
# The pure kernels: pokerdraw32._core_py and the modules it re-exports (one per kernel, as _core.pyx's includes).
PURE_KERNELS = {"pokerdraw32._core_py", *(f"pokerdraw32._core_py.{part}" for part in
                                         ("checks", "evaluate", "rng", "pots", "draws", "batch", "equity"))}
# Never loaded by them: the hand, its actions and rules (dataclasses, inspect), the compiled hand's core...
HEAVY = ["pokerdraw32.hand", "pokerdraw32.actions", "pokerdraw32.rules", "pokerdraw32.results",
         "pokerdraw32.batch", "pokerdraw32.odds",
         *(f"pokerdraw32._handcore.{m}{c}" for m in ("codes", "deal", "betting", "state", "state_view")
           for c in ("", "_c")),
         *(f"pokerdraw32._handcore.{m}_c" for m in ("play", "encode", "vector")),
         "dataclasses", "inspect", "fractions", "statistics"]

LOADED = """
import json, sys
stage = {}
import pokerdraw32
stage["import"] = sorted(sys.modules)
assert pokerdraw32.evaluate("Ah Kh Qh Jh Th").description == "royal flush, hearts"
stage["evaluate"] = sorted(sys.modules)
from pokerdraw32 import draw_odds
assert draw_odds("Ah Kh Qh Jh 7s", discards=["7s"]).best.combinations == 27
stage["draw_odds"] = sorted(sys.modules)
stage["implementation"] = pokerdraw32.IMPLEMENTATION
print(json.dumps(stage))
"""

EVERY_NAME = """
import json, sys
import pokerdraw32
names = {}
for name in pokerdraw32.__all__:
    value = getattr(pokerdraw32, name)
    names[name] = getattr(value, "__module__", None) or type(value).__module__
assert sorted(dir(pokerdraw32)) == sorted({*pokerdraw32.__all__, "__version__"}), dir(pokerdraw32)
star = {}
exec("from pokerdraw32 import *", star)
assert set(star) - {"__builtins__"} == set(pokerdraw32.__all__), set(star) ^ set(pokerdraw32.__all__)
assert all(star[name] is getattr(pokerdraw32, name) for name in pokerdraw32.__all__)
for sub in ("actions", "batch", "hand", "results", "rules"):   # imported by the package before issue 15
    assert getattr(pokerdraw32, sub) is sys.modules["pokerdraw32." + sub]
try:
    pokerdraw32.no_such_name
except AttributeError as exc:
    assert str(exc) == "module 'pokerdraw32' has no attribute 'no_such_name'", exc
else:
    raise AssertionError("no AttributeError")
print(json.dumps([pokerdraw32.IMPLEMENTATION, names]))
"""


@pytest.fixture(params=["compiled", "pure"])
def mode_env(request: pytest.FixtureRequest) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
    if request.param == "compiled":
        compiled_module()  # skips (or fails) as conftest says
    else:
        env.pop("POKERDRAW32_REQUIRE_EXTENSIONS", None)
        env.pop("CIBUILDWHEEL", None)
        env["POKERDRAW32_NO_EXTENSIONS"] = "1"
    return env


def run(code: str, env: dict[str, str]) -> object:
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_import_loads_only_what_evaluate_needs(mode_env: dict[str, str]) -> None:
    stage = run(LOADED, mode_env)
    assert isinstance(stage, dict)
    core = {"pokerdraw32._core"} if stage["implementation"] == "cython" else PURE_KERNELS
    mine = {m for m in stage["import"] if m.split(".")[0] == "pokerdraw32"}
    assert mine == EVALUATE_NEEDS | core
    assert {m for m in stage["evaluate"] if m.split(".")[0] == "pokerdraw32"} == mine
    for when in ("import", "evaluate"):
        assert not set(HEAVY) & set(stage[when]), (when, sorted(set(HEAVY) & set(stage[when])))
    # the first draw_odds adds odds (dataclasses), not the hand, the rules, statistics, fractions (read
    # a result's probability for that) or, compiled, typing (the pure kernels import it)
    added = set(stage["draw_odds"]) - set(stage["evaluate"])
    assert "pokerdraw32.odds" in added
    assert not {"pokerdraw32.hand", "pokerdraw32.actions", "pokerdraw32.rules", "pokerdraw32._handcore.state_c",
                "statistics", "fractions"} & added, sorted(added)
    if stage["implementation"] == "cython":
        assert "typing" not in stage["draw_odds"]


def test_every_public_name_resolves(mode_env: dict[str, str]) -> None:
    result = run(EVERY_NAME, mode_env)
    assert isinstance(result, list)
    implementation, names = result
    assert implementation == ("python" if mode_env.get("POKERDRAW32_NO_EXTENSIONS") else "cython")
    assert names["Hand"] == "pokerdraw32.hand" and names["Rules"] == "pokerdraw32.rules"
    assert names["evaluate"] == "pokerdraw32.evaluation" and names["Table"] == "pokerdraw32.table"
