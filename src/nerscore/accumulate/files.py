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
- span files that do not hold as many documents (read whole, they are
  joined by id: a missing document is a note, not an error);
- an input error whose wording for the whole files cannot be told chunk by
  chunk: the error of a reader that does not tell it for the whole file
  (a registered format without
  :attr:`~nerscore.io.formats.ChunkStream.file_error`), a CoNLL file whose
  later lines choose another column delimiter than its first ones (read
  whole, the delimiter is chosen for the whole file, which may then read
  without an error: the chunks already scored were read with the other
  one), or a scoring error the scorer does not know the stage of (of span
  documents, of the matcher).

Other input errors are raised as reading whole raises them, sentences
numbered as in the files (:attr:`~nerscore.EncodedTags.first`): reading
whole checks the files one stage after another (the readers, the format's
pair check, the scoring's checks of the shapes, the gold tags, the predicted
tags), so once a chunk has an error, the rest of the files is read chunk by
chunk, checked for the earlier stages only (:class:`~nerscore.io.chunks.FirstError`),
and the first error of the earliest stage is raised. A reader's error comes
before all of them: a CoNLL or JSON Lines reader reads on, without keeping
what it reads, to the file's first error as the whole-file reader raises it
(an encoding error late in a file comes before a line without a label, or a
malformed JSON line, early in it; :class:`~nerscore.io.conll.ConllChunks`,
:func:`~nerscore.io.jsonl.iter_jsonl`), a Parquet reader reads the batches
that the whole-file reader checks, and an error of the prediction's reader
is raised once gold has been read to its end without one (read whole, gold
is read first), and so is an ``OSError`` of the prediction in any format (a
file that cannot be opened or read).

See ``docs/scale.md``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from nerscore.accumulate.scorer import EntityScorer
from nerscore.errors import NerscoreError
from nerscore.io.atomic import AtomicFile
from nerscore.io.chunks import (
    CHUNK_SIZE,
    FirstError,
    NotStreamable,
    chunk_pairs,
    pair_chunks,
    slice_tags,
)
from nerscore.io.formats import Format, guess_format, pair_notes
from nerscore.scoring.metrics import evaluate
from nerscore.scoring.report import Report
from nerscore.values.decoding import Decoding

if TYPE_CHECKING:  # the analysis modules are imported when a run asks for them
    from nerscore.analysis.confusion import ConfusionMatrix
    from nerscore.analysis.errors import ErrorRecord
    from nerscore.values.tags import EncodedTags

