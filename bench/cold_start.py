"""Cold start: the first ``evaluate()`` and the first ``draw_odds()`` in a fresh process, import included,
against today's engine built compiled (issue 15).

    python bench/cold_start.py                  # 21 interleaved runs a subject, baseline e2e41af compiled
    python bench/cold_start.py --runs 41        # more runs
    python bench/cold_start.py --baseline REV   # another "today" (--no-baseline: none)
    python bench/cold_start.py --no-pure        # without the pure-mode information
    python bench/cold_start.py --cache-dir DIR  # where the baseline is built (default: the temp dir)

Each run is a new interpreter, pinned to CPU 1 (``taskset``), started in an empty directory, that
times with ``time.perf_counter()`` from before ``import pokerdraw32`` to after the call returns
(interpreter start-up is not counted; the standard library modules pokerdraw32 imports are):

* ``evaluate``: ``import pokerdraw32; pokerdraw32.evaluate("Ah Kh Qh Jh Th")``;
* ``draw_odds``: ``import pokerdraw32; pokerdraw32.draw_odds("Ah Kh Qh 8d 7c", discards=["8d 7c"])``
  (a hand and the discard of its lowest 2 cards: the 351 replacement pairs counted);
* ``import``: ``import pokerdraw32`` alone (information: the share of the import in the two above).

Subjects: the engine this script imports (the installed package, or ``PYTHONPATH``) compiled; the
baseline, "today" (default ``e2e41af``, :data:`targets.COLD_START_REV`), compiled; the baseline a
second time, the control.  The baseline is built by this script: ``git archive`` of the revision's
tree into ``<temp dir>/pokerdraw32-bench-<rev>-<hash of the interpreter>``, then ``python setup.py build_ext --inplace``
there with this Python (when that fails, e.g. because this Python's setuptools is older than
pyproject.toml's build requirement, ``python -m pip wheel --no-deps`` builds it in pip's isolated
build environment and the wheel's compiled modules are put into the tree; how, and how long it
took, are printed; a later run reuses the build).  Without the
repository's history or a C compiler the baseline is skipped and the script says why.  Each
subject runs once first, untimed: it writes the ``.pyc`` files (as an installed package has them;
``PYTHONDONTWRITEBYTECODE`` is unset for these processes), and it is checked: the baseline's
``pokerdraw32.__file__`` must be inside the built tree and the engine's outside it, both must be
compiled, and every subject of a call must return the same result.

The runs are interleaved: one run of every subject per round, each round starting with the next
subject.  Printed: the median and the fastest run of each subject (and, as information, the median
of the import part of the run and of the process's CPU time over the same span, which a busy
machine disturbs less), and new / baseline as ratios of the medians and of the fastest runs.  Targets
(issue 15): the first ``evaluate()`` and the first ``draw_odds()``, new / baseline <=
:data:`targets.COLD_START_OF_TODAY`, judged on the medians, the fastest beside them.  The control
(baseline / baseline, per call) measures the run's noise: when that is large, a ratio within
twice it of the target is reported "unclear" (:func:`targets.verdict`).  The same in pure mode
(``POKERDRAW32_NO_EXTENSIONS=1``, no control) is information, unless ``--no-pure``.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import importlib.machinery
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline
import targets
from evaluate import control_noise
from import_time import median, pinned

CALLS = {  # kind: (the timed call, the result the child reports, untimed)
    "evaluate": ('r = pokerdraw32.evaluate("Ah Kh Qh Jh Th")', "r.value"),
    "draw_odds": ('r = pokerdraw32.draw_odds("Ah Kh Qh 8d 7c", discards=["8d 7c"])',
                  "[r.best.combinations, r.best.score, list(r.best.counts)]"),
    "import": ("r = None", "None"),
}
WHAT = {"evaluate": 'first evaluate("Ah Kh Qh Jh Th"), import included',
        "draw_odds": 'first draw_odds("Ah Kh Qh 8d 7c", discards=["8d 7c"]), import included',
        "import": "import pokerdraw32 alone (information)"}
CHILD = """import time
c0 = time.process_time()
t0 = time.perf_counter()
import pokerdraw32
t1 = time.perf_counter()
{call}
t2 = time.perf_counter()
c2 = time.process_time()
import json
print(json.dumps({{"total": t2 - t0, "import": t1 - t0, "cpu": c2 - c0, "file": pokerdraw32.__file__,
                  "impl": pokerdraw32.IMPLEMENTATION, "result": {result}}}))
