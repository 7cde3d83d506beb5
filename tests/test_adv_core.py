"""Adversarial review of the compiled hand core (issue 11): crash safety, compiled/pure parity and
differential equality with the baseline pure engine (``fef819d``).

Each reproducer runs in a fresh interpreter (a segfault or a hang must not take the test run with it)
in both builds: ``POKERDRAW32_NO_EXTENSIONS=0`` (``pokerdraw32._handcore.state_c``, skipped when it is not
built) and ``=1`` (``_handcore/state.py`` as plain Python).  Known defects are ``xfail(strict=True)``: each
flips to a failure, to be turned into a plain test, the day it is fixed.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINE = "fef819d"
MODES = ["compiled", "pure"]


def _env(mode: str, pythonpath: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["POKERDRAW32_NO_EXTENSIONS"] = "1" if mode == "pure" else "0"
    env.pop("POKERDRAW32_REQUIRE_EXTENSIONS", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def _need(mode: str) -> None:
    if mode == "compiled" and importlib.util.find_spec("pokerdraw32._handcore.state_c") is None:
        pytest.skip("pokerdraw32._handcore.state_c is not built")


def modes(reason: str, broken: tuple[str, ...] = ()) -> pytest.MarkDecorator:
    """Parametrize over both builds; ``broken`` ones are known defects, xfail(strict=True)."""
    return pytest.mark.parametrize("mode", [
        pytest.param(m, marks=pytest.mark.xfail(reason=reason, strict=True) if m in broken else ())
        for m in MODES])


def run(mode: str, code: str, timeout: float = 10) -> tuple[int, str]:
    """Run ``code`` in a fresh interpreter in ``mode``: (return code, stdout + stderr); a hang is -9."""
    _need(mode)
    try:
        p = subprocess.run([sys.executable, "-X", "faulthandler", "-c", code], env=_env(mode), capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -9, "timed out"
    return p.returncode, p.stdout + p.stderr


def ok(mode: str, code: str, expected: str, timeout: float = 10) -> None:
    rc, out = run(mode, code, timeout)
    assert rc == 0, f"{mode}: exit status {rc}\n{out[-2000:]}"
    assert out.strip().splitlines()[-1] == expected, out[-2000:]


# ---------------------------------------------------------------------------------------- crashes

RNG_SUBCLASS = """
from pokerdraw32 import Hand, Rules, Rng, PokerDraw32Error
from pokerdraw32.cards import FULL_MASK
class R(Rng):                       # accepted by Hand(rng=...): isinstance(rng, Rng)
    def shuffled(self, mask):
        out = super().shuffled(mask)
        return out if mask == FULL_MASK else out * 300
h = Hand(Rules(), [1000] * 5, 0, rng=R(1))
for a in ["call"] * 4 + ["check"]:
    h.act(a)
try:
    while h.phase.value == "draw":  # the stub runs out: R6.2 reshuffle
        h.discard(h.legal_actions().hole_cards[:4])
except PokerDraw32Error:
    pass
print("alive")
"""


@modes("a Rng subclass whose shuffled() returns more cards overflows HandCore._stub "
        "(compiled: segfault; pure: IndexError mid-action)")
def test_rng_subclass_reshuffle_never_crashes(mode: str) -> None:
    ok(mode, RNG_SUBCLASS, "alive")


PUBLIC_RNG = """
from pokerdraw32 import Hand, Rules, PokerDraw32Error
class Evil:
    def shuffled(self, mask):
        return [3] * 5000
h = Hand(Rules(), [1000] * 5, 0, seed=1)
for a in ["call"] * 4 + ["check"]:
    h.act(a)
try:
    h.rng = Evil()                  # refused: not a Rng (and a Rng's shuffle is checked)
    while h.phase.value == "draw":
        h.discard(h.legal_actions().hole_cards[:4])
except PokerDraw32Error:
    pass
