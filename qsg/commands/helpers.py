"""What the ``qsg`` commands share: loading a scenario for a command, telling its
problems, checking ``--redis``, the output console, keeping a run with ``--out``.

It sits below every command (``qsg.commands.cli``, ``qsg.chaos``, ``qsg.commands.pipeline``,
``qsg.commands.console``, ``qsg.commands.exec``) and above the scenarios, so that a command never
imports another command's module for a helper (docs/architecture.md, "The layers").
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape

from qsg.commands.run_view import print_summary
from qsg.scenario import files
from qsg.scenario.errors import ScenarioError, ScenarioProblem
from qsg.scenario.model import Scenario
from qsg.scenario.play import RunResult, ScriptScenario, load_script

if TYPE_CHECKING:
    from qsg.scenario.recording import Recording


def load(path: Path) -> Scenario | ScriptScenario:
    """A TOML scenario, or a Python one (``.py``); ScenarioError if it has problems."""
    if path.suffix == ".py":
        return load_script(path)
    return load_toml(path)


def load_toml(path: Path) -> Scenario:
    """A TOML scenario; ScenarioError if it has problems (a sweep file is one)."""
    from qsg.scenario.load import load_scenario

    if is_sweep(path):
        raise ScenarioError([_sweep_given(path)])
    return load_scenario(path)


def _top_keys(path: Path) -> set[str] | None:
    """The top-level keys of a TOML file; None if it is not one (its loader names the
    problem)."""
    import tomllib

    try:
        return set(files.parse_toml(files.read_text(path))) if path.suffix == ".toml" else None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def is_sweep(path: Path) -> bool:
    """A ``qsg sweep`` file (a base scenario and ``[vary]``) rather than a scenario."""
    return "vary" in (_top_keys(path) or ())


def is_scenario(path: Path) -> bool:
    """A scenario file (it has ``[run]``) rather than a ``qsg sweep`` file."""
    keys = _top_keys(path) or set()
    return "run" in keys and "vary" not in keys


def _sweep_given(path: Path) -> ScenarioProblem:
    """The one problem of a sweep file given where a scenario is wanted, at its [vary]."""
    lines = files.read_text(path).splitlines()
    line = next((i for i, text in enumerate(lines, 1) if text.strip() == "[vary]"), 1)
    return ScenarioProblem(
        str(path),
        line,
        "vary",
        f"a sweep file, not a scenario: play it with `qsg sweep {path} "
        "--out DIR` (its scenario is the one `scenario` names)",
    )


def causes(error: BaseException) -> list[BaseException]:
    """The errors inside ``error``: trio's nurseries wrap a task's failure in groups."""
    if isinstance(error, BaseExceptionGroup):
        return [cause for inner in error.exceptions for cause in causes(inner)]
    return [error]


def print_problems(error: ScenarioError) -> None:
    """Every problem of a scenario on standard error, one a line, then the count."""
    err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
    for problem in error.problems:
        # Escaped: a message may name a table, ``[qsg.NAME]``, which Rich reads as markup;
        # without emoji: a file name or a value may hold ``:x:``, which it reads as one.
        err.print(f"[bold red]error[/] {escape(str(problem))}")
    count = len(error.problems)
    err.print(f"{count} problem{'s' if count != 1 else ''}; nothing was started")


def console(*, stderr: bool = False) -> Console:
    """The output console; not a terminal (a pipe, CI), wide enough for the tables.
    ``stderr`` when standard output carries JSON alone."""
    out = Console(highlight=False, stderr=stderr, emoji=False)
    if not out.is_terminal:
        out = Console(highlight=False, stderr=stderr, width=150, emoji=False)
    return out


def open_recording(
    out: Path, source: Path, scenario: Scenario | ScriptScenario, seed: int | None
) -> Recording:
    """``--out``'s directory for a run, written as the run goes
    (``qsg.scenario.recording``); a usage error (exit status 2) naming the problem if it
    cannot be made there (a file, ``/proc``, a directory without write permission)."""
    from qsg.scenario.recording import Recording

    try:
        return Recording(out, source, scenario, scenario.run.seed if seed is None else seed)
    except OSError as error:
        exists_as_no_directory = out.exists() and not out.is_dir()
        why = "it is not a directory" if exists_as_no_directory else error.strerror or str(error)
        raise click.BadParameter(
            f"cannot write the run to {str(out)!r}: {why}", param_hint="'--out'"
        ) from None


def write_run(out: Path, source: Path, result: RunResult) -> None:
    """``--out`` of a finished run: the scenario file, run.json, summary.json and
    events.parquet (``qsg.scenario.recording.write_run``; pyarrow is imported only when used)."""
    from qsg.scenario import recording

    recording.write_run(out, source, result)


__all__ = [
    "causes",
    "console",
    "is_scenario",
    "is_sweep",
    "load",
    "load_toml",
    "open_recording",
    "print_problems",
    "print_summary",
    "write_run",
]
