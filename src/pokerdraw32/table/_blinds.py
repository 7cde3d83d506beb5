"""The button and the blinds of a table session: who is dealt in, who posts what (R4.1-R4.3, R10.2-R10.3).

:class:`_TableBlinds` is the part of :class:`~pokerdraw32.table.Table` that plans each hand before it
is dealt (changing nothing): who is dealt in (players waiting for the largest blind, R10.2), where
the button moves (R4.1), which seats post the small, big and over blind (R4.2, R4.3), the entry bets
(R10.2), the missed blinds charged live and dead on a player's return, and the blinds that players
sitting out or busted miss at this hand (R10.3, R10.4).
"""

from __future__ import annotations

from ..errors import TableError
from ..rules import Rules
from ._base import _TableBase

_BLIND_NAMES = ("small", "big", "over")


def _blind_amounts(rules: Rules) -> dict[str, int]:
    """Each blind's amount by name, as :attr:`SeatState.missed` records them (R3.2, R10.3)."""
    return {"small": rules.sb, "big": rules.big_blind, "over": rules.over_blind_amount}


class _TableBlinds(_TableBase):
    """The button's and the blinds' part of a :class:`~pokerdraw32.table.Table` (R4.1-R4.3, R10.2, R10.3)."""

    def _plan(self) -> tuple[list[int], int, dict[int, tuple[int, int]], dict[int, list[str]]]:
        """Who is dealt in, the button, the posts and the blinds missed (changes nothing)."""
        seats = self._seats
        active = [n for n, s in sorted(seats.items()) if not s.sitting_out and not s.waiting and s.stack > 0
                  and not s.leaving]
        waiting = [n for n, s in sorted(seats.items()) if not s.sitting_out and s.waiting and s.stack > 0
                   and not s.leaving]
        if len(active) + len(waiting) < 2:
            raise TableError(f"a hand needs at least 2 players with chips who are not sitting out; "
                             f"{len(active) + len(waiting)} can play", rule="R3.1")
        # R4.1: the button moves to the next player dealt in; a player waiting for the largest blind
        # (R10.2) is dealt in when it falls on their seat, and never takes the button on entering
        button = self._next_button(active) if active else None
        dealt = list(active)
        for w in waiting:
            group = sorted({*active, w})
            if button is not None and len(group) >= 2 and self._blind_seats(group, button)[-1] == w:
                dealt.append(w)
        if len(dealt) < 2:
            dealt = [*active, *waiting]                    # the game must not stall
            button = self._next_button(sorted(dealt))
        dealt.sort()
        assert button is not None
        blinds = self._blind_seats(dealt, button)
        amounts = dict(zip(blinds, self.rules.blinds(len(dealt)), strict=False))
        L = self.rules.largest_blind(len(dealt))
        posts: dict[int, tuple[int, int]] = {}
        for seat in dealt:
            s = seats[seat]
            due = amounts.get(seat, 0)
            if s.entry_due and due < L:
                posts[seat] = (L - due, 0)                                      # R10.2 entry bet
            elif s.missed and due < L:
                largest = max(s.missed.values())
                live = min(max(self.rules.big_blind, largest), L)
                dead = sum(s.missed.values()) - largest
                posts[seat] = (max(0, live - due), dead)                         # R10.3
        missed: dict[int, list[str]] = {}
        for n, s in sorted(seats.items()):
            if n in dealt or s.waiting or s.leaving:
                continue
            if s.sitting_out or s.stack == 0:
                group = sorted({*dealt, n})
                if len(group) > 5:
                    continue
                where = self._blind_seats(group, button)
                if n in where:
                    missed[n] = [_BLIND_NAMES[where.index(n)]]
        return dealt, button, posts, missed

    def _next_button(self, dealt: list[int]) -> int:
        """R4.1: clockwise from the last button to the next seat dealt in (the first hand: the
        lowest seat dealt in)."""
        if self.button is None:
            return dealt[0]
        for i in range(1, self.seat_count + 1):
            seat = (self.button + i) % self.seat_count
            if seat in dealt:
                return seat
        return dealt[0]  # pragma: no cover - dealt is never empty

    def _blind_seats(self, dealt: list[int], button: int) -> list[int]:
        """Table seats posting the small, big (and over) blind among ``dealt`` (R4.2, R4.3)."""
        order = sorted(dealt, key=lambda s: (s - button - 1) % self.seat_count)    # left of the button first
        if len(dealt) == 2:
            other = order[0] if order[0] != button else order[1]
            return [button, other] if self.rules.heads_up_button_posts_small else [other, button]
        return order[: len(self.rules.blinds(len(dealt)))]
