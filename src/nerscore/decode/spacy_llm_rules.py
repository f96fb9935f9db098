"""spacy-llm's alignment of ``spacy.NER.v2`` answers, reproduced (``compat="spacy-llm"``; docs/llm.md).

spacy-llm 0.7.4 places the phrases of each ``LABEL: a, b`` line with
``find_substrings`` (lower-cased text and phrases, each distinct phrase of the
line once, every non-overlapping occurrence from left to right), turns each
occurrence into a token span with ``Doc.char_span(..., alignment_mode="contract")``
(``None``, and silently dropped, when no whole token is inside), and keeps the
spans ``spacy.util.filter_spans`` keeps: longest first (in tokens), then the
earlier start, a span kept when neither its first nor its last token is
already taken.

nerscore reproduces those spans and counts what spacy-llm drops without a
word: a phrase found nowhere is unaligned, a repeated phrase of a line and a
phrase whose every occurrence was dropped by snapping or filtered out are
unaligned too (each a false positive when scored), and the number of spans
dropped by snapping is :attr:`Placement.snapped`'s neighbour ``dropped``.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

__all__ = ["place_spacy_llm"]

Item = tuple[str, str, "int | None", "int | None"]


def place_spacy_llm(
    items: Sequence[Item], tokens: Sequence[str],
) -> tuple[list[tuple[int, int, str]], list[int], list[int]]:
    """Token spans of ``items`` as spacy-llm's ``spacy.NER.v2`` task assigns them.

    Parameters
    ----------
    items : sequence of (text, label, start, end)
        The mentions in output order (consecutive mentions with one label are
        one answer line; offsets are ignored, as spacy-llm ignores them).
    tokens : sequence of str
        The document's tokens, joined by one space as its text.

    Returns
    -------
    spans : list of (int, int, str)
        Token spans, sorted by start.
    unaligned : list of int
        Items spacy-llm places nowhere (not found, repeated in their line,
        or every occurrence dropped or filtered).
    dropped : list of int
        Items with an occurrence that snapping to tokens dropped.

    Examples
    --------
    >>> toks = "Paris is in France . Paris Hilton visited Paris .".split()
    >>> items = [("Paris Hilton", "PER", None, None), ("Paris", "LOC", None, None),
    ...          ("france", "LOC", None, None)]
    >>> place_spacy_llm(items, toks)[0]
    [(0, 1, 'LOC'), (3, 4, 'LOC'), (5, 7, 'PER'), (8, 9, 'LOC')]
    """
    starts, ends = [], []
    at = 0
    for tok in tokens:
        starts.append(at)
        ends.append(at + len(tok))
        at += len(tok) + 1
    lower = " ".join(tokens).lower()
    cands: list[tuple[int, int, str, int]] = []
    unaligned: list[int] = []
    dropped: set[int] = set()
    k = 0
    while k < len(items):
        label = items[k][1]
        j = k
        while j < len(items) and items[j][1] == label:
            j += 1
        seen: set[str] = set()
        for idx in range(k, j):
            sub = items[idx][0].lower()
            if not sub or sub in seen:
                unaligned.append(idx)
                continue
            seen.add(sub)
            found = False
            at = lower.find(sub)
            while at >= 0:
                end = at + len(sub)
                i = bisect.bisect_left(starts, at)  # contract: the tokens inside [at, end)
                e = bisect.bisect_right(ends, end)
                if i < e:
                    cands.append((i, e, label, idx))
                    found = True
                else:
                    dropped.add(idx)
                at = lower.find(sub, end)
            if not found and idx not in dropped:
                unaligned.append(idx)
        k = j
    ordered = sorted(cands, key=lambda c: (c[1] - c[0], -c[0]), reverse=True)
    taken: set[int] = set()
    kept: list[tuple[int, int, str, int]] = []
    for c in ordered:
        if c[0] not in taken and c[1] - 1 not in taken:
            kept.append(c)
            taken.update(range(c[0], c[1]))
    kept.sort(key=lambda c: c[0])
    placed = {c[3] for c in kept}
    lost = {c[3] for c in cands} - placed
    unaligned = sorted({*unaligned, *lost} - dropped)
    dropped_list = sorted(dropped - placed)
    return [(s, e, lab) for s, e, lab, _ in kept], unaligned, dropped_list
