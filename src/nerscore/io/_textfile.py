"""Reading whole text files with clear decoding errors (shared by the span readers)."""

from __future__ import annotations

import os
from pathlib import Path

from nerscore.errors import FormatError

__all__ = ["read_text"]


def read_text(
    path: str | os.PathLike[str], *, encoding: str = "utf-8", strip_bom: bool = True
) -> str:
    """The decoded contents of ``path``, line endings untouched.

    A leading byte order mark is removed unless ``strip_bom=False`` (BRAT
    texts, whose offsets count it as character 0).

    Raises
    ------
    FormatError
        When the bytes are not valid in ``encoding``, naming the file, the
        line, the byte and the ``encoding`` option.
    """
    data = Path(path).read_bytes()
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.start + 1]
        raise FormatError(
            f"{os.fspath(path)}, line {line}: cannot decode byte 0x{bad.hex()} with encoding "
            f"{encoding!r}; pass the file's encoding, e.g. encoding='latin-1'.",
            source=os.fspath(path), line=line,
        ) from None
    except LookupError:
        raise ValueError(f"Unknown encoding {encoding!r}; pass e.g. encoding='utf-8'.") from None
    return text.removeprefix("\ufeff") if strip_bom else text
