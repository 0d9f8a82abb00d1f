"""MQRFH2, the rules-and-formatting header version 2, as pymqi's ``RFH2``.

Exports ``RFH2`` and the two functions ``Queue.put_rfh2`` / ``get_rfh2`` are made of:

- ``rfh2_put_body(msg, md, headers) -> bytes``: the message data ``put_rfh2(msg, md, pmo,
  headers)`` puts: each header of the list ``headers`` packed in front of ``msg``, the
  first in ``md.Encoding`` (native when ``md`` is None), each next one in the Encoding
  its predecessor declares. As in pymqi, the headers' ``Format`` fields (and the MD's)
  are the caller's to chain: they are packed as they are, not rewritten.
- ``rfh2_get_headers(msg, md, headers) -> bytes``: what ``get_rfh2(max_length, md, gmo,
  headers)`` does with the data MQGET returned: while the previous ``Format`` (the MD's
  first) is MQFMT_RF_HEADER_2, unpack one header (its byte order read from the data),
  append it to the list ``headers``, go on after its ``StrucLength``; returns the rest.

An ``RFH2`` has the eight fields of IBM's fixed part ("MQRFH2 - Rules and formatting
header 2") and, for each NameValueData folder, two more: ``<folder>Length`` and
``<folder>`` (the XML, blank-padded to a multiple of 4 bytes), named by the folder's root
element, as pymqi does. Malformed input raises pymqi's ``PYIFError`` with pymqi's words.
"""

from __future__ import annotations

import struct
from typing import Any
from xml.dom.minidom import parseString
from xml.parsers.expat import ExpatError

from qsg.pymqi import CMQC
from qsg.pymqi._opts import MQLONG, MQOpts, ensure_not_unicode
from qsg.pymqi.errors import PYIFError

L = MQLONG
_FIXED = CMQC.MQRFH_STRUC_LENGTH_FIXED_2  # 36 bytes

# Encodings whose integers are big-endian ("normal"), as pymqi lists them: integer,
# decimal and float families alone and combined.
BIG_ENDIAN_ENCODINGS = frozenset(
    {
        CMQC.MQENC_INTEGER_NORMAL,
        CMQC.MQENC_DECIMAL_NORMAL,
        CMQC.MQENC_FLOAT_IEEE_NORMAL,
        CMQC.MQENC_FLOAT_S390,
        CMQC.MQENC_INTEGER_NORMAL + CMQC.MQENC_DECIMAL_NORMAL,
        CMQC.MQENC_INTEGER_NORMAL + CMQC.MQENC_FLOAT_IEEE_NORMAL,
        CMQC.MQENC_DECIMAL_NORMAL + CMQC.MQENC_FLOAT_IEEE_NORMAL,
        CMQC.MQENC_INTEGER_NORMAL + CMQC.MQENC_DECIMAL_NORMAL + CMQC.MQENC_FLOAT_IEEE_NORMAL,
    }
)


def _folder_name(folder: bytes) -> str:
    try:
        root = parseString(folder).documentElement
    except ExpatError as e:
        raise PYIFError(f"RFH2 - XML Folder not well formed. Exception: {e}") from e
    assert root is not None  # a well-formed document has a root element
    name: str = root.tagName
    return name


