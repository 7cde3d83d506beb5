"""``pokerdraw32 serve``: read the options and the tables file, run the app under uvicorn."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from .protocol import Limits
from .room import ServerSettings, TableConfig
from .store import StorageError

__all__ = ["serve"]


def load_tables(path: str) -> list[TableConfig]:
    """The tables of a ``--tables`` JSON file (a list of objects, see :class:`TableConfig`).

    :raises ValueError: an unreadable file, a bad table (named), or two tables with one id.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"--tables {path}: {exc}") from None
    if not isinstance(data, list) or not data:
        raise ValueError(f"--tables {path}: give a JSON list of one or more tables")
    tables = [TableConfig.from_dict(d) for d in data]
    ids = [t.id for t in tables]
    if len(set(ids)) != len(ids):
        raise ValueError(f"--tables {path}: table ids must differ: {ids}")
    return tables


def ws_protocol() -> str:
    """uvicorn's WebSocket implementation: ``websockets-sansio`` where this uvicorn has it (its
    ``websockets`` one is deprecated), else ``websockets``."""
    from uvicorn.config import WS_PROTOCOLS

    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; returns the exit status."""
    import uvicorn

    from .app import GameServer, create_app

    try:
        tables = load_tables(args.tables) if args.tables else None
    except ValueError as exc:
        print(f"pokerdraw32 serve: error: {exc}", file=sys.stderr)
        return 1
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    limits = Limits(max_message=args.max_message, rate=float(args.rate), burst=2 * args.rate)
    settings = ServerSettings(hand_pause=args.hand_pause, bot_delay=args.bot_delay, grace=args.grace)
    server = GameServer(args.db, tables, settings, limits)
    app = create_app(server)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level, ws=ws_protocol(),
                            ws_max_size=limits.max_frame, ws_per_message_deflate=not args.no_compression,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0,
                            lifespan="on", timeout_graceful_shutdown=5)
    try:
        uvicorn.Server(config).run()
    except StorageError as exc:
        print(f"pokerdraw32 serve: error: {exc}", file=sys.stderr)
        return 1
    return 0 if server.ready else 1
