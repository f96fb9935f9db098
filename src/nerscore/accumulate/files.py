"""Scoring files chunk by chunk, in memory that does not grow with the input.

Counts are mergeable (``Counts + Counts``), and so are confusion matrices
and error listings (records of consecutive chunks, renumbered): a corpus
can be read in chunks of whole sentences or documents, each chunk matched
on its own, and the results summed. :func:`score_files` does that for
files of any format of :mod:`nerscore.io.formats` with a chunked reader
(CoNLL, JSON Lines, Parquet) and gives the report that
:func:`nerscore.evaluate` gives on the whole files, number for number and
note for note.

A chunk is scored on its own, so whatever a matcher or a reader reports
about the whole input must be the sum of what it reports about the chunks.
When a chunk does not allow this, :func:`stream_score` raises
:class:`NotStreamable` and :func:`score_files` scores the files in memory
instead (``StreamResult.fallback`` says why):

- a chunk that warns or notes something (``mode="conlleval"`` merging
  chunks, overlap merges, ...): the message would count one chunk only.
  Documents whose texts differ are the exception: the check
  (:mod:`nerscore.decode.text_agreement`) adds up over chunks, and the
  report gets the note and the warning of the whole input;
- ``compat="kaggle"`` (its score is not a sum over documents);
- span files whose documents are not listed in the same order on both
  sides (they are joined by id; in order, each chunk joins on its own);
- formats read whole (BRAT folders), and tags against spans;
- an input error of any kind, so that the error raised is the one of the
  in-memory reader, with its whole-file counts.

See ``docs/scale.md``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from nerscore.accumulate.scorer import EntityScorer
from nerscore.analysis.confusion import ConfusionMatrix, confusion_from_report
from nerscore.analysis.errors import ErrorRecord, errors_from_report, errors_to_string, write_errors
from nerscore.errors import NerscoreError
from nerscore.io.chunks import (
    CHUNK_SIZE,
    NotStreamable,
    chunk_pairs,
    pair_chunks,
    slice_tags,
)
from nerscore.io.formats import Format, guess_format, pair_notes
from nerscore.scoring.metrics import evaluate
from nerscore.scoring.report import Report
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Mode, Scheme

__all__ = [
    "CHUNK_SIZE",
    "NotStreamable",
    "ShardResult",
    "StreamResult",
    "pair_chunks",
    "score_files",
    "score_shard",
    "slice_tags",
    "stream_score",
]

#: Sentences (or documents) per chunk unless told otherwise.
@dataclass(frozen=True)
class StreamResult:
    """What :func:`score_files` produced.

    Attributes
    ----------
    report : Report
        The report :func:`nerscore.evaluate` gives on the whole files, with
        the readers' notes.
    confusion : ConfusionMatrix or None
        The summed confusion matrix (``confusion=True``).
    n_errors : int or None
        Error records written (``errors=PATH``).
    streamed : bool
        Whether the files were scored chunk by chunk.
    fallback : str or None
        Why they were read whole instead.
    n_chunks : int
        Chunks scored (0 in memory).
    token_notes : tuple of str
        CoNLL: the notes on token strings that differ between the files
        (also among the report's notes).
    """

    report: Report
    confusion: ConfusionMatrix | None = None
    n_errors: int | None = None
    streamed: bool = True
    fallback: str | None = None
    n_chunks: int = 0
    token_notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------- chunk scoring


class _ErrorSink:
    """Error records written chunk by chunk to a temporary file, moved in place at the end."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.format = "csv" if self.path.lower().endswith(".csv") else "jsonl"
        folder = os.path.dirname(os.path.abspath(self.path))
        fd, self.tmp = tempfile.mkstemp(prefix=".nerscore-", suffix=".partial", dir=folder)
        self.fh: IO[str] = os.fdopen(fd, "w", encoding="utf-8", newline="")
        self.n = 0
        self.started = False

    def write(self, records: Sequence[ErrorRecord]) -> None:
        text = errors_to_string(records, format=self.format)
        if self.format == "csv" and self.started:  # the header once
            text = text.split("\n", 1)[1] if "\n" in text else ""
        self.started = True
        self.fh.write(text)
        self.n += len(records)

    def commit(self) -> int:
        if not self.started:  # no chunk at all: the in-memory writer's empty file
            write_errors([], self.fh, format=self.format)
        self.fh.close()
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(self.tmp, 0o666 & ~mask)  # as open() would have created it
        os.replace(self.tmp, self.path)
        return self.n

    def discard(self) -> None:
        self.fh.close()
        with contextlib.suppress(OSError):
            os.remove(self.tmp)


@dataclass
class ShardResult:
    """What :func:`score_shard` counted in one pair of files."""

    scorer: EntityScorer
    notes: tuple[str, ...]
    token_notes: tuple[str, ...]
    errors: list[ErrorRecord] | None = None


def score_shard(
    gold: str | os.PathLike[str], pred: str | os.PathLike[str] | None, *,
    gold_format: str | Format | None = None, pred_format: str | Format | None = None,
    chunk_size: int = CHUNK_SIZE, strict_tokens: bool = False,
    gold_options: Mapping[str, Any] | None = None,
    pred_options: Mapping[str, Any] | None = None,
    confusion: bool = False, errors: bool | Callable[[list[ErrorRecord]], None] = False,
    match: str = "exact", decoding: Decoding | None = None, options: Mapping[str, Any] | None = None,
    beta: float = 1.0, zero_division: Any = "warn", labels: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ShardResult:
    """Score one pair of files chunk by chunk (the work of one task on a cluster).

    ``errors=True`` collects the error records (numbered within the pair);
    a callable receives them chunk by chunk instead. ``progress(done, total)``
    is called after each chunk with the bytes of a CoNLL gold file read so far
    and its size.

    Raises
    ------
    NotStreamable
        As :func:`stream_score`; input errors are raised as they are.
    """
    one_file = pred is None
    g_path = os.fspath(gold)
    p_path = g_path if pred is None else os.fspath(pred)
    fmts = (guess_format(g_path, gold_format),
            guess_format(p_path, (pred_format or gold_format) if one_file else pred_format))
    collected: list[ErrorRecord] | None = None
    sink: Callable[[list[ErrorRecord]], None] | None = None
    if callable(errors):
        sink = errors
    elif errors:
        collected = []
        sink = collected.extend
    scorer = EntityScorer.with_decoding(
        decoding or Decoding(), match=match, options=options, beta=beta,
        zero_division=zero_division, labels=labels, confusion=confusion, on_errors=sink,
        whole_input=True)
    inputs = chunk_pairs(g_path, p_path, fmts, one_file, chunk_size, dict(gold_options or {}),
                     dict(pred_options or {}), strict_tokens)
    for y_true, y_pred, texts in inputs.pairs:
        scorer.update(y_true, y_pred, texts=texts)
        done, total = inputs.position()
        if progress is not None and total:
            progress(done, total)
    scorer.on_errors = None
    return ShardResult(scorer, inputs.notes(), inputs.token_notes(), collected)


def stream_score(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    gold_format: str | Format | None = None,
    pred_format: str | Format | None = None,
    chunk_size: int = CHUNK_SIZE,
    errors: str | os.PathLike[str] | None = None,
    confusion: bool = False,
    strict_tokens: bool = False,
    gold_options: Mapping[str, Any] | None = None,
    pred_options: Mapping[str, Any] | None = None,
    notes: Sequence[str] = (),
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    beta: float = 1.0,
    zero_division: Any = "warn",
    labels: Sequence[str] | None = None,
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> StreamResult:
    """:func:`score_files`, chunk by chunk only: raises :class:`NotStreamable` instead of reading whole.

    Nothing is written when it raises (the error file is written to a
    temporary file and moved in place at the end).
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"Expected `chunk_size` to be a positive integer; got {chunk_size!r}.")
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    sink = _ErrorSink(errors) if errors is not None else None
    try:
        shard = score_shard(
            gold, pred, gold_format=gold_format, pred_format=pred_format,
            chunk_size=chunk_size, strict_tokens=strict_tokens, gold_options=gold_options,
            pred_options=pred_options, confusion=confusion,
            errors=False if sink is None else sink.write, match=match, decoding=decoding,
            options=options, beta=beta, zero_division=zero_division, labels=labels,
            progress=progress,
        )
        scorer, file_notes, token_notes = shard.scorer, shard.notes, shard.token_notes
        if scorer.n_batches == 0:
            raise NotStreamable("the inputs are empty")
    except NerscoreError as exc:
        if sink is not None:
            sink.discard()
        raise NotStreamable(f"an input error ({exc})") from exc
    except BaseException:
        if sink is not None:
            sink.discard()
        raise
    report = scorer.compute()
    if notes or file_notes:
        report = dataclasses.replace(report, notes=(*report.notes, *notes, *file_notes))
    n_errors = sink.commit() if sink is not None else None
    return StreamResult(report, scorer.confusion, n_errors, True, None, scorer.n_batches,
                        token_notes)


def score_files(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    gold_format: str | Format | None = None,
    pred_format: str | Format | None = None,
    chunk_size: int = CHUNK_SIZE,
    errors: str | os.PathLike[str] | None = None,
    confusion: bool = False,
    strict_tokens: bool = False,
    gold_options: Mapping[str, Any] | None = None,
    pred_options: Mapping[str, Any] | None = None,
    notes: Sequence[str] = (),
    stream: bool = True,
    **options: Any,
) -> StreamResult:
    r"""Score a prediction file against a gold file, chunk by chunk where that gives the same result.

    The files are read in chunks of at most ``chunk_size`` sentences
    (CoNLL, Parquet tag columns) or documents (JSON Lines, Parquet span
    columns); each chunk is matched on its own and counts, confusion matrix
    and error records are summed, so memory does not grow with the input.
    The report equals :func:`nerscore.evaluate` on the whole files plus the
    readers' notes, as ``nerscore score`` prints it. Where chunks cannot
    give that (see the module documentation) the files are read whole.

    Parameters
    ----------
    gold, pred : path
        The files; ``pred=None`` reads both sides from two label columns of
        ``gold`` (``gold_options={"label_column": -2}``,
        ``pred_options={"label_column": -1}``).
    gold_format, pred_format : str or Format, optional
        ``"conll"``, ``"jsonl"``, ``"brat"``, ``"parquet"`` or a format
        registered by another package (:mod:`nerscore.io.formats`); default:
        from the file names.
    chunk_size : int
        Most sentences or documents per chunk.
    errors : path, optional
        Write every entity error there (``.jsonl`` or ``.csv``).
    confusion : bool
        Also compute the entity confusion matrix.
    strict_tokens : bool
        CoNLL: a token that differs between the files is an error.
    gold_options, pred_options : mapping, optional
        Reader options of each side (e.g. ``label_column``, ``encoding``,
        ``comments`` for CoNLL; ``encoding`` for JSON Lines; the column names
        for Parquet, see :mod:`nerscore.io.parquet`): those its format's
        readers take (``Format.options``).
    notes : sequence of str
        Notes to add before the readers' notes.
    stream : bool
        False reads the files whole.
    **options
        :func:`nerscore.evaluate`'s options: ``match``, ``scheme``, ``mode``,
        ``beta``, ``zero_division``, ``labels``, ``suffix``, ``delimiter``,
        ``outside`` and the matcher's options.

    Returns
    -------
    StreamResult
        ``.report``, and ``.confusion``/``.n_errors`` when asked for.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "g.conll").write_text("Ann B-PER\nleft O\n\nBo B-PER\n")
    >>> _ = (tmp / "p.conll").write_text("Ann B-PER\nleft O\n\nBo O\n")
    >>> res = score_files(tmp / "g.conll", tmp / "p.conll", chunk_size=1, zero_division=0)
    >>> res.report.micro.recall, res.streamed, res.n_chunks
    (0.5, True, 2)
    """
    fallback: str | None = "stream=False"
    if stream:
        try:
            return stream_score(gold, pred, gold_format=gold_format, pred_format=pred_format,
                                chunk_size=chunk_size, errors=errors, confusion=confusion,
                                strict_tokens=strict_tokens, gold_options=gold_options,
                                pred_options=pred_options, notes=notes, **options)
        except NotStreamable as exc:
            fallback = exc.reason
    return _in_memory(gold, pred, gold_format, pred_format, errors, confusion, strict_tokens,
                      dict(gold_options or {}), dict(pred_options or {}), notes, fallback,
                      options)


def _in_memory(
    gold: str | os.PathLike[str], pred: str | os.PathLike[str] | None,
    gold_format: str | Format | None, pred_format: str | Format | None,
    errors: str | os.PathLike[str] | None, confusion: bool, strict_tokens: bool,
    gold_options: dict[str, Any], pred_options: dict[str, Any], notes: Sequence[str],
    fallback: str | None, options: dict[str, Any],
) -> StreamResult:
    one_file = pred is None
    g_path = os.fspath(gold)
    p_path = g_path if pred is None else os.fspath(pred)
    g_fmt = guess_format(g_path, gold_format)
    p_fmt = guess_format(p_path, (pred_format or gold_format) if one_file else pred_format)
    g = g_fmt.load(g_path, gold_options)
    p = p_fmt.load(p_path, pred_options)
    aligned = pair_notes(g, p, strict_tokens=strict_tokens)
    file_notes = g.notes + (() if one_file else p.notes) + aligned
    report = evaluate(g.data, p.data, **options)
    report = dataclasses.replace(report, notes=(*report.notes, *notes, *file_notes))
    cm = confusion_from_report(report) if confusion else None
    n_errors = None
    if errors is not None:
        records = errors_from_report(report, texts=g.texts())
        fmt = "csv" if os.fspath(errors).lower().endswith(".csv") else "jsonl"
        n_errors = write_errors(records, errors, format=fmt)
    return StreamResult(report, cm, n_errors, False, fallback, 0, aligned)
