"""docs/architecture.md's table of the layers is made from the code: the layers contract
in pyproject.toml (which ``./dev lint`` checks) and each package's docstring. The table
in the doc is the one this module makes; after moving a package, write it again with
``python -m tests.test_architecture_doc --write``.
"""

from __future__ import annotations

import importlib
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- the layers: made by tests/test_architecture_doc.py -->"
END = "<!-- end of the layers -->"


def _contracts() -> dict[str, dict[str, object]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["id"]: c for c in project["tool"]["importlinter"]["contracts"]}


def _path(module: str) -> str:
    """``qsg.core`` -> ``qsg/core/``, ``qsg.events`` -> ``qsg/events.py``."""
    base = ROOT.joinpath(*module.split("."))
    return f"`{module.replace('.', '/')}/`" if base.is_dir() else f"`{base.relative_to(ROOT)}.py`"


def _summary(module: str) -> str:
    """The first sentence of the module's docstring."""
    doc = (importlib.import_module(module).__doc__ or "").split("\n\n")[0]
    text = " ".join(doc.split()).replace("``", "`")
    match = re.match(r"(.+?\.)(\s|$)", text)
    return (match.group(1) if match else text).rstrip(".")


def table() -> str:
    """The layers, top to bottom: each layer's packages, and what each is."""
    rows = ["| layer | package | what it is |", "|---|---|---|"]
    for number, layer in enumerate(_contracts()["layers"]["layers"]):  # type: ignore[arg-type]
        for module in (name.strip() for name in re.split(r"[|:]", layer)):
            rows.append(f"| {number + 1} | {_path(module)} | {_summary(module)} |")
    inner = []
    for key in ("commands", "actors", "rules"):
        contract = _contracts()[key]
        layers = " > ".join(
            " · ".join(f"`{m.strip().split('.')[-1]}`" for m in re.split(r"[|:]", layer))
            for layer in contract["layers"]  # type: ignore[union-attr]
        )
        inner.append(f"- {contract['name']}: {layers}")
    return "\n".join(rows) + "\n\nInside the layers, each its own contract:\n\n" + "\n".join(inner)


def _section(text: str) -> str:
    return text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip()


def test_the_architecture_doc_shows_the_layers_the_contract_checks() -> None:
    assert _section(DOC.read_text()) == table(), (
        "docs/architecture.md's layers are stale: python -m tests.test_architecture_doc --write"
    )


def test_every_package_of_the_layers_says_what_it_is() -> None:
    for layer in _contracts()["layers"]["layers"]:  # type: ignore[union-attr]
        for module in (name.strip() for name in re.split(r"[|:]", layer)):
            assert _summary(module), f"{module} has no docstring"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    text = DOC.read_text()
    before, after = text[: text.index(BEGIN)], text[text.index(END) + len(END) :]
    DOC.write_text(f"{before}{BEGIN}\n{table()}\n{END}{after}")
