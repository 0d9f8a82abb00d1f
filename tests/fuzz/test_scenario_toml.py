"""Scenario files as a careless or hostile user writes them (``qsg.scenario``): every
shipped scenario mutated at random (a value replaced by any TOML value, a key of any
table added where it does not belong, a line dropped or doubled, a table header
inserted), and text that is not TOML at all. Each either loads or is refused with a
``ScenarioError`` whose every problem is one line naming the file and a line of it
(docs/scenarios.md: "every problem, each with its file and line"), in bounded time and
memory: never a traceback, never a hang.

The default run is short (``./dev test``); ``-m slow`` runs the long one.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from qsg.scenario import ScenarioError, parse_scenario
from qsg.scenario.load import AT, CHANNEL, FAULT, KINDS, QMGR, QSG, STRUCTURE, WORKLOAD
from tests.bounds import memory_bound
from tests.claims import keeps

SCENARIOS = Path(__file__).parent.parent.parent / "scenarios"
# Sweep files (sweep-*.toml) are another format: qsg sweep's.
SHIPPED = {
    p.name: p.read_text()
    for p in sorted(SCENARIOS.glob("*.toml"))
    if not p.name.startswith("sweep-")
}
NAME = "fuzz.toml"
KEYS = sorted(
    {*AT, *CHANNEL, *FAULT, *QMGR, *QSG, *STRUCTURE, *WORKLOAD, "duration", "seed"}
    | {k for keys in KINDS.values() for k in keys}
)
HEADERS = [
    "[run]",
    "[qsg.QSG1]",
    "[qmgr.QM9]",
    "[[workload]]",
    "[[fault]]",
    "[[at]]",
    "[[channel]]",
    "[costs]",
    "[qsg.QSG1.structures.APP1]",
    "[qmgr.QM1]",
]

_scalars = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from([0, -1, 1, 2**31 - 1, 2**31, 10**18]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["1e308", "-1e308", "nan", "inf", "-inf", "0.0"]).map(lambda s: s),
    st.booleans(),
    st.text(max_size=30),
    st.sampled_from(
        [
            "QM1",
            "QSG1",
            "APP.IN",
            "QM1.TO.QM4",
            "putter",
            "getter",
            "kill",
            "rogue_partner",
            "poisson",
            "/etc/passwd",
            "../../x",
            "day-rates.csv",
        ]
    ),
)


def _literal(value: object) -> str:
    """``value`` as TOML source (a float's nan and inf as TOML spells them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str) and value in ("1e308", "-1e308", "nan", "inf", "-inf", "0.0"):
        return value
    if isinstance(value, str):
        return '"' + value.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_literal(v)}" for k, v in value.items()) + " }"
    return str(value)


_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                ["file", "dist", "mean", "values", "at", "rate", "weights", "min", "max", "x"]
            ),
            inner,
            max_size=3,
        ),
    ),
    max_leaves=8,
)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A shipped scenario with a few random edits."""
    lines = SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))].splitlines()
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines)))
        edit = draw(st.sampled_from(["value", "key", "drop", "double", "header", "bytes"]))
        line = lines[at] if at < len(lines) else ""
        if edit == "value" and "=" in line:
            key = line.split("=", 1)[0]
            lines[at] = f"{key}= {_literal(draw(_values))}"
        elif edit == "key":
            lines.insert(at, f"{draw(st.sampled_from(KEYS))} = {_literal(draw(_values))}")
        elif edit == "drop" and at < len(lines):
            del lines[at]
        elif edit == "double" and at < len(lines):
            lines.insert(at, line)
        elif edit == "header":
            lines.insert(at, draw(st.sampled_from(HEADERS)))
        elif edit == "bytes":
            lines.insert(at, draw(st.text(max_size=40)))
    return "\n".join(lines) + "\n"


def load(text: str) -> None:
    """``text`` loads, or every problem is one line at a line of the file; within 5 s
    and 256 MiB."""
    started = time.monotonic()
    lines = text.count("\n") + 1
    refused: ScenarioError | None = None
    with memory_bound():
        try:
            parse_scenario(text, NAME, base=SCENARIOS)
        except ScenarioError as error:
            refused = error
    for problem in refused.problems if refused is not None else []:
        shown = str(problem)
        # A file the scenario names (rate = { file }, mqsc_file) has its own place.
        if problem.source != NAME:
            assert Path(problem.source).name in text and problem.line >= 1, shown
        else:
            assert 1 <= problem.line <= lines, shown
        assert shown.startswith(f"{problem.source}:{problem.line}: ")
        assert "\n" not in shown and len(shown) < 2000, shown
    assert refused is None or refused.problems
    assert time.monotonic() - started < 5.0


def test_every_shipped_scenario_loads() -> None:
    for name, text in SHIPPED.items():
        parse_scenario(text, name, base=SCENARIOS)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated())
@example(text="[run]\nduration = 1e308\n")
@example(
    text='[run]\nduration = 60\n[[fault]]\nat = 5\naction = "rogue_partner"\n'
    'channel = "X"\namount = nan\n'
)
@example(
    text='[run]\nduration = 60\n[[workload]]\ntype = "putter"\nqmgr = "QM1"\n'
    'queue = "Q"\nrate = { file = "/dev/zero" }\n'
)
@keeps("docs/security.md", "Every scenario either loads or gives such a line, never a traceback")
def test_every_mutation_of_a_shipped_scenario_loads_or_names_its_file_and_line(text: str) -> None:
    load(text)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=400))
@keeps("docs/security.md", "Every scenario either loads or gives such a line, never a traceback")
def test_any_text_loads_or_names_its_file_and_line(text: str) -> None:
    load(text)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated())
def test_many_mutations_of_the_shipped_scenarios_load_or_name_their_file_and_line(
    text: str,
) -> None:
    load(text)
