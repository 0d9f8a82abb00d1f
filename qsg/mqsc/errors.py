"""The one error of the MQSC reader: every problem of a file, each with its place."""

from __future__ import annotations

from dataclasses import dataclass

from qsg.core.errors import QSGError


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong, at ``line`` and ``column`` (both from 1) of ``source``."""

    source: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.message}"


class MQSCError(QSGError, ValueError):
    """An MQSC file that cannot be applied: ``problems`` says where and why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
