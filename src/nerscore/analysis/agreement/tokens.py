"""Token-level agreement: every annotator's label of every token, then kappa and alpha.

A token's label is the label of the entity it belongs to, ``O`` outside
(``tags=True``: its raw tag). Tokens are the input's own tokens for tag
input; span documents with text are cut by a named tokenizer (a token
belongs to every entity it shares a character with); span documents without
text use the offsets themselves as tokens, up to the last end any annotator
gives (docs/agreement.md). A zero-length entity shares no character with any
token, so it labels no token (it still counts in the entity F1).

A token in an annotator's ignore region (one it shares a character with) is
left out of the numbers of the region's label (of every label, for a region
of every label), and of the overall numbers when the region is of every label
or some annotator gave the token the region's label
(:mod:`nerscore.analysis.agreement.ignored`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from nerscore.analysis.agreement.coefficients import (
    alpha_from_parts,
    alpha_parts,
    category_counts,
    cohen_from_confusion,
    cohen_kappa,
    fleiss_kappa,
)
from nerscore.analysis.agreement.ignored import region_columns
from nerscore.analysis.agreement.inputs import Annotated, tag_strings
from nerscore.analysis.agreement.pairwise import pair_mean_sd
from nerscore.analysis.agreement.results import Matrix, TokenAgreement, TokenLevel
from nerscore.errors import OptionError, option_error
from nerscore.values.spans import EntityColumns

__all__ = ["TOKENIZERS", "TokenLabels", "token_labels", "token_level"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Named tokenizers of span documents with text: name -> pattern of one token.
TOKENIZERS: dict[str, str] = {
    "words": r"\w+|[^\w\s]",  # runs of word characters; every other non-space char alone
    "whitespace": r"\S+",  # runs of non-space characters (bratiaa's default)
}

Tokenizer = Union[str, Callable[[str], Iterable[tuple[int, int]]]]  # noqa: UP007


@dataclass(frozen=True, eq=False)
class TokenLabels:
    """Every annotator's labels of every token.

    Attributes
    ----------
    labels : tuple of str
        The classes besides ``O`` (entity labels, or tags with ``tags=True``).
    member : array of bool, shape (n_labels, n_annotators, n_tokens)
        Whether the annotator gave the token that label.
    rated : array of bool, shape (n_annotators, n_tokens)
        Whether the annotator annotated the token's document.
    doc : array of int, shape (n_tokens,)
        The document of each token.
    present : array of bool, shape (n_annotators, n_documents)
        Which annotator annotated which document.
    units : str
        What the tokens are.
    ignored : array of bool, shape (n_labels + 1, n_tokens), optional
        Tokens in an ignore region: per label, those left out of its
        numbers; last, those left out of the overall numbers. None when no
        token lies in a region.
    """

    labels: tuple[str, ...]
    member: npt.NDArray[np.bool_]
    rated: BoolArray
    doc: IntArray
    units: str
    present: BoolArray | None = None
    ignored: BoolArray | None = None

    def rated_for(self, label: int | None) -> BoolArray:
        """``rated`` less the tokens left out of ``label``'s numbers (None: the overall ones)."""
        if self.ignored is None:
            return self.rated
        row = self.ignored[-1 if label is None else label]
        return np.asarray(self.rated & ~row[None, :])

    def n_ignored(self) -> int:
        """Tokens two or more annotators annotated that lie in an ignore region."""
        if self.ignored is None:
            return 0
        return int(np.count_nonzero(self.ignored.any(axis=0) & (self.rated.sum(axis=0) >= 2)))

    def categories(self) -> IntArray:
        """``(n_annotators, n_tokens)``: 0 for ``O``, ``1 + label`` otherwise (one label per token)."""
        cat = np.zeros(self.member.shape[1:], dtype=np.int64)
        for k in range(len(self.labels) - 1, -1, -1):
            cat[self.member[k]] = k + 1
        return cat

    def multi(self) -> BoolArray:
        """``(n_annotators, n_tokens)``: where an annotator gave a token two or more labels."""
        count = np.zeros(self.member.shape[1:], dtype=np.int16)
        for k in range(len(self.labels)):
            count += self.member[k]
        return np.asarray((count > 1) & self.rated_for(None))


