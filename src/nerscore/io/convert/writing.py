"""Tag chunks decoded into spans and re-encoded, and the tag writers of CoNLL and Parquet.

:func:`write_conll_tag_chunks`, :func:`write_parquet_tag_chunks` and
:func:`relabel_conll` are hooks of those formats (:mod:`nerscore.io.formats`),
imported when a conversion first writes one; span writers live with their
formats.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from nerscore.decode.label_ops import relabel_entity_list
from nerscore.errors import FormatError, quoted
from nerscore.io._conll_fields import FIELD_RULE, first_bad_field
from nerscore.io.convert.marks import byte_order_mark
from nerscore.io.convert.reading import (
    CONLL_KEY,
    Layout,
    Options,
    TagChunk,
    WriteOptions,
    began_with_bom,
)
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, Span
from nerscore.values.tags import EncodedTags

__all__ = [
    "byte_order_mark",
    "check_conll_labels",
    "keep_only",
    "relabel_conll",
    "relabel_documents",
    "respell",
    "retag",
    "to_documents",
    "to_tags",
    "write_conll_tag_chunks",
    "write_parquet_tag_chunks",
]


# ---------------------------------------------------------------------------- converting


def _decode(chunk: TagChunk, opt: Options) -> list[Entity]:
    from nerscore.decode.entities import tags_to_entities

    ents = tags_to_entities(chunk.labels, scheme=opt.from_scheme, mode=opt.mode, **opt.syntax)
    if opt.from_scheme is not None:
        lenient = ents if opt.mode == "lenient" else tags_to_entities(
            chunk.labels, scheme=opt.from_scheme, mode="lenient", **opt.syntax)
        strict = ents if opt.mode == "strict" else tags_to_entities(
            chunk.labels, scheme=opt.from_scheme, mode="strict", **opt.syntax)
        malformed = len(set(lenient) - set(strict))
        if opt.mode == "strict":
            opt.result.dropped_malformed += malformed
        else:
            opt.result.repaired += malformed
    opt.result.n_entities += len(ents)
    if opt.label_ops:
        ents = relabel_entity_list(ents, opt.label_ops, opt.label_tallies)
    return ents


def _encode(ents: Sequence[Entity], lengths: list[int], opt: Options) -> EncodedTags:
    from nerscore.decode.entities import entities_to_tags, tags_to_entities

    scheme = opt.to_scheme or "IOB2"
    rows = entities_to_tags(ents, lengths, scheme=scheme, **opt.to_syntax)
    tags = EncodedTags.from_lists(rows)
    back = tags_to_entities(tags, scheme=scheme, mode="strict", **opt.to_syntax)
    opt.result.merged += len(ents) - len(back)
    return tags


def retag(chunk: TagChunk, opt: Options) -> TagChunk:
    """Re-encode a chunk in ``opt.to_scheme``, counting repairs (unchanged when nothing is asked).

    Label operations (``opt.label_ops``) decode and re-encode the chunk too.
    Without either, the labels are copied, re-spelled when ``opt.to_syntax``
    differs from ``opt.syntax`` (:func:`respell`).
    """
    if opt.to_scheme is None and not opt.label_ops:
        if opt.to_syntax == opt.syntax:
            return chunk
        return dataclasses.replace(chunk, labels=respell(chunk.labels, opt))
    ents = _decode(chunk, opt)
    labels = _encode(ents, chunk.labels.lengths.tolist(), opt)
    return dataclasses.replace(chunk, labels=labels)


def respell(tags: EncodedTags, opt: Options) -> EncodedTags:
    """The tags read as ``opt.syntax`` spells them, written as ``opt.to_syntax`` does.

    Each tag of the vocabulary keeps its prefix letter and type (its id too,
    so a Parquet file's integer labels keep theirs); no scheme is needed. A
    tag of the vocabulary that no token has and the input's spelling cannot
    read (a Parquet file's integer labels) is kept as it is, and added to
    ``opt.unread``.

    Raises
    ------
    InvalidTagError
        At the first token whose tag the input's spelling cannot read.

    Examples
    --------
    >>> from nerscore.io.convert.reading import ConversionResult
    >>> opt = Options(None, None, "lenient", "error",
    ...               {"suffix": False, "delimiter": "_", "outside": "OUT"},
    ...               {"suffix": True, "delimiter": "-", "outside": "O"},
    ...               ConversionResult("conll", "conll"))
    >>> respell(EncodedTags.from_lists([["B_PER", "I_PER", "OUT", "B"]]), opt).to_lists()
    [['PER-B', 'PER-I', 'O', 'B']]
    """
    from nerscore.values.decoding import Decoding
    from nerscore.values.tags import check_vocab, parse_vocab

    parsed = parse_vocab(tags.vocab, Decoding(**opt.syntax))
    check_vocab(parsed, tags)
    suffix, delimiter = opt.syntax["suffix"], opt.syntax["delimiter"]
    to_suffix, to_delimiter = opt.to_syntax["suffix"], opt.to_syntax["delimiter"]
    vocab = []
    for i, (tag, k) in enumerate(zip(tags.vocab, parsed.label.tolist(), strict=True)):
        typ = parsed.labels[k] if k >= 0 else ""
        if i in parsed.invalid:  # no token has it (check_vocab)
            opt.unread.add(tag)
            vocab.append(tag)
        elif k < 0:
            vocab.append(opt.to_syntax["outside"])
        elif not typ:  # a bare prefix letter: an untyped tag
            vocab.append(tag)
        elif suffix:
            vocab.append(_spelled(tag.rpartition(delimiter)[2], typ, to_suffix, to_delimiter))
        else:
            vocab.append(_spelled(tag.partition(delimiter)[0], typ, to_suffix, to_delimiter))
    return dataclasses.replace(tags, vocab=tuple(vocab))


def _spelled(letter: str, typ: str, suffix: bool, delimiter: str) -> str:
    return f"{typ}{delimiter}{letter}" if suffix else f"{letter}{delimiter}{typ}"


def relabel_documents(docs: Sequence[Document], opt: Options) -> list[Document]:
    """The documents with the label operations of ``opt`` applied to their spans, counted."""
    if not opt.label_ops:
        return list(docs)
    return [dataclasses.replace(d, spans=tuple(relabel_entity_list(
        d.spans, opt.label_ops, opt.label_tallies))) for d in docs]


def to_documents(chunk: TagChunk, opt: Options) -> list[Document]:
    """A tag chunk as span documents: tokens joined by spaces, one document per sentence.

    Each document's ``source`` and ``line`` are the input file and the line of
    its first token (where known), for the messages of the writers.
    """
    if chunk.tokens is None:
        raise FormatError("The tag file has no tokens: span files need the text of each "
                          "sentence (write the Parquet file with a 'tokens' column).")
    ents = _decode(chunk, opt)
    by_sentence: dict[int, list[Entity]] = {}
    for e in ents:
        by_sentence.setdefault(e.sentence, []).append(e)
    docs = []
    origin = chunk.labels if chunk.origin is None else chunk.origin
    tags = origin if isinstance(origin, EncodedTags) else None
    for s, tokens in enumerate(chunk.tokens):
        starts = list(itertools.accumulate((len(t) + 1 for t in tokens[:-1]), initial=0))
        spans = tuple(Entity(Span(starts[e.start], starts[e.end - 1] + len(tokens[e.end - 1])),
                             e.label) for e in by_sentence.get(s, ()))
        opt.n_docs += 1
        opt.result.spaced_tokens += sum(1 for t in tokens if _SPACE.search(t))
        line = None  # of its first token, for messages
        if tags is not None and tags.lines is not None and tokens:
            line = int(tags.lines[tags.offsets[s]])
        docs.append(Document(str(opt.n_docs), spans, " ".join(tokens),
                             source=None if tags is None else tags.source, line=line))
    return docs


def keep_only(docs: Sequence[Document], keeps: tuple[str, ...],
              opt: Options) -> list[Document]:
    """The documents as a writer that keeps only ``keeps`` can hold, the rest counted.

    Discontinuous entities become their extents unless ``"fragments"`` is
    kept; ignore regions are left out unless ``"ignore"`` is, and the scores
    of spans unless ``"score"`` is.
    """
    out = []
    for doc in docs:
        spans: Sequence[Entity] = doc.spans
        if "score" not in keeps and any(e.score is not None for e in spans):
            opt.result.dropped_scores += sum(1 for e in spans if e.score is not None)
            spans = [Entity(e.span, e.label, e.sentence, e.fragments) for e in spans]
        if "fragments" not in keeps and any(e.fragments for e in spans):
            opt.result.extents += sum(1 for e in spans if e.fragments)
            spans = [Entity(e.span, e.label) for e in spans]
        ignore = doc.ignore
        if "ignore" not in keeps and ignore:
            opt.result.dropped_regions += len(ignore)
            ignore = ()
        if spans is not doc.spans or ignore is not doc.ignore:
            doc = dataclasses.replace(doc, spans=tuple(spans), ignore=ignore)
        out.append(doc)
    return out


_WORD = re.compile(r"\S+")
_SPACE = re.compile(r"\s")


def to_tags(docs: Sequence[Document], opt: Options) -> TagChunk:
    """Span documents as a tag chunk: whitespace tokens, spans moved onto them.

    A span that covers no whole word once on word boundaries (a zero-length
    span among them) is dropped and counted; spans that share a word are an
    error naming the document, since tags cannot hold them.
    """
    from nerscore.decode.offsets import char_spans_to_token_spans

    ents: list[Entity] = []
    tokens: list[list[str]] = []
    kept_docs = keep_only(docs, (), opt)
    for doc in kept_docs:
        if doc.text is None:
            raise FormatError(f"{doc.named()} has no text: tags need the words of the text as "
                              "tokens.", source=doc.source, line=doc.line)
        words = list(_WORD.finditer(doc.text))
        conv = char_spans_to_token_spans(doc, [m.span() for m in words],
                                         misaligned=opt.misaligned)
        kept = sorted(e for e in conv.spans if e.start < e.end)
        opt.result.adjusted += len(conv.adjusted)
        opt.result.dropped_spans += len(conv.dropped) + len(conv.spans) - len(kept)
        opt.result.n_entities += len(doc.spans)
        opt.result.dropped_ids += 1
        _check_disjoint(doc, kept, words)
        k = len(tokens)
        ents.extend(Entity(Span(e.start, e.end), e.label, k) for e in kept)
        tokens.append([m.group() for m in words])
    labels = _encode(ents, [len(t) for t in tokens], opt)
    return TagChunk(labels, tokens, origin=kept_docs)


def _check_disjoint(doc: Document, spans: Sequence[Entity], words: Sequence[re.Match[str]]) -> None:
    """Raise when two of the word spans ``spans`` (sorted) of ``doc`` share a word."""
    text = doc.text or ""
    for a, b in itertools.pairwise(spans):
        if b.start < a.end:
            where = doc.where()
            shown = [f"{quoted(text[words[e.start].start():words[e.end - 1].end()])} "
                     f"({quoted(e.label)})" for e in (a, b)]
            raise FormatError(
                f"{where + ': ' if where else ''}the spans {shown[0]} and {shown[1]} of document "
                f"{quoted(doc.id)} share a word; tags cannot hold overlapping spans. Remove one of "
                f"them (a label operation such as drop={b.label!r} does), or convert to a span "
                "format (JSON Lines, Parquet, BRAT).", source=doc.source, line=doc.line)


# ------------------------------------------------------------------------------ writing


class _ConllWriter:
    def __init__(self, path: str, layout: Layout, encoding: str, outside: str,
                 read_as: str | None = None) -> None:
        # line ends written as the layout says (known once the input has been read)
        self.fh = open(path, "w", encoding=encoding, newline="")  # noqa: SIM115
        self.layout = layout
        self.encoding = encoding
        self.read_as = read_as
        self.outside = outside
        self.started = False
        self.skipped = 0
        self.bom: bool | None = None  # whether the file begins with a byte-order mark

    def _write(self, text: str) -> None:
        if self.bom is None:  # the layout is known by the first line
            mark = byte_order_mark(self.layout.bom, self.encoding, self.read_as,
                                   after_mark=self.layout.after_mark)
            self.bom = self.layout.bom and mark is not None
            self.fh.write(mark or "")
        self.fh.write(text)

    def _sep(self) -> None:
        if self.started:
            self._write(self.layout.line_ending)
        self.started = True

    def _docstart(self, delim: str) -> None:
        self._sep()
        self._write(delim.join(self.layout.docstart(self.outside)) + self.layout.line_ending)

    def write(self, chunk: TagChunk) -> None:
        lay = self.layout
        delim = "\t" if lay.delimiter == "tab" else " "
        tokens = chunk.tokens
        if tokens is None:
            raise FormatError("The tag file has no tokens; a CoNLL file needs them.")
        check_conll_labels(chunk, lay.delimiter)
        docs = set(chunk.documents)
        for s, labels in enumerate(chunk.labels.to_lists()):
            if s in docs:
                self._docstart(delim)
            if not labels:
                self.skipped += 1
                continue
            self._sep()
            cols: dict[int, list[str]] = {lay.token_column: tokens[s],
                                          lay.label_column: labels}
            cols.update({c: v[s] for c, v in chunk.extra.items()})
            for c, values in cols.items():  # the labels checked above
                k = first_bad_field(values, lay.delimiter) if c != lay.label_column else None
                if k is not None:
                    what = "token" if c == lay.token_column else f"value of column {c}"
                    raise _unwritable(f"the {what} {quoted(values[k])} at {chunk.where(s, k)}",
                                      lay.delimiter, chunk.source(s))
            text = "".join(delim.join(r) + lay.line_ending
                           for r in zip(*(cols[c] for c in sorted(cols)), strict=True))
            try:
                self._write(text)
            except UnicodeEncodeError:
                raise self._unencodable(chunk, s, cols) from None
        if len(chunk.labels.lengths) in docs:
            self._docstart(delim)

    def _unencodable(self, chunk: TagChunk, s: int, cols: dict[int, list[str]]) -> FormatError:
        """The error for a sentence whose text the encoding cannot write, naming the field."""
        for c in sorted(cols):
            for k, value in enumerate(cols[c]):
                try:
                    value.encode(self.encoding)
                except UnicodeEncodeError as exc:
                    what = ("token" if c == self.layout.token_column else "label"
                            if c == self.layout.label_column else f"value of column {c}")
                    return FormatError(
                        f"Cannot write the {what} {quoted(value)} at {chunk.where(s, k)} in "
                        f"{self.encoding}: it has no {quoted(value[exc.start])}. Write the "
                        "output in an encoding that has it, e.g. encoding='utf-8'.",
                        source=chunk.source(s))
        raise AssertionError("a sentence that cannot be encoded has a field that cannot")

    def close(self) -> None:
        if self.started and self.layout.blank_at_end:
            self._write(self.layout.line_ending)
        self.fh.close()


def check_conll_labels(chunk: TagChunk, delimiter: str) -> None:
    """Raise at the first token whose label no CoNLL line can hold (:func:`first_bad_field`).

    ``delimiter`` (``"space"`` or ``"tab"``) is between the fields of the
    lines; ``chunk`` names the token where the label is (:meth:`TagChunk.where`).

    Raises
    ------
    FormatError
        Naming the label, where it is, and what to do.

    Examples
    --------
    >>> tags = EncodedTags.from_lists([["O"], ["B-NEW YORK"]])
    >>> check_conll_labels(TagChunk(tags, None), "tab")
    >>> check_conll_labels(TagChunk(tags, None), "space")
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: Cannot write the label 'B-NEW YORK' at token 0 of sentence 1 to a CoNLL line: its fields, separated by spaces, must be non-empty and free of white space and control characters. Fix the input or rename the label (labels_map), or convert to another format (Parquet, JSON Lines).
    """
    labels = chunk.labels
    bad = [i for i, tag in enumerate(labels.vocab) if first_bad_field([tag], delimiter) is not None]
    hits = np.flatnonzero(np.isin(labels.ids, bad)) if bad else None
    if hits is not None and hits.size:
        pos = int(hits[0])
        s = int(np.searchsorted(labels.offsets, pos, side="right")) - 1
        raise _unwritable(f"the label {quoted(labels.vocab[labels.ids[pos]])} at "
                          f"{chunk.where(s, pos - int(labels.offsets[s]))}", delimiter,
                          chunk.source(s), fix="Fix the input or rename the label (labels_map)")


def _unwritable(what: str, delimiter: str, source: str | None, *,
                fix: str = "Fix the input") -> FormatError:
    return FormatError(f"Cannot write {what} to a CoNLL line: its fields, separated by "
                       f"{delimiter}s, must be {FIELD_RULE[delimiter]}. {fix}, or convert to "
                       "another format (Parquet, JSON Lines).", source=source)


def write_conll_tag_chunks(chunks: Iterable[TagChunk], target: str,
                           options: WriteOptions) -> int:
    """Write tag chunks as CoNLL lines laid out as ``options.layout``; returns the sentences written.

    Empty sentences are left out (a CoNLL file cannot hold them).
    """
    writer = _ConllWriter(target, options.layout, options.encoding, options.outside,
                          options.read_as)
    n = 0
    try:
        for c in chunks:
            writer.write(c)
            n += c.labels.n_sequences
    finally:
        writer.close()
    options.bom_kept = bool(writer.bom)
    return n - writer.skipped


def write_parquet_tag_chunks(chunks: Iterable[TagChunk], target: str,
                             options: WriteOptions) -> int:
    """Write tag chunks as a Parquet tag file keeping the CoNLL layout; returns the rows written.

    The ``document`` column flags each sentence that a ``-DOCSTART-`` line
    comes before, in its chunk or at the end of the chunks before it. A
    flag holds one line: the others before the same sentence (empty
    documents) and those after the last sentence are counted in
    ``options.notes``, and so are the lines a flag holds whose fields
    (``c.document_fields``) differ from those written back to CoNLL
    (:meth:`Layout.docstart`): more or fewer fields, or other values. The
    byte-order mark of the layout is kept with it (``options.bom_kept``).
    """
    from nerscore.io.parquet import ParquetTagWriter

    n = lost = 0  # sentences written; -DOCSTART- lines that no flag holds
    pending: list[list[str] | None] = []  # the fields of the -DOCSTART- lines before the next
    flagged: list[list[str] | None] = []  # sentence; and of the line each flag holds
    with ParquetTagWriter(target, labels_as=options.labels_as) as pw:
        for c in chunks:
            before: list[list[list[str] | None]] = [[] for _ in range(c.labels.n_sequences + 1)]
            before[0] = pending
            fields = c.document_fields if len(c.document_fields) == len(c.documents) else (
                [None] * len(c.documents))
            for d, f in zip(c.documents, fields, strict=True):
                before[d].append(f)
            pending = before.pop()
            if not before:  # -DOCSTART- lines and no sentence
                continue
            lost += sum(max(len(k) - 1, 0) for k in before)
            flagged += [k[-1] for k in before if k]
            pw.write(c.labels, tokens=c.tokens,
                     columns={f"column_{k}": v for k, v in sorted(c.extra.items())},
                     documents=[bool(k) for k in before])
            n += c.labels.n_sequences
        pw.metadata[CONLL_KEY] = options.layout.to_json()  # known once the input has been read
    options.bom_kept = options.layout.bom
    lost += len(pending)
    if lost:
        options.notes.append(
            f"{lost} -DOCSTART- line{'s' if lost != 1 else ''} not kept: the document column "
            "of a Parquet tag file flags the sentence after each, and "
            f"{'these have' if lost != 1 else 'it has'} none of its own (an empty document, or "
            "the end of the file).")
    written = options.layout.docstart(options.from_outside or options.outside)
    other = sum(1 for f in flagged if f is not None and f != written)
    if other:
        shown = quoted(("\t" if options.layout.delimiter == "tab" else " ").join(written))
        options.notes.append(
            f"{other} -DOCSTART- line{'s' if other != 1 else ''} whose fields differ from "
            f"{shown} not kept as {'they were' if other != 1 else 'it was'}: a Parquet tag "
            "file flags where each document starts, not the fields of its line; CoNLL written "
            f"from it has {shown} there.")
    return n


def relabel_conll(source: str, target: str, options: Mapping[str, Any],
                  new_labels: Callable[[EncodedTags], EncodedTags],
                  progress: Callable[[int, int], None] | None,
                  write_options: WriteOptions) -> int:
    """Rewrite the label column of a CoNLL file block by block; every other byte is kept.

    The label column of a ``-DOCSTART-`` line too, where it is the outside
    tag of the input (``write_options.from_outside``) and the output's
    differs (``write_options.outside``); its other columns are kept, and
    so is a byte-order mark the input began with (``write_options.bom_kept``).
    Returns the sentences written.
    """
    from nerscore.io.conll import ConllChunks

    reader = ConllChunks(source, chunk_size=None, **options)
    total = os.path.getsize(source)
    n = 0
    old, new = write_options.from_outside, write_options.outside
    mark = options.get("docstart", "-DOCSTART-")
    respell = old is not None and old != new and bool(mark)
    column = int(options.get("label_column", -1))
    encoding = options.get("encoding", "utf-8")
    write_options.bom_kept = began_with_bom(source, encoding)  # the reader skips it
    with open(target, "w", encoding=write_options.encoding, newline="") as fh:
        fh.write(byte_order_mark(write_options.bom_kept, write_options.encoding, encoding) or "")
        for block in reader:
            labels = new_labels(block.tags)
            origin = block.tags.starting_at(n)  # messages name the file's sentences
            check_conll_labels(TagChunk(labels, None, origin=origin), block.column_delimiter)
            text = block.replace_labels(labels)[0]
            if block.bom:  # its mark, if kept, is written above in the output's encoding
                text = text.removeprefix("\ufeff")
            if respell and len(block.documents):
                text = _docstart_labels(text, mark, block.column_delimiter, column, old or "",
                                       new)
            fh.write(text)
            n += len(block)
            if progress is not None:
                progress(min(reader.bytes_read, total), total)
    return n


def _docstart_labels(text: str, mark: str, delimiter: str, column: int, old: str,
                    new: str) -> str:
    r"""``text`` with the label ``old`` of its ``-DOCSTART-`` lines written ``new``.

    A ``-DOCSTART-`` line is one whose first column is ``mark``; its label is
    column ``column`` (negative: from the end) of the columns that
    ``delimiter`` (``"tab"`` or ``"space"``) separates. Every other byte is kept.

    Examples
    --------
    >>> _docstart_labels("-DOCSTART- -X- O\r\n\na O\n", "-DOCSTART-", "space", -1, "O", "NONE")
    '-DOCSTART- -X- NONE\r\n\na O\n'
    >>> _docstart_labels("-DOCSTART-\t-X-\tO\n", "-DOCSTART-", "tab", 1, "O", "NONE")
    '-DOCSTART-\t-X-\tO\n'
    """
    def columns(line: str) -> list[tuple[int, int]]:
        """Where each column of ``line`` starts and ends, as the reader splits it."""
        if delimiter != "tab":
            return [f.span() for f in re.finditer(r"\S+", line)]
        out, start = [], len(line) - len(line.lstrip())
        for part in line.strip().split("\t"):
            a = start + len(part) - len(part.lstrip())
            out.append((a, a + len(part.strip())))
            start += len(part) + 1
        return out

    def one(m: re.Match[str]) -> str:
        line = m.group()
        spans = columns(line)
        if line[slice(*spans[0])] != mark or not -len(spans) <= column < len(spans):
            return line
        a, b = spans[column]
        return line[:a] + new + line[b:] if line[a:b] == old else line

    return re.sub(rf"(?m)^[ \t]*{re.escape(mark)}(?![^ \t\r\n]).*$", one, text)
