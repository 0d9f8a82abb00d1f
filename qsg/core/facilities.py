"""Where a group's CF structures live when it has more than one coupling facility.

z/OS allocates each structure in the first coupling facility of its CFRM preference
list (PREFLIST) that is there, and, for a structure with DUPLEX(ENABLED), a second
instance in the next one (system-managed duplexing: every write goes to both). When a
facility is lost ("Coupling Facility failure"; z/OS "Handling failure of a coupling
facility"):

- a duplexed structure with its other instance elsewhere drops duplexing and carries
  on in the survivor, nothing lost (``KEPT``), and is duplexed again at once in a third
  facility of its preference list that is there, whichever instance it lost;
- any other structure there is rebuilt into the next facility of its preference list
  that is there: its persistent messages are recovered from the members' logs and its
  nonpersistent ones are lost (``REBUILT``);
- with no facility left for it, it has failed (``FAILED``) until its own comes back.

A member that loses connectivity to one facility while tolerating it (CFCONLOS
TOLERATE, ``qsg.core.conlos``) reconnects the same way: into the other instance of a
duplexed structure, or by a rebuild into a facility it still reaches.

``Placement`` holds one group's allocation. It is pure bookkeeping, free of I/O; the
group's router (``qsg.core.router``), which owns it, moves what the structures hold
between the facilities' stores as it answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import dataclass, field

from qsg.core.objects import CFStructure

#: The name of a group's one facility when a scenario names none.
DEFAULT_FACILITY = "CF01"
#: What a facility's loss (or a member's loss of connectivity to it) does to a structure.
KEPT, REBUILT, FAILED = "kept", "rebuilt", "failed"


@dataclass(frozen=True, slots=True)
class Move:
    """What happened to ``structure``: ``KEPT`` in ``to`` (duplexing dropped), ``REBUILT``
    into ``to``, or ``FAILED`` (``to`` empty)."""

    structure: str
    outcome: str
    to: str = ""


def check_preference(structure: CFStructure, facilities: Iterable[str]) -> None:
    """A structure's preference list names facilities of its group, each once; a
    duplexed structure needs two facilities to be in."""
    known = tuple(facilities)
    for name in structure.preference:
        if name not in known:
            raise ValueError(
                f"CF structure {structure.name}: its preference list names {name}, "
                f"not a facility of the group ({', '.join(known)})"
            )
    if len(set(structure.preference)) != len(structure.preference):
        raise ValueError(f"CF structure {structure.name}: its preference list repeats a facility")
    if structure.duplex and len(structure.preference or known) < 2:
        raise ValueError(
            f"CF structure {structure.name}: duplex needs two coupling facilities "
            f"(the group has {', '.join(known)})"
        )


@dataclass(slots=True)
class Placement:
    """One group's facilities and where each structure is allocated: ``primary`` (the
    instance every member uses) and, while duplexed, ``secondary``."""

    facilities: tuple[str, ...] = (DEFAULT_FACILITY,)
    alive: set[str] = field(default_factory=set)
    preference: dict[str, tuple[str, ...]] = field(default_factory=dict)
    duplex: set[str] = field(default_factory=set)
    primary: dict[str, str] = field(default_factory=dict)
    secondary: dict[str, str] = field(default_factory=dict)
    #: Facilities that failed with their structures left in them (``crash``): those
    #: structures stay there, failed, until the facility is back; nothing moves them.
    crashed: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.facilities:
            raise ValueError("a group needs at least one coupling facility")
        if len(set(self.facilities)) != len(self.facilities):
            raise ValueError("a group names a coupling facility twice")
        self.alive = set(self.facilities)

    def allocate(self, structure: CFStructure) -> None:
        """Allocate ``structure`` (DEFINE CFSTRUCT, or its first use): in the first of
        its facilities that is there, and a duplexed one's second instance in the next."""
        check_preference(structure, self.facilities)
        name = structure.name
        self.preference[name] = structure.preference or self.facilities
        if structure.duplex:
            self.duplex.add(name)
        else:
            self.duplex.discard(name)
        if name in self.primary and self.primary[name] in self.alive | self.crashed:
            self._reduplex(name)
            return
        where = self._candidates(name, set())
        if where:
            self.primary[name] = where[0]
            self._reduplex(name)

    def facility_of(self, structure: str) -> str:
        """The facility whose instance of ``structure`` the members use ('' if none)."""
        return self.primary.get(structure, "")

    def duplexed(self, structure: str) -> bool:
        """Whether ``structure`` has two instances now (duplex established)."""
        return structure in self.secondary

    def structures_in(self, facility: str) -> list[str]:
        """The structures with an instance in ``facility``, by name."""
        held = {s for s, f in self.primary.items() if f == facility}
        held |= {s for s, f in self.secondary.items() if f == facility}
        return sorted(held)

    def lose(self, facility: str) -> list[Move]:
        """``facility`` is gone for every member: what becomes of its structures."""
        self.alive.discard(facility)
        return [self._move(name, facility, set()) for name in self.structures_in(facility)]

    def crash(self, facility: str) -> list[Move]:
        """``facility`` failed and nothing rebuilds its structures elsewhere (its server
        died, to be restarted: ``cf_fail``): a duplexed structure with its other
        instance elsewhere carries on there (``KEPT``); any other stays where it is,
        failed (``FAILED``, ``to`` the facility) until the facility is back."""
        self.alive.discard(facility)
        self.crashed.add(facility)
        moves = []
        for name in self.structures_in(facility):
            other = self.secondary.get(name, "")
            if self.primary.get(name) != facility:
                del self.secondary[name]  # only its second instance was there
                moves.append(Move(name, KEPT, self.primary[name]))
            elif other and other in self.alive:
                del self.secondary[name]
                self.primary[name] = other  # the duplex's survivor carries on
                moves.append(Move(name, KEPT, other))
            else:
                self.secondary.pop(name, None)
                moves.append(Move(name, FAILED, facility))
        return moves

    def reconnect(self, structures: Iterable[str], unreachable: Set[str]) -> list[Move]:
        """A member that tolerates losing connectivity to ``unreachable`` facilities
        reconnects to ``structures`` (each in one of them): into the other instance of a
        duplexed structure, or by a rebuild into a facility it reaches; ``FAILED`` for a
        structure with neither (the member gets MQRC_CF_NOT_AVAILABLE on it)."""
        moves = []
        for name in structures:
            where = self.primary.get(name, "")
            moves.append(self._move(name, where, set(unreachable)))
        return moves

    def restore(self, facility: str) -> list[str]:
        """``facility`` is back: the structures it holds again (duplexing established
        again with it, or a structure that had no facility reallocated in it)."""
        self.alive.add(facility)
        self.crashed.discard(facility)
        back = []
        for name in sorted(self.preference):
            had = self.primary.get(name)
            if had in self.crashed:
                continue  # failed in its own facility, which is not back yet
            if had is None or had not in self.alive:
                where = self._candidates(name, set())
                if where and where[0] == facility:
                    self.primary[name] = facility
                    back.append(name)
            elif self._reduplex(name) == facility:
                back.append(name)
        return back

    def reduplex(self) -> list[str]:
        """Duplexing established again wherever it can be (DUPLEX(ENABLED): after a
        member's link is back): the structures duplexed again."""
        return [name for name in sorted(self.primary) if self._reduplex(name)]

    def _candidates(self, name: str, avoid: Set[str]) -> list[str]:
        return [f for f in self.preference[name] if f in self.alive and f not in avoid]

    def _reduplex(self, name: str) -> str:
        if name not in self.duplex or name in self.secondary:
            return ""
        if self.primary[name] in self.crashed:
            return ""  # failed in its facility: no instance to duplex until it is back
        others = self._candidates(name, {self.primary[name]})
        if not others:
            return ""
        self.secondary[name] = others[0]
        return others[0]

    def _move(self, name: str, lost: str, unreachable: set[str]) -> Move:
        if self.primary.get(name) in self.crashed:
            return Move(name, FAILED, self.primary[name])  # it waits for its facility
        avoid = unreachable | {lost}
        other = self.secondary.get(name, "")
        if self.primary.get(name) == lost or name not in self.primary:
            if other and other in self.alive and other not in avoid:
                del self.secondary[name]
                self.primary[name] = other  # the duplex's survivor carries on,
                self._reduplex_avoiding(name, avoid)  # duplexed again as below
                return Move(name, KEPT, other)
            where = self._candidates(name, avoid)
            if not where:
                if lost not in self.alive:  # gone for everyone: nothing holds it now
                    self.primary.pop(name, None)
                    self.secondary.pop(name, None)
                return Move(name, FAILED)
            self.secondary.pop(name, None)
            self.primary[name] = where[0]
            self._reduplex_avoiding(name, avoid)
            return Move(name, REBUILT, where[0])
        # Only the secondary was there: duplexing drops, the primary carries on.
        del self.secondary[name]
        self._reduplex_avoiding(name, avoid)
        return Move(name, KEPT, self.primary[name])

    def _reduplex_avoiding(self, name: str, avoid: Set[str]) -> None:
        if name in self.duplex and name not in self.secondary:
            others = self._candidates(name, avoid | {self.primary[name]})
            if others:
                self.secondary[name] = others[0]


__all__ = [
    "DEFAULT_FACILITY",
    "FAILED",
    "KEPT",
    "REBUILT",
    "Move",
    "Placement",
    "check_preference",
]
