"""The hand state machine's core: state in C-level fields, the rules R3-R9 (one statement each).

Written in Cython's pure-Python mode: ``_state.py`` with the declarations of ``_state.pxd``.
With extensions on, setup.py compiles it as ``pokerdraw32._state_c`` (C arrays, C integers,
``cdef`` methods); otherwise, and with ``POKERDRAW32_NO_EXTENSIONS=1``, this very file runs as
plain Python (the arrays are lists).  :mod:`pokerdraw32._kernels` alone picks which one
:class:`pokerdraw32.hand.Hand` is built on.  The public API, its checks and messages, views,
snapshots and histories are :class:`pokerdraw32.hand.Hand`'s; this module holds what a hand
*is* and how it changes.

Cards are codes 0..31 (:data:`pokerdraw32.cards.DECK`); seats 0..n-1; chips are integers
(at most :data:`pokerdraw32.errors.MAX_CHIPS`, so every sum fits 64 bits).  The log is a
compact record of two integers an event (see :mod:`pokerdraw32._events`, which turns records
into :class:`~pokerdraw32.actions.Event` objects on request).
"""

if __name__ == "pokerdraw32._state_c":   # compiled (setup.py): Cython reads this import at compile time
    import cython
else:                                     # this file as plain Python: only cython.compiled is read, so
    from . import _cython_shim as cython  # the Cython package is not imported (nor needed) at run time

from .actions import Action, ActionKind, Event, EventKind, LegalActions, Phase
from .cards import DECK, FULL_MASK, Card
from .errors import (
    MAX_CHIPS,
    DealError,
    IllegalActionError,
    PokerDraw32ValueError,
    integer,
    shown,
)
from .rules import Rules, SecondRoundFirst, Structure

if cython.compiled:   # and Rng, value_of, split_pots_c: cimported from _core in _state.pxd
    from ._core import evaluate_mask, split_pots
else:
    from ._core_py import Rng, evaluate_mask, split_pots

if not cython.compiled:   # compiled, these are the C enums of _state.pxd (same values)
    PH_DEAL, PH_FIRST, PH_DRAW, PH_SECOND, PH_COMPLETE = 0, 1, 2, 3, 4
    A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE, A_SPLIT, A_DECLINE, A_DISCARD, A_TIMEOUT = 0, 1, 2, 3, 4, 5, 6, 7, 8
    (E_POST_BLIND, E_DEAL_HOLE, E_FOLD, E_CHECK, E_CALL, E_BET, E_RAISE, E_SPLIT, E_DECLINE, E_TIMEOUT,
     E_RAISE_WITHDRAWN, E_DISCARD, E_RESHUFFLE, E_DEAL_DRAW, E_ROUND_END, E_RETURN_UNCALLED, E_SHOW, E_MUCK,
     E_AWARD, E_HAND_END) = range(20)
    NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2
    # record flags (bits 8.. of a record's first word; see _events.py)
    F_ALL_IN, F_FULL, F_R63, F_RESHUFFLED, F_SECOND, F_SHARED, F_HIDDEN = 8, 16, 32, 64, 128, 8, 32768

PHASES = (Phase.DEAL, Phase.FIRST_ROUND, Phase.DRAW, Phase.SECOND_ROUND, Phase.COMPLETE)
ACTION_CODES = {ActionKind.FOLD: 0, ActionKind.CHECK: 1, ActionKind.CALL: 2, ActionKind.BET: 3, ActionKind.RAISE: 4,
                ActionKind.SPLIT: 5, ActionKind.DECLINE: 6, ActionKind.DISCARD: 7, ActionKind.TIMEOUT: 8}
ACTION_KINDS = tuple(ACTION_CODES)
_SEAT_SETS = tuple(tuple(i for i in range(5) if mask >> i & 1) for mask in range(32))

# the C scalars of HandCore (plain Python mode sets them to 0 in _alloc)
_SCALARS = ('_n', '_button', '_nblind', '_structure', '_cap', '_parole', '_after_button', '_suit_tiebreak',
            '_muck_losers', '_reshuffle_folded', '_auto_deal', '_hu_small', '_L', '_dead', '_stub_n', '_pile_n',
            '_muck_n', '_own_n', '_rr_n', '_hole_index', '_pend_seat', '_pend_count', '_pend_hole', '_phase', '_actor',
            '_aggressor', '_withdrawn', '_redacted_for', '_to_match', '_raise_size', '_full_level', '_bet_count',
            '_reopen_serial', '_lo', '_hi', '_call', '_offer_open', '_votes', '_voted', '_draw_n', '_draw_index',
            '_npots', '_pot_shared', '_shown', '_sd_start', '_showdown', '_reused', '_legal_key', '_nrec', '_rec_cap')

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
    if cython.compiled and _EV_OFF[0] >= 0:  # noqa: F821 -- declared in _state.pxd
        ev = pd32_new(Event)  # noqa: F821 -- C helpers of _state.pxd
        pd32_set_slot(ev, _EV_OFF[0], kind)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[1], seat)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[2], amount)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[3], cards)  # noqa: F821
        pd32_set_slot(ev, _EV_OFF[4], info)  # noqa: F821
        return ev
    return _set_fields(_NEW(Event), _EVENT_FIELDS, (kind, seat, amount, cards, info))


def make_legal(seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards):
    """A :class:`LegalActions` from values already checked (as :func:`make_event`)."""
    if cython.compiled and _LG_OFF[0] >= 0:  # noqa: F821 -- declared in _state.pxd
        legal = pd32_new(LegalActions)  # noqa: F821 -- C helpers of _state.pxd
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
    if spare is None or _LG_OFF[0] < 0 or not pd32_sole(spare):  # noqa: F821 -- declared in _state.pxd
        return make_legal(seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards)
    pd32_set_slot(spare, _LG_OFF[0], seat)  # noqa: F821 -- C helpers of _state.pxd
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
        offset = -1 if descr is None else pd32_slot_offset(descr)  # noqa: F821 -- C helper of _state.pxd
        if offset < 0:
            out[0] = -1
            return
        out[i] = offset


if cython.compiled:   # the offsets, checked against the public constructors once
    _slot_offsets(Event, _EVENT_FIELDS, _EV_OFF)  # noqa: F821 -- declared in _state.pxd
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
_DECK_MASK = FULL_MASK   # the 32 cards (a C integer when compiled)

# the rules' fields of HandCore, which a session's hand keeps from hand to hand (_restart)
_RULE_FIELDS = ('_n', '_nblind', '_structure', '_cap', '_parole', '_after_button', '_suit_tiebreak', '_muck_losers',
                '_reshuffle_folded', '_auto_deal', '_hu_small', '_blind_amt', '_L', '_rec_cap')


def bit(c):
    """The bit of card code (or seat) ``c``, as a 64-bit integer."""
    one = 1
    return one << c


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
        return pd32_word_cards(DECK, word)  # noqa: F821 -- C helper of _state.pxd
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


# Events that their record alone fixes (no cards, no stacks: a call, a bet, a blind, standing pat, ...),
# by the record's words (``word << 24 | first``: a first word is below 2**24): immutable, so made once
# and shared, as _SIMPLE's.  At most _DECODED_MAX of them; then the memo starts again.
_DECODED = {}
_DECODED_MAX = 4096


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
        known = _DECODED.get(key)
        if known is not None:
            return known
    ev = _decoded(hand, first, word)
    if key >= 0:
        if len(_DECODED) >= _DECODED_MAX:
            _DECODED.clear()
        _DECODED[key] = ev
    return ev


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
            from .evaluation import describe_value
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


