"""The one error of scenario loading: every problem of a file, each with its place."""

from __future__ import annotations

from dataclasses import dataclass

from qsg.core.errors import QSGError


@dataclass(frozen=True, slots=True)
class ScenarioProblem:
    """One thing wrong at ``line`` of ``source``, under ``key`` (dotted, as in the file:
    ``workload[2].rate``; empty for the file as a whole)."""

    source: str
    line: int
    key: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class ScenarioError(QSGError, ValueError):
    """A scenario that cannot be played; ``problems`` lists them all, each once, in file
    order."""

    def __init__(self, problems: list[ScenarioProblem]) -> None:
        # A problem found twice (a channel fault and its undoing name the same channel)
        # is told once.
        unique = list(dict.fromkeys(problems))
        self.problems = sorted(unique, key=lambda p: (p.source, p.line))
        super().__init__("\n".join(str(p) for p in self.problems))


__all__ = ["ScenarioError", "ScenarioProblem"]
