"""LLM-output benchmark: parse + align + score with nerscore vs the usual hand-written recipe.

Run from the repository root::

    .venv/bin/python benchmarks/bench_llm.py                 # 100,000 documents, ~1.1M mentions
    .venv/bin/python benchmarks/bench_llm.py --docs 10000

The corpus is seeded and built here: documents of ~60 words holding ~11 entity
strings each (names drawn from a vocabulary of 2,000, so strings repeat within
and across documents), gold character spans, and one model output per
document listing its mentions in text order with noise: ~5% of mentions
dropped, ~5% relabelled, ~3% hallucinated strings that are not in the text.

The recipe is what evaluation scripts do by hand: ``json.loads`` the output,
``str.find`` each mention's text in the document (the first occurrence),
compare sets of ``(start, end, label)`` per document and count true
positives, false positives and misses per label (what a per-label report
needs). Before timing, its true positives and misses must equal nerscore's
under ``align="first"`` (the recipe's rule; its sets merge a repeated
prediction that nerscore counts as a false positive).

nerscore is timed with :func:`nerscore.evaluate_llm` (parse, align, score,
everything counted); its throughput in mentions per second is reported for
every output format and normalisation. All tasks run round-robin.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import Task, fmt_rate, fmt_time, interleaved, machine, median, table

import nerscore

LABELS = ("PER", "LOC", "ORG", "MISC")
FILLER = ("the", "of", "and", "a", "in", "to", "was", "for", "on", "with", "as", "by", "that",
          "at", "from", "his", "her", "said", "after", "before", "during", "while", "also")


def build(n_docs: int, seed: int = 0) -> tuple[list[nerscore.Document], list[list[tuple]]]:
    """Gold documents and, per document, the mentions a model answered (text, label)."""
    rng = random.Random(seed)
    names = []
    for k in range(2000):
        words = rng.choice((1, 1, 2, 2, 3))
        names.append(" ".join(f"{chr(65 + rng.randrange(26))}{'xyzvqwk'[k % 7]}{k}{j}"
                              for j in range(words)))
    name_label = {n: rng.choice(LABELS) for n in names}
    docs = []
    answers = []
    for d in range(n_docs):
        parts: list[str] = []
        spans = []
        at = 0
        for _ in range(rng.randint(7, 15)):
            for _ in range(rng.randint(2, 6)):
                w = rng.choice(FILLER)
                parts.append(w)
                at += len(w) + 1
            name = rng.choice(names)
            spans.append((at, at + len(name), name_label[name]))
            parts.append(name)
            at += len(name) + 1
        text = " ".join(parts) + "."
        docs.append(nerscore.Document(f"d{d}", tuple(spans), text))
        out = []
        for s, e, lab in spans:
            r = rng.random()
            if r < 0.05:
                continue
            if r < 0.10:
                lab = rng.choice([x for x in LABELS if x != lab])
            out.append((text[s:e], lab))
            if rng.random() < 0.03:
                out.append((f"Hallucinated{rng.randrange(10**6)}", rng.choice(LABELS)))
        answers.append(out)
    return docs, answers


def as_json(answers: list[list[tuple]]) -> list[str]:
    return [json.dumps([{"text": t, "label": lab} for t, lab in a]) for a in answers]


FORMATS = {
    "json-list": as_json,
    "json-dict": lambda answers: [json.dumps(_by_label(a)) for a in answers],
    "label-lines": lambda answers: ["\n".join(f"{lab}: {', '.join(ts)}"
                                              for lab, ts in _by_label(a).items())
                                    for a in answers],
    "item-lines": lambda answers: ["\n".join(f"- {t} ({lab})" for t, lab in a) for a in answers],
    "fenced json + prose": lambda answers: [f"Here are the entities:\n```json\n{j}\n```\nDone."
                                            for j in as_json(answers)],
}


def _by_label(a: list[tuple]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for t, lab in a:
        out.setdefault(lab, []).append(t)
    return out


def inline(docs: list[nerscore.Document], answers: list[list[tuple]]) -> list[str]:
    """Inline XML tags over the text (gold bounds, answer labels)."""
    outs = []
    for doc, a in zip(docs, answers, strict=True):
        labels = dict(a)
        text, pieces, at = doc.text or "", [], 0
        for sp in doc.spans:
            name = text[sp.start:sp.end]
            if name not in labels:
                continue
            pieces.append(text[at:sp.start])
            pieces.append(f"<{labels[name]}>{name}</{labels[name]}>")
            at = sp.end
        pieces.append(text[at:])
        outs.append("".join(pieces))
    return outs


def recipe(docs: list[nerscore.Document], outputs: list[str]) -> dict[str, list[int]]:
    """json.loads + str.find + set comparison per document, counted per label (tp, fp, fn)."""
    counts: dict[str, list[int]] = {}
    for doc, out in zip(docs, outputs, strict=True):
        text = doc.text or ""
        gold = {(e.start, e.end, e.label) for e in doc.spans}
        try:
            items = json.loads(out)
        except json.JSONDecodeError:
            items = []
        pred = set()
        for item in items:
            pos = text.find(item["text"])
            span = (pos, pos + len(item["text"]), item["label"]) if pos >= 0 else (
                -1, len(pred), item["label"])  # not found: a false positive all the same
            pred.add(span)
        for _, _, lab in gold & pred:
            counts.setdefault(lab, [0, 0, 0])[0] += 1
        for _, _, lab in pred - gold:
            counts.setdefault(lab, [0, 0, 0])[1] += 1
        for _, _, lab in gold - pred:
            counts.setdefault(lab, [0, 0, 0])[2] += 1
    return counts


def recipe_overlaps(text: str, answer: list[tuple]) -> bool:
    """Whether the recipe's first occurrences of two different strings overlap."""
    spans = sorted({(text.find(t), text.find(t) + len(t)) for t, _ in answer if t in text})
    return any(b[0] < a[1] for a, b in itertools.pairwise(spans))


