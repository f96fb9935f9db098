"""Model outputs as systems of ``report`` and ``compare``, beside ordinary prediction files.

A PRED of ``nerscore report`` or ``nerscore compare`` that is a JSON Lines
file of model outputs (records with ``"output"`` or ``"mentions"``) is read,
aligned to GOLD and scored as ``nerscore score`` does
(:func:`nerscore.evaluate_llm`, with ``--align``, ``--normalize``,
``--snap``, ``--label-alias``, ``--output-format``); for resampling, its
per-document counts (:func:`nerscore.llm_sequence_counts`) stand in for the
prediction, paired with the other systems by document id. The other PRED
files are read as usual (docs/llm.md).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from nerscore.cli import _formats as fm, _options as opt, llm
from nerscore.cli._unused import check_not_outputs

if TYPE_CHECKING:
    from nerscore.analysis.significance.units import SequenceCounts
    from nerscore.io.formats import Format, ReadResult
    from nerscore.io.llm_records import LLMRecord
    from nerscore.scoring.llm import LLMSummary
    from nerscore.scoring.report import Report

__all__ = ["LLMSystem", "check_runs", "llm_preds", "raw_outputs", "score_llm_system",
           "summary_notes"]


class LLMSystem(NamedTuple):
    """One file of model outputs, scored.

    Attributes
    ----------
    report : Report or None
        Its report (None when only the counts were asked for).
    counts : SequenceCounts or None
        Its per-document counts (None when not asked for).
    summary : LLMSummary
        What reading and aligning counted.
    outputs : dict of str to str
        The raw output of each document, by gold document id (when asked for).
    notes : tuple of str
        With the counts: what the label operations changed, as a report's
        notes say it (the report has them among its own).
    """

    report: Report | None
    counts: SequenceCounts | None
    summary: LLMSummary
    outputs: dict[str, str]
    notes: tuple[str, ...] = ()


def llm_preds(args: argparse.Namespace, paths: Sequence[str]) -> set[str]:
    """The PRED files that hold model outputs; refuse the model-output flags when none does.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (``--pred-format``, ``--pred-encoding``).
    paths : sequence of str
        The PRED files.

    Returns
    -------
    set of str

    Raises
    ------
    UsageError
        When a model-output flag was given and no PRED holds model outputs.

    Notes
    -----
    With model outputs, ``--normalize`` says how their mentions are found
    in the text (and, for ``--match mention``, how every system's strings
    are compared, as in ``score``): it is kept as ``args.llm_normalize``, and
    taken off the matcher options of other matchers.
    """
    found = set()
    for path in paths:
        fmt = fm.input_format(path, args.pred_format)
        encoding = fm.reader_options(args, fmt, "pred").get("encoding", "utf-8")
        if llm.is_llm_prediction(path, fmt, encoding):
            found.add(path)
    if not found:
        check_not_outputs(args, paths)
    elif getattr(args, "normalize", None) is not None:
        args.llm_normalize = args.normalize
        if args.match != "mention":
            args.normalize = None
    return found


def check_runs(args: argparse.Namespace, paths: Sequence[str], flag: str) -> None:
    """Refuse model outputs as runs, and the model-output flags with the runs.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    paths : sequence of str
        The run files.
    flag : str
        The option that gave them (``--runs``, ``--system``).

    Raises
    ------
    UsageError
        For a run file of model outputs (their aligned spans are written by
        ``convert``), and for a model-output flag.
    """
    from nerscore.cli._unused import holds

    outputs = llm_preds(args, paths)
    if outputs:
        raise opt.UsageError(
            f"{flag} takes prediction files with offsets; {holds(sorted(outputs))} "
            "model outputs: write their aligned spans with `nerscore convert OUTPUTS.jsonl "
            "ALIGNED.jsonl --gold GOLD` and give those files as the runs")


def score_llm_system(
    args: argparse.Namespace, gold_fmt: Format, gold: ReadResult, path: str, *,
    report: bool = True, counts: bool = False, outputs: bool = False,
) -> LLMSystem:
    """Read, align and score one file of model outputs against the gold file read already.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (matcher, alignment and decoding options).
    gold_fmt : Format
        The gold file's format.
    gold : ReadResult
        The gold file as read.
    path : str
        The file of model outputs.
    report, counts, outputs : bool
        What to compute: the report, the per-document counts, the raw outputs.

    Returns
    -------
    LLMSystem
    """
    from nerscore.analysis.significance.llm_units import aligned_counts_and_notes
    from nerscore.io.llm_records import read_llm_records
    from nerscore.scoring.llm import align_outputs, score_aligned

    keywords = llm.llm_keywords(args)
    # one --normalize: the alignment's, and the mention matcher's with it
    options = {k: v for k, v in opt.match_kwargs(args).items() if k != "normalize"}
    docs, tokens, _ = llm.gold_documents(args, gold_fmt, fm.reader_options(args, gold_fmt,
                                                                           "gold"), gold)
    fmt = fm.input_format(path, args.pred_format)
    encoding = fm.reader_options(args, fmt, "pred").get("encoding", "utf-8")
    records = read_llm_records(path, output_format=args.output_format or "auto",
                               encoding=encoding)
    aligned = align_outputs(docs, records, tokens=tokens, **keywords)
    scored = None
    if report:
        scored = score_aligned(aligned, match=args.match, token_units=tokens is not None,
                               beta=args.beta, zero_division=args.zero_division, **options)
    per_doc = None
    notes: tuple[str, ...] = ()
    if counts:
        per_doc, notes = aligned_counts_and_notes(aligned, match=args.match,
                                                  token_units=tokens is not None, **options)
    raw = raw_outputs(records, [str(d.id) for d in docs]) if outputs else {}
    return LLMSystem(scored, per_doc, aligned.summary, raw, notes)


def raw_outputs(records: Sequence[LLMRecord], ids: Sequence[str]) -> dict[str, str]:
    r"""The raw output of every record of a file of model outputs, by document id.

    A ``"mentions"`` record gives its mentions as JSON. Records without ids
    are paired with ``ids`` (the gold documents) by position, as scoring
    pairs them.

    Parameters
    ----------
    records : sequence of LLMRecord
        The file's records (:func:`nerscore.read_llm_records`).
    ids : sequence of str
        The gold document ids, in order.

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from nerscore.io.llm_records import read_llm_records
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "llm.jsonl"
    >>> _ = tmp.write_text('{"output": "LOC: Paris"}\n\n{"mentions": {"LOC": ["Lyon"]}}\n')
    >>> raw_outputs(read_llm_records(tmp), ["a", "b"])
    {'a': 'LOC: Paris', 'b': '{"LOC": ["Lyon"]}'}
    """
    if records and all(r.numbered for r in records):
        return dict(zip(ids, (r.parsed.raw for r in records), strict=False))
    return {r.id: r.parsed.raw for r in records}


def summary_notes(name: str, summary: LLMSummary) -> list[str]:
    """The summary's notes, each prefixed with the system's name.

    Parameters
    ----------
    name : str
        The system.
    summary : LLMSummary
        Its summary.

    Returns
    -------
    list of str
    """
    return [f"{name}: {n}" for n in summary.notes()]


def check_unit(args: argparse.Namespace, gold_fmt: Format, gold: ReadResult) -> None:
    """Refuse ``--unit sentence`` for span gold (its documents are the units).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of ``compare``.
    gold_fmt : Format
        The gold file's format.
    gold : ReadResult
        The gold file as read.

    Raises
    ------
    UsageError
        For ``--unit sentence`` with span gold.
    """
    spans = gold_fmt.kind_of(args.gold, fm.reader_options(args, gold_fmt, "gold")) == "spans"
    if getattr(args, "unit", "document") == "sentence" and spans:
        raise opt.UsageError("--unit sentence needs tag files; span files are resampled by "
                             "document")


def with_llm_summaries(result: Any, summaries: dict[str, LLMSummary],
                       more: Mapping[str, Sequence[str]] | None = None) -> Any:
    """A comparison with each model-output system's summary: notes and ``llm`` entry.

    Parameters
    ----------
    result : Comparison
        From :func:`nerscore.compare`.
    summaries : dict of str to LLMSummary
        By system name.
    more : mapping of str to sequence of str, optional
        Other notes of the systems (:attr:`LLMSystem.notes`), by name: each
        given after its system's summary, prefixed with its name.

    Returns
    -------
    Comparison
    """
    import dataclasses

    if not summaries:
        return result
    more = more or {}
    notes = [n for name, s in summaries.items()
             for n in (*summary_notes(name, s), *(f"{name}: {m}" for m in more.get(name, ())))]
    return dataclasses.replace(result, notes=(*notes, *result.notes),
                               llm={name: s.to_dict() for name, s in summaries.items()})
