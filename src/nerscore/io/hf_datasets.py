"""Hugging Face datasets on disk: ``save_to_disk`` folders and the hub's Parquet layout.

Needs ``pyarrow`` (``pip install nerscore[parquet]``); the ``datasets``
package is never imported. Three layouts are read, one row per sentence:

- a ``Dataset.save_to_disk`` folder: Arrow stream files
  (``data-00000-of-00001.arrow``, in the order ``state.json`` lists them)
  beside ``dataset_info.json``, whose ``features`` give the label names;
- a ``DatasetDict.save_to_disk`` folder: ``dataset_dict.json`` lists the
  splits, one such folder each;
- the hub's Parquet layout: ``data/<split>-00000-of-00001.parquet`` (what
  ``push_to_hub`` writes), ``<config>/<split>/0000.parquet`` (the hub's
  Parquet conversion) or ``<split>/*.parquet``; each file's ``huggingface``
  metadata holds the features. A single such ``.parquet`` file is read too.

The label column (default ``ner_tags``) holds class ids of a ``ClassLabel``
feature, whose ``names`` are the tags; a column of strings is read as the
tags themselves. The token column (default ``tokens``) is read when present.
A folder with several splits needs ``split=`` (``--split``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from nerscore.errors import FormatError, require
from nerscore.io._json_text import json_kind, metadata_json, read_json_file
from nerscore.io._parquet_files import refusal as _refusal
from nerscore.io.formats import ChunkStream, Format, ReadResult, register_format
from nerscore.io.parquet import _concat, _list_parts, _tags_of
from nerscore.values.tags import EncodedTags

__all__ = ["FORMAT", "class_label_names", "hf_splits", "is_hf_dataset", "iter_hf_tags",
           "read_hf_dataset"]

_Path = str | os.PathLike[str]
_SEQUENCES = ("Sequence", "List", "LargeList")
_SHARD = re.compile(r"(?P<split>.+?)-\d{5}-of-\d{5}\.parquet\Z")


def _pa() -> Any:
    return require("pyarrow", extra="parquet")


def _json(path: str) -> dict[str, Any]:
    """The JSON object of a file the dataset keeps (dataset_info.json, state.json, ...)."""
    data = read_json_file(path, os.path.basename(path))
    if not isinstance(data, dict):
        raise FormatError(f"{path}: expected a JSON object; got {json_kind(data)}.",
                          source=path)
    return data


def class_label_names(features: Mapping[str, Any], column: str, source: str) -> tuple[str, ...] | None:
    """The ``ClassLabel`` names of a list column of a dataset's ``features``; None for strings.

    Parameters
    ----------
    features : mapping
        The ``features`` of ``dataset_info.json`` (or of a file's
        ``huggingface`` metadata).
    column : str
        The label column.
    source : str
        The file or folder, for messages.

    Returns
    -------
    tuple of str or None
        None when the column holds strings.

    Raises
    ------
    FormatError
        When the column is missing, or holds integers without ``ClassLabel`` names.

    Examples
    --------
    >>> class_label_names({"ner_tags": {"feature": {"names": ["O", "B-PER"],
    ...                    "_type": "ClassLabel"}, "_type": "List"}}, "ner_tags", "d")
    ('O', 'B-PER')
    """
    if column not in features:
        raise FormatError(f"{source}: no column {column!r} in the dataset's features "
                          f"({', '.join(map(repr, features))}); name the label column with "
                          "the reader option column=....", source=source)
    feature = features[column]
    inner: Any = None
    if isinstance(feature, list) and feature:  # the [ClassLabel] shorthand of a sequence
        inner = feature[0]
    elif isinstance(feature, Mapping) and feature.get("_type") in _SEQUENCES:
        inner = feature.get("feature")
    if isinstance(inner, Mapping):
        if inner.get("_type") == "ClassLabel" and isinstance(inner.get("names"), list):
            return tuple(str(n) for n in inner["names"])
        if inner.get("_type") == "Value" and inner.get("dtype") in ("string", "large_string"):
            return None
    raise FormatError(
        f"{source}: the column {column!r} is not a sequence of ClassLabel ids or strings "
        f"(its feature: {json.dumps(feature)}); nerscore reads the tag names from a "
        "ClassLabel feature.", source=source)


# --------------------------------------------------------------------------- layouts


def _parquet_splits(root: str) -> dict[str, list[str]]:
    """The Parquet files under ``root`` by split (hub layouts), in name order."""
    found: dict[str, list[str]] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.endswith(".parquet"):
                continue
            m = _SHARD.match(name)
            split = m.group("split") if m else os.path.basename(folder)
            if folder == root and not m:
                split = name[: -len(".parquet")]
            found.setdefault(split, []).append(os.path.join(folder, name))
    return found


def hf_splits(path: _Path) -> dict[str, list[str]]:
    """The splits of a dataset on disk and their data files (Arrow or Parquet), in order.

    A ``Dataset.save_to_disk`` folder or a single Parquet file has one
    split, named ``""``.

    Raises
    ------
    FormatError
        When ``path`` is none of the layouts (module documentation).
    """
    p = os.fspath(path)
    if os.path.isfile(p):
        return {"": [p]}
    if not os.path.isdir(p):
        raise FormatError(f"{p}: no such dataset folder or file.", source=p)
    dict_file = os.path.join(p, "dataset_dict.json")
    if os.path.isfile(dict_file):
        splits = _json(dict_file).get("splits")
        if not isinstance(splits, list):
            raise FormatError(f"{dict_file}: expected a list under 'splits'.", source=dict_file)
        return {str(s): _arrow_files(os.path.join(p, str(s))) for s in splits}
    if os.path.isfile(os.path.join(p, "dataset_info.json")):
        return {"": _arrow_files(p)}
    found = _parquet_splits(p)
    if not found:
        raise FormatError(
            f"{p}: not a Hugging Face dataset on disk: no dataset_dict.json or "
            "dataset_info.json (Dataset.save_to_disk) and no .parquet file (the hub's "
            "layout).", source=p)
    return found


def _arrow_files(folder: str) -> list[str]:
    state = os.path.join(folder, "state.json")
    if os.path.isfile(state):
        files = _json(state).get("_data_files", [])
        if not isinstance(files, list) or not all(
                isinstance(f, dict) and isinstance(f.get("filename"), str) for f in files):
            raise FormatError(f"{state}: expected a list of objects with a \"filename\" under "
                              "'_data_files'.", source=state)
        return [os.path.join(folder, f["filename"]) for f in files]
    if not os.path.isdir(folder):
        raise FormatError(f"{folder}: the split folder is missing.", source=folder)
    return [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".arrow")]


def _pick(splits: dict[str, list[str]], split: str | None, source: str) -> tuple[str, list[str]]:
    if split is None:
        if len(splits) == 1:
            return next(iter(splits.items()))
        raise FormatError(f"{source} holds the splits {', '.join(map(repr, splits))}: choose "
                          "one (split=NAME; --split NAME on the command line).", source=source)
    if split not in splits:
        if list(splits) == [""]:
            return "", splits[""]
        raise FormatError(f"{source} has no split {split!r}; its splits are "
                          f"{', '.join(map(repr, splits))}.", source=source)
    return split, splits[split]


def _features(data_file: str) -> dict[str, Any]:
    """The features of a data file: its folder's dataset_info.json, else its own metadata."""
    info = os.path.join(os.path.dirname(data_file), "dataset_info.json")
    if data_file.endswith(".arrow") and os.path.isfile(info):
        found = _json(info).get("features")
        if isinstance(found, Mapping):
            return dict(found)
    schema = _schema(data_file)
    raw = (schema.metadata or {}).get(b"huggingface")
    if raw is None:
        raise FormatError(f"{data_file}: no dataset_info.json beside it and no 'huggingface' "
                          "metadata: the label names (ClassLabel) are unknown.", source=data_file)
    value = metadata_json(raw, data_file, "huggingface")
    details = value.get("info", {}) if isinstance(value, dict) else None
    features = details.get("features", {}) if isinstance(details, dict) else None
    if not isinstance(features, dict):
        raise FormatError(f"{data_file}: expected the 'huggingface' metadata to be a JSON object "
                          '{"info": {"features": {...}}}.', source=data_file)
    return features


