"""``nerscore score`` and ``nerscore report`` on two real-shaped files, against the Perl conlleval.

The files are made from the CoNLL-2002 Spanish system output the repository ships
(``tests/data/conlleval/conll2002-es/es.preds``), repeated to the size asked for, laid out as
files come from shared tasks: the gold file tab-separated (``word<TAB>tag``), the prediction
space-separated with CRLF line ends (``word tag``), and the two merged into one
``word gold pred`` file for the conlleval script and ``nerscore conlleval``.

Every command runs as a whole process, round-robin, after one untimed warm-up run each;
the table gives median wall and CPU time, the peak resident memory, and the ratios to the
Perl script (``--perl PATH/conlleval.pl``, when given; its wall and CPU time over ours) and
to ``nerscore conlleval`` on the merged file (our time over its), in wall and in CPU time:
``nerscore score`` reads the two files in threads of their own, so on more than one core its
wall time is below its CPU time. The last column is the wall time over that of
``nerscore score`` (the report's target is a few times one scoring pass). Two start-up rows
time ``nerscore --version`` and ``nerscore score`` on files of 25,000 tokens made the same way.

    .venv/bin/python benchmarks/bench_score.py --perl /path/to/conlleval.pl
    .venv/bin/python benchmarks/bench_score.py --tokens 4000000 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import machine, table

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tests" / "data" / "conlleval" / "conll2002-es" / "es.preds"


def write_files(folder: Path, n_tokens: int) -> tuple[Path, Path, Path, int]:
    """Gold (tab), prediction (space, CRLF) and merged files of about ``n_tokens`` tokens."""
    lines = SOURCE.read_text(encoding="utf-8").split("\n")
    gold, pred, merged = [], [], []
    n = 0
    for line in lines:
        if not line.strip():
            gold.append("")
            pred.append("")
            merged.append("")
            continue
        word, g, p = line.split(" ")
        gold.append(f"{word}\t{g}")
        pred.append(f"{word} {p}")
        merged.append(line)
        n += 1
    repeats = max(1, round(n_tokens / n))
    blocks = {"gold.conll": ("\n".join(gold).strip("\n") + "\n\n", "\n"),
              "pred.conll": ("\r\n".join(pred).strip("\r\n") + "\r\n\r\n", "\r\n"),
              "merged.txt": ("\n".join(merged).strip("\n") + "\n\n", "\n")}
    for name, (text, _) in blocks.items():
        with open(folder / name, "w", encoding="utf-8", newline="") as fh:
            for _ in range(repeats):
                fh.write(text)
    return folder / "gold.conll", folder / "pred.conll", folder / "merged.txt", n * repeats


def run(cmd: list[str], stdin: Path | None = None) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak resident MB of one complete run."""
    fh = open(stdin, "rb") if stdin is not None else None  # noqa: SIM115
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=fh or subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        err = proc.stderr.read() if proc.stderr else b""
    finally:
        if fh is not None:
            fh.close()
    if os.waitstatus_to_exitcode(status) not in (0,):
        raise SystemExit(f"{' '.join(cmd)} failed: {err.decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--perl", metavar="PATH", help="the conlleval.pl script")
    args = parser.parse_args(argv)

    exe = str(Path(sys.executable).with_name("nerscore"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        gold, pred, merged, n = write_files(folder, args.tokens)
        (folder / "small").mkdir()
        s_gold, s_pred, _, n_small = write_files(folder / "small", 25_000)
        out = folder / "out"
        tasks: dict[str, tuple[list[str], Path | None]] = {
            "nerscore conlleval MERGED": ([exe, "conlleval", str(merged)], None),
            "nerscore score GOLD PRED": ([exe, "score", str(gold), str(pred)], None),
            "  --format json": ([exe, "score", str(gold), str(pred), "--format", "json"], None),
            "  --confusion": ([exe, "score", str(gold), str(pred), "--confusion"], None),
            "  --errors FILE": ([exe, "score", str(gold), str(pred), "--errors",
                                 str(out) + ".jsonl"], None),
            "nerscore report GOLD PRED --train GOLD": (
                [exe, "report", str(gold), str(pred), "--train", str(gold), "-o",
                 str(out) + ".html", "-q"], None),
            "start-up: nerscore --version": ([exe, "--version"], None),
            f"start-up: nerscore score, {n_small:,} tokens": (
                [exe, "score", str(s_gold), str(s_pred)], None),
        }
        if args.perl and shutil.which("perl"):
            tasks["perl conlleval.pl < MERGED"] = (["perl", args.perl], merged)
        times: dict[str, list[tuple[float, float, float]]] = {k: [] for k in tasks}
        for cmd, stdin in tasks.values():  # warm-up (bytecode, page cache)
            run(cmd, stdin)
        for _ in range(args.repeats):
            for name, (cmd, stdin) in tasks.items():
                times[name].append(run(cmd, stdin))

    def med(name: str, k: int) -> float:
        return statistics.median(t[k] for t in times[name])

    perl = "perl conlleval.pl < MERGED" if "perl conlleval.pl < MERGED" in times else None
    base = "nerscore conlleval MERGED"
    score = "nerscore score GOLD PRED"
    rows = []
    for name in times:
        if perl:
            vs_perl = [f"{med(perl, 0) / med(name, 0):.1f}x", f"{med(perl, 1) / med(name, 1):.1f}x"]
        else:
            vs_perl = ["n/a", "n/a"]
        rows.append([name, f"{med(name, 0):.2f} s", f"{med(name, 1):.2f} s",
                     f"{med(name, 2):.0f} MB", *vs_perl,
                     f"{med(name, 0) / med(base, 0):.2f}", f"{med(name, 1) / med(base, 1):.2f}",
                     f"{med(name, 0) / med(score, 0):.2f}"])
    print(f"machine: {machine()}")
    print(f"input: {n:,} tokens; gold tab-separated, prediction space-separated with CRLF; "
          f"{args.repeats} runs each, medians")
    print(table(["command", "wall", "CPU", "peak RSS", "Perl / wall", "Perl / CPU",
                 "wall / conlleval", "CPU / conlleval", "wall / score"], rows, "lrrrrrrrr"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
