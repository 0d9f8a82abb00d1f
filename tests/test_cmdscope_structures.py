"""CMDSCOPE on the CF structure commands, in MQSC and in PCF, as IBM's syntax has it.

IBM: "BACKUP CFSTRUCT" and "RECOVER CFSTRUCT" take CMDSCOPE(' ') or CMDSCOPE(qmgr-name)
("the command runs on the queue manager you specify, providing the queue manager is
active within the queue sharing group"), never CMDSCOPE(*): a structure is the group's,
backed up or recovered once. "RESET CFSTRUCT", "DISPLAY CFSTRUCT", "DISPLAY CFSTATUS",
"DEFINE/ALTER/DELETE CFSTRUCT" have no CMDSCOPE at all. In PCF, "Backup CF Structure"
and "Recover CF Structure" take a CommandScope of "blank ... or a queue manager name";
"Reset CF Structure", "Inquire CF Structure" and "Inquire CF Structure Status" none.
"""

from __future__ import annotations

import pytest

import qsg
from actors import admin
from actors.clock import VirtualClock
from qsg import CMQC
from qsg import CMQCFC as F
from tests.claims import keeps
from tests.test_cmdscope import three_members
from tests.test_pcf_extended_responses import (
    MQCACF_COMMAND_SCOPE,
    MQCACF_RESPONSE_Q_MGR_NAME,
    MQCFC_LAST,
    MQCFT_XR_SUMMARY,
    MQIACF_PARAMETER_ID,
    ask,
    cfin,
    cfst,
    one,
    request,
)

MQCA_CF_STRUC_NAME, MQIACF_ACTION, MQACT_FAIL = 2039, 1086, 9  # IBM's numbers, written out
FAIL = ((MQIACF_ACTION, MQACT_FAIL),)  # Reset CF Structure's Action


@keeps(
    "docs/mqsc.md",
    "BACKUP CFSTRUCT and RECOVER CFSTRUCT take `CMDSCOPE(' ')` or `CMDSCOPE(qmgr)`",
)
async def test_backup_cfstruct_with_cmdscope_of_a_member_runs_there_in_its_own_block(
    virtual_clock: VirtualClock,
) -> None:
    """ "BACKUP CFSTRUCT", CMDSCOPE(qmgr-name): the command runs on that member, answered
    as every command sent with CMDSCOPE is (CSQN137I, the member's block after CSQN121I,
    CSQN122I); a member that is not active is CSQN135E, nothing done."""
    async with qsg.start(three_members(), in_process=True) as world:
        await admin.command(world, "QM1", "ALTER CFSTRUCT(APP1) RECOVER(YES)")
        reply = await admin.command(world, "QM1", "BACKUP CFSTRUCT(APP1) CMDSCOPE(QM2)")
        assert not reply.failed
        assert reply.lines[0] == (
            "CSQN137I !QM1 'BACKUP CFSTRUCT' COMMAND ACCEPTED FOR CMDSCOPE(QM2), SENT TO 1"
        )
        assert reply.lines[1] == "CSQN121I !QM1 'BACKUP CFSTRUCT' COMMAND RESPONSES FROM QM2"
        assert reply.lines[2].startswith("!QM2 CFSTRUCT(APP1) BACKUP: ")
        assert reply.lines[-2:] == (
            "CSQ9022I !QM2 CSQMBCFS ' BACKUP CFSTRUCT' NORMAL COMPLETION",
            "CSQN122I !QM1 'BACKUP CFSTRUCT' COMMAND FOR CMDSCOPE(QM2) NORMAL COMPLETION",
        )
        assert len(reply.sets()) == 3  # CSQN137I's, QM2's, CSQN122I's
        await world.kill("QM3")
        gone = await admin.command(world, "QM1", "RECOVER CFSTRUCT(APP1) CMDSCOPE(QM3)")
        assert gone.failed and gone.lines[0] == (
            "CSQN135E !QM1 QUEUE MANAGER QM3 NOT ACTIVE IN QUEUE SHARING GROUP"
        )


