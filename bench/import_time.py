"""Cold ``import pokerdraw32`` time, in fresh processes: installed (compiled, pure) and a baseline revision.

    python bench/import_time.py                  # median of 31 imports a subject
    python bench/import_time.py --runs 51        # more
    python bench/import_time.py --breakdown 12   # + the 12 slowest modules of one -X importtime run each
    python bench/import_time.py --baseline REV   # another baseline revision (--no-baseline: none)

Each run is a new interpreter, pinned to CPU 1, that times ``import pokerdraw32`` with
``time.perf_counter()`` around it (interpreter start-up is not counted; the standard library
modules pokerdraw32 imports are).  "Cold" means a fresh process, not a cold disk cache: every
subject is imported once first, untimed, so its ``.pyc`` files exist, as they do in an installed
package (``PYTHONDONTWRITEBYTECODE`` is unset for these processes; the baseline tree is
byte-compiled when it is extracted).  The runs are interleaved
(one run of every subject per round, each round starting with the next subject), and the
figures are the median and the fastest run.  The target's ratio is judged on the fastest runs (a
busy machine only ever slows an import down), with the median's ratio beside it; a control, the
baseline timed a second time (``--no-control``: none), measures the noise of the run; when that
exceeds 2.5%, a ratio within twice it of 1.00x, either way, is reported as "unclear": the run
cannot tell.

Subjects: compiled, pure (``POKERDRAW32_NO_EXTENSIONS=1``) and the baseline revision's pure engine
(default ``fef819d``, main before the compiled hand of issue 11; see bench/baseline.py).  The
baseline is pure only (it is not built), so the like-for-like ratio of issue 11's target ("import
no slower than today") is pure / baseline pure; compiled / baseline pure is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline
import targets

CHILD = ("import time; t = time.perf_counter(); import pokerdraw32; t = time.perf_counter() - t; import json; "
         "print(json.dumps({'seconds': t, 'name': pokerdraw32.IMPLEMENTATION, 'file': pokerdraw32.__file__}))")
AGAIN = "(control)"
_IMPORTTIME = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")


def pinned(cmd: list[str]) -> list[str]:
    if sys.platform.startswith("linux") and subprocess.run(["which", "taskset"], capture_output=True,
                                                           check=False).returncode == 0:
        return ["taskset", "-c", "1", *cmd]
    return cmd


def once(env: dict[str, str]) -> dict[str, object]:
    proc = subprocess.run(pinned([sys.executable, "-c", CHILD]), env=env, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def breakdown(env: dict[str, str], top: int) -> list[tuple[int, int, str]]:
    """The ``top`` modules of one ``-X importtime`` run by their own time: (self us, cumulative us, name)."""
    proc = subprocess.run(pinned([sys.executable, "-X", "importtime", "-c", "import pokerdraw32"]), env=env,
                          capture_output=True, text=True, check=True)
    rows = []
    for line in proc.stderr.splitlines():
        m = _IMPORTTIME.match(line)
        if m:
            rows.append((int(m[1]), int(m[2]), m[4]))
    total = [r for r in rows if r[2] == "pokerdraw32"]
    return total + sorted((r for r in rows if r[2] != "pokerdraw32"), reverse=True)[:top]


def median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=31, help="timed imports a subject (default 31)")
    ap.add_argument("--breakdown", type=int, default=0, metavar="N",
                    help="print the N modules with the largest own time of one -X importtime run a subject")
    ap.add_argument("--baseline", metavar="REV", default=baseline.DEFAULT_REV,
                    help=f"the revision whose pure engine is the baseline (default {baseline.DEFAULT_REV})")
    ap.add_argument("--no-baseline", action="store_true", help="no baseline revision")
    ap.add_argument("--no-control", action="store_true",
                    help="no control (the baseline timed twice, to measure the noise of the run)")
    args = ap.parse_args(argv)
    # PYTHONDONTWRITEBYTECODE off: the untimed first import writes the .pyc files an installed
    # package has; with it on, an editable install would compile its sources at every import
    base = {k: v for k, v in os.environ.items() if k not in ("POKERDRAW32_NO_EXTENSIONS", "PYTHONDONTWRITEBYTECODE")}
    print(targets.machine())
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        subjects = baseline.subjects(base, tmp, None if args.no_baseline else args.baseline,
                                     control=not args.no_control, again=AGAIN)
        labels: list[str] = []
        for i, (label, env, src) in enumerate(subjects):
            first = once(env)  # untimed: writes the .pyc files (the baseline tree has none)
            if src is not None:
                baseline.check_origin(str(first["file"]), src)
            if label == "compiled" and first["name"] != "cython":
                label = f"compiled (not built: {first['name']})"
            labels.append(label)
            subjects[i] = (label, env, src)
        times: dict[str, list[float]] = {label: [] for label in labels}
        for r in range(args.runs):
            k = r % len(subjects)  # each round starts with the next subject
            for label, env, _src in subjects[k:] + subjects[:k]:
                times[label].append(float(once(env)["seconds"]))  # type: ignore[arg-type]
        print(f"import pokerdraw32, fresh processes ({args.runs} interleaved runs a subject)")
        for label in labels:
            med, fast = median(times[label]), min(times[label])
            results[label] = {"median_ms": med * 1e3, "fastest_ms": fast * 1e3}
            print(f"  {label:<34} {med * 1e3:>7.1f} ms median {fast * 1e3:>7.1f} ms fastest")
        base_label = next((k for k in labels if k.startswith("baseline") and not k.endswith(AGAIN)), None)
        control = next((k for k in labels if k.endswith(AGAIN)), None)
        noise = None
        if base_label is not None and control is not None:
            cfast = min(times[control]) / min(times[base_label])
            cmed = median(times[control]) / median(times[base_label])
            rounds = sorted(p / q for p, q in zip(times[control], times[base_label], strict=True))
            qlo, qhi = rounds[len(rounds) // 4], rounds[(3 * len(rounds)) // 4]
            noise = max(abs(1 - cfast), abs(1 - cmed), 1 - qlo, qhi - 1)
            print(f"  noise: the baseline against itself: {cfast:.2f}x fastest (median {cmed:.2f}x, per-round "
                  f"interquartile {qlo:.2f}-{qhi:.2f})")
        if base_label is not None:
            b = median(times[base_label])
            for label in labels:
                if label not in (base_label, control):
                    r = median(times[label]) / b
                    results[f"{label} / baseline"] = r
                    if label != "pure":
                        print(f"  {label} / {base_label}: {r:.2f}x the time (median)")
            if "pure" in labels:
                r = median(times["pure"]) / b
                fast = min(times["pure"]) / min(times[base_label])
                results["pure / baseline, fastest"] = fast
                per_round = sorted(p / q for p, q in zip(times["pure"], times[base_label], strict=True))
                lo, hi = per_round[len(per_round) // 4], per_round[(3 * len(per_round)) // 4]
                print(targets.line(f"import time, pure / {base_label}",
                                   f"{fast:.2f}x fastest (median {r:.2f}x, per-round interquartile {lo:.2f}-{hi:.2f})",
                                   f"<= {targets.NO_SLOWER:.2f}x",
                                   targets.verdict(fast, targets.NO_SLOWER, higher=False,
                                                   tolerance=targets.TOLERANCE, noise=noise)))
        if args.breakdown:
            for label, env, _src in subjects:
                if label.endswith(AGAIN):
                    continue
                print(f"  {label}: -X importtime: the package, then the slowest modules by own time "
                      "(own us, cumulative us, module)")
                for own, cum, name in breakdown(env, args.breakdown):
                    print(f"    {own:>8,} {cum:>9,}  {name}")
    return results


if __name__ == "__main__":
    main()
