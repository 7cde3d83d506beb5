"""The package's folders follow its layers, and nothing a user imports moved with them (issue 40).

- ``docs/architecture.md`` draws the tree of ``src/pokerdraw32/`` (section "The folder"): every
  module and folder it lists is there and every one there is listed; at most 25 modules sit
  directly in ``src/pokerdraw32/``, and no folder holds three modules sharing a name prefix
  (``_core_py_rng``, ``_core_py_pots``, ... was a folder in disguise);
- every documented import path still imports: ``pokerdraw32.__all__``, the modules of the API
  reference and their ``__all__``, the command's entry point, the bots' entry point, the OpenSpiel
  game's name; the private modules' paths from before the move import as the modules that are
  there now (``_MOVED``);
- pickles made before the move (``tests/data/pickles/``, both builds) load, and equal what they
  were.

The layer rules themselves (no upward import, no circle) are tests/test_layers.py's.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pokerdraw32 as pd

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "pokerdraw32"
DATA = Path(__file__).resolve().parent / "data" / "pickles"
DOCS = ROOT / "docs"
needs_source = pytest.mark.skipif(not (SOURCE / "__init__.py").is_file() or not DOCS.is_dir(),
                                  reason="needs the repository's src/ and docs/ beside tests/ (it reads them)")


def _drawn_tree() -> dict[str, set[str]]:
    """The tree of docs/architecture.md's "The folder": ``{folder: {entries}}``, folders relative
    to ``src/pokerdraw32`` ("" for itself), a subfolder entry ending in ``/``."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    block = text.split("## The folder", 1)[1].split("```", 2)[1]
    tree: dict[str, set[str]] = {}
    stack: list[tuple[int, str]] = []
    for line in block.splitlines():
        if not line.strip() or line.startswith("src/_core"):
            continue
        name = line.split()[0]
        if name == "src/pokerdraw32/":
            stack = [(-1, "")]
            tree[""] = set()
            continue
        depth = len(line) - len(line.lstrip(" "))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1]
        tree[parent].add(name)
        if name.endswith("/"):
            folder = f"{parent}{name}"
            stack.append((depth, folder))
            tree.setdefault(folder, set())
    return tree


def _listing(folder: Path) -> set[str]:
    """A folder's modules and subpackages as the tree names them."""
    return {p.name for p in folder.glob("*.py")} | {f"{p.name}/" for p in folder.iterdir()
                                                     if p.is_dir() and (p / "__init__.py").is_file()}


@needs_source
def test_the_architecture_page_draws_the_folder_as_it_is() -> None:
    tree = _drawn_tree()
    assert tree[""] == _listing(SOURCE), (
        f"docs/architecture.md's tree of src/pokerdraw32: missing {sorted(_listing(SOURCE) - tree[''])}, "
        f"not there {sorted(tree[''] - _listing(SOURCE))}")
    for folder, entries in tree.items():
        if folder and entries:   # a folder drawn with its contents (the interfaces are drawn closed)
            actual = _listing(SOURCE / folder)
            assert entries == actual, (f"docs/architecture.md's tree of {folder}: missing {sorted(actual - entries)}, "
                                       f"not there {sorted(entries - actual)}")
    closed = sorted(folder for folder, entries in tree.items() if folder and not entries)
    assert closed == ["cfr/", "env/", "openspiel/", "server/"], closed


@needs_source
def test_at_most_25_modules_sit_at_the_top() -> None:
    top = sorted(p.name for p in SOURCE.glob("*.py"))
    assert len(top) <= 25, f"{len(top)} modules directly in src/pokerdraw32: {top}"


def _prefix(stem: str) -> str:
    return stem.lstrip("_").split("_")[0]


@needs_source
@pytest.mark.parametrize("folder", sorted({p.parent for p in SOURCE.rglob("*.py")}, key=str),
                         ids=lambda p: str(p.relative_to(SOURCE.parent)))
