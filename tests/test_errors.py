"""One error root: every exception qsg defines is a ``qsg.QSGError`` and also the
standard exception it resembles (docs/edges.md, "Every error is a QSGError").

The classes are found by walking every module of qsg, actors and coupling, so a new
exception that forgets its root, or resembles nothing, fails here; the table of families
in docs/edges.md is held to the classes, both ways.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import msgpack
import pytest
import trio.testing

import qsg
import qsg.pymqi as pymqi
from actors import wire
from qsg import CMQC, GMO, MD, QMgr
from qsg.pymqi.errors import from_core
from tests.claims import keeps

PACKAGES = ("qsg", "actors", "coupling")
#: What the Spark extra installs: without it, the modules that import it cannot be
#: walked (every other module must import).
OPTIONAL = frozenset({"pyspark", "pandas", "plotly"})
#: Family roots: their members resemble different standard exceptions (pymqi's Error
#: is the base of an OSError and a ValueError), so a root is an Exception only.
ROOTS = frozenset({qsg.QSGError, pymqi.Error})
#: Python's own exceptions, less the two every exception is.
STANDARD = frozenset(
    value
    for value in vars(builtins).values()
    if isinstance(value, type)
    and issubclass(value, BaseException)
    and value not in (Exception, BaseException)
)
EDGES = Path(__file__).parent.parent / "docs" / "edges.md"


def _optional_missing(error: ImportError) -> bool:
    missing = error.name or ""
    return isinstance(error, ModuleNotFoundError) and missing.split(".")[0] in OPTIONAL


def _walk() -> list[str]:
    """Every module of the three packages, by name; a package that fails to import fails
    the walk (``walk_packages`` would pass over it in silence)."""

    def failed(name: str) -> None:  # the package ``name`` raised ImportError: again, raised
        try:
            importlib.import_module(name)
        except ImportError as error:
            if not _optional_missing(error):
                raise

    names: list[str] = []
    for top in PACKAGES:
        package = importlib.import_module(top)
        names.append(top)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, f"{top}.", failed)]
    return names


def _defined(skipped: list[str]) -> dict[str, type[BaseException]]:
    """Every exception class defined in the three packages, by its dotted name; the
    modules the Spark extra's absence kept from the walk go to ``skipped``."""
    found: dict[str, type[BaseException]] = {}
    for name in _walk():
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            if _optional_missing(error):
                skipped.append(name)
                continue
            raise
        for cls in vars(module).values():
            if (
                inspect.isclass(cls)
                and issubclass(cls, BaseException)
                and cls.__module__ == module.__name__
            ):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


SKIPPED: list[str] = []
DEFINED = _defined(SKIPPED)


def test_the_walk_finds_every_family_of_errors() -> None:
    # A walk that found nothing would let every test below pass.
    names = {cls.__name__ for cls in DEFINED.values()}
    assert {
        "QSGError",
        "MQMIError",
        "PYIFError",
        "MQSCError",
        "ScenarioError",
        "StaleFenceError",
        "CFConnectionError",
        "WallTimeoutError",
        "ChannelBrokenError",
    } <= names
    assert len(DEFINED) >= 20


@keeps(
    "docs/edges.md",
    "Every exception class qsg defines, in any layer, derives from `qsg.QSGError`",
)
def test_every_exception_qsg_defines_is_a_qsg_error() -> None:
    outside = [name for name, cls in DEFINED.items() if not issubclass(cls, qsg.QSGError)]
    assert outside == []


@keeps("docs/edges.md", "and also from the standard exception it resembles.")
def test_every_exception_qsg_defines_is_also_the_standard_exception_it_resembles() -> None:
    plain = [
        name
        for name, cls in DEFINED.items()
        if cls not in ROOTS and not any(issubclass(cls, std) for std in STANDARD)
    ]
    assert plain == []


@keeps("docs/edges.md", "`QSGError` itself is never raised")
def test_the_roots_are_exceptions_only_and_qsg_exports_the_root() -> None:
    assert set(DEFINED.values()) >= ROOTS
    for root in ROOTS:
        assert [std for std in STANDARD if issubclass(root, std)] == [], root
    assert qsg.QSGError is DEFINED["qsg.core.errors.QSGError"]
    assert "QSGError" in qsg.__all__


