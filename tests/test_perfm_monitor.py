"""A performance event monitor under ``qsg exec``: scenarios/programs/perfm_monitor.py
waits on SYSTEM.ADMIN.PERFM.EVENT and reads each event message byte by byte, in the
scenario scenarios/exec-events.toml (IBM: "Queue depth events: example 2", played on a
running world; "Event message format")."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from actors.events import MessagePut
from qsg.commands.exec.command import run_exec
from qsg.commands.exec.program import parse_command
from qsg.core.events import EventMessagePut
from qsg.scenario import load_scenario
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
MONITOR = str(ROOT / "scenarios" / "programs" / "perfm_monitor.py")


@keeps(
    "docs/mq-events.md",
    "`scenarios/programs/perfm_monitor.py` is a plain pymqi program that waits on "
    "`SYSTEM.ADMIN.PERFM.EVENT` and reads each message byte by byte",
)
@pytest.mark.parametrize("store", ["in-process", "server"])
def test_the_monitor_reads_depth_high_full_and_low_as_the_queue_fills_and_drains(
    store: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    # 10 puts a second to APP.WORK (MAXDEPTH 100, QDEPTHHI 80, QDEPTHLO 20), a getter
    # from 20 s: High at depth 80 (8 s), Full at the 101st put (10.1 s; the later
    # refusals make none), Low when the getter drains it (20 s), each event waking the
    # monitor's waiting MQGET.
    scenario = load_scenario(ROOT / "scenarios" / "exec-events.toml")
    redis_url = None
    if store == "server":
        redis_url = request.getfixturevalue("cf_url")
        scenario = dataclasses.replace(
            scenario, run=dataclasses.replace(scenario.run, in_process=False)
        )
    outcome, result = run_exec(
        scenario, parse_command(["python", MONITOR, "QM1", "3"]), virtual=True, redis_url=redis_url
    )
    assert outcome.exit_status == 0 and not outcome.stopped
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "8.0s Queue Depth High (2224): QMgrName QM1 QName APP.WORK: "
        "TimeSinceReset 7 HighQDepth 80 MsgEnqCount 80 MsgDeqCount 0",
        "10.1s Queue Full (2053): QMgrName QM1 QName APP.WORK: "
        "TimeSinceReset 2 HighQDepth 100 MsgEnqCount 20 MsgDeqCount 0",
        "20.0s Queue Depth Low (2225): QMgrName QM1 QName APP.WORK: "
        "TimeSinceReset 9 HighQDepth 100 MsgEnqCount 0 MsgDeqCount 80",
    ]
    logged = [e for e in result.events if isinstance(e, EventMessagePut)]
    assert [(e.queue, e.reason, e.object_name) for e in logged] == [
        ("SYSTEM.ADMIN.PERFM.EVENT", 2224, "APP.WORK"),
        ("SYSTEM.ADMIN.PERFM.EVENT", 2053, "APP.WORK"),
        ("SYSTEM.ADMIN.PERFM.EVENT", 2225, "APP.WORK"),
    ]
    assert not any(
        isinstance(e, MessagePut) and e.queue.startswith("SYSTEM.") for e in result.events
    )


@keeps("docs/mq-events.md", "An MQ error ends it with one line, the reason code in it")
def test_the_monitor_on_a_queue_manager_without_the_event_queue_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # QM9 has no SYSTEM.ADMIN.PERFM.EVENT: MQOPEN fails with MQRC_UNKNOWN_OBJECT_NAME
    # (2085), and the program ends with one line and exit status 1, no traceback.
    bare = tmp_path / "bare.toml"
    bare.write_text("[run]\nduration = 5\nin_process = true\n\n[qmgr.QM9]\n")
    outcome, _ = run_exec(
        load_scenario(bare), parse_command(["python", MONITOR, "QM9"]), virtual=True
    )
    assert outcome.exit_status == 1
    assert capsys.readouterr().out.splitlines() == [
        "perfm_monitor: MQI Error. Comp: 2, Reason 2085: FAILED: MQRC_UNKNOWN_OBJECT_NAME"
    ]


@keeps(
    "docs/mq-events.md",
    "a message that is not an event message is skipped with a line saying why.",
)
def test_a_message_on_the_event_queue_that_is_no_event_is_skipped_with_a_line_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An application's stray message lands on SYSTEM.ADMIN.PERFM.EVENT at 1 s, before
    # the first real event (Queue Depth High at 8 s).
    stray = tmp_path / "stray.toml"
    stray.write_text(
        (ROOT / "scenarios" / "exec-events.toml").read_text()
        + '\n[[workload]]\nname = "stray"\ntype = "putter"\nqmgr = "QM1"\n'
        'queue = "SYSTEM.ADMIN.PERFM.EVENT"\nrate = 1\nstart = 1\ncount = 1\n'
    )
    outcome, _ = run_exec(
        load_scenario(stray), parse_command(["python", MONITOR, "QM1", "1"]), virtual=True
    )
    assert outcome.exit_status == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and " skipped: " in lines[0], lines
    assert lines[1].startswith("8.0s Queue Depth High (2224)")
