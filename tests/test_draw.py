"""The draw (R5.1 dealing, R6.1, R6.2): every card accounted for, the stub running out,
the discard pile, folded hands, and explicit dealing with ``auto_deal=False``.
"""

from __future__ import annotations

import copy

import pytest

from pokerdraw32 import (
    DECK,
    ActionKind,
    DealError,
    EventKind,
    Hand,
    IllegalActionError,
    InvalidCardError,
    Phase,
    Rules,
    parse_cards,
)

CLASSIC = Rules.preset("classic")
TWO_BLIND = Rules.preset("two-blind")
SEEDS = range(300)


# ----------------------------------------------------------------------------- helpers
def locations(h: Hand) -> list[int]:
    """Every card the hand knows of: hole cards, stub, discard pile, muck and the drawing
    player's discards set aside until served (R6.2)."""
    cards: list[int] = []
    for hole in h.hole:
        cards.extend(int(c) for c in hole)
    cards.extend(int(c) for c in h.stub)
    cards.extend(int(c) for c in h.pile)
    cards.extend(int(c) for c in h.muck)
    cards.extend(int(c) for c in h._own_discards)
    return cards


def assert_all_cards_once(h: Hand) -> None:
    cards = locations(h)
    assert len(cards) == 32, f"{len(cards)} cards accounted for"
    assert sorted(cards) == list(range(32))


def assert_no_own_discards_received(h: Hand) -> None:
    """R6.2: the DEAL_DRAW cards of a seat never include that seat's DISCARD cards."""
    discarded: dict[int, set[int]] = {}
    for e in h.events:
        if e.kind is EventKind.DISCARD:
            discarded[e.seat] = {int(c) for c in e.cards}
        elif e.kind is EventKind.DEAL_DRAW:
            got = {int(c) for c in e.cards}
            assert not got & discarded[e.seat], f"seat {e.seat} received its own discards"
            assert len(got) == len(discarded[e.seat])


def call_around(h: Hand, fold=()) -> None:
    while h.phase is Phase.FIRST_ROUND:
        if h.actor in fold:
            h.fold()
        elif ActionKind.CHECK in h.legal_actions().kinds:
            h.check()
        else:
            h.call()


def snapshot(h: Hand) -> dict:
    """Everything about the hand, deep-copied, the generator as its state, the log as its records
    (the core's fields by their snapshot names, :meth:`HandCore._export`)."""
    state = {k: copy.deepcopy(v) for k, v in h._export().items() if k != "rng"}
    state["log"] = h._records(0)
    state["rng"] = tuple(h.rng.getstate())
    state["events_len"] = len(h.events)
    return state


def held(h: Hand, seat: int) -> list[int]:
    return [int(c) for c in h.hole[seat]]


# ----------------------------------------------------------------------------- R5.1 dealing
def test_r5_1_dealt_one_at_a_time_from_left_of_button():
    """With a stacked deck, the k-th player left of the button gets cards k, k+n, ... of
    the deck, and the draw then takes the stub from its top."""
    h = Hand(CLASSIC, [100, 100, 100], 1, deck=DECK)
    order = [2, 0, 1]
    for k, seat in enumerate(order):
        assert held(h, seat) == [k, k + 3, k + 6, k + 9, k + 12]
    assert h.stub == list(range(15, 32))
    deals = [e.seat for e in h.events if e.kind is EventKind.DEAL_HOLE]
    assert deals == order
    call_around(h)
    assert h.actor == 2
    h.discard([DECK[0], DECK[3]])
    assert held(h, 2) == [6, 9, 12, 15, 16]
    assert h.stub == list(range(17, 32))


