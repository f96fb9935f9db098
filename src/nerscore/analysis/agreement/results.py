"""The results of :func:`nerscore.agreement`: frozen values, rendered elsewhere (render/agreement.py)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from nerscore.analysis.significance.results import Estimate

__all__ = ["Agreement", "Disagreement", "DocumentAgreement", "PairwiseF1", "TokenAgreement",
           "TokenLevel"]

Matrix = tuple[tuple[float, ...], ...]


def json_float(x: float) -> float | None:
    """``x``, or None for NaN (JSON has no NaN)."""
    return None if math.isnan(x) else x


def _matrix(m: Matrix) -> list[list[float | None]]:
    return [[json_float(x) for x in row] for row in m]


def _off_diagonal(m: Matrix, symmetric: bool) -> list[float]:
    n = len(m)
    if symmetric:
        return [m[i][j] for i in range(n) for j in range(i + 1, n)]
    return [m[i][j] for i in range(n) for j in range(n) if i != j]


def mean_sd(values: list[float]) -> tuple[float, float]:
    """Mean and (population) standard deviation; NaN if any value is NaN or there is none."""
    if not values or any(math.isnan(v) for v in values):
        return float("nan"), float("nan")
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


@dataclass(frozen=True)
class PairwiseF1:
    """Entity F1 of every pair of annotators under one matcher.

    Attributes
    ----------
    names : tuple of str
        The annotators (rows and columns).
    matrix : tuple of tuple of float
        ``matrix[i][j]``: micro F1 with annotator ``i`` as the reference and
        ``j`` as the prediction (1 on the diagonal; NaN when neither marked an
        entity in their common documents).
    per_label : mapping of str to matrix
        The same per label.
    symmetric : bool
        Whether the matcher's F1 does not depend on which side is the
        reference; the matrix is then symmetric and each pair counts once.
    """

    names: tuple[str, ...]
    matrix: Matrix
    per_label: Mapping[str, Matrix]
    symmetric: bool

    def pairs(self, label: str | None = None) -> list[float]:
        """The F1 of every pair (each ordered pair when not symmetric)."""
        return _off_diagonal(self.matrix if label is None else self.per_label[label],
                             self.symmetric)

    def mean(self, label: str | None = None) -> float:
        """The mean pairwise F1 (of one label)."""
        return mean_sd(self.pairs(label))[0]

    def sd(self, label: str | None = None) -> float:
        """The standard deviation of the pairwise F1 (of one label)."""
        return mean_sd(self.pairs(label))[1]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "symmetric": self.symmetric,
            "matrix": _matrix(self.matrix),
            "mean": json_float(self.mean()), "sd": json_float(self.sd()),
            "per_label": {lab: {"matrix": _matrix(m), "mean": json_float(self.mean(lab)),
                                "sd": json_float(self.sd(lab))}
                          for lab, m in self.per_label.items()},
        }


@dataclass(frozen=True)
class TokenAgreement:
    """Token-level chance-corrected agreement over one set of tokens.

    Attributes
    ----------
    cohen : tuple of tuple of float
        Cohen's kappa of every pair (symmetric; 1 on the diagonal), over the
        tokens of the documents both annotated.
    fleiss : float
        Fleiss' kappa over the tokens of the documents every annotator
        annotated (NaN when there are none).
    alpha : float
        Krippendorff's alpha (nominal) over every token, missing annotations
        allowed.
    n_tokens : int
        Tokens of the set that two or more annotators annotated: those the
        coefficients are computed on (alpha and Cohen's kappa of some pair;
        Fleiss' kappa takes those every annotator annotated). A token of a
        document only one annotator has is not counted.
    """

    cohen: Matrix
    fleiss: float
    alpha: float
    n_tokens: int

    @property
    def mean_cohen(self) -> float:
        """The mean pairwise Cohen's kappa."""
        return mean_sd(_off_diagonal(self.cohen, True))[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"cohen": _matrix(self.cohen), "mean_cohen": json_float(self.mean_cohen),
                "fleiss": json_float(self.fleiss), "alpha": json_float(self.alpha),
                "n_tokens": self.n_tokens}


@dataclass(frozen=True)
class TokenLevel:
    """Token-level agreement: overall (multi-class) and per label (one-vs-rest).

    Attributes
    ----------
    units : str
        What the tokens are: ``"tokens"`` (tag input), ``"<tokenizer> tokens"``
        or ``"offsets"`` (span documents without text).
    overall : mapping of str to TokenAgreement, optional
        ``{"all": ..., "labelled": ...}``; None when some token holds two labels.
    reason : str
        Why ``overall`` is None (empty otherwise).
    per_label : mapping of str to mapping of str to TokenAgreement
        ``{label: {"all": ..., "labelled": ...}}``.
    f1 : mapping of str to matrix
        Token-level F1 of every pair per label (a token counted once per label).
    documents : mapping of str to (float, float)
        Per document, the mean and SD over the pairs of their token-level F1
        (all labels).
    """

    units: str
    overall: Mapping[str, TokenAgreement] | None
    reason: str
    per_label: Mapping[str, Mapping[str, TokenAgreement]]
    f1: Mapping[str, Matrix]
    documents: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "units": self.units,
            "overall": None if self.overall is None else {
                k: v.to_dict() for k, v in self.overall.items()},
            "reason": self.reason,
            "per_label": {lab: {k: v.to_dict() for k, v in d.items()}
                          for lab, d in self.per_label.items()},
            "f1": {lab: _matrix(m) for lab, m in self.f1.items()},
            "documents": {d: {"mean": json_float(m), "sd": json_float(s)}
                          for d, (m, s) in self.documents.items()},
        }


