"""IBM's constants have one source (docs/constants.md): qsg.ibm's modules are generated
from it and current, and every other home of the constants (``qsg.CMQC``,
``qsg.CMQCFC``, the facade's ``pymqi.CMQC``...) holds the same objects."""

from __future__ import annotations

import ast
import importlib
import struct
from pathlib import Path
from types import ModuleType

import pytest

from qsg import CMQC
from qsg.core.structs import CCSID_UTF8, GMO
from qsg.ibm import generate
from tests.claims import keeps

HEADERS = sorted(generate.HEADERS)


def constants(module: ModuleType) -> dict[str, object]:
    return {name: value for name, value in vars(module).items() if name.startswith("MQ")}


@keeps(
    "docs/constants.md",
    (
        "`tests/test_ibm_constants.py` regenerates into a temporary directory (offline) and fails "
        "when a generated module differs by a byte"
    ),
)
def test_the_generated_modules_are_what_the_generator_writes_from_the_source(
    tmp_path: Path,
) -> None:
    # Regenerate offline into a temporary directory and compare byte for byte: a module
    # edited by hand, or a source changed without regenerating, fails here.
    assert generate.main(["--out", str(tmp_path)]) == 0
    for header in HEADERS:
        written = (tmp_path / f"{header}.py").read_bytes()
        kept = (generate.HERE / f"{header}.py").read_bytes()
        assert written == kept, f"qsg/ibm/{header}.py is stale: run python -m qsg.ibm.generate"


@pytest.mark.parametrize("header", HEADERS)
@keeps("docs/constants.md", "A name pymqi has takes Linux's value in pymqi's place")
def test_a_generated_module_holds_every_name_and_value_of_pymqis_but_linuxs(
    header: str,
) -> None:
    # pymqi's module is read as data (never run): its values, but for the names the Linux
    # overlay replaces, are the generated module's, of the same type.
    pymqi = read_values(generate.PYMQI / f"{header}.py")
    linux = read_values(generate.LINUX / f"{header}.py")
    ibm = constants(importlib.import_module(f"qsg.ibm.{header}"))
    for name, value in pymqi.items():
        expected = linux.get(name, value)
        assert ibm[name] == expected and type(ibm[name]) is type(expected), name
    assert set(ibm) == set(pymqi) | set(linux)


def read_values(path: Path) -> dict[str, object]:
    """A source module's values (this machine's where the pointer size decides)."""
    if not path.exists():
        return {}
    namespace: dict[str, object] = {"py23long": lambda x: x, "calcsize": struct.calcsize}
    tree = ast.parse(path.read_text())
    tree.body = [n for n in tree.body if not isinstance(n, ast.ImportFrom | ast.FunctionDef)]
    exec(compile(tree, str(path), "exec"), namespace)
    return {name: value for name, value in namespace.items() if name.startswith("MQ")}


@pytest.mark.parametrize(
    ("facade", "rules"),
    [("qsg.pymqi.CMQC", "qsg.CMQC"), ("qsg.pymqi.CMQCFC", "qsg.CMQCFC")]
    + [(f"qsg.pymqi.{h}", f"qsg.ibm.{h}") for h in ("CMQXC", "CMQZC")],
)
@keeps("docs/constants.md", "so `qsg.CMQC.MQRC_Q_FULL is qsg.pymqi.CMQC.MQRC_Q_FULL`")
def test_every_home_of_a_constant_holds_the_same_object(facade: str, rules: str) -> None:
    one, other = (constants(importlib.import_module(m)) for m in (facade, rules))
    header = facade.rsplit(".", 1)[1]
    ibm = constants(importlib.import_module(f"qsg.ibm.{header}"))
    assert set(one) == set(other) == set(ibm)
    different = [name for name, value in ibm.items() if not one[name] is other[name] is value]
    assert different == []


@keeps(
    "docs/constants.md",
    "A one-character `MQCHAR` (`MQGS_*`, `MQSS_*`, `MQSEG_*`) is its character's code, an `int`",
)
def test_a_one_character_mqchar_is_its_characters_code_everywhere() -> None:
    # IBM's cmqc.h: #define MQGS_LAST_MSG_IN_GROUP 'L', a C character constant (an int).
    # pymqi, IBM's ibmmq and the rules layer's GMO all hold the int.
    assert (ord("L"), ord("A")) == (CMQC.MQGS_LAST_MSG_IN_GROUP, CMQC.MQSEG_ALLOWED)
    gmo = GMO(Segmentation=CMQC.MQSEG_ALLOWED)
    assert (gmo.GroupStatus, gmo.Segmentation) == (CMQC.MQGS_NOT_IN_GROUP, ord("A"))
    with pytest.raises(TypeError, match=r"^GMO.Segmentation is one MQCHAR"):
        GMO(Segmentation=b"A")


@keeps("docs/constants.md", "and an overlay line that repeats pymqi's value.")
def test_an_overlay_value_equal_to_pymqis_is_refused(tmp_path: Path) -> None:
    # The Linux overlay says where IBM's header differs from pymqi's module: a line that
    # repeats pymqi's value says nothing, and the generator names it.
    (tmp_path / "CMQZC.py").write_text("MQZAO_CONNECT = 1\n")
    with pytest.raises(ValueError, match=r"MQZAO_CONNECT is pymqi's value already$"):
        generate.generate("CMQZC", linux_dir=tmp_path)


@keeps(
    "docs/constants.md",
    "A character string (`MQFMT_*`, structure ids, `MQMI_NONE`) is `bytes` of IBM's exact "
    'length, blanks and NULs included: `MQFMT_STRING == b"MQSTR   "`.',
)
@keeps(
    "docs/constants.md",
    "pymqi's `*_ARRAY` forms (`MQGMO_STRUC_ID_ARRAY`) are lists of one-byte `bytes`.",
)
@keeps(
    "docs/constants.md",
    "the IMS bridge's one-character `MQICM_*`, `MQISS_*` and `MQITS_*` are one-byte `bytes` in "
    "pymqi 1.12.11",
)
def test_strings_are_bytes_of_ibms_length_arrays_lists_of_bytes_and_ims_characters_bytes() -> None:
    assert CMQC.MQFMT_STRING == b"MQSTR   " and CMQC.MQGMO_STRUC_ID == b"GMO "
    assert CMQC.MQMI_NONE == b"\0" * 24 and isinstance(CMQC.MQRC_Q_FULL, int)
    assert CMQC.MQGMO_STRUC_ID_ARRAY == [b"G", b"M", b"O", b" "]
    assert (CMQC.MQICM_COMMIT_THEN_SEND, CMQC.MQISS_CHECK) == (b"0", b"C")
    assert CCSID_UTF8 == 1208


@keeps(
    "docs/constants.md",
    "(a comment at the end of the line is carried into the generated module",
)
@keeps("docs/constants.md", "It refuses a source it cannot read")
def test_an_overlay_comment_is_carried_and_a_value_the_generator_cannot_read_is_refused(
    tmp_path: Path,
) -> None:
    (tmp_path / "CMQZC.py").write_text("MQZAO_CONNECT = 2  # why, citing IBM\n")
    assert (
        "MQZAO_CONNECT = 2  # why, citing IBM"
        in generate.generate("CMQZC", linux_dir=tmp_path).splitlines()
    )
    (tmp_path / "CMQZC.py").write_text("MQZAO_CONNECT = int('2')\n")
    with pytest.raises(ValueError, match=r"MQZAO_CONNECT: a value the generator does not read"):
        generate.generate("CMQZC", linux_dir=tmp_path)
