"""Convert annotated files between formats and tag schemes, chunk by chunk.

:func:`convert_file` reads CoNLL, JSON Lines, BRAT or Parquet and writes any
of them, optionally re-encoding tags in another scheme. What cannot be
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
  written with :func:`nerscore.entities_to_tags` in ``to_scheme``.
- **Tags to tags** keep the labels as they are, unless ``to_scheme`` is
  given (or ``from_scheme`` alone, which re-encodes in the same scheme):
  then the tags are decoded and written again, and malformed chunks are
  counted as repaired (``mode="lenient"`` or ``"conlleval"``) or dropped
  (``mode="strict"``).
- **CoNLL in Parquet.** A Parquet tag file written from CoNLL keeps the
  other columns (``column_1``, ... by position in the line), a boolean
  ``document`` column (a ``-DOCSTART-`` line before the sentence) and the
  line layout in the metadata key ``nerscore.conll``, so that writing it back
  as CoNLL gives the same bytes for a file with one delimiter between
  columns, one blank line between sentences and ``-DOCSTART-`` lines
  written ``-DOCSTART- -X- ... O``. CoNLL to CoNLL rewrites the label column
  only (comments, blank lines and line endings kept).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from nerscore.io.atomic import atomic_path, same_file
from nerscore.io.chunks import FORMATS, guess_format
from nerscore.io.convert.reading import (
    ConversionResult,
    Layout,
    Options,
    TagChunk,
    read_conll_chunks,
    read_parquet_tag_chunks,
    read_span_chunks,
)
from nerscore.io.convert.writing import retag, to_documents, to_tags, write_spans, write_tags
from nerscore.values.documents import Document

__all__ = ["FORMATS", "ConversionResult", "convert_file", "guess_format"]

#: File formats :func:`convert_file` reads and writes.
Progress = Callable[[int, int], None]


def _conll_to_conll(source: str, target: str, chunk_options: dict[str, Any], opt: Options,
                    encoding: str, progress: Progress | None) -> None:
    """Rewrite the label column block by block; every other byte is kept."""
    from nerscore.io.conll import ConllChunks

    reader = ConllChunks(source, chunk_size=None, **chunk_options)
    total = os.path.getsize(source)
    with open(target, "w", encoding=encoding, newline="") as fh:
        for block in reader:
            fh.write(block.replace_labels(retag(TagChunk(block.tags, None), opt).labels)[0])
            opt.result.n_sequences += len(block)
            if progress is not None:
                progress(min(reader.bytes_read, total), total)


def convert_file(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    from_scheme: str | None = None,
    to_scheme: str | None = None,
    mode: str = "lenient",
    misaligned: str = "error",
    labels_as: str = "int",
    parquet_kind: str | None = None,
    chunk_size: int = 10_000,
    encoding: str = "utf-8",
    conll_options: dict[str, Any] | None = None,
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    progress: Progress | None = None,
) -> ConversionResult:
    r"""Convert an annotated file to another format and/or tag scheme (module docstring).

    Parameters
    ----------
    source, target : path
        The input, and the output (a file; a folder for BRAT).
    from_format, to_format : {"conll", "jsonl", "brat", "parquet"}, optional
        Formats (default: from the names, as :func:`nerscore.io.chunks.guess_format` does).
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
        What a Parquet output holds (default: what the input holds).
    chunk_size : int
        Sentences or documents per chunk (BRAT folders are read whole).
    encoding : str
        Text encoding of input and output files.
    conll_options : dict, optional
        ``token_column``, ``label_column``, ``column_delimiter``, ``comments``
        for CoNLL input.
    suffix, delimiter, outside
        Tag syntax.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk (bytes of CoNLL
        input, rows of Parquet input).

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
    result = ConversionResult(fin, fout)
    syntax = {"suffix": suffix, "delimiter": delimiter, "outside": outside}
    if to_scheme is None and from_scheme is not None:
        to_scheme = from_scheme
    opt = Options(from_scheme, to_scheme, mode, misaligned, syntax, result)
    in_tags = fin == "conll" or (fin == "parquet" and _parquet_holds_tags(src))
    out_tags = fout == "conll" or (fout == "parquet" and (parquet_kind or (
        "tags" if in_tags else "spans")) == "tags")
    result.to_kind = "tags" if out_tags else "spans"
    if not in_tags and from_scheme is not None:
        raise ValueError(f"The input {src} holds spans: from_scheme=None (a scheme applies to "
                         "tag input).")
    if in_tags and not out_tags and from_scheme is None:
        raise ValueError("Decoding tags into spans needs the scheme of the input tags: pass "
                         "it, e.g. from_scheme='IOB2' (nerscore never guesses it).")
    if not out_tags and to_scheme is not None and not in_tags:
        raise ValueError(f"The output {dst} gets spans: to_scheme=None (a scheme applies to "
                         "tag output).")
    if in_tags and to_scheme is not None and from_scheme is None:
        raise ValueError("Writing tags in another scheme decodes them: pass the scheme of the "
                         "input tags, e.g. from_scheme='IOB2' (nerscore never guesses it).")
    copts = {"encoding": encoding, **(conll_options or {})}
    if fout == "brat":  # a folder: each of its files is replaced atomically
        _write(src, dst, (fin, fout, in_tags, out_tags), copts, opt, chunk_size, labels_as,
               encoding, outside, progress)
        return result
    with atomic_path(dst) as tmp:  # an interrupted conversion leaves no half-written file
        _write(src, tmp, (fin, fout, in_tags, out_tags), copts, opt, chunk_size, labels_as,
               encoding, outside, progress)
    return result


def _write(src: str, dst: str, kinds: tuple[str, str, bool, bool], copts: dict[str, Any],
           opt: Options, chunk_size: int, labels_as: str, encoding: str, outside: str,
           progress: Progress | None) -> None:
    fin, fout, in_tags, out_tags = kinds
    result = opt.result
    if fin == "conll" and fout == "conll":
        _conll_to_conll(src, dst, copts, opt, encoding, progress)
        return
    layout = Layout()
    if in_tags:
        tag_chunks = (read_conll_chunks(src, chunk_size, copts, layout, progress) if fin == "conll"
                      else read_parquet_tag_chunks(src, chunk_size, layout, progress))
        if out_tags:
            write_tags((retag(c, opt) for c in tag_chunks), dst, fout, layout, labels_as,
                        encoding, outside, result)
        else:
            write_spans(_lost_documents(tag_chunks, opt, fout), dst, fout, encoding, result)
        return
    span_chunks = read_span_chunks(src, fin, chunk_size, encoding, result)
    if out_tags:
        write_tags((to_tags(c, opt) for c in span_chunks), dst, fout, layout, labels_as,
                    encoding, outside, result)
    else:
        write_spans(_counted_spans(span_chunks, result), dst, fout, encoding, result)


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


def _counted_spans(chunks: Iterable[list[Document]],
                   result: ConversionResult) -> Iterator[list[Document]]:
    for c in chunks:
        result.n_entities += sum(len(d.spans) for d in c)
        yield c


def _parquet_holds_tags(path: str) -> bool:
    from nerscore.io.parquet import parquet_kind

    return parquet_kind(path) == "tags"
