"""Tag chunks decoded into spans and re-encoded, and the writers of every output format."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence

from nerscore.errors import FormatError
from nerscore.io.convert.reading import CONLL_KEY, ConversionResult, Layout, Options, TagChunk
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, Span
from nerscore.values.tags import EncodedTags

__all__ = ["retag", "to_documents", "to_tags", "write_spans", "write_tags"]


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
    return ents


def _encode(ents: Sequence[Entity], lengths: list[int], opt: Options) -> EncodedTags:
    from nerscore.decode.entities import entities_to_tags, tags_to_entities

    scheme = opt.to_scheme or "IOB2"
    rows = entities_to_tags(ents, lengths, scheme=scheme, **opt.syntax)
    tags = EncodedTags.from_lists(rows)
    back = tags_to_entities(tags, scheme=scheme, mode="strict", **opt.syntax)
    opt.result.merged += len(ents) - len(back)
    return tags


def retag(chunk: TagChunk, opt: Options) -> TagChunk:
    """Re-encode a chunk in ``opt.to_scheme`` (unchanged when none is asked), counting repairs."""
    if opt.to_scheme is None:
        return chunk
    ents = _decode(chunk, opt)
    labels = _encode(ents, chunk.labels.lengths.tolist(), opt)
    return TagChunk(labels, chunk.tokens, chunk.extra, chunk.documents)


def to_documents(chunk: TagChunk, opt: Options) -> list[Document]:
    """A tag chunk as span documents: tokens joined by spaces, one document per sentence."""
    if chunk.tokens is None:
        raise FormatError("The tag file has no tokens: span files need the text of each "
                          "sentence (write the Parquet file with a 'tokens' column).")
    ents = _decode(chunk, opt)
    by_sentence: dict[int, list[Entity]] = {}
    for e in ents:
        by_sentence.setdefault(e.sentence, []).append(e)
    docs = []
    for s, tokens in enumerate(chunk.tokens):
        starts = list(itertools.accumulate((len(t) + 1 for t in tokens[:-1]), initial=0))
        spans = tuple(Entity(Span(starts[e.start], starts[e.end - 1] + len(tokens[e.end - 1])),
                             e.label) for e in by_sentence.get(s, ()))
        opt.n_docs += 1
        opt.result.spaced_tokens += sum(1 for t in tokens if _SPACE.search(t))
        docs.append(Document(str(opt.n_docs), spans, " ".join(tokens)))
    return docs


_WORD = re.compile(r"\S+")
_SPACE = re.compile(r"\s")


def to_tags(docs: Sequence[Document], opt: Options) -> TagChunk:
    """Span documents as a tag chunk: whitespace tokens, spans moved onto them."""
    from nerscore.decode.offsets import char_spans_to_token_spans

    ents: list[Entity] = []
    tokens: list[list[str]] = []
    for doc in docs:
        if doc.text is None:
            raise FormatError(f"Document {doc.id!r} has no text: tags need the words of the "
                              "text as tokens.")
        words = list(_WORD.finditer(doc.text))
        conv = char_spans_to_token_spans(doc, [m.span() for m in words],
                                         misaligned=opt.misaligned)
        opt.result.adjusted += len(conv.adjusted)
        opt.result.dropped_spans += len(conv.dropped)
        opt.result.n_entities += len(doc.spans)
        opt.result.dropped_ids += 1
        k = len(tokens)
        ents.extend(Entity(Span(e.start, e.end), e.label, k) for e in conv.spans)
        tokens.append([m.group() for m in words])
    labels = _encode(ents, [len(t) for t in tokens], opt)
    return TagChunk(labels, tokens)


# ------------------------------------------------------------------------------ writing


class _ConllWriter:
    def __init__(self, path: str, layout: Layout, encoding: str, outside: str) -> None:
        self.fh = open(path, "w", encoding=encoding, newline="\n")  # noqa: SIM115
        self.layout = layout
        self.outside = outside
        self.started = False
        self.skipped = 0

    def _sep(self) -> None:
        if self.started:
            self.fh.write("\n")
        self.started = True

    def _line(self, fields: list[str], delim: str) -> str:
        for f in fields:
            if not f or (delim == " " and any(c.isspace() for c in f)) or "\n" in f:
                raise ValueError(f"Cannot write the field {f!r} to a CoNLL line: fields must "
                                 "be non-empty and free of whitespace.")
        return delim.join(fields) + "\n"

    def write(self, chunk: TagChunk) -> None:
        lay = self.layout
        delim = "\t" if lay.delimiter == "tab" else " "
        n_cols = max(lay.n_columns, 2)
        tokens = chunk.tokens
        if tokens is None:
            raise FormatError("The tag file has no tokens; a CoNLL file needs them.")
        docs = set(chunk.documents)
        for s, labels in enumerate(chunk.labels.to_lists()):
            if s in docs:
                self._sep()
                start = ["-X-"] * n_cols
                start[lay.token_column], start[lay.label_column] = "-DOCSTART-", self.outside
                self.fh.write(self._line(start, delim))
            if not labels:
                self.skipped += 1
                continue
            self._sep()
            cols: dict[int, list[str]] = {lay.token_column: tokens[s],
                                          lay.label_column: labels}
            cols.update({c: v[s] for c, v in chunk.extra.items()})
            rows = zip(*(cols[c] for c in sorted(cols)), strict=True)
            self.fh.write("".join(self._line(list(r), delim) for r in rows))
        if len(chunk.labels.lengths) in docs:
            self._sep()
            start = ["-X-"] * n_cols
            start[lay.token_column], start[lay.label_column] = "-DOCSTART-", self.outside
            self.fh.write(self._line(start, delim))

    def close(self) -> None:
        if self.started and self.layout.blank_at_end:
            self.fh.write("\n")
        self.fh.close()


def write_tags(chunks: Iterable[TagChunk], target: str, fmt: str, layout: Layout,
                labels_as: str, encoding: str, outside: str, result: ConversionResult) -> None:
    """Write tag chunks as CoNLL or Parquet, counting sequences and skipped empty ones."""
    if fmt == "conll":
        writer = _ConllWriter(target, layout, encoding, outside)
        try:
            for c in chunks:
                writer.write(c)
                result.n_sequences += c.labels.n_sequences
        finally:
            writer.close()
        result.n_sequences -= writer.skipped
        result.skipped_empty += writer.skipped
        return
    from nerscore.io.parquet import ParquetTagWriter

    with ParquetTagWriter(target, labels_as=labels_as) as pw:
        for c in chunks:
            flags = [False] * c.labels.n_sequences
            for d in c.documents:
                if d < len(flags):
                    flags[d] = True
            pw.write(c.labels, tokens=c.tokens,
                     columns={f"column_{k}": v for k, v in sorted(c.extra.items())},
                     documents=flags)
            result.n_sequences += c.labels.n_sequences
        pw.metadata[CONLL_KEY] = layout.to_json()  # known once the input has been read


def write_spans(chunks: Iterable[list[Document]], target: str, fmt: str, encoding: str,
                 result: ConversionResult) -> None:
    """Write span documents as JSONL, BRAT or Parquet, counting them."""
    def counted() -> Iterator[list[Document]]:
        for c in chunks:
            result.n_sequences += len(c)
            yield c

    if fmt == "parquet":
        from nerscore.io.parquet import write_parquet_documents

        write_parquet_documents(target, counted())
        return
    flat = (d for c in counted() for d in c)
    if fmt == "jsonl":
        from nerscore.io.jsonl import write_jsonl

        write_jsonl(flat, target, encoding=encoding)
    else:
        from nerscore.io.brat import write_brat

        write_brat(flat, target, encoding=encoding)


