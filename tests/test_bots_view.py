"""Bots decide from a SeatView: what the seat may know, never the dealer's Hand (issue 11, item 4)."""

from __future__ import annotations

import gc
import io
import json
from pathlib import Path
from types import FunctionType, ModuleType

import pytest

from pokerdraw32 import (
    Action,
    ActionKind,
    Card,
    Event,
    EventKind,
    Hand,
    IllegalActionError,
    LegalActions,
    Phase,
    PokerDraw32TypeError,
    PokerDraw32ValueError,
    Rules,
    parse_cards,
)
from pokerdraw32.bots import BotLike, CallBot, RandomBot, RuleBot, SeatView
from pokerdraw32.simulate import simulate


def test_view_contents_of_a_known_hand() -> None:
    h = Hand(Rules(), [100, 100, 100], 0, seed=1)
    v = SeatView.of(h)
    assert (v.seat, v.players, v.button, v.blinds, v.phase, v.to_act) == (0, 3, 0, (1, 2), Phase.FIRST_ROUND, 0)
    assert v.hole_cards == parse_cards("Kd Ac 9d 7h 9c")
    assert (v.pot, v.stacks, v.bets, v.folded, v.all_in) == (3, (100, 99, 98), (0, 1, 2), (False,) * 3, (False,) * 3)
    assert (v.discarded, v.parole_open, v.starting_stacks) == ((None,) * 3, False, (100, 100, 100))
    assert v.legal == LegalActions(0, Phase.FIRST_ROUND, frozenset({ActionKind.FOLD, ActionKind.CALL,
                                                                    ActionKind.RAISE}), 2, 4, 100, 0, v.hole_cards)
    assert v.rules == Rules()
    assert [(e.kind, e.seat, e.cards) for e in v.events] == [
        (EventKind.POST_BLIND, 1, ()), (EventKind.POST_BLIND, 2, ()), (EventKind.DEAL_HOLE, 1, ()),
        (EventKind.DEAL_HOLE, 2, ()), (EventKind.DEAL_HOLE, 0, v.hole_cards)]
    assert v.round_actions == ()
    other = SeatView.of(h, 2)                       # not its turn: no legal actions, its own cards only
    assert other.seat == 2 and other.legal is None and other.to_act == 0
    assert other.hole_cards == parse_cards("Ad 9s 9h Ks 8c")
    assert other.events[4] == Event(EventKind.DEAL_HOLE, 0, None, (), (("hidden", 5),))
    for a in ("r 6", "c", "f"):
        h.act(a)
    v = SeatView.of(h)
    assert (v.seat, v.phase, v.to_act, v.pot, v.stacks, v.bets) == (1, Phase.DRAW, 1, 14, (94, 94, 98), (0, 0, 0))
    assert v.folded == (False, False, True) and v.hole_cards == parse_cards("Qh Kh Tc 7s 8d")
    assert v.legal is not None and v.legal.kinds == {ActionKind.DISCARD} and v.legal.max_discard == 4
    assert v.round_actions == ()                    # the draw has just begun
    assert [e.kind for e in v.events[5:]] == [EventKind.RAISE, EventKind.CALL, EventKind.FOLD, EventKind.ROUND_END]
    h.act("d 7s 8d")
    v = SeatView.of(h)
    assert (v.seat, v.discarded) == (0, (None, 2, None))
    assert [(e.kind, e.seat, e.cards) for e in v.round_actions] == [(EventKind.DISCARD, 1, ())]
    assert v.events[-1].get("hidden") == 2          # seat 1's replacement cards: only their number
    assert SeatView.of(h, 1).hole_cards != parse_cards("Qh Kh Tc 7s 8d")
    with pytest.raises(IllegalActionError, match="no seat 5"):
        SeatView.of(h, 5)


