"""Why an action is refused: the message and rule of the :class:`IllegalActionError` that
:meth:`Hand.act` raises.  Only reached when the compiled core (:mod:`pokerdraw32._handcore.state`) has
found the action illegal; the hand is unchanged."""

from __future__ import annotations

from ..actions import Action, ActionKind, LegalActions, Phase
from ..cards import format_cards
from ..errors import IllegalActionError
from ..rules import Structure

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..hand import Hand


def refuse(hand: Hand, action: object, seat: int | None) -> None:
    """Raise the IllegalActionError that names why ``action`` (from ``seat``) is not legal now."""
    if not isinstance(action, Action):
        raise IllegalActionError(f"expected an Action, got {type(action).__name__}")
    if hand.phase is Phase.COMPLETE:
        raise IllegalActionError(f"the hand is over; {action} is not possible", seat=seat)
    req = hand.pending_deal
    if req is not None:
        raise IllegalActionError(f"the dealer must first deal {req.count} card(s) to seat {req.seat}", seat=seat)
    legal = hand.legal_actions()
    assert legal is not None
    p = legal.seat
    if seat is not None:
        seat = hand._seat_index(seat)
        if seat != p:
            raise IllegalActionError(f"seat {seat} acted out of turn: seat {p} is to act", seat=seat,
                                     rule="R5.2" if hand.phase is not Phase.DRAW else "R6.1")
    kind = action.kind
    if kind is ActionKind.TIMEOUT:
        return
    if kind not in legal.kinds:
        raise IllegalActionError(_why_not(hand, p, action, legal), seat=p, rule=_rule_for(hand, action))
    if kind in (ActionKind.BET, ActionKind.RAISE):
        amt = action.amount
        if isinstance(amt, bool) or not isinstance(amt, int):
            raise IllegalActionError(f"seat {p}: {kind.value} amount {amt!r} is not an integer number of chips",
                                     seat=p, rule="R3.2")
        assert legal.min_to is not None and legal.max_to is not None
        if not legal.min_to <= amt <= legal.max_to:
            what = "bet" if kind is ActionKind.BET else "raise to"
            bound = f"exactly {legal.min_to}" if legal.min_to == legal.max_to else f"{legal.min_to} to {legal.max_to}"
            raise IllegalActionError(f"seat {p}: {what} {amt} is outside the legal range ({bound} chips, "
                                     f"{hand.rules.structure.value})", seat=p, rule=_rule_for(hand, action))
    if kind is ActionKind.DISCARD:
        cards = action.cards
        if len(cards) > 4:
            raise IllegalActionError(f"seat {p}: discarding {len(cards)} cards; at most 4 may be discarded",
                                     seat=p, rule="R6.1")
        hole = hand.hole[p]
        held = set(hole)
        seen: set[int] = set()
        for c in cards:
            if int(c) not in held:
                raise IllegalActionError(f"seat {p}: cannot discard {c}, not in the hand "
                                         f"({format_cards(hole)})", seat=p, rule="R6.1")
            if int(c) in seen:
                raise IllegalActionError(f"seat {p}: {c} discarded twice", seat=p, rule="R6.1")
            seen.add(int(c))


def _rule_for(hand: Hand, action: Action) -> str:
    actor = hand.actor
    if hand.phase is Phase.DRAW:
        return "R6.1"
    if actor is not None and hand.stacks[actor] == 0:
        return "R8.2"
    if action.kind in (ActionKind.BET, ActionKind.RAISE) and actor is not None:
        if hand.phase is Phase.SECOND_ROUND and hand.no_raise[actor]:
            return "R6.3"
        if hand.raise_withdrawn == actor:
            return "R7.3"
        if not hand._answerable(actor):
            return "R5.5"
    return {ActionKind.SPLIT: "R8.1", ActionKind.DECLINE: "R8.2", ActionKind.DISCARD: "R6.1",
            ActionKind.CHECK: "R5.2", ActionKind.CALL: "R5.2", ActionKind.FOLD: "R5.2"}.get(action.kind, "R3.4")


def _why_not(hand: Hand, p: int, action: Action, legal: LegalActions) -> str:
    kind = action.kind
    allowed = ", ".join(sorted(k.value for k in legal.kinds))
    stack = hand.stacks[p]
    if hand.phase is Phase.DRAW:
        return f"seat {p} must discard 0-4 cards or stand pat in the draw, not {kind.value}"
    if stack == 0:
        return f"seat {p} is all-in and only answers the Parole offer: split or decline, not {kind.value}"
    if kind is ActionKind.CHECK:
        return (f"seat {p} cannot check: {legal.call_amount} chips to call"
                + (" (all-in)" if legal.call_amount == stack else ""))
    if kind is ActionKind.CALL:
        return f"seat {p} cannot call: nothing to call (check instead)"
    if kind in (ActionKind.BET, ActionKind.RAISE):
        to_match = hand.to_match
        if kind is ActionKind.BET and to_match:
            return f"seat {p} cannot bet: there is already a bet of {to_match}; raise instead"
        if kind is ActionKind.RAISE and not to_match and ActionKind.BET in legal.kinds:
            return f"seat {p} cannot raise: nothing to raise; bet instead"
        if hand.raise_withdrawn == p:
            return f"seat {p} lost the right to raise this turn"
        if hand.phase is Phase.SECOND_ROUND and hand.no_raise[p]:
            return f"seat {p} timed out in the draw and may not bet or raise"
        if not hand._answerable(p):
            return (f"seat {p} may not {kind.value}: nobody could answer it (every other player still in"
                    " the hand is all-in or would be all-in after matching the current bet)")
        rules = hand.rules
        if rules.structure is Structure.FIXED_LIMIT and rules.cap is not None and hand.bet_count >= rules.cap:
            return f"seat {p} may not {kind.value}: the betting is capped at {rules.cap} bets this round"
        return f"seat {p} may not {kind.value} now (allowed: {allowed})"
    if kind is ActionKind.SPLIT:
        return f"seat {p} cannot choose split: no Parole offer is open (allowed: {allowed})"
    if kind is ActionKind.DECLINE:
        return f"seat {p} cannot decline: only an all-in player answers the Parole offer (allowed: {allowed})"
    if kind is ActionKind.DISCARD:
        return f"seat {p} cannot discard outside the draw (allowed: {allowed})"
    return f"seat {p} may not {kind.value} now (allowed: {allowed})"
