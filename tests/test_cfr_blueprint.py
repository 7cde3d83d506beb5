"""The compact strategy format (pokerdraw32.cfr.compact), ``python -m pokerdraw32.cfr export``, the
packaged blueprint (pokerdraw32.cfr.blueprint) and what CfrBot does with rules it was not trained
for (issue 26, part 3)."""

from __future__ import annotations

import copy
import inspect
import json
import lzma
import pickle
import zlib
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdraw32 import Hand, Rules
from pokerdraw32.actions import ActionKind, EventKind, Phase
from pokerdraw32.bots import RuleBot, SeatView, known_policy
from pokerdraw32.cfr import Abstraction, CfrBot, Strategy, Trainer
from pokerdraw32.cfr.__main__ import main
from pokerdraw32.cfr.blueprint import (
    BLUEPRINT,
    DEPTHS,
    FILE,
    blueprint_bot,
    blueprint_info,
    blueprint_path,
    blueprint_strategy,
    nearest_depth,
)
from pokerdraw32.cfr.bot import check_rules
from pokerdraw32.cfr.compact import MAGIC, QUANTUM, quantise, read_header, read_tables, write_compact
from pokerdraw32.errors import PokerDraw32Error, PokerDraw32ValueError
from pokerdraw32.simulate import simulate

TINY = Abstraction(stack_bb=20, bet_fractions=(0.5, 1.0), raise_cap=2, pre_strength=2, pre_potential=2, post_buckets=3)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    trainer = Trainer(TINY, seed=11)
    trainer.train(60)
    return trainer.strategy()


@pytest.fixture(scope="module")
def packed(strategy: Strategy, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("compact") / "tiny.cfrz"
    write_compact(strategy, path, {"command": "test"})
    return path


def read_compact(path: Path) -> tuple[Strategy, dict[str, object]]:
    """The strategy and the metadata of a compact file."""
    return Strategy.load(path), read_header(path)["metadata"]


def _play(bots: list[CfrBot] | list[object], rules: Rules, stacks: list[int], seed: int) -> Hand:
    h = Hand(rules, stacks, button=seed % 2, seed=seed)
    while not h.is_complete:
        action = bots[h.actor].decide(SeatView.of(h))  # type: ignore[attr-defined]
        assert h.can(action), (seed, action)
        h.act(action)
    assert h.result is not None and sum(h.result.stacks) == sum(stacks)       # R9.5
    return h


# -- quantisation ---------------------------------------------------------------------------------

def test_quantise_exact_values() -> None:
    """Largest remainders: 63.75, 31.875, 159.375 floor to 63, 31, 159; the 2 units left go to the
    largest remainders (.875, then .75); ties to the lower slot; zero stays zero; one is 255."""
    assert quantise([0.25, 0.125, 0.625]) == [64, 32, 159]
    assert quantise([0.5, 0.5, 0.0]) == [128, 127, 0]
    assert quantise([0.0, 1.0, 0.0, 0.0]) == [0, 255, 0, 0]
    assert quantise([2.0, 2.0]) == [128, 127]                         # renormalised
    for bad in ([], [0.0, 0.0], [-0.1, 1.1], [float("nan"), 1.0], [float("inf")]):
        with pytest.raises(PokerDraw32ValueError, match="cannot quantise"):
            quantise(bad)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.just(0.0), st.floats(1e-9, 1.0)), min_size=1, max_size=16)
       .filter(lambda p: sum(p) > 0))
def test_quantise_properties(probs: list[float]) -> None:
    q = quantise(probs)
    total = sum(probs)
    assert sum(q) == QUANTUM and len(q) == len(probs) and all(0 <= x <= QUANTUM for x in q)
    for x, p in zip(q, probs, strict=True):
        assert abs(x / QUANTUM - p / total) < 1 / QUANTUM + 1e-12
        if p == 0.0:
            assert x == 0


# -- the compact file -----------------------------------------------------------------------------

