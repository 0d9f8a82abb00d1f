"""Writes qsg.ibm's constant modules from their one source, ``qsg/ibm/source/``.

    python -m qsg.ibm.generate            # rewrites qsg/ibm/CMQC.py, CMQCFC.py, CMQXC.py, CMQZC.py
    python -m qsg.ibm.generate --out DIR  # writes them into DIR instead

The source, kept in the repository (docs/constants.md):

* ``source/pymqi-1.12.11/``: pymqi 1.12.11's ``CMQC``, ``CMQCFC``, ``CMQXC`` and ``CMQZC``,
  verbatim, with pymqi's licence. pymqi generated them from IBM MQ 9.2.5's C headers on
  Windows.
* ``source/linux-9.4/``: what IBM's headers on Linux x64 (MQ 9.4) say otherwise: Linux's
  value where pymqi's is Windows's, in pymqi's place, and the names added since 9.2.5, at
  the end.

The source is read with ``ast``, never run. Each constant is written out again from its
expression, as ``ruff format`` would write it: a number as the header spells it (hex stays
hex), ``ord("c")`` for a one-character MQCHAR (IBM's header has a C character constant,
an ``int``), ``bytes`` for the character strings, an earlier name or ``|`` of names.
pymqi's ``py23long(x)`` (a Python 2 relic) is written as ``x``. The pointer-size branch
(``if calcsize("P") == 8``) and pymqi's comments are kept. tests/test_ibm_constants.py
regenerates into a temporary directory and fails when a module here differs by a byte.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import textwrap
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "source"
PYMQI = SOURCE / "pymqi-1.12.11"
LINUX = SOURCE / "linux-9.4"

#: Each generated module, the IBM header it holds and what that header declares.
HEADERS: dict[str, tuple[str, str]] = {
    "CMQC": ("cmqc.h", "the MQI's options, reason codes, structure ids and lengths"),
    "CMQCFC": ("cmqcfc.h", "PCF and the command server (MQCMD_*, MQCACF_*, MQRCCF_*...)"),
    "CMQXC": ("cmqxc.h", "channels and exits (MQCD_*, MQCXP_*, MQXCC_*, MQXR_*...)"),
    "CMQZC": ("cmqzc.h", "installable services (MQZED_*, MQZAD_*, MQZAO_*...)"),
}

LINE_LENGTH = 100  # pyproject.toml's [tool.ruff] line-length
POINTER_TEST = 'calcsize("P") == 8'


# A source the generator cannot read is a ValueError naming the file and line: this is a
# developer's tool below every layer (it imports nothing of qsg, so not qsg.QSGError).


# ---- reading ------------------------------------------------------------------


@dataclass(frozen=True)
class Constant:
    name: str
    expr: ast.expr
    comment: str  # a comment at the end of its line in the source ("" for none)


@dataclass(frozen=True)
class Comment:
    text: str  # "" for a blank line


@dataclass(frozen=True)
class PointerSize:
    """pymqi's ``if calcsize("P") == 8:`` block: 64-bit values, then 32-bit ones."""

    wide: tuple[Constant | Comment, ...]
    before_else: tuple[Comment, ...]
    narrow: tuple[Constant | Comment, ...]


Item = Constant | Comment | PointerSize


@dataclass(frozen=True)
class Source:
    path: Path
    lines: tuple[str, ...]
    items: tuple[Item, ...]


