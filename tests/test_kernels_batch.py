"""Kernel 5, batches: evaluate_many (R2) and deal_many (R11), both implementations.

evaluate_many must equal evaluate_mask row by row over all C(32, 5) hands in every layout,
raise the same errors with the same row-naming messages in both implementations, and
release the GIL in the compiled kernels (checked by results, not by timing). deal_many must
equal repeated ``Rng.shuffled(0xFFFFFFFF)``, state included.
"""

from __future__ import annotations

import array
import functools
import itertools
import operator
import os
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pokerdraw32
from pokerdraw32 import _core_py

Outcome = Callable[..., tuple[Any, Any]]
FULL = 0xFFFFFFFF


@cache
def hands() -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.combinations(range(32), 5))


@cache
def codes_bytes() -> bytes:
    return bytes(code for hand in hands() for code in hand)


@cache
def masks() -> array.array[int]:
    return array.array(_core_py._U32_CODE, [sum(1 << code for code in hand) for hand in hands()])


@cache
def expected(suit_tiebreak: bool) -> list[int]:
    evaluate = _core_py.evaluate_mask
    return [evaluate(mask, suit_tiebreak) for mask in masks()]


# ---------------------------------------------------------------------------------------
# evaluate_many: exact parity with evaluate_mask


@pytest.mark.parametrize("suit_tiebreak", [True, False])
def test_all_hands_every_layout(kernels: ModuleType, suit_tiebreak: bool) -> None:
    want = expected(suit_tiebreak)
    assert [kernels.evaluate_mask(m, suit_tiebreak) for m in masks()] == want
    flat = codes_bytes()
    for hands_buffer in (flat, bytearray(flat), memoryview(flat).cast("B", (len(flat) // 5, 5)), masks()):
        result = kernels.evaluate_many(hands_buffer, None, suit_tiebreak)
        assert isinstance(result, array.array) and result.itemsize == 4
        assert result.tolist() == want


def test_codes_in_any_order(kernels: ModuleType) -> None:
    reversed_rows = bytes(code for hand in hands() for code in reversed(hand))
    assert kernels.evaluate_many(reversed_rows).tolist() == expected(True)


def test_strided_input(kernels: ModuleType) -> None:
    flat = codes_bytes()
    wide = bytearray(len(flat) * 2)
    wide[::2] = flat  # every other byte: 1-D codes with stride 2
    view = memoryview(wide)[::2]
    assert kernels.evaluate_many(view).tolist() == expected(True)
    every_other = memoryview(masks())[::3]
    assert kernels.evaluate_many(every_other).tolist() == expected(True)[::3]


def test_out_is_filled_and_returned(kernels: ModuleType) -> None:
    out = array.array(_core_py._U32_CODE, bytes(4 * len(hands())))
    assert kernels.evaluate_many(codes_bytes(), out) is out
    assert out.tolist() == expected(True)
    out2 = bytearray(4 * len(hands()))
    target = memoryview(out2).cast("I")
    assert kernels.evaluate_many(masks(), target, False) is target
    assert target.tolist() == expected(False)


def test_out_overlapping_hands(kernels: ModuleType) -> None:
    """``out`` may share memory with ``hands`` (masks evaluated in place, or shifted or reversed
    views of one buffer): every row is read before any value is written, in both implementations
    (the compiled kernel used to read its own output: 'row 1: hand mask 0x1c04000 has 4 cards')."""
    code = _core_py._U32_CODE
    want = [_core_py.evaluate_mask(m) for m in (0x1F, 0xF8000000, 0x1F0)]
    same = array.array(code, [0x1F, 0xF8000000, 0x1F0])
    assert kernels.evaluate_many(same, out=same) is same                      # in place
    assert same.tolist() == want
    ahead = array.array(code, [0x1F, 0xF8000000, 0x1F0, 0])
    view = memoryview(ahead)
    kernels.evaluate_many(view[0:3], out=view[1:4])                          # out one row ahead
    assert ahead.tolist() == [0x1F, *want]
    behind = array.array(code, [0, 0x1F, 0xF8000000, 0x1F0])
    view = memoryview(behind)
    kernels.evaluate_many(view[1:4], out=view[0:3])                          # out one row behind
    assert behind.tolist() == [*want, 0x1F0]
    back = array.array(code, [0x1F0, 0xF8000000, 0x1F])
    kernels.evaluate_many(memoryview(back)[::-1], out=back, suit_tiebreak=False)   # reversed masks
    assert back.tolist() == [v & ~3 for v in want]
    # card codes, reversed, with out over the same bytes
    raw = bytearray(range(15)) + bytearray(5)
    codes = bytes(raw[:15][::-1])
    want_codes = [_core_py.evaluate_mask(sum(1 << c for c in codes[i:i + 5])) for i in range(0, 15, 5)]
    view = memoryview(raw)
    assert kernels.evaluate_many(view[:15][::-1], out=view[:12].cast("I")).tolist() == want_codes
    raw = bytearray(range(15)) + bytearray(5)
    view = memoryview(raw)
    assert kernels.evaluate_many(view[:15][::-1], out=view[8:20].cast("I")).tolist() == want_codes
    # a bad row is reported as it was before anything was written
    bad = array.array(code, [0x1F, 0x3, 0x1F0])
    with pytest.raises(pokerdraw32.PokerDraw32Error, match=r"^row 1: hand mask 0x3 has 2 cards, expected 5$"):
        kernels.evaluate_many(bad, out=bad)


def test_empty_batch(kernels: ModuleType) -> None:
    assert kernels.evaluate_many(b"").tolist() == []
    assert kernels.evaluate_many(array.array(_core_py._U32_CODE)).tolist() == []


def test_numpy_in_numpy_out(kernels: ModuleType) -> None:
    np = pytest.importorskip("numpy")
    rows = np.frombuffer(codes_bytes(), dtype=np.uint8).reshape(-1, 5)
    result = kernels.evaluate_many(rows)
    assert isinstance(result, np.ndarray) and result.dtype == np.uint32 and result.shape == (len(hands()),)
    assert result.tolist() == expected(True)
    assert kernels.evaluate_many(rows[::-1, ::-1]).tolist() == expected(True)[::-1]  # negative strides
    assert kernels.evaluate_many(np.asarray(masks(), dtype=np.uint32)).tolist() == expected(True)
    decks = np.zeros((4, 32), dtype=np.uint8)
    decks[:] = np.arange(32)
    assert kernels.evaluate_many(decks[:, 3:8]).tolist() == [kernels.evaluate_codes(range(3, 8))] * 4
    out = np.zeros(len(hands()), dtype=np.uint32)
    assert kernels.evaluate_many(masks(), out) is out and out.tolist() == expected(True)


def test_threads_give_the_same_results(kernels: ModuleType) -> None:
    flat = codes_bytes()
    results: list[Any] = [None] * 4

    def work(i: int) -> None:
        results[i] = kernels.evaluate_many(flat).tolist()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected(True)] * 4


# ctypes exports its buffers without strides (strides == NULL, C-contiguous) and with an
# explicit byte order in the format ('<B', '<I'); the compiled kernel read strides[0] and
# crashed. Each case runs in a child process, so a crash fails the test instead of pytest.
CTYPES_CASES = {
    "codes": "(ctypes.c_uint8 * 10)(31, 27, 23, 19, 15, 0, 1, 2, 4, 5)",
    "masks": "(ctypes.c_uint32 * 2)(0x88888000, 0x37)",
    "2-D codes": "((ctypes.c_uint8 * 5) * 2)((31, 27, 23, 19, 15), (0, 1, 2, 4, 5))",
    "PickleBuffer": "pickle.PickleBuffer((ctypes.c_uint8 * 10)(31, 27, 23, 19, 15, 0, 1, 2, 4, 5))",
    "ubyte": "(ctypes.c_ubyte * 10)(31, 27, 23, 19, 15, 0, 1, 2, 4, 5)",
}


@pytest.mark.parametrize("implementation", ["cython", "python"])
@pytest.mark.parametrize("case", sorted(CTYPES_CASES))
def test_ctypes_buffers_without_strides(request: pytest.FixtureRequest, implementation: str, case: str) -> None:
    if implementation == "cython":
        request.getfixturevalue("core")  # skips when the compiled kernels are not in use
    module = "pokerdraw32._core" if implementation == "cython" else "pokerdraw32._core_py"
    program = (
        "import ctypes, pickle, importlib\n"
        f"k = importlib.import_module({module!r})\n"
        f"hands = {CTYPES_CASES[case]}\n"
        "out = (ctypes.c_uint32 * 2)()\n"
        "print(list(k.evaluate_many(hands)), list(k.evaluate_many(hands, out)), list(out))\n"
        "try:\n"
        "    k.evaluate_many((ctypes.c_uint64 * 2)(1, 2))\n"
        "except TypeError as e:\n"
        "    print(e)\n"
    )
    env = dict(os.environ)
    env.pop("POKERDRAW32_NO_EXTENSIONS", None)
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-2000:]}"
    first, wrong_type = proc.stdout.splitlines()
    values = [_core_py.evaluate_mask(0x88888000), _core_py.evaluate_mask(0x37)]
    assert first == f"{values} {values} {values}"
    assert wrong_type == "hands must hold uint8 card codes or uint32 masks, not format '<Q' with itemsize 8"


