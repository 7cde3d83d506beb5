"""Write src/pokerdraw32/_hand_values.zlib, the value table the pure-Python kernels load.

Run from the repository root: ``python tools/make_hand_values.py``. The content comes from
the sort-and-count evaluator ``pokerdraw32._core_py._evaluate``; tests/test_kernels_batch.py
checks that the shipped file decompresses to exactly what this computes.
"""

import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from pokerdraw32 import _core_py

target = ROOT / "src" / "pokerdraw32" / _core_py._HAND_VALUES_FILE
blob = _core_py._hand_values_blob()
target.write_bytes(zlib.compress(blob, 9))
print(f"{target}: {len(blob)} bytes, {target.stat().st_size} compressed")
