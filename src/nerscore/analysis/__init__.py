"""Analysis: why a model errs and how sure the scores are.

Error listings (:mod:`~nerscore.analysis.errors`), the entity confusion
matrix (:mod:`~nerscore.analysis.confusion`), breakdowns
(:mod:`~nerscore.analysis.breakdowns`), dataset diagnostics
(:mod:`~nerscore.analysis.diagnostics`, :mod:`~nerscore.analysis.findings`)
and comparisons between systems (:mod:`~nerscore.analysis.significance`).

The names that lived in the module ``nerscore.analysis`` before it became
this package are still found here, with a :class:`DeprecationWarning`; they
live in :mod:`nerscore.analysis.errors`.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    errors = importlib.import_module("nerscore.analysis.errors")
    if name in getattr(errors, "__all__", ()):
        warnings.warn(f"nerscore.analysis.{name} has moved to nerscore.analysis.errors; import "
                      "it from nerscore. The old path goes in the next release.",
                      DeprecationWarning, stacklevel=2)
        return getattr(errors, name)
    raise AttributeError(f"module 'nerscore.analysis' has no attribute {name!r}")
