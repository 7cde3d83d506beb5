# The C-level interface of pokerdraw32._core for other compiled modules of the package
# (pokerdraw32._play_c cimports it: the built-in bots draw from a Rng and evaluate hands in C).
# Cython reads this file when it compiles src/_core.pyx (every name here must agree with it);
# setup.py copies it to build/cython-src/pokerdraw32/_core.pxd for the modules that cimport it.

from libc.stdint cimport uint32_t, uint64_t


cdef class Rng:
    cdef uint64_t _s0, _s1, _s2, _s3
    cdef uint64_t _next(self) noexcept
    cdef uint64_t _below(self, uint64_t n) noexcept


cdef uint32_t value_of(uint32_t mask) except? 0xFFFFFFFF
