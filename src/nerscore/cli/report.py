"""The ``report`` subcommand: one self-contained HTML page for one or several systems.

``nerscore report GOLD PRED [PRED2 ...] [-o report.html]`` scores every
prediction file against GOLD with the options of ``nerscore score`` and
writes :func:`nerscore.render_html`'s page: summary, per-label table,
confusion matrices and the error browser, one column per system.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._arg_types import display_name
from nerscore.cli._labels import add_label_options
from nerscore.cli._output import add_quiet_option, declare_files
from nerscore.cli._progress import ProgressBar, size_text
from nerscore.cli._unused import check_scored_outputs, check_span_inputs
from nerscore.cli.llm import add_llm_options
from nerscore.errors import quoted

if TYPE_CHECKING:
    from nerscore.render import Report

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run_report"]

DESCRIPTION = """\
Write a self-contained HTML report (one file, no network needed to view it):
how the systems were scored, micro/macro/weighted averages, a sortable
per-label table with TP/FP/FN, the confusion matrix as a heat map, and an
error browser filterable by category, label and document.

Several prediction files are scored against the same GOLD and shown side by
side, one column per system, with a significance section: bootstrap
confidence intervals and paired tests of every pair of systems
(--resamples, --level, --seed; as 'nerscore compare'). With --train, a
diagnostics section lists what the train/test split makes misleading (as
'nerscore diagnose', for the first PRED). A PRED of model outputs (JSON Lines
records with "output" or "mentions") is aligned to GOLD as 'nerscore score'
does (--align, --normalize, --label-alias); the page then shows its summary,
its unaligned mentions and parse failures, and its raw outputs.
"""

EXAMPLES = """\
examples:
  nerscore report gold.conll pred.conll -o report.html
  nerscore report gold.conll model_a.conll model_b.conll --names A B -o report.html
  nerscore report test.conll pred.conll --train train.conll --scheme IOB2 -o report.html
"""


def register(subparsers: Subparsers) -> None:
    """Add the ``report`` subcommand.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "report", help="write a self-contained HTML report", description=DESCRIPTION,
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False,
    )
    parser.add_argument("gold", metavar="GOLD", help="gold (reference) file")
    parser.add_argument("preds", metavar="PRED", nargs="+", help="predicted file(s)")
    parser.add_argument("-o", "--output", metavar="FILE", default="report.html",
                        help="where to write the page; '-' for standard output "
                             "(default: report.html)")
    parser.add_argument("--names", metavar="NAME", nargs="+", default=None, type=display_name,
                        help="one name per PRED (default: the file names)")
    parser.add_argument("--title", default="nerscore report", help="title of the page")
    parser.add_argument("--no-errors", action="store_true",
                        help="leave out the error browser (a smaller page)")
    parser.add_argument("--strict-tokens", action="store_true",
                        help="CoNLL and JSON Lines token records: a token that differs between the files is an error")
    parser.add_argument("--train", metavar="TRAIN", default=None,
                        help="training data (read as GOLD is: --gold-format applies): add "
                             "the dataset diagnostics of the TRAIN/GOLD split")
    add_quiet_option(parser)
    opt.add_resampling_options(parser)
    fm.add_input_format_options(parser)
    opt.add_match_options(parser)
    add_label_options(parser)
    opt.add_score_options(parser)
    opt.add_tag_options(parser)
    opt.add_conll_options(parser)
    fm.add_tool_options(parser)
    add_llm_options(parser)
    declare_files(parser, inputs=("gold", "preds", "train"), outputs={"output": "--output"})
    parser.set_defaults(func=run_report)


def _names(args: argparse.Namespace) -> list[str]:
    if args.names is not None:
        if len(args.names) != len(args.preds):
            raise opt.UsageError(f"--names needs one name per PRED ({len(args.preds)}); "
                                 f"got {len(args.names)}")
        opt.check_distinct(args.names, "--names", "give one distinct name per PRED")
        return list(args.names)
    out: list[str] = []
    for path in args.preds:
        base = os.path.basename(os.path.normpath(path))
        stem = os.path.splitext(base)[0] or base
        name, k = stem, 2
        while name in out:
            name, k = f"{stem} ({k})", k + 1
        out.append(name)
    return out


