"""CONNAME, where a channel or a client connection reaches its partner: ``host(port)``.

IBM's "CONNAME" attribute of DEFINE CHANNEL for TCP: a host name or address, then
optionally the port in parentheses, 1414 when left out. The rules layer owns the syntax
so that a topology, a channel agent and the pymqi facade read it alike.
"""

from __future__ import annotations

import re

#: MQ's default port, for a CONNAME without one.
DEFAULT_PORT = 1414
_CONNAME = re.compile(r"^\s*([^()\s]+)\s*(?:\(\s*(\d+)\s*\))?\s*$")


def parse_conname(conn_name: str) -> tuple[str, int]:
    """CONNAME('host(port)') as (host, port); the port defaults to 1414."""
    match = _CONNAME.match(conn_name)
    if match is None:
        raise ValueError(f"CONNAME({conn_name}) is not host or host(port)")
    port = int(match.group(2)) if match.group(2) else DEFAULT_PORT
    if not 0 <= port <= 65535:
        raise ValueError(f"CONNAME({conn_name}): port {port} is out of range")
    return match.group(1), port


__all__ = ["DEFAULT_PORT", "parse_conname"]
