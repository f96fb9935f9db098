"""Standard input as one input file: ``nerscore score gold.conll -``.

:func:`nerscore.cli.main` calls :func:`spool_standard_input` on every parsed
command line: an input given as ``-`` (one at most) is read from standard
input into a temporary file, whose name ends in the suffix of the format its
first bytes say (:func:`sniff_format`), so that the format is the one given
(``--gold-format``, ``--pred-format``, ``--from-format``) or else the one
sniffed. Every reader, chunked ones included, then reads a file; the
temporary folder is removed when the command ends. Until then every message
and result names it ``<stdin>`` (:func:`shown`, :class:`ShownStream`), as
the user knows it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from typing import Any, BinaryIO, TextIO

from nerscore.cli._options import UsageError

__all__ = ["SHOWN", "STDIN", "ShownStream", "StandardInput", "shown", "sniff_format",
           "spool_standard_input"]

#: The name that stands for standard input.
STDIN = "-"
#: How messages name standard input.
SHOWN = "<stdin>"
#: The temporary files of the standard input being read.
_SPOOLED: list[str] = []

_PARQUET_MAGIC = b"PAR1"
_SUFFIX = {"parquet": ".parquet", "jsonl": ".jsonl", "conll": ".conll"}


def sniff_format(head: bytes) -> str:
    r"""The format the first bytes of a file say: ``"parquet"``, ``"jsonl"`` or ``"conll"``.

    Parquet files start with ``PAR1``; a file whose first non-blank
    character is ``{`` is JSON Lines; anything else is CoNLL.

    Parameters
    ----------
    head : bytes
        The first bytes (a few kilobytes are plenty).

    Returns
    -------
    str

    Examples
    --------
    >>> sniff_format(b'{"id": "1", "spans": []}'), sniff_format(b"Anna B-PER\n")
    ('jsonl', 'conll')
    >>> sniff_format(b"PAR1\x15\x04")
    'parquet'
    """
    if head.startswith(_PARQUET_MAGIC):
        return "parquet"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return "jsonl" if text.startswith(b"{") else "conll"


class StandardInput:
    """Standard input saved in a temporary file (see the module documentation).

    The file is ``stdin`` with the suffix of its format (``stdin.conll``),
    in a folder of its own: a name taken from a file's name, such as the
    system name of ``nerscore report`` or the document id of a WebAnno
    file, reads ``stdin``.

    Attributes
    ----------
    path : str
        The temporary file.
    format : str
        The format sniffed from its first bytes.
    n_bytes : int
        Its size.
    """

    def __init__(self, stream: BinaryIO) -> None:
        self.folder = tempfile.mkdtemp(prefix="nerscore-stdin-")
        try:
            first = stream.read(1 << 16)
            self.format = sniff_format(first)
            self.path = os.path.join(self.folder, "stdin" + _SUFFIX[self.format])
            with open(self.path, "wb") as fh:
                fh.write(first)
                shutil.copyfileobj(stream, fh, 1 << 20)
                self.n_bytes = fh.tell()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Remove the temporary file and its folder."""
        if getattr(self, "path", None) in _SPOOLED:
            _SPOOLED.remove(self.path)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> StandardInput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def shown(text: str) -> str:
    """``text`` with the temporary file of standard input, while there is one, named ``<stdin>``.

    Examples
    --------
    >>> import io
    >>> with StandardInput(io.BytesIO(b"Anna B-PER")) as spooled:
    ...     _SPOOLED.append(spooled.path)
    ...     shown(f"{spooled.path}, line 1: bad tag")
    '<stdin>, line 1: bad tag'
    >>> shown("g.conll, line 1: bad tag")
    'g.conll, line 1: bad tag'
    """
    for path in _SPOOLED:
        text = text.replace(path, SHOWN)
    return text


class ShownStream:
    """A text stream that writes through another, with the text passed through :func:`shown`.

    :func:`nerscore.cli.main` puts standard error behind one while standard
    input is read, so that errors, notes and warnings all name it ``<stdin>``.

    Parameters
    ----------
    stream : text file
        Where the text goes; every other attribute is the stream's.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(shown(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _dests(args: argparse.Namespace) -> list[tuple[str, int | None]]:
    """Every ``(dest, index)`` of an input given as ``-`` (index within a list, else None)."""
    found: list[tuple[str, int | None]] = []
    # ``--map-file`` is an input of every command that takes label options
    for dest in (*getattr(args, "input_files", ()), "label_map_file"):
        value = getattr(args, dest, None)
        if isinstance(value, list):
            found += [(dest, i) for i, v in enumerate(value) if v == STDIN]
        elif value == STDIN:
            found.append((dest, None))
    return found


def spool_standard_input(args: argparse.Namespace,
                         stream: BinaryIO | None = None) -> StandardInput | None:
    """Read standard input into a file for the one input given as ``-``; None when none is.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line (its inputs declared with
        :func:`~nerscore.cli._output.declare_files`); the ``-`` is replaced
        by the temporary file's path.
    stream : binary file, optional
        What to read (default: ``sys.stdin.buffer``).

    Returns
    -------
    StandardInput or None
        Close it when the command ends; until then :func:`shown` names its
        file ``<stdin>``.

    Raises
    ------
    UsageError
        For ``-`` given twice, standard input that is a terminal, or empty.
    """
    if getattr(args, "reads_stdin", False):  # the command reads it itself
        return None
    found = _dests(args)
    if not found:
        return None
    if len(found) > 1:
        raise UsageError("standard input can be read once: give '-' for one input at most")
    if stream is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("'-' reads standard input, but it is a terminal: pipe or "
                             "redirect a file into the command (e.g. ... - < pred.conll)")
        stream = sys.stdin.buffer
    spooled = StandardInput(stream)
    if spooled.n_bytes == 0:
        spooled.close()
        raise UsageError("standard input ('-') is empty")
    _SPOOLED.append(spooled.path)
    dest, index = found[0]
    if index is None:
        setattr(args, dest, spooled.path)
    else:
        getattr(args, dest)[index] = spooled.path
    return spooled
