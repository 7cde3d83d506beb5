"""Pure-Python twin of the compiled kernels in ``pokerdraw32._core``.

This package and ``src/_core.pyx`` have the same public names, the same signatures, the same
results and the same exceptions (type and message). Tests check both against each other and
against golden values. Code outside the package should not import either module directly:
:mod:`pokerdraw32._kernels` chooses one of them.

Everything at this boundary is an ``int``:

* a card is a *code* ``4 * rank_index + suit_index``, with rank indices 0..7 for
  7 8 9 T J Q K A and suit indices 0..3 for s c d h (R1.1, R1.2);
* a set of cards is a 32-bit mask with bit ``code`` set;
* a hand's strength is one packed int (see :func:`evaluate_mask`);
* a set of seats is a bitmask with bit ``seat`` set.

The kernels live in one module each, as the compiled module includes one ``.pxi`` each; this
package re-exports them (the one place the rest of the package imports the pure kernels from),
and their ``__module__`` is this package's name, as the compiled ones' is ``pokerdraw32._core``:

* ``checks``: the shared constants and argument checks (``_core.pyx``'s own);
* ``evaluate``: :func:`evaluate_mask`, :func:`evaluate_codes` and
  :func:`evaluate_text` rank a 5-card hand (R2; ``_core_evaluate.pxi``);
* ``rng``: :class:`Rng`, the xoshiro256** generator behind shuffles (R11;
  ``_core_rng.pxi``);
* ``pots``: :func:`split_pots` builds and awards the main and side pots (R8.3,
  R9.1, R9.2, R9.4; ``_core_pots.pxi``);
* ``draws``: exact draw odds, :func:`draw_outcomes`, :func:`draw_summary`,
  :func:`strength_score` (R6.1, R2; ``_core_draws.pxi``);
* ``batch``: :func:`evaluate_many` and :func:`deal_many` (R2, R11; ``_core_batch.pxi``);
* ``equity``: Monte Carlo equity against opponents who draw by a policy
  (:func:`equity_trials`, :func:`rule_discard`; R6.1, R6.2, R2, R9.4, R11; ``_core_equity.pxi``).
"""

from __future__ import annotations

from .batch import deal_many, evaluate_many
from .draws import draw_outcomes, draw_summary, strength_score
from .equity import equity_trials, rule_discard

# for tools/make_hand_values.py and the tests: the table's file and its one statement of R2 (_evaluate)
from .evaluate import _HAND_VALUES_FILE as _HAND_VALUES_FILE
from .evaluate import _U32_CODE as _U32_CODE
from .evaluate import _evaluate as _evaluate
from .evaluate import _hand_values_blob as _hand_values_blob
from .evaluate import evaluate_codes, evaluate_mask, evaluate_text
from .pots import split_pots
from .rng import Rng

__all__ = ["Rng", "evaluate_codes", "evaluate_mask", "evaluate_text", "split_pots"]
__all__ += ["draw_outcomes", "draw_summary", "strength_score"]  # kernel 4: exact draw odds (R6.1, R2)
__all__ += ["deal_many", "evaluate_many"]  # kernel 5: batches (evaluate_many R2, deal_many R11)
__all__ += ["equity_trials", "rule_discard"]  # kernel 6: Monte Carlo equity (R6.1, R6.2, R2, R9.4, R11)

# The public names live here, as the compiled ones live in pokerdraw32._core: pickles name
# pokerdraw32._core_py.Rng, and doctest runs their examples (Rng's methods' too) in this module.
for _name in __all__:
    globals()[_name].__module__ = __name__
for _value in vars(Rng).values():
    if hasattr(_value, "__code__"):
        _value.__module__ = __name__
del _name, _value
