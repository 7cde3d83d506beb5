"""The PHH file format for 32-Card Draw, field by field: TOML, variants, blinds, positions, cards.

This module reads and writes the *fields* of a Poker Hand History (phh-std) document and
checks each one; :mod:`pokerdraw32.history` turns the ``actions`` into engine calls and back.

* ``variant`` is ``N32D``, ``P32D`` or ``F32D`` (no-limit, pot-limit, fixed-limit, R3.4).
* Per-player arrays are in **position** order: ``p1`` is the first player left of the button
  (the first dealt a card, R5.1), clockwise, the button last.  Heads-up ``p1`` is the
  non-dealer and ``p2`` the button (R4.3).  The engine's seats are mapped by
  :func:`position_seats`; the optional ``seats`` field gives them back (see :func:`seats_button`).
* ``blinds_or_straddles`` holds each position's blind (R4.2): ``[sb, bb, 0]``, ``[sb, bb, ob, 0]``,
  heads-up ``[sb, bb]`` (``[bb, sb]`` with ``heads_up_button_posts_small``); ``antes`` are zeros;
  ``min_bet`` is the largest blind L (N32D, P32D), ``small_bet`` / ``big_bet`` are L and 2L (F32D).
* The user fields ``_preset`` (``"classic"`` or ``"two-blind"``) and ``_options`` (each rules
  option of RULES.md that differs from the preset; ``cap = "none"`` for no cap) make a file
  determine its rules completely.
* The user field ``_posts`` (only when someone posts beyond the blinds) holds each position's
  ``[live, dead]`` chips posted before the deal: an entry bet (R10.2) or missed blinds (R10.3).

>>> from pokerdraw32 import Rules
>>> fields = rules_fields(Rules.preset("two-blind", structure="fixed-limit", parole=False), 4)
>>> fields["variant"], fields["blinds_or_straddles"], fields["small_bet"], fields["big_bet"], fields["_options"]
('F32D', [1, 2, 0, 0], 2, 4, {'parole': False})
>>> position_seats(3, button=0)          # p1 = seat 1 (small blind), p2 = seat 2, p3 = seat 0 (button)
(1, 2, 0)
>>> parse_cards_word("AhTd7s")
(Card('Ah'), Card('Td'), Card('7s'))
"""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import tomli_w

from .cards import Card, format_cards, parse_card
from .errors import MAX_CHIPS, PokerDraw32TypeError, PokerDraw32ValueError, RulesError, shown
from .rules import PRESETS, Rules, SecondRoundFirst, Structure

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "MAX_SEAT",
    "VARIANTS",
    "HistoryError",
    "Where",
    "check_fields",
    "dumps_toml",
    "format_cards_word",
    "hand_tables",
    "parse_cards_word",
    "parse_toml",
    "position_seats",
    "rules_fields",
    "seats_button",
]

VARIANTS: dict[str, Structure] = {
    "N32D": Structure.NO_LIMIT,
    "P32D": Structure.POT_LIMIT,
    "F32D": Structure.FIXED_LIMIT,
}
"""The variant codes of this dialect and their betting structures (R3.4)."""
_CODES = {structure: code for code, structure in VARIANTS.items()}

_BOOL_OPTIONS = ("over_blind", "heads_up_button_posts_small", "suit_tiebreak", "reshuffle_folded", "parole",
                 "muck_losers")
_OPTIONS = (*_BOOL_OPTIONS, "cap", "second_round_first", "ob")
"""Keys allowed in ``_options``: sb and bb come from the blinds, the structure from the variant."""


class HistoryError(PokerDraw32ValueError):
    """A hand history that is not valid PHH of this dialect, or that the rules do not allow.

    The message starts with where the problem is: the file, the hand (its table name in a
    ``.phhs`` file, 1 in a ``.phh`` file), then the field or ``actions[i]`` with the action.

    :ivar file: the file name, when known.
    :ivar hand: the hand's number or label, when known.
    :ivar index: the index of the offending action in ``actions`` (``len(actions)`` when they end
        too early), or ``None`` for a problem with another field.
    :ivar reason: the message without the location.
    """

    def __init__(self, reason: str, *, file: str | None = None, hand: object = None, index: int | None = None,
                 action: str | None = None, field: str | None = None) -> None:
        where = []
        if file is not None:
            where.append(str(file))
        if hand is not None:
            where.append(f"hand {hand}")
        if field is not None:
            where.append(f"field {field!r}")
        if index is not None:
            where.append(f"actions[{index}]" + (f" {shown(action)}" if action is not None
                                                else " (after the last action)"))
        super().__init__(": ".join([*where, reason]))
        self.file = file
        self.hand = hand
        self.index = index
        self.reason = reason


