"""What docs/rest.md promises of ``qsg serve``'s clocks and failures that the endpoint
tests do not show: a client's milliseconds are real ones under ``--speed``, hypercorn's
timeouts last as long in real time whatever the speed, the console's stream sends the
world's state twice a second, and a defect inside a handler is answered 500 (MQWB0000E)
and logged while the server goes on."""

from __future__ import annotations

import logging
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from qsg.commands.serve.app import make_app
from qsg.commands.serve.live import Live
from qsg.commands.serve.security import Security
from qsg.commands.serve.server import Settings, listen
from qsg.commands.serve.service import Service
from tests.claims import keeps
from tests.serving import Server, serving

ROOT = Path(__file__).resolve().parent.parent
SPEED = 100
SCENARIO = """
description = "qsg serve under --speed"
[run]
duration = 36000
seed = 4
in_process = true

[qmgr.QM1]
mqsc = '''
DEFINE QLOCAL(DEV.QUEUE.1)
DEFINE QLOCAL(DEV.PERSISTENT) DEFPSIST(YES)
'''
"""
TEXT = {"ibm-mq-rest-csrf-token": "", "Content-Type": "text/plain;charset=utf-8"}


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("serve-speed") / "speed.toml"
    path.write_text(SCENARIO)
    with serving(path, "--speed", str(SPEED)) as running:
        yield running


def message_url(server: Server, queue: str = "DEV.QUEUE.1", version: str = "v2") -> str:
    return f"{server.url}/ibmmq/rest/{version}/messaging/qmgr/QM1/queue/{queue}/message"


@keeps(
    "docs/rest.md",
    "`persistent` or `nonPersistent`; the default is nonpersistent, whatever the queue's "
    "DEFPSIST, as IBM says",
)
def test_a_rest_put_is_nonpersistent_by_default_even_to_a_defpsist_yes_queue(
    fast: Server,
) -> None:
    url = message_url(fast, "DEV.PERSISTENT")
    assert httpx.post(url, headers=TEXT, content="default").status_code == 201
    got = httpx.delete(url, headers=TEXT)
    assert got.status_code == 200
    assert got.headers["ibm-mq-md-persistence"] == "nonPersistent"


@keeps("docs/rest.md", "| `ibm-mq-md-priority` | v3 only: 0 to 9 |")
def test_priority_is_read_from_v3_only_and_must_be_0_to_9(fast: Server) -> None:
    v2, v3 = message_url(fast, version="v2"), message_url(fast, version="v3")
    assert (
        httpx.post(v2, headers={**TEXT, "ibm-mq-md-priority": "7"}, content="a").status_code == 201
    )
    assert httpx.delete(v3, headers=TEXT).headers["ibm-mq-md-priority"] == "0"  # DEFPRTY
    assert (
        httpx.post(v3, headers={**TEXT, "ibm-mq-md-priority": "7"}, content="b").status_code == 201
    )
    assert httpx.delete(v3, headers=TEXT).headers["ibm-mq-md-priority"] == "7"
    refused = httpx.post(v3, headers={**TEXT, "ibm-mq-md-priority": "10"}, content="c")
    assert refused.status_code == 400 and refused.json()["error"][0]["msgId"] == "MQWB0302E"


@keeps(
    "docs/rest.md",
    "Under `--speed X`, a client's milliseconds (`wait`, `ibm-mq-md-expiry`) are real ones: "
    "the world is given X times as many simulated ones.",
)
def test_under_speed_a_clients_expiry_and_wait_are_real_milliseconds(fast: Server) -> None:
    """Expiry 3,000 ms at --speed 100 is 300 simulated seconds: a second later (100
    simulated seconds) the message is still there with about two real seconds left. Were
    the milliseconds simulated ones, it would have expired 30 ms after the put."""
    url = message_url(fast)
    put = httpx.post(url, headers={**TEXT, "ibm-mq-md-expiry": "3000"}, content="soon gone")
    assert put.status_code == 201, put.text
    time.sleep(1.0)
    got = httpx.delete(url, headers=TEXT)
    assert got.status_code == 200, got.text
    assert 0 < int(got.headers["ibm-mq-md-expiry"]) < 2500  # real milliseconds left
    # A wait of 1,500 ms on an empty queue lasts 1.5 real seconds, not 15 ms.
    began = time.monotonic()
    empty = httpx.delete(f"{url}?wait=1500", headers=TEXT, timeout=30)
    assert empty.status_code == 204
    assert time.monotonic() - began >= 1.2


@keeps(
    "docs/rest.md",
    "The page is sent the world's state twice a second as server-sent events "
    "(`/console/events`; one state as JSON at `/console/state`)",
)
def test_the_console_stream_sends_the_state_twice_a_real_second_at_any_speed(
    fast: Server,
) -> None:
    """At --speed 100 the stream still sends every half real second (not every 5 ms)."""
    states = 0
    began = time.monotonic()
    with httpx.stream("GET", f"{fast.url}/console/events", timeout=30) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                states += 1
            if time.monotonic() - began > 3.0:
                break
    # Six in three seconds; a loaded machine may send fewer, never hundreds.
    assert 2 <= states <= 8, states
    state = httpx.get(f"{fast.url}/console/state").json()
    assert [q["name"] for q in state["qmgrs"]] == ["QM1"]


