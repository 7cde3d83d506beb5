"""Policies as bots (issue 24, item 1): :class:`pokerdraw32.env.Encoding` reads a bot's
:class:`~pokerdraw32.bots.SeatView` as it reads the dealer's :class:`~pokerdraw32.hand.Hand` (the
same observation, mask, decoded action and refusal, proved over random hands of every rule set), and
:class:`pokerdraw32.env.PolicyBot` plays a policy over those arrays wherever a bot plays: simulate()
on this thread, threads, processes and a Dask cluster, the command line's ``--bots module:attr``,
DrawEnv's opponents and self-play, with a callable, an SB3-like object and a real sb3-contrib
MaskablePPO.  Skipped where the ``[rl]`` extra is not installed; the SB3 and Dask tests where those
are not."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import math
import pickle
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from conftest import RULE_VARIETY  # noqa: E402
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pokerdraw32 import Hand, Rules  # noqa: E402
from pokerdraw32._kernels import encode as E  # noqa: E402
from pokerdraw32.actions import Action, ActionKind, Phase  # noqa: E402
from pokerdraw32.bots import RandomBot, RuleBot, SeatView  # noqa: E402
from pokerdraw32.env import OBS_SIZE, DrawEnv, Encoding, PolicyBot  # noqa: E402
from pokerdraw32.errors import (  # noqa: E402
    IllegalActionError,
    PokerDraw32TypeError,
    PokerDraw32ValueError,
    RulesError,
)
from pokerdraw32.simulate import simulate  # noqa: E402

STACK = 200        # simulate's default stack with the default rules: 100 big blinds of 2 chips
DISCARD0 = E.BET0 + len(E.DEFAULT_BUCKETS)


# -- the encoding of a view is the encoding of the hand ------------------------------------------

def check_every_seat(h: Hand, enc: Encoding, scale: float) -> None:
    """Every seat's view of ``h`` now gives the hand's arrays: the observation (the default scale,
    the seat's starting stack, and ``scale``), the mask (the hand's for the seat to act, all zero
    for the others), and for the seat to act every index's decision, action and refusal."""
    actor = h.actor if h.pending_deal is None else None
    zero = np.zeros(enc.actions, np.uint8)
    for s in range(h.n):
        view = SeatView.of(h, s)
        assert np.array_equal(enc.observation(view), enc.observation(h, s, h.starting_stacks[s])), (s, h.phase)
        assert np.array_equal(enc.observation(view, s, scale), enc.observation(h, s, scale)), (s, h.phase)
        assert np.array_equal(enc.action_mask(view), enc.action_mask(h) if s == actor else zero), (s, h.phase)
        if s != actor:
            assert enc.decode(view, 1) == -1
            continue
        for index in [*range(enc.actions), -1, enc.actions, 2.0, True, "1", np.int16(1), np.array(1)]:
            decision = enc.decode(view, index)
            assert decision == enc.decode(h, index), index
            if decision >= 0:
                assert enc.action(view, index) == enc.action(h, index)
            else:
                assert str(enc.action_error(view, index)) == str(enc.action_error(h, index)), index
                with pytest.raises(IllegalActionError):
                    enc.action(view, index)


MOVES = ["rule", "random", "index", "index", "index", "timeout", "withdraw"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_VARIETY), stacks=st.lists(st.integers(1, 400), min_size=2, max_size=5),
       button=st.integers(0, 4), seed=st.integers(0, 2**64 - 1),
       buckets=st.lists(st.one_of(st.just(0.0), st.just(-1.0), st.floats(0.01, 20.0)), min_size=1, max_size=6),
       posts=st.one_of(st.none(), st.tuples(st.integers(0, 4), st.integers(0, 8), st.integers(0, 4))),
       picks=st.lists(st.tuples(st.sampled_from(MOVES), st.integers(0, 10**6)), min_size=60, max_size=60))
