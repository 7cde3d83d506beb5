"""A real Dask cluster (the [dask] extra): simulations and odds batches run on a LocalCluster of two
worker processes give exactly what they give on this thread and on local workers; connect() reaches
the scheduler, and says what is wrong when it cannot.  The cluster tests are skipped when
``distributed`` is not installed; the tests of connect()'s errors run without it."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from concurrent.futures import Executor
from typing import Any

import pytest

import pokerdraw32
from pokerdraw32 import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, draw_odds_many, equity_many
from pokerdraw32.cluster import ClusterError, DaskMissingError, connect
from pokerdraw32.simulate import simulate

MODES = [{"mode": "reset"}, {"mode": "reset", "duplicate": True}, {"mode": "session"}]
AIVAT = {"mode": "reset", "estimator": "aivat", "samples": 8, "hands": 1200}   # the [aivat] extra's numpy
HANDS = ["Ah Ad 7c 8s 9d", "Kh Qh Jh Th 8s", "Ks Kd 9c 8h 7s", "As Ks Qs Js Ts", "7s 7c 7d 8h 8d"]
DISCARDS = [["7c 8s 9d", ""], ["8s", "Jh Th 8s"], ["9c 8h 7s"], [""], ["8h 8d", "7d"]]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close(timeout=30)


@pytest.fixture(scope="module")
def client(cluster: Any) -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with distributed.Client(cluster, timeout=30, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        yield client


def comparable(result: Any) -> dict[str, Any]:
    d: dict[str, Any] = result.to_dict()
    del d["run"]
    return d


def test_the_workers_run_this_pokerdraw32(client: Any) -> None:
    def where() -> tuple[str, str, str]:
        import pokerdraw32

        return pokerdraw32.__file__, pokerdraw32.IMPLEMENTATION, pokerdraw32.__version__

    here = (pokerdraw32.__file__, pokerdraw32.IMPLEMENTATION, pokerdraw32.__version__)
    found = client.run(where)
    assert len(found) == 2
    assert all(tuple(w) == here for w in found.values()), (found, here)


@pytest.mark.parametrize("kwargs", [*MODES, AIVAT], ids=["reset", "duplicate", "session", "aivat"])
def test_simulate_on_the_cluster_equals_one_thread_and_two_workers(client: Any, kwargs: dict[str, Any]) -> None:
    if kwargs.get("estimator") == "aivat":
        pytest.importorskip("numpy")
    args: dict[str, Any] = {"players": 3, "hands": 3000, "seed": 20261201, "chunk": 500, **kwargs}
    one = simulate(**args)
    two = simulate(**args, workers=2)
    dask = simulate(**args, executor=client.get_executor())
    assert one.complete and one.hands_played == args["hands"]
    assert len(one.chunks) == -(-args["hands"] // 501)          # chunks of 500 hands rounded up to 3 players
    assert comparable(dask) == comparable(one) == comparable(two)
    text = json.dumps(comparable(one), sort_keys=True)
    assert json.dumps(comparable(two), sort_keys=True) == text
    assert json.dumps(comparable(dask), sort_keys=True) == text
    assert (dask.executor, dask.workers) == ("ClientExecutor", 2)
    assert (one.executor, one.workers) == ("this thread", 1)


def test_odds_batches_on_the_cluster_equal_local_ones(client: Any) -> None:
    executor = client.get_executor()
    dead = ["", "Ac", None, "Ah Kh", ()]
    local = draw_odds_many(HANDS, dead=dead, discards=DISCARDS)
    assert draw_odds_many(HANDS, dead=dead, discards=DISCARDS, executor=executor, chunk=2) == local
    assert draw_odds_many(HANDS[:2], executor=executor) == draw_odds_many(HANDS[:2])      # all 31 discards
    discard = ["7c 8s 9d", "8s", "9c 8h 7s", "", "8h 8d"]
    spots = equity_many(HANDS, 2, discard=discard, trials=400, seed=5, dead=dead)
    assert equity_many(HANDS, 2, discard=discard, trials=400, seed=5, dead=dead, executor=executor, chunk=1) == spots
    tables = equity_many(HANDS[:2], top=2, trials=100, seed=6)
    assert equity_many(HANDS[:2], top=2, trials=100, seed=6, executor=executor) == tables


def test_connect_to_the_scheduler(cluster: Any) -> None:
    client, executor = connect(cluster.scheduler_address, timeout=30)
    try:
        assert isinstance(executor, Executor)
        assert client.scheduler.address == cluster.scheduler_address
        args: dict[str, Any] = {"players": 4, "hands": 800, "seed": 3, "chunk": 200}
        assert comparable(simulate(**args, executor=executor)) == comparable(simulate(**args))
        assert draw_odds_many(HANDS, discards=DISCARDS, executor=executor) == draw_odds_many(HANDS, discards=DISCARDS)
    finally:
        client.close()


def test_connect_says_when_no_scheduler_answers() -> None:
    pytest.importorskip("distributed")
    with socket.socket() as s:       # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    with pytest.raises(ClusterError) as info:
        connect(address, timeout=1)
    assert str(info.value).startswith(f"no Dask scheduler answered at {address} within 1 s (")
    assert str(info.value).endswith(f"start one with `dask scheduler` and workers with `dask worker {address}`")
    assert isinstance(info.value, PokerDraw32Error) and isinstance(info.value, ConnectionError)
    with pytest.raises(PokerDraw32ValueError, match=r"^address 'localhost' is not a scheduler address such as "
                                                    r"'tcp://host:8786': missing port number"):
        connect("localhost")


@pytest.mark.parametrize(("address", "timeout", "error", "message"), [
    (8786, 1.0, PokerDraw32TypeError, "address must be the scheduler's address as a str, e.g. 'tcp://host:8786', "
                                      "got 8786"),
    ("  ", 1.0, PokerDraw32ValueError, "address is empty: give the scheduler's address, e.g. 'tcp://host:8786'"),
    ("tcp://h:8786", "5", PokerDraw32TypeError, "timeout must be a number of seconds, got '5'"),
    ("tcp://h:8786", True, PokerDraw32TypeError, "timeout must be a number of seconds, got True"),
    ("tcp://h:8786", 0, PokerDraw32ValueError, "timeout=0: seconds to wait for the scheduler, > 0"),
    ("tcp://h:8786", float("nan"), PokerDraw32ValueError, "timeout=nan: seconds to wait for the scheduler, > 0"),
])
def test_connect_refuses_bad_arguments(address: Any, timeout: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        connect(address, timeout=timeout)
    assert str(info.value) == message


def test_connect_names_the_extra_when_distributed_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)     # `import distributed` raises ImportError
    with pytest.raises(DaskMissingError) as info:
        connect("tcp://127.0.0.1:8786", timeout=1)
    assert str(info.value).startswith('running on a Dask cluster needs the [dask] extra: pip install '
                                      '"pokerdraw32[dask]" (importing distributed failed: ')
    assert isinstance(info.value, ImportError) and isinstance(info.value, PokerDraw32Error)