class _Scored(NamedTuple):
    """What ``report`` scored: reports, token lists, and the inputs for compare/diagnose."""

    reports: list[Report]
    texts: Sequence[Any] | None
    gold: Any
    preds: list[Any]
    tag_kw: dict[str, Any]
    documents: list[int] | None
    outputs: dict[str, dict[str, str]] | None = None  # raw model outputs, by PRED path
    summaries: dict[str, Any] | None = None  # LLMSummary of each PRED of model outputs
    llm_notes: dict[str, tuple[str, ...]] | None = None  # their label operations' notes


def _score_all(args: argparse.Namespace) -> _Scored:
    """Every PRED scored against GOLD; the token lists of gold tag files for the browser."""
    from nerscore.cli.llm_systems import llm_preds
    from nerscore.io.chunks import ReadAhead

    outputs = llm_preds(args, args.preds)  # files of model outputs (docs/llm.md)
    gold_fmt = fm.input_format(args.gold, args.gold_format)
    pred_fmts = [fm.input_format(p, args.pred_format) for p in args.preds]
    kind = gold_fmt.kind_of(args.gold, fm.reader_options(args, gold_fmt, "gold"))
    for path, fmt in zip(args.preds, pred_fmts, strict=True):
        if path in outputs:
            continue
        if fmt.kind_of(path, fm.reader_options(args, fmt, "pred"), unread=kind) != kind:
            raise opt.UsageError(
                f"cannot score {fmt.name} predictions ({path}) against {gold_fmt.name} gold: "
                "give all files as tag files, or all as span files")
    if outputs:
        check_scored_outputs(args, kind == "tags", sorted(outputs),
                             every=outputs == set(args.preds))
    if kind == "spans":
        check_span_inputs(args, (gold_fmt, *pred_fmts))
    fm.check_reader_flags(args, [("gold", gold_fmt), *(("pred", f) for f in pred_fmts)])
    options = opt.match_kwargs(args)
    score_kw: dict[str, Any] = {"match": args.match, "beta": args.beta,
                                "zero_division": args.zero_division, **options}
    tag_kw: dict[str, Any] = {}
    if kind == "tags":
        if args.mode == "strict" and args.scheme is None:
            raise opt.UsageError("--mode strict needs --scheme (nerscore never guesses it)")
        tag_kw = {"scheme": args.scheme, "mode": args.mode, **opt.tag_kwargs(args)}
    # the prediction files are read in a thread beside GOLD (the readers warn nothing)
    loads = ReadAhead((fmt.load(path, fm.reader_options(args, fmt, "pred"))
                       for path, fmt in zip(args.preds, pred_fmts, strict=True)
                       if path not in outputs), depth=1)
    with loads:
        gold = gold_fmt.load(args.gold, fm.reader_options(args, gold_fmt, "gold"))
        return _score_each(args, gold, loads, outputs, tag_kw, score_kw)


def _intern_tokens_aside(texts: Any) -> None:
    """Number GOLD's tokens in a thread of its own while the systems are scored.

    The error browser stores each token of its rows once
    (:meth:`~nerscore.io._conll_text.FieldView.interned`); the second
    core hashes them while this thread diagnoses (on one CPU, nothing is
    started). Should it fail, the browser numbers the tokens itself (and
    reports what went wrong).
    """
    import threading

    from nerscore.io.chunks import release_freed_memory, usable_cpus

    view: Any = getattr(texts, "flat", None)
    if not hasattr(view, "interned") or usable_cpus() < 2:  # not a file's; nothing to gain
        return

    def intern() -> None:
        try:
            view.interned()
        except Exception:  # numbered again, and reported, by the browser
            return
        release_freed_memory()  # the hashing's temporary arrays, freed in this thread's heap

    threading.Thread(target=intern, name="nerscore-intern", daemon=True).start()


