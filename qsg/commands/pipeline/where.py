"""Where the pipeline's data is: a local path or a URI of any Hadoop filesystem.

Every path option (``qsg metrics DIR --out OUT``, ``qsg sweep --out``, ``qsg report
DIR``) is turned into an absolute URI on the driver before Spark sees it
(``to_uri``): a relative ``runs/`` given to a cluster names the driver's directory,
not each executor's working directory. Spark writes and lists through Hadoop's
FileSystem (``file://``, ``s3a://``, ``hdfs://``, ``abfss://``...); Python code on the
executors (reading a run's event log, writing a sweep point's run) opens the same URI
through ``pyarrow.fs`` (``arrow_fs``), which knows ``s3a://`` as ``s3://``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

#: A URI's scheme (two letters at least: ``C:`` is a Windows drive, not a scheme).
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")
#: Hadoop's names for stores pyarrow knows by another.
_ARROW_SCHEMES = {"s3a": "s3", "s3n": "s3", "gcs": "gs"}


def scheme(location: str | Path) -> str:
    """The URI's scheme, lower case ("" for a plain path)."""
    found = _SCHEME.match(str(location))
    return found[1].lower() if found else ""


def to_uri(location: str | Path) -> str:
    """``location`` as an absolute URI: a plain path (relative ones against the
    driver's working directory) becomes ``file:///...``; a URI is kept as it is,
    without a trailing slash."""
    text = str(location)
    if not scheme(text):
        return Path(text).expanduser().resolve().as_uri()
    if scheme(text) == "file":
        return local_path(text).as_uri()  # file:/x, file:///x and file://localhost/x alike
    return text.rstrip("/") or text


def is_local(location: str | Path) -> bool:
    """Whether ``location`` is on this machine's filesystem (a path or ``file:``)."""
    return scheme(location) in ("", "file")


def local_path(location: str | Path) -> Path:
    """The local path of a plain path or ``file:`` URI (ValueError for another scheme)."""
    text = str(location)
    if not scheme(text):
        return Path(text).expanduser().resolve()
    parts = urlsplit(text)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        raise ValueError(f"{text}: not a local path")
    return Path(unquote(parts.path))


def child(location: str, *names: str) -> str:
    """``location`` (a URI) with ``names`` appended as path segments."""
    return "/".join([location.rstrip("/"), *names])


def relative(location: str, root: str) -> str:
    """``location``'s path below ``root`` (both URIs, as Spark or ``to_uri`` spell them);
    ``.`` for the root itself."""
    a, b = _comparable(location), _comparable(root)
    if a == b:
        return "."
    if not a.startswith(b + "/"):
        raise ValueError(f"{location} is not below {root}")
    return a[len(b) + 1 :]


def _comparable(location: str) -> str:
    if is_local(location):
        return local_path(location).as_posix()
    parts = urlsplit(location)
    return f"{parts.scheme.lower()}://{parts.netloc}{unquote(parts.path).rstrip('/')}"


def arrow_fs(location: str | Path) -> tuple[Any, str]:
    """``(pyarrow filesystem, path in it)`` for ``location``: the local filesystem for
    a path or ``file:`` URI, else pyarrow's own for the URI's scheme (s3a:// as s3://,
    hdfs:// through libhdfs, abfss:// as Azure's). Credentials come from the
    filesystem's usual places (the environment, ~/.aws...), not from Spark's
    configuration."""
    from pyarrow import fs

    if is_local(location):
        return fs.LocalFileSystem(), local_path(location).as_posix()
    text = str(location)
    kind = scheme(text)
    if kind in _ARROW_SCHEMES:
        text = _ARROW_SCHEMES[kind] + text[len(kind) :]
    try:
        filesystem, path = fs.FileSystem.from_uri(text)
    except Exception as error:  # pyarrow's errors share no root: say which URI and why
        why = (str(error).splitlines() or [type(error).__name__])[0]  # not libhdfs's search
        raise ValueError(f"{location}: pyarrow cannot open it: {why}") from None
    return filesystem, path


def arrow_opens(location: str | Path) -> bool:
    """Whether pyarrow opens ``location`` here (``arrow_fs`` finds its filesystem)."""
    try:
        arrow_fs(location)
    except ValueError:
        return False
    return True


#: A path segment with a glob in it (Hadoop's and Python's alike: ``*``, ``?``, ``[``, ``{``).
_GLOB = re.compile(r"[*?\[{]")


def is_glob(location: str | Path) -> bool:
    """Whether ``location`` (a path or URI) is a pattern rather than one directory: it
    has a glob character, and is not, as written, a local path that exists (a directory
    may be called ``runs[1]``)."""
    text = str(location)
    if not _GLOB.search(text):
        return False
    return not (is_local(text) and local_path(text).exists())


def glob_base(location: str) -> str:
    """The directories of ``location`` before its first segment with a glob in it."""
    head, _, _ = location.partition(_GLOB.search(location)[0])  # type: ignore[index]
    return head.rsplit("/", 1)[0] or "/"


__all__ = [
    "arrow_fs",
    "arrow_opens",
    "child",
    "glob_base",
    "is_glob",
    "is_local",
    "local_path",
    "relative",
    "scheme",
    "to_uri",
]
