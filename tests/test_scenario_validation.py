"""A scenario with problems is refused before anything starts, with one clear error per
problem naming file, line and key; random damage to a good scenario only ever gives
such errors, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qsg.scenario import ScenarioError, load_scenario, parse_scenario
from tests.claims import keeps

GOOD = """\
description = "a small good scenario"

[run]
duration = 30
seed = 1

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = \"\"\"
DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)
\"\"\"

[qsg.QSG1.structures.APP1]
size_kb = 1024

[qmgr.QM1]
expryint = 5

[qmgr.QM3]
mqsc = "DEFINE QLOCAL(APP.IN)"

[[channel]]
name = "QM1.TO.QM3"
from = "QM1"
to = "QM3"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 5
size = { dist = "uniform", min = 10, max = 100 }
expiry = 100

[[workload]]
type = "getter"
qmgr = "QM2"
queue = "APP.SHARED"

[[fault]]
at = 10
action = "kill"
qmgr = "QM2"
duration = 5
"""


def problems_of(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "broken.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    return [str(p).replace(str(tmp_path) + "/", "") for p in caught.value.problems]


def test_the_good_scenario_is_good() -> None:
    scenario = parse_scenario(GOOD, "good.toml")
    assert [qm.name for qm in scenario.qmgrs] == ["QM1", "QM2", "QM3"]
    assert scenario.topology.qsgs == {"QSG1": ["QM1", "QM2"]}


@keeps(
    "docs/scenarios.md",
    "Everything is checked before anything starts: unknown keys (with the nearest "
    "known one suggested), wrong types, out-of-range values",
)
@pytest.mark.parametrize(
    ("change", "expected"),
    [
        # Each expected problem: (text on its line of the changed file, "key: message").
        (
            ("duration = 30", "durration = 30"),
            [
                ("durration", "run.durration: unknown key 'durration' (did you mean 'duration'?)"),
                ("[run]", "run: missing key 'duration' (a number)"),
            ],
        ),
        (
            ("rate = 5", 'rate = "fast"'),
            [('"fast"', "workload[0].rate: expected a number, found string 'fast'")],
        ),
        (
            ('qmgr = "QM2"\nqueue', 'qmgr = "QM9"\nqueue'),
            [
                (
                    "QM9",
                    "workload[1].qmgr: no queue manager QM9 in the scenario (it has QM1, QM2, QM3)",
                )
            ],
        ),
        (
            ('queue = "APP.SHARED"\nrate', 'queue = "APP.NOWHERE"\nrate'),
            [
                (
                    "APP.NOWHERE",
                    "workload[0].queue: MQOPEN of APP.NOWHERE on QM1: MQCC_FAILED: "
                    "MQRC_UNKNOWN_OBJECT_NAME (2085)",
                )
            ],
        ),
        (
            (
                'mqsc = "DEFINE QLOCAL(APP.IN)"',
                'mqsc = "DEFINE QLOCAL(APP.IN) QSGDISP(SHARED) CFSTRUCT(APP1)"',
            ),
            [
                (
                    "QLOCAL(APP.IN)",
                    "mqsc: DEFINE QLOCAL: MQCC_FAILED: MQRCCF_Q_MGR_NOT_IN_QSG (3212): "
                    "QSGDISP(SHARED): QM3 is in no queue-sharing group",
                )
            ],
        ),
        (
            ('to = "QM3"', 'to = "QM4"'),
            [
                (
                    '"QM4"',
                    "channel[0].to: no queue manager QM4 in the scenario (it has QM1, QM2, QM3)",
                )
            ],
        ),
        (
            ('action = "kill"', 'action = "restart"'),
            [
                (
                    "duration = 5",
                    "fault[0].duration: restart takes no duration; only kill, pause, "
                    "stop_channel, stop_chinit, kill_chinit, stop_listener, cf_unavailable, "
                    "repository_unavailable, cf_fail, structure_fail, cf_connectivity_loss, "
                    "facility_fail, slow_cf, slow_channels, skew do",
                )
            ],
        ),
        (
            ('action = "kill"\nqmgr = "QM2"\nduration = 5', 'action = "restart"\nqmgr = "QM2"'),
            [("[[fault]]", "fault[0]: restart QM2 at 10: it is not down")],
        ),
        (
            ("size_kb = 1024", "size_kb = 1024 +"),
            [("size_kb", "not valid TOML: Expected newline or end of document")],
        ),
        (
            ("[run]\nduration = 30\nseed = 1\n", ""),
            [("description", "missing key 'run' (a table)")],
        ),
        (
            ("expryint = 5", 'mqsc_file = "nowhere.mqsc"'),
            [("nowhere", "qmgr.QM1.mqsc_file: cannot read MQSC file 'nowhere.mqsc': [Errno 2]")],
        ),
        (
            (
                "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1)",
                "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(lots)",
            ),
            [
                (
                    "MAXDEPTH",
                    "qsg.QSG1.mqsc: MQSC (column 67): MAXDEPTH(LOTS): 'LOTS' is not a whole number",
                )
            ],
        ),
        (
            ("at = 10", "at = 99"),
            [("at = 99", "fault[0].at: at 99 is after the run ends (duration 30)")],
        ),
        (
            ("min = 10, max = 100", "min = 100, max = 10"),
            [("min = 100", "workload[0].size: min 100 is above max 10")],
        ),
        (
            ('type = "getter"', 'type = "getter"\nlogical_order = "yes"'),
            [("logical_order", "workload[1].logical_order: expected true or false, found string")],
        ),
        (
            ('members = ["QM1", "QM2"]', 'members = ["QM1", "QM2", "QM1"]'),
            [("members", "qsg.QSG1.members: QM1 is already a member of QSG1")],
        ),
    ],
)
def test_each_problem_names_file_line_and_key(
    change: tuple[str, str], expected: list[tuple[str, str]], tmp_path: Path
) -> None:
    old, new = change
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    lines = text.splitlines()
    want = sorted(
        f"broken.toml:{next(n for n, line in enumerate(lines, 1) if on in line)}: {message}"
        for on, message in expected
    )
    found = sorted(problems_of(text, tmp_path))
    assert len(found) == len(want), found
    for got, wanted in zip(found, want, strict=True):
        assert got.startswith(wanted), (got, wanted)


@keeps("docs/scenarios.md", "Each problem is one line naming file, line and key")
def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text = GOOD.replace("rate = 5", "rate = -5").replace("seed = 1", 'seed = "one"')
    text = text.replace('type = "getter"', 'type = "gettter"')
    found = problems_of(text, tmp_path)
    assert [p.split(": ")[1] for p in found] == ["run.seed", "workload[0].rate", "workload[1].type"]


@keeps("docs/scenarios.md", "the exit code is 2 and nothing was started")
@keeps(
    "README.md",
    "`qsg validate` checks it without starting anything (every problem as `file:line: "
    "key: problem`, exit 2)",
)
@pytest.mark.slow
def test_validate_exits_2_naming_each_problem_and_starts_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace("rate = 5", 'rate = "fast"'))
    for command in ("validate", "run"):
        done = subprocess.run(
            [sys.executable, "-m", "qsg.commands.cli", command, str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, done
        line = GOOD.splitlines().index("rate = 5") + 1
        assert f"{path}:{line}: workload[0].rate: expected a number" in done.stderr
        assert "nothing was started" in done.stderr
        assert "Queues" not in done.stdout


def test_a_problem_that_names_a_table_is_printed_whole(tmp_path: Path) -> None:
    # The console must not read "[qsg.NAME]" in a message as markup and drop it.
    path = tmp_path / "empty.toml"
    path.write_text('description = "nothing in it"\n[run]\nduration = 5\n')
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done
    assert "add [qsg.NAME] members or a [qmgr.NAME] table" in done.stderr


@keeps(
    "docs/scenarios.md",
    "A sweep file given to `qsg run` or `qsg chaos` (or a scenario given to `qsg "
    "sweep`) is refused in one line that names the command to use.",
)
@pytest.mark.parametrize("command", ["run", "chaos"])
def test_a_sweep_file_given_for_a_scenario_is_refused_saying_to_use_qsg_sweep(
    command: str,
) -> None:
    path = Path(__file__).parent.parent / "scenarios" / "sweep-capacity.toml"
    line = path.read_text().splitlines().index("[vary]") + 1
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", command, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done
    assert f"{path}:{line}: vary: a sweep file, not a scenario" in done.stderr
    assert f"qsg sweep {path} --out DIR" in done.stderr
    assert "1 problem; nothing was started" in done.stderr


@keeps(
    "docs/scenarios.md",
    "A sweep file given to `qsg run` or `qsg chaos` (or a scenario given to `qsg "
    "sweep`) is refused in one line that names the command to use.",
)
@pytest.mark.slow
def test_sweep_given_a_scenario_says_to_play_it_with_qsg_run(tmp_path: Path) -> None:
    path = Path(__file__).parent.parent / "scenarios" / "shared-queue-expiry.toml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "qsg.commands.cli",
            "sweep",
            str(path),
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done
    assert f"{path}:1: a scenario, not a sweep file: play it with `qsg run {path}`" in done.stderr
    assert "1 problem; nothing was started" in done.stderr
    assert not (tmp_path / "out").exists()


@keeps(
    "docs/coupling-facility.md",
    "A URL of any other scheme is refused before anything starts, with exit code 2",
)
def test_a_redis_url_that_names_no_server_is_refused_before_anything_starts() -> None:
    path = Path(__file__).parent.parent / "scenarios" / "shared-queue-expiry.toml"
    env = {**os.environ, "QSG_REDIS_URL": "bogus://qsg:s3cret@h/0"}
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "run", str(path), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2, done
    assert "Invalid value for --redis / QSG_REDIS_URL" in done.stderr
    assert "scheme 'bogus'" in done.stderr and "s3cret" not in done.stderr
    assert "Queues" not in done.stdout


@keeps(
    "docs/coupling-facility.md",
    "(exit code 2 at the command line, `ValueError` from the API)",
)
def test_a_redis_url_with_a_timeout_of_no_seconds_is_refused_before_anything_starts() -> None:
    path = Path(__file__).parent.parent / "scenarios" / "shared-queue-expiry.toml"
    env = {**os.environ, "QSG_REDIS_URL": "redis://qsg:s3cret@127.0.0.1:1/0?socket_timeout=0"}
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "run", str(path), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2, done
    assert "the URL's socket_timeout is 0.0: it must be more than 0 seconds" in done.stderr
    assert "Traceback" not in done.stderr and "s3cret" not in done.stderr
    assert "Queues" not in done.stdout


@pytest.mark.slow
def test_a_run_that_cannot_reach_its_server_says_so_in_one_line() -> None:
    # Not trio's exception group: the error inside it.
    path = Path(__file__).parent.parent / "scenarios" / "shared-queue-expiry.toml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "qsg.commands.cli",
            "run",
            str(path),
            "--no-progress",
            "--redis",
            "redis://127.0.0.1:1/0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done
    assert "the run failed: CFConnectionError: cannot reach the coupling facility" in done.stderr
    assert "ExceptionGroup" not in done.stderr


@pytest.mark.parametrize("duration", ["0", "-3", "nan", "inf"])
def test_a_duration_that_is_not_a_finite_number_above_0_is_refused(duration: str) -> None:
    path = Path(__file__).parent.parent / "scenarios" / "shared-queue-expiry.toml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "qsg.commands.cli",
            "run",
            str(path),
            "--no-progress",
            "--duration",
            duration,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done
    assert "Invalid value for '--duration': must be a number of seconds above 0" in done.stderr


@pytest.mark.parametrize(("command", "option"), [("chaos", "--bound"), ("metrics", "--interval")])
def test_other_seconds_options_refuse_nan_too(command: str, option: str, tmp_path: Path) -> None:
    path = Path(__file__).parent.parent / "scenarios" / "chaos-qsg.toml"
    target = str(path) if command == "chaos" else str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", command, target, option, "nan"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done
    assert f"Invalid value for '{option}': must be a number of seconds above 0" in done.stderr


def test_validate_counts_what_a_scenario_holds_in_words() -> None:
    path = Path(__file__).parent.parent / "scenarios" / "chaos-processes.toml"
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done
    assert "(4 queue managers, 1 QSG, 1 channel, 8 workloads, 0 faults, 30 s)" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("command", [["run", "--no-progress"], ["chaos", "--runs", "1"]])
@keeps(
    "docs/scenarios.md",
    "`--json` prints the same as JSON, alone on standard output (the headline and "
    "progress go to standard error), so it can be piped.",
)
def test_json_output_is_the_json_alone_on_standard_output(command: list[str]) -> None:
    # The headline and progress lines go to standard error, so a pipe gets JSON.
    path = Path(__file__).parent.parent / "scenarios" / "chaos-qsg.toml"
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", command[0], str(path), *command[1:], "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done
    parsed = json.loads(done.stdout)
    assert parsed and str(path) in done.stderr


# ---- fuzzing ----------------------------------------------------------------------------
LINES = GOOD.splitlines()
JUNK = st.sampled_from(
    [
        '"x"',
        "-1",
        "0",
        "1e400",
        "true",
        "[]",
        "{}",
        '{ dist = "no" }',
        "[1, 'a']",
        '"OFF"',
        "3.5",
        '"QM1"',
        '"APP.SHARED"',
        "{ a = 1 }",
        '"*"',
        '""',
        "99999999999999999999",
        "nan",
        "inf",
    ]
)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """The good scenario with a few lines deleted, doubled, given another value or cut."""
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "double", "value", "cut", "key"]))
        if how == "delete":
            del lines[i]
        elif how == "double":
            lines.insert(i, lines[i])
        elif how == "value" and "=" in lines[i]:
            lines[i] = lines[i].split("=", 1)[0] + "= " + draw(JUNK)
        elif how == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif how == "key" and "=" in lines[i]:
            lines[i] = (
                draw(st.sampled_from(["rate", "qmgr", "x", "action", "members"]))
                + " ="
                + lines[i].split("=", 1)[1]
            )
        if not lines:
            break
    return "\n".join(lines)


def only_clean_errors(text: str) -> None:
    """Loading ``text`` gives a scenario or a ScenarioError whose every problem has its
    place; any other exception fails the test."""
    problems: list[str] = []
    try:
        parse_scenario(text, "fuzz.toml")
    except ScenarioError as error:
        problems = [str(p) for p in error.problems] or ["an error with no problem"]
    for problem in problems:
        assert re.match(r"^fuzz\.toml:\d+: ", problem), problem


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_scenario_gives_clean_errors_or_a_scenario(text: str) -> None:
    only_clean_errors(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("[]{}=\"'#.,\n abc123_-+")), max_size=200))
def test_malformed_toml_gives_clean_errors(text: str) -> None:
    only_clean_errors(text)


# ---- MQ's length and range limits on workload keys (issue 26) ---------------------------
REQUESTER = GOOD.replace('type = "getter"', 'type = "requester"\nrate = 1', 1)
TOO_LONG = "R" * 49  # MQ names hold at most 48 characters


@pytest.mark.parametrize(
    ("base", "key", "value", "message"),
    [
        (GOOD, "reply_to", f'"{TOO_LONG}"', "a queue name has 1 to 48 characters"),
        (GOOD, "reply_to", '"A B"', "queue name 'A B' has characters MQ does not allow"),
        (GOOD, "reply_to_qmgr", f'"{TOO_LONG}"', "a queue manager name has 1 to 48 characters"),
        (GOOD, "group_size", "1000000000", "must be at most 999,999,999, found 1,000,000,000"),
        (REQUESTER, "reply_name", f'"{TOO_LONG}*"', "a dynamic queue name has 1 to 48 characters"),
        (REQUESTER, "reply_model", f'"{TOO_LONG}"', "a model queue name has 1 to 48 characters"),
    ],
)
@keeps(
    "docs/edges.md",
    "checks a workload's `reply_to`, `reply_to_qmgr` and `reply_model` as MQ names (1 to 48 of "
    "`A-Z a-z 0-9 . / _ %`), `reply_name` likewise with a `*` allowed, and `group_size` against "
    "MsgSeqNumber's largest value (999,999,999).",
)
def test_a_workload_name_or_number_beyond_mqs_limits_is_a_problem_with_its_line(
    base: str, key: str, value: str, message: str, tmp_path: Path
) -> None:
    anchor = "rate = 5" if base is GOOD else "rate = 1"
    text = base.replace(anchor, f"{anchor}\n{key} = {value}", 1)
    line = text.splitlines().index(f"{key} = {value}") + 1
    workload = 0 if base is GOOD else 1
    (found,) = problems_of(text, tmp_path)
    assert found.startswith(f"broken.toml:{line}: workload[{workload}].{key}: {message}"), found


@keeps(
    "docs/edges.md",
    "A problem is one line, `file:line: key: problem`, and the exit status is 2",
)
def test_validate_of_a_reply_to_longer_than_48_exits_2_in_one_line(tmp_path: Path) -> None:
    # It printed a ValueError traceback and exited 1.
    path = tmp_path / "long.toml"
    path.write_text(GOOD.replace("rate = 5", f'rate = 5\nreply_to = "{TOO_LONG}"', 1))
    done = subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    line = GOOD.splitlines().index("rate = 5") + 2
    assert f"{path}:{line}: workload[0].reply_to: a queue name has 1 to 48" in done.stderr
