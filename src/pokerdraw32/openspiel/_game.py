"""The OpenSpiel game ``python_pokerdraw32``: one hand of 32-Card Draw (R3-R9) as a pyspiel game.

**Parameters** (``pyspiel.load_game("python_pokerdraw32(players=3,structure=pot-limit)")``):

===============  ================  ==============================================================
name             default           meaning
===============  ================  ==============================================================
``players``      2                 seats dealt in, 2 to 5 (R3.1); OpenSpiel player ``i`` = seat ``i``
``structure``    ``no-limit``      ``no-limit``, ``pot-limit`` or ``fixed-limit`` (R3.4)
``preset``       ``classic``       ``classic`` or ``two-blind`` (the rule options, RULES.md)
``small_blind``  1                 small blind in chips (R3.2)
``big_blind``    0                 big blind in chips; 0: the default ``2 * small_blind``
``over_blind``   0                 over blind in chips (4-5 players, classic, R4.2); 0: ``2 * big_blind``
``stack``        200               every seat's chips at the deal (equal stacks, table stakes R3.6)
``button``       0                 the dealer's seat (R4.1); the blinds follow it (R4.2, R4.3)
``buckets``      ``0:0.5:1:-1``    bet/raise buckets as pot fractions, ``:``-separated (see
                                   :mod:`pokerdraw32._handcore.encode`: 0 the minimum, < 0 all-in); one
                                   bucket as ``0:`` (OpenSpiel reads a bare ``0`` as a number)
===============  ================  ==============================================================

**Chance nodes.**  Every card is one chance node whose outcomes are card codes 0-31 (``4 * rank +
suit``, :data:`pokerdraw32.cards.DECK`), each with probability ``1 / count``: the hole cards seat by
seat in the dealing order (R5.1: left of the button first; five chance nodes a seat), then each
player's replacement cards right after their discard (R6.1).  A replacement card comes from the
stub while it lasts; once the stub is empty the outcomes are the discard pile (R6.2: the cards
discarded earlier in this draw by the other players, plus folded hands with ``reshuffle_folded``;
never the player's own discards), which, reshuffled, is the stub from then on (later discards start
a new pile).  Dealing card by card from a uniformly shuffled stub and a
reshuffled pile gives exactly the engine's distribution (R11.1); the order inside one deal does not
matter.  A deal is made in the hand (:meth:`pokerdraw32.hand.Hand.deal`) when its last card is drawn.

**Player actions** are the indices of the shared research encoding, :mod:`pokerdraw32._handcore.encode`
(``35 + B`` ids for ``B`` buckets; 39 by default): 0 fold, 1 check/call, 2 Parole split, 3 decline,
``4 .. 3+B`` bet/raise buckets, ``4+B+m`` the discard of the cards at the positions of bit mask
``m`` in the player's hole cards sorted by code (``m = 0``: stand pat).  Legal actions are the
encoding's mask; an id outside it raises :class:`~pokerdraw32.errors.IllegalActionError`.

**Returns** are chips won or lost in the hand (``HandResult.net``), at the end only; they sum to 0
(R9.5: zero-sum).  Utilities lie in ``[-stack, (players - 1) * stack]``.

**Observation tensor** (``float32[171]``): the encoding's observation of the seat
(:func:`pokerdraw32._handcore.encode.observe`, chips divided by ``stack``), plus, at a chance node in the
middle of the seat's own deal, the cards already dealt to it in the card section.
**Information-state tensor**: the observation tensor followed by the seat's own decisions:
``R`` slots for the first betting round, 1 for the draw and ``R`` for the second round, each a
one-hot over the action ids (``R = cap + 1`` in fixed-limit with a cap, else 8; decisions beyond
``R`` in a round are left out of the tensor, the information-state string has every one).
**Strings**: the observation string renders the observation (the seat's cards, pot, stacks, bets,
folds, all-ins, cards drawn, each seat's last action in the round, shown hands); the
information-state string is the seat's cards and the hand's event log as the seat may see it
(:meth:`pokerdraw32.hand.Hand.events_for`: perfect recall, no card of another player).

**Speed.**  A move is one call of compiled code on the hand's C fields
(:func:`pokerdraw32._handcore.encode.spiel_apply`;
the player, legal actions and chance outcomes likewise), and the methods Python calls most
(``current_player``, ``is_chance_node``, ``is_terminal``, ``legal_actions``, ``chance_outcomes``)
are answered in Python without pyspiel's C++ round trip; ``apply_action`` stays pyspiel's (it keeps
the history).  ``python bench/openspiel.py --versus`` compares random play with OpenSpiel's C++
``universal_poker``.

**Tabular algorithms** walk every state, and this game has more than ``32! / (32 - 5n)!`` (the
orders of the hole cards): a state asked for by one of OpenSpiel's Python modules that do so
(:data:`ENUMERATING_MODULES`: ``get_all_states``, hence ``TabularPolicy`` and the CFR solvers;
``cfr``; ``best_response``; ``exploitability``; ``gambit``; the sequence form and ``mmd_dilated``;
``policy_aggregator``) is refused at once with
:class:`~pokerdraw32.errors.GameTooLargeError`, which names the sampling algorithms to use
(outcome- or external-sampling MCCFR, IS-MCTS).  OpenSpiel's C++ algorithms (``pyspiel.CFRSolver``,
``pyspiel.exploitability``, ...) cannot be told apart from its C++ sampling algorithms: they reach
the game through the same calls, and are not refused (they never return; Ctrl-C stops them).
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from .._kernels import encode as _encode
from ..cards import DECK, format_cards
from ..errors import MAX_CHIPS, GameTooLargeError, PokerDraw32ValueError
from ..hand import Hand
from ..rules import Rules, Structure

SHORT_NAME = "python_pokerdraw32"
"""The name ``pyspiel.load_game`` knows the game by."""

DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2, "structure": "no-limit", "preset": "classic", "small_blind": 1, "big_blind": 0,
    "over_blind": 0, "stack": 200, "button": 0, "buckets": "0:0.5:1:-1",
}
"""The game's parameters and their defaults (see the module docstring)."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python 32-Card Draw (pokerdraw32)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)
"""The OpenSpiel game type: sequential, explicit chance, imperfect information, zero-sum (R9.5),
terminal rewards."""

