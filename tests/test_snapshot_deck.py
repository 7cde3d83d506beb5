"""A snapshot restores only with the card orders its generator's state and log give (R11.1).

Whoever can edit a stored snapshot must not be able to stack the draw: a stub put in another
order, a rotated or reversed stub, a discard pile in another order, a generator state from
elsewhere, hole cards traded with the stub, are all refused with :class:`SnapshotError` naming
the field, in hands that deal themselves and hands dealt by hand, before and after reshuffles
(R6.2), for a hand alone and for a table's running hand.  A stacked deck (``deck=``) cannot be
checked: its snapshot is refused.  Every untampered snapshot of every step still restores.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from test_snapshot import apply, random_actions
from test_table import FakeClock

from pokerdraw32 import CLASSIC, Hand, Rules
from pokerdraw32.bots import RandomBot
from pokerdraw32.cards import DECK
from pokerdraw32.snapshot import SnapshotError
from pokerdraw32.table import Table, TableError

RULES = [Rules(), Rules.preset("two-blind"), Rules(structure="fixed-limit"), Rules(structure="pot-limit")]


def steps(seed: int, auto_deal: bool, *, drawing: bool = False) -> Iterator[tuple[Hand, dict[str, Any]]]:
    """A random hand's snapshot (through JSON) at every step, explicit deals included; ``drawing``:
    everyone calls to the draw and discards 4 (reshuffles), 5 players."""
    rnd = random.Random(seed)
    n = 5 if drawing else rnd.randint(2, 5)
    h = Hand(rnd.choice(RULES), [rnd.choice([40, 100, 250]) for _ in range(n)], rnd.randrange(n),
             seed=rnd.getrandbits(64), auto_deal=auto_deal)

    def snap() -> tuple[Hand, dict[str, Any]]:
        return h, json.loads(json.dumps(h.snapshot()))

    yield snap()
    while h.pending_deal is not None:
        h.deal()
        yield snap()
    if drawing:
        while h.phase.value == "first_round":
            h.call() if "call" in h.legal_actions() else h.check()
        while h.phase.value == "draw":
            if h.pending_deal is not None:
                h.deal()
            else:
                h.discard(h.hole_cards(h.legal_actions().seat)[:4])
            yield snap()
    for action in random_actions(h, rnd):
        apply(h, action)
        while h.pending_deal is not None:
            h.deal()
            yield snap()
        yield snap()


def refused(snap: dict[str, Any], match: str) -> str:
    with pytest.raises(SnapshotError, match=match) as info:
        Hand.restore(snap)
    assert len(str(info.value)) < 400
    return str(info.value)


def reshuffled(snap: dict[str, Any]) -> bool:
    return any(ev["kind"] == "reshuffle" for ev in snap["events"])


@pytest.mark.parametrize("auto_deal", [True, False])
@pytest.mark.parametrize("seed", range(8))
def test_every_step_restores_and_every_reordered_stub_is_refused(seed: int, auto_deal: bool) -> None:
    rnd = random.Random(seed)
    for h, snap in steps(seed, auto_deal, drawing=seed % 2 == 1):
        again = Hand.restore(copy.deepcopy(snap))
        assert again.snapshot() == h.snapshot() and again.stub == h.stub
        if rnd.random() < 0.7:
            continue
        stub = snap["stub"]
        # the field named: the stub's order before a reshuffle, the reshuffle's (the generator) after one
        name = "'rng'" if reshuffled(snap) else "'stub'"
        edits = []
        if len(stub) >= 2:
            k = rnd.randrange(len(stub) - 1)
            edits += [[*stub[:k], stub[k + 1], stub[k], *stub[k + 2:]],     # two neighbours swapped
                      stub[1:] + stub[:1], stub[-1:] + stub[:-1],            # rotated
                      stub[::-1]]                                            # reversed
            i, j = sorted(rnd.sample(range(len(stub)), 2))
            edits.append([*stub[:i], stub[j], *stub[i + 1:j], stub[i], *stub[j + 1:]])   # any two swapped
        for new in edits:
            if new == stub:
                continue
            edited = copy.deepcopy(snap)
            edited["stub"] = new
            refused(edited, name)
        pile = snap["pile"]
        if len(set(pile)) >= 2:
            for new in (pile[::-1], pile[1:] + pile[:1]):
                if new != pile:
                    edited = copy.deepcopy(snap)
                    edited["pile"] = new
                    refused(edited, "'pile")
        edited = copy.deepcopy(snap)                   # another generator state: one draw on
        from pokerdraw32 import Rng
        probe = Rng(0)
        probe.setstate([int(w, 16) for w in snap["rng"]])
        probe.next_u64()
        edited["rng"] = [f"{w:016x}" for w in probe.getstate()]
        refused(edited, "'rng'")


@pytest.mark.parametrize("seed", range(6))
def test_hole_cards_traded_with_the_stub_are_refused_when_the_hand_deals_itself(seed: int) -> None:
    """A hand that deals itself dealt the generator's deck in order (R5.1): a hole card traded
    with a stub card (in the deal event, the hole and the stub alike) is refused.  Dealt by hand,
    the trade is a deal its dealer could have made when the stub stays the deck's order less the
    cards dealt: then it restores as written; with the card put in the traded one's place, not."""
    def trade(snap: dict[str, Any], mine: str, other: str) -> dict[str, Any]:
        text = json.dumps(snap).replace(f'"{mine}"', '"XX"').replace(f'"{other}"', f'"{mine}"')
        edited: dict[str, Any] = json.loads(text.replace('"XX"', f'"{other}"'))
        return edited

    for auto_deal in (True, False):
        h = Hand(Rules(), [100, 100, 100], seed % 3, seed=seed, auto_deal=auto_deal)
        deck = [str(DECK[c]) for c in h.stub]                # nothing dealt yet by hand: the whole deck
        while h.pending_deal is not None:
            h.deal([DECK[c] for c in h.stub[:5]])        # by hand: explicit cards (no round robin)
        snap = json.loads(json.dumps(h.snapshot()))
        seat = h.actor
        mine, other = snap["hole"][seat][0], snap["stub"][3]
        edited = trade(snap, mine, other)
        if auto_deal:
            refused(edited, "'events': the cards dealt are not the deck")
            continue
        refused(copy.deepcopy(edited), "'stub' is not in the order")
        left = set(snap["stub"]) - {other} | {mine}
        edited["stub"] = [c for c in deck if c in left]
        again = Hand.restore(copy.deepcopy(edited))
        assert again.snapshot() | {"engine": edited["engine"]} == edited
        assert str(again.hole_cards(seat)[0]) == other


