"""Several annotators' annotations of the same documents, joined document by document.

:func:`join_annotations` reads two or more annotation sets, each in any shape
the scorers read (tag sequences, :class:`~nerscore.EncodedTags`, a reader's
result, span documents with or without ids, a mapping ``{doc_id: spans}``),
given as a sequence or as a mapping ``{annotator: annotation set}`` (what a
reader of a multi-annotator export yields).

- **Tags**: sentences are paired by position; every annotator must give the
  same number of sentences and of tokens in each.
- **Spans**: documents are joined by id when every set has ids (the union of
  the ids, in order of first appearance), by position otherwise (the same
  number of documents). A document that some annotator lacks is *absent* for
  that annotator: it is reported in :attr:`Annotated.notes` and left out of
  every pair and statistic that would need it, never read as "no entities"
  (adjudication decides it by the annotators who have it). Ids that leave
  no document with two annotators are a :class:`~nerscore.errors.FormatError`.
  When two annotators give different texts of a document, a
  :class:`~nerscore.errors.TextMismatchWarning` and a note name the pair and
  the documents (:mod:`nerscore.decode.text_agreement`, the check that
  scoring runs between gold and prediction); offsets are read against the
  text of the first annotator that gives one.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.decode.entities import decode_counted, strict_notes_by
from nerscore.decode.input_kind import input_kind
from nerscore.decode.inputs import prepare_spans, unwrap
from nerscore.decode.label_ops import relabel_entities, warn_unknown_labels
from nerscore.decode.span_sides import quoted_ids
from nerscore.decode.text_agreement import compare_texts
from nerscore.errors import FormatError, InputTypeError, LengthMismatchError, OptionError, quoted
from nerscore.values.decoding import Decoding
from nerscore.values.label_ops import LabelOps, label_notes
from nerscore.values.spans import Entity, EntityColumns, Span
from nerscore.values.tag_input import encode_lists
from nerscore.values.tags import EncodedTags

__all__ = ["DECIDED", "LEFT_OUT", "Annotated", "annotator_names", "join_annotations", "relabel",
           "tag_strings"]

BoolArray = npt.NDArray[np.bool_]
_SHOW = 5
#: One document's ignore regions: ``Span`` for every label, ``Entity`` for one.
Regions = tuple[Span | Entity, ...]

#: What agreement does with a document some annotators lack (the note's words).
LEFT_OUT = "are left out of the pairs and statistics that lack them"
#: What adjudication does with it.
DECIDED = "are decided by the annotators who have them"
#: The error of each task for fewer than two annotation sets.
_TOO_FEW = {"agreement": "Agreement needs two or more annotation sets; got {}.",
            "adjudication": "Adjudication votes among two or more annotation sets, one per "
                            "annotator; got {}."}


@dataclass(frozen=True, eq=False)
class Annotated:
    """Every annotator's entities over one joined list of documents.

    Attributes
    ----------
    names : tuple of str
        The annotators.
    kind : str
        ``"tags"`` or ``"spans"``.
    doc_ids : tuple of str, optional
        The id of each joined document (None: documents joined by position).
    present : array of bool, shape (n_annotators, n_documents)
        Which annotator annotated which document.
    entities : tuple of EntityColumns
        Per annotator, its entities; ``seq`` is the joined document index and
        every annotator's columns share one label vocabulary.
    tags : tuple of EncodedTags, optional
        Per annotator, its tags (tag input only).
    texts : tuple of (str or None), optional
        Per document, its text (span input with text).
    tokens : sequence of list of str, optional
        Per sentence, its tokens (tag input read from files).
    decoding : Decoding, optional
        How the tags were decoded (tag input only).
    notes : tuple of str
        The documents some annotators lack or whose texts differ between
        annotators, and what label operations did.
    relabelled : bool
        Label operations were applied to ``entities``: pairs are then scored
        on the entities, not on the raw ``tags``.
    regions : tuple of tuple of Regions, optional
        Per annotator, per document, its ignore regions (span input where
        some document has any; ``()`` for a document the annotator lacks).
    """

    names: tuple[str, ...]
    kind: str
    doc_ids: tuple[str, ...] | None
    present: BoolArray
    entities: tuple[EntityColumns, ...]
    tags: tuple[EncodedTags, ...] | None = None
    texts: tuple[str | None, ...] | None = None
    tokens: Sequence[list[str]] | None = None
    decoding: Decoding | None = None
    notes: tuple[str, ...] = ()
    relabelled: bool = False
    regions: tuple[tuple[Regions, ...], ...] | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        """The shared label vocabulary."""
        return self.entities[0].labels

    @property
    def n_documents(self) -> int:
        """Joined documents (sentences, for tag input)."""
        return int(self.present.shape[1])

    @property
    def unit(self) -> str:
        """What one joined document is: ``"sentence"`` for tag input, ``"document"`` otherwise."""
        return "sentence" if self.kind == "tags" else "document"

    def document_name(self, d: int) -> str:
        """How document ``d`` is shown: its id, or its position."""
        return self.doc_ids[d] if self.doc_ids is not None else str(d)


def annotator_names(annotations: object, names: Sequence[str] | None, *,
                    task: str = "agreement") -> tuple[list[str], list[Any]]:
    """The annotators' names and their annotation sets, checked.

    ``task`` (``"agreement"`` or ``"adjudication"``) words the error for
    fewer than two sets.

    Raises
    ------
    OptionError
        For fewer than two sets, names that do not fit, or repeated names.

    Examples
    --------
    >>> annotator_names([[["O"]], [["O"]]], None)[0]
    ['A', 'B']
    >>> annotator_names({"ann": [["O"]], "bob": [["O"]]}, None)[0]
    ['ann', 'bob']
    >>> annotator_names([[["O"]]], None, task="adjudication")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Adjudication votes among two or more annotation sets, one per annotator; got 1.
    """
    if isinstance(annotations, Mapping):
        given = [str(k) for k in annotations]
        sets = list(annotations.values())
    elif isinstance(annotations, Sequence) and not isinstance(annotations, (str, bytes)):
        sets = list(annotations)
        given = [_letter(k) for k in range(len(sets))]
    else:
        raise InputTypeError(
            "Expected `annotations` to be a sequence of annotation sets (one per annotator) or "
            f"a mapping {{annotator: annotation set}}; got {type(annotations).__name__}."
        )
    if len(sets) < 2:
        raise OptionError(_TOO_FEW[task].format(len(sets)))
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(sets):
            raise OptionError(f"Expected `names` to give one name per annotation set "
                              f"({len(sets)}); got {len(names)}.")
        given = names
    if len(set(given)) != len(given):
        raise OptionError(f"Expected distinct annotator names; got {given}.")
    return given, sets


def _letter(k: int) -> str:
    return chr(ord("A") + k) if k < 26 else f"annotator {k + 1}"


def join_annotations(
    annotations: object, *, names: Sequence[str] | None = None,
    decoding: Decoding | None = None, absent: str = LEFT_OUT, task: str = "agreement",
) -> Annotated:
    """Read every annotation set and join them document by document (see the module docstring).

    Parameters
    ----------
    annotations : sequence or mapping of annotation sets
        Two or more sets, one per annotator.
    names : sequence of str, optional
        The annotators' names (default: the mapping's keys, or A, B, C, ...).
    decoding : Decoding, optional
        How tags are decoded.
    absent : str
        What becomes of a document some annotators lack, as the note says it
        (:data:`LEFT_OUT` for agreement, :data:`DECIDED` for adjudication).
    task : {"agreement", "adjudication"}
        What the sets are joined for, as the error for fewer than two says.

    Returns
    -------
    Annotated

    Raises
    ------
    InputTypeError
        When some sets are tags and others spans, or ids are given by some only.
    LengthMismatchError
        When tag sets differ in sentences or tokens, or positional span sets
        in documents.
    FormatError
        When documents are joined by id and no document has two annotators.

    Examples
    --------
    >>> a = join_annotations({"x": {"d1": [(0, 4, "PER")], "d2": []},
    ...                       "y": {"d1": [(0, 4, "LOC")]}})
    >>> a.doc_ids, a.present.tolist(), a.labels
    (('d1', 'd2'), [[True, True], [True, False]], ('LOC', 'PER'))
    >>> a.notes
    ("1 document(s) are not annotated by every annotator and are left out of the pairs and statistics that lack them: 'd2' (missing for y).",)
    """
    decoding = Decoding() if decoding is None else decoding
    ann_names, sets = annotator_names(annotations, names, task=task)
    sets = [unwrap(s) for s in sets]
    kinds = [input_kind(s, s) for s in sets]
    if "spans" in kinds:  # a set without a single span or tag takes the others' kind
        kinds = ["spans" if k == "tags" and _empty(s) else k for k, s in zip(kinds, sets,
                                                                               strict=True)]
    if len(set(kinds)) > 1:
        shown = ", ".join(f"{n}: {k}" for n, k in zip(ann_names, kinds, strict=True))
        raise InputTypeError(f"Some annotation sets are tag sequences and others spans ({shown}); "
                             "give every annotator's set in the same form.")
    keys = list(annotations) if isinstance(annotations, Mapping) else range(len(sets))
    arguments = [f"annotations[{k!r}]" for k in keys]
    if kinds[0] == "tags":
        return _join_tags(ann_names, sets, decoding, arguments)
    given = decoding.given()
    if given:
        raise OptionError(f"{', '.join(given)} only apply to tag sequences, but the annotation "
                          "sets are spans; leave them out.")
    return _join_spans(ann_names, sets, absent, arguments)


def _empty(s: object) -> bool:
    return isinstance(s, (list, tuple)) and all(isinstance(x, (list, tuple)) and not x for x in s)


def _shared_labels(cols: list[EntityColumns]) -> list[EntityColumns]:
    labels = tuple(sorted({lab for c in cols for lab in c.labels}))
    return [c.with_labels(labels) for c in cols]


def _join_tags(names: list[str], sets: list[Any], decoding: Decoding,
               where: list[str]) -> Annotated:
    """Tag sets joined; ``where`` names each set as the caller gave it (for messages)."""
    encoded = [s if isinstance(s, EncodedTags) else encode_lists(s, w) for s, w in
               zip(sets, where, strict=True)]
    first = encoded[0]
    for enc, name in zip(encoded[1:], names[1:], strict=True):
        if enc.n_sequences != first.n_sequences:
            raise LengthMismatchError(
                f"Annotator {names[0]!r} has {first.n_sequences} sentences but {name!r} has "
                f"{enc.n_sequences}; tag sequences are paired by position, so every annotator "
                "must give the same sentences in the same order.",
                expected=first.n_sequences, actual=enc.n_sequences)
        bad = np.flatnonzero(enc.lengths != first.lengths)
        if len(bad):
            s = int(bad[0])
            raise LengthMismatchError(
                f"Sentence {s} has {int(first.lengths[s])} tokens for annotator {names[0]!r} but "
                f"{int(enc.lengths[s])} for {name!r}; every annotator must tag the same tokens.",
                expected=int(first.lengths[s]), actual=int(enc.lengths[s]))
    decoded = [decode_counted(enc, decoding) for enc in encoded]
    cols = _shared_labels([c for c, _ in decoded])
    notes = strict_notes_by({name: k for name, (_, k) in zip(names, decoded, strict=True)},
                            decoding.scheme_name)
    n = first.n_sequences
    cols = [EntityColumns(c.seq, c.start, c.end, c.label, c.labels, n, c.fragments)
            for c in cols]
    tokens = next((t for t in (e.sentence_tokens() for e in encoded) if t is not None), None)
    return Annotated(tuple(names), "tags", None, np.ones((len(names), n), dtype=bool),
                     tuple(cols), tags=tuple(encoded), tokens=tokens, decoding=decoding,
                     notes=notes)


def _join_spans(names: list[str], sets: list[Any], absent: str,
                arguments: list[str]) -> Annotated:
    preps = [prepare_spans(s, s, annotator=name, sides=(arg, arg))
             for name, s, arg in zip(names, sets, arguments, strict=True)]
    # a set without documents has neither ids nor positions: it joins either way
    with_ids = [p.doc_ids is not None for p in preps if p.gold.n_sequences]
    if any(with_ids) and not all(with_ids):
        plain = [n for n, p in zip(names, preps, strict=True)
                 if p.gold.n_sequences and p.doc_ids is None]
        raise InputTypeError(
            f"The documents of {', '.join(map(repr, plain))} have no ids but the others' have; "
            "give every annotator's documents ids (to join them by id) or none (by position).")
    if any(with_ids):
        order: dict[str, int] = {}
        for p in preps:
            for d in p.doc_ids or ():
                order.setdefault(d, len(order))
        doc_ids: tuple[str, ...] | None = tuple(order)
        rows = [np.array([order[d] for d in p.doc_ids or ()], dtype=np.int64) for p in preps]
    else:
        counts = [p.gold.n_sequences for p in preps]
        if len(set(counts)) > 1:
            shown = ", ".join(f"{n}: {c}" for n, c in zip(names, counts, strict=True))
            raise LengthMismatchError(
                f"The annotation sets have different numbers of documents ({shown}); documents "
                "without ids are paired by position, so give the same documents in the same "
                "order, or give them ids.", expected=counts[0], actual=max(counts))
        doc_ids = None
        rows = [np.arange(counts[0], dtype=np.int64) for _ in preps]
    n_docs = len(doc_ids) if doc_ids is not None else int(rows[0].size)
    present = np.zeros((len(names), n_docs), dtype=bool)
    for a, r in enumerate(rows):
        present[a, r] = True
    if n_docs and not (present.sum(axis=0) >= 2).any():
        shown = "; ".join(f"{quoted(n)}: {quoted_ids(p.doc_ids or []) or 'none'}"
                          for n, p in zip(names, preps, strict=True))
        raise FormatError(f"No document is annotated by two or more annotators, so there is "
                          f"nothing to compare (ids of {shown}); documents are joined by id, so "
                          "check that every annotator's documents use the same ids.")
    by_annotator: list[list[str | None]] = []
    cols: list[EntityColumns] = []
    regions: list[tuple[Regions, ...]] = []
    for p, r in zip(preps, rows, strict=True):
        g = p.gold
        cols.append(EntityColumns(r[g.seq] if len(g) else g.seq, g.start, g.end, g.label,
                                  g.labels, n_docs, g.fragments))
        own: list[str | None] = [None] * n_docs
        for k, text in enumerate(p.texts or ()):
            own[r[k]] = text
        by_annotator.append(own)
        mine: list[Regions] = [()] * n_docs
        for k, given in enumerate(p.regions or ()):
            mine[r[k]] = given
        regions.append(tuple(mine))
    texts = [next((t[d] for t in by_annotator if t[d] is not None), None) for d in range(n_docs)]
    notes = _differing_texts(names, doc_ids, by_annotator)
    lacking = np.flatnonzero(~present.all(axis=0))
    if len(lacking):
        shown = "; ".join(
            f"{_name(doc_ids, int(d))!r} (missing for "
            f"{', '.join(n for n, ok in zip(names, present[:, d], strict=True) if not ok)})"
            for d in lacking[:_SHOW])
        more = f"; ... ({len(lacking) - _SHOW} more)" if len(lacking) > _SHOW else ""
        notes += (f"{len(lacking)} document(s) are not annotated by every annotator and "
                  f"{absent}: {shown}{more}.",)
    has_text = any(t is not None for t in texts)
    return Annotated(tuple(names), "spans", doc_ids, present, tuple(_shared_labels(cols)),
                     texts=tuple(texts) if has_text else None, notes=notes,
                     regions=tuple(regions) if any(p.regions for p in preps) else None)


def _differing_texts(names: list[str], doc_ids: tuple[str, ...] | None,
                     texts: list[list[str | None]]) -> tuple[str, ...]:
    """A note and a :class:`~nerscore.errors.TextMismatchWarning` per pair with differing texts.

    The check is :mod:`nerscore.decode.text_agreement`'s, between gold and prediction.
    """
    notes = []
    for i, j in itertools.combinations(range(len(names)), 2):
        mismatches = compare_texts(doc_ids, texts[i], texts[j])
        if mismatches:
            mismatches.warn((names[i], names[j]))
            notes.append(mismatches.note((names[i], names[j])))
    return tuple(notes)


def _name(doc_ids: tuple[str, ...] | None, d: int) -> str:
    return doc_ids[d] if doc_ids is not None else str(d)


def tag_strings(annotated: Annotated) -> tuple[tuple[str, ...], list[npt.NDArray[np.int64]]]:
    """Every annotator's raw tags as ids into one shared vocabulary (tag input only)."""
    assert annotated.tags is not None
    vocab = tuple(sorted({t for enc in annotated.tags for t in enc.vocab}))
    index = {t: i for i, t in enumerate(vocab)}
    ids = [np.array([index[t] for t in enc.vocab], dtype=np.int64)[enc.ids]
           for enc in annotated.tags]
    return vocab, ids



