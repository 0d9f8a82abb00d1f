"""IBM's version-1 queue resource, by a real HTTP client against ``qsg serve``: IBM MQ's
"/admin/qmgr/{qmgrName}/queue" GET (``attributes=``, ``status=``, ``filter=``), POST,
PATCH and DELETE, "Request body attributes for queues" and "REST API and PCF
equivalents for queues"."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from qsg.commands.serve import queues
from tests.claims import keeps
from tests.serving import USERS, Server, serving

SCENARIO = """
description = "the v1 queue resource's tests"
[run]
duration = 3600
seed = 3
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(20000)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[qmgr.QM1]
mqsc = '''
DEFINE QLOCAL(APP.SMALL) MAXDEPTH(10) DESCR('a small one')
DEFINE QALIAS(APP.ALIAS) TARGET(APP.SMALL)
'''
[qmgr.QM2]
"""
CSRF = {"ibm-mq-rest-csrf-token": "x"}
ADMIN = ("mqadmin", "mqadmin")
URL = "/ibmmq/rest/v1/admin/qmgr/QM1/queue"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("serve-queues")
    (where / "users.toml").write_text(USERS)
    scenario = where / "queues.toml"
    scenario.write_text(SCENARIO)
    with serving(scenario, "--users", str(where / "users.toml")) as running:
        yield running


@pytest.fixture
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, auth=ADMIN, timeout=30) as c:
        yield c


def put(client: httpx.Client, queue: str, text: str = "hello") -> None:
    answer = client.post(
        f"/ibmmq/rest/v1/messaging/qmgr/QM1/queue/{queue}/message",
        headers={**CSRF, "Content-Type": "text/plain"},
        content=text,
        auth=("app", "appPassword"),
    )
    assert answer.status_code == 201, answer.text


def one(client: httpx.Client, queue: str, **params: str) -> dict[str, object]:
    answer = client.get(f"{URL}/{queue}", params=params)
    assert answer.status_code == 200, answer.text
    found = answer.json()["queue"]
    assert len(found) == 1
    return found[0]  # type: ignore[no-any-return]


@keeps("docs/rest.md", "Without `attributes=` a queue is its `name` and `type` alone")
def test_attributes_names_ibms_objects_and_attributes_in_ibms_json_shape(
    client: httpx.Client,
) -> None:
    """IBM: ``attributes={object,...|*|object.attributeName,...}``; a queue's attributes
    come grouped in named objects (``storage.maximumDepth`` is MAXDEPTH)."""
    assert one(client, "APP.SMALL") == {"name": "APP.SMALL", "type": "local"}
    storage = one(client, "APP.SMALL", attributes="storage.maximumDepth")
    assert storage == {"name": "APP.SMALL", "type": "local", "storage": {"maximumDepth": 10}}
    general = one(client, "APP.SMALL", attributes="general")["general"]
    assert general == {
        "description": "a small one",
        "inhibitPut": False,
        "inhibitGet": False,
        "isTransmissionQueue": False,
    }
    everything = one(client, "DEV.QUEUE.1", attributes="*")
    assert everything["queueSharingGroup"] == {"disposition": "shared", "structureName": "APP1"}
    assert everything["storage"]["maximumDepth"] == 20000  # type: ignore[index]
    assert everything["extended"]["allowSharedInput"] is True  # type: ignore[index]
    assert "alias" not in everything and "remote" not in everything
    alias = one(client, "APP.ALIAS", attributes="alias,storage")
    assert alias["alias"] == {"targetName": "APP.SMALL", "targetType": "queue"}
    assert "storage" not in alias  # an alias queue has no MAXDEPTH


@keeps("docs/rest.md", "`status=` (`*`, `status`, or `status.NAME`) adds a local queue's status")
def test_status_gives_the_current_depth_and_open_counts_of_a_local_queue(
    client: httpx.Client,
) -> None:
    """IBM: ``status={status|*|status.attributeName,...}``, as DISPLAY QSTATUS."""
    put(client, "APP.SMALL")
    status = one(client, "APP.SMALL", status="*")["status"]
    assert status["currentDepth"] >= 1  # type: ignore[index]
    assert set(status) == {  # type: ignore[arg-type]
        "currentDepth",
        "openInputCount",
        "openOutputCount",
        "uncommittedMessages",
    }
    depth = one(client, "APP.SMALL", status="status.currentDepth")["status"]
    assert list(depth) == ["currentDepth"]  # type: ignore[arg-type]
    assert "status" not in one(client, "APP.ALIAS", status="*")  # an alias has no status


@keeps("docs/rest.md", "`filter=NAME:OPERATOR:VALUE` keeps the queues whose attribute or status")
def test_filter_keeps_the_queues_whose_attribute_compares_as_asked(client: httpx.Client) -> None:
    """IBM: ``filter=filterValue``, its operators lessThan, greaterThan, equalTo,
    notEqualTo, lessThanOrEqualTo, greaterThanOrEqualTo."""
    big = client.get(URL, params={"filter": "storage.maximumDepth:greaterThan:1000"}).json()
    names = {q["name"] for q in big["queue"]}
    assert "DEV.QUEUE.1" in names and "APP.SMALL" not in names and "APP.ALIAS" not in names
    put(client, "APP.SMALL")
    full = client.get(URL, params={"filter": "status.currentDepth:greaterThan:0", "type": "local"})
    assert {q["name"] for q in full.json()["queue"]} >= {"APP.SMALL"}
    assert "DEV.QUEUE.1" not in {q["name"] for q in full.json()["queue"]}
    shared = client.get(URL, params={"filter": "queueSharingGroup.disposition:equalTo:shared"})
    # The group's own shared queues and IBM's CSQ4INSS ones every QSG has (docs/scenarios.md).
    assert [q["name"] for q in shared.json()["queue"]] == [
        "DEV.QUEUE.1",
        "SYSTEM.QSG.CHANNEL.SYNCQ",
        "SYSTEM.QSG.TRANSMIT.QUEUE",
        "SYSTEM.QSG.UR.RESOLUTION.QUEUE",
    ]
    prefix = client.get(URL, params={"filter": "general.description:equalTo:a sm*"})
    assert [q["name"] for q in prefix.json()["queue"]] == ["APP.SMALL"]


@keeps("docs/rest.md", "a filter, attribute or status name the resource does not know")
@keeps("docs/rest.md", "`commandScope=` on a GET is 400")
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("attributes", "storage.maxDepth"),
        ("attributes", "nonsense"),
        ("status", "status.depth"),
        ("filter", "storage.maximumDepth:biggerThan:3"),
        ("filter", "storage.maximumDepth:greaterThan:many"),
        ("filter", "storage.maximumDepth"),
        ("filter", "general.inhibitPut:greaterThan:true"),
        ("filter", "nothing.here:equalTo:1"),
        ("colour", "blue"),
        ("commandScope", "*"),
        ("type", "queue"),
    ],
)
def test_a_bad_attribute_status_or_filter_is_400_with_ibms_error_body(
    client: httpx.Client, name: str, value: str
) -> None:
    answer = client.get(URL, params={name: value})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"][0]
    assert error["msgId"] == "MQWB0302E" and error["type"] == "rest"
    assert set(error) >= {"message", "explanation", "action"}


@keeps("docs/rest.md", "(MQWebAdmin) creates the queue its body describes and answers 201")
def test_post_creates_a_queue_from_ibms_json_and_replaces_one_unless_no_replace(
    client: httpx.Client,
) -> None:
    """IBM's POST: the body's ``name``, ``type`` and attribute objects; ``noReplace``:
    "Specifies that the queue is not replaced if it exists. If this flag is not
    specified, the queue is replaced"."""
    body = {
        "name": "REST.MADE",
        "type": "local",
        "storage": {"maximumDepth": 77},
        "general": {"description": "made by REST", "inhibitPut": True},
        "trigger": {"enabled": True, "type": "every"},
    }
    made = client.post(URL, json=body, headers=CSRF)
    assert made.status_code == 201, made.text
    shown = one(client, "REST.MADE", attributes="storage,general,trigger.enabled,trigger.type")
    assert shown["storage"]["maximumDepth"] == 77  # type: ignore[index]
    assert shown["general"]["inhibitPut"] is True  # type: ignore[index]
    assert shown["general"]["description"] == "made by REST"  # type: ignore[index]
    assert shown["trigger"] == {"enabled": True, "type": "every"}
    again = client.post(URL, json={**body, "storage": {"maximumDepth": 78}}, headers=CSRF)
    assert again.status_code == 201
    assert one(client, "REST.MADE", attributes="storage.maximumDepth")["storage"] == {
        "maximumDepth": 78
    }
    refused = client.post(URL, params={"noReplace": ""}, json=body, headers=CSRF)
    assert refused.status_code == 500
    error = refused.json()["error"][0]
    assert error["msgId"] == "MQWB0004E" and error["reasonCode"] == 3008
    assert "3008 : MQRCCF_COMMAND_FAILED" in error["message"]
    like = client.post(URL, params={"like": "REST.MADE"}, json={"name": "REST.COPY"}, headers=CSRF)
    assert like.status_code == 201, like.text
    copied = one(client, "REST.COPY", attributes="storage.maximumDepth")
    assert copied["storage"] == {"maximumDepth": 78}
    shared = {
        "name": "REST.SHARED",
        "queueSharingGroup": {"disposition": "shared", "structureName": "APP1"},
    }
    assert client.post(URL, json=shared, headers=CSRF).status_code == 201
    seen = client.get("/ibmmq/rest/v1/admin/qmgr/QM2/queue/REST.SHARED").json()
    assert seen == {"queue": [{"name": "REST.SHARED", "type": "local"}]}  # in the CF: QM2 too


