"""One BRAT ``.ann`` file read: its lines to entities, checked against the ``.txt`` text.

The rules are :mod:`nerscore.io.brat`'s (text-bound ``T`` lines are
entities, written ``START END`` or ``START END;START END`` with the digits
0-9 and single spaces; every offset and quoted text checked against the
text; the other kinds of line counted and ignored); this module applies them
to one file, :func:`~nerscore.io.brat.read_brat` to a folder.
"""

from __future__ import annotations

from collections import Counter

from nerscore.errors import FormatError, InvalidSpanError
from nerscore.values.span_checks import beyond_text
from nerscore.values.spans import Entity

__all__ = ["IGNORED", "parse_ann"]

#: First letter of an annotation id -> what the line holds (all but T are ignored).
IGNORED = {
    "A": "attribute", "M": "attribute", "R": "relation", "E": "event",
    "N": "normalization", "#": "note", "*": "equivalence",
}


def _fragments(frags: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """The fragments (sorted) with those separated only by white space joined."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(frags):
        if out and out[-1][1] <= s and (s == out[-1][1] or text[out[-1][1]:s].isspace()):
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def _offsets_problem(offsets: str) -> str:
    r"""What keeps the offsets of an annotation from being read, in words.

    Examples
    --------
    >>> _offsets_problem("0 +4")
    "'+4' is not a number in the digits 0-9"
    >>> _offsets_problem("0 4;9")
    "'9' is not two offsets"
    >>> _offsets_problem("0\x1f4")
    "they are separated by '\\x1f', not by spaces"
    >>> _offsets_problem("0 4; 9 12")
    "' 9 12' is not two offsets separated by one space"
    """
    for frag in offsets.split(";"):
        pair = frag.split()
        if len(pair) != 2:
            return f"{frag.strip()!r} is not two offsets"
        for offset in pair:
            if not (offset.isascii() and offset.isdigit()):
                return f"{offset!r} is not a number in the digits 0-9"
        space = next((ch for ch in frag if ch.isspace() and ch != " "), None)
        if space is not None:
            return f"they are separated by {space!r}, not by spaces"
        if frag.split(" ") != pair:
            return f"{frag!r} is not two offsets separated by one space"
    return "an offset has more digits than Python reads"


def parse_ann(
    content: str, text: str, *, source: str, doc_id: str, counts: Counter[str],
) -> list[Entity]:
    """The entities of one ``.ann`` file (``content``) over its ``text``, checked.

    Lines of the kinds in :data:`IGNORED` are counted into ``counts`` by
    kind; fragments separated only by white space are joined (counted as
    ``"joined"``), and entities left with several fragments are counted as
    ``"discontinuous"``. Any other problem raises, naming ``source``, the
    line and ``doc_id``.
    """
    entities: list[Entity] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(content.split("\n"), 1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        head = line[0]
        if head in IGNORED:
            counts[IGNORED[head]] += 1
            continue
        if head != "T":
            raise FormatError(
                f"{source}, line {n}: unknown annotation {line.split(chr(9))[0]!r}; BRAT ids "
                "start with T, A, M, R, E, N, # or *.",
                source=source, line=n,
            )
        parts = line.split("\t", 2)
        if len(parts) < 2:
            raise FormatError(
                f"{source}, line {n}: expected 'ID<TAB>LABEL START END<TAB>TEXT'; got {line!r}.",
                source=source, line=n,
            )
        ann_id = parts[0]
        if ann_id in seen:
            raise FormatError(
                f"{source}, line {n}: annotation id {ann_id!r} was already used on line "
                f"{seen[ann_id]}; ids must be unique within a file.",
                source=source, line=n,
            )
        seen[ann_id] = n
        label, _, offsets = parts[1].partition(" ")
        frags: list[tuple[int, int]] = []
        digits = offsets.isascii()  # str.isdigit takes other digits too
        try:
            for frag in offsets.split(";"):
                lo, hi = frag.split(" ")  # one space, as brat writes; any other is an error
                if not (digits and lo.isdigit() and hi.isdigit()):
                    raise ValueError
                frags.append((int(lo), int(hi)))
        except ValueError:
            raise FormatError(
                f"{source}, line {n}: cannot read the offsets {offsets!r} of {ann_id} "
                f"({_offsets_problem(offsets)}); expected 'START END' or 'START END;START "
                "END...', each offset a character index written with the digits 0-9 alone.",
                source=source, line=n,
            ) from None
        if not label:
            raise FormatError(
                f"{source}, line {n}: {ann_id} has no label ({parts[1]!r} begins with a space); "
                f"a text-bound annotation line is '{ann_id}<TAB>LABEL START END<TAB>TEXT': write "
                f"the entity's label before its offsets (e.g. '{ann_id}<TAB>PER {offsets}').",
                source=source, line=n)
        for s, e in frags:
            if e < s or e > len(text):  # never negative: digits alone
                problem = ("has start > end" if e < s
                           else beyond_text(len(text)))
                raise InvalidSpanError(
                    f"{source}, line {n}: span ({s}, {e}, {label!r}) of {ann_id} in document "
                    f"{doc_id!r} {problem}; offsets are character indices into the .txt file.",
                    document=doc_id, spans=[(s, e, label)],
                )
        if len(parts) == 3:
            quoted = parts[2]
            actual = " ".join(text[s:e] for s, e in frags)
            if quoted != actual and quoted != actual.replace("\r\n", " ").replace("\n", " "):
                hint = ""
                if "\r" in text:
                    hint = " (the .txt file has CRLF line endings, counted as two characters)"
                elif text.startswith("\ufeff"):
                    hint = " (the .txt file starts with a byte order mark, counted as character 0)"
                raise FormatError(
                    f"{source}, line {n}: the text of {ann_id} is {quoted!r} but the .txt file "
                    f"has {actual!r} at {offsets}{hint}; fix the offsets or the text.",
                    source=source, line=n,
                )
        joined = _fragments(frags, text) if len(frags) > 1 else frags
        try:
            entity = Entity.from_fragments(joined, label)
        except ValueError as exc:
            raise InvalidSpanError(
                f"{source}, line {n}: the fragments {offsets!r} of {ann_id} in document "
                f"{doc_id!r}: {exc}", document=doc_id,
                spans=[(min(s for s, _ in frags), max(e for _, e in frags), label)],
            ) from None
        if len(joined) < len(frags):
            counts["joined"] += 1
        if entity.fragments:
            counts["discontinuous"] += 1
        entities.append(entity)
    return entities
