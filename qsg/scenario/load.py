"""Reading a scenario file: TOML in, a checked ``Scenario`` out, or every problem at once.

Two passes. The first reads the document (``tomllib``) and checks every key's name,
type and range, noting each problem with its line (``Reader``). If that found nothing,
the second builds the topology on the rules layer alone (no Redis, no trio: a dry run)
and checks what only a built world can say: that the MQSC applies, that every name a
workload or fault uses resolves, that channels have partners (``qsg.scenario.check``).
Either way the caller gets ``ScenarioError`` with every problem, and nothing started.
"""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from pathlib import Path
from typing import Any

from actors import dist
from actors.costs import Costs
from qsg import CMQC
from qsg.core import cfstate, conlos
from qsg.core.channels import DEFAULT_SEQWRAP
from qsg.core.facilities import DEFAULT_FACILITY, check_preference
from qsg.core.objects import CFStructure
from qsg.core.queue import MAX_MSG_LENGTH, check_name
from qsg.mqsc import commands as mqsc_commands
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.reader import Command, parse
from qsg.scenario import files
from qsg.scenario.errors import ScenarioError, ScenarioProblem
from qsg.scenario.locate import KeyLines
from qsg.scenario.locate import Path as KeyPath
from qsg.scenario.model import (
    ACTIONS,
    MAX_DURATION,
    UNDO,
    AtCommand,
    ChannelSpec,
    Fault,
    QMgrSettings,
    QSGSpec,
    RunSettings,
    Scenario,
    Workload,
)
from qsg.scenario.reader import Reader, dotted, shown
from qsg.scenario.shape import read_rate

TOP = ("description", "run", "model", "qsg", "qmgr", "channel", "workload", "fault", "at")
RUN = ("duration", "seed", "clock", "sample_interval", "in_process", "cf_persistent", "warmup")
MODEL = (
    "cpu_per_call",
    "cpus",
    "cf_access",
    "channel_latency",
    "channel_bandwidth",
    "smds_write",
    "smds_read",
)
QSG = ("members", "structures", "mqsc", "mqsc_file", "facilities", "system_objects")
STRUCTURE = ("size_kb", "cflevel", "recover", "recauto", "cfconlos", "preference", "duplex")
QMGR = ("platform", "expryint", "mqsc", "mqsc_file", "listener", "connect_timeout")
CHANNEL = ("name", "from", "to", "xmitq", "batch_size", "define_xmitq")
FAULT = (
    "at",
    "action",
    "qmgr",
    "channel",
    "duration",
    "amount",
    "expected",
    "structure",
    "facility",
)
AT = ("at", "qmgr", "mqsc")
WORKLOAD = ("name", "type", "qmgr", "queue", "apps", "start", "stop", "syncpoint")
PUTS = ("rate", "burst", "arrival", "count", "size", "priority", "expiry", "persistence", "report")
GETS = ("service", "wait", "logical_order")
#: The keys each kind of workload takes, beyond ``WORKLOAD``'s.
KINDS: dict[str, tuple[str, ...]] = {
    "putter": (*PUTS, "reply_to", "reply_to_qmgr", "group_size"),
    "getter": GETS,
    "requester": (*PUTS, "reply_model", "reply_name", "timeout"),
    "server": GETS,
}
MQLONG_MAX = 2**31 - 1
#: Applications per workload: each is a task; more is a typo, not a workload.
MAX_APPS = 10_000
PLATFORMS = {"zos": CMQC.MQPL_ZOS, "unix": CMQC.MQPL_UNIX, "windows": CMQC.MQPL_WINDOWS_NT}
ARRIVALS = ("poisson", "constant", "uniform")
PERSISTENCE = {
    "persistent": CMQC.MQPER_PERSISTENT,
    "nonpersistent": CMQC.MQPER_NOT_PERSISTENT,
    "as_q_def": CMQC.MQPER_PERSISTENCE_AS_Q_DEF,
}
REPORTS = {
    "expiration": CMQC.MQRO_EXPIRATION,
    "expiration_with_data": CMQC.MQRO_EXPIRATION_WITH_DATA,
    "expiration_with_full_data": CMQC.MQRO_EXPIRATION_WITH_FULL_DATA,
    "pass_msg_id": CMQC.MQRO_PASS_MSG_ID,
    "pass_correl_id": CMQC.MQRO_PASS_CORREL_ID,
    "discard_msg": CMQC.MQRO_DISCARD_MSG,
}


