"""Events as a seat sees them.

The hand's log is compact (issue 11): a record is two integers, turned into an
:class:`~pokerdraw32.actions.Event` by :func:`pokerdraw32._handcore.state.decode` only when someone reads
:attr:`Hand.events`, :meth:`Hand.events_for`, a view or an action's return value.

Record layout (written and read by :mod:`pokerdraw32._handcore.state`):

* first word: the :class:`EventKind` index (bits 0-4), seat + 1 (bits 5-7, 0 = none), flags
  (bits 8-23): POST_BLIND bits 0-2 which blind (small, big, over, live, dead) and bit 3 all-in;
  CALL/BET/RAISE bit 3 all-in, bit 4 a full bet or raise (R3.5); TIMEOUT bit 5 in the draw (R6.3,
  else R7.3); DEAL_DRAW bit 6 reshuffled; ROUND_END bit 7 the second round; AWARD bits 0-2 the
  pot, bit 3 shared, bits 8-12 the winners; bit 15 the cards are hidden (a redacted copy);
* second word: amount + 1 (0 = none), or for events with cards the number of cards (bits 0-2)
  and 6 bits a card, in order.
"""

from __future__ import annotations

from ..actions import Event, EventKind, _event

PRIVATE_EVENTS = frozenset({EventKind.DEAL_HOLE, EventKind.DEAL_DRAW, EventKind.DISCARD})
"""The events whose cards only their seat may see (a deal, a discard, a draw)."""


def posted_extras(events: list[Event]) -> dict[int, tuple[int, int]]:
    """What entry bets and missed blinds took before the deal, beyond the blinds, by seat:
    ``{seat: (live, dead)}`` in chips, read from the log (R4.5, R10.2, R10.3)."""
    out: dict[int, tuple[int, int]] = {}
    for ev in events:
        if ev.kind is EventKind.POST_BLIND and ev.seat is not None and ev.amount:
            what = ev.get("blind")
            if what in ("live", "dead"):
                live, dead = out.get(ev.seat, (0, 0))
                out[ev.seat] = (live + ev.amount, dead) if what == "live" else (live, dead + ev.amount)
    return out


def hidden(ev: Event) -> Event:
    """A private event (a deal, discard or draw) as others see it: without its cards, their number
    in ``info["hidden"]`` (:meth:`Hand.events_for`; also the bots' views)."""
    return _event(ev.kind, ev.seat, ev.amount, (), (*ev.info, ("hidden", len(ev.cards))))


def events_for(events: list[Event], seat: int | None, start: int) -> list[Event]:
    """``events[start:]`` as ``seat`` may see them (None: an onlooker)."""
    out = []
    for ev in events[start:]:
        if ev.cards and ev.seat != seat and ev.kind in PRIVATE_EVENTS:
            ev = hidden(ev)
        out.append(ev)
    return out
