"""Local best response (LBR) in the real game: a lower bound on how much a bot can be exploited.

Lisý and Bowling, *Equilibrium Approximation Quality of Current No-Limit Poker Bots* (AAAI 2017
workshop on computer poker): an agent that, at each of its decisions, takes the action with the best
value against the opponent's **range** (the distribution of the opponent's cards given everything
the agent has seen, computed from the opponent's known action probabilities), assuming that from
then on it will only check or call (the *fixed continuation*) and that the opponent's answer to a
bet is its policy's fold, or else a call.  It needs no training; what it wins from a bot is a lower
bound on the bot's exploitability (a best response wins at least as much), reported in big blinds
per 100 hands with a 95% interval, as the PPO exploiter of :mod:`pokerdraw32.env.exploit` (the
other, independent lower bound) reports its own.

How this agent plays 32-Card Draw (heads-up; every choice below only makes it weaker, never its
figure wrong: whatever it does, what it wins is what *a* strategy wins):

* **The range** is a set of ``particles`` weighted guesses of the opponent's hole cards, drawn
  uniformly from the 27 cards the agent has not seen (R5.1), each weighted at every opponent
  decision by the probability the opponent's ``action_probabilities(view)`` gives the action it
  took, ``view`` being the opponent's view with the guessed cards in place of its own (its deal,
  discards and replacement cards; nothing else of a view depends on them).  At the draw only the
  number of cards thrown is seen (R6.1): a guess is weighted by the probability of throwing that
  many, the range resampled to ``particles`` guesses, each guess given one of its discards of that
  number by the policy's probabilities, and its replacement cards drawn uniformly from the cards
  the agent has not seen (heads-up the stub holds 22 cards and never runs out: R6.2 never applies).
  Everything is read from :meth:`Hand.determinize` of the agent's seat: the agent never touches a
  card it may not see.
* **Values**, in chips won from now on: fold 0; check or call ``e * (pot + c) - c`` (``e`` the
  chance that its hand beats the opponent's at the showdown, ``c`` the chips to call); a bet or
  raise that adds ``d`` chips, answered by a fold with the policy's probability ``f`` (the pot is
  won) or else a call of ``c'`` chips: ``f * pot + (1 - f) * (e * (pot + d + c') - d)``, summed over
  the range; a Parole split (R8) offered: half the pot if both split, else the showdown; accepting
  one: half the pot.  Bets tried: the smallest, half the pot, the pot and all-in in no-limit; the
  smallest, half the pot and the pot in pot-limit; the fixed size in fixed-limit (R3.4).
* **The chance to win** before the draw: both players draw as :func:`~pokerdraw32.bots.choose_discards`
  would (the opponent as its policy did, once it has drawn), ``samples`` deals of the replacement
  cards per guess; after the draw: exact, each guess's final hand against the agent's.
* **Its own draw**: of every discard the rules allow (0-4 cards), the one whose chance to win
  against the range (the same ``samples`` draws for every discard) is highest.

Measure with :func:`local_best_response` or ``pokerdraw32 exploit lbr --against rule``.  More
players: the same agent would keep one range per opponent (weighted jointly: the guesses of two
opponents share the deck) and take each opponent's fold or call in turn; not built yet
(``players`` must be 2).  Needs numpy (the ``[aivat]`` extra, or any of ``[rl]``, ``[openspiel]``).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from ._handcore.events import PRIVATE_EVENTS
from ._kernels import Rng, evaluate_many, evaluate_mask
from .actions import Action, ActionKind, Event, EventKind, Phase
from .bots import Bot, SeatView, check_fit, choose_discards, known_policy, make_bot
from .cards import DECK, Card
from .errors import MAX_CHIPS, PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, integer, shown
from .hand import Hand
from .parallel import check_run, chunk_seed, run_chunks
from .rules import Rules, Structure
from .simulate._chunk import BotError

__all__ = ["MAX_HANDS", "LbrAgent", "LbrReport", "local_best_response"]

_ALL = (1 << 32) - 1
_MOVES = frozenset({EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE, EventKind.SPLIT,
                    EventKind.DECLINE, EventKind.DISCARD, EventKind.TIMEOUT})
_DEALS_PER_CHUNK = 16


def _mask(cards: Sequence[Card | int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def _bits(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


class _Range:
    """The opponent's range: guesses of its dealt cards, discards and replacement cards, and weights."""

    def __init__(self, dealt: list[tuple[Card, ...]]) -> None:
        self.dealt = dealt
        self.thrown: list[tuple[Card, ...]] | None = None       # set once the opponent has drawn
        self.received: list[tuple[Card, ...]] | None = None     # set once both have drawn
        self.weight = np.ones(len(dealt))
        self.resets = 0

    def __len__(self) -> int:
        return len(self.dealt)

    def hole(self, i: int) -> tuple[Card, ...]:
        """Guess ``i``'s cards now (as the opponent holds them)."""
        if self.thrown is None:
            return self.dealt[i]
        thrown = self.thrown[i]
        kept = tuple(c for c in self.dealt[i] if c not in thrown)
        return kept + (self.received[i] if self.received is not None else ())

    def key(self, i: int) -> tuple[Any, ...]:
        return (self.dealt[i], self.thrown[i] if self.thrown is not None else None,
                self.received[i] if self.received is not None else None)

    def reweigh(self, likelihood: npt.NDArray[np.float64]) -> None:
        w = self.weight * likelihood
        if not w.sum() > 0:          # no guess explains the action (too few guesses): keep the range as it was
            self.resets += 1
            return
        self.weight = w / w.sum()


