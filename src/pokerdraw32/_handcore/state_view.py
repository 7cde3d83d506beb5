"""The hand's state as Python reads and copies it: :class:`HandState`, the hand's core with its
read-only properties (stacks, bets, hole cards, the phase, the result, ...), its log read as
events, the export that snapshots and views read, and its copies (clone, determinize).

Written in Cython's pure-Python mode, as :mod:`pokerdraw32._handcore.state`, whose ``HandCore`` it extends
(one concern each: ``_handcore/state.py`` states the rules and how a hand changes; this module only reads
the C fields and copies them).  setup.py compiles it as ``pokerdraw32._handcore.state_view_c`` (with
``_handcore/state_view.pxd``, cimporting ``_state_c``), or it runs as plain Python on ``_state``;
:mod:`pokerdraw32._kernels` picks the pair.  :class:`pokerdraw32.hand.Hand` is built on it.
"""

if __name__ == "pokerdraw32._handcore.state_view_c":   # compiled (setup.py); see _handcore/state.py
    import cython
else:
    from . import cython_shim as cython

from ..cards import DECK
from ..errors import IllegalActionError, PokerDraw32TypeError, shown
from ..results import HandResult, Pot

if cython.compiled:   # HandCore, the constants and decode: cimported in _handcore/state_view.pxd
    from .._core import Rng
    from .codes_c import _SEAT_SETS, PHASES, checked_codes
else:
    from .._core_py import Rng
    from .codes import (
        _SEAT_SETS,
        E_DEAL_DRAW,
        E_DEAL_HOLE,
        E_DISCARD,
        F_HIDDEN,
        PH_COMPLETE,
        PHASES,
        checked_codes,
        decode,
    )
    from .state import HandCore

_NEW = object.__new__
_SETATTR = object.__setattr__

if cython.compiled:   # the engine's enums read their members without EnumType's slow hook (actions.py)
    from ..actions import ActionKind
    pd32_fast_enum_reads(type(ActionKind))  # noqa: F821 -- C helper of _handcore/state_view.pxd


def frozen(cls, fields):
    """An instance of the frozen dataclass ``cls`` with these fields, already checked: the
    dataclass ``__init__`` sets one field at a time through ``object.__setattr__``; this sets the
    instance dict at once (the same object: equal, hashable, immutable)."""
    obj = _NEW(cls)
    if cython.compiled:   # the C function behind object.__setattr__, without the Python call
        PyObject_GenericSetAttr(obj, "__dict__", fields)  # noqa: F821 -- cimported in _handcore/state_view.pxd
    else:
        _SETATTR(obj, "__dict__", fields)
    return obj