def _score_each(args: argparse.Namespace, gold: Any, loads: Iterator[Any],
                outputs: set[str], tag_kw: dict[str, Any],
                score_kw: dict[str, Any]) -> _Scored:
    """Every PRED scored against ``gold``; ``loads``: the read files of the other PREDs, in order."""
    import dataclasses

    import nerscore
    from nerscore.cli._output import note
    from nerscore.cli._sides import same_file_note
    from nerscore.cli.llm_systems import score_llm_system
    from nerscore.io.chunks import release_freed_memory
    from nerscore.io.formats import pair_notes

    gold_fmt = gold.file_format
    reports, preds = [], []
    raw, summaries, llm_notes = {}, {}, {}
    interning = args.no_errors  # GOLD's tokens numbered aside for the browser (once)
    for path in args.preds:
        if path in outputs:
            llm = score_llm_system(args, gold_fmt, gold, path, counts=len(args.preds) > 1,
                                   outputs=not args.no_errors)
            assert llm.report is not None
            notes = (*llm.report.notes, *gold.notes)
            reports.append(dataclasses.replace(llm.report, notes=tuple(dict.fromkeys(notes))))
            preds.append(llm.counts)
            raw[path], summaries[path], llm_notes[path] = llm.outputs, llm.summary, llm.notes
            continue
        pred = next(loads)
        release_freed_memory()  # what the reading thread freed (docs/scale.md)
        aligned = pair_notes(gold, pred, strict_tokens=args.strict_tokens)
        if not interning:  # the first files read and compared: past their peak
            _intern_tokens_aside(gold.texts())
            interning = True
        for n in aligned:
            note("report", f"{path}: {n} Pass --strict-tokens to make this an error.",
                 kind="warning")
        same = same_file_note(args, args.gold, path, (("gold", gold_fmt),
                                                      ("pred", pred.file_format)))
        if same:  # as score says it
            note("report", same)
        report = nerscore.evaluate(gold.data, pred.data, **tag_kw, **score_kw)
        notes = (*report.notes, *([same] if same else []), *gold.notes, *pred.notes, *aligned)
        reports.append(dataclasses.replace(report, notes=tuple(dict.fromkeys(notes))))
        preds.append(pred.data)
    return _Scored(reports, gold.texts(), gold.data, preds, tag_kw, list(gold.documents) or None,
                   raw, summaries, llm_notes)


def _comparison(args: argparse.Namespace, scored: _Scored, names: list[str]) -> Any:
    """``nerscore compare`` of the systems (two or more), for the significance section."""
    import nerscore
    from nerscore.cli.llm_systems import with_llm_summaries

    found = scored.summaries or {}
    summaries = {name: found[path] for name, path in zip(names, args.preds, strict=True)
                 if path in found}
    options = opt.match_kwargs(args)
    bar = ProgressBar("bootstrap", unit="resamples")
    try:
        result = nerscore.compare(
            scored.gold, dict(zip(names, scored.preds, strict=True)), match=args.match,
            documents=scored.documents, zero_division=args.zero_division, progress=bar,
            **opt.resampling_kwargs(args), **scored.tag_kw, **options,
        )
    finally:
        bar.close()
    more = scored.llm_notes or {}
    return with_llm_summaries(result, summaries, {name: more[path] for name, path
                                                  in zip(names, args.preds, strict=True)
                                                  if path in more})


def _diagnostics(args: argparse.Namespace, scored: _Scored, names: list[str]) -> Any:
    """``nerscore diagnose`` of TRAIN and GOLD with each prediction (by system name, when several)."""
    import nerscore

    if scored.summaries:
        raise opt.UsageError("--train diagnoses ordinary predictions; "
                             f"{', '.join(scored.summaries)} hold model outputs (write their "
                             "aligned spans with 'nerscore convert LLM.jsonl OUT.jsonl --gold "
                             "GOLD' and diagnose those)")
    gold_fmt = fm.input_format(args.gold, args.gold_format)
    train_fmt = fm.input_format(args.train, args.gold_format)
    options = fm.reader_options(args, train_fmt)
    kind = gold_fmt.kind_of(args.gold, fm.reader_options(args, gold_fmt))
    if train_fmt.kind_of(args.train, options) != kind:
        raise opt.UsageError(f"--train must hold {kind} like GOLD; {args.train!r} is read as "
                             f"{train_fmt.name} (set --gold-format if a format was guessed "
                             "wrongly)")
    from nerscore.cli.diagnose import split_notes
    from nerscore.io.atomic import same_content

    if train_fmt is gold_fmt and options == fm.reader_options(args, gold_fmt, "gold") and \
            same_content(args.train, args.gold):
        train = scored.gold  # the same bytes read the same way: GOLD as already read
    else:
        train = train_fmt.load(args.train, options).data
    from nerscore.values.label_ops import LabelOps

    # the diagnostics describe the files as they are: the label operations are not applied
    options = {k: v for k, v in opt.match_kwargs(args).items() if k not in LabelOps.KEYWORDS}
    found = {name: nerscore.diagnose(train, scored.gold, pred=pred, match=args.match,
                                     **scored.tag_kw, **options)
             for name, pred in zip(names, scored.preds, strict=True)}
    split_notes(args.train, [n for d in found.values() for n in d.notes], "report")
    return found if len(found) > 1 else found[names[0]]