def _token_bounds(text: str, tokenizer: Tokenizer) -> tuple[IntArray, IntArray]:
    if callable(tokenizer):
        pairs = [(int(s), int(e)) for s, e in tokenizer(text)]
    else:
        pairs = [m.span() for m in re.finditer(TOKENIZERS[tokenizer], text)]
    if not pairs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    arr = np.array(pairs, dtype=np.int64)
    return arr[:, 0], arr[:, 1]


def _check_tokenizer(tokenizer: object) -> Tokenizer:
    if callable(tokenizer):
        return tokenizer
    if isinstance(tokenizer, str) and tokenizer in TOKENIZERS:
        return tokenizer
    valid = ", ".join(repr(n) for n in TOKENIZERS)
    raise option_error("tokenizer", f"one of {valid} or a callable text -> (start, end) pairs",
                       tokenizer)


def _layout(annotated: Annotated, tokenizer: Tokenizer) -> tuple[
        IntArray, Callable[[EntityColumns], EntityColumns], str]:
    """Token offsets per document, and how contiguous ranges become global token ranges."""
    n_docs = annotated.n_documents
    if annotated.kind == "tags":
        assert annotated.tags is not None
        offsets = annotated.tags[0].offsets

        def shifted(c: EntityColumns) -> EntityColumns:
            return EntityColumns(c.seq, offsets[c.seq] + c.start, offsets[c.seq] + c.end,
                                 c.label, c.labels, n_docs)

        return offsets, shifted, "tokens"
    if annotated.texts is None:
        lengths = np.zeros(n_docs, dtype=np.int64)
        for c in (e.pieces() for e in annotated.entities):
            if len(c):
                np.maximum.at(lengths, c.seq, c.end)
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)

        def clipped(c: EntityColumns) -> EntityColumns:  # a region may end past every entity
            end = lengths[c.seq]
            return EntityColumns(c.seq, offsets[c.seq] + np.minimum(c.start, end),
                                 offsets[c.seq] + np.minimum(c.end, end), c.label, c.labels,
                                 n_docs)

        return offsets, clipped, "offsets"
    bounds = [_token_bounds(t or "", tokenizer) for t in annotated.texts]
    offsets = np.concatenate([[0], np.cumsum([len(s) for s, _ in bounds])]).astype(np.int64)

    def tokens(c: EntityColumns) -> EntityColumns:
        u0 = np.zeros(len(c), dtype=np.int64)
        u1 = np.zeros(len(c), dtype=np.int64)
        for d in np.unique(c.seq).tolist():
            rows = np.flatnonzero(c.seq == d)
            starts, ends = bounds[d]
            u0[rows] = offsets[d] + np.searchsorted(ends, c.start[rows], side="right")
            u1[rows] = offsets[d] + np.searchsorted(starts, c.end[rows], side="left")
        u1 = np.where(c.start < c.end, np.maximum(u0, u1), u0)  # zero-length: no character
        return EntityColumns(c.seq, u0, u1, c.label, c.labels, n_docs)

    name = tokenizer if isinstance(tokenizer, str) else getattr(tokenizer, "__name__", "custom")
    return offsets, tokens, f"{name} tokens"


def _cover(c: EntityColumns, n_labels: int, n_tokens: int) -> BoolArray:
    """``(n_labels, n_tokens)``: which token ranges of ``c`` of each label cover each token."""
    diff = np.zeros((n_tokens + 1) * n_labels, dtype=np.int64)
    np.add.at(diff, c.start * n_labels + c.label, 1)
    np.add.at(diff, c.end * n_labels + c.label, -1)
    cover = np.cumsum(diff.reshape(n_tokens + 1, n_labels)[:n_tokens], axis=0)
    return np.asarray((cover > 0).T)


