"""Matchers: each turns gold and predicted entity columns into counts and an alignment.

Every matcher has the signature ``matcher(gold, pred, **options) -> MatchResult``
and is registered by name in :data:`MATCHERS` (imported on first use).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from nerscore.matching.alignment import Alignment, MatchResult

__all__ = ["MATCHERS", "Alignment", "MatchResult", "get_matcher"]

#: name -> "module:function" of every entity matcher.
MATCHERS: dict[str, str] = {
    "exact": "nerscore.matching.exact:match_exact",
    "semeval": "nerscore.matching.semeval:match_semeval",
    "overlap": "nerscore.matching.overlap:match_overlap",
    "threshold": "nerscore.matching.threshold:match_threshold",
}


def get_matcher(name: str) -> Callable[..., MatchResult]:
    """The matcher registered as ``name``.

    Raises
    ------
    ValueError
        Listing the valid names.
    """
    if name not in MATCHERS:
        valid = ", ".join(repr(n) for n in [*MATCHERS, "token"])
        raise ValueError(f"Expected `match` to be one of {valid}; got {name!r}.")
    module, func = MATCHERS[name].split(":")
    fn: Any = getattr(importlib.import_module(module), func)
    return fn  # type: ignore[no-any-return]
