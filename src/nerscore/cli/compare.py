"""The ``compare`` subcommand, and the confidence intervals of ``score --ci``.

``nerscore compare GOLD PRED1 PRED2 ...`` scores every prediction against one
gold file and prints each system's scores with bootstrap confidence
intervals, then, for every pair of systems, the difference in the chosen
score with its interval and p-values (docs/significance.md).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._arg_types import display_name
from nerscore.cli._intervals import documents_of
from nerscore.cli._labels import add_label_options
from nerscore.cli._output import (
    add_format_option,
    add_quiet_option,
    declare_files,
    output_renderer,
    write_result,
)
from nerscore.cli._progress import ProgressBar
from nerscore.cli._unused import Unused, check_scored_outputs, check_span_inputs, refuse_unused
from nerscore.cli.compare_runs import add_system_option, run_compare_runs
from nerscore.cli.compare_thresholds import add_compare_threshold_options, per_system_thresholds
from nerscore.cli.llm import add_llm_options
from nerscore.cli.llm_systems import check_runs, llm_preds, with_llm_summaries

if TYPE_CHECKING:

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run_compare"]

_BETA = Unused("--beta", "beta", 1.0, "weighs recall in the F-score")

COMPARE_DESCRIPTION = """\
Compare systems on one gold file: every system's micro and macro precision,
recall and F1 with percentile bootstrap confidence intervals, and for every
pair of systems the difference in one score (--metric, --average) with its
interval and p-values from the paired bootstrap and approximate randomization
(--method to run one of them only). With three or more systems, Holm-Bonferroni
adjusted p-values over all pairs, or over each system against --baseline.
Documents are resampled (-DOCSTART- lines of CoNLL files; without them, or with
--unit sentence, sentences). A PRED of model outputs (JSON Lines records with
"output" or "mentions") is aligned to GOLD as 'nerscore score' does (--align,
--normalize, --label-alias). Every prediction is matched once; resampling reuses
its per-document counts. A p-value at the floor of R resamples shows as
"< 1/(1+R)" (e.g. "< 0.001" for 999 or 1000). Systems with several runs each
(--system NAME=RUN1,RUN2,...) are compared by their mean over runs, resampling
documents and runs together.
"""

COMPARE_EXAMPLES = """\
examples:
  nerscore compare gold.conll model_a.conll model_b.conll --names A B
  nerscore compare gold.conll model_a.conll model_b.conll --names A B \\
      --resamples 2000 --output comparison.md
  nerscore compare gold.conll base.conll a.conll b.conll --names base A B --baseline base
  nerscore compare gold.jsonl a.jsonl b.jsonl --match overlap --metric recall
  nerscore compare gold.conll --system A=a1.conll,a2.conll,a3.conll \
      --system B=b1.conll,b2.conll,b3.conll
  nerscore compare gold.jsonl llm.jsonl tagger.jsonl --names llm tagger --align sequential
