"""The report: results as data; rendering lives in sibling modules."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from nerscore.values.counts import Counts
from nerscore.values.selection import Selection, min_score_note

__all__ = ["FORMAT_VERSION", "Report", "Row", "entity_notes", "entity_summary"]

#: Version of the JSON form of :meth:`Report.to_dict`.
FORMAT_VERSION = 1


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


@dataclass(frozen=True)
class Row:
    """Scores of one label or one average, with the counts behind them.

    ``tp`` is fractional where partial credit is given (``match="overlap"``);
    :attr:`fp` and :attr:`fn` are derived from it, so they are too.

    Examples
    --------
    >>> row = Row(0.5, 1.0, 2 / 3, 2 / 3, tp=1, n_pred=2, n_gold=1)
    >>> row.tp, row.fp, row.fn
    (1, 1, 0)
    """

    precision: float
    recall: float
    f1: float
    fbeta: float
    tp: float
    n_pred: int
    n_gold: int

    @property
    def fp(self) -> float:
        """False positives: predictions minus true positives (``n_pred - tp``)."""
        return self.n_pred - self.tp

    @property
    def fn(self) -> float:
        """False negatives: gold entities minus true positives (``n_gold - tp``)."""
        return self.n_gold - self.tp

    def to_dict(self) -> dict[str, float | int]:
        """Plain JSON-safe numbers: the counts, then the scores (``docs/json.md``)."""
        return {
            "tp": self.tp, "fp": self.fp, "fn": self.fn,
            "n_pred": self.n_pred, "n_gold": self.n_gold,
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "fbeta": self.fbeta,
        }


def entity_summary(counts: Counts, selection: Selection) -> dict[str, Any]:
    """The report's ``entities``: how entities were selected and what the input held.

    Examples
    --------
    >>> from nerscore.values.counts import Counts
    >>> entity_summary(Counts(tallies={"gold_discontinuous": 2, "pred_ignored": 1}),
    ...                Selection(subset="discontinuous"))
    {'discontinuous': 'fragments', 'subset': 'discontinuous', 'gold': {'discontinuous': 2}, 'pred': {'discontinuous': 0, 'ignored': 1}, 'ignore_regions': 0}
    """
    t = counts.tallies
    return {
        "discontinuous": selection.discontinuous,
        "subset": selection.subset,
        "gold": {"discontinuous": int(t.get("gold_discontinuous", 0))},
        "pred": {"discontinuous": int(t.get("pred_discontinuous", 0)),
                 "ignored": int(t.get("pred_ignored", 0))},
        "ignore_regions": int(t.get("ignore_regions", 0)),
    } | ({} if selection.min_score is None else {
        "min_score": selection.min_score,
        "below_min_score": int(t.get("pred_below_min_score", 0))})


def entity_notes(entities: Mapping[str, Any]) -> tuple[str, ...]:
    """What :func:`entity_summary` says, as the report's notes (none when there is nothing).

    Examples
    --------
    >>> from nerscore.values.counts import Counts
    >>> for note in entity_notes(entity_summary(
    ...         Counts(tallies={"gold_discontinuous": 1, "ignore_regions": 2, "pred_ignored": 3}),
    ...         Selection(discontinuous="extent"))):
    ...     print(note)
    Discontinuous entities (two or more fragments): 1 gold, 0 predicted; read as their extents (discontinuous='extent').
    Ignore regions: 2 in the gold documents; 3 predictions overlapping them were removed (neither true nor false positives).
    """
    g, p = entities["gold"]["discontinuous"], entities["pred"]["discontinuous"]
    extent = entities["discontinuous"] == "extent"
    out = []
    if g or p or extent or entities["subset"]:
        how = ("read as their extents (discontinuous='extent')" if extent
               else "matched by their fragments")
        out.append(f"Discontinuous entities (two or more fragments): {g} gold, {p} predicted; "
                   f"{how}.")
    if entities["subset"]:
        out.append(f"Only the discontinuous entities were scored (subset="
                   f"{entities['subset']!r}).")
    regions, ignored = entities["ignore_regions"], entities["pred"]["ignored"]
    if regions or ignored:
        out.append(f"Ignore regions: {regions} in the gold documents; {ignored} prediction"
                   f"{'s' if ignored != 1 else ''} overlapping them "
                   f"{'were' if ignored != 1 else 'was'} removed (neither true nor false "
                   "positives).")
    if entities.get("min_score") is not None:
        out.append(min_score_note(entities["min_score"], entities["below_min_score"]))
    return tuple(out)


@dataclass(frozen=True)
class Report:
    """Everything one evaluation produced, as data.

    Render it with :func:`nerscore.render_text` (also ``str(report)``),
    :func:`nerscore.render_markdown`, :func:`nerscore.render_html` or
    :meth:`to_json`; rendering never recomputes scores. Error listings and the
    confusion matrix come from :func:`nerscore.errors_from_report` and
    :func:`nerscore.confusion_from_report`.

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
        Token accuracy (tag inputs); None for span inputs, and when there are no tokens
        (undefined; ``n_tokens`` is then 0 and the notes say so).
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
    entities : mapping
        Which entities were scored and what the input held
        (docs/fragments.md): ``discontinuous`` (``"fragments"`` or
        ``"extent"``), ``subset`` (None or ``"discontinuous"``), ``gold``
        (``{"discontinuous": n}``), ``pred`` (``{"discontinuous": n,
        "ignored": n}``) and ``ignore_regions``.
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
    entities: Mapping[str, Any] = field(
        default_factory=lambda: entity_summary(Counts(), Selection()))

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON-safe data (``docs/json.md``; ``nan`` becomes ``None``)."""
        out: dict[str, Any] = {
            "format_version": FORMAT_VERSION,
            "match": self.match,
            "options": dict(self.options),
            "scheme": self.scheme,
            "mode": self.mode,
            "beta": self.beta,
            "zero_division": self.zero_division,
            "overall": self.micro.to_dict(),
            "macro": self.macro.to_dict(),
            "weighted": self.weighted.to_dict(),
            "labels": {lab: row.to_dict() for lab, row in self.labels.items()},
            "accuracy": self.accuracy,
            "n_sequences": self.n_sequences,
            "n_tokens": self.n_tokens,
            "notes": list(self.notes),
            "version": self.version,
            "entities": {k: dict(v) if isinstance(v, Mapping) else v
                         for k, v in self.entities.items()},
        }
        out.update(self.extra)
        return _clean(out)  # type: ignore[no-any-return]

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def __str__(self) -> str:
        """The text table (:func:`nerscore.render_text`), so ``print(report)`` shows it."""
        from nerscore.render.text import render_text  # the one presentational hook

        return render_text(self)

    def __repr__(self) -> str:
        micro = self.micro
        return (f"Report(match={self.match!r}, labels={len(self.labels)}, "
                f"precision={micro.precision:.4f}, recall={micro.recall:.4f}, "
                f"f1={micro.f1:.4f})")

    def __rich__(self) -> Any:
        """A rich table (used by ``rich.print``; rich is imported only here)."""
        from nerscore.render.text import render_rich

        return render_rich(self)
