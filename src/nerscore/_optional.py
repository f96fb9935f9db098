"""Optional dependencies, imported only where used, with an install hint when missing."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, *, extra: str) -> ModuleType:
    """Import ``module`` or raise ImportError saying which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise ImportError(
            f"This feature of nerscore requires {top}; install with: "
            f"pip install 'nerscore[{extra}]'"
        ) from exc
