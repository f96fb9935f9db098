"""A drop-in replacement for seqeval 1.2.2's metrics, giving the same numbers.

Change one import line::

    from seqeval.metrics import classification_report, f1_score   # before
    from nerscore.compat.seqeval import classification_report, f1_score  # after

and, for strict mode, ``from nerscore.compat.seqeval import IOB2`` (or pass
the string ``"IOB2"``). Every function has seqeval's name and signature and
returns the same values: the same entities (seqeval's default-mode chunking
with all its quirks — any first character is a prefix, ``U-PER U-PER`` is
one entity, begin offsets can be stale, nested lists are flattened with an
``O`` after each sentence — and its strict mode per scheme), bit-identical
floats (seqeval's own arithmetic: F from the P and R arrays, means by
:func:`numpy.average`), the same report text and dict, and warnings with the
same texts at the same points.

Extensions
----------
- ``match=`` (keyword, default ``"exact"``) on every scoring function picks
  one of nerscore's matchers (:func:`nerscore.matching.get_matcher`: ``"exact"``,
  ``"semeval"``, ``"overlap"``, ``"threshold"``); the entities are still
  seqeval's.
- ``precision_recall_fscore_support`` also takes ``mode=`` and ``scheme=``
  (seqeval's version of it has no strict mode).
- ``scheme`` may be a string (``"IOB2"``, ``"BIO"``, ``"IOBES"``, ...), one of
  this module's classes, or seqeval's own scheme class of the same name;
  the strings ``"BMES"`` and ``"IO"`` give nerscore's tables for those.
- Inputs may be any sequences of sequences (tuples too) or
  :class:`~nerscore.EncodedTags`; a flat list of tags is one sentence.
- ``zero_division`` also accepts ``nan``.

Differences from seqeval 1.2.2 (each deliberate)
------------------------------------------------
1. Warnings about undefined ratios are :class:`nerscore.UndefinedMetricWarning`,
   texts as seqeval's; when scikit-learn is installed (seqeval needs it) the
   warning is also an instance of ``sklearn.exceptions.UndefinedMetricWarning``,
   so code that filters or expects scikit-learn's class keeps working.
2. "... seems not to be NE tag." warnings (``UserWarning``, seqeval's text)
   are issued once per distinct tag per call, not once per token occurrence.
3. No entity at all: the text ``classification_report`` (where seqeval
   raises ``ValueError: max() arg is an empty sequence``) is the report
   without label rows, showing the values of the dict; the dict is
   seqeval's (micro and weighted the ``zero_division`` value, macro
   ``nan``).
4. The macro average over no labels is ``nan``, as seqeval returns it
   (in the dict, the text and the functions), with one
   :class:`nerscore.UndefinedMetricWarning` saying so instead of NumPy's
   ``RuntimeWarning`` messages of the mean of nothing, which seqeval lets
   through; the native API gives the ``zero_division`` value instead.
5. ``mode="strict"`` without ``scheme`` raises
   :class:`~nerscore.SchemeError` (seqeval silently uses the default mode in
   the ``*_score`` functions and guesses the scheme from ``y_true`` in
   ``classification_report``).
6. ``scheme`` without ``mode="strict"`` raises
   :class:`~nerscore.SchemeError` (seqeval silently ignores it).
7. ``mode`` other than ``None``, ``"lenient"`` (a nerscore alias of the
   default) or ``"strict"`` raises ``ValueError`` (seqeval treats any
   other value as the default mode).
8. ``sample_weight`` other than ``None`` raises ``ValueError`` (seqeval
   accepts it and ignores it).
9. ``zero_division`` other than ``"warn"``, 0, 1 or nan raises
   ``ValueError`` (seqeval treats any other value as 1); ``beta`` must be a
   non-negative number and ``average`` one of seqeval's values (seqeval
   raises ``ValueError`` there too, with other texts); ``digits`` must be a
   non-negative integer (seqeval fails while formatting).
10. Tags that seqeval cannot parse raise :class:`~nerscore.InvalidTagError`
    (a ``ValueError``) naming the tag, sentence and token: the empty tag
    (seqeval: ``IndexError``), and in strict mode a prefix outside
    ``I O B E S U L`` (seqeval: ``KeyError``) or one the scheme does not
    allow (seqeval: ``ValueError``).
11. Gold and prediction of different lengths raise
    :class:`~nerscore.LengthMismatchError` (a ``ValueError``) in every
    function; seqeval's ``accuracy_score`` and ``performance_measure``
    silently truncate to the shorter input instead.
12. An empty corpus (``[]``, where seqeval raises ``TypeError``) has no
    entities; ``accuracy_score`` on zero tokens (seqeval:
    ``ZeroDivisionError``) returns 0.0 with an ``UndefinedMetricWarning``.
13. Averaged results are plain ``float``/``int`` (seqeval returns NumPy
    scalars of the same values); ``average=None`` returns NumPy arrays as
    seqeval does. The report dict holds plain Python numbers.
14. The scheme classes only name a scheme; unlike seqeval's ``Token``
    subclasses they do not parse tokens.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from nerscore.compat import _seqeval_core as _core
from nerscore.compat._seqeval_core import BILOU, IOB1, IOB2, IOBES, IOE1, IOE2, Token
from nerscore.decode.seqeval_rules import (
    decode_default,
    odd_tags,
    parse_default,
)
from nerscore.render.seqeval import format_seqeval, seqeval_report_dict
from nerscore.scoring import metrics as _metrics
from nerscore.values.ratios import check_zero_division
from nerscore.values.tag_input import encode_pair
from nerscore.values.tags import EncodedTags

__all__ = [
    "BILOU",
    "IOB1",
    "IOB2",
    "IOBES",
    "IOE1",
    "IOE2",
    "Token",
    "accuracy_score",
    "classification_report",
    "f1_score",
    "get_entities",
    "performance_measure",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]


# ----------------------------------------------------------------------------- public API


def get_entities(seq: Sequence[str] | Sequence[Sequence[str]], suffix: bool = False) -> list[
    tuple[str, int, int]
]:
    """Chunks of a tag sequence as seqeval's default mode reads them.

    Parameters
    ----------
    seq : list of str, or list of list of str
        Tags; a list of sentences is flattened with an ``"O"`` after each
        sentence, so positions count those separators (as in seqeval).
    suffix : bool
        Tags are written ``TYPE-PREFIX``.

    Returns
    -------
    list of (type, start, end)
        ``end`` is **inclusive** (seqeval's convention), in order of ``end``.

    Raises
    ------
    InvalidTagError
        For an empty tag.

    Examples
    --------
    >>> get_entities(["B-PER", "I-PER", "O", "B-LOC"])
    [('PER', 0, 1), ('LOC', 3, 3)]
    >>> get_entities([["B-PER"], ["I-PER", "B-LOC"]])
    [('PER', 0, 0), ('PER', 2, 2), ('LOC', 3, 3)]
    """
    enc: EncodedTags
    if isinstance(seq, EncodedTags):
        enc, nested = seq, True
    elif isinstance(seq, str):
        raise TypeError("Expected `seq` to be a list of tags or of tag lists; got a string.")
    else:
        nested = any(not isinstance(s, str) for s in seq)
        if nested and any(isinstance(s, str) for s in seq):
            raise TypeError(
                "Expected `seq` to be a list of tags or a list of tag lists; got a mix of both."
            )
        enc = EncodedTags.from_lists(seq if nested else [seq])  # type: ignore[list-item]
    for tag in odd_tags(enc.vocab, suffix=suffix):
        warnings.warn(f"{tag} seems not to be NE tag.", UserWarning, stacklevel=2)
    d = decode_default(enc, parse_default(enc.vocab, suffix=suffix), separators=nested)
    return list(
        zip([d.types[t] for t in d.typ.tolist()], d.begin.tolist(), (d.end - 1).tolist(),
            strict=True)
    )


def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = None,
    warn_for: Collection[str] = _core.WARN_ALL,
    beta: float = 1.0,
    sample_weight: None = None,
    zero_division: str | float = "warn",
    suffix: bool = False,
    mode: str | None = None,
    scheme: type[Token] | str | None = None,
    match: str = "exact",
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support of entities, per type or averaged.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted tags, one list per sentence.
    average : {None, "micro", "macro", "weighted"}
        ``None`` gives per-type arrays (types sorted).
    warn_for : tuple of str
        Which of ``"precision"``, ``"recall"``, ``"f-score"`` may warn.
    beta : float
        Weight of recall (non-negative).
    sample_weight : None
        Must be None (seqeval ignores it).
    zero_division : "warn", 0, 1 or nan
        Value of undefined ratios.
    suffix : bool
        Tags are written ``TYPE-PREFIX``.
    mode : {None, "strict"}
        ``"strict"`` keeps only well-formed chunks of ``scheme`` (extension).
    scheme : scheme class or str
        Required by ``mode="strict"`` (extension).
    match : str
        nerscore matcher (extension; default ``"exact"``).

    Returns
    -------
    precision, recall, fbeta, support
        Arrays for ``average=None``, else ``float`` and ``int``.

    Raises
    ------
    ValueError
        For invalid options (see the module's list of differences).

    Examples
    --------
    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> precision_recall_fscore_support(y_true, y_pred, average="macro")
    (0.5, 0.5, 0.5, 2)
    >>> precision_recall_fscore_support(y_true, y_pred)
    (array([0., 1.]), array([0., 1.]), array([0., 1.]), array([1, 1]))
    """
    return _core.scores(y_true, y_pred, average=average, warn_for=warn_for, beta=beta,
                   sample_weight=sample_weight, zero_division=zero_division, suffix=suffix,
                   mode=mode, scheme=scheme, match=match)


_SCORE_PARAMETERS = """Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted tags, one list per sentence.
    average : {"micro", None, "macro", "weighted"}
        ``None`` gives a per-type array (types sorted).
    suffix : bool
        Tags are written ``TYPE-PREFIX``.
    mode : {None, "strict"}
        ``"strict"``: keep only well-formed chunks of ``scheme``.
    sample_weight : None
        Must be None (seqeval ignores it).
    zero_division : "warn", 0, 1 or nan
        Value of undefined ratios.
    scheme : scheme class or str
        Required by ``mode="strict"``; only allowed with it.
    match : str
        nerscore matcher (extension; default ``"exact"``).

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        For invalid options (see the module's list of differences)."""


def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "micro",
    suffix: bool = False,
    mode: str | None = None,
    sample_weight: None = None,
    zero_division: str | float = "warn",
    scheme: type[Token] | str | None = None,
    match: str = "exact",
) -> Any:
    """Entity precision, ``tp / n_pred``, as seqeval computes it.

    %s

    Examples
    --------
    >>> y_true = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "O", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> precision_score(y_true, y_pred)
    0.6666666666666666
    >>> precision_score(y_true, y_pred, average=None)
    array([0.5, 1. ])
    """
    return _core.scores(y_true, y_pred, average=average, warn_for=("precision",), beta=1.0,
                   sample_weight=sample_weight, zero_division=zero_division, suffix=suffix,
                   mode=mode, scheme=scheme, match=match)[0]


