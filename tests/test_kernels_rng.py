"""Kernel 2, randomness (R11): xoshiro256** seeded by SplitMix64, for both implementations.

The golden values below come from the authors' reference C code (splitmix64.c and
xoshiro256starstar.c, compiled separately), not from either implementation here.
"""

from __future__ import annotations

import copy
import pickle
from collections import Counter
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

Outcome = Callable[..., tuple[Any, Any]]  # the conftest fixture

U64 = 2**64 - 1

# SplitMix64 started at 0: its first four outputs are the state of Rng(0).
SPLITMIX64_FROM_0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC)
# Rng(7): the first five next_u64() outputs ...
SEED_7_OUTPUTS = [
    12923355070828475994,
    5142052590334782674,
    15488392906492639638,
    18098058644649177664,
    18278145976438096664,
]
# ... and shuffled(0xFFFFFFFF) of a fresh Rng(7) (Fisher-Yates with bitmask rejection)
SEED_7_DECK = [6, 13, 20, 16, 7, 28, 19, 29, 25, 9, 0, 2, 11, 21, 15, 10,
               18, 24, 5, 31, 30, 23, 14, 17, 4, 12, 3, 1, 27, 26, 8, 22]  # fmt: skip

seeds = st.integers(0, U64)


# ---------------------------------------------------------------------------------------
# golden values


def test_splitmix64_seeding(kernels: ModuleType) -> None:
    assert kernels.Rng(0).getstate() == SPLITMIX64_FROM_0
    assert kernels.Rng(seed=0).getstate() == SPLITMIX64_FROM_0


def test_xoshiro_outputs(kernels: ModuleType) -> None:
    rng = kernels.Rng(7)
    assert [rng.next_u64() for _ in range(5)] == SEED_7_OUTPUTS


def test_shuffled_deck(kernels: ModuleType) -> None:
    assert kernels.Rng(7).shuffled(0xFFFFFFFF) == SEED_7_DECK


def test_shuffle_matches_shuffled(kernels: ModuleType) -> None:
    deck = list(range(32))
    kernels.Rng(7).shuffle(deck)
    assert deck == SEED_7_DECK
    names = [f"card{code}" for code in range(32)]  # any items
    kernels.Rng(7).shuffle(names)
    assert names == [f"card{code}" for code in SEED_7_DECK]


def test_extreme_seed(kernels: ModuleType) -> None:
    rng = kernels.Rng(U64)
    assert all(0 <= rng.next_u64() <= U64 for _ in range(100))


# ---------------------------------------------------------------------------------------
# below()


@settings(max_examples=200, deadline=None)
@given(seed=seeds, n=st.integers(1, 2**32) | st.integers(1, 40))
def test_below_in_range(kernels: ModuleType, seed: int, n: int) -> None:
    rng = kernels.Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


def test_below_one_draws_nothing(kernels: ModuleType) -> None:
    rng = kernels.Rng(3)
    before = rng.getstate()
    assert rng.below(1) == 0
    assert rng.getstate() == before


def test_below_is_bitmask_rejection(kernels: ModuleType) -> None:
    """below(n) takes the top bit_length(n - 1) bits and redraws while they are >= n."""
    reference = kernels.Rng(11)
    rng = kernels.Rng(11)
    for n in [2, 3, 5, 6, 7, 9, 31, 32, 33, 1000, 2**31 + 1, 2**32]:
        shift = 64 - (n - 1).bit_length()
        expected = reference.next_u64() >> shift
        while expected >= n:
            expected = reference.next_u64() >> shift
        assert rng.below(n) == expected
    assert rng.getstate() == reference.getstate()


def test_below_uniform(kernels: ModuleType) -> None:
    """Chi-square smoke test, 50,000 draws of below(5) (4 degrees of freedom)."""
    rng = kernels.Rng(2024)
    draws = 50_000
    counts = Counter(rng.below(5) for _ in range(draws))
    assert set(counts) == set(range(5))
    expected = draws / 5
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(5))
    assert chi2 < 25  # p < 1e-4 for a fair generator


def test_shuffle_uniform(kernels: ModuleType) -> None:
    """All 6 orders of a 3-item list, each about equally often (5 degrees of freedom)."""
    rng = kernels.Rng(99)
    counts: Counter[tuple[int, ...]] = Counter()
    trials = 12_000
    for _ in range(trials):
        items = [0, 1, 2]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 6
    expected = trials / 6
    assert sum((n - expected) ** 2 / expected for n in counts.values()) < 25


