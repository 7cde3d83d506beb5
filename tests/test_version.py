"""One version, from one place: ``pokerdraw32.__version__``.

The packaging metadata reads it (setuptools dynamic version), ``pokerdraw32 --version`` prints
it, and the newest CHANGELOG.md heading must name it.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import pokerdraw32
from pokerdraw32.cli import main

CHANGELOG = Path(__file__).resolve().parent.parent / "CHANGELOG.md"
EXPECTED = f"pokerdraw32 {pokerdraw32.__version__} ({pokerdraw32.IMPLEMENTATION} kernels)"


def test_version_is_pep440_and_the_metadata_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", pokerdraw32.__version__)
    assert importlib.metadata.version("pokerdraw32") == pokerdraw32.__version__


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0                  # main returns every exit status, argparse's too
    assert capsys.readouterr().out == EXPECTED + "\n"


def test_installed_command() -> None:
    """The console script that pip installs, run as a user would."""
    entry_points = importlib.metadata.entry_points(group="console_scripts", name="pokerdraw32")
    assert [ep.value for ep in entry_points] == ["pokerdraw32.cli:main"]
    scripts = Path(sysconfig.get_path("scripts"))
    command = next((p for p in (scripts / "pokerdraw32", scripts / "pokerdraw32.exe") if p.exists()), None)
    if command is None:
        pytest.skip(f"no pokerdraw32 script in {scripts} (the package is not installed into this interpreter)")
    result = subprocess.run([str(command), "--version"], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == EXPECTED


def test_changelog_names_the_version() -> None:
    if not CHANGELOG.exists():
        pytest.skip("CHANGELOG.md is not next to tests/ (tests run outside the repository)")
    heading = re.search(r"^## (\S+)", CHANGELOG.read_text(encoding="utf-8"), re.MULTILINE)
    assert heading is not None, "CHANGELOG.md has no '## <version>' heading"
    assert heading.group(1) == pokerdraw32.__version__, "the newest CHANGELOG.md heading is not __version__"


def test_module_entry_point() -> None:
    result = subprocess.run([sys.executable, "-m", "pokerdraw32.cli", "--version"], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == EXPECTED
