"""Reading many model outputs that are JSON lists of ``{"text", "label"}`` objects at once.

:func:`read_json_lists` is the bulk reader of :func:`nerscore.evaluate_llm`:
it reads the outputs that are plain JSON lists of mentions, exactly as
:func:`~nerscore.io.llm_output.read_output` reads them, into flat columns
for all outputs, and leaves every other output to ``read_output``.

Outputs written the way ``json.dumps`` writes such a list
(``[{"text": "Paris", "label": "LOC"}, {"text": ...}]``: its separators, no
escape, no control character) are read together, with string and NumPy
operations over all of them at once: between its framing such an output is
nothing but the texts and labels themselves. So are such lists among prose
or in a code fence, cut where that layout ends them. Any other JSON list
(other spacing, escapes, more keys) is decoded one output at a time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import itemgetter, methodcaller
from typing import Any, NamedTuple, cast

import numpy as np

from nerscore.io._json_repair import find_json
from nerscore.values.spans import IntArray

__all__ = ["ItemColumns", "read_json_lists"]

_DECODER = json.JSONDecoder()
_TEXT, _LABEL = itemgetter("text"), itemgetter("label")
_HAS_START, _HAS_END = methodcaller("__contains__", "start"), methodcaller("__contains__", "end")
# the framing of a list as json.dumps writes it: [{"text": "T", "label": "L"}, {"text": ...}]
_OPEN, _CLOSE, _NEXT, _MID = '[{"text": "', '"}]', '"}, {"text": "', '", "label": "'
# what stands for _NEXT, _MID and the end of an output once they are marked
_ITEM, _PAIR, _END = 0, 1, 2


class ItemColumns(NamedTuple):
    """The mentions of many outputs as flat columns, without offsets (see :func:`read_json_lists`).

    ``doc`` holds, per mention, the index of its output (non-decreasing);
    ``rest`` the indices of the outputs left to :func:`read_output`.
    """

    doc: IntArray
    texts: list[str]
    labels: list[str]
    rest: list[int]


def read_json_lists(outputs: Sequence[object], *, format: str = "auto") -> ItemColumns:  # noqa: A002
    """Read, in bulk, the outputs that are JSON lists of plain ``{"text", "label"}`` objects.

    Such an output (a string that starts with ``[{`` and holds no code
    fence, or a list in ``json.dumps``'s layout in a fence or among prose)
    is read exactly as :func:`~nerscore.io.llm_output.read_output` reads
    it: the JSON is found, decoded, and every object, holding a string
    ``"text"`` and ``"label"`` and no offsets, becomes a mention. Outputs
    in ``json.dumps``'s own layout, without an escape, are split all at
    once (see the module); the others are decoded one by one, their
    objects read with C-level loops as soon as each is decoded. Every other
    output (another shape, an object that is not plain, JSON that needs a
    repair) is left to ``read_output`` and listed in ``rest``.

    Examples
    --------
    >>> cols = read_json_lists(['[{"text": "Paris", "label": "LOC"}]', "LOC: Lyon",
    ...                         '[{"text":"Lyon","label":"LOC"}]'])
    >>> cols.doc.tolist(), cols.texts, cols.labels, cols.rest
    ([0, 2], ['Paris', 'Lyon'], ['LOC', 'LOC'], [1])
    """
    if format not in ("auto", "json"):
        return ItemColumns(np.zeros(0, dtype=np.int64), [], [], list(range(len(outputs))))
    # what each output is, in C-level passes (an output that is not a string is none of it; an
    # escape sends an output to the decoder at once, so that outputs written with json.dumps's
    # ensure_ascii do not go through the split first)
    strings = cast("Sequence[str]", outputs) if set(map(type, outputs)) <= {str} else [
        o if type(o) is str else "" for o in outputs]
    laid = (_flags(str.startswith, strings, _OPEN) & _flags(str.endswith, strings, _CLOSE)
            & ~_flags(str.__contains__, strings, "```") & ~_flags(str.__contains__, strings, "\\"))
    laid_out = laid.tolist()
    others = np.flatnonzero(~laid & _flags(str.__contains__, strings, _OPEN)).tolist()
    ks = list(compress(range(len(outputs)), laid_out))
    lists = list(compress(strings, laid_out))
    wrapped = _wrapped(strings, others)
    if wrapped:  # back in output order
        pairs = sorted([*zip(ks, lists, strict=True), *wrapped.items()])
        ks, lists = [k for k, _ in pairs], [o for _, o in pairs]
    ks, counts, texts, labels = _split_dumped(ks, lists)
    if len(ks) == len(outputs):
        return ItemColumns(np.repeat(np.asarray(ks, dtype=np.int64), counts), texts, labels, [])
    done = dict.fromkeys(ks)
    scanned = _decode_each([k for k in range(len(outputs)) if k not in done], outputs)
    doc = np.repeat(np.asarray(ks + scanned[0], dtype=np.int64),
                    np.asarray(counts + scanned[1], dtype=np.int64))
    texts += scanned[2]
    labels += scanned[3]
    if scanned[0] and ks:  # the two sets of outputs interleave: rows back in output order
        order = np.argsort(doc, kind="stable")
        doc = doc[order]
        rows = order.tolist()
        texts, labels = list(map(texts.__getitem__, rows)), list(map(labels.__getitem__, rows))
    return ItemColumns(doc, texts, labels, scanned[4])


def _wrapped(outputs: Sequence[str], others: list[int]) -> dict[int, str]:
    """The JSON lists among prose or in a code fence, cut where ``json.dumps``'s layout ends them.

    ``others`` are the outputs to look at. The JSON of an output is where
    :func:`~nerscore.io._json_repair.find_json` finds it, as
    :func:`~nerscore.io.llm_output.read_output` reads it; when it starts as
    ``json.dumps`` starts a list of objects, the decoder would read it up to
    its first ``"}]`` if it qualifies (no string holds a quote), and what
    follows is not read.
    """
    out: dict[int, str] = {}
    for k in others:
        found = find_json(outputs[k])
        if found is not None and found[1].startswith(_OPEN):
            end = found[1].find(_CLOSE)
            if end > 0 and "\\" not in found[1][:end]:
                out[k] = found[1][:end + len(_CLOSE)]
    return out


def _flags(test: Callable[[str, str], bool], outputs: Sequence[str], arg: str,
           ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    return np.fromiter(map(test, outputs, repeat(arg)), dtype=bool, count=len(outputs))


def _split_dumped(ks: list[int], outputs: list[str],
                  ) -> tuple[list[int], list[int], list[str], list[str]]:
    """Outputs ``ks`` that are exactly ``json.dumps`` of a list of plain objects, read together.

    Such an output is ``_OPEN T _MID L _NEXT T _MID L ... _CLOSE`` where no
    ``T`` or ``L`` holds a quote, a backslash or a control character (so
    each is a JSON string as written). Between the framing of all outputs
    (joined by a control character), ``_NEXT`` and ``_MID`` are marked with
    control characters; an output qualifies when it held none of the mark
    characters before and, once marked, holds no quote, backslash or other
    control character, and its marks alternate ``_MID``, ``_NEXT``, ``_MID``,
    ..., ``_MID``. Returns the outputs that qualify, their number of
    mentions, and the texts and labels of all (the others are left to the
    JSON decoder).
    """
    if not ks:
        return [], [], [], []
    inner = [o[len(_OPEN):-len(_CLOSE)] for o in outputs]
    joined = "".join(inner)
    if chr(_ITEM) in joined or chr(_PAIR) in joined or chr(_END) in joined:
        # an output holds a character that stands for a mark: it does not qualify
        raw = [j for j, t in enumerate(inner) if not _MARKS.isdisjoint(t)]
        ks, inner = _without(np.asarray(raw, dtype=np.int64), ks, inner)
        if not ks:
            return [], [], [], []
    marked, kind, owner, bad = _marks(inner)
    if len(bad):
        ks, inner = _without(bad, ks, inner)
        marked, kind, owner, _ = _marks(inner)  # each qualifies on its own
    if not ks:
        return [], [], [], []
    counts = (np.bincount(owner[kind == _ITEM], minlength=len(ks)) + 1).tolist()
    parts = marked.translate(_TO_PAIR).split(chr(_PAIR))
    return ks, counts, parts[0::2], parts[1::2]


_MARKS = frozenset(map(chr, (_ITEM, _PAIR, _END)))
_TO_PAIR = {_ITEM: _PAIR, _END: _PAIR}


def _without(drop: IntArray, ks: list[int], inner: list[str]) -> tuple[list[int], list[str]]:
    if not len(drop):
        return ks, inner
    keep = np.ones(len(ks), dtype=bool)
    keep[drop] = False
    return list(compress(ks, keep)), list(compress(inner, keep))


def _marks(inner: list[str]) -> tuple[str, IntArray, IntArray, IntArray]:
    """The outputs with their framing marked, joined; each mark's kind and output; the bad outputs.

    An output is bad when its marks are out of order or it holds a quote, a
    backslash or a control character besides the marks. (Each output is
    marked on its own: ``str.replace`` over one long string searches more
    slowly than over many short ones.)
    """
    item, pair = chr(_ITEM), chr(_PAIR)
    marked = chr(_END).join([t.replace(_NEXT, item).replace(_MID, pair) for t in inner])
    code = _code_points(marked)
    if '"' in marked or "\\" in marked:
        at = np.flatnonzero((code < 0x20) | (code == 0x22) | (code == 0x5C))
    else:
        at = np.flatnonzero(code < 0x20)
    kind = np.append(code[at].astype(np.int64), _END)  # and the end of the last output
    owner = np.cumsum(kind == _END) - (kind == _END)  # the output of each mark
    # after the start of an output: _PAIR; after _PAIR: _ITEM or the end; after _ITEM: _PAIR
    before = np.concatenate([[_END], kind[:-1]])
    fine = np.where(kind == _PAIR, (before == _END) | (before == _ITEM),
                    ((kind == _ITEM) | (kind == _END)) & (before == _PAIR))
    return marked, kind, owner, np.unique(owner[~fine])


def _code_points(text: str) -> np.ndarray[Any, Any]:
    """Every character of ``text`` as its code point (lone surrogates included), unsigned."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _decode_each(ks: list[int], outputs: Sequence[object],
                 ) -> tuple[list[int], list[int], list[str], list[str], list[int]]:
    """Outputs ``ks`` decoded one by one: those read, their counts, texts, labels; the rest."""
    scan = _DECODER.scan_once  # type: ignore[attr-defined]  # what raw_decode calls
    docs: list[int] = []
    lengths: list[int] = []
    texts: list[str] = []
    labels: list[str] = []
    rest: list[int] = []
    for k in ks:
        out = outputs[k]
        if type(out) is str and out.startswith("[{") and "```" not in out:
            try:
                got = _plain_objects(scan(out, 0)[0])  # the decoded objects are let go at once
            except (StopIteration, ValueError, RecursionError):
                got = None
            if got is not None:
                docs.append(k)
                lengths.append(len(got[0]))
                texts += got[0]
                labels += got[1]
                continue
        rest.append(k)
    return docs, lengths, texts, labels, rest


def _plain_objects(items: list[Any]) -> tuple[list[str], list[str]] | None:
    """Texts and labels of decoded JSON ``{"text": str, "label": str}`` objects without offsets.

    None when some item is not such an object (a decoded JSON value that is
    not an object fails the key lookup; a text or label that is not a string
    fails the join).
    """
    try:
        texts, labels = list(map(_TEXT, items)), list(map(_LABEL, items))
        "".join(texts), "".join(labels)
    except (KeyError, TypeError):
        return None
    if sum(map(len, items)) != 2 * len(items) and (any(map(_HAS_START, items))
                                                    or any(map(_HAS_END, items))):
        return None
    return texts, labels