def relabel(annotated: Annotated, ops: LabelOps) -> Annotated:
    """Every annotator's entities with the label operations ``ops`` applied.

    The operations act on decoded entities (a renamed label never joins two
    entities), the same way for every annotator; the annotators' columns keep
    one shared vocabulary, and the notes say what was renamed, merged and
    removed, summed over the annotators. Labels ``ops`` names that no
    annotator used are an :class:`~nerscore.errors.UnknownLabelWarning`.

    Examples
    --------
    >>> a = join_annotations({"a": {"d": [(0, 2, "GPE"), (3, 4, "MISC")]},
    ...                       "b": {"d": [(0, 2, "LOC")]}})
    >>> r = relabel(a, LabelOps({"GPE": "LOC"}, drop=["MISC"]))
    >>> r.labels, [len(c) for c in r.entities]
    (('LOC',), [1, 1])
    >>> for n in r.notes:
    ...     print(n)
    Labels renamed (labels_map): GPE -> LOC (1 entity).
    Labels merged (labels_map): GPE and LOC are written as LOC.
    Labels removed (keep/drop): MISC (1 entity).
    """
    if not ops:
        return annotated
    warn_unknown_labels(ops, annotated.labels)
    tallies: dict[str, int] = {}
    relabelled = []
    for cols in annotated.entities:
        new, counted = relabel_entities(cols, ops)
        relabelled.append(new)
        for k, v in counted.items():
            tallies[k] = tallies.get(k, 0) + v
    labels = tuple(sorted({lab for c in relabelled for lab in c.labels}))
    regions, removed = _relabel_regions(annotated.regions, ops)
    return dataclasses.replace(
        annotated, entities=tuple(c.with_labels(labels) for c in relabelled),
        notes=annotated.notes + label_notes(tallies, one_side=True) + removed,
        relabelled=True, regions=regions)


