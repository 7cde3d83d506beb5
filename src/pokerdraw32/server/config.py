"""The server's settings: its timing (:class:`ServerSettings`) and each table's
(:class:`TableConfig`, as a ``--tables`` JSON file gives them), the default tables, the bots.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..bots import bot_factory
from ..errors import PokerDraw32Error
from ..rules import Rules, Structure
from ..table import Table

__all__ = ["DEFAULT_TABLES", "ServerSettings", "TableConfig"]

@dataclass(frozen=True)
class ServerSettings:
    """Timing of the server's tables (PROTOCOL.md, Limits), in seconds.

    :ivar hand_pause: between the end of a hand and the start of the next.
    :ivar bot_delay: a bot's thinking time before it acts.
    :ivar grace: how long a disconnected player keeps their place before being sat out.
    :ivar away_limit: how long after that a player still disconnected keeps the seat: then they
        leave and are paid out (the seat is freed for others).
    """

    hand_pause: float = 3.0
    bot_delay: float = 0.8
    grace: float = 60.0
    away_limit: float = 600.0


@dataclass(frozen=True)
class TableConfig:
    """A table's settings, as given in a ``--tables`` JSON file (one object per table).

    :ivar id: 1-32 letters, digits, ``-`` or ``_`` (the page is ``/table/<id>``).
    :ivar rules: :meth:`Rules.options` of the table's rules (the file may give ``preset`` plus
        changes, e.g. ``{"preset": "classic", "structure": "pot-limit", "sb": 5}``).
    :ivar bots: table seat -> a bot name (:func:`pokerdraw32.bots.bot_names`: ``"rule"``,
        ``"random"``, ``"call"``, ...; ``"cfr"`` plays heads-up only), seated at the table's creation.
    :ivar time_bank: seconds each player may use beyond ``decision_time`` in a session;
        ``bank_refill`` seconds are given back after each hand they were dealt in to, up to
        ``time_bank``.
    """

    id: str
    title: str
    rules: dict[str, Any]
    seats: int = 5
    bots: tuple[tuple[int, str], ...] = ()
    decision_time: float = 30.0
    raise_time: float | None = None
    time_bank: float = 60.0
    bank_refill: float = 5.0
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    seed: int | None = None

    @classmethod
    def from_dict(cls, d: Any) -> TableConfig:
        """Read and check one table of a ``--tables`` file.

        :raises ValueError: a bad or unknown field (named), or settings the engine refuses.
        """
        if not isinstance(d, dict):
            raise ValueError(f"a table is a JSON object, got {type(d).__name__}")
        known = {"id", "title", "rules", "seats", "bots", "decision_time", "raise_time", "time_bank",
                 "bank_refill", "min_buy_in", "max_buy_in", "seed"}
        extra = sorted(set(d) - known)
        if extra:
            raise ValueError(f"table {d.get('id')!r}: unknown field(s) {', '.join(extra)}")
        tid = d.get("id")
        if not isinstance(tid, str) or not 1 <= len(tid) <= 32 or not all(c.isascii() and (c.isalnum() or c in "-_")
                                                                           for c in tid):
            raise ValueError(f"table id must be 1-32 letters, digits, '-' or '_', got {tid!r}")
        rules_in = d.get("rules", {})
        if not isinstance(rules_in, dict):
            raise ValueError(f"table {tid}: rules must be an object")
        try:
            if "name" in rules_in and "preset" not in rules_in and len(rules_in) >= 12:
                rules = Rules.from_options(rules_in)
            else:
                changes = dict(rules_in)
                preset = changes.pop("preset", "classic")
                rules = Rules.preset(preset, **changes)
        except (PokerDraw32Error, TypeError, ValueError) as exc:
            raise ValueError(f"table {tid}: bad rules: {exc}") from None
        bots_in = d.get("bots", {})
        if not isinstance(bots_in, dict):
            raise ValueError(f"table {tid}: bots must be an object of seat -> bot name ('rule', 'random', ...)")
        bots: list[tuple[int, str]] = []
        for k, v in bots_in.items():
            if not ((isinstance(k, str) and k.isdigit()) or isinstance(k, int)) or not isinstance(v, str):
                raise ValueError(f"table {tid}: bots maps a seat number to a bot name ('rule', 'random', ...), got "
                                 f"{k!r}: {v!r}")
            try:
                bot_factory(v)                  # a known name, loaded now: a bot that cannot load stops the start
            except PokerDraw32Error as exc:
                raise ValueError(f"table {tid}: bots: seat {k}: {exc}") from None
            bots.append((int(k), v))
        config = cls(id=tid, title=str(d.get("title", tid))[:80], rules=rules.options(), seats=d.get("seats", 5),
                     bots=tuple(sorted(bots)), decision_time=d.get("decision_time", 30.0),
                     raise_time=d.get("raise_time"), time_bank=d.get("time_bank", 60.0),
                     bank_refill=d.get("bank_refill", 5.0), min_buy_in=d.get("min_buy_in"),
                     max_buy_in=d.get("max_buy_in"), seed=d.get("seed"))
        for name in ("time_bank", "bank_refill"):
            v = getattr(config, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1e6:
                raise ValueError(f"table {tid}: {name} must be a number of seconds >= 0, got {v!r}")
        try:
            t = config.new_table()
            for seat, _ in config.bots:
                t.join(seat, f"bot-{seat}", config.default_buy_in(t))
        except (PokerDraw32Error, TypeError, ValueError) as exc:
            raise ValueError(f"table {tid}: {exc}") from None
        return config

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "rules": self.rules, "seats": self.seats,
                "bots": {str(s): b for s, b in self.bots}, "decision_time": self.decision_time,
                "raise_time": self.raise_time, "time_bank": self.time_bank, "bank_refill": self.bank_refill,
                "min_buy_in": self.min_buy_in, "max_buy_in": self.max_buy_in, "seed": self.seed}

    def new_table(self) -> Table:
        """A new engine table with these settings (clock: :func:`time.monotonic`).  A server
        table always has a maximum buy-in: fixed-limit tables, which have none by default
        (R10.1), get ten times their minimum unless ``max_buy_in`` is given (one player's huge
        buy-in would otherwise fill the table's chip limit and keep everyone else out)."""
        def table(max_buy_in: int | None) -> Table:
            return Table(Rules.from_options(self.rules), seats=self.seats, seed=self.seed,
                         min_buy_in=self.min_buy_in, max_buy_in=max_buy_in, clock=time.monotonic,
                         decision_time=self.decision_time, raise_time=self.raise_time)
        t = table(self.max_buy_in)
        return t if t.max_buy_in is not None else table(10 * t.min_buy_in)

    @staticmethod
    def default_buy_in(table: Table) -> int:
        """The buy-in a join without ``chips`` takes, and the bots': the table's maximum (R10.1);
        for fixed-limit, twice the minimum."""
        if table.max_buy_in is None or table.rules.structure is Structure.FIXED_LIMIT:
            return min(2 * table.min_buy_in, table.max_buy_in or 2 * table.min_buy_in)
        return table.max_buy_in


DEFAULT_TABLES = (
    {"id": "classic", "title": "Classic no-limit 1/2/4 (raise limit 10 s)", "seats": 5,
     "rules": {"preset": "classic"}, "bots": {"1": "rule", "2": "rule", "3": "random"}, "raise_time": 10},
    {"id": "pot-limit", "title": "Two-blind pot-limit 5/10", "seats": 4,
     "rules": {"preset": "two-blind", "structure": "pot-limit", "sb": 5, "bb": 10}, "bots": {"1": "rule", "2": "rule"}},
    {"id": "heads-up", "title": "Heads-up fixed-limit 4/8 (blinds 2/4)", "seats": 2,
     "rules": {"preset": "classic", "structure": "fixed-limit", "sb": 2, "bb": 4}, "bots": {"1": "rule"}},
)
"""The tables ``pokerdraw32 serve`` opens when no ``--tables`` file is given."""
