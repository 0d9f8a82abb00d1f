"""A coupling facility's server in a state that passes (issue 43): loading its data,
busy with a long script (BUSY), a read-only replica (READONLY), a replica that lost its
primary (MASTERDOWN), a cluster moving keys (TRYAGAIN). In each the server runs nothing
of a call it refuses, so the call waits and is sent again, within ``loading_timeout``;
past it the call gets MQRC_CF_STRUC_IN_USE (2346: "the coupling-facility structure ...
is unavailable ... Typically, this is a temporary problem: wait for a while then retry
the operation", IBM MQ for z/OS reason codes), never a RuntimeError that ends the run.

Each against a real Valkey the test starts (REPLICAOF a port nobody listens on for
READONLY and MASTERDOWN; a script looping past busy-reply-threshold for BUSY), through
each of the three transports.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import greenback
import pytest
import trio
import valkey

import qsg
from actors.events import CFFailed
from actors.topology import Topology
from coupling.direct import DirectTransport
from coupling.errors import TRANSIENT, CFRefusedError, Unavailability, transient
from coupling.server import EmbeddedServer, free_port
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from coupling.trio_transport import TrioTransport
from qsg import CMQC, MD, PMO, MQMIError
from tests.claims import keeps

BOUND = 30  # wall seconds any one call may take here
NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


# ---- the states, made on a real server -------------------------------------------------------
@contextmanager
def read_only(url: str) -> Iterator[Callable[[], None]]:
    """The server a replica of a primary that is not there (REPLICAOF a closed port): it
    refuses every write, and every script of qsg's writes. Yields the undoing."""
    admin = valkey.Valkey.from_url(url)
    admin.execute_command("REPLICAOF", "127.0.0.1", free_port())

    def undo() -> None:
        admin.execute_command("REPLICAOF", "NO", "ONE")

    try:
        yield undo
    finally:
        undo()
        admin.close()


@contextmanager
def master_down(url: str) -> Iterator[Callable[[], None]]:
    """A replica that lost its primary and will not serve stale data: it refuses
    nearly everything, reads included (MASTERDOWN)."""
    admin = valkey.Valkey.from_url(url)
    admin.execute_command("CONFIG", "SET", "replica-serve-stale-data", "no")
    with read_only(url) as undo_replica:

        def undo() -> None:
            undo_replica()
            admin.execute_command("CONFIG", "SET", "replica-serve-stale-data", "yes")

        try:
            yield undo
        finally:
            undo()
            admin.close()


@contextmanager
def busy(url: str) -> Iterator[Callable[[], None]]:
    """Another client's script runs on and on, past busy-reply-threshold: the server
    answers BUSY to everything but SCRIPT KILL and SHUTDOWN NOSAVE."""
    admin = valkey.Valkey.from_url(url)
    admin.execute_command("CONFIG", "SET", "busy-reply-threshold", 50)
    looping = threading.Thread(
        target=_loop_forever, args=(url,), daemon=True, name="a script that never ends"
    )
    looping.start()
    deadline = time.monotonic() + BOUND
    while True:  # until the server says BUSY
        try:
            admin.execute_command("PING")
        except valkey.exceptions.ResponseError as error:
            said = str(error)
            break
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert said.startswith("BUSY")

    def undo() -> None:
        with _suppress_not_busy():
            admin.execute_command("SCRIPT", "KILL")
        looping.join(BOUND)

    try:
        yield undo
    finally:
        undo()
        admin.close()


def _loop_forever(url: str) -> None:
    with _suppress_not_busy():
        valkey.Valkey.from_url(url).execute_command("EVAL", "while true do end", 0)


@contextmanager
def _suppress_not_busy() -> Iterator[None]:
    """SCRIPT KILL once the script has ended, or the killed script's own error."""
    said = ""
    try:
        yield
    except valkey.exceptions.ResponseError as error:
        said = str(error)
    assert not said or "NOTBUSY" in said or "killed" in said, said


STATES = {"READONLY": read_only, "MASTERDOWN": master_down, "BUSY": busy}


# ---- the transports, each driving the same store call -------------------------------------------
def _with_direct(url: str, call: Callable[[RedisStore], Any]) -> Any:
    with DirectTransport.open(url) as transport:
        return call(RedisStore(transport, "EDGE3"))


def _with_blocking(url: str, call: Callable[[RedisStore], Any]) -> Any:
    transport = BlockingTransport(url)
    try:
        return call(RedisStore(transport, "EDGE3"))
    finally:
        transport.close()


def _with_trio(url: str, call: Callable[[RedisStore], Any]) -> Any:
    async def main() -> Any:
        async with TrioTransport.open(url) as transport:
            await greenback.ensure_portal()
            return call(RedisStore(transport, "EDGE3"))

    return trio.run(main)


TRANSPORTS = {"direct": _with_direct, "blocking": _with_blocking, "trio": _with_trio}


def _define(store: RedisStore) -> None:
    store.define_structure("APP1", size_kb=1024, cf_level=5)


def _usage(store: RedisStore) -> None:
    store.structure_usage("APP1")


#: The call each state refuses: a script (every one of qsg's writes) for a read-only or
#: busy server; a plain read for a replica that lost its primary (a read-only one that
#: serves stale data answers reads).
CALLS = {"READONLY": _define, "BUSY": _define, "MASTERDOWN": _usage}


