"""The README's and docs' examples run as written: a user copying them gets what they say.

The checks. Every Python block of README.md and docs/ runs (each prints what it shows),
unless a ``<!-- fragment -->`` line right above its fence says it is a piece of a
program (a structure's definition with ``...``, a call on a directory of yours). Every
``qsg`` and ``./dev`` command in a shell block parses: its subcommand and options exist
and the files it names are there (cheap, for every block). The blocks marked runnable,
a ``<!-- runnable -->`` line right above the fence, run in order on a temporary copy of
the repository, each with exit status 0 (slow: they play scenarios and start Spark); a
document whose runnable commands open an earlier document's block (docs/pipeline.md's,
the README's) is kept by that block's run, not played twice. A
block is left unmarked only when it runs for many minutes (chaos campaigns of 30 runs,
the 12-point sweep, runs across processes) or needs what a fresh machine has not (a
Redis server of your own, a terminal); the commands in them are parsed all the same,
and their behaviour has tests of its own. A console session shown (``QM2> `` lines and
the replies under them) is what ``qsg mqsc`` prints. And the documents hold together:
each renders as Markdown (no table cut by a blank line, no fence left open), every
relative link reaches a file of the repository (and a heading of it, for an anchor),
and docs/README.md lists every document of docs/.
"""

from __future__ import annotations

import glob
import hashlib
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt
from markdown_it.token import Token

