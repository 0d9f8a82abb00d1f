"""``qsg exec``: a pymqi program run unchanged inside a simulated QSG (issue 25).

The programs under tests/programs are pymqi's documented examples; each runs here
under ``qsg exec`` on scenarios/exec-qsg.toml (two z/OS members of QSG1 and a Linux
QM3), and what it did is read back from the run's event log.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from actors.events import MessageGot, MessagePut, OpCompleted
from qsg.chaos import checkers, history
from qsg.commands.cli import main
from qsg.commands.exec.command import run_exec
from qsg.commands.exec.program import CommandError, Program, parse_command
from qsg.scenario import load_scenario
from tests.claims import keeps

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
SCENARIO = ROOT / "scenarios" / "exec-qsg.toml"


def program(name: str, *args: str) -> Program:
    return parse_command(["python", str(PROGRAMS / name), *args])


@keeps("README.md", "its calls are in the summary and the event log beside the scenario's")
def test_a_put_by_pymqis_example_program_is_a_message_on_the_shared_queue() -> None:
    outcome, result = run_exec(load_scenario(SCENARIO), program("put_message.py"), virtual=True)
    assert outcome.exit_status == 0 and not outcome.stopped
    puts = [e for e in result.events if isinstance(e, MessagePut) and e.queue == "TEST.1"]
    assert [(p.q_mgr, p.size) for p in puts] == [("QM1", len(b"Hello from Python!"))]


@keeps("README.md", "The program's output is its own, its exit status is qsg's")
@keeps("docs/pymqi.md", "The exit status is the program's")
def test_qsg_exec_prints_the_programs_output_and_exits_with_its_status() -> None:
    runner = CliRunner()
    code = (
        "import pymqi, sys; q = pymqi.connect('QM3');"
        " print('platform', q.inquire(pymqi.CMQC.MQIA_PLATFORM)); sys.exit(3)"
    )
    result = runner.invoke(
        main, ["exec", str(SCENARIO), "--virtual", "--quiet", "--", "python", "-c", code]
    )
    assert result.exit_code == 3, result.output
    assert "platform 3" in result.stdout


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ([], r"^no program given: after --, give python PROGRAM\.py"),
        (["ruby", "app.rb"], r"^'ruby' is not a Python interpreter"),
        (["python", "-X", "dev", "app.py"], r"^python option -X is not supported"),
        (["python", "no/such/app.py"], r"^can't open file 'no/such/app.py'"),
    ],
)
@keeps("docs/pymqi.md", "anything else is refused in one line with exit status 2")
def test_a_command_that_is_not_a_python_program_is_refused_in_one_line(
    command: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=message):
        parse_command(command)


def test_the_cli_refuses_another_command_with_exit_status_2() -> None:
    result = CliRunner().invoke(main, ["exec", str(SCENARIO), "--", "node", "app.js"])
    assert result.exit_code == 2
    assert "is not a Python interpreter" in result.output


def run_code(code: str, *, duration: float | None = None) -> tuple[object, list[object]]:
    """``python -c CODE`` under qsg exec (virtual clock) from tests/programs."""
    scenario = load_scenario(SCENARIO)
    if duration is not None:
        scenario = dataclasses.replace(
            scenario, run=dataclasses.replace(scenario.run, duration=duration)
        )
    outcome, result = run_exec(scenario, parse_command(["python", "-c", code]), virtual=True)
    return outcome, result.events


def examples(*names: str) -> str:
    """A driver running pymqi's examples, unchanged, one after the other."""
    return "import runpy\n" + "".join(
        f"runpy.run_path({str(PROGRAMS / name)!r}, run_name='__main__')\n" for name in names
    )


def test_pymqis_get_example_on_qm2_gets_what_its_put_example_put_on_qm1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outcome, events = run_code(examples("put_message.py", "get_message.py"))
    assert outcome.exit_status == 0
    got = [e for e in events if isinstance(e, MessageGot) and e.queue == "TEST.1"]
    assert [(g.q_mgr, g.size) for g in got] == [("QM2", 18)]
    assert capsys.readouterr().out == "Hello from Python!\n"


