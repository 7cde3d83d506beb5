"""PHH hand histories (pokerdraw32.history, pokerdraw32.phh): the position mapping (R4.3, R5.1),
rules <-> fields, round trips engine -> PHH -> engine for thousands of hands in every structure
and preset, the golden files of RULES.md examples, and malformed files.
"""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest
from phh_scenarios import DATA, GOLDEN, golden_text

from pokerdraw32 import (
    Action,
    ActionKind,
    EventKind,
    Hand,
    HandHistory,
    HistoryError,
    HistoryWriter,
    Phase,
    Rules,
)
from pokerdraw32.bots import RandomBot, RuleBot
from pokerdraw32.history import dumps_all, load_all, loads_all
from pokerdraw32.phh import position_seats, rules_fields, seats_button
from pokerdraw32.simulate import simulate

BAD = DATA / "bad"


def by_position(h: Hand) -> list[int]:
    assert h.result is not None
    return [h.result.stacks[s] for s in position_seats(h.n, h.button)]


def assert_round_trip(hands: list[Hand]) -> None:
    """Write the hands as one .phhs text, read it back, replay every hand: same fields after the
    TOML round trip, identical events, identical stacks, finishing_stacks by position."""
    histories = [HandHistory.from_hand(h, number=i) for i, h in enumerate(hands, 1)]
    read = list(loads_all(dumps_all(histories), source="round-trip.phhs"))
    assert read == histories
    for h, hh in zip(hands, read, strict=True):
        again = hh.replay()
        assert again.events == h.events, hh.number
        assert again.result == h.result
        assert list(hh.finishing_stacks or ()) == by_position(h)


# ------------------------------------------------------------------------------ positions
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_positions_start_left_of_the_button_and_end_on_it(n):
    """R5.1: p1 is the first player dealt a card (left of the button), pn the button."""
    for button in range(n):
        seats = position_seats(n, button)
        assert seats[-1] == button and seats[0] == (button + 1) % n
        assert sorted(seats) == list(range(n))
        assert seats_button(tuple(s + 1 for s in seats), n) == button       # the seats field gives it back
        h = Hand(Rules(), [40] * n, button, seed=n)
        dealt = [e.seat for e in h.events if e.kind is EventKind.DEAL_HOLE]
        assert dealt == list(seats)


def test_seats_field_any_numbers_clockwise():
    assert seats_button((9, 2, 5), 3) == 1          # ranks (2, 0, 1): the button is engine seat 1
    assert seats_button(None, 5) == 4
    with pytest.raises(ValueError, match=r"clockwise.*\[R4\.1\]"):
        seats_button((1, 3, 2), 3)


@pytest.mark.parametrize("button_small, blinds", [(False, [1, 2]), (True, [2, 1])])
def test_heads_up_p1_is_the_non_dealer(button_small, blinds):
    """R4.3: heads-up p1 is the non-dealer, p2 the button; the non-dealer posts the small blind,
    or the big one with option heads_up_button_posts_small ([bb, sb], as phh-std writes it)."""
    rules = Rules(heads_up_button_posts_small=button_small)
    for button in (0, 1):
        h = Hand(rules, [50, 50], button, seed=3)
        _ = h.fold()
        hh = HandHistory.from_hand(h)
        doc = hh.to_document()
        assert doc["blinds_or_straddles"] == blinds
        assert hh.engine_seats() == (1 - button, button)
        posted = {e.seat: e.amount for e in h.events if e.kind is EventKind.POST_BLIND}
        assert [posted[s] for s in hh.engine_seats()] == blinds
        again = HandHistory.from_document({k: v for k, v in doc.items() if k != "seats"}).replay()
        assert by_position(again) == by_position(h)         # without seats: p1 = seat 0


def test_without_seats_the_engine_seat_is_the_position_index():
    h = Hand(Rules(), [30, 40, 50, 60], 1, seed=9)
    while not h.is_complete:
        _ = h.fold() if h.phase is Phase.FIRST_ROUND else h.check()
    doc = HandHistory.from_hand(h).to_document()
    del doc["seats"]
    again = HandHistory.from_document(doc).replay()
    assert again.button == 3 and list(again.starting_stacks) == doc["starting_stacks"]
    assert by_position(again) == by_position(h)


