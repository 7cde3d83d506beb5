# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Variant A: the betting-round slice as an idiomatic hand-written cdef class (twin of slice_pure.py)."""

cdef enum:
    FOLD = 0
    CHECK = 1
    CALL = 2
    BET = 3
    RAISE = 4
    NO_LIMIT = 0
    POT_LIMIT = 1
    FIXED_LIMIT = 2
    FIRST_ROUND = 1
    SECOND_ROUND = 2
    ROUND_OVER = 3
    WON = 4
    EV_POST = 1
    EV_FOLD = 2
    EV_CHECK = 3
    EV_CALL = 4
    EV_BET = 5
    EV_RAISE = 6
    EV_RETURN = 7
    EV_ROUND_END = 8
    EV_WON = 9
    LOGCAP = 1024
    OK = 0
    E_NO_ACTOR = 1
    E_KIND = 2
    E_AMOUNT = 3


cimport cython


@cython.final
cdef class Round:
    cdef readonly int n, actor, phase, aggressor, log_len
    cdef public int structure, cap, bet_count, reopen_serial, legal_key, l_kinds
    cdef public long long to_match, raise_size, full_level, largest, dead, l_call, l_lo, l_hi
    cdef long long stacks[5]
    cdef long long bets[5]
    cdef long long contrib[5]
    cdef bint folded[5]
    cdef bint acted[5]
    cdef int acted_serial[5]
    cdef long long last_level[5]
    cdef long long log[LOGCAP]

    def __init__(self, stacks, int structure=0, int cap=4, long long sb=1, long long bb=2, long long ob=0,
                 bint second=False, long long dead=0):
        cdef int n = len(stacks), i
        if not 2 <= n <= 5:
            raise ValueError("2 to 5 seats")
        for i in range(n):
            self.stacks[i] = stacks[i]
        self._setup(n, structure, cap, sb, bb, ob, second, dead)

    cdef void _setup(self, int n, int structure, int cap, long long sb, long long bb, long long ob,
                     bint second, long long dead) noexcept:
        cdef int i, first, k
        self.n = n
        self.structure = structure
        self.cap = cap
        self.dead = dead
        self.log_len = 0
        self.legal_key = -1
        self.aggressor = -1
        for i in range(5):
            self.bets[i] = 0
            self.contrib[i] = 0
            self.folded[i] = False
            self.acted[i] = False
            self.acted_serial[i] = 0
            self.last_level[i] = 0
            if i >= n:
                self.stacks[i] = 0
        self.reopen_serial = 0
        self.largest = ob if ob else bb
        if second:
            self.phase = SECOND_ROUND
            self.to_match = 0
            self.full_level = 0
            self.raise_size = self._unit()
            self.bet_count = 0
            first = 0
            for i in range(n):
                if not self.folded[i] and self.stacks[i] > 0:
                    first = i
                    break
        else:
            self.phase = FIRST_ROUND
            self._post(0, sb)
            self._post(1, bb)
            k = 2
            if ob and n >= 4:
                self._post(2, ob)
                k = 3
            self.to_match = self.largest
            self.full_level = self.largest
            self.raise_size = self.largest
            self.bet_count = 1
            first = k % n
        self.actor = -1
        self._advance(first, True)

    cdef void _post(self, int seat, long long amount) noexcept:
        cdef long long paid = amount if amount < self.stacks[seat] else self.stacks[seat]
        self._put(seat, paid)
        self._log(EV_POST, seat, paid)

    cdef inline void _log(self, int kind, int seat, long long amount) noexcept:
        if self.log_len < LOGCAP:
            self.log[self.log_len] = kind | (seat + 1) << 4 | amount << 8
        self.log_len += 1

    cdef inline void _put(self, int seat, long long chips) noexcept:
        self.stacks[seat] -= chips
        self.bets[seat] += chips
        self.contrib[seat] += chips

    cdef long long _pot(self) noexcept:
        cdef int i
        cdef long long total = self.dead
        for i in range(self.n):
            total += self.contrib[i]
        return total

    cdef long long _unit(self) noexcept:
        if self.structure == FIXED_LIMIT and self.phase == SECOND_ROUND:
            return 2 * self.largest
        return self.largest

    cdef bint _no_actions(self) noexcept:
        cdef int i, p = -1
        cdef long long others = 0
        for i in range(self.n):
            if not self.folded[i] and self.stacks[i] > 0:
                if p >= 0:
                    return False
                p = i
        if p < 0:
            return True
        for i in range(self.n):
            if i != p and self.bets[i] > others:
                others = self.bets[i]
        return others <= self.bets[p]

    cdef bint _needs_to_act(self, int seat) noexcept:
        if self.folded[seat]:
            return False
        if self.stacks[seat] == 0:
            return False
        return not self.acted[seat] or self.bets[seat] < self.to_match

    cdef void _advance(self, int start, bint inclusive) noexcept:
        cdef int i, seat, live = 0
        for i in range(self.n):
            if not self.folded[i]:
                live += 1
        if live == 1:
            self.actor = -1
            self._return_uncalled()
            self.phase = WON
            self._log(EV_WON, -1, self._pot())
            return
        if not self._no_actions():
            for i in range(0 if inclusive else 1, self.n + 1):
                seat = (start + i) % self.n
                if self._needs_to_act(seat):
                    self.actor = seat
                    return
        self.actor = -1
        self._return_uncalled()
        self.phase = ROUND_OVER
        self._log(EV_ROUND_END, -1, self._pot())

    cdef void _return_uncalled(self) noexcept:
        cdef int i, top = 0
        cdef long long second = 0, extra
        for i in range(1, self.n):
            if self.contrib[i] > self.contrib[top]:
                top = i
        for i in range(self.n):
            if i != top and self.contrib[i] > second:
                second = self.contrib[i]
        extra = self.contrib[top] - second
        if extra > 0:
            self.stacks[top] += extra
            self.contrib[top] -= extra
            self.bets[top] = self.bets[top] - extra if self.bets[top] > extra else 0
            self._log(EV_RETURN, top, extra)

    cdef bint _answerable(self, int p) noexcept:
        cdef int i
        for i in range(self.n):
            if i != p and not self.folded[i] and self.stacks[i] > self.to_match - self.bets[i]:
                return True
        return False

    cdef bint _raise_bounds(self, int p) noexcept:
        cdef long long allin, target, lo, hi, pot_max
        if not self._answerable(p):
            return False
        if self.acted[p] and self.acted_serial[p] == self.reopen_serial \
                and self.to_match - self.last_level[p] < self.raise_size:
            return False
        allin = self.bets[p] + self.stacks[p]
        if allin <= self.to_match:
            return False
        if self.structure == FIXED_LIMIT:
            if self.cap and self.bet_count >= self.cap:
                return False
            target = self.full_level + self._unit()
            if target <= self.to_match:
                target = self.to_match + self._unit()
            if target > allin:
                target = allin
            self.l_lo = target
            self.l_hi = target
            return True
        lo = self.to_match + self.raise_size if self.to_match else self._unit()
        hi = allin
        if self.structure == POT_LIMIT:
            pot_max = 2 * self.to_match - self.bets[p] + self._pot()
            if lo > pot_max:
                pot_max = lo
            if pot_max < hi:
                hi = pot_max
        if hi < lo:
            lo = hi
        self.l_lo = lo
        self.l_hi = hi
        return True

    cdef void _compute_legal(self) noexcept:
        cdef int p, kinds
        cdef long long stack, owe
        if self.legal_key == self.log_len:
            return
        self.legal_key = self.log_len
        p = self.actor
        self.l_lo = -1
        self.l_hi = -1
        if p < 0:
            self.l_kinds = 0
            self.l_call = 0
            return
        stack = self.stacks[p]
        owe = self.to_match - self.bets[p]
        if owe > 0:
            kinds = 1 << FOLD | 1 << CALL
            self.l_call = owe if owe < stack else stack
        else:
            kinds = 1 << FOLD | 1 << CHECK
            self.l_call = 0
        if self._raise_bounds(p):
            kinds |= 1 << RAISE if self.to_match else 1 << BET
        self.l_kinds = kinds

    def legal_actions(self):
        if self.actor < 0:
            return None
        self._compute_legal()
        return (self.actor, self.l_kinds, self.l_call, self.l_lo, self.l_hi)

    cpdef int act(self, int kind, long long amount) noexcept:
        cdef int p
        cdef long long chips
        if self.actor < 0:
            return E_NO_ACTOR
        self._compute_legal()
        if kind < 0 or kind > RAISE or not (self.l_kinds >> kind & 1):
            return E_KIND
        p = self.actor
        if kind == BET or kind == RAISE:
            if amount < self.l_lo or amount > self.l_hi:
                return E_AMOUNT
            self._raise(p, kind, amount)
        elif kind == FOLD:
            self.folded[p] = True
            self._log(EV_FOLD, p, 0)
        elif kind == CHECK:
            self._mark_acted(p)
            self._log(EV_CHECK, p, 0)
        else:
            chips = self.l_call
            self._put(p, chips)
            self._mark_acted(p)
            self._log(EV_CALL, p, chips)
        self._advance(p, False)
        return OK

    cdef inline void _mark_acted(self, int p) noexcept:
        self.acted[p] = True
        self.last_level[p] = self.to_match
        self.acted_serial[p] = self.reopen_serial

    cdef void _raise(self, int p, int kind, long long to) noexcept:
        cdef long long inc = to - self.to_match
        cdef long long unit = self._unit()
        cdef bint full
        if self.structure == FIXED_LIMIT:
            full = to >= self.full_level + unit or 2 * inc >= unit
        elif self.to_match == 0:
            full = to >= unit
        else:
            full = inc >= self.raise_size
        self._put(p, to - self.bets[p])
        if full:
            if self.structure != FIXED_LIMIT:
                if self.to_match:
                    if inc > self.raise_size:
                        self.raise_size = inc
                else:
                    self.raise_size = unit if unit > to else to
            self.full_level = to
            self.bet_count += 1
            self.reopen_serial += 1
        self.to_match = to
        self.aggressor = p
        self._mark_acted(p)
        self._log(EV_BET if kind == BET else EV_RAISE, p, to)

    def state(self):
        cdef int i, n = self.n
        return (n, [self.stacks[i] for i in range(n)], [self.bets[i] for i in range(n)],
                [self.contrib[i] for i in range(n)], [bool(self.folded[i]) for i in range(n)],
                [bool(self.acted[i]) for i in range(n)], [self.acted_serial[i] for i in range(n)],
                [self.last_level[i] for i in range(n)], self.to_match, self.raise_size, self.full_level,
                self.bet_count, self.reopen_serial, self.actor, self.phase, self.aggressor, self.log_len,
                [self.log[i] for i in range(min(self.log_len, LOGCAP))])