def _relabel_regions(regions: tuple[tuple[Regions, ...], ...] | None, ops: LabelOps) -> tuple[
        tuple[tuple[Regions, ...], ...] | None, tuple[str, ...]]:
    """The regions with ``ops`` applied to their labels, and a note on those removed.

    A region of one label takes the label's new name; a region of a label
    ``ops`` removes is removed with it (its entities are gone); a region of
    every label stays.

    Examples
    --------
    >>> r, notes = _relabel_regions((((Entity(Span(0, 2), "GPE"), Entity(Span(3, 4), "MISC"),
    ...                                Span(5, 6)),),), LabelOps({"GPE": "LOC"}, drop=["MISC"]))
    >>> [(x.start, x.end, getattr(x, "label", None)) for x in r[0][0]]
    [(0, 2, 'LOC'), (5, 6, None)]
    >>> notes
    ('Ignore regions removed with their labels (keep/drop): MISC (1 region).',)
    """
    if regions is None:
        return None, ()
    removed: dict[str, int] = {}

    def renamed(region: Span | Entity) -> Span | Entity | None:
        if not isinstance(region, Entity):
            return region
        new = ops.new_label(region.label)
        if new is None:
            removed[region.label] = removed.get(region.label, 0) + 1
            return None
        return region if new == region.label else dataclasses.replace(region, label=new)

    out = tuple(tuple(tuple(x for x in map(renamed, doc) if x is not None) for doc in docs)
                for docs in regions)
    if not removed:
        return out, ()
    shown = ", ".join(f"{lab} ({n} region{'s' if n > 1 else ''})"
                      for lab, n in sorted(removed.items()))
    return out, (f"Ignore regions removed with their labels (keep/drop): {shown}.",)
