"""Rules of qsg/core's newer modules (event messages, performance, queue manager and
channel events, IGQ, CF structure state, connection tags, the attribute table) pinned
one by one, each test named by the rule it keeps and citing IBM's documentation: the
survivors of ``./dev mutate`` on those modules showed each of these rules unpinned."""

from __future__ import annotations
