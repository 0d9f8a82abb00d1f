"""pymqi's MQI structures, as the facade hands them to programs.

Exports, with pymqi's names and its lower-case aliases: ``MD``/``md``, ``GMO``/``gmo``,
``PMO``/``pmo``, ``OD``/``od`` (subclasses of the rules layer's classes of the same name,
so ``qsg``'s async API takes them unchanged), ``CD``/``cd``, ``SCO``/``sco``, ``CSP`` and
``CNO`` (from ``qsg.pymqi._client``), ``SD``, ``SRO``, ``CMHO``, ``PD``, ``SMPO``,
``IMPO``, ``XQH``, ``TM``, ``TMC2``, ``DLH`` and ``MDE`` (from ``qsg.pymqi._headers``),
``RFH2`` (from ``qsg.pymqi.rfh2``), the PCF structures ``CFH``, ``CFIN``, ``CFIN64``,
``CFIL``, ``CFIL64``, ``CFST``, ``CFSL``, ``CFBS``, ``CFGR``, ``CFIF``, ``CFSF`` and
``CFBF`` (from ``qsg.pymqi._pcf``), ``to_string`` (``ibmmq``'s function of that name),
and ``MQOpts``, pymqi's base of them all, which a program subclasses for a structure of
its own (``MQOpts(memlist, **kw)``); it is also the rules layer's
``qsg.core.structs.MQOpts``. ``__all__`` lists what ``pymqi`` should export from here.

Every structure has pymqi's fields in IBM's order, constructor keywords, ``set(**kw)``,
``get()``, item access, ``pack()``, ``unpack(bytes)`` and ``get_length()``, with pymqi's
formats (see ``qsg.pymqi._opts`` for what is checked when). Defaults are IBM's
(``MQMD_DEFAULT`` and friends): where pymqi leaves an identifier or ``Format`` as ``b''``,
the facade holds IBM's value (24 NULs, ``MQFMT_NONE``), which packs to the same bytes
except ``Format`` (eight blanks, IBM's MQFMT_NONE, where pymqi packs eight NULs).

``GMO.GroupStatus``, ``SegmentStatus`` and ``Segmentation`` are integers, as in pymqi
(``ord('G')`` == ``CMQC.MQGS_MSG_IN_GROUP`` == 71, IBM's header's character constant),
and as the queue manager underneath keeps them; they also take a one-byte ``bytes``.
"""

from __future__ import annotations

from typing import Any

from qsg.core import structs as core
from qsg.pymqi import CMQC
from qsg.pymqi._client import CD, CNO, CSP, SCO, cd, sco
from qsg.pymqi._headers import DLH, MDE, TM, TMC2
from qsg.pymqi._opts import MQLONG, Layout, MQOpts, to_string
from qsg.pymqi._pcf import CFBF, CFBS, CFGR, CFH, CFIF, CFIL, CFIL64, CFIN, CFIN64, CFSF, CFSL, CFST
from qsg.pymqi.rfh2 import RFH2

__all__ = [
    "CD",
    "CFBF",
    "CFBS",
    "CFGR",
    "CFH",
    "CFIF",
    "CFIL",
    "CFIL64",
    "CFIN",
    "CFIN64",
    "CFSF",
    "CFSL",
    "CFST",
    "CMHO",
    "CNO",
    "CSP",
    "DLH",
    "GMO",
    "IMPO",
    "MD",
    "MDE",
    "OD",
    "PD",
    "PMO",
    "RFH2",
    "SCO",
    "SD",
    "SMPO",
    "SRO",
    "TM",
    "TMC2",
    "XQH",
    "MQOpts",
    "cd",
    "gmo",
    "md",
    "od",
    "pmo",
    "sco",
    "to_string",
]

L = MQLONG


