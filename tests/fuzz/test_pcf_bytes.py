"""PCF bytes as a hostile (or careless) tool sends them: whatever arrives, the command
processor answers with a PCF reply, in bounded time and memory ("PCF reason codes": a
request that is not well-formed is answered with MQCC_FAILED and its MQRCCF_* reason).

The inputs are valid requests mutated where a parser trusts them most: every MQLONG of
the message (counts, lengths, types, identifiers) replaced by an edge value (0, -1,
2**31-1, a length that runs past the end, ...), bytes cut off or added. Each example
runs with the process's address space bounded a few hundred MiB above what it uses
(``memory_bound``): a parser that builds what a count promises before it looks at the
bytes there fails with MemoryError instead of taking the machine down.
"""

from __future__ import annotations

import itertools
import struct
import time

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from qsg.core.memstore import MemoryStore
from qsg.core.qmgr import QMgr
from qsg.core.sharing import QueueSharingGroup
from qsg.mqsc import load
from qsg.mqsc.pcf import decode
from qsg.mqsc.pcf_commands import process
from qsg.mqsc.status import take
from tests.bounds import memory_bound
from tests.claims import keeps

# IBM's numbers (cmqcfc.h), written out: the test does not trust the code's constants.
MQCFT_COMMAND, MQCFT_INTEGER, MQCFT_STRING, MQCFT_INTEGER_LIST = 1, 3, 4, 5
MQCFT_STRING_LIST, MQCFT_BYTE_STRING, MQCFT_COMMAND_XR = 6, 9, 16
MQCMD_INQUIRE_Q, MQCMD_CREATE_Q, MQCMD_CHANGE_Q, MQCMD_INQUIRE_Q_NAMES = 13, 11, 8, 18
MQCA_Q_NAME, MQIA_Q_TYPE, MQIA_MAX_Q_DEPTH, MQIACF_Q_ATTRS = 2016, 20, 15, 1002
MQCACF_Q_NAMES, MQBACF_CONNECTION_ID = 3011, 7006
MQRCCF_CFSL_COUNT_ERROR = 3068
NATIVE = 0x222

GROUP = QueueSharingGroup("QSG1", store=MemoryStore())
QM = QMgr("QM1", qsg=GROUP)
load(QM, "DEFINE CFSTRUCT(APP1)\nDEFINE QLOCAL(APP.IN) QSGDISP(SHARED) CFSTRUCT(APP1)")
SNAPSHOT = take(QM, 0.0)

#: Seconds an example may take: a reply is a few structures, on a loaded machine.
SECONDS = 2.0


#: A structure's bytes and the offsets in them of the MQLONGs a parser must not trust:
#: its Type, StrucLength, and the counts and lengths of what follows.
Structure = tuple[bytes, tuple[int, ...]]


def cfh(command: int, count: int, kind: int = MQCFT_COMMAND) -> Structure:
    return struct.pack("<9i", kind, 36, 1, command, 1, 1, 0, 0, count), (0, 4, 32)


def cfin(parameter: int, value: int) -> Structure:
    return struct.pack("<4i", MQCFT_INTEGER, 16, parameter, value), (0, 4)


def cfst(parameter: int, text: bytes) -> Structure:
    padded = text + b" " * (-len(text) % 4)
    head = struct.pack("<5i", MQCFT_STRING, 20 + len(padded), parameter, 0, len(text))
    return head + padded, (0, 4, 16)


def cfil(parameter: int, values: list[int]) -> Structure:
    n = len(values)
    data = struct.pack(f"<4i{n}i", MQCFT_INTEGER_LIST, 16 + 4 * n, parameter, n, *values)
    return data, (0, 4, 12)


def cfsl(parameter: int, strings: list[bytes], size: int) -> Structure:
    data = b"".join(s.ljust(size) for s in strings)
    data += b" " * (-len(data) % 4)
    head = struct.pack("<6i", MQCFT_STRING_LIST, 24 + len(data), parameter, 0, len(strings), size)
    return head + data, (0, 4, 16, 20)


def cfbs(parameter: int, value: bytes) -> Structure:
    padded = value + b"\0" * (-len(value) % 4)
    head = struct.pack("<4i", MQCFT_BYTE_STRING, 16 + len(padded), parameter, len(value))
    return head + padded, (0, 4, 12)


def message(command: int, *parameters: Structure, kind: int = MQCFT_COMMAND) -> Structure:
    """A request: its bytes, and the offsets of every untrusted MQLONG in them."""
    data, trusted = cfh(command, len(parameters), kind)
    offsets = list(trusted)
    for body, fields in parameters:
        offsets += [len(data) + f for f in fields]
        data += body
    return data, tuple(offsets)


def request(command: int, *parameters: Structure, kind: int = MQCFT_COMMAND) -> bytes:
    return message(command, *parameters, kind=kind)[0]


