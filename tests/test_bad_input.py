"""Bad input: a clear PokerDraw32Error naming the problem, and nothing half-applied.

Regression tests for defects found by attacking the engine with junk.
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from pokerdraw32 import (
    DECK,
    Action,
    ActionKind,
    Card,
    Hand,
    IllegalActionError,
    InvalidCardError,
    PokerDraw32Error,
    Rank,
    Rules,
    RulesError,
    evaluate,
)
from pokerdraw32.bots import RandomBot
from pokerdraw32.cards import cards_to_mask, format_cards, mask_to_cards
from pokerdraw32.cli import main
from pokerdraw32.errors import MAX_CHIPS

HUGE = 10**5000          # too many digits to even print


@pytest.mark.parametrize(
    "make",
    [
        lambda: Hand(Rules(), [2**60, 2**60], 0, seed=1),                 # beyond MAX_CHIPS: refused up front
        lambda: Hand(Rules(), [MAX_CHIPS, 1], 0, seed=1),                 # the table's total too
        lambda: Rules(sb=2**60),
        lambda: Hand(Rules(), [100] * 5, 0, rng="junk", deck=DECK),
        lambda: Hand(Rules(), [100] * 2, 0, rng=5),
        lambda: Hand(Rules(), [100] * 2, 0, seed=-1),
        lambda: Hand(Rules(), [100] * 2, 0, seed=2**64),
        lambda: Hand(Rules(), [100] * 2, 0, seed=1.5),
        lambda: Hand(Rules(), [100] * 2, 0, seed="1"),
        lambda: Hand(Rules(), 5, 0),
        lambda: Hand(Rules(), None, 0),  # type: ignore[arg-type]
        lambda: Hand(Rules(), {50: 1, 60: 2}, 0),  # type: ignore[arg-type]
        lambda: Hand(Rules(), [100, 100], 0, auto_deal="no"),  # type: ignore[arg-type]
        lambda: Hand(Rules(), [100, -HUGE], 0),
        lambda: Hand(Rules(), [100, 100], HUGE),
        lambda: Rules(sb=-HUGE),
        lambda: Rules(cap=HUGE, structure="fixed-limit"),
        lambda: Rules().blinds("3"),  # type: ignore[arg-type]
        lambda: Rules().blinds(2.5),  # type: ignore[arg-type]
        lambda: Rules.preset(["x"]),  # type: ignore[arg-type]
        lambda: Rules.preset("classic", foo=1),
        lambda: Rules().replace(foo=1),
        lambda: Rules(name=5),  # type: ignore[arg-type]
    ],
)
def test_bad_set_up_is_a_rules_error(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError):
        make()


@pytest.mark.parametrize(
    "make",
    [
        lambda: Action("nonsense"),  # type: ignore[arg-type]
        lambda: Action(None),  # type: ignore[arg-type]
        lambda: Action(ActionKind.DISCARD, None, None),  # type: ignore[arg-type]
        lambda: Action(ActionKind.DISCARD, None, "Ah"),  # type: ignore[arg-type]
        lambda: Action(ActionKind.DISCARD, None, (29.5,)),  # type: ignore[arg-type]
        lambda: Action(ActionKind.DISCARD, None, (True,)),  # type: ignore[arg-type]
        lambda: Action(ActionKind.RAISE, HUGE),
        lambda: Action(ActionKind.RAISE, 3.0),  # type: ignore[arg-type]
        lambda: Action(ActionKind.FOLD, 3),
        lambda: Action.parse(None),  # type: ignore[arg-type]
        lambda: Action.parse(5),  # type: ignore[arg-type]
        lambda: Action.parse("p Ah Kd"),
        lambda: Action.parse("stand x"),
        lambda: Action.parse("r 10_0"),
        lambda: Action.parse("r ١٢"),
    ],
)
def test_bad_actions_are_refused_when_built(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PokerDraw32Error):
        make()


def test_string_kind_is_accepted() -> None:
    assert Action("fold") == Action.fold()  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 2**40, 1.5, True])
def test_mask_helpers(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        mask_to_cards(bad)  # type: ignore[arg-type]


def test_card_helpers_refuse_junk() -> None:
    with pytest.raises(InvalidCardError):
        format_cards([40])
    with pytest.raises(InvalidCardError):
        cards_to_mask([40])
    with pytest.raises(InvalidCardError):
        Card(Rank.ACE)            # a Rank is not a card code
    with pytest.raises(InvalidCardError, match="bits"):
        Card(HUGE)
    with pytest.raises(TypeError):
        evaluate("Ah Kh Qh Jh Th", suit_tiebreak=None)  # type: ignore[arg-type]


def test_seat_and_amount_messages_survive_huge_ints() -> None:
    h = Hand(Rules(), [100, 100, 100], 0, seed=1)
    with pytest.raises(IllegalActionError, match="no seat <int"):
        h.fold(seat=HUGE)
    with pytest.raises(IllegalActionError, match="no seat"):
        h.view(HUGE)


def test_all_in_under_pot_limit_is_refused_with_the_limit() -> None:
    h = Hand(Rules(structure="pot-limit"), [100] * 3, 0, seed=1)
    with pytest.raises(IllegalActionError, match="the most is 7"):
        h.all_in()
    assert h.bets == [0, 1, 2]
    h2 = Hand(Rules(), [100, 100, 3], 0, seed=1)      # no-limit: raise the whole stack
    h2.all_in()
    assert h2.stacks[0] == 0 and h2.bets[0] == 100


def test_messages_for_all_in_voter_and_short_call() -> None:
    h = Hand(Rules(), [100, 100, 3], 0, seed=1)
    h.raise_to(20)
    h.fold()
    with pytest.raises(IllegalActionError, match="cannot check: 1 chips to call \\(all-in\\)"):
        h.check()
    h.call()
    assert h.phase.value == "draw"
    with pytest.raises(IllegalActionError, match=r"R6\.1"):
        h.fold()


def test_random_bot_handles_ranges_beyond_2_to_the_32() -> None:
    h = Hand(Rules(), [5 * 10**9] * 2, 0, seed=1)
    bot = RandomBot(1)
    while not h.is_complete:
        h.act(bot.decide(h))
    assert sum(h.result.stacks) == 10**10


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_play_survives_odd_input() -> None:
    code, out, _ = run("play", "--players", "2", "--seed", "2", "--hands", "1", stdin="d ²\nc\nk\nd 1,2\nq\n")
    assert code == 0 and "bye" in out


@pytest.mark.parametrize("argv", [["play", "--stack", "0"], ["play", "--hands", "-1"],
                                  ["simulate", "--stack", str(2**60), "--no-progress"]])
def test_cli_bad_numbers_exit_2(argv: list[str]) -> None:
    code, _out, err = run(*argv)
    assert code == 2 and "error" in err and err.startswith("usage:")       # out of range: a usage error


def test_cli_full_disk_is_one_line() -> None:
    proc = subprocess.run(f"{sys.executable} -m pokerdraw32.cli eval 'Ah Kh Qh Jh Th' > /dev/full", shell=True,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "No space" in proc.stderr


# ---------------------------------------------------------------------------------------
# Derived amounts beyond the chip limit; refusals that used to consume the caller's generator


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"sb": 2**52}, r"^sb=4503599627370496 makes the default big blind bb=2\*sb=9007199254740992, beyond the "
                        r"largest amount of chips \(9007199254740991\): lower sb \[R3\.2\]$"),
        ({"sb": 2**51}, r"^bb=4503599627370496 makes the default over blind ob=2\*bb=9007199254740992, beyond the "
                        r"largest amount of chips \(9007199254740991\): lower sb or bb \[R3\.2\]$"),
        ({"sb": 1, "bb": 2**52}, r"^bb=4503599627370496 makes the default over blind ob=2\*bb="),
        ({"sb": 2**50, "structure": "fixed-limit"},
         r"^fixed-limit second-round bet 2\*L=9007199254740992 \(L=4503599627370496\) is beyond the largest amount "
         r"of chips \(9007199254740991\) \[R3\.4, R7\.2\]$"),
    ],
)
def test_rules_refuse_derived_amounts_beyond_the_limit(options: dict[str, object], message: str) -> None:
    """Rules(sb=2**52) used to be accepted with bb = 2**53: a hand at such stakes could not
    restore its own snapshot or re-read its own history (R3.2)."""
    with pytest.raises(RulesError, match=message):
        Rules(**options)  # type: ignore[arg-type]


def test_rules_at_the_limit_are_accepted() -> None:
    rules = Rules(sb=2**50)
    assert (rules.bb, rules.ob) == (2**51, 2**52)
    assert Rules(sb=2**50, bb=2**50, ob=2**51, structure="fixed-limit").ob == 2**51
    assert Rules(sb=MAX_CHIPS // 4, bb=MAX_CHIPS // 2, ob=MAX_CHIPS).ob == MAX_CHIPS


@pytest.mark.parametrize(
    "kwargs",
    [
        {"posts": {1: (2, 0)}},               # seat 1 posts the small blind: 1 + 2 live > L = 2 (R10.2)
        {"posts": {0: (3, 0)}},               # more than L live
        {"posts": {0: (1, -1)}},
        {"deck": "Ah Kh"},
        {"auto_deal": "yes"},
    ],
)
def test_refused_hand_leaves_the_generator_alone(kwargs: dict[str, object]) -> None:
    """Every check is made before the hand draws its shuffle from the caller's generator."""
    from pokerdraw32 import Rng

    rng = Rng(99)
    before = rng.getstate()
    with pytest.raises(PokerDraw32Error):
        Hand(Rules(), [100, 100, 100], 0, rng=rng, **kwargs)  # type: ignore[arg-type]
    assert rng.getstate() == before


@pytest.mark.parametrize("action", [
    Action.fold(), Action.check(), Action.call(), Action.bet(10), Action.raise_to(30), Action.split(),
    Action.decline(), Action.discard("Ah 7c"), Action.stand_pat(), Action.timeout(),
])
def test_every_action_text_parses_back(action: Action) -> None:
    """str(action) is a text Action.parse reads back: 'stand pat' was refused ('stand takes no argument')."""
    assert Action.parse(str(action)) == action
