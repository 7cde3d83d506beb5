"""Write the pickles that tests/test_layout.py loads: public objects of every kind a user keeps
(cards, ranks, generators, rules, hands, events, results, bots, a table, a simulation, odds, the
blueprint bot, an error), each beside what it must equal once loaded.

The files here were made with the package as it was before its folders followed the layers (issue
40; main at 931fe1f), in both builds:

    python tests/data/pickles/make_pickles.py tests/data/pickles/compiled.pickle
    POKERDRAW32_NO_EXTENSIONS=1 python tests/data/pickles/make_pickles.py tests/data/pickles/pure.pickle

It uses the public API only, so it runs with any version; the committed files must not be remade,
or they would stop proving that pickles made before a move still load.
"""

from __future__ import annotations

import json
import pickle
import sys

import pokerdraw32 as pd
from pokerdraw32 import bots
from pokerdraw32.cfr.blueprint import blueprint_bot
from pokerdraw32.odds import draw_odds
from pokerdraw32.simulate import simulate


def decisions(bot: object) -> list[str]:
    """What ``bot`` decides at each decision of three seeded hands (every seat played by it)."""
    out = []
    for seed in (1, 2, 3):
        hand = pd.Hand(pd.Rules(), [100, 100], button=0, seed=seed)
        while hand.actor is not None:
            action = bot.decide(hand=hand)   # type: ignore[attr-defined]
            out.append(str(action))
            hand.act(action)
    return out


def main(out: str) -> None:
    objects: dict[str, object] = {}
    expected: dict[str, object] = {"implementation": pd.IMPLEMENTATION, "version": pd.__version__}
    objects["card"] = pd.parse_card("Ah")
    objects["cards"] = pd.parse_cards("7s 8c 9d Th Jh")
    objects["hand_rank"] = pd.evaluate("Ah Kd 7c 8s 9h")
    rng = pd.Rng(7)
    rng.next_u64()
    objects["rng"] = rng
    expected["rng"] = [pickle.loads(pickle.dumps(rng)).next_u64() for _ in range(1)] + [rng.next_u64()]
    objects["rules"] = pd.Rules(structure=pd.Structure.FIXED_LIMIT)
    hand = pd.Hand(pd.Rules(), [100, 100, 100], button=0, seed=11)
    objects["legal"] = hand.legal_actions()
    objects["hand_start"] = hand.clone()
    expected["hand_start"] = json.dumps(hand.snapshot(), sort_keys=True)
    players = [bots.RuleBot(seed=s) for s in (1, 2, 3)]
    while hand.actor is not None:
        hand.act(players[hand.actor].decide(hand=hand))
    objects["hand_done"] = hand
    expected["hand_done"] = json.dumps(hand.snapshot(), sort_keys=True)
    objects["events"] = list(hand.events)
    expected["events"] = [str(e) for e in hand.events]
    objects["result"] = hand.result
    expected["result"] = [list(hand.result.stacks), hand.result.pot if hasattr(hand.result, "pot") else None]
    lineup = [bots.RuleBot(seed=5), bots.RandomBot(seed=6), bots.CallBot(), bots.FoldBot(), bots.ShoveBot(),
              bots.PotBot()]
    objects["bots"] = lineup
    expected["bots"] = [decisions(pickle.loads(pickle.dumps(b))) for b in lineup]
    result = simulate(players=3, hands=200, seed=3, workers=1)
    objects["simulation"] = result
    expected["simulation"] = [result.net, result.hands_played, [c.hands for c in result.chunks]]
    table = pd.Table(pd.Rules(), seed=4)
    for seat, name in [(0, "ann"), (1, "bob"), (2, "cy")]:
        table.join(seat, name, 100)
    table.start_hand()
    table.act(table.hand_seats[table.actor], "c")
    objects["table"] = table
    expected["table"] = json.dumps(table.snapshot(), sort_keys=True)
    objects["odds"] = draw_odds("7s 8c 9d Th Jh")
    cfr = blueprint_bot(9)
    objects["cfr"] = cfr
    expected["cfr"] = decisions(pickle.loads(pickle.dumps(cfr)))
    objects["error"] = pd.IllegalActionError("seat 0: no such action [R3.4]")
    data = {"objects": {k: pickle.dumps(v, protocol=4) for k, v in objects.items()}, "expected": expected}
    with open(out, "wb") as f:
        pickle.dump(data, f, protocol=4)


if __name__ == "__main__":
    main(sys.argv[1])
