"""``nerscore compare GOLD --system A=a1,a2,a3 --system B=b1,b2``: systems with several runs each.

Every run file is read and checked as ``nerscore compare GOLD PRED ...`` reads
its PRED files; :func:`nerscore.compare_runs` then resamples documents and runs
together (docs/significance.md, "Several runs per system"), and the output
says so.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from nerscore.cli import _options as opt
from nerscore.cli._output import output_renderer
from nerscore.cli._progress import ProgressBar
from nerscore.cli._unused import THRESHOLD_FROM, refuse_unused

__all__ = ["add_system_option", "parse_system", "run_compare_runs"]


def parse_system(value: str) -> tuple[str, list[str]]:
    """``"NAME=FILE1,FILE2"`` as ``(NAME, [FILE1, FILE2])``.

    Raises
    ------
    argparse.ArgumentTypeError
        Without ``=``, without a name, or with an empty file name.

    Examples
    --------
    >>> parse_system("A=runs/a1.conll,runs/a2.conll")
    ('A', ['runs/a1.conll', 'runs/a2.conll'])
    """
    name, sep, files = value.partition("=")
    paths = files.split(",")
    if not sep or not name or not files:
        raise argparse.ArgumentTypeError(
            f"expected NAME=RUN1[,RUN2,...] (a name, '=', and the system's run files separated "
            f"by commas); got {value!r}")
    if any(not p for p in paths):
        raise argparse.ArgumentTypeError(
            f"an empty file name in {value!r}: separate the run files by single commas")
    return name, paths


class _SystemAction(argparse.Action):
    """Append ``(name, files)`` to ``system`` and the files to ``system_files`` (the inputs)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        assert isinstance(values, tuple)  # parsed by parse_system
        name, files = values
        namespace.system = [*(namespace.system or []), (name, files)]
        namespace.system_files = [*(namespace.system_files or []), *files]


def add_system_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--system NAME=RUN1,RUN2,...`` (repeatable) to ``compare``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``compare`` parser.
    """
    parser.add_argument(
        "--system", metavar="NAME=RUN1,RUN2", type=parse_system, action=_SystemAction,
        default=None,
        help="a system and its runs (seeds, samples, prompt variants), instead of PRED files; "
             "repeat for each system. Documents and runs are resampled together "
             "(docs/significance.md)")
    parser.set_defaults(system_files=None)


def _check(args: argparse.Namespace, systems: list[tuple[str, list[str]]]) -> None:
    if args.preds:
        raise opt.UsageError("give PRED files (one run per system) or --system NAME=RUN1,RUN2,"
                             "... for each system, not both")
    if args.names is not None:
        raise opt.UsageError("--names names PRED files; --system names its system itself "
                             "(NAME=RUN1,RUN2,...)")
    refuse_unused(args, THRESHOLD_FROM, "it takes one DEV_PRED per system and does not apply "
                                        "to --system runs")
    names = [n for n, _ in systems]
    opt.check_distinct(names, "the names of --system", "give each system one --system "
                       "NAME=RUN1,RUN2,... with its own NAME")
    for name, files in systems:
        if len(set(files)) != len(files):
            raise opt.UsageError(f"--system {name} lists a run file twice")
    if args.baseline is not None and args.baseline not in names:
        raise opt.UsageError(f"--baseline {args.baseline!r} is none of the systems "
                             f"({', '.join(names)}); give one of the --system names")


def run_compare_runs(args: argparse.Namespace, read: Callable[[argparse.Namespace], Any],
                     note: Callable[[str], None]) -> Any:
    """The comparison of ``nerscore compare GOLD --system NAME=RUN1,RUN2 ...``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``compare`` arguments with ``--system``.
    read : callable
        How ``compare`` reads and checks its files: ``read(args)`` gives gold,
        the predictions of ``args.preds``, the tag options and the document
        starts.
    note : callable
        Prints one note on standard error.

    Returns
    -------
    Comparison
        What ``compare`` writes.
    """
    import nerscore

    systems: list[tuple[str, list[str]]] = args.system
    _check(args, systems)
    several = [name for name, files in systems if len(files) > 1]
    method = args.method
    if several and method == "randomization":
        raise opt.UsageError(
            f"--method randomization swaps two systems' predictions document by document; "
            f"with several runs per system ({', '.join(several)}) it is not defined: use "
            "--method bootstrap, which resamples documents and runs together")
    if several and method == "both":
        method = "bootstrap"
        note("with several runs per system only the paired bootstrap is defined (approximate "
              "randomization has no run-aware version): p-values are the bootstrap's.")
    options = opt.match_kwargs(args)
    output_renderer(args, "comparison")  # a bad --format fails before the resampling
    args.preds = [f for _, files in systems for f in files]
    gold, preds, tag_kw, documents = read(args)
    runs: dict[str, dict[str, Any]] = {}
    at = 0
    for name, files in systems:
        runs[name] = dict(zip(files, preds[at:at + len(files)], strict=True))
        at += len(files)
    bar = ProgressBar("bootstrap", unit="resamples")
    try:
        result = nerscore.compare_runs(
            gold, runs, match=args.match, metric=args.metric, average=args.average,
            method=method, baseline=args.baseline, unit=args.unit, documents=documents,
            zero_division=args.zero_division, progress=bar, **opt.resampling_kwargs(args),
            **tag_kw, **options,
        )
    finally:
        bar.close()
    return result
