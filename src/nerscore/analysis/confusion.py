"""Entity confusion matrix: which gold label went with which predicted label.

Rows are gold labels plus ``none``, columns predicted labels plus ``none``
(scikit-learn's orientation). Entities are paired as every analysis view
pairs them (:func:`nerscore.analysis.pairing.analysis_alignment`: the
matcher's own pairing, by exact bounds across labels for ``"exact"``, then
leftovers that overlap); a pair adds one to cell ``(gold label, predicted
label)``, an unpaired gold entity to ``(label, none)`` and an unpaired
prediction to ``(none, label)``. The error listing reads the same pairs, so
the matrix is the error listing tallied by labels, plus the exact matches on
the diagonal.

The diagonal holds the pairs whose labels agree (exact matches, and pairs
with the right label but other bounds); ``FP(L)`` is column ``L`` minus the
diagonal and ``FN(L)`` row ``L`` minus the diagonal. The layout follows the
confusion matrix of Azure AI Language custom NER
(``docs/matchers/confusion.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.pairing import analysis_alignment
from nerscore.errors import option_error
from nerscore.matching.alignment import Alignment
from nerscore.matching.registry import get_matcher
from nerscore.scoring.counting import run_matcher
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.options import OptionEnum
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import unify_labels

if TYPE_CHECKING:
    from nerscore.scoring.report import Report

__all__ = [
    "NONE",
    "ConfusionMatrix",
    "Normalize",
    "confusion_from_alignment",
    "confusion_from_report",
    "confusion_matrix",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Name of the extra row (predictions with no gold partner) and column
#: (gold entities with no predicted partner).
NONE = "none"


class Normalize(OptionEnum):
    """How :meth:`ConfusionMatrix.normalize` divides: by row, by column or by the total."""

    TRUE = "true"
    PRED = "pred"
    ALL = "all"


@dataclass(frozen=True, eq=False)
class ConfusionMatrix:
    """Counts of (gold label, predicted label) pairs, plus a ``none`` row and column.

    Parameters
    ----------
    labels : tuple of str
        The entity labels, in row and column order. Row and column
        ``len(labels)`` (the last) is ``none``.
    matrix : array of shape (n_labels + 1, n_labels + 1)
        ``matrix[i, j]``: entities of gold label ``i`` aligned with a
        prediction of label ``j``. Integers for raw counts, floats once
        normalised.
    normalized_by : {"true", "pred", "all"} or None
        None for raw counts; otherwise what :meth:`normalize` divided by.

    Examples
    --------
    >>> cm = ConfusionMatrix(("LOC", "PER"), [[1, 0, 1], [1, 2, 0], [0, 1, 0]])
    >>> cm.tp, cm.fp, cm.fn
    ({'LOC': 1, 'PER': 2}, {'LOC': 1, 'PER': 1}, {'LOC': 1, 'PER': 1})
    >>> cm.cell("PER", "LOC"), cm.cell(None, "PER")
    (1, 1)
    """

    labels: tuple[str, ...]
    matrix: npt.NDArray[Any]
    normalized_by: str | None = None

    def __post_init__(self) -> None:
        labels = tuple(self.labels)
        n = len(labels) + 1
        raw = np.asarray(self.matrix)
        if self.normalized_by is None:
            m = np.array(raw, dtype=np.int64)
            if raw.size and not np.array_equal(m, raw):
                raise ValueError(
                    "Expected a raw confusion matrix of whole counts; got fractions. "
                    "Pass `normalized_by` for a normalised matrix."
                )
        else:
            Normalize.parse(self.normalized_by, name="normalized_by")
            m = np.array(raw, dtype=np.float64)
        if m.shape != (n, n):
            raise ValueError(
                f"Expected `matrix` of shape ({n}, {n}) for {n - 1} labels plus 'none'; "
                f"got {m.shape}."
            )
        m.setflags(write=False)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "matrix", m)
        if self.normalized_by is not None:
            object.__setattr__(
                self, "normalized_by", Normalize.parse(self.normalized_by).value
            )

    def __add__(self, other: object) -> ConfusionMatrix:
        """Sum of two raw matrices over the union of their labels (sorted).

        Examples
        --------
        >>> a = ConfusionMatrix(("PER",), [[1, 0], [0, 0]])
        >>> b = ConfusionMatrix(("LOC",), [[0, 1], [2, 0]])
        >>> (a + b).labels, (a + b).matrix.tolist()
        (('LOC', 'PER'), [[0, 0, 1], [0, 1, 0], [2, 0, 0]])
        """
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        if self.normalized_by is not None or other.normalized_by is not None:
            raise ValueError("Only raw confusion matrices add up; add before normalising.")
        if self.labels == other.labels:
            return ConfusionMatrix(self.labels, self.matrix + other.matrix)
        labels = tuple(sorted(set(self.labels) | set(other.labels)))
        n = len(labels)
        out = np.zeros((n + 1, n + 1), dtype=np.int64)
        for cm in (self, other):
            pos = np.array([labels.index(lab) for lab in cm.labels] + [n], dtype=np.int64)
            out[np.ix_(pos, pos)] += cm.matrix
        return ConfusionMatrix(labels, out)

    __radd__ = __add__

    def _index(self, label: str | None) -> int:
        if label is None:
            return len(self.labels)
        if label in self.labels:
            return self.labels.index(label)
        if label == NONE:
            return len(self.labels)
        valid = ", ".join(repr(x) for x in self.labels)
        raise KeyError(f"Unknown label {label!r}; the labels are {valid} and None ('none').")

    def cell(self, gold: str | None, pred: str | None) -> Any:
        """The count in row ``gold`` and column ``pred`` (None or ``"none"`` for ``none``).

        Parameters
        ----------
        gold, pred : str or None
            Gold and predicted label; None selects the ``none`` row or column.

        Returns
        -------
        int or float

        Raises
        ------
        KeyError
            For a label that is not in :attr:`labels`.
        """
        return self.matrix[self._index(gold), self._index(pred)].item()

    def _raw(self, what: str) -> IntArray:
        if self.normalized_by is not None:
            raise ValueError(
                f"`{what}` needs raw counts; this matrix is normalised by "
                f"{self.normalized_by!r}. Use the raw matrix it came from."
            )
        return self.matrix

    def _per_label(self, values: npt.NDArray[Any]) -> dict[str, int]:
        return dict(zip(self.labels, values.tolist(), strict=True))

    @property
    def tp(self) -> dict[str, int]:
        """Pairs per label whose labels agree: the diagonal (whatever their bounds)."""
        m = self._raw("tp")
        return self._per_label(np.diagonal(m)[:-1])

    @property
    def fp(self) -> dict[str, int]:
        """Predictions per label not paired with a gold entity of their label: column minus diagonal."""
        m = self._raw("fp")
        return self._per_label((m.sum(axis=0) - np.diagonal(m))[:-1])

    @property
    def fn(self) -> dict[str, int]:
        """Gold entities per label not paired with a prediction of their label: row minus diagonal."""
        m = self._raw("fn")
        return self._per_label((m.sum(axis=1) - np.diagonal(m))[:-1])

    def to_counts(self) -> Counts:
        """The per-label counts the matrix implies, for :func:`nerscore.reduce_counts`.

        Returns
        -------
        Counts
            ``tp`` = diagonal, ``n_pred`` = column sums, ``n_gold`` = row sums.

        Examples
        --------
        >>> cm = ConfusionMatrix(("LOC",), [[1, 1], [2, 0]])
        >>> cm.to_counts().to_dict()
        {'LOC': {'tp': 1, 'n_pred': 3, 'n_gold': 2}}
        """
        m = self._raw("to_counts")
        return Counts(
            self.labels, np.diagonal(m)[:-1], m.sum(axis=0)[:-1], m.sum(axis=1)[:-1]
        )

    def normalize(self, by: str | Normalize) -> ConfusionMatrix:
        """The matrix divided by its row sums, column sums or total.

        Parameters
        ----------
        by : {"true", "pred", "all"}
            ``"true"``: each row sums to 1 (share of a gold label's entities
            that went to each prediction); ``"pred"``: each column sums to 1;
            ``"all"``: the whole matrix sums to 1. A row or column with no
            entities stays all zeros.

        Returns
        -------
        ConfusionMatrix
            With float cells and :attr:`normalized_by` set.

        Raises
        ------
        ValueError
            For an unknown ``by``, or when the matrix is already normalised.

        Examples
        --------
        >>> cm = ConfusionMatrix(("LOC",), [[1, 3], [2, 0]])
        >>> cm.normalize("true").matrix.tolist()
        [[0.25, 0.75], [1.0, 0.0]]
        >>> cm.normalize("all").matrix.tolist()
        [[0.16666666666666666, 0.5], [0.3333333333333333, 0.0]]
        """
        how = Normalize.parse(by, name="by")
        m = self._raw("normalize").astype(np.float64)
        if how is Normalize.TRUE:
            denom = m.sum(axis=1, keepdims=True)
        elif how is Normalize.PRED:
            denom = m.sum(axis=0, keepdims=True)
        else:
            denom = np.full((1, 1), m.sum())
        out = np.divide(m, denom, out=np.zeros_like(m), where=denom != 0)
        return ConfusionMatrix(self.labels, out, how.value)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dictionary.

        Returns
        -------
        dict
            ``labels`` (row and column names, ``"none"`` last), ``normalized_by``,
            ``matrix`` (list of rows) and, for raw counts, ``per_label``
            ``{label: {"tp", "fp", "fn"}}``.

        Examples
        --------
        >>> ConfusionMatrix(("LOC",), [[1, 1], [2, 0]]).to_dict()
        {'labels': ['LOC', 'none'], 'normalized_by': None, 'matrix': [[1, 1], [2, 0]], \
'per_label': {'LOC': {'tp': 1, 'fp': 2, 'fn': 1}}}
        """
        out: dict[str, Any] = {
            "labels": [*self.labels, NONE],
            "normalized_by": self.normalized_by,
            "matrix": self.matrix.tolist(),
        }
        if self.normalized_by is None:
            tp, fp, fn = self.tp, self.fp, self.fn
            out["per_label"] = {
                lab: {"tp": tp[lab], "fp": fp[lab], "fn": fn[lab]} for lab in self.labels
            }
        return out


