"""One game table of the server: the engine's :class:`~pokerdraw32.table.Table`, its seats'
players (tokens, time banks, bots, connections), its numbered log, its clocks.

Every change goes the same way (:meth:`Room._apply`), under the room's lock, so engine calls
on a table never overlap:

1. the engine applies it, or refuses it and nothing has changed;
2. the new log entries are numbered, and they and the room's state are written to the database
   in one transaction (:class:`~pokerdraw32.server.store.Commit`): the table as the steps of
   its journal since the last commit (:attr:`Table.journal`, a few dozen bytes an action), or
   between hands as a new base, its snapshot (:meth:`_journal`); a restore replays the steps
   on the base (:func:`table_of`);
3. only then is anyone told: each connection receives the entries as its seat may see them,
   then its new ``state``, in one frame (PROTOCOL.md, Frames; each entry is turned into JSON
   once for all, the public part of the state once for all seats, :meth:`Table.view_parts`).

If the database refuses the write, the room goes back to its last committed state and the
request gets a ``storage`` error: nothing is lost, nothing half-applied.

The room's driver task runs the clocks (R6.3, R7.3 and the raise limit, with each player's time
bank), the bots' turns, the disconnect grace period, the bots' re-buys and the start of each
hand, each as such a change.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .._handcore.events import events_for as _redacted
from ..actions import Action, Event, EventKind
from ..bots import SeatView, make_bot
from ..errors import PokerDraw32Error
from ..table import Table
from ._loop import running_loop
from .config import ServerSettings, TableConfig
from .protocol import ProtocolError, dumps
from .store import Commit, StaleTableError, StorageError, Store

if TYPE_CHECKING:
    from .connection import Connection

__all__ = ["Player", "Room", "journal_of", "stored_table", "table_of"]

log = logging.getLogger("pokerdraw32.server")

RECENT = 4096
"""Log entries each room keeps in memory for clients that resume; older ones are read from the
database."""
PAGE = 1000
"""Log entries read from the database at a time for a replay."""
JOURNAL_LIMIT = 256
"""Steps of a table's journal after which a commit writes a new base even while a hand runs."""


class Player:
    """A seated player as the server knows them (the engine's seat holds the chips).

    :ivar token_hash: SHA-256 (hex) of the seat token; ``None`` for a bot.
    :ivar joined_seq: the table's last log entry when they sat down: entries up to it (the
        previous player's cards) are never shown to them as their own.
    :ivar bank: time bank left, in seconds.
    :ivar away: sat out by the server after the grace period (sat in again on their return).
    """

    __slots__ = ("away", "bank", "bot", "brain", "conn", "gone_at", "join_key", "joined_seq", "name", "seat",
                 "token_hash")

    def __init__(self, seat: int, name: str, token_hash: str | None, bot: str | None, joined_seq: int,
                 bank: float, away: bool = False) -> None:
        self.seat = seat
        self.name = name
        self.token_hash = token_hash
        self.bot = bot
        self.joined_seq = joined_seq
        self.bank = bank
        self.away = away
        self.conn: Connection | None = None
        self.gone_at: float | None = None       # monotonic time the connection dropped (humans)
        self.brain: Any = None                  # the bot object
        self.join_key: str | None = None        # SHA-256 (hex) of the join's idempotency key, if it gave one

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "name": self.name, "token": self.token_hash, "bot": self.bot,
                             "joined_seq": self.joined_seq, "bank": self.bank, "away": self.away}
        if self.brain is not None:
            d["bot_rng"] = [f"{w:016x}" for w in self.brain.rng.getstate()]
        if self.join_key is not None:
            d["join_key"] = self.join_key
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        p = cls(int(d["seat"]), str(d["name"]), d["token"], d["bot"], int(d["joined_seq"]), float(d["bank"]),
                bool(d.get("away", False)))
        if p.bot is not None:
            p.brain = make_bot(p.bot)
            if "bot_rng" in d:
                p.brain.rng.setstate(tuple(int(w, 16) for w in d["bot_rng"]))
        p.join_key = d.get("join_key")
        return p


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


Entry = tuple[int, int, Any]    # (seq, hand, Event | table event dict)