@dataclass(frozen=True)
class Where:
    """Where a hand comes from, to locate errors: ``file`` and ``hand`` (number or label)."""

    file: str | None = None
    hand: object = None

    def error(self, reason: str, *, index: int | None = None, action: str | None = None,
              field: str | None = None) -> HistoryError:
        return HistoryError(reason, file=self.file, hand=self.hand, index=index, action=action, field=field)


# ---------------------------------------------------------------------------------------- TOML

def parse_toml(text: str, where: Where) -> dict[str, Any]:
    """The TOML document ``text`` as a dict.

    :raises HistoryError: it is not valid TOML (the message has the line and column).
    """
    if not isinstance(text, str):
        raise PokerDraw32TypeError(f"a hand history must be text (str), not {type(text).__name__}")
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))      # a byte-order mark is not part of the document
    except tomllib.TOMLDecodeError as e:
        raise Where(where.file).error(f"not valid TOML: {e}") from None
    except RecursionError:
        raise Where(where.file).error("not valid TOML: nested too deeply") from None
    except ValueError:      # tomllib converts integers with int(): Python refuses more than 4300 digits
        raise _huge_integer(text, where) from None


_CHIPS_DIGITS = len(str(MAX_CHIPS))
_HUGE = re.compile(r"[-+]?[0-9][0-9_]{" + str(_CHIPS_DIGITS) + ",}")
_TABLE_HEADER = re.compile(r"\s*\[\s*\"?([0-9]{1,18})\"?\s*\]")
_KEY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=")


def _huge_integer(text: str, where: Where) -> HistoryError:
    """The error for an integer too long for Python to convert (a TOML number of thousands of
    digits): it names the file, the hand (the table ``[N]`` of a ``.phhs`` file), the field and the
    line of the first integer outside strings with more digits than Python converts (4300 by
    default); no number of chips has more than 16 (R3.2)."""
    limit: int = getattr(sys, "get_int_max_str_digits", lambda: 0)() or _CHIPS_DIGITS  # Python >= 3.10.7
    hand = 1 if where.hand is None else where.hand      # a .phh file is hand 1
    key = None
    for lineno, line in enumerate(text.splitlines(), 1):
        header = _TABLE_HEADER.match(line)
        if header:
            hand, key = int(header.group(1)), None
            continue
        named = _KEY.match(line)
        if named:
            key = named.group(1)
        for m in _HUGE.finditer(line):
            if line.count('"', 0, m.start()) % 2 == 0 and line.count("'", 0, m.start()) % 2 == 0:
                digits = sum(ch.isdigit() for ch in m.group())
                if digits <= limit:
                    continue                    # read, and refused later by the field's own check
                return HistoryError(f"line {lineno}: an integer of {digits} digits; no number here has more than "
                                    f"{_CHIPS_DIGITS} (at most {MAX_CHIPS} chips) [R3.2]", file=where.file,
                                    hand=hand, field=key)
    return Where(where.file).error("not valid TOML: an integer too long to read [R3.2]")


