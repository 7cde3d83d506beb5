# The C-level interface of pokerdraw32._core for other compiled modules of the package
# (pokerdraw32._handcore.play_c and the hand's core, _codes_c, _deal_c and _state_c, cimport it: the generator, the
# evaluator and the pots).
# Cython reads this file when it compiles src/_core.pyx (every name here must agree with it);
# setup.py copies it to build/cython-src/pokerdraw32/_core.pxd for the modules that cimport it.

from libc.stdint cimport uint32_t, uint64_t


cdef class Rng:
    cdef uint64_t _s[4]
    cdef uint64_t _next(self) noexcept nogil
    cdef uint64_t _below(self, uint64_t n) noexcept nogil
    cdef int _shuffled_into(self, uint32_t m, int *codes) noexcept nogil


# the generator's draws on its state (Rng._s), without the GIL; rng_state(rng) is NULL unless
# rng is exactly an Rng (a subclass may draw otherwise)
cdef uint64_t *rng_state(object rng) noexcept
cdef uint64_t rng_next(uint64_t *s) noexcept nogil
cdef uint64_t rng_below(uint64_t *s, uint64_t n) noexcept nogil
cdef int rng_shuffled_into(uint64_t *s, uint32_t m, int *codes) noexcept nogil


cdef uint32_t value_of(uint32_t mask) except? 0xFFFFFFFF nogil

cdef int split_pots_c(int n, long long *chips, const long long *strength, uint32_t live_m, uint32_t sharers_m,
                      int first_seat, long long dead_chips, int *top_out, long long *returned_top,
                      long long *won, long long *amounts, uint32_t *eligibles, uint32_t *winners_out,
                      bint *shared_out) noexcept nogil
