"""PCF replies as the facade reads them (``qsg.pymqi.PCFExecute.unpack``, and every
reply ``PCFExecute`` gets): a reply queue can hold whatever any program put there, so
each reply is read or refused with pymqi's PYIFError (MQMIError for a failed reply), in
bounded time and memory, its counts and lengths checked against the bytes there.
"""

from __future__ import annotations

import contextlib
import itertools
import struct
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from qsg.pymqi import PCFExecute
from qsg.pymqi.errors import MQMIError, PYIFError
from tests.bounds import memory_bound
from tests.claims import keeps

MQCFT_RESPONSE, MQCFT_INTEGER, MQCFT_STRING, MQCFT_INTEGER_LIST = 2, 3, 4, 5
MQCFT_STRING_LIST, MQCFT_BYTE_STRING, MQCFT_GROUP, MQCFT_INTEGER64_LIST = 6, 9, 20, 25

#: A structure's bytes and the offsets of its Type, StrucLength, counts and lengths.
Structure = tuple[bytes, tuple[int, ...]]


def reply(*parameters: Structure) -> Structure:
    data = struct.pack("=9i", MQCFT_RESPONSE, 36, 1, 18, 1, 1, 0, 0, len(parameters))
    offsets = [0, 4, 32]
    for body, fields in parameters:
        offsets += [len(data) + f for f in fields]
        data += body
    return data, tuple(offsets)


def cfin(parameter: int, value: int) -> Structure:
    return struct.pack("=4i", MQCFT_INTEGER, 16, parameter, value), (0, 4)


def cfst(parameter: int, text: bytes) -> Structure:
    padded = text + b" " * (-len(text) % 4)
    head = struct.pack("=5i", MQCFT_STRING, 20 + len(padded), parameter, 0, len(text))
    return head + padded, (0, 4, 16)


def cfil(kind: int, parameter: int, values: list[int]) -> Structure:
    width = "q" if kind == MQCFT_INTEGER64_LIST else "i"
    n = len(values)
    size = 16 + struct.calcsize(f"={n}{width}")
    return struct.pack(f"=4i{n}{width}", kind, size, parameter, n, *values), (0, 4, 12)


def cfsl(parameter: int, strings: list[bytes], size: int) -> Structure:
    data = b"".join(s.ljust(size) for s in strings)
    data += b" " * (-len(data) % 4)
    head = struct.pack("=6i", MQCFT_STRING_LIST, 24 + len(data), parameter, 0, len(strings), size)
    return head + data, (0, 4, 16, 20)


def cfbs(parameter: int, value: bytes) -> Structure:
    padded = value + b"\0" * (-len(value) % 4)
    head = struct.pack("=4i", MQCFT_BYTE_STRING, 16 + len(padded), parameter, len(value))
    return head + padded, (0, 4, 12)


def cfgr(parameter: int, count: int) -> Structure:
    return struct.pack("=4i", MQCFT_GROUP, 16, parameter, count), (0, 4, 12)


VALID = [
    reply(cfst(3011, b"A"), cfsl(3011, [b"APP.IN", b"APP.OUT"], 8), cfil(5, 1002, [1, 2, 3])),
    reply(cfgr(8001, 2), cfin(3, 1), cfbs(7006, b"\1" * 24), cfin(20, 1)),
    reply(cfil(MQCFT_INTEGER64_LIST, 1002, [2**40, -1]), cfst(2016, b"Q")),
]
EDGES = [0, 1, -1, 4, 2**31 - 1]


def answered(data: bytes) -> None:
    started = time.monotonic()
    # NotImplementedError is pymqi's own answer to a structure type it does not read.
    with memory_bound(), contextlib.suppress(PYIFError, MQMIError, NotImplementedError):
        PCFExecute.unpack(data)
    assert time.monotonic() - started < 2.0


@keeps("docs/edges.md", "PYIFError; a structure cut short is PYIFError too, never `struct.error`")
def test_a_string_list_of_two_billion_empty_strings_is_refused_before_any_is_built() -> None:
    answered(reply((struct.pack("=6i", MQCFT_STRING_LIST, 24, 3011, 0, 2**31 - 1, 0), ()))[0])


def test_every_pair_of_counts_and_lengths_at_their_edges_is_read_or_refused() -> None:
    for original, untrusted in VALID:
        for first, second in itertools.combinations(untrusted, 2):
            for a, b in itertools.product(EDGES, repeat=2):
                data = bytearray(original)
                data[first : first + 4] = struct.pack("=i", a)
                data[second : second + 4] = struct.pack("=i", b)
                answered(bytes(data))


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    original, untrusted = draw(st.sampled_from(VALID))
    data = bytearray(original)
    for at in untrusted:
        value = draw(st.one_of(st.none(), st.sampled_from(EDGES)))
        if value is not None:
            data[at : at + 4] = struct.pack("=i", value)
    cut = draw(st.integers(-8, 8))
    if cut < 0:
        del data[cut:]
    else:
        data += bytes(cut)
    return bytes(data)


@settings(max_examples=300, deadline=None)
@given(mutated())
def test_every_mutation_of_a_reply_is_read_or_refused_in_bounded_time_and_memory(
    data: bytes,
) -> None:
    answered(data)