def hand_tables(doc: Mapping[str, Any], where: Where) -> list[tuple[str | None, Mapping[str, Any]]]:
    """The hands of a document: ``[(None, doc)]`` for one hand (``.phh``, it has a ``variant``),
    else ``[(name, table), ...]`` for the numbered tables ``[1]``, ``[2]`` ... of a ``.phhs`` file,
    in file order (none for an empty document).

    :raises HistoryError: neither form, or a table name that is not a number.
    """
    if "variant" in doc:
        return [(None, doc)]
    if not doc:
        return []                                     # a .phhs file of no hand (e.g. simulate --hands 0)
    out: list[tuple[str | None, Mapping[str, Any]]] = []
    for key, value in doc.items():
        if not isinstance(value, dict):
            raise where.error(f"{key!r} = {_short(value)} is not a hand: a .phh file has a 'variant' field; a .phhs "
                              "file holds only numbered tables [1], [2] ...")
        if not re.fullmatch(r"[0-9]{1,18}", key):
            name = key if len(key) <= 40 else key[:37] + "..."
            raise where.error(f"table [{name}]: the hands of a .phhs file are numbered tables [1], [2] ... "
                              "(at most 18 digits)")
        out.append((key, value))
    return out


def dumps_toml(doc: Mapping[str, Any]) -> str:
    """``doc`` as TOML text (the ``tomli-w`` writer).

    :raises PokerDraw32TypeError: a value TOML cannot hold (e.g. ``None``, an object), say in a
        user-defined field.
    :raises HistoryError: a value nested too deeply.
    """
    try:
        return tomli_w.dumps(doc)
    except TypeError as e:
        raise PokerDraw32TypeError(f"cannot write as TOML: {e}") from None
    except (ValueError, RecursionError) as e:
        raise HistoryError(f"cannot write as TOML: {e or 'nested too deeply'}") from None


def _short(value: object) -> str:
    return shown(value)


# ---------------------------------------------------------------------------------------- cards

def format_cards_word(cards: Iterable[Card]) -> str:
    """Cards as one PHH word, ``"AhTd7s"``.

    :raises InvalidCardError: ``cards`` is a tuple holding a value that is not a card (as
        :func:`~pokerdraw32.cards.format_cards`).
    """
    if type(cards) is tuple:            # the engine's own (an event's): format_cards joins them from a table
        return format_cards(cards).replace(" ", "")
    return "".join(map(str, cards))


def parse_cards_word(word: str) -> tuple[Card, ...]:
    """One PHH card word (``"AhTd7s"``: rank then suit, no separators) as cards of the 32-card deck.

    :raises PokerDraw32ValueError: an unknown card ``??`` (every card must be known to replay a hand
        exactly), a card outside the deck (R1.1), a bad token, or a card given twice (R1.3).
    """
    if "?" in word:
        raise PokerDraw32ValueError(f"unknown cards in {word!r}: this dialect replays every deal exactly, so every "
                               "card must be given (no '??') [R6.2]")
    if len(word) % 2:
        raise PokerDraw32ValueError(f"cards {word!r}: expected two characters per card (rank then suit, e.g. 'AhTd') "
                               "[R1.3]")
    cards = tuple(parse_card(word[i:i + 2]) for i in range(0, len(word), 2))
    for i, c in enumerate(cards):
        if c in cards[:i]:
            raise PokerDraw32ValueError(f"duplicate card {str(c)!r} in {word!r} [R1.3]")
    return cards


# ---------------------------------------------------------------------------------------- positions

def position_seats(n: int, button: int) -> tuple[int, ...]:
    """The engine seat of each position ``p1 .. pn``: ``p1`` is left of the button, the button is
    last (R4.2, R5.1); heads-up ``p1`` is the non-dealer (R4.3).

    >>> position_seats(2, button=0), position_seats(5, button=3)
    ((1, 0), (4, 0, 1, 2, 3))
    """
    return tuple((button + 1 + i) % n for i in range(n))


def seats_button(seats: tuple[int, ...] | None, n: int) -> int:
    """The engine's button seat for a hand whose ``seats`` field (physical seat numbers by position)
    is ``seats``: engine seats are the physical seats ranked ``0 .. n-1``, so seats numbered
    ``1 .. n`` become ``0 .. n-1``.  Without ``seats`` the engine seat is the position index (the
    button is seat ``n - 1``).

    >>> seats_button((2, 3, 1), 3), seats_button((9, 2, 5), 3), seats_button(None, 4)
    (0, 1, 3)

    :raises ValueError: the seat numbers are not in clockwise order from ``p1``.
    """
    if seats is None:
        return n - 1
    ranked = sorted(seats)
    engine = [ranked.index(s) for s in seats]
    button = engine[-1]
    if tuple(engine) != position_seats(n, button):
        raise ValueError(f"seats {list(seats)} are not in clockwise order from p1 (left of the button) to the "
                         "button: seat numbers must increase clockwise, wrapping once [R4.1]")
    return button