def _vs(name: str) -> Layout:
    """An MQCHARV: pointer, offset, buffer size, length and CCSID of a variable string."""
    return (
        (f"{name}VSPtr", "P", 0),
        (f"{name}VSOffset", L, 0),
        (f"{name}VSBufSize", L, 0),
        (f"{name}VSLength", L, 0),
        (f"{name}VSCCSID", L, 0),
    )


class MD(MQOpts, core.MD):
    """MQMD, the message descriptor (IBM: "MQMD - Message descriptor"); version 2's fields
    are always there, as in pymqi, and ``Version`` says which the queue manager reads."""

    _layout = (
        ("StrucId", "4s", CMQC.MQMD_STRUC_ID),
        ("Version", L, CMQC.MQMD_VERSION_1),
        ("Report", L, CMQC.MQRO_NONE),
        ("MsgType", L, CMQC.MQMT_DATAGRAM),
        ("Expiry", L, CMQC.MQEI_UNLIMITED),
        ("Feedback", L, CMQC.MQFB_NONE),
        ("Encoding", L, CMQC.MQENC_NATIVE),
        ("CodedCharSetId", L, CMQC.MQCCSI_Q_MGR),
        ("Format", "8s", CMQC.MQFMT_NONE),
        ("Priority", L, CMQC.MQPRI_PRIORITY_AS_Q_DEF),
        ("Persistence", L, CMQC.MQPER_PERSISTENCE_AS_Q_DEF),
        ("MsgId", "24s", CMQC.MQMI_NONE),
        ("CorrelId", "24s", CMQC.MQCI_NONE),
        ("BackoutCount", L, 0),
        ("ReplyToQ", "48s", b""),
        ("ReplyToQMgr", "48s", b""),
        ("UserIdentifier", "12s", b""),
        ("AccountingToken", "32s", CMQC.MQACT_NONE),
        ("ApplIdentityData", "32s", b""),
        ("PutApplType", L, CMQC.MQAT_NO_CONTEXT),
        ("PutApplName", "28s", b""),
        ("PutDate", "8s", b""),
        ("PutTime", "8s", b""),
        ("ApplOriginData", "4s", b""),
        # Version 2
        ("GroupId", "24s", CMQC.MQGI_NONE),
        ("MsgSeqNumber", L, 1),
        ("Offset", L, 0),
        ("MsgFlags", L, CMQC.MQMF_NONE),
        ("OriginalLength", L, CMQC.MQOL_UNDEFINED),
    )


def _mqchar(name: str) -> property:
    """A one-character MQGMO field: an int, its character's code, as pymqi holds it and
    packs it (``struct``'s signed ``b``) and as the rules layer keeps it. A one-byte
    ``bytes`` given is taken as its character's code; any other value is kept as given,
    for pack() to refuse (struct.error) as pymqi's struct.pack would."""

    def read(self: Any) -> Any:
        return self.__dict__[name]

    def write(self: Any, value: Any) -> None:
        if isinstance(value, bytes) and len(value) == 1:
            value = value[0] - 256 if value[0] > 127 else value[0]
        self.__dict__[name] = value

    return property(read, write, doc=f"MQGMO.{name}, as pymqi holds it: an int")


