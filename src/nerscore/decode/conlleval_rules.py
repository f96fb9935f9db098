"""The chunk rules of the Perl ``conlleval`` script (version 2004-01-26) as data.

The script reads a tag as the text before the first ``-`` (its *prefix*) and
the text after it (its *type*); a tag without ``-`` is all prefix with the
empty type, and the type ``"0"`` counts as empty (Perl truthiness). Only the
prefixes ``B I E O . [ ]`` mean anything; every other prefix (``S``, ``U``,
``L``, ``M``, lowercase letters, a bare label) is one class, ``OTHER``, that
takes part in chunks only through type changes. That is why ``S-PER S-PER``
is one chunk and why ``E-X B-X`` does not split a chunk.

The rules, over the canonical classes of :mod:`nerscore.values.schemes`:

* a chunk **ends** between p and c for the pairs ``B→B B→O I→B I→O E→E E→I
  E→O``, after every ``[`` and ``]``, and when p is neither ``O`` nor ``.``
  and the types differ;
* a chunk **starts** at c for the pairs ``B→B I→B O→B O→I E→E E→I O→E``, at
  every ``[`` and ``]``, and when c is neither ``O`` nor ``.`` and the types
  differ.

Every start event is one found chunk. The script's *correct* count is a
left-to-right state machine; :func:`score_rows` computes it from the
positions of its events instead of a loop over lines. On ``O``/``B``/``I``
tags it equals the exact-match count of the chunks; it can differ where a
chunk starts without the previous one ending (``[`` after ``S``, ``.``
tags), which :func:`decode_conlleval`'s spans cannot express.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from nerscore.decode.decoder import (
    decode_per_start,
    event_masks,
    flatten_with_separators,
    pair_table,
)
from nerscore.errors import ConllevalMergeWarning, quoted
from nerscore.values import schemes as sc
from nerscore.values.counts import Counts
from nerscore.values.schemes import EventRules
from nerscore.values.spans import EntityColumns
from nerscore.values.tags import EncodedTags

__all__ = [
    "CONLLEVAL",
    "ConllevalMergeWarning",
    "ConllevalResult",
    "decode_conlleval",
    "lenient_letter",
    "merge_note",
    "prefix_class",
    "score_conlleval",
    "score_rows",
    "split_tag",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Int8Array = npt.NDArray[np.int8]
Array = npt.NDArray[Any]

_ALL_CLASSES = range(sc.N_CLASSES)
_TYPED = frozenset(_ALL_CLASSES) - {sc.O, sc.DOT}

#: The script's ``endOfChunk``/``startOfChunk`` as an event table.
CONLLEVAL = EventRules(
    end=frozenset(
        {(sc.B, sc.B), (sc.B, sc.O), (sc.I, sc.B), (sc.I, sc.O), (sc.E, sc.E), (sc.E, sc.I),
         (sc.E, sc.O)}
        | {(p, c) for p in (sc.OPEN, sc.CLOSE) for c in _ALL_CLASSES}
    ),
    start=frozenset(
        {(sc.B, sc.B), (sc.I, sc.B), (sc.O, sc.B), (sc.O, sc.I), (sc.E, sc.E), (sc.E, sc.I),
         (sc.O, sc.E)}
        | {(p, c) for p in _ALL_CLASSES for c in (sc.OPEN, sc.CLOSE)}
    ),
    end_on_type_change=_TYPED,
    start_on_type_change=_TYPED,
)

_PREFIX_CLASS = {
    "B": sc.B, "I": sc.I, "E": sc.E, "O": sc.O, ".": sc.DOT, "[": sc.OPEN, "]": sc.CLOSE,
}
# How lenient mode reads a prefix (aliases included); -1 for "not an entity tag".
_LENIENT_LETTER = {
    "B": sc.B, "I": sc.I, "M": sc.I, "E": sc.E, "L": sc.E, "S": sc.S, "U": sc.S,
}

_LENIENT_START = pair_table(sc.LENIENT.start)


def split_tag(tag: str, delimiter: str = "-") -> tuple[str, str]:
    """Split a tag into prefix and type the way the conlleval script does.

    Parameters
    ----------
    tag : str
        The tag.
    delimiter : str
        Between prefix and type; the script's is ``-``.

    Returns
    -------
    tuple of str
        ``(prefix, type)``: the text before the first delimiter and after it;
        without a delimiter the whole tag and ``""``. The type ``"0"`` is
        returned as ``""``, as the script's truthiness test makes it.

    Examples
    --------
    >>> split_tag("B-ARGM-LOC")
    ('B', 'ARGM-LOC')
    >>> split_tag("PER"), split_tag("B-0"), split_tag("-X")
    (('PER', ''), ('B', ''), ('', 'X'))
    """
    prefix, sep, typ = tag.partition(delimiter)
    if not sep or typ == "0":
        return prefix, ""
    return prefix, typ


def prefix_class(prefix: str) -> int:
    """Canonical class of a prefix under the script's rules.

    Examples
    --------
    >>> from nerscore.values.schemes import CLASS_NAMES
    >>> [CLASS_NAMES[prefix_class(p)] for p in ("B", "I", "E", "O", ".", "[", "]", "S", "b")]
    ['B', 'I', 'E', 'O', '.', '[', ']', '?', '?']
    """
    return _PREFIX_CLASS.get(prefix, sc.OTHER)


def lenient_letter(prefix: str) -> int:
    """Class lenient mode gives an entity prefix (``U L M`` as aliases); -1 otherwise."""
    return _LENIENT_LETTER.get(prefix, -1)


def _shifted(values: Array, first: int) -> Array:
    out = np.empty_like(values)
    if len(values):
        out[0] = first
        out[1:] = values[:-1]
    return out


def _events(pc: Array, pt: Array, c: Array, t: Array) -> tuple[Array, Array, Array]:
    """(start, end, types differ) for every position, from previous and current tags."""
    end, start = event_masks(pc, pt, c, t, CONLLEVAL)
    return start, end, pt != t


def _merged(prev_letter: Array, letter: Array, differ: Array, start: Array) -> Array:
    """Where lenient mode starts a new same-type entity and the script does not."""
    merged = (prev_letter >= 0) & (letter >= 0) & ~differ & ~start
    pair = np.where(merged, prev_letter.astype(np.intp) * sc.N_CLASSES + letter, 0)
    out: Array = merged & _LENIENT_START[pair]
    return out


def merge_note(n: int, first: str, where: str) -> str:
    """The text of the merge warning (shared by the API and the CLI).

    Examples
    --------
    >>> merge_note(1, "'S-PER' -> 'S-PER'", "token 1 of sentence 0")[:47]
    'conlleval rules merged 1 pair of adjacent chunk'
    """
    pairs = "pair" if n == 1 else "pairs"
    return (
        f"conlleval rules merged {n} {pairs} of adjacent chunks of one type that mode "
        f"'lenient' keeps apart (first: {first} at {where}). The Perl script does not know "
        "the S/U/L/M prefixes and does not end a chunk at E -> B, so these numbers differ "
        "from mode 'lenient'."
    )


def decode_conlleval(enc: EncodedTags, *, delimiter: str = "-") -> EntityColumns:
    """Decode tags into entities by the conlleval script's chunk rules.

    Parameters
    ----------
    enc : EncodedTags
        The corpus; every sequence is a sentence (boundaries act as ``O``).
    delimiter : str
        Between prefix and type (split at the first one, as the script does).

    Returns
    -------
    EntityColumns
        One entity per chunk start (the script counts found chunks this
        way), typed by its first token and ending at the next chunk end, or
        at the end of its sentence. Entities may nest when the script sees a
        start without an end (e.g. ``S-X [-X``).

    Warns
    -----
    ConllevalMergeWarning
        When adjacent chunks of one type are merged that ``lenient`` mode
        keeps apart (``S-PER S-PER``, ``B-X E-X B-X E-X``).

    Examples
    --------
    >>> from nerscore import EncodedTags
    >>> cols = decode_conlleval(EncodedTags.from_lists([["[-NP", "I-NP", "]-NP", "O", "B-VP"]]))
    >>> cols.start.tolist(), cols.end.tolist(), [cols.labels[i] for i in cols.label]
    ([0, 2, 4], [1, 3, 5], ['NP', 'NP', 'VP'])
    """
    parts = [split_tag(tag, delimiter) for tag in enc.vocab]
    types = sorted({typ for _, typ in parts} | {""})
    type_id = {typ: i for i, typ in enumerate(types)}  # "" is 0
    v_cls = np.array([prefix_class(p) for p, _ in parts], dtype=np.int8)
    v_typ = np.array([type_id[t] for _, t in parts], dtype=np.int64)
    v_letter = np.array([lenient_letter(p) for p, _ in parts], dtype=np.int8)
    flat_cls, ext = flatten_with_separators(v_cls[enc.ids], enc.offsets, sc.O)
    flat_typ, _ = flatten_with_separators(v_typ[enc.ids], enc.offsets, 0)
    cls, typ = cast(Int8Array, flat_cls), cast(IntArray, flat_typ)
    begin, stop, lab = decode_per_start(cls, typ, CONLLEVAL, outside_type=0)
    seq = np.searchsorted(ext, begin, side="right") - 1
    stop = np.minimum(stop, ext[seq + 1] - 1)
    start = begin - ext[seq]

    letter, _ = flatten_with_separators(v_letter[enc.ids], enc.offsets, -1)
    ev_start, _, differ = _events(_shifted(cls, sc.O), _shifted(typ, 0), cls, typ)
    merged = np.flatnonzero(_merged(_shifted(letter, -1), letter, differ, ev_start))
    if len(merged):
        pos = int(merged[0])
        k = int(np.searchsorted(ext, pos, side="right") - 1)
        ids = enc.ids[pos - k - 1: pos - k + 1]
        first = f"{quoted(enc.vocab[ids[0]])} -> {quoted(enc.vocab[ids[1]])}"
        warnings.warn(
            ConllevalMergeWarning(
                merge_note(len(merged), first, f"token {pos - ext[k]} of sentence {k}")
                + " Use mode='lenient' to count them apart."
            ),
            stacklevel=4,
        )

    keep = sorted({typ for (_, typ), c in zip(parts, v_cls.tolist(), strict=True)
                   if c not in (sc.O, sc.DOT)})
    rank = np.full(len(types), -1, dtype=np.int64)
    rank[[type_id[t] for t in keep]] = np.arange(len(keep), dtype=np.int64)
    return EntityColumns(seq, start, stop - ext[seq], rank[lab] if len(lab) else lab,
                         tuple(keep), enc.n_sequences)


@dataclass(frozen=True)
class ConllevalResult:
    """What the script counts on a stream of rows.

    Attributes
    ----------
    counts : Counts
        Per type: ``exact`` = correct chunks (the script's state machine),
        ``n_pred`` = found guessed, ``n_gold`` = found correct; ``tokens`` and
        ``tokens_correct`` for accuracy. Types that only ever close a correct
        chunk (never start one) are kept with zero found counts: the script
        counts them in the overall total but prints no line for them.
    merged_gold, merged_pred : array of int
        Rows where the script merged adjacent same-type chunks that lenient
        mode keeps apart (for the merge note).
    """

    counts: Counts
    merged_gold: IntArray
    merged_pred: IntArray


_TABLE_LIMIT = 1 << 22  # largest (pairs + 1) ** 2 for a transition table
# bits of a transition code
_SG, _SP, _OPEN, _CLOSE, _STOP, _MG, _MP = (1 << k for k in range(7))


def _codes(a: Array, b: Array, side: tuple[Array, ...]) -> Array:
    """Everything the script decides between rows of pairs ``a`` and ``b``, as bits."""
    cg, tg, lg, cp, tp, lp = side
    sg, eg, dg = _events(cg[a], tg[a], cg[b], tg[b])
    sp, ep, dp = _events(cp[a], tp[a], cp[b], tp[b])
    same = tg[b] == tp[b]
    closed = eg & ep & (tg[a] == tp[a])
    code = sg * np.uint8(_SG)
    code |= sp * np.uint8(_SP)
    code |= (sg & sp & same) * np.uint8(_OPEN)
    code |= closed * np.uint8(_CLOSE)
    code |= (closed | (eg != ep) | ~same) * np.uint8(_STOP)
    code |= _merged(lg[a], lg[b], dg, sg) * np.uint8(_MG)
    code |= _merged(lp[a], lp[b], dp, sp) * np.uint8(_MP)
    out: Array = code.astype(np.uint8)
    return out


def score_rows(
    blocks: Sequence[IntArray],
    pair_gold: IntArray,
    pair_pred: IntArray,
    boundary: int,
    *,
    classes: Int8Array,
    types: IntArray,
    letters: Int8Array,
    type_names: tuple[str, ...],
) -> ConllevalResult:
    """Count chunks, correct chunks and correct tags exactly as the script does.

    Parameters
    ----------
    blocks : sequence of array of int
        The rows of the input in consecutive blocks: per line, the id of its
        pair of tags. Sentence boundaries are rows too (pair ``boundary``).
    pair_gold, pair_pred : array of int
        Per pair, the id of its parsed gold and predicted tag ``(prefix,
        type)``; equal ids mean equal prefix and type (the script's test for
        a correct tag).
    boundary : int
        The pair of boundary rows (``O`` with the empty type on both sides);
        they are not tokens.
    classes, types, letters : array
        Per parsed tag id: canonical class (:func:`prefix_class`), type id
        into ``type_names`` (the empty type must be id 0), and the lenient
        letter class (:func:`lenient_letter`).
    type_names : tuple of str
        Sorted type names (``""`` first).

    Returns
    -------
    ConllevalResult

    Notes
    -----
    Everything the script decides between two rows depends only on their two
    pairs of tags, so with few distinct pairs the decisions are a table looked
    up once per row. The script's ``inCorrect`` flag is on before row ``k``
    when a chunk opened (both sides start, same type) at or after the last
    row that stopped it (a close, an end on one side only, or differing
    types) and before ``k``; a close counts one correct chunk when the flag
    is on, as does the end of the input. Blocks carry the last pair and the
    flag over to the next.

    Examples
    --------
    >>> cls = np.array([prefix_class(p) for p in ("O", "B", "I")], dtype=np.int8)
    >>> res = score_rows([np.array([0, 1]), np.array([2])], np.array([1, 2, 0]),
    ...                  np.array([2, 2, 0]), 2, classes=cls, types=np.array([0, 1, 1]),
    ...                  letters=np.array([-1, 1, 2], np.int8), type_names=("", "PER"))
    >>> res.counts.to_dict()["PER"], res.counts.tokens, res.counts.tokens_correct
    ({'tp': 1, 'n_pred': 1, 'n_gold': 1}, 2, 1)
    """
    n_pairs = len(pair_gold)
    # per pair, plus a virtual pair ``n_pairs`` (O on both sides) before the first row
    side = tuple(
        np.append(arr[ids], fill)
        for ids in (pair_gold, pair_pred)
        for arr, fill in ((classes, sc.O), (types, 0), (letters, -1))
    )
    tg, tp = side[1], side[4]
    width = n_pairs + 1
    table = None
    if width * width <= _TABLE_LIMIT:
        grid = np.arange(width, dtype=np.int64)
        table = _codes(grid[:, None], grid[None, :], side).ravel()
    same_tag = np.append(pair_gold == pair_pred, True)
    n_types = len(type_names)
    correct = np.zeros(n_types, dtype=np.int64)
    found_gold = np.zeros(n_types, dtype=np.int64)
    found_pred = np.zeros(n_types, dtype=np.int64)
    tokens = tokens_correct = 0
    merged_gold, merged_pred = [], []
    last = n_pairs  # the pair before the next row
    on = False  # the script's inCorrect flag after the last row
    offset = 0
    for rows in blocks:
        if not len(rows):
            continue
        prev = np.empty_like(rows)
        prev[0] = last
        prev[1:] = rows[:-1]
        code = table[prev * width + rows] if table is not None else _codes(prev, rows, side)

        found_gold += np.bincount(tg[rows[(code & _SG) != 0]], minlength=n_types)
        found_pred += np.bincount(tp[rows[(code & _SP) != 0]], minlength=n_types)
        opens = np.flatnonzero(code & _OPEN)
        stops = np.flatnonzero(code & _STOP)
        closes = np.flatnonzero(code & _CLOSE)  # a subset of ``stops``
        k = np.searchsorted(stops, closes)  # ``closes[i]`` is ``stops[k[i]]``
        since = np.where(k > 0, stops[np.maximum(k - 1, 0)], 0) if len(stops) else closes
        flag = np.searchsorted(opens, closes) > np.searchsorted(opens, since)
        if on:  # no stop earlier in the block: the flag came on before it
            flag |= k == 0
        correct += np.bincount(tg[prev[closes[flag]]], minlength=n_types)
        if len(stops):
            on = bool(len(opens)) and bool(opens[-1] >= stops[-1])
        else:
            on = on or bool(len(opens))

        token = rows != boundary
        tokens += int(np.count_nonzero(token))
        tokens_correct += int(np.count_nonzero(same_tag[rows] & token))
        merged_gold.append(np.flatnonzero(code & _MG) + offset)
        merged_pred.append(np.flatnonzero(code & _MP) + offset)
        last = int(rows[-1])
        offset += len(rows)
    if on:
        correct[tg[last]] += 1

    z = np.zeros(0, dtype=np.int64)
    counts = Counts(type_names, correct, found_pred, found_gold, tokens=tokens,
                    tokens_correct=tokens_correct)
    return ConllevalResult(
        counts,
        np.concatenate(merged_gold) if merged_gold else z,
        np.concatenate(merged_pred) if merged_pred else z,
    )


def _parse_tags(
    tags: list[bytes], parsed: dict[tuple[bytes, bytes], int], *, raw: bool, otag: bytes
) -> list[int]:
    """Raw tags -> ids of their parsed ``(prefix, type)`` in ``parsed`` (grown as needed)."""
    out = []
    for tag in tags:
        if raw:
            if tag == otag:
                tag = b"O"
            if tag != b"O":
                tag = b"B-" + tag
        prefix, sep, typ = tag.partition(b"-")
        if not sep or typ == b"0":
            typ = b""
        out.append(parsed.setdefault((prefix, typ), len(parsed)))
    return out


def score_conlleval(
    blocks: Sequence[IntArray], pairs: Sequence[tuple[bytes, bytes]], *, raw: bool = False,
    otag: str = "O",
) -> tuple[ConllevalResult, str]:
    r"""Score the rows of a conlleval input as the script does; also say what it merged.

    Parameters
    ----------
    blocks : sequence of array of int
        Consecutive blocks of rows: per line, the index of its pair of tags
        in ``pairs``, or -1 for a sentence boundary (as
        :func:`nerscore.io.conlleval.read_conlleval` returns them). The -1
        entries are overwritten with the id of a boundary pair.
    pairs : sequence of (bytes, bytes)
        The distinct ``(gold tag, predicted tag)`` pairs.
    raw : bool
        Tags without ``B-``/``I-`` prefixes (the script's ``-r``): every tag
        other than ``otag`` is a one-token chunk.
    otag : str
        The outside tag of raw tags (the script's ``-o``).

    Returns
    -------
    result : ConllevalResult
    note : str
        The merge note (:func:`merge_note`, naming the first merge by its
        1-based input line) when the script's rules merged adjacent chunks
        that mode ``lenient`` keeps apart; empty otherwise.

    Examples
    --------
    >>> pairs = [(b"S-PER", b"S-PER"), (b"O", b"O")]
    >>> result, note = score_conlleval([np.array([0, 0, -1, 1])], pairs)
    >>> result.counts.to_dict()["PER"], result.counts.tokens
    ({'tp': 1, 'n_pred': 1, 'n_gold': 1}, 3)
    >>> print(note[:49], note[102:149], sep="\n")
    conlleval rules merged 2 pairs of adjacent chunks
    'S-PER' -> 'S-PER' in the gold column at line 2
    """
    parsed: dict[tuple[bytes, bytes], int] = {(b"O", b""): 0}
    o = otag.encode("utf-8", "surrogateescape")
    pair_gold = _parse_tags([g for g, _ in pairs], parsed, raw=raw, otag=o)
    pair_pred = _parse_tags([p for _, p in pairs], parsed, raw=raw, otag=o)
    type_names = sorted({t.decode("utf-8", "surrogateescape") for _, t in parsed})
    type_id = {t.encode("utf-8", "surrogateescape"): i for i, t in enumerate(type_names)}
    keys = list(parsed)
    prefixes = [p.decode("utf-8", "surrogateescape") for p, _ in keys]
    classes = np.array([prefix_class(p) for p in prefixes], dtype=np.int8)
    letters = np.array([lenient_letter(p) for p in prefixes], dtype=np.int8)
    types = np.array([type_id[t] for _, t in keys], dtype=np.int64)

    # sentence boundaries (-1) become one more pair: O on both sides
    outside = len(pairs)
    for rows in blocks:
        rows[rows < 0] = outside
    result = score_rows(
        blocks, np.array([*pair_gold, 0], dtype=np.int64),
        np.array([*pair_pred, 0], dtype=np.int64), outside,
        classes=classes, types=types, letters=letters, type_names=tuple(type_names),
    )
    if not len(result.merged_gold) + len(result.merged_pred):
        return result, ""
    flat = np.concatenate(blocks)
    firsts = []
    for side, name, merged in ((0, "gold", result.merged_gold),
                               (1, "predicted", result.merged_pred)):
        if len(merged):
            i = int(merged[0])
            shown = " -> ".join(
                repr(pairs[int(flat[j])][side].decode("utf-8", "surrogateescape"))
                for j in (i - 1, i)
            )
            firsts.append((len(merged), f"{shown} in the {name} column", f"line {i + 1}"))
    _, first, where = firsts[0]
    return result, merge_note(sum(n for n, _, _ in firsts), first, where)
