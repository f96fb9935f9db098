r"""JSON Lines span files: one document per line, spaCy/Prodigy style.

Each non-blank line holds one JSON object::

    {"id": "doc1", "text": "Anna flew to Berlin",
     "spans": [{"start": 0, "end": 4, "label": "PER"}, {"start": 13, "end": 19, "label": "LOC"}]}

- ``"spans"`` may be called ``"entities"`` (not both) and is required: a
  record without it is an error, ``"spans": []`` a document without
  entities. A record with a model output (``"output"`` or ``"mentions"``,
  docs/llm.md) as well is an error. Each span is a
  ``{"start", "end", "label"}`` object (other keys, such as Prodigy's
  ``"token_start"``, are ignored) or a ``[start, end, label]`` triple.
  Offsets are half-open Python ``str`` indices into ``"text"``.
- A discontinuous span has ``"fragments": [[start, end], ...]``, its
  ``start`` and ``end`` being its extent (docs/fragments.md).
- ``"ignore"`` (optional) lists the regions nobody annotated: ``[start,
  end]`` for every label, ``[start, end, label]`` for one label.
- ``"text"`` is optional; without it offsets are only checked for order.
- ``"id"`` is a string or an integer (read as its decimal string). A file
  whose records have no ids at all is numbered ``"1"``, ``"2"``, ... in record
  order (blank lines skipped); a file where only some records have ids is an
  error. Duplicate ids are an error naming both lines.
- A byte order mark and CRLF line endings are handled; blank lines are
  skipped. Lines are split at ``\n`` only (JSON strings may hold U+2028).
- A string holding the escape of half a UTF-16 surrogate pair without its
  other half (``"\ud800"``) is an error naming its line and field: it is no
  character, and no encoding can write it.

Gold and prediction files are joined by id when scored (see
:func:`nerscore.evaluate`): a gold document missing from the predictions
counts as predicting nothing, a predicted document missing from gold counts
its spans as false positives, and both are listed in the report's notes.

A file whose first record is a token record (``{"tokens": [...],
"ner_tags": [...]}``, no ``"spans"``) holds tags, one sentence a line: the
format reads it with :mod:`nerscore.io.jsonl_tags` (its ``column`` and
``tokens_column`` options are that reader's), and pairs it with the other
file by position. Its writer writes span documents only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from nerscore.errors import FormatError, InputTypeError, InvalidSpanError, quoted
from nerscore.io._json_text import JSON_ESCAPES, json_kind, json_object_line
from nerscore.io._textfile import decoded_lines, read_text
from nerscore.io.atomic import atomic_open
from nerscore.io.format_hooks import any_input_error
from nerscore.io.formats import ChunkStream, Counted, Format, ReadResult, register_format
from nerscore.io.jsonl_tags import (
    RecordTokenDiff,
    TagRecords,
    iter_jsonl_tags,
    jsonl_kind,
    read_jsonl_tags,
)
from nerscore.values.documents import Document
from nerscore.values.tags import EncodedTags

if TYPE_CHECKING:
    from nerscore.io.convert.reading import WriteOptions

__all__ = ["FORMAT", "iter_jsonl", "read_jsonl", "write_jsonl"]


#: What each line holds, in the message of a JSON value that is no object.
_RECORD = "a JSON object with 'id', 'text' and 'spans'"


def _fail(source: str, line: int, message: str) -> FormatError:
    return FormatError(f"{source}, line {line}: {message}", source=source, line=line)


#: Said of a record with a list of tokens that the file was not read as token records.
_TOKEN_RECORDS = (
    " It has a list of 'tokens': a file is read as token records (one sentence a line, with "
    "its tags) when its first record has a list of 'tokens' and none of 'spans', 'entities', "
    "'text', 'output' and 'mentions' (docs/formats.md)."
)


def _spans_of(obj: dict[str, Any], source: str, n: int) -> list[Any]:
    if "spans" in obj and "entities" in obj:
        raise _fail(source, n, "the record has both 'spans' and 'entities'; keep one of them.")
    if ("output" in obj or "mentions" in obj) and ("spans" in obj or "entities" in obj):
        spans = "spans" if "spans" in obj else "entities"
        output = "output" if "output" in obj else "mentions"
        raise _fail(
            source, n,
            f"the record has both {spans!r} and {output!r} (a model output); keep one of them: "
            f"{spans!r} to score the spans, {output!r} to score the model output (docs/llm.md).",
        )
    if "spans" not in obj and "entities" not in obj and ("output" in obj or "mentions" in obj):
        raise _fail(
            source, n,
            "the record holds a model output ('output' or 'mentions'), not spans; read it with "
            "nerscore.read_llm_records and score it with nerscore.evaluate_llm, or run "
            "'nerscore score GOLD THIS_FILE' (docs/llm.md).",
        )
    if "spans" not in obj and "entities" not in obj:
        raise _fail(
            source, n,
            "the record has no 'spans' (or 'entities'); write \"spans\": [] for a document "
            "without entities, so that a record cut short is not read as predicting nothing."
            + (_TOKEN_RECORDS if isinstance(obj.get("tokens"), list) else ""),
        )
    key = "spans" if "spans" in obj else "entities"
    spans = obj[key]
    if not isinstance(spans, list):
        got = json_kind(spans)
        raise _fail(source, n, f"expected {key!r} to be a list of spans; got {got}.")
    return spans


def _id_of(obj: dict[str, Any], source: str, n: int) -> str | None:
    doc_id = obj.get("id")
    if doc_id is None or isinstance(doc_id, str):
        return doc_id
    if isinstance(doc_id, int) and not isinstance(doc_id, bool):
        return str(doc_id)
    raise _fail(source, n, f"expected 'id' to be a string or an integer; got {doc_id!r}.")


def read_jsonl(path: str | os.PathLike[str], *, encoding: str = "utf-8") -> list[Document]:
    r"""Read a JSON Lines file of documents with character spans.

    Parameters
    ----------
    path : str or path-like
        The file.
    encoding : str
        Text encoding of the file.

    Returns
    -------
    list of Document
        In file order, with ``source`` and ``line`` set.

    Raises
    ------
    FormatError
        For a malformed line, a record that is not an object, a record
        without ``"spans"``, bad field types, missing or duplicate ids, or undecodable bytes, naming file and line.
    InvalidSpanError
        For a malformed, reversed, negative or out-of-text span, naming file,
        line, document and span.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "gold.jsonl"
    >>> _ = tmp.write_text('{"id": "a", "text": "Anna flew", "spans": [[0, 4, "PER"]]}\n')
    >>> docs = read_jsonl(tmp)
    >>> docs[0].id, [(e.start, e.end, e.label) for e in docs[0].spans]
    ('a', [(0, 4, 'PER')])
    """
    source = os.fspath(path)
    content = read_text(path, encoding=encoding)
    records: list[tuple[int, dict[str, Any]]] = []
    for n, raw in enumerate(content.split("\n"), 1):
        obj = json_object_line(raw, source, n, expected=_RECORD)
        if obj is not None:
            records.append((n, obj))
    ids = [_id_of(obj, source, n) for n, obj in records]
    with_ids = [i is not None for i in ids]
    if any(with_ids) and not all(with_ids):
        n = records[with_ids.index(False)][0]
        raise _mixed_ids(source, n)
    seen: dict[str, int] = {}
    return [_document(obj, doc_id if doc_id is not None else str(k + 1), source, n, seen)
            for k, ((n, obj), doc_id) in enumerate(zip(records, ids, strict=True))]


def _mixed_ids(source: str, n: int) -> FormatError:
    return _fail(
        source, n,
        "the record has no 'id' but others have; give every record an id (or none, to "
        "number them 1, 2, ... in order).",
    )


def _document(obj: dict[str, Any], name: str, source: str, n: int,
              seen: dict[str, int]) -> Document:
    if name in seen:
        raise _fail(
            source, n,
            f"document id {name!r} was already used on line {seen[name]}; ids must be "
            "unique.",
        )
    seen[name] = n
    text = obj.get("text")
    if text is not None and not isinstance(text, str):
        raise _fail(source, n, f"expected 'text' to be a string; got {json_kind(text)}.")
    spans = _spans_of(obj, source, n)
    ignore = obj.get("ignore")
    if ignore is not None and not isinstance(ignore, list):
        raise _fail(source, n, "expected 'ignore' to be a list of [start, end] or [start, end, "
                    f"label] regions; got {json_kind(ignore)}.")
    regions: Any = ignore or ()
    try:
        return Document(name, spans, text, source=source, line=n,  # type: ignore[arg-type]
                        ignore=regions)
    except InvalidSpanError as exc:
        raise InvalidSpanError(
            f"{source}, line {n}: {exc}", document=exc.document, spans=exc.spans
        ) from None


def iter_jsonl(
    path: str | os.PathLike[str], *, chunk_size: int = 10_000, encoding: str = "utf-8",
    block_size: int = 1 << 20,
) -> Iterator[list[Document]]:
    r"""Read a JSON Lines file of documents in chunks of at most ``chunk_size`` documents.

    Every document is read as :func:`read_jsonl` reads it (ids, numbering
    of files without ids, the same checks); memory holds one chunk and the
    ids seen so far (to refuse duplicates).

    An error is the one :func:`read_jsonl` raises for the file, word for
    word. Read whole, the file is checked one stage after another, each
    over the whole file: its bytes decoded, every line read as JSON, the
    type of every id, whether some records lack the id others have, then
    each document. So once a line fails, the rest of the file is read on,
    without keeping it, as far as needed to find an error of an earlier
    stage: bytes that cannot be decoded late in the file come before a
    malformed line early in it.

    Yields
    ------
    list of Document
        Consecutive documents in file order.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "gold.jsonl"
    >>> _ = tmp.write_text('{"spans": []}\n\n{"spans": [[0, 1, "X"]]}\n{"spans": []}\n')
    >>> [[d.id for d in docs] for docs in iter_jsonl(tmp, chunk_size=2)]
    [['1', '2'], ['3']]
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"Expected `chunk_size` to be a positive integer; got {chunk_size!r}.")
    source = os.fspath(path)
    seen: dict[str, int] = {}
    ids = _Ids()
    chunk: list[Document] = []
    k = 0
    lines = enumerate(decoded_lines(path, encoding, block_size), 1)
    for n, raw in lines:
        stage = _JSON
        try:
            obj = json_object_line(raw, source, n, expected=_RECORD)
            if obj is None:
                continue
            stage = _ID
            doc_id = _id_of(obj, source, n)
            stage = _IDS
            ids.check(doc_id is not None, source, n)
            stage = _DOCUMENT
            chunk.append(_document(obj, doc_id if doc_id is not None else str(k + 1), source,
                                   n, seen))
        except (FormatError, InvalidSpanError) as exc:
            error: FormatError | InvalidSpanError = exc
            break
        k += 1
        if len(chunk) == chunk_size:
            yield chunk
            chunk = []
    else:
        if chunk:
            yield chunk
        return
    del chunk, seen
    raise _file_error(error, stage, lines, source, ids)


