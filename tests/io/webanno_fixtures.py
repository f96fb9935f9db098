"""A small INCEpTION project export in WebAnno TSV 3, built in a test's folder.

Two documents, ``news1.txt`` (a text document) and ``news2.tsv`` (one imported as WebAnno
TSV: its folder's name ends in ``.tsv`` and ``source/`` holds a ``.tsv`` file), annotated by
``anna`` and ``ben``; ``cai`` has only ``news1.txt``; the curation holds ``news1.txt``.
"""

from __future__ import annotations

from pathlib import Path

HEAD = ("#FORMAT=WebAnno TSV 3.3\n"
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n\n\n")

#: Document -> its text.
TEXTS = {"news1.txt": "Anna met Bob in Paris", "news2.tsv": "Cy left Rome"}

#: Annotator -> document -> the label of each token ("_": none).
ANNOTATORS = {
    "anna": {"news1.txt": "PER _ PER _ LOC", "news2.tsv": "PER _ LOC"},
    "ben": {"news1.txt": "PER _ _ _ LOC", "news2.tsv": "PER _ ORG"},
    "cai": {"news1.txt": "PER _ PER _ LOC"},
}
CURATION = {"news1.txt": "PER _ PER _ LOC"}


def tsv(text: str, labels: str) -> str:
    """One sentence of WebAnno TSV: ``text``'s space-separated tokens, one label each."""
    rows, start = [], 0
    for k, (token, label) in enumerate(zip(text.split(" "), labels.split(), strict=True), 1):
        cells = "_\t_" if label == "_" else f"*\t{label}"
        rows.append(f"1-{k}\t{start}-{start + len(token)}\t{token}\t{cells}\t")
        start += len(token) + 1
    return HEAD + f"#Text={text}\n" + "\n".join(rows) + "\n"


def write_export(root: Path, annotators: dict[str, dict[str, str]] | None = None,
                 curation: dict[str, str] | None = None) -> Path:
    """An export of ``annotators`` and ``curation`` (default :data:`ANNOTATORS`, :data:`CURATION`)."""
    annotators = ANNOTATORS if annotators is None else annotators
    curation = CURATION if curation is None else curation
    for folder, users in (("annotation", annotators), ("curation", {"CURATION_USER": curation})):
        for user, docs in users.items():
            for doc, labels in docs.items():
                path = root / folder / doc / f"{user}.tsv"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(tsv(TEXTS[doc], labels), encoding="utf-8")
    (root / "source").mkdir(exist_ok=True)
    (root / "source" / "news1.txt").write_text(TEXTS["news1.txt"], encoding="utf-8")
    (root / "source" / "news2.tsv").write_text(tsv(TEXTS["news2.tsv"], "_ _ _"),
                                               encoding="utf-8")
    (root / "curation" / "news2.tsv").mkdir(parents=True, exist_ok=True)  # not curated
    (root / "exportedproject1.json").write_text("{}", encoding="utf-8")
    return root
