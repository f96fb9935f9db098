"""Interning a file's tokens by their bytes (io/_intern.py) against decoding every token."""

from __future__ import annotations

import numpy as np
import pytest

from nerscore.io import _intern
from nerscore.io._intern import intern_tokens


def _tokens(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """``n`` tokens of 1 to 30 characters (some multi-byte), joined by newlines, and their ranges."""
    rng = np.random.default_rng(seed)
    alphabet = [*"abcAB-é€", "\U0001f600"]
    pool = ["".join(rng.choice(alphabet, size=int(k))) for k in rng.integers(1, 31, 300)]
    pool += ["a", "ab", "abcdefgh", "abcdefghi", "abcdefgh" * 3, "x" * 16]
    words = [pool[i] for i in rng.integers(0, len(pool), n)]
    data = "\n".join(words).encode("utf-8")
    lens = np.array([len(w.encode("utf-8")) for w in words], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lens + 1)[:-1]])
    return np.frombuffer(data, dtype=np.uint8), starts, starts + lens, words


def _expected(words: list[str]) -> tuple[list[int], tuple[str, ...]]:
    index: dict[str, int] = {}
    return [index.setdefault(w, len(index)) for w in words], tuple(index)


@pytest.mark.parametrize("seed", [0, 1])
def test_ids_and_vocabulary_equal_decoding_every_token(seed, monkeypatch):
    monkeypatch.setattr(_intern, "_BLOCK", 1000)  # several blocks
    b, starts, ends, words = _tokens(seed, 5000)
    ids, vocab = intern_tokens(b, starts, ends)
    assert (ids.tolist(), vocab) == _expected(words)


def test_a_hash_collision_falls_back_to_exact_ids(monkeypatch):
    b, starts, ends, words = _tokens(2, 2000)
    monkeypatch.setattr(_intern, "_MULT", np.uint64(0))  # the hash is then the length alone
    calls = []
    exact = _intern._exact
    monkeypatch.setattr(_intern, "_exact", lambda *a: calls.append(1) or exact(*a))
    ids, vocab = intern_tokens(b, starts, ends)
    assert calls == [1]
    assert (ids.tolist(), vocab) == _expected(words)


def test_nothing_to_intern():
    ids, vocab = intern_tokens(np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int64),
                               np.zeros(0, dtype=np.int64))
    assert (ids.tolist(), vocab) == ([], ())
