"""Replaying a table's journal (:attr:`Table.journal <pokerdraw32.table.Table.journal>`): the steps
recorded since a snapshot, applied again to the restored snapshot.

Each step is one change made through the table's methods, as the table recorded it: ``join``,
``add_chips``, ``sit_out``, ``sit_in``, ``leave``, ``start_hand``, ``act``, ``showdown``
(:meth:`~pokerdraw32.table.Table.set_showdown_choice`) and ``expire``, with the clock's time
``"at"`` of the changes that read the clock.  The replay calls the same methods with the clock
stopped at each step's time, so every deal (from the table's generator), every deadline and
every timeout comes out as it did; then the table gets its real clock and the deadline keeps
the time that was left when the steps were saved (``saved_at``), as :meth:`Table.restore
<pokerdraw32.table.Table.restore>` keeps it for a snapshot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import PokerDraw32Error, TableError, shown
from ._clock import Deadline, _seconds

if TYPE_CHECKING:
    from . import Table

_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "join": {"seat": int, "name": str, "chips": int, "wait": bool},
    "add_chips": {"seat": int, "chips": int},
    "sit_out": {"seat": int},
    "sit_in": {"seat": int},
    "leave": {"seat": int},
    "start_hand": {"at": (int, float)},
    "act": {"seat": int, "action": str, "at": (int, float)},
    "showdown": {"seat": int, "show": (bool, type(None))},
    "expire": {"seat": int, "at": (int, float)},
}
"""Each step's fields besides ``"op"`` and their types (``start_hand`` may also have ``"deck"``)."""


def replay(t: Table, steps: Any, start: float, saved_at: float | None, clock: Callable[[], float]) -> None:
    """Apply ``steps`` to ``t`` (restored from a snapshot whose clock read ``start``), the clock
    stopped at each step's time, then give ``t`` the ``clock`` and shift its deadline by
    ``clock() - saved_at`` (``saved_at`` defaults to the last time read: the snapshot's or the
    last step's).

    :raises TableError: a step that is not one the table records (named by its index), a time
        earlier than the one before it, or a step the table refuses (with the table's reason).
    """
    if not isinstance(steps, list):
        raise TableError(f"table journal: the steps must be a list, got {shown(steps)}")
    now = start

    def stopped() -> float:
        return now

    t.clock = stopped
    for i, step in enumerate(steps):
        op = step.get("op") if isinstance(step, dict) else None
        fields = _FIELDS.get(op) if isinstance(op, str) else None
        if fields is None or not isinstance(op, str):
            raise TableError(f"table journal: step {i}: {shown(step)} is not a step the table records (op one of "
                             f"{', '.join(_FIELDS)})")
        extra = {"deck"} if op == "start_hand" else set()
        if not set(fields) <= set(step) or not set(step) <= {"op", *fields, *extra}:
            raise TableError(f"table journal: step {i} ({op}): fields {sorted(step)}, expected "
                             f"{sorted({'op', *fields})}" + (" and optionally 'deck'" if extra else ""))
        for key, kind in fields.items():
            v = step[key]
            allowed = kind if isinstance(kind, tuple) else (kind,)
            if not isinstance(v, allowed) or (isinstance(v, bool) and bool not in allowed):
                raise TableError(f"table journal: step {i} ({op}): {key} {shown(v)} is not "
                                 f"{' or '.join('null' if k is type(None) else k.__name__ for k in allowed)}")
        deck = step.get("deck")
        if deck is not None and not (isinstance(deck, list) and all(isinstance(c, str) for c in deck)):
            raise TableError(f"table journal: step {i} ({op}): deck {shown(deck)} is not a list of cards")
        if "at" in step:
            at = _seconds(step["at"], f"table journal: step {i} ({op}): at must be")
            if at < now:
                raise TableError(f"table journal: step {i} ({op}): at {at:g} is before the time before it ({now:g})")
            now = at
        try:
            _apply(t, op, step)
        except PokerDraw32Error as exc:
            raise TableError(f"table journal: step {i} ({op}) is refused: {exc}") from None
    end = now if saved_at is None else _seconds(saved_at, "table journal: saved_at must be")
    if end < now:
        raise TableError(f"table journal: saved at {end:g}, before its last step ({now:g})")
    t.clock = clock
    d = t.deadline
    if d is not None:
        shift = t._now() - end
        t.deadline = Deadline(d.seat, None if d.raise_at is None else d.raise_at + shift, d.act_at + shift)


def _apply(t: Table, op: str, step: dict[str, Any]) -> None:
    if op == "act":
        t.act(step["seat"], step["action"])
    elif op == "expire":
        t.expire(step["seat"])
    elif op == "showdown":
        t.set_showdown_choice(step["seat"], step["show"])
    elif op == "start_hand":
        t.start_hand(deck=step.get("deck"))
    elif op == "join":
        t.join(step["seat"], step["name"], step["chips"], wait=step["wait"])
    elif op == "add_chips":
        t.add_chips(step["seat"], step["chips"])
    elif op == "sit_out":
        t.sit_out(step["seat"])
    elif op == "sit_in":
        t.sit_in(step["seat"])
    else:
        t.leave(step["seat"])
