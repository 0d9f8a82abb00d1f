"""Arrivals at a rate that varies: a workload's load shape, and the gap to its next message.

A ``RateProfile`` is a rate (messages a second, per application) as a function of the
simulated seconds since the run began: given at points, held from one point to the next
(``step``) or interpolated between them (``linear``), the last rate held to the end; a
``Burst`` multiplies it by ``factor`` for ``length`` seconds from ``at``. Every profile
is a sequence of pieces on each of which the rate is linear, which is what ``gap`` needs.

``gap`` follows the profile exactly:

- **poisson**: a non-homogeneous Poisson process by thinning (Lewis and Shedler): on
  each piece, candidates come at the piece's highest rate and each is kept with the
  probability rate(t) / highest; a candidate past the piece's end is dropped and drawing
  starts again at the end (the exponential has no memory), so a quiet night costs no
  rejected candidates of the busy day.
- **constant** and **uniform**: the homogeneous process run in operational time, the
  next message when the expected count since the last reaches 1 (constant) or a draw
  uniform on [0, 2] (uniform): at a constant rate, gaps of 1/rate and uniform on
  [0, 2/rate], as without a profile.

A rate of 0 to the end of time gives an infinite gap: the application puts no more.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random

SHAPES = ("step", "linear")


@dataclass(frozen=True, slots=True)
class Burst:
    """``burst = { at, for, factor }``: the rate times ``factor`` on [at, at + length)."""

    at: float
    length: float
    factor: float


@dataclass(frozen=True, slots=True)
class RateProfile:
    """The rate at the points ``times`` (increasing, the first 0) is ``rates``."""

    times: tuple[float, ...]
    rates: tuple[float, ...]
    shape: str = "step"
    burst: Burst | None = None

    def __post_init__(self) -> None:
        # Invariant (the loader reports each as a problem first): what gap relies on.
        if not self.times or self.times[0] != 0 or len(self.times) != len(self.rates):
            raise ValueError("a rate profile needs points from time 0")
        if any(b <= a for a, b in zip(self.times, self.times[1:], strict=False)):
            raise ValueError("a rate profile's times must increase")
        if any(r < 0 or not math.isfinite(r) for r in self.rates) or self.shape not in SHAPES:
            raise ValueError("a rate profile's rates must be finite and at least 0")

    def _base(self, t: float) -> float:
        """The rate at ``t`` before any burst."""
        times, rates = self.times, self.rates
        i = _index(times, t)
        if self.shape == "step" or i == len(times) - 1:
            return rates[i]
        a, b = times[i], times[i + 1]
        return rates[i] + (rates[i + 1] - rates[i]) * (t - a) / (b - a)

    def rate_at(self, t: float) -> float:
        """Messages a second at ``t`` simulated seconds into the run."""
        rate = self._base(t)
        burst = self.burst
        if burst is not None and burst.at <= t < burst.at + burst.length:
            rate *= burst.factor
        return rate

    def peak(self) -> float:
        """The highest rate the profile reaches (or comes as close to as it likes)."""
        return max(
            max(ra, ra + slope * (b - a)) if slope else ra for a, b, ra, slope in self.pieces(0.0)
        )

    def expected(self, start: float, end: float) -> float:
        """The expected number of arrivals on [start, end): the integral of the rate."""
        total = 0.0
        for a, b, ra, slope in self.pieces(start):
            if a >= end:
                break
            width = min(b, end) - a
            total += ra * width + slope * width * width / 2
        return total

    def pieces(self, start: float) -> Iterator[tuple[float, float, float, float]]:
        """From ``start`` on, pieces ``(a, b, rate at a, slope)`` on which the rate is
        linear; the last ends at infinity."""
        cuts = set(self.times)
        if self.burst is not None:
            cuts |= {self.burst.at, self.burst.at + self.burst.length}
        edges = sorted(c for c in cuts if c > start)
        a = start
        for b in (*edges, math.inf):
            ra = self.rate_at(a)
            if b == math.inf or self.shape == "step":
                slope = 0.0
            else:  # the rate just before b, from the piece's own side of any cut
                slope = (self._base(b) - self._base(a)) / (b - a)
                burst = self.burst
                if burst is not None and burst.at <= a < burst.at + burst.length:
                    slope *= burst.factor
            yield a, b, ra, slope
            a = b


def constant(rate: float, burst: Burst | None = None) -> RateProfile:
    """A constant ``rate`` (with a ``burst``, if any) as a profile."""
    return RateProfile((0.0,), (rate,), "step", burst)


def _index(times: tuple[float, ...], t: float) -> int:
    """The last point at or before ``t``."""
    lo, hi = 0, len(times) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if times[mid] <= t:
            lo = mid
        else:
            hi = mid - 1
    return lo


def gap(profile: RateProfile, arrival: str, now: float, rng: random.Random) -> float:
    """Seconds from ``now`` (into the run) to the next message of ``arrival``'s process."""
    if arrival == "poisson":
        return _thinned(profile, now, rng) - now
    target = 1.0 if arrival == "constant" else rng.uniform(0.0, 2.0)
    return _operational(profile, now, target) - now


def _thinned(profile: RateProfile, now: float, rng: random.Random) -> float:
    for a, b, ra, slope in profile.pieces(now):
        highest = max(ra, ra + slope * (b - a)) if slope else ra
        if highest <= 0:
            continue
        t = a
        while True:
            t += rng.expovariate(highest)
            if t >= b:
                break
            if rng.random() * highest < ra + slope * (t - a):
                return t
    return math.inf


def _operational(profile: RateProfile, now: float, target: float) -> float:
    """The time at which the expected count since ``now`` reaches ``target``."""
    left = target
    for a, b, ra, slope in profile.pieces(now):
        if left <= 0:
            return a
        if b == math.inf:  # the last rate, held for ever
            return a + left / ra if ra > 0 else math.inf
        whole = ra * (b - a) + slope * (b - a) ** 2 / 2
        if whole >= left:
            # ra x + slope x^2 / 2 = left, in the form that is stable for either sign.
            return a + 2 * left / (ra + math.sqrt(max(0.0, ra * ra + 2 * slope * left)))
        left -= whole
    return math.inf


__all__ = ["SHAPES", "Burst", "RateProfile", "constant", "gap"]
