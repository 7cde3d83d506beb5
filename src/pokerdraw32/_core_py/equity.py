"""Kernel 6 of the pure kernels: Monte Carlo equity against opponents who draw by a policy
(R6.1, R6.2, R2, R9.4, R11).

:func:`equity_trials` plays random draws and showdowns of one hand; :func:`rule_discard` is the
``"rule"`` draw policy. The generator's steps are inlined on a state held in locals (as
:meth:`Rng.shuffle` does). Twin of ``src/_core_equity.pxi``. Re-exported by
:mod:`pokerdraw32._core_py`, which the rest imports.
"""

from __future__ import annotations

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from .checks import _SPADES, _U64, _check_deck_mask, _is_int, _plain
from .draws import _draw_args
from .evaluate import _by_mask
from .rng import Rng, _splitmix64

_STRAIGHT_RANK_SETS = (0xF8, 0x7C, 0x3E, 0x1F, 0x8F)  # rank bits of the five straights (R2.2)
# hand mask -> rule_discard, filled as hands are met. No lock: an entry is the same whichever
# thread computes it, and one dict get or set is atomic (with or without the GIL).
_RULE_DISCARDS: dict[int, int] = {}
_MAX_TRIALS = 1 << 40


def _rule_discard(mask: int) -> int:
    """:func:`rule_discard` of a valid 5-card mask (no checks), computed once per hand."""
    d = _RULE_DISCARDS.get(mask)
    if d is not None:
        return d
    category = _by_mask()[mask] >> 22
    d = 0
    if category >= 4:  # straight or better: stand pat
        pass
    elif category >= 1:  # pairs, trips: throw the unmatched cards
        for shift in range(0, 32, 4):
            nibble = mask >> shift & 15
            if nibble and not nibble & (nibble - 1):
                d |= nibble << shift
    else:
        for suit in range(4):
            same = mask & (_SPADES << suit)
            if same.bit_count() == 4:  # four to a flush: throw the odd card
                d = mask & ~same
                break
        else:
            rank_bits = 0
            for rank in range(8):
                if mask >> (rank << 2) & 15:
                    rank_bits |= 1 << rank
            for rank in range(7, -1, -1):  # highest card first: four to a straight
                if rank_bits >> rank & 1:
                    rest = rank_bits & ~(1 << rank)
                    if any(not rest & ~ranks for ranks in _STRAIGHT_RANK_SETS):
                        d = mask & (15 << (rank << 2))
                        break
            else:  # keep the highest card, draw four
                d = mask & ~(1 << (mask.bit_length() - 1))
    _RULE_DISCARDS[mask] = d
    return d


def rule_discard(hand: int) -> int:
    """The discard of the ``"rule"`` draw policy for a 5-card hand (R6.1: 0 to 4 cards).

    The rule is :func:`pokerdraw32.bots.choose_discards` applied to the cards highest
    first (so that of two straight draws the one keeping the lower four cards, the open
    one, is taken):

    * straight, flush, full house, four of a kind, straight flush: stand pat;
    * three of a kind, two pair, one pair: throw every card whose rank is not matched;
    * high card with four cards of one suit: throw the fifth card;
    * high card with four cards inside one straight's ranks (R2.2, A-7-8-9-T included):
      throw the fifth card, trying the cards highest first;
    * otherwise keep the highest card and throw the other four.

    :param hand: 32-bit card mask with exactly 5 bits set.
    :returns: the mask of the cards thrown away, within ``hand`` (0 is standing pat).
    :raises TypeError: ``hand`` is not an int (bools are refused).
    :raises ValueError: ``hand`` has bits outside 0..31 or does not have 5 bits set.

    >>> rule_discard(1 << 31 | 1 << 30 | 1 << 2 | 1 << 4 | 1 << 10)   # Ah Ad 7d 8s 9d: keep the aces
    1044
    >>> rule_discard(1 << 31 | 1 << 27 | 1 << 3 | 1 << 7 | 1 << 10) == 1 << 10   # four hearts: throw 9d
    True
    """
    hand = _check_deck_mask(hand, "hand mask")
    n = hand.bit_count()
    if n != 5:
        raise PokerDraw32ValueError(f"hand mask {hand:#x} has {n} card{'' if n == 1 else 's'}, expected 5")
    return _rule_discard(hand)


