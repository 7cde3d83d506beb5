"""The shipped blueprints, heads-up strategies for the classic preset: no-limit at 20, 50, 100 and
200 big blinds (``blueprint_hunl100.cfrz`` and its siblings) and fixed-limit at 100
(``blueprint_hufl100.cfrz``), packaged in the compact format of :mod:`pokerdraw32.cfr.compact`, and
the bot that plays them (issues 26 and 42).

>>> from pokerdraw32.cfr.blueprint import blueprint_bot, blueprint_strategy, nearest_depth
>>> bot = blueprint_bot(seed=1)             # each strategy is read once per process, at first use
>>> bot.strategy is blueprint_bot(seed=2).strategy is blueprint_strategy("no-limit", 100)
True
>>> blueprint_strategy("fixed-limit").abstraction.structure
'fixed-limit'
>>> [nearest_depth("no-limit", bb) for bb in (5, 30, 35, 70, 150, 1000)]
[20, 20, 50, 50, 200, 200]

:data:`BLUEPRINT` (read from the no-limit 100-big-blind file's header, lazily;
:func:`blueprint_info` for any) records how it was made: ``command`` (the commands that wrote the
abstraction and trained it), ``seed``, ``sampling``, ``iterations``, ``abstraction`` (the
:class:`~pokerdraw32.cfr.abstraction.Abstraction`'s JSON form), ``info_sets``, ``pokerdraw32`` (the
version that exported it).  A file is written by ``python -m pokerdraw32.cfr export --strategy S.cfr
--out src/pokerdraw32/cfr/blueprint_hunl100.cfrz --command "..." [--command "..."]``.

Where they play (:class:`BlueprintBot`, the bot name ``"cfr"``): any heads-up hand, each by the
blueprint of its betting structure (R3.4: no-limit and pot-limit hands by the no-limit ones,
fixed-limit hands by the fixed-limit one) nearest its effective stack; any blinds, the classic or
two-blind preset, both heads-up blind conventions; see :class:`~pokerdraw32.cfr.bot.CfrBot` for the
mappings.
"""

from __future__ import annotations

import math
import threading
from importlib import resources
from pathlib import Path
from typing import Any

from ..actions import Action
from ..bots import SeatView
from ..errors import PokerDraw32ValueError
from ..hand import Hand
from ..rules import Rules, Structure
from .bot import CfrBot, check_rules
from .compact import read_header
from .solver import Strategy

__all__ = ["BLUEPRINT", "DEPTHS", "FILE", "FILES", "BlueprintBot", "blueprint_bot", "blueprint_info",
           "blueprint_path", "blueprint_strategy", "check_blueprint_rules", "nearest_depth"]

BLUEPRINT: dict[str, Any]
"""How the no-limit blueprint was made (from the file's header, read at first access): see the
module's docstring (:func:`blueprint_info` for each structure's)."""

FILES = {"no-limit": "blueprint_hunl100.cfrz", "fixed-limit": "blueprint_hufl100.cfrz"}
"""The 100-big-blind blueprints' file names (package data of :mod:`pokerdraw32.cfr`) by the
abstract structure (:attr:`Abstraction.structure <pokerdraw32.cfr.abstraction.Abstraction.structure>`)."""

DEPTHS: dict[str, dict[int, str]] = {
    "no-limit": {20: "blueprint_hunl20.cfrz", 50: "blueprint_hunl50.cfrz", 100: FILES["no-limit"],
                 200: "blueprint_hunl200.cfrz"},
    "fixed-limit": {100: FILES["fixed-limit"]},
}
"""Every packaged blueprint's file name by structure and depth (the abstraction's ``stack_bb``, big
blinds): a hand is played by the blueprint of its structure whose depth is nearest its effective
stack (:func:`nearest_depth`)."""

FILE = FILES["no-limit"]
"""The no-limit 100-big-blind blueprint's file name."""

_lock = threading.Lock()
_loaded: dict[tuple[str, int], Strategy] = {}
_header: dict[tuple[str, int], dict[str, Any]] = {}


def _file(structure: str, depth: int) -> str:
    files = DEPTHS.get(structure)
    if files is None:
        raise PokerDraw32ValueError(f"no blueprint for the structure {structure!r}: there are {sorted(DEPTHS)} "
                                    "(pot-limit hands are played by the no-limit ones, R3.4)")
    if depth not in files:
        raise PokerDraw32ValueError(f"no {structure} blueprint {depth!r} big blinds deep: there are {sorted(files)}")
    return files[depth]


def nearest_depth(structure: str, stack_bb: float) -> int:
    """The depth (big blinds) of the ``structure`` blueprint nearest ``stack_bb`` big blinds, by ratio
    (35 big blinds: the 50-big-blind one, as 50 / 35 < 35 / 20); a tie goes to the deeper one.

    :raises PokerDraw32ValueError: a structure without blueprints.
    """
    files = DEPTHS.get(structure)
    if files is None:
        _file(structure, 0)             # raises: no such structure
    depths = sorted(files or ())
    x = max(float(stack_bb), 1e-9)
    return min(reversed(depths), key=lambda d: abs(math.log(d / x)))


def blueprint_path(structure: str = "no-limit", depth: int = 100) -> Path:
    """Where the packaged blueprint of ``structure`` (``"no-limit"`` or ``"fixed-limit"``) and
    ``depth`` (big blinds, one of :data:`DEPTHS`) is.

    :raises PokerDraw32ValueError: another structure or depth.
    """
    return Path(str(resources.files(__package__ or "pokerdraw32.cfr").joinpath(_file(structure, depth))))


