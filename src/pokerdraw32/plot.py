"""Plots of a simulation (``pokerdraw32 simulate --plot FILE.png``); needs matplotlib, the
``pokerdraw32[plot]`` extra.  The engine never imports this module.

:func:`winnings` draws each bot's cumulative winnings in big blinds against hands played, from
the running totals every chunk records (about every 100 hands), with the 95% band of a bot
winning at its measured rate: ``rate * h +- Z95 * sd * sqrt(h / unit)``, ``sd`` the standard
deviation of one sample (a hand, or a duplicate deal of ``unit`` hands).
"""

from __future__ import annotations

import math
from typing import Any

from .errors import PokerDraw32Error
from .simulate import Z95, SimulationResult

__all__ = ["check_available", "series", "winnings"]

INSTALL = 'pip install "pokerdraw32[plot]"'


class PlotUnavailable(PokerDraw32Error):
    """matplotlib is not installed."""


def check_available(path: str | None = None) -> None:
    """Check that a plot can be written, before any hand is played.

    :raises PlotUnavailable: matplotlib cannot be imported (the message says how to install it),
        or ``path``'s extension names no format matplotlib writes (checked before any hand is
        played: a plot that cannot be written must not cost a run).
    """
    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError as e:
        raise PlotUnavailable(f"plotting needs matplotlib: {INSTALL} ({e})") from None
    if path is not None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # type: ignore[import-not-found,unused-ignore]

        formats = FigureCanvasAgg.get_supported_filetypes()
        extension = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
        if extension not in formats:
            raise PlotUnavailable(f"--plot {path}: name a file ending in one of {', '.join(sorted(formats))} "
                                  "(e.g. winnings.png)")


def series(result: SimulationResult) -> tuple[list[int], list[list[float]]]:
    """The cumulative winnings: ``(hands, per_bot)``, ``hands[k]`` hands played at point ``k``
    (0 first) and ``per_bot[b][k]`` bot ``b``'s winnings then, in big blinds."""
    bb = result.rules.big_blind
    hands = [0]
    per_bot: list[list[float]] = [[0.0] for _ in range(result.players)]
    base = 0
    totals = [0] * result.players
    for c in result.chunks:
        for h, running in c.trace:
            hands.append(base + h)
            for b in range(result.players):
                per_bot[b].append((totals[b] + running[b]) / bb)
        base += c.hands
        totals = [t + x for t, x in zip(totals, c.chips, strict=True)]
    return hands, per_bot


def winnings(result: SimulationResult, path: str, *, title: str | None = None) -> None:
    """Write a PNG (or any format matplotlib infers from ``path``) of each bot's cumulative
    winnings (big blinds) with its 95% band.

    :raises PlotUnavailable: matplotlib is not installed.
    :raises OSError: ``path`` cannot be written.
    """
    check_available()
    import matplotlib  # type: ignore[import-not-found,unused-ignore]

    matplotlib.use("Agg")       # files only: no display needed
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    hands, per_bot = series(result)
    bb = result.rules.big_blind
    unit = result.players if result.duplicate else 1
    fig: Any
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    try:
        for b, bot in enumerate(result.per_bot):
            (line,) = ax.plot(hands, per_bot[b], lw=1.4,
                              label=f"{bot.name}: {bot.bb_per_100:+.1f} bb/100"
                                    + ("" if bot.ci95 is None else f" ± {bot.ci95:.1f}"))
            if bot.ci95 is not None and bot.hands:
                rate = bot.bb_per_100 / 100                               # bb a hand
                sd = bot.ci95 / Z95 / 100 * bot.hands / math.sqrt(bot.samples)   # bb a sample
                low = [rate * h - Z95 * sd * math.sqrt(h / unit) for h in hands]
                high = [rate * h + Z95 * sd * math.sqrt(h / unit) for h in hands]
                ax.fill_between(hands, low, high, color=line.get_color(), alpha=0.15, lw=0)
        ax.axhline(0, color="0.5", lw=0.8)
        ax.set_xlabel("hands")
        ax.set_ylabel("cumulative winnings (big blinds)")
        mode = "duplicate deals" if result.duplicate else f"mode {result.mode}"
        ax.set_title(title or f"{result.hands_played:,} hands, {result.players} players, {mode}, seed {result.seed}"
                              f" ({bb} chips a big blind; bands: 95%)", fontsize=10)
        ax.legend(fontsize=9, loc="best")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
