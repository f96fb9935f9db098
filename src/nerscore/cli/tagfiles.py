"""The ``validate`` and ``repair`` subcommands: tag sequences of CoNLL files checked and mended.

``validate`` lists every invalid tag and transition under a scheme;
``repair`` rewrites the label column so that every sentence is valid, all
other bytes kept.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from nerscore.cli import _options as opt
from nerscore.cli._output import (
    add_output_option,
    add_quiet_option,
    declare_files,
    note,
    write_result,
)
from nerscore.io.atomic import atomic_open

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run_repair", "run_validate"]

VALIDATE_DESCRIPTION = """\
List every invalid tag and invalid transition of a CoNLL file under a tagging
scheme, one per line with its sentence, token and file line. Exit status 1
when there is any.
"""

REPAIR_DESCRIPTION = """\
Rewrite the label column of a CoNLL file so that every sentence is valid under
the scheme; all other columns, comments and blank lines are kept as they are,
and so is a byte-order mark the file begins with (that of UTF-8, or of
--encoding utf-16-le, utf-16-be, utf-32-le or utf-32-be; utf-16 and utf-32
write their own, in the byte order read, and a second one after it).
'begin' turns an I-X that may not start a chunk into B-X (the conlleval and
lenient reading); 'discard' turns a malformed chunk into O (the strict reading).
"""

VALIDATE_EXAMPLES = """\
examples:
  nerscore validate train.conll --scheme IOB2
  nerscore validate a.conll b.conll --scheme BILOU --output issues.txt
  nerscore validate data.tsv --scheme IOB2 --label-column 3 --delimiter-columns tab
