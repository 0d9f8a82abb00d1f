"""``qsg serve``'s administrative REST API and its security, by a real HTTP client over
TLS: IBM MQ's "POST - plain text MQSC command", "POST - JSON formatted command",
"GET /admin/qmgr", "GET /admin/installation", "REST API error handling", the login
resource and the roles of "Configuring users and roles"."""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
import pytest
import trustme

from tests.claims import keeps
from tests.serving import USERS, Server, serving

SCENARIO = """
description = "the administrative REST API's tests"
[run]
duration = 3600
seed = 2
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2", "QM3"]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[qmgr.QM1]
[qmgr.QM2]
[qmgr.QM3]

[[fault]]
at = 1
action = "kill"
qmgr = "QM3"
duration = 3000
"""
CSRF = {"ibm-mq-rest-csrf-token": "x"}
ADMIN = ("mqadmin", "mqadmin")


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, trustme.CA]:
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    where = tmp_path_factory.mktemp("tls")
    cert_file, key_file = where / "server.pem", where / "server.key"
    cert.cert_chain_pems[0].write_to_path(str(cert_file))
    for pem in cert.cert_chain_pems[1:]:
        pem.write_to_path(str(cert_file), append=True)
    cert.private_key_pem.write_to_path(str(key_file))
    return cert_file, key_file, ca


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, tls: tuple[Path, Path, trustme.CA]
) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("serve-admin")
    (where / "users.toml").write_text(USERS)
    scenario = where / "admin.toml"
    scenario.write_text(SCENARIO)
    cert, key, _ = tls
    args = ["--users", str(where / "users.toml"), "--tls-cert", str(cert), "--tls-key", str(key)]
    with serving(scenario, *args) as running:
        time.sleep(1.5)  # QM3 is killed at 1 s
        yield running


@pytest.fixture
def client(server: Server, tls: tuple[Path, Path, trustme.CA]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, verify=trusting(tls[2])) as c:
        yield c


