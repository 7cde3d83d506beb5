"""The hand state machine: one hand of 32-Card Draw from the blinds to the last chip (R3-R9).

Seats are numbered ``0 .. n-1`` clockwise (2 <= n <= 5, R3.1); ``button`` is the dealer's
seat.  The hand posts the blinds (R4), deals (R5.1), runs the first betting round (R5),
the draw (R6), the second round with Parole (R7, R8) and the showdown (R9).

Every decision is taken with :meth:`Hand.act` (or the shortcuts :meth:`fold`,
:meth:`check`, :meth:`call`, :meth:`bet`, :meth:`raise_to`, :meth:`split`,
:meth:`decline`, :meth:`discard`, :meth:`timeout`).  An illegal action raises
:class:`~pokerdraw32.errors.IllegalActionError` naming the seat, the amount and the rule,
and leaves the hand exactly as it was.  :meth:`Hand.legal_actions` tells who acts and
with which chip bounds; :meth:`Hand.can` asks without raising.

By default the hand deals from its own deck, shuffled by a seeded or OS-seeded
:class:`~pokerdraw32._kernels.Rng` (R11).  With ``auto_deal=False`` each deal waits in
:attr:`Hand.pending_deal` and :meth:`Hand.deal` takes explicit cards (to replay a known
hand), checking that they are free and, in the draw, that R6.2 allows them.  ``posts``
adds entry bets and missed blinds before the deal (R10.2, R10.3; set by
:class:`~pokerdraw32.table.Table`).

For servers and search: :meth:`Hand.view` / :meth:`Hand.public_view` (JSON data, nothing a seat
may not know), :meth:`Hand.events_for` (the event stream a seat may see, from any index),
:meth:`Hand.snapshot` / :meth:`Hand.restore` (versioned JSON, see :mod:`pokerdraw32.snapshot`),
:meth:`Hand.clone` and :meth:`Hand.determinize`.  A server (or a replay) tells the hand in advance
whether a player shows or mucks at the showdown with :meth:`Hand.set_showdown_choice` (R9.3).

Rulings where RULES.md leaves a meeting of two rules open:

* pot-limit (R3.4): a raise by at most the pot after the player's call, so a raise to at most
  the current bet plus that pot (pot 10, a bet of 10: the call makes 30, raise to at most 40).
  When a short all-in blind (R4.5) leaves that below a minimum raise, the minimum raise stays
  possible;
* a player who timed out in the draw may only check, call or fold (R6.3): no Parole split,
  and, all-in, they are not asked and count as declining (R8.2);
* round two opens with the first player not all-in (R7.1); all-in players answer a Parole
  offer when the rotation reaches their seat (R8.2); a timed-out all-in player declines;
* uncalled chips (R9.2) go back at the end of each betting round, so views never show them
  in the pot.

>>> from pokerdraw32 import Hand, Rules
>>> h = Hand(Rules(), [100, 100, 100], button=0, seed=1)
>>> h.actor, h.legal_actions().min_to, h.legal_actions().call_amount
(0, 4, 2)
>>> for action in ("call", "call", "check"):   # button calls, small blind completes, big blind checks
...     _ = h.act(action)
>>> h.phase, h.pot
(<Phase.DRAW: 'draw'>, 6)
"""

from __future__ import annotations

from .._handcore.events import PRIVATE_EVENTS as _PRIVATE_EVENTS
from .._handcore.events import events_for as _events_for
from .._handcore.events import posted_extras
from .._kernels import HandState, Rng
from ..actions import Action, ActionKind, Event
from ..cards import DECK, Card
from ..errors import IllegalActionError, PokerDraw32Error, integer, shown
from ..results import DealRequest, HandResult, Pot

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 10 ms) at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DealRequest", "Hand", "HandResult", "Pot"]


def _unpickle(cls: type[Hand], data: dict[str, Any]) -> Hand:
    """The hand of a pickle (:meth:`Hand.__reduce__`), of class ``cls``."""
    restored: Hand = Hand.restore(data)._copy(cls)
    return restored