# ---------------------------------------------------------------------------------------- rules

def _blind_positions(n: int, posted: int, button_posts_small: bool) -> tuple[int, ...]:
    """Positions (0-based) of the posted blinds, in posting order sb, bb[, ob] (R4.2, R4.3)."""
    if n == 2:
        return (1, 0) if button_posts_small else (0, 1)
    return tuple(range(posted))


def rules_fields(rules: Rules, n: int) -> dict[str, Any]:
    """The PHH fields that fix ``rules`` for a hand of ``n`` players: ``variant``, ``antes``,
    ``blinds_or_straddles``, ``min_bet`` or ``small_bet``/``big_bet``, ``_preset`` and, when some
    option differs from the preset, ``_options``."""
    posted = rules.blinds(n)
    blinds = [0] * n
    for pos, amount in zip(_blind_positions(n, len(posted), rules.heads_up_button_posts_small), posted, strict=True):
        blinds[pos] = amount
    L = posted[-1]
    out: dict[str, Any] = {"variant": _CODES[rules.structure], "antes": [0] * n, "blinds_or_straddles": blinds}
    if rules.structure is Structure.FIXED_LIMIT:
        out["small_bet"], out["big_bet"] = L, 2 * L
    else:
        out["min_bet"] = L
    preset = rules.name if rules.name in PRESETS else "classic"
    base = PRESETS[preset]
    options: dict[str, Any] = {}
    for name in (*_BOOL_OPTIONS, "cap", "second_round_first"):
        value = getattr(rules, name)
        if value != getattr(base, name):
            options[name] = value.value if isinstance(value, SecondRoundFirst) else ("none" if value is None else value)
    if len(posted) < 3 and rules.over_blind and rules.ob != 2 * rules.big_blind:
        options["ob"] = rules.ob                        # not posted with 2-3 players, but part of the rules
    out["_preset"] = preset
    if options:
        out["_options"] = options
    return out


def _rules_from_fields(doc: Mapping[str, Any], n: int, where: Where) -> Rules:
    variant = doc["variant"]
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise where.error(f"{_short(variant)} is not a 32-Card Draw variant: use N32D, P32D or F32D [R3.4]",
                          field="variant")
    preset = doc.get("_preset", "classic")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise where.error(f"unknown preset {_short(preset)}: use one of {', '.join(PRESETS)}", field="_preset")
    raw = doc.get("_options", {})
    if not isinstance(raw, dict):
        raise where.error(f"{_short(raw)} is not a table of rules options", field="_options")
    options: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _OPTIONS:
            why = {"sb": "the blinds are in blinds_or_straddles", "bb": "the blinds are in blinds_or_straddles",
                   "structure": "the structure is the variant"}.get(key, f"the options are {', '.join(_OPTIONS)}")
            raise where.error(f"{key!r} is not an option here: {why}", field="_options")
        if key == "cap" and value == "none":
            value = None
        elif key in _BOOL_OPTIONS and not isinstance(value, bool):
            raise where.error(f"{key} = {_short(value)} must be true or false", field="_options")
        options[key] = value
    base = PRESETS[preset]
    over = options.get("over_blind", base.over_blind)
    small_first = options.get("heads_up_button_posts_small", base.heads_up_button_posts_small)
    blinds = _int_list(doc, "blinds_or_straddles", n, where, minimum=0)
    over_posted = n >= 4 and blinds[2] != 0
    if n >= 4 and over_posted != bool(over):
        raise where.error(f"{blinds} {'posts' if over_posted else 'has no'} over blind at {n} players, but preset "
                          f"{preset!r}{' with _options' if 'over_blind' in options else ''} "
                          f"{'has' if over else 'does not have'} one (option over_blind) [R4.2]",
                          field="blinds_or_straddles")
    where_blinds = _blind_positions(n, 3 if over_posted else 2, bool(small_first))
    amounts = [blinds[p] for p in where_blinds]
    for pos in range(n):
        if (pos in where_blinds) != (blinds[pos] > 0):
            expected: list[object] = [0] * n
            for p, name in zip(where_blinds, ("sb", "bb", "ob"), strict=False):
                expected[p] = name
            layout = ", ".join(map(str, expected))
            raise where.error(f"{blinds}: with {n} players the blinds by position are [{layout}] (R4.2, R4.3)",
                              field="blinds_or_straddles")
    changes: dict[str, Any] = {"structure": VARIANTS[variant], "sb": amounts[0], "bb": amounts[1], **options}
    if over_posted:
        if "ob" in options and options["ob"] != amounts[2]:
            raise where.error(f"ob = {_short(options['ob'])} but the over blind posted is {amounts[2]}",
                              field="_options")
        changes["ob"] = amounts[2]
    try:
        rules = Rules.preset(preset, **changes)
    except RulesError as e:
        raise where.error(str(e), field="_options" if options else "blinds_or_straddles") from None
    L = rules.largest_blind(n)
    wanted = {"small_bet": L, "big_bet": 2 * L} if rules.structure is Structure.FIXED_LIMIT else {"min_bet": L}
    for name in ("min_bet", "small_bet", "big_bet", "bring_in"):
        if name not in wanted and name in doc:
            raise where.error(f"{variant} has no {name} ({', '.join(wanted)} instead)", field=name)
    for name, value in wanted.items():
        if name not in doc:
            raise where.error(f"missing required field {name!r} ({variant})")
        got = doc[name]
        if not _is_int(got) or got != value:
            raise where.error(f"{_short(got)} must be {value}: the {'largest blind L' if value == L else '2 L'} "
                              "(R3.3, R3.4, R7.2)", field=name)
    return rules


