"""The attributes of namelists and storage classes, and the dates every object keeps.

Keywords, ranges and defaults are IBM's "DEFINE NAMELIST" and "DEFINE STGCLASS (define
storage class to page set mapping) on z/OS"; the parameter identifiers those of "Change,
Copy, and Create Namelist", "Inquire Namelist (Response)" and "Inquire Storage Class
(Response)" (cmqc.h). Rows are in the order DISPLAY shows them.
"""

from __future__ import annotations

from qsg import CMQC
from qsg.core.attributes.attribute import (
    NAMELIST,
    OBJECT_TYPES,
    QUEUES,
    STGCLASS,
    Attribute,
    row,
)
from qsg.core.attributes.kinds import Choice, Names, Number, Text

_NL = frozenset({NAMELIST})
_STC = frozenset({STGCLASS})
#: A namelist's or storage class's QSGDISP as its definition keeps it (SHARED is for
#: queues): "DEFINE NAMELIST", "DEFINE STGCLASS".
_QSGDISP = Choice({"QMGR": CMQC.MQQSGD_Q_MGR, "COPY": CMQC.MQQSGD_COPY, "GROUP": CMQC.MQQSGD_GROUP})
_NO_PAGE_SETS = (
    "messages live in the store (memory or Valkey), not in page sets: a storage class "
    "maps a queue to nothing"
)
_NO_IMS = "the IMS bridge is not simulated"

NAMELISTS: tuple[Attribute, ...] = (
    row(
        "NAMELIST",
        Text(48, "namelist"),
        _NL,
        "",
        field="name",
        role="name",
        parameter=CMQC.MQCA_NAMELIST_NAME,
        inquire=True,
        effect="the namelist's name",
    ),
    row(
        "QSGDISP",
        _QSGDISP,
        _NL,
        CMQC.MQQSGD_Q_MGR,
        field="qsg_disp",
        parameter=CMQC.MQIA_QSG_DISP,
        inquire=True,
        effect="QMGR: a member's own namelist; GROUP: kept in the shared repository, "
        "COPY: a member's copy of a GROUP namelist (qsg.core.copies)",
    ),
    row(
        "DESCR",
        Text(64),
        _NL,
        "",
        field="description",
        parameter=CMQC.MQCA_NAMELIST_DESC,
        inquire=True,
        effect="shown",
    ),
    row(
        "NAMES",
        Names(),
        _NL,
        (),
        field="names",
        parameter=CMQC.MQCA_NAMES,
        inquire=True,
        effect="the names: up to 256, each up to 48 characters, comma-separated in MQSC",
    ),
    row(
        "NLTYPE",
        Choice(
            {
                "NONE": CMQC.MQNT_NONE,
                "QUEUE": CMQC.MQNT_Q,
                "CLUSTER": CMQC.MQNT_CLUSTER,
                "AUTHINFO": CMQC.MQNT_AUTH_INFO,
            }
        ),
        _NL,
        CMQC.MQNT_NONE,
        field="namelist_type",
        parameter=CMQC.MQIA_NAMELIST_TYPE,
        inquire=True,
        why="what the names name: qsg reads no namelist (no clusters, no TLS)",
    ),
    row(
        "NAMCOUNT",
        Number(0, 256),
        _NL,
        0,
        field="name_count",
        role="fixed",
        parameter=CMQC.MQIA_NAME_COUNT,
        inquire=True,
        effect="how many names NAMES holds",
    ),
)

STORAGE_CLASSES: tuple[Attribute, ...] = (
    row(
        "STGCLASS",
        Text(8, "storage class"),
        _STC,
        "",
        field="name",
        role="name",
        parameter=CMQC.MQCA_STORAGE_CLASS,
        effect="the storage class's name, which a local or model queue's STGCLASS names",
    ),
    row(
        "QSGDISP",
        _QSGDISP,
        _STC,
        CMQC.MQQSGD_Q_MGR,
        field="qsg_disp",
        parameter=CMQC.MQIA_QSG_DISP,
        effect="QMGR: a member's own storage class; GROUP: kept in the shared repository, "
        "COPY: a member's copy of a GROUP storage class (qsg.core.copies)",
    ),
    row(
        "PSID",
        Number(0, 99),
        _STC,
        0,
        field="page_set_id",
        parameter=CMQC.MQIA_PAGESET_ID,
        why=_NO_PAGE_SETS,
    ),
    row(
        "DESCR",
        Text(64),
        _STC,
        "",
        field="description",
        parameter=CMQC.MQCA_STORAGE_CLASS_DESC,
        effect="shown",
    ),
    row("PASSTKTA", Text(8), _STC, "", parameter=CMQC.MQCA_PASS_TICKET_APPL, why=_NO_IMS),
    row("XCFGNAME", Text(8), _STC, "", parameter=CMQC.MQCA_XCF_GROUP_NAME, why=_NO_IMS),
    row("XCFMNAME", Text(16), _STC, "", parameter=CMQC.MQCA_XCF_MEMBER_NAME, why=_NO_IMS),
)

_EVERY = frozenset(OBJECT_TYPES)
_STAMP = "the run's simulated clock (its epoch plus the command's virtual time)"
#: When an object was created and last altered, as DISPLAY shows them (yyyy-mm-dd,
#: hh.mm.ss): DEFINE sets all four, ALTER the ALT pair. A queue shows CRDATE and CRTIME;
#: every object ALTDATE and ALTTIME.
STAMPS: tuple[Attribute, ...] = (
    row(
        "CRDATE",
        Text(12),
        QUEUES,
        "",
        role="fixed",
        parameter=CMQC.MQCA_CREATION_DATE,
        inquire=True,
        effect=f"the date DEFINE made the queue, by {_STAMP}",
    ),
    row(
        "CRTIME",
        Text(8),
        QUEUES,
        "",
        role="fixed",
        parameter=CMQC.MQCA_CREATION_TIME,
        inquire=True,
        effect=f"the time DEFINE made the queue, by {_STAMP}",
    ),
    row(
        "ALTDATE",
        Text(12),
        _EVERY,
        "",
        role="fixed",
        parameter=CMQC.MQCA_ALTERATION_DATE,
        inquire=True,
        effect=f"the date of the last DEFINE or ALTER, by {_STAMP}",
    ),
    row(
        "ALTTIME",
        Text(8),
        _EVERY,
        "",
        role="fixed",
        parameter=CMQC.MQCA_ALTERATION_TIME,
        inquire=True,
        effect=f"the time of the last DEFINE or ALTER, by {_STAMP}",
    ),
)

__all__ = ["NAMELISTS", "STAMPS", "STORAGE_CLASSES"]
