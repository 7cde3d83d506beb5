# Types of pokerdraw32.cfr._bucketgame (and of its compiled build pokerdraw32.cfr._bucketgame_c): the .py is written
# in Cython's pure-Python mode without annotations (Cython would read them as C types).
from array import array

SUBSETS: int
K_BET: int
K_DRAW: int
K_FIXED: int
K_SHOWDOWN: int

def subset_counts(buckets: array[int], nb: int, out: array[int]) -> int: ...
def pair_counts(nsub: array[int], nb: int, out: array[int]) -> int: ...
def draw_counts(pre: array[int], post: array[int], ruled: array[int], nsub: array[int], npre: int, npost: int,
                lo: int, hi: int, out: array[int]) -> int: ...
def copy_rows(sig: array[float], probs: array[float], dst: array[int], src: array[int], cnt: array[int]) -> int: ...

class Walker:
    npre: int
    npost: int
    S: int
    resp: int
    profile: bool
    nodes: int
    def __init__(self, npre: int, npost: int, depth: int, kind: array[int], actor: array[int], drawn: array[int],
                 kid0: array[int], nk: array[int], kids: array[int], soff: array[int], pay: array[int],
                 pp: array[float], tr: array[float]) -> None: ...
    def run(self, sig: array[float], resp: int, profile: bool) -> float: ...
    def value(self, i: int) -> float: ...