def _families() -> list[tuple[set[str], set[str]]]:
    """docs/edges.md's table of families: per row, the class names it lists and the
    standard exceptions it says they are."""
    section = EDGES.read_text().split("## Every error is a `qsg.QSGError`", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][2:]
    families = []
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        classes = {name.rsplit(".", 1)[-1] for name in re.findall(r"`([\w.]+)`", cells[-2])}
        also = set(re.findall(r"`(\w+)`", cells[-1]))
        families.append((classes, also))
    return families


@keeps(
    "docs/edges.md",
    "A class's place in the table is also a promise about which `except` clause catches it",
)
def test_docs_edges_md_names_every_public_error_with_the_standard_class_it_is() -> None:
    families = _families()
    assert len(families) >= 8
    documented = set().union(*(classes for classes, _ in families))
    public = {cls.__name__ for cls in DEFINED.values() if not cls.__name__.startswith("_")}
    assert public <= documented
    if not SKIPPED:  # every class the table names exists (all of them could be walked)
        assert documented <= public
    for classes, also in families:
        for cls in DEFINED.values():
            if cls.__name__ in classes:
                standards = {getattr(builtins, name) for name in also}
                assert all(issubclass(cls, std) for std in standards), (cls, also)


@keeps(
    "docs/edges.md",
    "`qsg.MQMIError`, `pymqi.MQMIError` (which derives from the first and from pymqi's root) | "
    "`OSError`",
)
def test_a_failed_mq_call_is_caught_as_qsg_error_and_as_os_error() -> None:
    qm = QMgr("QM1")
    qm.define_queue("APP.EMPTY")
    queue = qm.connect().open("APP.EMPTY", CMQC.MQOO_INPUT_SHARED)
    with pytest.raises(qsg.QSGError) as caught:
        queue.get(None, MD(), GMO(Options=CMQC.MQGMO_NO_SYNCPOINT), now=0.0)
    assert isinstance(caught.value, OSError)
    assert isinstance(caught.value, qsg.MQMIError)
    assert caught.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE


@keeps("docs/edges.md", "`pymqi.PYIFError` | `ValueError`")
def test_pymqis_errors_keep_pymqis_shape_below_qsgs_root() -> None:
    error = from_core(qsg.MQMIError.failed(CMQC.MQRC_NO_MSG_AVAILABLE))
    for catcher in (pymqi.MQMIError, pymqi.Error, qsg.MQMIError, qsg.QSGError, OSError):
        assert isinstance(error, catcher), catcher
    assert str(error) == "MQI Error. Comp: 2, Reason 2033: FAILED: MQRC_NO_MSG_AVAILABLE"
    misuse = pymqi.PYIFError("not open")
    for catcher in (pymqi.Error, qsg.QSGError, ValueError):
        assert isinstance(misuse, catcher), catcher
    assert not isinstance(misuse, pymqi.MQMIError)
    assert str(misuse) == "PYMQI Error: not open"


@keeps("docs/edges.md", "so a protocol error is a `ConnectionError`, never a `ValueError`")
async def test_a_frame_that_is_no_flow_is_told_so_not_as_undecodable_bytes() -> None:
    # The frame reader takes a ValueError for bytes msgpack cannot decode: a protocol
    # error is a ConnectionError (the channel ends), never a ValueError, or its own
    # words would be lost inside "bytes that are not a frame".
    ours, theirs = trio.testing.memory_stream_pair()
    await ours.send_all(msgpack.packb([1, 2, 3]))
    told = r"^a frame that is not a channel flow: \[1, 2, 3\]$"
    with pytest.raises(wire.ProtocolError, match=told):
        await wire.Frames(theirs).receive()


@keeps(
    "docs/edges.md",
    "an argument a function of qsg's API cannot take (a queue manager given twice to "
    "`Topology.add_qmgr`, a queue name of 49 characters) is Python's own `ValueError`",
)
def test_a_mistake_in_the_calling_program_is_pythons_own_value_error_not_a_qsg_error() -> None:
    topology = qsg.Topology()
    topology.add_qmgr("QM1")
    mistakes = [
        (lambda: topology.add_qmgr("QM1"), "is already in the topology"),
        (lambda: QMgr("QM1").define_queue("Q" * 49), "a queue name has 1 to 48 characters"),
    ]
    for mistake, says in mistakes:
        with pytest.raises(ValueError, match=says) as raised:
            mistake()
        assert type(raised.value) is ValueError  # not a class of qsg's own
