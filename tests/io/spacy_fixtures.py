"""spaCy ``.spacy`` fixtures built with spaCy itself (the ``spacy`` extra).

``python -m tests.io.spacy_fixtures`` writes ``tests/data/spacy/``: the CoNLL-2000 example of
``examples/conll2000`` as two ``DocBin`` files, one ``Doc`` per sentence with its tags as
``doc.ents`` (``conll2000_gold.spacy``, ``conll2000_pred.spacy``), every token annotated.
"""

from __future__ import annotations

import sys
from pathlib import Path

from nerscore.io.formats import get_format
from tests.paths import DATA, EXAMPLES

OUT = DATA / "spacy"


def docs_of(path: Path) -> list:
    """One spaCy ``Doc`` per sentence of a CoNLL file, its tags (IOB2 read leniently) as entities."""
    import spacy
    from spacy.tokens import Doc

    import nerscore

    read = get_format("conll").load(path)
    vocab = spacy.vocab.Vocab()
    docs = []
    for words, tags in zip(read.texts(), read.data.to_lists(), strict=True):
        iob = ["O"] * len(tags)
        for e in nerscore.tags_to_entities(tags):  # lenient: I- after O begins an entity
            iob[e.start] = f"B-{e.label}"
            iob[e.start + 1:e.end] = [f"I-{e.label}"] * (e.end - e.start - 1)
        docs.append(Doc(vocab, words=list(words), ents=iob))
    return docs


def build(out: Path = OUT) -> None:
    """Write the fixtures under ``out`` (needs spaCy)."""
    from spacy.tokens import DocBin

    out.mkdir(parents=True, exist_ok=True)
    for name in ("gold", "pred"):
        DocBin(docs=docs_of(EXAMPLES / "conll2000" / f"{name}.conll")).to_disk(
            out / f"conll2000_{name}.spacy")


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
