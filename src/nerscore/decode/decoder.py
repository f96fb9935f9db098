"""The generic, vectorised tag decoder (docs/schemes.md).

A sentence boundary is an ``O`` on both sides. Two table-driven algorithms
read the scheme tables:

* events (:func:`event_masks`) — the lenient family (seqeval's default mode,
  the conlleval script): chunk boundaries are end and start events of every
  pair of neighbouring tokens. :func:`decode_events_ids` works on tag ids
  (a chunk runs from the most recent start event to an end event);
  :func:`decode_per_start` counts one chunk per start event, as the
  conlleval script does.
* :func:`decode_chunks` — seqeval's strict mode: a chunk is a start pattern
  followed by a maximal run of inside patterns and closed by an end pattern.
  The left-to-right scan is vectorised by splitting the corpus into runs of
  inside transitions; in each run only the first start can open a chunk.

No Python loop runs per token.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.values.schemes import N_CLASSES, EventRules, O, Pattern

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

__all__ = [
    "decode_chunks",
    "decode_events_ids",
    "decode_events_ids_seq",
    "decode_per_start",
    "event_masks",
    "flatten_with_separators",
    "pair_table",
    "with_separators",
]


def flatten_with_separators(
    values: npt.NDArray[np.generic], offsets: IntArray, fill: int
) -> tuple[npt.NDArray[np.generic], IntArray]:
    """Insert one ``fill`` after every sequence; return the array and new offsets.

    Examples
    --------
    >>> out, ext = flatten_with_separators(np.array([1, 2, 3]), np.array([0, 2, 2, 3]), 0)
    >>> out.tolist(), ext.tolist()
    ([1, 2, 0, 0, 3, 0], [0, 3, 4, 6])
    """
    n_seq = len(offsets) - 1
    n = len(values)
    sep = np.asarray(offsets[1:], dtype=np.int64) + np.arange(n_seq, dtype=np.int64)
    keep = np.ones(n + n_seq, dtype=bool)
    keep[sep] = False
    out = np.empty(n + n_seq, dtype=values.dtype)
    out[keep] = values
    out[sep] = fill
    return out, offsets + np.arange(n_seq + 1, dtype=np.int64)


def pair_table(pairs: Iterable[tuple[int, int]]) -> BoolArray:
    """A boolean table over (previous tag id, tag id) with True at each listed pair."""
    table = np.zeros(N_CLASSES * N_CLASSES, dtype=bool)
    for p, c in pairs:
        table[p * N_CLASSES + c] = True
    return table


def _class_table(classes: Iterable[int]) -> BoolArray:
    table = np.zeros(N_CLASSES, dtype=bool)
    table[list(classes)] = True
    return table


def _shift(
    cls: npt.NDArray[np.int8], typ: IntArray, first_type: int, last_type: int
) -> tuple[npt.NDArray[np.int8], IntArray, npt.NDArray[np.int8], IntArray]:
    """Extend with a final virtual O; return (prev class, prev type, class, type)."""
    c = np.empty(len(cls) + 1, dtype=np.int8)
    c[:-1] = cls
    c[-1] = O
    t = np.empty(len(typ) + 1, dtype=np.int64)
    t[:-1] = typ
    t[-1] = last_type
    pc = np.empty_like(c)
    pc[0] = O
    pc[1:] = c[:-1]
    pt = np.empty_like(t)
    pt[0] = first_type
    pt[1:] = t[:-1]
    return pc, pt, c, t


def event_masks(
    pc: npt.NDArray[Any], pt: npt.NDArray[Any], c: npt.NDArray[Any], t: npt.NDArray[Any],
    rules: EventRules,
) -> tuple[BoolArray, BoolArray]:
    """(end, start) event masks of every (previous, current) token pair.

    An entity ends between p and c when ``(p, c)`` is an end pair or p ends
    on a type change and the types differ; one starts at c likewise.
    """
    pair = pc.astype(np.intp) * N_CLASSES + c
    differ = pt != t
    end_ev = pair_table(rules.end)[pair] | (_class_table(rules.end_on_type_change)[pc] & differ)
    start_ev = pair_table(rules.start)[pair] | (
        _class_table(rules.start_on_type_change)[c] & differ
    )
    return end_ev, start_ev


def decode_per_start(
    cls: npt.NDArray[np.int8], typ: IntArray, rules: EventRules, *, outside_type: int
) -> tuple[IntArray, IntArray, IntArray]:
    """One chunk ``(begin, end, type)`` per start event (the conlleval script's counting).

    A chunk is typed by its first token and runs to the first end event after
    it, or to the end of the corpus; ``outside_type`` is the type of the
    virtual outside tokens before the first and after the last token.
    """
    pc, pt, c, t = _shift(cls, typ, outside_type, outside_type)
    end_ev, start_ev = event_masks(pc, pt, c, t, rules)
    ends = np.flatnonzero(end_ev)
    start_ev[-1] = False
    starts = np.flatnonzero(start_ev)
    stops = np.append(ends, len(cls))[np.searchsorted(ends, starts, side="right")]
    return starts.astype(np.int64), stops.astype(np.int64), t[starts]


#: Largest tag vocabulary (plus two virtual ids) whose pair table is built; beyond
#: it events are computed per token from classes and types (same result, less memory).
MAX_TABLE_IDS = 1024


def _events(
    pc: IntArray, pt: IntArray, c: IntArray, t: IntArray, rules: EventRules
) -> npt.NDArray[np.uint8]:
    """Bit 1: an entity ends between p and c; bit 2: one starts at c."""
    end_ev, start_ev = event_masks(pc, pt, c, t, rules)
    return np.asarray(end_ev.astype(np.uint8) | (start_ev.astype(np.uint8) << 1),
                      dtype=np.uint8)


class _EventLookup:
    """Events of (previous id, current id) pairs of tag ids.

    Ids ``len(tag_cls) + i`` are virtual outside tokens of type ``virtual_types[i]``.
    Small vocabularies tabulate every pair once (one lookup per token); large ones
    compute the events from the ids' classes and types.
    """

    def __init__(self, tag_cls: npt.NDArray[np.int8], tag_typ: IntArray, rules: EventRules,
                 virtual_types: list[int]) -> None:
        k = len(virtual_types)
        self.cls = np.concatenate([np.asarray(tag_cls, dtype=np.int64),
                                   np.full(k, O, dtype=np.int64)])
        self.typ = np.concatenate([np.asarray(tag_typ, dtype=np.int64),
                                   np.asarray(virtual_types, dtype=np.int64)])
        self.rules = rules
        self.w = w = len(self.cls)
        self.table = None
        if w <= MAX_TABLE_IDS:
            self.table = _events(np.repeat(self.cls, w), np.repeat(self.typ, w),
                                 np.tile(self.cls, w), np.tile(self.typ, w), rules)

    def __call__(self, prev: IntArray, cur: IntArray) -> npt.NDArray[np.uint8]:
        if self.table is not None:
            return np.take(self.table, prev * self.w + cur)
        return _events(self.cls[prev], self.typ[prev], self.cls[cur], self.typ[cur], self.rules)


def decode_events_ids(
    ids: IntArray,
    offsets: IntArray,
    tag_cls: npt.NDArray[np.int8],
    tag_typ: IntArray,
    rules: EventRules,
    *,
    boundary_type: int = -1,
    first_type: int | None = None,
    no_start: int = 0,
) -> tuple[IntArray, IntArray]:
    """Chunks ``(begin, end)`` (flat, half-open) of tag ids, by the event rules.

    The chunks of the event rules over the corpus with an outside separator
    of type ``boundary_type`` after every sentence (and one of type
    ``first_type`` before the first token), given as positions in ``ids``
    (:func:`with_separators` maps them to separator coordinates).
    The separators are never built: the events of every pair of tag ids are
    tabulated once, with virtual outside ids for the separator and for the
    token before the first, and each token costs one table lookup. At a
    sentence boundary the end event is read from (last token, separator) and
    the start event from (separator, first token); no event can fall between
    an outside separator and its neighbours otherwise. The type of a chunk is
    that of its last token, ``ids[end - 1]``.

    Parameters
    ----------
    ids : array of int
        Tag ids of all sentences, concatenated.
    offsets : array of int
        Sentence ``k`` is ``ids[offsets[k]:offsets[k + 1]]``.
    tag_cls, tag_typ : array of int
        Canonical class and type id of every tag id.
    rules : EventRules
        The boundary rules.
    boundary_type : int
        Type of the outside separator after every sentence.
    first_type : int, optional
        Type of the outside token before the first token (default: ``boundary_type``).
    no_start : int
        ``begin`` of a chunk whose end has no start event before it
        (seqeval uses position 0; pass -1 to tell these apart for
        :func:`with_separators`).

    Returns
    -------
    begin, end : array of int

    Examples
    --------
    >>> from nerscore.values.schemes import LENIENT
    >>> cls, typ = np.array([0, 1, 2], dtype=np.int8), np.array([-1, 0, 0])  # O B-X I-X
    >>> decode_events_ids(np.array([1, 2, 2, 0, 2]), np.array([0, 3, 5]), cls, typ, LENIENT)
    (array([0, 4]), array([3, 5]))
    """
    begin, end, _ = _decode_ids(ids, offsets, tag_cls, tag_typ, rules, boundary_type,
                                first_type, no_start, want_seq=False)
    return begin, end


def decode_events_ids_seq(
    ids: IntArray,
    offsets: IntArray,
    tag_cls: npt.NDArray[np.int8],
    tag_typ: IntArray,
    rules: EventRules,
) -> tuple[IntArray, IntArray, IntArray]:
    """:func:`decode_events_ids` (default options) plus the sentence of every chunk's begin.

    The sentence index comes out of the same pass: sentence boundaries are
    marked in the event array, so no binary search over ``offsets`` is needed.

    Examples
    --------
    >>> from nerscore.values.schemes import LENIENT
    >>> cls, typ = np.array([0, 1, 2], dtype=np.int8), np.array([-1, 0, 0])  # O B-X I-X
    >>> decode_events_ids_seq(np.array([1, 2, 2, 0, 2]), np.array([0, 0, 3, 5]), cls, typ,
    ...                       LENIENT)
    (array([0, 4]), array([3, 5]), array([1, 2]))
    """
    return _decode_ids(ids, offsets, tag_cls, tag_typ, rules, -1, None, 0, want_seq=True)


def _decode_ids(
    ids: IntArray,
    offsets: IntArray,
    tag_cls: npt.NDArray[np.int8],
    tag_typ: IntArray,
    rules: EventRules,
    boundary_type: int,
    first_type: int | None,
    no_start: int,
    *,
    want_seq: bool,
) -> tuple[IntArray, IntArray, IntArray]:
    v = len(tag_cls)  # the separator; v + 1: the token before the first
    w = v + 2
    n = len(ids)
    if n == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    first = boundary_type if first_type is None else first_type
    lookup = _EventLookup(tag_cls, tag_typ, rules, [boundary_type, first])
    if lookup.table is not None:
        small = np.int16 if w * w < 2**15 else np.int32
        t: npt.NDArray[Any] = ids.astype(small)
        code = np.zeros(n + 1, dtype=small)  # code[j]: pair (token j-1, token j)
        np.multiply(t[:-1], w, out=code[1:n])
        code[1:n] += t[1:]
        ev = np.take(lookup.table, code)
    else:
        t = ids.astype(np.int64)
        ev = np.zeros(n + 1, dtype=np.uint8)
        ev[1:n] = lookup(t[:-1], t[1:])
    # sentence boundaries (offsets, including 0 and n): end from (last, separator),
    # start from (separator, first); before token 0 stands the first virtual token
    # unless an empty first sentence put a separator there. Bit 4 marks a boundary.
    b = np.asarray(offsets, dtype=np.int64)
    prev = np.where(b > 0, t[np.maximum(b - 1, 0)], v + 1).astype(np.int64)
    cur = np.where(b < n, t[np.minimum(b, n - 1)], v).astype(np.int64)
    before = np.where((b == 0) & (b[1] > 0), v + 1, v)
    ev[b] = (lookup(prev, np.full(len(b), v)) & 1) | (lookup(before, cur) & 2) | 4
    pos = np.flatnonzero(ev != 0)  # every event and boundary, in order
    bits = ev[pos]
    is_start = (bits >> 1 & 1).view(np.bool_)
    ends = np.compress((bits & 1).view(np.bool_), pos)  # compress: faster than pos[mask]
    starts = np.compress(is_start, pos)
    if want_seq:
        # sentence of position x = (number of offsets <= x) - 1; boundaries come in
        # order in `pos`, one per distinct offset, weighted by its multiplicity
        new = np.ones(len(b), dtype=bool)
        new[1:] = b[1:] != b[:-1]
        mult = np.diff(np.append(np.flatnonzero(new), len(b)))
        weight = np.zeros(len(pos), dtype=np.int64)
        weight[np.flatnonzero(bits >> 2)] = mult
        start_seq = np.compress(is_start, np.cumsum(weight)) - 1
    else:
        start_seq = np.zeros(0, dtype=np.int64)
    if len(starts) == len(ends) and (
        len(ends) == 0
        or ((starts < ends).all() and (starts[1:] >= ends[:-1]).all())
    ):  # chunks alternate start, end (always so for the lenient rules)
        return starts.astype(np.int64), ends.astype(np.int64), start_seq
    k = np.searchsorted(starts, ends - 1, side="right") - 1
    ok = k >= 0
    kk = np.maximum(k, 0)
    begin = np.where(ok, starts[kk] if len(starts) else 0, no_start)
    if want_seq:
        seq_none = int(np.searchsorted(b, no_start, side="right")) - 1
        seq = np.where(ok, start_seq[kk] if len(start_seq) else 0, seq_none)
    else:
        seq = start_seq
    return begin.astype(np.int64), ends.astype(np.int64), seq.astype(np.int64)


def with_separators(
    begin: IntArray, end: IntArray, offsets: IntArray
) -> tuple[IntArray, IntArray]:
    """Map chunk positions from :func:`decode_events_ids` to separator coordinates.

    Those of :func:`flatten_with_separators` (one separator after every
    sentence). A negative ``begin`` (a chunk without a start event, see ``no_start``)
    becomes 0, as in seqeval.

    Examples
    --------
    >>> with_separators(np.array([0, 4]), np.array([3, 5]), np.array([0, 3, 5]))
    (array([0, 5]), array([3, 6]))
    """
    sent_ends = np.asarray(offsets[1:], dtype=np.int64)
    b = np.where(begin < 0, 0, begin + np.searchsorted(sent_ends, begin, side="right"))
    e = end + np.searchsorted(sent_ends, end - 1, side="right")
    return b.astype(np.int64), e.astype(np.int64)


def _pattern_mask(
    patterns: frozenset[Pattern], pair: IntArray, same: BoolArray
) -> BoolArray:
    any_t = np.zeros(N_CLASSES * N_CLASSES, dtype=bool)
    same_t = np.zeros_like(any_t)
    diff_t = np.zeros_like(any_t)
    for p, c, cond in patterns:
        {"any": any_t, "same": same_t, "diff": diff_t}[cond][p * N_CLASSES + c] = True
    return any_t[pair] | (same_t[pair] & same) | (diff_t[pair] & ~same)


def decode_chunks(
    cls: npt.NDArray[np.int8],
    typ: IntArray,
    start: frozenset[Pattern],
    inside: frozenset[Pattern],
    end: frozenset[Pattern],
) -> tuple[IntArray, IntArray, IntArray]:
    """Chunks ``(begin, end, type)`` by seqeval's strict patterns (flat, half-open)."""
    pc, pt, c, t = _shift(cls, typ, -1, -1)
    pair = pc.astype(np.int64) * N_CLASSES + c
    same = pt == t
    is_start = _pattern_mask(start, pair, same)
    is_inside = _pattern_mask(inside, pair, same)
    is_inside[-1] = False
    is_start[-1] = False
    run_heads = np.flatnonzero(~is_inside)  # each run of inside transitions begins here
    run_of = np.cumsum(~is_inside) - 1
    s = np.flatnonzero(is_start)
    if len(s) == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    runs = run_of[s]
    first = np.ones(len(s), dtype=bool)
    first[1:] = runs[1:] != runs[:-1]
    s = s[first]
    stop = run_heads[run_of[s] + 1]
    closed = _pattern_mask(end, pair[stop], same[stop])
    s, stop = s[closed], stop[closed]
    return s.astype(np.int64), stop.astype(np.int64), t[s]
