"""One chunk of a simulation: the hands :func:`pokerdraw32.simulate` cuts a run into.

A chunk is played exactly as a run of its own seeded with its seed
(:func:`pokerdraw32.parallel.chunk_seed`): the seed's generator gives each bot its seed, one
per seat whatever the bot, then the table's.  Three ways to play it, one result:

* every bot built in compiled code (``"rule"``/``"random"``) and no ``sit_out``: a
  :class:`pokerdraw32._handcore.play.Session`, in compiled code when extensions are on;
* ``mode="session"`` otherwise: a :class:`~pokerdraw32.table.Table` and the bots' objects;
* ``mode="reset"`` otherwise: a :class:`~pokerdraw32.hand.Hand` per hand, dealt as the
  session deals it.

The suite plays the built-in bots both ways (names and classes) and compares the results.
Everything here runs in a worker (a thread, a process, a Dask worker): the plan and the
results pickle.
"""

from __future__ import annotations

import copy
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._kernels import Rng, evaluate_mask, play
from ..actions import Action
from ..bots import Bot, BotFactory, RandomBot, RuleBot, SeatView, known_policy
from ..errors import IllegalActionError, InvalidCardError, PokerDraw32Error, PokerDraw32TypeError
from ..hand import Hand
from ..history import HandHistory, HistoryWriter
from ..rules import Rules
from ..table import Table, default_buy_ins

TRACE_HANDS = 100
"""A chunk records each bot's running total about every this many hands (for plots)."""

BUILT_IN: dict[str, type[Bot]] = {"rule": RuleBot, "random": RandomBot}
"""The bot names whose policies :mod:`pokerdraw32._handcore.play` plays in compiled code (a line-up's
``"rule"`` and ``"random"`` stay names); every other name is a :class:`Named`."""


@dataclass(frozen=True)
class Named:
    """A line-up's bot given by a registered name (:func:`pokerdraw32.bots.bot_names`) that is
    not in :data:`BUILT_IN`, with its factory: a worker process gets the factory itself (by pickle,
    a reference to it), so a name registered in this process only plays there too."""

    name: str
    factory: BotFactory

    def make(self, seed: int | None) -> Bot:
        """A new bot (as :func:`pokerdraw32.bots.make_bot`).

        :raises PokerDraw32TypeError: the factory made something else than a :class:`Bot`."""
        bot = self.factory(seed)
        if not isinstance(bot, Bot):
            raise PokerDraw32TypeError(f"bot {self.name!r}: its factory made a {type(bot).__name__}, not a "
                                       "pokerdraw32.bots.Bot")
        return bot


@dataclass(frozen=True)
class Plan:
    """What every chunk of a run plays (checked by :func:`pokerdraw32.simulate`)."""

    players: int
    rules: Rules
    stack: int
    specs: tuple[Any, ...]          # per bot: "rule", "random", a Named, a bot object, a callable or a class
    mode: str                       # "reset" or "session"
    duplicate: bool
    sit_out: float
    history: bool
    on_hand: Callable[[Hand], None] | None = None   # only when the chunks run on the caller's thread
    estimator: str = "plain"        # "plain" or "aivat" (pokerdraw32.aivat; mode "reset")
    samples: int = 128              # aivat: outcomes each sampled expectation takes

    @property
    def unit(self) -> int:
        """Hands in one sample of a bot's result: a deal played by every rotation (duplicate) or a hand."""
        return self.players if self.duplicate else 1


@dataclass
class ChunkResult:
    """One chunk's results; lists are per bot (the line-up's order), chips are integers.

    ``squares`` is the sum over the chunk's samples (hands, or deals with duplicate) of each
    sample's result squared; ``trace`` is ``[(hands, [running total per bot]), ...]`` within the
    chunk."""

    index: int
    seed: int
    first_hand: int
    hands: int
    chips: list[int]
    squares: list[int]
    hands_won: list[int]
    showdowns: list[int]
    showdowns_won: list[int]
    categories: list[int]
    showdown_hands: int
    parole_splits: int
    decisions: int
    dead_chips: int = 0
    bought_in: list[int] = field(default_factory=list)
    rebuys: list[int] = field(default_factory=list)
    final_stacks: list[int] = field(default_factory=list)
    ledger_entries: int = 0
    trace: list[tuple[int, list[int]]] = field(default_factory=list)
    history: str | None = None
    seconds: float = 0.0
    aivat: Any = None                # estimator="aivat": the chunk's pokerdraw32.aivat.AivatStats