def test_a_seats_view_encodes_exactly_as_the_hand(rules: Rules, stacks: list[int], button: int, seed: int,
                                                   buckets: list[float], posts: Any,
                                                   picks: list[tuple[str, int]]) -> None:
    """Hypothesis over every rule set of RULE_VARIETY, 2-5 players, any stacks (short blinds too,
    R4.5), entry bets and missed blinds (R10.2, R10.3), any buckets (the fixed-limit and clipped
    duplicates masked), moves by the rule and random bots, random legal indices, timeouts (R6.3,
    R7.3) and withdrawn raises (R7.3): at every decision and at the end, every seat's view encodes
    as the hand does (:func:`check_every_seat`)."""
    n = len(stacks)
    extra = None if posts is None else {posts[0] % n: (posts[1], posts[2])}
    try:
        h = Hand(rules, stacks, button % n, seed=seed, posts=extra)
    except RulesError:
        assume(False)
    enc = Encoding(buckets)
    bots = {"rule": RuleBot(seed % 1000), "random": RandomBot(seed % 1000)}
    scale = float(max(stacks))
    for move, pick in picks:
        check_every_seat(h, enc, scale)
        if h.is_complete:
            break
        if move == "withdraw" and h.phase is not Phase.DRAW and h.stacks[h.actor] > 0 \
                and h.raise_withdrawn != h.actor:
            h.withdraw_raise()
            continue
        if move == "timeout":
            h.act(Action.timeout())
        elif move in bots:
            h.act(bots[move].decide(SeatView.of(h)))
        else:
            legal = np.flatnonzero(enc.action_mask(h))
            enc.apply(h, int(legal[pick % len(legal)]))
    while not h.is_complete:
        h.act(Action.timeout())
    check_every_seat(h, enc, scale)
    assert sum(h.stacks) == sum(stacks)                  # R9.5 (dead chips go to the pot's winners)