__all__ = [
    "CHUNK_SIZE",
    "FileScoring",
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
        self.file = AtomicFile(self.path)
        self.fh: IO[bytes] = open(self.file.tmp, "wb")  # noqa: SIM115
        self.n = 0
        self.started = False

    def write(self, records: Sequence[ErrorRecord]) -> None:
        from nerscore.analysis.errors import ErrorTable

        try:  # the CSV header once
            ErrorTable.from_records(records).write_to(self.fh, self.format,
                                                      header=not self.started)
        except OSError as exc:  # a full disk: the error file's, not a reader's
            self.file.claim(exc)
            raise
        self.started = True
        self.n += len(records)

    def commit(self) -> int:
        try:
            if not self.started:  # no chunk at all: the in-memory writer's empty file
                from nerscore.analysis.errors import ErrorTable

                ErrorTable.from_records([]).write_to(self.fh, self.format)
            self.fh.close()
        except OSError as exc:
            self.discard()
            self.file.claim(exc)
            raise
        self.file.commit()
        return self.n

    def discard(self) -> None:
        with contextlib.suppress(OSError):  # what is still buffered is thrown away
            self.fh.close()
        self.file.discard()


@dataclass
class ShardResult:
    """What :func:`score_shard` counted in one pair of files."""

    scorer: EntityScorer
    notes: tuple[str, ...]
    token_notes: tuple[str, ...]
    errors: list[ErrorRecord] | None = None


@dataclass(frozen=True)
class FileScoring:
    """How a pair of files is read and scored: the one value every file scorer passes on.

    :func:`score_files` builds it from its keywords (:meth:`from_keywords`);
    streaming (:func:`stream_score`, :func:`score_shard`), the in-memory
    fallback and the Dask tasks (:mod:`nerscore.integrations.dask`) all take it.

    Attributes
    ----------
    gold_format, pred_format : str or Format, optional
        Default: guessed from the file names.
    chunk_size : int
        Most sentences or documents per chunk.
    strict_tokens : bool
        CoNLL and JSON Lines token records: a token that differs between the files is an error.
    gold_options, pred_options : mapping
        Reader options of each side.
    confusion : bool
        Also compute the entity confusion matrix.
    notes : tuple of str
        Notes to add before the readers' notes.
    match, decoding, options, beta, zero_division, labels
        How entities are decoded and matched (``options``: the matcher's).

    Examples
    --------
    >>> job = FileScoring.from_keywords(scheme="BIO", match="threshold", t=1, chunk_size=5)
    >>> job.decoding.scheme_name, job.match, dict(job.options), job.chunk_size
    ('IOB2', 'threshold', {'t': 1}, 5)
    """

    gold_format: str | Format | None = None
    pred_format: str | Format | None = None
    chunk_size: int = CHUNK_SIZE
    strict_tokens: bool = False
    gold_options: Mapping[str, Any] = field(default_factory=dict)
    pred_options: Mapping[str, Any] = field(default_factory=dict)
    confusion: bool = False
    notes: tuple[str, ...] = ()
    match: str = "exact"
    decoding: Decoding = field(default_factory=Decoding)
    options: Mapping[str, Any] = field(default_factory=dict)
    beta: float = 1.0
    zero_division: Any = "warn"
    labels: Sequence[str] | None = None

    def __post_init__(self) -> None:
        size = self.chunk_size
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"Expected `chunk_size` to be a positive integer; got {size!r}.")

    @classmethod
    def from_keywords(cls, **keywords: Any) -> FileScoring:
        """Split :func:`score_files`'s keywords: reading, decoding, scoring, matcher options."""
        rest = dict(keywords)
        decoding = Decoding(**{k: rest.pop(k) for k in _DECODING if k in rest})
        values = {f.name: rest.pop(f.name) for f in dataclasses.fields(cls)
                  if f.name in rest and f.name not in ("decoding", "options")}
        for side in ("gold_options", "pred_options"):
            values[side] = dict(values.get(side) or {})
        values["notes"] = tuple(values.get("notes", ()))
        return cls(decoding=decoding, options=rest, **values)

    def formats(self, gold: str, pred: str | None) -> tuple[Format, Format]:
        """The formats of both sides (``pred=None``: both sides are columns of ``gold``)."""
        if pred is None:
            return guess_format(gold, self.gold_format), guess_format(
                gold, self.pred_format or self.gold_format)
        return guess_format(gold, self.gold_format), guess_format(pred, self.pred_format)

    def scorer(self, on_errors: Callable[[Sequence[ErrorRecord]], None] | None = None,
               ) -> EntityScorer:
        """An empty accumulator with these options (``whole_input``: the files' report)."""
        return EntityScorer.with_decoding(
            self.decoding, match=self.match, options=self.options, beta=self.beta,
            zero_division=self.zero_division, labels=self.labels, confusion=self.confusion,
            on_errors=on_errors, whole_input=True)

    def evaluate_keywords(self) -> dict[str, Any]:
        """The keywords of :func:`nerscore.evaluate` on the whole files."""
        decoding = {k: getattr(self.decoding, k) for k in _DECODING}
        return {"match": self.match, "beta": self.beta, "zero_division": self.zero_division,
                "labels": self.labels, **decoding, **self.options}


_DECODING = ("scheme", "mode", "suffix", "delimiter", "outside")


