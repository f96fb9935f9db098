"""One side of a span input read into documents, and the two sides paired.

Pairing of span documents (docs/differences.md, never a silent drop):

- both sides have ids: joined by id, in gold order, then the predicted ids
  gold lacks. A gold document without a prediction counts as predicting no
  entities; a predicted document that gold lacks counts all its spans as
  false positives. Both are reported in ``Prepared.notes``. Duplicate ids on
  one side are an error; so is a join where no id matches at all;
- one side has ids and the other is a plain list (positional): paired by
  position (same number of documents), ids taken from the side that has them;
  a mapping cannot be paired with a plain list. A prediction of no
  documents at all is joined by id (every gold document lacks a prediction);
- neither side has ids: paired by position.

When both sides carry the text of a document and the texts differ, a
:class:`~nerscore.errors.TextMismatchWarning` names the documents and their
first difference and a note says the same (:mod:`.text_agreement`); gold's
text is used.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any, NamedTuple

from nerscore.decode.input_kind import item_kind
from nerscore.decode.text_agreement import TextMismatches, compare_texts
from nerscore.errors import (
    FormatError,
    InputTypeError,
    InvalidSpanError,
    LengthMismatchError,
    quoted,
)
from nerscore.values.documents import Document, coerce_regions, is_int
from nerscore.values.spans import Entity, Span

__all__ = ["Joined", "Side", "check_unique", "join_sides", "pad_sentences", "quoted_ids", "side_of"]

_SHOW = 5  # ids listed in notes and messages


@dataclass
class Side:
    """One side of a span input, normalised: per-document spans, ids, texts."""

    spans: list[Sequence[Any]]
    ids: list[str] | None
    texts: list[str | None] | None
    mapping: bool = False
    where: list[str] | None = None  # per document: "file, line n" when known
    ignore: list[tuple[Span | Entity, ...]] | None = None  # per document, when some has regions
    by_sentence: bool = False  # a flat list of entities, grouped by their sentence
    by_file: str | None = None  # the file of its one document, which is named for it


def _doc_dict(
    d: Mapping[str, Any], k: int, name: str,
) -> tuple[Any, str | None, Sequence[Any], tuple[Span | Entity, ...]]:
    if not any(key in d for key in ("id", "text", "spans", "entities")):
        raise InputTypeError(
            f"Item {k} of `{name}` is a dict with neither span keys ('start', 'end', 'label') "
            f"nor document keys ('id', 'text', 'spans' or 'entities'); got keys {sorted(d)}."
        )
    if "spans" in d and "entities" in d:
        raise InputTypeError(
            f"Document {k} of {name} has both 'spans' and 'entities'; give one of them."
        )
    spans = d.get("spans", d.get("entities", ()))
    if spans is None:
        spans = ()
    if isinstance(spans, (str, bytes)) or not isinstance(spans, Sequence):
        raise InputTypeError(
            f"Expected the spans of document {k} of {name} to be a list; "
            f"got {type(spans).__name__}."
        )
    text = d.get("text")
    if text is not None and not isinstance(text, str):
        raise InputTypeError(
            f"Expected the text of document {k} of {name} to be a str; got {type(text).__name__}."
        )
    doc_id = d.get("id")
    if doc_id is not None:
        if is_int(doc_id):
            doc_id = str(doc_id)
        elif not isinstance(doc_id, str):
            raise InputTypeError(
                f"Expected the id of document {k} of {name} to be a str or int; "
                f"got {type(doc_id).__name__} {quoted(doc_id)}."
            )
    ignore = coerce_regions(d.get("ignore"), document=doc_id if doc_id is not None else k,
                            text_length=None if text is None else len(text))
    return doc_id, text, spans, ignore


def side_of(y: object, name: str) -> Side:
    """``y`` (the argument ``name``) as one side: per-document spans, with ids and texts if given."""
    if type(y) is dict and set(map(type, y)) <= {str} and set(map(type, y.values())) <= {
            tuple, list}:  # {doc_id: spans}, read as the loop below reads it, in C
        return Side(list(y.values()), list(y), None, mapping=True)
    if isinstance(y, Mapping):
        ids: list[str] = []
        spans: list[Sequence[Any]] = []
        texts: list[str | None] = []
        regions: list[tuple[Span | Entity, ...]] = []
        for key, value in y.items():
            if not isinstance(key, str):
                raise InputTypeError(
                    f"Expected the keys of {name} to be document ids (str); "
                    f"got {type(key).__name__} {quoted(key)}."
                )
            ids.append(key)
            regions.append(value.ignore if isinstance(value, Document) else ())
            if isinstance(value, Document):
                spans.append(value.spans)
                texts.append(value.text)
            elif isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
                raise InputTypeError(
                    f"Expected {name}[{quoted(key)}] to be a list of spans or a Document; "
                    f"got {type(value).__name__}."
                )
            else:
                spans.append(value)
                texts.append(None)
        return Side(spans, ids, texts if any(t is not None for t in texts) else None,
                     mapping=True, ignore=regions if any(regions) else None)
    if isinstance(y, (str, bytes)) or not isinstance(y, Sequence):
        raise InputTypeError(
            f"Expected `{name}` to be spans per document (a list of lists of (start, end, label)), "
            f"documents or a mapping {{doc_id: spans}}; got {type(y).__name__}."
        )
    items = list(y)
    if not items:
        return Side([], None, None)
    first = items[0]
    if isinstance(first, Document) or (isinstance(first, Mapping) and "start" not in first):
        return _document_side(items, name)
    if isinstance(first, Entity) and set(map(type, items)) == {Entity}:
        return _entity_side(items, name)
    if item_kind(first) == "spans":  # a single document as a flat list of spans
        return Side([items], None, None)
    if set(map(type, items)) <= {list, tuple}:
        return Side(items, None, None)
    for k, item in enumerate(items):
        if isinstance(item, (str, bytes, Document, Mapping)) or not isinstance(item, Sequence):
            raise InputTypeError(
                f"Expected every item of `{name}` to be one document's list of spans; "
                f"item {k} is {type(item).__name__} {quoted(item)}."
            )
    return Side(items, None, None)


def _entity_side(items: list[Entity], name: str) -> Side:
    """A flat list of entities: one document per ``Entity.sentence`` (all 0: one document).

    Entities of different sentences never match (``sentence`` is part of an
    entity's identity), as in the output of :func:`~nerscore.tags_to_entities`.
    """
    sentences = [e.sentence for e in items]
    bad = next((k for k, s in enumerate(sentences) if not is_int(s) or s < 0), None)
    if bad is not None:
        raise InvalidSpanError(
            f"Entity {bad} of `{name}` has sentence {quoted(sentences[bad])}; the sentence of an "
            "entity is the index (an int >= 0) of its sentence or document.")
    docs: list[list[Entity]] = [[] for _ in range(max(sentences) + 1)]
    for ent, k in zip(items, sentences, strict=True):
        docs[k].append(ent)
    return Side(list[Sequence[Any]](docs), None, None, by_sentence=True)


def pad_sentences(g: Side, p: Side) -> tuple[Side, Side]:
    """Give a side read from a flat list of entities the other side's number of sentences.

    Its sentences after the last one with an entity are not in the list.
    """
    if g.ids is not None or p.ids is not None or not (g.by_sentence or p.by_sentence):
        return g, p
    n = max(len(g.spans), len(p.spans))
    if g.by_sentence and len(g.spans) < n:
        g = replace(g, spans=[*g.spans, *[()] * (n - len(g.spans))])
    if p.by_sentence and len(p.spans) < n:
        p = replace(p, spans=[*p.spans, *[()] * (n - len(p.spans))])
    return g, p


_FIELDS = tuple(map(attrgetter, ("id", "text", "spans", "ignore", "source", "line")))


def _document_side(items: list[Any], name: str) -> Side:
    ids: list[Any] = []
    texts: list[str | None] = []
    spans: list[Sequence[Any]] = []
    where: list[str] = []
    regions: list[tuple[Span | Entity, ...]] = []
    by_file = named_file(items)
    if set(map(type, items)) == {Document}:
        ids, texts, spans, regions = (list(map(_FIELDS[f], items)) for f in range(4))
        where = (list(map(Document.where, items)) if any(map(_FIELDS[4], items))
                 or set(map(_FIELDS[5], items)) - {None} else [""] * len(items))
        items = []  # read: the loop below (which reads the same) has nothing left to do
    for k, item in enumerate(items):
        if isinstance(item, Document):
            ids.append(item.id)
            texts.append(item.text)
            spans.append(item.spans)
            regions.append(item.ignore)
            where.append(item.where())
        elif isinstance(item, Mapping) and "start" not in item:
            doc_id, text, sp, ignore = _doc_dict(item, k, name)
            ids.append(doc_id)
            texts.append(text)
            spans.append(sp)
            regions.append(ignore)
            where.append("")
        else:
            raise InputTypeError(
                f"Expected every item of `{name}` to be a document (Document or "
                f"{{'id', 'text', 'spans'}} dict) like item 0; item {k} is "
                f"{type(item).__name__} {quoted(item)}."
            )
    n_missing = ids.count(None)
    if 0 < n_missing < len(ids):
        k = ids.index(None)
        raise InputTypeError(
            f"Document {k} of `{name}` has no 'id' but others have; give every document an id "
            "(or none, to pair documents by position)."
        )
    return Side(spans, None if n_missing else ids,
                 texts if texts.count(None) < len(texts) else None,
                 where=where, ignore=regions if any(regions) else None,
                 by_file=by_file)


def named_file(docs: Sequence[Any]) -> str | None:
    """The file of ``docs`` when they are one :class:`Document` named for its file, else None.

    A reader that reads one document from one file (a BRAT ``.ann``/``.txt``
    pair, a WebAnno TSV file) names it for the file: ``gold.ann`` and
    ``pred.ann`` then hold documents ``'gold'`` and ``'pred'``, which are one
    document all the same (:func:`join_sides`).

    Examples
    --------
    >>> named_file([Document("gold", source="data/gold.ann")])
    'data/gold.ann'
    >>> named_file([Document("d1", source="data/gold.jsonl", line=1)]) is None
    True
    """
    if len(docs) != 1 or type(docs[0]) is not Document:
        return None
    doc = docs[0]
    if not isinstance(doc.source, str) or doc.line is not None:
        return None
    name = os.path.basename(doc.source.rstrip("/" + os.sep))
    return doc.source if doc.id == os.path.splitext(name)[0] else None


def check_unique(side: Side, name: str) -> dict[str, int]:
    """Each id of ``side`` -> its document; an id given twice is a FormatError naming both."""
    assert side.ids is not None
    index: dict[str, int] = dict(zip(side.ids, range(len(side.ids)), strict=True))
    if len(index) == len(side.ids):  # unique (else the loop below names the first repeat)
        return index
    index.clear()
    for k, doc_id in enumerate(side.ids):
        j = index.setdefault(doc_id, k)
        if j != k:
            locs = ""
            if side.where and side.where[j] and side.where[k]:
                locs = f" ({side.where[j]} and {side.where[k]})"
            raise FormatError(
                f"Document id {quoted(doc_id)} appears twice in {name}: documents {j} and {k}{locs}; "
                "ids must be unique."
            )
    return index


def quoted_ids(ids: Sequence[str]) -> str:
    """The first few ``ids``, quoted short, and how many more there are.

    Examples
    --------
    >>> quoted_ids(["a", "b", "c", "d", "e", "f", "g"])
    "'a', 'b', 'c', 'd', 'e', ... (2 more)"
    """
    shown = ", ".join(quoted(i) for i in ids[:_SHOW])
    return shown + (f", ... ({len(ids) - _SHOW} more)" if len(ids) > _SHOW else "")


class Joined(NamedTuple):
    """Both sides joined document by document.

    ``p_rows`` holds each joined document's predicted document (None when
    the prediction lacks it); None itself when documents pair by position.
    """

    g_spans: list[Sequence[Any]]
    p_spans: list[Sequence[Any]]
    ids: list[str] | None
    texts: list[str | None] | None
    notes: list[str]
    mismatches: TextMismatches
    p_rows: list[int | None] | None


def join_sides(g: Side, p: Side) -> Joined:
    """Gold and prediction paired document by document (see the module documentation)."""
    notes: list[str] = []
    if g.ids is not None and p.ids is None and not p.spans:  # nothing predicted: by id
        p = replace(p, ids=[])
    if g.ids is not None and p.ids is not None:
        gi = check_unique(g, "y_true")
        pi = check_unique(p, "y_pred")
        if g.by_file and p.by_file and g.ids != p.ids:  # one document each, named by its file
            notes.append(f"{g.by_file} and {p.by_file} each hold one document, named for its "
                         f"file ({quoted(g.ids[0])} and {quoted(p.ids[0])}): the two are scored "
                         "as one document.")
            p.ids[:], pi = g.ids, gi  # (p is this call's own: side_of made it)
        if gi and pi and not (gi.keys() & pi.keys()):
            raise FormatError(
                f"None of the {len(pi)} predicted document ids appear among the {len(gi)} gold "
                f"ids (gold: {quoted_ids(g.ids)}; predicted: {quoted_ids(p.ids)}); check that both "
                "sides use the same ids."
            )
        missing = [d for d in g.ids if d not in pi]
        extra = [d for d in p.ids if d not in gi]
        joined = g.ids + extra
        ids: list[str] | None = joined
        empty: Sequence[Any] = ()
        g_spans = g.spans + [empty] * len(extra)
        found: list[int | None] = [pi.get(d) for d in joined]
        p_rows: list[int | None] | None = found
        p_spans = [empty if r is None else p.spans[r] for r in found]
        gt = g.texts or [None] * len(g.ids)
        pt = p.texts or [None] * len(p.ids)
        g_texts = gt + [None] * len(extra)
        p_texts = [None if r is None else pt[r] for r in found]
        if missing:
            notes.append(
                f"{len(missing)} gold document(s) have no prediction and count as predicting no "
                f"entities: {quoted_ids(missing)}."
            )
        if extra:
            n_spans = sum(len(p.spans[pi[d]]) for d in extra)
            notes.append(
                f"{len(extra)} predicted document(s) are not in the gold data; their {n_spans} "
                f"span(s) count as false positives: {quoted_ids(extra)}."
            )
    else:
        if (g.ids is None) != (p.ids is None):
            keyed, plain = ("y_true", "y_pred") if g.ids is not None else ("y_pred", "y_true")
            if g.mapping or p.mapping:
                raise InputTypeError(
                    f"{keyed} is a mapping of document ids but {plain} is a plain list; give "
                    f"{plain} as {{doc_id: spans}} (or documents with ids) too."
                )
        if len(g.spans) != len(p.spans):
            raise LengthMismatchError(
                f"Gold has {len(g.spans)} documents but the prediction has {len(p.spans)}; "
                "documents without ids are paired by position, so both sides must list the "
                "same documents in the same order (or give documents ids to join them by id).",
                expected=len(g.spans), actual=len(p.spans),
            )
        ids = g.ids if g.ids is not None else p.ids
        g_spans, p_spans = g.spans, p.spans
        p_rows = None
        g_texts = g.texts or [None] * len(g.spans)
        p_texts = p.texts or [None] * len(p.spans)
    if g.texts is None and p.texts is None:  # no text on either side: nothing to compare
        return Joined(list(g_spans), list(p_spans), ids, None, notes, TextMismatches(),
                       p_rows)
    mismatches = compare_texts(ids, g_texts, p_texts)
    mismatches.warn()
    texts = [a if a is not None else b for a, b in zip(g_texts, p_texts, strict=True)]
    has_text = any(t is not None for t in texts)
    return Joined(list(g_spans), list(p_spans), ids, texts if has_text else None, notes,
                   mismatches, p_rows)
