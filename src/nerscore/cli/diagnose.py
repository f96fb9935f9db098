"""``nerscore diagnose``: dataset diagnostics of a train/test split, optionally with a prediction.

Files are read as ``nerscore score`` reads them (tag files such as CoNLL, or
span files such as JSON Lines and BRAT, the format guessed from the name);
the work is one call of :func:`nerscore.diagnose`, rendered as text,
Markdown or JSON.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._arg_types import enum_type, float_type, non_negative_int
from nerscore.cli._output import add_format_option, declare_files, output_renderer, write_result
from nerscore.cli._unused import check_span_inputs

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run"]

DESCRIPTION = """\
Check a train/test split for what makes NER scores misleading: labels with
few training instances, labels missing from one side, labels whose share
changes between train and test, invalid tag transitions (with --scheme),
test entities already seen in training (needs tokens or document texts) and,
with a prediction of the test data, label pairs the model confuses and the
score gap between seen and unseen entities. Each finding has a severity
(error, warning, info), its numbers and advice; docs/diagnostics.md lists
the rules.
"""

EPILOG = """\
examples:
  nerscore diagnose --train train.conll --test test.conll --scheme IOB2
  nerscore diagnose --train train.conll --test test.conll --pred pred.conll --scheme IOB2
  nerscore diagnose --train train.jsonl --test test.jsonl -o findings.md

exit status: 0 when the diagnostics were written (whatever they found); 1 for
a file that cannot be read or bad data; 2 for a usage error.
"""

_FRACTION = float_type(lambda x: 0 <= x <= 1, "a number from 0 to 1")


def register(subparsers: Subparsers) -> None:
    """Add the ``diagnose`` subcommand.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    from nerscore.values.schemes import Mode

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "diagnose", help="dataset diagnostics of a train/test split",
        description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False,
    )
    files = parser.add_argument_group("files")
    files.add_argument("--train", metavar="TRAIN", required=True, help="training data (gold)")
    files.add_argument("--test", metavar="TEST", required=True, help="test data (gold)")
    files.add_argument("--pred", metavar="PRED", default=None,
                       help="a prediction of TEST (enables confused labels and seen/unseen "
                            "scores)")
    files.add_argument("--input-format", type=fm.format_name, default=None, metavar="FORMAT",
                       help=fm.format_help("the files"))
    out = parser.add_argument_group("output")
    add_format_option(out, kind="diagnostics")
    out.add_argument("-o", "--output", metavar="FILE", default=None,
                     help="write to FILE (default: standard output)")
    out.add_argument("--digits", type=non_negative_int, default=2, metavar="N",
                     help="decimals of scores (default: 2)")
    out.add_argument("-q", "--quiet", action="store_true",
                     help="print no notes or warnings on standard error (errors still are)")
    rules = parser.add_argument_group("thresholds")
    rules.add_argument("--min-instances", type=non_negative_int, default=15, metavar="N",
                       help="fewest training entities per label (default: 15)")
    rules.add_argument("--shift-threshold", type=float_type(lambda x: x >= 1, "a number >= 1"),
                       default=2.0, metavar="K",
                       help="factor by which a label's share may change between train and "
                            "test (default: 2)")
    rules.add_argument("--confusion-threshold", type=_FRACTION,
                       default=0.1, metavar="X",
                       help="share of a label's entities predicted as another label "
                            "(default: 0.1)")
    rules.add_argument("--seen-threshold", type=_FRACTION,
                       default=0.5, metavar="X",
                       help="share of test entities seen in training (default: 0.5)")
    rules.add_argument("--gap-threshold", type=_FRACTION,
                       default=0.1, metavar="X",
                       help="F1 gap between seen and unseen entities (default: 0.1)")
    parser.add_argument("--mode", type=enum_type(Mode, "mode"), default="lenient",
                        metavar="MODE",
                        help="decoding of tags: " + ", ".join(m.value for m in Mode)
                             + " (default: lenient)")
    opt.add_match_options(parser)
    opt.add_tag_options(parser)
    opt.add_conll_options(parser)
    fm.add_tool_options(parser, sides=False)
    declare_files(parser, inputs=("train", "test", "pred"), outputs={"output": "--output"})
    parser.set_defaults(func=run)


def _read(args: argparse.Namespace) -> tuple[Any, Any, Any, tuple[str, ...]]:
    from nerscore.cli._output import note
    from nerscore.io.formats import pair_notes

    paths = {k: p for k, p in (("train", args.train), ("test", args.test), ("pred", args.pred))
             if p is not None}
    fmts = {k: fm.input_format(p, args.input_format) for k, p in paths.items()}
    options = {k: fm.reader_options(args, f) for k, f in fmts.items()}
    kind = fm.same_kind([(k.upper(), paths[k], fmts[k], options[k]) for k in paths],
                        "set --input-format if a format was guessed wrongly")
    if kind == "spans":
        check_span_inputs(args, fmts.values())
    fm.check_reader_flags(args, [(None, f) for f in fmts.values()])
    data = {k: fmts[k].load(p, options[k]) for k, p in paths.items()}
    notes = tuple(n for d in data.values() for n in d.notes)
    if "pred" in data:
        aligned = pair_notes(data["test"], data["pred"])
        for n in aligned:
            note("diagnose", n, kind="warning")
        notes += aligned
    pred = data["pred"].data if "pred" in data else None
    return data["train"].data, data["test"].data, pred, notes


def split_notes(train: str, notes: Sequence[str], command: str) -> None:
    """Say on standard error what the diagnostics note of an empty TRAIN, or one that is the test data."""
    from nerscore.analysis.diagnostics import SPLIT_NOTES
    from nerscore.cli._output import note

    for n in dict.fromkeys(n for n in notes if n.startswith(SPLIT_NOTES)):
        note(command, f"--train {train}: {n}", kind="warning")


def run(args: argparse.Namespace) -> int:
    """Run ``nerscore diagnose``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    import nerscore

    if args.shift_threshold <= 1.0:
        raise opt.UsageError("--shift-threshold must be greater than 1")
    if args.mode == "strict" and args.scheme is None:
        raise opt.UsageError("--mode strict needs --scheme (nerscore never guesses it)")
    options = opt.match_kwargs(args)
    renderer = output_renderer(args, "diagnostics")
    from nerscore.matching import get_matcher

    if not get_matcher(args.match).aligns:
        raise opt.UsageError(f"diagnose needs an entity matcher, not --match {args.match}")
    if options and args.pred is None:
        raise opt.UsageError("matcher options need --pred")
    train, test, pred, notes = _read(args)
    tag_kw: dict[str, Any] = {}
    if isinstance(train, nerscore.EncodedTags):
        tag_kw = {"scheme": args.scheme, "mode": args.mode, **opt.tag_kwargs(args)}
    result = nerscore.diagnose(
        train, test, pred=pred, match=args.match, min_instances=args.min_instances,
        shift_threshold=args.shift_threshold, confusion_threshold=args.confusion_threshold,
        seen_threshold=args.seen_threshold, gap_threshold=args.gap_threshold,
        **tag_kw, **options,
    )
    split_notes(args.train, result.notes, "diagnose")
    if notes:
        import dataclasses

        result = dataclasses.replace(result, notes=tuple(result.notes) + tuple(notes))
    write_result(renderer.functions["diagnostics"](result, args.digits), args.output)
    return 0
