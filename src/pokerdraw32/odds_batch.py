"""Odds of many hands at once (R6.1, R2): :func:`~pokerdraw32.odds.draw_odds` and
:func:`~pokerdraw32.odds.equity` for a batch of hands, on this thread, on every core or on any
:class:`concurrent.futures.Executor` (a Dask cluster's included, see :mod:`pokerdraw32.cluster`).

The hands are cut into chunks of ``chunk`` hands whatever the number of workers and run through
:func:`pokerdraw32.parallel.run_chunks`; the results come back in the order of the hands, each
exactly what the one-hand function returns for that hand:

* ``draw_odds_many(hands, ...)[i] == draw_odds(hands[i], ...)`` (exact counting, no randomness);
* ``equity_many(hands, seed=s, ...)[i] == equity(hands[i], seed=chunk_seed(s, i), ...)``: hand
  ``i`` is simulated with its own seed :func:`~pokerdraw32.parallel.chunk_seed` ``(s, i)``,
  reported in its result (``.seed``), so the results do not depend on ``workers``,
  ``executor`` or ``chunk`` either, and any one hand can be simulated again alone.

Every argument of every hand is checked before any work starts, with the checks and errors of the
one-hand functions; an error about one hand starts with its index (``hands[3]: ...``). A bad batch
is refused whole: nothing runs, no progress is reported.
Ctrl-C raises :class:`BatchInterrupted`, which carries the results that finished.

>>> from pokerdraw32 import draw_odds, format_cards
>>> batch = draw_odds_many(["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s"])
>>> [format_cards(odds.best.discard) for odds in batch]
['7c 8s 9d', '8s']
>>> batch[1] == draw_odds("Kh Qh Jh Th 8s")
True
>>> draw_odds_many(["Ah Ad 7c 8s 9d", "Kh Qh Jh 7h"])
Traceback (most recent call last):
...
pokerdraw32.errors.InvalidCardError: hands[1]: a hand has exactly 5 cards, got 4: 'Kh Qh Jh 7h' [R2]
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import Any, Generic, TypeVar, cast, overload

from .cards import Card, CardsLike, parse_cards
from .errors import InvalidCardError, PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, shown
from .odds import DrawOdds, Equity, EquityTable, _draw_plan, _equity_plan, draw_odds, equity, seed_arg
from .parallel import check_run, chunk_seed, run_chunks
from .rules import Rules

__all__ = ["DRAW_CHUNK", "EQUITY_CHUNK", "BatchInterrupted", "draw_odds_many", "equity_many"]

DRAW_CHUNK = 32
"""Default hands per chunk of :func:`draw_odds_many` (all 31 discards of a hand take about 7 ms
compiled, 80 ms with the pure kernels)."""

EQUITY_CHUNK = 4
"""Default hands per chunk of :func:`equity_many` (all 31 discards of a hand at 10,000 trials each
take about a quarter of a second compiled)."""

R = TypeVar("R")


class BatchInterrupted(KeyboardInterrupt, Generic[R]):
    """Ctrl-C stopped :func:`draw_odds_many` or :func:`equity_many`.

    :ivar results: one entry per hand, in the order of the hands: the hand's result (a
        :class:`~pokerdraw32.odds.DrawOdds`, :class:`~pokerdraw32.odds.Equity` or
        :class:`~pokerdraw32.odds.EquityTable`, exactly as the finished run would have it), or
        ``None`` when its chunk did not finish.
    :ivar finished: how many hands finished.

    A KeyboardInterrupt, so a script stops as usual unless it catches this to keep the partial
    results.
    """

    def __init__(self, results: list[R | None]) -> None:
        self.results = results
        self.finished = sum(r is not None for r in results)
        super().__init__(f"interrupted after {self.finished} of {len(results)} hands")


# --------------------------------------------------------------------------------------
# Checking a batch (before any work starts)


def _hand_list(hands: object) -> list[Any]:
    """The hands of a batch as a list (any iterable but a str or a single card)."""
    example = "e.g. ['Ah Ad 7c 8s 9d', 'Kh Qh Jh Th 8s']"
    if isinstance(hands, (str, bytes, Card)):
        raise PokerDraw32TypeError(f"hands must be a list of 5-card hands, {example}, not a {type(hands).__name__} "
                                   "(for one hand, pass [hand])")
    try:
        items = list(cast(Iterable[Any], hands))
    except TypeError:
        raise PokerDraw32TypeError(f"hands must be a list of 5-card hands, {example}, not "
                                   f"{type(hands).__name__}") from None
    for i, item in enumerate(items):
        if isinstance(item, Card) or (isinstance(item, str) and _one_card(item)):
            raise InvalidCardError(f"hands[{i}] is the single card {shown(item)}: hands is a list of 5-card hands "
                                   "(for one hand, pass [hand]) [R2]", item)
    return items


def _one_card(text: str) -> bool:
    try:
        return len(parse_cards(text)) == 1
    except PokerDraw32Error:
        return False


def _is_set(item: object) -> bool:
    """Whether an item of ``dead`` can only be a set of cards (one hand's dead cards), not one card:
    ``None``, a str of other than one card, an iterable that is not a str."""
    if item is None:
        return True
    if isinstance(item, str):
        try:
            return len(parse_cards(item)) != 1
        except PokerDraw32Error:
            return False          # a bad card: reported where it is parsed
    if isinstance(item, int):     # a Card, or a card's int code
        return False
    try:
        iter(item)                # type: ignore[call-overload]
    except TypeError:
        return False
    return True


def _dead_per_hand(dead: object, n: int) -> list[tuple[Card, ...]]:
    """The dead cards of each of ``n`` hands: one set for all, or one per hand (see :func:`draw_odds_many`)."""
    if dead is None:
        return [()] * n
    shared: Any
    if isinstance(dead, (str, Card)):
        shared = dead
    else:
        try:
            items = list(cast(Iterable[Any], dead))
        except TypeError:
            raise PokerDraw32TypeError(f"dead must be cards (one set for every hand, e.g. 'Kh Kd') or a list of one "
                                       f"set per hand (e.g. ['Kh Kd', '', '7s']), not {shown(dead)}") from None
        sets = [j for j, item in enumerate(items) if _is_set(item)]
        if sets:
            if len(items) != n:
                j = sets[0]
                raise PokerDraw32ValueError(f"dead holds sets of cards (dead[{j}] is {shown(items[j])}), read as one "
                                            f"set per hand: {len(items)} set{'' if len(items) == 1 else 's'} for {n} "
                                            f"hand{'' if n == 1 else 's'}; give one per hand, or one set for every "
                                            "hand as a str")
            per_hand = []
            for j, item in enumerate(items):
                try:
                    per_hand.append(parse_cards(() if item is None else item))
                except PokerDraw32Error as exc:
                    raise _named(f"dead[{j}]", exc) from None
            return per_hand
        if n >= 2 and len(items) == n and items and all(isinstance(item, str) for item in items):
            raise PokerDraw32ValueError(f"dead={shown(items)} is ambiguous with {n} hands: one dead card per hand, or "
                                        f"one set of {n} dead cards for every hand? Pass a str "
                                        f"({' '.join(map(str, items))!r}) for one set for every hand, or a list of "
                                        f"lists ({[[x] for x in items]!r}) for one set per hand")
        shared = items
    try:
        out = parse_cards(shared)
    except PokerDraw32Error as exc:
        raise _named("dead", exc) from None
    return [out] * n


def _named(name: str, exc: PokerDraw32Error) -> PokerDraw32Error:
    """``exc``, of the same class and attributes, its message prefixed with ``name`` (``hands[3]: ...``)."""
    named = copy.copy(exc)
    named.args = (f"{name}: {exc.args[0] if exc.args else exc}", *exc.args[1:])
    return named


def _per_hand(name: str, value: object, n: int, example: str) -> list[Any]:
    """``value``, one item per hand: a list (any iterable but a str) of ``n`` items."""
    if isinstance(value, str):
        raise PokerDraw32TypeError(f"{name} must be a list with one item per hand, {example}, not a str")
    try:
        items = list(cast(Iterable[Any], value))
    except TypeError:
        raise PokerDraw32TypeError(f"{name} must be a list with one item per hand, {example}, not "
                                   f"{type(value).__name__}") from None
    if len(items) != n:
        raise PokerDraw32ValueError(f"{name} has {len(items)} item{'' if len(items) == 1 else 's'} for {n} "
                                    f"hand{'' if n == 1 else 's'}: give one per hand, {example}")
    return items


def _check_run(workers: object, executor: object, chunk: object, progress: object) -> None:
    """The arguments that say how a batch runs (the same checks as :func:`pokerdraw32.simulate`)."""
    check_run(workers, executor)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise PokerDraw32ValueError(f"chunk={shown(chunk)} must be a positive number of hands")
    if progress is not None and not callable(progress):
        raise PokerDraw32TypeError(f"progress must be a callable or None, got {shown(progress)}")


def _run(fn: Callable[[Any], list[R]], spots: list[Any], shared: tuple[Any, ...], *, workers: int | None,
         executor: Executor | None, chunk: int, progress: Callable[[int], None] | None) -> list[R]:
    """Run ``fn((spots[a:b], *shared))`` for each chunk; the results of every spot in order."""
    tasks = [(tuple(spots[a:a + chunk]), *shared) for a in range(0, len(spots), chunk)]
    done = [0]

    def on_done(i: int, result: list[R]) -> None:
        done[0] += len(result)
        if progress is not None:
            progress(done[0])

    outcome = run_chunks(fn, tasks, workers=workers, executor=executor, threads=False, on_done=on_done)
    results: list[R | None] = []
    for i, part in enumerate(outcome.results):
        results.extend(part if part is not None else [None] * len(tasks[i][0]))
    if outcome.interrupted:
        raise BatchInterrupted(results)
    return results      # type: ignore[return-value]   # complete: no None left


# --------------------------------------------------------------------------------------
# Exact draw odds of many hands (R6.1, R2)


def _draw_chunk(task: tuple[Any, ...]) -> list[DrawOdds]:
    """One chunk of :func:`draw_odds_many`, in a worker: :func:`draw_odds` of each of its hands."""
    spots, suit_tiebreak = task
    return [draw_odds(cards, dead=dead, discards=discards, suit_tiebreak=suit_tiebreak)
            for cards, dead, discards in spots]


def draw_odds_many(
    hands: Iterable[CardsLike],
    *,
    dead: CardsLike | Sequence[CardsLike | None] | None = None,
    discards: Sequence[Iterable[CardsLike] | None] | None = None,
    suit_tiebreak: bool = True,
    workers: int | None = 1,
    executor: Executor | None = None,
    chunk: int = DRAW_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> list[DrawOdds]:
    """Exact odds of every discard (R6.1) of each of many 5-card hands: :func:`~pokerdraw32.odds.draw_odds`
    for each, ``chunk`` hands at a time, on this thread, on ``workers`` processes or on ``executor``.

    ``result[i] == draw_odds(hands[i], dead=<its dead cards>, discards=discards[i],
    suit_tiebreak=suit_tiebreak)`` exactly (equal :class:`~pokerdraw32.odds.DrawOdds`: the same
    counts, options and order), whatever ``workers``, ``executor`` and ``chunk``.

    :param hands: ``N`` hands (a list or any iterable but a str), each five distinct cards (R1.3)
        as :func:`~pokerdraw32.odds.draw_odds` takes them: ``"Ah Ad 7c 8s 9d"`` or an iterable of
        :class:`~pokerdraw32.cards.Card`, codes or card strings. ``N = 0`` gives ``[]``.
    :param dead: the cards that cannot be drawn (R1.1), none of them in the hand:

        * ``None`` (default): none, for every hand;
        * one set for every hand: a str (``"Kh Kd"``) or an iterable of cards (``Card`` objects,
          codes or one-card strings: ``["Kh", "Kd"]``);
        * one set per hand: a list of ``N`` sets, each a str, an iterable of cards or ``None``
          (``["Kh Kd", "", None]``, ``[["Kh"], ["Kd"]]``). A list is read per hand when one of
          its items is a set (``None``, a str of other than one card, an iterable); a list of
          ``N >= 2`` one-card strings could be either and is refused.

    :param discards: ``None`` (default): all 31 discards of every hand; else a list of ``N`` items,
        item ``i`` the ``discards`` of hand ``i`` as :func:`~pokerdraw32.odds.draw_odds` takes them
        (a list of discards, each 0 to 4 cards of the hand, ``""`` standing pat), or ``None`` for
        all 31.
    :param suit_tiebreak: R2.4, for every hand.
    :param workers: how many chunks run at once when no ``executor`` is given: 1 (default) on this
        thread; more on as many processes (the counting is Python code holding the GIL with the
        pure kernels); ``None`` every core (:func:`pokerdraw32.parallel.default_workers`).
    :param executor: any :class:`concurrent.futures.Executor` to run the chunks on (a
        ``ProcessPoolExecutor``, Dask's ``client.get_executor()``, ...); it is not shut down.
    :param chunk: hands per chunk, >= 1 (default :data:`DRAW_CHUNK`); the results do not depend on it.
    :param progress: called on this thread with the number of hands finished so far, after each chunk.
    :returns: a list of ``N`` :class:`~pokerdraw32.odds.DrawOdds`, in the order of ``hands``.
    :raises PokerDraw32TypeError: ``hands``, ``dead`` or ``discards`` of the wrong type (a str where a
        list is meant), ``suit_tiebreak`` not a bool, ``executor`` not an Executor, ``progress`` not
        callable; or an error of :func:`~pokerdraw32.odds.draw_odds` for hand ``i``, its message
        starting ``hands[i]:``.
    :raises InvalidCardError: a bad or repeated card, a hand of other than 5 cards, a dead card in
        the hand, a discarded card not in the hand (R1.3, R1.1), naming ``hands[i]`` (or ``dead``,
        ``dead[i]``).
    :raises PokerDraw32ValueError: ``dead`` or ``discards`` with other than one item per hand, an
        ambiguous ``dead``, ``workers`` or ``chunk`` not a positive int; a discard of 5 cards
        (R6.1), a discard listed twice, no discards, too few unseen cards (naming ``hands[i]``).
    :raises BatchInterrupted: Ctrl-C; it carries the results of the chunks that finished.

    Nothing runs until every hand has been checked.

    >>> from pokerdraw32 import HandCategory
    >>> batch = draw_odds_many(["Ah Ad 7c 8s 9d", "Ah Ad 7c 8s 9d"], dead=["", "Ac Ks"],
    ...                        discards=[["7c 8s 9d"], ["7c 8s 9d"]])
    >>> [odds.best.at_least(HandCategory.THREE_OF_A_KIND) for odds in batch]   # one ace fewer to draw
    [Fraction(644, 2925), Fraction(73, 575)]
    >>> draw_odds_many(["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s"], discards=[None, []])
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: hands[1]: no discards given: list at least one, or pass None for all 31
    """
    _check_run(workers, executor, chunk, progress)
    if not isinstance(suit_tiebreak, bool):
        raise PokerDraw32TypeError(f"suit_tiebreak must be True or False, got {shown(suit_tiebreak)}")
    items = _hand_list(hands)
    n = len(items)
    dead_sets = _dead_per_hand(dead, n)
    chosen = [None] * n if discards is None else _per_hand(
        "discards", discards, n, "e.g. [None, ['7c 8s 9d', '']] (None: all 31 discards of that hand)")
    spots = []
    for i in range(n):
        try:
            cards, out, picked, _, _ = _draw_plan(items[i], dead_sets[i], chosen[i])
        except PokerDraw32Error as exc:
            raise _named(f"hands[{i}]", exc) from None
        spots.append((cards, out, None if chosen[i] is None else tuple(picked)))
    if not spots:
        return []
    return _run(_draw_chunk, spots, (suit_tiebreak,), workers=workers, executor=executor, chunk=chunk,
                progress=progress)


# --------------------------------------------------------------------------------------
# Monte Carlo equity of many hands (R6.1, R6.2, R2, R9.4, R11)


def _equity_chunk(task: tuple[Any, ...]) -> list[Equity | EquityTable]:
    """One chunk of :func:`equity_many`, in a worker: :func:`equity` of each of its hands."""
    spots, opponents, top, policy, trials, position, folded, rules, suit_tiebreak, confidence = task
    return [equity(cards, opponents, discard=discard, top=top, policy=policy, trials=trials, seed=seed,
                   position=position, dead=dead, folded=folded, rules=rules, suit_tiebreak=suit_tiebreak,
                   confidence=confidence)
            for cards, dead, discard, seed in spots]


@overload
def equity_many(
    hands: Iterable[CardsLike],
    opponents: int = ...,
    *,
    discard: None = ...,
    top: int | None = ...,
    policy: str = ...,
    trials: int = ...,
    seed: int | None = ...,
    position: int = ...,
    dead: CardsLike | Sequence[CardsLike | None] | None = ...,
    folded: int = ...,
    rules: Rules | None = ...,
    suit_tiebreak: bool | None = ...,
    confidence: float = ...,
    workers: int | None = ...,
    executor: Executor | None = ...,
    chunk: int = ...,
    progress: Callable[[int], None] | None = ...,
) -> list[EquityTable]: ...


@overload
def equity_many(
    hands: Iterable[CardsLike],
    opponents: int = ...,
    *,
    discard: Sequence[CardsLike],
    top: None = ...,
    policy: str = ...,
    trials: int = ...,
    seed: int | None = ...,
    position: int = ...,
    dead: CardsLike | Sequence[CardsLike | None] | None = ...,
    folded: int = ...,
    rules: Rules | None = ...,
    suit_tiebreak: bool | None = ...,
    confidence: float = ...,
    workers: int | None = ...,
    executor: Executor | None = ...,
    chunk: int = ...,
    progress: Callable[[int], None] | None = ...,
) -> list[Equity]: ...


def equity_many(
    hands: Iterable[CardsLike],
    opponents: int = 1,
    *,
    discard: Sequence[CardsLike] | None = None,
    top: int | None = None,
    policy: str = "rule",
    trials: int = 10_000,
    seed: int | None = None,
    position: int = 0,
    dead: CardsLike | Sequence[CardsLike | None] | None = None,
    folded: int = 0,
    rules: Rules | None = None,
    suit_tiebreak: bool | None = None,
    confidence: float = 0.95,
    workers: int | None = 1,
    executor: Executor | None = None,
    chunk: int = EQUITY_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> list[EquityTable] | list[Equity]:
    """Monte Carlo equity of each of many hands against ``opponents`` random hands that draw by a
    policy: :func:`~pokerdraw32.odds.equity` for each (see it for the model: the deal, the draw with
    the reshuffle of R6.2, the showdown of R2 and R9.4), ``chunk`` hands at a time, on this thread,
    on ``workers`` processes or on ``executor``.

    Hand ``i`` is simulated with the seed :func:`~pokerdraw32.parallel.chunk_seed` ``(seed, i)``
    (R11.1): ``result[i] == equity(hands[i], opponents, discard=discard[i], seed=chunk_seed(seed, i),
    ...)`` exactly, whatever ``workers``, ``executor`` and ``chunk``; each result reports its seed
    (``.seed``; for a table, that of each of its options). All the discards of one hand share its
    seed (common random numbers, as in :func:`~pokerdraw32.odds.equity`); different hands get
    independent streams.

    :param hands: ``N`` hands (a list or any iterable but a str), each the hero's five distinct
        cards (R1.3). ``N = 0`` gives ``[]``.
    :param opponents: 1 to 4 (R3.1), for every hand.
    :param discard: ``None`` (default): every legal discard of every hand (or its ``top`` best by
        exact expected strength), one :class:`~pokerdraw32.odds.EquityTable` per hand; else a list
        of ``N`` discards, one per hand, each 0 to 4 cards of its hand (``""`` stands pat), one
        :class:`~pokerdraw32.odds.Equity` per hand.
    :param top: with ``discard=None``, simulate only each hand's ``top`` best discards.
    :param policy: the opponents' draw policy, a key of :data:`~pokerdraw32.odds.POLICIES`.
    :param trials: trials per discard, 1 to 2**40 (default 10,000).
    :param seed: ``0 <= seed < 2**64``, the seed of the batch (hand ``i`` gets ``chunk_seed(seed,
        i)``); ``None`` draws one from the operating system (each hand's own seed is reported in
        its result).
    :param position: the hero's place in the draw order, 0 to ``opponents`` (R6.1), for every hand.
    :param dead: the cards known to be out of play: ``None``, one set for every hand, or one set
        per hand, read as in :func:`draw_odds_many`.
    :param folded: players who folded before the draw, with unknown cards (R3.1), for every hand.
    :param rules: the :class:`~pokerdraw32.rules.Rules` whose ``suit_tiebreak`` (R2.4) and
        ``reshuffle_folded`` (R6.2) apply; default the classic preset.
    :param suit_tiebreak: overrides ``rules.suit_tiebreak`` when given.
    :param confidence: level of the Wilson intervals, ``0 < confidence < 1`` (default 0.95).
    :param workers: how many chunks run at once when no ``executor`` is given: 1 (default) on this
        thread, more on as many processes, ``None`` every core.
    :param executor: any :class:`concurrent.futures.Executor` to run the chunks on; not shut down.
    :param chunk: hands per chunk, >= 1 (default :data:`EQUITY_CHUNK`); the results do not depend on it.
    :param progress: called on this thread with the number of hands finished so far, after each chunk.
    :returns: a list of ``N`` :class:`~pokerdraw32.odds.EquityTable` (``discard=None``) or
        :class:`~pokerdraw32.odds.Equity`, in the order of ``hands``.
    :raises PokerDraw32TypeError: ``hands``, ``dead`` or ``discard`` of the wrong type (a str where
        a list is meant, ``None`` for one hand's discard), ``executor`` not an Executor, ``progress``
        not callable, ``seed`` not an int; an argument shared by every hand of the wrong type, as
        :func:`~pokerdraw32.odds.equity` says it (``opponents``, ``policy``, ``rules``, ...).
    :raises InvalidCardError: a bad or repeated card, a hand of other than 5 cards, a dead card in
        the hand, a discarded card not in the hand (R1.3, R1.1), naming ``hands[i]`` (or ``dead``,
        ``dead[i]``).
    :raises PokerDraw32ValueError: ``dead`` or ``discard`` with other than one item per hand, an
        ambiguous ``dead``, ``workers`` or ``chunk`` not a positive int, ``seed`` out of range
        (R11.1); a shared argument out of range, as :func:`~pokerdraw32.odds.equity` says it
        (``opponents`` or ``folded``, R3.1; ``position``, R6.1; ``trials``, ``top``,
        ``confidence``, an unknown policy, ``top`` with ``discard``); for hand ``i``, naming
        ``hands[i]``: a discard of 5 cards (R6.1), so many dead cards that the hands cannot be
        dealt (R3.1) or a draw completed (R6.2).
    :raises BatchInterrupted: Ctrl-C; it carries the results of the chunks that finished.

    Nothing runs until every hand has been checked.

    >>> from pokerdraw32 import equity
    >>> from pokerdraw32.parallel import chunk_seed
    >>> spots = equity_many(["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s"], 2, discard=["7c 8s 9d", "8s"], trials=2000,
    ...                     seed=7)
    >>> spots[1] == equity("Kh Qh Jh Th 8s", 2, discard="8s", trials=2000, seed=chunk_seed(7, 1))
    True
    >>> equity_many(["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s"], 2, discard=["7c 8s 9d", "8s Kh"], folded=3)
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: folded=3 with 2 opponents: 6 players dealt in, at most 5 [R3.1]
    >>> equity_many(["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s"], 2, discard=["7c 8s 9d", "8s Ah"])
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.InvalidCardError: hands[1]: discard 8s Ah: Ah is not in the hand Kh Qh Jh Th 8s
    """
    _check_run(workers, executor, chunk, progress)
    items = _hand_list(hands)
    n = len(items)
    dead_sets = _dead_per_hand(dead, n)
    picks: list[Any] = [None] * n
    if discard is not None:
        picks = _per_hand("discard", discard, n, "e.g. ['7c 8s 9d', ''] ('' stands pat)")
        for i, item in enumerate(picks):
            if item is None:
                raise PokerDraw32TypeError(f"discard[{i}] is None: give one discard per hand ('' stands pat), or "
                                           "discard=None for every discard of every hand")
    seed = seed_arg(seed)
    if n >= 1 << 63:      # pragma: no cover -- chunk_seed's index limit, far beyond any memory
        raise PokerDraw32ValueError(f"{n} hands: at most 2**63")
    # the arguments every hand shares, checked once (on a hand they cannot fail for), so that their errors
    # name no hand; then each hand with its own cards, dead cards, discard and seed
    shared = _equity_plan("Ah Kh Qh Jh Th", opponents, None if discard is None else "", top, policy, trials, 0,
                          position, (), folded, rules, suit_tiebreak, confidence)
    spots = []
    for i in range(n):
        try:
            plan = _equity_plan(items[i], opponents, picks[i], top, policy, trials, chunk_seed(seed, i), position,
                                dead_sets[i], folded, rules, suit_tiebreak, confidence)
        except PokerDraw32Error as exc:
            raise _named(f"hands[{i}]", exc) from None
        spots.append((plan.cards, plan.dead, plan.discard, plan.seed))
    if not spots:
        return []
    common = (shared.opponents, top, policy, shared.trials, shared.position, shared.folded, shared.rules,
              shared.suit_tiebreak, confidence)
    results: list[Any] = _run(_equity_chunk, spots, common, workers=workers, executor=executor, chunk=chunk,
                              progress=progress)
    return results
