"""The running event loop without a system call: :func:`running_loop`.

Python 3.11's :func:`asyncio.get_running_loop` calls ``getpid()`` each time (a fork check), and
glibc makes that a system call: the server asked for the loop about seven times per action (each
connection's wake-up, each commit, each timer), about 5% of its CPU under ``python
bench/server_load.py``.
"""

from __future__ import annotations

import asyncio
import os
import threading

__all__ = ["running_loop"]

_local = threading.local()


def _forget() -> None:
    _local.__dict__.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)


def running_loop() -> asyncio.AbstractEventLoop:
    """The event loop running in this thread, as :func:`asyncio.get_running_loop` (the same
    loop): the one found last in this thread while it still runs, else asked for again.  A
    thread runs one loop at a time, and its code runs inside it while it runs, so a cached loop
    that is running is the running one, provided a loop runs in one thread in its life (as
    :func:`asyncio.run` and uvicorn run theirs; a loop run in this thread, then in another while
    this one runs a second loop, would be returned wrongly here).  A forked child forgets the
    parent's loop.

    :raises RuntimeError: no event loop runs in this thread.
    """
    loop: asyncio.AbstractEventLoop | None = getattr(_local, "loop", None)
    if loop is not None and loop.is_running():
        return loop
    loop = _local.loop = asyncio.get_running_loop()
    return loop
