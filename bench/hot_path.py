"""The hot path's cost a message, in instructions, against an earlier tree (issue 41).

Issue 41 made every MQI verb one code path (no "immediate" copies), and bounds what that
may cost: no more than 10% slower than the tree before it. On a shared machine the
processor time of the same run moves by a third from one run to the next (bench/RESULTS.md:
pairs' ratios from 0.94 to 1.43), so a 10% bound cannot be read from it. Instructions do
not move with the load. This plays ``bench.world``'s first part (a QSG of 3 members, one
shared queue in process, 200 messages a second, producers and waiting consumers) under
valgrind's callgrind, in this tree and in the reference tree (a git revision, checked out
into a temporary worktree), each for a short and a longer simulated time, and prints the
instructions a message costs (the difference of the two runs over the difference of
their messages: start-up, imports and the world's building cancel out), and their ratio.
Both trees run the same seeded scenario, so they play the same messages.

    ./dev bench hot_path                    # against 066b048, 40 simulated seconds
    ./dev bench hot_path --reference REV --seconds 80

Needs valgrind (``apt-get install valgrind``) and git; about two minutes a tree.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

#: The tree before issue 41's single hot path.
REFERENCE = "066b048"
ROOT = Path(__file__).resolve().parent.parent
#: What each callgrind run plays: part 1 of ``bench.world`` for ``argv[1]`` seconds.
_PLAY = (
    "import sys, qsg, bench.world as w; "
    "got, _ = qsg.run(w.scenario, float(sys.argv[1]), True, None); print(got)"
)


def instructions(tree: Path, seconds: float) -> tuple[int, int]:
    """Messages got and instructions executed by a run of ``seconds`` in ``tree``."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("this benchmark needs valgrind (apt-get install valgrind)")
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [
            valgrind,
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            _PLAY,
            str(seconds),
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if collected is None:
        raise SystemExit(f"callgrind said no count: {done.stderr[-500:]}")
    return int(done.stdout.split()[-1]), int(collected.group(1))


def per_message(tree: Path, seconds: float) -> tuple[float, int, int]:
    """Instructions a message in ``tree``, the messages of the longer run, and what a
    run costs before its first message (start-up, imports, the world built)."""
    short_got, short = instructions(tree, 0.001)
    got, long = instructions(tree, seconds)
    return (long - short) / (got - short_got), got, short


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default=REFERENCE, help="git revision to compare with")
    parser.add_argument("--seconds", type=float, default=40.0, help="simulated seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qsg-hot-path-") as scratch:
        before = Path(scratch) / "reference"
        subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "worktree",
                "add",
                "-q",
                "--detach",
                str(before),
                args.reference,
            ],
            check=True,
        )
        try:
            # The two trees side by side: one core each (callgrind is single-threaded).
            with ThreadPoolExecutor(2) as pool:
                ours = pool.submit(per_message, ROOT, args.seconds)
                theirs = pool.submit(per_message, before, args.seconds)
                (here, got, start), (there, got_there, start_there) = (
                    ours.result(),
                    theirs.result(),
                )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                check=False,
            )
    print(f"bench.world part 1, {args.seconds:g} simulated s, in process, under callgrind")
    print(
        f"  {args.reference}: {there:,.0f} instructions a message ({got_there:,} messages; "
        f"{start_there / 1e9:.2f} G before the first)"
    )
    print(
        f"  this tree: {here:,.0f} instructions a message ({got:,} messages; "
        f"{start / 1e9:.2f} G before the first)"
    )
    print(f"  ratio: {here / there:.3f} (issue 41's bound: at most 1.10)")


if __name__ == "__main__":
    main()