def test_no_folder_in_disguise(folder: Path) -> None:
    """No three modules of one folder share the first word of their names (``odds``,
    ``odds_batch`` are two; ``_table_base``, ``_table_snapshot``, ``_table_journal`` were three)."""
    groups: dict[str, list[str]] = {}
    for path in folder.glob("*.py"):
        if path.stem not in ("__init__", "__main__"):
            groups.setdefault(_prefix(path.stem), []).append(path.name)
    crowded = {prefix: sorted(names) for prefix, names in groups.items() if len(names) >= 3}
    assert not crowded, f"{folder.relative_to(SOURCE.parent)}: modules sharing a prefix: {crowded}"


def _documented_modules() -> list[str]:
    """The modules the API reference documents (``automodule`` and ``currentmodule``)."""
    found: set[str] = set()
    for page in (DOCS / "api").glob("*.rst"):
        found.update(re.findall(r"^\.\. (?:py:currentmodule|automodule):: (pokerdraw32[\w.]*)",
                                page.read_text(encoding="utf-8"), re.MULTILINE))
    return sorted(found)


# the modules whose import needs an extra: skipped without it
_EXTRAS = {"pokerdraw32.env": "gymnasium", "pokerdraw32.env.exploit": "gymnasium",
           "pokerdraw32.env.sb3": "sb3_contrib", "pokerdraw32.openspiel": "pyspiel",
           "pokerdraw32.server": "starlette", "pokerdraw32.server.app": "starlette",
           "pokerdraw32.plot": "matplotlib", "pokerdraw32.aivat": "numpy",
           "pokerdraw32.lbr": "numpy"}


@needs_source
def test_the_api_reference_names_modules_that_exist() -> None:
    modules = _documented_modules()
    assert "pokerdraw32.table" in modules and "pokerdraw32.simulate" in modules and len(modules) >= 30
    for name in modules:     # read in the source (importing a subpackage may need its extra)
        parts = name.split(".")[1:]
        where = SOURCE.joinpath(*parts)
        assert where.with_suffix(".py").is_file() or (where / "__init__.py").is_file(), \
            f"the API reference documents {name}, which does not exist in src/"


@pytest.mark.parametrize("module", [
    "pokerdraw32", "pokerdraw32.actions", "pokerdraw32.aivat", "pokerdraw32.batch", "pokerdraw32.bots",
    "pokerdraw32.cards", "pokerdraw32.cfr", "pokerdraw32.cfr.blueprint", "pokerdraw32.cfr.compact",
    "pokerdraw32.cfr.exploitability", "pokerdraw32.cli", "pokerdraw32.cluster", "pokerdraw32.env",
    "pokerdraw32.env.exploit", "pokerdraw32.env.sb3", "pokerdraw32.errors", "pokerdraw32.evaluation",
    "pokerdraw32.hand", "pokerdraw32.history", "pokerdraw32.lbr", "pokerdraw32.odds", "pokerdraw32.odds_batch",
    "pokerdraw32.openspiel", "pokerdraw32.parallel", "pokerdraw32.phh", "pokerdraw32.plot",
    "pokerdraw32.results", "pokerdraw32.rulebook", "pokerdraw32.rules", "pokerdraw32.server",
    "pokerdraw32.server.app", "pokerdraw32.simulate", "pokerdraw32.snapshot", "pokerdraw32.table",
])
def test_every_documented_import_path_imports(module: str) -> None:
    """Each public module imports, and every name of its ``__all__`` is there (the list is kept
    here, not read from docs/, so that it holds in a wheel's test run too; the test above holds
    the API reference to existing modules)."""
    extra = _EXTRAS.get(module)
    if extra is not None and importlib.util.find_spec(extra) is None:
        pytest.skip(f"{module} needs {extra}")
    imported = importlib.import_module(module)
    missing = [name for name in getattr(imported, "__all__", ()) if not hasattr(imported, name)]
    assert not missing, f"{module}.__all__ names what is not there: {missing}"


