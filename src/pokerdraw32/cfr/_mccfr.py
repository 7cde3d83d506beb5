# cython: boundscheck=False, wraparound=False, initializedcheck=False
"""The solver's heads-up game model and external-sampling MCCFR, in compiled code when extensions are on.

Written in Cython's pure-Python mode, as :mod:`pokerdraw32._handcore.state`: ``_mccfr.py`` with the
declarations of ``_mccfr.pxd``, compiled by setup.py as ``pokerdraw32.cfr._mccfr_c``, or this very
file as plain Python; :mod:`pokerdraw32.cfr._select` picks one, following
:data:`pokerdraw32._kernels.IMPLEMENTATION`.  Both do the same arithmetic in the same order on
64-bit integers and IEEE doubles (tests/test_cfr_solver.py asserts the tables equal bit for bit).

**The abstract game** (heads-up, no-limit or fixed-limit, RULES.md with the classic preset's options).  Player 0
is the small blind (the non-dealer, R4.3), player 1 the big blind (the button).  One row of
:data:`NF` 64-bit integers is a state (fields ``F_*`` below); a walk keeps one row per depth.

* Blinds R4.2/R4.5: the small blind posts ``min(sb, stack)``, the big blind ``min(bb, stack)``;
  ``L = bb`` (R3.3) whatever was posted.
* Betting R5/R7: actions are *slots*: ``0`` fold (only when owing: folding when a check is
  free is dominated and left out), ``1`` check or call (an all-in call when short), ``2`` Parole
  split (R8), ``3 .. 3+nb-1`` raise (bet) by the fractions of the pot in milli-pots
  ``fm[i]``: to ``cur + round_half_up(fm[i] * (pot + owe) / 1000)``, raised to the minimum
  raise (R3.4) and dropped when it reaches the stack or repeats the previous amount, and
  ``3+nb`` all-in.  At most ``cap`` raises a round (the abstraction's cap; blinds do not
  count).  A raise needs chips beyond the call and an opponent with chips behind (R5.5; with
  two players this also covers R3.5).  A round ends when every player not all-in has acted and
  matched the largest bet, or at most one player is not all-in and owes nothing (R5.3, R5.4);
  then the uncalled part of a bet goes back (R9.2).
* Fixed-limit (``Solver(..., fixed=True)``, R3.4): one raise slot ``3``, to the current bet
  plus ``L`` in the first round and ``2 L`` in the second (R7.2, even when it puts the player
  all-in); when the stack cannot make it, slot ``4``, the all-in for less, instead (heads-up an
  all-in player ends the raising, R5.5, so the half-bet rule of R3.5 never decides anything
  here).  ``cap`` is the rules' cap: at most ``cap`` bets and raises a round, the big blind
  counting as the first round's first bet (so ``cap - 1`` raises there).
* Draw R6: the small blind first (R6.1), all-in players too; slot ``k`` = draw ``k`` cards
  (0..4), the cards chosen by :func:`draw_discard`; replacements from the stub in order.
* Parole R8: slot 2 while no bet was made in the second round and every earlier action of the
  round was a split; two splits share the pot (each gets its chips back: utility 0).  A round
  with no actions makes no offer (R8.2).
* Showdown R9: the higher value wins (R2 with suit tie-break, so no ties; equal values split).

A row keeps each player's hand mask (``F_H0``, ``F_H1``) and its :func:`hand_index` (``F_I0``,
``F_I1``), set together: whoever writes a hand into a row writes both.

**Information sets**: the key is ``hist << 7 | bucket``: ``hist`` is ``1`` followed by one
hex digit per action slot taken so far (at most 14 actions: ``2 * cap + 6`` with ``cap <= 4``,
so it fits 57 bits), ``bucket`` (< 128) the acting player's card bucket: before and at the draw
the pre-draw bucket of their five cards, after it the post-draw bucket (imperfect recall).  The
history holds both players' draw counts (the draw slots), as the information set must.

**MCCFR** (Lanctot et al. 2009, external sampling) with **linear weighting** (Linear CFR, Brown &
Sandholm 2019: iteration ``t`` adds ``t`` times its regrets and its strategy): each iteration
walks once per player; chance (the shuffle) and the opponent's actions are sampled, every
action of the traverser is walked; the opponent's current strategy is added to its average.
"""

if __name__ == "pokerdraw32.cfr._mccfr_c":   # compiled (setup.py)
    import cython
else:
    from .._handcore import cython_shim as cython

from array import array

if not cython.compiled:   # the pure twin's atomic operations: a lock (compiled: C atomics of _mccfr.pxd)
    import threading

    _LOCK = threading.Lock()

    def _cas(a, i, old, new):
        """``a[i] := new`` if it is ``old`` (atomically: under a lock); whether it was."""
        with _LOCK:
            if a[i] == old:
                a[i] = new
                return True
            return False

    def _fetch_add(a, i, n):
        """``a[i] += n`` atomically; the value before."""
        with _LOCK:
            v = a[i]
            a[i] = v + n
            return v

