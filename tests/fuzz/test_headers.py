"""Headers read from messages, as a hostile (or careless) program writes them: MQMD,
MQXQH, MQDLH, MQTM (``qsg.core.layouts``) and MQRFH2 (``qsg.pymqi.RFH2``, pymqi's
``get_rfh2``). Whatever the bytes, each is read or refused with its own error (the
structure's MQRC_*_ERROR, pymqi's PYIFError), in bounded time and memory: a length or
an offset is checked against the bytes there before it is followed.
"""

from __future__ import annotations

import struct
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from qsg import CMQC, MD
from qsg.core.errors import MQMIError
from qsg.core.layouts import DLH, TM, XQH, pack_md, unpack_md
from qsg.pymqi import RFH2
from qsg.pymqi.errors import PYIFError
from qsg.pymqi.rfh2 import rfh2_get_headers
from tests.bounds import memory_bound
from tests.claims import keeps

NATIVE = CMQC.MQENC_NATIVE
MCD = b"<mcd><Msd>jms_text</Msd></mcd>"


def _rfh2(format: bytes = CMQC.MQFMT_STRING) -> bytes:
    header = RFH2(Format=format)
    header.add_folder(MCD)
    return header.pack()


VALID = {
    "md": pack_md(MD(Format=CMQC.MQFMT_STRING), version=2),
    "xqh": XQH(b"APP.IN", b"QM3", MD()).pack(),
    "dlh": DLH(
        CMQC.MQRC_UNKNOWN_OBJECT_NAME, b"APP.IN", b"QM3", NATIVE, 1208, CMQC.MQFMT_STRING
    ).pack(),
    "tm": TM(b"APP.IN", b"PROC").pack(),
    "rfh2": _rfh2(CMQC.MQFMT_RF_HEADER_2) + _rfh2() + b"body",  # two, chained
}
EDGES = [0, 1, -1, 4, 36, 2**31 - 1, -(2**31)]


def read(kind: str, data: bytes) -> None:
    """Read ``data`` as a ``kind`` header: it parses, or it is refused with the
    structure's error; within a second and 256 MiB."""
    started = time.monotonic()
    with memory_bound():
        try:
            if kind == "md":
                unpack_md(data, NATIVE)
            elif kind == "xqh":
                XQH.unpack(data, NATIVE)
            elif kind == "dlh":
                DLH.unpack(data, NATIVE)
            elif kind == "tm":
                TM.unpack(data, NATIVE)
            else:
                headers: list[RFH2] = []
                rfh2_get_headers(data, {"Format": CMQC.MQFMT_RF_HEADER_2}, headers)
        except (MQMIError, PYIFError):
            pass
    assert time.monotonic() - started < 1.0


@keeps(
    "docs/edges.md",
    "refuses, with pymqi's PYIFError, a header whose StrucLength is under its 36 fixed bytes "
    "where another MQRFH2 follows",
)
def test_an_rfh2_whose_struclength_does_not_move_on_is_refused() -> None:
    # "MQRFH2": StrucLength counts the fixed part (36 bytes) and the folders. A header
    # that says 0 and chains to another MQRFH2 (Format MQHRF2) was read again and again,
    # for ever, each time appended to the caller's list.
    data = bytearray(_rfh2(CMQC.MQFMT_RF_HEADER_2))
    data[8:12] = struct.pack("=i", 0)
    with memory_bound(), pytest.raises(PYIFError, match="StrucLength"):
        rfh2_get_headers(bytes(data), {"Format": CMQC.MQFMT_RF_HEADER_2}, [])


@keeps("docs/edges.md", "checks each folder's NameValueLength against the bytes left")
def test_an_rfh2_folder_cut_short_is_pymqis_error_not_struct_error() -> None:
    data = bytearray(_rfh2())
    data[8:12] = struct.pack("=i", 36 + 2)  # StrucLength: two bytes of a folder's length
    with pytest.raises(PYIFError):
        RFH2().unpack(bytes(data[:38]))


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(sorted(VALID)))
    data = bytearray(VALID[kind])
    for _ in range(draw(st.integers(1, 3))):
        at = 4 * draw(st.integers(0, len(data) // 4 - 1))
        value = draw(st.one_of(st.sampled_from(EDGES), st.integers(-(2**31), 2**31 - 1)))
        data[at : at + 4] = struct.pack("=i", value)
    cut = draw(st.integers(-40, 8))
    if cut < 0:
        del data[cut:]
    else:
        data += bytes(cut)
    return kind, bytes(data)


@settings(max_examples=300, deadline=None)
@given(mutated())
@example(("rfh2", VALID["rfh2"][:8] + struct.pack("=i", 0) + VALID["rfh2"][12:]))
def test_every_mutation_of_a_valid_header_is_read_or_refused_in_bounded_time(
    case: tuple[str, bytes],
) -> None:
    read(*case)
