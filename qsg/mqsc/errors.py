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


def cut(text: str, longest: int = 40) -> str:
    """``text`` as a problem shows it: cut after ``longest`` characters (a value of
    megabytes is not copied into a reply line)."""
    if len(text) <= longest:
        return text
    return f"{text[:longest]}... ({len(text):,} characters)"


def shown(text: str, longest: int = 40) -> str:
    """``text`` as a problem quotes it: its repr, cut after ``longest`` characters."""
    if len(text) <= longest:
        return repr(text)
    return f"{text[:longest]!r}... ({len(text):,} characters)"


class MQSCError(QSGError, ValueError):
    """An MQSC file that cannot be applied: ``problems`` says where and why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
