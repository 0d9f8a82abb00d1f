"""The queue-manager objects other than local queues: aliases, remote queues, CF
structures and channels, and what MQINQ returns for each kind of queue.

Every record is frozen: ALTER makes a new one, so a call in flight sees one consistent
set of attributes. Field comments give the MQSC keyword.
"""

from __future__ import annotations

from dataclasses import dataclass

from qsg import CMQC
from qsg.core import attributes
from qsg.core.geometry import MAX_SIZE_KB
from qsg.core.offload import Rule, check_rules, rules
from qsg.core.queue import QueueDefinition, check_name

#: Attributes a record keeps and shows without effect: (keyword, value) in keyword order.
Kept = tuple[tuple[str, int | str], ...]


@dataclass(frozen=True, slots=True)
class AliasQueue:
    """DEFINE QALIAS: another name for a queue, with its own defaults and inhibits.

    A put through an alias takes DEFPRTY and DEFPSIST from the alias (the first
    definition on the resolution path), and is inhibited if either the alias or the
    base queue inhibits it.
    """

    name: str
    target: str  # TARGET (formerly TARGQ)
    description: str = ""  # DESCR
    def_priority: int = 0  # DEFPRTY
    def_persistence: int = CMQC.MQPER_NOT_PERSISTENT  # DEFPSIST
    inhibit_put: int = CMQC.MQQA_PUT_ALLOWED  # PUT
    inhibit_get: int = CMQC.MQQA_GET_ALLOWED  # GET
    qsg_disp: int = CMQC.MQQSGD_Q_MGR  # QSGDISP
    kept: Kept = ()  # attributes without effect (``qsg.core.attributes``)

    q_type = CMQC.MQQT_ALIAS

    def __post_init__(self) -> None:
        check_name(self.name, "queue")
        check_name(self.target, "TARGET queue")


@dataclass(frozen=True, slots=True)
class RemoteQueue:
    """DEFINE QREMOTE: a local definition of a remote queue, or (RNAME blank) a
    queue-manager alias."""

    name: str
    remote_name: str = ""  # RNAME
    remote_q_mgr_name: str = ""  # RQMNAME
    xmit_q_name: str = ""  # XMITQ
    description: str = ""  # DESCR
    def_priority: int = 0  # DEFPRTY
    def_persistence: int = CMQC.MQPER_NOT_PERSISTENT  # DEFPSIST
    inhibit_put: int = CMQC.MQQA_PUT_ALLOWED  # PUT
    qsg_disp: int = CMQC.MQQSGD_Q_MGR  # QSGDISP
    kept: Kept = ()  # attributes without effect (``qsg.core.attributes``)

    q_type = CMQC.MQQT_REMOTE

    def __post_init__(self) -> None:
        check_name(self.name, "queue")

    @property
    def is_q_mgr_alias(self) -> bool:
        return not self.remote_name


