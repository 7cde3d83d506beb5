"""``pokerdraw32 play``: one human at a table of built-in bots, on standard input and output
(the command line's interactive part; :mod:`pokerdraw32.cli` parses its options and calls
:func:`_cmd_play`)."""

from __future__ import annotations

import argparse
from typing import TextIO

from .._kernels import Rng
from ..actions import Action, ActionKind, Event, EventKind, Phase
from ..bots import Bot, SeatView, bot_factory, check_fit, make_bot
from ..cards import Card, format_cards
from ..errors import PokerDraw32Error
from ..evaluation import evaluate
from ..hand import Hand
from ..rules import Rules
from ._base import EXIT_INTERRUPTED, EXIT_OK, _rules_from, _write


def describe(ev: Event, viewer: int) -> str | None:
    """One line describing ``ev`` for the player at seat ``viewer``: other players' hole cards,
    discards and replacement cards are never shown; returns ``None`` for silent events."""
    who = "you" if ev.seat == viewer else f"seat {ev.seat}"
    k = ev.kind
    if k is EventKind.POST_BLIND:
        return f"{who} post{'s' if ev.seat != viewer else ''} the {ev.get('blind')} blind ({ev.amount})"
    if k is EventKind.DEAL_HOLE:
        return f"you are dealt {format_cards(ev.cards)}" if ev.seat == viewer else None
    if k in (EventKind.FOLD, EventKind.CHECK, EventKind.SPLIT, EventKind.DECLINE, EventKind.TIMEOUT):
        word = {EventKind.FOLD: "fold", EventKind.CHECK: "check", EventKind.SPLIT: "choose split (Parole)",
                EventKind.DECLINE: "decline the split", EventKind.TIMEOUT: "time out"}[k]
        return f"{who}: {word}"
    if k is EventKind.CALL:
        return f"{who}: call {ev.amount}" + (" (all-in)" if ev.get("all_in") else "")
    if k in (EventKind.BET, EventKind.RAISE):
        return f"{who}: {k.value} to {ev.amount}" + (" (all-in)" if ev.get("all_in") else "")
    if k is EventKind.DISCARD:
        if ev.seat == viewer:
            return f"you discard {format_cards(ev.cards)}" if ev.cards else "you stand pat"
        return f"{who} draws {ev.amount}" if ev.amount else f"{who} stands pat"
    if k is EventKind.DEAL_DRAW:
        return f"you receive {format_cards(ev.cards)}" if ev.seat == viewer else None
    if k is EventKind.RESHUFFLE:
        return f"the stub is empty: {ev.amount} discarded cards are reshuffled"
    if k is EventKind.RETURN_UNCALLED:
        return f"{ev.amount} uncalled chips return to {who}"
    if k is EventKind.SHOW:
        return f"{who} show{'s' if ev.seat != viewer else ''} {format_cards(ev.cards)}: {ev.get('hand')}"
    if k is EventKind.MUCK:
        return f"{who} muck{'s' if ev.seat != viewer else ''}"
    if k is EventKind.AWARD:
        winners = ", ".join("you" if s == viewer else f"seat {s}" for s in ev.get("winners", ()))
        how = "shared by Parole among" if ev.get("shared") else "to"
        pot = "main pot" if ev.get("pot") == 0 else f"side pot {ev.get('pot')}"
        return f"{pot} of {ev.amount} {how} {winners}"
    if k is EventKind.ROUND_END:
        which = "first" if ev.get("round") == Phase.FIRST_ROUND.value else "second"
        return f"-- {which} betting round over, pot {ev.amount} --"
    return None


def _displayed(h: Hand, seat: int) -> list[Card]:
    """``seat``'s hole cards as ``play`` shows them, best rank first: the numbers of ``d 1 3``
    index this order."""
    return sorted(h.hole_cards(seat), reverse=True)


def _prompt_help(h: Hand) -> str:
    legal = h.legal_actions()
    assert legal is not None
    if legal.phase is Phase.DRAW:
        return "draw: 'd 1 3' discards the 1st and 3rd card (or 'd Ah 7c'), up to 4; 'p' stands pat"
    parts = []
    for kind, text in ((ActionKind.FOLD, "f fold"), (ActionKind.CHECK, "k check"),
                       (ActionKind.SPLIT, "s split (Parole: check and offer to share the pot)"),
                       (ActionKind.DECLINE, "n decline the split")):
        if kind in legal.kinds:
            parts.append(text)
    if ActionKind.CALL in legal.kinds:
        parts.append(f"c call {legal.call_amount}")
    for kind, letter, text in ((ActionKind.BET, "b", "bet"), (ActionKind.RAISE, "r", "raise to")):
        if kind in legal.kinds:   # one amount (fixed-limit, R3.4): 'r' alone makes it
            parts.append(f"{letter} {text} {legal.min_to}" if legal.min_to == legal.max_to else
                         f"{letter} N {text} {legal.min_to}-{legal.max_to}")
    return ", ".join(parts) + ", q quit"


