"""The registry of bot names (issue 26): :func:`~pokerdraw32.bots.bot_names`,
:func:`~pokerdraw32.bots.make_bot`, :func:`~pokerdraw32.bots.register_bot`, the entry points of the
group ``"pokerdraw32.bots"`` (loaded only when their name is asked for), and every interface that
takes a bot name: ``simulate(bots=...)``, ``pokerdraw32 simulate --bots`` and ``pokerdraw32 play
--bots/--opponent``, a server table's bots, ``DrawEnv(opponents=...)``, the vector environments.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.metadata
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerdraw32 import PokerDraw32TypeError, PokerDraw32ValueError, Rules
from pokerdraw32 import bots as bots_module
from pokerdraw32.bots import (
    ENTRY_POINT_GROUP,
    Bot,
    CallBot,
    PotBot,
    RandomBot,
    RuleBot,
    SeatView,
    ShoveBot,
    bot_factory,
    bot_names,
    check_fit,
    make_bot,
    register_bot,
)
from pokerdraw32.cli import main
from pokerdraw32.simulate import simulate
from pokerdraw32.simulate._chunk import Named

ENGINE = ("call", "fold", "maniac", "random", "rule", "shove")

MODULE = '''
from pokerdraw32.bots import Bot, CallBot
LOADS = []
LOADS.append(1)             # one entry each time the module is imported
class Echo(CallBot):
    """A third party's bot: calls like CallBot."""
def make(seed=None):
    return Echo(seed)
def not_a_bot(seed=None):
    return object()