def test_the_public_classes_keep_their_home() -> None:
    """Where a pickle or a repr names a public class: its module is the documented one."""
    from pokerdraw32.simulate import SimulationResult
    from pokerdraw32.table import Deadline, LedgerEntry, SeatState

    assert pd.Hand.__module__ == "pokerdraw32.hand"
    assert pd.Table.__module__ == "pokerdraw32.table"
    assert {c.__module__ for c in (Deadline, LedgerEntry, SeatState)} == {"pokerdraw32.table"}
    assert SimulationResult.__module__ == "pokerdraw32.simulate"
    assert pd.Rng.__module__ == ("pokerdraw32._core" if pd.IMPLEMENTATION == "cython" else "pokerdraw32._core_py")


def test_the_entry_points_resolve() -> None:
    """``pokerdraw32 = pokerdraw32.cli:main`` and the bots' ``cfr = pokerdraw32.cfr.blueprint:blueprint_bot``."""
    from importlib.metadata import entry_points

    from pokerdraw32.cfr.blueprint import blueprint_bot
    from pokerdraw32.cli import main

    scripts = {e.name: e for e in entry_points(group="console_scripts") if e.value.startswith("pokerdraw32")}
    assert scripts["pokerdraw32"].load() is main
    assert {e.name: e.load() for e in entry_points(group="pokerdraw32.bots")}["cfr"] is blueprint_bot


