"""pymqi's ``PCFExecute``: PCF commands to a queue manager's command server.

Exports ``PCFExecute``, and re-exports from ``qsg.pymqi._pcf_messages`` (where requests
are built and replies read) its parameter wrappers ``ByteString`` and ``Filter`` (with
``StringFilter``, ``IntegerFilter``, ``ByteStringFilter`` and ``FilterOperator``) and
``unpack`` (a reply message as a dict of parameters and its ``CFH``).

``pcf = PCFExecute(qmgr)`` opens a reply queue, a temporary dynamic queue made from
SYSTEM.DEFAULT.MODEL.QUEUE named PYMQPCF.*; then ``pcf.MQCMD_INQUIRE_Q({...})`` (any
``MQCMD_`` name of CMQCFC, as an attribute) does what pymqi 1.12 does:

- builds an MQCFH of type MQCFT_COMMAND_XR, version 3, and a parameter structure per
  item of the dict given (bytes or str: MQCFST; an int: MQCFIN, or a one-value MQCFIL
  for an ``..._ATTRS`` selector; a list of ints: MQCFIL; of strings: MQCFSL;
  ``ByteString``: MQCFBS), or the structures of a list given as they are, then the
  filters of a second argument;
- puts it to SYSTEM.ADMIN.COMMAND.QUEUE (``command_queue_name``) as an MQFMT_ADMIN
  request, ReplyToQ the reply queue, Expiry the wait in tenths of a second, Report
  MQRO_PASS_DISCARD_AND_EXPIRY | MQRO_DISCARD_MSG, outside syncpoint;
- gets the replies by CorrelId (the request's MsgId), waiting ``response_wait_interval``
  milliseconds for each, until one says MQCFC_LAST; each becomes a dict keyed by
  parameter identifier (strings as bytes, blank-padded as MQ sends them; integers as
  ints; lists as lists; a group as a list of dicts), and the list of them is returned.
  A reply whose CompCode is not MQCC_OK raises ``MQMIError`` with its Reason (an
  MQRCCF_* or MQRC_* code). A z/OS queue manager ends each set of extended replies
  with an MQCFT_XR_SUMMARY, which comes back as an empty dict, as pymqi returns it.

IBM's ``ibmmq`` package continues this class; what it adds is here too: the keywords
``reply_queue_name``, ``reply_queue_open_options``, ``command_queue``,
``command_timeout`` and ``max_length``, and ``responses=[]`` on a command, which
fills the list with (parameters, CFH) pairs (without the XR summary), and raises the
first failed reply's error only after all replies are read. The queues PCFExecute uses
carry administration: their calls are not in ``qsg exec --check``'s history of the
program's messages.
"""

from __future__ import annotations

from typing import Any

from qsg.pymqi import CMQC, CMQCFC
from qsg.pymqi._pcf import CFBF, CFH, CFIF, CFSF
from qsg.pymqi._pcf_messages import (
    INTEGER_NAMES,
    STRING_NAMES,
    ByteString,
    ByteStringFilter,
    Filter,
    FilterOperator,
    IntegerFilter,
    StringFilter,
    failure,
    filters,
    structures,
    unpack,
)
from qsg.pymqi.connection import QueueManager
from qsg.pymqi.errors import MQMIError, PYIFError
from qsg.pymqi.queue import Queue
from qsg.pymqi.structs import GMO, MD, OD, PMO

DEFAULT_MODEL = b"SYSTEM.DEFAULT.MODEL.QUEUE"
COMMAND_QUEUE = b"SYSTEM.ADMIN.COMMAND.QUEUE"


class _AdminQueue(Queue):
    """A queue of PCFExecute's: administration, left out of the chaos history."""

    records_history = False


def _command(name: str) -> int:
    """The MQCMD_ code a command's name stands for; AttributeError for another name."""
    command = vars(CMQCFC).get(name)
    if not name.startswith("MQCMD_") or not isinstance(command, int):
        detail = ": CMQCFC has no such MQCMD_" if name.startswith("MQCMD_") else ""
        raise AttributeError(f"'PCFExecute' object has no attribute {name!r}{detail}")
    return command


