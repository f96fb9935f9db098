"""A seeded, realistic BIO corpus with noisy predictions, for the tag benchmarks.

The gold side imitates a news NER corpus: sentence lengths between 5 and 60
tokens (most around 15-25), about 15% of tokens inside entities, eight
entity types with a skewed frequency (PER and ORG common, EVENT rare) and
mostly short entities. The prediction is the gold corrupted the way taggers
err, on roughly 10% of the entities:

* boundary shifts (start or end moved by one token),
* type swaps (right span, wrong label),
* misses (entity dropped),
* spurious entities in outside regions,
* an entity opened with ``I-`` instead of ``B-`` (repaired by lenient
  decoding, dropped by strict decoding),
* a type switch inside an entity (``B-PER I-PER I-ORG``).

Everything is generated with flat NumPy arrays from one seed, so a corpus of
1,000,000 tokens takes about a second. Usage::

    from corpus import make_tag_corpus
    gold, pred = make_tag_corpus(1_000_000, seed=0)         # lists of lists of str
    gold_enc, pred_enc = encode_corpus(gold, pred)          # nerscore.EncodedTags
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

TYPES = ("PER", "ORG", "LOC", "MISC", "DATE", "GPE", "PRODUCT", "EVENT")
TYPE_P = np.array([0.26, 0.22, 0.17, 0.12, 0.10, 0.07, 0.04, 0.02])
LENGTH_P = np.array([0.42, 0.33, 0.13, 0.06, 0.03, 0.02, 0.01])  # 1..7 tokens
ENTITY_SHARE = 0.165  # before dropping entities that cross sentence ends: ~15% after

# Shares of gold entities hit by each kind of noise (the rest is predicted right).
NOISE = {
    "shift": 0.030,
    "swap": 0.025,
    "miss": 0.020,
    "i_start": 0.010,
    "switch": 0.010,
}
SPURIOUS = 0.025  # spurious entities per gold entity

VOCAB = ("O", *(f"{p}-{t}" for t in TYPES for p in "BI"))


def _b(t: np.ndarray) -> np.ndarray:
    return 1 + 2 * t


def _i(t: np.ndarray) -> np.ndarray:
    return 2 + 2 * t


@dataclass
class TagCorpus:
    """Flat form of a corpus: tag ids into :data:`VOCAB`, sentence offsets."""

    gold_ids: np.ndarray
    pred_ids: np.ndarray
    offsets: np.ndarray

    @property
    def n_tokens(self) -> int:
        return len(self.gold_ids)

    def to_lists(self, *, distinct: bool = True) -> tuple[list[list[str]], list[list[str]]]:
        """Both sides as lists of lists of str.

        With ``distinct`` every token is its own string object, as when tags are
        read from a file with ``line.split()``; otherwise the tags share the
        vocabulary's objects (as predictions mapped through ``id2label`` do).
        """
        return (
            _split(self.gold_ids, self.offsets, distinct),
            _split(self.pred_ids, self.offsets, distinct),
        )


def _split(ids: np.ndarray, offsets: np.ndarray, distinct: bool) -> list[list[str]]:
    vocab = np.array(VOCAB, dtype=object)
    flat = vocab[ids].tolist()
    if distinct:
        # fresh str objects (what a file reader gives); cheap and deterministic
        flat = " ".join(flat).split(" ")
    o = offsets.tolist()
    return [flat[a:b] for a, b in pairwise(o)]


def _sentence_lengths(rng: np.random.Generator, n_tokens: int) -> np.ndarray:
    # gamma-shaped, mean about 22 tokens, clipped to 5..60
    n = max(16, int(n_tokens / 20))
    lengths = np.clip(np.round(rng.gamma(3.0, 7.5, size=n)), 5, 60).astype(np.int64)
    while lengths.sum() < n_tokens:
        more = np.clip(np.round(rng.gamma(3.0, 7.5, size=n)), 5, 60).astype(np.int64)
        lengths = np.concatenate([lengths, more])
    cut = int(np.searchsorted(np.cumsum(lengths), n_tokens))
    lengths = lengths[: cut + 1].copy()
    lengths[-1] -= int(lengths.sum()) - n_tokens
    if 0 < lengths[-1] < 5 and len(lengths) > 1:  # a too short remainder joins a sentence
        rem = int(lengths[-1])
        lengths = lengths[:-1]
        room = np.flatnonzero(lengths <= 60 - rem)
        lengths[room[0] if len(room) else 0] += rem
    return lengths[lengths > 0]


def _gold_entities(
    rng: np.random.Generator, offsets: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Non-overlapping gold entities as flat (start, end, type) arrays."""
    mean_len = float((np.arange(1, len(LENGTH_P) + 1) * LENGTH_P).sum())
    mean_gap = mean_len * (1 - ENTITY_SHARE) / ENTITY_SHARE
    n_tok = int(offsets[-1])
    budget = int(n_tok / (mean_len + mean_gap) * 1.5) + 64
    gaps = rng.geometric(1.0 / (mean_gap + 1), size=budget) - 1
    lens = rng.choice(np.arange(1, len(LENGTH_P) + 1), p=LENGTH_P, size=budget)
    types = rng.choice(len(TYPES), p=TYPE_P, size=budget)
    # lay entities one after another over the whole corpus, then drop those
    # crossing a sentence boundary
    pos = np.cumsum(gaps + lens)
    end = pos
    start = pos - lens
    keep = end <= n_tok
    start, end, types = start[keep], end[keep], types[keep]
    sent = np.searchsorted(offsets, start, side="right") - 1
    inside = end <= offsets[sent + 1]
    return start[inside], end[inside], types[inside]


