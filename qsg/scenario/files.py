"""The files a scenario names, read with a bound: the scenario itself, its MQSC files
(``mqsc_file``), a workload's rate file (``rate = { file = ... }``), a sweep's base; and
their TOML parsed without a RecursionError (``parse_toml``).

Each is read whole, as text, up to ``MAX_FILE_BYTES``: a file that is bigger, or that
has no end (``/dev/zero``, a device), is refused after that many bytes with an OSError
that says so, which the loaders report as they report a file they cannot open (one
problem naming the file), never a read until memory runs out.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

#: The most bytes of a file a scenario reads: far more than any scenario, MQSC script
#: or rate profile needs (a day of one-second rate points is under 2 MiB).
MAX_FILE_BYTES = 16 << 20


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """The text of ``path`` (UTF-8), if it has at most ``limit`` bytes: OSError when it
    has more (the loaders report it as a file they cannot read) or cannot be read,
    UnicodeDecodeError when it is not UTF-8."""
    with path.open("rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"more than {limit:,} bytes (a scenario's files are read whole)")
    return data.decode("utf-8")


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, a document nested past the parser's depth (tomllib reads
    arrays and inline tables recursively: a RecursionError) being a TOMLDecodeError
    ("nested too deeply") like any other TOML that cannot be read."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("nested too deeply") from None


__all__ = ["MAX_FILE_BYTES", "parse_toml", "read_text"]
