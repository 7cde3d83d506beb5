"""The kernel selector (pokerdraw32._kernels) and the API parity of the two implementations."""

from __future__ import annotations

import importlib.metadata
import inspect
import os
import subprocess
import sys
from types import ModuleType

import pytest

import pokerdraw32
from pokerdraw32 import _kernels

KERNEL_NAMES = ["Rng", "evaluate_codes", "evaluate_mask", "evaluate_text", "split_pots"]
KERNEL_NAMES += ["draw_outcomes", "draw_summary", "strength_score"]  # kernel 4: draw odds
KERNEL_NAMES += ["deal_many", "evaluate_many"]  # kernel 5: batches
KERNEL_NAMES += ["equity_trials", "rule_discard"]  # kernel 6: Monte Carlo equity
ENV_VARS = ("POKERDRAW32_NO_EXTENSIONS", "POKERDRAW32_REQUIRE_EXTENSIONS", "CIBUILDWHEEL")


def public_methods(cls: type) -> list[str]:
    return [*sorted(name for name in dir(cls) if not name.startswith("_")), "__reduce__", "__setstate__"]


def parameters(function: object) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]  # type: ignore[arg-type]


def own_doc(obj: object) -> str:
    """The docstring without the signature line that Cython's embedsignature prepends."""
    doc = inspect.getdoc(obj) or ""
    first, _, rest = doc.partition("\n\n")
    name = getattr(obj, "__qualname__", "")
    return rest if first.startswith(f"{name}(") else doc


# ---------------------------------------------------------------------------------------
# the two implementations have the same API


def test_same_public_names(core: ModuleType, pure: ModuleType) -> None:
    assert core.__all__ == pure.__all__ == KERNEL_NAMES
    assert public_methods(core.Rng) == public_methods(pure.Rng)


@pytest.mark.parametrize("name", ["evaluate_codes", "evaluate_mask", "evaluate_text", "split_pots", "draw_outcomes",
                                  "draw_summary", "strength_score", "deal_many", "evaluate_many", "equity_trials",
                                  "rule_discard"])
def test_same_function_signatures(core: ModuleType, pure: ModuleType, name: str) -> None:
    assert parameters(getattr(core, name)) == parameters(getattr(pure, name))


def test_same_method_signatures(core: ModuleType, pure: ModuleType) -> None:
    for name in public_methods(pure.Rng):
        assert parameters(getattr(core.Rng, name)) == parameters(getattr(pure.Rng, name)), name


def test_same_constructor(core: ModuleType, pure: ModuleType) -> None:
    # A Cython class's __init__ is not introspectable; its embedded signature is.
    signature = inspect.signature(pure.Rng)
    text = ", ".join(f"{p.name}={p.default!r}" for p in signature.parameters.values())
    assert core.Rng.__doc__.splitlines()[0] == f"Rng({text})"


def test_same_docstrings(core: ModuleType, pure: ModuleType) -> None:
    assert own_doc(core) and own_doc(pure)
    for name in KERNEL_NAMES:
        assert own_doc(getattr(core, name)) == own_doc(getattr(pure, name)), name
    for name in public_methods(pure.Rng):
        doc = own_doc(getattr(pure.Rng, name))
        assert doc and own_doc(getattr(core.Rng, name)) == doc, name


def test_names_live_in_their_module(kernels: ModuleType) -> None:
    for name in KERNEL_NAMES:
        assert getattr(kernels, name).__module__ == kernels.__name__


# ---------------------------------------------------------------------------------------
# selection in this process


def test_selected_kernels() -> None:
    chosen = "pokerdraw32._core" if _kernels.IMPLEMENTATION == "cython" else "pokerdraw32._core_py"
    module = sys.modules[chosen]
    for name in KERNEL_NAMES:
        assert getattr(_kernels, name) is getattr(module, name)
    assert pokerdraw32.IMPLEMENTATION == _kernels.IMPLEMENTATION


def test_implementation_follows_environment() -> None:
    if os.environ.get("POKERDRAW32_NO_EXTENSIONS", "").strip().lower() not in ("", "0", "false", "no", "off"):
        assert _kernels.IMPLEMENTATION == "python"
        assert _kernels.NO_EXTENSIONS is True
        return
    try:
        importlib.import_module("pokerdraw32._core")
    except ImportError:
        assert _kernels.IMPLEMENTATION == "python"
    else:
        assert _kernels.IMPLEMENTATION == "cython"


def test_version_matches_metadata() -> None:
    assert pokerdraw32.__version__ == importlib.metadata.version("pokerdraw32")


# ---------------------------------------------------------------------------------------
# selection in a fresh interpreter

PROBE = """
import sys
if sys.argv[1] != "keep":
    sys.modules["pokerdraw32." + sys.argv[1]] = None  # makes `import pokerdraw32.<module>` fail
import pokerdraw32, pokerdraw32._kernels as k
print(pokerdraw32.IMPLEMENTATION, k.evaluate_mask.__module__, k.Rng.__module__, k.HandState.__module__,
      k.play.__name__, k.encode.__name__)
"""

# The compiled modules built with _core: all or none (pokerdraw32._kernels imports them on first use).
COMPANIONS = [f"_handcore.{m}_c" for m in ("codes", "deal", "betting", "state", "state_view", "play", "encode",
                                            "vector")]