def test_a_view_of_a_hand_still_being_dealt_and_of_a_session_hand() -> None:
    """The deal phase (``auto_deal=False``: nobody to act while cards are pending) and the hands of
    a table session with missed blinds posted (R10.3) encode alike from the views."""
    from pokerdraw32.table import Table

    enc = Encoding()
    h = Hand(Rules(), [100, 100, 100], 0, seed=3, auto_deal=False)
    assert h.phase is Phase.DEAL
    while h.pending_deal is not None:
        check_every_seat(h, enc, 100.0)
        h.deal()
    t = Table(Rules(), seats=4, seed=11, clock=lambda: 0.0, min_buy_in=1)
    for s in range(4):
        t.join(s, f"p{s}", 150)
    bots = [RuleBot(s) for s in range(4)]
    dead = 0
    for k in range(60):
        for s in range(4):
            if t.seat(s).stack == 0:
                t.add_chips(s, 150)                # R10.4
        away = (k // 6) % 4                        # away for four hands: blinds missed
        if k % 6 == 0 and not t.seat(away).sitting_out:
            t.sit_out(away)
        elif k % 6 == 4 and t.seat(away).sitting_out:
            t.sit_in(away)                         # posts the blinds it missed (R10.3)
        if sum(not t.seat(s).sitting_out for s in range(4)) < 2:
            t.sit_in(next(s for s in range(4) if t.seat(s).sitting_out))
        h = t.start_hand()
        dead += h.dead
        while h.actor is not None:
            check_every_seat(h, enc, 150.0)
            t.act(t.hand_seats[h.actor], bots[h.actor].decide(SeatView.of(h)))
        check_every_seat(h, enc, 150.0)
    assert dead > 0                    # missed blinds were posted dead (R10.3)


def test_view_arguments_are_checked() -> None:
    enc = Encoding()
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    view = SeatView.of(h)
    assert view.seat == 0
    with pytest.raises(PokerDraw32ValueError, match="a SeatView of seat 0 holds no observation of seat 1"):
        enc.observation(view, 1)
    with pytest.raises(PokerDraw32ValueError, match="name the observing seat"):
        enc.observation(h)
    with pytest.raises(PokerDraw32ValueError, match="scale=0"):
        enc.observation(view, scale=0)
    with pytest.raises(PokerDraw32ValueError, match="mask buffer holds 3 values; it needs 39"):
        enc.action_mask(SeatView.of(h, 1), np.zeros(3, np.uint8))
    with pytest.raises(PokerDraw32TypeError, match="a SeatView cannot be played"):
        enc.apply(view, 1)  # type: ignore[arg-type]
    other = SeatView.of(h, 2)
    err = enc.action_error(other, 1)
    assert str(err) == "action index 1 (check/call): seat 2 is not to act, seat 0 is [R5.2]" and err.seat == 2
    with pytest.raises(IllegalActionError, match="seat 2 is not to act"):
        enc.action(other, 1)
    assert enc.action(view, 1) == Action.call() and h.to_match == 2          # the big blind (R4.4)
    assert enc.action(view, 4 + 3) == Action(ActionKind.RAISE, 200)          # all-in


# -- PolicyBot ---------------------------------------------------------------------------------

def passive(obs: Any, mask: Any) -> int:
    """Check or call (stand pat in the draw; split when all-in under a Parole offer)."""
    return 1 if mask[1] else int(np.flatnonzero(mask)[0])


def pusher(obs: Any, mask: Any) -> int:
    """A deterministic policy reading the observation: in the draw, throw the lowest card by code
    (discard mask 1); in a betting round, the minimum bet or raise while the pot is under 15.5
    chips (of a 200-chip stack), else check or call; split when all-in under a Parole offer."""
    if mask[DISCARD0]:
        return DISCARD0 + 1
    if mask[E.BET0] and obs[E.OBS_POT] * STACK < 15.5:
        return E.BET0
    return passive(obs, mask)


def pusher_by_hand(view: SeatView) -> Action:
    """:func:`pusher` written as a bot reading the view (no encoding)."""
    legal = view.legal
    assert legal is not None
    if legal.phase is Phase.DRAW:
        return Action.discard([min(legal.hole_cards)])
    kinds = legal.kinds
    if (ActionKind.BET in kinds or ActionKind.RAISE in kinds) and view.pot < 15.5:
        assert legal.min_to is not None
        return Action(ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE, legal.min_to)
    if ActionKind.CHECK in kinds:
        return Action.check()
    if ActionKind.CALL in kinds:
        return Action.call()
    return Action.split()


def always(index: int) -> Any:
    def policy(obs: Any, mask: Any) -> Any:
        return index
    policy.__name__ = f"always{index}"
    return policy


def results(r: Any) -> dict[str, Any]:
    """A result's numbers, without the run's timing and the bots' names."""
    d: dict[str, Any] = r.to_dict()
    del d["run"]
    for b in d["bots"]:
        del b["label"], b["name"]
    return d


def test_a_deterministic_policy_plays_as_the_same_bot_written_by_hand() -> None:
    """The same decisions give the same simulation, exactly, in every mode (3 and 5 players)."""
    for kwargs in ({"players": 3}, {"players": 5, "duplicate": True}, {"players": 3, "mode": "session"}):
        args: dict[str, Any] = {"hands": 300, "seed": 20260501, "chunk": 100, **kwargs}
        others = ["rule", "random", "rule", "random"][:args["players"] - 1]
        mine = simulate(bots=[PolicyBot(pusher, scale=STACK), *others], **args)
        theirs = simulate(bots=[pusher_by_hand, *others], **args)
        assert results(mine) == results(theirs), kwargs
        assert mine.per_bot[0].label == "pusher" and mine.per_bot[0].name == "pusher0"
        assert sum(b.chips for b in mine.per_bot) == 0 and mine.hands_played == 300        # R9.5
        assert mine.decisions > 300 and mine.per_bot[0].chips != 0


def test_the_default_scale_is_drawenvs_in_reset_mode() -> None:
    """Without ``scale`` the unit is the seat's starting stack: in reset mode, every hand's, the
    stack simulate was given, so the default and ``scale=stack`` play alike."""
    args: dict[str, Any] = {"players": 2, "hands": 200, "seed": 7, "stack": 300}
    assert results(simulate(bots=[PolicyBot(pusher), "rule"], **args)) == \
        results(simulate(bots=[PolicyBot(pusher, scale=300), "rule"], **args))
    assert results(simulate(bots=[PolicyBot(pusher), "rule"], **args)) != \
        results(simulate(bots=[PolicyBot(pusher, scale=100), "rule"], **args))     # pot < 15.5 read otherwise


def test_threads_processes_and_one_thread_give_the_same_result() -> None:
    args: dict[str, Any] = {"players": 3, "hands": 600, "seed": 44, "chunk": 150,
                            "bots": [PolicyBot(pusher), "rule", PolicyBot(passive, name="calls")]}
    one = simulate(**args)
    with ThreadPoolExecutor(2) as pool:
        threads = simulate(**args, executor=pool)
    procs = simulate(**args, workers=2)                 # user bots: worker processes, the bots pickled
    assert (threads.executor, procs.executor) == ("ThreadPoolExecutor", "processes")
    assert one.to_dict()["bots"] == threads.to_dict()["bots"] == procs.to_dict()["bots"]
    assert [b.name for b in one.per_bot] == ["pusher0", "rule1", "calls2"]


def test_a_policy_that_cannot_go_to_a_process_is_named() -> None:
    bot = PolicyBot(lambda obs, mask: 1, name="lam")
    with pytest.raises(PokerDraw32TypeError, match=r"bots\[1\]: PolicyBot cannot be sent to worker processes"):
        simulate(players=2, hands=400, seed=1, bots=["rule", bot], chunk=100, workers=2)


def test_pickles_and_copies_with_its_arguments() -> None:
    bot = PolicyBot(pusher, buckets=(0.0, -1.0), scale=250, deterministic=False, name="p")
    h = Hand(Rules(), [250, 250, 250], button=1, seed=5)
    view = SeatView.of(h)
    for other in (pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot), copy.copy(bot)):
        assert repr(other) == repr(bot) == "PolicyBot('p', buckets=(0.0, -1.0), scale=250.0, deterministic=False)"
        assert other.decide(view) == bot.decide(view) == Action(ActionKind.RAISE, 4)   # min raise: 2 + 2 (R3.4)
        assert other.__name__ == "p" and other.encoding.actions == 37