NOT_CALLABLE = 3
'''


@pytest.fixture
def third_party(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A module ``regbots_thirdparty`` on the path and fake installed entry points: ``echo`` (its
    factory), ``broken`` (a missing module), ``notbot`` (makes an object), ``notcallable``,
    ``Bad Name`` (not a name), ``twice`` (declared differently by two packages); the registry's
    state is restored after the test."""
    (tmp_path / "regbots_thirdparty.py").write_text(MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("regbots_thirdparty", None)
    declared = {"echo": "regbots_thirdparty:make", "broken": "regbots_nosuchmodule:make",
                "notbot": "regbots_thirdparty:not_a_bot", "notcallable": "regbots_thirdparty:NOT_CALLABLE",
                "Bad Name": "regbots_thirdparty:make"}
    real = importlib.metadata.entry_points

    def entry_points(**selection: Any) -> Any:
        points = [importlib.metadata.EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in declared.items()]
        points += [importlib.metadata.EntryPoint("twice", v, ENTRY_POINT_GROUP) for v in ("a:f", "b:f")]
        if selection.get("group") == ENTRY_POINT_GROUP:
            return [p for p in points if all(getattr(p, k) == v for k, v in selection.items())]
        return real(**selection)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(bots_module, "_REGISTERED", dict(bots_module._REGISTERED))
    monkeypatch.setattr(bots_module, "_LOADED", {})
    yield declared
    sys.modules.pop("regbots_thirdparty", None)


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots_module, "_REGISTERED", dict(bots_module._REGISTERED))
    monkeypatch.setattr(bots_module, "_LOADED", dict(bots_module._LOADED))


# -- the registry -------------------------------------------------------------------------------

def test_the_names_are_listed_sorted_with_the_installed_cfr() -> None:
    names = bot_names()
    assert isinstance(names, tuple) and list(names) == sorted(names)
    assert set(ENGINE) | {"cfr"} <= set(names)
    for name, cls in zip(ENGINE, ("CallBot", "FoldBot", "PotBot", "RandomBot", "RuleBot", "ShoveBot"), strict=True):
        bot = make_bot(name, 3)
        assert type(bot).__name__ == cls and isinstance(bot, Bot)


def test_the_rule_and_random_names_are_the_compiled_bots_seeded() -> None:
    """make_bot(name, seed) is the class with that seed: the same decisions."""
    from pokerdraw32 import Hand

    h = Hand(Rules(), [200, 200, 200], button=0, seed=4)
    view = SeatView.of(h)
    assert make_bot("rule", 9).decide(view) == RuleBot(9).decide(view)
    assert make_bot("random", 9).decide(view) == RandomBot(9).decide(view)


def test_an_unknown_name_is_refused_listing_the_names() -> None:
    with pytest.raises(PokerDraw32ValueError) as info:
        make_bot("nobody")
    assert str(info.value) == f"unknown bot name 'nobody': the bots are {', '.join(bot_names())}"
    assert "call, cfr, fold, maniac, random, rule, shove" in str(info.value)
    with pytest.raises(PokerDraw32ValueError, match="unknown bot name 'mixed'"):
        make_bot("mixed")                   # simulate's line-up, not a bot
    with pytest.raises(PokerDraw32TypeError, match="a bot name is a string, got int: 3"):
        make_bot(3)  # type: ignore[arg-type]


def test_cfr_is_declared_as_an_entry_point_and_plays_the_blueprint() -> None:
    """pyproject.toml declares cfr = pokerdraw32.cfr.blueprint:blueprint_bot (the heads-up
    blueprint): the name makes a CfrBot playing the packaged strategy, every action legal."""
    from pokerdraw32 import Hand
    from pokerdraw32.cfr import CfrBot
    from pokerdraw32.cfr.blueprint import blueprint_strategy

    (point,) = bots_module._entry_points()["cfr"]
    assert point.value == "pokerdraw32.cfr.blueprint:blueprint_bot" and point.group == ENTRY_POINT_GROUP
    bot = make_bot("cfr", 1)
    assert isinstance(bot, CfrBot) and bot.strategy is blueprint_strategy()
    h = Hand(Rules(), [200, 200], button=0, seed=1)
    while not h.is_complete:
        h.act(bot.decide(SeatView.of(h)))         # heads-up: every action legal
    assert sum(h.stacks) == 400


def test_an_entry_point_is_listed_without_loading_and_loaded_once(third_party: dict[str, str]) -> None:
    names = bot_names()
    assert {"echo", "broken", "notbot", "notcallable", "twice"} <= set(names) and "Bad Name" not in names
    assert "regbots_thirdparty" not in sys.modules          # listed, not imported
    bot = make_bot("echo", 5)
    module = sys.modules["regbots_thirdparty"]
    assert type(bot).__name__ == "Echo" and isinstance(bot, CallBot) and module.LOADS == [1]
    assert bot_factory("echo") is module.make
    make_bot("echo")
    assert module.LOADS == [1]                              # the factory is kept: one import
    with pytest.raises(PokerDraw32ValueError, match="unknown bot name 'Bad Name'"):
        make_bot("Bad Name")                                # not a bot name: never loaded


def test_a_bad_entry_point_says_what_and_why(third_party: dict[str, str]) -> None:
    with pytest.raises(PokerDraw32ValueError) as info:
        make_bot("broken")
    assert str(info.value) == ("bot 'broken' cannot be loaded: entry point broken = 'regbots_nosuchmodule:make' "
                               "(group 'pokerdraw32.bots'): ModuleNotFoundError: No module named "
                               "'regbots_nosuchmodule'")
    with pytest.raises(PokerDraw32TypeError, match=r"bot 'notcallable': entry point notcallable = "
                                                   r"'regbots_thirdparty:NOT_CALLABLE' .* is a int, not a factory"):
        make_bot("notcallable")
    with pytest.raises(PokerDraw32TypeError, match=r"bot 'notbot': its factory not_a_bot made a object, not a "
                                                   r"pokerdraw32\.bots\.Bot"):
        make_bot("notbot")
    with pytest.raises(PokerDraw32ValueError, match="bot name 'twice' is declared by several installed packages, "
                                                    "as a:f and b:f"):
        make_bot("twice")
    assert "broken" not in bots_module._LOADED              # a failure is not kept: asked again, tried again


def test_register_bot(fresh_registry: None) -> None:
    register_bot("passive-2", CallBot)
    assert "passive-2" in bot_names() and type(make_bot("passive-2", 1)) is CallBot
    for taken in ("rule", "passive-2", "cfr"):
        with pytest.raises(PokerDraw32ValueError) as info:
            register_bot(taken, CallBot)
        assert str(info.value) == f"bot name {taken!r} is taken: the bots are {', '.join(bot_names())}"
    for bad in ("", "Rule", "mixed", "a:b", "a,b", "9lives", "x" * 33, "with space", 3):
        with pytest.raises(PokerDraw32ValueError, match="a name is 1 to 32 lower-case letters, digits, '_' or '-', "
                                                        "starting with a letter, and not 'mixed'"):
            register_bot(bad, CallBot)  # type: ignore[arg-type]
    with pytest.raises(PokerDraw32TypeError, match="bot 'nope': the factory must be callable"):
        register_bot("nope", 3)  # type: ignore[arg-type]
    assert "nope" not in bot_names()
    register_bot("lambda-bot", lambda seed: object())  # type: ignore[arg-type,return-value]
    with pytest.raises(PokerDraw32TypeError, match=r"bot 'lambda-bot': its factory .*<lambda> made a object"):
        make_bot("lambda-bot")


# -- simulate -----------------------------------------------------------------------------------

def test_simulate_takes_every_name(fresh_registry: None) -> None:
    """A name alone sits at every seat; in a list, each seat's; a name plays exactly as its class."""
    by_name = simulate(players=3, hands=300, seed=2, bots=["call", "maniac", "rule"])
    by_class = simulate(players=3, hands=300, seed=2, bots=[CallBot, PotBot, "rule"])
    assert [b.chips for b in by_name.per_bot] == [b.chips for b in by_class.per_bot]
    assert sum(b.chips for b in by_name.per_bot) == 0
    assert by_name.bots == ["CallBot", "PotBot", "RuleBot"] and by_name.names == ["call0", "maniac1", "rule2"]
    r = simulate(players=4, hands=100, seed=2, bots="shove")
    assert r.names == ["shove0", "shove1", "shove2", "shove3"] and sum(r.net) == 0
    register_bot("my-echo", ShoveBot)
    r = simulate(players=2, hands=100, seed=2, bots=["my-echo", "rule"])
    assert r.names == ["my_echo0", "rule1"] and r.bots == ["ShoveBot", "RuleBot"]
    with pytest.raises(PokerDraw32ValueError) as info:
        simulate(players=2, hands=1, bots=["rule", "nobody"])
    assert str(info.value) == (f"bots[1]='nobody': unknown bot name 'nobody': the bots are {', '.join(bot_names())}; "
                               "or a bot object, a callable or a class")


def test_simulate_keeps_rule_and_random_compiled_and_loads_the_others_once(fresh_registry: None) -> None:
    from pokerdraw32.simulate import _lineup

    specs = _lineup(["rule", "random", "call"], 3)
    assert specs[:2] == ["rule", "random"] and specs[2] == Named("call", CallBot)
    assert _lineup("mixed", 3) == ["rule", "random", "rule"]
    pytest.importorskip("numpy")                  # the AIVAT estimator needs it (extra [aivat])
    from pokerdraw32.aivat import known_policy

    assert known_policy(specs[2]) is None and known_policy(specs[0]) is None   # names, not bots: none assumed
    bot = specs[2].make(1)
    assert known_policy(bot) == bot.action_probabilities          # a bot made from the name exposes its own


def test_simulate_in_worker_processes_with_registered_and_installed_names(third_party: dict[str, str]) -> None:
    """Worker processes get a named bot's factory by pickle: an installed entry point and a name
    registered in this process only play there exactly as here; an unpicklable factory is refused."""
    import regbots_thirdparty  # type: ignore[import-not-found]

    register_bot("echo2", regbots_thirdparty.make)
    args: dict[str, Any] = {"players": 3, "hands": 600, "seed": 8, "chunk": 200, "bots": ["echo", "echo2", "maniac"]}
    here = simulate(**args)
    there = simulate(**args, workers=2)
    assert there.executor == "processes"
    assert [b.chips for b in here.per_bot] == [b.chips for b in there.per_bot]
    assert here.bots == ["echo", "echo2", "PotBot"]
    register_bot("lam", lambda seed: CallBot(seed))
    with pytest.raises(PokerDraw32TypeError, match=r"bots\[0\]: bot 'lam' \(its factory .*<lambda>'\) cannot be "
                                                   "sent to worker processes"):
        simulate(**{**args, "bots": ["lam", "rule", "rule"]}, workers=2)
    with pytest.raises(PokerDraw32ValueError, match=r"bots\[1\]='broken': bot 'broken' cannot be loaded: "):
        simulate(players=2, hands=1, bots=["rule", "broken"])


def test_simulate_aivat_with_named_bots() -> None:
    pytest.importorskip("numpy")
    r = simulate(players=2, hands=200, seed=3, bots=["call", "rule"], estimator="aivat", samples=8)
    assert r.estimator == "aivat" and sum(b.chips for b in r.per_bot) == 0


# -- the command line ---------------------------------------------------------------------------

def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_cli_simulate_bots_names() -> None:
    base = ["simulate", "--hands", "60", "--seed", "5", "--json", "--no-progress"]
    code, out, _ = run(*base, "--players", "3", "--bots", "call,maniac,rule")
    assert code == 0
    d = json.loads(out)
    assert [b["label"] for b in d["bots"]] == ["CallBot", "PotBot", "RuleBot"]
    assert [b["name"] for b in d["bots"]] == ["call0", "maniac1", "rule2"] and sum(b["chips"] for b in d["bots"]) == 0
    code, out, _ = run(*base, "--players", "2", "--bots", "fold")
    assert code == 0 and [b["label"] for b in json.loads(out)["bots"]] == ["FoldBot", "FoldBot"]
    code, _, err = run(*base, "--players", "2", "--bots", "nobody")
    assert code == 2 and f"argument --bots: unknown bot name 'nobody': the bots are {', '.join(bot_names())}" in err
    code, _, err = run(*base, "--players", "2", "--bots", "rule,nobody")
    assert code == 2 and "unknown bot name 'nobody'" in err


def test_cli_play_opponent_is_heads_up_against_that_bot() -> None:
    code, out, _ = run("play", "--opponent", "maniac", "--seed", "1", "--hands", "1", stdin="q\n")
    assert code == 0 and "stacks [200, 200]" in out and "seat 1: raise to 6" in out     # the pot-size raise
    code, out, _ = run("play", "--bots", "call", "--players", "4", "--seed", "1", "--hands", "1", stdin="f\nq\n")
    assert code == 0 and "stacks [200, 200, 200, 200]" in out
    code, _, err = run("play", "--opponent", "call", "--players", "3")
    assert code == 2 and "argument --opponent: heads-up, against one bot: not with --players 3" in err
    code, _, err = run("play", "--opponent", "call", "--bots", "rule")
    assert code == 2 and "argument --opponent: not with --bots" in err
    code, _, err = run("play", "--opponent", "nobody")
    assert code == 2 and "argument --opponent: unknown bot name 'nobody'" in err
    code, _, err = run("play", "--bots", "mixed")
    assert code == 2 and "argument --bots: unknown bot name 'mixed'" in err


def test_cli_a_bot_that_cannot_load_is_an_error_naming_it(third_party: dict[str, str]) -> None:
    code, _, err = run("play", "--opponent", "broken", "--seed", "1")
    assert code == 1 and "pokerdraw32 play: error: bot 'broken' cannot be loaded" in err
    code, _, err = run("simulate", "--players", "2", "--bots", "broken,rule", "--hands", "10", "--no-progress")
    assert code == 1 and "bots[0]='broken': bot 'broken' cannot be loaded" in err


# -- the research interfaces --------------------------------------------------------------------

def test_draw_env_opponents_by_name() -> None:
    pytest.importorskip("gymnasium")
    from pokerdraw32.env import DrawEnv

    env = DrawEnv(players=3, opponents=["maniac", "call"])
    obs, _ = env.reset(seed=4)
    again = DrawEnv(players=3, opponents=["maniac", "call"])
    obs2, _ = again.reset(seed=4)
    assert (obs == obs2).all()
    for e in (env, again):
        done = False
        while not done:
            _, _, done, _, _ = e.step(int(e.action_masks().argmax()))
    assert env.hand is not None and again.hand is not None and env.hand.stacks == again.hand.stacks
    assert sum(env.hand.stacks) == 3 * env.stack
    with pytest.raises(PokerDraw32ValueError) as info_error:
        DrawEnv(players=2, opponents="nobody")
    assert str(info_error.value) == (f"opponent 'nobody': unknown bot name 'nobody': the bots are "
                                     f"{', '.join(bot_names())}; or a callable SeatView -> action")
    with pytest.raises(PokerDraw32ValueError, match="opponent 3: use a bot name"):
        DrawEnv(players=2, opponents=[3])  # type: ignore[list-item]


def _random_legal(mask: Any, rng: Any) -> Any:
    import numpy as np

    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_python_tables_equal_the_compiled_core(mode: str) -> None:
    """PythonTables (the vector environment's core for other bots) given rule and random opponents
    plays exactly what the compiled core plays: observations, masks, rewards, terminations,
    no-decision flags, final observations and the decisions counted."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from pokerdraw32.env import DrawEnv, DrawVectorEnv
    from pokerdraw32.env._tables import PythonTables

    for structure, players in (("pot-limit", 3), ("no-limit", 2), ("fixed-limit", 5)):
        compiled = DrawVectorEnv(5, players=players, opponents=(["rule", "random"] * 2)[:players - 1],
                                 autoreset_mode=mode, structure=structure)
        python = DrawVectorEnv(5, players=players, opponents=compiled.opponents, autoreset_mode=mode,
                               structure=structure)
        python._core = PythonTables(5, lambda n=players, e=compiled: DrawEnv(n, e.opponents, 0, rules=e.rules))
        a, ia = compiled.reset(seed=11)
        b, ib = python.reset(seed=11)
        assert (a == b).all() and (ia["action_mask"] == ib["action_mask"]).all()
        rng = np.random.default_rng(0)
        for _ in range(150):
            actions = _random_legal(ia["action_mask"], rng)
            ra, rb = compiled.step(actions), python.step(actions)
            for x, y in zip(ra[:4], rb[:4], strict=True):
                assert (x == y).all()
            for key in ("action_mask", "no_decision", "_final_obs"):
                if key in ra[4]:
                    assert (ra[4][key] == rb[4][key]).all()
            if "final_obs" in ra[4]:
                assert all((x is None and y is None) or (x == y).all()
                           for x, y in zip(ra[4]["final_obs"], rb[4]["final_obs"], strict=True))
            ia = ra[4]
        assert compiled.decisions == python.decisions > 0
        assert [h.stacks for h in compiled.hands] == [h.stacks for h in python.hands]


def test_vector_env_opponents_by_name_are_the_draw_env_tables() -> None:
    """DrawVectorEnv(opponents="shove"): table i is DrawEnv reset with seed + i; an illegal action is
    refused naming the table, nothing moved; an unknown name lists the names."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from pokerdraw32 import IllegalActionError
    from pokerdraw32.env import DrawEnv, DrawVectorEnv

    envs = DrawVectorEnv(3, players=2, opponents="shove", structure="pot-limit")
    obs, info = envs.reset(seed=20)
    for i in range(3):
        single = DrawEnv(2, "shove", structure="pot-limit")
        o, inf = single.reset(seed=20 + i)
        assert (obs[i] == o).all() and (info["action_mask"][i] == inf["action_mask"]).all()
    bad = np.flatnonzero(~info["action_mask"][1])[0]
    actions = info["action_mask"].argmax(axis=1)
    actions[1] = bad
    before = [h.stacks for h in envs.hands]
    with pytest.raises(IllegalActionError, match="table 1"):
        envs.step(actions)
    assert [h.stacks for h in envs.hands] == before
    with pytest.raises(PokerDraw32ValueError) as error:
        DrawVectorEnv(2, players=2, opponents="nobody")
    assert str(error.value) == f"opponent 'nobody': unknown bot name 'nobody': the bots are {', '.join(bot_names())}"
    with pytest.raises(PokerDraw32ValueError, match=r"opponent .*: use a bot name"):
        DrawVectorEnv(2, players=2, opponents=[print])  # type: ignore[list-item]


def test_maskable_vec_env_with_named_opponents() -> None:
    pytest.importorskip("stable_baselines3")
    from pokerdraw32.env._tables import PythonTables
    from pokerdraw32.env.sb3 import MaskableDrawVecEnv

    envs = MaskableDrawVecEnv(4, players=2, opponents="maniac", seed=3)
    assert isinstance(envs.vector_env._core, PythonTables)
    obs = envs.reset()
    assert obs.shape == (4, 171)
    ended = 0
    for _ in range(60):
        obs, _, dones, _ = envs.step(envs.action_masks().argmax(axis=1))
        ended += int(dones.sum())
    assert envs.action_masks().shape == (4, 39) and ended > 0


# -- the server ---------------------------------------------------------------------------------

def test_server_tables_take_bot_names(third_party: dict[str, str]) -> None:
    pytest.importorskip("websockets")
    from pokerdraw32.server.config import TableConfig

    config = TableConfig.from_dict({"id": "t", "seats": 3, "bots": {"1": "maniac", "2": "echo"}})
    assert config.bots == ((1, "maniac"), (2, "echo"))
    with pytest.raises(ValueError) as info:
        TableConfig.from_dict({"id": "t", "bots": {"1": "nobody"}})
    assert str(info.value) == f"table t: bots: seat 1: unknown bot name 'nobody': the bots are {', '.join(bot_names())}"
    with pytest.raises(ValueError, match="table t: bots: seat 1: bot 'broken' cannot be loaded"):
        TableConfig.from_dict({"id": "t", "bots": {"1": "broken"}})
    with pytest.raises(ValueError, match="table t: bots maps a seat number to a bot name"):
        TableConfig.from_dict({"id": "t", "bots": {"1": 3}})


class _Refuses(Bot):
    def decide(self, view: Any = None, *, hand: Any = None) -> Any:
        raise PokerDraw32ValueError("this bot plays heads-up only")


def test_server_room_seats_named_bots_and_a_failing_bot_times_out(tmp_path: Path, fresh_registry: None,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    """A table of bots by name plays hands (chips conserved, R9.5); a bot whose decide raises times
    out (a check or fold, R7.3; standing pat, R6.3) instead of stalling the table."""
    pytest.importorskip("websockets")
    from pokerdraw32.server.config import ServerSettings, TableConfig
    from pokerdraw32.server.room import Room
    from pokerdraw32.server.store import open_store

    register_bot("refuses", _Refuses)
    config = TableConfig.from_dict({"id": "b", "seats": 3, "seed": 5,
                                    "bots": {"0": "shove", "1": "call", "2": "refuses"}})
    store = open_store(str(tmp_path / "db.sqlite"))
    settings = ServerSettings(hand_pause=0.0, bot_delay=0.0)

    async def play() -> Room:
        room = await Room.create(config, store, settings)
        for _ in range(2000):
            await room._step()
            if room.table.hand_count >= 4 and not room._hand_running():
                break
        return room

    try:
        room = asyncio.run(play())
    finally:
        store.close()
    t = room.table
    assert t.hand_count >= 4 and [type(room.players[s].brain) for s in range(3)] == [ShoveBot, CallBot, _Refuses]
    assert sum(t.seat(s).stack for s in range(3)) == sum(e.chips for e in t.ledger if e.kind in ("buy_in", "add"))
    assert "the bot at seat 2 (refuses) failed to decide: it times out" in caplog.text


def test_a_bot_that_refuses_the_table_is_refused_before_any_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """check_fit asks a bot's check_rules hook (the heads-up, no-limit/pot-limit blueprint "cfr")
    when the line-up is built: simulate, pokerdraw32 play and the environments fail before a hand."""
    from pokerdraw32.cfr import CfrBot
    from pokerdraw32.cfr.blueprint import blueprint_bot
    from pokerdraw32.rules import Structure

    check_fit(bot_factory("rule"), Rules(), 5)                  # no hook: plays anything
    check_fit(blueprint_bot, Rules(), 2)
    fixed = Rules(structure=Structure.FIXED_LIMIT)
    heads_up = "CfrBot plays heads-up only: this hand has 3 players"
    for target in (blueprint_bot, CfrBot, blueprint_bot(1)):
        with pytest.raises(PokerDraw32ValueError, match=heads_up):
            check_fit(target, Rules(), 3)
    check_fit(blueprint_bot, fixed, 2)                          # the fixed-limit blueprint plays it
    check_fit(blueprint_bot(1), fixed, 2)
    with pytest.raises(PokerDraw32ValueError, match=r"does not play fixed-limit \(R3\.4\)"):
        check_fit(CfrBot, fixed, 2)                             # a CfrBot of a no-limit strategy does not
    with pytest.raises(PokerDraw32ValueError, match=r"bots\[0\] \(cfr\): " + heads_up):
        simulate(players=3, hands=10, seed=1, bots=["cfr", "rule", "rule"])
    strategy = blueprint_bot(2).strategy
    with pytest.raises(PokerDraw32ValueError, match=r"bots\[1\] \(CfrBot\): CfrBot does not play fixed-limit"):
        simulate(players=2, hands=10, seed=1, rules=fixed, bots=["rule", CfrBot(strategy)])
    capsys.readouterr()
    assert main(["play", "--bots", "cfr", "--players", "3", "--seed", "1"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and heads_up in err                         # nothing printed before the refusal
    pytest.importorskip("gymnasium")
    from pokerdraw32.env import DrawEnv, DrawVectorEnv

    with pytest.raises(PokerDraw32ValueError, match="opponent 'cfr': " + heads_up + r"[^;]*$"):
        DrawEnv(players=3, opponents="cfr")
    with pytest.raises(PokerDraw32ValueError, match="opponent 'cfr': " + heads_up):
        DrawVectorEnv(2, players=3, opponents="cfr")