def probe(env: dict[str, str], hide_core: bool = False, hide: str | None = None) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in ENV_VARS}
    return subprocess.run(
        [sys.executable, "-c", PROBE, "_core" if hide_core else hide or "keep"],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def default_implementation() -> str:
    """What a fresh interpreter picks with no environment variable set."""
    check = subprocess.run([sys.executable, "-c", "import pokerdraw32._core"], capture_output=True, timeout=120)
    return "cython" if check.returncode == 0 else "python"


def expect(result: subprocess.CompletedProcess[str], implementation: str) -> None:
    assert result.returncode == 0, result.stderr
    module = "pokerdraw32._core" if implementation == "cython" else "pokerdraw32._core_py"
    c = "_c" if implementation == "cython" else ""
    assert result.stdout.split() == [implementation, module, module, f"pokerdraw32._handcore.state_view{c}",
                                     f"pokerdraw32._handcore.play{c}", f"pokerdraw32._handcore.encode{c}"]


@pytest.mark.parametrize("value", ["1", "true", "YES", " on "])
def test_no_extensions_forces_pure(value: str) -> None:
    expect(probe({"POKERDRAW32_NO_EXTENSIONS": value}), "python")


@pytest.mark.parametrize("value", ["", "0", "false", "No", " OFF "])
def test_falsy_values_change_nothing(value: str, default_implementation: str) -> None:
    expect(probe({"POKERDRAW32_NO_EXTENSIONS": value}), default_implementation)


def test_missing_core_falls_back() -> None:
    expect(probe({}, hide_core=True), "python")


@pytest.mark.parametrize("env", [{"POKERDRAW32_REQUIRE_EXTENSIONS": "1"}, {"CIBUILDWHEEL": "1"}])
def test_missing_core_is_an_error_when_required(env: dict[str, str]) -> None:
    result = probe(env, hide_core=True)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    why = next(iter(env)) if "POKERDRAW32_REQUIRE_EXTENSIONS" in env else "CIBUILDWHEEL=1"
    assert last.startswith(f"ImportError: {why} is set, but the compiled kernels pokerdraw32._core cannot be imported")
    assert "install pokerdraw32 with a C compiler" in last


@pytest.mark.parametrize("module", COMPANIONS)
def test_missing_companion_falls_back(module: str, default_implementation: str) -> None:
    """_core imports, but one module built with it is missing: the pure twins everywhere (found, not
    imported, at `import pokerdraw32`)."""
    if default_implementation != "cython":
        pytest.skip("pokerdraw32._core is not installed")
    expect(probe({}, hide=module), "python")


@pytest.mark.parametrize("module", ["_handcore.state_view_c", "_handcore.vector_c"])
def test_missing_companion_is_an_error_when_required(module: str, default_implementation: str) -> None:
    if default_implementation != "cython":
        pytest.skip("pokerdraw32._core is not installed")
    result = probe({"POKERDRAW32_REQUIRE_EXTENSIONS": "1"}, hide=module)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: POKERDRAW32_REQUIRE_EXTENSIONS is set, but the compiled module "
                           f"pokerdraw32.{module} cannot be imported (not installed: pokerdraw32.{module}"), last


BROKEN = """
import importlib.abc, importlib.util, sys

class Broken(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    # finds pokerdraw32._handcore.play_c, which then fails to load, as a mismatched build would
    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name == "pokerdraw32._handcore.play_c" else None
    def create_module(self, spec):
        raise ImportError("undefined symbol: __pyx_module_is_main_pokerdraw32___play_c")
    def exec_module(self, module):
        pass

sys.meta_path.insert(0, Broken())
import pokerdraw32, pokerdraw32._kernels as k
print(pokerdraw32.IMPLEMENTATION, k.HandState.__module__, flush=True)
k.play
"""


def test_broken_companion_is_an_error_on_first_use(default_implementation: str) -> None:
    """One module built with _core is installed but does not load: the compiled _core is in use by then,
    and the builds are never mixed; the first use names the module and the way out."""
    if default_implementation != "cython":
        pytest.skip("pokerdraw32._core is not installed")
    clean = {key: value for key, value in os.environ.items() if key not in ENV_VARS}
    result = subprocess.run([sys.executable, "-c", BROKEN], env=clean, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert result.stdout.split() == ["cython", "pokerdraw32._handcore.state_view_c"]
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: the compiled module pokerdraw32._handcore.play_c is installed but cannot be "
                           "imported (undefined symbol: "), last
    assert "set POKERDRAW32_NO_EXTENSIONS=1" in last


def test_required_and_present(default_implementation: str) -> None:
    if default_implementation != "cython":
        pytest.skip("pokerdraw32._core is not installed")
    expect(probe({"POKERDRAW32_REQUIRE_EXTENSIONS": "1"}), "cython")


def test_no_and_require_together_is_an_error() -> None:
    result = probe({"POKERDRAW32_NO_EXTENSIONS": "1", "POKERDRAW32_REQUIRE_EXTENSIONS": "1"})
    assert result.returncode != 0
    assert "both set" in result.stderr.strip().splitlines()[-1]
