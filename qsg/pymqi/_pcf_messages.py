"""What goes into a PCF message and comes out of one, for ``PCFExecute``.

Exports ``structures`` (a command's parameters, given as pymqi takes them, as PCF
structures), ``filters`` (its filters, likewise), ``unpack`` (a reply as its parameters
by identifier and its ``CFH``), ``failure`` (pymqi's error for a failed reply), the
parameter wrappers ``ByteString`` and ``Filter`` (with ``StringFilter``,
``IntegerFilter``, ``ByteStringFilter`` and ``FilterOperator``), and the tables of
constant names ``INTEGER_NAMES``, ``STRING_NAMES`` and ``COMMAND_NAMES``.

Replies are read as IBM lays the structures out ("PCF structures"), in the machine's
byte order (the request's MQENC_NATIVE, which the command server answers in): a string
is its StringLength bytes, blank-padded as MQ sends it; an MQCFSL's strings are
StringLength bytes each, one after the other; a group (MQCFGR) becomes a list of dicts
under its parameter, holding the ParameterCount structures after it.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any, ClassVar

from qsg.pymqi import CMQC, CMQCFC
from qsg.pymqi._opts import MQOpts
from qsg.pymqi._pcf import CFBF, CFBS, CFH, CFIF, CFIL, CFIN, CFSF, CFSL, CFST
from qsg.pymqi.errors import Error, MQMIError, PYIFError


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


INTEGER_NAMES = _names("MQIA_", "MQIACF_", "MQIACH_")
STRING_NAMES = _names("MQCA_", "MQCACF_", "MQCACH_", "MQBACF_")
COMMAND_NAMES = _names("MQCMD_")

#: The ``..._ATTRS`` selectors: a single int given for one is sent as an MQCFIL, as
#: pymqi does for MQAI's sake.
_ATTRS = frozenset(
    value
    for name, value in vars(CMQCFC).items()
    if name.startswith(("MQIACF_", "MQIACH_")) and name.endswith("_ATTRS")
)


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
def unpack(
    message: bytes, *, raising: bool = True, command: int | None = None
) -> tuple[dict[int, Any], CFH]:
    """A PCF message's parameters by identifier, and its header. A header whose
    CompCode is not MQCC_OK is ``MQMIError`` unless ``raising`` is False; ``command``:
    the request's, for the error to name (see ``failure``)."""
    if len(message) < CMQCFC.MQCFH_STRUC_LENGTH:
        raise PYIFError(f"a PCF message of {len(message)} bytes is shorter than an MQCFH")
    cfh = CFH()
    cfh.unpack(message[: CMQCFC.MQCFH_STRUC_LENGTH])
    parameters = _parameters(message, cfh)
    if cfh.CompCode != CMQC.MQCC_OK and raising:
        raise failure(cfh, parameters, command)
    return parameters, cfh


def failure(cfh: CFH, parameters: dict[int, Any], command: int | None = None) -> MQMIError:
    """pymqi's error for a failed reply; its ``detail`` names the command (``command``,
    the request's, when the caller sent it: the reply to a request the command server
    could not read says MQCMD_NONE) and the parameter the reply blames
    (MQIACF_PARAMETER_ID), if any."""
    error = MQMIError(cfh.CompCode, cfh.Reason)
    sent = cfh.Command if command is None else command
    name = COMMAND_NAMES.get(sent, str(sent))
    error.detail = f"{name}: the command server's reply has Reason {cfh.Reason}"
    blamed = parameters.get(CMQCFC.MQIACF_PARAMETER_ID)
    if isinstance(blamed, int):
        name = INTEGER_NAMES.get(blamed) or STRING_NAMES.get(blamed) or "?"
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
            in_group = struct.unpack_from("=i", raw, 12)[0] if length >= 16 else -1
            if in_group < 0:
                raise PYIFError(f"an MQCFGR of StrucLength {length} and {in_group} parameters")
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
    """One parameter structure's value (IBM's layouts, "PCF structures"); PYIFError for
    a structure its own counts and lengths do not fit (checked against the bytes there
    before anything is built: an MQCFSL of 60 bytes cannot claim two billion strings)."""
    try:
        _fits(kind, raw)
        return _unpacked(kind, raw)
    except struct.error as error:  # a fixed part cut short
        raise PYIFError(f"a PCF parameter of type {kind} and {len(raw)} bytes: {error}") from None


#: Each list or string structure's fixed length, and the bytes one of its values takes.
_VARIABLE = {
    CMQCFC.MQCFT_STRING: (20, 1),
    CMQCFC.MQCFT_BYTE_STRING: (16, 1),
    CMQCFC.MQCFT_INTEGER_LIST: (16, 4),
    CMQCFC.MQCFT_INTEGER64_LIST: (16, 8),
}


def _fits(kind: int, raw: bytes) -> None:
    """PYIFError unless the count or length of ``raw`` fits the bytes it has."""
    if kind == CMQCFC.MQCFT_STRING_LIST:
        count, size = struct.unpack_from("=2i", raw, 16)
        room = len(raw) - 24
        # Every string takes at least a byte of the structure, even one of length 0.
        if not 0 <= count <= room or size < 0 or count * size > room:
            raise PYIFError(f"MQCFSL: {count} strings of {size} bytes in {room} bytes")
    elif kind in _VARIABLE:
        fixed, width = _VARIABLE[kind]
        count = struct.unpack_from("=i", raw, fixed - 4)[0]
        if not 0 <= count * width <= len(raw) - fixed:
            raise PYIFError(
                f"a PCF parameter of type {kind} claims {count} values in {len(raw)} bytes"
            )


def _unpacked(kind: int, raw: bytes) -> Any:
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
def structures(args: Any, encoding: str) -> list[MQOpts]:
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


def filters(given: Iterable[Any]) -> list[MQOpts]:
    """The filters given after a command's parameters, as PCF structures."""
    out = []
    for item in given:
        if isinstance(item, _Filter):
            out.append(item.structure())
        elif isinstance(item, MQOpts):
            out.append(item)
        else:
            raise TypeError(f"a PCF filter is a pymqi.Filter or a CFIF/CFSF/CFBF, not {item!r}")
    return out


__all__ = [
    "COMMAND_NAMES",
    "INTEGER_NAMES",
    "STRING_NAMES",
    "ByteString",
    "ByteStringFilter",
    "Filter",
    "FilterOperator",
    "IntegerFilter",
    "StringFilter",
    "failure",
    "filters",
    "structures",
    "unpack",
]