_ROUNDS = {"first-round": 0, "draw": 1, "second-round": 2}

ENUMERATING_MODULES = frozenset({
    "open_spiel.python.algorithms.get_all_states",   # get_all_states: TabularPolicy, hence the CFR solvers,
                                                     # XFP, CPPBestResponsePolicy, exploitability()
    "open_spiel.python.algorithms.cfr",              # CFRSolver, CFRPlusSolver (discounted CFR, CFR-BR on them)
    "open_spiel.python.algorithms.best_response",    # BestResponsePolicy, CPPBestResponsePolicy
    "open_spiel.python.algorithms.exploitability",   # nash_conv, exploitability, best_response
    "open_spiel.python.algorithms.gambit",           # export_gambit: the whole tree as a Gambit file
    "open_spiel.python.algorithms.sequence_form_utils",   # the sequence form: MMD, sequence-form LPs
    "open_spiel.python.algorithms.sequence_form_lp",
    "open_spiel.python.algorithms.mmd_dilated",      # MMDDilatedEnt
    "open_spiel.python.algorithms.policy_aggregator",   # PolicyAggregator (PSRO's meta-strategies)
    "open_spiel.python.algorithms.policy_aggregator_joint",
})
"""The modules of OpenSpiel's Python algorithms that walk every state of the game they are given: a
state asked for by one of them (``game.new_initial_state()``, directly or through a clone or
``game.new_initial_states()``) is refused with :class:`~pokerdraw32.errors.GameTooLargeError`."""
_LAST_KINDS = ("fold", "check", "call", "bet", "raise", "split", "decline")


def _chips(params: dict[str, Any], name: str, zero_ok: bool = False) -> int:
    value = params[name]
    if type(value) is not int or value < (0 if zero_ok else 1) or value > MAX_CHIPS:
        raise PokerDraw32ValueError(f"{SHORT_NAME}: {name}={value!r} must be a whole number of chips from "
                                    f"{0 if zero_ok else 1} to {MAX_CHIPS} [R3.2]")
    return value