def names_of(specs: tuple[Any, ...]) -> tuple[list[str], list[str]]:
    """The bots' labels (class or function names) and seat names (``rule0``, ``random1``, ...)."""
    labels, names = [], []
    for i, spec in enumerate(specs):
        if isinstance(spec, str):
            label = BUILT_IN[spec].__name__
        elif isinstance(spec, Named):      # its class's name, and the seat's name from the bot's name
            label = spec.factory.__name__ if isinstance(spec.factory, type) else spec.name
            labels.append(label)
            names.append(f"{spec.name.replace('-', '_')}{i}")
            continue
        elif isinstance(spec, type):
            label = spec.__name__
        else:
            label = getattr(spec, "__name__", None) or type(spec).__name__
        labels.append(label)
        base = label.lower() if label.isidentifier() else "bot"
        names.append(f"{base.removesuffix('bot') or base}{i}")
    return labels, names


def play_chunk(task: tuple[Plan, int, int, int, int]) -> ChunkResult:
    """Play chunk ``(plan, index, seed, first_hand, hands)`` (``hands``: a whole number of
    ``plan.unit``)."""
    plan, index, seed, first, hands = task
    rng = Rng(seed)
    seeds = [rng.next_u64() for _ in plan.specs]     # one per seat, whatever the bot
    table_seed = rng.next_u64()
    evaluate_mask(0x1F)     # the evaluator builds its tables on first use (10-40 ms): before the clock
    start = time.perf_counter()
    if plan.sit_out == 0 and plan.estimator == "plain" and all(isinstance(s, str) for s in plan.specs):
        result = _session_chunk(plan, seeds, table_seed, first, hands)
    else:
        bots = [_bot(i, spec, seeds[i]) for i, spec in enumerate(plan.specs)]
        if plan.mode == "session":
            result = _table_chunk(plan, bots, rng, table_seed, first, hands)
        else:
            result = _hand_chunk(plan, bots, table_seed, first, hands, seed)
    result.index, result.seed = index, seed
    result.seconds = time.perf_counter() - start
    return result


# -- the results --------------------------------------------------------------------------------

