"""The ceiling: a plain C loop (bench/c_hand/hand.c) doing pokerdraw32's work for the check/call bot.

    python bench/c_loop.py            # check, then hands per CPU second of the C loop, both scenarios
    python bench/c_loop.py --check    # only the equivalence check; exits 1 on a mismatch

The C program plays the hands bench/simulate.py plays (``Hand(Rules(), [200] * players,
n % players, rng=rng)`` with one ``Rng(seed)``; the bot discards the first ``discard`` of
``legal.hole_cards``, else checks, else calls) and keeps a compact event log.  The check compiles
it with the system C compiler into a temporary directory and asserts, for several seeds and table
sizes, that it gives what pokerdraw32 gives (the implementation this process imported: compiled,
or pure with ``POKERDRAW32_NO_EXTENSIONS=1``):

* a checksum of every hand's final stacks (FNV-1a over the 64-bit stacks, hand after hand);
* a checksum of every hand's event log (kind, seat, amount, cards of each event);
* the generator state at the end (``Rng.getstate()``);
* the evaluator: the C program's value of each of the 201,376 hands equals ``evaluate_mask``.

Besides the bench loop (fresh stacks of 200 each hand) the check plays runs where small stacks
carry over between hands (a broke seat buys in again), to reach short blinds (R4.5), all-in calls,
side pots, uncalled chips (R9.2) and rounds with no actions (R5.4) as well.

:func:`build`, :func:`check` and :func:`bench` are used by bench/simulate.py.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from itertools import combinations
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "c_hand" / "hand.c"
SCENARIOS = {"3p-pat": (3, 0), "5p-draw4": (5, 4)}
# (players, discard, seed, stack, carry): the two bench scenarios, other table sizes, draws and seeds,
# then stacks carried over between hands -- small ones, so that blinds are short (R4.5), calls all-in,
# pots split into side pots and uncalled chips go back (R9.2)
CASES = [(3, 0, 1, 200, False), (5, 4, 1, 200, False), (2, 2, 7, 200, False), (4, 3, 11, 200, False),
         (5, 1, 12, 200, False), (3, 4, 5, 200, True), (5, 4, 2, 9, True), (4, 2, 3, 5, True),
         (3, 0, 4, 3, True), (2, 1, 9, 3, True)]

_MASK64 = (1 << 64) - 1
_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3


def compiler() -> str | None:
    """The system C compiler (``cc``, else ``gcc``), or None."""
    return shutil.which("cc") or shutil.which("gcc")


def build(directory: str | Path) -> Path:
    """Compile bench/c_hand/hand.c with ``-O2`` into ``directory``; return the executable."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler (cc or gcc) on PATH")
    exe = Path(directory) / "c_hand"
    subprocess.run([cc, "-O2", "-std=c99", str(SOURCE), "-o", str(exe)], check=True)
    return exe


def _pinned(cmd: list[str]) -> list[str]:
    if sys.platform.startswith("linux") and shutil.which("taskset"):
        return ["taskset", "-c", "1", *cmd]
    return cmd


def engine_run(players: int, discard: int, seed: int, hands: int, stack: int = 200,
               carry: bool = False) -> tuple[int, ...]:
    """pokerdraw32's hands, as the bench loop plays them: (stacks checksum, events checksum, *rng state)."""
    from pokerdraw32 import Hand, Rng, Rules
    from pokerdraw32.actions import ActionKind, EventKind

    kind_index = {kind: i for i, kind in enumerate(EventKind)}   # the C program's EV_* order
    rules = Rules()
    rng = Rng(seed)
    total = events = _FNV_OFFSET
    stacks = [stack] * players
    for n in range(hands):
        h = Hand(rules, stacks if carry else [stack] * players, n % players, rng=rng)
        while h.actor is not None:
            legal = h.legal_actions()
            if ActionKind.DISCARD in legal.kinds:
                h.discard(legal.hole_cards[:discard])
            elif ActionKind.CHECK in legal.kinds:
                h.check()
            else:
                h.call()
        for s in h.stacks:
            total = ((total ^ s) * _FNV_PRIME) & _MASK64
        stacks = [s if s > 0 else stack for s in h.stacks]   # carry: a broke seat buys in again
        for ev in h.events:
            for v in (kind_index[ev.kind], -1 if ev.seat is None else ev.seat,
                      -1 if ev.amount is None else ev.amount, *map(int, ev.cards)):
                events = ((events ^ (v & _MASK64)) * _FNV_PRIME) & _MASK64
    return (total, events, *rng.getstate())


