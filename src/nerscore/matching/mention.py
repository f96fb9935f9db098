"""``mention`` matching: (normalised text, label) as a multiset per document (``docs/matchers/mention.md``).

Offsets are ignored: a predicted entity is correct when the same document
has a gold entity with the same label whose text is the same string after
``normalize`` (``"exact"``, ``"casefold"`` or ``"loose"``, as
:func:`nerscore.align_mentions` compares strings). Each gold entity pairs
with at most one prediction, the k-th with the k-th, so a string predicted
twice against one gold entity is one true positive and one false positive.
This is how many evaluations of generative models compare answers
(UniversalNER, GPT-NER); reporting it beside ``exact`` shows what the offsets
change.

An entity's text is its document's text between its offsets (a
discontinuous entity's fragments joined by one space), or the tokens of a tag
input joined by one space. Without texts (tags given without tokens) an
entity's string is unknown, so its offsets stand for it: the matcher counts
as ``exact`` does, and a note in the report says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nerscore.matching.alignment import Alignment, MatchResult
from nerscore.matching.exact import multiset_pairs
from nerscore.matching.registry import Matcher, Option, choice
from nerscore.values.counts import Counts
from nerscore.values.spans import EntityColumns, unify_labels

if TYPE_CHECKING:
    from nerscore.decode.inputs import Prepared

__all__ = ["MATCHER", "match_mention", "mention_key"]

#: The ``normalize`` choices: those of :data:`nerscore.decode.mentions.NORMALIZATIONS` (a test
#: checks it), named here so that listing the matchers' options does not import that module.
NORMALIZATIONS = ("exact", "casefold", "loose")

_NO_TEXT = ("match='mention' had no document texts (tags without tokens): entities were "
            "compared by their offsets, as match='exact' does.")


def mention_key(text: str, normalize: str = "exact") -> str:
    r"""The string a mention is compared by.

    Examples
    --------
    >>> mention_key(" \u201cParis\u201d,", "loose"), mention_key("PARIS", "casefold")
    ('paris', 'paris')
    """
    from nerscore.decode.mentions import normalize_mention

    return normalize_mention(text, normalize)


def _texts_of(cols: EntityColumns, texts: Sequence[Any] | None, normalize: str) -> list[str] | None:
    if texts is None:
        return None
    from nerscore.decode.mentions import normalize_mention

    out = []
    for k in range(len(cols)):
        doc = texts[int(cols.seq[k])] if int(cols.seq[k]) < len(texts) else None
        if doc is None:
            return None
        parts = ([(int(cols.start[k]), int(cols.end[k]))] if cols.fragments is None
                 else cols.fragments.row(k))
        if isinstance(doc, str):
            surface = " ".join(doc[s:e] for s, e in parts)
        else:
            surface = " ".join(" ".join(map(str, doc[s:e])) for s, e in parts)
        out.append(normalize_mention(surface, normalize))
    return out


def match_mention(
    gold: EntityColumns, pred: EntityColumns, *, texts: Sequence[Any] | None = None,
    normalize: str = "exact",
) -> MatchResult:
    """Match entities by (document, normalised text, label), offsets ignored.

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides.
    texts : sequence, optional
        Each document's text (str) or tokens (list of str).
    normalize : {"exact", "casefold", "loose"}
        How strings are compared.

    Returns
    -------
    MatchResult

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> text = "Paris is in France. Paris Hilton visited Paris."
    >>> g = EntityColumns([0, 0], [0, 12], [5, 18], [0, 0], ("LOC",))
    >>> p = EntityColumns([0, 0], [41, 41], [46, 46], [0, 0], ("LOC",))
    >>> match_mention(g, p, texts=[text]).counts.to_dict()
    {'LOC': {'tp': 1, 'n_pred': 2, 'n_gold': 2}}
    """
    gold, pred = unify_labels(gold, pred)
    kg_text, kp_text = _texts_of(gold, texts, normalize), _texts_of(pred, texts, normalize)
    extra: dict[str, Any] = {}
    if kg_text is None or kp_text is None:
        strings = [f"\x00{s}:{e}" for cols in (gold, pred)
                   for s, e in zip(cols.start.tolist(), cols.end.tolist(), strict=True)]
        if len(gold) or len(pred):
            extra["notes"] = [_NO_TEXT]
    else:
        strings = [*kg_text, *kp_text]
    vocab = {s: i for i, s in enumerate(dict.fromkeys(strings))}
    ids = np.array([vocab[s] for s in strings], dtype=np.int64)
    n_lab = max(len(gold.labels), 1)
    n_str = max(len(vocab), 1)
    seq = np.concatenate([gold.seq, pred.seq]).astype(np.int64)
    lab = np.concatenate([gold.label, pred.label]).astype(np.int64)
    keys = (seq * n_str + ids) * n_lab + lab
    gi, pi = multiset_pairs(keys[: len(gold)], keys[len(gold):])
    n = len(gold.labels)
    counts = Counts(gold.labels, np.bincount(gold.label[gi], minlength=n),
                    np.bincount(pred.label, minlength=n), np.bincount(gold.label, minlength=n))
    g_used = np.zeros(len(gold), dtype=bool)
    g_used[gi] = True
    p_used = np.zeros(len(pred), dtype=bool)
    p_used[pi] = True
    alignment = Alignment(gold, pred, gi, pi, np.ones(len(gi)), np.flatnonzero(~g_used),
                          np.flatnonzero(~p_used))
    return MatchResult(counts, alignment, extra)


def _run(prep: Prepared, *, normalize: str) -> MatchResult:
    return match_mention(prep.gold, prep.pred, texts=prep.texts, normalize=normalize)


MATCHER = Matcher(
    "mention",
    "same normalised text and label per document, offsets ignored (LLM evaluations)",
    _run,
    options=(Option("normalize", "exact", choice("normalize", NORMALIZATIONS),
                    "how mention strings are compared: 'exact', 'casefold' or 'loose'",
                    NORMALIZATIONS),),
)
