"""Per-sequence counts: one evaluation split by sentence or document (docs/significance.md).

Resampling needs, for every sequence (a sentence of tag input, a document of
span input), the per-label counts ``tp``, ``n_pred`` and ``n_gold`` that the
matcher gave it. They are derived once, from the matcher's own output:

- entity matchers (``exact``, ``semeval``, ``overlap``, ``threshold``): from
  the alignment. A pair adds its credit to ``tp`` and one to ``n_pred`` of its
  gold entity's sequence and label; a spurious prediction adds one to
  ``n_pred`` of its own sequence and label; every gold entity adds one to
  ``n_gold``. For ``semeval`` the alignment is the strict schema's, whose
  credit is 1 for COR (same bounds and label) and 0 otherwise, so ``tp`` is
  the strict COR count and ``n_pred`` the strict ACT, as in the report.
- ``token``: tokens of each sentence (tag input) or units of each document
  (span input), per label.

Summed over sequences, the arrays equal the report's counts; this is checked
on every call, and a matcher whose counts cannot be split this way (e.g.
``overlap`` with ``compat="loio"`` when it counts an exact match without a
partner) is an error rather than a wrong number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import NerscoreError
from nerscore.matching import get_matcher
from nerscore.matching.alignment import Alignment
from nerscore.scoring.counting import MatcherRun, run_matcher
from nerscore.values.counts import Counts, reindex_labels
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import EntityColumns

__all__ = ["SequenceCounts", "UnsplittableCountsError", "counts_of_run", "sequence_counts"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class UnsplittableCountsError(NerscoreError, ValueError):
    """A matcher's counts cannot be split into per-sequence counts exactly."""


