"""Mergeable per-label counts — the only thing reductions ever see (docs/matchers, docs/reduction.md).

:class:`Counts` holds, per label, the number of true positives, predicted
entities and gold entities as exact integers, plus partial credit (from
overlap-based matchers) kept apart so that the integers stay exact. Counts
add with ``+`` and ``sum()``; an empty ``Counts()`` is the neutral value, so
batch-by-batch accumulation equals one call on everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import OptionError

__all__ = ["Counts", "LabelCounts", "reindex_labels"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def reindex_labels(
    arr: npt.NDArray[Any], labels: Sequence[str], new_labels: Sequence[str]
) -> npt.NDArray[Any]:
    """Per-label values (last axis) for ``new_labels`` in that order; unknown labels get zero.

    Examples
    --------
    >>> reindex_labels(np.array([[1, 2], [3, 4]]), ("A", "B"), ("B", "C")).tolist()
    [[2, 0], [4, 0]]
    """
    index = {lab: i for i, lab in enumerate(labels)}
    pos = np.array([index.get(lab, -1) for lab in new_labels], dtype=np.int64)
    ok = pos >= 0
    out = np.zeros((*arr.shape[:-1], len(pos)), dtype=arr.dtype)
    out[..., ok] = arr[..., pos[ok]]
    return out


def _mixed_categories(left: Iterable[str], right: Iterable[str]) -> str:
    """The error for adding counts whose matcher categories (``Counts.extra``) differ."""
    def shown(keys: set[str]) -> str:
        groups = dict.fromkeys(k.rsplit(".", 1)[0] + ".*" if "." in k else k for k in sorted(keys))
        return ", ".join(groups)

    a, b = set(left), set(right)
    sides = [f"the {name} counts hold {shown(only)} and the {other} do not"
             for name, other, only in (("left", "right", a - b), ("right", "left", b - a)) if only]
    return (f"Cannot add counts counted differently: {'; '.join(sides)}. Counts made with "
            "match='semeval' hold its categories (with compat='nervaluate' also nervaluate's "
            "per-label rows), counts of other matchers none; they do not add up. Add counts "
            "made with the same matcher and options.")


def _zeros() -> IntArray:
    return np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class LabelCounts:
    """Counts of one label (or of all labels summed).

    ``tp`` is exact matches plus partial ``credit``; ``fp = n_pred - tp``,
    ``fn = n_gold - tp``.
    """

    exact: int
    credit: float
    n_pred: int
    n_gold: int

    @property
    def tp(self) -> float:
        """True positives: exact matches plus partial credit."""
        return self.exact + self.credit if self.credit else self.exact

    @property
    def fp(self) -> float:
        """False positives."""
        return self.n_pred - self.tp

    @property
    def fn(self) -> float:
        """False negatives."""
        return self.n_gold - self.tp


@dataclass(frozen=True, eq=False)
class Counts:
    """Per-label match counts; mergeable with ``+``.

    Parameters
    ----------
    labels : tuple of str
        Sorted label names.
    exact, n_pred, n_gold : array of int
        Per label: exact matches, predicted entities, gold entities.
    credit : array of float, optional
        Per label partial credit (zero for exact matching).
    tokens, tokens_correct : int
        Token count and tokens whose tag strings are equal (for accuracy).
    extra : mapping, optional
        Matcher-specific integer categories, each a per-label array keyed by
        name (e.g. SemEval's ``"strict.incorrect"``); merged by addition too.
    tallies : mapping of str to int, optional
        Whole-input totals merged by addition: what the input held besides
        the entities scored (discontinuous entities on each side, predictions
        removed in ignore regions, ignore regions; docs/fragments.md). Zero
        tallies are left out.

    Notes
    -----
    Adding counts takes the union of their labels (a label one side lacks
    counts zero there). Counts do not record the matcher, its options or the
    decoding that made them, so ``+`` cannot tell exact counts from overlap
    or threshold counts: :meth:`EntityScorer.merge <nerscore.EntityScorer.merge>`
    compares those settings. What counts do hold is their matcher's
    categories (``extra``): SemEval's, and with ``compat="nervaluate"`` its
    per-label rows. Counts whose categories differ cannot be added (an
    :class:`~nerscore.OptionError`): their sum would hold categories that no
    longer add up to its gold and predicted entities. ``Counts()`` adds to
    anything.

    Examples
    --------
    >>> a = Counts.from_dict({"PER": (1, 2, 2)})
    >>> b = Counts.from_dict({"LOC": (0, 1, 0), "PER": (1, 1, 1)})
    >>> (a + b).to_dict()["PER"]
    {'tp': 2, 'n_pred': 3, 'n_gold': 3}
    >>> sum([a, b], Counts()).labels
    ('LOC', 'PER')
    >>> a + Counts(("PER",), [1], [2], [2], extra={"strict.correct": [1]})
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Cannot add counts counted differently: the right counts hold strict.* and the left do not. Counts made with match='semeval' hold its categories (with compat='nervaluate' also nervaluate's per-label rows), counts of other matchers none; they do not add up. Add counts made with the same matcher and options.
    """

    labels: tuple[str, ...] = ()
    exact: IntArray = field(default_factory=_zeros)
    n_pred: IntArray = field(default_factory=_zeros)
    n_gold: IntArray = field(default_factory=_zeros)
    credit: FloatArray | None = None
    tokens: int = 0
    tokens_correct: int = 0
    extra: Mapping[str, IntArray] = field(default_factory=dict)
    tallies: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.labels)
        for name in ("exact", "n_pred", "n_gold"):
            arr = np.asarray(getattr(self, name), dtype=np.int64).reshape(-1)
            if len(arr) != n:
                raise ValueError(f"Counts.{name} needs {n} values, one per label; got {len(arr)}.")
            object.__setattr__(self, name, arr)
        if self.credit is not None:
            credit = np.asarray(self.credit, dtype=np.float64).reshape(-1)
            object.__setattr__(self, "credit", credit if credit.any() else None)
        object.__setattr__(
            self, "extra", {k: np.asarray(v, dtype=np.int64) for k, v in self.extra.items()}
        )
        if self.tallies:
            object.__setattr__(self, "tallies", {k: int(v) for k, v in self.tallies.items() if v})

    @classmethod
    def from_dict(cls, rows: Mapping[str, tuple[int, int, int]]) -> Counts:
        """Build from ``{label: (tp, n_pred, n_gold)}``."""
        labels = tuple(sorted(rows))
        return cls(
            labels,
            np.array([rows[k][0] for k in labels], dtype=np.int64),
            np.array([rows[k][1] for k in labels], dtype=np.int64),
            np.array([rows[k][2] for k in labels], dtype=np.int64),
        )

    @property
    def tp(self) -> FloatArray | IntArray:
        """Per-label true positives (exact plus credit)."""
        return self.exact if self.credit is None else self.exact + self.credit

    def __getitem__(self, label: str) -> LabelCounts:
        i = self.labels.index(label)
        return LabelCounts(
            int(self.exact[i]),
            float(self.credit[i]) if self.credit is not None else 0.0,
            int(self.n_pred[i]),
            int(self.n_gold[i]),
        )

    def total(self) -> LabelCounts:
        """All labels summed (the micro-average counts)."""
        return LabelCounts(
            int(self.exact.sum()),
            float(self.credit.sum()) if self.credit is not None else 0.0,
            int(self.n_pred.sum()),
            int(self.n_gold.sum()),
        )

    def present(self) -> Counts:
        """Only the labels with at least one gold or predicted entity."""
        keep = (self.n_pred > 0) | (self.n_gold > 0)
        return self.select([lab for lab, k in zip(self.labels, keep.tolist(), strict=False) if k])

    def select(self, labels: Sequence[str]) -> Counts:
        """Counts for exactly ``labels`` in that order (unknown labels count zero)."""
        labels = tuple(labels)
        if labels == self.labels:
            return self

        def pick(arr: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return reindex_labels(arr, self.labels, labels)

        return Counts(
            labels,
            pick(self.exact),
            pick(self.n_pred),
            pick(self.n_gold),
            None if self.credit is None else pick(self.credit),
            self.tokens,
            self.tokens_correct,
            {k: pick(v) for k, v in self.extra.items()},
            self.tallies,
        )

    def __add__(self, other: object) -> Counts:
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, Counts):
            return NotImplemented
        if self.extra.keys() != other.extra.keys() and not self._neutral() \
                and not other._neutral():
            raise OptionError(_mixed_categories(self.extra.keys(), other.extra.keys()),
                              option="match")
        labels = tuple(sorted(set(self.labels) | set(other.labels)))
        a, b = self.select(labels), other.select(labels)
        credit = None
        if a.credit is not None or b.credit is not None:
            credit = (a.credit if a.credit is not None else 0.0) + (
                b.credit if b.credit is not None else np.zeros(len(labels))
            )
        keys = dict.fromkeys([*a.extra, *b.extra])
        zero = np.zeros(len(labels), dtype=np.int64)
        return Counts(
            labels,
            a.exact + b.exact,
            a.n_pred + b.n_pred,
            a.n_gold + b.n_gold,
            credit,
            a.tokens + b.tokens,
            a.tokens_correct + b.tokens_correct,
            {k: a.extra.get(k, zero) + b.extra.get(k, zero) for k in keys},
            {k: a.tallies.get(k, 0) + b.tallies.get(k, 0)
             for k in dict.fromkeys([*a.tallies, *b.tallies])},
        )

    __radd__ = __add__

    def _neutral(self) -> bool:
        """Whether these are the neutral counts ``Counts()``: no label, token, category or tally."""
        return not (self.labels or self.extra or self.tokens or self.tokens_correct
                    or self.tallies)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Counts):
            return NotImplemented
        a, b = self.present(), other.present()
        return (
            a.labels == b.labels
            and np.array_equal(a.exact, b.exact)
            and np.array_equal(a.n_pred, b.n_pred)
            and np.array_equal(a.n_gold, b.n_gold)
            and np.allclose(a.tp, b.tp, rtol=1e-12, atol=1e-12)
            and a.tokens == b.tokens
            and a.tokens_correct == b.tokens_correct
            and a.extra.keys() == b.extra.keys()
            and all(np.array_equal(a.extra[k], b.extra[k]) for k in a.extra)
            and dict(a.tallies) == dict(b.tallies)
        )

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, dict[str, int | float]]:
        """``{label: {"tp", "n_pred", "n_gold"}}`` with plain Python numbers."""
        tp = self.tp.tolist()
        return {
            lab: {"tp": tp[i], "n_pred": int(self.n_pred[i]), "n_gold": int(self.n_gold[i])}
            for i, lab in enumerate(self.labels)
        }