def test_view_is_read_only_and_has_no_dict() -> None:
    v = SeatView.of(Hand(Rules(), [50, 50], 0, seed=2))
    assert not hasattr(v, "__dict__")
    with pytest.raises(AttributeError):
        v.pot = 5  # type: ignore[misc]
    done = Hand(Rules(), [50, 50], 0, seed=2)
    while not done.is_complete:
        done.act(RuleBot(1).decide(done))
    with pytest.raises(IllegalActionError, match="nobody is to act"):
        SeatView.of(done)
    for bot in (RuleBot(1), RandomBot(1), CallBot(1)):    # decide and its distribution: an error naming it
        for ask in (bot.decide, bot.action_probabilities):
            with pytest.raises(IllegalActionError, match=r"^nobody is to act in this hand \(phase complete\)"):
                ask(done)
            with pytest.raises(IllegalActionError, match=r"^nobody is to act in this hand"):
                ask(SeatView.of(done, 0))
    h = Hand(Rules(), [50, 50], 0, seed=2)
    other = 1 - h.actor                                        # type: ignore[operator]
    with pytest.raises(IllegalActionError, match=rf"^seat {other} is not to act \(seat {h.actor} is\)"):
        RuleBot(1).action_probabilities(SeatView.of(h, other))
    assert SeatView.of(done, 0).phase is Phase.COMPLETE and SeatView.of(done, 0).all_in == (False, False)


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through instance data (types, modules and functions
    are shared code, not what the view holds)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, (type, ModuleType, FunctionType)):
            continue
        seen[id(o)] = o
        todo.extend(gc.get_referents(o))
    return list(seen.values())


def _known_to(h: Hand, seat: int) -> set[int]:
    mine: set[int] = set()
    for e in h.events:
        if e.kind is EventKind.SHOW or (e.seat == seat and e.kind in (EventKind.DEAL_HOLE, EventKind.DEAL_DRAW)):
            mine.update(int(c) for c in e.cards)
    return mine


@pytest.mark.parametrize("players", [2, 3, 5])
def test_view_leaks_nothing(players: int) -> None:
    for seed in range(12):
        h = Hand(Rules.preset("two-blind" if seed % 2 else "classic"), [20 + 9 * s for s in range(players)],
                 seed % players, seed=seed)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        while True:
            secrets = [h, h.events, h.stub, h.muck, h.pile, h.hole, h.rng, *h.hole]
            for seat in range(players):
                v = SeatView.of(h, seat)
                objs = _reachable(v)
                ids = {id(o) for o in objs}
                assert not any(id(s) in ids for s in secrets), (seed, seat)
                cards = {int(o) for o in objs if isinstance(o, Card)}
                assert cards <= _known_to(h, seat), (seed, seat, cards - _known_to(h, seat))
                assert not any(isinstance(o, Hand) for o in objs)
                assert v.events == tuple(h.events_for(seat))
                d = h.view(seat)                    # the same facts as the JSON view of the seat
                assert (v.phase.value, v.button, list(v.blinds), list(v.stacks), list(v.bets), v.pot, v.to_act,
                        list(v.folded), list(v.all_in), list(v.discarded), v.parole_open,
                        [str(c) for c in v.hole_cards], None if v.legal is None else v.legal.to_dict()) == (
                    d["phase"], d["button"], d["blinds"], d["stacks"], d["bets"], d["pot"], d["to_act"],
                    d["folded"], d["all_in"], d["discarded"], d["parole_open"], d["cards"], d["legal"])
            if h.is_complete:
                break
            h.act(bots[h.actor].decide(SeatView.of(h)))   # type: ignore[index]


def test_decisions_from_view_equal_decisions_from_hand() -> None:
    for seed in range(30):
        for cls in (RuleBot, RandomBot):
            h = Hand(Rules.preset("two-blind" if seed % 2 else "classic"), [40, 60, 80, 30][: 2 + seed % 3],
                     seed % 2, seed=seed)
            old = [cls(seed * 7 + s) for s in range(h.n)]
            new = [cls(seed * 7 + s) for s in range(h.n)]
            while not h.is_complete:
                assert h.actor is not None
                a = old[h.actor].decide(h)
                assert new[h.actor].decide(SeatView.of(h)) == a
                assert cls(seed).decide(hand=h) == cls(seed).decide(h)    # the older keyword still works
                h.act(a)


