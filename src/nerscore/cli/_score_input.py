"""The streaming path of ``nerscore score``: files scored chunk by chunk, or on a Dask cluster.

:func:`score_streaming` is tried first; it returns None where the command's
in-memory path must run instead (``--ci``, formats read whole such as BRAT
folders, inputs whose chunks cannot give the in-memory result; see
:mod:`nerscore.accumulate.files`), so that the output is the same either way.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._arg_types import non_negative_int

if TYPE_CHECKING:
    from nerscore.io.formats import Format

__all__ = ["add_stream_options", "score_streaming", "wants_streaming"]


def add_stream_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--chunk-sentences`` (hidden), ``--workers`` and ``--scheduler``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``score`` parser.
    """
    # sentences (documents) per chunk; 0 reads the files whole (default: CHUNK_SIZE)
    parser.add_argument("--chunk-sentences", type=non_negative_int, default=None,
                        metavar="N", help=argparse.SUPPRESS)
    group = parser.add_argument_group("scale (docs/scale.md)")
    group.add_argument("--workers", type=non_negative_int, default=0, metavar="N",
                       help="score on a local Dask cluster of N worker processes (needs "
                            "nerscore[dask]); GOLD and PRED may then be folders or glob "
                            "patterns of shards")
    group.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="score on the Dask cluster at ADDRESS (e.g. tcp://host:8786)")


def _stream_kwargs(args: argparse.Namespace, kind: str, options: dict[str, Any]) -> dict[str, Any]:
    """Scoring options of :func:`nerscore.accumulate.files.stream_score`."""
    kw: dict[str, Any] = {"match": args.match, "beta": args.beta,
                          "zero_division": args.zero_division, **options}
    if kind == "tags":
        kw.update(scheme=args.scheme, mode=args.mode, **opt.tag_kwargs(args))
    return kw


def wants_streaming(args: argparse.Namespace) -> bool:
    """Whether ``score`` should take the streaming path.

    Not with ``--ci`` (the bootstrap resamples the whole corpus), ``--format
    html`` (the page lists every error), ``--breakdown`` (it buckets every
    entity) or ``--chunk-sentences 0``, unless on a Dask cluster.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of ``score``.

    Returns
    -------
    bool
    """
    distributed = bool(args.workers) or args.scheduler is not None
    return not getattr(args, "ci", False) and not _whole_report(args) and (
        args.chunk_sentences != 0 or distributed)


def _whole_report(args: argparse.Namespace) -> bool:
    """The html page lists every error, a breakdown buckets them: both need the whole alignment."""
    return bool(args.format == "html" or getattr(args, "breakdown", None) is not None)


def score_streaming(args: argparse.Namespace, sides: tuple[tuple[str, Format], ...], kind: str,
                    one_file: bool, options: dict[str, Any], notes: tuple[str, ...] = (),
                    before_error: Callable[[tuple[str, ...]], None] | None = None) -> Any:
    """Score chunk by chunk (or on Dask) as ``run_score`` would; None when it must run in memory.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed (and already checked) arguments of ``score``.
    sides : tuple of (side, Format)
        The input formats of GOLD and PRED.
    kind : {"tags", "spans"}
        What the inputs hold.
    one_file : bool
        Both sides are label columns of GOLD.
    options : dict
        The matcher options given.
    notes : tuple of str
        Notes for the report, before the readers' notes.
    before_error : callable, optional
        Called with the notes on differing tokens before an input error of
        the scoring is raised (see :func:`~nerscore.accumulate.files.stream_score`).

    Returns
    -------
    StreamResult or None
        None when nothing was written and the in-memory path must run.
    """
    kw = _stream_kwargs(args, kind, options)
    (_, gold_fmt), (_, pred_fmt) = sides
    common = dict(
        gold_format=gold_fmt, pred_format=pred_fmt, errors=args.errors,
        confusion=args.confusion, strict_tokens=args.strict_tokens,
        gold_options=fm.reader_options(args, gold_fmt, "gold"),
        pred_options=fm.reader_options(args, pred_fmt, "pred"), notes=notes, **kw,
    )
    pred = None if one_file else args.pred
    from nerscore.accumulate.files import CHUNK_SIZE, FileScoring, NotStreamable, stream_score

    if args.workers or args.scheduler is not None:
        from nerscore.integrations.dask import score_cli

        try:
            return score_cli(args.gold, pred, workers=args.workers, scheduler=args.scheduler,
                             **common)
        except NotStreamable:  # empty files: scored in memory, as without a cluster
            return None
    from nerscore.cli._progress import ProgressBar

    chunk = CHUNK_SIZE if args.chunk_sentences is None else args.chunk_sentences
    errors = common.pop("errors")
    job = FileScoring.from_keywords(chunk_size=chunk, **common)
    bar = ProgressBar(f"reading {args.gold}", unit="bytes")

    def said_before_error(token_notes: tuple[str, ...]) -> None:
        bar.close()  # its line cleared before the notes
        if before_error is not None:
            before_error(token_notes)

    try:
        return stream_score(args.gold, pred, job, errors=errors, progress=bar,
                            before_error=said_before_error)
    except NotStreamable:
        return None
    finally:
        bar.close()
