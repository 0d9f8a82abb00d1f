"""The README's quick start from a fresh clone in a new directory ends with ``qsg``
usable as the README says: ``./dev run`` sets the clone up and plays the shipped
scenario, printing the summary the README shows, then the README's "on your PATH" block
(``source .venv/bin/activate``, ``qsg --version``, ``./dev qsg ...``) runs. Slow: it
makes a new .venv (pip, from the machine's wheel cache or index) and plays a scenario.

What is cloned is the repository's committed HEAD, as a user would get it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.claims import keeps
from tests.test_readme import README, ROOT, blocks


def quick_start() -> list[str]:
    """The quick start's commands: the README's first shell block, but ``./dev test``
    (this suite)."""
    first = next(b for b in blocks(README) if b.lang == "sh")
    lines = [line.split("#")[0].strip() for line in first.code.splitlines()]
    return [line for line in lines if line and line != "./dev test"]


def test_the_quick_start_is_dev_run() -> None:
    assert quick_start() == ["./dev run"]


@pytest.mark.slow
@keeps(
    "docs/development.md",
    "`qsg run`; with no scenario, `scenarios/shared-queue-expiry.toml` on the embedded defaults",
)
def test_a_fresh_clone_set_up_by_the_quick_start_has_qsg_as_the_readme_says(
    tmp_path: Path,
) -> None:
    clone = tmp_path / "a new directory" / "qsg"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "QSG_REDIS_URL")}
    env["COLUMNS"] = "200"  # rich draws the tables at their own width, as in a terminal
    for command in quick_start():
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            timeout=2400,
        )
        assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
        # ./dev run is qsg run of the shipped shared-queue scenario on the embedded server;
        # the README's excerpt of its summary is its Queues table, which the run's seed
        # decides to the message (the README's plain block drawn with rich's boxes).
        (summary,) = [b for b in blocks(clone / "README.md") if b.lang == "" and "┏" in b.code]
        printed = [line.rstrip() for line in done.stdout.splitlines()]
        assert [line for line in summary.code.splitlines() if line.rstrip() not in printed] == []
    assert (clone / ".venv" / "bin" / "qsg").exists()
    (on_path,) = [
        b
        for b in blocks(clone / "README.md")
        if b.runnable and "source .venv/bin/activate" in b.code
    ]
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", on_path.code],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    assert "qsg, version" in done.stdout
    assert "scenarios/capacity.toml: ok" in done.stdout