def token_labels(annotated: Annotated, *, tags: bool = False,
                 tokenizer: object = "words") -> TokenLabels:
    """Every annotator's label of every token (see the module docstring)."""
    tok = _check_tokenizer(tokenizer)
    if tags and annotated.kind != "tags":
        raise OptionError("tags=True reads raw tags, but the annotation sets are spans; "
                          "leave it out.")
    offsets, to_tokens, units = _layout(annotated, tok)
    n_tokens = int(offsets[-1])
    doc = np.repeat(np.arange(annotated.n_documents, dtype=np.int64), np.diff(offsets))
    rated = annotated.present[:, doc]
    if tags:
        vocab, ids = tag_strings(annotated)
        outside = annotated.decoding.outside if annotated.decoding is not None else "O"
        keep = [i for i, t in enumerate(vocab) if t != outside]
        stacked = np.stack(ids)
        member = np.stack([stacked == i for i in keep]) if keep else np.zeros(
            (0, *stacked.shape), dtype=bool)
        return TokenLabels(tuple(vocab[i] for i in keep), member, rated, doc, "tags",
                           annotated.present)
    n_labels = len(annotated.labels)
    member = np.zeros((n_labels, len(annotated.entities), n_tokens), dtype=bool)
    for a, e in enumerate(annotated.entities):
        member[:, a, :] = _cover(to_tokens(e.pieces()), n_labels, n_tokens)
    regions = region_columns(annotated)
    ignored = None
    if regions is not None:
        cover = _cover(to_tokens(regions), n_labels + 1, n_tokens)  # last: every label
        per_label = cover[:n_labels] | cover[n_labels]
        given = (cover[:n_labels] & member.any(axis=1)).any(axis=0)  # a region's label given
        ignored = np.concatenate([per_label, (cover[n_labels] | given)[None]])
        ignored = ignored if cover.any() else None
    return TokenLabels(annotated.labels, member, rated, doc, units, annotated.present, ignored)


def _binary_cohen(a: BoolArray, b: BoolArray) -> float:
    n = len(a)
    n11 = int(np.count_nonzero(a & b))
    na, nb = int(np.count_nonzero(a)), int(np.count_nonzero(b))
    return cohen_from_confusion(np.array([[n - na - nb + n11, nb - n11], [na - n11, n11]]))


def _binary_counts(member: BoolArray, rated: BoolArray, every: bool) -> IntArray:
    yes = np.zeros(member.shape[1], dtype=np.int64)
    m = np.zeros(member.shape[1], dtype=np.int64)
    for a in range(member.shape[0]):
        yes += member[a] if every else member[a] & rated[a]
        m += rated[a]
    return np.stack([m - yes, yes], axis=1)


def _coefficients(cat: npt.NDArray[Any], rated: BoolArray, k: int, keep: BoolArray | None,
                  counts: IntArray | None = None) -> TokenAgreement:
    """Cohen, Fleiss and alpha of categories (``k == 2``: of a boolean label-or-not)."""
    if keep is not None:
        cat, rated = cat[:, keep], rated[:, keep]
    n_ann = cat.shape[0]
    complete = rated.all(axis=0)
    every = bool(complete.all())
    binary = cat.dtype == np.bool_
    cohen = np.eye(n_ann)
    for i in range(n_ann):
        for j in range(i + 1, n_ann):
            a, b = cat[i], cat[j]
            if not every:
                both = rated[i] & rated[j]
                a, b = a[both], b[both]
            cohen[i, j] = cohen[j, i] = (_binary_cohen(a, b) if binary else
                                         cohen_kappa(a, b, k))
    if counts is None:
        counts = (_binary_counts(cat, rated, every) if binary else
                  category_counts(cat, rated, k))
    fleiss = fleiss_kappa(counts if every else counts[complete])
    dis, values = alpha_parts(counts)
    alpha = alpha_from_parts(float(dis.sum()), values.sum(axis=0).astype(np.float64))
    n = cat.shape[1] if every else np.count_nonzero(rated.sum(axis=0) >= 2)  # the pairable
    return TokenAgreement(_tuple(cohen), fleiss, alpha, int(n))


def _tuple(m: npt.NDArray[np.float64]) -> Matrix:
    return tuple(tuple(float(x) for x in row) for row in m)


def _both(cat: npt.NDArray[Any], rated: BoolArray, k: int,
          counts: IntArray | None = None) -> dict[str, TokenAgreement]:
    labelled = np.zeros(cat.shape[1], dtype=bool)
    for a in range(cat.shape[0]):
        labelled |= (cat[a] != 0) & rated[a]
    return {"all": _coefficients(cat, rated, k, None, counts),
            "labelled": _coefficients(cat, rated, k, labelled)}


