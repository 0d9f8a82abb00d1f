"""`qsg validate` names a fault's CF structure or coupling facility that the scenario's
QSGs do not have, with its file, line and key, before anything starts (issue 48's faults;
README: "qsg validate checks it without starting anything (every problem as
file:line: key: problem, exit 2)")."""

from __future__ import annotations

from pathlib import Path

import pytest

from qsg.scenario import ScenarioError, load_scenario
from tests.claims import keeps

SCENARIO = """\
[run]
duration = 30
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
facilities = ["CF01", "CF02"]
mqsc = \"\"\"
DEFINE CFSTRUCT(PRICES) CFLEVEL(5) RECOVER(NO)
DEFINE QLOCAL(APP.ORDERS) QSGDISP(SHARED) CFSTRUCT(ORDERS)
\"\"\"

[qsg.QSG1.structures.ORDERS]
recover = true

[[fault]]
at = 10
action = "{action}"
{target}
"""


def problems(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "faults.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    return [str(p).replace(str(tmp_path) + "/", "") for p in caught.value.problems]


def scenario(action: str, target: str) -> str:
    return SCENARIO.format(action=action, target=target)


@keeps("docs/scenarios.md", "`qsg validate` checks that the QSGs have it")
def test_validate_names_a_structure_fault_whose_structure_no_qsg_has(tmp_path: Path) -> None:
    found = problems(scenario("structure_fail", 'structure = "ORDRES"'), tmp_path)
    assert found == [
        "faults.toml:19: fault[0].structure: no CF structure ORDRES in the scenario's QSGs "
        "(did you mean ORDERS?)"
    ]


@keeps("docs/scenarios.md", "`qsg validate` checks that the QSGs have it")
def test_validate_names_a_facility_fault_whose_facility_no_qsg_has(tmp_path: Path) -> None:
    found = problems(scenario("facility_fail", 'facility = "CF03"'), tmp_path)
    assert found == [
        "faults.toml:19: fault[0].facility: no coupling facility CF03 in the scenario's QSGs "
        "(they have CF01, CF02)"
    ]
    lost = problems(scenario("cf_connectivity_loss", 'qmgr = "QM2"\nfacility = "CF3"'), tmp_path)
    assert lost == [
        "faults.toml:20: fault[0].facility: no coupling facility CF3 in the scenario's QSGs "
        "(they have CF01, CF02)"
    ]


def test_a_structure_defined_by_mqsc_and_the_system_structure_are_known(tmp_path: Path) -> None:
    for name in ("PRICES", "ORDERS", "CSQSYSAPPL"):
        path = tmp_path / f"{name}.toml"
        path.write_text(scenario("structure_fail", f'structure = "{name}"'))
        assert load_scenario(path).faults[0].structure == name
