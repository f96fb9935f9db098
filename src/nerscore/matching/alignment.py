"""The result every matcher returns: counts plus which gold went with which prediction."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.values.counts import Counts
from nerscore.values.fragments import same_fragments
from nerscore.values.spans import EntityColumns

__all__ = ["Alignment", "MatchResult"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Alignment:
    """Pairs of gold and predicted rows, plus the unpaired rows of both sides.

    Attributes
    ----------
    gold, pred : EntityColumns
        Both sides, re-coded against one label vocabulary.
    pairs_gold, pairs_pred : array of int
        Row indices of each pair (same length).
    credit : array of float
        The credit each pair earned (1.0 for a full match).
    missed, spurious : array of int
        Gold rows with no partner; predicted rows with no partner.
    """

    gold: EntityColumns
    pred: EntityColumns
    pairs_gold: IntArray
    pairs_pred: IntArray
    credit: FloatArray
    missed: IntArray
    spurious: IntArray

    @property
    def same_label(self) -> npt.NDArray[np.bool_]:
        """For each pair: labels equal."""
        return np.asarray(
            self.gold.label[self.pairs_gold] == self.pred.label[self.pairs_pred]
        )

    @property
    def same_bounds(self) -> npt.NDArray[np.bool_]:
        """For each pair: offsets equal (the same fragments, for discontinuous entities)."""
        return same_fragments(self.gold, self.pairs_gold, self.pred, self.pairs_pred)


@dataclass(frozen=True, eq=False)
class MatchResult:
    """What a matcher returns: mergeable counts and the alignment behind them.

    ``alignment`` is None for matchers that do not pair entities (``token``).
    ``extra`` holds matcher-specific, JSON-safe results that a report shows
    (e.g. SemEval's per-schema tables under ``"schemas"``).
    """

    counts: Counts
    alignment: Alignment | None
    extra: Mapping[str, Any] = field(default_factory=dict)
