"""Whole simulated sessions in compiled code (issue 11, item 5): ``pokerdraw32._handcore.play.Session``
plays the hands of :func:`~pokerdraw32.simulate.simulate` when every seat is a built-in bot and
nobody sits out.  It must be exactly the :class:`~pokerdraw32.table.Table` with the bots deciding
from their views, action by action:

* hand by hand against a Table driven by RuleBot/RandomBot objects: the same log (every event),
  the same stacks after each hand, the same ledger lines (R9.5, R10.1, R10.4), for every structure
  and 2 to 5 players, short stacks included (all-ins, side pots, re-buys);
* ``simulate()`` with the names ``"rule"``/``"random"`` (the session) against the same line-up
  given as bot classes (the per-action path): the same result, the same PHH history file, the
  same hands given to ``on_hand``;
* the pure build (``_play`` on ``_state``) against the compiled one (``_play_c`` on ``_state_c``),
  in one process, and the policies' twins on every five-card hand.
"""

from __future__ import annotations

import importlib
import io
import itertools
import random
import threading
import time
from types import ModuleType
from typing import Any

import pytest
from conftest import RULE_VARIETY as RULES
from conftest import compiled_module

from pokerdraw32 import Hand, Rules
from pokerdraw32._kernels import Rng, play
from pokerdraw32.bots import RandomBot, RuleBot, SeatView, choose_discards
from pokerdraw32.cards import DECK
from pokerdraw32.errors import PokerDraw32ValueError
from pokerdraw32.simulate import simulate
from pokerdraw32.table import Table, default_buy_ins

LINEUPS = ["rule", "random", "mixed"]


def specs_of(lineup: str, players: int) -> list[str]:
    if lineup == "mixed":
        return ["rule" if i % 2 == 0 else "random" for i in range(players)]
    return [lineup] * players


def table_session(rules: Rules, specs: list[str], seed: int, stack: int) -> tuple[Table, list[Any], int, list[int]]:
    """A Table seating the bots as simulate() seeds them: one seed per seat, then the table's."""
    rng = Rng(seed)
    seeds = [rng.next_u64() for _ in specs]
    bots = [(RuleBot if s == "rule" else RandomBot)(seeds[i]) for i, s in enumerate(specs)]
    lo, hi = default_buy_ins(rules)
    table_seed = rng.next_u64()
    table = Table(rules, seats=len(specs), seed=table_seed, min_buy_in=min(lo, stack),
                  max_buy_in=None if hi is None else max(hi, stack), clock=lambda: 0.0)
    for i in range(len(specs)):
        table.join(i, f"p{i}", stack)
    return table, bots, table_seed, seeds


def play_table_hand(table: Table, bots: list[Any], stack: int) -> Hand:
    for s in table.occupied:
        if table.seat(s).stack == 0:
            table.add_chips(s, stack)
    h = table.start_hand()
    while h.actor is not None:
        table.act(table.hand_seats[h.actor], bots[table.hand_seats[h.actor]].decide(SeatView.of(h)))
    return h


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.structure.value}")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_session_is_the_table_hand_by_hand(rules: Rules, players: int) -> None:
    for lineup, seed, stack in (("mixed", players, 100 * rules.big_blind), ("random", 50 + players, 12),
                                ("rule", 90 + players, 7 * rules.big_blind)):
        specs = specs_of(lineup, players)
        table, bots, table_seed, seeds = table_session(rules, specs, seed, stack)
        policies = [play.RULE if s == "rule" else play.RANDOM for s in specs]
        session = play.Session(Hand, rules, stack, policies, [Rng(s) for s in seeds] + [Rng(table_seed)],
                               ledger=True, keep_hands=True)
        showdowns = 0
        for number in range(1, 41):
            expected = play_table_hand(table, bots, stack)
            session.play(1)
            got = session.hand
            assert got is not expected
            assert got.events == expected.events, (lineup, number)
            assert got.result == expected.result
            assert session.stacks == [table.seat(s).stack for s in range(players)]
            assert sum(session.stacks) == sum(session.bought_in)                      # R9.5
            showdowns += expected.result.showdown
        assert session.hands_played == 40 and session.showdowns == showdowns
        assert session.ledger_rows() == [(e.kind, e.seat, e.chips, e.hand) for e in table.ledger[players:]]
        assert session.bought_in == [sum(e.chips for e in table.ledger if e.seat == s and e.kind != "hand")
                                     for s in range(players)]
        table.check_ledger()


