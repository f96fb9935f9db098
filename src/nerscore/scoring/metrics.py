"""The functional API: counts, scores and reports from gold and predicted data.

Every function takes ``(y_true, y_pred, *, keyword-only options)``; all of
them go through :func:`count_matches` (counting) and
:func:`~nerscore.reduce_counts` (dividing).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nerscore._version import __version__
from nerscore.decode.entities import strict_notes
from nerscore.decode.inputs import Prepared, prepare
from nerscore.decode.label_ops import apply_label_ops, check_label_ops
from nerscore.errors import InputTypeError, OptionError, caught_warnings, user_stacklevel
from nerscore.matching import Matcher, MatchResult, get_matcher
from nerscore.scoring.reduction import (
    Average,
    Scores,
    check_labels,
    parse_average,
    reduce_all,
    reduce_counts,
)
from nerscore.scoring.report import Report, Row, entity_notes, entity_summary
from nerscore.scoring.reuse import remembered, reusing, run_key
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.label_ops import LabelOps, label_notes, odd_label_notes
from nerscore.values.ratios import check_beta, check_zero_division, safe_divide
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.selection import Selection

__all__ = [
    "MatcherRun",
    "accuracy_score",
    "classification_report",
    "count_matches",
    "evaluate",
    "f1_score",
    "fbeta_score",
    "match_entities",
    "precision_score",
    "recall_score",
    "run_matcher",
    "select_entities",
]

#: Scoring parameters that are not matcher options, and where each one belongs.
_SCORING = {
    "beta": "fbeta_score(..., beta=...) or evaluate(..., beta=...)",
    "average": "f1_score(..., average=...) or reduce_counts(counts, average=...)",
    "zero_division": "reduce_counts(counts, zero_division=...) or the *_score functions",
    "labels": "reduce_counts(counts, labels=...) or the *_score functions",
}


def _check_scoring_options(options: Mapping[str, Any], func: str) -> None:
    """Refuse scoring parameters that ``func`` does not take, before the matcher sees them."""
    for name, where in _SCORING.items():
        if name in options:
            if name == "beta":
                check_beta(options[name])
            raise OptionError(
                f"{func} does not take `{name}`: it is a scoring parameter, not an option of "
                f"the matcher; use {where}.",
                option=name,
            )


def _with_totals(counts: Counts, prep: Prepared) -> Counts:
    """``counts`` with the input's tallies and the token totals of tag inputs.

    The token totals (for accuracy) are added unless the matcher counted them.
    """
    if prep.tallies:
        counts = dataclasses.replace(counts, tallies={**counts.tallies, **prep.tallies})
    if prep.tags is None or counts.tokens:
        return counts
    return dataclasses.replace(counts, tokens=prep.n_tokens or 0,
                               tokens_correct=prep.tokens_correct())


def select_entities(prep: Prepared, selection: Selection) -> Prepared:
    """``prep`` with the entities ``selection`` scores, its tallies counted (docs/fragments.md).

    Raises
    ------
    OptionError
        For ``subset="discontinuous"`` on tag sequences (tags hold no
        discontinuous entity).
    """
    if selection.subset is not None and prep.tags is not None:
        raise OptionError(
            f"subset={selection.subset!r} needs span input: tag sequences cannot hold "
            "discontinuous entities. Give spans with fragments (JSON Lines, BRAT, Parquet or "
            "Document objects).", option="subset")
    gold, pred, tallies = selection.apply(prep.gold, prep.pred, prep.doc_ids)
    if gold is prep.gold and pred is prep.pred and not tallies:
        return prep
    return dataclasses.replace(prep, gold=gold, pred=pred,
                               tallies={**prep.tallies, **tallies})


def _prepare(y_true: object, y_pred: object, decoding: Decoding) -> Prepared:
    """:func:`prepare`, with the decoders' warnings pointed at the user's line."""
    with caught_warnings() as caught:
        prep = prepare(y_true, y_pred, decoding)
    for w in caught:
        warnings.warn(w.message, w.category, stacklevel=user_stacklevel())
    return prep


@dataclass(frozen=True, eq=False)
class MatcherRun:
    """One matcher run: the matcher, its resolved options, the prepared input, the result.

    ``prep`` holds the entities as matched (after the ``selection``).
    """

    matcher: Matcher
    options: dict[str, Any]
    prep: Prepared
    result: MatchResult
    selection: Selection = dataclasses.field(default_factory=Selection)

    def tally_notes(self) -> tuple[str, ...]:
        """The notes on the input's tallies: label operations, tag runs strict mode dropped."""
        notes = label_notes(self.prep.tallies)
        if self.matcher.needs == "entities":  # the token matcher scores tags, not entities
            notes += strict_notes(*self.prep.strict_unread, self.prep.scheme)
        return notes


