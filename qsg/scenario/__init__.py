"""Scenarios: a topology, its workloads, its faults and what to measure, in a TOML file
(or a Python script), checked before anything starts and played in virtual time.

``load_scenario(path)`` reads and checks a TOML scenario (``ScenarioError`` lists every
problem with file, line and key); ``docs/scenarios.md`` documents every key. The
``qsg`` command (``qsg.commands.cli``) runs and validates them.
"""

from __future__ import annotations

from qsg.scenario.errors import ScenarioError, ScenarioProblem
from qsg.scenario.load import load_scenario, parse_scenario
from qsg.scenario.model import Scenario

__all__ = ["Scenario", "ScenarioError", "ScenarioProblem", "load_scenario", "parse_scenario"]
