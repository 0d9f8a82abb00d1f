"""``qsg chaos --master``: a campaign's runs as one Spark job, each run played and judged
on an executor, give the verdicts a local campaign gives (a run is its seed's), and
the driver prints the same table and replay commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from qsg.cli import main

SCENARIO = Path(__file__).parent.parent / "scenarios" / "chaos-qsg.toml"


def _verdicts(text: str) -> list[dict[str, object]]:
    return json.loads(text)  # type: ignore[no-any-return]


def test_a_campaign_on_spark_gives_the_local_campaigns_verdicts(tmp_path: Path) -> None:
    words = ["chaos", str(SCENARIO), "--runs", "4", "--seed", "5", "--json"]
    local = CliRunner().invoke(main, words)
    assert local.exit_code in (0, 1), local.output
    done = subprocess.run(
        [sys.executable, "-m", "qsg.cli", *words, "--master", "local[2]"],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=tmp_path,
    )
    assert done.returncode == local.exit_code, done.stderr
    assert _verdicts(done.stdout) == _verdicts(local.stdout)
    assert "runs without a violation" in done.stderr  # the same table and summary
