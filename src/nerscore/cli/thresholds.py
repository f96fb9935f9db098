"""``nerscore score --threshold-from DEV_GOLD DEV_PRED``: a threshold chosen on one set, applied to another.

The threshold is chosen on the development files by ``--objective``
(docs/curves.md) and passed on as ``min_score``; the notes state where it
was chosen, its scores there, and that the scores shown are of the files
scored. Choosing on the very files scored gets a warning.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._unused import SCHEMA, refuse_unused

__all__ = ["add_schema_option", "add_threshold_options", "check_ranked", "check_scored",
           "curve_kwargs", "dev_curve", "dev_objective", "read_dev_files", "threshold_from_dev"]

_SCHEMAS = ("strict", "exact", "partial", "type")


def add_schema_option(group: argparse._ActionsContainer) -> None:
    """Add ``--schema``: the SemEval schema a curve traces with ``--match semeval``.

    Parameters
    ----------
    group : argparse parser or argument group
        Where the option goes.
    """
    group.add_argument("--schema", choices=_SCHEMAS, default=None,
                       help="with --match semeval: the SemEval schema whose precision and "
                            "recall the curve traces (default: strict)")


def check_ranked(args: argparse.Namespace, what: str, more: str = "") -> None:
    """Refuse a ``--match`` that ranks no predictions by score (no threshold curve).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (``match``).
    what : str
        What needs the curve, as the sentence begins (``"nerscore curve traces"``).
    more : str
        What else the user may do (``", or ..."``).

    Raises
    ------
    UsageError
        For a matcher other than those of
        :data:`nerscore.analysis.ranking.RANKED_MATCHERS`.

    Examples
    --------
    >>> check_ranked(argparse.Namespace(match="token"), "nerscore curve traces")
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: nerscore curve traces precision and recall over the \
scores of predictions, which --match token does not rank (docs/curves.md): give --match exact, \
threshold, overlap or semeval
    """
    from nerscore.analysis.ranking import RANKED_MATCHERS

    if args.match not in RANKED_MATCHERS:
        *others, last = RANKED_MATCHERS
        raise opt.UsageError(
            f"{what} precision and recall over the scores of predictions, which --match "
            f"{args.match} does not rank (docs/curves.md): give --match {', '.join(others)} "
            f"or {last}{more}")


def curve_kwargs(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``threshold_curve``: the matcher options and ``--schema``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (``match``, ``schema``).
    options : dict
        The matcher and entity options.

    Returns
    -------
    dict
        ``options``, with ``schema`` when ``--schema`` was given.

    Raises
    ------
    UsageError
        For ``--schema`` with a matcher other than ``semeval``.
    """
    out = dict(options)
    if args.match != "semeval":
        refuse_unused(args, SCHEMA, f"--match {args.match} has no SemEval schemas",
                      then=", or give --match semeval")
    elif getattr(args, "schema", None) is not None:
        out["schema"] = args.schema
    return out


