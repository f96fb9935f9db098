"""Opening Parquet files: pyarrow imported when first needed, and its refusals as located errors."""

from __future__ import annotations

import os
from typing import Any

from nerscore.errors import FormatError, require

__all__ = ["Path", "open_parquet", "pa", "pq", "refusal"]

Path = str | os.PathLike[str]


def pa() -> Any:
    return require("pyarrow", extra="parquet")


def pq() -> Any:
    return require("pyarrow.parquet", extra="parquet")


def open_parquet(path: Path) -> Any:
    """The :class:`pyarrow.parquet.ParquetFile` of ``path``; a located error if it is none.

    A file that cannot be opened (a missing one) raises the system's
    :class:`OSError` with the file's name, as :func:`open` raises it.
    """
    try:
        return pq().ParquetFile(os.fspath(path))
    except (ValueError, OSError) as exc:
        reason = refusal(exc)
        source = os.fspath(path)
        if reason is None and isinstance(exc, OSError) and exc.errno and exc.filename is None:
            # pyarrow's "[Errno 2] Failed to open local file ...": the system's error, named
            raise OSError(exc.errno, os.strerror(exc.errno), source) from None
        if reason is None:
            raise
        raise FormatError(
            f"{source}: not a Parquet file ({reason}). Read it in its own format (name that "
            "one, or none to guess it from the file name), or convert it to Parquet with "
            "nerscore convert.", source=source) from None


def refusal(exc: BaseException) -> str | None:
    """The reason, in short, why pyarrow refuses what a file holds; None for another error.

    pyarrow raises ``ArrowInvalid`` (a ``ValueError``), or an ``OSError``
    without an error number, for content it cannot read; an ``OSError``
    with one (a missing file) is the system's.

    Examples
    --------
    >>> refusal(OSError("Couldn't deserialize thrift: No more data to read."))
    "pyarrow: Couldn't deserialize thrift: No more data to read"
    >>> refusal(FileNotFoundError(2, "No such file")) is None
    True
    """
    if not isinstance(exc, pa().ArrowInvalid) and not (
            isinstance(exc, OSError) and exc.errno is None):
        return None
    return "pyarrow: " + str(exc).split(". ")[0].rstrip(".")