@pytest.mark.parametrize("speed", [1.0, 10.0])
@keeps(
    "docs/rest.md",
    "`--speed` is a trio clock that runs X times the wall clock; hypercorn's own timeouts "
    "are scaled by it so that they last as long in real time.",
)
@keeps(
    "docs/rest.md",
    "A connection from which nothing comes for five minutes of real time (half-open, or a "
    "DELETE whose `wait` is longer) is closed; an idle one between requests after five "
    "seconds",
)
def test_hypercorns_timeouts_are_five_minutes_and_five_seconds_of_real_time_at_any_speed(
    speed: float,
) -> None:
    listening = listen(Settings(port=0, speed=speed))
    try:
        config = listening.config
        # hypercorn reads them on the run's clock, which runs ``speed`` times faster.
        assert config.read_timeout is not None and config.read_timeout / speed == 300
        assert config.keep_alive_timeout / speed == 5
    finally:
        listening.close()


class _Events:
    def listen(self, *_: object) -> None:
        pass


class _DefectiveWorld:
    """A world whose queue managers cannot be looked up: a defect no handler foresaw."""

    events = _Events()

    @property
    def qmgrs(self) -> dict[str, Any]:
        raise RuntimeError("a defect")


@keeps(
    "docs/rest.md",
    "A failure inside a handler that qsg did not foresee is answered 500 (MQWB0000E) and "
    "logged: the run goes on.",
)
async def test_a_defect_inside_a_handler_is_500_mqwb0000e_logged_and_the_server_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    world: Any = _DefectiveWorld()
    app = make_app(Service(world, Security(None)), Live(world, 1.0, 60.0))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://qsg") as client:
        with caplog.at_level(logging.ERROR, logger="qsg.serve"):
            for _ in range(2):  # answered each time: the server is not left broken
                answer = await client.delete(
                    "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/Q/message",
                    headers={"ibm-mq-rest-csrf-token": ""},
                )
                assert answer.status_code == 500
                error = answer.json()["error"][0]
                assert error["msgId"] == "MQWB0000E" and "RuntimeError" in error["message"]
        installation = await client.get("/ibmmq/rest/v1/admin/installation")
        assert installation.status_code == 200
    failures = [r for r in caplog.records if r.name == "qsg.serve" and r.exc_info]
    assert len(failures) == 2 and "a defect" in str(failures[0].exc_info[1])  # type: ignore[index]


@pytest.mark.parametrize(
    "ending", [trio.BusyResourceError, trio.BrokenResourceError, trio.ClosedResourceError]
)
async def test_an_answer_sent_on_a_connection_being_ended_is_dropped_without_a_traceback(
    ending: type[Exception],
) -> None:
    # hypercorn's own task may be sending on (or closing) the connection when the answer
    # goes: CI's serve-limits run logged "another task is currently sending data on this
    # SocketStream" as a traceback from inside the application.
    world: Any = _DefectiveWorld()
    app = make_app(Service(world, Security(None)), Live(world, 1.0, 60.0))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/ibmmq/rest/v1/admin/installation",
        "raw_path": b"/ibmmq/rest/v1/admin/installation",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"qsg")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 9443),
    }
    sent: list[str] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message["type"])
        if message["type"] == "http.response.body":
            raise ending("another task is currently sending data on this SocketStream")

    await app(scope, receive, send)  # returns: nothing raised into hypercorn
    assert sent == ["http.response.start", "http.response.body"]


@keeps(
    "docs/rest.md",
    "Topics (`.../topic/{topicString}/message`) are not offered: qsg has no publish/subscribe.",
)
def test_a_topic_url_is_no_resource_answered_with_ibms_error_body(fast: Server) -> None:
    url = f"{fast.url}/ibmmq/rest/v2/messaging/qmgr/QM1/topic/PRICES/message"
    answer = httpx.post(url, headers=TEXT, content="a publication")
    assert answer.status_code == 404
    assert answer.json()["error"][0]["msgId"] == "MQWB0000E"


@keeps(
    "docs/rest.md",
    "Without `--users` every request is the user `qsg` with all three roles",
)
def test_without_users_every_request_is_qsg_with_all_three_roles(fast: Server) -> None:
    me = httpx.get(f"{fast.url}/ibmmq/rest/v1/login").json()["user"][0]
    assert me["name"] == "qsg"
    assert me["role"] == ["MQWebAdmin", "MQWebAdminRO", "MQWebUser"]


def _readme_tour() -> list[str]:
    """The curl commands of the README's "qsg serve" section, as written there."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## 6. Any language, over HTTP: `qsg serve`")[1].split("\n## ")[0]
    block = section.split("```sh\n")[1].split("```")[0].replace("\\\n", " ")
    return [line for line in block.splitlines() if line.startswith("curl ")]


@keeps(
    "README.md",
    "The put goes through QM1 and the get through QM2: DEV.QUEUE.1 is shared, and a REST "
    "put is an MQPUT like any other",
)
def test_the_readmes_tour_puts_through_qm1_and_gets_through_qm2(tmp_path: Path) -> None:
    commands = _readme_tour()
    assert len(commands) == 2
    # A copy, so that the server's log is written beside it and not into scenarios/.
    scenario = tmp_path / "serve-qsg.toml"
    shutil.copyfile(ROOT / "scenarios" / "serve-qsg.toml", scenario)
    with serving(scenario, "--speed", "10") as running:
        outputs = []
        for command in commands:
            line = command.replace("http://127.0.0.1:9443", running.url)
            done = subprocess.run(
                ["bash", "-c", line], capture_output=True, text=True, timeout=60, check=True
            )
            outputs.append(done.stdout)
    assert outputs == ["", "Hello World"]
