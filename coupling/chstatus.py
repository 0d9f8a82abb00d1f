"""The group's shared channel status on the coupling facility's server
(``qsg.core.sharedchl.SharedChannelStatus``): one hash per group, channel name to the
instance that runs it, so that every member (in any process) sees who runs which
shared channel, and only one instance of it starts.

IBM keeps shared channel status in Db2 with the group's objects; here it sits beside
the group's shared queues, under the group's key prefix (``coupling.keys``), so that a
run that clears the group clears it too. A claim and a release are each one Lua script
(sent with EVAL: they are rare, and not worth registering with the store's scripts).
"""

from __future__ import annotations

from typing import Any

from coupling.errors import CFConnectionError
from coupling.keys import group_prefix
from coupling.transport import Arg, Transport
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.sharedchl import SharedInstance

#: KEYS[1]: the group's status hash. ARGV[1]: the channel; ARGV[2]: the instance's
#: record (``owner|disposition|xmitq|conname``); ARGV[3]: the failed member whose
#: instance may be taken over ("" for none). Returns "" when the channel was taken,
#: else the record of the instance that holds it (nothing changed).
CLAIM = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then
    local owner = string.match(held, '^([^|]*)')
    if ARGV[3] == '' or owner ~= ARGV[3] then return held end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return ''
"""

#: KEYS[1]: the group's status hash. ARGV[1]: the channel; ARGV[2]: the owner that
#: ends its instance. Returns 1 when its status went, 0 if that owner did not hold it.
RELEASE = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held or string.match(held, '^([^|]*)') ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""


def status_key(qsg: str) -> str:
    """The hash of ``qsg``'s shared channel status."""
    return f"{group_prefix(qsg)}chst"


def _record(instance: SharedInstance) -> str:
    return f"{instance.owner}|{instance.disposition}|{instance.xmitq}|{instance.conn_name}"


def _instance(channel: str, record: Any) -> SharedInstance:
    text = record.decode() if isinstance(record, bytes) else str(record)
    owner, disposition, xmitq, conn_name = text.split("|", 3)
    return SharedInstance(channel, owner, int(disposition), xmitq, conn_name)


class RedisChannelStatus:
    """The shared channel status of group ``qsg`` on the server ``transport`` reaches.
    A server out of reach is MQRC_CF_STRUC_FAILED (2373) to the caller, as for the
    shared queues beside it (IBM's "shared status failure": a state change that cannot
    reach the status does not happen)."""

    def __init__(self, transport: Transport, qsg: str) -> None:
        self._transport = transport
        self._key = status_key(qsg)

    def _command(self, *args: Arg) -> Any:
        try:
            return self._transport.command(*args)
        except CFConnectionError as error:
            raise MQMIError.failed(
                CMQC.MQRC_CF_STRUC_FAILED, f"the shared channel status is out of reach: {error}"
            ) from error

    def claim(self, instance: SharedInstance, replacing: str = "") -> SharedInstance | None:
        held = self._command(
            "EVAL", CLAIM, 1, self._key, instance.channel, _record(instance), replacing
        )
        return _instance(instance.channel, held) if held else None

    def release(self, channel: str, owner: str) -> bool:
        return bool(self._command("EVAL", RELEASE, 1, self._key, channel, owner))

    def holder(self, channel: str) -> SharedInstance | None:
        held = self._command("HGET", self._key, channel)
        return _instance(channel, held) if held else None

    def instances(self) -> list[SharedInstance]:
        flat = self._command("HGETALL", self._key) or []
        if isinstance(flat, dict):
            pairs = list(flat.items())
        else:
            pairs = list(zip(flat[::2], flat[1::2], strict=True))
        found = [_instance(k.decode() if isinstance(k, bytes) else str(k), v) for k, v in pairs]
        return sorted(found, key=lambda i: i.channel)


__all__ = ["CLAIM", "RELEASE", "RedisChannelStatus", "status_key"]
