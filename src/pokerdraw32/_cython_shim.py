"""What :mod:`pokerdraw32._state` needs of the ``cython`` module when Cython is not installed.

``_state.py`` is written in Cython's pure-Python mode: compiled (as ``pokerdraw32._state_c``) it
is C; run as plain Python it only asks ``cython.compiled``, which is False here.
"""

compiled = False
