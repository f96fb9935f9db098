"""The seqeval drop-in's scheme classes, argument checks and counting (see :mod:`nerscore.compat.seqeval`)."""

from __future__ import annotations

import warnings
from collections.abc import Collection
from typing import Any, ClassVar

import numpy as np

from nerscore.decode.inputs import Prepared
from nerscore.decode.seqeval_rules import (
    Decoded,
    decode_default,
    decode_strict,
    odd_tags,
    parse_default,
    parse_strict,
    prf_support,
)
from nerscore.errors import SchemeError, option_error
from nerscore.matching import Matcher, get_matcher
from nerscore.values.counts import Counts
from nerscore.values.ratios import check_zero_division
from nerscore.values.schemes import Scheme, SchemeTable, get_scheme
from nerscore.values.spans import EntityColumns
from nerscore.values.tag_input import encode_pair

__all__ = [
    "BILOU",
    "IOB1",
    "IOB2",
    "IOBES",
    "IOE1",
    "IOE2",
    "WARN_ALL",
    "Token",
    "check_average",
    "check_beta",
    "check_match",
    "check_sample_weight",
    "count",
    "resolve",
    "scheme_name",
    "scores",
]


class Token:
    """Base of the scheme classes: a tagging scheme named by a class, as in seqeval.

    Pass a subclass as ``scheme=`` together with ``mode="strict"``.
    """

    scheme: ClassVar[Scheme]


class IOB1(Token):
    """The IOB1 scheme (``B`` only between adjacent entities of one type)."""

    scheme = Scheme.IOB1


class IOB2(Token):
    """The IOB2 (BIO) scheme."""

    scheme = Scheme.IOB2


class IOE1(Token):
    """The IOE1 scheme (``E`` only between adjacent entities of one type)."""

    scheme = Scheme.IOE1


class IOE2(Token):
    """The IOE2 scheme."""

    scheme = Scheme.IOE2


class IOBES(Token):
    """The IOBES (BIOES) scheme."""

    scheme = Scheme.IOBES


class BILOU(Token):
    """The BILOU scheme (IOBES written with ``L`` and ``U``)."""

    scheme = Scheme.BILOU


_SEQEVAL_SCHEME_NAMES = frozenset({"IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"})
_AVERAGES = (None, "micro", "macro", "weighted")
WARN_ALL = ("precision", "recall", "f-score")


# ----------------------------------------------------------------------------- checks


def check_scheme(scheme: object) -> SchemeTable:
    if isinstance(scheme, type):
        name = scheme.__name__
        if name not in _SEQEVAL_SCHEME_NAMES:
            raise SchemeError(
                "Expected `scheme` to be one of IOB1, IOB2, IOE1, IOE2, IOBES, BILOU (a class "
                f"or its name as a string); got the class {name}."
            )
        return get_scheme(name)
    if isinstance(scheme, str):
        return get_scheme(scheme)
    raise SchemeError(
        "Expected `scheme` to be one of IOB1, IOB2, IOE1, IOE2, IOBES, BILOU (a class or its "
        f"name as a string); got {scheme!r}."
    )


def resolve(mode: object, scheme: object) -> SchemeTable | None:
    """The strict-mode scheme table, or None for seqeval's default mode."""
    if mode is None or (isinstance(mode, str) and mode == "lenient"):
        if scheme is not None:
            raise SchemeError(
                f"`scheme` is only used with mode='strict' (got scheme={scheme_name(scheme)} and "
                f"mode={mode!r}); seqeval 1.2.2 would silently ignore it. Pass mode='strict' "
                "to decode strictly with that scheme, or drop `scheme` for the default decoding."
            )
        return None
    if not (isinstance(mode, str) and mode == "strict"):
        raise ValueError(f"Expected `mode` to be one of None, 'strict' or 'lenient'; got {mode!r}.")
    if scheme is None:
        raise SchemeError(
            "mode='strict' needs an explicit scheme: pass scheme=IOB2 (or IOB1, IOE1, IOE2, "
            "IOBES, BILOU, as a class of this module or a string). seqeval 1.2.2 would silently "
            "fall back to the default mode (or guess the scheme from y_true)."
        )
    return check_scheme(scheme)


def scheme_name(scheme: object) -> str:
    return scheme.__name__ if isinstance(scheme, type) else repr(scheme)


