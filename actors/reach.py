"""Who can reach the coupling facility: outages of one member's link, or of all.

z/OS loses a coupling facility for one LPAR (its CF link fails) or for the whole
sysplex. ``Reach`` records which members have lost it; ``Guarded`` wraps a QSG's shared
store and lease so that every call from a member without a link fails with
MQRC_CF_STRUC_FAILED (2373) before anything reaches the facility, whichever store is
behind it (Redis or in process). A member that tolerates losing connectivity to some
structures (CFCONLOS TOLERATE, ``qsg.core.conlos``) is recorded by structure: its calls
that name a queue of one of them fail with MQRC_CF_NOT_AVAILABLE (2345), its other calls
go on. The calling member is ``CALLER``, set by the queue manager's dispatcher around
each rules-layer call; a call from no member (the world's own) is never refused.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar, cast

from coupling.errors import cut_off
from qsg import CMQC
from qsg.core.conlos import not_available_error
from qsg.core.errors import MQMIError

T = TypeVar("T")

#: The queue manager whose rules-layer call is running in this task.
CALLER: ContextVar[str] = ContextVar("qsg_caller", default="")

#: The store's calls whose first argument names a queue: a member that lost
#: connectivity to the queue's structure is refused them (2345).
QUEUE_CALLS = frozenset(
    {
        "create_queue",
        "put",
        "get",
        "browse",
        "lock",
        "unlock",
        "depth",
        "depth_at_least",
        "uncommitted",
        "contents",
        "worth_scanning",
        "scan",
        "forget_backout_counts",
    }
)
#: The structure a queue of the group is in ('' or None: none, or no such queue).
StructureOf = Callable[[str], "str | None"]


class Reach:
    """Members that cannot reach the facility now, and why (``everyone``: all of them)."""

    def __init__(self) -> None:
        self.everyone = ""
        self.lost: dict[str, str] = {}
        #: Members that tolerate losing connectivity to some structures: member ->
        #: the structures it cannot reach -> the simulated time it lost each (DISPLAY
        #: CFSTATUS TYPE(CONNECT)'s FAILDATE and FAILTIME).
        self.structures: dict[str, dict[str, float]] = {}

    @property
    def any_lost(self) -> bool:
        """Some member cannot reach the facility, or some of its structures."""
        return bool(self.everyone or self.lost or self.structures)

    def lose_structures(self, member: str, structures: set[str], at: float) -> None:
        """``member`` tolerates losing connectivity to ``structures`` at simulated time
        ``at`` (2345 on their queues' calls); a structure it had lost already keeps
        the time it was first lost."""
        lost = self.structures.setdefault(member, {})
        for structure in structures:
            lost.setdefault(structure, at)

    def regain_structures(self, member: str | None, structures: set[str] | None) -> None:
        """``member`` (every member, if None) reaches ``structures`` again (all, if None)."""
        for name in [member] if member is not None else list(self.structures):
            lost = self.structures.get(name)
            if lost is None:
                continue
            for structure in list(lost) if structures is None else structures:
                lost.pop(structure, None)
            if not lost:
                del self.structures[name]

    def connections_lost(self) -> dict[str, dict[str, float]]:
        """By structure, the members whose connection to it has failed now (they
        tolerate the loss) and when each lost it."""
        by_structure: dict[str, dict[str, float]] = {}
        for member, lost in self.structures.items():
            for structure, at in lost.items():
                by_structure.setdefault(structure, {})[member] = at
        return by_structure

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

    def check_queue(self, queue: object, structure_of: StructureOf) -> None:
        """Fail the running call on ``queue`` if its member tolerates a loss of
        connectivity to the queue's structure (MQRC_CF_NOT_AVAILABLE)."""
        if not self.structures or not isinstance(queue, str):
            return
        member = CALLER.get()
        lost = self.structures.get(member)
        if lost:
            structure = structure_of(queue)
            if structure and structure in lost:
                raise not_available_error(structure, queue, member)


class Guarded:
    """``inner`` (a store or a lease of QSG ``qsg``) seen through ``reach``: its methods
    fail for a member that cannot reach the facility; its other attributes are
    ``inner``'s."""

    def __init__(
        self, inner: Any, reach: Reach, qsg: str = "", structure_of: StructureOf | None = None
    ) -> None:
        self._inner = inner
        self._reach = reach
        self._qsg = qsg
        self._structure_of = structure_of

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._inner, name)
        if not callable(value):
            return value
        reach, qsg, structure_of = self._reach, self._qsg, self._structure_of
        by_queue = structure_of is not None and name in QUEUE_CALLS

        def guarded(*args: Any, **kwargs: Any) -> Any:
            reach.check(qsg)
            if by_queue and args:
                assert structure_of is not None
                reach.check_queue(args[0], structure_of)
            return value(*args, **kwargs)

        return guarded


def guard(
    inner: T, reach: Reach | None, qsg: str = "", structure_of: StructureOf | None = None
) -> T:
    """``inner`` (of QSG ``qsg``) guarded by ``reach``, or ``inner`` itself when there is
    no ``reach``; ``structure_of`` names a queue's structure, for the calls on queues of
    structures a member tolerates losing. Typed as ``inner``: ``Guarded`` has each of its
    methods (its callers see the store's or the lease's interface, checked by mypy)."""
    return inner if reach is None else cast(T, Guarded(inner, reach, qsg, structure_of))


__all__ = ["CALLER", "QUEUE_CALLS", "Guarded", "Reach", "StructureOf", "guard"]
