"""The second pass of loading: a dry run of the scenario on the rules layer alone.

The topology is built with in-process stores (no Redis, no trio, nothing started) and
its MQSC applied, so the queue managers themselves say what is wrong: a shared queue on
a queue manager outside any QSG, a CF structure that is not defined, a name defined
twice. Then each workload opens its queue as it will at run time and puts (or gets) one
message with the options it will use, each channel is matched with its partner and
transmission queue, and the fault schedule is walked through in time order. Every
problem comes back with the file, line and key it belongs to.
"""

from __future__ import annotations

import difflib
import math
import random
from typing import Any

from actors.faults import channel_owners
from actors.workload import descriptor, get_options, open_options
from qsg import CMQC
from qsg.core import chltypes, geometry
from qsg.core.errors import MQMIError
from qsg.core.facilities import DEFAULT_FACILITY
from qsg.core.offload import offloaded
from qsg.core.qmgr import QMgr
from qsg.core.queue import MAX_MSG_LENGTH, QueueDefinition
from qsg.core.sharing import QueueSharingGroup
from qsg.core.structs import GMO, MD, OD, PMO
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.reader import Command
from qsg.scenario.errors import ScenarioProblem
from qsg.scenario.locate import Path
from qsg.scenario.model import ACTIONS, CF_ACTIONS, SERVER_ACTIONS, UNDO, Scenario, Workload
from qsg.scenario.reader import Reader


def check(scenario: Scenario, reader: Reader, places: dict[str, Path]) -> list[ScenarioProblem]:
    """Every problem the dry run finds (none: the scenario can be played)."""
    topology = scenario.topology
    groups = {q.name: QueueSharingGroup(q.name) for q in scenario.qsgs}
    try:
        qmgrs = topology.build(groups)
    except MQSCError as error:
        for problem in error.problems:
            reader.problems.append(
                ScenarioProblem(problem.source, problem.line, "mqsc", problem.message)
            )
        return reader.problems
    commands = {name: spec.commands for name, spec in topology.qmgrs.items()}
    _channels(qmgrs, commands, reader, places, _group_addresses(scenario))
    for i, w in enumerate(scenario.workloads):
        _workload(qmgrs, w, reader, places[f"workload {i}"])
    _faults(scenario, qmgrs, reader, places)
    _fault_targets(scenario, groups, reader, places)
    return reader.problems


def _group_addresses(scenario: Scenario) -> dict[str, tuple[str, list[str]]]:
    """Each group address a CONNAME may name: every QSG's name, and the IPADDR of a
    group listener an ``[[at]]`` starts; each with its QSG and the members an
    ``[[at]]`` starts a group listener on (INDISP(GROUP))."""
    addresses: dict[str, tuple[str, list[str]]] = {q.name: (q.name, []) for q in scenario.qsgs}
    member_of = {m: q.name for q in scenario.qsgs for m in q.members}
    for step in scenario.commands:
        words = step.mqsc.upper().replace(" ", "")
        qsg = member_of.get(step.qmgr)
        listener = words.startswith(("STARTLISTENER", "STARTLSTR", "STALISTENER", "STALSTR"))
        if not listener or "INDISP(GROUP)" not in words or qsg is None:
            continue
        addresses[qsg][1].append(step.qmgr)
        if "IPADDR(" in words:
            address = words.split("IPADDR(", 1)[1].split(")", 1)[0].strip("'")
            addresses[address] = (qsg, addresses[qsg][1])
    return addresses


