"""``import pymqi`` (and ``import ibmmq``) under ``qsg exec`` has every name docs/pymqi.md
promises: each structure of its table "The structures", each name of its section
"ibmmq", and everything ``qsg.pymqi.structs`` defines for it. A structure the docs list
"as ``ibmmq`` has them" but the package leaves out is an ``AttributeError`` in the
program, which is what issue 42 found of ``pymqi.CNO()``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qsg import pymqi
from qsg.commands.exec.imports import pymqi_aliases
from qsg.pymqi import CMQC, structs
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "pymqi.md").read_text()


def documented_structures() -> list[str]:
    """The class names (and aliases) in the first column of docs/pymqi.md's table of
    structures."""
    table = GUIDE.split("### The structures", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    return [name for row in rows for name in re.findall(r"`(\w+)`", row.split(" | ")[0])]


def test_the_guides_table_of_structures_is_read() -> None:
    names = documented_structures()
    assert {"MD", "md", "CNO", "DLH", "MDE", "RFH2", "CFH", "CFST"} <= set(names)


@pytest.mark.parametrize("name", documented_structures())
def test_each_structure_the_guide_lists_is_a_class_of_the_pymqi_module(name: str) -> None:
    # docs/pymqi.md, "The structures": "`CNO` | MQCNO ... (as `ibmmq` has it)" and
    # "`DLH`, `MDE` | MQDLH, MQMDE ... (as `ibmmq` has them)".
    cls = getattr(pymqi, name)
    assert name in pymqi.__all__
    assert cls().pack() == cls().pack()  # made with its defaults, and packed


def test_every_name_the_structures_module_exports_is_exported_by_pymqi() -> None:
    assert set(structs.__all__) <= set(pymqi.__all__)
    for name in structs.__all__:
        assert getattr(pymqi, name) is getattr(structs, name)


def test_every_name_pymqi_lists_resolves() -> None:
    for name in pymqi.__all__:
        assert hasattr(pymqi, name), name


@keeps("docs/pymqi.md", "`DLH().get_header(msg)`, `XQH().get_header(msg)`")
def test_the_ibmmq_helpers_the_guide_names_are_there() -> None:
    # docs/pymqi.md, "ibmmq": "`DLH().get_header(msg)`, `XQH().get_header(msg)`,
    # `XQH().get_embedded_md(msg)` ... and the function `to_string(bytes)`".
    dlh = pymqi.DLH(Reason=CMQC.MQRC_Q_FULL, DestQName=b"Q1")
    assert pymqi.DLH().get_header(dlh.pack() + b"body").Reason == CMQC.MQRC_Q_FULL
    assert pymqi.to_string(b"QM1  \0junk") == "QM1"
    assert callable(pymqi.XQH().get_embedded_md)


@keeps(
    "docs/pymqi.md",
    "`CNO`, `DLH` and `MDE` (with `StrucId` and `Reserved` spelled as pymqi spells them)",
)
def test_cno_dlh_and_mde_under_import_ibmmq_pack_to_ibms_lengths() -> None:
    with pymqi_aliases():
        import ibmmq  # type: ignore[import-not-found]

        assert ibmmq is pymqi
        lengths = (len(ibmmq.CNO().pack()), len(ibmmq.DLH().pack()), len(ibmmq.MDE().pack()))
    assert lengths == (CMQC.MQCNO_LENGTH_8, CMQC.MQDLH_LENGTH_1, CMQC.MQMDE_LENGTH_2)
