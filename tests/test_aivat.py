"""The AIVAT estimator of simulate(estimator="aivat") (issue 24 item 5): its pieces are exact, its
control variates have mean zero, its estimate agrees with the plain one and its interval is narrower.

Needs numpy (pokerdraw32.aivat); runs with compiled and pure kernels alike."""

from __future__ import annotations

import copy
import itertools
import json
import math
import subprocess
import sys
from collections import Counter

import pytest

np = pytest.importorskip("numpy")

from pokerdraw32 import Action, ActionKind, Hand, Rng, Rules, evaluate  # noqa: E402
from pokerdraw32._kernels import evaluate_mask, play  # noqa: E402
from pokerdraw32.actions import Phase  # noqa: E402
from pokerdraw32.aivat import (  # noqa: E402
    _FAST0,
    _ROLL0,
    CATEGORY_COUNTS,
    FEATURES,
    SHOWDOWN_FEATURES,
    AivatStats,
    HandFeatures,
    estimate,
    known_policy,
    rollout_policies,
)
from pokerdraw32.bots import RandomBot, RuleBot, SeatView, choose_discards  # noqa: E402
from pokerdraw32.errors import PokerDraw32ValueError  # noqa: E402
from pokerdraw32.simulate import Z95, simulate  # noqa: E402


def tight(view: SeatView) -> Action:
    """A user's bot, deterministic, whose strategy the estimator does not know (a calling station
    that bets its strong hands): with three of a kind or better it bets or raises the minimum plus
    the pot, else it checks, calls any bet, or answers Parole by splitting; it draws as
    choose_discards."""
    legal = view.legal
    assert legal is not None
    if legal.phase is Phase.DRAW:
        return Action.discard(choose_discards(legal.hole_cards))
    strong = evaluate(legal.hole_cards).category.value >= 3
    for kind in (ActionKind.RAISE, ActionKind.BET):
        if strong and kind in legal.kinds:
            assert legal.min_to is not None and legal.max_to is not None
            return Action(kind, min(legal.max_to, legal.min_to + view.pot))
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.SPLIT, ActionKind.DECLINE):
        if kind in legal.kinds:
            return Action(kind)
    return Action(ActionKind.FOLD)


def test_category_counts_are_exact() -> None:
    counts = Counter(evaluate_mask(sum(1 << c for c in cards)) >> 22 for cards in itertools.combinations(range(32), 5))
    assert tuple(counts[c] for c in range(9)) == CATEGORY_COUNTS
    assert sum(CATEGORY_COUNTS) == math.comb(32, 5)


class _Roll(Rng):
    """A generator whose below(100) is a given roll: the rule bot's policy, roll by roll."""

    def __init__(self, roll: int) -> None:
        super().__init__(0)
        self.roll = roll

    def below(self, n: int) -> int:
        assert n == 100
        return self.roll


def test_rule_policy_is_rule_action_over_every_roll() -> None:
    """_play.rule_policy lists exactly what rule_action returns for each of the 100 rolls."""
    rng = Rng(5)
    kinds_masks = [0b10111, 0b11011, 0b1011, 0b110011, 0b101011, 0b10011, 0b1100000]   # incl. split/decline only
    for _ in range(400):
        cards = rng.shuffled((1 << 32) - 1)[:5]
        packed = sum(c << 5 * i for i, c in enumerate(cards))
        phase = [1, 2, 3][rng.below(3)]
        kinds = kinds_masks[rng.below(len(kinds_masks))]
        lo = 2 + rng.below(10)
        args = (packed, phase, kinds, rng.below(5), rng.below(20), lo, lo + rng.below(300), 3 + rng.below(100))
        expected = Counter(play.rule_action(_Roll(r), *args) for r in range(100))
        policy = play.rule_policy(*args)
        assert dict(policy) == dict(expected)
        assert sum(c for _, c in policy) == 100
        assert [d for d, _ in policy] == list(dict.fromkeys(play.rule_action(_Roll(r), *args) for r in range(100)))
    with pytest.raises(PokerDraw32ValueError, match=r"R3\.2"):
        play.rule_policy(packed, 1, 0b10111, -1, 0, 2, 4, 3)