if not cython.compiled:   # compiled, C enums and constants of _mccfr.pxd (same values)
    F_PHASE, F_ACTOR, F_C0, F_C1, F_BASE, F_INC, F_NRAISE, F_ACTED = 0, 1, 2, 3, 4, 5, 6, 7
    F_SPLITS, F_RACTS, F_FOLDED, F_HIST, F_NH, F_H0, F_H1, F_POS = 8, 9, 10, 11, 12, 13, 14, 15
    F_SHARED, F_D0, F_D1, F_I0, F_I1 = 16, 17, 18, 19, 20
    NF = 22
    PH_FIRST, PH_DRAW, PH_SECOND, PH_END = 1, 2, 3, 4
    MAXD = 40
    NSLOT = 16

M64 = 0xFFFFFFFFFFFFFFFF
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
INV53 = 1.0 / 9007199254740992.0
LOW32 = 0xFFFFFFFF
TWO32 = 0x100000000

_BINOM = [0] * 192   # C(n, k) at 6 * n + k, n < 32, k <= 5
for _n in range(32):
    for _k in range(6):
        _v = 1
        for _j in range(_k):
            _v = _v * (_n - _j) // (_j + 1)
        _BINOM[6 * _n + _k] = _v


def hand_index(mask):
    """The colex index of a 5-card mask (0 .. 201,375): ``sum(C(c_i, i + 1))`` over its cards
    ``c_0 < c_1 < ... < c_4`` (bit ``4 * rank + suit``, as the kernels)."""
    idx = 0
    i = 0
    for c in range(32):
        if mask >> c & 1:
            i += 1
            idx += _BINOM[6 * c + i]
    return idx


def draw_discard(mask, k, ruled):
    """The ``k`` cards thrown by the abstract action "draw ``k``" from the 5-card ``mask``, as a mask.

    Each card gets the priority ``1024 * kept + 64 * count + code``: ``kept`` is 1 unless the
    ``"rule"`` draw (``ruled``: :func:`pokerdraw32._kernels.rule_discard` of the hand) throws it,
    ``count`` how many cards of its rank the hand holds, ``code`` the card (``4 * rank + suit``);
    the ``k`` cards of lowest priority go.  So with ``k`` equal to the rule's count the rule's
    cards go; with fewer, the rule's highest throws are kept; with more, the kept cards go by
    fewest of a rank, then lowest.
    """
    out = 0
    one = 1
    for _ in range(k):
        best = -1
        best_key = 4096
        for c in range(32):
            if mask >> c & 1 and not out >> c & 1:
                key = (0 if ruled >> c & 1 else 1024) + 64 * _popcount4(mask >> (c & 28) & 15) + c
                if key < best_key:
                    best_key = key
                    best = c
        out |= one << best
    return out


def _popcount4(x):
    return (x & 1) + (x >> 1 & 1) + (x >> 2 & 1) + (x >> 3 & 1)