@keeps("docs/rest.md", "(MQWebAdmin) changes the attributes its body gives and answers 204")
@keeps("docs/rest.md", "a body that names another `name` or `type` is 400")
def test_patch_alters_only_the_attributes_given(client: httpx.Client) -> None:
    assert client.post(URL, json={"name": "REST.ALTERED"}, headers=CSRF).status_code == 201
    changed = client.patch(
        f"{URL}/REST.ALTERED",
        json={"storage": {"maximumDepth": 5}, "events": {"depth": {"highEnabled": True}}},
        headers=CSRF,
    )
    assert changed.status_code == 204, changed.text
    shown = one(client, "REST.ALTERED", attributes="storage.maximumDepth,events")
    assert shown["storage"] == {"maximumDepth": 5}
    assert shown["events"]["depth"]["highEnabled"] is True  # type: ignore[index]
    missing = client.patch(f"{URL}/NO.SUCH", json={"storage": {}}, headers=CSRF)
    assert missing.status_code == 404 and missing.json()["error"][0]["reasonCode"] == 2085
    retype = client.patch(f"{URL}/REST.ALTERED", json={"type": "alias"}, headers=CSRF)
    assert retype.status_code == 400


@keeps("docs/rest.md", "a body attribute it does not know or a value it does not take")
@pytest.mark.parametrize(
    "body",
    [
        {"name": "BAD.ONE", "storage": {"maximumDepth": "deep"}},
        {"name": "BAD.ONE", "storage": {"maxDepth": 3}},
        {"name": "BAD.ONE", "colour": {"hue": 3}},
        {"name": "BAD.ONE", "general": {"inhibitPut": "yes"}},
        {"name": "BAD.ONE", "trigger": {"type": "sometimes"}},
        {"name": "BAD.ONE", "alias": {"targetName": "X"}},
        {"name": "BAD.ONE", "storage": 7},
        {"name": "BAD.ONE", "type": "topic"},
        {"name": "x" * 49},
        {"storage": {"maximumDepth": 3}},
        ["not", "an", "object"],
    ],
)
def test_a_body_with_an_unknown_attribute_or_value_is_400_and_defines_nothing(
    client: httpx.Client, body: object
) -> None:
    answer = client.post(URL, json=body, headers=CSRF)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"][0]["msgId"] == "MQWB2004E"
    assert client.get(f"{URL}/BAD.ONE").status_code == 404


