"""What an MQPUT or MQGET decided, recorded once by the rules for everything after them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Done:
    """What the rules decided for an MQPUT or MQGET that moved a message: whether it was
    in the unit of work (``in_uow``) and whether the message is persistent.

    The one record of the decision: the caller and the event log take it from here and
    never derive it again from the options (MQGMO_SYNCPOINT_IF_PERSISTENT gets a
    nonpersistent message outside the unit of work; MQPER_PERSISTENCE_AS_Q_DEF takes
    DEFPSIST from the first definition on the resolution path). A browse is never in
    the unit of work. A warning the call completes with carries it as
    ``MQMIError.done``.
    """

    in_uow: bool
    persistent: bool


__all__ = ["Done"]
