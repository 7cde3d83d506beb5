"""The built-in policies and whole simulated sessions, in compiled code when extensions are on.

Written in Cython's pure-Python mode, as :mod:`pokerdraw32._handcore.state`: ``_handcore/play.py`` with the
declarations of ``_handcore/play.pxd``, compiled by setup.py as ``pokerdraw32._handcore.play_c``, or this very
file as plain Python; :mod:`pokerdraw32._kernels` picks one, together with the hand's core.

One statement of each policy, used by both doors:

* :class:`pokerdraw32.bots.RuleBot` and :class:`~pokerdraw32.bots.RandomBot` decide a
  :class:`~pokerdraw32.bots.SeatView` by calling :func:`rule_action` / :func:`random_action`
  with what the view shows (so a user who seats them beside their own bots gets the same play);
* :class:`Session` plays whole hands with them, reading the same values from the hand's C
  fields, with no Python object per decision: :func:`pokerdraw32.simulate.simulate` uses it
  when every seat is a built-in bot.

A hand in order is *packed*: card ``i`` of the seat's hole cards in bits ``5i .. 5i+4``.  A
decision is packed too: ``code | amount << 8`` (action codes of :mod:`pokerdraw32._handcore.state`; for a
discard, the amount is the card word the hand's core takes: the number of cards in bits 0-2, then
the cards in order, 6 bits each).
"""

if __name__ == "pokerdraw32._handcore.play_c":   # compiled (setup.py); see _handcore/state.py
    import cython
else:
    from . import cython_shim as cython

from _thread import allocate_lock
from array import array

from ..errors import MAX_CHIPS, PokerDraw32TypeError, PokerDraw32ValueError, TableError, integer

if not cython.compiled:   # compiled, _handcore/play.pxd cimports value_of and Rng from _core
    from .._core_py import evaluate_mask

if not cython.compiled:   # compiled, these are C enums of _handcore/codes.pxd (same values)
    from .codes import (  # and bit(card): 1 << card as a 64-bit integer
        A_BET,
        A_CALL,
        A_CHECK,
        A_DECLINE,
        A_DISCARD,
        A_FOLD,
        A_RAISE,
        A_SPLIT,
        PH_COMPLETE,
        PH_DRAW,
        PH_FIRST,
        bit,
    )
    from .state import HandCore

CHIP_LIMIT = MAX_CHIPS
"""The engine's largest chip amount (:data:`pokerdraw32.errors.MAX_CHIPS`), as a C integer when compiled."""

if not cython.compiled:   # compiled, C enums of _handcore/play.pxd (same values)
    RULE = 0     # policy code of the rule-based bot (pokerdraw32.bots.RuleBot)
    RANDOM = 1   # policy code of the random bot (pokerdraw32.bots.RandomBot)

_SMALL = 16777216
"""2**24: results below it in size are added up in C by a session's tally (2**38 hands of them
cannot overflow 64 bits, squares included); larger ones as Python ints."""

_SPILL = 4611686018427387904
"""2**62: a session's C sum of squares moves to Python ints when it reaches it."""

_U32_RANGE = 4294967296
"""2**32, the largest ``n`` of ``Rng.below`` (a C integer when compiled)."""

_STRAIGHT_RANKS = (0x8F, 0x1F, 0x3E, 0x7C, 0xF8)
"""Rank-index masks of the five straights (R2.2: A-7-8-9-T, then 7-J .. T-A)."""

# RandomBot picks among the legal kinds sorted by their value's text (bet, call, check, decline,
# discard, fold, raise, split): action codes in that order.
_BY_NAME = (A_BET, A_CALL, A_CHECK, A_DECLINE, A_DISCARD, A_FOLD, A_RAISE, A_SPLIT)


# -- the generator and the evaluator, from C when compiled ----------------------------------------

def _value(mask):
    """The packed value of a 5-card mask (R2; suit tie-break on)."""
    if cython.compiled:
        return value_of(mask)  # noqa: F821 -- cimported from _core in _handcore/play.pxd
    return evaluate_mask(mask)


def below(rng, n):
    """``rng.below(n)`` for ``1 <= n <= 2**32`` (``n == 1``: 0, nothing drawn).

    :raises PokerDraw32ValueError: ``n`` out of range, or a generator (a subclass's ``below``) gave a
        number outside ``[0, n)``."""
    if n == 1:
        return 0
    if not 1 <= n <= 4294967296:
        raise PokerDraw32ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
    if cython.compiled and type(rng) is Rng:  # noqa: F821 -- Rng: cimported from _core in _handcore/play.pxd
        return cython.cast(Rng, rng)._below(n)  # noqa: F821
    r = rng.below(n)
    if type(r) is not int or not 0 <= r < n:
        raise PokerDraw32ValueError(f"the generator's below({n}) gave {r!r}, not an int in [0, {n})")
    return r