class LbrAgent:
    """The local best response agent of one seat for one hand at a time (see the module's docstring).

    :param policy: the opponent's ``action_probabilities`` (a model of it: a copy of the bot, whose
        generator the agent's queries may use without touching the real bot's).
    :param rng: the agent's numpy generator (its guesses and samples).
    :param particles: guesses of the opponent's cards (>= 1).
    :param samples: replacement-card deals per guess for the chance to win before the showdown (>= 1).
    :raises PokerDraw32TypeError: ``policy`` is not callable, ``rng`` not a numpy Generator.
    :raises PokerDraw32ValueError: ``particles`` or ``samples`` not an integer from 1 to 100,000.

    Drive it with :meth:`new_hand` once the hand is dealt, :meth:`observe` before each of the
    opponent's actions is applied, and :meth:`decide` at each of its own turns.
    """

    def __init__(self, policy: Callable[[SeatView], Any], rng: np.random.Generator, particles: int = 256,
                 samples: int = 16) -> None:
        if not callable(policy):
            raise PokerDraw32TypeError(f"policy must be the opponent's action_probabilities, got "
                                       f"{type(policy).__name__}")
        if not isinstance(rng, np.random.Generator):
            raise PokerDraw32TypeError(f"rng must be a numpy Generator (numpy.random.default_rng(seed)), got "
                                       f"{type(rng).__name__}")
        self.policy = policy
        self.rng = rng
        self.particles = _count("particles", particles)
        self.samples = _count("samples", samples)
        self.seat = 0
        self.range: _Range | None = None
        self.decisions = 0
        self.queries = 0

    # -- the hand ------------------------------------------------------------------------------------

    def new_hand(self, hand: Hand, seat: int) -> None:
        """Start a hand (just dealt: R5.1) in which the agent sits at ``seat``.

        :raises PokerDraw32TypeError: ``hand`` is not a :class:`~pokerdraw32.hand.Hand`.
        :raises PokerDraw32ValueError: not two players (heads-up only), or a hand already under way.
        :raises IllegalActionError: no such seat.
        """
        if not isinstance(hand, Hand):
            raise PokerDraw32TypeError(f"new_hand needs a Hand, got {type(hand).__name__}")
        if hand.n != 2:
            raise PokerDraw32ValueError(f"the local best response plays heads-up only, not {hand.n} players")
        if hand.phase is not Phase.FIRST_ROUND or any(ev.kind in _MOVES for ev in hand.events):
            raise PokerDraw32ValueError("new_hand: the hand must be just dealt, before anyone acted (R5.1)")
        seat = hand._check_seat(seat)
        self.seat = seat
        mine = _mask(self._shadow(hand).hole[seat])
        unseen = [DECK[c] for c in range(32) if not mine >> c & 1]
        n = self.particles
        picks = np.argsort(self.rng.random((n, len(unseen))), axis=1)[:, :5]
        self.range = _Range([tuple(unseen[j] for j in sorted(row)) for row in picks.tolist()])

    def _started(self, hand: Hand, seat: int) -> _Range:
        """The range, once :meth:`new_hand` started a hand and ``seat`` is to act in ``hand``."""
        if self.range is None:
            raise PokerDraw32ValueError("no hand started: call new_hand(hand, seat) first")
        if not isinstance(hand, Hand):
            raise PokerDraw32TypeError(f"needs a Hand, got {type(hand).__name__}")
        if hand.actor != seat:
            who = "the agent" if seat == self.seat else "the opponent"
            raise PokerDraw32ValueError(f"{who} (seat {seat}) is not to act (to act: {hand.actor})")
        return self.range

    def _shadow(self, hand: Hand) -> Hand:
        """The hand as the agent may know it (every card it cannot see dealt again at random)."""
        return hand.determinize(self.seat, int(self.rng.integers(1 << 63)))

    def _as_if(self, view: SeatView, i: int) -> SeatView:
        """The opponent's ``view`` with guess ``i``'s cards in place of its own."""
        rg = self.range
        assert rg is not None
        seat = view.seat
        own: list[Event] = []
        for ev in view.public_events:
            if ev.seat != seat or ev.kind not in PRIVATE_EVENTS or ev.get("hidden") is None:
                continue
            if ev.kind is EventKind.DEAL_HOLE:
                cards = rg.dealt[i]
            elif ev.kind is EventKind.DISCARD:
                assert rg.thrown is not None
                cards = rg.thrown[i]
            else:
                assert rg.received is not None
                cards = rg.received[i]
            info = tuple(kv for kv in ev.info if kv[0] != "hidden")
            own.append(Event(ev.kind, ev.seat, ev.amount, cards, info))
        hole = rg.hole(i)
        legal = view.legal
        if legal is not None:
            legal = dataclasses.replace(legal, hole_cards=hole)
        return view._replace(hole_cards=hole, own_events=tuple(own), legal=legal)

    def _distributions(self, view: SeatView) -> list[list[tuple[Action, float]]]:
        """The opponent's action distribution at ``view`` for every guess (guesses alike asked once;
        a guess the range has ruled out, weight 0, is not asked: an empty distribution)."""
        rg = self.range
        assert rg is not None
        memo: dict[tuple[Any, ...], list[tuple[Action, float]]] = {}
        out: list[list[tuple[Action, float]]] = []
        live = (rg.weight > 0).tolist()
        for i in range(len(rg)):
            if not live[i]:
                out.append([])
                continue
            k = rg.key(i)
            d = memo.get(k)
            if d is None:
                self.queries += 1
                d = memo[k] = _distribution(self.policy(self._as_if(view, i)))
            out.append(d)
        return out

    def _materialise(self, hand: Hand) -> None:
        """Once both players have drawn: each guess's replacement cards, uniform over the cards the
        agent has not seen and the guess's own dealt cards are not."""
        rg = self.range
        assert rg is not None and rg.thrown is not None
        if rg.received is not None:
            return
        known = _mask(hand.hole[self.seat]) | self._dealt_mask(hand)
        received = []
        for i in range(len(rg)):
            pool = _bits(_ALL & ~(known | _mask(rg.dealt[i])))
            k = len(rg.thrown[i])
            pick: list[int] = sorted(self.rng.choice(len(pool), size=k, replace=False).tolist()) if k else []
            received.append(tuple(DECK[pool[j]] for j in pick))
        rg.received = received

    def _dealt_mask(self, hand: Hand) -> int:
        for ev in hand.events_for(self.seat):
            if ev.kind is EventKind.DEAL_HOLE and ev.seat == self.seat:
                return _mask(ev.cards)
        return 0

    def _drew(self, hand: Hand) -> bool:
        return hand.discarded[self.seat] is not None

    # -- watching the opponent -------------------------------------------------------------------------

    def observe(self, hand: Hand, action: Action | str) -> None:
        """The opponent (the seat to act in ``hand``) is about to take ``action``: weigh the range by
        the probability of what the agent will see of it (at the draw, only the number of cards
        thrown: the cards of ``action`` are not read).

        :raises PokerDraw32ValueError: no hand started (:meth:`new_hand`), or the opponent is not to act.
        :raises IllegalActionError: ``action`` is not an action (text is parsed as ``Action.parse``).
        :raises BotError: the opponent's policy gives no distribution.
        """
        rg = self._started(hand, 1 - self.seat)
        if not isinstance(action, Action):
            action = Action.parse(action) if isinstance(action, str) else Action(action)
        hand = self._shadow(hand)               # from here on, only what the agent may know
        if hand.phase is Phase.SECOND_ROUND and rg.received is None:
            self._materialise(hand)
        view = SeatView.of(hand, 1 - self.seat)
        dists = self._distributions(view)
        if action.kind is ActionKind.DISCARD:
            k = len(action.cards)
            like = np.array([sum(q for a, q in d if a.kind is ActionKind.DISCARD and len(a.cards) == k)
                             for d in dists])
            rg.reweigh(like)
            # resample the guesses by weight, then give each a discard of that many cards
            n = len(rg)
            u = (self.rng.random() + np.arange(n)) / n
            idx = np.minimum(np.searchsorted(np.cumsum(rg.weight), u), n - 1)
            dealt, thrown = [], []
            for j in idx.tolist():
                options = [(a.cards, q) for a, q in dists[j] if a.kind is ActionKind.DISCARD and len(a.cards) == k]
                if not options:                     # the range was kept as it was: any discard of k cards
                    options = [(tuple(c for c in rg.dealt[j] if c in choose_discards(rg.dealt[j]))[:k], 1.0)]
                    if len(options[0][0]) != k:
                        options = [(rg.dealt[j][:k], 1.0)]
                total = sum(q for _c, q in options)
                r = self.rng.random() * total
                pick = options[-1][0]
                for cards, q in options:
                    r -= q
                    if r < 0:
                        pick = cards
                        break
                dealt.append(rg.dealt[j])
                thrown.append(tuple(pick))
            rg.dealt, rg.thrown, rg.weight = dealt, thrown, np.full(n, 1.0 / n)
            if self._drew(hand):
                self._materialise(hand)
            return
        like = np.array([sum(q for a, q in d if _same(a, action)) for d in dists])
        rg.reweigh(like)

    # -- deciding --------------------------------------------------------------------------------------

    def decide(self, hand: Hand) -> Action:
        """The agent's action, legal in ``hand``.

        :raises PokerDraw32ValueError: no hand started (:meth:`new_hand`), or the agent is not to act.
        :raises BotError: the opponent's policy gives no distribution.
        """
        rg = self._started(hand, self.seat)
        self.decisions += 1
        shadow = hand = self._shadow(hand)      # from here on, only what the agent may know
        view = SeatView.of(shadow, self.seat)
        legal = view.legal
        assert legal is not None
        if legal.phase is Phase.DRAW:
            return self._draw(hand, legal.max_discard)
        if rg.thrown is not None and rg.received is None:
            self._materialise(hand)
        win = self._win_chance(hand)
        w = rg.weight
        pot = view.pot
        kinds = legal.kinds
        options: list[tuple[float, Action]] = []
        passive = Action.check() if ActionKind.CHECK in kinds else Action.call()
        if ActionKind.CALL in kinds or ActionKind.CHECK in kinds:
            c = legal.call_amount
            options.append((float(w @ win) * (pot + c) - c, passive))
        elif ActionKind.DECLINE in kinds:
            options.append((float(w @ win) * pot, Action.decline()))
        if ActionKind.FOLD in kinds and legal.call_amount > 0:
            options.append((0.0, Action.fold()))
        if ActionKind.SPLIT in kinds:
            options.append((self._split_value(shadow, view, win), Action.split()))
        raise_kind = ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE
        if raise_kind in kinds and legal.min_to is not None and legal.max_to is not None:
            for to in _sizes(view, legal.min_to, legal.max_to):
                action = Action(raise_kind, to)
                options.append((self._raise_value(shadow, view, action, win), action))
        top = max(value for value, _action in options)
        tied = [action for value, action in options if value >= top - 1e-9]
        # ties: the smallest bet (its fold is the policy's exact probability; the chance to win only
        # estimated), else the first listed
        return next((a for a in tied if a.kind is raise_kind), tied[0])

    def _respond(self, shadow: Hand, action: Action) -> list[list[tuple[Action, float]]] | None:
        """The opponent's distributions, per guess, right after the agent's ``action`` (None: the
        opponent does not act next)."""
        after = shadow.clone()
        after.act(action)
        if after.actor != 1 - self.seat:
            return None
        return self._distributions(SeatView.of(after, 1 - self.seat))

    def _raise_value(self, shadow: Hand, view: SeatView, action: Action, win: npt.NDArray[np.float64]) -> float:
        assert action.amount is not None
        rg = self.range
        assert rg is not None
        me, opp = self.seat, 1 - self.seat
        pot = view.pot
        d = action.amount - view.bets[me]
        dists = self._respond(shadow, action)
        if dists is None:
            return float(rg.weight @ win) * (pot + d) - d
        fold = np.array([sum(q for a, q in dd if a.kind is ActionKind.FOLD) for dd in dists])
        reach = view.bets[opp] + view.stacks[opp]          # the opponent's most this round: all-in
        matched = min(action.amount, reach)
        d_eff = matched - view.bets[me]
        c_opp = matched - view.bets[opp]
        called = win * (pot + d_eff + c_opp) - d_eff
        return float(rg.weight @ (fold * pot + (1 - fold) * called))

    def _split_value(self, shadow: Hand, view: SeatView, win: npt.NDArray[np.float64]) -> float:
        rg = self.range
        assert rg is not None
        pot = view.pot
        if shadow.offer_open and ActionKind.CHECK not in (view.legal.kinds if view.legal else ()):
            return pot / 2                                   # accepting an open offer (all-in, R8.2)
        dists = self._respond(shadow, Action.split())
        if dists is None:                                    # the offer is accepted by splitting last
            return pot / 2
        split = np.array([sum(q for a, q in dd if a.kind is ActionKind.SPLIT) for dd in dists])
        return float(rg.weight @ (split * pot / 2 + (1 - split) * win * pot))

    # -- the chance to win -----------------------------------------------------------------------------

    def _win_chance(self, hand: Hand) -> npt.NDArray[np.float64]:
        """Per guess, the chance that the agent's hand beats the opponent's at the showdown."""
        rg = self.range
        assert rg is not None
        mine = tuple(hand.hole[self.seat])
        tiebreak = bool(hand.rules.suit_tiebreak)
        if rg.received is not None and self._drew(hand):
            opp = np.array([_mask(rg.hole(i)) for i in range(len(rg))], dtype=np.uint32)
            mine_v = evaluate_mask(_mask(mine), tiebreak)
            return (np.asarray(evaluate_many(opp, suit_tiebreak=tiebreak), dtype=np.int64) < mine_v).astype(float)
        if self._drew(hand):
            keep, k = _mask(mine), 0
        else:
            thrown = choose_discards(tuple(DECK[c] for c in mine))
            keep, k = _mask(mine) & ~_mask(thrown), len(thrown)
        return self._draw_chances(hand, [(keep, k)])[0]

    def _draw_chances(self, hand: Hand, options: list[tuple[int, int]]) -> list[npt.NDArray[np.float64]]:
        """For each option ``(cards kept, cards drawn)`` of the agent's, the chance per guess to win
        once both have drawn (the opponent as it did, or as choose_discards would), over the same
        ``samples`` deals of replacement cards for every option."""
        rg = self.range
        assert rg is not None
        n, s = len(rg), self.samples
        tiebreak = bool(hand.rules.suit_tiebreak)
        known = _mask(hand.hole[self.seat]) | self._dealt_mask(hand)
        keep_o = np.zeros(n, dtype=np.uint64)
        k_o = np.zeros(n, dtype=np.int64)
        excluded = np.zeros((n, 32), dtype=bool)
        for i in range(n):
            dealt = rg.dealt[i]
            thrown = rg.thrown[i] if rg.thrown is not None else choose_discards(dealt)
            keep_o[i] = _mask(dealt) & ~_mask(thrown)
            k_o[i] = len(thrown)
            ex = known | _mask(dealt)
            excluded[i] = [bool(ex >> c & 1) for c in range(32)]
        if rg.received is not None:             # the opponent's replacement cards are already guessed
            keep_o = np.array([_mask(rg.hole(i)) for i in range(n)], dtype=np.uint64)
            k_o[:] = 0
        keys = self.rng.random((n, s, 32))
        keys[np.broadcast_to(excluded[:, None, :], keys.shape)] = 2.0
        order = np.argsort(keys, axis=2)                                     # [n, s, 32]: the pool first
        bits = np.left_shift(np.uint64(1), order.astype(np.uint64))
        cum = np.concatenate([np.zeros((n, s, 1), dtype=np.uint64), np.cumsum(bits, axis=2, dtype=np.uint64)],
                             axis=2)                                         # cum[..., j]: the first j cards
        out = []
        for keep, k in options:
            new_me = cum[:, :, k]
            idx = (k + k_o)[:, None, None].repeat(s, axis=1)
            new_o = np.take_along_axis(cum, idx, axis=2)[:, :, 0] - new_me
            me = (np.uint64(keep) | new_me).astype(np.uint32).reshape(-1)
            op = (keep_o[:, None] | new_o).astype(np.uint32).reshape(-1)
            vm = np.asarray(evaluate_many(me, suit_tiebreak=tiebreak), dtype=np.int64)
            vo = np.asarray(evaluate_many(op, suit_tiebreak=tiebreak), dtype=np.int64)
            out.append((vm > vo).reshape(n, s).mean(axis=1))
        return out

    def _draw(self, hand: Hand, max_discard: int) -> Action:
        """The discard with the best chance to win against the range (R6.1: 0 to ``max_discard``)."""
        mine = tuple(DECK[c] for c in hand.hole[self.seat])
        full = _mask(mine)
        choices = [c for k in range(max_discard + 1) for c in combinations(mine, k)]
        chances = self._draw_chances(hand, [(full & ~_mask(c), len(c)) for c in choices])
        rg = self.range
        assert rg is not None
        values = [float(rg.weight @ ch) for ch in chances]
        best = max(range(len(choices)), key=lambda j: (values[j], -len(choices[j])))
        return Action.discard(choices[best])


