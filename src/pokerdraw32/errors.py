"""Exception hierarchy.

Every exception the engine raises on bad input derives from :class:`PokerDraw32Error`,
itself a :class:`ValueError`, so ``except ValueError`` keeps working for callers that do
not care about the details.  Exceptions raised by the hand state machine leave the state
exactly as it was before the offending call.
"""

from __future__ import annotations

import reprlib

__all__ = [
    "MAX_CHIPS",
    "DealError",
    "IllegalActionError",
    "InvalidCardError",
    "PokerDraw32Error",
    "RulesError",
    "shown",
]


class PokerDraw32Error(ValueError):
    """Base class of every error raised by pokerdraw32 on bad input."""


class InvalidCardError(PokerDraw32Error):
    """A card token or card set is not valid for the 32-card deck (R1.3).

    :ivar token: the offending token (a string, an int code or a repr), when known.
    """

    def __init__(self, message: str, token: object = None) -> None:
        super().__init__(message)
        self.token = token


class RulesError(PokerDraw32Error):
    """A rules object or table set-up is contradictory or out of range (R3.2, R3.4)."""


class _SeatRuleError(PokerDraw32Error):
    """An error about one seat's move, citing the rule that forbids it.

    :ivar seat: the seat concerned (``None`` when not seat-specific).
    :ivar rule: the RULES.md rule id, e.g. ``"R3.4"`` (may be ``None``); appended to the message.
    """

    def __init__(self, message: str, *, seat: int | None = None, rule: str | None = None) -> None:
        if rule is not None:
            message = f"{message} [{rule}]"
        super().__init__(message)
        self.seat = seat
        self.rule = rule


class IllegalActionError(_SeatRuleError):
    """An action is not legal in the current state of the hand; the hand is unchanged."""


class DealError(_SeatRuleError):
    """Cards given for a deal are not available: already in play, duplicated, outside the
    deck, the wrong number, or a player's own discards (R6.2); the hand is unchanged."""

class _ShortRepr(reprlib.Repr):
    """reprlib with a depth limit (a list nested 900 deep must not exhaust the stack) and
    huge ints by their size (an int of thousands of digits cannot even be converted to text)."""

    def repr_int(self, x: int, level: int) -> str:
        return f"<int of {x.bit_length()} bits>" if x.bit_length() > 64 else int.__repr__(x)


_SHORT = _ShortRepr()
_SHORT.maxlevel = 3
_SHORT.maxstring = _SHORT.maxother = 60


def shown(value: object) -> str:
    """A short, always-printable repr of a user-supplied value for error messages (nested
    containers are cut at depth 3, huge ints shown by their size)."""
    try:
        text = _SHORT.repr(value)
    except Exception:   # a user object whose __repr__ fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


MAX_CHIPS = 2**53 - 1
"""Largest chip amount the engine accepts anywhere (stacks, blinds, the table's total): every
amount stays exact in a double and in the kernels' 64-bit arithmetic."""