# ----------------------------------------------------------------------------- R6.1, R6.2 draw
@pytest.mark.parametrize("rules", [CLASSIC, TWO_BLIND], ids=["classic", "two-blind"])
def test_r6_2_five_players_discard_four_empties_the_stub(rules):
    """5 players dealt 25 cards leave a stub of 7; each discards 4: four reshuffles of the
    previous player's 4 discards.  After every step, all 32 cards are accounted for exactly
    once, and nobody receives their own discards."""
    for seed in SEEDS:
        h = Hand(rules, [100] * 5, seed % 5, seed=seed)
        assert_all_cards_once(h)
        call_around(h)
        assert h.phase is Phase.DRAW
        order = []
        while h.phase is Phase.DRAW:
            seat = h.actor
            order.append(seat)
            before = held(h, seat)
            throw = before[:4]
            h.discard([DECK[c] for c in throw])
            after = held(h, seat)
            assert len(after) == 5 and after[0] == before[4]
            assert not set(after) & set(throw)                       # R6.2
            assert_all_cards_once(h)
        assert order == [(seed % 5 + 1 + i) % 5 for i in range(5)]    # R6.1 from left of the button
        reshuffles = [e for e in h.events if e.kind is EventKind.RESHUFFLE]
        assert [e.amount for e in reshuffles] == [4, 4, 4, 4]
        draws = [e for e in h.events if e.kind is EventKind.DEAL_DRAW]
        assert [e.get("reshuffled") for e in draws] == [False, True, True, True, True]
        assert_no_own_discards_received(h)
        assert h.stub and len(h.stub) == 3


@pytest.mark.parametrize("rules", [CLASSIC, TWO_BLIND], ids=["classic", "two-blind"])
def test_r6_2_random_discards_account_for_every_card(rules):
    for seed in SEEDS:
        n = 2 + seed % 4
        h = Hand(rules, [100] * n, seed % n, seed=seed)
        call_around(h)
        k = seed
        while h.phase is Phase.DRAW:
            hole = held(h, h.actor)
            count = (k * 7 + 3) % 5
            k += 1
            h.discard([DECK[c] for c in hole[:count]])
            assert_all_cards_once(h)
        assert_no_own_discards_received(h)


def _fold_then_draw_four(rules, seed):
    """5 players, the first to act folds, the other four discard 4 each."""
    h = Hand(rules, [100] * 5, seed % 5, seed=seed)
    folder = h.actor
    folded_cards = set(held(h, folder))
    call_around(h, fold=(folder,))
    assert h.hole[folder] == []
    if rules.reshuffle_folded:
        assert folded_cards <= set(h.pile) and not h.muck                   # R6.2 option on
    else:
        assert set(h.muck) == folded_cards and not h.pile
    while h.phase is Phase.DRAW:
        h.discard([DECK[c] for c in held(h, h.actor)[:4]])
        assert_all_cards_once(h)
    assert_no_own_discards_received(h)
    received = set()
    for e in h.events:
        if e.kind is EventKind.DEAL_DRAW:
            received |= {int(c) for c in e.cards}
    return folded_cards, received, h


def test_r6_2_reshuffle_folded_on_folded_cards_can_be_dealt():
    hits = 0
    for seed in SEEDS:
        folded, received, h = _fold_then_draw_four(TWO_BLIND, seed)
        hits += bool(folded & received)
        # first reshuffle: pile = the first drawer's 4 discards + the 5 folded cards
        first = next(e for e in h.events if e.kind is EventKind.RESHUFFLE)
        assert first.amount == 9
    assert hits > 200          # 16 cards needed from 7 + 9 + ...: a folded card is nearly always dealt


def test_r6_2_reshuffle_folded_off_folded_cards_stay_dead():
    for seed in SEEDS:
        folded, received, h = _fold_then_draw_four(CLASSIC, seed)
        assert not folded & received
        assert folded <= set(h.muck)
        first = next(e for e in h.events if e.kind is EventKind.RESHUFFLE)
        assert first.amount == 4


def test_r6_2_reshuffle_folded_only_with_option():
    """The option decides alone: classic with it on behaves like two-blind for the pile."""
    _, _, h = _fold_then_draw_four(CLASSIC.replace(reshuffle_folded=True), 3)
    assert next(e for e in h.events if e.kind is EventKind.RESHUFFLE).amount == 9
    _folded, _received, h = _fold_then_draw_four(TWO_BLIND.replace(reshuffle_folded=False), 3)
    assert next(e for e in h.events if e.kind is EventKind.RESHUFFLE).amount == 4


@pytest.mark.parametrize("bad", [[], [0, 1, 2, 3, 4]])
def test_r6_1_discard_count_limits(bad):
    h = Hand(CLASSIC, [100, 100, 100], 0, seed=5)
    call_around(h)
    if not bad:
        h.discard([])
        assert h.phase is Phase.DRAW
        return
    before = snapshot(h)
    with pytest.raises(IllegalActionError, match=r"R6\.1"):
        h.discard([DECK[c] for c in held(h, h.actor)])                  # 5 cards: never
    assert snapshot(h) == before


