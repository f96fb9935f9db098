"""The report: results as data; rendering lives in sibling modules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nerscore.counts import Counts

if TYPE_CHECKING:
    from nerscore.analysis import ErrorRecord
    from nerscore.confusion import ConfusionMatrix

__all__ = ["Report", "Row"]


@dataclass(frozen=True)
class Row:
    """Scores of one label or one average, with the counts behind them."""

    precision: float
    recall: float
    f1: float
    fbeta: float
    tp: float
    n_pred: int
    n_gold: int

    def to_dict(self) -> dict[str, float | int]:
        """Plain JSON-safe numbers."""
        return {
            "tp": self.tp, "n_pred": self.n_pred, "n_gold": self.n_gold,
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "fbeta": self.fbeta,
        }


@dataclass(frozen=True)
class Report:
    """Everything one evaluation produced, as data (SPEC §7.3).

    Render it with :func:`nerscore.render_text`, :func:`nerscore.render_markdown`
    or :meth:`to_json`; rendering never recomputes scores.

    Attributes
    ----------
    match : str
        The matcher (``"exact"``, ``"token"``, ...).
    options : mapping
        The matcher's options.
    scheme, mode : str or None
        Tag scheme and decoding mode (None for span inputs).
    beta : float
        F-beta's beta (``f1`` is always reported too).
    zero_division : str or float
        How undefined ratios were filled.
    labels : mapping of str to Row
        Per-label rows, sorted by label.
    micro, macro, weighted : Row
        Averages.
    counts : Counts
        The mergeable counts every number above was reduced from.
    accuracy : float or None
        Token accuracy (tag inputs).
    n_sequences, n_tokens : int or None
        Input sizes.
    notes : tuple of str
        Everything that was repaired, skipped or differs from a reference.
    version : str
        nerscore version.
    extra : mapping
        Matcher-specific results (e.g. SemEval's ``"schemas"``), JSON-safe.
    alignment : Alignment or None
        Which gold went with which prediction (not serialised).
    doc_ids, texts : list or None
        Document ids and texts of span inputs, for error listings (not serialised).
    """

    match: str
    options: Mapping[str, Any]
    scheme: str | None
    mode: str | None
    beta: float
    zero_division: str | float
    labels: Mapping[str, Row]
    micro: Row
    macro: Row
    weighted: Row
    counts: Counts
    accuracy: float | None = None
    n_sequences: int | None = None
    n_tokens: int | None = None
    notes: tuple[str, ...] = ()
    version: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    alignment: Any = field(default=None, repr=False, compare=False)
    doc_ids: Any = field(default=None, repr=False, compare=False)
    texts: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-safe dictionary of the README's ``format_version: 1`` contract."""
        from nerscore.report.json import report_to_dict

        return report_to_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as a JSON string."""
        from nerscore.report.json import report_to_json

        return report_to_json(self, indent=indent)

    def errors(self, *, texts: Any = None) -> list[ErrorRecord]:
        """Every entity error, from the stored entities (no rescoring).

        See :func:`nerscore.analysis.errors_from_report`; ``texts`` (one text
        or token list per sequence) defaults to :attr:`texts`.
        """
        from nerscore.analysis import errors_from_report

        return errors_from_report(self, texts=texts)

    def confusion(self) -> ConfusionMatrix:
        """The entity confusion matrix, from the stored alignment (no rescoring).

        See :func:`nerscore.confusion.confusion_from_report`.
        """
        from nerscore.confusion import confusion_from_report

        return confusion_from_report(self)

    def __rich__(self) -> Any:
        """A rich table (used by ``rich.print``; rich is imported only here)."""
        from nerscore.report.text import render_rich

        return render_rich(self)
