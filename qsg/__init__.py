"""qsg: a simulator of IBM MQ queue-sharing groups.

The public names mirror pymqi: ``CMQC``, ``MD``, ``GMO``, ``PMO``, ``OD`` and
``MQMIError``; ``QSGError`` is the root of every exception qsg defines (docs/edges.md).
The MQ rules live in ``qsg.core`` (synchronous, I/O-free); the actors, the coupling
facility and the scenario runner are built around them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qsg import CMQC
from qsg.core.errors import MQMIError, QSGError
from qsg.core.layouts import DLH, XQH
from qsg.core.qmgr import QMgr
from qsg.core.structs import GMO, MD, OD, PMO, gmo, md, od, pmo

__all__ = [
    "CMQC",
    "DLH",
    "GMO",
    "MD",
    "OD",
    "PMO",
    "XQH",
    "MQMIError",
    "QMgr",
    "QSGError",
    "gmo",
    "md",
    "od",
    "pmo",
]


if TYPE_CHECKING:
    from actors.clock import sleep, sleep_until
    from actors.runtime import run, start
    from actors.topology import Topology
    from qsg.scenario import load_scenario


def __getattr__(name: str) -> Any:
    # The running world sits above the rules layer (and the coupling facility, which
    # uses the rules): loaded on first use, so importing the rules loads only the rules.
    if name in ("run", "start"):
        from actors import runtime

        return getattr(runtime, name)
    if name in ("sleep", "sleep_until"):
        # trio's, kept by the virtual clock's own heap when it runs the loop: a program's
        # simulated wait then costs no cancel scope (docs/speed.md).
        from actors import clock

        return getattr(clock, name)
    if name == "events":
        import importlib

        return importlib.import_module("qsg.events")
    if name == "load_scenario":
        from qsg.scenario import load_scenario

        return load_scenario
    if name == "Topology":
        from actors.topology import Topology

        return Topology
    raise AttributeError(f"module 'qsg' has no attribute {name!r}")


__all__ += ["Topology", "load_scenario", "run", "sleep", "sleep_until", "start"]
