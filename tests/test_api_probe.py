"""A table of bad calls across the public API: each raises the package's own error class,
which is also the built-in a Python programmer expects (TypeError, ValueError, KeyError),
with a message naming the problem. Plain TypeError/ValueError/KeyError/AttributeError used
to escape from about half of these (see the hierarchy in pokerdraw32/errors.py).

Python's own errors for a malformed call (missing or unknown arguments) are not probed.
"""

# ruff: noqa: E501 - one probe a line

from __future__ import annotations

import array
import io
from collections.abc import Callable
from typing import Any

import pytest

import pokerdraw32 as pd
from pokerdraw32 import (
    Action,
    DealError,
    Hand,
    IllegalActionError,
    InvalidCardError,
    PokerDraw32Error,
    Rng,
    Rules,
    RulesError,
    TableError,
    cards_to_mask,
    deal_many,
    evaluate,
    evaluate_many,
    format_cards,
    mask_to_cards,
    parse_card,
    parse_cards,
)
from pokerdraw32._kernels import split_pots
from pokerdraw32.cards import Card
from pokerdraw32.errors import PokerDraw32KeyError, PokerDraw32TypeError, PokerDraw32ValueError
from pokerdraw32.history import HandHistory, HistoryError
from pokerdraw32.phh import parse_cards_word
from pokerdraw32.snapshot import SnapshotError
from pokerdraw32.table import Table


def H() -> Hand:
    """Three players, seat 0 to act first (after the big blind of seat 2), classic rules."""
    return Hand(Rules(), [100, 100, 100], 0, seed=1)


def folded() -> Hand:
    """A finished heads-up hand (the small blind folds)."""
    hand = Hand(Rules(), [50, 50], 0, seed=5)
    hand.fold()
    return hand


def T() -> Table:
    """A table of two players with a hand running (seat 0 is the button)."""
    table = Table(Rules(), seed=1)
    table.join(0, "a", 100)
    table.join(1, "b", 100)
    table.start_hand()
    return table


