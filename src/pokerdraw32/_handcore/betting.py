"""The hand's core, its betting: ``BettingCore``, the betting rounds (R5, R7), the legal actions and
their bounds (R3.4, R3.5, R5.5, R6.3, R7.3), and an action applied (fold, check, call, bet, raise,
Parole's split and decline, R8; a timeout).

The second class of the hand's core (``DealCore`` <- ``BettingCore`` <- ``HandCore`` <- ``HandState``:
see :mod:`pokerdraw32._handcore.deal`); the hand's end (``_finish``, the showdown) is ``HandCore``'s
(:mod:`pokerdraw32._handcore.state`), which overrides it.  Written in Cython's pure-Python mode: setup.py
compiles it with ``_handcore/betting.pxd`` as ``pokerdraw32._handcore.betting_c``; otherwise this very file runs as
plain Python.
"""

if __name__ == "pokerdraw32._handcore.betting_c":   # compiled (setup.py); see _handcore/codes.py
    import cython
else:
    from . import cython_shim as cython

from ..cards import DECK
from ..errors import MAX_CHIPS, IllegalActionError, integer, shown

if cython.compiled:   # DealCore, the enums, bit, kind_set, make_legal, refill_legal: cimported in _handcore/betting.pxd
    from .codes_c import PHASES
else:
    from .codes import (
        A_BET,
        A_CALL,
        A_CHECK,
        A_DECLINE,
        A_DISCARD,
        A_FOLD,
        A_RAISE,
        A_SPLIT,
        A_TIMEOUT,
        E_BET,
        E_CALL,
        E_CHECK,
        E_DECLINE,
        E_FOLD,
        E_RAISE,
        E_RETURN_UNCALLED,
        E_ROUND_END,
        E_SPLIT,
        E_TIMEOUT,
        F_ALL_IN,
        F_FULL,
        F_R63,
        F_SECOND,
        FIXED_LIMIT,
        PH_COMPLETE,
        PH_DRAW,
        PH_FIRST,
        PH_SECOND,
        PHASES,
        POT_LIMIT,
        bit,
        kind_set,
        make_legal,
        refill_legal,
    )
    from .deal import DealCore


