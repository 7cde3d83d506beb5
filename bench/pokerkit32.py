"""32-Card Draw for PokerKit, shared by the benchmarks that compare against it.

PokerKit has no 32-card game: this module gives it the 7-to-ace deck, the ranking of R2 (flush
over full house, A-7-8-9-T the lowest straight; PokerKit does not break ties by suit) and a
``new_state(players)`` for no-limit 32-card draw with blinds 1/2 (and 4 with 4-5 players),
stacks of 200, one draw of 0-4 cards between two betting rounds.  The benchmark scripts run it
in a separate interpreter that has pokerkit installed (``--peers PYTHON``).
"""

from collections import Counter

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


def new_state(players: int) -> State:
    """A new hand: no-limit, blinds 1/2 (1/2/4 with 4-5 players), stacks 200, dealt automatically."""
    blinds = (1, 2, 4) if players >= 4 else (1, 2)
    return State(AUTOMATIONS, DECK_32, (ThirtyTwoHand,),
                 (Street(False, (False,) * 5, 0, False, Opening.POSITION, 2, None),
                  Street(True, (), 0, True, Opening.POSITION, 2, None)),
                 BettingStructure.NO_LIMIT, True, 0, blinds, 0, 200, players)
