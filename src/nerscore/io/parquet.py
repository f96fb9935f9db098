"""Parquet files of tag columns or span columns (needs ``pyarrow``: ``pip install nerscore[parquet]``).

Two layouts, one row per sentence or document:

- **tags**: a label column (default ``"labels"``) of ``list<string>``,
  ``list<dictionary<int, string>>`` or ``list<int>``; integer labels index a
  vocabulary stored in the file's metadata under ``nerscore.vocab.<column>``
  (a JSON list), as :func:`write_parquet_tags` writes it. An optional
  ``"tokens"`` column (``list<string>``) gives the token strings.
- **spans**: ``"id"`` (string or integer; ids used twice are an error
  naming both rows), ``"text"`` (string, optional) and
  ``"spans"``, a ``list<struct<start: int, end: int, label: string>>``; a
  span's optional ``fragments`` field (``list<struct<start: int, end:
  int>>``, null for a contiguous span) holds the fragments of a
  discontinuous one, its optional ``score`` field (a number, null for an
  unscored span) the system's confidence (docs/curves.md), and an optional ``"ignore"`` column
  (``list<struct<start: int, end: int, label: string>>``, label null for a
  region of every label) the document's ignore regions (docs/fragments.md).

Readers stream row groups in batches of at most ``chunk_size`` rows
(:meth:`pyarrow.parquet.ParquetFile.iter_batches`); integer and dictionary
label columns go straight into :class:`~nerscore.EncodedTags` without a
Python string per token. The whole-file reader checks batches of 10,000
rows; ``nerscore score`` reads the same batches, cut to its chunk size, so
that an error is the same.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nerscore.errors import FormatError
from nerscore.io._json_text import metadata_json
from nerscore.io._parquet_documents import iter_parquet_documents, write_parquet_documents
from nerscore.io._parquet_files import Path as _Path, open_parquet as _open, pa as _pa, pq as _pq
from nerscore.io.chunks import cut_chunks
from nerscore.io.format_hooks import any_input_error
from nerscore.io.formats import ChunkStream, Counted, Format, ReadResult, lazy, register_format
from nerscore.values.documents import Document
from nerscore.values.tags import EncodedTags

if TYPE_CHECKING:
    from nerscore.io.convert.reading import WriteOptions

__all__ = [
    "FORMAT",
    "VOCAB_KEY",
    "ParquetTagWriter",
    "iter_parquet_columns",
    "iter_parquet_documents",
    "iter_parquet_tags",
    "parquet_json",
    "parquet_kind",
    "parquet_shape",
    "read_parquet",
    "write_parquet_documents",
    "write_parquet_tags",
]

#: Metadata key prefix of the vocabulary of an integer label column.
VOCAB_KEY = "nerscore.vocab."

def parquet_kind(path: _Path, *, spans_column: str = "spans", **_: Any) -> str:
    """``"spans"`` when the file has a span column, else ``"tags"``."""
    names = _open(path).schema_arrow.names
    return "spans" if spans_column in names else "tags"


def _metadata_json(pf: Any, key: str, source: str) -> Any:
    """The JSON value under ``key`` in a file's metadata (schema and file metadata); None without one."""
    meta = {**(pf.schema_arrow.metadata or {}), **(pf.metadata.metadata or {})}
    raw = meta.get(key.encode("utf-8"))
    return None if raw is None else metadata_json(raw, source, key)


def _vocab(pf: Any, column: str, source: str) -> tuple[str, ...]:
    vocab = _metadata_json(pf, VOCAB_KEY + column, source)
    if vocab is None:
        raise FormatError(
            f"{source}: the integer label column {column!r} has no vocabulary; write it with "
            f"nerscore.io.parquet.write_parquet_tags, or store a JSON list of labels in the "
            f"file metadata under {VOCAB_KEY + column!r}.",
            source=source,
        )
    if not isinstance(vocab, list) or not all(isinstance(v, str) for v in vocab):
        raise FormatError(f"{source}: the vocabulary of {column!r} is not a list of strings.",
                          source=source)
    return tuple(vocab)


def _list_parts(arr: Any, column: str, source: str) -> tuple[Any, np.ndarray[Any, Any]]:
    """The flat values of a list array and its offsets from 0."""
    pa = _pa()
    if arr.null_count:
        raise FormatError(f"{source}: column {column!r} has null rows.", source=source)
    if not pa.types.is_list(arr.type) and not pa.types.is_large_list(arr.type):
        raise FormatError(f"{source}: expected column {column!r} to be a list column; got "
                          f"{arr.type}.", source=source)
    offsets = np.asarray(arr.offsets, dtype=np.int64)
    offsets = offsets - offsets[0]
    return arr.flatten(), offsets


