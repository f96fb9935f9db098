r"""Byte-order marks and byte order of a text output written back in its input's encoding.

``utf-16`` and ``utf-32`` read the byte order from the mark a file begins
with, but write the machine's own (little-endian on x86 and ARM): a
big-endian file (``FE FF``) rewritten in its encoding would change every
byte. :func:`written_encoding` names the encoding an output is written in
instead, one that writes the mark and the byte order read
(``utf-16-be-bom``: ``utf-16`` written big-endian). ``utf-8-sig`` reads and
writes a mark of its own too (``EF BB BF``), with no byte order. A U+FEFF
that follows the codec's own mark is a character of the text, which every
reader skips as it skips a mark; :func:`byte_order_mark` writes it back
after the mark.
"""

from __future__ import annotations

import codecs
import os
import sys
from typing import Any

__all__ = ["BYTE_ORDER_MARKS", "MARKING_CODECS", "READING_CODECS", "byte_order_mark", "text_after_mark",
           "written_encoding"]

#: The byte-order mark of each encoding that reads it as the character U+FEFF, by codec name.
BYTE_ORDER_MARKS = {
    "utf-8": codecs.BOM_UTF8,
    "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
    "utf-32-le": codecs.BOM_UTF32_LE, "utf-32-be": codecs.BOM_UTF32_BE,
}

#: The mark each codec that reads one of its own writes, and the codecs of each byte order.
_OWN_MARKS = {
    "utf-16": {"le": codecs.BOM_UTF16_LE, "be": codecs.BOM_UTF16_BE},
    "utf-32": {"le": codecs.BOM_UTF32_LE, "be": codecs.BOM_UTF32_BE},
}

#: The marks each codec that reads a mark of its own may find first in a file.
_READ_MARKS = {"utf-8-sig": (codecs.BOM_UTF8,),
               **{name: tuple(marks.values()) for name, marks in _OWN_MARKS.items()}}

#: The codecs that read the mark a file begins with as their own, not as a character.
READING_CODECS = frozenset(_READ_MARKS)

_NATIVE = "le" if sys.byteorder == "little" else "be"