print("alive")
"""


@modes("Hand.rng is writable and its shuffled() output is written unchecked into _stub "
        "(compiled: segfault; pure: IndexError mid-action)")
def test_public_rng_attribute_never_crashes(mode: str) -> None:
    ok(mode, PUBLIC_RNG, "alive")


UNINITIALISED = """
from pokerdraw32 import Hand
u = Hand.__new__(Hand)              # __init__ never ran
for f in (lambda: u.deal(), lambda: u.deal([]), lambda: u.act("f"), lambda: u.legal_actions()):
    try:
        f()
    except Exception as e:
        pass
print("alive")
"""


@modes("compiled: Hand.__new__(Hand).deal() loops forever in _reserve (capacity 0 doubled)")
def test_uninitialised_hand_never_hangs(mode: str) -> None:
    ok(mode, UNINITIALISED, "alive", timeout=3)


SET_CARDS_OVERFLOW = """
from pokerdraw32 import Hand, Rules, PokerDraw32Error
h = Hand(Rules(), [1000] * 5, 4, seed=1, auto_deal=False)
while h.pending_deal:
    h.deal()
for a in ["call"] * 4 + ["check"]:
    h.act(a)
while h.actor != 4:
    h.discard([])
h.discard(h.legal_actions().hole_cards[:4])          # seat 4 waits for 4 cards
hole = h.hole
hole[4] = hole[4] + h.stub[:4]                        # 5 cards: the deal would make 9
try:
    h._set_cards(hole, h.pile, h.muck, h._own_discards, h.stub[4:])
    h.deal()
except PokerDraw32Error:
    pass
cards = [c for cs in h.hole for c in cs] + h.stub + h.pile + h.muck + h._own_discards
print(all(len(cs) <= 5 for cs in h.hole) and sorted(cards) == list(range(32)))
"""


@modes("_set_cards accepts 5 cards for a seat waiting for a draw: the deal writes past _hole "
        "(compiled: seat 4 overwrites _hole_n; pure: IndexError)")
def test_set_cards_cannot_overflow_hole(mode: str) -> None:
    ok(mode, SET_CARDS_OVERFLOW, "True")


# ------------------------------------------------------------------------- state and parity

INIT_TWICE = """
from pokerdraw32 import Hand, Rules
h = Hand(Rules(), [100, 100, 100], 0, seed=1)
h.act("r 10"); h.fold(); h.call()
h.__init__(Rules(), [100, 100, 100], 0, seed=1)
f = Hand(Rules(), [100, 100, 100], 0, seed=1)
print(h.snapshot() | {"engine": 0} == f.snapshot() | {"engine": 0}, sum(h.stacks) + h.pot)
"""


@modes("compiled: a second __init__ keeps the old folds, muck and pot (_alloc resets only "
        "the log): 321 chips from 300")
def test_init_twice_is_a_fresh_hand(mode: str) -> None:
    ok(mode, INIT_TWICE, "True 300")


PICKLE = """
import copy, pickle
from pokerdraw32 import Hand, Rules
h = Hand(Rules(), [100, 100, 100], 0, seed=1)
g = pickle.loads(pickle.dumps(h)); d = copy.deepcopy(h)
g.call(); d.call()
print(g.stacks, d.stacks, h.stacks)
"""


@modes("compiled: pickle and copy.deepcopy of a Hand raise TypeError (self._rec cannot be "
        "converted); they work in pure mode and in the baseline engine")
def test_pickle_and_deepcopy(mode: str) -> None:
    ok(mode, PICKLE, "[98, 99, 98] [98, 99, 98] [100, 99, 98]")


HUGE_DISCARD = """
from pokerdraw32 import Hand, Rules, PokerDraw32Error
from pokerdraw32.actions import Action, ActionKind
a = object.__new__(Action)
for k, v in (("kind", ActionKind.DISCARD), ("amount", None), ("cards", (2**70,))):
    object.__setattr__(a, k, v)
