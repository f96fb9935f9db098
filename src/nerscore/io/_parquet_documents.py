"""Parquet span files: one row per document, its spans as a list of structs.

The columns are ``id``, ``text``, ``spans`` (structs with ``start``,
``end``, ``label``, and optionally ``fragments`` and ``score``) and
``ignore`` (structs with ``start``, ``end`` and an optional ``label``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from nerscore.errors import FormatError, InvalidSpanError
from nerscore.io._parquet_files import Path, open_parquet, pa as _pa_module, pq as _pq_module
from nerscore.values.documents import Document, region_list

__all__ = ["iter_parquet_documents", "write_parquet_documents"]


def iter_parquet_documents(
    path: Path, *, spans_column: str = "spans", id_column: str = "id",
    text_column: str = "text", chunk_size: int = 10_000,
) -> Iterator[list[Document]]:
    """Stream the span documents of a Parquet file, one batch of rows at a time.

    Rows without an id column are numbered ``"1"``, ``"2"``, ... in file order.
    Ids are strings or integers (read as their decimal strings), as in JSON
    Lines: an id column of another type (a float column: ``1.0``) is an
    error naming its first row with an id, before any row is read.
    """
    source = os.fspath(path)
    pf = open_parquet(path)
    names = pf.schema_arrow.names
    if spans_column not in names:
        raise FormatError(f"{source}: no column {spans_column!r} (columns: {names}).",
                          source=source)
    columns = [c for c in (id_column, text_column, spans_column, "ignore") if c in names]
    _check_structs(pf, spans_column, ("start", "end", "label"), source)
    if "ignore" in names:
        _check_structs(pf, "ignore", ("start", "end"), source)
    if id_column in names:
        _check_ids(pf, id_column, source)
    k = 0
    seen: dict[str, int] = {}
    for batch in pf.iter_batches(batch_size=chunk_size, columns=columns):
        data = batch.to_pydict()
        n = batch.num_rows
        ids = data.get(id_column) or [str(k + i + 1) for i in range(n)]
        texts = data.get(text_column) or [None] * n
        regions = data.get("ignore") or [None] * n
        docs = []
        for i, (doc_id, text, spans, ignore) in enumerate(
                zip(ids, texts, data[spans_column], regions, strict=True)):
            if doc_id is None:
                raise FormatError(
                    f"{source}, row {k + i} (counting from 0): no id (a null in column "
                    f"{id_column!r}). Give every row an id, or leave out the column to number "
                    "the rows 1, 2, ... in file order.", source=source)
            name = str(doc_id)
            if name in seen:  # worded as JSON Lines words it, rows for lines
                raise FormatError(f"{source}, row {k + i} (counting from 0): document id "
                                  f"{name!r} was already used on row {seen[name]}; ids must be "
                                  "unique.", source=source)
            seen[name] = k + i
            items: Any = [_span(s) for s in spans or ()]
            found: Any = [_region(r) for r in ignore or ()]
            try:
                docs.append(Document(name, items, text, source=source, ignore=found))
            except InvalidSpanError as exc:  # named by file and row, as JSON Lines by line
                raise InvalidSpanError(f"{source}, row {k + i} (counting from 0): {exc}",
                                       document=exc.document, spans=exc.spans) from None
        k += n
        yield docs


def _check_ids(pf: Any, column: str, source: str) -> None:
    """Raise a :class:`FormatError` unless the ids of ``column`` are strings or integers.

    Named by the first row with an id: a column of nulls leaves each row's
    own error (it has no id).
    """
    pa = _pa_module()
    kind = pf.schema_arrow.field(column).type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_integer(kind)
            or pa.types.is_null(kind) or str(kind) == "string_view"):  # no is_string_view in 14
        return
    k = 0
    for batch in pf.iter_batches(columns=[column]):
        values = batch.column(0)
        if values.null_count < len(values):
            i = next(i for i, v in enumerate(values.is_valid().to_pylist()) if v)
            hint = ("; pandas turns a column of integers with a missing value into floats: "
                    "cast it to 'Int64' or str before writing it"
                    if pa.types.is_floating(kind) else "")
            raise FormatError(
                f"{source}, row {k + i} (counting from 0): expected the ids of column "
                f"{column!r} to be strings or integers; got {values[i].as_py()!r} (the column "
                f"holds {kind}). Write the ids as strings or integers{hint}.", source=source)
        k += len(values)


def _check_structs(pf: Any, column: str, required: tuple[str, ...], source: str) -> None:
    """Raise a :class:`FormatError` unless ``column`` is a list of structs with the fields ``required``."""
    pa = _pa_module()
    kind = pf.schema_arrow.field(column).type
    what = "spans" if column != "ignore" else "ignore regions"
    need = ", ".join(repr(f) for f in required[:-1]) + f" and {required[-1]!r}"
    if not (pa.types.is_list(kind) or pa.types.is_large_list(kind)) or not pa.types.is_struct(
            kind.value_type):
        raise FormatError(f"{source}: column {column!r} holds {kind}, not a list of structs; "
                          f"each row's {what} are structs with the fields {need}.",
                          source=source)
    fields = [kind.value_type.field(j).name for j in range(kind.value_type.num_fields)]
    missing = [f for f in required if f not in fields]
    if missing:
        raise FormatError(
            f"{source}: the {what} of column {column!r} have no field "
            f"{' or '.join(repr(f) for f in missing)} (their fields: {', '.join(fields)}); "
            f"each needs the fields {need}.", source=source)


def _span(s: Mapping[str, Any]) -> Any:
    """A span struct as the span it is: a triple or, scored, a 4-tuple; a dict with fragments."""
    frags = s.get("fragments")
    score = s.get("score")
    if not frags:
        if score is None:
            return (s["start"], s["end"], s["label"])
        return (s["start"], s["end"], s["label"], score)
    out = {"start": s["start"], "end": s["end"], "label": s["label"],
           "fragments": [[f["start"], f["end"]] for f in frags]}
    if score is not None:
        out["score"] = score
    return out


def _region(r: Mapping[str, Any]) -> list[Any]:
    return [r["start"], r["end"]] + ([r["label"]] if r.get("label") is not None else [])


def write_parquet_documents(
    path: Path, documents: Iterable[Document] | Iterable[Sequence[Document]], *,
    row_group_size: int = 10_000,
) -> None:
    """Write span documents as a Parquet span file (``id``, ``text``, ``spans``, ``ignore``).

    ``documents`` may be documents or chunks (lists) of documents; chunks
    are written one at a time. Each span has ``fragments`` (null unless it
    is discontinuous) and ``score`` (float64, null for an unscored span);
    ``ignore`` holds each document's ignore regions.
    """
    pa = _pa_module()
    pq = _pq_module()
    bounds = [("start", pa.int64()), ("end", pa.int64())]
    span_type = pa.list_(pa.struct([*bounds, ("label", pa.string()),
                                    ("fragments", pa.list_(pa.struct(bounds))),
                                    ("score", pa.float64())]))
    region_type = pa.list_(pa.struct([*bounds, ("label", pa.string())]))
    schema = pa.schema([("id", pa.string()), ("text", pa.string()), ("spans", span_type),
                        ("ignore", region_type)])
    with pq.ParquetWriter(os.fspath(path), schema) as writer:
        batch: list[Document] = []

        def flush() -> None:
            rows = {
                "id": [d.id for d in batch],
                "text": [d.text for d in batch],
                "spans": [[{"start": e.start, "end": e.end, "label": e.label,
                            "fragments": [{"start": f.start, "end": f.end}
                                          for f in e.fragments] if e.fragments else None,
                            "score": e.score}
                           for e in d.spans] for d in batch],
                "ignore": [[dict(zip(("start", "end", "label"),
                                     [*region_list(r), None][:3], strict=True))
                            for r in d.ignore] for d in batch],
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
