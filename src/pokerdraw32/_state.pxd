# Declarations that make _state.py C when compiled (Cython pure-Python mode, augmenting .pxd).
# setup.py compiles _state.py + this file as pokerdraw32._state_c; the .py runs as plain Python otherwise.
# Every name here must agree with _state.py (Cython checks it when compiling).

cimport cython
from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t
from pokerdraw32._core cimport Rng, rng_shuffled_into, rng_state, split_pots_c, value_of

ctypedef long long i64

@cython.locals(one=i64)
cpdef i64 bit(i64 c) noexcept nogil

@cython.locals(w=i64, c=i64, j=int)
cpdef i64 pack_cards(cards) except? -1
cpdef i64 discard_word(list codes) except? -2
@cython.locals(w=i64, k=int, code=i64)
cpdef i64 cards_word(cards) except? -2

cdef dict _DECODED
cdef Py_ssize_t _DECODED_MAX
@cython.locals(code=int, key=i64)
cpdef decode(hand, i64 first, i64 word)
@cython.locals(first=i64, word=i64, code=int, seat=int, flags=i64, count=int)
cdef _decoded(hand, i64 first, i64 word)
cpdef tuple word_cards(i64 word)

cpdef int blind_seat(int n, int button, int i, bint hu_small) noexcept nogil
cpdef tuple rules_in_c(rules)
cdef list _RULES_MEMO
cdef unsigned int _DECK_MASK

cdef extern from *:
    """
    #include "structmember.h"
    /* The offset of a writable object slot in its instances, from the slot's member descriptor
       (a frozen dataclass with __slots__: the event and legal-action classes), or -1. */
    static Py_ssize_t pd32_slot_offset(PyObject *descr) {
        PyMemberDef *member;
        if (Py_TYPE(descr) != &PyMemberDescr_Type) return -1;
        member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX || (member->flags & READONLY)) return -1;
        return member->offset;
    }
    /* A new, empty instance of a type (its slots NULL), as object.__new__ makes it. */
    static PyObject *pd32_new(PyObject *type) {
        return ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, 0);
    }
    /* Write a slot of an object (a new reference to value; the old one, if any, released). */
    static void pd32_set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value) {
        PyObject **slot = (PyObject **)((char *)obj + offset);
        PyObject *old = *slot;
        Py_INCREF(value);
        *slot = value;
        Py_XDECREF(old);
    }
    /* Only the caller holds obj (its one reference): nobody else can see it change.  Free-threaded
       builds count references per thread: there it is never so. */
    static int pd32_sole(PyObject *obj) {
    #ifdef Py_GIL_DISABLED
        return 0;
    #else
        return Py_REFCNT(obj) == 1;
    #endif
    }
    /* The Card objects of deck (the tuple DECK) for n card codes, as a new tuple. */
    static PyObject *pd32_codes_cards(PyObject *deck, const signed char *codes, int n) {
        PyObject *t = PyTuple_New(n);
        if (t == NULL) return NULL;
        for (int j = 0; j < n; j++) {
            PyObject *card = PyTuple_GET_ITEM(deck, codes[j]);   /* codes 0..31 */
            Py_INCREF(card);
            PyTuple_SET_ITEM(t, j, card);
        }
        return t;
    }
    /* The cards of a card word (count in bits 0-2, then 6 bits a code), as a new tuple. */
    static PyObject *pd32_word_cards(PyObject *deck, long long word) {
        signed char codes[7];
        int n = (int)(word & 7);
        for (int j = 0; j < n; j++) {
            int c = (int)(word >> (3 + 6 * j) & 63);
            if (c >= PyTuple_GET_SIZE(deck)) {   /* as DECK[c] would say */
                PyErr_SetString(PyExc_IndexError, "tuple index out of range");
                return NULL;
            }
            codes[j] = (signed char)c;
        }
        return pd32_codes_cards(deck, codes, n);
    }
    """
    Py_ssize_t pd32_slot_offset(object descr)
    object pd32_new(object type)
    void pd32_set_slot(object obj, Py_ssize_t offset, object value)
    tuple pd32_codes_cards(tuple deck, const signed char *codes, int n)
    bint pd32_sole(object obj)
    tuple pd32_word_cards(tuple deck, long long word)

