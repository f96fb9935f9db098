"""A stateful scorer: feed batches with ``update``, read scores with ``compute``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nerscore.counts import Counts
from nerscore.metrics import build_report, count_matches
from nerscore.report._model import Report
from nerscore.schemes import Mode, Scheme

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
        **options: Any,
    ) -> None:
        self._kw: dict[str, Any] = {"scheme": scheme, "mode": mode, "match": match, **options}
        self._beta = beta
        self._zero_division = zero_division
        self._labels = labels
        self.counts = Counts()
        self.n_sequences = 0

    def update(self, y_true: object, y_pred: object) -> None:
        """Add one batch's counts."""
        self.counts = self.counts + count_matches(y_true, y_pred, **self._kw)
        self.n_sequences += len(y_true) if isinstance(y_true, list) else 0

    def compute(self) -> Report:
        """The report of everything seen so far."""
        kw = dict(self._kw)
        scheme = kw.pop("scheme")
        mode = Mode.parse(kw.pop("mode"), name="mode").value
        match = kw.pop("match")
        for k in ("suffix", "delimiter", "outside"):
            kw.pop(k, None)
        return build_report(
            self.counts, match=match, options=kw,
            scheme=None if scheme is None else Scheme.parse(scheme, name="scheme").value,
            mode=mode, beta=self._beta, zero_division=self._zero_division,
            labels=self._labels, n_sequences=self.n_sequences,
            n_tokens=self.counts.tokens if self.counts.tokens else None,
        )

    def reset(self) -> None:
        """Forget everything seen."""
        self.counts = Counts()
        self.n_sequences = 0

    def __add__(self, other: EntityScorer) -> EntityScorer:
        out = EntityScorer(beta=self._beta, zero_division=self._zero_division,
                           labels=self._labels, **self._kw)
        out.counts = self.counts + other.counts
        out.n_sequences = self.n_sequences + other.n_sequences
        return out
