"""The program ``qsg exec`` runs: how it is named, and running it as Python would.

Accepted, after ``--``: ``python PATH [ARGS]``, ``python -m MODULE [ARGS]`` and
``python -c CODE [ARGS]`` (``python`` may be ``python3``, ``python3.12``... or a path
to one). The program runs in this process, with ``sys.argv`` and ``sys.path[0]`` set
as the interpreter sets them and ``__name__ == "__main__"``. Its exit status is what
the interpreter's would be: 0 when it ends, ``n`` for ``sys.exit(n)``, 1 for an
uncaught exception, printed as Python prints it (the frames of the program and of
the pymqi call it was in, not those of the simulator underneath).
"""

from __future__ import annotations

import contextlib
import os
import re
import runpy
import signal
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import NoReturn

from qsg.commands import interrupts
from qsg.core.errors import QSGError

#: The interpreter names accepted as the command: python, python3, python3.12, ...
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?(\.exe)?$")
#: The facade's directory (qsg/pymqi): a traceback keeps its frames, down to the call.
_FACADE = str(Path(__file__).resolve().parents[2] / "pymqi")
#: The modules that stand in for the standard library's functions under qsg exec
#: (time.sleep, Thread.join, Condition.wait...), which in a plain Python run are C
#: functions or the standard library's own frames: a traceback stops before them.
_STAND_INS = tuple(
    str(Path(__file__).resolve().parent / name) for name in ("clocks.py", "threads.py")
)
ACCEPTED = "python PROGRAM.py [ARGS], python -m MODULE [ARGS] or python -c CODE [ARGS]"


class CommandError(QSGError, ValueError):
    """The command after ``--`` is not a Python program ``qsg exec`` can run."""


@dataclass(frozen=True, slots=True)
class Program:
    """A Python program: a file (``path``), a module (``module``) or code (``code``)."""

    kind: str  # "path", "module" or "code"
    target: str
    args: tuple[str, ...] = ()

    @property
    def argv(self) -> list[str]:
        first = {"path": self.target, "module": self.target, "code": "-c"}[self.kind]
        return [first, *self.args]


def parse_command(command: list[str] | tuple[str, ...]) -> Program:
    """The program of ``command``; CommandError naming what is accepted otherwise."""
    if not command:
        raise CommandError(f"no program given: after --, give {ACCEPTED}")
    exe = Path(command[0]).name
    if not _PYTHON.match(exe):
        raise CommandError(f"{command[0]!r} is not a Python interpreter: after --, give {ACCEPTED}")
    rest = list(command[1:])
    if not rest:
        raise CommandError(f"no program given to {command[0]}: give {ACCEPTED}")
    first = rest[0]
    if first in ("-m", "-c"):
        if len(rest) < 2:
            raise CommandError(f"{first} needs an argument: give {ACCEPTED}")
        return Program("module" if first == "-m" else "code", rest[1], tuple(rest[2:]))
    if first.startswith("-"):
        raise CommandError(f"python option {first} is not supported by qsg exec: give {ACCEPTED}")
    if not Path(first).is_file():
        raise CommandError(f"can't open file {first!r}: no such file")
    return Program("path", first, tuple(rest[1:]))


def run(program: Program) -> int:
    """Run ``program`` here and now, as the interpreter would; its exit status.

    Cancellation of the program's task (trio's ``Cancelled``, at the scenario's end)
    passes through. So does KeyboardInterrupt (Ctrl-C, or the program's own ``raise``),
    printed first as Python prints it, with the program's frames only (not after
    SIGTERM, after which Python prints nothing): qsg is interrupted with the program. A
    child process the program forked (``os.fork``) that comes back here has run the
    rest of the program: it ends here with the status the program's end gives, as a
    forked Python process would, without running the parent's exit handlers (they
    would stop the parent's coupling facility)."""
    parent = os.getpid()
    try:
        status = _run(program)
    except BaseException as error:
        if os.getpid() == parent:
            raise
        if not isinstance(error, SystemExit):
            print_program_error(error)
        _end_child(exit_status(error) if isinstance(error, SystemExit) else 1)
    if os.getpid() != parent:
        _end_child(status)
    return status


def _run(program: Program) -> int:
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = program.argv
    sys.path.insert(0, str(Path(program.target).resolve().parent) if program.kind == "path" else "")
    try:
        if program.kind == "path":
            runpy.run_path(program.target, run_name="__main__")
        elif program.kind == "module":
            runpy.run_module(program.target, run_name="__main__", alter_sys=True)
        else:
            code = compile(program.target, "<string>", "exec")
            exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as end:
        return exit_status(end)
    except KeyboardInterrupt as interrupt:
        if interrupts.received() is not signal.SIGTERM:
            print_program_error(interrupt)
        raise
    except Exception as error:
        print_program_error(error)
        return 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return 0


def _end_child(status: int) -> NoReturn:
    """End a child process of the program (see ``run``)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status & 0xFF)


def exit_status(end: SystemExit) -> int:
    """The interpreter's exit status for ``sys.exit(code)`` (a message goes to stderr)."""
    code = end.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def print_program_error(error: BaseException) -> None:
    """``error``'s traceback as Python prints it for the program: from the program's
    first frame, and down to the pymqi call it was in; pymqi's exceptions named as the
    program imported them (``pymqi.MQMIError``, not the facade module's name)."""
    error.__traceback__ = _program_frames(error.__traceback__)
    lines = traceback.format_exception(type(error), error, error.__traceback__)
    kind = type(error)
    if kind.__module__.startswith("qsg.pymqi") and lines:
        lines[-1] = lines[-1].replace(
            f"{kind.__module__}.{kind.__qualname__}", f"pymqi.{kind.__qualname__}", 1
        )
    sys.stderr.write("".join(lines))


def _runner_frame(filename: str) -> bool:
    """A frame of this module or of runpy (frozen in the interpreter, or not)."""
    return filename in (__file__, runpy.__file__) or filename.startswith("<frozen runpy")


def _program_frames(tb: TracebackType | None) -> TracebackType | None:
    start = tb
    while start is not None and _runner_frame(start.tb_frame.f_code.co_filename):
        start = start.tb_next
    if start is None:
        start = tb  # no frame of the program (a SyntaxError in it): as Python has it
    # Below the facade's frames is the simulator's machinery, and so is a stand-in's
    # frame: cut there.
    node, in_facade = start, False
    while node is not None and node.tb_next is not None:
        inside = node.tb_frame.f_code.co_filename.startswith(_FACADE + os.sep)
        following = node.tb_next.tb_frame.f_code.co_filename
        next_inside = following.startswith(_FACADE + os.sep)
        in_facade = in_facade or inside
        if (in_facade and inside and not next_inside) or following in _STAND_INS:
            node.tb_next = None
            break
        node = node.tb_next
    return start


__all__ = [
    "ACCEPTED",
    "CommandError",
    "Program",
    "exit_status",
    "parse_command",
    "print_program_error",
    "run",
]