@contextlib.contextmanager
def _opening(data_file: str) -> Iterator[None]:
    """Turn pyarrow's refusal of a file that is not Arrow or Parquet into a located error."""
    try:
        yield
    except (ValueError, OSError) as exc:
        reason = _refusal(exc)
        if reason is None:
            raise
        raise FormatError(
            f"{data_file}: not a Hugging Face dataset file ({reason}); a dataset on disk is a "
            "save_to_disk or hub Parquet folder, or one of its .arrow or .parquet files. Read "
            "it in its own format (name that one, or none to guess it from the file name).",
            source=data_file) from None


def _arrow_reader(source: Any) -> tuple[Any, Iterator[Any]]:
    """The schema and the record batches of an Arrow stream (``save_to_disk``) or Arrow file."""
    pa = _pa()
    try:
        reader = pa.ipc.open_stream(source)
    except (pa.ArrowInvalid, OSError):  # the IPC file format (or no Arrow at all)
        reader = pa.ipc.open_file(source)
        return reader.schema, (reader.get_batch(i) for i in range(reader.num_record_batches))
    return reader.schema, iter(reader)


def _schema(data_file: str) -> Any:
    with _opening(data_file):
        if data_file.endswith(".parquet"):
            return require("pyarrow.parquet", extra="parquet").read_schema(data_file)
        with _pa().memory_map(data_file) as source:
            return _arrow_reader(source)[0]


def _batches(data_file: str, columns: list[str], chunk_size: int) -> Iterator[Any]:
    """Record batches of ``columns`` of an Arrow stream or Parquet file, ``chunk_size`` rows at most."""
    if data_file.endswith(".parquet"):
        with _opening(data_file):
            pf = require("pyarrow.parquet", extra="parquet").ParquetFile(data_file)
        yield from pf.iter_batches(batch_size=chunk_size, columns=columns)
        return
    with _pa().memory_map(data_file) as source:
        with _opening(data_file):
            batches = _arrow_reader(source)[1]
        for batch in batches:
            for start in range(0, batch.num_rows, chunk_size):
                yield batch.slice(start, chunk_size).select(columns)