from qsg.commands.cli import main
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
INDEX = ROOT / "docs" / "README.md"
DOCS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
#: ``./dev``'s jobs (its case statement).
DEV_JOBS = {"run", "qsg", "test", "lint", "bench", "mutate"}
#: CommonMark with GitHub's tables, as GitHub renders a Markdown file.
MARKDOWN = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class Block:
    """A fenced code block of a Markdown file."""

    path: Path
    line: int  # of the opening fence
    lang: str
    code: str
    runnable: bool
    fragment: bool = False

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of ``path``, in order."""
    found = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        start, lang = i, fence.group(1)
        i += 1
        while i < len(lines) and lines[i] != "```":
            i += 1
        marker = lines[start - 1].strip() if start > 0 else ""
        code = "\n".join(lines[start + 1 : i]) + "\n"
        found.append(
            Block(
                path,
                start + 1,
                lang,
                code,
                runnable=marker == "<!-- runnable -->",
                fragment=marker == "<!-- fragment -->",
            )
        )
        i += 1
    return found


SHELL = [b for path in DOCS for b in blocks(path) if b.lang == "sh"]
RUNNABLE = {path: [b for b in blocks(path) if b.runnable] for path in DOCS}
#: The Python examples: every Python block but the runnable ones (which run on a copy,
#: after the commands before them) and the fragments.
EXAMPLES = [
    b
    for path in DOCS
    for b in blocks(path)
    if b.lang == "python" and not b.runnable and not b.fragment
]


def commands(block: Block) -> list[list[str]]:
    """Each simple command of a shell block, as words (comments and ``;`` split off)."""
    out = []
    for line in block.code.replace("\\\n", " ").splitlines():  # continued lines joined
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";|&<>")
        lexer.whitespace_split, lexer.commenters = True, "#"
        command: list[str] = []
        redirect = False
        for word in [*lexer, ";"]:
            if word in (";", "|", "&&", "||"):
                if command:
                    out.append(command)
                command = []
            elif word in (">", ">>", "<", "2>", ">&"):
                redirect = True  # the next word is a file, not an argument
            elif redirect:
                redirect = False
            else:
                command.append(word)
    return out


def parse_qsg(args: list[str]) -> None:
    """Parse ``qsg ARGS`` as click would run it (without running it)."""
    if {"--help", "-h", "--version"} & set(args):
        return
    name, *rest = args  # the group itself takes no option but --help and --version
    ctx = click.Context(main, info_name="qsg")
    command = main.get_command(ctx, name)
    assert command is not None, f"qsg has no command {name!r}"
    command.make_context(name, rest, parent=ctx)


def files_named(args: list[str]) -> list[str]:
    """The arguments naming shipped files (scenarios, docs) and whether they exist."""
    named = []
    for word in args:
        if word.startswith(("scenarios/", "docs/", "bench/")):
            matches = glob.glob(str(ROOT / word))
            assert matches, f"{word} names no file of the repository"
            named += matches
    return named


def test_the_readme_and_docs_have_runnable_blocks() -> None:
    assert RUNNABLE[README] and sum(len(b) for b in RUNNABLE.values()) >= 5


@pytest.mark.parametrize("block", SHELL, ids=lambda b: b.name)
@keeps("docs/development.md", "every `qsg` and `./dev` command in them parses")
def test_every_command_of_a_shell_block_parses(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In a directory like the repository's, where what earlier commands of the block
    # write (``--out DIR``) is there for the later ones that read it.
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    for words in commands(block):
        for option, value in itertools.pairwise(words):
            if option == "--out":
                (tmp_path / value).mkdir(parents=True, exist_ok=True)
        if words[0] == "qsg":
            files_named(words[1:])
            try:
                parse_qsg(words[1:])
            except click.ClickException as error:
                pytest.fail(f"{block.name}: {shlex.join(words)}: {error.format_message()}")
        elif words[0] == "./dev":
            assert words[1] in DEV_JOBS, f"{block.name}: ./dev has no job {words[1]!r}"
            if words[1] == "qsg":
                parse_qsg(words[2:])
            files_named(words[2:])


@keeps("docs/development.md", "every `qsg` and `./dev` command in them parses")
def test_the_parser_catches_an_option_that_does_not_exist() -> None:
    with pytest.raises(click.NoSuchOption):
        parse_qsg(["run", "scenarios/capacity.toml", "--durration", "5"])


def _copy(tmp_path: Path) -> Path:
    """The repository as a fresh clone has it (plus this environment's .venv, linked)."""
    copy = tmp_path / "repo"
    ignore = shutil.ignore_patterns(
        ".venv",
        ".git",
        "runs",
        "sweeps",
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
    )
    shutil.copytree(ROOT, copy, ignore=ignore)
    # This environment's .venv, entry by entry, with the stamp ./dev looks for (that
    # pyproject.toml is installed): linking the .venv itself let ./dev reinstall the
    # project into it from the copy whenever the stamps differed, leaving the real
    # environment's `qsg` pointing at a temporary directory once the test ended.
    venv = copy / ".venv"
    venv.mkdir()
    for entry in (ROOT / ".venv").iterdir():
        if not entry.name.startswith(".installed-"):
            (venv / entry.name).symlink_to(entry)
    digest = hashlib.sha256((copy / "pyproject.toml").read_bytes()).hexdigest()[:16]
    (venv / f".installed-{digest}").touch()
    return copy


def run_block(block: Block, where: Path) -> subprocess.CompletedProcess[str]:
    venv = ROOT / ".venv" / "bin"
    env = {**os.environ, "PATH": f"{venv}{os.pathsep}{os.environ['PATH']}"}
    env.pop("QSG_REDIS_URL", None)  # as on a fresh machine: the embedded server
    if block.lang == "python":
        argv = [sys.executable, "-c", block.code]
    else:
        argv = ["bash", "-euo", "pipefail", "-c", block.code]
    return subprocess.run(argv, cwd=where, env=env, capture_output=True, text=True, timeout=1800)


def command_lines(block: Block) -> list[tuple[str, ...]]:
    """A shell block's command lines as words, comments dropped (to compare blocks)."""
    code = block.code.replace("\\\n", " ")
    return [tuple(words) for line in code.splitlines() if (words := shlex.split(line, True))]


def run_first_by(path: Path) -> Block | None:
    """The runnable block of a document before ``path`` whose commands open with every
    command of ``path``'s runnable blocks (shell only), in order: those commands have
    then run on a copy of the repository already, and are not played a second time."""
    if not RUNNABLE[path] or any(b.lang != "sh" for b in RUNNABLE[path]):
        return None
    mine = [line for b in RUNNABLE[path] for line in command_lines(b)]
    for earlier in DOCS[: DOCS.index(path)]:
        for block in RUNNABLE[earlier]:
            if block.lang == "sh" and command_lines(block)[: len(mine)] == mine:
                return block
    return None


#: The documents whose runnable blocks run on a copy: all but those run first by another.
RUN_HERE = [p for p in DOCS if RUNNABLE[p] and run_first_by(p) is None]


def test_a_document_whose_commands_an_earlier_one_runs_first_is_kept_by_that_run() -> None:
    # docs/pipeline.md's block (a run kept, then qsg metrics) is the opening of the
    # README's: the same two commands, on a copy of the repository, in the same order.
    kept = {p: run_first_by(p) for p in DOCS if p not in RUN_HERE and RUNNABLE[p]}
    assert {str(p.relative_to(ROOT)): b.path for p, b in kept.items() if b} == {
        "docs/pipeline.md": README
    }
    assert all(b is not None and b.path in RUN_HERE for b in kept.values())
    assert README in RUN_HERE  # the README's own blocks always run


@pytest.mark.slow
@pytest.mark.parametrize("path", RUN_HERE, ids=lambda p: str(p.relative_to(ROOT)))
@keeps(
    "docs/development.md",
    "the blocks marked `<!-- runnable -->` run on a copy of the repository",
)
def test_the_runnable_blocks_run_in_order_on_a_copy_of_the_repository(
    path: Path, tmp_path: Path
) -> None:
    where = _copy(tmp_path)
    for block in RUNNABLE[path]:
        done = run_block(block, where)
        assert done.returncode == 0, (block.name, done.stdout[-3000:], done.stderr[-3000:])


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda b: b.name)
@keeps("docs/development.md", "their Python examples run")
def test_a_python_example_of_the_readme_or_docs_runs_and_prints(
    example: Block, capsys: pytest.CaptureFixture[str]
) -> None:
    exec(compile(example.code, example.name, "exec"), {})
    assert capsys.readouterr().out  # each example prints what it shows


