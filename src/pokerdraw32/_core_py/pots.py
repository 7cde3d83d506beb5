"""Kernel 3 of the pure kernels: pots (R8.3, R9.1, R9.2, R9.4).

:func:`split_pots` returns uncalled chips, builds the main and side pots and awards them.
Twin of ``src/_core_pots.pxi``. Re-exported by :mod:`pokerdraw32._core_py`, which the rest imports.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from .checks import _check_amount, _is_int, _plain, _seat_mask, _tuple_of


def split_pots(
    contributions: Iterable[int],
    strengths: Iterable[Any],
    live: int,
    sharers: int,
    first: int,
    dead: int = 0,
) -> tuple[list[int], list[tuple[int, int, int, bool]], list[int]]:
    """Return uncalled chips, build the main and side pots, and award them.

    1. R9.2: the seat with the single largest contribution gets back what no other seat
       matched (largest minus second largest, over all seats, folded ones included).
    2. R9.1: the pot levels are the distinct contributions (after step 1) of live seats
       above 0, ascending. The pot of level ``L`` (previous level ``P``, first ``P = 0``)
       holds ``min(c, L) - min(c, P)`` from every seat and is open to the live seats that
       put in ``L`` or more. Chips of folded seats above the top level go to the top pot,
       ``dead`` chips (R10.3) to the main pot. Every pot is therefore non-empty and each
       is open to fewer seats than the one before. If no live seat put in a chip, there is
       one pot of everything, open to all live seats (none if it would be empty).
    3. Each pot is awarded: to its only eligible seat; else shared by its eligible seats
       if all of them are ``sharers`` (Parole, R8.3); else to the best strength among them.
       Equal best strengths (possible only with R2.4 off) share. A share gives every sharer
       the same whole number of chips and the odd chips one at a time, in seat order from
       ``first`` (R9.4).

    Chips are conserved: ``sum(returned) + sum(winnings) == sum(contributions) + dead``.
    The arguments are not modified.

    :param contributions: chips each seat put in during the hand, seat ``i`` at index
        ``i``; 2 to 32 ints, each ``0 <= c <= 2**53 - 1`` (0 for seats not in the hand).
    :param strengths: one entry per seat; for live seats an int (an
        :func:`evaluate_mask` value, larger wins), any value for the other seats.
    :param live: bitmask of the seats still in the hand (not folded); non-empty, within
        ``range(len(contributions))``.
    :param sharers: bitmask of the live seats that chose to split (R8.3); 0 for none.
    :param first: the seat that receives the first odd chip (the first seat left of the
        button), ``0 <= first < len(contributions)``; then ``first + 1`` and so on, mod n.
    :param dead: dead chips (R10.3) for the main pot, ``0 <= dead <= 2**53 - 1``.
    :returns: ``(returned, pots, winnings)``: ``returned[i]`` is the uncalled chips given
        back to seat ``i``; ``pots`` lists ``(amount, eligible_mask, winners_mask,
        shared)``, main pot first, with ``shared`` true for a pot shared by agreement
        (R8.3); ``winnings[i]`` is what seat ``i`` receives from the pots.
    :raises TypeError: an argument or entry is not an int (bools are refused), or a
        sequence argument is not iterable.
    :raises ValueError: a wrong number of entries, a negative or too large amount, an
        empty or out-of-range ``live``, ``sharers`` not within ``live``, or ``first`` out
        of range.

    Seat 2 is all-in for 50 and holds the best hand; seats 0 and 1 put in 100 each
    and seat 0 beats seat 1 for the side pot:

    >>> split_pots([100, 100, 50], [300, 200, 500], 0b111, 0, 0)
    ([0, 0, 0], [(150, 7, 4, False), (100, 3, 1, False)], [100, 0, 150])
    """
    contribs = _tuple_of(contributions, "contributions")
    n = len(contribs)
    if n < 2 or n > 32:
        raise PokerDraw32ValueError(f"contributions must have 2 to 32 entries, got {n}")
    contribs = tuple(_check_amount(amount, f"contribution of seat {seat}") for seat, amount in enumerate(contribs))
    power = _tuple_of(strengths, "strengths")
    if len(power) != n:
        raise PokerDraw32ValueError(f"strengths must have {n} entries (one per seat), got {len(power)}")
    live = _seat_mask(live, "live")
    if live == 0:
        raise PokerDraw32ValueError("live mask 0x0 names no seat")
    if live < 0 or live >> n:
        raise PokerDraw32ValueError(f"live mask {live:#x} names seats outside 0..{n - 1}")
    for seat in range(n):
        if live >> seat & 1 and not _is_int(power[seat]):
            raise PokerDraw32TypeError(f"strength of seat {seat} must be an int, not {type(power[seat]).__name__}")
    power = tuple(_plain(power[seat]) if live >> seat & 1 else power[seat] for seat in range(n))
    sharers = _seat_mask(sharers, "sharers")
    if sharers & ~live:
        raise PokerDraw32ValueError(f"sharers mask {sharers:#x} is not within live mask {live:#x}")
    if not _is_int(first):
        raise PokerDraw32TypeError(f"first must be an int, not {type(first).__name__}")
    first = _plain(first)
    if first < 0 or first >= n:
        raise PokerDraw32ValueError(f"first seat {first} is outside 0..{n - 1}")
    dead = _check_amount(dead, "dead")

    # R9.2: the uncalled part of the largest contribution goes back.
    chips = list(contribs)
    returned = [0] * n
    top = max(range(n), key=chips.__getitem__)
    second = max(chips[seat] for seat in range(n) if seat != top)
    if chips[top] > second:
        returned[top] = chips[top] - second
        chips[top] = second

    # R9.1: one pot per distinct live contribution.
    levels = sorted({chips[seat] for seat in range(n) if live >> seat & 1 and chips[seat] > 0})
    pots: list[list[int]] = []
    if not levels:
        total = sum(chips) + dead
        if total:
            pots.append([total, live])
    else:
        below = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, below) for c in chips)
            eligible = 0
            for seat in range(n):
                if live >> seat & 1 and chips[seat] >= level:
                    eligible |= 1 << seat
            pots.append([amount, eligible])
            below = level
        pots[-1][0] += sum(c - below for c in chips if c > below)
        pots[0][0] += dead

    # R8.3, R9.4: award each pot.
    winnings = [0] * n
    result: list[tuple[int, int, int, bool]] = []
    for amount, eligible in pots:
        shared = False
        if eligible & (eligible - 1) == 0:
            winners = eligible
        elif eligible & ~sharers == 0:
            winners, shared = eligible, True
        else:
            best = None
            winners = 0
            for seat in range(n):
                if eligible >> seat & 1:
                    strength = power[seat]
                    if best is None or strength > best:
                        best, winners = strength, 1 << seat
                    elif strength == best:
                        winners |= 1 << seat
        share, odd = divmod(amount, winners.bit_count())
        for seat in range(n):
            if winners >> seat & 1:
                winnings[seat] += share
        seat = first
        while odd:
            if winners >> seat & 1:
                winnings[seat] += 1
                odd -= 1
            seat = seat + 1 if seat + 1 < n else 0
        result.append((amount, eligible, winners, shared))
    return returned, result, winnings
