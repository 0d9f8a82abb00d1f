"""The group's shared repository on the coupling facility's server (Db2's part on z/OS).

One hash per table under the group's prefix (``keys.repository_key``: ``qsg:{QSG1}:r:QUEUE``),
object name -> the definition's row, so the repository lives and dies with the group's
other keys (a run's start empties them, ``coupling.cleanup``). Each call is one plain
command: a row is written whole, and nothing reads two rows that must agree.

A server that cannot be reached is, to the queue managers, Db2 that cannot be:
MQRC_DB2_NOT_AVAILABLE (2342), not a CF structure's failure (the repository is not a
structure; qsg only keeps it on the same server).
"""

from __future__ import annotations

from typing import Any

from coupling import keys
from coupling.errors import CFConnectionError
from coupling.transport import Transport
from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.grouprepo import RepositoryStore


class RedisRepositoryStore:
    """``qsg.core.grouprepo.RepositoryStore`` on a Redis-protocol server, for one QSG."""

    def __init__(self, transport: Transport, qsg: str) -> None:
        self.transport = transport
        self.qsg = qsg

    def read(self, kind: str, name: str) -> str | None:
        row = self._command("HGET", keys.repository_key(self.qsg, kind), name)
        return _text(row) if row is not None else None

    def write(self, kind: str, name: str, row: str) -> None:
        self._command("HSET", keys.repository_key(self.qsg, kind), name, row)

    def remove(self, kind: str, name: str) -> bool:
        return int(self._command("HDEL", keys.repository_key(self.qsg, kind), name)) == 1

    def read_all(self, kind: str) -> dict[str, str]:
        reply = self._command("HGETALL", keys.repository_key(self.qsg, kind))
        if isinstance(reply, dict):
            return {_text(k): _text(v) for k, v in reply.items()}
        pairs = list(reply or ())  # RESP2: field, value, field, value ...
        return {_text(pairs[i]): _text(pairs[i + 1]) for i in range(0, len(pairs), 2)}

    def _command(self, *args: Any) -> Any:
        try:
            return self.transport.command(*args)
        except CFConnectionError as error:
            raise MQMIError.failed(
                CMQC.MQRC_DB2_NOT_AVAILABLE,
                f"the shared repository of QSG {self.qsg} is unreachable: {error}",
            ) from error


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _conforms(store: RedisRepositoryStore) -> RepositoryStore:
    return store  # mypy --strict checks here that the server's store is a RepositoryStore


__all__ = ["RedisRepositoryStore"]
