"""Scoring sharded corpora on a Dask cluster (needs ``pip install nerscore[dask]``).

Counts are mergeable, so a sharded corpus is scored as map-then-sum: every
shard (a pair of gold and prediction files, or a partition of a bag) is
scored by one task, chunk by chunk (:func:`nerscore.accumulate.files.score_shard`),
and the client adds up the counts, confusion matrices and error records in
shard order; nothing is shuffled. The result equals scoring the shards one
after another in one process: counts, sequence numbers of error records
(numbered across shards, in shard order) and the notes of every shard, in
shard order.

Shards must each be streamable (see :mod:`nerscore.accumulate.files`); otherwise
:class:`~nerscore.accumulate.files.NotStreamable` is raised with the reason.
"""

from __future__ import annotations

import dataclasses
import glob
import logging
import os
from collections.abc import Iterable, Sequence
from typing import Any

from nerscore.accumulate.files import (
    FileScoring,
    NotStreamable,
    ShardResult,
    StreamResult,
    score_shard,
)
from nerscore.analysis.errors import ErrorRecord, write_errors
from nerscore.errors import NerscoreError, require

__all__ = ["expand_shards", "score_bag", "score_cli", "score_files"]



def expand_shards(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """Shard files of ``path``: a list of files, a glob pattern, a folder (its files, sorted) or a file.

    Examples
    --------
    >>> expand_shards(["b.conll", "a.conll"])
    ['b.conll', 'a.conll']
    """
    if not isinstance(path, (str, os.PathLike)):
        return [os.fspath(p) for p in path]
    p = os.fspath(path)
    if os.path.isdir(p):
        return sorted(os.path.join(p, f) for f in os.listdir(p)
                      if os.path.isfile(os.path.join(p, f)) and not f.startswith("."))
    if any(c in p for c in "*?["):
        return sorted(glob.glob(p))
    return [p]


def _client(client: Any, workers: int, scheduler: str | None) -> tuple[Any, Any]:
    """``(client, cluster)``: the given client, or one for ``scheduler`` or a local cluster."""
    require("dask.distributed", extra="dask")
    from dask.distributed import Client, LocalCluster

    if client is not None:
        return client, None
    if scheduler is not None:
        return Client(scheduler), None  # type: ignore[no-untyped-call]
    # The cluster is this call's own: its processes' logs (a worker's heartbeat that fails
    # with a traceback while a loaded machine shuts the cluster down, an event loop that was
    # slow) are not the user's business; what fails a task reaches the client and is raised.
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=max(workers, 1), threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address="127.0.0.1:0",  # its HTTP server on a free local port, not 8787
        silence_logs=logging.CRITICAL)
    return Client(cluster), cluster  # type: ignore[no-untyped-call]


@dataclasses.dataclass(frozen=True)
class _InputError:
    """An input error of a task, as it travels to the client: its class, arguments and attributes.

    Sent as the task's result rather than raised, it is reported once, as
    nerscore reports it, and not also in the worker's log of a failed task.
    (Its fields, not the exception, are pickled: most errors take keyword
    arguments that pickling an exception does not keep.)
    """

    kind: type[NerscoreError]
    args: tuple[Any, ...]
    attrs: dict[str, Any]

    def error(self) -> NerscoreError:
        """The error again, on the client.

        Examples
        --------
        >>> from nerscore.errors import LengthMismatchError
        >>> exc = LengthMismatchError.of_counts("g.conll", 1, "p.conll", 2)
        >>> again = _InputError(type(exc), exc.args, vars(exc)).error()
        >>> type(again).__name__, str(again) == str(exc), again.actual
        ('LengthMismatchError', True, 2)
        """
        exc = self.kind.__new__(self.kind, *self.args)
        exc.args = self.args
        vars(exc).update(self.attrs)
        return exc


def _shard_task(gold: str, pred: str | None, job: FileScoring,
                errors: bool) -> ShardResult | _InputError:
    """:func:`score_shard` on a worker; an input error is returned (:class:`_InputError`), not raised."""
    try:
        return score_shard(gold, pred, job, errors=errors)
    except NerscoreError as exc:
        return _InputError(type(exc), exc.args, dict(vars(exc)))


def _shard_results(results: Sequence[ShardResult | _InputError]) -> list[ShardResult]:
    """The results of the tasks, or the input error of the first shard that has one, raised."""
    for r in results:
        if isinstance(r, _InputError):
            raise r.error()
    return [r for r in results if not isinstance(r, _InputError)]


