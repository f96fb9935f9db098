"""``nerscore convert IN OUT``: annotated files between formats and tag schemes.

The work is one call of :func:`nerscore.convert_file`; what it had to
repair, drop or leave out is printed on standard error, one note per kind.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt, llm
from nerscore.cli._arg_types import TagText, enum_type, positive_int
from nerscore.cli._flags import command_flags, declare_flags, keywords_to_flags
from nerscore.cli._labels import add_label_options, label_kwargs
from nerscore.cli._output import add_quiet_option, declare_files
from nerscore.cli._progress import ProgressBar
from nerscore.cli._unused import check_not_outputs
from nerscore.io.defaults import CHUNK_SIZE

if TYPE_CHECKING:
    from nerscore.io.convert import ConversionResult
    from nerscore.io.formats import Format

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run"]

DESCRIPTION = """\
Convert an annotated file between CoNLL, JSON Lines, BRAT, Parquet and the
formats other packages register (the formats guessed from the names as
'nerscore score' guesses them; a folder or a name ending in '/' is BRAT,
and an OUT named with no suffix a format claims is CoNLL, with a note),
and between tag schemes. Files are read and written chunk by chunk where the
format allows (BRAT folders are read whole).

Tags to spans: each sentence becomes a document whose text is its tokens
joined by single spaces; the tags are decoded with nerscore's decoder
(--from-scheme, --mode). Spans to tags: each document becomes a sentence of
the whitespace-separated words of its text; spans not on word boundaries are
an error, or moved (--misaligned). Tags to tags: the labels are copied, or,
with --from-scheme/--to-scheme, decoded and written again in the target
scheme. Every malformed chunk repaired or dropped, every span moved or
dropped is counted on standard error.

--suffix, --tag-delimiter and --outside say how the tags of IN are spelled,
and those of OUT unless --to-suffix/--to-prefix, --to-tag-delimiter or
--to-outside say otherwise; copied labels are re-spelled too, without a
scheme.

OUT is written in --encoding too: JSON outputs (JSON Lines, Label Studio,
doccano, Prodigy) write a character it cannot encode as a JSON escape
(\\u00eb), CoNLL and BRAT outputs refuse it, naming where it comes from.

A .spacy OUT gets the spans as doc.ents, which cannot hold overlapping
spans, or with --spans-key KEY as the span group doc.spans[KEY] (spaCy's
spancat reads 'sc'), which can.

A Parquet file written from CoNLL keeps the other columns, the -DOCSTART-
lines and the layout, so that converting it back gives the same file (a
-DOCSTART- line that no sentence follows is counted as not kept, and one
with other fields than '-DOCSTART- -X- ... O' as not kept as it was).

