"""Differential test against PokerKit 0.7.7, an outside engine: the same cards and the same actions
through both, every decision compared.

Seeded random hands, :data:`HANDS` per betting structure (no-limit, pot-limit, fixed-limit; R3.4):
2 to 5 players (heads-up often), a random button, blinds sb/2sb(/4sb) with sb 1, 2 or 5, the
classic preset (over blind at 4-5 players, R4.2) or the two-blind one, both heads-up blind
conventions (R4.3), both openers of the second round (R7.1), fixed-limit caps 3, 4 and none, and
stacks from a blind's worth to 150 big bets, so that all-ins, short all-ins and side pots are
common.  Both engines get the same hole cards and the same replacement cards (pokerdraw32 with
``auto_deal=False`` and :meth:`Hand.deal`, PokerKit with ``deal_hole``), and at every decision a
random action legal in pokerdraw32 (fold, check or call, a bet or raise of the minimum, the
maximum, a size in between, all-in; discards of 0-4 cards) is applied to both.

Compared, and on any disagreement reported with the hand's seed, its set-up, the actions so far
and both engines' values:

* at every betting decision: who acts, the amount to call, whether a bet or raise is allowed at
  all (R3.4, R3.5, R5.5; PokerKit: ``min_completion_betting_or_raising_to_amount`` is not
  ``None``), and the smallest and largest raise-to (its ``min_``/``max_completion_betting_or_
  raising_to_amount``, against ``LegalActions.min_to``/``max_to``);
* at the draw: that both engines are in it (or both finished), the total pot and the main and
  side pot amounts (R9.1, R9.2);
* at the end: that both finished, and each seat's final stack (R9).

How the two engines are lined up.  PokerKit numbers players from the seat it opens the later
rounds with, so player ``k`` is pokerdraw32's seat ``start + k``, ``start`` being the seat left
of the button (``second_round_first="after_button"``) or left of the largest blind (the default,
``"after_largest_blind"``); PokerKit's raw blinds put each blind on that player (heads-up PokerKit
swaps the two blinds, so they are given swapped).  With blinds strictly increasing the first
round opens left of the largest blind in both (R5.2).  Fixed-limit: the blind is the first bet
of round one in pokerdraw32's ``cap`` (R3.4) and not in PokerKit's count, so ``cap`` c is
PokerKit's (c - 1, c).

Excluded, because PokerKit 0.7.7 has no equivalent, and why:

* Parole (R8): ``parole=False``.
* Suit tie-breaks (R2, R2.4): PokerKit splits hands equal in rank; when two hands still in the
  hand at the end are equal in PokerKit's ranking the final stacks are not compared (counted in
  ``ties (stacks not compared)``).  Odd chips of a split pot (R9.4) go to different players in the two engines.
* Short blinds (R4.5): the others still owe the full blind in pokerdraw32, PokerKit lowers the
  amount to call to the short post; every blind poster's stack covers their blind.
* The stub running out (R6.2): PokerKit refills the deck from other cards (its own discards
  included); draws are limited so that the stub always has the replacements.
* Folding when nothing is owed: pokerdraw32 allows it, PokerKit (tournament mode) refuses it;
  the random player folds only when facing a bet.
* All-in bets and raises short of a full one (R3.5), where the engines disagree on whether they
  are full.  PokerKit calls a raise full when it is at least the largest one made so far in the
  round, and that starts at 0 in every round: the blinds are not a bet to it.  So in the first
  round an all-in raise by less than L before anyone has raised (say to 14 over an over blind of
  8), and in the second round an all-in bet of less than L, are full raises in PokerKit, which
  reopen the betting for the players who have acted, while in pokerdraw32 they are short (the
  largest blind is the first bet, R4.4, and L the smallest full bet, R3.4).  In fixed-limit
  pokerdraw32 also counts one of at least half a bet as full and completes the next raise from the
  last full level, while PokerKit counts every short raise toward the cap.  Such a raise is still
  *offered* alike (its amount is compared like any other), but the random player calls instead of
  making it (counted in ``short all-in raises not made``); in fixed-limit every short raise is
  left out.
* A turn PokerKit gives after pokerdraw32 has ended the round: when at most one player can still
  bet and owes nothing the round is over (R5.4), but PokerKit still asks that player to act.  The
  test checks that PokerKit then allows only a check, and checks.
* Timeouts and withdrawn raises (R6.3, R7.3): server events PokerKit does not model; not used.

A failure names the seed; ``Duel(structure, seed).play()`` replays that hand alone, and
``POKERDRAW32_POKERKIT_HANDS=N`` plays N hands per structure instead of :data:`HANDS`.

Skipped when PokerKit 0.7.7 is not installed (it is not a dependency: ``.ci/run`` installs it
into the venv of its main test step) or when ``bench/pokerkit32.py``, the shared 32-card PokerKit
set-up, is not beside the tests (the sdist ships no ``bench/``).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import random
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pokerkit")
if importlib.metadata.version("pokerkit") != "0.7.7":
    pytest.skip(f"written against pokerkit 0.7.7, found {importlib.metadata.version('pokerkit')}",
                allow_module_level=True)
_SHARED = Path(__file__).resolve().parent.parent / "bench" / "pokerkit32.py"
if not _SHARED.is_file():
    pytest.skip(f"{_SHARED} (the shared 32-card PokerKit set-up) is not here", allow_module_level=True)

from pokerkit import Automation, Card, State  # noqa: E402

from pokerdraw32 import DECK, Action, ActionKind, Hand, Phase, Rules, SecondRoundFirst, Structure  # noqa: E402

_spec = importlib.util.spec_from_file_location("pokerkit32", _SHARED)
assert _spec is not None and _spec.loader is not None
pokerkit32 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pokerkit32)

HANDS = int(os.environ.get("POKERDRAW32_POKERKIT_HANDS", "400"))
"""Hands per betting structure (seeds 0 to HANDS - 1); more for a longer run."""

PK_AUTOMATIONS = tuple(a for a in pokerkit32.AUTOMATIONS if a is not Automation.HOLE_DEALING)
PK_CARD = {str(c): next(Card.parse(str(c))) for c in DECK}


class Disagreement(AssertionError):
    pass


class Duel:
    """One hand played through both engines."""

    def __init__(self, structure: str, seed: int) -> None:
        self.seed = seed
        self.rnd = rnd = random.Random(f"{structure}/{seed}")
        n = rnd.choice((2, 2, 3, 4, 5))
        changes: dict[str, Any] = {
            "structure": structure, "parole": False, "sb": rnd.choice((1, 1, 2, 5)),
            "second_round_first": rnd.choice(list(SecondRoundFirst)),
            "heads_up_button_posts_small": rnd.random() < 0.5,
        }
        if structure == "fixed-limit":
            changes["cap"] = rnd.choice((4, 4, 3, None))
        self.rules = rules = Rules.preset(rnd.choice(("classic", "two-blind")), **changes)
        self.n = n
        button = rnd.randrange(n)
        blinds = rules.blinds(n)
        L = blinds[-1]
        probe = Hand(rules, [10**6] * n, button, auto_deal=False)
        posted = dict(zip(probe.blind_seats, blinds, strict=True))
        stacks = []
        for seat in range(n):
            r = rnd.random()
            stack = rnd.randint(1, 3 * L) if r < 0.3 else rnd.randint(3 * L, 25 * L) if r < 0.65 \
                else rnd.randint(25 * L, 150 * L)
            stacks.append(max(stack, posted.get(seat, 0)))    # no short blinds (R4.5, see above)
        self.stacks = stacks
        after_button = rules.second_round_first is SecondRoundFirst.AFTER_BUTTON
        start = button + 1 if after_button else probe.blind_seats[-1] + 1
        self.seat_of = [(start + k) % n for k in range(n)]     # PokerKit player -> seat
        self.pk_of = [self.seat_of.index(s) for s in range(n)]  # seat -> PokerKit player
        raw = [posted.get(s, 0) for s in self.seat_of]
        if n == 2:
            raw.reverse()   # PokerKit heads-up: player 0 posts raw[1], player 1 raw[0]
        if rules.structure is Structure.FIXED_LIMIT:
            counts = (None, None) if rules.cap is None else (rules.cap - 1, rules.cap)
        else:
            counts = (None, None)
        self.setup = (f"seed {seed}: {structure}, {rules.name} sb/bb/ob {rules.sb}/{rules.bb}/{rules.ob}, "
                      f"{n} players, button {button}, stacks {stacks}, blinds by seat {posted}, "
                      f"second_round_first={rules.second_round_first.value}, "
                      f"heads_up_button_posts_small={rules.heads_up_button_posts_small}, cap={rules.cap}; "
                      f"PokerKit players are seats {self.seat_of}, raw blinds {raw}, raise counts {counts}")
        self.ours = Hand(rules, stacks, button, seed=seed, auto_deal=False)
        self.theirs: State = pokerkit32.create_state(n, raw, [stacks[s] for s in self.seat_of],
                                                     structure=structure, max_raise_counts=counts,
                                                     automations=PK_AUTOMATIONS)
        self.deck = [str(c) for c in DECK]
        rnd.shuffle(self.deck)
        self.actions: list[str] = []
        self.draws: dict[int, tuple[list[str], list[str]]] = {}
        self.stats: Counter[str] = Counter()

    # ---------------------------------------------------------------- reporting
    def expect(self, what: str, ours: object, theirs: object) -> None:
        if ours != theirs:
            raise Disagreement(f"{what}: pokerdraw32 {ours!r}, PokerKit {theirs!r}\n  {self.setup}\n"
                               f"  actions so far: {'; '.join(self.actions) or '(none)'}")

    # ---------------------------------------------------------------- dealing
    def take(self, count: int) -> list[str]:
        cards, self.deck = self.deck[:count], self.deck[count:]
        return cards

    def deal(self) -> None:
        req = self.ours.pending_deal
        assert req is not None
        cards = self.take(req.count)
        self.ours.deal(cards)
        if req.kind == "hole":
            self.theirs.deal_hole([PK_CARD[c] for c in cards], self.pk_of[req.seat])
        else:
            self.draws[req.seat] = (self.draws[req.seat][0], cards)
        self.actions.append(f"seat {req.seat} dealt {''.join(cards)}")

    def draw(self, seat: int, hole: list[str]) -> None:
        count = self.rnd.randint(0, min(4, len(self.deck)))   # the stub never runs out (R6.2, see above)
        cards = self.rnd.sample(hole, count)
        self.ours.discard(cards)
        self.draws[seat] = (cards, [])
        self.actions.append(f"seat {seat} discards {''.join(cards) or '-'}")

    def pk_draw(self) -> None:
        """Give PokerKit the draw pokerdraw32 has made: its own order, the same cards."""
        pk = self.theirs
        while pk.stand_patter_or_discarder_index is not None:
            seat = self.seat_of[pk.stand_patter_or_discarder_index]
            pk.stand_pat_or_discard([PK_CARD[c] for c in self.draws[seat][0]])
        while pk.hole_dealee_index is not None:
            k = pk.hole_dealee_index
            pk.deal_hole([PK_CARD[c] for c in self.draws[self.seat_of[k]][1]], k)
        self.draws = {}

    # ---------------------------------------------------------------- betting
    def compare_decision(self) -> None:
        la = self.ours.legal_actions()
        assert la is not None
        pk = self.theirs
        self.expect("actor (seat)", la.seat, None if pk.actor_index is None else self.seat_of[pk.actor_index])
        self.expect(f"seat {la.seat}: amount to call", la.call_amount, pk.checking_or_calling_amount)
        lo, hi = pk.min_completion_betting_or_raising_to_amount, pk.max_completion_betting_or_raising_to_amount
        self.expect(f"seat {la.seat}: a bet or raise allowed", la.min_to is not None, lo is not None)
        self.expect(f"seat {la.seat}: smallest raise-to", la.min_to, lo)
        self.expect(f"seat {la.seat}: largest raise-to", la.max_to, hi)
        self.stats["decisions"] += 1
        if lo is not None:
            self.stats["decisions with a raise"] += 1

    def short_raise_differs(self, target: int) -> bool:
        """True for an all-in bet or raise short of a full one that the engines treat differently
        (see the module docstring): pokerdraw32's R3.5 against PokerKit's rule that a raise is full
        when it is at least the largest one made so far in the round (0 before the first)."""
        ours, pk = self.ours, self.theirs
        unit, inc = ours._unit(), target - ours.to_match
        if ours.rules.structure is Structure.FIXED_LIMIT:
            full = target >= ours.full_level + unit or 2 * inc >= unit
            if not full:
                return True     # PokerKit counts it toward the cap; pokerdraw32 does not
        else:
            full = target >= (ours.to_match + ours.raise_size if ours.to_match else unit)
        return full != (target - max(pk.bets) >= pk.completion_betting_or_raising_amount)

    def bet(self) -> None:
        ours, pk, rnd = self.ours, self.theirs, self.rnd
        la = ours.legal_actions()
        assert la is not None
        p = la.seat
        everything = ours.bets[p] + ours.stacks[p]
        owe = la.call_amount
        r = rnd.random()
        target, how = None, ""
        if owe > 0 and r < 0.15:
            ours.fold()
            pk.fold()
            self.actions.append(f"seat {p} folds")
            return
        if la.min_to is not None and la.max_to is not None and r < 0.45:
            how = rnd.choice(("min", "max", "between", "all-in"))
            if how == "all-in" and la.max_to != everything:
                how = "max"     # the limit (R3.4) is below the whole stack
            if how == "min":
                target = la.min_to
            elif how == "max":
                target = la.max_to
            elif how == "between":
                target = la.min_to + int((la.max_to - la.min_to) * rnd.random() ** 3)
            else:
                target = everything
            if self.short_raise_differs(target):
                self.stats["short all-in raises not made"] += 1
                target = None
        if target is None:
            if owe:
                ours.call()
            else:
                ours.check()
            pk.check_or_call()
            self.actions.append(f"seat {p} {'calls' if owe else 'checks'}{' all-in' if not ours.stacks[p] else ''}")
            return
        if how == "all-in":
            ours.all_in()
        else:
            ours.act(Action(ActionKind.BET if ActionKind.BET in la.kinds else ActionKind.RAISE, target))
        pk.complete_bet_or_raise_to(target)
        self.stats[f"raises: {how}"] += 1
        self.actions.append(f"seat {p} raises to {target}{' all-in' if target == everything else ''}")

    # ---------------------------------------------------------------- the hand
    def play(self) -> Counter[str]:
        ours = self.ours
        drawn = False
        while not ours.is_complete:
            if ours.pending_deal is not None:
                self.deal()
                continue
            if ours.phase is Phase.DRAW:
                if not drawn:
                    drawn = True
                    self.compare_draw()
                assert ours.actor is not None
                self.draw(ours.actor, [str(c) for c in ours.hole_cards(ours.actor)])
                continue
            if ours.phase is Phase.SECOND_ROUND and self.draws:
                self.pk_draw()
            self.compare_decision()
            self.bet()
        if self.draws:
            self.pk_draw()
        self.compare_end()
        return self.stats

    def pk_lone_checks(self) -> None:
        """pokerdraw32 has ended the betting round: at most one player can still bet and owes
        nothing (R5.4).  PokerKit still gives that player a turn, in which they can only check."""
        pk = self.theirs
        while pk.actor_index is not None:
            seat = self.seat_of[pk.actor_index]
            self.expect(f"seat {seat}: a turn after the round is over (R5.4): only a check, no raise",
                        (0, None), (pk.checking_or_calling_amount, pk.min_completion_betting_or_raising_to_amount))
            pk.check_or_call()
            self.stats["PokerKit-only checks (R5.4)"] += 1

    def compare_draw(self) -> None:
        pk = self.theirs
        self.pk_lone_checks()
        self.expect("in the draw", True, pk.stand_patter_or_discarder_index is not None)
        self.expect("pot at the draw", self.ours.pot, pk.total_pot_amount)
        self.expect("pots at the draw", [p["amount"] for p in self.ours.public_view()["pots"]], list(pk.pot_amounts))
        self.stats["draws"] += 1

    def compare_end(self) -> None:
        ours, pk = self.ours, self.theirs
        self.pk_lone_checks()
        self.expect("hand over", True, not pk.status)
        assert ours.result is not None
        live = ours.live_seats
        self.stats["hands"] += 1
        if len(live) > 1:
            self.stats["showdowns"] += 1
            values = [pokerkit32.ThirtyTwoHand.from_game([PK_CARD[str(c)] for c in ours.hole_cards(s)])
                      for s in live]
            if len(set(values)) < len(values):
                self.stats["ties (stacks not compared)"] += 1
                return
        if len(ours.result.pots) > 1:
            self.stats["side pots"] += 1
        if any(e.get("all_in") for e in ours.events):
            self.stats["hands with an all-in"] += 1
        self.expect("final stacks (by seat)", list(ours.result.stacks),
                    [pk.stacks[self.pk_of[s]] for s in range(self.n)])
        self.stats["final stacks compared"] += 1


@pytest.mark.parametrize("structure", ["no-limit", "pot-limit", "fixed-limit"])
def test_same_decisions_pots_and_stacks_as_pokerkit(structure: str) -> None:
    totals: Counter[str] = Counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a PokerKit warning (say, a card it would not deal) is a failure
        for seed in range(HANDS):
            duel = Duel(structure, seed)
            totals += duel.play()
            totals[f"{duel.n} players"] += 1
    print(f"\n{structure}: {dict(sorted(totals.items()))}")
    # the hands reach what the comparison is for
    assert totals["hands"] == HANDS
    for what in ("draws", "side pots", "hands with an all-in", "decisions with a raise", "raises: max",
                 "short all-in raises not made", "2 players", "5 players"):
        assert totals[what] >= HANDS // 50, (what, totals)