cdef inline long long _lcg(long long x) noexcept:
    return (x * 1103515245 + 12345) & 0x7FFFFFFF


cpdef long long play(int rounds, long long seed, int policy) except? -1:
    cdef Round r = Round([1, 1])
    cdef long long x = seed & 0x7FFFFFFF, check = 0, sb, bb, ob, amount
    cdef int k, n, i, structure, second, kinds, kind
    for k in range(rounds):
        x = _lcg(x)
        n = 2 + x % 4
        x = _lcg(x)
        structure = x % 3
        x = _lcg(x)
        second = x % 2
        x = _lcg(x)
        sb = 1 + x % 5
        bb = 2 * sb
        x = _lcg(x)
        ob = 2 * bb if x % 2 else 0
        for i in range(n):
            x = _lcg(x)
            r.stacks[i] = 1 + x % (60 * bb)
        x = _lcg(x)
        r._setup(n, structure, 4 if x % 4 else 0, sb, bb, ob, second, 0 if not second else x % 50)
        while r.actor >= 0:
            r._compute_legal()
            kinds = r.l_kinds
            if policy == 0:
                kind = CHECK if kinds >> CHECK & 1 else CALL
                amount = 0
            else:
                x = _lcg(x)
                kind = x % 5
                while not (kinds >> kind & 1):
                    kind = (kind + 1) % 5
                amount = 0
                if kind == BET or kind == RAISE:
                    x = _lcg(x)
                    amount = r.l_lo + x % (r.l_hi - r.l_lo + 1)
            if r.act(kind, amount) != OK:
                raise AssertionError("refused")
        for i in range(n):
            check = (check * 31 + r.stacks[i] * 7 + r.contrib[i]) & 0xFFFFFFFFFFFF
        check = (check * 31 + r.log_len * 3 + r.phase) & 0xFFFFFFFFFFFF
    return check
