"""The ``pokerdraw32`` command: ``simulate``, ``eval``, ``odds``, ``play``, ``replay`` and ``rules``.

Run ``pokerdraw32 --help`` or ``pokerdraw32 COMMAND --help``.  Every subcommand ends with one
exit status of :data:`EXIT_CODES` (also in ``pokerdraw32 --help`` and the documentation's
"Command line" page): 0 success, 1 the input was refused (cards, hand histories, files; the
message names the rule), 2 usage error (the command line: argparse's own code, also for an option
value out of range, checked before any output), 130 interrupted (Ctrl-C), 141 standard output
closed or a broken pipe.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .._kernels import IMPLEMENTATION, Rng
from .._version import __version__
from ..cards import format_cards
from ..errors import MAX_CHIPS, PokerDraw32Error, shown
from ..evaluation import evaluate
from ..history import MAX_HISTORY_BYTES, load_all
from ..odds import POLICIES, EquityTable, draw_odds, equity
from ..parallel import default_workers
from ..phh import Where
from ..rulebook import rule_text
from ..rules import PRESETS, Rules, Structure
from ..simulate import CHUNK, SimulationInterrupted, SimulationResult, simulate, write_csv
from . import _exploit
from ._base import (
    EXIT_CODES,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_OUTPUT_GONE,
    EXIT_USAGE,
    _bot_name,
    _bots_spec,
    _rules_from,
    _write,
)
from ._play import _cmd_play

__all__ = ["EXIT_CODES", "MAX_TRIALS", "build_parser", "main"]


MAX_TRIALS = 10_000_000
"""Largest ``odds --trials``: trials per discard (the library's :func:`~pokerdraw32.odds.equity`
allows more); 31 discards of 10 million trials take minutes with the compiled kernels."""

_EPILOG = "exit status:\n" + "\n".join(f"  {code:>3}  {text}" for code, text in EXIT_CODES.items()) + (
    "\n\nError messages cite rules as [R3.4]: 'pokerdraw32 rules R3.4' prints the rule.")


class _Parser(argparse.ArgumentParser):
    """argparse, writing its messages where :func:`main` points ``sys.stdout``/``sys.stderr``,
    and never failing on a closed stream (the exit status says what happened)."""

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:
            _write(file, message)           # None: the stream is closed


def _int_in(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number in ``low..high`` (``high`` None: no upper bound)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{shown(value)} is out of range: {what}")
        return value

    return parse


def _float_in(low: float, high: float, what: str, *, closed: bool) -> Callable[[str], float]:
    """An argparse type: a number with ``low <= x < high`` (``closed``) or ``low < x < high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a number") from None
        if not (low <= value < high if closed else low < value < high):     # also refuses nan
            raise argparse.ArgumentTypeError(f"{shown(text)} is out of range: {what}")
        return value

    return parse


_BOT_NAMES_HELP = ("rule (rule-based), random (uniformly random), the test bots call, shove, fold and maniac (pot-size "
                   "raises), cfr (the heads-up blueprint) or any other registered name (pokerdraw32.bots.bot_names)")
_PLAYERS = _int_in(2, 5, "a table deals 2 to 5 players [R3.1]")
_SEED = _int_in(0, 2**64 - 1, "a seed is 0 <= S < 2**64 [R11.1]")
_CHIPS = _int_in(1, MAX_CHIPS, f"chips are whole numbers from 1 to {MAX_CHIPS} [R3.2]")