def check_average(average: object) -> str | None:
    if average is None or (isinstance(average, str) and average in _AVERAGES):
        return None if average is None else str(average)
    raise ValueError(
        f"Expected `average` to be one of 'micro', 'macro', 'weighted' or None; got {average!r}."
    )


def check_beta(beta: object) -> float:
    ok = isinstance(beta, (int, float, np.integer, np.floating)) and not isinstance(beta, bool)
    if not ok or not beta >= 0:  # type: ignore[operator]
        raise ValueError(f"Expected `beta` to be a non-negative number; got {beta!r}.")
    return beta  # type: ignore[return-value]


def check_sample_weight(sample_weight: object) -> None:
    if sample_weight is not None:
        raise ValueError(
            "Expected `sample_weight` to be None; got a value. seqeval 1.2.2 accepts "
            "`sample_weight` but ignores it, so nerscore refuses it rather than return "
            "unweighted scores under a weighted name."
        )


def check_match(match: object) -> Matcher:
    matcher = get_matcher(match)
    if not matcher.aligns:
        raise option_error("match", "a matcher that pairs entities (not 'token')", match)
    return matcher


# ----------------------------------------------------------------------------- counting


def _columns(gold: Decoded, pred: Decoded) -> tuple[EntityColumns, EntityColumns]:
    """Both sides as entity columns over one sorted label vocabulary.

    A chunk belongs to the sentence where it begins; offsets are relative to
    that sentence's start in seqeval's flat coordinates (a chunk that runs
    across sentences, as seqeval's can, keeps its full length).
    """
    n_types = len(gold.types)
    seen = np.bincount(gold.typ, minlength=n_types) + np.bincount(pred.typ, minlength=n_types)
    present = np.flatnonzero(seen)
    names = [gold.types[i] for i in present.tolist()]
    order = sorted(range(len(names)), key=names.__getitem__)
    rank = np.zeros(n_types, dtype=np.int64)
    rank[present[order]] = np.arange(len(order), dtype=np.int64)
    labels = tuple(names[i] for i in order)
    offsets = gold.offsets  # the same for both sides (their shapes were checked)
    n_seq = len(offsets) - 1
    sentence_of = np.repeat(np.arange(n_seq, dtype=np.int64), np.diff(offsets))

    def cols(d: Decoded) -> EntityColumns:
        seq = sentence_of[d.begin]
        start = d.begin - offsets[seq]
        return EntityColumns(seq, start, start + (d.end - d.begin), rank[d.typ], labels, n_seq)

    return cols(gold), cols(pred)


def _decode_both(
    y_true: Any, y_pred: Any, *, suffix: bool, table: SchemeTable | None
) -> tuple[Decoded, Decoded]:
    t, p = encode_pair(y_true, y_pred)
    if table is None:
        for tag in odd_tags(t.vocab, suffix=suffix):
            warnings.warn(f"{tag} seems not to be NE tag.", UserWarning, stacklevel=4)
        parsed = parse_default(t.vocab, suffix=suffix)
        return (decode_default(t, parsed, what="y_true tag"),
                decode_default(p, parsed, what="y_pred tag"))
    parsed = parse_strict(t.vocab, table, suffix=suffix)
    return (decode_strict(t, parsed, table, what="y_true tag"),
            decode_strict(p, parsed, table, what="y_pred tag"))


def count(
    y_true: Any, y_pred: Any, *, suffix: bool, table: SchemeTable | None, match: str
) -> Counts:
    gold, pred = _columns(*_decode_both(y_true, y_pred, suffix=suffix, table=table))
    matcher = get_matcher(match)
    return matcher.counts(Prepared(gold, pred, None, None, None), matcher.resolve({})).present()


def scores(
    y_true: Any,
    y_pred: Any,
    *,
    average: object,
    warn_for: Collection[str],
    beta: object,
    sample_weight: object,
    zero_division: object,
    suffix: bool,
    mode: object,
    scheme: object,
    match: object,
) -> tuple[Any, Any, Any, Any]:
    b = check_beta(beta)
    avg = check_average(average)
    zd = check_zero_division(zero_division)
    check_sample_weight(sample_weight)
    table = resolve(mode, scheme)
    counts = count(y_true, y_pred, suffix=suffix, table=table, match=check_match(match).name)
    return prf_support(counts.tp, counts.n_pred, counts.n_gold, average=avg, warn_for=warn_for,
                       beta=b, zero_division=zd)


