"""Do two versions of nerscore print and write the same? ``score`` on test corpora and damaged files.

A change made for speed must not change what the command says. This script runs
``nerscore score GOLD PRED`` for every pair of input files below and every set of
options below, once with each version's ``src`` folder, and compares standard output,
standard error, the exit status and every file the run wrote (the error listings).

The pairs are the CoNLL files of ``tests/data/conll`` and ``examples/``, and a 50,000-token
pair made as ``bench_score.py`` makes its files (gold tab-separated, prediction
space-separated with CRLF), then damaged one line at a time, early (a tenth into the file)
or late (nine tenths in): a tag no scheme reads, a token that differs, a dropped token,
latin-1 bytes, an extra column, an extra sentence. The options cover the output formats,
``--confusion``, ``--errors`` (.jsonl and .csv), the matchers, strict mode, label options
and chunk sizes of 1, 3, 7 and 100 sentences, so that a chunk boundary falls at every
place an error can be.

A version is a commit (its ``src`` is taken with ``git archive``) or ``.``, the working
tree. Exit status 0 when every run agrees, 1 otherwise (the differences are listed).

    .venv/bin/python benchmarks/identity.py 4fb8e73            # that commit against the working tree
    .venv/bin/python benchmarks/identity.py 4fb8e73 HEAD --jobs 2
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import itertools
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_score import write_files

ROOT = Path(__file__).resolve().parents[1]

#: Option sets; ``{E}`` is the error file's name (written in the run's own folder).
OPTIONS: list[list[str]] = [
    [], ["--format", "json"], ["--format", "markdown"], ["--format", "conlleval"],
    ["--confusion"], ["--errors", "{E}.jsonl"], ["--errors", "{E}.csv"],
    ["--mode", "strict", "--scheme", "IOB2"], ["--scheme", "IOBES"],
    ["--match", "overlap"], ["--match", "semeval"], ["--match", "token"],
    ["--strict-tokens"], ["--breakdown", "length"], ["--keep", "PER"], ["--map", "PER=X"],
    ["--chunk-sentences", "1"], ["--chunk-sentences", "100"],
    ["--chunk-sentences", "7", "--strict-tokens"],
    ["--chunk-sentences", "3", "--errors", "{E}.jsonl"],
]

Damage = Callable[[str], str | None]

#: How a prediction line ``word tag`` (CRLF) is damaged; None drops it.
DAMAGES: dict[str, Damage] = {
    "badtag": lambda line: line.split(" ")[0] + " Q-LOC",
    "token": lambda line: "ZZZ " + line.split(" ", 1)[1],
    "droptoken": lambda line: None,
    "extracol": lambda line: line + " extra",
    "latin1": lambda line: line.split(" ")[0] + "\udcfc " + line.split(" ", 1)[1],
}


def damaged_files(folder: Path) -> list[tuple[Path, Path]]:
    """The generated pair, undamaged and damaged one way at a time (``folder`` holds them)."""
    gold, pred, _, _ = write_files(folder, 50_000)
    pairs = [(gold, pred)]
    lines = pred.read_bytes().decode("utf-8").split("\r\n")
    words = [k for k, line in enumerate(lines) if line]
    for (name, damage), (where, at) in itertools.product(
            DAMAGES.items(), (("early", 0.1), ("late", 0.9))):
        if name != "badtag" and where == "early":
            continue
        k = words[int(at * len(words))]
        out = list(lines)
        changed = damage(out[k])
        if changed is None:
            del out[k]
        else:
            out[k] = changed
        path = folder / f"pred_{name}_{where}.conll"
        path.write_bytes("\r\n".join(out).encode("utf-8", "surrogateescape"))
        pairs.append((gold, path))
    extra = folder / "pred_extra_sentence.conll"
    extra.write_bytes(pred.read_bytes() + b"Extra O\r\n")
    pairs.append((gold, extra))
    gold_lines = gold.read_text(encoding="utf-8").split("\n")
    k = [i for i, line in enumerate(gold_lines) if line][int(0.9 * len(words))]
    gold_lines[k] = gold_lines[k].split("\t")[0] + "\tQ-LOC"
    bad_gold = folder / "gold_badtag_late.conll"
    bad_gold.write_text("\n".join(gold_lines), encoding="utf-8")
    pairs.append((bad_gold, pred))
    return pairs


def corpus_pairs() -> list[tuple[Path, Path]]:
    """Gold against each prediction of ``tests/data/conll``, both ways for bad tags, and the example."""
    conll = ROOT / "tests" / "data" / "conll"
    gold = conll / "gold.conll"
    pairs = [(gold, p) for p in sorted(conll.glob("*.conll")) if p != gold]
    pairs.append((conll / "invalid_iob2.conll", gold))
    example = ROOT / "examples" / "conll2000"
    pairs.append((example / "gold.conll", example / "pred.conll"))
    return [(g, p) for g, p in pairs if g.is_file() and p.is_file()]


def source(version: str, into: Path) -> Path:
    """The ``src`` folder of ``version`` (``.``: the working tree's; else extracted from git)."""
    if version == ".":
        return ROOT / "src"
    folder = into / version.replace("/", "_")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", version, "src"],
                             check=True, capture_output=True).stdout
    archive_path = folder.with_suffix(".tar")
    folder.mkdir(parents=True)
    archive_path.write_bytes(archive)
    with tarfile.open(archive_path) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def run_once(src: Path, pycache: Path, gold: Path, pred: Path, options: list[str]) -> dict[str, object]:
    """Output, status and written files of one ``nerscore score`` run with ``src`` on the path."""
    with tempfile.TemporaryDirectory() as cwd:
        args = [a.replace("{E}", "errors") for a in options]
        env = dict(os.environ, PYTHONPATH=str(src), PYTHONPYCACHEPREFIX=str(pycache),
                   NO_COLOR="1", COLUMNS="100")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        done = subprocess.run([sys.executable, "-m", "nerscore", "score", str(gold), str(pred), *args],
                              capture_output=True, env=env, cwd=cwd, timeout=600)
        files = {name: hashlib.sha1(Path(cwd, name).read_bytes()).hexdigest()
                 for name in sorted(os.listdir(cwd))}
    return {"status": done.returncode, "stdout": done.stdout.decode("utf-8", "replace"),
            "stderr": done.stderr.decode("utf-8", "replace"), "files": files}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="a commit, or . for the working tree")
    parser.add_argument("after", nargs="?", default=".", help="a commit, or . (default)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--show", type=int, default=5, help="differences shown in full (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "files").mkdir()
        pairs = corpus_pairs() + damaged_files(root / "files")
        trees = [source(v, root / "trees" / str(k)) for k, v in enumerate((args.before, args.after))]
        jobs = list(itertools.product(pairs, OPTIONS))
        started = time.perf_counter()

        def both(job: tuple[tuple[Path, Path], list[str]]) -> tuple[dict[str, object], ...]:
            (gold, pred), options = job
            return tuple(run_once(src, root / "pyc", gold, pred, options) for src in trees)

        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(both, jobs))
        differ = [(job, a, b) for job, (a, b) in zip(jobs, results, strict=True) if a != b]
        print(f"{len(jobs)} command lines ({len(pairs)} pairs x {len(OPTIONS)} option sets), "
              f"{args.before} against {args.after}, {time.perf_counter() - started:.0f} s: "
              f"{len(jobs) - len(differ)} identical, {len(differ)} different")
        print(f"exit status 0 in {sum(a['status'] == 0 for a, _ in results)} of {len(jobs)}")
        for ((gold, pred), options), a, b in differ[: args.show]:
            print(f"\n--- score {gold.name} {pred.name} {' '.join(options)}")
            for key in a:
                if a[key] != b[key]:
                    left, right = str(a[key]).splitlines(), str(b[key]).splitlines()
                    print(f"{key}:")
                    print("\n".join(difflib.unified_diff(left, right, lineterm="", n=1)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
