"""Who can reach the coupling facility: outages of one member's link, or of all.

z/OS loses a coupling facility for one LPAR (its CF link fails) or for the whole sysplex.
``Reach`` records which members have lost it; ``Guarded`` wraps a QSG's shared store and
lease so that every call from a member without a link fails with MQRC_CF_STRUC_FAILED
(2373) before anything reaches the facility, whichever store is behind it (Redis or in
process). The calling member is ``CALLER``, set by the queue manager's dispatcher around
each rules-layer call; a call from no member (the world's own) is never refused.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, TypeVar, cast

from coupling.errors import cut_off
from qsg import CMQC
from qsg.core.errors import MQMIError

T = TypeVar("T")

#: The queue manager whose rules-layer call is running in this task.
CALLER: ContextVar[str] = ContextVar("qsg_caller", default="")


class Reach:
    """Members that cannot reach the facility now, and why (``everyone``: all of them)."""

    def __init__(self) -> None:
        self.everyone = ""
        self.lost: dict[str, str] = {}

    def lose(self, member: str | None, why: str) -> None:
        if member is None:
            self.everyone = why
        else:
            self.lost[member] = why

    def regain(self, member: str | None) -> None:
        if member is None:
            self.everyone = ""
            self.lost.clear()
        else:
            self.lost.pop(member, None)

    def reachable(self, member: str) -> bool:
        return not self.everyone and member not in self.lost

    def check(self, qsg: str = "") -> None:
        """Fail the running call if its member cannot reach the facility (of QSG
        ``qsg``: lost to every member, the failure is told in the words a server cut
        off from every member uses, ``coupling.errors.cut_off``)."""
        if not self.everyone and not self.lost:
            return
        member = CALLER.get()
        why = self.everyone or self.lost.get(member, "")
        if why and member:
            if self.everyone and qsg:
                why = cut_off(qsg, why)
            raise MQMIError.failed(CMQC.MQRC_CF_STRUC_FAILED, why)


class Guarded:
    """``inner`` (a store or a lease of QSG ``qsg``) seen through ``reach``: its methods
    fail for a member that cannot reach the facility; its other attributes are
    ``inner``'s."""

    def __init__(self, inner: Any, reach: Reach, qsg: str = "") -> None:
        self._inner = inner
        self._reach = reach
        self._qsg = qsg

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._inner, name)
        if not callable(value):
            return value
        check, qsg = self._reach.check, self._qsg

        def guarded(*args: Any, **kwargs: Any) -> Any:
            check(qsg)
            return value(*args, **kwargs)

        return guarded


def guard(inner: T, reach: Reach | None, qsg: str = "") -> T:
    """``inner`` (of QSG ``qsg``) guarded by ``reach``, or ``inner`` itself when there is
    no ``reach``. Typed as ``inner``: ``Guarded`` has each of its methods (its callers see
    the store's or the lease's interface, checked by mypy)."""
    return inner if reach is None else cast(T, Guarded(inner, reach, qsg))


__all__ = ["CALLER", "Guarded", "Reach", "guard"]