# ---------------------------------------------------------------------------------------- fields

def _posts(doc: Mapping[str, Any], n: int, where: Where) -> tuple[tuple[int, int], ...]:
    """``_posts``: ``[live, dead]`` chips by position, posted before the deal (R10.2, R10.3)."""
    value = doc["_posts"]
    if not isinstance(value, list) or len(value) != n:
        raise where.error(f"{_short(value)}: expected an array of {n} [live, dead] pairs, one per position",
                          field="_posts")
    out = []
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2 or not all(_is_chips(v) for v in pair):
            raise where.error(f"p{i + 1}: {_short(pair)} is not a pair [live, dead] of chip counts 0 to {MAX_CHIPS} "
                              "[R3.2]",
                              field="_posts")
        out.append((pair[0], pair[1]))
    return tuple(out)


def _int_list(doc: Mapping[str, Any], name: str, n: int | None, where: Where, *, minimum: int) -> list[int]:
    value = doc[name]
    if not isinstance(value, list):
        raise where.error(f"{_short(value)} is not an array", field=name)
    if n is not None and len(value) != n:
        raise where.error(f"{len(value)} entries for {n} players: one per position p1..p{n}", field=name)
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int):
            raise where.error(f"p{i + 1}: {_short(v)} is not an integer number of chips [R3.2]", field=name)
        if v < minimum:
            raise where.error(f"p{i + 1}: {v} must be at least {minimum} [R3.2]", field=name)
    return value


def _is_str(v: object) -> bool:
    return isinstance(v, str)


MAX_SEAT = 99
"""Largest seat number in ``seats``: a hand has at most 5 players (R3.1), and the seat numbers
of a physical table are small."""
_INT_LIMIT = 10**_CHIPS_DIGITS
"""Every other integer field has at most 16 digits, as a number of chips (R3.2)."""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -_INT_LIMIT < v < _INT_LIMIT


def _is_number(v: object) -> bool:
    return _is_int(v) or isinstance(v, float)