def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "micro",
    suffix: bool = False,
    mode: str | None = None,
    sample_weight: None = None,
    zero_division: str | float = "warn",
    scheme: type[Token] | str | None = None,
    match: str = "exact",
) -> Any:
    """Entity recall, ``tp / n_gold``, as seqeval computes it.

    %s

    Examples
    --------
    >>> y_true = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "O", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> recall_score(y_true, y_pred, average="macro")
    0.75
    """
    return _core.scores(y_true, y_pred, average=average, warn_for=("recall",), beta=1.0,
                   sample_weight=sample_weight, zero_division=zero_division, suffix=suffix,
                   mode=mode, scheme=scheme, match=match)[1]


def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "micro",
    suffix: bool = False,
    mode: str | None = None,
    sample_weight: None = None,
    zero_division: str | float = "warn",
    scheme: type[Token] | str | None = None,
    match: str = "exact",
) -> Any:
    """Entity F1, ``2 P R / (P + R)`` from seqeval's P and R.

    %s

    Examples
    --------
    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> f1_score(y_true, y_pred)
    0.5
    >>> f1_score([["I-PER", "I-PER"]], [["B-PER", "I-PER"]], mode="strict", scheme=IOB2)
    0.0
    """
    return _core.scores(y_true, y_pred, average=average, warn_for=("f-score",), beta=1.0,
                   sample_weight=sample_weight, zero_division=zero_division, suffix=suffix,
                   mode=mode, scheme=scheme, match=match)[2]


