"""Reading many model outputs that are JSON lists of ``{"text", "label"}`` objects at once.

:func:`read_json_lists` is the bulk reader of :func:`nerscore.evaluate_llm`:
it reads the outputs that are plain JSON lists of mentions, exactly as
:func:`~nerscore.io.llm_output.read_output` reads them, into flat columns
for all outputs, and leaves every other output to ``read_output``.

Outputs written the way ``json.dumps`` writes such a list
(``[{"text": "Paris", "label": "LOC"}, {"text": ...}]``: its separators, no
escape, no control character) are read together, with NumPy operations over
all of them at once: such an output holds eight quotes per object, and once
the framing around every object's quotes is checked, its texts and labels
are what lies between known quotes. So are such lists among prose or in a
code fence, cut where that layout ends them. Any other JSON list (other
spacing, escapes, more keys) is decoded one output at a time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import itemgetter, methodcaller
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from nerscore.io._json_repair import find_json
from nerscore.values.spans import IntArray, int_array, merge_vocabs
from nerscore.values.tags import encode_strings

__all__ = ["ItemColumns", "read_json_lists"]

_DECODER = json.JSONDecoder()
_TEXT, _LABEL = itemgetter("text"), itemgetter("label")
_HAS_START, _HAS_END = methodcaller("__contains__", "start"), methodcaller("__contains__", "end")
# the framing of a list as json.dumps writes it: [{"text": "T", "label": "L"}, {"text": ...}]
_OPEN, _CLOSE = '[{"text": "', '"}]'

# what lies between an object's text and its label, and between two objects
_MID, _NEXT = b'", "label": "', b'"}, {"text": "'
_QUOTE = ord('"')


class ItemColumns(NamedTuple):
    """The mentions of many outputs as flat columns, without offsets (see :func:`read_json_lists`).

    ``doc`` holds, per mention, the index of its output (non-decreasing);
    ``label`` codes its label as an index into ``vocab`` (sorted); ``rest``
    the indices of the outputs left to :func:`read_output`.
    """

    doc: IntArray
    texts: list[str]
    label: IntArray
    vocab: tuple[str, ...]
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
    >>> cols.doc.tolist(), cols.texts, cols.label.tolist(), cols.vocab, cols.rest
    ([0, 2], ['Paris', 'Lyon'], [0, 0], ('LOC',), [1])
    """
    none = np.zeros(0, dtype=np.int64)
    if format not in ("auto", "json"):
        return ItemColumns(none, [], none, (), list(range(len(outputs))))
    # what each output is, in C-level passes (an output that is not a string is none of it); an
    # escape sends an output to the decoder at once, so that outputs written with json.dumps's
    # ensure_ascii do not go through the split first
    strings = cast("Sequence[str]", outputs) if set(map(type, outputs)) <= {str} else [
        o if type(o) is str else "" for o in outputs]
    laid = _flags(str.startswith, strings, _OPEN) & _flags(str.endswith, strings, _CLOSE)
    ks = np.flatnonzero(laid).tolist()
    lists = list(map(strings.__getitem__, ks))
    whole = "".join(lists)
    joined: str | None = whole
    if "\\" in whole or "```" in whole:  # checked one by one only where some output has one
        fine = [k for k, o in zip(ks, lists, strict=True) if "\\" not in o and "```" not in o]
        laid[ks] = False
        laid[fine] = True
        ks, lists, joined = fine, list(map(strings.__getitem__, fine)), None
    others = [k for k in np.flatnonzero(~laid).tolist() if _OPEN in strings[k]]
    wrapped = _wrapped(strings, others)
    if wrapped:  # back in output order
        pairs = sorted([*zip(ks, lists, strict=True), *wrapped.items()])
        ks, lists, joined = [k for k, _ in pairs], [o for _, o in pairs], None
    ks, counts, texts, label, vocab = _split_dumped(ks, lists, joined)
    if len(ks) == len(outputs):
        return ItemColumns(np.repeat(np.asarray(ks, dtype=np.int64), counts), texts, label, vocab,
                           [])
    done = dict.fromkeys(ks)
    scanned = _decode_each([k for k in range(len(outputs)) if k not in done], outputs)
    doc = np.repeat(np.asarray(ks + scanned[0], dtype=np.int64),
                    np.asarray(counts + scanned[1], dtype=np.int64))
    texts += scanned[2]
    more, more_vocab = encode_strings(scanned[3], sort=True)
    if more_vocab != vocab:
        vocab, (label, more) = merge_vocabs((vocab, label), (more_vocab, more))
    label = np.concatenate([label, more])
    if scanned[0] and ks:  # the two sets of outputs interleave: rows back in output order
        order = np.argsort(doc, kind="stable")
        doc, label = doc[order], label[order]
        texts = list(map(texts.__getitem__, order.tolist()))
    return ItemColumns(doc, texts, label, vocab, scanned[4])