"""

METRICS = ("f1", "precision", "recall")
AVERAGES = ("micro", "macro")
METHODS = ("both", "bootstrap", "randomization")
UNITS = ("document", "sentence")


def register(subparsers: Subparsers) -> None:
    """Add the ``compare`` subcommand.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    p: argparse.ArgumentParser = subparsers.add_parser(
        "compare", help="compare systems: bootstrap intervals and significance tests",
        description=COMPARE_DESCRIPTION, epilog=COMPARE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("gold", metavar="GOLD", help="gold (reference) file")
    p.add_argument("preds", metavar="PRED", nargs="*",
                   help="predicted files, one per system (or --system)")
    add_system_option(p)
    p.add_argument("--names", metavar="NAME", nargs="+", default=None, type=display_name,
                   help="one name per PRED (default: the file names)")
    p.add_argument("--metric", choices=METRICS, default="f1",
                   help="the score the pairs compare (default: f1)")
    p.add_argument("--average", choices=AVERAGES, default="micro",
                   help="its average (default: micro)")
    p.add_argument("--method", choices=METHODS, default="both",
                   help="which p-values: both tests, the paired bootstrap or approximate "
                        "randomization (default: both)")
    p.add_argument("--baseline", metavar="NAME", default=None,
                   help="compare every other system with this one (a name of --names) "
                        "instead of every pair; the Holm-Bonferroni family is then these")
    p.add_argument("--unit", choices=UNITS, default="document",
                   help="what is resampled (default: document)")
    add_format_option(p, kind="comparison")
    p.add_argument("--output", metavar="FILE", default=None,
                   help="write the result to FILE (default: standard output)")
    p.add_argument("--strict-tokens", action="store_true",
                   help="CoNLL and JSON Lines token records: a token that differs between the files is an error")
    add_quiet_option(p)
    opt.add_resampling_options(p)
    fm.add_input_format_options(p)
    opt.add_match_options(p)
    add_label_options(p)
    opt.add_score_options(p)
    opt.add_tag_options(p)
    opt.add_conll_options(p)
    opt.add_side_options(p)
    add_compare_threshold_options(p)
    fm.add_tool_options(p)
    add_llm_options(p)
    declare_files(p, inputs=("gold", "preds", "threshold_from", "system_files"),
                  outputs={"output": "--output"})
    p.set_defaults(func=run_compare)


def _note(message: str) -> None:
    from nerscore.cli._output import note

    note("compare", message)


def _read(args: argparse.Namespace, outputs: set[str],
          ) -> tuple[Any, list[Any], dict[str, Any], Any, Any, Any]:
    """Gold, the predictions, the tag options, the document starts, the model outputs' summaries and notes.

    A PRED of model outputs is given as its per-document counts
    (:mod:`nerscore.cli.llm_systems`).
    """
    from nerscore.cli._sides import same_file_note
    from nerscore.cli.llm_systems import check_unit, score_llm_system
    from nerscore.io.formats import pair_notes

    files = [("GOLD", args.gold, fm.input_format(args.gold, args.gold_format), "gold")]
    files += [(path, path, fm.input_format(path, args.pred_format), "pred")
              for path in args.preds if path not in outputs]
    options = [fm.reader_options(args, fmt, side) for _, _, fmt, side in files]
    kind = fm.same_kind([(label, path, fmt, o) for (label, path, fmt, _), o
                         in zip(files, options, strict=True)],
                        "set --gold-format/--pred-format if a format was guessed wrongly from "
                        "the file name")
    if kind == "spans":
        check_span_inputs(args, (fmt for _, _, fmt, _ in files))
    fm.check_reader_flags(args, [*((side, fmt) for _, _, fmt, side in files),
                                 *(("pred", fm.input_format(p, args.pred_format))
                                   for p in outputs)])
    tag_kw: dict[str, Any] = {}
    if kind == "tags":
        if args.mode == "strict" and args.scheme is None:
            raise opt.UsageError("--mode strict needs --scheme (nerscore never guesses it)")
        tag_kw = {"scheme": args.scheme, "mode": args.mode, **opt.tag_kwargs(args)}
    read = [fmt.load(path, o) for (_, path, fmt, _), o in zip(files, options, strict=True)]
    gold, preds = read[0], read[1:]
    paired = [f"{n} Pass --strict-tokens to make this an error."
              for pred in preds for n in pair_notes(gold, pred, strict_tokens=args.strict_tokens)]
    same = [same_file_note(args, args.gold, path, (("gold", files[0][2]), ("pred", fmt)))
            for _, path, fmt, _ in files[1:]]  # a PRED that is GOLD, as score says it
    # a file given for two systems (or as GOLD too) says what it says once
    for n in dict.fromkeys([*(n for n in same if n), *paired, *gold.notes,
                            *(n for pred in preds for n in pred.notes)]):
        _note(n)
    data = iter([p.data for p in preds])
    summaries, systems, llm_notes = {}, [], {}
    if outputs:
        check_unit(args, files[0][2], gold)
    for name, path in zip(_names(args), args.preds, strict=True):
        if path not in outputs:
            systems.append(next(data))
            continue
        scored = score_llm_system(args, files[0][2], gold, path, report=False, counts=True)
        systems.append(scored.counts)
        summaries[name] = scored.summary
        llm_notes[name] = scored.notes
    return gold.data, systems, tag_kw, documents_of(gold, args.unit), summaries, llm_notes


def _read_runs(args: argparse.Namespace) -> tuple[Any, list[Any], dict[str, Any], Any]:
    """What :func:`_read` gives for the run files of ``--system`` (no model outputs)."""
    check_runs(args, args.preds, "--system")
    return _read(args, set())[:4]


def _names(args: argparse.Namespace) -> list[str]:
    return list(args.names) if args.names is not None else list(args.preds)


def run_compare(args: argparse.Namespace) -> int:
    """Run ``nerscore compare``.

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

    refuse_unused(args, _BETA, "compare scores precision, recall and F1")
    if args.system:
        return _write(args, run_compare_runs(args, _read_runs, _note))
    if not args.preds:
        raise opt.UsageError("give one PRED file per system, or --system NAME=RUN1,RUN2,... "
                             "for each system with several runs")
    names = _names(args)
    if len(names) != len(args.preds):
        raise opt.UsageError(f"--names gives {len(names)} name(s) for {len(args.preds)} PRED "
                             "file(s); give one name per PRED")
    if args.names is not None:
        opt.check_distinct(names, "--names", "give one distinct name per PRED")
    else:
        opt.check_distinct(names, "the PRED file names", "give each PRED once, or --names with "
                           "one distinct name per PRED")
    if args.baseline is not None and args.baseline not in names:
        raise opt.UsageError(f"--baseline {args.baseline!r} is none of the systems "
                             f"({', '.join(names)}); give one of the --names")
    outputs = llm_preds(args, args.preds)  # files of model outputs (docs/llm.md)
    options = opt.match_kwargs(args)
    output_renderer(args, "comparison")  # a bad --format fails before the resampling
    if outputs:
        gold_fmt = fm.input_format(args.gold, args.gold_format)
        tag_gold = gold_fmt.kind_of(args.gold, fm.reader_options(args, gold_fmt, "gold"))
        check_scored_outputs(args, tag_gold == "tags", sorted(outputs),
                             every=outputs == set(args.preds))
    gold, preds, tag_kw, documents, summaries, llm_notes = _read(args, outputs)
    preds, chosen = per_system_thresholds(args, preds, names, options)
    for n in chosen:
        _note(n)
    bar = ProgressBar("bootstrap", unit="resamples")
    try:
        result = nerscore.compare(
            gold, dict(zip(names, preds, strict=True)), match=args.match, metric=args.metric,
            average=args.average, method=args.method, baseline=args.baseline,
            unit=args.unit, documents=documents,
            zero_division=args.zero_division, progress=bar, **opt.resampling_kwargs(args),
            **tag_kw, **options,
        )
    finally:
        bar.close()
    return _write(args, with_llm_summaries(result, summaries, llm_notes))


def _write(args: argparse.Namespace, result: Any) -> int:
    """Write the comparison as ``--format`` asks; its notes on standard error unless in the text."""
    if args.format != "text":
        for n in result.notes:
            _note(n)
    text = output_renderer(args, "comparison").functions["comparison"](result, args.digits)
    write_result(text, args.output)
    if args.output is not None:
        _note(f"wrote {args.output}")
    return 0