def test_an_index_outside_the_mask_names_the_bot_the_index_the_action_and_the_rule() -> None:
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    view = SeatView.of(h)
    before = h.snapshot()
    cases = [
        (always(DISCARD0 + 3), r"policy bot 'always11': the policy's action index 11 \(discard 11000\) is not in the "
                               r"legal-action mask of seat 0: seat 0 cannot discard outside the draw "
                               r"\(allowed: call, fold, raise\) \[R6\.1\]"),
        (always(2), r"the policy's action index 2 \(split\) is not in the legal-action mask of seat 0: .*\[R8\.1\]"),
        (always(39), r"the policy's action index 39 is outside the action space 0\.\.38"),
        (always(1.0), r"the policy's action index 1\.0 is not an integer of the action space 0\.\.38"),
        (always(True), r"the policy's action index True is not an integer"),
        (always(np.array([1])), r"is not an integer of the action space"),
    ]
    for policy, message in cases:
        with pytest.raises(IllegalActionError, match=message) as info:
            PolicyBot(policy).decide(view)
        assert info.value.seat == 0
    assert h.snapshot() == before
    ok = PolicyBot(always(np.int64(1)))
    assert ok.decide(view) == ok.decide(h) == ok(view) == Action.call()                # numpy ints, a Hand too
    assert PolicyBot(always(np.array(1, dtype=np.int8))).decide(view) == Action.call()  # SB3's 0-d array
    with pytest.raises(IllegalActionError, match="policy bot 'always1': seat 1 is not to act"):
        ok.decide(SeatView.of(h, 1))
    with pytest.raises(PokerDraw32TypeError, match="decides from a SeatView"):
        ok.decide("view")  # type: ignore[arg-type]


