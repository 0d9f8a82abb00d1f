"""qsg's error root, ``QSGError``, and the one error of the MQ API: ``MQMIError``, with
IBM's completion and reason codes.

Every exception class qsg defines, in any layer, derives from ``QSGError`` and also from
the standard exception it resembles (``ValueError`` for a file or a flow qsg cannot
read, ``ConnectionError`` for a server lost, ...), so that ``except qsg.QSGError`` catches
all of qsg's own and ``except ValueError`` still catches what it always would. The root
lives here, in the lowest layer with code, so that every layer above can derive from it;
docs/edges.md ("Every error is a QSGError") has the table of families.
"""

from __future__ import annotations

from functools import cache

from qsg import CMQC, CMQCFC
from qsg.core.outcome import Done


@cache
def _names(prefix: str) -> dict[int, str]:
    names: dict[int, str] = {}
    for name, value in vars(CMQC).items():
        # The first name defined for a value wins (STORAGE_MEDIUM_FULL before PAGESET_FULL).
        if name.startswith(prefix) and isinstance(value, int):
            names.setdefault(value, name)
    return names


def reason_name(reason: int) -> str:
    """IBM's mnemonic for a reason code, e.g. ``MQRC_NO_MSG_AVAILABLE``."""
    # A PCF reason (MQRCCF_DISPOSITION_CONFLICT, 3211) is cmqcfc.h's.
    known = _names("MQRC_").get(reason) or _pcf_names().get(reason)
    return known or f"MQRC_UNKNOWN_{reason}"


@cache
def _pcf_names() -> dict[int, str]:
    names: dict[int, str] = {}
    for name, value in vars(CMQCFC).items():
        if name.startswith("MQRCCF_") and isinstance(value, int):
            names.setdefault(value, name)
    return names


def completion_name(comp: int) -> str:
    """IBM's mnemonic for a completion code, e.g. ``MQCC_FAILED``."""
    return _names("MQCC_").get(comp, f"MQCC_UNKNOWN_{comp}")


class QSGError(Exception):
    """The root of every exception qsg defines; each is also the standard exception it
    resembles. Never raised itself: its families are (docs/edges.md)."""


class MQMIError(QSGError, OSError):
    """An MQ call failed (or completed with a warning), as pymqi's ``MQMIError``.

    ``comp`` is the MQCC_* completion code and ``reason`` the MQRC_* reason code; the
    message names the reason (``MQRC_NO_MSG_AVAILABLE (2033)``) and, where given, what
    was wrong.

    An ``OSError``, as the standard library makes a failed call to a server that answers
    with a code (smtplib's ``SMTPResponseException``, urllib's ``HTTPError``): the reason
    code is MQ's errno. (``errno`` itself stays None: a reason code is not one of the
    operating system's numbers.)
    """

    #: For MQRC_TRUNCATED_MSG_*: the full length, and (when accepted) the truncated data.
    original_length: int | None = None
    message: bytes | None = None
    #: For a warning from MQPUT or MQGET: what the call, which did complete, decided.
    done: Done | None = None

    def __init__(self, comp: int, reason: int, detail: str = "") -> None:
        self.comp = comp
        self.reason = reason
        self.detail = detail
        text = f"{completion_name(comp)}: {reason_name(reason)} ({reason})"
        super().__init__(f"{text}: {detail}" if detail else text)

    def errorAsString(self) -> str:
        """The reason's mnemonic, as pymqi's method of the same name."""
        return reason_name(self.reason)

    @classmethod
    def failed(cls, reason: int, detail: str = "") -> MQMIError:
        return cls(CMQC.MQCC_FAILED, reason, detail)
