"""The chaos fault ``rogue_partner`` (issue 43): a peer that starts a channel at its
receiving end as the channel's sender, and replays or skips message sequence numbers.

MQ refuses a second instance of a running channel (AMQ9514E "Channel is in use") and
ends a channel whose batch is not the next in sequence (AMQ9526E "Message sequence
number error for channel"): the rogue's batch is never put, and the real sender's
messages are neither lost nor duplicated. A campaign with the fault among the others
loses nothing, by every checker.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import trio

import qsg
from actors.clock import VirtualClock
from actors.events import FaultInjected
from qsg import CMQC, GMO, MD, PMO, MQMIError
from qsg.chaos.campaign import Plan, run_one, run_seeds
from qsg.chaos.nemesis import LATER, LATER_ACTIONS, ROGUE_OFFSETS, Targets, draw, targets
from qsg.scenario import ScenarioError, load_scenario, parse_scenario
from tests.claims import keeps
from tests.worlds import qsg_and_qm3

SCENARIO = Path(__file__).parent.parent / "scenarios" / "chaos-qsg.toml"
NO_SYNC = PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


async def _bodies(world: qsg.World, count: int) -> list[bytes]:
    q = await (await world.connect("QM3")).open("APP.IN", CMQC.MQOO_INPUT_SHARED)
    got = []
    for _ in range(count):
        gmo = GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=30_000)
        try:
            got.append(await q.get(None, MD(), gmo))
        except MQMIError as error:
            if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                raise
            break
    return got


async def _put(world: qsg.World, bodies: list[bytes]) -> None:
    remote = await (await world.connect("QM1")).open("TO.QM3", CMQC.MQOO_OUTPUT)
    for body in bodies:
        await remote.put(body, MD(Persistence=CMQC.MQPER_PERSISTENT), NO_SYNC)


@keeps(
    "docs/chaos.md",
    'MQ refuses a second instance of a running channel with AMQ9514E, "Channel is in use"',
)
@keeps(
    "docs/security.md",
    (
        "one instance of a channel at a time: a hello for a channel already running is refused "
        '(AMQ9514E, "Channel is in use"), whoever sends it'
    ),
)
async def test_a_rogue_partner_of_a_running_channel_is_refused_as_a_second_instance_amq9514e(
    virtual_clock: VirtualClock,
) -> None:
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        await _put(world, [b"one"])
        assert await _bodies(world, 1) == [b"one"]
        detail = await world.rogue_partner("QM1", "QM1.TO.QM3", 0)
        assert detail.startswith("start refused: AMQ9514E"), detail
        await _put(world, [b"two"])
        assert await _bodies(world, 1) == [b"two"]


@pytest.mark.parametrize("offset", [0, -1, 2, 10**8])
@keeps(
    "docs/chaos.md",
    'and ends the channel at a batch out of sequence with AMQ9526E, "Message sequence number '
    'error for channel"',
)
async def test_a_rogue_partner_of_a_stopped_channel_is_ended_with_amq9526e_and_nothing_is_lost(
    virtual_clock: VirtualClock, offset: int
) -> None:
    # AMQ9526E: "A message with sequence number X has been sent when sequence number Y
    # was expected." The rogue's start agrees (it says the sender's own number); its
    # batch, a replay or a skip, is refused, and the real sender carries on from there.
    async with qsg.start(qsg_and_qm3(), in_process=True) as world:
        await _put(world, [b"real-0", b"real-1"])
        assert await _bodies(world, 2) == [b"real-0", b"real-1"]
        await world.stop_channel("QM1", "QM1.TO.QM3")
        await trio.sleep(1)
        await _put(world, [b"held-0", b"held-1"])
        detail = await world.rogue_partner("QM1", "QM1.TO.QM3", offset)
        assert "refused: AMQ9526E" in detail and "ACCEPTED" not in detail, detail
        await world.start_channel("QM1", "QM1.TO.QM3")
        assert await _bodies(world, 3) == [b"held-0", b"held-1"]
        assert world.qmgrs["QM3"].rules.depth("SYSTEM.DEAD.LETTER.QUEUE") == 0


def test_the_nemesis_never_numbers_a_rogue_batch_as_the_next() -> None:
    # 1 from the sender's last is the next number: a batch MQ takes from whoever sends
    # it. The fault replays (0 and back) or skips (2 and on), and a scenario that asks
    # for 1 is refused with its file and key.
    scenario = load_scenario(SCENARIO)
    t = targets(scenario)
    assert 1 not in ROGUE_OFFSETS
    rogues = [
        f for s in run_seeds(43, 40) for f in draw(t, s, 49.0)[1] if f.action == "rogue_partner"
    ]
    assert rogues and {f.amount for f in rogues} <= set(ROGUE_OFFSETS)
    assert all((f.qmgr, f.channel) in t.senders for f in rogues)
    text = SCENARIO.read_text() + '\n[[fault]]\nat = 5\naction = "rogue_partner"\n'
    text += 'channel = "QM1.TO.QM4"\namount = 1\n'
    with pytest.raises(ScenarioError, match=r"x\.toml.*amount.*rogue_partner amount 1"):
        parse_scenario(text, "x.toml")
    parse_scenario(text.replace("amount = 1", "amount = 2"), "x.toml")


def test_adding_rogue_partner_leaves_each_earlier_later_kind_as_it_was() -> None:
    # A seed that drew stall_scan before rogue_partner (and structure_fail, added after
    # it) existed draws it the same now.
    t = targets(load_scenario(SCENARIO))
    # Every kind added after stall_scan (rogue_partner, structure_fail, cf_conlos, ...),
    # and the fault actions they schedule.
    added = tuple(k for k in LATER if k != "stall_scan")
    actions = LATER_ACTIONS - {"stall_scan"}

    class StallOnly(Targets):
        def later_kinds(self) -> list[str]:
            return ["stall_scan"]

    only = StallOnly(**{f.name: getattr(t, f.name) for f in dataclasses.fields(t)})
    for seed in run_seeds(5, 30):
        kinds, faults = draw(t, seed, 49.0)
        kept = tuple(f for f in faults if f.action not in actions)
        assert draw(only, seed, 49.0) == ([k for k in kinds if k not in added], kept)


@pytest.mark.parametrize(
    "runs", [pytest.param(3, id="small"), pytest.param(10, marks=pytest.mark.slow, id="full")]
)
@keeps(
    "docs/chaos.md",
    "so nothing of the rogue's is put and nothing of the sender's is lost: the checkers say so "
    "for every run",
)
@keeps(
    "docs/security.md",
    "replays and skips numbers and the campaign's checkers find nothing lost",
)
def test_a_campaign_with_rogue_partners_loses_nothing(runs: int) -> None:
    # Runs of the chaos campaign whose seed draws rogue_partner (among whatever else it
    # draws): every checker ok, and no rogue's batch taken.
    scenario = load_scenario(SCENARIO)
    plan = Plan.of(scenario)
    seeds = [
        s
        for s in run_seeds(4343, 10 * runs)
        if "rogue_partner" in draw(plan.targets, s, plan.window)[0]
    ]
    answers = []
    for seed in seeds[:runs]:
        outcome = run_one(scenario, seed, plan=plan, keep=True)
        assert outcome.ok, (seed, [(v.name, v.involved[:3]) for v in outcome.failed()])
        assert outcome.result is not None
        events = outcome.result.events
        answers += [
            e.detail for e in events if isinstance(e, FaultInjected) and e.action == "rogue_partner"
        ]
    # Each refused (AMQ9514E, AMQ9526E), or it found no one to pass for (QM1 or the
    # partner down, a kill among the faults): none taken.
    assert not [a for a in answers if "ACCEPTED" in a], answers
    assert [a for a in answers if "refused: AMQ9514E" in a or "refused: AMQ9526E" in a]
