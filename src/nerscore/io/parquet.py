"""Parquet files of tag columns or span columns (needs ``pyarrow``: ``pip install nerscore[parquet]``).

Two layouts, one row per sentence or document:

- **tags**: a label column (default ``"labels"``) of ``list<string>``,
  ``list<dictionary<int, string>>`` or ``list<int>``; integer labels index a
  vocabulary stored in the file's metadata under ``nerscore.vocab.<column>``
  (a JSON list), as :func:`write_parquet_tags` writes it. An optional
  ``"tokens"`` column (``list<string>``) gives the token strings.
- **spans**: ``"id"`` (string), ``"text"`` (string, optional) and
  ``"spans"``, a ``list<struct<start: int, end: int, label: string>>``.

Readers stream row groups in batches of at most ``chunk_size`` rows
(:meth:`pyarrow.parquet.ParquetFile.iter_batches`); integer and dictionary
label columns go straight into :class:`~nerscore.EncodedTags` without a
Python string per token.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from nerscore._optional import require
from nerscore.documents import Document
from nerscore.errors import FormatError
from nerscore.tags import EncodedTags

__all__ = [
    "VOCAB_KEY",
    "iter_parquet_documents",
    "iter_parquet_tags",
    "parquet_kind",
    "read_parquet",
    "write_parquet_documents",
    "write_parquet_tags",
]

#: Metadata key prefix of the vocabulary of an integer label column.
VOCAB_KEY = "nerscore.vocab."

_Path = str | os.PathLike[str]


def _pa() -> Any:
    return require("pyarrow", extra="parquet")


def _pq() -> Any:
    return require("pyarrow.parquet", extra="parquet")


def _open(path: _Path) -> Any:
    return _pq().ParquetFile(os.fspath(path))


def parquet_kind(path: _Path, *, spans_column: str = "spans", **_: Any) -> str:
    """``"spans"`` when the file has a span column, else ``"tags"``."""
    names = _open(path).schema_arrow.names
    return "spans" if spans_column in names else "tags"


def _vocab(pf: Any, column: str, source: str) -> tuple[str, ...]:
    meta = {**(pf.schema_arrow.metadata or {}), **(pf.metadata.metadata or {})}
    raw = meta.get((VOCAB_KEY + column).encode("utf-8"))
    if raw is None:
        raise FormatError(
            f"{source}: the integer label column {column!r} has no vocabulary; write it with "
            f"nerscore.io.parquet.write_parquet_tags, or store a JSON list of labels in the "
            f"file metadata under {VOCAB_KEY + column!r}.",
            source=source,
        )
    vocab = json.loads(raw.decode("utf-8"))
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
        With ``tokens`` when the file has the token column.
    """
    source = os.fspath(path)
    pf = _open(path)
    schema = pf.schema_arrow
    if column not in schema.names:
        raise FormatError(f"{source}: no column {column!r} (columns: {schema.names}).",
                          source=source)
    vocab = None
    if _pa().types.is_integer(schema.field(column).type.value_type):
        vocab = _vocab(pf, column, source)
    columns = [column]
    with_tokens = tokens_column is not None and tokens_column in schema.names
    if tokens_column is not None and with_tokens:
        columns.append(tokens_column)
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
        yield tags


def iter_parquet_documents(
    path: _Path, *, spans_column: str = "spans", id_column: str = "id",
    text_column: str = "text", chunk_size: int = 10_000,
) -> Iterator[list[Document]]:
    """Stream the span documents of a Parquet file, one batch of rows at a time.

    Rows without an id column are numbered ``"1"``, ``"2"``, ... in file order.
    """
    source = os.fspath(path)
    pf = _open(path)
    names = pf.schema_arrow.names
    if spans_column not in names:
        raise FormatError(f"{source}: no column {spans_column!r} (columns: {names}).",
                          source=source)
    columns = [c for c in (id_column, text_column, spans_column) if c in names]
    k = 0
    seen: set[str] = set()
    for batch in pf.iter_batches(batch_size=chunk_size, columns=columns):
        data = batch.to_pydict()
        n = batch.num_rows
        ids = data.get(id_column) or [str(k + i + 1) for i in range(n)]
        texts = data.get(text_column) or [None] * n
        docs = []
        for doc_id, text, spans in zip(ids, texts, data[spans_column], strict=True):
            name = str(doc_id)
            if name in seen:
                raise FormatError(f"{source}: document id {name!r} is used twice.",
                                  source=source)
            seen.add(name)
            triples = [(s["start"], s["end"], s["label"]) for s in spans or ()]
            docs.append(Document(name, triples, text, source=source))  # type: ignore[arg-type]
        k += n
        yield docs


