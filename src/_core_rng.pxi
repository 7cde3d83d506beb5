# Kernel 2: randomness (R11)
#
# Part of pokerdraw32._core: src/_core.pyx includes this file (Cython `include`, textual),
# so it shares that module's imports, helpers and namespace; it is not compiled alone.

cdef inline uint64_t _splitmix64(uint64_t *x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef uint64_t *rng_state(object rng) noexcept:
    """The state of ``rng`` when it is exactly :class:`Rng` (whose draws are then this module's C
    functions), else NULL: a subclass may draw otherwise. Declared in _core.pxd for the hand's
    core and the sessions, which draw through it without the GIL."""
    if type(rng) is Rng:
        return (<Rng>rng)._s
    return NULL


cdef uint64_t rng_next(uint64_t *s) noexcept nogil:
    """The next 64-bit output of state ``s`` (:meth:`Rng.next_u64`)."""
    return _xoshiro_next(s)


cdef uint64_t rng_below(uint64_t *s, uint64_t n) noexcept nogil:
    """Uniform in [0, n) for 2 <= n <= 2**32 from state ``s``: bitmask rejection (:meth:`Rng.below`)."""
    cdef int shift = 64 - _bit_length64(n - 1)
    cdef uint64_t r
    while True:
        r = _xoshiro_next(s) >> shift
        if r < n:
            return r


cdef int rng_shuffled_into(uint64_t *s, uint32_t m, int *codes) noexcept nogil:
    """The cards of mask ``m`` in ascending order, shuffled as :meth:`Rng.shuffle` does, into
    ``codes`` (room for 32), from state ``s``; returns the number of cards (:meth:`Rng.shuffled`)."""
    cdef int n = 0, i, j, tmp
    while m:
        codes[n] = _ctz32(m)
        n += 1
        m &= m - 1
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(s, <uint64_t>(i + 1))
        tmp = codes[i]
        codes[i] = codes[j]
        codes[j] = tmp
    return n


cdef class Rng:
    """xoshiro256** 1.0 (Blackman & Vigna): the engine's source of randomness (R11).

    Both kernel implementations compute the same sequence bit for bit, so a seed
    reproduces a table whichever is in use, and :meth:`getstate` of one can be given to
    :meth:`setstate` of the other.

    :param seed: ``None`` (default) seeds from :func:`os.urandom` (R11.1); an int
        ``0 <= seed < 2**64`` seeds the 256-bit state with the first four outputs of
        SplitMix64 started at ``seed`` (the authors' recommended seeding).
    :raises TypeError: ``seed`` is not an int or None (bools are refused).
    :raises ValueError: ``seed`` is outside ``0 <= seed < 2**64``.

    Copies, deep copies and pickles carry the state (a pickle names the implementation's
    class, so it loads only where that implementation is available).

    A generator belongs to one thread. It has no lock: threads drawing from one generator
    at the same time can be handed the same numbers, hence the same decks (``deal_many``
    reads the state, releases the GIL and writes it back). Give each thread its own,
    derived in the parent thread with :meth:`spawn` (reproducible from the parent's seed)
    or seeded independently.

    A subclass may override methods: the other methods, :func:`deal_many` and
    :func:`equity_trials` still draw from the state as this class does, in both
    implementations (an overridden :meth:`shuffle` or :meth:`next_u64` changes neither
    :meth:`shuffled` nor :meth:`below`); :meth:`spawn` seeds the child with :meth:`next_u64`,
    overridden or not.

    >>> rng = Rng(7)
    >>> [rng.below(6) for _ in range(5)]
    [5, 2, 0, 0, 3]
    """

    # state: _s[4] (uint64_t), declared in _core.pxd

    def __init__(self, seed=None):
        cdef uint64_t x
        if seed is None:
            words = (0, 0, 0, 0)
            while not any(words):
                raw = os.urandom(32)
                words = tuple(int.from_bytes(raw[i : i + 8], "little") for i in range(0, 32, 8))
            self._s[0], self._s[1], self._s[2], self._s[3] = words
            return
        if not _is_int(seed):
            raise PokerDraw32TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        seed = _plain(seed)
        if seed < 0 or seed > 0xFFFFFFFFFFFFFFFF:
            raise PokerDraw32ValueError(f"seed must be in 0 <= seed < 2**64, got {seed}")
        x = seed
        self._s[0] = _splitmix64(&x)
        self._s[1] = _splitmix64(&x)
        self._s[2] = _splitmix64(&x)
        self._s[3] = _splitmix64(&x)

    cdef uint64_t _next(self) noexcept nogil:
        return _xoshiro_next(self._s)

    cdef uint64_t _below(self, uint64_t n) noexcept nogil:
        """Uniform in [0, n) for 2 <= n <= 2**32 (bitmask rejection)."""
        return rng_below(self._s, n)

    def spawn(self):
        """A new generator for another thread (or task), seeded with :meth:`next_u64` of
        this one: this one advances by one step; the same parent state gives the same child
        in both implementations.

        >>> parent = Rng(1)
        >>> children = [parent.spawn() for _ in range(4)]   # in the parent thread, one per worker
        >>> len({tuple(child.shuffled(0xFFFFFFFF)) for child in children})
        4
        """
        return type(self)(self.next_u64())

    def next_u64(self):
        """The next 64-bit output, ``0 <= value < 2**64`` (one xoshiro256** step)."""
        return self._next()

    def below(self, n):
        """A uniform random int in ``[0, n)``, without bias (R11.1).

        Bitmask rejection: with ``k`` the bit length of ``n - 1``, draw the top ``k`` bits
        of :meth:`next_u64` until they are below ``n`` (fewer than 2 draws on average).
        ``below(1)`` returns 0 without drawing.

        :param n: ``1 <= n <= 2**32``.
        :raises TypeError: ``n`` is not an int.
        :raises ValueError: ``n`` is out of range.
        """
        if not _is_int(n):
            raise PokerDraw32TypeError(f"n must be an int, not {type(n).__name__}")
        n = _plain(n)
        if n < 1 or n > 1 << 32:
            raise PokerDraw32ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
        if n == 1:
            return 0
        return self._below(<uint64_t>n)

    def shuffle(self, cards):
        """Shuffle a list in place, uniformly (Fisher-Yates, R11.1).

        For ``i`` from ``len(cards) - 1`` down to 1, swap items ``i`` and ``below(i + 1)``.
        The items can be anything.

        :raises TypeError: ``cards`` is not a list.
        """
        cdef Py_ssize_t i, j
        if not isinstance(cards, list):
            raise PokerDraw32TypeError(f"cards must be a list, not {type(cards).__name__}")
        cdef list items = <list>cards
        for i in range(len(items) - 1, 0, -1):
            j = <Py_ssize_t>self._below(<uint64_t>(i + 1))
            items[i], items[j] = items[j], items[i]

    def shuffled(self, mask):
        """The card codes of ``mask`` in a uniformly random order (the deck; R6.2 reshuffles).

        The codes are listed in ascending order, then shuffled as by :meth:`shuffle`.

        :param mask: 32-bit card mask (any number of cards, 0 to 32).
        :returns: a new list of card codes.
        :raises TypeError: ``mask`` is not an int.
        :raises ValueError: ``mask`` has bits outside 0..31.

        >>> sorted(Rng(1).shuffled(0b1011))
        [0, 1, 3]
        """
        cdef uint32_t m = _check_deck_mask(mask, "deck mask")
        cdef int codes[32]
        cdef int n = self._shuffled_into(m, codes), i
        return [codes[i] for i in range(n)]

    cdef int _shuffled_into(self, uint32_t m, int *codes) noexcept nogil:
        """:meth:`shuffled` into ``codes`` (room for 32); returns the number of cards."""
        return rng_shuffled_into(self._s, m, codes)

    def getstate(self):
        """The 256-bit state as four 64-bit ints (for :meth:`setstate`)."""
        return (self._s[0], self._s[1], self._s[2], self._s[3])

    def setstate(self, state):
        """Restore a state returned by :meth:`getstate` (of either implementation).

        :param state: four ints ``0 <= w < 2**64``, not all zero.
        :raises TypeError: ``state`` is not iterable, or a word is not an int.
        :raises ValueError: not 4 words, a word out of range, or all words zero.
        """
        cdef tuple words = _tuple_of(state, "state")
        if len(words) != 4:
            raise PokerDraw32ValueError(f"state must have 4 words, got {len(words)}")
        for i, word in enumerate(words):
            if not _is_int(word):
                raise PokerDraw32TypeError(f"state word {i} must be an int, not {type(word).__name__}")
            word = _plain(word)
            if word < 0 or word > 0xFFFFFFFFFFFFFFFF:
                raise PokerDraw32ValueError(f"state word {i} is outside 0 <= w < 2**64: {word}")
        if not any(words):
            raise PokerDraw32ValueError("state must not be all zero")
        self._s[0], self._s[1], self._s[2], self._s[3] = words

    def __setstate__(self, state):
        """Pickle support: same as :meth:`setstate`."""
        self.setstate(state)

    def __reduce__(self):
        """Pickle and copy support: the class, a cheap seed, then the state."""
        return (type(self), (0,), self.getstate())

    def __copy__(self):
        """``copy.copy``: a generator of the same class in the same state (what :meth:`__reduce__`
        gives, without the pickle protocol's round trip: a hand's clone copies its generator)."""
        cdef Rng new
        if type(self) is not Rng:    # a subclass: made as __reduce__ makes it
            new = type(self)(0)
            new.__setstate__(self.getstate())
            return new
        new = Rng.__new__(Rng)
        new._s[0], new._s[1], new._s[2], new._s[3] = self._s[0], self._s[1], self._s[2], self._s[3]
        return new

    def __deepcopy__(self, memo):
        """``copy.deepcopy``: as :meth:`__copy__` (the state is four integers)."""
        return self.__copy__()
