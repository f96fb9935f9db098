"""The ``--map-file`` label map: a JSON file holding one object ``{"old": "new", ...}``."""

from __future__ import annotations

import os
from typing import Any

from nerscore.io._json_text import read_json_file
from nerscore.values.label_ops import LABEL_MAP_EXAMPLE, check_label_map

__all__ = ["read_label_map"]


def read_label_map(path: str | os.PathLike[str]) -> dict[str, str]:
    r"""A label map from a JSON file holding one object ``{"old": "new", ...}``.

    The file is UTF-8, as JSON files are (a byte order mark is allowed),
    whatever the encoding of the files it applies to.

    Raises
    ------
    FormatError
        When the file is not UTF-8 or not JSON (nested too deeply to read
        included), not one object, or has an entry that is not a label (a
        non-empty string) mapped to a label, or a label twice; the message
        names the file and the line or the entry
        (:func:`~nerscore.values.label_ops.check_label_map`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "map.json"
    >>> _ = p.write_text('{"GPE": "LOC", "FAC": "LOC"}')
    >>> read_label_map(p)
    {'GPE': 'LOC', 'FAC': 'LOC'}
    >>> _ = p.write_text('{"GPE": "LOC",\n "FAC": }')
    >>> read_label_map(p)
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: ...map.json, line 2: malformed JSON (Expecting value at column 9); a label map is one object such as {"GPE": "LOC"}.
    """
    source = os.fspath(path)
    twice: dict[int, str] = {}  # id of an object -> a key it has twice

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) < len(items):
            keys = [k for k, _ in items]
            twice[id(out)] = next(k for k in keys if keys.count(k) > 1)
        return out

    data = read_json_file(source, "a label map", pairs=pairs,
                          expect=f"a label map is one object such as {LABEL_MAP_EXAMPLE}")
    return check_label_map(data, source, twice.get(id(data)))
