"""The table snapshot format (``"pokerdraw32/table"``, version 1): writing it and reading it back, checked.

:func:`table_snapshot` writes a :class:`~pokerdraw32.table.Table` session as JSON-serialisable data
and :func:`restore_table` reads it back (:meth:`Table.snapshot <pokerdraw32.table.Table.snapshot>`
and :meth:`Table.restore <pokerdraw32.table.Table.restore>` document both), refusing with a
:class:`~pokerdraw32.errors.TableError` naming the field anything the table would not have written;
:class:`_TableReader` gives typed access to the fields.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import MAX_CHIPS, PokerDraw32Error, TableError, shown
from ..hand import Hand
from ..hand._snapshot import _Reader, read_rules
from ._base import _good_name
from ._blinds import _blind_amounts
from ._clock import Deadline, _seconds
from ._journal import replay
from ._ledger import LedgerEntry
from ._seats import SeatState

if TYPE_CHECKING:
    from . import Table

TABLE_FORMAT = "pokerdraw32/table"
TABLE_VERSION = 1

_TABLE_FIELDS = frozenset({"format", "version", "rules", "seat_count", "min_buy_in", "max_buy_in", "decision_time",
                           "raise_time", "history", "seats", "button", "hand_count", "ledger", "rng", "clock", "hand",
                           "hand_seats", "deadline"})


class _TableReader(_Reader):
    """Typed access to a table snapshot's fields (the hand snapshot's reader, with TableError)."""

    error = TableError
    where = "table snapshot: field"

    def __init__(self, data: dict[str, Any], table: Table | None = None) -> None:
        super().__init__(data)
        self._table = table

    @property
    def table(self) -> Table:
        assert self._table is not None
        return self._table

    def count(self, name: str) -> int:
        return self.integer(name, 0, MAX_CHIPS)

    def seat_state(self, sd: Any) -> SeatState:
        fields = {"seat": int, "name": str, "stack": int, "sitting_out": bool, "waiting": bool, "entry_due": bool,
                  "missed": dict, "leaving": bool}
        if not isinstance(sd, dict) or set(sd) != set(fields):
            raise TableError(f"table snapshot: a seat must have the fields {sorted(fields)}, got {shown(sd)}")
        for key, kind in fields.items():
            v = sd[key]
            if (isinstance(v, bool) and kind is not bool) or not isinstance(v, kind):
                raise TableError(f"table snapshot: seat field {key!r}: {shown(v)} is not {kind.__name__}")
        self.table._check_seat_number(sd["seat"])
        if not _good_name(sd["name"]):
            raise TableError(f"table snapshot: bad player name {shown(sd['name'])}")
        if not 0 <= sd["stack"] <= MAX_CHIPS:
            raise TableError(f"table snapshot: seat {sd['seat']}: stack {shown(sd['stack'])} is out of range")
        amounts = _blind_amounts(self.table.rules)
        for blind, amount in sd["missed"].items():
            if blind not in amounts or amount != amounts[blind]:
                raise TableError(f"table snapshot: seat {sd['seat']}: missed {shown(blind)} {shown(amount)} is not a "
                                 "blind of this table [R10.3]")
        return SeatState(**{**sd, "missed": dict(sd["missed"])})     # the table's own: never the data's dict

    def ledger_entry(self, e: Any) -> LedgerEntry:
        if not isinstance(e, dict) or set(e) != {"kind", "seat", "name", "chips", "hand"}:
            raise TableError(f"table snapshot: bad ledger entry {shown(e)}")
        if e["kind"] not in ("buy_in", "add", "cash_out", "hand"):
            raise TableError(f"table snapshot: ledger kind {shown(e['kind'])} is not buy_in, add, cash_out or hand")
        for key in ("seat", "chips", "hand"):
            v = e[key]
            if isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_CHIPS:
                raise TableError(f"table snapshot: ledger {key} {shown(v)} is not an integer")
        if e["kind"] != "hand" and e["chips"] < 0:
            raise TableError(f"table snapshot: ledger {e['kind']} of {e['chips']} chips")
        if not isinstance(e["name"], str):
            raise TableError(f"table snapshot: ledger name {shown(e['name'])} is not a string")
        return LedgerEntry(**e)


def table_snapshot(table: Table, ledger_from: int = 0) -> dict[str, Any]:
    """:meth:`Table.snapshot <pokerdraw32.table.Table.snapshot>` (documented there)."""
    if isinstance(ledger_from, bool) or not isinstance(ledger_from, int) or \
            not 0 <= ledger_from <= len(table.ledger):
        raise TableError(f"ledger_from must be a ledger index 0..{len(table.ledger)}, got {shown(ledger_from)}")
    h = table.hand
    return {
        "format": TABLE_FORMAT,
        "version": TABLE_VERSION,
        "rules": table.rules.options(),
        "seat_count": table.seat_count,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "decision_time": table.decision_time,
        "raise_time": table.raise_time,
        "history": table.keep_history,
        "seats": [s.to_dict() for _, s in sorted(table._seats.items())],
        "button": table.button,
        "hand_count": table.hand_count,
        "ledger": [e.to_dict() for e in table.ledger[ledger_from:]],
        "rng": [f"{word:016x}" for word in table.rng.getstate()],
        "clock": table._now(),
        "hand": None if h is None or table._settled else h.snapshot(),
        "hand_seats": list(table.hand_seats),
        "deadline": None if table.deadline is None else {
            "seat": table.deadline.seat, "raise_at": table.deadline.raise_at, "act_at": table.deadline.act_at},
    }


def restore_table(cls: type[Table], data: dict[str, Any], clock: Callable[[], float] | None = None,
                  steps: list[dict[str, Any]] | None = None, saved_at: float | None = None) -> Table:
    """:meth:`Table.restore <pokerdraw32.table.Table.restore>` (documented there): a ``cls`` made from
    ``data``, then ``steps`` replayed (:mod:`pokerdraw32.table._journal`)."""
    if steps is not None:
        # restored with its clock stopped at the snapshot's time (the deadline as it was then),
        # then the steps replayed at their own times, then the real clock
        if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
            return restore_table(cls, data)                     # refused: not a table snapshot
        start = _seconds(data.get("clock"), "table snapshot: field 'clock' must be")
        t = restore_table(cls, data, lambda: start)
        replay(t, steps, start, saved_at, time.monotonic if clock is None else clock)
        return t
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        got = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise TableError(f"not a table snapshot: format {shown(got)}, expected {TABLE_FORMAT!r}")
    if type(data.get("version")) is not int or data.get("version") != TABLE_VERSION:
        raise TableError(f"table snapshot version {shown(data.get('version'))} cannot be read: this pokerdraw32 "
                         f"reads version {TABLE_VERSION} only")
    rules = read_rules(_TableReader(data))
    try:
        t = cls(rules, seats=data["seat_count"], min_buy_in=data["min_buy_in"], max_buy_in=data["max_buy_in"],
                clock=clock, decision_time=data["decision_time"], raise_time=data["raise_time"],
                history=data["history"], seed=0)
    except KeyError as exc:
        raise TableError(f"table snapshot: field {exc} is missing") from None
    except PokerDraw32Error as exc:
        raise TableError(f"table snapshot: settings: {exc}") from None
    for key in ("min_buy_in", "max_buy_in"):          # null is not "the default" here (R10.1)
        if getattr(t, key) != data[key]:
            raise TableError(f"table snapshot: settings: {key} {shown(data[key])} is not what the table wrote; "
                             f"the default would be {getattr(t, key)}")
    r = _TableReader(data, t)
    for key in data:
        if key not in _TABLE_FIELDS:
            raise TableError(f"table snapshot: {shown(key)} is not a field of a table snapshot")
    for sd in r.field("seats", list):
        s = r.seat_state(sd)
        if s.seat in t._seats:
            raise TableError(f"table snapshot: seat {s.seat} appears twice")
        if t._seats and s.seat < max(t._seats):
            raise TableError(f"table snapshot: the seats are not in seat order (seat {s.seat} after "
                             f"{max(t._seats)})")
        if any(o.name == s.name for o in t._seats.values()):
            raise TableError(f"table snapshot: the name {s.name!r} appears twice")
        t._seats[s.seat] = s
    button = r.field("button", (int, type(None)))
    t.button = None if button is None else t._check_seat_number(button)
    t.hand_count = r.count("hand_count")
    t.ledger = [r.ledger_entry(e) for e in r.field("ledger", list)]
    t._brought = sum(e.chips for e in t.ledger if e.kind in ("buy_in", "add"))
    t._paid = sum(e.chips for e in t.ledger if e.kind == "cash_out")
    t.rng = r.rng("rng")
    t.hand_seats = tuple(t._check_seat_number(x) for x in r.field("hand_seats", list))
    hand = r.field("hand", (dict, type(None)))
    d = r.field("deadline", (dict, type(None)))
    if hand is not None:
        t.hand = Hand.restore(hand)
        if t.hand.rng.getstate() != t.rng.getstate():
            raise TableError("table snapshot: field 'rng' is not the running hand's generator (the hand deals "
                             "from the table's)")
        t.rng = t.hand.rng                  # the hand deals from the table's generator
        t._settled = False
        h = t.hand
        if not h.auto_deal:
            raise TableError("table snapshot: field 'hand': auto_deal is false, but a table's hands deal "
                             "themselves from the table's generator [R11.1]")
        if h.is_complete:
            raise TableError("table snapshot: the running hand is already over")
        if h.rules != rules:
            raise TableError("table snapshot: the running hand's rules are not the table's")
        if (h.n != len(t.hand_seats) or list(t.hand_seats) != sorted(set(t.hand_seats))
                or not all(x in t._seats for x in t.hand_seats)):
            raise TableError("table snapshot: the running hand's seats are not occupied table seats in order")
        if [t._seats[x].stack for x in t.hand_seats] != list(h.starting_stacks):
            raise TableError("table snapshot: the seats' stacks are not the running hand's starting stacks")
        if t.button != t.hand_seats[h.button]:
            raise TableError(f"table snapshot: the button is seat {t.button}, the running hand's is "
                             f"{t.hand_seats[h.button]}")
        t._dealt = tuple(t._seats[x] for x in t.hand_seats)
        if (d is None) != (t.actor is None):
            raise TableError("table snapshot: field 'deadline' must be given exactly when a player is to act")
    elif d is not None:
        raise TableError("table snapshot: a deadline but no running hand")
    if d is not None:
        try:
            seat, act_at, raise_at = d["seat"], d["act_at"], d["raise_at"]
        except KeyError as exc:
            raise TableError(f"table snapshot: field 'deadline' lacks {exc}") from None
        for what, v in (("act_at", act_at), ("raise_at", raise_at)):
            if v is not None or what == "act_at":
                _seconds(v, f"table snapshot: deadline {what} must be")
        if seat != t.actor:
            raise TableError(f"table snapshot: the deadline is for seat {shown(seat)}, seat {t.actor} is to act")
        saved = _seconds(r.field("clock", (int, float)), "table snapshot: field 'clock' must be")
        t._check_deadline(float(act_at), None if raise_at is None else float(raise_at), saved)
        # the deadlines keep their remaining time: shifted from the saved clock to the new one
        shift = t._now() - saved
        t.deadline = Deadline(seat, None if raise_at is None else float(raise_at) + shift, float(act_at) + shift)
    t._check_seats_against_ledger()
    t.check_ledger()
    return t