def equity_trials(
    rng: Rng,
    trials: int,
    hand: int,
    discard: int,
    excluded: int,
    opponents: int,
    policy: int,
    position: int,
    folded: int = 0,
    reshuffle_folded: bool = False,
    suit_tiebreak: bool = True,
) -> tuple[int, int, int, int, int, int]:
    """Play ``trials`` random draws and showdowns of one hand against ``opponents`` (Monte Carlo).

    The hero holds the 5 cards of ``hand`` and will throw away those of ``discard``. The
    *unseen* cards are the deck minus ``hand`` minus ``excluded`` (dead cards: never dealt,
    never drawn, never reshuffled). Each trial:

    1. takes its own generator ``Rng(rng.next_u64())`` (so trial ``t`` of a run is the same
       whatever the hero discards: common random numbers), and keeps the unseen cards as
       the stub, in ascending code order; "a card from the stub" below is always the card
       at index ``below(n)`` of the ``n`` stub cards, which is then replaced by the last
       one (a uniform draw without replacement, the same as dealing from a shuffled stub,
       R11.1);
    2. deals 5 stub cards to each opponent in turn, then 5 to each of ``folded`` players
       who fold before the draw: their cards are dead, or with ``reshuffle_folded`` go to
       the discard pile (R6.2 option);
    3. the draw (R6.1), the ``opponents + 1`` players in draw order, the hero at index
       ``position`` (0: first, left of the button): a player discards (the hero
       ``discard``; an opponent by ``policy``) and is dealt as many cards one at a time
       from the stub; when the stub is empty the discard pile is "reshuffled": its cards,
       in ascending code order, become the stub (R6.2). A player's discards join the pile
       after the player is served, so nobody receives their own discards;
    4. the showdown (R2; with ``suit_tiebreak`` false, equal ranks tie and split, R9.4).

    Policies: 0 ``pat`` (stand pat), 1 ``rule`` (:func:`rule_discard`), 2 ``random`` (the
    number of cards ``below(5)``, then that many of the hand's cards in ascending code
    order, chosen by a partial Fisher-Yates shuffle: for ``i`` from 0, swap item ``i``
    with item ``i + below(5 - i)``).

    :param rng: an :class:`Rng` of this implementation; advanced by one ``next_u64`` per trial.
    :param trials: number of trials, ``0 <= trials <= 2**40``.
    :param hand: the hero's 32-bit card mask, exactly 5 bits set.
    :param discard: the cards the hero throws away: within ``hand``, 0 to 4 of them.
    :param excluded: mask of dead cards; any cards of the deck (those of ``hand`` change nothing).
    :param opponents: 1 to 4 opponents (R3.1: 2 to 5 players).
    :param policy: the opponents' draw policy, 0, 1 or 2 as above.
    :param position: the hero's index in the draw order, ``0 <= position <= opponents``.
    :param folded: players dealt in who fold before the draw, ``0 <= folded`` and
        ``1 + opponents + folded <= 5`` (R3.1).
    :param reshuffle_folded: R6.2 option: the folded hands join the discard pile.
    :param suit_tiebreak: R2.4; false: hands equal in ranks tie.
    :returns: 6 ints ``counts``: ``counts[0]`` trials lost, ``counts[m]`` (m = 1..5) trials in
        which the hero won a 1/m share of the pot (``counts[1]``: won alone). They sum to
        ``trials``; the hero's equity (mean pot share) is ``sum(counts[m] / m) / trials``.
    :raises TypeError: ``rng`` is not an :class:`Rng`, or another argument is not an int.
    :raises ValueError: an argument is out of range, ``discard`` is not within ``hand`` or
        has 5 cards, or there are too few unseen cards to deal the hands or to complete
        a draw of 4 (of the hero's ``discard`` when ``policy`` is 0) (R6.2).

    >>> hand = 1 << 31 | 1 << 27 | 1 << 23 | 1 << 19 | 1 << 15   # Ah Kh Qh Jh Th: a royal flush
    >>> equity_trials(Rng(1), 1000, hand, 0, 0, 4, 1, 0)
    (0, 1000, 0, 0, 0, 0)
    """
    if reshuffle_folded is not False:   # their truth read first, as the compiled twin's bint arguments
        reshuffle_folded = bool(reshuffle_folded)
    if suit_tiebreak is not True:
        suit_tiebreak = bool(suit_tiebreak)
    if not isinstance(rng, Rng):
        raise PokerDraw32TypeError(f"rng must be an Rng, not {type(rng).__name__}")
    if not _is_int(trials):
        raise PokerDraw32TypeError(f"trials must be an int, not {type(trials).__name__}")
    trials = _plain(trials)
    if trials < 0 or trials > _MAX_TRIALS:
        raise PokerDraw32ValueError(f"trials must be in 0 <= trials <= 2**40, got {trials}")
    _, k, unseen = _draw_args(hand, discard, excluded)
    hand, discard = _plain(hand), _plain(discard)   # checked ints: an int subclass by its value, as compiled
    for name, value in (("opponents", opponents), ("policy", policy), ("position", position), ("folded", folded)):
        if not _is_int(value):
            raise PokerDraw32TypeError(f"{name} must be an int, not {type(value).__name__}")
    opponents, policy, position, folded = _plain(opponents), _plain(policy), _plain(position), _plain(folded)
    if opponents < 1 or opponents > 4:
        raise PokerDraw32ValueError(f"opponents must be 1 to 4 (2 to 5 players, R3.1), got {opponents}")
    if policy < 0 or policy > 2:
        raise PokerDraw32ValueError(f"policy must be 0 (pat), 1 (rule) or 2 (random), got {policy}")
    if position < 0 or position > opponents:
        raise PokerDraw32ValueError(
            f"position must be 0 to {opponents} (the hero's place in the draw order), got {position}"
        )
    if folded < 0 or 1 + opponents + folded > 5:
        raise PokerDraw32ValueError(f"{1 + opponents} players and {folded} folded: 2 to 5 players are dealt in (R3.1)")
    n_unseen = unseen.bit_count()
    dealt = 5 * (opponents + folded)
    if n_unseen < dealt:
        raise PokerDraw32ValueError(f"only {n_unseen} unseen cards, too few to deal {opponents + folded} hands of 5")
    available = n_unseen - dealt + (5 * folded if reshuffle_folded else 0)
    need = k if policy == 0 else 4
    if available < need:
        raise PokerDraw32ValueError(f"only {available} cards for the draw, too few for a draw of {need} (R6.2)")

    table = _by_mask()
    keep = ~0 if suit_tiebreak else ~3
    rule = _rule_discard
    start = [code for code in range(32) if unseen >> code & 1]
    # draw order: -1 is the hero, 0.. the opponents in turn
    drawers = [-1 if seat == position else (seat if seat < position else seat - 1) for seat in range(opponents + 1)]
    counts = [0] * 6
    next_u64 = Rng.next_u64   # the generator's own, as compiled: a subclass's override is not called
    for _ in range(trials):
        s0, s1, s2, s3 = _seeded(next_u64(rng))
        stub = start[:]
        n = len(stub)
        pile = 0
        holdings = [0] * opponents
        for i in range(opponents + folded):
            cards = 0
            for _ in range(5):
                r = 0
                if n > 1:  # below(n), next_u64 inlined (as Rng.shuffle)
                    shift = 64 - (n - 1).bit_length()
                    while True:
                        r = (s1 * 5) & _U64
                        r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
                        t = (s1 << 17) & _U64
                        s2 ^= s0
                        s3 ^= s1
                        s1 ^= s2
                        s0 ^= s3
                        s2 ^= t
                        s3 = ((s3 << 45) & _U64) | (s3 >> 19)
                        if r < n:
                            break
                n -= 1
                cards |= 1 << stub[r]
                stub[r] = stub[n]
            if i < opponents:
                holdings[i] = cards
            elif reshuffle_folded:
                pile |= cards
        hero = hand
        for who in drawers:
            if who < 0:
                held, thrown = hero, discard
            else:
                held = holdings[who]
                if policy == 1:
                    thrown = rule(held)
                elif policy == 0:
                    thrown = 0
                else:
                    thrown, s0, s1, s2, s3 = _random_discard(held, s0, s1, s2, s3)
            if thrown:
                held &= ~thrown
                for _ in range(thrown.bit_count()):
                    if n == 0:  # R6.2: the stub is exhausted; the discard pile becomes the stub
                        stub = [code for code in range(32) if pile >> code & 1]
                        n = len(stub)
                        pile = 0
                    r = 0
                    if n > 1:
                        shift = 64 - (n - 1).bit_length()
                        while True:
                            r = (s1 * 5) & _U64
                            r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
                            t = (s1 << 17) & _U64
                            s2 ^= s0
                            s3 ^= s1
                            s1 ^= s2
                            s0 ^= s3
                            s2 ^= t
                            s3 = ((s3 << 45) & _U64) | (s3 >> 19)
                            if r < n:
                                break
                    n -= 1
                    held |= 1 << stub[r]
                    stub[r] = stub[n]
                pile |= thrown  # the player's discards join the pile only after they are served (R6.2)
            if who < 0:
                hero = held
            else:
                holdings[who] = held
        hero_value = table[hero] & keep
        best = -1
        ways = 0
        for held in holdings:
            value = table[held] & keep
            if value > best:
                best, ways = value, 1
            elif value == best:
                ways += 1
        if hero_value > best:
            counts[1] += 1
        elif hero_value == best:
            counts[ways + 1] += 1
        else:
            counts[0] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]


