"""Where a CoNLL reader's bytes come from: its options checked, the source named and read, as UTF-8.

Shared by the reader of whole files (:func:`nerscore.io.conll.read_conll`)
and the streaming readers (:mod:`nerscore.io._conll_stream`).
"""

from __future__ import annotations

import codecs
import os
from typing import IO, Literal

import numpy as np

from nerscore.errors import InputTypeError, OptionError, quoted
from nerscore.io._textfile import (
    UTF8_CODECS,
    check_not_wide,
    decode_error,
    decode_text,
    file_codec,
    naming,
)

__all__ = ["BLOCK_SIZE", "DELIMITERS", "ColumnDelimiter", "Source", "check_options", "check_source",
           "name_of", "read_bytes", "to_utf8"]

ColumnDelimiter = Literal["auto", "tab", "space"]
Source = str | os.PathLike[str] | IO[bytes] | IO[str]

DELIMITERS = ("auto", "tab", "space")
#: Bytes a whole file is scanned in at a time, read where it is used (tests shrink it): by
#: :func:`~nerscore.io.conll.read_conll`, and by the chunk reader where it must cut as that does.
BLOCK_SIZE = 1 << 22


def check_options(
    token_column: int, label_column: int, column_delimiter: str, encoding: str
) -> str:
    for name, value in (("token_column", token_column), ("label_column", label_column)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise OptionError(
                f"Expected `{name}` to be an integer column index (0 is the first column, "
                f"-1 the last); got {quoted(value)}.", option=name,
            )
    if column_delimiter not in DELIMITERS:
        raise OptionError(
            "Expected `column_delimiter` to be one of 'auto', 'tab' or 'space'; "
            f"got {quoted(column_delimiter)}.", option="column_delimiter",
        )
    return file_codec(encoding)


def name_of(source: Source) -> str | None:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None


def check_source(source: object) -> None:
    """Raise :class:`InputTypeError` for a source that is neither a path nor a readable file."""
    if not isinstance(source, (str, os.PathLike)) and not callable(getattr(source, "read", None)):
        raise InputTypeError(f"Expected a path or a file object; got {type(source).__name__}.")


def read_bytes(source: Source) -> bytes | str:
    if isinstance(source, (str, os.PathLike)):
        with naming(source), open(source, "rb") as fh:
            return fh.read()
    check_source(source)
    data = source.read()
    if not isinstance(data, (bytes, str)):
        raise InputTypeError(f"Expected a path or a file object; got {type(source).__name__}.")
    return data

def to_utf8(raw: bytes | str, codec: str, name: str | None,
             encoding: str) -> tuple[bytes, bool, bool]:
    """The input as UTF-8 bytes without BOM, whether it still needs validating, and the BOM.

    UTF-8 input is returned as it is and validated block by block while it
    is parsed; ASCII input is checked here (bytes ``EF BB BF`` first are
    no mark in ``ascii``, which has none: they cannot be decoded, as the
    streaming reader says); other encodings are decoded (and so validated)
    here. The BOM counts where the decoded text began with it (not the mark
    a codec such as ``utf-8-sig`` consumes).
    """
    if isinstance(raw, str):
        bom = raw.startswith("\ufeff")
        data = raw.removeprefix("\ufeff").encode("utf-8")
        pending = False
    elif codec in UTF8_CODECS:
        bom = codec == "utf-8" and raw.startswith(codecs.BOM_UTF8)
        data = raw if codec == "ascii" else raw.removeprefix(codecs.BOM_UTF8)
        if codec == "utf-8-sig":  # that was the codec's own mark; a U+FEFF after it is the text's
            bom = data.startswith(codecs.BOM_UTF8)
            data = data.removeprefix(codecs.BOM_UTF8)
        check_not_wide(data[:256], name, encoding)
        pending = codec != "ascii"  # ASCII is UTF-8: checked whole here, not again per block
        if not pending and not data.isascii():
            try:
                data.decode(codec)
            except UnicodeDecodeError as exc:
                raise decode_error(exc, data, name, encoding) from None
    else:
        try:
            text = decode_text(raw, codec)
        except UnicodeError as exc:
            raise decode_error(exc, raw, name, encoding) from None
        bom = text.startswith("\ufeff")
        data = text.removeprefix("\ufeff").encode("utf-8")
        pending = False
    if b"\r" in data and b"\n" not in data:  # old Mac line endings
        data = data.replace(b"\r", b"\n")
    return data, pending, bom