def add_threshold_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--threshold-from DEV_GOLD DEV_PRED`` and ``--objective``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``score`` parser (``--threshold`` comes with the matcher options).
    """
    group = parser.add_argument_group("scored predictions (docs/curves.md)")
    group.add_argument("--threshold-from", nargs=2, metavar=("DEV_GOLD", "DEV_PRED"),
                       default=None,
                       help="choose the threshold on these development files (span files whose "
                            "predictions have scores) and score GOLD PRED at it")
    group.add_argument("--objective", default=None, metavar="OBJECTIVE",
                       help="what --threshold-from maximises: f1 (default), fbeta (at --beta), "
                            "precision@R (best precision at recall >= R) or recall@P (best "
                            "recall at precision >= P)")
    add_schema_option(group)


def _same(a: str, b: str) -> bool:
    import filecmp

    try:
        return os.path.samefile(a, b) or (os.path.isfile(a) and os.path.isfile(b)
                                          and filecmp.cmp(a, b, shallow=False))
    except OSError:
        return False


def dev_curve(path: str, gold: Any, pred: Any, *, gold_path: str,
              names: tuple[str, str] = ("DEV_GOLD", "DEV_PRED"), **kwargs: Any) -> Any:
    """``threshold_curve(gold, pred, **kwargs)`` of the prediction file ``path``.

    A prediction without a score is an error naming ``path`` too (which of
    the DEV_PRED files lacks it); a span error names ``gold_path`` or
    ``path``, the file it is in, and the sides by their ``names`` in the
    command's usage.

    Raises
    ------
    InputTypeError
        For a prediction without a score.
    InvalidSpanError
        For a span that does not fit the text of its document.
    """
    from nerscore.analysis.curves import threshold_curve
    from nerscore.cli._sides import naming_sides
    from nerscore.errors import InputTypeError

    try:
        with naming_sides(gold_path, path, names=names):
            return threshold_curve(gold, pred, **kwargs)
    except InputTypeError as exc:
        raise InputTypeError(f"{path}: {exc}", source=path) from None


def dev_objective(args: argparse.Namespace, options: Mapping[str, Any], files: str) -> str | None:
    """The objective ``--threshold-from`` maximises, checked; None without ``--threshold-from``.

    ``files`` is how the command's usage names the development files
    (``DEV_GOLD DEV_PRED``).

    Raises
    ------
    UsageError
        For ``--objective`` or ``--schema`` without ``--threshold-from``, for
        ``--threshold`` or a ``--match`` that ranks nothing with it, and for an
        unknown objective (before any file is read).
    """
    if args.threshold_from is None:
        for flag in ("objective", "schema"):
            if getattr(args, flag, None) is not None:
                raise opt.UsageError(f"--{flag} needs --threshold-from {files}")
        return None
    if options.get("min_score") is not None:
        raise opt.UsageError(f"give --threshold T or --threshold-from {files}, not both")
    check_ranked(args, "--threshold-from chooses a threshold on a curve of",
                 ", or a fixed --threshold T")
    from nerscore.analysis.curves import parse_objective
    from nerscore.errors import OptionError

    objective = args.objective or "f1"
    try:
        parse_objective(objective)
    except OptionError:
        raise opt.UsageError(
            "argument --objective: expected f1, fbeta, precision@R (the best precision at "
            "recall >= R) or recall@P (the best recall at precision >= P), R and P numbers in "
            f"[0, 1]; got {objective!r}") from None
    return str(objective)


def check_scored(args: argparse.Namespace, path: str, data: Any, threshold: float | None) -> None:
    """Refuse a prediction file with an unscored span when a threshold applies to it.

    The library names the document and the span; this names the file too,
    which matters for one of several runs, and the flag that set the
    threshold (``--threshold`` or ``--threshold-from``).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``score`` arguments.
    path : str
        The prediction file.
    data : object
        What its reader gave (documents of spans are checked; anything else
        is left to the library).
    threshold : float or None
        The threshold kept predictions are scored at least (None: no check).

    Raises
    ------
    InputTypeError
        For the first span without a score.
    """
    if threshold is None or not isinstance(data, list):
        return
    from nerscore.errors import InputTypeError, quoted
    from nerscore.values.documents import Document

    flag = "--threshold" if getattr(args, "threshold_from", None) is None else "--threshold-from"
    for doc in data:
        if not isinstance(doc, Document):
            return
        unscored = [e for e in doc.spans if e.score is None]
        if unscored:
            n = sum(e.score is None for d in data if isinstance(d, Document) for e in d.spans)
            e = unscored[0]
            raise InputTypeError(
                f"{path}: span {quoted((e.start, e.end, e.label))} of document {quoted(doc.id)} "
                f"has no score ({n} span(s) of the file have none); {flag} keeps the "
                f"predictions scored at least {threshold:g}, so every predicted span needs a "
                "score (a JSON Lines span's \"score\"), or score them all without "
                f"{flag}.", source=path)


def read_dev_files(args: argparse.Namespace) -> list[Any]:
    """The ``--threshold-from`` files as read: DEV_GOLD first (GOLD's format), then DEV_PRED files.

    Raises
    ------
    UsageError
        For a file read as tags (which carry no score).
    """
    data = []
    for k, path in enumerate(args.threshold_from):
        side = "gold" if k == 0 else "pred"
        fmt = fm.input_format(path, args.gold_format if k == 0 else args.pred_format)
        reading = fm.reader_options(args, fmt, side)
        if fmt.kind_of(path, reading) != "spans":
            raise opt.UsageError(
                f"--threshold-from needs span files whose predictions have scores; {path!r} is "
                f"read as {fmt.name} tags, which carry no score")
        data.append(fmt.load(path, reading).data)
    return data


def threshold_from_dev(args: argparse.Namespace, options: dict[str, Any]) -> tuple[str, ...]:
    """Choose the threshold on the development files; put it in ``options`` as ``min_score``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``score`` arguments.
    options : dict
        The matcher and entity options; ``min_score`` is set in place.

    Returns
    -------
    tuple of str
        The notes that state the choice (none without ``--threshold-from``).

    Raises
    ------
    UsageError
        For ``--objective`` without ``--threshold-from``, both ``--threshold``
        and ``--threshold-from``, or development files of tags.
    """
    objective = dev_objective(args, options, "DEV_GOLD DEV_PRED")
    if objective is None:
        return ()
    dev_gold, dev_pred = args.threshold_from
    data = read_dev_files(args)
    kwargs = curve_kwargs(args, options)
    curve = dev_curve(dev_pred, data[0], data[1], gold_path=dev_gold, match=args.match,
                      beta=args.beta, **kwargs)
    point = curve.choose(objective)
    options["min_score"] = point.threshold
    f_name = "F1" if point.beta == 1 else f"F{point.beta:g}"
    schema = f", SemEval {curve.options['schema']}" if args.match == "semeval" else ""
    notes = [
        f"Threshold {point.threshold:g} chosen on {dev_gold} and {dev_pred} (objective "
        f"{objective}{schema}): there precision {point.precision:.4f}, recall {point.recall:.4f}, "
        f"{f_name} {point.fbeta:.4f}. The scores shown are of {args.gold} and {args.pred} at "
        "that threshold."]
    if _same(dev_gold, args.gold) and _same(dev_pred, args.pred):
        warning = ("The threshold was chosen on the same files it is reported on, so these "
                   "scores are optimistic; choose it on development data.")
        print(f"nerscore score: warning: {warning}", file=sys.stderr)
        notes.append(warning)
    return tuple(notes)
