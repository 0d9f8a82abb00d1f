"""The mutation score of qsg/core, per module, from the results ``mutmut run`` left in
``mutants/`` (run it with ``./dev mutate [MODULE...]``).

A mutant is killed when a test failed (or timed out) with it in place. Survivors that
change no behaviour are listed, each with why, in ``tests/mutation-equivalents.toml``:
they count neither as killed nor against the score. The score is killed / (mutants -
equivalent), over the behaviour-changing mutants. Mutants not yet checked are counted
apart. With ``--survivors`` the behaviour-changing survivors are listed by name (``mutmut
show NAME`` gives each one's diff).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "mutants" / "qsg" / "core"
EQUIVALENTS = ROOT / "tests" / "mutation-equivalents.toml"
KILLED = {1, 3, 36, 24, -24, 152, 255, 37}  # a failure, a timeout, or the type check
SURVIVED = {0, 5, 33}  # the tests passed, or no test ran the mutated code


def equivalents() -> dict[str, str]:
    """Every listed equivalent mutant, by name, with why it changes nothing."""
    listed = tomllib.loads(EQUIVALENTS.read_text())
    return {entry["mutant"]: entry["why"] for entry in listed.get("equivalent", [])}


def score(modules: list[str], show_survivors: bool) -> int:
    known = equivalents()
    # A package's modules (qsg/core/attributes/) are named with dots: attributes.queues.
    metas = sorted(CORE.rglob("*.py.meta"))
    if not metas:
        print("no results: run ./dev mutate first", file=sys.stderr)
        return 1
    rows, survivors, seen = [], [], set()
    for meta in metas:
        module = ".".join(meta.relative_to(CORE).with_suffix("").with_suffix("").parts)
        if modules and not any(module == m or module.startswith(f"{m}.") for m in modules):
            continue
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if not codes:
            continue
        killed = equivalent = unchecked = 0
        for name, code in codes.items():
            if name in known:
                seen.add(name)
                if code in KILLED:
                    print(f"listed as equivalent but killed: {name}", file=sys.stderr)
                    killed += 1
                else:
                    equivalent += 1
            elif code is None:
                unchecked += 1
            elif code in KILLED:
                killed += 1
            else:
                survivors.append(name)
        judged = len(codes) - equivalent - unchecked
        rows.append((module, len(codes), killed, equivalent, unchecked, judged))
    print("| module | mutants | killed | equivalent | not checked | score |")
    print("|---|---:|---:|---:|---:|---:|")
    totals = [0, 0, 0, 0, 0]
    for module, mutants, killed, equivalent, unchecked, judged in rows:
        pct = f"{100 * killed / judged:.1f}%" if judged else "-"
        print(f"| {module} | {mutants} | {killed} | {equivalent} | {unchecked} | {pct} |")
        for i, value in enumerate((mutants, killed, equivalent, unchecked, judged)):
            totals[i] += value
    if totals[4]:
        print(
            f"| all | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} "
            f"| {100 * totals[1] / totals[4]:.1f}% |"
        )
    stale = [name for name in known if name not in seen and not modules]
    for name in stale:
        print(f"listed as equivalent, but no such mutant now: {name}", file=sys.stderr)
    if show_survivors:
        for name in survivors:
            print(name)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules of qsg/core (default: all)")
    parser.add_argument("--survivors", action="store_true", help="list the survivors")
    args = parser.parse_args()
    return score([m.removesuffix(".py") for m in args.modules], args.survivors)


if __name__ == "__main__":
    sys.exit(main())
