"""The PCF codec and command processor in the rules layer: whatever bytes arrive, a
queue manager answers with a well-formed PCF response, never an exception ("PCF reason
codes": a bad request is answered with MQCC_FAILED and its MQRCCF reason).
"""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from qsg import CMQC
from qsg.core.memstore import MemoryStore
from qsg.core.qmgr import QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from qsg.mqsc.pcf import Header, decode, encode
from qsg.mqsc.pcf_commands import process
from qsg.mqsc.status import take
from tests.claims import keeps

GROUP = QueueSharingGroup("QSG1", store=MemoryStore())
QM = QMgr("QM1", qsg=GROUP)
load(QM, "DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL(APP.IN) QSGDISP(SHARED) CFSTRUCT(APP1)")
SNAPSHOT = take(QM, 0.0)
COMMANDS = [2, 8, 9, 10, 11, 12, 13, 18, 25, 40, 41, 42, 115, 116, 9999]


def responses(replies: list[bytes]) -> list[tuple[int, ...]]:
    """Each reply's MQCFH, checked to be a response whose parameters fill the message."""
    out = []
    for reply in replies:
        header = struct.unpack_from("<9i", reply)
        assert header[0] in (2, 18, 19) and header[1] == 36  # RESPONSE, XR_ITEM, XR_SUMMARY
        decoded = decode(struct.pack("<i", 1) + reply[4:], 0x222)  # as a command, to parse it
        assert len(decoded.parameters) == header[8]
        out.append(header)
    assert out[-1][5] == 1  # MQCFC_LAST ends every reply
    return out


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
@keeps(
    "docs/mqsc.md",
    (
        "A request that is not well-formed is answered with one response of MQCC_FAILED and the "
        "reason a queue manager gives, never a failure of the queue manager"
    ),
)
def test_any_bytes_get_a_pcf_response_never_an_exception(data: bytes) -> None:
    replies = process(data, 0x222, QM, SNAPSHOT)
    assert responses(replies)


def _structure(kind: int, length: int, fields: list[int], tail: bytes) -> bytes:
    return struct.pack(f"<2i{len(fields)}i", kind, length, *fields) + tail


_PARAMETERS = st.builds(
    _structure,
    st.sampled_from([3, 4, 5, 6, 9, 13, 0]),
    st.integers(-4, 64),
    st.lists(st.integers(-3, 3020), max_size=5),
    st.binary(max_size=24),
)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(COMMANDS), st.integers(-1, 6), st.lists(_PARAMETERS, max_size=5))
def test_a_good_header_with_any_parameter_structures_gets_a_response(
    command: int, count: int, parameters: list[bytes]
) -> None:
    # Each structure's Type and StrucLength as a careless (or hostile) tool might
    # write them: lengths that overrun, counts that lie, unknown types.
    data = struct.pack("<9i", 1, 36, 1, command, 1, 1, 0, 0, count) + b"".join(parameters)
    assert responses(process(data, 0x222, QM, SNAPSHOT))


@settings(max_examples=150, deadline=None)
@given(
    command=st.sampled_from(COMMANDS),
    parameters=st.lists(
        st.tuples(
            st.integers(1, 8000),
            st.one_of(
                st.integers(-5, 2000),
                st.text("APQ.*M1", max_size=20),
                st.lists(st.integers(0, 3000), max_size=4),
            ),
        ),
        max_size=5,
        unique_by=lambda p: p[0],
    ),
)
def test_any_well_formed_command_is_answered_whatever_its_parameters(
    command: int, parameters: list[tuple[int, int | str | list[int]]]
) -> None:
    request = encode(Header(1, command), list(parameters), 0x222)
    replies = process(request, 0x222, QM, SNAPSHOT)
    headers = responses(replies)
    assert all(h[3] == command for h in headers)


@keeps("docs/mqsc.md", "parameters in the byte order of the request's Encoding) is answered in PCF")
def test_a_reply_is_in_the_byte_order_of_the_request() -> None:
    # MQENC_INTEGER_NORMAL (1): big-endian, as a request from z/OS itself would be.
    request = struct.pack(">9i", 1, 36, 1, 40, 1, 1, 0, 0, 0)  # PING_Q_MGR
    (reply,) = process(request, CMQC.MQENC_INTEGER_NORMAL, QM, SNAPSHOT)
    assert struct.unpack(">9i", reply) == (2, 36, 1, 40, 1, 1, 0, 0, 0)
