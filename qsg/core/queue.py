"""A local (or model) queue's definition: the attributes the queue engine consults."""

from __future__ import annotations

from dataclasses import dataclass

from qsg import CMQC, CMQCFC
from qsg.core.store import Ordering

#: The longest message MQ allows: MAXMSGL's top, for a queue and a queue manager (100 MB).
MAX_MSG_LENGTH = 104_857_600
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./_%")


def check_name(name: str, what: str, longest: int = 48) -> None:
    """An MQ object name: 1 to ``longest`` of A-Z a-z 0-9 . / _ %. The error quotes at
    most the first 60 characters of the name."""
    quoted = repr(name) if len(name) <= 60 else f"{name[:60]!r}..."
    if not 1 <= len(name) <= longest:
        raise ValueError(f"a {what} name has 1 to {longest} characters: {quoted}")
    bad = set(name) - _NAME_CHARS
    if bad:
        listed = sorted(bad)[:10]
        raise ValueError(f"{what} name {quoted} has characters MQ does not allow: {listed}")


@dataclass(frozen=True, slots=True)
class QueueDefinition:
    """DEFINE QLOCAL's (and QMODEL's) attributes, with MQSC keyword and default.

    A model queue is the same record with ``q_type`` MQQT_MODEL: MQOPEN of it makes a
    local queue with these attributes (IBM: "Dynamic queues", first paragraph). Frozen:
    ALTER makes a new definition (``dataclasses.replace``), so a call in flight sees one
    consistent set of attributes.
    """

    name: str
    q_type: int = CMQC.MQQT_LOCAL  # DEFINE QLOCAL or QMODEL
    description: str = ""  # DESCR
    usage: int = CMQC.MQUS_NORMAL  # USAGE(NORMAL|XMITQ)
    msg_delivery_sequence: int = CMQC.MQMDS_PRIORITY  # MSGDLVSQ(PRIORITY|FIFO)
    def_priority: int = 0  # DEFPRTY
    def_persistence: int = CMQC.MQPER_NOT_PERSISTENT  # DEFPSIST(NO|YES)
    max_depth: int = 5000  # MAXDEPTH
    max_msg_length: int = 4_194_304  # MAXMSGL
    inhibit_put: int = CMQC.MQQA_PUT_ALLOWED  # PUT(ENABLED|DISABLED)
    inhibit_get: int = CMQC.MQQA_GET_ALLOWED  # GET(ENABLED|DISABLED)
    index_type: int = CMQC.MQIT_NONE  # INDXTYPE
    qsg_disp: int = CMQC.MQQSGD_Q_MGR  # QSGDISP
    cf_struct: str = ""  # CFSTRUCT
    definition_type: int = CMQC.MQQDT_PREDEFINED  # a model's DEFTYPE
    shareability: int = CMQC.MQQA_SHAREABLE  # SHARE|NOSHARE
    def_input_open_option: int = CMQC.MQOO_INPUT_SHARED  # DEFSOPT(SHARED|EXCL)
    trigger_control: int = CMQC.MQTC_OFF  # TRIGGER|NOTRIGGER
    trigger_type: int = CMQC.MQTT_FIRST  # TRIGTYPE(NONE|FIRST|EVERY|DEPTH)
    trigger_depth: int = 1  # TRIGDPTH
    trigger_msg_priority: int = 0  # TRIGMPRI
    trigger_data: str = ""  # TRIGDATA
    process_name: str = ""  # PROCESS
    initiation_q_name: str = ""  # INITQ
    # What the queue manager keeps for applications, and acts on only as HARDENBO says
    # (IBM: "BackoutThreshold (MQLONG)", "Messages that are backed out").
    backout_threshold: int = 0  # BOTHRESH
    backout_requeue_name: str = ""  # BOQNAME
    harden_get_backout: int = CMQC.MQQA_BACKOUT_HARDENED  # HARDENBO|NOHARDENBO
    retention_interval: int = 999_999_999  # RETINTVL, hours: kept and inquired only
    # Performance events (IBM: "Queue depth events", "Queue service interval events"):
    # the limits are per cents of MAXDEPTH; the switches change as events fire
    # (``qsg.core.perfevents``). Queue full events are enabled unless DEFINE says not.
    q_depth_high_limit: int = 80  # QDEPTHHI, 0..100
    q_depth_low_limit: int = 20  # QDEPTHLO, 0..100
    q_depth_high_event: int = CMQCFC.MQEVR_DISABLED  # QDPHIEV(ENABLED|DISABLED)
    q_depth_low_event: int = CMQCFC.MQEVR_DISABLED  # QDPLOEV
    q_depth_max_event: int = CMQCFC.MQEVR_ENABLED  # QDPMAXEV
    q_service_interval: int = 999_999_999  # QSVCINT, milliseconds
    q_service_interval_event: int = CMQCFC.MQQSIE_NONE  # QSVCIEV(HIGH|OK|NONE)

    def __post_init__(self) -> None:
        check_name(self.name, "queue")
        if not 0 <= self.def_priority <= 9:
            raise ValueError(f"queue {self.name}: DEFPRTY must be 0..9, not {self.def_priority}")
        if self.def_persistence not in (CMQC.MQPER_NOT_PERSISTENT, CMQC.MQPER_PERSISTENT):
            raise ValueError(f"queue {self.name}: DEFPSIST must be NO or YES")
        if self.msg_delivery_sequence not in (CMQC.MQMDS_PRIORITY, CMQC.MQMDS_FIFO):
            raise ValueError(f"queue {self.name}: MSGDLVSQ must be PRIORITY or FIFO")
        if not 0 <= self.max_depth <= 999_999_999:
            raise ValueError(f"queue {self.name}: MAXDEPTH must be 0..999999999")
        if self.qsg_disp == CMQC.MQQSGD_SHARED and not self.cf_struct:
            raise ValueError(f"queue {self.name}: QSGDISP(SHARED) needs a CFSTRUCT")
        if self.trigger_type not in (
            CMQC.MQTT_NONE,
            CMQC.MQTT_FIRST,
            CMQC.MQTT_EVERY,
            CMQC.MQTT_DEPTH,
        ):
            raise ValueError(f"queue {self.name}: TRIGTYPE must be NONE, FIRST, EVERY or DEPTH")
        if not 1 <= self.trigger_depth <= 999_999_999:
            raise ValueError(f"queue {self.name}: TRIGDPTH must be 1..999999999")
        if not 0 <= self.trigger_msg_priority <= 9:
            raise ValueError(f"queue {self.name}: TRIGMPRI must be 0..9")
        if len(self.trigger_data) > 64:
            raise ValueError(f"queue {self.name}: TRIGDATA has at most 64 characters")
        if not 0 <= self.backout_threshold <= 999_999_999:
            raise ValueError(f"queue {self.name}: BOTHRESH must be 0..999999999")
        if self.backout_requeue_name:
            check_name(self.backout_requeue_name, "BOQNAME queue")
        if self.harden_get_backout not in (
            CMQC.MQQA_BACKOUT_HARDENED,
            CMQC.MQQA_BACKOUT_NOT_HARDENED,
        ):
            raise ValueError(
                f"queue {self.name}: HARDENBO or NOHARDENBO, not {self.harden_get_backout}"
            )
        if not 0 <= self.retention_interval <= 999_999_999:
            raise ValueError(f"queue {self.name}: RETINTVL must be 0..999999999")
        for keyword, limit in (
            ("QDEPTHHI", self.q_depth_high_limit),
            ("QDEPTHLO", self.q_depth_low_limit),
        ):
            if not 0 <= limit <= 100:
                raise ValueError(f"queue {self.name}: {keyword} must be 0..100, not {limit}")
        if not 0 <= self.q_service_interval <= 999_999_999:
            raise ValueError(f"queue {self.name}: QSVCINT must be 0..999999999")
        if self.q_type == CMQC.MQQT_MODEL:
            if self.definition_type == CMQC.MQQDT_PREDEFINED:
                raise ValueError(f"model queue {self.name}: DEFTYPE must be dynamic")
            if self.qsg_disp == CMQC.MQQSGD_SHARED:
                raise ValueError(f"model queue {self.name}: a model is never QSGDISP(SHARED)")
            if self.definition_type == CMQC.MQQDT_SHARED_DYNAMIC and not self.cf_struct:
                raise ValueError(f"model queue {self.name}: DEFTYPE(SHAREDYN) needs a CFSTRUCT")

    @property
    def ordering(self) -> Ordering:
        if self.msg_delivery_sequence == CMQC.MQMDS_FIFO:
            return Ordering.FIFO
        return Ordering.PRIORITY

    @property
    def is_dynamic(self) -> bool:
        return self.definition_type != CMQC.MQQDT_PREDEFINED

    @property
    def is_temporary_dynamic(self) -> bool:
        return self.definition_type == CMQC.MQQDT_TEMPORARY_DYNAMIC

    @property
    def is_shared(self) -> bool:
        return self.qsg_disp == CMQC.MQQSGD_SHARED

    @property
    def is_transmission_queue(self) -> bool:
        return self.usage == CMQC.MQUS_TRANSMISSION
