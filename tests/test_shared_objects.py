"""What the per-action speed-ups of issue 25 (item 3) share or reuse must look exactly like what they
replace, in whichever build is installed (run the suite once as is and once with
``POKERDRAW32_NO_EXTENSIONS=1``):

- the engine's enums have a metaclass of their own (compiled, a faster attribute read): a missing
  member is the same ``AttributeError`` (class, message, ``name``, ``obj``) as a standard enum's;
- ``legal_actions()`` may refill the previous decision's object when nobody else holds it: an
  object a caller holds never changes afterwards, and equals a freshly computed one;
- an event its record alone fixes is made once and shared (the decode memo, and the events of
  ``_SIMPLE``): each equals, with the same ``repr`` and hash, one built afresh from its record.
"""

from __future__ import annotations

import copy
import importlib
import random
from enum import Enum
from typing import Any

import pytest
from conftest import RULE_VARIETY

from pokerdraw32 import Hand
from pokerdraw32.actions import ActionKind, Event, EventKind, LegalActions, Phase

PURE_CODES = importlib.import_module("pokerdraw32._handcore.codes")   # the plain-Python decoder, in both builds


# ------------------------------------------------------------------ enums
def _attribute_error(cls: Any, name: str) -> AttributeError:
    with pytest.raises(AttributeError) as info:
        getattr(cls, name)
    return info.value


@pytest.mark.parametrize("cls", [ActionKind, Phase, EventKind], ids=lambda c: c.__name__)
@pytest.mark.parametrize("name", ["NOPE", "call", "__nope__", "_missing", "Call"])
def test_a_missing_enum_member_is_the_standard_attribute_error(cls: Any, name: str) -> None:
    standard = Enum(cls.__name__, [(m.name, m.value) for m in cls])   # the standard metaclass
    assert type(standard) is type(Enum)
    mine, theirs = _attribute_error(cls, name), _attribute_error(standard, name)
    assert type(mine) is type(theirs) is AttributeError
    assert str(mine) == str(theirs)
    assert mine.args == theirs.args
    assert getattr(mine, "name", None) == getattr(theirs, "name", None)
    if hasattr(theirs, "obj"):
        assert mine.obj is cls and theirs.obj is standard
    assert not hasattr(cls, name)
    assert getattr(cls, name, 42) == 42


def test_enum_reads_still_give_members_and_class_attributes() -> None:
    assert ActionKind.CALL is ActionKind["CALL"] is ActionKind("call")
    assert Phase.DRAW is list(Phase)[2]
    assert EventKind.DISCARD in set(EventKind)
    assert ActionKind.__name__ == "ActionKind" and ActionKind.__members__["FOLD"] is ActionKind.FOLD
    assert isinstance(ActionKind, type(Enum))


# ------------------------------------------------------------------ play
def _choose(legal: LegalActions, rnd: random.Random) -> tuple[str, tuple[Any, ...]]:
    kind = rnd.choice(sorted(legal.kinds, key=lambda k: k.value))
    if kind is ActionKind.DISCARD:
        cards = list(legal.hole_cards)
        rnd.shuffle(cards)
        return "discard", (tuple(cards[:rnd.choice((0, 0, 1, 2, 3, 4))]),)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        assert legal.min_to is not None and legal.max_to is not None
        to = rnd.choice((legal.min_to, legal.max_to, rnd.randint(legal.min_to, legal.max_to)))
        return ("bet" if kind is ActionKind.BET else "raise_to"), (to,)
    if kind is ActionKind.FOLD and rnd.random() < 0.7:      # reach more draws and showdowns
        return ("check" if ActionKind.CHECK in legal.kinds else "call"), ()
    return {ActionKind.FOLD: "fold", ActionKind.CHECK: "check", ActionKind.CALL: "call",
            ActionKind.SPLIT: "split", ActionKind.DECLINE: "decline"}[kind], ()


def _hands() -> list[tuple[int, Any, list[int], int]]:
    out = []
    for r, rules in enumerate(RULE_VARIETY):
        for k in range(12):
            n = 2 + k % 4
            rnd = random.Random(1000 * r + k)
            stacks = [rnd.choice((3, 10, 40, 200, 1000)) * rules.largest_blind(n) // 2 + rnd.randrange(5)
                      for _ in range(n)]
            out.append((r, rules, stacks, k % n))
    return out


HANDS = _hands()


def _replayed(rules: Any, stacks: list[int], button: int, seed: int,
              moves: list[tuple[str, tuple[Any, ...]]]) -> Hand:
    h = Hand(rules, stacks, button, seed=seed)
    for name, args in moves:
        getattr(h, name)(*args)
    return h


