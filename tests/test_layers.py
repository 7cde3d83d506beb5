"""The package's modules form layers that import downward only (issue 25).

Every import between the package's modules counts: module-level and function-level ones, ``from .
import x``, absolute ``pokerdraw32.x`` imports, the compiled modules' ``cimport``s (``.pxd`` files,
``src/_core.pyx``) and the modules that a selector or a package imports by name on first use (a
module-level ``_LAZY`` table); only the imports under ``if TYPE_CHECKING:`` (which never run) are
left out. A compiled module ``x_c`` is its pure-mode source ``x``.

:data:`LAYERS` is the architecture, lowest first (docs/architecture.md draws it): a module
imports modules of its own layer or of the layers below it, never above, and no group of modules
imports each other round in a circle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "pokerdraw32"
CORE_PYX = PACKAGE.parent / "_core.pyx"
if not (PACKAGE / "__init__.py").is_file() or not CORE_PYX.is_file():   # e.g. a wheel's tests, run without src/
    pytest.skip("needs the repository's src/ beside tests/ (it reads the sources)", allow_module_level=True)

LAYERS: list[tuple[str, set[str]]] = [
    ("foundation", {"errors", "_version"}),
    ("vocabulary", {"cards", "rules", "actions", "results", "rulebook"}),
    ("kernels", {"_core", "_core_py"}),
    ("core", {"_handcore"}),
    ("selector", {"_kernels"}),
    ("facades", {"evaluation", "batch", "hand", "snapshot", "phh", "history", "table", "odds", "odds_batch",
                 "bots", "parallel", "cluster", "aivat", "lbr", "simulate", "plot"}),
    ("package", {"__init__"}),
    ("interfaces", {"cli", "__main__", "env", "openspiel", "server", "cfr"}),
]
"""The layers, lowest first; a subpackage's modules are in its layer (``env.single`` is ``env``,
``table._seats`` is ``table``, ``_handcore.state`` is ``_handcore``): one folder is one layer."""


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name below ``pokerdraw32`` (``__init__`` for the
    package itself, ``env`` for ``env/__init__.py``), and ``_core`` for ``src/_core.pyx``."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        found[".".join(parts)] = path
    found["_core"] = CORE_PYX
    return found


MODULES = _modules()


def _layer(module: str) -> int:
    top = module.split(".")[0]
    for i, (_name, members) in enumerate(LAYERS):
        if module in members or top in members:
            return i
    raise AssertionError(f"module {module!r} is in no layer of tests/test_layers.py: LAYERS; add it where it "
                         "belongs")


def _resolve(name: str) -> str | None:
    """A dotted name below the package (``x_c`` read as ``x``) as the module it is, or ``None``."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            return candidate
        if parts[-1].endswith("_c") and ".".join([*parts[:-1], parts[-1][:-2]]) in MODULES:
            return ".".join([*parts[:-1], parts[-1][:-2]])
        parts.pop()
    return None


def _package_of(module: str) -> list[str]:
    path = MODULES[module]
    parts = [] if module == "__init__" else module.split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _running_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``tree`` outside ``if TYPE_CHECKING:`` bodies (their ``else`` runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _targets(module: str, node: ast.AST) -> Iterator[str]:
    """The package's modules that ``node`` (in ``module``) imports, as dotted names below it."""
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = _package_of(module)
            base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
            prefix = [*base, *(node.module.split(".") if node.module else [])]
        elif node.module and (node.module == "pokerdraw32" or node.module.startswith("pokerdraw32.")):
            prefix = node.module.split(".")[1:]
        else:
            return
        for alias in node.names:   # `from . import x`: x is a module when there is one, else a name
            sub = _resolve(".".join([*prefix, alias.name]))
            if sub is not None and (sub == ".".join([*prefix, alias.name]) or
                                    sub == ".".join([*prefix, alias.name[:-2]])):
                yield sub
            else:
                yield _resolve(".".join(prefix)) if prefix else "__init__"   # type: ignore[misc]
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.startswith("pokerdraw32."):
                target = _resolve(alias.name[len("pokerdraw32."):])
                if target is not None:
                    yield target
    elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and \
            isinstance(node.args[0].value, str) and node.args[0].value.startswith("pokerdraw32.") and \
            getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__"):
        target = _resolve(node.args[0].value[len("pokerdraw32."):])
        if target is not None:
            yield target
    elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets):
        base = _package_of(module)
        for value in ast.walk(node.value):   # a module imported by name on first use
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                name = ".".join([*base, value.value])
                target = _resolve(name)
                if target is not None and target in (name, name.removesuffix("_c")):
                    yield target


