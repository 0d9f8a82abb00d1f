"""The two queueing-theory validations over several seeds, with their errors (issue 9).

Plays scenarios/mmc-erlang-c.toml (M/M/3, utilisation 0.7: mean wait against Erlang C)
and scenarios/mm1-impatience.toml (M/M/1 with Expiry 0.5 s as patience: the fraction
expired against M/M/1+D) once per seed, in process, and prints each run's value, the
theory's, and the relative error. The values come from the run summary, whose
definitions the Spark pipeline shares (tests/test_pipeline.py checks they agree;
tests/test_queueing_theory.py runs both through the pipeline).

    ./dev bench validation               # seeds 1, 2, 3
    ./dev bench validation --seeds 1 2 3 4 5
"""

from __future__ import annotations

import argparse
from pathlib import Path

from actors.events import MessageGot, MessagePut
from qsg.commands.pipeline.theory import mm1_abandonment, mmc_mean_wait
from qsg.scenario import load_scenario
from qsg.scenario.play import run_scenario

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    mmc = load_scenario(SCENARIOS / "mmc-erlang-c.toml")
    mm1 = load_scenario(SCENARIOS / "mm1-impatience.toml")
    wq = mmc_mean_wait(3, 21.0, 10.0)
    abandon = mm1_abandonment(12.5, 10.0, 0.5)
    for seed in args.seeds:
        result = run_scenario(mmc, seed=seed)
        put = {e.msg_id: e.time for e in result.events if isinstance(e, MessagePut)}
        waits = [
            e.time - put[e.msg_id]
            for e in result.events
            if isinstance(e, MessageGot) and not e.browse and e.msg_id in put
        ]
        mean = sum(waits) / len(waits)
        print(
            f"M/M/3   seed {seed}: mean wait {mean:.5f} s over {len(waits):,} messages; "
            f"Erlang C {wq:.5f} s; error {mean / wq - 1:+.2%}"
        )
    for seed in args.seeds:
        result = run_scenario(mm1, seed=seed)
        row = result.summary.queue("QM1", "APP.WORK")
        fraction = row["expired"] / row["put"]
        print(
            f"M/M/1+D seed {seed}: expired {fraction:.4f} of {row['put']:,}; "
            f"closed form {abandon:.4f}; error {fraction / abandon - 1:+.2%}"
        )


if __name__ == "__main__":
    main()