def uniform(rng, n):
    """Unbiased integer in ``[0, n)`` for any ``n >= 1`` (``Rng.below`` stops at 2**32).

    :raises PokerDraw32ValueError: ``n < 1``."""
    if n < 1:
        raise PokerDraw32ValueError(f"uniform() needs n >= 1, got {n}")
    return _uniform(_gen(rng), rng, n)


def _gen(rng):
    """Compiled: the state of ``rng`` when it is exactly an Rng (drawn from in C, without the GIL),
    else NULL (a subclass may draw otherwise: its methods are called).  Plain Python: None."""
    if cython.compiled:
        return rng_state(rng)  # noqa: F821 -- cimported from _core in _handcore/play.pxd
    return None


def _draw(g, rng, n):
    """:func:`below` of ``rng`` (``1 <= n <= 2**32``), from its state ``g`` when it has one (see :func:`_gen`)."""
    if cython.compiled and g != cython.NULL:
        return 0 if n == 1 else rng_below(g, n)  # noqa: F821 -- cimported from _core in _handcore/play.pxd
    with cython.gil:
        return below(rng, n)


def _uniform(g, rng, n):
    """:func:`uniform` of ``rng``, from its state ``g`` when it has one (see :func:`_gen`)."""
    if n <= _U32_RANGE:
        return _draw(g, rng, n)
    bits = 0
    while (n - 1) >> bits:
        bits += 1
    while True:
        if cython.compiled and g != cython.NULL:
            r = rng_next(g) >> (64 - bits)  # noqa: F821 -- cimported from _core in _handcore/play.pxd
        else:
            with cython.gil:
                r = _top_bits(rng, bits)
        if r < n:
            return r


def _top_bits(rng, bits):
    """The top ``bits`` bits of ``rng.next_u64()``, checked (with the GIL; apart from
    :func:`_uniform`, so that the nogil function holds no Python object: Cython would take the GIL
    to release it on every call)."""
    word = rng.next_u64()
    if type(word) is not int or not 0 <= word < 18446744073709551616:
        raise PokerDraw32ValueError(f"the generator's next_u64() gave {word!r}, not a 64-bit int")
    return word >> (64 - bits)


# -- the policies --------------------------------------------------------------------------------

def card_mask(packed):
    """The card mask of a packed 5-card hand."""
    mask = 0
    for i in range(5):
        mask |= bit(packed >> 5 * i & 31)
    return mask


def rule_discards(packed):
    """The mask of the cards :func:`pokerdraw32.bots.choose_discards` throws from a packed 5-card
    hand (R6.1: 0 to 4 cards); the order of the cards decides between two straight draws."""
    mask = card_mask(packed)
    cat = _value(mask) >> 22
    if cat >= 4:                                   # straight or better: stand pat
        return 0
    if cat >= 1:                                   # pairs, trips: throw every unmatched card
        out = 0
        for i in range(5):
            c = packed >> 5 * i & 31
            suits = mask >> (c & 28) & 15            # the card's rank, in every suit
            if suits & (suits - 1) == 0:
                out |= bit(c)
        return out
    for suit in range(4):                          # four to a flush: throw the fifth card
        count = 0
        for i in range(5):
            if (packed >> 5 * i & 3) == suit:
                count += 1
        if count == 4:
            out = 0
            for i in range(5):
                c = packed >> 5 * i & 31
                if (c & 3) != suit:
                    out |= bit(c)
            return out
    ranks = 0
    for i in range(5):
        ranks |= 1 << (packed >> 5 * i + 2 & 7)
    for i in range(5):                             # four to a straight, in the hand's order
        c = packed >> 5 * i & 31
        rest = ranks & ~(1 << (c >> 2))
        for s in _STRAIGHT_RANKS:
            if rest & ~s == 0:
                return bit(c)
    best = 0
    for i in range(5):
        best = max(best, packed >> 5 * i & 31)
    return mask & ~bit(best)                     # keep the highest card, draw four


def _in_order(packed, discards):
    """A discard decision: the cards of mask ``discards`` in the hand's order."""
    k = 0
    cards = 0
    for i in range(5):
        c = packed >> 5 * i & 31
        if discards >> c & 1:
            cards |= c << (3 + 6 * k)
            k += 1
    return A_DISCARD | (k | cards) << 8