_CIMPORT = re.compile(r"^\s*(?:from\s+pokerdraw32\.([\w.]+)\s+(?:c?import)|(?:c?import)\s+pokerdraw32\.([\w.]+))",
                      re.MULTILINE)


def _edges() -> dict[tuple[str, str], str]:
    """``(importer, imported) -> "file:line"`` of one place where it happens, self-imports left out."""
    edges: dict[tuple[str, str], str] = {}

    def add(source: str, target: str | None, where: str) -> None:
        if target is not None and target != source:
            edges.setdefault((source, target), where)

    for module, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            for node in _running_nodes(ast.parse(text, str(path))):
                for target in _targets(module, node):
                    add(module, target, f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}")
        pxd = [path.with_suffix(".pxd")] if path.suffix == ".py" else [path]
        for source in pxd:
            if source.exists():
                source_text = source.read_text(encoding="utf-8")
                for match in _CIMPORT.finditer(source_text):
                    line = source_text.count("\n", 0, match.start()) + 1
                    add(module, _resolve(match.group(1) or match.group(2)),
                        f"{source.relative_to(PACKAGE.parent)}:{line}")
    return edges


EDGES = _edges()


def _cycles() -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    graph: dict[str, list[str]] = {m: [] for m in MODULES}
    for a, b in EDGES:
        graph[a].append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_scan_sees_the_imports_it_must() -> None:
    """The scan finds a function-level import, a `from . import x`, a `.pxd` cimport and the
    selector's imports by name (so that the tests below prove something)."""
    assert ("hand", "_kernels") in EDGES
    assert ("_kernels", "_handcore.codes") in EDGES and ("_kernels", "_handcore.play") in EDGES   # by name (_LAZY)
    assert ("_handcore.state", "_core") in EDGES                                                 # .pxd cimport
    assert ("_handcore.state", "_handcore.betting") in EDGES      # .pxd cimport within a subpackage
    assert ("__main__", "cli") in EDGES
    assert ("env.single", "hand") in EDGES and ("env.single", "env.encoding") in EDGES   # subpackages


def test_no_import_circle() -> None:
    cycles = _cycles()
    lines = []
    for group in cycles:
        members = set(group)
        inner = sorted((a, b, where) for (a, b), where in EDGES.items() if a in members and b in members)
        lines.append(f"import circle of {len(group)} modules: {', '.join(group)}\n" +
                     "\n".join(f"    {a} -> {b}   ({where})" for a, b, where in inner))
    assert not cycles, "\n".join(lines)


def test_every_module_imports_downward_only() -> None:
    upward = sorted(f"{a} ({LAYERS[_layer(a)][0]}) -> {b} ({LAYERS[_layer(b)][0]})   ({where})"
                    for (a, b), where in EDGES.items() if _layer(b) > _layer(a))
    assert not upward, "imports up the layers:\n" + "\n".join(upward)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_over_1000_lines(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= 1000, f"{MODULES[module].relative_to(PACKAGE.parent)} has {lines} lines: split it by concern"


def test_the_hand_and_its_snapshots_import_downward() -> None:
    """Issue 25: the hand never imports the snapshot facade, nor the snapshot format's module the
    hand (it is given the class that replays a log): the snapshot facade sits above both."""
    assert ("hand", "snapshot") not in EDGES and ("hand._snapshot", "hand") not in EDGES
    assert ("snapshot", "hand") in EDGES and ("hand", "hand._snapshot") in EDGES
    assert not [group for group in _cycles() if {"hand", "snapshot"} <= set(group)]


def test_the_docs_draw_every_module_in_its_layer() -> None:
    """The layer diagram of docs/architecture.md names every module of :data:`LAYERS` on its layer's
    lines (a new module without its place in the diagram fails here)."""
    text = (PACKAGE.parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    diagram = text.split("# Architecture", 1)[1].split("```", 2)[1]
    rows: dict[str, str] = {}
    current = ""
    for line in diagram.splitlines():
        head = line[:13].strip()
        if head and head != "|":
            current = head
        rows[current] = rows.get(current, "") + " " + line[13:]
    missing = [f"{module} ({layer})" for layer, members in LAYERS for module in sorted(members)
               if not re.search(rf"(?<![\w.]){re.escape(module)}(?![\w])", rows.get(layer, ""))]
    assert not missing, f"docs/architecture.md's layer diagram lacks: {', '.join(missing)}"