# ------------------------------------------------------------------------------ rules <-> fields
RULES_VARIANTS = [
    Rules(),
    Rules(structure="pot-limit", sb=5),
    Rules(structure="fixed-limit", cap=None),
    Rules(structure="fixed-limit", cap=2, sb=2, bb=5, ob=11),
    Rules(ob=9),
    Rules(over_blind=False, heads_up_button_posts_small=True, suit_tiebreak=False),
    Rules(second_round_first="after_button", parole=False, muck_losers=False, reshuffle_folded=True),
    Rules.preset("two-blind"),
    Rules.preset("two-blind", structure="fixed-limit", sb=3, bb=7),
    Rules.preset("two-blind", over_blind=True, ob=20, parole=False),
]


@pytest.mark.parametrize("rules", RULES_VARIANTS, ids=str)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_rules_round_trip_through_fields(rules, n):
    """variant, blinds, bet sizes, _preset and _options determine the rules completely."""
    doc = HandHistory(rules, (100,) * n, ()).to_document()
    read = HandHistory.from_document(doc).rules
    assert read == rules and read.name == rules.name
    L = rules.largest_blind(n)
    assert doc.get("min_bet", L) == L and doc.get("small_bet", L) == L and doc.get("big_bet", 2 * L) == 2 * L
    assert sorted(b for b in doc["blinds_or_straddles"] if b) == sorted(rules.blinds(n))
    assert doc["antes"] == [0] * n


def test_options_hold_only_what_differs_from_the_preset():
    assert "_options" not in rules_fields(Rules(), 5)
    assert rules_fields(Rules.preset("two-blind"), 4)["_preset"] == "two-blind"
    assert "_options" not in rules_fields(Rules.preset("two-blind", sb=5), 4)
    assert rules_fields(Rules(structure="fixed-limit", cap=None), 3)["_options"] == {"cap": "none"}
    assert rules_fields(Rules(ob=9), 3)["_options"] == {"ob": 9}                 # not posted by 3 players
    assert "_options" not in rules_fields(Rules(ob=9), 4)                         # posted: in the blinds
    assert rules_fields(Rules(over_blind=False), 5)["blinds_or_straddles"] == [1, 2, 0, 0, 0]


# ------------------------------------------------------------------------------ round trips
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("structure", ["no-limit", "pot-limit", "fixed-limit"])
@pytest.mark.parametrize("preset", ["classic", "two-blind"])
def test_round_trip_simulated_hands(preset, structure, players):
    """engine -> PHH -> engine: 24 tables x 80 hands, short stacks for all-ins, side pots and
    Parole votes of all-in players."""
    hands: list[Hand] = []
    simulate(players=players, hands=80, seed=players * 7 + len(structure), stack=30,
             rules=Rules.preset(preset, structure=structure), on_hand=hands.append)
    assert_round_trip(hands)


