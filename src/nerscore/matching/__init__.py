"""Matchers: each turns gold and predicted entities into counts and an alignment.

Every matcher is one module with one registry entry (``MATCHER``), listed by
name in :data:`MATCHERS` and looked up with :func:`get_matcher`; see
:mod:`nerscore.matching.registry`.
"""

from __future__ import annotations

from nerscore.matching.alignment import Alignment, MatchResult
from nerscore.matching.registry import MATCHERS, Matcher, Option, get_matcher, matcher_names

__all__ = ["MATCHERS", "Alignment", "MatchResult", "Matcher", "Option", "get_matcher",
           "matcher_names"]
