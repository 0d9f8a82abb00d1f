"""Rules-level tests of small qsg/core modules (connection tags, expiry, units of work,
the order of keys, reports, the group's stores, triggering, channel events): synchronous
and fast, so that `./dev mutate` (tests in `[tool.mutmut]`'s selection) can tell every
mutant of these modules apart (issue 45). Each names the MQ rule or the doc sentence it
pins.
"""

from __future__ import annotations

import pytest

from qsg import CMQC, MQMIError
from qsg.core import conntag
from qsg.core.conntag import ConnectOptions, TagUse, TagUses


# ---- conntag: MQ's own agents' tags, and a shared channel's operations in recovery -------
def test_an_agent_connects_restricted_group_wide_with_an_mq_tag_from_its_address_space() -> None:
    # "Channels and serialization", "The intra-group queuing agent and Serialization":
    # the agents "serialize access to shared queues by issuing the MQCONNX API call".
    assert conntag.agent_options("CHL", "TO.QM2", "QM1", CMQC.MQPL_ZOS) == ConnectOptions(
        options=CMQC.MQCNO_RESTRICT_CONN_TAG_QSG,
        tag=b"MQCHL.TO.QM2",
        space="QM1CHIN",
        product=True,
    )
    assert conntag.agent_options("IGQ", "QM1", "QM1", CMQC.MQPL_ZOS) == ConnectOptions(
        options=CMQC.MQCNO_RESTRICT_CONN_TAG_QSG, tag=b"MQIGQ.QM1", space="QM1MSTR", product=True
    )


def test_an_agent_off_z_os_does_not_serialize() -> None:
    # "ConnTag (MQBYTE128) on IBM MQ for z/OS": connection tags are z/OS's only.
    assert conntag.agent_options("CHL", "TO.QM2", "QM1", CMQC.MQPL_UNIX) is None


def test_an_agent_kept_out_says_whether_recovery_is_in_progress_or_the_tag_is_unusable() -> None:
    # "Channels and serialization": "an error message indicating that recovery is in progress".
    in_use = MQMIError.failed(CMQC.MQRC_CONN_TAG_IN_USE)
    not_usable = MQMIError.failed(CMQC.MQRC_CONN_TAG_NOT_USABLE)
    assert conntag.not_yet(in_use) == "shared queue peer recovery is in progress"
    assert conntag.not_yet(not_usable) == "its connection tag is not usable now"


class _Registry:
    def __init__(self, uses: tuple[TagUse, ...] = (), error: int | None = None) -> None:
        self.uses = uses
        self.error = error
        self.asked: list[bytes] = []

    def conn_tags(self, tag: bytes) -> TagUses:
        self.asked.append(tag)
        if self.error is not None:
            raise MQMIError.failed(self.error, "the registry")
        return TagUses(1, self.uses)

    def claim_conn_tag(self, use: TagUse, version: int) -> bool:  # pragma: no cover
        raise AssertionError("recovering claims nothing")


def _use(q_mgr: str, life: int) -> TagUse:
    return TagUse(b"MQCHL.C", q_mgr, life, 1, CMQC.MQCNO_RESTRICT_CONN_TAG_QSG, q_mgr + "CHIN")


def test_a_shared_channel_operation_waits_while_a_failed_life_still_uses_its_tag() -> None:
    # "Channels and serialization": "An attempt to RESOLVE, PING, or DELETE a channel can
    # fail for the same reason" as a start while peer recovery is in progress.
    registry = _Registry((_use("QM1", 2), _use("QM2", 1)))
    refused = conntag.recovering(registry, b"MQCHL.C\0\0", {("QM1", 2)})
    assert registry.asked == [b"MQCHL.C"]
    assert refused is not None
    assert (refused.comp, refused.reason, refused.detail) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_CONN_TAG_IN_USE,
        "shared queue peer recovery of QM2 is in progress",
    )


def test_a_shared_channel_operation_finds_the_tag_not_usable_while_recovery_waits_for_the_cf() -> (
    None
):
    # "MQCONNX": MQRC_CONN_TAG_NOT_USABLE (2350) while recovery waits for the facility.
    registry = _Registry((_use("QM1", 2), _use("QM2", 1)))
    refused = conntag.recovering(registry, b"MQCHL.C", {("QM1", 2)}, {("QM2", 1)})
    assert refused is not None
    assert (refused.comp, refused.reason, refused.detail) == (
        CMQC.MQCC_FAILED,
        CMQC.MQRC_CONN_TAG_NOT_USABLE,
        "shared queue peer recovery of QM2 waits for the coupling facility",
    )


def test_a_shared_channel_operation_goes_on_when_only_running_lives_use_its_tag() -> None:
    registry = _Registry((_use("QM1", 2), _use("QM2", 3)))
    assert conntag.recovering(registry, b"MQCHL.C", {("QM1", 2), ("QM2", 3)}) is None
    assert conntag.recovering(_Registry(), b"MQCHL.C", set()) is None


def test_a_registry_out_of_reach_refuses_no_shared_channel_operation_other_errors_pass() -> None:
    for reason in (
        CMQC.MQRC_CF_STRUC_FAILED,
        CMQC.MQRC_CF_NOT_AVAILABLE,
        CMQC.MQRC_CF_STRUC_IN_USE,
    ):
        assert conntag.recovering(_Registry(error=reason), b"MQCHL.C", set()) is None
    with pytest.raises(MQMIError) as caught:
        conntag.recovering(_Registry(error=CMQC.MQRC_STORAGE_NOT_AVAILABLE), b"MQCHL.C", set())
    assert caught.value.reason == CMQC.MQRC_STORAGE_NOT_AVAILABLE
