"""A Dask cluster as an executor for simulations and odds batches (the ``[dask]`` extra).

:func:`connect` reaches a running Dask scheduler and returns its client and a
:class:`concurrent.futures.Executor` that runs tasks on the cluster's workers; pass that executor
to :func:`pokerdraw32.simulate`, :func:`~pokerdraw32.odds_batch.draw_odds_many` or
:func:`~pokerdraw32.odds_batch.equity_many`.  The results are the same as on this thread, for the
same seed: the work is cut into chunks whose size does not depend on who runs them
(:mod:`pokerdraw32.parallel`).

A cluster of one machine or many::

    dask scheduler                          # prints its address, e.g. tcp://10.0.0.5:8786
    dask worker tcp://10.0.0.5:8786         # on each machine, in an environment with pokerdraw32

then::

    >>> client, executor = connect("tcp://10.0.0.5:8786")          # doctest: +SKIP
    >>> result = simulate(players=5, hands=1_000_000, seed=7, executor=executor)   # doctest: +SKIP
    >>> client.close()                                               # doctest: +SKIP

The workers must run the same version of pokerdraw32 (a different version may play other hands
for the same seed).  Nothing here is imported by ``import pokerdraw32``, and ``distributed`` is
imported only by :func:`connect`.
"""

from __future__ import annotations

import importlib
from concurrent.futures import Executor
from typing import Any

from .errors import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, shown

__all__ = ["EXTRA", "ClusterError", "DaskMissingError", "connect"]

EXTRA = 'pip install "pokerdraw32[dask]"'
"""The command that installs what :func:`connect` needs (``distributed``)."""


class DaskMissingError(PokerDraw32Error, ImportError):
    """Dask's ``distributed`` package is not installed: ``except ImportError`` catches it too."""


class ClusterError(PokerDraw32Error, ConnectionError):
    """The Dask scheduler cannot be reached: ``except ConnectionError`` (an ``OSError``) catches it too."""


def _distributed() -> Any:
    """The ``distributed`` module, or :class:`DaskMissingError` naming the extra."""
    try:
        return importlib.import_module("distributed")
    except ImportError as exc:
        raise DaskMissingError(f"running on a Dask cluster needs the [dask] extra: {EXTRA} "
                               f"(importing distributed failed: {exc})") from exc


def connect(address: str, *, timeout: float = 10.0) -> tuple[Any, Executor]:
    """Connect to the Dask scheduler at ``address``.

    :param address: the scheduler's address, as ``dask scheduler`` prints it:
        ``"tcp://host:8786"`` (or a ``distributed.LocalCluster``'s ``scheduler_address``).
    :param timeout: seconds to wait for the scheduler, ``> 0`` (default 10).
    :returns: ``(client, executor)``: the ``distributed.Client`` (close it with ``client.close()``
        when done, or use it as a context manager) and ``client.get_executor(pure=False)``, a
        :class:`concurrent.futures.Executor` for the ``executor=`` argument of
        :func:`pokerdraw32.simulate` and the odds batches (each task is run, none is taken from a
        cache of earlier results).
    :raises PokerDraw32TypeError: ``address`` is not a str, ``timeout`` not a number.
    :raises PokerDraw32ValueError: ``address`` is empty or not an address, ``timeout`` is not positive.
    :raises DaskMissingError: ``distributed`` is not installed (the message says ``pip install
        "pokerdraw32[dask]"``).
    :raises ClusterError: no scheduler answered at ``address`` within ``timeout`` seconds.

    >>> connect("tcp://127.0.0.1:8786", timeout=0)
    Traceback (most recent call last):
    ...
    pokerdraw32.errors.PokerDraw32ValueError: timeout=0: seconds to wait for the scheduler, > 0
    """
    if not isinstance(address, str):
        raise PokerDraw32TypeError(f"address must be the scheduler's address as a str, e.g. 'tcp://host:8786', "
                                   f"got {shown(address)}")
    if not address.strip():
        raise PokerDraw32ValueError("address is empty: give the scheduler's address, e.g. 'tcp://host:8786'")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise PokerDraw32TypeError(f"timeout must be a number of seconds, got {shown(timeout)}")
    if not 0 < timeout < float("inf"):
        raise PokerDraw32ValueError(f"timeout={timeout!r}: seconds to wait for the scheduler, > 0")
    distributed = _distributed()
    try:   # the address first: a Client that fails on it would linger until exit, then fail to close
        scheme = distributed.comm.parse_address(address, strict=False)[0]
        known = sorted(distributed.comm.registry.backends)
        if scheme not in known:
            raise ValueError(f"unknown scheme {scheme!r} (Dask speaks {', '.join(known)})")
        if scheme in ("tcp", "tls"):
            distributed.comm.get_address_host_port(address)
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except ValueError as exc:            # distributed's own: not an address ("missing port number ...")
        raise PokerDraw32ValueError(f"address {address!r} is not a scheduler address such as 'tcp://host:8786': "
                                    f"{exc}") from exc
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"no Dask scheduler answered at {address} within {timeout:g} s ({exc}); start one with "
                           f"`dask scheduler` and workers with `dask worker {address}`") from exc
    return client, client.get_executor(pure=False)
