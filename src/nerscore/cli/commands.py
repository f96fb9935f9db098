"""The ``score`` subcommand.

Each subcommand parses its options, calls one public function of the
library and renders the result: results go to standard output (or
``--output``), notes and warnings to standard error (none with ``--quiet``). Heavy modules are imported inside the ``run_*``
functions so that ``nerscore --help`` and ``nerscore conlleval`` start fast.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt, llm
from nerscore.cli._labels import add_label_options
from nerscore.cli._output import (
    add_format_option,
    add_output_option,
    add_quiet_option,
    declare_files,
    note,
    output_renderer,
    write_result,
)
from nerscore.cli._score_input import add_stream_options, score_streaming, wants_streaming
from nerscore.cli._sides import naming_sides, same_file_note
from nerscore.cli._unused import check_not_outputs, check_span_inputs
from nerscore.cli.runs import add_runs_options, run_runs, wants_runs
from nerscore.cli.thresholds import add_threshold_options, check_scored, threshold_from_dev

if TYPE_CHECKING:
    from nerscore.analysis.confusion import ConfusionMatrix
    from nerscore.io.formats import Format, ReadResult
    from nerscore.render import Report

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run_score"]

SCORE_DESCRIPTION = """\
Score a prediction file against a gold file and print per-label precision,
recall and F-score with micro, macro and weighted averages.

CoNLL files need one token per line, the same sentences in the same order
(separated by blank lines) and the same number of tokens in every sentence;
a token whose text differs between the files is reported (--strict-tokens
makes it an error). -DOCSTART- lines are document boundaries, not tokens.
JSON Lines and BRAT files are joined by document id. Both files hold tags
(CoNLL, Parquet label columns) or both spans (JSON Lines, BRAT, Parquet span
columns); other packages can add formats (docs/formats.md).

One CoNLL file holding tokens, gold and predicted labels (the conlleval
layout) is scored with its two label columns:
  nerscore score FILE --gold-column -2 --pred-column -1
"""

SCORE_EXAMPLES = """\
examples:
  nerscore score gold.conll pred.conll
  nerscore score gold.conll pred.conll --scheme IOB2 --mode strict -o scores.json
  nerscore score gold.jsonl pred.jsonl --match overlap --breakdown length --ci
"""

BREAKDOWNS = ("length", "document")

def _parser(subparsers: Subparsers, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False,
        **kwargs,
    )
    return parser


def register(subparsers: Subparsers) -> None:
    """Add the ``score`` subcommand.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    score = _parser(subparsers, "score", help="score a prediction against gold",
                    description=SCORE_DESCRIPTION, epilog=SCORE_EXAMPLES)
    score.add_argument("gold", metavar="GOLD", help="gold (reference) file; - for standard "
                       "input (GOLD or PRED)")
    score.add_argument("pred", metavar="PRED", nargs="?", default=None,
                       help="predicted file; leave it out to read gold and predicted labels "
                            "from two columns of GOLD (--gold-column, --pred-column)")
    add_format_option(score, kind="scores")
    score.add_argument("--strict-tokens", action="store_true",
                       help="CoNLL and JSON Lines token records: a token that differs between the files is an error")
    score.add_argument("--errors", metavar="FILE", default=None,
                       help="also write every entity error to FILE (.jsonl or .csv)")
    score.add_argument("--confusion", action="store_true",
                       help="also print the confusion matrix of entity labels")
    score.add_argument("--breakdown", choices=BREAKDOWNS, default=None,
                       help="also print the scores per entity length or per document "
                            "(text, markdown; json: under \"breakdown\")")
    add_output_option(score)
    add_quiet_option(score)
    fm.add_input_format_options(score)
    opt.add_match_options(score)
    add_label_options(score)
    opt.add_score_options(score)
    opt.add_tag_options(score)
    opt.add_conll_options(score)
    opt.add_side_options(score)
    fm.add_tool_options(score)
    add_stream_options(score)
    opt.add_resampling_options(score, ci=True)
    add_threshold_options(score)
    add_runs_options(score)
    llm.add_llm_options(score)
    declare_files(score, inputs=("gold", "pred", "more_preds", "threshold_from"), outputs={"output": "--output", "errors": "--errors"})
    score.set_defaults(func=run_score)


