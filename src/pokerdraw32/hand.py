"""The hand state machine: one hand of 32-Card Draw from the blinds to the last chip (R3-R9).

Seats are numbered ``0 .. n-1`` clockwise (2 <= n <= 5, R3.1); ``button`` is the dealer's
seat.  The hand posts the blinds (R4), deals (R5.1), runs the first betting round (R5),
the draw (R6), the second round with Parole (R7, R8) and the showdown (R9).

Every decision is taken with :meth:`Hand.act` (or the shortcuts :meth:`fold`,
:meth:`check`, :meth:`call`, :meth:`bet`, :meth:`raise_to`, :meth:`split`,
:meth:`decline`, :meth:`discard`, :meth:`timeout`).  An illegal action raises
:class:`~pokerdraw32.errors.IllegalActionError` naming the seat, the amount and the rule,
and leaves the hand exactly as it was.  :meth:`Hand.legal_actions` tells who acts and
with which chip bounds; :meth:`Hand.can` asks without raising.

By default the hand deals from its own deck, shuffled by a seeded or OS-seeded
:class:`~pokerdraw32._kernels.Rng` (R11).  With ``auto_deal=False`` each deal waits in
:attr:`Hand.pending_deal` and :meth:`Hand.deal` takes explicit cards (to replay a known
hand), checking that they are free and, in the draw, that R6.2 allows them.  ``posts``
adds entry bets and missed blinds before the deal (R10.2, R10.3; set by
:class:`~pokerdraw32.table.Table`).

For servers and search: :meth:`Hand.view` / :meth:`Hand.public_view` (JSON data, nothing a seat
may not know), :meth:`Hand.events_for` (the event stream a seat may see, from any index),
:meth:`Hand.snapshot` / :meth:`Hand.restore` (versioned JSON, see :mod:`pokerdraw32.snapshot`),
:meth:`Hand.clone` and :meth:`Hand.determinize`.  A server (or a replay) tells the hand in advance
whether a player shows or mucks at the showdown with :meth:`Hand.set_showdown_choice` (R9.3).

Rulings where RULES.md leaves a meeting of two rules open:

* pot-limit (R3.4): a raise by at most the pot after the player's call, so a raise to at most
  the current bet plus that pot (pot 10, a bet of 10: the call makes 30, raise to at most 40).
  When a short all-in blind (R4.5) leaves that below a minimum raise, the minimum raise stays
  possible;
* a player who timed out in the draw may only check, call or fold (R6.3): no Parole split,
  and, all-in, they are not asked and count as declining (R8.2);
* round two opens with the first player not all-in (R7.1); all-in players answer a Parole
  offer when the rotation reaches their seat (R8.2); a timed-out all-in player declines;
* uncalled chips (R9.2) go back at the end of each betting round, so views never show them
  in the pot.

>>> from pokerdraw32 import Hand, Rules
>>> h = Hand(Rules(), [100, 100, 100], button=0, seed=1)
>>> h.actor, h.legal_actions().min_to, h.legal_actions().call_amount
(0, 4, 2)
>>> for action in ("call", "call", "check"):   # button calls, small blind completes, big blind checks
...     _ = h.act(action)
>>> h.phase, h.pot
(<Phase.DRAW: 'draw'>, 6)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ._kernels import Rng, evaluate_mask, split_pots
from .actions import Action, ActionKind, Event, EventKind, LegalActions, Phase, _event, _legal
from .cards import DECK, FULL_MASK, Card, CardsLike, format_cards, parse_cards
from .errors import MAX_CHIPS, DealError, IllegalActionError, PokerDraw32Error, RulesError, integer, shown
from .evaluation import describe_value
from .rules import Rules, SecondRoundFirst, Structure

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 10 ms) at run time
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DealRequest", "Hand", "HandResult", "Pot"]

_ROUND_PHASES = (Phase.FIRST_ROUND, Phase.SECOND_ROUND)
_PRIVATE_EVENTS = frozenset({EventKind.DEAL_HOLE, EventKind.DEAL_DRAW, EventKind.DISCARD})
_CARD = DECK.__getitem__
# mutable list attributes of a Hand (copied by clone)
_LIST_STATE = ("stacks", "bets", "contrib", "folded", "discarded", "pile", "muck", "events", "acted", "acted_serial",
               "last_level", "no_raise", "draw_order", "_own_discards", "stub", "_deal_order", "showdown_choices")

# The legal-action sets of a betting round, precomputed: index = (owe > 0) | split << 1 | bet << 2 | raise << 3.
_F, _K, _C, _B, _R, _S = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
                          ActionKind.SPLIT)
_ROUND_KINDS = tuple(
    frozenset({_F, _C if i & 1 else _K} | ({_S} if i & 2 else set()) | ({_B} if i & 4 else set())
              | ({_R} if i & 8 else set()))
    for i in range(16)
)
_DRAW_KINDS = frozenset({ActionKind.DISCARD})
_VOTE_KINDS = frozenset({ActionKind.SPLIT, ActionKind.DECLINE})


@dataclass(frozen=True)
class Pot:
    """One pot of a finished hand (R9.1).

    :ivar amount: chips in the pot.
    :ivar eligible: seats that could win it (not folded, reached its level).
    :ivar winners: seats that received a share.
    :ivar shared: True when shared by Parole agreement (R8.3) instead of a showdown.
    """

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shared: bool

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible), "winners": list(self.winners),
                "shared": self.shared}


@dataclass(frozen=True)
class DealRequest:
    """A deal the dealer must make next (only pending with ``auto_deal=False``).

    :ivar seat: who receives the cards.
    :ivar count: how many cards.
    :ivar kind: ``"hole"`` (R5.1) or ``"draw"`` (replacements, R6.1).
    """

    seat: int
    count: int
    kind: str


@dataclass(frozen=True)
class HandResult:
    """Outcome of a finished hand.

    :ivar stacks: each seat's stack after the hand, in chips.
    :ivar net: each seat's gain (negative: loss) in chips; sums to 0 (R9.5).
    :ivar pots: the pots, main pot first.
    :ivar shown: cards shown at showdown, by seat (mucked and unshown hands are absent).
    :ivar showdown: True when at least one pot was decided by comparing hands.
    """

    stacks: tuple[int, ...]
    net: tuple[int, ...]
    pots: tuple[Pot, ...]
    shown: dict[int, tuple[Card, ...]]
    showdown: bool


_SEAT_SETS = tuple(tuple(i for i in range(5) if mask >> i & 1) for mask in range(32))


def _hidden(ev: Event) -> Event:
    """A private event (a deal, discard or draw) as others see it: without its cards, their number
    in ``info["hidden"]`` (:meth:`Hand.events_for`; also the bots' views)."""
    return _event(ev.kind, ev.seat, ev.amount, (), (*ev.info, ("hidden", len(ev.cards))))


def _bits(mask: int) -> tuple[int, ...]:
    """The seats of a seat bit set (at most 5 seats)."""
    return _SEAT_SETS[mask]


def _check_posts(posts: object, n: int, largest: int) -> list[tuple[int, int, int]]:
    """Validate ``posts`` (see :class:`Hand`): ``[(seat, live, dead)]`` by seat."""
    if posts is None:
        return []
    if not isinstance(posts, Mapping):
        raise RulesError(f"posts must map seats to (live, dead) chips, got {shown(posts)}")
    out = []
    for key, amounts in posts.items():
        seat = integer(key)
        if seat is None or not 0 <= seat < n:
            raise RulesError(f"posts: {shown(key)} is not a seat 0..{n - 1}")
        if not isinstance(amounts, (tuple, list)) or len(amounts) != 2:
            raise RulesError(f"posts: seat {seat} must post (live, dead) chips, got {shown(amounts)}")
        chips = []
        for what, v in zip(("live", "dead"), amounts, strict=True):
            amount = integer(v)
            if amount is None or not 0 <= amount <= MAX_CHIPS:
                raise RulesError(f"posts: seat {seat}: {what} {shown(v)} is not a number of chips [R3.2]")
            chips.append(amount)
        live, dead = chips
        if live > largest:
            raise RulesError(f"posts: seat {seat}: a live post of {live} is more than the largest blind {largest} "
                             "[R10.2, R10.3]")
        out.append((seat, live, dead))
    if len({seat for seat, _, _ in out}) != len(out):
        raise RulesError(f"posts: a seat is given twice in {shown(posts)}")
    return sorted(out)


class Hand:
    """One hand of 32-Card Draw.

    :param rules: the :class:`~pokerdraw32.rules.Rules`.
    :param stacks: each seat's chips before the blinds, clockwise from seat 0; 2 to 5 seats,
        all positive integers (R3.1, R3.2, R10.4).
    :param button: the dealer's seat (R4.1).
    :param seed: seed of the hand's generator (0 <= seed < 2**64); ``None`` draws from the OS.
    :param rng: a generator to use instead of ``seed`` (it is consumed by the hand).
    :param deck: a stacked deck: the stub order to deal from (all 32 cards, first dealt first)
        instead of a shuffled one; reshuffles (R6.2) still use the generator.
    :param auto_deal: deal automatically from the stub (default).  ``False``: every deal waits
        for :meth:`deal`.
    :param posts: extra chips posted before the deal, beyond the blinds, as ``{seat: (live, dead)}``:
        an entry bet (R10.2) or the blinds a returning player missed (R10.3).  Live chips count
        toward the seat's first-round bet like a blind (at most L, R3.3); dead chips go to the main
        pot and count toward nobody's bet (R9.1).  A short stack posts live chips first, then dead
        ones, all-in at worst (R4.5).  Normally set by :class:`~pokerdraw32.table.Table`.
    :raises RulesError: for a bad number of seats, a bad stack or button.
    :raises InvalidCardError: for a bad stacked deck.
    """

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        button: int,
        *,
        seed: int | None = None,
        rng: Rng | None = None,
        deck: CardsLike | None = None,
        auto_deal: bool = True,
        posts: Mapping[int, tuple[int, int]] | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object, got {type(rules).__name__}")
        if not isinstance(stacks, (list, tuple)):
            raise RulesError(f"stacks must be a list or tuple of chip counts, got {shown(stacks)}")
        stacks = list(stacks)
        n = len(stacks)
        if not 2 <= n <= 5:
            raise RulesError(f"a hand is dealt to 2 to 5 players, got {n} stacks [R3.1]")
        for i, s in enumerate(stacks):
            chips = integer(s)   # a plain int, checked and used (R3.2)
            if chips is None:
                raise RulesError(f"seat {i}: stack {shown(s)} is not an integer number of chips [R3.2]")
            if chips <= 0:
                raise RulesError(f"seat {i}: stack {shown(chips)} must be positive; a seat with no chips is not dealt "
                                 "in [R10.4]")
            stacks[i] = chips
        if sum(stacks) > MAX_CHIPS:
            raise RulesError(f"the stacks add up to more than the largest amount of chips ({MAX_CHIPS}) [R3.2]")
        button_seat = integer(button)
        if button_seat is None or not 0 <= button_seat < n:
            raise RulesError(f"button {shown(button)} is not a seat 0..{n - 1} [R4.1]")
        button = button_seat
        if rng is not None and seed is not None:
            raise RulesError("give either seed or rng, not both")
        if rng is not None and not isinstance(rng, Rng):
            raise RulesError(f"rng must be a pokerdraw32.Rng, got {shown(rng)}")
        if seed is not None:
            seed_value = integer(seed)
            if seed_value is None or not 0 <= seed_value < 2**64:
                raise RulesError(f"seed {shown(seed)} must be an int with 0 <= seed < 2**64 [R11.1]")
            seed = seed_value
        if not isinstance(auto_deal, bool):
            raise RulesError(f"auto_deal must be True or False, got {shown(auto_deal)}")
        extra = _check_posts(posts, n, rules.largest_blind(n))
        self.rules = rules
        self.n = n
        self.button = button
        # seats by role; every check is done before the generator is touched (a refused hand
        # leaves the caller's rng as it was)
        self.blind_seats = self._blind_seats()
        self.largest_blind = rules.largest_blind(n)
        due = dict(zip(self.blind_seats, rules.blinds(n), strict=False))
        for seat, live, _dead in extra:
            if due.get(seat, 0) + live > self.largest_blind:
                raise RulesError(f"posts: seat {seat} posts {due[seat]} as a blind and {live} live, more than the "
                                 f"largest blind {self.largest_blind} [R10.2, R10.3]")
        self.rng: Rng = rng if rng is not None else Rng(seed)
        if deck is None:
            self.stub: list[int] = self.rng.shuffled(FULL_MASK)
        else:
            cards = parse_cards(deck)
            if len(cards) != 32:
                raise DealError(f"a stacked deck must hold all 32 cards, got {len(cards)}")
            self.stub = [int(c) for c in cards]
        self.auto_deal = auto_deal
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = stacks
        self.bets: list[int] = [0] * n
        self.contrib: list[int] = [0] * n
        self.folded: list[bool] = [False] * n
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.discarded: list[int | None] = [None] * n  # number of cards discarded, None before the draw
        self.dead = 0               # dead chips in the main pot (R10.3)
        self.pile: list[int] = []   # discard pile for R6.2 (others' discards, folded hands with the option)
        self.muck: list[int] = []   # dead cards
        self.events: list[Event] = []
        """The full record of the hand, every card included (see :meth:`events_for` for players)."""
        self.phase = Phase.DEAL
        self.actor: int | None = None
        self.pending_deal: DealRequest | None = None
        # betting-round state
        self.to_match = 0
        self.raise_size = 0
        self.full_level = 0
        self.bet_count = 0
        self.reopen_serial = 0
        self.acted: list[bool] = [False] * n
        self.acted_serial: list[int] = [0] * n
        self.last_level: list[int] = [0] * n
        self.aggressor: int | None = None     # last bettor/raiser of the current round
        self.raise_withdrawn: int | None = None  # R7.3 second part: seat that lost its right to raise this turn
        self.no_raise: list[bool] = [False] * n  # R6.3: timed out in the draw
        self.showdown_choices: list[bool | None] = [None] * n
        """Each seat's choice for the showdown (R9.3): True show, False muck, None let ``muck_losers``
        decide.  Set with :meth:`set_showdown_choice`; private to the seat (the dealer's record)."""
        # Parole (R8)
        self.offer_open = False
        self.votes = 0      # seats that chose split / accepted
        self.voted = 0      # all-in seats that have answered
        # draw
        self.draw_order: list[int] = []
        self.draw_index = 0
        self._own_discards: list[int] = []   # the drawing player's discards, set aside until served (R6.2)
        self._round_robin: list[list[int]] = []
        self.result: HandResult | None = None
        self._redacted_for: int | None = None   # determinize(): the log is the one this seat sees
        self._legal: LegalActions | None = None
        self._legal_key = -1
        self._post_blinds()
        self._post_extra(extra)
        self._deal_order = [(button + 1 + i) % n for i in range(n)]
        self._hole_index = 0
        self._next_hole_deal()
        self._run_dealer()

    # ------------------------------------------------------------------ set-up
    def _blind_seats(self) -> tuple[int, ...]:
        n, b = self.n, self.button
        if n == 2:
            other = (b + 1) % 2
            if self.rules.heads_up_button_posts_small:
                return (b, other)     # R4.3 option
            return (other, b)         # R4.3: the non-dealer posts the small blind
        k = len(self.rules.blinds(n))
        return tuple((b + 1 + i) % n for i in range(k))

    def _post_blinds(self) -> None:
        names = ("small", "big", "over")
        for i, (seat, amount) in enumerate(zip(self.blind_seats, self.rules.blinds(self.n), strict=False)):
            paid = min(amount, self.stacks[seat])   # R4.5
            self._put(seat, paid)
            self._log(EventKind.POST_BLIND, seat, paid, info=(("blind", names[i]), ("all_in", self.stacks[seat] == 0)))

    @property
    def posted_extras(self) -> dict[int, tuple[int, int]]:
        """What ``posts`` actually took before the deal, beyond the blinds: ``{seat: (live, dead)}``
        in chips, read from the log (a short stack posts less than asked, R4.5; R10.2, R10.3)."""
        out: dict[int, tuple[int, int]] = {}
        for ev in self.events:
            if ev.kind is EventKind.POST_BLIND and ev.seat is not None and ev.amount:
                what = ev.get("blind")
                if what in ("live", "dead"):
                    live, dead = out.get(ev.seat, (0, 0))
                    out[ev.seat] = (live + ev.amount, dead) if what == "live" else (live, dead + ev.amount)
        return out

    def _post_extra(self, posts: list[tuple[int, int, int]]) -> None:
        """Entry bets and missed blinds (R10.2, R10.3): live chips first, then dead ones."""
        for seat, live, dead in posts:
            for what, chips in (("live", live), ("dead", dead)):
                paid = min(chips, self.stacks[seat])
                if not paid:
                    continue
                if what == "live":
                    self._put(seat, paid)
                else:
                    self.stacks[seat] -= paid
                    self.dead += paid
                self._log(EventKind.POST_BLIND, seat, paid, info=(("blind", what), ("all_in", self.stacks[seat] == 0)))

    # ------------------------------------------------------------------ helpers
    def _log(self, kind: EventKind, seat: int | None = None, amount: int | None = None,
             cards: Iterable[int] = (), info: tuple[tuple[str, Any], ...] = ()) -> Event:
        ev = _event(kind, seat, amount, tuple(map(_CARD, cards)) if cards else (), info)
        self.events.append(ev)
        return ev

    def _put(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] += chips
        self.contrib[seat] += chips

    def _active(self, seat: int) -> bool:
        """In the hand and able to bet (not folded, not all-in)."""
        return not self.folded[seat] and self.stacks[seat] > 0

    def _clockwise(self, start: int) -> list[int]:
        return [(start + i) % self.n for i in range(self.n)]

    @property
    def pot(self) -> int:
        """Chips in the pot now, current bets included (0 once the hand is over and the pots are awarded)."""
        return 0 if self.phase is Phase.COMPLETE else sum(self.contrib) + self.dead

    @property
    def live_seats(self) -> tuple[int, ...]:
        """Seats still in the hand (not folded)."""
        return tuple(i for i in range(self.n) if not self.folded[i])

    @property
    def is_complete(self) -> bool:
        return self.phase is Phase.COMPLETE

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards seat ``seat`` holds now (its own view; empty after folding)."""
        seat = self._check_seat(seat)
        return tuple(DECK[c] for c in self.hole[seat])

    def _check_seat(self, seat: object) -> int:
        number = integer(seat)
        if number is None or not 0 <= number < self.n:
            raise IllegalActionError(f"no seat {shown(seat)} at this table (seats 0..{self.n - 1})")
        return number

    # ------------------------------------------------------------------ dealing
    def _next_hole_deal(self) -> None:
        if self._hole_index < self.n:
            self.pending_deal = DealRequest(self._deal_order[self._hole_index], 5, "hole")
        else:
            self.pending_deal = None

    def _run_dealer(self) -> None:
        if not self.auto_deal:
            return
        if self._hole_index == 0 and self.pending_deal is not None:
            self._deal_all_holes()
        while self.pending_deal is not None:
            self._deal_from_stub()

    def _deal_all_holes(self) -> None:
        """R5.1 from the untouched stub, all at once: one card at a time starting left of the
        button, so seat k in deal order gets every n-th card of the first 5n (the same events
        and stub as dealing seat by seat)."""
        n, stub = self.n, self.stub
        for k, seat in enumerate(self._deal_order):
            cards = stub[k:5 * n:n]
            self.hole[seat] = cards
            self._log(EventKind.DEAL_HOLE, seat, None, cards)
        self.stub = stub[5 * n:]
        self._hole_index = n
        self.pending_deal = None
        self._start_round(Phase.FIRST_ROUND)

    def _deal_from_stub(self) -> None:
        req = self.pending_deal
        assert req is not None
        if req.kind == "hole":
            # R5.1: one card at a time, starting left of the button: from an untouched stub, seat k in
            # deal order gets every n-th card of the first 5n.
            if self._hole_index == 0:
                self._round_robin = [self.stub[k::self.n][:5] for k in range(self.n)]
            cards = self._round_robin[self._hole_index] if self._round_robin else self.stub[:5]
            self._give_hole(req.seat, cards)
            return
        k = req.count
        cards = self.stub[:k]
        reshuffled = len(cards) < k
        if reshuffled:
            self.stub = []
            self._reshuffle()
            rest = k - len(cards)
            cards = cards + self.stub[:rest]
            self.stub = self.stub[rest:]
        else:
            self.stub = self.stub[k:]
        self._give_draw(req.seat, cards, reshuffled=reshuffled)

    def deal(self, cards: CardsLike | None = None) -> Event:
        """Make the pending deal (:attr:`pending_deal`), with explicit ``cards`` or from the stub.

        Explicit hole cards must be free (not dealt, not given twice).  Explicit replacement
        cards (R6.2) must come from the stub while it lasts, then from the discard pile, never
        from the receiving player's own discards.

        :returns: the deal event.
        :raises DealError: nothing to deal, wrong count, or a card that is not available; the
            hand is unchanged.
        :raises InvalidCardError: a bad card token.
        """
        req = self.pending_deal
        if req is None:
            raise DealError("no deal is pending")
        if cards is None:
            self._deal_from_stub()
            ev = self.events[-1]
            self._run_dealer()
            return ev
        given = parse_cards(cards)
        if len(given) != req.count:
            raise DealError(f"seat {req.seat} must receive {req.count} cards, got {len(given)}: "
                            f"{format_cards(given)!r}", seat=req.seat)
        codes = [int(c) for c in given]
        stub = set(self.stub)
        if req.kind == "hole":
            for c in codes:
                if c not in stub:
                    raise DealError(f"card {DECK[c]} for seat {req.seat} is already in play", seat=req.seat)
            self._round_robin = []     # the stub is no longer untouched: later deals take its top cards
            self._give_hole(req.seat, codes)
        else:
            pile = set(self.pile)
            own = set(self.hole[req.seat]) | set(self._own_discards)
            from_stub = [c for c in codes if c in stub]
            for c in codes:
                if c in stub:
                    continue
                if c in own:
                    raise DealError(f"card {DECK[c]} is one of seat {req.seat}'s own discards or cards; a player "
                                    "never receives their own discards", seat=req.seat, rule="R6.2")
                if c not in pile:
                    raise DealError(f"card {DECK[c]} for seat {req.seat} is not available (already in play or "
                                    "dead)", seat=req.seat, rule="R6.2")
            need_stub = min(req.count, len(self.stub))
            if len(from_stub) != need_stub:
                raise DealError(f"seat {req.seat}: the stub still has {len(self.stub)} cards; {need_stub} of the "
                                f"{req.count} replacements must come from it before the discard pile",
                                seat=req.seat, rule="R6.2")
            reshuffled = len(from_stub) < len(codes)
            self._remove_from_stub(from_stub)
            if reshuffled:
                self._reshuffle()
                self._remove_from_stub([c for c in codes if c not in stub])
            self._give_draw(req.seat, codes, reshuffled=reshuffled)
        ev = self.events[-1]
        self._run_dealer()
        return ev

    def _remove_from_stub(self, codes: Iterable[int]) -> None:
        drop = set(codes)
        self.stub = [c for c in self.stub if c not in drop]

    def _give_hole(self, seat: int, cards: list[int]) -> None:
        self._remove_from_stub(cards)
        self.hole[seat] = list(cards)
        self._log(EventKind.DEAL_HOLE, seat, None, cards)
        self._hole_index += 1
        self._next_hole_deal()
        if self.pending_deal is None:
            self._start_round(Phase.FIRST_ROUND)

    def _reshuffle(self) -> None:
        """R6.2: the stub is exhausted; the discard pile (never the receiver's own discards, which
        are set aside until they are served) is shuffled and becomes the stub."""
        mask = 0
        for c in self.pile:
            mask |= 1 << c
        fresh = self.rng.shuffled(mask)
        self._log(EventKind.RESHUFFLE, None, len(fresh))
        self.stub = self.stub + fresh
        self.pile = []

    def _give_draw(self, seat: int, cards: list[int], *, reshuffled: bool) -> None:
        self.hole[seat].extend(cards)
        self._log(EventKind.DEAL_DRAW, seat, None, cards, (("reshuffled", reshuffled),))
        # the player's discards join the pile only now (R6.2)
        self.pile.extend(self._own_discards)
        self._own_discards = []
        self.pending_deal = None
        self._next_drawer()

    # ------------------------------------------------------------------ betting rounds
    def _start_round(self, phase: Phase) -> None:
        n = self.n
        self.phase = phase
        self.acted = [False] * n
        self.last_level = [0] * n
        self.acted_serial = [0] * n
        self.reopen_serial = 0
        self.aggressor = None
        self.raise_withdrawn = None
        L = self.largest_blind
        if phase is Phase.FIRST_ROUND:
            # the largest blind is the first bet; the others owe it in full (R4.4, R4.5)
            self.to_match = L
            self.full_level = L
            self.raise_size = L
            self.bet_count = 1
            first = (self.blind_seats[-1] + 1) % n                  # R5.2
        else:
            self.bets = [0] * n
            self.to_match = 0
            self.full_level = 0
            self.raise_size = self._unit()
            self.bet_count = 0
            if self.rules.second_round_first is SecondRoundFirst.AFTER_BUTTON:
                start = self.button + 1
            else:
                start = self.blind_seats[-1] + 1
            # R7.1: the first player still in the hand and not all-in opens; all-in players answer a
            # Parole offer when the rotation reaches their seat (R8.2)
            first = start % n
            for seat in self._clockwise(start % n):
                if self._active(seat):
                    first = seat
                    break
        self.offer_open = (phase is Phase.SECOND_ROUND and self.rules.parole and not self._no_actions())
        self.votes = 0
        self.voted = 0
        self.actor = None
        self._advance(first, inclusive=True)

    def _unit(self) -> int:
        """Fixed-limit bet size, or the minimum bet/raise increment otherwise (R3.4, R7.2)."""
        L = self.largest_blind
        if self.rules.structure is Structure.FIXED_LIMIT and self.phase is Phase.SECOND_ROUND:
            return 2 * L
        return L

    def _no_actions(self) -> bool:
        """R5.4: at most one player can still bet and that player owes nothing."""
        p = -1
        for i in range(self.n):
            if not self.folded[i] and self.stacks[i] > 0:
                if p >= 0:
                    return False
                p = i
        if p < 0:
            return True
        others = max((self.bets[i] for i in range(self.n) if i != p), default=0)
        return others <= self.bets[p]

    def _needs_to_act(self, seat: int) -> bool:
        if self.folded[seat]:
            return False
        if self.stacks[seat] == 0:
            # an all-in player only answers the Parole offer (R8.2); one who timed out in the draw
            # may only check, call or fold (R6.3), so is not asked and counts as declining
            return self.offer_open and not (self.voted >> seat & 1) and not self.no_raise[seat]
        return not self.acted[seat] or self.bets[seat] < self.to_match

    def _advance(self, start: int, *, inclusive: bool = False) -> None:
        """Find the next player to act from ``start``; end the round when nobody is left (R5.3)."""
        if self.folded.count(False) == 1:
            self._finish()
            return
        if not self._no_actions() or self.offer_open:
            for i in range(0 if inclusive else 1, self.n + 1):
                seat = (start + i) % self.n
                if self._needs_to_act(seat):
                    self.actor = seat
                    return
        self.actor = None
        self._end_round()

    def _return_uncalled(self) -> None:
        """R9.2: the part of the largest bet nobody matched goes back to its maker."""
        contrib = self.contrib
        top = 0
        for i in range(1, self.n):
            if contrib[i] > contrib[top]:
                top = i
        second = max(c for i, c in enumerate(contrib) if i != top)
        extra = contrib[top] - second
        if extra > 0:
            self.stacks[top] += extra
            self.contrib[top] -= extra
            self.bets[top] = max(0, self.bets[top] - extra)
            self._log(EventKind.RETURN_UNCALLED, top, extra)

    def _end_round(self) -> None:
        self._return_uncalled()
        self._log(EventKind.ROUND_END, None, self.pot, info=(("round", self.phase.value),))
        if self.phase is Phase.FIRST_ROUND:
            self._start_draw()
        else:
            self._finish(showdown=True)

    # ------------------------------------------------------------------ the draw
    def _start_draw(self) -> None:
        self.phase = Phase.DRAW
        self.bets = [0] * self.n
        self.draw_order = [s for s in self._clockwise(self.button + 1) if not self.folded[s]]   # R6.1
        self.draw_index = -1
        self._own_discards = []
        self._next_drawer()

    def _next_drawer(self) -> None:
        if self.phase is not Phase.DRAW:
            return
        self.draw_index += 1
        if self.draw_index < len(self.draw_order):
            self.actor = self.draw_order[self.draw_index]
        else:
            self.actor = None
            self._start_round(Phase.SECOND_ROUND)

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do, or ``None`` when nobody is to act (hand over, or a deal
        pending with ``auto_deal=False``).

        Computed once per decision point: every change of state logs an event, so the length of
        the event log identifies the decision point.
        """
        key = len(self.events)
        if self._legal_key != key:
            self._legal = self._compute_legal()
            self._legal_key = key
        return self._legal

    def _compute_legal(self) -> LegalActions | None:
        p = self.actor
        if p is None or self.pending_deal is not None:
            return None
        hole = tuple(map(_CARD, self.hole[p]))
        phase = self.phase
        if phase is Phase.DRAW:
            return _legal(p, phase, _DRAW_KINDS, 0, None, None, 4, hole)
        stack = self.stacks[p]
        if stack == 0:   # all-in player answering the Parole offer (R8.2)
            return _legal(p, phase, _VOTE_KINDS, 0, None, None, 0, hole)
        owe = self.to_match - self.bets[p]
        if owe > 0:
            index = 1
            call = owe if owe < stack else stack
        else:
            index = 2 if self.offer_open and not self.no_raise[p] else 0
            call = 0
        lo_hi = self._raise_bounds(p)
        if lo_hi is None:
            return _legal(p, phase, _ROUND_KINDS[index], call, None, None, 0, hole)
        index |= 8 if self.to_match else 4
        return _legal(p, phase, _ROUND_KINDS[index], call, lo_hi[0], lo_hi[1], 0, hole)

    def _answerable(self, p: int) -> bool:
        """R5.5: someone other than ``p``, still in the hand and not all-in, would have chips
        left after matching the current bet, so a bet or raise by ``p`` could be answered."""
        folded, stacks, bets, to_match = self.folded, self.stacks, self.bets, self.to_match
        for i in range(self.n):  # noqa: SIM110 -- a loop: any() with a generator costs 0.5 us more per legal_actions()
            if i != p and not folded[i] and stacks[i] > to_match - bets[i]:
                return True
        return False

    def _raise_bounds(self, p: int) -> tuple[int, int] | None:
        """(min, max) total round bet for a bet or raise by ``p``, or None if not allowed (R3.4, R3.5)."""
        if self.raise_withdrawn == p:
            return None                                  # R7.3
        if self.phase is Phase.SECOND_ROUND and self.no_raise[p]:
            return None                                  # R6.3
        if not self._answerable(p):
            return None                                  # R5.5: nobody could answer a raise
        if self.acted[p] and self.acted_serial[p] == self.reopen_serial \
                and self.to_match - self.last_level[p] < self.raise_size:
            return None                                  # R3.5: not reopened by a short all-in
        allin = self.bets[p] + self.stacks[p]
        if allin <= self.to_match:
            return None
        rules = self.rules
        if rules.structure is Structure.FIXED_LIMIT:
            if rules.cap is not None and self.bet_count >= rules.cap:
                return None                              # R3.4 cap
            target = self.full_level + self._unit()
            if target <= self.to_match:
                target = self.to_match + self._unit()
            target = min(target, allin)
            return (target, target)
        lo = self.to_match + self.raise_size if self.to_match else self._unit()
        hi = allin
        if rules.structure is Structure.POT_LIMIT:
            # R3.4: raise by at most the pot after the player's call (the current bet plus the pot
            # with the call in it), but a minimum raise (never below L) stays possible when a
            # short blind (R4.5) leaves the pot smaller than that
            hi = min(hi, max(lo, 2 * self.to_match - self.bets[p] + self.pot))
        lo = min(lo, hi)
        return (lo, hi)

    def can(self, action: Action | str, seat: int | None = None) -> bool:
        """True when :meth:`act` would accept ``action`` (an Action or its short text such as
        ``"call"`` or ``"r 30"``), from ``seat`` if given."""
        try:
            if isinstance(action, str):
                action = Action.parse(action)
            self._validate(action, seat)
        except PokerDraw32Error:   # anything act() refuses, unparsable text included ("d 6h", R1.3)
            return False
        return True

    def _validate(self, action: Action, seat: int | None) -> LegalActions:
        if not isinstance(action, Action):
            raise IllegalActionError(f"expected an Action, got {type(action).__name__}")
        if self.phase is Phase.COMPLETE:
            raise IllegalActionError(f"the hand is over; {action} is not possible", seat=seat)
        if self.pending_deal is not None:
            req = self.pending_deal
            raise IllegalActionError(f"the dealer must first deal {req.count} card(s) to seat {req.seat}",
                                     seat=seat)
        legal = self.legal_actions()
        assert legal is not None
        p = legal.seat
        if seat is not None:
            seat = self._check_seat(seat)
            if seat != p:
                raise IllegalActionError(f"seat {seat} acted out of turn: seat {p} is to act", seat=seat,
                                         rule="R5.2" if self.phase is not Phase.DRAW else "R6.1")
        kind = action.kind
        if kind is ActionKind.TIMEOUT:
            return legal
        if kind not in legal.kinds:
            raise IllegalActionError(self._why_not(p, action, legal), seat=p, rule=self._rule_for(action))
        if kind in (ActionKind.BET, ActionKind.RAISE):
            amt = action.amount
            if isinstance(amt, bool) or not isinstance(amt, int):
                raise IllegalActionError(f"seat {p}: {kind.value} amount {amt!r} is not an integer number of chips",
                                         seat=p, rule="R3.2")
            assert legal.min_to is not None and legal.max_to is not None
            if not legal.min_to <= amt <= legal.max_to:
                what = "bet" if kind is ActionKind.BET else "raise to"
                if legal.min_to == legal.max_to:
                    bound = f"exactly {legal.min_to}"
                else:
                    bound = f"{legal.min_to} to {legal.max_to}"
                raise IllegalActionError(f"seat {p}: {what} {amt} is outside the legal range ({bound} chips, "
                                         f"{self.rules.structure.value})", seat=p, rule=self._rule_for(action))
        if kind is ActionKind.DISCARD:
            cards = action.cards
            if len(cards) > 4:
                raise IllegalActionError(f"seat {p}: discarding {len(cards)} cards; at most 4 may be discarded",
                                         seat=p, rule="R6.1")
            held = set(self.hole[p])
            seen: set[int] = set()
            for c in cards:
                if int(c) not in held:
                    raise IllegalActionError(f"seat {p}: cannot discard {c}, not in the hand "
                                             f"({format_cards(self.hole[p])})", seat=p, rule="R6.1")
                if int(c) in seen:
                    raise IllegalActionError(f"seat {p}: {c} discarded twice", seat=p, rule="R6.1")
                seen.add(int(c))
        return legal

    def _rule_for(self, action: Action) -> str:
        if self.phase is Phase.DRAW:
            return "R6.1"
        if self.actor is not None and self.stacks[self.actor] == 0:
            return "R8.2"
        if action.kind in (ActionKind.BET, ActionKind.RAISE) and self.actor is not None:
            if self.phase is Phase.SECOND_ROUND and self.no_raise[self.actor]:
                return "R6.3"
            if self.raise_withdrawn == self.actor:
                return "R7.3"
            if not self._answerable(self.actor):
                return "R5.5"
        return {ActionKind.SPLIT: "R8.1", ActionKind.DECLINE: "R8.2", ActionKind.DISCARD: "R6.1",
                ActionKind.CHECK: "R5.2", ActionKind.CALL: "R5.2", ActionKind.FOLD: "R5.2"}.get(action.kind, "R3.4")

    def _why_not(self, p: int, action: Action, legal: LegalActions) -> str:
        kind = action.kind
        allowed = ", ".join(sorted(k.value for k in legal.kinds))
        if self.phase is Phase.DRAW:
            return f"seat {p} must discard 0-4 cards or stand pat in the draw, not {kind.value}"
        if self.stacks[p] == 0:
            return f"seat {p} is all-in and only answers the Parole offer: split or decline, not {kind.value}"
        if kind is ActionKind.CHECK:
            return (f"seat {p} cannot check: {legal.call_amount} chips to call"
                    + (" (all-in)" if legal.call_amount == self.stacks[p] else ""))
        if kind is ActionKind.CALL:
            return f"seat {p} cannot call: nothing to call (check instead)"
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if kind is ActionKind.BET and self.to_match:
                return f"seat {p} cannot bet: there is already a bet of {self.to_match}; raise instead"
            if kind is ActionKind.RAISE and not self.to_match and ActionKind.BET in legal.kinds:
                return f"seat {p} cannot raise: nothing to raise; bet instead"
            if self.raise_withdrawn == p:
                return f"seat {p} lost the right to raise this turn"
            if self.phase is Phase.SECOND_ROUND and self.no_raise[p]:
                return f"seat {p} timed out in the draw and may not bet or raise"
            if not self._answerable(p):
                return (f"seat {p} may not {kind.value}: nobody could answer it (every other player still in"
                        " the hand is all-in or would be all-in after matching the current bet)")
            rules = self.rules
            if rules.structure is Structure.FIXED_LIMIT and rules.cap is not None and self.bet_count >= rules.cap:
                return f"seat {p} may not {kind.value}: the betting is capped at {rules.cap} bets this round"
            return f"seat {p} may not {kind.value} now (allowed: {allowed})"
        if kind is ActionKind.SPLIT:
            return f"seat {p} cannot choose split: no Parole offer is open (allowed: {allowed})"
        if kind is ActionKind.DECLINE:
            return f"seat {p} cannot decline: only an all-in player answers the Parole offer (allowed: {allowed})"
        if kind is ActionKind.DISCARD:
            return f"seat {p} cannot discard outside the draw (allowed: {allowed})"
        return f"seat {p} may not {kind.value} now (allowed: {allowed})"

    # ------------------------------------------------------------------ applying actions
    def act(self, action: Action | str, seat: int | None = None) -> Event:
        """Apply one action of the player to act.

        :param action: an :class:`~pokerdraw32.actions.Action` or its short text (``"r 30"``, ``"d Ah 7c"``).
        :param seat: when given, the seat that claims to act; acting out of turn is an error.
        :returns: the main event logged for the action.
        :raises IllegalActionError: the action is not legal (the message names the seat, the amount and
            the rule); the hand is unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        legal = self._validate(action, seat)
        p = legal.seat
        kind = action.kind
        if kind is ActionKind.TIMEOUT:
            return self._timeout(p, legal)
        self.raise_withdrawn = None
        if kind is ActionKind.DISCARD:
            return self._discard(p, [int(c) for c in action.cards])
        if kind is ActionKind.FOLD:
            self.folded[p] = True
            if self.rules.reshuffle_folded and self.phase is Phase.FIRST_ROUND:
                self.pile.extend(self.hole[p])       # R6.2 option
            else:
                self.muck.extend(self.hole[p])
            self.hole[p] = []
            self.showdown_choices[p] = None          # no cards left to show or muck (R9.3)
            self._withdraw_offer()
            ev = self._log(EventKind.FOLD, p)
        elif kind is ActionKind.CHECK:
            self._withdraw_offer()
            self._mark_acted(p)
            ev = self._log(EventKind.CHECK, p)
        elif kind is ActionKind.CALL:
            chips = legal.call_amount
            self._put(p, chips)
            self._mark_acted(p)
            ev = self._log(EventKind.CALL, p, chips, info=(("all_in", self.stacks[p] == 0),))
        elif kind is ActionKind.SPLIT:
            self.votes |= 1 << p
            if self.stacks[p] == 0:
                self.voted |= 1 << p
            else:
                self._mark_acted(p)
            ev = self._log(EventKind.SPLIT, p)
        elif kind is ActionKind.DECLINE:
            self.voted |= 1 << p
            ev = self._log(EventKind.DECLINE, p)
        else:   # BET / RAISE
            assert action.amount is not None
            ev = self._raise(p, kind, action.amount)
        self._advance(p)
        return ev

    def _mark_acted(self, p: int) -> None:
        self.acted[p] = True
        self.last_level[p] = self.to_match
        self.acted_serial[p] = self.reopen_serial

    def _withdraw_offer(self) -> None:
        if self.offer_open:
            self.offer_open = False
            self.votes = 0

    def _raise(self, p: int, kind: ActionKind, to: int) -> Event:
        self._withdraw_offer()
        inc = to - self.to_match
        unit = self._unit()
        if self.rules.structure is Structure.FIXED_LIMIT:
            full = to >= self.full_level + unit or 2 * inc >= unit      # R3.5 fixed-limit half-bet rule
        elif self.to_match == 0:
            full = to >= unit
        else:
            full = inc >= self.raise_size
        self._put(p, to - self.bets[p])
        if full:
            if self.rules.structure is not Structure.FIXED_LIMIT:
                self.raise_size = max(self.raise_size, inc) if self.to_match else max(unit, to)
            self.full_level = to
            self.bet_count += 1
            self.reopen_serial += 1
        self.to_match = to
        self.aggressor = p
        self._mark_acted(p)
        return self._log(EventKind.BET if kind is ActionKind.BET else EventKind.RAISE, p, to,
                         info=(("all_in", self.stacks[p] == 0), ("full", full)))

    def _timeout(self, p: int, legal: LegalActions) -> Event:
        if self.phase is Phase.DRAW:                                 # R6.3
            self._log(EventKind.TIMEOUT, p, info=(("rule", "R6.3"),))
            self.no_raise[p] = True
            return self._discard(p, [])
        self._log(EventKind.TIMEOUT, p, info=(("rule", "R7.3"),))
        if self.stacks[p] == 0:
            return self.act(Action.decline())                        # an all-in voter who times out declines
        if ActionKind.CHECK in legal.kinds:
            return self.act(Action.check())                          # R7.3
        return self.act(Action.fold())

    def withdraw_raise(self) -> Event:
        """R7.3: the server withdraws the right to raise of the player to act, for this turn only;
        they may still check, call or fold.

        :raises IllegalActionError: nobody is to act in a betting round, or the player to act is
            all-in or has already lost the right to raise this turn (so a log never holds a
            withdrawal twice, and a restored snapshot cannot either).
        """
        if self.phase not in _ROUND_PHASES or self.actor is None or self.pending_deal is not None:
            raise IllegalActionError("no player is to act in a betting round", rule="R7.3")
        if self.stacks[self.actor] == 0:
            raise IllegalActionError(f"seat {self.actor} is all-in and has no right to raise to withdraw",
                                     seat=self.actor, rule="R7.3")
        if self.raise_withdrawn == self.actor:
            raise IllegalActionError(f"seat {self.actor} has already lost the right to raise this turn",
                                     seat=self.actor, rule="R7.3")
        self.raise_withdrawn = self.actor
        return self._log(EventKind.RAISE_WITHDRAWN, self.actor, info=(("rule", "R7.3"),))

    def _discard(self, p: int, cards: list[int]) -> Event:
        self.hole[p] = [c for c in self.hole[p] if c not in cards]
        self.discarded[p] = len(cards)
        self._own_discards = list(cards)
        ev = self._log(EventKind.DISCARD, p, len(cards), cards)
        if cards:
            self.actor = None
            self.pending_deal = DealRequest(p, len(cards), "draw")
            self._run_dealer()
        else:
            self._next_drawer()
        return ev

    # shortcuts ---------------------------------------------------------------
    def fold(self, seat: int | None = None) -> Event:
        """Fold (R5.2). See :meth:`act`."""
        return self.act(Action.fold(), seat)

    def check(self, seat: int | None = None) -> Event:
        """Check (R5.2). See :meth:`act`."""
        return self.act(Action.check(), seat)

    def call(self, seat: int | None = None) -> Event:
        """Call, all-in for less when short (R5.2). See :meth:`act`."""
        return self.act(Action.call(), seat)

    def bet(self, amount: int, seat: int | None = None) -> Event:
        """Bet ``amount`` chips in the second round (R7.2). See :meth:`act`."""
        return self.act(Action.bet(amount), seat)

    def raise_to(self, amount: int, seat: int | None = None) -> Event:
        """Raise to a total round bet of ``amount`` chips (R3.4). See :meth:`act`."""
        return self.act(Action.raise_to(amount), seat)

    def all_in(self, seat: int | None = None) -> Event:
        """Put the whole stack in: a bet or raise of the whole stack where the rules allow it, or a
        call that takes the whole stack.  See :meth:`act`.

        :raises IllegalActionError: the limit (pot-limit, fixed-limit, R3.4) or the state forbids
            putting the whole stack in now; the message names the largest bet possible.
        """
        legal = self.legal_actions()
        if legal is None:
            return self.act(Action.call(), seat)
        p = legal.seat
        everything = self.bets[p] + self.stacks[p]
        if legal.max_to == everything:
            kind = ActionKind.BET if ActionKind.BET in legal.kinds else ActionKind.RAISE
            return self.act(Action(kind, everything), seat)
        if ActionKind.CALL in legal.kinds and legal.call_amount == self.stacks[p]:
            return self.act(Action.call(), seat)
        if legal.max_to is None:        # no bet or raise at all now: act() names the reason and rule
            return self.act(Action(ActionKind.RAISE if self.to_match else ActionKind.BET, everything), seat)
        raise IllegalActionError(f"seat {p} cannot go all-in ({everything}) now; the most is {legal.max_to}",
                                 seat=p, rule="R3.4")

    def split(self, seat: int | None = None) -> Event:
        """Parole: split (R8.1) or, all-in, accept (R8.2). See :meth:`act`."""
        return self.act(Action.split(), seat)

    def decline(self, seat: int | None = None) -> Event:
        """An all-in player declines the Parole offer (R8.2). See :meth:`act`."""
        return self.act(Action.decline(), seat)

    def discard(self, cards: CardsLike = (), seat: int | None = None) -> Event:
        """Discard 0-4 of one's cards in the draw (R6.1); no cards = stand pat. See :meth:`act`."""
        return self.act(Action.discard(cards), seat)

    def stand_pat(self, seat: int | None = None) -> Event:
        """Keep all five cards (R6.1). See :meth:`act`."""
        return self.act(Action.stand_pat(), seat)

    def timeout(self, seat: int | None = None) -> Event:
        """The player to act ran out of time: stand pat and no raising later in the draw (R6.3);
        check or fold in a betting round (R7.3); an all-in player declines the Parole offer."""
        return self.act(Action.timeout(), seat)

    # ------------------------------------------------------------------ showdown
    def set_showdown_choice(self, seat: int, show: bool | None) -> None:
        """Say in advance whether seat ``seat`` shows or mucks at the showdown (R9.3).

        A player who cannot win any pot they are eligible for may muck: their cards are not
        revealed.  Showing is always allowed, so ``show=True`` shows even a losing hand (its cards
        then appear in every view and in :meth:`events_for` as a SHOW event, and in a hand
        history).  ``show=False`` asks to muck; it is honoured only when the player could muck
        by R9.3: **a player who can win a contested pot shows anyway** (so does the first player
        to show, who beats every hand shown so far).  ``show=None`` withdraws the choice; with
        no choice, option ``muck_losers`` decides (on: muck, off: show).

        The choice may be made, changed or withdrawn at any time before the showdown by a seat
        still in the hand (even before its turn, or while a deal is pending).  It is private to
        the seat: it logs no event; :meth:`view` shows a seat its own choice and nobody else's,
        and :meth:`determinize` drops the other seats' choices.  It applies only at a showdown:
        a hand won without one (R5.3) or a pot shared by Parole (R8.3) shows no cards.  Folding
        drops the choice.  It is part of the state (kept by :meth:`clone` and :meth:`snapshot`).

        There is no show after the hand: once the hand is complete nothing can be shown, and a
        mucked hand stays unrevealed.

        :param seat: the seat making the choice.
        :param show: True (show), False (muck) or None (no choice: ``muck_losers`` decides).
        :raises IllegalActionError: no such seat, ``show`` is not True, False or None, the hand
            is over, or the seat has folded; the hand is unchanged.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalActionError(f"no seat {shown(seat)} at this table (seats 0..{self.n - 1}) to show or "
                                     "muck", rule="R9.3")
        if show is not None and not isinstance(show, bool):
            raise IllegalActionError(f"seat {seat}: the showdown choice must be True (show), False (muck) or None "
                                     f"(muck_losers decides), got {shown(show)}", seat=seat, rule="R9.3")
        if self.phase is Phase.COMPLETE:
            raise IllegalActionError(f"seat {seat}: the hand is over; there is nothing left to show or muck",
                                     seat=seat, rule="R9.3")
        if self.folded[seat]:
            raise IllegalActionError(f"seat {seat} has folded and has no cards to show or muck", seat=seat,
                                     rule="R9.3")
        self.showdown_choices[seat] = show

    def _showdown_order(self) -> list[int]:
        live = [s for s in range(self.n) if not self.folded[s]]
        if self.phase is Phase.SECOND_ROUND and self.aggressor is not None and not self.folded[self.aggressor]:
            start = self.aggressor                                          # R9.3
        elif self.rules.second_round_first is SecondRoundFirst.AFTER_BUTTON:
            start = (self.button + 1) % self.n
        else:
            start = (self.blind_seats[-1] + 1) % self.n
        return [s for s in self._clockwise(start) if s in live]

    def _finish(self, showdown: bool = False) -> None:
        self.actor = None
        self.pending_deal = None
        self._return_uncalled()
        n = self.n
        live = 0
        strengths = [-1] * n
        for s in range(n):
            if not self.folded[s]:
                live |= 1 << s
                if showdown:
                    m = 0
                    for c in self.hole[s]:
                        m |= 1 << c
                    strengths[s] = evaluate_mask(m, self.rules.suit_tiebreak)
        sharers = self.votes if (showdown and self.votes) else 0
        returned, pots, winnings = split_pots(self.contrib, strengths, live, sharers, (self.button + 1) % n, self.dead)
        shown: dict[int, tuple[Card, ...]] = {}
        contested = False
        if showdown:
            # R9.3: show in order; a player who cannot win any contested pot may muck: as they chose
            # (set_showdown_choice), else as muck_losers says
            contested_pots = [(elig, win) for (_, elig, win, shared) in pots if not shared and elig & (elig - 1)]
            contested = bool(contested_pots)
            best_shown: dict[int, int] = {}
            for s in self._showdown_order():
                mine = [(elig, win) for (elig, win) in contested_pots if elig >> s & 1]
                if not mine:
                    continue
                can_win = any(all(strengths[o] <= strengths[s] for o in best_shown if elig >> o & 1)
                              for (elig, _) in mine)
                choice = self.showdown_choices[s]
                if can_win or (not self.rules.muck_losers if choice is None else choice):
                    shown[s] = tuple(DECK[c] for c in sorted(self.hole[s], reverse=True))
                    best_shown[s] = strengths[s]
                    # R2.4: the value names the deciding suit; with the tie-break off no suit is named
                    described = describe_value(strengths[s], suit_tiebreak=self.rules.suit_tiebreak)
                    self._log(EventKind.SHOW, s, None, shown[s], (("hand", described), ("value", strengths[s])))
                else:
                    self._log(EventKind.MUCK, s)
        for s in range(n):
            if returned[s]:
                self.stacks[s] += returned[s]
                self.contrib[s] -= returned[s]
                self._log(EventKind.RETURN_UNCALLED, s, returned[s])
        pot_objs = []
        for i, (amount, elig, win, shared) in enumerate(pots):
            pot_objs.append(Pot(amount, _bits(elig), _bits(win), shared))
            self._log(EventKind.AWARD, None, amount, info=(("pot", i), ("winners", _bits(win)),
                                                            ("shared", shared)))
        for s in range(n):
            self.stacks[s] += winnings[s]
        self.bets = [0] * n
        self.phase = Phase.COMPLETE
        net = tuple(self.stacks[s] - self.starting_stacks[s] for s in range(n))
        self.result = HandResult(tuple(self.stacks), net, tuple(pot_objs), shown, contested)
        self._log(EventKind.HAND_END, None, None, info=(("stacks", tuple(self.stacks)),))

    # ------------------------------------------------------------------ views
    def _public(self) -> dict[str, Any]:
        r = self.result
        return {
            "phase": self.phase.value,
            "button": self.button,
            "blinds": list(self.blind_seats),
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "pot": self.pot,
            "to_act": self.actor if self.pending_deal is None else None,
            "folded": list(self.folded),
            "all_in": [not self.folded[s] and self.stacks[s] == 0 and r is None for s in range(self.n)],
            "discarded": list(self.discarded),
            "parole_open": self.offer_open,
            "shown": [] if r is None else [{"seat": s, "cards": [str(c) for c in cs]} for s, cs in
                                           sorted(r.shown.items())],
            "pots": self._pots_now() if r is None else [p.to_dict() for p in r.pots],
            "stub_count": len(self.stub),
            "serial": len(self.events),
        }

    def _pots_now(self) -> list[dict[str, Any]]:
        """The main pot and the side pots so far (R9.1), current bets included: one pot per all-in
        level of a live player, then the pot the players still betting contest."""
        n, contrib, folded, stacks = self.n, self.contrib, self.folded, self.stacks
        live = [s for s in range(n) if not folded[s]]
        levels = sorted({contrib[s] for s in live if stacks[s] == 0 and contrib[s] > 0})
        if any(stacks[s] > 0 for s in live) or not levels:
            levels.append(max(contrib))
        pots: list[dict[str, Any]] = []
        prev = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, prev) for c in contrib) + (self.dead if not prev else 0)
            if level == levels[-1]:
                amount += sum(c - level for c in contrib if c > level)      # folded chips above the top
            if amount > 0:
                # a player still betting may yet match every level
                pots.append({"amount": amount, "eligible": [s for s in live if contrib[s] >= level or stacks[s] > 0]})
            prev = level
        return pots

    def public_view(self) -> dict[str, Any]:
        """What everyone at the table may see, as JSON-serialisable data: stacks, bets, pot, button,
        whose turn, folds, all-ins, how many cards each player discarded, shown hands and pots.
        No hole card, stub order or mucked card appears."""
        return self._public()

    def view(self, seat: int) -> dict[str, Any]:
        """The public view plus what seat ``seat`` alone may see: its own cards, its showdown
        choice (``"show"``, ``"muck"`` or ``None``, R9.3, :meth:`set_showdown_choice`) and, on its
        turn, its legal actions.

        :raises IllegalActionError: no such seat.
        """
        seat = self._check_seat(seat)
        v = self._public()
        v["seat"] = seat
        v["cards"] = [str(DECK[c]) for c in self.hole[seat]]
        choice = self.showdown_choices[seat]
        v["showdown_choice"] = None if choice is None else "show" if choice else "muck"
        legal = self.legal_actions()
        v["legal"] = legal.to_dict() if legal is not None and legal.seat == seat else None
        return v

    def events_for(self, seat: int | None = None, start: int = 0) -> list[Event]:
        """The event log as seat ``seat`` may see it (``None``: as an onlooker sees it).

        :attr:`events` is the dealer's full record, with every card; never send it to players.
        Here other players' hole cards, discards and replacement cards are removed (their
        number stays in ``info["hidden"]``); shown hands stay.

        :param start: index of the first event wanted (a client that has ``k`` events asks for
            ``start=k``; :meth:`public_view` gives the current count as ``serial``).
        :raises IllegalActionError: no such seat, or a bad ``start``.
        """
        if seat is not None:
            seat = self._check_seat(seat)
        first = integer(start)
        if first is None or not 0 <= first <= len(self.events):
            raise IllegalActionError(f"start {shown(start)} is not an event index 0..{len(self.events)}")
        start = first
        out = []
        for ev in self.events[start:]:
            if ev.cards and ev.seat != seat and ev.kind in _PRIVATE_EVENTS:
                ev = _hidden(ev)
            out.append(ev)
        return out

    # ------------------------------------------------------------------ persistence and search
    def snapshot(self) -> dict[str, Any]:
        """The complete state as versioned, JSON-serialisable data, for :meth:`restore`.

        Holds every card and the stub order: the dealer's record, never for players.  See
        :mod:`pokerdraw32.snapshot` for the format.
        """
        from .snapshot import snapshot
        return snapshot(self)

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Hand:
        """The hand saved by :meth:`snapshot`; it continues exactly as the saved one would.

        The log is replayed through the engine and the snapshot must be exactly the snapshot of
        the result (see :mod:`pokerdraw32.snapshot`): a restored hand is a state the engine could
        have reached.

        :raises SnapshotError: another format or version, or a bad field (named); cards that are
            not the deck once each (R1.1), chips that do not add up (R9.5), a field or event the
            replay does not give, or a :meth:`determinize` copy's snapshot.
        """
        from .snapshot import restore
        return restore(data)

    def clone(self) -> Hand:
        """An independent copy that continues identically (same stub, pile and generator state):
        for search.  Immutable parts (rules, events, cards) are shared; about 10 µs."""
        new = Hand.__new__(Hand)
        d = self.__dict__.copy()
        for name in _LIST_STATE:
            d[name] = d[name].copy()
        d["hole"] = [cards.copy() for cards in self.hole]
        d["_round_robin"] = [cards.copy() for cards in self._round_robin]
        d["rng"] = copy.copy(self.rng)
        new.__dict__ = d
        return new

    def determinize(self, seat: int, seed: int | None = None) -> Hand:
        """A clone in which every card ``seat`` cannot see is dealt again at random: the other
        players' hole cards, their discards, the dead cards and the stub order (for research:
        determinization for imperfect-information search).

        What ``seat`` knows stays: its own cards and discards, how many cards each player holds
        and discarded, cards shown at showdown, and every chip.  The hidden cards are drawn
        uniformly from the cards ``seat`` has not seen (the players' actions are not used to
        weight them).  The clone's generator is seeded with ``seed`` (``None``: from the OS), and
        its log is :meth:`events_for` ``seat``, so it holds no card the seat could not know.
        The other seats' showdown choices are private (R9.3): the clone has none for them
        (``muck_losers`` decides); ``seat``'s own choice stays.

        :raises IllegalActionError: no such seat.
        """
        seat = self._check_seat(seat)
        new = self.clone()
        new.rng = Rng(seed)
        new.events = self.events_for(seat)
        new._redacted_for = seat
        new._legal_key = -1
        new.showdown_choices = [c if s == seat else None for s, c in enumerate(self.showdown_choices)]
        known = set(self.hole[seat])
        for ev in self.events:
            if ev.seat == seat and ev.kind in _PRIVATE_EVENTS:
                known.update(int(c) for c in ev.cards)
        if self.result is not None:
            for cards in self.result.shown.values():
                known.update(int(c) for c in cards)
        # Where a hidden card may be.  The seat knows where its own discards are while they lie in
        # the discard pile (or dead): they stay.  Once reshuffled into the stub (R6.2) they may be in
        # the stub or another player's hand, like any card the seat has never seen; but never in the
        # pile or among the dead cards, which only hold cards the seat has not seen.
        dead = [new.pile, new.muck, new._own_discards]
        live = [new.hole[s] for s in range(self.n) if s != seat and not (self.result and s in self.result.shown)]
        unseen = [c for place in dead for c in place if c not in known]
        unseen += [c for place in live for c in place if c not in known]
        unseen += [c for c in new.stub if c not in known]
        roaming = [c for place in live for c in place if c in known] + [c for c in new.stub if c in known]
        pool = new.rng.shuffled(sum(1 << c for c in unseen))
        for place in dead:
            for i, c in enumerate(place):
                if c not in known:
                    place[i] = pool.pop()
        pool = new.rng.shuffled(sum(1 << c for c in pool + roaming))
        for place in live:
            for i in range(len(place)):
                place[i] = pool.pop()
        new.stub = pool
        new._round_robin = []
        return new

    def __repr__(self) -> str:
        return (f"<Hand {self.phase.value} button={self.button} stacks={self.stacks} pot={self.pot} "
                f"to_act={self.actor}>")
