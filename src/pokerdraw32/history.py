"""Hand histories in the PHH format (phh-std), 32-Card Draw dialect: record, write, read, replay.

:meth:`HandHistory.from_hand` records a :class:`~pokerdraw32.hand.Hand`; :meth:`HandHistory.dumps`
writes a ``.phh`` document and :func:`dumps_all` / :class:`HistoryWriter` a ``.phhs`` file of
numbered tables ``[1]``, ``[2]`` ...; :meth:`HandHistory.loads` / :func:`loads_all` /
:func:`load_all` read them back, checking every field (:mod:`pokerdraw32.phh`), and
:meth:`HandHistory.replay` plays the actions through the engine with explicit deals, so every
rule is enforced again (R6.2's own-discard rule included).  The first problem raises
:class:`~pokerdraw32.phh.HistoryError` naming the file, the hand and the action index.

Actions (``pN`` = position N, ``p1`` left of the button, the button last; see :mod:`pokerdraw32.phh`):

=====================  ===========================================================================
``d dh pN AhAd7c8s9d``  hole cards (R5.1), and pN's replacements right after pN's discard (R6.1)
``pN f``                fold
``pN cc``               check, or call (all-in for less when short)
``pN cbr X``            bet or raise **to** X, pN's total bet of the current round (R3.4)
``pN sd`` / ``pN sd 7c8s``  stand pat / discard, in draw order (R6.1)
``pN sp``               Parole: split, a check plus a vote (R8.1); all-in, acceptance (R8.2)
``pN nsp``              an all-in player declines the Parole offer (R8.2)
``pN to``               timeout: the engine applies its consequence, which is not written again:
                        in the draw pN stands pat and may not bet or raise later (R6.3); in a
                        betting round pN checks if nothing is owed, else folds; all-in, declines (R7.3)
``d wr pN``             the server withdraws pN's right to raise for this turn (R7.3)
``pN sm AhKh..`` / ``pN sm``  show / muck at showdown, in the engine's order (R9.3); optional.
                        A player who could muck may show (``pN sm CARDS``), and with
                        ``muck_losers`` off may muck (``pN sm``): replay makes each the player's
                        choice (:meth:`Hand.set_showdown_choice`) before the showdown.  A player
                        who can win shows anyway, and shown cards must be the player's own: a
                        showdown that differs from the engine's is refused
=====================  ===========================================================================

Text after ``#`` in an action is commentary and is ignored; so are empty actions.  Chips posted
before the deal beyond the blinds (R10.2, R10.3) are in the user field ``_posts``.

>>> from pokerdraw32 import Hand, Rules
>>> h = Hand(Rules(), [100, 100, 100], button=0, seed=1)
>>> for action in ("c", "c", "k", "p", "p", "p", "k", "k", "k"):
...     _ = h.act(action)
>>> hh = HandHistory.from_hand(h)
>>> hh.actions[:4]
('d dh p1 QhKhTc7s8d', 'd dh p2 Ad9s9hKs8c', 'd dh p3 KdAc9d7h9c', 'p3 cc')
>>> hh.actions[-3:]
('p3 sm AcKd9d9c7h', 'p1 sm', 'p2 sm AdKs9h9s8c')
>>> hh.seats, hh.finishing_stacks                  # seat 1 is p1 (small blind), the button seat 0 is p3
((2, 3, 1), (98, 104, 98))
>>> again = HandHistory.loads(hh.dumps()).replay()
>>> again.events == h.events, again.result.stacks
(True, (98, 98, 104))
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .actions import Action, ActionKind, EventKind
from .errors import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, integer, shown
from .hand import Hand
from .phh import (
    MAX_SEAT,
    HistoryError,
    Where,
    check_fields,
    dumps_toml,
    format_cards_word,
    hand_tables,
    parse_cards_word,
    parse_toml,
    position_seats,
    rules_fields,
    seats_button,
)
from .rules import Rules

__all__ = ["MAX_HISTORY_BYTES", "HandHistory", "HistoryError", "HistoryWriter", "dumps_all", "load_all", "loads_all"]

MAX_HISTORY_BYTES = 64 * 2**20
"""Largest hand-history file :func:`load_all` reads (64 MiB): a larger file, or
an endless one such as ``/dev/zero``, is refused instead of read until memory runs out."""

_PLAYER = re.compile(r"p([1-9][0-9]?)")      # at most 5 players (R3.1): never a huge number to convert
_AMOUNT = re.compile(r"[0-9]{1,16}")
_SIMPLE = {"f": ActionKind.FOLD, "sp": ActionKind.SPLIT, "nsp": ActionKind.DECLINE, "to": ActionKind.TIMEOUT}
_CONSEQUENCES = frozenset({EventKind.DISCARD, EventKind.CHECK, EventKind.FOLD, EventKind.DECLINE})
_PHH_WORDS = {EventKind.DEAL_HOLE: "dh", EventKind.DEAL_DRAW: "dh", EventKind.FOLD: "f", EventKind.CHECK: "cc",
              EventKind.CALL: "cc", EventKind.BET: "cbr", EventKind.RAISE: "cbr", EventKind.SPLIT: "sp",
              EventKind.DECLINE: "nsp", EventKind.TIMEOUT: "to", EventKind.RAISE_WITHDRAWN: "wr",
              EventKind.DISCARD: "sd", EventKind.SHOW: "sm", EventKind.MUCK: "muck"}
"""The events a history writes, by the PHH word of their action (``muck``: written ``sm`` without cards)."""
_WRITTEN = frozenset({"variant", "antes", "blinds_or_straddles", "min_bet", "small_bet", "big_bet", "bring_in",
                      "starting_stacks", "actions", "hand", "table", "seats", "players", "finishing_stacks",
                      "_preset", "_posts", "_options"})
"""Fields a history writes from its own values: ``extra`` may not hold them."""


@dataclass(frozen=True)
class HandHistory:
    """One hand as PHH fields.  Per-player values are in position order (``p1`` first).

    :ivar rules: the rules (from ``variant``, the blinds, ``_preset`` and ``_options``).
    :ivar starting_stacks: stacks before the blinds.
    :ivar actions: the action strings.
    :ivar seats: physical seat numbers (``seats``); they fix the engine's seats and button on replay.
    :ivar finishing_stacks: stacks after the hand, checked on replay when present.
    :ivar hand: ``hand`` (number or name); ``table``, ``players``: the optional fields.
    :ivar posts: ``_posts``: live and dead chips each position posted before the deal beyond the
        blinds (R10.2, R10.3), or ``None`` when nobody did.
    :ivar extra: every other optional or user-defined field, kept as read.
    :ivar source: the file it was read from and ``number`` its hand number there (for errors only).
    """

    rules: Rules
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    seats: tuple[int, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    hand: int | str | None = None
    table: int | str | None = None
    players: tuple[str, ...] | None = None
    posts: tuple[tuple[int, int], ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    source: str | None = field(default=None, compare=False)
    number: object = field(default=None, compare=False)
    _finished: bool = field(default=False, init=False, repr=False, compare=False)
    """Recorded by :meth:`from_hand` from a finished hand, so known to replay: :class:`HistoryWriter`
    writes it without replaying it (``dataclasses.replace`` makes a copy without the mark)."""

    # ----------------------------------------------------------------------------- positions
    @property
    def players_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def button(self) -> int:
        """The engine's button seat (from ``seats``; without it, seat ``n - 1``)."""
        return seats_button(self.seats, self.players_count)

    def engine_seats(self) -> tuple[int, ...]:
        """The engine seat of each position ``p1 .. pn``."""
        return position_seats(self.players_count, self.button)

    # ----------------------------------------------------------------------------- recording
    @classmethod
    def from_hand(cls, hand: Hand, *, number: int | str | None = None, table: int | str | None = None,
                  players: Iterable[str] | None = None, seats: Sequence[int] | None = None,
                  extra: Mapping[str, Any] | None = None) -> HandHistory:
        """The history of ``hand`` (finished or not): every card it dealt, every action, and the
        chips posted beyond the blinds (``_posts``).  The showdown is written as it happened, a
        player's voluntary show or muck included (R9.3); a showdown choice of an unfinished hand
        is not written (PHH has no action for it).

        :param number: written as the ``hand`` field.
        :param players: names by engine seat.
        :param seats: physical seat numbers by engine seat, increasing clockwise (e.g. a table's
            seat numbers); default: engine seat + 1.  Either way a replay has the same engine
            seats and button, and logs the same events.
        :raises PokerDraw32TypeError: ``hand`` is not a :class:`Hand`, or an argument of the wrong
            type (``seats`` not a list of ints, ``players`` not a list of str, ``number`` or
            ``table`` not a str or an int, ``extra`` not a mapping with str keys, or holding a value
            TOML cannot write).
        :raises HistoryError: ``seats`` are not ``n`` increasing numbers 1 to 99, ``players`` not
            ``n`` names, ``number`` or ``table`` an int of more than 16 digits, or ``extra`` a field
            the history writes itself or one that :meth:`loads` would refuse.
        """
        if not isinstance(hand, Hand):
            raise PokerDraw32TypeError(f"hand must be a Hand, not {type(hand).__name__}")
        n, button = hand.n, hand.button
        order = position_seats(n, button)
        numbers = [s + 1 for s in range(n)]
        if seats is not None:
            numbers = []
            for i, v in enumerate(_items("seats", seats, f"{n} seat numbers")):
                number_i = integer(v)
                if number_i is None:
                    raise PokerDraw32TypeError(f"seats[{i}] is {shown(v)}: a seat number is an int 1 to {MAX_SEAT}")
                if not 1 <= number_i <= MAX_SEAT:
                    raise HistoryError(f"seats[{i}] is {shown(number_i)}: a seat number is 1 to {MAX_SEAT}")
                numbers.append(number_i)
            if len(numbers) != n or len(set(numbers)) != n or sorted(numbers) != numbers:
                raise HistoryError(f"seats {numbers}: {n} distinct seat numbers, increasing with the engine seat")
        names: list[str] | None = None
        if players is not None:
            names = _items("players", players, f"{n} names")
            for i, name in enumerate(names):
                if not isinstance(name, str):
                    raise PokerDraw32TypeError(f"players[{i}] is {shown(name)}: a player name is a str")
            if len(names) != n:
                raise HistoryError(f"players: {len(names)} names for {n} players, one per engine seat")
        _label("number", number)
        _label("table", table)
        if extra is not None and not isinstance(extra, Mapping):
            raise PokerDraw32TypeError(f"extra must be a mapping of PHH fields, not {type(extra).__name__}")
        for key in extra or {}:
            if not isinstance(key, str):
                raise PokerDraw32TypeError(f"extra: field names are str, not {shown(key)}")
            if key in _WRITTEN:
                raise HistoryError(f"extra: field {key!r} is written by the history itself")
        pos = {seat: i + 1 for i, seat in enumerate(order)}
        actions: list[str] = []
        extras = hand.posted_extras                  # R10.2, R10.3: chips actually posted
        posts = [list(extras.get(seat, (0, 0))) for seat in order]
        timed_out: int | None = None
        words = _PHH_WORDS
        for ev in hand.events:
            k = ev.kind
            word = words.get(k)
            if word is None:                     # a post, or an event PHH has no action for
                continue
            if timed_out is not None and k in _CONSEQUENCES:
                assert ev.seat == timed_out
                timed_out = None                 # the engine derives it from "pN to"
                continue
            p = f"p{pos[ev.seat]}" if ev.seat is not None else ""
            if word == "dh":
                actions.append(f"d dh {p} {format_cards_word(ev.cards)}")
            elif word == "cbr":
                actions.append(f"{p} cbr {ev.amount}")
            elif word == "wr":
                actions.append(f"d wr {p}")
            elif word == "sd":                   # a discard (a stand pat: no card)
                actions.append(f"{p} sd {format_cards_word(ev.cards)}" if ev.cards else f"{p} sd")
            elif word == "sm":                   # a show
                actions.append(f"{p} sm {format_cards_word(ev.cards)}")
            elif word == "muck":                 # shows nothing
                actions.append(f"{p} sm")
            else:
                actions.append(f"{p} {word}")
                if word == "to":
                    timed_out = ev.seat
        finishing = None
        if hand.result is not None:
            finishing = tuple(hand.result.stacks[s] for s in order)
        hh = cls(hand.rules, tuple(hand.starting_stacks[s] for s in order), tuple(actions),
                 seats=tuple(numbers[s] for s in order), finishing_stacks=finishing, hand=number, table=table,
                 players=tuple(names[s] for s in order) if names is not None else None,
                 posts=tuple((live, dead) for live, dead in posts) if any(map(any, posts)) else None,
                 extra=dict(extra or {}))
        if extra:       # the file must load again: each field as loads checks it, and writable as TOML
            dumps_toml(dict(extra))
            try:
                check_fields(hh.to_document(), Where())
            except HistoryError as e:
                raise HistoryError(f"extra: {e}") from None
        object.__setattr__(hh, "_finished", hand.is_complete)
        return hh

    # ----------------------------------------------------------------------------- documents
    def to_document(self) -> dict[str, Any]:
        """The PHH fields as a dict (TOML types), required fields first."""
        n = self.players_count
        fields = rules_fields(self.rules, n)
        doc: dict[str, Any] = {k: fields[k] for k in ("variant", "antes", "blinds_or_straddles")}
        for k in ("min_bet", "small_bet", "big_bet"):
            if k in fields:
                doc[k] = fields[k]
        doc["starting_stacks"] = list(self.starting_stacks)
        doc["actions"] = list(self.actions)
        for k in ("hand", "table", "seats", "players", "finishing_stacks"):
            value = getattr(self, k)
            if value is not None:
                doc[k] = list(value) if isinstance(value, tuple) else value
        doc["_preset"] = fields["_preset"]
        if self.posts is not None:
            doc["_posts"] = [list(pair) for pair in self.posts]
        doc.update(self.extra)
        if "_options" in fields:
            doc["_options"] = fields["_options"]
        return doc

    @classmethod
    def from_document(cls, doc: Mapping[str, Any], *, source: str | None = None,
                      number: object = None) -> HandHistory:
        """A history from one hand's PHH fields, every field checked (:func:`pokerdraw32.phh.check_fields`).

        :raises PokerDraw32TypeError: ``doc`` is not a mapping.
        :raises HistoryError: the first bad field, located by ``source`` and ``number``.
        """
        if not isinstance(doc, Mapping):
            raise PokerDraw32TypeError(f"a hand's PHH fields must be a mapping (dict), not {type(doc).__name__}")
        values = check_fields(doc, Where(source, number))
        return cls(**values, source=source, number=number)

    def dumps(self) -> str:
        """This hand as a ``.phh`` document (TOML)."""
        return dumps_toml(self.to_document())

    @classmethod
    def loads(cls, text: str, *, source: str | None = None) -> HandHistory:
        """One hand from a ``.phh`` document (or a ``.phhs`` file that holds exactly one hand).

        :raises HistoryError: bad TOML, a bad field, or not exactly one hand.
        """
        hands = list(loads_all(text, source=source))
        if len(hands) != 1:
            raise Where(source).error(f"expected one hand, the file has {len(hands)} (read a .phhs file of many "
                                      "hands with load_all or loads_all)")
        return hands[0]

    # ----------------------------------------------------------------------------- replay
    def replay(self, *, complete: bool = True) -> Hand:
        """Play the actions through a new :class:`~pokerdraw32.hand.Hand` (``auto_deal=False``: every
        card is dealt as written, R6.2 checked) and return it.

        The showdown lines (``pN sm``) are made the players' showdown choices
        (:meth:`Hand.set_showdown_choice`) before the first action, then checked against the
        engine's showdown (R9.3).

        :param complete: the actions must finish the hand (default); ``False`` allows a partial hand.
        :raises HistoryError: the first action that is malformed, out of turn or illegal (the
            engine's message, with its rule id), showdown actions that differ from the engine's,
            actions that end too early, or ``finishing_stacks`` that differ from the result.
        """
        where = Where(self.source, self.number)
        order = self.engine_seats()
        seat_pos = {seat: i + 1 for i, seat in enumerate(order)}
        stacks = [0] * self.players_count
        for i, seat in enumerate(order):
            stacks[seat] = self.starting_stacks[i]
        posts = {seat: self.posts[i] for i, seat in enumerate(order) if self.posts and any(self.posts[i])}
        try:
            h = Hand(self.rules, stacks, self.button, seed=0, auto_deal=False, posts=posts)
        except PokerDraw32Error as e:
            raise where.error(str(e), field="_posts" if posts else "starting_stacks") from None
        # R9.3: the showdown lines are the players' choices; made before the hand starts (the
        # reader looks ahead), they are then checked against what the engine shows and mucks
        for seat, show in _showdown_choices(self.actions, order):
            h.set_showdown_choice(seat, show)
        showdown: list[str] | None = None
        shown = 0
        for i, text in enumerate(self.actions):
            words = text.split("#", 1)[0].split()
            if not words:
                continue
            if h.is_complete:
                if showdown is None:
                    showdown = _showdown_actions(h, seat_pos)
                if len(words) < 2 or words[1] != "sm":
                    raise where.error("the hand is already over: only the showdown (pN sm) may follow",
                                      index=i, action=text)
                expected = showdown[shown] if shown < len(showdown) else None
                if expected is None or _showdown_key(words) != _showdown_key(expected.split()):
                    want = f"expected {expected!r}" if expected else "no more showdown actions"
                    raise where.error(f"the showdown differs from the engine's: {want} (R9.3)", index=i, action=text)
                shown += 1
                continue
            try:
                _apply(h, words, order, seat_pos)
            except PokerDraw32Error as e:
                named = getattr(e, "seat", None)        # the engine's errors name engine seats
                note = f" (seat {named} is p{seat_pos[named]})" if named in seat_pos else ""
                raise where.error(f"{e}{note}", index=i, action=text) from None
        if not h.is_complete:
            if complete:
                raise where.error(f"the actions end before the hand is over: {_next_step(h, seat_pos)}",
                                  index=len(self.actions))
            return h
        if shown:
            assert showdown is not None
            if shown < len(showdown):
                raise where.error(f"the showdown is incomplete: expected {showdown[shown]!r} (R9.3)",
                                  index=len(self.actions))
        assert h.result is not None
        if self.finishing_stacks is not None:
            final = tuple(h.result.stacks[s] for s in order)
            if final != self.finishing_stacks:
                diff = ", ".join(f"p{i + 1} {got} (file {want})" for i, (got, want)
                                 in enumerate(zip(final, self.finishing_stacks, strict=True)) if got != want)
                raise where.error(f"{list(self.finishing_stacks)} differ from the replay's {list(final)}: {diff} "
                                  "[R9]", field="finishing_stacks")
        return h

    def summary(self, hand: Hand) -> dict[str, Any]:
        """JSON-friendly result of ``hand`` (this history replayed), by position (1 = ``p1``):
        ``hand``, ``finishing_stacks``, ``pots`` (amount, eligible, winners, shared) and ``winners``.

        :raises PokerDraw32TypeError: ``hand`` is not a :class:`Hand`.
        :raises HistoryError: ``hand`` is not over, or has another number of players.
        """
        if not isinstance(hand, Hand):
            raise PokerDraw32TypeError(f"hand must be a Hand (this history replayed), not {type(hand).__name__}")
        if hand.n != self.players_count:
            raise HistoryError(f"hand has {hand.n} players, this history {self.players_count}: summarise the "
                               "history's own replay")
        if hand.result is None:
            raise HistoryError("hand is not over: a summary is of a finished hand (replay the history with "
                               "complete=True) [R9]")
        order = self.engine_seats()
        pos = {seat: i + 1 for i, seat in enumerate(order)}
        pots = [{"amount": p.amount, "eligible": sorted(pos[s] for s in p.eligible),
                 "winners": sorted(pos[s] for s in p.winners), "shared": p.shared} for p in hand.result.pots]
        winners = sorted({pos[s] for p in hand.result.pots for s in p.winners})
        number = self.number if self.number is not None else self.hand
        return {"file": self.source, "hand": number, "finishing_stacks": [hand.result.stacks[s] for s in order],
                "pots": pots, "winners": winners}