def test_the_examples_moved_out_of_the_readme_are_still_run() -> None:
    # The rules layer, objects, the coupling facility, the world, triggering and what a
    # call decided: each document's examples are collected, none left as a fragment.
    named = {b.path.name for b in EXAMPLES}
    assert {"rules.md", "objects.md", "coupling-facility.md", "world.md", "triggering.md"} <= named


# -- A console session shown is what qsg mqsc prints ------------------------------------


@dataclass(frozen=True)
class Session:
    """A ``qsg mqsc`` command of a document and the console session shown after it."""

    block: Block
    args: list[str]
    commands: list[str]
    shown: list[str]  # the reply lines shown, each of which the console must print


def sessions(path: Path) -> list[Session]:
    """Each plain block of ``path`` whose lines start with ``QMn> ``, with the last
    ``qsg mqsc`` command of a shell block above it."""
    found: list[Session] = []
    args: list[str] = []
    for block in blocks(path):
        if block.lang == "sh":
            for words in commands(block):
                if words[:2] == ["qsg", "mqsc"]:
                    args = words[1:]
        elif block.lang == "" and re.match(r"^QM\d+> ", block.code):
            assert args, f"{block.name}: a console session with no qsg mqsc command above it"
            lines = block.code.splitlines()
            typed = [re.sub(r"^QM\d+> ", "", line) for line in lines if re.match(r"^QM\d+> ", line)]
            shown = [line for line in lines if line and not re.match(r"^QM\d+> ", line)]
            found.append(Session(block, args, typed, shown))
    return found


SESSIONS = [s for path in DOCS for s in sessions(path)]


def test_the_readme_and_the_mqsc_guide_show_console_sessions() -> None:
    assert {s.block.path.name for s in SESSIONS} >= {"README.md", "mqsc.md"}


