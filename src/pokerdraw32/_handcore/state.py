"""The hand state machine's core: state in C-level fields, the rules R3-R9 (one statement each).

Written in Cython's pure-Python mode: ``_handcore/state.py`` with the declarations of ``_handcore/state.pxd``.
With extensions on, setup.py compiles it as ``pokerdraw32._handcore.state_c`` (C arrays, C integers,
``cdef`` methods); otherwise, and with ``POKERDRAW32_NO_EXTENSIONS=1``, this very file runs as
plain Python (the arrays are lists).  :mod:`pokerdraw32._kernels` alone picks which one
:class:`pokerdraw32.hand.Hand` is built on.  The public API, its checks and messages, views,
snapshots and histories are :class:`pokerdraw32.hand.Hand`'s; the hand's core holds what a hand
*is* and how it changes, in four modules, one concern each:

* :mod:`pokerdraw32._handcore.codes`: the codes (phases, actions, events, record flags), events and legal
  actions built from them, a log record decoded, the rules as C values, a hand's arguments checked;
* :mod:`pokerdraw32._handcore.deal`: ``DealCore``, every C field, the set-up, the log, the stub, dealing and
  the draw (R5.1, R6, R11.1);
* :mod:`pokerdraw32._handcore.betting`: ``BettingCore(DealCore)``, the betting rounds, legality and the
  actions applied (R3.4, R3.5, R5, R7, R8);
* this module: ``HandCore(BettingCore)``, the public actions, the end of the hand, Parole's split
  of the pot and the showdown (R5.3, R8.3, R9).

The modules above import ``HandCore`` from here and the codes from :mod:`pokerdraw32._handcore.codes`.

Compiled, the four are one C object (a chain of ``cdef`` classes, each in its own extension module,
declared in the ``.pxd`` files); :class:`pokerdraw32._handcore.state_view.HandState` extends ``HandCore``.

Cards are codes 0..31 (:data:`pokerdraw32.cards.DECK`); seats 0..n-1; chips are integers
(at most :data:`pokerdraw32.errors.MAX_CHIPS`, so every sum fits 64 bits).  The log is a
compact record of two integers an event (see :mod:`pokerdraw32._handcore.events`, which turns records
into :class:`~pokerdraw32.actions.Event` objects on request).
"""

if __name__ == "pokerdraw32._handcore.state_c":   # compiled (setup.py): Cython reads this import at compile time
    import cython
else:                                     # this file as plain Python: only cython.compiled is read, so
    from . import cython_shim as cython  # the Cython package is not imported (nor needed) at run time

from ..actions import Action
from ..errors import MAX_CHIPS, IllegalActionError, shown
from ..rules import Rules

if cython.compiled:   # BettingCore, the enums, bit, discard_word; Rng, value_of, split_pots_c: cimported in state.pxd
    from .._core import evaluate_mask, split_pots
    from .codes_c import ACTION_CODES, card_codes, checked_arguments
else:
    from .._core_py import Rng, evaluate_mask, split_pots
    from .betting import BettingCore
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
        ACTION_CODES,
        E_AWARD,
        E_HAND_END,
        E_MUCK,
        E_RAISE_WITHDRAWN,
        E_RETURN_UNCALLED,
        E_SHOW,
        F_SHARED,
        PH_COMPLETE,
        PH_FIRST,
        PH_SECOND,
        bit,
        card_codes,
        cards_word,
        checked_arguments,
        discard_word,
        redecode,
    )


assert MAX_CHIPS == 9007199254740991   # chips_total's bound


def chips_total(stacks):
    """The chips of a list or tuple of stacks, or -1 when one is no positive int (exactly an int) or
    they add up to more than ``MAX_CHIPS`` (R3.2): then :func:`checked_arguments` says why."""
    total = 0
    for s in stacks:
        if type(s) is not int or s <= 0 or s > 9007199254740991:   # MAX_CHIPS, 2**53 - 1
            return -1
        total += s
    return total if total <= MAX_CHIPS else -1