@pytest.mark.parametrize(("r", "rules", "stacks", "button"), HANDS)
def test_held_legal_actions_never_change_and_equal_fresh_ones(r: int, rules: Any, stacks: list[int],
                                                              button: int) -> None:
    seed = 77 * r + button + len(stacks)
    rnd = random.Random(seed)
    h = Hand(rules, stacks, button, seed=seed)
    held: list[tuple[LegalActions, str, LegalActions, dict[str, Any]]] = []
    moves: list[tuple[str, tuple[Any, ...]]] = []
    while not h.is_complete:
        legal = h.legal_actions()
        assert legal is not None
        assert h.legal_actions() is legal                  # one object per decision point
        held.append((legal, repr(legal), copy.copy(legal), legal.to_dict()))
        fresh = _replayed(rules, stacks, button, seed, moves).legal_actions()
        assert fresh is not legal and fresh == legal and repr(fresh) == repr(legal) and hash(fresh) == hash(legal)
        move = _choose(legal, rnd)
        getattr(h, move[0])(*move[1])
        moves.append(move)
        # a bot that lets go of the object at once (the refill's case) sees the same values
        if rnd.random() < 0.5 and not h.is_complete:
            assert repr(h.legal_actions()) == repr(_replayed(rules, stacks, button, seed, moves).legal_actions())
    assert h.legal_actions() is None
    for legal, text, twin, fields in held:
        assert repr(legal) == text and legal == twin and legal.to_dict() == fields
        assert LegalActions(**{f: getattr(twin, f) for f in ("seat", "phase", "kinds", "call_amount", "min_to",
                                                             "max_to", "max_discard", "hole_cards")}) == legal
    assert len({id(legal) for legal, _, _, _ in held}) == len(held)   # none was reused while held


def _fresh(h: Hand, first: int, word: int) -> Event:
    """The event of a record built afresh: the plain-Python decoder's builder (no memo), then through
    the public constructor."""
    ev = PURE_CODES._decoded(h, first, word)
    return Event(ev.kind, ev.seat, ev.amount, tuple(ev.cards), tuple(ev.info))


@pytest.mark.parametrize(("r", "rules", "stacks", "button"), HANDS)
def test_shared_events_equal_fresh_ones(r: int, rules: Any, stacks: list[int], button: int) -> None:
    for repeat in range(3):     # the same records again: the memo's events the second time
        seed = 31 * r + 7 * repeat + button
        rnd = random.Random(seed)
        h = Hand(rules, stacks, button, seed=seed)
        returned: list[tuple[Event, str]] = []
        while not h.is_complete:
            legal = h.legal_actions()
            assert legal is not None
            name, args = _choose(legal, rnd)
            before = len(h._records(0))
            ev = getattr(h, name)(*args)
            if repeat < 2:
                returned.append((ev, repr(ev)))
            else:   # let go of it at once (a refilled discard's event is written into it next time)
                first, word = h._records(before)[:2]
                assert ev == _fresh(h, first, word) and repr(ev) == repr(_fresh(h, first, word))
            del ev
        words = h._records(0)
        events = h.events
        assert len(words) == 2 * len(events)
        fresh = [_fresh(h, words[i], words[i + 1]) for i in range(0, len(words), 2)]
        for ev, new in zip(events, fresh, strict=True):
            assert ev == new and repr(ev) == repr(new) and hash(ev) == hash(new)
            assert Event.from_dict(ev.to_dict()) == ev
        logged = [repr(e) for e in events]
        for ev, text in returned:    # what an action returned is its logged event, unchanged since
            assert repr(ev) == text and text in logged
        assert [repr(e) for e in h.events] == logged


def test_the_decode_memo_keeps_the_right_event_per_slot() -> None:
    """The plain-Python memo (the compiled one is the same code): _DECODED_MAX slots, each a pair
    (key, event); keys that share a slot replace each other, and every event is still its record's."""
    codes = PURE_CODES
    h = Hand(RULE_VARIETY[0], [10**6] * 3, 0, seed=5)
    first = 5 | 1 << 5     # a bet (record code 5) by seat 0 (seat + 1 in bits 5-7)
    for _ in range(2):
        for amount in range(1, 2 * codes._DECODED_MAX + 50):
            ev = codes.decode(h, first, amount + 1)
            assert ev == _fresh(h, first, amount + 1) and ev.amount == amount and ev.kind is EventKind.BET
            assert codes.decode(h, first, amount + 1) is ev        # shared while it keeps its slot
    assert len(codes._DECODED) == codes._DECODED_MAX
    for pair in codes._DECODED:
        if pair is not None:
            key, ev = pair
            assert ev == _fresh(h, key & (1 << 24) - 1, key >> 24)


def test_a_discard_event_let_go_of_is_refilled_and_right() -> None:
    """Five players each discard four cards: a caller that lets go of each discard's event gets the
    right one every time (compiled, written into the previous one's object)."""
    rules = RULE_VARIETY[0]
    for seed in range(40):
        h = Hand(rules, [200] * 5, seed % 5, seed=seed)
        discards = 0
        while h.actor is not None:
            legal = h.legal_actions()
            assert legal is not None
            before = len(h._records(0))
            if ActionKind.DISCARD in legal.kinds:
                ev = h.discard(legal.hole_cards[:4])
                first, word = h._records(before)[:2]
                assert ev.kind is EventKind.DISCARD and ev.amount == 4 and ev.cards == legal.hole_cards[:4]
                assert ev == _fresh(h, first, word) and repr(ev) == repr(_fresh(h, first, word))
                discards += 1
                del ev
            elif ActionKind.CHECK in legal.kinds:
                h.check()
            else:
                h.call()
        assert discards == 5
        assert [e for e in h.events if e.kind is EventKind.DISCARD] == [
            _fresh(h, h._records(0)[i], h._records(0)[i + 1]) for i in range(0, len(h._records(0)), 2)
            if h._records(0)[i] & 31 == 11]