def test_round_trip(strategy: Strategy, packed: Path) -> None:
    """Same keys, phases and legal slots; each probability within 1/255 of the float32 one (the
    maximum error asserted); the legal slots only (an illegal slot has no byte: it stays 0)."""
    again, meta = read_compact(packed)
    assert meta["command"] == "test" and again.iterations == strategy.iterations == 60
    assert again.abstraction == strategy.abstraction and len(again) == len(strategy) > 100
    assert list(again.keys) == sorted(strategy.keys)
    worst = 0.0
    for key in strategy.keys:
        full, small = strategy.lookup(key), again.lookup(key)
        assert full is not None and small is not None
        assert small[:2] == full[:2] and len(small[2]) == bin(full[1]).count("1")
        total = sum(full[2])
        for p, q in zip(full[2], small[2], strict=True):
            assert round(q * QUANTUM) * 4 == round(q * QUANTUM * 4)           # a multiple of 1/255
            worst = max(worst, abs(p / total - q))
        assert round(sum(q * QUANTUM for q in small[2])) == QUANTUM
    assert 0 < worst < 1 / QUANTUM + 1e-6
    assert read_tables(packed)[2] == again.keys
    again_header = read_header(packed)
    assert again_header["info_sets"] == len(strategy) and again_header["metadata"] == meta


def test_empty_strategy_round_trips(tmp_path: Path) -> None:
    empty = Strategy(TINY, 0, array("Q"), array("q"), array("f"))
    write_compact(empty, tmp_path / "e.cfrz")
    assert len(read_compact(tmp_path / "e.cfrz")[0]) == 0


def _pure(strategy: Strategy) -> Strategy:
    """``strategy`` made deterministic: all weight on each information set's most likely slot."""
    probs = array("f", [0.0] * len(strategy.probs))
    for i, off in enumerate(strategy.offsets):
        start = off >> 18
        end = strategy.offsets[i + 1] >> 18 if i + 1 < len(strategy.offsets) else len(strategy.probs)
        row = strategy.probs[start:end]
        probs[start + max(range(len(row)), key=row.__getitem__)] = 1.0
    return Strategy(strategy.abstraction, strategy.iterations, strategy.keys, strategy.offsets, probs)


def test_bot_decisions_agree_where_probabilities_are_0_or_1(strategy: Strategy, tmp_path: Path) -> None:
    """With 0/1 probabilities the quantised strategy is exact (255 and 0): a bot playing it makes
    every decision the full strategy's bot makes, same seeds, against the same opponents."""
    pure = _pure(strategy)
    write_compact(pure, tmp_path / "p.cfrz")
    small = Strategy.load(tmp_path / "p.cfrz")
    for key in pure.keys:
        found, got = pure.lookup(key), small.lookup(key)
        assert found is not None and got is not None and got == (found[0], found[1], found[2])
    full_bot, small_bot = CfrBot(pure, seed=3), CfrBot(small, seed=3)
    decisions = 0
    for seed in range(60):
        h = Hand(Rules(), [40, 40], button=seed % 2, seed=seed)
        rule = RuleBot(seed=seed)
        while not h.is_complete:
            view = SeatView.of(h)
            if h.actor == seed // 2 % 2:
                action = full_bot.decide(view)
                assert small_bot.decide(view) == action
                decisions += 1
            else:
                action = rule.decide(view)
            h.act(action)
    assert decisions > 100 and full_bot.stats == small_bot.stats and full_bot.stats["strategy"] > 100


def _rewrite(path: Path, out: Path, *, header: dict[str, object] | None = None, body: bytes | None = None,
             crc: bool = True) -> Path:
    data = path.read_bytes()
    n = int.from_bytes(data[8:12], "little")
    head = json.loads(data[12:12 + n])
    raw = lzma.decompress(data[12 + n:]) if body is None else body
    if crc:
        head["crc32"] = zlib.crc32(raw)
    head.update(header or {})
    text = json.dumps(head).encode()
    out.write_bytes(MAGIC + len(text).to_bytes(4, "little") + text + lzma.compress(raw))
    return out


