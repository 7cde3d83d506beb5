"""Actions, legal-action sets and events of a hand: small immutable records.

>>> Action.raise_to(30)
Action(kind=<ActionKind.RAISE: 'raise'>, amount=30, cards=())
>>> Action.parse("d Ah 7c")
Action(kind=<ActionKind.DISCARD: 'discard'>, amount=None, cards=(Card('Ah'), Card('7c')))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from enum import Enum

from .cards import _NAMES as _CARD_NAMES
from .cards import Card, CardsLike, format_cards, parse_cards
from .errors import MAX_CHIPS, IllegalActionError, SnapshotError, integer, shown

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 10 ms) at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Action", "ActionKind", "Event", "EventKind", "LegalActions", "Phase"]


if TYPE_CHECKING:   # for type checkers: the standard metaclass, which they know makes enums
    from enum import EnumMeta as _EnumType
else:
    class _EnumType(type(Enum)):
        """The metaclass of the engine's enums: the standard one (``enum.EnumType``), under a name of
        the engine's own.  Python 3.10 and 3.11 read every attribute of an enum class (``ActionKind.CALL``
        in a bot's loop) through ``EnumType.__getattr__``'s slow path; the compiled engine gives this
        class a faster one with the same results (see ``pokerdraw32._handcore.state_view``); other enums are
        left as they are."""


class Phase(Enum, metaclass=_EnumType):
    """Where a hand stands."""

    __hash__ = object.__hash__   # members are singletons: identity hash, computed in C

    DEAL = "deal"
    """Hole cards are being dealt (R5.1); only dealer steps are pending."""
    FIRST_ROUND = "first-round"
    """First betting round (R5)."""
    DRAW = "draw"
    """The draw (R6)."""
    SECOND_ROUND = "second-round"
    """Second betting round (R7, R8)."""
    COMPLETE = "complete"
    """The hand is over; pots are awarded (R9)."""


class ActionKind(Enum, metaclass=_EnumType):
    """What a player may do."""

    __hash__ = object.__hash__   # members are singletons: identity hash, computed in C

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    """Open the betting in the second round; ``amount`` = total bet (R7.2)."""
    RAISE = "raise"
    """Raise; ``amount`` = the total bet of the round raised *to* (R3.4)."""
    SPLIT = "split"
    """Parole: check plus a vote to share the pot (R8.1); for an all-in player, acceptance (R8.2)."""
    DECLINE = "decline"
    """An all-in player declines the Parole offer (R8.2)."""
    DISCARD = "discard"
    """Discard 0-4 cards in the draw (R6.1); no cards = stand pat."""
    TIMEOUT = "timeout"
    """The server reports that the player ran out of time (R6.3, R7.3)."""


_ABBREV = {
    "f": ActionKind.FOLD, "fold": ActionKind.FOLD, "muck": ActionKind.FOLD,
    "k": ActionKind.CHECK, "x": ActionKind.CHECK, "check": ActionKind.CHECK,
    "c": ActionKind.CALL, "call": ActionKind.CALL,
    "b": ActionKind.BET, "bet": ActionKind.BET,
    "r": ActionKind.RAISE, "raise": ActionKind.RAISE,
    "s": ActionKind.SPLIT, "split": ActionKind.SPLIT, "parole": ActionKind.SPLIT, "accept": ActionKind.SPLIT,
    "n": ActionKind.DECLINE, "decline": ActionKind.DECLINE,
    "d": ActionKind.DISCARD, "discard": ActionKind.DISCARD, "draw": ActionKind.DISCARD,
    "p": ActionKind.DISCARD, "pat": ActionKind.DISCARD, "stand": ActionKind.DISCARD,
    "t": ActionKind.TIMEOUT, "timeout": ActionKind.TIMEOUT,
}


@dataclass(frozen=True)
class Action:
    """One player action. Build with the class methods (:meth:`fold`, :meth:`raise_to` ...).

    :ivar kind: the :class:`ActionKind`.
    :ivar amount: for BET/RAISE, the player's total bet in this round after the action, in chips.
    :ivar cards: for DISCARD, the cards thrown away (empty = stand pat).
    """

    kind: ActionKind
    amount: int | None = None
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            try:
                object.__setattr__(self, "kind", ActionKind(self.kind))
            except ValueError:
                raise IllegalActionError(f"unknown action kind {shown(self.kind)}; use one of "
                                         f"{', '.join(k.value for k in ActionKind)}") from None
        if self.kind in (ActionKind.BET, ActionKind.RAISE):
            amt = integer(self.amount)   # a plain int, checked and used
            if amt is None:
                raise IllegalActionError(f"{self.kind.value} amount {shown(self.amount)} is not an integer number "
                                         "of chips", rule="R3.2")
            if amt > MAX_CHIPS:
                raise IllegalActionError(f"{self.kind.value} amount {shown(amt)} is beyond the largest amount of "
                                         f"chips ({MAX_CHIPS})", rule="R3.2")
            if amt < -MAX_CHIPS:     # smaller negatives reach the hand, which names the legal range
                raise IllegalActionError(f"{self.kind.value} amount {shown(amt)} is negative: an amount of chips "
                                         f"is 0 to {MAX_CHIPS}", rule="R3.2")
            object.__setattr__(self, "amount", int(amt))
        elif self.amount is not None:
            raise IllegalActionError(f"{self.kind.value} takes no amount, got {shown(self.amount)}")
        if self.kind is ActionKind.DISCARD:
            if isinstance(self.cards, str) or self.cards is None:
                raise IllegalActionError(f"discard cards must be a tuple of cards, got {shown(self.cards)}",
                                         rule="R6.1")
            object.__setattr__(self, "cards", parse_cards(self.cards))
        elif self.cards:
            raise IllegalActionError(f"{self.kind.value} takes no cards, got {shown(self.cards)}")

    @classmethod
    def fold(cls) -> Action:
        return _CONSTANT[ActionKind.FOLD] if cls is Action else cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return _CONSTANT[ActionKind.CHECK] if cls is Action else cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return _CONSTANT[ActionKind.CALL] if cls is Action else cls(ActionKind.CALL)

    @classmethod
    def bet(cls, amount: int) -> Action:
        """Bet ``amount`` chips (second round, nothing bet yet)."""
        return cls(ActionKind.BET, amount)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        """Raise to a total round bet of ``amount`` chips."""
        return cls(ActionKind.RAISE, amount)

    @classmethod
    def split(cls) -> Action:
        return _CONSTANT[ActionKind.SPLIT] if cls is Action else cls(ActionKind.SPLIT)

    @classmethod
    def decline(cls) -> Action:
        return _CONSTANT[ActionKind.DECLINE] if cls is Action else cls(ActionKind.DECLINE)

    @classmethod
    def discard(cls, cards: CardsLike = ()) -> Action:
        """Discard the given cards (R6.1); ``discard()`` stands pat."""
        if cls is Action and isinstance(cards, tuple) and not cards:
            return _CONSTANT[ActionKind.DISCARD]
        return cls(ActionKind.DISCARD, None, parse_cards(cards))

    @classmethod
    def stand_pat(cls) -> Action:
        return _CONSTANT[ActionKind.DISCARD] if cls is Action else cls(ActionKind.DISCARD, None, ())

    @classmethod
    def timeout(cls) -> Action:
        return _CONSTANT[ActionKind.TIMEOUT] if cls is Action else cls(ActionKind.TIMEOUT)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse a short command: ``f``, ``k``/``x`` (check), ``c``, ``b 10``, ``r 30``, ``s`` (split),
        ``n`` (decline), ``d Ah 7c`` (discard), ``p`` (stand pat), ``t`` (timeout); and every text
        ``str(action)`` writes (``"raise 30"``, ``"stand pat"``), so ``Action.parse(str(a)) == a``.

        :raises IllegalActionError: for an unknown word or a missing/bad amount.
        :raises InvalidCardError: for a bad card in a discard.
        """
        if not isinstance(text, str):
            raise IllegalActionError(f"an action text must be a string, got {shown(text)}")
        words = text.strip().split(None, 1)
        if not words:
            raise IllegalActionError("empty action")
        head = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        kind = _ABBREV.get(head)
        if kind is None:
            raise IllegalActionError(f"unknown action {words[0]!r}: use f (fold), k or x (check), c (call), "
                                     "b N (bet N), r N (raise to N), s (Parole split), n (decline), "
                                     "d CARDS (discard), p (stand pat), t (timeout)")
        if kind in (ActionKind.BET, ActionKind.RAISE):
            amount = rest.strip()
            if not re.fullmatch(r"[0-9]{1,16}", amount):
                raise IllegalActionError(f"{kind.value} needs a whole number of chips, got {shown(amount)}")
            return cls(kind, int(amount))
        if kind is ActionKind.DISCARD and head not in ("p", "pat", "stand"):
            return cls(kind, None, parse_cards(rest))
        if head == "stand" and rest.strip().lower() == "pat":
            return cls(kind)                                # "stand pat", as str() writes it
        if rest.strip():
            raise IllegalActionError(f"{words[0]} takes no argument, got {shown(rest.strip())}")
        return cls(kind)

    def __str__(self) -> str:
        if self.kind in (ActionKind.BET, ActionKind.RAISE):
            return f"{self.kind.value} {self.amount}"
        if self.kind is ActionKind.DISCARD:
            return f"discard {format_cards(self.cards)}" if self.cards else "stand pat"
        return str(self.kind.value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        d: dict[str, Any] = {"kind": self.kind.value}
        if self.amount is not None:
            d["amount"] = self.amount
        if self.kind is ActionKind.DISCARD:
            d["cards"] = [str(c) for c in self.cards]
        return d


# Argument-free actions are immutable values: the class methods hand out one shared instance each.
_CONSTANT: dict[ActionKind, Action] = {
    kind: Action(kind) for kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.SPLIT,
                                    ActionKind.DECLINE, ActionKind.DISCARD, ActionKind.TIMEOUT)
}