def _distribution(got: Any) -> list[tuple[Action, float]]:
    """A policy's answer checked: ``[(action, probability), ...]``."""
    try:
        out = [(a, float(q)) for a, q in got]
    except Exception:
        out = []
    if not out or not all(isinstance(a, Action) and q >= 0 for a, q in out):
        raise BotError(f"the opponent's action_probabilities gave no distribution ({shown(got)}): the local best "
                       "response needs [(action, probability), ...] at every decision")
    return out


def _count(name: str, value: object) -> int:
    v = integer(value)
    if v is None or not 1 <= v <= 100_000:
        raise PokerDraw32ValueError(f"{name} {shown(value)}: an integer from 1 to 100,000")
    return v


def _same(a: Action, b: Action) -> bool:
    """Whether two actions are the same as an onlooker sees them (kind, and a bet's amount)."""
    if a.kind is not b.kind:
        return False
    return a.amount == b.amount


def _sizes(view: SeatView, lo: int, hi: int) -> list[int]:
    """The bet or raise sizes tried, as total round bets within ``[lo, hi]``."""
    structure = view.rules.structure
    if structure is Structure.FIXED_LIMIT:
        return [lo]
    cur = max(view.bets)
    owe = cur - view.bets[view.seat]
    base = view.pot + owe
    sizes = {lo, hi}
    for frac in (0.5, 1.0):
        sizes.add(min(max(cur + int(frac * base + 0.5), lo), hi))
    return sorted(sizes)


