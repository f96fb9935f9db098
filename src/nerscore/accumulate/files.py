"""Scoring files chunk by chunk, in memory that does not grow with the input.

Counts are mergeable (``Counts + Counts``), and so are confusion matrices
and error listings (records of consecutive chunks, renumbered): a corpus
can be read in chunks of whole sentences or documents, each chunk matched
on its own, and the results summed. :func:`score_files` does that for
CoNLL, JSON Lines and Parquet files and gives the report that
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
- BRAT folders (read whole);
- an input error of any kind, so that the error raised is the one of the
  in-memory reader, with its whole-file counts.

See ``docs/scale.md``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import tempfile
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from nerscore.analysis.confusion import ConfusionMatrix, confusion_from_report
from nerscore.analysis.errors import ErrorRecord, errors_from_report, errors_to_string, write_errors
from nerscore.decode.text_agreement import TextMismatches
from nerscore.errors import NerscoreError, TextMismatchWarning
from nerscore.io.chunks import (
    CHUNK_SIZE,
    NotStreamable,
    chunk_pairs,
    guess_format,
    pair_chunks,
    read_whole,
    slice_tags,
)
from nerscore.matching import get_matcher
from nerscore.scoring.metrics import build_report, evaluate, run_matcher
from nerscore.scoring.report import Report
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.ratios import check_beta, check_zero_division
from nerscore.values.schemes import Mode, Scheme

__all__ = [
    "CHUNK_SIZE",
    "ChunkScorer",
    "NotStreamable",
    "ShardResult",
    "StreamResult",
    "guess_format",
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
class ChunkScorer:
    """Scores aligned chunks one by one and sums everything :func:`~nerscore.evaluate` reports.

    Parameters
    ----------
    match, decoding, options, beta, zero_division, labels
        As for :func:`nerscore.evaluate` (``options``: the matcher options
        given, in the order given).
    confusion : bool
        Also sum the confusion matrix of every chunk.
    on_errors : callable, optional
        Called with the error records of every chunk (sequence numbers and
        order as in the listing of the whole input).

    Raises
    ------
    NotStreamable
        From :meth:`add`, when a chunk warns or notes something, or reports
        matcher details that differ from earlier chunks.

    Examples
    --------
    >>> from nerscore.values.decoding import Decoding
    >>> scorer = ChunkScorer("exact", Decoding(), {}, zero_division=0.0)
    >>> scorer.add([["B-PER", "O"]], [["B-PER", "O"]])
    >>> scorer.add([["B-LOC"]], [["O"]])
    >>> scorer.report().micro.recall, scorer.report().n_sequences
    (0.5, 2)
    """

    match: str
    decoding: Decoding
    options: Mapping[str, Any]
    beta: float = 1.0
    zero_division: Any = "warn"
    labels: Sequence[str] | None = None
    confusion: bool = False
    on_errors: Callable[[list[ErrorRecord]], None] | None = None
    counts: Counts = field(default_factory=Counts)
    n_sequences: int = 0
    n_tokens: int | None = None
    n_chunks: int = 0
    matrix: ConfusionMatrix | None = None
    _scheme: str | None = None
    _mode: str | None = None
    _extra: dict[str, Any] | None = None
    _resolved: dict[str, Any] = field(default_factory=dict)
    text_mismatches: TextMismatches = field(default_factory=TextMismatches)

    def __post_init__(self) -> None:
        self.beta = check_beta(self.beta)
        self.zero_division = check_zero_division(self.zero_division)
        matcher = get_matcher(self.match)
        self._resolved = matcher.resolve(self.options)
        if self._resolved.get("compat") == "kaggle":
            raise NotStreamable(
                "compat='kaggle' scores labels over the whole corpus, not as a sum of chunks")
        if (self.confusion or self.on_errors is not None) and not matcher.aligns:
            raise NotStreamable(f"match={self.match!r} has no alignment")

    def add(self, y_true: object, y_pred: object, *, texts: Sequence[Any] | None = None) -> None:
        """Score one chunk (both sides cover the same sentences or documents)."""
        matcher = get_matcher(self.match)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = run_matcher(y_true, y_pred, self.match, self.decoding, self._resolved,
                              align=matcher.aligns)
        caught = [w for w in caught if not issubclass(w.category, TextMismatchWarning)]
        if caught:
            raise NotStreamable(f"a chunk warned: {caught[0].message}")
        prep, res = run.prep, run.result
        extra = dict(res.extra)
        if prep.join_notes or extra.pop("notes", None):
            raise NotStreamable("a chunk has notes of its own")
        # differing texts add up over chunks: one note (and warning) for the whole input
        self.text_mismatches += prep.text_mismatches.shifted(self.n_sequences)
        if matcher.report_extra is not None:  # rebuilt from the summed counts at the end
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for key in matcher.report_extra(res.counts, self.zero_division):
                    extra.pop(key, None)
        if self.n_chunks == 0:
            self._scheme, self._mode, self._extra = prep.scheme, prep.mode, extra
        elif (prep.scheme, prep.mode) != (self._scheme, self._mode) or not _same(
                extra, self._extra or {}):
            raise NotStreamable("chunks report different matcher details")
        self.counts = self.counts + res.counts
        self.n_sequences += prep.n_sequences
        if prep.n_tokens is not None:
            self.n_tokens = (self.n_tokens or 0) + prep.n_tokens
        if self.confusion or self.on_errors is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                part = build_report(
                    res.counts, match=self.match, options=dict(self._resolved),
                    scheme=prep.scheme, mode=prep.mode, beta=self.beta,
                    zero_division=self.zero_division, n_sequences=prep.n_sequences,
                    n_tokens=prep.n_tokens, alignment=res.alignment, doc_ids=prep.doc_ids,
                    texts=prep.texts,
                )
            if self.confusion:
                cm = confusion_from_report(part)
                self.matrix = cm if self.matrix is None else self.matrix + cm
            if self.on_errors is not None:
                records = errors_from_report(part, texts=texts)
                offset = self.n_sequences - prep.n_sequences
                if offset:
                    records = [dataclasses.replace(r, sequence=r.sequence + offset)
                               for r in records]
                self.on_errors(records)
        self.n_chunks += 1

    def merge(self, other: ChunkScorer) -> None:
        """Add what ``other`` (same options, later inputs) has counted; its chunks come after ours.

        Raises
        ------
        NotStreamable
            When the two report different matcher details.
        """
        if other.n_chunks == 0:
            return
        if self.n_chunks and ((other._scheme, other._mode) != (self._scheme, self._mode)
                              or not _same(other._extra or {}, self._extra or {})):
            raise NotStreamable("shards report different matcher details")
        if self.n_chunks == 0:
            self._scheme, self._mode, self._extra = other._scheme, other._mode, other._extra
        self.counts = self.counts + other.counts
        self.text_mismatches += other.text_mismatches.shifted(self.n_sequences)
        self.n_sequences += other.n_sequences
        if other.n_tokens is not None:
            self.n_tokens = (self.n_tokens or 0) + other.n_tokens
        if other.matrix is not None:
            self.matrix = other.matrix if self.matrix is None else self.matrix + other.matrix
        self.n_chunks += other.n_chunks

    def report(self, notes: Sequence[str] = ()) -> Report:
        """The report of every chunk added, with ``notes`` after the scorer's own.

        Documents whose texts differ are the scorer's own note, and a
        :class:`~nerscore.errors.TextMismatchWarning`, as on the whole input.
        """
        if self.n_chunks == 0:
            raise NotStreamable("no chunk to score")
        self.text_mismatches.warn()
        if self.text_mismatches:
            notes = (self.text_mismatches.note(), *notes)
        return build_report(
            self.counts, match=self.match,
            options={k: self._resolved[k] for k in self.options}, scheme=self._scheme,
            mode=self._mode, beta=self.beta, zero_division=self.zero_division,
            labels=self.labels, n_sequences=self.n_sequences, n_tokens=self.n_tokens,
            extra=dict(self._extra or {}), notes=tuple(notes),
        )


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True


@dataclass
class ShardResult:
    """What :func:`score_shard` counted in one pair of files."""

    scorer: ChunkScorer
    notes: tuple[str, ...]
    token_notes: tuple[str, ...]
    errors: list[ErrorRecord] | None = None


def score_shard(
    gold: str | os.PathLike[str], pred: str | os.PathLike[str] | None, *,
    gold_format: str | None = None, pred_format: str | None = None,
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
    scorer = ChunkScorer(match, decoding or Decoding(), dict(options or {}), beta,
                         zero_division, labels, confusion, sink)
    inputs = chunk_pairs(g_path, p_path, fmts, one_file, chunk_size, dict(gold_options or {}),
                     dict(pred_options or {}), strict_tokens)
    for y_true, y_pred, texts in inputs.pairs:
        scorer.add(y_true, y_pred, texts=texts)
        done, total = inputs.position()
        if progress is not None and total:
            progress(done, total)
    scorer.on_errors = None
    return ShardResult(scorer, inputs.notes(), inputs.token_notes(), collected)


def stream_score(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    gold_format: str | None = None,
    pred_format: str | None = None,
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
        if scorer.n_chunks == 0:
            raise NotStreamable("the inputs are empty")
    except NerscoreError as exc:
        if sink is not None:
            sink.discard()
        raise NotStreamable(f"an input error ({exc})") from exc
    except BaseException:
        if sink is not None:
            sink.discard()
        raise
    report = scorer.report()
    if notes or file_notes:
        report = dataclasses.replace(report, notes=(*report.notes, *notes, *file_notes))
    n_errors = sink.commit() if sink is not None else None
    return StreamResult(report, scorer.matrix, n_errors, True, None, scorer.n_chunks,
                        token_notes)


def score_files(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    gold_format: str | None = None,
    pred_format: str | None = None,
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
    gold_format, pred_format : {"conll", "jsonl", "brat", "parquet"}, optional
        Default: from the file names.
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
        for Parquet, see :mod:`nerscore.io.parquet`).
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
    gold_format: str | None, pred_format: str | None, errors: str | os.PathLike[str] | None,
    confusion: bool, strict_tokens: bool, gold_options: dict[str, Any],
    pred_options: dict[str, Any], notes: Sequence[str], fallback: str | None,
    options: dict[str, Any],
) -> StreamResult:
    one_file = pred is None
    g_path = os.fspath(gold)
    p_path = g_path if pred is None else os.fspath(pred)
    g_fmt = guess_format(g_path, gold_format)
    p_fmt = guess_format(p_path, (pred_format or gold_format) if one_file else pred_format)
    texts = None
    aligned: tuple[str, ...] = ()
    if g_fmt == "conll" and p_fmt == "conll":
        from nerscore.io.conll import check_aligned, read_conll

        g = read_conll(g_path, **gold_options)
        p = read_conll(p_path, **pred_options)
        aligned = check_aligned(g, p, strict_tokens=strict_tokens)
        file_notes = g.notes() + (() if one_file else p.notes()) + aligned
        y_true: Any = g.tags
        y_pred: Any = p.tags
        if errors is not None:
            tokens = list(g.tokens)
            o = g.tags.offsets.tolist()
            texts = [tokens[a:b] for a, b in itertools.pairwise(o)]
    else:
        y_true, g_notes = read_whole(g_path, g_fmt, gold_options)
        y_pred, p_notes = read_whole(p_path, p_fmt, pred_options)
        file_notes = g_notes + p_notes
    report = evaluate(y_true, y_pred, **options)
    report = dataclasses.replace(report, notes=(*report.notes, *notes, *file_notes))
    cm = confusion_from_report(report) if confusion else None
    n_errors = None
    if errors is not None:
        records = errors_from_report(report, texts=texts)
        fmt = "csv" if os.fspath(errors).lower().endswith(".csv") else "jsonl"
        n_errors = write_errors(records, errors, format=fmt)
    return StreamResult(report, cm, n_errors, False, fallback, 0, aligned)
