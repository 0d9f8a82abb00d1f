"""A sweep file: a base scenario, the parameters to vary, the seeds, the objective.

```toml
scenario = "capacity.toml"            # the base scenario, relative to this file
duration = 60                          # optional: each point's simulated seconds
seeds = [1, 2]                         # every combination runs once per seed
# replications = 5                     # or: seeds from the base's [run] seed on, 5 of them
objective = { p99 = 0.5, queue = "APP.PAYMENTS" }   # p99 latency (s); queue optional

[vary]
"workload.*.rate" = [10, 20, 40]       # every workload that has a rate
"qsg.QSG1.members" = [2, 4]            # member counts (or lists of names)
"model.cf_access" = [0.00004]
```

A parameter is a dotted path into the base scenario's TOML: ``run.K``, ``model.K``,
``qmgr.NAME.K`` (``qmgr.*.K``: every queue manager), ``workload.NAME.K``
(``workload.*.K``: every workload that already has K), ``channel.NAME.K``,
``qsg.NAME.K`` and ``qsg.NAME.structures.S.K``. ``qsg.NAME.members = N`` gives the
QSG its first N members, named like its first (QM1, QM2, ... QMN); a member it gains
runs copies of the first member's workloads and settings, and the workloads of a
member it loses go with it. Each point is the base scenario with one value of every
parameter, as a complete TOML scenario of its own (MQSC files inlined), so a worker
needs nothing but its text.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from qsg.scenario import files
from qsg.scenario.errors import ScenarioError, ScenarioProblem
from qsg.scenario.load import parse_scenario
from qsg.scenario.locate import KeyLines
from qsg.scenario.model import Scenario

TOP = ("scenario", "duration", "seeds", "replications", "objective", "vary", "description")
#: The most replications (seeds) a sweep's point may have.
MAX_REPLICATIONS = 1000
#: Parameters that set the offered load: the knee is looked for along them (member
#: counts, CF costs and the rest make the groups a knee is found in).
LOAD_KEYS = ("rate",)


@dataclass(frozen=True)
class Objective:
    """The service-level objective: p99 latency at most ``p99`` seconds, on ``queue``
    (every queue's gets pooled if empty)."""

    p99: float
    queue: str = ""


@dataclass(frozen=True)
class Point:
    """One simulation of a sweep: its run name, parameter values, seed and scenario."""

    run: str
    params: dict[str, Any]
    seed: int
    text: str
    offered_load: float
    members: int

    @property
    def group(self) -> str:
        """The point's values of every parameter that does not set the load (the knee
        is found within each group)."""
        return ", ".join(f"{k}={_shown(v)}" for k, v in self.params.items() if not _is_load(k))


@dataclass
class Sweep:
    """A loaded sweep file: its points (each already validated as a scenario)."""

    path: Path
    base: Path
    objective: Objective
    seeds: list[int]
    vary: dict[str, list[Any]]
    points: list[Point] = field(default_factory=list)
    description: str = ""


def _is_load(key: str) -> bool:
    return key.rsplit(".", 1)[-1] in LOAD_KEYS


def _shown(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def load_sweep(path: str | Path, replications: int | None = None) -> Sweep:
    """The sweep in ``path``; ScenarioError lists every problem (file, line, key), of the
    sweep file and of any point whose scenario would not load. ``replications`` (``qsg
    sweep --replications``) plays that many seeds a point instead of the file's, from
    its first seed on."""
    path = Path(path)
    try:
        text = files.read_text(path)
        doc = files.parse_toml(text)
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError([ScenarioProblem(str(path), 1, "", f"cannot read: {error}")]) from None
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(
            [ScenarioProblem(str(path), 1, "", f"not valid TOML: {error}")]
        ) from None
    lines = KeyLines(text)
    problems: list[ScenarioProblem] = []

    def problem(key: tuple[str, ...], message: str) -> None:
        line = lines.line(key) if key else 1
        problems.append(ScenarioProblem(str(path), line, ".".join(key), message))

    for key in doc:
        if key not in TOP:
            problem((key,), f"unknown key; known: {', '.join(TOP)}")
    base_name = doc.get("scenario")
    base = path.parent / base_name if isinstance(base_name, str) else path
    if not isinstance(base_name, str):
        problem(
            ("scenario",) if "scenario" in doc else (),
            "the base scenario (a TOML file) is required",
        )
    elif not base.is_file():
        problem(("scenario",), f"no such file: {base}")
    seeds = doc.get("seeds", [0])
    if not (
        isinstance(seeds, list) and seeds and all(isinstance(s, int) and s >= 0 for s in seeds)
    ):
        problem(("seeds",), "must be a non-empty array of integers >= 0")
        seeds = [0]
    count = replications if replications is not None else doc.get("replications")
    if "replications" in doc and "seeds" in doc:
        problem(("replications",), "give seeds or replications, not both")
    if count is not None and not (
        isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= MAX_REPLICATIONS
    ):
        problem(
            ("replications",) if "replications" in doc else (),
            f"replications must be an integer from 1 to {MAX_REPLICATIONS}, not {count!r}",
        )
        count = None
    objective = _objective(doc.get("objective"), problem)
    duration = doc.get("duration")
    if duration is not None and not (isinstance(duration, int | float) and duration > 0):
        problem(("duration",), "must be a number above 0")
    vary = doc.get("vary", {})
    if not isinstance(vary, dict):
        problem(("vary",), "must be a table of parameter = [values]")
        vary = {}
    for key, values in vary.items():
        if not isinstance(values, list) or not values:
            problem(("vary", key), "must be a non-empty array of values")
    if problems:
        raise ScenarioError(problems)
    sweep = Sweep(
        path, base, objective, list(seeds), dict(vary), description=str(doc.get("description", ""))
    )
    base_text = files.read_text(base)
    base_doc = _inline_mqsc(files.parse_toml(base_text), base.parent)
    if count is not None:  # from the file's first seed, else the base scenario's own
        own = base_doc.get("run", {}).get("seed", 0)
        first = seeds[0] if "seeds" in doc else own if isinstance(own, int) else 0
        sweep.seeds = seeds = list(range(first, first + count))
    if duration is not None:
        base_doc.setdefault("run", {})["duration"] = duration
    combos = list(itertools.product(*vary.values())) if vary else [()]
    for index, combo in enumerate(combos, start=1):
        params = dict(zip(vary, combo, strict=True))
        point_doc = copy.deepcopy(base_doc)
        for key, value in params.items():
            message = apply(point_doc, key, value)
            if message:
                problem(("vary", key), message)
        if problems:
            break
        for seed in seeds:
            point_doc.setdefault("run", {})["seed"] = seed
            point_text = tomli_w.dumps(point_doc)
            run = f"p{index:03d}-s{seed}"
            source = (
                f"{path} point {run} ({', '.join(f'{k}={_shown(v)}' for k, v in params.items())})"
            )
            try:
                scenario = parse_scenario(point_text, source, base=base.parent)
            except ScenarioError as error:
                raise ScenarioError(error.problems) from None
            sweep.points.append(
                Point(run, params, seed, point_text, offered_load(scenario), _members(scenario))
            )
    if problems:
        raise ScenarioError(problems)
    return sweep


def _objective(raw: Any, problem: Any) -> Objective:
    if raw is None:
        problem((), "objective = { p99 = SECONDS } is required (the knee's latency objective)")
        return Objective(math.inf)
    if not isinstance(raw, dict) or not isinstance(raw.get("p99"), int | float) or raw["p99"] <= 0:
        problem(("objective",), 'must be { p99 = SECONDS above 0, queue = "NAME" (optional) }')
        return Objective(math.inf)
    unknown = set(raw) - {"p99", "queue"}
    if unknown:
        problem(("objective",), f"unknown key {sorted(unknown)[0]!r}; known: p99, queue")
    return Objective(float(raw["p99"]), str(raw.get("queue", "")))


def _inline_mqsc(doc: dict[str, Any], base: Path) -> dict[str, Any]:
    """MQSC files read into the scenario, so a point is one self-contained text."""
    tables = list(doc.get("qmgr", {}).values()) + list(doc.get("qsg", {}).values())
    for table in tables:
        name = table.pop("mqsc_file", None) if isinstance(table, dict) else None
        if isinstance(name, str):
            extra = files.read_text(base / name)
            table["mqsc"] = (table.get("mqsc", "") + "\n" + extra).strip() + "\n"
    return doc


def apply(doc: dict[str, Any], key: str, value: Any) -> str | None:
    """Set parameter ``key`` to ``value`` in a scenario document; a message if ``key``
    names nothing there."""
    parts = key.split(".")
    head = parts[0]
    if head in ("run", "model") and len(parts) == 2:
        doc.setdefault(head, {})[parts[1]] = value
        return None
    if head == "qsg" and len(parts) == 3 and parts[2] == "members":
        return _members_to(doc, parts[1], value)
    if head == "qsg" and len(parts) >= 3:
        table = doc.get("qsg", {}).get(parts[1])
        if table is None:
            return f"no QSG {parts[1]} in the scenario"
        for part in parts[2:-1]:
            table = table.setdefault(part, {})
        table[parts[-1]] = value
        return None
    if head == "qmgr" and len(parts) == 3:
        names = _qmgr_names(doc) if parts[1] == "*" else [parts[1]]
        if parts[1] != "*" and parts[1] not in _qmgr_names(doc):
            return f"no queue manager {parts[1]} in the scenario"
        for name in names:
            doc.setdefault("qmgr", {}).setdefault(name, {})[parts[2]] = value
        return None
    if head in ("workload", "channel") and len(parts) == 3:
        entries = doc.get(head, [])
        if parts[1] == "*":
            chosen = [e for e in entries if parts[2] in e]
        else:
            chosen = [e for e in entries if e.get("name") == parts[1]]
        if not chosen:
            what = f"with {parts[2]}" if parts[1] == "*" else f"named {parts[1]}"
            return f"no {head} {what} in the scenario"
        for entry in chosen:
            entry[parts[2]] = value
        return None
    return (
        "not a parameter: use run.K, model.K, qmgr.NAME.K, workload.NAME.K, "
        "channel.NAME.K, qsg.NAME.K or qsg.NAME.members"
    )


def _qmgr_names(doc: dict[str, Any]) -> list[str]:
    names = list(doc.get("qmgr", {}))
    for qsg in doc.get("qsg", {}).values():
        names.extend(m for m in qsg.get("members", []) if m not in names)
    return names


def _members_to(doc: dict[str, Any], qsg: str, value: Any) -> str | None:
    """``qsg.NAME.members``: a count (first N, named like the first) or the names."""
    table = doc.get("qsg", {}).get(qsg)
    if table is None or not table.get("members"):
        return f"no QSG {qsg} with members in the scenario"
    old: list[str] = list(table["members"])
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            return "a member count must be at least 1"
        stem = re.sub(r"\d+$", "", old[0])
        taken = set(_qmgr_names(doc))
        new = old[:value]
        i = 1
        while len(new) < value:
            candidate = f"{stem}{i}"
            if candidate not in taken:
                new.append(candidate)
                taken.add(candidate)
            i += 1
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        new = list(value)
    else:
        return "members must be a count or an array of queue manager names"
    template = old[0]
    gone = [m for m in old if m not in new]
    for channel in doc.get("channel", []):
        if channel.get("from") in gone or channel.get("to") in gone:
            return (
                f"channel {channel.get('name')} needs {channel.get('from')} and {channel.get('to')}"
            )
    workloads = [w for w in doc.get("workload", []) if w.get("qmgr") not in gone]
    qmgrs = doc.get("qmgr", {})
    for member in new:
        if member in old:
            continue
        if template in qmgrs:
            qmgrs[member] = copy.deepcopy(qmgrs[template])
        for w in doc.get("workload", []):
            if w.get("qmgr") == template:
                twin = copy.deepcopy(w)
                twin["qmgr"] = member
                twin["name"] = f"{w.get('name', w.get('type', 'app'))}.{member}"
                workloads.append(twin)
    for member in gone:
        qmgrs.pop(member, None)
    doc["workload"] = workloads
    table["members"] = new
    return None


def offered_load(scenario: Scenario) -> float:
    """Messages a second the scenario's putters and requesters offer (rate × copies)."""
    total = 0.0
    for w in scenario.workloads:
        rate = getattr(w, "rate", None)
        if w.kind in ("putter", "requester") and rate:
            total += rate * w.apps
    return total


def _members(scenario: Scenario) -> int:
    return sum(len(q.members) for q in scenario.qsgs)


__all__ = ["LOAD_KEYS", "Objective", "Point", "Sweep", "apply", "load_sweep", "offered_load"]
