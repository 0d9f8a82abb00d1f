"""Who may do what, as mqweb decides it: users and roles, HTTP basic authentication,
the login token, and the CSRF header.

IBM's "Configuring users and roles" names three roles: MQWebAdmin (every administrative
request), MQWebAdminRO (the administrative requests that only display) and MQWebUser
(messaging, under the user's own identity, which the queue manager's authority checks
then judge). A user may hold several. ``--users FILE`` is a TOML file of
``[users.NAME]`` tables with ``password`` and ``role`` (or ``roles``, a list); without
it the server is open, and every request is the user ``qsg`` with all three roles (a
simulator on a developer's machine, as IBM's developer container ships an ``admin``
and an ``app`` user).

A request authenticates with ``Authorization: Basic`` ("Using HTTP basic authentication
with the REST API") or with the ``LtpaToken2`` cookie that ``POST /login`` returns
("Using token-based authentication with the REST API"); the token lasts 120 minutes of
real time, as mqweb's default, or until ``DELETE /login``. Every request that changes
something (POST, PUT, PATCH, DELETE) must carry the ``ibm-mq-rest-csrf-token`` header,
of any value, blank included (IBM MQ 9.0.5 on), except the login itself; without it the
answer is 401 and MQWB0100E.

With client certificates configured (``--tls-ca``), a TLS client's verified certificate
authenticates its requests in place of a user name and password, as the user named by
the Common Name of its subject (IBM: "For a basic registry, the Common Name (CN) is
matched against the user"): ``CN=app, O=Example`` is the user ``app`` of the users
file. A certificate whose CN is no user is 401, MQWB0104E.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import secrets
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request

from qsg.commands.serve.errors import RestError, refuse
from qsg.core.errors import QSGError

ADMIN, ADMIN_RO, USER = "MQWebAdmin", "MQWebAdminRO", "MQWebUser"
ROLES = frozenset({ADMIN, ADMIN_RO, USER})
#: The header every state-changing request carries.
CSRF_HEADER = "ibm-mq-rest-csrf-token"
#: The login token's cookie, as mqweb names it by default.
TOKEN_COOKIE = "LtpaToken2"
#: How long a login token lasts (real seconds): mqweb's default, 120 minutes.
TOKEN_LIFETIME = 120 * 60.0
#: The methods that change something, and so need the CSRF header.
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The ASGI connection state's key for the TLS client's verified certificate
#: (``ssl.SSLObject.getpeercert``'s dict), put there by the server (``server``).
PEER_CERTIFICATE = "qsg.peer_certificate"
#: The most users a file may name, and the longest file read (a users file, not a dump).
MAX_USERS_FILE_BYTES = 1 << 20


class UsersFileError(QSGError, ValueError):
    """A ``--users`` file qsg cannot use: the message names the file and what is wrong."""


@dataclass(frozen=True, slots=True)
class User:
    """A user of the users file: its password and roles."""

    name: str
    password: str
    roles: frozenset[str]


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request is from: the user, its roles, and how it authenticated (``basic``,
    ``token`` or ``none`` on an open server)."""

    name: str
    roles: frozenset[str]
    mechanism: str

    def has(self, *roles: str) -> bool:
        return any(role in self.roles for role in roles)


#: Every request's principal on a server without ``--users``.
OPEN = Principal("qsg", ROLES, "none")


def load_users(path: Path) -> dict[str, User]:
    """The users of ``path``; ``UsersFileError`` naming the file and the problem."""
    try:
        raw = path.read_bytes()[: MAX_USERS_FILE_BYTES + 1]
    except OSError as error:
        raise UsersFileError(f"{path}: cannot read it: {error.strerror or error}") from None
    if len(raw) > MAX_USERS_FILE_BYTES:
        raise UsersFileError(f"{path}: over {MAX_USERS_FILE_BYTES} bytes, not a users file")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsersFileError(f"{path}: not TOML: {error}") from None
    extra = set(data) - {"users"}
    if extra:
        raise UsersFileError(f"{path}: unknown key {sorted(extra)[0]!r} (only [users.NAME])")
    tables = data.get("users")
    if not isinstance(tables, dict) or not tables:
        raise UsersFileError(f"{path}: no [users.NAME] table")
    users: dict[str, User] = {}
    for name, table in tables.items():
        where = f"{path}: users.{name}"
        if not isinstance(table, dict):
            raise UsersFileError(f"{where}: must be a table with password and role")
        unknown = set(table) - {"password", "role", "roles"}
        if unknown:
            raise UsersFileError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        password = table.get("password")
        if not isinstance(password, str) or not password:
            raise UsersFileError(f"{where}: password must be a non-empty string")
        given = table.get("roles", table.get("role"))
        roles = [given] if isinstance(given, str) else given
        if not isinstance(roles, list) or not roles or not all(isinstance(r, str) for r in roles):
            raise UsersFileError(f"{where}: role must be one of {', '.join(sorted(ROLES))}")
        wrong = [r for r in roles if r not in ROLES]
        if wrong:
            raise UsersFileError(
                f"{where}: {wrong[0]!r} is not a role (roles: {', '.join(sorted(ROLES))})"
            )
        users[name] = User(name, password, frozenset(roles))
    return users


