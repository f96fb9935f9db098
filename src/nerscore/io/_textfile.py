"""Reading files: the encoding option, clear decoding errors, and OS errors that name the file.

Shared by the readers: :func:`file_codec` checks an ``encoding`` option (the
command line's ``--encoding`` too), :func:`decode_error` and
:func:`read_text` turn a failed decoding into one error naming the file and
line (read whole or block by block), and :func:`naming` gives an ``OSError`` its file name.
"""

from __future__ import annotations

import codecs
import contextlib
import os
from collections.abc import Iterator

from nerscore.errors import FormatError, OptionError, quoted

__all__ = ["UTF8_CODECS", "check_not_wide", "decode_error", "decode_text", "decoded_lines", "file_codec",
           "naming", "read_text"]

#: Codecs Python counts as text encodings that no text file is written in, and why.
_NOT_FILE_CODECS = {
    "idna": "which encodes host names, not files",
    "punycode": "which encodes host names, not files",
    "unicode-escape": "which encodes Python string literals, not files",
    "raw-unicode-escape": "which encodes Python string literals, not files",
    "undefined": "which decodes nothing",
}
#: Codecs that take the byte order from a byte order mark, and those that name it.
_BYTE_ORDER = {"utf-16": ("utf-16-le", "utf-16-be"), "utf-32": ("utf-32-le", "utf-32-be")}


def file_codec(encoding: object) -> str:
    """The codec name of ``encoding``, after checking that text files are written in it.

    Accepted are the text encodings Python knows, except those that encode
    something else than files: host names (``idna``, ``punycode``), Python
    string literals (``unicode_escape``, ``raw_unicode_escape``) and
    ``undefined``. Byte-to-byte codecs (``rot13``, ``zlib``, ``base64``) are
    no text encodings.

    Raises
    ------
    OptionError
        A ``ValueError`` saying which encodings are expected.

    Examples
    --------
    >>> file_codec("UTF8"), file_codec("latin-1")
    ('utf-8', 'iso8859-1')
    >>> file_codec("idna")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `encoding` to be a text encoding Python knows (e.g. utf-8, latin-1, cp1252); got 'idna', which encodes host names, not files.
    """
    try:
        info: codecs.CodecInfo | None = codecs.lookup(encoding)  # type: ignore[arg-type]
    except (LookupError, TypeError):
        info = None
    why = "" if info is None else _NOT_FILE_CODECS.get(info.name, "")
    if info is None or why or not getattr(info, "_is_text_encoding", True):
        raise OptionError(
            "Expected `encoding` to be a text encoding Python knows (e.g. utf-8, latin-1, "
            f"cp1252); got {quoted(encoding)}{', ' + why if why else ''}.", option="encoding")
    return info.name


def decode_text(data: bytes, codec: str) -> str:
    """``data`` decoded, as a stream reader decodes it.

    Unlike ``bytes.decode``, ``utf-16`` and ``utf-32`` then need a byte order
    mark (a file without one is read in the byte order of the machine
    otherwise), as when a file is read block by block.

    Raises
    ------
    UnicodeError
        A ``UnicodeDecodeError``, or a ``UnicodeError`` without a position
        (no byte order mark).
    """
    return str(codecs.getincrementaldecoder(codec)().decode(data, final=True))


