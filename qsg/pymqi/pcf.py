"""pymqi's ``PCFExecute``: PCF commands to a queue manager's command server.

Exports ``PCFExecute``, its parameter wrappers ``ByteString`` and ``Filter`` (with
``StringFilter``, ``IntegerFilter``, ``ByteStringFilter`` and ``FilterOperator``), and
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

import struct
from collections.abc import Iterable
from typing import Any, ClassVar

from qsg.pymqi import CMQC, CMQCFC
from qsg.pymqi._opts import MQOpts
from qsg.pymqi._pcf import CFBF, CFBS, CFH, CFIF, CFIL, CFIN, CFSF, CFSL, CFST
from qsg.pymqi.connection import QueueManager
from qsg.pymqi.errors import Error, MQMIError, PYIFError
from qsg.pymqi.queue import Queue
from qsg.pymqi.structs import GMO, MD, OD, PMO

DEFAULT_MODEL = b"SYSTEM.DEFAULT.MODEL.QUEUE"
COMMAND_QUEUE = b"SYSTEM.ADMIN.COMMAND.QUEUE"


def _names(*prefixes: str) -> dict[int, str]:
    """Constant value to name over CMQC and CMQCFC, for names with one of ``prefixes``;
    of two names for one value the first prefix's wins, and within it the later name,
    as pymqi's tables are built."""
    table: dict[int, str] = {}
    for prefix in reversed(prefixes):
        for module in (CMQC, CMQCFC):
            for name, value in vars(module).items():
                if name.startswith(prefix) and isinstance(value, int):
                    table[value] = name
    return table


_INTEGER_NAMES = _names("MQIA_", "MQIACF_", "MQIACH_")
_STRING_NAMES = _names("MQCA_", "MQCACF_", "MQCACH_", "MQBACF_")
_COMMAND_NAMES = _names("MQCMD_")

#: The ``..._ATTRS`` selectors: a single int given for one is sent as an MQCFIL, as
#: pymqi does for MQAI's sake.
_ATTRS = frozenset(
    value
    for name, value in vars(CMQCFC).items()
    if name.startswith(("MQIACF_", "MQIACH_")) and name.endswith("_ATTRS")
)


class _AdminQueue(Queue):
    """A queue of PCFExecute's: administration, left out of the chaos history."""

    records_history = False


class ByteString:
    """pymqi's wrapper for a value to be sent as an MQCFBS (a byte string)."""

    def __init__(self, value: bytes) -> None:
        self.value = value
        self.pymqi_byte_string = True

    def __len__(self) -> int:
        return len(self.value)


class _Filter:
    """A filter on an attribute: selector, value and an MQCFOP_* operator."""

    _pymqi_filter_type: str | None = None

    def __init__(self, selector: int, value: Any, operator: int) -> None:
        self.selector = selector
        self.value = value.encode("ascii") if isinstance(value, str) else value
        self.operator = operator

    def __repr__(self) -> str:
        kind = type(self).__name__
        return f"<{kind} at {hex(id(self))} {self.selector}:{self.value!r}:{self.operator}>"

    def structure(self) -> MQOpts:
        """The filter as the PCF structure that carries it."""
        if self._pymqi_filter_type == "integer":
            return CFIF(Parameter=self.selector, Operator=self.operator, FilterValue=self.value)
        cls = CFBF if self._pymqi_filter_type == "bytestring" else CFSF
        return cls(Parameter=self.selector, Operator=self.operator, FilterValue=self.value)


class StringFilter(_Filter):
    _pymqi_filter_type = "string"


class IntegerFilter(_Filter):
    _pymqi_filter_type = "integer"


class ByteStringFilter(_Filter):
    _pymqi_filter_type = "bytestring"


class FilterOperator:
    """``Filter(selector).<operator>``: makes the filter for a value."""

    operator_mapping: ClassVar[dict[str, int]] = {
        "less": CMQCFC.MQCFOP_LESS,
        "equal": CMQCFC.MQCFOP_EQUAL,
        "greater": CMQCFC.MQCFOP_GREATER,
        "not_less": CMQCFC.MQCFOP_NOT_LESS,
        "not_equal": CMQCFC.MQCFOP_NOT_EQUAL,
        "not_greater": CMQCFC.MQCFOP_NOT_GREATER,
        "like": CMQCFC.MQCFOP_LIKE,
        "not_like": CMQCFC.MQCFOP_NOT_LIKE,
        "contains": CMQCFC.MQCFOP_CONTAINS,
        "excludes": CMQCFC.MQCFOP_EXCLUDES,
        "contains_gen": CMQCFC.MQCFOP_CONTAINS_GEN,
        "excludes_gen": CMQCFC.MQCFOP_EXCLUDES_GEN,
    }

    def __init__(self, selector: int, operator_name: str) -> None:
        self.filter_cls: type[_Filter]
        if CMQC.MQIA_FIRST <= selector <= CMQC.MQIA_LAST:
            self.filter_cls = IntegerFilter
        elif CMQC.MQCA_FIRST <= selector <= CMQC.MQCA_LAST:
            self.filter_cls = StringFilter
        elif CMQC.MQBA_FIRST <= selector <= CMQC.MQBA_LAST:
            self.filter_cls = ByteStringFilter
        else:
            raise Error(
                f"selector [{selector}] is of an unsupported type (neither an integer, "
                "a string nor a byte string attribute)"
            )
        self.selector = selector
        operator = self.operator_mapping.get(operator_name)
        if operator is None:
            raise Error(f"Operator [{operator_name}] is not supported.")
        self.operator = operator

    def __call__(self, value: Any) -> _Filter:
        return self.filter_cls(self.selector, value, self.operator)


