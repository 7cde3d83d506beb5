"""Bots playing many hands at one table: the engine behind ``pokerdraw32 simulate``.

>>> r = simulate(players=3, hands=50, seed=7)
>>> r.hands_played, sum(r.final_stacks) == sum(r.bought_in)
(50, True)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ._kernels import IMPLEMENTATION, Rng, evaluate_mask
from .bots import Bot, RandomBot, RuleBot
from .evaluation import HandCategory
from .hand import Hand
from .rules import Rules

__all__ = ["SimulationResult", "simulate"]


@dataclass
class SimulationResult:
    """What a simulation produced.

    :ivar hands_played: number of hands played.
    :ivar seed: the seed used (drawn from the OS and reported when none was given).
    :ivar final_stacks: each seat's chips at the end.
    :ivar bought_in: chips each seat bought in for, first buy-in plus re-buys.
    :ivar rebuys: re-buys per seat.
    :ivar categories: showdown hand categories (every hand that reached a showdown), by name.
    :ivar showdowns: hands decided by a showdown; ``parole_splits``: hands where Parole shared a pot.
    :ivar seconds: wall time of the play loop.
    :ivar stack: the starting stack and re-buy, in chips.
    """

    hands_played: int
    seed: int
    players: int
    rules: Rules
    final_stacks: list[int]
    bought_in: list[int]
    rebuys: list[int]
    categories: dict[str, int]
    showdowns: int
    parole_splits: int
    seconds: float
    stack: int
    bots: list[str] = field(default_factory=list)

    @property
    def net(self) -> list[int]:
        """Each seat's result in chips: final stack minus everything bought in."""
        return [f - b for f, b in zip(self.final_stacks, self.bought_in, strict=False)]

    @property
    def hands_per_second(self) -> float:
        return self.hands_played / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly summary."""
        return {
            "hands_played": self.hands_played,
            "seed": self.seed,
            "players": self.players,
            "stack": self.stack,
            "structure": self.rules.structure.value,
            "preset": self.rules.name,
            "implementation": IMPLEMENTATION,
            "bots": self.bots,
            "final_stacks": self.final_stacks,
            "bought_in": self.bought_in,
            "rebuys": self.rebuys,
            "net": self.net,
            "categories": self.categories,
            "showdowns": self.showdowns,
            "parole_splits": self.parole_splits,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
        }


def simulate(
    *,
    players: int = 5,
    hands: int = 1000,
    seed: int | None = None,
    rules: Rules | None = None,
    stack: int | None = None,
    bots: Literal["rule", "random", "mixed"] = "mixed",
    progress: Callable[[int], None] | None = None,
    on_hand: Callable[[Hand], None] | None = None,
) -> SimulationResult:
    """Play ``hands`` hands with ``players`` bots at one table.

    The button moves clockwise after every hand (R4.1); a bot that busts re-buys the starting
    stack before the next hand, so every seat is dealt in (R10.4).  Everything random comes from
    one seed: the same seed gives the same result with compiled or pure kernels.

    :param players: 2 to 5 (R3.1).
    :param hands: number of hands, >= 0.
    :param seed: 0 <= seed < 2**64; ``None`` draws one from the OS (reported in the result).
    :param rules: the table's rules (default: the classic preset).
    :param stack: starting stack and re-buy in chips (default 100 big blinds).
    :param bots: ``"rule"`` (all :class:`~pokerdraw32.bots.RuleBot`), ``"random"`` (all
        :class:`~pokerdraw32.bots.RandomBot`) or ``"mixed"`` (alternating, rule-based first).
    :param progress: called with the number of hands just finished (for progress bars).
    :param on_hand: called with each finished :class:`~pokerdraw32.hand.Hand`, e.g. a
        :class:`~pokerdraw32.history.HistoryWriter`'s ``write`` to record every hand (the hands
        share one generator, but a history records every card, so it replays without it).
    :raises ValueError: bad players, hands, stack or bots.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise ValueError(f"players={players!r}: a table deals 2 to 5 players [R3.1]")
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
        raise ValueError(f"hands={hands!r} must be a non-negative integer")
    rules = rules if rules is not None else Rules()
    stack = stack if stack is not None else 100 * rules.big_blind
    if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
        raise ValueError(f"stack={stack!r} must be a positive integer number of chips")
    if seed is None:
        seed = Rng().next_u64()
    table_rng = Rng(seed)
    kinds: list[type[Bot]]
    if bots == "rule":
        kinds = [RuleBot] * players
    elif bots == "random":
        kinds = [RandomBot] * players
    elif bots == "mixed":
        kinds = [RuleBot if i % 2 == 0 else RandomBot for i in range(players)]
    else:
        raise ValueError(f"bots={bots!r}: use rule, random or mixed")
    seats: list[Bot] = [k(table_rng.next_u64()) for k in kinds]
    stacks = [stack] * players
    bought = [stack] * players
    rebuys = [0] * players
    categories: Counter[str] = Counter()
    showdowns = parole = 0
    button = 0
    start = time.perf_counter()
    for i in range(hands):
        h = Hand(rules, stacks, button, rng=table_rng)
        while h.actor is not None:
            h.act(seats[h.actor].decide(h))
        result = h.result
        assert result is not None
        if result.showdown:
            showdowns += 1
            for s in h.live_seats:
                m = 0
                for c in h.hole[s]:
                    m |= 1 << c
                categories[HandCategory(evaluate_mask(m) >> 22).name] += 1
        if any(p.shared for p in result.pots):
            parole += 1
        if on_hand is not None:
            on_hand(h)
        stacks = list(result.stacks)
        for s in range(players):
            if stacks[s] == 0:            # busted: re-buy so play continues
                stacks[s] = stack
                bought[s] += stack
                rebuys[s] += 1
        button = (button + 1) % players
        if progress is not None:
            progress(i + 1)
    seconds = time.perf_counter() - start
    ordered = {c.name: categories.get(c.name, 0) for c in sorted(HandCategory, reverse=True)}
    return SimulationResult(hands, seed, players, rules, stacks, bought, rebuys, ordered, showdowns, parole,
                            seconds, stack, [k.__name__ for k in kinds])
