"""Exception hierarchy.

Every exception the engine raises on bad input derives from :class:`PokerDraw32Error`, and
also from the built-in exception a Python programmer would expect, so both kinds of
``except`` work::

    Exception
     +-- PokerDraw32Error                   catch-all of the package (never raised itself)
          +-- PokerDraw32TypeError          + TypeError: an argument of the wrong type
          |                                   (not a buffer, a str where an int is meant,
          |                                   a bool where an amount is meant, ...)
          +-- PokerDraw32KeyError           + KeyError: a lookup of something absent
          |                                   (a draw option nobody computed)
          +-- PokerDraw32ValueError         + ValueError: a value of the right type that is
               |                              wrong (out of range, contradictory, illegal now)
               +-- InvalidCardError         a card token or card set (R1.3)
               +-- RulesError               a rules object or hand set-up (R3, R4)
               +-- IllegalActionError       an action the hand refuses (R5-R9)
               +-- DealError                cards given for a deal (R6.2)
               +-- HistoryError             a hand history (pokerdraw32.history)
               +-- SnapshotError            a snapshot to restore (pokerdraw32.snapshot)
               +-- TableError               a table session (pokerdraw32.table)
               +-- GameTooLargeError        a game asked to enumerate all its states
                                              (pokerdraw32.openspiel and tabular solvers)

The domain errors (``InvalidCardError`` ... ``TableError``) report every problem with
their object, a wrong type included: ``Hand(Rules(), ["x", 100], 0)`` raises
:class:`RulesError`, as it always did. The function-style API (kernels, batches,
:class:`~pokerdraw32.Rng`, odds) reports wrong types as :class:`PokerDraw32TypeError` and
bad values as :class:`PokerDraw32ValueError`, where it used to raise the plain built-ins.
Python's own errors for a wrong call (a missing argument, an unknown keyword) are left
as they are.

Exceptions raised by the hand state machine leave the state exactly as it was before the
offending call.
"""

from __future__ import annotations

import operator
import reprlib

__all__ = [
    "MAX_CHIPS",
    "DealError",
    "GameTooLargeError",
    "IllegalActionError",
    "InvalidCardError",
    "PokerDraw32Error",
    "PokerDraw32KeyError",
    "PokerDraw32TypeError",
    "PokerDraw32ValueError",
    "RulesError",
    "SnapshotError",
    "TableError",
    "integer",
    "shown",
]


class PokerDraw32Error(Exception):
    """Base class of every error raised by pokerdraw32 on bad input (catch-all; each error
    raised is also a :class:`TypeError`, :class:`ValueError` or :class:`KeyError`)."""


class PokerDraw32TypeError(PokerDraw32Error, TypeError):
    """An argument of the wrong type: ``except TypeError`` catches it too."""


class PokerDraw32ValueError(PokerDraw32Error, ValueError):
    """A value of the right type that is wrong: ``except ValueError`` catches it too.
    Base of the domain errors below."""


class PokerDraw32KeyError(PokerDraw32Error, KeyError):
    """A lookup of something absent: ``except KeyError`` catches it too."""


class InvalidCardError(PokerDraw32ValueError):
    """A card token or card set is not valid for the 32-card deck (R1.3).

    :ivar token: the offending token (a string, an int code or a repr), when known.
    """

    def __init__(self, message: str, token: object = None) -> None:
        super().__init__(message)
        self.token = token


class RulesError(PokerDraw32ValueError):
    """A rules object or table set-up is contradictory or out of range (R3.2, R3.4)."""


class _SeatRuleError(PokerDraw32ValueError):
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


class GameTooLargeError(PokerDraw32ValueError):
    """An algorithm that walks every state of a game was run on one far too large for it: the
    OpenSpiel game ``python_pokerdraw32`` refuses OpenSpiel's tabular algorithms
    (:mod:`pokerdraw32.openspiel`); the message gives the game's size and the sampling
    algorithms to use instead."""

class _ShortRepr(reprlib.Repr):
    """reprlib with a depth limit (a list nested 900 deep must not exhaust the stack) and
    huge ints by their size (an int of thousands of digits cannot even be converted to text)."""

    def repr_int(self, x: int, level: int) -> str:
        return f"<int of {x.bit_length()} bits>" if x.bit_length() > 64 else int.__repr__(x)


_SHORT = _ShortRepr()
_SHORT.maxlevel = 3
_SHORT.maxstring = _SHORT.maxother = 60


class SnapshotError(PokerDraw32ValueError):
    """A snapshot that cannot be restored: wrong format or version, or a bad field (named).

    Raised by :func:`pokerdraw32.snapshot.restore` (:meth:`Hand.restore <pokerdraw32.hand.Hand.restore>`),
    also importable from :mod:`pokerdraw32.snapshot`."""


class TableError(PokerDraw32ValueError):
    """A table operation that the rules or the table's state forbid; the table is unchanged.

    :ivar seat: the table seat concerned, when there is one.
    :ivar rule: the RULES.md rule id, when one applies (appended to the message).
    """

    def __init__(self, message: str, *, seat: int | None = None, rule: str | None = None) -> None:
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.seat = seat
        self.rule = rule


def shown(value: object) -> str:
    """A short, always-printable repr of a user-supplied value for error messages (nested
    containers are cut at depth 3, huge ints shown by their size)."""
    try:
        text = _SHORT.repr(value)
    except Exception:   # a user object whose __repr__ fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def integer(value: object) -> int | None:
    """``value`` as a plain :class:`int`, or ``None`` when it is not an integer (or is a bool:
    ``True`` is not an amount of chips, a seat or a seed).

    Every amount, seat and seed the public API receives is converted here once, before it is
    checked, and only the result is used: ``operator.index`` accepts ints and other integer
    types (numpy's) and returns an exact ``int``, so an ``int`` subclass whose ``__int__`` or
    comparisons lie cannot pass a check with one value and be used with another.

    >>> integer(7), integer(True), integer(7.0), integer("7")
    (7, None, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return int(operator.index(value))   # type: ignore[arg-type]
    except TypeError:
        return None


MAX_CHIPS = 2**53 - 1
"""Largest chip amount the engine accepts anywhere (stacks, blinds, the table's total): every
amount stays exact in a double and in the kernels' 64-bit arithmetic."""
