"""MQOPEN of an object that is not a queue: a namelist, a process definition or the
queue manager itself (OD.ObjectType MQOT_NAMELIST, MQOT_PROCESS, MQOT_Q_MGR), for MQINQ.

IBM's "MQOPEN - Open object" lets such an object be opened with MQOO_INQUIRE only (with
MQOO_FAIL_IF_QUIESCING and MQOO_ALTERNATE_USER_AUTHORITY beside it); any other option is
MQRC_OPTIONS_ERROR (2046). "MQINQ - Inquire object attributes": each selector must be
valid for the type of object the handle represents, otherwise MQRC_SELECTOR_ERROR
(2067); the values are the attribute table's (``qsg.core.attributes``), read when asked,
so an ALTER after the open is seen. MQSET changes nothing on these objects: the handle
was not opened for set (MQRC_NOT_OPEN_FOR_SET, 2040).
"""

from __future__ import annotations

from typing import Any, Protocol

from qsg import CMQC
from qsg.core import attributes
from qsg.core.errors import MQMIError
from qsg.core.repository import Repository

#: The object types this handle serves, and the attribute table's name of each.
OBJECT_TYPES = {
    CMQC.MQOT_NAMELIST: "NAMELIST",
    CMQC.MQOT_PROCESS: "PROCESS",
    CMQC.MQOT_Q_MGR: "QMGR",
}
#: The options MQOPEN of such an object takes.
_ALLOWED = CMQC.MQOO_INQUIRE | CMQC.MQOO_FAIL_IF_QUIESCING | CMQC.MQOO_ALTERNATE_USER_AUTHORITY


class ObjectOwner(Protocol):
    """What an object handle reads of its queue manager (``QMgr``): its name and its
    own repository (namelists, processes); the queue manager itself for MQOT_Q_MGR."""

    @property
    def name(self) -> str: ...
    @property
    def local(self) -> Repository: ...


class ObjectHandle:
    """An open namelist, process definition or queue manager: MQINQ and MQCLOSE."""

    def __init__(self, qmgr: ObjectOwner, object_type: int, name: str, options: int) -> None:
        kind = OBJECT_TYPES.get(object_type)
        if kind is None:
            raise MQMIError.failed(
                CMQC.MQRC_OBJECT_TYPE_ERROR, f"ObjectType {object_type} is not opened here"
            )
        if options & ~_ALLOWED or not options & CMQC.MQOO_INQUIRE:
            raise MQMIError.failed(
                CMQC.MQRC_OPTIONS_ERROR,
                f"a {kind.lower()} is opened with MQOO_INQUIRE only (options {options:#x})",
            )
        if kind == "QMGR" and name not in ("", qmgr.name):
            raise MQMIError.failed(
                CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"{name} is not this queue manager ({qmgr.name})"
            )
        self.qmgr = qmgr
        self.kind = kind
        self.name = name or qmgr.name
        self.options = options
        self.open = True
        self._record()  # MQRC_UNKNOWN_OBJECT_NAME now, for one that is not there

    def _record(self) -> Any:
        if self.kind == "QMGR":
            return self.qmgr
        known = self.qmgr.local.namelists if self.kind == "NAMELIST" else self.qmgr.local.processes
        record = known.get(self.name)
        if record is None:
            raise MQMIError.failed(
                CMQC.MQRC_UNKNOWN_OBJECT_NAME,
                f"no {self.kind.lower()} {self.name} on {self.qmgr.name}",
            )
        return record

    def inquire(self, selector: int) -> int | bytes:
        """MQINQ of one attribute: its value, or MQRC_SELECTOR_ERROR (2067) for a
        selector this type of object does not have."""
        self._check_open()
        values = attributes.inquired(self._record(), self.kind, {})
        if type(selector) is not int or selector not in values:
            raise MQMIError.failed(
                CMQC.MQRC_SELECTOR_ERROR,
                f"selector {selector!r} on {self.kind.lower()} {self.name}",
            )
        value: int | bytes = values[selector]
        return value

    def set(self, selector: int, value: int | bytes) -> None:
        """MQSET: never, on these objects (MQRC_NOT_OPEN_FOR_SET, 2040)."""
        self._check_open()
        raise MQMIError.failed(
            CMQC.MQRC_NOT_OPEN_FOR_SET, f"{self.kind.lower()} {self.name} is open for MQINQ only"
        )

    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        """MQCLOSE: the handle is no longer usable (MQRC_HOBJ_ERROR after)."""
        self._check_open()
        self.open = False

    def _check_open(self) -> None:
        if not self.open:
            raise MQMIError.failed(
                CMQC.MQRC_HOBJ_ERROR, f"{self.kind.lower()} {self.name} is closed"
            )


__all__ = ["OBJECT_TYPES", "ObjectHandle", "ObjectOwner"]
