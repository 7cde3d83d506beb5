"""The ``pokerdraw32`` command: simulate, eval, play."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from pokerdraw32.cli import main


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_eval_lists_best_first() -> None:
    code, out, _ = run("eval", "Ah Kd 7c 8s 9h", "Ks Kd Kc 9s 9h", "Ah Kh 7h 8h Jh")
    assert code == 0
    lines = out.splitlines()
    assert [ln.split("  ")[1].split()[0] for ln in lines] == ["FLUSH", "FULL_HOUSE", "HIGH_CARD"]
    assert "flush, ace high, hearts" in lines[0]


def test_eval_json_and_no_suit_tiebreak() -> None:
    code, out, _ = run("eval", "--json", "--no-suit-tiebreak", "Kh Ks Jd Jc 9h", "Kd Kc Js Jh 9d")
    data = json.loads(out)
    assert code == 0 and data[0]["value"] == data[1]["value"]


def test_eval_bad_card_exit_1_names_token() -> None:
    code, out, err = run("eval", "Ah Kd 7c 8s 6h")
    assert code == 1 and out == ""
    assert "'6h'" in err


@pytest.mark.parametrize("structure", ["no-limit", "pot-limit", "fixed-limit"])
@pytest.mark.parametrize("preset", ["classic", "two-blind"])
def test_simulate_json(structure: str, preset: str) -> None:
    code, out, err = run("simulate", "--players", "4", "--hands", "60", "--seed", "3", "--structure", structure,
                         "--preset", preset, "--json", "--mode", "session")
    assert code == 0
    data = json.loads(out)
    assert data["hands_played"] == 60
    assert data["structure"] == structure and data["preset"] == preset
    session = data["session"]
    assert len(session["final_stacks"]) == 4 and all(isinstance(s, int) for s in session["final_stacks"])
    assert sum(session["final_stacks"]) == sum(session["bought_in"])      # R9.5 over the session
    assert sum(session["net"]) == 0 and session["net"] == [b["chips"] for b in data["bots"]]
    assert set(data["categories"]) == {"STRAIGHT_FLUSH", "FOUR_OF_A_KIND", "FLUSH", "FULL_HOUSE", "STRAIGHT",
                                       "THREE_OF_A_KIND", "TWO_PAIR", "ONE_PAIR", "HIGH_CARD"}
    assert "60/60" in err                                                 # the progress bar, on stderr


def test_simulate_same_seed_same_result() -> None:
    a = json.loads(run("simulate", "--hands", "100", "--seed", "11", "--json", "--no-progress")[1])
    b = json.loads(run("simulate", "--hands", "100", "--seed", "11", "--json", "--no-progress")[1])
    del a["run"], b["run"]
    assert a == b


def test_simulate_text_report() -> None:
    code, out, _ = run("simulate", "--players", "3", "--hands", "30", "--seed", "1", "--no-progress")
    assert code == 0
    assert "hands/s" in out and "bb/100" in out and "95% interval" in out and "one pair" in out


@pytest.mark.parametrize("argv", [["simulate", "--players", "6"], ["simulate", "--players", "1"],
                                  ["simulate", "--hands", "-1"], ["simulate", "--seed", "-5"],
                                  ["simulate", "--stack", "0"], ["simulate", "--sb", "0"]])
def test_simulate_bad_arguments(argv: list[str]) -> None:
    code, _out, err = run(*argv, "--no-progress")
    assert code == 2 and "error" in err and err.startswith("usage: pokerdraw32 simulate")


def test_simulate_same_final_stacks_compiled_and_pure() -> None:
    """The same seed gives the same final stacks with the compiled and the pure kernels."""
    pytest.importorskip("pokerdraw32._core")
    cmd = [sys.executable, "-m", "pokerdraw32.cli", "simulate", "--players", "5", "--hands", "300", "--seed", "7",
           "--json", "--no-progress"]
    results = {}
    for flag in ("0", "1"):
        # each child picks its kernels from this flag alone (REQUIRE with NO_EXTENSIONS is an error)
        env = {k: v for k, v in os.environ.items() if k not in ("POKERDRAW32_REQUIRE_EXTENSIONS", "CIBUILDWHEEL")}
        env["POKERDRAW32_NO_EXTENSIONS"] = flag
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        results[flag] = json.loads(proc.stdout)
    assert results["0"]["run"]["implementation"] == "cython" and results["1"]["run"]["implementation"] == "python"
    del results["0"]["run"], results["1"]["run"]
    assert results["0"] == results["1"]


def test_play_scripted_session_hides_other_cards() -> None:
    script = "c\nk\nc\nk\np\nk\nc\nq\n"
    code, out, _ = run("play", "--players", "3", "--seed", "5", "--hands", "2", stdin=script)
    assert code == 0
    assert "You are seat 0" in out and "you are dealt" in out and "your hand:" in out
    # cards appear only as the player's own cards, or in a showdown
    card = re.compile(r"\b[789TJQKA][shdc]\b")
    for line in out.splitlines():
        if card.search(line):
            assert line.startswith(("you are dealt", "you discard", "you receive", "[pot", "draw:")) \
                or " show" in line, line


def test_play_rejects_bad_input_and_continues() -> None:
    code, out, _ = run("play", "--players", "2", "--seed", "2", "--hands", "1", stdin="z\nr 1\nf\n")
    assert code == 0
    assert "unknown action 'z'" in out
    assert "outside the legal range" in out


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("pokerdraw32 ")


def test_eval_marks_ties_and_hints_at_quoting() -> None:
    code, out, _ = run("eval", "--no-suit-tiebreak", "Kh Ks Jd Jc 9h", "Kd Kc Js Jh 9d")
    assert code == 0 and out.count("(tie)") == 2
    code, _, err = run("eval", "Ah", "Kd", "7c", "8s", "9h")
    assert code == 1 and "quote each hand" in err


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX shell and pipe (`| head`)")
def test_broken_pipe_is_quiet() -> None:
    """`pokerdraw32 ... | head` must not print a traceback when the reader goes away."""
    hands = " ".join('"7s 8s 9s Ts Ac"' for _ in range(4000))       # > 64 KiB of output
    proc = subprocess.run(f"{sys.executable} -m pokerdraw32.cli eval {hands} | head -c 1", shell=True,
                          capture_output=True, text=True, check=False)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_play_discard_numbers_index_the_displayed_hand() -> None:
    """'d 1 5' throws away the 1st and 5th card *as shown* (sorted, best rank first), not as dealt:
    seed 5 deals seat 0 'Ah Ad 7h 8s 8c', shown 'Ah Ad 8c 8s 7h' (R6.1)."""
    code, out, _ = run("play", "--players", "2", "--seed", "5", "--hands", "1", stdin="c\nd 1 5\nq\n")
    assert code == 0
    assert "you are dealt Ah Ad 7h 8s 8c" in out and "your hand: Ah Ad 8c 8s 7h" in out
    (line,) = [ln for ln in out.splitlines() if ln.startswith("> you discard")]
    assert sorted(line.removeprefix("> you discard ").split()) == ["7h", "Ah"]


def test_play_a_position_given_twice_is_named_as_a_position() -> None:
    code, out, _ = run("play", "--players", "2", "--seed", "5", "--hands", "1", stdin="c\nd 1 1\nd 1 5\nq\n")
    assert code == 0 and "card position 1 is given twice" in out and "duplicate card" not in out
    assert any(ln.startswith("> you discard") for ln in out.splitlines())        # the next try is taken


def test_play_help_states_the_default_it_uses() -> None:
    code, help_text, _ = run("play", "--help")
    assert code == 0 and "2-5 (default 3)" in " ".join(help_text.split())
    code, out, _ = run("play", "--seed", "1", "--hands", "1", stdin="q\n")
    assert code == 0 and "stacks [200, 200, 200]" in out                  # three players dealt in


def test_play_quit_prints_the_session_summary() -> None:
    code, out, _ = run("play", "--players", "2", "--seed", "2", "--hands", "3", stdin="f\nq\n")
    assert code == 0
    summary = out[out.index("1 hand played"):]
    assert "you (seat 0)" in summary and "seat 1" in summary and summary.rstrip().endswith("bye")
    nets = [int(m) for m in re.findall(r"^\s+(?:you \(seat 0\)|seat 1)\s+([+-]\d+)", summary, re.M)]
    assert len(nets) == 2 and sum(nets) == 0 and nets[0] < 0            # the folded blind is lost


def test_python_dash_m_pokerdraw32_is_the_command() -> None:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    proc = subprocess.run([sys.executable, "-m", "pokerdraw32", "eval", "Ah Kd 7c 8s 9h"], capture_output=True,
                          text=True, env=env, check=False)
    assert proc.returncode == 0
    assert proc.stdout == "Ah Kd 7c 8s 9h  HIGH_CARD         1935427  high card, ace of hearts\n"
    proc = subprocess.run([sys.executable, "-m", "pokerdraw32", "--help"], capture_output=True, text=True, env=env,
                          check=False)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: pokerdraw32 ")


def test_eval_without_suit_tiebreak_names_no_suit() -> None:
    """R2.4 off: no suit decides, so the descriptions name none (they used to name the kicker's suit)."""
    hands = ["Kh Ks Jd Jc 9h", "Kd Kc Js Jh 9d", "Ah Kh 7h 8h Jh", "Ac 7d 8s 9h Th", "Ah Kh Qh Jh Th", "Ac Kd 9h 8s 7c",
             "Ac Ad 9h 8s 7c", "7h 8h 9h Th Ah", "Ac Ad As 8s 8c", "Ac Ad As Ah 8c", "Ac Ad As 9h 8c"]
    code, out, _ = run("eval", "--no-suit-tiebreak", *hands)
    assert code == 0 and out.count("(tie)") == 2
    descriptions = [line.split(maxsplit=7)[7] for line in out.splitlines()]
    assert not any(re.search(r"heart|diamond|club|spade", d) for d in descriptions), descriptions
    assert "two pair, kings and jacks, nine kicker  (tie)" in descriptions
    assert {"royal flush", "flush, ace high", "straight, ten high (ace low)", "pair of aces, nine kicker",
            "high card, ace", "straight flush, ten high (ace low)"} <= set(descriptions)
    data = json.loads(run("eval", "--json", "--no-suit-tiebreak", *hands)[1])
    assert not any(re.search(r"heart|diamond|club|spade", d["description"]) for d in data)
    assert run("eval", "Kh Ks Jd Jc 9h")[1].endswith("two pair, kings and jacks, nine of hearts kicker\n")


def test_docs_simulate_sample_output_is_what_the_command_prints() -> None:
    """The sample of ``pokerdraw32 simulate`` in docs/research/measuring.md: every line but the speed
    line is what the command prints (the same on any machine, compiled or pure; compiled here, for
    time)."""
    from pathlib import Path

    import pokerdraw32

    page = Path(__file__).resolve().parent.parent / "docs" / "research" / "measuring.md"
    if not page.exists():
        pytest.skip("docs/ is not next to tests/")
    if pokerdraw32.IMPLEMENTATION != "cython":
        pytest.skip("100,000 hands: the compiled session (the pure one gives the same lines, more slowly)")
    text = page.read_text(encoding="utf-8")
    command = "$ pokerdraw32 simulate --players 3 --hands 100000 --seed 7 --bots rule,random,random\n"
    start = text.index(command) + len(command)
    shown = text[start:text.index("\n...\n", start)].splitlines()
    code, out, _ = run("simulate", "--players", "3", "--hands", "100000", "--seed", "7", "--bots",
                       "rule,random,random", "--no-progress", "--workers", "2")
    assert code == 0
    printed = out.splitlines()[:len(shown)]
    speed = re.compile(r"on \S+ \S+ \(cython kernels\): [\d,]+ hands/s \([\d.]+ s\)$")
    assert [speed.sub("", line) for line in printed] == [speed.sub("", line) for line in shown]
