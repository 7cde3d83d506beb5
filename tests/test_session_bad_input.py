"""Bad input to the compiled session, the policies and the bots (issue 11; found by an adversarial
review): each is a clear exception naming the problem, the same in both builds, never a crash, a
hang or a silent wrong result.  Chips stay integers and are conserved (R9.5)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from pokerdraw32 import Hand, LegalActions, Rng, Rules
from pokerdraw32._kernels import play
from pokerdraw32.actions import Event, EventKind
from pokerdraw32.bots import RandomBot, RuleBot, SeatView, choose_discards
from pokerdraw32.cards import DECK
from pokerdraw32.errors import MAX_CHIPS, PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError
from pokerdraw32.hand import _unpickle
from pokerdraw32.simulate import simulate
from pokerdraw32.table import TableError


def rngs(n: int) -> list[Rng]:
    return [Rng(i) for i in range(n + 1)]


class NoneHand(Hand):
    def __new__(cls, *args: Any, **kwargs: Any) -> Any:   # a class whose instances are not hands
        return None


def test_a_hand_class_that_makes_no_hand_is_refused() -> None:
    with pytest.raises(PokerDraw32TypeError, match="subclass of the hand's core"):
        play.Session(type(None), Rules(), 100, [play.RULE, play.RANDOM], rngs(2))
    session = play.Session(NoneHand, Rules(), 100, [play.RULE, play.RANDOM], rngs(2))
    with pytest.raises(PokerDraw32TypeError, match="not a hand"):
        session.play(1)
    with pytest.raises(PokerDraw32TypeError, match="not None"):
        play.play_hand(None, [0, 0], rngs(1)[:2])  # type: ignore[arg-type]


def test_copies_into_a_class_that_makes_no_hand_are_refused() -> None:
    h = Hand(Rules(), [50, 50, 50], 0, seed=1)
    with pytest.raises(PokerDraw32TypeError, match="must be a hand"):
        h._copy(NoneHand)
    with pytest.raises(PokerDraw32TypeError, match="must be a hand"):
        _unpickle(type(None), h.snapshot())  # type: ignore[arg-type]
    assert h.clone().snapshot() == h.snapshot()


class LyingRules(Rules):
    """Rules whose blinds() says more than a hand can post."""

    def blinds(self, players: int) -> tuple[int, ...]:
        return tuple(range(1, 40))


class FourBlinds(Rules):
    def blinds(self, players: int) -> tuple[int, ...]:
        return (1, 2, 4, 8)


@pytest.mark.parametrize("rules", [LyingRules(), FourBlinds()], ids=["39 blinds", "4 blinds"])
def test_rules_that_lie_about_the_blinds_are_refused(rules: Rules) -> None:
    with pytest.raises(PokerDraw32ValueError, match=r"2 or 3 blinds .*\[R4.2\]"):
        Hand(rules, [10**6] * 5, 0, seed=1)
    with pytest.raises(PokerDraw32Error):
        simulate(players=5, hands=5, seed=1, rules=rules, stack=10**6)


def test_below_and_the_policies_refuse_empty_ranges() -> None:
    with pytest.raises(PokerDraw32ValueError, match="1 <= n <= 2"):
        play.below(Rng(1), 0)
    with pytest.raises(PokerDraw32ValueError, match="no legal action"):
        play.random_action(Rng(1), 0x1234, 0, 0, 0)
    with pytest.raises(PokerDraw32ValueError, match="no bet between 10 and 9"):
        play.random_action(Rng(1), 0x1234, 1 << 3, 10, 9)
    with pytest.raises(PokerDraw32ValueError, match="chip amounts"):
        play.rule_action(Rng(1), 0x1234, 1, 1 << 4, 0, 0, 1, 2**60, 0)


def test_a_generator_that_lies_is_named() -> None:
    class Liar(Rng):
        def below(self, n: int) -> int:
            return n

    bot = RandomBot(1)
    bot.rng = Liar(1)
    view = SeatView.of(Hand(Rules(), [50] * 3, 0, seed=3))
    with pytest.raises(PokerDraw32ValueError, match=r"below\(\d+\) gave"):
        bot.decide(view)


def test_bots_refuse_views_that_are_not_a_hand() -> None:
    view = SeatView.of(Hand(Rules(), [50] * 3, 0, seed=3))
    legal = view.legal
    assert legal is not None
    empty = view._replace(legal=LegalActions(legal.seat, legal.phase, frozenset(), 0, None, None, 0,
                                             legal.hole_cards))
    with pytest.raises(PokerDraw32ValueError, match="no legal action"):
        RandomBot(1).decide(empty)
    for hole in [legal.hole_cards[:3], (*legal.hole_cards[:4], legal.hole_cards[0]), (1, 2, 3, 4, -1)]:
        bad = view._replace(legal=LegalActions(legal.seat, legal.phase, legal.kinds, legal.call_amount,
                                               legal.min_to, legal.max_to, 0, hole))  # type: ignore[arg-type]
        for bot in (RuleBot(1), RandomBot(1)):
            with pytest.raises(PokerDraw32ValueError, match="five different cards"):
                bot.decide(bad)
    huge = view._replace(legal=LegalActions(legal.seat, legal.phase, legal.kinds, legal.call_amount, 1, 2**62, 0,
                                            legal.hole_cards))
    with pytest.raises(PokerDraw32ValueError, match="chip amount"):
        RandomBot(1).decide(huge)
    with pytest.raises(PokerDraw32ValueError, match="chip amount"):
        RuleBot(1).decide(view._replace(pot=2**80))


def test_choose_discards_needs_five_different_cards() -> None:
    ah, kd, c7, s8, d9 = (DECK[c] for c in (31, 26, 1, 4, 10))
    assert choose_discards(iter((ah, kd, c7, s8, d9))) == choose_discards((ah, kd, c7, s8, d9))
    for bad in [(ah, ah, kd, c7, s8, d9), (0, 5, 10, 15, 20) + (0,) * 10, (ah,), (), (-1, 0, 1, 2, 3)]:
        with pytest.raises(PokerDraw32ValueError, match="five different cards"):
            choose_discards(bad)  # type: ignore[arg-type]


def test_re_buys_respect_the_tables_chip_limit_on_both_paths() -> None:
    """Both paths refuse the re-buy that would put more than MAX_CHIPS on the table (R3.2)."""
    outcomes = []
    for bots in ("rule", [RuleBot] * 5):
        with pytest.raises(TableError) as info:
            simulate(players=5, hands=40, seed=11, stack=MAX_CHIPS // 5, bots=bots, mode="session")
        outcomes.append(str(info.value))
    assert outcomes[0] == outcomes[1] and "chips on the table [R3.2]" in outcomes[0]


def test_a_large_heads_up_stack_plays_on_both_paths() -> None:
    stack = MAX_CHIPS // 4
    for mode in ("session", "reset"):
        fast = simulate(players=2, hands=30, seed=2, stack=stack, bots="mixed", mode=mode).to_dict()
        slow = simulate(players=2, hands=30, seed=2, stack=stack, bots=[RuleBot, RandomBot], mode=mode).to_dict()
        for d in (fast, slow):
            del d["run"]
        assert fast == slow and sum(b["chips"] for b in fast["bots"]) == 0


def test_play_hand_waits_for_no_deal_and_sessions_start_clean() -> None:
    h = Hand(Rules(), [50, 50, 50], 0, seed=1, auto_deal=False)
    with pytest.raises(PokerDraw32ValueError, match="waits for a deal"):
        play.play_hand(h, [0, 0, 0], rngs(3)[:3])
    session = play.Session(Hand, Rules(), 100, [play.RULE, play.RANDOM], rngs(2))
    session.play(3)
    session.__init__(Hand, Rules(), 100, [play.RULE, play.RANDOM], rngs(2))  # type: ignore[misc]
    assert session.hands_played == 0 and session.decisions == 0 and session.rebuys == [0, 0]
    with pytest.raises(PokerDraw32ValueError, match="not set up"):
        play.Session.__new__(play.Session).play(1)


def test_events_of_earlier_pickles_load() -> None:
    """Events pickled before Event had __slots__ carried their instance dict as the state."""
    ev = Event.__new__(Event)
    ev.__setstate__({"kind": EventKind.CALL, "seat": 1, "amount": 2, "cards": (), "info": (("all_in", False),)})
    assert ev == Event(EventKind.CALL, 1, 2, (), (("all_in", False),))
    h = Hand(Rules(), [50, 50, 50], 0, seed=1)
    for x in (*h.events, h.legal_actions()):
        assert pickle.loads(pickle.dumps(x)) == x == copy.deepcopy(x)


def test_simulate_checks_rules_and_callbacks_before_playing() -> None:
    with pytest.raises(PokerDraw32TypeError, match="rules must be"):
        simulate(players=3, hands=5, rules="classic")  # type: ignore[arg-type]
    for name in ("progress", "on_hand"):
        with pytest.raises(PokerDraw32TypeError, match=f"{name} must be a callable"):
            simulate(players=3, hands=5, **{name: 42})


def test_stacks_beyond_the_chip_limit_are_named() -> None:
    with pytest.raises(PokerDraw32ValueError, match=r"default stack, 100 big blinds .* \[R3.2\]"):
        simulate(players=3, hands=2, rules=Rules(sb=10**15))
    with pytest.raises(PokerDraw32ValueError, match=r"would bring more than"):
        simulate(players=3, hands=2, stack=2**63)


# -- the adversarial review of the GIL-free core (session 6) ---------------------------------------

def test_a_session_played_from_its_own_generator_is_refused() -> None:
    """A generator (not exactly an Rng, so called with the GIL) that plays its own session again:
    refused, the session intact (compiled, the nested play freed the hand being played)."""
    class Reenter(Rng):
        session: Any = None

        def below(self, n: int) -> int:
            Reenter.session.play(1)
            return super().below(n)

    s = play.Session(Hand, Rules(), 100, [play.RULE] * 3, [Reenter(1), Rng(2), Rng(3), Rng(4)], keep_hands=True)
    Reenter.session = s
    with pytest.raises(PokerDraw32ValueError, match="already playing"):
        s.play(1)
    assert sum(s.stacks) == sum(s.bought_in)


def test_a_session_whose_first_hand_failed_plays_on() -> None:
    class Flaky(Rules):
        fail = True

        def blinds(self, n: int) -> tuple[int, ...]:
            if Flaky.fail:
                Flaky.fail = False
                raise RuntimeError("blinds unavailable once")
            return super().blinds(n)

    s = play.Session(Hand, Flaky(), 100, [play.RANDOM, play.RULE, play.RANDOM], [Rng(i) for i in range(1, 5)])
    with pytest.raises(RuntimeError, match="once"):
        s.play(1)
    s.play(3)
    assert s.hands_played == 3 and sum(s.stacks) == sum(s.bought_in)


def test_a_refused_session_init_changes_nothing() -> None:
    s = play.Session(Hand, Rules(), 100, [play.RULE] * 5, [Rng(i) for i in range(6)])
    s.play(20)
    before = (s.stacks, s.bought_in, s.hands_played)
    with pytest.raises(PokerDraw32ValueError, match="policies"):
        s.__init__(Hand, Rules(), 100, [play.RULE, play.RULE, "bad"], [Rng(i) for i in range(4)])  # type: ignore[misc]
    assert (s.stacks, s.bought_in, s.hands_played) == before
    s.play(5)
    assert sum(s.stacks) == sum(s.bought_in)


def test_uniform_of_nothing_is_refused() -> None:
    with pytest.raises(PokerDraw32ValueError, match="n >= 1"):
        play.uniform(Rng(1), 0)