def score_shard(
    gold: str | os.PathLike[str], pred: str | os.PathLike[str] | None, job: FileScoring, *,
    errors: bool | Callable[[Sequence[ErrorRecord]], None] = False,
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
        As :func:`stream_score`.
    NerscoreError
        An input error, as :func:`stream_score` raises it; one that
        :func:`stream_score` leaves to reading the files whole is raised as
        the chunk's reader or scorer raised it.
    """
    try:
        return _score_chunks(gold, pred, job, errors, progress, None)
    except _ReadWhole as exc:
        raise exc.error from None


class _ReadWhole(Exception):  # a way out, not an error of its own
    """An input error whose wording for the whole files needs them read whole."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


#: The stages of the scoring's checks of tag inputs, in the order reading whole runs them
#: (:func:`nerscore.decode.inputs.prepare`): the shapes of both sides, the gold tags decoded,
#: then the predicted tags (the format's pair check and the readers come before all three).
_SHAPE, _GOLD, _PRED, _NONE = 1, 2, 3, 4


def _tag_error(y_true: object, y_pred: object, decoding: Decoding,
               below: int = _NONE) -> tuple[int, NerscoreError] | None:
    """The first error of the scoring's checks of stages below ``below`` on a chunk of tags.

    Raises
    ------
    NotStreamable
        Where the checks warn: reading whole, the warning would come before the error.
    """
    from nerscore.errors import caught_warnings
    from nerscore.values.tags import EncodedTags

    if not (isinstance(y_true, EncodedTags) and isinstance(y_pred, EncodedTags)):
        return None
    with caught_warnings() as caught:
        found = _first_tag_error(y_true, y_pred, decoding, below)
    if caught:
        raise NotStreamable(f"a chunk warned: {caught[0].message}")
    return found


def _first_tag_error(y_true: EncodedTags, y_pred: EncodedTags, decoding: Decoding,
                     below: int) -> tuple[int, NerscoreError] | None:
    from nerscore.decode.entities import decode
    from nerscore.values.tag_input import encode_pair

    try:
        t, p = encode_pair(y_true, y_pred)
    except NerscoreError as exc:
        return _SHAPE, exc
    for stage, side in ((_GOLD, t), (_PRED, p)):
        if stage >= below or (stage == _PRED and p is t):
            break
        try:
            decode(side, decoding)
        except NerscoreError as exc:
            return stage, exc
    return None


def _score_chunks(
    gold: str | os.PathLike[str], pred: str | os.PathLike[str] | None, job: FileScoring,
    errors: bool | Callable[[Sequence[ErrorRecord]], None],
    progress: Callable[[int, int], None] | None,
    before_error: Callable[[tuple[str, ...]], None] | None,
) -> ShardResult:
    """:func:`score_shard`; an input error that needs the files read whole raises :class:`_ReadWhole`."""
    g_path = os.fspath(gold)
    p_path = None if pred is None else os.fspath(pred)
    collected: list[ErrorRecord] | None = None
    sink: Callable[[Sequence[ErrorRecord]], None] | None = None
    if callable(errors):
        sink = errors
    elif errors:
        collected = []
        sink = collected.extend
    try:  # errors of the options and of opening the files come before any reading
        fmts = job.formats(g_path, p_path)
        scorer = job.scorer(sink)
        inputs = chunk_pairs(g_path, g_path if p_path is None else p_path, fmts,
                             p_path is None, job.chunk_size, job.gold_options,
                             job.pred_options, job.strict_tokens)
    except NerscoreError as exc:
        raise _ReadWhole(exc) from exc
    found = inputs.errors
    try:
        for y_true, y_pred, texts in inputs.pairs:
            if not found.found:
                try:
                    scorer.update(y_true, y_pred, texts=texts)
                except NerscoreError as exc:
                    _scoring_failed(found, exc, y_true, y_pred, job.decoding)
            elif found.wants(_SHAPE):  # an earlier stage in a later chunk comes first
                earlier = _tag_error(y_true, y_pred, job.decoding, found.stage or _NONE)
                if earlier is not None:
                    found.failed(*earlier)
            if found.unresolved is not None:
                break
            done, total = inputs.position()
            if progress is not None and total:
                progress(done, total)
    except NerscoreError as exc:  # a reader's
        if found.is_file_error(exc):  # the first of the whole files (see FirstError)
            raise
        raise _ReadWhole(exc) from exc
    if found.unresolved is not None:
        raise _ReadWhole(found.unresolved)
    error = found.error()
    if error is not None:
        if before_error is not None and found.in_scoring():
            before_error(inputs.token_notes())
        raise error
    scorer.on_errors = None
    return ShardResult(scorer, inputs.notes(), inputs.token_notes(), collected)


def _scoring_failed(found: FirstError, exc: NerscoreError, y_true: object, y_pred: object,
                    decoding: Decoding) -> None:
    """Keep a chunk's scoring error with its stage; where its stage is unknown, the files are read whole."""
    known = _tag_error(y_true, y_pred, decoding)
    if known is not None and type(known[1]) is type(exc) and str(known[1]) == str(exc):
        found.failed(known[0], exc)
    else:
        found.unresolved = exc


def stream_score(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None,
    job: FileScoring,
    *,
    errors: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    before_error: Callable[[tuple[str, ...]], None] | None = None,
) -> StreamResult:
    """:func:`score_files`, chunk by chunk only: raises :class:`NotStreamable` instead of reading whole.

    An input error is raised as reading the files whole raises it, named
    by the files' sentence numbers: once a chunk has one, the rest of the
    files is read chunk by chunk (not scored) for an error that reading
    whole finds first (a reader's, the pair check, an earlier stage of the
    scoring's checks), and the first of them is raised. Where the error
    cannot be worded as for the whole files chunk by chunk (see the module
    documentation), it raises :class:`NotStreamable` instead.
    ``before_error(notes)`` is called before raising an error of the
    scoring (which reading whole raises after comparing the files), with
    the pair check's notes on the whole files (CoNLL: differing tokens).

    Nothing is written when it raises (the error file is written to a
    temporary file and moved in place at the end).
    """
    sink = _ErrorSink(errors) if errors is not None else None
    try:
        shard = _score_chunks(gold, pred, job, False if sink is None else sink.write, progress,
                              before_error)
        scorer, file_notes, token_notes = shard.scorer, shard.notes, shard.token_notes
        if scorer.n_batches == 0:
            raise NotStreamable("the inputs are empty")
    except _ReadWhole as exc:
        if sink is not None:
            sink.discard()
        raise NotStreamable(f"an input error ({exc.error})") from exc.error
    except BaseException:
        if sink is not None:
            sink.discard()
        raise
    report = scorer.compute()
    if job.notes or file_notes:
        report = dataclasses.replace(report, notes=(*report.notes, *job.notes, *file_notes))
    n_errors = sink.commit() if sink is not None else None
    return StreamResult(report, scorer.confusion, n_errors, True, None, scorer.n_batches,
                        token_notes)


def score_files(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    errors: str | os.PathLike[str] | None = None,
    stream: bool = True,
    **options: Any,
) -> StreamResult:
    r"""Score a prediction file against a gold file, chunk by chunk where that gives the same result.

    The files are read in chunks of at most ``chunk_size`` sentences
    (CoNLL, Parquet tag columns, JSON Lines token records) or documents
    (JSON Lines, Parquet span columns); each chunk is matched on its own and counts, confusion matrix
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
        CoNLL and JSON Lines token records: a token that differs between the files is an error.
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
    job = FileScoring.from_keywords(**options)
    fallback: str | None = "stream=False"
    if stream:
        try:
            return stream_score(gold, pred, job, errors=errors)
        except NotStreamable as exc:
            fallback = exc.reason
    return _in_memory(gold, pred, job, errors, fallback)


def _in_memory(gold: str | os.PathLike[str], pred: str | os.PathLike[str] | None,
               job: FileScoring, errors: str | os.PathLike[str] | None,
               fallback: str | None) -> StreamResult:
    one_file = pred is None
    g_path = os.fspath(gold)
    p_path = g_path if pred is None else os.fspath(pred)
    g_fmt, p_fmt = job.formats(g_path, None if pred is None else p_path)
    g = g_fmt.load(g_path, job.gold_options)
    p = p_fmt.load(p_path, job.pred_options)
    aligned = pair_notes(g, p, strict_tokens=job.strict_tokens)
    file_notes = g.notes + (() if one_file else p.notes) + aligned
    report = evaluate(g.data, p.data, **job.evaluate_keywords())
    report = dataclasses.replace(report, notes=(*report.notes, *job.notes, *file_notes))
    cm = None
    if job.confusion:
        from nerscore.analysis.confusion import confusion_from_report

        cm = confusion_from_report(report)
    n_errors = None
    if errors is not None:
        from nerscore.analysis.errors import error_table, write_errors

        records = error_table(report, texts=g.texts())
        fmt = "csv" if os.fspath(errors).lower().endswith(".csv") else "jsonl"
        n_errors = write_errors(records, errors, format=fmt)
    return StreamResult(report, cm, n_errors, False, fallback, 0, aligned)
