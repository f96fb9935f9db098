"""The functional API's scores and reports from gold and predicted data.

Every function takes ``(y_true, y_pred, *, keyword-only options)``; all of
them go through :func:`~nerscore.scoring.counting.count_matches` (counting,
or :func:`~nerscore.scoring.counting.run_matcher` underneath it) and
:func:`~nerscore.reduce_counts` (dividing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nerscore._version import __version__
from nerscore.decode.entities import strict_notes
from nerscore.errors import InputTypeError, OptionError, caught_warnings
from nerscore.matching import get_matcher
from nerscore.scoring.counting import check_scoring_options, count_matches, run_matcher
from nerscore.scoring.reduction import (
    Average,
    Scores,
    check_labels,
    parse_average,
    reduce_all,
    reduce_counts,
)
from nerscore.scoring.report import Report, Row, entity_notes, entity_summary
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.label_ops import label_notes, odd_label_notes
from nerscore.values.ratios import check_beta, check_zero_division, safe_divide
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.selection import Selection

__all__ = [
    "accuracy_score",
    "classification_report",
    "evaluate",
    "f1_score",
    "fbeta_score",
    "precision_score",
    "recall_score",
]


def _score(
    y_true: object, y_pred: object, *, beta: float, average: str | Average | None,
    zero_division: Any, labels: Sequence[str] | None, kw: dict[str, Any],
) -> Scores:
    check_beta(beta)
    check_zero_division(zero_division)
    parse_average(average)
    check_labels(labels)
    counts = count_matches(y_true, y_pred, **kw)
    return reduce_counts(counts, beta=beta, average=average, zero_division=zero_division,
                         labels=labels)




def precision_score(
    y_true: object, y_pred: object, *, average: str | Average | None = "micro",
    zero_division: Any = "warn", labels: Sequence[str] | None = None, beta: float = 1.0,
    **options: Any,
) -> float | dict[str, float]:
    """Entity-level precision: ``tp / n_pred``.

    See :func:`fbeta_score` for the parameters; ``beta`` is accepted (and
    checked) for symmetry with it, and does not change precision.

    Examples
    --------
    >>> precision_score([["B-PER", "O"]], [["B-PER", "B-LOC"]])
    0.5
    """
    check_beta(beta)
    return _score(y_true, y_pred, beta=1.0, average=average, zero_division=zero_division,
                  labels=labels, kw=options).precision


def recall_score(
    y_true: object, y_pred: object, *, average: str | Average | None = "micro",
    zero_division: Any = "warn", labels: Sequence[str] | None = None, beta: float = 1.0,
    **options: Any,
) -> float | dict[str, float]:
    """Entity-level recall: ``tp / n_gold``.

    See :func:`fbeta_score` for the parameters; ``beta`` is accepted (and
    checked) for symmetry with it, and does not change recall.

    Examples
    --------
    >>> recall_score([["B-PER", "B-LOC"]], [["B-PER", "O"]])
    0.5
    """
    check_beta(beta)
    return _score(y_true, y_pred, beta=1.0, average=average, zero_division=zero_division,
                  labels=labels, kw=options).recall


def fbeta_score(
    y_true: object, y_pred: object, *, beta: float = 1.0,
    average: str | Average | None = "micro", zero_division: Any = "warn",
    labels: Sequence[str] | None = None, **options: Any,
) -> float | dict[str, float]:
    """Entity-level F-beta: ``(1 + beta^2) tp / (beta^2 n_gold + n_pred)``.

    Parameters
    ----------
    y_true, y_pred : tag sequences, EncodedTags, or span documents
        Gold and prediction: tag sequences (one list per sentence), or span
        documents (lists of ``(start, end, label)``, ``Document`` objects or
        ``{doc_id: spans}`` mappings; see the README).
    beta : float
        Weight of recall (positive).
    average : {"micro", "macro", "weighted"} or None
        How labels are combined; ``None`` returns ``{label: value}``.
    zero_division : "warn", 0.0, 1.0 or nan
        Value of an undefined ratio.
    labels : list of str, optional
        Labels to report and average over.
    **options
        ``scheme`` (required by ``mode="strict"``), ``mode`` (``"lenient"``,
        ``"strict"``, ``"conlleval"``), ``match`` (``"exact"``, ``"token"``, ...),
        ``suffix``, ``delimiter``, ``outside`` and the matcher's options.

    Returns
    -------
    float or dict of str to float

    Examples
    --------
    >>> round(fbeta_score([["B-PER", "B-LOC"]], [["B-PER", "O"]], beta=2.0), 4)
    0.5556
    """
    return _score(y_true, y_pred, beta=beta, average=average, zero_division=zero_division,
                  labels=labels, kw=options).fbeta


def f1_score(
    y_true: object, y_pred: object, *, average: str | Average | None = "micro",
    zero_division: Any = "warn", labels: Sequence[str] | None = None, beta: float = 1.0,
    **options: Any,
) -> float | dict[str, float]:
    """Entity-level F1 (docs/reduction.md); see :func:`fbeta_score` for the parameters.

    ``beta`` may only be 1 (use :func:`fbeta_score` for another).

    Examples
    --------
    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> f1_score(y_true, y_pred)
    0.5
    """
    beta = check_beta(beta)
    if beta != 1.0:
        raise OptionError(
            f"f1_score is the F-score with beta=1; got beta={beta:g}. Use "
            f"fbeta_score(..., beta={beta:g}) for another beta.",
            option="beta",
        )
    return _score(y_true, y_pred, beta=1.0, average=average, zero_division=zero_division,
                  labels=labels, kw=options).fbeta


def accuracy_score(y_true: object, y_pred: object, *, zero_division: Any = "warn") -> float:
    """Token accuracy: the share of tokens whose tag strings are equal, ``O`` included.

    Examples
    --------
    >>> accuracy_score([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]])
    0.6666666666666666
    """
    from nerscore.decode.input_kind import input_kind
    from nerscore.values.tag_input import encode_pair

    zd = check_zero_division(zero_division)
    if input_kind(y_true, y_pred) == "spans":
        raise InputTypeError(
            "accuracy_score compares tag strings token by token and needs tag sequences; "
            "for span inputs use count_matches(..., match='token') or evaluate(..., "
            "match='token')."
        )
    t, p = encode_pair(y_true, y_pred)
    correct = int((t.ids == p.ids).sum())
    return float(safe_divide([correct], [len(t)], zero_division=zd, metric="Accuracy",
                             names=["accuracy"], reason="no tokens")[0])


def evaluate(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    beta: float = 1.0,
    zero_division: Any = "warn",
    labels: Sequence[str] | None = None,
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> Report:
    """Score a prediction and return everything as one :class:`~nerscore.Report`.

    Parameters
    ----------
    y_true, y_pred : tag sequences, EncodedTags, or span documents
        Gold and prediction: tag sequences or span documents (see
        :func:`count_matches`).
    match : str
        The matcher: ``"exact"``, ``"semeval"``, ``"overlap"``, ``"threshold"``
        or ``"token"``.
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    beta : float
        F-beta's beta (F1 is reported as well).
    zero_division : "warn", 0.0, 1.0 or nan
        Value of undefined ratios.
    labels : list of str, optional
        Labels to report and average over.
    **options
        The matcher's options, and ``discontinuous`` and ``subset`` (see
        :func:`count_matches`).

    Returns
    -------
    Report

    Examples
    --------
    >>> r = evaluate([["B-A", "B-B", "O", "B-A"]], [["O", "B-B", "B-C", "B-A"]],
    ...              zero_division=0.0)
    >>> round(r.macro.precision, 4), round(r.macro.recall, 4), round(r.macro.f1, 4)
    (0.6667, 0.5, 0.5556)
    """
    beta = check_beta(beta)
    zd = check_zero_division(zero_division)
    check_labels(labels)
    check_scoring_options(options, "evaluate")
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    run = run_matcher(y_true, y_pred, match, decoding, options, align=get_matcher(match).aligns)
    prep, res = run.prep, run.result
    return build_report(
        res.counts, match=match, options={k: run.options[k] for k in options
                                          if k in run.options},
        scheme=prep.scheme, mode=prep.mode,
        beta=beta, zero_division=zd, labels=labels, n_sequences=prep.n_sequences,
        n_tokens=prep.n_tokens, alignment=res.alignment, extra=dict(res.extra),
        notes=prep.notes, doc_ids=prep.doc_ids, texts=prep.texts, selection=run.selection,
        strict_unread=prep.strict_unread,
    )


def build_report(
    counts: Counts,
    *,
    match: str,
    options: dict[str, Any],
    scheme: str | None,
    mode: str | None,
    beta: float,
    zero_division: Any,
    labels: Sequence[str] | None = None,
    n_sequences: int | None = None,
    n_tokens: int | None = None,
    notes: Sequence[str] = (),
    extra: dict[str, Any] | None = None,
    alignment: Any = None,
    doc_ids: Any = None,
    texts: Any = None,
    selection: Selection | None = None,
    strict_unread: tuple[int, int] = (0, 0),
) -> Report:
    """Reduce counts once and wrap everything in a :class:`Report`.

    The report's ``options`` are the matcher's effective options (defaults
    included); notes a matcher leaves in ``extra["notes"]`` join ``notes``.
    ``Report.entities`` comes from ``selection`` and ``counts.tallies``,
    and so do the notes on discontinuous entities and ignore regions.
    ``strict_unread`` are the tag runs of gold and of the prediction that
    strict mode read as no entity (:attr:`Prepared.strict_unread`, summed
    over batches), noted for an entity matcher.
    """
    matcher = get_matcher(match)
    options = {**options, **{k: v for k, v in matcher.defaults.items() if k not in options}}
    extra = dict(extra or {})
    notes = (*notes, *extra.pop("notes", ()))
    per_label, averages = reduce_all(counts, beta=beta, zero_division=zero_division,
                                     labels=labels)
    f1_label, f1_avg = (per_label, averages)
    if beta != 1.0:
        with caught_warnings("ignore"):
            f1_label, f1_avg = reduce_all(counts, beta=1.0, zero_division=zero_division,
                                          labels=labels)

    def row(prf: Any, f1: float) -> Row:
        return Row(prf.precision, prf.recall, f1, prf.fbeta, prf.tp, prf.n_pred, prf.n_gold)

    if matcher.report_extra is not None:  # rebuilt from the (possibly merged) counts
        extra.update(matcher.report_extra(counts, zero_division))
    accuracy = None
    if n_tokens:
        accuracy = float(counts.tokens_correct / n_tokens)
    elif n_tokens is not None:
        notes = (*notes, "no tokens: accuracy is undefined.")
    entities = entity_summary(counts, selection or Selection())
    notes = (*notes, *entity_notes(entities), *label_notes(counts.tallies),
             *odd_label_notes({k: (v.n_gold, v.n_pred) for k, v in per_label.items()}))
    if matcher.needs == "entities":  # the token matcher scores the tags, not entities
        notes = (*notes, *strict_notes(*strict_unread, scheme))
    return Report(
        match=match,
        options=dict(options),
        scheme=scheme,
        mode=mode,
        beta=beta,
        zero_division=zero_division,
        labels={k: row(v, f1_label[k].fbeta) for k, v in per_label.items()},
        micro=row(averages["micro"], f1_avg["micro"].fbeta),
        macro=row(averages["macro"], f1_avg["macro"].fbeta),
        weighted=row(averages["weighted"], f1_avg["weighted"].fbeta),
        counts=counts,
        accuracy=accuracy,
        n_sequences=n_sequences,
        n_tokens=n_tokens,
        notes=tuple(notes),
        version=__version__,
        extra=extra,
        alignment=alignment,
        doc_ids=doc_ids,
        texts=texts,
        entities=entities,
    )


def classification_report(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    beta: float = 1.0,
    zero_division: Any = "warn",
    labels: Sequence[str] | None = None,
    **options: Any,
) -> Report:
    """Per-label and averaged scores as a :class:`~nerscore.Report` (same as :func:`evaluate`).

    Render it with :func:`nerscore.render_text`; for seqeval's exact text use
    :func:`nerscore.compat.seqeval.classification_report`.

    Examples
    --------
    >>> r = classification_report([["B-PER", "O"]], [["B-PER", "O"]])
    >>> r.labels["PER"].f1
    1.0
    """
    return evaluate(y_true, y_pred, match=match, scheme=scheme, mode=mode, beta=beta,
                    zero_division=zero_division, labels=labels, **options)