def _tags_of(arr: Any, column: str, source: str, vocab: tuple[str, ...] | None) -> EncodedTags:
    pa = _pa()
    values, offsets = _list_parts(arr, column, source)
    if values.null_count:
        raise FormatError(f"{source}: column {column!r} has null labels.", source=source)
    if pa.types.is_dictionary(values.type):
        ids = np.asarray(values.indices, dtype=np.int64)
        labels = tuple(values.dictionary.to_pylist())
    elif pa.types.is_integer(values.type):
        if vocab is None:
            raise FormatError(f"{source}: integer labels need a vocabulary.", source=source)
        ids = np.asarray(values, dtype=np.int64)
        labels = vocab
        if len(ids) and (ids.min() < 0 or ids.max() >= len(labels)):
            raise FormatError(
                f"{source}: label ids of {column!r} range from {int(ids.min())} to "
                f"{int(ids.max())}, outside the {len(labels)} labels of its vocabulary.",
                source=source,
            )
    elif pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        enc = values.dictionary_encode()
        ids = np.asarray(enc.indices, dtype=np.int64)
        labels = tuple(enc.dictionary.to_pylist())
    else:
        raise FormatError(f"{source}: expected list<string> or list<int> labels in {column!r};"
                          f" got {arr.type}.", source=source)
    return EncodedTags(ids, offsets, labels, source)


def iter_parquet_tags(
    path: _Path, *, column: str = "labels", tokens_column: str | None = "tokens",
    chunk_size: int = 10_000,
) -> Iterator[EncodedTags]:
    """Stream the tag column of a Parquet file as :class:`EncodedTags`, one batch at a time.

    Parameters
    ----------
    path : path
        The file.
    column : str
        The label column.
    tokens_column : str or None
        A ``list<string>`` column of token strings, read when present (for
        error listings).
    chunk_size : int
        Most rows (sentences) per batch.

    Yields
    ------
    EncodedTags
        With ``tokens`` when the file has the token column, and the number of
        its first row in the file (``first``).
    """
    source = os.fspath(path)
    pf = _open(path)
    schema = pf.schema_arrow
    if column not in schema.names:
        hint = ""
        if b"huggingface" in (schema.metadata or {}):
            hint = (" It is a Hugging Face dataset file: read it with --gold-format/--pred-"
                    "format hf (format 'hf').")
        raise FormatError(f"{source}: no column {column!r} (columns: {schema.names}).{hint}",
                          source=source)
    vocab = None
    if _pa().types.is_integer(schema.field(column).type.value_type):
        vocab = _vocab(pf, column, source)
    columns = [column]
    with_tokens = tokens_column is not None and tokens_column in schema.names
    if tokens_column is not None and with_tokens:
        columns.append(tokens_column)
    n = 0
    for batch in pf.iter_batches(batch_size=chunk_size, columns=columns):
        tags = _tags_of(batch.column(column), column, source, vocab)
        if with_tokens:
            tok_values, tok_offsets = _list_parts(batch.column(tokens_column), str(tokens_column),
                                                  source)
            if not np.array_equal(tok_offsets, tags.offsets):
                raise FormatError(f"{source}: {tokens_column!r} and {column!r} differ in "
                                  "length in some row.", source=source)
            tags = EncodedTags(tags.ids, tags.offsets, tags.vocab, source, None,
                               tok_values.to_pylist())
        yield tags.starting_at(n)
        n += tags.n_sequences


def read_parquet(path: _Path, **options: Any) -> EncodedTags | list[Document]:
    """A whole Parquet file: :class:`EncodedTags` for a tag file, documents for a span file.

    It is read in batches of 10,000 rows (``chunk_size``), each checked on its own.
    """
    options = {"chunk_size": _BATCH, **options}
    if parquet_kind(path, **options) == "spans":
        return [d for chunk in iter_parquet_documents(path, **options) for d in chunk]
    parts = list(iter_parquet_tags(path, **options))
    return _concat(parts, os.fspath(path))


#: Rows that :func:`read_parquet` reads and checks at a time. The chunked reader of ``nerscore
#: score`` reads the same batches, cut to its chunk size, so that its error is the whole
#: reader's, word for word (a batch's error names the range of its label ids, or is the first of
#: its checks that fails over the whole batch).
_BATCH = 10_000


