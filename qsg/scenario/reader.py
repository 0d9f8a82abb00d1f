"""Typed reading of a parsed TOML document, noting every problem with its line and key.

A ``Reader`` never raises on bad input: it notes the problem (file, line, dotted key,
what was expected) and hands back the default, so one pass finds every problem of a
file. ``take`` checks a value's type; ``table`` checks that a table has no key it does
not know (and suggests the nearest known one).
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from typing import Any, TypeVar

from qsg.scenario.errors import ScenarioProblem
from qsg.scenario.locate import KeyLines, Path

T = TypeVar("T")

#: The kinds ``take`` checks, and how a problem names them.
KIND_NAMES = {
    "str": "a string",
    "int": "an integer",
    "number": "a number",
    "bool": "true or false",
    "table": "a table",
    "list": "an array",
    "str-list": "an array of strings",
}


def dotted(path: Path) -> str:
    """``("workload", 2, "rate")`` as ``workload[2].rate``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            shown = part if part.replace("_", "").replace("-", "").isalnum() else f'"{part}"'
            out += f".{shown}" if out else shown
    return out


def _is(value: Any, kind: str) -> bool:
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "table":
        return isinstance(value, dict)
    if kind == "list":
        return isinstance(value, list)
    if kind == "str-list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    raise AssertionError(kind)


def shown(value: Any) -> str:
    """A value as the problem quotes it (short)."""
    kind = {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "array",
        dict: "table",
    }.get(type(value), type(value).__name__)
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{kind} {text}"


class Reader:
    """Notes problems of one file (``source``) whose key lines ``lines`` knows."""

    def __init__(self, source: str, lines: KeyLines) -> None:
        self.source = source
        self.lines = lines
        self.problems: list[ScenarioProblem] = []

    def problem(self, path: Path, message: str) -> None:
        self.problems.append(
            ScenarioProblem(self.source, self.lines.line(path), dotted(path), message)
        )

    def table(self, path: Path, table: dict[str, Any], known: Iterable[str]) -> None:
        """A problem for each key of ``table`` not in ``known``."""
        known = list(known)
        for key in table:
            if key not in known:
                near = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                self.problem((*path, key), f"unknown key {key!r}{hint}")

    def take(
        self,
        path: Path,
        table: dict[str, Any],
        key: str,
        kind: str,
        default: T,
        *,
        required: bool = False,
        finite: bool = True,
    ) -> Any:
        """``table[key]`` if it is of ``kind`` (and, ``required``, not empty); else a
        problem and ``default``."""
        if key not in table:
            if required:
                self.problem(path, f"missing key {key!r} ({KIND_NAMES[kind]})")
            return default
        value = table[key]
        if not _is(value, kind):
            self.problem((*path, key), f"expected {KIND_NAMES[kind]}, found {shown(value)}")
            return default
        if kind == "number" and (math.isnan(value) or (finite and math.isinf(value))):
            self.problem((*path, key), f"expected a finite number, found {value}")
            return default
        if required and value == "":
            self.problem((*path, key), "must not be empty")
            return default
        return value

    def at_least(self, path: Path, value: float, low: float, *, above: bool = False) -> bool:
        """``value`` is at least ``low`` (above it, with ``above``); else a problem."""
        if value > low or (value == low and not above):
            return True
        self.problem(path, f"must be {'above' if above else 'at least'} {low}, found {value}")
        return False

    def one_of(self, path: Path, value: str, choices: Iterable[str]) -> bool:
        choices = list(choices)
        if value in choices:
            return True
        self.problem(path, f"must be one of {', '.join(repr(c) for c in choices)}, found {value!r}")
        return False


__all__ = ["KIND_NAMES", "Reader", "dotted", "shown"]
