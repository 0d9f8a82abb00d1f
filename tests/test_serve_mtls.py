"""``qsg serve --tls-ca``: client certificate authentication as mqweb does it (IBM:
"Using client certificate authentication with the REST API and IBM MQ Console"), with
certificates made in the test by ``trustme``: a verified certificate's subject CN is
the user ("For a basic registry, the Common Name (CN) is matched against the user")."""

from __future__ import annotations

import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trustme

from tests.claims import keeps
from tests.serving import ROOT, Server, serving

SCENARIO = """
description = "client certificates"
[run]
duration = 3600
seed = 6
in_process = true

[qsg.QSG1]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[qmgr.QM1]
"""
USERS = """
[users.mqadmin]
password = "mqadmin"
role = "MQWebAdmin"

[users.app]
password = "appPassword"
roles = ["MQWebUser"]
"""
CSRF = {"ibm-mq-rest-csrf-token": ""}
LOGIN = "/ibmmq/rest/v1/login"


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, ca: trustme.CA) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("mtls")
    leaf = ca.issue_cert("127.0.0.1", "localhost")
    cert, key, cas = where / "server.pem", where / "server.key", where / "clients-ca.pem"
    leaf.cert_chain_pems[0].write_to_path(str(cert))
    leaf.private_key_pem.write_to_path(str(key))
    ca.cert_pem.write_to_path(str(cas))
    (where / "users.toml").write_text(USERS)
    scenario = where / "mtls.toml"
    scenario.write_text(SCENARIO)
    args = ["--users", str(where / "users.toml"), "--tls-cert", str(cert), "--tls-key", str(key)]
    with serving(scenario, *args, "--tls-ca", str(cas)) as running:
        yield running


def client_context(ca: trustme.CA, signer: trustme.CA | None, common_name: str) -> ssl.SSLContext:
    """A client trusting the server's CA and presenting a certificate for
    ``common_name`` that ``signer`` issued (none without a signer)."""
    context = ssl.create_default_context()
    ca.configure_trust(context)
    if signer is not None:
        signer.issue_cert(f"{common_name}@clients.example", common_name=common_name).configure_cert(
            context
        )
    return context


@keeps("docs/rest.md", "the Common Name (CN) of its subject names the user")
@keeps("docs/rest.md", "`GET /login` names the mechanism `clientCertificate`.")
def test_a_client_certificate_authenticates_as_the_user_its_cn_names(
    server: Server, ca: trustme.CA
) -> None:
    with httpx.Client(base_url=server.url, verify=client_context(ca, ca, "app")) as c:
        who = c.get(LOGIN)
        assert who.status_code == 200, who.text
        assert who.json()["user"][0]["name"] == "app"
        assert who.json()["user"][0]["authenticationMechanism"] == "clientCertificate"
        put = c.post(
            "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message",
            headers={**CSRF, "Content-Type": "text/plain"},
            content="no password sent",
        )
        assert put.status_code == 201, put.text
        # app's role is MQWebUser: the certificate carries the user's roles, no more
        admin = c.post(
            "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc",
            json={"type": "runCommand", "parameters": {"command": "DEFINE QLOCAL(X)"}},
            headers=CSRF,
        )
        assert admin.status_code == 403


@keeps("docs/rest.md", "a certificate whose CN is no user is 401 (MQWB0104E)")
def test_a_certificate_naming_no_user_is_401_and_its_password_does_not_help(
    server: Server, ca: trustme.CA
) -> None:
    with httpx.Client(base_url=server.url, verify=client_context(ca, ca, "stranger")) as c:
        answer = c.get(LOGIN, auth=("mqadmin", "mqadmin"))
        assert answer.status_code == 401
        assert answer.json()["error"][0]["msgId"] == "MQWB0104E"


@keeps("docs/rest.md", "a certificate another CA signed ends the TLS handshake")
def test_a_certificate_of_an_untrusted_ca_is_refused_in_the_handshake(
    server: Server, ca: trustme.CA
) -> None:
    other = trustme.CA()
    refused = (httpx.ConnectError, httpx.ReadError, httpx.RemoteProtocolError)
    with (
        httpx.Client(base_url=server.url, verify=client_context(ca, other, "app")) as c,
        pytest.raises(refused),
    ):
        c.get(LOGIN)
    with httpx.Client(base_url=server.url, verify=client_context(ca, ca, "app")) as c:
        assert c.get(LOGIN).status_code == 200  # the server is unharmed


@keeps("docs/rest.md", "a client without a certificate authenticates as before")
def test_a_client_without_a_certificate_uses_basic_authentication_as_before(
    server: Server, ca: trustme.CA
) -> None:
    with httpx.Client(base_url=server.url, verify=client_context(ca, None, "")) as c:
        assert c.get(LOGIN).status_code == 401
        who = c.get(LOGIN, auth=("mqadmin", "mqadmin"))
        assert (
            who.status_code == 200 and who.json()["user"][0]["authenticationMechanism"] == "basic"
        )


@keeps("docs/rest.md", "`--tls-ca` needs `--tls-cert` and `--users`")
def test_tls_ca_without_tls_cert_or_users_is_one_line_and_status_2(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO)
    ran = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "serve", str(scenario), "--tls-ca", "x.pem"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert ran.returncode == 2
    assert ran.stderr.strip().splitlines() == [
        "qsg serve: --tls-ca needs --tls-cert (client certificates are TLS's) and --users "
        "(their users)"
    ]
