"""Shared test helpers."""

from __future__ import annotations

import numpy as np
import pytest


def random_tag_corpus(
    rng: np.random.Generator,
    *,
    n_sentences: int = 20,
    max_len: int = 12,
    letters: str = "BI",
    types: tuple[str, ...] = ("PER", "LOC", "ORG"),
    p_outside: float = 0.4,
    outside: str = "O",
) -> list[list[str]]:
    """Random (often invalid) tag sequences over the given prefix letters."""
    out = []
    for _ in range(n_sentences):
        n = int(rng.integers(0, max_len + 1))
        sent = []
        for _ in range(n):
            if rng.random() < p_outside:
                sent.append(outside)
            else:
                letter = letters[int(rng.integers(len(letters)))]
                typ = types[int(rng.integers(len(types)))]
                sent.append(f"{letter}-{typ}" if typ else letter)
        out.append(sent)
    return out


def span_cols(spans, labels=None):
    """EntityColumns from (doc, start, end, label) tuples, rows in the order given."""
    from nerscore.values.spans import EntityColumns

    labels = labels or tuple(sorted({lab for *_, lab in spans}))
    index = {lab: i for i, lab in enumerate(labels)}
    return EntityColumns(
        [d for d, *_ in spans], [s for _, s, _, _ in spans], [e for _, _, e, _ in spans],
        [index[lab] for *_, lab in spans], labels,
    )


def one_label(spans, label="A", doc=0):
    """(doc, start, end, label) tuples of one label and document."""
    return [(doc, s, e, label) for s, e in spans]


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)
