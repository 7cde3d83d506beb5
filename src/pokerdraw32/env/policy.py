"""A trained policy as a bot: :class:`PolicyBot` turns each :class:`~pokerdraw32.bots.SeatView` into
the observation and legal-action mask the policy was trained on (:class:`~pokerdraw32.env.Encoding`,
the arrays of :class:`~pokerdraw32.env.DrawEnv`), asks the policy for an action index and plays the
action, so a policy sits anywhere a bot sits: :func:`pokerdraw32.simulate.simulate` (threads,
processes, Dask), ``pokerdraw32 simulate --bots module:attr``, a :class:`~pokerdraw32.env.DrawEnv`
opponent (self-play), a :class:`~pokerdraw32.table.Table` driven by hand.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..bots import SeatView, _action
from ..errors import IllegalActionError, PokerDraw32TypeError, PokerDraw32ValueError, shown
from ..hand import Hand
from .encoding import DEFAULT_BUCKETS, Encoding, action_index

PolicyFunction = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]
"""A policy function: ``policy(obs, mask) -> action index`` (see :class:`PolicyBot`)."""


class PolicyBot:
    """A bot that plays a policy over the research encoding (:mod:`pokerdraw32._handcore.encode`).

    At each decision, from the :class:`~pokerdraw32.bots.SeatView` of its seat (never the
    dealer's hand) it builds:

    * ``obs``: ``numpy.ndarray``, ``float32``, shape ``(OBS_SIZE,)`` = ``(171,)``: the observation
      of the seat, every value >= 0, chip amounts (pot, bets, stacks, call, raise bounds, ...)
      divided by ``scale``; exactly the array :class:`~pokerdraw32.env.DrawEnv` gives that seat
      at that decision when ``scale`` is its starting stack;
    * ``mask``: ``numpy.ndarray``, ``bool``, shape ``(35 + len(buckets),)``: True for each legal
      action index (at least one: a bot is asked only on its turn);

    then asks the policy for an action index, and returns the
    :class:`~pokerdraw32.actions.Action` of that index (a bet or raise bucket becomes its amount
    in chips, a discard index its cards).  Both arrays are new at each decision.

    :param policy: either a callable ``policy(obs, mask) -> index``, or an object with
        Stable-Baselines3's ``predict``: sb3-contrib's ``MaskablePPO`` (or any ``predict`` taking
        ``action_masks``) is called as ``predict(obs, action_masks=mask,
        deterministic=deterministic)``; a ``predict`` without ``action_masks`` (plain SB3: PPO,
        DQN, ...) as ``predict(obs, deterministic=deterministic)``, the mask unused, so an illegal
        index it picks is an error.  The index: a Python or numpy integer or a 0-d integer array
        (for ``predict``, the first item of the ``(action, state)`` it returns).  With ``predict``
        checked first, an SB3 policy object (callable too) is asked by its ``predict``.
    :param buckets: the bet/raise buckets (pot fractions) of the action space the policy was
        trained with (default :data:`~pokerdraw32.env.DEFAULT_BUCKETS`, as DrawEnv's).
    :param scale: chips a unit of the observation's amounts, a positive number; ``None``
        (default): the seat's starting stack in the hand, ``view.starting_stacks[view.seat]``
        (chips before the blinds).  DrawEnv divides by the starting stack, the same for every
        seat and hand, and so does ``simulate(mode="reset")`` (every hand from ``stack``): the
        default gives the policy exactly DrawEnv's observation there.  In a table session
        (``mode="session"``) stacks change from hand to hand; pass the training stack in chips
        (DrawEnv's ``stack`` big blinds times ``rules.bb``) to keep one unit throughout.
    :param deterministic: passed to ``predict`` (the most likely action, or a sample of the
        policy's distribution drawn by its own generator, torch's for SB3); a callable policy
        decides that itself.
    :param name: the bot's name in messages and in :func:`~pokerdraw32.simulate.simulate`'s
        labels; default: the policy's ``__name__`` (a function), else its class's name.
    :raises PokerDraw32TypeError: ``policy`` is neither callable nor has ``predict``;
        ``deterministic`` is not a bool, ``name`` not a str.
    :raises PokerDraw32ValueError: bad buckets (see :class:`~pokerdraw32.env.Encoding`), or a
        ``scale`` that is not a positive finite number.

    :meth:`decide` raises :class:`~pokerdraw32.errors.IllegalActionError` when the policy returns
    an index outside the mask (or not an integer), naming the bot, the index, the action and the
    rule (the hand is unchanged; :func:`~pokerdraw32.simulate.simulate` adds the seat and the
    bot's seat name); whatever the policy raises goes through as it is.

    The bot pickles and copies (``copy.deepcopy``, as simulate gives each chunk its own bot) when
    the policy does: a module-level function, an SB3 model.

    >>> import numpy as np
    >>> from pokerdraw32.simulate import simulate
    >>> def passive(obs, mask):          # check or call; stand pat in the draw
    ...     return 1 if mask[1] else int(np.flatnonzero(mask)[0])
    >>> r = simulate(players=2, hands=200, seed=1, bots=[PolicyBot(passive), "random"])
    >>> [b.label for b in r.per_bot], sum(b.chips for b in r.per_bot)
    (['passive', 'RandomBot'], 0)
    """

    def __init__(self, policy: PolicyFunction | Any, *, buckets: Sequence[float] = DEFAULT_BUCKETS,
                 scale: float | None = None, deterministic: bool = True, name: str | None = None) -> None:
        predict = getattr(policy, "predict", None)
        if not callable(predict) and not callable(policy):
            raise PokerDraw32TypeError(f"PolicyBot: the policy must be a callable (obs, mask) -> action index or have "
                                       f"Stable-Baselines3's predict(obs, ...), got {type(policy).__name__}")
        if scale is not None and (isinstance(scale, bool) or not isinstance(scale, (int, float, np.integer,
                                                                                     np.floating))
                                  or not math.isfinite(scale) or not scale > 0):
            raise PokerDraw32ValueError(f"PolicyBot: scale={scale!r} must be a positive number of chips (or None: "
                                        "the seat's starting stack)")
        if not isinstance(deterministic, (bool, np.bool_)):
            raise PokerDraw32TypeError(f"PolicyBot: deterministic must be True or False, got {deterministic!r}")
        if name is None:
            name = getattr(policy, "__name__", None) if not callable(predict) else None
            if not isinstance(name, str) or not name:
                name = type(policy).__name__
        elif not isinstance(name, str):
            raise PokerDraw32TypeError(f"PolicyBot: name must be a str, got {type(name).__name__}")
        self.policy = policy
        self.encoding = Encoding(buckets)
        self.scale: float | None = None if scale is None else float(scale)
        self.deterministic = bool(deterministic)
        self.name: str = name
        self.__name__ = name                       # simulate's label and seat name (as a function's)
        self._predict: Callable[..., Any] | None = predict if callable(predict) else None
        self._masks = self._predict is not None and _takes_masks(self._predict)

    # -- pickling and copies: the arguments (the policy with them), not the caches
    def __getstate__(self) -> dict[str, Any]:
        return {"policy": self.policy, "buckets": tuple(float(b) for b in self.encoding.buckets),
                "scale": self.scale, "deterministic": self.deterministic, "name": self.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["policy"], buckets=state["buckets"], scale=state["scale"],  # type: ignore[misc]
                      deterministic=state["deterministic"], name=state["name"])

    def __repr__(self) -> str:
        return (f"PolicyBot({self.name!r}, buckets={tuple(float(b) for b in self.encoding.buckets)!r}, "
                f"scale={self.scale!r}, deterministic={self.deterministic!r})")

    # -- playing
    def arrays(self, view: SeatView) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """``(obs, mask)`` the policy receives for ``view`` (see the class)."""
        enc = self.encoding
        obs = enc.observation(view, scale=self.scale)
        return obs, enc.action_mask(view).view(np.bool_)

    def choose(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> Any:
        """The policy's answer for ``(obs, mask)``, as it returned it (an index, unchecked)."""
        if self._predict is None:
            return self.policy(obs, mask)
        if self._masks:
            answer = self._predict(obs, action_masks=mask, deterministic=self.deterministic)
        else:
            answer = self._predict(obs, deterministic=self.deterministic)
        return answer[0] if isinstance(answer, tuple) else answer

    def decide(self, view: SeatView | Hand) -> Action:
        """The :class:`~pokerdraw32.actions.Action` the policy takes for ``view.seat`` (given a
        :class:`~pokerdraw32.hand.Hand`, for ``hand.actor`` from its view, as the built-in bots).

        :raises IllegalActionError: the seat is not to act, the policy's index is outside the mask
            (the message names the bot, the index, the action and the rule), or what the policy
            returned is not an index (the message names it and its type: an object with
            ``__index__`` is not taken as the index it stands for).
        :raises PokerDraw32TypeError: ``view`` is neither a SeatView nor a Hand.
        """
        if isinstance(view, Hand):
            view = SeatView.of(view)
        elif not isinstance(view, SeatView):
            raise PokerDraw32TypeError(f"PolicyBot {self.name!r} decides from a SeatView (or a Hand), got "
                                       f"{type(view).__name__}")
        if view.legal is None:
            raise IllegalActionError(f"policy bot {self.name!r}: seat {view.seat} is not to act", seat=view.seat)
        obs, mask = self.arrays(view)
        index = self.choose(obs, mask)
        enc = self.encoding
        decision = enc.decode(view, index)
        if decision < 0 and action_index(index) is None:
            # not an index (a float, a bool, an array, an object with __index__ that is no int): said here,
            # not by action_error, which reads an __index__ object as its number and names that index's action
            raise IllegalActionError(f"policy bot {self.name!r}: the policy's action index {shown(index)} is not an "
                                     f"integer of the action space 0..{enc.actions - 1} (of type "
                                     f"{type(index).__name__}; "
                                     "a policy returns an int, a numpy integer or a 0-d integer array)",
                                     seat=view.seat)
        if decision < 0:
            e = enc.action_error(view, index)
            text = str(e).rsplit(" [", 1)[0] if e.rule is not None else str(e)
            raise IllegalActionError(f"policy bot {self.name!r}: the policy's {text}", seat=e.seat, rule=e.rule)
        return _action(decision)

    __call__ = decide
    """A PolicyBot is also a callable ``view -> Action`` (DrawEnv's opponents, simulate's bots)."""

    def action_probabilities(self, view: SeatView | Hand) -> list[tuple[Action, float]] | None:
        """The distribution of :meth:`decide` at ``view`` when the policy exposes it, else None
        (what an estimator such as :mod:`pokerdraw32.aivat` reads; None: nothing is assumed):

        * ``deterministic=True`` with a ``predict`` (Stable-Baselines3): the action ``predict``
          picks, certain (it is asked once more; its answer does not change);
        * ``deterministic=False`` with an SB3 model, or its ``.policy``, that has
          ``get_distribution`` (PPO, A2C, sb3-contrib's MaskablePPO, the mask applied as
          ``predict`` applies it): the
          probability of each index from the network, on the indices the mask allows; None if the
          policy puts any probability on an index the mask forbids (a plain PPO, whose ``decide``
          would raise there);
        * a plain callable: its ``action_probabilities(obs, mask)`` if it has one (an array of
          probabilities by index), else None: a function's randomness is its own.

        :raises IllegalActionError: the seat is not to act (as :meth:`decide`).
        """
        if isinstance(view, Hand):
            view = SeatView.of(view)
        if view.legal is None:
            raise IllegalActionError(f"policy bot {self.name!r}: seat {view.seat} is not to act", seat=view.seat)
        obs, mask = self.arrays(view)
        probs: Any = None
        if self._predict is None:
            own = getattr(self.policy, "action_probabilities", None)
            if callable(own):
                probs = np.asarray(own(obs, mask), dtype=np.float64)
        elif self.deterministic:
            decision = self.encoding.decode(view, self.choose(obs, mask))
            return [(_action(decision), 1.0)] if decision >= 0 else None
        else:
            probs = _network_probabilities(self.policy, obs, mask if self._masks else None)
        if probs is None or probs.shape != mask.shape or not np.all(np.isfinite(probs)) or (probs < 0).any():
            return None
        if probs[~mask].sum() > 1e-9:
            return None
        total = probs[mask].sum()
        if not total > 0:
            return None
        out = []
        for index in np.flatnonzero(mask & (probs > 0)):
            decision = self.encoding.decode(view, int(index))
            if decision < 0:
                return None
            out.append((_action(decision), float(probs[index] / total)))
        return out


def _network_probabilities(model: Any, obs: npt.NDArray[np.float32],
                           mask: npt.NDArray[np.bool_] | None) -> npt.NDArray[np.float64] | None:
    """The action probabilities of an SB3 model's policy network for one observation (the mask
    applied when given, as sb3-contrib's maskable policies apply it), or None when the model has no
    categorical distribution to read.  ``model`` is a model (its ``.policy`` read) or its policy
    itself (``model.policy``, what a :class:`PolicyBot` is given so that it can be copied)."""
    policy = model if callable(getattr(model, "get_distribution", None)) else getattr(model, "policy", None)
    get = getattr(policy, "get_distribution", None)
    to_tensor = getattr(policy, "obs_to_tensor", None)
    if not callable(get) or not callable(to_tensor):
        return None
    import torch

    with torch.no_grad():
        tensor, _ = to_tensor(obs)
        dist = get(tensor, action_masks=mask) if mask is not None else get(tensor)
        inner = getattr(dist, "distribution", None)
        probs = getattr(inner, "probs", None)
        if probs is None:
            return None
        return np.asarray(probs.reshape(-1).cpu().numpy(), dtype=np.float64)


def _takes_masks(predict: Callable[..., Any]) -> bool:
    """``predict`` accepts ``action_masks=`` (sb3-contrib's maskable algorithms)."""
    try:
        params = inspect.signature(predict).parameters.values()
    except (TypeError, ValueError):            # no signature to read: try the masks
        return True
    return any(p.name == "action_masks" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
