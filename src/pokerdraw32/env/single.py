"""The Gymnasium environment: one learning seat against built-in or given opponents."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .._kernels import Rng
from ..actions import Action
from ..bots import Bot, SeatView
from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from ..hand import Hand
from ..rules import Rules
from ._table import (
    CHECK_CALL as _CHECK_CALL,
)
from ._table import (
    acknowledge_error,
    learning_seat,
    observation_bound,
    opponent_bots,
    opponent_list,
    render_text,
    supported_render_mode,
    table_rules,
)
from .encoding import DEFAULT_BUCKETS, OBS_SIZE, Encoding, action_index

Opponent = str | Callable[[SeatView], Action | str]
"""A bot name (:func:`pokerdraw32.bots.bot_names`: ``"rule"``, :class:`~pokerdraw32.bots.RuleBot`;
``"random"``, :class:`~pokerdraw32.bots.RandomBot`; ``"call"``, ``"shove"``, ``"fold"``,
``"maniac"``, ``"cfr"``, ...) or a callable ``SeatView -> Action | str`` (a bot's ``decide`` too)."""


class DrawEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    """One hand of 32-Card Draw an episode, played by one learning seat against opponents.

    Observation: ``float32[171]``, the encoding of :mod:`pokerdraw32._handcore.encode` for the learning
    seat (chips divided by the starting stack).  Action: ``Discrete(35 + B)``, an index of that
    encoding.  The legal-action mask (``bool[35 + B]``) is ``info["action_mask"]`` after
    :meth:`reset` and :meth:`step`, and :meth:`action_masks` (sb3-contrib's MaskablePPO reads it).
    Reward: the seat's result in big blinds when the hand ends (chips won or lost divided by
    ``rules.bb``; ``info["chips"]``: in chips), 0 before; ``terminated`` then (no truncation: a
    hand always ends).

    Each :meth:`reset` deals a new hand with every stack at ``stack`` big blinds, the button on a
    seat drawn from the environment's generator (so the learning seat's position varies), and
    plays the opponents up to the learning seat's first decision.

    **One episode is one hand dealt**, so that a mean over episodes (Stable-Baselines3's
    ``evaluate_policy``, a learning curve) is a mean per hand dealt.  A hand in which the learning
    seat has no decision (everyone folds to its big blind) is an episode of one *acknowledge*
    step: :meth:`reset` returns that hand's final observation (phase complete) with one legal
    action, index 1 (check/call), and ``step(1)`` ends the episode with the hand's result (the
    blinds it wins); ``info["no_decision"]`` is True at both (False in every other hand).  Any
    other action is outside the mask (``illegal_action`` says what happens).

    Every random draw comes from one :class:`~pokerdraw32.Rng`, ``Rng(seed)`` at ``reset(seed=...)``
    (at the first reset without a seed, seeded from ``np_random``), in this order: the button
    (``below(players)``), the deck and any R6.2 reshuffle (the hand's generator), the opponents
    given by name (their ``rng`` is this generator: the rule and random bots draw from it).
    :class:`~pokerdraw32.env.DrawVectorEnv` follows the same order (in compiled code when every
    opponent is a rule or random bot), so its table ``i`` is this environment reset with ``seed + i``.

    :param players: seats dealt in, 2 to 5 (R3.1).
    :param opponents: one :data:`Opponent` for every other seat, or a list of ``players - 1`` of
        them in seat order after skipping the learning seat (default ``"rule"``).  A name is made
        once (:func:`~pokerdraw32.bots.make_bot`) and draws from the environment's generator.
    :param seat: the learning seat's hand seat (default 0).
    :param rules: the :class:`~pokerdraw32.rules.Rules`; default: the ``preset``.
    :param preset: ``"classic"`` (default) or ``"two-blind"``.
    :param structure: ``"no-limit"``, ``"pot-limit"`` or ``"fixed-limit"``, overriding the rules'.
    :param stack: every seat's chips at the deal, in big blinds (default 100).
    :param buckets: bet/raise buckets as pot fractions (see :class:`~pokerdraw32.env.Encoding`).
    :param illegal_action: ``"raise"`` (default): an action outside the mask raises
        :class:`~pokerdraw32.errors.IllegalActionError` naming the index and the rule, nothing
        changed; ``"penalty"``: the episode ends at once with reward ``-penalty`` and
        ``info["illegal_action"] = True`` (the hand is abandoned) -- for learners without masks,
        and :func:`gymnasium.utils.env_checker.check_env`, which samples any action.
    :param penalty: the penalty, in big blinds (default 1.0).
    :param render_mode: ``"human"`` (print) or ``"ansi"`` (text): the dealer's view (every card).
        Another mode (``"rgb_array"``, which Stable-Baselines3's ``make_vec_env`` asks for) warns,
        as Gymnasium does, naming the supported modes, and renders nothing: ``render_mode`` is then
        None and :meth:`render` returns None.
    :raises PokerDraw32ValueError: bad players, seat, stack, buckets, opponents (an unknown bot
        name: the message lists them; a bot that cannot be loaded) or ``illegal_action``.

    Registered as ``"pokerdraw32/Draw-v0"`` (``gymnasium.make("pokerdraw32/Draw-v0", players=3)``).
    The full information of the learning seat is ``SeatView.of(env.hand, env.seat)``.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 -- gymnasium.Env declares it so

    def __init__(self, players: int = 3, opponents: Opponent | Sequence[Opponent] = "rule", seat: int = 0,
                 rules: Rules | None = None, preset: str = "classic", structure: str | None = None,
                 stack: int = 100, buckets: Sequence[float] = DEFAULT_BUCKETS, illegal_action: str = "raise",
                 penalty: float = 1.0, render_mode: str | None = None) -> None:
        self.players, self.rules, self.stack = table_rules(players, rules, preset, structure, stack)
        n = self.players
        self.seat = learning_seat(seat, n)
        chosen: list[Opponent] = opponent_list(opponents, n)
        self._bots: list[Bot | None] = opponent_bots(chosen, self.rules, n)
        self.opponents = chosen
        if illegal_action not in ("raise", "penalty"):
            raise PokerDraw32ValueError(f"illegal_action={illegal_action!r}: use 'raise' or 'penalty'")
        self.illegal_action = illegal_action
        self.penalty = float(penalty)
        self.render_mode = supported_render_mode(render_mode, self.metadata["render_modes"], "DrawEnv")
        self.encoding = Encoding(buckets)
        self.big_blind: int = self.rules.big_blind
        high = observation_bound(n, self.rules, self.stack)
        self.observation_space = spaces.Box(0.0, high, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(self.encoding.actions)
        self.hand: Hand | None = None
        self._players: list[Callable[[SeatView], Action | str] | None] = [None] * n
        self._mask = np.zeros(self.encoding.actions, dtype=np.uint8)
        self._no_decision = False   # the hand gave the learning seat no decision (an acknowledge step)
        self._rng: Rng | None = None
        self._decisions = 0         # every seat's decisions so far (DrawVectorEnv.decisions)

    def _seat_opponents(self, rng: Rng) -> None:
        others = [s for s in range(self.players) if s != self.seat]
        for s, o, bot in zip(others, self.opponents, self._bots, strict=True):
            if bot is not None:
                bot.rng = rng                     # the episode's one generator (see the class)
                self._players[s] = bot.decide
            else:
                self._players[s] = o   # type: ignore[assignment]

    def _play_opponents(self) -> None:
        hand = self.hand
        assert hand is not None
        while not hand.is_complete and hand.actor != self.seat:
            actor = hand.actor
            assert actor is not None
            policy = self._players[actor]
            assert policy is not None
            action = policy(SeatView.of(hand, actor))
            if not isinstance(action, (Action, str)):
                raise PokerDraw32TypeError(f"the opponent at seat {actor} returned {action!r}, not an Action or text")
            hand.act(action, actor)
            self._decisions += 1

    def _observe(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        hand = self.hand
        assert hand is not None
        obs = self.encoding.observation(hand, self.seat, self.stack)
        self._fill_mask(hand)
        info: dict[str, Any] = {"action_mask": self._mask.astype(bool), "button": hand.button,
                                "no_decision": self._no_decision}
        return obs, info

    def _fill_mask(self, hand: Hand) -> None:
        self.encoding.action_mask(hand, self._mask)
        if self._no_decision:                      # the acknowledge step: check/call alone
            self._mask[_CHECK_CALL] = 1

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new hand and play the opponents up to the learning seat's first decision (or to
        the hand's end: an acknowledge step, see the class)."""
        super().reset(seed=seed)
        if seed is not None or self._rng is None:
            self._rng = Rng(int(seed) if seed is not None else int(self.np_random.integers(2**63)))
            self._seat_opponents(self._rng)
        rng = self._rng
        button = rng.below(self.players)
        self.hand = Hand(self.rules, [self.stack] * self.players, button, rng=rng)
        self._no_decision = False
        self._play_opponents()
        self._no_decision = self.hand.is_complete
        if self.render_mode == "human":
            self.render()
        return self._observe()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learning seat, then the opponents up to its next decision or the
        end of the hand.

        :raises IllegalActionError: ``action`` is outside the mask (``illegal_action="raise"``).
        """
        hand = self.hand
        if hand is None or (hand.is_complete and not self._no_decision):
            raise PokerDraw32ValueError("no hand in play (not reset yet, or the episode is over): call reset()")
        if self._no_decision:
            legal = action_index(action) == _CHECK_CALL
        else:
            legal = self.illegal_action == "raise" or self.encoding.decode(hand, action) >= 0
        if not legal and self.illegal_action == "penalty":
            obs, info = self._observe()
            info["illegal_action"] = True
            self.hand = None
            self._no_decision = False
            return obs, -self.penalty, True, False, info
        if self._no_decision:
            if not legal:
                raise acknowledge_error(self.encoding, self.seat, action)
            acknowledged = True
            self._no_decision = False      # the episode ends here: the mask is all False from now
        else:
            acknowledged = False
            self.encoding.apply(hand, action)
            self._decisions += 1
            self._play_opponents()
        reward = 0.0
        obs, info = self._observe()
        info["no_decision"] = acknowledged
        if hand.is_complete:
            chips = hand.stacks[self.seat] - hand.starting_stacks[self.seat]
            reward = chips / self.big_blind
            info["chips"] = chips
        if self.render_mode == "human":
            self.render()
        return obs, reward, hand.is_complete, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask of the learning seat now (``bool[actions]``; only index 1 at an
        acknowledge step; all False after the hand)."""
        if self.hand is None:
            return np.zeros(self.encoding.actions, dtype=bool)
        mask = self.encoding.action_mask(self.hand).astype(bool)
        if self._no_decision:
            mask[_CHECK_CALL] = True
        return mask

    def render(self) -> str | None:
        """``"ansi"``: the table as text (every seat's cards); ``"human"``: printed."""
        names = [("you" if s == self.seat else f"seat {s}") for s in range(self.players)]
        text = render_text(self.hand, names)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None
