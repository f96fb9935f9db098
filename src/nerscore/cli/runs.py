"""``nerscore score GOLD RUN1 RUN2 ... --runs``: several runs of one system, mean ± SD over runs.

Every run is read and scored as ``nerscore score GOLD RUN`` would score it
(in memory); the warnings and notes of scoring (once each, naming the runs
one is about unless every run has it), then the readers' notes (of gold once, then of
each run) are printed on standard error; the summary (docs/curves.md) is rendered by the format
registry's ``runs`` renderers: ``--format text`` (default), ``json`` or
``markdown``.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
from typing import Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._output import write_result
from nerscore.cli._unused import (
    CHUNKS,
    THRESHOLDS,
    Table,
    Unused,
    check_span_inputs,
    refuse_unused,
)
from nerscore.cli.thresholds import check_scored

__all__ = ["add_runs_options", "run_runs", "wants_runs"]

#: What ``score`` adds to the scores of one PRED, which a summary of runs has no use for.
_EXTRAS = Table("add to the scores of one PRED", (
    Unused("--errors", "errors", None, "writes every entity error to a file"),
    Unused("--confusion", "confusion", False, "prints the confusion matrix of entity labels"),
    Unused("--breakdown", "breakdown", None, "prints the scores per entity length or document"),
    Unused("--ci", "ci", False, "gives bootstrap confidence intervals of the scores"),
))


def add_runs_options(parser: argparse.ArgumentParser) -> None:
    """Add the further PRED files and ``--runs``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``score`` parser, whose positionals so far are GOLD and PRED.
    """
    parser.add_argument("more_preds", metavar="PRED2", nargs="*", default=[],
                        help="with --runs: more runs of the same system")
    parser.add_argument("--runs", action="store_true",
                        help="PRED PRED2 ... are runs of one system (seeds, samples, prompts): "
                             "print mean ± SD over runs per label, the standard error and t "
                             "interval of F1, and which gold entities only some runs find "
                             "(docs/curves.md)")


def wants_runs(args: argparse.Namespace) -> bool:
    """Whether ``score`` summarises several runs; a usage error for several PRED without --runs.

    Raises
    ------
    UsageError
        For more than one PRED file without ``--runs``, or ``--runs`` with
        an option it does not take.
    """
    if not args.runs:
        if args.more_preds:
            raise opt.UsageError("several PRED files are several runs of one system: add --runs "
                                 "(or compare systems with nerscore compare)")
        return False
    refuse_unused(args, _EXTRAS, "--runs summarises the runs (mean ± SD over runs)")
    refuse_unused(args, THRESHOLDS, "--runs scores every run as it is")
    refuse_unused(args, CHUNKS, "--runs reads every run whole")
    if args.pred is None:
        raise opt.UsageError("--runs needs GOLD and one or more PRED files")
    from nerscore.errors import OptionError
    from nerscore.render.registry import get_renderer

    try:
        get_renderer(args.format or "text", kind="runs")
    except OptionError as exc:
        raise opt.UsageError(f"--runs: {str(exc).rstrip('.')}") from None
    return True


def run_runs(args: argparse.Namespace) -> int:
    """Score every run and print the summary.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``score`` arguments with ``--runs``.

    Returns
    -------
    int
        The exit status (0).
    """
    import warnings

    from nerscore.analysis.runs import naming_runs, raise_for_runs, score_runs
    from nerscore.cli._output import note
    from nerscore.cli.llm_systems import check_runs
    from nerscore.errors import NerscoreError
    from nerscore.io.formats import pair_notes
    from nerscore.render.registry import render_result

    files = [args.pred, *args.more_preds]
    check_runs(args, files, "--runs")
    gold_fmt = fm.input_format(args.gold, args.gold_format)
    gold_reading = fm.reader_options(args, gold_fmt, "gold")
    kind = gold_fmt.kind_of(args.gold, gold_reading)
    pred_fmts = [fm.input_format(path, args.pred_format) for path in files]
    if kind == "spans":
        check_span_inputs(args, (gold_fmt, *pred_fmts))
    fm.check_reader_flags(args, [("gold", gold_fmt), *(("pred", f) for f in pred_fmts)])
    # the usage errors come before any file is read
    threshold = opt.match_kwargs(args).get("min_score")
    if kind == "tags" and threshold is not None:
        raise opt.UsageError(
            "--threshold keeps the predictions scored at least a threshold, so it needs span "
            f"files whose predictions have scores; {args.gold!r} is read as {gold_fmt.name} "
            "tags, which carry no score")
    for path, fmt in zip(files, pred_fmts, strict=True):
        if fmt.kind_of(path, fm.reader_options(args, fmt, "pred"), unread=kind) != kind:
            raise opt.UsageError(f"cannot score {path} ({fmt.name}) against {gold_fmt.name} "
                                 "gold: give every file as tags, or every file as spans")
    tag_kw: dict[str, Any] = {}
    if kind == "tags":
        if args.mode == "strict" and args.scheme is None:
            raise opt.UsageError("--mode strict needs --scheme (nerscore never guesses it)")
        tag_kw = {"scheme": args.scheme, "mode": args.mode, **opt.tag_kwargs(args)}
    gold = gold_fmt.load(args.gold, gold_reading)
    notes = {args.gold: _file_notes(args.gold, gold.notes)}
    preds = []
    failed: list[tuple[str, NerscoreError]] = []
    for path, fmt in zip(files, pred_fmts, strict=True):
        reading = fm.reader_options(args, fmt, "pred")
        pred = fmt.load(path, reading)
        check_scored(args, path, pred.data, threshold)
        # the check of `score GOLD PRED`: the same sentences, each as long, in both files
        try:
            paired = pair_notes(gold, pred, strict_tokens=args.strict_tokens)
        except NerscoreError as exc:  # every run that does not pair with GOLD is named
            failed.append((path, exc))
            continue
        for n in paired:  # printed by main
            warnings.warn(f"{n} Pass --strict-tokens to make this an error.", stacklevel=1)
        preds.append(pred.data)
        notes.setdefault(path, _file_notes(path, pred.notes))
    raise_for_runs(failed, named=True)
    for n in _identical_runs(files):  # printed by main, as the warnings above
        warnings.warn(n, stacklevel=1)
    summary = score_runs(gold.data, preds, names=files, match=args.match, beta=args.beta,
                         zero_division=args.zero_division,
                         level=0.95 if args.level is None else args.level,
                         **tag_kw, **opt.match_kwargs(args))
    summary = dataclasses.replace(summary, source=args.gold)
    write_result(render_result(summary, format=args.format or "text", digits=args.digits),
                 args.output)
    scored = [shown for _, shown in naming_runs(files, [r.notes for r in summary.reports])]
    for n in (*scored, *(n for file_notes in notes.values() for n in file_notes)):
        note("score", n)
    return 0


def _identical_runs(files: list[str]) -> tuple[str, ...]:
    """A warning per pair of runs that are one file, or files of the same bytes.

    Examples
    --------
    >>> _identical_runs(["r1.conll", "r2.conll", "r1.conll"])
    ('runs 1 and 3 are the same file (r1.conll): one run counts as two, so the mean leans to it and the SD over runs understates the spread; give each run once.',)
    """
    from nerscore.io.atomic import same_content

    out = []
    for (i, a), (j, b) in itertools.combinations(enumerate(files, 1), 2):
        if a == b:
            what = f"the same file ({a})"
        elif same_content(a, b):
            what = f"the same file: {a} and {b} have identical content"
        else:
            continue
        out.append(f"runs {i} and {j} are {what}: one run counts as two, so the mean leans to "
                   "it and the SD over runs understates the spread; give each run once.")
    return tuple(out)


def _file_notes(path: str, notes: tuple[str, ...]) -> tuple[str, ...]:
    """The reader's notes of one file, each naming it (``FILE: ...``) as most readers' already do.

    Examples
    --------
    >>> _file_notes("run1.conll", ("run1.conll: 1 comment line skipped", "2 lines repaired"))
    ('run1.conll: 1 comment line skipped', 'run1.conll: 2 lines repaired')
    """
    return tuple(n if n.startswith(f"{path}: ") else f"{path}: {n}" for n in notes)