def _is_seat(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_SEAT


def _is_chips(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_CHIPS


_INTEGER = f"an integer of at most {_CHIPS_DIGITS} digits"
_NUMBER = f"a float or {_INTEGER}"
_OPTIONAL: dict[str, tuple[str, Callable[[object], bool]]] = {
    **{name: ("a string", _is_str) for name in (
        "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time_zone",
        "time_zone_abbreviation", "currency", "currency_symbol")},
    **{name: (_INTEGER, _is_int) for name in ("day", "month", "year", "level", "seat_count")},
    "time": ("a local time", lambda v: isinstance(v, (datetime.time, datetime.datetime))),
    "time_limit": (_NUMBER, _is_number),
    "ante_trimming_status": ("true or false", lambda v: isinstance(v, bool)),
    "hand": (f"a string or {_INTEGER}", lambda v: _is_str(v) or _is_int(v)),
    "table": (f"a string or {_INTEGER}", lambda v: _is_str(v) or _is_int(v)),
}
_PER_PLAYER: dict[str, tuple[str, Callable[[object], bool]]] = {
    "players": ("a string", _is_str),
    "seats": (f"a seat number 1 to {MAX_SEAT}", _is_seat),
    "finishing_stacks": (f"a number of chips 0 to {MAX_CHIPS} [R3.2]", _is_chips),
    "winnings": (_NUMBER, _is_number),
    "time_banks": (_NUMBER, _is_number),
}
_REQUIRED = ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions")
_RULES_FIELDS = ("min_bet", "small_bet", "big_bet", "bring_in", "_preset", "_options", "_posts")


def check_fields(doc: Mapping[str, Any], where: Where) -> dict[str, Any]:
    """Check every field of one hand's document and return the values the engine needs:
    ``rules``, ``starting_stacks``, ``actions`` (tuples), ``seats``, ``players``,
    ``finishing_stacks``, ``posts`` (tuples or ``None``), ``hand``, ``table``, and ``extra``: every
    other optional or user-defined field, as read.

    :raises HistoryError: the first field that is missing, of the wrong type or length, or that
        contradicts the rules.
    """
    for name in _REQUIRED:
        if name not in doc:
            raise where.error(f"missing required field {name!r}")
    stacks = doc["starting_stacks"]
    if not isinstance(stacks, list) or not 2 <= len(stacks) <= 5:
        raise where.error(f"{_short(stacks)}: a hand is dealt to 2 to 5 players, one stack each [R3.1]",
                          field="starting_stacks")
    n = len(stacks)
    _int_list(doc, "starting_stacks", n, where, minimum=1)
    antes = _int_list(doc, "antes", n, where, minimum=0)
    if any(antes):
        raise where.error(f"{antes}: 32-Card Draw has no antes, they must be 0", field="antes")
    rules = _rules_from_fields(doc, n, where)
    actions = doc["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise where.error("must be an array of strings", field="actions")
    out: dict[str, Any] = {"rules": rules, "starting_stacks": tuple(stacks), "actions": tuple(actions),
                           "seats": None, "players": None, "finishing_stacks": None, "hand": None, "table": None,
                           "posts": _posts(doc, n, where) if "_posts" in doc else None}
    extra: dict[str, Any] = {}
    for name, value in doc.items():
        if name in _REQUIRED or name in _RULES_FIELDS:
            continue
        if name in _PER_PLAYER:
            what, ok = _PER_PLAYER[name]
            if not isinstance(value, list) or len(value) != n:
                raise where.error(f"{_short(value)}: expected an array of {n} entries, one per position", field=name)
            for i, v in enumerate(value):
                if not ok(v):
                    raise where.error(f"p{i + 1}: {_short(v)} is not {what}", field=name)
            if name == "seats" and len(set(value)) != n:
                raise where.error(f"{value}: two players in one seat", field=name)
        elif name in _OPTIONAL:
            what, ok = _OPTIONAL[name]
            if not ok(value):
                raise where.error(f"{_short(value)} is not {what}", field=name)
        elif not isinstance(name, str) or not name.startswith("_"):
            raise where.error(f"unknown field {_short(name)} (user-defined fields start with '_')")
        if name in out:
            out[name] = tuple(value) if isinstance(value, list) else value
        else:
            extra[name] = value
    if out["seats"] is not None:
        try:
            seats_button(out["seats"], n)
        except ValueError as e:
            raise where.error(str(e), field="seats") from None
    out["extra"] = extra
    return out