class Index:
    """Not an int, but with ``__index__`` (so ``operator.index`` takes it)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


@pytest.mark.parametrize("value", [0, 1, 2, 39])
def test_an_object_with_index_is_refused_as_what_it_is(value: int) -> None:
    """Issue 41: an object with ``__index__`` is not taken as an index (the encoding reads ints and numpy
    integers only), and the refusal says so; it named the action of the index the object stands for as
    outside the mask, even index 0 (fold) or 1 (call), which are in it."""
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    view = SeatView.of(h)
    before = h.snapshot()
    mask = Encoding().action_mask(view).astype(bool)
    assert mask[0] and mask[1] and not mask[2]
    policy = always(Index(value))  # type: ignore[arg-type]
    message = (f"policy bot 'alwaysIndex({value})': the policy's action index Index({value}) is not an integer of the "
               "action space 0..38 (of type Index; a policy returns an int, a numpy integer or a 0-d integer array)")
    with pytest.raises(IllegalActionError) as info:
        PolicyBot(policy).decide(view)
    assert str(info.value) == message and info.value.seat == 0 and info.value.rule is None
    assert h.snapshot() == before


def test_simulate_reports_an_illegal_index_as_an_illegal_action_of_the_seat_and_bot() -> None:
    with pytest.raises(IllegalActionError, match=r"^seat (\d) \(shover\1\): policy bot 'shover': the policy's action "
                                                 r"index 7 \(bet/raise all-in\) is not in the legal-action mask of "
                                                 r"seat \1: .* \[R6\.1\]$") as info:
        simulate(players=3, hands=100, seed=2, bots=["rule", PolicyBot(always(7), name="shover"), "random"])
    assert info.value.rule == "R6.1" and info.value.seat is not None


def test_constructor_arguments_are_checked() -> None:
    for scale in (0, -5, math.nan, math.inf, True, "200"):
        with pytest.raises(PokerDraw32ValueError, match="scale="):
            PolicyBot(passive, scale=scale)  # type: ignore[arg-type]
    with pytest.raises(PokerDraw32TypeError, match="must be a callable"):
        PolicyBot(42)
    with pytest.raises(PokerDraw32TypeError, match="deterministic must be True or False"):
        PolicyBot(passive, deterministic="yes")  # type: ignore[arg-type]
    with pytest.raises(PokerDraw32TypeError, match="name must be a str"):
        PolicyBot(passive, name=3)  # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match="0 bet/raise buckets"):
        PolicyBot(passive, buckets=())
    assert PolicyBot(np.argmax).name == "argmax" and PolicyBot(passive, scale=np.int32(5)).scale == 5.0


class FakeModel:
    """An SB3-like model: predict(obs, action_masks=..., deterministic=...) -> (action, state)."""

    def __init__(self, answer: Any = None) -> None:
        self.calls: list[tuple[Any, Any, bool]] = []
        self.answer = answer

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None, deterministic: bool = False,
                action_masks: Any = None) -> tuple[Any, Any]:
        self.calls.append((observation, action_masks, deterministic))
        index = pusher(observation, action_masks) if self.answer is None else self.answer
        return np.array(index), state


class PlainModel:
    """Plain SB3's predict: no action_masks."""

    def __init__(self, answer: int = 1) -> None:
        self.calls: list[tuple[Any, bool]] = []
        self.answer = answer

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None,
                deterministic: bool = False) -> tuple[Any, Any]:
        self.calls.append((observation, deterministic))
        return np.array(self.answer), None

    def __call__(self, obs: Any, mask: Any) -> int:        # callable too: predict is asked first
        raise AssertionError("not called")