#: The stages of :func:`read_jsonl`, each run over the whole file before the next (decoding
#: the bytes comes first of all): every line's JSON, every record's id, the ids together (all
#: records or none have one), then each document.
_JSON, _ID, _IDS, _DOCUMENT = 1, 2, 3, 4


class _Ids:
    """Whether the records read so far have ids, as the first record has or not."""

    def __init__(self) -> None:
        self.has: bool | None = None
        self.first = 0  # the first record's line

    def check(self, has: bool, source: str, n: int) -> None:
        """Record ``n`` has an id or not; a :func:`read_jsonl` error when the file mixes them.

        Read whole, the error names the first record without an id: this
        one, or the file's first record where that one had none.
        """
        if self.has is None:
            self.has, self.first = has, n
        elif has != self.has:
            raise _mixed_ids(source, n if self.has else self.first)


def _file_error(error: FormatError | InvalidSpanError, stage: int,
                lines: Iterator[tuple[int, str]], source: str,
                ids: _Ids) -> FormatError | InvalidSpanError:
    """The error :func:`read_jsonl` raises, ``error`` of ``stage`` failing on the line read last.

    The lines before it passed the checks of every stage, so the whole
    file's error is ``error`` unless a later line fails an earlier stage
    (the first such line of the earliest stage): the rest of the file is
    read for the stages before ``stage`` only, keeping nothing. Bytes that
    cannot be decoded, whose error comes first of all, are raised by
    ``lines`` itself, which decodes the file to its end.
    """
    for n, raw in lines:
        if stage == _JSON:  # only the bytes are left to check: decoded by ``lines``
            continue
        try:
            obj = json_object_line(raw, source, n, expected=_RECORD)
        except FormatError as exc:
            error, stage = exc, _JSON
            continue
        if obj is None or stage == _ID:
            continue
        try:
            doc_id = _id_of(obj, source, n)
        except FormatError as exc:
            error, stage = exc, _ID
            continue
        if stage == _IDS:
            continue
        try:
            ids.check(doc_id is not None, source, n)
        except FormatError as exc:
            error, stage = exc, _IDS
    return error


