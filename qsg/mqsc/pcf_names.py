"""MQSC's attribute keywords as PCF parameters, and back.

DISPLAY's attributes (``qsg.mqsc.attributes``) name each value as MQSC spells it; a PCF
reply carries the same value as a parameter: an MQCFIN of an MQIA_*/MQIACF_* identifier
with the MQ constant (``TYPE(QLOCAL)`` is MQIA_Q_TYPE = MQQT_LOCAL), or an MQCFST of an
MQCA_* identifier, blank-padded to MQ's length for that field. The definitions' tables
come from the attribute table (``qsg.core.attributes``); the status displays' are here.
One table per object family serves the replies of the inquiries and the attribute
selectors they take (QAttrs, ChannelAttrs, ...).
"""

from __future__ import annotations

from dataclasses import dataclass

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import attributes as table
from qsg.core import cfstate
from qsg.core.attributes.kinds import Names, Number, Numbered

_YES = {"NO": 0, "YES": 1}


@dataclass(frozen=True, slots=True)
class Name:
    """An MQSC keyword's PCF parameter: its identifier, and either the values of an
    enumeration (MQSC word to MQ constant), or the padded length of a string (0 for an
    integer)."""

    parameter: int
    values: dict[str, int] | None = None
    length: int = 0
    binary: bool = False  # an MQCFBS of ``length`` bytes (MQSC shows it in hex)
    listed: bool = False  # an MQCFSL of names ``length`` long (MQSC: comma-separated)

    @property
    def string(self) -> bool:
        return self.length > 0 and not self.binary


def _s(parameter: int, length: int) -> Name:
    return Name(parameter, length=length)


def _i(parameter: int, values: dict[str, int] | None = None) -> Name:
    return Name(parameter, values)


def _family(object_types: tuple[str, ...]) -> dict[str, Name]:
    """The PCF parameters of the attribute table's rows for ``object_types``."""
    family: dict[str, Name] = {}
    for kind in object_types:
        for a in table.TABLE[kind]:
            if a.parameter and a.keyword not in family:
                family[a.keyword] = _name(a)
    return family


def _name(a: table.Attribute) -> Name:
    if isinstance(a.kind, Names):  # NAMES: an MQCFSL of names
        return Name(a.parameter, length=a.kind.length, listed=True)
    words = a.kind.words
    if words is None and isinstance(a.kind, Number | Numbered):
        words = a.kind.special if isinstance(a.kind, Number) else a.kind.names
    return Name(a.parameter, dict(words) if words else None, a.kind.length)


