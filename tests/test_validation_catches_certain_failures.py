"""``qsg validate`` catches what would certainly fail at run time, says what is near
when a name is misspelt, and tells each problem once.

IBM MQ, "Planning your coupling facility and offload storage environment": a message
on a shared queue takes an entry and elements of its CF list structure; a structure
with too few cannot hold it (MQRC_STORAGE_MEDIUM_FULL, 2192). "MaxMsgLength (MQLONG)":
a message over a queue's MAXMSGL is refused there (MQRC_MSG_TOO_BIG_FOR_Q, 2030), and a
channel's receiver puts such a message to the dead-letter queue.
"""

from __future__ import annotations

import pytest

from qsg.scenario import ScenarioError, parse_scenario

BASE = """\
[run]
duration = 20

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(APP.S) QSGDISP(SHARED) CFSTRUCT(APP1)"

[qsg.QSG1.structures.APP1]
size_kb = 64

[qmgr.QM3]
mqsc = "DEFINE QLOCAL(APP.IN) MAXMSGL(4096)"

[qmgr.QM4]
mqsc = "DEFINE QREMOTE(TO.QM3) RNAME(APP.IN) RQMNAME(QM3) XMITQ(QM3)"

[[channel]]
name = "QM4.TO.QM3"
from = "QM4"
to = "QM3"

[[workload]]
type = "putter"
qmgr = "QM1"
queue = "APP.S"
rate = 5
size = 2000

[[workload]]
type = "putter"
qmgr = "QM4"
queue = "TO.QM3"
rate = 5
size = 2000

[[workload]]
type = "getter"
qmgr = "QM2"
queue = "APP.S"
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "s.toml")
    return [str(p) for p in caught.value.problems]


def line_of(text: str, needle: str, after: int = 0) -> int:
    lines = text.splitlines()
    return next(n for n, line in enumerate(lines, 1) if n > after and needle in line)


def test_the_base_scenario_is_good() -> None:
    parse_scenario(BASE, "s.toml")


def test_a_cf_structure_smaller_than_one_message_is_refused() -> None:
    # SIZE 1 KB: 4 elements of 256 bytes; a 2,000-byte message and its 200 bytes of
    # control storage need 9 (qsg.core.geometry).
    text = BASE.replace("size_kb = 64", "size_kb = 1")
    line = line_of(text, "size = 2000")
    assert problems(text) == [
        f"s.toml:{line}: workload[0].size: a message of 2,000 bytes needs 9 elements of CF "
        "structure APP1 (with its 200 bytes of control storage) and SIZE 1 KB holds 4: every "
        "put to APP.S "
        "would fail with MQRC_STORAGE_MEDIUM_FULL (2192)"
    ]


def test_a_structure_that_holds_one_message_is_not_refused() -> None:
    parse_scenario(BASE.replace("size_kb = 64", "size_kb = 3"), "s.toml")  # 12 elements


def test_a_structure_that_holds_one_message_is_not_refused_to_several_putters() -> None:
    # The dry run tries each workload's put against the structure's limits, in process
    # (issue 42): one workload's trial message must not fill the structure for the next.
    # 12 elements hold one 2,000-byte message (9), not two; three putters share it.
    second = '[[workload]]\ntype = "putter"\nqmgr = "QM2"\nqueue = "APP.S"\nrate = 5\nsize = 2000\n'
    text = BASE.replace("size_kb = 64", "size_kb = 3") + "\n" + second + "\n" + second
    parse_scenario(text, "s.toml")


def test_a_message_over_63_kb_to_a_structure_below_cflevel_4_is_refused() -> None:
    # "DEFINE CFSTRUCT": CFLEVEL(4) for messages over 63 KB; the put would fail with
    # MQRC_WRONG_CF_LEVEL (2366), every time.
    text = BASE.replace("size_kb = 64", "size_kb = 64\ncflevel = 3").replace(
        "size = 2000", "size = 70000", 1
    )
    (problem,) = problems(text)
    assert "MQRC_WRONG_CF_LEVEL (2366)" in problem and "APP.S" in problem, problem


def test_a_message_over_the_remote_queues_maxmsgl_is_refused_at_the_putter() -> None:
    text = BASE.replace("MAXMSGL(4096)", "MAXMSGL(1000)")
    line = line_of(text, "size = 2000", after=line_of(text, 'queue = "TO.QM3"'))
    assert problems(text) == [
        f"s.toml:{line}: workload[1].size: every message would be dead-lettered at QM3: "
        "MQCC_FAILED: MQRC_MSG_TOO_BIG_FOR_Q (2030): 2000 bytes is over MAXMSGL 1000 of APP.IN"
    ]


def test_a_message_over_the_local_queues_maxmsgl_is_refused() -> None:
    text = BASE.replace(
        'queue = "APP.S"\nrate = 5\nsize = 2000', 'queue = "APP.S"\nrate = 5\nsize = 5000000'
    )
    (found,) = problems(text)
    assert "workload[0].queue: MQPUT to APP.S on QM1: MQCC_FAILED: MQRC_MSG_TOO_BIG_FOR_Q" in found


@pytest.mark.parametrize(
    ("written", "meant"),
    [("MAXDPTH(10)", "MAXDEPTH"), ("DESC('x')", "DESCR"), ("TRIGGR", "TRIGGER")],
)
def test_a_misspelt_mqsc_keyword_suggests_the_keyword_meant(written: str, meant: str) -> None:
    text = BASE.replace("MAXMSGL(4096)", f"MAXMSGL(4096) {written}")
    (found,) = problems(text)
    assert found.endswith(f"(did you mean {meant}?)"), found
    assert f"'{written.split('(')[0]}' is not a keyword of DEFINE QLOCAL" in found


def test_a_key_of_another_kind_of_workload_says_whose_it_is() -> None:
    text = BASE + 'rate = 5\nreply_model = "M"\n'  # on the getter
    getter = line_of(text, 'type = "getter"')
    assert problems(text) == [
        f"s.toml:{line_of(text, 'rate = 5', after=getter)}: workload[2].rate: 'rate' is a key of a "
        "putter and a requester; this workload is a getter",
        f"s.toml:{line_of(text, 'reply_model')}: workload[2].reply_model: 'reply_model' is a "
        "key of a requester; this workload is a getter",
    ]


def test_a_bad_qsg_name_is_one_problem_not_followed_by_its_members_unknown() -> None:
    text = BASE.replace("QSG1", "QSGNAME1")
    assert problems(text) == [
        "s.toml:4: qsg.QSGNAME1: a queue-sharing group name has 1 to 4 characters: 'QSGNAME1'"
    ]


def test_the_same_problem_is_told_once() -> None:
    # A channel fault and its undoing (duration) both name the channel.
    text = BASE + (
        '[[fault]]\nat = 5\naction = "stop_channel"\nchannel = "QM4.TO.QM9"\nduration = 5\n'
    )
    (found,) = problems(text)
    assert "no queue manager has a sender channel QM4.TO.QM9 (did you mean QM4.TO.QM3?)" in found
