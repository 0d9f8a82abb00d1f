"""docs/mq-rules.md names, for each MQ rule, the test that pins it: every test it names
exists, so the page cannot drift from the suite unnoticed (docs/mq-rules.md, opening)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "mq-rules.md"
CITED = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }


def missing_tests(text: str) -> list[str]:
    """The ``file::test`` citations in ``text`` whose file or test does not exist."""
    missing = []
    for file, test in CITED.findall(text):
        path = ROOT / file
        if not path.is_file() or test not in _tests_in(path):
            missing.append(f"{file}::{test}")
    return missing


@keeps(
    "docs/development.md",
    "`test_mq_rules_doc.py` holds [mq-rules.md](mq-rules.md) to the suite: every test it names "
    "exists.",
)
def test_every_test_the_mq_rules_page_cites_exists() -> None:
    text = RULES.read_text()
    assert len(CITED.findall(text)) >= 40, "the page cites its tests as `tests/FILE.py::TEST`"
    assert missing_tests(text) == []


@keeps("docs/development.md", "every test it names exists.")
def test_a_citation_of_a_test_that_does_not_exist_is_caught() -> None:
    assert missing_tests("`tests/test_expiry.py::test_no_such_rule`") == [
        "tests/test_expiry.py::test_no_such_rule"
    ]
    assert missing_tests("`tests/test_no_such_file.py::test_x`") == [
        "tests/test_no_such_file.py::test_x"
    ]
