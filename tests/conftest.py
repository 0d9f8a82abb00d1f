"""Fixtures shared by the rules-layer tests."""

from __future__ import annotations

import pytest

from qsg.core.events import Event


@pytest.fixture
def events() -> list[Event]:
    """Collects what a queue manager emits: pass ``on_event=events.append``."""
    return []