cdef Py_ssize_t _EV_OFF[5]
cdef Py_ssize_t _LG_OFF[8]
cpdef make_event(kind, seat, amount, cards, info)
cpdef make_legal(seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards)
cdef refill_legal(spare, seat, phase, kinds, call_amount, min_to, max_to, max_discard, hole_cards)
cdef _set_fields(obj, tuple names, tuple values)
@cython.locals(offset=Py_ssize_t, i=Py_ssize_t)
cdef _slot_offsets(cls, tuple names, Py_ssize_t *out)
cdef list _KIND_SETS
cpdef kind_set(int mask)
cdef list _SIMPLE

cpdef enum:
    PH_DEAL = 0
    PH_FIRST = 1
    PH_DRAW = 2
    PH_SECOND = 3
    PH_COMPLETE = 4

cpdef enum:
    A_FOLD = 0
    A_CHECK = 1
    A_CALL = 2
    A_BET = 3
    A_RAISE = 4
    A_SPLIT = 5
    A_DECLINE = 6
    A_DISCARD = 7
    A_TIMEOUT = 8

cpdef enum:
    E_POST_BLIND = 0
    E_DEAL_HOLE = 1
    E_FOLD = 2
    E_CHECK = 3
    E_CALL = 4
    E_BET = 5
    E_RAISE = 6
    E_SPLIT = 7
    E_DECLINE = 8
    E_TIMEOUT = 9
    E_RAISE_WITHDRAWN = 10
    E_DISCARD = 11
    E_RESHUFFLE = 12
    E_DEAL_DRAW = 13
    E_ROUND_END = 14
    E_RETURN_UNCALLED = 15
    E_SHOW = 16
    E_MUCK = 17
    E_AWARD = 18
    E_HAND_END = 19

cpdef enum:
    NO_LIMIT = 0
    POT_LIMIT = 1
    FIXED_LIMIT = 2

cpdef enum:
    F_ALL_IN = 8
    F_FULL = 16
    F_R63 = 32
    F_RESHUFFLED = 64
    F_SECOND = 128
    F_SHARED = 8
    F_HIDDEN = 32768


