"""``qsg.pymqi``: pymqi's API over the simulated world, for programs run by ``qsg exec``.

A program written for pymqi (or for IBM's ``ibmmq``, the same API) runs unchanged:
under ``qsg exec`` its ``import pymqi`` and ``import ibmmq`` are this module. The
layout follows pymqi's: ``connect``, ``QueueManager`` and ``Queue`` (``connection``,
``queue``), the structures (``structs``, the PCF ones among them), ``PCFExecute`` and
its filters (``pcf``), the constant modules (``CMQC``, ``CMQCFC``, ``CMQXC``,
``CMQZC``), the errors (``MQMIError``, ``PYIFError``), and the classes of what the
simulator does not model, which fail with IBM's reason codes (``unsupported``).
``bridge`` carries each call into the world's trio run. docs/pymqi.md says what is
supported and what is not.
"""

from __future__ import annotations

from qsg.pymqi import CMQC, CMQCFC, CMQXC, CMQZC
from qsg.pymqi.connection import QueueManager, common_q_args, connect, make_q_desc
from qsg.pymqi.errors import Error, MQMIError, PYIFError
from qsg.pymqi.pcf import (
    ByteString,
    ByteStringFilter,
    Filter,
    FilterOperator,
    IntegerFilter,
    PCFExecute,
    StringFilter,
)
from qsg.pymqi.queue import Queue
from qsg.pymqi.structs import (
    CD,
    CFBF,
    CFBS,
    CFGR,
    CFH,
    CFIF,
    CFIL,
    CFIL64,
    CFIN,
    CFIN64,
    CFSF,
    CFSL,
    CFST,
    CMHO,
    CNO,
    CSP,
    DLH,
    GMO,
    IMPO,
    MD,
    MDE,
    OD,
    PD,
    PMO,
    RFH2,
    SCO,
    SD,
    SMPO,
    SRO,
    TM,
    TMC2,
    XQH,
    MQOpts,
    cd,
    gmo,
    md,
    od,
    pmo,
    sco,
    to_string,
)
from qsg.pymqi.unsupported import MessageHandle, Subscription, Topic

# pymqi's camel-case names for the same things.
makeQDesc = make_q_desc
commonQArgs = common_q_args

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
    "CMQC",
    "CMQCFC",
    "CMQXC",
    "CMQZC",
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
    "ByteString",
    "ByteStringFilter",
    "Error",
    "Filter",
    "FilterOperator",
    "IntegerFilter",
    "MQMIError",
    "MQOpts",
    "MessageHandle",
    "PCFExecute",
    "PYIFError",
    "Queue",
    "QueueManager",
    "StringFilter",
    "Subscription",
    "Topic",
    "cd",
    "commonQArgs",
    "common_q_args",
    "connect",
    "gmo",
    "makeQDesc",
    "make_q_desc",
    "md",
    "od",
    "pmo",
    "sco",
    "to_string",
]