# -- the measurement ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class LbrReport:
    """What :func:`local_best_response` measured.

    :ivar opponent: the opponent's label.
    :ivar hands: hands played (duplicate deals: each deal from both seats).
    :ivar bb_per_100: the agent's win rate, big blinds per 100 hands.
    :ivar ci95: half-width of its 95% interval, bb/100 (over deals: the two hands of a deal are one
        sample); ``None`` below two deals.
    :ivar seed: the seed.
    :ivar particles: guesses of the opponent's cards; ``samples``: replacement-card deals per guess.
    :ivar seconds: wall time; ``cpu_seconds``: this process's CPU time (not the workers').
    :ivar hands_per_second: ``hands / seconds``.
    :ivar decisions: the agent's decisions; ``queries``: the opponent's policy asked;
        ``range_resets``: opponent actions no guess explained (the range then kept as it was).
    :ivar net: the agent's result of each hand in chips, deal by deal (seat 0's hand, then seat 1's).
    """

    opponent: str
    hands: int
    bb_per_100: float
    ci95: float | None
    seed: int
    particles: int
    samples: int
    seconds: float
    cpu_seconds: float
    hands_per_second: float
    decisions: int
    queries: int
    range_resets: int
    net: tuple[int, ...] = field(repr=False)

    @property
    def low(self) -> float:
        """Lower end of the 95% interval (``-inf`` without one)."""
        return -math.inf if self.ci95 is None else self.bb_per_100 - self.ci95

    @property
    def high(self) -> float:
        """Upper end of the 95% interval (``inf`` without one)."""
        return math.inf if self.ci95 is None else self.bb_per_100 + self.ci95

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data: every field but ``net``, and ``low`` and ``high`` (``None``
        without an interval: strict JSON has no infinity)."""
        d = dataclasses.asdict(self)
        del d["net"]
        d["low"] = None if self.ci95 is None else self.low
        d["high"] = None if self.ci95 is None else self.high
        return d

    def __str__(self) -> str:
        if self.ci95 is None:
            figure = f"{self.bb_per_100:+.1f} bb/100 hands (no interval below two deals; "
        else:
            figure = (f"{self.bb_per_100:+.1f} ± {self.ci95:.1f} [{self.low:+.1f}, {self.high:+.1f}] bb/100 hands "
                      "(95% interval; ")
        return (f"local best response against {self.opponent}: {figure}{self.hands:,} duplicate hands, seed "
                f"{self.seed})\n{self.particles} guesses, {self.samples} draws each; {self.seconds:.1f} s, "
                f"{self.hands_per_second:.1f} hands/s; {self.range_resets} range resets in {self.decisions:,} "
                "decisions")


@dataclass(frozen=True)
class _Task:
    opponent: Any
    rules: Rules
    stacks: tuple[int, ...]
    seed: int
    first: int
    deals: int
    particles: int
    samples: int


def _copy(bot: Any, seed: int) -> Any:
    """A copy of ``bot`` of its own; a :class:`~pokerdraw32.bots.Bot`'s generator seeded ``seed``."""
    new = copy.deepcopy(bot)
    if isinstance(new, Bot):
        new.rng = Rng(seed)
    return new


