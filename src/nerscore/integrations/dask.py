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
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from nerscore.accumulate.files import (
    CHUNK_SIZE,
    NotStreamable,
    ShardResult,
    StreamResult,
    score_shard,
)
from nerscore.accumulate.scorer import EntityScorer
from nerscore.analysis.errors import ErrorRecord, write_errors
from nerscore.errors import require
from nerscore.io.formats import Format, guess_format
from nerscore.values.decoding import Decoding

__all__ = ["expand_shards", "score_bag", "score_cli", "score_files"]

_DECODING = ("scheme", "mode", "suffix", "delimiter", "outside")
_SCORING = ("beta", "zero_division", "labels")


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


def _split(options: Mapping[str, Any]) -> tuple[str, Decoding, dict[str, Any], dict[str, Any]]:
    rest = dict(options)
    match = rest.pop("match", "exact")
    decoding = Decoding(**{k: rest.pop(k) for k in _DECODING if k in rest})
    scoring = {k: rest.pop(k) for k in _SCORING if k in rest}
    return match, decoding, scoring, rest


def _client(client: Any, workers: int, scheduler: str | None) -> tuple[Any, Any]:
    """``(client, cluster)``: the given client, or one for ``scheduler`` or a local cluster."""
    require("dask.distributed", extra="dask")
    from dask.distributed import Client, LocalCluster

    if client is not None:
        return client, None
    if scheduler is not None:
        return Client(scheduler), None  # type: ignore[no-untyped-call]
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=max(workers, 1), threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None)
    return Client(cluster), cluster  # type: ignore[no-untyped-call]


def _combine(results: Sequence[ShardResult], match: str, decoding: Decoding,
             options: Mapping[str, Any], scoring: Mapping[str, Any], confusion: bool,
             errors: str | os.PathLike[str] | None, notes: Sequence[str]) -> StreamResult:
    total = EntityScorer.with_decoding(decoding, match=match, options=options,
                                       confusion=confusion, whole_input=True, **scoring)
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
    report = dataclasses.replace(report, notes=(*report.notes, *notes, *file_notes))
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
    gold_format: str | Format | None = None,
    pred_format: str | Format | None = None,
    chunk_size: int = CHUNK_SIZE,
    errors: str | os.PathLike[str] | None = None,
    confusion: bool = False,
    strict_tokens: bool = False,
    gold_options: Mapping[str, Any] | None = None,
    pred_options: Mapping[str, Any] | None = None,
    notes: Sequence[str] = (),
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
    gold_format, pred_format, chunk_size, errors, confusion, strict_tokens, gold_options, pred_options, notes, **options
        As for :func:`nerscore.score_files`; every shard is read chunk by
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
    match, decoding, scoring, rest = _split(options)
    EntityScorer.with_decoding(decoding, match=match, options=rest, confusion=confusion,
                               whole_input=True, **scoring)  # check options here
    formats = [(guess_format(gs, gold_format),
                guess_format(gs if ps is None else ps,
                             (pred_format or gold_format) if ps is None else pred_format))
               for gs, ps in zip(g, p, strict=True)]
    futures = [
        client.submit(score_shard, gs, ps, gold_format=gf, pred_format=pf,
                      chunk_size=chunk_size, strict_tokens=strict_tokens,
                      gold_options=gold_options, pred_options=pred_options,
                      confusion=confusion, errors=errors is not None, match=match,
                      decoding=decoding, options=rest, pure=False, **scoring)
        for gs, ps, (gf, pf) in zip(g, p, formats, strict=True)
    ]
    results = client.gather(futures)
    return _combine(results, match, decoding, rest, scoring, confusion, errors, notes)


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


def _score_partition(pairs: Iterable[tuple[Any, Any]], match: str, decoding: Decoding,
                     options: Mapping[str, Any], scoring: Mapping[str, Any],
                     confusion: bool, errors: bool) -> list[ShardResult]:
    records: list[Any] | None = [] if errors else None
    scorer = EntityScorer.with_decoding(
        decoding, match=match, options=options, confusion=confusion,
        on_errors=None if records is None else records.extend, whole_input=True, **scoring)
    for y_true, y_pred in pairs:
        scorer.update(y_true, y_pred)
    scorer.on_errors = None
    return [ShardResult(scorer, (), (), records)]


def score_bag(
    bag: Any, *, errors: str | os.PathLike[str] | None = None, confusion: bool = False,
    notes: Sequence[str] = (), **options: Any,
) -> StreamResult:
    """Score a :class:`dask.bag.Bag` of ``(y_true, y_pred)`` batches: map per partition, then sum.

    Each element is one batch as any scorer takes it (tag sequences,
    :class:`~nerscore.EncodedTags`, span documents). The result equals
    :class:`nerscore.EntityScorer` (``whole_input=True``) fed the batches in order.

    Parameters
    ----------
    bag : dask.bag.Bag
        The batches, in order.
    errors, confusion, notes, **options
        As for :func:`score_files`.

    Returns
    -------
    StreamResult

    Raises
    ------
    NotStreamable
        When a batch warns or notes something of its own.
    """
    match, decoding, scoring, rest = _split(options)
    EntityScorer.with_decoding(decoding, match=match, options=rest, confusion=confusion,
                               whole_input=True, **scoring)  # check options here
    parts = bag.map_partitions(_score_partition, match, decoding, rest, scoring, confusion,
                               errors is not None).compute()
    if not parts:
        raise NotStreamable("the bag is empty")
    return _combine(parts, match, decoding, rest, scoring, confusion, errors, notes)
