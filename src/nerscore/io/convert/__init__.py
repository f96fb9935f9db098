"""Convert annotated files between formats and tag schemes, chunk by chunk.

:func:`convert_file` reads any format of :mod:`nerscore.io.formats` (CoNLL,
JSON Lines, BRAT, Parquet and those of other packages) and writes any that
has a writer, optionally re-encoding tags in another scheme. What cannot be
carried over unchanged is counted in the returned :class:`ConversionResult`
(its :meth:`~ConversionResult.notes`), never dropped silently.

Conventions
-----------
- **Tags to spans.** Each sentence becomes one document whose text is its
  tokens joined by single spaces; its id is the sentence number (from 1).
  Tags are decoded with nerscore's decoder (``from_scheme``, ``mode``).
- **Spans to tags.** Each document becomes one sentence; its tokens are the
  whitespace-separated words of its text, and spans are moved onto them as
  :func:`nerscore.char_spans_to_token_spans` does (``misaligned``), then
  written with :func:`nerscore.entities_to_tags` in ``to_scheme``. Tags
  cannot hold fragments, ignore regions or scores: a discontinuous entity
  is written as its extent, regions and scores are left out, all counted.
- **Spans to spans** keep the fragments of discontinuous entities, the
  ignore regions and the scores of spans where the output format can hold
  them (its ``keeps``: JSON Lines and Parquet all three, BRAT fragments
  only); the rest is written as extents or left out, and counted.
- **Tags to tags** keep the labels as they are, unless ``to_scheme`` is
  given (or ``from_scheme`` alone, which re-encodes in the same scheme):
  then the tags are decoded and written again, and malformed chunks are
  counted as repaired (``mode="lenient"`` or ``"conlleval"``) or dropped
  (``mode="strict"``).
- **Spelling.** ``suffix``, ``delimiter`` and ``outside`` say how the input
  tags are spelled (``docs/schemes.md``), and the output tags unless
  ``to_suffix``, ``to_delimiter`` or ``to_outside`` say otherwise: ``B_PER``
  becomes ``B-PER`` with ``delimiter="_", to_delimiter="-"``. Labels copied
  without a scheme are re-spelled tag by tag, with no scheme needed. An
  outside tag spelled as an entity tag of its side (``B-PER``, a bare
  ``B``) is refused. A ``-DOCSTART-`` line labelled with the input's
  outside tag gets the output's.
- **CoNLL in Parquet.** A Parquet tag file written from CoNLL keeps the
  other columns (``column_1``, ... by position in the line), a boolean
  ``document`` column (a ``-DOCSTART-`` line before the sentence) and the
  line layout in the metadata key ``nerscore.conll`` (with a byte-order
  mark the file began with, and whether it followed the mark of
  ``utf-8-sig``, ``utf-16`` or ``utf-32``), so that writing it back as CoNLL
  gives the same bytes for a file with one delimiter between columns, one
  blank line between sentences and ``-DOCSTART-`` lines written
  ``-DOCSTART- -X- ... O``, each before a sentence: one that no sentence
  follows before the next (an empty document, the end of the file) is
  counted as not kept, and one with other fields (more, fewer, other
  values; its label the input's outside tag) as not kept as it was. CoNLL
  to CoNLL rewrites the label column only (comments, blank lines, line
  endings, a byte-order mark and the other columns of ``-DOCSTART-`` lines
  kept).
- **Byte-order mark.** Every reader skips a byte-order mark at the start
  of a text file (U+FEFF in UTF-8, or read as ``utf-16-le``, ``utf-16-be``,
  ``utf-32-le``, ``utf-32-be``; the mark ``utf-8-sig`` reads, and the one
  ``utf-16`` and ``utf-32`` take the byte order from, belongs to the
  codec, which writes its own, in the byte order read:
  :mod:`~nerscore.io.convert.marks`). A CoNLL output gets it back in its
  encoding (and a Parquet tag file written from CoNLL keeps it for one);
  any other output is written without it, counted in the notes (a mark
  kept in a Parquet file too). A U+FEFF right after the mark of
  ``utf-8-sig``, ``utf-16`` or ``utf-32`` counts as such a mark, and is
  written after the codec's. A BRAT folder written from a BRAT folder has
  each file written as a single output of the file it was read from is
  (in its byte order, the mark of an ``.ann`` file written back:
  :meth:`~nerscore.io.convert.reading.WriteOptions.written_like`); any
  other output goes without the marks of the ``.ann`` files, counted in one
  note (the mark of a ``.txt`` file is character 0 of its text).
- **Messages** name the sentences of the input as the file holds them
  (0-based), whatever the chunk they are read in.
- **What the output cannot hold.** An option whose value the output format
  can never write (an outside tag, tag delimiter or label map holding a
  character of its ``label_forbids``, or one the ``encoding`` cannot encode)
  is an :class:`~nerscore.errors.OptionError` before anything is read. A
  token or label of the data that it cannot write is a
  :class:`~nerscore.errors.FormatError` naming the input file and the
  sentence and token (or the document) it came from. Either way nothing is
  written: the output is replaced whole, or left as it was. JSON output
  (a format whose ``escapes`` is true) can write every character: what the
  ``encoding`` cannot encode is written as a JSON escape.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from nerscore.decode.label_ops import warn_unknown_labels
from nerscore.errors import FormatError, OptionError, quoted
from nerscore.io.atomic import atomic_path, inside, same_file
from nerscore.io.chunks import slice_tags
from nerscore.io.convert.checks import (
    check_unused,
    check_writable,
    narrow_encoding,
    output_kinds,
    spelling,
)
from nerscore.io.convert.marks import written_encoding
from nerscore.io.convert.reading import (
    ConversionResult,
    Layout,
    Options,
    TagChunk,
    WriteOptions,
    began_with_bom,
    mark_name,
)
from nerscore.io.convert.writing import keep_only, relabel_documents, retag, to_documents, to_tags
from nerscore.io.defaults import CHUNK_SIZE
from nerscore.io.formats import Format, guess_format
from nerscore.values.decoding import check_delimiter, check_outside
from nerscore.values.documents import Document
from nerscore.values.label_ops import LabelOps, label_notes, seen_labels
from nerscore.values.tags import EncodedTags

__all__ = ["CONVERSION_OPTIONS", "ConversionResult", "convert_file", "write_documents",
           "write_output"]

Progress = Callable[[int, int], None]


def convert_file(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    from_format: str | Format | None = None,
    to_format: str | Format | None = None,
    from_scheme: str | None = None,
    to_scheme: str | None = None,
    mode: str = "lenient",
    misaligned: str = "error",
    labels_as: str = "int",
    parquet_kind: str | None = None,
    chunk_size: int = CHUNK_SIZE,
    encoding: str = "utf-8",
    conll_options: dict[str, Any] | None = None,
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    to_suffix: bool | None = None,
    to_delimiter: str | None = None,
    to_outside: str | None = None,
    progress: Progress | None = None,
    labels_map: Mapping[str, str] | None = None,
    keep: Sequence[str] | None = None,
    drop: Sequence[str] | None = None,
) -> ConversionResult:
    r"""Convert an annotated file to another format and/or tag scheme (module docstring).

    Parameters
    ----------
    source, target : path
        The input, and the output (a file; a folder for BRAT).
    from_format, to_format : str or Format, optional
        Formats: ``"conll"``, ``"jsonl"``, ``"brat"``, ``"parquet"`` or one
        registered by another package (default: from the names, as
        :func:`nerscore.io.formats.guess_format` guesses).
    from_scheme : str, optional
        Scheme of the input tags; needed to decode them (tags to spans, or
        to another scheme) and to count malformed chunks.
    to_scheme : str, optional
        Scheme of the output tags (default: ``from_scheme``, or the labels
        copied as they are; IOB2 for span input).
    mode : {"lenient", "strict", "conlleval"}
        How the input tags are decoded.
    misaligned : {"error", "expand", "contract"}
        Spans to tags: what to do with a span not on word boundaries.
    labels_as : {"int", "string"}
        Parquet tag output: integer labels with a vocabulary, or strings.
    parquet_kind : {"tags", "spans"}, optional
        What the output holds when its format holds either (Parquet;
        default: what the input holds).
    chunk_size : int
        Sentences or documents per chunk (BRAT folders are read whole;
        default :data:`~nerscore.io.defaults.CHUNK_SIZE`, 10,000).
    encoding : str
        Text encoding of input and output files (for the formats that take one).
    conll_options : dict, optional
        ``token_column``, ``label_column``, ``column_delimiter``, ``comments``
        for CoNLL input (each passed to an input format whose readers take it).
        ``spans_key`` names the span group of spaCy ``.spacy`` files on both
        sides: read from ``doc.spans[KEY]`` of a ``.spacy`` input, written to
        it in a ``.spacy`` output (overlapping spans allowed, ``doc.ents`` left
        unannotated; :func:`~nerscore.io.docbin.write_docbin`).
    suffix, delimiter, outside
        How the input tags are spelled (docs/schemes.md): ``TYPE-PREFIX``
        instead of ``PREFIX-TYPE``, the delimiter between prefix and type,
        the outside tag; the output tags are spelled so too unless the
        ``to_`` options say otherwise.
    to_suffix, to_delimiter, to_outside : optional
        How the output tags are spelled (default: as the input's, the
        ``suffix``, ``delimiter`` and ``outside`` given). Labels copied
        without a scheme are read with the input's spelling and written with
        these; in a Parquet file with integer labels the vocabulary is
        re-spelled.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk (bytes of CoNLL
        input, rows of Parquet input: the format's ``progress_unit``).
    labels_map, keep, drop : optional
        Label operations on the entities written (docs/label-ops.md):
        renamed, kept or dropped after decoding; tag input needs
        ``from_scheme`` to decode them. The notes say what they touched.

    Returns
    -------
    ConversionResult

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "a.conll").write_text("Anna B-PER\nleft I-LOC\n")
    >>> res = convert_file(tmp / "a.conll", tmp / "a.jsonl", from_scheme="IOB2")
    >>> (tmp / "a.jsonl").read_text()
    '{"id": "1", "text": "Anna left", "spans": [{"start": 0, "end": 4, "label": "PER"}, {"start": 5, "end": 9, "label": "LOC"}]}\n'
    >>> res.notes()
    ('1 malformed chunk read the lenient way and written well-formed.',)
    """
    src, dst = os.fspath(source), os.fspath(target)
    fin, fout = guess_format(src, from_format), guess_format(dst, to_format)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"Expected `chunk_size` to be a positive integer; got {chunk_size!r}.")
    if parquet_kind not in (None, "tags", "spans"):
        raise ValueError(f"Expected `parquet_kind` 'tags' or 'spans'; got {parquet_kind!r}.")
    if same_file(src, dst):
        raise ValueError(f"{src} would be overwritten: give another output.")
    if inside(dst, src):
        raise ValueError(f"The output {dst} is inside the input folder {src}: the next read of "
                         f"{src} would pick it up; give an output outside it.")
    if inside(src, dst):
        raise ValueError(f"The output {dst} is a folder holding the input {src}: writing there "
                         "would mix the output with it; give an output that does not hold it.")
    result = ConversionResult(fin.name, fout.name)
    syntax = spelling(suffix=suffix, delimiter=delimiter, outside=outside)
    respelled = spelling(optional=True, to_suffix=to_suffix, to_delimiter=to_delimiter,
                         to_outside=to_outside)
    to_syntax = {**syntax, **{k[3:]: v for k, v in respelled.items()}}
    if to_scheme is None and from_scheme is not None:
        to_scheme = from_scheme
    ops = LabelOps(labels_map, keep, drop)
    opt = Options(from_scheme, to_scheme, mode, misaligned, syntax, to_syntax, result,
                  label_ops=ops)
    given = {"encoding": encoding, **(conll_options or {})}
    read_options = {k: v for k, v in given.items() if k in fin.options}
    in_tags = fin.kind_of(src, read_options) == "tags"
    kinds = output_kinds(fout)
    out_kind = kinds[0] if len(kinds) == 1 else (parquet_kind or ("tags" if in_tags else "spans"))
    out_tags = out_kind == "tags"
    result.to_kind = out_kind
    writer = fout.write_tags if out_tags else fout.write_spans
    if writer is None:
        raise OptionError(f"The {fout.name} format has no writer of {out_kind}: convert to "
                          "another format.", option="to_format")
    if not in_tags and from_scheme is not None:
        raise OptionError(f"The input {src} holds spans: from_scheme=None (a scheme applies "
                          "to tag input).", option="from_scheme")
    if in_tags and not out_tags and from_scheme is None:
        raise OptionError("Decoding tags into spans needs the scheme of the input tags: pass "
                          "it, e.g. from_scheme='IOB2' (nerscore never guesses it).",
                          option="from_scheme")
    if not out_tags and to_scheme is not None and not in_tags:
        raise OptionError(f"The output {dst} gets spans: to_scheme=None (a scheme applies to "
                          "tag output).", option="to_scheme")
    if in_tags and ops and from_scheme is None:
        raise OptionError("Label operations act on entities: pass the scheme of the input "
                          "tags to decode them, e.g. from_scheme='IOB2' (nerscore never guesses "
                          "it).", option="from_scheme")
    if in_tags and to_scheme is not None and from_scheme is None:
        raise OptionError("Writing tags in another scheme decodes them: pass the scheme of the "
                          "input tags, e.g. from_scheme='IOB2' (nerscore never guesses it).",
                          option="from_scheme")
    check_unused(src, dst, fout, in_tags, out_kind, from_scheme=from_scheme, mode=mode,
                  misaligned=misaligned, labels_as=labels_as, parquet_kind=parquet_kind,
                  syntax=syntax, respelled=respelled)
    check_delimiter(delimiter, suffix=suffix)
    if "to_delimiter" in respelled:
        check_delimiter(to_syntax["delimiter"], suffix=to_syntax["suffix"], name="to_delimiter")
    check_outside(outside, suffix=suffix, delimiter=delimiter)
    if to_syntax != syntax:
        shown = (f"to_outside={to_outside!r}" if to_outside is not None else
                 f"outside={outside!r}, the outside tag of the output too,")
        check_outside(to_syntax["outside"], suffix=to_syntax["suffix"],
                      delimiter=to_syntax["delimiter"], shown=shown, name="to_outside")
    check_writable(fout, in_tags, out_tags, to_syntax, respelled, ops, encoding)
    text_input = os.path.isfile(src) or (fin.folder and os.path.isdir(src))
    read_as = encoding if "encoding" in fin.options and text_input else None
    job = _Job(fin, fout, in_tags, out_tags, read_options, opt, chunk_size, writer,
               WriteOptions(encoding if read_as is None else written_encoding(src, encoding),
                            labels_as, to_syntax["outside"], Layout(), given.get("spans_key"),
                            outside, read_as=read_as),
               progress)
    write_output(fout, dst, lambda path: job.write(src, path))
    result.reader_notes.extend(job.write_options.notes)
    lost = _lost_bom(src, dst, fin, encoding, job.write_options)
    if lost is not None:
        result.reader_notes.append(lost)
    if opt.unread:
        n, shown = len(opt.unread), ", ".join(quoted(t) for t in sorted(opt.unread))
        result.reader_notes.append(
            f"{n} tag{'s' if n != 1 else ''} of the label vocabulary that no token has kept as "
            f"{'they are' if n != 1 else 'it is'}: the spelling of the input tags cannot read "
            f"{'them' if n != 1 else 'it'} ({shown}).")
    if ops:
        warn_unknown_labels(ops, seen_labels(opt.label_tallies))
        result.reader_notes.extend(label_notes(opt.label_tallies, one_side=True))
    return result


#: The options :func:`convert_file` checks against the conversion asked for, before it
#: reads anything: an :class:`~nerscore.errors.OptionError` naming one is a misuse of the
#: call (a usage error on the command line), not a problem of the data.
CONVERSION_OPTIONS = frozenset({
    "to_format", "from_scheme", "to_scheme", "mode", "misaligned", "parquet_kind", "labels_as",
    "suffix", "delimiter", "outside", "to_suffix", "to_delimiter", "to_outside", "labels_map",
})


def write_documents(docs: list[Document], dst: str, fout: Format, *,
                    spans_key: str | None = None) -> tuple[str, ...]:
    """Write span documents made in memory as :func:`convert_file` writes them to ``fout``.

    What ``fout`` cannot hold (fragments, ignore regions, scores) is left out
    and counted, as a conversion counts it; the file is replaced atomically
    (a folder file by file). Returns the notes: what was left out, and what
    the writer says (ids a DocBin cannot keep, say).

    Parameters
    ----------
    docs : list of Document
        The documents.
    dst : str
        The output (a file; a folder for BRAT).
    fout : Format
        Its format.
    spans_key : str, optional
        spaCy ``.spacy`` output: the span group ``doc.spans[KEY]`` the spans
        are written to instead of ``doc.ents`` (overlapping spans allowed;
        :func:`~nerscore.io.docbin.write_docbin`).

    Returns
    -------
    tuple of str

    Raises
    ------
    OptionError
        When ``fout`` writes no span documents, or ``spans_key`` is given for
        a format without span groups.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from nerscore.io.formats import get_format
    >>> dst = str(pathlib.Path(tempfile.mkdtemp()) / "d.jsonl")
    >>> write_documents([Document("a", [(0, 4, "PER")], "Anna")], dst, get_format("jsonl"))
    ()
    >>> write_documents([], dst, get_format("jsonl"), spans_key="sc")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: spans_key='sc' names a span group of spaCy .spacy files; ...
    """
    if fout.write_spans is None:
        raise OptionError(f"{fout.name} files hold tags, not span documents; write JSON Lines "
                          "or BRAT.", option="format")
    if spans_key is not None and "spans_key" not in fout.options:
        raise OptionError(f"spans_key={spans_key!r} names a span group of spaCy .spacy files; "
                          f"{dst} is a {fout.name} file: leave it out.", option="spans_key")
    result = ConversionResult("documents", fout.name)
    kept = keep_only(docs, fout.keeps, Options(None, None, "lenient", "error", {}, {}, result))
    options = WriteOptions(spans_key=spans_key)
    writer = fout.write_spans
    write_output(fout, dst, lambda path: writer([kept], path, options))
    return (*result.notes(), *options.notes)


def write_output(fout: Format, dst: str, write: Callable[[str], object]) -> None:
    """``write(path)`` of the output ``dst`` in format ``fout``, leaving no half-written file.

    A file is written aside and moved in place when complete; a folder
    (BRAT) has its files put in place so by its writer, all of them at the
    end (:func:`~nerscore.io.atomic.atomic_files`).
    """
    if fout.folder:
        write(dst)
        return
    with atomic_path(dst) as tmp:
        write(tmp)


class _Job:
    """One conversion: the input read chunk by chunk, each chunk converted, the output written."""

    def __init__(self, fin: Format, fout: Format, in_tags: bool, out_tags: bool,
                 read_options: Mapping[str, Any], opt: Options, chunk_size: int,
                 writer: Callable[[Any, str, WriteOptions], int], write_options: WriteOptions,
                 progress: Progress | None) -> None:
        self.fin, self.fout = fin, fout
        self.in_tags, self.out_tags = in_tags, out_tags
        self.read_options = read_options
        self.opt = opt
        self.chunk_size = chunk_size
        self.writer = writer
        self.write_options = write_options
        self.progress = progress
        self.n_read = 0  # sentences of the tag input read so far

    def write(self, src: str, dst: str) -> None:
        fin, fout, opt, result = self.fin, self.fout, self.opt, self.opt.result
        if self.in_tags and self.out_tags and fin is fout and fin.relabel is not None:
            result.n_sequences = fin.relabel(src, dst, self.read_options, self._new_labels,
                                             self.progress, self.write_options)
            return
        if self.in_tags:
            tags = self._tag_chunks(src)
            if self.out_tags:
                self._write_tags((retag(c, opt) for c in tags), dst)
            else:
                self._write_spans(_lost_documents(tags, opt, fout.name), dst)
            return
        spans = (relabel_documents(data, opt) for data, _ in self._chunks(src))
        if self.out_tags:
            self._write_tags((to_tags(c, opt) for c in spans), dst)
        else:
            kept = (keep_only(c, fout.keeps, opt) for c in spans)
            self._write_spans(_counted_spans(kept, result), dst)

    def _new_labels(self, tags: EncodedTags) -> EncodedTags:
        first, self.n_read = self.n_read, self.n_read + tags.n_sequences  # blocks come in order
        return retag(TagChunk(tags.starting_at(first), None), self.opt).labels

    def _write_tags(self, chunks: Iterable[TagChunk], dst: str) -> None:
        n_in = [0]

        def counted() -> Iterator[TagChunk]:
            for c in chunks:
                n_in[0] += c.labels.n_sequences
                yield c

        n = self.writer(counted(), dst, self.write_options)
        self.opt.result.n_sequences = n
        self.opt.result.skipped_empty += n_in[0] - n

    def _write_spans(self, chunks: Iterable[list[Document]], dst: str) -> None:
        encoding = self.write_options.encoding
        if narrow_encoding(self.fout, encoding):
            chunks = _encodable(chunks, encoding)
        self.opt.result.n_sequences = self.writer(chunks, dst, self.write_options)

    def _tag_chunks(self, src: str) -> Iterator[TagChunk]:
        """The tag input as tag chunks: the format's own reader for them, else its chunks.

        Their tags are numbered from their first sentence in the file
        (``EncodedTags.first``): messages name the file's sentences, whatever
        the reader.
        """
        if self.fin.read_tag_chunks is not None:
            chunks: Iterable[TagChunk] = self._own_tag_chunks(src)
        else:
            chunks = (TagChunk(data, texts) for data, texts in self._chunks(src))
        for c in chunks:
            tags = c.labels.starting_at(self.n_read)
            yield dataclasses.replace(c, labels=tags, origin=tags)
            self.n_read += c.labels.n_sequences

    def _own_tag_chunks(self, src: str) -> Iterator[TagChunk]:
        """The chunks of the format's reader of tag chunks; the notes it returns counted."""
        assert self.fin.read_tag_chunks is not None
        chunks = self.fin.read_tag_chunks(src, self.chunk_size, self.read_options,
                                          self.write_options.layout, self.progress)
        notes = yield from cast("Generator[TagChunk, None, tuple[str, ...] | None]", chunks)
        self.opt.result.reader_notes.extend(notes or ())

    def _chunks(self, src: str) -> Iterator[tuple[Any, Sequence[list[str]] | None]]:
        """``(data, tokens of each sentence)`` of each chunk; the reader's notes counted."""
        notes = self.opt.result.reader_notes
        if self.fin.chunks is not None:
            stream = self.fin.chunks(src, self.chunk_size, self.read_options)
            for c in stream.chunks:
                yield stream.data(c), stream.texts(c)
                done, total = stream.position()
                if self.progress is not None and total:
                    self.progress(done, total)
            notes.extend(stream.notes())
            return
        whole = self.fin.load(src, self.read_options)  # a format read whole (BRAT)
        notes.extend(whole.notes)
        data, texts = whole.data, whole.texts()
        n = data.n_sequences if isinstance(data, EncodedTags) else len(data)
        for a in range(0, n, self.chunk_size):
            b = min(a + self.chunk_size, n)
            part = slice_tags(data, a, b) if isinstance(data, EncodedTags) else data[a:b]
            yield part, None if texts is None else texts[a:b]