def test_r6_1_discard_card_not_held_and_duplicate():
    h = Hand(CLASSIC, [100, 100, 100], 0, seed=5)
    call_around(h)
    before = snapshot(h)
    other = held(h, (h.actor + 1) % 3)[0]
    with pytest.raises(IllegalActionError, match=str(DECK[other])):
        h.discard([DECK[other]])
    assert snapshot(h) == before
    with pytest.raises(IllegalActionError):
        h.discard([DECK[h.stub[0]]])
    assert snapshot(h) == before
    # a repeated card in a discard is rejected (as a bad card list)
    mine = DECK[held(h, h.actor)[0]]
    with pytest.raises((IllegalActionError, InvalidCardError)):
        h.act(f"d {mine} {mine}")
    assert snapshot(h) == before


def test_r6_1_all_in_players_draw_too():
    h = Hand(CLASSIC, [10, 100, 100], 0, seed=9)
    h.raise_to(10, seat=0)
    h.call()
    h.call()
    assert h.phase is Phase.DRAW
    seats = []
    while h.phase is Phase.DRAW:
        seats.append(h.actor)
        h.stand_pat()
    assert seats == [1, 2, 0]


# ----------------------------------------------------------------------------- explicit dealing
def manual(rules=CLASSIC, n=5, seed=21) -> Hand:
    return Hand(rules, [100] * n, 0, seed=seed, auto_deal=False)


def test_explicit_hole_deal_errors_leave_state_unchanged():
    h = manual()
    assert h.pending_deal.kind == "hole" and h.pending_deal.seat == 1
    h.deal("Ah Kd 7c 8s 9h")
    assert h.pending_deal.seat == 2
    before = snapshot(h)
    cases = [
        ("Ah Qd Qc Qs Qh", DealError, "Ah"),          # already in play
        ("6h Qd Qc Qs Qh", InvalidCardError, "6h"),   # outside the 32-card deck (R1.1)
        ("Qd Qd Qc Qs Qh", InvalidCardError, "Qd"),   # duplicate
        ("Qd Qc Qs Qh", DealError, "5"),              # wrong count
        ("Qd Qc Qs Qh Jh Jd", DealError, "5"),
        ("Qd Qc Qs Qh Jokr", InvalidCardError, "Jokr"),
    ]
    for cards, exc, named in cases:
        with pytest.raises(exc, match=named):
            h.deal(cards)
        assert snapshot(h) == before, cards
    with pytest.raises(IllegalActionError):
        h.fold()                                        # a deal is pending
    assert snapshot(h) == before
    h.deal("Qd Qc Qs Qh Jh")
    assert h.pending_deal.seat == 3


def test_explicit_deal_when_nothing_pending():
    h = Hand(CLASSIC, [100, 100], 0, seed=1)
    before = snapshot(h)
    with pytest.raises(DealError):
        h.deal("Ah Kd 7c 8s 9h")
    assert snapshot(h) == before