def test_the_get_with_wait_example_waits_in_simulated_time_for_a_put_from_a_thread(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A thread of the program sleeps 3 simulated seconds, then runs the put example;
    # meanwhile the get example waits (WaitInterval 5000) on QM2 and takes the message.
    code = examples("get_wait_single_message.py").replace(
        "import runpy\n",
        "import runpy, threading, time\n"
        "def later():\n"
        "    time.sleep(3)\n"
        f"    runpy.run_path({str(PROGRAMS / 'put_message.py')!r}, run_name='__main__')\n"
        "threading.Thread(target=later).start()\n",
    )
    outcome, events = run_code(code)
    assert outcome.exit_status == 0
    got = [e for e in events if isinstance(e, MessageGot) and e.queue == "TEST.1"]
    assert [(g.q_mgr, round(g.time, 3)) for g in got] == [("QM2", 3.0)]
    assert capsys.readouterr().out == "Hello from Python!\n"


@keeps(
    "README.md",
    "`--virtual` runs the program in simulated time too (its `time.sleep`, clocks and MQGET waits)",
)
def test_under_virtual_an_mqget_waits_its_whole_interval_in_simulated_seconds_not_real_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # An MQGET with MQGMO_WAIT on an empty queue for 200 s (WaitInterval 200000 ms): the
    # program's clock says 200 s went by, the run's clock too, and the test's real clock
    # a fraction of that (on the wall clock the get would hold the test 200 s).
    code = (
        "import pymqi, time; from pymqi import CMQC\n"
        "q = pymqi.Queue(pymqi.connect('QM3'), 'TEST.1')\n"
        "gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=200000)\n"
        "start = time.time()\n"
        "try:\n"
        "    q.get(None, pymqi.MD(), gmo)\n"
        "except pymqi.MQMIError as e:\n"
        "    print(e.reason, round(time.time() - start, 3))\n"
    )
    started = time.monotonic()
    outcome, events = run_code(code)
    real = time.monotonic() - started
    assert outcome.exit_status == 0
    assert capsys.readouterr().out == "2033 200.0\n"  # MQRC_NO_MSG_AVAILABLE, on time
    assert max(e.time for e in events) >= 200 and real < 100


def test_the_get_with_wait_example_fails_with_2033_when_nothing_comes_in_its_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outcome, events = run_code(examples("get_wait_single_message.py"))
    assert outcome.exit_status == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert 'get_wait_single_message.py", line 26, in <module>' in err
    assert err.splitlines()[-1] == (
        "pymqi.MQMIError: MQI Error. Comp: 2, Reason 2033: FAILED: MQRC_NO_MSG_AVAILABLE"
    )
    assert "/actors/" not in err and "site-packages" not in err  # not the simulator's frames
    # The wait ran its 5 s interval in simulated time.
    assert max(e.time for e in events) >= 5.0


# The example's daemon threads end with SystemExit once the run is over, as at
# interpreter exit; pytest's thread hook reports that as a warning.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_the_correlation_id_example_threads_answer_every_request_until_the_scenario_ends() -> None:
    outcome, events = run_code(examples("put_get_correl_id.py"), duration=20)
    assert outcome.stopped  # it runs for ever: the scenario's end stops it
    events = [e for e in events if getattr(e, "q_mgr", "") == "QM3"]
    requests = [e for e in events if isinstance(e, MessagePut) and e.queue == "REQUEST.QUEUE.1"]
    replies = [e for e in events if isinstance(e, MessageGot) and e.queue == "REPLYTO.QUEUE.1"]
    # One request a simulated second or so (the requester sleeps 1 s after each reply).
    assert 10 <= len(requests) <= 21
    assert len(replies) >= len(requests) - 1
    reply_ids = [
        e.msg_id for e in events if isinstance(e, MessagePut) and e.queue == "REPLYTO.QUEUE.1"
    ]
    assert set(g.msg_id for g in replies) <= set(reply_ids)


# The example's daemon threads end with SystemExit once the run is over, as at
# interpreter exit; pytest's thread hook reports that as a warning.
@keeps(
    "README.md",
    "on z/OS an MQPUT that says neither SYNCPOINT nor NO_SYNCPOINT is inside a unit of "
    "work, unseen until MQCMIT",
)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_on_a_zos_member_the_correlation_id_example_never_sees_a_reply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Written for a distributed queue manager, its responder gets and puts without
    # saying NO_SYNCPOINT: on z/OS both are in syncpoint and never committed, so the
    # reply stays invisible and the requester's wait ends with 2033 (the classic
    # surprise of a program moved to z/OS).
    source = (PROGRAMS / "put_get_correl_id.py").read_text()
    code = source.replace("qm_name = 'QM3'", "qm_name = 'QM1'")
    assert code != source
    outcome, events = run_code(code, duration=5)
    assert outcome.stopped
    replies = [e for e in events if isinstance(e, MessagePut) and e.queue == "REPLYTO.QUEUE.1"]
    assert replies and all(r.syncpoint and r.q_mgr == "QM1" for r in replies)
    assert not [e for e in events if isinstance(e, MessageGot) and e.queue == "REPLYTO.QUEUE.1"]
    assert "Reason 2033: FAILED: MQRC_NO_MSG_AVAILABLE" in capsys.readouterr().err


def test_the_reply_to_example_answers_on_the_queue_the_request_names() -> None:
    request = (
        "import pymqi\n"
        "q = pymqi.connect('QM2')\n"
        "q.put1('TEST.1', b'ping', pymqi.MD(ReplyToQ=b'REPLYTO.QUEUE.1', "
        "MsgType=pymqi.CMQC.MQMT_REQUEST), pymqi.PMO(Options=pymqi.CMQC.MQPMO_NO_SYNCPOINT))\n"
    )
    outcome, events = run_code(
        request + examples("reply_to_queues.py").split("\n", 1)[1].join(["import runpy\n", ""])
    )
    assert outcome.exit_status == 0
    replies = [e for e in events if isinstance(e, MessagePut) and e.queue == "REPLYTO.QUEUE.1"]
    assert [(r.q_mgr, r.size) for r in replies] == [("QM1", 4)]


def test_the_dynamic_queue_example_names_its_reply_queue_from_the_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = examples("dynamic_queues.py") + (
        "import pymqi\n"
        "md = pymqi.MD()\n"
        "pymqi.Queue(pymqi.connect('QM1'), 'TEST.1').get(None, md)\n"
        "print('reply to', md.ReplyToQ.strip().decode())\n"
    )
    outcome, _ = run_code(code)
    assert outcome.exit_status == 0
    out = capsys.readouterr().out.splitlines()
    name = out[0].removeprefix("dynamic queue ")
    assert name.startswith("MY.REPLIES.") and out[1] == f"reply to {name}"


def test_the_priority_example_gets_the_priority_it_put() -> None:
    outcome, events = run_code(examples("message_priority.py"))
    assert outcome.exit_status == 0
    got = [e for e in events if isinstance(e, MessageGot) and e.queue == "TEST.1"]
    assert [(g.q_mgr, g.size) for g in got] == [("QM3", 18)]


def test_the_multiple_get_example_loops_until_the_scenario_ends() -> None:
    outcome, events = run_code(examples("get_wait_multiple_messages.py"), duration=30)
    assert outcome.stopped and outcome.exit_status == 0
    assert max(e.time for e in events) >= 30.0


@keeps("docs/pymqi.md", "the consumer reconnects by the QSG's name")
@keeps(
    "README.md",
    "the scenario can kill a member, fail the coupling facility or break a channel around it",
)
def test_a_consumer_whose_member_is_killed_reconnects_by_group_attach_and_loses_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """scenarios/exec-failover.toml: QM1 is killed at 21.5 s under the pymqi consumer; it
    sees 2009, connects again by QSG1's name to QM2, and the chaos checkers find every
    committed order delivered once (the 2 it held uncommitted were backed out by QM2's
    peer recovery and got again)."""
    scenario = load_scenario(ROOT / "scenarios" / "exec-failover.toml")
    consumer = parse_command(
        ["python", str(ROOT / "scenarios" / "programs" / "consumer.py"), "QM1", "QSG1"]
    )
    outcome, result = run_exec(scenario, consumer, virtual=True, check=True)
    assert outcome.exit_status == 0 and not outcome.stopped
    assert capsys.readouterr().out.splitlines() == [
        "connected to QM1 (asked for QM1)",
        "lost the queue manager: MQI Error. Comp: 2, Reason 2009: FAILED: "
        "MQRC_CONNECTION_BROKEN after 107 messages; 2 uncommitted go back to the queue",
        "connected to QM2 (asked for QSG1)",
        "done: 299 messages committed",
    ]
    verdicts = {v.name: v for v in checkers.check(history.read(result.events, result.scopes))}
    assert all(v.ok for v in verdicts.values()), verdicts
    queue = verdicts["queue"].counts
    assert (queue["acknowledged"], queue["lost"], queue["duplicated"]) == (299, 0, 0)
    assert verdicts["recovery"].counts["held_by_backed_out"] == 2
    # The consumer's gets are in the history as its own: on QM1, then on QM2.
    gets = [
        e
        for e in result.events
        if isinstance(e, OpCompleted)
        and e.op == "get"
        and e.outcome == "ok"
        and e.app.startswith("pymqi ")
    ]
    assert {e.q_mgr for e in gets} == {"QM1", "QM2"} and len(gets) == 299 + 2


def test_an_rfh2_put_with_put_rfh2_comes_back_from_get_rfh2_folder_by_folder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outcome, events = run_code(examples("rfh2_put_get.py"))
    assert outcome.exit_status == 0
    assert capsys.readouterr().out == "1 <usr><Colour>blue</Colour></usr> the payload\n"
    puts = [e for e in events if isinstance(e, MessagePut) and e.queue == "TEST.1"]
    assert [p.q_mgr for p in puts] == ["QM3"] and puts[0].size > len(b"the payload") + 36


def shown_runs() -> list[tuple[str, list[str]]]:
    """The ``qsg exec`` commands the README and docs/pymqi.md show with their output:
    the ``#   `` lines right under each (each command once)."""
    runs: dict[str, list[str]] = {}
    for doc in (ROOT / "README.md", ROOT / "docs" / "pymqi.md"):
        command = None
        for line in doc.read_text().splitlines():
            if line.startswith("qsg exec "):
                command = line
                runs.setdefault(command, [])
            elif line.startswith("#   ") and command is not None:
                if line.removeprefix("#   ") not in runs[command]:
                    runs[command].append(line.removeprefix("#   "))
            else:
                command = None  # output is shown right under its command, or not at all
    return [(command, shown) for command, shown in runs.items() if shown]


def test_the_readme_and_the_pymqi_guide_show_exec_runs_with_their_output() -> None:
    commands = [command for command, _ in shown_runs()]
    assert any("surprise.py QM1" in c for c in commands)
    assert any("consumer.py" in c and "--check" in c for c in commands)


@keeps(
    "README.md",
    "on z/OS an MQPUT that says neither SYNCPOINT nor NO_SYNCPOINT is inside a unit of "
    "work, unseen until MQCMIT",
)
@pytest.mark.parametrize(("command", "shown"), shown_runs(), ids=lambda c: str(c)[-40:])
def test_the_docs_qsg_exec_commands_print_what_they_show(command: str, shown: list[str]) -> None:
    cwd = os.getcwd()
    os.chdir(ROOT)  # the README's paths are the repository's
    try:
        result = CliRunner().invoke(main, shlex.split(command)[1:])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    printed = result.output.splitlines()
    for expected in shown:
        if expected.endswith(", ..."):
            assert any(p.startswith(expected.removesuffix(", ...")) for p in printed), printed
        else:
            assert expected in printed, printed


def test_on_the_wall_clock_the_programs_sleep_lets_the_world_go_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The background workload puts on APP.NOISE twice a second (Poisson, seeded): while
    # the program's time.sleep waits (in trio, not blocking the thread), its puts go on.
    code = (
        "import time\nt = time.monotonic()\ntime.sleep(1.2)\nprint(time.monotonic() - t >= 1.2)\n"
    )
    outcome, result = run_exec(load_scenario(SCENARIO), parse_command(["python", "-c", code]))
    assert outcome.exit_status == 0 and capsys.readouterr().out == "True\n"
    noise = [e for e in result.events if isinstance(e, MessagePut) and e.queue == "APP.NOISE"]
    assert noise  # were the sleep to block the thread, no put could have happened meanwhile


def test_the_programs_task_joining_a_thread_lets_the_threads_calls_go_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Were the join to block the trio thread, the thread's put could never run: its
    # join(timeout=5) would come back with the thread still alive.
    code = (
        "import threading, time, pymqi\n"
        "def work():\n"
        "    time.sleep(2)\n"
        "    q = pymqi.connect('QM3')\n"
        "    q.put1('TEST.1', b'from a thread')\n"
        "    q.disconnect()\n"
        "t = threading.Thread(target=work)\n"
        "t.start()\n"
        "t.join(timeout=5)\n"
        "print('alive' if t.is_alive() else 'joined')\n"
        "print(pymqi.Queue(pymqi.connect('QM3'), 'TEST.1').get().decode())\n"
    )
    outcome, _ = run_code(code)
    assert outcome.exit_status == 0
    assert capsys.readouterr().out == "joined\nfrom a thread\n"


@keeps("docs/pymqi.md", "a timeout given to them is kept in simulated time under `--virtual`")
def test_under_virtual_a_joins_timeout_is_simulated_seconds_as_its_sleep_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The thread sleeps 10 simulated seconds; the join gives up after 5 of them, as
    # Thread.join(timeout=5) does, and the program's clock says 5 seconds went by.
    code = (
        "import threading, time\n"
        "t = threading.Thread(target=time.sleep, args=(10,))\n"
        "start = time.monotonic()\n"
        "t.start()\n"
        "t.join(timeout=5)\n"
        "print(t.is_alive(), round(time.monotonic() - start, 3))\n"
        "t.join()\n"
        "print(t.is_alive(), round(time.monotonic() - start, 3))\n"
    )
    outcome, _ = run_code(code)
    assert outcome.exit_status == 0
    assert capsys.readouterr().out == "True 5.0\nFalse 10.0\n"


def test_a_client_connection_by_conname_reaches_the_listener_of_a_python_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nobody uses, for the listener
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    scenario = tmp_path / "client.py"
    scenario.write_text(
        '"""Two queue managers; QM2 listens for clients."""\n'
        "import trio, qsg\n"
        "DURATION, IN_PROCESS = 60, True\n"
        "topology = qsg.Topology()\n"
        "topology.add_qmgr('QM1')\n"
        f"topology.add_qmgr('QM2', listener={port})\n"
        "async def main(world):\n"
        "    await trio.sleep(60)\n"
    )
    code = (
        "import pymqi\n"
        f"q = pymqi.connect('', 'DEV.APP.SVRCONN', 'localhost({port})')\n"
        "print(q.inquire(pymqi.CMQC.MQCA_Q_MGR_NAME).strip().decode())\n"
    )
    result = CliRunner().invoke(
        main, ["exec", str(scenario), "--virtual", "--quiet", "--", "python", "-c", code]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == "QM2\n"


@keeps(
    "docs/pymqi.md",
    'qsg says "the program was stopped at the scenario\'s end" on standard error',
)
def test_a_program_still_running_at_the_duration_is_stopped_and_the_run_written(
    tmp_path: Path,
) -> None:
    code = "import time, pymqi\nq = pymqi.connect('QM1')\nwhile True:\n    time.sleep(1)\n"
    out = tmp_path / "run"
    result = CliRunner().invoke(
        main,
        [
            "exec",
            str(SCENARIO),
            "--virtual",
            "--duration",
            "5",
            "--out",
            str(out),
            "--",
            "python",
            "-c",
            code,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "the program was stopped at the scenario's end (5 s)" in result.stderr
    assert {p.name for p in out.iterdir()} >= {"events.parquet", "summary.json", "run.json"}
    assert "Queues" in result.stderr  # the summary, on standard error


def test_a_toml_scenarios_listener_is_the_conname_a_client_program_reaches_it_by(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    scenario = tmp_path / "client.toml"
    scenario.write_text(
        f"[run]\nduration = 10\nin_process = true\n[qmgr.QM1]\n[qmgr.QM2]\nlistener = {port}\n"
    )
    code = (
        "import pymqi\n"
        f"q = pymqi.connect('QM2', 'DEV.APP.SVRCONN', '127.0.0.1({port})')\n"
        "print(q.inquire(pymqi.CMQC.MQCA_Q_MGR_NAME).strip().decode())\n"
        "try:\n"
        f"    pymqi.connect('QM1', 'DEV.APP.SVRCONN', '127.0.0.1({port})')\n"
        "except pymqi.MQMIError as error:\n"
        "    print(error.reason)\n"
    )
    result = CliRunner().invoke(
        main, ["exec", str(scenario), "--virtual", "--quiet", "--", "python", "-c", code]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == "QM2\n2058\n"


def test_a_listener_that_is_not_a_port_is_a_scenario_problem(tmp_path: Path) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text("[run]\nduration = 10\n[qmgr.QM1]\nlistener = 70000\n")
    result = CliRunner().invoke(main, ["validate", str(scenario)])
    assert result.exit_code == 2
    assert "qmgr.QM1.listener: expected a TCP port 1..65535, found 70000" in result.output


@keeps("docs/pymqi.md", "or as a thread pool's idle worker waiting for work")
def test_a_thread_pools_idle_workers_hold_no_simulated_time() -> None:
    # An idle worker waits on its pool's queue: were it counted as computing, the
    # program's 30-second sleep would never end in simulated time (the run would hang:
    # hence a separate process with a deadline).
    code = (
        "import time, pymqi\n"
        "from concurrent.futures import ThreadPoolExecutor\n"
        "def put(n):\n"
        "    q = pymqi.connect('QM3')\n"
        "    q.put1('TEST.1', b'%d' % n)\n"
        "pool = ThreadPoolExecutor(2)\n"
        "list(pool.map(put, range(4)))\n"
        "began = time.time()\n"
        "time.sleep(30)\n"
        "print(round(time.time() - began), pymqi.Queue(pymqi.connect('QM3'), 'TEST.1')"
        ".inquire(pymqi.CMQC.MQIA_CURRENT_Q_DEPTH))\n"
        "pool.shutdown()\n"
    )
    qsg_command = Path(sys.executable).with_name("qsg")
    done = subprocess.run(
        [
            str(qsg_command),
            "exec",
            str(SCENARIO),
            "--virtual",
            "--quiet",
            "--",
            "python",
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "30 4\n"


def test_the_programs_task_waiting_on_an_event_waits_in_trio_and_in_simulated_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = (
        "import threading, time, pymqi\n"
        "done = threading.Event()\n"
        "def work():\n"
        "    pymqi.connect('QM3').put1('TEST.1', b'x')\n"
        "    done.set()\n"
        "threading.Thread(target=work).start()\n"
        "print(done.wait())\n"  # the thread's call needs the world: it must go on
        "began = time.time()\n"
        "print(threading.Event().wait(timeout=10), round(time.time() - began))\n"
    )
    outcome, _ = run_code(code)
    assert outcome.exit_status == 0
    assert capsys.readouterr().out == "True\nFalse 10\n"
