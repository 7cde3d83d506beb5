"""What every part of the ``pokerdraw32`` command shares: its exit statuses, writing to a stream
that may be gone, and the table options' rules (the command line's lowest module: the package's
``__init__`` and :mod:`._play` build on it)."""

from __future__ import annotations

import argparse
from typing import IO

from ..rules import Rules, Structure

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


def _rules_from(args: argparse.Namespace) -> Rules:
    changes: dict[str, object] = {"structure": Structure(args.structure)}
    if args.sb is not None:
        changes["sb"] = args.sb
    if getattr(args, "no_suit_tiebreak", False):
        changes["suit_tiebreak"] = False
    return Rules.preset(args.preset, **changes)
