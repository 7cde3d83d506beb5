"""The hand's core, its lowest part: the codes it works in and what turns them into Python values.

The phases, action codes, event (record) codes and record flags (C enums when compiled), the
:class:`~pokerdraw32.actions.Event` and :class:`~pokerdraw32.actions.LegalActions` objects built
from checked values (:func:`make_event`, :func:`make_legal`, :func:`kind_set`), a log record read
as its event (:func:`decode`), card words (:func:`pack_cards`), the rules as C values
(:func:`rules_in_c`), the blind seats (R4.1-R4.3), the generator's shuffle checked
(:func:`checked_shuffle`, R11.1) and a hand's arguments checked (:func:`checked_arguments`).

One of the modules of the hand's core, each in Cython's pure-Python mode (a ``.py`` with the
declarations of its ``.pxd``): ``_codes`` (this one), ``_deal`` (the C fields, set-up, the log, the
stub, dealing and the draw: ``DealCore``), ``_betting`` (betting rounds, legality, actions applied:
``BettingCore``) and ``_state`` (``HandCore``: the public actions, the showdown).  setup.py compiles
it as ``pokerdraw32._handcore.codes_c``; otherwise, and with ``POKERDRAW32_NO_EXTENSIONS=1``, this very file
runs as plain Python.  :mod:`pokerdraw32._kernels` alone picks which one is used.
"""

if __name__ == "pokerdraw32._handcore.codes_c":   # compiled (setup.py): Cython reads this import at compile time
    import cython
else:                                     # this file as plain Python: only cython.compiled is read, so
    from . import cython_shim as cython  # the Cython package is not imported (nor needed) at run time

from collections.abc import Mapping

from ..actions import ActionKind, Event, EventKind, LegalActions, Phase
from ..cards import DECK, FULL_MASK, Card, parse_cards
from ..errors import (
    MAX_CHIPS,
    DealError,
    IllegalActionError,
    PokerDraw32ValueError,
    RulesError,
    integer,
    shown,
)
from ..rules import Rules, SecondRoundFirst, Structure
from .describe import describe_value

if cython.compiled:   # and Rng: cimported from _core in _handcore/codes.pxd
    from .._core import evaluate_mask
else:
    from .._core_py import Rng, evaluate_mask

if not cython.compiled:   # compiled, these are the C enums of _handcore/codes.pxd (same values)
    PH_DEAL, PH_FIRST, PH_DRAW, PH_SECOND, PH_COMPLETE = 0, 1, 2, 3, 4
    A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE, A_SPLIT, A_DECLINE, A_DISCARD, A_TIMEOUT = 0, 1, 2, 3, 4, 5, 6, 7, 8
    (E_POST_BLIND, E_DEAL_HOLE, E_FOLD, E_CHECK, E_CALL, E_BET, E_RAISE, E_SPLIT, E_DECLINE, E_TIMEOUT,
     E_RAISE_WITHDRAWN, E_DISCARD, E_RESHUFFLE, E_DEAL_DRAW, E_ROUND_END, E_RETURN_UNCALLED, E_SHOW, E_MUCK,
     E_AWARD, E_HAND_END) = range(20)
    NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2
    # record flags (bits 8.. of a record's first word; see _handcore/events.py)
    F_ALL_IN, F_FULL, F_R63, F_RESHUFFLED, F_SECOND, F_SHARED, F_HIDDEN = 8, 16, 32, 64, 128, 8, 32768

PHASES = (Phase.DEAL, Phase.FIRST_ROUND, Phase.DRAW, Phase.SECOND_ROUND, Phase.COMPLETE)
ACTION_CODES = {ActionKind.FOLD: 0, ActionKind.CHECK: 1, ActionKind.CALL: 2, ActionKind.BET: 3, ActionKind.RAISE: 4,
                ActionKind.SPLIT: 5, ActionKind.DECLINE: 6, ActionKind.DISCARD: 7, ActionKind.TIMEOUT: 8}
ACTION_KINDS = tuple(ACTION_CODES)
_SEAT_SETS = tuple(tuple(i for i in range(5) if mask >> i & 1) for mask in range(32))

# The legal-action sets by kinds bit mask (1 << action code, codes 0..8), built on first use.
_KIND_SETS = [None] * 512


_NEW = object.__new__
_SETATTR = object.__setattr__


_EVENT_FIELDS = ("kind", "seat", "amount", "cards", "info")
_LEGAL_FIELDS = ("seat", "phase", "kinds", "call_amount", "min_to", "max_to", "max_discard", "hole_cards")


