"""Chaos and failover testing: a nemesis, a recorded history, and checkers.

``qsg chaos SCENARIO --runs N --seed S`` runs a campaign (``campaign``); ``history``
reads what happened to every message, ``checkers`` judge it, ``nemesis`` draws faults.
"""

from qsg.chaos.campaign import MODES, Outcome, Plan, campaign, run_one, run_seeds

__all__ = ["MODES", "Outcome", "Plan", "campaign", "run_one", "run_seeds"]
