"""Bots playing many hands, measured: the engine behind ``pokerdraw32 simulate``.

Each bot's win rate comes in big blinds per 100 hands with a 95% confidence interval.  Two
modes:

* ``mode="reset"`` (the default): every hand starts from the starting stacks, the button moving
  one seat each hand.  Hands are then independent samples, which is what a confidence interval
  needs: the standard way to compare bots.  With ``duplicate=True`` each deal is played once per
  seat rotation (every bot gets every seat's cards and position), so the luck of the cards
  cancels and the interval is much narrower for the same number of hands.
* ``mode="session"``: a table session (:class:`~pokerdraw32.table.Table`): stacks carry from
  hand to hand, a bot that busts buys in again, bots may sit out (``sit_out``).  Closer to a
  real game; its hands are not independent, so its interval is only indicative.

A run is cut into chunks of ``chunk`` hands whatever the number of workers; chunk ``i`` draws
everything from ``Rng(chunk_seed(seed, i))`` (:func:`pokerdraw32.parallel.chunk_seed`: the
bots' seeds, one per seat, then the table's), each chunk a session of its own, and the chunks
are added up in order: the same seed gives the same result on one thread, on every core
(``workers``) or on a cluster (``executor``), with compiled or pure kernels.

>>> r = simulate(players=3, hands=300, seed=7, bots=["rule", "random", "random"])
>>> r.hands_played, sum(b.chips for b in r.per_bot)        # chips are conserved (R9.5)
(300, 0)
>>> rule = r.per_bot[0]
>>> rule.low < rule.bb_per_100 < rule.high
True
"""

from __future__ import annotations

import csv
import math
import pickle
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, TextIO

from .._kernels import IMPLEMENTATION, Rng
from ..bots import Policy, bot_factory, bot_names, check_fit
from ..errors import MAX_CHIPS, PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, integer
from ..evaluation import HandCategory
from ..hand import Hand
from ..parallel import check_run, chunk_seed, run_chunks
from ..rules import Rules
from ._chunk import BUILT_IN, ChunkResult, Named, Plan, names_of, play_chunk

__all__ = ["BotResult", "SimulationInterrupted", "SimulationResult", "simulate", "write_csv"]

Z95 = 1.959963984540054
"""The 97.5th percentile of the standard normal distribution: a 95% interval is mean +- Z95 * SE."""

CHUNK = 1000
"""The default number of hands in a chunk (a chunk is rounded up to a multiple of the players)."""

MAX_HANDS = 1 << 62
"""The most hands a run may ask for."""

MAX_CHUNKS = 200_000
"""The most chunks a run may have (each keeps its results, a few hundred bytes to a few KB)."""


@dataclass(frozen=True)
class BotResult:
    """One bot's results over a run (a bot is a place in the line-up; it keeps its seat unless the
    deals are duplicated, when it visits every seat).

    :ivar bot: its index in the line-up (0-based); ``name``: its name at the table (``rule0``);
        ``label``: its class or function name.
    :ivar hands: hands it played.
    :ivar chips: chips won (negative: lost) over those hands.
    :ivar bb_per_100: win rate, big blinds per 100 hands: ``100 * chips / hands / big_blind``.
    :ivar ci95: half-width of its 95% confidence interval, in bb/100 (``None`` with fewer than
        two samples).  Normal approximation over ``samples`` samples, each a hand (or a
        duplicate deal: the sum of its rotations): ``Z95 * sqrt(samples * s2) / hands * 100 /
        big_blind`` with ``s2`` the samples' variance (n - 1 in the denominator).
    :ivar samples: independent samples the interval rests on (hands, or deals with duplicate).
    :ivar hands_won: hands it ended with more chips than it started.
    :ivar showdowns: hands it played to the showdown (R8); ``showdowns_won``: those it ended with
        more chips than it started.
    """

    bot: int
    name: str
    label: str
    hands: int
    chips: int
    bb_per_100: float
    ci95: float | None
    samples: int
    hands_won: int
    showdowns: int
    showdowns_won: int

    @property
    def low(self) -> float:
        """Lower end of the 95% interval, bb/100 (``-inf`` without an interval)."""
        return -math.inf if self.ci95 is None else self.bb_per_100 - self.ci95

    @property
    def high(self) -> float:
        """Upper end of the 95% interval, bb/100 (``inf`` without an interval)."""
        return math.inf if self.ci95 is None else self.bb_per_100 + self.ci95

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "name": self.name, "label": self.label, "hands": self.hands, "chips": self.chips,
                "bb_per_100": self.bb_per_100, "ci95": self.ci95,
                "ci95_low": None if self.ci95 is None else self.low,
                "ci95_high": None if self.ci95 is None else self.high,
                "samples": self.samples, "hands_won": self.hands_won, "showdowns": self.showdowns,
                "showdowns_won": self.showdowns_won}


