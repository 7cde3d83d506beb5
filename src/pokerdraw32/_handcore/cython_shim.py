"""What :mod:`pokerdraw32._handcore.state` needs of the ``cython`` module when it runs as plain Python.

``_handcore/state.py`` (like ``_codes``, ``_deal``, ``_betting``, ``_state_view``, ``_play``, ``_encode`` and
``_vector``) is written in Cython's pure-Python mode: compiled (as ``pokerdraw32._handcore.state_c``) it
is C; run as plain Python it only asks ``cython.compiled``, which is False here, and imports this
module instead of Cython's own shadow module (which costs several milliseconds of import and is
not installed with the package).  ``with cython.nogil:`` and ``with cython.gil:`` do nothing here,
nor do ``cython.cast`` and the directive decorators (``boundscheck``, ``wraparound``).
"""

import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

compiled = False
gil = nogil = contextlib.nullcontext()


def boundscheck(flag: bool) -> Callable[[F], F]:
    """``@cython.boundscheck(...)``: a compiler directive; plain Python leaves the function as it is."""
    return lambda function: function


wraparound = boundscheck


def cast(type_: object, value: object) -> object:
    """``cython.cast``: plain Python has no C types; the value is itself."""
    return value
