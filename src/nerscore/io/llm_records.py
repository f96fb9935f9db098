r"""JSON Lines files of model outputs: records with ``"output"`` or ``"mentions"`` (docs/llm.md).

A prediction file for a generative model holds, instead of ``"spans"``, the
model's raw answer or the mentions already extracted from it::

    {"id": "d1", "output": "```json\n[{\"text\": \"Paris\", \"label\": \"LOC\"}]\n```"}
    {"id": "d2", "mentions": [{"text": "Lyon", "label": "LOC"}]}
    {"id": "d3", "mentions": {"LOC": ["Lyon"]}}

Ids follow the rules of :mod:`nerscore.io.jsonl` (all or none; records
without ids are numbered ``"1"``, ``"2"``, ...). A record may also carry the
``"text"`` the model was given. An output that cannot be read is kept as a
parse failure (:attr:`ParsedOutput.failed`), never an error; a record
without ``"output"`` or ``"mentions"`` is an error naming file and line.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from typing import Any

from nerscore.errors import FormatError
from nerscore.io._json_text import json_kind, json_object_line, parse_json
from nerscore.io._textfile import decode_error, naming, read_text
from nerscore.io.jsonl import _fail, _id_of, _mixed_ids
from nerscore.io.llm_output import mentions_from_json, parse_llm_output
from nerscore.values.mentions import ParsedOutput

__all__ = ["LLMRecord", "is_llm_file", "read_llm_records"]

#: What a line of a file of model outputs holds, in the message of a JSON value that is no object.
_RECORD = "a JSON object with 'id' and 'output' (or 'mentions'), and optionally 'text'"


@dataclass(frozen=True)
class LLMRecord:
    """One model output of a JSON Lines file, read as mentions.

    Attributes
    ----------
    id : str
        The document id.
    parsed : ParsedOutput
        The output read as mentions (a parse failure included).
    text : str or None
        The record's ``"text"``, when it has one.
    source : str
        The file.
    line : int
        The record's line.
    numbered : bool
        Whether the id is the record's number (the file has no ids): such
        records are paired with gold documents by position.
    """

    id: str
    parsed: ParsedOutput
    text: str | None = None
    source: str = ""
    line: int = 0
    numbered: bool = False


def _has_output(obj: dict[str, Any]) -> bool:
    return ("output" in obj or "mentions" in obj) and not ("spans" in obj or "entities" in obj)


def is_llm_file(path: str | os.PathLike[str], *, encoding: str = "utf-8") -> bool:
    r"""Whether the first record of a JSON Lines file holds a model output (``output``/``mentions``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "llm.jsonl"
    >>> _ = tmp.write_text('{"id": "a", "output": "LOC: Paris"}\n')
    >>> is_llm_file(tmp)
    True
    """
    try:
        with naming(path), open(path, encoding=encoding, errors="replace", newline="\n") as fh:
            for raw in fh:
                line = raw.lstrip("\ufeff")
                if line.strip():
                    try:
                        obj = parse_json(line)
                    except FormatError:
                        return False
                    return isinstance(obj, dict) and _has_output(obj)
    except UnicodeError as exc:  # what errors="replace" does not cover: utf-16 without BOM
        raise decode_error(exc, b"", os.fspath(path), encoding) from None
    return False


def _parsed(obj: dict[str, Any], source: str, n: int, output_format: str) -> ParsedOutput:
    if "output" in obj and "mentions" in obj:
        raise _fail(source, n, "the record has both 'output' and 'mentions'; keep one of them.")
    if "output" in obj:
        output = obj["output"]
        parsed = parse_llm_output(output, format=output_format)
        if not isinstance(output, str):  # a failure, its output shown as the file has it
            parsed = dataclasses.replace(parsed, raw=json.dumps(output, ensure_ascii=False))
        return parsed
    value = obj["mentions"]
    read = mentions_from_json(value)
    if read is None:
        return ParsedOutput([], "failed", (f"'mentions' is neither a list of mentions nor a "
                                           f"{{label: [strings]}} object; got {value!r}",),
                            raw=json.dumps(value, ensure_ascii=False))
    mentions, problems, _ = read
    return ParsedOutput(mentions, "mentions", tuple(problems),
                        raw=json.dumps(value, ensure_ascii=False))


def read_llm_records(
    path: str | os.PathLike[str], *, output_format: str = "auto", encoding: str = "utf-8",
) -> list[LLMRecord]:
    r"""Read a JSON Lines file of model outputs.

    Parameters
    ----------
    path : str or path-like
        The file.
    output_format : str
        How ``"output"`` strings are read (:func:`nerscore.parse_llm_output`).
    encoding : str
        Text encoding of the file.

    Returns
    -------
    list of LLMRecord
        In file order.

    Raises
    ------
    FormatError
        For a malformed line, a record without ``"output"`` or
        ``"mentions"``, bad ids or duplicate ids, naming file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "llm.jsonl"
    >>> _ = tmp.write_text('{"id": "a", "output": "LOC: Paris"}\n{"id": "b", "output": "?"}\n')
    >>> [(r.id, r.parsed.format, len(r.parsed.mentions)) for r in read_llm_records(tmp)]
    [('a', 'label-lines', 1), ('b', 'failed', 0)]
    """
    source = os.fspath(path)
    content = read_text(path, encoding=encoding)
    records: list[LLMRecord] = []
    seen: dict[str, int] = {}
    has_ids: bool | None = None
    for n, raw in enumerate(content.split("\n"), 1):
        obj = json_object_line(raw, source, n, expected=_RECORD)
        if obj is None:
            continue
        doc_id = _id_of(obj, source, n)
        if has_ids is None:
            has_ids = doc_id is not None
        elif has_ids != (doc_id is not None):
            raise _mixed_ids(source, n)
        name = doc_id if doc_id is not None else str(len(records) + 1)
        if name in seen:
            raise _fail(source, n, f"document id {name!r} was already used on line "
                        f"{seen[name]}; ids must be unique.")
        seen[name] = n
        if not _has_output(obj):
            raise _fail(source, n, "expected a model output: the record needs 'output' (the "
                        "raw answer) or 'mentions' (a list of {\"text\", \"label\"}), and no "
                        "'spans'.")
        text = obj.get("text")
        if text is not None and not isinstance(text, str):
            raise _fail(source, n, f"expected 'text' to be a string; got {json_kind(text)}.")
        records.append(LLMRecord(name, _parsed(obj, source, n, output_format), text, source, n,
                                 numbered=doc_id is None))
    return records