# --------------------------------------------------------------------------- reading


def iter_hf_tags(path: _Path, *, split: str | None = None, column: str = "ner_tags",
                 tokens_column: str | None = "tokens",
                 chunk_size: int = 10_000) -> Iterator[EncodedTags]:
    """Stream the tags of one split of a dataset on disk, ``chunk_size`` sentences at a time.

    Parameters
    ----------
    path : path
        A ``save_to_disk`` folder, a hub Parquet folder or one of its files.
    split : str, optional
        The split (needed when there are several).
    column : str
        The label column: ``ClassLabel`` ids, or strings.
    tokens_column : str or None
        The token column, read when present.
    chunk_size : int
        Most sentences per chunk.

    Yields
    ------
    EncodedTags
        Labels named by the ``ClassLabel`` of ``column``, with the tokens;
        their ``source`` is ``path`` and ``first`` the number of their first
        sentence in the split, as messages on the whole split name them.
    """
    source = os.fspath(path)
    _, files = _pick(hf_splits(source), split, source)
    n = 0
    for data_file in files:
        names = class_label_names(_features(data_file), column, data_file)
        have = _schema(data_file).names
        if column not in have:
            raise FormatError(f"{data_file}: no column {column!r} (columns: {have}).",
                              source=data_file)
        columns = [column] + ([tokens_column] if tokens_column is not None
                              and tokens_column in have else [])
        for batch in _batches(data_file, columns, chunk_size):
            tags = _tags_of(batch.column(0), column, data_file, names)
            tokens = None
            if len(columns) > 1:
                values, offsets = _list_parts(batch.column(1), str(tokens_column), data_file)
                if not np.array_equal(offsets, tags.offsets):
                    raise FormatError(f"{data_file}: {tokens_column!r} and {column!r} differ "
                                      "in length in some row.", source=data_file)
                tokens = values.to_pylist()
            # named as the whole split is (its folder), numbered from its first sentence
            yield EncodedTags(tags.ids, tags.offsets, tags.vocab, source, None, tokens, n)
            n += tags.n_sequences


def read_hf_dataset(path: _Path, **options: Any) -> EncodedTags:
    """One split of a dataset on disk, whole (options of :func:`iter_hf_tags`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import pyarrow as pa
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> features = {"tokens": {"feature": {"dtype": "string", "_type": "Value"}, "_type": "List"},
    ...             "ner_tags": {"feature": {"names": ["O", "B-PER"], "_type": "ClassLabel"},
    ...                          "_type": "List"}}
    >>> _ = (tmp / "dataset_info.json").write_text(json.dumps({"features": features}))
    >>> table = pa.table({"tokens": [["Anna", "left"]], "ner_tags": [[1, 0]]})
    >>> with pa.OSFile(str(tmp / "data-00000-of-00001.arrow"), "wb") as sink:
    ...     with pa.ipc.new_stream(sink, table.schema) as writer:
    ...         writer.write_table(table)
    >>> tags = read_hf_dataset(tmp)
    >>> tags.to_lists(), list(tags.sentence_tokens())
    ([['B-PER', 'O']], [['Anna', 'left']])
    """
    parts = list(iter_hf_tags(path, **options))
    return _concat(parts, os.fspath(path))


def _options(options: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(options)
    if out.get("column") is None:
        out.pop("column", None)
    return out


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    data = read_hf_dataset(path, **_options(options))
    return ReadResult(data, texts=data.sentence_tokens)


def _chunks(path: str, chunk_size: int, options: Mapping[str, Any]) -> ChunkStream:
    return ChunkStream(iter_hf_tags(path, chunk_size=chunk_size, **_options(options)),
                       texts=_texts)


def _texts(tags: EncodedTags) -> Sequence[list[str]] | None:
    return tags.sentence_tokens()


def is_hf_dataset(path: str) -> bool:
    """Whether the folder ``path`` is a dataset on disk: ``save_to_disk``'s JSON files, or ``data/*.parquet``.

    Examples
    --------
    >>> is_hf_dataset("docs")
    False
    """
    if any(os.path.isfile(os.path.join(path, f))
           for f in ("dataset_dict.json", "dataset_info.json")):
        return True
    data = os.path.join(path, "data")
    return os.path.isdir(data) and any(f.endswith(".parquet") for f in os.listdir(data))


#: The ``hf`` format: Hugging Face datasets on disk (tags named by a ClassLabel feature).
FORMAT = register_format(Format(
    "hf", "Hugging Face datasets on disk: save_to_disk folders and the hub's Parquet layout",
    kind="tags", read=_read, chunks=_chunks, options=("split", "column", "tokens_column"),
    suffixes=(".arrow",), detect=is_hf_dataset,
))
