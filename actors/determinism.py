"""Reproducible interleaving: trio's deterministic scheduling, seeded by the run.

trio runs each batch of ready tasks in an order it draws from a module-level
``random.Random`` (reversed or not, at random), so two runs with the same seed can
interleave differently (measured: 20 runs, 20 orders). trio's hypothesis
plugin switches on a mode in which each batch is sorted by task creation and then
shuffled with that generator; seeding it from the run's seed makes the interleaving a
function of the seed. The mode is private API (``trio._core._run``): if trio drops it,
``seeded_scheduling`` raises rather than quietly giving up reproducibility, and the
test that a seeded run repeats fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from trio._core import _run


@contextmanager
def seeded_scheduling(seed: int) -> Iterator[None]:
    """Deterministic scheduling seeded with ``seed`` for the block; the previous mode
    is restored afterwards."""
    if not hasattr(_run, "_ALLOW_DETERMINISTIC_SCHEDULING") or not hasattr(_run, "_r"):
        raise RuntimeError(
            "this trio has no deterministic scheduling mode: seeded runs cannot be reproduced"
        )
    before = _run._ALLOW_DETERMINISTIC_SCHEDULING
    state = _run._r.getstate()
    setattr(_run, "_ALLOW_DETERMINISTIC_SCHEDULING", True)  # noqa: B010  # Final in trio
    _run._r.seed(seed)
    try:
        yield
    finally:
        setattr(_run, "_ALLOW_DETERMINISTIC_SCHEDULING", before)  # noqa: B010
        _run._r.setstate(state)


__all__ = ["seeded_scheduling"]
