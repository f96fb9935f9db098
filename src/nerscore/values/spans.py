"""Value types: half-open spans and entities, and their columnar form.

At the API boundary entities are small frozen dataclasses; on the hot path
the same data lives in :class:`EntityColumns`, four integer NumPy columns
(sequence, start, end, label id) plus one label vocabulary, and the
fragments of discontinuous entities when there are any
(:mod:`nerscore.values.fragments`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from nerscore.errors import InputTypeError, InvalidSpanError, quoted
from nerscore.values.fragments import Fragments, normalize_fragments

__all__ = ["Entity", "EntityColumns", "Span", "Tags", "int_array", "merge_vocabs", "recode"]

Tags = Sequence[str]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True, order=True, init=False)
class Span:
    """A half-open interval ``[start, end)`` of token or character offsets.

    Zero-length spans (``start == end``) are legal: a character position such
    as the blank after "Name:". The offsets are integers: NumPy integers are
    stored as ``int``; a float (even a whole one), a bool or anything else
    is refused when the span is built, since offsets count tokens or
    characters (``Span(0.5, 2)`` would otherwise be scored as ``Span(0, 2)``
    by one path and refused by another).

    Raises
    ------
    InvalidSpanError
        For offsets that are not integers, or not ``0 <= start <= end``.

    Examples
    --------
    >>> Span(0, 2)
    Span(start=0, end=2)
    >>> len(Span(3, 7))
    4
    >>> import numpy as np
    >>> Span(np.int64(3), np.int32(7))
    Span(start=3, end=7)
    >>> Span(0.5, 2)
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: Span(0.5, 2) needs integer offsets (int or a NumPy integer); its start is float 0.5. Offsets count tokens or characters.
    """

    start: int
    end: int

    def __init__(self, start: int, end: int) -> None:
        # written out, the fields set through their slots: spans are built by the million
        if type(start) is not int or type(end) is not int:
            start, end = _int_bounds(start, end)
        _SPAN_START(self, start)
        _SPAN_END(self, end)
        if not 0 <= start <= end:
            raise InvalidSpanError(
                f"A span needs 0 <= start <= end; got start={start}, end={end}.")

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True, repr=False, init=False)
class Entity:
    """A labelled span inside one sequence (sentence or document), in one or several fragments.

    ``sentence`` is the index of the sequence in the input and is part of the
    entity's identity: an entity never matches one in another sequence.
    Entities sort by (sentence, span, label, fragments).

    A discontinuous entity ("[lung] cancer in the [upper lobe]") has two or
    more ``fragments``, sorted, disjoint and not touching (touching ones are
    joined, since they cover the same units); its ``span`` is their extent.
    A contiguous entity has no fragments (``()``): its span is its one
    fragment. Build a discontinuous one with :meth:`from_fragments`.

    ``score`` is the system's confidence in a predicted entity (None when
    unscored). It is not part of the entity's identity: it never affects
    equality, ordering or matching, only threshold curves, calibration and
    ``min_score`` (docs/curves.md).

    Raises
    ------
    ValueError
        For fragments that overlap, are empty among several, or whose extent
        is not ``span``.
    InputTypeError
        For a ``span`` that is not a :class:`Span`, a ``label`` that is not a
        str, or a ``sentence`` that is not an integer ``>= 0`` (NumPy
        integers and ``str`` subclasses are stored as ``int`` and ``str``).

    Examples
    --------
    >>> Entity(Span(0, 2), "PER")
    Entity(span=Span(start=0, end=2), label='PER', sentence=0)
    >>> e = Entity.from_fragments([(19, 29), (0, 4)], "Disorder")
    >>> e.span, e.discontinuous, [(f.start, f.end) for f in e.parts]
    (Span(start=0, end=29), True, [(0, 4), (19, 29)])
    >>> Entity.from_fragments([(0, 4), (4, 9)], "X") == Entity(Span(0, 9), "X")
    True
    >>> Entity(Span(0, 2), "PER", score=0.9) == Entity(Span(0, 2), "PER")
    True
    """

    span: Span
    label: str
    sentence: int = 0
    fragments: tuple[Span, ...] = ()
    score: float | None = field(default=None, compare=False)

    def __init__(self, span: Span, label: str, sentence: int = 0,
                 fragments: tuple[Span, ...] = (), score: float | None = None) -> None:
        # written out (no __post_init__), the fields set through their slots: entities are
        # built by the million
        if (type(span) is not Span or type(label) is not str or type(sentence) is not int
                or sentence < 0):
            span, label, sentence = _entity_fields(span, label, sentence)
        _ENTITY_SPAN(self, span)
        _ENTITY_LABEL(self, label)
        _ENTITY_SENTENCE(self, sentence)
        _ENTITY_FRAGMENTS(self, fragments)
        _ENTITY_SCORE(self, score)
        if fragments:
            pairs = normalize_fragments(fragments)
            extent = (pairs[0][0], pairs[-1][1])
            if extent != (span.start, span.end):
                raise ValueError(
                    f"The fragments {[list(p) for p in pairs]} of an entity span "
                    f"[{extent[0]}, {extent[1]}), not its span [{span.start}, "
                    f"{span.end}); the span of a discontinuous entity is its extent."
                )
            _ENTITY_FRAGMENTS(self, () if len(pairs) == 1 else tuple(
                Span(a, b) for a, b in pairs))

    @classmethod
    def _checked(cls, start: int, end: int, label: str, sentence: int = 0) -> Entity:
        """``Entity(Span(start, end), label, sentence)`` of fields already checked.

        For readers that have checked every field themselves (``int``
        offsets, ``0 <= start <= end``, a ``str`` label): the same entity,
        built without checking again.
        """
        span = _new(Span)
        _SPAN_START(span, start)
        _SPAN_END(span, end)
        entity = _new(cls)
        _ENTITY_SPAN(entity, span)
        _ENTITY_LABEL(entity, label)
        _ENTITY_SENTENCE(entity, sentence)
        _ENTITY_FRAGMENTS(entity, ())
        _ENTITY_SCORE(entity, None)
        return entity

    @classmethod
    def from_fragments(cls, fragments: Sequence[Span | Sequence[int]], label: str,
                       sentence: int = 0, score: float | None = None) -> Entity:
        """The entity of these fragments (any order), its span their extent."""
        pairs = normalize_fragments(fragments)
        return cls(Span(pairs[0][0], pairs[-1][1]), label, sentence,
                   tuple(Span(a, b) for a, b in pairs) if len(pairs) > 1 else (), score)

    def __repr__(self) -> str:
        head = f"Entity(span={self.span!r}, label={self.label!r}, sentence={self.sentence!r}"
        tail = f", score={self.score!r})" if self.score is not None else ")"
        return head + (f", fragments={self.fragments!r}" if self.fragments else "") + tail

    def _key(self) -> tuple[int, int, int, str, tuple[Span, ...]]:
        return (self.sentence, self.span.start, self.span.end, self.label, self.fragments)

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

    @property
    def discontinuous(self) -> bool:
        """Whether the entity has two or more fragments."""
        return bool(self.fragments)

    @property
    def parts(self) -> tuple[Span, ...]:
        """Its fragments; a contiguous entity's one fragment is its span."""
        return self.fragments or (self.span,)


