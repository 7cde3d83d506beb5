"""Property tests of the hand state machine: random legal play at 2-5 seats, every structure,
both presets and every option, driven by the bots with random timeouts (R6.3, R7.3) and
withdrawn raises (R7.3).  After *every* action:

* chips are conserved: ``sum(stacks) + pot == total`` (R3.6, R9.5), no stack is negative;
* the 32 cards are all accounted for exactly once (hole cards, stub, pile, muck);
* illegal actions tried at random points raise :class:`IllegalActionError` and leave the
  hand exactly as it was;
* players make random showdown choices (R9.3, ``set_showdown_choice``), bad ones are refused
  leaving the hand as it was, and no view or event log shows a seat a card it may not know.

At the end: ``sum(result.stacks) == total``, the pots are consistent (R9.1), folded seats win
nothing, shown cards are the real ones, and a pot decided by showdown goes to the best hand
among its eligible seats (R9.4); who showed and who mucked follows R9.3 with the choices made.
Same seeds give the same event log (R11.1).
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdraw32 import (
    DECK,
    Action,
    ActionKind,
    DealError,
    EventKind,
    Hand,
    IllegalActionError,
    InvalidCardError,
    Phase,
    Rules,
    SecondRoundFirst,
    Structure,
    evaluate,
)
from pokerdraw32.bots import RandomBot, RuleBot
from pokerdraw32.errors import MAX_CHIPS

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False)


# ----------------------------------------------------------------------------- strategies
@st.composite
def rules_st(draw) -> Rules:
    preset = draw(st.sampled_from(["classic", "two-blind"]))
    structure = draw(st.sampled_from(list(Structure)))
    sb = draw(st.integers(1, 4))
    kw: dict = {"sb": sb, "structure": structure}
    if draw(st.booleans()):
        kw["bb"] = draw(st.integers(sb, 3 * sb))
    if structure is Structure.FIXED_LIMIT:
        kw["cap"] = draw(st.sampled_from([4, 4, None, 1, 2, 3, 5]))
    for opt in ("heads_up_button_posts_small", "suit_tiebreak", "parole", "muck_losers", "reshuffle_folded"):
        if draw(st.integers(0, 3)) == 0:            # mostly the preset's value
            kw[opt] = draw(st.booleans())
    kw["second_round_first"] = draw(st.sampled_from(["after_largest_blind", "after_largest_blind", "after_button"]))
    return Rules.preset(preset, **kw)


@st.composite
def tables(draw):
    rules = draw(rules_st())
    n = draw(st.integers(2, 5))
    L = rules.largest_blind(n)
    # stacks from shorter than a blind to deep
    stacks = draw(st.lists(st.one_of(st.integers(1, 3 * L), st.integers(1, 60 * L)), min_size=n, max_size=n))
    button = draw(st.integers(0, n - 1))
    seed = draw(st.integers(0, 2**64 - 1))
    play_seed = draw(st.integers(0, 2**32 - 1))
    return rules, stacks, button, seed, play_seed


# ----------------------------------------------------------------------------- invariants
def card_locations(h: Hand) -> list[int]:
    cards = [int(c) for hole in h.hole for c in hole]
    cards += [int(c) for c in h.stub] + [int(c) for c in h.pile] + [int(c) for c in h.muck]
    cards += [int(c) for c in h._own_discards]
    return cards


def check_invariants(h: Hand, total: int) -> None:
    assert all(s >= 0 for s in h.stacks), h.stacks
    assert all(b >= 0 for b in h.bets) and all(c >= 0 for c in h.contrib)
    assert sum(h.stacks) + h.pot == total                                     # R3.6 / R9.5
    assert sorted(card_locations(h)) == list(range(32))                       # every card once
    for s in range(h.n):
        if h.folded[s]:
            assert h.hole[s] == []
            assert h.showdown_choices[s] is None                               # folding drops it (R9.3)
        else:
            assert len(h.hole[s]) == 5 or h.pending_deal is not None or h.phase is Phase.DEAL
    if h.phase is Phase.COMPLETE:
        assert h.actor is None and h.legal_actions() is None
        return
    legal = h.legal_actions()
    if hasattr(h, "_compute_legal"):
        assert legal == h._compute_legal(), "stale legal-action memo"
    assert legal is not None and legal.seat == h.actor
    assert not h.folded[legal.seat]
    if h.phase is Phase.DRAW:
        assert legal.kinds == {ActionKind.DISCARD}
        return
    if h.stacks[legal.seat] == 0:                                  # all-in, answering Parole (R8.2)
        assert legal.kinds == {ActionKind.SPLIT, ActionKind.DECLINE} and h.offer_open
        assert h.phase is Phase.SECOND_ROUND
        return
    assert ActionKind.FOLD in legal.kinds
    assert (ActionKind.CHECK in legal.kinds) != (ActionKind.CALL in legal.kinds)
    owe = h.to_match - h.bets[legal.seat]            # to_match: L in round one even if posted short (R4.5)
    assert h.to_match >= max(h.bets)
    if ActionKind.CALL in legal.kinds:
        assert legal.call_amount == min(owe, h.stacks[legal.seat]) > 0
    if ActionKind.SPLIT in legal.kinds:
        assert h.phase is Phase.SECOND_ROUND and max(h.bets) == 0 and h.rules.parole
    raising = legal.kinds & {ActionKind.BET, ActionKind.RAISE}
    if raising:
        assert len(raising) == 1
        assert legal.min_to is not None and legal.max_to is not None
        assert h.to_match < legal.min_to <= legal.max_to <= h.bets[legal.seat] + h.stacks[legal.seat]
        if h.rules.structure is Structure.FIXED_LIMIT:
            assert legal.min_to == legal.max_to
    else:
        assert legal.min_to is None and legal.max_to is None


def check_result(h: Hand, total: int) -> None:
    r = h.result
    assert r is not None and h.phase is Phase.COMPLETE
    assert sum(r.stacks) == total and list(r.stacks) == list(h.stacks)    # R9.5
    assert sum(r.net) == 0
    assert list(r.net) == [a - b for a, b in zip(r.stacks, h.starting_stacks, strict=False)]
    assert all(s >= 0 for s in r.stacks)
    live = {s for s in range(h.n) if not h.folded[s]}
    assert live
    dead = dead_by_seat(h)
    assert sum(dead) == h.dead
    assert sum(p.amount for p in r.pots) == sum(h.contrib) + h.dead          # R9.1: dead money in the pots
    prev = None
    for pot in r.pots:
        assert pot.amount > 0
        assert set(pot.winners) <= set(pot.eligible) <= live and pot.winners
        if prev is not None:
            assert set(pot.eligible) < set(prev.eligible)                  # R9.1 nested side pots
        prev = pot
        if pot.shared:
            assert h.rules.parole
    for s in range(h.n):
        if h.folded[s]:
            assert r.net[s] == -h.contrib[s] - dead[s] and s not in r.shown   # folded: wins nothing
    for seat, cards in r.shown.items():
        assert sorted(int(c) for c in cards) == sorted(h.hole[seat])
    if len(live) == 1:
        assert r.shown == {} and not r.showdown                           # R5.3
    strength = {s: evaluate([DECK[c] for c in h.hole[s]], suit_tiebreak=h.rules.suit_tiebreak) for s in live}
    for pot in r.pots:
        if pot.shared or len(pot.eligible) == 1:
            continue
        best = max(strength[s] for s in pot.eligible)
        assert {s for s in pot.eligible if strength[s] == best} == set(pot.winners)   # R9.4
        if h.rules.suit_tiebreak:
            assert len(pot.winners) == 1                                   # R2.3: no ties
        # the winners of a contested pot have shown (nobody mucks a winning hand)
        assert set(pot.winners) <= set(r.shown)
    # R9.3: with muck_losers off, only a player who chose to muck may keep the cards hidden; a
    # player who chose to show always shows
    contested = {s for p in r.pots if not p.shared and len(p.eligible) > 1 for s in p.eligible}
    chose = h.showdown_choices
    assert {s for s in contested if chose[s] is True or (chose[s] is None and not h.rules.muck_losers)} \
        <= set(r.shown)
    # R9.2: nothing uncalled is left in the pots
    top = sorted(h.contrib)
    assert top[-1] == top[-2]
    # R9.4: each pot split evenly among its winners, odd chips one at a time clockwise from
    # the left of the button; the stacks are exactly the starting stacks minus what went in
    # plus the shares
    won = [0] * h.n
    for pot in r.pots:
        share, odd = divmod(pot.amount, len(pot.winners))
        for s in pot.winners:
            won[s] += share
        for s in [x for x in clockwise(h.button + 1, h.n) if x in pot.winners][:odd]:
            won[s] += 1
    assert list(r.stacks) == [a - c - d + w for a, c, d, w in zip(h.starting_stacks, h.contrib, dead, won, strict=True)]


# ----------------------------------------------------------------------------- the log against RULES.md
BLINDS = ("small", "big", "over")


def dead_by_seat(h: Hand) -> list[int]:
    """Dead chips each seat posted (R10.3), from the log."""
    dead = [0] * h.n
    for e in h.events:
        if e.kind is EventKind.POST_BLIND and e.get("blind") == "dead":
            dead[e.seat] += e.amount
    return dead


def clockwise(start: int, n: int) -> list[int]:
    return [(start + i) % n for i in range(n)]


def check_log(h: Hand) -> None:
    """Replay the finished hand's event log with an independent reading of RULES.md:
    R3.4 bet sizes, R3.5 reopening, R5.2/R7.1 first to act, R6.1 draw order, R6.3, R7.3,
    R8 Parole outcome and R9.3 showing order / mucking."""
    rules, n, L = h.rules, h.n, h.largest_blind
    fl = rules.structure is Structure.FIXED_LIMIT
    pl = rules.structure is Structure.POT_LIMIT
    stack = list(h.starting_stacks)
    bets = [0] * n
    pot = 0
    folded: set[int] = set()
    rnd = 1
    to_match, largest, full_level, count, serial = L, L, L, 1, 0
    unit = L
    acted: dict[int, tuple[int, int]] = {}        # seat -> (to_match when it acted, serial)
    no_raise: set[int] = set()
    withdrawn = None
    blind_seats = [e.seat for e in h.events if e.kind is EventKind.POST_BLIND and e.get("blind") in BLINDS]
    lb_seat = blind_seats[-1]
    first_actor = {1: None, 2: None}
    r2_start = (h.button + 1) % n if rules.second_round_first is SecondRoundFirst.AFTER_BUTTON else (lb_seat + 1) % n
    draw_seats: list[int] = []
    live_at_draw: list[int] = []
    stack_r2 = list(stack)
    offer_withdrawn = False
    splitters: set[int] = set()
    last_aggressor_r2 = None
    for e in h.events:
        k, s = e.kind, e.seat
        if k is EventKind.POST_BLIND:
            stack[s] -= e.amount
            pot += e.amount
            if e.get("blind") != "dead":                  # dead chips count toward no bet (R10.3)
                bets[s] += e.amount
            continue
        if k is EventKind.ROUND_END:
            # R5.3: everyone still in and not all-in has put in the same amount, and has acted
            # unless the round had no actions (R5.4)
            actives = [x for x in range(n) if x not in folded and stack[x] > 0]
            for x in actives:
                assert bets[x] == max(bets), f"round ended with seat {x} owing (R5.3)"
            if len(actives) >= 2:
                assert all(x in acted for x in actives), "round ended before everyone acted (R5.3)"
            if rnd == 1:
                live_at_draw = [x for x in clockwise(h.button + 1, n) if x not in folded]
                stack_r2 = list(stack)
                rnd = 2
                bets = [0] * n
                unit = 2 * L if fl else L
                to_match, largest, full_level, count, serial = 0, unit, 0, 0, 0
                acted = {}
            continue
        if k is EventKind.RETURN_UNCALLED:
            stack[s] += e.amount
            pot -= e.amount
            bets[s] = max(0, bets[s] - e.amount)
            continue
        if k is EventKind.TIMEOUT:
            if e.get("rule") == "R6.3":
                no_raise.add(s)
            continue
        if k is EventKind.RAISE_WITHDRAWN:
            withdrawn = s
            continue
        if k is EventKind.DISCARD:
            draw_seats.append(s)
            continue
        if k not in (EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE,
                     EventKind.SPLIT, EventKind.DECLINE):
            continue
        # a betting-round decision by seat s
        assert s not in folded
        if stack[s] > 0:
            actives = [x for x in range(n) if x not in folded and stack[x] > 0]
            if actives == [s]:                                        # R5.4: a lone player acts
                assert max(bets[x] for x in range(n) if x != s) > bets[s], "R5.4: round had no actions"
        if stack[s] > 0 and first_actor[rnd] is None:
            first_actor[rnd] = s
        if rnd == 2:
            if k in (EventKind.FOLD, EventKind.CHECK, EventKind.BET, EventKind.RAISE):
                offer_withdrawn = True                                   # R8.1
            if k in (EventKind.BET, EventKind.RAISE):
                last_aggressor_r2 = s
        if k is EventKind.FOLD:
            folded.add(s)
        elif k is EventKind.CHECK:
            assert bets[s] >= to_match or stack[s] == 0, "check while owing"
            acted[s] = (to_match, serial)
        elif k is EventKind.CALL:
            assert e.amount == min(to_match - bets[s], stack[s]) > 0
            stack[s] -= e.amount
            bets[s] += e.amount
            pot += e.amount
            acted[s] = (to_match, serial)
        elif k is EventKind.SPLIT:
            assert rnd == 2 and rules.parole and max(bets) == 0 and not offer_withdrawn   # R8.1
            # R6.3: a player who timed out in the draw, all-in or not, may not split or accept
            assert s not in no_raise
            splitters.add(s)
            if stack[s] > 0:
                acted[s] = (to_match, serial)
        elif k is EventKind.DECLINE:
            assert rnd == 2 and stack[s] == 0                                           # R8.2
        else:                                                 # BET / RAISE to e.amount
            to = e.amount
            chips = to - bets[s]
            assert 0 < chips <= stack[s]
            all_in = chips == stack[s]
            assert (k is EventKind.BET) == (to_match == 0)
            assert withdrawn != s, "raise after the right was withdrawn (R7.3)"
            assert not (rnd == 2 and s in no_raise), "bet after a draw timeout (R6.3)"
            # R5.5: someone else still in, not all-in, keeps chips after matching the current bet
            assert any(x not in folded and stack[x] > to_match - bets[x] for x in range(n) if x != s), \
                "a bet or raise nobody could answer (R5.5)"
            if s in acted:                                                              # R3.5
                level, ser = acted[s]
                assert ser != serial or to_match - level >= largest, "short all-in reopened the betting"
            inc = to - to_match
            if fl:
                if rules.cap is not None:
                    assert count < rules.cap                                            # R3.4 cap
                target = full_level + unit if full_level + unit > to_match else to_match + unit
                assert to == target or (all_in and to < target)
                full = to >= full_level + unit or 2 * inc >= unit                       # R3.5 half bet
            else:
                need = max(largest, L)
                if pl:
                    # R3.4: raise by at most the pot after the call (the pot plus the chips to call);
                    # the minimum raise stays possible when a short blind (R4.5) leaves the pot below it
                    to_call = to_match - bets[s]
                    assert to <= max(to_match + pot + to_call, to_match + need), "pot-limit exceeded (R3.4)"
                assert inc >= need or all_in, f"raise of {inc} below {need} (R3.4)"
                full = inc >= need if to_match else to >= L
                if full:
                    largest = max(largest, inc)
            if full:
                full_level = to
                count += 1
                serial += 1
            stack[s] -= chips
            bets[s] = to
            pot += chips
            to_match = max(to_match, to)
            acted[s] = (to_match, serial)
        if withdrawn == s:
            withdrawn = None
    dead = dead_by_seat(h)
    assert stack == [a - c - d for a, c, d in zip(h.starting_stacks, h.contrib, dead, strict=True)]
    # R5.2, R7.1: the first player with chips to act is the first such seat left of the
    # largest blind (or of the button)
    active_r1 = [x for x in clockwise(lb_seat + 1, n) if h.starting_stacks[x] > 0 and
                 not any(e.kind is EventKind.POST_BLIND and e.seat == x and e.get("all_in") for e in h.events)]
    if first_actor[1] is not None:
        assert first_actor[1] == active_r1[0], "R5.2 first to act"
    if first_actor[2] is not None:
        active_r2 = [x for x in clockwise(r2_start, n) if x in live_at_draw and stack_r2[x] > 0]
        assert first_actor[2] == active_r2[0], "R7.1 first to act"
    # R6.1: everyone still in draws once, from the left of the button
    if live_at_draw:
        assert draw_seats == live_at_draw
    r = h.result
    contested = [p for p in r.pots if not p.shared and len(p.eligible) > 1]
    # R8.3: a pot is shared exactly when the offer stood and all its eligible seats agreed
    for p in r.pots:
        expect = (rules.parole and not offer_withdrawn and len(p.eligible) > 1
                  and set(p.eligible) <= splitters)
        assert p.shared == expect, f"pot {p} shared={p.shared}, expected {expect} (R8.3)"
    # R9.3 showing order and mucking
    seq = [(e.kind, e.seat) for e in h.events if e.kind in (EventKind.SHOW, EventKind.MUCK)]
    in_contest = {x for p in contested for x in p.eligible}
    assert {x for _, x in seq} == in_contest and len(seq) == len(in_contest)
    if seq:
        start = last_aggressor_r2 if last_aggressor_r2 is not None else r2_start
        order = [x for x in clockwise(start, n) if x in in_contest]
        assert [x for _, x in seq] == order, "R9.3 showing order"
        strength = {x: evaluate([DECK[c] for c in h.hole[x]], suit_tiebreak=rules.suit_tiebreak) for x in in_contest}
        shown: list[int] = []
        for kind, x in seq:
            mine = [p for p in contested if x in p.eligible]
            can_win = any(all(strength[o] <= strength[x] for o in shown if o in p.eligible) for p in mine)
            # R9.3: a player who can win shows; one who cannot shows or mucks as they chose, with
            # no choice as muck_losers says
            choice = h.showdown_choices[x]
            shows = can_win or (not rules.muck_losers if choice is None else choice)
            assert (kind is EventKind.SHOW) == shows, (x, can_win, choice, rules.muck_losers)
            if kind is EventKind.SHOW:
                shown.append(x)
    else:
        assert r.shown == {}


# ----------------------------------------------------------------------------- illegal actions
def state(h: Hand):
    # the core's fields by their snapshot names (HandCore._export) and the log's records
    d = {k: copy.deepcopy(v) for k, v in h._export().items() if k not in ("rng", "rules")}
    d["log"] = h._records(0)
    d["events"] = (len(h.events), h.events[-1] if h.events else None)
    d["rng"] = tuple(h.rng.getstate())
    return d


def illegal_actions(h: Hand, rnd: random.Random):
    """A few actions that must be refused now, with the seat claimed (None = the actor)."""
    legal = h.legal_actions()
    out: list[tuple[object, int | None]] = []
    if legal is None:
        out.append((Action.fold(), None))
        out.append((Action.check(), None))
        return out
    p = legal.seat
    others = [s for s in range(h.n) if s != p]
    # a legal-looking action from the wrong seat
    some_kind = sorted(legal.kinds, key=lambda k: k.value)[0]
    if some_kind in (ActionKind.BET, ActionKind.RAISE):
        good = Action(some_kind, legal.min_to)
    elif some_kind is ActionKind.DISCARD:
        good = Action.stand_pat()
    else:
        good = Action(some_kind)
    out.append((good, rnd.choice(others)))
    out.append((good, h.n))                               # no such seat
    if h.phase is Phase.DRAW:
        out.append((Action.discard([DECK[c] for c in h.hole[p]]), None))       # 5 cards (R6.1)
        foreign = [c for c in range(32) if c not in h.hole[p]]
        out.append((Action.discard([DECK[rnd.choice(foreign)]]), None))        # not held
        out.append((Action.fold(), None))
        out.append((Action.check(), None))
        out.append((Action.split(), None))
        return out
    out.append((Action.discard(), None))                  # no draw now
    if ActionKind.CHECK not in legal.kinds:
        out.append((Action.check(), None))                # check when owing
    if ActionKind.CALL not in legal.kinds:
        out.append((Action.call(), None))
    if ActionKind.SPLIT not in legal.kinds:
        out.append((Action.split(), None))                # split without an offer (R8.1)
    if ActionKind.DECLINE not in legal.kinds:
        out.append((Action.decline(), None))
    for kind in (ActionKind.BET, ActionKind.RAISE):
        if kind in legal.kinds:
            assert legal.min_to is not None and legal.max_to is not None
            out.append((Action(kind, legal.min_to - 1), None))            # below the minimum
            out.append((Action(kind, legal.max_to + 1), None))            # above the maximum
            # not an int (R3.2): refused when the Action is built, so built inside the check
            for junk in (float(legal.min_to), str(legal.max_to), True, None, 10**5000):
                out.append((functools.partial(Action, kind, junk), None))
            other = ActionKind.RAISE if kind is ActionKind.BET else ActionKind.BET
            out.append((Action(other, legal.min_to), None))
        else:
            out.append((Action(kind, h.bets[p] + h.stacks[p]), None))
    return out


def try_illegal(h: Hand, rnd: random.Random) -> None:
    candidates = illegal_actions(h, rnd)
    for action, seat in rnd.sample(candidates, min(3, len(candidates))):
        before = state(h)
        try:
            h.act(action() if callable(action) else action, seat)
        except IllegalActionError:
            pass
        else:  # pragma: no cover - reported with details
            raise AssertionError(f"illegal {action} by seat {seat} accepted in {h!r}")
        assert state(h) == before, f"state changed by refused {action}"
    # bad text commands are refused the same way
    before = state(h)
    for text in ("r", "b x", "zz", "d 6h", ""):
        try:
            h.act(text)
        except (IllegalActionError, InvalidCardError):
            pass
        else:  # pragma: no cover
            raise AssertionError(f"command {text!r} accepted")
    assert state(h) == before


# ----------------------------------------------------------------------------- showdown choices, views
_CARD_TEXT = re.compile(r"\b[789TJQKA][shdc]\b")


def known_to(h: Hand, seat: int | None) -> set[str]:
    """Cards ``seat`` may know: the ones it was dealt, and any shown at showdown."""
    known: set[str] = set()
    for e in h.events:
        if (e.seat == seat and e.kind in (EventKind.DEAL_HOLE, EventKind.DEAL_DRAW)) or e.kind is EventKind.SHOW:
            known.update(str(c) for c in e.cards)
    return known


def check_views(h: Hand) -> None:
    """No view or log shows a seat a card it may not know; a seat sees its own showdown choice and
    nobody sees another's (R9.3)."""
    public = h.public_view()
    assert "showdown_choice" not in public
    for seat in [None, *range(h.n)]:
        v = public if seat is None else h.view(seat)
        text = json.dumps(v) + json.dumps([e.to_dict() for e in h.events_for(seat)])
        leaked = set(_CARD_TEXT.findall(text)) - known_to(h, seat)
        assert not leaked, (seat, leaked)
        if seat is not None:
            choice = h.showdown_choices[seat]
            assert v["showdown_choice"] == (None if choice is None else "show" if choice else "muck")


