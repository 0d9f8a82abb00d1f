"""Emptying a queue-sharing group's part of the coupling facility's server: its keys, and
only its keys (``coupling.keys`` puts every one of them under the group's prefix).

The server may be the user's own, shared with others: SCAN walks it a batch per call
(KEYS would block it while it walks every key), UNLINK frees the memory in the
background, and nothing else on the server is touched (never FLUSHALL or FLUSHDB).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coupling import keys

if TYPE_CHECKING:
    from coupling.direct import DirectTransport
    from coupling.transport import Transport
    from coupling.trio_transport import TrioTransport

#: How many keys one SCAN call looks at.
SCAN_COUNT = 1000


def _scan(qsg: str, cursor: Any) -> list[Any]:
    return ["SCAN", cursor, "MATCH", keys.group_prefix(qsg) + "*", "COUNT", SCAN_COUNT]


def delete_group(transport: Transport, qsg: str) -> int:
    """Delete every key of ``qsg``; how many there were."""
    cursor, deleted = 0, 0
    while True:
        cursor, found = transport.command(*_scan(qsg, cursor))
        if found:
            deleted += int(transport.command("UNLINK", *found))
        if int(cursor) == 0:
            return deleted


async def adelete_group(transport: TrioTransport | DirectTransport, qsg: str) -> int:
    """``delete_group`` from a trio task."""
    cursor, deleted = 0, 0
    while True:
        cursor, found = await transport.acommand(*_scan(qsg, cursor))
        if found:
            deleted += int(await transport.acommand("UNLINK", *found))
        if int(cursor) == 0:
            return deleted


__all__ = ["SCAN_COUNT", "adelete_group", "delete_group"]