def _play(task: _Task) -> tuple[list[int], int, int, int]:
    """Deals ``first .. first + deals - 1``, each from both seats: the agent's nets in chips, and its
    decisions, queries and range resets."""
    nets: list[int] = []
    decisions = queries = resets = 0
    for deal in range(task.first, task.first + task.deals):
        hand_seed = chunk_seed(task.seed, 2 * deal)
        for seat in (0, 1):
            rng = np.random.default_rng(chunk_seed(hand_seed, seat + 1))
            opponent = _copy(task.opponent, chunk_seed(task.seed, 2 * deal + 1) ^ seat)
            # the agent's model of the opponent draws from a generator of its own: the real bot's
            # random choices stay unknown to the agent (it knows the policy, not the coin flips)
            model = _copy(task.opponent, int(rng.integers(1 << 63)))
            policy = known_policy(model)
            assert policy is not None
            agent = LbrAgent(policy, rng, task.particles, task.samples)
            hand = Hand(task.rules, list(task.stacks), button=deal % 2, seed=hand_seed)
            agent.new_hand(hand, seat)
            while hand.actor is not None:
                if hand.actor == seat:
                    action = agent.decide(hand)
                else:
                    try:
                        decided = opponent.decide(SeatView.of(hand, hand.actor))
                    except PokerDraw32Error:
                        raise
                    except Exception as e:
                        raise BotError(f"the opponent ({_label(opponent)}) raised {type(e).__name__}: {e}",
                                       seat=hand.actor) from e
                    action = decided if isinstance(decided, Action) else Action.parse(decided)
                    agent.observe(hand, action)
                hand.act(action)
            assert hand.result is not None
            nets.append(hand.result.net[seat])
            decisions += agent.decisions
            queries += agent.queries
            assert agent.range is not None
            resets += agent.range.resets
    return nets, decisions, queries, resets