A byte-order mark that IN begins with (that of UTF-8, or of --encoding
utf-16-le, utf-16-be, utf-32-le or utf-32-be) is written to a CoNLL OUT in
its encoding (and kept in a Parquet file's layout for one); any other OUT is
written without it, with a warning. utf-8-sig, utf-16 and utf-32 read the
mark IN begins with as theirs and write one of their own (utf-16 and utf-32
in the byte order IN was read in); a second mark after it is kept as the
first one of UTF-8 is. A BRAT folder OUT written from a BRAT folder IN has
each file written so, as the file of IN it comes from; any other OUT goes
without the marks of the .ann files of IN, with one warning counting them
(that of a .txt file is character 0 of its text, and goes with it).

Model outputs (records with "output" or "mentions") with --gold GOLD are
written as their aligned spans: the options of tag output, --chunk-size and
the label operations have no use there and are refused, as are the options
of GOLD's tags when GOLD holds spans.
"""

EXAMPLES = """\
examples:
  nerscore convert train.conll train.parquet --labels-as int
  nerscore convert gold.conll gold.jsonl --from-scheme IOB2
  nerscore convert gold.conll gold_bilou.conll --from-scheme IOB2 --to-scheme BILOU
  nerscore convert gold.conll gold_dash.conll --tag-delimiter _ --to-tag-delimiter -
  nerscore convert brat_folder/ gold.conll --misaligned expand --to-scheme IOB2
  nerscore convert llm.jsonl aligned.jsonl --gold gold.jsonl --align sequential
  nerscore convert nested.jsonl nested.spacy --spans-key sc
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``convert`` subcommand.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    from nerscore.values.schemes import Mode, Scheme

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "convert", help="convert between file formats and tag schemes",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False,
    )
    parser.add_argument("source", metavar="IN", help="the input file (a folder for BRAT)")
    parser.add_argument("target", metavar="OUT", help="the output file (a folder for BRAT)")
    parser.add_argument("--from-format", type=fm.format_name, default=None, metavar="FORMAT",
                        help=fm.format_help("IN"))
    parser.add_argument("--to-format", type=fm.format_name, default=None, metavar="FORMAT",
                        help=fm.format_help("OUT"))
    schemes = ", ".join(s.value for s in Scheme)
    tags = parser.add_argument_group("tags")
    tags.add_argument("--from-scheme", type=enum_type(Scheme, "scheme"), default=None,
                      metavar="SCHEME",
                      help=f"scheme of the tags of IN ({schemes}); needed to decode them")
    tags.add_argument("--to-scheme", type=enum_type(Scheme, "scheme"), default=None,
                      metavar="SCHEME",
                      help="scheme of the tags of OUT (default: --from-scheme; IOB2 for span "
                           "input; without either, labels are copied as they are, re-spelled "
                           "as the --to- options below say)")
    tags.add_argument("--mode", type=enum_type(Mode, "mode"), default="lenient",
                      metavar="MODE",
                      help="how malformed chunks of IN are read: lenient (repaired), strict "
                           "(dropped) or conlleval (default: lenient)")
    tags.add_argument("--misaligned", choices=("error", "expand", "contract"), default="error",
                      help="spans to tags: a span not on word boundaries is an error, or "
                           "grows or shrinks to whole words (default: error)")
    tags.add_argument("--suffix", action="store_true",
                      help="the tags of IN (and of OUT, unless --to-prefix) are written "
                           "TYPE-PREFIX (PER-B) instead of PREFIX-TYPE")
    tags.add_argument("--tag-delimiter", action=TagText, default="-", metavar="CHAR",
                      help="between prefix and type in the tags of IN (and of OUT, unless "
                           "--to-tag-delimiter) (default: '-')")
    tags.add_argument("--outside", action=TagText, default="O", metavar="TAG",
                      help="the outside tag of IN (and of OUT, unless --to-outside) "
                           "(default: 'O')")
    order = tags.add_mutually_exclusive_group()
    order.add_argument("--to-suffix", dest="to_suffix", action="store_const", const=True,
                       default=None,
                       help="the tags of OUT are written TYPE-PREFIX (default: as IN's)")
    order.add_argument("--to-prefix", dest="to_suffix", action="store_const", const=False,
                       help="the tags of OUT are written PREFIX-TYPE (default: as IN's)")
    tags.add_argument("--to-tag-delimiter", action=TagText, default=None, metavar="CHAR",
                      help="between prefix and type in the tags of OUT (default: "
                           "--tag-delimiter)")
    tags.add_argument("--to-outside", action=TagText, default=None, metavar="TAG",
                      help="the outside tag of OUT (default: --outside)")
    out = parser.add_argument_group("output")
    out.add_argument("--labels-as", choices=("int", "string"), default="int",
                     help="Parquet tags: integer ids with a vocabulary, or strings "
                          "(default: int)")
    out.add_argument("--parquet-kind", choices=("tags", "spans"), default=None,
                     help="what a Parquet OUT holds (default: what IN holds)")
    out.add_argument("--chunk-size", type=positive_int, default=None, metavar="N",
                     help=f"sentences or documents per chunk (default: {CHUNK_SIZE})")
    add_quiet_option(out)
    opt.add_conll_options(parser, writes=True)
    fm.add_tool_options(parser, sides=False)
    fm.add_dataset_options(parser, sides=("IN", "OUT"))
    add_label_options(parser)
    parser.add_argument("--gold", metavar="GOLD", default=None,
                        help="model outputs (records with \"output\" or \"mentions\"): the "
                             "gold file whose texts their mentions are aligned to; OUT gets "
                             "the aligned spans (docs/llm.md)")
    llm.add_llm_options(parser, normalize=True)
    declare_files(parser, inputs=("source", "gold"), outputs={"target": "OUT"})
    declare_flags(parser, {"scheme": "--from-scheme"})  # the tags read: IN's, GOLD's
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``nerscore convert``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    from nerscore.cli._output import note

    fmt = fm.input_format(args.source, args.from_format)
    if llm.is_llm_prediction(args.source, fmt, args.encoding):
        return llm.run_llm_convert(args)
    if args.gold is not None:
        raise opt.UsageError(f"--gold is for model outputs; {args.source} has no records with "
                             "\"output\" or \"mentions\"")
    check_not_outputs(args, [args.source])
    conll = {k: v for k, v in opt.conll_kwargs(args).items() if k != "encoding"}
    conll.update(fm.tool_kwargs(args))
    conll.update({k: getattr(args, k) for k in ("split", "units", "spans_key")
                  if getattr(args, k) is not None})
    out_fmt = fm.input_format(args.target, args.to_format)
    fm.check_spans_key(args, (fmt, out_fmt),
                       f"IN is a {fmt.name} file and OUT a {out_fmt.name} file")
    fm.check_reader_flags(args, [(None, fmt)], ignore=("encoding", "spans_key"))
    guessed = fm.guessed_output_note(args.target, out_fmt, args.to_format, name="OUT",
                                     format_flag="--to-format")
    if guessed is not None:
        note("convert", guessed)
    bar = ProgressBar(f"converting {args.source}", unit=fmt.progress_unit)
    try:
        result = _convert(args, fmt, conll, bar)
    finally:
        bar.close()
    for n in result.notes():
        note("convert", n, kind="warning")
    unit = "sentence" if result.to_kind == "tags" else "document"
    note("convert", f"wrote {result.n_sequences} {unit}{'s' if result.n_sequences != 1 else ''}"
                    f" ({result.from_format} to {result.to_format}) to {args.target}")
    return 0


