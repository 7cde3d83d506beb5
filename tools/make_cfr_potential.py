"""Write src/pokerdraw32/cfr/_potential.zlib: each 5-card hand's draw potential (issue 26).

For each of the C(32, 5) = 201,376 hands, in colex order of its card mask (see
:func:`pokerdraw32.cfr.abstraction.hand_index`), the expected strength percentile of the final
hand after the ``"rule"`` draw (:func:`pokerdraw32._kernels.rule_discard`, standing pat when it
discards nothing), exact over every replacement set from the 27 unseen cards
(:func:`pokerdraw32._kernels.draw_summary`), as an unsigned 16-bit integer
``round(65535 * score / (total * 402752))`` (half up), little-endian, zlib-compressed.

Run with the compiled kernels (about 4 s; the pure ones take an hour):
    python tools/make_cfr_potential.py
tests/test_cfr_abstraction.py recomputes a sample of entries in both builds.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from itertools import combinations
from pathlib import Path

from pokerdraw32._kernels import draw_summary, rule_discard

OUT = Path(__file__).resolve().parent.parent / "src" / "pokerdraw32" / "cfr" / "_potential.zlib"


def potential(mask: int) -> int:
    """The 16-bit potential of one 5-card mask (as above)."""
    total, _categories, score = draw_summary(mask, rule_discard(mask), 0)
    den = total * 402752
    return (2 * 65535 * score + den) // (2 * den)


def main() -> None:
    table = array("H", [0]) * 201376
    for cards in combinations(range(32), 5):         # colex index: sum of C(card_i, i + 1)
        index = 0
        mask = 0
        for i, c in enumerate(cards):
            index += _comb(c, i + 1)
            mask |= 1 << c
        table[index] = potential(mask)
    if sys.byteorder != "little":
        table.byteswap()
    OUT.write_bytes(zlib.compress(table.tobytes(), 9))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


def _comb(n: int, k: int) -> int:
    from math import comb
    return comb(n, k)


if __name__ == "__main__":
    main()