def test_row_changed_by_another_thread(kernels: ModuleType) -> None:
    """A row made bad and good again by another thread while evaluate_many reads it: the
    error describes the row as it was read (it used to re-read it and raise AssertionError)."""
    rows = 50_000
    buffer = bytearray(bytes([0, 1, 2, 3, 4]) * rows)
    stop = threading.Event()

    def toggle() -> None:
        last = 5 * rows - 1
        while not stop.is_set():
            buffer[last] = 3   # row rows - 1: card code 3 twice
            buffer[last] = 4

    thread = threading.Thread(target=toggle)
    thread.start()
    good = kernels.evaluate_codes((0, 1, 2, 3, 4))
    outcomes = set()
    try:
        for _ in range(200):
            try:
                values = kernels.evaluate_many(buffer)
            except ValueError as exc:
                assert str(exc) == f"row {rows - 1}: card code 3 appears twice"
                outcomes.add("error")
            else:
                assert values[rows - 1] == good
                outcomes.add("values")
    finally:
        stop.set()
        thread.join()
    assert outcomes


# ---------------------------------------------------------------------------------------
# evaluate_many: errors, the same in both implementations


def u32(*values: int) -> array.array[int]:
    return array.array(_core_py._U32_CODE, values)


BAD_HANDS = [
    ([0, 1, 2, 3], TypeError, "hands must be a buffer of uint8 card codes or uint32 masks, not list"),
    (None, TypeError, "hands must be a buffer of uint8 card codes or uint32 masks, not NoneType"),
    (array.array("H", [1, 2, 3, 4, 5]), TypeError, "hands must hold uint8 card codes or uint32 masks, not format 'H' with itemsize 2"),
    (array.array("b", [1, 2, 3, 4, 5]), TypeError, "hands must hold uint8 card codes or uint32 masks, not format 'b' with itemsize 1"),
    (array.array("i", [31, 31, 31]), TypeError, "hands must hold uint8 card codes or uint32 masks, not format 'i' with itemsize 4"),
    (array.array("q", [31]), TypeError, "hands must hold uint8 card codes or uint32 masks, not format 'q' with itemsize 8"),
    (bytes(range(7)), ValueError, "hands holds 7 card codes, not a multiple of 5"),
    (memoryview(bytes(8)).cast("B", (2, 4)), ValueError, "hands must have shape (N, 5), got (2, 4)"),
    (memoryview(bytes(20)).cast("B", (2, 2, 5)), ValueError, "hands of card codes must be 1-D or 2-D, got shape (2, 2, 5)"),
    (memoryview(bytes(16)).cast("I", (2, 2)), ValueError, "hands of masks must be 1-D, got shape (2, 2)"),
    (bytes([0, 1, 2, 3, 4] * 17 + [0, 1, 2, 3, 40]), ValueError, "row 17: card code 40 is not 0..31"),
    (bytes([0, 1, 2, 3, 4, 255, 1, 2, 3, 40]), ValueError, "row 1: card code 255 is not 0..31"),
    (bytes([0, 1, 2, 3, 4, 9, 1, 9, 3, 1]), ValueError, "row 1: card code 9 appears twice"),
    (bytes([31] * 5), ValueError, "row 0: card code 31 appears twice"),
    (u32(0x1F, 0x1F, 0xF), ValueError, "row 2: hand mask 0xf has 4 cards, expected 5"),
    (u32(0), ValueError, "row 0: hand mask 0x0 has 0 cards, expected 5"),
    (u32(0x1F, 1 << 31), ValueError, "row 1: hand mask 0x80000000 has 1 card, expected 5"),
    (u32(0x3F), ValueError, "row 0: hand mask 0x3f has 6 cards, expected 5"),
    (u32(FULL), ValueError, "row 0: hand mask 0xffffffff has 32 cards, expected 5"),
]