def test_corrupt_files_raise(packed: Path, tmp_path: Path) -> None:
    data = packed.read_bytes()
    n = int.from_bytes(data[8:12], "little")
    raw = lzma.decompress(data[12 + n:])
    bad = tmp_path / "bad.cfrz"
    cases: list[tuple[bytes | Path, str]] = [
        (b"", "not a compact strategy file"),
        (b"PD32CFR3" + data[8:], "not a compact strategy file"),
        (data[:10], "truncated: 10 bytes, no header length"),
        (data[:40], "truncated: its header needs"),
        (data[:12 + n + 30], "truncated or damaged: its body does not decompress"),
        (data[:-1], "truncated or damaged: its body does not decompress"),
        (data[:12] + b"x" + data[13:], "its header is not JSON"),
        (data[:12 + n] + data[12 + n:-40] + bytes(b ^ 0x55 for b in data[-40:]), "does not decompress"),
        (_rewrite(packed, tmp_path / "v.cfrz", header={"version": 3}), "version 3 of the compact strategy format"),
        (_rewrite(packed, tmp_path / "f.cfrz", header={"format": "x"}), "not a pokerdraw32-cfr-compact-strategy"),
        (_rewrite(packed, tmp_path / "i.cfrz", header={"info_sets": -1}), "'info_sets' is -1"),
        (_rewrite(packed, tmp_path / "m.cfrz", header={"metadata": 3}), "'metadata' is not an object"),
        (_rewrite(packed, tmp_path / "a.cfrz", header={"abstraction": {"format": "no"}}), "abstraction is not valid"),
        (_rewrite(packed, tmp_path / "l.cfrz", body=raw + b"\x00"), r"more than the .* bytes its header declares"),
        (_rewrite(packed, tmp_path / "c.cfrz", body=raw[:-1] + bytes([raw[-1] ^ 1]), crc=False), "CRC-32"),
        (_rewrite(packed, tmp_path / "s.cfrz", body=raw[:-1] + bytes([raw[-1] ^ 1])), "do not sum to 255/255"),
        (_rewrite(packed, tmp_path / "p.cfrz", body=raw[:-20] + bytes(20)), "do not sum to 255/255"),
        (tmp_path / "missing.cfrz", "cannot read"),
    ]
    info_sets = read_header(packed)["info_sets"]
    keys = bytearray(raw)
    for j in range(8):                                      # the second key's delta := 0 (byte j of delta i is
        keys[j * info_sets + 1] = 0                         # at j * info_sets + i)
    cases.append((_rewrite(packed, tmp_path / "k.cfrz", body=bytes(keys)), "not strictly ascending"))
    heads = bytearray(raw)
    heads[10 * info_sets] = 0                               # the first phase := 0
    cases.append((_rewrite(packed, tmp_path / "h.cfrz", body=bytes(heads)), "a phase is not 1, 2 or 3"))
    for content, message in cases:
        if isinstance(content, bytes):
            bad.write_bytes(content)
            path = bad
        else:
            path = content
        with pytest.raises(PokerDraw32ValueError, match=message):
            read_tables(path)
        with pytest.raises(PokerDraw32ValueError):
            Strategy.load(path)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_truncation_raises(packed: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    content = packed.read_bytes()
    cut = data.draw(st.integers(0, len(content) - 1))
    path = tmp_path_factory.mktemp("cut") / "t.cfrz"
    path.write_bytes(content[:cut])
    with pytest.raises(PokerDraw32ValueError):
        read_tables(path)


# -- the export command ---------------------------------------------------------------------------

def test_export_command(strategy: Strategy, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "s.cfr"
    strategy.save(src)
    cmd = ("python -m pokerdraw32.cfr abstraction --out a.json --raise-cap 2 && python -m pokerdraw32.cfr train "
           "--iterations 60 --seed 11 --abstraction a.json --sampling outcome --out s.cfr")
    assert main(["export", "--strategy", str(src), "--out", str(tmp_path / "s.cfrz"), "--command", cmd]) == 0
    assert f"{len(strategy)} information sets" in capsys.readouterr().out
    got, meta = read_compact(tmp_path / "s.cfrz")
    assert meta["command"] == cmd and meta["seed"] == 11 and meta["sampling"] == "outcome"
    assert len(got) == len(strategy) and got.iterations == 60
    first, second = cmd.split(" && ")                      # --command repeated: joined, none dropped
    assert main(["export", "--strategy", str(src), "--out", str(tmp_path / "t.cfrz"), "--command", first,
                 "--command", second]) == 0
    assert read_compact(tmp_path / "t.cfrz")[1]["command"] == cmd
    capsys.readouterr()
    wrong = cmd.replace("--iterations 60", "--iterations 61")
    assert main(["export", "--strategy", str(src), "--out", str(tmp_path / "w.cfrz"), "--command", wrong]) == 1
    assert "trains 61 iterations, but the strategy has 60" in capsys.readouterr().err
    assert not (tmp_path / "w.cfrz").exists()
    assert main(["export", "--strategy", str(tmp_path / "none.cfr"), "--out", str(tmp_path / "x.cfrz")]) == 1
    assert "cannot read" in capsys.readouterr().err


# -- the packaged blueprint -----------------------------------------------------------------------

def test_blueprint_file_and_metadata() -> None:
    path = blueprint_path()
    assert path.name == FILE and path.is_file() and path.stat().st_size <= 3_000_000   # issue 26: "a few MB at most"
    s = blueprint_strategy()
    assert s is blueprint_strategy() and len(s) == BLUEPRINT["info_sets"] > 100_000
    assert s.iterations == BLUEPRINT["iterations"] and Abstraction.from_dict(BLUEPRINT["abstraction"]) == s.abstraction
    assert s.abstraction.stack_bb == 100
    assert "pokerdraw32.cfr train" in BLUEPRINT["command"] and isinstance(BLUEPRINT["seed"], int)
    assert BLUEPRINT["sampling"] in ("external", "outcome")


@pytest.mark.skipif(not (ROOT / "src" / "pokerdraw32").is_dir() or not (ROOT / "MANIFEST.in").is_file(),
                    reason="the source tree is not beside the tests (the wheel's test copy)")
def test_blueprint_is_package_data_of_the_wheel_and_the_sdist() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"pokerdraw32.cfr" = [' in pyproject and f'"{FILE}"' in pyproject.split('"pokerdraw32.cfr" = [')[1]
    assert f"src/pokerdraw32/cfr/{FILE}" in (ROOT / "MANIFEST.in").read_text()


def test_blueprint_bot_is_shared_and_cheap_to_copy() -> None:
    sig = inspect.signature(blueprint_bot)
    assert list(sig.parameters) == ["seed"] and sig.parameters["seed"].default is None
    one, two = blueprint_bot(seed=1), blueprint_bot()
    assert isinstance(one, CfrBot) and one.strategy is two.strategy is blueprint_strategy()
    assert copy.deepcopy(one).strategy is one.strategy
    blob = pickle.dumps(one)
    assert len(blob) < 2000                               # a reference to the packaged file, not its arrays
    again = pickle.loads(blob)
    assert again.strategy is one.strategy and again.rng.getstate() == one.rng.getstate()


def test_blueprint_in_simulate() -> None:
    r = simulate(players=2, hands=40, seed=5, stack=200, bots=[blueprint_bot(seed=1), "rule"], duplicate=True,
                 workers=1)
    assert r.hands_played == 40 and sum(b.chips for b in r.per_bot) == 0


# -- rules it was not trained for -----------------------------------------------------------------

@pytest.mark.parametrize(("rules", "stacks"), [
    (Rules(), [200, 200]), (Rules.preset("two-blind"), [200, 200]), (Rules(structure="pot-limit"), [200, 200]),
    (Rules(sb=5, bb=10), [1000, 1000]), (Rules(sb=3, bb=5), [500, 500]), (Rules(sb=2, bb=2), [200, 200]),
    (Rules(parole=False, second_round_first="after_button", suit_tiebreak=False), [200, 200]),
])
def test_on_the_tree_in_self_play(rules: Rules, stacks: list[int]) -> None:
    """The classic preset at 100 big blinds, the two-blind preset (heads-up the same game), pot-limit,
    other blinds (in big blinds) and other options: every decision of the blueprint's self-play is
    the strategy's."""
    bots = [blueprint_bot(seed=1), blueprint_bot(seed=2)]
    for seed in range(30):
        _play(bots, rules, stacks, seed)
    for bot in bots:
        assert bot.stats["off_tree"] == bot.stats["unseen"] == 0 and bot.stats["strategy"] > 20, bot.stats


def test_pot_limit_raises_are_clamped_to_the_pot() -> None:
    """Pot-limit (R3.4): raises the strategy sizes above the pot (two pots, all-in) are made at the
    pot limit, the legal maximum; nothing is ever above it."""
    bots = [blueprint_bot(seed=3), blueprint_bot(seed=4)]
    at_limit = raises = 0
    for seed in range(60):
        h = Hand(Rules(structure="pot-limit"), [200, 200], button=seed % 2, seed=seed)
        while not h.is_complete:
            view = SeatView.of(h)
            action = bots[h.actor].decide(view)
            assert h.can(action)
            if action.kind in (ActionKind.BET, ActionKind.RAISE):
                legal = view.legal
                assert legal is not None and legal.max_to is not None and action.amount is not None
                assert legal.max_to == max(view.bets) + view.pot + max(view.bets) - view.bets[view.seat] \
                    or legal.max_to == view.stacks[view.seat] + view.bets[view.seat]     # pot limit or all-in
                raises += 1
                at_limit += action.amount == legal.max_to
            h.act(action)
    assert raises > 20 and 0 < at_limit < raises


def test_fixed_limit_is_played_by_the_fixed_limit_blueprint() -> None:
    """Fixed-limit (R3.4): the bot name's bot plays it by the fixed-limit blueprint (switching per
    hand's structure, back and forth, its copies and pickles keeping the one in play); a CfrBot of
    the no-limit strategy still refuses it at the first decision, and simulate cleanly."""
    fixed = Rules(structure="fixed-limit")
    bot = blueprint_bot(seed=1)
    assert bot.strategy is blueprint_strategy("no-limit")
    bot.decide(SeatView.of(Hand(fixed, [200, 200], button=0, seed=1)))
    assert bot.strategy is blueprint_strategy("fixed-limit")
    assert pickle.loads(pickle.dumps(bot)).strategy is bot.strategy and copy.copy(bot).strategy is bot.strategy
    assert known_policy(bot) is not None
    bot.decide(SeatView.of(Hand(Rules(structure="pot-limit"), [200, 200], button=0, seed=1)))
    assert bot.strategy is blueprint_strategy("no-limit")
    r = simulate(players=2, hands=400, seed=1, rules=fixed, bots=["cfr", "rule"], workers=1)
    assert r.hands_played == 400 and sum(b.chips for b in r.per_bot) == 0
    assert blueprint_info("fixed-limit")["abstraction"]["structure"] == "fixed-limit"
    h = Hand(fixed, [200, 200], button=0, seed=1)
    with pytest.raises(PokerDraw32ValueError, match=r"does not play fixed-limit \(R3.4\).*no-limit and pot-limit"):
        CfrBot(blueprint_strategy(), seed=1).decide(SeatView.of(h))
    with pytest.raises(PokerDraw32Error, match=r"fixed-limit \(R3.4\)"):
        simulate(players=2, hands=4, seed=1, rules=fixed, bots=[CfrBot(blueprint_strategy()), "rule"], workers=1)
    with pytest.raises(PokerDraw32ValueError, match="no blueprint for the structure 'pot-limit'"):
        blueprint_strategy("pot-limit")
    with pytest.raises(PokerDraw32ValueError, match="heads-up only: this hand has 3 players"):
        check_rules(Rules(), 3)
    check_rules(Rules(structure="pot-limit"))
    check_rules(Rules.preset("two-blind", heads_up_button_posts_small=True))


def test_each_hand_is_played_by_the_blueprint_nearest_its_depth() -> None:
    """The no-limit blueprints at 20, 50, 100 and 200 big blinds: a hand is played by the one
    nearest its effective stack (the smaller starting stack) by ratio, each a packaged file whose
    abstraction says its depth; the bot switches back and forth, its pickles keep the one in play,
    and every action stays legal at every depth."""
    assert sorted(DEPTHS["no-limit"]) == [20, 50, 100, 200] and sorted(DEPTHS["fixed-limit"]) == [100]
    for structure, files in DEPTHS.items():
        for depth in files:
            a = blueprint_strategy(structure, depth).abstraction
            assert (a.structure, a.stack_bb) == (structure, depth)
            assert blueprint_info(structure, depth)["abstraction"]["stack_bb"] == depth
    assert [nearest_depth("no-limit", x) for x in (1, 20, 31, 32, 70, 71, 141, 142, 10_000)] == \
        [20, 20, 20, 50, 50, 100, 100, 200, 200]
    assert nearest_depth("fixed-limit", 3) == 100
    with pytest.raises(PokerDraw32ValueError, match="no no-limit blueprint 30 big blinds deep"):
        blueprint_strategy("no-limit", 30)
    bot = blueprint_bot(seed=3)
    for chips, depth in ((40, 20), (400, 200), (90, 50), (200, 100), (1000, 200), (36, 20)):
        h = Hand(Rules(), [chips, 2 * chips], button=chips % 2, seed=chips)
        while h.actor is not None:
            view = SeatView.of(h)
            action = bot.decide(view) if h.actor == 0 else RuleBot(1).decide(view)
            if h.actor == 0:
                assert bot.strategy is blueprint_strategy("no-limit", depth)
            h.act(action)
        assert pickle.loads(pickle.dumps(bot)).strategy is bot.strategy
    r = simulate(players=2, hands=200, seed=2, stack=40, bots=["cfr", "rule"], workers=1)
    assert r.hands_played == 200 and sum(b.chips for b in r.per_bot) == 0


def test_button_posts_small() -> None:
    """``heads_up_button_posts_small`` (R4.3): the big blind draws first (R6.1); the replay puts the
    small blind's draw first, so only the big blind's draw (made first) is off the tree; with
    ``second_round_first="after_button"`` (R7.1) it is refused."""
    rules = Rules(heads_up_button_posts_small=True)
    bots = [blueprint_bot(seed=5), blueprint_bot(seed=6)]
    first_draws = [0, 0]
    for seed in range(40):
        h = Hand(rules, [200, 200], button=seed % 2, seed=seed)
        while not h.is_complete:
            view = SeatView.of(h)
            if view.phase is Phase.DRAW and not any(e.kind is EventKind.DISCARD for e in view.events):
                assert view.seat == view.blinds[1]                  # the big blind draws first
                first_draws[h.actor] += 1
            action = bots[h.actor].decide(view)
            assert h.can(action)
            h.act(action)
    for i, bot in enumerate(bots):
        assert bot.stats["off_tree"] == first_draws[i] > 0 and bot.stats["unseen"] == 0, (bot.stats, first_draws)
    bad = Rules(heads_up_button_posts_small=True, second_round_first="after_button")
    with pytest.raises(PokerDraw32ValueError, match=r"heads_up_button_posts_small \(R4.3\).*\(R7.1\)"):
        blueprint_bot().decide(SeatView.of(Hand(bad, [200, 200], button=0, seed=1)))


def test_timeouts_keep_the_replay_on_the_tree() -> None:
    """A timeout (R6.3, R7.3) is logged with the pat, check or fold it amounts to: read once."""
    bot = blueprint_bot(seed=7)
    for seed in range(30):
        h = Hand(Rules(), [200, 200], button=seed % 2, seed=seed)
        while not h.is_complete:
            if h.actor == seed // 2 % 2:
                h.act(bot.decide(SeatView.of(h)))
            elif SeatView.of(h).phase is Phase.DRAW or seed % 3 == 0:
                h.timeout()
            else:                                           # a passive opponent: never past the raise cap
                h.act("check" if h.can("check") else "call")
    assert bot.stats["off_tree"] == 0 and bot.stats["strategy"] > 20, bot.stats
