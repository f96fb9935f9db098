"""Value types: half-open spans and entities, and their columnar form.

At the API boundary entities are small frozen dataclasses; on the hot path
the same data lives in :class:`EntityColumns`, four integer NumPy columns
(sequence, start, end, label id) plus one label vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Entity", "EntityColumns", "Span", "Tags"]

Tags = Sequence[str]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A half-open interval ``[start, end)`` of token or character offsets.

    Zero-length spans (``start == end``) are legal: a character position such
    as the blank after "Name:".

    Examples
    --------
    >>> Span(0, 2)
    Span(start=0, end=2)
    >>> len(Span(3, 7))
    4
    """

    start: int
    end: int

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(
                f"A span needs 0 <= start <= end; got start={self.start}, end={self.end}."
            )

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Entity:
    """A labelled span inside one sequence (sentence or document).

    ``sentence`` is the index of the sequence in the input and is part of the
    entity's identity: an entity never matches one in another sequence.
    Entities sort by (sentence, span, label).

    Examples
    --------
    >>> Entity(Span(0, 2), "PER")
    Entity(span=Span(start=0, end=2), label='PER', sentence=0)
    """

    span: Span
    label: str
    sentence: int = 0

    def _key(self) -> tuple[int, int, int, str]:
        return (self.sentence, self.span.start, self.span.end, self.label)

    def __lt__(self, other: Entity) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Entity) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Entity) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Entity) -> bool:
        return self._key() >= other._key()

    @property
    def start(self) -> int:
        """Start offset (inclusive)."""
        return self.span.start

    @property
    def end(self) -> int:
        """End offset (exclusive)."""
        return self.span.end


def _col(values: object) -> IntArray:
    return np.ascontiguousarray(np.asarray(values, dtype=np.int64).reshape(-1))


@dataclass(frozen=True, eq=False)
class EntityColumns:
    """Entities of a whole corpus as integer columns (the hot-path form).

    Parameters
    ----------
    seq, start, end, label : array of int
        One row per entity: sequence index, half-open offsets, and an index
        into ``labels``.
    labels : tuple of str
        The label vocabulary.
    n_sequences : int
        Number of sequences in the corpus (sequences without entities count).
    """

    seq: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    labels: tuple[str, ...]
    n_sequences: int = 0

    def __post_init__(self) -> None:
        for name in ("seq", "start", "end", "label"):
            object.__setattr__(self, name, _col(getattr(self, name)))
        n = len(self.seq)
        if not all(len(getattr(self, c)) == n for c in ("start", "end", "label")):
            raise ValueError("EntityColumns needs seq, start, end and label of equal length.")
        if self.n_sequences == 0 and n:
            object.__setattr__(self, "n_sequences", int(self.seq.max()) + 1)

    def __len__(self) -> int:
        return len(self.seq)

    @classmethod
    def empty(cls, labels: Sequence[str] = (), n_sequences: int = 0) -> EntityColumns:
        """Columns with no rows."""
        z = np.zeros(0, dtype=np.int64)
        return cls(z, z, z, z, tuple(labels), n_sequences)

    @classmethod
    def from_entities(
        cls, entities: Iterable[Entity], *, labels: Sequence[str] | None = None,
        n_sequences: int = 0,
    ) -> EntityColumns:
        """Build columns from :class:`Entity` objects (labels sorted unless given)."""
        ents = list(entities)
        vocab = tuple(labels) if labels is not None else tuple(sorted({e.label for e in ents}))
        index = {lab: i for i, lab in enumerate(vocab)}
        missing = {e.label for e in ents} - index.keys()
        if missing:
            vocab = vocab + tuple(sorted(missing))
            index = {lab: i for i, lab in enumerate(vocab)}
        return cls(
            _col([e.sentence for e in ents]),
            _col([e.span.start for e in ents]),
            _col([e.span.end for e in ents]),
            _col([index[e.label] for e in ents]),
            vocab,
            n_sequences,
        )

    def to_entities(self) -> list[Entity]:
        """Rows as :class:`Entity` objects, in row order."""
        labels = self.labels
        return [
            Entity(Span(s, e), labels[lab], q)
            for q, s, e, lab in zip(
                self.seq.tolist(), self.start.tolist(), self.end.tolist(), self.label.tolist(), strict=False
            )
        ]

    def with_labels(self, labels: Sequence[str]) -> EntityColumns:
        """The same rows re-coded against ``labels`` (a superset of ``self.labels``)."""
        labels = tuple(labels)
        if labels == self.labels:
            return self
        index = {lab: i for i, lab in enumerate(labels)}
        remap = np.array([index[lab] for lab in self.labels], dtype=np.int64)
        new_label = remap[self.label] if len(self.label) else self.label
        return EntityColumns(
            self.seq, self.start, self.end, new_label, labels, self.n_sequences
        )

    def sorted(self) -> EntityColumns:
        """Rows sorted by (sequence, start, end, label)."""
        order = np.lexsort((self.label, self.end, self.start, self.seq))
        return self.take(order)

    def take(self, rows: npt.ArrayLike) -> EntityColumns:
        """The rows at ``rows`` (indices or a boolean mask)."""
        r = np.asarray(rows)
        return EntityColumns(
            self.seq[r], self.start[r], self.end[r], self.label[r], self.labels,
            self.n_sequences,
        )


def unify_labels(a: EntityColumns, b: EntityColumns) -> tuple[EntityColumns, EntityColumns]:
    """Re-code two column sets against one sorted label vocabulary (their union)."""
    if a.labels == b.labels:
        return a, b
    vocab = tuple(sorted(set(a.labels) | set(b.labels)))
    return a.with_labels(vocab), b.with_labels(vocab)