def test_a_round_robin_deal_must_be_the_decks_first_cards() -> None:
    """auto_deal=False, ``deal()`` without cards deals the hole cards one at a time (R5.1) from
    cards set aside: they must be the first of the generator's deck."""
    h = Hand(Rules(), [100, 100, 100], 0, seed=11, auto_deal=False)
    h.deal()
    snap = json.loads(json.dumps(h.snapshot()))
    assert snap["round_robin"] and Hand.restore(copy.deepcopy(snap)).snapshot() == snap
    edited = copy.deepcopy(snap)
    rr = edited["round_robin"]
    rr[1][0], rr[2][0] = rr[2][0], rr[1][0]              # two seats' cards not yet dealt, traded
    stub = edited["stub"]
    a, b = stub.index(rr[1][0]), stub.index(rr[2][0])
    stub[a], stub[b] = stub[b], stub[a]
    with pytest.raises(SnapshotError, match=r"'round_robin'|'stub'"):
        Hand.restore(edited)


def test_a_stacked_deck_is_not_restored() -> None:
    """The snapshot does not say the deck was stacked, so its stub cannot be told from an edited
    one: refused, naming the field and why."""
    for auto_deal in (True, False):
        h = Hand(CLASSIC, [100, 100, 100], 1, deck=list(reversed(DECK)), auto_deal=auto_deal)
        while h.pending_deal is not None:
            h.deal()
        message = refused(json.loads(json.dumps(h.snapshot())), "'events'|'stub'|'rng'")
        assert "stacked deck (deck=)" in message


def test_the_edit_would_have_stacked_the_draw() -> None:
    """What the check prevents: the stub swapped before the draw gives the first drawer other cards."""
    h = Hand(Rules(), [100, 100, 100], 0, seed=3)
    for _ in range(3):
        h.call() if "call" in h.legal_actions() else h.check()
    snap = json.loads(json.dumps(h.snapshot()))
    edited = copy.deepcopy(snap)
    edited["stub"][:4] = edited["stub"][4:8]
    edited["stub"][4:8] = snap["stub"][:4]
    refused(edited, "'stub' is not in the order the generator's state")
    h.discard(h.hole_cards(h.actor)[:4])
    assert [str(c) for c in h.events[-1].cards] == snap["stub"][:4]


def table_snapshots(seed: int, deck: list[Any] | None = None) -> Iterator[tuple[Table, dict[str, Any]]]:
    clock = FakeClock()
    t = Table(Rules(), seed=seed, clock=clock, seats=4, min_buy_in=10)
    for seat in range(4):
        t.join(seat, f"p{seat}", 100)
    bot = RandomBot(seed)
    for _ in range(2):
        h = t.start_hand(deck=deck)
        while t.actor is not None:
            yield t, json.loads(json.dumps(t.snapshot()))
            t.act(t.actor, bot.decide(h))
            clock.now += 1


@pytest.mark.parametrize("seed", range(3))
def test_a_tables_running_hand_is_checked_too(seed: int) -> None:
    for t, snap in table_snapshots(seed):
        def clock(now: float = snap["clock"]) -> float:
            return now
        assert Table.restore(copy.deepcopy(snap), clock=clock).snapshot() == t.snapshot()
        stub = snap["hand"]["stub"]
        if len(stub) >= 2 and not reshuffled(snap["hand"]):
            edited = copy.deepcopy(snap)
            edited["hand"]["stub"] = stub[1:] + stub[:1]
            with pytest.raises(SnapshotError, match="'stub'"):
                Table.restore(edited, clock=clock)
        if snap["hand"]["pending_deal"] is None:   # a table's hand deals itself
            edited = copy.deepcopy(snap)
            edited["hand"]["auto_deal"] = False
            with pytest.raises(TableError, match="auto_deal"):
                Table.restore(edited, clock=clock)


def test_a_tables_stacked_hand_is_not_restored() -> None:
    _t, snap = next(table_snapshots(1, deck=list(DECK)))
    with pytest.raises(SnapshotError, match="stacked deck"):
        Table.restore(snap, clock=lambda: snap["clock"])