def _channels(
    qmgrs: dict[str, QMgr],
    commands: dict[str, list[Command]],
    reader: Reader,
    places: dict[str, Path],
    groups: dict[str, tuple[str, list[str]]],
) -> None:
    """Each sender, server or requester channel: a sending one's transmission queue
    exists; one that calls (a sender, a requester, a server with a CONNAME) has its
    partner (a queue manager of the scenario, or a group address some member listens
    for), which defines the channel as a type it may call (``chltypes.PARTNERS``)."""
    for name, qm in qmgrs.items():
        for channel in qm.local.channels.values():
            kind = channel.channel_type
            if not chltypes.sending(kind) and kind != CMQC.MQCHT_REQUESTER:
                continue
            place = places.get(f"channel {channel.name}")
            where = _ChannelPlace(reader, place, commands[name], channel.name)
            problem = where.problem

            if chltypes.sending(kind):
                found = qm.find(channel.xmit_q_name)
                xmitq = found[1] if found is not None else None
                if not (isinstance(xmitq, QueueDefinition) and xmitq.is_transmission_queue):
                    problem(
                        f"channel {channel.name} of {name}: XMITQ({channel.xmit_q_name}) is "
                        "not a local queue with USAGE(XMITQ)",
                        "xmitq",
                    )
            if not chltypes.callers(kind, channel.conn_name):
                continue  # a server without a CONNAME: its requester calls it
            # The types it may call: a sender's partner is named RCVR, as it always was.
            wanted = "RCVR" if kind == CMQC.MQCHT_SENDER else _partner_words(kind)
            partner = qmgrs.get(channel.conn_name)
            group = groups.get(channel.conn_name.strip().upper())
            if partner is None and group is not None:
                qsg, listening = group
                if not listening:
                    problem(
                        f"channel {channel.name} of {name}: CONNAME('{channel.conn_name}') "
                        f"names the group {qsg}, which nobody listens for (no [[at]] "
                        "starts a LISTENER INDISP(GROUP) on its members)",
                        "to",
                    )
                for member in listening:
                    receiver = qmgrs[member].local.channels.get(channel.name)
                    if receiver is None or not chltypes.suitable(kind, receiver.channel_type):
                        problem(
                            f"channel {channel.name} of {name}: {member}, listening for "
                            f"{qsg}, has no {wanted} channel {channel.name}",
                            "to",
                        )
                continue
            if partner is None:
                if "(" not in channel.conn_name:
                    problem(
                        f"channel {channel.name} of {name}: CONNAME('{channel.conn_name}') "
                        "names no queue manager of the scenario (a partner in another "
                        "process is host(port))",
                        "to",
                    )
                continue
            receiver = partner.local.channels.get(channel.name)
            if receiver is None or not chltypes.suitable(kind, receiver.channel_type):
                problem(
                    f"channel {channel.name} of {name}: {partner.name} has no {wanted} "
                    f"channel {channel.name}",
                    "to",
                )


def _partner_words(kind: int) -> str:
    """The channel types a caller of type ``kind`` may reach, as CHLTYPE words."""
    return " or ".join(sorted(chltypes.word(t) for t in chltypes.PARTNERS[kind]))


class _ChannelPlace:
    """Where a channel's problem is reported: its [[channel]] entry, else the MQSC
    command that defined it."""

    def __init__(
        self, reader: Reader, place: Path | None, commands: list[Command], channel: str
    ) -> None:
        self.reader, self.place, self.commands, self.channel = reader, place, commands, channel

    def problem(self, message: str, key: str = "") -> None:
        if self.place is not None:
            self.reader.problem((*self.place, key) if key else self.place, message)
            return
        line, source = 1, self.reader.source
        for command in self.commands:
            if command.object_type == "CHANNEL" and command.name == self.channel:
                line, source = command.line, command.source or source
        key = f"mqsc CHANNEL({self.channel})"
        self.reader.problems.append(ScenarioProblem(source, line, key, message))


def _workload(qmgrs: dict[str, QMgr], w: Workload, reader: Reader, place: Path) -> None:
    """Open the workload's queue as it will, and put or get one message with its options;
    a put must also fit where it ends up (its CF structure, the remote queue)."""
    qm = qmgrs[w.qmgr]
    rng = random.Random(0)
    conn = qm.connect(user=w.label)
    try:
        handle = conn.open(w.queue, open_options(w))
    except MQMIError as error:
        reader.problem((*place, "queue"), f"MQOPEN of {w.queue} on {w.qmgr}: {error}")
        return
    if w.kind == "requester":
        try:
            od = OD(ObjectName=w.reply_model.encode(), DynamicQName=w.reply_name.encode())
            conn.open(od, CMQC.MQOO_INPUT_EXCLUSIVE)
        except ValueError as error:  # a name the OD cannot hold (the loader checks it too)
            reader.problem((*place, "reply_name"), f"the reply queue cannot be made: {error}")
        except MQMIError as error:
            key = "reply_model" if error.reason != CMQC.MQRC_DYNAMIC_Q_NAME_ERROR else "reply_name"
            reader.problem((*place, key), f"the reply queue cannot be made: {error}")
    try:
        if w.kind in ("putter", "requester"):
            try:
                body, md = descriptor(w, rng)
            except ValueError as error:  # a field the MQMD cannot hold (checked at load too)
                reader.problem(place, f"the message descriptor cannot be made: {error}")
                conn.disconnect()
                return
            body = bytes(round(_largest(w)))
            if not _fits_structure(handle, body, reader, (*place, "size")):
                conn.disconnect()
                return
            # In a unit of work, backed out below: the trial message leaves the queue and
            # its CF structure as they were for the next workload's trial (a structure
            # has its limits in process too).
            options = CMQC.MQPMO_SYNCPOINT
            if w.kind == "putter" and w.group_size > 1:
                md.Version = CMQC.MQMD_VERSION_2
                md.MsgFlags = CMQC.MQMF_MSG_IN_GROUP
                options |= CMQC.MQPMO_LOGICAL_ORDER
            handle.put(body, md, PMO(Options=options), now=0.0)
            _fits_remote(qmgrs, handle, body, reader, (*place, "size"))
        else:
            md, gmo = MD(), GMO(Options=get_options(w) & ~CMQC.MQGMO_WAIT)
            if w.logical_order:
                md.Version, gmo.Version = CMQC.MQMD_VERSION_2, CMQC.MQGMO_VERSION_2
            handle.get(None, md, gmo, now=0.0)
    except MQMIError as error:
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            verb = "MQPUT to" if w.kind in ("putter", "requester") else "MQGET from"
            reader.problem((*place, "queue"), f"{verb} {w.queue} on {w.qmgr}: {error}")
    conn.backout()
    conn.disconnect()