def _entity_fields(span: object, label: object, sentence: object) -> tuple[Span, str, int]:
    """The fields of an entity checked, NumPy integers and str subclasses made plain."""
    if not isinstance(span, Span):
        hint = (f" Write Entity(Span({span[0]!r}, {span[1]!r}), ...)."
                if isinstance(span, (tuple, list)) and len(span) == 2 else "")
        raise InputTypeError(f"An Entity's span must be a Span; got {type(span).__name__} "
                             f"{quoted(span)}.{hint}")
    if not isinstance(label, str):
        raise InputTypeError(f"An Entity's label must be a str; got {type(label).__name__} "
                             f"{quoted(label)}.")
    if isinstance(sentence, bool) or not isinstance(sentence, (int, np.integer)) or sentence < 0:
        raise InputTypeError(f"An Entity's sentence must be an integer >= 0 (the index of its "
                             f"sentence or document); got {type(sentence).__name__} "
                             f"{quoted(sentence)}.")
    return span, str(label), int(sentence)


def _int_bounds(start: object, end: object) -> tuple[int, int]:
    """The bounds of a span as ints: NumPy (and other) integers converted, anything else refused.

    A bool is refused too: ``True`` is an int to Python but no offset.
    """
    bounds = []
    for name, x in (("start", start), ("end", end)):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            raise InvalidSpanError(
                f"Span({quoted(start)}, {quoted(end)}) needs integer offsets (int or a NumPy "
                f"integer); its {name} is {type(x).__name__} {quoted(x)}. Offsets count tokens "
                "or characters.")
        bounds.append(int(x))
    return bounds[0], bounds[1]


#: Setters of the fields' slots (what ``object.__setattr__`` finds by name, found once).
_SPAN_START, _SPAN_END = (cast(Any, getattr(Span, f)).__set__ for f in ("start", "end"))
_ENTITY_SPAN, _ENTITY_LABEL, _ENTITY_SENTENCE, _ENTITY_FRAGMENTS, _ENTITY_SCORE = (
    cast(Any, getattr(Entity, f)).__set__ for f in ("span", "label", "sentence", "fragments",
                                                   "score"))
_new = object.__new__


