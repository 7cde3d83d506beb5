"""Shared fixtures.

Kernel fixtures: ``kernels`` runs a test once per implementation (``cython``:
``pokerdraw32._core``, ``python``: ``pokerdraw32._core_py``); ``core`` and ``pure`` give
both at once for differential tests. The compiled side is *skipped* when it is not
installed or when ``POKERDRAW32_NO_EXTENSIONS`` is set, and is an *error* instead when
``POKERDRAW32_REQUIRE_EXTENSIONS`` (or ``CIBUILDWHEEL=1``) is set.
"""

from __future__ import annotations

import importlib
import os
import signal
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest


def env_flag(name: str) -> bool:
    """The environment-variable parsing of setup.py and pokerdraw32._kernels."""
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


REQUIRE_EXTENSIONS = env_flag("POKERDRAW32_REQUIRE_EXTENSIONS") or os.environ.get("CIBUILDWHEEL") == "1"
NO_EXTENSIONS = env_flag("POKERDRAW32_NO_EXTENSIONS")

# A shell starts a background job (`cmd &` without job control, as in `(.ci/run &)`) with SIGINT
# ignored, and Python keeps it so: Ctrl-C would do nothing in this process and in the processes
# it starts, and the tests of Ctrl-C (tests/test_simulate_measure.py) would fail for the way the
# suite was launched.  They test what an interactive run gets: Python's own handler.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _rule_variety() -> list[Any]:
    from pokerdraw32 import Rules

    return [
        Rules(),
        Rules.preset("two-blind"),
        Rules(structure="pot-limit"),
        Rules(structure="fixed-limit", cap=None),
        Rules(structure="fixed-limit", over_blind=False, reshuffle_folded=True),
        Rules(parole=False, muck_losers=False, second_round_first="after_button"),
        Rules(suit_tiebreak=False, heads_up_button_posts_small=True),
    ]


RULE_VARIETY = _rule_variety()
"""Rules that reach every branch of the hand's core (structures, presets, options), for the tests
that compare two builds or two paths hand by hand."""


def compiled_module(name: str = "pokerdraw32._core") -> ModuleType:
    """A compiled module of the package (the kernels, or ``pokerdraw32._handcore.state_c``, the hand's core,
    ``_state_view_c``, ``_play_c``):
    skipped or an error as the module docstring says."""
    if NO_EXTENSIONS:
        if REQUIRE_EXTENSIONS:
            pytest.fail("POKERDRAW32_NO_EXTENSIONS and POKERDRAW32_REQUIRE_EXTENSIONS are both set")
        pytest.skip("POKERDRAW32_NO_EXTENSIONS is set")
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if REQUIRE_EXTENSIONS:
            raise
        pytest.skip(f"{name} is not available: {exc}")


def _compiled_core() -> ModuleType:
    return compiled_module()


@pytest.fixture(scope="session", params=["cython", "python"], ids=["cython", "python"])
def kernels(request: pytest.FixtureRequest) -> ModuleType:
    """The kernel module of one implementation; tests using it run once per implementation."""
    if request.param == "cython":
        return _compiled_core()
    return importlib.import_module("pokerdraw32._core_py")


@pytest.fixture(scope="session")
def core() -> ModuleType:
    """The compiled kernels, ``pokerdraw32._core`` (skips or errors as described above)."""
    return _compiled_core()


@pytest.fixture(scope="session")
def pure() -> ModuleType:
    """The pure-Python kernels, ``pokerdraw32._core_py``."""
    return importlib.import_module("pokerdraw32._core_py")


@pytest.fixture(scope="session")
def outcome() -> Callable[..., tuple[Any, Any]]:
    """``outcome(function, *args)``: ``("ok", result)`` or ``(exception type, message)``.

    For differential tests: both kernel implementations must agree on this, errors included.
    """

    def call(function: Callable[..., Any], *args: Any) -> tuple[Any, Any]:
        try:
            return ("ok", function(*args))
        except Exception as exc:
            return (type(exc), str(exc))

    return call


@pytest.fixture
def pg() -> Iterator[Any]:
    """A started throwaway PostgreSQL cluster for the cluster tests (``server_support.Postgres``:
    ``url``, ``stop(mode)``, ``start()``), removed after the test; skips the test, saying why, where
    the [server] extra, psycopg or the PostgreSQL binaries are missing.  ``server_support`` is
    imported here, not at the top: the other tests run without the [server] extra."""
    from server_support import postgres_cluster

    with postgres_cluster() as cluster:
        yield cluster