class RFH2(MQOpts):
    """MQRFH2 with its NameValueData folders (see the module's docstring)."""

    _layout = (
        ("StrucId", "4s", CMQC.MQRFH_STRUC_ID),
        ("Version", L, CMQC.MQRFH_VERSION_2),
        ("StrucLength", L, 0),
        ("Encoding", L, CMQC.MQENC_NATIVE),
        ("CodedCharSetId", L, CMQC.MQCCSI_Q_MGR),
        ("Format", "8s", CMQC.MQFMT_NONE),
        ("Flags", L, 0),
        ("NameValueCCSID", L, CMQC.MQCCSI_Q_MGR),
    )

    def _with_folders(self, folders: list[tuple[str, int, bytes]]) -> None:
        """Give this header its own layout: the fixed part, then each folder's length
        and data."""
        layout = list(type(self)._layout)
        for name, length, data in folders:
            layout += [(f"{name}Length", L, length), (name, f"{len(data)}s", data)]
        self._use_layout(tuple(layout))
        for name, length, data in folders:
            self.__dict__[f"{name}Length"] = length
            self.__dict__[name] = data

    def _folders(self) -> list[tuple[str, int, bytes]]:
        names = [name for name, _, _ in self._layout[len(type(self)._layout) :: 2]]
        return [(n[: -len("Length")], self[n], self[n[: -len("Length")]]) for n in names]

    def add_folder(self, folder_data: bytes) -> None:
        """Add an XML folder (blank-padded to a multiple of 4 bytes); StrucLength follows."""
        ensure_not_unicode(folder_data)
        name = _folder_name(folder_data)
        folder_data += b" " * (-len(folder_data) % 4)
        self._with_folders([*self._folders(), (name, len(folder_data), folder_data)])
        self.StrucLength = self.get_length()

    def pack(self, encoding: int | None = None) -> bytes:
        """The header in IBM's layout, big-endian when ``encoding`` says so."""
        order = ">" if encoding in BIG_ENDIAN_ENCODINGS else ""
        return struct.pack(order + self._format, *self._values())

    def unpack(self, buff: bytes, encoding: int | None = None) -> RFH2:
        """Read a header and its folders; the byte order is ``encoding``'s or, when it is
        None, read from the data (a big-endian Version starts with a NUL)."""
        ensure_not_unicode(buff)
        if buff[0:4] != CMQC.MQRFH_STRUC_ID:
            raise PYIFError(f"RFH2 - StrucId not MQRFH_STRUC_ID. Value: {buff[0:4]!r}")
        if len(buff) < _FIXED:
            raise PYIFError(f"RFH2 - Buffer too short. Should be 36+ bytes instead of {len(buff)}")
        if encoding is None:
            order = ">" if buff[4:5] == b"\x00" else "<"
        else:
            order = ">" if encoding in BIG_ENDIAN_ENCODINGS else "<"
        fixed = type(self)._layout
        values = struct.unpack(order + "".join(f for _, f, _ in fixed), buff[:_FIXED])
        self._with_folders([])
        self._assign(values)
        length: int = self.StrucLength
        if length < 0:
            raise PYIFError('RFH2 - "StrucLength" is negative. Check numeric encoding.')
        if len(buff) > _FIXED and length > len(buff):
            raise PYIFError(
                f"RFH2 - Buffer too short. Expected: {length} Buffer Length: {len(buff)}"
            )
        folders = []
        rest = buff[_FIXED:length]
        while rest:
            # Each NameValueLength checked against the bytes there before it is followed.
            if len(rest) < 4:
                raise PYIFError(f"RFH2 - Buffer too short. {len(rest)} bytes for a folder length")
            (size,) = struct.unpack(order + "l", rest[:4])
            if not 0 <= size <= len(rest) - 4:
                raise PYIFError(
                    f"RFH2 - Folder length {size} does not fit the {len(rest) - 4} bytes left"
                )
            data = rest[4 : 4 + size]
            folders.append((_folder_name(data), size, data))
            rest = rest[4 + size :]
        self._with_folders(folders)
        return self


def rfh2_put_body(msg: bytes, md: Any, headers: Any) -> bytes:
    """The data ``Queue.put_rfh2(msg, md, pmo, headers)`` puts (see the module)."""
    ensure_not_unicode(msg)
    if headers is None:
        return msg
    if not isinstance(headers, list):
        raise TypeError("Third item of opts should be a list.")
    encoding = CMQC.MQENC_NATIVE if md is None else md["Encoding"]
    packed = b""
    for header in headers:
        if header is not None:
            packed += header.pack(encoding)
            encoding = header["Encoding"]
    return packed + msg


def rfh2_get_headers(msg: bytes, md: Any, headers: Any) -> bytes:
    """Unpack the RFH2 headers in front of ``msg`` into the list ``headers`` (see the
    module); returns the data after them."""
    if headers is None:
        raise AttributeError("get_opts cannot be None if passed.")
    if not isinstance(headers, list):
        raise TypeError("Third item of opts should be a list.")
    fmt = md["Format"]
    found = []
    while fmt == CMQC.MQFMT_RF_HEADER_2:
        header = RFH2().unpack(msg)
        if header.StrucLength < _FIXED:  # it counts the fixed part: the next header is
            # after it, or this one would be read again, for ever
            raise PYIFError(f'RFH2 - "StrucLength" {header.StrucLength} is less than {_FIXED}.')
        found.append(header)
        msg = msg[header.StrucLength :]
        fmt = header.Format
    headers.extend(found)
    return msg