def make_event(kind, seat, amount, cards, info):
    """An :class:`Event` from values already checked, without the dataclass ``__init__``: its
    fields are slots, written straight into the new object when compiled (offsets read from the
    class's member descriptors at import, see :func:`_slot_offsets`), else set one by one by
    ``object.__setattr__``; the same object as the public constructor: equal, hashable, immutable."""
    if cython.compiled and _EV_OFF[0] >= 0:  # noqa: F821 -- declared in _handcore/codes.pxd
        ev = pd32_new(Event)  # noqa: F821 -- C helpers of _handcore/codes.pxd
        pd32_set_slot(ev, _EV_OFF[0], kind)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[1], seat)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[2], amount)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[3], cards)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[4], info)  # noqa: F821
        return ev
    return _set_fields(_NEW(Event), _EVENT_FIELDS, (kind, seat, amount, cards, info))


def make_legal(seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards):
    """A :class:`LegalActions` from values already checked (as :func:`make_event`)."""
    if cython.compiled and _LG_OFF[0] >= 0:  # noqa: F821 -- declared in _handcore/codes.pxd
        legal = pd32_new(LegalActions)  # noqa: F821 -- C helpers of _handcore/codes.pxd
        pd32_set_slot(legal, _LG_OFF[0], seat)  # noqa: F821
        pd32_set_slot(legal, _LG_OFF[1], phase)  # noqa: F821
        pd32_set_slot(legal, _LG_OFF[2], kinds)  # noqa: F821
        pd32_set_slot(legal, _LG_OFF[3], call_amount)  # noqa: F821
        pd32_set_slot(legal, _LG_OFF[4], min_to)  # noqa: F821
        pd32_set_slot(legal, _LG_OFF[5], max_to)  # noqa: F821
        pd32_set_slot(legal, _LG_OFF[6], max_discard)  # noqa: F821
        pd32_set_slot(legal, _LG_OFF[7], hole_cards)  # noqa: F821
        return legal
    return _set_fields(_NEW(LegalActions), _LEGAL_FIELDS,
                       (seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards))


def refill_legal(spare, seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards):
    """Compiled only: :func:`make_legal`, into ``spare`` (a LegalActions of this hand's that nothing
    else holds any more: its only reference is the hand's) instead of a new object, or a new one
    when ``spare`` is None or held elsewhere.  Nobody can see the old values change: a bot's loop
    (``legal = hand.legal_actions()``) lets go of a decision's object when it asks for the one
    after next, and this takes it back then instead of freeing it and making another."""
    if spare is None or _LG_OFF[0] < 0 or not pd32_sole(spare):  # noqa: F821 -- declared in _handcore/codes.pxd
        return make_legal(seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards)
    pd32_set_slot(spare, _LG_OFF[0], seat)  # noqa: F821 -- C helpers of _handcore/codes.pxd
    pd32_set_slot(spare, _LG_OFF[1], phase)  # noqa: F821
    pd32_set_slot(spare, _LG_OFF[2], kinds)  # noqa: F821
    pd32_set_slot(spare, _LG_OFF[3], call_amount)  # noqa: F821
    pd32_set_slot(spare, _LG_OFF[4], min_to)  # noqa: F821
    pd32_set_slot(spare, _LG_OFF[5], max_to)  # noqa: F821
    pd32_set_slot(spare, _LG_OFF[6], max_discard)  # noqa: F821
    pd32_set_slot(spare, _LG_OFF[7], hole_cards)  # noqa: F821
    return spare


def _set_fields(obj, names, values):
    for i in range(len(names)):
        _SETATTR(obj, names[i], values[i])
    return obj


def _slot_offsets(cls, names, out):
    """Compiled only: the offsets of the slots ``names`` of ``cls`` into ``out``, from its member
    descriptors (object slots, writable); ``out[0] = -1`` when one is not such a slot (then the
    fields are set through ``object.__setattr__``)."""
    for i in range(len(names)):
        descr = cls.__dict__.get(names[i])
        offset = -1 if descr is None else pd32_slot_offset(descr)  # noqa: F821 -- C helper of _handcore/codes.pxd
        if offset < 0:
            out[0] = -1
            return
        out[i] = offset


