"""The REST API under arbitrary requests (hypothesis): whatever the method, path,
headers and body, the answer is one of IBM's statuses, every error is IBM's error body,
and the server (and the run behind it) goes on answering."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.serving import Server, serving

SCENARIO = """
description = "the REST API's fuzz test"
[run]
duration = 3600
seed = 5
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[qmgr.QM1]
[qmgr.QM2]
"""
STATUSES = {200, 201, 204, 400, 401, 403, 404, 405, 413, 415, 500, 503}
HEADERS = [
    "ibm-mq-rest-csrf-token",
    "Content-Type",
    "ibm-mq-md-persistence",
    "ibm-mq-md-expiry",
    "ibm-mq-md-correlationId",
    "ibm-mq-md-replyTo",
    "ibm-mq-md-priority",
    "ibm-mq-usr-p",
    "Authorization",
]
# Header values HTTP can carry: visible ASCII and spaces, no leading or trailing space.
_VALUE = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=60)
_SEGMENT = st.one_of(
    st.sampled_from(["QM1", "QM2", "QM9", "DEV.QUEUE.1", "A%2FB", "%25", "..", "mqsc"]),
    st.text(st.characters(min_codepoint=0x30, max_codepoint=0x7A), min_size=1, max_size=12),
)
_PATHS = st.one_of(
    st.builds(
        lambda v, q, n: f"/ibmmq/rest/{v}/messaging/qmgr/{q}/queue/{n}/message",
        st.sampled_from(["v1", "v2", "v3", "v4"]),
        _SEGMENT,
        _SEGMENT,
    ),
    st.builds(
        lambda v, q: f"/ibmmq/rest/{v}/admin/action/qmgr/{q}/mqsc",
        st.sampled_from(["v1", "v2", "v3"]),
        _SEGMENT,
    ),
    st.builds(  # IBM's v1 queue resource (and its v2 path, which is no resource)
        lambda v, q, n: f"/ibmmq/rest/{v}/admin/qmgr/{q}/queue{n}",
        st.sampled_from(["v1", "v1", "v2"]),
        _SEGMENT,
        st.one_of(st.just(""), _SEGMENT.map(lambda n: f"/{n}")),
    ),
    st.lists(_SEGMENT, max_size=6).map(lambda s: "/ibmmq/rest/" + "/".join(s)),
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=10,
)
_COMMANDS = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["runCommand", "runCommandJSON", "other"]),
        "command": st.sampled_from(["display", "define", "delete", "alter", "x y"]),
        "qualifier": st.sampled_from(["qlocal", "queue", "qmgr", "channel", "group", "??"]),
        "name": st.sampled_from(["DEV.QUEUE.1", "FUZZ.Q", "*", "a'b", ""]),
        "parameters": st.one_of(
            st.dictionaries(
                st.sampled_from(["maxdepth", "descr", "command", "x"]), _JSON, max_size=2
            ),
            _JSON,
        ),
    }
)
_QUEUES = st.fixed_dictionaries(
    {"name": st.sampled_from(["FUZZ.Q", "DEV.QUEUE.1", "", "x" * 49])},
    optional={
        "type": st.sampled_from(["local", "alias", "remote", "model", "topic"]),
        "storage": st.one_of(
            st.dictionaries(st.sampled_from(["maximumDepth", "maxDepth"]), _JSON, max_size=2),
            _JSON,
        ),
        "general": st.dictionaries(
            st.sampled_from(["description", "inhibitPut"]), _JSON, max_size=2
        ),
        "queueSharingGroup": st.dictionaries(
            st.sampled_from(["disposition", "structureName"]),
            st.sampled_from(["shared", "qmgr", "APP1", "NOPE"]),
            max_size=2,
        ),
    },
)
_BODIES = st.one_of(
    st.binary(max_size=200),
    _QUEUES.map(lambda v: json.dumps(v).encode()),
    _JSON.map(lambda v: json.dumps(v).encode()),
    _COMMANDS.map(lambda v: json.dumps(v).encode()),
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.toml"
    path.write_text(SCENARIO)
    with serving(path) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    method=st.sampled_from(["GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS"]),
    path=_PATHS,
    headers=st.dictionaries(st.sampled_from(HEADERS), _VALUE, max_size=5),
    query=st.dictionaries(
        st.sampled_from(
            [
                "wait",
                "messageId",
                "correlationId",
                "x",
                "attributes",
                "status",
                "filter",
                "name",
                "type",
                "like",
                "noReplace",
                "purge",
                "commandScope",
                "queueSharingGroupDisposition",
            ]
        ),
        st.one_of(
            _VALUE,
            st.sampled_from(
                ["*", "storage", "status", "storage.maximumDepth:greaterThan:1", "DEV.*"]
            ),
        ),
        max_size=3,
    ),
    body=_BODIES,
)
def test_every_request_gets_ibms_status_and_error_body_and_the_server_goes_on(
    client: httpx.Client,
    method: str,
    path: str,
    headers: dict[str, str],
    query: dict[str, str],
    body: bytes,
) -> None:
    """IBM's "REST API error handling": any status outside 200-299 is an error with
    the {"error": [...]} body."""
    if "wait" in query:
        query["wait"] = "0"  # a fuzzed wait would hold the example for its length
    answer = client.request(method, httpx.URL(path, params=query), headers=headers, content=body)
    assert answer.status_code in STATUSES, (answer.status_code, answer.text)
    if answer.status_code >= 400:
        errors = answer.json()["error"]
        assert errors and all(e["msgId"].startswith("MQWB") for e in errors)
    assert answer.status_code != 500 or "MQWB0000E" not in answer.text, answer.text
    assert client.get("/ibmmq/rest/v1/admin/qmgr").status_code == 200