def test_known_policies() -> None:
    """A policy is known from a bot that exposes it in its own class, never from a name, a class, or
    a bot whose decide was replaced or overridden (issue 41)."""
    rule, rand = RuleBot(1), RandomBot(3)
    assert known_policy(rule) == rule.action_probabilities and known_policy(rand) == rand.action_probabilities
    assert known_policy("rule") is None and known_policy(RuleBot) is None and known_policy(tight) is None

    class Mine(RuleBot):
        pass

    class Overridden(RuleBot):
        def decide(self, view: object = None, *, hand: object = None) -> Action:   # type: ignore[override]
            return Action(ActionKind.FOLD)

    class Consistent(RuleBot):
        def decide(self, view: object = None, *, hand: object = None) -> Action:   # type: ignore[override]
            return super().decide(view, hand=hand)   # type: ignore[arg-type]

        action_probabilities = RuleBot.action_probabilities

    assert known_policy(Mine(1)) is None and known_policy(Overridden(1)) is None
    assert known_policy(Consistent(1)) is not None
    swapped = RuleBot(2)
    swapped.decide = lambda view=None, *, hand=None: Action(ActionKind.FOLD)   # type: ignore[method-assign]
    assert known_policy(swapped) is None


def _play_with_features(seed: int, players: int, bots: list[object], samples: int = 8,
                        rollouts: bool = False) -> HandFeatures:
    rules = Rules()
    h = Hand(rules, [200] * players, button=seed % players, seed=seed)
    made = [RuleBot(seed + i) if b == "rule" else RandomBot(seed + i) if b == "random" else b
            for i, b in enumerate(bots)]
    rng = np.random.default_rng(seed)
    policies = rollout_policies([known_policy(b) for b in made], rng) if rollouts else None
    features = HandFeatures(h, rng, samples, policies)
    while h.actor is not None:
        seat = h.actor
        view = SeatView.of(h)
        bot = made[seat]
        known = known_policy(bot)
        features.before(seat, view, known(view) if known is not None else None)
        action = bot.decide(view) if hasattr(bot, "decide") else bot(view)   # type: ignore[operator]
        h.act(action, seat)
        features.after(action)
    return features


def test_replacement_samples_are_possible_deals() -> None:
    """Five players drawing four cards each exhaust the stub and reshuffle (R6.2): every sampled
    outcome gives each live seat five cards, no card twice, the kept cards kept."""
    seen_reshuffle = False
    for seed in range(30):
        rules = Rules()
        h = Hand(rules, [200] * 5, button=0, seed=seed)
        features = HandFeatures(h, np.random.default_rng(seed), 16)
        while h.actor is not None:
            seat = h.actor
            view = SeatView.of(h)
            features.before(seat, view, None)
            legal = view.legal
            assert legal is not None
            if legal.phase is Phase.DRAW:
                action = Action.discard(tuple(legal.hole_cards[:4]))
            elif ActionKind.CHECK in legal.kinds:
                action = Action(ActionKind.CHECK)
            else:
                action = Action(ActionKind.CALL)
            h.act(action, seat)
            features.after(action)
        assert features._segments is not None
        seen_reshuffle |= len(features._segments) > 1
        # rebuild the sampled rows as _replacements does and check them
        rng = np.random.default_rng(1)
        segments = features._segments
        for _ in range(5):
            order = [list(rng.permutation(seg)) for seg in segments]
            at = [0] * len(segments)
            dealt: list[int] = []
            for _seat, kept, takes in features._drawers:
                new = [order[s][at[s] + j] for s, count in takes for j in range(count)]
                for s, count in takes:
                    at[s] += count
                assert len(new) + bin(kept).count("1") == 5
                assert not any(kept >> c & 1 for c in new)
                dealt += new
            assert len(dealt) == len(set(dealt))
    assert seen_reshuffle


def test_features_shape_and_untouched_hand() -> None:
    f = _play_with_features(3, 3, ["rule", tight, "random"])
    assert f.features.shape == (3, FEATURES)
    assert np.isfinite(f.features).all()
    assert FEATURES == 21 + 3 * SHOWDOWN_FEATURES + 27 + 2 + 2 + 5 + 26 + 4
    assert not f.features[:, _ROLL0:].any()          # no policies given: no rollouts


