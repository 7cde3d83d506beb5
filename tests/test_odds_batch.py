"""Odds batches (pokerdraw32.odds_batch): draw_odds_many and equity_many give exactly what the
one-hand functions give, hand by hand, on this thread, on worker processes and on any executor;
bad batches are refused whole before any work starts; Ctrl-C keeps what finished."""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from itertools import pairwise
from typing import Any

import pytest

import pokerdraw32
from pokerdraw32 import (
    BatchInterrupted,
    Card,
    HandCategory,
    InvalidCardError,
    PokerDraw32TypeError,
    PokerDraw32ValueError,
    draw_odds,
    draw_odds_many,
    equity,
    equity_many,
)
from pokerdraw32.parallel import chunk_seed

HANDS = ["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s", "Ks Kd 9c 8h 7s", "As Ks Qs Js Ts", "7s 7c 7d 8h 8d",
         "Qc Jd Tc 9s 8h", "Ah Kd Qc Js 9h"]
# Discards of 0 to 3 cards (the 4-card draws are most of the counting): small in the pure build too.
DISCARDS: list[Any] = [["7c 8s 9d", "8s 9d", ""], ["8s", "Th 8s", "Jh Th 8s"], ["9c 8h 7s", "", "Kd 9c 8h 7s"],
                       [""], ["8h 8d", "7d", ""], ["8h", "Qc", "Qc Jd Tc"], ["Js 9h", "Qc Js 9h", "9h"]]
DEAD: list[Any] = ["", "Ac Ks", None, "Ah", ["7h", "8s"], (), "Ad Ac As"]


def one_by_one_draw(hands: list[Any], dead: list[Any], discards: list[Any], **kw: Any) -> list[Any]:
    return [draw_odds(h, dead=d or (), discards=x, **kw) for h, d, x in zip(hands, dead, discards, strict=True)]


class CountingExecutor(ThreadPoolExecutor):
    """A thread pool that counts the tasks submitted to it."""

    submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        CountingExecutor.submitted += 1
        return super().submit(fn, *args, **kwargs)


@pytest.fixture(scope="module")
def processes() -> Any:
    with ProcessPoolExecutor(2) as pool:
        yield pool


@pytest.fixture(scope="module")
def threads() -> Any:
    with ThreadPoolExecutor(3) as pool:
        yield pool


# ---------------------------------------------------------------------------- draw_odds_many


def test_draw_odds_many_all_discards_exact() -> None:
    batch = draw_odds_many(HANDS[:3])
    assert batch == [draw_odds(h) for h in HANDS[:3]]
    assert [len(o.options) for o in batch] == [31, 31, 31]
    best = batch[0].best
    assert best.discard == (Card("7c"), Card("8s"), Card("9d"))
    assert (best.combinations, best.at_least(HandCategory.THREE_OF_A_KIND)) == (2925, Fraction(644, 2925))
    assert [tuple(map(str, o.best.discard)) for o in batch] == [("7c", "8s", "9d"), ("8s",), ("9c", "8h", "7s")]


def test_draw_odds_many_per_hand_dead_and_discards_equal_one_by_one() -> None:
    batch = draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, suit_tiebreak=False)
    assert batch == one_by_one_draw(HANDS, DEAD, DISCARDS, suit_tiebreak=False)
    assert [format_dead(o.dead) for o in batch] == ["", "Ac Ks", "", "Ah", "7h 8s", "", "Ad Ac As"]
    assert batch[6].unseen == 24
    # one ace fewer to draw to the pair of aces: 2 aces or the 73 sets ... counted exactly
    aces = draw_odds_many(["Ah Ad 7c 8s 9d"] * 2, dead=["", "Ac Ks"], discards=[["7c 8s 9d"]] * 2)
    assert [o.best.at_least(HandCategory.THREE_OF_A_KIND) for o in aces] == [Fraction(644, 2925), Fraction(73, 575)]


def format_dead(cards: tuple[Card, ...]) -> str:
    return pokerdraw32.format_cards(cards)


@pytest.mark.parametrize("dead", ["Kc Qd", ["Kc", "Qd"], (Card("Kc"), Card("Qd")), [25, 22], iter(["Kc", "Qd"])],
                         ids=["str", "list", "cards", "codes", "iterator"])
