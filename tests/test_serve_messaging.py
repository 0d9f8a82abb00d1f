"""``qsg serve``'s messaging REST API, by a real HTTP client against the server on a
free port: IBM MQ's "POST", "DELETE" and "GET /messaging/qmgr/{qmgrName}/queue/
{queueName}/message" pages, their headers, status codes and error bodies."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.claims import keeps
from tests.serving import Server, serving

SCENARIO = """
description = "the REST API's tests"
[run]
duration = 3600
seed = 1
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2", "QM3"]
mqsc = '''
DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1)
DEFINE QLOCAL(DEV.QUEUE.2) QSGDISP(SHARED) CFSTRUCT(APP1)
DEFINE QLOCAL(DEV.QUEUE.3) QSGDISP(SHARED) CFSTRUCT(APP1)
DEFINE QLOCAL(DEV.QUEUE.4) QSGDISP(SHARED) CFSTRUCT(APP1)
DEFINE QLOCAL(DEV.QUEUE.5) QSGDISP(SHARED) CFSTRUCT(APP1)
DEFINE QLOCAL(DEV.SMALL) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(1)
'''

[qsg.QSG1.structures.APP1]
size_kb = 65536
recover = true  # RECOVER(YES): persistent messages may be put (else 2048)

[qmgr.QM1]
mqsc = "DEFINE QLOCAL('A/B.C%D')"
[qmgr.QM2]
[qmgr.QM3]

[[workload]]
name = "binary"
type = "putter"
qmgr = "QM1"
queue = "DEV.QUEUE.5"
rate = 50
stop = 1

