"""Tag sequences to entities and back (definitions: ``docs/schemes.md``).

:func:`tags_to_entities` decodes in three modes (``lenient``, ``strict``,
``conlleval``) with one vectorised decoder over the whole corpus;
:func:`entities_to_tags` writes entities in any scheme.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from nerscore.decode.decoder import (
    decode_chunks,
    decode_events_ids_seq,
    flatten_with_separators,
)
from nerscore.errors import InputTypeError, InvalidSpanError, OptionError
from nerscore.values import schemes as sc
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import Entity, EntityColumns
from nerscore.values.tag_input import encode_lists
from nerscore.values.tags import EncodedTags, check_vocab, parse_vocab

__all__ = ["decode", "decode_counted", "entities_to_tags", "strict_notes",
           "strict_notes_by", "tags_to_entities", "write_tags"]


def decode(enc: EncodedTags, decoding: Decoding) -> EntityColumns:
    """Decode an encoded corpus into entity columns (the hot path behind every scorer)."""
    return decode_counted(enc, decoding)[0]


def decode_counted(enc: EncodedTags, decoding: Decoding) -> tuple[EntityColumns, int]:
    """:func:`decode`, and the number of tag runs that strict mode reads as no entity.

    A tag run is a stretch of tokens with entity tags (not the outside tag)
    that no entity covers, cut where lenient mode would begin a new entity:
    what lenient mode reads as an entity and strict mode drops (an ``I-PER``
    after ``O`` in IOB2). Lenient and conlleval modes read every such run as
    an entity: the count is 0 for them, and costs nothing; in strict mode it
    costs two counts over the tokens when every entity tag is in an entity.

    Examples
    --------
    >>> enc = EncodedTags.from_lists([["I-PER", "I-PER", "O", "B-LOC"], ["I-X", "I-Y"]])
    >>> cols, unread = decode_counted(enc, Decoding("IOB2", "strict"))
    >>> len(cols), unread
    (1, 3)
    >>> decode_counted(enc, Decoding("IOB2"))[1]
    0
    """
    decoding.check_decodable()
    table, m = decoding.table, decoding.mode
    if m is Mode.CONLLEVAL:
        from nerscore.decode.conlleval_rules import decode_conlleval

        return decode_conlleval(enc, delimiter=decoding.delimiter), 0
    parsed = parse_vocab(enc.vocab, decoding)
    check_vocab(parsed, enc)
    order = sorted(range(len(parsed.labels)), key=parsed.labels.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    labels = tuple(parsed.labels[i] for i in order)
    if m is Mode.STRICT:
        assert table is not None
        cls, ext_offsets = flatten_with_separators(parsed.cls[enc.ids], enc.offsets, sc.O)
        typ, _ = flatten_with_separators(parsed.label[enc.ids], enc.offsets, -1)
        begin, end, lab = decode_chunks(
            cls.astype(np.int8, copy=False), typ.astype(np.int64, copy=False),
            table.start, table.inside, table.end,
        )
        unread = _unread_runs(cls, typ, begin, end)
        seq = np.searchsorted(ext_offsets, begin, side="right") - 1
        start = begin - ext_offsets[seq]
        lab = rank[lab] if len(lab) else lab
        return (EntityColumns(seq, start, start + (end - begin), lab, labels, enc.n_sequences),
                unread)
    # lenient: the event rules, one table lookup per token, no separators
    begin, end, seq = decode_events_ids_seq(enc.ids, enc.offsets, parsed.cls, parsed.label,
                                            sc.LENIENT)
    start = begin - enc.offsets[seq]
    tag_rank = np.where(parsed.label >= 0, rank[np.maximum(parsed.label, 0)], -1) \
        if len(rank) else parsed.label
    lab = tag_rank[enc.ids[end - 1]]
    return EntityColumns(seq, start, start + (end - begin), lab, labels, enc.n_sequences), 0


#: Classes after which, and at which, a lenient entity goes on (:data:`~nerscore.values.schemes.LENIENT`
#: between two tokens with entity tags of one type: no end after E or S, no start at B or S).
_GOES_ON_AFTER = np.isin(np.arange(sc.N_CLASSES), [sc.E, sc.S], invert=True)
_GOES_ON_AT = np.isin(np.arange(sc.N_CLASSES), [sc.B, sc.S], invert=True)


def _unread_runs(cls: npt.NDArray[np.generic], typ: npt.NDArray[np.generic],
                 begin: npt.NDArray[np.int64], end: npt.NDArray[np.int64]) -> int:
    """Tag runs that no chunk ``[begin, end)`` covers (flat coordinates, separators ``O``)."""
    n = len(cls)
    entity = cls != sc.O
    if int(np.count_nonzero(entity)) == int((end - begin).sum()):  # every entity tag covered
        return 0
    depth = np.zeros(n + 1, dtype=np.int8)  # chunks do not overlap: 1 inside one, else 0
    depth[begin] = 1
    depth[end] -= 1
    loose = entity & (np.cumsum(depth[:n], dtype=np.int8) == 0)
    pos = np.flatnonzero(loose)
    prev = np.maximum(pos - 1, 0)
    # lenient mode goes on from the token before (an entity tag, never at position 0)
    joined = (loose[prev] & (pos > 0) & (typ[prev] == typ[pos])
              & _GOES_ON_AFTER[cls[prev]] & _GOES_ON_AT[cls[pos]])
    return int(len(pos) - np.count_nonzero(joined))


#: Per scheme, what strict mode reads as an entity (for :func:`strict_notes`).
_WELL_FORMED = {
    "IOB2": "an IOB2 entity begins with B",
    "IOE2": "an IOE2 entity ends with E",
    "IOBES": "an IOBES entity is B, I..., E or one S",
    "BILOU": "a BILOU entity is B, I..., L or one U",
    "BMES": "a BMES entity is B, M..., E or one S",
}


def strict_notes(gold: int, pred: int, scheme: str | None) -> tuple[str, ...]:
    """The note on the tag runs that strict mode read as no entity (none when there are none).

    Parameters
    ----------
    gold, pred : int
        The tag runs of each side (:func:`decode_counted`, summed over batches).
    scheme : str or None
        The scheme's name.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> strict_notes(3, 5, "IOB2")[0]
    "Strict mode (IOB2) read 3 gold and 5 predicted tag runs as no entity: an IOB2 entity begins with B. Lenient mode (mode='lenient') reads them as entities."
    >>> strict_notes(0, 0, "IOB2")
    ()
    """
    g, p = int(gold), int(pred)
    if not g and not p:
        return ()
    return (_strict_note(f"{g} gold and {p} predicted", g + p, scheme),)


def strict_notes_by(unread: dict[str, int], scheme: str | None) -> tuple[str, ...]:
    """The note on the tag runs that strict mode read as no entity, per named set of tags.

    Parameters
    ----------
    unread : dict of str to int
        Per set (an annotator), its tag runs (:func:`decode_counted`).
    scheme : str or None
        The scheme's name.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> strict_notes_by({"ana": 0, "ben": 1}, "IOB2")[0]
    "Strict mode (IOB2) read 1 tag run as no entity (ana 0, ben 1): an IOB2 entity begins with B. Lenient mode (mode='lenient') reads it as an entity."
    >>> strict_notes_by({"ana": 0, "ben": 0}, "IOB2")
    ()
    """
    n = sum(int(v) for v in unread.values())
    if not n:
        return ()
    each = ", ".join(f"{k} {int(v)}" for k, v in unread.items())
    return (_strict_note(str(n), n, scheme, f" ({each})"),)


def _strict_note(counted: str, n: int, scheme: str | None, each: str = "") -> str:
    rule = _WELL_FORMED.get(str(scheme))
    why = f": {rule}" if rule else f", as they break {scheme}'s strict patterns (seqeval's)"
    runs = "tag run" if n == 1 else "tag runs"
    return (f"Strict mode ({scheme}) read {counted} {runs} as no entity{each}{why}. "
            f"Lenient mode (mode='lenient') reads "
            f"{'it as an entity' if n == 1 else 'them as entities'}.")


def tags_to_entities(
    tags: Sequence[str] | Sequence[Sequence[str]] | EncodedTags,
    *,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
) -> list[Entity]:
    """Decode tag sequences into entities.

    Parameters
    ----------
    tags : list of str, list of list of str, array of str, or EncodedTags
        One sequence, or one sequence per sentence: a sentence may be a 1-D
        NumPy array of ``str``, and a 2-D one holds one sentence per row (read
        as every function taking tags reads them: ``docs/schemes.md``, "Tag
        input").
    scheme : str or Scheme, optional
        ``IO``, ``IOB1``, ``IOB2``/``BIO``, ``IOE1``, ``IOE2``, ``IOBES``/``BIOES``,
        ``BILOU`` or ``BMES``. Required by ``mode="strict"``; when given, tags
        with prefixes the scheme does not use are an error.
    mode : {"lenient", "strict", "conlleval"}
        ``lenient`` reads malformed chunks as the conlleval script and seqeval
        do (an ``I-X`` after ``O`` begins an entity); ``strict`` keeps only
        well-formed chunks of ``scheme`` (seqeval's strict mode);
        ``conlleval`` is the Perl script's own chunking, quirks included.
    suffix : bool
        Tags are written ``TYPE-PREFIX``.
    delimiter : str
        Between prefix and type.
    outside : str
        The outside tag.

    Returns
    -------
    list of Entity
        Sorted by sentence and position; ``sentence`` is the sequence index.

    Raises
    ------
    InvalidTagError
        For a tag that cannot be parsed, naming it and where it is.
    SchemeError
        For an unknown scheme, or ``strict`` without one.

    Notes
    -----
    Lenient rules (``docs/schemes.md``): an entity ends between tokens p and c when p
    is E or S, when p is B/I and c is B, S or O, or when p is not O and the
    types differ; it starts at c when c is B or S, when c is E/I and p is E,
    S or O, or when c is not O and the types differ. ``U``, ``L`` and ``M``
    are read as ``S``, ``E`` and ``I``.

    Examples
    --------
    >>> tags_to_entities(["B-PER", "I-PER", "O", "I-LOC"])
    [Entity(span=Span(start=0, end=2), label='PER', sentence=0), Entity(span=Span(start=3, end=4), label='LOC', sentence=0)]
    >>> len(tags_to_entities(["I-PER", "I-PER"], scheme="IOB2", mode="strict"))
    0
    """
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    enc = tags if isinstance(tags, EncodedTags) else encode_lists(tags, "tags")
    return decode(enc, decoding).sorted().to_entities()


_WRITE_LETTERS = {
    Scheme.IO: {sc.B: "I", sc.I: "I", sc.E: "I", sc.S: "I"},
    Scheme.IOB1: {sc.B: "B", sc.I: "I"},
    Scheme.IOB2: {sc.B: "B", sc.I: "I"},
    Scheme.IOE1: {sc.E: "E", sc.I: "I"},
    Scheme.IOE2: {sc.E: "E", sc.I: "I"},
    Scheme.IOBES: {sc.B: "B", sc.I: "I", sc.E: "E", sc.S: "S"},
    Scheme.BILOU: {sc.B: "B", sc.I: "I", sc.E: "L", sc.S: "U"},
    Scheme.BMES: {sc.B: "B", sc.I: "M", sc.E: "E", sc.S: "S"},
}


def entities_to_tags(
    entities: Iterable[Entity] | EntityColumns,
    lengths: int | Sequence[int],
    *,
    scheme: str | Scheme = "IOB2",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
) -> list[list[str]]:
    """Write entities as tag sequences in ``scheme``.

    Parameters
    ----------
    entities : iterable of Entity, or EntityColumns
        Non-overlapping within each sentence.
    lengths : int or sequence of int
        Number of tokens of each sentence (an int for a single sentence).
    scheme : str or Scheme
        Target scheme. IOB1 writes ``B`` only where an entity directly follows
        one of the same label, IOE1 writes ``E`` only where one directly
        precedes one of the same label. The IO scheme cannot separate
        adjacent entities of one label: they come back merged.
    suffix, delimiter, outside : optional
        Tag syntax, as for :func:`tags_to_entities`.

    Returns
    -------
    list of list of str
        One list of tags per sentence.

    Raises
    ------
    InvalidSpanError
        For entities outside their sentence, overlapping each other or
        discontinuous (tags cannot encode fragments; write the extent).
    InputTypeError
        For an item that is not an :class:`~nerscore.Entity`.
    OptionError
        For ``lengths`` that are not integers >= 0.

    Examples
    --------
    >>> ents = tags_to_entities(["B-PER", "I-PER", "B-PER", "O"])
    >>> entities_to_tags(ents, 4, scheme="BILOU")
    [['B-PER', 'L-PER', 'U-PER', 'O']]
    >>> entities_to_tags(ents, 4, scheme="IOB1")
    [['I-PER', 'I-PER', 'B-PER', 'O']]
    """
    return write_tags(entities, lengths,
                      Decoding(scheme, suffix=suffix, delimiter=delimiter, outside=outside))


def write_tags(
    entities: Iterable[Entity] | EntityColumns, lengths: int | Sequence[int], decoding: Decoding
) -> list[list[str]]:
    """:func:`entities_to_tags` with the scheme and tag syntax of ``decoding`` (mode unused)."""
    kind = decoding.scheme if decoding.scheme is not None else Scheme.IOB2
    suffix, delimiter, outside = decoding.suffix, decoding.delimiter, decoding.outside
    letters = _WRITE_LETTERS[kind]
    lens = _lengths(lengths)
    ents = entities.to_entities() if isinstance(entities, EntityColumns) else list(entities)
    for i, ent in enumerate(ents):
        if not isinstance(ent, Entity):
            raise InputTypeError(
                f"Expected `entities` to be Entity objects or EntityColumns; item {i} is "
                f"{type(ent).__name__} {ent!r}. Write a span (start, end, label) of sentence k "
                "as Entity(Span(start, end), label, sentence=k).")
        if ent.discontinuous:
            raise InvalidSpanError(
                f"Entity {ent.label!r} at [{ent.start}, {ent.end}) of sentence {ent.sentence} is "
                f"discontinuous (fragments {[(f.start, f.end) for f in ent.parts]}); tags cannot "
                "encode it. Write its extent, Entity(e.span, e.label, e.sentence), or each "
                "fragment as an entity of its own.",
                document=ent.sentence, spans=[(ent.start, ent.end, ent.label)])
    ents.sort()
    out = [[outside] * n for n in lens]
    owner: list[list[Entity | None]] = [[None] * n for n in lens]
    for ent in ents:
        k, s, e = ent.sentence, ent.span.start, ent.span.end
        if not 0 <= k < len(lens) or e > lens[k] or s >= e:
            raise InvalidSpanError(
                f"Entity {ent.label!r} at [{s}, {e}) of sentence {k} is outside the sentence "
                f"or empty (sentence lengths: {len(lens)} sentences).",
                document=k, spans=[(s, e, ent.label)],
            )
        for i in range(s, e):
            if owner[k][i] is not None:
                other = owner[k][i]
                assert other is not None
                raise InvalidSpanError(
                    f"Entities {other.label!r} [{other.start}, {other.end}) and {ent.label!r} "
                    f"[{s}, {e}) of sentence {k} overlap; tags cannot encode overlapping "
                    "entities.",
                    document=k, spans=[(other.start, other.end, other.label), (s, e, ent.label)],
                )
            owner[k][i] = ent
    for ent in ents:
        k, s, e = ent.sentence, ent.span.start, ent.span.end
        classes = _chunk_classes(kind, e - s)
        if kind is Scheme.IOB1:
            prev = owner[k][s - 1] if s > 0 else None
            if prev is not None and prev.label == ent.label:
                classes[0] = sc.B
        if kind is Scheme.IOE1:
            nxt = owner[k][e] if e < lens[k] else None
            if nxt is not None and nxt.label == ent.label:
                classes[-1] = sc.E
        for i, cls in zip(range(s, e), classes, strict=False):
            out[k][i] = _format_tag(letters[cls], ent.label, suffix, delimiter)
    return out


def _lengths(lengths: object) -> list[int]:
    """The sentence lengths of :func:`entities_to_tags`: an int, or a sequence of them, >= 0."""
    lens = [lengths] if isinstance(lengths, int | np.integer) else lengths
    if isinstance(lens, Sequence | np.ndarray) and not isinstance(lens, str):
        lens = list(lens)
        if all(isinstance(n, int | np.integer) and not isinstance(n, bool) and n >= 0
               for n in lens):
            return [int(n) for n in lens]
    raise OptionError(
        f"Expected `lengths` to be the number of tokens of each sentence (an int >= 0, or a "
        f"sequence of them); got {lengths!r}.", option="lengths")


def _chunk_classes(kind: Scheme, n: int) -> list[int]:
    if kind in (Scheme.IO, Scheme.IOB1, Scheme.IOE1):
        return [sc.I] * n
    if kind is Scheme.IOB2:
        return [sc.B] + [sc.I] * (n - 1)
    if kind is Scheme.IOE2:
        return [sc.I] * (n - 1) + [sc.E]
    if n == 1:
        return [sc.S]
    return [sc.B] + [sc.I] * (n - 2) + [sc.E]


def _format_tag(letter: str, label: str, suffix: bool, delimiter: str) -> str:
    if not label:
        return letter
    return f"{label}{delimiter}{letter}" if suffix else f"{letter}{delimiter}{label}"
