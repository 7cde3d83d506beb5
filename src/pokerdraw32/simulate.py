"""Bots playing many hands at one table: the engine behind ``pokerdraw32 simulate``.

>>> r = simulate(players=3, hands=50, seed=7)
>>> r.hands_played, sum(r.final_stacks) == sum(r.bought_in)
(50, True)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TextIO

from ._kernels import IMPLEMENTATION, Rng, evaluate_mask, play
from .actions import Action
from .bots import Bot, Policy, RandomBot, RuleBot, SeatView
from .errors import MAX_CHIPS, IllegalActionError, InvalidCardError, PokerDraw32TypeError, PokerDraw32ValueError
from .evaluation import HandCategory
from .hand import Hand
from .history import HandHistory, HistoryWriter
from .rules import Rules
from .table import Table, default_buy_ins

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
    :ivar names: the bots' names at the table (seat order).
    :ivar dead_chips: dead chips posted for missed blinds (R10.3).
    :ivar ledger_entries: lines in the table's ledger, which balanced at the end (R9.5).
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
    names: list[str] = field(default_factory=list)
    dead_chips: int = 0
    ledger_entries: int = 0

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
            "dead_chips": self.dead_chips,
            "ledger": {"entries": self.ledger_entries, "balanced": True,
                       "bought_in": sum(self.bought_in), "on_table": sum(self.final_stacks)},
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
    bots: Literal["rule", "random", "mixed"] | Sequence[str | Policy | type] = "mixed",
    sit_out: float = 0.0,
    progress: Callable[[int], None] | None = None,
    on_hand: Callable[[Hand], None] | None = None,
    history: TextIO | None = None,
) -> SimulationResult:
    """Play ``hands`` hands with ``players`` bots at one :class:`~pokerdraw32.table.Table`.

    The table moves the button and the blinds (R4.1, R4.2) and keeps the ledger; a bot that
    busts buys in again for the starting stack before the next hand (R10.1, R10.4).  With
    ``sit_out`` > 0, before each hand every bot dealt in sits out with that probability and every
    bot sitting out returns with probability 1/2, paying the blinds it missed (R10.3).  Everything
    random comes from one seed: the same seed gives the same result with compiled or pure kernels.

    :param players: 2 to 5 (R3.1).
    :param hands: number of hands, >= 0.
    :param seed: 0 <= seed < 2**64; ``None`` draws one from the OS (reported in the result).
    :param rules: the table's rules (default: the classic preset).
    :param stack: buy-in and re-buy in chips (default 100 big blinds).
    :param bots: ``"rule"`` (all :class:`~pokerdraw32.bots.RuleBot`), ``"random"`` (all
        :class:`~pokerdraw32.bots.RandomBot`) or ``"mixed"`` (alternating, rule-based first); or a
        list with one bot per seat, each ``"rule"``, ``"random"``, an object with
        ``decide(view) -> Action | str`` (:class:`~pokerdraw32.bots.BotLike`), a callable
        ``view -> Action | str``, or a class of such objects (instantiated once for the seat: a
        :class:`~pokerdraw32.bots.Bot` subclass with the seat's seed, any other with no
        arguments); every bot decides from its seat's
        :class:`~pokerdraw32.bots.SeatView`.  Each seat takes one seed from the simulation's
        generator whatever its bot, so the cards dealt do not depend on who sits where, and
        ``["rule", "random", ...]`` plays exactly as ``"mixed"``.
    :param sit_out: probability, 0 <= p < 1, that a bot sits out before a hand.
    :param progress: called with the number of hands just finished (for progress bars).
    :param on_hand: called with each finished :class:`~pokerdraw32.hand.Hand`.
    :param history: a text stream that receives every hand as a ``.phhs`` table (PHH, with the
        table's seat numbers + 1 and the bots' names); replaying it reproduces every stack.
    :raises ValueError: bad players, hands, stack, bots or sit_out.
    :raises PokerDraw32TypeError: ``rules`` is not a :class:`~pokerdraw32.rules.Rules`, or ``progress`` or
        ``on_hand`` is not callable.
    :raises IllegalActionError: a user bot chose an action that is not legal (the message names the
        seat, the bot and the action; the table is left as it was).
    :raises PokerDraw32TypeError: a user bot returned something that is not an Action or a str.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise PokerDraw32ValueError(f"players={players!r}: a table deals 2 to 5 players [R3.1]")
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
        raise PokerDraw32ValueError(f"hands={hands!r} must be a non-negative integer")
    rules = rules if rules is not None else Rules()
    if not isinstance(rules, Rules):
        raise PokerDraw32TypeError(f"rules must be a pokerdraw32.Rules (e.g. Rules.preset('classic')), got {rules!r}")
    for name, callback in (("progress", progress), ("on_hand", on_hand)):
        if callback is not None and not callable(callback):
            raise PokerDraw32TypeError(f"{name} must be a callable or None, got {callback!r}")
    default_stack = stack is None
    stack = stack if stack is not None else 100 * rules.big_blind
    if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
        raise PokerDraw32ValueError(f"stack={stack!r} must be a positive integer number of chips")
    if players * stack > MAX_CHIPS:
        why = f" (the default stack, 100 big blinds of {rules.big_blind})" if default_stack else ""
        raise PokerDraw32ValueError(f"stack={stack}{why}: {players} players would bring more than {MAX_CHIPS} chips "
                                    "to the table [R3.2]")
    if isinstance(sit_out, bool) or not isinstance(sit_out, (int, float)) or not 0 <= sit_out < 1:
        raise PokerDraw32ValueError(f"sit_out={sit_out!r} must be a probability, 0 <= p < 1")
    if seed is None:
        seed = Rng().next_u64()
    rng = Rng(seed)
    specs: list[str | Policy | type]
    if isinstance(bots, str):
        if bots == "rule":
            specs = ["rule"] * players
        elif bots == "random":
            specs = ["random"] * players
        elif bots == "mixed":
            specs = ["rule" if i % 2 == 0 else "random" for i in range(players)]
        else:
            raise PokerDraw32ValueError(f"bots={bots!r}: use rule, random or mixed, or a list of one bot per seat")
    elif isinstance(bots, Sequence):
        specs = list(bots)
        if len(specs) != players:
            raise PokerDraw32ValueError(f"bots: {len(specs)} bots for {players} players; give one per seat")
    else:
        raise PokerDraw32ValueError(f"bots={bots!r}: use rule, random or mixed, or a list of one bot per seat")
    seats: list[Callable[[SeatView], Action | str]] = []
    labels: list[str] = []          # SimulationResult.bots
    names: list[str] = []
    user = [False] * players
    bot_seeds: list[int] = []
    bot_rngs: list[Rng] = []        # the built-in bots' generators (all seats built-in: every seat's)
    for i, spec in enumerate(specs):
        seed_i = rng.next_u64()     # one per seat, whatever the bot (same cards for any line-up)
        bot_seeds.append(seed_i)
        if isinstance(spec, str):
            kind: type[Bot] | None = {"rule": RuleBot, "random": RandomBot}.get(spec)
            if kind is None:
                raise PokerDraw32ValueError(f"bots[{i}]={spec!r}: use 'rule', 'random' or a bot object")
            builtin = kind(seed_i)
            seats.append(builtin.decide)
            bot_rngs.append(builtin.rng)
            labels.append(kind.__name__)
        else:
            bot: Any = spec
            if isinstance(spec, type):      # a bot class: one instance for this seat
                try:
                    bot = spec(seed_i) if issubclass(spec, Bot) else spec()
                except TypeError as e:
                    raise PokerDraw32TypeError(f"bots[{i}]: cannot make a {spec.__name__}: {e}") from e
            decide = getattr(bot, "decide", None)
            if decide is None or not callable(decide):
                if not callable(bot):
                    raise PokerDraw32TypeError(f"bots[{i}]: {type(bot).__name__} object has no decide(view) method "
                                               "and is not callable")
                decide = bot
            seats.append(decide)
            labels.append(getattr(bot, "__name__", None) or type(bot).__name__)
            user[i] = True
        base = labels[-1].lower() if labels[-1].isidentifier() else "bot"
        names.append(f"{base.removesuffix('bot') or base}{i}")
    lo, hi = default_buy_ins(rules)
    table = Table(rules, seats=players, seed=rng.next_u64(), min_buy_in=min(lo, stack),
                  max_buy_in=None if hi is None else max(hi, stack), clock=lambda: 0.0, history=False)
    for i in range(players):
        table.join(i, names[i], stack)
    writer = HistoryWriter(history) if history is not None else None
    threshold = int(sit_out * 1_000_000)
    policies = None if any(user) else [play.RULE if spec == "rule" else play.RANDOM for spec in specs]
    if policies is not None and not threshold:
        # every seat a built-in bot, everyone dealt in every hand: whole sessions in compiled code
        return _simulate_session(table, policies, bot_seeds, hands, seed, players, rules, stack, labels, names,
                                 progress, on_hand, writer)
    categories: Counter[str] = Counter()
    showdowns = parole = dead = 0
    evaluate_mask(0x1F)     # the evaluator builds its tables on first use (10-40 ms): before the clock
    start = time.perf_counter()
    for i in range(hands):
        for s in range(players):
            if table.seat(s).stack == 0:          # busted: re-buy so play continues (R10.1, R10.4)
                table.add_chips(s, stack)
            if threshold:
                away = table.seat(s).sitting_out
                if not away and rng.below(1_000_000) < threshold:
                    table.sit_out(s)
                elif away and rng.below(2) == 0:
                    table.sit_in(s)
        if threshold:
            present = [s for s in range(players) if not table.seat(s).sitting_out]
            for s in range(players):
                if len(present) >= 2:
                    break
                if s not in present:                # a table needs two players
                    table.sit_in(s)
                    present.append(s)
        h = table.start_hand()
        seat_of = table.hand_seats
        if policies is not None:            # built-in bots only: the whole hand in compiled code
            play.play_hand(h, [policies[t] for t in seat_of], [bot_rngs[t] for t in seat_of])
            table._after_step(table._now())     # the hand is over: the table settles it
        while h.actor is not None:
            t = seat_of[h.actor]
            action = seats[t](SeatView.of(h))
            if user[t]:
                _act_for(table, t, names[t], action)
            else:
                table.act(t, action)
        result = h.result
        assert result is not None
        dead += h.dead
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
        if writer is not None:
            writer.write(HandHistory.from_hand(h, number=i + 1, seats=[s + 1 for s in seat_of],
                                               players=[names[s] for s in seat_of]))
        if progress is not None:
            progress(i + 1)
    seconds = time.perf_counter() - start
    table.check_ledger()
    final = [table.seat(s).stack for s in range(players)]
    bought = [sum(e.chips for e in table.ledger if e.seat == s and e.kind in ("buy_in", "add"))
              for s in range(players)]
    rebuys = [sum(1 for e in table.ledger if e.seat == s and e.kind == "add") for s in range(players)]
    ordered = {c.name: categories.get(c.name, 0) for c in sorted(HandCategory, reverse=True)}
    return SimulationResult(hands, seed, players, rules, final, bought, rebuys, ordered, showdowns, parole,
                            seconds, stack, labels, names, dead, len(table.ledger))


