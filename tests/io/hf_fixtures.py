"""Hugging Face dataset fixtures built with ``datasets`` itself (test group only).

``python -m tests.io.hf_fixtures`` writes ``tests/data/hf/``: the CoNLL-2000 example of
``examples/conll2000`` as a ``DatasetDict.save_to_disk`` folder (``conll2000/``: split
``test`` is the gold file, ``train`` its first ten sentences) and the predictions in the hub's
Parquet layout (``conll2000_pred/data/test-00000-of-00001.parquet``), with the ``ClassLabel``
names in another order than gold's.
"""

from __future__ import annotations

import sys
from pathlib import Path

from nerscore.io.formats import get_format
from tests.paths import DATA, EXAMPLES

OUT = DATA / "hf"


def _rows(path: Path) -> tuple[list[list[str]], list[list[str]]]:
    read = get_format("conll").load(path)
    return [list(t) for t in read.texts()], read.data.to_lists()


def build(out: Path = OUT) -> None:
    """Write the fixtures under ``out`` (needs ``datasets``)."""
    import datasets

    gold_tokens, gold_tags = _rows(EXAMPLES / "conll2000" / "gold.conll")
    pred_tokens, pred_tags = _rows(EXAMPLES / "conll2000" / "pred.conll")
    names = sorted({t for s in gold_tags + pred_tags for t in s})

    def dataset(tokens: list[list[str]], tags: list[list[str]],
                order: list[str]) -> datasets.Dataset:
        features = datasets.Features({
            "id": datasets.Value("string"),
            "tokens": datasets.Sequence(datasets.Value("string")),
            "ner_tags": datasets.Sequence(datasets.ClassLabel(names=order)),
        })
        index = {n: i for i, n in enumerate(order)}
        return datasets.Dataset.from_dict(
            {"id": [str(i) for i in range(len(tokens))], "tokens": tokens,
             "ner_tags": [[index[t] for t in s] for s in tags]}, features=features)

    gold = dataset(gold_tokens, gold_tags, names)
    datasets.DatasetDict({"train": gold.select(range(10)), "test": gold}).save_to_disk(
        str(out / "conll2000"))
    pred = dataset(pred_tokens, pred_tags, names[::-1])
    (out / "conll2000_pred" / "data").mkdir(parents=True, exist_ok=True)
    pred.to_parquet(str(out / "conll2000_pred" / "data" / "test-00000-of-00001.parquet"))


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
