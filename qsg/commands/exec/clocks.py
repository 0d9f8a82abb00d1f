"""The program's clock: ``time`` and ``datetime`` as the program sees them.

On the wall clock (the default) only ``time.sleep`` changes: in the program's task a
sleep that blocked the thread would stop the whole world, so it waits in trio instead
(``trio.sleep`` through the bridge), real seconds all the same. The program's threads
sleep as usual.

Under ``--virtual`` the program lives in simulated time: ``time.sleep`` waits in
simulated seconds (in the program's task and in its threads), and ``time.time``,
``time.monotonic``, ``time.perf_counter`` (and their ``_ns`` twins),
``datetime.datetime.now``, ``utcnow``, ``today`` and ``datetime.date.today`` read
simulated time, where simulated time t is the wall-clock moment the run started plus
t. An hour of the program's life then costs what the simulation takes.

The patches answer differently only for calls made by the program's own code (its
task outside a facade call, or a thread it started): qsg's machinery, running in the
same process, keeps real time. They are undone at the end of the run; a module that
imported a name from ``time`` before the run keeps the real function.
"""

from __future__ import annotations

import datetime as _datetime_module
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import trio

from qsg.pymqi import bridge

_real_datetime = _datetime_module.datetime
_real_date = _datetime_module.date
_REAL_TIME = {
    name: getattr(time, name)
    for name in (
        "sleep",
        "time",
        "time_ns",
        "monotonic",
        "monotonic_ns",
        "perf_counter",
        "perf_counter_ns",
    )
}


class _SimulatedNow:
    """Simulated time as the program's clocks read it (from any thread: the virtual
    clock's time is a float it keeps)."""

    def __init__(self, binding: bridge.Binding) -> None:
        assert binding.clock is not None
        self.clock = binding.clock
        start = self.clock.current_time()
        self.epoch = _REAL_TIME["time"]() - start
        self.monotonic_base = _REAL_TIME["monotonic"]() - start
        self.perf_base = _REAL_TIME["perf_counter"]() - start

    def seconds(self) -> float:
        return self.clock.current_time()


def _sleep(binding: bridge.Binding, virtual: bool) -> Callable[[float], None]:
    real = _REAL_TIME["sleep"]

    def sleep(seconds: float) -> None:
        if not binding.program_context():
            return real(seconds)  # type: ignore[no-any-return]
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        if not virtual and threading.get_ident() != binding.trio_thread:
            return real(seconds)  # type: ignore[no-any-return]  # a thread's own time
        bridge.call(trio.sleep, seconds)
        return None

    return sleep


def _reader(binding: bridge.Binding, name: str, simulated: Callable[[], float]) -> Any:
    """The program's ``time.NAME``: simulated time in the program's context, real time
    in qsg's. Simulated time stands still while the program computes, but a clock the
    program reads never gives the same reading twice: each is at least the float just
    above the one before. A loop that waits for a deadline to pass by reading the clock
    (``multiprocessing.connection.wait(timeout=0)``, which ``Pool.terminate`` polls) then
    ends as it does on a real clock, instead of spinning for ever at one instant; the
    readings drift by a few units in the last place at most, and rejoin simulated time
    as soon as it moves."""
    real = _REAL_TIME[name]
    if name.endswith("_ns"):
        last_ns = [0]

        def read_ns() -> int:
            if not binding.program_context():
                return int(real())
            now = max(int(simulated() * 1e9), last_ns[0] + 1)
            last_ns[0] = now
            return now

        return read_ns
    last = [-math.inf]

    def read() -> float:
        if not binding.program_context():
            return float(real())
        now = max(simulated(), math.nextafter(last[0], math.inf))
        last[0] = now
        return now

    return read


class _DateMeta(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _real_date)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, _real_date)


class _DatetimeMeta(_DateMeta):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _real_datetime)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, _real_datetime)


def _date_classes(binding: bridge.Binding) -> tuple[type, type]:
    """``datetime.date`` and ``datetime.datetime`` whose "now" is the program's clock
    (and that still take real instances as their own: ``isinstance`` holds)."""

    class date(_real_date, metaclass=_DateMeta):  # noqa: N801  (the stdlib's name)
        @classmethod
        def today(cls) -> _datetime_module.date:  # type: ignore[override]
            if binding.program_context():
                return _real_date.fromtimestamp(time.time())
            return _real_date.today()

    class datetime(_real_datetime, metaclass=_DatetimeMeta):  # noqa: N801
        @classmethod
        def now(  # type: ignore[override]
            cls, tz: _datetime_module.tzinfo | None = None
        ) -> _datetime_module.datetime:
            if binding.program_context():
                return _real_datetime.fromtimestamp(time.time(), tz)
            return _real_datetime.now(tz)

        @classmethod
        def today(cls) -> _datetime_module.datetime:  # type: ignore[override]
            return cls.now()

        @classmethod
        def utcnow(cls) -> _datetime_module.datetime:  # type: ignore[override]
            if binding.program_context():
                aware = _real_datetime.fromtimestamp(time.time(), _datetime_module.UTC)
                return aware.replace(tzinfo=None)
            return _real_datetime.now(_datetime_module.UTC).replace(tzinfo=None)

    return date, datetime


@contextmanager
def program_clock(binding: bridge.Binding, *, virtual: bool) -> Iterator[None]:
    """The program's clock for the block; see the module's docstring."""
    patched: dict[tuple[Any, str], Any] = {(time, "sleep"): _sleep(binding, virtual)}
    if virtual:
        now = _SimulatedNow(binding)
        patched.update(
            {
                (time, "time"): _reader(binding, "time", lambda: now.epoch + now.seconds()),
                (time, "time_ns"): _reader(binding, "time_ns", lambda: now.epoch + now.seconds()),
                (time, "monotonic"): _reader(
                    binding, "monotonic", lambda: now.monotonic_base + now.seconds()
                ),
                (time, "monotonic_ns"): _reader(
                    binding, "monotonic_ns", lambda: now.monotonic_base + now.seconds()
                ),
                (time, "perf_counter"): _reader(
                    binding, "perf_counter", lambda: now.perf_base + now.seconds()
                ),
                (time, "perf_counter_ns"): _reader(
                    binding, "perf_counter_ns", lambda: now.perf_base + now.seconds()
                ),
            }
        )
        date, datetime = _date_classes(binding)
        patched[(_datetime_module, "date")] = date
        patched[(_datetime_module, "datetime")] = datetime
    saved = {key: getattr(*key) for key in patched}
    for (owner, name), value in patched.items():
        setattr(owner, name, value)
    try:
        yield
    finally:
        for (owner, name), value in saved.items():
            setattr(owner, name, value)


__all__ = ["program_clock"]
