"""The rules layer is synchronous and I/O-free (docs/architecture.md, "The layers"): it
imports neither trio nor redis nor anything that reads a clock or touches the network."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

QSG = Path(__file__).resolve().parent.parent / "qsg"
# The rules and the MQSC reader: both synchronous, both free of I/O.
MODULES = sorted([*(QSG / "core").glob("*.py"), *(QSG / "mqsc").glob("*.py")])
FORBIDDEN = {"trio", "redis", "coredis", "asyncio", "socket", "time", "threading", "random"}


@pytest.mark.parametrize("module", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_rules_module_imports_nothing_that_does_io_or_reads_a_clock(module: Path) -> None:
    tree = ast.parse(module.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN, f"{module.name} imports {sorted(imported & FORBIDDEN)}"
