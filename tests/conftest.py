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


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)