class _Tally:
    """A chunk's per-bot results, fed hand by hand (the Python paths) or by the session's tally."""

    def __init__(self, plan: Plan, first: int) -> None:
        n = plan.players
        self.n, self.unit, self.first = n, plan.unit, first
        self.every = max(1, TRACE_HANDS // self.unit) * self.unit
        self.chips = [0] * n
        self.squares = [0] * n
        self.deal = [0] * n          # the current deal's running result (duplicate)
        self.won = [0] * n
        self.sd = [0] * n
        self.sd_won = [0] * n
        self.hands = 0
        self.trace: list[tuple[int, list[int]]] = []

    def hand(self, results: list[int], showdown: list[bool]) -> None:
        """One hand's result per bot, and whether each bot went to the showdown."""
        for b, won in enumerate(results):
            self.chips[b] += won
            self.deal[b] += won
            if won > 0:
                self.won[b] += 1
            if showdown[b]:
                self.sd[b] += 1
                if won > 0:
                    self.sd_won[b] += 1
        self.hands += 1
        if self.hands % self.unit == 0:
            for b in range(self.n):
                self.squares[b] += self.deal[b] * self.deal[b]
                self.deal[b] = 0
        if self.hands % self.every == 0:
            self.trace.append((self.hands, list(self.chips)))

    def add(self, chips: list[int], squares: list[int], k: int) -> None:
        """``k`` more hands (whole samples) of a session: each bot's chips and squares over them
        (:meth:`pokerdraw32._handcore.play.Session.take_tally`); a trace point every ``every`` hands."""
        for b in range(self.n):
            self.chips[b] += chips[b]
            self.squares[b] += squares[b]
        self.hands += k
        if self.hands % self.every == 0:
            self.trace.append((self.hands, list(self.chips)))

    def finish(self, hands: int, categories: list[int], showdown_hands: int, parole: int,
               decisions: int) -> ChunkResult:
        if self.hands % self.every:
            self.trace.append((self.hands, list(self.chips)))
        return ChunkResult(0, 0, self.first, hands, self.chips, self.squares, self.won, self.sd, self.sd_won,
                           categories, showdown_hands, parole, decisions, trace=self.trace)


# -- the session: built-in bots only ------------------------------------------------------------

def _session_chunk(plan: Plan, seeds: list[int], table_seed: int, first: int, hands: int) -> ChunkResult:
    n = plan.players
    keep = plan.history or plan.on_hand is not None
    policies = [play.RULE if spec == "rule" else play.RANDOM for spec in plan.specs]
    session = play.Session(Hand, plan.rules, plan.stack, policies, [Rng(s) for s in seeds] + [Rng(table_seed)],
                           keep_hands=keep, reset=plan.mode == "reset", duplicate=plan.duplicate,
                           button=first_button(plan, first))
    tally = _Tally(plan, first)
    _, names = names_of(plan.specs)
    text = io.StringIO() if plan.history else None
    writer = _writer(text, first)
    done = 0
    while done < hands:                                   # a trace point's worth of hands a call
        k = min(tally.every, hands - done)
        if keep:                                          # hand by hand, each a new Hand object
            for j in range(k):
                session.play(1)
                _record(session.hand, first + done + j + 1, names, plan, writer)
        else:
            session.play(k)
        tally.add(*session.take_tally(), k)
        done += k
    sd, sd_won = session.bot_showdowns
    tally.won, tally.sd, tally.sd_won = session.hands_won, sd, sd_won
    counts = session.categories
    result = tally.finish(hands, counts, session.showdowns, session.parole_splits, session.decisions)
    if plan.mode == "session":
        result.final_stacks, result.bought_in, result.rebuys = session.stacks, session.bought_in, session.rebuys
        result.ledger_entries = n + sum(result.rebuys) + hands * n    # buy-ins, re-buys, a line per seat a hand
    result.history = text.getvalue() if text is not None else None
    return result


def _writer(text: io.StringIO | None, first: int) -> HistoryWriter | None:
    """A chunk's history writer: its tables numbered from ``first + 1``, the run's hand numbers,
    so that the chunks' texts, written one after another, are one ``.phhs`` file."""
    if text is None:
        return None
    writer = HistoryWriter(text)
    writer.count = first
    return writer


def _record(h: Hand, number: int, names: list[str], plan: Plan, writer: HistoryWriter | None) -> None:
    if plan.on_hand is not None:
        plan.on_hand(h)
    if writer is not None:
        n = plan.players
        rot = (number - 1) % n if plan.duplicate else 0
        writer.write(HandHistory.from_hand(h, number=number, seats=list(range(1, n + 1)),
                                           players=[names[(s - rot) % n] for s in range(n)]))


# -- the Python paths: any bot ------------------------------------------------------------------

Decide = Callable[[SeatView], Any]
Seated = tuple[Decide, bool, 'Rng | None', 'Callable[[SeatView], Any] | None']
"""A bot in a chunk: its decide function, whether it is a user's bot (its actions checked), its
generator, and its ``action_probabilities`` when :func:`~pokerdraw32.bots.known_policy` trusts it."""


def _bot(i: int, spec: Any, seed: int) -> Seated:
    """Bot ``i``'s decide function for a chunk, whether it is a user's bot (its actions are
    checked with a message naming it), its generator when it has one (a :class:`Bot`'s
    ``rng``; duplicate deals put it back for each rotation), and its known distribution
    (:func:`~pokerdraw32.bots.known_policy`, for the AIVAT estimator).  A class is instantiated (a
    :class:`Bot` subclass with the seat's seed); an object is copied (as a worker in another
    process would get it)."""
    if isinstance(spec, str):
        builtin = BUILT_IN[spec](seed)
        return builtin.decide, False, builtin.rng, known_policy(builtin)
    if isinstance(spec, Named):
        made = spec.make(seed)
        return made.decide, True, made.rng, known_policy(made)
    bot: Any = spec
    if isinstance(spec, type):
        try:
            bot = spec(seed) if issubclass(spec, Bot) else spec()
        except Exception as e:
            raise PokerDraw32TypeError(f"bots[{i}]: cannot make a {spec.__name__}: {type(e).__name__}: {e}") from e
    else:
        try:
            bot = copy.deepcopy(spec)
        except Exception as e:
            raise PokerDraw32TypeError(f"bots[{i}]: {type(spec).__name__} cannot be copied for each chunk of hands "
                                       f"({e}); pass its class, or a bot that copy.deepcopy can copy") from e
    decide = getattr(bot, "decide", None)
    if decide is None or not callable(decide):
        decide = bot
    rng = getattr(bot, "rng", None)
    return decide, True, rng if isinstance(rng, Rng) else None, known_policy(bot)


def first_button(plan: Plan, first: int) -> int:
    """The button of a chunk's first hand (reset mode: where it would be had the run not been cut,
    one seat on each hand, or each duplicate deal; session mode: seat 0, a new table's, R4.1)."""
    return 0 if plan.mode == "session" else first // plan.unit % plan.players


def _ask(decide: Decide, h: Hand, seat: int, name: str, check: bool, view: SeatView | None = None) -> object:
    """A bot's decision for the seat to act in ``h`` (from ``view``, its :class:`SeatView`, when
    given); what a user's bot raises is raised again as :class:`BotError` naming the seat and the
    bot, but an :class:`IllegalActionError` (a bot that found its own choice illegal: a
    :class:`~pokerdraw32.env.PolicyBot` whose policy picked an index outside the mask) stays one,
    as an illegal action returned (:func:`_act`)."""
    if view is None:
        view = SeatView.of(h)
    if not check:
        return decide(view)
    try:
        return decide(view)
    except IllegalActionError as e:
        text = str(e).rsplit(" [", 1)[0] if e.rule is not None else str(e)
        raise IllegalActionError(f"seat {seat} ({name}): {text}", seat=seat, rule=e.rule) from e
    except Exception as e:
        raise BotError(f"seat {seat} ({name}): the bot raised {type(e).__name__}: {e}", seat=seat) from e


class BotError(PokerDraw32Error):
    """A user's bot raised an exception while deciding (the message names the seat and the bot)."""

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


def _rng_of(bot: Seated) -> Rng:
    """A built-in bot's generator."""
    assert bot[2] is not None
    return bot[2]


def _act(h: Hand | Table, seat: int, name: str, action: object, check: bool) -> None:
    """Bot ``name``'s action for seat ``seat`` (a table seat, or the hand's seat to act); a user's
    bot's illegal action is refused with the package's error naming the seat, the bot and the
    action (nothing changed)."""
    if check and not isinstance(action, (Action, str)):
        raise PokerDraw32TypeError(f"seat {seat} ({name}): the bot returned {action!r}, not an Action or an "
                                   "action text")
    try:
        if isinstance(h, Table):
            h.act(seat, action)  # type: ignore[arg-type]
        else:
            h.act(action, seat)  # type: ignore[arg-type]
    except (IllegalActionError, InvalidCardError) as e:
        if not check:
            raise
        raise IllegalActionError(f"seat {seat} ({name}): the bot chose {str(action)!r}, which is not legal: {e}",
                                 seat=seat) from e


def _showdown_of(h: Hand) -> tuple[bool, list[bool]]:
    result = h.result
    assert result is not None
    live = set(h.live_seats) if result.showdown else set()
    return result.showdown, [s in live for s in range(h.n)]


def _categories(h: Hand, counts: list[int]) -> None:
    for s in h.live_seats:
        m = 0
        for c in h.hole[s]:
            m |= 1 << c
        counts[evaluate_mask(m) >> 22] += 1


def _hand_chunk(plan: Plan, bots: list[Seated], table_seed: int, first: int, hands: int,
                seed: int = 0) -> ChunkResult:
    """``mode="reset"`` with any bots: each hand a :class:`Hand` from the starting stacks, dealt as
    :class:`pokerdraw32._handcore.play.Session` deals it (the button from seat 0, one seat on each hand, or
    each deal; a duplicate deal's every rotation shuffled from the same generator state, and each
    bot that has a generator, a :class:`Bot`'s ``rng``, drawing from the same state too).  With
    ``plan.estimator == "aivat"`` each hand's control variates are computed as it is played
    (:mod:`pokerdraw32.aivat`, from its own generator seeded by the chunk's ``seed``)."""
    n = plan.players
    _, names = names_of(plan.specs)
    table_rng = Rng(table_seed)
    tally = _Tally(plan, first)
    text = io.StringIO() if plan.history else None
    writer = _writer(text, first)
    categories = [0] * 9
    showdowns = parole = decisions = 0
    start = first_button(plan, first)
    generators = [table_rng] + [rng for _, _, rng, _ in bots if rng is not None]
    saved = [g.getstate() for g in generators]
    estimator = _Estimator(plan, bots, seed, first) if plan.estimator == "aivat" else None
    for k in range(hands):
        deal, rot = (k // n, k % n) if plan.duplicate else (k, 0)
        if plan.duplicate:      # the deal's deck, and each bot's generator (common random numbers)
            if rot == 0:
                saved = [g.getstate() for g in generators]
            else:
                for g, state in zip(generators, saved, strict=True):
                    g.setstate(state)
        h = Hand(plan.rules, [plan.stack] * n, button=(start + deal) % n, rng=table_rng)
        features = estimator.deal(h, rot) if estimator is not None else None
        while h.actor is not None:
            seat = h.actor
            b = (seat - rot) % n
            decide, check, _, probabilities = bots[b]
            if features is None:
                _act(h, seat, names[b], _ask(decide, h, seat, names[b], check), check)
            else:
                view = SeatView.of(h)
                known = _ask(probabilities, h, seat, names[b], check, view) if probabilities is not None else None
                features.before(seat, view, known)
                action = _ask(decide, h, seat, names[b], check, view)
                _act(h, seat, names[b], action, check)
                features.after(action)
            decisions += 1
        showdown, live = _showdown_of(h)
        results = [h.stacks[(b + rot) % n] - plan.stack for b in range(n)]
        tally.hand(results, [live[(b + rot) % n] for b in range(n)])
        if estimator is not None:
            assert features is not None
            estimator.hand(results, features.features[[(b + rot) % n for b in range(n)]], k)
        if showdown:
            showdowns += 1
            _categories(h, categories)
        assert h.result is not None
        if any(p.shared for p in h.result.pots):
            parole += 1
        _record(h, first + k + 1, names, plan, writer)
    result = tally.finish(hands, categories, showdowns, parole, decisions)
    result.history = text.getvalue() if text is not None else None
    if estimator is not None:
        result.aivat = estimator.finish()
    return result


class _Estimator:
    """A chunk's AIVAT bookkeeping (:mod:`pokerdraw32.aivat`, imported only for ``estimator="aivat"``:
    it needs numpy): each sample's (hand's, or duplicate deal's) results and features go to the
    half of the run given by the sample's index in the whole run, a batch at a time."""

    BATCH = 256

    def __init__(self, plan: Plan, bots: list[Seated], seed: int, first: int) -> None:
        from .. import aivat

        self.aivat = aivat
        self.plan = plan
        self.rng = aivat.generator(seed)
        self.stats = aivat.AivatStats.zeros(plan.players, plan.samples, [bot[3] is not None for bot in bots])
        self.policies = aivat.rollout_policies([bot[3] for bot in bots], self.rng)
        self.first = first // plan.unit
        self.results = [0] * plan.players
        self.features: Any = 0.0
        self.batch: tuple[list[int], list[list[int]], list[Any]] = ([], [], [])

    def deal(self, h: Hand, rot: int = 0) -> Any:
        """The hand's features; ``rot``: bot ``b`` sits in hand seat ``(b + rot) % n`` (a duplicate
        deal's rotation), so seat ``s``'s known policy, for the estimator's rollouts, is bot
        ``(s - rot) % n``'s."""
        n = self.plan.players
        policies = [self.policies[(s - rot) % n] for s in range(n)]
        return self.aivat.HandFeatures(h, self.rng, self.plan.samples, policies)

    def hand(self, results: list[int], features: Any, k: int) -> None:
        unit = self.plan.unit
        self.results = [a + r for a, r in zip(self.results, results, strict=True)] if k % unit else list(results)
        self.features = self.features + features if k % unit else features
        if k % unit == unit - 1:
            halves, us, fs = self.batch
            halves.append((self.first + k // unit) % 2)
            us.append(self.results)
            fs.append(self.features)
            if len(halves) >= self.BATCH:
                self._flush()

    def _flush(self) -> None:
        halves, us, fs = self.batch
        if halves:
            import numpy as np  # present: pokerdraw32.aivat imported it

            self.stats.add_many(np.array(halves), np.array(us, dtype=np.float64), np.array(fs))
        self.batch = ([], [], [])

    def finish(self) -> Any:
        """The chunk's sums (:class:`pokerdraw32.aivat.AivatStats`)."""
        self._flush()
        return self.stats


def _table_chunk(plan: Plan, bots: list[Seated], rng: Rng, table_seed: int, first: int,
                 hands: int) -> ChunkResult:
    """``mode="session"`` with any bots: a :class:`Table` session.  The table moves the button and
    the blinds (R4.1, R4.2) and keeps the ledger; a bot that busts buys in again for the starting
    stack before the next hand (R10.1, R10.4).  With ``sit_out`` > 0, before each hand every bot
    dealt in sits out with that probability and every bot sitting out returns with probability
    1/2, paying the blinds it missed (R10.3); those draws come from ``rng``, the chunk's generator
    after the seeds."""
    n, stack, rules = plan.players, plan.stack, plan.rules
    _, names = names_of(plan.specs)
    lo, hi = default_buy_ins(rules)
    table = Table(rules, seats=n, seed=table_seed, min_buy_in=min(lo, stack),
                  max_buy_in=None if hi is None else max(hi, stack), clock=lambda: 0.0, history=False)
    for i in range(n):
        table.join(i, names[i], stack)
    text = io.StringIO() if plan.history else None
    writer = _writer(text, first)
    threshold = int(plan.sit_out * 1_000_000)
    policies = None if any(check for _, check, _, _ in bots) else \
        [play.RULE if spec == "rule" else play.RANDOM for spec in plan.specs]
    tally = _Tally(plan, first)
    categories = [0] * 9
    showdowns = parole = dead = decisions = 0
    for k in range(hands):
        for s in range(n):
            if table.seat(s).stack == 0:          # busted: re-buy so play continues (R10.1, R10.4)
                table.add_chips(s, stack)
            if threshold:
                away = table.seat(s).sitting_out
                if not away and rng.below(1_000_000) < threshold:
                    table.sit_out(s)
                elif away and rng.below(2) == 0:
                    table.sit_in(s)
        if threshold:
            present = [s for s in range(n) if not table.seat(s).sitting_out]
            for s in range(n):
                if len(present) >= 2:
                    break
                if s not in present:                # a table needs two players
                    table.sit_in(s)
                    present.append(s)
        before = [table.seat(s).stack for s in range(n)]
        h = table.start_hand()
        seat_of = table.hand_seats
        if policies is not None:            # built-in bots only: the whole hand in compiled code
            decisions += play.play_hand(h, [policies[t] for t in seat_of], [_rng_of(bots[t]) for t in seat_of])
            table._after_step(table._now())     # the hand is over: the table settles it
        while h.actor is not None:
            t = seat_of[h.actor]
            decide, check, _, _ = bots[t]
            _act(table, t, names[t], _ask(decide, h, t, names[t], check), check)
            decisions += 1
        result = h.result
        assert result is not None
        dead += h.dead
        showdown, live = _showdown_of(h)
        at_showdown = [False] * n
        for i, t in enumerate(seat_of):
            at_showdown[t] = live[i]
        tally.hand([table.seat(s).stack - before[s] for s in range(n)], at_showdown)
        if showdown:
            showdowns += 1
            _categories(h, categories)
        if any(p.shared for p in result.pots):
            parole += 1
        if plan.on_hand is not None:
            plan.on_hand(h)
        if writer is not None:
            writer.write(HandHistory.from_hand(h, number=first + k + 1, seats=[s + 1 for s in seat_of],
                                               players=[names[s] for s in seat_of]))
    table.check_ledger()
    out = tally.finish(hands, categories, showdowns, parole, decisions)
    out.dead_chips = dead
    out.final_stacks = [table.seat(s).stack for s in range(n)]
    out.bought_in = [sum(e.chips for e in table.ledger if e.seat == s and e.kind in ("buy_in", "add"))
                     for s in range(n)]
    out.rebuys = [sum(1 for e in table.ledger if e.seat == s and e.kind == "add") for s in range(n)]
    out.ledger_entries = len(table.ledger)
    out.history = text.getvalue() if text is not None else None
    return out
