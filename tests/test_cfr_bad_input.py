"""Bad input to ``pokerdraw32.cfr``: damaged checkpoint and strategy files are refused with a message
naming the file before the compiled walk runs on them (it would loop for ever or read out of its
arrays), writes leave no half files, and ``python -m pokerdraw32.cfr`` refuses bad options with
status 2 before any work, and unwritable files with status 1, without a traceback."""

from __future__ import annotations

import math
import re
from array import array
from pathlib import Path
from typing import Any

import pytest

from pokerdraw32.cfr import Abstraction, Strategy, Trainer
from pokerdraw32.cfr.__main__ import main
from pokerdraw32.cfr._shared import write_atomic
from pokerdraw32.cfr.solver import _read, _write
from pokerdraw32.errors import PokerDraw32ValueError

TINY = Abstraction(stack_bb=20, bet_fractions=(1.0,), raise_cap=1, pre_strength=2, pre_potential=2, post_buckets=3)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkpoint ``ck`` and a strategy ``st`` of 30 seeded iterations on TINY."""
    d = tmp_path_factory.mktemp("cfr")
    t = Trainer(TINY, seed=5)
    t.train(30)
    t.save(d / "ck")
    t.strategy().save(d / "st")
    return d


def _damaged_checkpoint(src: Path, dst: Path, change: Any) -> Path:
    header, arrays = _read(src, "checkpoint", "Qqdd")
    header, arrays = change(dict(header), list(arrays))
    header["lengths"] = [len(a) for a in arrays]
    _write(dst, header, arrays)
    return dst


def _without(header: dict[str, Any], name: str) -> dict[str, Any]:
    del header[name]
    return header


CHECKPOINT_DAMAGE = {
    # a hash map whose size is not a power of two: the compiled probe looped for ever
    "odd map": (lambda h, a: (h, [a[0][:len(a[0]) // 2 + 1], a[1][:len(a[1]) // 2 + 1], a[2], a[3]]),
                "hash map of"),
    # fewer values than the header's "used": the walk read and wrote out of its arrays (a segfault)
    "short values": (lambda h, a: (h, [a[0], a[1], a[2][:4], a[3][:4]]), "4 regrets"),
    "no generator": (lambda h, a: (_without(h, "rng"), a), "generator state"),
    "text generator": (lambda h, a: ({**h, "rng": "x"}, a), "generator state"),
    "negative iterations": (lambda h, a: ({**h, "iterations": -5}, a), "iterations=-5"),
    "bad sampling": (lambda h, a: ({**h, "sampling": "bogus"}, a), "sampling='bogus'"),
    "wrong count": (lambda h, a: ({**h, "count": h["count"] - 1}, a), "keys in its hash map"),
    "full map": (lambda h, a: ({**h, "count": len(a[0])}, a), "hash map of"),
}


@pytest.mark.parametrize("name", list(CHECKPOINT_DAMAGE))
def test_damaged_checkpoint_is_refused_before_the_walk(files: Path, tmp_path: Path, name: str) -> None:
    change, message = CHECKPOINT_DAMAGE[name]
    bad = _damaged_checkpoint(files / "ck", tmp_path / "bad", change)
    before = bad.read_bytes()
    with pytest.raises(PokerDraw32ValueError, match=message) as e:
        Trainer.load(bad)
    assert str(bad) in str(e.value) and "damaged" in str(e.value)
    assert main(["train", "--iterations", "5", "--resume", str(bad), "--checkpoint", str(bad),
                 "--out", str(tmp_path / "out")]) == 1
    assert bad.read_bytes() == before and not (tmp_path / "out").exists()      # nothing written


def test_sound_checkpoint_still_resumes(files: Path) -> None:
    t = Trainer.load(files / "ck")
    t.train(3)
    assert t.iterations == 33
    with pytest.raises(PokerDraw32ValueError, match="threads=0"):
        Trainer.load(files / "ck", threads=0)


@pytest.mark.parametrize("change, message", [
    (lambda h, a: (h, [a[0], a[1][:-3], a[2]]), "keys but"),
    (lambda h, a: (h, [a[0], a[1], a[2][:5]]), "do not match its 5 probabilities"),
    (lambda h, a: (h, [array("Q", [0, *a[0][1:]]), a[1], a[2]]), "not distinct and non-zero"),
    (lambda h, a: (h, [a[0], array("q", [o & ~0xFFFF for o in a[1]]), a[2]]), "no legal slots"),
    (lambda h, a: ({**h, "iterations": -3}, a), "iterations=-3"),
])
def test_damaged_strategy_file_is_refused(files: Path, tmp_path: Path, change: Any, message: str) -> None:
    header, arrays = _read(files / "st", "strategy", "Qqf")
    header, arrays = change(dict(header), list(arrays))
    header["lengths"] = [len(a) for a in arrays]
    _write(tmp_path / "bad", header, arrays)
    with pytest.raises(PokerDraw32ValueError, match=message):
        Strategy.load(tmp_path / "bad")
    assert main(["exploitability", "--strategy", str(tmp_path / "bad")]) == 1


def test_failed_write_leaves_no_tmp_file(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path / "d", b"x")
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "none" / "f", b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]
    write_atomic(tmp_path / "f", b"x")
    assert (tmp_path / "f").read_bytes() == b"x" and sorted(p.name for p in tmp_path.iterdir()) == ["d", "f"]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_abstraction_refuses_fractions_that_are_not_finite(bad: float) -> None:
    with pytest.raises(PokerDraw32ValueError, match="finite"):
        Abstraction(bet_fractions=(0.5, bad))


@pytest.mark.parametrize("bad, shown", [(1e308, "1e+308"), (-1e308, "-1e+308"), (10 ** 400, "<int of 1329 bits>"),
                                        (2000, "2000")])
def test_abstraction_refuses_fractions_too_large_to_scale(bad: float, shown: str) -> None:
    """Issue 41: 1e308 thousandths of a pot are inf, which round() cannot make an int (OverflowError);
    math.isfinite cannot read a huge int (OverflowError too)."""
    with pytest.raises(PokerDraw32ValueError) as e:
        Abstraction(bet_fractions=(0.5, bad))
    assert str(e.value) == (f"Abstraction.bet_fractions=(0.5, {shown}): at most 12 ascending pot fractions, each a "
                            "multiple of 0.001 from 0.001 to 1000")


def test_counts_past_64_bits_are_refused() -> None:
    """The compiled walk counts iterations in 64-bit integers: more raised OverflowError there."""
    with pytest.raises(PokerDraw32ValueError, match=r"^prune_after=9223372036854775808: use an int from 0 to 2\*\*63"):
        Trainer(TINY, prune_after=1 << 63)
    t = Trainer(TINY, seed=1)
    t.train(2)
    with pytest.raises(PokerDraw32ValueError, match=r"^iterations=9223372036854775806: at most 2\*\*63 - 1 "
                                                    r"iterations in all \(9223372036854775805 more\)$"):
        t.train((1 << 63) - 2)
    with pytest.raises(PokerDraw32ValueError, match=r"^chunk=.*: at most 2\*\*63 - 1"):
        t.train(1, chunk=1 << 63)
    assert t.iterations == 2


USAGE = [
    (["abstraction", "--out", "{d}/a.json", "--bet-fractions", "nan"], "finite"),
    (["abstraction", "--out", "{d}/a.json", "--bet-fractions", "1e308"],
     r"error: Abstraction.bet_fractions=\(1e\+308,\): at most 12 ascending pot fractions"),
    (["abstraction", "--out", "{d}/a.json", "--stack-bb", "9" * 30], "argument --stack-bb: 9{30} is not below 2"),
    (["abstraction", "--out", "{d}/a.json", "--post-buckets", "9" * 5000], "--post-buckets: '9{40}' is not a whole"),
    (["train", "--iterations", str(1 << 63), "--out", "{d}/s.cfr"],
     r"argument --iterations: 9223372036854775808 is not below 2\*\*63"),
    (["train", "--iterations", "5", "--out", "{d}/s.cfr", "--prune-after", str(1 << 63)], "--prune-after: .* 2"),
    (["abstraction", "--out", "{d}/a.json", "--raise-cap", "9"], "raise_cap=9"),
    (["abstraction", "--out", "{d}/none/a.json"], "does not exist"),
    (["abstraction", "--out", "{d}"], "is a directory"),
    (["train", "--iterations", "5", "--out", "{d}/none/s.cfr"], "does not exist"),
    (["train", "--iterations", "5", "--out", "{d}/s.cfr", "--checkpoint", "{d}"], "is a directory"),
    (["train", "--iterations", "5", "--out", "{d}/s.cfr", "--seed", str(1 << 64)], "2\\*\\*64"),
    (["train", "--iterations", "5", "--out", "{d}/s.cfr", "--prune-bb", "nan"], "--prune-bb"),
    (["train", "--iterations", "5", "--out", "{d}/s.cfr", "--threads", "5000"], "1024"),
    (["train", "--iterations", "5", "--out", "{d}/s.cfr", "--sampling", "outcome", "--prune-after", "5"],
     "external sampling only"),
    (["export", "--strategy", "{d}/st", "--out", "{d}/./st"], "same file as --strategy"),
    (["export", "--strategy", "{d}/st", "--out", "{d}/none/s.cfrz"], "does not exist"),
]


@pytest.mark.parametrize("argv, message", USAGE)
def test_command_line_usage_errors(files: Path, argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Status 2 and a message naming the option, before any work: a training run into a missing
    directory is refused before it trains, not after."""
    before = sorted(p.name for p in files.iterdir())
    with pytest.raises(SystemExit) as e:
        main([a.format(d=files) for a in argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert any(re.search(message, line) for line in err.splitlines()[-1:]), err
    assert sorted(p.name for p in files.iterdir()) == before


def test_export_command_that_is_not_shell(files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cmd = "python -m pokerdraw32.cfr train --iterations 30 'unterminated"
    assert main(["export", "--strategy", str(files / "st"), "--out", str(tmp_path / "s.cfrz"), "--command", cmd]) == 1
    assert "cannot read" in capsys.readouterr().err and not (tmp_path / "s.cfrz").exists()
