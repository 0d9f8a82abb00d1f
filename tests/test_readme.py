"""The README's and docs' examples run as written: a user copying them gets what they say.

Three checks. The README's Python examples run (each prints what it shows). Every
``qsg`` and ``./dev`` command in a shell block of README.md and docs/*.md parses: its
subcommand and options exist and the files it names are there (cheap, for every
block). And the blocks marked runnable, a ``<!-- runnable -->`` line right above the
fence, run in order on a temporary copy of the repository, each with exit status 0
(slow: they play scenarios and start Spark). A block is left unmarked only when it
runs for many minutes (chaos campaigns of 30 runs, the 12-point sweep, runs across
processes) or needs what a fresh machine has not (a Redis server of your own); the
commands in them are parsed all the same, and their behaviour has tests of its own.
"""

from __future__ import annotations

import glob
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

from qsg.commands.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
#: ``./dev``'s jobs (its case statement).
DEV_JOBS = {"run", "qsg", "test", "lint", "bench"}


@dataclass(frozen=True)
class Block:
    """A fenced code block of a Markdown file."""

    path: Path
    line: int  # of the opening fence
    lang: str
    code: str
    runnable: bool

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
        runnable = start > 0 and lines[start - 1].strip() == "<!-- runnable -->"
        found.append(Block(path, start + 1, lang, "\n".join(lines[start + 1 : i]) + "\n", runnable))
        i += 1
    return found


SHELL = [b for path in DOCS for b in blocks(path) if b.lang == "sh"]
RUNNABLE = {path: [b for b in blocks(path) if b.runnable] for path in DOCS}


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
    (copy / ".venv").symlink_to(ROOT / ".venv")
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


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", [p for p in DOCS if RUNNABLE[p]], ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_runnable_blocks_run_in_order_on_a_copy_of_the_repository(
    path: Path, tmp_path: Path
) -> None:
    where = _copy(tmp_path)
    for block in RUNNABLE[path]:
        done = run_block(block, where)
        assert done.returncode == 0, (block.name, done.stdout[-3000:], done.stderr[-3000:])


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.splitlines()[0][:40])
def test_a_readme_example_runs(example: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(example, str(README), "exec"), {})
    assert capsys.readouterr().out  # each example prints what it shows
