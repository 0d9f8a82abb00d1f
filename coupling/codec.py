"""Messages as the coupling facility stores them: one msgpack record per message.

A record is ``[body, descriptor, put_time, expires_at, priority]``. The body comes
first, so that a script reads its length from the record's first bytes without decoding
it (``coupling.scripts``' ``data_of``: a message's elements in its CF structure follow
from its data's length, ``qsg.core.geometry.elements``). The descriptor keeps only the
MQMD fields that differ from ``MQMD_DEFAULT``, keyed by the field's position in the MQMD
(``FIELD_TAGS``): a 1 KB message then costs about 1.1 KB, not the 1.5 KB a descriptor
with every field named would. The Lua scripts read fields by the
same tags (``coupling.scripts`` takes them from here). The body of a message over
63 KB (``qsg.core.offload.ALWAYS_OFFLOADED``) is kept apart and the record's body is nil;
a smaller one the structure's offload rules offload is cut out of the record by the put
script, which alone knows how full the structure is.

BackoutCount and the arrival number are not in the record: the first changes in place
(the ``b`` hash) and the second is part of the message key, so Lua never rewrites a
record.
"""

from __future__ import annotations

from typing import Any

import msgpack

from qsg.core.geometry import seq_of
from qsg.core.message import Message
from qsg.core.offload import ALWAYS_OFFLOADED
from qsg.core.structs import MD

#: A field's tag: its position in the MQMD.
FIELD_TAGS: dict[str, int] = {name: i for i, (name, _, _) in enumerate(MD._fields)}
_NAMES = {i: name for name, i in FIELD_TAGS.items()}
_DEFAULTS: dict[str, Any] = dict(MD._defaults)

#: The CF entry limit: a message whose body is longer lives outside the structure
#: (offloaded to SMDS or Db2) and needs CFLEVEL(4) or more (the offload rules' own).
OFFLOAD_THRESHOLD = ALWAYS_OFFLOADED


def encode(msg: Message) -> tuple[bytes, bytes | None]:
    """The record of ``msg`` and, for an offloaded message, its body apart."""
    desc: dict[int | str, Any] = {}
    for name, value in msg.desc.items():
        if _DEFAULTS.get(name, desc) != value:
            desc[FIELD_TAGS.get(name, name)] = value  # an unknown name is kept by name
    offloaded = len(msg.body) > OFFLOAD_THRESHOLD
    record = [None if offloaded else msg.body, desc, msg.put_time, msg.expires_at, msg.priority]
    # Raw strings, not msgpack's bin type: the servers' Lua cmsgpack cannot read bin.
    # Every MQMD character and byte field is bytes, so nothing is lost.
    return msgpack.packb(record, use_bin_type=False), (msg.body if offloaded else None)


def decode(key: int, record: bytes, body: bytes | None, backout_count: int) -> Message:
    """The message stored under ``key``: ``body`` is the offloaded body, if any."""
    inline, packed, put_time, expires_at, priority = msgpack.unpackb(
        record, raw=True, strict_map_key=False
    )
    desc = dict(_DEFAULTS)
    for tag, value in packed.items():
        desc[_NAMES[tag] if isinstance(tag, int) else tag.decode()] = value
    data = inline if inline is not None else (body or b"")
    return Message(desc, data, put_time, expires_at, priority, seq_of(key), backout_count)