def _label(opponent: Any) -> str:
    name = getattr(opponent, "name", None)
    if isinstance(name, str) and name:
        return name
    if isinstance(opponent, type) or (callable(opponent) and hasattr(opponent, "__name__")):
        return str(opponent.__name__)
    return type(opponent).__name__


MAX_HANDS = 100_000_000
"""The most hands :func:`local_best_response` plays in one call."""


def _opponent(opponent: Any, seed: int) -> Any:
    """The bot a name, class or object stands for, checked: its policy known, copyable."""
    bot: Any
    if isinstance(opponent, str):
        bot = make_bot(opponent, seed)
    elif isinstance(opponent, type):
        try:
            bot = opponent(seed) if issubclass(opponent, Bot) else opponent()
        except Exception as e:
            raise PokerDraw32TypeError(f"cannot make a {opponent.__name__}: {type(e).__name__}: {e}") from e
    else:
        bot = opponent
    if not callable(getattr(bot, "decide", None)) and not callable(bot):
        raise PokerDraw32TypeError(f"the opponent must be a bot name, a bot class or a bot with decide(view), got "
                                   f"{type(opponent).__name__}")
    if known_policy(bot) is None:
        raise PokerDraw32ValueError(f"the local best response needs the opponent's action probabilities: "
                                    f"{_label(bot)} has no action_probabilities(view) of its own class (or its "
                                    f"decide was replaced), so its range cannot be tracked")
    try:
        copy.deepcopy(bot)
    except Exception as e:
        raise PokerDraw32TypeError(f"{_label(bot)} cannot be copied ({type(e).__name__}: {e}): the agent plays each "
                                   "hand against a copy and asks another; pass its class, or a bot that "
                                   "copy.deepcopy can copy") from e
    return bot


