"""docs/mqsc.md's list of attributes, written from the attribute table.

``section()`` is the list as Markdown: one table per family of objects, each keyword
once, with the object types that take it, its values and IBM's default, its PCF
parameter (and whether MQINQ reads it and MQSET changes it), and what it does in qsg or
why a simulation keeps it without effect. ``python -m qsg.mqsc.doc`` writes it into
docs/mqsc.md between its markers; tests/test_attribute_table.py fails when they differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import attributes as table
from qsg.core.attributes.attribute import KEPT, Attribute
from qsg.core.attributes.kinds import Choice, Names, Number, Numbered, Size, Text
from qsg.core.attributes.objects import CHLTYPE

BEGIN = "<!-- the attribute table: written by python -m qsg.mqsc.doc -->"
END = "<!-- end of the attribute table -->"
FAMILIES = (
    ("Queues", ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE")),
    ("Channels", ("CHANNEL",)),
    ("CF structures", ("CFSTRUCT",)),
    ("Processes", ("PROCESS",)),
    ("The queue manager", ("QMGR",)),
    ("Namelists", ("NAMELIST",)),
    ("Storage classes", ("STGCLASS",)),
)
_ABBREVIATIONS = {"QLOCAL": "L", "QMODEL": "M", "QALIAS": "A", "QREMOTE": "R"}


def _identifier(a: Attribute) -> str:
    """IBM's name of the row's parameter identifier (MQCA_* for a string, MQIA_* for an
    integer: one number can name both)."""
    string = a.kind.length > 0
    prefixes = ("MQCA_", "MQCACH_", "MQCACF_") if string else ("MQIA_", "MQIACH_", "MQIACF_")
    for module in (CMQC, F):
        for name, value in vars(module).items():
            wanted = value == a.parameter and name.startswith(prefixes)
            if wanted and not name.endswith(("_FIRST", "_LAST")):
                return name
    return str(a.parameter)


def _values(a: Attribute) -> str:
    others = "".join(
        f"; {chltype}: **{a.kind.shown(value)}**" for chltype, value in a.type_defaults
    )
    return _kind_values(a) + others


def _kind_values(a: Attribute) -> str:
    kind = a.kind
    if isinstance(kind, Choice):
        words = list(kind.values)
        default = kind.word(a.default) if a.default is not None else ""
        return " \\| ".join(f"**{w}**" if w == default else w for w in words)
    if isinstance(kind, Number):
        special = "".join(f" or {w}" for w in kind.special)
        return f"{kind.low}..{kind.high}{special} (**{kind.shown(a.default)}**)"
    if isinstance(kind, Numbered):
        return f"{', '.join(kind.names)} or {kind.low}..{kind.high} (**{kind.shown(a.default)}**)"
    if isinstance(kind, Size):
        return f"0K..64K (**{kind.shown(a.default)}**)"
    if isinstance(kind, Names):
        return f"up to {kind.most} names of {kind.length} characters, comma-separated"
    if isinstance(kind, Text):
        what = "a name" if kind.name else "text"
        default = f" (**{a.default}**)" if a.default else ""
        return f"{what}, {kind.length} characters{default}"
    return ""


def _access(a: Attribute) -> str:
    if not a.parameter:
        return ""
    doors = [_identifier(a)]
    if a.inquire:
        doors.append("MQINQ")
    if a.settable:
        doors.append("MQSET")
    return ", ".join(doors)


def _types(a: Attribute, kinds: tuple[str, ...]) -> str:
    if kinds == ("CHANNEL",):  # the channel types (CHLTYPE) that take it
        words = [w for w in CHLTYPE.values if w in a.channel_types]
        return " ".join(words) if words else "all"
    shown = [_ABBREVIATIONS[k] for k in kinds if k in a.objects]
    only = [_ABBREVIATIONS[k] for k in kinds if k in a.shown_on and k not in a.objects]
    return "".join(shown) + (f" (shown on {''.join(only)})" if only else "")


def _what(a: Attribute) -> str:
    if a.effect:
        return a.effect
    return f"{KEPT}: {a.why}" if a.why else KEPT


def section() -> str:
    """The attribute list, as docs/mqsc.md holds it between BEGIN and END."""
    lines = [BEGIN, ""]
    for title, kinds in FAMILIES:
        lines += [f"### {title}", ""]
        typed = len(kinds) > 1 or kinds == ("CHANNEL",)
        column = "CHLTYPE | " if kinds == ("CHANNEL",) else "types | "
        head = "| keyword | " + (column if typed else "") + "values (default) | PCF | in qsg |"
        lines += [head, "|---" * (5 if typed else 4) + "|"]
        seen: set[str] = set()
        for kind in kinds:
            for a in table.TABLE[kind]:
                if a.keyword in seen:
                    continue
                seen.add(a.keyword)
                keyword = " / ".join((a.keyword, *a.synonyms))
                if a.bare and isinstance(a.kind, Choice):
                    keyword = " / ".join(a.kind.values)
                if a.role == "status":
                    keyword += " (status)"
                cells = [keyword] + ([_types(a, kinds)] if typed else [])
                cells += [_values(a), _access(a), _what(a)]
                lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def update(path: Path) -> bool:
    """Write the section into ``path`` between its markers; True if it changed."""
    text = path.read_text()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + section() + text[end:]
    if new != text:
        path.write_text(new)
    return new != text


if __name__ == "__main__":
    changed = update(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/mqsc.md"))
    print("docs/mqsc.md: the attribute table " + ("written" if changed else "unchanged"))
