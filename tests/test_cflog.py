"""The members' logs of a CF structure, as rules (``qsg.core.cflog``): no store, no I/O.

IBM MQ for z/OS, "Recovering shared queues": each member logs its persistent MQPUT and
MQGET on shared queues, and RECOVER CFSTRUCT replays every member's log since the last
BACKUP CFSTRUCT. qsg keeps that log netted; both stores follow these rules (the server's
scripts record for record: tests/test_structure_failure.py plays them side by side).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from qsg.core import cfstate
from qsg.core.cflog import StructureLog, member_of


def test_a_get_of_a_logged_put_nets_both_records_away_but_counts_them() -> None:
    log: StructureLog[str, str] = StructureLog()
    log.put("QM1", "m1", "body")
    log.got("QM2", "m1", backed_up=False)
    assert (log.puts, log.gets, log.records, log.members) == ({}, {}, 2, ("QM1", "QM2"))


def test_a_get_of_a_backed_up_message_is_recorded_in_the_getters_log() -> None:
    log: StructureLog[str, str] = StructureLog()
    log.got("QM2", "old", backed_up=True)
    log.got("QM2", "never logged", backed_up=False)  # nothing to answer: no record
    assert (log.gets, log.records, log.members) == ({"old": "QM2"}, 1, ("QM2",))


def test_backup_truncates_to_the_puts_younger_than_exclint() -> None:
    log: StructureLog[str, str] = StructureLog()
    log.put("QM1", "old", "o")
    log.put("QM2", "young", "y")
    log.got("QM1", "older", backed_up=True)
    log.truncate({"old"})  # the backup took "old"; "young" is within EXCLINT
    assert (log.kept_puts(), log.gets, log.records, log.members) == (
        {"young": "y"},
        {},
        1,
        ("QM2",),
    )


def test_backup_counts_each_members_records_it_leaves_one_by_one() -> None:
    # LOGRECS after a BACKUP counts every put record left younger than EXCLINT, two
    # of one member as two.
    log: StructureLog[str, str] = StructureLog()
    for place in ("a", "b", "c"):
        log.put("QM1", place, place)
    log.put("QM2", "d", "d")
    log.truncate({"a"})
    assert (log.written, log.records) == ({"QM1": 2, "QM2": 1}, 3)


def test_an_expired_message_leaves_the_log_without_a_record() -> None:
    log: StructureLog[str, str] = StructureLog()
    log.put("QM1", "m", "body")
    log.expired("m")
    assert (log.puts, log.records) == ({}, 1)


def test_a_unit_of_works_member_is_its_queue_manager() -> None:
    assert [member_of(("QM1", 7)), member_of("QM2/3"), member_of("u1")] == ["QM1", "QM2", "u1"]


@given(
    st.lists(
        st.tuples(st.sampled_from(["put", "get", "backup"]), st.sampled_from(["QM1", "QM2"])),
        max_size=60,
    )
)
def test_the_netted_log_replays_to_the_messages_present_and_holds_no_more(
    calls: list[tuple[str, str]],
) -> None:
    """Any history of puts, gets (oldest first) and backups: the backup plus the log
    replays to exactly the messages present, and the log holds no more records than the
    structure and its backup hold messages."""
    log: StructureLog[int, int] = StructureLog()
    present: list[int] = []
    backup: dict[int, int] = {}
    made = 0
    for call, member in calls:
        if call == "put":
            made += 1
            present.append(made)
            log.put(member, made, made)
        elif call == "get" and present:
            got = present.pop(0)
            log.got(member, got, got in backup)
        elif call == "backup":
            backup = {m: m for m in present}
            log.truncate(backup.keys())
    assert cfstate.replay(backup, log.kept_puts(), set(log.gets)) == {m: m for m in present}
    assert len(log.puts) + len(log.gets) <= len(present) + len(backup)
