"""pymqi's exceptions: ``Error``, ``MQMIError`` and ``PYIFError``.

Exports ``Error`` (the root, as pymqi's), ``MQMIError(comp, reason, **kw)`` and
``PYIFError(e)``, and ``from_core(error)`` for the facade's calls.

``MQMIError`` is pymqi's: ``comp``, ``reason``, ``errorAsString()`` ("FAILED:
MQRC_NO_MSG_AVAILABLE"), ``str()`` "MQI Error. Comp: 2, Reason 2033: FAILED:
MQRC_NO_MSG_AVAILABLE", and any keywords as attributes (a truncated MQGET's ``message``
and ``original_length``). It is also a ``qsg.MQMIError`` (the rules layer's, which prints
itself differently), so ``except pymqi.MQMIError`` and ``except qsg.MQMIError`` both
catch what the facade raises. The facade raises only this class: ``from_core`` turns an
error of the async API into it, keeping the reason, the completion code and the
truncated-message details.

pymqi's shape is kept (``Error`` the base of ``MQMIError`` and ``PYIFError``), and
``Error`` derives from qsg's root, ``qsg.QSGError``; ``MQMIError`` is also an ``OSError``
(as ``qsg.MQMIError`` is), ``PYIFError`` also a ``ValueError`` (as Python's own "I/O
operation on closed file" is: a call on an object in the wrong state, or bytes that do
not parse).
"""

from __future__ import annotations

from typing import Any

from qsg.core import errors as core
from qsg.pymqi import CMQC, CMQCFC


def _mnemonics() -> dict[int, str]:
    """Reason code to name, as pymqi builds it: MQRC_* of CMQC, then MQRCCF_* of CMQCFC,
    the later of two names for one value in a module winning, as in pymqi's table."""
    names: dict[int, str] = {}
    for module, prefix in ((CMQCFC, "MQRCCF_"), (CMQC, "MQRC_")):
        for name, value in vars(module).items():
            if name.startswith(prefix) and isinstance(value, int):
                names[value] = name
    return names


_REASONS = _mnemonics()


class Error(core.QSGError):
    """The base of pymqi's exceptions (a family root: each of its two is also the
    standard exception it resembles)."""


class MQMIError(Error, core.MQMIError):
    """An MQI call failed, or completed with a warning: pymqi's exception."""

    comp: int = CMQC.MQCC_OK
    reason: int = CMQC.MQRC_NONE

    def __init__(self, comp: int, reason: int, **kw: Any) -> None:
        core.MQMIError.__init__(self, comp, reason)
        for key, value in kw.items():
            setattr(self, key, value)

    def __str__(self) -> str:
        return f"MQI Error. Comp: {self.comp}, Reason {self.reason}: {self.errorAsString()}"

    def errorAsString(self) -> str:
        """The reason as pymqi words it: ``FAILED: MQRC_...`` or ``WARNING: MQRC_...``."""
        if self.comp == CMQC.MQCC_OK:
            return "OK"
        prefix = "WARNING: " if self.comp == CMQC.MQCC_WARNING else "FAILED: "
        name = _REASONS.get(self.reason)
        if name is None:
            return f"{prefix}Error code {self.reason} not defined"
        return prefix + name

    # IBM's ibmmq package spells it so; one facade serves both names.
    error_as_string = errorAsString

    def get(self, key: str) -> Any:
        """An extra attribute given at construction (ibmmq's accessor)."""
        return getattr(self, key)


class PYIFError(Error, ValueError):
    """A misuse of pymqi itself (not an MQ call's failure), e.g. a malformed RFH2."""

    def __init__(self, e: object) -> None:
        super().__init__(e)
        self.error = e

    def __str__(self) -> str:
        return f"PYMQI Error: {self.error}"


def from_core(error: core.MQMIError) -> MQMIError:
    """The facade's exception for an error of the async API (already one: itself)."""
    if isinstance(error, MQMIError):
        return error
    extra: dict[str, Any] = {}
    if error.original_length is not None:
        extra["original_length"] = error.original_length
    if error.message is not None:
        extra["message"] = error.message
    converted = MQMIError(error.comp, error.reason, **extra)
    converted.detail = error.detail
    return converted