if cython.compiled:   # the offsets, checked against the public constructors once
    _slot_offsets(Event, _EVENT_FIELDS, _EV_OFF)  # noqa: F821 -- declared in _handcore/codes.pxd
    _slot_offsets(LegalActions, _LEGAL_FIELDS, _LG_OFF)  # noqa: F821
    if make_event(EventKind.CALL, 1, 2, (), (("all_in", False),)) != Event(EventKind.CALL, 1, 2, (),
                                                                           (("all_in", False),)):
        _EV_OFF[0] = -1  # noqa: F821
    if make_legal(1, Phase.DRAW, frozenset(), 0, None, None, 4, ()) != LegalActions(1, Phase.DRAW, frozenset(), 0,
                                                                                    None, None, 4, ()):
        _LG_OFF[0] = -1  # noqa: F821


def kind_set(mask):
    """The frozenset of ActionKind of a kinds bit mask (1 << action code)."""
    if not 0 <= mask < 512:
        raise PokerDraw32ValueError(f"no action kinds mask {mask}")
    found = _KIND_SETS[mask]
    if found is None:
        kinds = []
        for i in range(len(ACTION_KINDS)):
            if mask >> i & 1:
                kinds.append(ACTION_KINDS[i])
        found = frozenset(kinds)
        _KIND_SETS[mask] = found
    return found


def card_codes(cards):
    """The codes of a discard's cards, or None when they are not all cards of the deck (the
    refusal then names the problem, as for any illegal discard)."""
    try:
        codes = [int(c) for c in cards]
    except (TypeError, ValueError):
        return None
    for c in codes:
        if not 0 <= c < 32:
            return None
    return codes


def checked_codes(cards, most, what):
    """``cards`` as a list of card codes 0..31, at most ``most`` of them: the internal setters write
    into fixed C arrays and must never be handed more (or other) values than those hold."""
    codes = [integer(c) for c in cards]
    if len(codes) > most or any(c is None or not 0 <= c < 32 for c in codes):
        raise IllegalActionError(f"{what}: expected at most {most} card codes 0..31, got {shown(cards)}")
    return codes


def checked_shuffle(rng, mask):
    """``rng.shuffled(mask)``, checked to hold each card of ``mask`` once: a generator subclass
    that returns anything else is refused before any of it reaches the hand (R6.2, R11.1)."""
    fresh = rng.shuffled(mask)
    seen = 0
    good = type(fresh) is list and len(fresh) <= 32
    if good:
        for c in fresh:
            if type(c) is not int or not 0 <= c < 32 or not mask >> c & 1 or seen >> c & 1:
                good = False
                break
            seen |= 1 << c
    if not good or seen != mask:
        raise PokerDraw32ValueError(f"the generator's shuffle of the cards {mask:#x} gave {shown(fresh)}, not "
                                    "each of those cards once [R11.1]")
    return fresh


def blind_seats(rules, n, button):
    """The seats posting the blinds, small blind first (R4.1-R4.3)."""
    hu_small = rules.heads_up_button_posts_small
    return tuple([blind_seat(n, button, i, hu_small) for i in range(len(rules.blinds(n)))])


def blind_seat(n, button, i, hu_small):
    """The seat posting blind ``i`` (0 small, 1 big, 2 over) of ``n`` seats: clockwise from the
    button's left (R4.2); heads-up the non-dealer posts the small blind (R4.3), or the dealer with
    ``heads_up_button_posts_small``."""
    if n == 2:
        if hu_small:
            return button if i == 0 else 1 - button
        return 1 - button if i == 0 else button
    return (button + 1 + i) % n


