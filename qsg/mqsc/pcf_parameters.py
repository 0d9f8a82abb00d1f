"""Reading a PCF request's parameters, for the command server's commands.

``Parameters`` hands out a request's parameters by identifier, each at most once, and
refuses what is left with the MQRCCF_*_PARM_ID_ERROR of its structure type (naming the
parameter, as MQIACF_PARAMETER_ID in the reply); a required one missing is
MQRCCF_PARM_COUNT_TOO_SMALL. ``Reply`` is a command's answer: one parameter list per
reply message.
"""

from __future__ import annotations

from collections.abc import Callable

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.qmgr import QMgr
from qsg.core.queue import check_name
from qsg.mqsc.pcf import Message, PCFError, Value
from qsg.mqsc.pcf_names import keyword_of
from qsg.mqsc.status import Snapshot

#: MQQT_* and the MQSC object type of each.
Q_TYPES = {
    CMQC.MQQT_LOCAL: "QLOCAL",
    CMQC.MQQT_MODEL: "QMODEL",
    CMQC.MQQT_ALIAS: "QALIAS",
    CMQC.MQQT_REMOTE: "QREMOTE",
}


#: A command's answer: the parameters of each reply message.
Reply = list[list[tuple[int, Value]]]
Handler = Callable[[Message, QMgr, Snapshot], Reply]


class Parameters:
    """A request's parameters, each taken at most once; those left are refused."""

    def __init__(self, message: Message) -> None:
        self._left = dict(message.parameters)

    def string(self, parameter: int, *, required: bool = False) -> str | None:
        value = self._take(parameter, required)
        if value is None:
            return None
        if not isinstance(value, str):
            raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, "expected a string", parameter)
        return value

    def integer(self, parameter: int, *, required: bool = False) -> int | None:
        value = self._take(parameter, required)
        if value is None:
            return None
        if not isinstance(value, int):
            raise PCFError(F.MQRCCF_CFST_PARM_ID_ERROR, "expected an integer", parameter)
        return value

    def integers(self, parameter: int) -> list[int] | None:
        value = self._take(parameter, False)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            raise PCFError(F.MQRCCF_CFIL_PARM_ID_ERROR, "expected an integer list", parameter)
        return [int(v) for v in value]

    def rest(self) -> dict[int, Value]:
        left, self._left = self._left, {}
        return left

    def done(self) -> None:
        """Refuse a parameter the command does not take."""
        for parameter, value in self._left.items():
            raise PCFError(id_error(value), f"parameter {parameter} is not taken", parameter)

    def _take(self, parameter: int, required: bool) -> Value | None:
        if parameter not in self._left:
            if required:
                raise PCFError(
                    F.MQRCCF_PARM_COUNT_TOO_SMALL,
                    f"required parameter {parameter} is missing",
                    parameter,
                )
            return None
        return self._left.pop(parameter)


def id_error(value: Value) -> int:
    if isinstance(value, int):
        return F.MQRCCF_CFIN_PARM_ID_ERROR
    if isinstance(value, str):
        return F.MQRCCF_CFST_PARM_ID_ERROR
    if isinstance(value, bytes):
        return F.MQRCCF_CFBS_PARM_ID_ERROR
    if value and all(isinstance(v, str) for v in value):
        return F.MQRCCF_CFSL_PARM_ID_ERROR
    return F.MQRCCF_CFIL_PARM_ID_ERROR


def scope(p: Parameters, qm: QMgr) -> None:
    """CommandScope: only this queue manager's own (or none) is a command's to serve
    here; the command server sends a request with another to the members it names
    first (``qsg.mqsc.pcf_scope``, which takes the CommandScope out of each member's
    copy), so this refuses only a request that reached a queue manager another way."""
    scope = p.string(F.MQCACF_COMMAND_SCOPE)
    if scope not in (None, "", qm.name):
        raise PCFError(
            F.MQRCCF_COMMAND_FAILED,
            f"CommandScope {scope!r}: only {qm.name} answers here",
            F.MQCACF_COMMAND_SCOPE,
        )


def object_name(value: str | None, parameter: int, what: str = "queue", longest: int = 48) -> str:
    """A name a request gives for an object, checked as MQ checks names ("Rules for
    naming IBM MQ objects": 1 to ``longest`` of A-Z a-z 0-9 . / _ %): longer is
    MQRCCF_CFST_STRING_LENGTH_ERR, a character MQ does not allow (a blank, a quote, a
    parenthesis) or no name is MQRCCF_OBJECT_NAME_ERROR, each naming ``parameter``."""
    name = value or ""
    if len(name) > longest:
        raise PCFError(
            F.MQRCCF_CFST_STRING_LENGTH_ERR,
            f"a name of {len(name)} characters: at most {longest}",
            parameter,
        )
    try:
        check_name(name, what, longest)
    except ValueError as error:
        raise PCFError(F.MQRCCF_OBJECT_NAME_ERROR, str(error), parameter) from None
    return name


def attributes_wanted(family: str, selectors: list[int] | None) -> tuple[bool, tuple[str, ...]]:
    """(ALL?, keywords) from an attribute selector list (MQIACF_ALL or identifiers)."""
    if selectors is None or F.MQIACF_ALL in selectors:
        return True, ()
    words = tuple(k for k in (keyword_of(family, s) for s in selectors) if k is not None)
    return False, words


def queue_type(value: int) -> str:
    """An MQQT_* as the MQSC object type, or MQRCCF_Q_TYPE_ERROR."""
    if value not in Q_TYPES:
        raise PCFError(F.MQRCCF_Q_TYPE_ERROR, f"QType {value} is not known", CMQC.MQIA_Q_TYPE)
    return Q_TYPES[value]


__all__ = [
    "Q_TYPES",
    "Handler",
    "Parameters",
    "Reply",
    "attributes_wanted",
    "id_error",
    "object_name",
    "queue_type",
    "scope",
]