def test_post_patch_and_delete_are_mqwebadmins_and_need_the_csrf_header(
    client: httpx.Client,
) -> None:
    reader = ("reader", "reader")
    denied = client.post(URL, json={"name": "RO.TRY"}, headers=CSRF, auth=reader)
    assert denied.status_code == 403 and denied.json()["error"][0]["msgId"] == "MQWB0103E"
    assert client.patch(f"{URL}/APP.SMALL", json={}, headers=CSRF, auth=reader).status_code == 403
    assert client.post(URL, json={"name": "RO.TRY"}).status_code == 401  # no CSRF header
    assert client.get(f"{URL}/APP.SMALL", auth=reader).status_code == 200


@keeps("docs/rest.md", "`keepAuthorityRecords` is refused with 400")
@keeps("docs/rest.md", "A command the queue manager refuses is 500 with MQWB0004E, reason 3008")
def test_delete_takes_ibms_options_and_refuses_keep_authority_records(
    client: httpx.Client,
) -> None:
    assert client.post(URL, json={"name": "REST.GONE"}, headers=CSRF).status_code == 201
    put(client, "REST.GONE")
    kept = client.delete(f"{URL}/REST.GONE", params={"keepAuthorityRecords": ""}, headers=CSRF)
    assert kept.status_code == 400
    with_messages = client.delete(f"{URL}/REST.GONE", headers=CSRF)
    assert with_messages.status_code == 500  # MQSC's DELETE refuses a queue with messages
    assert with_messages.json()["error"][0]["msgId"] == "MQWB0004E"
    gone = client.delete(f"{URL}/REST.GONE", params={"purge": ""}, headers=CSRF)
    assert gone.status_code == 204, gone.text
    assert client.get(f"{URL}/REST.GONE").status_code == 404


