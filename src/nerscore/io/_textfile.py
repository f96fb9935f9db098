"""Reading files: clear decoding errors, and OS errors that name the file (shared by the readers)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from nerscore.errors import FormatError

__all__ = ["naming", "read_text"]


@contextlib.contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """Give an :class:`OSError` raised while reading ``path`` the file name it lacks.

    Some errors come from a read on an open file (``[Errno 5] Input/output
    error`` from ``/proc/self/mem``, a disk error) and carry no name; the
    command line then says which of its files it was.

    Examples
    --------
    >>> try:
    ...     with naming("/data/gold.conll"):
    ...         raise OSError(5, "Input/output error")
    ... except OSError as exc:
    ...     print(exc.filename)
    /data/gold.conll
    """
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = os.fspath(path)
        raise


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
    from pathlib import Path  # imported by the formats read whole, not on the CoNLL path

    with naming(path):
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
