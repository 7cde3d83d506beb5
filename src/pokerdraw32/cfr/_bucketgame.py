# cython: boundscheck=False, wraparound=False, initializedcheck=False
"""The bucket game's chance tables and its best-response walk, in compiled code when extensions are on.

Cython pure-Python mode, as :mod:`pokerdraw32.cfr._mccfr`: ``_bucketgame.py`` with the declarations
of ``_bucketgame.pxd``, compiled by setup.py as ``pokerdraw32.cfr._bucketgame_c``, or this very file
as plain Python; :mod:`pokerdraw32.cfr._select` picks one.  Both do the same integer and IEEE double
operations in the same order (tests/test_cfr_exploit.py compares them).  The game itself is
described in :mod:`pokerdraw32.cfr.exploitability`; this module only counts and walks.

**Counting by inclusion-exclusion.**  A *subset* is a set of at most 4 of the 32 cards, numbered
``_SOFF[m] + sum(C(c_i, i + 1))`` (``m`` cards ``c_0 < ... < c_{m-1}``; 41,449 subsets in all).
:func:`subset_counts` counts, for each subset ``S`` and bucket ``b``, the hands of bucket ``b``
that hold ``S`` (``N_b(S)``).  Then

* the ordered pairs of disjoint hands (bucket ``a``, bucket ``b``) number
  ``sum_S (-1)^|S| N_a(S) N_b(S)`` over all subsets ``S`` of the 32 cards; the 5-card ones are
  the hands themselves (``-[a = b] * hands in a``): :func:`pair_counts`;
* the final hands ``K + N`` of a hand ``K + D`` that throws ``D`` (``|D| = k``) and draws ``N``
  from the 27 cards it has not held, by bucket ``p``, number
  ``sum_{T subset of D} (-1)^|T| N_p(K + T)`` (``T = D`` is the hand itself): :func:`draw_counts`.

So the tables are exact counts over the 201,376 hands (and their pairs or replacement sets),
computed from 31 subsets a hand instead of 80,730 opponents or 20,854 replacement sets.
"""

if __name__ == "pokerdraw32.cfr._bucketgame_c":   # compiled (setup.py)
    import cython
else:
    from .._handcore import cython_shim as cython

from array import array

if not cython.compiled:
    SUBSETS = 41449
    K_BET = 0
    K_DRAW = 1
    K_FIXED = 2
    K_SHOWDOWN = 3

_BIN = [0] * 192   # C(n, k) at 6 * n + k, n < 32, k <= 5
for _n in range(32):
    for _k in range(6):
        _v = 1
        for _j in range(_k):
            _v = _v * (_n - _j) // (_j + 1)
        _BIN[6 * _n + _k] = _v
_SOFF = [0, 1, 33, 529, 5489, 41449]   # the first subset number of each size 0..5


def _sub_index(cs, sub):
    """The number of the subset of the hand ``cs`` (5 cards, ascending) at positions ``sub`` (a 5-bit
    mask, at most 4 bits set)."""
    m = 0
    col = 0
    for j in range(5):
        if sub >> j & 1:
            m += 1
            col += _BIN[6 * cs[j] + m]
    return _SOFF[m] + col


def _sign(sub):
    """``(-1)^popcount(sub)`` for a 5-bit mask."""
    return -1 if ((sub & 1) + (sub >> 1 & 1) + (sub >> 2 & 1) + (sub >> 3 & 1) + (sub >> 4 & 1)) & 1 else 1


def subset_counts(buckets, nb, out):
    """Add to ``out`` (``array('I')`` of ``SUBSETS * nb``) one for each hand of bucket ``b`` at
    ``S * nb + b`` for each subset ``S`` of at most 4 of its cards (the empty one included).
    ``buckets``: ``array('B')`` of the 201,376 hands' buckets by hand index (< ``nb``)."""
    cs = array("q", [0]) * 5
    idx = 0
    for c4 in range(4, 32):
        cs[4] = c4
        for c3 in range(3, c4):
            cs[3] = c3
            for c2 in range(2, c3):
                cs[2] = c2
                for c1 in range(1, c2):
                    cs[1] = c1
                    for c0 in range(c1):
                        cs[0] = c0
                        b = buckets[idx]
                        for sub in range(31):
                            out[_sub_index(cs, sub) * nb + b] += 1
                        idx += 1
    return idx


def pair_counts(nsub, nb, out):
    """Add to ``out`` (``array('q')`` of ``nb * nb``) the ordered pairs of disjoint hands by bucket,
    ``a * nb + b``, from ``nsub`` (:func:`subset_counts`): ``sum_S (-1)^|S| N_a(S) N_b(S)``, the
    5-card subsets (the hands) giving ``-[a = b] N_a(empty)``."""
    for s in range(SUBSETS):
        sign = 1 if s < 1 or 33 <= s < 529 or s >= 5489 else -1
        for a in range(nb):
            x = nsub[s * nb + a]
            if x:
                for b in range(nb):
                    out[a * nb + b] += sign * x * nsub[s * nb + b]
    for a in range(nb):
        out[a * nb + a] -= nsub[a]
    return 0