# Table sessions (one chunk each): final_stacks, bought_in, ledger entries, showdowns, Parole splits,
# recorded (both implementations give the same).  A one-chunk session run seeded S plays exactly as
# simulate() did before runs were cut into chunks (428a7c2) seeded chunk_seed(S, 0): these values
# were checked against that code.
RECORDED = [
    (dict(players=5, hands=300, seed=7, bots="mixed"),
     [68366, 89, 278, 15, 252], [2200, 15000, 20200, 13000, 18600], 1845, 279, 20),
    (dict(players=3, hands=300, seed=11, bots="rule", rules=Rules.preset("two-blind")),
     [1347, 21457, 196], [11800, 5200, 6000], 1015, 248, 43),
    (dict(players=4, hands=300, seed=5, bots="random", sit_out=0.3),
     [200, 198, 404, 14998], [6600, 3600, 4200, 1400], 898, 114, 3),
    (dict(players=2, hands=300, seed=2**63 + 9, bots="mixed", rules=Rules.preset("two-blind"), sit_out=0.2),
     [7789, 11], [200, 7600], 639, 99, 24),
]


@pytest.mark.parametrize("case", RECORDED, ids=lambda c: f"{c[0]['players']}-{c[0]['bots']}")
def test_seeded_simulations_unchanged(case: tuple) -> None:  # type: ignore[type-arg]
    kwargs, final, bought, entries, showdowns, parole = case
    r = simulate(mode="session", **kwargs)
    assert (r.final_stacks, r.bought_in, r.ledger_entries, r.showdowns, r.parole_splits) == (
        final, bought, entries, showdowns, parole)


def test_one_session_of_2000_hands_unchanged() -> None:
    r = simulate(players=5, hands=2000, seed=7, mode="session", chunk=2000)
    assert r.final_stacks == [2799, 0, 0, 76, 435125] and r.ledger_entries == 12190
    assert sum(r.bought_in) == 438000 and r.showdowns == 1884 and r.parole_splits == 116


def test_list_of_builtin_names_equals_mixed() -> None:
    a = simulate(players=3, hands=100, seed=3)
    b = simulate(players=3, hands=100, seed=3, bots=["rule", "random", "rule"])
    assert (a.final_stacks, a.names, a.bots) == (b.final_stacks, b.names, b.bots)


class Caller:
    """Calls or checks, never more: a user bot with a decide method, returning text."""

    def decide(self, view: SeatView) -> Action | str:
        legal = view.legal
        assert legal is not None and view.to_act == view.seat
        if legal.phase is Phase.DRAW:
            return Action.stand_pat()
        if ActionKind.SPLIT in legal.kinds and ActionKind.DECLINE in legal.kinds:
            return "decline"
        return "check" if ActionKind.CHECK in legal.kinds else "call"


def test_user_bots_object_and_callable() -> None:
    assert isinstance(Caller(), BotLike) and isinstance(RuleBot(), BotLike)
    seen: list[SeatView] = []

    def folder(view: SeatView) -> Action:
        seen.append(view)
        assert view.legal is not None
        if view.phase is Phase.DRAW:
            return Action.stand_pat()
        if ActionKind.DECLINE in view.legal.kinds:
            return Action.decline()
        return Action.check() if ActionKind.CHECK in view.legal.kinds else Action.fold()

    buf = io.StringIO()
    r = simulate(players=4, hands=60, seed=9, bots=["rule", Caller(), folder, "random"], history=buf,
                 mode="session")
    assert r.bots == ["RuleBot", "Caller", "folder", "RandomBot"]
    assert r.names == ["rule0", "caller1", "folder2", "random3"]
    assert sum(r.final_stacks) == sum(r.bought_in) and seen and all(isinstance(v, SeatView) for v in seen)
    assert all(v.seat == v.to_act for v in seen)
    # the user bots take seeds like built-in ones: the deal does not depend on who sits
    same = simulate(players=4, hands=60, seed=9, bots=["rule", Caller(), folder, "random"], mode="session")
    assert same.final_stacks == r.final_stacks


def test_user_bot_bad_return_and_illegal_action() -> None:
    with pytest.raises(PokerDraw32TypeError, match=r"seat 1 \(bot1\).*returned None"):
        simulate(players=2, hands=5, seed=1, bots=["rule", lambda v: None])  # type: ignore[list-item]

    def raiser(view: SeatView) -> str:
        return "r 100000"

    with pytest.raises(IllegalActionError, match=r"seat \d \(raiser\d\): the bot chose 'r 100000', which is not legal"):
        simulate(players=3, hands=5, seed=1, bots=["rule", raiser, "random"])
    with pytest.raises(IllegalActionError, match=r"seat 1 \(gibberish1\).*'zzz'"):
        def gibberish(view: SeatView) -> str:
            return "zzz"
        simulate(players=2, hands=5, seed=1, bots=["random", gibberish])


