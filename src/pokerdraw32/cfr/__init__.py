"""A compiled Monte Carlo CFR solver for heads-up 32-Card Draw, and a bot that plays its strategy (issue 26).

An interface layer above the engine (it imports the engine; the engine never imports it).
``DESIGN.md`` beside this file records the decisions, the measurements behind the shipped
blueprint and what comes next.  The blueprint plays as the bot name ``"cfr"`` everywhere a bot
name is taken (:func:`pokerdraw32.bots.make_bot`).

>>> from pokerdraw32.cfr import Abstraction, Trainer, CfrBot
>>> a = Abstraction(stack_bb=20, bet_fractions=(1.0,), raise_cap=1, pre_strength=2, pre_potential=2,
...                 post_buckets=3)
>>> trainer = Trainer(a, seed=1)
>>> report = trainer.train(20)
>>> trainer.iterations, trainer.info_sets > 100
(20, True)
>>> bot = CfrBot(trainer.strategy(), seed=2)      # simulate(bots=[bot, "rule"], players=2, ...)

What is here:

* :class:`Abstraction` (:mod:`.abstraction`): the abstract game, saved as JSON: the classic
  preset's no-limit blinds (1/2 chips) and ``stack_bb`` big blinds each; raise sizes as pot
  fractions plus all-in, a cap on raises a round; card buckets before the draw by strength now x
  exact draw potential (precomputed for all 201,376 hands), after the draw by final strength;
  the draw as "draw k" (k = 0..4) with the cards chosen by a documented rule that is the
  ``"rule"`` draw at its own count; the Parole split (R8) as an abstract action where legal.
* :class:`Trainer` (:mod:`.solver`): external-sampling MCCFR (Lanctot et al. 2009) with linear
  weighting (Linear CFR: iteration t weighs t, regrets and average strategy alike), compiled
  (``pokerdraw32.cfr._mccfr_c``, its walk without the GIL) or its pure twin (identical tables, bit for
  bit); checkpoints that resume exactly; :class:`Strategy` files; ``python -m pokerdraw32.cfr train``;
  ``threads=K``: K threads on one shared table (:mod:`._shared`); :func:`.cluster.train_rounds`:
  rounds of tasks on a Dask cluster, their changes added (``train --scheduler``).
* :class:`CfrBot` (:mod:`.bot`): plays a strategy in real heads-up hands of any stack depth,
  translating real bets with the pseudo-harmonic mapping (Ganzfried & Sandholm 2013); refuses a
  hand of more than 2 players.
* :mod:`.exploitability`: ``exploitability(strategy)``, the exact best responses and exploitability
  (mbb/hand) in the abstraction's *bucket game* (cards replaced by buckets dealt and moved by
  exactly counted probabilities); ``Trainer.train(..., exploitability_every=K)``.

The shipped blueprints, heads-up no-limit (20 to 200 big blinds) and fixed-limit:
:mod:`.blueprint` (``blueprint_bot(seed)``, a :class:`~.blueprint.BlueprintBot` playing each hand
by the blueprint of its structure nearest its depth), stored in the compact format of
:mod:`.compact` (``python -m pokerdraw32.cfr export``).

Not built yet (see DESIGN.md): 3 players.
"""

from __future__ import annotations

from ._select import IMPLEMENTATION
from .abstraction import Abstraction, pseudo_harmonic
from .bot import CfrBot
from .solver import Progress, Strategy, Trainer

__all__ = ["IMPLEMENTATION", "Abstraction", "CfrBot", "Progress", "Strategy", "Trainer", "pseudo_harmonic"]
