"""Scored spans from a token classifier: each decoded entity scored from its tokens' probabilities.

A token classifier gives every token a probability per tag. The tags are
the argmax; the entities are decoded from them as from any tag sequence;
each token's score is the probability of its own (argmax) tag; and an
entity's score combines the scores of its tokens by one rule
(docs/curves.md):

- ``"min"`` (default): the least sure token — an entity is as good as its
  weakest token;
- ``"mean"``: the mean over the entity's tokens;
- ``"first"``: the first token's (the ``B-`` token's) score.

The result is span input — per sequence, ``(start, end, label)`` for gold
and ``(start, end, label, score)`` for predictions, in token offsets — that
:func:`nerscore.threshold_curve` and :func:`nerscore.calibration` take.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.decode.entities import decode
from nerscore.errors import option_error
from nerscore.values.decoding import Decoding
from nerscore.values.spans import EntityColumns
from nerscore.values.tags import EncodedTags

__all__ = ["RULES", "check_rule", "scored_span_lists", "span_scores"]

#: How a span's score is made from its tokens' scores.
RULES = ("min", "mean", "first")

FloatArray = npt.NDArray[np.float64]


def check_rule(rule: object) -> str:
    """``rule`` checked against :data:`RULES`."""
    if isinstance(rule, str) and rule in RULES:
        return rule
    raise option_error("rule", "one of 'min', 'mean' or 'first'", rule)


def span_scores(token_scores: FloatArray, begin: npt.NDArray[np.int64],
                end: npt.NDArray[np.int64], rule: str) -> FloatArray:
    """The score of every span ``[begin, end)`` of the flat ``token_scores`` (non-empty spans).

    Examples
    --------
    >>> s = np.array([0.9, 0.5, 0.7, 0.8, 0.2])
    >>> b, e = np.array([0, 3]), np.array([3, 5])
    >>> span_scores(s, b, e, "min").tolist(), span_scores(s, b, e, "first").tolist()
    ([0.5, 0.2], [0.9, 0.8])
    >>> span_scores(s, b, e, "mean").round(4).tolist()
    [0.7, 0.5]
    """
    if len(begin) == 0:
        return np.zeros(0)
    if rule == "first":
        return np.asarray(token_scores[begin], dtype=np.float64)
    if rule == "mean":
        csum = np.concatenate([[0.0], np.cumsum(token_scores, dtype=np.float64)])
        return np.asarray((csum[end] - csum[begin]) / (end - begin), dtype=np.float64)
    # min: one reduceat over [b0, e0, b1, e1, ...]; spans are sorted and do not overlap
    padded = np.append(token_scores, np.inf)
    bounds = np.empty(2 * len(begin), dtype=np.int64)
    bounds[0::2] = begin
    bounds[1::2] = end
    return np.asarray(np.minimum.reduceat(padded, bounds)[0::2], dtype=np.float64)


def _lists(cols: EntityColumns, n: int, scores: FloatArray | None) -> list[list[Any]]:
    out: list[list[Any]] = [[] for _ in range(n)]
    labels = cols.labels
    rows = zip(cols.seq.tolist(), cols.start.tolist(), cols.end.tolist(), cols.label.tolist(),
               strict=True)
    if scores is None:
        for q, s, e, lab in rows:
            out[q].append((s, e, labels[lab]))
    else:
        for (q, s, e, lab), x in zip(rows, scores.tolist(), strict=True):
            out[q].append((s, e, labels[lab], x))
    return out


def scored_span_lists(
    pred_ids: npt.ArrayLike, token_scores: npt.ArrayLike, keep: npt.ArrayLike,
    vocab: Sequence[str], *, gold_ids: npt.ArrayLike | None = None,
    decoding: Decoding | None = None, rule: str = "min",
) -> tuple[list[list[Any]] | None, list[list[Any]]]:
    """Gold and scored predicted spans per sequence from padded ``(n, length)`` arrays.

    Parameters
    ----------
    pred_ids : array of int, shape (n, length)
        The predicted tag ids (argmax).
    token_scores : array of float, shape (n, length)
        Each token's score (the probability of its predicted tag).
    keep : array of bool, shape (n, length)
        The positions that are tokens (padding and ignored positions are
        False; each row's kept positions are its tokens, in order).
    vocab : sequence of str
        The tag of every id.
    gold_ids : array of int, shape (n, length), optional
        The gold tag ids, read at the same positions.
    decoding : Decoding, optional
        How tags are decoded (lenient, scheme guessed, by default).
    rule : {"min", "mean", "first"}
        How a span's score is made from its tokens'.

    Returns
    -------
    (gold, pred)
        Per sequence, ``(start, end, label)`` gold spans (None without
        ``gold_ids``) and ``(start, end, label, score)`` predicted spans,
        in token offsets of the kept positions.

    Examples
    --------
    >>> vocab = ["O", "B-PER", "I-PER"]
    >>> gold, pred = scored_span_lists([[1, 2, 0, 1]], [[0.9, 0.6, 0.99, 0.7]],
    ...                                [[True, True, True, True]], vocab, gold_ids=[[1, 2, 0, 0]])
    >>> gold, pred
    ([[(0, 2, 'PER')]], [[(0, 2, 'PER', 0.6), (3, 4, 'PER', 0.7)]])
    """
    rule = check_rule(rule)
    decoding = decoding or Decoding()
    mask = np.asarray(keep, dtype=bool)
    ids = np.asarray(pred_ids)
    scores = np.asarray(token_scores, dtype=np.float64)
    if not (ids.shape == mask.shape == scores.shape) or ids.ndim != 2:
        raise ValueError(f"Expected pred_ids, token_scores and keep of one 2-dimensional shape; "
                         f"got {ids.shape}, {scores.shape} and {mask.shape}.")
    enc = EncodedTags.from_padded(ids, vocab=vocab, mask=mask)
    cols = decode(enc, decoding)
    begin = enc.offsets[cols.seq] + cols.start
    end = enc.offsets[cols.seq] + cols.end
    pred = _lists(cols, len(ids), span_scores(scores[mask], begin, end, rule))
    gold = None
    if gold_ids is not None:
        genc = EncodedTags.from_padded(np.asarray(gold_ids), vocab=vocab, mask=mask)
        gold = _lists(decode(genc, decoding), len(ids), None)
    return gold, pred
