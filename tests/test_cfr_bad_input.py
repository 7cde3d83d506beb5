"""Bad input to ``pokerdraw32.cfr``: damaged checkpoint and strategy files are refused with a message
naming the file before the compiled walk runs on them (it would loop for ever or read out of its
arrays), writes leave no half files, and ``python -m pokerdraw32.cfr`` refuses bad options with
status 2 before any work, and unwritable files with status 1, without a traceback.  Hostile files
of the three kinds (compact, strategy, checkpoint: issue 41) are refused by name in bounded memory,
measured with tracemalloc: headers that are not objects, too long or too deep, bodies that
decompress past their header (bombs), headers declaring what a bomb holds, edited abstractions."""

from __future__ import annotations

import json
import lzma
import math
import re
import tracemalloc
import zlib
from array import array
from pathlib import Path
from typing import Any

import pytest

from pokerdraw32.cfr import Abstraction, Strategy, Trainer, _files
from pokerdraw32.cfr.__main__ import main
from pokerdraw32.cfr._shared import write_atomic
from pokerdraw32.cfr.blueprint import blueprint_path
from pokerdraw32.cfr.compact import BODY_CAP, read_header, read_tables, write_compact
from pokerdraw32.cfr.compact import MAGIC as CFRZ
from pokerdraw32.cfr.solver import CAP, _read, _write
from pokerdraw32.cfr.solver import MAGIC as CFR
from pokerdraw32.errors import PokerDraw32TypeError, PokerDraw32ValueError

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


# -- issue 41: hostile files are refused in bounded memory, edited headers by name -----------------

KB = 1 << 10
MB = 1 << 20
CRC = "0x[0-9a-f]{8}"


