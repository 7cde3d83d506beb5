"""32-Card Draw as an OpenSpiel game (issue 12; the ``pokerdraw32[openspiel]`` extra: open_spiel, numpy).

Importing this package registers the Python game ``python_pokerdraw32`` with
``pyspiel.register_game``; load it with ``pyspiel.load_game("python_pokerdraw32")`` or with
parameters, ``pyspiel.load_game("python_pokerdraw32(players=3,structure=fixed-limit)")``.  One
OpenSpiel game is one hand; see :mod:`pokerdraw32.openspiel._game` for the parameters, the chance
nodes, the action ids and the tensors.  The engine never imports this package; ``pyspiel`` is
imported here only.  OpenSpiel's tabular algorithms, which walk every state, are refused at once
with :class:`~pokerdraw32.errors.GameTooLargeError` (see :data:`ENUMERATING_MODULES`); sampling
algorithms (MCCFR, IS-MCTS) run.

>>> import pyspiel, pokerdraw32.openspiel
>>> game = pyspiel.load_game("python_pokerdraw32(players=2,structure=fixed-limit,stack=20)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # the first hole card: any of 32
(True, 32)
"""

from __future__ import annotations

try:
    import numpy as _numpy  # noqa: F401
    import pyspiel as _pyspiel  # noqa: F401
except ImportError as _exc:   # pragma: no cover - depends on the installation
    raise ImportError(f"pokerdraw32.openspiel needs the [openspiel] extra (open_spiel, numpy): "
                      f"pip install 'pokerdraw32[openspiel]' ({_exc})") from _exc

from ..errors import GameTooLargeError
from ._game import ENUMERATING_MODULES, GAME_TYPE, SHORT_NAME, DrawGame, DrawObserver, DrawState

__all__ = ["ENUMERATING_MODULES", "GAME_TYPE", "SHORT_NAME", "DrawGame", "DrawObserver", "DrawState",
           "GameTooLargeError"]