def _combine(results: Sequence[ShardResult], job: FileScoring,
             errors: str | os.PathLike[str] | None) -> StreamResult:
    total = job.scorer()
    records: list[ErrorRecord] = []
    for shard in results:
        offset = total.n_sequences
        if shard.errors is not None:
            records.extend(dataclasses.replace(r, sequence=r.sequence + offset) if offset else r
                           for r in shard.errors)
        total.merge(shard.scorer)
    file_notes = tuple(n for shard in results for n in shard.notes)
    token_notes = tuple(n for shard in results for n in shard.token_notes)
    report = total.compute()
    report = dataclasses.replace(report, notes=(*report.notes, *job.notes, *file_notes))
    n_errors = None
    if errors is not None:
        fmt = "csv" if os.fspath(errors).lower().endswith(".csv") else "jsonl"
        n_errors = write_errors(records, errors, format=fmt)
    return StreamResult(report, total.confusion, n_errors, True, None, total.n_batches,
                        token_notes)


def score_files(
    gold: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    pred: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None,
    *,
    client: Any = None,
    errors: str | os.PathLike[str] | None = None,
    **options: Any,
) -> StreamResult:
    """Score sharded files on a Dask cluster: one task per pair of shards, counts summed.

    Parameters
    ----------
    gold, pred : list of paths, glob pattern, folder or file
        The shards, paired in order (a folder's files sorted by name);
        ``pred=None`` reads both sides from each gold shard (two label
        columns, see :func:`nerscore.score_files`).
    client : dask.distributed.Client, optional
        Where to run; default: the current default client
        (``dask.distributed.get_client()``).
    errors, **options
        As for :func:`nerscore.score_files` (``gold_format``, ``chunk_size``,
        ``confusion``, ``gold_options``, ..., and the scoring options); every shard is read chunk by
        chunk on its worker, in the format named or guessed on the client
        (the :class:`~nerscore.io.formats.Format` record travels with the
        task, so a format registered in the client's process is read on
        every worker). Error records are gathered on the client and written
        in shard order.

    Returns
    -------
    StreamResult

    Raises
    ------
    NotStreamable
        When a shard cannot be scored chunk by chunk.
    """
    g = expand_shards(gold)
    p: list[str | None] = [None] * len(g) if pred is None else list(expand_shards(pred))
    if len(g) != len(p):
        raise ValueError(f"Expected as many prediction shards as gold shards; got {len(p)} "
                         f"and {len(g)}.")
    if not g:
        raise ValueError("No shards to score.")
    if client is None:
        require("dask.distributed", extra="dask")
        from dask.distributed import get_client

        client = get_client()
    job = FileScoring.from_keywords(**options)
    job.scorer()  # checks the options before any task starts
    futures = [
        client.submit(_shard_task, gs, ps,
                      dataclasses.replace(job, gold_format=gf, pred_format=pf),
                      errors is not None, pure=False)
        for gs, ps, (gf, pf) in zip(g, p, [job.formats(gs, ps) for gs, ps in zip(g, p,
                                                                                  strict=True)],
                                    strict=True)
    ]
    results = _shard_results(client.gather(futures))
    return _combine(results, job, errors)


def score_cli(
    gold: str, pred: str | None, *, workers: int = 0, scheduler: str | None = None,
    **kwargs: Any,
) -> StreamResult:
    """:func:`score_files` on a cluster of its own (``workers`` local processes on 127.0.0.1) or at ``scheduler``.

    The cluster is closed before returning.
    """
    client, cluster = _client(None, workers, scheduler)
    try:
        return score_files(gold, pred, client=client, **kwargs)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _score_partition(pairs: Iterable[tuple[Any, Any]], job: FileScoring,
                     errors: bool) -> list[ShardResult]:
    records: list[Any] | None = [] if errors else None
    scorer = job.scorer(None if records is None else records.extend)
    for y_true, y_pred in pairs:
        scorer.update(y_true, y_pred)
    scorer.on_errors = None
    return [ShardResult(scorer, (), (), records)]


def score_bag(
    bag: Any, *, errors: str | os.PathLike[str] | None = None, **options: Any,
) -> StreamResult:
    """Score a :class:`dask.bag.Bag` of ``(y_true, y_pred)`` batches: map per partition, then sum.

    Each element is one batch as any scorer takes it (tag sequences,
    :class:`~nerscore.EncodedTags`, span documents). The result equals
    :class:`nerscore.EntityScorer` (``whole_input=True``) fed the batches in order.

    Parameters
    ----------
    bag : dask.bag.Bag
        The batches, in order.
    errors, **options
        As for :func:`score_files` (``confusion``, ``notes`` and the scoring options).

    Returns
    -------
    StreamResult

    Raises
    ------
    NotStreamable
        When a batch warns or notes something of its own.
    """
    job = FileScoring.from_keywords(**options)
    job.scorer()  # checks the options before any task starts
    parts = bag.map_partitions(_score_partition, job, errors is not None).compute()
    if not parts:
        raise NotStreamable("the bag is empty")
    return _combine(parts, job, errors)