def _wrapped(outputs: Sequence[str], others: list[int]) -> dict[int, str]:
    """The JSON lists among prose or in a code fence, cut where ``json.dumps``'s layout ends them.

    ``others`` are the outputs to look at. The JSON of an output is where
    :func:`~nerscore.io._json_repair.find_json` finds it, as
    :func:`~nerscore.io.llm_output.read_output` reads it; when it starts as
    ``json.dumps`` starts a list of objects, the decoder would read it up to
    its first ``"}]`` if it qualifies (no string holds a quote), and what
    follows is not read. Where the JSON is found is worked out for all
    outputs at once (C-level passes) when no ``[`` or ``{`` comes before the
    list in the fence or text it is looked for in; the other outputs go
    through ``find_json``.
    """
    texts = list(map(outputs.__getitem__, others))
    n = len(texts)
    if not n:
        return {}
    size = int_array(map(len, texts), n)
    fence = int_array(map(str.find, texts, repeat("```", n)), n)
    body = int_array(map(str.find, texts, repeat("\n", n), np.maximum(fence, 0).tolist()), n)
    fenced = (fence >= 0) & (body >= 0)
    if fenced.any():  # find_json takes the fence when its info string holds no inner blank
        info = map(str.strip, map(str.__getitem__, texts, map(slice, (fence + 3).tolist(),
                                                               body.tolist())), repeat(" \t"))
        fenced &= int_array(map(str.count, info, repeat(" ")), n) == 0
    lo = np.where(fenced, body + 1, 0)
    close = int_array(map(str.find, texts, repeat("```", n), lo.tolist()), n)
    hi = np.where(fenced & (close >= 0), close, size)
    los, his = lo.tolist(), hi.tolist()
    at = int_array(map(str.find, texts, repeat(_OPEN, n), los, his), n)
    ats = np.maximum(at, lo).tolist()
    clear = (at >= 0) & (int_array(map(str.find, texts, repeat("[", n), los, ats), n) < 0) & (
        int_array(map(str.find, texts, repeat("{", n), los, ats), n) < 0)
    end = int_array(map(str.find, texts, repeat(_CLOSE, n), ats, his), n)
    ok = clear & (end > at) & (int_array(map(str.find, texts, repeat("\\", n), ats,
                                          np.maximum(end, 0).tolist()), n) < 0)
    cut = (end + len(_CLOSE)).tolist()
    out = {others[j]: texts[j][ats[j]:cut[j]] for j in np.flatnonzero(ok).tolist()}
    for j in np.flatnonzero(~clear).tolist():  # the JSON is found as read_output finds it
        found = find_json(texts[j])
        if found is not None and found[1].startswith(_OPEN):
            stop = found[1].find(_CLOSE)
            if stop > 0 and "\\" not in found[1][:stop]:
                out[others[j]] = found[1][:stop + len(_CLOSE)]
    return out