def _fits_structure(handle: Any, body: bytes, reader: Reader, place: Path) -> bool:
    """A message on a shared queue takes elements of its CF structure (those of its data
    and control storage, ``qsg.core.geometry``); a structure with fewer than one message
    needs can take none: every put would fail with MQRC_STORAGE_MEDIUM_FULL. (The trial
    put would say so too, in the store's words; this says it of the workload's size, with
    the numbers.) False when it reported that."""
    queue = handle.repository.queues.get(handle.queue)
    name = getattr(queue, "cf_struct", "")
    structure = handle.repository.structures.get(name) if name else None
    # Offloaded into an empty structure (IBM's rules): only control information in it.
    if structure is None or offloaded(len(body), 0.0, structure.offload_rules):
        return True
    needed, room = geometry.elements(len(body)), geometry.max_elements(structure.size_kb)
    if needed > room:
        reader.problem(
            place,
            f"a message of {len(body):,} bytes needs {needed} elements of "
            f"CF structure {name} (with its {geometry.CONTROL_BYTES} bytes of control "
            f"storage) and SIZE {structure.size_kb} KB holds {room}: every put to {handle.queue} "
            "would fail with MQRC_STORAGE_MEDIUM_FULL (2192)",
        )
        return False
    return True


def _fits_remote(
    qmgrs: dict[str, QMgr], handle: Any, body: bytes, reader: Reader, place: Path
) -> None:
    """A message for a remote queue of the scenario must fit that queue: one over its
    MAXMSGL (or its queue manager's) would be dead-lettered on arrival, every time."""
    if handle.remote is None or handle.remote[1] not in qmgrs:
        return
    name, q_mgr = handle.remote
    conn = qmgrs[q_mgr].connect(user="qsg-check")
    try:
        conn.open(name, CMQC.MQOO_OUTPUT).put(
            body, MD(), PMO(Options=CMQC.MQPMO_NO_SYNCPOINT), now=0.0
        )
    except MQMIError as error:
        if error.reason in (CMQC.MQRC_MSG_TOO_BIG_FOR_Q, CMQC.MQRC_MSG_TOO_BIG_FOR_Q_MGR):
            reader.problem(place, f"every message would be dead-lettered at {q_mgr}: {error}")
    finally:
        conn.backout()
        conn.disconnect()


def _largest(w: Workload) -> float:
    """The largest message the workload may put: its distribution's top, or for an
    unbounded one five times its mean (drawn sizes are clipped to MQ's limit)."""
    top = w.size.bounds()[1]
    return min(top if math.isfinite(top) else 5 * w.size.mean, MAX_MSG_LENGTH)