for _f in (precision_score, recall_score, f1_score):
    _f.__doc__ = (_f.__doc__ or "") % _SCORE_PARAMETERS


def classification_report(
    y_true: Any,
    y_pred: Any,
    digits: int = 2,
    suffix: bool = False,
    output_dict: bool = False,
    mode: str | None = None,
    sample_weight: None = None,
    zero_division: str | float = "warn",
    scheme: type[Token] | str | None = None,
    *,
    match: str = "exact",
) -> str | dict[str, dict[str, float | int]]:
    """Per-type and averaged scores as seqeval's text report (or its dict).

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted tags, one list per sentence.
    digits : int
        Decimals shown.
    suffix : bool
        Tags are written ``TYPE-PREFIX``.
    output_dict : bool
        Return ``{name: {"precision", "recall", "f1-score", "support"}}``.
    mode : {None, "strict"}
        ``"strict"``: keep only well-formed chunks of ``scheme``.
    sample_weight : None
        Must be None (seqeval ignores it).
    zero_division : "warn", 0, 1 or nan
        Value of undefined ratios.
    scheme : scheme class or str
        Required by ``mode="strict"``; only allowed with it.
    match : str
        nerscore matcher (extension; default ``"exact"``).

    Returns
    -------
    str or dict
        The text is byte-identical to seqeval's (see
        :func:`nerscore.render.seqeval.format_seqeval`).

    Raises
    ------
    ValueError
        For invalid options (see the module's list of differences).

    Examples
    --------
    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> print(classification_report(y_true, y_pred))
                  precision    recall  f1-score   support
    <BLANKLINE>
            MISC       0.00      0.00      0.00         1
             PER       1.00      1.00      1.00         1
    <BLANKLINE>
       micro avg       0.50      0.50      0.50         2
       macro avg       0.50      0.50      0.50         2
    weighted avg       0.50      0.50      0.50         2
    <BLANKLINE>
    >>> classification_report(y_true, y_pred, output_dict=True)["PER"]["f1-score"]
    1.0
    """
    zd = check_zero_division(zero_division)
    _core.check_sample_weight(sample_weight)
    table = _core.resolve(mode, scheme)
    if not output_dict:
        from nerscore.render.seqeval import check_digits

        check_digits(digits)
    counts = _core.count(y_true, y_pred, suffix=suffix, table=table, match=_core.check_match(match).name)
    if output_dict:
        return seqeval_report_dict(counts, zero_division=zd)
    return format_seqeval(counts, digits=digits, zero_division=zd)


