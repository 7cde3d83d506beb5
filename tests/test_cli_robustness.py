"""The ``pokerdraw32`` command under bad input: one exit-status convention for every subcommand
(``pokerdraw32 --help``, docs/engine/command-line.md), errors before any output, no traceback for any input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokerdraw32.cli import EXIT_CODES, MAX_TRIALS, main
from pokerdraw32.history import MAX_HISTORY_BYTES

HAND = "Ah Kd 7c 8s 9h"


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def script(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """The ``pokerdraw32`` command in a child process (``python -m pokerdraw32``)."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run([sys.executable, "-m", "pokerdraw32", *argv], capture_output=True, text=True,
                          env=env, check=False, timeout=120, **kwargs)  # type: ignore[call-overload]


def test_the_convention_is_in_help() -> None:
    assert sorted(EXIT_CODES) == [0, 1, 2, 130, 141]
    code, out, _ = run("--help")
    assert code == 0 and "exit status:" in out
    for status in EXIT_CODES:
        assert f"\n  {status:>3}  " in out


# Every subcommand, bad argument sets: 2 for the command line (argparse, and the option values and
# combinations it is told to check), 1 for input the engine or a file refuses.
USAGE = [
    [],
    ["nope"],
    ["simulate", "--players", "7"], ["simulate", "--players", "1"], ["simulate", "--players", "x"],
    ["simulate", "--hands", "-1"], ["simulate", "--hands", "1e3"], ["simulate", "--seed", "-5"],
    ["simulate", "--seed", str(2**64)], ["simulate", "--seed", "9" * 5000], ["simulate", "--stack", "0"],
    ["simulate", "--stack", str(2**60)], ["simulate", "--sb", "0"], ["simulate", "--sit-out", "nan"],
    ["simulate", "--sit-out", "1"], ["simulate", "--sit-out", "-0.1"], ["simulate", "--sit-out", "inf"],
    ["simulate", "--bots", "smart"], ["simulate", "--structure", "spread-limit"], ["simulate", "--json", "x"],
    ["eval"], ["eval", "--nope", HAND],
    ["odds"], ["odds", HAND, "--top", "0"], ["odds", HAND, "--top", "-3"], ["odds", HAND, "--trials", "5"],
    ["odds", HAND, "--discard", "7c"], ["odds", HAND, "--opponents", "0"], ["odds", HAND, "--opponents", "9"],
    ["odds", HAND, "--opponents", "1", "--trials", str(2**40)], ["odds", HAND, "--opponents", "1", "--trials", "0"],
    ["odds", HAND, "--opponents", "1", "--trials", str(MAX_TRIALS + 1)],
    ["odds", HAND, "--opponents", "1", "--confidence", "nan"], ["odds", HAND, "--opponents", "1", "--confidence", "1"],
    ["odds", HAND, "--opponents", "2", "--position", "3"], ["odds", HAND, "--opponents", "1", "--position", "-1"],
    ["odds", HAND, "--opponents", "3", "--folded", "2"], ["odds", HAND, "--opponents", "1", "--policy", "best"],
    ["odds", HAND, "--opponents", "1", "--discard", "7c", "--top", "2"],
    ["play", "--players", "9"], ["play", "--hands", "0"], ["play", "--stack", "-1"], ["play", "--bots", "mixed"],
    ["replay"], ["replay", "--nope", "x.phh"],
    ["rules", "R1", "R2"], ["rules", "--nope"],
]
REFUSED = [
    ["simulate", "--stack", str(2**53 - 1), "--hands", "3"],          # the table's total [R3.2]
    ["simulate", "--sb", str(2**52), "--hands", "3"],
    ["eval", "Ah Kd 7c 8s 6h"], ["eval", ""], ["eval", "Ah Ah 7c 8s 9h"], ["eval", "Ah Kd 7c 8s 9h Th"],
    ["eval", "Ah", "Kd"], ["eval", "\x00"], ["eval", "A" * 100_000],
    ["odds", "Ah Kd 7c 8s"], ["odds", HAND, "--dead", "Ah"], ["odds", HAND, "--dead", "6c"],
    ["odds", HAND, "--opponents", "1", "--discard", "Kc"],
    ["odds", HAND, "--opponents", "1", "--discard", "Ah Kd 7c 8s 9h"],
    ["odds", HAND, "--opponents", "4", "--dead", "Qs Qh Qd Qc Js Jh Jd"],
    ["play", "--sb", str(2**52)], ["play", "--players", "5", "--stack", str(2**51)],
    ["replay", "/nonexistent/x.phh"], ["replay", "."],
    ["rules", "R99"], ["rules", "R3.99"], ["rules", "hello"], ["rules", ""],
]


