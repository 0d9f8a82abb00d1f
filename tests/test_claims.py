"""Every sentence a test says it keeps is in its document, word for word (issue 42:
"Every claim kept").

Tests name the README or docs/ sentence they keep with ``@keeps(document, sentence)``
(tests/claims.py). The tests are read here as source, not imported (importing all of
them would start Spark and Redis clients), and each ``keeps`` found is checked: its two
arguments are string literals, it decorates a test (or is a module's or class's
``pytestmark``), the document exists, and the sentence is in it as written, up to
whitespace and line breaks. So a document edited to drop or reword a kept sentence fails
here, naming the test that keeps it, and so does a test that cites a sentence the
document never had.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.claims import keeps

# This file keeps the sentence that describes it: the scan below reads it as it reads
# every test file (only tests/claims.py, where keeps is defined, is left out).
pytestmark = keeps(
    "docs/development.md",
    "`test_claims.py` holds the documents to what they promise: a test that keeps a sentence of "
    'the README or a document says so, `@keeps("docs/capacity.md", "...")` '
    "(`tests/claims.py`), and each sentence quoted must be in its document word for word, so a "
    "promise edited away fails with the test that kept it. `pytest -m keeps` runs them.",
)

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Claim:
    """One ``keeps(document, sentence)`` of a test file."""

    where: str  # file:line of the call
    test: str  # the test (or "pytestmark") it marks
    document: str
    sentence: str


def flat(text: str) -> str:
    """``text`` with every run of whitespace one space: a sentence may wrap anywhere."""
    return " ".join(text.split())


@cache
def document(path: str) -> str:
    return flat((ROOT / path).read_text())


def keeps_calls(tree: ast.Module) -> list[tuple[ast.Call, str]]:
    """Every ``keeps(...)`` call of a module, with the test or ``pytestmark`` it marks."""
    found: list[tuple[ast.Call, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                if is_keeps(decorator):
                    assert isinstance(decorator, ast.Call)
                    found.append((decorator, node.name))
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
            found += [(v, "pytestmark") for v in values if is_keeps(v)]  # type: ignore[misc]
    return found


def is_keeps(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "keeps"
    )


def claims() -> list[Claim]:
    out = []
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text()
        if "keeps(" not in source or path.name == "claims.py":
            continue
        for call, test in keeps_calls(ast.parse(source)):
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            args = [a.value if isinstance(a, ast.Constant) else None for a in call.args]
            assert len(args) == 2 and all(isinstance(a, str) for a in args), (
                f"{where}: keeps takes two string literals, the document and the sentence"
            )
            out.append(Claim(where, test, str(args[0]), str(args[1])))
    return out


CLAIMS = claims()


def test_tests_keep_claims_of_the_readme_and_docs() -> None:
    # The mechanism is in use; without this a broken scan would keep nothing, silently.
    assert len(CLAIMS) >= 10
    assert {c.document for c in CLAIMS} >= {"README.md"}
    # This file is scanned too: it keeps docs/development.md's sentence about itself.
    assert [c.test for c in CLAIMS if c.where.startswith("tests/test_claims.py:")] == ["pytestmark"]


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: f"{c.where}:{c.test}")
def test_each_kept_sentence_is_in_its_document_word_for_word(claim: Claim) -> None:
    assert claim.test == "pytestmark" or re.match(r"(test_|Test)", claim.test), (
        f"{claim.where}: keeps marks {claim.test}, which is not a test"
    )
    assert (ROOT / claim.document).is_file(), f"{claim.where}: no document {claim.document}"
    assert flat(claim.sentence), f"{claim.where}: an empty sentence keeps nothing"
    assert flat(claim.sentence) in document(claim.document), (
        f"{claim.where}: {claim.test} keeps a sentence {claim.document} does not have "
        f"(edited or dropped?): {claim.sentence!r}"
    )


def test_a_claim_is_kept_once_per_test() -> None:
    # The same sentence twice on one test is a copy-paste slip, not two claims.
    keys = Counter((c.where.split(":")[0], c.test, c.document, c.sentence) for c in CLAIMS)
    assert not [key for key, n in keys.items() if n > 1]


def test_a_sentence_the_document_lacks_is_caught() -> None:
    # The check itself: a keeps read from source, quoting a wrapped sentence, is found in
    # the flattened document; one word changed is not.
    source = '@keeps("README.md", "checks it without\\n   starting anything")\ndef test_x(): ...'
    tree = ast.parse(source)
    [(call, test)] = keeps_calls(tree)
    sentence = flat(call.args[1].value)  # type: ignore[attr-defined]
    assert test == "test_x" and sentence in document("README.md")
    assert sentence.replace("without", "with") not in document("README.md")
