"""The hand snapshot format (see :mod:`pokerdraw32.snapshot`, whose docstring describes it): writing a
hand's state, reading and checking every field, and verifying it by replaying the log.

Below :mod:`pokerdraw32.hand` in the layers: it never imports the hand (the class that replays a log
is given by the caller), so :meth:`Hand.snapshot <pokerdraw32.hand.Hand.snapshot>` and
:meth:`Hand.restore <pokerdraw32.hand.Hand.restore>` use it without an import circle, and
:mod:`pokerdraw32.snapshot` (the public module) re-exports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .._handcore.events import posted_extras
from .._kernels import Rng
from .._version import __version__
from ..actions import Action, ActionKind, Event, EventKind, Phase
from ..cards import DECK, FULL_MASK, parse_card
from ..errors import MAX_CHIPS, DealError, IllegalActionError, PokerDraw32Error, RulesError, SnapshotError, shown
from ..results import DealRequest, HandResult, Pot
from ..rules import Rules

if TYPE_CHECKING:
    from . import Hand

__all__ = ["SNAPSHOT_FORMAT", "SNAPSHOT_VERSION", "SnapshotError", "restore", "snapshot"]

SNAPSHOT_FORMAT = "pokerdraw32/hand"
SNAPSHOT_VERSION = 2
"""Version of the snapshot layout; raised whenever a field is added, removed or changes meaning
(2: ``showdown_choices``, the seats' pending show/muck choices, R9.3)."""

# Hand attributes saved as they are, by kind.
_INTS = ("n", "button", "dead", "to_match", "raise_size", "full_level", "bet_count", "reopen_serial", "votes", "voted",
         "draw_index", "_hole_index", "largest_blind")
_OPTIONAL_SEATS = ("actor", "aggressor", "raise_withdrawn")
_BOOLS = ("auto_deal", "offer_open")
_INT_LISTS = ("stacks", "bets", "contrib", "acted_serial", "last_level")
_BOOL_LISTS = ("folded", "acted", "no_raise")
_SEAT_LISTS = ("draw_order", "_deal_order", "blind_seats")
_CARD_LISTS = ("stub", "pile", "muck", "_own_discards")


def snapshot(hand: Hand) -> dict[str, Any]:
    """The complete state of ``hand`` as JSON-serialisable data (see the module docstring)."""
    h = hand._export()
    data: dict[str, Any] = {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION, "engine": __version__,
                            "rules": hand.rules.options()}
    for name in (*_INTS, *_OPTIONAL_SEATS, *_BOOLS, *_INT_LISTS, *_BOOL_LISTS, *_SEAT_LISTS):
        value = h[name]
        data[name.lstrip("_")] = list(value) if isinstance(value, (list, tuple)) else value
    data["starting_stacks"] = list(hand.starting_stacks)
    data["phase"] = hand.phase.value
    data["discarded"] = list(hand.discarded)
    data["showdown_choices"] = list(hand.showdown_choices)
    for name in _CARD_LISTS:
        data[name.lstrip("_")] = [str(DECK[c]) for c in h[name]]
    data["hole"] = [[str(DECK[c]) for c in cards] for cards in hand.hole]
    data["round_robin"] = [[str(DECK[c]) for c in cards] for cards in h["_round_robin"]]
    req = hand.pending_deal
    data["pending_deal"] = None if req is None else {"seat": req.seat, "count": req.count, "kind": req.kind}
    data["rng"] = [f"{word:016x}" for word in hand.rng.getstate()]
    data["redacted_for"] = h["_redacted_for"]
    data["events"] = [ev.to_dict() for ev in hand.events]
    res = hand.result
    data["result"] = None if res is None else {
        "pots": [pot.to_dict() for pot in res.pots],
        "shown": {str(seat): [str(c) for c in cards] for seat, cards in res.shown.items()},
        "showdown": res.showdown,
    }
    return data


def restore(data: Any, hand_class: type[Hand]) -> Hand:
    """Rebuild the hand saved by :func:`snapshot`, as a ``hand_class`` (:class:`~pokerdraw32.hand.Hand`:
    the class that replays the log).

    :raises SnapshotError: another format or version, or the first bad field, by name.
    """
    if not isinstance(data, dict):
        raise SnapshotError(f"a snapshot is a JSON object, got {type(data).__name__}")
    if data.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f"not a hand snapshot: format is {shown(data.get('format'))}, expected {SNAPSHOT_FORMAT!r}")
    version = data.get("version")
    if type(version) is not int or version != SNAPSHOT_VERSION:
        raise SnapshotError(f"snapshot version {shown(version)} (written by pokerdraw32 {shown(data.get('engine'))}) "
                            f"cannot be read: this pokerdraw32 {__version__} reads version {SNAPSHOT_VERSION} only")
    r = _Reader(data)
    rules = read_rules(r)
    n = r.integer("n", 2, 5)
    state: dict[str, Any] = {"rules": rules, "n": n}
    for name in _INTS:
        if name != "n":
            state[name] = r.integer(name.lstrip("_"), 0, MAX_CHIPS)
    for name in _OPTIONAL_SEATS:
        value = r.field(name, (int, type(None)))
        if value is not None:
            value = r.integer(name, 0, n - 1)
        state[name] = value
    for name in _BOOLS:
        state[name] = r.field(name, bool)
    for name in _INT_LISTS:
        state[name] = r.int_list(name, n)
    for name in _BOOL_LISTS:
        state[name] = [r.check(name, v, bool) for v in r.list_of(name, n)]
    for name in _SEAT_LISTS:
        seats = r.list_of(name.lstrip("_"), None)
        state[name] = [r.seat(name, v, n) for v in seats]
    state["blind_seats"] = tuple(state["blind_seats"])
    state["starting_stacks"] = tuple(r.int_list("starting_stacks", n))
    state["discarded"] = [None if v is None else r.check("discarded", v, int) for v in r.list_of("discarded", n)]
    state["showdown_choices"] = [r.check("showdown_choices", v, (bool, type(None)))
                                 for v in r.list_of("showdown_choices", n)]
    phase = r.field("phase", str)
    if phase not in _PHASES:
        raise SnapshotError(f"snapshot field 'phase': unknown phase {shown(phase)}")
    state["phase"] = _PHASES[phase]
    for name in _CARD_LISTS:
        state[name] = r.cards(name.lstrip("_"))
    state["hole"] = [r.cards("hole", v) for v in r.list_of("hole", n)]
    state["_round_robin"] = [r.cards("round_robin", v) for v in r.list_of("round_robin", None)]
    req = r.field("pending_deal", (dict, type(None)))
    if req is not None:
        kind = req.get("kind")
        if kind not in ("hole", "draw"):
            raise SnapshotError(f"snapshot field 'pending_deal': kind {shown(kind)} is not 'hole' or 'draw'")
        req = DealRequest(r.seat("pending_deal", req.get("seat"), n), r.check("pending_deal", req.get("count"), int),
                          kind)
    state["pending_deal"] = req
    state["rng"] = r.rng("rng")
    try:
        state["events"] = [Event.from_dict(ev) for ev in r.list_of("events", None)]
    except ValueError as exc:
        raise SnapshotError(f"snapshot field 'events': {exc}") from None
    # the cards: all 32 exactly once (R1.1)
    held = [*state["stub"], *state["pile"], *state["muck"], *state["_own_discards"]]
    for cards in state["hole"]:
        held.extend(cards)
    if sorted(held) != list(range(32)):
        seen: set[int] = set()
        twice = sorted({c for c in held if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        missing = sorted(set(range(32)) - set(held))
        raise SnapshotError("snapshot cards are not the 32-card deck once each [R1.1]: "
                            f"twice {[str(DECK[c]) for c in twice]}, missing {[str(DECK[c]) for c in missing]}")
    # the chips: conserved (R9.5)
    start = sum(state["starting_stacks"])
    now = sum(state["stacks"]) + (0 if state["phase"] is Phase.COMPLETE else sum(state["contrib"]) + state["dead"])
    if now != start:
        raise SnapshotError(f"snapshot chips do not add up [R9.5]: the seats started with {start}, "
                            f"the snapshot holds {now}")
    hand = _Saved()
    hand.__dict__.update(state)
    hand.result = None
    result = r.field("result", (dict, type(None)))
    if (result is None) != (hand.phase is not Phase.COMPLETE):
        raise SnapshotError("snapshot field 'result': present exactly when the phase is 'complete'")
    if result is not None:
        try:
            pots = tuple(Pot(r.check("result", p["amount"], int), tuple(r.seat("result", s, n) for s in p["eligible"]),
                             tuple(r.seat("result", s, n) for s in p["winners"]), r.check("result", p["shared"], bool))
                         for p in r.check("result", result.get("pots"), list))
            shown_cards = {r.seat("result", int(seat), n): tuple(DECK[c] for c in r.cards("result", cards))
                           for seat, cards in r.check("result", result.get("shown"), dict).items()}
        except SnapshotError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise SnapshotError(f"snapshot field 'result': {type(exc).__name__}: {_short(str(exc))}") from None
        net = tuple(s - s0 for s, s0 in zip(hand.stacks, hand.starting_stacks, strict=True))
        showdown = r.check("result", result.get("showdown"), bool)
        hand.result = HandResult(tuple(hand.stacks), net, pots, shown_cards, showdown)
    if r.field("redacted_for", (int, type(None))) is not None:
        raise SnapshotError("snapshot field 'redacted_for': the snapshot of a determinize() clone is one seat's "
                            "redacted copy for search, not a hand that was played: it cannot be restored")
    return _verify_by_replay(hand, data, hand_class)


_PHASES = {p.value: p for p in Phase}


def read_rules(r: _Reader) -> Rules:
    """The snapshot's ``rules``: every option of :meth:`Rules.options` exactly once, nothing else,
    each value as ``options()`` writes it (no defaults filled in: a pot-limit hand never comes back
    as a no-limit one, R3.4)."""
    options = r.field("rules", dict)
    expected = Rules().options()
    missing = sorted(k for k in expected if k not in options)
    unknown = sorted(shown(k) for k in options if k not in expected)[:5]      # a few are enough to name
    if missing or unknown:
        raise r.error(f"{r.where} 'rules': " + "; ".join(
            ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(unknown)}"] if unknown
                                                                      else [])))
    for key, default in expected.items():
        value = options[key]
        if isinstance(default, bool) or isinstance(value, bool):
            good = isinstance(value, bool) and isinstance(default, bool)
        elif isinstance(default, int):    # chips (R3.2); the fixed-limit cap may be null (R3.4)
            good = (isinstance(value, int) and 0 <= value <= MAX_CHIPS) or (value is None and key == "cap")
        else:
            good = isinstance(value, str)
        if not good:
            raise r.error(f"{r.where} 'rules.{key}': {shown(value)} is not a value of this option")
    try:
        rules = Rules.from_options(options)
    except PokerDraw32Error as exc:
        raise r.error(f"{r.where} 'rules': {_short(str(exc))}") from None
    path = _difference(rules.options(), options, "rules")
    if path is not None:
        raise r.error(f"{r.where} {shown(path)} is not how the rules write it ({_at({'rules': options}, path)})")
    return rules