def read(path: Path) -> Source:
    """The constants, comments and pointer-size block of one source module, in order."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    comments = {
        token.start[0]: token.string.rstrip()
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    }

    def where(line: int) -> str:
        return f"{path}:{line}"

    def between(first: int, last: int) -> list[Comment]:
        """The comment and blank lines from line ``first`` to ``last`` (1-based, inclusive)."""
        return [Comment(comments.get(n, "")) for n in range(first, last + 1)]

    def constant(node: ast.stmt) -> Constant:
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            raise ValueError(f"{where(node.lineno)}: not NAME = VALUE")
        return Constant(node.targets[0].id, node.value, comments.get(node.end_lineno or 0, ""))

    def block(body: Sequence[ast.stmt], start: int) -> tuple[list[Constant | Comment], int]:
        out: list[Constant | Comment] = []
        line = start
        for node in body:
            out += between(line, node.lineno - 1)
            out.append(constant(node))
            line = (node.end_lineno or node.lineno) + 1
        return out, line

    module = ast.parse(text, filename=str(path))
    pointer_test = ast.dump(ast.parse(POINTER_TEST, mode="eval").body)
    items: list[Item] = []
    line = 1
    for node in module.body:
        items += between(line, node.lineno - 1)
        line = (node.end_lineno or node.lineno) + 1
        if isinstance(node, ast.ImportFrom) and ast.unparse(node) == "from struct import calcsize":
            continue  # written again where the pointer-size block needs it
        if isinstance(node, ast.FunctionDef) and node.name == "py23long":
            continue  # its calls are written as their argument
        if not isinstance(node, ast.If):
            items.append(constant(node))
            continue
        if ast.dump(node.test) != pointer_test or not node.orelse:
            raise ValueError(f"{where(node.lineno)}: an if other than {POINTER_TEST}, else")
        wide, after = block(node.body, node.lineno + 1)
        else_line = next(
            n
            for n in range(after, node.orelse[0].lineno)
            if lines[n - 1].strip().startswith("else")
        )
        before_else = between(after, else_line - 1)
        narrow, line = block(node.orelse, else_line + 1)
        items.append(PointerSize(tuple(wide), tuple(before_else), tuple(narrow)))
    return Source(path, tuple(lines), tuple(items))


# ---- values -------------------------------------------------------------------


Value = int | bytes | list[bytes]


def evaluate(expr: ast.expr, known: dict[str, Value], where: str) -> Value:
    """What ``expr`` means, without running it (the forms ``render`` writes)."""
    match expr:
        case ast.Constant(value=bool()):
            pass
        case ast.Constant(value=int() | bytes() as value):
            return value
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int() as value)):
            return -value
        case ast.Call(func=ast.Name(id="ord"), args=[ast.Constant(value=str() as char)]):
            return ord(char)
        case ast.Call(func=ast.Name(id="py23long"), args=[argument]):
            return evaluate(argument, known, where)
        case ast.Name(id=name) if name in known:
            return known[name]
        case ast.BinOp(op=ast.BitOr(), left=left, right=right):
            a, b = evaluate(left, known, where), evaluate(right, known, where)
            if isinstance(a, int) and isinstance(b, int):
                return a | b
        case ast.List(elts=elements):
            values = [evaluate(e, known, where) for e in elements]
            if all(isinstance(v, bytes) for v in values):
                return [v for v in values if isinstance(v, bytes)]
    raise ValueError(f"{where}: a value the generator does not read: {ast.unparse(expr)}")


# ---- writing ------------------------------------------------------------------


def render(expr: ast.expr, lines: Sequence[str]) -> str:
    """``expr`` (from the source's ``lines``) as ruff writes it."""
    match expr:
        case ast.Constant(value=bytes() as value):
            return render_bytes(value)
        case ast.Constant(value=int()):
            # A number is spelled on one line (columns count bytes: the source is ASCII).
            line = lines[expr.lineno - 1].encode()
            return render_number(line[expr.col_offset : expr.end_col_offset].decode())
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return "-" + render(operand, lines)
        case ast.Call(func=ast.Name(id="ord"), args=[ast.Constant(value=str() as char)]):
            return f"ord({render_bytes(char.encode('latin-1'))[1:]})"
        case ast.Call(func=ast.Name(id="py23long"), args=[argument]):
            return render(argument, lines)
        case ast.Name(id=name):
            return name
        case ast.BinOp(op=ast.BitOr(), left=left, right=right):
            return f"{render(left, lines)} | {render(right, lines)}"
        case ast.List(elts=elements):
            return "[" + ", ".join(render(e, lines) for e in elements) + "]"
    raise ValueError(f"a value the generator does not write: {ast.unparse(expr)}")


def render_number(literal: str) -> str:
    """A number as written in the header, in ruff's spelling (``0x`` then upper-case digits)."""
    if literal[:2].lower() == "0x":
        return "0x" + literal[2:].upper()
    return literal


def render_bytes(value: bytes) -> str:
    """A bytes literal in pymqi's spelling (``\\0`` for NUL) and ruff's double quotes."""
    out = []
    for i, byte in enumerate(value):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        elif byte == 0 and not value[i + 1 : i + 2].isdigit():
            out.append("\\0")
        else:
            out.append(f"\\x{byte:02x}")
    return 'b"' + "".join(out) + '"'


def statement(c: Constant, lines: Sequence[str], indent: str) -> list[str]:
    """``name = value`` as ruff writes it: a list too long for a line one element a line,
    a string too long in pieces of 16 bytes (pymqi's), in parentheses."""
    value = render(c.expr, lines)
    suffix = f"  {c.comment}" if c.comment else ""
    line = f"{indent}{c.name} = {value}{suffix}"
    if len(line) <= LINE_LENGTH:
        return [line]
    inner = indent + "    "
    match c.expr:
        case ast.List(elts=elements):
            parts = [f"{inner}{render(e, lines)}," for e in elements]
            return [f"{indent}{c.name} = [{suffix}", *parts, f"{indent}]"]
        case ast.Constant(value=bytes() as data) if not suffix:
            pieces = [data[i : i + 16] for i in range(0, len(data), 16)]
            return [
                f"{indent}{c.name} = (",
                *(f"{inner}{render_bytes(p)}" for p in pieces),
                f"{indent})",
            ]
    raise ValueError(f"{c.name}: longer than {LINE_LENGTH} characters: {line}")


def comment_lines(comments: Sequence[Comment], indent: str, blanks: int) -> list[str]:
    """Comment lines at ``indent``, runs of blank lines cut to ``blanks`` (as ruff cuts them)."""
    out: list[str] = []
    run = 0
    for c in comments:
        if c.text:
            out.append(indent + normal_comment(c.text.lstrip()))
            run = 0
        elif run < blanks:
            out.append("")
            run += 1
    return out


def normal_comment(text: str) -> str:
    """``#x`` as ruff writes it, ``# x`` (``#!``, ``#:`` and ``#'`` stay)."""
    if text[1:2] in ("", " ", "!", ":", "#", "'"):
        return text
    return "# " + text[1:]


@dataclass(frozen=True)
class Overlay:
    values: dict[str, Constant]  # a name pymqi has, with Linux's value
    added: tuple[Constant, ...]  # names pymqi lacks, in the overlay's order


def overlay_of(path: Path, pymqi_names: set[str]) -> tuple[Overlay, Source | None]:
    """The overlay at ``path`` (none when there is no such file), split into the values it
    replaces and the names it adds."""
    if not path.exists():
        return Overlay({}, ()), None
    source = read(path)
    values: dict[str, Constant] = {}
    added: list[Constant] = []
    for item in source.items:
        if isinstance(item, PointerSize):
            raise ValueError(f"{path}: a pointer-size block (give 64-bit values)")
        if isinstance(item, Constant):
            if item.name in pymqi_names:
                values[item.name] = item
            else:
                added.append(item)
    return Overlay(values, tuple(added)), source


def generate(header: str, linux_dir: Path = LINUX) -> str:
    """The text of qsg/ibm/``header``.py (with the overlay of ``linux_dir``)."""
    pymqi = read(PYMQI / f"{header}.py")
    names = {c.name for c in constants(pymqi.items)}
    overlay, linux = overlay_of(linux_dir / f"{header}.py", names)
    check(pymqi, overlay, linux)
    c_header, what = HEADERS[header]
    about = (
        "Generated by ``python -m qsg.ibm.generate``: do not edit by hand (docs/constants.md "
        f"says how to change a value). Its source: pymqi 1.12.11's {header} "
        f"(qsg/ibm/source/pymqi-1.12.11/{header}.py, which pymqi generated from IBM MQ 9.2.5's "
        f"{c_header} on Windows)"
    )
    if linux:
        about += (
            f", and IBM's {c_header} on Linux x64 (MQ 9.4) where it says otherwise "
            f"(qsg/ibm/source/linux-9.4/{header}.py): Linux's values in pymqi's place, and "
            "the names added since 9.2.5 at the end"
        )
    out = [
        f'"""IBM MQ\'s constants of {c_header}: {what}.',
        "",
        *textwrap.wrap(about + ".", width=LINE_LENGTH - 12, break_on_hyphens=False),
        '"""',
        "",
    ]
    if any(isinstance(item, PointerSize) for item in pymqi.items):
        out += ["from struct import calcsize", ""]
    body: list[str] = []
    pending: list[Comment] = []

    def flush(indent: str, blanks: int) -> None:
        body.extend(comment_lines(pending, indent, blanks))
        pending.clear()

    def write(c: Constant, indent: str) -> None:
        replaced = overlay.values.get(c.name)
        if replaced is not None:
            body.extend(statement(replaced, linux_lines, indent))
        else:
            body.extend(statement(c, pymqi.lines, indent))

    linux_lines = linux.lines if linux else ()
    for item in pymqi.items:
        if isinstance(item, Comment):
            pending.append(item)
        elif isinstance(item, Constant):
            flush("", 2)
            write(item, "")
        else:
            flush("", 2)
            body.append(f"if {POINTER_TEST}:")
            for inner in item.wide:
                if isinstance(inner, Comment):
                    pending.append(inner)
                else:
                    flush("    ", 1)
                    write(inner, "    ")
            pending.clear()  # blank lines at the end of a block: ruff drops them
            body.extend(comment_lines(item.before_else, "", 0))
            body.append("else:")
            for inner in item.narrow:
                if isinstance(inner, Comment):
                    pending.append(inner)
                else:
                    flush("    ", 1)
                    write(inner, "    ")
            pending.clear()
    pending.clear()
    if overlay.added:
        body += [
            "",
            f"# ---- added in IBM MQ 9.3 and 9.4, from IBM's {c_header} on Linux x64",
            f"# (qsg/ibm/source/linux-9.4/{header}.py)",
        ]
        for c in overlay.added:
            body.extend(statement(c, linux_lines, ""))
    while body and not body[0]:
        body.pop(0)
    lines = out + body
    for n, line in enumerate(lines, 1):
        if len(line) > LINE_LENGTH:
            raise ValueError(f"{header}.py:{n} is longer than {LINE_LENGTH} characters: {line}")
    return "\n".join(lines).rstrip("\n") + "\n"


def constants(items: Sequence[Item]) -> Iterator[Constant]:
    for item in items:
        if isinstance(item, Constant):
            yield item
        elif isinstance(item, PointerSize):
            yield from (c for c in item.wide if isinstance(c, Constant))
            yield from (c for c in item.narrow if isinstance(c, Constant))


def check(pymqi: Source, overlay: Overlay, linux: Source | None) -> None:
    """Every value reads; the overlay replaces only values that differ, adds only new names."""
    known: dict[str, Value] = {}
    for c in constants(pymqi.items):
        known[c.name] = evaluate(c.expr, known, f"{pymqi.path}: {c.name}")
    for name, c in overlay.values.items():
        if evaluate(c.expr, known, f"{linux and linux.path}: {name}") == known[name]:
            raise ValueError(f"{linux and linux.path}: {name} is pymqi's value already")
    seen: set[str] = set()
    for c in overlay.added:
        if c.name in seen:
            raise ValueError(f"{linux and linux.path}: {c.name} twice")
        seen.add(c.name)
        known[c.name] = evaluate(c.expr, known, f"{linux and linux.path}: {c.name}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m qsg.ibm.generate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--out", type=Path, default=HERE, help="where to write the modules (default: qsg/ibm)"
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for header in HEADERS:
        path = args.out / f"{header}.py"
        path.write_text(generate(header), encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