#: Valid requests, each structure type among them.
VALID = [
    message(MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, b"APP.*"), cfil(MQIACF_Q_ATTRS, [3, 15, 20])),
    message(MQCMD_INQUIRE_Q_NAMES, cfst(MQCA_Q_NAME, b"*"), cfsl(MQCACF_Q_NAMES, [b"A"], 1)),
    message(
        MQCMD_CREATE_Q,
        cfst(MQCA_Q_NAME, b"APP.NEW"),
        cfin(MQIA_Q_TYPE, 1),
        cfin(MQIA_MAX_Q_DEPTH, 9),
        kind=MQCFT_COMMAND_XR,
    ),
    message(MQCMD_CHANGE_Q, cfst(MQCA_Q_NAME, b"APP.IN"), cfsl(MQCACF_Q_NAMES, [b"A", b"BB"], 4)),
    message(MQCMD_INQUIRE_Q, cfst(MQCA_Q_NAME, b"*"), cfbs(MQBACF_CONNECTION_ID, b"\1" * 24)),
]
#: What a count or a length is replaced with: nothing, too little, too much, the most.
EDGES = [0, 1, -1, 4, 2**31 - 1]
ANY_MQLONG = st.integers(-(2**31), 2**31 - 1)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A valid request whose counts and lengths are each kept or replaced by an edge
    value, with a few other MQLONGs replaced by anything, and its end cut or grown."""
    original, untrusted = draw(st.sampled_from(VALID))
    data = bytearray(original)
    for at in untrusted:
        value = draw(st.one_of(st.none(), st.sampled_from(EDGES)))
        if value is not None:
            data[at : at + 4] = struct.pack("<i", value)
    for _ in range(draw(st.integers(0, 2))):
        at = 4 * draw(st.integers(0, len(data) // 4 - 1))
        data[at : at + 4] = struct.pack("<i", draw(ANY_MQLONG))
    cut = draw(st.integers(-8, 8))
    if cut < 0:
        del data[cut:]
    else:
        data += bytes(cut)
    return bytes(data)


def answered(data: bytes) -> list[tuple[int, ...]]:
    """Each reply's MQCFH, in bounded time and memory; each reply parses as PCF."""
    started = time.monotonic()
    with memory_bound():
        replies = process(data, NATIVE, QM, SNAPSHOT)
    assert time.monotonic() - started < SECONDS
    headers = []
    for reply in replies:
        header = struct.unpack_from("<9i", reply)
        assert header[0] in (2, 18, 19) and header[1] == 36  # RESPONSE, XR_ITEM, XR_SUMMARY
        decoded = decode(struct.pack("<i", MQCFT_COMMAND) + reply[4:], NATIVE)
        assert len(decoded.parameters) == header[8]
        headers.append(header)
    assert headers[-1][5] == 1  # MQCFC_LAST ends every answer
    return headers


@keeps("docs/edges.md", "one reply, MQRCCF_CFSL_COUNT_ERROR; nothing built")
@keeps(
    "docs/security.md",
    (
        "Every count, length and offset in a PCF message is checked against the bytes actually "
        "there before anything is allocated, so one small message cannot freeze a queue manager"
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "an MQCFSL whose Count is more than its StrucLength has bytes for (60 bytes that claim "
        "2,147,483,647 strings of length 0) is MQRCCF_CFSL_COUNT_ERROR"
    ),
)
def test_a_string_list_of_two_billion_empty_strings_is_refused_before_any_is_built() -> None:
    # "MQCFSL - PCF string list parameter": Count is the number of strings in the
    # Strings field. Sixty bytes cannot hold 2,147,483,647 of anything: the count is
    # checked against the bytes there (MQRCCF_CFSL_COUNT_ERROR), nothing is built.
    cfsl_head = struct.pack("<6i", MQCFT_STRING_LIST, 24, MQCA_Q_NAME, 0, 2**31 - 1, 0)
    data = request(MQCMD_INQUIRE_Q, (cfsl_head, ()))
    assert len(data) == 60
    ((header),) = answered(data)
    assert (header[6], header[7]) == (2, MQRCCF_CFSL_COUNT_ERROR)


def test_every_pair_of_counts_and_lengths_at_their_edges_is_answered() -> None:
    # Systematic where random mutation is thin: in each valid request, every pair of
    # untrusted MQLONGs (a structure's Type, StrucLength, Count, StringLength, the
    # header's ParameterCount) set to every pair of edge values.
    cases = 0
    for original, untrusted in VALID:
        for first, second in itertools.combinations(untrusted, 2):
            for a, b in itertools.product(EDGES, repeat=2):
                data = bytearray(original)
                data[first : first + 4] = struct.pack("<i", a)
                data[second : second + 4] = struct.pack("<i", b)
                assert answered(bytes(data))
                cases += 1
    assert cases > 1000


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
@example(cfh(MQCMD_INQUIRE_Q, 2**31 - 1)[0] + cfst(MQCA_Q_NAME, b"*")[0])
@example(request(MQCMD_INQUIRE_Q, (struct.pack("<4i", MQCFT_INTEGER_LIST, 16, 1002, -1), ())))
@keeps(
    "docs/security.md",
    (
        "Every count, length and offset in a PCF message is checked against the bytes actually "
        "there before anything is allocated, so one small message cannot freeze a queue manager"
    ),
)
@keeps(
    "docs/mqsc.md",
    (
        "Every count and length of a request is checked against the bytes the message has before "
        "anything is built"
    ),
)
def test_every_mutation_of_a_valid_request_is_answered_in_bounded_time_and_memory(
    data: bytes,
) -> None:
    assert answered(data)
