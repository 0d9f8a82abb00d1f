"""Files a scenario reads are bounded, and never echoed beyond the offending token.

``qsg validate`` (and every command that loads a scenario) reads the scenario, its
``mqsc_file`` and a workload's ``rate = { file = ... }`` whole, each up to
``qsg.scenario.files.MAX_FILE_BYTES``: a bigger file, or one with no end (``/dev/zero``),
is one problem line, not a read until the machine's memory is gone. A line of a file
that is not what the scenario expects is reported by its file, line and what was wrong
with it, without the line's text: a rate file that is not one (``/etc/passwd``) does not
copy the file to the terminal. What a problem prints is printed as written (rich would
read ``:x:`` as an emoji code and ``[..]`` as markup).
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from qsg.scenario import ScenarioError, load_scenario
from qsg.scenario.files import MAX_FILE_BYTES
from tests.bounds import memory_bound
from tests.claims import keeps

SCENARIO = """\
description = "one queue manager, one putter"
[run]
duration = 5
[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.IN)"
{qmgr_extra}
[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.IN"
rate = {rate}
"""
PASSWD = (
    "root:x:0:0:root:/root:/bin/bash\n"
    "secret:x:1000:1000:Top Secret,,,:/home/secret:/bin/sh\n"
    "other:x:1001:1001::/home/other:/bin/sh\n"
)


def _memory_capped() -> None:
    # 2 GiB of address space: a reader that never stops fails here, not the machine.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def validate(*paths: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "validate", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_memory_capped,
    )


def scenario(tmp_path: Path, *, rate: str = "5", qmgr_extra: str = "") -> Path:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(rate=rate, qmgr_extra=qmgr_extra))
    return path


@keeps("docs/edges.md", "one problem, `cannot read: more than 16,777,216 bytes`, exit 2")
@keeps(
    "docs/security.md",
    (
        "is read to at most 16 MiB (`qsg validate /dev/zero` is refused, not read until memory "
        "runs out)"
    ),
)
def test_validate_of_a_file_without_end_is_one_problem_not_a_read_until_memory_runs_out() -> None:
    done = validate("/dev/zero")
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"/dev/zero:1: cannot read: more than {MAX_FILE_BYTES:,} bytes" in done.stderr
    assert "Traceback" not in done.stderr


@keeps("docs/capacity.md", "the file is read up to 16 MiB")
@keeps(
    "docs/edges.md",
    "a scenario, an `mqsc_file`, a rate file or a sweep's files bigger than 16 MiB, or without end",
)
@keeps(
    "docs/security.md",
    (
        "A scenario file, and every file it names (`rate = { file }`, `mqsc_file`), is read to at "
        "most 16 MiB"
    ),
)
def test_an_mqsc_file_or_a_rate_file_without_end_is_a_problem_of_its_key(tmp_path: Path) -> None:
    path = scenario(tmp_path, qmgr_extra='mqsc_file = "/dev/zero"')
    try:
        with memory_bound():
            load_scenario(path)
    except ScenarioError as error:
        (problem,) = error.problems
    assert problem.key == "qmgr.QM1.mqsc_file"
    assert f"more than {MAX_FILE_BYTES:,} bytes" in problem.message
    path = scenario(tmp_path, rate='{ file = "/dev/zero" }')
    try:
        with memory_bound():
            load_scenario(path)
    except ScenarioError as error:
        (problem,) = error.problems
    assert (problem.source, problem.line) == ("/dev/zero", 1)
    assert f"more than {MAX_FILE_BYTES:,} bytes" in problem.message


@keeps("docs/capacity.md", "(a file that is not a rate file is not copied to the terminal)")
@keeps(
    "docs/edges.md",
    "`file:line: expected two cells, time and rate, found 4`: the count, or the offending cell "
    "cut to 20 characters, never the line",
)
@keeps("docs/security.md", "a line of a named file is never echoed beyond the token at fault")
def test_a_rate_file_that_is_not_one_is_reported_without_its_lines(tmp_path: Path) -> None:
    (tmp_path / "passwd").write_text(PASSWD)
    done = validate(scenario(tmp_path, rate='{ file = "passwd" }'))
    assert done.returncode == 2, done
    # The first line could be a header ("time,rate"); the second is where it fails
    # (its commas make four cells: only their count is said).
    assert f"{tmp_path / 'passwd'}:2: expected two cells, time and rate, found 4" in done.stderr
    for secret in ("secret", "Top Secret", "/home", "/bin/sh", "1000"):
        assert secret not in done.stderr + done.stdout, secret


@keeps(
    "docs/capacity.md",
    "the report quotes at most the cell at fault, cut to 20 characters, never the line",
)
def test_a_rate_cell_that_is_not_a_number_is_quoted_short(tmp_path: Path) -> None:
    (tmp_path / "rates.csv").write_text("time,rate\n0,5\n10," + "9" * 30 + "x,and more\n")
    (tmp_path / "rates2.csv").write_text("time,rate\n0,5\n10,fast\n")
    done = validate(scenario(tmp_path, rate='{ file = "rates2.csv" }'))
    assert f"{tmp_path / 'rates2.csv'}:3: rate 'fast' is not a number" in done.stderr
    done = validate(scenario(tmp_path, rate='{ file = "rates.csv" }'))
    assert f"{tmp_path / 'rates.csv'}:3: expected two cells, time and rate, found 3" in done.stderr
    assert "and more" not in done.stderr


@keeps(
    "docs/edges.md",
    "a cell over the csv module's limit is a problem of its line, not a traceback",
)
def test_a_rate_cell_longer_than_the_csv_reader_takes_is_a_problem_of_its_line(
    tmp_path: Path,
) -> None:
    # Python's csv module refuses a field over 131,072 characters with csv.Error: that
    # was a traceback.
    (tmp_path / "rates.csv").write_text("time,rate\n0,5\n10," + "9" * 200_000 + "\n")
    done = validate(scenario(tmp_path, rate='{ file = "rates.csv" }'))
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"{tmp_path / 'rates.csv'}:3: not a CSV line: field larger than field limit" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr


@keeps("docs/edges.md", "one problem, `not valid TOML: nested too deeply`")
def test_toml_nested_beyond_the_parsers_depth_is_a_problem_not_a_traceback(
    tmp_path: Path,
) -> None:
    # tomllib reads nested arrays recursively: 200,000 of them were a RecursionError.
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 200_000 + "]" * 200_000 + "\n")
    done = validate(path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"{path}:1: not valid TOML: nested too deeply" in done.stderr
    assert "Traceback" not in done.stderr


@keeps("docs/edges.md", "printed as written: rich's emoji codes and markup are off for problems")
def test_what_a_problem_prints_is_printed_as_written(tmp_path: Path) -> None:
    # rich turned ":x:" into an emoji and could read "[...]" as markup.
    done = validate(scenario(tmp_path, qmgr_extra='mqsc_file = "a:x:b[bold]c.mqsc"'))
    assert done.returncode == 2, done
    assert "cannot read MQSC file 'a:x:b[bold]c.mqsc'" in done.stderr
    assert "\N{CROSS MARK}" not in done.stderr
