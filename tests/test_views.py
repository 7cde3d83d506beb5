"""Per-seat views, the public view and the redacted event log: nothing a seat may not know."""

from __future__ import annotations

import json
import re

import pytest

from pokerdraw32 import Action, ActionKind, EventKind, Hand, Rules
from pokerdraw32.bots import RandomBot

CARD = re.compile(r"\b[789TJQKA][shdc]\b")


def known_to(h: Hand, seat: int | None) -> set[str]:
    """Cards ``seat`` may know: its own (ever held) and any shown at showdown."""
    mine: set[str] = set()
    for e in h.events:
        if e.seat == seat and e.kind in (EventKind.DEAL_HOLE, EventKind.DEAL_DRAW):
            mine.update(str(c) for c in e.cards)
        if e.kind is EventKind.SHOW:
            mine.update(str(c) for c in e.cards)
    return mine


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_views_and_logs_never_leak(players: int) -> None:
    for seed in range(40):
        h = Hand(Rules.preset("two-blind" if seed % 2 else "classic"), [30 + 7 * s for s in range(players)],
                 seed % players, seed=seed)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        while True:
            for seat in [None, *range(players)]:
                text = json.dumps(h.public_view() if seat is None else h.view(seat))
                text += json.dumps([e.to_dict() for e in h.events_for(seat)])
                leaked = set(CARD.findall(text)) - known_to(h, seat)
                assert not leaked, (seed, seat, leaked)
            if h.is_complete:
                break
            assert h.actor is not None
            h.act(bots[h.actor].decide(h))


def test_events_for_keeps_counts() -> None:
    h = Hand(Rules(), [50, 50, 50], 0, seed=4)
    for e in h.events_for(2):
        if e.kind is EventKind.DEAL_HOLE:
            assert (len(e.cards) == 5) == (e.seat == 2)
            assert e.seat == 2 or e.get("hidden") == 5
    with pytest.raises(ValueError, match="no seat 7"):
        h.events_for(7)


def test_strings_accepted_by_can_and_legal_actions() -> None:
    h = Hand(Rules(), [100, 100, 100], 0, seed=1)
    assert h.can("call") and h.can(Action.call()) and not h.can("check")
    assert not h.can("zzz") and h.can("r 4") and not h.can("r 3")
    legal = h.legal_actions()
    assert legal is not None
    assert "call" in legal and ActionKind.CALL in legal and "check" not in legal


def test_public_view_shape() -> None:
    h = Hand(Rules(), [100, 100, 100], 0, seed=1)
    v = h.public_view()
    assert "cards" not in v and v["to_act"] == 0 and v["pot"] == 3 and v["bets"] == [0, 1, 2]
    json.dumps(v)
    for action in ("c", "c", "k", "p", "p", "p", "s", "s", "s"):
        h.act(action)
    v = h.public_view()
    assert v["phase"] == "complete" and v["pots"][0]["shared"] and v["shown"] == []


def _pots_by_levels(h: Hand) -> list[dict[str, object]]:
    """The pots of a running hand by the general rule (R9.1): one pot per all-in level of a live
    player, then the pot the players still betting contest (the public view's ``pots``)."""
    n, contrib, folded, stacks = h.n, h.contrib, h.folded, h.stacks
    live = [s for s in range(n) if not folded[s]]
    levels = sorted({contrib[s] for s in live if stacks[s] == 0 and contrib[s] > 0})
    if any(stacks[s] > 0 for s in live) or not levels:
        levels.append(max(contrib))
    pots: list[dict[str, object]] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in contrib) + (h.dead if not prev else 0)
        if level == levels[-1]:
            amount += sum(c - level for c in contrib if c > level)
        if amount > 0:
            pots.append({"amount": amount, "eligible": [s for s in live if contrib[s] >= level or stacks[s] > 0]})
        prev = level
    return pots


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_pots_of_the_public_view_at_every_step(players: int) -> None:
    """With nobody all-in the view takes a shortcut (one pot, every live player eligible): the
    same pots as the rule for all-in levels, at every step of random hands with short stacks."""
    checked = shortcut = 0
    for seed in range(30):
        h = Hand(Rules.preset("classic"), [6 + 9 * ((s + seed) % 4) for s in range(players)], seed % players,
                 seed=seed)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        while not h.is_complete:
            assert h.public_view()["pots"] == _pots_by_levels(h)
            shortcut += all(h.stacks[s] > 0 for s in range(players) if not h.folded[s])
            checked += 1
            h.act(bots[h.actor].decide(h))
    assert checked > 50 and 0 < shortcut < checked