def _render(n: int, start: np.ndarray, end: np.ndarray, types: np.ndarray) -> np.ndarray:
    ids = np.zeros(n, dtype=np.int64)
    lens = end - start
    pos = np.repeat(start, lens) + (np.arange(lens.sum()) - np.repeat(np.cumsum(lens) - lens, lens))
    ids[pos] = np.repeat(_i(types), lens)
    ids[start] = _b(types)
    return ids


def make_flat_corpus(n_tokens: int = 1_000_000, *, seed: int = 0) -> TagCorpus:
    """Gold and noisy predicted tag ids over :data:`VOCAB` (see the module docstring)."""
    rng = np.random.default_rng(seed)
    lengths = _sentence_lengths(rng, n_tokens)
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    start, end, types = _gold_entities(rng, offsets)
    n = int(offsets[-1])
    gold = _render(n, start, end, types)

    n_ent = len(start)
    kinds = list(NOISE)
    probs = np.array([NOISE[k] for k in kinds] + [1 - sum(NOISE.values())])
    kind = rng.choice(len(probs), p=probs, size=n_ent)
    sent = np.searchsorted(offsets, start, side="right") - 1
    s_lo, s_hi = offsets[sent], offsets[sent + 1]
    p_start, p_end, p_types = start.copy(), end.copy(), types.copy()

    shift = kind == kinds.index("shift")
    side = rng.integers(0, 4, size=n_ent)  # start-1, start+1, end-1, end+1
    p_start = np.where(shift & (side == 0), p_start - 1, p_start)
    p_start = np.where(shift & (side == 1) & (p_end - p_start > 1), p_start + 1, p_start)
    p_end = np.where(shift & (side == 2) & (p_end - p_start > 1), p_end - 1, p_end)
    p_end = np.where(shift & (side == 3), p_end + 1, p_end)
    p_start = np.maximum(p_start, s_lo)
    p_end = np.minimum(p_end, s_hi)

    swap = kind == kinds.index("swap")
    # a swapped type is drawn by type frequency, never the gold type itself
    other_type = rng.choice(len(TYPES), p=TYPE_P, size=n_ent)
    clash = other_type == p_types
    other_type[clash] = (other_type[clash] + 1) % len(TYPES)
    p_types = np.where(swap, other_type, p_types)
    keep = kind != kinds.index("miss")

    # spurious entities of length 1-2 anywhere; kept only where gold is O
    n_spur = int(n_ent * SPURIOUS)
    sp_start = rng.integers(0, n, size=n_spur)
    sp_len = rng.integers(1, 3, size=n_spur)
    sp_sent = np.searchsorted(offsets, sp_start, side="right") - 1
    sp_end = np.minimum(sp_start + sp_len, offsets[sp_sent + 1])
    sp_ok = (gold[sp_start] == 0) & (gold[sp_end - 1] == 0)
    sp_types = rng.choice(len(TYPES), p=TYPE_P, size=n_spur)

    all_start = np.concatenate([p_start[keep], sp_start[sp_ok]])
    all_end = np.concatenate([p_end[keep], sp_end[sp_ok]])
    all_types = np.concatenate([p_types[keep], sp_types[sp_ok]])
    all_kind = np.concatenate([kind[keep], np.full(int(sp_ok.sum()), -1)])
    order = np.lexsort((all_end, all_start))
    all_start, all_end, all_types, all_kind = (
        all_start[order], all_end[order], all_types[order], all_kind[order]
    )
    # shifted boundaries may overlap a neighbour: drop any entity overlapping the kept one before
    ok = np.ones(len(all_start), dtype=bool)
    last_end = -1
    for i, (s, e) in enumerate(zip(all_start.tolist(), all_end.tolist(), strict=True)):
        if s < last_end:
            ok[i] = False
        else:
            last_end = e
    all_start, all_end, all_types, all_kind = (
        all_start[ok], all_end[ok], all_types[ok], all_kind[ok]
    )
    pred = _render(n, all_start, all_end, all_types)

    # tag-level noise: I- starts, type switches inside an entity
    i_start = all_kind == kinds.index("i_start")
    pred[all_start[i_start]] = _i(all_types[i_start])
    switch = (all_kind == kinds.index("switch")) & (all_end - all_start >= 2)
    cut = all_start[switch] + 1 + (
        rng.integers(0, 1 << 30, size=int(switch.sum())) % (all_end[switch] - all_start[switch] - 1)
    )
    other = (all_types[switch] + rng.integers(1, len(TYPES), size=int(switch.sum()))) % len(TYPES)
    lens = all_end[switch] - cut
    pos = np.repeat(cut, lens) + (np.arange(lens.sum()) - np.repeat(np.cumsum(lens) - lens, lens))
    pred[pos] = np.repeat(_i(other), lens)
    return TagCorpus(gold, pred, offsets)


