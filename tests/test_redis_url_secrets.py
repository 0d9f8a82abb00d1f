"""A password in ``--redis`` is on the command line, where any user of the machine can
read it (``ps``): the command warns in one line and names the environment variable that
keeps it out of sight, as redis-cli warns for ``-a`` (issue 26; docs/coupling-facility.md).
The URL is still used: the warning does not stop the command.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from qsg.commands.cli import main
from qsg.commands.options import _checked_redis_url
from tests.claims import keeps

WITH_PASSWORD = "redis://app:s3cret@127.0.0.1:1/0"


def invoke(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, args, env={"QSG_REDIS_URL": "", "QSG_SWEEP_REDIS_URL": "", **(env or {})}
    )
    return result.exit_code, result.stderr


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning:")]


@pytest.mark.parametrize("command", ["run", "chaos", "exec"])
@keeps(
    "docs/coupling-facility.md",
    "qsg takes the URL from the command line but warns, in one line on standard error, when it "
    "holds a password, and names the variable that keeps it out of sight; the command then goes "
    "on with it",
)
@keeps(
    "docs/security.md",
    (
        "A password given on the command line (`--redis`) is visible to every user of the machine "
        "(`ps`), so the command warns in one line and names the environment variable that keeps it "
        "out of sight"
    ),
)
@keeps(
    "docs/scenarios.md",
    "(`--redis URL` works too, but a command line is visible to every user of the "
    "machine: give a password by `QSG_REDIS_URL`.)",
)
def test_a_password_on_the_command_line_is_warned_of_in_one_line_naming_qsg_redis_url(
    command: str, tmp_path: Path
) -> None:
    missing = str(tmp_path / "none.toml")  # the command stops at the scenario, after the check
    args = [command, missing, "--redis", WITH_PASSWORD] + (
        ["--", "python", "-c", "pass"] if command == "exec" else []
    )
    code, stderr = invoke(args)
    assert code == 2
    assert warnings(stderr) == [
        "warning: --redis gives a password on the command line, where any user of this "
        "machine can read it (ps); give the URL in QSG_REDIS_URL instead"
    ]
    assert "s3cret" not in stderr


@keeps("docs/coupling-facility.md", "when it holds a password")
def test_the_same_url_from_the_environment_or_without_a_password_is_not_warned_of(
    tmp_path: Path,
) -> None:
    missing = str(tmp_path / "none.toml")
    assert warnings(invoke(["run", missing], env={"QSG_REDIS_URL": WITH_PASSWORD})[1]) == []
    assert warnings(invoke(["run", missing, "--redis", "redis://127.0.0.1:1/0"])[1]) == []


@keeps(
    "docs/coupling-facility.md",
    "reads `QSG_SWEEP_REDIS_URL` instead, so that a `QSG_REDIS_URL` set for the other commands "
    "does not move a sweep onto it.",
)
def test_qsg_sweep_names_its_own_variable(tmp_path: Path) -> None:
    # Its --redis is opt-in (points on the user's server, a database each), so it does
    # not read QSG_REDIS_URL but QSG_SWEEP_REDIS_URL.
    scenario = tmp_path / "s.toml"
    scenario.write_text("[run]\nduration = 1\n[qmgr.QM1]\n")
    code, stderr = invoke(
        ["sweep", str(scenario), "--out", str(tmp_path / "out"), "--redis", WITH_PASSWORD]
    )
    assert code == 2  # a scenario, not a sweep file: refused before Spark starts
    assert warnings(stderr) == [
        "warning: --redis gives a password on the command line, where any user of this "
        "machine can read it (ps); give the URL in QSG_SWEEP_REDIS_URL instead"
    ]
    assert (
        warnings(
            invoke(
                ["sweep", str(scenario), "--out", str(tmp_path / "out")],
                env={"QSG_SWEEP_REDIS_URL": WITH_PASSWORD},
            )[1]
        )
        == []
    )


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []
    for name, command in group.commands.items():
        found.append((prefix + name, command))
        if isinstance(command, click.Group):
            found += _commands(command, f"{prefix}{name} ")
    return found


def test_every_command_takes_redis_as_the_one_shared_option() -> None:
    # One home per option (issue 41): --redis is qsg.commands.options.redis_option
    # everywhere, so its check and its warning cannot differ between commands.
    taking = {
        name: param
        for name, command in _commands(main)
        for param in command.params
        if "--redis" in getattr(param, "opts", ())
    }
    assert set(taking) >= {"run", "chaos", "exec", "mqsc", "sweep"}
    for name, param in taking.items():
        assert param.callback is _checked_redis_url, name
        assert param.name == "redis_url", name
