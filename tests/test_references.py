"""The repository explains itself: every document a comment or docstring cites is in
the repository (``docs/...``), and none cites the design notes or source documents
that are not (docs/architecture.md, opening; IBM's documentation is cited by title)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    path
    for folder in ("qsg", "actors", "coupling", "bench", "tests", "scenarios")
    for path in (ROOT / folder).rglob("*.py")
    if "programs" not in path.parts  # pymqi's own examples, kept as their authors wrote them
)
#: What a comment must not cite: files that only the people who started qsg had.
OUTSIDE = re.compile(
    r"DESIGN(?:\.md)?\b|mq-reference\.md|simulation-notes\.md|\bseeds/"
    r"|\b(?:dynamic-queues|expiry-mqmd|expiry-mqmd-zh|expiry-mdexp-ibmi|retrieval-order-groups)\.txt"
)
DOC = re.compile(r"\bdocs/([\w-]+\.md)")


def outside_citations(text: str) -> list[str]:
    return [match.group(0) for match in OUTSIDE.finditer(text)]


@keeps(
    "docs/development.md",
    "`test_references.py`: a comment cites `docs/` or IBM's documentation by title, never a file "
    "outside the repository.",
)
def test_no_source_cites_a_file_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {cited}"
        for path in SOURCES
        for line, text in enumerate(path.read_text().splitlines(), 1)
        for cited in outside_citations(text)
        if path.name != "test_references.py"
    ]
    assert found == []


def test_every_doc_a_source_cites_exists() -> None:
    cited = {name for path in SOURCES for name in DOC.findall(path.read_text())}
    assert cited, "the sources cite docs/"
    assert sorted(name for name in cited if not (ROOT / "docs" / name).is_file()) == []


@keeps(
    "docs/development.md",
    "**References**: comments cite `docs/` or IBM's documentation by title, never a file outside "
    "the repository.",
)
def test_the_check_knows_a_citation_from_outside() -> None:
    assert outside_citations('# expiry-mqmd.txt note 9; DESIGN.md, "Time"') == [
        "expiry-mqmd.txt",
        "DESIGN.md",
    ]
    assert outside_citations('# IBM, "Expiry (MQLONG)" note 9; docs/architecture.md') == []


@keeps(
    "docs/development.md",
    "the code is laid out by `ruff format` (`./dev lint` checks it; `.venv/bin/ruff format .` "
    "applies it), with no `# fmt: skip`",
)
def test_no_source_keeps_a_layout_of_its_own_from_the_formatter() -> None:
    # ruff honours "# fmt: skip" and "# fmt: off" silently: a layout kept that way is one
    # `./dev lint` no longer checks.
    kept = re.compile(r"#\s*fmt:\s*(?:skip|off)\b")
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in SOURCES
        for line, text in enumerate(path.read_text().splitlines(), 1)
        if kept.search(text) and path.name != "test_references.py"
    ]
    assert found == []
