"""Placing a model's mentions in the source text (docs/llm.md).

:func:`align_mentions` turns mentions without offsets into character (or
token) entities of one text:

- aligned mentions never overlap one another: distinct strings are placed
  longest first, and an occurrence overlapping one already taken is not free
  (``Paris`` is never placed inside an aligned ``Paris Hilton``);
- ``policy="sequential"``: the k-th mention of a string (output order) takes
  the k-th free occurrence (text order); ``"first"``: every mention takes the
  first free occurrence (repeats allowed, so a duplicate is a false
  positive); ``"all"``: each distinct string takes every free occurrence;
- a mention found nowhere (or left without a free occurrence) is
  *unaligned*; a mention placed while its string had more free occurrences
  than mentions is *ambiguous* (which occurrence it meant was chosen by the
  policy);
- ``normalize`` is ``"exact"``, ``"casefold"`` or ``"loose"`` (casefold,
  NFKC, white space runs as one space, and surrounding punctuation and
  quotes trimmed from the mention), computed character by character and
  mapped back to the original offsets.

Occurrences are substrings (``str.find``), as in the recipe most evaluation
code uses and in spacy-llm; a mention is not required to start or end at a
word boundary. Mentions with offsets keep them when the text there is the
mention (normalised); otherwise they are counted (``offsets_rejected``) and
placed by their string. Inline markup that rewrote the text is mapped back
by a character alignment (:class:`difflib.SequenceMatcher`), and the number
of characters that differ is reported (``rewritten``).
"""

from __future__ import annotations

import bisect
import difflib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from nerscore.decode.spacy_llm_rules import place_spacy_llm
from nerscore.errors import OptionError, option_error
from nerscore.values.mentions import Mention, ParsedOutput
from nerscore.values.spans import Entity, Span

__all__ = ["NORMALIZATIONS", "POLICIES", "SNAPS", "MentionAlignment", "Placement",
           "align_items", "align_mentions",
           "normalize_mention", "normalize_text"]

POLICIES = ("sequential", "first", "all")
NORMALIZATIONS = ("exact", "casefold", "loose")
SNAPS = ("contract", "expand", "strict")
_TRIM = "".join(chr(c) for c in range(0x2000, 0x2070)
                if unicodedata.category(chr(c)).startswith("P")) + "\"'`.,;:!?()[]{}<>«»*_"


@dataclass(frozen=True)
class MentionAlignment:
    """Mentions placed in one text.

    Attributes
    ----------
    entities : list of Entity
        The aligned mentions, sorted by position (character offsets, or token
        indices when the text was given as tokens).
    unaligned : list of Mention
        Mentions not placed (hallucinated strings, or repeats beyond the
        string's free occurrences); each one is a false positive when scored.
    ambiguous : int
        Mentions placed while their string had more free occurrences than
        mentions (the policy chose which one).
    n_mentions : int
        Mentions given.
    offsets_rejected : int
        Mentions whose offsets did not point at their text (placed by string).
    rewritten : int
        Inline markup only: characters of the model's text that differ from
        the source (0 when it copied the text).
    snapped : int
        Token input: aligned spans whose bounds moved to token boundaries.
    dropped : list of Mention
        Token input: mentions whose span held no whole token (``contract``)
        or did not sit on token boundaries (``strict``).
    policy, normalize : str
        How it was aligned.
    """

    entities: list[Entity]
    unaligned: list[Mention]
    ambiguous: int = 0
    n_mentions: int = 0
    offsets_rejected: int = 0
    rewritten: int = 0
    snapped: int = 0
    dropped: list[Mention] = field(default_factory=list)
    policy: str = "sequential"
    normalize: str = "exact"


def _check(name: str, value: object, valid: tuple[str, ...]) -> str:
    if value not in valid:
        raise option_error(name, "one of " + ", ".join(map(repr, valid)), value)
    return str(value)


def _norm_char(ch: str, mode: str) -> str:
    if mode == "exact":
        return ch
    if mode == "loose":
        ch = unicodedata.normalize("NFKC", ch)
        if ch.isspace():
            return " "
    return ch.casefold()


def normalize_text(text: str, normalize: str = "exact") -> tuple[str, list[int]]:
    r"""``text`` normalised, with the original index of every normalised character.

    Examples
    --------
    >>> normalize_text("Stra\u00dfe  A", "loose")
    ('strasse a', [0, 1, 2, 3, 4, 4, 5, 6, 8])
    """
    norm, origin = _normalized(text, normalize)
    return norm, list(range(len(text))) if origin is None else origin


