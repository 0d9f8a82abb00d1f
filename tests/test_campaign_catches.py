"""Every bug switch of ``qsg.core.bugs`` is caught by a random chaos campaign, not only by a
targeted test (issue 26): a short campaign (2 runs of campaign seed 2) of a lean
scenario (scenarios/chaos-lean.toml), once clean and once with each switch on. Without a
switch the campaign finds nothing; with one, some run of it fails the checker meant for
that bug.

Campaign seed 2's runs draw, among other kinds, ``stall_scan`` in process (the expiry-scan
lease holder stalled past its lease, the fault that exercises fencing) and ``cf_fail`` on
Redis (the CF's server killed and restarted from its append-only file), which the
skipped-fencing and lost-on-CF-recovery bugs need. A duplexed structure that fails over
empty needs a scenario with two facilities (scenarios/chaos-facilities.toml), whose
campaign seed 1 draws ``facility_fail``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qsg.chaos.campaign import Outcome, Plan, campaign, run_seeds
from qsg.chaos.nemesis import draw
from qsg.core import bugs
from qsg.scenario import load_scenario
from qsg.scenario.model import Scenario
from tests.claims import keeps

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "chaos-lean.toml"
FACILITIES = SCENARIO.with_name("chaos-facilities.toml")
CAMPAIGN_SEED = 2
RUNS = 2
#: Bugs caught by another scenario's campaign: bug -> (scenario, campaign seed).
ELSEWHERE = {bugs.DUPLEX_FAILS_OVER_EMPTY: (FACILITIES, 1)}
#: bug -> (the checker that must catch it, whether its campaign runs in process)
CATCHES = {
    bugs.DROP_ON_COMMIT: ("queue", True),
    bugs.DELIVER_EXPIRED: ("expiry", True),
    bugs.SKIP_FENCING: ("scan-lease", True),
    bugs.LOSE_ON_CF_RECOVERY: ("queue", False),
    bugs.RECOVER_SKIPS_LOG: ("queue", True),
    bugs.DUPLEX_FAILS_OVER_EMPTY: ("queue", True),
}
#: Bugs caught on shared channels: a campaign of the shared-channel chaos target
#: (scenarios/chaos-shared.toml), 3 runs of campaign seed 2, in process; its third run
#: draws kill_chinit and stop_chinit, and one lands with a batch in doubt.
SHARED_SCENARIO = SCENARIO.parent / "chaos-shared.toml"
SHARED_RUNS = 3
SHARED_CATCHES = {bugs.DUPLICATE_ON_CHANNEL_RECOVERY: "queue"}


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(SCENARIO)


def play(scenario: Scenario, in_process: bool, seed: int = CAMPAIGN_SEED) -> list[Outcome]:
    return list(campaign(scenario, RUNS, seed, in_process=in_process))


def test_every_known_bug_has_a_campaign_here() -> None:
    assert set(CATCHES) | set(SHARED_CATCHES) == bugs.KNOWN


@pytest.mark.slow
@keeps(
    "docs/chaos.md",
    "a short campaign of `scenarios/chaos-shared.toml` (3 runs of campaign seed 2) finds "
    "nothing clean and catches `duplicate-on-channel-recovery`",
)
def test_the_shared_channel_campaign_catches_a_duplicate_on_channel_recovery() -> None:
    # "Shared channel recovery": the restarted instance must settle its batch in doubt
    # with its partner; backing out a batch the partner committed sends it twice.
    shared = load_scenario(SHARED_SCENARIO)
    clean = list(campaign(shared, SHARED_RUNS, CAMPAIGN_SEED, in_process=True))
    assert all(o.ok for o in clean), [(o.seed, o.failed()) for o in clean]
    for bug, checker in SHARED_CATCHES.items():
        with bugs.injected(bug):
            outcomes = list(campaign(shared, SHARED_RUNS, CAMPAIGN_SEED, in_process=True))
        caught = [o.seed for o in outcomes if checker in [v.name for v in o.failed()]]
        assert caught, f"{bug}: no run of the campaign failed {checker}"


@pytest.mark.slow
@keeps(
    "docs/edges.md",
    "a short campaign (2 runs of campaign seed 2) of the lean shipped scenario "
    "`scenarios/chaos-lean.toml` finds nothing clean",
)
def test_the_lean_campaign_finds_nothing_without_a_bug(scenario: Scenario) -> None:
    outcomes = play(scenario, in_process=True)
    assert all(o.ok for o in outcomes), [(o.seed, o.failed()) for o in outcomes]
    assert all("stall_scan" in o.kinds for o in outcomes)


@pytest.mark.slow
@pytest.mark.parametrize("bug", sorted(CATCHES))
@keeps(
    "docs/edges.md",
    "and with each switch on (`DROP_ON_COMMIT`, `DELIVER_EXPIRED`, `SKIP_FENCING` in process; "
    "`LOSE_ON_CF_RECOVERY` on the Redis server the runs start, whose nemesis may kill it: "
    "`cf_fail`) some run fails the checker meant for it.",
)
@keeps("docs/chaos.md", "each is caught by its checker, in random campaigns too")
@keeps(
    "docs/chaos.md",
    "the bug switch `DUPLEX_FAILS_OVER_EMPTY` (the survivor comes up empty) is caught by a "
    "campaign of `scenarios/chaos-facilities.toml`",
)
def test_a_short_random_campaign_catches_the_bug(
    scenario: Scenario, bug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checker, in_process = CATCHES[bug]
    if not in_process:  # cf_fail needs the server the runs start themselves
        monkeypatch.delenv("QSG_REDIS_URL", raising=False)
        plan = Plan.of(scenario, server=True)
        seeds = run_seeds(CAMPAIGN_SEED, RUNS)
        assert any("cf_fail" in draw(plan.targets, s, plan.window)[0] for s in seeds)
    seed = CAMPAIGN_SEED
    if bug in ELSEWHERE:
        path, seed = ELSEWHERE[bug]
        scenario = load_scenario(path)
        clean = play(scenario, in_process=in_process, seed=seed)
        assert all(o.ok for o in clean), [(o.seed, o.failed()) for o in clean]
    with bugs.injected(bug):
        outcomes = play(scenario, in_process=in_process, seed=seed)
    caught = [o.seed for o in outcomes if checker in [v.name for v in o.failed()]]
    assert caught, f"{bug}: no run of the campaign failed {checker}"