cdef class HandCore:
    cdef object _rules
    cdef object _rng
    cdef object _legal
    cdef object _spare_legal   # the decision before _legal's LegalActions, for legal_actions() to refill
    cdef object _events_cache
    cdef object _result
    # Plain C fields from _n to _won, copied in one block by _copy_fields (keep them together)
    # rules, as C values
    cdef int _n, _button, _nblind, _structure, _cap
    cdef bint _parole, _after_button, _suit_tiebreak, _muck_losers, _reshuffle_folded, _auto_deal, _hu_small
    cdef int _blind_seat[3]
    cdef long long _blind_amt[3]
    cdef long long _L
    # the hand's own state from here (a session's hand set up again clears it, keeping the rules)
    # chips
    cdef long long _start[5]
    cdef long long _stacks[5]
    cdef long long _bets[5]
    cdef long long _contrib[5]
    cdef long long _dead
    cdef bint _folded[5]
    cdef int _discarded[5]
    # cards (codes 0..31)
    cdef signed char _hole[25]
    cdef int _hole_n[5]
    cdef signed char _stub[32]
    cdef int _stub_n
    cdef signed char _pile[32]
    cdef int _pile_n
    cdef signed char _muck[32]
    cdef int _muck_n
    cdef signed char _own[5]
    cdef int _own_n
    cdef signed char _rr[25]
    cdef int _rr_n
    cdef signed char _deal_order[5]
    cdef int _hole_index
    cdef int _pend_seat, _pend_count
    cdef bint _pend_hole
    # where the hand stands
    cdef int _phase, _actor, _aggressor, _withdrawn, _redacted_for
    cdef Py_ssize_t _legal_key, _kinds_key
    cdef int _kinds_mask
    # betting round
    cdef long long _to_match, _raise_size, _full_level, _bet_count, _reopen_serial
    cdef long long _lo, _hi, _call
    cdef bint _acted[5]
    cdef long long _acted_serial[5]
    cdef long long _last_level[5]
    cdef bint _no_raise[5]
    cdef int _choice[5]
    # Parole (R8) and the draw
    cdef bint _offer_open
    cdef int _votes, _voted
    cdef signed char _draw_order[5]
    cdef int _draw_n, _draw_index
    # the outcome
    cdef int _npots, _pot_shared, _shown, _sd_start
    cdef bint _showdown
    cdef bint _reused         # a session's hand dealt again (_restart): its log buffer is kept at its size
    cdef long long _pot_amount[6]
    cdef int _pot_elig[6]
    cdef int _pot_win[6]
    cdef long long _strength[5]
    cdef long long _won[5]
    # the log: two words a record (after the block of plain fields)
    cdef long long *_rec
    cdef Py_ssize_t _nrec, _rec_cap
    # the state of _rng when it is exactly an Rng (the core then shuffles without the GIL), else NULL
    cdef uint64_t *_rs
    # legal_actions()'s hole cards of each seat, by their key (count | the codes in order << 3)
    cdef list _hole_cache
    cdef long long _hole_keys[5]

    # The rules' methods below touch no Python object (nogil): a session plays whole hands, and a
    # caller many hands at once, without the GIL. They return 0, or -1 with an exception set (the
    # log's buffer could not grow; a generator that is not exactly an Rng failed).
    cdef _alloc(self)
    @cython.locals(n=int, amounts=tuple, i=int)
    cdef _setup(self, rules, stacks, int button, rng, stub, bint auto_deal, extra)
    cdef _set_rng(self, rng)
    cdef _forget(self)
    cdef int _drop_when_complete(self) except -1
    @cython.locals(i=int, n=int)
    cdef int _begin(self, int button, bint shuffle) except -1 nogil
    cdef int _deal_first(self) except -1 nogil
    @cython.locals(i=int)
    cdef int _restart(self, const long long *stacks, int button) except -1 nogil
    cdef int _post_blinds(self) except -1 nogil
    @cython.locals(cap=Py_ssize_t, grown=cython.p_longlong)
    cdef int _reserve(self, Py_ssize_t words) except -1 nogil
    @cython.locals(first=i64)
    cdef int _log(self, int kind, int seat, long long flags, long long word) except -1 nogil
    cdef void _put(self, int seat, long long chips) noexcept nogil
    cdef bint _active(self, int seat) noexcept nogil
    cdef long long _pot(self) noexcept nogil
    cdef void _stub_take(self, int k) noexcept nogil
    @cython.locals(m=int, i=int, c=int)
    cdef void _stub_remove(self, i64 mask) noexcept nogil
    cdef list _stub_list(self)
    cdef void _next_hole_deal(self) noexcept nogil
    cdef int _run_dealer(self) except -1 nogil
    @cython.locals(w=i64, c=i64)
    cdef int _deal_all_holes(self) except -1 nogil
    @cython.locals(w=i64, k=int, have=int, rest=int, j=int, n=int, seat=int, c=i64, reshuffled=bint)
    cdef int _deal_from_stub(self) except -1 nogil
    @cython.locals(seat=int, count=int, stub=i64, pile=i64, own=i64, from_stub=i64, taken=int, rest=i64, c=i64,
                   i=int, j=int, need_stub=int, reshuffled=bint)
    cdef int _deal_word(self, i64 w) except -1
    @cython.locals(j=int, m=i64)
    cdef int _give_hole(self, int seat, i64 w) except -1 nogil
    @cython.locals(mask=i64, count=int)
    cdef int _reshuffle(self) except -1 nogil
    @cython.locals(m=int, count=int, i=int)
    cdef int _stub_shuffled(self, unsigned int mask) except -1 nogil
    @cython.locals(count=int, i=int)
    cdef int _stub_shuffled_by_python(self, unsigned int mask, int m) except -1
    @cython.locals(m=int, j=int)
    cdef int _give_draw(self, int seat, i64 w, bint reshuffled) except -1 nogil
    @cython.locals(n=int, i=int, L=i64, first=int, start=int, seat=int)
    cdef int _start_round(self, int phase) except -1 nogil
    cdef long long _unit_c(self) noexcept nogil
    cdef bint _no_actions(self) noexcept nogil
    cdef bint _needs_to_act(self, int seat) noexcept nogil
    @cython.locals(live=int, i=int, seat=int)
    cdef int _advance(self, int start, bint inclusive) except -1 nogil
    @cython.locals(top=int, second=i64, extra=i64, i=int)
    cdef int _return_uncalled(self) except -1 nogil
    cdef int _end_round(self) except -1 nogil
    @cython.locals(n=int, m=int, i=int, seat=int)
    cdef int _start_draw(self) except -1 nogil
    cdef int _next_drawer(self) except -1 nogil
    cdef bint _answerable_c(self, int p) noexcept nogil
    @cython.locals(allin=i64, target=i64, lo=i64, hi=i64)
    cdef bint _raise_bounds(self, int p) noexcept nogil
    cdef int _kinds(self, int p) noexcept nogil
    @cython.locals(stack=i64, owe=i64, mask=int)
    cdef int _kinds_now(self, int p) noexcept nogil
    @cython.locals(deck=tuple, phases=tuple, key=i64, j=int)
    cdef _compute_legal(self)
    cdef int _ready(self, seat) except -2
    cdef bint _allowed(self, int p, int code, amount, i64 cards) except -1
    @cython.locals(seen=i64, c=i64, j=int, i=int, held=bint, mask=int)
    cdef bint _legal_c(self, int p, int code, i64 amount, i64 cards) noexcept nogil
    cdef _act(self, int code, amount, i64 cards, seat)
    @cython.locals(j=int, c=int, chips=i64)
    cdef int _apply(self, int p, int code, i64 amount, i64 cards) except -1 nogil
    cdef void _mark_acted(self, int p) noexcept nogil
    cdef void _withdraw_offer(self) noexcept nogil
    @cython.locals(inc=i64, unit=i64, full=bint)
    cdef int _raise(self, int p, int code, long long to) except -1 nogil
    cdef int _timeout(self, int p) except -1 nogil
    @cython.locals(k=int, thrown=i64, c=i64, m=int, j=int)
    cdef int _discard(self, int p, i64 w) except -1 nogil
    cdef int _showdown_start(self) noexcept nogil
    @cython.locals(live=int, elig=int, best_shown=int, start=int, s=int, o=int, k=int, i=int, can_win=bint,
                   mine=bint, beats_all=bint, back=i64, choice=int, contested=bint, n=int)
    cdef int _finish(self, bint showdown) except -1 nogil
    @cython.locals(m=i64, j=int)
    cdef long long _hole_mask(self, int s) noexcept nogil
    @cython.locals(m=i64, value=i64)
    cdef long long _hand_value(self, int s) except? -2 nogil
    @cython.locals(m=i64, w=i64, k=int, c=i64)
    cdef long long _highest_first(self, int s) noexcept nogil
    @cython.locals(first=int, npots=int, k=int, s=int, top=int, back=i64, n=int)
    cdef long long _split(self, int live, int sharers) except -1 nogil
    @cython.locals(smaller=cython.p_longlong)
    cdef void _shrink(self) noexcept nogil
    cdef _event_at(self, Py_ssize_t i)
