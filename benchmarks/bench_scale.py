"""Scale: peak memory and throughput of `nerscore score` on a large CoNLL corpus.

Builds the seeded tag corpus of `corpus.py` (default 10,000,000 tokens), writes it as a gold
and a prediction CoNLL file in a temporary folder and measures, each in a fresh process:

* peak resident memory (`ru_maxrss` of the child) and wall time of `nerscore score` streamed
  (the default) and in memory (`--chunk-sentences 0`), without and with `--errors FILE`;
* throughput of the library's streaming scorer from CoNLL text and from Parquet files with
  integer label columns (needs pyarrow);
* Dask on 2 local worker processes (the corpus cut into 8 shard pairs) vs one process
  (needs dask[distributed]).

Usage: python benchmarks/bench_scale.py [--tokens N] [--repeats K]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import itertools

from _timing import fmt_time, machine, median, optional, table
from corpus import VOCAB, make_flat_corpus

NERSCORE = [sys.executable, "-m", "nerscore"]


def write_conll(path: Path, ids, offsets, tokens=None) -> None:  # type: ignore[no-untyped-def]
    """One `tok TAG` line per token, blank lines between sentences, written in slabs."""
    vocab = [v.encode() for v in VOCAB]
    with open(path, "wb") as fh:
        o = offsets.tolist()
        step = 20_000
        for a in range(0, len(o) - 1, step):
            parts = []
            for k in range(a, min(a + step, len(o) - 1)):
                lo, hi = o[k], o[k + 1]
                parts.append(b"".join(b"w%d %s\n" % (i % 997, vocab[t])
                                      for i, t in zip(range(lo, hi), ids[lo:hi].tolist(),
                                                      strict=True)))
                parts.append(b"\n")
            fh.write(b"".join(parts))


def run_child(args: list[str]) -> tuple[float, float]:
    """(wall seconds, peak resident MB) of one command in a fresh process."""
    t0 = time.perf_counter()
    # each measurement in its own wrapper process, so ru_maxrss is this command's alone
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
            "stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, *args], check=True,
                         capture_output=True, text=True)
    wall = time.perf_counter() - t0
    return wall, int(out.stdout.strip()) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    print(machine())
    corpus = make_flat_corpus(args.tokens, seed=args.seed)
    n_sent = len(corpus.offsets) - 1
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        gold, pred = tmp / "gold.conll", tmp / "pred.conll"
        write_conll(gold, corpus.gold_ids, corpus.offsets)
        write_conll(pred, corpus.pred_ids, corpus.offsets)
        size = gold.stat().st_size / 2**20
        print(f"\n{args.tokens:,} tokens in {n_sent:,} sentences; {size:.0f} MB per file\n")

        rows = []
        for label, extra in (("streamed", []), ("in memory", ["--chunk-sentences", "0"])):
            for errors in (False, True):
                cmd = [*NERSCORE, "score", str(gold), str(pred)]
                if errors:
                    cmd += ["--errors", str(tmp / "errors.jsonl")]
                times, peaks = [], []
                for _ in range(args.repeats):
                    wall, peak = run_child(cmd + extra)
                    times.append(wall)
                    peaks.append(peak)
                rows.append([f"`nerscore score`{' --errors' if errors else ''}", label,
                             fmt_time(median(times)), f"{max(peaks):.0f} MB",
                             f"{args.tokens / median(times) / 1e6:.2f} M tokens/s"])
        print(table(["command", "path", "median wall", "peak RSS", "throughput"], rows,
                    "llrrr"))

        import nerscore
        from nerscore.accumulate.files import score_files

        rows = []
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            ref = score_files(gold, pred)
            times.append(time.perf_counter() - t0)
        rows.append(["CoNLL text", fmt_time(median(times)),
                     f"{args.tokens / median(times) / 1e6:.2f} M tokens/s"])
        if optional("pyarrow") is not None:
            from nerscore.io.parquet import write_parquet_tags

            g_enc = nerscore.EncodedTags(corpus.gold_ids, corpus.offsets, VOCAB)
            p_enc = nerscore.EncodedTags(corpus.pred_ids, corpus.offsets, VOCAB)
            write_parquet_tags(tmp / "gold.parquet", g_enc, row_group_size=10_000)
            write_parquet_tags(tmp / "pred.parquet", p_enc, row_group_size=10_000)
            times = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                res = score_files(tmp / "gold.parquet", tmp / "pred.parquet")
                times.append(time.perf_counter() - t0)
            assert res.report.to_dict()["labels"] == ref.report.to_dict()["labels"]
            rows.append(["Parquet, int labels", fmt_time(median(times)),
                         f"{args.tokens / median(times) / 1e6:.2f} M tokens/s"])
        print("\nlibrary `nerscore.score_files` (streamed, one process)\n")
        print(table(["input", "median", "throughput"], rows, "lrr"))

        if optional("distributed") is not None:
            from dask.distributed import Client, LocalCluster

            from nerscore.integrations.dask import score_files as dask_score

            shards = 8
            cuts = [round(i * n_sent / shards) for i in range(shards + 1)]
            gs, ps = [], []
            for i, (a, b) in enumerate(itertools.pairwise(cuts)):
                off = corpus.offsets[a : b + 1]
                lo, hi = int(off[0]), int(off[-1])
                write_conll(tmp / f"g{i}.conll", corpus.gold_ids[lo:hi], off - lo)
                write_conll(tmp / f"p{i}.conll", corpus.pred_ids[lo:hi], off - lo)
                gs.append(tmp / f"g{i}.conll")
                ps.append(tmp / f"p{i}.conll")
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              host="127.0.0.1", dashboard_address=None) as cluster, \
                    Client(cluster) as client:
                times = []
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    res = dask_score(gs, ps, client=client)
                    times.append(time.perf_counter() - t0)
            assert res.report.to_dict()["labels"] == ref.report.to_dict()["labels"]
            print("\nDask, 8 shard pairs of CoNLL\n")
            print(table(["where", "median", "throughput"], [
                ["1 process (library, one file pair)", rows[0][1], rows[0][2]],
                ["2 local Dask workers", fmt_time(median(times)),
                 f"{args.tokens / median(times) / 1e6:.2f} M tokens/s"],
            ], "lrr"))


if __name__ == "__main__":
    main()