@dataclass(slots=True)
class Security:
    """The server's users (None: an open server) and its live login tokens."""

    users: dict[str, User] | None
    secure: bool = False  # TLS: the token cookie is marked Secure
    _tokens: dict[str, tuple[str, float]] = field(default_factory=dict)

    def check(self, name: str, password: str) -> User | None:
        """The user ``name`` if ``password`` is its password (compared in constant time)."""
        if self.users is None:
            return None
        user = self.users.get(name)
        # Compared even for an unknown name, so that timing does not tell names apart.
        expected = user.password if user is not None else secrets.token_hex(16)
        if hmac.compare_digest(expected.encode(), password.encode()) and user is not None:
            return user
        return None

    def authenticate(self, request: Request) -> Principal:
        """Who ``request`` is from; 401 (MQWB0104E, or MQWB0112E for a token that is no
        longer valid) when nobody the server knows. A verified client certificate is
        used in place of any other credential."""
        state = request.scope.get("state") or {}
        certificate = state.get(PEER_CERTIFICATE)
        if certificate and self.users is not None:
            return self._certified(certificate)
        header = request.headers.get("authorization")
        if header is not None:
            return self._basic(header)
        token = request.cookies.get(TOKEN_COOKIE)
        if token is not None and self.users is not None:
            return self._token(token)
        if self.users is None:
            return OPEN
        raise _unauthenticated("MQWB0104E")

    def login(self, user: User) -> str:
        """A new token for ``user``."""
        now = time.monotonic()
        for token, (_, expiry) in list(self._tokens.items()):
            if expiry <= now:
                del self._tokens[token]
        token = secrets.token_urlsafe(32)
        self._tokens[token] = (user.name, now + TOKEN_LIFETIME)
        return token

    def logout(self, request: Request) -> None:
        token = request.cookies.get(TOKEN_COOKIE)
        if token is not None:
            self._tokens.pop(token, None)

    def _basic(self, header: str) -> Principal:
        scheme, _, encoded = header.partition(" ")
        if scheme.lower() != "basic":
            raise _unauthenticated("MQWB0104E")
        try:
            name, colon, password = base64.b64decode(encoded, validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            raise _unauthenticated("MQWB0104E") from None
        if self.users is None:
            return OPEN
        user = self.check(name, password) if colon else None
        if user is None:
            raise _unauthenticated("MQWB0104E")
        return Principal(user.name, user.roles, "basic")

    def _certified(self, certificate: dict[str, Any]) -> Principal:
        user = self.users.get(common_name(certificate) or "") if self.users is not None else None
        if user is None:
            raise _unauthenticated("MQWB0104E")
        return Principal(user.name, user.roles, "certificate")

    def _token(self, token: str) -> Principal:
        held = self._tokens.get(token)
        if held is None or held[1] <= time.monotonic():
            self._tokens.pop(token, None)
            raise _unauthenticated("MQWB0112E")
        assert self.users is not None
        user = self.users.get(held[0])
        if user is None:
            raise _unauthenticated("MQWB0112E")
        return Principal(user.name, user.roles, "token")


def common_name(certificate: dict[str, Any]) -> str | None:
    """The Common Name of a certificate's subject (``getpeercert``'s dict: a tuple of
    relative names, each a tuple of (attribute, value) pairs); the last if several."""
    found = None
    for relative in certificate.get("subject", ()):
        for attribute, value in relative:
            if attribute == "commonName":
                found = value
    return found


def check_csrf(request: Request) -> None:
    """A state-changing request without the CSRF header: 401, MQWB0100E."""
    if request.method in CHANGING and CSRF_HEADER not in request.headers:
        raise refuse(401, "MQWB0100E", CSRF_HEADER)


def require(principal: Principal, *roles: str, what: str = "") -> None:
    """403 (MQWB0103E) unless ``principal`` holds one of ``roles``."""
    if not principal.has(*roles):
        raise refuse(403, "MQWB0103E", f" to {what}" if what else "")


def _unauthenticated(msg_id: str) -> RestError:
    error = refuse(401, msg_id)
    error.headers["WWW-Authenticate"] = 'Basic realm="mqweb"'
    return error


__all__ = [
    "ADMIN",
    "ADMIN_RO",
    "CSRF_HEADER",
    "OPEN",
    "PEER_CERTIFICATE",
    "ROLES",
    "TOKEN_COOKIE",
    "USER",
    "Principal",
    "Security",
    "User",
    "UsersFileError",
    "check_csrf",
    "common_name",
    "load_users",
    "require",
]