class Hand(HandState):
    """One hand of 32-Card Draw.

    :param rules: the :class:`~pokerdraw32.rules.Rules`.
    :param stacks: each seat's chips before the blinds, clockwise from seat 0; 2 to 5 seats,
        all positive integers (R3.1, R3.2, R10.4).
    :param button: the dealer's seat (R4.1).
    :param seed: seed of the hand's generator (0 <= seed < 2**64); ``None`` draws from the OS.
    :param rng: a generator to use instead of ``seed`` (it is consumed by the hand).
    :param deck: a stacked deck: the stub order to deal from (all 32 cards, first dealt first)
        instead of a shuffled one; reshuffles (R6.2) still use the generator.  Such a hand's
        :meth:`snapshot` is not restored (:meth:`restore` checks that the stub is the generator's
        shuffle, and a stacked one cannot be told from an edited one).
    :param auto_deal: deal automatically from the stub (default).  ``False``: every deal waits
        for :meth:`deal`.
    :param posts: extra chips posted before the deal, beyond the blinds, as ``{seat: (live, dead)}``:
        an entry bet (R10.2) or the blinds a returning player missed (R10.3).  Live chips count
        toward the seat's first-round bet like a blind (at most L, R3.3); dead chips go to the main
        pot and count toward nobody's bet (R9.1).  A short stack posts live chips first, then dead
        ones, all-in at worst (R4.5).  Normally set by :class:`~pokerdraw32.table.Table`.
    :raises RulesError: for a bad number of seats, a bad stack or button.
    :raises InvalidCardError: for a bad stacked deck.
    """


    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards seat ``seat`` holds now (its own view; empty after folding)."""
        seat = self._check_seat(seat)
        return tuple(DECK[c] for c in self.hole[seat])

    def _check_seat(self, seat: object) -> int:
        return self._seat_index(seat)

    @property
    def posted_extras(self) -> dict[int, tuple[int, int]]:
        """What ``posts`` actually took before the deal, beyond the blinds: ``{seat: (live, dead)}``
        in chips, read from the log (a short stack posts less than asked, R4.5; R10.2, R10.3)."""
        return posted_extras(self.events)

    def can(self, action: Action | str, seat: int | None = None) -> bool:
        """True when :meth:`act` would accept ``action`` (an Action or its short text such as
        ``"call"`` or ``"r 30"``), from ``seat`` if given."""
        try:
            if isinstance(action, str):
                action = Action.parse(action)
            if not isinstance(action, Action):
                return False
            return self._legal_now(action, seat)
        except PokerDraw32Error:   # anything act() refuses, unparsable text included ("d 6h", R1.3)
            return False
        return True

    def all_in(self, seat: int | None = None) -> Event:
        """Put the whole stack in: a bet or raise of the whole stack where the rules allow it, or a
        call that takes the whole stack.  See :meth:`act`.

        :raises IllegalActionError: the limit (pot-limit, fixed-limit, R3.4) or the state forbids
            putting the whole stack in now; the message names the largest bet possible.
        """
        legal = self.legal_actions()
        if legal is None:
            return self.act(Action.call(), seat)
        p = legal.seat
        everything = self.bets[p] + self.stacks[p]
        if legal.max_to == everything:
            kind = ActionKind.BET if ActionKind.BET in legal.kinds else ActionKind.RAISE
            return self.act(Action(kind, everything), seat)
        if ActionKind.CALL in legal.kinds and legal.call_amount == self.stacks[p]:
            return self.act(Action.call(), seat)
        if legal.max_to is None:        # no bet or raise at all now: act() names the reason and rule
            return self.act(Action(ActionKind.RAISE if self.to_match else ActionKind.BET, everything), seat)
        raise IllegalActionError(f"seat {p} cannot go all-in ({everything}) now; the most is {legal.max_to}",
                                 seat=p, rule="R3.4")

    # ------------------------------------------------------------------ views
    def _public(self) -> dict[str, Any]:
        r = self.result
        stacks, folded = self.stacks, self.folded           # new lists each time: read once
        return {
            "phase": self.phase._value_,                       # .value, without the enum property
            "button": self.button,
            "blinds": list(self.blind_seats),
            "stacks": stacks,
            "bets": list(self.bets),
            "pot": self.pot,
            "to_act": self.actor if self.pending_deal is None else None,
            "folded": folded,
            "all_in": [not folded[s] and stacks[s] == 0 and r is None for s in range(self.n)],
            "discarded": list(self.discarded),
            "parole_open": self.offer_open,
            "shown": [] if r is None else [{"seat": s, "cards": [str(c) for c in cs]} for s, cs in
                                           sorted(r.shown.items())],
            "pots": self._pots_now() if r is None else [p.to_dict() for p in r.pots],
            "stub_count": len(self.stub),
            "serial": self.serial,
        }

    def public_view(self) -> dict[str, Any]:
        """What everyone at the table may see, as JSON-serialisable data: stacks, bets, pot, button,
        whose turn, folds, all-ins, how many cards each player discarded, shown hands and pots.
        No hole card, stub order or mucked card appears."""
        return self._public()

    def view(self, seat: int) -> dict[str, Any]:
        """The public view plus what seat ``seat`` alone may see: its own cards, its showdown
        choice (``"show"``, ``"muck"`` or ``None``, R9.3, :meth:`set_showdown_choice`) and, on its
        turn, its legal actions.

        :raises IllegalActionError: no such seat.
        """
        seat = self._check_seat(seat)
        v = self._public()
        v["seat"] = seat
        v.update(self._private(seat))
        return v

    def _private(self, seat: int) -> dict[str, Any]:
        """What :meth:`view` adds for ``seat`` (checked) to the public view: ``cards``,
        ``showdown_choice``, ``legal``."""
        choice = self.showdown_choices[seat]
        legal = self.legal_actions()
        return {"cards": [str(DECK[c]) for c in self.hole[seat]],
                "showdown_choice": None if choice is None else "show" if choice else "muck",
                "legal": legal.to_dict() if legal is not None and legal.seat == seat else None}

    def events_for(self, seat: int | None = None, start: int = 0) -> list[Event]:
        """The event log as seat ``seat`` may see it (``None``: as an onlooker sees it).

        :attr:`events` is the dealer's full record, with every card; never send it to players.
        Here other players' hole cards, discards and replacement cards are removed (their
        number stays in ``info["hidden"]``); shown hands stay.

        :param start: index of the first event wanted (a client that has ``k`` events asks for
            ``start=k``; :meth:`public_view` gives the current count as ``serial``).
        :raises IllegalActionError: no such seat, or a bad ``start``.
        """
        if seat is not None:
            seat = self._check_seat(seat)
        first = integer(start)
        if first is None or not 0 <= first <= self.serial:
            raise IllegalActionError(f"start {shown(start)} is not an event index 0..{self.serial}")
        return _events_for(self.events, seat, first)

    # ------------------------------------------------------------------ persistence and search
    def snapshot(self) -> dict[str, Any]:
        """The complete state as versioned, JSON-serialisable data, for :meth:`restore`.

        Holds every card and the stub order: the dealer's record, never for players.  See
        :mod:`pokerdraw32.snapshot` for the format.
        """
        from ._snapshot import snapshot
        return snapshot(self)

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Hand:
        """The hand saved by :meth:`snapshot`; it continues exactly as the saved one would.

        The log is replayed through the engine and the snapshot must be exactly the snapshot of
        the result (see :mod:`pokerdraw32.snapshot`): a restored hand is a state the engine could
        have reached.

        :raises SnapshotError: another format or version, or a bad field (named); cards that are
            not the deck once each (R1.1), chips that do not add up (R9.5), a field or event the
            replay does not give, a stub (or cards dealt by a hand that deals itself, or a generator
            state) that is not what the generator's shuffle of the deck gives (R11.1: an edited
            stub order, or a hand dealt from a stacked ``deck=``), or a :meth:`determinize` copy's
            snapshot.
        """
        from ._snapshot import restore
        return restore(data, Hand)

    def clone(self) -> Hand:
        """An independent copy that continues identically (same stub, pile and generator state):
        for search.  Immutable parts (rules, cards) are shared; a few microseconds."""
        new: Hand = self._copy()
        return new

    def __copy__(self) -> Hand:
        """``copy.copy(hand)``: :meth:`clone` (the rules and cards are immutable; nothing is shared
        that changes)."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        """``copy.deepcopy(hand)``: :meth:`clone`, whose copy shares nothing that changes."""
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling: by :meth:`snapshot` (the versioned format; unpickling restores and checks it,
        so unpickling a :meth:`determinize` copy, which is not a hand that was played, raises
        :class:`~pokerdraw32.snapshot.SnapshotError`)."""
        return (_unpickle, (type(self), self.snapshot()))

    def determinize(self, seat: int, seed: int | None = None) -> Hand:
        """A clone in which every card ``seat`` cannot see is dealt again at random: the other
        players' hole cards, their discards, the dead cards and the stub order (for research:
        determinization for imperfect-information search).

        What ``seat`` knows stays: its own cards and discards, how many cards each player holds
        and discarded, cards shown at showdown, and every chip.  The hidden cards are drawn
        uniformly from the cards ``seat`` has not seen (the players' actions are not used to
        weight them).  The clone's generator is seeded with ``seed`` (``None``: from the OS), and
        its log is :meth:`events_for` ``seat``, so it holds no card the seat could not know.
        The other seats' showdown choices are private (R9.3): the clone has none for them
        (``muck_losers`` decides); ``seat``'s own choice stays.

        :raises IllegalActionError: no such seat.
        """
        seat = self._check_seat(seat)
        new = self.clone()
        new.rng = Rng(seed)
        new._redact(seat)
        for s, choice in enumerate(self.showdown_choices):
            if s != seat and choice is not None:
                new._drop_choice(s)
        known = set(self.hole[seat])
        for ev in self.events:
            if ev.seat == seat and ev.kind in _PRIVATE_EVENTS:
                known.update(int(c) for c in ev.cards)
        if self.result is not None:
            for cards in self.result.shown.values():
                known.update(int(c) for c in cards)
        # Where a hidden card may be.  The seat knows where its own discards are while they lie in
        # the discard pile (or dead): they stay.  Once reshuffled into the stub (R6.2) they may be in
        # the stub or another player's hand, like any card the seat has never seen; but never in the
        # pile or among the dead cards, which only hold cards the seat has not seen.
        hole, stub = new.hole, new.stub
        dead = [new.pile, new.muck, new._own_discards]
        live = [hole[s] for s in range(self.n) if s != seat and not (self.result and s in self.result.shown)]
        unseen = [c for place in dead for c in place if c not in known]
        unseen += [c for place in live for c in place if c not in known]
        unseen += [c for c in stub if c not in known]
        roaming = [c for place in live for c in place if c in known] + [c for c in stub if c in known]
        pool = new.rng.shuffled(sum(1 << c for c in unseen))
        for place in dead:
            for i, c in enumerate(place):
                if c not in known:
                    place[i] = pool.pop()
        pool = new.rng.shuffled(sum(1 << c for c in pool + roaming))
        for place in live:
            for i in range(len(place)):
                place[i] = pool.pop()
        new._set_cards(hole, dead[0], dead[1], dead[2], pool)
        return new

    def __repr__(self) -> str:
        return (f"<Hand {self.phase.value} button={self.button} stacks={self.stacks} pot={self.pot} "
                f"to_act={self.actor}>")