@pytest.mark.slow
@pytest.mark.parametrize("session", SESSIONS, ids=lambda s: s.block.name)
def test_a_console_session_shown_is_what_qsg_mqsc_prints(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the documents' paths are the repository's
    monkeypatch.delenv("QSG_REDIS_URL", raising=False)
    typed = [c for c in session.commands if c != "end"]
    done = CliRunner().invoke(main, session.args, input="\n".join([*typed, "end", ""]))
    printed = [line.rstrip() for line in done.output.splitlines()]
    missing = [line for line in session.shown if line.rstrip() not in printed]
    assert missing == [], (session.block.name, done.output[-3000:])


# -- The documents hold together ---------------------------------------------------------


def slug(heading: Token) -> str:
    """The anchor GitHub gives a heading: its text, lower case, without punctuation,
    spaces as hyphens."""
    text = "".join(c.content for c in heading.children or [] if c.type in ("text", "code_inline"))
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of ``path``'s headings (a repeated one gets ``-1``, ``-2``...)."""
    tokens = MARKDOWN.parse(path.read_text())
    found: set[str] = set()
    for opening, inline in itertools.pairwise(tokens):
        if opening.type == "heading_open":
            name = slug(inline)
            repeat = 0
            while (f"{name}-{repeat}" if repeat else name) in found:
                repeat += 1
            found.add(f"{name}-{repeat}" if repeat else name)
    return found


def relative_links(path: Path) -> list[str]:
    """The targets of ``path``'s links and images that are not URLs."""
    targets = []
    for token in MARKDOWN.parse(path.read_text()):
        for child in token.children or []:
            target = child.attrs.get("href") or child.attrs.get("src")
            if isinstance(target, str) and not re.match(r"^[a-z][a-z0-9+.-]*:", target):
                targets.append(target)
    return targets


def broken_links(path: Path) -> list[str]:
    """Each relative link of ``path`` that reaches no file, or no heading of it."""
    broken = []
    for target in relative_links(path):
        name, _, anchor = target.partition("#")
        goal = (path.parent / name).resolve() if name else path
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{target}: no such heading")
    return broken


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
@keeps("docs/development.md", "every relative link resolves")
def test_every_relative_link_reaches_a_file_and_its_heading(path: Path) -> None:
    assert broken_links(path) == []


@keeps("docs/development.md", "every relative link resolves")
def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# There\n\n## The `[run]` table, sized\n")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "# Doc\n\n[a](there.md#the-run-table-sized), [b](gone.md), [c](there.md#nowhere),"
        " [d](#doc), [e](https://example.com/x.md), ![f](there.md)\n"
    )
    assert broken_links(doc) == ["gone.md: no such file", "there.md#nowhere: no such heading"]


@keeps("docs/development.md", "and [README.md](README.md) links every document.")
def test_the_docs_index_lists_every_document_of_docs() -> None:
    listed = {(INDEX.parent / t.partition("#")[0]).resolve() for t in relative_links(INDEX)}
    documents = {p.resolve() for p in (ROOT / "docs").rglob("*.md") if p != INDEX}
    assert sorted(str(p.relative_to(ROOT)) for p in documents - listed) == []


def unrendered(path: Path) -> list[str]:
    """What of ``path`` Markdown would not render as its author meant: a table row
    outside any table (a table cut by a blank line, or one without its header), a
    ``#`` line that is no heading, a fence that is never closed."""
    text = path.read_text()
    lines = text.splitlines()
    tokens = MARKDOWN.parse(text)
    in_code: set[int] = set()
    in_table: set[int] = set()
    headings: set[int] = set()
    problems = []
    for token in tokens:
        if token.map is None:
            continue
        start, end = token.map
        if token.type in ("fence", "code_block", "html_block"):
            in_code.update(range(start, end))
            if token.type == "fence" and (end > len(lines) or lines[end - 1].strip() != "```"):
                problems.append(f"line {start + 1}: a fence never closed")
        elif token.type == "table_open":
            in_table.update(range(start, end))
        elif token.type == "heading_open":
            headings.add(start)
    for number, line in enumerate(lines):
        if number in in_code:
            continue
        if line.startswith("|") and number not in in_table:
            problems.append(f"line {number + 1}: a table row outside a table")
        if line.startswith("#") and number not in headings:
            problems.append(f"line {number + 1}: a # line that is no heading")
    return problems


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_document_renders_as_markdown(path: Path) -> None:
    assert unrendered(path) == []
    assert path.read_text().startswith("# ")  # one title, on the first line


def test_the_render_check_finds_a_cut_table_an_open_fence_and_a_stray_hash(
    tmp_path: Path,
) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(
        "# Doc\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n\n#nothing\n\n```sh\nqsg\n"
    )
    assert unrendered(doc) == [
        "line 11: a fence never closed",
        "line 7: a table row outside a table",
        "line 9: a # line that is no heading",
    ]