def test_explicit_draw_deal_errors_after_the_stub_is_exhausted():
    """Five players; seat 1 draws 4 from the stub (3 left); seat 2 discards 4 and must get
    the 3 stub cards plus one of seat 1's discards -- never its own (R6.2)."""
    h = manual()
    while h.pending_deal is not None:
        h.deal()                                       # hole cards from the stub
    call_around(h)
    assert h.actor == 1 and len(h.stub) == 7
    throw1 = held(h, 1)[:4]
    h.discard([DECK[c] for c in throw1])
    assert h.pending_deal.seat == 1 and h.pending_deal.kind == "draw" and h.actor is None
    # while the stub lasts, replacements come from it: another player's card is refused
    before = snapshot(h)
    intruder = held(h, 3)[0]
    with pytest.raises(DealError, match=str(DECK[intruder])):
        h.deal([DECK[c] for c in h.stub[:3]] + [DECK[intruder]])
    assert snapshot(h) == before
    with pytest.raises(DealError, match=r"R6\.2"):                 # own discard
        h.deal([DECK[c] for c in h.stub[:3]] + [DECK[throw1[0]]])
    assert snapshot(h) == before
    new1 = h.stub[3:7]
    h.deal([DECK[c] for c in new1])
    assert sorted(held(h, 1)[1:]) == sorted(new1) and len(h.stub) == 3 and sorted(h.pile) == sorted(throw1)
    assert_all_cards_once(h)

    assert h.actor == 2
    throw2 = held(h, 2)[:4]
    h.discard([DECK[c] for c in throw2])
    assert_all_cards_once(h)
    stub3 = [DECK[c] for c in h.stub]
    before = snapshot(h)
    bad = [
        ([*stub3, DECK[throw2[0]]], DealError, str(DECK[throw2[0]])),    # own discard (R6.2)
        ([*stub3, DECK[held(h, 2)[0]]], DealError, str(DECK[held(h, 2)[0]])),   # own kept card
        ([*stub3, DECK[held(h, 4)[0]]], DealError, str(DECK[held(h, 4)[0]])),   # someone's card
        ([*stub3[:2], DECK[throw1[0]], DECK[throw1[1]]], DealError, "stub"),  # stub first
        (stub3, DealError, "4"),                                          # wrong count
        ([*stub3, "6h"], InvalidCardError, "6h"),
        ([*stub3, stub3[0]], InvalidCardError, str(stub3[0])),           # duplicate
    ]
    for cards, exc, named in bad:
        with pytest.raises(exc, match=named):
            h.deal(cards)
        assert snapshot(h) == before, cards
    h.deal([*stub3, DECK[throw1[2]]])
    ev = h.events[-1]
    assert ev.kind is EventKind.DEAL_DRAW and ev.get("reshuffled") is True
    assert [e.amount for e in h.events if e.kind is EventKind.RESHUFFLE] == [4]
    assert h.stub and throw1[2] not in h.stub and sorted(h.stub) == sorted(throw1[:2] + throw1[3:])
    assert sorted(h.pile) == sorted(throw2)
    assert_all_cards_once(h)
    # the rest from the stub, automatically
    while h.phase is Phase.DRAW:
        if h.pending_deal is not None:
            h.deal()
        else:
            h.discard([DECK[c] for c in held(h, h.actor)[:4]])
        assert_all_cards_once(h)
    assert_no_own_discards_received(h)


def test_explicit_draw_deal_folded_cards_per_option():
    """After the stub is gone, a folded hand's card may be dealt only with reshuffle_folded."""
    for rules, allowed in ((CLASSIC, False), (TWO_BLIND, True)):
        h = manual(rules, n=5, seed=4)
        while h.pending_deal is not None:
            h.deal()
        folder = h.actor
        dead = held(h, folder)[0]
        call_around(h, fold=(folder,))
        seat = h.actor
        h.discard([DECK[c] for c in held(h, seat)[:4]])
        h.deal([DECK[c] for c in h.stub[:4]])
        seat = h.actor
        h.discard([DECK[c] for c in held(h, seat)[:4]])
        assert len(h.stub) == 3
        cards = [DECK[c] for c in h.stub] + [DECK[dead]]
        if allowed:
            h.deal(cards)
            assert dead in h.hole[seat]
        else:
            before = snapshot(h)
            with pytest.raises(DealError, match=str(DECK[dead])):
                h.deal(cards)
            assert snapshot(h) == before
        assert_all_cards_once(h)


def test_stacked_deck_must_be_the_whole_deck():
    with pytest.raises((DealError, InvalidCardError)):
        Hand(CLASSIC, [100, 100], 0, deck=DECK[:31])
    with pytest.raises(InvalidCardError):
        Hand(CLASSIC, [100, 100], 0, deck=[*list(DECK[:31]), DECK[0]])
    h = Hand(CLASSIC, [100, 100], 0, deck=parse_cards(" ".join(str(c) for c in reversed(DECK))))
    assert held(h, 1) == [31, 29, 27, 25, 23]


# ----------------------------------------------------------------------------- determinism (R11.1)
def test_r11_1_same_seed_same_deal_and_reshuffles():
    for seed in range(20):
        a = Hand(TWO_BLIND, [100] * 5, 0, seed=seed)
        b = Hand(TWO_BLIND, [100] * 5, 0, seed=seed)
        for h in (a, b):
            call_around(h, fold=(h.actor,))
            while h.phase is Phase.DRAW:
                h.discard([DECK[c] for c in held(h, h.actor)[:4]])
        assert a.events == b.events
        assert a.stub == b.stub
    assert Hand(CLASSIC, [100] * 5, 0, seed=1).hole != Hand(CLASSIC, [100] * 5, 0, seed=2).hole