# ---------------------------------------------------------------------------------------
# the two implementations agree


@settings(max_examples=100, deadline=None)
@given(seed=seeds, sizes=st.lists(st.integers(0, 40), max_size=5), mask=st.integers(0, 0xFFFFFFFF))
def test_same_sequences(core: ModuleType, pure: ModuleType, seed: int, sizes: list[int], mask: int) -> None:
    a, b = core.Rng(seed), pure.Rng(seed)
    assert a.getstate() == b.getstate()
    assert [a.next_u64() for _ in range(3)] == [b.next_u64() for _ in range(3)]
    assert [a.below(n + 1) for n in sizes] == [b.below(n + 1) for n in sizes]
    for size in sizes:
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        b.shuffle(y)
        assert x == y
    assert a.shuffled(mask) == b.shuffled(mask)
    assert a.getstate() == b.getstate()


@settings(max_examples=50, deadline=None)
@given(seed=seeds)
def test_state_crosses_implementations(core: ModuleType, pure: ModuleType, seed: int) -> None:
    a = core.Rng(seed)
    a.next_u64()
    b = pure.Rng(0)
    b.setstate(a.getstate())
    assert [a.next_u64() for _ in range(4)] == [b.next_u64() for _ in range(4)]
    a.setstate(b.getstate())
    assert a.shuffled(0xFFFFFFFF) == b.shuffled(0xFFFFFFFF)


def test_setstate_round_trip(kernels: ModuleType) -> None:
    rng = kernels.Rng(5)
    state = rng.getstate()
    first = [rng.next_u64() for _ in range(3)]
    rng.setstate(state)
    assert [rng.next_u64() for _ in range(3)] == first
    rng.setstate([1, 0, 0, 0])  # any iterable of 4 words
    assert rng.getstate() == (1, 0, 0, 0)
    assert all(isinstance(word, int) for word in rng.getstate())


# ---------------------------------------------------------------------------------------
# copies and pickles


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))])
def test_copies_carry_the_state(kernels: ModuleType, clone) -> None:  # type: ignore[no-untyped-def]
    rng = kernels.Rng(123)
    rng.next_u64()
    twin = clone(rng)
    assert type(twin) is kernels.Rng
    assert twin.getstate() == rng.getstate()
    assert [twin.next_u64() for _ in range(3)] == [rng.next_u64() for _ in range(3)]
    twin.next_u64()
    assert twin.getstate() != rng.getstate()  # independent


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy])
def test_copies_of_a_subclass(kernels: ModuleType, clone) -> None:  # type: ignore[no-untyped-def]
    """A subclass's copy is of the subclass, made as its pickle is (``type(rng)(0)``, then the
    state): Rng.__copy__ takes a shortcut for Rng itself only."""
    class Counted(kernels.Rng):  # type: ignore[name-defined,misc]
        made = 0

        def __init__(self, seed: int | None = None) -> None:
            super().__init__(seed)
            Counted.made += 1

    rng = Counted(9)
    rng.next_u64()
    twin = clone(rng)
    assert type(twin) is Counted and Counted.made == 2
    assert [twin.next_u64() for _ in range(3)] == [rng.next_u64() for _ in range(3)]
    memo: dict[int, object] = {}
    pair = copy.deepcopy([rng, rng], memo)
    assert pair[0] is pair[1] and pair[0] is not rng       # one copy of a generator met twice


def test_unseeded(kernels: ModuleType) -> None:
    a, b = kernels.Rng(), kernels.Rng(None)
    assert any(a.getstate()) and any(b.getstate())
    assert a.getstate() != b.getstate()  # 2**-256 chance of a false failure


