"""JSON text read with one error, naming file and line, for whatever keeps it from being read.

Python's JSON reader fails two ways on text a file can hold: malformed JSON
(``JSONDecodeError``) and arrays or objects nested more deeply than it can
follow (``RecursionError``). :func:`parse_json` turns both into one
:class:`~nerscore.errors.FormatError` that says where.
"""

from __future__ import annotations

import json
import re
from typing import Any

from nerscore.errors import FormatError

__all__ = ["parse_json"]

_DECODER = json.JSONDecoder()

#: A JSON string (closed or not) or a bracket: what nesting depth is counted from.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def parse_json(text: str, source: str | None = None, line: int = 1, *, expect: str = "",
               prefix: bool = False) -> Any:
    r"""The JSON value of ``text``; a :class:`FormatError` naming file and line when it cannot be read.

    Parameters
    ----------
    text : str
        The JSON text.
    source : str, optional
        The file it comes from. Without one (a model's output), the error
        message is the problem alone, with its position in ``text``.
    line : int
        The line of the file that ``text`` starts on.
    expect : str
        What the file should hold, added to the message of malformed JSON.
    prefix : bool
        Read the JSON value at the start of ``text``, ignoring what follows.

    Returns
    -------
    object

    Raises
    ------
    FormatError
        For malformed JSON, or JSON nested too deeply to read.

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
    """
    try:
        value = _DECODER.raw_decode(text)[0] if prefix else json.loads(text)
    except json.JSONDecodeError as exc:
        if source is None:
            raise FormatError(f"malformed JSON ({exc.msg} at line {exc.lineno}, column "
                              f"{exc.colno})") from None
        at = line + exc.lineno - 1
        tail = f"; {expect}" if expect else ""
        raise FormatError(f"{source}, line {at}: malformed JSON ({exc.msg} at column "
                          f"{exc.colno}){tail}.", source=source, line=at) from None
    except RecursionError:
        if source is None:
            raise FormatError("malformed JSON (nested too deeply to read)") from None
        depth, pos = _deepest(text)
        at = line + text.count("\n", 0, pos)
        raise FormatError(f"{source}, line {at}: JSON nested too deeply to read ({depth} nested "
                          "arrays or objects, more than Python's JSON reader can follow).",
                          source=source, line=at) from None
    return value


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