def _normalized(text: str, normalize: str) -> tuple[str, list[int] | None]:
    """:func:`normalize_text`, with None for the origin when it is the identity (the fast path).

    Normalisation is defined character by character; when every character
    keeps its length (and, for ``loose``, no white space run is collapsed),
    the whole-string methods give the same string, at C speed.
    """
    if normalize == "exact":
        return text, None
    if normalize == "casefold":
        out = text.casefold()
        if len(out) == len(text):
            return out, None
    elif text.isascii() or unicodedata.is_normalized("NFKC", text):
        out = text.casefold()
        if len(out) == len(text):
            out = out.translate(_SPACES)
            if "  " not in out:
                return out, None
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        n = _norm_char(ch, normalize)
        if normalize == "loose" and n == " " and chars and chars[-1] == " ":
            continue
        chars.append(n)
        origin.extend([i] * len(n))
    return "".join(chars), origin


_SPACES = {c: " " for c in range(0x3001) if chr(c).isspace() and c != 0x20}


def normalize_mention(text: str, normalize: str = "exact") -> str:
    r"""A mention's string as it is looked up (``loose`` also trims punctuation and quotes).

    Examples
    --------
    >>> normalize_mention(" \u201cParis\u201d,", "loose"), normalize_mention("PARIS", "casefold")
    ('paris', 'paris')
    """
    if normalize == "exact":
        return text
    norm = _normalized(text, normalize)[0]
    return norm.strip().strip(_TRIM).strip() if normalize == "loose" else norm


class _Taken:
    """The characters already aligned, for overlap tests (a byte per character)."""

    def __init__(self, n: int) -> None:
        self.mask = bytearray(n)

    def free(self, s: int, e: int) -> bool:
        return self.mask.find(1, s, e) < 0

    def add(self, s: int, e: int) -> None:
        self.mask[s:e] = _ONES[: e - s] if e - s <= len(_ONES) else b"\x01" * (e - s)


_ONES = b"\x01" * 4096
_NO_OFFSET = frozenset({None})


def _occurrences(haystack: str, needle: str) -> list[int]:
    out = []
    at = haystack.find(needle)
    while at >= 0:
        out.append(at)
        at = haystack.find(needle, at + 1)
    return out


def _rewrite_map(written: str, source: str) -> tuple[list[int], int]:
    """For each character of ``written``, its index in ``source`` (-1 where it was rewritten)."""
    where = [-1] * len(written)
    matcher = difflib.SequenceMatcher(None, written, source, autojunk=False)
    same = 0
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            where[a + k] = b + k
        same += size
    return where, max(len(written), len(source)) - same


def align_mentions(
    text: str | Sequence[str], mentions: ParsedOutput | Sequence[Mention], *,
    policy: str = "sequential", normalize: str = "exact", snap: str = "contract",
    compat: str | None = None,
) -> MentionAlignment:
    """Place mentions (strings with labels, no offsets) in the text they were found in.

    Parameters
    ----------
    text : str or sequence of str
        The source text, or its tokens: these are joined with one space
        (as the CoNLL and Hugging Face readers give a sentence's text) and the
        aligned spans snapped to token indices.
    mentions : ParsedOutput or sequence of Mention
        What the model answered (:func:`nerscore.parse_llm_output`).
    policy : {"sequential", "first", "all"}
        Which occurrence a repeated string takes (module docstring).
    normalize : {"exact", "casefold", "loose"}
        How strings are compared with the text.
    snap : {"contract", "expand", "strict"}
        Token input: a span not on token boundaries keeps the tokens inside it
        (``contract``), every token it touches (``expand``), or is dropped
        (``strict``), as spaCy's ``char_span`` alignment modes.
    compat : {None, "spacy-llm"}
        ``"spacy-llm"`` places the mentions as spacy-llm's ``spacy.NER.v2``
        task does (:mod:`~nerscore.decode.spacy_llm_rules`; token input only):
        ``policy``, ``normalize`` and ``snap`` are then its own.

    Returns
    -------
    MentionAlignment

    Raises
    ------
    OptionError
        For an unknown ``policy``, ``normalize``, ``snap`` or ``compat``, or
        ``compat="spacy-llm"`` without tokens.

    Examples
    --------
    >>> from nerscore import Mention
    >>> text = "Paris is in France. Paris Hilton visited Paris."
    >>> out = [Mention("Paris", "LOC"), Mention("Paris", "LOC"), Mention("France", "LOC"),
    ...        Mention("Paris Hilton", "PER")]
    >>> a = align_mentions(text, out)
    >>> [(e.start, e.end, e.label) for e in a.entities]
    [(0, 5, 'LOC'), (12, 18, 'LOC'), (20, 32, 'PER'), (41, 46, 'LOC')]
    >>> a = align_mentions(text, out, policy="first")
    >>> [(e.start, e.end) for e in a.entities], a.ambiguous
    ([(0, 5), (0, 5), (12, 18), (20, 32)], 2)
    >>> align_mentions("Anna met Lyon", [Mention("London", "LOC")]).unaligned
    [Mention(text='London', label='LOC', start=None, end=None)]
    """
    written = mentions.text if isinstance(mentions, ParsedOutput) else None
    given = list(mentions.mentions if isinstance(mentions, ParsedOutput) else mentions)
    items = [(m.text, m.label, m.start, m.end) for m in given]
    p = align_items(text, items, written, policy=policy, normalize=normalize, snap=snap,
                    compat=compat)
    return MentionAlignment(
        [Entity(Span(s, e), lab) for s, e, lab in p.spans], [given[k] for k in p.unaligned],
        p.ambiguous, len(items), p.rejected, p.rewritten, p.snapped,
        [given[k] for k in p.dropped], policy, normalize)


