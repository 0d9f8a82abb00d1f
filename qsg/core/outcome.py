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


# Four decisions in all: each call that moves a message returns one of these (a frozen
# dataclass is slow to build, and every MQPUT and MQGET needs one).
_DONE = {
    (in_uow, persistent): Done(in_uow, persistent)
    for in_uow in (False, True)
    for persistent in (False, True)
}


def done(in_uow: bool, persistent: bool) -> Done:
    """The ``Done`` of a call in the unit of work or not, of a persistent message or not."""
    return _DONE[in_uow, persistent]


__all__ = ["Done", "done"]
