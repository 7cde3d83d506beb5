"""Values that lie: an ``int`` subclass whose ``__int__``, ``__index__``, comparisons and
arithmetic lie. Every entry point reads an amount, seat, mask or seed once as a plain int
(``operator.index``, which reads an int subclass by its value) and uses only that, so a liar
behaves exactly like its true value, in both kernel implementations. It used to pass
validation and make a stack of -50, pay 10 chips out of 6 in the pure ``split_pots``, and
loop forever in the pure ``Rng.below``.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest

from pokerdraw32 import Action, ActionKind, Hand, Rules, RulesError, TableError, deal_many
from pokerdraw32.table import Table


class Liar(int):
    """Claims -50 to int() and index(), is never <, <=, >, >= or == anything, and adds up to a million."""

    def __int__(self) -> int:
        return -50

    def __index__(self) -> int:
        return -50

    def _no(self, other: object) -> bool:
        return False

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = _no  # type: ignore[assignment]

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__

    def _million(self, other: object) -> int:
        return 10**6

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _million  # type: ignore[assignment]


def plain(values: Any) -> bool:
    """Every int in a nested structure is an exact int."""
    if isinstance(values, (list, tuple)):
        return all(plain(v) for v in values)
    return not isinstance(values, int) or type(values) in (int, bool)


def test_hand_reads_stacks_button_seed_and_posts_by_value() -> None:
    hand = Hand(Rules(), [Liar(100), 100, 100], Liar(0), seed=Liar(7))
    twin = Hand(Rules(), [100, 100, 100], 0, seed=7)
    assert hand.starting_stacks == (100, 100, 100) and plain(hand.starting_stacks) and plain(hand.stacks)
    assert hand.button == 0 and type(hand.button) is int
    assert hand.events == twin.events
    posted = Hand(Rules(), [100] * 5, 0, seed=1, posts={Liar(4): (Liar(2), Liar(1))})
    assert posted.posted_extras == {4: (2, 1)}


def test_hand_refuses_a_liar_whose_value_is_bad() -> None:
    with pytest.raises(RulesError, match=r"stack -5 must be positive"):
        Hand(Rules(), [Liar(-5), 100], 0)
    with pytest.raises(RulesError, match=r"button 9 is not a seat 0\.\.1"):
        Hand(Rules(), [100, 100], Liar(9))


def test_actions_and_seats_by_value() -> None:
    hand = Hand(Rules(), [100, 100, 100], 0, seed=1)
    action = Action(ActionKind.RAISE, Liar(10))
    assert action.amount == 10 and type(action.amount) is int
    hand.raise_to(Liar(10), seat=Liar(0))
    assert hand.bets[0] == 10 and plain(hand.bets) and plain(hand.stacks)
    assert hand.can("call", Liar(1)) and not hand.can("call", Liar(2))
    assert hand.view(Liar(1))["seat"] == 1


def test_rules_by_value() -> None:
    rules = Rules(sb=Liar(5), cap=Liar(3), structure="fixed-limit")
    assert (rules.sb, rules.bb, rules.ob, rules.cap) == (5, 10, 20, 3)
    assert plain([rules.sb, rules.bb, rules.ob, rules.cap])
    assert Rules().blinds(Liar(4)) == (1, 2, 4)
    with pytest.raises(RulesError, match=r"sb=-5 must be a positive number of chips"):
        Rules(sb=Liar(-5))


def test_table_chips_by_value() -> None:
    table = Table(Rules(), seats=Liar(3), seed=1)
    table.join(Liar(0), "a", Liar(100))
    table.join(1, "b", 100)
    assert table.seat(0).stack == 100 and type(table.seat(0).stack) is int
    assert table.chips_on_table == 200
    with pytest.raises(TableError, match=r"is not a number of chips"):
        table.join(2, "c", Liar(-100))
    table.add_chips(Liar(1), Liar(20))
    assert table.seat(1).stack == 120 and table.chips_on_table == 220
    table.check_ledger()


def test_kernels_read_liars_by_value(kernels: ModuleType) -> None:
    # R9.1, R9.4: the liar's true value, 6 chips each; chips are conserved (R9.5)
    want = kernels.split_pots((6, 6), (1, 2), 3, 0, 0, 0)
    got = kernels.split_pots((Liar(6), 6), (Liar(1), 2), Liar(3), Liar(0), Liar(0), Liar(0))
    assert got == want and plain(got)
    assert sum(got[0]) + sum(got[2]) == 12
    assert kernels.Rng(Liar(7)).getstate() == kernels.Rng(7).getstate()
    rng, twin = kernels.Rng(1), kernels.Rng(1)
    assert rng.shuffled(Liar(0xFF)) == twin.shuffled(0xFF)
    rng.setstate((Liar(1), 2, 3, 4))
    assert rng.getstate() == (1, 2, 3, 4) and plain(rng.getstate())
    assert kernels.evaluate_mask(Liar(0x1F)) == kernels.evaluate_mask(0x1F)
    assert kernels.evaluate_codes((Liar(0), 1, 2, 3, 4)) == kernels.evaluate_codes((0, 1, 2, 3, 4))
    assert len(kernels.deal_many(kernels.Rng(1), Liar(2))) == 64
    with pytest.raises(ValueError, match=r"n must be in 0 <= n <= 2\*\*40, got -1"):
        kernels.deal_many(kernels.Rng(1), Liar(-1))
    with pytest.raises(ValueError, match=r"contribution of seat 0 is negative: -6"):
        kernels.split_pots((Liar(-6), 6), (1, 2), 3, 0, 0, 0)


def test_batch_deal_many_by_value() -> None:
    assert deal_many(Liar(2), seed=Liar(5), hands=Liar(3)) == deal_many(2, seed=5, hands=3)


@pytest.mark.parametrize("implementation", ["cython", "python"])
def test_rng_below_a_liar_ends(request: pytest.FixtureRequest, implementation: str) -> None:
    """The pure below() looped forever on a liar (``r < n`` never true); a child process
    with a timeout, so the old behaviour fails the test instead of hanging it."""
    if implementation == "cython":
        request.getfixturevalue("core")  # skips when the compiled kernels are not in use
    module = "pokerdraw32._core" if implementation == "cython" else "pokerdraw32._core_py"
    program = (
        f"import importlib\n{inspect.getsource(Liar)}\n"
        f"k = importlib.import_module({module!r})\n"
        "print(k.Rng(3).below(Liar(6)) == k.Rng(3).below(6))\n"
    )
    env = dict(os.environ)
    env.pop("POKERDRAW32_NO_EXTENSIONS", None)
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "True"