def _rules(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` of the parameters (the preset, its structure and blinds)."""
    changes: dict[str, Any] = {"structure": params["structure"], "sb": _chips(params, "small_blind")}
    if _chips(params, "big_blind", zero_ok=True):
        changes["bb"] = params["big_blind"]
    if _chips(params, "over_blind", zero_ok=True):
        changes["ob"] = params["over_blind"]
    return Rules.preset(params["preset"], **changes)


def _buckets(text: object) -> tuple[float, ...]:
    if not isinstance(text, str):
        raise PokerDraw32ValueError(f"{SHORT_NAME}: buckets={text!r} must be pot fractions separated by ':'")
    try:
        values = tuple(float(part) for part in text.split(":") if part)   # "0:" is one bucket
    except ValueError:
        raise PokerDraw32ValueError(f"{SHORT_NAME}: buckets={text!r} must be pot fractions separated by ':', "
                                    "such as 0:0.5:1:-1") from None
    if not 1 <= len(values) <= _encode.MAX_BUCKETS or any(not f <= 1000 for f in values):
        raise PokerDraw32ValueError(f"{SHORT_NAME}: buckets={text!r}: 1 to {_encode.MAX_BUCKETS} pot fractions, "
                                    "each a number at most 1000")
    return values


class DrawGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of 32-Card Draw as an OpenSpiel game; see the module docstring for the parameters.

    :ivar rules: the :class:`~pokerdraw32.rules.Rules` of the parameters.
    :ivar stack: every seat's starting stack, in chips (also the observation's chip scale).
    :ivar button: the dealer's seat.
    :ivar buckets: the bet/raise buckets (pot fractions).
    :ivar bucket_array: the buckets as a ``float64[B]`` array (``buckets_view``: the same as the
        compiled encoding takes them at the least cost, :func:`pokerdraw32._handcore.encode.bucket_view`).
    :ivar round_slots: ``R``, the own-decision slots a betting round has in the information-state tensor.
    :ivar initial_hand: the hand every state starts from (a clone of it): the blinds posted, nothing dealt.
    :raises PokerDraw32ValueError: not 2 to 5 players (R3.1), a bad amount of chips (R3.2), a stack
        that brings more than ``MAX_CHIPS`` to the table, a bad button or bad buckets.
    :raises RulesError: an unknown preset or structure, or blinds the rules refuse.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULT_PARAMS, **(params or {})}
        n = p["players"]
        if type(n) is not int or not 2 <= n <= 5:
            raise PokerDraw32ValueError(f"{SHORT_NAME}: players={n!r}: a hand is dealt to 2 to 5 players [R3.1]")
        self.rules = _rules(p)
        self.stack = _chips(p, "stack")
        if n * self.stack > MAX_CHIPS:
            raise PokerDraw32ValueError(f"{SHORT_NAME}: {n} stacks of {self.stack} chips is more than {MAX_CHIPS} "
                                        "chips at the table [R3.2]")
        self.button = p["button"]
        if type(self.button) is not int or not 0 <= self.button < n:
            raise PokerDraw32ValueError(f"{SHORT_NAME}: button={self.button!r} is not a seat 0..{n - 1} [R4.1]")
        self.buckets = _buckets(p["buckets"])
        self.bucket_array: npt.NDArray[np.float64] = np.array(self.buckets, dtype=np.float64)
        self.buckets_view: Any = _encode.bucket_view(self.bucket_array)   # what the hot path passes on
        self.actions: int = _encode.action_count(self.buckets)
        fixed = self.rules.structure is Structure.FIXED_LIMIT
        cap = self.rules.cap if fixed else None
        self.round_slots: int = cap + 1 if cap is not None else 8
        # A bound on the moves of a hand: a betting round has at most `raises` bets and raises (the cap,
        # else one per largest blind of all the chips, R3.4), each seat acts at most once more than the
        # raises plus a Parole answer (R8.2); one discard each; 5 + 4 cards a seat (R5.1, R6.1).
        raises = cap if cap is not None else -(-n * self.stack // self.rules.largest_blind(n))
        length = min(2 * n * (raises + 2) + n + 9 * n, 2**31 - 1)    # OpenSpiel keeps it in a C int
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions,
            max_chance_outcomes=32,
            num_players=n,
            min_utility=-float(self.stack),
            max_utility=float((n - 1) * self.stack),
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(GAME_TYPE, info, p)
        self.players: int = n
        # every state starts from a copy of this hand: the blinds posted, the first card to deal
        self.initial_hand = Hand(self.rules, [self.stack] * n, self.button, seed=0, auto_deal=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> DrawGame:
        """The game itself: it is immutable (``state.clone()`` deep-copies the state, not the game)."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its ``pyspiel.load_game`` string (pybind's default would lose the attributes)."""
        return (pyspiel.load_game, (str(self),))

    def new_initial_state(self) -> DrawState:
        """A new hand: the blinds posted (R4), the first hole card to deal (a chance node).

        :raises GameTooLargeError: asked for by one of OpenSpiel's tabular algorithms, which walk
            every state (:data:`ENUMERATING_MODULES`): see :meth:`size_message`.
        """
        caller = sys._getframe().f_back     # the Python code that asked, directly or through pyspiel
        if caller is not None and caller.f_globals.get("__name__") in ENUMERATING_MODULES:
            raise GameTooLargeError(self.size_message(caller.f_globals["__name__"]))
        return DrawState(self)

    def size_message(self, by: str = "") -> str:
        """Why the game cannot be enumerated, with its size, and what to use instead (the message
        of :class:`~pokerdraw32.errors.GameTooLargeError`; ``by``: the module that tried).

        The sizes are lower bounds: the orders in which the hole cards can be dealt (each a
        different history, before any decision: ``32! / (32 - 5n)!``) and the information sets of
        the first seat to act at its first decision (its five cards in their order, ``32! / 27!``);
        the betting, the draw and the replacement cards multiply both.
        """
        n = self.players
        histories = math.perm(32, 5 * n)
        infosets = math.perm(32, 5)
        who = f" (asked by {by})" if by else ""
        return (f"{self} is too large to enumerate{who}: its hole cards alone can be dealt in {histories:.2e} "
                f"orders, each a different state before any decision, and the first seat to act has "
                f"{infosets:,} information sets at its first decision (its five cards); the betting, the "
                "draw and the replacement cards multiply both. Algorithms that walk every state "
                "(get_all_states, TabularPolicy, CFRSolver, CFRPlusSolver, exploitability, nash_conv, "
                "BestResponsePolicy) would never finish: use a sampling algorithm, outcome-sampling or "
                "external-sampling MCCFR (open_spiel.python.algorithms.outcome_sampling_mccfr, "
                "external_sampling_mccfr) or IS-MCTS (open_spiel.python.algorithms.ismcts)")

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DrawObserver:
        """The observer of information states (``iig_obs_type.perfect_recall``) or observations."""
        return DrawObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def _dealt(word: int) -> list[int]:
    """The card codes of a card word (count in bits 0-2, then 6 bits a card), in order."""
    return [word >> (3 + 6 * j) & 63 for j in range(word & 7)]


# The hot path, compiled with the encoding (pokerdraw32._handcore.encode, pure Python without extensions):
# the player, the legal actions and chance outcomes, the moves, read from the hand's C fields.
_player = _encode.spiel_player
_legal = _encode.spiel_legal
_outcomes = _encode.deal_outcomes
_apply = _encode.spiel_apply
_CHANCE: int = _encode.SPIEL_CHANCE
_TERMINAL: int = _encode.SPIEL_TERMINAL
_PAIRS: list[list[tuple[int, float]]] = [[]] + [[(c, 1.0 / k) for c in range(32)] for k in range(1, 33)]
"""``_PAIRS[count][code]``: the chance outcome ``(code, 1 / count)``, made once (tuples are immutable)."""


class _Decisions(list[list[tuple[int, int]]]):
    """Each seat's own decisions, ``(round, action id)`` in order: a list of lists whose deep copy
    (every ``state.clone()`` deep-copies the state's attributes) copies the lists and shares the
    tuples, which are immutable: a tenth of ``copy.deepcopy``'s time."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Decisions:
        return _Decisions([list(seat) for seat in self])


class DrawState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress, wrapping a :class:`~pokerdraw32.hand.Hand` with explicit deals
    (``auto_deal=False``).  ``state.hand`` is the dealer's record (every card): for debugging and
    tests, never for a player.

    ``current_player``, ``is_chance_node``, ``is_terminal``, ``legal_actions`` and
    ``chance_outcomes`` are answered in Python (compiled code reading the hand), without a round
    trip through pyspiel's C++ ``State``; C++ callers get the same answers through it."""

    def __init__(self, game: DrawGame) -> None:
        super().__init__(game)
        self._game = game
        self.hand: Hand = game.initial_hand.clone()
        self._dealing = 0     # the card word of the pending deal's cards drawn so far (0: none)
        self._own = _Decisions([] for _ in range(game.players))    # each seat's (round, action id)

    # -- the OpenSpiel API ------------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` while a card is to be dealt, or ``PlayerId.TERMINAL``."""
        return _player(self.hand)

    def is_chance_node(self) -> bool:
        """True while a card is to be dealt."""
        return _player(self.hand) == _CHANCE

    def is_terminal(self) -> bool:
        """True once the hand is over."""
        return _player(self.hand) == _TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to act), ascending, as pyspiel's
        ``State.legal_actions``: the card codes at a chance node, none for another seat or at the
        end.

        :raises pyspiel.SpielError: ``player`` is a negative id other than the player to act's.
        """
        h = self.hand
        if player is not None:
            current = _player(h)
            if player != current and current >= 0:
                if player < 0:
                    raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
                return []
        return _legal(h, self._game.buckets_view, self._dealing)

    def _legal_actions(self, player: int) -> list[int]:
        return _legal(self.hand, self._game.buckets_view, self._dealing)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards the next chance node may deal (card codes, ascending), each with probability
        ``1 / count``: the stub's cards, or, once the stub is used up in this deal, the discard pile
        without the receiving player's own discards (R6.2).

        :raises PokerDraw32ValueError: not a chance node.
        """
        return _outcomes(self.hand, self._dealing, _PAIRS)

    def _apply_action(self, action: int) -> None:
        h = self.hand
        word = _apply(h, self._game.buckets_view, self._dealing, action, self._own)
        if word < 0:
            req = h.pending_deal
            if req is not None:
                raise PokerDraw32ValueError(f"card {action} may not be dealt to seat {req.seat} now [R6.2]")
            raise _encode.action_error(h, action, self._game.bucket_array)
        self._dealing = word

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}"
        return str(_encode.action_name(action, self._game.bucket_array))

    def returns(self) -> list[float]:
        """Each seat's chips won (negative: lost) in the hand; zeros until it is over (R9.5)."""
        result = self.hand.result
        if result is None:
            return [0.0] * self._game.players
        return [float(x) for x in result.net]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DrawState:
        """A state that ``player_id`` cannot tell from this one, with every card it cannot see dealt
        again at random (:meth:`pokerdraw32.hand.Hand.determinize`, seeded from
        ``probability_sampler()``): the other players' hole cards and discards, the dead cards and the
        stub order.  The seat's own cards, every chip and every public action stay; its
        information-state and observation strings and tensors are unchanged.

        The new state's OpenSpiel ``history()`` is empty (OpenSpiel keeps it outside the Python state,
        and the old one holds the true cards).  Clone a resampled state; it cannot be pickled back or
        deserialized (``pyspiel.serialize_game_and_state`` pickles a Python state): its hand is a
        determinized copy, which :meth:`~pokerdraw32.hand.Hand.restore` refuses with
        :class:`~pokerdraw32.snapshot.SnapshotError`, as it is not a hand that was played.  The other
        seats' recorded discards become the lowest positions of the same count (their positions are
        private).

        :raises PokerDraw32ValueError: in the middle of a deal (between two of its chance nodes).
        """
        if self._dealing:
            raise PokerDraw32ValueError("resample_from_infostate: a deal is under way; resample at a decision "
                                        "node or before the deal's first card")
        seed = int(probability_sampler() * 2.0**53)
        new = DrawState(self._game)
        new.hand = self.hand.determinize(player_id, seed)
        discard0 = _encode.BET0 + len(self._game.buckets)
        for s, record in enumerate(self._own):
            if s == player_id:
                new._own[s] = list(record)
            else:
                new._own[s] = [(r, discard0 + (1 << bin(a - discard0).count("1")) - 1 if r == 1 else a)
                               for r, a in record]
        return new

    def __str__(self) -> str:
        """The dealer's view (every seat's cards): for debugging, never for a player."""
        h = self.hand
        lines = [f"{h.phase.value} pot {h.pot} button {h.button}"]
        for s in range(h.n):
            status = " folded" if h.folded[s] else ""
            drawn = "" if h.discarded[s] is None else f" drew {h.discarded[s]}"
            lines.append(f"seat {s}: {format_cards(h.hole_cards(s)) or '--'} stack {h.stacks[s]} "
                         f"bet {h.bets[s]}{drawn}{status}")
        if self._dealing:
            lines.append(f"dealing {format_cards([DECK[c] for c in _dealt(self._dealing)])}")
        return "\n".join(lines)


class DrawObserver:
    """Observation (``perfect_recall`` off) or information state (on) of a seat, as OpenSpiel's
    Python observers: a flat ``tensor`` (float32) and its named views in ``dict``.

    ``dict["observation"]``: ``float32[171]`` (the encoding's observation); with perfect recall also
    ``dict["first_round"]`` and ``dict["second_round"]`` (``float32[R, actions]``) and
    ``dict["draw"]`` (``float32[1, actions]``): the seat's own decisions, one-hot by action id.

    :raises ValueError: observer parameters (none are supported), or an observation type other
        than one seat's view (public information and the seat's private information): a public-only
        or an all-seats observer is not provided.
    """

    def __init__(self, game: DrawGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(f"{SHORT_NAME} observes one seat's view (public_info=True, private_info="
                             f"SINGLE_PLAYER); not {iig_obs_type}")
        self._game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        a, r = game.actions, game.round_slots
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", _encode.OBS_SIZE, (_encode.OBS_SIZE,))]
        if self.perfect_recall:
            pieces += [("first_round", r * a, (r, a)), ("draw", a, (1, a)), ("second_round", r * a, (r, a))]
        self.tensor: npt.NDArray[np.float32] = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: DrawState, player: int) -> None:
        """Write the tensor of ``state`` as seat ``player`` sees it."""
        h = state.hand
        obs = self.dict["observation"]
        _encode.observe(h, player, obs, float(self._game.stack))
        req = h.pending_deal
        if req is not None and req.seat == player:
            for c in _dealt(state._dealing):
                obs[_encode.OBS_CARDS + c] = 1.0
        if self.perfect_recall:
            self.tensor[_encode.OBS_SIZE:] = 0.0
            blocks = (self.dict["first_round"], self.dict["draw"], self.dict["second_round"])
            used = [0, 0, 0]
            for rnd, action in state._own[player]:
                if used[rnd] < blocks[rnd].shape[0]:
                    blocks[rnd][used[rnd], action] = 1.0
                    used[rnd] += 1

    def string_from(self, state: DrawState, player: int) -> str:
        """The information-state string (perfect recall) or the observation string of ``player``."""
        h = state.hand
        cards = format_cards(h.hole_cards(player)) or "--"
        req = h.pending_deal
        dealing = ""
        if req is not None and state._dealing:
            if req.seat == player:
                dealing = f" | dealing you {format_cards([DECK[c] for c in _dealt(state._dealing)])}"
            else:
                dealing = f" | dealing seat {req.seat} {state._dealing & 7} of {req.count}"
        if self.perfect_recall:
            log = "; ".join(str(e) for e in h.events_for(player))
            return f"seat {player} cards {cards}{dealing} | {log}"
        obs = np.zeros(_encode.OBS_SIZE, np.float32)
        _encode.observe(h, player, obs, 1.0)     # scale 1: amounts in chips
        n = h.n
        actor = h.actor if req is None and not h.is_complete else None
        parts = [f"seat {player} cards {cards}{dealing}", f"{h.phase.value}", f"button {h.button}",
                 f"pot {h.pot}", f"to act {'-' if actor is None else actor}"]
        if h.offer_open:
            parts.append("parole open")
        for k in range(n):
            s = (player + k) % n
            base = _encode.OBS_SEATS + _encode.SEAT_FEATURES * k
            text = f"s{s} stack {h.stacks[s]} bet {h.bets[s]}"
            if h.folded[s]:
                text += " folded"
            elif obs[base + _encode.SEAT_ALL_IN]:
                text += " all-in"
            if h.discarded[s] is not None:
                text += f" drew {h.discarded[s]}"
            last = obs[base + _encode.SEAT_LAST:base + _encode.SEAT_LAST + len(_LAST_KINDS)]
            if last.any():
                kind = _LAST_KINDS[int(np.argmax(last))]
                amount = round(float(obs[base + _encode.SEAT_LAST_AMOUNT]))
                text += f" last {kind}" + (f" {amount}" if kind in ("call", "bet", "raise") else "")
            parts.append(text)
        result = h.result
        if result is not None:
            parts += [f"s{s} shows {format_cards(c)}" for s, c in sorted(result.shown.items())]
            parts.append("net " + " ".join(f"{x:+d}" for x in result.net))
        return " | ".join(parts)


pyspiel.register_game(GAME_TYPE, DrawGame)