class Filter:
    """pymqi's filters: ``Filter(CMQC.MQIA_CURRENT_Q_DEPTH).greater(10)``."""

    def __init__(self, selector: int) -> None:
        self.selector = selector

    def __getattr__(self, name: str) -> FilterOperator:
        if name.startswith("__"):
            raise AttributeError(name)
        return FilterOperator(self.selector, name)


# ---- replies ---------------------------------------------------------------------------
def unpack(message: bytes, *, raising: bool = True) -> tuple[dict[int, Any], CFH]:
    """A PCF message's parameters by identifier, and its header. A header whose
    CompCode is not MQCC_OK is ``MQMIError`` unless ``raising`` is False."""
    if len(message) < CMQCFC.MQCFH_STRUC_LENGTH:
        raise PYIFError(f"a PCF message of {len(message)} bytes is shorter than an MQCFH")
    cfh = CFH()
    cfh.unpack(message[: CMQCFC.MQCFH_STRUC_LENGTH])
    parameters = _parameters(message, cfh)
    if cfh.CompCode != CMQC.MQCC_OK and raising:
        raise _failure(cfh, parameters)
    return parameters, cfh


def _failure(cfh: CFH, parameters: dict[int, Any]) -> MQMIError:
    """pymqi's error for a failed reply; its ``detail`` names the command and the
    parameter the reply blames (MQIACF_PARAMETER_ID), if any."""
    error = MQMIError(cfh.CompCode, cfh.Reason)
    command = _COMMAND_NAMES.get(cfh.Command, str(cfh.Command))
    error.detail = f"{command}: the command server's reply has Reason {cfh.Reason}"
    blamed = parameters.get(CMQCFC.MQIACF_PARAMETER_ID)
    if isinstance(blamed, int):
        name = _INTEGER_NAMES.get(blamed) or _STRING_NAMES.get(blamed) or "?"
        error.detail += f", about parameter {blamed} ({name})"
    return error


def _parameters(message: bytes, cfh: CFH) -> dict[int, Any]:
    """The parameters after a PCF message's header, by identifier (a group's as a list
    of dicts)."""
    parameters: dict[int, Any] = {}
    group: dict[int, Any] | None = None
    in_group = 0  # parameters of the current group still to come
    at, left = CMQCFC.MQCFH_STRUC_LENGTH, cfh.ParameterCount
    while left > 0:
        if at + 12 > len(message):
            raise PYIFError(f"the PCF message ends with {left} of its parameters to come")
        kind, length, parameter = struct.unpack_from("=3i", message, at)
        if length < 12 or at + length > len(message):
            raise PYIFError(f"a PCF parameter of StrucLength {length} at offset {at}")
        raw, at, left = message[at : at + length], at + length, left - 1
        if in_group == 0:
            group = None
        if kind == CMQCFC.MQCFT_GROUP:
            in_group = struct.unpack_from("=i", raw, 12)[0]
            left += in_group
            group = {}
            parameters.setdefault(parameter, []).append(group)
            continue
        value = _value(kind, raw)
        if group is not None:
            group[parameter] = value
            in_group -= 1
        else:
            parameters[parameter] = value
    return parameters


def _value(kind: int, raw: bytes) -> Any:
    """One parameter structure's value (IBM's layouts, "PCF structures")."""
    if kind == CMQCFC.MQCFT_INTEGER:
        return struct.unpack_from("=i", raw, 12)[0]
    if kind == CMQCFC.MQCFT_STRING:
        size = struct.unpack_from("=i", raw, 16)[0]
        return raw[20 : 20 + size]
    if kind == CMQCFC.MQCFT_INTEGER_LIST:
        count = struct.unpack_from("=i", raw, 12)[0]
        return list(struct.unpack_from(f"={count}i", raw, 16))
    if kind == CMQCFC.MQCFT_STRING_LIST:
        count, size = struct.unpack_from("=2i", raw, 16)
        return [raw[24 + i * size : 24 + (i + 1) * size] for i in range(count)]
    if kind == CMQCFC.MQCFT_BYTE_STRING:
        size = struct.unpack_from("=i", raw, 12)[0]
        return raw[16 : 16 + size]
    if kind == CMQCFC.MQCFT_INTEGER64:
        return struct.unpack_from("=q", raw, 16)[0]
    if kind == CMQCFC.MQCFT_INTEGER64_LIST:
        count = struct.unpack_from("=i", raw, 12)[0]
        return list(struct.unpack_from(f"={count}q", raw, 16))
    if kind == CMQCFC.MQCFT_INTEGER_FILTER:
        return struct.unpack_from("=2i", raw, 12)
    if kind == CMQCFC.MQCFT_STRING_FILTER:
        operator, _ccsid, size = struct.unpack_from("=3i", raw, 12)
        return operator, raw[24 : 24 + size]
    if kind == CMQCFC.MQCFT_BYTE_STRING_FILTER:
        operator, size = struct.unpack_from("=2i", raw, 12)
        return operator, raw[20 : 20 + size]
    raise NotImplementedError(f"Unpack for type ({kind}) not implemented")