def _difference(mine: Any, theirs: Any, path: str) -> str | None:
    """The path of the first place where ``theirs`` is not exactly ``mine`` (same JSON types: a
    list for a list or tuple, no ``true`` for ``1``, no ``1.0`` for ``1``), or ``None``.  The
    recursion follows ``mine``, so it is as deep as the engine's own data, whatever ``theirs`` holds."""
    if isinstance(mine, (list, tuple)):
        if not isinstance(theirs, (list, tuple)) or len(theirs) != len(mine):
            return path
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            found = _difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if isinstance(mine, dict):
        if not isinstance(theirs, dict):
            return path
        for key, a in mine.items():
            if key not in theirs:
                return f"{path}.{key}"
            found = _difference(a, theirs[key], f"{path}.{key}")
            if found is not None:
                return found
        for key in theirs:
            if not isinstance(key, str) or key not in mine:
                return f"{path}.{key}" if isinstance(key, str) else path
        return None
    if type(mine) is not type(theirs) or mine != theirs:
        return path
    return None


def _short(text: str) -> str:
    """``text`` cut to at most 100 characters, for an error message."""
    return text if len(text) <= 100 else text[:97] + "..."


def _at(data: Any, path: str) -> str:
    """A short text of the value at ``path`` (as :func:`_difference` writes it) in ``data``."""
    value = data
    for part in path.replace("[", ".").replace("]", "").split("."):
        try:
            value = value[int(part)] if isinstance(value, (list, tuple)) else value[part]
        except (KeyError, IndexError, ValueError, TypeError):
            return "missing"
    return shown(value)


