"""What the packaged blueprint costs at first use (issue 26: ``simulate --bots cfr`` pays it once
per process), and the compact format against the solver's own strategy file.

    python bench/cfr_blueprint.py               # 5 repeats, each in fresh processes
    python bench/cfr_blueprint.py --repeat 9

Subjects, each repeat in a fresh process, alternating within the repeat (CPU seconds,
``time.process_time``, robust on a shared machine, and wall seconds, ``time.perf_counter``;
inside the process, after ``import pokerdraw32.cfr.blueprint``):

* ``compact``: ``Strategy.load`` of the packaged ``blueprint_hunl100.cfrz`` (LZMA, byte planes,
  8-bit probabilities; validated: CRC-32, ascending keys, phases, sums of 255);
* ``full``: ``Strategy.load`` of the same strategy saved in the solver's format (zlib, float32
  probabilities, int64 offsets), written to a temporary file first: the baseline;
* ``first_bot``: ``blueprint_bot()`` the first time (the compact read plus the abstraction's card
  tables, :func:`pokerdraw32.cfr.abstraction.card_tables`, cached per process after).

Reported: medians, the ratio compact / full (CPU) taken in each repeat (median), and both file sizes.
Measures, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, sys, time
from pokerdraw32.cfr.blueprint import blueprint_bot, blueprint_path
from pokerdraw32.cfr.solver import Strategy
subject, full = sys.argv[1], sys.argv[2]
t, c = time.perf_counter(), time.process_time()
if subject == "compact":
    Strategy.load(blueprint_path())
elif subject == "full":
    Strategy.load(full)
else:
    blueprint_bot()
print(json.dumps([time.process_time() - c, time.perf_counter() - t]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from pokerdraw32.cfr.blueprint import blueprint_path, blueprint_strategy

    with tempfile.TemporaryDirectory() as tmp:
        full = Path(tmp) / "blueprint.cfr"
        blueprint_strategy().save(full)
        times: dict[str, list[float]] = {"compact": [], "full": [], "first_bot": []}
        walls: dict[str, list[float]] = {"compact": [], "full": [], "first_bot": []}
        ratios = []
        for _ in range(args.repeat):
            for subject in times:
                out = subprocess.run([sys.executable, "-c", CHILD, subject, str(full)], check=True,
                                     capture_output=True, text=True).stdout
                cpu, wall = json.loads(out)
                times[subject].append(cpu)
                walls[subject].append(wall)
            ratios.append(times["compact"][-1] / times["full"][-1])
        sizes = {"compact": blueprint_path().stat().st_size, "full": full.stat().st_size}
    for subject, values in times.items():
        print(f"{subject:10s} median {statistics.median(values):.3f} CPU s, {statistics.median(walls[subject]):.3f} "
              f"wall s  (CPU runs: {', '.join(f'{v:.3f}' for v in values)})")
    print(f"compact / full load CPU time: median ratio {statistics.median(ratios):.2f}")
    print(f"file sizes: compact {sizes['compact']:,} bytes, full {sizes['full']:,} bytes "
          f"({sizes['full'] / sizes['compact']:.1f}x)")


if __name__ == "__main__":
    main()
