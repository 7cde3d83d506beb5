"""The wire protocol, version 1 (PROTOCOL.md): reading client messages, the error codes, the limits.

Nothing here touches a table: a message is checked completely (JSON, size, type, every field)
before a table sees it, and :class:`ProtocolError` names what is wrong.
"""

from __future__ import annotations

import importlib
import json
import time
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..errors import MAX_CHIPS

__all__ = ["PROTOCOL_VERSION", "Limits", "ProtocolError", "RateLimiter", "action_of", "dumps", "read_message"]

PROTOCOL_VERSION = 1
"""The protocol's version: every message carries it as ``"v"`` (PROTOCOL.md, Conventions)."""

CLIENT_TYPES = frozenset({"tables", "join", "resume", "watch", "act", "showdown", "sit_out", "sit_in",
                          "add_chips", "leave", "ping"})
ACT_KINDS = frozenset({"fold", "check", "call", "bet", "raise", "split", "decline", "discard"})
MAX_DEPTH = 16
"""Most levels of arrays and objects nested in a client message (a request has 2: ``cards``)."""


try:                                  # optional (extra [server]): about 10x faster than json
    _orjson: Any = importlib.import_module("orjson")
except ImportError:  # pragma: no cover - depends on the install
    _orjson = None

_encode = json.JSONEncoder(separators=(",", ":")).encode


def dumps(data: Any) -> str:
    """``data`` as compact JSON text: what the server sends and stores.  With ``orjson``
    installed (it comes with the extra ``[server]``) it writes the text, about ten times as fast
    as the standard library's encoder for the server's messages and snapshots (``python
    bench/server_load.py`` spends a large share of its CPU there); the result reads back to the
    same data (``json.loads``) either way.  Anything ``orjson`` refuses (an integer beyond 64
    bits) goes through ``json``."""
    if _orjson is not None:
        try:
            text: str = _orjson.dumps(data).decode()
            return text
        except TypeError:
            try:            # a dict with keys that are not str (half as fast: only when needed)
                text = _orjson.dumps(data, option=_orjson.OPT_NON_STR_KEYS).decode()
                return text
            except TypeError:
                pass
    return _encode(data)


class ProtocolError(Exception):
    """A message the server refuses; ``code`` is one of PROTOCOL.md's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Limits:
    """Per-connection limits (PROTOCOL.md, Limits).

    :ivar max_message: largest message in bytes (UTF-8) the server reads; larger: ``too_large``.
    :ivar max_frame: largest WebSocket frame the transport accepts; larger closes the connection
        (1009).
    :ivar rate: messages a second a connection may send, sustained; ``burst`` at once.
    :ivar send_queue: messages queued for a client that does not read before it is disconnected.
    :ivar max_replay: most log entries one ``resume`` or ``watch`` replays (``too_far_behind``
        beyond), and the most a connection may have replayed at once; ``replay_rate`` entries a
        second are added back to that allowance (``rate_limited`` beyond).
    """

    max_message: int = 4096
    max_frame: int = 1 << 20
    rate: float = 20.0
    burst: int = 40
    send_queue: int = 1024
    max_replay: int = 10_000
    replay_rate: float = 1000.0

    def to_dict(self) -> dict[str, Any]:
        return {"max_message": self.max_message, "max_frame": self.max_frame, "rate": self.rate,
                "burst": self.burst, "send_queue": self.send_queue, "max_replay": self.max_replay,
                "replay_rate": self.replay_rate}


class RateLimiter:
    """A token bucket: ``rate`` tokens a second, at most ``burst``; each message takes one."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def allow(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens if there are that many."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


