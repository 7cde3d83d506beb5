"""32-Card Draw for PokerKit, shared by the benchmarks and the differential test that compare against it.

PokerKit has no 32-card game: this module gives it the 7-to-ace deck, the ranking of R2 (flush
over full house, A-7-8-9-T the lowest straight; PokerKit does not break ties by suit),
``create_state`` for a hand of 32-card draw in any of the three structures of R3.4 with given
blinds and stacks (one draw of 0-4 cards between two betting rounds), and ``new_state(players)``,
the benchmarks' no-limit hand with blinds 1/2 (and 4 with 4-5 players) and stacks of 200.  The
benchmark scripts run it in a separate interpreter that has pokerkit installed (``--peers
PYTHON``); tests/test_pokerkit_differential.py imports it when pokerkit is installed.
"""

from collections import Counter
from collections.abc import Iterable, Sequence

from pokerkit import Automation, BettingStructure, Card, Opening, Rank, State, Street, Suit
from pokerkit.hands import CombinationHand
from pokerkit.lookups import Label, Lookup

RANKS_32 = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
DECK_32 = tuple(Card(r, s) for r in RANKS_32 for s in Suit if s != Suit.UNKNOWN)


class ThirtyTwoLookup(Lookup):
    rank_order = RANKS_32

    def _add_entries(self):
        self._add_multisets(Counter({1: 5}), (False,), Label.HIGH_CARD)
        self._add_multisets(Counter({2: 1, 1: 3}), (False,), Label.ONE_PAIR)
        self._add_multisets(Counter({2: 2, 1: 1}), (False,), Label.TWO_PAIR)
        self._add_multisets(Counter({3: 1, 1: 2}), (False,), Label.THREE_OF_A_KIND)
        self._add_straights(5, (False,), Label.STRAIGHT)
        self._add_multisets(Counter({3: 1, 2: 1}), (False,), Label.FULL_HOUSE)
        self._add_multisets(Counter({1: 5}), (True,), Label.FLUSH)
        self._add_multisets(Counter({4: 1, 1: 1}), (False,), Label.FOUR_OF_A_KIND)
        self._add_straights(5, (True,), Label.STRAIGHT_FLUSH)


class ThirtyTwoHand(CombinationHand):
    lookup = ThirtyTwoLookup()
    low = False
    card_count = 5


AUTOMATIONS = tuple(a for a in Automation if a is not Automation.RUNOUT_COUNT_SELECTION)
STRUCTURES = {
    "no-limit": BettingStructure.NO_LIMIT,
    "pot-limit": BettingStructure.POT_LIMIT,
    "fixed-limit": BettingStructure.FIXED_LIMIT,
}


def create_state(players: int, blinds: Sequence[int], stacks: Sequence[int] | int, *, structure: str = "no-limit",
                 min_bets: tuple[int, int] | None = None,
                 max_raise_counts: tuple[int | None, int | None] = (None, None),
                 automations: Iterable[Automation] = AUTOMATIONS, burn: bool = False) -> State:
    """A new hand of 32-card draw for ``players`` players.

    :param blinds: PokerKit's raw blinds by player index, the missing ones 0 (player 0 is left of
        the button; heads-up PokerKit has player 0 post ``blinds[1]`` and player 1, the button,
        ``blinds[0]``).
    :param stacks: starting stacks by player index, or one stack for all.
    :param structure: ``"no-limit"``, ``"pot-limit"`` or ``"fixed-limit"``.
    :param min_bets: the smallest bet or raise of each round; default L and L (2·L fixed-limit),
        L the largest blind, as R7.2.
    :param max_raise_counts: PokerKit's most completions, bets or raises per round (``None``: no
        limit); the blinds do not count.
    :param automations: what PokerKit does by itself; leave out ``Automation.HOLE_DEALING`` to
        deal given cards with ``deal_hole``.
    :param burn: burn a card before the draw (pokerdraw32 burns none).
    """
    largest = max(blinds)
    if min_bets is None:
        min_bets = (largest, 2 * largest if structure == "fixed-limit" else largest)
    streets = (Street(False, (False,) * 5, 0, False, Opening.POSITION, min_bets[0], max_raise_counts[0]),
               Street(burn, (), 0, True, Opening.POSITION, min_bets[1], max_raise_counts[1]))
    return State(tuple(automations), DECK_32, (ThirtyTwoHand,), streets, STRUCTURES[structure], True, 0,
                 tuple(blinds), 0, stacks, players)


def new_state(players: int) -> State:
    """A new hand: no-limit, blinds 1/2 (1/2/4 with 4-5 players), stacks 200, dealt automatically
    (a card burnt before the draw, the minimum bet 2 in both rounds)."""
    blinds = (1, 2, 4) if players >= 4 else (1, 2)
    return create_state(players, blinds, 200, min_bets=(2, 2), burn=True)
