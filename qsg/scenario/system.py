"""The objects every queue-sharing group of a scenario has unless it says otherwise: what
IBM's sample CSQ4INSS (thlqual.SCSQPROC) defines for a QSG.

IBM ("Queue-sharing group queues", "Synchronization queue for queue sharing groups",
"Enabling GROUP units of recovery"): a QSG needs the shared queues
SYSTEM.QSG.CHANNEL.SYNCQ (shared channels' synchronization records) and
SYSTEM.QSG.TRANSMIT.QUEUE (intra-group queuing; defined even without IGQ), and for GROUP
units of recovery SYSTEM.QSG.UR.RESOLUTION.QUEUE, all on the recoverable application
structure CSQSYSAPPL. **UNVERIFIED**: the sample's exact attributes could not be
retrieved; these are our reading of the documents above (INDXTYPE(MSGID) for the sync
queue, INDXTYPE(CORRELID) and USAGE(XMITQ) for the transmission queue, persistent
messages for the resolution queue) and say so in docs/scenarios.md.

A scenario overrides any of them by defining the object itself (in the QSG's or a
member's ``mqsc``: the default one is then left out), a structure of the name in its
``[qsg.NAME.structures]``, or turns them all off with ``system_objects = false``.
"""

from __future__ import annotations

from collections.abc import Iterable

from qsg.core.objects import CFStructure
from qsg.mqsc.reader import Command, parse

#: CSQSYSAPPL: RECOVER(YES), CFLEVEL(5); its CFRM SIZE (not in the sample) 64 MB.
STRUCTURE = CFStructure("CSQSYSAPPL", recover=True, size_kb=65536)
#: The sample's shared queues, one command a line.
CSQ4INSS = """\
DEFINE QLOCAL(SYSTEM.QSG.CHANNEL.SYNCQ) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) INDXTYPE(MSGID) DEFPSIST(YES) DEFSOPT(SHARED) SHARE MAXDEPTH(999999999) DESCR('shared channel synchronization')
DEFINE QLOCAL(SYSTEM.QSG.TRANSMIT.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) USAGE(XMITQ) INDXTYPE(CORRELID) DEFSOPT(SHARED) SHARE MAXDEPTH(999999999) DESCR('intra-group queuing')
DEFINE QLOCAL(SYSTEM.QSG.UR.RESOLUTION.QUEUE) QSGDISP(SHARED) CFSTRUCT(CSQSYSAPPL) INDXTYPE(CORRELID) DEFPSIST(YES) DEFSOPT(SHARED) SHARE MAXDEPTH(999999999) DESCR('GROUP unit of recovery resolution')
"""  # noqa: E501 - one MQSC command a line, as the sample has them


def commands(defined: Iterable[Command]) -> list[Command]:
    """The sample's commands but for the objects ``defined`` (a scenario's own commands)
    names: a scenario's own definition overrides the default one."""
    names = {c.name for c in defined if c.verb == "DEFINE"}
    return [c for c in parse(CSQ4INSS, "<CSQ4INSS>") if c.name not in names]


__all__ = ["CSQ4INSS", "STRUCTURE", "commands"]
