"""Promises of docs/security.md that no other test held (issue 42, "Every claim kept"):
what qsg sends a Redis or Valkey server it shares with others."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coupling.server import EmbeddedServer
from coupling.transport import BlockingTransport
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps

SCENARIO = """
description = "a shared queue, on a server someone else uses too"
[run]
duration = 3
seed = 1
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)"
[qsg.QSG1.structures.APP1]
size_kb = 1024
[[workload]]
name = "orders"
type = "putter"
qmgr = "QM1"
queue = "APP.ORDERS"
rate = 5
arrival = "constant"
persistence = "nonpersistent"
"""

#: The commands that walk a whole server or change how it runs (and the two that wipe it:
#: every command whose name starts with "flush").
WALKS_OR_CHANGES = ("keys", "config|set")


@pytest.fixture
def server() -> Iterator[EmbeddedServer]:
    """A server of the test's own, so that its command statistics are qsg's alone."""
    started = EmbeddedServer()
    started.start()
    yield started
    started.stop()


def command_counts(transport: BlockingTransport) -> dict[str, int]:
    """``INFO commandstats``: how many times the server ran each command (``config|set``
    for a subcommand)."""
    info = transport.command("INFO", "commandstats")
    return {name.removeprefix("cmdstat_"): stats["calls"] for name, stats in info.items()}


@keeps(
    "docs/security.md",
    "qsg sends no command that walks or wipes a server it does not own (no KEYS, FLUSHALL or "
    "CONFIG SET): it deletes its own keys with SCAN and UNLINK.",
)
def test_runs_on_a_shared_server_delete_their_own_keys_with_scan_and_unlink_and_nothing_else(
    server: EmbeddedServer,
) -> None:
    transport = BlockingTransport(server.url)
    try:
        transport.command("SET", "someone.else:orders", "kept")
        transport.command("CONFIG", "RESETSTAT")  # the test's own commands counted out
        scenario = parse_scenario(SCENARIO, "shared.toml")
        run_scenario(scenario, redis_url=server.url)
        run_scenario(scenario, redis_url=server.url)  # starts by clearing the first run's
        counts = command_counts(transport)
        assert transport.command("GET", "someone.else:orders") == b"kept"
    finally:
        transport.close()
    assert counts.get("scan", 0) >= 2 and counts.get("unlink", 0) >= 1, counts
    sent = [name for name in counts if name in WALKS_OR_CHANGES or name.startswith("flush")]
    assert sent == [], counts