# ---------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        (-1, ValueError, "seed must be in 0 <= seed < 2**64, got -1"),
        (2**64, ValueError, f"seed must be in 0 <= seed < 2**64, got {2**64}"),
        (True, TypeError, "seed must be an int or None, not bool"),
        (1.0, TypeError, "seed must be an int or None, not float"),
        ("7", TypeError, "seed must be an int or None, not str"),
    ],
)
def test_seed_errors(kernels: ModuleType, seed: object, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        kernels.Rng(seed)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("n", "error", "message"),
    [
        (0, ValueError, "below() needs 1 <= n <= 2**32, got 0"),
        (-5, ValueError, "below() needs 1 <= n <= 2**32, got -5"),
        (2**32 + 1, ValueError, f"below() needs 1 <= n <= 2**32, got {2**32 + 1}"),
        (True, TypeError, "n must be an int, not bool"),
        (2.0, TypeError, "n must be an int, not float"),
    ],
)
def test_below_errors(kernels: ModuleType, n: object, error: type, message: str) -> None:
    rng = kernels.Rng(1)
    with pytest.raises(error) as info:
        rng.below(n)
    assert str(info.value) == message
    assert rng.getstate() == kernels.Rng(1).getstate()  # nothing drawn


@pytest.mark.parametrize(
    ("method", "argument", "error", "message"),
    [
        ("shuffle", (1, 2, 3), TypeError, "cards must be a list, not tuple"),
        ("shuffle", "abc", TypeError, "cards must be a list, not str"),
        ("shuffled", 1 << 32, ValueError, "deck mask 0x100000000 has bits outside the 32-card deck"),
        ("shuffled", -1, ValueError, "deck mask -0x1 has bits outside the 32-card deck"),
        ("shuffled", 3.0, TypeError, "deck mask must be an int, not float"),
        ("shuffled", False, TypeError, "deck mask must be an int, not bool"),
        ("setstate", (1, 2, 3), ValueError, "state must have 4 words, got 3"),
        ("setstate", (0, 0, 0, 0), ValueError, "state must not be all zero"),
        ("setstate", (1, 2, 3, 2**64), ValueError, f"state word 3 is outside 0 <= w < 2**64: {2**64}"),
        ("setstate", (1, -2, 3, 4), ValueError, "state word 1 is outside 0 <= w < 2**64: -2"),
        ("setstate", (1, 2, "3", 4), TypeError, "state word 2 must be an int, not str"),
        ("setstate", (1, 2, 3, True), TypeError, "state word 3 must be an int, not bool"),
        ("setstate", 5, TypeError, "state must be a sequence, not int"),
    ],
)
def test_method_errors(kernels: ModuleType, method: str, argument: object, error: type, message: str) -> None:
    rng = kernels.Rng(1)
    with pytest.raises(error) as info:
        getattr(rng, method)(argument)
    assert str(info.value) == message
    assert rng.getstate() == kernels.Rng(1).getstate()  # unchanged


anything = st.one_of(
    st.integers(-(2**70), 2**70), st.booleans(), st.none(), st.floats(allow_nan=False), st.text(max_size=2)
)


@settings(max_examples=200, deadline=None)
@given(
    seed=anything.filter(lambda s: s is not None) | seeds,
    n=anything | st.integers(0, 2**33),
    mask=anything | st.integers(0, 2**33),
    state=st.lists(anything | seeds, max_size=5) | anything,
)
def test_error_parity(
    core: ModuleType, pure: ModuleType, outcome: Outcome, seed: object, n: object, mask: object, state: object
) -> None:
    assert outcome(lambda: core.Rng(seed).getstate()) == outcome(lambda: pure.Rng(seed).getstate())
    a, b = core.Rng(1), pure.Rng(1)
    assert outcome(a.below, n) == outcome(b.below, n)
    assert outcome(a.shuffled, mask) == outcome(b.shuffled, mask)
    assert outcome(a.setstate, state) == outcome(b.setstate, state)
    assert a.getstate() == b.getstate()


def test_spawn_derives_a_generator_per_thread(kernels: ModuleType) -> None:
    """An Rng belongs to one thread (documented: no lock); spawn() derives one per worker,
    seeded with the parent's next output, the same in both implementations."""
    parent, twin = kernels.Rng(7), kernels.Rng(7)
    child = parent.spawn()
    assert type(child) is kernels.Rng
    seed = twin.next_u64()
    assert parent.getstate() == twin.getstate()
    assert child.getstate() == kernels.Rng(seed).getstate()
    decks = {tuple(parent.spawn().shuffled(0xFFFFFFFF)) for _ in range(50)}
    assert len(decks) == 50


def test_spawn_agrees(core: ModuleType, pure: ModuleType) -> None:
    assert core.Rng(11).spawn().getstate() == pure.Rng(11).spawn().getstate()
