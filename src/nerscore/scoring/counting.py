"""Counting: run a matcher on gold and predicted data and count its matches.

:func:`run_matcher` looks the matcher up, prepares both sides (decoding,
label operations, the :class:`~nerscore.values.selection.Selection` of
entities) and matches them; :func:`count_matches` and :func:`match_entities`
are its public faces, and the scores and reports of
:mod:`~nerscore.scoring.metrics` are built on it.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from nerscore.decode.entities import strict_notes
from nerscore.decode.inputs import Prepared, prepare
from nerscore.decode.label_ops import apply_label_ops, check_label_ops
from nerscore.errors import OptionError, caught_warnings, user_stacklevel
from nerscore.matching import Matcher, MatchResult, get_matcher
from nerscore.scoring.reuse import remembered, reusing, run_key
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.label_ops import LabelOps, label_notes
from nerscore.values.ratios import check_beta
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.selection import Selection

__all__ = [
    "MatcherRun",
    "check_scoring_options",
    "count_matches",
    "match_entities",
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


def check_scoring_options(options: Mapping[str, Any], func: str) -> None:
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
        Gold and prediction: tag sequences (one list per sentence; NumPy
        arrays of ``str`` are read as the same lists: ``docs/schemes.md``,
        "Tag input"), or span
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
    check_scoring_options(options, "count_matches")
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
    check_scoring_options(options, "match_entities")
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    matcher = get_matcher(match)
    if not matcher.aligns:
        raise OptionError(
            f"match={match!r} scores units and has no entity alignment; use an entity matcher "
            "such as match='exact'.", option="match",
        )
    return run_matcher(y_true, y_pred, match, decoding, options, align=True).result

