"""The one place that chooses the kernel implementation.

The compiled ``pokerdraw32._core`` is used when it is importable; otherwise its pure-Python
twin ``pokerdraw32._core_py``. Both give the same results (the tests check it), so the choice
changes speed, never behaviour. The rest of the package imports kernels from here only.

Environment variables, read once at import (``""``, ``0``, ``false``, ``no``, ``off`` and
unset mean off, in any case):

``POKERDRAW32_NO_EXTENSIONS``
    Use the pure twin even if the compiled module is installed (also forced off CPython).
``POKERDRAW32_REQUIRE_EXTENSIONS`` (or ``CIBUILDWHEEL=1``)
    If the compiled module fails to import, raise the ImportError instead of falling back.

:data:`IMPLEMENTATION` says which one is in use (``pokerdraw32.IMPLEMENTATION`` too), so a
server can check at startup: ``assert pokerdraw32.IMPLEMENTATION == "cython"``.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 10 ms) at run time
if TYPE_CHECKING:
    from typing import Literal

__all__ = [
    "IMPLEMENTATION",
    "NO_EXTENSIONS",
    "Rng",
    "evaluate_codes",
    "evaluate_mask",
    "evaluate_text",
    "split_pots",
]


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


NO_EXTENSIONS: bool = _env_flag("POKERDRAW32_NO_EXTENSIONS") or sys.implementation.name != "cpython"
"""True when the pure twin is forced (environment variable, or not CPython)."""

if _env_flag("POKERDRAW32_NO_EXTENSIONS") and _env_flag("POKERDRAW32_REQUIRE_EXTENSIONS"):
    raise ImportError("POKERDRAW32_NO_EXTENSIONS and POKERDRAW32_REQUIRE_EXTENSIONS are both set: unset one")

IMPLEMENTATION: Literal["cython", "python"]
"""Which kernels are in use: ``"cython"`` (``pokerdraw32._core``) or ``"python"``."""

if TYPE_CHECKING or NO_EXTENSIONS:
    from ._core_py import Rng, evaluate_codes, evaluate_mask, evaluate_text, split_pots

    IMPLEMENTATION = "python"
else:
    try:
        from ._core import Rng, evaluate_codes, evaluate_mask, evaluate_text, split_pots
        from ._encode_c import OBS_SIZE as _compiled_encoding  # noqa: F401
        from ._play_c import Session as _compiled_session  # noqa: F401 -- built with _core: all or none
        from ._state_view_c import HandState as _compiled_hand_state  # noqa: F401
        from ._vector_c import VectorCore as _compiled_vector  # noqa: F401

        IMPLEMENTATION = "cython"
    except ImportError as exc:
        if _env_flag("POKERDRAW32_REQUIRE_EXTENSIONS") or os.environ.get("CIBUILDWHEEL") == "1":
            why = "POKERDRAW32_REQUIRE_EXTENSIONS" if _env_flag("POKERDRAW32_REQUIRE_EXTENSIONS") else "CIBUILDWHEEL=1"
            raise ImportError(f"{why} is set, but the compiled kernels pokerdraw32._core cannot be imported "
                              f"({exc}); install pokerdraw32 with a C compiler (without POKERDRAW32_NO_EXTENSIONS), "
                              f"or unset {why.split('=')[0]} to use the pure-Python kernels") from exc
        from ._core_py import Rng, evaluate_codes, evaluate_mask, evaluate_text, split_pots

        IMPLEMENTATION = "python"

# Kernel 4, exact draw odds (R6.1): from the module chosen above.
__all__ += ["draw_outcomes", "draw_summary", "strength_score"]

if TYPE_CHECKING or IMPLEMENTATION == "python":
    from ._core_py import draw_outcomes, draw_summary, strength_score
else:
    from ._core import draw_outcomes, draw_summary, strength_score

# Kernel 5, batches (evaluate_many R2, deal_many R11): from the module chosen above.
__all__ += ["deal_many", "evaluate_many"]

if TYPE_CHECKING or IMPLEMENTATION == "python":
    from ._core_py import deal_many, evaluate_many
else:
    from ._core import deal_many, evaluate_many

# Kernel 6, Monte Carlo equity (R6.1, R6.2, R2, R9.4): from the module chosen above.
__all__ += ["equity_trials", "rule_discard"]

if TYPE_CHECKING or IMPLEMENTATION == "python":
    from ._core_py import equity_trials, rule_discard
else:
    from ._core import equity_trials, rule_discard

# The hand state machine's core (issue 11): pokerdraw32._state compiled as pokerdraw32._state_c, or the
# same file as plain Python, following the kernels chosen above.
__all__ += ["ACTION_CODES", "HandState", "blind_seats", "checked_shuffle", "encode", "play", "vector"]

if TYPE_CHECKING or IMPLEMENTATION == "python":
    from . import _encode as encode  # the research encoding (issue 12): actions, masks, observations
    from . import _play as play
    from . import _vector as vector  # many tables stepped together (issue 12: DrawVectorEnv)
    from ._state import ACTION_CODES, blind_seats, checked_shuffle
    from ._state_view import HandState
else:
    from . import _encode_c as encode  # the research encoding (issue 12), on the compiled core
    from . import _play_c as play  # the built-in bots' policies and whole sessions (issue 11)
    from . import _vector_c as vector  # many tables stepped together without the GIL (issue 12)
    from ._state_c import ACTION_CODES, blind_seats, checked_shuffle
    from ._state_view_c import HandState  # the core with its read-only state and copies