def test_draw_odds_many_one_dead_set_for_every_hand(dead: Any) -> None:
    hands = ["Ah Ad 7c 8s 9d", "Js Jd 7c 8s 9d", "Ts Td 7c 8s 9d"]
    discards = [["7c 8s 9d", ""]] * 3
    expected = [draw_odds(h, dead="Kc Qd", discards=["7c 8s 9d", ""]) for h in hands]
    assert draw_odds_many(hands, dead=dead, discards=discards) == expected


def test_draw_odds_many_one_hand_and_no_hands() -> None:
    assert draw_odds_many([]) == []
    assert draw_odds_many(iter([])) == []
    # a generator of hands; with one hand a list of one-card strings is not ambiguous
    assert draw_odds_many((h for h in HANDS[:1]), dead=["Ks"]) == [draw_odds(HANDS[0], dead="Ks")]


@pytest.mark.parametrize("workers", [1, 2, 3])
@pytest.mark.parametrize("chunk", [1, 3, 32])
def test_draw_odds_many_same_for_any_workers_and_chunk(workers: int, chunk: int) -> None:
    expected = one_by_one_draw(HANDS, DEAD, DISCARDS)
    assert draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, workers=workers, chunk=chunk) == expected


def test_draw_odds_many_on_executors(processes: Executor, threads: Executor) -> None:
    expected = one_by_one_draw(HANDS, DEAD, DISCARDS)
    assert draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, executor=processes, chunk=2) == expected
    assert draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, executor=threads, chunk=2) == expected
    assert draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, workers=None) == expected   # every core


def test_progress_counts_hands_after_each_chunk(processes: Executor) -> None:
    seen: list[int] = []
    draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, chunk=3, progress=seen.append)
    assert seen == [3, 6, 7]
    seen.clear()
    equity_many(HANDS[:5], discard=["7c 8s 9d", "8s", "", "", "7s"], trials=50, seed=1, chunk=2, progress=seen.append)
    assert seen == [2, 4, 5]
    seen.clear()   # chunks finish in any order on processes: the counts still rise to the total
    draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, chunk=2, executor=processes, progress=seen.append)
    assert sorted(seen) == seen and seen[-1] == 7 and len(seen) == 4
    assert sorted(b - a for a, b in pairwise([0, *seen])) == [1, 2, 2, 2]


