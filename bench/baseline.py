"""The engine of another revision, run pure, for the "no slower / no larger than today" ratios.

bench/simulate.py, bench/memory.py and bench/import_time.py measure the installed pokerdraw32
next to a baseline revision in the same run.  The baseline is that revision's ``src/``, taken with
``git archive`` into a temporary directory, byte-compiled (as pip does at install time), and
imported from there (``PYTHONPATH``) with ``POKERDRAW32_NO_EXTENSIONS=1``: the pure engine needs no
build, so any revision runs as it was.

:data:`DEFAULT_REV` is ``fef819d``, main before the compiled hand state machine of issue 11 (the
kernels compiled, the hand pure Python): the "today" that issue's targets are measured against.
A baseline needs git and the repository's history (a fresh clone has both; an sdist or a shallow
clone does not, and the scripts then skip the baseline and say why).
"""

from __future__ import annotations

import compileall
import io
import os
import subprocess
import tarfile
from pathlib import Path

DEFAULT_REV = "fef819d"
REPO = Path(__file__).resolve().parent.parent


class BaselineError(RuntimeError):
    """The baseline revision cannot be extracted (no git, no such commit, no src/ in it)."""


def describe(rev: str) -> str:
    """``rev`` as a short hash (what the scripts print next to the baseline's figures)."""
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "--verify", f"{rev}^{{commit}}"],
                             capture_output=True, text=True, check=False)
    except OSError as e:  # no git
        raise BaselineError(f"git is not available ({e})") from e
    if out.returncode != 0:
        raise BaselineError(f"no commit {rev!r} in {REPO} ({out.stderr.strip() or 'git rev-parse failed'})")
    return out.stdout.strip()


def extract(rev: str, directory: str | Path) -> Path:
    """Write ``rev``'s ``src/`` under ``directory``; return the path to put on ``PYTHONPATH``."""
    short = describe(rev)
    proc = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", short, "src"],
                          capture_output=True, check=False)
    if proc.returncode != 0:
        raise BaselineError(f"git archive {short} src failed: {proc.stderr.decode(errors='replace').strip()}")
    dest = Path(directory) / f"baseline-{short}"
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # Python < 3.10.12 / 3.11.4: the archive comes from our own repository
            tar.extractall(dest)
    src = dest / "src"
    if not (src / "pokerdraw32" / "__init__.py").is_file():
        raise BaselineError(f"{short} has no src/pokerdraw32")
    # byte-compiled, as an installed package is (pip compiles at install time): with
    # PYTHONDONTWRITEBYTECODE set, every import of the tree would compile it from source again
    compileall.compile_dir(src, quiet=1)
    return src


def pure_env(base: dict[str, str], src: Path | None = None) -> dict[str, str]:
    """``base`` with the pure kernels forced and, given ``src``, that tree first on ``PYTHONPATH``."""
    env = dict(base, POKERDRAW32_NO_EXTENSIONS="1")
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [base.get("PYTHONPATH")])])
    return env


def check_origin(module_file: str, src: Path | None) -> None:
    """Raise unless ``module_file`` (a child's ``pokerdraw32.__file__``) comes from ``src`` (None: not from it)."""
    inside = src is not None and Path(module_file).resolve().is_relative_to(src.resolve())
    if src is not None and not inside:
        raise BaselineError(f"the baseline subject imported {module_file}, not the tree in {src}")


def subjects(base: dict[str, str], directory: str | Path, rev: str | None, control: bool = False,
             again: str = "(control)") -> list[tuple[str, dict[str, str], Path | None]]:
    """The subjects of a comparison: ``(label, environment, baseline src or None)`` for the installed
    engine compiled and pure, then, unless ``rev`` is None, the pure engine of revision ``rev``
    (extracted into ``directory``) and, with ``control``, the same again (how far apart two
    identical subjects come out in this run).  A baseline that cannot be had is said and left out."""
    out: list[tuple[str, dict[str, str], Path | None]] = [("compiled", base, None), ("pure", pure_env(base), None)]
    if rev is None:
        return out
    try:
        short = describe(rev)
        src = extract(short, directory)
    except BaselineError as e:
        print(f"(no baseline: {e})")
        return out
    out.append((f"baseline {short} pure", pure_env(base, src), src))
    if control:
        out.append((f"baseline {short} pure {again}", pure_env(base, src), src))
    return out
