"""Conversions between character spans, token spans and tags of one document.

Tokens are given either as strings together with the text they were cut
from (aligned left to right with :func:`align_tokens`) or directly as
half-open character offsets ``(start, end)``. Token ``k`` covers characters
``[start_k, end_k)``; tokens are non-empty, in order and do not overlap.

- Token span ``[a, b)`` → characters ``[start_a, end_{b-1})``. A zero-length
  token span ``[k, k)`` → the zero-length character span at ``start_k`` (at
  the end of the last token when ``k`` is the number of tokens).
- Character span ``[s, e)`` → tokens: it is *aligned* when ``s`` is the start
  and ``e`` the end of a token (a zero-length span: when it sits at a token
  start or end). Misaligned spans, per ``misaligned``:

  - ``"error"`` (default): :class:`~nerscore.InvalidSpanError` naming the
    span, its text and the token boundaries around it;
  - ``"expand"``: every token the span overlaps;
  - ``"contract"``: only the tokens wholly inside the span.

  A zero-length misaligned span goes to the token boundary before it. A span
  that keeps no token (only whitespace under ``expand``, or inside one token
  under ``contract``) is dropped. Adjusted and dropped spans are returned in
  :class:`SpanConversion` — counted, never silent.

A discontinuous span (docs/fragments.md) is converted fragment by
fragment: its token span has the token fragments (fragments that become
adjacent tokens are one); a fragment that keeps no token is left out, and
the span is dropped when none is left. Tags cannot hold fragments.

Tags ↔ character spans go through token spans and
:func:`~nerscore.tags_to_entities` / :func:`~nerscore.entities_to_tags`, so
every scheme is supported. Converting aligned character spans to tags and
back returns them unchanged (for the IO scheme, as long as no two entities
of one label touch).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.decode.entities import decode, write_tags
from nerscore.errors import FormatError, InvalidSpanError, LengthMismatchError, quoted
from nerscore.values.decoding import Decoding
from nerscore.values.documents import (
    Document,
    check_fragments,
    check_span,
    coerce_span,
    describe_doc,
    fragments_of,
)
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import Entity, Span
from nerscore.values.tag_input import encode_lists

__all__ = [
    "SpanConversion",
    "align_tokens",
    "char_spans_to_tags",
    "char_spans_to_token_spans",
    "tags_to_char_spans",
    "token_spans_to_char_spans",
]

IntArray = npt.NDArray[np.int64]
_MISALIGNED = ("error", "expand", "contract")


def align_tokens(tokens: Sequence[str], text: str) -> list[Span]:
    """Character offsets of each token in ``text``, found left to right.

    Only whitespace may lie between tokens (and before the first, after the
    last), so a token missing from the text or changed by the tokeniser is an
    error instead of a silent misalignment.

    Parameters
    ----------
    tokens : sequence of str
        Non-empty token strings, in text order.
    text : str
        The text they were cut from.

    Returns
    -------
    list of Span
        One half-open character span per token.

    Raises
    ------
    FormatError
        For an empty token, or a token not found where expected.

    Examples
    --------
    >>> align_tokens(["Anna", "flew", "."], "Anna  flew.")
    [Span(start=0, end=4), Span(start=6, end=10), Span(start=10, end=11)]
    """
    out: list[Span] = []
    pos = 0
    for k, tok in enumerate(tokens):
        if not isinstance(tok, str) or not tok:
            raise FormatError(f"Token {k} is {quoted(tok)}; tokens must be non-empty strings.")
        i = text.find(tok, pos)
        if i < 0 or (i > pos and not text[pos:i].isspace()):
            found = text[pos : pos + max(len(tok), 10)]
            raise FormatError(
                f"Token {k} ({quoted(tok)}) does not follow token {k - 1} in the text: at character "
                f"{pos} the text reads {quoted(found)}; tokens must appear in the text in order, "
                "unchanged, separated only by whitespace."
            )
        out.append(Span(i, i + len(tok)))
        pos = i + len(tok)
    return out


def _token_offsets(tokens: Sequence[Any], text: str | None) -> tuple[IntArray, IntArray]:
    if isinstance(tokens, str):
        raise TypeError("Expected a sequence of tokens, got a single string.")
    if len(tokens) and isinstance(tokens[0], str):
        if text is None:
            raise TypeError(
                "Token strings need the text they come from: pass text=...; or give tokens "
                "as (start, end) character offsets."
            )
        spans = align_tokens(tokens, text)
        return (np.array([s.start for s in spans], dtype=np.int64),
                np.array([s.end for s in spans], dtype=np.int64))
    starts, ends = [], []
    for k, tok in enumerate(tokens):
        if isinstance(tok, str):
            raise TypeError(f"Token {k} is a string but token 0 is not; give one kind of token.")
        if isinstance(tok, Span):
            s, e = tok.start, tok.end
        else:
            try:
                s, e = tok
            except (TypeError, ValueError):
                raise TypeError(
                    f"Token {k} is {quoted(tok)}; expected a (start, end) pair or a Span."
                ) from None
        starts.append(int(s))
        ends.append(int(e))
    ts = np.array(starts, dtype=np.int64)
    te = np.array(ends, dtype=np.int64)
    beyond = te > len(text) if text is not None else np.zeros(len(te), dtype=bool)
    bad = np.flatnonzero((ts < 0) | (te <= ts) | np.r_[False, ts[1:] < te[:-1]] | beyond)
    if len(bad):
        k = int(bad[0])
        raise ValueError(
            f"Token {k} has offsets ({starts[k]}, {ends[k]}); token offsets must be non-empty, "
            "non-negative, in order, non-overlapping and within the text."
        )
    return ts, te


def _read_spans(
    spans: Document | Sequence[Any], text: str | None
) -> tuple[list[Entity], str | None, str | int, str]:
    """The spans, the text, the document id (0 for bare spans) and where it was read."""
    if isinstance(spans, Document):
        return (list(spans.spans), text if text is not None else spans.text, spans.id,
                spans.where())
    n = None if text is None else len(text)
    out = []
    for i, item in enumerate(spans):
        s, e, lab = coerce_span(item, document=0, index=i)
        check_span(s, e, lab, document=0, text_length=n, index=i)
        frags = check_fragments(fragments_of(item), s, e, lab, document=0, index=i)
        out.append(Entity.from_fragments(frags, lab) if frags else Entity(Span(s, e), lab))
    return out, text, 0, ""


@dataclass(frozen=True)
class SpanConversion:
    """Token spans converted from character spans, with what had to change.

    Attributes
    ----------
    spans : tuple of Entity
        The token spans, in input order (dropped ones left out).
    adjusted : tuple of (Entity, Entity)
        ``(character span, token span)`` for every misaligned span that was
        expanded or contracted.
    dropped : tuple of Entity
        Character spans that kept no token.
    """

    spans: tuple[Entity, ...]
    adjusted: tuple[tuple[Entity, Entity], ...] = ()
    dropped: tuple[Entity, ...] = ()

    def notes(self) -> tuple[str, ...]:
        """What was adjusted or dropped, as sentences (empty when nothing was).

        Examples
        --------
        >>> SpanConversion(()).notes()
        ()
        """
        out = []
        if self.adjusted:
            out.append(f"{len(self.adjusted)} span(s) not aligned to token boundaries were "
                       "moved to token boundaries.")
        if self.dropped:
            out.append(f"{len(self.dropped)} span(s) covering no whole token were dropped.")
        return tuple(out)


def char_spans_to_token_spans(
    spans: Document | Sequence[Any],
    tokens: Sequence[Any],
    *,
    text: str | None = None,
    misaligned: str = "error",
) -> SpanConversion:
    """Convert character spans of one document to token spans.

    Parameters
    ----------
    spans : Document or sequence of span-like
        ``(start, end, label)`` tuples, ``{"start", "end", "label"}`` dicts,
        Entity objects, or a Document (whose text is used when ``text`` is
        not given).
    tokens : sequence of str, or of (start, end)
        Token strings (with ``text``) or token character offsets.
    text : str, optional
        The document text; required with token strings.
    misaligned : {"error", "expand", "contract"}
        What to do with a span not on token boundaries (module docstring).

    Returns
    -------
    SpanConversion
        ``.spans`` are Entity objects in token units; ``.adjusted`` and
        ``.dropped`` list what changed.

    Raises
    ------
    InvalidSpanError
        For a misaligned span with ``misaligned="error"``, or a span out of
        the text.

    Examples
    --------
    >>> text = "Anna Smith flew to New York."
    >>> toks = ["Anna", "Smith", "flew", "to", "New", "York", "."]
    >>> res = char_spans_to_token_spans([(0, 10, "PER"), (19, 27, "LOC")], toks, text=text)
    >>> [(e.start, e.end, e.label) for e in res.spans]
    [(0, 2, 'PER'), (4, 6, 'LOC')]
    >>> res = char_spans_to_token_spans([(1, 10, "PER")], toks, text=text, misaligned="expand")
    >>> [(e.start, e.end) for e in res.spans], len(res.adjusted)
    ([(0, 2)], 1)
    """
    if misaligned not in _MISALIGNED:
        raise ValueError(
            f"Expected `misaligned` to be one of 'error', 'expand', 'contract'; "
            f"got {quoted(misaligned)}."
        )
    ents, text, doc, where = _read_spans(spans, text)
    ts, te = _token_offsets(tokens, text)
    items = [(f.start, f.end, e.label) for e in ents for f in e.parts]
    conv = _to_tokens(items, ts, te, text=text, doc=doc, misaligned=misaligned, where=where)
    if len(items) == len(ents):
        return conv
    return _regroup(ents, items, conv)


def _regroup(ents: list[Entity], items: list[tuple[int, int, str]],
             conv: SpanConversion) -> SpanConversion:
    """The conversion of every fragment, as the conversion of the spans they belong to."""
    adjusted = {(src.start, src.end): ent for src, ent in conv.adjusted}
    kept = iter(conv.spans)
    dropped = {(d.start, d.end) for d in conv.dropped}
    out, moved, lost = [], [], []
    k = 0
    for ent in ents:
        parts, changed = [], False
        for f in ent.parts:
            key = (items[k][0], items[k][1])
            k += 1
            if key in dropped and f.start != f.end:
                changed = True
                continue
            tok = next(kept)
            changed |= key in adjusted
            parts.append((tok.start, tok.end))
        if not parts:
            lost.append(ent)
            continue
        new = Entity.from_fragments(parts, ent.label)
        if changed:
            moved.append((ent, new))
        out.append(new)
    return SpanConversion(tuple(out), tuple(moved), tuple(lost))


def _to_tokens(
    items: list[tuple[int, int, str]], ts: IntArray, te: IntArray, *, text: str | None,
    doc: str | int, misaligned: str, where: str = "",
) -> SpanConversion:
    n = len(ts)
    if items:
        s = np.array([x[0] for x in items], dtype=np.int64)
        e = np.array([x[1] for x in items], dtype=np.int64)
    else:
        s = e = np.zeros(0, dtype=np.int64)
    first_in = np.searchsorted(ts, s, side="left")
    stop_in = np.searchsorted(te, e, side="right")
    first_ov = np.searchsorted(te, s, side="right")
    stop_ov = np.searchsorted(ts, e, side="left")
    at_start = (first_in < n) & (ts[np.minimum(first_in, n - 1)] == s) if n else s < 0
    end_idx = np.searchsorted(te, s, side="left")
    at_end = (end_idx < n) & (te[np.minimum(end_idx, n - 1)] == s) if n else s < 0
    out: list[Entity] = []
    adjusted: list[tuple[Entity, Entity]] = []
    dropped: list[Entity] = []
    for i, (cs, ce, lab) in enumerate(items):
        if cs == ce:
            if at_start[i]:
                a = b = int(first_in[i])
                ok = True
            elif at_end[i]:
                a = b = int(end_idx[i]) + 1
                ok = True
            else:
                ok = n == 0 and cs == 0
                a = b = int(np.searchsorted(te, cs, side="right"))
        else:
            a, b = int(first_in[i]), int(stop_in[i])
            ok = a < b and a < n and ts[a] == cs and te[b - 1] == ce
            if not ok and misaligned == "expand":
                a, b = int(first_ov[i]), int(stop_ov[i])
        src = Entity(Span(cs, ce), lab)
        if not ok and misaligned == "error":
            raise InvalidSpanError(_misaligned_message(cs, ce, lab, doc, text, ts, te, where),
                                   document=doc, spans=[(cs, ce, lab)])
        if cs != ce and a >= b:
            dropped.append(src)
            continue
        ent = Entity(Span(a, b), lab)
        if not ok:
            adjusted.append((src, ent))
        out.append(ent)
    return SpanConversion(tuple(out), tuple(adjusted), tuple(dropped))


def _misaligned_message(
    s: int, e: int, label: str, doc: str | int, text: str | None, ts: IntArray, te: IntArray,
    where: str = "",
) -> str:
    """The error for a span off token boundaries; ``where`` (file and line) starts it when known."""
    shown = f" ({quoted(text[s:e])})" if text is not None else ""
    lo = int(np.searchsorted(ts, s, side="right")) - 1
    hi = int(np.searchsorted(te, e, side="left"))
    near = []
    if 0 <= lo < len(ts):
        near.append(f"token {lo} is [{int(ts[lo])}, {int(te[lo])})")
    if 0 <= hi < len(ts) and hi != lo:
        near.append(f"token {hi} is [{int(ts[hi])}, {int(te[hi])})")
    around = f" ({'; '.join(near)})" if near else ""
    return (
        f"{_span_of(s, e, label, doc, where, shown)} does not start and end on token "
        f"boundaries{around}; pass misaligned='expand' or 'contract' to move it to token "
        "boundaries."
    )


def _span_of(s: int, e: int, label: str, doc: str | int, where: str, shown: str = "") -> str:
    """A span as an error names it: where its document was read (when known), span, document.

    Examples
    --------
    >>> _span_of(0, 4, "PER", "d1", "a.jsonl, line 2")
    "a.jsonl, line 2: span (0, 4, 'PER') of document 'd1'"
    >>> print(_span_of(0, 4, "PER", 0, ""))
    Span (0, 4, 'PER') of document 0
    """
    span = f"{where}: span" if where else "Span"
    return f"{span} ({s}, {e}, {quoted(label)}){shown} of {describe_doc(doc)}"


def token_spans_to_char_spans(
    spans: Sequence[Any], tokens: Sequence[Any], *, text: str | None = None
) -> list[Entity]:
    """Convert token spans of one document to character spans.

    Parameters
    ----------
    spans : sequence of span-like
        ``(start, end, label)`` token offsets (half-open), dicts or Entity objects.
    tokens : sequence of str, or of (start, end)
        Token strings (with ``text``) or token character offsets.
    text : str, optional
        The document text; required with token strings.

    Returns
    -------
    list of Entity
        Character spans, in input order.

    Raises
    ------
    InvalidSpanError
        For a token span beyond the number of tokens, or reversed.

    Examples
    --------
    >>> toks = ["Anna", "Smith", "flew", "to", "New", "York", "."]
    >>> ents = token_spans_to_char_spans([(0, 2, "PER"), (4, 6, "LOC")], toks,
    ...                                  text="Anna Smith flew to New York.")
    >>> [(e.start, e.end, e.label) for e in ents]
    [(0, 10, 'PER'), (19, 27, 'LOC')]
    """
    ts, te = _token_offsets(tokens, text)
    n = len(ts)
    out: list[Entity] = []
    for i, item in enumerate(spans):
        a, b, lab = coerce_span(item, document=0, index=i)
        check_span(a, b, lab, document=0, text_length=None, index=i)
        if b > n:
            raise InvalidSpanError(
                f"Token span {i} ({a}, {b}, {quoted(lab)}) ends beyond the {n} tokens of the "
                "document; token offsets index the token list.",
                document=0, spans=[(a, b, lab)],
            )
        if a == b:
            pos = int(ts[a]) if a < n else (int(te[n - 1]) if n else 0)
            out.append(Entity(Span(pos, pos), lab))
        else:
            out.append(Entity(Span(int(ts[a]), int(te[b - 1])), lab))
    return out


def tags_to_char_spans(
    tags: Sequence[str],
    tokens: Sequence[Any],
    *,
    text: str | None = None,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
) -> list[Entity]:
    """Decode one tag sequence and return its entities as character spans.

    Parameters
    ----------
    tags : sequence of str
        One tag per token.
    tokens : sequence of str, or of (start, end)
        Token strings (with ``text``) or token character offsets.
    text : str, optional
        The document text; required with token strings.
    scheme, mode, suffix, delimiter, outside
        How the tags are decoded; see :func:`nerscore.tags_to_entities`.

    Returns
    -------
    list of Entity
        Character spans, sorted by position.

    Raises
    ------
    LengthMismatchError
        When there are not as many tags as tokens.

    Examples
    --------
    >>> ents = tags_to_char_spans(["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC", "O"],
    ...                           ["Anna", "Smith", "flew", "to", "New", "York", "."],
    ...                           text="Anna Smith flew to New York.")
    >>> [(e.start, e.end, e.label) for e in ents]
    [(0, 10, 'PER'), (19, 27, 'LOC')]
    """
    if isinstance(tags, str):
        raise TypeError("Expected a sequence of tags, got a single string.")
    if len(tags) != len(tokens):
        raise LengthMismatchError(
            f"Got {len(tags)} tags for {len(tokens)} tokens; give one tag per token.",
            expected=len(tokens), actual=len(tags),
        )
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    enc = encode_lists([tags], "tags", one=False)
    ents = decode(enc, decoding).sorted().to_entities()
    return token_spans_to_char_spans(ents, tokens, text=text)


def char_spans_to_tags(
    spans: Document | Sequence[Any],
    tokens: Sequence[Any],
    *,
    text: str | None = None,
    scheme: str | Scheme = "IOB2",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
) -> list[str]:
    """Write the character spans of one document as one tag per token.

    Spans must lie on token boundaries (use :func:`char_spans_to_token_spans`
    with ``misaligned="expand"`` or ``"contract"`` first to move them, with a
    count of what moved), be non-empty and not overlap.

    Parameters
    ----------
    spans : Document or sequence of span-like
        Character spans (a Document's text is used when ``text`` is not given).
    tokens : sequence of str, or of (start, end)
        Token strings (with ``text``) or token character offsets.
    text : str, optional
        The document text; required with token strings.
    scheme, suffix, delimiter, outside
        How the tags are written; see :func:`nerscore.entities_to_tags`.

    Returns
    -------
    list of str
        One tag per token.

    Raises
    ------
    InvalidSpanError
        For a misaligned, zero-length or overlapping span.

    Examples
    --------
    >>> char_spans_to_tags([(0, 10, "PER"), (19, 27, "LOC")],
    ...                    ["Anna", "Smith", "flew", "to", "New", "York", "."],
    ...                    text="Anna Smith flew to New York.", scheme="BILOU")
    ['B-PER', 'L-PER', 'O', 'O', 'B-LOC', 'L-LOC', 'O']
    """
    decoding = Decoding(scheme, suffix=suffix, delimiter=delimiter, outside=outside)
    ents, text, doc, where = _read_spans(spans, text)
    for ent in ents:
        if ent.fragments:
            raise InvalidSpanError(
                f"{_span_of(ent.start, ent.end, ent.label, doc, where)} is discontinuous "
                f"(fragments {[[f.start, f.end] for f in ent.fragments]}); tags cannot encode "
                "fragments. Give its extent, Entity(span, label), instead (nerscore convert "
                "writes it as its extent and counts it).",
                document=doc, spans=[(ent.start, ent.end, ent.label)])
    items = [(e.start, e.end, e.label) for e in ents]
    for s, e, lab in items:
        if s == e:
            raise InvalidSpanError(
                f"{_span_of(s, e, lab, doc, where)} is zero-length; tags cannot encode "
                "zero-length spans. Remove it (nerscore convert drops it and counts it).",
                document=doc, spans=[(s, e, lab)],
            )
    ts, te = _token_offsets(tokens, text)
    conv = _to_tokens(items, ts, te, text=text, doc=doc, misaligned="error", where=where)
    return write_tags(conv.spans, len(ts), decoding)[0]
