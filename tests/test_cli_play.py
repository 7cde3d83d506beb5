"""``pokerdraw32 play`` as a new user met it (issue 25): one legal amount is said once and taken by a
bare ``r``/``b``, the help for an unknown word lists what ``play`` takes, a refused discard names the
hand in the order the prompt shows it, a busted player is offered the re-buy ``--stack`` promises,
Ctrl-C prints the summary ``q`` prints (exit status 130), and "the Parole offer is off" follows only
an offer that was made.  Driven through ``main`` with scripted input, in both builds.
"""

from __future__ import annotations

import io
import re

from pokerdraw32.cli import main

FIXED = ("play", "--players", "2", "--seed", "3", "--structure", "fixed-limit")
"""Seed 3, fixed-limit, heads-up: you are dealt 9s 7c Ks 8s Jd (shown Ks Jd 9s 8s 7c) as the big blind;
seat 1 calls; after the draw seat 1 chooses split (R8.1) and your bet ends the offer."""


def run(*argv: str, stdin: str | io.TextIOBase = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin) if isinstance(stdin, str) else stdin, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


class Player(io.TextIOBase):
    """A player at the terminal who reads the last prompt: stands pat in the draw, goes all-in
    otherwise (``allin``) or checks and calls, answers ``rebuy`` to a re-buy offer, quits (end of
    input) after ``limit`` answers, and presses Ctrl-C at answer ``interrupt_at``."""

    def __init__(self, out: io.StringIO, *, allin: bool = True, rebuy: str = "y", limit: int = 400,
                 interrupt_at: int | None = None) -> None:
        self.out, self.allin, self.rebuy, self.limit, self.interrupt_at = out, allin, rebuy, limit, interrupt_at
        self.answers = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:   # type: ignore[override]
        self.answers += 1
        if self.interrupt_at is not None and self.answers >= self.interrupt_at:
            raise KeyboardInterrupt
        if self.answers > self.limit:
            return ""
        text = self.out.getvalue()
        if text.endswith("[y/n] "):
            return self.rebuy + "\n"
        help_line = text.rsplit("\n", 2)[-2]
        if help_line.startswith("draw:"):
            return "p\n"
        if self.allin:
            return "a\n"
        return "c\n" if "c call" in help_line else "k\n"


def session(*argv: str, **player: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=Player(out, **player), stdout=out, stderr=err)  # type: ignore[arg-type]
    return code, out.getvalue(), err.getvalue()


def test_one_legal_amount_is_said_once_and_a_bare_r_takes_it() -> None:
    code, out, _ = run(*FIXED, "--hands", "1", stdin="r\np\nb\nq\n")
    assert code == 0
    assert "f fold, k check, r raise to 4, q quit\n" in out and "4-4" not in out
    assert "> you: raise to 4\n" in out                                  # 'r' alone: the one amount (R3.4)
    assert "s split (Parole: check and offer to share the pot), b bet 4, q quit\n> you: bet to 4\n" in out


def test_a_bare_r_with_a_range_asks_how_much() -> None:
    code, out, _ = run("play", "--players", "2", "--seed", "3", "--hands", "1", stdin="r\nf\n")
    assert code == 0
    assert "r N raise to 4-200" in out
    assert "! say how much: 'r N', N from 4 to 200\n" in out


def test_unknown_words_get_the_list_play_takes() -> None:
    code, out, _ = run(*FIXED, "--hands", "1", stdin="zz\nt\ntimeout\nf\n")
    assert code == 0
    expected = ("unknown action {!r}: use f (fold), k or x (check), c (call), b N (bet N), r N (raise to N), "
                "a (all-in), s (Parole split), n (decline), d 1 3 or d CARDS (discard), p (stand pat), q (quit)\n")
    for word in ("zz", "t", "timeout"):                   # a timeout is the server's clock, not a move
        assert "! " + expected.format(word) in out
    assert "t (timeout)" not in out and "you: time out" not in out and "you: fold" in out


def test_a_refused_discard_names_the_hand_as_the_prompt_shows_it() -> None:
    code, out, _ = run(*FIXED, "--hands", "1", stdin="r\nd Ah 9s\nd Ks\nq\n")
    assert code == 0
    shown = re.findall(r"your hand: ([^(]+) \(", out.split("! you cannot discard")[0])
    assert shown[-1] == "Ks Jd 9s 8s 7c"                  # sorted; dealt as 9s 7c Ks 8s Jd
    assert "! you cannot discard Ah, not in your hand (Ks Jd 9s 8s 7c) [R6.1]\n" in out
    assert "you discard Ks\n" in out


def test_a_busted_player_is_offered_the_re_buy() -> None:
    code, out, _ = session("play", "--players", "2", "--seed", "1", "--stack", "10", "--hands", "12")
    assert code == 0
    rebuys = out.count("You are out of chips. Re-buy for 10? [y/n] y")
    assert rebuys == out.count("you re-buy for 10\n") >= 1
    bought = re.search(r"you \(seat 0\) +([+-]\d+)  \(stack (\d+), bought in (\d+)\)", out)
    assert bought is not None
    net, stack, paid = (int(x) for x in bought.groups())
    assert paid == 10 * (1 + rebuys) and net == stack - paid
    theirs = [int(x) for x in re.findall(r"seat 1 +[+-]\d+  \(stack (\d+), bought in \d+\)", out)]
    assert stack + theirs[0] == 20 + 10 * (rebuys + out.count("seat 1 re-buys for 10"))   # R9.5
    assert out.rstrip().endswith("bought in " + str(10 * (1 + out.count("seat 1 re-buys for 10"))) + ")")


def test_a_busted_player_who_declines_ends_the_session() -> None:
    code, out, _ = session("play", "--players", "2", "--seed", "1", "--stack", "10", rebuy="n")
    assert code == 0
    assert out.count("You are out of chips. Re-buy for 10? [y/n] ") == 1 and "you re-buy" not in out
    assert re.search(r"\d+ hands? played; net chips", out)
    assert re.search(r"you \(seat 0\) +-10  \(stack 0, bought in 10\)", out)


def test_ctrl_c_prints_the_summary_and_exits_130() -> None:
    code, out, err = session("play", "--players", "3", "--seed", "5", allin=False, interrupt_at=1)
    assert code == 130 and err == "\ninterrupted\n"
    assert "\ninterrupted: the unfinished hand is abandoned: its bets go back\n\n0 hands played; net chips" in out
    assert re.search(r"you \(seat 0\) +\+0  \(stack 200, bought in 200\)", out)
    code, out, err = session("play", "--players", "3", "--seed", "5", allin=False, interrupt_at=12)
    assert code == 130 and err == "\ninterrupted\n"
    played = int(re.findall(r"(\d+) hands? played; net chips", out)[-1])
    assert played == out.count("\nresult: ") >= 1
    assert "bye" not in out


def test_the_parole_offer_is_off_only_after_an_offer() -> None:
    # seed 1: seat 1 bets first in round two (hand 1), then you do (hand 2): no offer was made
    code, out, _ = session("play", "--players", "2", "--seed", "1", "--hands", "2", allin=False)
    assert code == 0 and "choose split" not in out
    assert "the Parole offer is off" not in out
    # seed 3, fixed-limit: seat 1 chooses split, your bet ends the offer (R8.1)
    code, out, _ = run(*FIXED, "--hands", "1", stdin="r\np\nb\nq\n")
    assert "seat 1: choose split (Parole)\n" in out
    assert "> you: bet to 4\nthe Parole offer is off: the hand is played out\n" in out
