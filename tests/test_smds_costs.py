"""SMDS access costs: the model's ``smds_write`` and ``smds_read`` (issue 32).

The rule (docs/capacity.md, "Offload to SMDS"): a message whose data is offloaded
(``qsg.core.offload``: over 63 KB always; smaller ones by the structure's OFFLDnTH/
OFFLDnSZ rules) costs its MQPUT one SMDS write and each MQGET or browse of it one SMDS
read, as simulated seconds added after the call; a message kept in the structure costs
neither. The queue manager's statistics count the accesses (``smds_writes``,
``smds_reads``). ``cf_mode`` runs each test in process and on the Redis server.
"""

from __future__ import annotations

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.costs import Costs
from qsg import CMQC, GMO, MD, PMO
from qsg.scenario import parse_scenario
from qsg.scenario.play import run_scenario
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
BIG = b"b" * (64 * 1024)  # over 63 KB: always offloaded


@keeps("README.md", "with CFLEVEL(5)'s offload rules and SMDS costs")
async def test_an_offloaded_put_costs_an_smds_write_and_its_get_an_smds_read(
    virtual_clock: VirtualClock, cf_mode: dict[str, object]
) -> None:
    costs = Costs(smds_write=0.25, smds_read=0.125)
    async with qsg.start(qsg_and_qm3(costs), **cf_mode) as world:  # type: ignore[arg-type]
        conn = await world.connect("QM1")
        q = await conn.open("APP.SHARED", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
        start = trio.current_time()
        await q.put(b"small", MD(), NO_SYNC)  # kept in the structure: no SMDS access
        assert trio.current_time() == start
        await q.put(BIG, MD(), NO_SYNC)
        assert trio.current_time() - start == pytest.approx(0.25)
        gmo = GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)
        start = trio.current_time()
        assert await q.get(None, MD(), gmo) == b"small"
        assert trio.current_time() == start
        assert await q.get(None, MD(), gmo) == BIG
        assert trio.current_time() - start == pytest.approx(0.125)
        stats = world.qmgrs["QM1"].statistics
        assert (stats.smds_writes, stats.smds_reads) == (1, 1)


def test_the_model_refuses_a_negative_smds_cost() -> None:
    with pytest.raises(ValueError, match="cost smds_read must not be negative"):
        Costs(smds_read=-1.0)


SCENARIO = """\
[run]
duration = 100
seed = 3
in_process = true
sample_interval = 10

[model]
smds_write = 0.001
smds_read = 0.002

[qsg.QSG1]
members = ["QM1"]
mqsc = "DEFINE QLOCAL(APP.SHARED) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.SHARED"
rate = 5
arrival = "constant"
size = 70000

[[workload]]
type = "getter"
qmgr = "QM1"
queue = "APP.SHARED"
"""


@pytest.mark.parametrize("costs", [True, False], ids=["charged", "free"])
def test_the_summary_gives_smds_writes_and_reads_a_second(costs: bool) -> None:
    # 70,000-byte messages, all offloaded: each MQPUT one write, each MQGET one read.
    # Free (no SMDS cost), the clock drives the putter and getter itself (docs/speed.md):
    # their accesses are counted all the same.
    text = (
        SCENARIO
        if costs
        else SCENARIO.replace("smds_write = 0.001", "").replace("smds_read = 0.002", "")
    )
    result = run_scenario(parse_scenario(text))
    row = result.summary.qmgr("QM1")
    assert row["smds_writes_per_second"] == pytest.approx(row["put"] / 100)
    assert row["smds_reads_per_second"] == pytest.approx(row["got"] / 100)
    assert row["put"] > 400