def test_an_sb3_like_model_is_asked_by_predict_with_the_mask() -> None:
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    view = SeatView.of(h)
    model = FakeModel()
    bot = PolicyBot(model)
    assert bot.name == "FakeModel"
    assert bot.decide(view) == Action(ActionKind.RAISE, 4)          # the pot is 3 chips: raise the minimum
    (obs, mask, det), = model.calls
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32 and mask.shape == (39,) and mask.dtype == bool
    assert det is True and np.array_equal(mask, Encoding().action_mask(h).astype(bool))
    assert np.array_equal(obs, Encoding().observation(h, 0, 200))
    PolicyBot(model, deterministic=False).decide(view)
    assert model.calls[-1][2] is False
    plain = PlainModel()
    assert PolicyBot(plain).decide(view) == Action.call() and plain.calls[0][1] is True
    with pytest.raises(IllegalActionError, match=r"policy bot 'PlainModel': the policy's action index 2 \(split\) "
                                                 r"is not in the legal-action mask of seat 0: .*\[R8\.1\]"):
        PolicyBot(PlainModel(answer=2)).decide(view)     # no mask to respect: its illegal index is an error
    with pytest.raises(IllegalActionError, match=r"policy bot 'FakeModel': the policy's action index 3 \(decline\)"):
        PolicyBot(FakeModel(answer=3)).decide(view)
    same = simulate(players=3, hands=200, seed=9, bots=[PolicyBot(FakeModel()), "rule", "random"])
    assert results(same) == results(simulate(players=3, hands=200, seed=9, bots=[pusher_by_hand, "rule", "random"]))


def test_drawenv_opponents_and_the_learning_seat_see_the_same_arrays() -> None:
    """A PolicyBot opponent in DrawEnv; and at every step the learning seat's PolicyBot arrays are
    DrawEnv's observation and mask (the default scale is DrawEnv's starting stack)."""
    env = DrawEnv(players=3, opponents=[PolicyBot(pusher), "random"], structure="pot-limit", stack=50)
    me = PolicyBot(passive)
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        done = False
        total = 0.0
        while not done:
            assert env.hand is not None
            mine, mask = me.arrays(SeatView.of(env.hand, env.seat))
            assert np.array_equal(mine, obs) and np.array_equal(mask, info["action_mask"])
            obs, reward, done, _, info = env.step(me.choose(mine, mask))
            total += reward
        assert sum(env.hand.stacks) == 3 * 100                     # 50 big blinds of 2 chips each (R9.5)
        assert total == (env.hand.stacks[env.seat] - 100) / 2


def test_the_command_line_loads_a_policy_bot_by_module_attr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pokerdraw32.cli import main

    (tmp_path / "mypolicies_pbot.py").write_text(
        "import numpy as np\n"
        "from pokerdraw32.env import PolicyBot\n"
        "def calls(obs, mask):\n"
        "    return 1 if mask[1] else int(np.flatnonzero(mask)[0])\n"
        "bot = PolicyBot(calls, name='caller')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    outs = []
    for workers in ("1", "2"):
        out, err = io.StringIO(), io.StringIO()
        code = main(["simulate", "--players", "3", "--hands", "300", "--seed", "5", "--chunk", "100", "--json",
                     "--no-progress", "--workers", workers, "--bots", "mypolicies_pbot:bot,rule,random"],
                    stdout=out, stderr=err)
        assert code == 0, err.getvalue()
        outs.append(json.loads(out.getvalue()))
    for d in outs:
        assert [b["label"] for b in d["bots"]] == ["caller", "RuleBot", "RandomBot"]
        assert sum(b["chips"] for b in d["bots"]) == 0 and d["hands_played"] == 300
    assert outs[0]["bots"] == outs[1]["bots"]
    from mypolicies_pbot import bot  # type: ignore[import-not-found]

    assert outs[0]["bots"] == simulate(players=3, hands=300, seed=5, chunk=100,
                                       bots=[bot, "rule", "random"]).to_dict()["bots"]


# -- Dask (a real LocalCluster, as tests/test_dask.py) ------------------------------------------

def test_on_a_dask_cluster_as_on_this_thread() -> None:
    distributed = pytest.importorskip("distributed")
    args: dict[str, Any] = {"players": 3, "hands": 600, "seed": 31, "chunk": 150,
                            "bots": [PolicyBot(pusher), "rule", "random"]}
    one = simulate(**args)
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) \
            as cluster, distributed.Client(cluster, timeout=30, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        dask = simulate(**args, executor=client.get_executor())
    assert dask.executor == "ClientExecutor" and results(dask) == results(one)


# -- Stable-Baselines3 (sb3-contrib's MaskablePPO, untrained, a tiny network) -------------------

@pytest.fixture(scope="module")
def maskable() -> Any:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = DrawEnv(players=2)
    return sb3_contrib.MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, n_steps=64, batch_size=32,
                                   seed=0, device="cpu")


