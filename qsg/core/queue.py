"""A local queue's definition: the attributes the queue engine consults."""

from __future__ import annotations

from dataclasses import dataclass

from qsg import CMQC
from qsg.core.store import Ordering


@dataclass(frozen=True, slots=True)
class QueueDefinition:
    """DEFINE QLOCAL's attributes, with MQSC keyword, IBM field and default.

    Frozen: ALTER makes a new definition (``dataclasses.replace``), so a call in flight
    sees one consistent set of attributes.
    """

    name: str
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
    definition_type: int = CMQC.MQQDT_PREDEFINED

    def __post_init__(self) -> None:
        if not 1 <= len(self.name) <= 48:
            raise ValueError(f"a queue name has 1 to 48 characters: {self.name!r}")
        if not 0 <= self.def_priority <= 9:
            raise ValueError(f"queue {self.name}: DEFPRTY must be 0..9, not {self.def_priority}")
        if self.def_persistence not in (CMQC.MQPER_NOT_PERSISTENT, CMQC.MQPER_PERSISTENT):
            raise ValueError(f"queue {self.name}: DEFPSIST must be NO or YES")
        if self.msg_delivery_sequence not in (CMQC.MQMDS_PRIORITY, CMQC.MQMDS_FIFO):
            raise ValueError(f"queue {self.name}: MSGDLVSQ must be PRIORITY or FIFO")
        if not 0 <= self.max_depth <= 999_999_999:
            raise ValueError(f"queue {self.name}: MAXDEPTH must be 0..999999999")

    @property
    def ordering(self) -> Ordering:
        if self.msg_delivery_sequence == CMQC.MQMDS_FIFO:
            return Ordering.FIFO
        return Ordering.PRIORITY

    @property
    def is_transmission_queue(self) -> bool:
        return self.usage == CMQC.MQUS_TRANSMISSION
