"""``qsg exec --check``: verdicts a user can trust (issue 42).

Each test runs a small pymqi program under ``qsg exec --check`` (the CLI, on the virtual
clock, in process) inside a two-member QSG written for it, and reads the checkers'
lines on standard error: ``check NAME STATUS  counts``, STATUS being ``ok``,
``VIOLATION`` or ``not exercised``.

The rules pinned: a message still on a queue at the run's end is not lost (Jepsen's
total-queue checker reads the final state before it judges); a put with
MQPER_PERSISTENCE_AS_Q_DEF is persistent when the queue's DEFPSIST is YES ("Persistence
(MQLONG)", MQMD: the queue manager resolves it from the queue's default persistence); a
checker that had nothing to judge says so; and the verdict names which scheduled faults
happened.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from qsg.commands.cli import main
from qsg.core import bugs
from tests.claims import keeps

SCENARIO = """\
description = "a two-member QSG for one pymqi program under qsg exec --check"

[run]
duration = 120
seed = 7
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = \"\"\"
DEFINE QLOCAL(APP.ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)
DEFINE QLOCAL(APP.NOTES) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(NO)
\"\"\"

[qsg.QSG1.structures.APP1]
size_kb = 4096
recover = true

[qmgr.QM1]
mqsc = "DEFINE QLOCAL(APP.LOCAL) DEFPSIST(YES)"

[qmgr.QM2]
"""

#: The program's common start: pymqi, and a persistent put outside syncpoint.
PRELUDE = """\
import time
import pymqi
C = pymqi.CMQC
def put(queue, n, **md):
    for _ in range(n):
        queue.put(b"order", pymqi.MD(**md), pymqi.PMO(Options=C.MQPMO_NO_SYNCPOINT))