def _lost_bom(src: str, dst: str, fin: Format, encoding: str,
              write_options: WriteOptions) -> str | None:
    """The note of the byte-order marks of ``src`` that the output ``dst`` lacks; None if none.

    The mark a text file began with, which its reader skipped (the files
    of ``fin.mark_files``: the ``.ann`` files of a BRAT folder or pair, whose
    ``.txt`` files keep theirs in the text), or the one a Parquet tag file
    keeps in its layout for the CoNLL file it was written from; a CoNLL
    output writes it again, a BRAT folder those of a BRAT input
    (``bom_kept``). The mark that ``utf-8-sig``, ``utf-16`` and ``utf-32``
    read as their own is not counted
    (:func:`~nerscore.io.convert.reading.began_with_bom`): they write one
    to every text output. Several marked files are counted, one is named.
    """
    if write_options.bom_kept:
        return None
    if "encoding" not in fin.options:
        kept = write_options.layout.bom  # read from the metadata of a Parquet tag file
        return (f"{src} keeps the byte-order mark of the CoNLL file it was written from, not "
                f"written to {dst}." if kept else None)
    files = (fin.mark_files(src) if fin.mark_files is not None
             else [src] if os.path.isfile(src) else [])
    marked = [f for f in files if began_with_bom(f, encoding)]
    if not marked:
        return None
    lost = f"a {mark_name(encoding)} byte-order mark, not written to {dst}."
    if len(marked) == 1:
        return f"{marked[0]} began with {lost}"
    kinds = {os.path.splitext(f)[1] for f in marked}
    kind = f"{kinds.pop()} files" if len(kinds) == 1 else "files"
    return f"{len(marked)} {kind} of {src} began with {lost}"


