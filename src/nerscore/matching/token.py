"""``token`` scores: per-token entity labels, prefixes stripped (``docs/matchers/token.md``).

Each token's label is its tag's type (``O`` = no label). Precision, recall
and F per label are computed over tokens (``O`` excluded). Accuracy is raw
tag-string equality over all tokens, ``O`` included (conlleval, seqeval).
Never computed on repaired tags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from nerscore.matching.alignment import MatchResult
from nerscore.matching.registry import Matcher
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.tags import EncodedTags, check_vocab, parse_vocab

if TYPE_CHECKING:
    from nerscore.decode.inputs import Prepared

__all__ = ["MATCHER", "token_counts"]


def token_counts(gold: EncodedTags, pred: EncodedTags, decoding: Decoding | None = None) -> Counts:
    """Per-label token counts of two tag corpora sharing one vocabulary.

    Examples
    --------
    >>> from nerscore.values.tag_input import encode_pair
    >>> g, p = encode_pair([["B-PER", "I-PER", "O"]], [["B-PER", "B-PER", "B-LOC"]])
    >>> c = token_counts(g, p)
    >>> c.to_dict(), c.tokens_correct
    ({'LOC': {'tp': 0, 'n_pred': 1, 'n_gold': 0}, 'PER': {'tp': 2, 'n_pred': 2, 'n_gold': 2}}, 1)
    """
    parsed = parse_vocab(gold.vocab, decoding)
    check_vocab(parsed, gold)
    check_vocab(parsed, pred)
    lt = parsed.label[gold.ids]
    lp = parsed.label[pred.ids]
    n = len(parsed.labels)
    order = sorted(range(n), key=parsed.labels.__getitem__)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    labels = tuple(parsed.labels[i] for i in order)

    def count(x: np.ndarray) -> np.ndarray:
        x = x[x >= 0]
        return np.bincount(rank[x], minlength=n)
    return Counts(
        labels,
        count(lt[lt == lp]),
        count(lp),
        count(lt),
        tokens=len(gold),
        tokens_correct=int(np.count_nonzero(gold.ids == pred.ids)),
    )


def _count(prep: Prepared) -> Counts:
    if prep.tags is None:  # span inputs: units (characters or tokens) per label
        from nerscore.matching.span_token import span_token_counts

        return span_token_counts(prep.gold, prep.pred)
    return token_counts(*prep.tags, prep.decoding)


def _run(prep: Prepared) -> MatchResult:
    return MatchResult(_count(prep), None)


MATCHER = Matcher(
    "token",
    "per-token labels, prefixes stripped, O excluded; accuracy on raw tags (conlleval, seqeval)",
    _run,
    aligns=False,
    needs="units",
    count=_count,
)
