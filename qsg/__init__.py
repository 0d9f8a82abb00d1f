"""qsg: a simulator of IBM MQ queue-sharing groups.

The public names mirror pymqi: ``CMQC``, ``MD``, ``GMO``, ``PMO``, ``OD`` and
``MQMIError``. The MQ rules live in ``qsg.core`` (synchronous, I/O-free); the actors,
the coupling facility and the scenario runner are built around them.
"""

from __future__ import annotations

from qsg import CMQC
from qsg.core.errors import MQMIError
from qsg.core.layouts import DLH, XQH
from qsg.core.qmgr import QMgr
from qsg.core.structs import GMO, MD, OD, PMO, gmo, md, od, pmo

__all__ = [
    "CMQC", "DLH", "GMO", "MD", "OD", "PMO", "XQH", "MQMIError", "QMgr",
    "gmo", "md", "od", "pmo",
]  # fmt: skip
