# Declarations that make _handcore/state_view.py C when compiled (Cython pure-Python mode, augmenting .pxd),
# as _handcore/state.pxd does for _handcore/state.py: setup.py compiles _handcore/state_view.py + this file as
# pokerdraw32._handcore.state_view_c, whose HandState extends _state_c's HandCore.

cimport cython
from cpython.object cimport PyObject_GenericSetAttr
from libc.string cimport memcpy
from pokerdraw32._handcore.codes_c cimport (decode, E_DEAL_DRAW, E_DEAL_HOLE, E_DISCARD, F_HIDDEN, PH_COMPLETE)
from pokerdraw32._handcore.state_c cimport HandCore

cdef extern from *:
    """
    /* Reading an attribute of an enum class: Python 3.10 and 3.11 give EnumType a __getattr__, so
       that every read (ActionKind.CALL) goes through a slow generic hook (it calls
       type.__getattribute__ as a Python method, then __getattr__ when that fails).  The fast read
       asks the type's own lookup first and, only when it finds nothing, the original hook: the
       same results and errors, the common case without the detour. */
    static getattrofunc pd32_enum_hook = NULL;
    static PyObject *pd32_enum_getattro(PyObject *cls, PyObject *name) {
        PyObject *found = PyType_Type.tp_getattro(cls, name);
        if (found != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError)) return found;
        PyErr_Clear();
        return pd32_enum_hook(cls, name);
    }
    /* Give the metaclass meta the fast read; 0 when it needs none (Python 3.12 on) or has it. */
    static int pd32_fast_enum_reads(PyObject *meta) {
        PyTypeObject *t = (PyTypeObject *)meta;
        if (!PyType_Check(meta) || t->tp_getattro == PyType_Type.tp_getattro
                || t->tp_getattro == pd32_enum_getattro || t->tp_getattro == NULL)
            return 0;
        if (pd32_enum_hook != NULL && pd32_enum_hook != t->tp_getattro) return 0;
        pd32_enum_hook = t->tp_getattro;
        t->tp_getattro = pd32_enum_getattro;
        return 1;
    }
    """
    int pd32_fast_enum_reads(object meta)

cpdef frozen(cls, dict fields)


cdef class HandState(HandCore):
    cdef void _copy_fields(self, HandState other) noexcept
    @cython.locals(new=HandState)
    cpdef _copy(self, cls=*)