class Placement(NamedTuple):
    """What :func:`align_items` placed, as plain values (the hot path of ``evaluate_llm``).

    ``spans`` are ``(start, end, label)`` sorted by position; ``unaligned``
    and ``dropped`` index the items given.
    """

    spans: list[tuple[int, int, str]]
    unaligned: list[int]
    ambiguous: int
    rejected: int
    rewritten: int
    snapped: int
    dropped: list[int]


def align_items(
    text: str | Sequence[str], items: Sequence[tuple[str, str, int | None, int | None]],
    written: str | None = None, *, policy: str = "sequential", normalize: str = "exact",
    snap: str = "contract", compat: str | None = None,
) -> Placement:
    """:func:`align_mentions` on ``(text, label, start, end)`` tuples.

    ``written`` is the text the model wrote back (inline markup), which the
    items' offsets index into.

    Examples
    --------
    >>> align_items("Anna met Anna", [("Anna", "PER", None, None)] * 3).spans
    [(0, 4, 'PER'), (9, 13, 'PER')]
    """
    if policy not in POLICIES:
        _check("policy", policy, POLICIES)
    if normalize not in NORMALIZATIONS:
        _check("normalize", normalize, NORMALIZATIONS)
    if snap not in SNAPS:
        _check("snap", snap, SNAPS)
    tokens = None if isinstance(text, str) else list(text)
    if compat is not None:
        _check("compat", compat, ("spacy-llm",))
        if tokens is None:
            raise OptionError("compat='spacy-llm' aligns to spaCy tokens: give the text as its "
                              "tokens (a list of str).", option="compat")
        spans, unaligned, dropped = place_spacy_llm(items, tokens)
        return Placement(spans, unaligned, 0, 0, 0, 0, dropped)
    source = " ".join(tokens) if tokens is not None else str(text)
    taken = _Taken(len(source))
    placed: list[tuple[int, int, int]] = []
    rejected = rewritten = 0
    loose: list[int] = []
    where: list[int] | None = None
    if written is not None and written != source:
        where, rewritten = _rewrite_map(written, source)
    if {it[2] for it in items} <= _NO_OFFSET:  # the common case: no offsets given
        loose = list(range(len(items)))
    else:
        for k, (mtext, _, start, end) in enumerate(items):
            if start is None or end is None:
                loose.append(k)
                continue
            span = _given_span(mtext, start, end, source, normalize, where)
            if span is None:
                rejected += written is None
                loose.append(k)
            elif taken.free(*span):
                taken.add(*span)
                placed.append((*span, k))
            else:
                loose.append(k)
    unaligned, ambiguous = _place(loose, items, source, taken, placed, policy, normalize)
    placed.sort()
    if tokens is None:
        spans = [(s, e, items[k][1]) for s, e, k in placed]
        return Placement(spans, unaligned, ambiguous, rejected, rewritten, 0, [])
    spans, dropped, snapped = _snap(placed, items, tokens, snap)
    return Placement(spans, unaligned, ambiguous, rejected, rewritten, snapped, dropped)