h = Hand(Rules(), [100, 100, 100], 0, seed=3)
h.call(); h.call(); h.check()
try:
    h.act(a)
except PokerDraw32Error as e:
    print(type(e).__name__)
"""


@modes("compiled: OverflowError for an unvalidated huge card code; pure: IllegalActionError")
def test_huge_card_code_refused_alike(mode: str) -> None:
    ok(mode, HUGE_DISCARD, "IllegalActionError")


SUBCLASS_CLONE = """
from pokerdraw32 import Hand, Rules
class T(Hand):
    def __init__(self, *a, **k):
        self.table_id = 7
        super().__init__(*a, **k)
t = T(Rules(), [100, 100], 0, seed=1)
print(getattr(t.clone(), "table_id", None))
"""


@modes("compiled: clone() of a Hand subclass drops the instance's own attributes (pure keeps "
        "them)")
def test_subclass_clone_keeps_attributes(mode: str) -> None:
    ok(mode, SUBCLASS_CLONE, "7")


# ----------------------------------------------------------------------- differential fuzz

def _baseline(tmp: Path) -> Path | None:
    """The baseline engine's ``src`` (``git archive fef819d src``), or None without git or the commit."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        return None
    p = subprocess.run([git, "-C", str(ROOT), "archive", BASELINE, "src"], capture_output=True)
    if p.returncode:
        return None
    with tarfile.open(fileobj=io.BytesIO(p.stdout)) as archive:
        archive.extractall(tmp, filter="data")
    return tmp / "src"


def _trace(env: dict[str, str], seeds: tuple[int, int]) -> list[dict[str, object]]:
    p = subprocess.run([sys.executable, str(HERE / "adv_trace.py"), *map(str, seeds)], env=env, capture_output=True,
                       text=True, timeout=120, cwd=str(HERE))
    assert p.returncode == 0, p.stderr[-3000:]
    return [json.loads(line) for line in p.stdout.splitlines()]


def _first_difference(a: object, b: object, path: str = "") -> str | None:
    if type(a) is not type(b):
        return f"{path}: {str(a)[:200]} != {str(b)[:200]}"
    if isinstance(a, dict):
        assert isinstance(b, dict)
        for k in sorted(set(a) | set(b)):
            if k in ("engine", "crash"):
                continue
            r = _first_difference(a.get(k), b.get(k), f"{path}.{k}")
            if r:
                return r
        return None
    if isinstance(a, list):
        assert isinstance(b, list)
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            r = _first_difference(x, y, f"{path}[{i}]")
            if r:
                return r
        return None if len(a) == len(b) else f"{path}: {len(a)} != {len(b)} items"
    return None if a == b else f"{path}: {str(a)[:200]} != {str(b)[:200]}"


def test_differential_against_baseline_and_between_builds(tmp_path: Path) -> None:
    """The same seeded random hands (legal and refused actions, explicit deals, showdown choices,
    clones, restores, determinize) observed step by step (events, views, events_for, snapshots,
    results, PHH) in the baseline engine and in both builds: identical."""
    seeds = (0, 20)
    runs = {"pure": _trace(_env("pure"), seeds)}
    if importlib.util.find_spec("pokerdraw32._handcore.state_c") is not None:
        runs["compiled"] = _trace(_env("compiled"), seeds)
    base = _baseline(tmp_path)
    if base is not None:
        runs["baseline"] = _trace(_env("pure", str(base)), seeds)
    names = list(runs)
    for other in names[1:]:
        a, b = runs[names[0]], runs[other]
        assert len(a) == len(b), f"{names[0]} vs {other}: {len(a)} != {len(b)} lines"
        for x, y in zip(a, b, strict=False):
            d = _first_difference(x, y)
            assert d is None, f"{names[0]} vs {other}, seed {x.get('seed')} step {x.get('i')} ({x.get('op')}): {d}"