@dataclass(frozen=True)
class DocumentAgreement:
    """Pairwise F1 within one document.

    Attributes
    ----------
    document : str
        Its id (or position).
    f1 : mapping of str to float
        ``{"A/B": F1}`` for every pair that both annotated it.
    n_entities : int
        Entities all its annotators marked in it.
    mean, sd : float
        Mean and standard deviation of ``f1`` over the pairs (NaN when one
        is NaN: a pair with no entity in it).
    """

    document: str
    f1: Mapping[str, float]
    n_entities: int
    mean: float
    sd: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"document": self.document, "mean": json_float(self.mean),
                "sd": json_float(self.sd),
                "f1": {k: json_float(v) for k, v in self.f1.items()},
                "n_entities": self.n_entities}


@dataclass(frozen=True)
class Disagreement:
    """Overlapping entities that not every annotator of the document marked alike.

    Attributes
    ----------
    document : str
        Its id (or position).
    start, end : int
        The extent of the overlapping entities (tokens, or characters).
    kind : str
        ``"boundary"`` (the annotators who marked something differ in bounds),
        ``"label"`` (same bounds, different labels) or ``"missing"`` (those who
        marked it agree; others marked nothing).
    spans : mapping of str to tuple
        Per annotator of the document, its ``(start, end, label)`` entities here.
    """

    document: str
    start: int
    end: int
    kind: str
    spans: Mapping[str, tuple[tuple[int, int, str], ...]]

    @property
    def missing_by(self) -> tuple[str, ...]:
        """The annotators who marked nothing here."""
        return tuple(n for n, s in self.spans.items() if not s)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {"document": self.document, "start": self.start, "end": self.end,
                "kind": self.kind,
                "spans": {n: [list(s) for s in v] for n, v in self.spans.items()}}


@dataclass(frozen=True)
class Agreement:
    """Agreement between annotators (docs/agreement.md).

    Attributes
    ----------
    names : tuple of str
        The annotators.
    match : str
        The matcher of the entity F1.
    options : mapping
        Its resolved options.
    n_documents : int
        Joined documents (sentences, for tag input).
    f1 : PairwiseF1
        Pairwise entity F1.
    tokens : TokenLevel
        Token-level kappa and alpha.
    documents : tuple of DocumentAgreement
        Per document two or more annotators annotated, least agreed first (a
        document only one annotator has is in no pair, so it is not listed).
    disagreements : tuple of Disagreement
        In document order.
    intervals : mapping of str to Estimate
        Bootstrap intervals over documents (sentences, for tag input) of
        ``"mean_f1"`` and ``"alpha"``.
    level, n_resamples, seed :
        The bootstrap's settings.
    notes : tuple of str
        Documents some annotators lack, and other remarks.
    texts : mapping of str to (str or list of str), optional
        Per document, its text or tokens (for showing disagreements in context).
    unit : str
        What a document is, as output and notes name it: ``"sentence"`` for
        tag input (every sentence is a unit of agreement), ``"document"``
        otherwise.
    """

    render_kind: ClassVar[str] = "agreement"

    names: tuple[str, ...]
    match: str
    options: Mapping[str, Any]
    n_documents: int
    f1: PairwiseF1
    tokens: TokenLevel
    documents: tuple[DocumentAgreement, ...]
    disagreements: tuple[Disagreement, ...]
    intervals: Mapping[str, Estimate]
    level: float
    n_resamples: int
    seed: int | None
    notes: tuple[str, ...] = ()
    texts: Mapping[str, Any] | None = field(default=None, repr=False)
    unit: str = "document"

    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-safe data (the ``json`` format)."""
        kinds: dict[str, int] = {}
        for d in self.disagreements:
            kinds[d.kind] = kinds.get(d.kind, 0) + 1
        return {
            "annotators": list(self.names), "match": self.match, "options": dict(self.options),
            "n_documents": self.n_documents, "unit": self.unit,
            "f1": self.f1.to_dict(), "tokens": self.tokens.to_dict(),
            "intervals": {k: v.to_dict() for k, v in self.intervals.items()},
            "bootstrap": {"level": self.level, "n_resamples": self.n_resamples,
                          "seed": self.seed},
            "documents": [d.to_dict() for d in self.documents],
            "disagreements": {"counts": kinds,
                              "items": [d.to_dict() for d in self.disagreements]},
            "notes": list(self.notes),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)
