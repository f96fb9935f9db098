r"""JSON text read with one error, naming file and line, for whatever keeps it from being read.

Python's JSON reader fails three ways on text a file can hold: malformed
JSON (``JSONDecodeError``), arrays or objects nested more deeply than it can
follow (``RecursionError``), and, read without complaint, an escape of half
a UTF-16 surrogate pair (``"\ud800"``) that becomes a string no encoder
takes, failing much later far from the file. :func:`parse_json` turns all
three into one :class:`~nerscore.errors.FormatError` that says where;
:func:`read_json_file` reads a small JSON file (a label map, a dataset's
``dataset_info.json``) that way, and :func:`metadata_json` a JSON value kept
in a file's metadata (Parquet, Arrow).

JSON text is written in any encoding: a file opened with
``errors=JSON_ESCAPES`` writes a character that its encoding cannot encode
as its JSON escape (``\u00eb``; a surrogate pair beyond U+FFFF), which reads
back as the character. Only JSON text may be written so (a character
outside ASCII is always inside one of its strings there); a UTF encoding
never needs it, so its output is the characters themselves.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Callable
from typing import Any

from nerscore.errors import FormatError

__all__ = ["JSON_ESCAPES", "json_kind", "json_object_line", "metadata_json", "parse_json", "read_json_file"]

_DECODER = json.JSONDecoder()

#: A JSON string (closed or not) or a bracket: what nesting depth is counted from.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)

#: An escaped backslash, or the escape of half a surrogate pair (``\ud800`` to ``\udfff``).
_ESCAPES = re.compile(r"\\\\|\\u[dD][89a-fA-F][0-9a-fA-F]{2}")

#: What may be an escape of half a surrogate pair without its other half, found at C speed (a
#: superset: a high half not followed by a low one; a low half not preceded by a high one, or
#: preceded by what only looks like one, an escaped backslash and ``ud83d``).
_MAYBE_LONE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
                         r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2}\\)u[dD][c-fC-F]"
                         r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F])")

#: A surrogate code point left in a decoded string: half a pair whose other half was missing.
_LONE = re.compile("[\ud800-\udfff]")

#: The encoding error handler (``open(path, "w", encoding=..., errors=JSON_ESCAPES)``) of JSON
#: text: what the encoding cannot encode is written as JSON escapes.
JSON_ESCAPES = "nerscore.json-escapes"


def _escapes(exc: UnicodeError) -> tuple[str, int]:
    r"""The JSON escapes of the characters that an encoding cannot encode.

    A lone surrogate, which JSON text cannot hold as a character either,
    stays the encoder's error.

    Examples
    --------
    >>> "Zoë 😀".encode("ascii", errors=JSON_ESCAPES)
    b'Zo\\u00eb \\ud83d\\ude00'
    >>> "Zoë Łódź".encode("latin-1", errors=JSON_ESCAPES)
    b'Zo\xeb \\u0141\xf3d\\u017a'
    >>> "x\ud800".encode("utf-8", errors=JSON_ESCAPES)
    Traceback (most recent call last):
    ...
    UnicodeEncodeError: 'utf-8' codec can't encode character '\ud800' in position 1: surrogates not allowed
    """
    if not isinstance(exc, UnicodeEncodeError) or _LONE.search(exc.object, exc.start, exc.end):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        n = ord(ch)
        if n > 0xFFFF:
            n -= 0x10000
            out.append(f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}")
        else:
            out.append(f"\\u{n:04x}")
    return "".join(out), exc.end


codecs.register_error(JSON_ESCAPES, _escapes)


def parse_json(text: str, source: str | None = None, line: int = 1, *, expect: str = "",
               prefix: bool = False, where: str = "",
               pairs: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    r"""The JSON value of ``text``; a :class:`FormatError` naming file and line when it cannot be read.

    Parameters
    ----------
    text : str
        The JSON text.
    source : str, optional
        The file it comes from. Without one (a model's output), the error
        message is the problem alone, with its position in ``text``, and
        strings holding half a surrogate pair are kept.
    line : int
        The line of the file that ``text`` starts on.
    expect : str
        What the file should hold, added to the message of malformed JSON.
    prefix : bool
        Read the JSON value at the start of ``text``, ignoring what follows.
    where : str
        The part of ``source`` that holds ``text`` when it has no line there
        (``"metadata 'huggingface'"``): messages name it after the file and
        give lines within ``text``, and ``line`` is ignored.
    pairs : callable, optional
        What makes each JSON object of its ``(key, value)`` pairs in order
        (``object_pairs_hook`` of :func:`json.loads`); a dict without one.

    Returns
    -------
    object

    Raises
    ------
    FormatError
        For malformed JSON, JSON nested too deeply to read, or (with a
        ``source``) a string holding an escape of half a UTF-16 surrogate pair
        without its other half.

    Examples
    --------
    >>> parse_json('{"a": [1, 2]}', "f.jsonl", 3)
    {'a': [1, 2]}
    >>> parse_json('{"a": [1 2]}', "f.jsonl", 3, expect="each line must hold one JSON object")
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: f.jsonl, line 3: malformed JSON (Expecting ',' delimiter at column 10); each line must hold one JSON object.
    >>> parse_json('{"a": [1 2]}')
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: malformed JSON (Expecting ',' delimiter at line 1, column 10)
    >>> parse_json('{"text": "\\ud800 Anna"}', "f.jsonl", 3)
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: f.jsonl, line 3: 'text' holds the escape \ud800, half of a UTF-16 surrogate pair without its other half; JSON text writes a character beyond U+FFFF as the character itself or as a whole surrogate pair (\ud83d\ude00 for U+1F600).
    >>> parse_json('["B-PER",', "f.parquet", where="metadata 'nerscore.vocab.labels'")
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: f.parquet, metadata 'nerscore.vocab.labels': malformed JSON (Expecting value at line 1, column 10).
    """
    decoder = _DECODER if pairs is None else json.JSONDecoder(object_pairs_hook=pairs)
    try:
        value = decoder.raw_decode(text)[0] if prefix else decoder.decode(text)
    except json.JSONDecodeError as exc:
        msg = exc.msg.removesuffix(" at")  # "Unterminated string starting at": one "at"
        if source is None:
            raise FormatError(f"malformed JSON ({msg} at line {exc.lineno}, column "
                              f"{exc.colno})") from None
        tail = f"; {expect}" if expect else ""
        if where:
            raise FormatError(f"{source}, {where}: malformed JSON ({msg} at line "
                              f"{exc.lineno}, column {exc.colno}){tail}.", source=source) from None
        at = line + exc.lineno - 1
        raise FormatError(f"{source}, line {at}: malformed JSON ({msg} at column "
                          f"{exc.colno}){tail}.", source=source, line=at) from None
    except RecursionError:
        if source is None:
            raise FormatError("malformed JSON (nested too deeply to read)") from None
        depth, pos = _deepest(text)
        place, found = _place(text, pos, source, line, where)
        raise FormatError(f"{place}: JSON nested too deeply to read ({depth} nested arrays or "
                          "objects, more than Python's JSON reader can follow).",
                          source=source, line=found) from None
    if source is not None and ("\\ud" in text or "\\uD" in text) and _MAYBE_LONE.search(text):
        _check_surrogates(text, value, source, line, where)
    return value


def read_json_file(path: str | os.PathLike[str], what: str, *, expect: str = "",
                   pairs: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    r"""The JSON value of a small file read whole (UTF-8, a byte order mark allowed).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    what : str
        What the file is, in the message of bytes that are not UTF-8
        (``"a label map"``).
    expect : str
        What the file should hold, added to the message of malformed JSON.
    pairs : callable, optional
        What makes each JSON object (:func:`parse_json`).

    Raises
    ------
    FormatError
        For bytes that are not UTF-8 and for JSON that cannot be read
        (:func:`parse_json`), naming file and line.
    OSError
        When the file cannot be opened.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "map.json"
    >>> _ = p.write_bytes(b'{"A": 1,\n "\xc9": 2}')
    >>> read_json_file(p, "a label map")
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: ...map.json, line 2: cannot decode byte 0xc9 as UTF-8; a label map is a JSON file, which is UTF-8: save it as UTF-8.
    """
    source = os.fspath(path)
    with open(source, "rb") as fh:
        raw = fh.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise FormatError(f"{source}, line {line}: cannot decode byte "
                          f"0x{raw[exc.start:exc.start + 1].hex()} as UTF-8; {what} is a JSON "
                          "file, which is UTF-8: save it as UTF-8.",
                          source=source, line=line) from None
    return parse_json(text, source, expect=expect, pairs=pairs)


def metadata_json(raw: bytes, source: str, key: str) -> Any:
    r"""The JSON value kept under ``key`` in the metadata of ``source`` (Parquet, Arrow).

    Raises
    ------
    FormatError
        For bytes that are not UTF-8 and for JSON that cannot be read
        (:func:`parse_json`), naming the file and the key.

    Examples
    --------
    >>> metadata_json(b'["O", "B-PER"]', "f.parquet", "nerscore.vocab.labels")
    ['O', 'B-PER']
    >>> metadata_json(b'["\xc9"]', "f.parquet", "nerscore.vocab.labels")
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: f.parquet, metadata 'nerscore.vocab.labels': cannot decode byte 0xc9 (byte 2) as UTF-8; the metadata holds JSON text, which is UTF-8.
    """
    where = f"metadata {key!r}"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{source}, {where}: cannot decode byte "
                          f"0x{raw[exc.start:exc.start + 1].hex()} (byte {exc.start}) as UTF-8; "
                          "the metadata holds JSON text, which is UTF-8.", source=source) from None
    return parse_json(text, source, where=where)


def json_kind(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words (``null``, ``number``, ``object``), for messages.

    Examples
    --------
    >>> [json_kind(v) for v in (None, True, 5, 2.5, "a", [1], {"a": 1})]
    ['null', 'boolean', 'number', 'number', 'string', 'list', 'object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    for kind, name in ((str, "string"), (list, "list"), (dict, "object")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def json_object_line(raw: str, source: str, n: int, *,
                     expected: str = "a JSON object") -> dict[str, Any] | None:
    r"""The JSON object on line ``n`` of a JSON Lines file (a CR before its end dropped); None if blank.

    Parameters
    ----------
    raw : str
        The line, without its ``\n``.
    source : str
        The file.
    n : int
        The line number.
    expected : str
        What the line should hold, in the message of a JSON value that is no object.

    Raises
    ------
    FormatError
        For a line that is not one JSON object, naming file and line
        (:func:`parse_json`).

    Examples
    --------
    >>> json_object_line('{"id": "a"}\r', "f.jsonl", 2), json_object_line("  ", "f.jsonl", 3)
    ({'id': 'a'}, None)
    >>> json_object_line("[1, 2]", "f.jsonl", 4, expected="a JSON object with 'id'")
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: f.jsonl, line 4: expected a JSON object with 'id'; got list.
    """
    line = raw.removesuffix("\r")
    if not line.strip():
        return None
    obj = parse_json(line, source, n, expect="each line must hold one JSON object")
    if not isinstance(obj, dict):
        raise FormatError(f"{source}, line {n}: expected {expected}; got {json_kind(obj)}.",
                          source=source, line=n)
    return obj


def _deepest(text: str) -> tuple[int, int]:
    """The greatest nesting depth of arrays and objects in ``text``, and where it is first reached."""
    depth = most = where = 0
    for m in _TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > most:
                most, where = depth, m.start()
        elif ch in "]}":
            depth -= 1
    return most, where


def _lone_escape(text: str) -> int | None:
    """Where the first escape of half a surrogate pair without its other half starts, if any."""
    high: int | None = None  # a high half waiting for its low half right after it
    for m in _ESCAPES.finditer(text):
        esc = m.group()
        is_low = esc != "\\\\" and esc[3] in "cdefCDEF"
        if high is not None:
            if is_low and m.start() == high + 6:
                high = None
                continue
            return high
        if is_low:
            return m.start()
        if esc != "\\\\":
            high = m.start()
    return high


def _place(text: str, pos: int, source: str, line: int, where: str) -> tuple[str, int | None]:
    """Where character ``pos`` of ``text`` is, in words, and its line of the file if it has one."""
    if where:
        n = text.count("\n", 0, pos) + 1
        return f"{source}, {where} (line {n})", None
    at = line + text.count("\n", 0, pos)
    return f"{source}, line {at}", at


def _check_surrogates(text: str, value: Any, source: str, line: int, where: str) -> None:
    pos = _lone_escape(text)
    if pos is None:
        return
    place, at = _place(text, pos, source, line, where)
    raise FormatError(
        f"{place}: {_field(value)} holds the escape {text[pos:pos + 6]}, half of a "
        "UTF-16 surrogate pair without its other half; JSON text writes a character beyond "
        "U+FFFF as the character itself or as a whole surrogate pair (\\ud83d\\ude00 for "
        "U+1F600).", source=source, line=at)


def _field(value: Any) -> str:
    """Where the first string holding a lone surrogate is in ``value``, in words."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, str):
            if _LONE.search(v):
                return path or "the value"
        elif isinstance(v, dict):
            for k in v:
                if _LONE.search(k):
                    return f"a key of {path or 'the object'}"
            stack.extend(reversed([(f"{path}[{k!r}]" if path else repr(k), x)
                                   for k, x in v.items()]))
        elif isinstance(v, list):
            stack.extend(reversed([(f"{path}[{i}]", x) for i, x in enumerate(v)]))
    return "a string"