def _not_json(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's json reads but JSON has not."""
    raise ValueError(f"{name} is not a JSON value (RFC 8259)")


_decoder = json.JSONDecoder(parse_constant=_not_json)   # built once: json.loads with an option builds one a call


def _loads(data: str) -> Any:
    """``data`` read as JSON (``json.loads(data, parse_constant=...)``, its decoder built once).

    :raises ProtocolError: ``bad_json``.
    """
    try:
        if data.startswith("\ufeff"):                # as json.loads, which checks it before decoding
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", data, 0)
        return _decoder.decode(data)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None


def read_message(data: str | bytes | None, limits: Limits) -> dict[str, Any]:
    """The client message in ``data`` (a text frame), checked: a JSON object with a known
    ``type`` and, if present, an ``id`` (a string of at most 64 characters or an integer),
    nesting at most :data:`MAX_DEPTH` levels of arrays and objects.  ``NaN`` and
    ``Infinity`` are not JSON: refused as ``bad_json``.

    :raises ProtocolError: ``too_large``, ``bad_json`` or ``bad_message``.
    """
    if data is None or isinstance(data, bytes):
        raise ProtocolError("bad_message", "messages are JSON objects in text frames, not binary frames")
    if len(data) > limits.max_message or len(data.encode("utf-8", "surrogatepass")) > limits.max_message:
        raise ProtocolError("too_large", f"a message is at most {limits.max_message} bytes")
    msg = _loads(data)
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", f"a message is a JSON object, got {type(msg).__name__}")
    if data.count("[") + data.count("{") > MAX_DEPTH and _depth(msg) > MAX_DEPTH:
        # deeper values would overflow the stack of whatever writes them again as JSON (the
        # relay to a table's owner, an error message quoting a field): refused here, by name
        raise ProtocolError("bad_message", f"a message nests at most {MAX_DEPTH} levels of arrays and objects")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError("bad_message", f"unknown message type {_short(kind)}; known: "
                            f"{', '.join(sorted(CLIENT_TYPES))}")
    rid = msg.get("id")
    if rid is not None and not ((isinstance(rid, str) and len(rid) <= 64)
                                or (isinstance(rid, int) and not isinstance(rid, bool) and abs(rid) < 2**53)):
        raise ProtocolError("bad_message", "id must be a string of at most 64 characters or an integer")
    return msg


def _depth(value: Any) -> int:
    """Levels of arrays and objects in ``value`` (0 for a scalar), counted without recursion."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d + 1)
            if d + 1 <= MAX_DEPTH:
                todo.extend((x, d + 1) for x in v)
    return deepest


def field(msg: dict[str, Any], name: str, kind: str, *, required: bool = True, default: Any = None) -> Any:
    """Field ``name`` of ``msg`` checked as ``kind``: ``"str"`` (1-64 characters), ``"int"``
    (0..MAX_CHIPS), ``"seq"`` (0..2**53), ``"bool"``, ``"bool?"`` (true, false or null),
    ``"cards"`` (a list of at most 5 card strings).

    :raises ProtocolError: ``bad_message``, naming the field.
    """
    if name not in msg:
        if required:
            raise ProtocolError("bad_message", f"{msg.get('type')}: field {name!r} is missing")
        return default
    v = msg[name]
    ok: bool
    if kind == "str":
        ok = isinstance(v, str) and 1 <= len(v) <= 64
    elif kind == "int":
        ok = isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_CHIPS
    elif kind == "seat":
        ok = isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 5
    elif kind == "seq":
        ok = isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**53
    elif kind == "bool":
        ok = isinstance(v, bool)
    elif kind == "bool?":
        ok = v is None or isinstance(v, bool)
    elif kind == "cards":
        ok = isinstance(v, list) and len(v) <= 5 and all(isinstance(c, str) and len(c) <= 3 for c in v)
    else:  # pragma: no cover - a programming error
        raise AssertionError(kind)
    if not ok:
        what = {"str": "a string of 1 to 64 characters", "int": f"a whole number of chips 0..{MAX_CHIPS}",
                "seq": "a log entry number (a non-negative integer)", "seat": "a seat number 0..4",
                "bool": "true or false", "bool?": "true, false or null",
                "cards": "a list of at most 5 cards such as \"Ah\""}[kind]
        raise ProtocolError("bad_message", f"{msg.get('type')}: {name} must be {what}, got {_short(v)}")
    return v


def action_of(msg: dict[str, Any]) -> Action:
    """The engine :class:`~pokerdraw32.actions.Action` of an ``act`` message.

    :raises ProtocolError: ``bad_message`` (unknown kind, a missing or extra amount or cards,
        an unreadable card); ``illegal`` rules are the table's to check.
    """
    kind = msg.get("kind")
    if not isinstance(kind, str) or kind not in ACT_KINDS:
        raise ProtocolError("bad_message", f"act: kind must be one of {', '.join(sorted(ACT_KINDS))}, "
                            f"got {_short(kind)}")
    if kind in ("bet", "raise"):
        amount = field(msg, "amount", "int")
        if "cards" in msg:
            raise ProtocolError("bad_message", f"act: {kind} takes no cards")
        return Action.bet(amount) if kind == "bet" else Action.raise_to(amount)
    if "amount" in msg:
        raise ProtocolError("bad_message", f"act: {kind} takes no amount")
    if kind == "discard":
        cards = field(msg, "cards", "cards")
        try:
            return Action.discard(cards)
        except ValueError as exc:
            raise ProtocolError("bad_message", f"act: {exc}") from None
    if "cards" in msg:
        raise ProtocolError("bad_message", f"act: {kind} takes no cards")
    return {"fold": Action.fold, "check": Action.check, "call": Action.call, "split": Action.split,
            "decline": Action.decline}[kind]()


def _short(v: Any) -> str:
    text = json.dumps(v) if not isinstance(v, str) else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."