def read_parquet(path: _Path, **options: Any) -> EncodedTags | list[Document]:
    """A whole Parquet file: :class:`EncodedTags` for a tag file, documents for a span file."""
    if parquet_kind(path, **options) == "spans":
        return [d for chunk in iter_parquet_documents(path, **options) for d in chunk]
    parts = list(iter_parquet_tags(path, **options))
    return _concat(parts, os.fspath(path))


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
    pa = _pa()
    pq = _pq()
    if labels_as not in ("int", "string"):
        raise ValueError(f"Expected `labels_as` to be 'int' or 'string'; got {labels_as!r}.")
    if isinstance(tags, EncodedTags):
        chunks: Iterable[EncodedTags] = [tags]
    elif isinstance(tags, Sequence):
        chunks = [EncodedTags.from_lists(tags)]
    else:
        chunks = tags
    index: dict[str, int] = {}
    writer = None
    label_type = pa.int32() if labels_as == "int" else pa.string()
    try:
        for chunk in chunks:
            if labels_as == "int":
                remap = np.array([index.setdefault(t, len(index)) for t in chunk.vocab],
                                 dtype=np.int32)
                values = pa.array(remap[chunk.ids] if len(chunk.ids) else
                                  np.zeros(0, np.int32), type=label_type)
            else:
                values = pa.array(np.asarray(chunk.vocab, dtype=object)[chunk.ids].tolist()
                                  if len(chunk.ids) else [], type=label_type)
            arrays = {column: pa.ListArray.from_arrays(
                pa.array(chunk.offsets.astype(np.int32)), values)}
            toks = tokens
            if toks is None and chunk.tokens is not None:
                o = chunk.offsets.tolist()
                flat = list(chunk.tokens)
                toks = [flat[a:b] for a, b in itertools.pairwise(o)]
            if toks is not None:
                arrays["tokens"] = pa.array([list(t) for t in toks], type=pa.list_(pa.string()))
            table = pa.table(arrays)
            if writer is None:
                writer = pq.ParquetWriter(os.fspath(path), table.schema)
            writer.write_table(table, row_group_size=row_group_size)
        if writer is None:  # nothing at all
            writer = pq.ParquetWriter(os.fspath(path),
                                      pa.schema([(column, pa.list_(label_type))]))
        if labels_as == "int":  # known only at the end: file metadata, written last
            writer.add_key_value_metadata({VOCAB_KEY + column: json.dumps(list(index))})
    finally:
        if writer is not None:
            writer.close()


def write_parquet_documents(
    path: _Path, documents: Iterable[Document] | Iterable[Sequence[Document]], *,
    row_group_size: int = 10_000,
) -> None:
    """Write span documents as a Parquet span file (``id``, ``text``, ``spans``).

    ``documents`` may be documents or chunks (lists) of documents; chunks
    are written one at a time.
    """
    pa = _pa()
    pq = _pq()
    span_type = pa.list_(pa.struct([("start", pa.int64()), ("end", pa.int64()),
                                    ("label", pa.string())]))
    schema = pa.schema([("id", pa.string()), ("text", pa.string()), ("spans", span_type)])
    with pq.ParquetWriter(os.fspath(path), schema) as writer:
        batch: list[Document] = []

        def flush() -> None:
            rows = {
                "id": [d.id for d in batch],
                "text": [d.text for d in batch],
                "spans": [[{"start": e.start, "end": e.end, "label": e.label}
                           for e in d.spans] for d in batch],
            }
            writer.write_table(pa.table(rows, schema=schema), row_group_size=row_group_size)
            batch.clear()

        for item in documents:
            if isinstance(item, Document):
                batch.append(item)
            else:
                batch.extend(item)
            if len(batch) >= row_group_size:
                flush()
        if batch:
            flush()