def rule_action(rng, packed, phase, kinds, bet, call, lo, hi, pot):
    """The rule-based bot's decision (see :class:`pokerdraw32.bots.RuleBot`), packed.

    :param rng: the bot's generator (one ``below(100)`` per betting decision, none in the draw).
    :param packed: the seat's five cards, in order.  :param phase: a phase code (PH_*).
    :param kinds: the legal action kinds, ``1 << code`` each.  :param bet: the seat's bet in the
        round; ``call``: chips to call; ``lo``/``hi``: the bet or raise bounds (with BET or RAISE in
        ``kinds``); ``pot``: chips in the pot, bets included.
    :raises PokerDraw32ValueError: a chip amount is out of range (R3.2).
    """
    if phase != PH_DRAW:
        _check_chips(bet, call, lo, hi, pot)
    return _rule(_gen(rng), rng, packed, phase, kinds, bet, call, lo, hi, pot)


def _rule(g, rng, packed, phase, kinds, bet, call, lo, hi, pot):
    """:func:`rule_action` (its amounts checked) drawing from state ``g`` (see :func:`_gen`)."""
    fixed = _rule_fixed(packed, phase, kinds)
    if fixed >= 0:
        return fixed
    return _rule_rolled(_draw(g, rng, 100), packed, phase, kinds, bet, call, lo, hi, pot)


def _rule_fixed(packed, phase, kinds):
    """The rule-based bot's decision where it draws no roll (the draw, an all-in player's Parole
    answer), else -1."""
    if phase == PH_DRAW:
        return _in_order(packed, rule_discards(packed))
    if kinds == (1 << A_SPLIT | 1 << A_DECLINE):                  # all-in, asked about Parole (R8.2)
        return A_DECLINE if _value(card_mask(packed)) >> 22 >= 2 else A_SPLIT
    return -1


def _rule_rolled(roll, packed, phase, kinds, bet, call, lo, hi, pot):
    """The rule-based bot's betting decision (not the draw, not an all-in's Parole answer) for the
    roll ``roll`` (0-99) of its ``below(100)``."""
    value = _value(card_mask(packed))
    cat = value >> 22
    top = (value >> 18) & 15
    first = phase == PH_FIRST
    strong = cat >= 3 or (cat == 2 and top >= 4) or (first and cat == 1 and top >= 6 and roll < 30)
    medium = False
    if cat >= 1:
        medium = True
    elif first:
        d = rule_discards(packed)
        medium = d != 0 and d & (d - 1) == 0                     # one card to a flush or straight
    if (strong or roll < 5) and kinds & (1 << A_BET | 1 << A_RAISE):
        half = pot // 2
        target = bet + call + (half if half > 1 else 1)
        target = max(lo, min(hi, target))
        return (A_BET if kinds >> A_BET & 1 else A_RAISE) | target << 8
    if kinds >> A_SPLIT & 1 and not strong and cat <= 1:
        return A_SPLIT
    if kinds >> A_CHECK & 1:
        return A_CHECK
    if medium or strong or roll < 10:
        return A_CALL
    return A_FOLD


def rule_policy(packed, phase, kinds, bet, call, lo, hi, pot):
    """The rule-based bot's whole policy at one decision: every decision :func:`rule_action` can
    return there, with the number of the 100 equally likely values of its ``below(100)`` that give
    it (the draw and an all-in player's Parole answer draw nothing: one decision, 100).

    For estimators that need the bot's action probabilities (AIVAT,
    :mod:`pokerdraw32.estimators`): ``rule_action`` returns decision ``d`` with probability
    ``count / 100``.  Same arguments and checks as :func:`rule_action`, without the generator.

    :returns: a list of ``(decision, count)`` pairs, decisions packed as :func:`rule_action`'s,
        in the order of the first roll that gives each; the counts sum to 100.
    :raises PokerDraw32ValueError: a chip amount is out of range (R3.2).
    """
    if phase != PH_DRAW:
        _check_chips(bet, call, lo, hi, pot)
    fixed = _rule_fixed(packed, phase, kinds)
    if fixed >= 0:
        return [(fixed, 100)]
    out = []
    for roll in range(100):
        d = _rule_rolled(roll, packed, phase, kinds, bet, call, lo, hi, pot)
        for i in range(len(out)):
            if out[i][0] == d:
                out[i] = (d, out[i][1] + 1)
                break
        else:
            out.append((d, 1))
    return out


def random_action(rng, packed, kinds, lo, hi):
    """The random bot's decision (see :class:`pokerdraw32.bots.RandomBot`), packed: a legal kind
    uniformly (``below`` of their number), then a bet uniformly in ``[lo, hi]``, or a discard: the
    hand shuffled (Fisher-Yates as ``Rng.shuffle``) and its first ``below(5)`` cards.

    :raises PokerDraw32ValueError: no kind in ``kinds``, bounds out of range (R3.2) or ``lo > hi``
        for a bet."""
    _check_chips(0, 0, lo, hi, 0)
    return _random(_gen(rng), rng, packed, kinds, lo, hi)