def _convert(args: argparse.Namespace, fmt: Format, conll: dict[str, Any],
             bar: ProgressBar) -> ConversionResult:
    """``convert_file`` with the options of ``args``.

    An option the input or output cannot take, or one it needs and lacks (an
    unwritable output format, a scheme for tags or spans) is a usage error.
    """
    from nerscore.errors import OptionError
    from nerscore.io.convert import CONVERSION_OPTIONS, convert_file

    try:
        return convert_file(
            args.source, args.target, from_format=fmt, to_format=args.to_format,
            from_scheme=args.from_scheme, to_scheme=args.to_scheme, mode=args.mode,
            misaligned=args.misaligned, labels_as=args.labels_as,
            parquet_kind=args.parquet_kind,
            chunk_size=CHUNK_SIZE if args.chunk_size is None else args.chunk_size,
            encoding=args.encoding, conll_options=conll, suffix=args.suffix,
            delimiter=args.tag_delimiter, outside=args.outside, to_suffix=args.to_suffix,
            to_delimiter=args.to_tag_delimiter, to_outside=args.to_outside, progress=bar,
            **label_kwargs(args),
        )
    except OptionError as exc:
        if exc.option not in CONVERSION_OPTIONS:
            raise
        raise opt.UsageError(keywords_to_flags(str(exc), command_flags(args)).rstrip(".")) from None