def _add_table_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=_PLAYERS, default=5, metavar="N",
                   help="players at the table, 2-5 (default %(default)s)")
    p.add_argument("--seed", type=_SEED, default=None, metavar="S",
                   help="seed (0 <= S < 2**64) for a reproducible run; default: from the OS")
    p.add_argument("--structure", choices=[s.value for s in Structure], default="no-limit",
                   help="betting structure (default %(default)s)")
    p.add_argument("--preset", choices=list(PRESETS), default="classic", help="rules preset (default %(default)s)")
    p.add_argument("--sb", type=_CHIPS, default=None, metavar="CHIPS",
                   help="small blind in chips (bb = 2 sb, ob = 2 bb; default 1)")
    p.add_argument("--stack", type=_CHIPS, default=None, metavar="CHIPS",
                   help="starting stack and re-buy in chips, any amount from 1 (default 100 big blinds; "
                        "the table's R10.1 buy-in limits are widened to it, so short and deep stacks can be studied)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``pokerdraw32`` command."""
    parser = _Parser(prog="pokerdraw32", description="32-Card Draw engine: simulate, evaluate, play.",
                     epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version",
                        version=f"pokerdraw32 {__version__} ({IMPLEMENTATION} kernels)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sim = sub.add_parser(
        "simulate", help="bots play many hands: win rates in bb/100 with 95%% confidence intervals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Bots play H hands; each bot's win rate is reported in big blinds per 100 hands with a 95% "
                    "confidence interval.\n\n"
                    "--mode reset (the default) starts every hand from the starting stacks, the button moving one "
                    "seat each hand: hands are independent samples, the standard way to measure bots, and the "
                    "interval is valid. --mode session plays table sessions instead (R4.1 button and blinds, R10 "
                    "buy-ins, missed blinds and the ledger; busted bots re-buy; --sit-out): closer to a real game, "
                    "but its hands are not independent, so its interval is only indicative.\n\n"
                    "--duplicate plays each deal once per seat rotation (every bot gets every seat's cards and "
                    "position), so the luck of the cards cancels.\n\n"
                    "The run is cut into chunks of --chunk hands, chunk i seeded from --seed and i: the same seed "
                    "gives the same results (everything in --json but \"run\") with any --workers, on a Dask "
                    "cluster (--scheduler) and with compiled or pure kernels. Ctrl-C stops the run and reports the "
                    "finished chunks.")
    _add_table_options(sim)
    sim.add_argument("--hands", type=_int_in(1, None, "play at least one hand"), default=1000, metavar="H",
                     help="hands to play (default %(default)s; with --duplicate rounded up to whole deals)")
    sim.add_argument("--bots", type=_bots_spec, default="mixed", metavar="mixed|NAME|B1,B2,...",
                     help="a bot name for every seat: " + _BOT_NAMES_HELP + "; or mixed: rule and random "
                          "alternating (default %(default)s); or one bot per seat, comma-separated, each a bot name "
                          "or an import spec module:attr naming a bot class (a pokerdraw32.bots.Bot subclass gets "
                          "the seat's seed, any other class no argument), a bot object or a function view -> action")
    sim.add_argument("--mode", choices=["reset", "session"], default="reset",
                     help="reset: every hand from the starting stacks (default: independent hands, a valid "
                          "interval); session: table sessions with re-buys")
    sim.add_argument("--duplicate", action="store_true",
                     help="duplicate deals: each deal played once per seat rotation (--mode reset)")
    sim.add_argument("--sit-out", type=_float_in(0, 1, "a probability, 0 <= P < 1", closed=True), default=0.0,
                     metavar="P",
                     help="--mode session: before each hand a bot sits out with probability P and one away returns "
                          "with probability 1/2, paying its missed blinds (R10.3) (default %(default)s)")
    sim.add_argument("--workers", type=_int_in(1, 1024, "1 to 1024 workers"), default=None, metavar="N",
                     help=f"chunks played at once (default: every core, here {default_workers()}); threads when "
                          "every bot is rule or random, nobody sits out, no AIVAT, and the kernels are compiled "
                          "(their play releases the GIL), else processes")
    sim.add_argument("--scheduler", default=None, metavar="ADDRESS",
                     help="run the chunks on a Dask cluster (tcp://host:8786; needs pokerdraw32[dask])")
    sim.add_argument("--chunk", type=_int_in(1, None, "at least 1 hand"), default=CHUNK, metavar="H",
                     help="hands per chunk (default %(default)s); part of what the seed reproduces")
    sim.add_argument("--estimator", choices=["plain", "aivat"], default="plain",
                     help="plain: each bot's mean result (default); aivat: a variance-reduced, unbiased estimate "
                          "(control variates for the deal, the draw and the rule and random bots' decisions; "
                          "--mode reset; needs numpy: pokerdraw32[aivat]); the plain figures are printed too")
    sim.add_argument("--samples", type=_int_in(1, 100_000, "1 to 100,000 outcomes"), default=None, metavar="K",
                     help="--estimator aivat: outcomes each sampled expectation takes (default 128)")
    sim.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    sim.add_argument("--csv", default=None, metavar="FILE",
                     help="write one row per chunk and bot (chips, sum of squares, showdowns) to FILE")
    sim.add_argument("--plot", default=None, metavar="FILE.png",
                     help="plot each bot's cumulative winnings with its 95%% band (needs pokerdraw32[plot])")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    sim.add_argument("--history", default=None, metavar="FILE.phhs",
                     help="write every hand to FILE as PHH hand histories (replay them with 'pokerdraw32 replay')")

    ev = sub.add_parser("eval", help="evaluate 5-card hands (R2)",
                        description="Category, kernel value and description of each hand, best first.")
    ev.add_argument("hands", nargs="+", metavar="CARDS", help='a hand, e.g. "Ah Kd 7c 8s 9h" or AhKd7c8s9h')
    ev.add_argument("--no-suit-tiebreak", action="store_true", help="R2.4 off: equal ranks tie")
    ev.add_argument("--json", action="store_true", help="print JSON on stdout")

    odds = sub.add_parser("odds", help="exact draw odds of every discard (R6.1); Monte Carlo equity with --opponents",
                          description="For each of the 31 legal discards of a 5-card hand, enumerate every "
                                      "replacement from the unseen cards: exact probability of each final "
                                      "category and expected final strength (mean percentile among all "
                                      "201,376 hands), best first.")
    odds.add_argument("hand", metavar="CARDS", help='the hand, e.g. "Ah Ad 7c 8s 9d"')
    odds.add_argument("--dead", default="", metavar="CARDS",
                      help='cards known to be out and not drawable, e.g. "Kc Kd"')
    odds.add_argument("--top", type=_int_in(1, None, "show at least one discard"), default=None, metavar="N",
                      help="show only the N best discards")
    odds.add_argument("--no-suit-tiebreak", action="store_true", help="R2.4 off: equal ranks tie")
    odds.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    mc = odds.add_argument_group(
        "Monte Carlo equity (with --opponents)",
        "Play each discard out against K random hands that draw by a policy, through the draw with stub "
        "exhaustion and reshuffle (R6.2) to the showdown: equity (mean pot share) with a Wilson confidence "
        "interval, highest first. With --top N only the N discards of best expected strength are simulated.")
    mc.add_argument("--opponents", type=_int_in(1, 4, "1 to 4 opponents, 2 to 5 players are dealt in [R3.1]"),
                    default=None, metavar="K", help="number of opponents, 1-4 (R3.1)")
    mc.add_argument("--trials", type=_int_in(1, MAX_TRIALS, f"1 to {MAX_TRIALS:,} trials per discard"), default=None,
                    metavar="N", help=f"trials per discard, 1 to {MAX_TRIALS:,} (default 10000)")
    mc.add_argument("--seed", type=_SEED, default=None, metavar="S",
                    help="seed (0 <= S < 2**64) for a reproducible run; default: from the OS, and printed")
    mc.add_argument("--policy", choices=list(POLICIES), default=None,
                    help="how the opponents draw: " + "; ".join(f"{k}: {v}" for k, v in POLICIES.items())
                    + " (default rule)")
    mc.add_argument("--position", type=_int_in(0, 4, "0 (first) to K (last) [R6.1]"), default=None, metavar="P",
                    help="your place in the draw order, 0 (first, left of the button; default) to K (last, the button)")
    mc.add_argument("--folded", type=_int_in(0, 3, "0 to 3; 1 + K + F <= 5 [R3.1]"), default=None, metavar="F",
                    help="players who folded before the draw, cards unknown (default 0; 1 + K + F <= 5)")
    mc.add_argument("--reshuffle-folded", action="store_true",
                    help="folded hands join the discard pile that is reshuffled when the stub runs out (R6.2 option)")
    mc.add_argument("--discard", default=None, metavar="CARDS",
                    help='simulate this discard only, e.g. "7c 8s 9d" ("pat" or "" stands pat)')
    mc.add_argument("--confidence", type=_float_in(0, 1, "a level between 0 and 1, e.g. 0.95", closed=False),
                    default=None, metavar="C", help="interval level (default 0.95)")

    play = sub.add_parser("play", help="play against bots in the terminal",
                          description="You play seat 0 against bots; you see only your own cards.")
    _add_table_options(play)
    play.set_defaults(players=None)            # 3; 2 with --opponent (_check_play)
    for action in play._actions:
        if action.dest == "players":
            action.help = "players at the table, 2-5 (default 3) or, with --opponent, 2"
    play.add_argument("--hands", type=_int_in(1, None, "play at least one hand"), default=None, metavar="H",
                      help="stop after H hands (default: until q)")
    play.add_argument("--bots", type=_bot_name, default=None, metavar="NAME",
                      help="the bots' name (default rule): " + _BOT_NAMES_HELP)
    play.add_argument("--opponent", type=_bot_name, default=None, metavar="NAME",
                      help="play heads-up against this bot (--players 2 --bots NAME), e.g. cfr")

    rep = sub.add_parser("replay", help="replay PHH hand histories (.phh, .phhs) through the engine",
                         description="Replay every hand of each file through the engine, checking every field and "
                                     "action, and print its finishing stacks in position order (p1 first). The "
                                     "first invalid hand stops the replay with exit status 1 and a message naming "
                                     "the file, the hand and the action index. An empty file is an error, and so "
                                     f"is a file larger than {MAX_HISTORY_BYTES // 2**20} MiB.")
    rep.add_argument("files", nargs="+", metavar="FILE", help="a .phh (one hand) or .phhs (numbered hands) file")
    rep.add_argument("--json", action="store_true",
                     help="one JSON object per hand: file, hand, finishing_stacks, pots, winners (positions 1..n)")
    rb = sub.add_parser("rules", help="print the rule book, a section or one rule (error messages cite [R3.4])",
                        description="Print RULES.md, the rule book the engine implements, as shipped in the "
                                    "package: all of it, one section (R3) or one rule with its sub-bullets (R3.4).")
    rb.add_argument("rule", nargs="?", default=None, metavar="ID", help="a section (R1 .. R11) or rule (R3.4) id")
    _exploit.add_parser(sub, _int_in, _SEED, _Parser)
    srv = sub.add_parser(
        "serve", help="run the game server: tables over WebSocket, a browser table page (extra [server])",
        description="Serve tables (default: three tables with bots) over the WebSocket protocol of PROTOCOL.md at "
                    "ws://HOST:PORT/ws, with a browser table page at http://HOST:PORT/. Every accepted action is "
                    "committed to the database before anyone is told; a restarted server continues every hand. "
                    "With --db postgresql://..., any number of server processes (on one machine or many) serve "
                    "the same tables: each table is owned by one process at a time, a client may connect to any, "
                    "and the tables of a process that dies are taken over by the others. "
                    "Needs pip install 'pokerdraw32[server]'.")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    srv.add_argument("--port", type=_int_in(0, 65535, "a TCP port 0..65535"), default=8032,
                     help="TCP port (default %(default)s)")
    srv.add_argument("--db", default="pokerdraw32.sqlite", metavar="URL",
                     help="SQLite file (default %(default)s; WAL, synchronous=FULL) or postgresql://user@host/db")
    srv.add_argument("--tables", default=None, metavar="FILE",
                     help="JSON list of tables to open (id, title, rules, seats, bots, decision_time, raise_time, "
                          "time_bank, bank_refill, min_buy_in, max_buy_in, seed); tables already in the database "
                          "are restored from it")
    srv.add_argument("--hand-pause", type=_seconds_arg, default=3.0, metavar="S",
                     help="seconds between hands (default %(default)s)")
    srv.add_argument("--bot-delay", type=_seconds_arg, default=0.8, metavar="S",
                     help="a bot's thinking time in seconds (default %(default)s)")
    srv.add_argument("--grace", type=_seconds_arg, default=60.0, metavar="S",
                     help="seconds a disconnected player keeps their place before being sat out (default %(default)s)")
    srv.add_argument("--away-limit", type=_seconds_arg, default=600.0, metavar="S",
                     help="seconds a player sat out by the grace period may stay disconnected before they leave, "
                          "paid out, freeing the seat (default %(default)s)")
    srv.add_argument("--max-message", type=_int_in(256, 1 << 20, "256 .. 1048576 bytes"), default=4096, metavar="B",
                     help="largest client message in bytes (default %(default)s)")
    srv.add_argument("--rate", type=_int_in(1, 10_000, "1 .. 10000 messages a second"), default=20, metavar="N",
                     help="messages a second per connection (default %(default)s; bursts of twice that)")
    srv.add_argument("--compression", dest="compression", action="store_true", default=False,
                     help="offer WebSocket compression (permessage-deflate): about a tenth of the bytes on the "
                          "wire for about 10 us more server CPU per frame (its frames are 0.05-2 KB; for clients "
                          "on a slow network); off by default")
    srv.add_argument("--no-compression", dest="compression", action="store_false",
                     help="no WebSocket compression (the default)")
    srv.add_argument("--lease", type=_seconds_arg, default=3.0, metavar="S",
                     help="with --db postgresql://...: the lease of a server process on its tables, renewed six "
                          "times in it; when a process dies, others take its tables over after at most this long "
                          "(0.5 to 600; default %(default)s)")
    srv.add_argument("--log-level", choices=["debug", "info", "warning", "error"], default="info",
                     help="server log level (default %(default)s)")
    for command in (sim, ev, odds, play, rep, rb, srv):
        command.set_defaults(usage_error=command.error)       # for the checks argparse cannot make alone
    return parser


# --------------------------------------------------------------------------------------- simulate

def _cmd_simulate(args: argparse.Namespace, out: TextIO, err: TextIO | None) -> int:
    rules = _rules_from(args)
    # Everything simulate() checks, checked before any output (no half-drawn progress bar) and before
    # any file is created: the same call with no hand to play.
    simulate(players=args.players, hands=0, seed=args.seed if args.seed is not None else 0, rules=rules,
             stack=args.stack, bots=args.bots, sit_out=args.sit_out, mode=args.mode, duplicate=args.duplicate,
             chunk=args.chunk, estimator=args.estimator, samples=args.samples)
    if args.plot is not None:
        from .. import plot

        plot.check_available(args.plot)
    client = executor = None
    if args.scheduler is not None:
        from .. import cluster

        client, executor = cluster.connect(args.scheduler)
    err = _quiet_on_failure(err)                  # a progress bar that cannot be written is dropped
    progress: Callable[[int], None] | None = None
    bar = None
    try:
        history = open(args.history, "w", encoding="utf-8") if args.history else None  # noqa: SIM115 (closed below)
        if not args.no_progress and err is not None:
            from tqdm import tqdm  # type: ignore[import-untyped]

            total = -(-args.hands // args.players) * args.players if args.duplicate else args.hands
            bar = tqdm(total=total, unit="hand", file=err, desc="simulate", dynamic_ncols=True, mininterval=0.25)
            done = [0]

            def progress(k: int) -> None:
                bar.update(k - done[0])
                done[0] = k

        interrupted = False
        try:
            res = simulate(players=args.players, hands=args.hands, seed=args.seed, rules=rules, stack=args.stack,
                           bots=args.bots, sit_out=args.sit_out, mode=args.mode, duplicate=args.duplicate,
                           workers=args.workers if executor is None else 1, executor=executor, chunk=args.chunk,
                           progress=progress, history=history, estimator=args.estimator, samples=args.samples)
        except SimulationInterrupted as stop:
            res, interrupted = stop.result, True
        except (PokerDraw32Error, KeyboardInterrupt):
            raise
        except Exception as e:
            if client is None:
                raise
            raise PokerDraw32Error(f"the Dask cluster at {args.scheduler} failed: {type(e).__name__}: {e} (its "
                                   "scheduler and workers must import pokerdraw32 and your bots' modules: start "
                                   "them where those import, e.g. with PYTHONPATH set)") from e
        finally:
            if bar is not None:
                bar.close()
            if history is not None:
                history.close()
    finally:
        if client is not None:
            client.close()
    if args.csv is not None:
        with open(args.csv, "w", encoding="utf-8", newline="") as f:
            write_csv(res, f)
    if args.plot is not None:
        plot.winnings(res, args.plot)
    if args.json:
        json.dump(res.to_dict(), out)
        out.write("\n")
    else:
        _simulate_report(res, rules, out)
    if interrupted:
        _write(err, f"\ninterrupted: {res.hands_played} of {res.hands_requested} hands played "
                    f"({len(res.chunks)} chunks finished); the results above are theirs\n")
        return EXIT_INTERRUPTED
    return EXIT_OK


def _check_play(args: argparse.Namespace) -> None:
    """``play``: ``--opponent NAME`` is ``--players 2 --bots NAME`` (usage errors, status 2)."""
    if args.opponent is not None:
        if args.bots is not None:
            args.usage_error("argument --opponent: not with --bots (--opponent NAME is --players 2 --bots NAME)")
        if args.players not in (None, 2):
            args.usage_error(f"argument --opponent: heads-up, against one bot: not with --players {args.players} "
                             "(use --bots NAME)")
        args.players, args.bots = 2, args.opponent
    if args.players is None:
        args.players = 3
    if args.bots is None:
        args.bots = "rule"


def _check_simulate(args: argparse.Namespace) -> None:
    """The checks of ``simulate``'s options that argparse cannot make alone (usage errors, status 2)."""
    if not isinstance(args.bots, str) and len(args.bots) != args.players:
        args.usage_error(f"argument --bots: {len(args.bots)} bots for {args.players} players; give one per seat (or "
                         "set --players)")
    if args.duplicate and args.mode == "session":
        args.usage_error("argument --duplicate: duplicate deals need --mode reset (each replay of a deal starts from "
                         "the same stacks)")
    if args.estimator == "aivat" and (args.mode == "session" or args.sit_out):
        args.usage_error("argument --estimator: aivat needs --mode reset (independent hands from the same stacks), "
                         "so no --sit-out either")
    if args.samples is not None and args.estimator != "aivat":
        args.usage_error("argument --samples: only with --estimator aivat (the plain estimator samples nothing)")
    if args.sit_out and args.mode != "session":
        args.usage_error("argument --sit-out: sitting out is part of a table session: add --mode session (R10.3)")
    if args.scheduler is not None and args.workers is not None:
        args.usage_error("argument --workers: not with --scheduler (the cluster's workers play the chunks)")


class _QuietStream:
    """A text stream that stops writing, silently, once a write fails (a full disk, a closed
    terminal): a progress bar must not cost the run its result."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.broken = stream, False

    def write(self, text: str) -> int:
        if not self.broken:
            try:
                return self.stream.write(text)
            except (OSError, ValueError):
                self.broken = True
        return len(text)

    def flush(self) -> None:
        if not self.broken:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.broken = True


def _quiet_on_failure(err: TextIO | None) -> TextIO | None:
    return None if err is None else _QuietStream(err)  # type: ignore[return-value]


def _simulate_report(res: SimulationResult, rules: Rules, out: TextIO) -> None:
    """The text report of ``pokerdraw32 simulate``."""
    mode = (f"reset (every hand from {res.stack} chips)" if res.mode == "reset"
            else f"session (table sessions of {res.chunk} hands, re-buys of {res.stack})")
    run = "this thread" if res.executor == "this thread" else f"{res.workers or '?'} {res.executor}"
    played = (f"{res.hands_played}" if res.complete else
              f"INTERRUPTED: {res.hands_played} of {res.hands_requested}")
    out.write(f"{played} hands of {rules.structure.value} 32-Card Draw, {res.players} players, "
              f"preset {rules.name}, blinds {'/'.join(map(str, rules.blinds(res.players)))}, "
              f"stacks {res.stack}, seed {res.seed}\n")
    chunks = len(res.chunks)
    size = (f"{chunks} chunk of {res.hands_played} hands" if chunks == 1 else
            f"{chunks} chunks of {res.chunk} hands" if chunks * res.chunk == res.hands_played else
            f"{chunks} chunks of up to {res.chunk} hands")
    out.write(f"mode {mode}{', duplicate deals' if res.duplicate else ''}; {size} on {run} ({IMPLEMENTATION} "
              f"kernels): {res.hands_per_second:,.0f} hands/s ({res.seconds:.2f} s)\n\n")
    if res.plain is not None:
        out.write("estimator aivat (variance-reduced, unbiased; see pokerdraw32.aivat): bb/100 and its 95% interval "
                  "below are the AIVAT estimates;\nchips, won and showdowns are the hands' real counts; the plain "
                  "estimate of the same hands follows the table\n\n")
    out.write("bot  name        hands      chips    bb/100    95% interval           won  showdowns  won at sd\n")
    for b in res.per_bot:
        ci = "" if b.ci95 is None else f"[{b.low:+9.1f}, {b.high:+9.1f}]"
        won = 100 * b.hands_won / b.hands if b.hands else 0.0
        sd = 100 * b.showdowns_won / b.showdowns if b.showdowns else 0.0
        out.write(f"{b.bot:>3}  {b.name:<9} {b.hands:>7} {b.chips:>+10} {b.bb_per_100:>+9.1f}  {ci:<22} "
                  f"{won:4.1f}%  {b.showdowns:>9}  {sd:8.1f}%\n")
    samples = res.per_bot[0].samples if res.per_bot else 0
    unit = "deals" if res.duplicate else "hands"
    out.write(f"(95% intervals: normal approximation over {samples} {unit}"
              f"{'; session hands are not independent: indicative only' if res.mode == 'session' else ''})\n")
    if res.plain is not None and res.corrections is not None and res.correction_z is not None:
        out.write("\nthe plain estimate of the same hands (mean result), the interval's width plain / aivat, and the "
                  "luck AIVAT removed\n(plain - aivat, bb/100) with its z-score (within about +-3: the corrections "
                  "average zero, as they must):\n")
        out.write("bot  name       plain bb/100    95% interval           plain/aivat   luck removed       z\n")
        for b, p, c, z in zip(res.per_bot, res.plain, res.corrections, res.correction_z, strict=True):
            ci = "" if p.ci95 is None else f"[{p.low:+9.1f}, {p.high:+9.1f}]"
            ratio = f"{p.ci95 / b.ci95:.2f}x" if p.ci95 and b.ci95 else ""
            out.write(f"{p.bot:>3}  {p.name:<9} {p.bb_per_100:>+13.1f}    {ci:<22} {ratio:>11}   {c:>+12.1f}"
                      f"  {z:>+6.2f}\n")
    if res.mode == "session":
        assert res.final_stacks is not None and res.bought_in is not None and res.rebuys is not None
        out.write(f"\nsessions: {sum(res.rebuys)} re-buys; ledger {res.ledger_entries} entries, "
                  f"{sum(res.bought_in)} chips bought in = {sum(res.final_stacks)} on the tables (balanced, R9.5); "
                  f"dead chips for missed blinds: {res.dead_chips}\n")
    out.write(f"\nshowdowns: {res.showdowns}   Parole splits: {res.parole_splits}\n")
    total = sum(res.categories.values()) or 1
    out.write("hands at showdown by category (every player's final hand):\n")
    for name, k in res.categories.items():
        out.write(f"  {name.lower().replace('_', ' '):<16} {k:>7}  {100 * k / total:5.1f}%\n")


# ----------------------------------------------------------------------------------------- replay

def _cmd_replay(args: argparse.Namespace, out: TextIO, err: TextIO | None) -> int:
    for path in args.files:
        count = 0
        for hh in load_all(path):
            count += 1
            summary = hh.summary(hh.replay())
            if args.json:
                json.dump(summary, out)
                out.write("\n")
            else:
                stacks = ", ".join(f"p{i} {chips}" for i, chips in enumerate(summary["finishing_stacks"], 1))
                out.write(f"{path} hand {hh.number}: finishing stacks {stacks}\n")
        if count == 0:
            raise Where(path).error("the file holds no hand (it is empty, or only comments): nothing to replay")
    return 0


# ------------------------------------------------------------------------------------------- eval

def _cmd_eval(args: argparse.Namespace, out: TextIO, err: TextIO | None) -> int:
    ranks = []
    for text in args.hands:
        try:
            ranks.append(evaluate(text, suit_tiebreak=not args.no_suit_tiebreak))
        except PokerDraw32Error as e:
            if len(text.split()) == 1 and len(args.hands) > 1:
                raise PokerDraw32Error(f"{e} -- quote each hand: pokerdraw32 eval \"Ah Kd 7c 8s 9h\"") from None
            raise
    ranks.sort(key=lambda r: r.value, reverse=True)
    if args.json:
        json.dump([{"cards": format_cards(r.cards), "category": r.category.name, "value": r.value,
                    "description": r.description} for r in ranks], out)
        out.write("\n")
        return 0
    for i, r in enumerate(ranks):
        tie = any(o.value == r.value for j, o in enumerate(ranks) if j != i)
        out.write(f"{format_cards(r.cards)}  {r.category.name:<15} {r.value:>9}  {r.description}"
                  f"{'  (tie)' if tie else ''}\n")
    return 0


# ------------------------------------------------------------------------------------------- odds

def _check_odds(args: argparse.Namespace) -> None:
    """The ``odds`` options that go together only in some ways (usage errors, before any output)."""
    if args.opponents is None:
        # options given without --opponents are refused, even at their default values
        for flag, value in (("--trials", args.trials), ("--seed", args.seed), ("--policy", args.policy),
                            ("--position", args.position), ("--folded", args.folded),
                            ("--reshuffle-folded", args.reshuffle_folded or None), ("--discard", args.discard),
                            ("--confidence", args.confidence)):
            if value is not None:
                args.usage_error(f"{flag} is an equity option: add --opponents K (1-4)")
        return
    k = args.opponents
    if args.position is not None and args.position > k:
        args.usage_error(f"--position {args.position}: with {k} opponent{'s' if k > 1 else ''} your place in the "
                         f"draw order is 0 (first) to {k} (last) [R6.1]")
    if args.folded is not None and 1 + k + args.folded > 5:
        args.usage_error(f"--folded {args.folded} with {k} opponent{'s' if k > 1 else ''}: "
                         f"{1 + k + args.folded} players dealt in, at most 5 [R3.1]")
    if args.discard is not None and args.top is not None:
        args.usage_error("--top applies only without --discard (it picks the discards to simulate)")


def _cmd_odds(args: argparse.Namespace, out: TextIO, err: TextIO | None) -> int:
    if args.opponents is not None:
        return _cmd_equity(args, out)
    result = draw_odds(args.hand, dead=args.dead, suit_tiebreak=not args.no_suit_tiebreak)
    if args.json:
        data = result.to_dict()
        if args.top is not None:
            data["options"] = data["options"][: args.top]
        json.dump(data, out)
        out.write("\n")
        return 0
    out.write(result.format(args.top) + "\n")
    return 0


def _cmd_equity(args: argparse.Namespace, out: TextIO) -> int:
    """``odds --opponents K``: Monte Carlo equity of each discard (or of ``--discard``)."""
    rules = Rules(reshuffle_folded=args.reshuffle_folded, suit_tiebreak=not args.no_suit_tiebreak)
    seed = args.seed if args.seed is not None else Rng().next_u64()
    defaults = {"trials": 10_000, "policy": "rule", "position": 0, "folded": 0, "confidence": 0.95}
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.discard is not None:
        discard = "" if args.discard.strip().lower() in ("pat", "-") else args.discard
        one = equity(args.hand, args.opponents, discard=discard, trials=args.trials, seed=seed, policy=args.policy,
                     position=args.position, dead=args.dead, folded=args.folded, rules=rules,
                     confidence=args.confidence)
        table = EquityTable(draw_odds(args.hand, dead=args.dead, discards=[discard],
                                      suit_tiebreak=not args.no_suit_tiebreak), (one,))
    else:
        table = equity(args.hand, args.opponents, top=args.top, trials=args.trials, seed=seed, policy=args.policy,
                       position=args.position, dead=args.dead, folded=args.folded, rules=rules,
                       confidence=args.confidence)
    if args.json:
        json.dump(table.to_dict(), out)
        out.write("\n")
        return 0
    out.write(table.format() + "\n")
    return 0


# ------------------------------------------------------------------------------------------ rules

def _cmd_rules(args: argparse.Namespace, out: TextIO) -> None:
    text = rule_text(args.rule).rstrip("\n") + "\n"
    try:
        out.write(text)
    except UnicodeEncodeError:      # the book has × − — ’: a stream in a narrow encoding gets '?' for them
        encoding = getattr(out, "encoding", None) or "ascii"
        out.write(text.encode(encoding, "replace").decode(encoding))


# ------------------------------------------------------------------------------------------- main

def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Entry point of the ``pokerdraw32`` command; returns the exit status, one of :data:`EXIT_CODES`
    (0 ok, 1 input refused, 2 usage error, 130 interrupted, 141 output closed or broken pipe).

    ``stdin``, ``stdout``, ``stderr`` default to the ``sys`` streams, any of which may be closed
    (``None``, as Python sets them when a file descriptor is closed at start-up).
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    inp = stdin if stdin is not None else sys.stdin
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):   # --help, --version, usage
            args = parser.parse_args(argv)
            if args.command == "odds":
                _check_odds(args)
            elif args.command == "simulate":
                _check_simulate(args)
            elif args.command == "play":
                _check_play(args)
            elif args.command == "exploit":
                _exploit.check(args, args.usage_error)
    except SystemExit as e:                 # argparse: --help / --version (0) or a usage error (2)
        code = e.code if isinstance(e.code, int) else EXIT_OK if e.code is None else EXIT_USAGE
        return EXIT_OUTPUT_GONE if out is None and code == EXIT_OK else _flushed(out, code)
    name = f"pokerdraw32 {args.command}"
    if out is None:
        _write(err, f"{name}: error: standard output is closed: nothing to write to\n")
        return EXIT_OUTPUT_GONE
    try:
        if args.command == "simulate":
            code = _cmd_simulate(args, out, err)
        elif args.command == "eval":
            code = _cmd_eval(args, out, err)
        elif args.command == "replay":
            code = _cmd_replay(args, out, err)
        elif args.command == "odds":
            code = _cmd_odds(args, out, err)
        elif args.command == "rules":
            _cmd_rules(args, out)
            code = EXIT_OK
        elif args.command == "serve":
            code = _cmd_serve(args, err)
        elif args.command == "exploit":
            code = _exploit._cmd_exploit(args, out, err)
        else:
            code = _cmd_play(args, out, err, inp if inp is not None else io.StringIO())
        out.flush()     # inside the try: a closed pipe is reported here, not at exit
        return code
    except BrokenPipeError:
        return _output_gone()
    except (PokerDraw32Error, ValueError) as e:
        _write(err, f"{name}: error: {e}\n")
        return _flushed(out, EXIT_ERROR)
    except OSError as e:
        if _is_stdout_error(e, out):
            _write(err, f"{name}: error: cannot write to standard output: {e.strerror or e}\n")
            return EXIT_OUTPUT_GONE
        _write(err, f"{name}: error: {e}\n")
        return _flushed(out, EXIT_ERROR)
    except KeyboardInterrupt:
        _write(err, "\ninterrupted\n")
        return _flushed(out, EXIT_INTERRUPTED)


def _seconds_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 86_400:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 to 86400 seconds")
    return value


def _cmd_serve(args: argparse.Namespace, err: TextIO | None) -> int:
    try:
        from ..server.run import serve
    except ImportError as e:
        _write(err, f"pokerdraw32 serve: error: the server needs its extra: pip install 'pokerdraw32[server]' ({e})\n")
        return EXIT_ERROR
    return serve(args)


def _flushed(out: TextIO | None, code: int) -> int:
    """``code``, once what was written to ``out`` is flushed (141 if the reader went away)."""
    if out is not None:
        try:
            out.flush()
        except BrokenPipeError:
            return _output_gone()
        except (OSError, ValueError):
            return EXIT_OUTPUT_GONE
    return code


def _output_gone() -> int:
    """The reader of stdout went away (e.g. ``| head``): stop quietly, as Unix tools do, with
    exit status 141.  stdout is pointed at the null device, so that Python's final flush at exit
    does not report the broken pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):       # no real stdout (closed, or a StringIO)
        pass
    return EXIT_OUTPUT_GONE


def _is_stdout_error(e: OSError, out: TextIO) -> bool:
    """Whether ``e`` came from writing ``out`` (a closed or invalid file descriptor), not from a file."""
    if e.errno not in (errno.EBADF, errno.EPIPE, errno.EINVAL) or e.filename is not None:
        return False
    try:
        out.flush()
    except (OSError, ValueError):
        return True
    return False

