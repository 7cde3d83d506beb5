"""A user's bot for pokerdraw32 whose strategy no estimator knows: tight and aggressive, deterministic.

It raises the pot with two pair or better, calls with a pair, otherwise checks or folds; in the
second round it offers Parole with nothing (R8.1); it draws as :func:`pokerdraw32.bots.choose_discards`.
A plain function ``view -> Action``, so it sits at any table (``simulate(bots=["rule", tight])``, or
from the command line with this folder on the path)::

    PYTHONPATH=examples pokerdraw32 simulate --players 2 --bots rule,tight_bot:tight --hands 20000 \\
        --estimator aivat

``bench/aivat.py`` measures the AIVAT estimator against it.
"""

from __future__ import annotations

from pokerdraw32 import Action, ActionKind, evaluate
from pokerdraw32.actions import Phase
from pokerdraw32.bots import SeatView, choose_discards


def tight(view: SeatView) -> Action:
    """The decision for ``view.seat``, which is to act."""
    legal = view.legal
    assert legal is not None, "tight() decides for the seat to act"
    if legal.phase is Phase.DRAW:
        return Action.discard(choose_discards(legal.hole_cards))
    category = evaluate(legal.hole_cards).category.value
    kinds = legal.kinds
    if category >= 2 and (ActionKind.RAISE in kinds or ActionKind.BET in kinds):
        assert legal.min_to is not None and legal.max_to is not None
        kind = ActionKind.RAISE if ActionKind.RAISE in kinds else ActionKind.BET
        return Action(kind, max(legal.min_to, min(legal.max_to, view.pot + 2 * legal.call_amount)))
    if ActionKind.CHECK in kinds:
        return Action(ActionKind.CHECK)
    if category >= 1 and ActionKind.CALL in kinds:
        return Action(ActionKind.CALL)
    if ActionKind.SPLIT in kinds:
        return Action(ActionKind.SPLIT)
    if ActionKind.DECLINE in kinds:
        return Action(ActionKind.DECLINE)
    return Action(ActionKind.FOLD)