def test_ctrl_c_keeps_the_finished_chunks() -> None:
    expected = one_by_one_draw(HANDS, DEAD, DISCARDS)

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(BatchInterrupted) as info:
        draw_odds_many(HANDS, dead=DEAD, discards=DISCARDS, chunk=3, progress=stop)
    assert isinstance(info.value, KeyboardInterrupt)
    assert info.value.results == [*expected[:3], None, None, None, None]
    assert info.value.finished == 3
    assert str(info.value) == "interrupted after 3 of 7 hands"

    calls = []

    def stop_second(done: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(BatchInterrupted) as info:
        equity_many(HANDS[:3], discard=["7c 8s 9d", "8s", ""], trials=40, seed=9, chunk=1, progress=stop_second)
    spots = [equity(h, discard=d, trials=40, seed=chunk_seed(9, i))
             for i, (h, d) in enumerate(zip(HANDS[:3], ["7c 8s 9d", "8s", ""], strict=True))]
    assert info.value.results == [*spots[:2], None]


# ---------------------------------------------------------------------------- equity_many


def test_equity_many_hand_i_is_equity_with_seed_chunk_seed_i() -> None:
    discards = ["7c 8s 9d", "8s", "9c 8h 7s", "", "8h 8d"]
    batch = equity_many(HANDS[:5], 2, discard=discards, trials=300, seed=7, dead=DEAD[:5], position=1)
    assert batch == [equity(h, 2, discard=d, trials=300, seed=chunk_seed(7, i), dead=x or (), position=1)
                     for i, (h, d, x) in enumerate(zip(HANDS[:5], discards, DEAD[:5], strict=True))]
    assert [e.seed for e in batch] == [chunk_seed(7, i) for i in range(5)]
    # pinned: the same counts in both builds (the kernels are twins), on any machine
    pinned = equity_many(["Ah Ad 7c 8s 9d"], 2, discard=["7c 8s 9d"], trials=1000, seed=7)[0]
    assert pinned.seed == chunk_seed(7, 0) == 7191089600892374487
    assert pinned.counts == (563, 437, 0, 0, 0, 0)
    assert pinned == equity("Ah Ad 7c 8s 9d", 2, discard="7c 8s 9d", trials=1000, seed=7191089600892374487)


def test_equity_many_tables_equal_one_by_one() -> None:
    tables = equity_many(HANDS[:3], 1, top=3, trials=200, seed=3, suit_tiebreak=False, policy="pat")
    assert tables == [equity(h, 1, top=3, trials=200, seed=chunk_seed(3, i), suit_tiebreak=False, policy="pat")
                      for i, h in enumerate(HANDS[:3])]
    assert [len(t.options) for t in tables] == [3, 3, 3]
    assert all(o.seed == chunk_seed(3, i) for i, t in enumerate(tables) for o in t.options)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_equity_many_same_for_any_workers_chunk_and_executor(workers: int, processes: Executor,
                                                              threads: Executor) -> None:
    discards = ["7c 8s 9d", "8s", "9c 8h 7s", "", "8h 8d", "8h", "9h"]
    expected = equity_many(HANDS, 3, discard=discards, trials=100, seed=11, folded=1, chunk=7)
    assert equity_many(HANDS, 3, discard=discards, trials=100, seed=11, folded=1, chunk=2, workers=workers) == expected
    if workers == 1:
        for pool in (processes, threads):
            assert equity_many(HANDS, 3, discard=discards, trials=100, seed=11, folded=1, chunk=3,
                               executor=pool) == expected


def test_equity_many_without_seed_reports_each_hands_seed() -> None:
    batch = equity_many(HANDS[:2], discard=["", ""], trials=50)
    assert batch == [equity(h, discard="", trials=50, seed=e.seed) for h, e in zip(HANDS[:2], batch, strict=True)]
    assert batch[0].seed != batch[1].seed


# ---------------------------------------------------------------------------- bad input


H2 = ["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s"]

DRAW_BAD = [
    (dict(hands="Ah Ad 7c 8s 9d"), PokerDraw32TypeError, "hands must be a list of 5-card hands, e.g. .*, not a str "
     r"\(for one hand, pass \[hand\]\)"),
    (dict(hands=5), PokerDraw32TypeError, "hands must be a list of 5-card hands, e.g. .*, not int"),
    (dict(hands=("Ah", "Ad", "7c", "8s", "9d")), InvalidCardError,
     r"hands\[0\] is the single card 'Ah': hands is a list of 5-card hands \(for one hand, pass \[hand\]\) \[R2\]"),
    (dict(hands=[H2[0], "Kh Qh Jh Th"]), InvalidCardError,
     r"hands\[1\]: a hand has exactly 5 cards, got 4: 'Kh Qh Jh Th' \[R2\]"),
    (dict(hands=[H2[0], "Kh Qh Jh Th 6h"]), InvalidCardError, r"hands\[1\]: bad card '6h'.*\[R1\.1\]"),
    (dict(hands=[H2[0], "Kh Qh Jh Th Kh"]), InvalidCardError, r"hands\[1\]: duplicate card 'Kh'"),
    (dict(dead="Th"), InvalidCardError, r"hands\[1\]: dead card Th is in the hand Kh Qh Jh Th 8s \[R1\.1\]"),
    (dict(dead="Kc Xx"), InvalidCardError, r"dead: bad card 'Xx'"),
    (dict(dead=["", "Kc Xx"]), InvalidCardError, r"dead\[1\]: bad card 'Xx'"),
    (dict(dead=["Kc Ks"]), PokerDraw32ValueError, r"dead holds sets of cards \(dead\[0\] is 'Kc Ks'\), read as one "
     r"set per hand: 1 set for 2 hands; give one per hand, or one set for every hand as a str"),
    (dict(dead=["Kc", "Ks"]), PokerDraw32ValueError, r"dead=\['Kc', 'Ks'\] is ambiguous with 2 hands: one dead card "
     r"per hand, or one set of 2 dead cards for every hand\? Pass a str \('Kc Ks'\) for one set for every hand, or a "
     r"list of lists \(\[\['Kc'\], \['Ks'\]\]\) for one set per hand"),
    (dict(dead=7.5), PokerDraw32TypeError, r"dead must be cards \(one set for every hand"),
    (dict(discards="7c"), PokerDraw32TypeError, "discards must be a list with one item per hand, .*, not a str"),
    (dict(discards=[None]), PokerDraw32ValueError, "discards has 1 item for 2 hands: give one per hand"),
    (dict(discards=[None, "8s"]), PokerDraw32TypeError,
     r"hands\[1\]: discards must be a list of discards, e\.g\. \['7c 8s 9d', ''\], not a str"),
    (dict(discards=[None, ["Kh Qh Jh Th 8s"]]), PokerDraw32ValueError,
     r"hands\[1\]: discard Kh Qh Jh Th 8s has 5 cards: at most 4 may be discarded \[R6\.1\]"),
    (dict(discards=[["7c", "7c"], None]), PokerDraw32ValueError, r"hands\[0\]: discard 7c is listed twice"),
    (dict(discards=[["Kh"], None]), InvalidCardError, r"hands\[0\]: discard Kh: Kh is not in the hand Ah Ad 7c 8s 9d"),
    (dict(discards=[[], None]), PokerDraw32ValueError, r"hands\[0\]: no discards given"),
    (dict(suit_tiebreak=1), PokerDraw32TypeError, "suit_tiebreak must be True or False, got 1"),
    (dict(workers=0), PokerDraw32ValueError, r"workers=0 must be a positive int \(or None: every core\)"),
    (dict(workers=True), PokerDraw32ValueError, "workers=True must be a positive int"),
    (dict(chunk=0), PokerDraw32ValueError, "chunk=0 must be a positive number of hands"),
    (dict(chunk=2.0), PokerDraw32ValueError, "chunk=2.0 must be a positive number of hands"),
    (dict(executor=object()), PokerDraw32TypeError, "executor must be a concurrent.futures.Executor .*, not object"),
    (dict(progress=5), PokerDraw32TypeError, "progress must be a callable or None, got 5"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), DRAW_BAD)
def test_draw_odds_many_refuses_bad_input_before_any_work(kwargs: dict[str, Any], error: type[Exception],
                                                          message: str) -> None:
    kwargs = {"hands": H2, **kwargs}
    calls: list[int] = []
    CountingExecutor.submitted = 0
    with CountingExecutor(2) as pool:
        kwargs.setdefault("executor", pool)
        kwargs.setdefault("progress", calls.append)
        with pytest.raises(error) as info:
            draw_odds_many(**kwargs)
    assert re.match(message, str(info.value)), str(info.value)
    assert CountingExecutor.submitted == 0 and calls == []


EQUITY_BAD = [
    (dict(hands="Ah Ad 7c 8s 9d"), PokerDraw32TypeError, "hands must be a list of 5-card hands"),
    (dict(hands=[H2[0], "Kh Qh Jh Th"]), InvalidCardError, r"hands\[1\]: a hand has exactly 5 cards, got 4"),
    (dict(opponents=5), PokerDraw32ValueError, r"opponents=5: 1 to 4 opponents, 2 to 5 players are dealt in \[R3\.1\]"),
    (dict(opponents="2"), PokerDraw32TypeError, "opponents must be an int, got '2'"),
    (dict(folded=3, opponents=2), PokerDraw32ValueError, r"folded=3 with 2 opponents: 6 players dealt in, at most 5"),
    (dict(position=2), PokerDraw32ValueError, r"position=2: the hero's place in the draw order is 0 \(first\) to 1"),
    (dict(policy="tight"), PokerDraw32ValueError, "unknown policy 'tight': use one of rule, pat, random"),
    (dict(trials=0), PokerDraw32ValueError, r"trials=0: run 1 to 2\*\*40 trials"),
    (dict(seed=-1), PokerDraw32ValueError, r"seed -1 must be an int with 0 <= seed < 2\*\*64 \[R11\.1\]"),
    (dict(seed=2**64), PokerDraw32ValueError, r"seed .* must be an int with 0 <= seed < 2\*\*64"),
    (dict(seed="7"), PokerDraw32TypeError, "seed must be an int or None, got '7'"),
    (dict(rules="classic"), PokerDraw32TypeError, "rules must be a pokerdraw32.Rules"),
    (dict(confidence=1.0), PokerDraw32ValueError, r"confidence=1\.0: a level between 0 and 1"),
    (dict(top=0), PokerDraw32ValueError, "top=0: simulate at least one discard"),
    (dict(top=2, discard=["", ""]), PokerDraw32ValueError, "top applies only with discard=None"),
    (dict(discard="7c"), PokerDraw32TypeError, "discard must be a list with one item per hand, .*, not a str"),
    (dict(discard=["7c"]), PokerDraw32ValueError, "discard has 1 item for 2 hands: give one per hand"),
    (dict(discard=["7c", None]), PokerDraw32TypeError, r"discard\[1\] is None: give one discard per hand"),
    (dict(discard=["7c", "Ah"]), InvalidCardError, r"hands\[1\]: discard Ah: Ah is not in the hand Kh Qh Jh Th 8s"),
    (dict(discard=["Ah Ad 7c 8s 9d", ""]), PokerDraw32ValueError,
     r"hands\[0\]: discard Ah Ad 7c 8s 9d has 5 cards: at most 4 may be discarded \[R6\.1\]"),
    (dict(dead=["", "Ah As Ac Kd Ks Kc Qd Qs Qc Jd Js Jc Td Ts Tc 9h 9d 9s 9c 8h 8d 8c"], opponents=1),
     PokerDraw32ValueError, r"hands\[1\]: only 0 cards are left for the draw after dealing, too few for a draw of 4 "
     r"\[R6\.2\]$"),
    (dict(dead="Th"), InvalidCardError, r"hands\[1\]: dead card Th is in the hand"),
    (dict(workers=-1), PokerDraw32ValueError, "workers=-1 must be a positive int"),
    (dict(chunk=None), PokerDraw32ValueError, "chunk=None must be a positive number of hands"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), EQUITY_BAD)
def test_equity_many_refuses_bad_input_before_any_work(kwargs: dict[str, Any], error: type[Exception],
                                                       message: str) -> None:
    kwargs = {"hands": H2, "trials": 10, **kwargs}
    calls: list[int] = []
    CountingExecutor.submitted = 0
    with CountingExecutor(2) as pool, pytest.raises(error) as info:
        equity_many(executor=pool, progress=calls.append, **kwargs)
    assert re.match(message, str(info.value)), str(info.value)
    assert CountingExecutor.submitted == 0 and calls == []


def test_a_bad_hand_late_in_the_batch_stops_everything() -> None:
    """The hand at index 40 is bad: nothing runs, not even the first chunk."""
    hands = [HANDS[0]] * 40 + ["Ah Ad 7c 8s 9s 9d"]
    CountingExecutor.submitted = 0
    with CountingExecutor(2) as pool, pytest.raises(InvalidCardError, match=r"^hands\[40\]: a hand has exactly 5"):
        draw_odds_many(hands, executor=pool, chunk=1)
    with CountingExecutor(2) as pool, pytest.raises(InvalidCardError, match=r"^hands\[40\]: a hand has exactly 5"):
        equity_many(hands, executor=pool, chunk=1, trials=10)
    assert CountingExecutor.submitted == 0


# ---------------------------------------------------------------------------- the package


def test_exported_lazily() -> None:
    from pokerdraw32 import odds_batch

    for name in ("draw_odds_many", "equity_many", "BatchInterrupted"):
        assert name in pokerdraw32.__all__ and name in dir(pokerdraw32)
        assert getattr(pokerdraw32, name) is getattr(odds_batch, name)
    code = ("import sys, pokerdraw32; assert 'concurrent.futures' not in sys.modules, 'imported at once'; "
            "assert 'pokerdraw32.odds_batch' not in sys.modules; pokerdraw32.draw_odds_many; "
            "assert 'pokerdraw32.odds_batch' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
