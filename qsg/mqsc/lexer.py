"""MQSC text to commands, each a list of words and ``KEYWORD(value)`` items.

The rules are IBM's ("Rules for using MQSC commands"): a line whose first non-blank
character is ``*`` is a comment; a command continues on the next line when its last
non-blank character is ``-`` (from the start of the next line) or ``+`` (from the next
line's first non-blank character); keywords and unquoted values are not case sensitive
(they are folded to upper case); a value in single quotes keeps its case and spaces,
with ``''`` standing for one quote. Every character keeps its physical line and column
so that a problem is reported where the administrator wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass

from qsg.mqsc.errors import Problem

#: The longest command read, in characters, continuations joined: qsg's own bound,
#: beyond any real command (a namelist of 256 names is some 13,000), so that one command
#: of megabytes (a message to the command server, a line of a file) is refused before
#: its characters are kept.
MAX_COMMAND_LENGTH = 32_768

_BLANKS = " \t\r"
_SPECIAL = "()'"


@dataclass(frozen=True, slots=True)
class Item:
    """A word of a command, with its value when it was written ``WORD(value)``.

    ``value`` is None for a bare word; ``quoted`` when the value was in quotes (its
    case and blanks are kept). ``line``/``column`` place the word, ``value_column``
    the value.
    """

    word: str
    value: str | None
    quoted: bool
    line: int
    column: int
    value_column: int


@dataclass(frozen=True, slots=True)
class Chars:
    """A command's text with, for each character, where it was in the file."""

    text: str
    places: tuple[tuple[int, int], ...]
    line: int  # where the command starts


def commands(text: str, source: str) -> tuple[list[Chars], list[Problem]]:
    """Join continuation lines and drop comments: one ``Chars`` per command. A command
    longer than ``MAX_COMMAND_LENGTH`` is a problem at its first line, and left out."""
    found: list[Chars] = []
    problems: list[Problem] = []
    chars: list[str] = []
    places: list[tuple[int, int]] = []
    start = 0
    continuing = ""  # the continuation character of the line before, if any
    overlong = False  # the command being read is too long: its lines are skipped
    mark_at = (1, 1)
    lines = text.split("\n")
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(_BLANKS)
        stripped = line.lstrip(_BLANKS)
        if not continuing and (not stripped or stripped.startswith("*")):
            continue
        if not continuing:
            start = number
        first = 0 if continuing == "-" else len(line) - len(stripped)
        body = line[first:]
        mark = body[-1:] if body[-1:] in ("-", "+") else ""
        if mark:
            body = body[:-1]
        if not overlong and len(chars) + len(body) > MAX_COMMAND_LENGTH:
            # Bounded before built: no place is kept for a command that cannot be read.
            problems.append(
                Problem(
                    source, start, 1, f"a command longer than {MAX_COMMAND_LENGTH:,} characters"
                )
            )
            overlong = True
            chars, places = [], []
        if not overlong:
            chars.extend(body)
            places.extend((number, first + i + 1) for i in range(len(body)))
        continuing = mark
        if mark:
            mark_at = (number, len(line))
            continue
        if not overlong:
            found.append(Chars("".join(chars), tuple(places), start))
        chars, places, overlong = [], [], False
    if continuing:
        problems.append(
            Problem(source, *mark_at, "the last command ends with a continuation character")
        )
    return found, problems


def items(command: Chars, source: str) -> tuple[list[Item], list[Problem]]:
    """Split one command into words and ``WORD(value)`` items."""
    text, places = command.text, command.places
    out: list[Item] = []
    problems: list[Problem] = []
    i, n = 0, len(text)

    def place(k: int) -> tuple[int, int]:
        return places[min(k, n - 1)] if n else (command.line, 1)

    while i < n:
        if text[i] in _BLANKS:
            i += 1
            continue
        if text[i] in _SPECIAL:
            line, col = place(i)
            problems.append(Problem(source, line, col, f"unexpected {text[i]!r}"))
            return out, problems
        j = i
        while j < n and text[j] not in _BLANKS and text[j] not in _SPECIAL:
            j += 1
        word = text[i:j].upper()
        line, col = place(i)
        k = j
        while k < n and text[k] in _BLANKS:
            k += 1
        if k >= n or text[k] != "(":
            out.append(Item(word, None, False, line, col, col))
            i = j
            continue
        if word == "WHERE":  # WHERE(keyword op value): blanks inside, kept as written
            value, quoted, end, problem = _condition(text, k + 1)
        else:
            value, quoted, end, problem = _value(text, k + 1)
        value_col = place(k + 1)[1]
        if problem:
            problems.append(Problem(source, *place(min(end, n - 1)), f"{word}: {problem}"))
            return out, problems
        out.append(Item(word, value, quoted, line, col, value_col))
        i = end
    return out, problems


def _value(text: str, i: int) -> tuple[str, bool, int, str]:
    """The value from ``i`` (just after '(') to its ')': (value, quoted, next, problem)."""
    n = len(text)
    while i < n and text[i] in _BLANKS:
        i += 1
    if i < n and text[i] == "'":
        chars: list[str] = []
        i += 1
        while True:
            if i >= n:
                return "", True, n, "a quoted value has no closing quote"
            if text[i] == "'":
                if i + 1 < n and text[i + 1] == "'":
                    chars.append("'")
                    i += 2
                    continue
                i += 1
                break
            chars.append(text[i])
            i += 1
        while i < n and text[i] in _BLANKS:
            i += 1
        if i >= n or text[i] != ")":
            return "", True, i, "expected ')' after the quoted value"
        return "".join(chars), True, i + 1, ""
    j = i
    while j < n and text[j] not in ")(' ":
        j += 1
        if text[j - 1] == ",":  # a list (NAMES(A, B)): blanks after a comma are no end
            while j < n and text[j] in _BLANKS:
                j += 1
    value = text[i:j]
    k = j
    while k < n and text[k] in _BLANKS:
        k += 1
    if k >= n or text[k] != ")":
        return "", False, k, "expected ')' to close the value"
    return value.upper(), False, k + 1, ""


def _condition(text: str, i: int) -> tuple[str, bool, int, str]:
    """WHERE's condition from ``i`` to its ')': the text as written (a quoted value's
    case and blanks kept), for the DISPLAY reader to split."""
    n, j, quoted = len(text), i, False
    while j < n and (quoted or text[j] != ")"):
        if text[j] == "'":
            quoted = not quoted
        j += 1
    if quoted:
        return "", True, n, "a quoted value has no closing quote"
    if j >= n:
        return "", False, n, "expected ')' to close the value"
    return text[i:j].strip(), False, j + 1, ""
