"""A file's tokens are read only where an entity covers them (error listing, diagnostics)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import numpy as np

import nerscore
from nerscore.analysis.surfaces import surfaces
from nerscore.values.spans import EntityColumns
from nerscore.values.tags import EncodedTags, Slices


class CountingTokens(Sequence[str]):
    """Tokens that count how many of them were read."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.reads = 0

    def __len__(self) -> int:
        return len(self.tokens)

    @overload
    def __getitem__(self, k: int) -> str: ...

    @overload
    def __getitem__(self, k: slice) -> list[str]: ...

    def __getitem__(self, k: int | slice) -> str | list[str]:
        out = self.tokens[k]
        self.reads += len(out) if isinstance(k, slice) else 1
        return out


def _corpus(n_sentences: int) -> tuple[list[list[str]], list[list[str]], list[str]]:
    gold = [["B-PER", "I-PER", "O", "O", "O", "O", "O", "O"]] * n_sentences
    pred = [["B-PER", "O", "O", "O", "O", "O", "O", "B-LOC"]] * n_sentences
    tokens = [f"w{i}" for i in range(8 * n_sentences)]
    return gold, pred, tokens


def test_error_listing_reads_only_covered_tokens():
    gold, pred, tokens = _corpus(50)
    flat = CountingTokens(tokens)
    texts = Slices(flat, np.arange(0, 8 * 51, 8))
    records = nerscore.list_errors(gold, pred, texts=texts)
    assert len(records) == 100
    assert records[0].gold_text == "w0 w1"
    assert records[0].pred_text == "w0"
    assert records[1].pred_text == "w7"
    assert flat.reads == 50 * (2 + 1 + 1)  # gold PER (2 tokens), pred PER, spurious LOC
    assert records == nerscore.list_errors(gold, pred, texts=[tokens[8 * k: 8 * k + 8]
                                                                for k in range(50)])


def test_error_listing_of_encoded_tags_from_a_file_reads_covered_tokens():
    gold, pred, tokens = _corpus(20)
    flat = CountingTokens(tokens)
    offsets = np.arange(0, 8 * 21, 8)
    y_true = EncodedTags.from_lists(gold)
    y_true = EncodedTags(y_true.ids, offsets, y_true.vocab, tokens=flat)
    records = nerscore.list_errors(y_true, pred)
    assert [r.gold_text for r in records[:2]] == ["w0 w1", None]
    assert flat.reads == 20 * 4


def test_surfaces_of_slices_read_only_covered_tokens():
    flat = CountingTokens(["Ann", "Lee", "ran", "far", "Bob"])
    texts = Slices(flat, np.array([0, 4, 5]))
    ents = EntityColumns([0, 1], [0, 0], [2, 1], [0, 0], ("PER",), 2)
    assert surfaces(ents, texts) == ["Ann Lee", "Bob"]
    assert flat.reads == 3