def accuracy_score(y_true: Any, y_pred: Any) -> float:
    """Token accuracy: the share of tokens whose tag strings are equal, ``O`` included.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted tags.

    Returns
    -------
    float

    Raises
    ------
    LengthMismatchError
        When the inputs differ in shape (seqeval truncates silently).

    Examples
    --------
    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> accuracy_score(y_true, y_pred)
    0.8
    """
    return _metrics.accuracy_score(y_true, y_pred)


def performance_measure(y_true: Any, y_pred: Any) -> dict[str, int]:
    """Token counts TP, FP, FN and TN, with ``"O"`` as the negative tag (seqeval's definitions).

    TP: equal non-``O`` tags; FP: tags that differ where the prediction is
    not ``O``; FN: gold not ``O`` where the prediction is ``O``; TN: both ``O``.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted tags.

    Returns
    -------
    dict
        ``{"TP", "FP", "FN", "TN"}`` as plain ints.

    Raises
    ------
    LengthMismatchError
        When the inputs differ in shape (seqeval truncates silently).

    Examples
    --------
    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "O", "B-ORG"], ["B-PER", "I-PER", "O", "B-PER"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "O"], ["B-PER", "I-PER", "O", "B-MISC"]]
    >>> performance_measure(y_true, y_pred)
    {'TP': 3, 'FP': 3, 'FN': 1, 'TN': 4}
    """
    t, p = encode_pair(y_true, y_pred)
    o = t.vocab.index("O") if "O" in t.vocab else -1
    equal = t.ids == p.ids
    gold_o = t.ids == o
    pred_o = p.ids == o
    return {
        "TP": int(np.count_nonzero(equal & ~gold_o)),
        "FP": int(np.count_nonzero(~equal & ~pred_o)),
        "FN": int(np.count_nonzero(~gold_o & pred_o)),
        "TN": int(np.count_nonzero(gold_o & pred_o)),
    }
