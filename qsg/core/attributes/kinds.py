"""The kinds of value an attribute takes, and how each is written in every door.

A record (``QueueDefinition``, ``ChannelDefinition``, ...) keeps an attribute's value in
its own form; MQSC writes it as a word or a number (``PUT(DISABLED)``, ``MAXDEPTH(10)``,
``SHARE``), PCF and MQINQ as an MQ constant or a string (MQQA_PUT_INHIBITED, 10,
``b"APP.IN  ..."``). Each kind converts between them and checks a value as IBM's MQSC
reference bounds it ("DEFINE QLOCAL", "DEFINE CHANNEL", ...), raising ``ValueError``
saying what was wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from qsg.core.offload import format_size, parse_size
from qsg.core.queue import check_name

#: What PCF carries and MQINQ returns before padding: an MQ constant, a number or a string.
Wire = int | str


def quoted(text: str, longest: int = 40) -> str:
    """``text`` as a problem quotes it: its repr, cut after ``longest`` characters."""
    if len(text) <= longest:
        return repr(text)
    return f"{text[:longest]!r}... ({len(text):,} characters)"


class Kind(Protocol):
    """How one attribute's values are read, shown and carried."""

    @property
    def length(self) -> int:
        """MQ's length of a string attribute (MQINQ pads to it); 0 for an integer."""
        ...

    @property
    def words(self) -> Mapping[str, int] | None:
        """An enumeration's MQSC words and the MQ constant of each; None otherwise."""
        ...

    def parse(self, text: str, quoted: bool) -> Any:
        """The record's value of an MQSC value (``quoted``: written in quotes)."""
        ...

    def shown(self, value: Any) -> str | int:
        """The record's value as DISPLAY shows it."""
        ...

    def wire(self, value: Any) -> Wire:
        """The record's value as PCF carries it and MQINQ returns it."""
        ...

    def text(self, wire: Wire) -> str | None:
        """The MQSC text of a PCF or MQSET value (None: no value of this kind)."""
        ...


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number in ``low..high``, or one of ``special``'s words (``OFF``,
    ``NOLIMIT``) for the number it stands for."""

    low: int
    high: int
    special: Mapping[str, int] = field(default_factory=dict)
    length: int = 0
    words: Mapping[str, int] | None = None

    def parse(self, text: str, quoted_: bool) -> int:
        if not quoted_ and text in self.special:
            return self.special[text]
        if not text.isdigit():
            raise ValueError(f"{quoted(text)} is not a whole number")
        if len(text) > 18:  # past any MQLONG, and past what int() converts quickly
            raise ValueError(f"{quoted(text, 12)} is not in {self.low}..{self.high}")
        number = int(text)
        if not self.low <= number <= self.high:
            raise ValueError(f"{number} is not in {self.low}..{self.high}")
        return number

    def shown(self, value: Any) -> str | int:
        for word, number in self.special.items():
            if value == number:
                return word
        return int(value)

    def wire(self, value: Any) -> Wire:
        return int(value)

    def text(self, wire: Wire) -> str | None:
        if not isinstance(wire, int) or isinstance(wire, bool):
            return None
        for word, number in self.special.items():
            if wire == number:
                return word
        return str(wire)


@dataclass(frozen=True, slots=True)
class Choice:
    """One of IBM's words, each an MQ constant (``PUT(ENABLED|DISABLED)``). ``stored``
    gives the record's value of each word where the record keeps another than the
    constant (a CF structure's RECOVER is a bool). ``bare``: the words are written
    alone (``SHARE`` / ``NOSHARE``, ``TRIGGER`` / ``NOTRIGGER``). ``refused``: IBM's
    words qsg does not take, each with why (AUTHOREV(ENABLED), "Not valid on z/OS")."""

    values: Mapping[str, int]
    stored: Mapping[str, Any] | None = None
    bare: bool = False
    length: int = 0
    refused: Mapping[str, str] | None = None

    @property
    def words(self) -> Mapping[str, int]:
        return self.values

    def parse(self, text: str, quoted_: bool) -> Any:
        why = (self.refused or {}).get(text)
        if why is not None and not quoted_:
            raise ValueError(f"{text} {why}")
        if quoted_ or text not in self.values:
            raise ValueError(f"{quoted(text)} is not one of {', '.join(self.values)}")
        return self._record(text)

    def _record(self, word: str) -> Any:
        return self.values[word] if self.stored is None else self.stored[word]

    def word(self, value: Any) -> str:
        """The word of a record's value."""
        for word in self.values:
            if self._record(word) == value:
                return word
        raise ValueError(f"{value!r} is not a value of {', '.join(self.values)}")

    def shown(self, value: Any) -> str | int:
        return self.word(value)

    def wire(self, value: Any) -> Wire:
        return self.values[self.word(value)]

    def text(self, wire: Wire) -> str | None:
        for word, constant in self.values.items():
            if constant == wire and isinstance(wire, int):
                return word
        return None

    def record(self, wire: int) -> Any:
        """The record's value of an MQ constant (ValueError if it is none of them)."""
        text = self.text(wire)
        if text is None:
            raise ValueError(f"{wire} is not one of {', '.join(self.values)}")
        return self._record(text)


@dataclass(frozen=True, slots=True)
class Text:
    """A string of at most ``length`` characters; with ``name``, an MQ object name of
    that length (A-Z a-z 0-9 . / _ %, or blank for none)."""

    length: int
    name: str = ""  # what the name names, for the error ("INITQ queue")
    words: Mapping[str, int] | None = None

    def parse(self, text: str, quoted_: bool) -> str:
        if self.name:
            value = text.rstrip()
            if value:
                check_name(value, self.name, self.length)
            return value
        if len(text) > self.length:
            raise ValueError(f"longer than {self.length} characters")
        return text

    def shown(self, value: Any) -> str | int:
        return str(value)

    def wire(self, value: Any) -> Wire:
        return str(value)

    def text(self, wire: Wire) -> str | None:
        return wire if isinstance(wire, str) else None


@dataclass(frozen=True, slots=True)
class Size:
    """OFFLDnSZ: a size in K, 0K..64K, written ``32K`` in MQSC and in PCF alike; the
    record keeps KB."""

    length: int = 8
    words: Mapping[str, int] | None = None

    def parse(self, text: str, quoted_: bool) -> int:
        if quoted_:
            raise ValueError(f"{quoted(text)} is not a size in K (0K..64K), such as 32K")
        return parse_size(text)

    def shown(self, value: Any) -> str | int:
        return format_size(int(value))

    def wire(self, value: Any) -> Wire:
        return format_size(int(value))

    def text(self, wire: Wire) -> str | None:
        return wire if isinstance(wire, str) else None


@dataclass(frozen=True, slots=True)
class Numbered:
    """A number that also has names (APPLTYPE: ``CICS`` is 1, or a user's 65536..):
    DISPLAY shows the name where there is one."""

    names: Mapping[str, int]
    low: int = 0
    high: int = 999_999_999
    length: int = 0
    words: Mapping[str, int] | None = None

    def parse(self, text: str, quoted_: bool) -> int:
        if text.upper() in self.names:
            return self.names[text.upper()]
        return Number(self.low, self.high).parse(text, quoted_)

    def shown(self, value: Any) -> str | int:
        for name, number in self.names.items():
            if number == value:
                return name
        return int(value)

    def wire(self, value: Any) -> Wire:
        return int(value)

    def text(self, wire: Wire) -> str | None:
        return str(wire) if isinstance(wire, int) else None


@dataclass(frozen=True, slots=True)
class Names:
    """NAMES(name, name, ...): at most ``most`` MQ object names of ``length`` characters
    each, written comma-separated in MQSC (``NAMES(APP.A,APP.B)``); the record keeps a
    tuple. PCF carries them as an MQCFSL, MQINQ as one string of ``length``-long names."""

    most: int = 256
    length: int = 48
    words: Mapping[str, int] | None = None

    def parse(self, text: str, quoted_: bool) -> tuple[str, ...]:
        names = tuple(n.strip() for n in text.split(",") if n.strip())
        if len(names) > self.most:
            raise ValueError(f"{len(names)} names: at most {self.most}")
        for name in names:
            check_name(name, "name", self.length)
        return names

    def shown(self, value: Any) -> str | int:
        return ",".join(value)

    def wire(self, value: Any) -> Wire:
        return ",".join(value)

    def text(self, wire: Wire) -> str | None:
        return wire if isinstance(wire, str) else None


__all__ = ["Choice", "Kind", "Names", "Number", "Numbered", "Size", "Text", "Wire", "quoted"]
