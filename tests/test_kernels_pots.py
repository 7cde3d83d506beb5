"""Kernel 3, pots (R8.3, R9.1, R9.2, R9.4), for both implementations."""

from __future__ import annotations

import copy
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

Outcome = Callable[..., tuple[Any, Any]]  # the conftest fixture

MAX_AMOUNT = 2**53 - 1


# ---------------------------------------------------------------------------------------
# worked cases: (contributions, strengths, live, sharers, first, dead) -> (returned, pots, winnings)

CASES: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {
    # R9.1: all-ins for 50 and 150 make a main pot and two side pots; each goes to the
    # best hand among the seats that reached it.
    "main and two side pots": (
        ([50, 150, 300, 300], [900, 800, 700, 600], 0b1111, 0, 1, 0),
        (
            [0, 0, 0, 0],
            [(200, 0b1111, 0b0001, False), (300, 0b1110, 0b0010, False), (300, 0b1100, 0b0100, False)],
            [200, 300, 300, 0],
        ),
    ),
    # R9.2: seat 1 bet 400, seat 0 called all-in for 100: 300 go back uncalled.
    "uncalled raise returned": (
        ([100, 400, 0], [5, 9, -1], 0b011, 0, 0, 0),
        ([0, 300, 0], [(200, 0b011, 0b010, False)], [0, 200, 0]),
    ),
    # R9.2 also when the unmatched bettor then loses the called part.
    "uncalled part returned to the loser": (
        ([100, 400, 0], [9, 5, None], 0b011, 0, 0, 0),
        ([0, 300, 0], [(200, 0b011, 0b001, False)], [200, 0, 0]),
    ),
    # R9.1: seat 3 folded after putting in 80; its chips stay in the pots it reached.
    "folded chips stay in the pots": (
        ([100, 100, 60, 80], [1, 2, 3, None], 0b0111, 0, 0, 0),
        ([0, 0, 0, 0], [(240, 0b0111, 0b0100, False), (100, 0b0011, 0b0010, False)], [0, 100, 240, 0]),
    ),
    # Folded chips above every live contribution go to the top pot.
    "folded chips above the top level": (
        ([300, 300, 100], [None, None, 4], 0b100, 0, 0, 0),
        ([0, 0, 0], [(700, 0b100, 0b100, False)], [0, 0, 700]),
    ),
    # R10.3 dead chips go to the main pot.
    "dead chips in the main pot": (
        ([50, 100, 100], [9, 1, 2], 0b111, 0, 0, 7),
        ([0, 0, 0], [(157, 0b111, 0b001, False), (100, 0b110, 0b100, False)], [157, 0, 100]),
    ),
    # R8.3 + R9.4: everyone chose split; the odd chip goes to the first seat left of the button.
    "parole, odd chip to the first seat": (
        ([21, 21, 21], [1, 2, 3], 0b111, 0b111, 2, 1),
        ([0, 0, 0], [(64, 0b111, 0b111, True)], [21, 21, 22]),
    ),
    # R9.4: two odd chips, handed out from seat 2 and wrapping around to seat 0.
    "odd chips wrap around": (
        ([3, 3, 3], [1, 2, 3], 0b111, 0b111, 2, 2),
        ([0, 0, 0], [(11, 0b111, 0b111, True)], [4, 3, 4]),
    ),
    # R8.2/R8.3: all-in seat 0 did not agree; the main pot is shown down (seat 1 best), the
    # side pot that only the sharers reached is shared.
    "all-in non-sharer: only the side pot is shared": (
        ([50, 100, 100], [10, 30, 20], 0b111, 0b110, 0, 0),
        ([0, 0, 0], [(150, 0b111, 0b010, False), (100, 0b110, 0b110, True)], [0, 200, 50]),
    ),
    "all-in non-sharer with the best hand": (
        ([50, 100, 100], [30, 10, 20], 0b111, 0b110, 0, 0),
        ([0, 0, 0], [(150, 0b111, 0b001, False), (100, 0b110, 0b110, True)], [150, 50, 50]),
    ),
    # A pot open to one seat is simply that seat's, even if it agreed to split.
    "single eligible seat is not a share": (
        ([100, 100, 50], [1, None, 2], 0b101, 0b101, 0, 0),
        ([0, 0, 0], [(150, 0b101, 0b101, True), (100, 0b001, 0b001, False)], [175, 0, 75]),
    ),
    # R2.4 off: equal strengths tie and share; the odd chip goes to seat 0, the first
    # winner at or after seat 2 (the loser) in seat order.
    "tie with an odd chip": (
        ([35, 35, 35], [7, 7, 3], 0b111, 0, 2, 0),
        ([0, 0, 0], [(105, 0b111, 0b011, False)], [53, 52, 0]),
    ),
    "tie with an odd chip, first seat wins it": (
        ([35, 35, 35], [7, 7, 3], 0b111, 0, 1, 0),
        ([0, 0, 0], [(105, 0b111, 0b011, False)], [52, 53, 0]),
    ),
    # Nobody in the hand put in a chip: one pot of the dead chips, open to all live seats.
    "no live chips, dead money": (
        ([0, 0, 5], [1, 2, None], 0b011, 0, 0, 3),
        ([0, 0, 5], [(3, 0b011, 0b010, False)], [0, 3, 0]),
    ),
    "no chips at all": (
        ([0, 0], [1, 2], 0b11, 0, 0, 0),
        ([0, 0], [], [0, 0]),
    ),
    # The largest contribution is shared by two seats: nothing is uncalled.
    "two top contributors": (
        ([400, 400, 100], [3, 2, 1], 0b111, 0, 0, 0),
        ([0, 0, 0], [(300, 0b111, 0b001, False), (600, 0b011, 0b001, False)], [900, 0, 0]),
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_worked_case(kernels: ModuleType, name: str) -> None:
    args, expected = CASES[name]
    before = copy.deepcopy(args)
    assert kernels.split_pots(*args) == expected
    assert args == before  # inputs untouched
    returned, _pots, winnings = expected
    assert sum(returned) + sum(winnings) == sum(args[0]) + args[5]


def test_any_sequences(kernels: ModuleType) -> None:
    args, expected = CASES["main and two side pots"]
    contributions, strengths, *rest = args
    assert kernels.split_pots(tuple(contributions), iter(strengths), *rest) == expected
    assert kernels.split_pots(contributions, strengths, 0b1111, 0, 1) == expected  # dead defaults to 0


def test_result_types(kernels: ModuleType) -> None:
    returned, pots, winnings = kernels.split_pots([10, 20], [1, 2], 0b11, 0b11, 0)
    assert type(returned) is list and type(pots) is list and type(winnings) is list
    assert all(type(x) is int for x in returned + winnings)
    for pot in pots:
        assert type(pot) is tuple and [type(x) for x in pot] == [int, int, int, bool]


def test_thirty_two_seats(kernels: ModuleType) -> None:
    contributions = [10] * 32
    returned, pots, winnings = kernels.split_pots(contributions, list(range(32)), 2**32 - 1, 2**32 - 1, 31)
    assert pots == [(320, 2**32 - 1, 2**32 - 1, True)]
    assert winnings == [10] * 32 and returned == [0] * 32


def test_large_amounts(kernels: ModuleType) -> None:
    big = MAX_AMOUNT
    _returned, pots, winnings = kernels.split_pots([big, big], [1, 2], 0b11, 0, 0, big)
    assert pots == [(3 * big, 0b11, 0b10, False)] and winnings == [0, 3 * big]


# ---------------------------------------------------------------------------------------
# properties on random hands


@st.composite
def pot_args(draw: st.DrawFn) -> tuple[Any, ...]:
    n = draw(st.integers(2, 9) | st.integers(2, 32))
    amount = st.sampled_from([0, 1, 2, 5, 10, 50, 100]) | st.integers(0, 10_000)
    contributions = draw(st.lists(amount, min_size=n, max_size=n))
    live = draw(st.integers(1, 2**n - 1))
    sharers = draw(st.integers(0, 2**n - 1) | st.just(live)) & live
    strengths = [
        draw(st.integers(0, 6) | st.integers(0, 2**26)) if live >> seat & 1 else draw(st.sampled_from([-1, None, "x"]))
        for seat in range(n)
    ]
    first = draw(st.integers(0, n - 1))
    dead = draw(st.sampled_from([0, 0, 1, 3]) | st.integers(0, 1000))
    return contributions, strengths, live, sharers, first, dead


@settings(max_examples=400, deadline=None)
@given(args=pot_args())
def test_core_equals_pure(core: ModuleType, pure: ModuleType, args: tuple[Any, ...]) -> None:
    assert core.split_pots(*args) == pure.split_pots(*args)


@settings(max_examples=300, deadline=None)
@given(args=pot_args())
def test_pot_invariants(kernels: ModuleType, args: tuple[Any, ...]) -> None:
    contributions, strengths, live, sharers, _first, dead = args
    before = copy.deepcopy(args)
    returned, pots, winnings = kernels.split_pots(*args)
    assert args == before
    n = len(contributions)
    # R9.5 conservation, nothing negative
    assert sum(returned) + sum(winnings) == sum(contributions) + dead
    assert min(returned) >= 0 and min(winnings) >= 0
    assert sum(amount for amount, *_ in pots) == sum(winnings)
    # R9.2: at most one seat gets chips back, and it keeps what the next largest matched
    back = [seat for seat in range(n) if returned[seat]]
    assert len(back) <= 1
    if back:
        seat = back[0]
        others = max(c for s, c in enumerate(contributions) if s != seat)
        assert contributions[seat] - returned[seat] == others
    # R9.1: non-empty pots, each open to fewer live seats than the one before
    previous = live
    for index, (amount, eligible, winners, shared) in enumerate(pots):
        assert amount > 0
        assert eligible and eligible & ~live == 0
        assert winners and winners & ~eligible == 0
        if index:
            assert eligible & ~previous == 0 and eligible != previous
        previous = eligible
        if shared:  # R8.3
            assert winners == eligible and eligible & ~sharers == 0 and eligible.bit_count() >= 2
        elif winners.bit_count() > 1:  # a tie of equal strengths
            best = {strengths[s] for s in range(n) if winners >> s & 1}
            assert len(best) == 1
            assert all(strengths[s] < min(best) for s in range(n) if eligible >> s & 1 and not winners >> s & 1)
    # every live seat with chips in is eligible for the main pot
    if pots:
        in_main = sum(1 << s for s in range(n) if live >> s & 1 and contributions[s] - returned[s] > 0)
        assert in_main & ~pots[0][1] == 0


@settings(max_examples=200, deadline=None)
@given(amount=st.integers(1, 1000), winners=st.integers(1, 2**8 - 1), first=st.integers(0, 7))
def test_odd_chips_in_seat_order(kernels: ModuleType, amount: int, winners: int, first: int) -> None:
    """R9.4 on a shared pot: equal shares, odd chips to the first sharers from `first` on."""
    n = 8
    contributions = [0] * n
    seats = [s for s in range(n) if winners >> s & 1]
    for s in seats:
        contributions[s] = amount
    if len(seats) == 1:
        contributions[(seats[0] + 1) % n] = amount  # keep the pot contested
    dead = amount  # makes the odd chips vary
    _, _pots, winnings = kernels.split_pots(contributions, [0] * n, winners, winners, first, dead)
    total = sum(contributions) + dead
    share, odd = divmod(total, len(seats))
    order = [s for s in list(range(first, n)) + list(range(first)) if winners >> s & 1]
    expected = [0] * n
    for s in seats:
        expected[s] = share
    for s in order[:odd]:
        expected[s] += 1
    assert winnings == expected


# ---------------------------------------------------------------------------------------
# errors

GOOD = ([10, 20, 30], [1, 2, 3], 0b111, 0b011, 0, 0)


def with_arg(index: int, value: object) -> tuple[Any, ...]:
    args = list(GOOD)
    args[index] = value
    return tuple(args)


ERRORS = [
    (with_arg(0, [10]), ValueError, "contributions must have 2 to 32 entries, got 1"),
    (with_arg(0, [0] * 33), ValueError, "contributions must have 2 to 32 entries, got 33"),
    (with_arg(0, 10), TypeError, "contributions must be a sequence, not int"),
    (with_arg(0, [10, -1, 30]), ValueError, "contribution of seat 1 is negative: -1"),
    (with_arg(0, [10, 20, -(2**80)]), ValueError, f"contribution of seat 2 is negative: {-(2**80)}"),
    (with_arg(0, [10, 2**53, 30]), ValueError, f"contribution of seat 1 is too large: {2**53} (limit 2**53 - 1)"),
    (with_arg(0, [10, 2**80, 30]), ValueError, f"contribution of seat 1 is too large: {2**80} (limit 2**53 - 1)"),
    (with_arg(0, [10, 20.0, 30]), TypeError, "contribution of seat 1 must be an int, not float"),
    (with_arg(0, [True, 20, 30]), TypeError, "contribution of seat 0 must be an int, not bool"),
    (with_arg(1, [1, 2]), ValueError, "strengths must have 3 entries (one per seat), got 2"),
    (with_arg(1, None), TypeError, "strengths must be a sequence, not NoneType"),
    (with_arg(1, [1, None, 3]), TypeError, "strength of seat 1 must be an int, not NoneType"),
    (with_arg(1, [1, 2, False]), TypeError, "strength of seat 2 must be an int, not bool"),
    (with_arg(2, 0), ValueError, "live mask 0x0 names no seat"),
    (with_arg(2, 0b1000), ValueError, "live mask 0x8 names seats outside 0..2"),
    (with_arg(2, -1), ValueError, "live mask -0x1 names seats outside 0..2"),
    (with_arg(2, 7.0), TypeError, "live must be an int bitmask, not float"),
    (with_arg(2, True), TypeError, "live must be an int bitmask, not bool"),
    (with_arg(3, 0b1000), ValueError, "sharers mask 0x8 is not within live mask 0x7"),
    (with_arg(3, -1), ValueError, "sharers mask -0x1 is not within live mask 0x7"),
    (with_arg(3, None), TypeError, "sharers must be an int bitmask, not NoneType"),
    (with_arg(4, 3), ValueError, "first seat 3 is outside 0..2"),
    (with_arg(4, -1), ValueError, "first seat -1 is outside 0..2"),
    (with_arg(4, "0"), TypeError, "first must be an int, not str"),
    (with_arg(5, -3), ValueError, "dead is negative: -3"),
    (with_arg(5, 2**60), ValueError, f"dead is too large: {2**60} (limit 2**53 - 1)"),
    (with_arg(5, 1.5), TypeError, "dead must be an int, not float"),
]


@pytest.mark.parametrize(("args", "error", "message"), ERRORS, ids=[message for _, _, message in ERRORS])
def test_errors(kernels: ModuleType, args: tuple[Any, ...], error: type, message: str) -> None:
    with pytest.raises(error) as info:
        kernels.split_pots(*args)
    assert str(info.value) == message


def test_strengths_of_folded_seats_are_not_read(kernels: ModuleType) -> None:
    assert kernels.split_pots([10, 20, 30], [1, object(), 3], 0b101, 0, 0) == (
        [0, 0, 10],
        [(30, 0b101, 0b100, False), (20, 0b100, 0b100, False)],
        [0, 0, 50],
    )


junk = st.one_of(
    st.integers(-(2**70), 2**70), st.integers(-3, 40), st.booleans(), st.none(), st.floats(allow_nan=False)
)


@settings(max_examples=400, deadline=None)
@given(
    contributions=st.lists(st.integers(-2, 200) | junk, max_size=34) | junk,
    strengths=st.lists(st.integers(0, 5) | junk, max_size=34) | junk,
    live=st.integers(-2, 2**10) | junk,
    sharers=st.integers(-2, 2**10) | junk,
    first=st.integers(-1, 10) | junk,
    dead=st.integers(-2, 50) | junk,
)
def test_parity_on_any_input(
    core: ModuleType,
    pure: ModuleType,
    outcome: Outcome,
    contributions: Any,
    strengths: Any,
    live: Any,
    sharers: Any,
    first: Any,
    dead: Any,
) -> None:
    args = (contributions, strengths, live, sharers, first, dead)
    assert outcome(core.split_pots, *args) == outcome(pure.split_pots, *args)
