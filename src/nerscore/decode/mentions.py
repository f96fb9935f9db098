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

from nerscore.errors import option_error
from nerscore.values.mentions import Mention, ParsedOutput
from nerscore.values.spans import Entity, Span

__all__ = ["NORMALIZATIONS", "POLICIES", "SNAPS", "MentionAlignment", "align_mentions",
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
    if normalize == "exact":
        return text, list(range(len(text)))
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        n = _norm_char(ch, normalize)
        if normalize == "loose" and n == " " and out and out[-1] == " ":
            continue
        out.append(n)
        origin.extend([i] * len(n))
    return "".join(out), origin


def normalize_mention(text: str, normalize: str = "exact") -> str:
    """A mention's string as it is looked up (``loose`` also trims punctuation and quotes).

    Examples
    --------
    >>> normalize_mention(" \u201cParis\u201d,", "loose"), normalize_mention("PARIS", "casefold")
    ('paris', 'paris')
    """
    norm = normalize_text(text, normalize)[0]
    return norm.strip().strip(_TRIM).strip() if normalize == "loose" else norm


class _Taken:
    """The intervals already aligned, for overlap tests."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, s: int, e: int) -> bool:
        k = bisect.bisect_right(self.starts, s)
        if k and self.ends[k - 1] > s:
            return False
        return not (k < len(self.starts) and self.starts[k] < e)

    def add(self, s: int, e: int) -> None:
        k = bisect.bisect_right(self.starts, s)
        self.starts.insert(k, s)
        self.ends.insert(k, e)


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

    Returns
    -------
    MentionAlignment

    Raises
    ------
    OptionError
        For an unknown ``policy``, ``normalize`` or ``snap``.

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
    policy = _check("policy", policy, POLICIES)
    normalize = _check("normalize", normalize, NORMALIZATIONS)
    snap = _check("snap", snap, SNAPS)
    tokens = None if isinstance(text, str) else list(text)
    source = " ".join(tokens) if tokens is not None else str(text)
    written = mentions.text if isinstance(mentions, ParsedOutput) else None
    items = list(mentions.mentions if isinstance(mentions, ParsedOutput) else mentions)
    norm, origin = normalize_text(source, normalize)
    taken = _Taken()
    placed: list[tuple[int, int, Mention]] = []
    rejected = rewritten = 0
    loose: list[Mention] = []
    where: list[int] | None = None
    if written is not None and written != source:
        where, rewritten = _rewrite_map(written, source)
    for m in items:
        span = _given_span(m, source, normalize, where)
        if span is None:
            rejected += m.has_offsets and written is None
            loose.append(m)
        elif taken.free(*span):
            taken.add(*span)
            placed.append((*span, m))
        else:
            loose.append(m)
    unaligned, ambiguous = _place(loose, norm, origin, taken, placed, policy, normalize)
    placed.sort(key=lambda p: (p[0], p[1]))
    result = MentionAlignment([Entity(Span(s, e), m.label) for s, e, m in placed], unaligned,
                              ambiguous, len(items), rejected, rewritten, policy=policy,
                              normalize=normalize)
    if tokens is None:
        return result
    return _snap(result, placed, tokens, snap)


def _given_span(m: Mention, source: str, normalize: str,
                where: list[int] | None) -> tuple[int, int] | None:
    """The mention's own offsets, when they point at its text (mapped back when rewritten)."""
    if m.start is None or m.end is None:
        return None
    s, e = m.start, m.end
    if where is not None:
        inside = [where[k] for k in range(max(s, 0), min(e, len(where))) if where[k] >= 0]
        if not inside:
            return None
        s, e = inside[0], inside[-1] + 1
        return (s, e) if s < e else None
    if not 0 <= s < e <= len(source):
        return None
    if normalize_mention(source[s:e], normalize) != normalize_mention(m.text, normalize):
        return None
    return s, e


def _place(loose: list[Mention], norm: str, origin: list[int], taken: _Taken,
           placed: list[tuple[int, int, Mention]], policy: str,
           normalize: str) -> tuple[list[Mention], int]:
    """Place mentions by their string, longest first; return the unaligned and the ambiguous count."""
    groups: dict[str, list[Mention]] = {}
    for m in loose:
        groups.setdefault(normalize_mention(m.text, normalize), []).append(m)
    unaligned: list[Mention] = []
    ambiguous = 0
    for key in sorted(groups, key=len, reverse=True):
        group = groups[key]
        if not key:
            unaligned.extend(group)
            continue
        free: list[tuple[int, int]] = []
        for at in _occurrences(norm, key):
            s, e = origin[at], origin[at + len(key) - 1] + 1
            if taken.free(s, e) and (not free or free[-1][1] <= s):
                free.append((s, e))
        if policy == "sequential":
            chosen = list(zip(free, group, strict=False))
            ambiguous += len(chosen) if len(free) > len(group) else 0
            unaligned.extend(group[len(chosen):])
        elif policy == "first":
            chosen = [(free[0], m) for m in group] if free else []
            ambiguous += len(group) if len(free) > 1 else 0
            unaligned.extend(group if not free else [])
        else:
            first = group[0]
            chosen = [(span, first) for span in free]
            ambiguous += sum(m.label != first.label for m in group)
            unaligned.extend(group if not free else [])
        for (s, e), m in chosen:
            taken.add(s, e)
            placed.append((s, e, m))
    return unaligned, ambiguous


def _snap(result: MentionAlignment, placed: list[tuple[int, int, Mention]],
          tokens: list[str], snap: str) -> MentionAlignment:
    """Character spans to token indices (spaCy's ``char_span`` modes)."""
    starts, ends = [], []
    at = 0
    for tok in tokens:
        starts.append(at)
        ends.append(at + len(tok))
        at += len(tok) + 1
    entities: list[Entity] = []
    dropped: list[Mention] = []
    snapped = 0
    for s, e, m in placed:
        first = bisect.bisect_left(ends, s + 1)  # first token ending after s
        last = bisect.bisect_left(starts, e)  # tokens starting before e
        if snap == "contract":
            i = bisect.bisect_left(starts, s)
            j = bisect.bisect_right(ends, e)
        else:
            i, j = first, last
        exact = i < len(starts) and starts[i] == s and j > 0 and ends[j - 1] == e
        if i >= j or (snap == "strict" and not exact):
            dropped.append(m)
            continue
        snapped += not exact
        entities.append(Entity(Span(i, j), m.label))
    return MentionAlignment(entities, result.unaligned, result.ambiguous, result.n_mentions,
                            result.offsets_rejected, result.rewritten, snapped, dropped,
                            result.policy, result.normalize)