@dataclass(frozen=True, slots=True)
class CFStructure:
    """DEFINE CFSTRUCT: a coupling-facility application structure of the QSG.

    CFLEVEL 3 is needed for persistent messages (with RECOVER(YES)) and INDXTYPE(GROUPID),
    4 for messages over 63 KB, 5 for OFFLOAD and its rules OFFLDnTH/OFFLDnSZ (IBM:
    "DEFINE CFSTRUCT"; ``qsg.core.offload`` applies them).
    """

    name: str
    cf_level: int = 5  # CFLEVEL(1..5)
    recover: bool = False  # RECOVER(NO|YES)
    #: RECAUTO(YES|NO): a failed RECOVER(YES) structure is recovered by the queue
    #: managers without a RECOVER CFSTRUCT (IBM's default YES; qsg.core.cfstate).
    recauto: bool = True
    #: CFCONLOS(ASQMGR|TERMINATE|TOLERATE) as MQCFCONLOS_*: what a member does when it
    #: loses connectivity to the structure (``qsg.core.conlos``; ASQMGR: the queue
    #: manager's own CFCONLOS).
    cf_conlos: int = CMQC.MQCFCONLOS_ASQMGR
    offload: str = "SMDS"  # OFFLOAD(SMDS|DB2), CFLEVEL(5) only
    description: str = ""  # DESCR
    #: The structure's size in KB, as the CFRM policy's SIZE gives it (not an MQSC
    #: attribute: the coupling facility's), at most ``geometry.MAX_SIZE_KB``; what it
    #: holds is ``qsg.core.geometry``'s. The default is 1 GB.
    size_kb: int = 1024 * 1024
    offload_threshold1: int = 70  # OFFLD1TH, per cent
    offload_size1: int = 32  # OFFLD1SZ, KB
    offload_threshold2: int = 80  # OFFLD2TH
    offload_size2: int = 4  # OFFLD2SZ
    offload_threshold3: int = 90  # OFFLD3TH
    offload_size3: int = 0  # OFFLD3SZ
    kept: Kept = ()  # attributes without effect (``qsg.core.attributes``)
    #: The CFRM policy's PREFLIST (not MQSC): the coupling facilities the structure may
    #: be allocated in, best first (empty: the group's first facility, then the next;
    #: ``qsg.core.facilities``).
    preference: tuple[str, ...] = ()
    #: The CFRM policy's DUPLEX(ENABLED): system-managed duplexing, every write to the
    #: structure's instances in two facilities (``qsg.core.facilities``).
    duplex: bool = False

    def __post_init__(self) -> None:
        check_name(self.name, "CF structure", longest=12)
        check_rules(self.name, self.offload_thresholds, self.offload_sizes)
        if self.size_kb < 1:
            raise ValueError(f"CF structure {self.name}: SIZE must be at least 1 KB")
        if self.size_kb > MAX_SIZE_KB:
            raise ValueError(f"CF structure {self.name}: SIZE must be at most {MAX_SIZE_KB} KB")
        if not 1 <= self.cf_level <= 5:
            raise ValueError(f"CF structure {self.name}: CFLEVEL must be 1..5")
        if self.offload not in ("SMDS", "DB2"):
            raise ValueError(f"CF structure {self.name}: OFFLOAD must be SMDS or DB2")

    @property
    def offload_thresholds(self) -> tuple[int, int, int]:
        return self.offload_threshold1, self.offload_threshold2, self.offload_threshold3

    @property
    def offload_sizes(self) -> tuple[int, int, int]:
        return self.offload_size1, self.offload_size2, self.offload_size3

    @property
    def offload_rules(self) -> tuple[Rule, ...]:
        """The rules the stores apply (none below CFLEVEL(5)): ``offload.rules``."""
        return rules(self.cf_level, self.offload_thresholds, self.offload_sizes)


@dataclass(frozen=True, slots=True)
class ChannelDefinition:
    """DEFINE CHANNEL: a message channel between two queue managers."""

    name: str
    channel_type: int  # CHLTYPE(SDR|SVR|RCVR|RQSTR) as MQCHT_*
    conn_name: str = ""  # CONNAME
    xmit_q_name: str = ""  # XMITQ
    batch_size: int = 50  # BATCHSZ
    description: str = ""  # DESCR
    short_retry_count: int = 10  # SHORTRTY
    short_retry_interval: int = 60  # SHORTTMR, seconds
    long_retry_count: int = 999_999_999  # LONGRTY
    long_retry_interval: int = 1200  # LONGTMR, seconds
    heartbeat_interval: int = 300  # HBINT, seconds (0: no heartbeats, no receive timeout)
    qsg_disp: int = CMQC.MQQSGD_Q_MGR  # QSGDISP(QMGR|COPY|GROUP)
    kept: Kept = ()  # attributes without effect (``qsg.core.attributes``)

    def __post_init__(self) -> None:
        check_name(self.name, "channel", longest=20)
        if not 0 <= self.heartbeat_interval <= 999_999:
            raise ValueError(f"channel {self.name}: HBINT must be 0..999999")
        if self.channel_type in (CMQC.MQCHT_SENDER, CMQC.MQCHT_SERVER) and not self.xmit_q_name:
            raise ValueError(f"channel {self.name}: a sender or server channel needs an XMITQ")
        if not 1 <= self.batch_size <= 9999:
            raise ValueError(f"channel {self.name}: BATCHSZ must be 1..9999")

    def retry_interval(self, attempt: int) -> int | None:
        """Seconds before retry number ``attempt`` (1 first) of a channel that cannot
        reach its partner: SHORTRTY retries SHORTTMR apart, then LONGRTY retries LONGTMR
        apart, then None (the channel stops)."""
        if attempt <= self.short_retry_count:
            return self.short_retry_interval
        if attempt <= self.short_retry_count + self.long_retry_count:
            return self.long_retry_interval
        return None