# state a hand's event log determines (everything but the order of the stub and the generator), and the
# showdown choices (the twin makes the snapshot's first)
_DERIVED = ("n", "button", "dead", "to_match", "raise_size", "full_level", "bet_count", "reopen_serial", "votes",
            "voted", "draw_index", "_hole_index", "largest_blind", "actor", "aggressor", "raise_withdrawn",
            "offer_open", "stacks", "bets", "contrib", "acted_serial", "last_level", "folded", "acted", "no_raise",
            "draw_order", "_deal_order", "blind_seats", "starting_stacks", "phase", "discarded", "hole",
            "_own_discards", "pending_deal", "result", "showdown_choices")


class _Saved:
    """A snapshot's fields, read and checked, by the attribute names of a Hand (before the replay)."""

    events: list[Event]
    stub: list[int]
    _round_robin: list[list[int]]
    result: Any

    if TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any: ...   # the other fields, as restore() read them

    @property
    def posted_extras(self) -> dict[int, tuple[int, int]]:
        """What ``posts`` took before the deal, read from the log, as :attr:`Hand.posted_extras`."""
        return posted_extras(self.events)


def _verify_by_replay(hand: _Saved, data: dict[str, Any], hand_class: type[Hand]) -> Hand:
    """Replay the snapshot's event log through the engine (every action checked, R3-R9) and
    require the snapshot to be exactly the snapshot of what it produces, given the stub order and
    the generator's state it holds: a snapshot whose fields were edited, or whose log is not a
    legal hand, is refused, naming the first field or event that disagrees.

    The first replay deals the logged cards explicitly.  The reshuffles (R6.2) are then checked
    against the generator: the generator is used by nothing else during a hand, so its state
    before each reshuffle is found by stepping it back from the snapshot's state, and a second
    replay starts the reshuffles from there: each reshuffle must leave the next one's state (the
    last one the snapshot's), and the cards the hand deals itself after a reshuffle (``auto_deal``)
    and the stub that remains must be the ones that shuffle gives.

    :returns: the replayed hand (a state the engine reached itself)."""
    masks: list[tuple[int, int, int]] = []
    twin = _replay(hand, None, masks, hand_class)
    mine, theirs = hand.__dict__, twin._export()
    for name in _DERIVED:
        if mine[name] != theirs[name]:
            raise SnapshotError(f"snapshot field {name.lstrip('_')!r} does not match the event log: "
                                f"{shown(mine[name])}, the log gives {shown(theirs[name])}")
    for name in ("stub", "pile", "muck"):
        if sorted(mine[name]) != sorted(theirs[name]):
            raise SnapshotError(f"snapshot field {name!r} does not match the event log: other cards")
    problems: list[str] = []
    if masks:
        # R6.2, R11.1: the reshuffles come from the generator; replay them from its earlier states (the
        # first of which the deck's shuffle at the hand's start must leave)
        def accept(state: tuple[int, int, int, int]) -> bool:
            problem = _deck_problem(hand, masks, state)
            if problem is not None:
                problems.append(problem)
            return problem is None

        first = _reshuffle_chain(hand, masks, accept)
        if first is None:
            if problems:   # the reshuffles are the generator's, not the deck before them: say what is not
                raise SnapshotError(min(problems, key=lambda text: "field 'rng'" in text))
            raise SnapshotError("snapshot field 'rng': the reshuffled cards and the generator's state are not "
                                "what the generator gives [R6.2, R11.1]")
        twin = _replay(hand, first, None, hand_class)
    else:
        # what the log does not determine: the stub order, the generator (checked below)
        twin.stub = list(hand.stub)
        twin.rng = hand.rng
    twin.auto_deal = hand.auto_deal
    if twin.auto_deal and twin.pending_deal is not None:
        raise SnapshotError("snapshot field 'auto_deal': a hand that deals itself never waits for a deal "
                            f"({twin.pending_deal})")
    _check_round_robin(twin, hand._round_robin)
    if not masks:
        problem = _deck_problem(hand, masks, hand.rng.getstate())
        if problem is not None:
            raise SnapshotError(problem)
    twin._round_robin = hand._round_robin
    whole = snapshot(twin)
    engine = data.get("engine")
    if not isinstance(engine, str):
        raise SnapshotError(f"snapshot field 'engine': {shown(engine)} is not str")
    whole["engine"] = engine
    for key in data:
        if key not in whole:
            raise SnapshotError(f"snapshot field {shown(key)} is not a field of a hand snapshot")
    for key, value in whole.items():
        path = _difference(value, data.get(key), key)
        if path is not None:
            raise SnapshotError(f"snapshot field {shown(path)} does not match the event log: "
                                f"{_at(data, path)}, the log gives {_at(whole, path)}")
    return twin