def result_fields(r: Any) -> dict[str, Any]:
    d = r.to_dict()
    del d["run"]
    return d


MODES = [dict(mode="session"), dict(mode="reset"), dict(mode="reset", duplicate=True)]


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("lineup", LINEUPS)
@pytest.mark.parametrize("mode", MODES, ids=["session", "reset", "duplicate"])
def test_simulate_compiled_session_equals_per_action_path(players: int, lineup: str, mode: dict[str, Any]) -> None:
    """The session (built-in bots by name) and the Table or Hand path (the same bots as classes)
    play the same hands, in every mode, chunk by chunk (chunks of 50 hands, whole deals)."""
    specs = specs_of(lineup, players)
    classes: list[Any] = [RuleBot if s == "rule" else RandomBot for s in specs]
    for rules, stack in ((Rules(), None), (Rules(structure="fixed-limit"), 30), (Rules(structure="pot-limit"), 9)):
        fast_hist, slow_hist = io.StringIO(), io.StringIO()
        fast_hands: list[Hand] = []
        slow_hands: list[Hand] = []
        fast = simulate(players=players, hands=120, seed=players * 7, rules=rules, stack=stack, bots=lineup,
                        history=fast_hist, on_hand=fast_hands.append, chunk=50, **mode)
        slow = simulate(players=players, hands=120, seed=players * 7, rules=rules, stack=stack, bots=classes,
                        history=slow_hist, on_hand=slow_hands.append, chunk=50, **mode)
        assert result_fields(fast) == result_fields(slow)
        assert fast_hist.getvalue() == slow_hist.getvalue()
        assert [h.events for h in fast_hands] == [h.events for h in slow_hands]
        assert len(fast_hands) == fast.hands_played == (-(-120 // players) * players if "duplicate" in mode else 120)
        plain = simulate(players=players, hands=120, seed=players * 7, rules=rules, stack=stack, bots=lineup,
                         chunk=50, **mode)
        assert result_fields(plain) == result_fields(fast)         # no history, no on_hand: same play
        assert sum(b.chips for b in fast.per_bot) == 0              # R9.5


@pytest.mark.parametrize("players", [2, 4, 5])
def test_simulate_with_sit_out_plays_compiled_hands_at_the_table(players: int) -> None:
    """With ``sit_out`` the Table plans each hand (missed blinds, R10.3) and the bots' hands are
    played by ``play_hand`` in compiled code: the same as the per-action path."""
    classes: list[Any] = [RuleBot if i % 2 == 0 else RandomBot for i in range(players)]
    for rules in (Rules(), Rules(structure="fixed-limit")):
        hist = [io.StringIO(), io.StringIO()]
        fast = simulate(players=players, hands=150, seed=3, rules=rules, bots="mixed", sit_out=0.3, history=hist[0],
                        mode="session")
        slow = simulate(players=players, hands=150, seed=3, rules=rules, bots=classes, sit_out=0.3, history=hist[1],
                        mode="session")
        assert result_fields(fast) == result_fields(slow)
        assert hist[0].getvalue() == hist[1].getvalue()
        assert fast.dead_chips > 0 or players == 2


def test_simulate_progress_counts_every_hand() -> None:
    seen: list[int] = []
    simulate(players=3, hands=700, seed=1, bots="rule", progress=seen.append, chunk=201)
    assert seen == [201, 402, 603, 700]


def test_session_refuses_bad_arguments() -> None:
    rngs = [Rng(1), Rng(2), Rng(3)]
    with pytest.raises(PokerDraw32ValueError, match="2 to 5"):
        play.Session(Hand, Rules(), 100, [play.RULE], rngs[:2])
    with pytest.raises(PokerDraw32ValueError, match="stack"):
        play.Session(Hand, Rules(), 0, [play.RULE, play.RULE], rngs)
    with pytest.raises(PokerDraw32ValueError, match="policies"):
        play.Session(Hand, Rules(), 100, [play.RULE, 7], rngs)


# -- the two builds ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def builds() -> tuple[ModuleType, ModuleType, type, type]:
    """(compiled _play, pure _play, a hand class on each core)."""
    compiled = compiled_module("pokerdraw32._handcore.play_c")
    state_c = compiled_module("pokerdraw32._handcore.state_view_c")
    pure = importlib.import_module("pokerdraw32._handcore.play")
    state_py = importlib.import_module("pokerdraw32._handcore.state_view")
    return compiled, pure, type("CompiledHand", (state_c.HandState,), {}), type("PureHand", (state_py.HandState,), {})


def test_pure_and_compiled_sessions_agree(builds: tuple[ModuleType, ModuleType, type, type]) -> None:
    compiled, pure, compiled_hand, pure_hand = builds
    core_c = compiled_module("pokerdraw32._core")
    core_py = importlib.import_module("pokerdraw32._core_py")
    for rules, players, stack in itertools.product(RULES[:4], (2, 3, 5), (10, 200)):
        policies = [i % 2 for i in range(players)]
        outs = []
        for module, hand_class, core in ((compiled, compiled_hand, core_c), (pure, pure_hand, core_py)):
            session = module.Session(hand_class, rules, stack, policies,
                                     [core.Rng(i + players) for i in range(players + 1)], ledger=True)
            session.play(60)
            outs.append((session.stacks, session.bought_in, session.rebuys, session.categories, session.showdowns,
                         session.parole_splits, session.decisions, session.ledger_rows(),
                         session.hand._records(0)))
        assert outs[0] == outs[1]


def session_outcome(session: Any) -> tuple[Any, ...]:
    return (session.stacks, session.bought_in, session.rebuys, session.categories, session.showdowns,
            session.parole_splits, session.decisions, session.hand._records(0))


def make_session(module: ModuleType, hand_class: type, rng_class: type, seed: int, players: int = 5) -> Any:
    return module.Session(hand_class, RULES[seed % len(RULES)], 150, [i % 2 for i in range(players)],
                          [rng_class(seed * 10 + i) for i in range(players + 1)])


def test_sessions_in_threads_equal_sessions_in_turn(builds: tuple[ModuleType, ModuleType, type, type]) -> None:
    """Three sessions played at once in three threads (compiled: without the GIL) give what each
    gives alone: a session shares nothing with another but the rules."""
    compiled, pure, compiled_hand, pure_hand = builds
    core_c = compiled_module("pokerdraw32._core")
    core_py = importlib.import_module("pokerdraw32._core_py")
    for module, hand_class, core, hands in ((compiled, compiled_hand, core_c, 3000), (pure, pure_hand, core_py, 150)):
        alone = []
        for seed in range(3):
            session = make_session(module, hand_class, core.Rng, seed)
            session.play(hands)
            alone.append(session_outcome(session))
        sessions = [make_session(module, hand_class, core.Rng, seed) for seed in range(3)]
        threads = [threading.Thread(target=session.play, args=(hands,)) for session in sessions]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [session_outcome(session) for session in sessions] == alone


def test_compiled_session_releases_the_gil(builds: tuple[ModuleType, ModuleType, type, type]) -> None:
    """While a compiled session plays, another Python thread runs: it samples the clock in a loop,
    and samples fall in the middle half of play()'s time (with the GIL held throughout, none
    could: the session's C loop never lets a Python thread in).  No timing is asserted."""
    compiled, _, compiled_hand, _ = builds
    core_c = compiled_module("pokerdraw32._core")
    session = make_session(compiled, compiled_hand, core_c.Rng, 1)
    session.play(10)                                   # the first hand object and the tables are made
    samples: list[float] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            samples.append(time.perf_counter())

    thread = threading.Thread(target=sample)
    thread.start()
    try:
        for hands in (20_000, 100_000, 400_000):      # long enough that the middle half is several ms
            start = time.perf_counter()
            session.play(hands)
            end = time.perf_counter()
            quarter = (end - start) / 4
            inside = [t for t in samples if start + quarter < t < end - quarter]
            if inside:
                break
    finally:
        stop.set()
        thread.join()
    assert inside, "no other thread ran while the session played: the GIL was held"


def test_generator_subclasses_play_with_the_gil_and_the_same_draws(
        builds: tuple[ModuleType, ModuleType, type, type]) -> None:
    """A generator that is not exactly an Rng (here a subclass that changes nothing) is called
    through Python, with the GIL, for the bots and the table's shuffles: same draws, same hands."""
    compiled, pure, compiled_hand, pure_hand = builds
    for module, hand_class, core in ((compiled, compiled_hand, compiled_module("pokerdraw32._core")),
                                     (pure, pure_hand, importlib.import_module("pokerdraw32._core_py"))):
        sub = type("MyRng", (core.Rng,), {})
        plain = make_session(module, hand_class, core.Rng, 4, players=3)
        other = make_session(module, hand_class, sub, 4, players=3)
        plain.play(200)
        other.play(200)
        assert session_outcome(other) == session_outcome(plain)


def test_rule_discards_twins_on_every_hand(builds: tuple[ModuleType, ModuleType, type, type]) -> None:
    """Both builds, every five-card hand in two orders (the order picks between straight draws)."""
    compiled, pure, _, _ = builds
    rnd = random.Random(5)
    for combo in itertools.combinations(range(32), 5):
        order = list(combo)
        if rnd.random() < 0.5:
            rnd.shuffle(order)
        packed = sum(c << 5 * i for i, c in enumerate(order))
        assert compiled.rule_discards(packed) == pure.rule_discards(packed)


def test_policies_twins(builds: tuple[ModuleType, ModuleType, type, type]) -> None:
    compiled, pure, _, _ = builds
    core_c = compiled_module("pokerdraw32._core")
    core_py = importlib.import_module("pokerdraw32._core_py")
    rnd = random.Random(11)
    rc, rp = core_c.Rng(3), core_py.Rng(3)
    for _ in range(20_000):
        cards = rnd.sample(range(32), 5)
        packed = sum(c << 5 * i for i, c in enumerate(cards))
        kinds = rnd.randrange(1, 256)
        lo = rnd.randrange(0, 50)
        hi = lo + rnd.choice([0, 1, 5, 2**32, 2**40])
        phase = rnd.choice([1, 2, 3])
        args = (packed, phase, kinds, rnd.randrange(10), rnd.randrange(10), lo, hi, rnd.randrange(100))
        assert compiled.rule_action(rc, *args) == pure.rule_action(rp, *args)
        assert compiled.random_action(rc, packed, kinds, lo, hi) == pure.random_action(rp, packed, kinds, lo, hi)
    assert rc.getstate() == rp.getstate()


def test_choose_discards_keeps_its_contract() -> None:
    hand = tuple(DECK[c] for c in (28, 24, 20, 16, 4))          # A K Q J 8 of spades: a flush, stand pat
    assert choose_discards(hand) == ()
    with pytest.raises(PokerDraw32ValueError):
        choose_discards(hand[:4])
    with pytest.raises(PokerDraw32ValueError):
        choose_discards((*hand[:4], hand[0]))


def test_a_session_plays_in_one_thread_at_a_time(builds: tuple[ModuleType, ModuleType, type, type]) -> None:
    compiled, _, compiled_hand, _ = builds
    session = make_session(compiled, compiled_hand, compiled_module("pokerdraw32._core").Rng, 2)
    refused: list[Exception] = []

    def other() -> None:
        try:
            session.play(50_000)
        except PokerDraw32ValueError as exc:
            refused.append(exc)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        session.play(50_000)
    except PokerDraw32ValueError as exc:
        refused.append(exc)
    thread.join()
    assert all("another thread" in str(e) for e in refused)
    played = session.hands_played
    assert played in (50_000, 100_000) and (played == 100_000) == (not refused)
    assert sum(session.stacks) == sum(session.bought_in)          # R9.5: nothing half-played