def test_rollout_features_have_mean_zero() -> None:
    """The rollout values (after the draw, after known decisions) and the noise-cancelling
    features of the draw's samples have mean zero over many hands, heads-up and three-handed (a
    random bot's many bet sizes: rollouts beyond the exact tree), and they follow the results."""
    for bots, hands in ((["rule", "rule"], 500), (["rule", "random", tight], 300)):
        n = len(bots)
        f = np.zeros((hands, n, FEATURES))
        u = np.zeros((hands, n))
        for k in range(hands):
            played = _play_with_features(77_000 + k, n, bots, samples=48, rollouts=True)
            f[k] = played.features
            u[k] = [played.hand.stacks[s] - 200 for s in range(n)]
        g = f[:, :, _ROLL0:].reshape(hands, -1)
        sd = g.std(axis=0)
        ok = sd > 1e-3
        assert ok.sum() >= 6
        z = g.mean(axis=0)[ok] / (sd[ok] / math.sqrt(hands))
        assert abs(z).max() < 4.5, z
        # the draw's rollout value follows the result: strongly correlated with it
        draw = f[:, 0, _ROLL0 if n == 2 else _ROLL0 + 1]
        assert np.corrcoef(draw, u[:, 0])[0, 1] > 0.4


def test_compiled_rollout_values() -> None:
    """The compiled rollouts' values (after the deal, a known first-round decision, the draw) have
    mean zero over 400 five-handed hands of rule bots and follow the results (the deal's value
    alone explains a good part of a seat's result); heads-up beside the blueprint's policy there are
    none (measured: nothing more explained, for 1.8x the time)."""
    hands, n = 400, 5
    f = np.zeros((hands, n, FEATURES))
    u = np.zeros((hands, n))
    for k in range(hands):
        played = _play_with_features(81_000 + k, n, ["rule"] * n, samples=16, rollouts=True)
        f[k] = played.features
        u[k] = [played.hand.stacks[s] - 200 for s in range(n)]
    g = f[:, :, _FAST0:_FAST0 + 4].reshape(hands, -1)
    sd = g.std(axis=0)
    ok = sd > 1e-3
    assert ok.sum() >= 15                        # deal, first round, draw (more than 2 left), each seat
    z = g.mean(axis=0)[ok] / (sd[ok] / math.sqrt(hands))
    assert abs(z).max() < 4.5, z
    assert np.corrcoef(f[:, :, _FAST0].ravel(), u.ravel())[0, 1] > 0.3
    from pokerdraw32.cfr.blueprint import blueprint_bot
    played = _play_with_features(5, 2, [blueprint_bot(1), "rule"], samples=16, rollouts=True)
    assert not played.features[:, _FAST0:].any()


def test_rollouts_leave_the_bots_alone() -> None:
    """The rollouts ask copies of the known bots (the CFR bot draws and remembers raise
    translations from its generator): the hands played are the plain run's."""
    plain = simulate(players=2, hands=150, seed=3, bots=["cfr", "rule"])
    r = simulate(players=2, hands=150, seed=3, bots=["cfr", "rule"], estimator="aivat", samples=16)
    assert r.plain is not None and [b.chips for b in r.plain] == [b.chips for b in plain.per_bot]


def _stats(hands: int, bots: list[object], seed: int, samples: int = 32) -> tuple[AivatStats, list[float]]:
    """Sums of every seat's features over ``hands`` hands of fixed seats, and the plain results."""
    n = len(bots)
    stats = AivatStats.zeros(n, samples, [b in ("rule", "random") for b in bots])
    for k in range(hands):
        f = _play_with_features(seed * 100_000 + k, n, bots, samples)
        results = [f.hand.stacks[s] - 200 for s in range(n)]
        stats.add(k % 2, results, f.features)
    return stats, []


def test_control_variates_have_mean_zero() -> None:
    """Every feature's mean over many hands is within noise of zero (z-scores: their squares average
    about 1; none far out), and so is every bot's total correction.  Features of rare events (a
    variance under 0.01: e.g. a flush against two pair, dealt) are left out: over 1,200 hands their
    few occurrences make the normal approximation of the z-score meaningless."""
    stats, _ = _stats(1200, ["rule", tight, "random"], seed=11, samples=32)
    count = stats.count.sum(axis=1)[:, None]
    mean = stats.f.sum(axis=1) / count
    var = stats.ff.sum(axis=1).diagonal(axis1=1, axis2=2) / count - mean ** 2
    ok = var > 0.01
    assert ok.sum() > 300
    z = mean[ok] / np.sqrt(var[ok] / count.repeat(FEATURES, axis=1)[ok])
    assert abs(z).max() < 4.5, sorted(abs(z))[-5:]
    assert 0.7 < (z ** 2).mean() < 1.4
    for e in estimate(stats):
        assert abs(e.correction) <= 4 * math.sqrt(e.correction_variance / e.samples)


