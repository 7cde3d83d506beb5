"""Shared helpers of the scenario tests: fixed hands, explicit dealing, exact endings.

Imported by the test modules (pytest puts ``tests/`` on ``sys.path``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pokerdraw32 import ActionKind, Event, EventKind, Hand, Phase, Rules

CLASSIC = Rules.preset("classic")
TWO_BLIND = Rules.preset("two-blind")

# six fixed, pairwise disjoint hands, strongest first (R2; R2.1: flush over full house)
QUADS = "Ks Kh Kd Kc 7s"          # four of a kind
FLUSH = "Qh Th 9h 8h 7h"          # flush, queen high
FULL = "As Ad Ac 9s 9d"           # full house
TRIPS = "Qs Qd Qc 8d Ts"          # three of a kind
PAIR = "Js Jc Td 8c 7c"           # one pair
HIGH = "Ah Jd 9c 8s 7d"           # high card (A-7-8-9-J: no straight)


def new_hand(rules: Rules, stacks: Sequence[int], button: int, holes: Mapping[int, str], *, seed: int = 7) -> Hand:
    """A hand whose hole cards are dealt explicitly (``holes[seat]``), made with
    ``auto_deal=False``: replacements in the draw wait for :meth:`Hand.deal` too."""
    h = Hand(rules, list(stacks), button, seed=seed, auto_deal=False)
    while h.pending_deal is not None:
        req = h.pending_deal
        assert req.kind == "hole" and req.count == 5
        h.deal(holes[req.seat])
    return h


def call_around(h: Hand, fold: Iterable[int] = ()) -> None:
    """First round: the seats in ``fold`` fold, the others call, the largest blind checks."""
    folders = set(fold)
    assert h.phase is Phase.FIRST_ROUND
    while h.phase is Phase.FIRST_ROUND:
        legal = h.legal_actions()
        assert legal is not None
        if h.actor in folders:
            h.fold()
        elif ActionKind.CHECK in legal.kinds:
            h.check()
        else:
            h.call()


def stand_pat_all(h: Hand) -> None:
    assert h.phase is Phase.DRAW
    while h.phase is Phase.DRAW:
        h.stand_pat()


def check_around(h: Hand) -> None:
    while h.phase is Phase.SECOND_ROUND:
        h.check()


def assert_final(h: Hand, expected: Sequence[int]) -> None:
    """Exact final stacks, chip conservation (R9.5) and a consistent net."""
    assert h.phase is Phase.COMPLETE and h.result is not None
    assert list(h.result.stacks) == list(expected)
    assert list(h.stacks) == list(expected)
    assert sum(h.result.stacks) == sum(h.starting_stacks)
    assert list(h.result.net) == [e - s for e, s in zip(expected, h.starting_stacks, strict=False)]
    assert sum(h.result.net) == 0
    assert h.pot == 0


def kinds_of(h: Hand, kind: EventKind) -> list[Event]:
    return [e for e in h.events if e.kind is kind]


def blinds_posted(h: Hand) -> list[tuple[int | None, int | None, object]]:
    return [(e.seat, e.amount, e.get("blind")) for e in kinds_of(h, EventKind.POST_BLIND)]


def shows(h: Hand) -> list[tuple[EventKind, int | None]]:
    return [(e.kind, e.seat) for e in h.events if e.kind in (EventKind.SHOW, EventKind.MUCK)]
