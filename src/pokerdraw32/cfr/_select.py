"""The one place in :mod:`pokerdraw32.cfr` that picks the compiled walk or its pure twin.

It follows :data:`pokerdraw32._kernels.IMPLEMENTATION`, so ``POKERDRAW32_NO_EXTENSIONS=1`` forces
the pure twin here too and the two builds are never mixed: with the compiled kernels in use,
``pokerdraw32.cfr._mccfr_c`` (and ``_bucketgame_c``, the bucket game's tables and best response)
is imported, and if either cannot be (a build from before issue 26, or
a broken one) the pure twins ``pokerdraw32.cfr._mccfr`` and ``_bucketgame`` are used and :data:`IMPLEMENTATION` says so
(unless ``POKERDRAW32_REQUIRE_EXTENSIONS`` is set: then the ImportError is raised).  The solver is
not one of :mod:`pokerdraw32._kernels`' all-or-none modules: the engine runs without it.
"""

from __future__ import annotations

import importlib

from .. import _kernels

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from . import _bucketgame as bucketgame
    from . import _mccfr as mccfr

__all__ = ["IMPLEMENTATION", "bucketgame", "mccfr"]

IMPLEMENTATION: Literal["cython", "python"] = "python"

if not TYPE_CHECKING:
    mccfr = None
    if _kernels.IMPLEMENTATION == "cython":
        try:
            mccfr = importlib.import_module("pokerdraw32.cfr._mccfr_c")
            bucketgame = importlib.import_module("pokerdraw32.cfr._bucketgame_c")
            IMPLEMENTATION = "cython"
        except ImportError:
            if _kernels._env_flag("POKERDRAW32_REQUIRE_EXTENSIONS"):
                raise
    if IMPLEMENTATION == "python":
        mccfr = importlib.import_module("pokerdraw32.cfr._mccfr")
        bucketgame = importlib.import_module("pokerdraw32.cfr._bucketgame")