class Solver:
    """Tables of regrets and average strategies, the game's configuration and the walk.

    :param fm: the raise sizes in milli-pots (ints, ascending, at most 12; not used when ``fixed``).
    :param cap: most raises a betting round (1..4); with ``fixed``, the rules' cap (R3.4): most bets
        and raises a round, the big blind counting as the first round's first bet.
    :param parole: offer the split slot (R8).
    :param sb, bb, s0, s1: blinds and the two stacks in chips.
    :param pre, post: ``array('B')`` of 201,376 card buckets by :func:`hand_index` (< 128).
    :param val: ``array('I')`` hand values by index (showdown, R2).
    :param ruled: ``array('I')`` the rule's discard mask by index.
    :param seed: the walk's generator seed (a 64-bit integer).
    :param fixed: fixed-limit (R3.4): one raise slot, to the current bet plus ``bb`` in the first
        round and ``2 * bb`` in the second, and the all-in slot only when the stack cannot make it.

    :ivar t: iterations done (the weight of the iteration being walked, linear CFR).
    :ivar count: information sets.  :ivar used: values in the tables (both kept in :attr:`meta`,
        which the solvers of a shared run share).
    :ivar nodes: states the walks visited (terminal ones included).
    :ivar shared: the tables are shared with other solvers walking them in other threads
        (:meth:`run_shared`); set by the driver, never while a walk runs.
    :ivar lost: value blocks this solver reserved and left unused (a shared run's lost race:
        another thread inserted the same key at the same moment); zeros, never read.
    :ivar prune_after, prune_chips: negative-regret pruning (external sampling, as Pluribus): after
        ``prune_after`` iterations (0: never), 95% of the walks at iteration ``t`` skip the
        traverser's actions whose regret is below ``-prune_chips * t``, unless they end the hand.
    :ivar outcome: outcome sampling (:meth:`_walk_os`, exploration ``eps``, default 0.6) instead of
        external sampling (:meth:`_walk`); set before the first iteration.
    """

    def __init__(self, fm, cap, parole, sb, bb, s0, s1, pre, post, val, ruled, seed, fixed=False):
        self.fixed = fixed
        if fixed:
            fm = [0]                  # one raise slot (3), the fixed raise; the all-in (4) only when short
        self.nb = len(fm)
        self._fm_a = array("q", fm)
        self.fm = self._fm_a
        self.cap = cap
        self.parole = parole
        self.sb = sb
        self.bb = bb
        self.s0 = s0
        self.s1 = s1
        self.pre = pre
        self.post = post
        self.val = val
        self.ruled = ruled
        self.seed = seed & M64
        self.t = 0
        self.nodes = 0
        self.outcome = False
        self.eps = 0.6
        self.prune_after = 0
        self.prune_chips = 0.0
        self.pruning = False
        self._st_a = array("q", [0]) * (MAXD * NF)
        self.st = self._st_a
        self._amt_a = array("q", [0]) * (MAXD * NSLOT)
        self.amt = self._amt_a
        self._sc_a = array("d", [0.0]) * (MAXD * NSLOT * 2)
        self.sc = self._sc_a
        self._deck_a = array("q", [0]) * 32
        self.deck = self._deck_a
        self._meta_a = array("q", [0]) * 4    # count, used, the shared run's iteration tickets, spare
        self.meta = self._meta_a
        self.shared = False
        self.lost = 0
        self._set_tables(array("Q", [0]) * 1024, array("q", [0]) * 1024, array("d", [0.0]) * 8192,
                         array("d", [0.0]) * 8192)

    def _set_tables(self, keys, offs, reg, strat):
        self._keys_a = keys
        self.keys = keys
        self._offs_a = offs
        self.offs = offs
        self._reg_a = reg
        self.reg = reg
        self._strat_a = strat
        self.strat = strat
        self.mask = len(keys) - 1
        return 0

    @property
    def count(self):
        return self.meta[0]

    @count.setter
    def count(self, value):
        self.meta[0] = value

    @property
    def used(self):
        return self.meta[1]

    @used.setter
    def used(self, value):
        self.meta[1] = value

    def counters(self):
        """The ``array('q')`` of the shared counters: information sets, values used, the shared run's
        next iteration ticket, and a stop request (non-zero: :meth:`run_shared` returns 3)."""
        return self._meta_a

    def share(self, other):
        """Walk ``other``'s tables (the same arrays and counters; the game's configuration must be
        the same) with this solver's own rows, generator and iteration counter: one thread each."""
        self._set_tables(other._keys_a, other._offs_a, other._reg_a, other._strat_a)
        self._meta_a = other._meta_a
        self.meta = self._meta_a
        self.outcome = other.outcome
        self.eps = other.eps
        self.prune_after = other.prune_after
        self.prune_chips = other.prune_chips
        return 0

    def add(self, other, scale):
        """Add ``scale`` times ``other``'s regrets and strategy sums to this solver's, information set
        by information set, in ``other``'s slot order (deterministic), inserting the sets this one
        lacks (with the GIL; the same game configuration).  Returns the sets added.

        :raises ValueError: a set whose legal slots differ here (another game)."""
        m = len(other._keys_a)
        added = 0
        for i in range(m):
            key = other.keys[i]
            if key:
                packed = other.offs[i]
                n = 0
                for j in range(NSLOT):
                    if packed >> j & 1:
                        n += 1
                before = self.meta[0]
                off = self._find(key, n, packed & 0x3FFFF)
                if self.meta[0] == before and not self._same_slots(key, packed & 0x3FFFF):
                    raise ValueError(f"information set {key} has other legal slots here: another game")
                o = packed >> 18
                for j in range(n):
                    self.reg[off + j] += scale * other.reg[o + j]
                    self.strat[off + j] += scale * other.strat[o + j]
                added += 1
        return added

    def _same_slots(self, key, slots):
        h = ((key * GOLDEN) & M64) >> 20 & self.mask
        while self.keys[h] != key:
            h = (h + 1) & self.mask
        return (self.offs[h] & 0x3FFFF) == slots

    def tables(self):
        """``(keys, offsets, regrets, strategy sums)``: the arrays (``Q``, ``q``, ``d``, ``d``) as they are;
        an offset entry is ``offset << 18 | phase << 16 | legal slots mask`` (0 where the key is 0)."""
        return self._keys_a, self._offs_a, self._reg_a, self._strat_a

    def _grow(self, need):
        """More room (with the GIL): the hash map doubled when half full, the value arrays doubled
        until ``need`` more values fit.  Keys are re-inserted in slot order (deterministic)."""
        size = len(self._keys_a)
        if (self.meta[0] + 1) * 2 > size:
            size *= 2
        vsize = len(self._reg_a)
        while self.meta[1] + need > vsize:
            vsize *= 2
        self._resize(size, vsize)
        return 0

    def reserve(self, keys, values):
        """Room for a shared run (with the GIL, no walk running): the hash map doubled until at most
        half full and at least ``keys`` slots, the value arrays until at most half used and at least
        ``values`` long.  The solvers sharing the tables must :meth:`share` them again after."""
        size = len(self._keys_a)
        while (self.meta[0] + 1) * 2 > size or size < keys:
            size *= 2
        vsize = len(self._reg_a)
        while self.meta[1] * 2 > vsize or vsize < values:
            vsize *= 2
        self._resize(size, vsize)
        return 0

    def _resize(self, size, vsize):
        """The hash map at ``size`` slots (keys re-inserted in slot order: deterministic), the value
        arrays at ``vsize`` (both powers of two, neither smaller than now)."""
        if size != len(self._keys_a):
            keys = array("Q", [0]) * size
            offs = array("q", [0]) * size
            m = size - 1
            for i in range(len(self._keys_a)):
                key = self._keys_a[i]
                if key:
                    h = ((key * GOLDEN) & M64) >> 20 & m
                    while keys[h]:
                        h = (h + 1) & m
                    keys[h] = key
                    offs[h] = self._offs_a[i]
            self._set_tables(keys, offs, self._reg_a, self._strat_a)
        if vsize != len(self._reg_a):
            reg = array("d", [0.0]) * vsize
            strat = array("d", [0.0]) * vsize
            reg[:len(self._reg_a)] = self._reg_a
            strat[:len(self._strat_a)] = self._strat_a
            self._set_tables(self._keys_a, self._offs_a, reg, strat)
        return 0

    def _find(self, key, n, slots):
        """The offset of information set ``key``'s ``n`` values, made (zeros) if new; -2 on error.
        ``slots`` is ``phase << 16 | legal slots mask``: the map holds ``offset << 18 | slots``, kept
        for the strategy file (a player replays other stack depths, where a key can name another node)."""
        if self.shared:
            return self._find_shared(key, n, slots)
        h = ((key * GOLDEN) & M64) >> 20 & self.mask
        while True:
            k = self.keys[h]
            if k == key:
                return self.offs[h] >> 18
            if k == 0:
                break
            h = (h + 1) & self.mask
        if (self.meta[0] + 1) * 2 > self.mask + 1 or self.meta[1] + n > len(self.reg):
            self._grow(n)
            h = ((key * GOLDEN) & M64) >> 20 & self.mask
            while self.keys[h]:
                h = (h + 1) & self.mask
        off = self.meta[1]
        self.keys[h] = key
        self.offs[h] = off << 18 | slots
        self.meta[1] += n
        self.meta[0] += 1
        return off

    def _find_shared(self, key, n, slots):
        """:meth:`_find` on tables other threads insert into at the same time (never grown here):
        the values are reserved first (compare-and-swap on ``used``), then the key is claimed by a
        compare-and-swap of its empty slot, then its offset published (a reader that finds the key
        before waits for it: an offset entry is never 0).  -3 when the tables are full (the hard
        limits: 7/8 of the slots, or no room for ``n`` values): the caller abandons the walk."""
        h = ((key * GOLDEN) & M64) >> 20 & self.mask
        off = -1
        while True:
            k = self._load_key(h)
            if k == key:
                if off >= 0:
                    self.lost += 1         # another thread inserted it at the same moment
                o = self._load_off(h)
                while o == 0:              # being published by the thread that inserted it
                    o = self._load_off(h)
                return o >> 18
            if k == 0:
                if off < 0:
                    if self._load_meta(0) * 8 >= (self.mask + 1) * 7:
                        return -3
                    while True:
                        off = self._load_meta(1)
                        if off + n > len(self.reg):
                            return -3
                        if self._cas_meta(1, off, off + n):
                            break
                if self._cas_key(h, key):
                    self._store_off(h, off << 18 | slots)
                    self._add_meta(0, 1)
                    return off
                continue                   # the slot was just taken: look at it again
            h = (h + 1) & self.mask

    # -- atomic operations (C atomics compiled, a lock in the pure twin) ------------------------------

    def _load_key(self, h):
        if cython.compiled:
            return pd32_load_u64(cython.address(self.keys[h]))  # noqa: F821 -- _mccfr.pxd
        else:
            return self.keys[h]

    def _cas_key(self, h, key):
        if cython.compiled:
            return pd32_cas_u64(cython.address(self.keys[h]), 0, key)  # noqa: F821
        else:
            return _cas(self.keys, h, 0, key)

    def _load_off(self, h):
        if cython.compiled:
            return pd32_load_i64(cython.address(self.offs[h]))  # noqa: F821
        else:
            return self.offs[h]

    def _store_off(self, h, value):
        if cython.compiled:
            pd32_store_i64(cython.address(self.offs[h]), value)  # noqa: F821
        else:
            self.offs[h] = value

    def _load_meta(self, i):
        if cython.compiled:
            return pd32_load_i64(cython.address(self.meta[i]))  # noqa: F821
        else:
            return self.meta[i]

    def _cas_meta(self, i, old, value):
        if cython.compiled:
            return pd32_cas_i64(cython.address(self.meta[i]), old, value)  # noqa: F821
        else:
            return _cas(self.meta, i, old, value)

    def _add_meta(self, i, n):
        if cython.compiled:
            return pd32_add_i64(cython.address(self.meta[i]), n)  # noqa: F821
        else:
            return _fetch_add(self.meta, i, n)

    # -- the generator (splitmix64) -----------------------------------------------------------------

    def _next(self):
        self.seed = (self.seed + GOLDEN) & M64
        z = self.seed
        z = ((z ^ (z >> 30)) * MIX1) & M64
        z = ((z ^ (z >> 27)) * MIX2) & M64
        return z ^ (z >> 31)

    def _below(self, n):
        """Uniform in ``0 .. n-1`` (``n < 2**32``; Lemire's multiply-shift with rejection)."""
        m = (self._next() >> 32) * n
        low = m & LOW32
        if low < n:
            t = (TWO32 - n) % n
            while low < t:
                m = (self._next() >> 32) * n
                low = m & LOW32
        return m >> 32

    def shuffle(self):
        """A new deal: the 32 cards of :attr:`deck` in uniform order (Fisher-Yates)."""
        for i in range(32):
            self.deck[i] = i
        for i in range(31, 0, -1):
            j = self._below(i + 1)
            c = self.deck[i]
            self.deck[i] = self.deck[j]
            self.deck[j] = c
        return 0

    def set_deck(self, cards):
        """Put the 32 card codes ``cards`` (a permutation of 0..31) in :attr:`deck` (for tests and play)."""
        if sorted(cards) != list(range(32)):
            raise ValueError(f"a deck is a permutation of the 32 card codes, got {cards!r}")
        for i in range(32):
            self.deck[i] = cards[i]
        return 0

    def row(self, d):
        """Row ``d`` of the walk's states as a tuple of :data:`NF` ints (fields ``F_*``)."""
        return tuple([self.st[d * NF + i] for i in range(NF)])

    def set_row(self, d, values):
        """Row ``d`` := ``values`` (:data:`NF` ints, as :meth:`row` gives them)."""
        if len(values) != NF:
            raise ValueError(f"a row has {NF} fields, got {len(values)}")
        for i in range(NF):
            self.st[d * NF + i] = values[i]
        return 0

    def amount(self, d, slot):
        """The raise-to amount (round bet, chips) of raise ``slot`` in row ``d`` (after :meth:`legal`)."""
        return self.amt[d * NSLOT + slot]

    # -- the game -----------------------------------------------------------------------------------

    def start(self, d):
        """Row ``d``: a new hand dealt from :attr:`deck` (player 0's cards first, then 1's, then the stub)."""
        b = d * NF
        for i in range(NF):
            self.st[b + i] = 0
        h0 = 0
        h1 = 0
        one = 1
        for i in range(5):
            h0 |= one << self.deck[i]
            h1 |= one << self.deck[5 + i]
        self.st[b + F_H0] = h0
        self.st[b + F_H1] = h1
        self.st[b + F_I0] = hand_index(h0)
        self.st[b + F_I1] = hand_index(h1)
        self.st[b + F_POS] = 10
        self.st[b + F_HIST] = 1
        self.st[b + F_FOLDED] = -1
        self.st[b + F_D0] = -1
        self.st[b + F_D1] = -1
        self.st[b + F_C0] = min(self.sb, self.s0)
        self.st[b + F_C1] = min(self.bb, self.s1)
        self.st[b + F_INC] = self.bb
        self.st[b + F_PHASE] = PH_FIRST
        self.st[b + F_ACTOR] = 0
        if self._round_over(b):
            self._end_round(b)
        elif self.s0 == self.st[b + F_C0]:
            self.st[b + F_ACTOR] = 1
        return 0

    def _round_over(self, b):
        """Whether the betting round of row ``b`` is over (R5.3, R5.4)."""
        c0 = self.st[b + F_C0]
        c1 = self.st[b + F_C1]
        top = max(c0, c1)
        a0 = self.s0 == c0
        a1 = self.s1 == c1
        acted = self.st[b + F_ACTED]
        if (a0 or a1) and (a0 or c0 == top) and (a1 or c1 == top):
            return True       # at most one player can bet and owes nothing
        return (a0 or (acted & 1 and c0 == top)) and (a1 or (acted & 2 and c1 == top))

    def _end_round(self, b):
        """Row ``b`` after its betting round: the uncalled chips back (R9.2), then the draw or the end."""
        c0 = self.st[b + F_C0]
        c1 = self.st[b + F_C1]
        low = min(c0, c1)
        self.st[b + F_C0] = low
        self.st[b + F_C1] = low
        self.st[b + F_BASE] = low
        self.st[b + F_INC] = self.bb
        self.st[b + F_NRAISE] = 0
        self.st[b + F_ACTED] = 0
        self.st[b + F_SPLITS] = 0
        self.st[b + F_RACTS] = 0
        if self.st[b + F_PHASE] == PH_FIRST:
            self.st[b + F_PHASE] = PH_DRAW
            self.st[b + F_ACTOR] = 0
        else:
            self.st[b + F_PHASE] = PH_END
            self.st[b + F_ACTOR] = -1

    def legal(self, d):
        """The legal slots of row ``d`` as a bit mask; raise-to amounts (round bets, chips) in
        :attr:`amt` at ``NSLOT * d + slot``.  0 at the end of the hand."""
        b = d * NF
        phase = self.st[b + F_PHASE]
        if phase == PH_END:
            return 0
        if phase == PH_DRAW:
            return 31
        p = self.st[b + F_ACTOR]
        base = self.st[b + F_BASE]
        cp = self.st[b + F_C0 + p]
        co = self.st[b + F_C1 - p]
        sp = (self.s1 if p else self.s0) - cp
        so = (self.s0 if p else self.s1) - co
        owe = co - cp if co > cp else 0
        slots = 3 if owe > 0 else 2
        if (phase == PH_SECOND and self.parole and cp == base and co == base
                and self.st[b + F_SPLITS] == self.st[b + F_RACTS]):
            slots |= 4
        lim = self.cap
        if self.fixed and phase == PH_FIRST:
            lim -= 1                  # R3.4: the big blind is the first round's first bet
        if sp > owe and so > 0 and self.st[b + F_NRAISE] < lim:
            cur = max(cp, co) - base
            lo = cur + self.st[b + F_INC]
            hi = cp - base + sp
            pot = cp + co + owe
            last = -1
            a = d * NSLOT
            if self.fixed:            # R3.4: exactly one bet more (L, then 2 L); short: all-in (R3.5)
                to = cur + (self.bb if phase == PH_FIRST else 2 * self.bb)
                if to <= hi:          # (all-in for exactly the raise: still the raise)
                    slots |= 8
                    self.amt[a + 3] = to
                else:
                    slots |= 16
                    self.amt[a + 4] = hi
                return slots
            for i in range(self.nb):
                to = cur + (self.fm[i] * pot + 500) // 1000
                if to < lo:
                    to = lo
                if to >= hi:
                    break
                if to != last:
                    slots |= 1 << (3 + i)
                    self.amt[a + 3 + i] = to
                    last = to
            slots |= 1 << (3 + self.nb)
            self.amt[a + 3 + self.nb] = hi
        return slots

    def child(self, d, slot):
        """Row ``d + 1`` := row ``d`` after ``slot`` (legal: :meth:`legal` of row ``d`` was called)."""
        b = d * NF
        c = b + NF
        for i in range(NF):
            self.st[c + i] = self.st[b + i]
        self.st[c + F_HIST] = self.st[b + F_HIST] * 16 + slot
        self.st[c + F_NH] = self.st[b + F_NH] + 1
        p = self.st[b + F_ACTOR]
        if self.st[b + F_PHASE] == PH_DRAW:
            h = self.st[b + F_H0 + p]
            ruled = self.ruled[self.st[b + F_I0 + p]]
            out = draw_discard(h, slot, ruled)
            pos = self.st[b + F_POS]
            h &= ~out
            one = 1
            for i in range(slot):
                h |= one << self.deck[pos + i]
            self.st[c + F_H0 + p] = h
            self.st[c + F_I0 + p] = hand_index(h)
            self.st[c + F_POS] = pos + slot
            self.st[c + F_D0 + p] = slot
            if p == 0:
                self.st[c + F_ACTOR] = 1
            else:
                self.st[c + F_PHASE] = PH_SECOND
                self.st[c + F_ACTOR] = 0
                if self.s0 == self.st[c + F_C0] or self.s1 == self.st[c + F_C1]:
                    self.st[c + F_PHASE] = PH_END     # R5.4: no actions, no offer (R8.2)
                    self.st[c + F_ACTOR] = -1
            return 0
        self.st[c + F_RACTS] += 1
        self.st[c + F_ACTED] |= 1 << p
        cp = self.st[b + F_C0 + p]
        co = self.st[b + F_C1 - p]
        if slot == 0:
            self.st[c + F_FOLDED] = p
            self.st[c + F_PHASE] = PH_END
            self.st[c + F_ACTOR] = -1
            return 0
        if slot == 1:
            if co > cp:
                top = self.s1 if p else self.s0
                self.st[c + F_C0 + p] = co if co < top else top
        elif slot == 2:
            self.st[c + F_SPLITS] += 1
            if self.st[c + F_SPLITS] == 2:
                self.st[c + F_SHARED] = 1
                self.st[c + F_PHASE] = PH_END
                self.st[c + F_ACTOR] = -1
                return 0
        else:
            base = self.st[b + F_BASE]
            to = self.amt[d * NSLOT + slot]
            cur = max(cp, co) - base
            if to - cur >= self.st[b + F_INC]:
                self.st[c + F_INC] = to - cur
                self.st[c + F_ACTED] = 1 << p     # a full raise reopens the betting
            self.st[c + F_C0 + p] = base + to
            self.st[c + F_NRAISE] += 1
        if self._round_over(c):
            self._end_round(c)
        else:
            self.st[c + F_ACTOR] = 1 - p
        return 0

    def utility(self, d):
        """Player 0's net chips at the end of the hand in row ``d`` (player 1's is the opposite)."""
        b = d * NF
        folded = self.st[b + F_FOLDED]
        if folded == 0:
            return -self.st[b + F_C0]
        if folded == 1:
            return self.st[b + F_C1]
        if self.st[b + F_SHARED]:
            return 0
        v0 = self.val[self.st[b + F_I0]]
        v1 = self.val[self.st[b + F_I1]]
        if v0 > v1:
            return self.st[b + F_C1]
        if v0 < v1:
            return -self.st[b + F_C0]
        return 0

    def key(self, d):
        """The information set key of the player to act in row ``d`` (see the module's docstring)."""
        b = d * NF
        p = self.st[b + F_ACTOR]
        idx = self.st[b + F_I0 + p]
        bucket = self.post[idx] if self.st[b + F_PHASE] == PH_SECOND else self.pre[idx]
        hist = self.st[b + F_HIST]
        return hist << 7 | bucket

    # -- MCCFR ----------------------------------------------------------------------------------------

    def _match(self, off, n, sig):
        """Regret matching: the current strategy of the ``n`` actions whose regrets start at ``off``,
        written to ``sc[sig:sig + n]`` (positive regrets normalised; all uniform when none is)."""
        pos = 0.0
        for j in range(n):
            r = self.reg[off + j]      # read once (threads of a shared run write it meanwhile)
            self.sc[sig + j] = r
            if r > 0.0:
                pos += r
        for j in range(n):
            r = self.sc[sig + j]
            if pos > 0.0:
                self.sc[sig + j] = (r / pos) if r > 0.0 else 0.0
            else:
                self.sc[sig + j] = 1.0 / n

    def _walk(self, d, tr):
        """The traverser ``tr``'s sampled value of row ``d`` (external sampling, linear weights)."""
        b = d * NF
        self.nodes += 1
        if self.st[b + F_PHASE] == PH_END:
            u = self.utility(d)
            return (u if tr == 0 else -u) * 1.0
        slots = self.legal(d)
        n = 0
        for s in range(NSLOT):
            if slots >> s & 1:
                n += 1
        off = self._find(self.key(d), n, slots | self.st[b + F_PHASE] << 16)
        if off < 0:
            return -1.0e300
        sig = d * NSLOT * 2
        self._match(off, n, sig)
        w = self.t * 1.0
        if self.st[b + F_ACTOR] != tr:
            for j in range(n):
                self.strat[off + j] += w * self.sc[sig + j]
            u = (self._next() >> 11) * INV53
            j = 0
            acc = self.sc[sig]
            while u >= acc and j < n - 1:
                j += 1
                acc += self.sc[sig + j]
            k = -1
            for s in range(NSLOT):
                if slots >> s & 1:
                    k += 1
                    if k == j:
                        self.child(d, s)
                        return self._walk(d + 1, tr)
        value = 0.0
        j = 0
        skip = 0
        thr = 0.0
        if self.pruning:
            thr = -self.prune_chips * w
        for s in range(NSLOT):
            if slots >> s & 1:
                self.child(d, s)
                if self.pruning and self.reg[off + j] < thr and self.st[b + NF + F_PHASE] != PH_END:
                    skip |= 1 << j          # pruned: not walked, its regret left as it is
                    self.sc[sig + NSLOT + j] = 0.0
                else:
                    v = self._walk(d + 1, tr)
                    if v == -1.0e300:
                        return v
                    self.sc[sig + NSLOT + j] = v
                    value += self.sc[sig + j] * v
                j += 1
        for j in range(n):
            if not skip >> j & 1:
                self.reg[off + j] += w * (self.sc[sig + NSLOT + j] - value)
        return value

    def _walk_os(self, d, tr, my, opp, samp):
        """Outcome sampling (Lanctot et al. 2009, as OpenSpiel's ``outcome_sampling_mccfr``): one
        trajectory; the traverser samples ``eps``-uniform-mixed, the opponent on-policy; regrets
        weighted by ``opp / samp``, the opponent's average by ``opp * sigma / samp`` (simple
        averaging), both times ``t`` (linear weights).  Returns the sampled value estimate."""
        b = d * NF
        self.nodes += 1
        if self.st[b + F_PHASE] == PH_END:
            u = self.utility(d)
            return (u if tr == 0 else -u) * 1.0
        slots = self.legal(d)
        n = 0
        for s in range(NSLOT):
            if slots >> s & 1:
                n += 1
        off = self._find(self.key(d), n, slots | self.st[b + F_PHASE] << 16)
        if off < 0:
            return -1.0e300
        sig = d * NSLOT * 2
        self._match(off, n, sig)
        mine = self.st[b + F_ACTOR] == tr
        for j in range(n):
            if mine:
                self.sc[sig + NSLOT + j] = self.eps / n + (1.0 - self.eps) * self.sc[sig + j]
            else:
                self.sc[sig + NSLOT + j] = self.sc[sig + j]
        u = (self._next() >> 11) * INV53
        pick = -1
        last = 0
        acc = 0.0
        for j in range(n):
            q = self.sc[sig + NSLOT + j]
            if q > 0.0:
                last = j
                acc += q
                if pick < 0 and u < acc:
                    pick = j
        if pick < 0:
            pick = last
        k = -1
        for s in range(NSLOT):
            if slots >> s & 1:
                k += 1
                if k == pick:
                    self.child(d, s)
                    break
        sp = self.sc[sig + pick]
        q = self.sc[sig + NSLOT + pick]
        if mine:
            v = self._walk_os(d + 1, tr, my * sp, opp, samp * q)
        else:
            v = self._walk_os(d + 1, tr, my, opp * sp, samp * q)
        if v == -1.0e300:
            return v
        vj = v / q
        value = sp * vj
        w = self.t * 1.0
        if mine:
            c = w * opp / samp
            for j in range(n):
                if j == pick:
                    self.reg[off + j] += c * (vj - value)
                else:
                    self.reg[off + j] += c * (0.0 - value)
        else:
            c = w * opp / samp
            for j in range(n):
                self.strat[off + j] += c * self.sc[sig + j]
        return value

    def _prune_coin(self):
        """Whether the next external-sampling walk prunes (``pruning``): after ``prune_after``
        iterations (0: never; then the generator is not drawn from), with probability 0.95."""
        self.pruning = False
        if self.prune_after > 0 and self.t > self.prune_after and not self.outcome:
            self.pruning = (self._next() >> 11) * INV53 < 0.95
        return 0

    def run(self, iterations):
        """``iterations`` more iterations (each: one walk per player, each walk a new deal); compiled,
        without the GIL (taken back only to grow the tables).  Returns the iteration count."""
        with cython.nogil:
            for it in range(iterations):  # noqa: B007 (typed: a C loop)
                self.t += 1
                for tr in range(2):
                    self._prune_coin()
                    self.shuffle()
                    self.start(0)
                    if self.outcome:
                        self._walk_os(0, tr, 1.0, 1.0, 1.0)
                    else:
                        self._walk(0, tr)
        return self.t

    def run_shared(self, target):
        """Iterations on shared tables, one thread's part of a shared run (compiled: without the GIL).

        Each iteration takes the next ticket of the counter ``meta[2]`` (compare-and-swap) as its
        number ``t`` (its linear-CFR weight) while tickets are below ``target``.  Returns 0 when
        they are all taken, 1 when the tables passed their soft limit (hash map half full, value
        arrays 3/4 used: the driver grows them, every thread stopped, and starts again), 2 when a
        walk met the hard limit and was abandoned part-way (its updates so far stay), 3 when the
        stop counter (``meta[3]``, :meth:`counters`) was set."""
        status = 0
        with cython.nogil:
            while True:
                if self._load_meta(3):
                    status = 3
                    break
                if ((self._load_meta(0) + 1) * 2 > self.mask + 1
                        or self._load_meta(1) * 4 > len(self.reg) * 3):
                    status = 1
                    break
                t = self._load_meta(2)
                if t >= target:
                    break
                if not self._cas_meta(2, t, t + 1):
                    continue
                self.t = t + 1
                for tr in range(2):
                    self._prune_coin()
                    self.shuffle()
                    self.start(0)
                    v = self._walk_os(0, tr, 1.0, 1.0, 1.0) if self.outcome else self._walk(0, tr)
                    if v == -1.0e300:
                        status = 2
                        break
                if status:
                    break
        return status