_PLAY_WORDS = {"f", "fold", "muck", "k", "x", "check", "c", "call", "b", "bet", "r", "raise", "a", "allin", "all-in",
               "s", "split", "parole", "accept", "n", "decline", "d", "discard", "draw", "p", "pat", "stand"}
"""The words ``play`` takes for an action (``q`` quits): Action.parse's, less ``t`` (a timeout is the
server's clock, not a player's choice), plus ``a`` (all-in)."""

_PLAY_HELP = ("f (fold), k or x (check), c (call), b N (bet N), r N (raise to N), a (all-in), s (Parole split), "
              "n (decline), d 1 3 or d CARDS (discard), p (stand pat), q (quit)")


def _parse_human(text: str, h: Hand) -> Action:
    words = text.replace(",", " ").split()
    legal = h.legal_actions()
    assert legal is not None
    if words and words[0].lower() not in _PLAY_WORDS:
        raise PokerDraw32Error(f"unknown action {words[0]!r}: use {_PLAY_HELP}")
    if len(words) == 1 and words[0].lower() in ("b", "bet", "r", "raise"):
        kind = ActionKind.BET if words[0].lower() in ("b", "bet") else ActionKind.RAISE
        if kind in legal.kinds and legal.min_to is not None and legal.min_to == legal.max_to:
            return Action(kind, legal.min_to)           # the one amount there is (fixed-limit, R3.4)
        if kind in legal.kinds:
            raise PokerDraw32Error(f"say how much: '{words[0]} N', N from {legal.min_to} to {legal.max_to}")
    if words and words[0].lower() in ("d", "discard") and len(words) == 1:
        raise PokerDraw32Error("say which cards to discard: 'd 1 3' (positions) or 'd Ah 7c'; 'p' stands pat")
    if words and words[0].lower() in ("d", "discard") and all(w.isdigit() for w in words[1:]):
        cards = _displayed(h, 0)                   # the order the hand is shown in, not the dealt order
        picks = []
        for w in words[1:]:
            i = int(w)
            if not 1 <= i <= len(cards):
                raise PokerDraw32Error(f"card position {i} is not 1..{len(cards)}")
            if cards[i - 1] in picks:
                raise PokerDraw32Error(f"card position {i} is given twice")
            picks.append(cards[i - 1])
        return Action.discard(picks)
    if words and words[0].lower() in ("a", "allin", "all-in"):
        if legal.max_to is not None:
            return Action(ActionKind.BET if ActionKind.BET in legal.kinds else ActionKind.RAISE, legal.max_to)
        return Action.call()
    action = Action.parse(text)
    if action.kind is ActionKind.DISCARD and legal.phase is Phase.DRAW:
        mine = _displayed(h, 0)                    # named in the order the prompt shows the hand
        missing = [c for c in action.cards if c not in mine]
        if missing:
            raise PokerDraw32Error(f"you cannot discard {format_cards(missing)}, not in your hand "
                                   f"({format_cards(mine)}) [R6.1]")
    return action


def _cmd_play(args: argparse.Namespace, out: TextIO, err: TextIO | None, inp: TextIO) -> int:
    rules = _rules_from(args)
    seed = args.seed if args.seed is not None else Rng().next_u64()
    rng = Rng(seed)
    stack = args.stack if args.stack is not None else 100 * rules.big_blind
    Hand(rules, [stack] * args.players, 0, seed=0)   # the table's limits, checked before any output [R3.2]
    check_fit(bot_factory(args.bots), rules, args.players)   # a bot that refuses the table: before any output
    bots = {s: make_bot(args.bots, rng.next_u64()) for s in range(1, args.players)}
    session = _Session([stack] * args.players, [stack] * args.players)
    out.write(f"32-Card Draw, {rules.structure.value}, preset {rules.name}, seed {seed}. You are seat 0.\n")
    try:
        code = _play_hands(args, out, inp, rules, rng, stack, bots, session)
    except KeyboardInterrupt:      # Ctrl-C: the summary q and end of input print, exit status 130
        out.write("\ninterrupted" + (": the unfinished hand is abandoned: its bets go back\n" if session.in_hand
                                      else "\n"))
        _session_summary(out, session.played, session.stacks, session.bought)
        _write(err, "\ninterrupted\n")
        return EXIT_INTERRUPTED
    _session_summary(out, session.played, session.stacks, session.bought)
    if code is None:
        return EXIT_OK
    out.write("bye\n")
    return code