class _Packaged(Strategy):
    """A blueprint's strategy: pickled as a reference (a worker process reads its own copy once)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (blueprint_strategy, (self.abstraction.structure, self.abstraction.stack_bb))


def blueprint_strategy(structure: str = "no-limit", depth: int = 100) -> Strategy:
    """The blueprint :class:`Strategy` of ``structure`` (``"no-limit"`` or ``"fixed-limit"``) and
    ``depth`` (big blinds, one of :data:`DEPTHS`), read from the package at the first call and
    shared after (one per process; read-only, so bots and their copies share it; a pickle of it, or
    of a bot playing it, holds a reference, not the arrays).

    :raises PokerDraw32ValueError: another structure or depth; the packaged file is missing or
        damaged (a broken install).
    """
    key = (structure, depth)
    found = _loaded.get(key)
    if found is None:
        path = blueprint_path(structure, depth)
        with _lock:
            found = _loaded.get(key)
            if found is None:
                found = _loaded[key] = _Packaged.load(path)
    return found


def check_blueprint_rules(rules: Rules, players: int = 2) -> None:
    """Whether :class:`BlueprintBot` plays hands of ``rules`` with ``players`` players: as
    :func:`~pokerdraw32.cfr.bot.check_rules` for the blueprint of the rules' structure.

    :raises PokerDraw32ValueError: more than 2 players; the options the bot refuses (R4.3, R7.1).
    """
    check_rules(rules, players, "fixed-limit" if rules.structure is Structure.FIXED_LIMIT else "no-limit")


class BlueprintBot(CfrBot):
    """The shipped blueprints as one bot (the bot name ``"cfr"``): a :class:`CfrBot` that plays each
    hand by the blueprint of its betting structure (R3.4: fixed-limit hands by the fixed-limit one,
    no-limit and pot-limit hands by the no-limit ones) whose depth is nearest the hand's effective
    stack (the smaller starting stack, in big blinds: :func:`nearest_depth`), switching at the first
    decision of a hand that needs another (each blueprint read once per process, when first needed).

    :param seed: the seed of its generator (its random choices and bet translations).
    :raises PokerDraw32ValueError: a packaged file is missing or damaged.
    """

    check_rules = staticmethod(check_blueprint_rules)   # the line-up check (bots.check_fit)

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(blueprint_strategy("no-limit", 100), seed=seed)
        self._engines: dict[tuple[str, int], tuple[Any, ...]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        a = self.strategy.abstraction
        return (_rebuilt, (a.structure, a.stack_bb, self.rng.getstate()))

    def action_probabilities(self, view: SeatView | Hand | None = None, *,
                             hand: Hand | None = None) -> list[tuple[Action, float]]:
        """:meth:`CfrBot.action_probabilities <pokerdraw32.cfr.bot.CfrBot.action_probabilities>` with
        the blueprint of the hand's structure and depth (defined here, so that
        :func:`~pokerdraw32.bots.known_policy` trusts it for this class: the distribution of
        :meth:`decide`, which this class plays through the same switch)."""
        return super().action_probabilities(view, hand=hand)

    def _view(self, view: SeatView | Hand | None, hand: Hand | None) -> SeatView:
        source = hand if hand is not None else view
        rules = getattr(source, "rules", None)
        stacks = getattr(source, "starting_stacks", None)
        if isinstance(rules, Rules) and stacks:
            structure = "fixed-limit" if rules.structure is Structure.FIXED_LIMIT else "no-limit"
            self._switch(structure, nearest_depth(structure, min(stacks) / rules.big_blind))
        return super()._view(view, hand)

    def _switch(self, structure: str, depth: int) -> None:
        """Play the blueprint of ``structure`` and ``depth`` from this decision on."""
        a = self.strategy.abstraction
        if (a.structure, a.stack_bb) == (structure, depth):
            return
        self._engines[(a.structure, a.stack_bb)] = (self.strategy, self._tables, self._sv)
        engine = self._engines.get((structure, depth))
        if engine is None:
            self._use(blueprint_strategy(structure, depth))
        else:
            self.strategy, self._tables, self._sv = engine
            self._memo, self._seen = {}, ()


def _rebuilt(structure: str, depth: int, state: tuple[int, int, int, int]) -> BlueprintBot:
    bot = BlueprintBot()
    bot._switch(structure, depth)
    bot.rng.setstate(state)
    return bot


def blueprint_bot(seed: int | None = None) -> BlueprintBot:
    """A :class:`BlueprintBot` playing the packaged blueprints (the built-in bot name ``"cfr"``).

    :param seed: the seed of the bot's generator (its random choices and bet translations).
    :raises PokerDraw32ValueError: the packaged file is missing or damaged.
    """
    return BlueprintBot(seed=seed)


blueprint_bot.check_rules = check_blueprint_rules  # type: ignore[attr-defined]   # the line-up check


def blueprint_info(structure: str = "no-limit", depth: int = 100) -> dict[str, Any]:
    """How the blueprint of ``structure`` and ``depth`` was made (its file's header; see the
    module's docstring).

    :raises PokerDraw32ValueError: another structure or depth; the file is missing or damaged.
    """
    key = (structure, depth)
    if key not in _header:
        header = read_header(blueprint_path(structure, depth))
        info = dict(header["metadata"])
        info.update(iterations=header["iterations"], info_sets=header["info_sets"],
                    abstraction=header["abstraction"])
        _header[key] = info
    return _header[key]


def __getattr__(name: str) -> Any:
    if name == "BLUEPRINT":
        return blueprint_info("no-limit", 100)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
