"""Fixtures shared by the tests.

The coupling-facility tests talk to a real Redis-protocol server, never a mock: the
one ``QSG_REDIS_URL`` names, or a private embedded server the suite starts once and
stops at the end. Each test gets its own QSG namespace on it and leaves it empty.
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from actors.clock import VirtualClock
from actors.world import AUDIT_VARIABLE
from coupling.cleanup import delete_group
from coupling.server import EmbeddedServer, configured_url
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from qsg.core.events import Event
from qsg.core.memstore import MemoryStore
from qsg.core.store import MessageStore

_namespaces = itertools.count(1)

# Every world a test starts, here or in a process it runs, audits its stores when it ends
# cleanly (``World.audit``): a counter, index or structure usage that drifted from the
# messages it counts fails the test that let it drift.
os.environ.setdefault(AUDIT_VARIABLE, "1")


@pytest.fixture
def events() -> list[Event]:
    """Collects what a queue manager emits: pass ``on_event=events.append``."""
    return []


@pytest.fixture(scope="session")
def cf_url() -> Iterator[str]:
    """The coupling facility's server for the whole run."""
    url = configured_url()
    if url is not None:
        yield url
        return
    server = EmbeddedServer()
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def cf_transport(cf_url: str) -> Iterator[BlockingTransport]:
    transport = BlockingTransport(cf_url)
    yield transport
    transport.close()


@pytest.fixture
def redis_store(cf_transport: BlockingTransport) -> Iterator[Callable[[], RedisStore]]:
    """Makes coupling-facility stores, each in a namespace of its own; the namespaces'
    keys are deleted afterwards."""
    made: list[RedisStore] = []

    def make() -> RedisStore:
        store = RedisStore(cf_transport, f"T{next(_namespaces)}")
        made.append(store)
        return store

    yield make
    for store in made:
        delete_group(cf_transport, store.qsg)


@pytest.fixture(params=["memory", "redis"])
def each_store(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """Runs a test once on the in-process store and once on the coupling facility's:
    every queue manager and QSG the test makes gets a fresh store of that kind."""
    if request.param == "redis":
        make: Callable[[], MessageStore] = request.getfixturevalue("redis_store")
    else:
        make = MemoryStore
    monkeypatch.setattr("qsg.core.qmgr.MemoryStore", make)
    monkeypatch.setattr("qsg.core.sharing.MemoryStore", make)
    return str(request.param)


@pytest.fixture
def virtual_clock() -> VirtualClock:
    """Runs the (trio) test on the simulator's virtual clock, as ``qsg.run`` would."""
    return VirtualClock()


@pytest.fixture(params=["in-process", "redis"])
def cf_mode(request: pytest.FixtureRequest) -> dict[str, object]:
    """``qsg.start`` options: shared queues in process, or on the suite's Redis server."""
    if request.param == "redis":
        return {"redis_url": request.getfixturevalue("cf_url")}
    return {"in_process": True}


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    """One Spark session (``local[2]``, as CI's two cores) for every pipeline test."""
    from qsg.commands.pipeline.spark import spark_session

    session = spark_session("local[2]")
    yield session
    session.stop()


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A TCP port whose listener accepts every connection and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield int(listener.getsockname()[1])
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    listener.close()


@pytest.fixture
def tcp_server() -> Iterator[EmbeddedServer]:
    """A private Valkey on a loopback port (no TLS)."""
    server = EmbeddedServer(tcp=True)
    server.start()
    yield server
    server.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files with the most slow tests first (each file's own order kept): spread
    over the cores by file (``./dev test``), the longest start first and the short ones
    fill in around them, so no long file is left to run alone at the end."""
    files = [item.nodeid.split("::")[0] for item in items]
    order = {path: n for n, path in enumerate(dict.fromkeys(files))}
    slow = dict.fromkeys(order, 0)
    for path, item in zip(files, items, strict=True):
        slow[path] += item.get_closest_marker("slow") is not None
    key = {id(item): (-slow[path], order[path]) for path, item in zip(files, items, strict=True)}
    items.sort(key=lambda item: key[id(item)])
