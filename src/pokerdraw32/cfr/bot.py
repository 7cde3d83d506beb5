"""A bot that plays a solver's average strategy in real hands, through the abstraction (issue 26).

:class:`CfrBot` decides from a :class:`~pokerdraw32.bots.SeatView` as every bot does.  At each
decision it replays the hand's public log (with its own cards) in the solver's abstract game,
which starts from the effective stack (the smaller one) in big blinds, at most the abstraction's
``stack_bb`` (a deeper real game is played as if ``stack_bb`` deep; a shallower one has its own
all-ins; the strategy's information sets are the same keys, trained at ``stack_bb``):

* a real check, call, fold, split or draw is the same abstract action (a draw: "draw ``k``" with
  the real count ``k``; a timeout is read as the fold, check or pat it is logged as);
* a real bet or raise is translated to an abstract size by its fraction of the pot after calling,
  ``x = (to - current bet) / (pot + owed)``: an all-in to the all-in, else between the two nearest
  abstract sizes ``a <= x <= b`` to ``a`` with the pseudo-harmonic probability
  (:func:`~pokerdraw32.cfr.abstraction.pseudo_harmonic`) and to ``b`` otherwise (below the
  smallest: the smallest; above the largest: the largest); if the abstract node has no raise
  (cap reached, abstract stacks), a call.  Each translation is drawn once per hand (memoised by
  the event's place in the log, forgotten when the log is not the last one seen grown), so a
  decision's replay agrees with the earlier ones;
* its own action: a slot drawn from the strategy's probabilities, then made real: a raise by the
  same fraction of the *real* pot (rounded, clamped to the legal range; the all-in slot to the
  legal maximum), a draw of ``k`` cards by :func:`~pokerdraw32.cfr._mccfr.draw_discard`.

An information set trained with other legal slots (the same history at another stack depth, where
a raise size reaches the stack) has its probabilities moved onto the slots legal now (a missing raise
size to the nearest legal raise, else to check/call; see :func:`_mapped`).  Where the replay leaves
the abstract game (the real hand goes on where the abstract one ended,
or another player acts than the abstract game expects) or meets an information set the strategy
never saw, it plays the *fallback*: check, else call; in the draw the ``"rule"`` draw.  Counts of
each case are in :attr:`CfrBot.stats`.  Every action it returns is legal (tests/test_cfr_bot.py).

Rules it was not trained for (the strategy is a heads-up one, no-limit or fixed-limit, classic preset, blinds 1/2;
tests/test_cfr_blueprint.py):

* **stack depth**: as above (deeper: capped at ``stack_bb``; shallower: its own all-ins);
* **blinds**: any small and big blind; depths and raises are measured in big blinds and pot
  fractions, and the abstract game's small blind is half its big blind whatever the real one is;
* **pot-limit** (R3.4): played as no-limit; a raise the strategy sizes above the pot limit (a
  two-pot raise, the all-in) is made at the pot limit (the legal maximum), and read back, like any
  real raise, by its pot fraction;
* **fixed-limit** (R3.4): played by a fixed-limit strategy (``Abstraction(structure="fixed-limit")``),
  refused with a no-limit one (:func:`check_rules`: its bets are pot fractions and all-in); a
  fixed-limit strategy refuses no-limit and pot-limit hands.  In fixed-limit every real bet or raise
  is the abstract game's one raise (the fixed one, or the all-in for less where the abstract stack is
  short) and its own raise slot is the legal raise (the amount is fixed: no translation).  The
  abstract game counts bets and raises up to the abstraction's ``raise_cap`` (the rules' cap, the big
  blind the first round's first bet): with a larger real ``cap``, a raise beyond the abstract cap is
  read as a call (and the replay soon leaves the abstract game: the fallback); with a smaller one,
  a raise the strategy picks where the rules allow none is a call;
* **the two-blind preset**: heads-up the same game as the classic one (the over blind needs 4
  players, R4.2; a folded hand ends a heads-up hand before any reshuffle, R6.2);
* **heads_up_button_posts_small** (R4.3): the betting order is the same, but the big blind draws
  first (R6.1), the abstract game's small blind does: the replay puts the small blind's draw
  first, so the small blind draws by its strategy (without using the count it has seen), and the
  big blind's draw, made first, is the fallback (the ``"rule"`` draw, counted as ``"off_tree"``);
  with ``second_round_first="after_button"`` the big blind would also open the second round
  (R7.1): refused;
* other options (``suit_tiebreak`` off, ``parole`` off, ``muck_losers``, ``reshuffle_folded``,
  ``second_round_first`` with the big blind on the button): played as they are; with Parole off
  (R8) the split is never legal and its probability goes to the check.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..actions import Action, ActionKind, EventKind, Phase
from ..bots import Bot, SeatView, _legal_of
from ..cards import DECK
from ..errors import PokerDraw32TypeError, PokerDraw32ValueError
from ..hand import Hand
from ..rules import Rules, SecondRoundFirst, Structure
from ._select import mccfr
from .abstraction import pseudo_harmonic
from .solver import Strategy

__all__ = ["CfrBot", "check_rules"]

_PHASES = {mccfr.PH_FIRST: Phase.FIRST_ROUND, mccfr.PH_DRAW: Phase.DRAW, mccfr.PH_SECOND: Phase.SECOND_ROUND}
_ACTIONS = {EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE, EventKind.SPLIT,
            EventKind.DISCARD}        # a TIMEOUT is followed by the FOLD, CHECK or DISCARD it amounts to
_STRATEGIES: dict[str, Strategy] = {}


def _load(path: str | Path) -> Strategy:
    key = str(Path(path).resolve())
    found = _STRATEGIES.get(key)
    if found is None:
        found = _STRATEGIES[key] = Strategy.load(path)
    return found


def check_rules(rules: Rules, players: int = 2, structure: str = "no-limit") -> None:
    """Whether a :class:`CfrBot` with a strategy of the abstract ``structure`` (``"no-limit"``, the
    default, as the blueprint's, or ``"fixed-limit"``: :attr:`Abstraction.structure
    <pokerdraw32.cfr.abstraction.Abstraction.structure>`) plays hands of ``rules`` with ``players``
    players (see the module's docstring): returns if so.

    :raises PokerDraw32ValueError: more than 2 players; a fixed-limit hand with a no-limit strategy,
        or a no-limit or pot-limit hand with a fixed-limit strategy (R3.4); heads-up with
        ``heads_up_button_posts_small`` and ``second_round_first="after_button"`` (R4.3, R7.1).
    """
    if players != 2:
        raise PokerDraw32ValueError(f"CfrBot plays heads-up only: this hand has {players} players, and the "
                                    "solver's strategy is for 2 (pokerdraw32.cfr trains heads-up)")
    if rules.structure is Structure.FIXED_LIMIT and structure != "fixed-limit":
        raise PokerDraw32ValueError("CfrBot does not play fixed-limit (R3.4) with a no-limit strategy: it bets pot "
                                    "fractions and all-in; it plays no-limit and pot-limit hands (a strategy of "
                                    "Abstraction(structure='fixed-limit') plays fixed-limit)")
    if rules.structure is not Structure.FIXED_LIMIT and structure == "fixed-limit":
        raise PokerDraw32ValueError(f"CfrBot does not play {rules.structure.value} (R3.4) with a fixed-limit strategy: "
                                    "its one raise is the fixed-limit bet; it plays fixed-limit hands (a no-limit "
                                    "strategy plays no-limit and pot-limit)")
    if rules.heads_up_button_posts_small and rules.second_round_first is SecondRoundFirst.AFTER_BUTTON:
        raise PokerDraw32ValueError("CfrBot does not play heads_up_button_posts_small (R4.3) with "
                                    "second_round_first='after_button' (R7.1): the big blind would open the second "
                                    "round, the strategy's small blind does; drop either option")


class _CheckRules:
    """``CfrBot.check_rules``: on the class, :func:`check_rules` (a no-limit strategy, as the blueprint's);
    on a bot, :func:`check_rules` for its strategy's structure."""

    def __get__(self, bot: CfrBot | None, owner: type | None = None) -> Callable[..., None]:
        if bot is None:
            return check_rules
        return partial(check_rules, structure=bot.strategy.abstraction.structure)


class CfrBot(Bot):
    """Plays a :class:`~pokerdraw32.cfr.solver.Strategy` heads-up (see the module's docstring).

    :param strategy: a :class:`Strategy` or the path of a strategy file (loaded once per process).
    :param seed: the seed of its generator (its random choices and translations).
    :raises PokerDraw32TypeError: ``strategy`` is neither.

    :meth:`decide` raises :class:`~pokerdraw32.errors.PokerDraw32ValueError` for a hand it does not
    play (:func:`check_rules`: more than 2 players, a betting structure (R3.4) other than its
    strategy's, ...), at its first decision.

    :ivar stats: decisions by case: ``"strategy"``, ``"mapped"`` (the information set was trained
        with other legal slots, at another depth: see the module's docstring), ``"unseen"`` (an
        information set the strategy lacks), ``"off_tree"`` (the replay left the abstract game).
    """

    check_rules = _CheckRules()
    """:func:`check_rules` (``check_rules(rules, players)``) for the bot's strategy's structure (on the
    class: a no-limit strategy's), the hook :func:`pokerdraw32.bots.check_fit` calls before any hand."""

    def __init__(self, strategy: Strategy | str | Path, seed: int | None = None) -> None:
        super().__init__(seed)
        if isinstance(strategy, (str, Path)):
            strategy = _load(strategy)
        if not isinstance(strategy, Strategy):
            raise PokerDraw32TypeError(f"CfrBot needs a Strategy or the path of one, got {type(strategy).__name__}")
        self._use(strategy)
        self.stats = {"strategy": 0, "mapped": 0, "unseen": 0, "off_tree": 0}

    def _use(self, strategy: Strategy) -> None:
        """Play ``strategy`` from the next decision on (its abstract game; translations forgotten)."""
        self.strategy = strategy
        a = strategy.abstraction
        self._tables = a.tables()
        t = self._tables
        self._sv: Any = mccfr.Solver(a.milli, a.raise_cap, a.parole, 1, 2, a.stack, a.stack, t.pre, t.post, t.value,
                                     t.ruled, 0, a.fixed_limit)
        self._memo: dict[int, int] = {}
        self._seen: tuple[Any, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.rng.getstate()
        return (_rebuilt, (self.strategy, state))

    # -- the replay -----------------------------------------------------------------------------

    def _uniform(self) -> float:
        return self.rng.below(1 << 30) / (1 << 30)

    def _raise_slot(self, slots: list[int], x: float, all_in: bool) -> int:
        """The abstract slot of a real raise of pot fraction ``x`` (row 0 of the abstract game)."""
        sv = self._sv
        raises = [s for s in slots if s >= 3]
        if not raises:
            return 1
        if all_in:
            return raises[-1]
        row = sv.row(0)
        p = row[mccfr.F_ACTOR]
        cp, co = row[mccfr.F_C0 + p], row[mccfr.F_C1 - p]
        cur = max(cp, co) - row[mccfr.F_BASE]
        denominator = cp + co + max(co - cp, 0)
        sizes = [(sv.amount(0, s) - cur) / denominator for s in raises]
        if x <= sizes[0]:
            return raises[0]
        for i in range(1, len(sizes)):
            if x <= sizes[i]:
                a, b = sizes[i - 1], sizes[i]
                return raises[i - 1] if self._uniform() < pseudo_harmonic(x, a, b) else raises[i]
        return raises[-1]

    def _replay(self, view: SeatView) -> bool:
        """Row 0 of the abstract game := the hand as ``view`` shows it; whether it is on the tree."""
        sv = self._sv
        events = view.events
        seen = self._seen
        if events[:len(seen)] != seen:        # not the same hand's log grown: another hand
            self._memo = {}
        self._seen = events
        small = view.blinds[0]
        player = {small: 0, 1 - small: 1}
        me = player[view.seat]
        mine: list[int] = []
        for ev in events:
            if ev.kind is EventKind.DEAL_HOLE and ev.seat == view.seat:
                mine = [int(c) for c in ev.cards]
                break
        hole = [int(c) for c in view.hole_cards]
        first = mine if len(mine) == 5 else hole
        rest = [c for c in range(32) if c not in first]
        sv.set_deck(rest[:5 * me] + first + rest[5 * me:])
        effective = min(view.starting_stacks)            # in chips; the abstract game's in 2 chips a big blind
        bb = view.rules.big_blind
        sv.s0 = sv.s1 = max(1, min(self.strategy.abstraction.stack, (2 * effective + bb // 2) // bb))
        sv.start(0)
        bets = [0, 0]
        chips = [0, 0]
        order = list(enumerate(events))
        if view.rules.heads_up_button_posts_small:      # the big blind draws first (R4.3, R6.1): the small blind's
            draws = [j for j, (_i, ev) in enumerate(order) if ev.kind is EventKind.DISCARD]   # draw first here
            if draws and order[draws[0]][1].seat != small:
                moved = order.pop(draws[0])         # until the small blind has drawn, the big blind's draw waits
                if len(draws) > 1:
                    order.insert(draws[1], moved)
        for i, ev in order:
            kind = ev.kind
            if ev.seat is None:
                if kind is EventKind.ROUND_END:
                    bets = [0, 0]
                continue
            seat = ev.seat
            amount = ev.amount or 0
            if kind is EventKind.POST_BLIND or kind is EventKind.CALL:
                bets[seat] += amount
                chips[seat] += amount
            elif kind is EventKind.RETURN_UNCALLED:
                chips[seat] -= amount
            if kind not in _ACTIONS:
                continue
            row = sv.row(0)
            phase = row[mccfr.F_PHASE]
            if phase == mccfr.PH_END or row[mccfr.F_ACTOR] != player[seat]:
                return False
            slots = [s for s in range(16) if sv.legal(0) >> s & 1]
            owes = row[mccfr.F_C1 - row[mccfr.F_ACTOR]] > row[mccfr.F_C0 + row[mccfr.F_ACTOR]]
            if phase == mccfr.PH_DRAW:
                if kind is not EventKind.DISCARD:
                    return False
                slot = len(ev.cards) if ev.cards else amount
            elif kind is EventKind.DISCARD:
                return False
            elif kind is EventKind.FOLD:
                slot = 0 if owes else 1
            elif kind is EventKind.SPLIT:
                slot = 2 if 2 in slots else 1
            elif kind in (EventKind.CHECK, EventKind.CALL):
                slot = 1
            else:                                           # BET, RAISE: to ev.amount
                slot = self._memo.get(i, -1)
                if slot < 0:
                    cur = max(bets)
                    owe = cur - bets[seat]
                    x = (amount - cur) / max(sum(chips) + owe, 1)
                    slot = self._memo[i] = self._raise_slot(slots, x, bool(ev.get("all_in")))
                chips[seat] += amount - bets[seat]
                bets[seat] = amount
            if slot not in slots:
                return False
            sv.child(0, slot)
            sv.set_row(0, sv.row(1))
            if kind is EventKind.FOLD and slot == 1:
                return False
        row = list(sv.row(0))
        if row[mccfr.F_PHASE] == mccfr.PH_END or _PHASES[row[mccfr.F_PHASE]] is not view.phase \
                or row[mccfr.F_ACTOR] != me:
            return False
        row[mccfr.F_H0 + me] = sum(1 << c for c in hole)
        row[mccfr.F_I0 + me] = mccfr.hand_index(row[mccfr.F_H0 + me])
        sv.set_row(0, tuple(row))
        return True

    # -- deciding -------------------------------------------------------------------------------

    def decide(self, view: SeatView | Hand | None = None, *, hand: Hand | None = None) -> Action:
        """The action for ``view.seat`` (see the module's docstring).

        :raises PokerDraw32ValueError: a hand it does not play (:func:`check_rules`).
        """
        view = self._view(view, hand)
        weights, case = self._weights(view)
        self.stats[case] += 1
        slot = -1
        if weights is not None:
            u = self._uniform()
            slot = max(weights, key=weights.__getitem__)
            acc = 0.0
            for s, q in weights.items():
                acc += q
                if u < acc:
                    slot = s
                    break
        return self._real(view, slot)

    def action_probabilities(self, view: SeatView | Hand | None = None, *,
                             hand: Hand | None = None) -> list[tuple[Action, float]]:
        """The exact distribution of :meth:`decide` at ``view``, given the translations of the
        opponent's raises drawn so far (each drawn once per hand, so :meth:`decide` afterwards uses
        the same; see the module's docstring): ``[(action, probability), ...]``, the strategy's
        probabilities of the legal slots made real (slots that become the same action added up); the
        fallback, certain.  It draws what :meth:`decide` would draw before its choice, so calling it
        first leaves :meth:`decide`'s choice as it would have been.

        :raises PokerDraw32ValueError: a hand it does not play (:func:`check_rules`).
        """
        view = self._view(view, hand)
        weights, _case = self._weights(view)
        if weights is None:
            return [(self._real(view, -1), 1.0)]
        # decide draws u uniform in [0, 1) and takes the first slot whose running sum passes it, the
        # likeliest slot if none does (the stored probabilities may sum to a little under 1 or over)
        chance: dict[int, float] = {}
        acc = 0.0
        for s, q in weights.items():
            chance[s] = min(acc + q, 1.0) - min(acc, 1.0)
            acc += q
        top = max(weights, key=weights.__getitem__)
        chance[top] += 1.0 - min(acc, 1.0)
        out: dict[Action, float] = {}
        for s, q in chance.items():
            if q > 0:
                action = self._real(view, s)
                out[action] = out.get(action, 0.0) + q
        return list(out.items())

    def _view(self, view: SeatView | Hand | None, hand: Hand | None) -> SeatView:
        if hand is not None or isinstance(view, Hand):
            h = hand if hand is not None else view
            assert isinstance(h, Hand)
            view = SeatView.of(h)
        if not isinstance(view, SeatView):
            raise PokerDraw32TypeError(f"a bot decides from a SeatView (or a Hand), got {type(view).__name__}")
        check_rules(view.rules, view.players, self.strategy.abstraction.structure)
        return _legal_of(view, None)[0]     # a view of a seat not to act: refused as every bot refuses it

    def _weights(self, view: SeatView) -> tuple[dict[int, float] | None, str]:
        """The strategy's probabilities of the slots legal at ``view`` (in slot order), or None for
        the fallback (off the tree, or an information set the strategy lacks), with the case
        :attr:`stats` counts it as."""
        if not self._replay(view):
            return None, "off_tree"
        sv = self._sv
        slots = [s for s in range(16) if sv.legal(0) >> s & 1]
        found = self.strategy.lookup(sv.key(0))
        if found is not None and found[0] != sv.row(0)[mccfr.F_PHASE]:
            found = None          # the same key names a node of another phase at the trained depth
        if found is None:
            return None, "unseen"
        _phase, trained, probs = found
        mask = sum(1 << s for s in slots)
        return _mapped(trained, probs, slots), "strategy" if trained == mask else "mapped"

    def _real(self, view: SeatView, slot: int) -> Action:
        """Abstract ``slot`` (``-1``: the fallback) as a legal action of ``view``."""
        legal = view.legal
        assert legal is not None
        kinds = legal.kinds
        if legal.phase is Phase.DRAW:
            mask = sum(1 << int(c) for c in legal.hole_cards)
            ruled = self._tables.ruled[mccfr.hand_index(mask)]
            k = bin(ruled).count("1") if slot < 0 else slot
            out = mccfr.draw_discard(mask, min(k, legal.max_discard), ruled)
            return Action.discard(tuple(DECK[c] for c in range(32) if out >> c & 1))
        passive = Action.check() if ActionKind.CHECK in kinds else Action.call()
        if slot == 0 and ActionKind.FOLD in kinds and ActionKind.CHECK not in kinds:
            return Action.fold()
        if slot == 2 and ActionKind.SPLIT in kinds:
            return Action.split()
        raise_kind = ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE
        if slot < 3 or raise_kind not in kinds:
            return passive
        assert legal.min_to is not None and legal.max_to is not None
        sv = self._sv
        row = sv.row(0)
        p = row[mccfr.F_ACTOR]
        cp, co = row[mccfr.F_C0 + p], row[mccfr.F_C1 - p]
        cur_a = max(cp, co) - row[mccfr.F_BASE]
        x = (sv.amount(0, slot) - cur_a) / (cp + co + max(co - cp, 0))
        all_in = slot == max(s for s in range(16) if sv.legal(0) >> s & 1)
        cur = max(view.bets)
        owe = cur - view.bets[view.seat]
        to = legal.max_to if all_in else cur + int(x * (view.pot + owe) + 0.5)
        return Action(raise_kind, min(max(to, legal.min_to), legal.max_to))


def _mapped(trained: int, probs: list[float], slots: list[int]) -> dict[int, float]:
    """The probabilities of an information set trained with the legal slots ``trained`` (a mask) moved
    onto the slots legal now: a raise size that is missing to the nearest raise slot now legal (by
    slot number, the smaller on a tie), or to check/call if none is; a missing fold or split to
    check/call (slot 1, always legal in a betting round)."""
    out = dict.fromkeys(slots, 0.0)
    raises = [s for s in slots if s >= 3]
    for s, q in zip([s for s in range(16) if trained >> s & 1], probs, strict=True):
        if s in out:
            out[s] += q
        elif s >= 3 and raises:
            out[min(raises, key=lambda r: (abs(r - s), r))] += q
        else:
            out[1] += q
    return out


def _rebuilt(strategy: Strategy, state: tuple[int, int, int, int]) -> CfrBot:
    bot = CfrBot(strategy)
    bot.rng.setstate(state)
    return bot