class _Session:
    """A ``play`` session's running totals: the stacks before the hand in play, the chips each seat
    bought in for (re-buys included) and the hands played."""

    def __init__(self, stacks: list[int], bought: list[int]) -> None:
        self.stacks = stacks
        self.bought = bought
        self.played = 0
        self.in_hand = False


def _play_hands(args: argparse.Namespace, out: TextIO, inp: TextIO, rules: Rules, rng: Rng, stack: int,
                bots: dict[int, Bot], session: _Session) -> int | None:
    """The hands of a ``play`` session; ``None`` when they are all played (or the player, busted, does
    not re-buy), ``EXIT_OK`` when the player quits (``q`` or the end of input)."""
    stacks, bought = session.stacks, session.bought
    button = 0
    while args.hands is None or session.played < args.hands:
        for s in range(1, args.players):
            if stacks[s] == 0:
                stacks[s] = stack
                bought[s] += stack
                out.write(f"seat {s} re-buys for {stack}\n")
        if stacks[0] == 0:                  # --stack is the re-buy too: offered as the bots take it
            out.write(f"You are out of chips. Re-buy for {stack}? [y/n] ")
            out.flush()
            answer = inp.readline()
            if answer.strip().lower() not in ("y", "yes"):
                out.write("\n" if not answer.endswith("\n") else "")
                return None
            stacks[0] = stack
            bought[0] += stack
            out.write(f"you re-buy for {stack}\n")
        h = Hand(rules, stacks, button, rng=rng)
        session.in_hand = True
        out.write(f"\n=== hand {session.played + 1}: button seat {button}, stacks {stacks} ===\n")
        shown = 0
        offered = False        # a player chose split (R8.1) and the offer is still open
        while True:
            for ev in h.events_for(0)[shown:]:
                line = describe(ev, 0)
                if line:
                    out.write(line + "\n")
            shown = len(h.events)
            if offered and not h.offer_open and not h.is_complete:
                out.write("the Parole offer is off: the hand is played out\n")
            offered = h.offer_open and any(ev.kind is EventKind.SPLIT for ev in h.events)
            if h.is_complete:
                break
            if h.actor != 0:
                assert h.actor is not None
                h.act(bots[h.actor].decide(SeatView.of(h)))      # what the seat may know, never the dealer's hand
                continue
            legal = h.legal_actions()
            assert legal is not None
            mine = _displayed(h, 0)
            described = evaluate(mine, suit_tiebreak=rules.suit_tiebreak).description
            out.write(f"[pot {h.pot}, your stack {h.stacks[0]}, your bet {h.bets[0]}] "
                      f"your hand: {format_cards(mine)} ({described})\n{_prompt_help(h)}\n> ")
            out.flush()
            line = inp.readline()
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                out.write("\nthe unfinished hand is abandoned: its bets go back\n")
                return EXIT_OK
            try:
                h.act(_parse_human(line, h), seat=0)
            except (PokerDraw32Error, ValueError) as e:
                out.write(f"! {e}\n")
        assert h.result is not None
        stacks[:] = h.result.stacks
        session.in_hand = False
        out.write(f"result: {'+' if h.result.net[0] >= 0 else ''}{h.result.net[0]} for you; stacks {stacks}\n")
        session.played += 1
        button = (button + 1) % args.players
    return None


def _session_summary(out: TextIO, played: int, stacks: list[int], bought: list[int]) -> None:
    """The end of a ``play`` session: hands played and each seat's net chips (stack minus buy-ins)."""
    out.write(f"\n{played} hand{'' if played == 1 else 's'} played; net chips (stack minus buy-ins):\n")
    for s, (have, paid) in enumerate(zip(stacks, bought, strict=True)):
        who = "you (seat 0)" if s == 0 else f"seat {s}"
        out.write(f"  {who:<12} {have - paid:>+7}  (stack {have}, bought in {paid})\n")
