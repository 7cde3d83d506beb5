"""The hands behind the golden PHH files in ``tests/data/phh``: RULES.md examples played through
the engine (the same hands as the scenario tests).  ``python tests/phh_scenarios.py`` rewrites
the golden files from them; tests/test_history.py checks that the files are what the writer
writes and that they replay to the stacks listed here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from scenario import (
    CLASSIC,
    FLUSH,
    FULL,
    HIGH,
    PAIR,
    QUADS,
    TRIPS,
    call_around,
    check_around,
    new_hand,
    stand_pat_all,
)

from pokerdraw32 import Hand, HandHistory, Phase, Rules

DATA = Path(__file__).resolve().parent / "data" / "phh"


def pot_limit_example() -> Hand:
    h = new_hand(Rules(structure="pot-limit"), [100, 100], 0, {0: FULL, 1: FLUSH})
    h.raise_to(5, seat=1)
    h.call(seat=0)
    stand_pat_all(h)
    h.bet(10, seat=1)
    h.raise_to(40, seat=0)          # pot 10, a bet of 10: the call makes 30, raise by 30 to 40
    h.call(seat=1)
    return h


def pot_limit_three_blinds() -> Hand:
    h = new_hand(Rules(structure="pot-limit", sb=5), [1000] * 4, 0, {0: FULL, 1: FLUSH, 2: PAIR, 3: TRIPS})
    h.raise_to(75, seat=0)          # 20 + (35 + 20)
    h.raise_to(255, seat=1)         # facing 75 with 5 in: the call makes 180, raise to 75 + 180
    call_around(h)
    stand_pat_all(h)
    check_around(h)
    return h


def no_raise_nobody_can_answer() -> Hand:
    h = new_hand(Rules(), [8, 2, 2], 0, {0: FULL, 1: FLUSH, 2: PAIR})
    h.call(seat=0)                  # R5.5: a raise is not offered, nobody could answer it
    h.call(seat=1)
    stand_pat_all(h)
    return h


def heads_up_button_posts_small() -> Hand:
    h = new_hand(Rules(heads_up_button_posts_small=True), [50, 50], 1, {0: TRIPS, 1: PAIR})
    h.call(seat=1)                  # the button posted the small blind and acts first
    h.check(seat=0)
    h.discard("8d Ts", seat=0)
    h.deal("Ah Kh")
    h.stand_pat(seat=1)
    h.check(seat=1)
    h.bet(4, seat=0)
    h.fold(seat=1)
    return h


def short_big_blind() -> Hand:
    h = new_hand(CLASSIC, [100, 100, 1], 0, {0: FULL, 1: PAIR, 2: FLUSH})
    h.call(seat=0)
    h.call(seat=1)
    stand_pat_all(h)
    h.check(seat=0)
    h.check(seat=1)
    return h


def stub_exhausted() -> Hand:
    h = new_hand(CLASSIC, [100] * 5, 0, {0: QUADS, 1: FLUSH, 2: FULL, 3: TRIPS, 4: PAIR})
    call_around(h)
    while h.phase is Phase.DRAW:
        assert h.actor is not None
        h.discard(h.hole_cards(h.actor)[:4])
        h.deal()                    # from the stub, then from the reshuffled discards of the others
    check_around(h)
    return h


def draw_timeout() -> Hand:
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: HIGH, 1: FLUSH, 2: PAIR})
    call_around(h)
    h.timeout(seat=1)               # stands pat, and may not bet or raise later
    h.stand_pat(seat=2)
    h.stand_pat(seat=0)
    h.check(seat=0)
    h.check(seat=1)
    h.bet(10, seat=2)
    h.call(seat=0)
    h.call(seat=1)
    return h


def withdraw_raise() -> Hand:
    h = new_hand(CLASSIC, [100, 100, 100], 0, {0: HIGH, 1: FLUSH, 2: PAIR})
    h.withdraw_raise()
    h.call(seat=0)
    h.raise_to(6, seat=1)
    h.call(seat=2)
    h.call(seat=0)
    stand_pat_all(h)
    h.withdraw_raise()
    h.check(seat=0)
    h.bet(10, seat=1)
    h.withdraw_raise()
    h.timeout(seat=2)               # owes 10: folds
    h.fold(seat=0)
    return h


def missed_blinds() -> Hand:
    """The button returns having missed the small and the big blind: bb live plus sb dead."""
    h = Hand(CLASSIC, [100] * 4, 0, seed=7, auto_deal=False, posts={0: (2, 1)})
    holes = {0: FLUSH, 1: PAIR, 2: TRIPS, 3: HIGH}
    while h.pending_deal is not None:
        h.deal(holes[h.pending_deal.seat])
    h.call(seat=0)                  # owes 4 - 2 live
    h.call(seat=1)
    h.call(seat=2)
    h.check(seat=3)
    stand_pat_all(h)
    check_around(h)
    return h


def _all_in_four_handed(holes: dict[int, str]) -> Hand:
    h = new_hand(CLASSIC, [20, 100, 100, 100], 0, holes, seed=11)
    h.raise_to(20, seat=0)
    h.fold(seat=1)
    h.raise_to(40, seat=2)
    h.call(seat=3)
    stand_pat_all(h)
    h.split(seat=2)
    h.split(seat=3)
    return h


def parole_all_in_accepts() -> Hand:
    h = _all_in_four_handed({0: QUADS, 1: HIGH, 2: PAIR, 3: TRIPS})
    h.split(seat=0)
    return h


def parole_all_in_declines() -> Hand:
    h = _all_in_four_handed({0: QUADS, 1: HIGH, 2: PAIR, 3: TRIPS})
    h.decline(seat=0)
    return h


def showdown_order(choices: Mapping[int, bool | None] | None = None, rules: Rules = CLASSIC) -> Hand:
    """Seat 0 the flush, seat 1 trips (bets 10 in round two), seat 2 a pair: seat 1 shows first,
    then seat 2 (cannot beat the trips), then seat 0 (wins); ``choices`` are the seats' showdown
    choices, made before the deal is played (R9.3)."""
    h = new_hand(rules, [100, 100, 100], 0, {0: FLUSH, 1: TRIPS, 2: PAIR})
    for seat, choice in (choices or {}).items():
        h.set_showdown_choice(seat, choice)
    call_around(h)
    stand_pat_all(h)
    h.check(seat=0)
    h.bet(10, seat=1)
    h.call(seat=2)
    h.call(seat=0)
    return h


def voluntary_show() -> Hand:
    """The showdown_order hand, but seat 2 (p2) chose to show the pair that cannot win (R9.3)."""
    return showdown_order({2: True})


def fixed_limit_no_cap() -> Hand:
    rules = Rules.preset("two-blind", structure="fixed-limit", cap=None)
    h = new_hand(rules, [100] * 4, 0, {0: QUADS, 1: FLUSH, 2: FULL, 3: TRIPS})
    for seat, to in ((3, 4), (0, 6), (1, 8), (2, 10)):   # five bets: no cap
        h.raise_to(to, seat=seat)
    h.call(seat=3)
    h.call(seat=0)
    h.call(seat=1)
    stand_pat_all(h)
    check_around(h)
    return h


def suit_tiebreak_off() -> Hand:
    h = new_hand(CLASSIC.replace(suit_tiebreak=False), [100, 100, 100], 0,
                 {0: "Kh Ks Jd Jc 9h", 1: "Ah Ad Ac 7s 8s", 2: "Kd Kc Js Jh 9d"})
    h.call(seat=0)
    h.fold(seat=1)
    h.check(seat=2)
    stand_pat_all(h)
    h.check(seat=0)
    h.check(seat=2)
    return h


GOLDEN: dict[str, tuple[Callable[[], Hand], list[int], str]] = {
    # file: (the hand, its finishing stacks by position p1..pn, what it shows)
    "r3_4_pot_limit.phh": (pot_limit_example, [145, 55],
                           "R3.4 pot-limit: pot 10, a bet of 10; the next player calls 10 (pot 30) and may "
                           "raise to at most 40"),
    "r3_4_pot_limit_three_blinds.phh": (pot_limit_three_blinds, [1765, 745, 745, 745],
                                        "R3.4 pot-limit, blinds 5/10/20: the first raise is at most to 75, the "
                                        "small blind's re-raise at most to 255"),
    "r5_5_no_raise_nobody_can_answer.phh": (no_raise_nobody_can_answer, [6, 0, 6],
                                            "R5.5 the big blind is all-in and the small blind has one chip to "
                                            "call: the button may only call or fold"),
    "r4_3_heads_up_button_posts_small.phh": (heads_up_button_posts_small, [52, 48],
                                             "R4.3 option heads_up_button_posts_small: p2, the button, posts the "
                                             "small blind: blinds_or_straddles = [bb, sb]"),
    "r4_5_short_big_blind.phh": (short_big_blind, [98, 3, 100],
                                 "R4.5 a big blind of 1 chip is all-in; the others owe the full blind"),
    "r6_2_stub_exhausted.phh": (stub_exhausted, [96, 96, 96, 96, 116],
                                "R6.2 five players draw four: the stub runs out, other players' discards are "
                                "reshuffled, never one's own"),
    "r6_3_draw_timeout.phh": (draw_timeout, [124, 88, 88],
                              "R6.3 p1 times out in the draw (p1 to): stands pat, may only check, call or fold"),
    "r7_3_withdraw_raise.phh": (withdraw_raise, [112, 94, 94],
                                "R7.3 the server withdraws a player's right to raise (d wr pN); a betting "
                                "timeout folds"),
    "r10_3_missed_blinds.phh": (missed_blinds, [96, 96, 96, 112],
                                "R10.3 a returning player posts the big blind live and the small blind dead: "
                                "_posts = [live, dead] by position"),
    "r8_2_parole_all_in_accepts.phh": (parole_all_in_accepts, [99, 101, 100, 20],
                                       "R8.2 Parole: an all-in player accepts (sp): every pot is shared"),
    "r8_2_parole_all_in_declines.phh": (parole_all_in_declines, [99, 80, 80, 61],
                                        "R8.2 Parole: an all-in player declines (nsp): only the side pot is "
                                        "shared"),
    "r9_3_showdown_order.phh": (showdown_order, [88, 88, 124],
                                "R9.3 the bettor shows first, a player who cannot win mucks (pN sm)"),
    "r9_3_voluntary_show.phh": (voluntary_show, [88, 88, 124],
                                "R9.3 p2 cannot win but chose to show (pN sm CARDS): showing is always allowed"),
    "r3_4_fixed_limit_no_cap.phh": (fixed_limit_no_cap, [90, 90, 90, 130],
                                    "R3.4 F32D, two-blind preset with _options cap = \"none\": five bets"),
    "r2_4_suit_tiebreak_off.phh": (suit_tiebreak_off, [99, 101, 100],
                                   "R2.4 off (_options suit_tiebreak = false): equal hands share, the odd chip "
                                   "left of the button (R9.4)"),
}


def golden_text(name: str) -> str:
    """The golden file's text as the writer makes it, with its comment header."""
    build, _, about = GOLDEN[name]
    return (f"# {about}\n# Generated from tests/phh_scenarios.py ({build.__name__}); "
            f"regenerate: python tests/phh_scenarios.py\n\n" + HandHistory.from_hand(build()).dumps())


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    for name in GOLDEN:
        (DATA / name).write_text(golden_text(name), encoding="utf-8")
        print("wrote", DATA / name)
