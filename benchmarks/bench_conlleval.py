"""Whole-process timing of ``nerscore conlleval`` (and of the Perl script, if given).

Builds a seeded merged file (``word gold pred`` per line, blank lines between
sentences) from :mod:`corpus` — realistic BIO with eight types and about 10%
noisy predicted entities — then times complete processes, interpreter start
included, and prints the medians and their ratio. With ``--perl`` the Perl
``conlleval`` script runs on the same file in the same run (its output must
equal nerscore's byte for byte)::

    python benchmarks/bench_conlleval.py --tokens 1000000 --perl /path/to/conlleval.pl
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import fmt_time, machine
from corpus import VOCAB, describe, make_flat_corpus

WORDS = np.array(["the", "of", "Mr.", "said", "Paris", "bank", "a", "in", "Corp.", ",", ".",
                  "2004", "shares", "New", "York", "Ltd"], dtype=object)


def write_file(path: Path, n_tokens: int, seed: int) -> str:
    """Write the merged file; return a one-line description."""
    corpus = make_flat_corpus(n_tokens, seed=seed)
    rng = np.random.default_rng(seed + 1)
    vocab = np.array(VOCAB, dtype=object)
    words = WORDS[rng.integers(0, len(WORDS), size=corpus.n_tokens)]
    lines = words + " " + vocab[corpus.gold_ids] + " " + vocab[corpus.pred_ids] + "\n"
    ends = corpus.offsets[1:].tolist()
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        start = 0
        for end in ends:
            fh.write("".join(lines[start:end].tolist()))
            fh.write("\n")
            start = end
    return describe(corpus)


def nerscore_command() -> list[str]:
    """The ``nerscore`` console script when it works, else the module's own entry point."""
    exe = Path(sys.executable).with_name("nerscore")
    try:
        from nerscore.cli import main  # noqa: F401
        if exe.exists():
            return [str(exe), "conlleval"]
        return [sys.executable, "-c", "import sys; from nerscore.cli import main; "
                "sys.exit(main())", "conlleval"]
    except ImportError:
        return [sys.executable, "-m", "nerscore.cli.conlleval"]


def run_times(
    cmd: list[str], path: Path, *, stdin: bool, repeats: int
) -> tuple[list[float], list[float], bytes]:
    """Wall-clock and CPU (user + system) times of complete runs, after one warm-up run."""
    out = b""
    wall, cpu = [], []
    for k in range(repeats + 1):
        with open(path, "rb") as fh:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            proc = subprocess.run(cmd if stdin else [*cmd, str(path)],
                                  stdin=fh if stdin else subprocess.DEVNULL,
                                  capture_output=True, check=False)
            elapsed = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): "
                             f"{proc.stderr.decode(errors='replace')}")
        out = proc.stdout
        if k:
            wall.append(elapsed)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu, out


def _summary(wall: list[float], cpu: list[float]) -> str:
    return (f"median {fmt_time(statistics.median(wall))} wall (min {fmt_time(min(wall))}, "
            f"max {fmt_time(max(wall))}), median {fmt_time(statistics.median(cpu))} CPU, "
            f"{len(wall)} runs")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--perl", metavar="PATH", help="the conlleval.pl script to compare with")
    parser.add_argument("--file", metavar="PATH", help="keep the generated file here")
    args = parser.parse_args(argv)

    tmp = tempfile.TemporaryDirectory()
    path = Path(args.file) if args.file else Path(tmp.name) / "merged.txt"
    info = write_file(path, args.tokens, args.seed)
    print(f"machine: {machine()}")
    print(f"input:   {path.stat().st_size / 1e6:.1f} MB; {info}")

    cmd = nerscore_command()
    wall, cpu, out = run_times(cmd, path, stdin=False, repeats=args.repeats)
    print(f"nerscore ({os.path.basename(cmd[0])} ... conlleval FILE): {_summary(wall, cpu)}")
    empty = path.with_suffix(".empty")
    empty.write_bytes(b"")
    swall, scpu, _ = run_times(cmd, empty, stdin=False, repeats=args.repeats)
    print(f"  start-up alone (empty file): {_summary(swall, scpu)}")
    print(out.decode().rstrip())

    if args.perl:
        perl = shutil.which("perl")
        if perl is None:
            print("perl: not found; skipped")
        else:
            reps = max(3, args.repeats // 2)
            pwall, pcpu, pout = run_times([perl, args.perl], path, stdin=True, repeats=reps)
            same = "identical" if pout == out else "DIFFERENT"
            print(f"perl conlleval.pl < FILE: {_summary(pwall, pcpu)}; output {same}")
            print(f"speed-up (perl / nerscore): "
                  f"{statistics.median(pwall) / statistics.median(wall):.1f}x wall, "
                  f"{statistics.median(pcpu) / statistics.median(cpu):.1f}x CPU")
            if pout != out:
                return 1
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
