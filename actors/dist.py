"""Distributions the applications draw from: message sizes, priorities, service and
inter-arrival times. Each draws from the run's one ``random.Random``, so a seed
replays a run exactly.

In a scenario file a distribution is a number (always that value) or a table:
``{ dist = "uniform", min = 512, max = 4096 }``, ``{ dist = "exponential", mean = 0.02 }``,
``{ dist = "normal", mean = 2048, sd = 512 }`` (never below ``min``, default 0),
``{ dist = "choice", values = [0, 4, 9], weights = [1, 6, 3] }`` (weights optional).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fixed:
    value: float

    def draw(self, rng: random.Random) -> float:
        return self.value

    @property
    def mean(self) -> float:
        return self.value

    def bounds(self) -> tuple[float, float]:
        return self.value, self.value


@dataclass(frozen=True, slots=True)
class Uniform:
    low: float
    high: float

    def draw(self, rng: random.Random) -> float:
        return rng.uniform(self.low, self.high)

    @property
    def mean(self) -> float:
        return (self.low + self.high) / 2

    def bounds(self) -> tuple[float, float]:
        return self.low, self.high


@dataclass(frozen=True, slots=True)
class Exponential:
    average: float

    def draw(self, rng: random.Random) -> float:
        return rng.expovariate(1.0 / self.average) if self.average > 0 else 0.0

    @property
    def mean(self) -> float:
        return self.average

    def bounds(self) -> tuple[float, float]:
        return 0.0, math.inf


@dataclass(frozen=True, slots=True)
class Normal:
    average: float
    sd: float
    low: float = 0.0

    def draw(self, rng: random.Random) -> float:
        return max(self.low, rng.gauss(self.average, self.sd))

    @property
    def mean(self) -> float:
        return self.average

    def bounds(self) -> tuple[float, float]:
        return self.low, math.inf


@dataclass(frozen=True, slots=True)
class Choice:
    values: tuple[float, ...]
    weights: tuple[float, ...] | None = None

    def draw(self, rng: random.Random) -> float:
        return rng.choices(self.values, self.weights)[0]

    @property
    def mean(self) -> float:
        weights = self.weights or (1.0,) * len(self.values)
        return sum(v * w for v, w in zip(self.values, weights, strict=True)) / sum(weights)

    def bounds(self) -> tuple[float, float]:
        return min(self.values), max(self.values)


Distribution = Fixed | Uniform | Exponential | Normal | Choice

#: The ``dist`` names a scenario may use, and the keys each takes (required, optional).
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "uniform": (("min", "max"), ()),
    "exponential": (("mean",), ()),
    "normal": (("mean", "sd"), ("min",)),
    "choice": (("values",), ("weights",)),
}


def make(kind: str, spec: dict[str, object]) -> Distribution:
    """The distribution ``kind`` from its (already type-checked) keys; ValueError if the
    numbers make no sense."""

    def num(key: str) -> float:
        value = spec[key]
        assert isinstance(value, int | float)
        return float(value)

    if kind == "uniform":
        if num("min") > num("max"):
            raise ValueError(f"min {spec['min']} is above max {spec['max']}")
        return Uniform(num("min"), num("max"))
    if kind == "exponential":
        if num("mean") < 0:
            raise ValueError("mean must not be negative")
        return Exponential(num("mean"))
    if kind == "normal":
        if num("sd") < 0:
            raise ValueError("sd must not be negative")
        return Normal(num("mean"), num("sd"), num("min") if "min" in spec else 0.0)
    values = spec["values"]
    assert isinstance(values, list)
    if not values:
        raise ValueError("values must not be empty")
    weights = spec.get("weights")
    if weights is not None:
        assert isinstance(weights, list)
        if len(weights) != len(values):
            raise ValueError(f"{len(weights)} weights for {len(values)} values")
        if any(w < 0 for w in weights) or not any(w > 0 for w in weights):
            raise ValueError("weights must not be negative and one must be positive")
        return Choice(tuple(values), tuple(float(w) for w in weights))
    return Choice(tuple(values))


__all__ = ["KINDS", "Choice", "Distribution", "Exponential", "Fixed", "Normal", "Uniform", "make"]