def write_jsonl(
    documents: Iterable[Document], path: str | os.PathLike[str], *, encoding: str = "utf-8"
) -> None:
    r"""Write documents as JSON Lines (``{"id", "text", "spans", "ignore"}``; text and ignore only when known).

    Parameters
    ----------
    documents : iterable of Document
        What to write.
    path : str or path-like
        The file (overwritten).
    encoding : str
        Text encoding. A character it cannot encode is written as its JSON
        escape (``\u00eb``), which reads back as the character: with
        ``"ascii"`` every character outside ASCII, with UTF-8 none.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "out.jsonl"
    >>> write_jsonl([Document("a", [(0, 4, "PER")], "Anna")], tmp)
    >>> tmp.read_text()
    '{"id": "a", "text": "Anna", "spans": [{"start": 0, "end": 4, "label": "PER"}]}\n'
    >>> read_jsonl(tmp) == [Document("a", [(0, 4, "PER")], "Anna")]
    True
    """
    if isinstance(documents, str) or not hasattr(documents, "__iter__"):
        raise InputTypeError(f"Expected `documents` to be an iterable of Document objects; got "
                             f"{type(documents).__name__}.")
    with atomic_open(path, "w", encoding=encoding, errors=JSON_ESCAPES, newline="\n") as fh:
        for i, doc in enumerate(documents):  # one line at a time: any length is written
            if not isinstance(doc, Document):
                raise InputTypeError(
                    f"Expected `documents` to be Document objects; item {i} is "
                    f"{type(doc).__name__} {quoted(doc)}. Make one with "
                    "nerscore.Document(id, spans, text).")
            fh.write(json.dumps(doc.to_dict(), ensure_ascii=False) + "\n")