def load_scenario(path: str | Path) -> Scenario:
    """The scenario in the TOML file ``path``; ScenarioError lists every problem."""
    path = Path(path)
    try:
        text = files.read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError([ScenarioProblem(str(path), 1, "", f"cannot read: {error}")]) from None
    return parse_scenario(text, str(path), base=path.parent)


def parse_scenario(text: str, source: str = "<scenario>", *, base: Path | None = None) -> Scenario:
    """A scenario from TOML ``text``; MQSC files it names are found from ``base``."""
    from qsg.scenario.check import check

    try:
        document = files.parse_toml(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", None) or _line_of(str(error))
        message = getattr(error, "msg", None) or str(error).split(" (at ")[0]
        raise ScenarioError(
            [ScenarioProblem(source, line, "", f"not valid TOML: {message}")]
        ) from None
    lines = KeyLines(text)
    loader = _Loader(Reader(source, lines), text, base or Path("."))
    scenario = loader.scenario(document)
    problems = loader.reader.problems
    if not problems:
        problems = check(scenario, Reader(source, lines), loader.places)
    if problems:
        raise ScenarioError(problems)
    return scenario


def _line_of(message: str) -> int:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else 1


class _Loader:
    """The first pass: a ``Scenario`` from the document, problems noted in ``reader``."""

    def __init__(self, reader: Reader, text: str, base: Path) -> None:
        self.reader = reader
        self.text = text.splitlines()
        self.base = base
        self.qmgr_names: list[str] = []
        #: Where the second pass reports a problem of a workload, fault or channel.
        self.places: dict[str, KeyPath] = {}

    def scenario(self, doc: dict[str, Any]) -> Scenario:
        r = self.reader
        r.table((), doc, TOP)
        description = r.take((), doc, "description", "str", "")
        run_table = r.take((), doc, "run", "table", None, required=True)
        # Without a good [run] the duration is unknown: nothing is checked against it.
        run = RunSettings(math.inf) if run_table is None else self.run(run_table)
        costs = self.model(r.take((), doc, "model", "table", {}))
        qsgs = self.qsgs(r.take((), doc, "qsg", "table", {}))
        qmgrs = self.qmgrs(r.take((), doc, "qmgr", "table", {}), qsgs)
        channels = self.channels(r.take((), doc, "channel", "list", []), qmgrs)
        workloads = self.workloads(r.take((), doc, "workload", "list", []), run)
        faults = self.faults(r.take((), doc, "fault", "list", []), run)
        commands = self.at_commands(r.take((), doc, "at", "list", []), run)
        return Scenario(
            path=None if r.source.startswith("<") else Path(r.source),
            description=description,
            run=run,
            costs=costs,
            qsgs=tuple(qsgs),
            qmgrs=tuple(qmgrs.values()),
            channels=tuple(channels),
            workloads=tuple(workloads),
            faults=tuple(faults),
            commands=tuple(commands),
            text="\n".join(self.text),
        )

    # ---- [run] and [model] ------------------------------------------------------------
    def run(self, table: dict[str, Any]) -> RunSettings:
        r, p = self.reader, ("run",)
        r.table(p, table, RUN)
        duration = r.take(p, table, "duration", "number", math.inf, required=True)
        if "duration" in table:
            if not r.at_least((*p, "duration"), duration, 0, above=True):
                duration = math.inf
            elif not duration <= MAX_DURATION:  # inf too: a run must end
                r.problem((*p, "duration"), f"must be at most {MAX_DURATION:g} s, found {duration}")
                duration = math.inf
        seed = self.count(p, table, "seed", 0, low=0, high=2**63 - 1)
        clock = r.take(p, table, "clock", "str", "virtual")
        r.one_of((*p, "clock"), clock, ("virtual", "wall"))
        sample = r.take(p, table, "sample_interval", "number", 1.0)
        if not r.at_least((*p, "sample_interval"), sample, 0, above=True):
            sample = 1.0
        in_process = r.take(p, table, "in_process", "bool", False)
        cf_persistent = r.take(p, table, "cf_persistent", "bool", False)
        warmup = r.take(p, table, "warmup", "number", 0.0)
        if not r.at_least((*p, "warmup"), warmup, 0):
            warmup = 0.0
        elif warmup >= duration:
            r.problem(
                (*p, "warmup"),
                f"the warm-up ({warmup:g} s) must end before the run does (duration {duration:g})",
            )
            warmup = 0.0
        return RunSettings(
            float(duration), seed, clock, float(sample), in_process, cf_persistent, float(warmup)
        )

    def model(self, table: dict[str, Any]) -> Costs:
        r, p = self.reader, ("model",)
        r.table(p, table, MODEL)
        values: dict[str, Any] = {}
        for key in ("cpu_per_call", "cf_access", "channel_latency", "smds_write", "smds_read"):
            value = r.take(p, table, key, "number", 0.0)
            values[key] = float(value) if r.at_least((*p, key), value, 0) else 0.0
        values["cpus"] = self.count(p, table, "cpus", 1, low=1, high=1024)
        bandwidth = r.take(p, table, "channel_bandwidth", "number", math.inf, finite=False)
        ok = r.at_least((*p, "channel_bandwidth"), bandwidth, 0, above=True)
        values["channel_bandwidth"] = float(bandwidth) if ok else math.inf
        return Costs(**values)

    # ---- [qsg.NAME] and [qmgr.NAME] ---------------------------------------------------
    def qsgs(self, tables: dict[str, Any]) -> list[QSGSpec]:
        r = self.reader
        out: list[QSGSpec] = []
        seen: dict[str, str] = {}
        for name, table in tables.items():
            p = ("qsg", name)
            # A bad name is one problem: its members are still read, so that nothing
            # that names them is reported as naming no queue manager.
            self.name(p, name, "queue-sharing group", 4)
            if not self.is_table(p, table):
                continue
            r.table(p, table, QSG)
            members = r.take(p, table, "members", "str-list", [], required=True)
            if "members" in table and not members and isinstance(table["members"], list):
                r.problem((*p, "members"), "a queue-sharing group needs at least one member")
            good = []
            for member in members:
                if not self.name((*p, "members"), member, "queue manager", 48):
                    continue
                if member in seen:
                    r.problem((*p, "members"), f"{member} is already a member of {seen[member]}")
                    continue
                seen[member] = name
                good.append(member)
            facilities = tuple(r.take(p, table, "facilities", "str-list", []))
            for facility in facilities:
                self.name((*p, "facilities"), facility, "coupling facility", 8)
            if len(set(facilities)) != len(facilities):
                r.problem((*p, "facilities"), "a coupling facility is named twice")
            structures = []
            for s_name, spec in r.take(p, table, "structures", "table", {}).items():
                sp = (*p, "structures", s_name)
                if self.is_table(sp, spec):
                    structure = self.structure(sp, s_name, spec)
                    if structure is not None:
                        try:
                            check_preference(structure, facilities or (DEFAULT_FACILITY,))
                        except ValueError as error:
                            r.problem(sp, str(error))
                            continue
                        structures.append(structure)
            commands = self.mqsc(p, table)
            system = r.take(p, table, "system_objects", "bool", True)
            out.append(
                QSGSpec(name, tuple(good), tuple(structures), tuple(commands), facilities, system)
            )
        self.qmgr_names += [m for q in out for m in q.members]
        return out

    def structure(self, p: KeyPath, name: str, table: dict[str, Any]) -> CFStructure | None:
        r = self.reader
        r.table(p, table, STRUCTURE)
        size = r.take(p, table, "size_kb", "int", 1024 * 1024)
        level = r.take(p, table, "cflevel", "int", 5)
        recover = r.take(p, table, "recover", "bool", False)
        recauto = r.take(p, table, "recauto", "bool", True)
        words = {w: v for v, w in conlos.WORDS.items()}
        cfconlos = r.take(p, table, "cfconlos", "str", "ASQMGR")
        if not r.one_of((*p, "cfconlos"), cfconlos, words):
            cfconlos = "ASQMGR"
        preference = tuple(r.take(p, table, "preference", "str-list", []))
        duplex = r.take(p, table, "duplex", "bool", False)
        try:
            structure = CFStructure(
                name,
                cf_level=level,
                recover=recover,
                recauto=recauto,
                size_kb=size,
                cf_conlos=words[cfconlos],
                preference=preference,
                duplex=duplex,
            )
        except ValueError as error:
            r.problem(p, str(error))
            return None
        # The keys mean what DEFINE CFSTRUCT's keywords mean, CFLEVEL's rules too.
        conflict = cfstate.cflevel_conflict(structure)
        if conflict is not None:
            r.problem(p, f"CF structure {name}: {conflict}")
            return None
        return structure

    def qmgrs(self, tables: dict[str, Any], qsgs: list[QSGSpec]) -> dict[str, QMgrSettings]:
        r = self.reader
        member_of = {m: q.name for q in qsgs for m in q.members}
        out = {m: QMgrSettings(m, q) for m, q in member_of.items()}
        for name, table in tables.items():
            p = ("qmgr", name)
            self.name(p, name, "queue manager", 48)  # one problem; the table is still read
            if not self.is_table(p, table):
                continue
            r.table(p, table, QMGR)
            platform = r.take(p, table, "platform", "str", "zos")
            if not r.one_of((*p, "platform"), platform, PLATFORMS):
                platform = "zos"
            commands = self.mqsc(p, table)
            if "expryint" in table:
                value = table["expryint"]
                if value == "OFF" or (
                    isinstance(value, int)
                    and not isinstance(value, bool)
                    and 1 <= value <= 99_999_999
                ):
                    commands[:0] = self.commands(
                        f"ALTER QMGR EXPRYINT({value})", (*p, "expryint"), same_line=True
                    )
                else:
                    expected = 'expected seconds 1..99999999 or "OFF"'
                    r.problem((*p, "expryint"), f"{expected}, found {shown(value)}")
            listener = r.take(p, table, "listener", "int", None)
            if listener is not None and not 1 <= listener <= 65535:
                r.problem((*p, "listener"), f"expected a TCP port 1..65535, found {listener}")
                listener = None
            connect_timeout = r.take(p, table, "connect_timeout", "number", None)
            if connect_timeout is not None and not r.at_least(
                (*p, "connect_timeout"), connect_timeout, 0, above=True
            ):
                connect_timeout = None
            out[name] = QMgrSettings(
                name,
                member_of.get(name),
                PLATFORMS[platform],
                tuple(commands),
                listener,
                connect_timeout,
            )
            if name not in self.qmgr_names:
                self.qmgr_names.append(name)
        if not out:
            r.problem((), "no queue manager: add [qsg.NAME] members or a [qmgr.NAME] table")
        return out

    def mqsc(self, p: KeyPath, table: dict[str, Any]) -> list[Command]:
        """The commands of the table's ``mqsc`` text, then of its ``mqsc_file``."""
        r, commands = self.reader, []
        text = r.take(p, table, "mqsc", "str", "")
        if text:
            commands += self.commands(text, (*p, "mqsc"))
        file = r.take(p, table, "mqsc_file", "str", "")
        if file:
            path = self.base / file
            try:
                body = files.read_text(path)
            except (OSError, UnicodeDecodeError) as error:
                r.problem((*p, "mqsc_file"), f"cannot read MQSC file {file!r}: {error}")
            else:
                commands += self.commands(body, (*p, "mqsc_file"), source=str(path))
        return commands

    def commands(
        self, text: str, p: KeyPath, *, source: str | None = None, same_line: bool = False
    ) -> list[Command]:
        """MQSC ``text`` parsed; inline (no ``source``), its lines are the file's."""
        r = self.reader
        if source is None:
            line = r.lines.line(p)
            text = "\n" * (line - 1 if same_line or not self._starts_below(line) else line) + text
        try:
            return parse(text, source or r.source)
        except MQSCError as error:
            for problem in error.problems:
                r.problems.append(
                    ScenarioProblem(
                        problem.source,
                        problem.line,
                        dotted(p),
                        f"MQSC (column {problem.column}): {problem.message}",
                    )
                )
            return []

    def _starts_below(self, line: int) -> bool:
        """Whether a string value opened at ``line`` starts on the next line: TOML drops
        the newline right after an opening triple quote."""
        source = self.text[line - 1] if line <= len(self.text) else ""
        rest = source.split("=", 1)[-1].strip()
        return rest in ('"""', "'''")

    # ---- [[channel]] ------------------------------------------------------------------
    def channels(self, entries: list[Any], qmgrs: dict[str, QMgrSettings]) -> list[ChannelSpec]:
        r, out = self.reader, list[ChannelSpec]()
        for i, table in enumerate(entries):
            p: KeyPath = ("channel", i)
            if not self.is_table(p, table):
                continue
            r.table(p, table, CHANNEL)
            name = r.take(p, table, "name", "str", "", required=True)
            source = r.take(p, table, "from", "str", "", required=True)
            target = r.take(p, table, "to", "str", "", required=True)
            xmitq = r.take(p, table, "xmitq", "str", target)
            batch = r.take(p, table, "batch_size", "int", 50)
            define = r.take(p, table, "define_xmitq", "bool", True)
            ok = bool(name and source and target and xmitq)
            ok &= not name or self.name((*p, "name"), name, "channel", 20)
            if "xmitq" in table and isinstance(table["xmitq"], str):
                ok &= self.name((*p, "xmitq"), xmitq, "queue", 48)
            if not 1 <= batch <= 9999:
                r.problem((*p, "batch_size"), f"BATCHSZ must be 1..9999, found {batch}")
                ok = False
            for key, qm in (("from", source), ("to", target)):
                if qm and qm not in qmgrs:
                    ok = False
                    r.problem(
                        (*p, key),
                        f"no queue manager {qm} in the scenario" + _known(self.qmgr_names),
                    )
            if not ok:
                continue
            self.places[f"channel {name}"] = p
            spec = ChannelSpec(name, source, target, xmitq, batch)
            out.append(spec)
            here = (*p, "name")
            sender = []
            if define and not _defines(qmgrs[source].commands, "QLOCAL", xmitq):
                xmitq_command = f"DEFINE QLOCAL({xmitq}) USAGE(XMITQ)"
                sender += self.commands(xmitq_command, here, same_line=True)
            sender += self.commands(
                f"DEFINE CHANNEL({name}) CHLTYPE(SDR) CONNAME('{target}') XMITQ({xmitq}) "
                f"BATCHSZ({batch})",
                here,
                same_line=True,
            )
            receiver = self.commands(f"DEFINE CHANNEL({name}) CHLTYPE(RCVR)", here, same_line=True)
            qmgrs[source] = _with(qmgrs[source], sender)
            qmgrs[target] = _with(qmgrs[target], receiver)
        return out

    # ---- [[workload]] -----------------------------------------------------------------
    def workloads(self, entries: list[Any], run: RunSettings) -> list[Workload]:
        r, out = self.reader, list[Workload]()
        for i, table in enumerate(entries):
            p: KeyPath = ("workload", i)
            if not self.is_table(p, table):
                continue
            kind = r.take(p, table, "type", "str", None, required=True)
            if kind is None or not r.one_of((*p, "type"), kind, KINDS):
                continue
            own = (*WORKLOAD, *KINDS[kind])
            for key in table:
                kinds = [k for k, keys in KINDS.items() if key in keys and key not in own]
                if kinds:  # not a typo: a key of another kind of application
                    r.problem(
                        (*p, key),
                        f"{key!r} is a key of a {' and a '.join(kinds)}; this workload is a {kind}",
                    )
            r.table(p, {k: v for k, v in table.items() if k in own or not _kinds_key(k)}, own)
            label = r.take(p, table, "name", "str", f"{kind}-{i}")
            values: dict[str, Any] = {"label": label, "kind": kind}
            values["qmgr"] = r.take(p, table, "qmgr", "str", "", required=True)
            if values["qmgr"] and values["qmgr"] not in self.qmgr_names:
                r.problem(
                    (*p, "qmgr"),
                    f"no queue manager {values['qmgr']} in the scenario" + _known(self.qmgr_names),
                )
            values["queue"] = r.take(p, table, "queue", "str", "", required=True)
            values["apps"] = self.count(p, table, "apps", 1, low=1, high=MAX_APPS)
            values["syncpoint"] = self.count(p, table, "syncpoint", 0, low=0)
            start = r.take(p, table, "start", "number", 0.0)
            stop = r.take(p, table, "stop", "number", None)  # None: at the run's end
            last = run.duration if stop is None else stop
            if r.at_least((*p, "start"), start, 0) and start >= last:
                r.problem(
                    (*p, "stop" if stop is not None else "start"),
                    f"the workload would stop ({last:g}) before it starts ({start:g})",
                )
            values["start"] = float(start)
            values["stop"] = None if stop is None else float(stop)
            if kind in ("putter", "requester"):
                self.puts(p, table, values)
            else:
                values["service"] = self.distribution(p, table, "service", 0.0)
                values["wait"] = self.count(p, table, "wait", 5000, low=1)
                values["logical_order"] = r.take(p, table, "logical_order", "bool", False)
            if kind == "putter":
                values["reply_to"] = self.optional_name(p, table, "reply_to", "queue")
                values["reply_to_qmgr"] = self.optional_name(
                    p, table, "reply_to_qmgr", "queue manager"
                )
                # MsgSeqNumber's range at MQPUT: 1 to 999,999,999 (MQRC_MSG_SEQ_NUMBER_ERROR).
                values["group_size"] = self.count(
                    p, table, "group_size", 0, low=0, high=999_999_999
                )
            if kind == "requester":
                model = r.take(p, table, "reply_model", "str", "SYSTEM.DEFAULT.MODEL.QUEUE")
                if not self.name((*p, "reply_model"), model, "model queue", 48):
                    model = "SYSTEM.DEFAULT.MODEL.QUEUE"
                values["reply_model"] = model
                values["reply_name"] = self.dynamic_name(p, table)
                values["timeout"] = self.count(p, table, "timeout", 10_000, low=1)
            self.places[f"workload {len(out)}"] = p
            out.append(Workload(**values))
        return out

    def puts(self, p: KeyPath, table: dict[str, Any], values: dict[str, Any]) -> None:
        r = self.reader
        values["rate"], values["profile"] = read_rate(r, p, table, self.base)
        arrival = r.take(p, table, "arrival", "str", "poisson")
        values["arrival"] = arrival if r.one_of((*p, "arrival"), arrival, ARRIVALS) else "poisson"
        if "count" in table:
            values["count"] = self.count(p, table, "count", 1, low=1)
        values["size"] = self.distribution(p, table, "size", 1024, low=0, high=MAX_MSG_LENGTH)
        if "priority" in table:
            if table["priority"] == "as_q_def":
                values["priority"] = None
            else:
                values["priority"] = self.distribution(p, table, "priority", 0, low=0, high=9)
        if "expiry" in table:
            expiry = table["expiry"]
            if expiry == "unlimited":
                values["expiry"] = CMQC.MQEI_UNLIMITED
            elif type(expiry) is int and 0 < expiry <= MQLONG_MAX:
                values["expiry"] = expiry
            else:
                r.problem(
                    (*p, "expiry"),
                    "expected tenths of a second (1 to 2,147,483,647) or "
                    f'"unlimited", found {shown(expiry)}',
                )
        persistence = r.take(p, table, "persistence", "str", "as_q_def")
        if r.one_of((*p, "persistence"), persistence, PERSISTENCE):
            values["persistence"] = PERSISTENCE[persistence]
        report = 0
        for name in r.take(p, table, "report", "str-list", []):
            if r.one_of((*p, "report"), name, REPORTS):
                report |= REPORTS[name]
        values["report"] = report

    def distribution(
        self,
        p: KeyPath,
        table: dict[str, Any],
        key: str,
        default: float,
        *,
        low: float | None = None,
        high: float | None = None,
    ) -> dist.Distribution:
        """A number, or a ``{ dist = ... }`` table (see ``actors.dist``)."""
        r, dp = self.reader, (*p, key)
        value = table.get(key, default)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if not math.isfinite(value):
                r.problem(dp, f"expected a finite number, found {value}")
                return dist.Fixed(float(default))
            made: dist.Distribution = dist.Fixed(float(value))
        elif isinstance(value, dict):
            kind = value.get("dist")
            if not isinstance(kind, str) or kind not in dist.KINDS:
                r.problem(dp, f"'dist' must be one of {', '.join(repr(k) for k in dist.KINDS)}")
                return dist.Fixed(float(default))
            required, optional = dist.KINDS[kind]
            r.table(dp, value, ("dist", *required, *optional))
            ok = True
            for name in (*required, *optional):
                want = "list" if name in ("values", "weights") else "number"
                if name in required or name in value:
                    ok &= r.take(dp, value, name, want, None, required=name in required) is not None
            for name in ("values", "weights"):
                items = value.get(name)
                if isinstance(items, list) and not all(
                    isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                    for v in items
                ):
                    r.problem((*dp, name), "expected an array of finite numbers")
                    ok = False
            if not ok:
                return dist.Fixed(float(default))
            try:
                made = dist.make(kind, value)
            except ValueError as error:
                r.problem(dp, str(error))
                return dist.Fixed(float(default))
        else:
            r.problem(dp, f"expected a number or a {{ dist = ... }} table, found {shown(value)}")
            return dist.Fixed(float(default))
        # An unbounded end (exponential, normal) is clipped when drawn, not refused.
        ends = [v for v in made.bounds() if math.isfinite(v)]
        if low is not None and min(ends) < low:
            r.problem(dp, f"values below {low:g} are not allowed here")
            return dist.Fixed(float(default))
        if high is not None and max(ends) > high:
            r.problem(dp, f"values above {high:g} are not allowed here")
            return dist.Fixed(float(default))
        return made

    # ---- [[at]] -----------------------------------------------------------------------
    def at_commands(self, entries: list[Any], run: RunSettings) -> list[AtCommand]:
        """``[[at]]``: an MQSC command to run on a queue manager at a time. Its syntax
        is checked here, as the console would read it."""
        r, out = self.reader, list[AtCommand]()
        for i, table in enumerate(entries):
            p: KeyPath = ("at", i)
            if not self.is_table(p, table):
                continue
            r.table(p, table, AT)
            at = r.take(p, table, "at", "number", None, required=True)
            qmgr = r.take(p, table, "qmgr", "str", "", required=True)
            text = r.take(p, table, "mqsc", "str", "", required=True)
            if at is None or not qmgr or not text:
                continue
            ok = r.at_least((*p, "at"), at, 0)
            if at > run.duration:
                r.problem((*p, "at"), f"at {at} is after the run ends (duration {run.duration:g})")
                ok = False
            if qmgr not in self.qmgr_names:
                r.problem(
                    (*p, "qmgr"),
                    f"no queue manager {qmgr} in the scenario" + _known(self.qmgr_names),
                )
                ok = False
            error = mqsc_commands.parse(text).error
            if error is not None:
                r.problem((*p, "mqsc"), f"{error[0]} {error[1]}")
                ok = False
            if ok:
                out.append(AtCommand(float(at), qmgr, text))
        return out

    # ---- [[fault]] --------------------------------------------------------------------
    def faults(self, entries: list[Any], run: RunSettings) -> list[Fault]:
        r, out = self.reader, list[Fault]()
        for i, table in enumerate(entries):
            p: KeyPath = ("fault", i)
            if not self.is_table(p, table):
                continue
            r.table(p, table, FAULT)
            at = r.take(p, table, "at", "number", None, required=True)
            action = r.take(p, table, "action", "str", "", required=True)
            qmgr = r.take(p, table, "qmgr", "str", "")
            channel = r.take(p, table, "channel", "str", "")
            duration = r.take(p, table, "duration", "number", None)
            amount = r.take(p, table, "amount", "number", 0.0)
            expected = r.take(p, table, "expected", "bool", False)
            structure = r.take(p, table, "structure", "str", "")
            facility = r.take(p, table, "facility", "str", "")
            if at is None or not action or not r.one_of((*p, "action"), action, ACTIONS):
                continue
            ok = r.at_least((*p, "at"), at, 0)
            if at > run.duration:
                r.problem((*p, "at"), f"at {at} is after the run ends (duration {run.duration:g})")
                ok = False
            needs = ACTIONS[action]
            if needs == "qmgr" and not qmgr:
                r.problem(p, f"{action} needs 'qmgr'")
                ok = False
            if needs == "channel" and not channel:
                r.problem(p, f"{action} needs 'channel'")
                ok = False
            if needs == "facility" and not facility:
                r.problem(p, f"{action} needs 'facility' (a coupling facility's name)")
                ok = False
            if needs == "structure" and not structure:
                r.problem(p, f"{action} needs 'structure' (a CF structure's name)")
                ok = False
            if qmgr and qmgr not in self.qmgr_names:
                r.problem(
                    (*p, "qmgr"),
                    f"no queue manager {qmgr} in the scenario" + _known(self.qmgr_names),
                )
                ok = False
            if needs == "amount":
                ok &= r.at_least((*p, "amount"), amount, 0, above=True)
            whole = abs(amount) <= DEFAULT_SEQWRAP and amount == int(amount)  # nan, inf: no
            if action == "rogue_partner" and (not whole or amount == 1):
                # 1 is the next number: a batch MQ takes from anyone who says it.
                r.problem(
                    (*p, "amount"),
                    f"rogue_partner amount {amount:g}: a whole number other than 1, at most "
                    f"{DEFAULT_SEQWRAP} either way "
                    "(0 replays the sender's last message, 2 or more skip ahead)",
                )
                ok = False
            if duration is not None:
                if action not in UNDO:
                    r.problem(
                        (*p, "duration"),
                        f"{action} takes no duration; only " + ", ".join(UNDO) + " do",
                    )
                    ok = False
                ok &= r.at_least((*p, "duration"), duration, 0, above=True)
            if ok:
                self.places[f"fault {len(out)}"] = p
                out.append(
                    Fault(
                        float(at),
                        action,
                        qmgr,
                        channel,
                        None if duration is None else float(duration),
                        float(amount),
                        expected,
                        structure,
                        facility,
                    )
                )
        return out

    # ---- small checks -----------------------------------------------------------------
    def count(
        self,
        p: KeyPath,
        table: dict[str, Any],
        key: str,
        default: int,
        *,
        low: int,
        high: int = MQLONG_MAX,
    ) -> int:
        """An integer from ``low`` to ``high`` (by default, what fits in an MQLONG)."""
        value: int = self.reader.take(p, table, key, "int", default)
        if not self.reader.at_least((*p, key), value, low):
            return default
        if value > high:
            self.reader.problem((*p, key), f"must be at most {high:,}, found {value:,}")
            return default
        return value

    def optional_name(self, p: KeyPath, table: dict[str, Any], key: str, what: str) -> str:
        """An object name that may be left out (""): 1 to 48 of MQ's characters."""
        value: str = self.reader.take(p, table, key, "str", "")
        if value and not self.name((*p, key), value, what, 48):
            return ""
        return value

    def dynamic_name(self, p: KeyPath, table: dict[str, Any]) -> str:
        """A DynamicQName: up to 48 of MQ's name characters, a trailing '*' allowed (the
        queue manager fills it in at MQOPEN; check.py's dry run judges the rest)."""
        value: str = self.reader.take(p, table, "reply_name", "str", "REPLY.*")
        if not self.name((*p, "reply_name"), value.replace("*", "A"), "dynamic queue", 48):
            return "REPLY.*"
        return value

    def name(self, p: KeyPath, name: str, what: str, longest: int) -> bool:
        try:
            check_name(name, what, longest)
        except ValueError as error:
            self.reader.problem(p, str(error))
            return False
        return True

    def is_table(self, p: KeyPath, value: Any) -> bool:
        if isinstance(value, dict):
            return True
        self.reader.problem(p, f"expected a table, found {shown(value)}")
        return False


def _kinds_key(key: str) -> bool:
    """Whether ``key`` belongs to some kind of workload."""
    return any(key in keys for keys in KINDS.values())


def _known(names: list[str]) -> str:
    return f" (it has {', '.join(names)})" if names else ""


def _defines(commands: tuple[Command, ...], kind: str, name: str) -> bool:
    return any(c.verb == "DEFINE" and c.object_type == kind and c.name == name for c in commands)


def _with(settings: QMgrSettings, commands: list[Command]) -> QMgrSettings:
    return dataclasses.replace(settings, commands=settings.commands + tuple(commands))


__all__ = ["load_scenario", "parse_scenario"]
