"""nerscore: fast, reference-exact scoring of named-entity recognition output.

The public names are listed once, in ``__init__.pyi`` (which type checkers
read); this module reads that list and imports each name on first use
(PEP 562), so ``import nerscore`` and the command line start quickly.
Modules that moved keep their old import path for one release, with a
:class:`DeprecationWarning` (:mod:`nerscore._moved`).
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from nerscore import _moved
from nerscore._version import __version__ as __version__


def _read_exports() -> dict[str, str]:
    """Public name -> module that defines it, from the ``from M import (X as X, ...)`` blocks.

    A line parser rather than :mod:`ast`, which alone would double the import
    time; ``tests/test_docstrings.py`` checks it against :mod:`ast`.
    """
    exports: dict[str, str] = {}
    module = ""
    with open(os.path.join(os.path.dirname(__file__), "__init__.pyi"), encoding="utf-8") as fh:
        for line in fh:
            words = line.replace("(", " ").replace(")", " ").replace(",", " ").split()
            if words[:1] == ["from"] and "import" in words:
                module = words[1]
                words = words[words.index("import") + 1:]
            for i in range(1, len(words) - 1):
                if words[i] == "as" and module:
                    exports[words[i + 1]] = module
    return exports


_EXPORTS = _read_exports()
__all__ = sorted(_EXPORTS)
_moved.install()


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'nerscore' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