@pytest.mark.parametrize(
    ("command", "line"),
    [
        ("BACKUP CFSTRUCT(APP1) CMDSCOPE(*)", "CSQ9001E !QM1 'CMDSCOPE(*)' IS INVALID"),
        ("RECOVER CFSTRUCT(APP1) CMDSCOPE(*)", "CSQ9001E !QM1 'CMDSCOPE(*)' IS INVALID"),
        ("RESET CFSTRUCT(APP1) ACTION(FAIL) CMDSCOPE(' ')", "CSQ9001E !QM1 'CMDSCOPE' IS INVALID"),
        ("DISPLAY CFSTRUCT(*) CMDSCOPE(*)", "CSQ9001E !QM1 'CMDSCOPE' IS INVALID"),
        ("DISPLAY CFSTATUS(*) CMDSCOPE(QM2)", "CSQ9001E !QM1 'CMDSCOPE' IS INVALID"),
        ("ALTER CFSTRUCT(APP1) CFLEVEL(4) CMDSCOPE(*)", "CSQ9001E !QM1 'CMDSCOPE' IS INVALID"),
        ("DELETE CFSTRUCT(APP1) CMDSCOPE(' ')", "CSQ9001E !QM1 'CMDSCOPE' IS INVALID"),
    ],
)
@keeps(
    "docs/mqsc.md",
    "RESET CFSTRUCT, DISPLAY CFSTRUCT, DISPLAY CFSTATUS and DEFINE, ALTER and DELETE "
    "CFSTRUCT take none",
)
async def test_a_cmdscope_a_cf_structure_command_does_not_take_is_csq9001e_and_runs_nowhere(
    virtual_clock: VirtualClock, command: str, line: str
) -> None:
    """IBM's syntax diagrams: CMDSCOPE(*) is not a value of BACKUP or RECOVER CFSTRUCT,
    and RESET, DISPLAY CFSTRUCT, DISPLAY CFSTATUS, ALTER and DELETE CFSTRUCT have no
    CMDSCOPE: the syntax check refuses it, and nothing is sent to any member."""
    async with qsg.start(three_members(), in_process=True) as world:
        reply = await admin.command(world, "QM1", command)
        assert reply.failed and reply.lines[0] == line and len(reply.lines) == 2
        group = world.qmgrs["QM1"].rules.qsg
        assert group is not None
        assert group.shared.structures["APP1"].cf_level == 5
        assert group.shared.store.structure_status("APP1").status == "ACTIVE"


@pytest.mark.parametrize(
    ("command", "parameters", "scope", "reason"),
    [
        (F.MQCMD_BACKUP_CF_STRUC, (), "*", F.MQRCCF_PARM_VALUE_ERROR),
        (F.MQCMD_RECOVER_CF_STRUC, (), "*", F.MQRCCF_PARM_VALUE_ERROR),
        (F.MQCMD_RESET_CF_STRUC, FAIL, "*", F.MQRCCF_CFST_PARM_ID_ERROR),
        (
            F.MQCMD_RESET_CF_STRUC,
            ((MQIACF_ACTION, MQACT_FAIL),),
            "QM2",
            F.MQRCCF_CFST_PARM_ID_ERROR,
        ),
        (
            F.MQCMD_RESET_CF_STRUC,
            ((MQIACF_ACTION, MQACT_FAIL),),
            "QM1",
            F.MQRCCF_CFST_PARM_ID_ERROR,
        ),
        (F.MQCMD_INQUIRE_CF_STRUC, (), "*", F.MQRCCF_CFST_PARM_ID_ERROR),
        (F.MQCMD_INQUIRE_CF_STRUC_STATUS, (), "QM2", F.MQRCCF_CFST_PARM_ID_ERROR),
    ],
)
@keeps(
    "docs/mqsc.md",
    "PCF Backup and Recover CF Structure take a CommandScope of a queue manager's name",
)
async def test_pcf_command_scope_of_cf_structure_commands_is_refused_where_ibm_has_none(
    virtual_clock: VirtualClock,
    command: int,
    parameters: tuple[tuple[int, int], ...],
    scope: str,
    reason: int,
) -> None:
    """One failed summary naming MQCACF_COMMAND_SCOPE: MQRCCF_PARM_VALUE_ERROR for `*`
    on Backup or Recover ("not one of a list of acceptable values"), a parameter-id
    error on the commands whose PCF definition has no CommandScope; nothing runs."""
    async with qsg.start(three_members(), in_process=True) as world:
        data = request(
            command,
            cfst(MQCA_CF_STRUC_NAME, "APP1"),
            *(cfin(p, v) for p, v in parameters),
            cfst(MQCACF_COMMAND_SCOPE, scope),
        )
        replies = await ask(world, "QM1", data)
        group = world.qmgrs["QM1"].rules.qsg
        assert group is not None
        assert group.shared.store.structure_status("APP1").status == "ACTIVE"
    header, params = replies[-1]
    assert (header[0], header[5], header[6], header[7]) == (
        MQCFT_XR_SUMMARY,
        MQCFC_LAST,
        CMQC.MQCC_FAILED,
        reason,
    )
    assert one(params, MQIACF_PARAMETER_ID) == MQCACF_COMMAND_SCOPE


async def test_pcf_backup_cf_structure_with_the_command_scope_of_a_member_runs_there(
    virtual_clock: VirtualClock,
) -> None:
    """ "Backup CF Structure", CommandScope a queue manager name: the receiving member's
    set, QM2's own set (its summary MQCC_OK), then the overall summary."""
    async with qsg.start(three_members(), in_process=True) as world:
        await admin.command(world, "QM1", "ALTER CFSTRUCT(APP1) RECOVER(YES)")
        data = request(
            F.MQCMD_BACKUP_CF_STRUC,
            cfst(MQCA_CF_STRUC_NAME, "APP1"),
            cfst(MQCACF_COMMAND_SCOPE, "QM2"),
        )
        replies = await ask(world, "QM1", data)
    summaries = [(one(p, MQCACF_RESPONSE_Q_MGR_NAME), h[6], h[7]) for h, p in replies if h[0] == 19]
    assert summaries == [("QM2", CMQC.MQCC_OK, 0), ("QM1", CMQC.MQCC_OK, 0)]