def draw_counts(pre, post, ruled, nsub, npre, npost, lo, hi, out):
    """Add to ``out`` (``array('q')`` of ``npre * 5 * npost``) at ``(a * 5 + k) * npost + p``, for each
    hand of index ``lo <= i < hi`` in pre bucket ``a`` and each ``k`` = 0..4, the number of its
    replacement sets (``k`` of the 27 cards it does not hold) after which its hand is in post bucket
    ``p``, the ``k`` cards thrown as :func:`pokerdraw32.cfr._mccfr.draw_discard` throws them
    (lowest ``1024 * kept + 64 * count + code`` first).  ``nsub``: :func:`subset_counts` of ``post``."""
    cs = array("q", [0]) * 5
    pri = array("q", [0]) * 5
    order = array("q", [0]) * 5
    idx = 0
    for c4 in range(4, 32):
        cs[4] = c4
        for c3 in range(3, c4):
            cs[3] = c3
            for c2 in range(2, c3):
                cs[2] = c2
                for c1 in range(1, c2):
                    cs[1] = c1
                    for c0 in range(c1):
                        cs[0] = c0
                        if lo <= idx < hi:
                            _one_hand(cs, pri, order, pre[idx], post[idx], ruled[idx], nsub, npost, out)
                        idx += 1
    return 0


def _one_hand(cs, pri, order, a, own, ruled, nsub, npost, out):
    for j in range(5):
        c = cs[j]
        n = 0
        for i in range(5):
            if cs[i] >> 2 == c >> 2:
                n += 1
        pri[j] = (0 if ruled >> c & 1 else 1024) + 64 * n + c
        order[j] = j
    for j in range(1, 5):       # insertion sort of the positions by priority
        i = j
        while i > 0 and pri[order[i - 1]] > pri[order[i]]:
            t = order[i]
            order[i] = order[i - 1]
            order[i - 1] = t
            i -= 1
    dmask = 0
    for k in range(5):
        if k:
            dmask |= 1 << order[k - 1]
        row = (a * 5 + k) * npost
        t = dmask
        while True:             # every subset t of the thrown positions
            sub = (31 & ~dmask) | t
            sign = _sign(t)
            if sub == 31:
                out[row + own] += sign
            else:
                s = _sub_index(cs, sub) * npost
                for p in range(npost):
                    out[row + p] += sign * nsub[s + p]
            if t == 0:
                break
            t = (t - 1) & dmask
    return 0


def copy_rows(sig, probs, dst, src, cnt):
    """``sig[dst[i]:dst[i] + cnt[i]]`` := ``probs[src[i]:src[i] + cnt[i]]`` normalised (summed in
    order; all alike when the sum is 0), for each ``i``."""
    for i in range(len(dst)):
        n = cnt[i]
        total = 0.0
        for j in range(n):
            total += probs[src[i] + j]
        for j in range(n):
            if total > 0.0:
                sig[dst[i] + j] = probs[src[i] + j] / total
            else:
                sig[dst[i] + j] = 1.0 / n
    return 0


