"""Closed forms of queueing theory the simulator is validated against.

- **M/M/c** (Poisson arrivals at rate λ, c servers with exponential service at rate μ,
  FIFO, no abandonment): the Erlang-C probability that an arrival waits, and the mean
  wait in the queue, Wq = C(c, λ/μ) / (cμ − λ). Needs λ < cμ.
- **M/M/1+D** (one server, each arrival leaves if its wait would exceed a fixed
  patience τ): what a queue of messages with Expiry τ is, since an expired message is
  discarded when a getter reaches it and takes no service. With ρ = λ/μ and
  E = exp(−(μ − λ)τ), the fraction that abandons is ρ(1 − ρ)E / (1 − ρ²E) (from the
  stationary density of the virtual waiting time; Barrer 1957). Any ρ ≠ 1.
"""

from __future__ import annotations

import math


def erlang_c(c: int, lam: float, mu: float) -> float:
    """The probability that an arrival to an M/M/c queue has to wait."""
    if c < 1 or lam <= 0 or mu <= 0:
        raise ValueError("M/M/c needs c >= 1 server and rates above 0")
    a = lam / mu
    rho = a / c
    if rho >= 1:
        raise ValueError(f"M/M/c is unstable at utilisation {rho:.3f} (λ must be below cμ)")
    # The terms a^k/k! by recurrence: no factorial overflow for large c.
    term, below = 1.0, 0.0
    for k in range(c):
        below += term
        term *= a / (k + 1)
    top = term / (1 - rho)
    return top / (below + top)


def mmc_mean_wait(c: int, lam: float, mu: float) -> float:
    """Wq of M/M/c: the mean time an arrival waits before its service starts."""
    return erlang_c(c, lam, mu) / (c * mu - lam)


def mm1_abandonment(lam: float, mu: float, patience: float) -> float:
    """The fraction of arrivals to an M/M/1 queue with fixed patience that abandon."""
    if lam <= 0 or mu <= 0 or patience < 0:
        raise ValueError("M/M/1+D needs rates above 0 and a patience of at least 0")
    rho = lam / mu
    if math.isclose(rho, 1.0):
        # The limit at ρ = 1: E -> 1 and the 0/0 resolves to 1 / (2 + μτ).
        return 1 / (2 + mu * patience)
    e = math.exp(-(mu - lam) * patience)
    return rho * (1 - rho) * e / (1 - rho * rho * e)


__all__ = ["erlang_c", "mm1_abandonment", "mmc_mean_wait"]