def make_tag_corpus(
    n_tokens: int = 1_000_000, *, seed: int = 0, distinct: bool = True
) -> tuple[list[list[str]], list[list[str]]]:
    """Gold and predicted tags as lists of lists of str (see :meth:`TagCorpus.to_lists`)."""
    return make_flat_corpus(n_tokens, seed=seed).to_lists(distinct=distinct)


def encode_corpus(corpus: TagCorpus):  # type: ignore[no-untyped-def]
    """Both sides as :class:`nerscore.EncodedTags` sharing one vocabulary."""
    from nerscore import EncodedTags

    return (
        EncodedTags(corpus.gold_ids, corpus.offsets, VOCAB),
        EncodedTags(corpus.pred_ids, corpus.offsets, VOCAB),
    )


def describe(corpus: TagCorpus) -> str:
    """One line of corpus statistics."""
    g, p = corpus.gold_ids, corpus.pred_ids
    n_sent = len(corpus.offsets) - 1
    lens = np.diff(corpus.offsets)
    return (
        f"{corpus.n_tokens:,} tokens, {n_sent:,} sentences (length {lens.min()}-{lens.max()}, "
        f"mean {lens.mean():.1f}), {np.count_nonzero(g):,} gold entity tokens "
        f"({np.count_nonzero(g) / max(len(g), 1):.1%}), {np.count_nonzero(g % 2 == 1):,} gold "
        f"B- tags, {np.count_nonzero(g != p) / max(len(g), 1):.2%} of tags differ"
    )


if __name__ == "__main__":
    import time

    t0 = time.perf_counter()
    c = make_flat_corpus()
    t1 = time.perf_counter()
    print(describe(c))
    print(f"generated in {t1 - t0:.2f} s")