class Alarm:
    """What the room's driver sleeps on: until :meth:`set` (a change) or a number of seconds,
    whichever comes first; an ``asyncio.Event`` with ``wait_for``, without the task and the
    waiters ``wait_for`` makes at every sleep (the driver sleeps after every change)."""

    __slots__ = ("_due", "_set", "until")

    def __init__(self) -> None:
        self._set = False
        self._due: asyncio.Future[None] | None = None
        self.until: float | None = None
        """While it sleeps: the :func:`time.monotonic` time it wakes at without a set (inf: only
        a set wakes it); else None."""

    def set(self) -> None:
        self._set = True
        due = self._due
        if due is not None and not due.done():
            due.set_result(None)

    def clear(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set

    async def sleep(self, seconds: float | None) -> None:
        """Return once set (at once if it is), or after ``seconds`` (None: only once set)."""
        if self._set:
            return
        loop = running_loop()
        self._due = due = loop.create_future()
        timer = None if seconds is None else loop.call_later(seconds, _ring, due)
        self.until = math.inf if seconds is None else time.monotonic() + seconds
        try:
            await due
        finally:
            self._due = self.until = None
            if timer is not None:
                timer.cancel()


def _ring(due: asyncio.Future[None]) -> None:
    if not due.done():
        due.set_result(None)


class Room:
    """One table of the server (see the module docstring).  Built by :meth:`create` or
    :meth:`restore`; the server calls the request methods (``join``, ``act`` ...) from
    connection handlers and runs :meth:`drive` as a task."""

    def __init__(self, config: TableConfig, store: Store, settings: ServerSettings) -> None:
        self.config = config
        self.id = config.id
        self.store = store
        self.settings = settings
        self.lock = asyncio.Lock()
        self.wake = Alarm()
        self.table: Table = config.new_table()
        self.players: dict[int, Player] = {}
        self.watchers: set[Connection] = set()
        self.seq = 0
        self.hand_logged = 0                  # entries of the running hand's log already numbered
        self.recent: deque[Entry] = deque(maxlen=RECENT)
        self.next_hand_at = 0.0
        self._turn: tuple[int, float] | None = None   # (seat, act_at) of the decision being timed
        self._turn_started = 0.0
        self.ledger_saved = 0                 # ledger lines committed (pd32_ledger)
        # what is committed (pd32_journal): the base, the table's snapshot at journal line
        # _base_line (0: not written yet), and the table's journal since, its first _steps_saved
        # steps up to line _journal_line; the room's last committed state (pd32_tables)
        self._base: dict[str, Any] = {}
        self._base_line = 0
        self._journal_line = 0
        self._steps_saved = 0
        self._rebase = False                  # the next commit writes a base (restored: the steps are in another clock)
        self._committed: dict[str, Any] = {}
        self.closed = False
        self.fence: tuple[str, int] | None = None     # (server id, epoch) of this process's lease (a cluster)
        self.on_stale: Callable[[Room], None] | None = None
        """Called when the database holds a newer state of the table than this room's (a lease
        lost, or a commit whose answer was lost went through): the room must be let go."""

    # ------------------------------------------------------------------ creation and restore
    @classmethod
    async def create(cls, config: TableConfig, store: Store, settings: ServerSettings,
                     fence: tuple[str, int] | None = None) -> Room:
        """A new table with its bots seated, written to the database (in a cluster, with this
        process's lease ``fence`` on it).

        :raises StorageError: the write failed (in a cluster: also when another process created
            the table first).
        """
        room = cls(config, store, settings)
        room.fence = fence
        entries: list[dict[str, Any]] = []
        for seat, kind in config.bots:
            room._seat_bot(seat, kind, entries)
        room.next_hand_at = time.monotonic()
        numbered = room._number(entries)
        state, journal, base = room._journal()
        await store.commit(Commit(room.id, room.seq, state, [(s, h, room._stored(e)) for s, h, e in numbered],
                                  ledger=room._new_ledger(), new=True, config=config.to_dict(), fence=fence,
                                  journal=journal, journal_from=None if base is None else room._journal_line + 1))
        room._committed_now(state, base)
        room.recent.extend(numbered)
        return room

    @classmethod
    def restore(cls, config: TableConfig, state: dict[str, Any], seq: int, store: Store,
                settings: ServerSettings, fence: tuple[str, int] | None = None) -> Room:
        """The room as last committed (the running hand continues exactly; the player to act
        has the time they had left at that commit; every human counts as disconnected from now).

        :raises StorageError: the stored state does not restore (the engine's reason).
        """
        room = cls(config, store, settings)
        room.fence = fence
        room._load(state, seq)
        now = time.monotonic()
        for p in room.players.values():
            if p.bot is None:
                p.gone_at = now
        room.next_hand_at = now + settings.hand_pause
        return room

    def _load(self, state: dict[str, Any], seq: int) -> None:
        """Become the room ``state`` describes, as :meth:`_journal` wrote it and
        :meth:`Store.load_tables <pokerdraw32.server.store.Store.load_tables>` read it back (its
        ``"ledger"`` lines and its journal's ``"rows"`` from the base on), or as a server of
        schema version 1 wrote it (the whole table in ``"table"``, its ledger in it)."""
        try:
            if "journal" in state:
                j = state["journal"]
                base, steps = journal_of(state)
                self._restore(base, state["ledger"], steps,
                              {**state, "journal": {"base": j["base"], "line": j["line"]}, "ledger": None})
                self._base_line, self._journal_line = int(j["base"]), int(j["line"])
                # the steps' times are in the clock of the process that wrote them (time.monotonic:
                # another process, maybe another boot); the next commit writes a base in this one's
                self._rebase = True
            else:                                   # schema version 1: the whole table
                self.table = Table.restore(state["table"], clock=time.monotonic)
                self._base = {"table": self.table.snapshot(ledger_from=len(self.table.ledger)),
                              "ledger": len(self.table.ledger)}
                self._base_line = self._journal_line = self._steps_saved = 0    # the next commit writes a base
                self.table.journal = []
                self.players = {p.seat: p for p in (Player.from_dict(d) for d in state["players"])}
                self.hand_logged = int(state["hand_logged"])
                self._committed = {**state, "table": {**state["table"], "ledger": []}}
        except (PokerDraw32Error, KeyError, TypeError, ValueError, StorageError) as exc:
            raise StorageError(f"table {self.id!r}: the stored state does not restore: {exc}") from exc
        self.seq = seq
        self.ledger_saved = len(self.table.ledger)
        self._turn = None

    def _restore(self, base: dict[str, Any], ledger: list[dict[str, Any]], steps: list[dict[str, Any]],
                 state: dict[str, Any]) -> None:
        """The table from its ``base``, ``ledger`` and ``steps`` (:func:`table_of`); the
        players and the hand's log position from ``state``, which must be the replayed table's.

        :raises StorageError: the table does not restore, or is not the state's.
        """
        table = table_of(base, ledger, steps, state["clock"])
        h = table.hand
        logged = h.serial if h is not None and not h.is_complete else 0
        if int(state["hand_logged"]) != logged:
            raise StorageError(f"its journal replayed has {logged} events in the running hand, the state "
                               f"{state['hand_logged']}")
        table.journal = list(steps)
        self.table = table
        self.players = {p.seat: p for p in (Player.from_dict(d) for d in state["players"])}
        self.hand_logged = logged
        self._base = base
        self._steps_saved = len(steps)
        self._committed = state

    def _state(self) -> dict[str, Any]:
        """The room's whole state: the table's snapshot without its ledger (whose lines are
        committed one by one, :meth:`_new_ledger`), the players, the hand's log position."""
        return {"table": self.table.snapshot(ledger_from=len(self.table.ledger)),
                "players": [p.to_dict() for _, p in sorted(self.players.items())],
                "hand_logged": self.hand_logged if self._hand_running() else 0}

    def _journal(self) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]], dict[str, Any] | None]:
        """What a commit writes of the room: its state (pd32_tables: the players, the hand's log
        position, the hands begun, the clock's time and where the journal stands), its new journal rows, and its
        new base if it writes one (else None).

        The table's journal row holds the steps since the last commit (:attr:`Table.journal`: a
        few dozen bytes an action, whatever the table's age or the hand's length).  A new base,
        the table's snapshot, is written instead when there is none yet, between hands (the
        snapshot then holds no hand) and after :data:`JOURNAL_LIMIT` steps; it makes the rows
        before it useless (the commit deletes them)."""
        t = self.table
        journal = t.journal if t.journal is not None else []
        line = self._journal_line
        rows: list[tuple[int, dict[str, Any]]] = []
        base = None
        if self._base_line == 0 or self._rebase or t.journal is None or len(journal) >= JOURNAL_LIMIT or \
                not self._hand_running():
            if self._base_line == 0 or self._rebase or t.journal is None or len(journal) > self._steps_saved:
                line += 1
                base = {"table": t.snapshot(ledger_from=len(t.ledger)), "ledger": len(t.ledger)}
                rows.append((line, {"base": base}))
        elif len(journal) > self._steps_saved:
            line += 1
            rows.append((line, {"steps": journal[self._steps_saved:]}))
        state = {"journal": {"base": line if base is not None else self._base_line, "line": line},
                 "players": [p.to_dict() for _, p in sorted(self.players.items())],
                 "hand_logged": self.hand_logged if self._hand_running() else 0,
                 "hand_count": t.hand_count,      # for the lobby of a cluster (other processes read it)
                 "clock": t.clock()}
        return state, rows, base

    def _committed_now(self, state: dict[str, Any], base: dict[str, Any] | None) -> None:
        """The commit of ``state`` (and of ``base``, if it wrote one) is durable."""
        j = state["journal"]
        if base is not None:
            self._base = base
            self.table.journal = []
            self._rebase = False
        self._base_line, self._journal_line = j["base"], j["line"]
        self._steps_saved = len(self.table.journal or ())
        self._committed = state
        self.ledger_saved = len(self.table.ledger)

    def _roll_back(self) -> None:
        """Back to the last committed state: the base and the steps committed since, replayed."""
        self._turn = None
        saved = [e.to_dict() for e in self.table.ledger[:self.ledger_saved]]
        steps = (self.table.journal or [])[:self._steps_saved]
        if "journal" in self._committed:
            self._restore(self._base, saved, steps, self._committed)
        else:                                   # restored from schema version 1, nothing committed since
            committed = self._committed
            self._load({**committed, "table": {**committed["table"], "ledger": saved}}, self.seq)

    # ------------------------------------------------------------------ the one way to change
    async def _apply(self, change: Callable[[list[Any]], Any]) -> tuple[Any, int]:
        """Run ``change(entries)`` (it changes the engine and appends table events to
        ``entries``; raising, it must have changed nothing), number the new entries, commit,
        then publish.  Returns ``(change's result, last seq)``.  Called with the lock held.

        :raises StorageError: the commit failed; the room is back to its last committed state.
        """
        if self.closed:          # let go (a cluster's table moved): never written again from here
            raise StorageError(f"table {self.id} is no longer run by this server process")
        entries: list[Any] = []
        before = dict(self.players)     # a change leaves their connections alone; paid out, they leave this dict
        result = change(entries)
        finished, departed = self._collect(entries)
        numbered = self._number(entries)
        hands: list[tuple[int, str]] = []
        stored = [self._stored(e) for _, _, e in numbered]       # also the events of the messages
        try:
            if finished:
                # its PHH fields as JSON: the TOML text is written when the hands are asked for
                hands.append((self.table.hand_count, dumps(self.table.last_history().to_document())))
            state, journal, base = self._journal()
            await self.store.commit(Commit(self.id, self.seq, state,
                                           [(s, h, d) for (s, h, _), d in zip(numbered, stored, strict=True)],
                                           hands, self._new_ledger(), fence=self.fence, journal=journal,
                                           journal_from=None if base is None else journal[0][0]))
        except (StorageError, PokerDraw32Error) as exc:
            log.error("table %s: %s; back to the last committed state", self.id, exc)
            self.seq -= len(numbered)
            self._roll_back()
            for seat, p in self.players.items():
                old = before.get(seat)
                conn, p.gone_at = (None, None) if old is None else (old.conn, old.gone_at)
                if conn is not None and conn.player is old:      # still connected: to the restored player
                    p.conn = conn
                    conn.player = p
            if isinstance(exc, StaleTableError) and self.on_stale is not None:
                self.on_stale(self)
            raise StorageError(f"the database refused the change; nothing was applied ({exc})") from exc
        self._committed_now(state, base)
        self.recent.extend(numbered)
        self._publish(numbered, departed, stored)
        if self._driver_needed():
            self.wake.set()
        return result, self.seq

    def _driver_needed(self) -> bool:
        """Whether the driver must be woken after a change.  Not when it is awake: it is waiting
        for the room's lock or making this very change, and looks at the table before it sleeps
        again (between reading the table and sleeping it does not let others run).  Not either
        when a person is to act (who has not left) and the driver sleeps with a timer due no
        later than anything of that turn (the raise limit, the decision deadline plus the time
        bank): it wakes then, finds nothing due, and sleeps until the next thing.  So a person's
        turn after a person's turn, most changes, does not wake it.  A player's disconnection,
        the one thing due that no change sets, wakes it itself (:meth:`disconnected`)."""
        until = self.wake.until
        if until is None:
            return False
        t = self.table
        d = t.deadline
        if until == math.inf or d is None or not self._hand_running():
            return True
        p = self.players.get(d.seat)
        if p is None or p.bot is not None or t.seat(d.seat).leaving:
            return True
        soonest = d.act_at + (0.0 if p.away else p.bank)
        if d.raise_at is not None:
            soonest = min(soonest, d.raise_at)
        return soonest < until

    def _collect(self, entries: list[Any]) -> tuple[bool, list[tuple[Player, int]]]:
        """Append the running hand's new log entries to ``entries``; after a hand's end, settle the
        server's side (time bank refills, ``left`` entries of players paid out).  Returns whether a
        hand finished, and the players paid out with their chips."""
        t = self.table
        finished = False
        if t.hand is not None and self.hand_logged < t.hand.serial:
            new = t.dealer_events(self.hand_logged)
            self.hand_logged += len(new)
            entries.extend(new)
            if t.hand.is_complete:
                finished = True
                self.next_hand_at = time.monotonic() + self.settings.hand_pause
                for seat in t.hand_seats:
                    p = self.players.get(seat)
                    if p is not None:
                        p.bank = min(self.config.time_bank, p.bank + self.config.bank_refill)
        departed = []
        occupied = t.occupied
        for seat in list(self.players):
            if seat not in occupied:                            # paid out (now or at the hand's end)
                p = self.players.pop(seat)
                paid = next(e.chips for e in reversed(t.ledger) if e.kind == "cash_out" and e.seat == seat)
                entries.append({"kind": "left", "seat": seat, "name": p.name, "chips": paid})
                departed.append((p, paid))
        return finished, departed

    def _new_ledger(self) -> list[tuple[int, dict[str, Any]]]:
        return [(i, e.to_dict()) for i, e in enumerate(self.table.ledger[self.ledger_saved:], self.ledger_saved)]

    def _number(self, entries: list[Any]) -> list[Entry]:
        out = []
        for e in entries:
            self.seq += 1
            out.append((self.seq, self.table.hand_count, e))
        return out

    @staticmethod
    def _stored(e: Any) -> dict[str, Any]:
        return e.to_dict() if isinstance(e, Event) else e

    # ------------------------------------------------------------------ what each seat sees
    def entry_for(self, entry: Entry, player: Player | None) -> dict[str, Any]:
        """The ``event`` message of log entry ``entry`` as ``player`` (None: an onlooker) may see
        it: another seat's private cards (a deal, a discard, a draw) are hidden, and so are the
        cards of an earlier player of the same seat."""
        seq, hand, e = entry
        if isinstance(e, Event):
            viewer = player.seat if player is not None and seq > player.joined_seq else None
            e = _redacted([e], viewer, 0)[0].to_dict()
        return {"type": "event", "v": 1, "table": self.id, "seq": seq, "hand": hand, "event": e}

    def state_for(self, player: Player | None) -> dict[str, Any]:
        """The ``state`` message for ``player`` (None: an onlooker)."""
        view = self.table.view(None if player is None else player.seat)
        del view["deadline"]                  # in the server's monotonic clock: given as "clock"
        return {"type": "state", "v": 1, "table": self.id, "seq": self.seq,
                "you": None if player is None else player.seat, "view": view, "clock": self.clock()}

    def states_for(self, players: Sequence[Player | None]) -> dict[int, str]:
        """The ``state`` messages of ``players`` (None: an onlooker) as JSON text, by ``id()`` of
        each: the text :func:`dumps` writes of :meth:`state_for`'s message, character for
        character, made of the part everyone sees turned into JSON once for all
        (:meth:`Table.view_parts`) and each seat's own part (its cards, showdown choice and
        legal actions) put in."""
        public, own = self.table.view_parts([None if p is None else p.seat for p in players])
        del public["deadline"]                 # in the server's monotonic clock: given as "clock"
        hand = public.pop("hand")
        # '{"type":"state",...,"you":' + seat + ',"view":{"seats":...,"hand":' + hand + '},"clock":...}'
        start = f'{{"type":"state","v":1,"table":{dumps(self.id)},"seq":{self.seq},"you":'
        view = f',"view":{dumps(public)[:-1]},"hand":'
        everyone = dumps(hand)                           # "null" or '{"phase":...,"pots":[...]}'
        opened = everyone[:-1]                           # a seat's own part goes before its "}"
        end = f'}},"clock":{dumps(self.clock())}}}'      # the view's end, then the clock's
        out = {}
        for player, mine in zip(players, own, strict=True):
            if player is None:
                out[id(player)] = f"{start}null{view}{everyone}{end}"
            elif mine is None:
                out[id(player)] = f"{start}{player.seat}{view}{everyone}{end}"
            else:
                out[id(player)] = f"{start}{player.seat}{view}{opened},{dumps(mine)[1:]}{end}"
        return out

    def clock(self) -> dict[str, Any] | None:
        d = self.table.deadline
        if d is None:
            return None
        now = time.monotonic()
        p = self.players.get(d.seat)
        return {"seat": d.seat, "act_in": round(d.act_at - now, 3),
                "raise_in": None if d.raise_at is None else round(d.raise_at - now, 3),
                "bank": 0.0 if p is None else round(p.bank, 3), "server_time": time.time()}

    def _publish(self, numbered: list[Entry], departed: Sequence[tuple[Player, int]] = (),
                 stored: Sequence[dict[str, Any]] | None = None) -> None:
        """Send each connection the new entries as its seat may see them, then its ``state``,
        queued together (one frame, PROTOCOL.md).  Each entry is turned into JSON once for
        everyone (a private one twice: as its own seat and as the others see it), each state once
        per seat (onlookers share one).  Players paid out see their hand's end as players, then
        get ``left`` and go on watching the table as onlookers."""
        gone = {id(p.conn): (p, paid) for p, paid in departed if p.conn is not None and p.conn.player is p}
        conns = self.connections()
        if gone:
            conns += [p.conn for p, _ in gone.values() if p.conn is not None]
        if not conns:
            return
        texts = [self._entry_texts(entry, None if stored is None else stored[i]) for i, entry in enumerate(numbered)]
        everyone = [public for _, public, _, _ in texts]
        owners = {owner for _, _, owner, _ in texts if owner is not None}     # seats that see more
        viewers: list[Player | None] = []
        queued: list[list[str]] = []
        for conn in conns:
            player = conn.player
            if player is not None and player.seat in owners:
                seat, joined = player.seat, player.joined_seq
                mine = [own if owner == seat and seq > joined else public for seq, public, owner, own in texts]
            else:
                mine = everyone
            if gone and id(conn) in gone:
                p, paid = gone[id(conn)]
                conn.player = None
                mine = [*mine, dumps({"type": "left", "v": 1, "table": self.id, "seat": p.seat, "chips": paid})]
                self.watchers.add(conn)
                conn.room = self
                player = None
            viewers.append(player)
            queued.append(mine)
        states = self.states_for(list({id(p): p for p in viewers}.values()))
        to_act = self.table.actor
        for conn, player, mine in zip(conns, viewers, queued, strict=True):
            # a seat to act gets its turn at once; the others' frames may wait (FRAME_HOLD)
            conn.send_texts([*mine, states[id(player)]], urgent=player is not None and player.seat == to_act,
                            state=True)

    def _entry_texts(self, entry: Entry, whole: dict[str, Any] | None = None) -> tuple[int, str, int | None, str]:
        """``(seq, the event message as everyone but the owner sees it, the owner's seat or None,
        the owner's message)`` of log entry ``entry`` (``whole``: its event as stored, if made
        already): only a private event (a deal, discard or draw,
        :data:`pokerdraw32._handcore.events.PRIVATE_EVENTS`) with cards has an owner who sees more."""
        seq, hand, e = entry
        if isinstance(e, Event):
            public = _redacted([e], None, 0)[0]
            if public is not e:
                own = dumps({"type": "event", "v": 1, "table": self.id, "seq": seq, "hand": hand,
                             "event": whole or e.to_dict()})
                return seq, dumps({"type": "event", "v": 1, "table": self.id, "seq": seq, "hand": hand,
                                   "event": public.to_dict()}), e.seat, own
            e = whole or e.to_dict()
        text = dumps({"type": "event", "v": 1, "table": self.id, "seq": seq, "hand": hand, "event": e})
        return seq, text, None, text

    def connections(self) -> list[Connection]:
        return [p.conn for p in self.players.values() if p.conn is not None] + list(self.watchers)

    def recent_after(self, last_seq: int, upto: int) -> list[Entry] | None:
        """Log entries ``last_seq < seq <= upto`` if they are all in memory, else None (read
        them with :meth:`stored_after`).  Called with the lock held."""
        if last_seq >= upto:
            return []
        if self.recent and self.recent[0][0] <= last_seq + 1:
            return [e for e in self.recent if last_seq < e[0] <= upto]
        return None

    async def stored_after(self, last_seq: int, upto: int) -> list[Entry]:
        """Log entries ``last_seq < seq <= upto`` from the database (a page at a time: at most
        :data:`PAGE` entries; call again from the last one returned)."""
        rows = await self.store.events(self.id, last_seq, min(upto, last_seq + PAGE))
        return [(s, h, e if not _is_hand_event(e) else Event.from_dict(e)) for s, h, e in rows]

    # ------------------------------------------------------------------ requests
    def _seat_bot(self, seat: int, kind: str, entries: list[Any]) -> None:
        t = self.table
        name = f"bot-{seat}"
        chips = TableConfig.default_buy_in(t)
        t.join(seat, name, chips)
        p = Player(seat, name, None, kind, self.seq, self.config.time_bank)
        p.brain = make_bot(kind, None if self.config.seed is None else self.config.seed * 8 + seat)
        self.players[seat] = p
        entries.append({"kind": "seated", "seat": seat, "name": name, "chips": chips, "bot": kind})

    async def join(self, name: str, seat: int | None, chips: int | None,
                   wait: bool, key: str | None = None) -> tuple[Player, str]:
        """Seat a person (R10.1, R10.2); returns the player and their secret token.

        ``key`` (a secret the client chose) makes the join idempotent: a join repeated with the
        same key and name (its answer lost, in a failover) finds the seat it took, and gets a
        new token for it (the first one no longer works), instead of a second seat.
        """
        t = self.table
        if key is not None:
            kh = token_hash(key)
            again = next((p for p in self.players.values() if p.join_key is not None
                          and secrets.compare_digest(p.join_key, kh)), None)
            if again is not None:
                if again.name != name:
                    raise ProtocolError("seat_taken", f"join: the key of this join took seat {again.seat} under "
                                                      f"another name")
                return again, await self._new_token(again)
        if seat is None:
            free = [s for s in range(t.seat_count) if s not in t.occupied]
            if not free:
                raise ProtocolError("seat_taken", f"table {self.id} is full")
            seat = free[0]
        elif not 0 <= seat < t.seat_count:
            raise ProtocolError("bad_message", f"join: table {self.id} has seats 0 to {t.seat_count - 1}")
        elif seat in t.occupied:
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        if name.lower().startswith("bot-"):
            raise ProtocolError("table_error", f"join: names starting with 'bot-' are the server's bots', got {name!r}")
        token = secrets.token_urlsafe(32)
        buy_in = TableConfig.default_buy_in(t) if chips is None else chips

        def change(entries: list[Any]) -> Player:
            t.join(seat, name, buy_in, wait=wait)
            p = Player(seat, name, token_hash(token), None, self.seq, self.config.time_bank)
            p.join_key = None if key is None else token_hash(key)
            self.players[seat] = p
            entries.append({"kind": "seated", "seat": seat, "name": name, "chips": buy_in, "bot": None})
            return p

        player, _ = await self._apply(change)
        assert isinstance(player, Player)
        return player, token

    async def _new_token(self, player: Player) -> str:
        """A new token for ``player``'s seat, committed (the old one stops working)."""
        token = secrets.token_urlsafe(32)
        old = player.token_hash

        def change(entries: list[Any]) -> None:
            player.token_hash = token_hash(token)
        try:
            await self._apply(change)
        except StorageError:
            player.token_hash = old
            raise
        return token

    def by_token(self, token: str) -> Player | None:
        h = token_hash(token)
        for p in self.players.values():
            if p.token_hash is not None and secrets.compare_digest(p.token_hash, h):
                return p
        return None

    async def returned(self, player: Player) -> None:
        """The player's connection is back: the grace clock stops; sat out by the server, they
        are sat in again (R10.3 applies to what they missed)."""
        player.gone_at = None
        if player.away and player.seat in self.table.occupied:
            def change(entries: list[Any]) -> None:
                self.table.sit_in(player.seat)
                player.away = False
                entries.append({"kind": "sat_in", "seat": player.seat, "reason": "returned"})
            await self._apply(change)

    def disconnected(self, player: Player) -> None:
        player.gone_at = time.monotonic()
        self.wake.set()

    async def act(self, player: Player, action: Action, seq: int | None) -> int:
        """The player's action (R5-R8); the clock's time beyond the decision deadline comes off
        their time bank."""
        t = self.table
        if seq is not None and seq != self.seq:
            raise ProtocolError("stale", f"the table is at entry {self.seq}, not {seq}: decide on the latest state")
        if t.actor != player.seat:
            raise ProtocolError("not_your_turn", f"seat {player.seat} is not to act"
                                + ("" if t.actor is None else f" (seat {t.actor} is)"))
        d = t.deadline

        def change(entries: list[Any]) -> None:
            now = time.monotonic()
            t.act(player.seat, action)
            if d is not None and now > d.act_at:
                used = min(player.bank, now - d.act_at)
                player.bank -= used
                entries.append({"kind": "time_bank", "seat": player.seat, "used": round(used, 3),
                                "left": round(player.bank, 3)})
        _, last = await self._apply(change)
        return last

    async def showdown(self, player: Player, show: bool | None) -> int:
        """Show or muck at the showdown, said in advance (R9.3)."""
        if not self._hand_running():
            raise ProtocolError("table_error", "no hand is running: a showdown choice is for the running hand [R9.3]")
        _, last = await self._apply(lambda entries: self.table.set_showdown_choice(player.seat, show))
        return last

    async def sit_out(self, player: Player, out: bool = True) -> int:
        """The player sits out from the next hand (``out``; R10.3: blinds missed are recorded), or
        sits in again (paying what they missed)."""
        if self.table.seat(player.seat).sitting_out == out:
            raise ProtocolError("table_error", f"seat {player.seat} already {'sits out' if out else 'plays'} [R10.3]")

        def change(entries: list[Any]) -> None:
            (self.table.sit_out if out else self.table.sit_in)(player.seat)
            player.away = False
            entries.append({"kind": "sat_out" if out else "sat_in", "seat": player.seat, "reason": "player"})
        return (await self._apply(change))[1]

    async def add_chips(self, player: Player, chips: int) -> int:
        def change(entries: list[Any]) -> None:
            self.table.add_chips(player.seat, chips)
            entries.append({"kind": "chips_added", "seat": player.seat, "chips": chips})
        return (await self._apply(change))[1]

    async def leave(self, player: Player) -> tuple[int | None, int]:
        """Leave the table: paid out now, or at the end of the running hand (``None``)."""
        def change(entries: list[Any]) -> int | None:
            return self.table.leave(player.seat)
        paid, last = await self._apply(change)
        return paid, last

    # ------------------------------------------------------------------ the driver
    def _hand_running(self) -> bool:
        h = self.table.hand
        return h is not None and not h.is_complete

    async def drive(self) -> None:
        """The room's clock: apply what is due, then sleep until the next thing is due or a
        change wakes it.  Runs until cancelled."""
        backoff = 0.0
        while not self.closed:
            self.wake.clear()
            try:
                async with self.lock:
                    delay = await self._step()
                backoff = 0.0
            except StorageError:
                backoff = min(5.0, backoff * 2 or 0.1)
                delay = backoff
            except Exception:
                log.exception("table %s: the driver failed", self.id)
                backoff = min(5.0, backoff * 2 or 0.1)
                delay = backoff
            if delay == 0.0:
                await asyncio.sleep(0)
                continue
            await self.wake.sleep(delay)

    async def _step(self) -> float | None:
        """Apply one thing that is due; return 0.0 to be called again at once, the seconds until
        the next thing is due, or None to wait for a change."""
        now = time.monotonic()
        t = self.table
        waits: list[float] = []
        # the grace period of disconnected players (R10.3 then applies to the blinds they miss)
        for p in self.players.values():
            if p.gone_at is not None and not p.away and not t.seat(p.seat).sitting_out:
                due = p.gone_at + self.settings.grace
                if now >= due:
                    await self._apply(functools.partial(self._away, p))
                    return 0.0
                waits.append(due - now)
        if self._hand_running():
            d = t.deadline
            if d is None:
                return min(waits, default=None)
            if self._turn != (d.seat, d.act_at):
                self._turn = (d.seat, d.act_at)
                self._turn_started = now
            actor = self.players.get(d.seat)
            if actor is not None and actor.bot is not None:
                due = self._turn_started + self.settings.bot_delay
                if now >= due:
                    await self._apply(lambda entries: self._bot_acts(actor))
                    return 0.0
                waits.append(due - now)
            if actor is not None and t.seat(d.seat).leaving:
                # the player has left: nobody will act for them; the timeout rules apply at once
                await self._apply(lambda entries: t.act(d.seat, Action.timeout()))   # R6.3, R7.3
                return 0.0
            if d.raise_at is not None:
                if now >= d.raise_at:
                    await self._apply(lambda entries: t.expire(d.seat))
                    return 0.0
                waits.append(d.raise_at - now)
            bank = 0.0 if actor is None or actor.away else actor.bank
            if now >= d.act_at + bank:
                def timeout(entries: list[Any]) -> None:
                    t.expire(d.seat)
                    if actor is not None and bank:
                        actor.bank = 0.0
                        entries.append({"kind": "time_bank", "seat": d.seat, "used": round(bank, 3), "left": 0.0})
                await self._apply(timeout)
                return 0.0
            waits.append(d.act_at + bank - now)
            return max(0.0, min(waits))
        # between hands: bots re-buy, then the next hand starts
        for p in self.players.values():
            state = t.seat(p.seat)
            if p.bot is not None and state.stack == 0 and not state.sitting_out:
                await self._apply(functools.partial(self._rebuy, p))
                return 0.0
            if p.away and p.gone_at is not None and not state.leaving:
                due = p.gone_at + self.settings.grace + self.settings.away_limit
                if now >= due:             # away too long: the seat is freed, the chips paid out
                    await self._apply(functools.partial(self._send_away, p))
                    return 0.0
                waits.append(due - now)
        if now < self.next_hand_at:
            waits.append(self.next_hand_at - now)
            return min(waits)
        if not t.can_start_hand():
            return min(waits, default=None)     # fewer than two can play: wait for a change
        await self._apply(self._start_hand)
        return 0.0

    def _send_away(self, p: Player, entries: list[Any]) -> None:
        """Away past the limit: the player leaves (paid out now, or at the end of their hand)."""
        self.table.leave(p.seat)

    def _rebuy(self, p: Player, entries: list[Any]) -> None:
        """A bot without chips buys in again between hands; if the table refuses (its chip
        limit, R3.2), the bot sits out instead of stopping the table."""
        t = self.table
        chips = TableConfig.default_buy_in(t)
        try:
            t.add_chips(p.seat, chips)
        except PokerDraw32Error as exc:
            log.warning("table %s: bot at seat %d cannot buy in again (%s): it sits out", self.id, p.seat, exc)
            t.sit_out(p.seat)
            entries.append({"kind": "sat_out", "seat": p.seat, "reason": "cannot_buy_in"})
            return
        entries.append({"kind": "chips_added", "seat": p.seat, "chips": chips})

    def _away(self, p: Player, entries: list[Any]) -> None:
        """The grace period is over: the player sits out from the next hand (R10.3)."""
        self.table.sit_out(p.seat)
        p.away = True
        entries.append({"kind": "sat_out", "seat": p.seat, "reason": "disconnected"})

    def _bot_acts(self, p: Player) -> None:
        t = self.table
        h = t.hand
        assert h is not None
        view = SeatView.of(h, t.hand_seats.index(p.seat))
        try:
            action: Action | str = p.brain.decide(view)
        except Exception:       # a bot that cannot decide (e.g. a heads-up bot at 3 players) times out
            log.exception("table %s: the bot at seat %d (%s) failed to decide: it times out (R6.3, R7.3)", self.id,
                          p.seat, p.bot)
            action = Action.timeout()
        t.act(p.seat, action)

    def _start_hand(self, entries: list[Any]) -> None:
        t = self.table
        t.start_hand()
        self.hand_logged = 0
        entries.append({"kind": "hand_start", "hand": t.hand_count, "button": t.button, "seats": list(t.hand_seats)})