PROBES: list[tuple[str, Callable[[], Any], type[PokerDraw32Error], type[Exception], str]] = [
    ('evaluate None', lambda: evaluate(None), InvalidCardError, ValueError, 'bad cards None: expected a string or an itera'),
    ('evaluate 5', lambda: evaluate(5), InvalidCardError, ValueError, 'bad cards 5: expected a string or an iterable'),
    ("evaluate 'Ah'", lambda: evaluate("Ah"), InvalidCardError, ValueError, "a hand has exactly 5 cards, got 1: 'Ah' [R2]"),
    ("evaluate 'Ah Ah Kh Qh Jh'", lambda: evaluate("Ah Ah Kh Qh Jh"), InvalidCardError, ValueError, "duplicate card 'Ah' [R1.3]"),
    ('evaluate 2c', lambda: evaluate("2c 3c 4c 5c 6c"), InvalidCardError, ValueError, "bad card '2c': rank 2 is not in the 32-card d"),
    ('evaluate stb', lambda: evaluate("Ah Kh Qh Jh Th", suit_tiebreak="x"), PokerDraw32TypeError, TypeError, "suit_tiebreak must be True or False, got 'x'"),
    ('parse_cards None', lambda: parse_cards(None), InvalidCardError, ValueError, 'bad cards None: expected a string or an itera'),
    ('parse_cards 5', lambda: parse_cards(5), InvalidCardError, ValueError, 'bad cards 5: expected a string or an iterable'),
    ('parse_cards [1.5]', lambda: parse_cards([1.5]), InvalidCardError, ValueError, 'bad card 1.5: expected a code 0..31 or a stri'),
    ('parse_cards [99]', lambda: parse_cards([99]), InvalidCardError, ValueError, 'bad card code 99: the 32-card deck has codes '),
    ('parse_card 5.0', lambda: parse_card(5.0), InvalidCardError, ValueError, "bad card 5.0: expected a string like 'Ah' [R1"),
    ("parse_card ''", lambda: parse_card(""), InvalidCardError, ValueError, "bad card '': expected a rank (7 8 9 T/10 J Q "),
    ("parse_card b'Ah'", lambda: parse_card(b"Ah"), InvalidCardError, ValueError, "bad card b'Ah': expected a string like 'Ah' ["),
    ('cards_to_mask None', lambda: cards_to_mask(None), InvalidCardError, ValueError, 'bad cards None: expected a string or an itera'),
    ("cards_to_mask 'Zz'", lambda: cards_to_mask("Zz"), InvalidCardError, ValueError, "bad card 'Zz': expected a rank (7 8 9 T/10 J "),
    ('cards_to_mask [object]', lambda: cards_to_mask([object()]), InvalidCardError, ValueError, 'bad card <object object at '),
    ('mask_to_cards -1', lambda: mask_to_cards(-1), InvalidCardError, ValueError, 'bad card mask -1: expected an int 0..0xFFFFFF'),
    ("mask_to_cards 'x'", lambda: mask_to_cards("x"), InvalidCardError, ValueError, "bad card mask 'x': expected an int 0..0xFFFFF"),
    ('mask_to_cards 2**40', lambda: mask_to_cards(2**40), InvalidCardError, ValueError, 'bad card mask 1099511627776: expected an int '),
    ('format_cards 5', lambda: format_cards(5), PokerDraw32TypeError, TypeError, 'cards must be an iterable of cards or codes 0'),
    ('format_cards [99]', lambda: format_cards([99]), InvalidCardError, ValueError, 'bad card code 99: the 32-card deck has codes '),
    ('Card(99)', lambda: Card(99), InvalidCardError, ValueError, 'bad card code 99: the 32-card deck has codes '),
    ("Card('x')", lambda: Card("x"), InvalidCardError, ValueError, "bad card 'x': expected a rank (7 8 9 T/10 J Q"),
    ('evaluate_many None', lambda: evaluate_many(None), PokerDraw32TypeError, TypeError, 'hands must be a buffer of uint8 card codes or'),
    ('evaluate_many 4 bytes', lambda: evaluate_many(b"\0\1\2\3"), PokerDraw32ValueError, ValueError, 'hands holds 4 card codes, not a multiple of 5'),
    ('evaluate_many bad code', lambda: evaluate_many(bytes([0,1,2,3,40])), PokerDraw32ValueError, ValueError, 'row 0: card code 40 is not 0..31'),
    ('evaluate_many dup', lambda: evaluate_many(bytes([0,1,2,3,3])), PokerDraw32ValueError, ValueError, 'row 0: card code 3 appears twice'),
    ("evaluate_many 'h'", lambda: evaluate_many(array.array('h',[1,2,3,4,5])), PokerDraw32TypeError, TypeError, 'hands must hold uint8 card codes or uint32 ma'),
    ('evaluate_many out ro', lambda: evaluate_many(bytes([0,1,2,3,4]), out=bytes(4)), PokerDraw32TypeError, TypeError, 'out must be a writable buffer, not a read-onl'),
    ('evaluate_many out wrong', lambda: evaluate_many(bytes([0,1,2,3,4]), out=array.array('I',[0,0])), PokerDraw32ValueError, ValueError, 'out must be 1-D with 1 items, got shape (2,)'),
    ('evaluate_many out obj', lambda: evaluate_many(bytes([0,1,2,3,4]), out=5), PokerDraw32TypeError, TypeError, 'out must be a writable buffer of uint32, not '),
    ('deal_many -1', lambda: deal_many(-1), PokerDraw32ValueError, ValueError, 'n must be in 0 <= n <= 2**40, got -1'),
    ("deal_many 'x'", lambda: deal_many("x"), PokerDraw32TypeError, TypeError, 'n must be an int, not str'),
    ('deal_many hands 9', lambda: deal_many(1, seed=1, hands=9), PokerDraw32ValueError, ValueError, 'hands must be 1 to 6 (5 cards each from 32), '),
    ("deal_many hands 'x'", lambda: deal_many(1, seed=1, hands="x"), PokerDraw32TypeError, TypeError, 'hands must be an int or None, not str'),
    ('deal_many seed+rng', lambda: deal_many(1, seed=1, rng=Rng(1)), PokerDraw32ValueError, ValueError, 'give a seed or an rng, not both'),
    ('deal_many rng junk', lambda: deal_many(1, rng=5), PokerDraw32TypeError, TypeError, 'rng must be an Rng, not int'),
    ('deal_many seed -1', lambda: deal_many(1, seed=-1), PokerDraw32ValueError, ValueError, 'seed must be in 0 <= seed < 2**64, got -1'),
    ("Rng 'x'", lambda: Rng("x"), PokerDraw32TypeError, TypeError, 'seed must be an int or None, not str'),
    ('Rng -1', lambda: Rng(-1), PokerDraw32ValueError, ValueError, 'seed must be in 0 <= seed < 2**64, got -1'),
    ('Rng 2**64', lambda: Rng(2**64), PokerDraw32ValueError, ValueError, 'seed must be in 0 <= seed < 2**64, got 184467'),
    ('Rng 1.5', lambda: Rng(1.5), PokerDraw32TypeError, TypeError, 'seed must be an int or None, not float'),
    ('Rng.below 0', lambda: Rng(1).below(0), PokerDraw32ValueError, ValueError, 'below() needs 1 <= n <= 2**32, got 0'),
    ('Rng.below -1', lambda: Rng(1).below(-1), PokerDraw32ValueError, ValueError, 'below() needs 1 <= n <= 2**32, got -1'),
    ("Rng.below 'x'", lambda: Rng(1).below("x"), PokerDraw32TypeError, TypeError, 'n must be an int, not str'),
    ('Rng.below 2**65', lambda: Rng(1).below(2**65), PokerDraw32ValueError, ValueError, 'below() needs 1 <= n <= 2**32, got 3689348814'),
    ('Rng.shuffle 5', lambda: Rng(1).shuffle(5), PokerDraw32TypeError, TypeError, 'cards must be a list, not int'),
    ('Rng.shuffled -1', lambda: Rng(1).shuffled(-1), PokerDraw32ValueError, ValueError, 'deck mask -0x1 has bits outside the 32-card d'),
    ("Rng.shuffled 'x'", lambda: Rng(1).shuffled("x"), PokerDraw32TypeError, TypeError, 'deck mask must be an int, not str'),
    ('Rng.setstate 5', lambda: Rng(1).setstate(5), PokerDraw32TypeError, TypeError, 'state must be a sequence, not int'),
    ('Rng.setstate (0,0,0,0)', lambda: Rng(1).setstate((0,0,0,0)), PokerDraw32ValueError, ValueError, 'state must not be all zero'),
    ('Rng.setstate (1,2)', lambda: Rng(1).setstate((1,2)), PokerDraw32ValueError, ValueError, 'state must have 4 words, got 2'),
    ('Rng.setstate neg', lambda: Rng(1).setstate((1,2,3,-4)), PokerDraw32ValueError, ValueError, 'state word 3 is outside 0 <= w < 2**64: -4'),
    ('split_pots junk', lambda: split_pots(5, 5, 5, 5, 5), PokerDraw32TypeError, TypeError, 'contributions must be a sequence, not int'),
    ('split_pots neg', lambda: split_pots((10,-5), (1,2), 3, 0, 0), PokerDraw32ValueError, ValueError, 'contribution of seat 1 is negative: -5'),
    ('split_pots short', lambda: split_pots((10,5), (1,), 3, 0, 0), PokerDraw32ValueError, ValueError, 'strengths must have 2 entries (one per seat),'),
    ('split_pots first 9', lambda: split_pots((10,5), (1,2), 3, 0, 9), PokerDraw32ValueError, ValueError, 'first seat 9 is outside 0..1'),
    ('Rules sb 0', lambda: Rules(sb=0), RulesError, ValueError, 'sb=0 must be a positive number of chips [R3.2'),
    ("Rules sb 'x'", lambda: Rules(sb="x"), RulesError, ValueError, "sb='x' is not an integer number of chips [R3."),
    ('Rules structure x', lambda: Rules(structure="x"), RulesError, ValueError, "unknown structure 'x': use no-limit, pot-limi"),
    ("Rules parole 'x'", lambda: Rules(parole="x"), RulesError, ValueError, "option parole='x' must be True or False"),
    ('Rules srf', lambda: Rules(second_round_first=5), RulesError, ValueError, 'unknown second_round_first 5: use after_large'),
    ('Rules.from_options 5', lambda: Rules.from_options(5), RulesError, ValueError, 'rules options must be a dict, got 5'),
    ('Rules.from_options bad', lambda: Rules.from_options({"sb": "x"}), RulesError, ValueError, "sb='x' is not an integer number of chips [R3."),
    ('Rules.preset 5', lambda: Rules.preset(5), RulesError, ValueError, 'unknown preset 5: use one of classic, two-bli'),
    ('Rules blinds 9', lambda: Rules().blinds(9), RulesError, ValueError, 'a hand needs 2 to 5 players, got 9 [R3.1]'),
    ('Rules hash structure list', lambda: Rules(structure=["x"]), RulesError, ValueError, "unknown structure ['x']: use no-limit, pot-li"),
    ('Hand rules junk', lambda: Hand(5, [100,100], 0), RulesError, ValueError, 'rules must be a Rules object, got int'),
    ('Hand stacks str', lambda: Hand(Rules(), "ab", 0), RulesError, ValueError, 'stacks must be a list or tuple of chip counts'),
    ('Hand stacks float', lambda: Hand(Rules(), [100.0, 100], 0), RulesError, ValueError, 'seat 0: stack 100.0 is not an integer number '),
    ('Hand deck junk', lambda: Hand(Rules(), [100,100], 0, deck="Ah"), DealError, ValueError, 'a stacked deck must hold all 32 cards, got 1'),
    ('Hand deck int', lambda: Hand(Rules(), [100,100], 0, deck=5), InvalidCardError, ValueError, 'bad cards 5: expected a string or an iterable'),
    ('Hand posts junk', lambda: Hand(Rules(), [100,100,100], 0, posts={0: "ab"}), RulesError, ValueError, 'posts: seat 0 must post (live, dead) chips, g'),
    ('Hand posts neg', lambda: Hand(Rules(), [100,100,100], 0, posts={0: (-1, 0)}), RulesError, ValueError, 'posts: seat 0: live -1 is not a number of chi'),
    ('act junk str', lambda: H().act("zzz"), IllegalActionError, ValueError, "unknown action 'zzz': use f (fold), k or x (c"),
    ('act int', lambda: H().act(5), IllegalActionError, ValueError, 'expected an Action, got int'),
    ('act None', lambda: H().act(None), IllegalActionError, ValueError, 'expected an Action, got NoneType'),
    ("act 'r x'", lambda: H().act("r x"), IllegalActionError, ValueError, "raise needs a whole number of chips, got 'x'"),
    ("act 'r 1.5'", lambda: H().act("r 1.5"), IllegalActionError, ValueError, "raise needs a whole number of chips, got '1.5"),
    ("act 'b'", lambda: H().act("b"), IllegalActionError, ValueError, "bet needs a whole number of chips, got ''"),
    ("act seat 'x'", lambda: H().act("f", seat="x"), IllegalActionError, ValueError, "no seat 'x' at this table (seats 0..2)"),
    ('act seat 9', lambda: H().act("f", seat=9), IllegalActionError, ValueError, 'no seat 9 at this table (seats 0..2)'),
    ("raise_to 'x'", lambda: H().raise_to("x"), IllegalActionError, ValueError, "raise amount 'x' is not an integer number of "),
    ('raise_to None', lambda: H().raise_to(None), IllegalActionError, ValueError, 'raise amount None is not an integer number of'),
    ('raise_to -2**64', lambda: H().raise_to(-2**64), IllegalActionError, ValueError, 'raise amount <int of 65 bits> is negative: an'),
    ('raise_to -2**53', lambda: H().raise_to(-2**53), IllegalActionError, ValueError, 'raise amount -9007199254740992 is negative: a'),
    ('raise_to 2**53', lambda: H().raise_to(2**53), IllegalActionError, ValueError, 'raise amount 9007199254740992 is beyond the l'),
    ('raise_to 1.5', lambda: H().raise_to(1.5), IllegalActionError, ValueError, 'raise amount 1.5 is not an integer number of '),
    ('bet 10', lambda: H().bet(10), IllegalActionError, ValueError, 'seat 0 cannot bet: there is already a bet of '),
    ('discard in betting', lambda: H().discard("Ah"), IllegalActionError, ValueError, 'seat 0 cannot discard outside the draw (allow'),
    ('discard junk', lambda: H().discard("zz"), InvalidCardError, ValueError, "bad card 'zz': expected a rank (7 8 9 T/10 J "),
    ('discard 5', lambda: H().discard(5), InvalidCardError, ValueError, 'bad cards 5: expected a string or an iterable'),
    ('fold seat -1', lambda: H().fold(-1), IllegalActionError, ValueError, 'no seat -1 at this table (seats 0..2)'),
    ('hole_cards 9', lambda: H().hole_cards(9), IllegalActionError, ValueError, 'no seat 9 at this table (seats 0..2)'),
    ("hole_cards 'x'", lambda: H().hole_cards("x"), IllegalActionError, ValueError, "no seat 'x' at this table (seats 0..2)"),
    ('view 9', lambda: H().view(9), IllegalActionError, ValueError, 'no seat 9 at this table (seats 0..2)'),
    ("view 'x'", lambda: H().view("x"), IllegalActionError, ValueError, "no seat 'x' at this table (seats 0..2)"),
    ('events_for 9', lambda: H().events_for(9), IllegalActionError, ValueError, 'no seat 9 at this table (seats 0..2)'),
    ('events_for start -1', lambda: H().events_for(0, -1), IllegalActionError, ValueError, 'start -1 is not an event index 0..5'),
    ('deal when none', lambda: H().deal("Ah"), DealError, ValueError, 'no deal is pending'),
    ('determinize 9', lambda: H().determinize(9), IllegalActionError, ValueError, 'no seat 9 at this table (seats 0..2)'),
    ('determinize seed x', lambda: H().determinize(0, seed="x"), PokerDraw32TypeError, TypeError, 'seed must be an int or None, not str'),
    ('Hand.restore 5', lambda: Hand.restore(5), SnapshotError, ValueError, 'a snapshot is a JSON object, got int'),
    ('Hand.restore {}', lambda: Hand.restore({}), SnapshotError, ValueError, 'not a hand snapshot: format is None, expected'),
    ('Action.parse 5', lambda: Action.parse(5), IllegalActionError, ValueError, 'an action text must be a string, got 5'),
    ('Action.parse zz', lambda: Action.parse("zz"), IllegalActionError, ValueError, "unknown action 'zz': use f (fold), k or x (ch"),
    ('HandHistory.loads 5', lambda: pd.HandHistory.loads(5), PokerDraw32TypeError, TypeError, 'a hand history must be text (str), not int'),
    ('HandHistory.loads junk', lambda: pd.HandHistory.loads("junk = ["), HistoryError, ValueError, 'not valid TOML: Invalid value (at end of docu'),
    ('HandHistory.loads empty', lambda: pd.HandHistory.loads(""), HistoryError, ValueError, 'expected one hand, the file has 0 (read a .ph'),
    ('HandHistory.loads bytes', lambda: pd.HandHistory.loads(b"x"), PokerDraw32TypeError, TypeError, 'a hand history must be text (str), not bytes'),
    ('equity junk', lambda: pd.equity(5), InvalidCardError, ValueError, 'bad cards 5: expected a string or an iterable'),
    ('equity str', lambda: pd.equity("Ah"), InvalidCardError, ValueError, "a hand has exactly 5 cards, got 1: 'Ah' [R2]"),
    ('equity trials', lambda: pd.equity(["Ah Kh Qh Jh Th", "7s 7c 7d 8s 8c"], trials="x"), InvalidCardError, ValueError, "bad card 'Ah Kh Qh Jh Th': expected a rank (7"),
    ('equity trials neg', lambda: pd.equity(["Ah Kh Qh Jh Th", "7s 7c 7d 8s 8c"], trials=-1), InvalidCardError, ValueError, "bad card 'Ah Kh Qh Jh Th': expected a rank (7"),
    ('equity dup', lambda: pd.equity(["Ah Kh Qh Jh Th", "Ah 7c 7d 8s 8c"]), InvalidCardError, ValueError, "bad card 'Ah Kh Qh Jh Th': expected a rank (7"),
    ('draw_odds junk', lambda: pd.draw_odds(5), InvalidCardError, ValueError, 'bad cards 5: expected a string or an iterable'),
    ('draw_odds 4 cards', lambda: pd.draw_odds("Ah Kh Qh Jh"), InvalidCardError, ValueError, "a hand has exactly 5 cards, got 4: 'Ah Kh Qh "),
    ('Table rules junk', lambda: pd.Table(5), RulesError, ValueError, 'rules must be a Rules object, got 5'),
    ('Table seats 9', lambda: pd.Table(Rules(), seats=9), RulesError, ValueError, 'a table has 2 to 5 seats, got 9 [R3.1]'),
    ('Table seats x', lambda: pd.Table(Rules(), seats="x"), RulesError, ValueError, "a table has 2 to 5 seats, got 'x' [R3.1]"),
    ('Table join seat x', lambda: pd.Table(Rules()).join("x", "a", 100), TableError, ValueError, "no seat 'x' at this table (seats 0..4)"),
    ('Table join chips x', lambda: pd.Table(Rules()).join(0, "a", "x"), TableError, ValueError, "seat 0: 'x' is not a number of chips from 1 t"),
    ('Table join chips 1.5', lambda: pd.Table(Rules()).join(0, "a", 1.5), TableError, ValueError, 'seat 0: 1.5 is not a number of chips from 1 t'),
    ('Table join name 5', lambda: pd.Table(Rules()).join(0, 5, 100), TableError, ValueError, 'seat 0: a player name is 1 to 64 printable ch'),
    ('Table join chips neg', lambda: pd.Table(Rules()).join(0, "a", -5), TableError, ValueError, 'seat 0: -5 is not a number of chips from 1 to'),
    ('Table add_chips empty', lambda: pd.Table(Rules()).add_chips(0, 5), TableError, ValueError, 'seat 0 is empty'),
    ('Table sit_out empty', lambda: pd.Table(Rules()).sit_out(0), TableError, ValueError, 'seat 0 is empty'),
    ('Table leave x', lambda: pd.Table(Rules()).leave("x"), TableError, ValueError, "no seat 'x' at this table (seats 0..4)"),
    ('Table act no hand', lambda: pd.Table(Rules()).act(0, "f"), TableError, ValueError, 'no hand is running; start one with start_hand'),
    ('Table start no players', lambda: pd.Table(Rules()).start_hand(), TableError, ValueError, 'a hand needs at least 2 players with chips wh'),
    ('Table view 9', lambda: pd.Table(Rules()).view(9), TableError, ValueError, 'no seat 9 at this table (seats 0..4)'),
    ('Table seat 9', lambda: pd.Table(Rules()).seat(9), TableError, ValueError, 'no seat 9 at this table (seats 0..4)'),
    ('Table restore 5', lambda: pd.Table.restore(5), TableError, ValueError, "not a table snapshot: format 'int', expected "),
    ('Table restore {}', lambda: pd.Table.restore({}), TableError, ValueError, "not a table snapshot: format None, expected '"),
    ('Table.act seat x', lambda: T().act("x", "f"), TableError, ValueError, "no seat 'x' at this table (seats 0..4)"),
    ('Table.act 5', lambda: T().act(0, 5), IllegalActionError, ValueError, 'expected an Action, got int'),
    ('Table.act d 6h', lambda: T().act(0, "d 6h"), InvalidCardError, ValueError, "bad card '6h': rank 6 is not in the 32-card d"),
    ('Table.expire x', lambda: T().expire("x"), TableError, ValueError, "seat 'x' is not to act (seat 1 is)"),
    ('Table.view x', lambda: T().view("x"), TableError, ValueError, "no seat 'x' at this table (seats 0..4)"),
    ('Table.events_for start x', lambda: T().events_for(0, "x"), IllegalActionError, ValueError, "start 'x' is not an event index 0..4"),
    ('Table.leave 9', lambda: T().leave(9), TableError, ValueError, 'no seat 9 at this table (seats 0..4)'),
    ('Table.start_hand twice', lambda: T().start_hand(), TableError, ValueError, 'a hand is running; finish it first'),
    ('Table.add_chips mid-hand', lambda: T().add_chips(0, 10), TableError, ValueError, 'seat 0: chips may be added between hands only'),
    ('Table.restore junk', lambda: Table.restore({"version": 1}), TableError, ValueError, "not a table snapshot: format None, expected '"),
    ('Hand.restore list', lambda: Hand.restore([1]), SnapshotError, ValueError, 'a snapshot is a JSON object, got list'),
    ('Hand.deal 5', lambda: Hand(Rules(), [100, 100], 0, auto_deal=False).deal(5), InvalidCardError, ValueError, 'bad cards 5: expected a string or an iterable'),
    ('Hand.deal too few', lambda: Hand(Rules(), [100, 100], 0, auto_deal=False).deal("Ah"), DealError, ValueError, "seat 1 must receive 5 cards, got 1: 'Ah'"),
    ('Hand.determinize seed -1', lambda: H().determinize(0, seed=-1), PokerDraw32ValueError, ValueError, 'seed must be in 0 <= seed < 2**64, got -1'),
    ('HandHistory.loads list', lambda: HandHistory.loads(["x"]), PokerDraw32TypeError, TypeError, 'a hand history must be text (str), not list'),
    ('DrawOdds.option missing', lambda: pd.draw_odds("Ah Kh Qh Jh Th").option("7s"), PokerDraw32KeyError, KeyError, "no option discards '7s'"),
    ('Rules.replace sb x', lambda: Rules().replace(sb="x"), RulesError, ValueError, "sb='x' is not an integer number of chips [R3."),
    ('Event.from_dict 5', lambda: pd.Event.from_dict(5), SnapshotError, ValueError, 'an event must be a dict, got 5'),
    ('deal_many 2**41', lambda: deal_many(2**41), PokerDraw32ValueError, ValueError, 'n must be in 0 <= n <= 2**40, got 21990232555'),
    ('Rng.shuffle tuple', lambda: Rng(1).shuffle((1, 2)), PokerDraw32TypeError, TypeError, 'cards must be a list, not tuple'),
    ('Rng.spawn then below 0', lambda: Rng(1).spawn().below(0), PokerDraw32ValueError, ValueError, 'below() needs 1 <= n <= 2**32, got 0'),
    ('parse_cards_word ??', lambda: parse_cards_word("??"), PokerDraw32ValueError, ValueError, "unknown cards in '??'"),
    # pokerdraw32.history and odds: these raised AttributeError, TypeError, IndexError or a plain ValueError
    ('from_hand None', lambda: HandHistory.from_hand(None), PokerDraw32TypeError, TypeError, 'hand must be a Hand, not NoneType'),
    ('from_hand seats -1', lambda: HandHistory.from_hand(H(), seats=-1), PokerDraw32TypeError, TypeError, 'seats must be a list of 3 seat numbers, not int'),
    ("from_hand seats 'x'", lambda: HandHistory.from_hand(H(), seats="x"), PokerDraw32TypeError, TypeError, 'seats must be a list of 3 seat numbers, not str'),
    ("from_hand seats ['x']", lambda: HandHistory.from_hand(H(), seats=[1, 2, "x"]), PokerDraw32TypeError, TypeError, "seats[2] is 'x': a seat number is an int 1 to 99"),
    ('from_hand seats 0', lambda: HandHistory.from_hand(H(), seats=[0, 1, 2]), HistoryError, ValueError, 'seats[0] is 0: a seat number is 1 to 99'),
    ('from_hand seats 10**500', lambda: HandHistory.from_hand(H(), seats=[1, 2, 10**500]), HistoryError, ValueError, 'seats[2] is <int of 1661 bits>: a seat number is 1 to 99'),
    ('from_hand seats short', lambda: HandHistory.from_hand(H(), seats=[1, 2]), HistoryError, ValueError, 'seats [1, 2]: 3 distinct seat numbers, increasing'),
    ('from_hand players -1', lambda: HandHistory.from_hand(H(), players=-1), PokerDraw32TypeError, TypeError, 'players must be a list of 3 names, not int'),
    ("from_hand players 'x'", lambda: HandHistory.from_hand(H(), players="x"), PokerDraw32TypeError, TypeError, 'players must be a list of 3 names, not str'),
    ('from_hand players [1]', lambda: HandHistory.from_hand(H(), players=["a", "b", 1]), PokerDraw32TypeError, TypeError, 'players[2] is 1: a player name is a str'),
    ('from_hand players short', lambda: HandHistory.from_hand(H(), players=["a"]), HistoryError, ValueError, 'players: 1 names for 3 players, one per engine'),
    ('from_hand number 1.5', lambda: HandHistory.from_hand(H(), number=1.5), PokerDraw32TypeError, TypeError, 'number must be a str, an int or None, not float'),
    ('from_hand table 10**16', lambda: HandHistory.from_hand(H(), table=10**16), HistoryError, ValueError, 'table 10000000000000000 has more than 16 digits'),
    ('from_hand extra 5', lambda: HandHistory.from_hand(H(), extra=5), PokerDraw32TypeError, TypeError, 'extra must be a mapping of PHH fields, not int'),
    ('from_hand extra key 5', lambda: HandHistory.from_hand(H(), extra={5: 1}), PokerDraw32TypeError, TypeError, 'extra: field names are str, not 5'),
    ('from_hand extra actions', lambda: HandHistory.from_hand(H(), extra={"actions": []}), HistoryError, ValueError, "extra: field 'actions' is written by the histor"),
    ('from_hand extra unknown', lambda: HandHistory.from_hand(H(), extra={"x": 1}), HistoryError, ValueError, "extra: unknown field 'x' (user-defined fields st"),
    ('from_hand extra None value', lambda: HandHistory.from_hand(H(), extra={"_x": None}), PokerDraw32TypeError, TypeError, 'cannot write as TOML: '),
    ('from_document None', lambda: HandHistory.from_document(None), PokerDraw32TypeError, TypeError, "a hand's PHH fields must be a mapping (dict), no"),
    ('from_document int key', lambda: HandHistory.from_document({**HandHistory.from_hand(H()).to_document(), 1: 2}), HistoryError, ValueError, 'unknown field 1 (user-defined fields start with'),
    ('summary None', lambda: HandHistory.from_hand(H()).summary(None), PokerDraw32TypeError, TypeError, 'hand must be a Hand (this history replayed), no'),
    ('summary unfinished', lambda: HandHistory.from_hand(H()).summary(H()), HistoryError, ValueError, 'hand is not over: a summary is of a finished ha'),
    ('summary other n', lambda: HandHistory.from_hand(H()).summary(Hand(Rules(), [9, 9], 0)), HistoryError, ValueError, 'hand has 2 players, this history 3: summarise t'),
    ("HistoryWriter.write 'x'", lambda: pd.HistoryWriter(io.StringIO()).write("x"), PokerDraw32TypeError, TypeError, 'hand must be a Hand or a HandHistory, not str'),
    ('HistoryWriter.write None', lambda: pd.HistoryWriter(io.StringIO()).write(None), PokerDraw32TypeError, TypeError, 'hand must be a Hand or a HandHistory, not None'),
    ('HistoryWriter None', lambda: pd.HistoryWriter(None), PokerDraw32TypeError, TypeError, 'stream must be a text stream (with a write meth'),
    ('HistoryWriter bytes', lambda: pd.HistoryWriter(io.BytesIO()).write(folded()), PokerDraw32TypeError, TypeError, 'stream must take text (str): '),
    ('dumps_all None', lambda: pd.dumps_all(None), PokerDraw32TypeError, TypeError, 'histories must be an iterable of HandHistory, n'),
    ('dumps_all [None]', lambda: pd.dumps_all([None]), PokerDraw32TypeError, TypeError, 'histories[0] is a NoneType, not a HandHistory'),
    ('load_all None', lambda: pd.load_all(None), PokerDraw32TypeError, TypeError, 'path must be a str or an os.PathLike, not NoneTy'),
    ('load_all []', lambda: pd.load_all([]), PokerDraw32TypeError, TypeError, 'path must be a str or an os.PathLike, not list'),
    ('load_all bytes', lambda: pd.load_all(b"x.phh"), PokerDraw32TypeError, TypeError, 'path must be a str or an os.PathLike, not bytes'),
    ('load_all NUL', lambda: pd.load_all("\x00"), PokerDraw32ValueError, ValueError, "path '\\x00' holds a NUL character, which no fi"),
    ('load_all surrogate', lambda: pd.load_all("\ud800.phh"), PokerDraw32ValueError, ValueError, "path '\\ud800.phh' is not a valid file name: "),
    ('loads_all None', lambda: pd.loads_all(None), PokerDraw32TypeError, TypeError, 'a hand history must be text (str), not NoneType'),
    ('draw_odds discards 5', lambda: pd.draw_odds("Ah Kh Qh Jh 7s", discards=5), PokerDraw32TypeError, TypeError, "discards must be a list of discards, e.g. ['7c"),
]


