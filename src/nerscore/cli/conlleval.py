"""``nerscore conlleval``: the Perl conlleval script's report, to the byte.

This module parses the arguments and prints; the input is split into rows
by :func:`nerscore.io.conlleval.read_conlleval`, scored by
:func:`nerscore.decode.conlleval_rules.score_conlleval` and rendered by
:func:`nerscore.render.conlleval.format_conlleval`. Those modules (and
NumPy) are imported only when the command runs, so that ``--help`` and
argument errors are answered at once.
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO

from nerscore.cli._output import declare_files

__all__ = ["printable", "register", "run"]

DESCRIPTION = """\
Score a CoNLL file the way the Perl conlleval script (version 2004-01-26) does,
with byte-identical output: one token per line, fields separated by DELIM, the
second-to-last field the gold tag and the last one the predicted tag; an empty
line or a line whose first field is -X- ends a sentence (a -DOCSTART- line is
an ordinary token). Tags are split at the first '-' into prefix and type;
chunks follow the script's rules, including its quirks (S/U/L prefixes are not
understood, so S-PER S-PER is one chunk; [ and ] tags are one-token chunks).

Differences from the script, all where the script breaks: lines may end in LF
or CRLF (a carriage return before the line feed is removed; the script keeps it
in the last tag, so on CRLF files it miscounts or stops with a field-count
error), and a UTF-8 byte order mark at the start of the input is ignored.
Perl's own interpreter warnings are not printed.
"""

EPILOG = """\
examples:
  nerscore conlleval < merged.txt
  nerscore conlleval -d '\\t' -l merged.tsv --output report.tex
  nerscore conlleval -r -o OTHER raw.txt

exit status: 0 on success; as the script, 1 when a line has a different number
of fields than the first non-empty line ('unexpected number of features: N (M)')
and 255 when the lines have a single field; 1 for a file that cannot be read;
2 for a -d pattern that is not a valid regular expression.
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``conlleval`` subcommand to a CLI's subparsers.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    parser = subparsers.add_parser(
        "conlleval",
        help="the Perl conlleval script's report, byte for byte",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    add_arguments(parser)
    declare_files(parser, inputs=("file",), outputs={"output": "--output"})
    parser.set_defaults(reads_stdin=True)  # '-' is read as a stream, not spooled
    parser.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's options to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``conlleval`` parser.
    """
    parser.add_argument(
        "-d", dest="delimiter", metavar="DELIM", default=" ",
        help="field delimiter, a Perl-style regular expression as in the script "
             "(default: a single space; use '\\t' for tabs)",
    )
    parser.add_argument(
        "-o", dest="otag", metavar="OTAG", default="O",
        help="outside tag of raw (-r) input (default: O)",
    )
    parser.add_argument(
        "-r", dest="raw", action="store_true",
        help="raw tags without B-/I- prefixes: every tag other than the outside tag is "
             "a one-token chunk",
    )
    parser.add_argument("-l", dest="latex", action="store_true", help="LaTeX table output")
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="do not print the note on standard error that the script's rules merged "
             "adjacent chunks that mode 'lenient' keeps apart (the report is unchanged)",
    )
    parser.add_argument("--output", metavar="OUT", default=None,
                        help="write the report to OUT (default: standard output)")
    parser.add_argument("file", metavar="FILE", nargs="?", default=None,
                        help="input file (default: standard input)")


def run(args: argparse.Namespace) -> int:
    """Run ``nerscore conlleval`` with parsed arguments; return the exit status.

    Parameters
    ----------
    args : argparse.Namespace
        With ``delimiter``, ``otag``, ``raw``, ``latex``, ``quiet``, ``output`` and ``file``.

    Returns
    -------
    int
        0; the status the script stops with (1 or 255); 1 for a file that
        cannot be read; 2 for a bad ``-d`` pattern.
    """
    stdout: BinaryIO = sys.stdout.buffer
    stderr: BinaryIO = sys.stderr.buffer
    try:
        if args.file is None or args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        stderr.write(
            f"nerscore conlleval: error: cannot open {args.file!r}: {exc.strerror}.\n"
            .encode("utf-8", "surrogateescape"))
        stderr.flush()
        return 1
    from nerscore.io.conlleval import ScriptExit, read_conlleval

    try:
        rows = read_conlleval(data, delimiter=args.delimiter)
    except ScriptExit as exc:
        stderr.write(printable(exc.stderr))
        if b"\t" in data and args.delimiter == " ":
            stderr.write(b"nerscore conlleval: hint: the file has tabs; if its fields are "
                         b"tab-separated, pass -d '\\t'\n")
        stderr.flush()
        return exc.status
    from nerscore.decode.conlleval_rules import score_conlleval
    from nerscore.render.conlleval import format_conlleval

    result, note = score_conlleval(rows.blocks, rows.pairs, raw=args.raw, otag=args.otag)
    report = format_conlleval(result.counts, latex=args.latex).encode("utf-8", "surrogateescape")
    output = getattr(args, "output", None)
    if output is None or output == "-":
        stdout.write(report)
        stdout.flush()
    else:
        from nerscore.io.atomic import atomic_open

        with atomic_open(output, "wb") as fh:
            fh.write(report)
    if note and not getattr(args, "quiet", False):
        stderr.write(f"nerscore conlleval: note: {note}\n".encode("utf-8", "surrogateescape"))
        stderr.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand alone (``python -m nerscore.cli.conlleval``), as ``nerscore conlleval``.

    Parameters
    ----------
    argv : list of str, optional
        The subcommand's arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status.
    """
    from nerscore.cli import main as nerscore_main

    return nerscore_main(["conlleval", *(sys.argv[1:] if argv is None else argv)])


def printable(message: bytes) -> bytes:
    r"""The script's message with bytes a terminal would act on escaped (``\x00``, ``\x1b``).

    The script echoes the offending input line; from a binary file that line
    would write control codes to the terminal. Printable text, tabs and line
    breaks stay as they are, so text input gives the script's own bytes.

    Examples
    --------
    >>> printable(b"line \x1b[2Jabc\xff\n")
    b'line \\x1b[2Jabc\\xff\n'
    >>> printable("naïve\tB-X\n".encode())
    b'na\xc3\xafve\tB-X\n'
    """
    text = message.decode("utf-8", "backslashreplace")
    out = "".join(c if c.isprintable() or c in "\t\n" else repr(c)[1:-1] for c in text)
    return out.encode("utf-8")


if __name__ == "__main__":
    sys.exit(main())