def trusting(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


def mqsc(
    client: httpx.Client, body: dict[str, Any], auth: tuple[str, str] = ADMIN, q_mgr: str = "QM1"
) -> httpx.Response:
    return client.post(
        f"/ibmmq/rest/v2/admin/action/qmgr/{q_mgr}/mqsc", json=body, auth=auth, headers=CSRF
    )


@keeps("docs/rest.md", "with `--tls-cert` and `--tls-key` the server speaks HTTPS only")
def test_the_server_is_https_when_given_a_certificate(server: Server) -> None:
    assert server.url.startswith("https://")


@keeps(
    "docs/rest.md",
    '`runCommand` answers `{"commandResponse": [{"completionCode", "reasonCode", '
    '"text": [the reply\'s lines]}], "overallCompletionCode", "overallReasonCode"}`.',
)
def test_run_command_runs_mqsc_text_and_answers_its_lines(client: httpx.Client) -> None:
    text = "DEFINE QLOCAL(ADMIN.TEXT) DESCR('made over REST')"
    answer = mqsc(client, {"type": "runCommand", "parameters": {"command": text}})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["overallCompletionCode"] == 0 and body["overallReasonCode"] == 0
    item = body["commandResponse"][0]
    assert item["completionCode"] == 0 and item["text"]
    shown = mqsc(
        client,
        {"type": "runCommand", "parameters": {"command": "DISPLAY QLOCAL(ADMIN.TEXT) DESCR"}},
    )
    assert any("made over REST" in line for line in shown.json()["commandResponse"][0]["text"])


@keeps(
    "docs/rest.md",
    "A DISPLAY answers one item per object found, its `parameters` the attributes DISPLAY "
    "shows, named as MQSC names them in lower case",
)
def test_run_command_json_defines_and_displays_with_mqscs_attribute_names(
    client: httpx.Client,
) -> None:
    define = {
        "type": "runCommandJSON",
        "command": "define",
        "qualifier": "qlocal",
        "name": "ADMIN.JSON",
        "parameters": {"maxdepth": 77, "descr": "Json made", "defpsist": "yes"},
    }
    assert mqsc(client, define).json()["overallCompletionCode"] == 0
    display = {
        "type": "runCommandJSON",
        "command": "display",
        "qualifier": "qlocal",
        "name": "ADMIN.JSON",
        "responseParameters": ["maxdepth", "descr", "curdepth", "defpsist"],
    }
    body = mqsc(client, display).json()
    (item,) = body["commandResponse"]
    assert item["completionCode"] == 0
    parameters = item["parameters"]
    assert parameters["queue"] == "ADMIN.JSON"
    assert parameters["maxdepth"] == 77 and parameters["curdepth"] == 0
    assert parameters["descr"] == "Json made"
    assert parameters["defpsist"] == "YES"


@keeps(
    "docs/rest.md",
    "A command the queue manager refuses has completion code 2 and reason code "
    "3008 (MQRCCF_COMMAND_FAILED), in its item and overall; the status is still 200.",
)
def test_a_command_the_queue_manager_refuses_has_completion_code_2_and_reason_3008(
    client: httpx.Client,
) -> None:
    """MQRCCF_COMMAND_FAILED (3008) in the item and overall."""
    body = mqsc(
        client,
        {"type": "runCommandJSON", "command": "delete", "qualifier": "qlocal", "name": "NONE.SUCH"},
    ).json()
    assert body["overallCompletionCode"] == 2 and body["overallReasonCode"] == 3008
    assert body["commandResponse"][0]["reasonCode"] == 3008
    assert body["commandResponse"][0]["message"]


@keeps("docs/rest.md", "over members some of which are not running, the answer is **500**")
def test_a_command_scope_with_a_member_down_answers_500_with_an_error_per_member_down(
    client: httpx.Client,
) -> None:
    """IBM: with commandScope, a command that fails on some members is HTTP 500, an
    error (qmgrName) for each of those, and success naming the others."""
    body = {
        "type": "runCommandJSON",
        "command": "display",
        "qualifier": "qlocal",
        "name": "DEV.QUEUE.1",
        "commandScope": "*",
    }
    answer = mqsc(client, body)
    assert answer.status_code == 500
    errors = answer.json()["error"]
    assert [e["qmgrName"] for e in errors] == ["QM3"]
    assert errors[0]["reasonCode"] == 2059  # MQRC_Q_MGR_NOT_AVAILABLE
    assert sorted(s["qmgrName"] for s in answer.json()["success"]) == ["QM1", "QM2"]
    assert {i["parameters"]["qmgr"] for i in answer.json()["commandResponse"]} == {"QM1", "QM2"}


@keeps("docs/rest.md", "an administrative body that is not the JSON the resource takes")
@pytest.mark.parametrize(
    ("content", "detail"),
    [
        (b"{not json", "Not JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"type": "runSomething"}', "runCommand"),
        (b'{"type": "runCommand", "parameters": {}}', "parameters.command"),
        (b'{"type": "runCommandJSON", "command": "display"}', "qualifier"),
        (b'{"type": "runCommandJSON", "command": "display", "qualifier": "group"}', "runCommand"),
        (
            b'{"type": "runCommandJSON", "command": "define", "qualifier": "qlocal", '
            b'"name": "X", "parameters": {"maxdepth": {"a": 1}}}',
            "string or a number",
        ),
    ],
)
def test_a_body_the_mqsc_resource_cannot_read_is_400_with_mqwb2004e(
    client: httpx.Client, content: bytes, detail: str
) -> None:
    answer = client.post(
        "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc",
        content=content,
        auth=ADMIN,
        headers={**CSRF, "Content-Type": "application/json"},
    )
    assert answer.status_code == 400
    error = answer.json()["error"][0]
    assert error["msgId"] == "MQWB2004E" and detail in error["explanation"]


@keeps("docs/rest.md", "`GET .../admin/installation` the installation (`qsg`, its version).")
@keeps(
    "docs/rest.md",
    "give each queue manager's name and state (`running`, or `endedUnexpectedly` once killed)",
)
def test_get_admin_qmgr_gives_each_queue_managers_state(client: httpx.Client) -> None:
    body = client.get("/ibmmq/rest/v1/admin/qmgr", auth=ADMIN).json()
    assert body["qmgr"] == [
        {"name": "QM1", "state": "running"},
        {"name": "QM2", "state": "running"},
        {"name": "QM3", "state": "endedUnexpectedly"},
    ]
    one = client.get("/ibmmq/rest/v1/admin/qmgr/QM2", auth=ADMIN).json()
    assert one == {"qmgr": [{"name": "QM2", "state": "running"}]}
    assert client.get("/ibmmq/rest/v1/admin/qmgr/QM9", auth=ADMIN).status_code == 404
    installation = client.get("/ibmmq/rest/v1/admin/installation", auth=ADMIN).json()
    assert installation["installation"][0]["name"] == "qsg"
    assert installation["installation"][0]["version"] == metadata.version("qsg")


@keeps("docs/rest.md", "A wrong or missing password is 401, MQWB0104E.")
def test_a_wrong_password_or_none_is_401_not_authenticated(client: httpx.Client) -> None:
    for auth in (("mqadmin", "wrong"), ("nobody", "x"), None):
        answer = client.get("/ibmmq/rest/v1/admin/qmgr", auth=auth)
        assert answer.status_code == 401
        assert answer.json()["error"][0]["msgId"] == "MQWB0104E"
        assert answer.headers["www-authenticate"].startswith("Basic")


@keeps("docs/rest.md", "MQWebAdmin runs any command; MQWebAdminRO, and MQWebUser, only DISPLAY")
@keeps("docs/rest.md", "A request the role does not allow is 403, MQWB0103E.")
def test_mqwebadminro_may_display_but_not_define(client: httpx.Client) -> None:
    reader = ("reader", "reader")
    display = {"type": "runCommand", "parameters": {"command": "DISPLAY QMGR"}}
    assert mqsc(client, display, auth=reader).status_code == 200
    define = {"type": "runCommand", "parameters": {"command": "DEFINE QLOCAL(RO.TRY)"}}
    refused = mqsc(client, define, auth=reader)
    assert refused.status_code == 403
    assert refused.json()["error"][0]["msgId"] == "MQWB0103E"


@keeps(
    "docs/rest.md",
    "**Roles**: messaging is MQWebUser's (IBM: the admin roles \"are not applicable "
    'for the messaging REST API")',
)
def test_messaging_is_for_mqwebuser_and_the_admin_roles_are_not_applicable_to_it(
    client: httpx.Client,
) -> None:
    """IBM: "The MQWebAdmin and MQWebAdminRO roles are not applicable for the messaging
    REST API"; MQWebUser puts under its own user id."""
    url = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message"
    headers = {**CSRF, "Content-Type": "text/plain"}
    assert client.post(url, content="x", auth=ADMIN, headers=headers).status_code == 403
    assert (
        client.post(url, content="x", auth=("app", "appPassword"), headers=headers).status_code
        == 201
    )
    got = client.delete(url, auth=("app", "appPassword"), headers=CSRF)
    assert got.status_code == 200 and got.text == "x"


@keeps("docs/rest.md", "and the token cookie is marked Secure.")
@keeps(
    "docs/rest.md",
    "`DELETE /login` ends the token (a request with the old token is then 401, MQWB0112E).",
)
def test_login_gives_a_token_cookie_that_authenticates_until_logout(
    server: Server, tls: tuple[Path, Path, trustme.CA]
) -> None:
    """IBM: POST /login answers 204 with the LtpaToken2 cookie; GET /login shows the
    user and roles; DELETE /login (with the CSRF header) ends the token."""
    with httpx.Client(base_url=server.url, verify=trusting(tls[2])) as c:
        wrong = c.post("/ibmmq/rest/v1/login", json={"username": "mqadmin", "password": "no"})
        assert wrong.status_code == 401
        login = c.post("/ibmmq/rest/v1/login", json={"username": "mqadmin", "password": "mqadmin"})
        assert login.status_code == 204
        assert "LtpaToken2" in c.cookies
        assert "secure" in login.headers["set-cookie"].lower()  # over TLS only
        me = c.get("/ibmmq/rest/v1/login").json()
        assert me["user"][0]["name"] == "mqadmin"
        assert me["user"][0]["role"] == ["MQWebAdmin"]
        assert c.get("/ibmmq/rest/v1/admin/qmgr").status_code == 200
        assert c.delete("/ibmmq/rest/v1/login").status_code == 401  # no CSRF header
        token = c.cookies["LtpaToken2"]
        assert c.delete("/ibmmq/rest/v1/login", headers=CSRF).status_code == 204
        c.cookies.set("LtpaToken2", token)  # the old token, kept by a client
        gone = c.get("/ibmmq/rest/v1/admin/qmgr")
        assert gone.status_code == 401 and gone.json()["error"][0]["msgId"] == "MQWB0112E"


@keeps("docs/rest.md", "a named queue not found is 404 with reason 2085.")
def test_v1_get_queue_lists_queues_by_type_and_queue_sharing_group_disposition(
    client: httpx.Client,
) -> None:
    """IBM's "/admin/qmgr/{qmgrName}/queue" GET: ``type=`` and
    ``queueSharingGroupDisposition=`` select, the answer is ``{"queue": [{"name", "type"}]}``."""
    define = {"type": "runCommand", "parameters": {"command": "DEFINE QLOCAL(V1.PRIVATE)"}}
    assert mqsc(client, define).json()["overallCompletionCode"] == 0
    url = "/ibmmq/rest/v1/admin/qmgr/QM1/queue"
    shared = client.get(
        url, params={"type": "local", "queueSharingGroupDisposition": "shared"}, auth=ADMIN
    )
    assert shared.status_code == 200
    names = {q["name"]: q["type"] for q in shared.json()["queue"]}
    assert names.get("DEV.QUEUE.1") == "local" and "V1.PRIVATE" not in names
    private = client.get(url, params={"queueSharingGroupDisposition": "qmgr"}, auth=ADMIN).json()
    assert {"name": "V1.PRIVATE", "type": "local"} in private["queue"]
    one = client.get(f"{url}/DEV.QUEUE.1", auth=("reader", "reader"))
    assert one.json() == {"queue": [{"name": "DEV.QUEUE.1", "type": "local"}]}
    missing = client.get(f"{url}/NONE.SUCH", auth=ADMIN)
    assert missing.status_code == 404 and missing.json()["error"][0]["reasonCode"] == 2085
    bad = client.get(url, params={"type": "queue"}, auth=ADMIN)
    assert bad.status_code == 400
    v2 = client.get("/ibmmq/rest/v2/admin/qmgr/QM1/queue", auth=ADMIN)
    assert v2.status_code == 404  # IBM: "available only in version 1 of the REST API"


@keeps("docs/rest.md", "(MQWebAdmin) deletes it and answers 204")
def test_v1_delete_queue_deletes_it_with_purge_and_mqwebadminro_may_not(
    client: httpx.Client,
) -> None:
    """IBM's "/admin/qmgr/{qmgrName}/queue/{queueName}" DELETE: 204; ``purge`` for a
    queue with messages; ``queueSharingGroupDisposition`` for a shared one."""
    command = "DEFINE QLOCAL(V1.GONE) QSGDISP(SHARED) CFSTRUCT(APP1)"
    assert (
        mqsc(client, {"type": "runCommand", "parameters": {"command": command}}).status_code == 200
    )
    put = client.post(
        "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/V1.GONE/message",
        auth=("app", "appPassword"),
        headers={**CSRF, "Content-Type": "text/plain"},
        content="left behind",
    )
    assert put.status_code in (201, 403)  # app may lack authority: the put is not the point
    url = "/ibmmq/rest/v1/admin/qmgr/QM1/queue/V1.GONE"
    denied = client.delete(url, auth=("reader", "reader"), headers=CSRF)
    assert denied.status_code == 403 and denied.json()["error"][0]["msgId"] == "MQWB0103E"
    no_csrf = client.delete(url, auth=ADMIN)
    assert no_csrf.status_code == 401
    gone = client.delete(
        url,
        params={"queueSharingGroupDisposition": "shared", "purge": ""},
        auth=ADMIN,
        headers=CSRF,
    )
    assert gone.status_code == 204, gone.text
    assert client.get(url, auth=ADMIN).status_code == 404
    again = client.delete(url, auth=ADMIN, headers=CSRF)
    assert again.status_code == 404


@keeps(
    "docs/rest.md",
    "so a name or a value holding quotes or parentheses is that name or value and "
    "cannot add a keyword",
)
def test_run_command_json_makes_its_command_as_data_so_a_name_cannot_add_a_keyword(
    client: httpx.Client,
) -> None:
    """Issue 43, commands as data: runCommandJSON's name and values are never written
    into MQSC text (IBM's B1') LIKE('TEST.1 through PCF, here through REST)."""
    injected = {
        "type": "runCommandJSON",
        "command": "define",
        "qualifier": "qlocal",
        "name": "B1') LIKE('DEV.QUEUE.1",
    }
    body = mqsc(client, injected).json()
    assert body["overallCompletionCode"] == 2
    shown = mqsc(client, {"type": "runCommand", "parameters": {"command": "DISPLAY QLOCAL(B1)"}})
    assert "NOT FOUND" in " ".join(shown.json()["commandResponse"][0]["text"]).upper()
    odd = {
        "type": "runCommandJSON",
        "command": "define",
        "qualifier": "qlocal",
        "name": "ADMIN.ODD",
        "parameters": {"descr": "it's (odd) MAXDEPTH(1)"},
    }
    assert mqsc(client, odd).json()["overallCompletionCode"] == 0
    display = {
        "type": "runCommandJSON",
        "command": "display",
        "qualifier": "qlocal",
        "name": "ADMIN.ODD",
        "responseParameters": ["descr", "maxdepth"],
    }
    (item,) = mqsc(client, display).json()["commandResponse"]
    assert item["parameters"]["descr"] == "it's (odd) MAXDEPTH(1)"
    assert item["parameters"]["maxdepth"] != 1


@keeps(
    "docs/rest.md",
    "A value of a text attribute (a name, DESCR, SSLPEER, exit data: every attribute the "
    "attribute table holds as text) is kept as given, case and all",
)
def test_run_command_json_keeps_every_text_attributes_value_as_given(
    client: httpx.Client,
) -> None:
    # A value of a text attribute is kept as given (case and all), whichever attribute:
    # the list of them comes from the attribute table. SSLPEER's distinguished name was
    # folded to upper case when the list was written by hand and left it out.
    define = {
        "type": "runCommandJSON",
        "command": "define",
        "qualifier": "channel",
        "name": "ADMIN.PEER",
        "parameters": {"chltype": "rcvr", "trptype": "tcp", "sslpeer": "CN=payments,O=Example"},
    }
    assert mqsc(client, define).json()["overallCompletionCode"] == 0
    display = {
        "type": "runCommandJSON",
        "command": "display",
        "qualifier": "channel",
        "name": "ADMIN.PEER",
        "responseParameters": ["sslpeer"],
    }
    (item,) = mqsc(client, display).json()["commandResponse"]
    assert item["parameters"]["sslpeer"] == "CN=payments,O=Example"
