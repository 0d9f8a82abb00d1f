"""How a connection to the coupling facility's server is bounded and secured, from its URL.

The URL's query options are redis-py's (and valkey-py's, whose parser reads them), so a
URL that works with those clients works here:

``socket_connect_timeout``
    seconds to open the connection, TLS handshake included (default 10);
``socket_timeout``
    seconds a call may wait for its reply, its request's write included (default 30);
``ssl_cert_reqs``
    ``none``, ``optional`` or ``required`` (the default): whether the server's
    certificate must verify;
``ssl_ca_certs``
    a PEM file of the certificate authorities to verify it against (default: the
    system's);
``ssl_certfile``, ``ssl_keyfile``
    this client's certificate and key, for a server that asks for one;
``ssl_check_hostname``
    whether the certificate must name the host (default: yes when it must verify).

and one of qsg's own: ``loading_timeout``, seconds to wait for a server in a transient
state before a call fails (default 60): LOADING (it is reading its append-only file back
after a restart), BUSY, READONLY, MASTERDOWN, TRYAGAIN (``coupling.errors.TRANSIENT``).

Every bound is in real (wall) seconds: under the simulator's virtual clock, simulated
time stands still while a call awaits its reply, so a simulated timeout would never
fire.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any

#: Defaults (seconds), documented in docs/coupling-facility.md ("Timeouts").
CONNECT_TIMEOUT = 10.0
REPLY_TIMEOUT = 30.0
LOADING_TIMEOUT = 60.0

_CERT_REQS = {"none": ssl.CERT_NONE, "optional": ssl.CERT_OPTIONAL, "required": ssl.CERT_REQUIRED}


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """The bounds of one connection (seconds) and its TLS context (None: plain)."""

    connect_timeout: float = CONNECT_TIMEOUT
    reply_timeout: float = REPLY_TIMEOUT
    loading_timeout: float = LOADING_TIMEOUT
    tls: ssl.SSLContext | None = None

    @classmethod
    def from_options(cls, options: dict[str, Any], *, tls: bool) -> LinkSettings:
        """The settings a parsed URL's ``options`` give; ValueError naming a bad one."""
        return cls(
            connect_timeout=_seconds(options, "socket_connect_timeout", CONNECT_TIMEOUT),
            reply_timeout=_seconds(options, "socket_timeout", REPLY_TIMEOUT),
            loading_timeout=_seconds(options, "loading_timeout", LOADING_TIMEOUT),
            tls=tls_context(options) if tls else None,
        )


def _seconds(options: dict[str, Any], name: str, default: float) -> float:
    value = options.get(name)
    if value is None or value == "":
        return default
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"the URL's {name} is {value!r}: it must be seconds") from None
    if not seconds > 0:
        raise ValueError(f"the URL's {name} is {value!r}: it must be more than 0 seconds")
    return seconds


def tls_context(options: dict[str, Any]) -> ssl.SSLContext:
    """The TLS context of a ``rediss://`` URL's options, read as valkey-py reads them
    (``ssl_cert_reqs``, ``ssl_ca_certs``, ``ssl_certfile``, ``ssl_keyfile``,
    ``ssl_check_hostname``); TLS 1.2 at least, as valkey-py asks."""
    reqs = str(options.get("ssl_cert_reqs") or "required").lower()
    if reqs not in _CERT_REQS:
        raise ValueError(
            f"the URL's ssl_cert_reqs is {reqs!r}: it must be none, optional or required"
        )
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    check = options.get("ssl_check_hostname")
    # Hostname checking needs verification; without a word, it goes with it.
    context.check_hostname = _CERT_REQS[reqs] != ssl.CERT_NONE and check is not False
    context.verify_mode = _CERT_REQS[reqs]
    if options.get("ssl_keyfile") and not options.get("ssl_certfile"):
        raise ValueError("the URL has an ssl_keyfile but no ssl_certfile to go with it")
    try:
        if options.get("ssl_ca_certs"):
            context.load_verify_locations(cafile=options["ssl_ca_certs"])
        if options.get("ssl_certfile") or options.get("ssl_keyfile"):
            context.load_cert_chain(options["ssl_certfile"], options.get("ssl_keyfile"))
    except (OSError, ssl.SSLError) as error:
        raise ValueError(f"the URL's TLS files cannot be used: {error}") from None
    return context


__all__ = ["CONNECT_TIMEOUT", "LOADING_TIMEOUT", "REPLY_TIMEOUT", "LinkSettings", "tls_context"]
