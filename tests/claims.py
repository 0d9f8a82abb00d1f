"""Which sentence of the README or docs/ a test keeps (issue 42: "Every claim kept").

A test that holds a promise the documentation makes names the sentence it keeps::

    @keeps("docs/capacity.md", "a structure that fills refuses the put with 2192")
    def test_a_full_structure_refuses_the_put(): ...

The sentence is quoted as the document words it (any stretch of one or more sentences,
whitespace and line breaks aside), so ``tests/test_claims.py`` can hold the two
together: a document edited so that a kept sentence is gone or reworded fails there, and
so does a test citing a sentence its document does not have. The decorator is also the
pytest marker ``keeps``: ``pytest -m keeps`` runs every test that keeps a claim.
A module or class keeps a sentence for all its tests with ``pytestmark = keeps(...)``.
"""

from __future__ import annotations

import pytest


def keeps(document: str, sentence: str) -> pytest.MarkDecorator:
    """Mark a test as keeping ``sentence`` of ``document`` (a path from the repository's
    root, such as ``"README.md"`` or ``"docs/edges.md"``). Both must be string literals:
    tests/test_claims.py reads them from the source, without importing the tests."""
    return pytest.mark.keeps(document, sentence)