class ChaosBot:
    """A bot that sometimes times out (R6.3, R7.3) or has its right to raise withdrawn (R7.3)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.bots = [RuleBot(seed), RandomBot(seed + 1)]

    def act(self, h: Hand) -> None:
        roll = self.rng.random()
        if roll < 0.06:
            h.timeout()
            return
        legal = h.legal_actions()
        assert legal is not None
        if roll < 0.12 and legal.phase is not Phase.DRAW and legal.min_to is not None:
            h.withdraw_raise()
        h.act(self.bots[self.rng.random() < 0.5].decide(h))


def test_round_trip_random_tables_options_timeouts():
    """engine -> PHH -> engine for 900 hands of random tables: every rules variant above, 2-5
    players, random stacks and button, entry bets and missed blinds (R10.2, R10.3), timeouts and
    withdrawn raises."""
    rng = random.Random(2024)
    hands = []
    for i in range(900):
        rules = RULES_VARIANTS[i % len(RULES_VARIANTS)]
        n = rng.randint(2, 5)
        stacks = [rng.randint(1, 25) * rules.sb for _ in range(n)]
        posts = None
        button = rng.randrange(n)
        if rng.random() < 0.3:                      # a live entry bet and/or dead missed blinds
            seat, L = rng.randrange(n), rules.largest_blind(n)
            probe = Hand(rules, [10**6] * n, button, seed=0)
            due = sum(e.amount for e in probe.events if e.kind is EventKind.POST_BLIND and e.seat == seat)
            live = rng.choice([0, rules.big_blind, L])
            posts = {seat: (min(live, L - due), rng.choice([0, rules.sb, rules.sb + rules.big_blind]))}
        h = Hand(rules, stacks, button, seed=i, posts=posts)
        bot = ChaosBot(i)
        while not h.is_complete:
            bot.act(h)
        hands.append(h)
    kinds = {e.kind for h in hands for e in h.events}
    posted = {e.get("blind") for h in hands for e in h.events if e.kind is EventKind.POST_BLIND}
    assert {"live", "dead"} <= posted
    assert {EventKind.TIMEOUT, EventKind.RAISE_WITHDRAWN, EventKind.SPLIT, EventKind.DECLINE,
            EventKind.RESHUFFLE, EventKind.MUCK} <= kinds
    assert_round_trip(hands)


def test_partial_hand_round_trip():
    h = Hand(Rules(), [50, 50, 50], 2, seed=4)
    _ = h.call()
    hh = HandHistory.loads(HandHistory.from_hand(h).dumps())
    assert hh.finishing_stacks is None
    again = hh.replay(complete=False)
    assert again.events == h.events and again.actor == h.actor
    with pytest.raises(HistoryError, match=r"actions\[4\] \(after the last action\): the actions end before "
                                           r"the hand is over: p1 is to act"):
        hh.replay()


def test_optional_and_user_fields_survive_the_toml_round_trip():
    h = Hand(Rules(), [50, 50, 50], 0, seed=2)
    _ = h.fold()
    _ = h.fold()
    extra = {"author": 'Ann "A." Smith', "time": datetime.time(21, 5), "winnings": [0, 1.5, 2],
             "_note": {"nested": ["ä", "#not a comment"]}, "currency": "EUR"}
    hh = HandHistory.from_hand(h, number="final-7", table=3, players=["a", "b\\c", "ü"], seats=[2, 5, 9],
                               extra=extra)
    read = HandHistory.loads(hh.dumps())
    assert read == hh and read.extra == extra
    # by position: p1 = seat 1 (left of the button, seat 0), p2 = seat 2, p3 = seat 0
    assert read.players == ("b\\c", "ü", "a") and read.seats == (5, 9, 2)
    assert read.hand == "final-7" and read.table == 3
    assert read.replay().events == h.events
    with pytest.raises(ValueError, match="increasing"):
        HandHistory.from_hand(h, seats=[5, 2, 9])


def test_writer_numbers_hands_and_files_load(tmp_path: Path):
    path = tmp_path / "three.phhs"
    hands = []
    with path.open("w", encoding="utf-8") as fp:
        w = HistoryWriter(fp)
        simulate(players=3, hands=3, seed=1, on_hand=lambda h: (hands.append(h), w.write(h)))
    read = list(load_all(path))
    assert [(hh.number, hh.hand, hh.source) for hh in read] == [(i, i, str(path)) for i in (1, 2, 3)]
    assert [by_position(hh.replay()) for hh in read] == [by_position(h) for h in hands]


def test_comments_and_empty_actions_are_ignored():
    doc = HandHistory.from_hand(GOLDEN["r9_3_showdown_order.phh"][0]()).to_document()
    doc["actions"] = ["", "  # a no-op"] + [a + "  # commentary" for a in doc["actions"]]
    assert by_position(HandHistory.from_document(doc).replay()) == [88, 88, 124]


def test_showdown_actions_are_optional_and_may_list_cards_in_any_order():
    doc = HandHistory.from_hand(GOLDEN["r9_3_showdown_order.phh"][0]()).to_document()
    actions = doc["actions"]
    assert actions[-3:] == ["p1 sm QdQcQsTs8d", "p2 sm", "p3 sm QhTh9h8h7h"]
    doc["actions"] = actions[:-3]
    assert by_position(HandHistory.from_document(doc).replay()) == [88, 88, 124]
    doc["actions"] = [*actions[:-3], "p1 sm 8dTsQsQcQd", "p2 sm"]
    with pytest.raises(HistoryError, match=r"actions\[15\] \(after the last action\): the showdown is "
                                           r"incomplete: expected 'p3 sm QhTh9h8h7h' \(R9\.3\)"):
        HandHistory.from_document(doc).replay()


# ------------------------------------------------------------------------------ golden files
@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_file_replays_to_its_stacks(name):
    build, stacks, _ = GOLDEN[name]
    (hh,) = load_all(DATA / name)
    h = hh.replay()
    assert by_position(h) == stacks == list(hh.finishing_stacks or ())
    assert h.events == build().events


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_file_is_what_the_writer_writes(name):
    assert (DATA / name).read_text(encoding="utf-8") == golden_text(name)


def test_golden_extensions_appear_as_documented():
    """The extension actions of this dialect, in the golden files."""
    def actions(name: str) -> tuple[str, ...]:
        return next(load_all(DATA / name)).actions

    assert "p1 to" in actions("r6_3_draw_timeout.phh")                     # R6.3: the stand-pat is not written
    assert "p1 sd" not in actions("r6_3_draw_timeout.phh")
    assert actions("r7_3_withdraw_raise.phh").count("d wr p3") == 2          # seat 0 is p3
    assert actions("r8_2_parole_all_in_accepts.phh")[-3:] == ("p2 sp", "p3 sp", "p4 sp")
    assert actions("r8_2_parole_all_in_declines.phh")[-6:-3] == ("p2 sp", "p3 sp", "p4 nsp")
    text = (DATA / "r2_4_suit_tiebreak_off.phh").read_text(encoding="utf-8")
    assert "[_options]\nsuit_tiebreak = false\n" in text


def test_golden_draw_timeout_enforces_r6_3_on_replay():
    """A file where the timed-out player bets later is refused: the timeout is replayed."""
    (hh,) = load_all(DATA / "r6_3_draw_timeout.phh")
    actions = list(hh.actions)
    i = actions.index("p1 cc", actions.index("p1 to"))
    actions[i] = "p1 cbr 2"
    bad = HandHistory(hh.rules, hh.starting_stacks, tuple(actions), seats=hh.seats)
    with pytest.raises(HistoryError, match=r"timed out in the draw and may not bet or raise \[R6\.3\]"):
        bad.replay()


# ------------------------------------------------------------------------------ malformed files
MALFORMED = [
    ("bad_toml.phh", r"^.*bad_toml\.phh: not valid TOML: .*line 2, column 16"),
    ("wrong_length.phh", r"wrong_length\.phh: hand 1: field 'antes': 2 entries for 3 players"),
    ("six_of_hearts.phh", r"hand 1: actions\[0\] 'd dh p1 6hQdQc8dTs': bad card '6h': rank 6 is not in the "
                          r"32-card deck \(7 to ace\) \[R1\.1\]"),
    ("duplicate_card.phh", r"hand 1: actions\[1\] 'd dh p2 QsJcTd8c7c': card Qs for seat 2 is already in play"),
    ("duplicate_in_word.phh", r"actions\[0\] 'd dh p1 QsQsQc8dTs': duplicate card 'Qs' .*\[R1\.3\]"),
    ("out_of_turn.phh", r"hand 1: actions\[3\] 'p1 cc': p1 acted out of turn: p3 is to act \[R5\.2\]"),
    ("illegal_amount.phh", r"hand 1: actions\[3\] 'p3 cbr 3': seat 0: raise to 3 is outside the legal range "
                           r"\(4 to 100 chips, no-limit\) \[R3\.4\] \(seat 0 is p3\)"),
    ("own_discard.phhs", r"own_discard\.phhs: hand 2: actions\[13\] 'd dh p2 JdAh8sAs': card As is one of seat "
                         r"1's own discards .*\[R6\.2\] \(seat 1 is p2\)"),
    ("finishing_mismatch.phh", r"field 'finishing_stacks': \[88, 88, 125\] differ from the replay's "
                               r"\[88, 88, 124\]: p3 124 \(file 125\)"),
    ("unknown_cards.phh", r"actions\[1\] 'd dh p2 \?{10}': unknown cards .*no '\?\?'"),
    ("incomplete.phh", r"actions\[6\] \(after the last action\): the actions end before the hand is over: "
                       r"p1 is to act"),
    # p2 could muck and may show (R9.3), but only p2's own cards
    ("showdown_mismatch.phh", r"actions\[14\] 'p2 sm JsJcTd8c7h': the showdown differs from the engine's: "
                              r"expected 'p2 sm JcJsTd8c7c' \(R9\.3\)"),
    # p3 can win: the muck is refused, p3 shows
    ("showdown_winner_mucks.phh", r"actions\[15\] 'p3 sm': the showdown differs from the engine's: "
                                  r"expected 'p3 sm QhTh9h8h7h' \(R9\.3\)"),
    ("wrong_variant.phh", r"field 'variant': 'NT' is not a 32-Card Draw variant: use N32D, P32D or F32D"),
    ("over_blind_missing.phh", r"field 'blinds_or_straddles': \[1, 2, 0, 0\] has no over blind at 4 players, "
                               r"but preset 'classic' has one .*\[R4\.2\]"),
    ("cbr_float.phh", r"actions\[3\] 'p3 cbr 4\.5': cbr amount '4\.5' is not a whole number of chips \[R3\.2\]"),
    ("deals_after_all_discards.phh", r"actions\[7\] 'p2 sd 7c': p2 acted before the deal: the dealer must deal "
                                     r"2 card\(s\) to p1 \(d dh p1 \.\.\.\) \[R6\.1\]"),
]


def test_every_malformed_file_is_tested():
    assert sorted(p.name for p in BAD.iterdir()) == sorted(name for name, _ in MALFORMED)


@pytest.mark.parametrize("name, message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_file_rejected_with_location(name, message):
    with pytest.raises(HistoryError, match=message) as info:
        for hh in load_all(BAD / name):
            hh.replay()
    assert str(info.value).startswith(str(BAD / name) + ": ")
    assert info.value.file == str(BAD / name)


def good_doc() -> dict:
    return HandHistory.from_hand(GOLDEN["r9_3_showdown_order.phh"][0]()).to_document()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"starting_stacks": [100, 100.0, 100]}, r"field 'starting_stacks': p2: 100\.0 is not an integer number"),
        ({"starting_stacks": [100]}, r"field 'starting_stacks': \[100\]: a hand is dealt to 2 to 5 players"),
        ({"starting_stacks": [100, 0, 100]}, r"p2: 0 must be at least 1"),
        ({"antes": [0, 1, 0]}, r"field 'antes': \[0, 1, 0\]: 32-Card Draw has no antes"),
        ({"min_bet": 4}, r"field 'min_bet': 4 must be 2: the largest blind L"),
        ({"min_bet": 2.0}, r"field 'min_bet': 2\.0 must be 2"),
        ({"small_bet": 2}, r"field 'small_bet': N32D has no small_bet"),
        ({"bring_in": 1}, r"field 'bring_in': N32D has no bring_in"),
        ({"blinds_or_straddles": [2, 1, 0]}, r"big blind bb=1 is smaller than the small blind sb=2 \[R3\.2\]"),
        ({"blinds_or_straddles": [1, 2, 4]}, r"with 3 players the blinds by position are \[sb, bb, 0\]"),
        ({"variant": "F32D"}, r"field 'min_bet': F32D has no min_bet \(small_bet, big_bet instead\)"),
        ({"_preset": "heads-up"}, r"field '_preset': unknown preset 'heads-up'"),
        ({"_options": {"sb": 3}}, r"'sb' is not an option here: the blinds are in blinds_or_straddles"),
        ({"_options": {"parole": "no"}}, r"parole = 'no' must be true or false"),
        ({"_options": {"cap": 3}}, r"cap=3 only applies to fixed-limit, not no-limit \[R3\.4\]"),
        ({"seats": [1, 3, 2]}, r"field 'seats': seats \[1, 3, 2\] are not in clockwise order"),
        ({"seats": [2, 2, 3]}, r"two players in one seat"),
        ({"players": ["a", "b"]}, r"field 'players': .*expected an array of 3 entries"),
        ({"hand": 1.5}, r"field 'hand': 1\.5 is not a string or an integer"),
        # seat numbers are small; every other integer has at most 16 digits (a 500-digit seat replayed)
        ({"seats": [1, 2, 10**500]}, r"field 'seats': p3: <int of 1661 bits> is not a seat number 1 to 99$"),
        ({"seats": [1, 2, 100]}, r"field 'seats': p3: 100 is not a seat number 1 to 99$"),
        ({"seats": [0, 1, 2]}, r"field 'seats': p1: 0 is not a seat number 1 to 99$"),
        ({"level": 10**16}, r"field 'level': 10000000000000000 is not an integer of at most 16 digits$"),
        ({"hand": -10**500}, r"field 'hand': <int of 1661 bits> is not a string or an integer of at most 16 "),
        ({"time_limit": 10**20}, r"field 'time_limit': <int of 67 bits> is not a float or an integer of at most"),
        ({"winnings": [0, 0, 10**17]}, r"field 'winnings': p3: 100000000000000000 is not a float or an integer of "),
        ({"finishing_stacks": [0, 0, 2**53]}, r"field 'finishing_stacks': p3: 9007199254740992 is not a number of "
                                              r"chips 0 to 9007199254740991 \[R3\.2\]$"),
        ({"_posts": [[0, 0], [2**53, 0], [0, 0]]}, r"field '_posts': p2: \[9007199254740992, 0\] is not a pair "),
        ({"finishing_stack": [1, 2, 3]}, r"unknown field 'finishing_stack' \(user-defined fields start with '_'\)"),
        ({"actions": ["p1 f", 3]}, r"field 'actions': must be an array of strings"),
        ({"_posts": [[0, 0], [2, 1]]}, r"field '_posts': .*expected an array of 3 \[live, dead\] pairs"),
        ({"_posts": [[0, 0], [2, -1], [0, 0]]}, r"field '_posts': p2: \[2, -1\] is not a pair \[live, dead\]"),
        ({"_posts": [[0, 0], [9, 0], [0, 0]]}, r"field '_posts': posts: seat 2: a live post of 9 is more than the "
                                               r"largest blind 2 \[R10\.2, R10\.3\]"),
    ],
)
def test_malformed_fields(change, message):
    doc = {**good_doc(), **change}
    with pytest.raises(HistoryError, match=message):
        HandHistory.from_document(doc, source="f.phh", number=4).replay()


def test_missing_field():
    doc = good_doc()
    del doc["blinds_or_straddles"]
    with pytest.raises(HistoryError, match=r"^f\.phh: hand 4: missing required field 'blinds_or_straddles'$"):
        HandHistory.from_document(doc, source="f.phh", number=4)
    doc = good_doc()
    doc["variant"] = "F32D"
    del doc["min_bet"]
    with pytest.raises(HistoryError, match=r"^f\.phh: hand 4: missing required field 'small_bet' \(F32D\)$"):
        HandHistory.from_document(doc, source="f.phh", number=4)


@pytest.mark.parametrize(
    "index, action, message",
    [
        (3, "p3 xx", r"unknown action 'xx'"),
        (3, "p9 cc", r"no player p9: the hand has 3 players"),
        (3, "q3 cc", r"unknown actor 'q3'"),
        (3, "p3 f now", r"f takes no argument"),
        (3, "p3 cbr", r"expected p3 cbr AMOUNT"),
        (3, "p3 cbr -4", r"cbr amount '-4' is not a whole number"),
        (3, "d db AhKhQh", r"32-Card Draw has no board cards"),
        (3, "p3 sm", r"showdown before the hand is over"),
        (3, "p3 nsp", r"seat 0 cannot decline: only an all-in player answers the Parole offer"),
        (3, "p3 sd", r"seat 0 must discard 0-4 cards or stand pat in the draw|cannot discard outside the draw"),
        (3, "d wr p1", r"p1 is not to act: p3 is to act \[R7\.3\]"),
        (1, "d dh p3 JsJcTd8c7c", r"the dealer deals to p2 next, not p3 \[R5\.1\]"),
        (1, "d dh p2 JsJcTd8c", r"seat 2 must receive 5 cards, got 4"),
        (6, "p1 sd QsQdQc8dTs", r"at most 4 may be discarded"),
        (6, "p1 sd 7h", r"cannot discard 7h, not in the hand"),
        (10, "p1 sp", r"cannot choose split: no Parole offer is open"),
        (13, "p1 cc", r"the hand is already over: only the showdown \(pN sm\) may follow"),
    ],
)
def test_malformed_actions(index, action, message):
    doc = good_doc()
    doc["actions"][index] = action
    with pytest.raises(HistoryError, match=rf"^f\.phh: hand 4: actions\[{index}\] '{action}': .*{message}"):
        HandHistory.from_document(doc, source="f.phh", number=4).replay()


def test_phhs_table_names_must_be_numbers():
    with pytest.raises(HistoryError, match=r"table \[final\]: the hands of a \.phhs file are numbered tables"):
        list(loads_all('[final]\nvariant = "N32D"\n'))
    assert list(loads_all("# empty\n")) == []                 # e.g. simulate --hands 0 --history
    with pytest.raises(HistoryError, match=r"expected one hand, the file has 0"):
        HandHistory.loads("")
    with pytest.raises(HistoryError, match=r"not valid TOML: nested too deeply"):
        list(loads_all("a = " + "[" * 2000 + "]" * 2000))
    assert list(loads_all("\ufeff# a byte-order mark\n")) == []
    with pytest.raises(HistoryError, match=r"expected one hand, the file has 2"):
        HandHistory.loads(dumps_all([HandHistory.from_hand(GOLDEN["r9_3_showdown_order.phh"][0]())] * 2))


def test_every_action_kind_has_a_phh_form():
    """No ActionKind the engine accepts lacks a PHH action (a new kind must be added to the dialect)."""
    covered = {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
               ActionKind.SPLIT, ActionKind.DECLINE, ActionKind.DISCARD, ActionKind.TIMEOUT}
    assert set(ActionKind) == covered
    assert Action.timeout().kind is ActionKind.TIMEOUT



def test_docs_example_replays():
    """The example file of docs/engine/histories.md replays."""
    page = Path(__file__).resolve().parent.parent / "docs" / "engine" / "histories.md"
    if not page.exists():
        pytest.skip("docs/ is not next to tests/ (tests run outside the repository)")
    block = page.read_text(encoding="utf-8").split("```toml\n", 1)[1].split("```", 1)[0]
    hh = HandHistory.loads(block, source="docs/engine/histories.md")
    assert by_position(hh.replay()) == [88, 88, 124]
    assert hh.rules == Rules(parole=False) and hh.button == 0


HUGE = "9" * 5000                 # beyond Python's int-str conversion limit (4300 digits)


@pytest.mark.parametrize("where, edit, message", [
    ("starting_stacks", lambda t: t.replace("100,\n    100,", f"{HUGE},\n    100,", 1),
     r"^f\.phh: hand 1: field 'starting_stacks': line 15: an integer of 5000 digits; no number here has more than 16"),
    ("negative", lambda t: t.replace("100,\n    100,", f"-{HUGE},\n    100,", 1), "field 'starting_stacks'"),
    ("min_bet", lambda t: t.replace("min_bet = 2", f"min_bet = {HUGE}"), r"field 'min_bet': line 13: .* \[R3\.2\]"),
    ("underscores", lambda t: t.replace("min_bet = 2", "min_bet = " + "9_" * 5000 + "9"), "of 5001 digits"),
    ("3001 digits", lambda t: t.replace("min_bet = 2", "min_bet = " + "9" * 3001),
     r"field 'min_bet': <int of 9970 bits> must be 2"),
    ("finishing_stacks", lambda t: t.replace("145,", f"{HUGE},"), "field 'finishing_stacks'"),
    ("options", lambda t: t + f"_options = {{ cap = {HUGE} }}\n", "field '_options'"),
    ("user field", lambda t: t + f"_note = {HUGE}\n", "field '_note'"),
    ("actor", lambda t: t.replace('"p1 cbr 5"', f'"p{HUGE} cbr 5"'),
     r"^f\.phh: hand 1: actions\[2\] 'p9+\.\.\.9+ cbr 5': unknown actor 'p9+\.\.\.9+'"),
    ("amount", lambda t: t.replace('"p1 cbr 5"', f'"p1 cbr {HUGE}"'),
     r"actions\[2\] 'p1 cbr 9+\.\.\.9+': cbr amount '9+\.\.\.9+' has 5000 digits: a number of chips has at most 16"),
    ("amount 17 digits", lambda t: t.replace('"p1 cbr 5"', '"p1 cbr 90071992547409910"'), "has 17 digits"),
])
def test_huge_integers_are_history_errors(where, edit, message):
    """A PHH integer over 4,300 digits raised Python's plain ValueError (int-str conversion limit)
    from the TOML reader or the action parser: now a HistoryError naming the file, the hand and the
    field or action (R3.2: no number of chips has more than 16 digits)."""
    text = edit((DATA / "r3_4_pot_limit.phh").read_text())
    with pytest.raises(HistoryError, match=message) as info:
        for history in loads_all(text, source="f.phh"):
            history.replay()
    assert len(str(info.value)) < 300


def test_huge_integers_in_a_session_file_name_the_hand():
    hand = (DATA / "r3_4_pot_limit.phh").read_text().split("\n\n", 1)[1]
    text = f"[1]\n{hand}\n[2]\n{hand.replace('min_bet = 2', f'min_bet = {HUGE}')}"
    with pytest.raises(HistoryError, match=r"^s\.phhs: hand 2: field 'min_bet': line \d+: an integer of 5000 digits"):
        list(loads_all(text, source="s.phhs"))
    with pytest.raises(HistoryError, match=r"table \[9{37}\.\.\.\]: the hands of a \.phhs file are numbered"):
        list(loads_all(f"[{HUGE}]\n{hand}", source="s.phhs"))


def test_writer_refuses_an_unfinished_hand() -> None:
    """A history of an unfinished hand is refused by replay, so HistoryWriter does not write one (R9)."""
    import io

    from pokerdraw32.history import HistoryWriter

    out = io.StringIO()
    w = HistoryWriter(out)
    h = Hand(Rules(), [50, 50, 50], button=0, seed=3)
    with pytest.raises(HistoryError, match=r"^hand 1: the hand is not over \(p3 is to act\): a history of an "
                                           r"unfinished hand cannot be replayed; write it when it is complete "
                                           r"\[R9\]$"):
        w.write(h)
    assert out.getvalue() == "" and w.count == 0
    bot = RuleBot(1)
    while not h.is_complete:
        h.act(bot.decide(h))
    w.write(h)
    (again,) = loads_all(out.getvalue())
    assert again.replay().result.stacks == h.result.stacks and w.count == 1


def test_writer_refuses_an_unfinished_hand_history() -> None:
    """write(HandHistory.from_hand(h)) of an unfinished hand is refused as write(h) is: it wrote a
    file that replay refuses ("the actions end before the hand is over") (R9).  A history not
    recorded from a finished hand (read, built or changed) is replayed before it is written."""
    import dataclasses
    import io

    from pokerdraw32.history import HistoryWriter

    out = io.StringIO()
    w = HistoryWriter(out)
    h = Hand(Rules(), [50, 50, 50], button=0, seed=3)
    unfinished = r"^hand 1: the hand is not over \(p3 is to act\): a history of an unfinished hand cannot be " \
                 r"replayed; write it when it is complete \[R9\]$"
    with pytest.raises(HistoryError, match=unfinished):
        w.write(HandHistory.from_hand(h))
    bot = RuleBot(1)
    h.act(bot.decide(h))
    with pytest.raises(HistoryError, match=unfinished.replace("p3", "p1")):
        w.write(HandHistory.from_hand(h))
    while not h.is_complete:
        h.act(bot.decide(h))
    finished = HandHistory.from_hand(h)
    cut = dataclasses.replace(finished, actions=finished.actions[:-4], finishing_stacks=None)
    with pytest.raises(HistoryError, match=r"^hand 1: the hand is not over \("):
        w.write(cut)                                 # a changed copy is replayed, not trusted
    loaded = HandHistory.loads(HandHistory.from_hand(Hand(Rules(), [50, 50, 50], button=0, seed=3)).dumps())
    with pytest.raises(HistoryError, match=unfinished):
        w.write(loaded)                              # read from a file: replayed too
    wrong = dataclasses.replace(finished, finishing_stacks=(1, 2, 147))
    with pytest.raises(HistoryError, match=r"field 'finishing_stacks': \[1, 2, 147\] differ from the replay's"):
        w.write(wrong)
    assert out.getvalue() == "" and w.count == 0
    w.write(finished)
    w.write(HandHistory.loads(finished.dumps()))
    assert [hh.replay().result.stacks for hh in loads_all(out.getvalue())] == [h.result.stacks] * 2
    assert w.count == 2