PERSISTENT = {"Persistence": C.MQPER_PERSISTENT}
"""

_LINE = re.compile(r"^check (\S+)\s+(ok|VIOLATION|not exercised)  (.*)$")


def check(
    tmp_path: Path, program: str, faults: str = "", *, in_process: bool = True
) -> tuple[int, dict[str, tuple[str, str]], list[str]]:
    """``qsg exec --check`` of ``program`` (after PRELUDE) in SCENARIO with ``faults``
    (shared queues in process, or on the CF's server): the exit status, each checker's
    (status, counts), and every line printed."""
    scenario = tmp_path / "check.toml"
    text = SCENARIO if in_process else SCENARIO.replace("in_process = true", "in_process = false")
    scenario.write_text(text + faults)
    command = ["exec", str(scenario), "--virtual", "--check", "--quiet", "--", "python"]
    result = CliRunner().invoke(main, [*command, "-c", PRELUDE + program])
    lines = result.output.splitlines()
    verdicts = {}
    for line in lines:
        found = _LINE.match(line)
        if found:
            verdicts[found[1]] = (found[2], found[3])
    assert verdicts, result.output
    return result.exit_code, verdicts, lines


def count(counts: str, name: str) -> int:
    """One count of a verdict's line (``lost 0, ...``)."""
    found = re.search(rf"(?:^|, ){name} (\d+)", counts)
    assert found, f"no {name} in {counts!r}"
    return int(found[1])


@keeps("README.md", "(a message still on a queue is not lost)")
@pytest.mark.parametrize("in_process", [True, False], ids=["in process", "on the CF server"])
@keeps(
    "docs/chaos.md",
    "an acknowledged one still on a queue at the end as remaining: neither is a violation",
)
@keeps("docs/pymqi.md", "An acknowledged message still on a queue is `remaining`, not `lost`")
def test_messages_still_on_their_queues_at_the_end_are_not_lost(
    tmp_path: Path, in_process: bool
) -> None:
    """Jepsen's total queue: a message is lost only if it is neither delivered nor still
    on a queue when the run ends (the final state is read before judging, from the
    coupling facility's server too). Five persistent orders stay on the shared queue
    and two on QM1's own queue."""
    status, verdicts, lines = check(
        tmp_path,
        "qm = pymqi.connect('QM1')\n"
        "orders = pymqi.Queue(qm, 'APP.ORDERS', C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)\n"
        "put(orders, 6, **PERSISTENT)\n"
        "put(pymqi.Queue(qm, 'APP.LOCAL'), 2, **PERSISTENT)\n"
        "orders.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT))\n",
        in_process=in_process,
    )
    assert status == 0, lines
    queue_status, counts = verdicts["queue"]
    assert queue_status == "ok", lines
    assert (count(counts, "acknowledged"), count(counts, "lost")) == (8, 0)
    assert count(counts, "remaining") == 7


@keeps(
    "docs/chaos.md",
    "a message a failed or abandoned unit of work held that never came back (not delivered "
    "after, and not on a queue at the end)",
)
@keeps(
    "docs/pymqi.md",
    "a message peer recovery (or a backout) put back that nobody got again has come back all "
    "the same",
)
def test_messages_peer_recovery_put_back_on_the_shared_queue_came_back(tmp_path: Path) -> None:
    """Peer recovery: when QM1 fails, QM2 backs out QM1's unit of work, and the two
    orders it had got in syncpoint are on APP.ORDERS again. Nobody gets them after; they
    are on the queue at the end, so they came back and none is lost."""
    status, verdicts, lines = check(
        tmp_path,
        "qm = pymqi.connect('QM1')\n"
        "orders = pymqi.Queue(qm, 'APP.ORDERS', C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)\n"
        "put(orders, 3, **PERSISTENT)\n"
        "for _ in range(2):\n"
        "    orders.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_SYNCPOINT))\n"
        "time.sleep(10)\n"  # QM1 is killed at 5 s
        "try:\n"
        "    orders.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_SYNCPOINT))\n"
        "except pymqi.MQMIError as error:\n"
        "    print('get:', error.reason)\n",
        faults='\n[[fault]]\nat = 5\naction = "kill"\nqmgr = "QM1"\n',
    )
    assert "get: 2009" in lines, lines
    assert status == 0, lines
    recovery_status, recovery = verdicts["recovery"]
    assert recovery_status == "ok", lines
    assert (count(recovery, "held_by_backed_out"), count(recovery, "never_came_back")) == (2, 0)
    queue_status, counts = verdicts["queue"]
    assert queue_status == "ok" and count(counts, "lost") == 0, lines
    assert count(counts, "remaining") == 3


@pytest.mark.parametrize(
    ("queue", "status", "lost", "nonpersistent_gone"),
    [("APP.ORDERS", "VIOLATION", 1, 0), ("APP.NOTES", "ok", 0, 1)],
    ids=["DEFPSIST(YES)", "DEFPSIST(NO)"],
)
@keeps(
    "docs/chaos.md",
    "A message's persistence is the one the queue manager resolved: a put with "
    "MQPER_PERSISTENCE_AS_Q_DEF is persistent on a DEFPSIST(YES) queue.",
)
@keeps("docs/pymqi.md", "is persistent when its queue's DEFPSIST is YES")
def test_a_put_as_the_queues_default_persistence_is_judged_as_the_queue_manager_resolved_it(
    tmp_path: Path, queue: str, status: str, lost: int, nonpersistent_gone: int
) -> None:
    """MQPER_PERSISTENCE_AS_Q_DEF (the MQMD's default) takes the queue's DEFPSIST: on
    DEFPSIST(YES) the message is persistent and its loss (here by the test-only bug that
    drops a unit of work's first put at MQCMIT) is a violation; on DEFPSIST(NO) it is
    nonpersistent, which MQ may lose."""
    with bugs.injected(bugs.DROP_ON_COMMIT):
        exit_status, verdicts, lines = check(
            tmp_path,
            "qm = pymqi.connect('QM1')\n"
            f"q = pymqi.Queue(qm, '{queue}', C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)\n"
            "for _ in range(3):\n"
            "    q.put(b'order', pymqi.MD(), pymqi.PMO(Options=C.MQPMO_SYNCPOINT))\n"
            "qm.commit()\n"
            "got = 0\n"
            "try:\n"
            "    while True:\n"
            "        q.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT))\n"
            "        got += 1\n"
            "except pymqi.MQMIError as error:\n"
            "    assert error.reason == C.MQRC_NO_MSG_AVAILABLE\n"
            "print('got', got)\n",
        )
    assert "got 2" in lines, lines
    queue_status, counts = verdicts["queue"]
    assert queue_status == status, lines
    assert (count(counts, "lost"), count(counts, "nonpersistent_gone")) == (
        lost,
        nonpersistent_gone,
    )
    assert exit_status == (1 if status == "VIOLATION" else 0)


@keeps("README.md", 'each saying ok, VIOLATION or "not exercised"')
@keeps("docs/pymqi.md", "`not exercised`: the run held nothing for that checker to judge")
def test_a_checker_with_nothing_to_judge_says_not_exercised_not_ok(tmp_path: Path) -> None:
    """Two persistent messages put and got, no expiry, no group, no report asked, no
    expiry scan, no fault: only the queue checker had anything to judge."""
    status, verdicts, lines = check(
        tmp_path,
        "qm = pymqi.connect('QM2')\n"
        "q = pymqi.Queue(qm, 'APP.ORDERS', C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)\n"
        "put(q, 2, **PERSISTENT)\n"
        "for _ in range(2):\n"
        "    q.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT))\n",
    )
    assert status == 0, lines
    assert {name: s for name, (s, _) in verdicts.items()} == {
        "queue": "ok",
        "expiry": "not exercised",
        "scan-lease": "not exercised",
        "recovery": "not exercised",
        "group-order": "not exercised",
        "expiry-reports": "not exercised",
        "faults": "not exercised",
    }


@keeps("README.md", "lists which scheduled faults happened")
@keeps(
    "docs/chaos.md",
    "never: it lists each scheduled fault (and each undoing after a `duration`) as happened, "
    "refused (with the world's reason) or not reached (the run ended first)",
)
def test_the_verdict_names_the_scheduled_faults_that_happened_and_those_that_did_not(
    tmp_path: Path,
) -> None:
    """The program ends at 8 s: QM2 was killed at 2 s; the stall of QM1's expiry scan
    at 3 s was refused (QM1 holds no expiry-scan lease: marked expected); QM2's restart
    at 102 s never came (the run ends with the program)."""
    faults = (
        '\n[[fault]]\nat = 2\naction = "kill"\nqmgr = "QM2"\nduration = 100\n'
        '\n[[fault]]\nat = 3\naction = "stall_scan"\nqmgr = "QM1"\namount = 5\n'
        "expected = true\n"
    )
    status, verdicts, lines = check(tmp_path, "time.sleep(8)\n", faults)
    assert status == 0, lines
    faults_status, counts = verdicts["faults"]
    assert faults_status == "ok", lines
    assert [count(counts, n) for n in ("scheduled", "happened", "refused", "not_reached")] == [
        3,
        1,
        1,
        1,
    ]
    where = lines.index(next(line for line in lines if line.startswith("check faults")))
    assert lines[where + 1 : where + 4] == [
        "  kill QM2 at 2 s: happened",
        "  stall_scan QM1 at 3 s: refused (QM1 holds no expiry-scan lease to stall with)",
        "  restart QM2 at 102 s: not reached (the run ended at 8 s)",
    ]


@keeps("docs/pymqi.md", "MQDISC commits the connection's unit of work")
def test_mqdisc_commits_the_unit_of_work_so_its_puts_are_acknowledged_not_unexpected(
    tmp_path: Path,
) -> None:
    """IBM MQ, "MQDISC - Disconnect queue manager": for a unit of work the queue manager
    coordinates, MQDISC issues MQCMIT on the application's behalf. The two orders put in
    syncpoint are committed by MQDISC; QM2 then gets them: delivered, not unexpected."""
    status, verdicts, lines = check(
        tmp_path,
        "qm = pymqi.connect('QM1')\n"
        "q = pymqi.Queue(qm, 'APP.ORDERS', C.MQOO_OUTPUT)\n"
        "for _ in range(2):\n"
        "    q.put(b'order', pymqi.MD(), pymqi.PMO(Options=C.MQPMO_SYNCPOINT))\n"
        "q.close()\n"
        "qm.disconnect()\n"
        "qm = pymqi.connect('QM2')\n"
        "q = pymqi.Queue(qm, 'APP.ORDERS', C.MQOO_INPUT_SHARED)\n"
        "for _ in range(2):\n"
        "    q.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT))\n",
    )
    assert status == 0, lines
    queue_status, counts = verdicts["queue"]
    assert queue_status == "ok", lines
    assert (count(counts, "acknowledged"), count(counts, "unexpected")) == (2, 0)


@pytest.mark.parametrize(
    ("ending", "exit_status", "acknowledged"),
    [("", 0, 2), ("raise SystemExit('gave up')\n", 1, 0)],
    ids=["normal end", "sys.exit with a message"],
)
@keeps(
    "docs/pymqi.md",
    "committed if it ended normally, backed out if it ended with an uncaught exception",
)
def test_a_unit_of_work_a_program_leaves_open_ends_as_qsg_exec_ends_it(
    tmp_path: Path, ending: str, exit_status: int, acknowledged: int
) -> None:
    """A program that ends with its unit of work open: ``qsg exec`` commits it when the
    program ended normally and backs it out otherwise (docs/pymqi.md), and the history
    says so: two acknowledged orders still on the queue, or none and nothing left."""
    status, verdicts, lines = check(
        tmp_path,
        "qm = pymqi.connect('QM1')\n"
        "q = pymqi.Queue(qm, 'APP.ORDERS', C.MQOO_OUTPUT)\n"
        "for _ in range(2):\n"
        "    q.put(b'order', pymqi.MD(), pymqi.PMO(Options=C.MQPMO_SYNCPOINT))\n" + ending,
    )
    assert status == exit_status, lines
    queue_status, counts = verdicts["queue"]
    assert queue_status == "ok", lines
    assert count(counts, "acknowledged") == count(counts, "remaining") == acknowledged
    assert count(counts, "unexpected") == 0


@keeps(
    "docs/chaos.md",
    "or its queue could not be read at the end (its facility down or cut off then: `not_read`, "
    "and the store is named)",
)
@keeps(
    "docs/pymqi.md",
    "a message on one of its queues is counted as `not_read`, neither lost nor remaining",
)
def test_a_message_on_a_facility_cut_off_at_the_end_is_not_read_not_lost(tmp_path: Path) -> None:
    """The coupling facility is unavailable to every member from 2 s to the end: what
    APP.ORDERS holds there cannot be read, so its order is neither lost nor remaining
    (``not_read``), and the queue line says which store was not read."""
    status, verdicts, lines = check(
        tmp_path,
        "qm = pymqi.connect('QM1')\n"
        "put(pymqi.Queue(qm, 'APP.ORDERS'), 1, **PERSISTENT)\n"
        "time.sleep(5)\n",
        faults='\n[[fault]]\nat = 2\naction = "cf_unavailable"\n',
        in_process=False,
    )
    assert status == 0, lines
    queue_status, counts = verdicts["queue"]
    assert queue_status == "ok", lines
    assert [count(counts, n) for n in ("acknowledged", "lost", "remaining", "not_read")] == [
        1,
        0,
        0,
        1,
    ]
    assert "  not read at the end: QSG1's coupling facility: " in "\n".join(lines)
