"""Scores per bucket of entities: by length, by document or sentence, seen or unseen in training.

One matching pass gives an alignment (which gold entity went with which
prediction, and the credit of each pair); every entity is then put in one
bucket and the alignment is tallied per bucket (``docs/diagnostics.md``):

- a gold entity counts towards ``n_gold`` of *its* bucket, and the credit of
  its pair towards ``tp`` (the recall side);
- a prediction counts towards ``n_pred`` of *its* bucket, and the credit of
  its pair towards ``tp_pred`` (the precision side).

So ``recall = tp / n_gold`` and ``precision = tp_pred / n_pred`` per bucket,
``f1`` their harmonic mean (0 when a bucket has no gold or no predicted
entity). With exact matching both members of a pair fall in the same bucket
and ``tp == tp_pred``. Every count summed over the buckets equals the overall
count of the matcher; buckets with neither gold nor predicted entities are
left out.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.surfaces import seen_flags, texts_of
from nerscore.errors import OptionError, caught_warnings, option_error, user_stacklevel
from nerscore.matching.alignment import Alignment
from nerscore.values.decoding import Decoding
from nerscore.values.ratios import check_zero_division, safe_divide
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import EntityColumns

if TYPE_CHECKING:
    from nerscore.decode.inputs import Prepared
    from nerscore.scoring.report import Report
    from nerscore.values.counts import Counts

__all__ = [
    "BY",
    "CHARACTER_EDGES",
    "TOKEN_EDGES",
    "Breakdown",
    "Bucket",
    "breakdown",
    "breakdown_from_report",
    "check_consistent",
    "prepare_one",
    "tally",
]

IntArray = npt.NDArray[np.int64]

#: The values of ``by``.
BY = ("length", "document", "seen")
#: Lower bounds of the length buckets of tag input (tokens): 1, 2, 3, 4-5, 6-10, 11+.
TOKEN_EDGES = (1, 2, 3, 4, 6, 11)
#: Lower bounds of the length buckets of span input (characters): 1-5, 6-10, 11-20, 21-50, 51+.
CHARACTER_EDGES = (1, 6, 11, 21, 51)


@dataclass(frozen=True)
class Bucket:
    """The scores of one bucket of entities.

    Attributes
    ----------
    name : str
        The bucket (``"4-5"``, a document id, ``"seen"``, ...; ``"overall"``).
    tp : int or float
        Credit of the matched gold entities of the bucket (recall side).
    tp_pred : int or float
        Credit of the matched predictions of the bucket (precision side);
        equals ``tp`` under exact matching.
    n_pred, n_gold : int
        Predicted and gold entities of the bucket.
    precision, recall, f1 : float
        ``tp_pred / n_pred``, ``tp / n_gold`` and their harmonic mean.
    """

    name: str
    tp: float
    tp_pred: float
    n_pred: int
    n_gold: int
    precision: float
    recall: float
    f1: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dictionary (NaN as None).

        Returns
        -------
        dict
        """
        return {
            "name": self.name, "tp": self.tp, "tp_pred": self.tp_pred, "n_pred": self.n_pred,
            "n_gold": self.n_gold, "precision": _json(self.precision),
            "recall": _json(self.recall), "f1": _json(self.f1),
        }


def _json(x: float) -> float | None:
    return None if math.isnan(x) else x