def test_maskable_ppo_plays_in_simulate(maskable: Any) -> None:
    bot = PolicyBot(maskable)
    first = simulate(players=2, hands=300, seed=3, bots=[bot, "rule"], chunk=100)
    assert [b.label for b in first.per_bot] == ["MaskablePPO", "RuleBot"]
    assert first.hands_played == 300 and sum(b.chips for b in first.per_bot) == 0 and first.decisions > 300
    again = simulate(players=2, hands=300, seed=3, bots=[bot, "rule"], chunk=100)     # each chunk a deep copy
    assert results(again) == results(first)                                          # deterministic=True
    h = Hand(Rules(), [200, 200], button=0, seed=4)
    view = SeatView.of(h)
    obs, mask = bot.arrays(view)
    index, _ = maskable.predict(obs, action_masks=mask, deterministic=True)
    assert bot.decide(view) == Encoding().action(h, index)


def test_a_stochastic_model_and_its_policy_give_the_networks_distribution(maskable: Any) -> None:
    """``deterministic=False``: the model and its ``.policy`` (what the docs give a PolicyBot, so
    that it can be copied) both expose the network's masked distribution, the same one; it covers
    exactly the legal actions, sums to 1, and ``decide``'s draws follow it."""
    import torch

    whole, policy = PolicyBot(maskable, deterministic=False), PolicyBot(maskable.policy, deterministic=False)
    h = Hand(Rules(), [200, 200], button=0, seed=4)
    for _ in range(3):
        if h.actor is None:
            h = Hand(Rules(), [200, 200], button=1, seed=5)
        view = SeatView.of(h)
        a, b = whole.action_probabilities(view), policy.action_probabilities(view)
        assert a is not None and a == b and len(a) > 1
        assert abs(sum(q for _, q in a) - 1.0) < 1e-9
        for action, _ in a:
            h.clone().act(action)                                       # legal: no IllegalActionError
        obs, mask = policy.arrays(view)
        with torch.no_grad():
            tensor, _ = maskable.policy.obs_to_tensor(obs)
            net = maskable.policy.get_distribution(tensor, action_masks=mask).distribution.probs.reshape(-1).numpy()
        assert sorted(q for _, q in a) == pytest.approx(sorted(net[mask & (net > 0)] / net[mask].sum()))
        torch.manual_seed(0)
        draws = [policy.decide(view) for _ in range(400)]
        for action, q in a:
            assert abs(draws.count(action) / 400 - q) < 5 * math.sqrt(q * (1 - q) / 400) + 0.01
        h.act(RuleBot(1).decide(view))


def test_self_play_a_policy_bot_of_the_learner_as_its_opponent() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")

    class Learner:
        """The model being trained, asked for the opponent's actions as it learns."""

        model: Any = None

        def predict(self, observation: Any, deterministic: bool = True, action_masks: Any = None) -> Any:
            return self.model.predict(observation, action_masks=action_masks, deterministic=deterministic)

    learner = Learner()
    env = DrawEnv(players=2, opponents=PolicyBot(learner, name="self"))
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [8]}, n_steps=32, batch_size=32,
                                    seed=1, device="cpu")
    learner.model = model
    model.learn(64)
    assert model.num_timesteps >= 64


