"""IBM's error body and the MQWB messages ``qsg serve`` answers with.

"REST API error handling" (IBM MQ): any status outside 200-299 is an error, and its
body is a JSON object holding one array, ``error``, of objects with ``type``, the
message's id (``MQWBnnnnX``), ``message``, ``explanation``, ``action``, and for the
``rest`` and ``pcf`` types the MQ ``completionCode`` and ``reasonCode``; ``qmgrName``
names the member a failure of a QSG-wide command was on. IBM's page calls the id
``messageId`` while its examples, and the clients written against them, read ``msgId``:
both keys are given, with the same value, so that a client of either reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.responses import JSONResponse

from qsg import CMQC
from qsg.core.errors import MQMIError, QSGError, reason_name

#: MQWB messages: (text, explanation, action), as IBM's "MQWB01xx", "MQWB03xx" pages
#: give them. ``{0}`` and ``{1}`` are IBM's inserts.
MESSAGES: dict[str, tuple[str, str, str]] = {
    "MQWB0000E": (
        "An unexpected exception {0} occurred.",
        "An exception was thrown which is not otherwise handled.",
        "Use the message from the exception to resolve the problem if possible.",
    ),
    "MQWB0004E": (
        "An internal error occurred while communicating with the queue manager. The root "
        "MQ reason code was {0} : {1}.",
        "The REST API caught an exception when communicating with the queue manager. This "
        "might indicate that there was a problem with the queue manager, or that a "
        "parameter that was passed was incorrect.",
        "Rectify the problem, which might require operations to be performed on the queue "
        "manager, and resubmit the request.",
    ),
    "MQWB0009E": (
        "Could not find the queue manager '{0}'.",
        "The queue manager named in the URL is not one of the scenario's.",
        "Resubmit the request with the name of a queue manager of the scenario.",
    ),
    "MQWB0100E": (
        "The CSRF header {0} was omitted from the request.",
        "The REST API request cannot be completed because the CSRF header was omitted.",
        "Resubmit the request with the correct CSRF header.",
    ),
    "MQWB0103E": (
        "Not authorized{0}.",
        "The user's role does not allow the request.",
        "Resubmit the request as a user with a role that allows it.",
    ),
    "MQWB0104E": (
        "The user is not authenticated.",
        "The request carried no user name and password, or no login token, that the "
        "server accepts.",
        "Resubmit the request with valid credentials.",
    ),
    "MQWB0112E": (
        "The login token could not be validated.",
        "The LtpaToken2 cookie of the request is unknown, expired or was logged out.",
        "Log in again and resubmit the request with the new token.",
    ),
    "MQWB0300E": (
        "Cannot create messaging connection to {0} on {1}.",
        "The queue manager or destination might not be created or active.",
        "Resubmit the request, correcting any issues.",
    ),
    "MQWB0302E": (
        "The {0} request header cannot be set as {1} is not a valid request header value.",
        "The API request cannot be completed because an invalid value was specified for "
        "a request header.",
        "Resubmit the request using a valid header value.",
    ),
    "MQWB0303E": (
        "An unforeseen error occurred while sending, publishing, receiving, or browsing "
        "the message.",
        "An underlying error occurred while sending, publishing, receiving, or browsing "
        "the message.",
        "Resubmit the request, correcting any issues.",
    ),
    "MQWB0305E": (
        "The character set {0} is not acceptable for the request.",
        "The request is encoded using an unacceptable character set.",
        "Resubmit the request, correcting any issues.",
    ),
    "MQWB0306E": (
        "The media type is unsupported for this type of request.",
        "The request attempted to use an unsupported media type.",
        "Resubmit the request, correcting any issues.",
    ),
    # The MQ Console's (MQWB2xxx) texts, for a body that cannot be read and a method a
    # resource does not take.
    "MQWB2004E": (
        "The body of the request could not be parsed.",
        "The body of the HTTP request could not be parsed, possibly due to bad formatting "
        "of the data.",
        "Ensure the request contains valid data that matches the data format expected "
        "for the specified HTTP resource, HTTP method, and HTTP content type.",
    ),
    "MQWB2005E": (
        "The {0} HTTP method is not allowed for the {1} resource request.",
        "A recognized resource request has been made, but it does not support the "
        "specified method.",
        "Update the request to specify a different resource or specify a different HTTP method.",
    ),
}

#: The HTTP status of an MQI failure, by reason code (the rest: 500, "Server issue or
#: error code from IBM MQ").
_STATUS_OF_REASON = {
    CMQC.MQRC_UNKNOWN_OBJECT_NAME: 404,
    CMQC.MQRC_NOT_AUTHORIZED: 403,
    CMQC.MQRC_Q_MGR_NOT_AVAILABLE: 503,
    CMQC.MQRC_CONNECTION_BROKEN: 503,
    CMQC.MQRC_Q_MGR_STOPPING: 503,
    CMQC.MQRC_Q_MGR_QUIESCING: 503,
}


@dataclass(frozen=True, slots=True)
class Error:
    """One element of the ``error`` array."""

    msg_id: str
    inserts: tuple[str, ...] = ()
    type: str = "rest"
    completion_code: int | None = None
    reason_code: int | None = None
    qmgr_name: str | None = None
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        text, explanation, action = MESSAGES[self.msg_id]
        message = f"{self.msg_id}: {text.format(*self.inserts, '', '')}"
        if self.detail:
            explanation = f"{explanation} {self.detail}"
        body: dict[str, Any] = {
            "type": self.type,
            "msgId": self.msg_id,
            "messageId": self.msg_id,
            "message": message,
            "explanation": explanation,
            "action": action,
        }
        if self.completion_code is not None:
            body["completionCode"] = self.completion_code
            body["reasonCode"] = self.reason_code
        if self.qmgr_name is not None:
            body["qmgrName"] = self.qmgr_name
        return body


class RestError(QSGError, ValueError):
    """A request the REST API refuses: its HTTP status and IBM's error body. A
    ``ValueError`` as a request qsg cannot take is (docs/edges.md)."""

    def __init__(
        self,
        status: int,
        *errors: Error,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(", ".join(e.msg_id for e in errors))
        self.status = status
        self.errors = errors
        self.headers = headers or {}
        #: More of the body beside ``error`` (a QSG-wide command's ``success``).
        self.extra = extra or {}

    def response(self) -> JSONResponse:
        body = {"error": [e.to_json() for e in self.errors], **self.extra}
        return JSONResponse(body, status_code=self.status, headers=self.headers)


def refuse(status: int, msg_id: str, *inserts: object, detail: str = "") -> RestError:
    """A ``RestError`` of one message."""
    return RestError(status, Error(msg_id, tuple(str(i) for i in inserts), detail=detail))


def mq_failure(error: MQMIError, q_mgr: str) -> RestError:
    """An MQI call's failure as the messaging API answers it: MQWB0303E with its codes,
    the status by its reason (404 unknown object, 403 not authorized, 503 queue manager
    not available, else 500)."""
    status = _STATUS_OF_REASON.get(error.reason, 500)
    detail = f"{reason_name(error.reason)} ({error.reason}) on {q_mgr}."
    return RestError(
        status,
        Error(
            "MQWB0303E",
            completion_code=error.comp,
            reason_code=error.reason,
            detail=detail,
        ),
    )


__all__ = ["MESSAGES", "Error", "RestError", "mq_failure", "refuse"]
