"""What every part of the ``pokerdraw32`` command shares: its exit statuses, writing to a stream
that may be gone, and the table options' rules (the command line's lowest module: the package's
``__init__`` and :mod:`._play` build on it)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import IO, Any

from ..errors import shown
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


def _bot_name(text: str) -> str:
    """An argparse type: a registered bot name (:func:`pokerdraw32.bots.bot_names`); the bot itself
    is made (an installed one loaded) only when it plays."""
    from ..bots import _REGISTERED, bot_names

    if text in _REGISTERED:         # the engine's own and the registered: no scan of the installed packages
        return text
    names = bot_names()
    if text not in names:
        raise argparse.ArgumentTypeError(f"unknown bot name {shown(text)}: the bots are {', '.join(names)}")
    return text


def _bots_spec(text: str) -> str | list[Any]:
    """An argparse type for ``simulate --bots``: ``mixed``, a bot name, or a comma-separated list
    of bot names and ``module:attr`` import specs (user bots)."""
    if text == "mixed" or ("," not in text and ":" not in text):
        return text if text == "mixed" else _bot_name(text)
    bots: list[Any] = []
    for item in text.split(","):
        item = item.strip()
        module, sep, attr = item.partition(":")
        if not sep:
            bots.append(_bot_name(item))
            continue
        if not module or not attr:
            raise argparse.ArgumentTypeError(f"{shown(item)}: use mixed, a bot name, or a comma-separated list of "
                                             "bot names and module:attr bots")
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