# ---- requests --------------------------------------------------------------------------
def _structures(args: Any, encoding: str) -> list[MQOpts]:
    """The parameter structures for a command's first argument: a dict of parameter
    identifier to value, or a list of PCF structures."""
    if not args:
        return []
    if isinstance(args, dict):
        return [_structure(key, value, encoding) for key, value in args.items()]
    if isinstance(args, list | tuple):
        for item in args:
            if not isinstance(item, MQOpts):
                raise TypeError(
                    f"a PCF parameter list holds structures (CFST, CFIN...), not {item!r}"
                )
        return list(args)
    raise TypeError(f"PCF parameters are a dict or a list of structures, not {args!r}")


def _structure(key: int, value: Any, encoding: str) -> MQOpts:
    if isinstance(value, str):
        return CFST(Parameter=key, String=value.encode(encoding))
    if isinstance(value, bytes):
        return CFST(Parameter=key, String=value)
    if isinstance(value, ByteString):
        return CFBS(Parameter=key, String=value.value)
    if isinstance(value, int):
        if key in _ATTRS:
            return CFIL(Parameter=key, Values=[value])
        return CFIN(Parameter=key, Value=value)
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return CFIL(Parameter=key, Values=value)
    if isinstance(value, list) and all(isinstance(v, str | bytes) for v in value):
        strings = [v.encode(encoding) if isinstance(v, str) else v for v in value]
        return CFSL(Parameter=key, Strings=strings)
    raise TypeError(
        f"PCF parameter {key}: {value!r} is not a PCF value (bytes or str for an "
        "MQCFST, an int for an MQCFIN, a list of ints or of strings, a ByteString)"
    )


def _filters(filters: Iterable[Any]) -> list[MQOpts]:
    out = []
    for item in filters:
        if isinstance(item, _Filter):
            out.append(item.structure())
        elif isinstance(item, MQOpts):
            out.append(item)
        else:
            raise TypeError(f"a PCF filter is a pymqi.Filter or a CFIF/CFSF/CFBF, not {item!r}")
    return out


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
        filters = args[1] if len(args) == 2 else []
        responses = kwargs.pop("responses", None)
        if kwargs:
            raise TypeError(f"{name} got unexpected keywords {sorted(kwargs)}")
        if responses is not None and not isinstance(responses, list):
            raise TypeError("responses must be a list")
        return self._pcf._execute(command, parameters, filters, responses)


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
        self, command: int, parameters: Any, filters: Any, responses: list[Any] | None
    ) -> list[Any]:
        qm = self.qm
        assert qm is not None  # set in __init__
        qm.get_handle()  # PYIFError('not connected') first, as pymqi
        reply_queue, reply_queue_name = self._reply_queue, self._reply_queue_name
        if reply_queue is None or reply_queue_name is None:
            raise PYIFError("not open: the PCFExecute's reply queue was closed by disconnect()")
        body = _structures(parameters, qm.bytes_encoding) + _filters(filters or [])
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
        return _replies(reply_queue, self._max_length, get_md, gmo, responses)

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
            table = _STRING_NAMES if isinstance(value, bytes) else _INTEGER_NAMES
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
    queue: Queue, max_length: int | None, md: MD, gmo: GMO, responses: list[Any] | None
) -> list[Any]:
    """The replies to one request, read until MQCFC_LAST: pymqi's list of dicts; with
    ``responses`` (ibmmq's), that list filled with (dict, CFH) pairs instead."""
    if responses is None:
        out: list[Any] = []
        while True:
            parameters, cfh = unpack(queue.get(max_length, md, gmo))
            out.append(parameters)
            if cfh.Control == CMQCFC.MQCFC_LAST:
                return out
    del responses[:]
    first_failure: MQMIError | None = None
    while True:
        parameters, cfh = unpack(queue.get(max_length, md, gmo), raising=False)
        if cfh.CompCode != CMQC.MQCC_OK and first_failure is None:
            first_failure = MQMIError(cfh.CompCode, cfh.Reason)
        summary = cfh.Type in (CMQCFC.MQCFT_XR_MSG, CMQCFC.MQCFT_XR_SUMMARY)
        if parameters and not summary:
            responses.append((parameters, cfh))
        if cfh.Control == CMQCFC.MQCFC_LAST:
            break
    if first_failure is not None:
        raise first_failure
    return responses


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