@pytest.mark.parametrize(("call", "error", "builtin", "message"), [p[1:] for p in PROBES], ids=[p[0] for p in PROBES])
def test_bad_call_raises_the_package_error(call: Callable[[], Any], error: type[PokerDraw32Error],
                                           builtin: type[Exception], message: str) -> None:
    with pytest.raises(PokerDraw32Error) as info:
        call()
    assert type(info.value) is error
    assert isinstance(info.value, builtin)
    text = str(info.value) if not isinstance(info.value, KeyError) else info.value.args[0]
    assert text.startswith(message)


def test_hierarchy() -> None:
    assert issubclass(PokerDraw32TypeError, TypeError) and not issubclass(PokerDraw32TypeError, ValueError)
    assert issubclass(PokerDraw32ValueError, ValueError) and not issubclass(PokerDraw32ValueError, TypeError)
    assert issubclass(PokerDraw32KeyError, KeyError)
    for domain in (InvalidCardError, RulesError, IllegalActionError, DealError, HistoryError, SnapshotError,
                   TableError):
        assert issubclass(domain, PokerDraw32ValueError), domain
    for cls in (PokerDraw32TypeError, PokerDraw32ValueError, PokerDraw32KeyError):
        assert issubclass(cls, PokerDraw32Error)
    assert not issubclass(PokerDraw32Error, (TypeError, ValueError, KeyError))


@pytest.mark.parametrize("text", ["d 6h", "d Zz", "zzz", "r x", "r 1.5", "b", "", "r 99999999999999999999"])
def test_can_is_false_for_what_act_refuses(text: str) -> None:
    hand = H()
    assert hand.can(text) is False
    with pytest.raises(PokerDraw32Error):
        hand.act(text)
    assert hand.can("call") is True


def test_can_with_bad_seat_or_object() -> None:
    hand = H()
    for seat in ("x", 9, -1, True, 1.5):
        assert hand.can("call", seat) is False  # type: ignore[arg-type]
    for junk in (5, None, object(), b"call"):
        assert hand.can(junk) is False  # type: ignore[arg-type]


def test_load_all_of_a_missing_file_raises_when_called(tmp_path: Any) -> None:
    """FileNotFoundError (an OSError, documented) is raised by the call, not when the iteration starts."""
    with pytest.raises(FileNotFoundError):
        pd.load_all(tmp_path / "missing.phhs")
    path = tmp_path / "bad.phh"
    path.write_text("junk = [", encoding="utf-8")
    with pytest.raises(HistoryError, match="not valid TOML"):
        pd.load_all(path)                            # and its TOML is read by the call too
