"""A seeded span corpus (character offsets) with noisy predictions, for the span benchmarks.

Gold: about 100,000 documents with about 10 entities each (about 1,000,000
spans), eight labels with a skewed frequency, entities of 3-40 characters
separated by gaps of plain text, and about 4% of entities carrying a nested
entity of another label inside them (``[ORG Bank of [LOC America]]``).
Within one label and one side, spans never overlap (what the ``overlap``
matcher expects); nested spans always have a different label.

Prediction: the gold corrupted on roughly 12% of the entities the way
systems err: shifted boundaries (1-3 characters at either end), relabels,
splits (one entity predicted as two pieces), merges (two neighbouring
entities of one label predicted as one), misses, plus spurious entities in
the gaps. Generated with flat NumPy arrays (1,000,000 spans take a few
seconds, building the Python lists included).

Usage::

    from spans import make_span_corpus
    corpus = make_span_corpus(100_000, seed=0)
    gold, pred = corpus.to_lists()                 # per document: [(start, end, label), ...]
    g, p = corpus.to_nervaluate(range(2000))       # dicts with inclusive ends, for nervaluate
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

LABELS = ("PER", "ORG", "LOC", "DATE", "MISC", "MONEY", "PRODUCT", "EVENT")
LABEL_P = np.array([0.25, 0.22, 0.18, 0.12, 0.10, 0.06, 0.05, 0.02])
NESTED = 0.04  # share of gold entities with a nested entity of another label
NOISE = {"shift": 0.040, "relabel": 0.025, "split": 0.010, "merge": 0.010, "miss": 0.025}
SPURIOUS = 0.03  # spurious entities per gold entity


@dataclass
class Side:
    """One side as columns: document, start, end (exclusive), label id into :data:`LABELS`."""

    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray

    def __len__(self) -> int:
        return len(self.doc)

    def take(self, rows: np.ndarray) -> Side:
        return Side(self.doc[rows], self.start[rows], self.end[rows], self.label[rows])


@dataclass
class SpanCorpus:
    gold: Side
    pred: Side
    n_docs: int

    def to_lists(self) -> tuple[list[list[tuple[int, int, str]]], list[list[tuple[int, int, str]]]]:
        """Both sides as one list of ``(start, end, label)`` tuples per document."""
        return _lists(self.gold, self.n_docs), _lists(self.pred, self.n_docs)

    def subset(self, n_docs: int) -> SpanCorpus:
        """The first ``n_docs`` documents."""
        return SpanCorpus(
            self.gold.take(self.gold.doc < n_docs), self.pred.take(self.pred.doc < n_docs), n_docs
        )

    def to_nervaluate(self) -> tuple[list[list[dict[str, object]]], list[list[dict[str, object]]]]:
        """Both sides in nervaluate's dict format (``end`` inclusive: ``end - 1``)."""
        return _dicts(self.gold, self.n_docs), _dicts(self.pred, self.n_docs)


def _split_docs(side: Side, n_docs: int, items: list[object]) -> list[list[object]]:
    bounds = np.searchsorted(side.doc, np.arange(n_docs + 1)).tolist()
    return [items[a:b] for a, b in pairwise(bounds)]


def _lists(side: Side, n_docs: int) -> list[list[tuple[int, int, str]]]:
    names = np.array(LABELS, dtype=object)[side.label].tolist()
    items = list(zip(side.start.tolist(), side.end.tolist(), names, strict=True))
    return _split_docs(side, n_docs, items)  # type: ignore[arg-type, return-value]


def _dicts(side: Side, n_docs: int) -> list[list[dict[str, object]]]:
    names = np.array(LABELS, dtype=object)[side.label].tolist()
    items = [
        {"label": lab, "start": s, "end": e - 1}
        for s, e, lab in zip(side.start.tolist(), side.end.tolist(), names, strict=True)
    ]
    return _split_docs(side, n_docs, items)  # type: ignore[arg-type, return-value]


def _order(side: Side) -> Side:
    order = np.lexsort((side.label, side.end, side.start, side.doc))
    return side.take(order)


def _no_same_label_overlap(side: Side) -> Side:
    """Drop spans overlapping an earlier span of the same label in the same document."""
    order = np.lexsort((side.end, side.start, side.label, side.doc))
    s = side.take(order)
    if len(s) == 0:
        return s
    group = s.doc * len(LABELS) + s.label
    big = int(s.end.max()) + 1
    # running max of end within each (doc, label) group; groups are sorted ascending
    reach = np.maximum.accumulate(s.end + group * big) - group * big
    prev_reach = np.empty_like(reach)
    prev_reach[0] = -1
    prev_reach[1:] = reach[:-1]
    same = np.zeros(len(s), dtype=bool)
    same[1:] = group[1:] == group[:-1]
    keep = ~(same & (s.start < prev_reach)) & (s.end > s.start)
    return _order(s.take(keep))