def _random(g, rng, packed, kinds, lo, hi):
    """:func:`random_action` (its bounds checked) drawing from state ``g`` (see :func:`_gen`)."""
    count = 0
    for i in range(8):
        if kinds >> _BY_NAME[i] & 1:
            count += 1
    if count == 0:
        with cython.gil:
            raise PokerDraw32ValueError(f"no legal action kind in the mask {kinds:#x}")
    pick = _draw(g, rng, count)
    code = -1
    for i in range(8):
        if kinds >> _BY_NAME[i] & 1:
            if pick == 0:
                code = _BY_NAME[i]
                break
            pick -= 1
    if code == A_DISCARD:
        for i in range(4, 0, -1):
            j = _draw(g, rng, i + 1)
            a = packed >> 5 * i & 31
            b = packed >> 5 * j & 31
            packed = packed & ~(31 << 5 * i) & ~(31 << 5 * j) | b << 5 * i | a << 5 * j
        k = _draw(g, rng, 5)
        word = k
        for i in range(k):
            word |= (packed >> 5 * i & 31) << (3 + 6 * i)
        return A_DISCARD | word << 8
    if code == A_BET or code == A_RAISE:
        if lo > hi:
            with cython.gil:
                raise PokerDraw32ValueError(f"no bet between {lo} and {hi} chips")
        return code | (lo + _uniform(g, rng, hi - lo + 1)) << 8
    return code


def _check_chips(bet, call, lo, hi, pot):
    """The amounts a policy reads are chip counts of a hand (0 to MAX_CHIPS, R3.2): a decision
    packs its amount above 8 bits of a 64-bit integer."""
    if not (0 <= bet <= CHIP_LIMIT and 0 <= call <= CHIP_LIMIT and 0 <= lo <= CHIP_LIMIT
            and 0 <= hi <= CHIP_LIMIT and 0 <= pot <= CHIP_LIMIT):
        raise PokerDraw32ValueError(f"chip amounts out of range (bet {bet}, call {call}, bounds {lo}-{hi}, pot "
                                    f"{pot}): each is 0 to {MAX_CHIPS} [R3.2]")
    return 0


def discard_cards(decision):
    """The card codes of a packed discard decision, in order."""
    amount = decision >> 8
    return [amount >> 3 + 6 * i & 63 for i in range(amount & 7)]


# -- whole hands and sessions --------------------------------------------------------------------

def play_hand(hand, policies, rngs):
    """Play ``hand`` (a :class:`~pokerdraw32._handcore.state.HandCore` dealing from its stub) to the end:
    seat ``s`` by policy ``policies[s]`` (RULE or RANDOM) with generator ``rngs[s]``.  Compiled,
    the GIL is released meanwhile (see :class:`Session`).

    :returns: the number of decisions made.
    :raises PokerDraw32ValueError: a policy code is unknown, fewer policies or generators than
        seats, or the hand waits for a deal.
    """
    if hand is None:
        raise PokerDraw32TypeError("play_hand needs a hand, not None")
    n = hand._n
    if len(policies) < n or len(rngs) < n:
        raise PokerDraw32ValueError(f"play_hand: {n} seats need {n} policies and generators, got {len(policies)} "
                                    f"and {len(rngs)}")
    for s in range(n):
        if type(policies[s]) is not int or (policies[s] != RULE and policies[s] != RANDOM):
            raise PokerDraw32ValueError(f"play_hand: unknown policy {policies[s]!r} for seat {s}")
    if cython.compiled:
        pol = cython.declare(cython.int[5])
        gens = cython.declare(gen_t[5])  # noqa: F821 -- a ctypedef of _handcore/play.pxd
        for s in range(n):
            pol[s] = policies[s]
            gens[s] = rng_state(rngs[s])  # noqa: F821 -- cimported from _core in _handcore/play.pxd
        with cython.nogil:
            count = _play(hand, pol, gens, rngs, 0)
        return count
    return _play(hand, policies, [None] * 5, rngs, 0)


def _play(hand, policies, gens, rngs, rot):
    """:func:`play_hand` with the policies and the generators' states (``gens``, see :func:`_gen`)
    in C arrays: no Python object is touched, so callers may release the GIL, unless a generator
    has no state (it is then called with the GIL).  The bots sit ``rot`` seats on: seat ``p``
    plays bot ``(p - rot) % n`` with its policy and generator (duplicate deals; 0: bot ``p``)."""
    decisions = 0
    n = hand._n
    while hand._phase != PH_COMPLETE:
        if hand._pend_seat >= 0:
            with cython.gil:
                raise PokerDraw32ValueError("play_hand: the hand waits for a deal (auto_deal is off)")
        if hand._actor < 0:
            break
        p = hand._actor
        b = (p - rot + n) % n
        kinds = hand._kinds(p)
        packed = packed_hand(hand, p)
        if not cython.compiled:
            decision = _decide(hand, p, policies[b], kinds, packed, None, rngs[b])
        elif gens[b] == cython.NULL:
            with cython.gil:
                decision = _decide(hand, p, policies[b], kinds, packed, gens[b], rngs[b])
        else:
            decision = _decide(hand, p, policies[b], kinds, packed, gens[b], rngs)   # (rngs: not read)
        if not apply_decision(hand, p, decision):                 # a bug in a policy, never the rules'
            with cython.gil:
                raise AssertionError(f"policy {policies[b]} chose decision {decision:#x} for seat {p}, which is "
                                     "not legal")
        decisions += 1
    return decisions