@dataclass
class SimulationResult:
    """What a simulation produced; every chip count is an integer and the bots' results sum to
    zero (R9.5).

    :ivar hands_played: hands played (fewer than asked when the run was interrupted).
    :ivar hands_requested: hands asked for (rounded up to whole deals with duplicate deals).
    :ivar complete: every chunk finished (``False``: interrupted; see :class:`SimulationInterrupted`).
    :ivar seed: the seed used (drawn from the OS and reported when none was given).
    :ivar mode: ``"reset"`` or ``"session"``; ``duplicate``: duplicate deals.
    :ivar per_bot: one :class:`BotResult` per bot, in line-up order.
    :ivar chunks: the finished chunks' results (:class:`pokerdraw32.simulate._chunk.ChunkResult`), in order.
    :ivar categories: showdown hand categories (every hand that reached a showdown), by name.
    :ivar showdowns: hands decided by a showdown; ``parole_splits``: hands where Parole shared a pot.
    :ivar final_stacks, bought_in, rebuys: session mode: per bot, summed over the chunks' tables
        (each chunk is a table session of its own); ``None`` in reset mode.
    :ivar seconds: wall time of the run; ``workers``, ``executor``: what ran it.
    :ivar estimator: ``"plain"`` or ``"aivat"``; with ``"aivat"``, ``per_bot`` holds the AIVAT
        estimates (:mod:`pokerdraw32.aivat`), ``plain`` the plain results of the same hands and
        ``corrections`` each bot's mean correction in big blinds per 100 hands (what the estimate
        subtracted from the plain mean: luck, expected 0 over many runs) and ``correction_z`` that
        mean over its standard error (a z-score: beyond about +-3 the control variates would not
        have mean zero).
    """

    hands_played: int
    seed: int
    players: int
    rules: Rules
    stack: int
    mode: str
    duplicate: bool
    chunk: int
    hands_requested: int
    complete: bool
    per_bot: list[BotResult]
    chunks: list[ChunkResult]
    categories: dict[str, int]
    showdowns: int
    parole_splits: int
    decisions: int
    dead_chips: int
    seconds: float
    bots: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    final_stacks: list[int] | None = None
    bought_in: list[int] | None = None
    rebuys: list[int] | None = None
    ledger_entries: int = 0
    workers: int | None = 1
    executor: str = "this thread"
    estimator: str = "plain"
    plain: list[BotResult] | None = None
    corrections: list[float] | None = None
    correction_z: list[float] | None = None
    aivat_samples: int = 0

    @property
    def net(self) -> list[int]:
        """Each bot's result in chips (in session mode: final stacks minus everything bought in)."""
        return [b.chips for b in self.per_bot]

    @property
    def hands_per_second(self) -> float:
        return self.hands_played / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: everything but ``"run"`` (how and how fast it ran) is the same for the same
        arguments and seed, whatever the workers, the executor or the kernels."""
        d: dict[str, Any] = {
            "seed": self.seed,
            "players": self.players,
            "hands_played": self.hands_played,
            "hands_requested": self.hands_requested,
            "complete": self.complete,
            "mode": self.mode,
            "duplicate": self.duplicate,
            "structure": self.rules.structure.value,
            "preset": self.rules.name,
            "blinds": list(self.rules.blinds(self.players)),
            "big_blind": self.rules.big_blind,
            "stack": self.stack,
            "bots": [b.to_dict() for b in self.per_bot],
            "categories": self.categories,
            "showdowns": self.showdowns,
            "parole_splits": self.parole_splits,
            "decisions": self.decisions,
            "dead_chips": self.dead_chips,
            "estimator": self.estimator,
        }
        if self.plain is not None:
            d["plain"] = [b.to_dict() for b in self.plain]
            d["aivat"] = {"samples": self.aivat_samples, "corrections_bb_per_100": self.corrections,
                          "correction_z": self.correction_z}
        if self.mode == "session":
            assert self.final_stacks is not None and self.bought_in is not None
            d["session"] = {"final_stacks": self.final_stacks, "bought_in": self.bought_in, "rebuys": self.rebuys,
                            "net": self.net,
                            "ledger": {"entries": self.ledger_entries, "balanced": True,
                                       "bought_in": sum(self.bought_in), "on_table": sum(self.final_stacks)}}
        d["chunks"] = {"hands": self.chunk, "planned": -(-self.hands_requested // self.chunk) if self.chunk else 0,
                       "finished": [{"index": c.index, "seed": c.seed, "first_hand": c.first_hand, "hands": c.hands,
                                     "chips": c.chips} for c in self.chunks]}
        d["run"] = {"implementation": IMPLEMENTATION, "workers": self.workers, "executor": self.executor,
                    "seconds": round(self.seconds, 3), "hands_per_second": round(self.hands_per_second, 1)}
        return d


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`simulate`: ``result`` is the :class:`SimulationResult` of the chunks
    that finished before the first one that did not (``complete`` is ``False``): exactly the
    result of a run of that many chunks, and what ``history`` received.  A KeyboardInterrupt, so
    a script stops as usual unless it catches this to keep the partial result."""

    def __init__(self, result: SimulationResult) -> None:
        super().__init__(f"interrupted after {result.hands_played} of {result.hands_requested} hands")
        self.result = result