def c_run(exe: Path, players: int, discard: int, seed: int, hands: int, stack: int = 200,
          carry: bool = False) -> tuple[int, ...]:
    """The C loop's hands: the same tuple as :func:`engine_run`."""
    out = subprocess.run([str(exe), "check", str(players), str(discard), str(seed), str(hands), str(stack),
                          str(int(carry))],
                         capture_output=True, text=True, check=True).stdout
    return tuple(int(w) for w in out.split())


def check_table(exe: Path) -> list[str]:
    """The C program's evaluator against ``evaluate_mask`` over all 201,376 hands."""
    from pokerdraw32._kernels import evaluate_mask

    raw = subprocess.run([str(exe), "table"], capture_output=True, check=True).stdout
    ours = [evaluate_mask(sum(1 << c for c in hand)) for hand in combinations(range(32), 5)]
    theirs = [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]
    if theirs == ours:
        return []
    if len(theirs) != len(ours):
        return [f"evaluator table: {len(theirs)} values from C, {len(ours)} hands"]
    bad = sum(a != b for a, b in zip(ours, theirs, strict=True))
    return [f"evaluator table: {bad} of {len(ours)} values differ"]


def check(exe: Path, hands: int = 2000, table: bool = True) -> list[str]:
    """Every difference between pokerdraw32 and the C loop over :data:`CASES` (empty: they agree)."""
    problems = check_table(exe) if table else []
    for players, discard, seed, stack, carry in CASES:
        ours = engine_run(players, discard, seed, hands, stack, carry)
        theirs = c_run(exe, players, discard, seed, hands, stack, carry)
        if ours != theirs:
            what = ", ".join(name for name, a, b in zip(("stacks", "events", "rng state"),
                                                         (ours[0], ours[1], ours[2:]),
                                                         (theirs[0], theirs[1], theirs[2:]), strict=True) if a != b)
            problems.append(f"{players} players, discard {discard}, seed {seed}, stacks {stack}"
                            f"{' carried over' if carry else ''}, "
                            f"{hands} hands: {what} differ")
    return problems


def bench(exe: Path, players: int, discard: int, seconds: float, repeat: int, seed: int = 1) -> dict[str, object]:
    """Hands per CPU second of the C loop (``repeat`` runs of at least ``seconds``, pinned to CPU 1)."""
    out = subprocess.run(_pinned([str(exe), "bench", str(players), str(discard), str(seed), str(seconds),
                                  str(repeat)]), capture_output=True, text=True, check=True).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only check that the C loop matches pokerdraw32")
    ap.add_argument("--hands", type=int, default=2000, help="hands per checked case (default 2000)")
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU time per repeat of the C loop (default 1)")
    ap.add_argument("--repeat", type=int, default=5, help="repeats (default 5)")
    ap.add_argument("--exe", type=Path, help="an already compiled bench/c_hand/hand.c (default: compile it)")
    args = ap.parse_args()
    from pokerdraw32 import IMPLEMENTATION

    with tempfile.TemporaryDirectory() as tmp:
        exe = args.exe or build(tmp)
        problems = check(exe, args.hands)
        for p in problems:
            print(f"MISMATCH ({IMPLEMENTATION}): {p}")
        if problems:
            return 1
        print(f"C loop == pokerdraw32 ({IMPLEMENTATION}): {len(CASES)} cases x {args.hands} hands, stacks, event "
              "logs, generator state and the 201,376 hand values")
        if args.check:
            return 0
        for scenario, (players, discard) in SCENARIOS.items():
            r = bench(exe, players, discard, max(args.seconds, 1.0), args.repeat)
            rates = sorted(r["rates"])  # type: ignore[arg-type]
            print(f"{scenario}: C loop {rates[len(rates) // 2]:,.0f} hands per CPU second (median of {len(rates)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
