"""``./dev``, the one entry point (docs/development.md), run for what it decides.

Each test runs the real script in a directory of its own: ``dev`` and ``pyproject.toml``
copied there, a ``.venv`` whose install stamp is present (so nothing is installed) and
whose programs (``python``, ``mutmut``) only write down how they were called. The PATH
holds only the few tools the script needs, with stand-ins for ``id`` and ``apt-get``
where a test asks what ``./dev test`` does on a machine without Chromium; nothing is
installed and no test suite or benchmark runs.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
DEVELOPMENT = ROOT / "docs" / "development.md"

#: Writes its name and arguments, one per line, to calls.log beside the directory.
RECORDER = '#!/bin/sh\n{ basename "$0"; printf "%s\\n" "$@"; } >> "{log}"\n'


def tools(where: Path, *, chromium: bool, root: bool = False) -> Path:
    """A PATH directory with the tools ``./dev`` uses; a ``chromium`` if asked, and as
    root (``id -u`` says 0) an ``apt-get`` that records what it was asked to install."""
    bin_ = where / f"bin-{'chromium' if chromium else 'none'}-{'root' if root else 'user'}"
    if bin_.is_dir():
        return bin_
    bin_.mkdir()
    for tool in ("dirname", "sha256sum", "cut", "rm", "touch", "basename", "nice", "tail"):
        found = shutil.which(tool)
        assert found is not None, tool
        (bin_ / tool).symlink_to(found)
    log = where / "calls.log"
    stand_ins = {"apt-get": RECORDER.replace("{log}", str(log))}
    stand_ins["id"] = f"#!/bin/sh\necho {0 if root else 1000}\n"
    if chromium:
        stand_ins["chromium"] = "#!/bin/sh\n"
    for name, script in stand_ins.items():
        (bin_ / name).write_text(script)
        (bin_ / name).chmod(0o755)
    return bin_


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """``dev`` and ``pyproject.toml`` in a directory with an installed-looking .venv
    whose ``python``, ``qsg`` and ``mutmut`` record their calls."""
    where = tmp_path / "qsg"
    where.mkdir()
    for name in ("dev", "pyproject.toml"):
        shutil.copy2(ROOT / name, where / name)
    (where / "bench").mkdir()
    for bench in (ROOT / "bench").glob("*.py"):
        (where / "bench" / bench.name).touch()
    venv_bin = where / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    digest = hashlib.sha256((where / "pyproject.toml").read_bytes()).hexdigest()[:16]
    (where / ".venv" / f".installed-{digest}").touch()
    for program in ("python", "qsg", "mutmut"):
        (venv_bin / program).write_text(RECORDER.replace("{log}", str(tmp_path / "calls.log")))
        (venv_bin / program).chmod(0o755)
    return where


def dev(
    checkout: Path, *args: str, chromium: bool = True, root: bool = False, **env: str
) -> tuple[subprocess.CompletedProcess[str], list[list[str]]]:
    """``./dev ARGS`` in ``checkout``: how it ended, and each recorded call (the
    program's name, then its arguments)."""
    path = tools(checkout.parent, chromium=chromium, root=root)
    done = subprocess.run(
        ["/bin/bash", str(checkout / "dev"), *args],
        cwd=checkout,
        env={"PATH": str(path), "HOME": str(checkout.parent), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    log = checkout.parent / "calls.log"
    lines = log.read_text().splitlines() if log.exists() else []
    calls: list[list[str]] = []
    for line in lines:  # a program's name starts each call
        if line in {"python", "qsg", "mutmut", "apt-get"}:
            calls.append([line])
        else:
            calls[-1].append(line)
    return done, calls


def test_an_unknown_dev_job_prints_the_usage_and_exits_2(checkout: Path) -> None:
    done, calls = dev(checkout, "tset")
    assert done.returncode == 2 and calls == []
    assert done.stderr == "usage: ./dev {run|qsg ARGS...|test|lint|bench NAME|mutate [MODULE...]}\n"


@keeps(
    "docs/development.md",
    "`./dev test` spreads the test files over the machine's cores (pytest-xdist, `-n auto "
    "--dist loadfile`, so that a file's module fixtures, a Spark cluster say, start once; set "
    "`QSG_TEST_WORKERS=N` for another number of workers); with test files named it runs them in "
    "one process.",
)
def test_dev_test_spreads_the_files_over_workers_unless_files_are_named(checkout: Path) -> None:
    pytest_ = ["python", "-m", "pytest"]
    _, calls = dev(checkout, "test", "-m", "not slow")
    assert calls == [[*pytest_, "-n", "auto", "--dist", "loadfile", "-m", "not slow"]]
    (checkout.parent / "calls.log").unlink()
    _, calls = dev(checkout, "test", "-q", QSG_TEST_WORKERS="3")
    assert calls == [[*pytest_, "-n", "3", "--dist", "loadfile", "-q"]]
    (checkout.parent / "calls.log").unlink()
    _, calls = dev(checkout, "test", "tests/test_expiry.py", "-x")
    assert calls == [[*pytest_, "tests/test_expiry.py", "-x"]]  # one process


@keeps(
    "docs/development.md",
    "installs Debian's `chromium` first when no Chromium is on the PATH (the report is checked in "
    "a real headless browser)",
)
def test_dev_test_installs_chromium_when_there_is_none(checkout: Path) -> None:
    done, calls = dev(checkout, "test", "-q", chromium=False, root=True)
    assert calls[0][:2] == ["apt-get", "install"] and calls[0][-1] == "chromium"
    assert calls[1][:3] == ["python", "-m", "pytest"]
    assert "installing Debian's chromium for the report tests" in done.stderr
    (checkout.parent / "calls.log").unlink()
    done, calls = dev(checkout, "test", "-q", chromium=True, root=True)
    assert [call[0] for call in calls] == ["python"]  # a Chromium on the PATH: nothing installed


@keeps(
    "docs/development.md",
    "`./dev mutate [MODULE...]` runs mutmut 3 (installed on first use from the optional `mutate` "
    "group) over `qsg/core`, or the modules named (`./dev mutate uow expiry`),",
)
@keeps(
    "docs/development.md",
    "one worker at a time; then it prints a table per module (mutants, killed, equivalent, not "
    "checked, score).",
)
def test_dev_mutate_runs_mutmut_on_one_worker_then_prints_the_scores(checkout: Path) -> None:
    _, calls = dev(checkout, "mutate", "uow", "expiry.py")
    assert calls == [
        ["mutmut", "run", "--max-children", "1", "qsg.core.uow.*", "qsg.core.expiry.*"],
        ["python", "-m", "bench.mutation_score", "uow", "expiry.py"],
    ]
    (checkout.parent / "calls.log").unlink()
    _, calls = dev(checkout, "mutate")  # all of qsg/core
    assert calls[0] == ["mutmut", "run", "--max-children", "1"]
    (checkout / ".venv" / "bin" / "mutmut").unlink()  # not installed yet: it is, first
    (checkout.parent / "calls.log").unlink()
    _, calls = dev(checkout, "mutate", "uow")
    assert calls[0] == ["python", "-m", "pip", "install", "--quiet", "-e", ".[mutate]"]


#: The benchmarks the table of docs/development.md names.
BENCHMARKS = re.findall(r"^\| `(\w+)` \| ", DEVELOPMENT.read_text().split("## Benchmarks")[1], re.M)


@keeps(
    "docs/development.md",
    "`./dev bench NAME` runs `python -m bench.NAME` (`coupling` is `bench/cf.py`).",
)
@pytest.mark.parametrize("name", BENCHMARKS)
def test_each_benchmark_of_the_table_is_a_dev_bench_job(checkout: Path, name: str) -> None:
    done, calls = dev(checkout, "bench", name, "--quick")
    module = "cf" if name == "coupling" else name
    assert done.returncode == 0 and calls == [["python", "-m", f"bench.{module}", "--quick"]]
    assert (ROOT / "bench" / f"{module}.py").is_file()


def test_a_benchmark_that_does_not_exist_is_named_with_exit_2(checkout: Path) -> None:
    done, calls = dev(checkout, "bench", "nosuch")
    assert done.returncode == 2 and calls == []
    assert done.stderr == "no benchmark bench/nosuch.py\n"


def test_the_table_names_the_benchmarks() -> None:
    assert len(BENCHMARKS) >= 10 and "coupling" in BENCHMARKS and "engine" in BENCHMARKS