class GMO(MQOpts, core.GMO):
    """MQGMO, the get-message options (IBM: "MQGMO - Get-message options")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQGMO_STRUC_ID),
        ("Version", L, CMQC.MQGMO_VERSION_1),
        ("Options", L, CMQC.MQGMO_NO_WAIT),
        ("WaitInterval", L, 0),
        ("Signal1", L, 0),
        ("Signal2", L, 0),
        ("ResolvedQName", "48s", b""),
        # Version 2
        ("MatchOptions", L, CMQC.MQMO_MATCH_MSG_ID | CMQC.MQMO_MATCH_CORREL_ID),
        ("GroupStatus", "b", CMQC.MQGS_NOT_IN_GROUP),
        ("SegmentStatus", "b", CMQC.MQSS_NOT_A_SEGMENT),
        ("Segmentation", "b", CMQC.MQSEG_INHIBITED),
        ("Reserved1", "c", b" "),
        # Version 3
        ("MsgToken", "16s", CMQC.MQMTOK_NONE),
        ("ReturnedLength", L, CMQC.MQRL_UNDEFINED),
        # Version 4
        ("Reserved2", L, 0),
        ("MsgHandle", "q", 0),
    )

    GroupStatus = _mqchar("GroupStatus")
    SegmentStatus = _mqchar("SegmentStatus")
    Segmentation = _mqchar("Segmentation")


class PMO(MQOpts, core.PMO):
    """MQPMO, the put-message options (IBM: "MQPMO - Put-message options")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQPMO_STRUC_ID),
        ("Version", L, CMQC.MQPMO_VERSION_1),
        ("Options", L, CMQC.MQPMO_NONE),
        ("Timeout", L, -1),
        ("Context", L, 0),
        ("KnownDestCount", L, 0),
        ("UnknownDestCount", L, 0),
        ("InvalidDestCount", L, 0),
        ("ResolvedQName", "48s", b""),
        ("ResolvedQMgrName", "48s", b""),
        # Version 2: distribution lists
        ("RecsPresent", L, 0),
        ("PutMsgRecFields", L, 0),
        ("PutMsgRecOffset", L, 0),
        ("ResponseRecOffset", L, 0),
        ("PutMsgRecPtr", "P", 0),
        ("ResponseRecPtr", "P", 0),
        # Version 3: message handles
        ("OriginalMsgHandle", "q", 0),
        ("NewMsgHandle", "q", 0),
        ("Action", L, 0),
        ("PubLevel", L, 0),
    )


class OD(MQOpts, core.OD):
    """MQOD, the object descriptor (IBM: "MQOD - Object descriptor")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQOD_STRUC_ID),
        ("Version", L, CMQC.MQOD_VERSION_1),
        ("ObjectType", L, CMQC.MQOT_Q),
        ("ObjectName", "48s", b""),
        ("ObjectQMgrName", "48s", b""),
        ("DynamicQName", "48s", b"AMQ.*"),
        ("AlternateUserId", "12s", b""),
        # Version 2: distribution lists
        ("RecsPresent", L, 0),
        ("KnownDestCount", L, 0),
        ("UnknownDestCount", L, 0),
        ("InvalidDestCount", L, 0),
        ("ObjectRecOffset", L, 0),
        ("ResponseRecOffset", L, 0),
        ("ObjectRecPtr", "P", 0),
        ("ResponseRecPtr", "P", 0),
        # Version 3
        ("AlternateSecurityId", "40s", CMQC.MQSID_NONE),
        ("ResolvedQName", "48s", b""),
        ("ResolvedQMgrName", "48s", b""),
        # Version 4: topics and selection strings
        *_vs("ObjectString"),
        *_vs("SelectionString"),
        *_vs("ResObjectString"),
        ("ResolvedType", L, CMQC.MQOT_NONE),
    )


class SD(MQOpts):
    """MQSD, the subscription descriptor (IBM: "MQSD - Subscription descriptor")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQSD_STRUC_ID),
        ("Version", L, CMQC.MQSD_VERSION_1),
        ("Options", L, CMQC.MQSO_NON_DURABLE),
        ("ObjectName", "48s", b""),
        ("AlternateUserId", "12s", b""),
        ("AlternateSecurityId", "40s", CMQC.MQSID_NONE),
        ("SubExpiry", L, CMQC.MQEI_UNLIMITED),
        *_vs("ObjectString"),
        *_vs("SubName"),
        *_vs("SubUserData"),
        ("SubCorrelId", "24s", CMQC.MQCI_NONE),
        ("PubPriority", L, CMQC.MQPRI_PRIORITY_AS_Q_DEF),
        ("PubAccountingToken", "32s", CMQC.MQACT_NONE),
        ("PubApplIdentityData", "32s", b""),
        *_vs("SelectionString"),
        ("SubLevel", L, 0),
        *_vs("ResObjectString"),
    )


