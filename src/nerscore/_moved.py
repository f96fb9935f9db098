"""Old import paths of modules that moved into the stage folders, kept for one release.

``import nerscore.metrics`` (and every other path in :data:`MOVED`) still
works: it gives a stand-in module that forwards each attribute to the module's
new home, after one :class:`DeprecationWarning` that names the new path.
Private modules (a leading underscore) had no promise to keep and get no alias.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

__all__ = ["MOVED", "install"]

#: old module path -> the module(s) its names now live in, searched in order
MOVED: dict[str, tuple[str, ...]] = {
    "nerscore.schemes": ("nerscore.values.schemes",),
    "nerscore.decoding": ("nerscore.values.decoding",),
    "nerscore.types": ("nerscore.values.spans",),
    "nerscore.tags": ("nerscore.values.tags",),
    "nerscore.counts": ("nerscore.values.counts",),
    "nerscore.documents": ("nerscore.values.documents",),
    "nerscore.extraction": ("nerscore.decode.entities",),
    "nerscore.conversion": ("nerscore.decode.offsets",),
    "nerscore.validation": ("nerscore.decode.validation",),
    "nerscore.convert": ("nerscore.io.convert",),
    "nerscore.metrics": ("nerscore.scoring.metrics", "nerscore.scoring.counting"),
    "nerscore.reduction": ("nerscore.scoring.reduction",),
    "nerscore.scorer": ("nerscore.accumulate.scorer",),
    "nerscore.streaming": ("nerscore.accumulate.files",),
    "nerscore.confusion": ("nerscore.analysis.confusion", "nerscore.render.confusion"),
    "nerscore.breakdowns": ("nerscore.analysis.breakdowns", "nerscore.render.breakdown"),
    "nerscore.diagnostics": ("nerscore.analysis.diagnostics", "nerscore.render.diagnostics"),
    "nerscore.significance": ("nerscore.analysis.significance", "nerscore.render.significance"),
    "nerscore.significance.comparison": ("nerscore.analysis.significance.comparison",),
    "nerscore.significance.resampling": ("nerscore.analysis.significance.resampling",),
    "nerscore.significance.units": ("nerscore.analysis.significance.units",),
    "nerscore.significance.render": ("nerscore.render.significance",),
    "nerscore.report": ("nerscore.render", "nerscore.scoring.report"),
    "nerscore.report.model": ("nerscore.scoring.report",),
    "nerscore.report.text": ("nerscore.render.text",),
    "nerscore.report.html": ("nerscore.render.html",),
    "nerscore.report.seqeval": ("nerscore.render.seqeval",),
    "nerscore.report.conlleval": ("nerscore.render.conlleval",),
}


class _Moved(types.ModuleType):
    """A stand-in for a moved module: attributes come from the new modules."""

    def __init__(self, name: str, targets: Sequence[str]) -> None:
        super().__init__(name, f"Moved to {', '.join(targets)}.")
        self.__path__: list[str] = []  # a package, so that old submodule paths resolve too
        self._targets = tuple(targets)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        for target in self._targets:
            module = importlib.import_module(target)
            if hasattr(module, attr):
                return getattr(module, attr)
        raise AttributeError(f"module {self.__name__!r} (moved to {self._targets[0]}) has no "
                             f"attribute {attr!r}")

    def __dir__(self) -> list[str]:
        names: set[str] = set()
        for target in self._targets:
            names.update(dir(importlib.import_module(target)))
        return sorted(names)


class _Finder:
    """Finds old module paths on :data:`sys.meta_path` and loads their stand-ins."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self), is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _Moved(spec.name, MOVED[spec.name])

    def exec_module(self, module: types.ModuleType) -> None:
        new = MOVED[module.__name__][0]
        warnings.warn(f"{module.__name__} has moved to {new}; import the name from nerscore "
                      f"(or from {new}). The old path goes in the next release.",
                      DeprecationWarning, stacklevel=2)


_FINDER = _Finder()


def install() -> None:
    """Put the finder of old paths on :data:`sys.meta_path` (once)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
