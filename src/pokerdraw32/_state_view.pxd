# Declarations that make _state_view.py C when compiled (Cython pure-Python mode, augmenting .pxd),
# as _state.pxd does for _state.py: setup.py compiles _state_view.py + this file as
# pokerdraw32._state_view_c, whose HandState extends _state_c's HandCore.

cimport cython
from cpython.object cimport PyObject_GenericSetAttr
from libc.string cimport memcpy
from pokerdraw32._codes_c cimport (decode, E_DEAL_DRAW, E_DEAL_HOLE, E_DISCARD, F_HIDDEN, PH_COMPLETE)
from pokerdraw32._state_c cimport HandCore

cpdef frozen(cls, dict fields)


cdef class HandState(HandCore):
    cdef void _copy_fields(self, HandState other) noexcept
    @cython.locals(new=HandState)
    cpdef _copy(self, cls=*)