@pytest.mark.parametrize("argv", USAGE, ids=lambda a: " ".join(a)[:60] or "(none)")
def test_usage_errors_exit_2_before_any_output(argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == "", err
    assert err.startswith("usage: pokerdraw32") and "error: " in err and "Traceback" not in err


@pytest.mark.parametrize("argv", REFUSED, ids=lambda a: " ".join(a)[:60])
def test_refused_input_exits_1_with_one_message(argv: list[str]) -> None:
    code, out, err = run(*argv, stdin="q\n")
    assert code == 1, err
    assert f"pokerdraw32 {argv[0]}: error: " in err and "Traceback" not in err
    assert not err.startswith("usage:") and out == ""


def test_simulate_validates_everything_before_the_progress_bar(tmp_path: Path) -> None:
    """The table's limits are checked before the progress bar is drawn and the history file created."""
    history = tmp_path / "h.phhs"
    code, out, err = run("simulate", "--stack", str(2**53 - 1), "--hands", "3", "--history", str(history))
    assert code == 1 and out == "" and not history.exists()
    assert err.count("\n") == 1 and err.startswith("pokerdraw32 simulate: error: ") and "[R3.2]" in err
    code, out, err = run("simulate", "--players", "7")
    assert code == 2 and "simulate:" not in err.replace("pokerdraw32 simulate:", "")   # no progress bar


def test_replay_refuses_an_empty_file(tmp_path: Path) -> None:
    for text in ("", "\n# nothing but a comment\n"):
        path = tmp_path / "empty.phh"
        path.write_text(text, encoding="utf-8")
        code, out, err = run("replay", str(path))
        assert code == 1 and out == ""
        assert err == f"pokerdraw32 replay: error: {path}: the file holds no hand (it is empty, or only comments): " \
                      "nothing to replay\n"


def test_replay_refuses_a_file_beyond_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.phhs"
    path.write_bytes(b"#" * (MAX_HISTORY_BYTES + 1))
    code, out, err = run("replay", str(path))
    assert code == 1 and out == "" and "larger than 64 MiB" in err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_replay_dev_zero_is_bounded() -> None:
    code, out, err = run("replay", "/dev/zero")
    assert code == 1 and out == "" and "/dev/zero: larger than 64 MiB" in err


def test_odds_trials_limit_is_in_help() -> None:
    code, out, _ = run("odds", "--help")
    assert code == 0 and f"1 to {MAX_TRIALS:,}" in " ".join(out.split())


@pytest.mark.skipif(sys.platform == "win32", reason="closes file descriptors with a POSIX shell")
@pytest.mark.parametrize("argv", [["eval", HAND], ["simulate", "--hands", "2", "--no-progress"], ["odds", HAND],
                                  ["replay", "/nonexistent.phh"], ["play", "--hands", "1"],
                                  ["rules", "R1.1"], ["--version"], ["--help"]])
def test_closed_stdout_is_exit_141_without_traceback(argv: list[str]) -> None:
    """``pokerdraw32 eval ... >&-``: Python starts with ``sys.stdout = None``."""
    proc = script(*argv, stdout=None, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 141 and "Traceback" not in proc.stderr, proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="closes file descriptors with a POSIX shell")
def test_closed_stdout_and_stderr_is_still_141() -> None:
    proc = subprocess.run(f"{sys.executable} -m pokerdraw32 eval '{HAND}' >&- 2>&-", shell=True, check=False)
    assert proc.returncode == 141


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX shell and pipe (`| head`)")
def test_broken_pipe_is_141_and_quiet() -> None:
    hands = " ".join('"7s 8s 9s Ts Ac"' for _ in range(4000))       # > 64 KiB of output
    proc = subprocess.run(f"{sys.executable} -m pokerdraw32 eval {hands} | head -c 1; exit ${{PIPESTATUS[0]}}",
                          shell=True, executable="/bin/bash", capture_output=True, text=True, check=False)
    assert proc.returncode == 141 and proc.stderr == ""


def test_interrupt_is_130(monkeypatch: pytest.MonkeyPatch) -> None:
    import pokerdraw32.cli as cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_eval", interrupted)
    code, _, err = run("eval", HAND)
    assert code == 130 and err == "\ninterrupted\n"
