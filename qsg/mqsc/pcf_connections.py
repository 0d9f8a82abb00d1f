"""PCF Inquire Connection (MQCMD_INQUIRE_CONNECTION): DISPLAY CONN over the command
server, with IBM's parameter identifiers (IBM: "Inquire Connection", "Inquire Connection
(Response)").

The request names one connection by its 24-byte ConnectionId (MQBACF_CONNECTION_ID) or
all of them with a zero-length GenericConnectionId (MQBACF_GENERIC_CONNECTION_ID); one of
the two is required (MQRCCF_PARM_COUNT_TOO_SMALL). ConnInfoType (MQIACF_CONN_INFO_TYPE)
asks for the connections (MQIACF_CONN_INFO_CONN, the default), their handles
(MQIACF_CONN_INFO_HANDLE) or both (MQIACF_CONN_INFO_ALL); ConnectionAttrs
(MQIACF_CONNECTION_ATTRS) which parameters come back. One reply per connection or
handle; none is MQRCCF_NONE_FOUND. The unit of work's parameters are DISPLAY CONN's
(``qsg.mqsc.connections``): QMgrUOWId (MQBACF_Q_MGR_UOW_ID, 8 bytes), UOWLogStartDate /
UOWLogStartTime, UOWStartDate / UOWStartTime (blank with none), UOWState, UOWType; a
handle's HandleState (MQHSTATE_ACTIVE while an MQGET with MQGMO_WAIT waits on it).
"""

from __future__ import annotations

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core.qmgr import QMgr
from qsg.mqsc.connections import ConnectionView, HandleOnConnection
from qsg.mqsc.pcf import Message, PCFError, Value
from qsg.mqsc.pcf_parameters import Parameters, Reply, id_error, scope
from qsg.mqsc.status import Snapshot

_INFO_TYPES = {
    F.MQIACF_CONN_INFO_CONN: ("CONN",),
    F.MQIACF_CONN_INFO_HANDLE: ("HANDLE",),
    F.MQIACF_CONN_INFO_ALL: ("CONN", "HANDLE"),
}
#: The padded lengths of the strings a reply carries.
LENGTHS = {
    F.MQCACF_APPL_TAG: 28,
    F.MQCACF_USER_IDENTIFIER: 12,
    F.MQCACF_OBJECT_NAME: 48,
    F.MQCACF_UOW_LOG_START_DATE: 12,  # MQ_DATE_LENGTH
    F.MQCACF_UOW_LOG_START_TIME: 8,  # MQ_TIME_LENGTH
    F.MQCACF_UOW_START_DATE: 12,
    F.MQCACF_UOW_START_TIME: 8,
}


def inquire_connection(message: Message, qm: QMgr, snapshot: Snapshot) -> Reply:
    p = Parameters(message)
    info = p.integer(F.MQIACF_CONN_INFO_TYPE)
    wanted = p.integers(F.MQIACF_CONNECTION_ATTRS)
    scope(p, qm)
    left = p.rest()
    exact = left.pop(F.MQBACF_CONNECTION_ID, None)
    generic = left.pop(F.MQBACF_GENERIC_CONNECTION_ID, None)
    for parameter, other in left.items():
        raise PCFError(id_error(other), f"parameter {parameter} is not taken", parameter)
    if exact is None and generic is None:
        raise PCFError(
            F.MQRCCF_PARM_COUNT_TOO_SMALL,
            "ConnectionId or GenericConnectionId is required",
            F.MQBACF_CONNECTION_ID,
        )
    for parameter, value in (
        (F.MQBACF_CONNECTION_ID, exact),
        (F.MQBACF_GENERIC_CONNECTION_ID, generic),
    ):
        if value is not None and not isinstance(value, bytes):
            raise PCFError(id_error(value), "expected a byte string", parameter)
    if info is None:
        info = F.MQIACF_CONN_INFO_CONN
    if info not in _INFO_TYPES:
        raise PCFError(F.MQRCCF_CFIN_PARM_ID_ERROR, f"ConnInfoType {info}", F.MQIACF_CONN_INFO_TYPE)
    kinds = _INFO_TYPES[info]
    replies: Reply = []
    for view in snapshot.connections:
        if exact is not None and exact != view.connection_id:
            continue
        if generic and generic != view.connection_id:  # zero length: every connection
            continue
        if "CONN" in kinds:
            replies.append(_chosen(_connection(view), wanted))
        if "HANDLE" in kinds:
            replies += [_chosen(_handle(view, h), wanted) for h in view.handles]
    if not replies:
        raise PCFError(F.MQRCCF_NONE_FOUND, "no connection matches")
    return replies


def _chosen(
    parameters: list[tuple[int, Value]], wanted: list[int] | None
) -> list[tuple[int, Value]]:
    """The identifying two (ConnectionId, ConnInfoType), then those asked for."""
    if wanted is None or F.MQIACF_ALL in wanted:
        return parameters
    return parameters[:2] + [(k, v) for k, v in parameters[2:] if k in wanted]


def _connection(view: ConnectionView) -> list[tuple[int, Value]]:
    return [
        (F.MQBACF_CONNECTION_ID, view.connection_id),
        (F.MQIACF_CONN_INFO_TYPE, F.MQIACF_CONN_INFO_CONN),
        (F.MQCACF_APPL_TAG, view.appl_tag),
        (CMQC.MQIA_APPL_TYPE, CMQC.MQAT_USER),
        (F.MQIACF_CONNECT_OPTIONS, [view.options]),
        (F.MQBACF_CONN_TAG, view.tag.ljust(128, b"\0")),
        (F.MQBACF_Q_MGR_UOW_ID, view.recovery_id),
        (F.MQCACF_UOW_LOG_START_DATE, view.logged[0]),
        (F.MQCACF_UOW_LOG_START_TIME, view.logged[1]),
        (F.MQCACF_UOW_START_DATE, view.started[0]),
        (F.MQCACF_UOW_START_TIME, view.started[1]),
        (F.MQIACF_UOW_STATE, F.MQUOWST_ACTIVE if view.in_unit_of_work else F.MQUOWST_NONE),
        (F.MQIACF_UOW_TYPE, F.MQUOWT_Q_MGR),
        (F.MQCACF_USER_IDENTIFIER, view.user),
    ]


def _handle(view: ConnectionView, handle: HandleOnConnection) -> list[tuple[int, Value]]:
    return [
        (F.MQBACF_CONNECTION_ID, view.connection_id),
        (F.MQIACF_CONN_INFO_TYPE, F.MQIACF_CONN_INFO_HANDLE),
        (F.MQIACF_HANDLE_STATE, F.MQHSTATE_ACTIVE if handle.active else F.MQHSTATE_INACTIVE),
        (F.MQCACF_OBJECT_NAME, handle.object_name),
        (F.MQIACF_OBJECT_TYPE, CMQC.MQOT_Q),
        (F.MQIACF_OPEN_OPTIONS, handle.options),
        (CMQC.MQIA_QSG_DISP, handle.qsg_disp),
    ]


__all__ = ["LENGTHS", "inquire_connection"]