def _twice(call: Callable[[RedisStore], None]) -> Callable[[RedisStore], Any]:
    def both(store: RedisStore) -> tuple[MQMIError, MQMIError, float]:
        """The first call's error, the second's, and how long the second took."""
        with pytest.raises(MQMIError) as first:
            call(store)
        began = time.monotonic()
        with pytest.raises(MQMIError) as second:
            call(store)
        return first.value, second.value, time.monotonic() - began

    return both


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
@keeps(
    "docs/coupling-facility.md",
    "how long a call keeps being sent again to a server in a transient state (LOADING, BUSY, "
    "READONLY, MASTERDOWN, TRYAGAIN:",
)
def test_a_call_to_a_server_in_a_transient_state_waits_until_it_passes(
    tcp_server: EmbeddedServer, state: str, transport: str
) -> None:
    with STATES[state](tcp_server.url) as undo:
        threading.Timer(0.5, undo).start()  # the state passes in half a second
        began = time.monotonic()
        TRANSPORTS[transport](tcp_server.url + "?loading_timeout=20", CALLS[state])
        assert 0.4 < time.monotonic() - began < BOUND  # it waited, then it ran


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("transport", sorted(TRANSPORTS))
@keeps(
    "docs/coupling-facility.md",
    "once one has lasted that long, every call that meets it fails at once until it passes",
)
def test_a_server_in_a_transient_state_past_loading_timeout_is_mqrc_cf_struc_in_use_2346(
    tcp_server: EmbeddedServer, state: str, transport: str
) -> None:
    with STATES[state](tcp_server.url):
        first, second, took = TRANSPORTS[transport](
            tcp_server.url + "?loading_timeout=1.5", _twice(CALLS[state])
        )
    assert first.reason == second.reason == CMQC.MQRC_CF_STRUC_IN_USE
    assert f"({state}) after 1.5 s (loading_timeout)" in str(first)
    # The state had lasted its bound: the next call that meets it fails at once, rather
    # than waiting the whole timeout again.
    assert took < 1.0


@keeps(
    "docs/coupling-facility.md",
    "nothing, while the state lasts (the call waits, within `loading_timeout`, as for LOADING); "
    "then MQRC_CF_STRUC_IN_USE (2346)",
)
def test_a_run_whose_facility_turns_read_only_fails_its_calls_with_2346_and_goes_on(
    tcp_server: EmbeddedServer,
) -> None:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc(
        "QM1",
        """
        DEFINE CFSTRUCT(APP1) CFLEVEL(5)
        DEFINE QLOCAL(APP.PAYMENTS) QSGDISP(SHARED) CFSTRUCT(APP1)
        """,
    )
    url = tcp_server.url + "?loading_timeout=0.5"

    async def main() -> None:
        async with qsg.start(topology, redis_url=url) as world:
            conn = await world.connect("QM1")
            q = await conn.open("APP.PAYMENTS", CMQC.MQOO_OUTPUT)
            await q.put(b"before", MD(), NO_SYNC)
            with read_only(tcp_server.url):
                with trio.fail_after(BOUND), pytest.raises(MQMIError) as refused:
                    await q.put(b"while a replica", MD(), NO_SYNC)
                assert refused.value.reason == CMQC.MQRC_CF_STRUC_IN_USE
            await q.put(b"after", MD(), NO_SYNC)  # the facility is usable again
            (failure,) = world.events.of(CFFailed)
            assert failure.reason == CMQC.MQRC_CF_STRUC_IN_USE and not failure.scheduled

    qsg.run(main)


def test_the_transient_states_are_told_by_the_reply_s_whole_first_word() -> None:
    assert transient("BUSY Valkey is busy running a script.") == "BUSY"
    assert transient("BUSYKEY Target key name already exists.") is None
    assert transient("TRYAGAIN Multiple keys request during rehashing of slot") == "TRYAGAIN"
    assert transient("ERR READONLY is not the first word") is None
    assert set(TRANSIENT) == {"LOADING", "BUSY", "READONLY", "MASTERDOWN", "TRYAGAIN"}


def test_a_call_waiting_longer_than_the_timeout_between_sendings_still_fails_at_the_bound() -> None:
    """loading_timeout=0.05 and pauses of up to half a second: the state has lasted its
    bound at the second sending, however long the pause before it."""
    waiting = Unavailability(timeout=0.05)
    waiting.met("LOADING", 100.0)
    with pytest.raises(CFRefusedError) as refused:
        waiting.met("LOADING", 100.08)
    assert refused.value.reason == CMQC.MQRC_CF_STRUC_IN_USE


def test_a_transient_state_is_new_once_a_refused_call_got_through_or_none_met_it() -> None:
    waiting = Unavailability(timeout=10.0)
    waiting.met("READONLY", 100.0)
    waiting.met("READONLY", 109.0)  # still within its bound
    with pytest.raises(CFRefusedError):
        waiting.met("READONLY", 110.0)
    with pytest.raises(CFRefusedError):
        waiting.met("READONLY", 115.0)  # at once: the state has outlasted its bound
    waiting.met("BUSY", 200.0)  # 85 s without one: another state, another bound
    waiting.passed()  # a refused call got through
    waiting.met("BUSY", 209.5)  # a new wait