class BettingCore(DealCore):
    """A hand's betting rounds, legal actions and actions applied; :class:`pokerdraw32.hand.Hand` is
    the public class (see :mod:`pokerdraw32._handcore.deal` for the chain of classes)."""

    # ------------------------------------------------------------------ betting rounds
    def _start_round(self, phase):
        n = self._n
        self._phase = phase
        for i in range(n):
            self._acted[i] = False
            self._last_level[i] = 0
            self._acted_serial[i] = 0
        self._reopen_serial = 0
        self._aggressor = -1
        self._withdrawn = -1
        L = self._L
        if phase == PH_FIRST:
            # the largest blind is the first bet; the others owe it in full (R4.4, R4.5)
            self._to_match = L
            self._full_level = L
            self._raise_size = L
            self._bet_count = 1
            first = (self._blind_seat[self._nblind - 1] + 1) % n                  # R5.2
        else:
            for i in range(n):
                self._bets[i] = 0
            self._to_match = 0
            self._full_level = 0
            self._raise_size = self._unit_c()
            self._bet_count = 0
            if self._after_button:
                start = self._button + 1
            else:
                start = self._blind_seat[self._nblind - 1] + 1
            # R7.1: the first player still in the hand and not all-in opens; all-in players answer a
            # Parole offer when the rotation reaches their seat (R8.2)
            first = start % n
            for i in range(n):
                seat = (start + i) % n
                if self._active(seat):
                    first = seat
                    break
        self._offer_open = phase == PH_SECOND and self._parole and not self._no_actions()
        self._votes = 0
        self._voted = 0
        self._actor = -1
        self._advance(first, True)
        return 0

    def _unit_c(self):
        """Fixed-limit bet size, or the minimum bet/raise increment otherwise (R3.4, R7.2)."""
        if self._structure == FIXED_LIMIT and self._phase == PH_SECOND:
            return 2 * self._L
        return self._L

    def _no_actions(self):
        """R5.4: at most one player can still bet and that player owes nothing."""
        p = -1
        for i in range(self._n):
            if not self._folded[i] and self._stacks[i] > 0:
                if p >= 0:
                    return False
                p = i
        if p < 0:
            return True
        others = 0
        for i in range(self._n):
            if i != p and self._bets[i] > others:
                others = self._bets[i]
        return others <= self._bets[p]

    def _needs_to_act(self, seat):
        if self._folded[seat]:
            return False
        if self._stacks[seat] == 0:
            # an all-in player only answers the Parole offer (R8.2); one who timed out in the draw
            # may only check, call or fold (R6.3), so is not asked and counts as declining
            return self._offer_open and not (self._voted >> seat & 1) and not self._no_raise[seat]
        return not self._acted[seat] or self._bets[seat] < self._to_match

    def _advance(self, start, inclusive):
        """Find the next player to act from ``start``; end the round when nobody is left (R5.3)."""
        live = 0
        for i in range(self._n):
            if not self._folded[i]:
                live += 1
        if live == 1:
            self._finish(False)
            return 0
        if self._offer_open or not self._no_actions():
            for i in range(0 if inclusive else 1, self._n + 1):
                seat = (start + i) % self._n
                if self._needs_to_act(seat):
                    self._actor = seat
                    return 0
        self._actor = -1
        self._end_round()
        return 0

    def _return_uncalled(self):
        """R9.2: the part of the largest bet nobody matched goes back to its maker."""
        top = 0
        for i in range(1, self._n):
            if self._contrib[i] > self._contrib[top]:
                top = i
        second = -1
        for i in range(self._n):
            if i != top and self._contrib[i] > second:
                second = self._contrib[i]
        extra = self._contrib[top] - second
        if extra > 0:
            self._stacks[top] += extra
            self._contrib[top] -= extra
            self._bets[top] = max(0, self._bets[top] - extra)
            self._log(E_RETURN_UNCALLED, top, 0, extra + 1)
        return 0

    def _end_round(self):
        self._return_uncalled()
        self._log(E_ROUND_END, -1, F_SECOND if self._phase == PH_SECOND else 0, self._pot() + 1)
        if self._phase == PH_FIRST:
            self._start_draw()
        else:
            self._finish(True)
        return 0

    # ------------------------------------------------------------------ legality
    def _answerable_c(self, p):
        """R5.5: someone other than ``p``, still in the hand and not all-in, would have chips
        left after matching the current bet, so a bet or raise by ``p`` could be answered."""
        for i in range(self._n):
            if i != p and not self._folded[i] and self._stacks[i] > self._to_match - self._bets[i]:
                return True
        return False

    def _raise_bounds(self, p):
        """Sets ``_lo``/``_hi``, the total round bet of a bet or raise by ``p``; False when none
        is allowed (R3.4, R3.5)."""
        if self._withdrawn == p:
            return False                                  # R7.3
        if self._phase == PH_SECOND and self._no_raise[p]:
            return False                                  # R6.3
        if not self._answerable_c(p):
            return False                                  # R5.5: nobody could answer a raise
        if self._acted[p] and self._acted_serial[p] == self._reopen_serial \
                and self._to_match - self._last_level[p] < self._raise_size:
            return False                                  # R3.5: not reopened by a short all-in
        allin = self._bets[p] + self._stacks[p]
        if allin <= self._to_match:
            return False
        if self._structure == FIXED_LIMIT:
            if self._cap >= 0 and self._bet_count >= self._cap:
                return False                              # R3.4 cap
            target = self._full_level + self._unit_c()
            if target <= self._to_match:
                target = self._to_match + self._unit_c()
            target = min(target, allin)
            self._lo = target
            self._hi = target
            return True
        lo = self._to_match + self._raise_size if self._to_match else self._unit_c()
        hi = allin
        if self._structure == POT_LIMIT:
            # R3.4: raise by at most the pot after the player's call (the current bet plus the pot
            # with the call in it), but a minimum raise (never below L) stays possible when a
            # short blind (R4.5) leaves the pot smaller than that
            hi = min(hi, max(lo, 2 * self._to_match - self._bets[p] + self._pot()))
        self._lo = min(lo, hi)
        self._hi = hi
        return True

    def _unit(self):
        """The bet unit now (R3.4, R7.2), for Python (the refusal messages, tests)."""
        return self._unit_c()

    def _answerable(self, p):
        """R5.5 for seat ``p`` (see ``_answerable_c``), for Python (the refusal messages)."""
        return self._answerable_c(self._seat_index(p))

    def _seat_index(self, seat):
        """``seat`` checked as a seat of this hand, for the internal calls Python may make."""
        number = integer(seat)
        if number is None or not 0 <= number < self._n:
            raise IllegalActionError(f"no seat {shown(seat)} at this table (seats 0..{self._n - 1})")
        return number

    def _kinds(self, p):
        """The kinds bit mask (1 << action code) of the player to act ``p``; sets ``_call`` and,
        with BET or RAISE in it, ``_lo``/``_hi``.  Worked out once per decision point: every change
        of state logs a record, so the log's length identifies it (as for legal_actions())."""
        if self._kinds_key == self._nrec:
            return self._kinds_mask
        mask = self._kinds_now(p)
        self._kinds_mask = mask
        self._kinds_key = self._nrec
        return mask

    def _kinds_now(self, p):
        self._call = 0
        if self._phase == PH_DRAW:
            return 1 << A_DISCARD
        stack = self._stacks[p]
        if stack == 0:   # all-in player answering the Parole offer (R8.2)
            return 1 << A_SPLIT | 1 << A_DECLINE
        owe = self._to_match - self._bets[p]
        if owe > 0:
            mask = 1 << A_FOLD | 1 << A_CALL
            self._call = owe if owe < stack else stack
        else:
            mask = 1 << A_FOLD | 1 << A_CHECK
            if self._offer_open and not self._no_raise[p]:
                mask |= 1 << A_SPLIT
        if self._raise_bounds(p):
            mask |= 1 << A_RAISE if self._to_match else 1 << A_BET
        return mask

    def legal_actions(self):
        """What the player to act may do, or ``None`` when nobody is to act (hand over, or a deal
        pending with ``auto_deal=False``).

        Computed once per decision point: every change of state logs an event, so the length of
        the event log identifies the decision point.
        """
        if self._legal_key != self._nrec:
            made = self._compute_legal()
            if cython.compiled:   # the previous decision's object: the next one may be made in it
                self._spare_legal = self._legal if self._legal is not made else None
            self._legal = made
            self._legal_key = self._nrec
        return self._legal

    def _compute_legal(self):
        p = self._actor
        if p < 0 or self._pend_seat >= 0:
            return None
        deck = DECK
        if cython.compiled:
            # the seat's cards as Card objects, kept while they stay the same (key: the codes in order)
            key = self._hole_n[p]
            for j in range(self._hole_n[p]):
                key |= cython.cast(cython.longlong, self._hole[5 * p + j]) << (3 + 5 * j)
            if self._hole_keys[p] == key and self._hole_cache is not None:
                hole = self._hole_cache[p]
            else:
                hole = pd32_codes_cards(deck, cython.address(self._hole[5 * p]),  # noqa: F821 -- _handcore/codes.pxd
                                        self._hole_n[p])
                if self._hole_cache is None:
                    self._hole_cache = [None] * 5
                self._hole_cache[p] = hole
                self._hole_keys[p] = key
        else:   # plain Python: a slice of the list
            hole = tuple([deck[c] for c in self._hole[5 * p:5 * p + self._hole_n[p]]])
        mask = self._kinds(p)
        phases = PHASES
        phase = phases[self._phase]
        if cython.compiled:
            spare = self._spare_legal
            self._spare_legal = None
            if self._phase == PH_DRAW:
                return refill_legal(spare, p, phase, kind_set(mask), 0, None, None, 4, hole)
            if mask & (1 << A_BET | 1 << A_RAISE):
                return refill_legal(spare, p, phase, kind_set(mask), self._call, self._lo, self._hi, 0, hole)
            return refill_legal(spare, p, phase, kind_set(mask), self._call, None, None, 0, hole)
        if self._phase == PH_DRAW:
            return make_legal(p, phase, kind_set(mask), 0, None, None, 4, hole)
        if mask & (1 << A_BET | 1 << A_RAISE):
            return make_legal(p, phase, kind_set(mask), self._call, self._lo, self._hi, 0, hole)
        return make_legal(p, phase, kind_set(mask), self._call, None, None, 0, hole)

    def _ready(self, seat):
        """The seat to act when ``seat`` (None or the claimed seat) may act now, else -1."""
        p = self._actor
        if p < 0 or self._pend_seat >= 0 or self._phase == PH_COMPLETE:
            return -1
        if seat is not None:
            claimed = seat if type(seat) is int else integer(seat)   # a plain int is the common case
            if claimed is None or claimed != p:
                return -1
        return p

    def _allowed(self, p, code, amount, cards):
        """True when action ``code`` (amount for BET/RAISE: any object; the card word of the cards for
        DISCARD, -1 for more than four) is legal for the player to act ``p``; sets ``_call``."""
        self._kinds(p)
        if code == A_BET or code == A_RAISE:
            if type(amount) is not int and (isinstance(amount, bool) or not isinstance(amount, int)):
                return False
            if not 0 <= amount <= MAX_CHIPS:
                return False
            return self._legal_c(p, code, amount, 0)
        return self._legal_c(p, code, 0, cards)

    def _legal_c(self, p, code, amount, cards):
        """:meth:`_allowed` with a C amount (``amount``: the total round bet of a BET/RAISE, else 0)."""
        mask = self._kinds(p)
        if code == A_TIMEOUT:
            return True
        if not mask >> code & 1:
            return False
        if code == A_BET or code == A_RAISE:
            return self._lo <= amount <= self._hi
        if code == A_DISCARD:
            if cards < 0 or cards & 7 > 4:
                return False
            seen = 0
            for j in range(cards & 7):
                c = cards >> (3 + 6 * j) & 63
                held = False
                for i in range(self._hole_n[p]):
                    if self._hole[5 * p + i] == c:
                        held = True
                if not held or seen & bit(c):
                    return False
                seen |= bit(c)
        return True

    # ------------------------------------------------------------------ applying actions
    def _apply(self, p, code, amount, cards):
        """Apply action ``code`` of seat ``p``, legal (``_allowed``): ``amount`` the total round bet of
        a bet or raise (else 0), ``cards`` the card word of a discard (else 0)."""
        if code == A_TIMEOUT:
            self._timeout(p)
            return 0
        self._withdrawn = -1
        if code == A_DISCARD:
            self._discard(p, cards)
            return 0
        if code == A_FOLD:
            self._folded[p] = True
            for j in range(self._hole_n[p]):
                c = self._hole[5 * p + j]
                if self._reshuffle_folded and self._phase == PH_FIRST:
                    self._pile[self._pile_n] = c       # R6.2 option
                    self._pile_n += 1
                else:
                    self._muck[self._muck_n] = c
                    self._muck_n += 1
            self._hole_n[p] = 0
            self._choice[p] = -1                        # no cards left to show or muck (R9.3)
            self._withdraw_offer()
            self._log(E_FOLD, p, 0, 0)
        elif code == A_CHECK:
            self._withdraw_offer()
            self._mark_acted(p)
            self._log(E_CHECK, p, 0, 0)
        elif code == A_CALL:
            chips = self._call
            self._put(p, chips)
            self._mark_acted(p)
            self._log(E_CALL, p, F_ALL_IN if self._stacks[p] == 0 else 0, chips + 1)
        elif code == A_SPLIT:
            self._votes |= 1 << p
            if self._stacks[p] == 0:
                self._voted |= 1 << p
            else:
                self._mark_acted(p)
            self._log(E_SPLIT, p, 0, 0)
        elif code == A_DECLINE:
            self._voted |= 1 << p
            self._log(E_DECLINE, p, 0, 0)
        else:   # BET / RAISE
            self._raise(p, code, amount)
        self._advance(p, False)
        return 0

    def _mark_acted(self, p):
        self._acted[p] = True
        self._last_level[p] = self._to_match
        self._acted_serial[p] = self._reopen_serial

    def _withdraw_offer(self):
        if self._offer_open:
            self._offer_open = False
            self._votes = 0

    def _raise(self, p, code, to):
        self._withdraw_offer()
        inc = to - self._to_match
        unit = self._unit_c()
        if self._structure == FIXED_LIMIT:
            full = to >= self._full_level + unit or 2 * inc >= unit      # R3.5 fixed-limit half-bet rule
        elif self._to_match == 0:
            full = to >= unit
        else:
            full = inc >= self._raise_size
        self._put(p, to - self._bets[p])
        if full:
            if self._structure != FIXED_LIMIT:
                self._raise_size = max(self._raise_size, inc) if self._to_match else max(unit, to)
            self._full_level = to
            self._bet_count += 1
            self._reopen_serial += 1
        self._to_match = to
        self._aggressor = p
        self._mark_acted(p)
        self._log(E_BET if code == A_BET else E_RAISE, p,
                  (F_ALL_IN if self._stacks[p] == 0 else 0) | (F_FULL if full else 0), to + 1)
        return 0

    def _timeout(self, p):
        if self._phase == PH_DRAW:                                 # R6.3
            self._log(E_TIMEOUT, p, F_R63, 0)
            self._no_raise[p] = True
            self._withdrawn = -1
            self._discard(p, 0)
            return 0
        self._log(E_TIMEOUT, p, 0, 0)
        self._withdrawn = -1
        if self._stacks[p] == 0:
            self._apply(p, A_DECLINE, 0, 0)                     # an all-in voter who times out declines
        elif self._kinds(p) >> A_CHECK & 1:
            self._apply(p, A_CHECK, 0, 0)                       # R7.3
        else:
            self._apply(p, A_FOLD, 0, 0)
        return 0


    # ------------------------------------------------------------------ the class above
    def _finish(self, showdown):
        """The hand ends (R5.3, R9): ``HandCore._finish`` (pokerdraw32._handcore.state) overrides it; every hand
        is a HandCore."""
        with cython.gil:
            raise NotImplementedError("BettingCore._finish: a hand is a HandCore")
