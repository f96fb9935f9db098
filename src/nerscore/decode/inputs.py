"""Turning what users pass (tag sequences, encoded tags, spans, documents) into entity columns.

Two kinds of input reach every scorer through :func:`prepare`:

- **Tags**: a list of tag sequences (a list of lists of ``str``) or
  :class:`~nerscore.EncodedTags`; decoded with ``scheme``/``mode``.
- **Spans**: per document, a list of ``(start, end, label)`` tuples,
  ``{"start", "end", "label"}`` dicts or :class:`~nerscore.Entity` objects;
  or documents with ids (a list of :class:`~nerscore.Document`, a list of
  ``{"id", "text", "spans"}`` dicts — ``"entities"`` is accepted for
  ``"spans"`` — or a mapping ``{doc_id: spans}``).

Which kind an input is: :func:`~nerscore.decode.input_kind.input_kind`.

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

Ignore regions (``Document.ignore``, a document dict's ``"ignore"``) are
taken from the gold documents and applied before matching
(:mod:`.ignore`): predictions in them are removed and counted in
``Prepared.tallies``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any, NamedTuple, cast

import numpy as np

from nerscore.decode.entities import decode_counted
from nerscore.decode.ignore import ignore_predictions
from nerscore.decode.input_kind import input_kind, item_kind
from nerscore.decode.text_agreement import TextMismatches, compare_texts
from nerscore.errors import (
    FormatError,
    InputTypeError,
    InvalidSpanError,
    LengthMismatchError,
    OptionError,
    quoted,
)
from nerscore.values.decoding import Decoding
from nerscore.values.documents import Document, coerce_regions, is_int, span_columns
from nerscore.values.spans import Entity, EntityColumns, Span
from nerscore.values.tags import EncodedTags, encode_pair

__all__ = ["Prepared", "prepare", "prepare_spans", "quoted_ids", "unwrap"]

_SHOW = 5  # ids listed in notes and messages


@dataclass(frozen=True, eq=False)
class Prepared:
    """Both sides as entity columns, with the encoded tags when the input was tags.

    ``join_notes`` say how span documents were joined (documents one side
    lacks); ``text_mismatches`` are the documents whose texts differ;
    :attr:`notes` are both, as the report shows them. ``tallies`` count
    the ignore regions and the predictions removed in them (see
    :attr:`nerscore.Counts.tallies`); ``regions`` are gold's ignore regions
    per document (None when no gold document has any).
    """

    gold: EntityColumns
    pred: EntityColumns
    tags: tuple[EncodedTags, EncodedTags] | None
    scheme: str | None
    mode: str | None
    doc_ids: list[str] | None = None
    texts: Sequence[Any] | None = None
    join_notes: tuple[str, ...] = ()
    decoding: Decoding | None = None
    text_mismatches: TextMismatches = field(default_factory=TextMismatches)
    tallies: Mapping[str, int] = field(default_factory=dict)
    regions: Sequence[tuple[Span | Entity, ...]] | None = None
    strict_unread: tuple[int, int] = (0, 0)
    """Tag runs of gold and of the prediction that strict mode read as no entity
    (:func:`~nerscore.decode.entities.decode_counted`; 0 in the other modes)."""

    @property
    def notes(self) -> tuple[str, ...]:
        """The join notes, then the note on differing texts (if any)."""
        if self.text_mismatches:
            return (*self.join_notes, self.text_mismatches.note())
        return self.join_notes

    @property
    def n_sequences(self) -> int:
        """Number of sentences or documents."""
        return max(self.gold.n_sequences, self.pred.n_sequences)

    @property
    def n_tokens(self) -> int | None:
        """Number of tokens (tag input only)."""
        return len(self.tags[0]) if self.tags is not None else None

    def tokens_correct(self) -> int:
        """Tokens whose gold and predicted tag strings are equal."""
        if self.tags is None:
            return 0
        return int(np.count_nonzero(self.tags[0].ids == self.tags[1].ids))


def prepare(y_true: object, y_pred: object, decoding: Decoding | None = None) -> Prepared:
    """Turn both sides (tag sequences, spans or entity columns) into entity columns.

    Tags are decoded with ``decoding``; span inputs are checked and joined
    (see the module docstring) and must not be given decoding options.

    Examples
    --------
    >>> p = prepare([[(0, 4, "PER")], []], [[(0, 4, "PER")], [(2, 3, "LOC")]])
    >>> p.gold.n_sequences, p.pred.labels, p.scheme, p.mode
    (2, ('LOC', 'PER'), None, None)
    >>> prepare([["B-PER", "O"]], [["B-PER", "B-LOC"]]).pred.labels
    ('LOC', 'PER')
    """
    decoding = Decoding() if decoding is None else decoding
    y_true, y_pred = unwrap(y_true), unwrap(y_pred)
    if isinstance(y_true, EntityColumns) and isinstance(y_pred, EntityColumns):
        _check_no_tag_options(decoding, "entity columns")
        return Prepared(y_true, y_pred, None, None, None)
    if input_kind(y_true, y_pred) == "spans":
        _check_no_tag_options(decoding, "spans")
        return prepare_spans(y_true, y_pred)
    t, p = encode_pair(y_true, y_pred)
    gold, g_unread = decode_counted(t, decoding)
    # one corpus against itself: decoded once
    pred, p_unread = (gold, g_unread) if p is t else decode_counted(p, decoding)
    tokens = t.sentence_tokens() or p.sentence_tokens()  # tags read from a file
    return Prepared(gold, pred, (t, p), decoding.scheme_name, decoding.mode.value,
                    texts=tokens, decoding=decoding, strict_unread=(g_unread, p_unread))


def unwrap(y: object) -> object:
    """What a reader returned, as a scorer takes it: a corpus's tags or a folder's documents.

    A file reader's result (:class:`~nerscore.io.conll.ConllCorpus`, the
    documents of :func:`~nerscore.read_brat`) can be passed as it is: an
    object with ``tags`` (:class:`EncodedTags`) is its tags (their tokens
    give the context of error listings), one with a list ``documents`` is
    those documents.

    Examples
    --------
    >>> class Corpus:
    ...     tags = EncodedTags.from_lists([["B-X", "O"]])
    >>> unwrap(Corpus()).to_lists()
    [['B-X', 'O']]
    """
    if isinstance(y, (EncodedTags, EntityColumns, str, bytes, Mapping, list)):
        return y
    tags = getattr(y, "tags", None)
    if isinstance(tags, EncodedTags):
        return tags
    documents = getattr(y, "documents", None)
    if isinstance(documents, list) and all(isinstance(d, Document) for d in documents):
        return documents
    return y


def _check_no_tag_options(decoding: Decoding, what: str) -> None:
    given = decoding.given()
    if given:
        raise OptionError(
            f"{', '.join(given)} only appl{'y' if len(given) > 1 else 'ies'} to tag sequences, "
            f"but y_true and y_pred are {what}; leave them out."
        )


# --------------------------------------------------------------------------- span sides


@dataclass
class _Side:
    """One side of a span input, normalised: per-document spans, ids, texts."""

    spans: list[Sequence[Any]]
    ids: list[str] | None
    texts: list[str | None] | None
    mapping: bool = False
    where: list[str] | None = None  # per document: "file, line n" when known
    ignore: list[tuple[Span | Entity, ...]] | None = None  # per document, when some has regions
    by_sentence: bool = False  # a flat list of entities, grouped by their sentence


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


def _side(y: object, name: str) -> _Side:
    if type(y) is dict and set(map(type, y)) <= {str} and set(map(type, y.values())) <= {
            tuple, list}:  # {doc_id: spans}, read as the loop below reads it, in C
        return _Side(list(y.values()), list(y), None, mapping=True)
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
        return _Side(spans, ids, texts if any(t is not None for t in texts) else None,
                     mapping=True, ignore=regions if any(regions) else None)
    if isinstance(y, (str, bytes)) or not isinstance(y, Sequence):
        raise InputTypeError(
            f"Expected `{name}` to be spans per document (a list of lists of (start, end, label)), "
            f"documents or a mapping {{doc_id: spans}}; got {type(y).__name__}."
        )
    items = list(y)
    if not items:
        return _Side([], None, None)
    first = items[0]
    if isinstance(first, Document) or (isinstance(first, Mapping) and "start" not in first):
        return _document_side(items, name)
    if isinstance(first, Entity) and set(map(type, items)) == {Entity}:
        return _entity_side(items, name)
    if item_kind(first) == "spans":  # a single document as a flat list of spans
        return _Side([items], None, None)
    if set(map(type, items)) <= {list, tuple}:
        return _Side(items, None, None)
    for k, item in enumerate(items):
        if isinstance(item, (str, bytes, Document, Mapping)) or not isinstance(item, Sequence):
            raise InputTypeError(
                f"Expected every item of `{name}` to be one document's list of spans; "
                f"item {k} is {type(item).__name__} {quoted(item)}."
            )
    return _Side(items, None, None)


def _entity_side(items: list[Entity], name: str) -> _Side:
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
    return _Side(list[Sequence[Any]](docs), None, None, by_sentence=True)


def _pad_sentences(g: _Side, p: _Side) -> tuple[_Side, _Side]:
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


def _document_side(items: list[Any], name: str) -> _Side:
    ids: list[Any] = []
    texts: list[str | None] = []
    spans: list[Sequence[Any]] = []
    where: list[str] = []
    regions: list[tuple[Span | Entity, ...]] = []
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
    return _Side(spans, None if n_missing else ids,
                 texts if texts.count(None) < len(texts) else None,
                 where=where, ignore=regions if any(regions) else None)


def _check_unique(side: _Side, name: str) -> dict[str, int]:
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


class _Joined(NamedTuple):
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


def _join(g: _Side, p: _Side) -> _Joined:
    notes: list[str] = []
    if g.ids is not None and p.ids is None and not p.spans:  # nothing predicted: by id
        p = replace(p, ids=[])
    if g.ids is not None and p.ids is not None:
        gi = _check_unique(g, "y_true")
        pi = _check_unique(p, "y_pred")
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
        return _Joined(list(g_spans), list(p_spans), ids, None, notes, TextMismatches(),
                       p_rows)
    mismatches = compare_texts(ids, g_texts, p_texts)
    mismatches.warn()
    texts = [a if a is not None else b for a, b in zip(g_texts, p_texts, strict=True)]
    has_text = any(t is not None for t in texts)
    return _Joined(list(g_spans), list(p_spans), ids, texts if has_text else None, notes,
                   mismatches, p_rows)


def _columns(
    span_lists: list[Sequence[Any]], names: Sequence[str | int],
    texts: list[str | None] | None, side: str,
) -> EntityColumns:
    lengths = None if texts is None else list(map(len, cast("list[str]", texts))) if None not in texts else [
        None if t is None else len(t) for t in texts]
    return span_columns(span_lists, names=names, text_lengths=lengths, side=side)


def _checked_columns(
    span_lists: list[Sequence[Any]], names: Sequence[str | int],
    texts: list[str | None] | None, side: str, textless: bool,
) -> EntityColumns:
    """:func:`_columns`; a span past a text the other side gave says whose text it is.

    Examples
    --------
    >>> _checked_columns([[(0, 9, "X")]], ["a"], ["Anna"], "y_pred", True)
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: Span 0 (0, 9, 'X') of document 'a' of y_pred ends beyond the text, which has 4 characters; offsets are Python str indices into the document text. y_pred gives no text, so its spans are checked against y_true's text of the same document: check that both sides hold the same documents, with the same ids.
    """
    try:
        return _columns(span_lists, names, texts, side)
    except InvalidSpanError as exc:
        if not textless or "ends beyond the text" not in str(exc):
            raise
        other = "y_pred" if side == "y_true" else "y_true"
        raise InvalidSpanError(
            f"{exc} {side} gives no text, so its spans are checked against {other}'s text of "
            "the same document: check that both sides hold the same documents, with the same "
            "ids.", document=exc.document, spans=exc.spans) from None


def prepare_spans(y_true: object, y_pred: object | None, *,
                  pred_columns: EntityColumns | None = None,
                  annotator: str | None = None) -> Prepared:
    """Check, join and convert span inputs (see the module docstring).

    ``pred_columns`` are the predicted spans already as columns over the
    gold documents, their ``seq`` indexing ``y_true`` (``y_pred`` is then
    None). ``annotator`` names whose documents ``y_true`` are, where they
    are not gold (agreement), for the error of an entity in their own
    ignore region.

    Raises
    ------
    InvalidSpanError
        For a malformed, negative, reversed or out-of-text span, naming the
        side, the document and the span.
    FormatError
        For duplicate ids, or ids that do not match at all.
    LengthMismatchError
        For positional inputs with different numbers of documents.

    Examples
    --------
    >>> gold = [Document("a", [(0, 4, "PER")], text="Anna Berlin"), Document("b", [])]
    >>> p = prepare_spans(gold, {"a": [(5, 11, "LOC")], "c": [(0, 1, "X")]})
    >>> p.doc_ids, p.pred.seq.tolist(), p.pred.labels
    (['a', 'b', 'c'], [0, 2], ('LOC', 'X'))
    >>> p.notes[0]
    "1 gold document(s) have no prediction and count as predicting no entities: 'b'."
    """
    g = _side(y_true, "y_true")
    if pred_columns is None:
        g, p = _pad_sentences(g, _side(y_pred, "y_pred"))
        joined = _join(g, p)
    else:  # columns over the gold documents: nothing to join
        p = _Side([()] * len(g.spans), None, None)
        if g.ids is not None:
            _check_unique(g, "y_true")
        joined = _Joined(list(g.spans), p.spans, g.ids, g.texts, [], TextMismatches(), None)
    ids, texts = joined.ids, joined.texts
    names: Sequence[str | int] = ids if ids is not None else range(len(joined.g_spans))
    gold = _checked_columns(joined.g_spans, names, texts, "y_true", g.texts is None)
    pred = _checked_columns(joined.p_spans, names, texts, "y_pred", p.texts is None) \
        if pred_columns is None else pred_columns
    notes: list[str] = list(joined.notes)
    tallies: dict[str, int] = {}
    g_regions: list[tuple[Span | Entity, ...]] | None = None
    if g.ignore is not None or p.ignore is not None:
        n = len(joined.g_spans)
        g_regions = (g.ignore or [()] * len(g.spans)) + [()] * (n - len(g.spans))
        rows = joined.p_rows if joined.p_rows is not None else range(len(p.spans))
        p_regions = [() if r is None or p.ignore is None else p.ignore[r] for r in rows]
        where = (g.where or [""] * len(g.spans)) + [""] * (n - len(g.spans))
        pred, tallies, more = ignore_predictions(gold, pred, g_regions, p_regions, names,
                                                 where=where, annotator=annotator)
        notes += more
    return Prepared(gold, pred, None, None, None, doc_ids=ids, texts=texts,
                    join_notes=tuple(notes), text_mismatches=joined.mismatches,
                    tallies=tallies, regions=g_regions if g.ignore is not None else None)