def test_simulate_aivat_agrees_with_plain_and_is_narrower() -> None:
    r = simulate(players=2, hands=3000, seed=5, bots=["rule", tight], estimator="aivat", samples=64, chunk=500)
    assert r.estimator == "aivat" and r.plain is not None and r.corrections is not None
    assert [b.chips for b in r.per_bot] == [b.chips for b in r.plain]          # the same hands
    assert sum(b.chips for b in r.per_bot) == 0                                 # R9.5
    a, p = r.per_bot[0], r.plain[0]
    assert a.ci95 is not None and p.ci95 is not None
    assert a.ci95 < p.ci95 / 2                                                  # much narrower
    assert abs(a.bb_per_100 - p.bb_per_100) < Z95 * math.hypot(a.ci95, p.ci95) / Z95 * 1.5
    assert r.per_bot[1].bb_per_100 == pytest.approx(-a.bb_per_100)               # heads-up: zero-sum
    assert all(abs(z) < 4 for z in r.correction_z or [])
    assert r.corrections[0] == pytest.approx(p.bb_per_100 - a.bb_per_100)


def test_unbiased_over_seeds() -> None:
    """Over independent runs the AIVAT and plain means agree: their difference (the correction) has
    mean zero within its standard error."""
    diffs, ses = [], []
    for seed in range(8):
        r = simulate(players=3, hands=600, seed=seed, bots=["rule", tight, "random"], estimator="aivat", samples=16)
        assert r.plain is not None and r.corrections is not None
        diffs.append(r.corrections[0])
        ses.append(r.plain[0].ci95 / Z95)   # type: ignore[operator]
    mean = sum(diffs) / len(diffs)
    se = math.sqrt(sum(s * s for s in ses)) / len(ses)
    assert abs(mean) < 4 * se


def _always_raise(view: SeatView | None = None, *, hand: object = None) -> Action:
    """A decide that bets or raises the most it may, else checks or calls (never the rule policy)."""
    assert view is not None and view.legal is not None
    legal = view.legal
    for kind in (ActionKind.RAISE, ActionKind.BET):
        if kind in legal.kinds:
            assert legal.max_to is not None
            return Action(kind, legal.max_to)
    if legal.phase is Phase.DRAW:
        return Action.discard(())
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.DECLINE):
        if kind in legal.kinds:
            return Action(kind)
    return Action(ActionKind.FOLD)


def test_a_bot_whose_decide_was_replaced_is_an_unknown_policy() -> None:
    """Issue 41: a rule bot whose decide was replaced was corrected as the rule policy (biased: the
    correction assumed checks and calls it never made).  Now its seat has no decision features, the
    other seat's policy is known, and the estimate agrees with the plain one."""
    swapped = RuleBot(1)
    swapped.decide = _always_raise                       # type: ignore[method-assign]
    r = simulate(players=2, hands=2000, seed=4, bots=[swapped, "rule"], estimator="aivat", samples=16, workers=1)
    assert known_policy(copy.deepcopy(swapped)) is None   # what each chunk gets: a copy, decide replaced
    assert r.plain is not None and r.corrections is not None
    assert abs(r.correction_z[0]) < 4                    # type: ignore[index]
    a, p = r.per_bot[0], r.plain[0]
    assert a.ci95 is not None and p.ci95 is not None
    assert abs(a.bb_per_100 - p.bb_per_100) < 1.5 * math.hypot(a.ci95, p.ci95)


def test_reproducible_and_same_on_workers() -> None:
    kwargs = dict(players=3, hands=600, seed=9, bots=["rule", "random", "rule"], estimator="aivat", samples=8,
                  chunk=150)
    one = simulate(**kwargs)   # type: ignore[arg-type]
    again = simulate(**kwargs)   # type: ignore[arg-type]
    two = simulate(workers=2, **kwargs)   # type: ignore[arg-type]

    def same(r: object) -> str:
        d = r.to_dict()   # type: ignore[attr-defined]
        del d["run"]
        return json.dumps(d, sort_keys=True)

    assert same(one) == same(again) == same(two)
    plain = simulate(**{**kwargs, "estimator": "plain", "samples": None})   # type: ignore[arg-type]
    assert [b.chips for b in plain.per_bot] == [b.chips for b in one.per_bot]   # the estimator changes no card


