"""Versioned JSON snapshots of a hand in progress, and their restoration.

A server persists a hand with :meth:`Hand.snapshot() <pokerdraw32.hand.Hand.snapshot>` and, after a
restart, continues it with :meth:`Hand.restore() <pokerdraw32.hand.Hand.restore>`: the restored
hand is equal in every respect to the saved one (stub order, discard pile, the generator's state,
the event log), so it continues identically, action for action and card for card.

The snapshot is plain JSON data (``json.dumps`` works as is).  It holds every card, including
the stub order: it is the dealer's record, never for players (send them
:meth:`~pokerdraw32.hand.Hand.view` instead).  Cards are written as text (``"Ah"``), the
generator's 256-bit state as four 16-digit hex strings (JSON numbers above 2**53 are not safe
in every language).

Format ``pokerdraw32/hand``, version :data:`SNAPSHOT_VERSION`.  Reading checks the format
name and the version first: a snapshot from another version is rejected with a message naming
both versions, never misread.  Then every field is checked for its type and range, the cards
must be all 32 exactly once (R1.1) and the chips must add up to the starting stacks (R9.5).
Finally the event log is replayed through a fresh engine (every action checked, R3-R9), the
cards the log does not determine (the stub order, the generator's state) are taken from the
snapshot, except after a reshuffle (R6.2): the generator is stepped back from its saved state to
its state before each reshuffle, and the reshuffles are replayed from there, so the cards dealt
from the reshuffled pile (by a hand that deals itself), the stub left and the saved generator
state must all be what the generator gives (R11.1).  The deck the hand shuffled at its start is
checked the same way (the generator's state after that shuffle is stepped back to the state
before it): a hand that deals itself must have dealt that deck's cards in its order (the hole
cards, R5.1, then the replacements, R6.2) and kept the rest as its stub in that order; a hand
dealt by hand (``auto_deal=False``: its dealer chose the cards) must keep as its stub that deck
less the cards dealt, in the deck's order (:meth:`~pokerdraw32.hand.Hand.deal` without cards deals
from it).  So an edited stub, pile or generator state, which would deal other cards than the
saved hand would, is refused.  A hand dealt from a stacked deck (``deck=``) cannot be checked so:
its snapshot is refused too (nothing in it tells its stub from an edited one).  The snapshot of
the result must equal the input exactly, field by field and event by event (the blinds and posts included; only
``engine``, the writer's version, is free).  So a snapshot restores to a state the engine
could have reached, or it is refused: an edited field or an illegal log raises
:class:`SnapshotError`, naming the first field or event that disagrees.  A
:meth:`~pokerdraw32.hand.Hand.determinize` clone's snapshot (``redacted_for`` set) is refused too:
its log hides cards, so it cannot be checked, and it is a search copy, not a hand that was played.

The format is written and checked by the engine's own :mod:`pokerdraw32.hand._snapshot` (below the
hand, which uses it for :meth:`~pokerdraw32.hand.Hand.snapshot` and :meth:`~pokerdraw32.hand.Hand.restore`);
this module is its public face: the functions, the format's name and version, and
:class:`SnapshotError` (defined in :mod:`pokerdraw32.errors`).

>>> import json
>>> from pokerdraw32 import Hand, Rules
>>> h = Hand(Rules(), [100, 100, 100], button=0, seed=1)
>>> _ = h.call()
>>> text = json.dumps(h.snapshot())
>>> again = Hand.restore(json.loads(text))
>>> again.events == h.events and again.stub == h.stub and again.actor == h.actor
True
"""

from __future__ import annotations

from typing import Any

from .errors import SnapshotError
from .hand import Hand
from .hand._snapshot import SNAPSHOT_FORMAT, SNAPSHOT_VERSION
from .hand._snapshot import restore as _restore
from .hand._snapshot import snapshot as _snapshot

__all__ = ["SNAPSHOT_FORMAT", "SNAPSHOT_VERSION", "SnapshotError", "restore", "snapshot"]


def snapshot(hand: Hand) -> dict[str, Any]:
    """The complete state of ``hand`` as JSON-serialisable data (see the module docstring);
    :meth:`Hand.snapshot <pokerdraw32.hand.Hand.snapshot>`."""
    return _snapshot(hand)


def restore(data: Any) -> Hand:
    """Rebuild the hand saved by :func:`snapshot`: :meth:`Hand.restore <pokerdraw32.hand.Hand.restore>`.

    :raises SnapshotError: another format or version, or the first bad field, by name.
    """
    return _restore(data, Hand)
