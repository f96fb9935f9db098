"""The generic, vectorised tag decoder (SPEC §2.3).

The corpus is one flat array of canonical letter classes and type ids, with
an outside token between sentences, so a sentence boundary is an ``O`` on
both sides. Two table-driven algorithms read the scheme tables:

* :func:`decode_events` — the lenient family (seqeval's default mode, the
  conlleval script): chunk boundaries are events computed for every pair of
  neighbouring tokens with shifted comparisons; a chunk runs from the most
  recent start event to an end event.
* :func:`decode_chunks` — seqeval's strict mode: a chunk is a start pattern
  followed by a maximal run of inside patterns and closed by an end pattern.
  The left-to-right scan is vectorised by splitting the corpus into runs of
  inside transitions; in each run only the first start can open a chunk.

No Python loop runs per token.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from nerscore.schemes import N_CLASSES, EventRules, O, Pattern

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

__all__ = ["decode_chunks", "decode_events", "decode_events_ids", "flatten_with_separators"]


def flatten_with_separators(
    values: npt.NDArray[np.generic], offsets: IntArray, fill: int
) -> tuple[npt.NDArray[np.generic], IntArray]:
    """Insert one ``fill`` after every sequence; return the array and new offsets."""
    n_seq = len(offsets) - 1
    lengths = np.diff(offsets)
    out = np.full(len(values) + n_seq, fill, dtype=values.dtype)
    seq_of_token = np.repeat(np.arange(n_seq, dtype=np.int64), lengths)
    out[np.arange(len(values), dtype=np.int64) + seq_of_token] = values
    return out, offsets + np.arange(n_seq + 1, dtype=np.int64)


def _pair_table(pairs: Iterable[tuple[int, int]]) -> BoolArray:
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


def decode_events(
    cls: npt.NDArray[np.int8],
    typ: IntArray,
    rules: EventRules,
    *,
    first_type: int = -1,
    last_type: int | None = None,
    per_start: bool = False,
) -> tuple[IntArray, IntArray, IntArray]:
    """Chunks ``(begin, end, type)`` (flat, half-open) by the event rules.

    ``first_type`` is the type of the virtual outside token before the first
    token; ``last_type`` that of the one after the last token (default:
    ``first_type``). A chunk ends at every end event and begins at the most
    recent start event before it (position 0 if none, as seqeval does).
    With ``per_start=True`` (the conlleval script's counting) there is one
    chunk per start event instead, typed by its first token and running to
    the first end event after it (or to the end of the corpus).
    """
    pc, pt, c, t = _shift(cls, typ, first_type, first_type if last_type is None else last_type)
    pair = pc.astype(np.int64) * N_CLASSES + c
    differ = pt != t
    end_ev = _pair_table(rules.end)[pair] | (_class_table(rules.end_on_type_change)[pc] & differ)
    start_ev = _pair_table(rules.start)[pair] | (
        _class_table(rules.start_on_type_change)[c] & differ
    )
    ends = np.flatnonzero(end_ev)
    if per_start:
        start_ev[-1] = False
        starts = np.flatnonzero(start_ev)
        stops = np.append(ends, len(cls))[np.searchsorted(ends, starts, side="right")]
        return starts.astype(np.int64), stops.astype(np.int64), t[starts]
    starts = np.flatnonzero(start_ev)
    k = np.searchsorted(starts, ends - 1, side="right") - 1
    begin = np.where(k >= 0, starts[np.maximum(k, 0)] if len(starts) else 0, 0)
    return begin.astype(np.int64), ends.astype(np.int64), t[ends - 1]


def _event_table(
    tag_cls: npt.NDArray[np.int8], tag_typ: IntArray, rules: EventRules, boundary_type: int
) -> npt.NDArray[np.uint8]:
    """Events of every (previous tag, current tag) pair, the boundary being tag ``len(tag_cls)``.

    Bit 1: an entity ends between the two tokens; bit 2: one starts at the current token.
    """
    cls = np.append(tag_cls, np.int8(O)).astype(np.int64)
    typ = np.append(np.asarray(tag_typ, dtype=np.int64), boundary_type)
    w = len(cls)
    pc, c = np.repeat(cls, w), np.tile(cls, w)
    differ = np.repeat(typ, w) != np.tile(typ, w)
    pair = pc * N_CLASSES + c
    end_ev = _pair_table(rules.end)[pair] | (_class_table(rules.end_on_type_change)[pc] & differ)
    start_ev = _pair_table(rules.start)[pair] | (
        _class_table(rules.start_on_type_change)[c] & differ
    )
    out: npt.NDArray[np.uint8] = end_ev.astype(np.uint8) | (start_ev.astype(np.uint8) << 1)
    return out


def decode_events_ids(
    ids: IntArray,
    offsets: IntArray,
    tag_cls: npt.NDArray[np.int8],
    tag_typ: IntArray,
    rules: EventRules,
) -> tuple[IntArray, IntArray]:
    """Chunks ``(begin, end)`` (flat, half-open) of tag ids, by the event rules.

    The same chunks as :func:`decode_events` over
    ``flatten_with_separators(tag_cls[ids], offsets, O)`` (and the types
    alike), mapped back to positions in ``ids``, but computed without the
    separators: the events of every pair of tag ids are tabulated once, with
    one extra id for the outside token at sentence boundaries, and each token
    costs one table lookup. At a boundary the end event is read from
    (last token, boundary) and the start event from (boundary, first token).
    The type of a chunk is that of its last token, ``ids[end - 1]``.
    """
    v = len(tag_cls)
    w = v + 1
    n = len(ids)
    if n == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    table = _event_table(tag_cls, tag_typ, rules, -1)
    small = np.int16 if w * w < 2**15 else np.int32 if w * w < 2**31 else np.int64
    t = ids.astype(small)
    code = np.zeros(n + 1, dtype=small)  # code[j]: pair (token j-1, token j)
    np.multiply(t[:-1], w, out=code[1:n])
    code[1:n] += t[1:]
    ev = np.take(table, code)
    # sentence boundaries (offsets, including 0 and n): end from (last, boundary),
    # start from (boundary, first)
    b = np.asarray(offsets, dtype=np.int64)
    last = np.where(b > 0, t[np.maximum(b - 1, 0)], v).astype(np.int64)
    first = np.where(b < n, t[np.minimum(b, n - 1)], v).astype(np.int64)
    ev[b] = (table[last * w + v] & 1) | (table[v * w + first] & 2)
    ends = np.flatnonzero((ev & 1).view(np.bool_))
    starts = np.flatnonzero((ev >> 1).view(np.bool_))
    if len(starts) == len(ends) and (
        len(ends) == 0
        or ((starts < ends).all() and (starts[1:] >= ends[:-1]).all())
    ):  # chunks alternate start, end (always so for the lenient rules)
        return starts.astype(np.int64), ends.astype(np.int64)
    k = np.searchsorted(starts, ends - 1, side="right") - 1
    begin = np.where(k >= 0, starts[np.maximum(k, 0)] if len(starts) else 0, 0)
    return begin.astype(np.int64), ends.astype(np.int64)


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
