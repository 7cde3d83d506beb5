"""``pokerdraw32 serve``: read the options and the tables file, run the app under uvicorn."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

from .config import ServerSettings, TableConfig
from .protocol import Limits
from .store import StorageError, open_store

__all__ = ["UNACKED_TIMEOUT", "serve", "uvicorn_server"]


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


UNACKED_TIMEOUT = 60.0
"""Seconds what the server sent may stay unacknowledged (a client that does not read: its
receive window stays shut) before the kernel drops the connection (``TCP_USER_TIMEOUT``, Linux;
elsewhere TCP's own limits).  The server lets go of a client that does not read once its queue's
limit is passed (PROTOCOL.md, Limits), but a socket whose buffers never drain is closed only
by the kernel."""


def uvicorn_server(config: Any, unacked: float = UNACKED_TIMEOUT) -> Any:
    """A ``uvicorn.Server`` for ``config`` whose listening sockets have ``TCP_USER_TIMEOUT`` set
    to ``unacked`` seconds (:data:`UNACKED_TIMEOUT`) where the platform has it; the connections
    it accepts inherit it."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            option = getattr(socket, "TCP_USER_TIMEOUT", None)
            for server in getattr(self, "servers", ()):
                for sock in server.sockets or ():
                    if option is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
                        sock.setsockopt(socket.IPPROTO_TCP, option, max(1, round(unacked * 1000)))

    return Server(config)


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; returns the exit status (1 with a message when the
    tables file, the database, the page's files or the address cannot be used)."""
    import uvicorn

    from .app import GameServer, create_app

    def fail(message: object) -> int:
        print(f"pokerdraw32 serve: error: {message}", file=sys.stderr)
        return 1

    try:
        tables = load_tables(args.tables) if args.tables else None
    except ValueError as exc:
        return fail(exc)
    try:                 # what uvicorn would report only as a traceback of its start-up
        open_store(args.db).close()
    except StorageError as exc:
        return fail(exc)
    try:
        with socket.create_server((args.host, args.port)):
            pass
    except (OSError, OverflowError) as exc:
        return fail(f"cannot listen on {args.host}:{args.port}: {exc}")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    limits = Limits(max_message=args.max_message, rate=float(args.rate), burst=2 * args.rate)
    settings = ServerSettings(hand_pause=args.hand_pause, bot_delay=args.bot_delay, grace=args.grace,
                              away_limit=args.away_limit)
    if not 0.5 <= args.lease <= 600:
        return fail(f"--lease must be 0.5 to 600 seconds, got {args.lease:g}")
    server = GameServer(args.db, tables, settings, limits, admin_token=os.environ.get("POKERDRAW32_ADMIN_TOKEN"),
                        lease=args.lease, address=f"{args.host}:{args.port}")
    try:
        app = create_app(server)
    except RuntimeError as exc:
        return fail(exc)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level, ws=ws_protocol(),
                            ws_max_size=limits.max_frame, ws_per_message_deflate=args.compression,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0,
                            lifespan="on", timeout_graceful_shutdown=5)
    config.load()              # uvicorn imports its protocol modules now, not in run()
    # what exists now (the imported modules, their functions and classes: most of the objects
    # the process will hold) lives as long as the process: frozen, the collector's full passes
    # no longer walk it (https://docs.python.org/3/library/gc.html#gc.freeze)
    gc.collect()
    gc.freeze()
    # the collector's young generation is scanned once 20,000 tracked objects more are alive,
    # instead of 700: what each change keeps for a while (its log entries in the room's recent
    # entries, the messages queued, the commit until it is written) reaches 700 within a few
    # changes, and each scan walks it all: about 3% less server CPU per action, in three runs of
    # ``python bench/server_load.py --hands 2500`` interleaved with three at 700 (the older
    # generations' thresholds: 20 each, not 10)
    gc.set_threshold(20_000, 20, 20)
    uvicorn_server(config).run()
    return 0 if server.ready else 1
