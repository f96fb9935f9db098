"""Placing the mentions of many documents at once (docs/llm.md, "Alignment").

The alignment rule is :func:`nerscore.decode.mentions.align_items`: in each
document, distinct strings are placed longest first, each on its first free
occurrence (or its k-th, or all of them, by policy). In a document where no
two of the spans placed below overlap, no placed string takes a character
another one needs, so the rule places every string mentioned once on its
first occurrence, and a string mentioned twice on its first occurrence and,
under ``policy="sequential"``, its second mention on the next occurrence
(from the end of the first); when, in addition, the occurrence after those
overlaps no placed span, it is free, so the string is ambiguous exactly when
it has one (and, under ``policy="all"``, the rule places it there too).

:func:`place_mentions` therefore finds, for every mention of every document
at once, its first and next occurrences (``str.find`` mapped over all
mentions; a third one for strings mentioned twice), tests the conditions
above with NumPy on positions offset by document (so that spans of different
documents never meet), and keeps those occurrences where they hold. The
other documents (a string mentioned three times, overlapping spans or
candidates, ``policy="all"`` with a repeated string, or a normalisation that
changes the text's length) are placed by the rule itself, one document at a
time. Both give the same placement by construction;
``tests/decode/test_placement.py`` checks it on random documents.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain, repeat
from typing import NamedTuple

import numpy as np

from nerscore.decode.mentions import _normalized, _place, _Taken, normalize_mention
from nerscore.values.spans import IntArray, int_array

__all__ = ["ManyPlacement", "place_mentions"]


class ManyPlacement(NamedTuple):
    """Where :func:`place_mentions` placed the mentions of many documents.

    ``doc``, ``start``, ``end`` and ``mention`` are one row per placed span
    (a mention may have several under ``policy="all"``, or share one with
    others under ``"first"``), sorted by document, start, end and mention;
    ``mention`` and ``unaligned`` index the mentions given.
    """

    doc: IntArray
    start: IntArray
    end: IntArray
    mention: IntArray
    unaligned: IntArray
    ambiguous: int


def place_mentions(
    sources: Sequence[str], doc: Sequence[int] | IntArray, texts: Sequence[str],
    labels: Sequence[object] | IntArray, *, policy: str = "sequential", normalize: str = "exact",
) -> ManyPlacement:
    """Place mentions without offsets in the texts of many documents, as ``align_items`` does.

    Parameters
    ----------
    sources : sequence of str
        Every document's text.
    doc : sequence of int
        Per mention, the index of its document in ``sources``; non-decreasing.
    texts : sequence of str
        Per mention, its string (in output order within a document).
    labels : sequence or array
        Per mention, its label, or any code standing for it (only equality
        is used).
    policy, normalize : str
        As :func:`nerscore.align_mentions` (already checked).

    Returns
    -------
    ManyPlacement

    Examples
    --------
    >>> p = place_mentions(["Anna met Anna", "Lyon"], [0, 0, 1], ["Anna", "Bob", "Lyon"],
    ...                    ["PER", "PER", "LOC"])
    >>> p.doc.tolist(), p.start.tolist(), p.end.tolist(), p.unaligned.tolist(), p.ambiguous
    ([0, 1], [0, 0], [4, 4], [1], 1)
    """
    n, n_docs = len(texts), len(sources)
    seq = np.asarray(doc, dtype=np.int64).reshape(-1)
    greedy = np.zeros(n_docs, dtype=bool)  # documents the rule places one by one
    norm = list(sources)
    keys: Sequence[str] = texts
    if normalize != "exact":
        for k, src in enumerate(sources):
            norm[k], origin = _normalized(src, normalize)
            greedy[k] = origin is not None
        keys = list(map(normalize_mention, texts, repeat(normalize, n)))
    per_doc = np.bincount(seq, minlength=n_docs).tolist()

    def haystacks() -> Iterator[str]:  # each mention's (normalised) text, not kept as a list
        return chain.from_iterable(map(repeat, norm, per_doc))

    at = int_array(map(str.find, haystacks(), keys), n)
    length = int_array(map(len, keys), n)
    end = at + length
    nxt = int_array(map(str.find, haystacks(), keys, end.tolist()), n)
    found = (at >= 0) & (length > 0)
    nxt[~found] = -1
    offset = np.zeros(n_docs, dtype=np.int64)  # documents on one line, one apart
    if n_docs > 1:
        offset[1:] = np.cumsum(int_array(map(len, norm), n_docs) + 1)[:-1]
    rows = np.flatnonzero(found)
    rows = rows[np.argsort(offset[seq[rows]] + at[rows], kind="stable")]
    g_start = offset[seq[rows]] + at[rows]
    # a string mentioned again in its document has the first occurrence of the mention before
    again = np.zeros(len(rows), dtype=bool)
    again[1:] = (g_start[1:] == g_start[:-1]) & (length[rows[1:]] == length[rows[:-1]])
    if policy == "all":
        greedy[seq[rows[again]]] = True
    else:  # three times or more
        greedy[seq[rows[2:][again[2:] & again[1:-1]]]] = True
    second, lone = rows[again], rows[~again]
    pair = rows[np.flatnonzero(again) - 1]  # the first mention of each second one
    # what makes a mention ambiguous: its string's next occurrence (for a string mentioned
    # twice, its first mention stands for both)
    cand = nxt.copy()
    cand[second] = -1
    took = second[nxt[second] >= 0] if policy == "sequential" else second[:0]
    if policy == "sequential" and len(second):  # the second mention takes the next occurrence
        cand[pair] = -1
        ts = took.tolist()
        cand[pair[nxt[second] >= 0]] = int_array(
            map(str.find, map(norm.__getitem__, seq[took].tolist()), map(keys.__getitem__, ts),
                (nxt[took] + length[took]).tolist()), len(ts))
    # the spans placed overlapping one another, or a candidate overlapping one of them
    p_doc = np.concatenate([seq[lone], seq[took]])
    p_start = np.concatenate([g_start[~again], offset[seq[took]] + nxt[took]])
    order = np.argsort(p_start, kind="stable")
    p_doc, p_start = p_doc[order], p_start[order]
    p_end = p_start + np.concatenate([length[lone], length[took]])[order]
    greedy[p_doc[1:][p_start[1:] < p_end[:-1]]] = True
    c_rows = np.flatnonzero(cand >= 0)
    c_start = offset[seq[c_rows]] + cand[c_rows]
    last = np.searchsorted(p_start, c_start + length[c_rows], side="left") - 1
    hit = (last >= 0) & (p_end[np.maximum(last, 0)] > c_start)
    greedy[seq[c_rows[hit | (policy == "all")]]] = True
    simple = ~greedy[seq]
    ambiguous = int(np.count_nonzero(cand[lone[simple[lone]]] >= 0)
                    + np.count_nonzero(cand[pair[simple[pair]]] >= 0))
    if policy == "sequential":
        at[second] = nxt[second]
        end[second] = nxt[second] + length[second]
        placed = rows[simple[rows] & (at[rows] >= 0)]
        lost = np.flatnonzero(simple & ((~found) | (at < 0))).tolist()
    else:
        placed = rows[simple[rows]]
        lost = np.flatnonzero(~found & simple).tolist()
    if len(took):  # second mentions moved on: back in order of document and start
        placed = placed[np.argsort(offset[seq[placed]] + at[placed], kind="stable")]
    # the rows these documents add, as flat lists of ints: tuples kept until the end would
    # make the cyclic collector run, and walk the columns above, again and again
    taken: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    bounds = np.searchsorted(seq, np.arange(n_docs + 1)).tolist()
    for k in np.flatnonzero(greedy).tolist():
        a, b = bounds[k], bounds[k + 1]
        if a == b:
            continue
        labs = labels[a:b]
        items = list(zip(texts[a:b], labs.tolist() if isinstance(labs, np.ndarray) else labs,
                         repeat(None), repeat(None), strict=False))
        spans: list[tuple[int, int, int]] = []
        unplaced, amb = _place(list(range(b - a)), items, sources[k], _Taken(len(sources[k])),
                               spans, policy, normalize)
        ambiguous += amb
        lost += [a + j for j in unplaced]
        if spans:
            spans.sort()
            starts, ends, mentions = zip(*spans, strict=True)
            taken[0].extend([k] * len(spans))
            taken[1].extend(starts)
            taken[2].extend(ends)
            taken[3].extend([a + j for j in mentions])
    extra = np.array(taken, dtype=np.int64).reshape(4, -1)
    d, s, e, m = (np.concatenate([col[placed], more]) for col, more
                  in zip((seq, at, end, np.arange(n)), extra, strict=True))
    order = np.argsort(d, kind="stable")  # each document's rows come from one side, in order
    return ManyPlacement(d[order], s[order], e[order], m[order],
                         np.sort(np.asarray(lost, dtype=np.int64)), ambiguous)
