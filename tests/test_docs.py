"""The documentation site (docs/): its examples run, its API reference names every public name, and
README.md stays a front page.

* Every ``>>>`` example of every page (``docs/**/*.md``) runs, as README's do in
  tests/test_doctests.py, against the installed package: the outputs shown are the outputs. A code
  block preceded by a comment ``<!-- requires: numpy pettingzoo -->`` needs those modules (an
  extra): without them its examples are left out. The longer scripts (``# research example`` and
  the like) are run by the tests named in their first line.
* The API reference (``docs/api/*.rst``) has a directive for every name of ``pokerdraw32.__all__``
  and of the interfaces ``pokerdraw32.env``, ``.openspiel`` and ``.server`` (read from the
  sources, so this needs neither Sphinx nor the extras), and the command line comes from the real
  parser. Where a built site's ``objects.inv`` is named by ``POKERDRAW32_DOCS_INVENTORY`` (``.ci/run``
  sets it after ``sphinx-build``), every one of those names, and every rule id's label, is checked in
  it; elsewhere that test skips.
* README.md has at most 300 lines and starts with the two commands for a new machine.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import io
import os
import re
from pathlib import Path

import pytest

import pokerdraw32

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")   # the pages with examples
               if "_build" not in p.parts and ">>> " in p.read_text(encoding="utf-8")) if DOCS.is_dir() else []
INTERFACES = ["pokerdraw32", "pokerdraw32.env", "pokerdraw32.openspiel", "pokerdraw32.server"]
needs_docs = pytest.mark.skipif(not DOCS.is_dir(), reason="docs/ is not next to tests/ (tests run outside the "
                                                          "repository)")


def _run(test: doctest.DocTest) -> None:
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


def _blocks_needing(text: str) -> list[tuple[int, int, list[str]]]:
    """The line ranges (start, end) of the code blocks marked ``<!-- requires: ... -->``, with the
    modules each needs."""
    found = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.fullmatch(r"<!-- requires: ([\w. ]+) -->", line.strip())
        if match:
            start = i + 1
            assert lines[start].startswith("```"), f"line {i + 1}: a 'requires' comment must precede a code block"
            end = next(j for j in range(start + 1, len(lines)) if lines[j].startswith("```"))
            found.append((start, end, match.group(1).split()))
    return found


@needs_docs
@pytest.mark.parametrize("page", PAGES)
def test_page_examples_run(page: str) -> None:
    path = DOCS / page
    text = path.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, f"docs/{page}", str(path), 0)
    for start, end, modules in _blocks_needing(text):
        if any(importlib.util.find_spec(m) is None for m in modules):
            test.examples = [e for e in test.examples if not start <= e.lineno < end]
    if not test.examples:
        pytest.skip("no example on this page (or only examples of extras that are not installed)")
    _run(test)


def test_readme_is_a_front_page() -> None:
    if not README.exists():
        pytest.skip("README.md is not next to tests/")
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: at most 300 (the rest belongs in docs/)"
    fence = lines.index("```sh")
    assert lines[fence + 1:fence + 3] == [
        'pip install ".[test]" && pokerdraw32 simulate --players 5 --hands 20000 --seed 7',
        "python -m pytest",
    ], "README.md's first code block must be the two commands for a new machine"
    assert fence < 5, "the two commands come first"


def _all_of(module: str) -> list[str]:
    """A module's ``__all__``, read from its source without importing it (its extra may be absent)."""
    base = Path(pokerdraw32.__file__).parent.joinpath(*module.split(".")[1:])   # not find_spec: it would
    source = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")   # import the parents
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{module} has no __all__")