# ----------------------------------------------------------------------------- the format


def _kind(path: str, options: Mapping[str, Any]) -> str:
    """What the file holds; options not the format's are the reader's to refuse."""
    return jsonl_kind(path, **{k: v for k, v in options.items() if k in FORMAT.options})


def _encoding(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of the span readers (``column`` and ``tokens_column`` are token records')."""
    return {k: v for k, v in options.items() if k == "encoding"}


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    if jsonl_kind(path, **options) == "tags":
        records = read_jsonl_tags(path, **options)
        return ReadResult(records.tags, texts=records.tags.sentence_tokens, source=records)
    return ReadResult(read_jsonl(path, **_encoding(options)))


#: Bytes the chunked reader of ``nerscore score`` decodes at a time.
_STREAM_BLOCK_SIZE = 1 << 20


def _chunks(path: str, chunk_size: int, options: Mapping[str, Any]) -> ChunkStream:
    if jsonl_kind(path, **options) == "tags":
        records = iter_jsonl_tags(path, chunk_size=chunk_size, block_size=_STREAM_BLOCK_SIZE,
                                  **options)
        return ChunkStream(records, _tags_of, _texts_of, file_error=any_input_error)
    chunks = iter_jsonl(path, chunk_size=chunk_size, block_size=_STREAM_BLOCK_SIZE,
                        **_encoding(options))
    return ChunkStream(chunks, file_error=any_input_error)


def _tags_of(records: TagRecords) -> EncodedTags:
    return records.tags


def _texts_of(records: TagRecords) -> Sequence[list[str]] | None:
    return records.tags.sentence_tokens()


def _write_spans(chunks: Iterable[list[Document]], target: str, options: WriteOptions) -> int:
    documents = Counted(chunks)
    write_jsonl(documents.items(), target, encoding=options.encoding)
    return documents.count


#: The ``jsonl`` format: span documents, or token records read as tags (jsonl_tags).
FORMAT = register_format(Format(
    "jsonl", "JSON Lines: one document a line with its id, text and spans, or one sentence a "
    "line with its tokens and tags", kind=_kind,
    read=_read, suffixes=(".jsonl", ".json", ".ndjson"), chunks=_chunks,
    options=("encoding", "column", "tokens_column"), pair_check=RecordTokenDiff,
    write_spans=_write_spans, keeps=("fragments", "ignore", "score"), escapes=True,
))
