"""The layers are a checked contract: ``pyproject.toml``'s ``[tool.importlinter]`` is the
one picture of them (docs/architecture.md, "The layers"), and ``lint-imports`` (run by
``./dev lint``) fails when a module imports a layer above its own.

The check runs on a temporary copy of the packages, so that an upward import can be
planted without touching the repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
PACKAGES = ("qsg", "actors", "coupling")
PYPROJECT = ROOT / "pyproject.toml"


def _copy(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on the packages at ``where`` (first on the path, ahead of the
    repository's editable install)."""
    env = {**os.environ, "PYTHONPATH": str(where)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(where / "pyproject.toml")],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _plant(module: Path, line: str) -> None:
    module.write_text(module.read_text() + f"\n{line}\n")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    return _copy(tmp_path)


@keeps(
    "docs/development.md",
    "the import contracts in `pyproject.toml` (`[tool.importlinter]`) are the layers of "
    "[architecture.md](architecture.md#the-layers)",
)
def test_the_repository_keeps_its_layers(copy: Path) -> None:
    result = _lint_imports(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"Contracts: \d+ kept, 0 broken\.", result.stdout), result.stdout


def test_every_package_of_the_tree_is_a_layer_of_the_contract() -> None:
    # The tree is the diagram: each sub-package and module of qsg/ (and actors/,
    # coupling/ as a whole) is named by the layers contract, so a new one must be placed.
    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in contract["contracts"] if c["id"] == "layers")["layers"]
    named = {name.strip() for layer in layers for name in re.split(r"[|:]", layer)}
    tree = {
        f"qsg.{entry.stem}"
        for entry in (ROOT / "qsg").iterdir()
        if entry.name != "__init__.py"
        and (entry.suffix == ".py" or (entry / "__init__.py").exists())
    }
    assert tree | {"actors", "coupling"} == named


@keeps(
    "docs/development.md",
    "`./dev lint` fails on an import that runs up a layer, and `tests/test_layers.py` shows the "
    "check catching one.",
)
def test_a_rules_module_importing_the_actors_breaks_the_contract(copy: Path) -> None:
    _plant(copy / "qsg" / "core" / "errors.py", "import actors.world  # planted")
    result = _lint_imports(copy)
    assert result.returncode == 1
    assert "qsg.core is not allowed to import actors" in result.stdout
    assert "qsg.core.errors -> actors.world" in result.stdout


def test_an_actor_importing_a_command_breaks_the_contract(copy: Path) -> None:
    _plant(copy / "actors" / "signals.py", "from qsg.commands import cli  # planted")
    result = _lint_imports(copy)
    assert result.returncode == 1
    assert "actors is not allowed to import qsg.commands" in result.stdout


def test_a_part_of_an_actor_importing_the_world_at_run_time_breaks_the_contract(
    copy: Path,
) -> None:
    # The listed exceptions are for the imports named; a new one is caught.
    _plant(copy / "actors" / "signals.py", "import actors.world  # planted")
    result = _lint_imports(copy)
    assert result.returncode == 1
    assert "actors.signals -> actors.world" in result.stdout


def test_triggering_importing_a_handle_breaks_the_rules_contract(copy: Path) -> None:
    _plant(copy / "qsg" / "core" / "trigger.py", "from qsg.core import handle  # planted")
    result = _lint_imports(copy)
    assert result.returncode == 1
    assert "qsg.core.trigger is not allowed to import qsg.core.handle" in result.stdout


def test_a_part_typed_by_the_world_again_breaks_the_actors_contract(copy: Path) -> None:
    # The facility watch is typed by a Protocol of what it uses (FacilityRecovery): an
    # import of World, even for type checking only, is a cycle again, and caught.
    _plant(
        copy / "actors" / "facility.py",
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from actors.world import World  # planted",
    )
    result = _lint_imports(copy)
    assert result.returncode == 1
    assert "actors.facility -> actors.world" in result.stdout


def test_a_connection_typed_by_its_queue_manager_again_breaks_the_rules_contract(
    copy: Path,
) -> None:
    # A connection is typed by ConnectionOwner: naming QMgr, even for type checking
    # only, is the cycle through the rules' queue manager again, and caught.
    _plant(
        copy / "qsg" / "core" / "connection.py",
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from qsg.core.qmgr import QMgr  # planted",
    )
    result = _lint_imports(copy)
    assert result.returncode == 1
    assert "qsg.core.connection -> qsg.core.qmgr" in result.stdout


def test_no_contract_lists_an_exception() -> None:
    # Issue 41: the contracts read as the tree, with no ignored imports; each part is
    # typed by a Protocol of what it uses, never by the class above it.
    contracts = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    assert [c["id"] for c in contracts if "ignore_imports" in c] == []
