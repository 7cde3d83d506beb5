"""The hand's core is one source, ``pokerdraw32/_state.py`` (with ``_handcore/state_view.py``, its state as
Python reads it), built twice: compiled by Cython as ``pokerdraw32._handcore.state_c`` (and
``_state_view_c``) and run as plain Python as ``pokerdraw32._handcore.state`` (issue 11).  Both builds,
in one process, play the same seeded hands with the same actions, legal ones and refused ones, and
must agree at every step: every field of the state, the compact log's records, the events, the
legal actions, each refusal's exception and message, and the result.

The rest of the suite runs against whichever build ``pokerdraw32._kernels`` picked; this test
compares the two directly, so it needs the compiled build (skipped without it, an error when the
extensions are required, as the kernel fixtures of conftest.py).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

import pytest
from conftest import RULE_VARIETY as RULES
from conftest import compiled_module

from pokerdraw32 import Hand, Rules
from pokerdraw32.actions import Action, ActionKind
from pokerdraw32.errors import PokerDraw32Error


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    return compiled_module("pokerdraw32._handcore.state_view_c")


def state(h: Any) -> dict[str, Any]:
    """Everything about the hand that both builds must agree on."""
    out = {k: v for k, v in h._export().items() if k != "rng"}
    out["rng"] = tuple(h.rng.getstate())
    out["log"] = h._records(0)
    out["legal"] = h.legal_actions()
    out["pot"] = h.pot
    return out




def candidates(h: Any, rnd: random.Random) -> list[Action]:
    """Some actions to try now: legal ones and a few that must be refused."""
    legal = h.legal_actions()
    out: list[Action] = []
    if legal is None:
        return out
    for kind in legal.kinds:
        if kind is ActionKind.DISCARD:
            cards = list(legal.hole_cards)
            rnd.shuffle(cards)
            out.append(Action.discard(cards[:rnd.randrange(5)]))
        elif kind in (ActionKind.BET, ActionKind.RAISE):
            lo, hi = legal.min_to, legal.max_to
            out.append(Action(kind, rnd.choice([lo, hi, rnd.randint(lo, hi)])))
        else:
            out.append(Action(kind))
    out.append(rnd.choice([Action.check(), Action.call(), Action.fold(), Action.raise_to(rnd.randint(0, 500)),
                           Action.bet(rnd.randint(0, 500)), Action.split(), Action.decline(), Action.stand_pat(),
                           Action.timeout()]))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_compiled_and_plain_python_builds_agree_at_every_step(compiled: ModuleType, seed: int) -> None:
    plain = importlib.import_module("pokerdraw32._handcore.state_view")
    assert compiled.HandState is not plain.HandState
    rnd = random.Random(seed)
    hands = decisions = refusals = 0
    for _ in range(40):
        rules = rnd.choice(RULES)
        n = rnd.randint(2, 5)
        stacks = [rnd.choice([1, 2, 3, 5, 8, 40, 200, 1000]) for _ in range(n)]
        button, hand_seed = rnd.randrange(n), rnd.getrandbits(64)
        a = compiled.HandState(rules, stacks, button, seed=hand_seed)
        b = plain.HandState(rules, stacks, button, seed=hand_seed)
        assert state(a) == state(b)
        hands += 1
        while a.actor is not None:
            action = rnd.choice(candidates(a, rnd))
            seat = rnd.choice([None, None, a.actor, rnd.randrange(n)])
            outcomes = []
            for h in (a, b):
                try:
                    outcomes.append(("event", h.act(action, seat)))
                except PokerDraw32Error as exc:
                    outcomes.append((type(exc), str(exc)))
            assert outcomes[0] == outcomes[1], (action, seat)
            refusals += outcomes[0][0] != "event"
            decisions += 1
            assert state(a) == state(b), (action, seat)
        assert a.events == b.events
        assert a.result == b.result
        assert sum(a.result.stacks) == sum(stacks)                       # R9.5
    assert hands == 40 and decisions > 200 and refusals > 20


class Mine(Hand):
    """A user's subclass of Hand (pickled by name: at module level)."""


@pytest.mark.parametrize("module", ["pokerdraw32._handcore.state_view_c", "pokerdraw32._handcore.state_view"])
def test_pickle_and_copies_of_a_hand_continue_identically(module: str) -> None:
    """``pickle`` (by the snapshot), ``copy.copy`` and ``copy.deepcopy`` (by clone) of a hand in
    play, of a subclass of Hand too, give a hand that continues exactly as the original."""
    import copy
    import pickle

    if module.endswith("_c"):
        compiled_module(module)
    elif Hand.__mro__[1].__module__ != module:
        pytest.skip("the plain-Python build is tested where pokerdraw32._kernels chose it")

    h = Mine(Rules(), [100, 80, 60, 40], 1, seed=11)
    h.call()
    h.raise_to(12)
    for other in (pickle.loads(pickle.dumps(h)), copy.copy(h), copy.deepcopy(h)):
        assert type(other) is Mine and other.snapshot() == h.snapshot()
        while h.actor is not None:
            legal = h.legal_actions()
            action = "d" if legal.max_discard else ("c" if "call" in legal else "k")
            assert str(h.act(action)) == str(other.act(action))
        assert other.result == h.result and other.events == h.events
        h = Mine(Rules(), [100, 80, 60, 40], 1, seed=11)
        h.call()
        h.raise_to(12)
