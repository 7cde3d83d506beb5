# Declarations that make _handcore/codes.py C when compiled (Cython pure-Python mode, augmenting .pxd).
# setup.py compiles _handcore/codes.py + this file as pokerdraw32._handcore.codes_c; the .py runs as plain Python otherwise.
# Every name here must agree with _handcore/codes.py (Cython checks it when compiling). The lowest module of the
# hand's core: _handcore/deal.pxd, _handcore/betting.pxd, _handcore/state.pxd and the modules above the core (_handcore/state_view.pxd, _handcore/play.pxd,
# _handcore/encode.pxd, _handcore/vector.pxd) cimport these names.

cimport cython
from pokerdraw32._core cimport Rng

ctypedef long long i64

# 1 << c as a 64-bit integer; inline: every module that cimports it has its own copy (the pure-Python
# _handcore/codes.py defines bit only when it is not compiled)
cdef inline i64 bit(i64 c) noexcept nogil:
    return (<i64>1) << c

@cython.locals(w=i64, c=i64, j=int)
cpdef i64 pack_cards(cards) except? -1
cpdef i64 discard_word(list codes) except? -2
@cython.locals(w=i64, k=int, code=i64)
cpdef i64 cards_word(cards) except? -2

cdef list _DECODED
cdef Py_ssize_t _DECODED_MAX
cdef inline Py_ssize_t _memo_slot(i64 key) noexcept nogil:
    return (key ^ key >> 12 ^ key >> 24 ^ key >> 36 ^ key >> 48) & 4095
@cython.locals(code=int, key=i64, slot=Py_ssize_t, pair=tuple, known=i64)
cpdef decode(hand, i64 first, i64 word)
@cython.locals(first=i64, word=i64, code=int, seat=int, flags=i64, count=int)
cdef _decoded(hand, i64 first, i64 word)
cdef redecode(spare, hand, i64 first, i64 word)
cpdef tuple word_cards(i64 word)

cpdef int blind_seat(int n, int button, int i, bint hu_small) noexcept nogil
cpdef tuple rules_in_c(rules)
cdef list _RULES_MEMO

cdef extern from *:
    """
    #include "structmember.h"
    /* (CYTHON_UNUSED: every module that cimports this file gets these helpers, and only _codes uses them.)
       The offset of a writable object slot in its instances, from the slot's member descriptor
       (a frozen dataclass with __slots__: the event and legal-action classes), or -1. */
    static CYTHON_UNUSED Py_ssize_t pd32_slot_offset(PyObject *descr) {
        PyMemberDef *member;
        if (Py_TYPE(descr) != &PyMemberDescr_Type) return -1;
        member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX || (member->flags & READONLY)) return -1;
        return member->offset;
    }
    /* A new, empty instance of a type (its slots NULL), as object.__new__ makes it. */
    static CYTHON_UNUSED PyObject *pd32_new(PyObject *type) {
        return ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, 0);
    }
    /* Write a slot of an object (a new reference to value; the old one, if any, released). */
    static CYTHON_UNUSED void pd32_set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value) {
        PyObject **slot = (PyObject **)((char *)obj + offset);
        PyObject *old = *slot;
        Py_INCREF(value);
        *slot = value;
        Py_XDECREF(old);
    }
    /* Only the caller holds obj (its one reference): nobody else can see it change.  Free-threaded
       builds count references per thread: there it is never so. */
    static CYTHON_UNUSED int pd32_sole(PyObject *obj) {
    #ifdef Py_GIL_DISABLED
        return 0;
    #else
        return Py_REFCNT(obj) == 1;
    #endif
    }
    /* The Card objects of deck (the tuple DECK) for n card codes, as a new tuple. */
    static CYTHON_UNUSED PyObject *pd32_codes_cards(PyObject *deck, const signed char *codes, int n) {
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
    static CYTHON_UNUSED PyObject *pd32_word_cards(PyObject *deck, long long word) {
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
