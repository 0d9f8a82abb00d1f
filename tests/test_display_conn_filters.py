"""DISPLAY CONN's selection (IBM: "DISPLAY CONN"): CONN(*) and a generic CONN select,
EXTCONN(...) and WHERE(...) filter, as docs/mqsc.md says."""

from __future__ import annotations

from tests.claims import keeps
from tests.test_display_conn import busy, run, value


@keeps(
    "docs/mqsc.md",
    "`CONN(*)` or a generic CONN selects, `EXTCONN(...)` and `WHERE(...)` filter.",
)
def test_display_conn_selects_by_generic_conn_and_filters_by_extconn_and_where() -> None:
    qm = busy()
    every = [x for x in run(qm, "DIS CONN(*)") if x.startswith("CSQM201I")]
    conns = [value(x, "CONN") for x in every]
    assert len(conns) == 2
    one = [x for x in run(qm, f"DIS CONN({conns[1]})") if x.startswith("CSQM201I")]
    assert [value(x, "CONN") for x in one] == [conns[1]]
    generic = [x for x in run(qm, "DIS CONN(0000*)") if x.startswith("CSQM201I")]
    assert [value(x, "CONN") for x in generic] == conns
    assert run(qm, "DIS CONN(FFFF*)")[0].startswith("CSQM297I")
    extconn = value(every[0], "EXTCONN")
    same_life = run(qm, f"DIS CONN(*) EXTCONN({extconn})")
    assert sum(x.startswith("CSQM201I") for x in same_life) == 2
    other = run(qm, "DIS CONN(*) EXTCONN(00000000000000000000000000000000)")
    assert other[0].startswith("CSQM297I") and "NO CONN FOUND" in other[0]
    tagged = [x for x in run(qm, "DIS CONN(*) WHERE(APPLTAG EQ APP2)") if x.startswith("CSQM201I")]
    assert [value(x, "APPLTAG") for x in tagged] == ["APP2"]