def test_the_command_runs_as_a_module() -> None:
    """``python -m pokerdraw32`` and ``python -m pokerdraw32.cli`` (the command is a package now)."""
    for target in ("pokerdraw32", "pokerdraw32.cli"):
        done = subprocess.run([sys.executable, "-m", target, "--version"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stdout.startswith("pokerdraw32 "), (target, done.stdout, done.stderr)


def test_the_openspiel_game_keeps_its_name() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import pokerdraw32.openspiel  # noqa: F401  (registers the game)

    assert pyspiel.load_game("python_pokerdraw32").get_type().short_name == "python_pokerdraw32"


def test_the_selector_loads_the_compiled_core_from_its_folder() -> None:
    """The ``*_c`` modules load through ``_kernels`` from ``pokerdraw32._handcore``."""
    from pokerdraw32 import _kernels

    suffix = "_c" if pd.IMPLEMENTATION == "cython" else ""
    assert _kernels.HandState.__module__ == f"pokerdraw32._handcore.state_view{suffix}"
    assert _kernels.play.__name__ == f"pokerdraw32._handcore.play{suffix}"
    assert _kernels.encode.__name__ == f"pokerdraw32._handcore.encode{suffix}"
    assert _kernels.vector.__name__ == f"pokerdraw32._handcore.vector{suffix}"
    assert type(pd.Hand(pd.Rules(), [100, 100], button=0)).__mro__[1] is _kernels.HandState


@pytest.mark.parametrize("old", sorted(pd._MOVED))
def test_an_old_private_path_imports_the_module_there_now(old: str) -> None:
    new = f"pokerdraw32.{pd._MOVED[old]}"
    if new.endswith("_c") and importlib.util.find_spec(new) is None:
        with pytest.raises(ImportError):
            importlib.import_module(f"pokerdraw32.{old}")
        return
    module = importlib.import_module(f"pokerdraw32.{old}")
    assert module is importlib.import_module(new)
    assert module.__name__ == module.__spec__.name == new      # the module keeps its own name and spec
    assert module.__package__ == module.__spec__.parent


def test_an_unknown_private_path_still_fails() -> None:
    with pytest.raises(ModuleNotFoundError, match=r"pokerdraw32\._no_such_module"):
        importlib.import_module("pokerdraw32._no_such_module")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("pokerdraw32._handcore._state")


def _fixture(build: str) -> dict[str, object]:
    if build == "compiled" and importlib.util.find_spec("pokerdraw32._core") is None:
        pytest.skip("the compiled kernels are not installed (the compiled build's pickles name them)")
    with open(DATA / f"{build}.pickle", "rb") as f:
        data: dict[str, object] = pickle.load(f)
    return data


def _decisions(bot: object) -> list[str]:
    """What ``bot`` decides in three seeded hands, as the script that made the pickles records it."""
    spec = importlib.util.spec_from_file_location("make_pickles", DATA / "make_pickles.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    decisions: list[str] = script.decisions(bot)
    return decisions


@pytest.mark.parametrize("build", ["compiled", "pure"])
def test_pickles_made_before_the_move_load(build: str) -> None:
    """``tests/data/pickles/make_pickles.py`` made these with the package before issue 40's move."""
    data = _fixture(build)
    objects = {k: pickle.loads(v) for k, v in data["objects"].items()}   # type: ignore[attr-defined]
    expected: dict[str, object] = data["expected"]   # type: ignore[assignment]
    assert expected["implementation"] == ("cython" if build == "compiled" else "python")
    assert objects["card"] == pd.parse_card("Ah")
    assert objects["cards"] == pd.parse_cards("7s 8c 9d Th Jh")
    assert objects["hand_rank"] == pd.evaluate("Ah Kd 7c 8s 9h")
    # the generator continues where it was when pickled: Rng(7) after three outputs (make_pickles.py
    # drew one, then one from a copy and one from it, the same, before pickling it)
    rng = pd.Rng(7)
    assert [rng.next_u64() for _ in range(2)][1:] * 2 == expected["rng"]
    assert objects["rng"].next_u64() == rng.next_u64()
    assert objects["rules"] == pd.Rules(structure=pd.Structure.FIXED_LIMIT)
    assert objects["legal"] == pd.Hand(pd.Rules(), [100, 100, 100], button=0, seed=11).legal_actions()
    for key in ("hand_start", "hand_done"):
        assert isinstance(objects[key], pd.Hand)
        assert json.dumps(objects[key].snapshot(), sort_keys=True) == expected[key]
    assert [str(e) for e in objects["events"]] == expected["events"]
    assert objects["result"] == objects["hand_done"].result
    assert list(objects["result"].stacks) == expected["result"][0]
    assert [type(b).__name__ for b in objects["bots"]] == ["RuleBot", "RandomBot", "CallBot", "FoldBot",
                                                           "ShoveBot", "PotBot"]
    assert [_decisions(b) for b in objects["bots"]] == expected["bots"]
    simulation = objects["simulation"]
    assert type(simulation).__module__ == "pokerdraw32.simulate"
    assert type(simulation.chunks[0]).__module__ == "pokerdraw32.simulate._chunk"   # was pokerdraw32._simchunk
    assert [simulation.net, simulation.hands_played, [c.hands for c in simulation.chunks]] == expected["simulation"]
    assert sum(simulation.net) == 0    # R9.5: chips conserved
    table, then = objects["table"].snapshot(), json.loads(expected["table"])   # type: ignore[attr-defined]
    for data in (table, then):   # the clock (time.monotonic by default) is the process's own
        del data["clock"], data["deadline"]
    assert table == then
    from pokerdraw32.odds import draw_odds

    assert objects["odds"] == draw_odds("7s 8c 9d Th Jh")
    assert _decisions(objects["cfr"]) == expected["cfr"]
    assert str(objects["error"]) == "seat 0: no such action [R3.4]"
    assert isinstance(objects["error"], pd.IllegalActionError)


@pytest.mark.skipif(os.environ.get("POKERDRAW32_NO_EXTENSIONS", "").strip().lower() in ("", "0", "false", "no", "off"),
                    reason="checks the pure run of a compiled install")
def test_a_pure_run_loads_the_pure_builds_pickles() -> None:
    assert pd.IMPLEMENTATION == "python"
    data = _fixture("pure")
    rng = pickle.loads(data["objects"]["rng"])   # type: ignore[index]
    assert type(rng) is pd.Rng


@needs_source
def test_every_benchmark_is_named_in_the_performance_page() -> None:
    """bench/ holds what a user or a reviewer runs, each module in docs/performance.md's list (and
    nothing more: a finished experiment leaves, its conclusions kept in the docs)."""
    text = (DOCS / "performance.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `bench/([\w./]+)` \|", text.split("## The benchmarks", 1)[1], re.MULTILINE))
    bench = ROOT / "bench"
    present = {p.name for p in bench.glob("*.py")} | {f"{p.name}/" for p in bench.iterdir()
                                                       if p.is_dir() and p.name != "__pycache__"}
    assert listed == present, (f"bench/ not listed: {sorted(present - listed)}; "
                               f"listed, not there: {sorted(listed - present)}")