def _col(values: object, name: str) -> IntArray:
    """``values`` as a flat int64 column; values that are not whole numbers are refused.

    A cast alone would cut ``0.5`` to ``0``: a wrong number, not an error.
    """
    arr = np.asarray(values)
    if arr.dtype.kind in "iu" or not arr.size:
        return np.ascontiguousarray(arr.reshape(-1), dtype=np.int64)
    if arr.dtype.kind in "fb":
        flat = arr.reshape(-1)
        with np.errstate(invalid="ignore"):
            ints = flat.astype(np.int64)
        whole = ints == flat
    else:  # strings, objects: each value as given (a list [0, "a"] would read 0 as "0")
        flat = np.asarray(values, dtype=object).reshape(-1)
        whole = np.fromiter(map(_is_whole, flat.tolist()), dtype=bool, count=len(flat))
        ints = flat.astype(np.int64) if whole.all() else flat
    if not whole.all():
        k = int(np.flatnonzero(~whole)[0])
        raise InvalidSpanError(f"EntityColumns needs integers in `{name}`; row {k} has "
                               f"{quoted(flat[k : k + 1].tolist()[0])}.")
    return np.ascontiguousarray(ints)


def _is_whole(x: object) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and float(x).is_integer()


@dataclass(frozen=True, eq=False)
class EntityColumns:
    """Entities of a whole corpus as integer columns (the hot-path form).

    Parameters
    ----------
    seq, start, end, label : array of int
        One row per entity: sequence index, half-open offsets (the extent of
        a discontinuous entity), and an index into ``labels``.
    labels : tuple of str
        The label vocabulary.
    n_sequences : int
        Number of sequences in the corpus (sequences without entities count).
    fragments : Fragments, optional
        The fragments of every row, when some row has two or more; None
        otherwise (and set to None when given without such a row).
    score : array of float, optional
        The confidence of every row (NaN for an unscored one), when some
        row has one; None otherwise (and set to None when every row is NaN).

    Raises
    ------
    InvalidSpanError
        For a value of ``seq``, ``start``, ``end`` or ``label`` that is not
        a whole number (``0.5``, NaN), naming the column and the row: a cast
        to integers would cut it to another offset. Whole floats (``2.0``)
        are read as integers.

    Examples
    --------
    >>> cols = EntityColumns.from_entities(
    ...     [Entity.from_fragments([(0, 4), (19, 29)], "D"), Entity(Span(5, 11), "D")])
    >>> cols.start.tolist(), cols.end.tolist(), cols.discontinuous().tolist()
    ([0, 5], [29, 11], [True, False])
    >>> cols.lengths().tolist(), cols.extent().fragments is None
    ([14, 6], True)
    >>> EntityColumns([0], [0.5], [2], [0], ("PER",))
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: EntityColumns needs integers in `start`; row 0 has 0.5.
    """

    seq: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    labels: tuple[str, ...]
    n_sequences: int = 0
    fragments: Fragments | None = None
    score: FloatArray | None = None

    def __post_init__(self) -> None:
        for name in ("seq", "start", "end", "label"):
            object.__setattr__(self, name, _col(getattr(self, name), name))
        n = len(self.seq)
        if not all(len(getattr(self, c)) == n for c in ("start", "end", "label")):
            raise ValueError("EntityColumns needs seq, start, end and label of equal length.")
        if self.n_sequences == 0 and n:
            object.__setattr__(self, "n_sequences", int(self.seq.max()) + 1)
        if self.fragments is not None:
            if len(self.fragments) != n:
                raise ValueError("EntityColumns needs the fragments of every row.")
            if not (self.fragments.counts() > 1).any():
                object.__setattr__(self, "fragments", None)
        if self.score is not None:
            score = np.ascontiguousarray(np.asarray(self.score, dtype=np.float64).reshape(-1))
            if len(score) != n:
                raise ValueError("EntityColumns needs the score of every row.")
            object.__setattr__(self, "score", None if np.isnan(score).all() else score)

    def __len__(self) -> int:
        return len(self.seq)

    @property
    def n_unscored(self) -> int:
        """How many rows have no score.

        Examples
        --------
        >>> EntityColumns([0, 0], [0, 5], [4, 9], [0, 0], ("PER",), score=[0.5, np.nan]).n_unscored
        1
        """
        return len(self) if self.score is None else int(np.count_nonzero(np.isnan(self.score)))

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
        start = _col([e.span.start for e in ents], "start")
        end = _col([e.span.end for e in ents], "end")
        fragments = None
        if any(e.fragments for e in ents):
            fragments = Fragments.from_lists(
                [tuple((f.start, f.end) for f in e.fragments) for e in ents], start, end)
        score = None
        if any(e.score is not None for e in ents):
            score = np.array([np.nan if e.score is None else e.score for e in ents],
                             dtype=np.float64)
        return cls(
            _col([e.sentence for e in ents], "sentence"),
            start,
            end,
            _col([index[e.label] for e in ents], "label"),
            vocab,
            n_sequences,
            fragments,
            score,
        )

    def to_entities(self) -> list[Entity]:
        """Rows as :class:`Entity` objects, in row order."""
        labels = self.labels
        bad = np.flatnonzero((self.start < 0) | (self.end < self.start))
        if len(bad):  # what Span() raises, naming the bounds
            Span(int(self.start[bad[0]]), int(self.end[bad[0]]))
        make = Entity._checked  # int bounds in order (checked above): built without a check each
        out = [
            make(s, e, labels[lab], q)
            for q, s, e, lab in zip(
                self.seq.tolist(), self.start.tolist(), self.end.tolist(), self.label.tolist(), strict=False
            )
        ]
        f = self.fragments
        if f is not None:
            for i in np.flatnonzero(f.counts() > 1).tolist():
                out[i] = Entity.from_fragments(f.row(i), out[i].label, out[i].sentence)
        if self.score is not None:
            out = [Entity(e.span, e.label, e.sentence, e.fragments,
                          None if x != x else x)  # NaN: unscored
                   for e, x in zip(out, self.score.tolist(), strict=True)]
        return out

    def with_labels(self, labels: Sequence[str]) -> EntityColumns:
        """The same rows re-coded against ``labels`` (a superset of ``self.labels``)."""
        labels = tuple(labels)
        if labels == self.labels:
            return self
        return EntityColumns(
            self.seq, self.start, self.end, recode(self.label, self.labels, labels), labels,
            self.n_sequences, self.fragments, self.score,
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
            self.n_sequences, None if self.fragments is None else self.fragments.take(r),
            None if self.score is None else self.score[r],
        )

    def fragment_counts(self) -> IntArray:
        """Fragments per row (1 for a contiguous entity)."""
        if self.fragments is None:
            return np.ones(len(self), dtype=np.int64)
        return self.fragments.counts()

    def discontinuous(self) -> npt.NDArray[np.bool_]:
        """Which rows have two or more fragments."""
        return np.asarray(self.fragment_counts() > 1)

    def lengths(self) -> IntArray:
        """Units per row: the total length of its fragments (``end - start`` when contiguous)."""
        if self.fragments is None:
            return self.end - self.start
        return self.fragments.lengths()

    def pieces(self) -> EntityColumns:
        """One contiguous row per fragment (its sequence, bounds and label): the units covered."""
        if self.fragments is None:
            return self
        rows = self.fragments.rows()
        return EntityColumns(self.seq[rows], self.fragments.start, self.fragments.end,
                             self.label[rows], self.labels, self.n_sequences,
                             score=None if self.score is None else self.score[rows])

    def extent(self) -> EntityColumns:
        """The same rows read as their extents (first start to last end), without fragments."""
        if self.fragments is None:
            return self
        return EntityColumns(self.seq, self.start, self.end, self.label, self.labels,
                             self.n_sequences, score=self.score)