@pytest.fixture(scope="module")
def sources(files: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A file of each kind: the compact ``cfrz`` (of ``st``), the strategy ``st``, the checkpoint ``ck``."""
    cfrz = tmp_path_factory.mktemp("cfrz") / "st.cfrz"
    write_compact(Strategy.load(files / "st"), cfrz, {"command": "test"})
    return {"cfrz": cfrz, "strategy": files / "st", "checkpoint": files / "ck"}


KINDS: dict[str, tuple[bytes, int, str, Any]] = {       # magic, width of the header length, the file's name, reader
    "cfrz": (CFRZ, 4, "the strategy file", read_tables),
    "strategy": (CFR, 8, "the strategy", Strategy.load),
    "checkpoint": (CFR, 8, "the checkpoint", Trainer.load),
}


def _parts(path: Path, kind: str) -> tuple[dict[str, Any], bytes]:
    """The header of a file of ``kind`` and the (compressed) bytes after it."""
    width = KINDS[kind][1]
    data = path.read_bytes()
    n = int.from_bytes(data[8:8 + width], "little")
    return json.loads(data[8 + width:8 + width + n]), data[8 + width + n:]


def _made(path: Path, kind: str, head: dict[str, Any] | bytes, packed: bytes, *, length: int | None = None) -> Path:
    """A file of ``kind`` at ``path``: ``head`` (JSON as it is, or a header to write), then ``packed``."""
    magic, width = KINDS[kind][:2]
    text = head if isinstance(head, bytes) else json.dumps(head).encode()
    path.write_bytes(magic + (len(text) if length is None else length).to_bytes(width, "little") + text + packed)
    return path


def _resealed(header: dict[str, Any]) -> dict[str, Any]:
    """``header`` with CRC-32s of its fields as it is (an edit a writer would have made)."""
    return {**header, "fields_crc32": _files.field_crcs(header)}


def _refused(kind: str, path: Path, *, within: int) -> str:
    """The message of the reader of ``kind`` refusing ``path``, having allocated at most ``within`` bytes."""
    tracemalloc.start()
    try:
        with pytest.raises(PokerDraw32ValueError) as e:
            KINDS[kind][3](path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < within, f"{peak} bytes allocated refusing {path}"
    return str(e.value)


def _where(kind: str, path: Path) -> str:
    return f"{KINDS[kind][2]} {str(path)!r}"


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("text, name", [(b"[1, 2]", "list"), (b'"header"', "str"), (b"3", "int"),
                                        (b"null", "NoneType")])
def test_a_header_that_is_json_but_not_an_object(sources: dict[str, Path], tmp_path: Path, kind: str, text: bytes,
                                                 name: str) -> None:
    """It raised AttributeError (header.get of a list)."""
    bad = _made(tmp_path / "bad", kind, text, _parts(sources[kind], kind)[1])
    assert _refused(kind, bad, within=MB) == (f"{_where(kind, bad)} is damaged: its header is a JSON {name}, not an "
                                              "object")


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("text", [b"[" * 30000 + b"]" * 30000, b'{"a": ' * 9000 + b"1" + b"}" * 9000,
                                  b'{"format": ' + b"[" * 33 + b"]" * 33 + b"}"])
def test_a_deeply_nested_header_is_refused_before_it_is_parsed(sources: dict[str, Path], tmp_path: Path, kind: str,
                                                              text: bytes) -> None:
    """json.loads recurses (RecursionError past about 1,000 levels): the nesting is counted first."""
    if len(text) > 1000:
        with pytest.raises(RecursionError):
            json.loads(text)
    bad = _made(tmp_path / "bad", kind, text, _parts(sources[kind], kind)[1])
    assert _refused(kind, bad, within=4 * MB) == (f"{_where(kind, bad)} is damaged: its header nests more than 32 "
                                                  "levels deep")


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_header_length_past_the_limit_is_refused_unread(sources: dict[str, Path], tmp_path: Path, kind: str) -> None:
    header, packed = _parts(sources[kind], kind)
    length = (1 << 8 * KINDS[kind][1]) - 1
    bad = _made(tmp_path / "bad", kind, header, packed, length=length)
    assert _refused(kind, bad, within=MB) == (f"{_where(kind, bad)} is damaged: its header length is {length} bytes, "
                                              "more than the 65536 a header may have")


def test_brackets_and_quotes_in_strings_do_not_count_as_nesting(sources: dict[str, Path], tmp_path: Path) -> None:
    meta = {"command": '[{"' * 3000, "deep": [[[[[["\\]]]]"]]]]]]}
    write_compact(Strategy.load(sources["strategy"]), tmp_path / "m.cfrz", meta)
    assert read_header(tmp_path / "m.cfrz")["metadata"] == meta
    assert len(Strategy.load(tmp_path / "m.cfrz")) == len(Strategy.load(sources["cfrz"]))


@pytest.fixture(scope="module")
def bombs() -> dict[str, bytes]:
    """256 MiB of zeros in 39 KB of xz (the issue's 78 KB file held 512 MiB), 128 MiB in 130 KB of zlib."""
    xz = lzma.LZMACompressor(lzma.FORMAT_XZ, preset=0)
    zeros = bytes(MB)
    packed_xz = b"".join(xz.compress(zeros) for _ in range(256)) + xz.flush()
    zc = zlib.compressobj(9)
    packed_zlib = b"".join(zc.compress(zeros) for _ in range(128)) + zc.flush()
    assert len(packed_xz) < 64 * KB and len(packed_zlib) < 160 * KB
    return {"cfrz": packed_xz, "strategy": packed_zlib, "checkpoint": packed_zlib}


def _declared(kind: str, header: dict[str, Any]) -> int:
    if kind == "cfrz":
        return int(11 * header["info_sets"] + header["probabilities"])
    codes = "Qqf" if kind == "strategy" else "Qqdd"
    return sum(n * array(code).itemsize for n, code in zip(header["lengths"], codes, strict=True))


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_body_that_decompresses_past_its_header_stops_at_the_first_byte_too_many(
        sources: dict[str, Path], bombs: dict[str, bytes], tmp_path: Path, kind: str) -> None:
    """The body was decompressed whole before its size was checked: a 78 KB compact file took 1.07 GB,
    a 1 MB solver file 2.1 GB.  Now it is read a chunk at a time into the size the header declares."""
    header = _parts(sources[kind], kind)[0]
    bad = _made(tmp_path / "bomb", kind, header, bombs[kind])
    size = _declared(kind, header)
    assert size < MB
    assert _refused(kind, bad, within=4 * MB) == (f"{_where(kind, bad)} is damaged: its body decompresses to more than "
                                                  f"the {size} bytes its header declares")


def test_an_xz_stream_asking_for_more_memory_than_its_body_needs(sources: dict[str, Path], tmp_path: Path) -> None:
    """A version-2 body is compressed with a dictionary no larger than it needs (16 KiB here, where
    version 1 used preset 9e's 64 MiB whatever the size): the reader lets the decoder have that, or xz's
    default 8 MiB (a file compressed again by xz) and 1 MiB."""
    header, packed = _parts(sources["cfrz"], "cfrz")
    size = _declared("cfrz", header)
    dictionary = max(4 * KB, 1 << (size - 1).bit_length())
    assert size <= dictionary < 32 * KB
    raw = lzma.decompress(packed)
    big = lzma.compress(raw, format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME)     # a 64 MiB dictionary
    bad = _made(tmp_path / "bad", "cfrz", header, big)
    assert _refused("cfrz", bad, within=2 * MB) == (f"{_where('cfrz', bad)} is damaged: its body's xz stream asks for "
                                                    f"more than the {9 * MB} bytes of memory a body of "
                                                    f"{size} bytes needs to decode")
    header["version"] = 1                                  # version 1: 64 MiB, what its writer took
    del header["fields_crc32"]
    old = _made(tmp_path / "old", "cfrz", header, big)
    assert len(read_tables(old)[2]) == header["info_sets"]


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_header_declaring_what_a_bomb_holds_is_refused_before_decompressing(
        sources: dict[str, Path], bombs: dict[str, bytes], tmp_path: Path, kind: str) -> None:
    """A header whose sizes match the bomb (its CRC-32s made anew) would have the reader allocate them:
    past the floor, more than 64 bytes a compressed byte is refused unread."""
    header = _parts(sources[kind], kind)[0]
    if kind == "cfrz":
        header.update(info_sets=1 << 24, probabilities=(1 << 28) - 11 * (1 << 24))
    elif kind == "strategy":
        header.update(lengths=[1 << 22, 1 << 22, 1 << 24])      # 32 + 32 + 64 MiB
    else:
        header.update(lengths=[1 << 22] * 4)                    # 4 x 32 MiB
    assert _declared(kind, header) == (256 * MB if kind == "cfrz" else 128 * MB)
    bad = _made(tmp_path / "bomb", kind, _resealed(header), bombs[kind])
    assert _refused(kind, bad, within=MB) == (
        f"{_where(kind, bad)} is damaged: its header declares a body of {_declared(kind, header)} bytes in "
        f"{len(bombs[kind])} compressed bytes, more than 64 to one (no solver file compresses so well; refused before "
        "decompressing)")


@pytest.mark.parametrize("kind, cap", [("cfrz", 1 << 31), ("strategy", 1 << 34), ("checkpoint", 1 << 34)])
def test_a_body_past_the_absolute_cap_is_refused(sources: dict[str, Path], tmp_path: Path, kind: str, cap: int) -> None:
    header, packed = _parts(sources[kind], kind)
    if kind == "cfrz":
        header.update(info_sets=1 << 28, probabilities=1 << 28)
    else:
        header["lengths"] = [1 << 31, *header["lengths"][1:]]
    assert cap == (BODY_CAP if kind == "cfrz" else CAP)
    bad = _made(tmp_path / "big", kind, _resealed(header), packed)
    assert _refused(kind, bad, within=MB) == (f"{_where(kind, bad)} is damaged: its header declares a body of "
                                              f"{_declared(kind, header)} bytes, more than the {cap} a file of this "
                                              "kind may have")


def test_the_floor_keeps_the_zeros_of_a_run_in_threads_readable(tmp_path: Path) -> None:
    """A run in threads starts with 18 MiB of tables, mostly zeros (hundreds to one in zlib): under the
    checkpoint's 32 MiB floor, read whatever the ratio."""
    t = Trainer(TINY, seed=2, threads=2)
    t.train(2)
    t.save(tmp_path / "ck")
    header, packed = _parts(tmp_path / "ck", "checkpoint")
    assert 18 * MB <= _declared("checkpoint", header) < 32 * MB and _declared("checkpoint", header) > 64 * len(packed)
    assert Trainer.load(tmp_path / "ck").info_sets == t.info_sets


@pytest.mark.parametrize("kind", list(KINDS))
def test_bytes_after_the_body_are_refused(sources: dict[str, Path], tmp_path: Path, kind: str) -> None:
    bad = tmp_path / "bad"
    bad.write_bytes(sources[kind].read_bytes() + b"\0")
    assert _refused(kind, bad, within=4 * MB) == f"{_where(kind, bad)} is damaged: bytes follow the end of its body"


EDITS = {          # an abstraction field edited in the header: another game, which the body does not show
    "stack_bb": 50,
    "bet_fractions": [2.0],
    "post_buckets": 4,
}


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("field", list(EDITS))
def test_an_edited_abstraction_is_refused(sources: dict[str, Path], tmp_path: Path, kind: str, field: str) -> None:
    """The header's abstraction was outside the CRC: an edited stack, bet size or bucket count loaded and
    played another game.  Every header field is now under a CRC-32 of its own."""
    header, packed = _parts(sources[kind], kind)
    header["abstraction"][field] = EDITS[field]
    bad = _made(tmp_path / "bad", kind, header, packed)
    assert re.fullmatch(f"{re.escape(_where(kind, bad))} is damaged: its header's 'abstraction' was changed after the "
                        rf"file was written \(its CRC-32 is {CRC}, the file recorded {CRC}\)",
                        _refused(kind, bad, within=MB))
    if kind == "cfrz":
        with pytest.raises(PokerDraw32ValueError, match="'abstraction' was changed"):
            read_header(bad)


@pytest.mark.parametrize("change, message", [
    (lambda h: h.update(iterations=h["iterations"] + 1), "its header's 'iterations' was changed after the file was"),
    (lambda h: h["metadata"].update(command="another"), "its header's 'metadata' was changed after the file was"),
    (lambda h: h.update(fields_crc32=[1]), r"its header's 'fields_crc32' is \[1\], not an object of CRC-32s"),
    (lambda h: h.pop("fields_crc32"), "its header's 'fields_crc32' is None, not an object of CRC-32s"),
    (lambda h: h.update(extra=1), r"its version 2 header has the unknown field\(s\) 'extra'"),
    (lambda h: h.update(version=1), r"its version 1 header has the unknown field\(s\) 'fields_crc32'"),
])
def test_other_edits_of_a_compact_header(sources: dict[str, Path], tmp_path: Path, change: Any, message: str) -> None:
    header, packed = _parts(sources["cfrz"], "cfrz")
    change(header)
    bad = _made(tmp_path / "bad", "cfrz", header, packed)
    assert re.search(message, _refused("cfrz", bad, within=MB))


@pytest.mark.parametrize("field, value", [*EDITS.items(), ("raise_cap", 3)])
def test_the_shipped_blueprint_is_pinned(tmp_path: Path, field: str, value: Any) -> None:
    """The blueprint is a version-1 file (no CRC-32s of its fields): its fields are pinned by its body's
    CRC-32, so an edited copy is refused before its body is read, and the file itself still loads."""
    header, packed = _parts(blueprint_path(), "cfrz")
    assert header["version"] == 1 and "fields_crc32" not in header and read_header(blueprint_path()) == header
    header["abstraction"][field] = value
    bad = _made(tmp_path / "edited.cfrz", "cfrz", header, packed)
    assert re.fullmatch(f"{re.escape(_where('cfrz', bad))} is damaged: its header's 'abstraction' was changed after "
                        rf"the file was written \(its CRC-32 is {CRC}, the file recorded 0x9a43b80b\)",
                        _refused("cfrz", bad, within=MB))


def _legacy(header: dict[str, Any], kind: str) -> dict[str, Any]:
    """``header`` as written before issue 41: no CRC-32s of its fields (a compact file: version 1)."""
    del header["fields_crc32"]
    if kind == "cfrz":
        header["version"] = 1
    return header


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("field, value, message", [
    ("post_buckets", 2, "its abstraction has 2 buckets (post_buckets), its body an information set in bucket 2"),
    ("pre_potential", 1, "its abstraction has 2 buckets (pre_strength x pre_potential), its body an information set in "
                         "bucket 3"),
    ("bet_fractions", [], "its abstraction has 0 bet_fractions (the all-in is slot 3), its body a legal slot 4"),
    ("parole", False, "its abstraction has parole=False, its body a Parole split (slot 2)"),
])
def test_a_file_without_field_crcs_has_its_abstraction_checked_against_its_body(
        sources: dict[str, Path], tmp_path: Path, kind: str, field: str, value: Any, message: str) -> None:
    """Files written before issue 41 are still read: what their body shows of the abstraction (the
    buckets of the keys, the legal slots) is checked; what it cannot show (the stack, a bet size's
    value) is not: export them again to have it checked."""
    header, packed = _parts(sources[kind], kind)
    header = _legacy(header, kind)
    old = _made(tmp_path / "old", kind, header, packed)
    KINDS[kind][3](old)
    header["abstraction"]["stack_bb"] = 50
    assert KINDS[kind][3](_made(tmp_path / "stack", kind, header, packed)) is not None
    header["abstraction"]["stack_bb"] = 20
    header["abstraction"][field] = value
    bad = _made(tmp_path / "bad", kind, header, packed)
    assert _refused(kind, bad, within=4 * MB) == f"{_where(kind, bad)} is damaged: {message}"


@pytest.mark.parametrize("metadata, error, message", [
    ({"command": "x" * 70000}, PokerDraw32ValueError,
     r"its header would be 70\d\d\d bytes, more than the 65536 a reader takes \(shorten the metadata\)$"),
    ({"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}, PokerDraw32ValueError,
     r"its header would nest more than 32 levels deep \(flatten the metadata\)$"),
    ({"a": {1, 2}}, PokerDraw32TypeError,
     r"its metadata is not JSON-able \(Object of type set is not JSON serializable\)$"),
])
def test_a_writer_refuses_a_header_no_reader_would_take(sources: dict[str, Path], tmp_path: Path,
                                                         metadata: dict[str, Any], error: type[Exception],
                                                         message: str) -> None:
    with pytest.raises(error, match=f"^cannot write the strategy file {re.escape(repr(str(tmp_path / 'm.cfrz')))}: "
                                    + message):
        write_compact(Strategy.load(sources["strategy"]), tmp_path / "m.cfrz", metadata)
    assert list(tmp_path.iterdir()) == []
