"""The PettingZoo AEC environment: one hand of 32-Card Draw a game, every seat an agent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..errors import PokerDraw32ValueError
from ..hand import Hand
from ..rules import Rules
from ._table import observation_bound, render_text, table_rules
from .encoding import DEFAULT_BUCKETS, OBS_SIZE, Encoding


class raw_env(AECEnv):  # type: ignore[misc]
    """One hand of 32-Card Draw as a PettingZoo AEC game (turn-based): agents ``"player_0"`` ..
    ``"player_{n-1}"`` sit at hand seats ``0 .. n-1``; each :meth:`reset` deals a new hand with
    every stack at ``stack`` big blinds and the button on a seat drawn from the environment's
    generator (so positions vary; ``reset(seed=...)`` makes the game reproducible).

    Observations (:meth:`observe`): ``{"observation": float32[171], "action_mask": int8[35 + B]}``,
    the encoding of :mod:`pokerdraw32._handcore.encode` for the agent's seat (chips divided by the starting
    stack; the mask is all zero except for the agent to act).  Actions: ``Discrete(35 + B)``
    indices of that encoding (``B`` = ``len(buckets)``).  Rewards: each agent's result in big
    blinds (chips won or lost divided by ``rules.bb``), given when the hand ends (R9, R9.5: they sum
    to zero); 0 before.  Every agent is then terminated (no truncation: a hand always ends).

    :param players: seats dealt in, 2 to 5 (R3.1).
    :param rules: the :class:`~pokerdraw32.rules.Rules`; default: the ``preset``.
    :param preset: ``"classic"`` (default) or ``"two-blind"``, when ``rules`` is not given.
    :param structure: ``"no-limit"``, ``"pot-limit"`` or ``"fixed-limit"``: overrides the rules'.
    :param stack: every seat's chips at the deal, in big blinds (default 100).
    :param buckets: bet/raise buckets as pot fractions (see :class:`~pokerdraw32.env.Encoding`).
    :param render_mode: ``"human"`` (print) or ``"ansi"`` (return the text): the dealer's view,
        every seat's cards (for watching, never for an agent).
    :raises PokerDraw32ValueError: bad players, stack or buckets; :raises RulesError: bad rules.

    An action outside the mask raises :class:`~pokerdraw32.errors.IllegalActionError` naming the
    index and the rule, and changes nothing (:func:`env` with ``illegal_action="penalty"`` uses
    PettingZoo's TerminateIllegalWrapper instead).  The full information of a seat, with its event
    log, is ``SeatView.of(env.hand, seat)`` (:class:`pokerdraw32.bots.SeatView`) or
    ``env.hand.view(seat)``; ``env.hand`` itself is the dealer's record (every card).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "pokerdraw32_v0",
                                          "is_parallelizable": False, "render_fps": 1}

    def __init__(self, players: int = 2, rules: Rules | None = None, preset: str = "classic",
                 structure: str | None = None, stack: int = 100, buckets: Sequence[float] = DEFAULT_BUCKETS,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.players, self.rules, self.stack = table_rules(players, rules, preset, structure, stack)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise PokerDraw32ValueError(f"render_mode={render_mode!r}: use one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.encoding = Encoding(buckets)
        self.big_blind: int = self.rules.big_blind
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.agents: list[str] = []
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        high = observation_bound(self.players, self.rules, self.stack)
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, high, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.actions) for a in self.possible_agents}
        self.hand: Hand | None = None
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand: the button drawn uniformly, the deck shuffled by a seed drawn from the
        environment's generator (seeded again by ``seed``)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        button = int(self.np_random.integers(self.players))
        hand_seed = int(self.np_random.integers(2**63))
        self.hand = Hand(self.rules, [self.stack] * self.players, button, seed=hand_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.hand is not None
        actor = self.hand.actor
        self.agent_selection = self.possible_agents[actor if actor is not None else 0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``{"observation": float32[171], "action_mask": int8[actions]}`` for ``agent``'s seat."""
        hand = self.hand
        assert hand is not None, "reset() deals the first hand"
        seat = self._seat[agent]
        obs = self.encoding.observation(hand, seat, self.stack)
        mask = np.zeros(self.encoding.actions, dtype=np.uint8)
        if hand.actor == seat and not hand.is_complete:
            self.encoding.action_mask(hand, mask)
        return {"observation": obs, "action_mask": mask.view(np.int8)}

    def step(self, action: Any) -> None:
        """Play ``action`` (an index of the action space) for :attr:`agent_selection`; after the
        hand, ``None`` for each terminated agent.

        :raises IllegalActionError: the action is outside the agent's mask (index and rule named);
            nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        assert hand is not None
        self.encoding.apply(hand, action)
        self._cumulative_rewards[agent] = 0.0
        if hand.is_complete:
            for a in self.agents:
                s = self._seat[a]
                chips = hand.stacks[s] - hand.starting_stacks[s]
                self.rewards[a] = chips / self.big_blind
                self.terminations[a] = True
                self.infos[a] = {"chips": chips}
            self.agent_selection = agent
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``"ansi"``: the table as text (every seat's cards); ``"human"``: printed."""
        text = render_text(self.hand, self.possible_agents)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None

    def close(self) -> None:
        pass


def env(illegal_action: str = "raise", penalty: float = 1.0, **kwargs: Any) -> Any:
    """:class:`raw_env` in PettingZoo's usual wrappers (out-of-bounds actions asserted, order of
    calls enforced).

    :param illegal_action: ``"raise"`` (default): an action outside the mask raises
        :class:`~pokerdraw32.errors.IllegalActionError`; ``"penalty"``: PettingZoo's convention,
        TerminateIllegalWrapper: the game ends at once, the offender gets ``-penalty`` and the
        others 0 (the hand is abandoned, its chips never counted).
    :param kwargs: the arguments of :class:`raw_env`.
    """
    wrapped: Any = raw_env(**kwargs)
    if illegal_action == "penalty":
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-float(penalty))
    elif illegal_action != "raise":
        raise PokerDraw32ValueError(f"illegal_action={illegal_action!r}: use 'raise' or 'penalty'")
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
