"""A stateful scorer: feed batches with ``update``, read scores with ``compute``."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from nerscore.matching import get_matcher
from nerscore.scoring.metrics import build_report, run_matcher
from nerscore.scoring.report import Report
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.ratios import check_beta, check_zero_division
from nerscore.values.schemes import Mode, Scheme

__all__ = ["EntityScorer"]


class EntityScorer:
    """Accumulates :class:`~nerscore.Counts` batch by batch; equals one call on all data.

    Parameters
    ----------
    scheme, mode, match, suffix, delimiter, outside, **options
        As for :func:`nerscore.count_matches`.
    beta, zero_division, labels
        As for :func:`nerscore.evaluate`, used by :meth:`compute`.

    Examples
    --------
    >>> scorer = EntityScorer(zero_division=0.0)
    >>> scorer.update([["B-PER", "O"]], [["B-PER", "O"]])
    >>> scorer.update([["B-LOC"]], [["O"]])
    >>> scorer.compute().micro.recall
    0.5
    """

    def __init__(
        self,
        *,
        scheme: str | Scheme | None = None,
        mode: str | Mode = "lenient",
        match: str = "exact",
        beta: float = 1.0,
        zero_division: Any = "warn",
        labels: Sequence[str] | None = None,
        suffix: bool = False,
        delimiter: str = "-",
        outside: str = "O",
        **options: Any,
    ) -> None:
        self._decoding = Decoding(scheme, mode, suffix, delimiter, outside)
        self._match = match
        self._options = get_matcher(match).resolve(options)
        self._beta = check_beta(beta)
        self._zero_division = check_zero_division(zero_division)
        self._labels = labels
        self.counts = Counts()
        self.n_sequences = 0

    def update(self, y_true: object, y_pred: object) -> None:
        """Add one batch's counts."""
        run = run_matcher(y_true, y_pred, self._match, self._decoding, self._options,
                          align=False)
        self.counts = self.counts + run.result.counts
        self.n_sequences += run.prep.n_sequences

    def compute(self) -> Report:
        """The report of everything seen so far."""
        return build_report(
            self.counts, match=self._match, options=self._options,
            scheme=self._decoding.scheme_name, mode=self._decoding.mode.value,
            beta=self._beta, zero_division=self._zero_division,
            labels=self._labels, n_sequences=self.n_sequences,
            n_tokens=self.counts.tokens if self.counts.tokens else None,
        )

    def reset(self) -> None:
        """Forget everything seen."""
        self.counts = Counts()
        self.n_sequences = 0

    def __add__(self, other: EntityScorer) -> EntityScorer:
        out = copy.copy(self)
        out.counts = self.counts + other.counts
        out.n_sequences = self.n_sequences + other.n_sequences
        return out
