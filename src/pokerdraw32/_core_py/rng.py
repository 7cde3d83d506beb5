"""Kernel 2 of the pure kernels: randomness (R11).

:class:`Rng`, the xoshiro256** generator behind every shuffle, and its SplitMix64 seeding.
Twin of ``src/_core_rng.pxi``. Re-exported by :mod:`pokerdraw32._core_py`, which the rest
imports; ``Rng.__module__`` is ``pokerdraw32._core_py`` (pickles name it there).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from .checks import _U64, _check_deck_mask, _is_int, _plain, _tuple_of


def _splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step: (new counter, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _U64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return x, z ^ (z >> 31)


class Rng:
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

    __slots__ = ("_s0", "_s1", "_s2", "_s3")

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            words: tuple[int, ...] = (0, 0, 0, 0)
            while not any(words):
                raw = os.urandom(32)
                words = tuple(int.from_bytes(raw[i : i + 8], "little") for i in range(0, 32, 8))
            self._s0, self._s1, self._s2, self._s3 = words
            return
        if not _is_int(seed):
            raise PokerDraw32TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        seed = _plain(seed)
        if seed < 0 or seed > _U64:
            raise PokerDraw32ValueError(f"seed must be in 0 <= seed < 2**64, got {seed}")
        x, self._s0 = _splitmix64(seed)
        x, self._s1 = _splitmix64(x)
        x, self._s2 = _splitmix64(x)
        x, self._s3 = _splitmix64(x)

    def spawn(self) -> Rng:
        """A new generator for another thread (or task), seeded with :meth:`next_u64` of
        this one: this one advances by one step; the same parent state gives the same child
        in both implementations.

        >>> parent = Rng(1)
        >>> children = [parent.spawn() for _ in range(4)]   # in the parent thread, one per worker
        >>> len({tuple(child.shuffled(0xFFFFFFFF)) for child in children})
        4
        """
        return type(self)(self.next_u64())

    def next_u64(self) -> int:
        """The next 64-bit output, ``0 <= value < 2**64`` (one xoshiro256** step)."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        r = (s1 * 5) & _U64
        result = (((r << 7) | (r >> 57)) * 9) & _U64
        t = (s1 << 17) & _U64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s0, self._s1, self._s2 = s0, s1, s2
        self._s3 = ((s3 << 45) & _U64) | (s3 >> 19)
        return result

    def below(self, n: int) -> int:
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
        shift = 64 - (n - 1).bit_length()
        while True:   # Rng's own next_u64, as compiled: a subclass's override is not called
            r = Rng.next_u64(self) >> shift
            if r < n:
                return r

    def shuffle(self, cards: list[Any]) -> None:
        """Shuffle a list in place, uniformly (Fisher-Yates, R11.1).

        For ``i`` from ``len(cards) - 1`` down to 1, swap items ``i`` and ``below(i + 1)``.
        The items can be anything.

        :raises TypeError: ``cards`` is not a list.
        """
        if not isinstance(cards, list):
            raise PokerDraw32TypeError(f"cards must be a list, not {type(cards).__name__}")
        # the hot path of every deal: below(i + 1) with next_u64 inlined, the state in locals
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        for i in range(len(cards) - 1, 0, -1):
            shift = 64 - i.bit_length()
            while True:
                r = (s1 * 5) & _U64
                r = ((((r << 7) | (r >> 57)) * 9) & _U64) >> shift
                t = (s1 << 17) & _U64
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = ((s3 << 45) & _U64) | (s3 >> 19)
                if r <= i:
                    break
            cards[i], cards[r] = cards[r], cards[i]
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, s3

    def shuffled(self, mask: int) -> list[int]:
        """The card codes of ``mask`` in a uniformly random order (the deck; R6.2 reshuffles).

        The codes are listed in ascending order, then shuffled as by :meth:`shuffle`.

        :param mask: 32-bit card mask (any number of cards, 0 to 32).
        :returns: a new list of card codes.
        :raises TypeError: ``mask`` is not an int.
        :raises ValueError: ``mask`` has bits outside 0..31.

        >>> sorted(Rng(1).shuffled(0b1011))
        [0, 1, 3]
        """
        mask = _check_deck_mask(mask, "deck mask")
        cards = [code for code in range(32) if mask >> code & 1]
        Rng.shuffle(self, cards)   # Rng's own, as compiled: a subclass's override is not called
        return cards

    def getstate(self) -> tuple[int, int, int, int]:
        """The 256-bit state as four 64-bit ints (for :meth:`setstate`)."""
        return (self._s0, self._s1, self._s2, self._s3)

    def setstate(self, state: Iterable[int]) -> None:
        """Restore a state returned by :meth:`getstate` (of either implementation).

        :param state: four ints ``0 <= w < 2**64``, not all zero.
        :raises TypeError: ``state`` is not iterable, or a word is not an int.
        :raises ValueError: not 4 words, a word out of range, or all words zero.
        """
        words = _tuple_of(state, "state")
        if len(words) != 4:
            raise PokerDraw32ValueError(f"state must have 4 words, got {len(words)}")
        plain = []
        for i, word in enumerate(words):
            if not _is_int(word):
                raise PokerDraw32TypeError(f"state word {i} must be an int, not {type(word).__name__}")
            word = _plain(word)
            plain.append(word)
            if word < 0 or word > _U64:
                raise PokerDraw32ValueError(f"state word {i} is outside 0 <= w < 2**64: {word}")
        if not any(plain):
            raise PokerDraw32ValueError("state must not be all zero")
        self._s0, self._s1, self._s2, self._s3 = plain

    def __setstate__(self, state: Iterable[int]) -> None:
        """Pickle support: same as :meth:`setstate`."""
        self.setstate(state)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy support: the class, a cheap seed, then the state."""
        return (type(self), (0,), self.getstate())

    def __copy__(self) -> Rng:
        """``copy.copy``: a generator of the same class in the same state (what :meth:`__reduce__`
        gives, without the pickle protocol's round trip: a hand's clone copies its generator)."""
        if type(self) is not Rng:    # a subclass: made as __reduce__ makes it
            made = type(self)(0)
            made.__setstate__(self.getstate())
            return made
        new = Rng.__new__(Rng)
        new._s0, new._s1, new._s2, new._s3 = self._s0, self._s1, self._s2, self._s3
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Rng:
        """``copy.deepcopy``: as :meth:`__copy__` (the state is four integers)."""
        return self.__copy__()