def _replay(hand: _Saved, rng_state: tuple[int, int, int, int] | None,
            masks: list[tuple[int, int, int]] | None, hand_class: type[Hand]) -> Hand:
    """A fresh hand that plays ``hand``'s event log (explicit deals, every action checked).

    :param rng_state: ``None``: the reshuffles draw from an arbitrary generator and the cards
        dealt are the logged ones.  Else the generator's state before the first reshuffle: the
        reshuffles draw from it, and a hand that deals itself (``auto_deal``) deals itself from
        the first reshuffle on (so the cards it logs must be the ones the shuffle gives).
    :param masks: when given, receives for each reshuffle the discard pile shuffled (a card mask),
        the index of its event and the number of stub cards dealt before the reshuffled ones.
    """
    events = hand.events
    posts = hand.posted_extras
    simple = {EventKind.FOLD: ActionKind.FOLD, EventKind.CHECK: ActionKind.CHECK, EventKind.CALL: ActionKind.CALL,
              EventKind.SPLIT: ActionKind.SPLIT, EventKind.DECLINE: ActionKind.DECLINE}
    i = 0
    shuffled = False            # a reshuffle has happened: the twin's stub order is the generator's
    try:
        twin = hand_class(hand.rules, list(hand.starting_stacks), hand.button, seed=1, auto_deal=False,
                    posts=posts or None)
        if rng_state is not None:
            twin.rng.setstate(rng_state)
        # the choices made before the showdown are state, not events (R9.3): the twin makes them
        # first; a folded seat's choice is dropped by its fold, so one left in the snapshot differs
        for seat, choice in enumerate(hand.showdown_choices):
            if choice is not None:
                twin.set_showdown_choice(seat, choice)
        i = len(twin.events)
        itself = rng_state is not None and hand.auto_deal
        while i < len(events):
            ev = events[i]
            k = ev.kind
            if k is EventKind.DEAL_HOLE:
                twin.deal(ev.cards)
            elif k is EventKind.RESHUFFLE and i + 1 < len(events) and events[i + 1].kind is EventKind.DEAL_DRAW:
                if masks is not None:
                    masks.append((sum(1 << c for c in twin.pile), i, len(twin.stub)))
                cards = [int(c) for c in events[i + 1].cards]
                if itself:
                    if sorted(cards[:len(twin.stub)]) != sorted(twin.stub):
                        raise SnapshotError(f"snapshot field 'events': event {i + 1} does not deal the rest of "
                                            "the stub before the reshuffled cards [R6.2]")
                    twin.stub = cards[:len(twin.stub)]   # the stub's last cards first, in the logged order
                    twin.deal()
                else:
                    twin.deal(events[i + 1].cards)
                shuffled = True
            elif k is EventKind.DEAL_DRAW:
                if itself and shuffled:
                    twin.deal()
                else:
                    twin.deal(ev.cards)
            elif k is EventKind.TIMEOUT:
                twin.timeout(ev.seat)
            elif k is EventKind.RAISE_WITHDRAWN:
                twin.withdraw_raise()
            elif k in simple:
                twin.act(Action(simple[k]), ev.seat)
            elif k in (EventKind.BET, EventKind.RAISE):
                twin.act(Action(ActionKind.BET if k is EventKind.BET else ActionKind.RAISE, ev.amount), ev.seat)
            elif k is EventKind.DISCARD:
                twin.act(Action.discard(ev.cards), ev.seat)
            else:
                raise SnapshotError(f"snapshot field 'events': event {i} ({ev}) is not the next step of the hand")
            made = twin.events[i:]
            expected = events[i:i + len(made)]
            if made != expected:
                j = next((j for j, (a, b) in enumerate(zip(made, expected, strict=False)) if a != b), len(expected))
                raise SnapshotError(f"snapshot field 'events': event {i + j} does not follow from the ones before "
                                    f"(the engine logs: {made[j]})" +
                                    (" [R6.2, R11.1: the reshuffle's cards come from the generator]"
                                     if shuffled and rng_state is not None else ""))
            i += len(made)
    except (IllegalActionError, DealError, RulesError) as exc:
        raise SnapshotError(f"snapshot field 'events': event {i} is not legal: {exc}") from None
    return twin


