"""The one place in :mod:`pokerdraw32.cfr` that picks the compiled walk or its pure twin.

It follows :data:`pokerdraw32._kernels.IMPLEMENTATION`, so ``POKERDRAW32_NO_EXTENSIONS=1`` forces
the pure twin here too and the two builds are never mixed: with the compiled kernels in use,
``pokerdraw32.cfr._mccfr_c`` is imported, and if it cannot be (a build from before issue 26, or
a broken one) the pure twin ``pokerdraw32.cfr._mccfr`` is used and :data:`IMPLEMENTATION` says so
(unless ``POKERDRAW32_REQUIRE_EXTENSIONS`` is set: then the ImportError is raised).  The solver is
not one of :mod:`pokerdraw32._kernels`' all-or-none modules: the engine runs without it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Literal

from .. import _kernels

__all__ = ["IMPLEMENTATION", "mccfr"]

mccfr: ModuleType
IMPLEMENTATION: Literal["cython", "python"]

if _kernels.IMPLEMENTATION == "cython":
    try:
        from . import _mccfr_c as mccfr  # type: ignore[attr-defined,no-redef]

        IMPLEMENTATION = "cython"
    except ImportError:
        if _kernels._env_flag("POKERDRAW32_REQUIRE_EXTENSIONS"):
            raise
        from . import _mccfr as mccfr  # type: ignore[no-redef]

        IMPLEMENTATION = "python"
else:
    from . import _mccfr as mccfr  # type: ignore[no-redef]

    IMPLEMENTATION = "python"