def _given_span(text: str, s: int, e: int, source: str, normalize: str,
                where: list[int] | None) -> tuple[int, int] | None:
    """The mention's own offsets, when they point at its text (mapped back when rewritten)."""
    if where is not None:
        inside = [where[k] for k in range(max(s, 0), min(e, len(where))) if where[k] >= 0]
        if not inside:
            return None
        s, e = inside[0], inside[-1] + 1
        return (s, e) if s < e else None
    if not 0 <= s < e <= len(source):
        return None
    if normalize_mention(source[s:e], normalize) != normalize_mention(text, normalize):
        return None
    return s, e


def _place(loose: list[int], items: Sequence[tuple[str, str, int | None, int | None]],
           source: str, taken: _Taken, placed: list[tuple[int, int, int]], policy: str,
           normalize: str) -> tuple[list[int], int]:
    """Place items by their string, longest first; return the unaligned and the ambiguous count."""
    groups: dict[str, list[int]] = {}
    if normalize == "exact" and len(loose) == len(items):
        for k, it in enumerate(items):
            groups.setdefault(it[0], []).append(k)
    elif normalize == "exact":
        for k in loose:
            groups.setdefault(items[k][0], []).append(k)
    else:
        for k in loose:
            groups.setdefault(normalize_mention(items[k][0], normalize), []).append(k)
    norm, origin = _normalized(source, normalize)
    unaligned: list[int] = []
    ambiguous = 0
    mask = taken.mask
    find = norm.find
    single = origin is None and policy != "all"
    for key in sorted(groups, key=len, reverse=True):
        group = groups[key]
        if not key:
            unaligned.extend(group)
            continue
        if single and len(group) == 1:
            # the common case, one mention of its string: its first free occurrence, and
            # whether a second one (from its end on) makes it ambiguous; as the loop below
            n = len(key)
            at = find(key)
            while at >= 0 and mask.find(1, at, at + n) >= 0:
                at = find(key, at + 1)
            if at < 0:
                unaligned.append(group[0])
                continue
            e = at + n
            nxt = find(key, e)
            while nxt >= 0 and mask.find(1, nxt, nxt + n) >= 0:
                nxt = find(key, nxt + 1)
            ambiguous += nxt >= 0
            mask[at:e] = b"\x01" * n
            placed.append((at, e, group[0]))
            continue
        free: list[tuple[int, int]] = []
        n = len(key)
        last = 0
        at = find(key)
        while at >= 0:
            if origin is None:
                s, e = at, at + n
            else:
                s, e = origin[at], origin[at + n - 1] + 1
            if s >= last and mask.find(1, s, e) < 0:
                free.append((s, e))
                last = e
            at = find(key, at + 1)
        if policy == "sequential":
            chosen = free[: len(group)]
            if len(free) > len(group):
                ambiguous += len(group)
            for (s, e), k in zip(chosen, group, strict=False):
                taken.add(s, e)
                placed.append((s, e, k))
            unaligned.extend(group[len(chosen):])
        elif not free:
            unaligned.extend(group)
        elif policy == "first":
            s, e = free[0]
            taken.add(s, e)
            placed.extend((s, e, k) for k in group)
            ambiguous += len(group) if len(free) > 1 else 0
        else:
            first = items[group[0]][1]
            for s, e in free:
                taken.add(s, e)
                placed.append((s, e, group[0]))
            ambiguous += sum(items[k][1] != first for k in group)
    unaligned.sort()
    return unaligned, ambiguous


def _snap(placed: list[tuple[int, int, int]],
          items: Sequence[tuple[str, str, int | None, int | None]], tokens: list[str],
          snap: str) -> tuple[list[tuple[int, int, str]], list[int], int]:
    """Character spans to token indices (spaCy's ``char_span`` modes)."""
    starts, ends = [], []
    at = 0
    for tok in tokens:
        starts.append(at)
        ends.append(at + len(tok))
        at += len(tok) + 1
    spans: list[tuple[int, int, str]] = []
    dropped: list[int] = []
    snapped = 0
    for s, e, k in placed:
        if snap == "contract":
            i = bisect.bisect_left(starts, s)  # first token starting at or after s
            j = bisect.bisect_right(ends, e)  # tokens ending at or before e
        else:
            i = bisect.bisect_left(ends, s + 1)  # first token ending after s
            j = bisect.bisect_left(starts, e)  # tokens starting before e
        exact = i < len(starts) and starts[i] == s and j > 0 and ends[j - 1] == e
        if i >= j or (snap == "strict" and not exact):
            dropped.append(k)
            continue
        snapped += not exact
        spans.append((i, j, items[k][1]))
    return spans, sorted(dropped), snapped
