"""The status a coupling-facility script returns first, named once for Lua and Python.

Every script's reply is a table whose first item is one of these numbers; the store
turns the negative ones into MQ reason codes (``coupling.store``). A number is what the
server converts cheapest (no string built in Lua, none decoded in Python), and the
names keep both sides readable: the scripts write ``return {NO_QUEUE}``, the store
compares with ``Status.NO_QUEUE``. ``lua_constants`` is the Lua line that defines the
names, which ``coupling.scripts`` puts in front of every script that uses one.
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    """What a script says of the call it was asked to make."""

    OK = 0
    #: The queue is at its MAXDEPTH (MQRC_Q_FULL); nothing was put.
    FULL = -1
    #: The CF structure's entries or elements are all in use (MQRC_STORAGE_MEDIUM_FULL).
    STORAGE_FULL = -2
    #: A message over 63 KB on a structure below CFLEVEL(4) (MQRC_WRONG_CF_LEVEL).
    CF_LEVEL = -3
    #: The lease is no longer held with the caller's fencing token: nothing changed.
    STALE_TOKEN = -4
    #: No such queue in the facility (deleted, or the facility lost its structures).
    NO_QUEUE = -5
    #: The CF structure is failed (FAIL: already; RECOVER: not failed); nothing changed.
    STRUCTURE_STATE = -6
    #: The unit of work lost work to a CF structure's failure: COMMIT backed it out.
    BACKED_OUT = -7


def lua_constants() -> str:
    """``local OK, FULL, ... = 0, -1, ...``: every status as a Lua local."""
    names = ", ".join(status.name for status in Status)
    values = ", ".join(str(status.value) for status in Status)
    return f"local {names} = {values}\n"


__all__ = ["Status", "lua_constants"]