def local_best_response(opponent: Any, *, hands: int = 2000, seed: int = 0, rules: Rules | None = None,
                        stack_bb: int = 100, particles: int = 256, samples: int = 16,
                        workers: int | None = 1, progress: Callable[[int], object] | None = None,
                        label: str | None = None) -> LbrReport:
    """Play the local best response agent against ``opponent`` heads-up and measure its win rate.

    Every deal is played twice, the agent in seat 0 and then in seat 1 (the same cards, button and
    stub: duplicate), every hand from ``stack_bb`` big blinds each.  The opponent plays each hand
    as a copy of ``opponent`` (a :class:`~pokerdraw32.bots.Bot`'s generator seeded per hand); the
    agent asks another copy, with a generator of its own, for the probabilities.

    :param opponent: a bot name (``"rule"``, ``"cfr"``, ...), a bot class (made with ``seed``), or a
        bot whose policy is known (:func:`~pokerdraw32.bots.known_policy`: ``action_probabilities(view)``
        of its own class) and that ``copy.deepcopy`` can copy (and pickle can, with ``workers`` > 1).
    :param hands: hands to play (2 to :data:`MAX_HANDS`; rounded up to whole deals of 2 hands).
    :param seed: the seed of the deals, the bots and the agent (0 to 2**64 - 1; same seed, same result).
    :param rules: the table's :class:`~pokerdraw32.rules.Rules` (default the classic preset:
        no-limit, blinds 1/2).
    :param stack_bb: every seat's chips at each deal, in big blinds (1 to 100,000; both stacks within
        the chip limit, R3.2).
    :param particles: guesses of the opponent's cards (1 to 100,000); ``samples``: replacement-card
        deals per guess (1 to 100,000).
    :param workers: processes (``None``: every core; 1: this thread); the result does not depend on it.
    :param progress: called with the number of hands of each chunk of deals as it finishes.
    :param label: the opponent's name in the report (default: the name given, else the bot's
        ``name`` or its class's).
    :returns: an :class:`LbrReport`.
    :raises PokerDraw32ValueError: a bad count or seed, an unknown name, a bot whose policy is not
        known, one that does not play these rules heads-up, stacks past the chip limit.
    :raises PokerDraw32TypeError: an opponent that is neither a name, a class nor a bot, one that
        cannot be copied (or pickled for workers), bad ``rules``, ``progress`` or ``label``.
    :raises BotError: the opponent raised, or its policy gave no distribution.
    :raises KeyboardInterrupt: Ctrl-C (the finished chunks are dropped).
    """
    hands_n = integer(hands)
    if hands_n is None or not 2 <= hands_n <= MAX_HANDS:
        raise PokerDraw32ValueError(f"hands {shown(hands)}: from 2 (one deal from both seats) to {MAX_HANDS:,}")
    particles, samples, stack_bb = _count("particles", particles), _count("samples", samples), \
        _count("stack_bb", stack_bb)
    seed_n = integer(seed)
    if seed_n is None or not 0 <= seed_n < 1 << 64:
        raise PokerDraw32ValueError(f"seed {shown(seed)}: an integer from 0 to 2**64 - 1")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise PokerDraw32TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if progress is not None and not callable(progress):
        raise PokerDraw32TypeError(f"progress must be a function of the hands done, got {type(progress).__name__}")
    if label is not None and not isinstance(label, str):
        raise PokerDraw32TypeError(f"label must be a str, got {type(label).__name__}")
    if 2 * stack_bb * rules.big_blind > MAX_CHIPS:
        raise PokerDraw32ValueError(f"stack_bb {stack_bb}: two stacks of {stack_bb * rules.big_blind:,} chips are "
                                    f"more than the largest amount of chips ({MAX_CHIPS:,}) [R3.2]")
    bot = _opponent(opponent, seed_n)
    check_fit(bot, rules, 2)
    count = check_run(workers, None)
    if count != 1:
        try:
            pickle.dumps(bot)
        except Exception as e:
            raise PokerDraw32TypeError(f"{_label(bot)} cannot be sent to worker processes ({type(e).__name__}: {e}): "
                                       "use workers=1, or a bot that pickles") from e
    stacks = (stack_bb * rules.big_blind,) * 2
    deals = (hands_n + 1) // 2
    tasks = [_Task(bot, rules, stacks, seed_n, first, min(_DEALS_PER_CHUNK, deals - first), particles, samples)
             for first in range(0, deals, _DEALS_PER_CHUNK)]
    start, cpu = time.perf_counter(), time.process_time()
    tell = progress

    def on_done(_index: int, result: tuple[list[int], int, int, int]) -> None:
        if tell is not None:
            tell(len(result[0]))

    outcome = run_chunks(_play, tasks, workers=workers, on_done=on_done)
    if outcome.interrupted:
        raise KeyboardInterrupt
    seconds = time.perf_counter() - start
    done = [r for r in outcome.results if r is not None]
    net = [x for r in done for x in r[0]]
    per_deal = np.array(net, dtype=np.float64).reshape(-1, 2).sum(axis=1) / 2
    bb = rules.big_blind
    mean = float(per_deal.mean()) / bb * 100
    ci = 1.96 * float(per_deal.std(ddof=1)) / math.sqrt(len(per_deal)) / bb * 100 if len(per_deal) > 1 else None
    cpu_seconds = time.process_time() - cpu
    if label is None:
        label = opponent if isinstance(opponent, str) else _label(bot)
    return LbrReport(opponent=label, hands=len(net), bb_per_100=mean, ci95=ci, seed=seed_n, particles=particles,
                     samples=samples, seconds=seconds, cpu_seconds=cpu_seconds,
                     hands_per_second=len(net) / seconds if seconds else 0.0,
                     decisions=sum(r[1] for r in done), queries=sum(r[2] for r in done),
                     range_resets=sum(r[3] for r in done), net=tuple(net))
