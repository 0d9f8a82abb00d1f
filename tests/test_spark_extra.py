"""Spark and the report's plotting stack are an extra (``pip install 'qsg[spark]'``): a
team that only plays scenarios or runs its pymqi programs installs a small package
(README, "Quick start"; docs/pipeline.md). Without the extra, every other command works,
and a pipeline command says in one line what to install.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
EXTRA = ("pyspark", "pandas", "plotly")


def _without_the_extra(tmp_path: Path) -> dict[str, str]:
    """An environment in which the extra's packages cannot be imported (as on a machine
    where only ``pip install qsg`` was run)."""
    blocked = tmp_path / "blocked"
    for name in EXTRA:
        (blocked / name).mkdir(parents=True)
        (blocked / name / "__init__.py").write_text(
            f"raise ModuleNotFoundError({name!r} + ' is not installed', name={name!r})\n"
        )
    return {**os.environ, "PYTHONPATH": f"{blocked}{os.pathsep}{ROOT}", "QSG_REDIS_URL": ""}


def _qsg(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qsg.commands.cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@keeps("README.md", "`pip install 'qsg[spark]'` adds the Spark pipeline and its report")
def test_the_base_package_does_not_depend_on_spark_pandas_or_plotly() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    named = [dep.split("[")[0].split(">")[0].split("<")[0] for dep in project["dependencies"]]
    assert not set(named) & set(EXTRA)
    extra = [dep.split("[")[0].split(">")[0] for dep in project["optional-dependencies"]["spark"]]
    assert set(extra) == set(EXTRA)


@keeps(
    "README.md",
    "As a package, `pip install qsg` (from a clone: `pip install .`) gives the simulator",
)
@keeps(
    "docs/pipeline.md",
    "Without it qsg plays scenarios, pymqi programs and chaos campaigns as usual",
)
def test_a_scenario_plays_without_the_spark_extra(tmp_path: Path) -> None:
    env = _without_the_extra(tmp_path)
    done = _qsg(
        ["run", str(ROOT / "scenarios" / "shared-queue-expiry.toml"), "--duration", "5"],
        env,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@keeps(
    "docs/pipeline.md",
    "`qsg metrics`, `sweep` and `report` stop in one line naming what to install",
)
def test_a_pipeline_command_without_the_extra_names_it_in_one_line(tmp_path: Path) -> None:
    env = _without_the_extra(tmp_path)
    (tmp_path / "runs").mkdir()
    done = _qsg(["metrics", str(tmp_path / "runs")], env, tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "pip install 'qsg[spark]'" in lines[0]
    assert "pyspark, pandas, plotly" in lines[0]


@keeps(
    "README.md",
    "As a package, `pip install qsg` (from a clone: `pip install .`) gives the simulator",
)
def test_the_command_line_imports_none_of_the_extra_until_a_pipeline_command_runs() -> None:
    code = (
        "import sys; import qsg.commands.cli, qsg.pymqi, qsg.scenario.play; "
        f"print(sorted(m for m in {EXTRA!r} if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"
