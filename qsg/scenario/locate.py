"""Where each key of a TOML file is: its line, so an error can name file, line and key.

``tomllib`` gives values, not places. This reads the text once more, line by line,
keeping what a reader of the file sees: table headers (``[qsg.QSG1]``), arrays of
tables (``[[workload]]``, numbered from 0 in the order they appear), keys (dotted or
quoted) and the keys of inline tables. Strings and multi-line values are skipped
whole, so a ``=`` inside an MQSC text or a list is never taken for a key. It never
fails: whatever it cannot place is found at its nearest placed parent.
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(text: str, i: int) -> tuple[list[str], int]:
    """A dotted key from ``text[i]``: its parts and the index after it."""
    parts: list[str] = []
    n = len(text)
    while i < n:
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] in "\"'":
            quote = text[i]
            end = i + 1
            while end < n and text[end] != quote:
                end += 2 if quote == '"' and text[end] == "\\" else 1
            parts.append(text[i + 1 : end])
            i = end + 1
        else:
            m = _BARE.match(text, i)
            if m is None:
                break
            parts.append(m.group())
            i = m.end()
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == ".":
            i += 1
            continue
        break
    return parts, i


class _Scanner:
    """Walks the text once; ``lines`` maps each path it met to its first line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.line = 1
        self.lines: dict[Path, int] = {}
        self.counts: dict[Path, int] = {}

    def note(self, path: Path) -> None:
        for k in range(1, len(path) + 1):
            self.lines.setdefault(path[:k], self.line)

    def scan(self) -> dict[Path, int]:
        text = self.text
        table_path: Path = ()
        while self.i < len(text):
            self.skip_blank()
            if self.i >= len(text):
                break
            c = text[self.i]
            if c == "\n":
                self.i += 1
                self.line += 1
            elif c == "#":
                self.skip_comment()
            elif c == "[":
                table_path = self.header()
            else:
                parts, after = _key(text, self.i)
                if not parts or after >= len(text) or text[after] != "=":
                    self.skip_line()
                    continue
                path = table_path + tuple(parts)
                self.note(path)
                self.i = after + 1
                self.value(path)
        return self.lines

    def header(self) -> Path:
        text = self.text
        array = text.startswith("[[", self.i)
        parts, after = _key(text, self.i + (2 if array else 1))
        base: Path = tuple(parts)
        if array:
            index = self.counts.get(base, 0)
            self.counts[base] = index + 1
            path: Path = (*base, index)
        else:
            path = base
        self.note(path)
        self.i = after
        self.skip_line()
        return path

    def value(self, path: Path) -> None:
        """Skip one value, noting the keys of inline tables inside it."""
        text, depth = self.text, 0
        inline: list[Path] = []
        expect_key = False
        while self.i < len(text):
            c = text[self.i]
            if c in "\"'":
                self.string()
                expect_key = False
                continue
            if c == "#":
                self.skip_comment()
                continue
            if c == "\n":
                if depth == 0:
                    return
                self.line += 1
            elif c in "[{":
                depth += 1
                if c == "{":
                    inline.append(path)
                    expect_key = True
            elif c in "]}":
                depth -= 1
                if c == "}" and inline:
                    inline.pop()
            elif c == "," and inline and depth > 0:
                expect_key = True
            elif expect_key and c not in " \t":
                parts, after = _key(text, self.i)
                if parts and after < len(text) and text[after] == "=":
                    self.note(inline[-1] + tuple(parts))
                    self.i = after + 1
                    expect_key = False
                    continue
                expect_key = False
            self.i += 1

    def string(self) -> None:
        text = self.text
        quote = text[self.i]
        if text.startswith(quote * 3, self.i):
            end = text.find(quote * 3, self.i + 3)
            end = len(text) if end < 0 else end + 3
            while end < len(text) and text[end] == quote:  # """ "quoted"""" ends later
                end += 1
            self.line += text.count("\n", self.i, end)
            self.i = end
            return
        i = self.i + 1
        while i < len(text) and text[i] not in (quote, "\n"):
            i += 2 if quote == '"' and text[i] == "\\" else 1
        self.i = i + 1 if i < len(text) and text[i] == quote else i

    def skip_blank(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t\r":
            self.i += 1

    def skip_comment(self) -> None:
        end = self.text.find("\n", self.i)
        self.i = len(self.text) if end < 0 else end

    def skip_line(self) -> None:
        while self.i < len(self.text) and self.text[self.i] != "\n":
            if self.text[self.i] in "\"'":
                self.string()
            else:
                self.i += 1


class KeyLines:
    """The line of each key of a TOML text: ``line(("workload", 2, "rate"))``."""

    def __init__(self, text: str) -> None:
        self._lines = _Scanner(text).scan()

    def line(self, path: Path) -> int:
        """The line of ``path``, else of its nearest parent that has one (1 at worst)."""
        for k in range(len(path), 0, -1):
            found = self._lines.get(path[:k])
            if found is not None:
                return found
        return 1

    def has(self, path: Path) -> bool:
        return path in self._lines


__all__ = ["KeyLines", "Path"]