def random_choice(h: Hand, rnd: random.Random) -> None:
    """A random showdown choice by a random seat (R9.3); refused when the seat has folded or the hand
    is over, and then the hand is unchanged.  Now and then a bad value, refused the same way."""
    seat = rnd.randrange(h.n)
    show = rnd.choice((True, False, None))
    bad = rnd.random() < 0.1
    if bad:
        seat, show = rnd.choice(((h.n, True), (-1, False), (True, None), (seat, 1), (seat, "show")))
    if bad or h.folded[seat] or h.is_complete:
        before = state(h)
        with pytest.raises(IllegalActionError, match=r"R9\.3"):
            h.set_showdown_choice(seat, show)
        assert state(h) == before
    else:
        h.set_showdown_choice(seat, show)
        assert h.showdown_choices[seat] is show


# ----------------------------------------------------------------------------- driver
def play_hand(rules, stacks, button, seed, play_seed, *, illegal_rate=0.1, log=None):
    """Play one hand to the end with bots; check invariants after every action."""
    rnd = random.Random(play_seed)
    total = sum(stacks)
    posts = None
    if rnd.random() < 0.3:        # entry bets and missed blinds (R10.2, R10.3): live up to L, dead chips
        n, L = len(stacks), rules.largest_blind(len(stacks))
        probe = Hand(rules, [MAX_CHIPS // 8] * n, button, seed=0)        # who posts which blind
        due = {e.seat: e.amount for e in probe.events if e.kind is EventKind.POST_BLIND}
        posts = {}
        for _ in range(rnd.randint(1, 2)):
            seat = rnd.randrange(n)
            posts[seat] = (rnd.randint(0, L - due.get(seat, 0)), rnd.choice((0, 0, rules.sb, 3 * rules.sb)))
    h = Hand(rules, stacks, button, seed=seed, posts=posts)
    bots = [(RandomBot if rnd.random() < 0.6 else RuleBot)(seed=rnd.getrandbits(32)) for _ in stacks]
    sticky = rnd.choice((0.0, 0.5, 0.9))
    check_invariants(h, total)
    steps = 0
    choice_rate = rnd.choice((0.0, 0.1, 0.4))
    while not h.is_complete:
        steps += 1
        assert steps < 500, "hand does not end"
        if rnd.random() < illegal_rate:
            try_illegal(h, rnd)
        if rnd.random() < choice_rate:
            random_choice(h, rnd)                         # R9.3
        if rnd.random() < 0.05:
            check_views(h)
        x = rnd.random()
        if x < 0.04:
            h.timeout()                                   # R6.3 / R7.3
        else:
            if h.phase in (Phase.FIRST_ROUND, Phase.SECOND_ROUND) and x < 0.09:
                if h.stacks[h.actor] == 0:                # an all-in voter has no raise to lose
                    before = state(h)
                    with pytest.raises(IllegalActionError, match=r"R7\.3"):
                        h.withdraw_raise()
                    assert state(h) == before
                    continue
                h.withdraw_raise()                        # R7.3
                legal = h.legal_actions()
                assert not legal.kinds & {ActionKind.BET, ActionKind.RAISE}
                check_invariants(h, total)
            action = bots[h.actor].decide(h)
            if action.kind is ActionKind.FOLD and rnd.random() < sticky:     # reach more showdowns
                kinds = h.legal_actions().kinds
                action = Action.check() if ActionKind.CHECK in kinds else Action.call()
            h.act(action)
        check_invariants(h, total)
    check_result(h, total)
    check_log(h)
    check_views(h)
    try_illegal(h, rnd)                                   # nothing is legal once the hand is over
    random_choice(h, rnd)                                 # no choice once the hand is over (R9.3)
    before = state(h)
    for call in (h.withdraw_raise, h.deal):
        try:
            call()
        except (IllegalActionError, DealError):
            pass
        else:  # pragma: no cover
            raise AssertionError(f"{call.__name__} accepted after the hand")
    assert state(h) == before
    if log is not None:
        log.append(list(h.events))
    return h


def play_session(rules, stacks, button, seed, play_seed, hands, log=None):
    """Several hands at one table: stacks carried over, the button moving clockwise (R4.1),
    a seat left with no chips buying in again for its first stack between hands (R10.1;
    a hand is never dealt to an empty stack, R10.4)."""
    first = list(stacks)
    results = []
    for i in range(hands):
        h = play_hand(rules, stacks, button, (seed + i) % 2**64, play_seed + i, log=log)
        results.append(h)
        stacks = [s if s > 0 else first[k] for k, s in enumerate(h.stacks)]
        button = (button + 1) % len(stacks)
    return results


@settings(max_examples=400, **SETTINGS)
@given(tables())
def test_random_play_conserves_chips_and_cards(table):
    """About 2,500 hands per run (sessions of up to 8 hands)."""
    rules, stacks, button, seed, play_seed = table
    play_session(rules, stacks, button, seed, play_seed, hands=8)


@settings(max_examples=40, **SETTINGS)
@given(tables())
def test_r11_1_same_seeds_same_event_log(table):
    rules, stacks, button, seed, play_seed = table
    a: list = []
    b: list = []
    play_session(rules, list(stacks), button, seed, play_seed, hands=3, log=a)
    play_session(rules, list(stacks), button, seed, play_seed, hands=3, log=b)
    assert a == b


def test_many_hands_every_structure_and_preset():
    """A fixed sweep (no shrinking needed): 2-5 seats x 3 structures x 2 presets."""
    hands = 0
    for preset in ("classic", "two-blind"):
        for structure in Structure:
            for n in range(2, 6):
                rules = Rules.preset(preset, structure=structure)
                for k in range(12):
                    stacks = [[200] * n, [5 + 37 * i for i in range(1, n + 1)], [3] + [80] * (n - 1)][k % 3]
                    res = play_session(rules, list(stacks), k % n, 1000 * n + k, 7 * k + n, hands=2)
                    hands += len(res)
    assert hands > 200