def test_bad_bots_arguments() -> None:
    with pytest.raises(PokerDraw32ValueError, match="2 bots for 3 players"):
        simulate(players=3, hands=1, seed=1, bots=["rule", "rule"])
    with pytest.raises(PokerDraw32ValueError, match=r"bots\[1\]='smart'"):
        simulate(players=2, hands=1, seed=1, bots=["rule", "smart"])
    with pytest.raises(PokerDraw32TypeError, match=r"bots\[0\]: int object has no decide"):
        simulate(players=2, hands=1, seed=1, bots=[3, "rule"])  # type: ignore[list-item]
    with pytest.raises(PokerDraw32ValueError, match=r"bots='smart': unknown bot name 'smart': the bots are call, .*"
                                                    r"rule, shove.*; or 'mixed', or a list of one bot per seat"):
        simulate(players=2, hands=1, seed=1, bots="smart")


def test_builtin_decide_refuses_other_objects() -> None:
    with pytest.raises(PokerDraw32TypeError, match="SeatView"):
        RuleBot(1).decide({"seat": 0})  # type: ignore[arg-type]
    h = Hand(Rules(), [50, 50], 0, seed=2)
    with pytest.raises(PokerDraw32TypeError, match="not both"):
        RandomBot(1).decide(SeatView.of(h), hand=h)


def test_illegal_user_action_leaves_the_table_unchanged() -> None:
    from pokerdraw32.simulate._chunk import _act
    from pokerdraw32.table import Table

    t = Table(Rules(), seed=3, min_buy_in=1, clock=lambda: 0.0)
    for s in range(3):
        t.join(s, f"p{s}", 100)
    t.start_hand()
    before = t.snapshot()
    seat = t.actor
    assert seat is not None
    for bad in ("r 100000", "check", Action.discard(parse_cards("7h"))):
        with pytest.raises(IllegalActionError, match=rf"seat {seat} \(mine\): the bot chose"):
            _act(t, seat, "mine", bad, True)
        assert t.snapshot() == before
    _act(t, seat, "mine", "call", True)
    assert t.snapshot() != before


def test_cli_bots_list_and_import_specs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pokerdraw32.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()

    base = ["simulate", "--players", "3", "--hands", "40", "--seed", "5", "--json", "--no-progress"]
    code, mixed, _ = run(*base)
    assert code == 0
    code, listed, _ = run(*base, "--bots", "pokerdraw32.bots:RuleBot,random,rule")
    assert code == 0
    chips = [[b["chips"] for b in json.loads(text)["bots"]] for text in (listed, mixed)]
    assert chips[0] == chips[1] and sum(chips[0]) == 0
    (tmp_path / "mybots_botview.py").write_text(
        "from pokerdraw32 import Action, ActionKind, Phase\n"
        "class Passive:\n"
        "    def decide(self, view):\n"
        "        legal = view.legal\n"
        "        if view.phase is Phase.DRAW:\n"
        "            return Action.stand_pat()\n"
        "        if ActionKind.DECLINE in legal.kinds:\n"
        "            return 'decline'\n"
        "        return 'check' if ActionKind.CHECK in legal.kinds else 'call'\n"
        "def folder(view):\n"
        "    return Passive().decide(view) if view.phase is Phase.DRAW or 'check' in view.legal else 'fold'\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, _ = run(*base, "--bots", "mybots_botview:Passive,mybots_botview:folder,rule")
    assert code == 0, out
    d = json.loads(out)
    assert [b["label"] for b in d["bots"]] == ["Passive", "folder", "RuleBot"]
    assert sum(b["chips"] for b in d["bots"]) == 0 and d["hands_played"] == 40
    for bad in ("rule,random", "nosuchmodule_botview:X,rule,rule", "mybots_botview:Nope,rule,rule", "smart"):
        code, _, err = run(*base, "--bots", bad)
        assert code == 2 and "--bots" in err, (bad, err)
