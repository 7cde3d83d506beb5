"""What :mod:`pokerdraw32._state` needs of the ``cython`` module when it runs as plain Python.

``_state.py`` is written in Cython's pure-Python mode: compiled (as ``pokerdraw32._state_c``) it
is C; run as plain Python it only asks ``cython.compiled``, which is False here, and imports this
module instead of Cython's own shadow module (which costs several milliseconds of import and is
not installed with the package).  ``with cython.nogil:`` and ``with cython.gil:`` do nothing here.
"""

import contextlib

compiled = False
gil = nogil = contextlib.nullcontext()