def _act_for(table: Table, seat: int, name: str, action: object) -> None:
    """A user bot's action at table seat ``seat``, or the package's error naming the seat, the bot
    and the action (the table unchanged: an illegal action changes nothing)."""
    if not isinstance(action, (Action, str)):
        raise PokerDraw32TypeError(f"seat {seat} ({name}): the bot returned {action!r}, not an Action or an "
                                   "action text")
    try:
        table.act(seat, action)
    except (IllegalActionError, InvalidCardError) as e:
        raise IllegalActionError(f"seat {seat} ({name}): the bot chose {str(action)!r}, which is not legal: {e}",
                                 seat=seat) from e


_CHUNK = 256
"""Hands the compiled session plays between two calls back to Python (progress, Ctrl-C)."""


def _simulate_session(table: Table, policies: list[int], bot_seeds: list[int], hands: int, seed: int, players: int,
                      rules: Rules, stack: int, labels: list[str], names: list[str],
                      progress: Callable[[int], None] | None, on_hand: Callable[[Hand], None] | None,
                      writer: HistoryWriter | None) -> SimulationResult:
    """:func:`simulate` with built-in bots only and no ``sit_out``: the hands are played by
    :class:`pokerdraw32._play.Session` (compiled code when extensions are on), which applies the
    table's rules for this case, with the generators the table and bots would use, so that the
    result is exactly the one :class:`~pokerdraw32.table.Table` and the bots give (the suite
    compares them hand by hand).  ``on_hand`` and ``history`` get a new :class:`Hand` each hand."""
    keep = on_hand is not None or writer is not None
    session = play.Session(Hand, rules, stack, policies, [Rng(s) for s in bot_seeds] + [table.rng],
                           keep_hands=keep)
    seats = list(range(1, players + 1))
    evaluate_mask(0x1F)     # the evaluator builds its tables on first use (10-40 ms): before the clock
    start = time.perf_counter()
    done = 0
    while done < hands:
        k = 1 if keep else min(_CHUNK, hands - done)
        session.play(k)
        done += k
        if keep:
            h = session.hand
            if on_hand is not None:
                on_hand(h)
            if writer is not None:
                writer.write(HandHistory.from_hand(h, number=done, seats=seats, players=names))
        if progress is not None:
            progress(done)
    seconds = time.perf_counter() - start
    final, bought, rebuys = session.stacks, session.bought_in, session.rebuys
    if sum(final) != sum(bought):     # the session checks every hand; this is the ledger's own audit
        raise AssertionError(f"chips not conserved: {sum(bought)} bought in, {sum(final)} on the table [R9.5]")
    counts = session.categories
    ordered = {c.name: counts[c.value] for c in sorted(HandCategory, reverse=True)}
    entries = players + sum(rebuys) + hands * players     # buy-ins, re-buys, one line per seat per hand
    return SimulationResult(hands, seed, players, rules, final, bought, rebuys, ordered, session.showdowns,
                            session.parole_splits, seconds, stack, labels, names, 0, entries)