def _faults(
    scenario: Scenario, qmgrs: dict[str, QMgr], reader: Reader, places: dict[str, Path]
) -> None:
    """Walk the schedule in time order: a queue manager is killed or paused only while
    up and restarted only while down; a channel fault names a sender channel; a fault of
    the coupling facility needs one (a QSG), and one member's outage names a member."""
    down: dict[str, float] = {}  # queue manager -> when it comes back (inf: never)
    timeline = []
    for i, fault in enumerate(scenario.faults):
        timeline.append((fault.at, 0, i, fault.action))
        if fault.duration is not None:
            undo = UNDO[fault.action]
            timeline.append((fault.at + fault.duration, 1, i, undo))
    members = {m for qsg in scenario.qsgs for m in qsg.members}
    for at, _, i, action in sorted(timeline):
        fault, place = scenario.faults[i], places[f"fault {i}"]
        if action in ("kill", "pause"):
            if fault.qmgr in down:
                reader.problem(place, f"{action} {fault.qmgr} at {at:g}: it is already down")
            if action == "kill":
                down[fault.qmgr] = at
        elif action == "restart":
            if fault.qmgr not in down:
                reader.problem(place, f"restart {fault.qmgr} at {at:g}: it is not down")
            down.pop(fault.qmgr, None)
        elif ACTIONS[action] == "channel":
            owners = channel_owners(qmgrs, fault.channel)
            if fault.qmgr and fault.qmgr not in owners:
                hint = _did_you_mean(fault.channel, _senders(qmgrs, fault.qmgr))
                reader.problem(
                    (*place, "channel"), f"{fault.qmgr} has no sender channel {fault.channel}{hint}"
                )
            elif not fault.qmgr and not owners:
                hint = _did_you_mean(fault.channel, _senders(qmgrs))
                receivers = [n for n, qm in qmgrs.items() if fault.channel in qm.local.channels]
                if receivers:  # only a receiver: the fault acts on the sending end
                    hint = (
                        f" ({', '.join(receivers)} has only its receiver; a channel fault "
                        "acts on the sending end)"
                    )
                message = f"no queue manager has a sender channel {fault.channel}{hint}"
                reader.problem((*place, "channel"), message)
            elif not fault.qmgr and len(owners) > 1:
                message = (
                    f"several queue managers ({', '.join(owners)}) have a sender "
                    f"channel {fault.channel}; name its 'qmgr'"
                )
                reader.problem((*place, "channel"), message)
        elif action == "stall_scan":
            if not scenario.qsgs:
                reader.problem(
                    (*place, "action"),
                    "stall_scan: the scenario has no QSG, so no expiry-scan lease",
                )
            elif fault.qmgr and fault.qmgr not in members:
                reader.problem(
                    (*place, "qmgr"), f"{fault.qmgr} is in no QSG: it holds no expiry-scan lease"
                )
        elif action in CF_ACTIONS:
            if not scenario.qsgs:
                reader.problem((*place, "action"), f"{action}: the scenario has no QSG, no CF")
            elif action in SERVER_ACTIONS and scenario.run.in_process:
                why = "the CF's server process fails and restarts, so the run needs it"
                reader.problem((*place, "action"), f"{action}: {why}: drop [run] in_process")
            elif fault.qmgr and fault.qmgr not in members:
                reader.problem(
                    (*place, "qmgr"), f"{fault.qmgr} is in no QSG: it has no CF link to lose"
                )


def _fault_targets(
    scenario: Scenario,
    groups: dict[str, QueueSharingGroup],
    reader: Reader,
    places: dict[str, Path],
) -> None:
    """A fault's CF structure and coupling facility must be one of the scenario's QSGs'
    (structures as their MQSC left them, CSQSYSAPPL included), or the run would only
    refuse the fault when it comes."""
    structures = sorted({s for g in groups.values() for s in g.shared.structures})
    facilities = sorted({f for q in scenario.qsgs for f in q.facilities or (DEFAULT_FACILITY,)})
    for i, fault in enumerate(scenario.faults):
        place = places[f"fault {i}"]
        if fault.structure and fault.structure not in structures:
            hint = _did_you_mean(fault.structure, structures)
            reader.problem(
                (*place, "structure"),
                f"no CF structure {fault.structure} in the scenario's QSGs{hint}",
            )
        if fault.facility and fault.facility not in facilities:
            reader.problem(
                (*place, "facility"),
                f"no coupling facility {fault.facility} in the scenario's QSGs "
                f"(they have {', '.join(facilities)})",
            )


def _senders(qmgrs: dict[str, QMgr], only: str | None = None) -> list[str]:
    """The sender channels of the scenario (of queue manager ``only``)."""
    return sorted(
        {
            c.name
            for n, qm in qmgrs.items()
            if only in (None, n)
            for c in qm.local.channels.values()
            if c.channel_type == CMQC.MQCHT_SENDER
        }
    )


def _did_you_mean(name: str, known: list[str]) -> str:
    near = difflib.get_close_matches(name, known, n=1)
    return f" (did you mean {near[0]}?)" if near else ""


__all__ = ["check"]