def totals(counts: dict[str, list[int]]) -> tuple[int, int, int]:
    return (sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values()),
            sum(c[2] for c in counts.values()))


def score(docs: list[nerscore.Document], outputs: list[str], **kw: object) -> nerscore.Report:
    return nerscore.evaluate_llm(docs, outputs, zero_division=0.0, **kw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    print(f"building {args.docs:,} documents ...", file=sys.stderr)
    docs, answers = build(args.docs)
    n_mentions = sum(len(a) for a in answers)
    outputs = {name: make(answers) for name, make in FORMATS.items()}
    outputs["xml (inline)"] = inline(docs, answers)

    # the same numbers first, on the documents where the recipe's first occurrences do not
    # overlap (elsewhere it placed a string inside another mention, which nerscore never does)
    keep = [k for k, (doc, a) in enumerate(zip(docs, answers, strict=True))
            if not recipe_overlaps(doc.text or "", a)]
    sub_docs = [docs[k] for k in keep]
    sub_out = [outputs["json-list"][k] for k in keep]
    r = score(sub_docs, sub_out, align="first")
    tp, _, fn = totals(recipe(sub_docs, sub_out))
    if (r.micro.tp, r.micro.fn) != (tp, fn):
        raise SystemExit(f"counts differ: nerscore tp {r.micro.tp} fn {r.micro.fn}, "
                         f"recipe tp {tp} fn {fn}")
    print(f"checked on {len(keep):,} of {len(docs):,} documents: tp {tp}, fn {fn} on both sides",
          file=sys.stderr)

    tasks = {
        "recipe (json.loads + str.find + sets)": Task(
            recipe, lambda: (docs, outputs["json-list"]), args.repeats),
        "nerscore json-list, exact": Task(
            score, lambda: (docs, outputs["json-list"]), args.repeats),
    }
    for name in outputs:
        for normalize in ("exact", "casefold", "loose"):
            key = f"nerscore {name}, {normalize}"
            if key in tasks:
                continue
            tasks[key] = Task(lambda o=outputs[name], n=normalize: score(docs, o, normalize=n),
                              lambda: (), 1, warmup=False)
    times = interleaved(tasks, log=lambda m: print(m, file=sys.stderr))
    base = median(times["recipe (json.loads + str.find + sets)"])
    rows = []
    for name, ts in times.items():
        t = median(ts)
        rows.append([name, fmt_time(t), fmt_rate(n_mentions / t, "mentions"),
                     f"{base / t:.2f}x"])
    print(f"\n{args.docs:,} documents, {n_mentions:,} mentions; {machine()}\n")
    print(table(["task", "median", "throughput", "vs recipe"], rows, "lrrr"))


if __name__ == "__main__":
    main()
