"""``bench.mutation_score``, the table ``./dev mutate`` prints (docs/development.md,
"Mutation testing"), on a ``mutants/`` made here: what it counts, and what it warns of."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import mutation_score
from tests.claims import keeps

MODULE = "qsg.core.uow.xǁUnitOfWorkǁbackout__mutmut_"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``mutants/`` of one module, uow, with five mutants: 1 and 2 killed (a failed
    test, a timeout), 3 survived, 4 no test, 5 not checked yet."""
    core = tmp_path / "mutants" / "qsg" / "core"
    core.mkdir(parents=True)
    codes = {f"{MODULE}1": 1, f"{MODULE}2": 36, f"{MODULE}3": 0, f"{MODULE}4": 33}
    codes[f"{MODULE}5"] = None
    (core / "uow.py.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    monkeypatch.setattr(mutation_score, "CORE", core)
    monkeypatch.setattr(mutation_score, "EQUIVALENTS", tmp_path / "equivalents.toml")
    return tmp_path


def listed(tree: Path, *numbers: int) -> None:
    entries = [
        f'[[equivalent]]\nmutant = "{MODULE}{n}"\nchange = "x"\nwhy = "y"\n' for n in numbers
    ]
    (tree / "equivalents.toml").write_text("\n".join(entries))


def test_the_score_is_killed_over_mutants_neither_equivalent_nor_unchecked(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed(tree, 3)
    assert mutation_score.score([], show_survivors=True) == 0
    out = capsys.readouterr().out.splitlines()
    # 5 mutants: 2 killed, 1 equivalent, 1 unchecked; 2 of the 3 judged: 66.7%.
    assert "| uow | 5 | 2 | 1 | 1 | 66.7% |" in out
    assert out[-1] == f"{MODULE}4"  # the survivor not listed (no test ran it)


@keeps(
    "docs/development.md",
    'The score says so when the mutant it names is killed ("listed as equivalent but killed")',
)
def test_a_listed_equivalent_that_is_killed_is_named_and_counted_killed(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An entry whose function changed may name another mutant, one the tests kill: the
    # score names it, and counts the mutant as what it is, killed.
    listed(tree, 1, 3)
    mutation_score.score([], show_survivors=False)
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"listed as equivalent but killed: {MODULE}1"]
    assert "| uow | 5 | 2 | 1 | 1 | 66.7% |" in captured.out.splitlines()


def test_a_listed_equivalent_mutmut_no_longer_makes_is_named(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed(tree, 3, 9)
    mutation_score.score([], show_survivors=False)
    assert capsys.readouterr().err.splitlines() == [
        f"listed as equivalent, but no such mutant now: {MODULE}9"
    ]
