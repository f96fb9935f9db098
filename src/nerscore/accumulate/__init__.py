"""Accumulate: scoring batch by batch, chunk by chunk, shard by shard.

One accumulator, :class:`~nerscore.accumulate.scorer.EntityScorer`
(update, merge, compute), used by training loops, streamed files
(:mod:`~nerscore.accumulate.files`) and Dask partitions alike.
"""