# --------------------------------------------------------------------------------- score


def run_score(args: argparse.Namespace) -> int:
    """Run ``nerscore score``.

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

    if wants_runs(args):
        return run_runs(args)
    one_file = args.pred is None
    if one_file:
        if args.gold_column is None or args.pred_column is None:
            raise opt.UsageError(
                "give PRED, or read gold and predicted labels from two columns of GOLD with "
                "--gold-column N --pred-column M (e.g. --gold-column -2 --pred-column -1)"
            )
        args.pred = args.gold
        if args.pred_format is not None and args.pred_format != args.gold_format:
            raise opt.UsageError("--pred-format needs PRED: one file is read once, as GOLD")
        args.pred_format = args.gold_format
    gold_fmt = fm.input_format(args.gold, args.gold_format)
    pred_fmt = fm.input_format(args.pred, args.pred_format)
    if one_file and "label_column" not in gold_fmt.options:
        raise opt.UsageError(
            f"--gold-column and --pred-column without PRED read one CoNLL file; {args.gold!r} "
            f"is read as {gold_fmt.name} (set --gold-format conll if that was guessed wrongly)"
        )
    sides = (("gold", gold_fmt), ("pred", pred_fmt))
    reading = [fm.reader_options(args, fmt, side) for side, fmt in sides]
    pred_encoding = reading[1].get("encoding", "utf-8")
    _check_extras(args)
    if not one_file and llm.is_llm_prediction(args.pred, pred_fmt, pred_encoding):
        return llm.run_llm_score(args, gold_fmt, reading[0], pred_encoding)
    check_not_outputs(args, [args.pred])
    kind = gold_fmt.kind_of(args.gold, reading[0])
    pred_kind = pred_fmt.kind_of(args.pred, reading[1], unread=kind)  # gold read first
    if pred_kind != kind:
        raise opt.UsageError(
            f"cannot score {pred_fmt.name} predictions of {pred_kind} against {gold_fmt.name} "
            f"gold of {kind}: give both as tag files, or both as span files; set "
            "--gold-format/--pred-format if a format was guessed wrongly from the file name"
        )
    if kind == "spans":
        check_span_inputs(args, (gold_fmt, pred_fmt))
    fm.check_reader_flags(args, sides)
    asked = [e for e, on in (("confusion", args.confusion), ("breakdown", args.breakdown),
                             ("intervals", args.ci)) if on]
    renderer = output_renderer(args, "scores", asked)
    options = opt.match_kwargs(args)
    opt.resampling_kwargs(args)  # checks that --resamples, --level and --seed come with --ci
    if kind == "tags" and (args.threshold_from or options.get("min_score") is not None):
        flag = "--threshold" if args.threshold_from is None else "--threshold-from"
        raise opt.UsageError(
            f"{flag} keeps the predictions scored at least a threshold, so it needs span files "
            f"whose predictions have scores; {args.pred!r} is read as {pred_fmt.name} tags, "
            "which carry no score")
    chosen = threshold_from_dev(args, options)  # sets min_score with --threshold-from
    tag_kw: dict[str, Any] = {}
    if kind == "tags":  # its usage errors too come before any reading
        if args.mode == "strict" and args.scheme is None:
            raise opt.UsageError("--mode strict needs --scheme (nerscore never guesses it)")
        tag_kw = {"scheme": args.scheme, "mode": args.mode, **opt.tag_kwargs(args)}
    if wants_streaming(args):  # chunk by chunk when that gives the same output
        with naming_sides(args.gold, args.pred):
            status = _score_streamed(args, sides, kind, one_file, options, chosen)
        if status is not None:
            return status
    from nerscore.io.formats import pair_notes

    gold = gold_fmt.load(args.gold, reading[0])
    pred = pred_fmt.load(args.pred, reading[1])
    if args.threshold_from is not None:  # the library's error would name --threshold
        check_scored(args, args.pred, pred.data, options.get("min_score"))
    aligned = pair_notes(gold, pred, strict_tokens=args.strict_tokens)
    for n in aligned:
        note("score", f"{n} Pass --strict-tokens to make this an error.", kind="warning")
    notes = chosen + gold.notes + (() if one_file else pred.notes) + aligned
    y_true, y_pred = gold.data, pred.data
    if not one_file:
        same = same_file_note(args, args.gold, args.pred, sides)
        if same:
            note("score", same)
            notes = (same, *notes)
    with naming_sides(args.gold, args.pred):
        report = nerscore.evaluate(
            y_true, y_pred, match=args.match, beta=args.beta, zero_division=args.zero_division,
            **tag_kw, **options,
        )
    if notes:
        report = dataclasses.replace(report, notes=tuple(report.notes) + tuple(notes))
    from nerscore.cli._intervals import intervals

    output = _output(report, args, None,
                     intervals(args, y_true, y_pred, {**tag_kw, **options}, gold))
    write_result(renderer.functions["scores"](output, args.digits), args.output)
    if not renderer.shows_notes:
        for n in report.notes:
            note("score", n)
    if args.errors is not None:
        _write_errors(report, args.errors, gold)
    return 0


def _check_extras(args: argparse.Namespace) -> None:
    """Refuse ``--errors``, ``--confusion`` and ``--breakdown`` where they cannot be given."""
    if args.errors is not None and not args.errors.lower().endswith((".jsonl", ".csv")):
        raise opt.UsageError(f"--errors needs a .jsonl or .csv file name; got {args.errors!r}")
    from nerscore.matching import get_matcher

    aligns = get_matcher(args.match).aligns
    if (args.errors is not None or args.confusion) and not aligns:
        raise opt.UsageError(f"--errors and --confusion need an entity matcher, not --match "
                             f"{args.match}")
    if args.breakdown is not None and not aligns:
        raise opt.UsageError(f"--breakdown needs an entity matcher, not --match {args.match}")


def _score_streamed(args: argparse.Namespace, sides: tuple[tuple[str, Format], ...], kind: str,
                    one_file: bool, options: dict[str, Any],
                    chosen: tuple[str, ...] = ()) -> int | None:
    """``run_score`` on the streaming path (docs/scale.md); None to score in memory."""
    same = None
    if not one_file and not (args.workers or args.scheduler):
        same = same_file_note(args, args.gold, args.pred, sides)

    def compared(token_notes: tuple[str, ...]) -> None:
        """What the files' comparison says, before the scores (or an error of the scoring)."""
        for n in token_notes:
            note("score", f"{n} Pass --strict-tokens to make this an error.", kind="warning")
        if same:
            note("score", same)

    res = score_streaming(args, sides, kind, one_file, options,
                          notes=chosen + ((same,) if same else ()), before_error=compared)
    if res is None:
        return None
    compared(res.token_notes)
    report = res.report
    renderer = output_renderer(args, "scores")
    write_result(renderer.functions["scores"](_output(report, args, res.confusion), args.digits),
                 args.output)
    if not renderer.shows_notes:
        for n in report.notes:
            note("score", n)
    if args.errors is not None:
        k = res.n_errors or 0
        note("score", f"wrote {k} entity error{'s' if k != 1 else ''} to {args.errors}")
    return 0


def _output(report: Report, args: argparse.Namespace, cm: ConfusionMatrix | None,
            ci: Any = None) -> Any:
    """The report with the extras the command line asks for (``cm``: one summed over chunks)."""
    from nerscore.render.registry import ScoreOutput

    if args.confusion and cm is None:
        from nerscore.analysis.confusion import confusion_from_report

        cm = confusion_from_report(report)
    breakdown = None
    if args.breakdown is not None:
        from nerscore.analysis.breakdowns import breakdown_from_report

        breakdown = breakdown_from_report(report, by=args.breakdown)
    return ScoreOutput(report, cm if args.confusion else None, breakdown, ci)


def _write_errors(report: Report, path: str, gold: ReadResult) -> None:
    from nerscore.analysis.errors import error_table, write_errors

    records = error_table(report, texts=gold.texts())
    fmt = "csv" if path.lower().endswith(".csv") else "jsonl"
    n = write_errors(records, path, format=fmt)
    note("score", f"wrote {n} entity error{'s' if n != 1 else ''} to {path}")
