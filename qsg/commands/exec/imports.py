"""``import pymqi`` and ``import ibmmq`` resolving to ``qsg.pymqi`` while a program runs.

A finder first on ``sys.meta_path`` maps ``pymqi``, ``ibmmq`` and their submodules
(``pymqi.CMQC``, ``ibmmq.CMQCFC``...) to the same modules under ``qsg.pymqi``. It comes
before the path finders, so a real pymqi installed in the environment is not found;
modules of that name already imported are set aside for the run and put back after it.
Nothing installed is changed.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType

#: The names a program imports pymqi by: pymqi's own and IBM's successor package's.
ALIASES = ("pymqi", "ibmmq")
TARGET = "qsg.pymqi"


class _Alias(importlib.abc.Loader):
    """Loads an alias as the module it stands for (the very same module object)."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        pass  # already executed under its own name


class PymqiFinder(importlib.abc.MetaPathFinder):
    """Finds ``pymqi[.x]`` and ``ibmmq[.x]`` as ``qsg.pymqi[.x]``."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        head, dot, tail = fullname.partition(".")
        if head not in ALIASES:
            return None
        real = TARGET + dot + tail
        if importlib.util.find_spec(real) is None:
            return None  # ``import pymqi.nothing``: ModuleNotFoundError, as usual
        return importlib.util.spec_from_loader(fullname, _Alias(real))


def _aliased(name: str) -> bool:
    return name.partition(".")[0] in ALIASES


@contextmanager
def pymqi_aliases() -> Iterator[None]:
    """The finder for the block; ``sys.modules`` as it was afterwards."""
    finder = PymqiFinder()
    set_aside = {name: module for name, module in sys.modules.items() if _aliased(name)}
    for name in set_aside:
        del sys.modules[name]
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if _aliased(n)]:
            del sys.modules[name]
        sys.modules.update(set_aside)


__all__ = ["ALIASES", "PymqiFinder", "pymqi_aliases"]