def test_duplicate_deals() -> None:
    r = simulate(players=3, hands=600, seed=2, bots=["rule", tight, "rule"], estimator="aivat", duplicate=True,
                 samples=8)
    assert r.per_bot[0].samples == 200 and r.plain is not None
    assert all(b.ci95 is not None and b.ci95 > 0 for b in r.per_bot)


def test_errors() -> None:
    with pytest.raises(PokerDraw32ValueError, match="mode='reset'"):
        simulate(players=2, hands=10, bots=["rule", "rule"], mode="session", estimator="aivat")
    with pytest.raises(PokerDraw32ValueError, match="estimator='bogus'"):
        simulate(players=2, hands=10, estimator="bogus")   # type: ignore[arg-type]
    for bad in (0, -3, 1.5, True, 100_001):
        with pytest.raises(PokerDraw32ValueError, match="samples="):
            simulate(players=2, hands=10, estimator="aivat", samples=bad)   # type: ignore[arg-type]
    with pytest.raises(PokerDraw32ValueError, match="samples=16 is for estimator='aivat'"):
        simulate(players=2, hands=10, samples=16)


def test_cli_json_and_text() -> None:
    base = [sys.executable, "-m", "pokerdraw32", "simulate", "--players", "2", "--bots", "rule,random", "--hands",
            "400", "--seed", "4", "--estimator", "aivat", "--samples", "8", "--workers", "1", "--no-progress"]
    out = subprocess.run([*base, "--json"], capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    assert d["estimator"] == "aivat" and len(d["plain"]) == 2 and d["aivat"]["samples"] == 8
    assert len(d["aivat"]["correction_z"]) == 2
    text = subprocess.run(base, capture_output=True, text=True, check=True).stdout
    assert "estimator aivat" in text and "plain/aivat" in text and "luck removed" in text
    bad = subprocess.run([*base, "--mode", "session"], capture_output=True, text=True)
    assert bad.returncode == 2 and "aivat needs --mode reset" in bad.stderr
    bad = subprocess.run([*base, "--sit-out", "0.1"], capture_output=True, text=True)
    assert bad.returncode == 2 and "no --sit-out" in bad.stderr
    plain = [a for a in base if a not in ("--estimator", "aivat")]
    bad = subprocess.run(plain, capture_output=True, text=True)
    assert bad.returncode == 2 and "--samples: only with --estimator aivat" in bad.stderr


def test_draw_features_read_the_chips_before_the_showdown() -> None:
    """A draw that leads straight to the showdown completes the hand; its features must still see
    the stacks of the draw, not those paid out by the very cards they weigh: here both players are
    all-in on the blinds and split the pot (R2.4 off), and the 'nobody can bet' copy of W and v is
    filled as it is for every other outcome (found by the adversarial review)."""
    from pokerdraw32.aivat import _ALL_IN0, _DRAW0

    rules = Rules(suit_tiebreak=False)
    h = Hand(rules, [1, 1], button=0, seed=473)
    features = HandFeatures(h, np.random.default_rng(0), 8)
    bots = [RuleBot(1), RuleBot(2)]
    while h.actor is not None:
        seat = h.actor
        view = SeatView.of(h)
        features.before(seat, view, bots[seat].action_probabilities(view))
        action = bots[seat].decide(view)
        h.act(action, seat)
        features.after(action)
    assert h.result is not None and any(len(p.winners) == 2 for p in h.result.pots)   # the split
    f = features.features
    assert np.any(f[:, _DRAW0:_DRAW0 + 2] != 0)
    assert np.array_equal(f[:, _ALL_IN0:_ALL_IN0 + 2], f[:, _DRAW0:_DRAW0 + 2])


def test_chunks_keep_no_sums() -> None:
    """The chunks' sums (a 344 x 344 matrix a bot and half) are added up as the chunks finish and
    not kept in the result: a run of many chunks stays small (found by the adversarial review)."""
    r = simulate(players=3, hands=300, seed=1, bots="random", estimator="aivat", samples=1, chunk=30)
    assert len(r.chunks) == 10 and all(c.aivat is None for c in r.chunks)
    assert all(b.ci95 is not None for b in r.per_bot)