[[fault]]
at = 1
action = "kill"
qmgr = "QM3"
duration = 3000
"""
CSRF = {"ibm-mq-rest-csrf-token": ""}
TEXT = {**CSRF, "Content-Type": "text/plain;charset=utf-8"}
Q1 = "QM1/queue/DEV.QUEUE.1"
BAD = "MQWB0302E"  # an invalid request header value


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("serve") / "rest.toml"
    path.write_text(SCENARIO)
    with serving(path) as running:
        time.sleep(1.5)  # QM3 is killed at 1 s
        yield running


def message_url(server: Server, q_mgr: str, queue: str, version: str = "v2") -> str:
    return f"{server.url}/ibmmq/rest/{version}/messaging/qmgr/{q_mgr}/queue/{queue}/message"


@keeps(
    "docs/rest.md",
    "The first puts a message through QM1, the second gets it through QM2: "
    "DEV.QUEUE.1 is a shared queue.",
)
@keeps(
    "docs/rest.md",
    "**POST** puts the body as one message (MQPUT1, outside syncpoint) and answers **201 "
    "Created** with `ibm-mq-md-messageId`.",
)
def test_a_post_puts_a_message_201_with_its_message_id_and_a_delete_on_another_member_gets_it(
    server: Server,
) -> None:
    """IBM: POST answers 201 Created with ibm-mq-md-messageId; a shared queue's message
    put through one member is got through another."""
    put = httpx.post(message_url(server, "QM1", "DEV.QUEUE.1"), headers=TEXT, content="Hello World")
    assert put.status_code == 201, put.text
    msg_id = put.headers["ibm-mq-md-messageId"]
    assert len(msg_id) == 48 and int(msg_id, 16) >= 0  # v2: 48 hex digits
    got = httpx.delete(message_url(server, "QM2", "DEV.QUEUE.1"), headers=CSRF)
    assert got.status_code == 200
    assert got.text == "Hello World"
    assert got.headers["ibm-mq-md-messageId"] == msg_id
    assert got.headers["content-type"].startswith("text/plain")
    # IBM: persistence defaults to nonPersistent, whatever the queue's DEFPSIST.
    assert got.headers["ibm-mq-md-persistence"] == "nonPersistent"
    assert got.headers["ibm-mq-md-expiry"] == "unlimited"


@keeps("docs/rest.md", "or **204 No Content** when there is none.")
def test_a_delete_on_an_empty_queue_answers_204_no_content(server: Server) -> None:
    got = httpx.delete(message_url(server, "QM1", "DEV.QUEUE.2"), headers=CSRF)
    assert got.status_code == 204
    assert got.content == b""


@keeps("docs/rest.md", "**GET** browses the first message (200, or 204), leaving it on the queue.")
def test_a_get_browses_the_first_message_and_leaves_it_on_the_queue(server: Server) -> None:
    url = message_url(server, "QM1", "DEV.QUEUE.2")
    assert httpx.post(url, headers=TEXT, content="first").status_code == 201
    assert httpx.post(url, headers=TEXT, content="second").status_code == 201
    for _ in range(2):
        browsed = httpx.get(url)
        assert browsed.status_code == 200 and browsed.text == "first"
    assert httpx.delete(url, headers=CSRF).text == "first"
    assert httpx.delete(url, headers=CSRF).text == "second"
    assert httpx.get(url).status_code == 204


@keeps(
    "docs/rest.md",
    "A get answers with `ibm-mq-md-messageId`, `ibm-mq-md-correlationId` (when set), "
    "`ibm-mq-md-persistence`, `ibm-mq-md-expiry` (milliseconds left, or `unlimited`),"
    " `ibm-mq-md-replyTo`",
)
def test_the_request_headers_persistence_expiry_correlation_id_and_reply_to_come_back_on_the_get(
    server: Server,
) -> None:
    url = message_url(server, "QM1", "DEV.QUEUE.3")
    correl = "ab" * 24
    headers = {
        **TEXT,
        "ibm-mq-md-persistence": "persistent",
        "ibm-mq-md-expiry": "600000",
        "ibm-mq-md-correlationId": correl,
        "ibm-mq-md-replyTo": "REPLY.Q@QM2",
    }
    assert httpx.post(url, headers=headers, content="{}").status_code == 201
    # A second message the correlation id does not select, put before it is asked for.
    assert httpx.post(url, headers=TEXT, content="other").status_code == 201
    got = httpx.delete(f"{url}?correlationId={correl}", headers=CSRF)
    assert got.status_code == 200 and got.text == "{}"
    assert got.headers["ibm-mq-md-persistence"] == "persistent"
    assert got.headers["ibm-mq-md-correlationId"] == correl
    assert got.headers["ibm-mq-md-replyTo"] == "REPLY.Q@QM2"
    assert 0 < int(got.headers["ibm-mq-md-expiry"]) <= 600000  # milliseconds left
    assert httpx.delete(url, headers=CSRF).text == "other"


@keeps("docs/rest.md", "`ID:` and the digits from v3")
def test_v3_gives_ids_with_id_prefix_priority_and_user_properties_as_a_jms_text_message(
    server: Server,
) -> None:
    """REST API v3 (IBM MQ 9.2.5): ``ibm-mq-md-priority`` and ``ibm-mq-usr-*``; IDs as
    ``ID:`` and hex."""
    url = message_url(server, "QM1", "DEV.QUEUE.4", "v3")
    headers = {**TEXT, "ibm-mq-md-priority": "7", "ibm-mq-usr-orderId": "A-17"}
    put = httpx.post(url, headers=headers, content="v3 body")
    assert put.status_code == 201
    msg_id = put.headers["ibm-mq-md-messageId"]
    assert msg_id.startswith("ID:") and len(msg_id) == 51
    got = httpx.delete(f"{url}?messageId={msg_id}", headers=CSRF)
    assert got.status_code == 200 and got.text == "v3 body"
    assert got.headers["ibm-mq-md-priority"] == "7"
    assert got.headers["ibm-mq-usr-orderId"] == "A-17"


@keeps("docs/rest.md", "`?wait=MS` waits up to that many milliseconds")
def test_a_delete_with_wait_gets_a_message_put_while_it_waits(server: Server) -> None:
    url = message_url(server, "QM2", "DEV.QUEUE.2")

    def put_later() -> None:
        time.sleep(0.5)
        httpx.post(message_url(server, "QM1", "DEV.QUEUE.2"), headers=TEXT, content="late")

    putter = threading.Thread(target=put_later)
    putter.start()
    began = time.monotonic()
    got = httpx.delete(f"{url}?wait=10000", headers=CSRF, timeout=20)
    putter.join()
    assert got.status_code == 200 and got.text == "late"
    assert time.monotonic() - began < 9


@keeps(
    "docs/rest.md",
    "so a name holding `/`, `.` or `%` is sent as `%2F`, `%2E`, `%25`, as IBM's pages say.",
)
def test_names_are_url_decoded_as_ibm_says_slash_and_percent_are_sent(server: Server) -> None:
    url = message_url(server, "QM1", "A%2FB%2EC%25D")
    assert httpx.post(url, headers=TEXT, content="odd name").status_code == 201
    assert httpx.delete(url, headers=CSRF).text == "odd name"


@keeps(
    "docs/rest.md",
    "a message that is not (not MQSTR, nor a JMS TextMessage) is left on the "
    "queue and the answer is 500, as IBM leaves it.",
)
def test_a_message_that_is_not_text_is_left_on_the_queue_with_an_error(server: Server) -> None:
    """IBM: messages that are not MQSTR (nor JMS TextMessage) are not got by REST."""
    url = message_url(server, "QM1", "DEV.QUEUE.5")
    before = httpx.get(url)
    assert before.status_code == 500
    refused = httpx.delete(url, headers=CSRF)
    assert refused.status_code == 500
    error = refused.json()["error"][0]
    assert error["msgId"] == "MQWB0303E" and "MQSTR" in error["explanation"]
    assert httpx.get(url).status_code == 500  # still there


@keeps("docs/rest.md", "a queue manager not in the scenario; an unknown queue (2085)")
@keeps(
    "docs/rest.md",
    "| 503 | the queue manager is not running (killed by the scenario's faults) | MQWB0300E |",
)
@keeps("docs/rest.md", "| 405 | a method the resource does not take | MQWB2005E |")
@keeps(
    "docs/rest.md",
    "| 415 | a media type other than IBM's five, or a charset other than UTF-8 | "
    "MQWB0306E, MQWB0305E |",
)
@keeps("docs/rest.md", "without it the answer is 401, MQWB0100E.")
@keeps(
    "docs/rest.md",
    "IBM's page names the message id `messageId` while its examples and the clients "
    "written against them read `msgId`: qsg gives both.",
)
@pytest.mark.parametrize(
    ("method", "path", "headers", "body", "status", "msg_id"),
    [
        ("POST", Q1, {"Content-Type": "text/plain"}, "x", 401, "MQWB0100E"),
        ("DELETE", Q1, {}, None, 401, "MQWB0100E"),
        ("POST", "QM9/queue/DEV.QUEUE.1", TEXT, "x", 404, "MQWB0009E"),
        ("POST", "QM1/queue/NO.SUCH.QUEUE", TEXT, "x", 404, "MQWB0303E"),
        ("POST", Q1, {**CSRF, "Content-Type": "image/png"}, "x", 415, "MQWB0306E"),
        ("POST", Q1, {**CSRF, "Content-Type": "text/plain;charset=latin-1"}, "x", 415, "MQWB0305E"),
        ("POST", Q1, {**TEXT, "ibm-mq-md-persistence": "maybe"}, "x", 400, BAD),
        ("POST", Q1, {**TEXT, "ibm-mq-md-expiry": "-5"}, "x", 400, BAD),
        ("POST", Q1, {**TEXT, "ibm-mq-md-correlationId": "xyz"}, "x", 400, BAD),
        ("DELETE", "QM1/queue/DEV.QUEUE.1?wait=soon", CSRF, None, 400, BAD),
        ("POST", "QM3/queue/DEV.QUEUE.1", TEXT, "x", 503, "MQWB0300E"),
        ("PUT", Q1, CSRF, "x", 405, "MQWB2005E"),
    ],
)
def test_a_request_the_api_refuses_gets_ibms_status_and_error_body(
    server: Server,
    method: str,
    path: str,
    headers: dict[str, str],
    body: str | None,
    status: int,
    msg_id: str,
) -> None:
    """IBM's "REST API error handling": a status outside 200-299 and {"error": [...]}
    with type, msgId, message, explanation and action."""
    queue_path, _, query = path.partition("?")
    url = f"{server.url}/ibmmq/rest/v2/messaging/qmgr/{queue_path}/message"
    if query:
        url = f"{url}?{query}"
    answer = httpx.request(method, url, headers=headers, content=body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"][0]
    assert error["msgId"] == msg_id == error["messageId"]
    assert error["message"].startswith(f"{msg_id}: ")
    assert {"type", "explanation", "action"} <= set(error)


@keeps("docs/rest.md", "any other MQ failure (MQRC_Q_FULL, ...), with its reason code")
def test_a_put_to_a_full_queue_answers_500_with_mqrc_q_full(server: Server) -> None:
    url = message_url(server, "QM1", "DEV.SMALL")
    assert httpx.post(url, headers=TEXT, content="one").status_code == 201
    full = httpx.post(url, headers=TEXT, content="two")
    assert full.status_code == 500
    assert full.json()["error"][0]["reasonCode"] == 2053  # MQRC_Q_FULL


def test_a_body_over_the_limit_is_refused_413_without_harm_to_the_server(server: Server) -> None:
    url = message_url(server, "QM1", "DEV.QUEUE.1")
    huge = b"x" * (4 * 1024 * 1024 + 1)
    answer = httpx.post(url, headers=TEXT, content=huge)
    assert answer.status_code == 413
    assert httpx.get(message_url(server, "QM1", "DEV.QUEUE.2")).status_code in (200, 204)


@keeps("docs/rest.md", "a body that is not UTF-8")
def test_a_body_that_is_not_utf_8_is_refused_400(server: Server) -> None:
    answer = httpx.post(
        message_url(server, "QM1", "DEV.QUEUE.1"), headers=TEXT, content=b"\xff\xfe"
    )
    assert answer.status_code == 400


@keeps("docs/rest.md", "These are the recipes of IBM's REST tutorial, unchanged")
def test_ibms_tutorial_curl_recipes_run_unchanged(server: Server, tmp_path: Path) -> None:
    """IBM's REST tutorial: curl -X POST with -u, the CSRF header and text/plain, then
    curl -X DELETE to get the message back."""
    import shutil
    import subprocess

    curl = shutil.which("curl")
    if curl is None:
        pytest.fail("curl is not installed: the tutorial's recipes need it")
    url = message_url(server, "QM1", "DEV.QUEUE.1", "v3")
    common = [
        curl,
        "-s",
        "-i",
        "-k",
        url,
        "-u",
        "app:appPassword",
        "-H",
        "ibm-mq-rest-csrf-token: blank",
    ]
    put = subprocess.run(
        [
            *common,
            "-X",
            "POST",
            "-H",
            "Content-Type: text/plain;charset=utf-8",
            "-d",
            "Hello World",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert put.stdout.startswith("HTTP/1.1 201")
    got = subprocess.run([*common, "-X", "DELETE"], capture_output=True, text=True, check=True)
    assert got.stdout.startswith("HTTP/1.1 200") and got.stdout.endswith("Hello World")