def _concat(parts: Sequence[EncodedTags], source: str) -> EncodedTags:
    if not parts:
        return EncodedTags(np.zeros(0, np.int64), np.zeros(1, np.int64), (), source)
    index: dict[str, int] = {}
    ids, offsets = [], [np.zeros(1, np.int64)]
    tokens: list[str] = []
    n = 0
    for p in parts:
        remap = np.array([index.setdefault(t, len(index)) for t in p.vocab], dtype=np.int64)
        ids.append(remap[p.ids] if len(p.ids) else p.ids)
        offsets.append(p.offsets[1:] + n)
        n += len(p.ids)
        if p.tokens is not None:
            tokens.extend(p.tokens)
    return EncodedTags(np.concatenate(ids), np.concatenate(offsets), tuple(index), source,
                       None, tokens if parts[0].tokens is not None else None)


def write_parquet_tags(
    path: _Path, tags: EncodedTags | Sequence[Sequence[str]] | Iterable[EncodedTags], *,
    tokens: Sequence[Sequence[str]] | None = None, column: str = "labels",
    labels_as: str = "int", row_group_size: int = 100_000,
) -> None:
    """Write tag sequences as a Parquet tag file (one row per sentence).

    Parameters
    ----------
    path : path
        The file (overwritten).
    tags : EncodedTags, list of list of str, or an iterable of EncodedTags
        The label column; an iterable of :class:`EncodedTags` (chunks) is
        written chunk by chunk against one growing vocabulary.
    tokens : list of list of str, optional
        A token column, shaped like ``tags`` (whole inputs only).
    column : str
        Name of the label column.
    labels_as : {"int", "string"}
        ``list<int32>`` with the vocabulary in the metadata, or ``list<string>``.
    row_group_size : int
        Rows per row group.
    """
    if isinstance(tags, EncodedTags):
        chunks: Iterable[EncodedTags] = [tags]
    elif isinstance(tags, Sequence):
        chunks = [EncodedTags.from_lists(tags)]
    else:
        chunks = tags
    with ParquetTagWriter(path, column=column, labels_as=labels_as,
                          row_group_size=row_group_size) as writer:
        for chunk in chunks:
            writer.write(chunk, tokens=tokens)


class ParquetTagWriter:
    """Write a Parquet tag file chunk by chunk (what :func:`write_parquet_tags` uses).

    Every :meth:`write` adds rows (one per sentence): the label column, the
    tokens, further ``list<string>`` columns and a boolean ``document``
    column, as given; the first chunk fixes the columns. Integer labels index
    one vocabulary that grows with the chunks; it is stored in the file
    metadata on :meth:`close`, with ``metadata``.

    Parameters
    ----------
    path : path
        The file (overwritten).
    column : str
        Name of the label column.
    labels_as : {"int", "string"}
        ``list<int32>`` with the vocabulary in the metadata, or ``list<string>``.
    row_group_size : int
        Rows per row group.
    metadata : mapping of str to str, optional
        More key-value metadata of the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "tags.parquet"
    >>> with ParquetTagWriter(tmp) as w:
    ...     w.write(EncodedTags.from_lists([["B-PER", "O"]]), tokens=[["Anna", "left"]])
    >>> [(t.to_lists(), list(t.tokens)) for t in iter_parquet_tags(tmp)]
    [([['B-PER', 'O']], ['Anna', 'left'])]
    """

    def __init__(self, path: _Path, *, column: str = "labels", labels_as: str = "int",
                 row_group_size: int = 100_000, metadata: dict[str, str] | None = None) -> None:
        if labels_as not in ("int", "string"):
            raise ValueError(f"Expected `labels_as` to be 'int' or 'string'; got {labels_as!r}.")
        self.path = os.fspath(path)
        self.column = column
        self.labels_as = labels_as
        self.row_group_size = row_group_size
        self.metadata = dict(metadata or {})
        self._index: dict[str, int] = {}
        self._writer: Any = None
        self._pa = _pa()
        self._label_type = self._pa.int32() if labels_as == "int" else self._pa.string()

    def __enter__(self) -> ParquetTagWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, tags: EncodedTags, *, tokens: Sequence[Sequence[str]] | None = None,
              columns: dict[str, Sequence[Sequence[str]]] | None = None,
              documents: Sequence[bool] | None = None) -> None:
        """Add the sentences of ``tags`` (tokens default to ``tags.tokens``)."""
        pa = self._pa
        if self.labels_as == "int":
            remap = np.array([self._index.setdefault(t, len(self._index)) for t in tags.vocab],
                             dtype=np.int32)
            values = pa.array(remap[tags.ids] if len(tags.ids) else np.zeros(0, np.int32),
                              type=self._label_type)
        else:
            values = pa.array(np.asarray(tags.vocab, dtype=object)[tags.ids].tolist()
                              if len(tags.ids) else [], type=self._label_type)
        arrays = {self.column: pa.ListArray.from_arrays(
            pa.array(tags.offsets.astype(np.int32)), values)}
        toks = tokens
        if toks is None:
            toks = tags.sentence_tokens()
        strings = pa.list_(pa.string())
        if toks is not None:
            arrays["tokens"] = pa.array([list(t) for t in toks], type=strings)
        for name, values_ in (columns or {}).items():
            arrays[name] = pa.array([list(v) for v in values_], type=strings)
        if documents is not None:
            arrays["document"] = pa.array(list(documents), type=pa.bool_())
        table = pa.table(arrays)
        if self._writer is None:
            self._writer = _pq().ParquetWriter(self.path, table.schema)
        self._writer.write_table(table, row_group_size=self.row_group_size)

    def close(self) -> None:
        """Write the metadata (and an empty file when nothing was written) and close."""
        if self._writer is None:
            self._writer = _pq().ParquetWriter(
                self.path, self._pa.schema([(self.column, self._pa.list_(self._label_type))]))
        meta = dict(self.metadata)
        if self.labels_as == "int":  # known only at the end: file metadata, written last
            meta[VOCAB_KEY + self.column] = json.dumps(list(self._index))
        if meta:
            self._writer.add_key_value_metadata(meta)
        self._writer.close()