def packed_hand(hand, p):
    """Seat ``p``'s five cards in the hand's order, packed (5 bits a card), as the policies take them."""
    packed = 0
    for j in range(5):
        packed |= hand._hole[5 * p + j] << 5 * j
    return packed


def apply_decision(hand, p, decision):
    """Apply packed ``decision`` (see the module) of seat ``p``, the player to act, when the hand
    allows it: 1 when applied, 0 (the hand unchanged) when not legal."""
    code = decision & 255
    cards = 0
    amount = 0
    if code == A_DISCARD:
        cards = decision >> 8                                  # the card word
    elif code == A_BET or code == A_RAISE:
        amount = decision >> 8
    if not hand._legal_c(p, code, amount, cards):
        return 0
    hand._apply(p, code, amount, cards)
    return 1


def _decide(hand, p, policy, kinds, packed, g, rng):
    """The decision of seat ``p`` (the player to act; ``kinds`` its legal kinds) by ``policy``."""
    if policy == RULE:
        return _rule(g, rng, packed, hand._phase, kinds, hand._bets[p], hand._call, hand._lo, hand._hi, hand._pot())
    if policy == RANDOM:
        return _random(g, rng, packed, kinds, hand._lo, hand._hi)
    with cython.gil:
        raise PokerDraw32ValueError(f"play_hand: unknown policy {policy!r} for seat {p}")


def _refuse_rebuy(seat, stack):
    """The re-buy of ``stack`` chips at ``seat`` would put more than MAX_CHIPS on the table (R3.2)."""
    raise TableError(f"seat {seat}: {stack} more chips would put more than {MAX_CHIPS} chips on the table",
                     seat=seat, rule="R3.2")


