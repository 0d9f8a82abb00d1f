"""How long the suite's longest tests run: sized for ``./dev test`` (CI's 15 minutes on two
cores), or, with ``QSG_SOAK=1`` in the environment, at the sizes that soak the product
(``QSG_SOAK=1 ./dev test -m slow``; docs/development.md).

A test sized this way checks the same thing at both sizes; the soak size only plays
longer or draws more examples, to find what is rare.
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

SOAK = os.environ.get("QSG_SOAK", "") not in ("", "0")


def sized(ci: T, soak: T) -> T:
    """``soak`` under ``QSG_SOAK=1``, else ``ci``."""
    return soak if SOAK else ci