class HandCore(BettingCore):
    """The state and rules of one hand; :class:`pokerdraw32.hand.Hand` is the public class."""

    # ------------------------------------------------------------------ set-up
    def __init__(self, rules, stacks, button, *, seed=None, rng=None, deck=None, auto_deal=True, posts=None):
        # The common call (the engine's deck, no posts) is checked here; any other goes through
        # every check of checked_arguments (pokerdraw32._handcore.codes), whose messages name the problem.
        if type(rules) is Rules and (type(stacks) is list or type(stacks) is tuple) and type(button) is int \
                and deck is None and posts is None and auto_deal is True \
                and (seed is None or (type(seed) is int and rng is None and 0 <= seed < 18446744073709551616)) \
                and (rng is None or type(rng) is Rng):
            n = len(stacks)
            if 2 <= n <= 5 and 0 <= button < n and chips_total(stacks) >= 0:   # read, not copied
                generator = rng if rng is not None else Rng(seed)
                self._setup(rules, stacks, button, generator, None, True, ())   # no extra posts
                return
        chips, seat, generator, stub, deals, extra = checked_arguments(rules, stacks, button, seed, rng, deck,
                                                                      auto_deal, posts)
        self._setup(rules, chips, seat, generator, stub, deals, extra)

    # ------------------------------------------------------------------ applying actions
    def act(self, action, seat=None):
        """Apply one action of the player to act.

        :param action: an :class:`~pokerdraw32.actions.Action` or its short text (``"r 30"``, ``"d Ah 7c"``).
        :param seat: when given, the seat that claims to act; acting out of turn is an error.
        :returns: the main event logged for the action.
        :raises IllegalActionError: the action is not legal (the message names the seat, the amount and
            the rule); the hand is unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if isinstance(action, Action):
            code = ACTION_CODES.get(action.kind, -1)
            ev = None
            if code == A_DISCARD:
                codes = card_codes(action.cards)
                if codes is not None:
                    ev = self._act(code, None, discard_word(codes), seat)
            elif code >= 0:
                ev = self._act(code, action.amount, 0, seat)
            if ev is not None:
                return ev
        from .refusal import refuse
        refuse(self, action, seat)   # names the seat, the amount and the rule
        raise IllegalActionError(f"{action} is not legal now", seat=seat)

    def _legal_now(self, action, seat):
        """True when ``action`` (an Action) from ``seat`` (None: whoever is to act) is legal now."""
        p = self._ready(seat)
        if p < 0:
            return False
        code = ACTION_CODES.get(action.kind, -1)
        if code == A_DISCARD:
            codes = card_codes(action.cards)
            return codes is not None and self._allowed(p, code, None, discard_word(codes))
        return code >= 0 and self._allowed(p, code, action.amount, 0)

    def _act(self, code, amount, cards, seat):
        """Apply action ``code`` if it is legal and return its main event; None (nothing changed)
        when it is not (:meth:`act` then says why)."""
        p = self._ready(seat)
        if p < 0 or not self._allowed(p, code, amount, cards):
            return None
        start = self._nrec
        self._apply(p, code, amount if code == A_BET or code == A_RAISE else 0, cards)
        self._drop_when_complete()
        if cython.compiled and code == A_DISCARD and cards != 0:
            cache = self._events_cache
            if cache is None or 2 * len(cache) != start:   # else the events list keeps it (_event_at)
                ev = redecode(self._spare_event, self, self._rec[start], self._rec[start + 1])
                self._spare_event = ev   # the next discard's event may be written into it
                return ev
        return self._event_at(start if code != A_TIMEOUT else start + 2)   # a timeout: the action it stands for

    def withdraw_raise(self):
        """R7.3: the server withdraws the right to raise of the player to act, for this turn only;
        they may still check, call or fold.

        :raises IllegalActionError: nobody is to act in a betting round, or the player to act is
            all-in or has already lost the right to raise this turn (so a log never holds a
            withdrawal twice, and a restored snapshot cannot either).
        """
        p = self._actor
        if (self._phase != PH_FIRST and self._phase != PH_SECOND) or p < 0 or self._pend_seat >= 0:
            raise IllegalActionError("no player is to act in a betting round", rule="R7.3")
        if self._stacks[p] == 0:
            raise IllegalActionError(f"seat {p} is all-in and has no right to raise to withdraw",
                                     seat=p, rule="R7.3")
        if self._withdrawn == p:
            raise IllegalActionError(f"seat {p} has already lost the right to raise this turn",
                                     seat=p, rule="R7.3")
        self._withdrawn = p
        self._log(E_RAISE_WITHDRAWN, p, 0, 0)
        return self._event_at(self._nrec - 2)

    # shortcuts ---------------------------------------------------------------
    def fold(self, seat=None):
        """Fold (R5.2). See :meth:`act`."""
        ev = self._act(A_FOLD, None, 0, seat)
        return ev if ev is not None else self.act(Action.fold(), seat)

    def check(self, seat=None):
        """Check (R5.2). See :meth:`act`."""
        ev = self._act(A_CHECK, None, 0, seat)
        return ev if ev is not None else self.act(Action.check(), seat)

    def call(self, seat=None):
        """Call, all-in for less when short (R5.2). See :meth:`act`."""
        ev = self._act(A_CALL, None, 0, seat)
        return ev if ev is not None else self.act(Action.call(), seat)

    def bet(self, amount, seat=None):
        """Bet ``amount`` chips in the second round (R7.2). See :meth:`act`."""
        return self.act(Action.bet(amount), seat)

    def raise_to(self, amount, seat=None):
        """Raise to a total round bet of ``amount`` chips (R3.4). See :meth:`act`."""
        return self.act(Action.raise_to(amount), seat)

    def split(self, seat=None):
        """Parole: split (R8.1) or, all-in, accept (R8.2). See :meth:`act`."""
        ev = self._act(A_SPLIT, None, 0, seat)
        return ev if ev is not None else self.act(Action.split(), seat)

    def decline(self, seat=None):
        """An all-in player declines the Parole offer (R8.2). See :meth:`act`."""
        ev = self._act(A_DECLINE, None, 0, seat)
        return ev if ev is not None else self.act(Action.decline(), seat)

    def discard(self, cards=(), seat=None):
        """Discard 0-4 of one's cards in the draw (R6.1); no cards = stand pat. See :meth:`act`."""
        if type(cards) is tuple or type(cards) is list:     # Card objects, as legal_actions() gives them
            w = cards_word(cards)
            if w >= 0:
                ev = self._act(A_DISCARD, None, w, seat)
                if ev is not None:
                    return ev
        return self.act(Action.discard(cards), seat)

    def stand_pat(self, seat=None):
        """Keep all five cards (R6.1). See :meth:`act`."""
        ev = self._act(A_DISCARD, None, 0, seat)
        return ev if ev is not None else self.act(Action.stand_pat(), seat)

    def timeout(self, seat=None):
        """The player to act ran out of time: stand pat and no raising later in the draw (R6.3);
        check or fold in a betting round (R7.3); an all-in player declines the Parole offer."""
        ev = self._act(A_TIMEOUT, None, 0, seat)
        return ev if ev is not None else self.act(Action.timeout(), seat)

    # ------------------------------------------------------------------ showdown
    def _showdown_start(self):
        """The first seat to show (R9.3): the last bettor or raiser of the second round, else
        the first seat of the second round."""
        if self._phase == PH_SECOND and self._aggressor >= 0 and not self._folded[self._aggressor]:
            return self._aggressor                                          # R9.3
        if self._after_button:
            return (self._button + 1) % self._n
        return (self._blind_seat[self._nblind - 1] + 1) % self._n

    def _finish(self, showdown):
        self._actor = -1
        self._pend_seat = -1
        self._return_uncalled()
        self._sd_start = self._showdown_start()
        n = self._n
        live = 0
        for s in range(n):
            self._strength[s] = -1
            if not self._folded[s]:
                live |= 1 << s
                if showdown:
                    self._strength[s] = self._hand_value(s)
        back = self._split(live, self._votes if (showdown and self._votes) else 0)
        contested = False
        self._shown = 0
        if showdown:
            # R9.3: show in order; a player who cannot win any contested pot may muck: as they chose
            # (set_showdown_choice), else as muck_losers says
            for k in range(self._npots):
                elig = self._pot_elig[k]
                if not self._pot_shared >> k & 1 and elig & (elig - 1):
                    contested = True
            best_shown = 0
            start = self._sd_start
            for i in range(n):
                s = (start + i) % n
                if self._folded[s]:
                    continue
                can_win = False
                mine = False
                for k in range(self._npots):
                    elig = self._pot_elig[k]
                    if self._pot_shared >> k & 1 or not elig & (elig - 1) or not elig >> s & 1:
                        continue                                    # not a contested pot of this seat
                    mine = True
                    beats_all = True
                    for o in range(n):
                        if best_shown >> o & 1 and elig >> o & 1 and self._strength[o] > self._strength[s]:
                            beats_all = False
                    if beats_all:
                        can_win = True
                if not mine:
                    continue
                choice = self._choice[s]
                if can_win or (not self._muck_losers if choice < 0 else choice == 1):
                    self._shown |= 1 << s
                    best_shown |= 1 << s
                    self._log(E_SHOW, s, 0, self._highest_first(s))
                else:
                    self._log(E_MUCK, s, 0, 0)
        if back >> 3:                                        # R9.2: uncalled chips (see _split)
            s = back & 7
            self._stacks[s] += back >> 3
            self._contrib[s] -= back >> 3
            self._log(E_RETURN_UNCALLED, s, 0, (back >> 3) + 1)
        for i in range(self._npots):
            self._log(E_AWARD, -1, i | (F_SHARED if self._pot_shared >> i & 1 else 0) | self._pot_win[i] << 8,
                      self._pot_amount[i] + 1)
        for s in range(n):
            self._stacks[s] += self._won[s]
            self._bets[s] = 0
        self._phase = PH_COMPLETE
        self._showdown = contested
        self._log(E_HAND_END, -1, 0, 0)
        self._legal_key = -1   # nobody acts any more (R9): legal_actions() is None (the Python callers drop _legal)
        if not self._reused:   # a session's hand keeps its buffer for the next hand
            self._shrink()
        return 0

    def _hole_mask(self, s):
        """The card mask of seat ``s``'s cards."""
        m = 0
        for j in range(self._hole_n[s]):
            m |= bit(self._hole[5 * s + j])
        return m

    def _hand_value(self, s):
        """The strength of seat ``s``'s five cards (R2; R2.4 as the rules say)."""
        m = self._hole_mask(s)
        if cython.compiled:
            value = value_of(m)  # noqa: F821 -- cimported from _core in _handcore/state.pxd
            return value if self._suit_tiebreak else value & ~3   # as evaluate_mask(m, False)
        return evaluate_mask(m, self._suit_tiebreak)

    def _highest_first(self, s):
        """The card word of seat ``s``'s cards, highest first (as shown, R9.3)."""
        m = self._hole_mask(s)
        w = 0
        k = 0
        for c in range(31, -1, -1):
            if m >> c & 1:
                w |= c << (3 + 6 * k)
                k += 1
        return w | k

    def _split(self, live, sharers):
        """The pots (R8.3, R9.1, R9.2, R9.4) by the kernels' split_pots: sets the pot fields and
        ``_won``, each seat's winnings; returns ``seat | chips << 3`` for uncalled chips to give
        back first (no chips: none)."""
        n = self._n
        first = (self._button + 1) % n
        if cython.compiled:
            chips = cython.declare(cython.longlong[5])
            amounts = cython.declare(cython.longlong[5])
            eligibles = cython.declare(cython.uint[5])
            winners = cython.declare(cython.uint[5])
            shared = cython.declare(cython.bint[5])
            top = 0
            back = 0
            for s in range(n):
                chips[s] = self._contrib[s]
            npots = split_pots_c(n, chips, self._strength, live, sharers, first, self._dead,  # noqa: F821
                                 cython.address(top), cython.address(back), self._won, amounts, eligibles,
                                 winners, shared)
            for k in range(npots):
                self._pot_amount[k] = amounts[k]
                self._pot_elig[k] = eligibles[k]
                self._pot_win[k] = winners[k]
                if shared[k]:
                    self._pot_shared |= 1 << k
            self._npots = npots
        else:
            returned, pots, winnings = split_pots(self._contrib[:n], self._strength[:n], live, sharers, first,
                                                  self._dead)
            for k in range(len(pots)):
                self._pot_amount[k], self._pot_elig[k], self._pot_win[k], shared_k = pots[k]
                if shared_k:
                    self._pot_shared |= 1 << k
            self._npots = len(pots)
            top = back = 0
            for s in range(n):
                self._won[s] = winnings[s]
                if returned[s]:
                    top, back = s, returned[s]
        return top | back << 3

    def _shrink(self):
        """Give back the log buffer's unused room (a finished hand keeps exactly its records)."""
        if cython.compiled and self._rec_cap > self._nrec:
            smaller = cython.cast(cython.p_longlong, PyMem_RawRealloc(  # noqa: F821 -- cimported in state.pxd
                self._rec, self._nrec * cython.sizeof(cython.longlong)))
            if smaller != cython.NULL:
                self._rec = smaller
                self._rec_cap = self._nrec

    def set_showdown_choice(self, seat, show):
        """Say in advance whether seat ``seat`` shows or mucks at the showdown (R9.3).

        A player who cannot win any pot they are eligible for may muck: their cards are not
        revealed.  Showing is always allowed, so ``show=True`` shows even a losing hand (its cards
        then appear in every view and in :meth:`events_for` as a SHOW event, and in a hand
        history).  ``show=False`` asks to muck; it is honoured only when the player could muck
        by R9.3: **a player who can win a contested pot shows anyway** (so does the first player
        to show, who beats every hand shown so far).  ``show=None`` withdraws the choice; with
        no choice, option ``muck_losers`` decides (on: muck, off: show).

        The choice may be made, changed or withdrawn at any time before the showdown by a seat
        still in the hand (even before its turn, or while a deal is pending).  It is private to
        the seat: it logs no event; :meth:`view` shows a seat its own choice and nobody else's,
        and :meth:`determinize` drops the other seats' choices.  It applies only at a showdown:
        a hand won without one (R5.3) or a pot shared by Parole (R8.3) shows no cards.  Folding
        drops the choice.  It is part of the state (kept by :meth:`clone` and :meth:`snapshot`).

        There is no show after the hand: once the hand is complete nothing can be shown, and a
        mucked hand stays unrevealed.

        :param seat: the seat making the choice.
        :param show: True (show), False (muck) or None (no choice: ``muck_losers`` decides).
        :raises IllegalActionError: no such seat, ``show`` is not True, False or None, the hand
            is over, or the seat has folded; the hand is unchanged.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise IllegalActionError(f"no seat {shown(seat)} at this table (seats 0..{self._n - 1}) to show or "
                                     "muck", rule="R9.3")
        if show is not None and not isinstance(show, bool):
            raise IllegalActionError(f"seat {seat}: the showdown choice must be True (show), False (muck) or None "
                                     f"(muck_losers decides), got {shown(show)}", seat=seat, rule="R9.3")
        if self._phase == PH_COMPLETE:
            raise IllegalActionError(f"seat {seat}: the hand is over; there is nothing left to show or muck",
                                     seat=seat, rule="R9.3")
        if self._folded[seat]:
            raise IllegalActionError(f"seat {seat} has folded and has no cards to show or muck", seat=seat,
                                     rule="R9.3")
        self._choice[seat] = -1 if show is None else (1 if show else 0)

    def _drop_choice(self, seat):
        """Forget ``seat``'s showdown choice (determinize: another seat's choice is private)."""
        self._choice[self._seat_index(seat)] = -1
