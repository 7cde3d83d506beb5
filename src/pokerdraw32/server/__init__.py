"""The reference game server (extra ``pokerdraw32[server]``): ``pokerdraw32 serve``.

Tables over a versioned JSON protocol on one WebSocket per client (PROTOCOL.md), a browser table
page, clocks with time banks and a disconnect grace period, and persistence that commits every
accepted action before anyone is told (SQLite by default, PostgreSQL with ``--db
postgresql://...``).  It imports the engine; the engine never imports it.

* :mod:`.protocol`: reading client messages, error codes, limits;
* :mod:`.store`: the database (one transaction per accepted request, group commit);
* :mod:`.config`: the server's timing and each table's settings (``--tables``), the default tables;
* :mod:`.room`: one table: its players, log, clocks and bots;
* :mod:`.connection`: one client's WebSocket, its seat or watch, its outgoing frames;
* :mod:`.cluster`: several server processes on one PostgreSQL database (leases, the relay);
* :mod:`.app`: the Starlette application and the requests;
* :mod:`.run`: the ``serve`` command under uvicorn.

>>> from pokerdraw32.server.protocol import PROTOCOL_VERSION
>>> PROTOCOL_VERSION
1
"""

from __future__ import annotations

__all__ = ["PROTOCOL_VERSION"]

from .protocol import PROTOCOL_VERSION
