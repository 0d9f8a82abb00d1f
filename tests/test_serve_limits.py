"""``qsg serve``'s limits and timeouts, by real clients on a real port: a slow or
half-open client does not stop anyone else's request, many connections at once are all
served, a body or header over the limit gets an answer and not a hang, a message longer
than the queue's MAXMSGL is MQRC_MSG_TOO_BIG_FOR_Q (2030) as MQPUT makes it, and the
server closes what a client leaves open."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx
import pytest

from tests.claims import keeps
from tests.serving import Server, serving

SCENARIO = """
description = "qsg serve's limits"
[run]
duration = 3600
seed = 3
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = '''
DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1)
DEFINE QLOCAL(DEV.SHORT) QSGDISP(SHARED) CFSTRUCT(APP1) MAXMSGL(100)
'''

[qsg.QSG1.structures.APP1]
size_kb = 65536

[qmgr.QM1]
[qmgr.QM2]
"""
TEXT = {"ibm-mq-rest-csrf-token": "", "Content-Type": "text/plain;charset=utf-8"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("serve-limits") / "limits.toml"
    path.write_text(SCENARIO)
    with serving(path) as running:
        yield running


def message_url(server: Server, queue: str = "DEV.QUEUE.1") -> str:
    return f"{server.url}/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{queue}/message"


def raw_connection(server: Server) -> socket.socket:
    where = urlsplit(server.url)
    return socket.create_connection((where.hostname, where.port), timeout=30)


def response_of(sock: socket.socket) -> bytes:
    """The first HTTP response on ``sock``: its head and the body its Content-Length gives."""
    sock.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """True when the server closes ``sock`` (an end of stream or a reset) within
    ``within`` seconds; whatever it sends first (an error response) is read past."""
    sock.settimeout(within)
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            if sock.recv(65536) == b"":
                return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return False


@keeps(
    "docs/rest.md",
    "one whose request headers are not complete five seconds after it opened (a client that "
    "trickles them a byte at a time included)",
)
def test_a_client_that_trickles_its_headers_holds_no_one_up_and_is_closed_after_5_seconds(
    server: Server,
) -> None:
    slow = raw_connection(server)
    slow.sendall(b"POST /ibmmq/rest/v2/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message HTTP/1.1\r\n")
    silent = raw_connection(server)  # connected, and never a byte (half-open as far as we know)
    started = time.monotonic()
    answer = httpx.post(message_url(server), headers=TEXT, content="past the slow ones")
    assert answer.status_code == 201
    assert time.monotonic() - started < 2.0
    slow.sendall(b"Host: x\r\n")  # a byte now and then does not keep it open
    assert closed_by_server(slow, within=10.0)
    assert closed_by_server(silent, within=2.0)
    assert time.monotonic() - started > 4.0  # hypercorn's keep-alive timeout, 5 s
    slow.close()
    silent.close()


def test_a_request_whose_body_stops_coming_holds_no_one_up(server: Server) -> None:
    stalled = raw_connection(server)
    stalled.sendall(
        b"POST /ibmmq/rest/v2/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message HTTP/1.1\r\n"
        b"Host: x\r\nibm-mq-rest-csrf-token: \r\nContent-Type: text/plain\r\n"
        b"Content-Length: 1000\r\n\r\nonly part of it"
    )
    started = time.monotonic()
    for n in range(5):
        answer = httpx.post(message_url(server), headers=TEXT, content=f"meanwhile {n}")
        assert answer.status_code == 201
    assert time.monotonic() - started < 5.0
    stalled.close()


@keeps(
    "docs/rest.md",
    "Each connection is served on its own, so a slow or stalled client holds up no other",
)
def test_five_hundred_connections_at_once_are_all_served(server: Server) -> None:
    idle = [raw_connection(server) for _ in range(300)]
    url = message_url(server)

    def put_then_get(n: int) -> tuple[int, int]:
        with httpx.Client(timeout=30) as client:
            put = client.post(url, headers=TEXT, content=f"crowd {n}")
            got = client.delete(url, headers=TEXT)
            return put.status_code, got.status_code

    started = time.monotonic()
    with ThreadPoolExecutor(200) as pool:
        answers = list(pool.map(put_then_get, range(200)))
    assert answers == [(201, 200)] * 200
    assert time.monotonic() - started < 60.0
    for sock in idle:
        sock.close()
    assert httpx.get(f"{server.url}/ibmmq/rest/v1/admin/qmgr").status_code == 200


@keeps("docs/rest.md", "a request's headers may be 16 KB at most")
@pytest.mark.parametrize("size_kb", [20, 100])
def test_headers_over_16_kb_are_refused_and_the_server_goes_on(
    server: Server, size_kb: int
) -> None:
    # 20 KB arrive in one read (the application refuses them, 431 and IBM's body);
    # 100 KB in pieces (hypercorn's h11 refuses them before the application).
    sock = raw_connection(server)
    sock.sendall(
        b"GET /ibmmq/rest/v1/admin/qmgr HTTP/1.1\r\nHost: x\r\nX-Big: "
        + b"a" * (size_kb * 1024)
        + b"\r\n\r\n"
    )
    first = response_of(sock)
    assert first.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400")), first[:80]
    if size_kb == 20:
        assert first.startswith(b"HTTP/1.1 431") and b"MQWB0000E" in first
    assert closed_by_server(sock, within=10.0)
    sock.close()
    assert httpx.get(f"{server.url}/ibmmq/rest/v1/admin/qmgr").status_code == 200


@keeps(
    "docs/rest.md",
    "A message longer than the queue's MAXMSGL is refused by the put itself, 500 with reason "
    "2030 (MQRC_MSG_TOO_BIG_FOR_Q).",
)
def test_a_message_longer_than_the_queues_maxmsgl_is_mqrc_msg_too_big_for_q_2030(
    server: Server,
) -> None:
    answer = httpx.post(message_url(server, "DEV.SHORT"), headers=TEXT, content="x" * 101)
    assert answer.status_code == 500
    error = answer.json()["error"][0]
    assert (error["completionCode"], error["reasonCode"]) == (2, 2030)
    fits = httpx.post(message_url(server, "DEV.SHORT"), headers=TEXT, content="x" * 100)
    assert fits.status_code == 201


@keeps("docs/rest.md", "a body over 4 MB (MQ's default MAXMSGL), refused before it is read")
def test_a_body_over_4_mb_is_refused_413_before_it_is_sent_in_full(server: Server) -> None:
    sock = raw_connection(server)
    sock.sendall(
        b"POST /ibmmq/rest/v2/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message HTTP/1.1\r\n"
        b"Host: x\r\nibm-mq-rest-csrf-token: \r\nContent-Type: text/plain\r\n"
        + f"Content-Length: {100 * 1024 * 1024}\r\n\r\n".encode()
    )
    first = response_of(sock)  # answered without the 100 MB being sent
    assert first.startswith(b"HTTP/1.1 413"), first[:80]
    assert b"MQWB2004E" in first
    sock.close()


def test_an_error_answered_before_its_body_came_leaves_the_connection_for_the_next_request(
    server: Server,
) -> None:
    # HTTP/1.1 keep-alive (RFC 9112, "Persistence"): a refusal found from the URL alone
    # (404 here) answered while the body is still on its way must not leave the connection
    # out of step; the client's next request on it is answered. Before the server read
    # the rest first, h11 ended such a connection without a word (the fuzz test's
    # "Server disconnected without sending a response").
    sock = raw_connection(server)
    sock.sendall(
        b"OPTIONS /ibmmq/rest/v4/messaging/qmgr/QM9/queue/Q/message HTTP/1.1\r\n"
        b"Host: x\r\nContent-Length: 5\r\n\r\n"
    )
    time.sleep(0.5)  # the answer goes out before the body arrives
    sock.sendall(b"false")
    first = response_of(sock)
    assert first.startswith(b"HTTP/1.1 404"), first[:80]
    sock.sendall(b"GET /ibmmq/rest/v4/nothing HTTP/1.1\r\nHost: x\r\n\r\n")
    second = response_of(sock)
    assert second.startswith(b"HTTP/1.1 404"), second[:80]
    sock.close()


def test_none_of_the_above_left_a_traceback_in_the_servers_output(server: Server) -> None:
    assert "Traceback" not in server.output()