class HandCore:
    """The state and rules of one hand; :class:`pokerdraw32.hand.Hand` is the public class."""

    # ------------------------------------------------------------------ set-up
    if cython.compiled:
        def __dealloc__(self):
            PyMem_RawFree(self._rec)   # noqa: F821 -- cimported in _state.pxd

    def __init__(self, rules, stacks, button, *, seed=None, rng=None, deck=None, auto_deal=True, posts=None):
        # The common call (the engine's deck, no posts) is checked here; any other goes through
        # every check of pokerdraw32.hand.checked_arguments, whose messages name the problem.
        if type(rules) is Rules and (type(stacks) is list or type(stacks) is tuple) and type(button) is int \
                and deck is None and posts is None and auto_deal is True \
                and (seed is None or (type(seed) is int and rng is None and 0 <= seed < 18446744073709551616)) \
                and (rng is None or type(rng) is Rng):
            n = len(stacks)
            if 2 <= n <= 5 and 0 <= button < n:
                chips = list(stacks)
                total = 0
                for s in chips:
                    if type(s) is not int or s <= 0:
                        break
                    total += s
                else:
                    if total <= MAX_CHIPS:
                        generator = rng if rng is not None else Rng(seed)
                        self._setup(rules, chips, button, generator, None, True, [])
                        return
        from .hand import checked_arguments
        chips, seat, generator, stub, deals, extra = checked_arguments(rules, stacks, button, seed, rng, deck,
                                                                      auto_deal, posts)
        self._setup(rules, chips, seat, generator, stub, deals, extra)

    def __cinit__(self):
        # Compiled only (plain Python never calls it): a hand made without __init__ (Hand.__new__)
        # is an empty one that nobody acts in and nothing is dealt to, not zeroed C state that
        # names seat 0 as the actor.
        self._actor = -1
        self._pend_seat = -1
        self._aggressor = -1
        self._withdrawn = -1
        self._redacted_for = -1
        self._legal_key = -1
        self._kinds_key = -1
        for i in range(5):
            self._hole_keys[i] = -1

    def _alloc(self):
        if not cython.compiled:
            self._blind_seat = [0] * 3
            self._blind_amt = [0] * 3
            self._start = [0] * 5
            self._stacks = [0] * 5
            self._bets = [0] * 5
            self._contrib = [0] * 5
            self._folded = [False] * 5
            self._discarded = [-1] * 5
            self._hole = [0] * 25
            self._hole_n = [0] * 5
            self._stub = [0] * 32
            self._pile = [0] * 32
            self._muck = [0] * 32
            self._own = [0] * 5
            self._rr = [0] * 25
            self._acted = [False] * 5
            self._acted_serial = [0] * 5
            self._last_level = [0] * 5
            self._no_raise = [False] * 5
            self._choice = [-1] * 5
            self._deal_order = [0] * 5
            self._draw_order = [0] * 5
            self._pot_amount = [0] * 6
            self._pot_elig = [0] * 6
            self._pot_win = [0] * 6
            self._strength = [-1] * 5
            self._won = [0] * 5
            self._rec = []
            for name in _SCALARS:
                setattr(self, name, 0)
            self._result = self._legal = self._events_cache = None
        elif self._rec == cython.NULL:   # a hand set up again (a session's) keeps its buffer
            self._rec_cap = 64
            self._rec = cython.cast(cython.p_longlong, PyMem_RawMalloc(  # noqa: F821 -- cimported in _state.pxd
                64 * cython.sizeof(cython.longlong)))
            if self._rec == cython.NULL:
                raise MemoryError()
        self._nrec = 0

    def _setup(self, rules, stacks, button, rng, stub, auto_deal, extra):
        """A new hand: ``stacks`` and ``extra`` ([(seat, live, dead)]) are checked by Hand; ``stub``
        is the deck to deal from, or None: ``rng`` shuffles it (R11.1)."""
        if cython.compiled:   # a second __init__ starts from nothing too (plain Python: _alloc does it)
            memset(cython.address(self._n), 0,  # noqa: F821 -- cimported in _state.pxd
                   cython.cast(cython.p_char, cython.address(self._rec)) - cython.cast(cython.p_char,
                                                                                   cython.address(self._n)))
        self._alloc()
        n = len(stacks)
        self._rules = rules
        self._set_rng(rng)
        self._n = n
        (self._structure, self._cap, self._parole, self._after_button, self._suit_tiebreak, self._muck_losers,
         self._reshuffle_folded, self._hu_small, blinds) = rules_in_c(rules)
        amounts, self._L = blinds[n]
        self._nblind = len(amounts)
        for i in range(self._nblind):
            self._blind_amt[i] = amounts[i]
        for i in range(n):
            self._start[i] = stacks[i]
            self._stacks[i] = stacks[i]
        if stub is not None:
            for i in range(32):
                self._stub[i] = stub[i]
            self._stub_n = 32
        self._auto_deal = auto_deal
        self._events_cache = None
        self._result = None
        self._begin(button, stub is None)
        for seat, live, dead in extra:
            self._post_extra(seat, live, dead)
        self._deal_first()

    def _set_rng(self, rng):
        """The hand's generator (R11.1); compiled, ``_rs`` is its state when it is exactly an Rng."""
        self._rng = rng
        if cython.compiled:
            self._rs = rng_state(rng)  # noqa: F821 -- cimported from _core in _state.pxd

    def _begin(self, button, shuffle):
        """Seat a new hand whose rules and stacks are set: the button, the blind seats (R4.1-R4.3),
        the deck shuffled into the stub when ``shuffle`` (R11.1), the blinds posted (R4.4, R4.5)."""
        n = self._n
        self._button = button
        for i in range(self._nblind):
            self._blind_seat[i] = blind_seat(n, button, i, self._hu_small)
        for i in range(n):
            self._discarded[i] = -1
            self._choice[i] = -1
            self._deal_order[i] = (button + 1 + i) % n
        if shuffle:
            self._stub_n = 0
            self._stub_shuffled(_DECK_MASK)
        self._phase = PH_DEAL
        self._actor = -1
        self._aggressor = -1
        self._withdrawn = -1
        self._pend_seat = -1
        self._redacted_for = -1
        self._legal_key = -1
        self._kinds_key = -1
        self._post_blinds()
        return 0

    def _deal_first(self):
        """Start dealing the hole cards (R5.1): all of them at once when the hand deals itself."""
        self._hole_index = 0
        self._next_hole_deal()
        self._run_dealer()
        return 0

    def _restart(self, stacks, button):
        """The next hand of a session, without the GIL: the same rules, seats and generator, the
        stacks ``stacks`` (``n`` positive amounts, checked by the session), the button at
        ``button``; the deck shuffled by the generator.  The caller clears the Python-level caches
        (events, result, legal actions) while it holds the GIL."""
        if cython.compiled:   # the hand's own fields, _start .. _won (the rules' fields stay)
            memset(cython.address(self._start), 0,  # noqa: F821 -- cimported in _state.pxd
                   cython.cast(cython.p_char, cython.address(self._rec)) - cython.cast(cython.p_char,
                                                                                   cython.address(self._start)))
            self._nrec = 0
        else:
            kept = [getattr(self, name) for name in _RULE_FIELDS]
            self._alloc()
            for name, value in zip(_RULE_FIELDS, kept, strict=True):
                setattr(self, name, value)
        for i in range(self._n):
            self._start[i] = stacks[i]
            self._stacks[i] = stacks[i]
        self._reused = True
        self._begin(button, True)
        self._deal_first()
        return 0

    def _forget(self):
        """Drop what Python built from the state (events, result, legal actions): a session is about
        to deal this hand object again."""
        self._events_cache = None
        self._result = None
        self._legal = None
        self._legal_key = -1

    def _drop_when_complete(self):
        """Once the hand is complete nobody acts any more (R9): what legal_actions() kept goes (the
        Python entry points call this after the rules, which run without the GIL)."""
        if self._phase == PH_COMPLETE:
            self._legal = self._hole_cache = None
            if cython.compiled:
                self._spare_legal = None
        return 0

    def _post_blinds(self):
        for i in range(self._nblind):
            seat = self._blind_seat[i]
            paid = min(self._blind_amt[i], self._stacks[seat])   # R4.5
            self._put(seat, paid)
            self._log(E_POST_BLIND, seat, i | (F_ALL_IN if self._stacks[seat] == 0 else 0), paid + 1)
        return 0

    def _post_extra(self, seat, live, dead):
        """Entry bets and missed blinds (R10.2, R10.3): live chips first, then dead ones."""
        paid = min(live, self._stacks[seat])
        if paid:
            self._put(seat, paid)
            self._log(E_POST_BLIND, seat, 3 | (F_ALL_IN if self._stacks[seat] == 0 else 0), paid + 1)
        paid = min(dead, self._stacks[seat])
        if paid:
            self._stacks[seat] -= paid
            self._dead += paid
            self._log(E_POST_BLIND, seat, 4 | (F_ALL_IN if self._stacks[seat] == 0 else 0), paid + 1)

    # ------------------------------------------------------------------ helpers
    def _reserve(self, words):
        """Room for ``words`` record words in the compiled buffer (a list grows by itself)."""
        if cython.compiled:
            cap = max(self._rec_cap, 16)
            while cap < words:
                cap *= 2
            if cap != self._rec_cap:
                grown = cython.cast(cython.p_longlong, PyMem_RawRealloc(  # noqa: F821 -- cimported in _state.pxd
                    self._rec, cap * cython.sizeof(cython.longlong)))
                if grown == cython.NULL:
                    with cython.gil:
                        raise MemoryError()
                self._rec = grown
                self._rec_cap = cap
        return 0

    def _log(self, kind, seat, flags, word):
        """One record: kind, seat + 1 (0: none), flags; ``word`` is amount + 1 (0: none) or the cards."""
        first = kind | (seat + 1) << 5 | flags << 8
        if cython.compiled:
            if self._nrec + 2 > self._rec_cap:
                self._reserve(self._nrec + 2)
            self._rec[self._nrec] = first
            self._rec[self._nrec + 1] = word
        else:
            self._rec.append(first)
            self._rec.append(word)
        self._nrec += 2
        return 0

    def _put(self, seat, chips):
        self._stacks[seat] -= chips
        self._bets[seat] += chips
        self._contrib[seat] += chips

    def _active(self, seat):
        """In the hand and able to bet (not folded, not all-in)."""
        return not self._folded[seat] and self._stacks[seat] > 0

    def _pot(self):
        total = self._dead
        for i in range(self._n):
            total += self._contrib[i]
        return total

    def _stub_take(self, k):
        """Remove the top ``k`` cards of the stub."""
        m = self._stub_n - k
        for i in range(m):
            self._stub[i] = self._stub[i + k]
        self._stub_n = m

    def _stub_remove(self, mask):
        """Remove the cards of card mask ``mask`` from the stub, keeping the order of the others."""
        m = 0
        for i in range(self._stub_n):
            c = self._stub[i]
            if not mask >> c & 1:
                self._stub[m] = c
                m += 1
        self._stub_n = m

    def _stub_list(self):
        if cython.compiled:
            return [self._stub[i] for i in range(self._stub_n)]
        return self._stub[:self._stub_n]   # plain Python: a list slice

    # ------------------------------------------------------------------ dealing
    def _next_hole_deal(self):
        if self._hole_index < self._n:
            self._pend_seat = self._deal_order[self._hole_index]
            self._pend_count = 5
            self._pend_hole = True
        else:
            self._pend_seat = -1

    def _run_dealer(self):
        if not self._auto_deal:
            return 0
        if self._hole_index == 0 and self._pend_seat >= 0:
            self._deal_all_holes()
        while self._pend_seat >= 0:
            self._deal_from_stub()
        return 0

    def _deal_all_holes(self):
        """R5.1 from the untouched stub, all at once: one card at a time starting left of the
        button, so seat k in deal order gets every n-th card of the first 5n (the same events
        and stub as dealing seat by seat)."""
        n = self._n
        for k in range(n):
            seat = self._deal_order[k]
            w = 5
            for j in range(5):
                c = self._stub[k + n * j]
                self._hole[5 * seat + j] = c
                w |= c << (3 + 6 * j)
            self._hole_n[seat] = 5
            self._log(E_DEAL_HOLE, seat, 0, w)
        self._stub_take(5 * n)
        self._hole_index = n
        self._pend_seat = -1
        self._start_round(PH_FIRST)
        return 0

    def _deal_from_stub(self):
        seat = self._pend_seat
        n = self._n
        if self._pend_hole:
            # R5.1: one card at a time, starting left of the button: from an untouched stub, seat k in
            # deal order gets every n-th card of the first 5n.
            if self._hole_index == 0:
                for k in range(n):
                    for j in range(5):
                        self._rr[5 * k + j] = self._stub[k + n * j]
                self._rr_n = n
            w = 5
            for j in range(5):
                c = self._rr[5 * self._hole_index + j] if self._rr_n else self._stub[j]
                w |= c << (3 + 6 * j)
            self._give_hole(seat, w)
            return 0
        k = self._pend_count
        have = min(k, self._stub_n)
        w = k
        for j in range(have):
            w |= self._stub[j] << (3 + 6 * j)
        reshuffled = have < k
        self._stub_take(have)
        if reshuffled:
            self._reshuffle()
            rest = k - have
            for j in range(rest):
                w |= self._stub[j] << (3 + 6 * (have + j))
            self._stub_take(rest)
        self._give_draw(seat, w, reshuffled)
        return 0

    def deal(self, cards=None):
        """Make the pending deal (:attr:`pending_deal`), with explicit ``cards`` or from the stub.

        Explicit hole cards must be free (not dealt, not given twice).  Explicit replacement
        cards (R6.2) must come from the stub while it lasts, then from the discard pile, never
        from the receiving player's own discards.

        :returns: the deal event.
        :raises DealError: nothing to deal, wrong count, or a card that is not available; the
            hand is unchanged.
        :raises InvalidCardError: a bad card token.
        """
        from .cards import format_cards, parse_cards

        seat = self._pend_seat
        if seat < 0:
            raise DealError("no deal is pending")
        if cards is None:
            self._deal_from_stub()
            ev = self._event_at(self._nrec - 2)
            self._run_dealer()
            self._drop_when_complete()
            return ev
        count = self._pend_count
        given = parse_cards(cards)
        if len(given) != count:
            raise DealError(f"seat {seat} must receive {count} cards, got {len(given)}: "
                            f"{format_cards(given)!r}", seat=seat)
        self._deal_word(pack_cards([int(c) for c in given]))
        ev = self._event_at(self._nrec - 2)
        self._run_dealer()
        self._drop_when_complete()
        return ev

    def _deal_word(self, w):
        """Make the pending deal with the explicit cards of card word ``w`` (as many as the deal
        needs, distinct: :meth:`deal` parsed them; the OpenSpiel game deals card by card and gives
        the word whole), checked: hole cards must be free (R5.1); replacement cards come from the
        stub while it lasts, then from the discard pile, never from the receiver's own discards
        (R6.2).  The caller runs the dealer on.

        :raises DealError: a card that is not available; the hand is unchanged.
        """
        seat = self._pend_seat
        count = w & 7
        stub = 0
        for i in range(self._stub_n):
            stub |= bit(self._stub[i])
        if self._pend_hole:
            for j in range(count):
                c = w >> (3 + 6 * j) & 63
                if not stub & bit(c):
                    raise DealError(f"card {DECK[c]} for seat {seat} is already in play", seat=seat)
            self._rr_n = 0     # the stub is no longer untouched: later deals take its top cards
            self._give_hole(seat, w)
            return 0
        pile = 0
        for i in range(self._pile_n):
            pile |= bit(self._pile[i])
        own = 0
        for j in range(self._hole_n[seat]):
            own |= bit(self._hole[5 * seat + j])
        for j in range(self._own_n):
            own |= bit(self._own[j])
        from_stub = 0
        taken = 0    # how many come from the stub
        rest = 0
        for j in range(count):
            c = w >> (3 + 6 * j) & 63
            if stub & bit(c):
                from_stub |= bit(c)
                taken += 1
                continue
            if own & bit(c):
                raise DealError(f"card {DECK[c]} is one of seat {seat}'s own discards or cards; a player "
                                "never receives their own discards", seat=seat, rule="R6.2")
            if not pile & bit(c):
                raise DealError(f"card {DECK[c]} for seat {seat} is not available (already in play or "
                                "dead)", seat=seat, rule="R6.2")
            rest |= bit(c)
        need_stub = min(count, self._stub_n)
        if taken != need_stub:
            raise DealError(f"seat {seat}: the stub still has {self._stub_n} cards; {need_stub} of the "
                            f"{count} replacements must come from it before the discard pile",
                            seat=seat, rule="R6.2")
        reshuffled = rest != 0
        self._stub_remove(from_stub)
        if reshuffled:
            self._reshuffle()
            self._stub_remove(rest)
        self._give_draw(seat, w, reshuffled)
        return 0

    def _give_hole(self, seat, w):
        """Deal seat ``seat`` the five hole cards of card word ``w`` from the stub (R5.1)."""
        m = 0
        for j in range(5):
            m |= bit(w >> (3 + 6 * j) & 63)
        self._stub_remove(m)
        for j in range(5):
            self._hole[5 * seat + j] = w >> (3 + 6 * j) & 63
        self._hole_n[seat] = 5
        self._log(E_DEAL_HOLE, seat, 0, w)
        self._hole_index += 1
        self._next_hole_deal()
        if self._pend_seat < 0:
            self._start_round(PH_FIRST)
        return 0

    def _reshuffle(self):
        """R6.2: the stub is exhausted; the discard pile (never the receiver's own discards, which
        are set aside until they are served) is shuffled and becomes the stub."""
        mask = 0
        for i in range(self._pile_n):
            mask |= bit(self._pile[i])
        count = self._stub_shuffled(mask)
        self._log(E_RESHUFFLE, -1, 0, count + 1)
        self._pile_n = 0
        return 0

    def _stub_shuffled(self, mask):
        """Put the cards of ``mask``, shuffled by the hand's generator, under the stub (R11.1);
        returns how many.  The package's own generator shuffles in C when compiled (without the
        GIL); a subclass's shuffle is checked first (checked_shuffle), with the GIL."""
        m = self._stub_n
        if cython.compiled and self._rs != cython.NULL:
            codes = cython.declare(cython.int[32])
            count = rng_shuffled_into(self._rs, mask, codes)  # noqa: F821 -- cimported from _core in _state.pxd
            for i in range(count):
                self._stub[m + i] = codes[i]
        else:
            with cython.gil:
                count = self._stub_shuffled_by_python(mask, m)
        self._stub_n = m + count
        return count

    def _stub_shuffled_by_python(self, mask, m):
        """:meth:`_stub_shuffled` by the generator's Python methods, from stub position ``m`` (with the
        GIL; apart, so that the nogil method holds no Python object: Cython would take the GIL to
        release it on every call)."""
        fresh = self._rng.shuffled(mask) if type(self._rng) is Rng else checked_shuffle(self._rng, mask)
        count = len(fresh)
        for i in range(count):
            self._stub[m + i] = fresh[i]
        return count

    def _give_draw(self, seat, w, reshuffled):
        """Deal seat ``seat`` the cards of card word ``w`` (R6.2)."""
        m = self._hole_n[seat]
        for j in range(w & 7):
            self._hole[5 * seat + m] = w >> (3 + 6 * j) & 63
            m += 1
        self._hole_n[seat] = m
        self._log(E_DEAL_DRAW, seat, F_RESHUFFLED if reshuffled else 0, w)
        # the player's discards join the pile only now (R6.2)
        for j in range(self._own_n):
            self._pile[self._pile_n] = self._own[j]
            self._pile_n += 1
        self._own_n = 0
        self._pend_seat = -1
        self._next_drawer()
        return 0

    # ------------------------------------------------------------------ betting rounds
    def _start_round(self, phase):
        n = self._n
        self._phase = phase
        for i in range(n):
            self._acted[i] = False
            self._last_level[i] = 0
            self._acted_serial[i] = 0
        self._reopen_serial = 0
        self._aggressor = -1
        self._withdrawn = -1
        L = self._L
        if phase == PH_FIRST:
            # the largest blind is the first bet; the others owe it in full (R4.4, R4.5)
            self._to_match = L
            self._full_level = L
            self._raise_size = L
            self._bet_count = 1
            first = (self._blind_seat[self._nblind - 1] + 1) % n                  # R5.2
        else:
            for i in range(n):
                self._bets[i] = 0
            self._to_match = 0
            self._full_level = 0
            self._raise_size = self._unit_c()
            self._bet_count = 0
            if self._after_button:
                start = self._button + 1
            else:
                start = self._blind_seat[self._nblind - 1] + 1
            # R7.1: the first player still in the hand and not all-in opens; all-in players answer a
            # Parole offer when the rotation reaches their seat (R8.2)
            first = start % n
            for i in range(n):
                seat = (start + i) % n
                if self._active(seat):
                    first = seat
                    break
        self._offer_open = phase == PH_SECOND and self._parole and not self._no_actions()
        self._votes = 0
        self._voted = 0
        self._actor = -1
        self._advance(first, True)
        return 0

    def _unit_c(self):
        """Fixed-limit bet size, or the minimum bet/raise increment otherwise (R3.4, R7.2)."""
        if self._structure == FIXED_LIMIT and self._phase == PH_SECOND:
            return 2 * self._L
        return self._L

    def _no_actions(self):
        """R5.4: at most one player can still bet and that player owes nothing."""
        p = -1
        for i in range(self._n):
            if not self._folded[i] and self._stacks[i] > 0:
                if p >= 0:
                    return False
                p = i
        if p < 0:
            return True
        others = 0
        for i in range(self._n):
            if i != p and self._bets[i] > others:
                others = self._bets[i]
        return others <= self._bets[p]

    def _needs_to_act(self, seat):
        if self._folded[seat]:
            return False
        if self._stacks[seat] == 0:
            # an all-in player only answers the Parole offer (R8.2); one who timed out in the draw
            # may only check, call or fold (R6.3), so is not asked and counts as declining
            return self._offer_open and not (self._voted >> seat & 1) and not self._no_raise[seat]
        return not self._acted[seat] or self._bets[seat] < self._to_match

    def _advance(self, start, inclusive):
        """Find the next player to act from ``start``; end the round when nobody is left (R5.3)."""
        live = 0
        for i in range(self._n):
            if not self._folded[i]:
                live += 1
        if live == 1:
            self._finish(False)
            return 0
        if self._offer_open or not self._no_actions():
            for i in range(0 if inclusive else 1, self._n + 1):
                seat = (start + i) % self._n
                if self._needs_to_act(seat):
                    self._actor = seat
                    return 0
        self._actor = -1
        self._end_round()
        return 0

    def _return_uncalled(self):
        """R9.2: the part of the largest bet nobody matched goes back to its maker."""
        top = 0
        for i in range(1, self._n):
            if self._contrib[i] > self._contrib[top]:
                top = i
        second = -1
        for i in range(self._n):
            if i != top and self._contrib[i] > second:
                second = self._contrib[i]
        extra = self._contrib[top] - second
        if extra > 0:
            self._stacks[top] += extra
            self._contrib[top] -= extra
            self._bets[top] = max(0, self._bets[top] - extra)
            self._log(E_RETURN_UNCALLED, top, 0, extra + 1)
        return 0

    def _end_round(self):
        self._return_uncalled()
        self._log(E_ROUND_END, -1, F_SECOND if self._phase == PH_SECOND else 0, self._pot() + 1)
        if self._phase == PH_FIRST:
            self._start_draw()
        else:
            self._finish(True)
        return 0

    # ------------------------------------------------------------------ the draw
    def _start_draw(self):
        n = self._n
        self._phase = PH_DRAW
        for i in range(n):
            self._bets[i] = 0
        m = 0
        for i in range(n):                          # R6.1: clockwise from the button's left
            seat = (self._button + 1 + i) % n
            if not self._folded[seat]:
                self._draw_order[m] = seat
                m += 1
        self._draw_n = m
        self._draw_index = -1
        self._own_n = 0
        self._next_drawer()
        return 0

    def _next_drawer(self):
        if self._phase != PH_DRAW:
            return 0
        self._draw_index += 1
        if self._draw_index < self._draw_n:
            self._actor = self._draw_order[self._draw_index]
        else:
            self._actor = -1
            self._start_round(PH_SECOND)
        return 0

    # ------------------------------------------------------------------ legality
    def _answerable_c(self, p):
        """R5.5: someone other than ``p``, still in the hand and not all-in, would have chips
        left after matching the current bet, so a bet or raise by ``p`` could be answered."""
        for i in range(self._n):
            if i != p and not self._folded[i] and self._stacks[i] > self._to_match - self._bets[i]:
                return True
        return False

    def _raise_bounds(self, p):
        """Sets ``_lo``/``_hi``, the total round bet of a bet or raise by ``p``; False when none
        is allowed (R3.4, R3.5)."""
        if self._withdrawn == p:
            return False                                  # R7.3
        if self._phase == PH_SECOND and self._no_raise[p]:
            return False                                  # R6.3
        if not self._answerable_c(p):
            return False                                  # R5.5: nobody could answer a raise
        if self._acted[p] and self._acted_serial[p] == self._reopen_serial \
                and self._to_match - self._last_level[p] < self._raise_size:
            return False                                  # R3.5: not reopened by a short all-in
        allin = self._bets[p] + self._stacks[p]
        if allin <= self._to_match:
            return False
        if self._structure == FIXED_LIMIT:
            if self._cap >= 0 and self._bet_count >= self._cap:
                return False                              # R3.4 cap
            target = self._full_level + self._unit_c()
            if target <= self._to_match:
                target = self._to_match + self._unit_c()
            target = min(target, allin)
            self._lo = target
            self._hi = target
            return True
        lo = self._to_match + self._raise_size if self._to_match else self._unit_c()
        hi = allin
        if self._structure == POT_LIMIT:
            # R3.4: raise by at most the pot after the player's call (the current bet plus the pot
            # with the call in it), but a minimum raise (never below L) stays possible when a
            # short blind (R4.5) leaves the pot smaller than that
            hi = min(hi, max(lo, 2 * self._to_match - self._bets[p] + self._pot()))
        self._lo = min(lo, hi)
        self._hi = hi
        return True

    def _unit(self):
        """The bet unit now (R3.4, R7.2), for Python (the refusal messages, tests)."""
        return self._unit_c()

    def _answerable(self, p):
        """R5.5 for seat ``p`` (see ``_answerable_c``), for Python (the refusal messages)."""
        return self._answerable_c(self._seat_index(p))

    def _seat_index(self, seat):
        """``seat`` checked as a seat of this hand, for the internal calls Python may make."""
        number = integer(seat)
        if number is None or not 0 <= number < self._n:
            raise IllegalActionError(f"no seat {shown(seat)} at this table (seats 0..{self._n - 1})")
        return number

    def _kinds(self, p):
        """The kinds bit mask (1 << action code) of the player to act ``p``; sets ``_call`` and,
        with BET or RAISE in it, ``_lo``/``_hi``.  Worked out once per decision point: every change
        of state logs a record, so the log's length identifies it (as for legal_actions())."""
        if self._kinds_key == self._nrec:
            return self._kinds_mask
        mask = self._kinds_now(p)
        self._kinds_mask = mask
        self._kinds_key = self._nrec
        return mask

    def _kinds_now(self, p):
        self._call = 0
        if self._phase == PH_DRAW:
            return 1 << A_DISCARD
        stack = self._stacks[p]
        if stack == 0:   # all-in player answering the Parole offer (R8.2)
            return 1 << A_SPLIT | 1 << A_DECLINE
        owe = self._to_match - self._bets[p]
        if owe > 0:
            mask = 1 << A_FOLD | 1 << A_CALL
            self._call = owe if owe < stack else stack
        else:
            mask = 1 << A_FOLD | 1 << A_CHECK
            if self._offer_open and not self._no_raise[p]:
                mask |= 1 << A_SPLIT
        if self._raise_bounds(p):
            mask |= 1 << A_RAISE if self._to_match else 1 << A_BET
        return mask

    def legal_actions(self):
        """What the player to act may do, or ``None`` when nobody is to act (hand over, or a deal
        pending with ``auto_deal=False``).

        Computed once per decision point: every change of state logs an event, so the length of
        the event log identifies the decision point.
        """
        if self._legal_key != self._nrec:
            made = self._compute_legal()
            if cython.compiled:   # the previous decision's object: the next one may be made in it
                self._spare_legal = self._legal if self._legal is not made else None
            self._legal = made
            self._legal_key = self._nrec
        return self._legal

    def _compute_legal(self):
        p = self._actor
        if p < 0 or self._pend_seat >= 0:
            return None
        deck = DECK
        if cython.compiled:
            # the seat's cards as Card objects, kept while they stay the same (key: the codes in order)
            key = self._hole_n[p]
            for j in range(self._hole_n[p]):
                key |= cython.cast(cython.longlong, self._hole[5 * p + j]) << (3 + 5 * j)
            if self._hole_keys[p] == key and self._hole_cache is not None:
                hole = self._hole_cache[p]
            else:
                hole = pd32_codes_cards(deck, cython.address(self._hole[5 * p]),  # noqa: F821 -- _state.pxd
                                        self._hole_n[p])
                if self._hole_cache is None:
                    self._hole_cache = [None] * 5
                self._hole_cache[p] = hole
                self._hole_keys[p] = key
        else:   # plain Python: a slice of the list
            hole = tuple([deck[c] for c in self._hole[5 * p:5 * p + self._hole_n[p]]])
        mask = self._kinds(p)
        phases = PHASES
        phase = phases[self._phase]
        if cython.compiled:
            spare = self._spare_legal
            self._spare_legal = None
            if self._phase == PH_DRAW:
                return refill_legal(spare, p, phase, kind_set(mask), 0, None, None, 4, hole)
            if mask & (1 << A_BET | 1 << A_RAISE):
                return refill_legal(spare, p, phase, kind_set(mask), self._call, self._lo, self._hi, 0, hole)
            return refill_legal(spare, p, phase, kind_set(mask), self._call, None, None, 0, hole)
        if self._phase == PH_DRAW:
            return make_legal(p, phase, kind_set(mask), 0, None, None, 4, hole)
        if mask & (1 << A_BET | 1 << A_RAISE):
            return make_legal(p, phase, kind_set(mask), self._call, self._lo, self._hi, 0, hole)
        return make_legal(p, phase, kind_set(mask), self._call, None, None, 0, hole)

    def _ready(self, seat):
        """The seat to act when ``seat`` (None or the claimed seat) may act now, else -1."""
        p = self._actor
        if p < 0 or self._pend_seat >= 0 or self._phase == PH_COMPLETE:
            return -1
        if seat is not None:
            claimed = seat if type(seat) is int else integer(seat)   # a plain int is the common case
            if claimed is None or claimed != p:
                return -1
        return p

    def _allowed(self, p, code, amount, cards):
        """True when action ``code`` (amount for BET/RAISE: any object; the card word of the cards for
        DISCARD, -1 for more than four) is legal for the player to act ``p``; sets ``_call``."""
        self._kinds(p)
        if code == A_BET or code == A_RAISE:
            if type(amount) is not int and (isinstance(amount, bool) or not isinstance(amount, int)):
                return False
            if not 0 <= amount <= MAX_CHIPS:
                return False
            return self._legal_c(p, code, amount, 0)
        return self._legal_c(p, code, 0, cards)

    def _legal_c(self, p, code, amount, cards):
        """:meth:`_allowed` with a C amount (``amount``: the total round bet of a BET/RAISE, else 0)."""
        mask = self._kinds(p)
        if code == A_TIMEOUT:
            return True
        if not mask >> code & 1:
            return False
        if code == A_BET or code == A_RAISE:
            return self._lo <= amount <= self._hi
        if code == A_DISCARD:
            if cards < 0 or cards & 7 > 4:
                return False
            seen = 0
            for j in range(cards & 7):
                c = cards >> (3 + 6 * j) & 63
                held = False
                for i in range(self._hole_n[p]):
                    if self._hole[5 * p + i] == c:
                        held = True
                if not held or seen & bit(c):
                    return False
                seen |= bit(c)
        return True

    # ------------------------------------------------------------------ applying actions
    def act(self, action, seat=None):
        """Apply one action of the player to act.

        :param action: an :class:`~pokerdraw32.actions.Action` or its short text (``"r 30"``, ``"d Ah 7c"``).
        :param seat: when given, the seat that claims to act; acting out of turn is an error.
        :returns: the main event logged for the action.
        :raises IllegalActionError: the action is not legal (the message names the seat, the amount and
            the rule); the hand is unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if isinstance(action, Action):
            code = ACTION_CODES.get(action.kind, -1)
            ev = None
            if code == A_DISCARD:
                codes = card_codes(action.cards)
                if codes is not None:
                    ev = self._act(code, None, discard_word(codes), seat)
            elif code >= 0:
                ev = self._act(code, action.amount, 0, seat)
            if ev is not None:
                return ev
        from ._refusal import refuse
        refuse(self, action, seat)   # names the seat, the amount and the rule
        raise IllegalActionError(f"{action} is not legal now", seat=seat)

    def _legal_now(self, action, seat):
        """True when ``action`` (an Action) from ``seat`` (None: whoever is to act) is legal now."""
        p = self._ready(seat)
        if p < 0:
            return False
        code = ACTION_CODES.get(action.kind, -1)
        if code == A_DISCARD:
            codes = card_codes(action.cards)
            return codes is not None and self._allowed(p, code, None, discard_word(codes))
        return code >= 0 and self._allowed(p, code, action.amount, 0)

    def _act(self, code, amount, cards, seat):
        """Apply action ``code`` if it is legal and return its main event; None (nothing changed)
        when it is not (:meth:`act` then says why)."""
        p = self._ready(seat)
        if p < 0 or not self._allowed(p, code, amount, cards):
            return None
        start = self._nrec
        self._apply(p, code, amount if code == A_BET or code == A_RAISE else 0, cards)
        self._drop_when_complete()
        return self._event_at(start if code != A_TIMEOUT else start + 2)   # a timeout: the action it stands for

    def _apply(self, p, code, amount, cards):
        """Apply action ``code`` of seat ``p``, legal (``_allowed``): ``amount`` the total round bet of
        a bet or raise (else 0), ``cards`` the card word of a discard (else 0)."""
        if code == A_TIMEOUT:
            self._timeout(p)
            return 0
        self._withdrawn = -1
        if code == A_DISCARD:
            self._discard(p, cards)
            return 0
        if code == A_FOLD:
            self._folded[p] = True
            for j in range(self._hole_n[p]):
                c = self._hole[5 * p + j]
                if self._reshuffle_folded and self._phase == PH_FIRST:
                    self._pile[self._pile_n] = c       # R6.2 option
                    self._pile_n += 1
                else:
                    self._muck[self._muck_n] = c
                    self._muck_n += 1
            self._hole_n[p] = 0
            self._choice[p] = -1                        # no cards left to show or muck (R9.3)
            self._withdraw_offer()
            self._log(E_FOLD, p, 0, 0)
        elif code == A_CHECK:
            self._withdraw_offer()
            self._mark_acted(p)
            self._log(E_CHECK, p, 0, 0)
        elif code == A_CALL:
            chips = self._call
            self._put(p, chips)
            self._mark_acted(p)
            self._log(E_CALL, p, F_ALL_IN if self._stacks[p] == 0 else 0, chips + 1)
        elif code == A_SPLIT:
            self._votes |= 1 << p
            if self._stacks[p] == 0:
                self._voted |= 1 << p
            else:
                self._mark_acted(p)
            self._log(E_SPLIT, p, 0, 0)
        elif code == A_DECLINE:
            self._voted |= 1 << p
            self._log(E_DECLINE, p, 0, 0)
        else:   # BET / RAISE
            self._raise(p, code, amount)
        self._advance(p, False)
        return 0

    def _mark_acted(self, p):
        self._acted[p] = True
        self._last_level[p] = self._to_match
        self._acted_serial[p] = self._reopen_serial

    def _withdraw_offer(self):
        if self._offer_open:
            self._offer_open = False
            self._votes = 0

    def _raise(self, p, code, to):
        self._withdraw_offer()
        inc = to - self._to_match
        unit = self._unit_c()
        if self._structure == FIXED_LIMIT:
            full = to >= self._full_level + unit or 2 * inc >= unit      # R3.5 fixed-limit half-bet rule
        elif self._to_match == 0:
            full = to >= unit
        else:
            full = inc >= self._raise_size
        self._put(p, to - self._bets[p])
        if full:
            if self._structure != FIXED_LIMIT:
                self._raise_size = max(self._raise_size, inc) if self._to_match else max(unit, to)
            self._full_level = to
            self._bet_count += 1
            self._reopen_serial += 1
        self._to_match = to
        self._aggressor = p
        self._mark_acted(p)
        self._log(E_BET if code == A_BET else E_RAISE, p,
                  (F_ALL_IN if self._stacks[p] == 0 else 0) | (F_FULL if full else 0), to + 1)
        return 0

    def _timeout(self, p):
        if self._phase == PH_DRAW:                                 # R6.3
            self._log(E_TIMEOUT, p, F_R63, 0)
            self._no_raise[p] = True
            self._withdrawn = -1
            self._discard(p, 0)
            return 0
        self._log(E_TIMEOUT, p, 0, 0)
        self._withdrawn = -1
        if self._stacks[p] == 0:
            self._apply(p, A_DECLINE, 0, 0)                     # an all-in voter who times out declines
        elif self._kinds(p) >> A_CHECK & 1:
            self._apply(p, A_CHECK, 0, 0)                       # R7.3
        else:
            self._apply(p, A_FOLD, 0, 0)
        return 0

    def withdraw_raise(self):
        """R7.3: the server withdraws the right to raise of the player to act, for this turn only;
        they may still check, call or fold.

        :raises IllegalActionError: nobody is to act in a betting round, or the player to act is
            all-in or has already lost the right to raise this turn (so a log never holds a
            withdrawal twice, and a restored snapshot cannot either).
        """
        p = self._actor
        if (self._phase != PH_FIRST and self._phase != PH_SECOND) or p < 0 or self._pend_seat >= 0:
            raise IllegalActionError("no player is to act in a betting round", rule="R7.3")
        if self._stacks[p] == 0:
            raise IllegalActionError(f"seat {p} is all-in and has no right to raise to withdraw",
                                     seat=p, rule="R7.3")
        if self._withdrawn == p:
            raise IllegalActionError(f"seat {p} has already lost the right to raise this turn",
                                     seat=p, rule="R7.3")
        self._withdrawn = p
        self._log(E_RAISE_WITHDRAWN, p, 0, 0)
        return self._event_at(self._nrec - 2)

    def _discard(self, p, w):
        """Seat ``p`` throws the cards of card word ``w`` (R6.1)."""
        k = w & 7
        thrown = 0
        for j in range(k):
            c = w >> (3 + 6 * j) & 63
            thrown |= bit(c)
            self._own[j] = c
        m = 0
        for j in range(self._hole_n[p]):
            c = self._hole[5 * p + j]
            if not thrown >> c & 1:
                self._hole[5 * p + m] = c
                m += 1
        self._hole_n[p] = m
        self._discarded[p] = k
        self._own_n = k
        self._log(E_DISCARD, p, 0, w)
        if k:
            self._actor = -1
            self._pend_seat = p
            self._pend_count = k
            self._pend_hole = False
            self._run_dealer()
        else:
            self._next_drawer()
        return 0

    # shortcuts ---------------------------------------------------------------
    def fold(self, seat=None):
        """Fold (R5.2). See :meth:`act`."""
        ev = self._act(A_FOLD, None, 0, seat)
        return ev if ev is not None else self.act(Action.fold(), seat)

    def check(self, seat=None):
        """Check (R5.2). See :meth:`act`."""
        ev = self._act(A_CHECK, None, 0, seat)
        return ev if ev is not None else self.act(Action.check(), seat)

    def call(self, seat=None):
        """Call, all-in for less when short (R5.2). See :meth:`act`."""
        ev = self._act(A_CALL, None, 0, seat)
        return ev if ev is not None else self.act(Action.call(), seat)

    def bet(self, amount, seat=None):
        """Bet ``amount`` chips in the second round (R7.2). See :meth:`act`."""
        return self.act(Action.bet(amount), seat)

    def raise_to(self, amount, seat=None):
        """Raise to a total round bet of ``amount`` chips (R3.4). See :meth:`act`."""
        return self.act(Action.raise_to(amount), seat)

    def split(self, seat=None):
        """Parole: split (R8.1) or, all-in, accept (R8.2). See :meth:`act`."""
        ev = self._act(A_SPLIT, None, 0, seat)
        return ev if ev is not None else self.act(Action.split(), seat)

    def decline(self, seat=None):
        """An all-in player declines the Parole offer (R8.2). See :meth:`act`."""
        ev = self._act(A_DECLINE, None, 0, seat)
        return ev if ev is not None else self.act(Action.decline(), seat)

    def discard(self, cards=(), seat=None):
        """Discard 0-4 of one's cards in the draw (R6.1); no cards = stand pat. See :meth:`act`."""
        if type(cards) is tuple or type(cards) is list:     # Card objects, as legal_actions() gives them
            w = cards_word(cards)
            if w >= 0:
                ev = self._act(A_DISCARD, None, w, seat)
                if ev is not None:
                    return ev
        return self.act(Action.discard(cards), seat)

    def stand_pat(self, seat=None):
        """Keep all five cards (R6.1). See :meth:`act`."""
        ev = self._act(A_DISCARD, None, 0, seat)
        return ev if ev is not None else self.act(Action.stand_pat(), seat)

    def timeout(self, seat=None):
        """The player to act ran out of time: stand pat and no raising later in the draw (R6.3);
        check or fold in a betting round (R7.3); an all-in player declines the Parole offer."""
        ev = self._act(A_TIMEOUT, None, 0, seat)
        return ev if ev is not None else self.act(Action.timeout(), seat)

    # ------------------------------------------------------------------ showdown
    def _showdown_start(self):
        """The first seat to show (R9.3): the last bettor or raiser of the second round, else
        the first seat of the second round."""
        if self._phase == PH_SECOND and self._aggressor >= 0 and not self._folded[self._aggressor]:
            return self._aggressor                                          # R9.3
        if self._after_button:
            return (self._button + 1) % self._n
        return (self._blind_seat[self._nblind - 1] + 1) % self._n

    def _finish(self, showdown):
        self._actor = -1
        self._pend_seat = -1
        self._return_uncalled()
        self._sd_start = self._showdown_start()
        n = self._n
        live = 0
        for s in range(n):
            self._strength[s] = -1
            if not self._folded[s]:
                live |= 1 << s
                if showdown:
                    self._strength[s] = self._hand_value(s)
        back = self._split(live, self._votes if (showdown and self._votes) else 0)
        contested = False
        self._shown = 0
        if showdown:
            # R9.3: show in order; a player who cannot win any contested pot may muck: as they chose
            # (set_showdown_choice), else as muck_losers says
            for k in range(self._npots):
                elig = self._pot_elig[k]
                if not self._pot_shared >> k & 1 and elig & (elig - 1):
                    contested = True
            best_shown = 0
            start = self._sd_start
            for i in range(n):
                s = (start + i) % n
                if self._folded[s]:
                    continue
                can_win = False
                mine = False
                for k in range(self._npots):
                    elig = self._pot_elig[k]
                    if self._pot_shared >> k & 1 or not elig & (elig - 1) or not elig >> s & 1:
                        continue                                    # not a contested pot of this seat
                    mine = True
                    beats_all = True
                    for o in range(n):
                        if best_shown >> o & 1 and elig >> o & 1 and self._strength[o] > self._strength[s]:
                            beats_all = False
                    if beats_all:
                        can_win = True
                if not mine:
                    continue
                choice = self._choice[s]
                if can_win or (not self._muck_losers if choice < 0 else choice == 1):
                    self._shown |= 1 << s
                    best_shown |= 1 << s
                    self._log(E_SHOW, s, 0, self._highest_first(s))
                else:
                    self._log(E_MUCK, s, 0, 0)
        if back >> 3:                                        # R9.2: uncalled chips (see _split)
            s = back & 7
            self._stacks[s] += back >> 3
            self._contrib[s] -= back >> 3
            self._log(E_RETURN_UNCALLED, s, 0, (back >> 3) + 1)
        for i in range(self._npots):
            self._log(E_AWARD, -1, i | (F_SHARED if self._pot_shared >> i & 1 else 0) | self._pot_win[i] << 8,
                      self._pot_amount[i] + 1)
        for s in range(n):
            self._stacks[s] += self._won[s]
            self._bets[s] = 0
        self._phase = PH_COMPLETE
        self._showdown = contested
        self._log(E_HAND_END, -1, 0, 0)
        self._legal_key = -1   # nobody acts any more (R9): legal_actions() is None (the Python callers drop _legal)
        if not self._reused:   # a session's hand keeps its buffer for the next hand
            self._shrink()
        return 0

    def _hole_mask(self, s):
        """The card mask of seat ``s``'s cards."""
        m = 0
        for j in range(self._hole_n[s]):
            m |= bit(self._hole[5 * s + j])
        return m

    def _hand_value(self, s):
        """The strength of seat ``s``'s five cards (R2; R2.4 as the rules say)."""
        m = self._hole_mask(s)
        if cython.compiled:
            value = value_of(m)  # noqa: F821 -- cimported from _core in _state.pxd
            return value if self._suit_tiebreak else value & ~3   # as evaluate_mask(m, False)
        return evaluate_mask(m, self._suit_tiebreak)

    def _highest_first(self, s):
        """The card word of seat ``s``'s cards, highest first (as shown, R9.3)."""
        m = self._hole_mask(s)
        w = 0
        k = 0
        for c in range(31, -1, -1):
            if m >> c & 1:
                w |= c << (3 + 6 * k)
                k += 1
        return w | k

    def _split(self, live, sharers):
        """The pots (R8.3, R9.1, R9.2, R9.4) by the kernels' split_pots: sets the pot fields and
        ``_won``, each seat's winnings; returns ``seat | chips << 3`` for uncalled chips to give
        back first (no chips: none)."""
        n = self._n
        first = (self._button + 1) % n
        if cython.compiled:
            chips = cython.declare(cython.longlong[5])
            amounts = cython.declare(cython.longlong[5])
            eligibles = cython.declare(cython.uint[5])
            winners = cython.declare(cython.uint[5])
            shared = cython.declare(cython.bint[5])
            top = 0
            back = 0
            for s in range(n):
                chips[s] = self._contrib[s]
            npots = split_pots_c(n, chips, self._strength, live, sharers, first, self._dead,  # noqa: F821
                                 cython.address(top), cython.address(back), self._won, amounts, eligibles,
                                 winners, shared)
            for k in range(npots):
                self._pot_amount[k] = amounts[k]
                self._pot_elig[k] = eligibles[k]
                self._pot_win[k] = winners[k]
                if shared[k]:
                    self._pot_shared |= 1 << k
            self._npots = npots
        else:
            returned, pots, winnings = split_pots(self._contrib[:n], self._strength[:n], live, sharers, first,
                                                  self._dead)
            for k in range(len(pots)):
                self._pot_amount[k], self._pot_elig[k], self._pot_win[k], shared_k = pots[k]
                if shared_k:
                    self._pot_shared |= 1 << k
            self._npots = len(pots)
            top = back = 0
            for s in range(n):
                self._won[s] = winnings[s]
                if returned[s]:
                    top, back = s, returned[s]
        return top | back << 3

    def _shrink(self):
        """Give back the log buffer's unused room (a finished hand keeps exactly its records)."""
        if cython.compiled and self._rec_cap > self._nrec:
            smaller = cython.cast(cython.p_longlong, PyMem_RawRealloc(  # noqa: F821 -- cimported in _state.pxd
                self._rec, self._nrec * cython.sizeof(cython.longlong)))
            if smaller != cython.NULL:
                self._rec = smaller
                self._rec_cap = self._nrec

    def set_showdown_choice(self, seat, show):
        """Say in advance whether seat ``seat`` shows or mucks at the showdown (R9.3).

        A player who cannot win any pot they are eligible for may muck: their cards are not
        revealed.  Showing is always allowed, so ``show=True`` shows even a losing hand (its cards
        then appear in every view and in :meth:`events_for` as a SHOW event, and in a hand
        history).  ``show=False`` asks to muck; it is honoured only when the player could muck
        by R9.3: **a player who can win a contested pot shows anyway** (so does the first player
        to show, who beats every hand shown so far).  ``show=None`` withdraws the choice; with
        no choice, option ``muck_losers`` decides (on: muck, off: show).

        The choice may be made, changed or withdrawn at any time before the showdown by a seat
        still in the hand (even before its turn, or while a deal is pending).  It is private to
        the seat: it logs no event; :meth:`view` shows a seat its own choice and nobody else's,
        and :meth:`determinize` drops the other seats' choices.  It applies only at a showdown:
        a hand won without one (R5.3) or a pot shared by Parole (R8.3) shows no cards.  Folding
        drops the choice.  It is part of the state (kept by :meth:`clone` and :meth:`snapshot`).

        There is no show after the hand: once the hand is complete nothing can be shown, and a
        mucked hand stays unrevealed.

        :param seat: the seat making the choice.
        :param show: True (show), False (muck) or None (no choice: ``muck_losers`` decides).
        :raises IllegalActionError: no such seat, ``show`` is not True, False or None, the hand
            is over, or the seat has folded; the hand is unchanged.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise IllegalActionError(f"no seat {shown(seat)} at this table (seats 0..{self._n - 1}) to show or "
                                     "muck", rule="R9.3")
        if show is not None and not isinstance(show, bool):
            raise IllegalActionError(f"seat {seat}: the showdown choice must be True (show), False (muck) or None "
                                     f"(muck_losers decides), got {shown(show)}", seat=seat, rule="R9.3")
        if self._phase == PH_COMPLETE:
            raise IllegalActionError(f"seat {seat}: the hand is over; there is nothing left to show or muck",
                                     seat=seat, rule="R9.3")
        if self._folded[seat]:
            raise IllegalActionError(f"seat {seat} has folded and has no cards to show or muck", seat=seat,
                                     rule="R9.3")
        self._choice[seat] = -1 if show is None else (1 if show else 0)

    def _drop_choice(self, seat):
        """Forget ``seat``'s showdown choice (determinize: another seat's choice is private)."""
        self._choice[self._seat_index(seat)] = -1

    # ------------------------------------------------------------------ the log
    def _records(self, start):
        """Every record word from ``start`` on, as a list (two words an event)."""
        return [self._rec[i] for i in range(max(0, start), self._nrec)]

    def _event_at(self, i):
        """The event of the record at word ``i``; kept in the events list when that list has
        been read up to it (so each event is built once)."""
        ev = decode(self, self._rec[i], self._rec[i + 1])
        cache = self._events_cache
        if cache is not None and 2 * len(cache) == i:
            cache.append(ev)
        return ev
