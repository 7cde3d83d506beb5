"""Variance-reduced win rates: an AIVAT estimator for :func:`pokerdraw32.simulate` (``estimator="aivat"``).

Burch, Schmid, Moravčík, Morrill and Bowling, *AIVAT: A New Variance Reduction Technique for Agent
Evaluation in Imperfect Information Games* (AAAI 2018): a bot's result in a hand, minus **control
variates** that each have expectation zero whatever the bots do, is an unbiased estimate of its
expected result with (when the control variates follow the luck) a much smaller variance.  A
control variate here is a *feature* of the hand right after a random event minus the feature's
expectation over that event given everything before it:

* **the deal** (R5.1): every seat's five cards.  Features: which seat holds the best hand now, the
  seat's call-down value (each pot shared by the best hand, every live seat matching the largest
  contribution as far as its stack goes), the strength buckets of its hand and of the best other
  hand and their products (:func:`showdown_features`), and exact marginal features (the hand's
  strength percentile, its category) whose expectations are known exactly (:data:`CATEGORY_COUNTS`).
  The expectation of the others is taken over ``samples`` deals drawn uniformly from the 32 cards
  (exactly sampled: an unbiased estimate of the expectation, independent of the hand);
* **the draw's replacement cards** (R6.1, R6.2), all players' together, once every discard is known
  (a player's discard never depends on cards dealt to another, so the replacements are, given the
  discards, uniformly random: the stub's order, and the order of every reshuffled discard pile).
  Features: the same :func:`showdown_features` of the final hands (in one block when two players
  are left in the hand, another when more are: each gets its own coefficients), and the seat's
  showdown share and call-down value again when nobody can bet any more; the expectation over
  ``samples`` re-deals of the replacements, each stub and reshuffled pile permuted anew while every
  player takes as many cards from each as in the hand (so a reshuffle happens where it happened);
* **the decisions of bots whose policy is known**: a bot that exposes the exact distribution of its
  decisions, ``action_probabilities(view)`` (:data:`~pokerdraw32.bots.ActionProbabilities`:
  :class:`~pokerdraw32.bots.RuleBot`, whose ``below(100)`` roll is enumerated,
  :class:`~pokerdraw32.bots.RandomBot`, the test bots, :class:`~pokerdraw32.cfr.CfrBot` from its
  strategy, :class:`~pokerdraw32.env.PolicyBot` from its network), and whose own class defines it
  (:func:`~pokerdraw32.bots.known_policy`: never assumed from a class alone, so a bot whose
  ``decide`` was replaced or overridden is an unknown policy): the action's class (fold,
  check/call/split/decline, bet/raise) and chips put in, and in the draw the number of cards
  thrown, minus their expectations under the distribution, times the seat's current showdown
  share.  The decisions of other bots (a user's plain function) have no correction: nothing is
  assumed about them;
* **values under the known policies** (AIVAT's value function; :meth:`HandFeatures._rollout`,
  :meth:`HandFeatures._exact`), when the run gives :class:`HandFeatures` the seats' policies
  (:func:`rollout_policies`: each known bot's ``action_probabilities``, asked of a copy of the bot
  so that the real one is left as it was; the rule bot's as a stand-in for a seat whose policy is
  not known).  The value of a state is each seat's expected result from it with every decision
  drawn from these policies by the estimator's generator.  Once the draw is over with betting to
  come, no card is dealt any more: the value of the hand as it stands is computed exactly, every
  action of positive probability enumerated (up to :data:`_TREE_NODES` states a hand, rollouts
  beyond), and its expectation over the replacement cards is the mean of one rollout from each of
  :data:`_ROLL_DRAWS` of the sampled re-deals; their difference is a feature.  A known bot's
  second-round decision: the value after the action taken minus the policy's expectation of the
  value after each of its actions (the same enumerated tree); a known bot's random discard: the
  same with one rollout after each discard, drawn before the bot chooses.  Before the draw a
  cheaper value: the first round played to its end by the known policies, then each seat's
  call-down value with the cards held then (:meth:`HandFeatures._play`), after each action of a
  known bot's first-round decision.  (The same value after the deal, against its mean over 16
  re-deals, explained 0.1% more of the variance for half again the time: left out.)  A
  distribution of more than :data:`_ROLL_ACTIONS` actions has its expectation taken over that many
  draws from it (:meth:`HandFeatures._choices`).  The values'
  noise comes
  from the estimator's own generator, independent of the cards and of the bots' choices, so each
  feature keeps expectation zero given the hand so far whatever the value function; a better one
  only explains more.  Last, the noise of the re-deals' mean: the first 26 showdown features
  (``W``, ``v``, ``A``, ``B``, ``W*A``, ``W*B``) averaged over all the samples minus their average over
  the :data:`_ROLL_DRAWS` rolled out (two unbiased estimates of one expectation: mean zero), so
  that the fit can take out the part of the rollout mean's sampling error they follow;
* **values from compiled rollouts** (:meth:`HandFeatures._fast`): the mean result of whole hands
  played on from a state in compiled code (:func:`~pokerdraw32._handcore.play.play_hand`, a few
  microseconds a hand), the rule bot's policy in every seat (exactly the line-up's policy for rule
  bots, a stand-in for any other: a value function need not be right to keep the features' mean
  zero, only to explain more when it is; so not heads-up beside another known policy, where they
  explained nothing more for 1.8x the time), ``samples // 4`` rollouts (at most
  :data:`_FAST_ROLLOUTS`): after the deal, against its mean over as many re-deals of every card
  (the hole cards and the stub's order); after each action of a known first-round decision (the
  value after the action taken minus the policy's expectation); after the draw with betting to
  come, against its mean over re-deals of the replacement cards.  Rollouts play out the draw, the
  part of a multi-way hand the first round's cheap value misses: five rule bots 2.6x-2.7x
  narrower without them, 3.4x-3.5x with them (``python bench/aivat.py --lineup
  rule,rule,rule,rule,rule``).

Every feature thus has expectation zero given the hand so far, so *any* linear combination of them
may be subtracted without bias.  The coefficients are fitted by least squares (ridge-regularised,
scale-free, the penalty chosen by generalised cross-validation among :data:`RIDGES`, features too
rare in the half left out, no correction at all when none beats the plain variance) **on the other
half of the samples** (cross-fitting: hands, or duplicate deals, of even index are corrected with
the coefficients fitted on the odd ones and the reverse), so they are independent of the samples
they correct and the estimate stays exactly unbiased.  A chunk keeps only sums (per bot and half:
count, sum and sum of squares of results, sums of features and of their products with the result
and with each other), so chunks add up in any order, on any worker.

The estimate and its interval are per bot; unlike the plain results (integers summing to zero,
R9.5) the bots' estimates need not sum exactly to zero.  The reduction is large when the bots'
results follow the cards (typical heads-up and short-handed play, 2.5x-3x narrower intervals
with a deterministic opponent), small when they follow the bots' own randomness at unknown
decisions (a user's bot that bets at random: its luck is not the cards').  With every policy
known the values do most of the work (``python bench/aivat.py --lineup cfr,rule``, 20,000 hands:
3.2x narrower than the plain interval; five rule bots 3.4x-3.5x), at a cost: the rollouts ask the
bots' policies in Python some fifty times a hand (cfr,rule: about 5 ms a hand, 22x the
CPU time of a plain run; five rule bots about 16 ms a hand, the compiled rollouts included).  Needs numpy (the
``[aivat]`` extra, or any of ``[rl]``, ``[openspiel]``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ._kernels import ACTION_CODES, Rng, evaluate_many, evaluate_mask, play, strength_score
from .actions import Action, ActionKind, EventKind, Phase
from .bots import _PHASE_CODE, RuleBot, SeatView, _kinds_mask, _packed
from .bots import _action as _rule_action
from .bots import known_policy as _known_policy
from .errors import PokerDraw32ValueError
from .hand import Hand

__all__ = [
    "CATEGORY_COUNTS",
    "FEATURES",
    "AivatStats",
    "HandFeatures",
    "check_samples",
    "estimate",
    "generator",
    "known_policy",
    "showdown_features",
]

CATEGORY_COUNTS = (52020, 107520, 24192, 10752, 5100, 1344, 204, 224, 20)
"""How many of the C(32, 5) = 201,376 hands have each :class:`~pokerdraw32.evaluation.HandCategory`
(0 high card .. 8 straight flush, R2): the exact expectation of the category features of a seat's
dealt hand (tests/test_aivat.py counts them again)."""
_HANDS = 201376
_CATEGORY_P = np.array(CATEGORY_COUNTS, dtype=np.float64) / _HANDS
_BUCKET = np.array([0, 1, 2, 3, 4, 5, 5, 5, 5])     # category -> bucket: high card .. straight, flush or better
_NB = 6
_EYE = np.eye(_NB)
SHOWDOWN_FEATURES = 2 + 4 * _NB + 2 * _NB * _NB
"""Length of :func:`showdown_features` (98)."""
_MARGINAL = 3 + 2 * 9
_DECISION = 2 * 12 + 3
_ALL_IN = 2
_VALUE = 2
_ROLLOUT = 5
_NOISE = 26
_FAST = 4
FEATURES = _MARGINAL + 3 * SHOWDOWN_FEATURES + _DECISION + _ALL_IN + _VALUE + _ROLLOUT + _NOISE + _FAST
"""Control variates per seat and hand: 21 exact marginals of the deal, 98 for the deal, 2 x 98 for
the draw (two players left in the hand, or more: other coefficients), 27 for the known bots'
decisions, 2 for a draw after which nobody can bet, 2 for the known bots' decisions measured by
the call-down value after them, one a betting round, 6 values under the known policies (after the
draw with two players left, with more; after a known bot's second-round decision; after a known
bot's random discard; after its first-round decision), 26 for the noise of the draw's value
samples, and 4 values from compiled rollouts (after the deal; after a known bot's first-round
decision; after the draw with two players left, with more) (381)."""
_DEAL0 = _MARGINAL
_DRAW0 = _DEAL0 + SHOWDOWN_FEATURES
_DEC0 = _DRAW0 + 2 * SHOWDOWN_FEATURES
_ALL_IN0 = _DEC0 + _DECISION
_VALUE0 = _ALL_IN0 + _ALL_IN
_ROLL0 = _VALUE0 + _VALUE
_ROLL_DRAW, _ROLL_BET, _ROLL_DISCARD, _ROLL_FIRST = _ROLL0, _ROLL0 + 2, _ROLL0 + 3, _ROLL0 + 4
_NOISE0 = _ROLL0 + _ROLLOUT
_FAST0 = _NOISE0 + _NOISE
_FAST_DEAL, _FAST_FIRST, _FAST_DRAW = _FAST0, _FAST0 + 1, _FAST0 + 2
_FAST_ROLLOUTS = 32
"""The most compiled rollouts (:meth:`HandFeatures._fast`) a value from them takes: ``samples // 4``
(at least one), up to this many."""
_ROLL_DRAWS = 24
"""The expected value after the draw (its expectation over the replacement cards) is the mean over
this many of the sampled re-deals of the replacement cards, one rollout each."""
_TREE_NODES = 400
"""The second round's value is computed exactly (every action of the known policies) for this many
states at most a hand; rollouts beyond."""
_ROLL_ACTIONS = 8
"""A known decision has its value after each action (rollouts, or the second round's tree) when its
distribution has at most this many actions; with more (a random bot's discards and bet sizes, a
network's bet buckets), after each of this many draws from it (:meth:`HandFeatures._choices`)."""
_VALUE_SAMPLES = 32
"""A distribution of more actions than this (a random bet size) has the expectation of the value
after its action estimated from this many draws of the estimator's own generator: unbiased, and
independent of the action the bot takes, so the feature keeps expectation zero."""
_FOLD, _PASSIVE, _AGGRESSIVE = 0, 1, 2
_CODE = {kind: ACTION_CODES[kind] for kind in ActionKind}
_AGGRESSIVE_CODES = frozenset({_CODE[ActionKind.BET], _CODE[ActionKind.RAISE]})
RIDGES = (1e-2, 1e-1, 1.0, 10.0, 100.0)
"""The ridge penalties tried on each half, relative to each feature's variance (scale-free); the
one with the least generalised cross-validation error wins, or no correction at all when that is
better still (few hands for many features: the estimate then falls back to the plain one)."""


def _pots(contrib: list[int], stacks: list[int], live: list[int]) -> tuple[list[tuple[int, list[int]]], list[int]]:
    """The pots if every live seat matched the largest contribution as far as its chips go (a
    call-down): ``([(amount, eligible seats), ...], each seat's contribution then)``."""
    top = max(contrib)
    cd = list(contrib)
    for s in live:
        cd[s] = min(contrib[s] + stacks[s], top)
    levels = sorted({cd[s] for s in live})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for k, level in enumerate(levels):
        amount = sum(min(c, level) - min(c, prev) for c in cd)
        if k == len(levels) - 1:
            amount += sum(c - level for c in cd if c > level)      # folded chips above the top level
        if amount:
            pots.append((amount, [s for s in live if cd[s] >= level]))
        prev = level
    return pots, cd


def showdown_features(values: npt.NDArray[np.int64], live: list[int], contrib: list[int], stacks: list[int],
                      scale: float) -> npt.NDArray[np.float64]:
    """The showdown features of every live seat for the first row of ``values`` minus their mean
    over the other rows (rows: card outcomes, the actual one first, then sampled ones; columns:
    seats; entries: :func:`~pokerdraw32._kernels.evaluate_mask` values, folded seats' ignored).

    Per seat and row: ``W`` the seat's share of a pot all live seats contest (1, 0, or 1/k tied),
    ``v`` its call-down value in chips / ``scale`` (every live seat matching the largest
    contribution as far as its stack goes, each pot to its best hand), the one-hot bucket ``A`` of
    its hand and ``B`` of the best other live hand (high card, pair, two pair, three of a kind,
    straight, flush or better), then ``W*A``, ``W*B``, ``A (x) B``, ``W * A (x) B``.

    :returns: ``float64[seats, SHOWDOWN_FEATURES]``, zero rows for folded seats.
    """
    rows, n = values.shape
    m = rows - 1

    def shares(seats: list[int]) -> npt.NDArray[np.float64]:      # [rows, n]
        sub = values[:, seats]
        win = sub == sub.max(axis=1, keepdims=True)
        out = np.zeros((rows, n))
        out[:, seats] = win / win.sum(axis=1, keepdims=True)
        return out

    pots, cd = _pots(contrib, stacks, live)
    w = shares(live)
    v = -np.asarray(cd, dtype=np.float64)[None, :].repeat(rows, axis=0)
    for amount, seats in pots:
        v += amount * shares(seats)
    v /= scale
    lv = values[:, live]
    k = len(live)
    top = lv.max(axis=1)
    if k > 1:                                   # the best other hand: the best, or the second best for the best
        first = lv.argmax(axis=1)
        masked = lv.copy()
        masked[np.arange(rows), first] = -1
        second = masked.max(axis=1)
        other = np.where(np.arange(k)[None, :] == first[:, None], second[:, None], top[:, None])
        b = _EYE[_BUCKET[other >> 22]]                                   # [rows, k, NB]
    else:
        b = np.zeros((rows, 1, _NB))
    a = _EYE[_BUCKET[lv >> 22]]                                          # [rows, k, NB]
    wk, vk = w[:, live], v[:, live]
    ab = (a[:, :, :, None] * b[:, :, None, :]).reshape(rows, k, _NB * _NB)
    f = np.concatenate([wk[:, :, None], vk[:, :, None], a, b, wk[:, :, None] * a, wk[:, :, None] * b, ab,
                        wk[:, :, None] * ab], axis=2)
    out = np.zeros((n, SHOWDOWN_FEATURES))
    out[live] = f[0] - f[1:].sum(axis=0) / m
    return out


def known_policy(bot: Any) -> Any:
    """The bot's ``action_probabilities`` when the estimator may use it, else None: the same as
    :func:`pokerdraw32.bots.known_policy` (a bot instance; a name or a class is no bot: None)."""
    return _known_policy(bot)


def rollout_policies(policies: list[Any], rng: np.random.Generator) -> list[Any]:
    """The known policies (each a bot's ``action_probabilities``, or None) as the estimator's
    rollouts call them: each of a copy of its bot (``copy.copy``) whose generator, when it has one,
    is seeded from the estimator's ``rng``.  A bot's ``action_probabilities`` may keep state (the
    CFR bot draws and remembers the translations of the opponent's raises, from its generator):
    asking it about rollouts' states would change the real bot's choices.  None where a copy cannot
    be made or gives no policy (the rollouts' stand-in plays that seat)."""
    out: list[Any] = []
    for policy in policies:
        bot = getattr(policy, "__self__", None)
        twin: Any = None
        if bot is not None:
            try:
                twin = copy.copy(bot)
            except Exception:
                twin = None
        if twin is not None and isinstance(getattr(twin, "rng", None), Rng):
            twin.rng = Rng(int(rng.integers(1 << 62)))
        if twin is not None and type(twin) is RuleBot:
            out.append(_rule_on_hand)           # the same distribution, read off the hand (no view)
            continue
        out.append(_known_policy(twin) if twin is not None else None)
    return out


_RULE_CACHE: dict[tuple[int, ...], list[tuple[Action, float]]] = {}


def _rule_on_hand(h: Hand) -> list[tuple[Action, float]]:
    """:meth:`RuleBot.action_probabilities <pokerdraw32.bots.RuleBot.action_probabilities>` for the
    seat to act in ``h``, from the hand itself (the compiled
    :func:`~pokerdraw32._handcore.play.rule_policy` on the same arguments, no :class:`SeatView`
    built, each distinct answer kept): the rollouts' rule bot, and their stand-in."""
    legal = h.legal_actions()
    assert legal is not None
    seat = legal.seat
    key = (_packed(h.hole[seat]), _PHASE_CODE[legal.phase], _kinds_mask(legal), h.bets[seat], legal.call_amount,
           legal.min_to if legal.min_to is not None else 0, legal.max_to if legal.max_to is not None else 0, h.pot)
    out = _RULE_CACHE.get(key)
    if out is None:
        if len(_RULE_CACHE) > 200_000:
            _RULE_CACHE.clear()
        out = _RULE_CACHE[key] = [(_rule_action(d), count / 100) for d, count in play.rule_policy(*key)]
    return out


def _masks(hand: Hand) -> list[int]:
    return [sum(1 << c for c in hand.hole[s]) for s in range(hand.n)]


def _evaluate(masks: npt.NDArray[np.uint32], suit_tiebreak: bool) -> npt.NDArray[np.int64]:
    rows, n = masks.shape
    flat = np.where(masks == 0, np.uint32(0x1F), masks).reshape(-1)   # folded seats: any hand, ignored
    return np.asarray(evaluate_many(flat, suit_tiebreak=suit_tiebreak), dtype=np.int64).reshape(rows, n)


class HandFeatures:
    """The control variates of one hand, every seat's, computed as the hand is played.

    Call :meth:`dealt` once the hand is dealt, :meth:`before` / :meth:`after` around each decision
    (with the distribution of the seat's decision when its bot's policy is known), and read
    :attr:`features` at the end:
    ``float64[players, FEATURES]``, row ``s`` for hand seat ``s``.

    :param hand: the hand, just dealt (reset mode: equal stacks).
    :param rng: the estimator's own numpy generator (the bots' and the table's are not touched).
    :param samples: how many outcomes each expectation is sampled over (>= 1).
    :param policies: each hand seat's policy for the rollouts (:func:`rollout_policies`; None: no
        value features, their columns zero).
    """

    def __init__(self, hand: Hand, rng: np.random.Generator, samples: int,
                 policies: list[Any] | None = None) -> None:
        self.hand = hand
        self.policies = policies if policies is not None and any(p is not None for p in policies) else None
        self.rng = rng
        self.samples = samples
        self.n = n = hand.n
        self.scale = float(max(hand.starting_stacks))
        self.tiebreak = bool(hand.rules.suit_tiebreak)
        self.features = np.zeros((n, FEATURES))
        self._fast_count = max(1, min(_FAST_ROLLOUTS, samples // 4))
        # compiled rollouts play the rule policy in every seat: heads-up beside another known policy
        # they explained nothing more (cfr,rule: 3.24x against 3.23x) for 1.8x the CPU time
        self._compiled = self.policies is not None and (
            n > 2 or all(policy is _rule_on_hand or policy is None for policy in self.policies))
        self._segments: list[list[int]] | None = None
        self._before_draw: tuple[list[int], list[int], list[int]] = ([], [], [])
        self._drawers: list[tuple[int, int, list[tuple[int, int]]]] = []
        self._pending: tuple[Any, ...] | None = None
        self._tree: dict[tuple[Any, ...], npt.NDArray[np.float64]] | None = None   # the second round's values
        self._path: tuple[Any, ...] = ()            # the second round's actions so far
        self._dealt()

    # -- the deal ----------------------------------------------------------------------------------

    def _dealt(self) -> None:
        h, n, m = self.hand, self.n, self.samples
        actual = np.array([_masks(h)], dtype=np.uint32)
        order = np.argsort(self.rng.random((m, 32)), axis=1).astype(np.uint32)
        one = np.uint32(1)
        redeals = np.zeros((m, n), dtype=np.uint32)
        for s in range(n):
            for j in range(5):
                redeals[:, s] |= np.left_shift(one, order[:, 5 * s + j])
        values = _evaluate(np.concatenate([actual, redeals]), self.tiebreak)
        live = list(range(n))
        contrib, stacks = list(h.contrib), list(h.stacks)
        dealt = values[0]
        best = dealt.max()
        percent = [strength_score(int(x), self.tiebreak) / (2 * _HANDS) - 0.5 for x in dealt]
        categories = np.zeros((n, 9))
        categories[np.arange(n), dealt >> 22] = 1.0
        categories -= _CATEGORY_P
        for me in live:
            f = self.features[me]
            others = [s for s in live if s != me]
            f[0] = float(dealt[me] == best) / float((dealt == best).sum()) - 1.0 / n
            f[1] = percent[me]
            f[2] = sum(percent[s] for s in others) / len(others)
            f[3:12] = categories[me]
            f[12:21] = categories[others].mean(axis=0)
        self.features[:, _DEAL0:_DRAW0] = showdown_features(values, live, contrib, stacks, self.scale)
        if self._compiled:
            k = self._fast_count
            expected = np.zeros(n)
            for j in range(k):
                c = self._clone(h)
                c._set_cards([[int(x) for x in order[j, 5 * s:5 * s + 5]] for s in range(n)], [], [], [],
                             [int(x) for x in order[j, 5 * n:]])
                expected += self._fast(c, 1)
            self.features[:, _FAST_DEAL] = (self._fast(h, k) - expected / k) / self.scale

    # -- decisions and the draw --------------------------------------------------------------------

    def before(self, seat: int, view: SeatView, probabilities: Any = None) -> None:
        """Seat ``seat`` is about to act from ``view``; ``probabilities`` is the exact distribution
        of its decision (:data:`~pokerdraw32.bots.ActionProbabilities`, what its bot's
        ``action_probabilities(view)`` returns when :func:`known_policy` trusts it), or None when
        nothing is known of it."""
        h = self.hand
        if h.phase is Phase.DRAW:
            if self._segments is None:          # the draw starts: no chip moves until it ends
                self._segments = [sorted(h.stub)]
                live = [s for s in range(self.n) if not h.folded[s]]
                self._before_draw = (list(h.contrib), list(h.stacks), live)
            thrown = None
            share = None
            if probabilities is not None:
                thrown = sum(q * len(a.cards) for a, q in probabilities)
                if any(len(a.cards) != thrown for a, _q in probabilities):
                    share = self._share_now()
            rolled = self._roll_actions(probabilities) if probabilities is not None and len(probabilities) > 1 else None
            self._pending = ("draw", seat, list(h.stub), set(h.hole[seat]), len(h.events), thrown, share, rolled)
        elif probabilities is not None:
            legal = view.legal
            assert legal is not None
            p, chips = self._classes(view, probabilities)
            strength = [evaluate_mask(m, self.tiebreak) if m else -1 for m in _masks(h)]
            share = self._share_now()
            state = (list(h.contrib), list(h.stacks), [s for s in range(self.n) if not h.folded[s]])
            expected = np.zeros(self.n)
            if len(probabilities) <= _VALUE_SAMPLES:
                for action, q in probabilities:
                    expected += q * self._value_after(seat, action, view.bets[seat], legal.call_amount, strength,
                                                      state)
            else:       # many amounts (a random bet size): the mean over draws of the estimator's own
                q = np.array([q for _, q in probabilities])   # generator, an unbiased estimate of the expectation
                picks = np.bincount(self.rng.choice(len(q), size=_VALUE_SAMPLES, p=q / q.sum()), minlength=len(q))
                for i in np.flatnonzero(picks):
                    expected += picks[i] / _VALUE_SAMPLES * self._value_after(
                        seat, probabilities[i][0], view.bets[seat], legal.call_amount, strength, state)
            r = 0 if h.phase is Phase.FIRST_ROUND else 1
            rolled = self._roll_actions(probabilities) if r == 0 or self._tree is not None else None
            fast = None
            chosen = self._choices(probabilities) if r == 0 and self._compiled else None
            if chosen is not None:
                fast = [(a, q, self._fast(self._acted(a), self._fast_count)) for a, q in chosen]
            self._pending = ("bet", seat, p, chips, view.bets[seat], legal.call_amount, r, share, expected, strength,
                             state, rolled, fast)
        else:
            self._pending = None

    def _classes(self, view: SeatView, probabilities: Any) -> tuple[list[float], float]:
        """The distribution's probability of each action class and its expected chips put in."""
        legal = view.legal
        assert legal is not None
        bet = view.bets[legal.seat]
        p = [0.0, 0.0, 0.0]
        chips = 0.0
        for action, q in probabilities:
            code = _CODE[action.kind]
            p[self._class_of(code)] += q
            chips += q * self._chips_of(code, action.amount if action.amount is not None else 0, bet,
                                        legal.call_amount)
        return p, chips

    @staticmethod
    def _class_of(code: int) -> int:
        if code == _CODE[ActionKind.FOLD]:
            return _FOLD
        return _AGGRESSIVE if code in _AGGRESSIVE_CODES else _PASSIVE

    @staticmethod
    def _chips_of(code: int, to: float, bet: int, call: int) -> float:
        if code in _AGGRESSIVE_CODES:
            return to - bet
        return float(call) if code == _CODE[ActionKind.CALL] else 0.0

    def after(self, action: Action) -> None:
        """The seat that :meth:`before` named has played ``action`` (applied to the hand)."""
        pending, self._pending = self._pending, None
        path = self._path
        if self._tree is not None:
            self._path = (*path, action)
        if pending is None:
            return
        if pending[0] == "bet":
            _, seat, p, chips, bet, call, r, share, expected, strength, state, rolled, fast = pending
            code = _CODE[action.kind]
            taken = [0.0, 0.0, 0.0]
            taken[self._class_of(code)] = 1.0
            to = action.amount if action.amount is not None else 0
            self._decision(seat, r, share, taken, p, self._chips_of(code, to, bet, call), chips)
            value = self._value_after(seat, action, bet, call, strength, state)
            self.features[:, _VALUE0 + r] += (value - expected) / self.scale
            self._rolled(_ROLL_BET if r else _ROLL_FIRST, rolled, action, path)
            if fast is not None:
                values = {a: v for a, _q, v in fast}
                after = values[action] if action in values else self._fast(self.hand, self._fast_count)
                mean = sum(q * v for _a, q, v in fast) / sum(q for _a, q, _v in fast)
                self.features[:, _FAST_FIRST] += (after - mean) / self.scale
        else:
            self._rolled(_ROLL_DISCARD, pending[-1], action, path)
            self._drew(*pending[1:-1])

    def _value_after(self, seat: int, action: Action, bet: int, call: int, strength: list[int],
                     before: tuple[list[int], list[int], list[int]]) -> Any:
        """Each seat's call-down value (chips) after ``seat`` plays ``action``: every live seat
        matching the largest contribution as far as its stack goes, each pot to the best hand held
        now among its seats (``strength``: the hands' values), minus what the seat put in; a folded
        seat loses what it put in (``before``: the contributions, stacks and live seats before the
        decision).  The value against which a known policy's choice is measured: its expectation
        over the policy, minus the value of the action taken, has expectation zero."""
        contrib, stacks, live = (list(x) for x in before)     # the chips and live seats before the action
        code = _CODE[action.kind]
        if code == _CODE[ActionKind.FOLD]:
            live.remove(seat)
        else:
            put = min(int(self._chips_of(code, action.amount if action.amount is not None else 0, bet, call)),
                      stacks[seat])
            contrib[seat] += put
            stacks[seat] -= put
        return self._calldown(contrib, stacks, live, strength)

    def _calldown(self, contrib: list[int], stacks: list[int], live: list[int],
                  strength: list[int]) -> npt.NDArray[np.float64]:
        """Each seat's call-down value (chips): every live seat matching the largest contribution
        as far as its stack goes, each pot to the best of ``strength`` among its seats."""
        value = -np.asarray(contrib, dtype=np.float64)
        if len(live) == 1:
            value[live[0]] += sum(contrib)
            return value
        pots, cd = _pots(contrib, stacks, live)
        value = -np.asarray(cd, dtype=np.float64)
        for amount, seats in pots:
            best = max(strength[s] for s in seats)
            winners = [s for s in seats if strength[s] == best]
            for s in winners:
                value[s] += amount / len(winners)
        return value

    # -- rollouts: the value of a state under the known policies -----------------------------------

    def _clone(self, h: Hand) -> Hand:
        """A copy of ``h`` for a rollout, its generator (a reshuffle's, R6.2) seeded from the
        estimator's own: nothing of the table's generator is copied or touched."""
        c = h.clone()
        c.rng = Rng(int(self.rng.integers(1 << 62)))
        return c

    def _rollout(self, h: Hand) -> npt.NDArray[np.float64]:
        """Plays ``h`` (a :meth:`_clone`, changed) to its end, every decision drawn by the
        estimator's generator from the seat's known policy (a seat whose policy is not known, or
        that gives none: the rule bot's, a stand-in), and returns each seat's result in chips: one
        sample of the state's value, its noise independent of how the real hand goes on."""
        return self._play(h, None)

    def _acted(self, action: Action) -> Hand:
        """A :meth:`_clone` of the hand with ``action`` played."""
        c = self._clone(self.hand)
        c.act(action)
        return c

    def _fast(self, h: Hand, count: int) -> npt.NDArray[np.float64]:
        """The mean result (chips, each seat) of ``count`` rollouts of ``h`` (left as it is) in
        compiled code, the rule bot's policy in every seat (:func:`~pokerdraw32._handcore.play.play_hand`),
        each with a generator seeded from the estimator's: a value of the state as cheap as a few
        microseconds a rollout, the same function of the state and the estimator's noise in both
        builds."""
        total = np.zeros(self.n)
        rule = [play.RULE] * self.n
        for seed in self.rng.integers(1 << 62, size=count).tolist():
            c = h.clone()
            c.rng = g = Rng(seed)
            play.play_hand(c, rule, [g] * self.n)
            total += c.stacks
        return total / count - np.asarray(h.starting_stacks, dtype=np.float64)

    def _play(self, h: Hand, until: Phase | None) -> npt.NDArray[np.float64]:
        """:meth:`_rollout`, or with ``until`` a phase, only while the hand is in it; then the value:
        the result if the hand is over, else each seat's call-down value with the cards held now
        (:meth:`_value_after`'s: the first round's cheap value, the draw not looked at)."""
        policies = self.policies
        assert policies is not None
        rng = self.rng
        while (seat := h.actor) is not None and (until is None or h.phase is until):
            probabilities = self._ask(h, seat)
            pick = 0
            if len(probabilities) > 1:
                u = rng.random() * sum(q for _, q in probabilities)
                while pick < len(probabilities) - 1 and u >= probabilities[pick][1]:
                    u -= probabilities[pick][1]
                    pick += 1
            h.act(probabilities[pick][0])
        if h.actor is None:
            return np.asarray(h.stacks, dtype=np.float64) - np.asarray(h.starting_stacks, dtype=np.float64)
        live = [s for s in range(self.n) if not h.folded[s]]
        strength = [evaluate_mask(m, self.tiebreak) if m else -1 for m in _masks(h)]
        return self._calldown(list(h.contrib), list(h.stacks), live, strength)

    def _ask(self, h: Hand, seat: int) -> Any:
        """The distribution of seat ``seat``'s decision in ``h`` under its known policy (a seat
        whose policy is not known, or that gives none: the rule bot's, a stand-in)."""
        assert self.policies is not None
        policy = self.policies[seat]
        if policy is _rule_on_hand or policy is None:
            return _rule_on_hand(h)
        probabilities = policy(SeatView.of(h))
        return probabilities if probabilities else _rule_on_hand(h)

    def _choices(self, probabilities: Any) -> list[tuple[Any, float]] | None:
        """The actions a known decision's value features weigh, with their weights (summing to 1):
        every action of the distribution when it has two to :data:`_ROLL_ACTIONS`; with more (a
        random bot's discards and bet sizes, a network's bet buckets) the distinct ones among
        :data:`_ROLL_ACTIONS` draws of the estimator's generator, weighted by how often each was
        drawn (an unbiased estimate of the expectation, independent of the action the bot takes:
        the action taken, when not drawn, is valued afresh); None for one action."""
        if len(probabilities) <= 1:
            return None
        if len(probabilities) <= _ROLL_ACTIONS:
            total = sum(q for _, q in probabilities)
            return [(a, q / total) for a, q in probabilities]
        q = np.array([q for _, q in probabilities], dtype=np.float64)
        counts = np.bincount(self.rng.choice(len(q), size=_ROLL_ACTIONS, p=q / q.sum()), minlength=len(q))
        return [(probabilities[i][0], counts[i] / _ROLL_ACTIONS) for i in np.flatnonzero(counts)]

    def _roll_actions(self, probabilities: Any) -> tuple[list[Any], npt.NDArray[np.float64],
                                                         npt.NDArray[np.float64], Phase] | None:
        """Before a known decision of two or more possible actions: the value after each of
        :meth:`_choices` (one rollout, or the second round's tree) (``(actions, values[actions,
        seats], weights)``), drawn before the bot chooses and with the estimator's generator, so
        independent of its choice."""
        chosen = self._choices(probabilities) if self.policies is not None else None
        if chosen is None:
            return None
        actions = [a for a, _ in chosen]
        q = np.array([w for _, w in chosen], dtype=np.float64)
        values = np.zeros((len(actions), self.n))
        tree = self._tree
        for i, action in enumerate(actions):
            if tree is not None and (found := tree.get((*self._path, action))) is not None:
                values[i] = found
                continue
            c = self._clone(self.hand)
            c.act(action)
            values[i] = self._value_of(c, (*self._path, action), self.hand.phase)
        return actions, values, q / q.sum(), self.hand.phase

    def _value_of(self, c: Hand, path: tuple[Any, ...], phase: Phase) -> npt.NDArray[np.float64]:
        """The value of ``c`` (a :meth:`_clone` of the hand after a decision in ``phase``): after
        one in the first round its cheap value (:meth:`_play` to the round's end), in the draw a
        rollout, in the second round the tree's (``path``: the second round's actions to ``c``)."""
        if phase is Phase.FIRST_ROUND:
            return self._play(c, Phase.FIRST_ROUND)
        return self._rollout(c) if self._tree is None else self._exact(c, path, self._tree)

    def _rolled(self, column: int, rolled: Any, action: Action, path: tuple[Any, ...]) -> None:
        """The known decision ``action`` is played (after ``path`` in the second round): its value
        (the one drawn before, or a new one from the hand now) minus their expectation under the
        policy, in ``column``."""
        if rolled is None:
            return
        actions, values, q, phase = rolled
        for i, a in enumerate(actions):
            if a == action:
                value = values[i]
                break
        else:           # the hand has moved on: the value of where it is now, by the same measure
            value = self._value_of(self._clone(self.hand), (*path, action), phase)
        self.features[:, column] += (value - q @ values) / self.scale

    def _exact(self, h: Hand, path: tuple[Any, ...], tree: dict[tuple[Any, ...], npt.NDArray[np.float64]]
               ) -> npt.NDArray[np.float64]:
        """The value of ``h`` (a :meth:`_clone` in the second round: no card is dealt any more) under
        the known policies, each seat's expected result in chips, by enumerating every action of
        positive probability (a distribution of more than :data:`_VALUE_SAMPLES` actions, or a
        tree grown past :data:`_TREE_NODES` nodes: one action drawn, as a rollout does), stored in
        ``tree`` under ``path`` (the second round's actions to ``h``) and below."""
        if h.actor is None:
            value = np.asarray(h.stacks, dtype=np.float64) - np.asarray(h.starting_stacks, dtype=np.float64)
        else:
            probabilities = self._ask(h, h.actor)
            if len(probabilities) > _VALUE_SAMPLES or len(tree) > _TREE_NODES:
                value = self._rollout(h)
            else:
                value = np.zeros(self.n)
                total = sum(q for _, q in probabilities)
                for action, q in probabilities:
                    if q > 0:
                        c = h.clone()
                        c.act(action)
                        value += q / total * self._exact(c, (*path, action), tree)
        tree[path] = value
        return value

    def _draw_value(self, rows: npt.NDArray[np.uint32], block: int) -> int:
        """After the draw, betting still to come: the value of the hand as it is (exact,
        :meth:`_exact`: its tree kept for the second round's decisions), minus the mean of one
        rollout from each of the first :data:`_ROLL_DRAWS` re-deals of the replacement cards
        (``rows[1:]``: every seat's cards after each re-deal; each its own stub, the pile, muck
        and discards as they are), in ``block``.  Returns how many re-deals were rolled out."""
        self._tree = {}
        actual = self._exact(self._clone(self.hand), (), self._tree)
        k = min(_ROLL_DRAWS, len(rows) - 1)
        expected = np.zeros(self.n)
        for c in self._redeals(rows, k):
            expected += self._rollout(c)
        self.features[:, block] = (actual - expected / k) / self.scale
        return k

    def _redeals(self, rows: npt.NDArray[np.uint32], k: int) -> Iterator[Hand]:
        r""":meth:`_clone`\ s of the hand after the draw, each with the replacement cards of one of the
        re-deals ``rows[1:k + 1]`` (every seat's cards; each its own stub, the pile, muck and
        discards as they are), made one at a time as the caller asks."""
        h = self.hand
        pile, muck, own = list(h.pile), list(h.muck), list(h._own_discards)
        away = set(pile) | set(muck) | set(own)
        for j in range(1, k + 1):
            hole = [[c for c in range(32) if int(m) >> c & 1] for m in rows[j]]
            held = {c for cards in hole for c in cards}
            c = self._clone(h)
            c._set_cards(hole, pile, muck, own, [x for x in range(32) if x not in held and x not in away])
            yield c

    def _fast_draw(self, rows: npt.NDArray[np.uint32], column: int) -> None:
        """After the draw, betting still to come: :meth:`_fast`'s value of the hand as it is minus
        the mean of one compiled rollout from each of the first :data:`_FAST_ROLLOUTS` re-deals of
        the replacement cards (``rows[1:]``, as :meth:`_draw_value`), in ``column``."""
        k = min(self._fast_count, len(rows) - 1)
        expected = np.zeros(self.n)
        for c in self._redeals(rows, k):
            expected += self._fast(c, 1)
        self.features[:, column] = (self._fast(self.hand, k) - expected / k) / self.scale

    def _share_now(self) -> list[float]:
        h = self.hand
        live = [s for s in range(self.n) if not h.folded[s]]
        values = [evaluate_mask(m, self.tiebreak) if m else -1 for m in _masks(h)]
        best = max(values[s] for s in live)
        winners = sum(1 for s in live if values[s] == best)
        return [1.0 / winners if s in live and values[s] == best else 0.0 for s in range(self.n)]

    def _decision(self, seat: int, r: int, share: list[float], taken: list[float], p: list[float],
                  chips_taken: float, chips: float) -> None:
        """A known bot's betting decision: its class and chips against their expectations, times
        the context (1, each seat's showdown share before the decision, actor or not)."""
        base = _DEC0 + 12 * r
        for me in range(self.n):
            ctx = (1.0, share[me], 1.0 if me == seat else -1.0)
            f = self.features[me]
            for c in range(3):
                for k in range(3):
                    f[base + 3 * c + k] += (taken[c] - p[c]) * ctx[k]
            for k in range(3):
                f[base + 9 + k] += (chips_taken - chips) / self.scale * ctx[k]

    def _drew(self, seat: int, stub_before: list[int], hole_before: set[int], events_before: int,
              thrown: float | None, share: list[float] | None) -> None:
        h = self.hand
        assert self._segments is not None
        hole_after = set(h.hole[seat])
        kept = hole_before & hole_after
        k = 5 - len(kept)
        if thrown is not None and share is not None:   # a draw of a known, random number of cards
            for me in range(self.n):
                ctx = (1.0, share[me], 1.0 if me == seat else -1.0)
                for j in range(3):
                    self.features[me][_DEC0 + 24 + j] += (k - thrown) / 4 * ctx[j]
        if any(e.kind is EventKind.RESHUFFLE for e in h.events[events_before:]):
            fresh = sorted(set(h.stub) | (hole_after - kept - set(stub_before)))
            self._segments.append(fresh)
            last = len(self._segments) - 1
            takes = [(last - 1, len(stub_before)), (last, k - len(stub_before))]
        else:
            takes = [(len(self._segments) - 1, k)] if k else []
        self._drawers.append((seat, sum(1 << c for c in kept), takes))
        if h.phase is not Phase.DRAW:
            self._replacements()

    def _replacements(self) -> None:
        """The draw is over: the replacement cards' control variates."""
        h, n, m = self.hand, self.n, self.samples
        assert self._segments is not None
        rows = np.empty((m + 1, n), dtype=np.uint32)
        rows[:] = np.array(_masks(h), dtype=np.uint32)
        shuffled = [np.asarray(seg, dtype=np.uint32)[np.argsort(self.rng.random((m, len(seg))), axis=1)]
                    if seg else np.zeros((m, 0), dtype=np.uint32) for seg in self._segments]
        at = [0] * len(shuffled)
        one = np.uint32(1)
        for seat, kept, takes in self._drawers:
            hand = np.full(m, kept, dtype=np.uint32)
            for segment, count in takes:
                for _ in range(count):
                    hand |= np.left_shift(one, shuffled[segment][:, at[segment]])
                    at[segment] += 1
            rows[1:, seat] = hand
        values = _evaluate(rows, self.tiebreak)
        # the chips as they were in the draw: when it leads straight to the showdown the hand is
        # complete by now, its stacks paid out according to the very cards these features weigh
        contrib, stacks, live = self._before_draw
        block = _DRAW0 if len(live) == 2 else _DRAW0 + SHOWDOWN_FEATURES
        settled = sum(1 for s in live if stacks[s] > 0) <= 1     # no more betting: the cards decide
        d = showdown_features(values, live, contrib, stacks, self.scale)
        self.features[:, block:block + SHOWDOWN_FEATURES] = d
        if settled:
            self.features[:, _ALL_IN0:_ALL_IN0 + 2] = d[:, :2]
        elif self.policies is not None and h.actor is not None:
            k = self._draw_value(rows, _ROLL_DRAW + (0 if len(live) == 2 else 1))
            if self._compiled:
                self._fast_draw(rows, _FAST_DRAW + (0 if len(live) == 2 else 1))
            few = showdown_features(values[:k + 1], live, contrib, stacks, self.scale)
            self.features[:, _NOISE0:_NOISE0 + _NOISE] = (few - d)[:, :_NOISE]


# -- the chunk's sums and the estimate ------------------------------------------------------------

@dataclass
class AivatStats:
    """A chunk's (or a run's) sums for the estimator, per bot and half (``[bot][half]``; half 0:
    samples of even index, 1: odd): ``count`` samples, ``u`` and ``uu`` the sum of results (chips)
    and of their squares, ``f`` the sum of features, ``uf`` of result times features, ``ff`` of the
    features' outer products.  ``+`` adds two."""

    count: npt.NDArray[np.float64]                # [bots, 2]
    u: npt.NDArray[np.float64]                    # [bots, 2]
    uu: npt.NDArray[np.float64]                   # [bots, 2]
    f: npt.NDArray[np.float64]                    # [bots, 2, F]
    uf: npt.NDArray[np.float64]                   # [bots, 2, F]
    ff: npt.NDArray[np.float64]                   # [bots, 2, F, F]
    samples: int = 0
    known: list[bool] = field(default_factory=list)

    @classmethod
    def zeros(cls, bots: int, samples: int, known: list[bool]) -> AivatStats:
        return cls(np.zeros((bots, 2)), np.zeros((bots, 2)), np.zeros((bots, 2)), np.zeros((bots, 2, FEATURES)),
                   np.zeros((bots, 2, FEATURES)), np.zeros((bots, 2, FEATURES, FEATURES)), samples, known)

    def add(self, half: int, results: list[int], features: npt.NDArray[np.float64]) -> None:
        """One sample: each bot's result (chips) and features (``[bots, FEATURES]``)."""
        self.add_many(np.array([half]), np.asarray([results], dtype=np.float64), features[None])

    def add_many(self, halves: npt.NDArray[np.int64], results: npt.NDArray[np.float64],
                 features: npt.NDArray[np.float64]) -> None:
        """Samples in a batch (one matrix product a bot and half, not an outer product a sample):
        ``halves[k]`` 0 or 1, ``results[k, bot]`` chips, ``features[k, bot, FEATURES]``."""
        for half in (0, 1):
            pick = halves == half
            if not pick.any():
                continue
            u = results[pick]
            f = features[pick]
            self.count[:, half] += len(u)
            self.u[:, half] += u.sum(axis=0)
            self.uu[:, half] += (u * u).sum(axis=0)
            self.f[:, half] += f.sum(axis=0)
            self.uf[:, half] += np.einsum("kb,kbi->bi", u, f)
            for b in range(f.shape[1]):
                self.ff[b, half] += f[:, b].T @ f[:, b]

    def __add__(self, other: AivatStats) -> AivatStats:
        return AivatStats(self.count + other.count, self.u + other.u, self.uu + other.uu, self.f + other.f,
                          self.uf + other.uf, self.ff + other.ff, self.samples, self.known)


@dataclass(frozen=True)
class Estimate:
    """One bot's AIVAT estimate: ``mean`` chips per sample, ``variance`` of one corrected sample
    (chips squared), ``samples``; ``correction`` the mean correction subtracted (chips per sample:
    expected 0) and ``correction_variance`` the variance of one sample's correction (chips squared):
    ``correction / sqrt(correction_variance / samples)`` is a z-score, the check that the control
    variates have mean zero."""

    mean: float
    variance: float
    samples: int
    correction: float
    correction_variance: float

    def __neg__(self) -> Estimate:
        return Estimate(-self.mean, self.variance, self.samples, -self.correction, self.correction_variance)


MIN_SPREAD = 5.0
"""A feature takes part in a half's fit only if its variance times the half's samples is at least
this (an indicator must have been seen about five times): rarer ones get no coefficient."""


def _fit(s: AivatStats, b: int, half: int) -> npt.NDArray[np.float64]:
    """Coefficients fitted on one half: ridge least squares of the results on the centred
    features, each feature's penalty a multiple of its variance, the multiple (:data:`RIDGES`)
    chosen by generalised cross-validation (Golub, Heath and Wahba 1979: the residual variance
    over ``(1 - effective parameters / samples)**2``, from the half's sums alone), zero
    coefficients when none beats the plain variance.  Features rarer than :data:`MIN_SPREAD` in the
    half are left out."""
    n = s.count[b, half]
    beta = np.zeros(FEATURES)
    if n < 3:
        return beta
    mf = s.f[b, half] / n
    mu = s.u[b, half] / n
    cov = s.ff[b, half] / n - np.outer(mf, mf)
    cu = s.uf[b, half] / n - mf * mu
    var_u = s.uu[b, half] / n - mu * mu
    diag = np.diag(cov).copy()
    active = diag * n >= MIN_SPREAD         # a feature seen a few times in this half fits those hands
    if not active.any():                    # only, and would swing the other half's estimate
        return beta
    c = cov[np.ix_(active, active)]
    d = diag[active]
    cv = cu[active]
    best, chosen = var_u, None                     # no correction: the plain estimate
    for ridge in RIDGES:
        try:
            inverse = np.linalg.inv(c + np.diag(ridge * d))
        except np.linalg.LinAlgError:
            continue
        fitted = inverse @ cv
        residual = var_u - 2 * fitted @ cv + fitted @ c @ fitted
        effective = float(np.trace(inverse @ c))
        if effective >= n - 1:
            continue
        score = residual / (1 - effective / n) ** 2
        if score < best:
            best, chosen = score, fitted
    if chosen is not None:
        beta[active] = chosen
    return beta


def estimate(s: AivatStats) -> list[Estimate]:
    """Each bot's cross-fitted estimate from a run's sums (see the module).  Heads-up the second
    bot's estimate is the first's negated, so that the two sum to zero as the results do (R9.5)."""
    out = []
    for b in range(s.count.shape[0]):
        betas = (_fit(s, b, 1), _fit(s, b, 0))        # half 0 corrected by half 1's fit, and the reverse
        total = total_sq = correction = 0.0
        within = c_within = 0.0
        n_all = 0
        for half in (0, 1):
            n = int(s.count[b, half])
            if n == 0:
                continue
            beta = betas[half]
            r = s.u[b, half] - beta @ s.f[b, half]
            rr = s.uu[b, half] - 2 * beta @ s.uf[b, half] + beta @ s.ff[b, half] @ beta
            total += r
            total_sq += rr
            c = beta @ s.f[b, half]
            correction += c
            within += rr - r * r / n
            c_within += beta @ s.ff[b, half] @ beta - c * c / n
            n_all += n
        if n_all == 0:
            out.append(Estimate(0.0, math.nan, 0, 0.0, math.nan))
            continue
        mean = total / n_all
        variance = max(within, 0.0) / (n_all - 2) if n_all > 2 else math.nan
        c_variance = max(c_within, 0.0) / (n_all - 2) if n_all > 2 else math.nan
        out.append(Estimate(float(mean), float(variance), n_all, float(correction / n_all), float(c_variance)))
    if len(out) == 2:     # heads-up, every sample's results are u and -u (R9.5): the first bot's fit, mirrored
        out[1] = -out[0]
    return out


def generator(seed: int) -> np.random.Generator:
    """The estimator's numpy generator for a chunk seeded ``seed`` (apart from the chunk's
    :class:`~pokerdraw32.Rng`: the cards and the bots' choices do not change with the estimator)."""
    return np.random.default_rng(np.random.SeedSequence([seed & 0xFFFFFFFF, seed >> 32, 0xA1FA7]))


def check_samples(samples: object) -> int:
    """:raises PokerDraw32ValueError: not an int from 1 to 100,000."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 100_000:
        raise PokerDraw32ValueError(f"samples={samples!r}: the estimator's sampled expectations take 1 to 100,000 "
                                    "outcomes each")
    return samples