def _set_fields(obj: Any, state: Any) -> None:
    """``__setstate__`` of the slotted event and legal-action classes: the field values in order,
    or the instance dict that pickles of earlier versions (without slots) hold."""
    names = [f.name for f in fields(obj)]
    values = [state[name] for name in names] if isinstance(state, dict) else list(state)
    for name, value in zip(names, values, strict=True):
        object.__setattr__(obj, name, value)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do now.

    :ivar seat: the seat to act.
    :ivar phase: the :class:`Phase`.
    :ivar kinds: the allowed :class:`ActionKind` values (TIMEOUT is always allowed and not listed).
    :ivar call_amount: chips a CALL adds (0 when checking is allowed).
    :ivar min_to: smallest total round bet for BET/RAISE, or ``None`` when neither is allowed.
    :ivar max_to: largest total round bet for BET/RAISE (all-in or the limit), or ``None``.
    :ivar max_discard: most cards that may be discarded (4 in the draw, else 0).
    """

    seat: int
    phase: Phase
    kinds: frozenset[ActionKind]
    call_amount: int = 0
    min_to: int | None = None
    max_to: int | None = None
    max_discard: int = 0
    hole_cards: tuple[Card, ...] = field(default=(), repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy by the constructor (a frozen class with __slots__: no instance dict)
        return (LegalActions, (self.seat, self.phase, self.kinds, self.call_amount, self.min_to, self.max_to,
                               self.max_discard, self.hole_cards))

    def __setstate__(self, state: Any) -> None:
        _set_fields(self, state)

    def __contains__(self, kind: object) -> bool:
        """``ActionKind.CALL in legal`` or ``"call" in legal``."""
        if isinstance(kind, str):
            return any(k.value == kind for k in self.kinds)
        return kind in self.kinds

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "seat": self.seat,
            "phase": self.phase._value_,                       # .value, without the enum property
            "kinds": sorted([k._value_ for k in self.kinds]),
            "call_amount": self.call_amount,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "max_discard": self.max_discard,
        }


class EventKind(Enum, metaclass=_EnumType):
    """Kinds of :class:`Event` in a hand's log."""

    __hash__ = object.__hash__   # members are singletons: identity hash, computed in C

    POST_BLIND = "post_blind"
    DEAL_HOLE = "deal_hole"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    SPLIT = "split"
    DECLINE = "decline"
    TIMEOUT = "timeout"
    RAISE_WITHDRAWN = "raise_withdrawn"
    DISCARD = "discard"
    RESHUFFLE = "reshuffle"
    DEAL_DRAW = "deal_draw"
    ROUND_END = "round_end"
    RETURN_UNCALLED = "return_uncalled"
    SHOW = "show"
    MUCK = "muck"
    AWARD = "award"
    HAND_END = "hand_end"


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a hand's log; immutable.

    :ivar kind: the :class:`EventKind`.
    :ivar seat: the seat concerned, if any.
    :ivar amount: chips moved or the total bet reached (BET/RAISE: the total round bet), if any.
    :ivar cards: cards concerned (hole cards, discards, shown cards), if any.  Hidden from
        other seats in views.
    :ivar info: extra details as a tuple of ``(key, value)`` pairs, e.g. ``(("blind", "small"),
        ("all_in", False))``; read one with :meth:`get` (``ev.get("blind")``); :meth:`to_dict`
        flattens them into the dict.
    """

    kind: EventKind
    seat: int | None = None
    amount: int | None = None
    cards: tuple[Card, ...] = ()
    info: tuple[tuple[str, Any], ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy by the constructor (a frozen class with __slots__: no instance dict)
        return (Event, (self.kind, self.seat, self.amount, self.cards, self.info))

    def __setstate__(self, state: Any) -> None:
        _set_fields(self, state)

    def get(self, key: str, default: Any = None) -> Any:
        """Value of ``key`` in :attr:`info`."""
        for k, v in self.info:
            if k == key:
                return v
        return default

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        d: dict[str, Any] = {"kind": self.kind._value_}           # .value, without the enum property
        if self.seat is not None:
            d["seat"] = self.seat
        if self.amount is not None:
            d["amount"] = self.amount
        if self.cards:
            d["cards"] = [_CARD_NAMES[c] for c in self.cards]     # str(card)
        for k, v in self.info:
            d[k] = v
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """Rebuild an event from :meth:`to_dict` output (for example after a JSON round trip):
        ``Event.from_dict(json.loads(json.dumps(ev.to_dict()))) == ev``.

        Lists in the details come back as tuples, as the engine logs them.

        :raises SnapshotError: (a ValueError) not a dict, an unknown ``kind`` (any value but one of
            :class:`EventKind`'s names, however deeply nested), a bad seat or amount, cards that are
            not a list, details nested more than 8 deep.
        :raises InvalidCardError: a bad card (R1.3).
        """
        if not isinstance(data, dict):
            raise SnapshotError(f"an event must be a dict, got {shown(data)}")
        raw = data.get("kind")
        if not isinstance(raw, str) or raw not in _EVENT_KINDS:   # EventKind(x) would repr x, any depth
            raise SnapshotError(f"event has no valid kind: {shown(raw)}")
        kind = _EVENT_KINDS[raw]
        seat = data.get("seat")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 5):
            raise SnapshotError(f"{kind.value} event: seat {shown(seat)} is not a seat 0..4")
        amount = data.get("amount")
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)
                                   or not 0 <= amount <= MAX_CHIPS):
            raise SnapshotError(f"{kind.value} event: amount {shown(amount)} is not a number of chips [R3.2]")
        cards = data.get("cards", [])
        if not isinstance(cards, list):
            raise SnapshotError(f"{kind.value} event: cards must be a list, got {shown(cards)}")
        info = tuple((k, _tupled(v, kind)) for k, v in data.items() if k not in _EVENT_FIELDS)
        return cls(kind, seat, amount, parse_cards(cards, allow_duplicates=False), info)

    def __str__(self) -> str:
        parts = [self.kind.value]
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        if self.amount is not None:
            parts.append(str(self.amount))
        if self.cards:
            parts.append(format_cards(self.cards))
        parts.extend(f"{k}={v}" for k, v in self.info)
        return " ".join(parts)


_EVENT_FIELDS = frozenset({"kind", "seat", "amount", "cards"})
_EVENT_KINDS = {k.value: k for k in EventKind}


def _tupled(value: Any, kind: EventKind, depth: int = 0) -> Any:
    """Lists as tuples, as the engine logs them (dicts stay dicts); the engine's details nest at
    most 2 deep, so deeper data (lists or dicts) is refused before it can exhaust the stack."""
    if not isinstance(value, (list, dict)):
        return value
    if depth >= _MAX_INFO_DEPTH:
        raise SnapshotError(f"{kind.value} event: details nested more than {_MAX_INFO_DEPTH} deep")
    if isinstance(value, dict):
        for v in value.values():
            _tupled(v, kind, depth + 1)
        return value
    return tuple(_tupled(v, kind, depth + 1) for v in value)


_MAX_INFO_DEPTH = 8


# A constructor for events built from values already validated (a private event as others see it,
# pokerdraw32._handcore.events.hidden).  The hand's core builds its events and legal actions without the
# dataclass __init__ (pokerdraw32._handcore.state.make_event, C calls when compiled).


def _event(kind: EventKind, seat: int | None = None, amount: int | None = None, cards: tuple[Card, ...] = (),
           info: tuple[tuple[str, Any], ...] = ()) -> Event:
    return Event(kind, seat, amount, cards, info)