def rules_in_c(rules):
    """What a hand reads of ``rules``, as C values: ``(structure, cap, parole, after_button,
    suit_tiebreak, muck_losers, reshuffle_folded, heads_up_button_posts_small, blinds)`` with
    ``blinds[n]`` = (the blinds, the largest) for n = 2..5; the last rules asked are remembered
    (Rules are immutable), so a session of hands reads them once."""
    memo = _RULES_MEMO[0]
    if memo is not None and memo[0] is rules:
        return memo[1]
    structure = rules.structure
    blinds = [None, None]
    for n in range(2, 6):
        amounts = rules.blinds(n)
        largest = rules.largest_blind(n)
        # a Rules subclass may say anything: the hand's C arrays hold 3 blinds (R4.2, R4.3)
        if type(amounts) is not tuple or not 2 <= len(amounts) <= 3 \
                or not all([type(a) is int and 0 < a <= MAX_CHIPS for a in amounts]) \
                or type(largest) is not int or not 0 < largest <= MAX_CHIPS:
            raise PokerDraw32ValueError(f"{type(rules).__name__}.blinds({n}) = {shown(amounts)} and largest_blind({n}) "
                                        f"= {shown(largest)}: a hand posts 2 or 3 blinds of 1 to {MAX_CHIPS} chips "
                                        "[R4.2]")
        blinds.append((amounts, largest))
    derived = (POT_LIMIT if structure is Structure.POT_LIMIT else
               FIXED_LIMIT if structure is Structure.FIXED_LIMIT else NO_LIMIT,
               -1 if rules.cap is None else rules.cap, rules.parole,
               rules.second_round_first is SecondRoundFirst.AFTER_BUTTON, rules.suit_tiebreak, rules.muck_losers,
               rules.reshuffle_folded, rules.heads_up_button_posts_small,
               tuple(blinds))
    _RULES_MEMO[0] = (rules, derived)    # one object, stored at once: threads see a whole pair
    return derived


_RULES_MEMO = [None]


if not cython.compiled:   # compiled, bit is an inline C function of _handcore/codes.pxd (every module that cimports it
    def bit(c):           # has its own copy, which the C compiler inlines)
        """The bit of card code (or seat) ``c``, as a 64-bit integer."""
        return 1 << c


def pack_cards(cards):
    """A record's card word: the count in bits 0-2, then 6 bits a card in order.  The hand's core
    passes discards and replacement cards around in this form too."""
    w = len(cards)
    for j in range(len(cards)):
        c = cards[j]
        w |= c << (3 + 6 * j)
    return w


def word_cards(word):
    """The cards of a card word (:func:`pack_cards`), as a tuple of :class:`Card`."""
    if cython.compiled:
        return pd32_word_cards(DECK, word)  # noqa: F821 -- C helper of _handcore/codes.pxd
    return tuple([DECK[word >> (3 + 6 * j) & 63] for j in range(word & 7)])


def cards_word(cards):
    """The card word of a tuple or list of :class:`Card` objects (as legal_actions() gives them), or
    -1 for anything else or more than four cards (then :meth:`HandCore.act` checks them and says why)."""
    w = 0
    k = 0
    for c in cards:
        if type(c) is not Card or k == 4:
            return -1
        code = c
        if not 0 <= code < 32:
            return -1
        w |= code << (3 + 6 * k)
        k += 1
    return w | k


def discard_word(codes):
    """The card word of a discard's card codes (:func:`card_codes`), or -1 for more than 4 cards
    (never legal, R6.1)."""
    return pack_cards(codes) if len(codes) <= 4 else -1


_KINDS = tuple(EventKind)
_BLINDS = ("small", "big", "over", "live", "dead")
# the events without amount, cards or info (check, fold, ...), immutable, by their first word
_SIMPLE = [None] * 256   # by the record's first word (no flags: below 256)
for _kind in (2, 3, 7, 8, 17):   # FOLD, CHECK, SPLIT, DECLINE, MUCK
    for _seat in range(5):
        _SIMPLE[_kind | (_seat + 1) << 5] = make_event(_KINDS[_kind], _seat, None, (), ())
del _kind, _seat


# Events that their record alone fixes (no cards, no stacks: a call, a bet, a blind, standing pat, ...):
# immutable, so made once and shared, as _SIMPLE's.  A direct-mapped memo of _DECODED_MAX slots: the
# record's key ``word << 24 | first`` (a first word is below 2**24) picks slot _memo_slot(key), which
# holds the pair (key, event), written and read as one object (threads); another key for the same
# slot replaces it.  Compiled, a look-up makes no Python integer (unlike a dict's).
_DECODED_MAX = 4096
_DECODED = [None] * _DECODED_MAX

if not cython.compiled:   # compiled, an inline C function of _handcore/codes.pxd
    def _memo_slot(key):
        """The memo slot of a record's key (0 <= key < 2**62): its bits folded onto 12."""
        return (key ^ key >> 12 ^ key >> 24 ^ key >> 36 ^ key >> 48) & 4095


