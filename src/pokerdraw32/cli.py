"""The ``pokerdraw32`` command: ``simulate``, ``eval``, ``odds``, ``play``, ``replay`` and ``rules``.

Run ``pokerdraw32 --help`` or ``pokerdraw32 COMMAND --help``.  Every subcommand ends with one
exit status of :data:`EXIT_CODES` (also in ``pokerdraw32 --help`` and README.md):
0 success, 1 the input was refused (cards, hand histories, files; the message names the rule),
2 usage error (the command line: argparse's own code, also for an option value out of range,
checked before any output), 130 interrupted (Ctrl-C), 141 standard output closed or a broken pipe.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, TextIO

from ._kernels import IMPLEMENTATION, Rng
from ._version import __version__
from .actions import Action, ActionKind, Event, EventKind, Phase
from .bots import Bot, RandomBot, RuleBot
from .cards import Card, format_cards
from .errors import MAX_CHIPS, PokerDraw32Error, shown
from .evaluation import evaluate
from .hand import Hand
from .history import MAX_HISTORY_BYTES, load_all
from .odds import POLICIES, EquityTable, draw_odds, equity
from .parallel import default_workers
from .phh import Where
from .rulebook import rule_text
from .rules import PRESETS, Rules, Structure
from .simulate import CHUNK, SimulationInterrupted, SimulationResult, simulate, write_csv

__all__ = ["EXIT_CODES", "MAX_TRIALS", "build_parser", "main"]

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_OUTPUT_GONE = 0, 1, 2, 130, 141
EXIT_CODES = {
    EXIT_OK: "success",
    EXIT_ERROR: "the input was refused: a bad card or hand, an invalid, empty or too large hand history, "
                "an unknown rule id, a file that cannot be read or written (the message names the rule, the "
                "file, the hand)",
    EXIT_USAGE: "usage error: an unknown command or option, a missing argument, an option value out of its "
                "range, or options that do not go together (nothing has run yet)",
    EXIT_INTERRUPTED: "interrupted by Ctrl-C",
    EXIT_OUTPUT_GONE: "standard output is closed, or the reader went away (a broken pipe, e.g. '| head')",
}
"""The exit statuses of the ``pokerdraw32`` command, the same for every subcommand."""

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


def _write(stream: IO[str] | None, text: str) -> None:
    """Write ``text`` to a stream that may be closed or gone (``None``), ignoring failures: for
    error messages, whose exit status already tells what happened."""
    if stream is None:
        return
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        pass


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


def _bots_spec(text: str) -> str | list[Any]:
    """An argparse type for ``simulate --bots``: ``mixed``, ``rule``, ``random``, or a comma-separated
    list of ``rule``, ``random`` and ``module:attr`` import specs (user bots)."""
    if text in ("mixed", "rule", "random"):
        return text
    bots: list[Any] = []
    for item in text.split(","):
        item = item.strip()
        if item in ("rule", "random"):
            bots.append(item)
            continue
        module, sep, attr = item.partition(":")
        if not sep or not module or not attr:
            raise argparse.ArgumentTypeError(f"{shown(item)}: use mixed, rule or random, or a comma-separated list of "
                                             "rule, random and module:attr bots")
        if os.getcwd() not in sys.path:     # module:attr names a module of the current directory too
            sys.path.insert(0, os.getcwd())  # (as `python -m` and uvicorn's app specs do)
        try:
            obj: Any = importlib.import_module(module)
            for part in attr.split("."):
                obj = getattr(obj, part)
        except Exception as e:
            raise argparse.ArgumentTypeError(f"{shown(item)}: cannot import the bot: {type(e).__name__}: {e}") from None
        if not (isinstance(obj, type) or callable(getattr(obj, "decide", None)) or callable(obj)):
            raise argparse.ArgumentTypeError(f"{shown(item)} is not a bot class, a bot object or a function")
        bots.append(obj)
    return bots


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


_PLAYERS = _int_in(2, 5, "a table deals 2 to 5 players [R3.1]")
_SEED = _int_in(0, 2**64 - 1, "a seed is 0 <= S < 2**64 [R11.1]")
_CHIPS = _int_in(1, MAX_CHIPS, f"chips are whole numbers from 1 to {MAX_CHIPS} [R3.2]")


def _rules_from(args: argparse.Namespace) -> Rules:
    changes: dict[str, object] = {"structure": Structure(args.structure)}
    if args.sb is not None:
        changes["sb"] = args.sb
    if getattr(args, "no_suit_tiebreak", False):
        changes["suit_tiebreak"] = False
    return Rules.preset(args.preset, **changes)


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
    sim.add_argument("--bots", type=_bots_spec, default="mixed", metavar="mixed|rule|random|B1,B2,...",
                     help="bot types: rule-based, uniformly random, or alternating (default %(default)s); or one "
                          "bot per seat, comma-separated, each rule, random or an import spec module:attr naming "
                          "a bot class (a pokerdraw32.bots.Bot subclass gets the seat's seed, any other class no "
                          "argument), a bot object or a function view -> action")
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
                          "every bot is built in and the kernels are compiled, else processes")
    sim.add_argument("--scheduler", default=None, metavar="ADDRESS",
                     help="run the chunks on a Dask cluster (tcp://host:8786; needs pokerdraw32[dask])")
    sim.add_argument("--chunk", type=_int_in(1, None, "at least 1 hand"), default=CHUNK, metavar="H",
                     help="hands per chunk (default %(default)s); part of what the seed reproduces")
    sim.add_argument("--estimator", choices=["plain", "aivat"], default="plain",
                     help="plain: each bot's mean result (default); aivat: a variance-reduced, unbiased estimate "
                          "(control variates for the deal, the draw and the built-in bots' decisions; --mode reset; "
                          "needs numpy: pokerdraw32[aivat]); the plain figures are printed too")
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
    play.set_defaults(players=3)
    play.add_argument("--hands", type=_int_in(1, None, "play at least one hand"), default=None, metavar="H",
                      help="stop after H hands (default: until q)")
    play.add_argument("--bots", choices=["rule", "random"], default="rule", help="bot type (default %(default)s)")

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
    srv = sub.add_parser(
        "serve", help="run the game server: tables over WebSocket, a browser table page (extra [server])",
        description="Serve tables (default: three tables with bots) over the WebSocket protocol of PROTOCOL.md at "
                    "ws://HOST:PORT/ws, with a browser table page at http://HOST:PORT/. Every accepted action is "
                    "committed to the database before anyone is told; a restarted server continues every hand. "
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
    srv.add_argument("--no-compression", action="store_true",
                     help="turn off WebSocket compression (permessage-deflate): less server CPU per message, more "
                          "bytes on the wire (for clients on a fast local network)")
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
        from . import plot

        plot.check_available(args.plot)
    client = executor = None
    if args.scheduler is not None:
        from . import cluster

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
                out.write(f"{path} hand {hh.number}: {' '.join(map(str, summary['finishing_stacks']))}\n")
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


# ------------------------------------------------------------------------------------------- play

def describe(ev: Event, viewer: int) -> str | None:
    """One line describing ``ev`` for the player at seat ``viewer``: other players' hole cards,
    discards and replacement cards are never shown; returns ``None`` for silent events."""
    who = "you" if ev.seat == viewer else f"seat {ev.seat}"
    k = ev.kind
    if k is EventKind.POST_BLIND:
        return f"{who} post{'s' if ev.seat != viewer else ''} the {ev.get('blind')} blind ({ev.amount})"
    if k is EventKind.DEAL_HOLE:
        return f"you are dealt {format_cards(ev.cards)}" if ev.seat == viewer else None
    if k in (EventKind.FOLD, EventKind.CHECK, EventKind.SPLIT, EventKind.DECLINE, EventKind.TIMEOUT):
        word = {EventKind.FOLD: "fold", EventKind.CHECK: "check", EventKind.SPLIT: "choose split (Parole)",
                EventKind.DECLINE: "decline the split", EventKind.TIMEOUT: "time out"}[k]
        return f"{who}: {word}"
    if k is EventKind.CALL:
        return f"{who}: call {ev.amount}" + (" (all-in)" if ev.get("all_in") else "")
    if k in (EventKind.BET, EventKind.RAISE):
        return f"{who}: {k.value} to {ev.amount}" + (" (all-in)" if ev.get("all_in") else "")
    if k is EventKind.DISCARD:
        if ev.seat == viewer:
            return f"you discard {format_cards(ev.cards)}" if ev.cards else "you stand pat"
        return f"{who} draws {ev.amount}" if ev.amount else f"{who} stands pat"
    if k is EventKind.DEAL_DRAW:
        return f"you receive {format_cards(ev.cards)}" if ev.seat == viewer else None
    if k is EventKind.RESHUFFLE:
        return f"the stub is empty: {ev.amount} discarded cards are reshuffled"
    if k is EventKind.RETURN_UNCALLED:
        return f"{ev.amount} uncalled chips return to {who}"
    if k is EventKind.SHOW:
        return f"{who} show{'s' if ev.seat != viewer else ''} {format_cards(ev.cards)}: {ev.get('hand')}"
    if k is EventKind.MUCK:
        return f"{who} muck{'s' if ev.seat != viewer else ''}"
    if k is EventKind.AWARD:
        winners = ", ".join("you" if s == viewer else f"seat {s}" for s in ev.get("winners", ()))
        how = "shared by Parole among" if ev.get("shared") else "to"
        pot = "main pot" if ev.get("pot") == 0 else f"side pot {ev.get('pot')}"
        return f"{pot} of {ev.amount} {how} {winners}"
    if k is EventKind.ROUND_END:
        which = "first" if ev.get("round") == Phase.FIRST_ROUND.value else "second"
        return f"-- {which} betting round over, pot {ev.amount} --"
    return None


def _displayed(h: Hand, seat: int) -> list[Card]:
    """``seat``'s hole cards as ``play`` shows them, best rank first: the numbers of ``d 1 3``
    index this order."""
    return sorted(h.hole_cards(seat), reverse=True)


def _prompt_help(h: Hand) -> str:
    legal = h.legal_actions()
    assert legal is not None
    if legal.phase is Phase.DRAW:
        return "draw: 'd 1 3' discards the 1st and 3rd card (or 'd Ah 7c'), up to 4; 'p' stands pat"
    parts = []
    for kind, text in ((ActionKind.FOLD, "f fold"), (ActionKind.CHECK, "k check"),
                       (ActionKind.SPLIT, "s split (Parole: check and offer to share the pot)"),
                       (ActionKind.DECLINE, "n decline the split")):
        if kind in legal.kinds:
            parts.append(text)
    if ActionKind.CALL in legal.kinds:
        parts.append(f"c call {legal.call_amount}")
    for kind, letter, text in ((ActionKind.BET, "b", "bet"), (ActionKind.RAISE, "r", "raise to")):
        if kind in legal.kinds:   # one amount (fixed-limit, R3.4): 'r' alone makes it
            parts.append(f"{letter} {text} {legal.min_to}" if legal.min_to == legal.max_to else
                         f"{letter} N {text} {legal.min_to}-{legal.max_to}")
    return ", ".join(parts) + ", q quit"


_PLAY_WORDS = {"f", "fold", "muck", "k", "x", "check", "c", "call", "b", "bet", "r", "raise", "a", "allin", "all-in",
               "s", "split", "parole", "accept", "n", "decline", "d", "discard", "draw", "p", "pat", "stand"}
"""The words ``play`` takes for an action (``q`` quits): Action.parse's, less ``t`` (a timeout is the
server's clock, not a player's choice), plus ``a`` (all-in)."""

_PLAY_HELP = ("f (fold), k or x (check), c (call), b N (bet N), r N (raise to N), a (all-in), s (Parole split), "
              "n (decline), d 1 3 or d CARDS (discard), p (stand pat), q (quit)")


def _parse_human(text: str, h: Hand) -> Action:
    words = text.replace(",", " ").split()
    legal = h.legal_actions()
    assert legal is not None
    if words and words[0].lower() not in _PLAY_WORDS:
        raise PokerDraw32Error(f"unknown action {words[0]!r}: use {_PLAY_HELP}")
    if len(words) == 1 and words[0].lower() in ("b", "bet", "r", "raise"):
        kind = ActionKind.BET if words[0].lower() in ("b", "bet") else ActionKind.RAISE
        if kind in legal.kinds and legal.min_to is not None and legal.min_to == legal.max_to:
            return Action(kind, legal.min_to)           # the one amount there is (fixed-limit, R3.4)
        if kind in legal.kinds:
            raise PokerDraw32Error(f"say how much: '{words[0]} N', N from {legal.min_to} to {legal.max_to}")
    if words and words[0].lower() in ("d", "discard") and len(words) == 1:
        raise PokerDraw32Error("say which cards to discard: 'd 1 3' (positions) or 'd Ah 7c'; 'p' stands pat")
    if words and words[0].lower() in ("d", "discard") and all(w.isdigit() for w in words[1:]):
        cards = _displayed(h, 0)                   # the order the hand is shown in, not the dealt order
        picks = []
        for w in words[1:]:
            i = int(w)
            if not 1 <= i <= len(cards):
                raise PokerDraw32Error(f"card position {i} is not 1..{len(cards)}")
            if cards[i - 1] in picks:
                raise PokerDraw32Error(f"card position {i} is given twice")
            picks.append(cards[i - 1])
        return Action.discard(picks)
    if words and words[0].lower() in ("a", "allin", "all-in"):
        if legal.max_to is not None:
            return Action(ActionKind.BET if ActionKind.BET in legal.kinds else ActionKind.RAISE, legal.max_to)
        return Action.call()
    action = Action.parse(text)
    if action.kind is ActionKind.DISCARD and legal.phase is Phase.DRAW:
        mine = _displayed(h, 0)                    # named in the order the prompt shows the hand
        missing = [c for c in action.cards if c not in mine]
        if missing:
            raise PokerDraw32Error(f"you cannot discard {format_cards(missing)}, not in your hand "
                                   f"({format_cards(mine)}) [R6.1]")
    return action


def _cmd_play(args: argparse.Namespace, out: TextIO, err: TextIO | None, inp: TextIO) -> int:
    rules = _rules_from(args)
    seed = args.seed if args.seed is not None else Rng().next_u64()
    rng = Rng(seed)
    stack = args.stack if args.stack is not None else 100 * rules.big_blind
    Hand(rules, [stack] * args.players, 0, seed=0)   # the table's limits, checked before any output [R3.2]
    bot_cls: type[Bot] = RuleBot if args.bots == "rule" else RandomBot
    bots = {s: bot_cls(rng.next_u64()) for s in range(1, args.players)}
    session = _Session([stack] * args.players, [stack] * args.players)
    out.write(f"32-Card Draw, {rules.structure.value}, preset {rules.name}, seed {seed}. You are seat 0.\n")
    try:
        code = _play_hands(args, out, inp, rules, rng, stack, bots, session)
    except KeyboardInterrupt:      # Ctrl-C: the summary q and end of input print, exit status 130
        out.write("\ninterrupted" + (": the unfinished hand is abandoned: its bets go back\n" if session.in_hand
                                      else "\n"))
        _session_summary(out, session.played, session.stacks, session.bought)
        _write(err, "\ninterrupted\n")
        return EXIT_INTERRUPTED
    _session_summary(out, session.played, session.stacks, session.bought)
    if code is None:
        return EXIT_OK
    out.write("bye\n")
    return code


class _Session:
    """A ``play`` session's running totals: the stacks before the hand in play, the chips each seat
    bought in for (re-buys included) and the hands played."""

    def __init__(self, stacks: list[int], bought: list[int]) -> None:
        self.stacks = stacks
        self.bought = bought
        self.played = 0
        self.in_hand = False


def _play_hands(args: argparse.Namespace, out: TextIO, inp: TextIO, rules: Rules, rng: Rng, stack: int,
                bots: dict[int, Bot], session: _Session) -> int | None:
    """The hands of a ``play`` session; ``None`` when they are all played (or the player, busted, does
    not re-buy), ``EXIT_OK`` when the player quits (``q`` or the end of input)."""
    stacks, bought = session.stacks, session.bought
    button = 0
    while args.hands is None or session.played < args.hands:
        for s in range(1, args.players):
            if stacks[s] == 0:
                stacks[s] = stack
                bought[s] += stack
                out.write(f"seat {s} re-buys for {stack}\n")
        if stacks[0] == 0:                  # --stack is the re-buy too: offered as the bots take it
            out.write(f"You are out of chips. Re-buy for {stack}? [y/n] ")
            out.flush()
            answer = inp.readline()
            if answer.strip().lower() not in ("y", "yes"):
                out.write("\n" if not answer.endswith("\n") else "")
                return None
            stacks[0] = stack
            bought[0] += stack
            out.write(f"you re-buy for {stack}\n")
        h = Hand(rules, stacks, button, rng=rng)
        session.in_hand = True
        out.write(f"\n=== hand {session.played + 1}: button seat {button}, stacks {stacks} ===\n")
        shown = 0
        offered = False        # a player chose split (R8.1) and the offer is still open
        while True:
            for ev in h.events_for(0)[shown:]:
                line = describe(ev, 0)
                if line:
                    out.write(line + "\n")
            shown = len(h.events)
            if offered and not h.offer_open and not h.is_complete:
                out.write("the Parole offer is off: the hand is played out\n")
            offered = h.offer_open and any(ev.kind is EventKind.SPLIT for ev in h.events)
            if h.is_complete:
                break
            if h.actor != 0:
                assert h.actor is not None
                h.act(bots[h.actor].decide(h))
                continue
            legal = h.legal_actions()
            assert legal is not None
            mine = _displayed(h, 0)
            described = evaluate(mine, suit_tiebreak=rules.suit_tiebreak).description
            out.write(f"[pot {h.pot}, your stack {h.stacks[0]}, your bet {h.bets[0]}] "
                      f"your hand: {format_cards(mine)} ({described})\n{_prompt_help(h)}\n> ")
            out.flush()
            line = inp.readline()
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                out.write("\nthe unfinished hand is abandoned: its bets go back\n")
                return EXIT_OK
            try:
                h.act(_parse_human(line, h), seat=0)
            except (PokerDraw32Error, ValueError) as e:
                out.write(f"! {e}\n")
        assert h.result is not None
        stacks[:] = h.result.stacks
        session.in_hand = False
        out.write(f"result: {'+' if h.result.net[0] >= 0 else ''}{h.result.net[0]} for you; stacks {stacks}\n")
        session.played += 1
        button = (button + 1) % args.players
    return None


def _session_summary(out: TextIO, played: int, stacks: list[int], bought: list[int]) -> None:
    """The end of a ``play`` session: hands played and each seat's net chips (stack minus buy-ins)."""
    out.write(f"\n{played} hand{'' if played == 1 else 's'} played; net chips (stack minus buy-ins):\n")
    for s, (have, paid) in enumerate(zip(stacks, bought, strict=True)):
        who = "you (seat 0)" if s == 0 else f"seat {s}"
        out.write(f"  {who:<12} {have - paid:>+7}  (stack {have}, bought in {paid})\n")


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
        from .server.run import serve
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