def confusion_from_alignment(alignment: Alignment) -> ConfusionMatrix:
    """Tally an alignment into a confusion matrix (no matching, no scores).

    Parameters
    ----------
    alignment : Alignment
        Pairs of gold and predicted rows. Gold rows in no pair count as
        ``(label, none)`` and predicted rows in no pair as ``(none, label)``
        (computed from the pairs, so every entity is counted once per pair
        it is in, or once if it is in none).

    Returns
    -------
    ConfusionMatrix
        Pairs count whole entities whatever their credit: with a
        boundary-tolerant alignment the diagonal counts same-label pairs,
        overlapping or not.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0], [0, 3], [2, 4], [0, 1], ("LOC", "PER"))
    >>> p = EntityColumns([0, 0], [0, 3], [2, 4], [0, 0], ("LOC", "PER"))
    >>> from nerscore.matching.exact import boundary_alignment
    >>> cm = confusion_from_alignment(boundary_alignment(g, p))
    >>> cm.matrix.tolist()
    [[1, 0, 0], [1, 0, 0], [0, 0, 0]]
    """
    gold, pred = unify_labels(alignment.gold, alignment.pred)
    n = len(gold.labels)
    pg = np.asarray(alignment.pairs_gold, dtype=np.int64)
    pp = np.asarray(alignment.pairs_pred, dtype=np.int64)
    g_free = np.ones(len(gold), dtype=bool)
    g_free[pg] = False
    p_free = np.ones(len(pred), dtype=bool)
    p_free[pp] = False
    rows = np.concatenate([
        gold.label[pg], gold.label[g_free], np.full(int(p_free.sum()), n, dtype=np.int64)
    ])
    cols = np.concatenate([
        pred.label[pp], np.full(int(g_free.sum()), n, dtype=np.int64), pred.label[p_free]
    ])
    flat = np.bincount(rows * (n + 1) + cols, minlength=(n + 1) ** 2)
    return ConfusionMatrix(gold.labels, flat.reshape(n + 1, n + 1))