def _seeded(seed: int) -> tuple[int, int, int, int]:
    """The state of ``Rng(seed)``: the next four SplitMix64 outputs."""
    x, s0 = _splitmix64(seed)
    x, s1 = _splitmix64(x)
    x, s2 = _splitmix64(x)
    x, s3 = _splitmix64(x)
    return s0, s1, s2, s3


def _below_state(n: int, s0: int, s1: int, s2: int, s3: int) -> tuple[int, int, int, int, int]:
    """``below(n)`` (n >= 2) of the generator with state ``s0..s3``: (result, new state)."""
    shift = 64 - (n - 1).bit_length()
    while True:
        r = (s1 * 5) & _U64
        r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
        t = (s1 << 17) & _U64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) & _U64) | (s3 >> 19)
        if r < n:
            return r, s0, s1, s2, s3


def _random_discard(held: int, s0: int, s1: int, s2: int, s3: int) -> tuple[int, int, int, int, int]:
    """The ``random`` policy: ``below(5)`` cards, picked by a partial Fisher-Yates shuffle."""
    size, s0, s1, s2, s3 = _below_state(5, s0, s1, s2, s3)
    cards = [code for code in range(32) if held >> code & 1]
    thrown = 0
    for i in range(size):
        r, s0, s1, s2, s3 = _below_state(5 - i, s0, s1, s2, s3)
        cards[i], cards[i + r] = cards[i + r], cards[i]
        thrown |= 1 << cards[i]
    return thrown, s0, s1, s2, s3
