"""Run the doctests of every installed pokerdraw32 module and of README.md.

This replaces ``pytest --doctest-modules``: that would import the files under ``src/``,
while these tests import the installed package, compiled ``pokerdraw32._core`` included.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import io
import pkgutil
import re
from pathlib import Path

import pytest

import pokerdraw32

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(pokerdraw32.__path__, prefix="pokerdraw32.")
    if not name.endswith("__main__")
)
README = Path(__file__).resolve().parent.parent / "README.md"
FLAGS = doctest.ELLIPSIS


def run(tests: list[doctest.DocTest]) -> None:
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


@pytest.mark.parametrize("name", ["pokerdraw32", *MODULES])
def test_module_doctests(name: str, request: pytest.FixtureRequest) -> None:
    if name == "pokerdraw32.env" or name.startswith("pokerdraw32.env."):   # the [rl] extra's
        for needed in ("numpy", "gymnasium", "pettingzoo"):
            pytest.importorskip(needed)
    if name in ("pokerdraw32.aivat", "pokerdraw32.lbr"):                      # the [aivat] extra's
        pytest.importorskip("numpy")
    if name == "pokerdraw32.env.sb3":                                          # the [sb3] extra's
        pytest.importorskip("stable_baselines3")
    if name == "pokerdraw32.openspiel" or name.startswith("pokerdraw32.openspiel."):   # the [openspiel] extra's
        for needed in ("numpy", "pyspiel"):
            pytest.importorskip(needed)
    if name in ("pokerdraw32.server.app", "pokerdraw32.server.run", "pokerdraw32.server.cluster",
                "pokerdraw32.server.connection"):                              # the [server] extra's
        for needed in ("starlette", "uvicorn"):
            pytest.importorskip(needed)
    # the compiled module comes from the fixture: it skips (or errors) as the kernel tests do
    module = request.getfixturevalue("core") if name == "pokerdraw32._core" else importlib.import_module(name)
    run(doctest.DocTestFinder().find(module))


def test_readme_doctests() -> None:
    """README.md's examples; a code block preceded by ``<!-- requires: numpy ... -->`` needs those
    modules (an extra) and is left out without them (as in tests/test_docs.py)."""
    if not README.exists():
        pytest.skip("README.md is not next to tests/ (tests run outside the repository)")
    text = README.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), 0)
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.fullmatch(r"<!-- requires: ([\w. ]+) -->", line.strip())
        if match and any(importlib.util.find_spec(m) is None for m in match.group(1).split()):
            end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith("```"))
            test.examples = [e for e in test.examples if not i + 1 <= e.lineno < end]
    run([test])