"""
AGAIN = "(control)"


class Subject:
    def __init__(self, kind: str, label: str, env: dict[str, str], src: Path | None, mode: str,
                 control: bool = False) -> None:
        self.kind, self.label, self.env, self.src, self.mode, self.control = kind, label, env, src, mode, control
        self.code = CHILD.format(call=CALLS[kind][0], result=CALLS[kind][1])
        self.total: list[float] = []
        self.imports: list[float] = []
        self.cpu: list[float] = []

    @property
    def name(self) -> str:
        return f"{self.label} ({self.mode}){' ' + AGAIN if self.control else ''}"

    def once(self, cwd: str) -> dict[str, object]:
        proc = subprocess.run(pinned([sys.executable, "-c", self.code]), env=self.env, cwd=cwd,
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed"
            raise RuntimeError(f"{self.kind}, {self.label}: {last}")
        out: dict[str, object] = json.loads(proc.stdout)
        return out


def build_baseline(rev: str, cache_dir: Path) -> tuple[Path, str]:
    """Revision ``rev`` built compiled under ``cache_dir`` (or the build found there): its ``src/`` and a
    note for the report.  :class:`baseline.BaselineError` when it cannot be had (no git, no such
    revision, no C compiler, a failed build)."""
    short = baseline.describe(rev)
    tag = f"{sys.version} {sysconfig.get_config_var('EXT_SUFFIX')} {sys.executable}\n"
    # one build an interpreter: another venv's run neither reuses nor replaces this one's
    dest = cache_dir / f"pokerdraw32-bench-{short}-{hashlib.sha256(tag.encode()).hexdigest()[:10]}"
    marker = dest / ".pokerdraw32-bench-built"
    if marker.is_file() and marker.read_text() == tag:
        return dest / "src", f"built earlier in {dest} (reused; delete it to rebuild)"
    cc = sysconfig.get_config_var("CC") or "cc"
    if not (shutil.which(cc.split()[0]) or shutil.which(os.environ.get("CC", "cc"))):
        raise baseline.BaselineError(f"no C compiler ({cc}) to build {short}")
    archive = subprocess.run(["git", "-C", str(baseline.REPO), "archive", "--format=tar", short],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise baseline.BaselineError(f"git archive {short} failed: "
                                     f"{archive.stderr.decode(errors='replace').strip()}")
    cache_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=dest.name + ".building-", dir=cache_dir))
    try:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(work, filter="data")
            else:  # Python < 3.10.12 / 3.11.4: the archive comes from our own repository
                tar.extractall(work)
        env = {k: v for k, v in os.environ.items() if k != "POKERDRAW32_NO_EXTENSIONS"}
        env["POKERDRAW32_REQUIRE_EXTENSIONS"] = "1"   # a build that silently went pure is no baseline
        print(f"building the baseline {short} (git archive into {dest}; python setup.py build_ext --inplace) ...",
              flush=True)
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work, env=env,
                              capture_output=True, text=True, check=False)
        how = "python setup.py build_ext --inplace"
        if proc.returncode != 0:
            # e.g. this Python's setuptools is older than the build requirement of pyproject.toml (>= 77 for
            # its license metadata) or absent: build as pip does, in an isolated environment with exactly
            # those requirements, and put the wheel's compiled modules into the tree
            why = _why(proc)
            print(f"  {how} failed ({why}); building a wheel with pip instead (pyproject.toml's build "
                  "requirements, in pip's isolated build environment) ...", flush=True)
            wheels = work / "build" / "bench-wheel"
            proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(wheels),
                                   str(work)], env=env, capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                raise baseline.BaselineError(f"building {short} failed: {how}: {why}; pip wheel: {_why(proc)}")
            extension_suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
            put = 0
            for wheel in wheels.glob("pokerdraw32-*.whl"):
                with zipfile.ZipFile(wheel) as z:
                    for name in z.namelist():
                        if name.startswith("pokerdraw32/") and name.endswith(extension_suffixes):
                            (work / "src" / name).write_bytes(z.read(name))
                            put += 1
            if not put:
                raise baseline.BaselineError(f"building {short}: pip's wheel has no compiled module")
            how = f"pip wheel, its compiled modules put into src/ ({how} failed: {why})"
        seconds = time.perf_counter() - t
        compileall.compile_dir(work / "src", quiet=1)
        if dest.exists():
            shutil.rmtree(dest)
        work.rename(dest)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    marker.write_text(tag)
    return dest / "src", f"built in {seconds:.1f} s into {dest} by {how}"


def _why(proc: subprocess.CompletedProcess[str]) -> str:
    """The first line of a failed command's output (stderr first) that starts with an error, else its last line."""
    lines = [x.strip() for x in (proc.stderr + "\n" + proc.stdout).splitlines() if x.strip()]
    said = [x for x in lines if re.match(r"([\w.]+ )?\w*error:", x, re.IGNORECASE)]  # "error: ...", "ValueError: ..."
    return said[0] if said else lines[-1] if lines else f"exit {proc.returncode}"


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=21, help="timed runs a subject (default 21)")
    ap.add_argument("--baseline", metavar="REV", default=targets.COLD_START_REV,
                    help=f"today's revision, built compiled (default {targets.COLD_START_REV})")
    ap.add_argument("--no-baseline", action="store_true", help="no baseline: the engine's figures only")
    ap.add_argument("--no-pure", action="store_true", help="without the pure-mode subjects (information)")
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()),
                    help="where the baseline is built and kept (default: the temp dir)")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)
    print("command:", shlex.join([sys.executable, *sys.argv] if argv is None else [sys.executable, __file__, *argv]))
    print(targets.machine())
    # PYTHONDONTWRITEBYTECODE off: the untimed first run writes the .pyc files an installed package has
    base = {k: v for k, v in os.environ.items() if k not in ("POKERDRAW32_NO_EXTENSIONS", "PYTHONDONTWRITEBYTECODE")}
    pure_base = {k: v for k, v in base.items() if k != "POKERDRAW32_REQUIRE_EXTENSIONS"}
    pure_base["POKERDRAW32_NO_EXTENSIONS"] = "1"
    src: Path | None = None
    base_name = ""
    if not args.no_baseline:
        try:
            src, note = build_baseline(args.baseline, args.cache_dir)
            base_name = f"baseline {baseline.describe(args.baseline)}"
            print(f"baseline: {note}")
        except baseline.BaselineError as e:
            print(f"(no baseline: {e})")

    def with_src(env: dict[str, str]) -> dict[str, str]:
        assert src is not None
        return dict(env, PYTHONPATH=os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])]))

    subjects: list[Subject] = []
    for kind in CALLS:
        subjects.append(Subject(kind, "new", base, None, "compiled"))
        if src is not None:
            subjects.append(Subject(kind, base_name, with_src(base), src, "compiled"))
            subjects.append(Subject(kind, base_name, with_src(base), src, "compiled", control=True))
        if not args.no_pure:
            subjects.append(Subject(kind, "new", pure_base, None, "pure"))
            if src is not None:
                subjects.append(Subject(kind, base_name, with_src(pure_base), src, "pure"))
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as cwd:
        expected: dict[str, object] = {}
        for s in subjects:  # untimed: writes the .pyc files; checks where each subject comes from
            first = s.once(cwd)
            if s.src is not None:
                baseline.check_origin(str(first["file"]), s.src)
            elif src is not None and Path(str(first["file"])).resolve().is_relative_to(src.resolve()):
                raise baseline.BaselineError(f"the new engine's subject imported {first['file']}, the baseline's tree")
            want = "cython" if s.mode == "compiled" else "python"
            if first["impl"] != want:
                if s.src is not None:
                    raise baseline.BaselineError(f"{s.label} ({s.mode}) runs {first['impl']} kernels, not {want}")
                s.label = f"new (not built: {first['impl']})"
            if expected.setdefault(s.kind, first["result"]) != first["result"]:
                raise RuntimeError(f"{s.kind}: {s.label} ({s.mode}) returned {first['result']}, "
                                   f"another subject {expected[s.kind]}")
        for r in range(args.runs):
            k = r % len(subjects)  # each round starts with the next subject
            for s in subjects[k:] + subjects[:k]:
                got = s.once(cwd)
                s.total.append(float(got["total"]))  # type: ignore[arg-type]
                s.imports.append(float(got["import"]))  # type: ignore[arg-type]
                s.cpu.append(float(got["cpu"]))  # type: ignore[arg-type]
    print(f"cold start, fresh processes ({args.runs} interleaved runs a subject); ms: the median run, the fastest "
          "run, the median of the import part, and the median CPU time of the process over the same span")
    for kind in CALLS:
        print(f"  {WHAT[kind]}:")
        group = [s for s in subjects if s.kind == kind]
        width = max(len(s.name) for s in group)
        for s in group:
            results[f"{kind}: {s.name}"] = {"median_ms": median(s.total) * 1e3, "fastest_ms": min(s.total) * 1e3,
                                            "import_median_ms": median(s.imports) * 1e3,
                                            "cpu_median_ms": median(s.cpu) * 1e3}
            print(f"    {s.name:<{width}}  {median(s.total) * 1e3:>7.1f} median {min(s.total) * 1e3:>7.1f} fastest  "
                  f"(import {median(s.imports) * 1e3:5.1f}; CPU {median(s.cpu) * 1e3:5.1f})")
        if src is None:
            continue
        for mode in ("compiled", "pure"):
            new = next((s for s in group if s.src is None and s.mode == mode), None)
            old = next((s for s in group if s.src is not None and s.mode == mode and not s.control), None)
            if new is None or old is None:
                continue
            r_med, r_fast = median(new.total) / median(old.total), min(new.total) / min(old.total)
            r_cpu = median(new.cpu) / median(old.cpu)
            results[f"{kind}: {mode} new / baseline"] = {"median": r_med, "fastest": r_fast, "cpu_median": r_cpu}
            figure = f"{r_med:.2f}x the time (median; fastest {r_fast:.2f}x; CPU time {r_cpu:.2f}x)"
            if mode == "pure":
                print(f"    information, pure: new / {base_name}: {figure}")
                continue
            control = next(s for s in group if s.control)
            noise = control_noise(control.total, old.total)
            print(f"    noise: {base_name} against itself: {median(control.total) / median(old.total):.2f}x median, "
                  f"{min(control.total) / min(old.total):.2f}x fastest: ±{noise:.0%}")
            if kind == "import":
                print(f"    information: new / {base_name}: {figure}")
            else:
                print(targets.line(f"{WHAT[kind]}, new / {base_name} compiled", figure,
                                   f"<= {targets.COLD_START_OF_TODAY:.2f}x",
                                   targets.verdict(r_med, targets.COLD_START_OF_TODAY, higher=False,
                                                   tolerance=targets.TOLERANCE, noise=noise)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return results


if __name__ == "__main__":
    main()
