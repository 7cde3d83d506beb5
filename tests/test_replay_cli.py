"""``pokerdraw32 replay FILE... [--json]`` and ``pokerdraw32 simulate ... --history FILE.phhs``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from phh_scenarios import DATA, GOLDEN

from pokerdraw32 import Hand, Rules
from pokerdraw32.cli import main
from pokerdraw32.history import load_all
from pokerdraw32.phh import position_seats
from pokerdraw32.simulate import simulate


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def by_position(h: Hand) -> list[int]:
    assert h.result is not None
    return [h.result.stacks[s] for s in position_seats(h.n, h.button)]


@pytest.mark.parametrize("structure, preset", [("no-limit", "classic"), ("fixed-limit", "two-blind")])
def test_simulate_history_replays_every_stack_exactly(tmp_path: Path, structure: str, preset: str):
    """Every hand of a simulation, written with --history, replays to the very stacks the
    simulation produced (same seed, the same hands in-process)."""
    path = tmp_path / "h.phhs"
    code, out, err = run("simulate", "--players", "5", "--hands", "120", "--seed", "7", "--structure", structure,
                         "--preset", preset, "--history", str(path), "--json", "--no-progress")
    assert code == 0, err
    assert json.loads(out)["hands_played"] == 120
    hands: list[Hand] = []
    simulate(players=5, hands=120, seed=7, rules=Rules.preset(preset, structure=structure), bots="mixed",
             on_hand=hands.append)
    code, out, err = run("replay", "--json", str(path))
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["hand"] for r in rows] == list(range(1, 121))
    assert [r["finishing_stacks"] for r in rows] == [by_position(h) for h in hands]
    for row, h in zip(rows, hands, strict=True):
        assert h.result is not None
        seats = position_seats(h.n, h.button)
        assert row["file"] == str(path)
        assert [p["amount"] for p in row["pots"]] == [p.amount for p in h.result.pots]
        assert [p["winners"] for p in row["pots"]] == [sorted(seats.index(s) + 1 for s in p.winners)
                                                      for p in h.result.pots]
        assert row["winners"] == sorted({w for p in row["pots"] for w in p["winners"]})
    # the text form: one line per hand, finishing stacks in position order
    code, text, _ = run("replay", str(path))
    assert code == 0
    lines = text.splitlines()
    assert len(lines) == 120
    assert lines[0] == f"{path} hand 1: finishing stacks " + ", ".join(
        f"p{i} {chips}" for i, chips in enumerate(by_position(hands[0]), 1))


def test_replay_golden_files_text_and_json():
    files = [str(DATA / name) for name in sorted(GOLDEN)]
    code, out, err = run("replay", *files)
    assert code == 0 and err == ""
    assert out.splitlines() == [f"{f} hand 1: finishing stacks " + ", ".join(
        f"p{i} {chips}" for i, chips in enumerate(GOLDEN[Path(f).name][1], 1)) for f in files]
    code, out, _ = run("replay", "--json", str(DATA / "r8_2_parole_all_in_declines.phh"))
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert row == {
        "file": str(DATA / "r8_2_parole_all_in_declines.phh"), "hand": 1, "finishing_stacks": [99, 80, 80, 61],
        # main pot 61 (p2, p3, p4 = seat 0) shown down and won by p4's quads; the side pot shared (R8.2)
        "pots": [{"amount": 61, "eligible": [2, 3, 4], "winners": [4], "shared": False},
                 {"amount": 40, "eligible": [2, 3], "winners": [2, 3], "shared": True}],
        "winners": [2, 3, 4]}


def test_replay_stops_at_the_first_invalid_hand(tmp_path: Path):
    good = DATA / "r9_3_showdown_order.phh"
    bad = DATA / "bad" / "own_discard.phhs"
    code, out, err = run("replay", str(good), str(bad), str(good))
    assert code == 1
    # the good file, then hand 1 of the bad file, then the error naming file, hand and action index
    assert out.splitlines() == [f"{good} hand 1: finishing stacks p1 88, p2 88, p3 124",
                                f"{bad} hand 1: finishing stacks p1 88, p2 88, p3 124"]
    assert err.startswith(f"pokerdraw32 replay: error: {bad}: hand 2: actions[13] 'd dh p2 JdAh8sAs': card As is "
                          "one of seat 1's own discards")
    assert "[R6.2]" in err


def test_replay_missing_file_and_bad_toml(tmp_path: Path):
    code, out, err = run("replay", str(tmp_path / "nope.phh"))
    assert code == 1 and out == "" and "nope.phh" in err
    (tmp_path / "x.phh").write_text('variant = "N32D', encoding="utf-8")
    code, _, err = run("replay", str(tmp_path / "x.phh"))
    assert code == 1 and f"{tmp_path / 'x.phh'}: not valid TOML" in err


def test_simulate_history_unwritable_path_fails_before_playing(tmp_path: Path):
    code, out, err = run("simulate", "--hands", "5", "--no-progress", "--history", str(tmp_path / "no" / "h.phhs"))
    assert code == 1 and out == "" and "h.phhs" in err


def test_simulate_history_file_is_phh_of_numbered_hands(tmp_path: Path):
    path = tmp_path / "h.phhs"
    assert run("simulate", "--players", "3", "--hands", "4", "--seed", "1", "--no-progress", "--history",
               str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith('[1]\nvariant = "N32D"\n')
    assert [hh.number for hh in load_all(path)] == [1, 2, 3, 4]
