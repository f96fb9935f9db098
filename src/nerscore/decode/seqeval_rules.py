"""seqeval 1.2.2's rules as data: tag parsing, chunk boundaries and division.

Everything the seqeval compatibility layer needs besides the shared decoder
and counter lives here, in three parts:

* **Tag parsing.** Each distinct tag is parsed once, the seqeval way, into a
  canonical letter class and a type id. The default mode reads the first
  character as the prefix (any character: ``U``, ``L``, ``.``, ``x`` are
  prefixes too) and the type as ``tag[1:].split('-', 1)[-1] or '_'``
  (suffix style: last character, ``tag[:-1].rsplit('-', 1)[0] or '_'``).
  The strict mode reads the same prefix character but strips the delimiter
  from both ends of the rest: ``tag[1:].strip('-') or '_'``.
* **Chunk rules.** :data:`DEFAULT_RULES` are the ``end_of_chunk`` and
  ``start_of_chunk`` conditions of seqeval's default mode as an
  :class:`~nerscore.values.schemes.EventRules` table over the classes
  ``O B I E S . ?`` (``?`` = any other first character). The strict mode
  uses the scheme tables of :data:`nerscore.values.schemes.SCHEMES`, which hold
  seqeval's start, inside and end patterns.
* **Division.** :func:`prf_support` turns per-label counts into precision,
  recall, F-beta and support with seqeval's own arithmetic (F computed from
  the P and R arrays, means by :func:`numpy.average`), so the floats are
  bit-identical, and issues its warnings with the same texts.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.decode.decoder import (
    decode_chunks,
    decode_events_ids,
    flatten_with_separators,
    with_separators,
)
from nerscore.errors import UndefinedMetricWarning, user_stacklevel
from nerscore.values import schemes as sc
from nerscore.values.schemes import EventRules, SchemeTable
from nerscore.values.tags import EncodedTags, ParsedVocab, check_vocab

__all__ = [
    "DEFAULT_RULES",
    "SEQEVAL_PREFIXES",
    "Decoded",
    "decode_default",
    "decode_strict",
    "odd_tags",
    "parse_default",
    "parse_strict",
    "prf_support",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The prefix letters seqeval's ``Prefix`` flag knows (strict mode).
SEQEVAL_PREFIXES = "IOBESUL"

_DEFAULT_CLASS = {"O": sc.O, "B": sc.B, "I": sc.I, "E": sc.E, "S": sc.S, ".": sc.DOT}
_CLASSES = (sc.O, sc.B, sc.I, sc.E, sc.S, sc.DOT, sc.OTHER)
_WELL_FORMED_BARE = frozenset({"O", "B", "I", "E", "S"})

#: seqeval 1.2.2 ``end_of_chunk`` / ``start_of_chunk`` as an event table.
DEFAULT_RULES = EventRules(
    end=frozenset(
        {(p, c) for p in (sc.E, sc.S) for c in _CLASSES}
        | {(p, c) for p in (sc.B, sc.I) for c in (sc.B, sc.S, sc.O)}
    ),
    start=frozenset(
        {(p, c) for p in _CLASSES for c in (sc.B, sc.S)}
        | {(p, c) for p in (sc.E, sc.S, sc.O) for c in (sc.E, sc.I)}
    ),
    # "prev_tag not in ('O', '.') and the types differ" / "tag not in ('O', '.') and ..."
    end_on_type_change=frozenset({sc.B, sc.I, sc.E, sc.S, sc.OTHER}),
    start_on_type_change=frozenset({sc.B, sc.I, sc.E, sc.S, sc.OTHER}),
)

# The type of the outside tag ("O" -> "_") always has id 0; the virtual tag
# before the first token has seqeval's initial type "" (id -1), which equals
# no parsed type.
_UNDERSCORE = 0
_INITIAL = -1


def parse_default(vocab: Sequence[str], *, suffix: bool = False) -> ParsedVocab:
    """Parse distinct tags as seqeval's default mode does.

    Returns a :class:`~nerscore.values.tags.ParsedVocab` whose ``label`` holds type
    ids into ``labels`` (``labels[0]`` is ``"_"``); the empty tag, on which
    seqeval fails, is listed in ``invalid``.

    Examples
    --------
    >>> pv = parse_default(["B-PER", "U-PER", "O", ".", "BX-Y", "B-ARG-LOC"])
    >>> pv.cls.tolist()
    [1, 6, 0, 5, 1, 1]
    >>> [pv.labels[i] for i in pv.label.tolist()]
    ['PER', 'PER', '_', '_', 'Y', 'ARG-LOC']
    >>> [parse_default([t], suffix=True).labels[-1] for t in ("PER-B", "A-B-I", "X")]
    ['PER', 'A-B', '_']
    """
    n = len(vocab)
    cls = np.zeros(n, dtype=np.int8)
    label = np.zeros(n, dtype=np.int64)
    index: dict[str, int] = {"_": _UNDERSCORE}
    invalid: dict[int, str] = {}
    for i, tag in enumerate(vocab):
        if not tag:
            invalid[i] = "an empty tag has no prefix character (seqeval raises IndexError)"
            continue
        if suffix:
            letter, typ = tag[-1], tag[:-1].rsplit("-", 1)[0] or "_"
        else:
            letter, typ = tag[0], tag[1:].split("-", 1)[-1] or "_"
        cls[i] = _DEFAULT_CLASS.get(letter, sc.OTHER)
        label[i] = index.setdefault(typ, len(index))
    return ParsedVocab(cls, label, tuple(index), invalid)


def odd_tags(vocab: Sequence[str], *, suffix: bool = False) -> list[str]:
    """Tags on which seqeval warns "... seems not to be NE tag." (in vocabulary order).

    Examples
    --------
    >>> odd_tags(["B-PER", "O", "U-PER", "B", "BPER", "."])
    ['U-PER', 'BPER', '.']
    """
    ends = ("-B", "-I", "-E", "-S")
    starts = ("B-", "I-", "E-", "S-")
    return [
        t for t in vocab
        if t not in _WELL_FORMED_BARE and not (t.endswith(ends) if suffix else t.startswith(starts))
    ]


def parse_strict(
    vocab: Sequence[str], table: SchemeTable, *, suffix: bool = False, delimiter: str = "-"
) -> ParsedVocab:
    """Parse distinct tags as seqeval's ``Token`` does in strict mode.

    The prefix is the first (suffix style: last) character and must be one
    of the scheme's letters or ``O``; the type is the rest with ``delimiter``
    stripped from both ends, or ``"_"``. Tags with another prefix are listed
    in ``invalid`` (seqeval raises ``KeyError`` or ``ValueError`` for them).

    Examples
    --------
    >>> from nerscore.values.schemes import get_scheme
    >>> pv = parse_strict(["B--PER-", "I-PER", "O", "E-PER"], get_scheme("IOB2"))
    >>> pv.cls.tolist()[:3], [pv.labels[i] for i in pv.label.tolist()[:3]]
    ([1, 2, 0], ['PER', 'PER', '_'])
    >>> pv.invalid[3]
    "prefix 'E' is not allowed by the IOB2 scheme (allowed: B, I, O)"
    """
    letters = dict(table.letters)
    letters["O"] = sc.O
    n = len(vocab)
    cls = np.zeros(n, dtype=np.int8)
    label = np.zeros(n, dtype=np.int64)
    index: dict[str, int] = {"_": _UNDERSCORE}
    invalid: dict[int, str] = {}
    allowed = ", ".join(sorted(letters))
    for i, tag in enumerate(vocab):
        if not tag:
            invalid[i] = "an empty tag has no prefix character (seqeval raises IndexError)"
            continue
        letter, body = (tag[-1], tag[:-1]) if suffix else (tag[0], tag[1:])
        code = letters.get(letter)
        if code is None:
            if letter in SEQEVAL_PREFIXES:
                invalid[i] = (
                    f"prefix {letter!r} is not allowed by the {table.scheme.value} scheme "
                    f"(allowed: {allowed})"
                )
            else:
                where = "last" if suffix else "first"
                invalid[i] = (
                    f"its {where} character {letter!r} is not a prefix seqeval knows "
                    f"(the {table.scheme.value} scheme allows: {allowed})"
                )
            continue
        cls[i] = code
        label[i] = index.setdefault(body.strip(delimiter) or "_", len(index))
    return ParsedVocab(cls, label, tuple(index), invalid)


@dataclass(frozen=True)
class Decoded:
    """Chunks of a corpus in flat coordinates (half-open), typed by ``types``."""

    begin: IntArray
    end: IntArray
    typ: IntArray
    types: tuple[str, ...]
    offsets: IntArray
    """Start of every sentence in the flat coordinates (``len = n_sentences + 1``)."""


def _check(parsed: ParsedVocab, enc: EncodedTags, what: str) -> None:
    """Raise :class:`~nerscore.errors.InvalidTagError` at the first unparsable tag of ``enc``."""
    if parsed.invalid:
        bad = np.zeros(len(parsed.cls), dtype=bool)
        bad[list(parsed.invalid)] = True
        if bad[enc.ids].any():
            check_vocab(parsed, enc, what=what)


def decode_default(
    enc: EncodedTags, parsed: ParsedVocab, *, separators: bool = True, what: str = "tag"
) -> Decoded:
    """Chunks of seqeval's ``get_entities`` over the whole corpus at once.

    With ``separators`` the sentences are joined with an ``O`` after each,
    exactly as seqeval flattens nested lists, so positions are in seqeval's
    flat coordinates and a chunk may run across sentences as it does there.

    Examples
    --------
    >>> enc = EncodedTags.from_lists([["U-PER", "U-PER"], ["B-LOC"]])
    >>> d = decode_default(enc, parse_default(enc.vocab))
    >>> d.begin.tolist(), d.end.tolist(), [d.types[t] for t in d.typ.tolist()]
    ([0, 3], [2, 4], ['PER', 'LOC'])
    """
    _check(parsed, enc, what)
    # the event rules over the flattened corpus, without building it
    n = len(enc)
    offsets = enc.offsets if separators else np.array([0, n], dtype=np.int64)
    begin, end = decode_events_ids(enc.ids, offsets, parsed.cls, parsed.label, DEFAULT_RULES,
                                   boundary_type=_UNDERSCORE, first_type=_INITIAL,
                                   no_start=-1 if separators else 0)
    t = parsed.label[enc.ids[end - 1]] if n else np.zeros(0, dtype=np.int64)
    offsets = enc.offsets
    if separators:
        begin, end = with_separators(begin, end, enc.offsets)
        offsets = enc.offsets + np.arange(len(enc.offsets), dtype=np.int64)
    return Decoded(begin, end, t, parsed.labels, offsets)


def decode_strict(
    enc: EncodedTags, parsed: ParsedVocab, table: SchemeTable, *, what: str = "tag"
) -> Decoded:
    """Chunks of seqeval's ``Tokens.entities`` (strict mode), sentence by sentence.

    Raises :class:`~nerscore.errors.InvalidTagError` at the first tag the
    scheme does not allow, as seqeval raises there.

    Examples
    --------
    >>> from nerscore.values.schemes import get_scheme
    >>> enc = EncodedTags.from_lists([["I-PER", "I-PER"], ["B-LOC", "I-LOC"]])
    >>> d = decode_strict(enc, parse_strict(enc.vocab, get_scheme("IOB2")), get_scheme("IOB2"))
    >>> d.begin.tolist(), d.end.tolist(), [d.types[t] for t in d.typ.tolist()]
    ([3], [5], ['LOC'])
    """
    _check(parsed, enc, what)
    cls, offsets = flatten_with_separators(parsed.cls[enc.ids], enc.offsets, sc.O)
    typ, _ = flatten_with_separators(parsed.label[enc.ids], enc.offsets, _UNDERSCORE)
    begin, end, t = decode_chunks(cls.astype(np.int8, copy=False),
                                  typ.astype(np.int64, copy=False),
                                  table.start, table.inside, table.end)
    return Decoded(begin, end, t, parsed.labels, offsets)


# --------------------------------------------------------------------------- division


def _fill(zero_division: str | float) -> float:
    """The value of an undefined ratio (seqeval: 0 for "warn" and 0, else 1; nan kept)."""
    if zero_division == "warn":
        return 0.0
    return float(zero_division)


_COMPAT_WARNING: list[type[UserWarning]] = []


def compat_warning() -> type[UserWarning]:
    """The class of seqeval-compatible warnings about undefined ratios.

    :class:`nerscore.UndefinedMetricWarning`, and also scikit-learn's
    ``UndefinedMetricWarning`` (the class seqeval issues) when scikit-learn
    is installed, so that filters written for either class match. Built on
    first use: scikit-learn is never imported before a warning is due.
    """
    if not _COMPAT_WARNING:
        bases: tuple[type[UserWarning], ...] = (UndefinedMetricWarning,)
        try:
            from sklearn.exceptions import UndefinedMetricWarning as SklearnWarning  # type: ignore[import-untyped,unused-ignore]
        except ImportError:
            pass
        else:
            bases = (UndefinedMetricWarning, SklearnWarning)
        _COMPAT_WARNING.append(type("UndefinedMetricWarning", bases, {
            "__module__": "nerscore.compat.seqeval",
            "__doc__": "An undefined ratio, reported as seqeval reports it.",
        }))
    return _COMPAT_WARNING[0]


def _warn(average: str | None, modifier: str, msg_start: str, size: int) -> None:
    where = "due to" if size == 1 else "in labels with"
    warnings.warn(
        f"{msg_start} ill-defined and being set to 0.0 {where} no {modifier} samples. "
        "Use `zero_division` parameter to control this behavior.",
        compat_warning(),
        stacklevel=4,
    )


def _divide(
    num: npt.NDArray[Any],
    den: npt.NDArray[Any],
    *,
    metric: str,
    modifier: str,
    average: str | None,
    warn_for: Collection[str],
    zero_division: str | float,
) -> FloatArray:
    undefined = den == 0
    safe = den.copy()
    safe[undefined] = 1
    out: FloatArray = num / safe
    if not undefined.any():
        return out
    out[undefined] = _fill(zero_division)
    if zero_division != "warn" or metric not in warn_for:
        return out
    if "f-score" in warn_for:
        msg_start = f"{metric.title()} and F-score are"
    else:
        msg_start = f"{metric.title()} is"
    _warn(average, modifier, msg_start, len(out))
    return out


PRFS = tuple[Any, Any, Any, Any]


def prf_support(
    tp: npt.ArrayLike,
    n_pred: npt.ArrayLike,
    n_gold: npt.ArrayLike,
    *,
    average: str | None,
    warn_for: Collection[str] = ("precision", "recall", "f-score"),
    beta: float = 1.0,
    zero_division: str | float = "warn",
) -> PRFS:
    """Precision, recall, F-beta and support with seqeval 1.2.2's arithmetic.

    Parameters
    ----------
    tp, n_pred, n_gold : array-like
        Per label (sorted labels): true positives, predicted and gold counts.
    average : {None, "micro", "macro", "weighted"}
        Already validated.
    warn_for : collection of str
        Which of ``"precision"``, ``"recall"``, ``"f-score"`` may warn.
    beta : float
        Non-negative (``inf`` gives the recall).
    zero_division : "warn", 0.0, 1.0 or nan
        Already validated.

    Returns
    -------
    tuple
        ``(precision, recall, fbeta, support)``: NumPy arrays for
        ``average=None``, otherwise plain ``float`` and ``int``.

    Notes
    -----
    ``P = tp / n_pred`` and ``R = tp / n_gold`` per label (summed first for
    micro); ``F = (1 + beta^2) * P * R / (beta^2 * P + R)`` from those
    arrays; macro and weighted are :func:`numpy.average` of the per-label
    arrays. With no gold entities the weighted average is the
    ``zero_division`` value (P and F only when nothing is predicted
    either), as in seqeval. The macro average over no labels is ``nan``,
    as seqeval returns it, whatever ``zero_division`` says; it warns with
    an :class:`~nerscore.UndefinedMetricWarning` (where seqeval lets the
    ``RuntimeWarning`` messages of NumPy's mean of nothing through).

    Examples
    --------
    >>> prf_support([1, 0], [1, 1], [2, 1], average="macro", zero_division=0.0)
    (0.5, 0.25, 0.3333333333333333, 3)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     print(prf_support([], [], [], average="macro", zero_division=0.0))
    (nan, nan, nan, 0)
    >>> print(caught[0].message)
    The macro average over no labels is undefined (neither y_true nor y_pred has an entity) and set to nan, as seqeval 1.2.2 sets it; `zero_division` does not apply to it.
    """
    tp_a = np.asarray(tp)
    pred_a = np.asarray(n_pred)
    true_a = np.asarray(n_gold)
    if average == "micro":
        tp_a, pred_a, true_a = (np.array([a.sum()]) for a in (tp_a, pred_a, true_a))
    beta2 = beta**2
    precision = _divide(tp_a, pred_a, metric="precision", modifier="predicted", average=average,
                        warn_for=warn_for, zero_division=zero_division)
    recall = _divide(tp_a, true_a, metric="recall", modifier="true", average=average,
                     warn_for=warn_for, zero_division=zero_division)
    if zero_division == "warn" and warn_for == ("f-score",) and (pred_a[true_a == 0] == 0).any():
        _warn(average, "true nor predicted", "F-score is", len(true_a))
    if math.isinf(beta) and beta > 0:
        fbeta = recall
    else:
        denom = beta2 * precision + recall
        denom[denom == 0.0] = 1
        fbeta = (1 + beta2) * precision * recall / denom
    if average is None:
        return precision, recall, fbeta, true_a.copy()
    support = int(true_a.sum())
    fill = _fill(zero_division)
    if average == "weighted" and true_a.sum() == 0:
        nothing_predicted = pred_a.sum() == 0
        return (fill if nothing_predicted else 0.0, fill,
                fill if nothing_predicted else 0.0, support)
    if len(true_a) == 0:  # macro: seqeval's mean of nothing, nan
        warnings.warn(
            "The macro average over no labels is undefined (neither y_true nor y_pred has an "
            "entity) and set to nan, as seqeval 1.2.2 sets it; `zero_division` does not apply "
            "to it.",
            compat_warning(),
            stacklevel=user_stacklevel(),
        )
        nan = math.nan
        return nan, nan, nan, support
    weights = true_a if average == "weighted" else None
    return (
        float(np.average(precision, weights=weights)),
        float(np.average(recall, weights=weights)),
        float(np.average(fbeta, weights=weights)),
        support,
    )
