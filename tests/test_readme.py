"""The README's Python examples run as written: a user copying them gets what it says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.splitlines()[0][:40])
def test_a_readme_example_runs(example: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(example, str(README), "exec"), {})
    assert capsys.readouterr().out  # each example prints what it shows