def unify_labels(a: EntityColumns, b: EntityColumns) -> tuple[EntityColumns, EntityColumns]:
    """Re-code two column sets against one sorted label vocabulary (their union)."""
    if a.labels == b.labels:
        return a, b
    vocab = tuple(sorted(set(a.labels) | set(b.labels)))
    return a.with_labels(vocab), b.with_labels(vocab)


def recode(codes: IntArray, vocab: Sequence[str], to: Sequence[str]) -> IntArray:
    """``codes`` into ``vocab`` as codes into ``to`` (a superset of ``vocab``)."""
    index = {lab: i for i, lab in enumerate(to)}
    remap = np.fromiter(map(index.__getitem__, vocab), dtype=np.int64, count=len(vocab))
    return remap[codes] if len(codes) else codes


def merge_vocabs(*coded: tuple[Sequence[str], IntArray]) -> tuple[tuple[str, ...], list[IntArray]]:
    """Several ``(vocab, codes)`` pairs coded again against the sorted union of their vocabularies.

    Examples
    --------
    >>> vocab, (a, b) = merge_vocabs((("PER",), np.array([0, 0])),
    ...                              (("LOC", "PER"), np.array([1, 0])))
    >>> vocab, a.tolist(), b.tolist()
    (('LOC', 'PER'), [1, 1], [1, 0])
    """
    vocab = tuple(sorted(set().union(*(v for v, _ in coded))))
    return vocab, [recode(c, v, vocab) for v, c in coded]


def int_array(values: Iterable[int], n: int) -> IntArray:
    """The ``n`` integers ``values`` yields, as an int64 array (one C-level pass, no list)."""
    out: IntArray = np.fromiter(values, dtype=np.int64, count=n)
    return out