@dataclass(frozen=True, slots=True)
class ProcessDefinition:
    """DEFINE PROCESS: the application a trigger monitor starts for a queue; its fields
    are copied into the MQTM of every trigger message for the queues naming it."""

    name: str
    appl_type: int = CMQC.MQAT_ZOS  # APPLTYPE (the default is the platform's)
    appl_id: str = ""  # APPLICID
    env_data: str = ""  # ENVRDATA
    user_data: str = ""  # USERDATA
    description: str = ""  # DESCR
    qsg_disp: int = CMQC.MQQSGD_Q_MGR  # QSGDISP(QMGR|COPY|GROUP)
    kept: Kept = ()  # attributes without effect (``qsg.core.attributes``)

    def __post_init__(self) -> None:
        check_name(self.name, "process")
        for value, keyword, longest in (
            (self.appl_id, "APPLICID", 256),
            (self.env_data, "ENVRDATA", 128),
            (self.user_data, "USERDATA", 128),
        ):
            if len(value) > longest:
                raise ValueError(f"process {self.name}: {keyword} has at most {longest} characters")


@dataclass(frozen=True, slots=True)
class NamelistDefinition:
    """DEFINE NAMELIST: a list of names (of queues, clusters or authentication
    information objects, as NLTYPE says) other definitions refer to by one name."""

    name: str
    names: tuple[str, ...] = ()  # NAMES
    namelist_type: int = CMQC.MQNT_NONE  # NLTYPE
    description: str = ""  # DESCR
    qsg_disp: int = CMQC.MQQSGD_Q_MGR  # QSGDISP(QMGR|COPY|GROUP)
    kept: Kept = ()  # attributes without effect (``qsg.core.attributes``)

    def __post_init__(self) -> None:
        check_name(self.name, "namelist")
        if len(self.names) > 256:
            raise ValueError(f"namelist {self.name}: NAMES holds at most 256 names")

    @property
    def name_count(self) -> int:
        """NAMCOUNT: how many names it holds."""
        return len(self.names)


@dataclass(frozen=True, slots=True)
class StorageClass:
    """DEFINE STGCLASS: on z/OS, which page set a queue naming it keeps its messages in.
    qsg keeps messages in its store, so a storage class is kept and shown, mapping
    nothing (docs/mqsc.md)."""

    name: str
    page_set_id: int = 0  # PSID(0..99)
    description: str = ""  # DESCR
    qsg_disp: int = CMQC.MQQSGD_Q_MGR  # QSGDISP(QMGR|COPY|GROUP)
    kept: Kept = ()  # PASSTKTA, XCFGNAME, XCFMNAME (``qsg.core.attributes``)

    def __post_init__(self) -> None:
        # "DEFINE STGCLASS": one to 8 characters, A-Z first, then A-Z or 0-9.
        name = self.name
        if not (1 <= len(name) <= 8 and name[0].isalpha() and name.isalnum() and name.isupper()):
            raise ValueError(
                f"a storage class name has 1 to 8 characters, A-Z then A-Z or 0-9: {name!r}"
            )
        if not 0 <= self.page_set_id <= 99:
            raise ValueError(f"storage class {name}: PSID must be 0..99")
        kept = dict(self.kept)
        if bool(str(kept.get("XCFGNAME", "")).strip()) != bool(
            str(kept.get("XCFMNAME", "")).strip()
        ):
            # "The resultant values of XCFGNAME and XCFMNAME must either both be blank
            # or both be nonblank."
            raise ValueError(
                f"storage class {name}: XCFGNAME and XCFMNAME are both blank or both set"
            )


QueueObject = QueueDefinition | AliasQueue | RemoteQueue


def queue_attributes(obj: QueueObject, q_mgr_name: str) -> dict[int, int | bytes]:
    """MQINQ's answers for the object itself (not what it resolves to), as MQ gives them:
    the rows of the attribute table MQINQ reads on its type (``qsg.core.attributes``).

    Depth and open counts are the caller's to add: they are not part of a definition.
    """
    values = attributes.inquired(obj, attributes.queue_type(obj.q_type), {})
    values[CMQC.MQCA_Q_MGR_NAME] = q_mgr_name.encode().ljust(48)
    return values
