"""Bounds a test puts on the code it runs, so that a defect fails the test instead of
taking the machine down."""

from __future__ import annotations

import resource
from collections.abc import Iterator
from contextlib import contextmanager

#: Bytes of address space code under test may take beyond what the process has.
HEADROOM = 256 << 20


@contextmanager
def memory_bound(headroom: int = HEADROOM) -> Iterator[None]:
    """The process's address space limited to what it has now plus ``headroom`` bytes
    (RLIMIT_AS, soft), restored after: an allocation beyond is a MemoryError. Linux."""
    with open("/proc/self/status") as status:
        size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size + headroom if hard == resource.RLIM_INFINITY else min(size + headroom, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
