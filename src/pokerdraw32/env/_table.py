"""What the environments share: the table's rules and stacks from their arguments, and the text render."""

from __future__ import annotations

from typing import Any

from ..bots import Bot, bot_factory, check_fit, make_bot
from ..cards import format_cards
from ..errors import MAX_CHIPS, IllegalActionError, PokerDraw32Error, PokerDraw32ValueError, integer, shown
from ..hand import Hand
from ..rules import Rules
from .encoding import Encoding, action_index

CHECK_CALL = 1
"""The action index of check/call (``pokerdraw32._handcore.encode.CHECK_CALL``): the one legal action of an
*acknowledge* step, the episode of a hand in which the learning seat has no decision."""


def table_rules(players: object, rules: Rules | None, preset: str, structure: str | None,
                stack: object) -> tuple[int, Rules, int]:
    """``(players, rules, starting stack in chips)`` from an environment's arguments.

    :raises PokerDraw32ValueError: not 2 to 5 players (R3.1), or a stack (in big blinds) that is not
        a positive integer or brings more than MAX_CHIPS to the table (R3.2).
    :raises RulesError: an unknown preset or structure.
    """
    n = integer(players)
    if n is None or not 2 <= n <= 5:
        raise PokerDraw32ValueError(f"players={players!r}: a hand is dealt to 2 to 5 players [R3.1]")
    if rules is None:
        rules = Rules.preset(preset) if structure is None else Rules.preset(preset, structure=structure)
    elif not isinstance(rules, Rules):
        raise PokerDraw32ValueError(f"rules must be a Rules object or None, got {type(rules).__name__}")
    elif structure is not None:
        rules = rules.replace(structure=structure)
    big_blinds = integer(stack)
    if big_blinds is None or big_blinds <= 0:
        raise PokerDraw32ValueError(f"stack={stack!r} must be a positive whole number of big blinds [R3.2]")
    chips = big_blinds * rules.big_blind
    if n * chips > MAX_CHIPS:
        raise PokerDraw32ValueError(f"stack={stack!r} big blinds for {n} players is more than {MAX_CHIPS} chips "
                                    "at the table [R3.2]")
    return n, rules, chips


def learning_seat(seat: object, players: int) -> int:
    """``seat`` checked as the learning seat of ``players`` seats.

    :raises PokerDraw32ValueError: not a seat 0..players-1.
    """
    learner = integer(seat)
    if learner is None or not 0 <= learner < players:
        raise PokerDraw32ValueError(f"seat={seat!r}: the learning seat must be 0..{players - 1}")
    return learner


def opponent_list(opponents: Any, players: int) -> list[Any]:
    """One opponent a seat but the learning one: ``opponents`` repeated (a name or a callable) or
    the given ``players - 1`` of them.

    :raises PokerDraw32ValueError: another number of opponents.
    """
    chosen = [opponents] * (players - 1) if isinstance(opponents, str) or callable(opponents) else list(opponents)
    if len(chosen) != players - 1:
        raise PokerDraw32ValueError(f"{len(chosen)} opponents for {players} players: give {players - 1}")
    return chosen


def opponent_bots(chosen: list[Any], rules: Rules, players: int, callables: bool = True) -> list[Bot | None]:
    """Each opponent given by a bot name (:func:`pokerdraw32.bots.bot_names`) made by
    :func:`~pokerdraw32.bots.make_bot` (seed 0: the environment gives it the table's generator),
    ``None`` for a callable (``callables``: allowed).

    :raises PokerDraw32ValueError: an unknown name (the message lists them), a bot that cannot be
        loaded or that refuses ``players``-handed hands of ``rules`` (:func:`~pokerdraw32.bots.check_fit`,
        e.g. the heads-up ``"cfr"``), or an opponent that is neither a name nor (with ``callables``) a callable.
    """
    bots: list[Bot | None] = []
    for o in chosen:
        if isinstance(o, str):
            try:
                factory = bot_factory(o)
            except PokerDraw32Error as e:
                raise PokerDraw32ValueError(f"opponent {o!r}: {e}" + ("; or a callable SeatView -> action"
                                                                      if callables else "")) from e
            try:
                check_fit(factory, rules, players)
            except PokerDraw32Error as e:
                raise PokerDraw32ValueError(f"opponent {o!r}: {e}") from None
            bots.append(make_bot(o, 0))
        elif callables and callable(o):
            bots.append(None)
        else:
            raise PokerDraw32ValueError(f"opponent {o!r}: use a bot name ('rule', 'random', ...)" +
                                        (" or a callable SeatView -> action" if callables else ""))
    return bots


def observation_bound(players: int, rules: Rules, stack: int) -> float:
    """The largest value of an observation at a table of equal stacks ``stack``: chips are divided by
    the starting stack, so every amount is at most ``players`` (all the chips), except the bet to
    match in round one, the largest blind, owed in full even when its poster is short (R4.5)."""
    return float(max(players, -(-rules.largest_blind(players) // stack)))


def render_text(hand: Hand | None, names: list[str]) -> str:
    """The table as text, the dealer's view (every seat's cards): phase, pot, then one line a seat."""
    if hand is None:
        return "(no hand dealt: call reset())"
    lines = [f"{hand.phase.value}  pot {hand.pot}  button {names[hand.button]}"]
    result = hand.result
    for s in range(hand.n):
        mark = ">" if hand.actor == s and not hand.is_complete else " "
        status = "folded" if hand.folded[s] else "all-in" if hand.stacks[s] == 0 and result is None else ""
        drawn = "" if hand.discarded[s] is None else f" drew {hand.discarded[s]}"
        line = (f"{mark} {names[s]:<9} {format_cards(hand.hole_cards(s)) or '--':<15} stack {hand.stacks[s]:>6}"
                f"  bet {hand.bets[s]:>5}{drawn} {status}")
        if result is not None:
            line += f"  {hand.stacks[s] - hand.starting_stacks[s]:+d}"
        lines.append(line.rstrip())
    return "\n".join(lines)


def supported_render_mode(mode: object, supported: list[str], name: str) -> str | None:
    """``mode`` if it is one of ``supported`` (or None); another mode warns, as Gymnasium does
    (through its logger, a UserWarning naming the supported modes), and gives None: nothing is
    rendered (Stable-Baselines3's ``make_vec_env`` asks every environment for ``"rgb_array"``)."""
    if mode is None or mode in supported:
        return mode
    from gymnasium import logger

    logger.warn(f"{name}: render_mode={mode!r} is not supported (use one of {supported}, or None): "
                "nothing will be rendered (render() returns None)", stacklevel=3)   # at the caller
    return None


def acknowledge_error(encoding: Encoding, seat: int, action: Any, table: int | None = None) -> IllegalActionError:
    """The error for ``action`` at an acknowledge step of learning seat ``seat`` (the hand ended
    before its turn): names the index, the action and the one legal index, CHECK_CALL."""
    number = action_index(action)
    size = encoding.actions
    if number is None:
        what = f"action index {shown(action)} is not an integer of the action space 0..{size - 1}"
    elif not 0 <= number < size:
        what = f"action index {number} is outside the action space 0..{size - 1}"
    else:
        what = f"action index {number} ({encoding.action_name(number)}) is not in the legal-action mask of seat {seat}"
    where = "" if table is None else f"table {table}: "
    return IllegalActionError(f"{where}{what}: the hand ended before the learning seat's turn (it had no decision), "
                              f"and the only legal action is {CHECK_CALL} (check/call), which acknowledges its end",
                              seat=seat)