class Walker:
    """The best-response (or profile-value) walk of a public tree over buckets.

    The tree is flat, in arrays by node (``array('q')``): ``kind`` (``K_BET``, ``K_DRAW``,
    ``K_FIXED``: a fold or split, ``K_SHOWDOWN``), ``actor``, ``drawn`` (bit ``p``: player ``p``
    has drawn), ``kid0`` and ``nk`` (the children are ``kids[kid0 : kid0 + nk]``, in slot order;
    a draw node's child ``j`` draws ``j`` cards), ``soff`` (a decision node's probabilities start
    in ``sig``: bucket ``b``'s child ``j`` at ``soff + b * nk + j``), ``pay`` (chips: player 0's
    net at a fixed end, each player's contribution at a showdown).  Chance: ``pp`` the joint
    probability of the pre buckets ``(a, b)`` at ``a * npre + b`` (symmetric), ``tr`` the
    probability of post bucket ``p`` after bucket ``a`` draws ``k`` at ``(a * 5 + k) * npost + p``;
    at a showdown the higher post bucket wins, equal ones split.
    """

    def __init__(self, npre, npost, depth, kind, actor, drawn, kid0, nk, kids, soff, pay, pp, tr):
        self.npre = npre
        self.npost = npost
        self.S = npre * npost
        self.kind = kind
        self.actor = actor
        self.drawn = drawn
        self.kid0 = kid0
        self.nk = nk
        self.kids = kids
        self.soff = soff
        self.pay = pay
        self.pp = pp
        self.tr = tr
        self.sig = array("d", [0.0])
        self._sig_a = self.sig
        self._r_a = array("d", [0.0]) * ((depth + 2) * self.S)
        self.R = self._r_a
        self._v_a = array("d", [0.0]) * ((depth + 2) * self.S)
        self.V = self._v_a
        self._x_a = array("d", [0.0]) * self.S
        self.X = self._x_a
        self.resp = 0
        self.profile = False
        self.nodes = 0

    def run(self, sig, resp, profile):
        """Player ``resp``'s value (chips a hand) against the other's strategy in ``sig``: its best
        response (``profile`` false) or its own strategy in ``sig`` too (the profile's value)."""
        self._sig_a = sig
        self.sig = sig
        self.resp = resp
        self.profile = profile
        for i in range(self.npre):
            self.R[i] = 1.0
        self._walk(0, 0)
        total = 0.0
        for i in range(self.npre):
            total += self.V[i]
        return total

    def value(self, i):
        """The last run's value of the responder's pre bucket ``i`` at the root (chance included)."""
        return self.V[i]

    def _walk(self, n, d):
        """Fill ``V[d * S:]`` with the responder's values at node ``n`` given the opponent's reach
        in ``R[d * S:]`` (layouts: a player's states are its pre buckets until it draws, then
        ``pre * npost + post``)."""
        self.nodes += 1
        npre = self.npre
        npost = self.npost
        S = self.S
        r = self.resp
        ro = d * S
        nxt = ro + S
        dr = self.drawn[n]
        drawn_o = dr >> (1 - r) & 1
        drawn_r = dr >> r & 1
        no = S if drawn_o else npre
        nr = S if drawn_r else npre
        tot = 0.0
        for i in range(no):
            tot += self.R[ro + i]
        kind = self.kind[n]
        if tot == 0.0:
            for i in range(nr):
                self.V[ro + i] = 0.0
            return 0
        if kind == K_FIXED:
            u = (self.pay[n] if r == 0 else -self.pay[n]) * 1.0
            for a in range(npre):
                x = 0.0
                if drawn_o:
                    for p in range(npost):
                        x += self.R[ro + a * npost + p]
                else:
                    x = self.R[ro + a]
                self.X[a] = x
            for a in range(npre):
                x = 0.0
                for b in range(npre):
                    x += self.pp[a * npre + b] * self.X[b]
                if drawn_r:
                    for p in range(npost):
                        self.V[ro + a * npost + p] = u * x
                else:
                    self.V[ro + a] = u * x
            return 0
        if kind == K_SHOWDOWN:
            c = self.pay[n] * 1.0
            for b in range(npre):
                total = 0.0
                for p in range(npost):
                    total += self.R[ro + b * npost + p]
                below = 0.0
                for p in range(npost):
                    eq = self.R[ro + b * npost + p]
                    self.X[b * npost + p] = c * (below - (total - below - eq))
                    below += eq
            for a in range(npre):
                for p in range(npost):
                    x = 0.0
                    for b in range(npre):
                        x += self.pp[a * npre + b] * self.X[b * npost + p]
                    self.V[ro + a * npost + p] = x
            return 0
        nk = self.nk[n]
        k0 = self.kid0[n]
        so = self.soff[n]
        if self.actor[n] != r:
            for i in range(nr):
                self.V[ro + i] = 0.0
            for j in range(nk):
                if kind == K_DRAW:
                    for a in range(npre):
                        x = self.R[ro + a] * self.sig[so + a * nk + j]
                        for p in range(npost):
                            self.R[nxt + a * npost + p] = x * self.tr[(a * 5 + j) * npost + p]
                elif drawn_o:
                    for i in range(S):
                        self.R[nxt + i] = self.R[ro + i] * self.sig[so + (i % npost) * nk + j]
                else:
                    for a in range(npre):
                        self.R[nxt + a] = self.R[ro + a] * self.sig[so + a * nk + j]
                self._walk(self.kids[k0 + j], d + 1)
                for i in range(nr):
                    self.V[ro + i] += self.V[nxt + i]
            return 0
        for j in range(nk):
            for i in range(no):
                self.R[nxt + i] = self.R[ro + i]
            self._walk(self.kids[k0 + j], d + 1)
            for i in range(nr):
                if kind == K_DRAW:
                    w = 0.0
                    for p in range(npost):
                        w += self.tr[(i * 5 + j) * npost + p] * self.V[nxt + i * npost + p]
                    b = i
                else:
                    w = self.V[nxt + i]
                    b = i % npost if drawn_r else i
                if self.profile:
                    if j == 0:
                        self.V[ro + i] = 0.0
                    self.V[ro + i] += self.sig[so + b * nk + j] * w
                elif j == 0 or w > self.V[ro + i]:
                    self.V[ro + i] = w
        return 0