def _lost_documents(chunks: Iterable[TagChunk], opt: Options,
                    fout: str) -> Iterator[list[Document]]:
    """Tag chunks as span documents, counting the -DOCSTART- lines the spans cannot keep."""
    n = 0
    for c in chunks:
        n += len(c.documents)
        yield to_documents(c, opt)
    if n:
        opt.result.reader_notes.append(
            f"{n} -DOCSTART- line{'s' if n != 1 else ''} not kept: {fout} documents are the "
            "sentences.")


def _encodable(chunks: Iterable[list[Document]], encoding: str) -> Iterator[list[Document]]:
    """The chunks, each document checked to hold nothing that ``encoding`` cannot write."""
    for chunk in chunks:
        for doc in chunk:
            for what, value in (("id", doc.id), ("text", doc.text or ""),
                                *((f"label {quoted(e.label)}", e.label) for e in doc.spans)):
                try:
                    value.encode(encoding)
                except UnicodeEncodeError as exc:
                    raise FormatError(
                        f"{doc.named()}: its {what} holds {quoted(value[exc.start])} (character "
                        f"{exc.start}), which {encoding} cannot encode. Write the output in an "
                        "encoding that can, e.g. encoding='utf-8'.", source=doc.source,
                        line=doc.line) from None
        yield chunk


def _counted_spans(chunks: Iterable[list[Document]],
                   result: ConversionResult) -> Iterator[list[Document]]:
    for c in chunks:
        result.n_entities += sum(len(d.spans) for d in c)
        yield c