def simulate(
    *,
    players: int = 5,
    hands: int = 1000,
    seed: int | None = None,
    rules: Rules | None = None,
    stack: int | None = None,
    bots: str | Sequence[str | Policy | type] = "mixed",
    mode: Literal["reset", "session"] = "reset",
    duplicate: bool = False,
    sit_out: float = 0.0,
    workers: int | None = 1,
    executor: Executor | None = None,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
    on_hand: Callable[[Hand], None] | None = None,
    history: TextIO | None = None,
    estimator: Literal["plain", "aivat"] = "plain",
    samples: int | None = None,
) -> SimulationResult:
    """Play ``hands`` hands with ``players`` bots and measure each bot's win rate.

    Everything random comes from ``seed``: the same arguments and seed give the same result
    (apart from the timing) with compiled or pure kernels, on any number of workers or any
    executor.

    :param players: 2 to 5 (R3.1).
    :param hands: number of hands, >= 0 (with ``duplicate``, rounded up to a multiple of
        ``players``: whole deals).
    :param seed: 0 <= seed < 2**64; ``None`` draws one from the OS (reported in the result).
    :param rules: the table's rules (default: the classic preset).
    :param stack: starting stack (and re-buy) in chips (default 100 big blinds).
    :param bots: a bot name (:func:`~pokerdraw32.bots.bot_names`: ``"rule"``, all
        :class:`~pokerdraw32.bots.RuleBot`; ``"random"``, ``"call"``, ``"shove"``, ``"fold"``,
        ``"maniac"``, ``"cfr"``, ...) for every seat, or ``"mixed"`` (rule and random alternating,
        rule-based first); or a list with one bot per seat, each a bot name, an object with
        ``decide(view) -> Action | str`` (:class:`~pokerdraw32.bots.BotLike`), a callable
        ``view -> Action | str``, or a class of such objects.  Each chunk makes its own bots: a
        class is instantiated (a :class:`~pokerdraw32.bots.Bot` subclass with the seat's seed,
        any other with no arguments) and an object is copied (``copy.deepcopy``, as a worker
        process would receive it), so a chunk never sees another's state.  Each seat takes one
        seed from the chunk's generator whatever its bot, so the cards dealt do not depend on
        who sits where, and ``["rule", "random", ...]`` plays exactly as ``"mixed"``.  Only the
        ``"rule"`` and ``"random"`` bots play in compiled code (and release the GIL); every other
        name is made by its factory (:func:`~pokerdraw32.bots.make_bot`) in each chunk.
    :param mode: ``"reset"`` (every hand from the starting stacks; default) or ``"session"`` (a
        table session with re-buys); see the module.
    :param duplicate: duplicate deals (``mode="reset"`` only): each deal played ``players``
        times, the bots moved one seat on each time, the button kept.
    :param sit_out: ``mode="session"`` only: probability, 0 <= p < 1, that a bot sits out before
        a hand (one sitting out returns with probability 1/2, paying the blinds it missed, R10.3).
    :param workers: how many chunks run at once when no ``executor`` is given: 1 (default) on
        this thread, ``None`` every core (:func:`pokerdraw32.parallel.default_workers`).  More than
        one uses threads when every bot is ``"rule"`` or ``"random"``, nobody sits out, the estimator
        is plain and the kernels are compiled (their compiled sessions release the GIL), else
        processes (bots must then pickle).
    :param executor: any :class:`concurrent.futures.Executor` to run the chunks on (a
        ``ProcessPoolExecutor``, Dask's ``client.get_executor()``, ...); it is not shut down.
    :param chunk: hands per chunk, >= 1 (default 1000; rounded up to a multiple of ``players``,
        so that every seat has the button alike in a chunk; at most :data:`MAX_CHUNKS` chunks).
        Part of what the seed reproduces: the same seed with another ``chunk`` plays other hands.
        Each chunk's first button is where an uncut run would have it; in session mode each chunk
        is a table session of its own (its first button at seat 0, R4.1).
    :param progress: called on this thread with the number of hands finished so far, after each
        chunk (for progress bars).
    :param on_hand: called with each finished :class:`~pokerdraw32.hand.Hand`; it runs where the
        hands are played, so only with ``workers=1`` and no executor.
    :param history: a text stream that receives every hand as a ``.phhs`` table (PHH, seat
        numbers + 1 and the bots' names), chunk by chunk in order; replaying it reproduces every
        stack.
    :param estimator: ``"plain"`` (default): each bot's mean result and its interval; ``"aivat"``
        (``mode="reset"``, needs numpy): the variance-reduced AIVAT estimate of :mod:`pokerdraw32.aivat`
        (control variates for the deal, the draw's replacement cards and the rule and random
        bots' decisions), unbiased, usually with a much narrower interval for the same hands.  The hands
        played are the same; ``per_bot`` then holds the estimates (their ``chips``, ``hands_won``
        and showdowns stay the real counts) and :attr:`SimulationResult.plain` the plain results.
        Every hand is played in Python (the compiled session cannot report the decisions), so a run
        of built-in bots is slower than with ``"plain"``; workers are processes.
    :param samples: ``estimator="aivat"`` only: outcomes each sampled expectation takes (default
        128, 1 to 100,000; more: less noise in the corrections, more time).
    :raises PokerDraw32ValueError: bad players, hands, stack, bots (an unknown bot name: the message
        lists the names; a named bot that cannot be loaded), mode, sit_out, workers,
        chunk, estimator or samples; ``duplicate`` or ``estimator="aivat"`` with ``mode="session"``;
        ``samples`` without ``estimator="aivat"``;
        ``sit_out`` with ``mode="reset"``; ``on_hand`` with workers or an executor.
    :raises ImportError: ``estimator="aivat"`` without numpy (``pip install 'pokerdraw32[aivat]'``).
    :raises PokerDraw32TypeError: ``rules`` is not a :class:`~pokerdraw32.rules.Rules`, a callback
        is not callable, ``executor`` is not an Executor, or a user bot returned something that
        is not an Action or a str.
    :raises IllegalActionError: a user bot chose an action that is not legal (the message names the
        seat, the bot and the action).
    :raises SimulationInterrupted: Ctrl-C; it carries the result of the chunks that finished.
    """
    count = integer(players)
    if count is None or not 2 <= count <= 5:
        raise PokerDraw32ValueError(f"players={players!r}: a table deals 2 to 5 players [R3.1]")
    players = count
    count = integer(hands)
    if count is None or not 0 <= count <= MAX_HANDS:
        raise PokerDraw32ValueError(f"hands={hands!r} must be an integer, 0 to {MAX_HANDS}")
    hands = count
    rules = rules if rules is not None else Rules()
    if not isinstance(rules, Rules):
        raise PokerDraw32TypeError(f"rules must be a pokerdraw32.Rules (e.g. Rules.preset('classic')), got {rules!r}")
    for name, callback in (("progress", progress), ("on_hand", on_hand)):
        if callback is not None and not callable(callback):
            raise PokerDraw32TypeError(f"{name} must be a callable or None, got {callback!r}")
    default_stack = stack is None
    chips = integer(stack) if stack is not None else 100 * rules.big_blind
    if chips is None or chips <= 0:
        raise PokerDraw32ValueError(f"stack={stack!r} must be a positive integer number of chips")
    stack = chips
    if players * stack > MAX_CHIPS:
        why = f" (the default stack, 100 big blinds of {rules.big_blind})" if default_stack else ""
        raise PokerDraw32ValueError(f"stack={stack}{why}: {players} players would bring more than {MAX_CHIPS} chips "
                                    "to the table [R3.2]")
    if mode not in ("reset", "session"):
        raise PokerDraw32ValueError(f"mode={mode!r}: use 'reset' (every hand from the starting stacks) or 'session' "
                                    "(a table session with re-buys)")
    if not isinstance(duplicate, bool):
        raise PokerDraw32TypeError(f"duplicate must be True or False, got {duplicate!r}")
    if duplicate and mode != "reset":
        raise PokerDraw32ValueError("duplicate deals need mode='reset': every replay of a deal starts from the "
                                    "same stacks")
    if isinstance(sit_out, bool) or not isinstance(sit_out, (int, float)) or not 0 <= sit_out < 1:
        raise PokerDraw32ValueError(f"sit_out={sit_out!r} must be a probability, 0 <= p < 1")
    if sit_out and mode != "session":
        raise PokerDraw32ValueError("sit_out needs mode='session': sitting out is part of a table session (R10.3)")
    if estimator not in ("plain", "aivat"):
        raise PokerDraw32ValueError(f"estimator={estimator!r}: use 'plain' (mean results) or 'aivat' "
                                    "(variance-reduced)")
    if estimator == "aivat":
        if mode != "reset":
            raise PokerDraw32ValueError("estimator='aivat' needs mode='reset': its hands must be independent samples "
                                        "from the same starting stacks")
        try:
            from ..aivat import check_samples
        except ImportError as e:
            raise ImportError(f"estimator='aivat' needs numpy: pip install 'pokerdraw32[aivat]' ({e})") from e
        samples = check_samples(128 if samples is None else samples)
    elif samples is not None:
        raise PokerDraw32ValueError(f"samples={samples!r} is for estimator='aivat' (the plain estimator samples "
                                    "nothing)")
    count = integer(chunk)
    if count is None or not 1 <= count <= MAX_HANDS:
        raise PokerDraw32ValueError(f"chunk={chunk!r} must be a positive number of hands")
    chunk = count
    workers = check_run(workers, executor)
    if on_hand is not None and (executor is not None or workers != 1):
        raise PokerDraw32ValueError("on_hand is called where the hands are played: use workers=1 and no executor "
                                    "(history= works with any)")
    if history is not None:
        try:
            history.write("")            # a closed or binary stream is refused before any hand
        except Exception as e:
            raise PokerDraw32TypeError(f"history must be an open text stream, not {type(history).__name__} "
                                       f"({type(e).__name__}: {e})") from None
    specs = _lineup(bots, players)
    _fit(specs, rules, players)
    if seed is None:
        seed = Rng().next_u64()
    else:
        count = integer(seed)
        if count is None or not 0 <= count < 1 << 64:
            raise PokerDraw32ValueError(f"seed={seed!r} must be an int, 0 <= seed < 2**64")
        seed = count

    plan = Plan(players, rules, stack, tuple(specs), mode, duplicate, float(sit_out), history is not None, on_hand,
                estimator, samples if estimator == "aivat" and samples is not None else 0)
    unit = plan.unit
    hands = -(-hands // unit) * unit
    chunk = -(-chunk // players) * players                  # every seat on the button alike in a chunk
    if -(-hands // chunk) > MAX_CHUNKS:
        raise PokerDraw32ValueError(f"hands={hands} in chunks of {chunk} is {-(-hands // chunk):,} chunks: at most "
                                    f"{MAX_CHUNKS:,} (each keeps its results); raise chunk")
    tasks = [(plan, i, chunk_seed(seed, i), first, min(chunk, hands - first))
             for i, first in enumerate(range(0, hands, chunk))]
    threads = IMPLEMENTATION == "cython" and sit_out == 0 and estimator == "plain" and \
        all(isinstance(s, str) for s in specs)
    if (executor is None and not threads and (workers is None or workers > 1) and len(tasks) > 1) or \
            isinstance(executor, ProcessPoolExecutor):
        _check_picklable(specs)          # worker processes get the bots by pickle
    pending: dict[int, str] = {}
    written = [0]
    done_hands = [0]
    sums: dict[int, Any] = {}      # estimator="aivat": finished chunks' sums not yet added in chunk order
    added: list[Any] = [0, None]   # [chunks added, their sum]: one chunk's sums at a time, never all of them

    def on_done(i: int, result: ChunkResult) -> None:
        if result.aivat is not None:         # added up in chunk order as soon as each one can go
            sums[i] = result.aivat
            result.aivat = None
            while added[0] in sums:
                stats = sums.pop(added[0])
                added[1] = stats if added[1] is None else added[1] + stats
                added[0] += 1
        if history is not None:              # in chunk order, as soon as each one can go
            pending[i] = result.history or ""
            result.history = None
            while written[0] in pending:
                history.write(pending.pop(written[0]))
                written[0] += 1
        done_hands[0] += result.hands
        if progress is not None:
            progress(done_hands[0])

    start = time.perf_counter()
    outcome = run_chunks(play_chunk, tasks, workers=workers, executor=executor, threads=threads, on_done=on_done)
    seconds = time.perf_counter() - start
    done = outcome.results
    kept = next((i for i, r in enumerate(done) if r is None), len(done))   # the finished chunks before the first
    # that did not finish: a partial result is exactly the result of the shorter run (and its history)
    if history is not None:
        for i in range(written[0], kept):
            text = pending.pop(i, None)
            history.write(text if text is not None else done[i].history or "")  # type: ignore[union-attr]
    finished = [r for r in done[:kept] if r is not None]
    for r in finished:
        r.history = None
    result = _combine(plan, seed, hands, chunk, finished, not outcome.interrupted, seconds, added[1])
    result.workers, result.executor = outcome.workers, outcome.executor
    if outcome.interrupted:
        raise SimulationInterrupted(result)
    return result


def _named(name: str, where: str, other: str) -> Any:
    """The line-up's spec of bot name ``name``: the name itself when it plays in compiled code
    (:data:`~pokerdraw32.simulate._chunk.BUILT_IN`), else a :class:`~pokerdraw32.simulate._chunk.Named` with
    its factory (an entry point is loaded here, once).

    :raises PokerDraw32ValueError: an unknown name (the message lists them and ``other``, what else
        may be given) or a bot that cannot be loaded, named by ``where``."""
    if name in BUILT_IN:
        return name
    try:
        return Named(name, bot_factory(name))
    except PokerDraw32Error as e:
        hint = f"; {other}" if str(e).startswith("unknown bot name") else ""
        raise type(e)(f"{where}: {e}{hint}") from e


def _lineup(bots: object, players: int) -> list[Any]:
    """The bots' specs, one per seat, checked."""
    if isinstance(bots, str):
        if bots == "mixed":
            return ["rule" if i % 2 == 0 else "random" for i in range(players)]
        return [_named(bots, f"bots={bots!r}", "or 'mixed', or a list of one bot per seat")] * players
    if not isinstance(bots, Sequence):
        raise PokerDraw32ValueError(f"bots={bots!r}: use mixed, a bot name ({', '.join(bot_names())}) or a list of "
                                    "one bot per seat")
    specs = list(bots)
    if len(specs) != players:
        raise PokerDraw32ValueError(f"bots: {len(specs)} bots for {players} players; give one per seat")
    for i, spec in enumerate(specs):
        if isinstance(spec, str):
            specs[i] = _named(spec, f"bots[{i}]={spec!r}", "or a bot object, a callable or a class")
        elif isinstance(spec, type):
            pass                                 # instantiated by each chunk (its errors name the seat)
        elif not callable(getattr(spec, "decide", None)) and not callable(spec):
            raise PokerDraw32TypeError(f"bots[{i}]: {type(spec).__name__} object has no decide(view) method and is "
                                       "not callable")
    return specs


def _fit(specs: list[Any], rules: Rules, players: int) -> None:
    """:raises PokerDraw32ValueError: a bot refuses these rules or this many players
    (:func:`pokerdraw32.bots.check_fit`), before any hand."""
    for i, spec in enumerate(specs):
        if isinstance(spec, str):
            continue                             # rule, random: they play anything
        target = spec.factory if isinstance(spec, Named) else spec
        try:
            check_fit(target, rules, players)
        except PokerDraw32ValueError as e:
            label = spec.name if isinstance(spec, Named) else getattr(spec, "__name__", type(spec).__name__)
            raise PokerDraw32ValueError(f"bots[{i}] ({label}): {e}") from None


def _check_picklable(specs: list[Any]) -> None:
    """:raises PokerDraw32TypeError: a bot cannot be sent to a worker process (by pickle)."""
    for i, spec in enumerate(specs):
        try:
            pickle.dumps(spec)
        except Exception as e:
            name = getattr(spec, "__qualname__", None) or type(spec).__name__
            if isinstance(spec, Named):
                name = f"bot {spec.name!r} (its factory {getattr(spec.factory, '__qualname__', spec.factory)!r})"
            raise PokerDraw32TypeError(f"bots[{i}]: {name} cannot be sent to worker processes ({e}); define it at "
                                       "module level, or play with workers=1") from None


def _combine(plan: Plan, seed: int, requested: int, chunk: int, chunks: list[ChunkResult], complete: bool,
             seconds: float, aivat: Any = None) -> SimulationResult:
    """The run's result from its finished chunks, added up in chunk order (exact integers);
    ``aivat``: with ``estimator="aivat"``, the sums of those chunks, added in chunk order."""
    n, bb = plan.players, plan.rules.big_blind
    labels, names = names_of(plan.specs)
    hands = sum(c.hands for c in chunks)

    def total(name: str) -> list[int]:
        return [sum(getattr(c, name)[b] for c in chunks) for b in range(n)]

    chips, squares = total("chips"), total("squares")
    won, sd, sd_won = total("hands_won"), total("showdowns"), total("showdowns_won")
    samples = hands // plan.unit
    per_bot = []
    for b in range(n):
        rate = 100 * chips[b] / hands / bb if hands else 0.0
        ci = None
        if samples >= 2:
            variance = (samples * squares[b] - chips[b] * chips[b]) / (samples * (samples - 1))
            ci = Z95 * math.sqrt(samples * max(variance, 0.0)) / hands * 100 / bb
        per_bot.append(BotResult(b, names[b], labels[b], hands, chips[b], rate, ci, samples, won[b], sd[b], sd_won[b]))
    counts = [sum(c.categories[i] for c in chunks) for i in range(9)]
    categories = {c.name: counts[c.value] for c in sorted(HandCategory, reverse=True)}
    result = SimulationResult(
        hands, seed, n, plan.rules, plan.stack, plan.mode, plan.duplicate, chunk, requested, complete, per_bot,
        chunks, categories, sum(c.showdown_hands for c in chunks), sum(c.parole_splits for c in chunks),
        sum(c.decisions for c in chunks), sum(c.dead_chips for c in chunks), seconds, labels, names)
    if plan.mode == "session":
        result.final_stacks, result.bought_in, result.rebuys = total("final_stacks"), total("bought_in"), \
            total("rebuys")
        result.ledger_entries = sum(c.ledger_entries for c in chunks)
        if sum(result.final_stacks) != sum(result.bought_in):
            raise AssertionError(f"chips not conserved: {sum(result.bought_in)} bought in, "
                                 f"{sum(result.final_stacks)} on the tables [R9.5]")
    if sum(chips) != 0:
        raise AssertionError(f"chips not conserved: the bots' results sum to {sum(chips)} [R9.5]")
    if plan.estimator == "aivat":
        _aivat(result, plan, aivat)
    return result


def _aivat(result: SimulationResult, plan: Plan, stats: Any) -> None:
    """Put the AIVAT estimates of the run's sums (the chunks', added up in chunk order) in ``per_bot``."""
    from ..aivat import estimate

    result.estimator = "aivat"
    result.plain = result.per_bot
    result.aivat_samples = plan.samples
    if stats is None:
        result.corrections = [0.0] * plan.players
        result.correction_z = [0.0] * plan.players
        return
    unit, bb = plan.unit, plan.rules.big_blind
    per_bot, corrections, z = [], [], []
    for plain, e in zip(result.plain, estimate(stats), strict=True):
        rate = 100 * e.mean / unit / bb if e.samples else 0.0
        ci = Z95 * math.sqrt(e.variance / e.samples) / unit * 100 / bb if e.samples >= 3 else None
        per_bot.append(BotResult(plain.bot, plain.name, plain.label, plain.hands, plain.chips, rate, ci, e.samples,
                                 plain.hands_won, plain.showdowns, plain.showdowns_won))
        corrections.append(float(100 * e.correction / unit / bb))
        se = math.sqrt(e.correction_variance / e.samples) if e.samples >= 3 else 0.0
        z.append(float(e.correction / se) if se > 0 else 0.0)
    result.per_bot = per_bot
    result.corrections = corrections
    result.correction_z = z



CSV_FIELDS = ("scope", "chunk", "seed", "first_hand", "hands", "bot", "name", "label", "chips", "squares", "samples",
              "hands_won", "showdowns", "showdowns_won", "bb_per_100", "ci95")
"""The columns of :func:`write_csv`."""


def write_csv(result: SimulationResult, stream: TextIO) -> int:
    """Write ``result`` as CSV rows (columns :data:`CSV_FIELDS`, a header first): for each finished
    chunk one row per bot (``scope`` ``chunk``: its seed, first hand, hands, chips won, sum of
    squared sample results, samples, hands won, showdowns and showdowns won), then one row per
    bot for the run (``scope`` ``total``, with ``bb_per_100`` and ``ci95``; with
    ``estimator="aivat"`` these are the plain figures, and one more row per bot, ``scope``
    ``aivat``, has the estimate's ``bb_per_100``, ``ci95`` and samples).  Chunk rows can be
    re-added in any grouping: the interval of a group of chunks is
    ``Z95 * sqrt(k * s2) / hands * 100 / big_blind`` with ``k`` its samples and
    ``s2 = (k * squares - chips**2) / (k * (k - 1))``.

    :returns: the number of rows written (without the header).
    """
    writer = csv.writer(stream)
    writer.writerow(CSV_FIELDS)
    rows = 0
    unit = result.players if result.duplicate else 1
    for c in result.chunks:
        for b, name in enumerate(result.names):
            writer.writerow(["chunk", c.index, c.seed, c.first_hand, c.hands, b, name, result.bots[b], c.chips[b],
                             c.squares[b], c.hands // unit, c.hands_won[b], c.showdowns[b], c.showdowns_won[b], "",
                             ""])
            rows += 1
    for r in result.plain if result.plain is not None else result.per_bot:
        squares = sum(c.squares[r.bot] for c in result.chunks)
        writer.writerow(["total", "", result.seed, 0, r.hands, r.bot, r.name, r.label, r.chips, squares, r.samples,
                         r.hands_won, r.showdowns, r.showdowns_won, repr(r.bb_per_100),
                         "" if r.ci95 is None else repr(r.ci95)])
        rows += 1
    if result.plain is not None:             # estimator="aivat": its estimates, after the plain totals
        for r in result.per_bot:
            writer.writerow(["aivat", "", result.seed, 0, r.hands, r.bot, r.name, r.label, "", "", r.samples,
                             "", "", "", repr(r.bb_per_100), "" if r.ci95 is None else repr(r.ci95)])
            rows += 1
    return rows