def _advice(encoding: str) -> str:
    """Which ``encoding`` to pass instead (as a Python keyword; the CLI shows it as a flag)."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        name = encoding
    first, second = _BYTE_ORDER.get(name, ("latin-1", "cp1252"))
    advice = f"e.g. encoding={first!r} or encoding={second!r}"
    return f"{advice} for {name.upper()} without a byte order mark" if name in _BYTE_ORDER else advice


def decode_error(
    exc: UnicodeError, raw: bytes, name: str | None, encoding: str, first_line: int = 1
) -> FormatError:
    r"""The error for ``raw`` that ``encoding`` cannot decode, naming file and line.

    ``raw`` is the block that failed, ``first_line`` its first line in the
    file. A ``utf-16`` or ``utf-32`` file without byte order mark is about
    the whole file (before Python 3.13 its ``UnicodeError`` has no position):
    its line is ``first_line``.

    Examples
    --------
    >>> data = "Anna B-PER\n".encode("utf-16-le")
    >>> try:
    ...     decode_text(data, "utf-16")
    ... except UnicodeError as exc:
    ...     error = decode_error(exc, data, "gold.conll", "utf-16")
    >>> print(str(error).replace("BOM. ", "BOM.\n").replace("), e.g.", "),\ne.g."))
    Cannot decode the file as utf-16 (gold.conll, line 1): UTF-16 stream does not start with BOM.
    Pass its encoding with the `encoding` option (--encoding on the command line),
    e.g. encoding='utf-16-le' or encoding='utf-16-be' for UTF-16 without a byte order mark.
    """
    no_bom = isinstance(exc, UnicodeDecodeError) and exc.reason.endswith("not start with BOM")
    if isinstance(exc, UnicodeDecodeError) and not no_bom:
        data = exc.object if isinstance(exc.object, bytes) else raw
        line = first_line + _newlines_before(data, exc.start, encoding, exc.encoding)
        bad = data[exc.start : max(exc.end, exc.start + 1)][:4]  # a UTF-16/32 unit is 2 or 4 bytes
        what = f"byte{'s' if len(bad) > 1 else ''} {' '.join(f'0x{b:02x}' for b in bad)}"
        problem = "the file is in another encoding"
    elif no_bom:  # Python 3.13 and later: a UnicodeDecodeError at the first bytes
        assert isinstance(exc, UnicodeDecodeError)
        line, what = first_line, "the file"
        problem = f"{exc.encoding.upper()} stream does not start with BOM"
    else:  # before: a UnicodeError without a position
        line, what, problem = first_line, "the file", exc.args[0] if exc.args else str(exc)
    where = f"{name or 'the input'}, line {line}"
    return FormatError(
        f"Cannot decode {what} as {encoding} ({where}): {problem}. Pass its encoding with the "
        f"`encoding` option (--encoding on the command line), {_advice(encoding)}.",
        source=name,
        line=line,
    )


def _newlines_before(data: bytes, stop: int, encoding: str, decoded_as: str) -> int:
    r"""The line breaks (``\n``) in the text of ``data[:stop]``, the bytes decoded before an error.

    ``data`` is what the decoder had (``UnicodeDecodeError.object``: after a
    byte order mark that the codec reads, with bytes held from the block
    before), decoded as the codec does it (``decoded_as``, which names the
    byte order a ``utf-16`` or ``utf-32`` decoder took from the mark). The
    newline is not one ``0x0a`` byte in every encoding: it is two or four
    bytes in UTF-16 and UTF-32, where ``0x0a`` is a byte of other characters
    too.

    Examples
    --------
    >>> data = "\u010a\n".encode("utf-16-le")
    >>> data.count(b"\n"), _newlines_before(data, len(data), "utf-16", "utf-16-le")
    (2, 1)
    """
    codec = encoding
    with contextlib.suppress(LookupError):
        if codecs.lookup(encoding).name in {"utf-16", "utf-32", "utf-8-sig"}:
            codec = decoded_as
    try:
        decoder = codecs.getincrementaldecoder(codec)(errors="ignore")
        return str(decoder.decode(data[:stop], final=True)).count("\n")
    except (LookupError, UnicodeError):  # not a codec the file could be read in
        return data.count(b"\n", 0, stop)


#: Codecs whose text is its UTF-8 bytes as they are (checked, not decoded); ASCII text in
#: them has no zero byte.
UTF8_CODECS = frozenset({"utf-8", "utf-8-sig", "ascii"})
#: Where the zero bytes of ASCII characters stand in a unit of four bytes, by encoding.
_WIDE_ZEROS = {"utf-32-le": (1, 2, 3), "utf-32-be": (0, 1, 2), "utf-16-le": (1, 3),
               "utf-16-be": (0, 2)}


def check_not_wide(head: bytes, name: str | None, encoding: str) -> None:
    r"""Refuse input read as UTF-8 that is UTF-16 or UTF-32 text without a byte order mark.

    Read as UTF-8, such text is valid (a zero byte beside each ASCII
    character) and would give tokens and labels with zero bytes in them, and
    wrong scores. ``head`` is the start of the input; it is taken as wide
    text when at least a third of its first 256 bytes are zeros, standing
    where the zero bytes of one of these encodings stand, and it reads as
    text in that encoding. So many zeros otherwise are a binary file's.

    Raises
    ------
    FormatError
        Naming the file and the encoding to pass.

    Examples
    --------
    >>> check_not_wide("Anna B-PER".encode("utf-8"), "gold.conll", "utf-8")
    >>> check_not_wide("Anna B-PER".encode("utf-16-le"), "gold.conll", "utf-8")
    Traceback (most recent call last):
    nerscore.errors.FormatError: Cannot read the file as utf-8 (gold.conll, line 1): it holds a zero byte beside each character, as UTF-16 text does. Pass its encoding with the `encoding` option (--encoding on the command line), e.g. encoding='utf-16-le'.
    >>> check_not_wide(b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x03\x00>\x00", "gold.conll", "utf-8")
    Traceback (most recent call last):
    nerscore.errors.FormatError: Cannot read the file as utf-8 (gold.conll, line 1): 11 of its first 20 bytes are zero bytes, as in a binary file, not text. Give the annotations' text file (or, if it is text, its encoding with the `encoding` option, --encoding on the command line).
    """
    if codecs.lookup(encoding).name not in UTF8_CODECS:
        return
    head = head[: 256 - 256 % 4]
    if len(head) < 8 or 3 * head.count(0) < len(head):
        return
    zeros = [head[k::4].count(0) / len(head[k::4]) for k in range(4)]
    for guess, at in _WIDE_ZEROS.items():
        if all((zeros[k] > 0.5) == (k in at) for k in range(4)) and _reads_as_text(head, guess):
            raise FormatError(
                f"Cannot read the file as {encoding} ({name or 'the input'}, line 1): it holds a "
                f"zero byte beside each character, as {guess[:6].upper()} text does. Pass its "
                "encoding with the `encoding` option (--encoding on the command line), e.g. "
                f"encoding='{guess}'.", source=name, line=1)
    raise FormatError(
        f"Cannot read the file as {encoding} ({name or 'the input'}, line 1): "
        f"{head.count(0)} of its first {len(head)} bytes are zero bytes, as in a binary file, "
        "not text. Give the annotations' text file (or, if it is text, its encoding with the "
        "`encoding` option, --encoding on the command line).", source=name, line=1)


def _reads_as_text(head: bytes, encoding: str) -> bool:
    """Whether ``head`` decodes in ``encoding`` to printable characters and whitespace.

    Tells text from a binary file (a program, an archive) whose zero bytes
    happen to stand where those of a wide encoding would.
    """
    text = head.decode(encoding, "ignore")  # the last unit may be cut
    return all(c.isprintable() or c in "\t\n\r" for c in text)


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
    OptionError
        When ``encoding`` is not one of :func:`file_codec`.
    """
    from pathlib import Path  # imported by the formats read whole, not on the CoNLL path

    codec = file_codec(encoding)
    with naming(path):
        data = Path(path).read_bytes()
    check_not_wide(data[:256], os.fspath(path), encoding)
    try:
        text = decode_text(data, codec)
    except UnicodeError as exc:  # UnicodeDecodeError, or no byte order mark
        raise decode_error(exc, data, os.fspath(path), encoding) from None
    return text.removeprefix("\ufeff") if strip_bom else text


def decoded_lines(path: str | os.PathLike[str], encoding: str, block_size: int) -> Iterator[str]:
    r"""The lines of a file split at ``\\n`` only, decoded block by block (BOM removed).

    The bytes are checked as :func:`read_text` checks them (:func:`check_not_wide`, then
    decoded); undecodable bytes raise :func:`decode_error`'s error, naming their line, when
    the block that holds them is reached. The JSON Lines readers read files chunk by chunk
    with it.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "f.jsonl"
    >>> _ = tmp.write_bytes(b"\xef\xbb\xbf{}\r\n\n{}")
    >>> list(decoded_lines(tmp, "utf-8", 2))
    ['{}\r', '', '{}']
    """
    decoder = codecs.getincrementaldecoder(file_codec(encoding))()
    pending = ""
    first = True
    n_lines = 0
    with naming(path), open(path, "rb") as fh:
        chunk = fh.read(max(block_size, 256))
        check_not_wide(chunk[:256], os.fspath(path), encoding)  # as read_text checks them
        while True:
            held = decoder.getstate()[0]  # the bytes of a character cut by the last block
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeError as exc:  # UnicodeDecodeError, or no byte order mark
                raise decode_error(exc, held + chunk, os.fspath(path), encoding,
                                   n_lines + pending.count("\n") + 1) from None
            if first and text:
                text = text.removeprefix("\ufeff")
                first = False
            pending += text
            if not chunk:
                yield pending
                return
            *done, pending = pending.split("\n")
            n_lines += len(done)
            yield from done
            chunk = fh.read(block_size)