def _items(name: str, value: object, what: str) -> list[Any]:
    """``value`` (an argument that lists ``what``) as a list; a str, or a value that is not
    iterable, is a PokerDraw32TypeError naming the argument."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise PokerDraw32TypeError(f"{name} must be a list of {what}, not {type(value).__name__}")
    return list(value)


def _label(name: str, value: object) -> None:
    """Check ``number`` or ``table`` of :meth:`HandHistory.from_hand`: the PHH field is a str or an
    int of at most 16 digits (as :func:`loads_all` reads it)."""
    if value is None or isinstance(value, str):
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise PokerDraw32TypeError(f"{name} must be a str, an int or None, not {type(value).__name__}")
    if not -10**16 < value < 10**16:
        raise HistoryError(f"{name} {shown(value)} has more than 16 digits, the most a PHH integer has")


def _showdown_actions(h: Hand, seat_pos: Mapping[int, int]) -> list[str]:
    out = []
    for ev in h.events:
        if ev.kind is EventKind.SHOW or ev.kind is EventKind.MUCK:
            assert ev.seat is not None
            cards = f" {format_cards_word(ev.cards)}" if ev.kind is EventKind.SHOW else ""
            out.append(f"p{seat_pos[ev.seat]} sm{cards}")
    return out


def _showdown_choices(actions: Sequence[str], order: tuple[int, ...]) -> Iterator[tuple[int, bool]]:
    """(engine seat, show) of each well-formed ``pN sm [cards]`` action: a show or a muck the
    player chose (R9.3).  Malformed ones are left for the replay to report in order."""
    for text in actions:
        words = text.split("#", 1)[0].split()
        if len(words) >= 2 and words[1] == "sm":
            m = _PLAYER.fullmatch(words[0])
            if m is not None and int(m.group(1)) <= len(order):
                yield order[int(m.group(1)) - 1], len(words) > 2


def _showdown_key(words: list[str]) -> tuple[str, object]:
    """(player, shown cards as a set, or None for a muck) of a ``pN sm [cards]`` action: the cards
    may come in any order."""
    if len(words) == 3:
        try:
            return (words[0], frozenset(parse_cards_word(words[2])))
        except PokerDraw32Error:
            pass
    return (words[0], None if len(words) == 2 else " ".join(words[2:]))


def _next_step(h: Hand, seat_pos: Mapping[int, int]) -> str:
    req = h.pending_deal
    if req is not None:
        return f"the dealer must deal {req.count} card(s) to p{seat_pos[req.seat]} (d dh p{seat_pos[req.seat]} ...)"
    assert h.actor is not None
    return f"p{seat_pos[h.actor]} is to act"


def _player(word: str, order: tuple[int, ...]) -> int:
    """The engine seat of the player word ``pN``."""
    m = _PLAYER.fullmatch(word)
    if m is None:
        raise PokerDraw32Error(f"unknown actor {shown(word)}: expected d (the dealer) or p1..p{len(order)}")
    k = int(m.group(1))
    if k > len(order):
        raise PokerDraw32Error(f"no player {word}: the hand has {len(order)} players (p1..p{len(order)})")
    return order[k - 1]


def _apply(h: Hand, words: list[str], order: tuple[int, ...], seat_pos: Mapping[int, int]) -> None:
    """Apply one tokenised action to ``h``; raises PokerDraw32Error (the engine's, or a syntax error)."""
    actor, verb, args = words[0], (words[1] if len(words) > 1 else ""), words[2:]
    if actor == "d":
        if verb == "dh":
            if len(args) != 2:
                raise PokerDraw32Error("expected d dh pN CARDS, e.g. 'd dh p1 AhAd7c8s9d'")
            seat = _player(args[0], order)
            req = h.pending_deal
            if req is None:
                raise PokerDraw32Error(f"no deal is pending: {_next_step(h, seat_pos)}")
            if req.seat != seat:
                raise PokerDraw32Error(f"the dealer deals to p{seat_pos[req.seat]} next, not {args[0]} "
                                       f"[{'R5.1' if req.kind == 'hole' else 'R6.1'}]")
            h.deal(parse_cards_word(args[1]))
        elif verb == "wr":
            if len(args) != 1:
                raise PokerDraw32Error("expected d wr pN")
            seat = _player(args[0], order)
            if h.actor != seat or h.pending_deal is not None:
                raise PokerDraw32Error(f"{args[0]} is not to act: {_next_step(h, seat_pos)} [R7.3]")
            h.withdraw_raise()
        elif verb == "db":
            raise PokerDraw32Error("32-Card Draw has no board cards (d db)")
        else:
            raise PokerDraw32Error(f"unknown dealer action {verb!r}: expected dh (deal) or wr (withdraw a raise)")
        return
    seat = _player(actor, order)
    if verb not in ("f", "cc", "cbr", "sd", "sp", "nsp", "to", "sm"):
        raise PokerDraw32Error(f"unknown action {verb!r}: expected f, cc, cbr, sd, sp, nsp, to or sm")
    if verb == "sm":
        raise PokerDraw32Error(f"showdown before the hand is over: {_next_step(h, seat_pos)} [R9.3]")
    if verb in ("cbr", "sd"):
        if len(args) > 1 or (verb == "cbr" and not args):
            raise PokerDraw32Error(f"expected {actor} cbr AMOUNT" if verb == "cbr" else f"expected {actor} sd [CARDS]")
    elif args:
        raise PokerDraw32Error(f"{verb} takes no argument, got {' '.join(args)!r}")
    if h.pending_deal is not None or h.actor != seat:
        who = "out of turn" if h.pending_deal is None else "before the deal"
        rule = "R6.1" if h.pending_deal is not None or h.phase.value == "draw" else "R5.2"
        raise PokerDraw32Error(f"{actor} acted {who}: {_next_step(h, seat_pos)} [{rule}]")
    legal = h.legal_actions()
    assert legal is not None
    action: Action
    if verb in _SIMPLE:
        action = Action(_SIMPLE[verb])
    elif verb == "cc":
        action = Action.check() if ActionKind.CHECK in legal.kinds else Action.call()
    elif verb == "sd":
        action = Action.discard(parse_cards_word(args[0]) if args else ())
    else:
        if not _AMOUNT.fullmatch(args[0]):
            if re.fullmatch(r"[0-9]+", args[0]):
                raise PokerDraw32Error(f"cbr amount {shown(args[0])} has {len(args[0])} digits: a number of chips "
                                       "has at most 16 [R3.2]")
            raise PokerDraw32Error(f"cbr amount {shown(args[0])} is not a whole number of chips [R3.2]")
        kind = ActionKind.BET if ActionKind.BET in legal.kinds else ActionKind.RAISE
        action = Action(kind, int(args[0]))
    h.act(action, seat=seat)


# --------------------------------------------------------------------------------------- files

def loads_all(text: str, *, source: str | None = None) -> Iterator[HandHistory]:
    """The hands of a ``.phh`` document (one) or a ``.phhs`` file (numbered tables, in file order).

    The TOML is read when this is called; each hand's fields are checked when it is reached, so
    a bad hand is reported after the good ones before it have been yielded; a ``.phh`` hand is hand 1.

    :raises PokerDraw32TypeError: ``text`` is not a str.
    :raises HistoryError: bad TOML (when called), or the first bad field of a hand (when reached).
    """
    where = Where(source)
    tables = hand_tables(parse_toml(text, where), where)
    return (HandHistory.from_document(table, source=source, number=1 if name is None else int(name))
            for name, table in tables)


def load_all(path: str | os.PathLike[str]) -> Iterator[HandHistory]:
    """The hands of the ``.phh`` or ``.phhs`` file at ``path`` (see :func:`loads_all`).  The file is
    read, and its TOML parsed, when this is called: a missing file raises here, not when the
    iteration starts.

    :raises PokerDraw32TypeError: ``path`` is not a str or an ``os.PathLike`` of one.
    :raises PokerDraw32ValueError: ``path`` holds a NUL character or cannot be encoded as a file name.
    :raises OSError: the file cannot be read (``FileNotFoundError`` for a missing one).
    :raises HistoryError: it is larger than :data:`MAX_HISTORY_BYTES`, not valid UTF-8 TOML, or a
        hand has a bad field (when that hand is reached).
    """
    name = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(name, str):
        raise PokerDraw32TypeError(f"path must be a str or an os.PathLike, not {type(path).__name__}")
    if "\x00" in name:
        raise PokerDraw32ValueError(f"path {shown(name)} holds a NUL character, which no file name has")
    try:
        with Path(name).open("rb") as f:
            data = f.read(MAX_HISTORY_BYTES + 1)
    except UnicodeEncodeError as e:         # a lone surrogate, say: no file has that name
        raise PokerDraw32ValueError(f"path {shown(name)} is not a valid file name: {e.reason}") from None
    if len(data) > MAX_HISTORY_BYTES:
        raise Where(name).error(f"larger than {MAX_HISTORY_BYTES // 2**20} MiB, the most a hand history file "
                                "may hold: split it into several files")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Where(name).error(f"not UTF-8 text: {e}") from None
    return loads_all(text, source=name)


def dumps_all(histories: Iterable[HandHistory]) -> str:
    """A ``.phhs`` file: the hands as tables ``[1]``, ``[2]`` ...

    :raises PokerDraw32TypeError: ``histories`` is not an iterable of :class:`HandHistory`.
    """
    if isinstance(histories, (str, bytes)) or not isinstance(histories, Iterable):
        raise PokerDraw32TypeError(f"histories must be an iterable of HandHistory, not {type(histories).__name__}")
    parts = []
    for i, hh in enumerate(histories):
        if not isinstance(hh, HandHistory):
            raise PokerDraw32TypeError(f"histories[{i}] is a {type(hh).__name__}, not a HandHistory")
        parts.append(dumps_toml({str(i + 1): hh.to_document()}))
    return "\n".join(parts)


class HistoryWriter:
    """Writes hands to a ``.phhs`` stream as they finish: :meth:`write` a :class:`Hand` (recorded
    with :meth:`HandHistory.from_hand`, its number as the ``hand`` field) or a :class:`HandHistory`.

    >>> import io
    >>> from pokerdraw32 import Hand, Rules
    >>> out = io.StringIO()
    >>> w = HistoryWriter(out)
    >>> h = Hand(Rules(), [50, 50], button=0, seed=5)
    >>> _ = h.fold()
    >>> w.write(h); w.write(h)
    >>> [hh.number for hh in loads_all(out.getvalue())], w.count
    ([1, 2], 2)
    """

    def __init__(self, stream: TextIO) -> None:
        """:raises PokerDraw32TypeError: ``stream`` has no ``write`` method."""
        if not callable(getattr(stream, "write", None)):
            raise PokerDraw32TypeError(f"stream must be a text stream (with a write method), not "
                                       f"{type(stream).__name__}")
        self.stream = stream
        self.count = 0

    def write(self, hand: Hand | HandHistory) -> None:
        """Append ``hand`` as the next numbered table.

        A :class:`HandHistory` not recorded by :meth:`HandHistory.from_hand` from a finished hand
        (read from a file, or built by hand) is replayed first, so every history written replays.

        :raises PokerDraw32TypeError: ``hand`` is neither a :class:`Hand` nor a :class:`HandHistory`,
            or the stream does not take text.
        :raises HistoryError: ``hand`` is not over (a :class:`Hand`, or a history whose actions
            end before the hand does): :meth:`HandHistory.replay` (and ``pokerdraw32 replay``)
            would refuse it; or a history whose replay fails.  Nothing is written.
            :meth:`Table.write_history` writes finished hands only.
        """
        if not isinstance(hand, (Hand, HandHistory)):
            raise PokerDraw32TypeError(f"hand must be a Hand or a HandHistory, not {type(hand).__name__}")
        number = self.count + 1
        if isinstance(hand, Hand) or not hand._finished:
            if isinstance(hand, Hand):
                h, order = hand, position_seats(hand.n, hand.button)
            else:                               # known to replay only once replayed
                h, order = hand.replay(complete=False), hand.engine_seats()
            if not h.is_complete:
                seat_pos = {seat: i + 1 for i, seat in enumerate(order)}
                raise HistoryError(f"the hand is not over ({_next_step(h, seat_pos)}): a history of an unfinished "
                                   "hand cannot be replayed; write it when it is complete [R9]", hand=number)
        hh = hand if isinstance(hand, HandHistory) else HandHistory.from_hand(hand, number=number)
        text = ("\n" if number > 1 else "") + dumps_toml({str(number): hh.to_document()})
        try:
            self.stream.write(text)
        except TypeError as e:          # a binary stream
            raise PokerDraw32TypeError(f"stream must take text (str): {e}") from None
        self.count = number
