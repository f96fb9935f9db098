"""Build the multi-annotator fixtures of the agreement tests from corpora the repository ships.

Annotator ``ann1`` is the corpus as it is; ``ann2`` and ``ann3`` are copies
perturbed the way annotators disagree, each entity independently (fixed
seeds): missed (dropped), its label swapped for another, or a boundary
shifted by one word (the last word dropped from a multi-word entity, or the
next word added to a one-word entity when that word belongs to no entity).

- ``brat/``: a BRAT project, one folder per annotator, from the ten Spanish
  CoNLL-2002 documents of ``tests/data/brat/conll2002/esp``, with its
  ``annotation.conf``;
- ``conll/``: three CoNLL files (IOB2 chunk tags) from
  ``examples/conll2000/gold.conll``.

Run from the repository root: ``python tests/data/agreement/build.py``.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BRAT_SOURCE = ROOT / "tests" / "data" / "brat" / "conll2002"
CONLL_SOURCE = ROOT / "examples" / "conll2000" / "gold.conll"

#: (seed, P(missed), P(label swapped), P(boundary shifted)) of each perturbed annotator.
ANNOTATORS = {"ann2": (2, 0.08, 0.08, 0.08), "ann3": (3, 0.12, 0.06, 0.1)}

Span = tuple[int, int, str]


def perturb(spans: list[Span], words: list[tuple[int, int]], labels: list[str],
            rng: random.Random, p_miss: float, p_label: float, p_bound: float) -> list[Span]:
    """Perturbed copies of non-overlapping ``spans`` over ``words`` (word bounds, sorted)."""
    taken = {k for s, e, _ in spans for k, (ws, we) in enumerate(words) if s <= ws and we <= e}
    out: list[Span] = []
    for s, e, lab in spans:
        r = rng.random()
        if r < p_miss:
            continue
        if r < p_miss + p_label:
            lab = rng.choice([x for x in labels if x != lab])
        elif r < p_miss + p_label + p_bound:
            inside = [k for k, (ws, we) in enumerate(words) if s <= ws and we <= e]
            if len(inside) > 1:
                e = words[inside[-2]][1]
            elif inside and inside[-1] + 1 < len(words) and inside[-1] + 1 not in taken:
                e = words[inside[-1] + 1][1]
                taken.add(inside[-1] + 1)
        out.append((s, e, lab))
    return out


def build_brat() -> None:
    """The BRAT project under ``brat/``."""
    target = HERE / "brat"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    shutil.copy(BRAT_SOURCE / "annotation.conf", target / "annotation.conf")
    labels = ["LOC", "MISC", "ORG", "PER"]
    sources = sorted((BRAT_SOURCE / "esp").glob("*.ann"))
    for name, setting in [("ann1", None), *ANNOTATORS.items()]:
        folder = target / name
        folder.mkdir()
        rng = random.Random(setting[0]) if setting else None
        for ann in sources:
            text = ann.with_suffix(".txt").read_text(encoding="utf-8")
            spans = []
            for line in ann.read_text(encoding="utf-8").splitlines():
                _, body, _ = line.split("\t")
                lab, s, e = body.split(" ")
                spans.append((int(s), int(e), lab))
            spans.sort()
            if rng is not None and setting is not None:
                words = [m.span() for m in re.finditer(r"\S+", text)]
                spans = perturb(spans, words, labels, rng, *setting[1:])
            lines = [f"T{k}\t{lab} {s} {e}\t{text[s:e]}" for k, (s, e, lab) in
                     enumerate(spans, 1)]
            (folder / ann.name).write_text("".join(x + "\n" for x in lines), encoding="utf-8")
            (folder / ann.with_suffix(".txt").name).write_text(text, encoding="utf-8")


def _chunks(tags: list[str]) -> list[Span]:
    spans: list[Span] = []
    for k, tag in enumerate(tags):
        if tag.startswith("B-") or (tag.startswith("I-") and (not spans or spans[-1][1] != k
                                                              or spans[-1][2] != tag[2:])):
            spans.append((k, k + 1, tag[2:]))
        elif tag.startswith("I-"):
            s, _, lab = spans[-1]
            spans[-1] = (s, k + 1, lab)
    return spans


def build_conll() -> None:
    """Three CoNLL files under ``conll/``."""
    target = HERE / "conll"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    sentences: list[list[tuple[str, str]]] = [[]]
    for line in CONLL_SOURCE.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if sentences[-1]:
                sentences.append([])
            continue
        cols = line.split()
        sentences[-1].append((cols[0], cols[-1]))
    if not sentences[-1]:
        sentences.pop()
    labels = sorted({t[2:] for sent in sentences for _, t in sent if t != "O"})
    for name, setting in [("ann1", None), *ANNOTATORS.items()]:
        rng = random.Random(setting[0]) if setting else None
        lines = []
        for sent in sentences:
            tags = [t for _, t in sent]
            if rng is not None and setting is not None:
                words = [(k, k + 1) for k in range(len(sent))]
                spans = perturb(_chunks(tags), words, labels, rng, *setting[1:])
                tags = ["O"] * len(sent)
                for s, e, lab in spans:
                    tags[s:e] = [f"B-{lab}"] + [f"I-{lab}"] * (e - s - 1)
            lines += [f"{tok} {tag}" for (tok, _), tag in zip(sent, tags, strict=True)] + [""]
        (target / f"{name}.conll").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    build_brat()
    build_conll()