def _flags(test: Callable[[str, str], bool], outputs: Sequence[str], arg: str,
           ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    return np.fromiter(map(test, outputs, repeat(arg)), dtype=bool, count=len(outputs))


def _split_dumped(ks: list[int], outputs: list[str], joined: str | None = None,
                  ) -> tuple[list[int], list[int], list[str], IntArray, tuple[str, ...]]:
    """Outputs ``ks`` that are exactly ``json.dumps`` of a list of plain objects, read together.

    Such an output is ``_OPEN T _MID L _NEXT T _MID L ... _CLOSE`` where no
    ``T`` or ``L`` holds a quote, a backslash or a control character (so
    each is a JSON string as written); the outputs hold no backslash
    already. Over all outputs joined (``joined``, when given, is that
    string), the quotes are found at once: an output qualifies when it
    holds no control character, eight quotes per object, and the framing
    at every object's fourth and eighth quote. Returns the outputs that
    qualify, their number of mentions, the texts, and the label codes and
    their sorted vocabulary (the other outputs are left to the JSON
    decoder).
    """
    while ks:
        if joined is None:
            joined = "".join(outputs)
        code = _code_points(joined)
        ends = np.cumsum(np.fromiter(map(len, outputs), dtype=np.int64, count=len(outputs)))
        quote = np.flatnonzero(code == _QUOTE)
        per = np.diff(np.searchsorted(quote, ends), prepend=0)  # quotes per output
        bad = per % 8 != 0
        low = np.flatnonzero(code < 0x20)
        if len(low):
            bad[np.searchsorted(ends, low, side="right")] = True
        if not bad.any():
            words = _words(code)
            bad = _framing_wrong(code, words, quote, per // 8)
        if not bad.any():
            break
        ks, outputs = _without(np.flatnonzero(bad), ks, outputs)
        joined = None
    else:
        return [], [], [], np.zeros(0, dtype=np.int64), ()
    rows = quote.reshape(-1, 8)  # an object's quotes: [{"text": "T", "label": "L"}
    codes, vocab = _label_codes(code, words, rows[:, 6] + 1, rows[:, 7])
    return ks, (per // 8).tolist(), _pieces(code, rows[:, 2] + 1, rows[:, 3]), codes, vocab


def _framing_wrong(code: np.ndarray[Any, Any], words: np.ndarray[Any, Any] | None,
                   quote: IntArray, counts: IntArray) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Per output (``counts`` objects each), whether an object is not framed as json.dumps does.

    Every output starts with ``_OPEN`` and ends with ``_CLOSE`` and holds
    eight quotes per object; so the k-th object's 4th and 8th quotes (of
    all outputs) start its ``_MID`` and, but for an output's last object,
    its ``_NEXT``: where both match, the texts and labels between hold no
    quote.
    """
    nxt = np.ones(len(quote) // 8, dtype=bool)
    nxt[np.cumsum(counts) - 1] = False
    wrong = ~_framed(code, words, quote[3::8], _MID)
    wrong[nxt] |= ~_framed(code, words, quote[7::8][nxt], _NEXT)
    owner = np.repeat(np.arange(len(counts)), counts)
    bad = np.zeros(len(counts), dtype=bool)
    bad[owner[wrong]] = True
    return bad


def _words(code: np.ndarray[Any, Any]) -> np.ndarray[Any, Any] | None:
    """The eight characters from every position of ``code`` as one little-endian 64-bit word.

    A strided view (one byte apart) of ``code`` followed by 16 NULs; None
    unless ``code`` holds one byte per character.
    """
    if code.dtype != np.uint8:
        return None
    padded = np.zeros(len(code) + 16, dtype=np.uint8)
    padded[:len(code)] = code
    words: np.ndarray[Any, Any] = np.ndarray((len(code) + 9,), dtype="<u8", buffer=padded,
                                             strides=(1,))
    return words


def _framed(code: np.ndarray[Any, Any], words: np.ndarray[Any, Any] | None, at: IntArray,
            framing: bytes) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Whether ``code`` holds ``framing`` (at most 16 characters) at each of ``at``.

    With ``words`` (:func:`_words`), two 64-bit words from each position
    are compared, the second masked to the framing's length.
    """
    want = np.frombuffer(framing.ljust(16, b"\0"), dtype="<u8")
    if words is not None:
        mask = np.frombuffer(b"\xff" * (len(framing) - 8) + b"\0" * (16 - len(framing)),
                             dtype="<u8")[0]
        same: np.ndarray[Any, np.dtype[np.bool_]] = (
            (words[at] == want[0]) & ((words[at + 8] & mask) == want[1]))
        return same
    inside = at <= len(code) - len(framing)
    window = sliding_window_view(code, len(framing))[np.where(inside, at, 0)]
    same = (window == np.frombuffer(framing, dtype=np.uint8)).all(axis=1)
    return inside & same


def _pieces(code: np.ndarray[Any, Any], starts: IntArray, ends: IntArray) -> list[str]:
    """The strings ``code[starts[i]:ends[i]]``, where each ``ends[i]`` is a quote.

    The characters of every piece and its closing quote are kept (one
    NumPy compaction), read back as one string and split at the quotes.
    """
    if not len(starts):
        return []
    bounds = np.empty(2 * len(starts), dtype=np.int64)
    bounds[0::2] = starts
    bounds[1::2] = ends + 1
    lengths = np.diff(bounds, prepend=0, append=len(code))
    keep = np.zeros(len(lengths), dtype=bool)
    keep[1::2] = True
    kept = code[np.repeat(keep, lengths)]
    text: str = (kept.tobytes().decode("ascii") if kept.dtype == np.uint8 else
            kept.tobytes().decode("utf-32-le", "surrogatepass"))
    return text.split('"')[:-1]


def _label_codes(code: np.ndarray[Any, Any], words: np.ndarray[Any, Any] | None,
                 starts: IntArray, ends: IntArray) -> tuple[IntArray, tuple[str, ...]]:
    """The strings ``code[starts[i]:ends[i]]`` as codes into their sorted vocabulary.

    With ``words`` (:func:`_words`), strings of at most eight characters
    (labels, as a rule) are each one 64-bit word masked to its length (no
    string holds a NUL), coded by ``np.unique``; others are read as strings
    and encoded.
    """
    size = ends - starts
    if words is None or not len(size) or int(size.max()) > 8:
        return encode_strings(_pieces(code, starts, ends), sort=True)
    distinct, codes = np.unique(words[starts] & _LOW[size], return_inverse=True)
    labels = [w.decode("ascii") for w in distinct.view("S8").tolist()]
    order = sorted(range(len(labels)), key=labels.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes.reshape(-1)], tuple(labels[i] for i in order)


# the low k bytes of a 64-bit word, k = 0..8
_LOW = np.array([(1 << 8 * k) - 1 for k in range(9)], dtype="<u8")


def _without(drop: IntArray, ks: list[int], outputs: list[str]) -> tuple[list[int], list[str]]:
    keep = np.ones(len(ks), dtype=bool)
    keep[drop] = False
    return list(compress(ks, keep)), list(compress(outputs, keep))


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