def confusion_from_report(report: Report) -> ConfusionMatrix:
    """The confusion matrix of a report, from its stored alignment (no rescoring).

    The report's entities are paired as :func:`nerscore.errors_from_report`
    pairs them (:func:`nerscore.analysis.pairing.analysis_alignment`), so
    every pair of the error listing is one cell here. For ``match="exact"``
    entities with the same bounds pair across labels, so a wrong label shows
    as an off-diagonal cell; a prediction overlapping a gold entity with
    other bounds pairs with it too.

    Parameters
    ----------
    report : Report
        From :func:`nerscore.evaluate` with an entity matcher.

    Returns
    -------
    ConfusionMatrix

    Raises
    ------
    OptionError
        When the report has no alignment (``match="token"``).

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "O", "B-LOC"]], [["B-LOC", "O", "B-LOC"]],
    ...                      zero_division=0.0)
    >>> confusion_from_report(r).matrix.tolist()
    [[1, 0, 0], [1, 0, 0], [0, 0, 0]]
    """
    return confusion_from_alignment(analysis_alignment(report.match, report.alignment))


def confusion_matrix(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> ConfusionMatrix:
    """Entity confusion matrix of gold labels (rows) against predicted labels (columns).

    Parameters
    ----------
    y_true, y_pred : tag sequences, span documents, or EntityColumns
        Gold and prediction, as for :func:`nerscore.evaluate`, or both sides
        as entity columns.
    match : str
        How entities are paired before their labels are compared:
        ``"exact"`` (default): identical bounds, any label (same-label pairs
        first); or any other entity matcher (``"semeval"``, ``"overlap"``,
        ``"threshold"``), whose alignment is used as is. Either way, entities
        it left unpaired are then paired with overlapping ones, as the error
        listing pairs them (:mod:`nerscore.analysis.pairing`).
    scheme, mode, suffix, delimiter, outside
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    **options
        Options of the matcher.

    Returns
    -------
    ConfusionMatrix
        Raw counts; see :meth:`ConfusionMatrix.normalize` and
        :func:`nerscore.render_confusion`.

    Raises
    ------
    OptionError
        For an unknown matcher, a matcher that does not pair entities
        (``"token"``) or options the matcher does not take.

    Notes
    -----
    Pair ``(g, p)`` adds one to cell ``(label(g), label(p))``; an unpaired
    gold entity to ``(label, none)``; an unpaired prediction to
    ``(none, label)``. The diagonal counts pairs whose labels agree,
    ``FP(L)`` = column ``L`` minus the diagonal, ``FN(L)`` = row ``L`` minus
    the diagonal (the layout of Azure AI Language custom NER;
    ``docs/matchers/confusion.md``). With ``match="exact"`` and no boundary
    errors these equal the per-label counts of exact matching; a pair with
    the right label and other bounds (``wrong_boundary`` in the error
    listing) counts on the diagonal.

    Examples
    --------
    >>> y_true = [["B-PER", "I-PER", "O", "B-LOC"]]
    >>> y_pred = [["B-PER", "I-PER", "O", "B-PER"]]
    >>> cm = confusion_matrix(y_true, y_pred)
    >>> from nerscore import render_confusion
    >>> print(render_confusion(cm))
    gold/pred  LOC  PER  none
    LOC          0    1     0
    PER          0    1     0
    none         0    0     0
    >>> cm.tp, cm.fp, cm.fn
    ({'LOC': 0, 'PER': 1}, {'LOC': 0, 'PER': 1}, {'LOC': 1, 'PER': 0})
    """
    if not get_matcher(match).aligns:
        raise option_error("match", "a matcher that pairs entities (not 'token')", match)
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    res = run_matcher(y_true, y_pred, match, decoding, options, align=True).result
    return confusion_from_alignment(analysis_alignment(match, res.alignment))
