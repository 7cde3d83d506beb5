"""``python -m pokerdraw32.cfr``: write an abstraction, train a strategy (with checkpoints, resumable), export it.

    python -m pokerdraw32.cfr abstraction --out abs.json [--bet-fractions 0.5,1,2 --raise-cap 3 ...]
                                          [--structure no-limit|fixed-limit]
    python -m pokerdraw32.cfr train --iterations N --seed S [--abstraction abs.json | --structure fixed-limit]
                                    --out strategy.cfr
                                    [--sampling external|outcome] [--checkpoint ck.cfr [--every K]]
                                    [--resume ck.cfr] [--threads K] [--prune-after N [--prune-bb X]]
                                    [--scheduler ADDRESS [--workers K] [--rounds R]]
                                    [--exploitability-every K]
    python -m pokerdraw32.cfr exploitability --strategy strategy.cfr [--unseen bot|uniform]
    python -m pokerdraw32.cfr export --strategy strategy.cfr --out strategy.cfrz [--command "..."]

``--structure fixed-limit`` (R3.4) makes a fixed-limit abstraction (the one fixed raise, ``--raise-cap``
the rules' cap; :class:`~pokerdraw32.cfr.abstraction.Abstraction`); ``train --structure fixed-limit``
trains the default abstraction in fixed-limit.

``train`` prints its progress (iterations, iterations per second, information sets) after each chunk
of ``--every`` iterations (default: a tenth of the run), and writes the checkpoint then if asked;
``--resume`` goes on from a checkpoint (its abstraction and generator; ``--seed`` and
``--abstraction`` are then not allowed) for ``--iterations`` more iterations.  ``--threads K`` walks
the one table in K threads (every core: ``--threads 0``); runs of more than one thread are not
reproducible bit for bit (see ``Trainer``).  ``--scheduler`` runs the iterations on a Dask cluster
instead: ``--workers`` tasks a round (default: the cluster's threads), ``--rounds`` rounds (default 1:
independent runs whose strategy sums are added; more: the workers' regrets merged every round),
see :mod:`pokerdraw32.cfr.cluster`; reproducible for the same seed, workers and rounds.
With ``--exploitability-every K`` it also prints ``exploitability X mbb/hand`` at every multiple of ``K``
iterations: the average strategy's, exact in the bucket game (:mod:`pokerdraw32.cfr.exploitability`);
``exploitability`` prints it, with both best responses and the strategy's value, for a saved strategy.

``export`` writes a strategy in the compact format (:mod:`pokerdraw32.cfr.compact`: about a byte a
probability, 8-bit quantised) with metadata in its header: ``--command`` (the commands that made it,
recorded verbatim; the ``--seed``, ``--sampling`` and ``--iterations`` of a ``train`` command in it
are recorded too, and its ``--iterations`` must be the strategy's).  The shipped blueprint
(:mod:`pokerdraw32.cfr.blueprint`) is such a file.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import PokerDraw32Error, PokerDraw32ValueError
from .abstraction import STRUCTURES, Abstraction
from .solver import Progress, Strategy, Trainer


def _natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:            # a word, or more digits than int() converts
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _count(text: str) -> int:
    """A count (iterations, buckets, ...): the walk keeps them in 64-bit integers."""
    value = _natural(text)
    if value >= 1 << 63:
        raise argparse.ArgumentTypeError(f"{value} is not below 2**63")
    return value


def _seed(text: str) -> int:
    value = _natural(text)
    if value >= 1 << 64:
        raise argparse.ArgumentTypeError(f"{value} is not below 2**64")
    return value


def _threads(text: str) -> int:
    value = _count(text)
    if value > 1024:
        raise argparse.ArgumentTypeError(f"{value}: at most 1024 threads (0: one per core)")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of big blinds > 0")
    return value


def _writable(parser: argparse.ArgumentParser, option: str, path: str) -> None:
    """Refuse (usage error, status 2) an output path that cannot be written: a directory, or one in a
    directory that does not exist: checked before any work (a training run would otherwise end
    in the error)."""
    p = Path(path)
    if p.is_dir():
        parser.error(f"{option} {path}: is a directory")
    if not p.absolute().parent.is_dir():
        parser.error(f"{option} {path}: the directory {str(p.absolute().parent)!r} does not exist")


def _cores() -> int:
    from ..parallel import default_workers

    return default_workers()


def _fractions(text: str) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give pot fractions separated by commas, e.g. 0.5,1,2") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pokerdraw32.cfr", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ab = sub.add_parser("abstraction", help="write an abstraction as JSON (defaults for what is not given)")
    ab.add_argument("--out", required=True, help="the JSON file to write")
    d = Abstraction()
    ab.add_argument("--stack-bb", type=_count, default=d.stack_bb, help="big blinds behind each player")
    ab.add_argument("--bet-fractions", type=_fractions, default=d.bet_fractions, help="raise sizes, pot fractions")
    ab.add_argument("--raise-cap", type=_count, default=d.raise_cap,
                    help="most raises a round (1..4); fixed-limit: the rules' cap (bets and raises, the big blind "
                         "the first round's first bet, R3.4)")
    ab.add_argument("--structure", choices=STRUCTURES, default=d.structure,
                    help="betting structure (R3.4): no-limit (pot-fraction raises, all-in) or fixed-limit (the one "
                         "fixed raise; --bet-fractions not used)")
    ab.add_argument("--no-parole", action="store_true", help="never offer the Parole split (R8)")
    ab.add_argument("--pre-strength", type=_count, default=d.pre_strength, help="strength buckets before the draw")
    ab.add_argument("--pre-potential", type=_count, default=d.pre_potential, help="potential buckets before the draw")
    ab.add_argument("--potential-within-strength", action="store_true",
                    help="cut the draw potential within each strength slice (no empty bucket)")
    ab.add_argument("--post-buckets", type=_count, default=d.post_buckets, help="strength buckets after the draw")
    tr = sub.add_parser("train", help="external-sampling MCCFR (linear weights); writes the average strategy")
    tr.add_argument("--iterations", type=_count, required=True, help="iterations to run (more, with --resume)")
    tr.add_argument("--seed", type=_seed, default=None, help="the walk's seed (default 0)")
    tr.add_argument("--abstraction", default=None, help="an abstraction JSON file (default: the defaults)")
    tr.add_argument("--structure", choices=STRUCTURES, default=None,
                    help="betting structure (R3.4) of the default abstraction (no-limit, fixed-limit); with "
                         "--abstraction, must be the file's")
    tr.add_argument("--out", required=True, help="the strategy file to write")
    tr.add_argument("--checkpoint", default=None, help="write a checkpoint here after each chunk")
    tr.add_argument("--every", type=_count, default=0, help="iterations per chunk (default: a tenth of the run)")
    tr.add_argument("--resume", default=None, help="go on from this checkpoint")
    tr.add_argument("--sampling", choices=["external", "outcome"], default=None,
                    help="MCCFR variant (default external; outcome: one trajectory an iteration)")
    tr.add_argument("--threads", type=_threads, default=1,
                    help="threads walking the table (default 1, reproducible; 0: one per core)")
    tr.add_argument("--prune-after", type=_count, default=None,
                    help="negative-regret pruning after N iterations (external sampling; default: none)")
    tr.add_argument("--prune-bb", type=_positive, default=None, help="the pruning threshold, big blinds (default 1)")
    tr.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="run on a Dask cluster (tcp://host:8786; needs pokerdraw32[dask])")
    tr.add_argument("--workers", type=_count, default=0, help="with --scheduler: tasks a round (default: its threads)")
    tr.add_argument("--rounds", type=_count, default=1,
                    help="with --scheduler: rounds, the workers' tables merged after each (default 1)")
    tr.add_argument("--exploitability-every", type=_count, default=0, metavar="K",
                    help="print the exploitability (bucket game, mbb/hand) every K iterations")
    xp = sub.add_parser("exploitability", help="exact best responses and exploitability in the bucket game")
    xp.add_argument("--strategy", required=True, help="a strategy file written by train")
    xp.add_argument("--unseen", choices=["bot", "uniform"], default="bot",
                    help="play of information sets the strategy never met (default: as CfrBot, check/call)")
    ex = sub.add_parser("export", help="write a strategy in the compact (shipping) format, with its metadata")
    ex.add_argument("--strategy", required=True, help="the strategy file written by train")
    ex.add_argument("--out", required=True, help="the compact file to write (e.g. blueprint_hunl100.cfrz)")
    ex.add_argument("--command", dest="made_by", metavar="COMMANDS", action="append", default=[],
                    help="the commands that made the strategy, recorded in the file (repeat it: the commands are "
                    "joined by ' && ')")
    return parser


def _metadata(command: str, strategy: Strategy) -> dict[str, Any]:
    """The export's metadata: the command, and the seed, sampling and iterations of a train command in it."""
    meta: dict[str, Any] = {"command": command, "pokerdraw32": __version__}
    for part in command.split("&&"):
        try:
            words = shlex.split(part)
        except ValueError as e:
            raise PokerDraw32ValueError(f"--command: cannot read {part.strip()!r} as a shell command ({e})") from None
        if "train" not in words or "pokerdraw32.cfr" not in words:
            continue
        try:
            args, _rest = _parser().parse_known_args(words[words.index("train"):])
        except SystemExit:
            raise PokerDraw32ValueError(f"--command: cannot read the train command {part.strip()!r}") from None
        if args.resume is not None:
            meta["resumed_from"] = args.resume
        else:
            meta.update(seed=args.seed or 0, sampling=args.sampling or "external")
        if args.resume is None and args.iterations != strategy.iterations:
            raise PokerDraw32ValueError(f"--command trains {args.iterations} iterations, but the strategy has "
                                        f"{strategy.iterations}: is it the strategy that command wrote?")
    return meta