def _token_f1(tl: TokenLabels, doc_names: Sequence[str]) -> tuple[
        dict[str, Matrix], dict[str, tuple[float, float]]]:
    """Token F1 of every pair: per label, and per document (mean and SD over the pairs)."""
    n_lab, n_ann, _ = tl.member.shape
    n_docs = len(doc_names)
    pairs = [(i, j) for i in range(n_ann) for j in range(i + 1, n_ann)]
    per_label = np.repeat(np.eye(n_ann)[None], n_lab, axis=0)
    tp_doc = np.zeros((len(pairs), n_docs))
    total_doc = np.zeros((len(pairs), n_docs))
    both_doc = np.zeros((len(pairs), n_docs), dtype=bool)
    raters = [tl.rated_for(k) for k in range(n_lab)]
    every = [bool(r.all()) for r in raters]
    for p, (i, j) in enumerate(pairs):
        tp_tok = np.zeros(tl.member.shape[2], dtype=np.int16)
        total_tok = np.zeros(tl.member.shape[2], dtype=np.int16)
        for k in range(n_lab):
            a, b = tl.member[k, i], tl.member[k, j]
            if not every[k]:
                both = raters[k][i] & raters[k][j]
                a, b = a & both, b & both
            hit = a & b
            tp_tok += hit
            total_tok += a
            total_tok += b
            total = int(np.count_nonzero(a)) + int(np.count_nonzero(b))
            per_label[k, i, j] = per_label[k, j, i] = (
                2 * int(np.count_nonzero(hit)) / total if total else float("nan"))
        tp_doc[p] = np.bincount(tl.doc, weights=tp_tok, minlength=n_docs)
        total_doc[p] = np.bincount(tl.doc, weights=total_tok, minlength=n_docs)
        both_doc[p] = (tl.present[i] & tl.present[j]) if tl.present is not None else True
    f1 = np.full(tp_doc.shape, np.nan)
    np.divide(2 * tp_doc, total_doc, out=f1, where=total_doc > 0)
    mean, sd = pair_mean_sd(f1, both_doc)
    documents = {name: (float(m), float(s)) for name, m, s in
                 zip(doc_names, mean.tolist(), sd.tolist(), strict=True)}
    return {lab: _tuple(per_label[k]) for k, lab in enumerate(tl.labels)}, documents


def token_level(tl: TokenLabels, doc_names: Sequence[str]) -> tuple[
        TokenLevel, npt.NDArray[np.float64]]:
    """Kappa, alpha and token F1, overall and per label, over all and labelled tokens.

    Also returns :func:`alpha_by_document`'s parts of the overall alpha.
    """
    n_docs = len(doc_names)
    k = len(tl.labels) + 1
    parts = np.full((n_docs, 1 + k), np.nan)
    multi = tl.multi()
    overall: dict[str, TokenAgreement] | None = None
    reason = ""
    if multi.any():
        where = int(np.flatnonzero(multi.any(axis=0))[0])
        first = where - int(np.searchsorted(tl.doc, tl.doc[where]))
        reason = (f"{int(multi.any(axis=0).sum())} token(s) hold two or more labels (nested or "
                  f"overlapping entities; the first is token {first} of document "
                  f"{doc_names[int(tl.doc[where])]!r}), so a token has no single label and only the "
                  "per-label (one-vs-rest) numbers are defined.")
    else:
        cat = tl.categories()
        rated = tl.rated_for(None)
        counts = category_counts(cat, rated, k)
        overall = _both(cat, rated, k, counts)
        parts = alpha_by_document(counts, tl.doc, n_docs)
    per_label = {lab: _both(tl.member[i], tl.rated_for(i), 2) for i, lab in enumerate(tl.labels)}
    f1, documents = _token_f1(tl, doc_names)
    return TokenLevel(tl.units, overall, reason, per_label, f1, documents), parts


def alpha_by_document(counts: IntArray, doc: IntArray, n_docs: int) -> npt.NDArray[np.float64]:
    """``(n_docs, 1 + k)``: per document, the summed disagreement and pairable values of alpha.

    ``counts`` is the ``(n_tokens, k)`` category table and ``doc`` each token's
    document. Summed over any multiset of documents, the rows give that
    multiset's alpha (:func:`~nerscore.analysis.agreement.coefficients.alpha_from_parts`).
    """
    dis, values = alpha_parts(counts)
    k = counts.shape[1]
    out = np.zeros((n_docs, 1 + k))
    out[:, 0] = np.bincount(doc, weights=dis, minlength=n_docs)
    for c in range(k):
        out[:, 1 + c] = np.bincount(doc, weights=values[:, c], minlength=n_docs)
    return out
