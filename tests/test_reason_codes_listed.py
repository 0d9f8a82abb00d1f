"""docs/reason-codes.md: "The table lists every reason code qsg returns". Every reason
code an MQ call of the rules layer (qsg/core) or the coupling facility's store
(coupling/) raises must have its row, so that a code added with a feature (connection
tags' 2271 and 2350, loss of connectivity's 2345) cannot go unlisted."""

from __future__ import annotations

import re
from pathlib import Path

from qsg import CMQC
from tests.claims import keeps

ROOT = Path(__file__).resolve().parents[1]
RAISED = re.compile(
    r"MQMIError(?:\.failed)?\(\s*(?:CMQC\.MQCC_\w+,\s*)?(?:CMQC\.)?(MQRC_\w+)", re.MULTILINE
)
#: The engine's guard for a put or get handed no unit of work: no connection reaches it,
#: as "Not modelled" says of 2072 (every connection has a unit of work to join).
UNREACHABLE = {CMQC.MQRC_SYNCPOINT_NOT_AVAILABLE}


def _listed() -> set[int]:
    """The codes of the table's rows: single ones, lists (2091, 2092) and ranges
    (2036–2040)."""
    codes: set[int] = set()
    text = (ROOT / "docs" / "reason-codes.md").read_text()
    for first in re.findall(r"^\| ([0-9][0-9,–\- ]*) \|", text, re.MULTILINE):
        for part in first.split(","):
            low, _, high = part.strip().replace("–", "-").partition("-")
            codes.update(range(int(low), int(high or low) + 1))
    return codes


@keeps("docs/reason-codes.md", "The table lists every reason code qsg returns")
def test_every_reason_code_the_rules_and_the_facilitys_store_raise_has_its_row() -> None:
    raised: dict[int, str] = {}
    for folder in ("qsg/core", "coupling"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name in RAISED.findall(path.read_text()):
                raised.setdefault(getattr(CMQC, name), f"{name} ({path.relative_to(ROOT)})")
    listed = _listed() | UNREACHABLE
    missing = sorted(where for code, where in raised.items() if code not in listed)
    assert not missing, missing
