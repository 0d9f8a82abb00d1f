"""``qsg run --out``: a run's directory, written as the run goes and kept if it fails.

Before the first event the directory holds the scenario and ``run.json`` with
``"status": "running"``; every event is then appended to ``events.journal`` as it is
emitted (one msgpack record each, through a small buffer: a process killed outright
loses at most the last few kilobytes of events). At the end, whichever end it is, the
events go to ``events.parquet`` and ``run.json`` says how the run ended:

- ``"status": "ok"``, with ``summary.json`` beside it;
- ``"status": "failed"``, with ``"error"``: each failure of the run, one line each, and
  the events up to the failure (no summary: a run that did not finish is not summarised);
- ``"status": "interrupted"`` (Ctrl-C), likewise.

Once ``events.parquet`` is written the journal is removed, so a directory still holding
``events.journal`` and a ``"running"`` run.json is the trace of a process that was killed:
``read_journal`` gives its events back, and ``salvage`` writes them as ``events.parquet``.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import IO, Any

import msgpack

from actors.events import EventLog, WorldEvent, kind_of
from qsg.core.sharing import QueueSharingGroup
from qsg.scenario import eventlog
from qsg.scenario.model import Scenario
from qsg.scenario.play import RunResult, ScriptScenario, structures
from qsg.scenario.summary import Scopes

JOURNAL = "events.journal"
#: How much of the journal may wait in memory before it is written out.
_BUFFER = 8192


class Recording:
    """The directory ``out`` of one run of ``scenario`` (read from ``source``)."""

    def __init__(
        self, out: Path, source: Path, scenario: Scenario | ScriptScenario, seed: int
    ) -> None:
        self.out, self.source, self.scenario, self.seed = out, source, scenario, seed
        _copy_scenario(source, out)
        self._run_json("running", events=0)
        (out / "events.parquet").unlink(missing_ok=True)  # an earlier run's
        (out / "summary.json").unlink(missing_ok=True)
        self._journal: IO[bytes] | None = open(out / JOURNAL, "wb", buffering=_BUFFER)  # noqa: SIM115
        #: The run's event log: keeps the history and journals each event.
        self.events = EventLog(sink=self._append)

    def _append(self, event: WorldEvent) -> None:
        if self._journal is not None:
            self._journal.write(_record(event))

    def finished(self, result: RunResult, *, exit_status: int | None = None) -> None:
        """The run reached its end: run.json, summary.json and events.parquet.
        ``exit_status``: the program's, for a run of ``qsg exec`` (see ``write_run``)."""
        self._close()
        write_run(self.out, self.source, result, copy=False, exit_status=exit_status)
        (self.out / JOURNAL).unlink(missing_ok=True)

    def failed(self, errors: list[str], *, status: str = "failed") -> None:
        """The run failed (or was interrupted): the events it has, and why it ended."""
        self._close()
        history = self.events.history
        eventlog.write(
            self.out / "events.parquet", history, static_scopes(self.scenario), seed=self.seed
        )
        self._run_json(status, events=len(history), error=errors)
        (self.out / JOURNAL).unlink(missing_ok=True)

    def _close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    def _run_json(self, status: str, **extra: Any) -> None:
        run = self.scenario.run
        fields = {
            "scenario": str(self.source),
            "status": status,
            "seed": self.seed,
            "duration": run.duration,
            "clock": run.clock,
            "in_process": run.in_process,
            **extra,
        }
        (self.out / "run.json").write_text(json.dumps(fields, indent=2) + "\n")


def write_run(
    out: Path,
    source: Path,
    result: RunResult,
    *,
    copy: bool = True,
    exit_status: int | None = None,
) -> None:
    """A finished run's directory: the scenario file (unless ``copy`` is False: already
    there), run.json, summary.json and events.parquet. With ``exit_status`` (a program's
    run under ``qsg exec``) run.json has it, and its status is the program's too: a
    program that ended with a status other than 0 is a failed run."""
    if copy:
        _copy_scenario(source, out)
    run = result.scenario.run
    errors = (
        [] if exit_status in (None, 0) else [f"the program ended with exit status {exit_status}"]
    )
    failure = result.failure()  # it ran to its end, but its coupling facility failed
    if failure is not None:
        errors.append(failure)
    ended: dict[str, Any] = {"status": "failed", "error": errors} if errors else {"status": "ok"}
    if exit_status is not None:
        ended["exit_status"] = exit_status
    (out / "run.json").write_text(
        json.dumps(
            {
                "scenario": str(source),
                **ended,
                "seed": result.seed,
                "duration": run.duration,
                "clock": run.clock,
                "in_process": run.in_process,
                "events": len(result.events),
                "wall_seconds": result.wall_seconds,
            },
            indent=2,
        )
        + "\n"
    )
    (out / "summary.json").write_text(
        json.dumps(result.summary.to_json(), indent=2, default=_json_default) + "\n"
    )
    eventlog.write(
        out / "events.parquet",
        result.events,
        result.scopes,
        seed=result.seed,
        warmup=result.warmup,
    )


def _copy_scenario(source: Path, out: Path) -> None:
    """The scenario file into ``out`` (made if need be), unless it is that file already
    (a run of DIR/scenario.toml written to DIR again)."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"scenario{source.suffix}"
    if not target.exists() or not target.samefile(source):
        shutil.copyfile(source, target)


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(type(value).__name__)


def _record(event: WorldEvent) -> bytes:
    fields = [getattr(event, f.name) for f in dataclasses.fields(event)]
    return msgpack.packb([kind_of(event), *fields], use_bin_type=True)  # type: ignore[no-any-return]


def read_journal(path: Path) -> list[WorldEvent]:
    """The events of a journal; a record cut off by a kill is left out."""
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(path.read_bytes())
    events: list[WorldEvent] = []
    try:
        for kind, *fields in unpacker:
            events.append(eventlog.RECORDS[kind](*fields))
    except (ValueError, msgpack.UnpackException):
        pass  # the tail a kill cut off mid-record
    return events


def salvage(out: Path, scenario: Scenario | ScriptScenario) -> int:
    """A killed run's directory made readable: its journal written as events.parquet
    (run.json keeps "running": how it ended is not known). Returns the events saved."""
    events = read_journal(out / JOURNAL)
    eventlog.write(out / "events.parquet", events, static_scopes(scenario))
    (out / JOURNAL).unlink()
    return len(events)


def static_scopes(scenario: Scenario | ScriptScenario) -> Scopes:
    """Which queues are shared, and by which QSG, as the scenario defines them (a run
    that failed has no world left to ask; dynamic queues made during it are not in)."""
    topology = scenario.topology
    groups = {name: QueueSharingGroup(name) for name in topology.qsgs}
    qmgrs = topology.build(groups)
    members = {name: qm.qsg_name for name, qm in qmgrs.items() if qm.qsg is not None}
    shared = {name: sorted(group.shared.queues) for name, group in groups.items()}
    cf = {name: structures(group.shared) for name, group in groups.items()}
    return Scopes(members, shared, cf)


__all__ = ["JOURNAL", "Recording", "read_journal", "salvage", "static_scopes", "write_run"]
