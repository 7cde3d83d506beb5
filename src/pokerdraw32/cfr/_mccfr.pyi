# Types of pokerdraw32.cfr._mccfr (and of its compiled build pokerdraw32.cfr._mccfr_c): the .py is written in
# Cython's pure-Python mode without annotations (Cython would read them as C types).
from array import array
from collections.abc import Sequence

F_PHASE: int
F_ACTOR: int
F_C0: int
F_C1: int
F_BASE: int
F_INC: int
F_NRAISE: int
F_ACTED: int
F_SPLITS: int
F_RACTS: int
F_FOLDED: int
F_HIST: int
F_NH: int
F_H0: int
F_H1: int
F_POS: int
F_SHARED: int
F_D0: int
F_D1: int
F_I0: int
F_I1: int
NF: int
PH_FIRST: int
PH_DRAW: int
PH_SECOND: int
PH_END: int
MAXD: int
NSLOT: int

def hand_index(mask: int) -> int: ...
def draw_discard(mask: int, k: int, ruled: int) -> int: ...

class Solver:
    nb: int
    cap: int
    parole: bool
    fixed: bool
    sb: int
    bb: int
    s0: int
    s1: int
    seed: int
    t: int
    count: int
    used: int
    mask: int
    nodes: int
    outcome: bool
    eps: float
    def __init__(self, fm: Sequence[int], cap: int, parole: bool, sb: int, bb: int, s0: int, s1: int,
                 pre: array[int], post: array[int], val: array[int], ruled: array[int], seed: int,
                 fixed: bool = ...) -> None: ...
    def _set_tables(self, keys: array[int], offs: array[int], reg: array[float], strat: array[float]) -> int: ...
    shared: bool
    pruning: bool
    prune_after: int
    prune_chips: float
    lost: int
    def add(self, other: Solver, scale: float) -> int: ...
    def counters(self) -> array[int]: ...
    def share(self, other: Solver) -> int: ...
    def reserve(self, keys: int, values: int) -> int: ...
    def run_shared(self, target: int) -> int: ...
    def tables(self) -> tuple[array[int], array[int], array[float], array[float]]: ...
    def set_deck(self, cards: Sequence[int]) -> int: ...
    def row(self, d: int) -> tuple[int, ...]: ...
    def set_row(self, d: int, values: Sequence[int]) -> int: ...
    def amount(self, d: int, slot: int) -> int: ...
    def shuffle(self) -> int: ...
    def start(self, d: int) -> int: ...
    def legal(self, d: int) -> int: ...
    def child(self, d: int, slot: int) -> int: ...
    def utility(self, d: int) -> int: ...
    def key(self, d: int) -> int: ...
    def run(self, iterations: int) -> int: ...