QUEUE: dict[str, Name] = _family(("QLOCAL", "QMODEL", "QALIAS", "QREMOTE"))
QSTATUS: dict[str, Name] = {
    "QSTATUS": _s(CMQC.MQCA_Q_NAME, 48),
    "TYPE": _i(F.MQIACF_Q_STATUS_TYPE, {"QUEUE": F.MQIACF_Q_STATUS, "HANDLE": F.MQIACF_Q_HANDLE}),
    "QSGDISP": QUEUE["QSGDISP"],
    "CURDEPTH": QUEUE["CURDEPTH"],
    "IPPROCS": QUEUE["IPPROCS"],
    "OPPROCS": QUEUE["OPPROCS"],
    "UNCOM": _i(F.MQIACF_UNCOMMITTED_MSGS, {"NO": F.MQQSUM_NO, "YES": F.MQQSUM_YES}),
    "APPLTAG": _s(F.MQCACF_APPL_TAG, 28),
    "USERID": _s(F.MQCACF_USER_IDENTIFIER, 12),
    "CONN": Name(F.MQBACF_CONNECTION_ID, length=24, binary=True),
    "INPUT": _i(
        F.MQIACF_OPEN_INPUT_TYPE,
        {"NO": F.MQQSO_NO, "SHARED": F.MQQSO_SHARED, "EXCL": F.MQQSO_EXCLUSIVE},
    ),
    "OUTPUT": _i(F.MQIACF_OPEN_OUTPUT, _YES),
    "BROWSE": _i(F.MQIACF_OPEN_BROWSE, _YES),
    "INQUIRE": _i(F.MQIACF_OPEN_INQUIRE, _YES),
    "SET": _i(F.MQIACF_OPEN_SET, _YES),
}
CHANNEL: dict[str, Name] = _family(("CHANNEL",))
CHSTATUS: dict[str, Name] = {
    "CHSTATUS": CHANNEL["CHANNEL"],
    "CHLDISP": _i(
        F.MQIACH_CHANNEL_DISP,
        {
            "PRIVATE": F.MQCHLD_PRIVATE,
            "SHARED": F.MQCHLD_SHARED,
            "FIXSHARED": F.MQCHLD_FIXSHARED,
        },
    ),
    "XMITQ": CHANNEL["XMITQ"],
    "CONNAME": CHANNEL["CONNAME"],
    "CURRENT": _i(F.MQIACH_CHANNEL_INSTANCE_TYPE, {"CURRENT": CMQC.MQOT_CURRENT_CHANNEL}),
    "SAVED": _i(F.MQIACH_CHANNEL_INSTANCE_TYPE, {"SAVED": CMQC.MQOT_SAVED_CHANNEL}),
    "SHORT": _i(F.MQIACH_CHANNEL_INSTANCE_TYPE, {"SHORT": CMQC.MQOT_SHORT_CHANNEL}),
    "CHLTYPE": CHANNEL["CHLTYPE"],
    "STATUS": _i(
        F.MQIACH_CHANNEL_STATUS,
        {
            "INACTIVE": F.MQCHS_INACTIVE,
            "BINDING": F.MQCHS_BINDING,
            "STARTING": F.MQCHS_STARTING,
            "RUNNING": F.MQCHS_RUNNING,
            "STOPPING": F.MQCHS_STOPPING,
            "RETRYING": F.MQCHS_RETRYING,
            "STOPPED": F.MQCHS_STOPPED,
            "REQUESTING": F.MQCHS_REQUESTING,  # a requester asking its partner
        },
    ),
    "STOPREQ": _i(F.MQIACH_STOP_REQUESTED, {"NO": F.MQCHSR_STOP_NOT_REQUESTED}),
    "MSGS": _i(F.MQIACH_MSGS),
    "BATCHES": _i(F.MQIACH_BATCHES),
    "BATCHSZ": CHANNEL["BATCHSZ"],
    "QMNAME": _s(CMQC.MQCA_Q_MGR_NAME, 48),  # the member that runs a shared instance
}
QMGR: dict[str, Name] = _family(("QMGR",))
CFSTRUCT: dict[str, Name] = _family(("CFSTRUCT",))
PROCESS: dict[str, Name] = _family(("PROCESS",))
NAMELIST: dict[str, Name] = _family(("NAMELIST",))
STGCLASS: dict[str, Name] = _family(("STGCLASS",))
#: DISPLAY CFSTATUS's TYPE words as Inquire CF Structure Status's StatusType.
CF_STATUS_TYPES = {
    "SUMMARY": F.MQIACF_CF_STATUS_SUMMARY,
    "CONNECT": F.MQIACF_CF_STATUS_CONNECT,
    "BACKUP": F.MQIACF_CF_STATUS_BACKUP,
    "SMDS": F.MQIACF_CF_STATUS_SMDS,
}
CFSTATUS: dict[str, Name] = {
    "CFSTATUS": CFSTRUCT["CFSTRUCT"],
    "TYPE": _i(F.MQIACF_CF_STATUS_TYPE, CF_STATUS_TYPES),
    "CFTYPE": _i(F.MQIACF_CF_STRUC_TYPE, {"APPL": F.MQCFTYPE_APPL}),
    "STATUS": _i(F.MQIACF_CF_STRUC_STATUS, dict(cfstate.STATUS_VALUES)),
    "SIZEMAX": _i(F.MQIACF_CF_STRUC_SIZE_MAX),
    "SIZEUSED": _i(F.MQIACF_CF_STRUC_SIZE_USED),
    "ENTSMAX": _i(F.MQIACF_CF_STRUC_ENTRIES_MAX),
    "ENTSUSED": _i(F.MQIACF_CF_STRUC_ENTRIES_USED),
    # TYPE(CONNECT), TYPE(BACKUP) and TYPE(SMDS) (IBM's "Inquire CF Structure Status
    # (Response)"): dates as yyyy-mm-dd (MQ_DATE_LENGTH 12), times hh.mm.ss (8).
    "QMNAME": _s(CMQC.MQCA_Q_MGR_NAME, 48),
    "FAILDATE": _s(F.MQCACF_FAIL_DATE, 12),
    "FAILTIME": _s(F.MQCACF_FAIL_TIME, 8),
    "BKUPDATE": _s(F.MQCACF_BACKUP_DATE, 12),
    "BKUPTIME": _s(F.MQCACF_BACKUP_TIME, 8),
    "BKUPSIZE": _i(F.MQIACF_CF_STRUC_BACKUP_SIZE),
    "LOGQMGRS": Name(F.MQCACF_CF_STRUC_LOG_Q_MGRS, length=48, listed=True),
    "SMDS": _s(F.MQCACF_CF_SMDS, 48),
    "ACCESS": _i(
        F.MQIACF_CF_STRUC_ACCESS,
        {
            "ENABLED": F.MQCFACCESS_ENABLED,
            "SUSPENDED": F.MQCFACCESS_SUSPENDED,
            "DISABLED": F.MQCFACCESS_DISABLED,
        },
    ),
}
#: The table of each DISPLAY family.
FAMILIES = {
    "QUEUE": QUEUE,
    "QSTATUS": QSTATUS,
    "CHANNEL": CHANNEL,
    "CHSTATUS": CHSTATUS,
    "QMGR": QMGR,
    "CFSTRUCT": CFSTRUCT,
    "CFSTATUS": CFSTATUS,
    "PROCESS": PROCESS,
    "NAMELIST": NAMELIST,
    "STGCLASS": STGCLASS,
}
#: A bare keyword's table entry (NOSHARE is the SHARE entry's other value).
BARE = {
    **{word: a.keyword for a in table.ROWS if a.bare for word in a.kind.words or ()},
    "CURRENT": "CURRENT",
}


def keyword_of(family: str, parameter: int) -> str | None:
    """The MQSC keyword a parameter identifier stands for in ``family``."""
    for keyword, name in FAMILIES[family].items():
        if name.parameter == parameter:
            return keyword
    return None


__all__ = ["BARE", "FAMILIES", "Name", "keyword_of"]