def _curves(args: argparse.Namespace, scored: _Scored, names: list[str]) -> tuple[Any, Any]:
    """Each system's threshold curve and calibration, for the systems whose predictions have scores.

    One system: its curve and calibration (or None); several: mappings of
    system name to curve and to calibration (None when no system has scores).
    Predictions of which some have a score and some none get no curves, as
    ``nerscore curve`` refuses them, and a note naming the file and the first
    unscored one: the scores given are not dropped without a word. The page
    says so too: their system is left out of the mappings, which are then
    given even when empty (even for one system), so that the Curves section
    names it with how many predictions lack a score. Scores outside ``[0, 1]``
    get no calibration (no reliability diagram) and a note saying so.
    """
    import nerscore
    from nerscore.analysis.ranking import RANKED_MATCHERS
    from nerscore.cli._output import note
    from nerscore.errors import InputTypeError

    if args.match not in RANKED_MATCHERS or scored.tag_kw:
        return None, None
    options = {k: v for k, v in opt.match_kwargs(args).items() if k != "min_score"}
    curves: dict[str, Any] = {}
    cals: dict[str, Any] = {}
    partly = False
    for name, path, pred in zip(names, args.preds, scored.preds, strict=True):
        if path in (scored.summaries or {}):  # model outputs carry no scores
            continue
        try:
            curves[name] = nerscore.threshold_curve(scored.gold, pred, match=args.match,
                                                    **options)
        except InputTypeError as exc:  # predictions without scores: no curves to draw
            if any(getattr(e, "score", None) is not None
                   for doc in pred for e in getattr(doc, "spans", ())):
                note("report", f"{path}: no curves: {exc}")
                partly = True
            continue
        try:
            cals[name] = nerscore.calibration(scored.gold, pred, match=args.match, **options)
        except InputTypeError as exc:  # scores outside [0, 1]: no reliability diagram
            note("report", f"{path}: no reliability diagram: {exc}")
            cals[name] = None
    if len(names) == 1 and not partly:
        return curves.get(names[0]), cals.get(names[0])
    return (curves, cals) if curves or partly else (None, None)


def run_report(args: argparse.Namespace) -> int:
    """Run ``nerscore report``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    from nerscore.cli._flags import flag_notes
    from nerscore.cli._output import note
    from nerscore.render.html import render_html
    from nerscore.scoring.reuse import reusing_runs

    names = _names(args)
    if len(args.preds) < 2 and any(v is not None for v in (args.resamples, args.level,
                                                            args.seed)):
        raise opt.UsageError("--resamples, --level and --seed need two or more PRED files")
    with reusing_runs():  # the diagnostics match what the scoring matched: once
        scored = _score_all(args)
        reports = [flag_notes(r) for r in scored.reports]  # the notes name the flags
        systems = dict(zip(names, reports, strict=True)) if len(reports) > 1 else None
        comparison = flag_notes(_comparison(args, scored, names)) if len(reports) > 1 else None
        diagnostics = _diagnostics(args, scored, names) if args.train is not None else None
        diagnostics = flag_notes(diagnostics)
        curve, calibration = map(flag_notes, _curves(args, scored, names))
    raw = scored.outputs or {}
    page = render_html(reports[0], systems=systems, name=names[0], texts=scored.texts,
                       errors=not args.no_errors, digits=args.digits, title=args.title,
                       comparison=comparison, diagnostics=diagnostics, curve=curve,
                       calibration=calibration,
                       model_outputs={name: raw[path] for name, path in zip(
                           names, args.preds, strict=True) if path in raw})
    if args.output == "-":
        sys.stdout.write(page)
        return 0
    from nerscore.io.atomic import atomic_open

    with atomic_open(args.output, "w", encoding="utf-8") as fh:
        fh.write(page)
    what = f"{len(reports)} systems" if len(reports) > 1 else f"system {quoted(names[0])}"
    note("report", f"wrote {args.output} ({what}, {size_text(os.path.getsize(args.output))})")
    return 0
