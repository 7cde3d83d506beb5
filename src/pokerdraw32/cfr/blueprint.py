"""The shipped blueprint: a heads-up no-limit strategy for the classic preset at 100 big blinds,
packaged as ``blueprint_hunl100.cfrz`` (:mod:`pokerdraw32.cfr.compact`), and the bot that plays it
(issue 26).

>>> from pokerdraw32.cfr.blueprint import blueprint_bot
>>> bot = blueprint_bot(seed=1)             # the strategy is read once per process, at first use
>>> bot.strategy is blueprint_bot(seed=2).strategy
True

:data:`BLUEPRINT` (read from the file's header, lazily) records how it was made: ``command`` (the
commands that wrote the abstraction and trained it), ``seed``, ``sampling``, ``iterations``,
``abstraction`` (the :class:`~pokerdraw32.cfr.abstraction.Abstraction`'s JSON form),
``info_sets``, ``pokerdraw32`` (the version that exported it).  It is written by
``python -m pokerdraw32.cfr export --strategy S.cfr --out src/pokerdraw32/cfr/blueprint_hunl100.cfrz
--command "..."``.

Where it plays: any heads-up hand of the no-limit or pot-limit structure, any blinds and stack
depth, the classic or two-blind preset, both heads-up blind conventions; see
:class:`~pokerdraw32.cfr.bot.CfrBot` for the mappings, and for fixed-limit, which it refuses.
"""

from __future__ import annotations

import threading
from importlib import resources
from pathlib import Path
from typing import Any

from .bot import CfrBot, check_rules
from .compact import read_header
from .solver import Strategy

__all__ = ["BLUEPRINT", "FILE", "blueprint_bot", "blueprint_path", "blueprint_strategy"]

BLUEPRINT: dict[str, Any]
"""How the blueprint was made (from the file's header, read at first access): see the module's docstring."""

FILE = "blueprint_hunl100.cfrz"
"""The packaged file's name (package data of :mod:`pokerdraw32.cfr`)."""

_lock = threading.Lock()
_loaded: list[Strategy] = []
_header: list[dict[str, Any]] = []


def blueprint_path() -> Path:
    """Where the packaged blueprint file is."""
    return Path(str(resources.files(__package__ or "pokerdraw32.cfr").joinpath(FILE)))


class _Packaged(Strategy):
    """The blueprint's strategy: pickled as a reference (a worker process reads its own copy once)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (blueprint_strategy, ())


def blueprint_strategy() -> Strategy:
    """The blueprint's :class:`Strategy`, read from the package at the first call and shared after
    (one per process; read-only, so bots and their copies share it; a pickle of it, or of a bot
    playing it, holds a reference, not the arrays).

    :raises PokerDraw32ValueError: the packaged file is missing or damaged (a broken install).
    """
    if not _loaded:
        with _lock:
            if not _loaded:
                _loaded.append(_Packaged.load(blueprint_path()))
    return _loaded[0]


def blueprint_bot(seed: int | None = None) -> CfrBot:
    """A :class:`CfrBot` playing the packaged blueprint (the built-in bot name ``"cfr"``).

    :param seed: the seed of the bot's generator (its random choices and bet translations).
    :raises PokerDraw32ValueError: the packaged file is missing or damaged.
    """
    return CfrBot(blueprint_strategy(), seed=seed)


blueprint_bot.check_rules = check_rules  # type: ignore[attr-defined]   # the line-up check (bots.check_fit)


def _info() -> dict[str, Any]:
    if not _header:
        header = read_header(blueprint_path())
        info = dict(header["metadata"])
        info.update(iterations=header["iterations"], info_sets=header["info_sets"],
                    abstraction=header["abstraction"])
        _header.append(info)
    return _header[0]


def __getattr__(name: str) -> Any:
    if name == "BLUEPRINT":
        return _info()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