_U64 = (1 << 64) - 1


def _step_back(state: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The xoshiro256** state one step before ``state`` (the step is invertible)."""
    s0, s1, s2, s3 = state
    d1 = ((s3 >> 45) | (s3 << 19)) & _U64         # s3 ^ s1 of the earlier state, before the rotation
    a = s0 ^ d1
    z = (s1 ^ a) ^ (s2 ^ a)                       # b ^ (b << 17)
    b = z
    for shift in (17, 34, 51):
        b ^= (z << shift) & _U64
    return a, b, s1 ^ a ^ b, d1 ^ b


_MAX_SHUFFLE_STEPS = 512
"""How far back the state before a reshuffle is looked for: a shuffle of at most 32 cards takes
31 draws plus the rejected ones (each draw is rejected with probability below 1/2), so 512 steps
are never too few in practice."""

_MAX_CHAIN_NODES = 200
"""Candidate states tried in all when looking for the generator's states before the reshuffles."""


def _reshuffle_chain(hand: _Saved, masks: list[tuple[int, int, int]],
                     accept: Callable[[tuple[int, int, int, int]], bool]) -> tuple[int, int, int, int] | None:
    """The generator's state before the hand's first reshuffle, such that each reshuffle, drawn
    from the state the one before left, shuffles its pile into the cards the snapshot shows and
    the last leaves the snapshot's state, and that ``accept`` accepts (the deck shuffled at the
    hand's start must leave it: :func:`_deck_problem`); ``None`` when there is none.

    Several states a few steps apart can shuffle the same pile into the same final state (the
    draws a shuffle rejects differ), so each is tried, and it must give the order the hand shows:
    for a hand that deals itself, every card of each reshuffle in the order dealt (then the stub);
    for a hand dealt explicitly, the order of the stub left by the last reshuffle."""

    events = hand.events
    observed: list[list[int] | None] = []
    for j, (_, i, before) in enumerate(masks):
        end = masks[j + 1][1] if j + 1 < len(masks) else len(events)
        cards = [int(c) for c in events[i + 1].cards][before:]
        for ev in events[i + 2:end]:
            if ev.kind is EventKind.DEAL_DRAW:
                cards.extend(int(c) for c in ev.cards)
        if j + 1 < len(masks):
            cards.extend(int(c) for c in events[end + 1].cards[:masks[j + 1][2]])
        else:
            cards.extend(hand.stub)
        observed.append(cards if hand.auto_deal else None)
    last_stub = list(hand.stub)
    budget = [_MAX_CHAIN_NODES]

    def search(j: int, after: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
        mask = masks[j][0]
        for state, fresh in _states_before_shuffle(after, mask):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            want = observed[j]
            if want is not None and fresh != want:
                continue
            if want is None and j == len(masks) - 1:
                left = set(last_stub)
                if [c for c in fresh if c in left] != last_stub:
                    continue
            found = (state if accept(state) else None) if j == 0 else search(j - 1, state)
            if found is not None:
                return found
        return None

    return search(len(masks) - 1, hand.rng.getstate())


def _states_before_shuffle(after: tuple[int, int, int, int], mask: int) -> Iterator[tuple[tuple[int, int, int, int],
                                                                                         list[int]]]:
    """The generator states from which shuffling the cards of ``mask`` leaves ``after`` (at most
    :data:`_MAX_SHUFFLE_STEPS` steps back), nearest first, each with the order it gives (lazily:
    a caller that finds what it looks for stops there).  A shuffle of ``k`` cards takes at least
    ``k - 1`` draws, so the nearer states are not tried."""
    state = after
    probe = Rng(1)
    fewest = mask.bit_count() - 1
    for steps in range(_MAX_SHUFFLE_STEPS + 1):
        if steps >= fewest:
            probe.setstate(state)
            fresh = probe.shuffled(mask)
            if probe.getstate() == after:
                yield state, fresh
        state = _step_back(state)


_NOT_CHECKABLE = ("; a hand dealt from a stacked deck (deck=) cannot be checked so, and is not restored")


def _deck_problem(hand: _Saved, masks: list[tuple[int, int, int]], after: tuple[int, int, int, int]) -> str | None:
    """R11.1: the deck the hand shuffled at its start is the generator's, and every card order the hand
    still deals from follows from it.

    The generator is used by nothing else during a hand: ``after`` (its state after that shuffle: the
    state before the first reshuffle, or the snapshot's when there was none) is stepped back to the
    states from which a shuffle of the 32 cards leaves it, and one of them must give the order the
    hand shows.  A hand that deals itself (``auto_deal``) dealt that order exactly (the hole cards
    one at a time from the button's left, R5.1, then the replacements from the top, R6.2), so the
    hole cards, every replacement taken from the stub and the stub left must be that deck, in that
    order.  A hand dealt by hand (``auto_deal=False``) was given the cards its dealer chose; its stub
    (:meth:`~pokerdraw32.hand.Hand.deal` without cards deals from it) must be that deck less the cards
    dealt, in the deck's order, and a round-robin deal's cards the deck's first ones.  A stacked deck
    (``deck=``) was not shuffled by the generator: its snapshot is refused, since its stub cannot be
    told from an edited one.  (Reshuffled piles are checked by :func:`_reshuffle_chain`.)

    :returns: ``None``, or what is wrong (for :class:`SnapshotError`), naming ``rng`` (no such state),
        ``events`` (the cards a hand that deals itself dealt), ``round_robin`` or ``stub``."""
    n, events = hand.n, hand.events
    holes = [[int(c) for c in ev.cards] for ev in events if ev.kind is EventKind.DEAL_HOLE]
    stub = [] if masks else list(hand.stub)        # after a reshuffle the stub is the pile's (checked)
    if hand.auto_deal:
        dealt = [-1] * (5 * n)
        for k, cards in enumerate(holes[:n]):
            for j, c in enumerate(cards[:5]):
                dealt[k + n * j] = c
        end = masks[0][1] if masks else len(events)
        for ev in events[:end]:
            if ev.kind is EventKind.DEAL_DRAW:
                dealt.extend(int(c) for c in ev.cards)
        if masks:
            dealt.extend(int(c) for c in events[end + 1].cards[:masks[0][2]])
        order = dealt + stub
    else:
        rr = hand._round_robin
        dealt = [rr[k][j] for j in range(5) for k in range(n)] if rr else []
        left = set(stub)
    near = False                  # a deck that gives the cards dealt, but another stub
    found = False
    for _state, deck in _states_before_shuffle(after, FULL_MASK):
        found = True
        if hand.auto_deal:
            if deck == order:
                return None
            near = near or deck[:len(dealt)] == dealt
        elif deck[:len(dealt)] == dealt:
            if [c for c in deck if c in left] == stub:
                return None
            near = True
    if not found:
        return ("snapshot field 'rng' is not a state the generator leaves by shuffling the deck at the hand's start "
                "(and the reshuffles since) [R11.1]" + _NOT_CHECKABLE)
    if near:
        return ("snapshot field 'stub' is not in the order the generator's state ('rng') gives (the deck it shuffled "
                "at the hand's start, less the cards dealt) [R11.1]" + _NOT_CHECKABLE)
    if hand.auto_deal:
        return ("snapshot field 'events': the cards dealt are not the deck the generator's state ('rng') gives, in "
                "the order dealt [R5.1, R6.2, R11.1]" + _NOT_CHECKABLE)
    return ("snapshot field 'round_robin': the cards set aside for the hole cards are not the first of the deck the "
            "generator's state ('rng') gives [R5.1, R11.1]" + _NOT_CHECKABLE)


def _check_round_robin(h: Hand, rr: list[list[int]]) -> None:
    """The cards set aside for dealing the hole cards one at a time (R5.1, ``deal()`` without
    cards from an untouched stub): ``n`` hands of 5 different cards, those already dealt equal to
    the deal events, and, while dealing, the stub is the rest of the stub they came from."""
    n = h.n
    if not rr:
        return
    flat = [c for cards in rr for c in cards]
    if h.auto_deal or len(rr) != n or any(len(cards) != 5 for cards in rr) or len(set(flat)) != 5 * n:
        raise SnapshotError("snapshot field 'round_robin' is not a round-robin deal of this hand [R5.1]")

    dealt = [[int(c) for c in ev.cards] for ev in h.events if ev.kind is EventKind.DEAL_HOLE]
    if rr[:len(dealt)] != dealt:
        raise SnapshotError("snapshot field 'round_robin' does not match the hole cards dealt [R5.1]")
    if h.phase is Phase.DEAL:
        taken = set(flat)
        rest = [c for c in h.stub if c not in taken]
        original = [rr[k][j] for j in range(5) for k in range(n)] + rest
        gone = {c for cards in dealt for c in cards}
        if h.stub != [c for c in original if c not in gone]:
            raise SnapshotError("snapshot field 'stub' is not what remains of the round-robin deal [R5.1]")


class _Reader:
    """Typed access to snapshot fields; every error names the field.  (The table snapshot's reader
    is a subclass with its own error class and wording.)"""

    error: type[PokerDraw32Error] = SnapshotError
    where = "snapshot field"

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def field(self, name: str, types: type | tuple[type, ...]) -> Any:
        if name not in self.data:
            raise self.error(f"{self.where} {name!r} is missing")
        return self.check(name, self.data[name], types)

    def check(self, name: str, value: Any, types: type | tuple[type, ...]) -> Any:
        wanted = types if isinstance(types, tuple) else (types,)
        if (isinstance(value, bool) and bool not in wanted) or not isinstance(value, wanted):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in wanted)
            raise self.error(f"{self.where} {name!r}: {shown(value)} is not {names}")
        return value

    def integer(self, name: str, lo: int, hi: int) -> int:
        value = self.field(name, int)
        if not lo <= value <= hi:
            raise self.error(f"{self.where} {name!r}: {shown(value)} is outside {lo}..{hi}")
        return int(value)

    def list_of(self, name: str, length: int | None) -> list[Any]:
        value: list[Any] = self.field(name, list)
        if length is not None and len(value) != length:
            raise self.error(f"{self.where} {name!r}: {len(value)} entries, expected {length}")
        return value

    def int_list(self, name: str, length: int) -> list[int]:
        out = []
        for v in self.list_of(name, length):
            self.check(name, v, int)
            if not 0 <= v <= MAX_CHIPS:
                raise self.error(f"{self.where} {name!r}: {shown(v)} is not a number of chips [R3.2]")
            out.append(int(v))
        return out

    def seat(self, name: str, value: Any, n: int) -> int:
        self.check(name, value, int)
        if not 0 <= value < n:
            raise self.error(f"{self.where} {name!r}: seat {shown(value)} is not a seat 0..{n - 1}")
        return int(value)

    def rng(self, name: str) -> Rng:
        """A generator from its state as :func:`snapshot` writes it: four words of 16 lower-case
        hex digits, not all zero (R11.1)."""
        words = self.list_of(name, 4)
        for w in words:
            self.check(name, w, str)
            if len(w) != 16 or w.strip("0123456789abcdef"):
                raise self.error(f"{self.where} {name!r}: {shown(w)} is not 16 lower-case hex digits")
        rng = Rng(0)
        try:
            rng.setstate([int(w, 16) for w in words])
        except ValueError as exc:
            raise self.error(f"{self.where} {name!r}: {_short(str(exc))}") from None
        return rng

    def cards(self, name: str, value: Any = None) -> list[int]:
        items = self.list_of(name, None) if value is None else self.check(name, value, list)
        out = []
        for token in items:
            self.check(name, token, str)
            try:
                out.append(int(parse_card(token)))
            except PokerDraw32Error as exc:
                raise self.error(f"{self.where} {name!r}: {exc}") from None
        return out
