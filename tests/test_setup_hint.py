"""setup.py: a failed compile still fails, and its last line names POKERDRAW32_NO_EXTENSIONS=1."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parent.parent / "setup.py"


def _pure_mode_modules() -> tuple[str, ...]:
    """setup.py's PURE_MODE: the modules of src/pokerdraw32/_handcore it compiles in Cython's pure-Python mode."""
    import ast
    for node in ast.parse(SETUP.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PURE_MODE" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no PURE_MODE tuple")


@pytest.mark.skipif(not SETUP.exists(), reason="needs the repository's setup.py beside tests/")
@pytest.mark.skipif(sys.platform == "win32", reason="MSVC ignores CC")
@pytest.mark.skipif(sys.implementation.name != "cpython", reason="setup.py builds no extension off CPython")
def test_failed_compile_ends_with_the_no_extensions_hint(tmp_path: Path) -> None:
    pytest.importorskip("setuptools.errors")
    shutil.copy(SETUP, tmp_path / "setup.py")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "_core.pyx").write_text("x = 1\n", encoding="utf-8")   # a stub: the compiler fails anyway
    (tmp_path / "src" / "_core.pxd").write_text("", encoding="utf-8")
    (tmp_path / "src" / "pokerdraw32" / "_handcore").mkdir(parents=True)
    for module in _pure_mode_modules():                                       # the pure-mode sources setup.py compiles
        (tmp_path / "src" / "pokerdraw32" / "_handcore" / f"{module}.py").write_text("x = 1\n", encoding="utf-8")
        (tmp_path / "src" / "pokerdraw32" / "_handcore" / f"{module}.pxd").write_text("", encoding="utf-8")
    (tmp_path / "src" / "pokerdraw32" / "cfr").mkdir()                      # and the solver's walk (issue 26)
    for module in ("_mccfr", "_bucketgame"):                                 # and its bucket game's tables
        (tmp_path / "src" / "pokerdraw32" / "cfr" / f"{module}.py").write_text("x = 1\n", encoding="utf-8")
        (tmp_path / "src" / "pokerdraw32" / "cfr" / f"{module}.pxd").write_text("", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("POKERDRAW32_")}
    env["CC"] = "/bin/false"                                                  # a C compiler that always fails
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--force"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode != 0, proc.stdout + proc.stderr                   # still strict: no fallback
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("pokerdraw32: compiling the C extension pokerdraw32._core failed"), proc.stderr[-2000:]
    assert "set POKERDRAW32_NO_EXTENSIONS=1" in last