@dataclass(frozen=True, eq=False)
class SequenceCounts:
    """Per-sequence, per-label counts of one evaluation.

    Attributes
    ----------
    labels : tuple of str
        Sorted label names (the columns).
    tp : array of float, shape (n_sequences, n_labels)
        True positives (partial credit allowed).
    n_pred, n_gold : array of int, shape (n_sequences, n_labels)
        Predicted and gold entities (or units, for ``match="token"``).
    ids : tuple of str, optional
        The document id of each row, when the input had ids.

    Examples
    --------
    >>> sc = sequence_counts([["B-PER", "O"], ["B-LOC"]], [["B-PER", "O"], ["O"]])
    >>> sc.labels, sc.tp.tolist(), sc.n_gold.tolist()
    (('LOC', 'PER'), [[0.0, 1.0], [0.0, 0.0]], [[0, 1], [1, 0]])
    >>> sc.totals()
    {'LOC': {'tp': 0, 'n_pred': 0, 'n_gold': 1}, 'PER': {'tp': 1, 'n_pred': 1, 'n_gold': 1}}
    """

    labels: tuple[str, ...]
    tp: FloatArray
    n_pred: IntArray
    n_gold: IntArray
    ids: tuple[str, ...] | None = None

    @property
    def n_sequences(self) -> int:
        """Number of rows (sequences)."""
        return int(self.tp.shape[0])

    def totals(self) -> dict[str, dict[str, int | float]]:
        """Counts summed over sequences, ``{label: {"tp", "n_pred", "n_gold"}}`` (labels present).

        Returns
        -------
        dict
            The shape of :meth:`nerscore.Counts.to_dict`; ``tp`` is an ``int``
            when whole.
        """
        tp = self.tp.sum(axis=0)
        n_pred = self.n_pred.sum(axis=0)
        n_gold = self.n_gold.sum(axis=0)
        out: dict[str, dict[str, int | float]] = {}
        for i, lab in enumerate(self.labels):
            if n_pred[i] == 0 and n_gold[i] == 0:
                continue
            t = float(tp[i])
            out[lab] = {"tp": int(t) if t.is_integer() else t, "n_pred": int(n_pred[i]),
                        "n_gold": int(n_gold[i])}
        return out

    def group(self, starts: Sequence[int] | IntArray) -> SequenceCounts:
        """Rows summed into consecutive groups (documents) that begin at ``starts``.

        Parameters
        ----------
        starts : sequence of int
            Sorted row indices where a group begins; rows before the first
            start form a group of their own.

        Returns
        -------
        SequenceCounts
            One row per group (without ids).
        """
        n = self.n_sequences
        s = np.unique(np.asarray(starts, dtype=np.int64))
        if len(s) and (s[0] < 0 or s[-1] > n):
            raise ValueError(f"Document starts must lie in 0..{n}; got {s[0]}..{s[-1]}.")
        s = s[s < n]
        if n == 0:
            return self
        if len(s) == 0 or s[0] != 0:
            s = np.concatenate([[0], s])
        return SequenceCounts(
            self.labels,
            np.add.reduceat(self.tp, s, axis=0),
            np.add.reduceat(self.n_pred, s, axis=0),
            np.add.reduceat(self.n_gold, s, axis=0),
        )

    def select(self, labels: Sequence[str]) -> SequenceCounts:
        """The same rows with exactly ``labels`` as columns (unknown labels count zero)."""
        labels = tuple(labels)
        if labels == self.labels:
            return self

        def pick(arr: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return reindex_labels(arr, self.labels, labels)

        return SequenceCounts(labels, pick(self.tp), pick(self.n_pred), pick(self.n_gold),
                              self.ids)


def _bins(seq: IntArray, label: IntArray, n_seq: int, n_lab: int,
          weights: FloatArray | None = None) -> npt.NDArray[Any]:
    flat = np.bincount(seq * n_lab + label, weights=weights, minlength=n_seq * n_lab)
    return flat.reshape(n_seq, n_lab)


def _from_alignment(al: Alignment, n_seq: int, what: str) -> SequenceCounts:
    g, p = al.gold, al.pred
    if g.labels != p.labels:
        raise UnsplittableCountsError(
            f"{what}: the alignment's sides have different label vocabularies."
        )
    pg, pp = al.pairs_gold, al.pairs_pred
    if not np.array_equal(g.seq[pg], p.seq[pp]):
        raise UnsplittableCountsError(
            f"{what} pairs entities of different sequences, so its counts cannot be split "
            "by sequence."
        )
    used = np.bincount(np.concatenate([pp, al.spurious]), minlength=len(p))
    if not bool((used == 1).all()):
        raise UnsplittableCountsError(
            f"{what}: not every prediction is either in exactly one pair or spurious, so its "
            "predicted counts cannot be split by sequence."
        )
    n_seq = max(n_seq, int(g.seq.max(initial=-1)) + 1, int(p.seq.max(initial=-1)) + 1)
    n_lab = len(g.labels)
    credit = np.asarray(al.credit, dtype=np.float64)
    seq, label = g.seq[pg], g.label[pg]
    tp = _bins(seq, label, n_seq, n_lab, credit)
    n_pred = _bins(seq, label, n_seq, n_lab)
    n_pred += _bins(p.seq[al.spurious], p.label[al.spurious], n_seq, n_lab)
    n_gold = _bins(g.seq, g.label, n_seq, n_lab)
    return SequenceCounts(g.labels, tp.astype(np.float64, copy=False),
                          n_pred.astype(np.int64, copy=False), n_gold.astype(np.int64, copy=False))


def _token_tags(run: MatcherRun) -> SequenceCounts:
    from nerscore.values.tags import parse_vocab

    assert run.prep.tags is not None
    gold, pred = run.prep.tags
    parsed = parse_vocab(gold.vocab, run.prep.decoding)
    lt, lp = parsed.label[gold.ids], parsed.label[pred.ids]
    n_seq, n_lab = gold.n_sequences, len(parsed.labels)
    seq = np.repeat(np.arange(n_seq, dtype=np.int64), np.diff(gold.offsets))
    g_ok, p_ok = lt >= 0, lp >= 0
    hit = g_ok & (lt == lp)
    tp = _bins(seq[hit], lt[hit], n_seq, n_lab).astype(np.float64)
    n_pred = _bins(seq[p_ok], lp[p_ok], n_seq, n_lab)
    n_gold = _bins(seq[g_ok], lt[g_ok], n_seq, n_lab)
    out = SequenceCounts(parsed.labels, tp, n_pred.astype(np.int64), n_gold.astype(np.int64))
    return out.select(sorted(parsed.labels))


def _token_spans(run: MatcherRun) -> SequenceCounts:
    from nerscore.matching.span_token import span_token_counts
    from nerscore.values.spans import unify_labels

    gold, pred = unify_labels(run.prep.gold, run.prep.pred)
    n_seq, n_lab = run.prep.n_sequences, len(gold.labels)
    # one label per (document, label) group present: the unit counts of each
    # group are then the per-label counts of one call
    groups = np.unique(np.concatenate([gold.seq * n_lab + gold.label,
                                       pred.seq * n_lab + pred.label]))
    names = tuple(str(k) for k in range(len(groups)))

    def regroup(c: EntityColumns) -> EntityColumns:
        code = np.searchsorted(groups, c.seq * n_lab + c.label).astype(np.int64)
        return EntityColumns(c.seq, c.start, c.end, code, names, c.n_sequences, c.fragments)

    counts = span_token_counts(regroup(gold), regroup(pred))
    index = np.array([int(k) for k in counts.labels], dtype=np.int64)
    key = groups[index]
    seq, lab = key // max(n_lab, 1), key % max(n_lab, 1)
    tp = _bins(seq, lab, n_seq, n_lab, counts.tp.astype(np.float64)).astype(np.float64)
    n_pred = _bins(seq, lab, n_seq, n_lab, counts.n_pred.astype(np.float64))
    n_gold = _bins(seq, lab, n_seq, n_lab, counts.n_gold.astype(np.float64))
    return SequenceCounts(gold.labels, tp, n_pred.astype(np.int64), n_gold.astype(np.int64))


def _check(sc: SequenceCounts, counts: Counts, what: str) -> None:
    """Raise unless the per-sequence counts add up to the matcher's counts."""
    present = counts.present().labels
    missing = sorted(set(present) - set(sc.labels))
    ref = counts.select(sc.labels)
    tp = np.einsum("ij->j", sc.tp)  # column sums (einsum: without a pass per row)
    ok = (
        not missing
        and np.array_equal(np.einsum("ij->j", sc.n_pred), ref.n_pred)
        and np.array_equal(np.einsum("ij->j", sc.n_gold), ref.n_gold)
        and np.allclose(tp, np.asarray(ref.tp, dtype=np.float64), rtol=1e-9, atol=1e-9)
    )
    if not ok:
        raise UnsplittableCountsError(
            f"{what}: its counts cannot be split by sequence (the per-sequence counts derived "
            f"from its alignment add up to tp {float(tp.sum()):g}, n_pred "
            f"{int(sc.n_pred.sum())}, n_gold {int(sc.n_gold.sum())}; the report has tp "
            f"{float(np.sum(counts.tp)):g}, n_pred {int(counts.n_pred.sum())}, n_gold "
            f"{int(counts.n_gold.sum())}). Resampling needs per-sequence counts; use another "
            "matcher or option."
        )


def counts_of_run(run: MatcherRun, match: str) -> SequenceCounts:
    """Per-sequence counts of one matcher run (see the module docstring).

    Parameters
    ----------
    run : MatcherRun
        From :func:`nerscore.scoring.counting.run_matcher` (with ``align=True`` for
        entity matchers).
    match : str
        The matcher's name (for messages).

    Returns
    -------
    SequenceCounts

    Raises
    ------
    UnsplittableCountsError
        When the sums would not equal the run's counts.
    """
    opts = ", ".join(f"{k}={v!r}" for k, v in run.options.items())
    what = f"match={match!r}" + (f" ({opts})" if opts else "")
    res = run.result
    if res.alignment is not None:
        sc = _from_alignment(res.alignment, run.prep.n_sequences, what)
    elif get_matcher(match).needs == "units":  # per-token counts split by sequence
        sc = _token_tags(run) if run.prep.tags is not None else _token_spans(run)
    else:
        raise UnsplittableCountsError(
            f"{what} gives no alignment, so its counts cannot be split by sequence."
        )
    _check(sc, res.counts, what)
    labels = tuple(sorted(set(sc.labels)))
    ids = tuple(run.prep.doc_ids) if run.prep.doc_ids is not None else None
    sc = sc.select(labels)
    if ids is not None and len(ids) == sc.n_sequences:
        sc = SequenceCounts(sc.labels, sc.tp, sc.n_pred, sc.n_gold, ids)
    return sc


def sequence_counts(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> SequenceCounts:
    """Per-sentence (tags) or per-document (spans) counts whose sums are the report's counts.

    Parameters
    ----------
    y_true, y_pred : tag sequences, EncodedTags, or span documents
        Gold and prediction, as for :func:`nerscore.evaluate`.
    match : str
        The matcher.
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    **options
        The matcher's options.

    Returns
    -------
    SequenceCounts
        Arrays of shape ``(n_sequences, n_labels)``.

    Raises
    ------
    UnsplittableCountsError
        When the matcher's counts cannot be split by sequence exactly.

    Examples
    --------
    >>> gold = [[(0, 10, "PER")], [(0, 4, "LOC")]]
    >>> pred = [[(0, 8, "PER")], [(0, 4, "LOC")]]
    >>> sequence_counts(gold, pred, match="overlap").tp.tolist()
    [[0.0, 0.6000000000000001], [1.0, 0.0]]
    """
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    run = run_matcher(y_true, y_pred, match, decoding, options, align=get_matcher(match).aligns)
    return counts_of_run(run, match)
