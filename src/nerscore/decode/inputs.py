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

Span documents are read side by side and paired by id or by position
(:mod:`.span_sides`, never a silent drop).

Ignore regions (``Document.ignore``, a document dict's ``"ignore"``) are
taken from the gold documents and applied before matching
(:mod:`.ignore`): predictions in them are removed and counted in
``Prepared.tallies``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from nerscore.decode.entities import decode_counted
from nerscore.decode.ignore import ignore_predictions
from nerscore.decode.input_kind import input_kind
from nerscore.decode.span_sides import (
    Joined,
    Side,
    check_unique,
    join_sides,
    pad_sentences,
    side_of,
)
from nerscore.decode.text_agreement import TextMismatches
from nerscore.errors import (
    InvalidSpanError,
    OptionError,
)
from nerscore.values.decoding import Decoding
from nerscore.values.documents import Document, span_columns
from nerscore.values.spans import Entity, EntityColumns, Span
from nerscore.values.tag_input import encode_pair
from nerscore.values.tags import EncodedTags

__all__ = ["Prepared", "prepare", "prepare_spans", "unwrap"]


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
                  annotator: str | None = None,
                  sides: tuple[str, str] = ("y_true", "y_pred")) -> Prepared:
    """Check, join and convert span inputs (see the module docstring).

    ``pred_columns`` are the predicted spans already as columns over the
    gold documents, their ``seq`` indexing ``y_true`` (``y_pred`` is then
    None). ``annotator`` names whose documents ``y_true`` are, where they
    are not gold (agreement), for the error of an entity in their own
    ignore region; ``sides`` are how messages name the two arguments
    (agreement: ``annotations['ann1']`` for both).

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
    g_name, p_name = sides
    g = side_of(y_true, g_name)
    if pred_columns is None:
        g, p = pad_sentences(g, side_of(y_pred, p_name))
        joined = join_sides(g, p)
    else:  # columns over the gold documents: nothing to join
        p = Side([()] * len(g.spans), None, None)
        if g.ids is not None:
            check_unique(g, g_name)
        joined = Joined(list(g.spans), p.spans, g.ids, g.texts, [], TextMismatches(), None)
    ids, texts = joined.ids, joined.texts
    names: Sequence[str | int] = ids if ids is not None else range(len(joined.g_spans))
    gold = _checked_columns(joined.g_spans, names, texts, g_name, g.texts is None)
    pred = _checked_columns(joined.p_spans, names, texts, p_name, p.texts is None) \
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
