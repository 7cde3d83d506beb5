"""bench/evaluate.py, tiny sizes: its C loops (the bars of issue 15) give exactly the engine's values, and
its small-batch script runs.

The C loops are compiled and run on 500 hands: the C program checks the perfect-hash, two-halves and
colex layouts on all 201,376 hands against ``evaluate_many`` before timing, and the bench checks the
sums of every loop's timed output (it raises :class:`Mismatch` otherwise).  Skipped without a C
compiler, or when ``bench/`` is not beside the tests (the sdist ships no ``bench/``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path
from types import ModuleType

import pytest

_BENCH = Path(__file__).resolve().parent.parent / "bench" / "evaluate.py"
if not _BENCH.is_file():
    pytest.skip(f"{_BENCH} is not here", allow_module_level=True)


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_evaluate", _BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None,
                    reason="no C compiler")
def test_c_loops_give_the_engines_values(tmp_path: Path) -> None:
    bench = _load()
    out = bench.c_loops(500, 1, str(tmp_path))
    assert set(out) == set(bench.C_LOOPS)
    for r in out.values():
        assert r["rate"] > 0
    assert out[bench.PHASH_BAR]["max_bucket"] <= 13 and out[bench.PHASH_BAR]["table_bytes"] == 1_114_112


def test_two_halves_layout_is_a_bijection() -> None:
    import pokerdraw32._kernels as k

    tables = _load().build_tables(k)  # raises unless f & 0xFFFFF maps the 201,376 hands onto 0..201375
    assert len(tables["values"]) == 2520 and len(tables["index16"]) == 201_376


def test_small_batches_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load()
    result = bench.main(["--only", "small", "--small-hands", "128", "--small-repeat", "1"])
    assert set(result["small"]["median_ns"]) == {"1", "2", "4", "8", "16", "64"}
    assert "N = 8" in capsys.readouterr().out