@pytest.mark.parametrize(("hands_buffer", "error", "message"), BAD_HANDS)
def test_bad_hands(kernels: ModuleType, hands_buffer: Any, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        kernels.evaluate_many(hands_buffer)
    assert str(info.value) == message


BAD_OUT = [
    ([0, 0], TypeError, "out must be a writable buffer of uint32, not list"),
    (bytes(8), TypeError, "out must be a writable buffer, not a read-only one"),
    (bytearray(8), TypeError, "out must hold uint32, not format 'B' with itemsize 1"),
    (array.array("i", [0, 0]), TypeError, "out must hold uint32, not format 'i' with itemsize 4"),
    (u32(0), ValueError, "out must be 1-D with 2 items, got shape (1,)"),
    (u32(0, 0, 0), ValueError, "out must be 1-D with 2 items, got shape (3,)"),
    (memoryview(bytearray(16)).cast("I", (2, 2)), ValueError, "out must be 1-D with 2 items, got shape (2, 2)"),
    (memoryview(u32(0, 0, 0, 0))[::2], ValueError, "out must be C-contiguous"),
]


@pytest.mark.parametrize(("out", "error", "message"), BAD_OUT)
def test_bad_out(kernels: ModuleType, out: Any, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        kernels.evaluate_many(bytes(range(10)), out)
    assert str(info.value) == message


def test_errors_agree(core: ModuleType, pure: ModuleType, outcome: Outcome) -> None:
    cases = [case[0] for case in BAD_HANDS] + [bytes(range(10)), u32(0x1F, 0x3E0)]
    for case in cases:
        assert outcome(core.evaluate_many, case) == outcome(pure.evaluate_many, case)
    for out, _, _ in BAD_OUT:
        assert outcome(core.evaluate_many, bytes(range(10)), out) == outcome(pure.evaluate_many, bytes(range(10)), out)


def test_numpy_errors(kernels: ModuleType) -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match=r"^hands must hold uint8 card codes or uint32 masks, not format 'l' with itemsize 8$"):
        kernels.evaluate_many(np.zeros(5, dtype=np.int64))
    with pytest.raises(ValueError, match=r"^hands must have shape \(N, 5\), got \(3, 4\)$"):
        kernels.evaluate_many(np.zeros((3, 4), dtype=np.uint8))
    rows = np.tile(np.arange(5, dtype=np.uint8), (20, 1))
    rows[17, 2] = 40
    with pytest.raises(ValueError, match=r"^row 17: card code 40 is not 0\.\.31$"):
        kernels.evaluate_many(rows)


# ---------------------------------------------------------------------------------------
# per-call paths and the pure table


def test_evaluate_codes_fast_path_checks(kernels: ModuleType, outcome: Outcome) -> None:
    for codes in [(0, 1, 2, 3, 4), [0, 1, 2, 3, 4], (0, 1, 2, 3, 4.0), (True, 1, 2, 3, 4), (0, 1, 2, 3, 32),
                  (0, 1, 2, 3, -1), (0, 1, 2, 3, 3), [0, 1, 2, 3, 1 << 70], (0, 1, 2, 3), range(5)]:
        result = outcome(kernels.evaluate_codes, codes)
        assert result == outcome(_core_py.evaluate_codes, codes), codes
        if result[0] == "ok":
            assert result[1] == kernels.evaluate_mask(sum(1 << c for c in codes))


def test_all_codes_tuples(kernels: ModuleType) -> None:
    evaluate = kernels.evaluate_codes
    assert [evaluate(hand) for hand in hands()] == expected(True)
    assert [evaluate(list(hand[::-1]), False) for hand in hands()] == expected(False)


def test_shipped_table_is_the_sort_and_count_evaluator() -> None:
    import pkgutil

    raw = pkgutil.get_data("pokerdraw32", _core_py._HAND_VALUES_FILE)
    assert raw is not None
    assert zlib.decompress(raw) == _core_py._hand_values_blob()


# ---------------------------------------------------------------------------------------
# deal_many


@pytest.mark.parametrize("n", [0, 1, 7, 300])
def test_deal_many_is_repeated_shuffled(kernels: ModuleType, n: int) -> None:
    rng, twin = kernels.Rng(2024 + n), kernels.Rng(2024 + n)
    decks = kernels.deal_many(rng, n)
    assert isinstance(decks, bytearray) and len(decks) == 32 * n
    assert list(decks) == [code for _ in range(n) for code in twin.shuffled(FULL)]
    assert rng.getstate() == twin.getstate()


def test_deal_many_same_in_both(core: ModuleType, pure: ModuleType) -> None:
    for seed in (0, 1, 2**64 - 1):
        a, b = core.Rng(seed), pure.Rng(seed)
        assert core.deal_many(a, 200) == pure.deal_many(b, 200)
        assert a.getstate() == b.getstate()


def test_deal_many_out(kernels: ModuleType) -> None:
    out = bytearray(64)
    assert kernels.deal_many(kernels.Rng(3), 2, out) is out
    assert out == kernels.deal_many(kernels.Rng(3), 2)


BAD_DEALS: list[tuple[Any, Any, Any, type, str]] = [
    ("rng", 1, None, TypeError, "rng must be an Rng, not str"),
    (None, 1.0, None, TypeError, "n must be an int, not float"),
    (None, True, None, TypeError, "n must be an int, not bool"),
    (None, -1, None, ValueError, "n must be in 0 <= n <= 2**40, got -1"),
    (None, 2**40 + 1, None, ValueError, "n must be in 0 <= n <= 2**40, got 1099511627777"),
    (None, 1, [0] * 32, TypeError, "out must be a writable buffer of bytes, not list"),
    (None, 1, bytes(32), TypeError, "out must be a writable buffer, not a read-only one"),
    (None, 1, array.array("H", [0] * 16), TypeError, "out must hold bytes, not items of size 2"),
    (None, 1, bytearray(31), ValueError, "out must have 32 bytes (32 per deck), got 31"),
    (None, 1, memoryview(bytearray(64))[::2], ValueError, "out must be C-contiguous"),
]


@pytest.mark.parametrize(("rng", "n", "out", "error", "message"), BAD_DEALS)
def test_deal_many_errors(kernels: ModuleType, rng: Any, n: Any, out: Any, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        kernels.deal_many(kernels.Rng(1) if rng is None else rng, n, out)
    assert str(info.value) == message


def test_deal_many_wants_its_own_rng(core: ModuleType, pure: ModuleType) -> None:
    with pytest.raises(TypeError, match=r"^rng must be an Rng, not Rng$"):
        core.deal_many(pure.Rng(1), 1)
    with pytest.raises(TypeError, match=r"^rng must be an Rng, not Rng$"):
        pure.deal_many(core.Rng(1), 1)


# ---------------------------------------------------------------------------------------
# the façade: pokerdraw32.evaluate_many, pokerdraw32.deal_many


def test_facade_evaluate_many_matches_evaluate() -> None:
    rows = pokerdraw32.deal_many(50, seed=5, hands=4)
    values = pokerdraw32.evaluate_many(rows)
    for i, value in enumerate(values):
        hand = pokerdraw32.mask_to_cards(sum(1 << c for c in rows[5 * i : 5 * i + 5]))
        assert value == pokerdraw32.evaluate(hand).value
    assert pokerdraw32.evaluate_many(rows, suit_tiebreak=False).tolist() == [v & ~3 for v in values]


@pytest.mark.parametrize("k", [1, 2, 3, 5, 6])
def test_facade_deals_round_robin(k: int) -> None:
    decks = pokerdraw32.deal_many(20, seed=9)
    dealt = pokerdraw32.deal_many(20, seed=9, hands=k)
    assert len(dealt) == 20 * k * 5
    for d in range(20):
        deck = decks[32 * d : 32 * d + 32]
        for seat in range(k):
            row = d * k + seat
            assert list(dealt[5 * row : 5 * row + 5]) == [deck[seat + i * k] for i in range(5)]


def test_facade_deal_many_rng_and_errors() -> None:
    rng = pokerdraw32.Rng(4)
    assert pokerdraw32.deal_many(3, rng=rng) == pokerdraw32.deal_many(3, seed=4)
    assert rng.getstate() != pokerdraw32.Rng(4).getstate()
    with pytest.raises(ValueError, match="not both"):
        pokerdraw32.deal_many(1, 4, rng=rng)
    with pytest.raises(ValueError, match="1 to 6"):
        pokerdraw32.deal_many(1, 4, hands=7)
    with pytest.raises(TypeError, match="hands must be an int"):
        pokerdraw32.deal_many(1, 4, hands=2.0)  # type: ignore[arg-type]


_ROWS = st.lists(st.one_of(st.permutations(range(32)).map(lambda p: p[:5]),
                           st.lists(st.integers(0, 40), min_size=5, max_size=5)), max_size=300)


@settings(max_examples=150, deadline=None)
@given(rows=_ROWS, layout=st.sampled_from(["bytes", "bytearray", "masks"]),
       out_kind=st.sampled_from(["none", "array", "short", "signed", "in place"]), tiebreak=st.booleans())
def test_small_batches_take_the_short_path_with_the_same_results(
        core: ModuleType, pure: ModuleType, outcome: Outcome, rows: list[list[int]], layout: str, out_kind: str,
        tiebreak: bool) -> None:
    """A batch of at most 256 rows in bytes / bytearray / array('I') skips the buffer protocol in
    the compiled kernel; results, errors and what ``out`` holds equal the general path (the same
    data through a memoryview) and the pure twin, on both sides of the 256-row limit."""
    if layout == "masks":
        masks = [functools.reduce(operator.or_, (1 << c for c in row if c < 32), 0) for row in rows]
        def make() -> Any:
            return array.array("I", masks)
    else:
        data = bytes(c for row in rows for c in row)
        def make() -> Any:
            return bytes(data) if layout == "bytes" else bytearray(data)

    def run(evaluate_many: Any, general: bool) -> tuple[Any, Any]:
        hands = make()
        if out_kind == "in place" and layout != "masks":
            return ("skip", None)
        out = {"none": None, "array": array.array("I", [7]) * len(rows), "short": array.array("I", [7]) * (len(rows) + 1),
               "signed": array.array("i", [7]) * len(rows), "in place": hands}[out_kind]
        got = outcome(evaluate_many, memoryview(hands) if general else hands, out, tiebreak)
        if got[0] == "ok":
            return ("ok", list(got[1]))
        return got

    fast = run(core.evaluate_many, False)
    assert fast == run(core.evaluate_many, True) == run(pure.evaluate_many, False)


@pytest.mark.parametrize("layout", ["bytearray", "masks"])
def test_small_batch_survives_a_finalizer_that_resizes_the_hands(kernels: ModuleType, layout: str) -> None:
    """Making the result array can start the garbage collector, whose finalizers run Python code:
    one that resizes the batch (moving its memory) must not make the small-batch path read freed
    memory. The result is that of the rows before or after the resize, never garbage."""
    import gc

    row = bytes([0, 1, 2, 3, 4])
    mask = 0b11111
    hands: Any = bytearray(row * 200) if layout == "bytearray" else array.array("I", [mask] * 200)
    expected = kernels.evaluate_mask(mask)
    junk: list[bytes] = []

    class Resizer:
        cycle: object

        def __del__(self) -> None:
            if layout == "bytearray":
                hands.extend(bytes(5_000_000))
                del hands[1000:]
            else:
                hands.extend(array.array("I", [mask]) * 1_000_000)
                del hands[200:]
            junk.extend(bytes([255]) * 1000 for _ in range(300))   # reuse of the freed block, as a probe

    kernels.evaluate_many(hands)    # tables built first
    old = gc.get_threshold()
    try:
        gc.collect()
        resizer = Resizer()
        resizer.cycle = resizer
        del resizer
        gc.set_threshold(max(1, gc.get_count()[0]))   # the next allocation of a tracked object collects
        values = kernels.evaluate_many(hands)
    finally:
        gc.set_threshold(*old)
        gc.collect()
    assert list(values) == [expected] * 200


@pytest.mark.parametrize("tiebreak", [None, 1, 0, "no", 1.0])
def test_facade_evaluate_many_wants_a_bool_tiebreak(tiebreak: object) -> None:
    """pokerdraw32.evaluate_many checks suit_tiebreak as evaluate() does (R2.4 is on or off)."""
    with pytest.raises(pokerdraw32.PokerDraw32TypeError, match="suit_tiebreak must be True or False"):
        pokerdraw32.evaluate_many(bytes([0, 1, 2, 4, 5]), suit_tiebreak=tiebreak)  # type: ignore[arg-type]
