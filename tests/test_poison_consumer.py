"""A poison-message consumer under ``qsg exec``: BOTHRESH and BOQNAME read with MQINQ,
the move done by the application (IBM: "BackoutThreshold (MQLONG)", "Messages that are
backed out"); scenarios/exec-poison.toml and scenarios/programs/poison.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from actors.events import MessageGot, MessagePut
from qsg.chaos import checkers, history
from qsg.commands.exec.command import run_exec
from qsg.commands.exec.program import parse_command
from qsg.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def test_a_consumer_moves_a_message_backed_out_bothresh_times_to_boqname(
    capsys: pytest.CaptureFixture[str],
) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "exec-poison.toml")
    consumer = parse_command(["python", str(ROOT / "scenarios" / "programs" / "poison.py"), "QM1"])
    outcome, result = run_exec(scenario, consumer, virtual=True, check=True)
    assert outcome.exit_status == 0 and not outcome.stopped
    backed_out = [
        f"cannot process a 8192-byte record: backed out (BackoutCount was {n})" for n in range(3)
    ]
    moved = "moved a 8192-byte message to APP.WORK.BACKOUT after 3 backouts"
    assert capsys.readouterr().out.splitlines() == [
        "APP.WORK: BOTHRESH(3) BOQNAME(APP.WORK.BACKOUT)",
        *backed_out,
        moved,
        *backed_out,
        moved,
        "done: 18 processed, 2 moved to APP.WORK.BACKOUT",
    ]
    # Each 8 KB order was got four times (three backed out), then put to the backout
    # queue by the program, with its MsgId, in the unit of work of its last get.
    events = result.events
    big = {
        e.msg_id
        for e in events
        if isinstance(e, MessagePut) and e.queue == "APP.WORK" and e.size == 8192
    }
    gets = [e for e in events if isinstance(e, MessageGot) and e.msg_id in big]
    assert len(big) == 2 and len(gets) == 8
    moves = [e for e in events if isinstance(e, MessagePut) and e.queue == "APP.WORK.BACKOUT"]
    assert {e.msg_id for e in moves} == big
    assert all(e.syncpoint and e.persistent and e.q_mgr == "QM1" for e in moves)
    verdicts = {v.name: v for v in checkers.check(history.read(events, result.scopes))}
    assert verdicts["queue"].ok and verdicts["queue"].counts["lost"] == 0