class _Method:
    """A PCF command, called with its parameters (``pcf.MQCMD_INQUIRE_Q(...)``)."""

    def __init__(self, pcf: PCFExecute, name: str) -> None:
        self._pcf, self._name = pcf, name

    def __getattr__(self, name: str) -> _Method:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Method(self._pcf, f"{self._name}.{name}")  # pcf.CMQCFC.MQCMD_...

    def __call__(self, *args: Any, **kwargs: Any) -> list[Any]:
        name = self._name.removeprefix("CMQCFC.")
        command = _command(name)
        if len(args) > 2:
            raise TypeError(f"{name} takes parameters and filters, not {len(args)} arguments")
        parameters = args[0] if args else {}
        given = args[1] if len(args) == 2 else []
        responses = kwargs.pop("responses", None)
        if kwargs:
            raise TypeError(f"{name} got unexpected keywords {sorted(kwargs)}")
        if responses is not None and not isinstance(responses, list):
            raise TypeError("responses must be a list")
        return self._pcf._execute(command, parameters, given, responses)


class PCFExecute(QueueManager):
    """pymqi's ``PCFExecute``: see the module's docstring. ``name`` is a connected
    ``QueueManager`` to use, or a queue manager's name to connect to."""

    qm: QueueManager | None = None

    def __init__(
        self,
        name: Any = None,
        disconnect_on_exit: bool = True,
        model_queue_name: bytes | str | None = DEFAULT_MODEL,
        dynamic_queue_name: bytes | str = b"PYMQPCF.*",
        command_queue_name: bytes | str = COMMAND_QUEUE,
        response_wait_interval: int = 5000,
        convert: bool = False,
        *,
        reply_queue_name: bytes | str | None = None,
        reply_queue_open_options: int = CMQC.MQOO_INPUT_EXCLUSIVE,
        command_queue: Queue | None = None,
        command_timeout: int = 0,
        max_length: int | None = None,
    ) -> None:
        if reply_queue_name and model_queue_name not in (None, DEFAULT_MODEL):
            raise PYIFError("Do not specify both a model_queue_name and a reply_queue_name")
        self._command_queue = command_queue
        self._command_queue_name = _as_bytes(command_queue_name)
        self._convert = convert
        if response_wait_interval < 0:  # ibmmq: an unlimited wait becomes an hour
            response_wait_interval = 60 * 60 * 1000
        self._response_wait_interval = response_wait_interval
        self._command_timeout = command_timeout
        self._max_length = max_length
        if isinstance(name, QueueManager):
            self.qm = name
            super().__init__(None, disconnect_on_exit)
        else:
            super().__init__(name, disconnect_on_exit)
            self.qm = self
        od = OD(
            ObjectName=_as_bytes(reply_queue_name or model_queue_name or DEFAULT_MODEL),
            DynamicQName=_as_bytes(dynamic_queue_name),
        )
        inputs = CMQC.MQOO_INPUT_EXCLUSIVE | CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_INPUT_SHARED
        if not reply_queue_open_options & inputs:
            reply_queue_open_options |= CMQC.MQOO_INPUT_EXCLUSIVE
        self._reply_queue: Queue | None = _AdminQueue(self.qm, od, reply_queue_open_options)
        self._reply_queue_name: bytes | None = od.ObjectName.rstrip(b" \0")

    def __getattr__(self, name: str) -> _Method:
        # Only commands: any other missing name is the usual AttributeError.
        if name != "CMQCFC":
            _command(name)
        return _Method(self, name)

    # ---- pymqi's properties --------------------------------------------------------------
    @property
    def command_queue_name(self) -> bytes:
        return self._command_queue_name

    @property
    def convert(self) -> bool:
        return self._convert

    @property
    def reply_queue(self) -> Queue | None:
        return self._reply_queue

    @property
    def reply_queue_name(self) -> bytes | None:
        return self._reply_queue_name

    @property
    def response_wait_interval(self) -> int:
        return self._response_wait_interval

    @property
    def command_timeout(self) -> int:
        return self._command_timeout

    @property
    def max_length(self) -> int | None:
        return self._max_length

    # ---- a command -------------------------------------------------------------------------
    def _execute(
        self, command: int, parameters: Any, given: Any, responses: list[Any] | None
    ) -> list[Any]:
        qm = self.qm
        assert qm is not None  # set in __init__
        qm.get_handle()  # PYIFError('not connected') first, as pymqi
        reply_queue, reply_queue_name = self._reply_queue, self._reply_queue_name
        if reply_queue is None or reply_queue_name is None:
            raise PYIFError("not open: the PCFExecute's reply queue was closed by disconnect()")
        body = structures(parameters, qm.bytes_encoding) + filters(given or [])
        header = CFH(
            Version=CMQCFC.MQCFH_VERSION_3,
            Command=command,
            Type=CMQCFC.MQCFT_COMMAND_XR,
            ParameterCount=len(body),
        )
        message = header.pack() + b"".join(p.pack() for p in body)
        wait = self._response_wait_interval
        put_md = MD(
            Format=CMQC.MQFMT_ADMIN,
            MsgType=CMQC.MQMT_REQUEST,
            ReplyToQ=reply_queue_name,
            Feedback=CMQC.MQFB_NONE,
            # Tenths of a second: the wait for a reply (pymqi), or ibmmq's timeout.
            Expiry=(self._command_timeout or wait) // 100,
            Report=CMQC.MQRO_PASS_DISCARD_AND_EXPIRY | CMQC.MQRO_DISCARD_MSG,
        )
        queue = self._command_queue or _AdminQueue(qm, self._command_queue_name, CMQC.MQOO_OUTPUT)
        try:
            queue.put(message, put_md, PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        finally:
            if queue is not self._command_queue:
                queue.close()
        options = CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_FAIL_IF_QUIESCING | CMQC.MQGMO_WAIT
        gmo = GMO(
            Options=options | (CMQC.MQGMO_CONVERT if self._convert else 0),
            Version=CMQC.MQGMO_VERSION_2,
            MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
            WaitInterval=wait,
        )
        get_md = MD(CorrelId=put_md.MsgId)
        try:
            return _replies(reply_queue, self._max_length, get_md, gmo, responses, command)
        except MQMIError as error:
            error.detail = _not_simulated(command, body, error.reason) or error.detail
            raise

    # ---- pymqi's helpers -------------------------------------------------------------------
    @staticmethod
    def unpack(message: bytes) -> tuple[dict[int, Any], CFH]:
        """A PCF reply as (parameters by identifier, CFH); MQMIError for a failed one."""
        return unpack(message)

    @staticmethod
    def stringify_keys(raw_dict: dict[int, Any]) -> dict[Any, Any]:
        """``raw_dict`` with its keys as the constants' names (MQCA_Q_NAME, ...) where
        CMQC or CMQCFC names them; bytes values are looked up among the string
        selectors, the others among the integer ones, as pymqi does."""
        named: dict[Any, Any] = {}
        for key, value in raw_dict.items():
            if isinstance(value, str):
                raise TypeError(f'In Python 3 use bytes, not str (found "{key}":"{value}")')
            table = STRING_NAMES if isinstance(value, bytes) else INTEGER_NAMES
            named[table.get(key, key)] = value
        return named

    stringifyKeys = stringify_keys

    def disconnect(self) -> None:
        """Close (and so delete) the reply queue, as pymqi; a PCFExecute that made its own
        connection ends it too."""
        try:
            if self._reply_queue is not None and self._reply_queue.get_handle() is not None:
                self._reply_queue.close()
        except MQMIError:
            pass  # the connection is gone, and the dynamic queue with it
        finally:
            self._reply_queue = self._reply_queue_name = None
        if self.qm is self and self._conn is not None:
            QueueManager.disconnect(self)


def _replies(
    queue: Queue,
    max_length: int | None,
    md: MD,
    gmo: GMO,
    responses: list[Any] | None,
    command: int,
) -> list[Any]:
    """The replies to one request of ``command``, read to the last (``_Sets``): pymqi's
    list of dicts; with ``responses`` (ibmmq's), that list filled with (dict, CFH) pairs
    instead, the XR messages and summaries left out. A failed reply's error names
    ``command`` (``failure``)."""
    sets = _Sets()
    if responses is None:
        out: list[Any] = []
        while not sets.done:
            parameters, cfh = unpack(queue.get(max_length, md, gmo), command=command)
            sets.saw(parameters, cfh)
            out.append(parameters)
        return out
    del responses[:]
    first_failure: MQMIError | None = None
    while not sets.done:
        parameters, cfh = unpack(queue.get(max_length, md, gmo), raising=False)
        sets.saw(parameters, cfh)
        if cfh.CompCode != CMQC.MQCC_OK and first_failure is None:
            first_failure = failure(cfh, parameters, command)
        summary = cfh.Type in (CMQCFC.MQCFT_XR_MSG, CMQCFC.MQCFT_XR_SUMMARY)
        if parameters and not summary:
            responses.append((parameters, cfh))
    if first_failure is not None:
        raise first_failure
    return responses


class _Sets:
    """Where the replies to one request end. A standard reply, or one set of extended
    replies, ends with MQCFC_LAST. A z/OS queue manager answers a command with a
    CommandScope in several sets ("Extended responses to commands using CommandScope"):
    its first set's MQCFT_XR_MSG says MQCMDI_CMDSCOPE_ACCEPTED, and the replies are all
    in with the set whose MQCFT_XR_MSG says MQCMDI_CMDSCOPE_COMPLETED (as ``ibmmq``'s
    PCFExecute reads them; it stops at that message, this reads its set to the
    MQCFC_LAST, its summary included, so that nothing is left on the reply queue)."""

    def __init__(self) -> None:
        self.in_scope = self.completed = self.done = False

    def saw(self, parameters: dict[int, Any], cfh: CFH) -> None:
        if cfh.Type == CMQCFC.MQCFT_XR_MSG:
            info = parameters.get(CMQCFC.MQIACF_COMMAND_INFO)
            self.in_scope = self.in_scope or info == CMQCFC.MQCMDI_CMDSCOPE_ACCEPTED
            self.completed = self.completed or info == CMQCFC.MQCMDI_CMDSCOPE_COMPLETED
        last = cfh.Control == CMQCFC.MQCFC_LAST
        self.done = last and (not self.in_scope or self.completed)


#: MQCMD_ names by number, for an error naming the command.
_COMMAND_NAMES = {getattr(CMQCFC, name): name for name in dir(CMQCFC) if name.startswith("MQCMD_")}


def _not_simulated(command: int, body: list[Any], reason: int) -> str:
    """What the failed reply ``reason`` to a request of ``body`` says is not simulated,
    as docs/pymqi.md lists it ("Not simulated: the filters ...; the other commands"),
    or "" when it is another failure.
    A PCF reply carries no text: the facade, which built the request, adds it."""
    if reason == CMQCFC.MQRCCF_STRUCTURE_TYPE_ERROR and any(
        isinstance(p, CFIF | CFSF | CFBF) for p in body
    ):
        return "PCF filters (MQCFIF, MQCFSF, MQCFBF) are not simulated"
    if reason == CMQCFC.MQRCCF_CFH_COMMAND_ERROR:
        name = _COMMAND_NAMES.get(command, f"command {command}")
        return f"{name} is not simulated by the command server (docs/mqsc.md)"
    return ""


def _as_bytes(value: bytes | str) -> bytes:
    return value.encode("ascii") if isinstance(value, str) else value


__all__ = [
    "ByteString",
    "ByteStringFilter",
    "Filter",
    "FilterOperator",
    "IntegerFilter",
    "PCFExecute",
    "StringFilter",
    "unpack",
]
