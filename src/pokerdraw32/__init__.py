"""pokerdraw32: a rules-exact engine for 32-Card Draw.

The rule book is RULES.md; rule ids (R1..R11) are cited throughout.

>>> import pokerdraw32
>>> pokerdraw32.evaluate("Ah Kh Qh Jh Th").description
'royal flush, hearts'
>>> pokerdraw32.IMPLEMENTATION in ("cython", "python")
True
"""

from __future__ import annotations

import sys as _sys

# Imported with the package: the kernels (their choice, R11's Rng), the errors, cards and hand
# evaluation, the first thing most programs use. Everything else is imported on first use (below).
from ._kernels import IMPLEMENTATION, Rng
from ._version import __version__
from .cards import DECK, Card, Rank, Suit, cards_to_mask, format_cards, mask_to_cards, parse_card, parse_cards
from .errors import (
    DealError,
    IllegalActionError,
    InvalidCardError,
    PokerDraw32Error,
    PokerDraw32KeyError,
    PokerDraw32TypeError,
    PokerDraw32ValueError,
    RulesError,
    SnapshotError,
    TableError,
)
from .evaluation import HandCategory, HandRank, evaluate

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

    from .actions import Action, ActionKind, Event, EventKind, LegalActions, Phase
    from .batch import deal_many, evaluate_many
    from .hand import DealRequest, Hand, HandResult, Pot
    from .history import HandHistory, HistoryError, HistoryWriter, dumps_all, load_all, loads_all
    from .odds import POLICIES, DrawOdds, DrawOption, Equity, EquityTable, draw_odds, equity
    from .odds_batch import BatchInterrupted, draw_odds_many, equity_many
    from .rulebook import rule_text
    from .rules import CLASSIC, PRESETS, TWO_BLIND, Rules, SecondRoundFirst, Structure
    from .table import Table


# Imported on first use (PEP 562), to keep `import pokerdraw32` fast: actions and rules
# (dataclasses, enums, inspect, re), the hand and its compiled core, batches, hand histories (TOML),
# odds and equity (fractions, statistics), their batches (concurrent.futures), the rule book,
# snapshots and table sessions.
_LAZY = {
    "Action": "actions", "ActionKind": "actions", "Event": "actions", "EventKind": "actions",
    "LegalActions": "actions", "Phase": "actions",
    "deal_many": "batch", "evaluate_many": "batch",
    "Hand": "hand",
    "DealRequest": "results", "HandResult": "results", "Pot": "results",
    "CLASSIC": "rules", "PRESETS": "rules", "TWO_BLIND": "rules", "Rules": "rules",
    "SecondRoundFirst": "rules", "Structure": "rules",
    "HandHistory": "history", "HistoryError": "history", "HistoryWriter": "history", "dumps_all": "history",
    "load_all": "history", "loads_all": "history",
    "POLICIES": "odds", "DrawOdds": "odds", "DrawOption": "odds", "Equity": "odds", "EquityTable": "odds",
    "draw_odds": "odds", "equity": "odds",
    "BatchInterrupted": "odds_batch", "draw_odds_many": "odds_batch", "equity_many": "odds_batch",
    "rule_text": "rulebook",
    "Table": "table",
}
# Submodules that `import pokerdraw32` used to import, so `pokerdraw32.hand` and the like still work
# without importing them first.
_SUBMODULES = frozenset({"actions", "batch", "hand", "results", "rules"})


# The private modules' paths before the package's folders followed its layers (issue 40): a pickle made
# before names some of them (a simulation's chunks: pokerdraw32._simchunk.ChunkResult), and the
# documentation named pokerdraw32._encode and pokerdraw32._play. Each old path imports the module that
# is there now (the same module object, under both names); tests/test_layout.py proves every entry.
_MOVED = {
    **{f"_core_py_{k}": f"_core_py.{k}" for k in ("checks", "evaluate", "rng", "pots", "draws", "batch", "equity")},
    **{f"_{k}": f"_handcore.{k}" for k in ("cython_shim", "describe", "events", "refusal")},
    **{f"_{k}{c}": f"_handcore.{k}{c}" for k in ("codes", "deal", "betting", "state", "state_view", "play",
                                                "encode", "vector") for c in ("", "_c")},
    "_hand_snapshot": "hand._snapshot", "_simchunk": "simulate._chunk",
    **{f"_{k}": f"table._{k}" for k in ("seats", "blinds", "clock", "ledger")},
    **{f"_table_{k}": f"table._{k}" for k in ("base", "snapshot", "journal")},
}


class _MovedModules:
    """The finder and loader, last on ``sys.meta_path``, of the paths in :data:`_MOVED`: it is asked
    only for names no other finder found."""

    @classmethod
    def find_spec(cls, name: str, path: object = None, target: object = None) -> Any:
        package, _, old = name.partition(".")
        if package != __name__ or old not in _MOVED:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, cls)  # type: ignore[arg-type]  # a loader by its methods, not importlib.abc's

    @staticmethod
    def create_module(spec: Any) -> Any:
        module = __import__(f"{__name__}.{_MOVED[spec.name.partition('.')[2]]}", None, None, ("__name__",))
        spec.loader_state = module.__spec__   # the import system sets the old name's spec on the module next
        return module

    @staticmethod
    def exec_module(module: Any) -> None:
        """Nothing to run: the module was imported under its own name by :meth:`create_module`; it
        gets its own spec back (its relative imports read it, and ``__package__``, which stays)."""
        module.__spec__ = module.__spec__.loader_state


if not any(getattr(finder, "__qualname__", None) == "_MovedModules" for finder in _sys.meta_path):
    _sys.meta_path.append(_MovedModules)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(__import__(f"{__name__}.{module}", None, None, (name,)), name)
    elif name in _SUBMODULES:
        value = __import__(f"{__name__}.{name}", None, None, ("__name__",))
    else:
        raise AttributeError(f"module 'pokerdraw32' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, "__version__"})

__all__ = [
    "CLASSIC",
    "DECK",
    "IMPLEMENTATION",
    "POLICIES",
    "PRESETS",
    "TWO_BLIND",
    "Action",
    "ActionKind",
    "BatchInterrupted",
    "Card",
    "DealError",
    "DealRequest",
    "DrawOdds",
    "DrawOption",
    "Equity",
    "EquityTable",
    "Event",
    "EventKind",
    "Hand",
    "HandCategory",
    "HandHistory",
    "HandRank",
    "HandResult",
    "HistoryError",
    "HistoryWriter",
    "IllegalActionError",
    "InvalidCardError",
    "LegalActions",
    "Phase",
    "PokerDraw32Error",
    "PokerDraw32KeyError",
    "PokerDraw32TypeError",
    "PokerDraw32ValueError",
    "Pot",
    "Rank",
    "Rng",
    "Rules",
    "RulesError",
    "SecondRoundFirst",
    "SnapshotError",
    "Structure",
    "Suit",
    "Table",
    "TableError",
    "__version__",
    "cards_to_mask",
    "deal_many",
    "draw_odds",
    "draw_odds_many",
    "dumps_all",
    "equity",
    "equity_many",
    "evaluate",
    "evaluate_many",
    "format_cards",
    "load_all",
    "loads_all",
    "mask_to_cards",
    "parse_card",
    "parse_cards",
    "rule_text",
]