"""

REPAIR_EXAMPLES = """\
examples:
  nerscore repair pred.conll --scheme IOB2 -o pred_fixed.conll
  nerscore repair pred.conll --scheme IOB2 --method discard -o pred_discard.conll
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``validate`` and ``repair`` subcommands.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    validate: argparse.ArgumentParser = subparsers.add_parser(
        "validate", help="list invalid tags and transitions", description=VALIDATE_DESCRIPTION,
        epilog=VALIDATE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    validate.add_argument("files", metavar="FILE", nargs="+", help="CoNLL file(s)")
    add_output_option(validate)
    add_quiet_option(validate)
    opt.add_tag_options(validate, scheme_required=True)
    opt.add_conll_options(validate)
    declare_files(validate, inputs=("files",), outputs={"output": "--output"})
    validate.set_defaults(func=run_validate)

    repair: argparse.ArgumentParser = subparsers.add_parser(
        "repair", help="rewrite invalid tags into valid ones", description=REPAIR_DESCRIPTION,
        epilog=REPAIR_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    repair.add_argument("file", metavar="FILE", help="CoNLL file")
    repair.add_argument("--method", choices=("begin", "discard"), default="begin",
                        help="how an invalid chunk is mended (default: begin)")
    repair.add_argument("-o", "--output", metavar="OUT", default=None,
                        help="write the repaired file here (default: standard output)")
    add_quiet_option(repair)
    opt.add_tag_options(repair, scheme_required=True)
    opt.add_conll_options(repair)
    declare_files(repair, inputs=("file",), outputs={"output": "--output"})
    repair.set_defaults(func=run_repair)


def _short(message: str) -> str:
    """An issue's message without the hint aimed at Python callers."""
    head, sep, _ = message.partition(" Pass mode=")
    return head.rstrip(",.") + "." if sep else message


def _same_options(args: argparse.Namespace) -> str:
    """The reading options given, as flags to repeat in a suggested command."""
    flags = []
    for flag, value, default in (
        ("--token-column", args.token_column, 0), ("--label-column", args.label_column, -1),
        ("--delimiter-columns", args.delimiter_columns, "auto"),
        ("--encoding", args.encoding, "utf-8"), ("--tag-delimiter", args.tag_delimiter, "-"),
        ("--outside", args.outside, "O"),
    ):
        if value != default:
            flags.append(f"{flag} {value}")
    flags += [flag for flag, on in (("--comments", args.comments), ("--suffix", args.suffix))
              if on]
    return "".join(" " + f for f in flags)


def _no_tokens(path: str, comments: bool) -> str:
    """What a file without tokens holds: nothing at all, or only lines that are not tokens."""
    import os

    try:
        empty = os.path.getsize(path) == 0
    except OSError:  # read already: it may be gone since
        empty = False
    if empty:
        return "the file is empty"
    return f"only -DOCSTART- lines{', comments' if comments else ''} and blank lines"


def run_validate(args: argparse.Namespace) -> int:
    """Run ``nerscore validate``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        1 when any file has an issue, else 0 (a file without tokens is valid,
        with a warning).
    """
    from nerscore.decode.validation import validate_tags
    from nerscore.io.conll import read_conll

    n_bad_files = 0
    lines: list[str] = []
    for path in args.files:
        corpus = read_conll(path, **opt.conll_kwargs(args))
        result = validate_tags(corpus.tags, scheme=args.scheme, **opt.tag_kwargs(args))
        lines.extend(_short(issue.message) for issue in result.issues)
        if args.output is None:  # as soon as each file is checked
            write_result("\n".join(lines), None)
            lines.clear()
        size = (f"{corpus.n_tokens} tokens in {corpus.n_sentences} sentence"
                f"{'s' if corpus.n_sentences != 1 else ''}")
        if not corpus.n_tokens:  # nothing checked: "valid" would say more than was seen
            note("validate", f"{path}: no tokens ({_no_tokens(path, args.comments)}), so no "
                             "tag was validated; is it the file you meant?", kind="warning")
            continue
        if result.is_valid:
            note("validate", f"{path}: valid {result.scheme} ({size})")
            continue
        n_bad_files += 1
        kinds = []
        for kind, word in (("invalid_tag", "invalid tag"),
                           ("invalid_transition", "invalid transition")):
            k = result.count(kind)
            if k:
                kinds.append(f"{k} {word}{'s' if k != 1 else ''}")
        hint = ""
        if not result.count("invalid_tag"):
            hint = (f"; `nerscore repair {path} --scheme {result.scheme}{_same_options(args)}` "
                    "fixes them")
        note("validate", f"{path}: {' and '.join(kinds)} under {result.scheme} ({size}){hint}")
    if args.output is not None:
        write_result("\n".join(lines), args.output)
    return 1 if n_bad_files else 0


# -------------------------------------------------------------------------------- repair


def run_repair(args: argparse.Namespace) -> int:
    """Run ``nerscore repair``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    from nerscore.decode.validation import repair_tags, validate_tags
    from nerscore.errors import InvalidTagError
    from nerscore.io.conll import read_conll

    corpus = read_conll(args.file, **opt.conll_kwargs(args))
    tag_kw = opt.tag_kwargs(args)
    result = validate_tags(corpus.tags, scheme=args.scheme, **tag_kw)
    bad = [i for i in result.issues if i.kind == "invalid_tag"]
    if bad:
        first = bad[0]
        raise InvalidTagError(
            f"{first.message} Repair cannot guess what it means; fix the tag by hand "
            f"({len(bad)} invalid tag{'s' if len(bad) != 1 else ''} in all).",
            tag=first.tag or "", sentence=first.sentence, index=first.index,
            source=first.source, line=first.line,
        )
    original = corpus.to_lists()
    repaired = repair_tags(original, scheme=args.scheme, method=args.method, **tag_kw)
    text, n_changed = corpus.replace_labels(repaired)
    text = _byte_order_mark(args) + (text.removeprefix("\ufeff") if corpus.bom else text)
    n_sent = sum(a != b for a, b in zip(original, repaired, strict=True))
    if args.output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        where = "standard output"
    else:
        from nerscore.io.convert.marks import written_encoding

        with atomic_open(args.output, "w", encoding=written_encoding(args.file, args.encoding),
                         newline="") as fh:
            fh.write(text)
        where = args.output
    note("repair", f"changed {n_changed} of {corpus.n_tokens} tags in {n_sent} sentence"
                   f"{'s' if n_sent != 1 else ''} of {args.file} (method {args.method}, scheme "
                   f"{result.scheme}); wrote {where}")
    return 0


def _byte_order_mark(args: argparse.Namespace) -> str:
    """The byte-order mark FILE began with, to write back as ``convert`` writes CoNLL back.

    The reader skips it (:func:`~nerscore.io.convert.reading.began_with_bom`:
    U+FEFF first in UTF-8, UTF-16-LE/BE or UTF-32-LE/BE); it is written as
    U+FEFF in the output's encoding, so that a file written in its own
    keeps its bytes (``utf-8-sig``, ``utf-16`` and ``utf-32`` read and
    write a mark of their own; a U+FEFF after it is the text's, written
    after theirs). Standard output in an encoding that has none
    (``latin-1``) goes without it, with a warning.
    """
    from nerscore.io.convert.marks import byte_order_mark
    from nerscore.io.convert.reading import began_with_bom, mark_name

    encoding = args.encoding if args.output is not None else (
        getattr(sys.stdout, "encoding", None) or "utf-8")
    mark = byte_order_mark(began_with_bom(args.file, args.encoding), encoding, args.encoding)
    if mark is None:
        note("repair", f"{args.file} began with a {mark_name(args.encoding)} byte-order mark, "
                       f"not written to standard output, whose encoding ({encoding}) has none.",
             kind="warning")
    return mark or ""