def parquet_json(path: _Path, key: str) -> Any:
    """The JSON value kept under ``key`` in a Parquet file's metadata; None without one.

    Raises
    ------
    FormatError
        When the value is not JSON (:func:`~nerscore.io._json_text.metadata_json`).
    """
    return _metadata_json(_open(path), key, os.fspath(path))


def parquet_shape(path: _Path) -> tuple[list[str], int]:
    """The column names and the number of rows of a Parquet file."""
    pf = _open(path)
    return list(pf.schema_arrow.names), int(pf.metadata.num_rows)


def iter_parquet_columns(
    path: _Path, columns: Sequence[str], *, chunk_size: int = 10_000,
) -> Iterator[dict[str, list[Any]]]:
    """Stream some columns of a Parquet file as Python lists, one batch of rows at a time.

    Batches are cut as :func:`iter_parquet_tags` cuts them for the same
    ``chunk_size``, so the two can be read side by side.
    """
    pf = _open(path)
    missing = [c for c in columns if c not in pf.schema_arrow.names]
    if missing:
        raise FormatError(f"{os.fspath(path)}: no column {missing[0]!r}.",
                          source=os.fspath(path))
    if not columns:
        return
    for batch in pf.iter_batches(batch_size=chunk_size, columns=list(columns)):
        yield batch.to_pydict()


# ----------------------------------------------------------------------------- the format


def _kind(path: str, options: Mapping[str, Any]) -> str:
    return parquet_kind(path, **options)


def _texts(tags: EncodedTags) -> Sequence[list[str]] | None:
    return tags.sentence_tokens()


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    data = read_parquet(path, **options)
    if isinstance(data, EncodedTags):
        return ReadResult(data, texts=lambda: _texts(data))
    return ReadResult(data)


def _chunks(path: str, chunk_size: int, options: Mapping[str, Any]) -> ChunkStream:
    try:
        kind = parquet_kind(path, **options)
    except (OSError, FormatError):  # raised when read, after gold's error (Format.kind_of)
        return ChunkStream(_read_later(path, chunk_size, options), file_error=any_input_error)
    if kind == "spans":
        docs = iter_parquet_documents(path, chunk_size=_BATCH, **options)
        return ChunkStream(cut_chunks(docs, chunk_size), file_error=any_input_error)
    tags = iter_parquet_tags(path, chunk_size=_BATCH, **options)
    return ChunkStream(cut_chunks(tags, chunk_size), texts=_texts, file_error=any_input_error)


def _read_later(path: str, chunk_size: int, options: Mapping[str, Any]) -> Iterator[Any]:
    """The chunks of a file that could not be opened: its error, raised when it is read."""
    parquet_kind(path, **options)  # raises it again
    yield from _chunks(path, chunk_size, options).chunks


def _write_spans(chunks: Iterable[list[Document]], target: str, options: WriteOptions) -> int:
    documents = Counted(chunks)
    write_parquet_documents(target, iter(documents))
    return documents.count


#: The ``parquet`` format: its files hold tags or spans (a ``spans`` column).
FORMAT = register_format(Format(
    "parquet", "Parquet: a row per sentence (a label column) or per document (a span column)",
    kind=_kind, read=_read, suffixes=(".parquet", ".pq"), chunks=_chunks,
    keeps=("fragments", "ignore", "score"),
    options=("column", "tokens_column", "spans_column", "id_column", "text_column"),
    write_tags=lazy("nerscore.io.convert.writing", "write_parquet_tag_chunks"),
    write_spans=_write_spans,
    read_tag_chunks=lazy("nerscore.io.convert.reading", "read_parquet_tag_chunks"),
))
