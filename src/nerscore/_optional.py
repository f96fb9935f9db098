"""Optional dependencies, imported only where used, with an install hint when missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from nerscore.errors import MissingDependencyError

__all__ = ["require"]


def require(module: str, *, extra: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` naming the extra that installs it.

    Examples
    --------
    >>> require("not_a_module_nerscore_knows", extra="torch")
    Traceback (most recent call last):
    ...
    nerscore.errors.MissingDependencyError: This feature of nerscore requires not_a_module_nerscore_knows; install with: pip install 'nerscore[torch]'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise MissingDependencyError(
            f"This feature of nerscore requires {top}; install with: "
            f"pip install 'nerscore[{extra}]'"
        ) from exc
