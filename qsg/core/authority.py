"""A simple authority model: which user may do what to which object.

Like MQ's object authority manager (setmqaut) or RACF profiles on z/OS, reduced to what
the simulator needs: a grant gives a user operations on the objects whose names match a
generic profile (``*`` matches any run of characters). A queue manager with no
``Authority`` runs with security off: everyone may do everything. Members of
``superusers`` (``mqm`` by default, MQ's administrators) may always do everything.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from qsg import CMQC
from qsg.core.structs import INPUT_OPTIONS

#: The operations, with setmqaut's names.
OPERATIONS = frozenset({"put", "get", "browse", "inq", "set", "dlt", "crt", "altusr"})

_OPEN_OPERATIONS = (
    (INPUT_OPTIONS, "get"),
    (CMQC.MQOO_BROWSE, "browse"),
    (CMQC.MQOO_OUTPUT, "put"),
    (CMQC.MQOO_INQUIRE, "inq"),
    (CMQC.MQOO_SET, "set"),
)


def open_operations(options: int) -> list[str]:
    """The operations MQOPEN with ``options`` needs authority for."""
    return [operation for bits, operation in _OPEN_OPERATIONS if options & bits]


class Authority:
    """Grants of operations on generic profiles, per user."""

    def __init__(self, superusers: tuple[str, ...] = ("mqm",)) -> None:
        self.superusers = frozenset(superusers)
        self._grants: list[tuple[str, str, frozenset[str]]] = []

    def grant(self, user: str, profile: str, *operations: str) -> None:
        """setmqaut -p user -n profile +op...: ``all`` stands for every operation."""
        ops = OPERATIONS if "all" in operations else frozenset(operations)
        unknown = ops - OPERATIONS
        if unknown:
            raise ValueError(f"unknown operations {sorted(unknown)}; known: {sorted(OPERATIONS)}")
        self._grants.append((user, profile, ops))

    def allowed(self, user: str, name: str, operation: str) -> bool:
        if user in self.superusers:
            return True
        return any(
            grantee == user and operation in ops and fnmatchcase(name, profile)
            for grantee, profile, ops in self._grants
        )


__all__ = ["OPERATIONS", "Authority", "open_operations"]
