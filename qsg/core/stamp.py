"""PutDate and PutTime from simulated time, as MQ writes them (YYYYMMDD, HHMMSSTH)."""

from __future__ import annotations

from datetime import datetime, timedelta

_HUNDREDTHS = tuple(b"%02d" % n for n in range(100))


class PutStamp:
    """Simulated seconds since ``epoch`` to MQMD.PutDate and MQMD.PutTime.

    Called on every put, so it does arithmetic rather than ``strftime``, formats the
    date only when the simulated day changes and HHMMSS only when the second does.
    """

    __slots__ = ("_centis", "_date", "_day", "_hhmmss", "_last", "_midnight", "_offset", "_second")

    def __init__(self, epoch: datetime) -> None:
        self._midnight = epoch.replace(hour=0, minute=0, second=0, microsecond=0)
        self._offset = (epoch - self._midnight).total_seconds()
        self._day: int | None = None
        self._date = b""
        self._second: int | None = None
        self._hhmmss = b""
        self._centis = -1
        self._last = (b"", b"")

    def __call__(self, now: float) -> tuple[bytes, bytes]:
        # Hundredths of a second, rounded so 3723.5 is not 3723.4999.
        centis = round((now + self._offset) * 100)
        if centis == self._centis:
            return self._last
        seconds, hundredths = divmod(centis, 100)
        if seconds != self._second:
            day, in_day = divmod(seconds, 86_400)
            if day != self._day:
                self._day = day
                self._date = (self._midnight + timedelta(days=day)).strftime("%Y%m%d").encode()
            hours, rest = divmod(in_day, 3600)
            minutes, secs = divmod(rest, 60)
            self._second = seconds
            self._hhmmss = b"%02d%02d%02d" % (hours, minutes, secs)
        self._centis = centis
        self._last = (self._date, self._hhmmss + _HUNDREDTHS[hundredths])
        return self._last