class HandState(HandCore):
    """A :class:`~pokerdraw32._handcore.state.HandCore` that Python can read and copy;
    :class:`pokerdraw32.hand.Hand` is the public class."""

    # ------------------------------------------------------------------ the log and the public state, read
    def _public_state(self):
        """What every seat may see, in one call (for the bots' SeatView): ``(n, button, blind seats,
        phase, seat to act or None, pot, stacks, bets, folded, discarded, Parole offer open, rules,
        starting stacks)``, the lists as tuples."""
        n = self._n
        if cython.compiled:
            return (n, self._button, tuple([self._blind_seat[i] for i in range(self._nblind)]), PHASES[self._phase],
                    None if self._actor < 0 or self._pend_seat >= 0 else self._actor,
                    0 if self._phase == PH_COMPLETE else self._pot(),
                    tuple([self._stacks[i] for i in range(n)]), tuple([self._bets[i] for i in range(n)]),
                    tuple([self._folded[i] for i in range(n)]),
                    tuple([None if self._discarded[i] < 0 else self._discarded[i] for i in range(n)]),
                    bool(self._offer_open), self._rules, tuple([self._start[i] for i in range(n)]))
        # plain Python: the same values, by slices of the lists instead of property calls
        discarded = self._discarded[:n]
        return (n, self._button, tuple(self._blind_seat[:self._nblind]), PHASES[self._phase],
                None if self._actor < 0 or self._pend_seat >= 0 else self._actor,
                0 if self._phase == PH_COMPLETE else sum(self._contrib[:n]) + self._dead,
                tuple(self._stacks[:n]), tuple(self._bets[:n]), tuple(self._folded[:n]),
                tuple([None if d < 0 else d for d in discarded]) if -1 in discarded else tuple(discarded),
                self._offer_open, self._rules, tuple(self._start[:n]))

    def _pots_now(self):
        """The main pot and the side pots so far (R9.1), current bets included, as JSON data
        (``{"amount": chips, "eligible": [hand seats]}``, main pot first): one pot per all-in
        level of a live player, then the pot the players still betting contest."""
        n = self._n
        contrib = [self._contrib[s] for s in range(n)]
        live = [s for s in range(n) if not self._folded[s]]
        levels = sorted({contrib[s] for s in live if self._stacks[s] == 0 and contrib[s] > 0})
        if not levels:          # nobody all-in: one pot, every player still in contests it
            amount = sum(contrib) + self._dead
            return [{"amount": amount, "eligible": live}] if amount > 0 else []
        if any(self._stacks[s] > 0 for s in live):
            levels.append(max(contrib))
        pots = []
        prev = 0
        for level in levels:
            amount = sum([min(c, level) - min(c, prev) for c in contrib]) + (self._dead if not prev else 0)
            if level == levels[-1]:
                amount += sum([c - level for c in contrib if c > level])      # folded chips above the top
            if amount > 0:
                # a player still betting may yet match every level
                pots.append({"amount": amount,
                             "eligible": [s for s in live if contrib[s] >= level or self._stacks[s] > 0]})
            prev = level
        return pots

    def _table_view(self, seats, names):
        """The public view as a table shows it (the ``"hand"`` of
        :meth:`pokerdraw32.table.Table.view_parts`), built in one call: ``seats[i]`` is the table
        seat of hand seat ``i``, ``names[i]`` its player's name (or None), and every seat number
        in it is a table seat.  Keys: ``phase``, ``pot`` (chips, bets included; 0 once awarded),
        ``parole_open`` (R8), ``stub_count``, ``serial``, ``button``, ``blinds``, ``to_act``,
        ``players`` (each ``seat``, ``name``, ``stack``, ``bet``, ``folded``, ``all_in``,
        ``discarded``), ``shown`` (the hands shown, R9.3) and ``pots`` (R9.1; with ``winners``
        and ``shared`` once awarded): the values of :meth:`Hand.public_view
        <pokerdraw32.hand.Hand.public_view>`."""
        n = self._n
        complete = self._phase == PH_COMPLETE
        players = []
        for i in range(n):
            folded = bool(self._folded[i])
            stack = self._stacks[i]
            d = self._discarded[i]
            players.append({"seat": seats[i], "name": names[i], "stack": stack, "bet": self._bets[i],
                            "folded": folded, "all_in": not folded and stack == 0 and not complete,
                            "discarded": None if d < 0 else d})
        shown_hands = []
        if complete:
            r = self.result
            for s, cs in sorted(r.shown.items()):
                shown_hands.append({"seat": seats[s], "cards": [str(c) for c in cs]})
            pots = [{"amount": p.amount, "eligible": [seats[x] for x in p.eligible],
                     "winners": [seats[x] for x in p.winners], "shared": p.shared} for p in r.pots]
        else:
            pots = self._pots_now()             # new dicts: their seats put in table seats in place
            for pot in pots:
                pot["eligible"] = [seats[x] for x in pot["eligible"]]
        return {"phase": PHASES[self._phase]._value_, "pot": 0 if complete else self._pot(),
                "parole_open": bool(self._offer_open), "stub_count": self._stub_n, "serial": self._nrec // 2,
                "button": seats[self._button], "blinds": [seats[self._blind_seat[i]] for i in range(self._nblind)],
                "to_act": None if self._actor < 0 or self._pend_seat >= 0 else seats[self._actor],
                "players": players, "shown": shown_hands, "pots": pots}

    @property
    def events(self):
        """The full record of the hand, every card included (see :meth:`events_for` for players):
        a list of :class:`~pokerdraw32.actions.Event`, built from the compact log when read."""
        cache = self._events_cache
        if cache is None:
            cache = []
            self._events_cache = cache
        i = 2 * len(cache)
        while i < self._nrec:
            cache.append(decode(self, self._rec[i], self._rec[i + 1]))
            i += 2
        return cache

    @property
    def serial(self):
        """The number of events in the log (a view's ``serial``)."""
        return self._nrec // 2

    # ------------------------------------------------------------------ state, read-only from Python
    @property
    def n(self):
        """The number of seats (2-5)."""
        return self._n

    @property
    def button(self):
        """The dealer's seat (R4.1)."""
        return self._button

    @property
    def blind_seats(self):
        """The seats posting the blinds, small blind first (R4)."""
        return tuple([self._blind_seat[i] for i in range(self._nblind)])

    @property
    def largest_blind(self):
        """The largest blind L in chips (R3.3)."""
        return self._L

    @property
    def starting_stacks(self):
        """Each seat's chips before the blinds."""
        return tuple([self._start[i] for i in range(self._n)])

    @property
    def stacks(self):
        """Each seat's chips behind (not yet bet), a new list."""
        if cython.compiled:
            return [self._stacks[i] for i in range(self._n)]
        return self._stacks[:self._n]   # plain Python: a list slice

    @property
    def bets(self):
        """Each seat's bet in the current betting round, in chips."""
        if cython.compiled:
            return [self._bets[i] for i in range(self._n)]
        return self._bets[:self._n]   # plain Python: a list slice

    @property
    def contrib(self):
        """Each seat's chips put in the pot this hand (bets included)."""
        if cython.compiled:
            return [self._contrib[i] for i in range(self._n)]
        return self._contrib[:self._n]   # plain Python: a list slice

    @property
    def folded(self):
        if cython.compiled:
            return [self._folded[i] for i in range(self._n)]
        return self._folded[:self._n]   # plain Python: a list slice

    @property
    def discarded(self):
        """How many cards each seat discarded (None before its draw)."""
        return [None if self._discarded[i] < 0 else self._discarded[i] for i in range(self._n)]

    @property
    def hole(self):
        """Each seat's cards as codes, in the order received (the dealer's record)."""
        if cython.compiled:
            return [[self._hole[5 * s + j] for j in range(self._hole_n[s])] for s in range(self._n)]
        return [self._hole[5 * s:5 * s + self._hole_n[s]] for s in range(self._n)]   # plain Python: slices

    @property
    def dead(self):
        """Dead chips in the main pot (R10.3)."""
        return self._dead

    @property
    def pile(self):
        """The discard pile for R6.2, as codes."""
        if cython.compiled:
            return [self._pile[i] for i in range(self._pile_n)]
        return self._pile[:self._pile_n]   # plain Python: a list slice

    @property
    def muck(self):
        """The dead cards, as codes."""
        if cython.compiled:
            return [self._muck[i] for i in range(self._muck_n)]
        return self._muck[:self._muck_n]   # plain Python: a list slice

    @property
    def stub(self):
        """The undealt cards, as codes, the next one first (the dealer's record)."""
        return self._stub_list()

    @stub.setter
    def stub(self, cards):
        cards = checked_codes(cards, 32, "stub")
        if sorted(cards) != sorted(self._stub_list()):
            raise IllegalActionError("stub: the new order must hold the stub's cards, each once")
        for i in range(len(cards)):
            self._stub[i] = cards[i]
        self._stub_n = len(cards)

    @property
    def phase(self):
        """The :class:`~pokerdraw32.actions.Phase`."""
        return PHASES[self._phase]

    @property
    def actor(self):
        """The seat to act, or None."""
        return None if self._actor < 0 else self._actor

    @property
    def pending_deal(self):
        """The deal the dealer must make next (a DealRequest), or None; only with ``auto_deal=False``."""
        if self._pend_seat < 0:
            return None
        from ..results import DealRequest
        return DealRequest(self._pend_seat, self._pend_count, "hole" if self._pend_hole else "draw")

    @property
    def auto_deal(self):
        return self._auto_deal

    @auto_deal.setter
    def auto_deal(self, value):
        if not isinstance(value, bool):
            raise IllegalActionError(f"auto_deal must be True or False, got {shown(value)}")
        self._auto_deal = value

    @property
    def to_match(self):
        return self._to_match

    @property
    def raise_size(self):
        return self._raise_size

    @property
    def full_level(self):
        return self._full_level

    @property
    def bet_count(self):
        return self._bet_count

    @property
    def reopen_serial(self):
        return self._reopen_serial

    @property
    def acted(self):
        if cython.compiled:
            return [self._acted[i] for i in range(self._n)]
        return self._acted[:self._n]   # plain Python: a list slice

    @property
    def acted_serial(self):
        if cython.compiled:
            return [self._acted_serial[i] for i in range(self._n)]
        return self._acted_serial[:self._n]   # plain Python: a list slice

    @property
    def last_level(self):
        if cython.compiled:
            return [self._last_level[i] for i in range(self._n)]
        return self._last_level[:self._n]   # plain Python: a list slice

    @property
    def aggressor(self):
        """The last bettor or raiser of the current round, or None."""
        return None if self._aggressor < 0 else self._aggressor

    @property
    def raise_withdrawn(self):
        """R7.3: the seat that lost its right to raise this turn, or None."""
        return None if self._withdrawn < 0 else self._withdrawn

    @property
    def no_raise(self):
        """R6.3: the seats that timed out in the draw."""
        if cython.compiled:
            return [self._no_raise[i] for i in range(self._n)]
        return self._no_raise[:self._n]   # plain Python: a list slice

    @property
    def showdown_choices(self):
        """Each seat's choice for the showdown (R9.3): True show, False muck, None let
        ``muck_losers`` decide.  Set with :meth:`set_showdown_choice`; private to the seat."""
        return [None if self._choice[i] < 0 else self._choice[i] == 1 for i in range(self._n)]

    @property
    def offer_open(self):
        """A Parole offer is open (R8)."""
        return bool(self._offer_open)

    @property
    def votes(self):
        return self._votes

    @property
    def voted(self):
        return self._voted

    @property
    def draw_order(self):
        if cython.compiled:
            return [self._draw_order[i] for i in range(self._draw_n)]
        return self._draw_order[:self._draw_n]   # plain Python: a list slice

    @property
    def draw_index(self):
        return self._draw_index

    @property
    def pot(self):
        """Chips in the pot now, current bets included (0 once the hand is over and the pots are awarded)."""
        return 0 if self._phase == PH_COMPLETE else self._pot()

    @property
    def live_seats(self):
        """Seats still in the hand (not folded)."""
        return tuple([i for i in range(self._n) if not self._folded[i]])

    @property
    def is_complete(self):
        return self._phase == PH_COMPLETE

    @property
    def result(self):
        """The :class:`~pokerdraw32.results.HandResult` once the hand is complete, else None."""
        if self._phase != PH_COMPLETE:
            return None
        if self._result is None:
            n = self._n
            stacks = tuple(self.stacks)
            pots = tuple([frozen(Pot, {"amount": self._pot_amount[i], "eligible": _SEAT_SETS[self._pot_elig[i]],
                                       "winners": _SEAT_SETS[self._pot_win[i]],
                                       "shared": bool(self._pot_shared >> i & 1)}) for i in range(self._npots)])
            shown_cards = {}
            start = self._sd_start
            for i in range(n):    # in the order of the showdown (R9.3), as they were shown
                s = (start + i) % n
                if self._shown >> s & 1:
                    shown_cards[s] = tuple([DECK[c] for c in sorted(
                        [self._hole[5 * s + j] for j in range(self._hole_n[s])], reverse=True)])
            net = tuple([stacks[i] - self._start[i] for i in range(n)])
            self._result = frozen(HandResult, {"stacks": stacks, "net": net, "pots": pots, "shown": shown_cards,
                                               "showdown": bool(self._showdown)})
        return self._result

    @property
    def _round_robin(self):
        """The hole cards of an untouched stub dealt one at a time (R5.1), by deal order; empty
        once a deal took explicit cards (``auto_deal=False``) or when all were dealt at once."""
        return [[self._rr[5 * k + j] for j in range(5)] for k in range(self._rr_n)]

    @_round_robin.setter
    def _round_robin(self, cards):
        cards = [checked_codes(hand, 5, "round_robin") for hand in cards]
        if len(cards) > self._n or any(len(hand) != 5 for hand in cards):
            raise IllegalActionError(f"round_robin: expected at most {self._n} hands of 5 cards")
        for k in range(len(cards)):
            for j in range(5):
                self._rr[5 * k + j] = cards[k][j]
        self._rr_n = len(cards)

    @property
    def rules(self):
        """The :class:`~pokerdraw32.rules.Rules` of the hand (fixed when it is dealt)."""
        return self._rules

    @property
    def rng(self):
        """The hand's generator (:class:`~pokerdraw32.Rng`): it shuffles the discard pile when the
        stub runs out (R6.2).  Another generator may be given (a search re-seeding a copy)."""
        return self._rng

    @rng.setter
    def rng(self, generator):
        if not isinstance(generator, Rng):
            raise PokerDraw32TypeError(f"rng must be a pokerdraw32.Rng, got {shown(generator)}")
        self._set_rng(generator)

    def _export(self):
        """The state by the attribute names of the snapshot format (:mod:`pokerdraw32.snapshot`)."""
        return {
            "rules": self.rules, "n": self._n, "button": self._button, "dead": self._dead,
            "to_match": self._to_match, "raise_size": self._raise_size, "full_level": self._full_level,
            "bet_count": self._bet_count, "reopen_serial": self._reopen_serial, "votes": self._votes,
            "voted": self._voted, "draw_index": self._draw_index, "_hole_index": self._hole_index,
            "largest_blind": self._L, "actor": self.actor, "aggressor": self.aggressor,
            "raise_withdrawn": self.raise_withdrawn, "auto_deal": bool(self._auto_deal),
            "offer_open": bool(self._offer_open), "stacks": self.stacks, "bets": self.bets, "contrib": self.contrib,
            "acted_serial": self.acted_serial, "last_level": self.last_level, "folded": self.folded,
            "acted": self.acted, "no_raise": self.no_raise, "draw_order": self.draw_order,
            "_deal_order": [self._deal_order[i] for i in range(self._n)], "blind_seats": self.blind_seats,
            "starting_stacks": self.starting_stacks, "phase": self.phase, "discarded": self.discarded,
            "showdown_choices": self.showdown_choices, "stub": self._stub_list(), "pile": self.pile,
            "muck": self.muck, "_own_discards": self._own_discards, "hole": self.hole,
            "_round_robin": self._round_robin, "pending_deal": self.pending_deal, "rng": self.rng,
            "_redacted_for": None if self._redacted_for < 0 else self._redacted_for, "result": self.result,
        }

    @property
    def _own_discards(self):
        """The drawing player's discards, set aside until served (R6.2)."""
        if cython.compiled:
            return [self._own[i] for i in range(self._own_n)]
        return self._own[:self._own_n]   # plain Python: a list slice

    # ------------------------------------------------------------------ copies
    def _copy_fields(self, other):
        """Copy every plain field of ``other`` (not the log, not the Python objects but the result)."""
        self._result = other._result
        if cython.compiled:   # the fields _n .. _won, declared together in _handcore/deal.pxd
            memcpy(cython.address(self._n), cython.address(other._n),  # noqa: F821 -- cimported in _handcore/state_view.pxd
                   cython.cast(cython.p_char, cython.address(other._rec))
                   - cython.cast(cython.p_char, cython.address(other._n)))
        else:
            for name, value in other.__dict__.items():
                if name not in ("rules", "rng", "_legal", "_events_cache", "_rec"):
                    setattr(self, name, list(value) if type(value) is list else value)

    def _set_cards(self, hole, pile, muck, own, stub):
        """Put the cards in other places (determinize): the same counts in each place."""
        if len(hole) != self._n:
            raise IllegalActionError(f"hole: expected {self._n} hands")
        hole = [checked_codes(cards, 5, "hole") for cards in hole]
        pile, muck = checked_codes(pile, 32, "pile"), checked_codes(muck, 32, "muck")
        own, stub = checked_codes(own, 4, "own discards"), checked_codes(stub, 32, "stub")
        counts = [len(cards) for cards in hole] + [len(pile), len(muck), len(own), len(stub)]
        held = [self._hole_n[s] for s in range(self._n)] + [self._pile_n, self._muck_n, self._own_n, self._stub_n]
        every = sorted([c for cards in hole for c in cards] + pile + muck + own + stub)
        if counts != held or every != list(range(32)):
            raise IllegalActionError("cards: each place must keep its number of cards, and the deck each card once")
        for s in range(self._n):
            for j in range(len(hole[s])):
                self._hole[5 * s + j] = hole[s][j]
            self._hole_n[s] = len(hole[s])
        for i in range(len(pile)):
            self._pile[i] = pile[i]
        self._pile_n = len(pile)
        for i in range(len(muck)):
            self._muck[i] = muck[i]
        self._muck_n = len(muck)
        for i in range(len(own)):
            self._own[i] = own[i]
        self._own_n = len(own)
        for i in range(len(stub)):
            self._stub[i] = stub[i]
        self._rr_n = 0
        self._events_cache = None
        self._legal_key = -1

    def _redact(self, seat):
        """Make the log the one ``seat`` sees (:meth:`events_for`): other seats' deals, discards
        and draws lose their cards (their number stays)."""
        seat = self._seat_index(seat)
        for i in range(0, self._nrec, 2):
            w = self._rec[i]
            kind = w & 31
            if (kind == E_DEAL_HOLE or kind == E_DEAL_DRAW or kind == E_DISCARD) and (w >> 5 & 7) - 1 != seat \
                    and self._rec[i + 1] & 7:
                self._rec[i] = w | F_HIDDEN << 8
                self._rec[i + 1] = self._rec[i + 1] & 7
        self._redacted_for = seat
        self._events_cache = None
        self._legal_key = -1

    def _copy(self, cls=None):
        """An independent copy (same stub, pile and generator state; the generator is copied), of
        class ``cls`` (a subclass of HandCore; default: this hand's class)."""
        import copy
        if cls is None:
            cls = type(self)
        made = cls.__new__(cls) if isinstance(cls, type) and issubclass(cls, HandState) else None
        if not isinstance(made, HandState):
            raise PokerDraw32TypeError(f"a copy of a hand must be a hand, not {made!r} (from {cls!r})")
        new = made
        new._alloc()
        new._copy_fields(self)
        new._reserve(self._nrec)
        if cython.compiled:
            for i in range(self._nrec):
                new._rec[i] = self._rec[i]
        else:
            new._rec = list(self._rec)
        new._nrec = self._nrec
        if cython.compiled:   # a subclass's own attributes (plain Python: _copy_fields has them)
            mine = getattr(self, "__dict__", None)
            if mine:
                new.__dict__.update(mine)
        new._rules = self._rules
        new._set_rng(copy.copy(self._rng))
        new._events_cache = None
        new._legal = None
        new._legal_key = -1
        return new