def decode(hand, first, word):
    """The :class:`Event` of one record of ``hand``'s log."""
    code = first & 31
    if first < 256:
        simple = _SIMPLE[first]
        if simple is not None:
            return simple
    key = -1
    if code != E_HAND_END and code != E_SHOW and code != E_DEAL_HOLE and code != E_DEAL_DRAW \
            and (code != E_DISCARD or word == 0) and 0 <= word < 1 << 38:
        key = word << 24 | first
        slot = _memo_slot(key)
        pair = _DECODED[slot]
        if pair is not None:
            known = pair[0]   # compiled, a C integer
            if known == key:
                return pair[1]
    ev = _decoded(hand, first, word)
    if key >= 0:
        _DECODED[slot] = (key, ev)
    return ev


def redecode(spare, hand, first, word):
    """:func:`decode`; compiled, the event of a discard with cards is written into ``spare`` (an event
    of this hand's discard that nothing else holds any more: its only reference is the hand's)
    instead of a new object, as :func:`refill_legal` does for the legal actions.  Such an event is
    never shared (the memo keeps no event with cards): a caller that let go of it cannot see it
    change, and one that holds it keeps it as it was."""
    if cython.compiled and spare is not None and (first & 31) == E_DISCARD and not first >> 8 & 32768 \
            and word & 7 and _EV_OFF[0] >= 0 and pd32_sole(spare):  # noqa: F821 -- declared in _handcore/codes.pxd
        cards = word_cards(word)
        pd32_set_slot(spare, _EV_OFF[0], _KINDS[E_DISCARD])  # noqa: F821 -- C helpers of _handcore/codes.pxd
        pd32_set_slot(spare, _EV_OFF[1], (first >> 5 & 7) - 1)  # noqa: F821
        pd32_set_slot(spare, _EV_OFF[2], word & 7)  # noqa: F821
        pd32_set_slot(spare, _EV_OFF[3], cards)  # noqa: F821
        pd32_set_slot(spare, _EV_OFF[4], ())  # noqa: F821
        return spare
    return decode(hand, first, word)


def _decoded(hand, first, word):
    """The :class:`Event` of a record, made (see :func:`decode`)."""
    code = first & 31
    kind = _KINDS[code]
    seat = (first >> 5 & 7) - 1
    flags = first >> 8
    info = ()
    if code == E_DEAL_HOLE or code == E_DEAL_DRAW or code == E_DISCARD or code == E_SHOW:
        count = word & 7
        cards = word_cards(word) if not flags & 32768 else ()
        amount = count if code == E_DISCARD else None
        if code == E_DEAL_DRAW:
            info = (("reshuffled", bool(flags & 64)),)
        elif code == E_SHOW:
            tiebreak = hand.rules.suit_tiebreak
            mask = 0
            for c in cards:
                mask |= 1 << int(c)
            value = evaluate_mask(mask, tiebreak)
            # R2.4: the value names the deciding suit; with the tie-break off no suit is named
            info = (("hand", describe_value(value, suit_tiebreak=tiebreak)), ("value", value))
        if flags & 32768:
            info = (*info, ("hidden", count))
        return make_event(kind, seat, amount, cards, info)
    amount = word - 1 if word else None
    if code == E_POST_BLIND:
        info = (("blind", _BLINDS[flags & 7]), ("all_in", bool(flags & 8)))
    elif code == E_CALL:
        info = (("all_in", bool(flags & 8)),)
    elif code == E_BET or code == E_RAISE:
        info = (("all_in", bool(flags & 8)), ("full", bool(flags & 16)))
    elif code == E_TIMEOUT:
        info = (("rule", "R6.3" if flags & 32 else "R7.3"),)
    elif code == E_RAISE_WITHDRAWN:
        info = (("rule", "R7.3"),)
    elif code == E_ROUND_END:
        info = (("round", "second-round" if flags & 128 else "first-round"),)
    elif code == E_AWARD:
        info = (("pot", flags & 7), ("winners", _SEAT_SETS[flags >> 8 & 31]), ("shared", bool(flags & 8)))
    elif code == E_HAND_END:
        info = (("stacks", tuple(hand.stacks)),)
    return make_event(kind, None if seat < 0 else seat, amount, (), info)