def _on_cluster(args: argparse.Namespace, trainer: Trainer, show: Callable[[Progress], None]) -> None:
    from .. import cluster
    from ..parallel import _workers_of
    from .cluster import train_rounds

    client, executor = cluster.connect(args.scheduler)
    try:
        workers = args.workers or _workers_of(executor) or 1
        try:
            train_rounds(trainer, args.iterations, workers=workers, rounds=args.rounds, executor=executor,
                         checkpoint=args.checkpoint, progress=show)
        except (PokerDraw32Error, KeyboardInterrupt):
            raise
        except Exception as e:
            raise PokerDraw32Error(f"the Dask cluster at {args.scheduler} failed: {type(e).__name__}: {e} (its workers "
                                   "must import this pokerdraw32)") from e
    finally:
        client.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "train" and args.scheduler is None and (args.workers or args.rounds != 1):
        parser.error("--workers and --rounds go with --scheduler")
    if args.command == "train" and args.sampling == "outcome" and args.prune_after is not None:
        parser.error("--prune-after: pruning is for external sampling only, not with --sampling outcome")
    if args.command == "train" and args.scheduler is not None and args.threads != 1:
        parser.error("--threads: not with --scheduler (each task runs in one thread of a worker)")
    for option in ("out", "checkpoint"):
        if getattr(args, option, None) is not None:
            _writable(parser, f"--{option}", getattr(args, option))
    if args.command == "export" and Path(args.out).resolve() == Path(args.strategy).resolve():
        parser.error(f"--out {args.out}: the same file as --strategy (the strategy would be lost); write elsewhere")
    try:
        if args.command == "abstraction":
            try:
                a = Abstraction(stack_bb=args.stack_bb, bet_fractions=args.bet_fractions, raise_cap=args.raise_cap,
                                parole=not args.no_parole, pre_strength=args.pre_strength,
                                pre_potential=args.pre_potential, post_buckets=args.post_buckets,
                                potential_within_strength=args.potential_within_strength, structure=args.structure)
            except PokerDraw32Error as refused:
                parser.error(str(refused))
            a.save(args.out)
            print(f"wrote {args.out}")
            return 0
        if args.command == "exploitability":
            from .exploitability import exploitability

            e = exploitability(Strategy.load(args.strategy), unseen=args.unseen)
            print(f"exploitability {e.mbb:.1f} mbb/hand ({e.chips:.4f} chips a hand) in the bucket game; "
                  f"best responses {e.best_response[0]:.4f} (player 0, small blind) and {e.best_response[1]:.4f} "
                  f"(player 1) chips a hand; the strategy's own value {e.value[0]:.4f} for player 0; {e.unseen} of "
                  f"{e.info_sets} information sets never met (played as --unseen {args.unseen}); {e.seconds:.2f} s")
            return 0
        if args.command == "export":
            from .compact import write_compact

            strategy = Strategy.load(args.strategy)
            size = write_compact(strategy, args.out, _metadata(" && ".join(args.made_by), strategy))
            print(f"wrote {args.out}: {len(strategy)} information sets, {size} bytes")
            return 0
        if args.resume is not None:
            if (args.seed is not None or args.abstraction is not None or args.sampling is not None
                    or args.prune_after is not None or args.prune_bb is not None or args.structure is not None):
                parser.error("--resume takes the seed, the abstraction, the sampling and the pruning from the "
                             "checkpoint: leave out --seed, --abstraction, --structure, --sampling, --prune-after and "
                             "--prune-bb")
            trainer = Trainer.load(args.resume, threads=args.threads or _cores())
        else:
            if args.abstraction:
                a = Abstraction.load(args.abstraction)
                if args.structure is not None and args.structure != a.structure:
                    parser.error(f"--structure {args.structure}: the abstraction {args.abstraction} is "
                                 f"{a.structure} (R3.4); leave out --structure or write another abstraction")
            else:
                a = Abstraction(structure=args.structure or "no-limit")
            trainer = Trainer(a, seed=args.seed or 0, sampling=args.sampling or "external",
                              threads=args.threads or _cores(), prune_after=args.prune_after or 0,
                              prune_bb=1.0 if args.prune_bb is None else args.prune_bb)
        every = args.every or max(1, args.iterations // 10)

        def show(p: Progress) -> None:
            print(f"{int(p['iterations'])} iterations, {p['rate']:.0f} iterations/s, {int(p['info_sets'])} "
                  f"information sets, {p['nodes'] / max(p['seconds'], 1e-9):.0f} nodes/s, {p['seconds']:.1f} s "
                  f"({trainer.implementation}, {trainer.sampling} sampling, {trainer.threads} "
                  f"thread{'s' if trainer.threads > 1 else ''}"
                  + (f", {int(p['workers'])} Dask workers" if "workers" in p else "") + ")", flush=True)

            if "exploitability" in p:
                print(f"exploitability {p['exploitability']:.1f} mbb/hand after {int(p['iterations'])} iterations",
                      flush=True)

        if args.scheduler is not None:
            _on_cluster(args, trainer, show)
        else:
            trainer.train(args.iterations, chunk=every, checkpoint=args.checkpoint, progress=show,
                          exploitability_every=args.exploitability_every)
        trainer.strategy().save(args.out)
        print(f"wrote {args.out}: {trainer.info_sets} information sets after {trainer.iterations} iterations")
        return 0
    except PokerDraw32Error as e:
        print(f"python -m pokerdraw32.cfr: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:           # a file that cannot be written (or read) after all: a full disk, permissions
        print(f"python -m pokerdraw32.cfr: error: {e.strerror or e}: {e.filename or ''}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