def _documented() -> tuple[set[str], str]:
    """The fully qualified names that the API reference's directives document, and its text."""
    names: set[str] = set()
    texts = []
    for path in sorted((DOCS / "api").glob("*.rst")):
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        current = ""
        lines = text.splitlines()
        for i, line in enumerate(lines):
            match = re.match(r"\.\. (?:py:)?(module|currentmodule|automodule|auto\w+|py:\w+):: (\S+)", line)
            if not match:
                continue
            kind, target = match.groups()
            options = []
            for follow in lines[i + 1:]:
                if not follow.startswith("   :"):
                    break
                options.append(follow.strip())
            if kind in ("module", "currentmodule"):
                current = target
            elif kind == "automodule":
                current = target
                members = [o for o in options if o.startswith(":members:")]
                excluded = {n.strip() for o in options if o.startswith(":exclude-members:")
                            for n in o.split(":", 2)[2].split(",")}
                if members and members[0] != ":members:":
                    listed = {n.strip() for n in members[0].split(":", 2)[2].split(",")}
                else:
                    listed = set(_all_of(target)) if members else set()
                names |= {f"{target}.{n}" for n in listed - excluded}
            else:
                names.add(target if "." in target and target.startswith("pokerdraw32") else f"{current}.{target}")
    return names, "\n".join(texts)


def _required() -> list[str]:
    return [f"{m}.{name}" for m in INTERFACES for name in _all_of(m)]


@needs_docs
def test_the_api_reference_has_every_public_name() -> None:
    documented, text = _documented()
    missing = [name for name in _required() if name not in documented]
    assert not missing, f"not in docs/api/*.rst: {', '.join(missing)}"
    assert re.search(r"\.\. argparse::\n   :module: pokerdraw32\.cli\n   :func: build_parser\n", text), \
        "the command line's reference must be generated from pokerdraw32.cli.build_parser"


def test_the_built_inventory_has_every_public_name_and_rule() -> None:
    location = os.environ.get("POKERDRAW32_DOCS_INVENTORY")
    if not location:
        pytest.skip("POKERDRAW32_DOCS_INVENTORY names no built objects.inv (.ci/run sets it after sphinx-build)")
    inventory = pytest.importorskip("sphinx.util.inventory")
    with open(location, "rb") as f:
        data = inventory.InventoryFile.load(f, "", lambda base, uri: uri)
    entries = data.data if hasattr(data, "data") else data          # Sphinx 8.2+ or older
    python = {name for kind, objects in entries.items() if kind.startswith("py:") for name in objects}
    missing = [name for name in _required() if name not in python]
    assert not missing, f"not in {location}: {', '.join(missing)}"
    labels = set(entries.get("std:label", {}))
    from pokerdraw32.rulebook import rule_ids

    assert not [r for r in rule_ids() if f"rule-{r.lower()}" not in labels], "a rule id without its anchor"
    assert pokerdraw32.__version__


def _python_scripts() -> list[tuple[str, int, str]]:
    """Every ```python block of the pages that is a script rather than ``>>>`` examples: (page, line,
    code)."""
    found = []
    for path in sorted(DOCS.rglob("*.md")):
        if "_build" in path.parts:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if line == "```python":
                end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
                code = "\n".join(lines[i + 1:end]) + "\n"
                if ">>> " not in code:
                    found.append((path.relative_to(DOCS).as_posix(), i + 1, code))
    return found


@needs_docs
def test_every_script_is_run_by_a_test_or_marked_illustrative() -> None:
    """A script's first line names the test that runs it, ``# ... (tests/test_x.py runs it)``, or says
    ``# illustrative: ...`` (a figure or a run that takes minutes, with what produces it)."""
    for page, line, code in _python_scripts():
        first = code.splitlines()[0]
        named = re.search(r"\((tests/test_\w+\.py) runs it", first)
        assert named or first.startswith("# illustrative: "), \
            f"docs/{page}:{line}: the script names no test that runs it and is not marked illustrative"
        if named:
            assert (ROOT / named.group(1)).exists(), f"docs/{page}:{line}: {named.group(1)} does not exist"


@needs_docs
def test_the_scripts_this_file_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The scripts whose first line says ``(tests/test_docs.py runs it)`` run (with their extras)."""
    ran = 0
    for page, line, code in _python_scripts():
        if "(tests/test_docs.py runs it)" not in code.splitlines()[0]:
            continue
        text = (DOCS / page).read_text(encoding="utf-8").splitlines()
        marker = re.fullmatch(r"<!-- requires: ([\w. ]+) -->", text[line - 2].strip())
        if marker and any(importlib.util.find_spec(m) is None for m in marker.group(1).split()):
            continue
        exec(compile(code, f"docs/{page}:{line}", "exec"), {})
        ran += 1
    if not ran:
        pytest.skip("the scripts need extras that are not installed")
