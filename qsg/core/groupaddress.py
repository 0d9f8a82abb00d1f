"""The group's address: which member takes a connection made to a queue-sharing group.

On z/OS a sender reaches a group through its generic address (Sysplex Distributor or a
dynamic VIPA in front of the members' group listeners, "Defining a TCP connection for a
queue sharing group"); which member the network hands each connection to is the
network's choice, and IBM does not say how it makes it. qsg's policy, the same in process
(``World.group_partner``) and over TCP (``actors.groupaddress``, the group's listening
port in a run of members in separate processes), is ``choose``: each connect draws one
of the members that take connections now, uniformly, from the run's seeded random; one
member alone is taken without a draw. A connection to a member that has died is not
moved: the sender's next connect draws again among the survivors.
"""

from __future__ import annotations

from collections.abc import Iterable

from qsg.core.sharedchl import Draw


def choose(listening: Iterable[str], rng: Draw) -> str | None:
    """The member that takes the next connection to the group's address, of those
    ``listening`` (their group listener running, INDISP(GROUP), and able to take it);
    None when there is none; ``rng`` is the run's seeded random. Sorted first, so
    that the same seed draws the same member whatever order the candidates came in."""
    members = sorted(set(listening))
    if not members:
        return None
    return members[0] if len(members) == 1 else rng.choice(members)


def nobody_listens(conn_name: str, qsg: str) -> str:
    """The line of a connect to ``qsg``'s address that no member takes, modelled on
    AMQ9202E ("Remote host not available, retry later"): the sender retries."""
    return (
        f"AMQ9202E: Remote host '{conn_name}' not available, retry later (no member "
        f"of {qsg} has a group listener running, INDISP(GROUP))"
    )


__all__ = ["choose", "nobody_listens"]
