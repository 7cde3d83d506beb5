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

The compiled modules are built together and used all or none: ``_core`` with the hand's core
(the package ``pokerdraw32._handcore``) ``codes_c``, ``deal_c``, ``betting_c`` and ``state_c``, and
``state_view_c``, ``play_c``, ``encode_c`` and ``vector_c``. Only ``_core`` is imported here; the others are found (not
imported: ``import pokerdraw32`` would pay for the hand's dataclasses and enums) and imported on
first use of the names that come from them (:data:`HandState`, :data:`encode`, :data:`play`,
:data:`vector`, ...; pure-Python twins alike). If
one of them is not installed, the pure twins are used everywhere (or the ImportError above is
raised). If one is installed but fails when first used (a broken or mismatched build), that use
raises an ImportError naming it: the compiled ``_core`` is in use by then, and the two builds are
never mixed; reinstall pokerdraw32, or set ``POKERDRAW32_NO_EXTENSIONS=1``.

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

_COMPILED = tuple(f"_handcore.{m}_c" for m in ("codes", "deal", "betting", "state", "state_view", "play", "encode",
                                                  "vector"))
"""The compiled modules built with ``_core`` (besides it), used all or none with it."""


def _installed(module: str) -> bool:
    """Whether ``pokerdraw32.<module>`` can be found, without importing it (the import system's own
    search: the finders of ``sys.meta_path`` over its package's ``__path__``; the package, such as
    ``pokerdraw32._handcore``, whose ``__init__`` is a docstring, is imported)."""
    name = f"pokerdraw32.{module}"
    if name in sys.modules:
        return sys.modules[name] is not None  # None: an import made to fail (tests do)
    package = name.rpartition(".")[0]
    if package not in sys.modules:
        __import__(package)
    path = sys.modules[package].__path__
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        if find_spec is not None and find_spec(name, path) is not None:
            return True
    return False


IMPLEMENTATION: Literal["cython", "python"]
"""Which kernels are in use: ``"cython"`` (``pokerdraw32._core``) or ``"python"``."""

if TYPE_CHECKING or NO_EXTENSIONS:
    from ._core_py import Rng, evaluate_codes, evaluate_mask, evaluate_text, split_pots

    IMPLEMENTATION = "python"
else:
    _missing: list[str] = []
    try:
        from ._core import Rng, evaluate_codes, evaluate_mask, evaluate_text, split_pots

        _missing = [f"pokerdraw32.{module}" for module in _COMPILED if not _installed(module)]
        if _missing:  # built with _core: all or none
            raise ImportError(f"not installed: {', '.join(_missing)}, built with pokerdraw32._core (all or none)",
                              name=_missing[0])

        IMPLEMENTATION = "cython"
    except ImportError as exc:
        if _env_flag("POKERDRAW32_REQUIRE_EXTENSIONS") or os.environ.get("CIBUILDWHEEL") == "1":
            why = "POKERDRAW32_REQUIRE_EXTENSIONS" if _env_flag("POKERDRAW32_REQUIRE_EXTENSIONS") else "CIBUILDWHEEL=1"
            which = f"module {_missing[0]}" if _missing else "kernels pokerdraw32._core"
            raise ImportError(f"{why} is set, but the compiled {which} cannot be imported "
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

# The hand state machine's core (issue 11): pokerdraw32._handcore.codes, deal, betting and state compiled as
# pokerdraw32._handcore.codes_c, deal_c, betting_c and state_c, or the same files as plain Python, following the
# kernels chosen above; imported on first use (__getattr__).
__all__ += ["ACTION_CODES", "HandState", "blind_seats", "checked_arguments", "checked_shuffle", "encode", "play",
            "vector"]

if TYPE_CHECKING:
    from ._handcore import (
        encode,  # the research encoding (issue 12): actions, masks, observations
        play,  # the built-in bots' policies and whole sessions (issue 11)
        vector,  # many tables stepped together (issue 12: DrawVectorEnv)
    )
    from ._handcore.codes import ACTION_CODES, blind_seats, checked_arguments, checked_shuffle
    from ._handcore.state_view import HandState  # the core with its read-only state and copies

_LAZY = {  # name: (compiled module, its pure twin, attribute; None: the module itself)
    "ACTION_CODES": ("_handcore.codes_c", "_handcore.codes", "ACTION_CODES"),
    "blind_seats": ("_handcore.codes_c", "_handcore.codes", "blind_seats"),
    "checked_arguments": ("_handcore.codes_c", "_handcore.codes", "checked_arguments"),
    "checked_shuffle": ("_handcore.codes_c", "_handcore.codes", "checked_shuffle"),
    "HandState": ("_handcore.state_view_c", "_handcore.state_view", "HandState"),
    "encode": ("_handcore.encode_c", "_handcore.encode", None),
    "play": ("_handcore.play_c", "_handcore.play", None),
    "vector": ("_handcore.vector_c", "_handcore.vector", None),
}


def __getattr__(name: str) -> object:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    compiled, pure, attribute = where
    module_name = f"pokerdraw32.{compiled if IMPLEMENTATION == 'cython' else pure}"
    try:
        __import__(module_name)
    except ImportError as exc:
        if IMPLEMENTATION == "python":
            raise
        raise ImportError(f"the compiled module {module_name} is installed but cannot be imported ({exc}); "
                          "the compiled kernels pokerdraw32._core are in use, and the compiled and pure-Python "
                          "builds are never mixed: reinstall pokerdraw32, or set POKERDRAW32_NO_EXTENSIONS=1 "
                          "to use the pure-Python engine", name=module_name) from exc
    module = sys.modules[module_name]
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
