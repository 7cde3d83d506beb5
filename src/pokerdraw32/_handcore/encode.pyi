# Types of pokerdraw32._handcore.encode (and of its compiled build encode_c): the .py is written in
# Cython's pure-Python mode without annotations (Cython would read them as C types).
from typing import Any

from ..errors import IllegalActionError
from .state import HandCore

FOLD: int
CHECK_CALL: int
SPLIT: int
DECLINE: int
BET0: int
DISCARDS: int
MAX_BUCKETS: int
OBS_CARDS: int
OBS_PHASE: int
OBS_POSITION: int
OBS_PLAYERS: int
OBS_STRUCTURE: int
OBS_POT: int
OBS_TO_MATCH: int
OBS_CALL: int
OBS_MIN_TO: int
OBS_MAX_TO: int
OBS_BET_COUNT: int
OBS_PAROLE: int
OBS_SEATS: int
SEAT_FEATURES: int
OBS_SIZE: int
SEAT_PRESENT: int
SEAT_IN_HAND: int
SEAT_FOLDED: int
SEAT_ALL_IN: int
SEAT_TO_ACT: int
SEAT_BUTTON: int
SEAT_STACK: int
SEAT_BET: int
SEAT_CONTRIB: int
SEAT_DRAWN: int
SEAT_SPLIT: int
SEAT_LAST: int
SEAT_LAST_AMOUNT: int
DEFAULT_BUCKETS: tuple[float, ...]

def action_count(buckets: Any) -> int: ...
def observe(h: HandCore, seat: int, out: Any, scale: float) -> int: ...
def view_core(seat: int, n: int, button: int, rules: Any, phase: int, actor: int, hole: Any, stacks: Any,
              bets: Any, contrib: Any, dead: int, folded: Any, discarded: Any, offer_open: bool, votes: int,
              to_match: int, bet_count: int, actions: Any, kinds: int, call: int, lo: int, hi: int) -> HandCore: ...
def bucket_view(buckets: Any) -> Any: ...
def action_mask(h: HandCore, out: Any, buckets: Any) -> int: ...
def decode_action(h: HandCore, index: int, buckets: Any) -> int: ...
def apply_action(h: HandCore, index: int, buckets: Any) -> int: ...
def action_name(index: int, buckets: Any) -> str: ...
def action_error(hand: Any, index: int, buckets: Any) -> IllegalActionError: ...
SPIEL_CHANCE: int
SPIEL_TERMINAL: int

def spiel_player(h: HandCore) -> int: ...
def deal_outcomes(h: HandCore, dealing: int, table: list[list[tuple[int, float]]]) -> list[tuple[int, float]]: ...
def deal_card(h: HandCore, dealing: int, code: int) -> int: ...
def spiel_legal(h: HandCore, buckets: Any, dealing: int) -> list[int]: ...
def spiel_act(h: HandCore, index: int, buckets: Any) -> int: ...
def spiel_apply(h: HandCore, buckets: Any, dealing: int, action: int, own: list[list[tuple[int, int]]]) -> int: ...
