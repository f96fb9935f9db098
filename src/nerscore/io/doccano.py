r"""doccano JSONL exports of sequence labelling projects, in both shapes doccano writes.

One JSON object per line; a project without relations exports ::

    {"id": 1, "text": "Anna flew to Berlin", "label": [[0, 4, "PER"], [13, 19, "LOC"]]}

and a project with relations ::

    {"id": 1, "text": "Anna flew to Berlin",
     "entities": [{"id": 7, "label": "PER", "start_offset": 0, "end_offset": 4}, ...],
     "relations": [{"id": 3, "from_id": 7, "to_id": 8, "type": "flew_to"}]}

- The document id is ``id`` (records without ids are numbered 1, 2, ... in
  order); duplicate ids are an error. Other keys (``Comments``, metadata)
  are ignored; relations are counted and ignored.
- ``"label"`` (also ``"labels"``, an older export) must hold
  ``[start, end, label]`` triples: a list of strings is a text
  classification export, refused with a message saying so.
- doccano stores no span text: offsets that count UTF-16 code units
  (doccano runs in a browser) are detected per document from word
  boundaries, or given with ``offsets="utf16"``, and converted, counted
  (docs/formats/doccano.md).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from nerscore.errors import FormatError, quoted
from nerscore.io._json_text import json_kind
from nerscore.io._tool_spans import (
    ToolSpan,
    check_units,
    entities,
    json_lines,
    python_offsets,
    record_id,
    text_of,
    utf16_note,
    write_json_lines,
)
from nerscore.io.formats import Counted, Format, ReadResult, register_format
from nerscore.values.documents import Document

if TYPE_CHECKING:
    from nerscore.io.convert.reading import WriteOptions

__all__ = ["FORMAT", "DoccanoData", "read_doccano", "write_doccano"]


class DoccanoData(NamedTuple):
    """The documents of a doccano export, their spans as the tool stores them, and the counts.

    Attributes
    ----------
    documents : list of Document
        In file order.
    spans : dict of str to list of ToolSpan
        Document id -> its spans (Python offsets).
    counts : dict of str to int
        ``label`` and ``entities`` (records of each shape), ``relations``
        (ignored), ``utf16`` (spans converted from UTF-16 code units),
        ``utf16_guessed`` (of those, decided by word boundaries).
    path : str
        The file.
    """

    documents: list[Document]
    spans: dict[str, list[ToolSpan]]
    counts: dict[str, int]
    path: str

    def notes(self) -> tuple[str, ...]:
        """What reading counted, as sentences naming the file.

        Examples
        --------
        >>> data = DoccanoData([], {}, {"relations": 2, "utf16": 1, "utf16_guessed": 1}, "d.jsonl")
        >>> for n in data.notes():
        ...     print(n)
        d.jsonl: 1 span(s) had offsets counting UTF-16 code units (characters beyond U+FFFF count two), converted to character offsets (1 decided by word boundaries: doccano stores no span text; pass offsets='python' or offsets='utf16' to say which).
        d.jsonl: ignored 2 relation(s).
        """
        c, out = self.counts, []
        if c.get("utf16"):
            guessed = c.get("utf16_guessed", 0)
            out.append(utf16_note(c["utf16"], f"{guessed} decided by word boundaries: doccano "
                                  "stores no span text; pass offsets='python' or "
                                  "offsets='utf16' to say which" if guessed else ""))
        if c.get("relations"):
            out.append(f"ignored {c['relations']} relation(s).")
        return tuple(f"{self.path}: {n}" for n in out)


def _fail(source: str, n: int, message: str) -> FormatError:
    return FormatError(f"{source}, line {n}: {message}", source=source, line=n)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _spans(obj: dict[str, Any], source: str, n: int, counts: Counter[str]) -> list[ToolSpan]:
    keys = [k for k in ("label", "labels", "entities") if k in obj]
    if len(keys) != 1:
        raise _fail(source, n, "expected one of 'label' ([[start, end, label], ...]) or "
                    "'entities' ([{start_offset, end_offset, label}, ...]); got "
                    + (", ".join(map(repr, keys)) if keys else "neither") + ".")
    key = keys[0]
    items = obj[key]
    if not isinstance(items, list):
        raise _fail(source, n, f"expected {key!r} to be a list; got {json_kind(items)}.")
    counts["entities" if key == "entities" else "label"] += 1
    relations = len(obj["relations"]) if isinstance(obj.get("relations"), list) else 0
    if relations:
        counts["relations"] += relations
    out = []
    for k, item in enumerate(items):
        if key == "entities":
            ok = isinstance(item, dict) and _int(item.get("start_offset")) and _int(
                item.get("end_offset")) and isinstance(item.get("label"), str)
            if not ok:
                raise _fail(source, n, f"entity {k} is {json.dumps(item)[:80]}; expected "
                            "{\"start_offset\": int, \"end_offset\": int, \"label\": str}.")
            out.append(ToolSpan(item["start_offset"], item["end_offset"], item["label"],
                                where=f"line {n}, entity {item.get('id', k)}"))
            continue
        if isinstance(item, str):
            raise _fail(source, n, f"{key!r} holds the string {quoted(item)}: this is a text "
                        "classification export; sequence labelling exports hold [start, end, "
                        "label] triples.")
        ok = (isinstance(item, list) and len(item) == 3 and _int(item[0]) and _int(item[1])
              and isinstance(item[2], str))
        if not ok:
            raise _fail(source, n, f"span {k} is {json.dumps(item)[:80]}; expected "
                        "[start, end, label].")
        out.append(ToolSpan(item[0], item[1], item[2], where=f"line {n}, span {k}"))
    return out


def read_doccano(path: str | os.PathLike[str], *, encoding: str = "utf-8",
                 offsets: str = "auto") -> DoccanoData:
    r"""Read a doccano JSONL export (either shape; the shapes may even be mixed).

    Parameters
    ----------
    path : str or path-like
        The export.
    encoding : str
        Text encoding of the file.
    offsets : {"auto", "python", "utf16"}
        What the offsets count (``"auto"``: decided per document with
        characters beyond U+FFFF, by word boundaries).

    Returns
    -------
    DoccanoData
        ``(documents, spans, counts, path)``; ``notes()`` says what was counted.

    Raises
    ------
    FormatError
        For malformed lines, records without text or spans, spans that are
        not triples (or entity objects), mixed or duplicate ids.

    Examples
    --------
    >>> data = read_doccano("tests/data/doccano/label.jsonl")
    >>> [(d.id, d.span_texts()) for d in data.documents]
    [('1', ['Anna Smith', 'Berlin']), ('2', ['ACME', 'Paris'])]
    >>> read_doccano("tests/data/doccano/entities.jsonl").documents == data.documents
    True
    """
    source = os.fspath(path)
    units = check_units(offsets)
    counts: Counter[str] = Counter()
    docs: list[Document] = []
    spans: dict[str, list[ToolSpan]] = {}
    seen: dict[str, int] = {}
    has_ids: bool | None = None
    for n, obj in json_lines(path, encoding):
        raw = obj.get("id")
        if raw is not None and not (_int(raw) or isinstance(raw, str)):
            raise _fail(source, n, f"expected 'id' to be an integer or a string; got {quoted(raw)}.")
        if has_ids is None:
            has_ids = raw is not None
        elif has_ids != (raw is not None):
            raise _fail(source, n, "the record has no 'id' but others have (or the reverse); "
                        "give every record an id, or none.")
        doc_id = str(raw) if raw is not None else str(len(docs) + 1)
        if doc_id in seen:
            raise _fail(source, n, f"document id {quoted(doc_id)} was already used on line "
                        f"{seen[doc_id]}; ids must be unique.")
        seen[doc_id] = n
        text = obj.get("text")
        if not isinstance(text, str):
            raise _fail(source, n, "expected a string 'text'; doccano exports hold the text of "
                        "each document.")
        found = python_offsets(text, _spans(obj, source, n, counts), units=units,
                               source=source, counts=counts)
        spans[doc_id] = found
        docs.append(Document(doc_id, entities(found), text,
                             source=source, line=n))
    return DoccanoData(docs, spans, dict(sorted(counts.items())), source)


def write_doccano(documents: Iterable[Document], path: str | os.PathLike[str], *,
                  encoding: str = "utf-8") -> None:
    r"""Write documents as a doccano JSONL file (``{"id", "text", "label": [[s, e, l]]}``).

    doccano imports this shape into a sequence labelling project. An id written
    as an integer (``12``, not ``007``) is written as an integer.

    Parameters
    ----------
    documents : iterable of Document
        Documents with text.
    path : str or path-like
        The file (overwritten).
    encoding : str
        Text encoding (what it cannot encode is written as JSON escapes).

    Raises
    ------
    ValueError
        For a document without text.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "d.jsonl"
    >>> write_doccano([Document("1", [(0, 4, "PER")], "Anna flew")], tmp)
    >>> tmp.read_text()
    '{"id": 1, "text": "Anna flew", "label": [[0, 4, "PER"]]}\n'
    """
    write_json_lines(documents, path, lambda doc: {
        "id": record_id(doc.id), "text": text_of(doc, "doccano files"),
        "label": [[e.start, e.end, e.label] for e in doc.spans]}, encoding=encoding)


# ----------------------------------------------------------------------------- the format


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    data = read_doccano(path, **options)
    return ReadResult(data.documents, data.notes(), source=data)


def _write_spans(chunks: Iterable[list[Document]], target: str, options: WriteOptions) -> int:
    documents = Counted(chunks)
    write_doccano(documents.items(), target, encoding=options.encoding)
    return documents.count


#: The ``doccano`` format (no suffix of its own: ``.jsonl`` is JSON Lines).
FORMAT = register_format(Format(
    "doccano", "doccano JSONL export: text with label triples or entity objects",
    kind="spans", read=_read, options=("encoding", "offsets"), write_spans=_write_spans,
    escapes=True,
))