def _codec(base: str, order: str) -> codecs.CodecInfo:
    """``base`` (``utf-16`` or ``utf-32``) written in the byte order ``order``, its mark first."""
    mark = _OWN_MARKS[base][order]
    encode = codecs.getencoder(f"{base}-{order}")

    class Encoder(codecs.IncrementalEncoder):
        # the state is that of the codec's own encoder: 0 once the mark is written (as a
        # text file opened to append sets it), else not
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self.marked = False

        def encode(self, text: str, final: bool = False) -> bytes:
            data: bytes = encode(text, self.errors)[0]
            if not self.marked:
                self.marked = True
                return mark + data
            return data

        def reset(self) -> None:
            self.marked = False

        def getstate(self) -> int:
            return 0 if self.marked else 2

        def setstate(self, state: Any) -> None:
            self.marked = not state

    def whole(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return mark + encode(text, errors)[0], len(text)

    return codecs.CodecInfo(whole, codecs.getdecoder(base), name=f"{base}-{order}-bom",
                            incrementalencoder=Encoder,
                            incrementaldecoder=codecs.getincrementaldecoder(base))


_CODECS = {f"{base.replace('-', '_')}_{order}_bom": (base, order)
           for base in _OWN_MARKS for order in ("le", "be")}
_MADE: dict[str, codecs.CodecInfo] = {}


def _search(name: str) -> codecs.CodecInfo | None:
    if name not in _CODECS:
        return None
    if name not in _MADE:
        _MADE[name] = _codec(*_CODECS[name])
    return _MADE[name]


codecs.register(_search)

#: The codecs that write a byte-order mark of their own before any text.
MARKING_CODECS = frozenset({"utf-8-sig", *_OWN_MARKS,
                            *(f"{base}-{order}-bom" for base, order in _CODECS.values())})


def _head(path: str | os.PathLike[str], encoding: str) -> tuple[str, bytes] | None:
    """The codec of ``encoding`` when it reads a mark of its own, and the first bytes of ``path``."""
    try:
        name = codecs.lookup(encoding).name
        if name not in _READ_MARKS:
            return None
        with open(path, "rb") as fh:
            return name, fh.read(8)
    except (LookupError, OSError):  # not an encoding, not a file: the reader says so
        return None


def written_encoding(path: str | os.PathLike[str], encoding: str) -> str:
    r"""The encoding to write the text of ``path``, read as ``encoding``, back in.

    ``encoding`` itself, but for ``utf-16`` or ``utf-32`` of a file whose
    mark says the other byte order than the machine's: the same codec
    written in the file's byte order, mark first, so that the output has
    the bytes of the input where the text is the same.

    Examples
    --------
    A big-endian file is written big-endian on any machine: in
    ``utf-16-be-bom`` where the machine is little-endian, in ``utf-16``
    itself where it is big-endian.

    >>> import pathlib, tempfile
    >>> src = pathlib.Path(tempfile.mkdtemp()) / "a.conll"
    >>> _ = src.write_bytes(codecs.BOM_UTF16_BE + "Ann O\n".encode("utf-16-be"))
    >>> written_encoding(src, "UTF-16") == ("utf-16-be-bom" if sys.byteorder == "little"
    ...                                     else "UTF-16")
    True
    >>> written_encoding(src, "utf-8"), written_encoding(src, "utf-8-sig")
    ('utf-8', 'utf-8-sig')
    >>> "Ann O\n".encode(written_encoding(src, "utf-16")) == src.read_bytes()
    True
    """
    head = _head(path, encoding)
    if head is None or head[0] not in _OWN_MARKS:
        return encoding
    name, first = head
    for order, mark in _OWN_MARKS[name].items():
        if first.startswith(mark) and order != _NATIVE:
            return f"{name}-{order}-bom"
    return encoding


def text_after_mark(path: str | os.PathLike[str], encoding: str) -> bool:
    r"""Whether ``path``, read as ``utf-8-sig``, ``utf-16`` or ``utf-32``, holds U+FEFF right after the codec's mark.

    The codec reads the mark the file begins with as its own
    (:data:`READING_CODECS`); a second one is the first character of the
    text, which the readers skip as a mark.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> src = pathlib.Path(tempfile.mkdtemp()) / "a.conll"
    >>> _ = src.write_bytes("\ufeffAnn O\n".encode("utf-16"))
    >>> text_after_mark(src, "utf-16"), text_after_mark(src, "utf-16-le")
    (True, False)
    >>> _ = src.write_bytes(codecs.BOM_UTF8 * 2 + b"Ann O\n")
    >>> text_after_mark(src, "utf-8-sig"), text_after_mark(src, "utf-8")
    (True, False)
    """
    head = _head(path, encoding)
    if head is None:
        return False
    name, first = head
    return any(first.startswith(mark * 2) for mark in _READ_MARKS[name])


def byte_order_mark(began: bool, encoding: str, read_as: str | None = None, *,
                    after_mark: bool = False) -> str | None:
    r"""What a text output in ``encoding`` begins with to keep the byte-order mark of its input.

    Every reader skips the mark; a writer that keeps it (a CoNLL output of
    ``convert``, ``nerscore repair``) writes this first. The mark is U+FEFF
    in every Unicode encoding, so that a file keeps its bytes when it is
    written in its own encoding, and a mark of one Unicode encoding becomes
    the mark of another.

    Parameters
    ----------
    began : bool
        Whether the input began with one
        (:func:`~nerscore.io.convert.reading.began_with_bom`).
    encoding : str
        The output's encoding.
    read_as : str, optional
        The encoding the input was read in, where it is a text file: read
        as ``utf-8-sig``, ``utf-16`` or ``utf-32`` (:data:`READING_CODECS`),
        its U+FEFF followed the codec's own mark (:func:`text_after_mark`),
        and an output that writes a mark of its own writes it after that.
    after_mark : bool
        Whether the input's U+FEFF followed such a mark, where ``read_as``
        cannot say (a Parquet tag file's layout keeps it for the CoNLL file
        it was written from).

    Returns
    -------
    str or None
        ``"\ufeff"``; ``""`` when the input began with none, or when the
        codec writes one itself (``utf-8-sig``, ``utf-16``, ``utf-32``) and
        the input's was no character after such a mark; None when
        ``encoding`` is not a Unicode encoding (``latin-1``), which has no
        such mark (the output goes without it).

    Examples
    --------
    >>> [byte_order_mark(True, e) for e in ("utf-8", "UTF8", "utf-8-sig", "latin-1")]
    ['\ufeff', '\ufeff', '', None]
    >>> [byte_order_mark(True, e) for e in ("utf-16-le", "utf-32-be", "utf-16")]
    ['\ufeff', '\ufeff', '']
    >>> byte_order_mark(True, "utf-16", read_as="utf-16"), byte_order_mark(False, "latin-1")
    ('\ufeff', '')
    >>> byte_order_mark(True, "utf-8-sig", read_as="utf-8-sig"), byte_order_mark(
    ...     True, "utf-16", after_mark=True)
    ('\ufeff', '\ufeff')
    """
    if not began:
        return ""
    try:
        name = codecs.lookup(encoding).name
        read = None if read_as is None else codecs.lookup(read_as).name
    except LookupError:
        return None
    if name in MARKING_CODECS:
        return "\ufeff" if after_mark or read in READING_CODECS else ""
    return "\ufeff" if name in BYTE_ORDER_MARKS else None