def make_span_corpus(n_docs: int = 100_000, *, seed: int = 0) -> SpanCorpus:
    """Gold and noisy predicted spans (see the module docstring)."""
    rng = np.random.default_rng(seed)
    per_doc = rng.poisson(9.6, size=n_docs)
    n = int(per_doc.sum())
    doc = np.repeat(np.arange(n_docs, dtype=np.int64), per_doc)
    length = np.clip(np.round(rng.lognormal(2.4, 0.5, size=n)), 3, 40).astype(np.int64)
    gap = rng.integers(1, 120, size=n)
    first = np.zeros(n, dtype=bool)
    first[np.cumsum(per_doc)[:-1][per_doc[:-1] > 0]] = True
    if n:
        first[0] = True
    # lay the spans out document by document: start = gaps and lengths so far in the document
    step = gap + length
    csum = np.cumsum(step)
    doc_base = np.where(first, csum - step, 0)
    doc_base = np.maximum.accumulate(doc_base)
    end = csum - doc_base
    start = end - length
    label = rng.choice(len(LABELS), p=LABEL_P, size=n)
    # nested entities of another label inside some (long enough) entities
    host = (rng.random(n) < NESTED) & (length >= 8)
    h = np.flatnonzero(host)
    inner_len = np.maximum(3, (length[h] * rng.uniform(0.3, 0.7, size=len(h))).astype(np.int64))
    inner_start = start[h] + rng.integers(0, 1 << 30, size=len(h)) % (length[h] - inner_len + 1)
    inner_label = (label[h] + rng.integers(1, len(LABELS), size=len(h))) % len(LABELS)
    gold = _order(Side(
        np.concatenate([doc, doc[h]]),
        np.concatenate([start, inner_start]),
        np.concatenate([end, inner_start + inner_len]),
        np.concatenate([label, inner_label]),
    ))

    # ------------------------------------------------------------------ noise
    g = gold
    m = len(g)
    kinds = list(NOISE)
    probs = np.array([NOISE[k] for k in kinds] + [1 - sum(NOISE.values())])
    kind = rng.choice(len(probs), p=probs, size=m)
    p_start, p_end, p_label = g.start.copy(), g.end.copy(), g.label.copy()

    shift = kind == kinds.index("shift")
    delta = rng.integers(1, 4, size=m) * rng.choice([-1, 1], size=m)
    at_start = rng.random(m) < 0.5
    p_start = np.where(shift & at_start, np.maximum(p_start + delta, 0), p_start)
    p_end = np.where(shift & ~at_start, p_end + delta, p_end)
    p_end = np.maximum(p_end, p_start + 1)

    relabel = kind == kinds.index("relabel")
    other = rng.choice(len(LABELS), p=LABEL_P, size=m)
    other = np.where(other == p_label, (other + 1) % len(LABELS), other)
    p_label = np.where(relabel, other, p_label)

    keep = kind != kinds.index("miss")

    # splits: the entity becomes two pieces with a one-character hole
    split = (kind == kinds.index("split")) & (g.end - g.start >= 6)
    sp = np.flatnonzero(split)
    cut = g.start[sp] + 2 + rng.integers(0, 1 << 30, size=len(sp)) % (g.end[sp] - g.start[sp] - 4)
    p_end[sp] = cut
    split_piece = Side(g.doc[sp], cut + 1, g.end[sp], g.label[sp])

    # merges: an entity swallows the next one of the same label in its document
    nxt_same = np.zeros(m, dtype=bool)
    nxt_same[:-1] = (g.doc[1:] == g.doc[:-1]) & (g.label[1:] == g.label[:-1]) & (
        g.start[1:] >= g.end[:-1]
    )
    merge = (kind == kinds.index("merge")) & nxt_same
    mg = np.flatnonzero(merge)
    p_end[mg] = g.end[mg + 1]
    keep[mg + 1] = False

    # spurious spans at random places of random documents
    n_spur = int(m * SPURIOUS)
    sd = rng.integers(0, n_docs, size=n_spur)
    s_len = np.clip(np.round(rng.lognormal(2.2, 0.5, size=n_spur)), 2, 30).astype(np.int64)
    s_start = rng.integers(0, 800, size=n_spur)
    spurious = Side(sd, s_start, s_start + s_len, rng.choice(len(LABELS), p=LABEL_P, size=n_spur))

    pred = Side(
        np.concatenate([g.doc[keep], split_piece.doc, spurious.doc]),
        np.concatenate([p_start[keep], split_piece.start, spurious.start]),
        np.concatenate([p_end[keep], split_piece.end, spurious.end]),
        np.concatenate([p_label[keep], split_piece.label, spurious.label]),
    )
    return SpanCorpus(gold, _no_same_label_overlap(pred), n_docs)


def describe(corpus: SpanCorpus) -> str:
    """One line of corpus statistics."""
    g, p = corpus.gold, corpus.pred
    lens = g.end - g.start
    counts = np.bincount(g.label, minlength=len(LABELS))
    share = ", ".join(f"{lab} {c / max(len(g), 1):.0%}" for lab, c in zip(LABELS, counts,
                                                                          strict=True))
    return (
        f"{corpus.n_docs:,} documents, {len(g):,} gold spans ({share}), {len(p):,} predicted; "
        f"span length {lens.min()}-{lens.max()} chars (mean {lens.mean():.1f})"
    )


def exact_share(corpus: SpanCorpus) -> float:
    """Share of gold spans predicted exactly (same document, offsets and label)."""
    def keys(s: Side) -> Iterable[tuple[int, int, int, int]]:
        return zip(s.doc.tolist(), s.start.tolist(), s.end.tolist(), s.label.tolist(),
                   strict=True)
    pk = set(keys(corpus.pred))
    return sum(k in pk for k in keys(corpus.gold)) / max(len(corpus.gold), 1)


if __name__ == "__main__":
    import time

    t0 = time.perf_counter()
    c = make_span_corpus()
    t1 = time.perf_counter()
    print(describe(c))
    print(f"generated in {t1 - t0:.2f} s; {exact_share(c):.1%} of gold spans predicted exactly")