@dataclass(frozen=True)
class Breakdown:
    """Scores per bucket: what :func:`breakdown` returns (results only).

    Attributes
    ----------
    by : {"length", "document", "seen"}
    unit : str or None
        Unit of lengths: ``"tokens"`` (tag input) or ``"characters"`` (span
        offsets); None unless ``by="length"``.
    match : str
    options : mapping
        The matcher's effective options.
    buckets : tuple of Bucket
        Non-empty buckets, in order (lengths ascending, documents in input
        order, ``seen`` before ``unseen``).
    overall : Bucket
        All entities; each count equals the sum over the buckets.
    """

    by: str
    unit: str | None
    match: str
    options: Mapping[str, Any]
    buckets: tuple[Bucket, ...]
    overall: Bucket
    notes: tuple[str, ...] = field(default=())

    def __getitem__(self, name: str) -> Bucket:
        for b in self.buckets:
            if b.name == name:
                return b
        raise KeyError(f"No bucket {name!r}; the buckets are "
                       f"{', '.join(repr(b.name) for b in self.buckets) or 'none'}.")

    def names(self) -> list[str]:
        """The bucket names, in order."""
        return [b.name for b in self.buckets]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dictionary.

        Returns
        -------
        dict
            ``by``, ``unit``, ``match``, ``options``, ``buckets`` (a list of
            ``{"name", "tp", "tp_pred", "n_pred", "n_gold", "precision",
            "recall", "f1"}``), ``overall`` (same keys) and ``notes``.

        Examples
        --------
        >>> b = breakdown([["B-PER", "O"]], [["B-PER", "O"]])
        >>> b.to_dict()["buckets"]
        [{'name': '1', 'tp': 1, 'tp_pred': 1, 'n_pred': 1, 'n_gold': 1, 'precision': 1.0, \
'recall': 1.0, 'f1': 1.0}]
        """
        return {
            "by": self.by, "unit": self.unit, "match": self.match, "options": dict(self.options),
            "buckets": [b.to_dict() for b in self.buckets], "overall": self.overall.to_dict(),
            "notes": list(self.notes),
        }


# ------------------------------------------------------------------------------- decoding


def prepare_one(y: object, decoding: Decoding) -> Prepared:
    """Decode one corpus (gold only) through the input path of the scorers.

    The corpus is prepared against itself; span input ignores ``decoding``.
    A warning of the decoder is given once, not once per side.
    """
    import warnings

    from nerscore.decode.input_kind import input_kind
    from nerscore.decode.inputs import prepare

    if input_kind(y, y) == "spans":
        decoding = Decoding()
    with caught_warnings() as caught:
        prep = prepare(y, y, decoding)
    shown: set[str] = set()
    for w in caught:
        if str(w.message) not in shown:
            shown.add(str(w.message))
            warnings.warn(w.message, w.category, stacklevel=user_stacklevel())
    return prep


# --------------------------------------------------------------------------------- tally


def _check_edges(edges: Sequence[int]) -> tuple[int, ...]:
    e = tuple(edges)
    if not e or any(isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1
                    for x in e) or any(b <= a for a, b in itertools.pairwise(e)):
        raise option_error("edges", "increasing whole numbers >= 1 (lower bounds of buckets)",
                           edges)
    return tuple(int(x) for x in e)


def _length_names(edges: tuple[int, ...]) -> list[str]:
    names = ["0" if edges[0] == 1 else f"0-{edges[0] - 1}"]
    for a, b in zip(edges, (*edges[1:], None), strict=True):
        names.append(f"{a}+" if b is None else (str(a) if b == a + 1 else f"{a}-{b - 1}"))
    return names


def length_buckets(
    gold: EntityColumns, pred: EntityColumns, edges: tuple[int, ...]
) -> tuple[IntArray, IntArray, list[str]]:
    """Bucket of every gold and predicted row by its length (``end - start``; fragments only)."""
    bounds = np.asarray(edges, dtype=np.int64)

    def assign(c: EntityColumns) -> IntArray:
        return np.searchsorted(bounds, c.lengths(), side="right").astype(np.int64)

    return assign(gold), assign(pred), _length_names(edges)


def tally(
    alignment: Alignment, gb: IntArray, pb: IntArray, names: Sequence[str], zero_division: Any,
) -> tuple[list[Bucket], Bucket]:
    """Tally an alignment per bucket (``gb``/``pb``: bucket of every gold/predicted row)."""
    n = len(names)
    credit = np.asarray(alignment.credit, dtype=np.float64)
    n_gold = np.bincount(gb, minlength=n)
    n_pred = np.bincount(pb, minlength=n)
    tp = np.bincount(gb[alignment.pairs_gold], weights=credit, minlength=n)
    tp_pred = np.bincount(pb[alignment.pairs_pred], weights=credit, minlength=n)
    keep = np.flatnonzero((n_gold + n_pred) > 0)
    whole = bool(np.all(credit == np.round(credit)))
    rows = [(names[k], tp[k], tp_pred[k], n_pred[k], n_gold[k]) for k in keep.tolist()]
    rows.append(("overall", tp.sum(), tp_pred.sum(), n_pred.sum(), n_gold.sum()))
    labels = [r[0] for r in rows]
    t = np.array([r[1] for r in rows], dtype=np.float64)
    tpp = np.array([r[2] for r in rows], dtype=np.float64)
    npred = np.array([r[3] for r in rows], dtype=np.float64)
    ngold = np.array([r[4] for r in rows], dtype=np.float64)
    prec = safe_divide(tpp, npred, zero_division=zero_division, metric="Precision",
                       names=labels, reason="no predicted entities")
    rec = safe_divide(t, ngold, zero_division=zero_division, metric="Recall",
                      names=labels, reason="no gold entities")
    both = (npred > 0) & (ngold > 0) & (prec + rec > 0)
    f1 = np.divide(2 * prec * rec, prec + rec, out=np.zeros_like(prec), where=both)

    def num(x: float) -> float:
        return round(x) if whole else float(x)

    out = [Bucket(r[0], num(r[1]), num(r[2]), int(r[3]), int(r[4]), float(p), float(c), float(f))
           for r, p, c, f in zip(rows, prec.tolist(), rec.tolist(), f1.tolist(), strict=True)]
    return out[:-1], out[-1]


def check_consistent(alignment: Alignment, counts: Counts, match: str) -> None:
    """Refuse a matcher whose counts do not follow its alignment (they cannot be split)."""
    total = counts.total()
    if (len(alignment.gold) != total.n_gold or len(alignment.pred) != total.n_pred
            or not math.isclose(float(np.sum(alignment.credit)), float(total.tp),
                                abs_tol=1e-9)):
        raise OptionError(
            f"The counts of match={match!r} with these options do not follow its entity "
            "alignment (e.g. compat='kaggle'), so they cannot be split into buckets; use the "
            "matcher without compat.", option="match",
        )


def _buckets_for(
    by: str, alignment: Alignment, *, edges: Sequence[int] | None, tags: bool,
    doc_ids: Sequence[Any] | None, n_sequences: int,
    seen: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None,
) -> tuple[IntArray, IntArray, list[str], str | None]:
    gold, pred = alignment.gold, alignment.pred
    if by == "length":
        e = _check_edges(edges if edges is not None else (TOKEN_EDGES if tags
                                                           else CHARACTER_EDGES))
        gb, pb, names = length_buckets(gold, pred, e)
        return gb, pb, names, "tokens" if tags else "characters"
    if by == "document":
        n = max(n_sequences, gold.n_sequences, pred.n_sequences,
                int(gold.seq.max(initial=-1)) + 1, int(pred.seq.max(initial=-1)) + 1)
        if doc_ids is not None and len(doc_ids) == n:
            names = [str(d) for d in doc_ids]
        else:
            names = [str(k) for k in range(n)]
        return gold.seq, pred.seq, names, None
    assert seen is not None
    g_seen, p_seen = seen
    return ((~g_seen).astype(np.int64), (~p_seen).astype(np.int64), ["seen", "unseen"], None)


def _check_by(by: str) -> str:
    if by not in BY:
        raise option_error("by", "one of 'length', 'document' or 'seen'", by)
    return by


def breakdown(
    y_true: object,
    y_pred: object,
    *,
    by: str = "length",
    train: object = None,
    match: str = "exact",
    edges: Sequence[int] | None = None,
    texts: Sequence[Any] | None = None,
    train_texts: Sequence[Any] | None = None,
    zero_division: Any = "warn",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> Breakdown:
    """Precision, recall and F1 per bucket of entities, from one matching pass.

    Parameters
    ----------
    y_true, y_pred : tag sequences, EncodedTags, or span documents
        Gold and prediction, as for :func:`nerscore.evaluate`.
    by : {"length", "document", "seen"}
        ``"length"``: entity length in tokens (tag input) or characters (span
        input), buckets 1, 2, 3, 4-5, 6-10, 11+ tokens or 1-5, 6-10, 11-20,
        21-50, 51+ characters; ``"document"``: one bucket per document (its
        id) or sentence (its index); ``"seen"``: whether the entity's
        ``(surface form, label)`` occurs in ``train``.
    train : tag sequences or span documents, optional
        The training data; required by ``by="seen"``.
    match : str
        An entity matcher (``"exact"``, ``"semeval"``, ``"overlap"``,
        ``"threshold"``).
    edges : sequence of int, optional
        Lower bounds of the length buckets (default as above).
    texts, train_texts : sequence, optional
        One text (str) or token list per sequence of the test or training
        data, for surface forms; default: the texts of span documents, or the
        tokens of tags read from a file.
    zero_division : "warn", 0.0, 1.0 or nan
        Value of an undefined precision or recall.
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    **options
        The matcher's options.

    Returns
    -------
    Breakdown

    Raises
    ------
    OptionError
        For an unknown ``by``, ``by="seen"`` without ``train``, or a matcher
        without an alignment.
    ValueError
        When ``by="seen"`` and surface forms cannot be read (no texts).

    Examples
    --------
    >>> y_true = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "I-ORG", "O"]]
    >>> y_pred = [["B-PER", "I-PER", "O", "O"], ["B-ORG", "I-ORG", "I-ORG", "O"]]
    >>> b = breakdown(y_true, y_pred, by="length", zero_division=0.0)
    >>> [(x.name, x.tp, x.n_gold, x.recall) for x in b.buckets]
    [('1', 0, 1, 0.0), ('2', 1, 1, 1.0), ('3', 1, 1, 1.0)]
    >>> b.overall.tp, b.overall.n_gold
    (2, 3)
    """
    from nerscore.scoring.counting import run_matcher

    _check_by(by)
    zd = check_zero_division(zero_division)
    if by == "seen" and train is None:
        raise OptionError("by='seen' needs the training data: pass train=...", option="train")
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    run = run_matcher(y_true, y_pred, match, decoding, options, align=True)
    alignment = run.result.alignment
    if alignment is None:
        raise option_error("match", "a matcher that pairs entities (not 'token')", match)
    check_consistent(alignment, run.result.counts, match)
    seen = None
    if by == "seen":
        train_prep = prepare_one(train, decoding)
        test_texts = texts if texts is not None else texts_of(run.prep)
        flags = seen_flags(
            (train_prep.gold, train_texts if train_texts is not None else texts_of(train_prep)),
            (alignment.gold, test_texts), (alignment.pred, test_texts))
        if flags is None:
            raise ValueError(_NO_TEXT.format(side="training data", arg="train_texts"))
        g, p = flags
        if g is None or p is None:
            raise ValueError(_NO_TEXT.format(side="test data", arg="texts"))
        seen = (g, p)
    gb, pb, names, unit = _buckets_for(
        by, alignment, edges=edges, tags=run.prep.tags is not None, doc_ids=run.prep.doc_ids,
        n_sequences=run.prep.n_sequences, seen=seen,
    )
    buckets, overall = tally(alignment, gb, pb, names, zd)
    return Breakdown(by, unit, match, dict(run.options), tuple(buckets), overall,
                     tuple(run.prep.notes))


_NO_TEXT = ("Surface forms of the {side} are unknown: give span documents with their text, "
            "tags read from a CoNLL file (with tokens), or pass {arg}=[...] (one text or "
            "token list per sequence).")


def breakdown_from_report(
    report: Report, *, by: str = "length", edges: Sequence[int] | None = None,
) -> Breakdown:
    """The breakdown of a report by length or document, from its stored alignment (no rescoring).

    Parameters
    ----------
    report : Report
        From :func:`nerscore.evaluate` with an entity matcher.
    by : {"length", "document"}
        As for :func:`breakdown` (``"seen"`` needs training data; use
        :func:`breakdown`).
    edges : sequence of int, optional
        Lower bounds of the length buckets.

    Returns
    -------
    Breakdown

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "O"], ["B-LOC", "I-LOC"]], [["B-PER", "O"], ["O", "O"]],
    ...                      zero_division=0.0)
    >>> [(b.name, b.recall) for b in breakdown_from_report(r, by="document").buckets]
    [('0', 1.0), ('1', 0.0)]
    """
    if _check_by(by) == "seen":
        raise option_error("by", "'length' or 'document' (by='seen' needs breakdown(...))", by)
    if report.alignment is None:
        raise option_error("match", "a matcher that pairs entities (not 'token')", report.match)
    check_consistent(report.alignment, report.counts, report.match)
    gb, pb, names, unit = _buckets_for(
        by, report.alignment, edges=edges, tags=report.n_tokens is not None,
        doc_ids=report.doc_ids, n_sequences=report.n_sequences or 0, seen=None,
    )
    buckets, overall = tally(report.alignment, gb, pb, names, report.zero_division)
    return Breakdown(by, unit, report.match, dict(report.options), tuple(buckets), overall)


# ------------------------------------------------------------------------------ rendering