def _check_posts(posts, n, largest):
    """Validate ``posts`` (see :class:`~pokerdraw32.hand.Hand`): ``[(seat, live, dead)]`` by seat."""
    if posts is None:
        return []
    if not isinstance(posts, Mapping):
        raise RulesError(f"posts must map seats to (live, dead) chips, got {shown(posts)}")
    out = []
    for key, amounts in posts.items():
        seat = integer(key)
        if seat is None or not 0 <= seat < n:
            raise RulesError(f"posts: {shown(key)} is not a seat 0..{n - 1}")
        if not isinstance(amounts, (tuple, list)) or len(amounts) != 2:
            raise RulesError(f"posts: seat {seat} must post (live, dead) chips, got {shown(amounts)}")
        chips = []
        for what, v in zip(("live", "dead"), amounts, strict=True):
            amount = integer(v)
            if amount is None or not 0 <= amount <= MAX_CHIPS:
                raise RulesError(f"posts: seat {seat}: {what} {shown(v)} is not a number of chips [R3.2]")
            chips.append(amount)
        live, dead = chips
        if live > largest:
            raise RulesError(f"posts: seat {seat}: a live post of {live} is more than the largest blind {largest} "
                             "[R10.2, R10.3]")
        out.append((seat, live, dead))
    if len({seat for seat, _, _ in out}) != len(out):
        raise RulesError(f"posts: a seat is given twice in {shown(posts)}")
    return sorted(out)


def checked_arguments(rules, stacks, button, seed, rng, deck, auto_deal, posts):
    """The arguments of :class:`~pokerdraw32.hand.Hand` checked, in the order of ``HandCore._setup``:
    the stacks, the button, the generator, the stub, ``auto_deal`` and the extra posts
    ``[(seat, live, dead)]`` (``HandCore.__init__`` checks the common call itself, and every other
    one here; :class:`~pokerdraw32.hand.Hand` re-exports it).

    :raises RulesError: for a bad number of seats, a bad stack, button, seed, generator or post.
    :raises InvalidCardError: for a bad stacked deck; :raises DealError: for one not of 32 cards.
    """
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a Rules object, got {type(rules).__name__}")
    if not isinstance(stacks, (list, tuple)):
        raise RulesError(f"stacks must be a list or tuple of chip counts, got {shown(stacks)}")
    stacks = list(stacks)
    n = len(stacks)
    if not 2 <= n <= 5:
        raise RulesError(f"a hand is dealt to 2 to 5 players, got {n} stacks [R3.1]")
    for i, s in enumerate(stacks):
        chips = integer(s)   # a plain int, checked and used (R3.2)
        if chips is None:
            raise RulesError(f"seat {i}: stack {shown(s)} is not an integer number of chips [R3.2]")
        if chips <= 0:
            raise RulesError(f"seat {i}: stack {shown(chips)} must be positive; a seat with no chips is not dealt "
                             "in [R10.4]")
        stacks[i] = chips
    if sum(stacks) > MAX_CHIPS:
        raise RulesError(f"the stacks add up to more than the largest amount of chips ({MAX_CHIPS}) [R3.2]")
    button_seat = integer(button)
    if button_seat is None or not 0 <= button_seat < n:
        raise RulesError(f"button {shown(button)} is not a seat 0..{n - 1} [R4.1]")
    button = button_seat
    if rng is not None and seed is not None:
        raise RulesError("give either seed or rng, not both")
    if rng is not None and not isinstance(rng, Rng):
        raise RulesError(f"rng must be a pokerdraw32.Rng, got {shown(rng)}")
    if seed is not None:
        seed_value = integer(seed)
        if seed_value is None or not 0 <= seed_value < 18446744073709551616:   # 2**64
            raise RulesError(f"seed {shown(seed)} must be an int with 0 <= seed < 2**64 [R11.1]")
        seed = seed_value
    if not isinstance(auto_deal, bool):
        raise RulesError(f"auto_deal must be True or False, got {shown(auto_deal)}")
    largest = rules.largest_blind(n)
    extra = _check_posts(posts, n, largest)
    # seats by role; every check is done before the generator is touched (a refused hand
    # leaves the caller's rng as it was)
    seats = blind_seats(rules, n, button)
    due = dict(zip(seats, rules.blinds(n), strict=False))
    for seat, live, _dead in extra:
        if due.get(seat, 0) + live > largest:
            raise RulesError(f"posts: seat {seat} posts {due[seat]} as a blind and {live} live, more than the "
                             f"largest blind {largest} [R10.2, R10.3]")
    generator = rng if rng is not None else Rng(seed)
    if deck is None:
        stub = checked_shuffle(generator, FULL_MASK)     # a generator subclass's shuffle is checked
    else:
        cards = parse_cards(deck)   # checked there: R1.3
        if len(cards) != 32:
            raise DealError(f"a stacked deck must hold all 32 cards, got {len(cards)}")
        stub = [int(c) for c in cards]
    return stacks, button, generator, stub, auto_deal, extra