@keeps("docs/rest.md", "Bodies are 64 KB at most (413 beyond).")
def test_a_huge_or_deep_body_is_refused_in_bounded_time(client: httpx.Client) -> None:
    started = time.monotonic()
    deep = "[" * 100_000 + "]" * 100_000
    answer = client.post(URL, content=deep, headers={**CSRF, "Content-Type": "application/json"})
    assert answer.status_code in (400, 413)
    huge = client.post(
        URL,
        content=b"{" + b" " * (queues.MAX_QUEUE_BODY + 10) + b"}",
        headers={**CSRF, "Content-Type": "application/json"},
    )
    assert huge.status_code == 413
    assert time.monotonic() - started < 10


@keeps("docs/rest.md", "`name=` (a generic name such as `DEV.*`, when the URL names none)")
@keeps("docs/rest.md", "`type=cluster` finds nothing: qsg's queue managers are in no cluster.")
def test_name_selects_queues_by_a_generic_name_and_not_beside_a_named_queue(
    client: httpx.Client,
) -> None:
    found = client.get(URL, params={"name": "APP.*"}).json()["queue"]
    assert {q["name"] for q in found} >= {"APP.SMALL", "APP.ALIAS"}
    assert all(q["name"].startswith("APP.") for q in found)
    both = client.get(f"{URL}/APP.SMALL", params={"name": "APP.*"})
    assert both.status_code == 400
    assert client.get(URL, params={"type": "cluster"}).json() == {"queue": []}  # no cluster


@keeps("docs/rest.md", "One filter, as IBM takes one.")
def test_a_second_filter_is_400(client: httpx.Client) -> None:
    twice = client.get(
        f"{URL}?filter=storage.maximumDepth:greaterThan:1&filter=status.currentDepth:lessThan:5"
    )
    assert twice.status_code == 400 and twice.json()["error"][0]["msgId"] == "MQWB0302E"


@keeps(
    "docs/rest.md",
    "`queueSharingGroupDisposition=` chooses which definition (`qmgr` by default)",
)
def test_patch_of_a_shared_queue_names_its_disposition(client: httpx.Client) -> None:
    """A shared queue is not QSGDISP(QMGR): PATCH finds it with
    ``queueSharingGroupDisposition=shared``, and the change is seen by every member."""
    body = {"storage": {"maximumDepth": 4321}}
    missing = client.patch(f"{URL}/DEV.QUEUE.1", json=body, headers=CSRF)
    assert missing.status_code == 404
    changed = client.patch(
        f"{URL}/DEV.QUEUE.1",
        params={"queueSharingGroupDisposition": "shared"},
        json=body,
        headers=CSRF,
    )
    assert changed.status_code == 204, changed.text
    seen = client.get(
        "/ibmmq/rest/v1/admin/qmgr/QM2/queue/DEV.QUEUE.1",
        params={"attributes": "storage.maximumDepth"},
    )
    assert seen.json()["queue"][0]["storage"] == {"maximumDepth": 4321}


def test_the_docs_table_of_attributes_is_the_resources_own() -> None:
    """docs/rest.md lists every REST attribute with its MQSC keyword, as ``FIELDS``."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rest.md").read_text()
    rows = set(re.findall(r"^\| `([a-zA-Z.]+)` \| ([A-Z]+) \|", text, re.MULTILINE))
    assert rows == {(f.rest, f.keyword) for f in queues.FIELDS}