class Session:
    """A table session in which every seat is a built-in bot and every player is dealt in every
    hand: the simulation of :func:`pokerdraw32.simulate.simulate` without ``sit_out``, played in
    compiled code.  It applies the :class:`~pokerdraw32.table.Table` rules of that case exactly
    (the suite compares it with a Table, hand by hand): the button starts at seat 0 and moves one
    seat clockwise each hand (R4.1), table seats are hand seats, the blinds follow the rules
    (R4.2, R4.3), a seat with no chips before a hand buys in again for ``stack`` (R10.1, R10.4),
    each hand's shuffle comes from the table's generator (R11.1), and chips are conserved (R9.5,
    checked after every hand).

    Two measurement modes change that:

    * ``reset``: every hand starts from ``stack`` chips at every seat (no re-buys; the button
      still moves each hand), so hands are independent samples of each bot's result;
    * ``duplicate`` (with ``reset``): each deal is played ``n`` times, the bots moved one seat
      clockwise each time: the table's generator is put back to where it was before the deal's
      shuffle, and the button stays, so bot ``b`` holds seat ``(b + r) % n``'s cards and position
      in the deal's ``r``-th hand.  The button moves once per deal.  Each bot's own generator is
      put back too (common random numbers: a bot draws the same numbers in every rotation of a
      deal, so its random choices do not add noise that the rotations cannot cancel).

    Bots are numbered as ``policies`` (bot ``b`` sits at seat ``b`` unless the deal is rotated).

    Compiled, :meth:`play` releases the GIL while it plays (other threads run meanwhile; it takes
    the GIL back only to record the ledger, to make a new hand object when the session keeps
    hands, and to call a generator that is not exactly an :class:`~pokerdraw32.Rng`).  A session,
    its generators and its :attr:`hand` belong to one thread at a time (:meth:`play` refuses to
    start while another thread plays the same session).

    :param hand_class: the class of the hands (:class:`pokerdraw32.hand.Hand`); one hand object
        is reused from hand to hand unless ``keep_hands`` (then each hand is a new object, for
        ``on_hand`` and histories).
    :param rules: the table's :class:`~pokerdraw32.rules.Rules`.
    :param stack: buy-in and re-buy, in chips (with ``reset``: every seat's stack at every hand).
    :param policies: one policy code per bot (RULE or RANDOM); 2 to 5 bots (R3.1).
    :param rngs: one generator per bot, then the table's.
    :param ledger: record each hand's result per seat (:meth:`ledger_rows`).
    :param reset: every hand from ``stack`` chips (see above).
    :param duplicate: duplicate deals (see above); needs ``reset``.
    :param button: the first hand's button (R4.1), a seat: a run cut into chunks starts each
        chunk where the button would be.
    """

    def __init__(self, hand_class, rules, stack, policies, rngs, ledger=False, keep_hands=False, reset=False,
                 duplicate=False, button=0):
        n = len(policies)
        if not 2 <= n <= 5 or len(rngs) != n + 1:
            raise PokerDraw32ValueError(f"a session seats 2 to 5 bots with one generator each and the "
                                        f"table's: got {n} policies and {len(rngs)} generators [R3.1]")
        chips = integer(stack)
        if chips is None or chips <= 0 or n * chips > MAX_CHIPS:
            raise PokerDraw32ValueError(f"stack={stack!r} must be a positive number of chips, at most {MAX_CHIPS} "
                                        f"for the {n} seats together [R3.2]")
        stack = chips
        if not (isinstance(hand_class, type) and issubclass(hand_class, HandCore)):
            raise PokerDraw32TypeError(f"hand_class must be a subclass of the hand's core, got {hand_class!r}")
        for s in range(n):
            if type(policies[s]) is not int or (policies[s] != RULE and policies[s] != RANDOM):
                raise PokerDraw32ValueError(f"policies[{s}]={policies[s]!r}: use RULE or RANDOM")
        from ..rules import Rules
        if not isinstance(rules, Rules):
            raise PokerDraw32TypeError(f"rules must be a pokerdraw32.Rules, got {rules!r}")
        for s in range(n + 1):
            if not callable(getattr(rngs[s], "below", None)) or not callable(getattr(rngs[s], "shuffled", None)):
                raise PokerDraw32TypeError(f"rngs[{s}]={rngs[s]!r} is not a generator (a pokerdraw32.Rng)")
        for name, flag in (("reset", reset), ("duplicate", duplicate)):
            if type(flag) is not bool:
                raise PokerDraw32TypeError(f"{name} must be True or False, got {flag!r}")
        first = integer(button)
        if first is None or not 0 <= first < n:
            raise PokerDraw32ValueError(f"button={button!r}: the first hand's button is a seat, 0 to {n - 1} [R4.1]")
        if duplicate and not reset:
            raise PokerDraw32ValueError("duplicate deals need reset=True: each replay of a deal starts from the "
                                        "same stacks")
        self._alloc()                         # everything checked: a refused __init__ changes nothing
        self._played = self._showdowns = self._parole = self._decisions = 0
        for s in range(5):
            self._rebuys[s] = 0
            self._sd[s] = 0
            self._sd_won[s] = 0
            self._won[s] = 0
            self._chips[s] = 0
            self._sq[s] = 0
            self._deal[s] = 0
        for i in range(9):
            self._categories[i] = 0
        self._n = n
        for s in range(n):
            self._pol[s] = policies[s]
            self._stacks[s] = stack
            self._bought[s] = stack
        self._policies = list(policies)
        self._hand_class = hand_class
        self._rules = rules
        self._stack = stack
        self._rngs = list(rngs[:n])
        self._table_rng = rngs[n]
        self._button = -1
        self._first_button = first
        self._keep = keep_hands
        self._record = ledger
        self._reset = reset
        self._dup = duplicate
        self._rot = 0
        self._rows = []
        self._big = [0] * 10
        self._hand = None
        self.hand = None
        self._out = None
        self._lock = allocate_lock()

    def _alloc(self):
        if not cython.compiled:
            self._stacks = [0] * 5
            self._bought = [0] * 5
            self._rebuys = [0] * 5
            self._sd = [0] * 5
            self._sd_won = [0] * 5
            self._won = [0] * 5
            self._chips = [0] * 5
            self._sq = [0] * 5
            self._deal = [0] * 5
            self._categories = [0] * 9
            self._pol = [0] * 5
            self._gens = [None] * 5
            self._saved = [0] * 24
            self._played = self._showdowns = self._parole = self._decisions = 0

    def play(self, hands, results=None):
        """Play ``hands`` more hands; :attr:`hand` is the last one (a new object each hand when the
        session keeps hands, else the one reused).  Compiled, the GIL is released meanwhile.

        :param results: ``None``, or an ``array.array('q')`` of at least ``hands * n`` items that
            receives each hand's result per bot, in chips: item ``k * n + b`` is bot ``b``'s in the
            ``k``-th hand of this call (its stack after the hand minus before).
        :raises AssertionError: chips were not conserved (a bug: please report it).
        :raises TableError: a re-buy would put more than MAX_CHIPS chips on the table (R3.2).
        """
        n = self._seats()
        count = integer(hands)
        if count is None or not 0 <= count <= 1 << 62:
            raise PokerDraw32ValueError(f"hands={hands!r} must be a number of hands, 0 to 2**62")
        if results is not None and (not isinstance(results, array) or results.typecode != "q"
                                    or len(results) < count * n):
            raise PokerDraw32ValueError(f"results must be an array.array('q') of at least {count * n} items")
        if self._hand is not None:   # a reused hand is dealt again: what Python read of it goes
            self._hand._forget()
        if cython.compiled:          # the generators' states, read without the GIL (NULL: called with it)
            for s in range(n):
                self._gens[s] = rng_state(self._rngs[s])  # noqa: F821 -- cimported from _core in _handcore/play.pxd
            self._deck = rng_state(self._table_rng)  # noqa: F821 -- cimported from _core in _handcore/play.pxd
        if not self._lock.acquire(False):
            raise PokerDraw32ValueError("the session is already playing (in another thread, or from inside one of its "
                                        "own generators): a session plays one call at a time")
        try:
            self._todo = count
            self._pos = 0
            self._out = results
            with cython.nogil:
                self._run()
        finally:
            self._out = None
            self.hand = self._hand
            self._lock.release()

    def _seats(self):
        """The number of bots, once the session is set up.

        :raises PokerDraw32ValueError: made without ``__init__``."""
        n = self._n if cython.compiled else self.__dict__.get("_n", 0)   # 0: made without __init__
        if n < 2:
            raise PokerDraw32ValueError("the session was not set up (Session.__init__)")
        return n

    def _run(self):
        """Play ``_todo`` hands (see :meth:`play`)."""
        n = self._n
        while self._todo > 0:
            self._todo -= 1
            for s in range(n):
                if self._reset:                                     # every hand from the stack
                    self._stacks[s] = self._stack
                elif self._stacks[s] == 0:                           # busted: re-buy (R10.1, R10.4)
                    if self._on_table() + self._stack > CHIP_LIMIT:  # as Table.add_chips
                        with cython.gil:
                            _refuse_rebuy(s, self._stack)
                    self._stacks[s] = self._stack
                    self._bought[s] += self._stack
                    self._rebuys[s] += 1
                    if self._record:
                        with cython.gil:
                            self._rows.append(("add", s, self._stack, self._played))
            if self._dup and self._rot > 0:
                self._deck_state(False)                             # the deal's deck again, the same button
            else:
                self._button = self._first_button if self._button < 0 else (self._button + 1) % n   # R4.1
                if self._dup:
                    self._deck_state(True)
            if self._hand is None or self._keep:
                with cython.gil:
                    self._new_hand()
            else:
                self._hand._restart(self._stacks, self._button)
            self._decisions += _play(self._hand, self._pol, self._gens, self._rngs, self._rot)
            self._settle(self._hand)
            if self._dup:
                self._rot = (self._rot + 1) % n
        return 0

    def _deck_state(self, save):
        """Save (``save``) or restore the generators' states at the start of a duplicate deal: the
        table's (the deck) and each bot's (its own random choices: common random numbers)."""
        for k in range(self._n + 1):
            if cython.compiled:
                g = self._deck if k == self._n else self._gens[k]
            if cython.compiled and g != cython.NULL:
                for i in range(4):
                    if save:
                        self._saved[4 * k + i] = g[i]
                    else:
                        g[i] = self._saved[4 * k + i]
                continue
            with cython.gil:
                self._python_state(k, save)
        return 0

    def _python_state(self, k, save):
        """:meth:`_deck_state` of generator ``k`` (a bot's, or the table's when ``k == n``) through
        its Python methods (with the GIL; apart, so that the nogil method holds no Python object)."""
        rng = self._table_rng if k == self._n else self._rngs[k]
        if save:
            state = rng.getstate()
            for i in range(4):
                self._saved[4 * k + i] = state[i]
        else:
            rng.setstate([self._saved[4 * k + i] for i in range(4)])
        return 0

    def _new_hand(self):
        """A new hand object for the next hand, dealt (the first hand, or each when keeping hands)."""
        made = self._hand_class.__new__(self._hand_class)
        if not isinstance(made, HandCore):
            raise PokerDraw32TypeError(f"{self._hand_class.__name__}.__new__ gave {made!r}, not a hand")
        h = made
        stacks = [self._stacks[s] for s in range(self._n)]
        h._setup(self._rules, stacks, self._button, self._table_rng, None, True, [])   # shuffled by the rng
        self._hand = h                        # only a hand that was set up (a failed one is not kept)
        return 0

    def _on_table(self):
        """Chips at the table between hands: every seat's stack."""
        total = 0
        for s in range(self._n):
            total += self._stacks[s]
        return total

    def _settle(self, h):
        n = self._n
        total = 0
        for s in range(n):
            self._stacks[s] = h._stacks[s]
            total += h._stacks[s] - h._start[s]
        if total != 0:
            with cython.gil:
                raise AssertionError(f"hand {self._played + 1}: results do not sum to zero [R9.5]")
        self._played += 1
        if self._record:
            with cython.gil:
                for s in range(n):
                    self._rows.append(("hand", s, h._stacks[s] - h._start[s], self._played))
        for s in range(n):                    # seat s holds bot b this hand
            b = (s - self._rot + n) % n
            won = h._stacks[s] - h._start[s]
            if self._out is not None:
                self._out[self._pos + b] = won
            if won > 0:
                self._won[b] += 1
            if h._showdown and not h._folded[s]:
                self._sd[b] += 1
                if won > 0:
                    self._sd_won[b] += 1
            if -_SMALL < won < _SMALL:         # the tally (take_tally): C sums while they cannot overflow
                self._chips[b] += won
            else:
                with cython.gil:
                    self._add_big(b, won, 0)
            self._deal[b] += won
        self._pos += n
        if not self._dup or self._rot == n - 1:    # a sample ends: a hand, or a duplicate deal's last rotation
            for b in range(n):
                v = self._deal[b]
                self._deal[b] = 0
                if -_SMALL < v < _SMALL:
                    self._sq[b] += v * v
                    if self._sq[b] >= _SPILL:            # many large samples in one call: to Python ints
                        with cython.gil:
                            self._add_big(b, 0, 0)
                else:
                    with cython.gil:
                        self._add_big(b, 0, v)
        if h._showdown:
            self._showdowns += 1
            for s in range(n):
                if not h._folded[s]:
                    self._categories[h._strength[s] >> 22] += 1      # the showdown's values (R2)
        if h._pot_shared:
            self._parole += 1
        return 0

    def _add_big(self, b, chips, sample):
        """Bot ``b``'s tally for amounts too large for C sums, as Python ints (with the GIL): chips
        in ``_big[b]``, squares in ``_big[5 + b]`` (the C sum of squares moves there too)."""
        self._big[b] += chips
        square = int(sample)          # a Python int: the square may not fit 64 bits
        self._big[5 + b] += square * square + self._sq[b]
        self._sq[b] = 0
        return 0

    def take_tally(self):
        """Each bot's chips won, and the sum of its samples' results squared (a sample is a hand, or
        a duplicate deal: the bot's results in its rotations added up), since the last call; exact
        ints.  Samples still open (a duplicate deal not played to its last rotation) are not
        counted yet.

        :returns: ``(chips, squares)``, two lists of ``n`` ints.
        """
        n = self._seats()
        if not self._lock.acquire(False):
            raise PokerDraw32ValueError("the session is playing (in another thread): take its tally between plays")
        self._lock.release()
        chips = [self._chips[b] + self._big[b] for b in range(n)]
        squares = [self._sq[b] + self._big[5 + b] for b in range(n)]
        for b in range(n):
            self._chips[b] = 0
            self._sq[b] = 0
            self._big[b] = 0
            self._big[5 + b] = 0
        return chips, squares

    # -- what the session produced (Python values) ----------------------------------------------
    @property
    def hands_played(self):
        return self._played

    @property
    def stacks(self):
        """Each seat's chips now."""
        return [self._stacks[s] for s in range(self._n)]

    @property
    def bought_in(self):
        """Chips each seat bought in for: the first buy-in plus re-buys."""
        return [self._bought[s] for s in range(self._n)]

    @property
    def rebuys(self):
        return [self._rebuys[s] for s in range(self._n)]

    @property
    def categories(self):
        """Showdown hand categories, counted by category index (0 high card .. 8)."""
        return [self._categories[i] for i in range(9)]

    @property
    def showdowns(self):
        return self._showdowns

    @property
    def bot_showdowns(self):
        """Per bot: hands it played to the showdown, and those of them it ended with more chips
        than it started (won money at showdown)."""
        return [self._sd[b] for b in range(self._n)], [self._sd_won[b] for b in range(self._n)]

    @property
    def hands_won(self):
        """Per bot: hands it ended with more chips than it started."""
        return [self._won[b] for b in range(self._n)]

    @property
    def parole_splits(self):
        return self._parole

    @property
    def decisions(self):
        return self._decisions

    def ledger_rows(self):
        """With ``ledger``: the table ledger's lines after the buy-ins, as ``(kind, seat, chips,
        hand)``: ``("add", ...)`` for a re-buy before hand ``hand + 1``, ``("hand", ...)`` for a
        seat's result in hand ``hand``."""
        return list(self._rows)