def run_matcher(
    y_true: object, y_pred: object, match: str, decoding: Decoding, options: Mapping[str, Any],
    *, align: bool, warn_labels: bool = True, prepared: Callable[[], Prepared] | None = None,
) -> MatcherRun:
    """Look the matcher up, validate its options, prepare both sides and match them.

    ``options`` are the matcher's, the :class:`Selection`'s
    (``discontinuous``, ``subset``) and the :class:`LabelOps`'
    (``labels_map``, ``keep``, ``drop``; applied first). With ``align=False`` only the counts
    are computed (the matcher's fast path) and the result carries no
    alignment. The result's counts include the token totals of tag inputs
    and the input's tallies. ``warn_labels=False`` leaves the warning on
    labels the label operations name and the input lacks to the caller
    (a batch may lack a label that the whole input has). ``prepared``, when
    given, prepares the input instead (``y_true`` and ``y_pred`` are not read).
    Within :func:`~nerscore.scoring.reuse.reusing_runs`, a second run of the
    same inputs and settings is the first one.
    """
    def run() -> MatcherRun:
        return _run_matcher(y_true, y_pred, match, decoding, options, align, warn_labels,
                            prepared)

    if prepared is not None or not reusing():
        return run()
    key = run_key(id(y_true), id(y_pred), match, decoding, align, warn_labels, options=options)
    return remembered(key, (y_true, y_pred), run)


def _run_matcher(
    y_true: object, y_pred: object, match: str, decoding: Decoding, options: Mapping[str, Any],
    align: bool, warn_labels: bool, prepared: Callable[[], Prepared] | None,
) -> MatcherRun:
    matcher = get_matcher(match)
    label_ops, options = LabelOps.split(options)
    selection, options = Selection.split(options)
    resolved = matcher.resolve(options)
    prep = _prepare(y_true, y_pred, decoding) if prepared is None else prepared()
    check_label_ops(label_ops, match, prep.tags is not None)
    prep = select_entities(apply_label_ops(prep, label_ops, warn=warn_labels), selection)
    res = matcher.run(prep, **resolved) if align else matcher.counted(prep, resolved)
    res = MatchResult(_with_totals(res.counts, prep), res.alignment, res.extra)
    return MatcherRun(matcher, resolved, prep, res, selection)


def count_matches(
    y_true: object,
    y_pred: object,
    *,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    match: str = "exact",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> Counts:
    """Count matches between gold and prediction: the mergeable first half of every score.

    Parameters
    ----------
    y_true, y_pred : tag sequences, EncodedTags, or span documents
        Gold and prediction: tag sequences (one list per sentence), or span
        documents (lists of ``(start, end, label)``, ``Document`` objects or
        ``{doc_id: spans}`` mappings; see the README).
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    match : str
        The matcher: ``"exact"``, ``"semeval"``, ``"overlap"``, ``"threshold"``
        or ``"token"``.
    **options
        The matcher's options (e.g. ``labeled=False`` for ``exact``), and
        ``discontinuous`` (``"fragments"`` or ``"extent"``) and ``subset``
        (None or ``"discontinuous"``), which every matcher takes
        (docs/fragments.md).

    Returns
    -------
    Counts
        Per-label counts plus token totals and the input's tallies; add them
        up over batches.

    Examples
    --------
    >>> c = count_matches([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "B-LOC"]])
    >>> c.to_dict()
    {'LOC': {'tp': 0, 'n_pred': 1, 'n_gold': 0}, 'PER': {'tp': 1, 'n_pred': 1, 'n_gold': 1}}
    """
    _check_scoring_options(options, "count_matches")
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    return run_matcher(y_true, y_pred, match, decoding, options, align=False).result.counts


def match_entities(
    y_true: object,
    y_pred: object,
    *,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    match: str = "exact",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> MatchResult:
    """Match entities and return counts *and* the alignment (which gold went with which).

    Examples
    --------
    >>> res = match_entities([["B-PER", "O"]], [["B-PER", "B-LOC"]])
    >>> res.alignment.pairs_gold.tolist(), res.alignment.spurious.tolist()
    ([0], [1])
    """
    _check_scoring_options(options, "match_entities")
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    matcher = get_matcher(match)
    if not matcher.aligns:
        raise OptionError(
            f"match={match!r} scores units and has no entity alignment; use an entity matcher "
            "such as match='exact'.", option="match",
        )
    return run_matcher(y_true, y_pred, match, decoding, options, align=True).result


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
    from nerscore.values.tags import encode_pair

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
    _check_scoring_options(options, "evaluate")
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