class SRO(MQOpts):
    """MQSRO, the subscription-request options (IBM: "MQSRO - Subscription request options")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQSRO_STRUC_ID),
        ("Version", L, CMQC.MQSRO_VERSION_1),
        ("Options", L, CMQC.MQSRO_FAIL_IF_QUIESCING),
        ("NumPubs", L, 0),
    )


class CMHO(MQOpts):
    """MQCMHO, the create-message-handle options (IBM: "MQCMHO - Create message handle
    options")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQCMHO_STRUC_ID),
        ("Version", L, CMQC.MQCMHO_VERSION_1),
        ("Options", L, CMQC.MQCMHO_DEFAULT_VALIDATION),
    )


class PD(MQOpts):
    """MQPD, the property descriptor (IBM: "MQPD - Property descriptor")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQPD_STRUC_ID),
        ("Version", L, CMQC.MQPD_VERSION_1),
        ("Options", L, CMQC.MQPD_NONE),
        ("Support", L, CMQC.MQPD_SUPPORT_OPTIONAL),
        ("Context", L, CMQC.MQPD_NO_CONTEXT),
        ("CopyOptions", L, CMQC.MQCOPY_DEFAULT),
    )


class SMPO(MQOpts):
    """MQSMPO, the set-message-property options (IBM: "MQSMPO - Set message property
    options")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQSMPO_STRUC_ID),
        ("Version", L, CMQC.MQSMPO_VERSION_1),
        ("Options", L, CMQC.MQSMPO_SET_FIRST),
        ("ValueEncoding", L, CMQC.MQENC_NATIVE),
        ("ValueCCSID", L, CMQC.MQCCSI_APPL),
    )


class IMPO(MQOpts):
    """MQIMPO, the inquire-message-property options (IBM: "MQIMPO - Inquire message
    property options")."""

    _layout = (
        ("StrucId", "4s", CMQC.MQIMPO_STRUC_ID),
        ("Version", L, CMQC.MQIMPO_VERSION_1),
        ("Options", L, CMQC.MQIMPO_INQ_FIRST),
        ("RequestedEncoding", L, CMQC.MQENC_NATIVE),
        ("RequestedCCSID", L, CMQC.MQCCSI_APPL),
        ("ReturnedEncoding", L, CMQC.MQENC_NATIVE),
        ("ReturnedCCSID", L, 0),
        ("Reserved1", L, 0),
        *_vs("ReturnedName"),
        ("TypeString", "8s", b""),
    )


_XQH_OWN = CMQC.MQXQH_LENGTH_1 - CMQC.MQMD_LENGTH_1  # the MQXQH before its MQMD


class XQH(MQOpts):
    """MQXQH's own fields (IBM: "MQXQH - Transmission-queue header"); the MQMD that
    follows them is an ``MD`` of version 1, as in pymqi."""

    _layout = (
        ("StrucId", "4s", CMQC.MQXQH_STRUC_ID),
        ("Version", L, CMQC.MQXQH_VERSION_1),
        ("RemoteQName", "48s", b""),
        ("RemoteQMgrName", "48s", b""),
    )

    def get_header(self, buf: bytes) -> XQH:
        """``ibmmq``'s: this header's own fields read from the front of a whole message."""
        self.unpack(buf[:_XQH_OWN])
        return self

    def get_embedded_md(self, buf: bytes) -> MD:
        """``ibmmq``'s: the version-1 MQMD inside the MQXQH at the front of a message."""
        md = MD()  # a version 1: its version-2 fields stay zero (ibmmq removes them)
        md.unpack(buf[_XQH_OWN : CMQC.MQXQH_LENGTH_1])
        return md


# pymqi's lower-case aliases, for programs written against its first API.
md = MD
gmo = GMO
pmo = PMO
od = OD
