"""Generate slice_ann.py (variant B, annotations-only style, no .pxd) from slice_pure.py:
same bodies, with the C declarations moved from slice_pure.pxd into decorators/annotations."""
src = open("slice_pure.py").read()
CF = "    @cython.cfunc\n    @cython.exceptval(check=False)\n"
CFI = "    @cython.cfunc\n    @cython.inline\n    @cython.exceptval(check=False)\n"
LL, I, B = "cython.longlong", "cython.int", "cython.bint"
subs = {
    "    def _setup(self, n, structure, cap, sb, bb, ob, second, dead):\n":
        CF + "    @cython.locals(first=cython.int, k=cython.int)\n"
        f"    def _setup(self, n: {I}, structure: {I}, cap: {I}, sb: {LL}, bb: {LL}, ob: {LL}, second: {B},\n"
        f"               dead: {LL}) -> cython.void:\n",
    "    def _post(self, seat, amount):\n":
        CF + f"    @cython.locals(paid={LL})\n    def _post(self, seat: {I}, amount: {LL}) -> cython.void:\n",
    "    def _log(self, kind, seat, amount):\n":
        CFI + f"    def _log(self, kind: {I}, seat: {I}, amount: {LL}) -> cython.void:\n",
    "    def _put(self, seat, chips):\n": CFI + f"    def _put(self, seat: {I}, chips: {LL}) -> cython.void:\n",
    "    def _pot(self):\n": CF + f"    def _pot(self) -> {LL}:\n",
    "    def _unit(self):\n": CF + f"    def _unit(self) -> {LL}:\n",
    "    def _no_actions(self):\n": CF + f"    def _no_actions(self) -> {B}:\n",
    "    def _needs_to_act(self, seat):\n": CF + f"    def _needs_to_act(self, seat: {I}) -> {B}:\n",
    "    def _advance(self, start, inclusive):\n":
        CF + f"    def _advance(self, start: {I}, inclusive: {B}) -> cython.void:\n",
    "    def _return_uncalled(self):\n":
        CF + f"    @cython.locals(extra={LL})\n    def _return_uncalled(self) -> cython.void:\n",
    "    def _answerable(self, p):\n": CF + f"    def _answerable(self, p: {I}) -> {B}:\n",
    "    def _raise_bounds(self, p):\n":
        CF + f"    @cython.locals(allin={LL}, target={LL}, lo={LL}, hi={LL}, pot_max={LL})\n"
        f"    def _raise_bounds(self, p: {I}) -> {B}:\n",
    "    def _compute_legal(self):\n":
        CF + f"    @cython.locals(p={I}, stack={LL}, owe={LL}, kinds={I})\n"
        "    def _compute_legal(self) -> cython.void:\n",
    "    def act(self, kind, amount):\n":
        "    @cython.ccall\n    @cython.exceptval(check=False)\n"
        f"    @cython.locals(p={I}, chips={LL})\n    def act(self, kind: {I}, amount: {LL}) -> {I}:\n",
    "    def _mark_acted(self, p):\n": CFI + f"    def _mark_acted(self, p: {I}) -> cython.void:\n",
    "    def _raise(self, p, kind, to):\n":
        CF + f"    @cython.locals(inc={LL}, unit={LL}, full={B})\n"
        f"    def _raise(self, p: {I}, kind: {I}, to: {LL}) -> cython.void:\n",
    "def _lcg(x):\n": f"@cython.cfunc\n@cython.inline\n@cython.exceptval(check=False)\ndef _lcg(x: {LL}) -> {LL}:\n",
    "def play(rounds, seed, policy):\n":
        f"@cython.ccall\n@cython.exceptval(-1, check=True)\n"
        f"@cython.locals(r='Round', x={LL}, check={LL}, k={I}, n={I}, i={I}, structure={I}, second={I}, sb={LL},\n"
        f"               bb={LL}, ob={LL}, kinds={I}, kind={I}, amount={LL})\n"
        f"def play(rounds: {I}, seed: {LL}, policy: {I}) -> {LL}:\n",
    "class Round:\n    \"\"\"One betting round at 2-5 seats (state as in hand.Hand).\"\"\"\n":
        "@cython.final\n@cython.cclass\nclass Round:\n    \"\"\"One betting round at 2-5 seats (state as in hand.Hand).\"\"\"\n\n"
        "    n = cython.declare(cython.int, visibility='readonly')\n"
        "    actor = cython.declare(cython.int, visibility='readonly')\n"
        "    phase = cython.declare(cython.int, visibility='readonly')\n"
        "    aggressor = cython.declare(cython.int, visibility='readonly')\n"
        "    log_len = cython.declare(cython.int, visibility='readonly')\n"
        "    structure: cython.int\n    cap: cython.int\n    bet_count: cython.int\n    reopen_serial: cython.int\n"
        "    legal_key: cython.int\n    l_kinds: cython.int\n"
        "    to_match: cython.longlong\n    raise_size: cython.longlong\n    full_level: cython.longlong\n"
        "    largest: cython.longlong\n    dead: cython.longlong\n    l_call: cython.longlong\n"
        "    l_lo: cython.longlong\n    l_hi: cython.longlong\n"
        "    stacks: cython.longlong[5]\n    bets: cython.longlong[5]\n    contrib: cython.longlong[5]\n"
        "    folded: cython.bint[5]\n    acted: cython.bint[5]\n    acted_serial: cython.int[5]\n"
        "    last_level: cython.longlong[5]\n    log: cython.longlong[1024]\n",
}
for a, b in subs.items():
    assert src.count(a) == 1, a
    src = src.replace(a, b)
# module constants become C globals (typed), as the .pxd did
import re

src = re.sub(r"^( *)([A-Z_][A-Z_0-9]*) = (\d+)", r"\1\2 = cython.declare(cython.int, \3)", src, flags=re.M)
src = src.replace("if not cython.compiled:\n    # action kinds", "if True:  # C globals when compiled (cython.declare), not exported to Python\n    # action kinds")
src = src.replace("Variant B: the betting-round slice", "Variant B2 (annotations only, no .pxd): the betting-round slice")
open("slice_ann.py", "w").write(src)
# B2 has no enum: the constants are C globals (cython.declare) at module level, not exported
src = open("slice_ann.py").read()
a = src.index("# Constants:")
b = src.index("\n\n\n@cython.final")
block = src[a:b].split("\n")
out = ["# Constants: C globals when compiled (cython.declare); NOT visible from Python when compiled."]
for line in block[3:]:
    out.append(line[4:] if line.startswith("    ") else line)
src = src[:a] + "\n".join(out) + src[b:]
open("slice_ann.py", "w").write(src)
