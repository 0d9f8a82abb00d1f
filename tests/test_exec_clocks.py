"""The program's clocks and threads under ``qsg exec`` (docs/pymqi.md, "Clocks and
threads"): every clock it reads follows simulated time under ``--virtual``, never
reading the same instant twice; its task waits for its threads in trio; a thread that
computes, or blocks where qsg cannot see, holds simulated time, one waiting on another
thread holds none until it is signalled; code that is not the program's keeps real
time; on the wall clock an MQGET wait is real seconds and a
thread's sleep its own.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from pathlib import Path

import pytest

from actors.events import MessagePut
from qsg.commands.exec.command import run_exec
from qsg.commands.exec.program import parse_command
from qsg.scenario import load_scenario
from tests.claims import keeps

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "exec-qsg.toml"


def run_code(
    code: str, *, virtual: bool = True, duration: float | None = None
) -> tuple[int, list[object]]:
    """``python -c CODE`` under qsg exec on exec-qsg.toml: its exit status and the events."""
    scenario = load_scenario(SCENARIO)
    if duration is not None:
        scenario = dataclasses.replace(
            scenario, run=dataclasses.replace(scenario.run, duration=duration)
        )
    outcome, result = run_exec(scenario, parse_command(["python", "-c", code]), virtual=virtual)
    return outcome.exit_status, result.events


@keeps(
    "docs/pymqi.md",
    "the program lives in simulated time: MQGET waits, `time.sleep`, `time.time`, "
    "`time.time_ns`, `time.monotonic`, `time.perf_counter` (and their `_ns` twins), "
    "`datetime.datetime.now`, `utcnow`, `today` and `datetime.date.today` follow it.",
)
@keeps(
    "docs/pymqi.md",
    "Simulated time t reads as the wall-clock moment the run started plus t, so "
    "`time.time()` looks like a real date. An hour of the program's life costs what the "
    "simulation takes.",
)
@keeps("docs/pymqi.md", "(the program's own imports happen in the run)")
def test_under_virtual_every_clock_the_program_reads_moves_by_the_hour_it_sleeps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Each clock is read before and after a simulated hour of time.sleep; `sleep` and
    # `now` are the names the program imported itself, so they are the run's too.
    code = (
        "import time, datetime\n"
        "from time import sleep, time as now\n"
        "CLOCKS = {\n"
        "    'time': time.time, 'monotonic': time.monotonic,\n"
        "    'perf_counter': time.perf_counter, 'now': now,\n"
        "    'time_ns': lambda: time.time_ns() / 1e9,\n"
        "    'monotonic_ns': lambda: time.monotonic_ns() / 1e9,\n"
        "    'perf_counter_ns': lambda: time.perf_counter_ns() / 1e9,\n"
        "    'datetime.now': lambda: datetime.datetime.now().timestamp(),\n"
        "    'datetime.utcnow': lambda: datetime.datetime.utcnow().timestamp(),\n"
        "    'datetime.today': lambda: datetime.datetime.today().timestamp(),\n"
        "    'date.today': lambda: datetime.date.today().toordinal() * 86400,\n"
        "}\n"
        "start = time.time()\n"
        "before = {name: clock() for name, clock in CLOCKS.items()}\n"
        "sleep(3600)\n"
        "for name, clock in CLOCKS.items():\n"
        "    if name != 'date.today':  # a day's resolution: it may or may not turn\n"
        "        print(name, round(clock() - before[name]))\n"
        "print('date.today', CLOCKS['date.today']() - before['date.today'] in (0, 86400))\n"
        "print('start', start)\n"
    )
    real_start = time.time()
    status, _ = run_code(code, duration=4000)
    real = time.time() - real_start
    assert status == 0
    printed = capsys.readouterr().out.splitlines()
    start = float(printed.pop().removeprefix("start "))
    assert printed == [
        "time 3600",
        "monotonic 3600",
        "perf_counter 3600",
        "now 3600",
        "time_ns 3600",
        "monotonic_ns 3600",
        "perf_counter_ns 3600",
        "datetime.now 3600",
        "datetime.utcnow 3600",
        "datetime.today 3600",
        "date.today True",
    ]
    # time.time() at simulated 0 was the real moment the run started: a real date.
    assert real_start <= start <= real_start + real
    assert real < 600  # the hour cost what the simulation took, not an hour


@keeps(
    "docs/pymqi.md",
    "Under `--virtual` the program's clocks never read the same instant twice: simulated "
    "time stands still while the program computes, but each reading is at least the float "
    "just above the one before (a few units in the last place; it rejoins simulated time as "
    "soon as that moves).",
)
def test_under_virtual_each_reading_of_the_clock_is_later_than_the_one_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = (
        "import math, time\n"
        "readings = [time.monotonic() for _ in range(1000)]\n"
        "steps = list(zip(readings, readings[1:]))\n"
        "print(all(b > a for a, b in steps))\n"
        "print(all(b <= a + 4 * math.ulp(a) for a, b in steps))\n"  # not time: a few ulps
        "time.sleep(1)\n"
        "print(time.monotonic() - readings[0] == 1.0)\n"  # simulated time again, exactly
    )
    status, _ = run_code(code)
    assert status == 0
    assert capsys.readouterr().out == "True\nTrue\nTrue\n"


WAITS = {
    # Each wait is given a timeout, so a wait that blocked the trio thread (and so the
    # thread's put) gives up instead of hanging the test; its result says which.
    "queue.Queue.get": (
        "import queue\nq = queue.Queue()\nsignal = lambda: q.put('done')\n",
        "print(q.get(timeout=5))\n",
    ),
    "Barrier": (
        "b = threading.Barrier(2, timeout=5)\nsignal = b.wait\n",
        "b.wait()\nprint('done')\n",
    ),
    "Semaphore": (
        "s = threading.Semaphore(0)\nsignal = s.release\n",
        "print('done' if s.acquire(timeout=5) else 'timed out')\n",
    ),
}


@pytest.mark.parametrize("wait", sorted(WAITS))
@keeps(
    "docs/pymqi.md",
    "The program's task waiting for its threads waits in trio, so that their calls go on "
    "meanwhile: `Thread.join` and `threading.Condition.wait`, and so `Event.wait`, "
    "`queue.Queue.get`, a future's `result` (`ThreadPoolExecutor.map`...), `Barrier` and "
    "`Semaphore`",
)
@keeps(
    "docs/pymqi.md",
    "A program may start threads, each with its own connections, as pymqi allows; a "
    "thread's calls reach the trio run with `trio.from_thread`, and the world stays one run",
)
def test_the_programs_task_waiting_on_a_queue_barrier_or_semaphore_lets_the_threads_put_go_on(
    wait: str, capsys: pytest.CaptureFixture[str]
) -> None:
    setup, waiting = WAITS[wait]
    code = (
        "import threading, pymqi\n" + setup + "def work():\n"
        "    q = pymqi.connect('QM3')\n"
        "    q.put1('TEST.1', b'from a thread')\n"
        "    q.disconnect()\n"
        "    signal()\n"
        "threading.Thread(target=work).start()\n" + waiting
    )
    status, events = run_code(code)
    assert status == 0
    assert capsys.readouterr().out == "done\n"
    assert [e.q_mgr for e in events if isinstance(e, MessagePut) and e.queue == "TEST.1"] == ["QM3"]


BUSY = {
    # A thread that computes (no call, no wait qsg sees) for a while...
    "computes": "sum(range(3_000_000))",
    # ...and one blocked on a socket for 0.3 real seconds (a timeout time.* never sees).
    "blocks on a socket": (
        "a, b = socket.socketpair(); a.settimeout(0.3)\n"
        "    try:\n        a.recv(1)\n    except TimeoutError:\n        pass"
    ),
}


@pytest.mark.parametrize("busy", sorted(BUSY))
@keeps(
    "docs/pymqi.md",
    "Under `--virtual` simulated time must not move while a thread works: a thread the "
    "program started holds it from its start until it ends or disconnects the last of its "
    "connections",
)
@keeps(
    "docs/pymqi.md",
    "A thread blocked elsewhere (a socket, a bare lock) is taken for one that computes and "
    "holds simulated time until it goes on.",
)
def test_under_virtual_a_thread_that_computes_or_blocks_on_a_socket_holds_simulated_time(
    busy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Were simulated time free to move, the task's millisecond sleep would end at once,
    # long before the thread's work: held, it ends only after.
    code = (
        "import socket, threading, time\n"
        "order = []\n"
        "def work():\n"
        f"    {BUSY[busy]}\n"
        "    order.append('thread')\n"
        "t = threading.Thread(target=work)\n"
        "t.start()\n"
        "time.sleep(0.001)\n"
        "order.append('task')\n"
        "t.join()\n"
        "print(order)\n"
    )
    status, _ = run_code(code)
    assert status == 0
    assert capsys.readouterr().out == "['thread', 'task']\n"


@keeps(
    "docs/pymqi.md",
    "A thread the program's task joins holds it from when it retires (or ends) until the "
    "join returns, so the clock cannot run on, perhaps to the run's end, before the join "
    "has reported.",
)
def test_under_virtual_a_joined_thread_that_disconnected_still_holds_simulated_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The thread disconnects its last connection, then computes: the task is joining it,
    # so the clock (which the background workload's timers would move on) stays put.
    code = (
        "import threading, time, pymqi\n"
        "def work():\n"
        "    q = pymqi.connect('QM3')\n"
        "    q.put1('TEST.1', b'x')\n"
        "    q.disconnect()\n"
        "    sum(range(3_000_000))\n"
        "t = threading.Thread(target=work)\n"
        "start = time.monotonic()\n"
        "t.start()\n"
        "t.join()\n"
        "print(round(time.monotonic() - start, 6))\n"
    )
    status, _ = run_code(code)
    assert status == 0
    assert capsys.readouterr().out == "0.0\n"


@keeps(
    "docs/pymqi.md",
    "The scenario runs in real time (its duration is real seconds), and so does the "
    "program: MQGET waits are real.",
)
def test_on_the_wall_clock_an_mqget_wait_is_real_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = (
        "import pymqi, time; from pymqi import CMQC\n"
        "q = pymqi.Queue(pymqi.connect('QM3'), 'TEST.1')\n"
        "gmo = pymqi.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=700)\n"
        "start = time.time()\n"
        "try:\n"
        "    q.get(None, pymqi.MD(), gmo)\n"
        "except pymqi.MQMIError as e:\n"
        "    print(e.reason, time.time() - start >= 0.7)\n"
    )
    started = time.monotonic()
    status, _ = run_code(code, virtual=False)
    assert status == 0
    assert capsys.readouterr().out == "2033 True\n"  # MQRC_NO_MSG_AVAILABLE after 0.7 s
    assert time.monotonic() - started >= 0.7


@keeps("docs/pymqi.md", "its threads sleep as usual.")
def test_on_the_wall_clock_a_threads_sleep_is_its_own_and_needs_no_trio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The program's task blocks the trio thread on a socket (as qsg cannot see) until the
    # thread has slept: a thread's sleep that waited in trio would wait for the task, and
    # the task's recv would time out instead.
    code = (
        "import socket, threading, time\n"
        "a, b = socket.socketpair()\n"
        "a.settimeout(5)\n"
        "def work():\n"
        "    start = time.monotonic()\n"
        "    time.sleep(0.2)\n"
        "    b.send(b'slept' if time.monotonic() - start >= 0.2 else b'short')\n"
        "threading.Thread(target=work).start()\n"
        "try:\n"
        "    print(a.recv(5).decode())\n"
        "except TimeoutError:\n"
        "    print('timed out')\n"
    )
    status, _ = run_code(code, virtual=False)
    assert status == 0
    assert capsys.readouterr().out == "slept\n"


@keeps(
    "docs/pymqi.md",
    "Only the program's own calls are answered so (its task outside a pymqi call, and the "
    "threads it started): qsg's own code in the same process keeps real time.",
)
def test_under_virtual_code_that_is_not_the_programs_reads_real_time_during_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A thread of this process that the program did not start reads the clocks while the
    # program sleeps a simulated hour: real time, never an hour on.
    readings: list[tuple[float, float]] = []
    running = threading.Event()
    running.set()

    def watch() -> None:
        while running.is_set():
            readings.append((time.time(), time.monotonic()))
            running.wait(0.005)

    real_start = time.time(), time.monotonic()
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        status, _ = run_code("import time\ntime.sleep(3600)\nprint('slept')\n", duration=4000)
    finally:
        running.clear()
        watcher.join()
    real_end = time.time(), time.monotonic()
    assert status == 0 and capsys.readouterr().out == "slept\n"
    assert len(readings) > 1
    assert all(real_start[0] <= wall <= real_end[0] for wall, _ in readings)
    assert all(real_start[1] <= mono <= real_end[1] for _, mono in readings)


@keeps(
    "docs/pymqi.md",
    "A module that did `from time import time` before the run keeps the real function",
)
def test_under_virtual_a_module_that_imported_time_before_the_run_keeps_real_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "early_clock.py").write_text("from time import monotonic, time\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "early_clock", raising=False)
    import early_clock  # type: ignore[import-not-found]  # before the run, as the sentence has it

    assert early_clock.time is time.time
    code = (
        "import time, early_clock\n"
        "now, early = time.monotonic(), early_clock.monotonic()\n"
        "time.sleep(3600)\n"
        "print(round(time.monotonic() - now), early_clock.monotonic() - early < 600)\n"
    )
    status, _ = run_code(code, duration=4000)
    assert status == 0
    assert capsys.readouterr().out == "3600 True\n"


# A thread of the program waiting on another thread, each with a timeout in real seconds:
# a waiting thread taken for one that computes would hold simulated time, and the task's
# simulated minute would end only once the wait gave up.
THREAD_WAITS = {
    "Condition": (
        "c = threading.Condition(); ready = []\n"
        "def wait():\n"
        "    with c:\n"
        "        return 'done' if c.wait_for(lambda: ready, timeout=5) else 'timed out'\n"
        "def signal():\n"
        "    with c:\n"
        "        ready.append(1); c.notify()\n"
    ),
    "queue.Queue": (
        "import queue\nq = queue.Queue()\n"
        "def wait():\n"
        "    try:\n"
        "        return q.get(timeout=5)\n"
        "    except queue.Empty:\n"
        "        return 'timed out'\n"
        "signal = lambda: q.put('done')\n"
    ),
    "future": (
        "import concurrent.futures as cf\nf = cf.Future()\n"
        "def wait():\n"
        "    try:\n"
        "        return f.result(timeout=5)\n"
        "    except cf.TimeoutError:\n"
        "        return 'timed out'\n"
        "signal = lambda: f.set_result('done')\n"
    ),
    "join": (
        "e = threading.Event()\n"
        "other = threading.Thread(target=e.wait, args=(5,))\nother.start()\n"
        "def wait():\n"
        "    other.join(timeout=5)\n"
        "    return 'timed out' if other.is_alive() else 'done'\n"
        "signal = e.set\n"
    ),
}


@pytest.mark.parametrize("wait", sorted(THREAD_WAITS))
@keeps(
    "docs/pymqi.md",
    "or on another thread (blocked in a `Condition`'s wait, and so an `Event`, a "
    "`queue.Queue`, a future; in a `join`;",
)
def test_under_virtual_a_thread_waiting_on_another_thread_holds_no_simulated_time(
    wait: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = (
        "import threading, time\n" + THREAD_WAITS[wait] + "got = []\n"
        "t = threading.Thread(target=lambda: got.append(wait()))\n"
        "t.start()\n"
        "started = time.monotonic()\n"
        "time.sleep(60)\n"
        "slept = round(time.monotonic() - started)\n"
        "signal()\n"
        "t.join()\n"
        "print(got[0], slept)\n"
    )
    real_start = time.monotonic()
    status, _ = run_code(code)
    assert status == 0
    assert capsys.readouterr().out == "done 60\n"
    assert time.monotonic() - real_start < 5  # the minute was simulated, not waited out


@pytest.mark.parametrize("wait", sorted(THREAD_WAITS))
@keeps(
    "docs/pymqi.md",
    "a thread the program started holds it from its start until it ends or disconnects the "
    "last of its connections, except while it waits in a call",
)
def test_under_virtual_a_thread_woken_from_its_wait_holds_simulated_time_from_the_signal(
    wait: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Once signalled, the thread no longer waits: it holds simulated time from the
    # signal on, so the clock it reads as its wait returns is the signaller's, though
    # the background workload's timers would move it on the moment it looked idle. The
    # long switch interval keeps the woken thread from the GIL while the trio thread
    # runs, as a loaded machine may: it still stands at its wait's line meanwhile.
    code = (
        "import sys, threading, time\n" + THREAD_WAITS[wait] + "got = []\n"
        "t = threading.Thread(target=lambda: got.append((wait(), time.monotonic())))\n"
        "sys.setswitchinterval(5)\n"
        "t.start()\n"
        "time.sleep(60)\n"
        "signalled = time.monotonic()\n"
        "signal()\n"
        "t.join()\n"
        "print(got[0][0], round(got[0][1] - signalled, 6))\n"
    )
    interval = sys.getswitchinterval()
    try:
        status, _ = run_code(code)
    finally:
        sys.setswitchinterval(interval)  # the program runs in this process
    assert status == 0
    assert capsys.readouterr().out == "done 0.0\n"
