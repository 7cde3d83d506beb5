"""The pure kernels' shared constants and argument checks.

Twin of the part of ``src/_core.pyx`` before its includes ("shared argument checks"):
``_is_int``, ``_plain``, ``_tuple_of``, ``_check_deck_mask``, ``_check_amount``,
``_seat_mask`` raise the same exception types with the same messages as the compiled ones.
Every other part of :mod:`pokerdraw32._core_py` imports them from here.
"""

from __future__ import annotations

import operator
from typing import Any

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError

_U64 = 0xFFFFFFFFFFFFFFFF
_DECK = 0xFFFFFFFF
_SPADES = 0x11111111  # the bit of every rank in suit 0; shift left by the suit index
_MAX_AMOUNT = (1 << 53) - 1


# --------------------------------------------------------------------------------------
# shared argument checks (the compiled twin raises the same types with the same messages)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(value: Any) -> int:
    """An int (``_is_int``) as an exact int: an ``int`` subclass whose comparisons or
    ``__int__`` lie is read by its value, as the compiled twin's C conversions read it."""
    return operator.index(value)


def _tuple_of(value: object, what: str) -> tuple[Any, ...]:
    try:
        return tuple(value)  # type: ignore[arg-type]
    except TypeError:
        raise PokerDraw32TypeError(f"{what} must be a sequence, not {type(value).__name__}") from None


def _check_deck_mask(mask: object, what: str) -> int:
    if not _is_int(mask):
        raise PokerDraw32TypeError(f"{what} must be an int, not {type(mask).__name__}")
    mask = _plain(mask)
    if mask < 0 or mask > _DECK:
        raise PokerDraw32ValueError(f"{what} {mask:#x} has bits outside the 32-card deck")
    return mask


def _check_amount(value: object, what: str) -> int:
    if not _is_int(value):
        raise PokerDraw32TypeError(f"{what} must be an int, not {type(value).__name__}")
    value = _plain(value)
    if value < 0:
        raise PokerDraw32ValueError(f"{what} is negative: {value}")
    if value > _MAX_AMOUNT:
        raise PokerDraw32ValueError(f"{what} is too large: {value} (limit 2**53 - 1)")
    return value


def _seat_mask(value: object, what: str) -> int:
    if not _is_int(value):
        raise PokerDraw32TypeError(f"{what} must be an int bitmask, not {type(value).__name__}")
    return _plain(value)