def journal_of(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The base and the steps of a room's stored ``state`` as :meth:`Store.load_tables
    <pokerdraw32.server.store.Store.load_tables>` reads it: its journal rows
    (``state["journal"]["rows"]``, ``(line, entry)``) must be the base's line and every line
    after it up to ``state["journal"]["line"]``.

    :raises StorageError: they are not.
    """
    j = state["journal"]
    rows = j["rows"]
    lines = [line for line, _ in rows]
    if not rows or lines != list(range(j["base"], j["line"] + 1)) or "base" not in rows[0][1]:
        raise StorageError(f"journal lines {lines[:3]}...{lines[-3:]}: expected the base at line {j['base']} "
                           f"and the steps after it up to line {j['line']}")
    return rows[0][1]["base"], [step for _, row in rows[1:] for step in row["steps"]]


def table_of(base: dict[str, Any], ledger: list[dict[str, Any]], steps: list[dict[str, Any]],
             saved_at: float) -> Table:
    """The engine table from a room's journal: its ``base`` (``base["table"]``, a snapshot
    without the first ``base["ledger"]`` lines of ``ledger``, the table's whole ledger) and the
    ``steps`` of :attr:`Table.journal` since, saved at ``saved_at`` (:meth:`Table.restore`);
    the replayed table must have written ``ledger`` line for line.

    :raises StorageError: it has not.
    :raises PokerDraw32Error: the engine refuses the base or a step (named).
    """
    table = Table.restore({**base["table"], "ledger": ledger[:base["ledger"]]}, clock=time.monotonic,
                          steps=steps, saved_at=saved_at)
    if len(table.ledger) != len(ledger) or any(e.to_dict() != d for e, d in zip(table.ledger, ledger, strict=False)):
        raise StorageError(f"its journal replayed makes {len(table.ledger)} ledger lines, not the {len(ledger)} "
                           f"stored")
    return table


def stored_table(state: dict[str, Any]) -> Table:
    """The engine table of a room's stored ``state`` as :meth:`Store.load_tables
    <pokerdraw32.server.store.Store.load_tables>` reads it (its journal replayed; or of schema
    version 1, the whole table in ``state["table"]``).

    :raises StorageError: see :func:`journal_of`, :func:`table_of`.
    :raises PokerDraw32Error: the engine refuses it.
    """
    if "journal" not in state:
        return Table.restore(state["table"], clock=time.monotonic)
    base, steps = journal_of(state)
    return table_of(base, state["ledger"], steps, state["clock"])


_HAND_KINDS = frozenset(k.value for k in EventKind)


def _is_hand_event(e: dict[str, Any]) -> bool:
    return e.get("kind") in _HAND_KINDS
