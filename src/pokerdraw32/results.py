"""What a hand reports: its pots and result, and the deal it waits for (R9, R5.1, R6.1)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DealRequest", "HandResult", "Pot"]


@dataclass(frozen=True)
class Pot:
    """One pot of a finished hand (R9.1).

    :ivar amount: chips in the pot.
    :ivar eligible: seats that could win it (not folded, reached its level).
    :ivar winners: seats that received a share.
    :ivar shared: True when shared by Parole agreement (R8.3) instead of a showdown.
    """

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shared: bool

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible), "winners": list(self.winners),
                "shared": self.shared}


@dataclass(frozen=True)
class DealRequest:
    """A deal the dealer must make next (only pending with ``auto_deal=False``).

    :ivar seat: who receives the cards.
    :ivar count: how many cards.
    :ivar kind: ``"hole"`` (R5.1) or ``"draw"`` (replacements, R6.1).
    """

    seat: int
    count: int
    kind: str


@dataclass(frozen=True)
class HandResult:
    """Outcome of a finished hand.

    :ivar stacks: each seat's stack after the hand, in chips.
    :ivar net: each seat's gain (negative: loss) in chips; sums to 0 (R9.5).
    :ivar pots: the pots, main pot first.
    :ivar shown: cards shown at showdown, by seat (mucked and unshown hands are absent).
    :ivar showdown: True when at least one pot was decided by comparing hands.
    """

    stacks: tuple[int, ...]
    net: tuple[int, ...]
    pots: tuple[Pot, ...]
    shown: dict[int, tuple[Card, ...]]
    showdown: bool