def test_the_docs_policy_example(capsys: pytest.CaptureFixture[str]) -> None:
    """The documentation's policy example (docs/research/environments.md, the code block that starts
    with ``# policy example``) runs."""
    page = Path(__file__).resolve().parent.parent / "docs" / "research" / "environments.md"
    if not page.exists():
        pytest.skip("docs/ is not next to tests/ (tests run outside the repository)")
    text = page.read_text(encoding="utf-8")
    start = text.index("```python\n# policy example")
    code = text[start + len("```python\n"):text.index("```", start + 10)]
    exec(compile(code, "docs/research/environments.md (policy example)", "exec"), {})
    out = capsys.readouterr().out
    assert out.startswith("calls0 ") and " bb/100 ± " in out


def test_a_view_no_hand_gives_is_refused_by_name() -> None:
    """A hand-made SeatView with a field no hand gives is refused, naming it, before the compiled
    encoding (which indexes its arrays by those values) reads it."""
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    view = SeatView.of(h)
    enc = Encoding()
    bad = [({"players": 6}, "6 players"), ({"seat": 3}, "seat 3"), ({"button": -1}, "button -1"),
           ({"to_act": 7}, "to_act 7"), ({"phase": "draw"}, "phase 'draw'"), ({"rules": None}, "rules NoneType"),
           ({"hole_cards": (*view.hole_cards, 31)}, "hole_cards"), ({"hole_cards": (40,)}, "hole_cards"),
           ({"discarded": (None, 9, None)}, "discarded"), ({"stacks": (200, 200)}, "another number of seats"),
           ({"bets": (1, "2", 0)}, "chips"), ({"pot": -3}, "chips"), ({"stacks": (200, 2.5, 200)}, "chips"),
           ({"public_events": [1]}, "public_events"),
           ({"legal": "x"}, "legal 'x'"), ({"legal": SeatView.of(h, 0).legal, "seat": 1}, "legal LegalActions"),
           ({"public_events": (*view.public_events, "x")}, r"public_events\[5\] str"),
           ({"folded": ("yes", False, False)}, "folded"), ({"hole_cards": (True, *view.hole_cards[1:])}, "hole_cards")]
    event = view.public_events[0]
    for field, value in (("amount", 10**30), ("amount", -3), ("amount", 2.5), ("seat", -1), ("seat", 40)):
        bad.append(({"public_events": (dataclasses.replace(event, **{field: value}), *view.public_events[1:])},
                    rf"public_events\[0\] {field} {value!r}"))
    legal = SeatView.of(h).legal
    assert legal is not None
    for change in ({"max_to": 10**30}, {"min_to": 9, "max_to": 8}, {"call_amount": -7},
                   {"kinds": frozenset({"call"})}):
        bad.append(({"legal": dataclasses.replace(legal, **change)}, "legal "))   # the compiled encoding's
        # OverflowError, the pure one's silence, a negative observation or a bare KeyError before
    for change, message in bad:
        with pytest.raises(PokerDraw32ValueError, match=message):
            enc.observation(view._replace(**change))


@pytest.mark.parametrize("value", [0, 1, 39])
def test_the_encoding_refuses_an_object_with_index_as_what_it_is(value: int) -> None:
    """Encoding.action, action_error and apply (DrawEnv's and a researcher's own loop): an object with
    ``__index__`` is refused as no action index, naming its type, never as the action its number stands for
    (index 0, fold, and 1, call, are legal here); the hand is unchanged."""
    h = Hand(Rules(), [200, 200, 200], button=0, seed=1)
    view = SeatView.of(h)
    before = h.snapshot()
    enc = Encoding()
    message = (f"action index Index({value}) is not an integer of the action space 0..38 (of type Index; an action "
               "index is an int, a numpy integer or a 0-d integer array)")
    for call in (lambda: enc.action(view, Index(value)), lambda: enc.apply(h, Index(value))):
        with pytest.raises(IllegalActionError) as info:
            call()
        assert str(info.value) == message and info.value.seat == 0
    assert str(enc.action_error(view, Index(value))) == message == str(enc.action_error(h, Index(value)))
    assert h.snapshot() == before
    assert enc.action(view, np.int64(1)).kind.value == "call"          # numpy integers are indices
