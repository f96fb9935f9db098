"""Interning byte ranges and comparing the token columns of two CoNLL texts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore.io import _bytes
from nerscore.io._bytes import intern_ranges
from nerscore.io._conll_align import _differing_fields
from nerscore.io._conll_text import ConllText


def _ranges(fields: list[bytes], sep: bytes = b" ") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    data = sep.join(fields)
    starts = np.cumsum([0] + [len(f) + len(sep) for f in fields[:-1]])
    return np.frombuffer(data, dtype=np.uint8), starts, starts + [len(f) for f in fields]


@pytest.mark.parametrize("n", [7, _bytes._HEAD + 500])
def test_labels_first_seen_past_the_head_keep_first_occurrence_order(n):
    labels = [b"O", b"B-PER", b"I-PER"] * (n // 3)
    labels[-1] = b"I-X"  # past the head when the block is longer
    labels[len(labels) // 2] = b"B-LONGER"  # 8 bytes: still one word
    labels[-3], labels[-2] = b"B-X", b"I-X"  # two more, before the last
    b, starts, ends = _ranges(labels)
    ids, vocab = intern_ranges(b, starts, ends)
    assert [vocab[i] for i in ids] == [x.decode() for x in labels]
    assert vocab == tuple(dict.fromkeys(x.decode() for x in labels))


def _same_slot_pair() -> tuple[int, int]:
    """Two label-like words whose hashes fall in the same slot of the lookup table."""
    rng = np.random.default_rng(0)
    words = np.array([int.from_bytes(b"L-" + bytes(rng.integers(65, 91, 4).tolist()), "little")
                      for _ in range(1 << 12)], dtype=np.uint64)
    slots = (words * _bytes.GOLDEN) >> _bytes._SHIFT
    order = np.argsort(slots, kind="stable")
    same = np.flatnonzero(slots[order][1:] == slots[order][:-1])
    assert len(same), "no two words share a slot"
    return int(words[order[same[0]]]), int(words[order[same[0] + 1]])


def _reference(key: np.ndarray) -> tuple[list[int], list[int]]:
    """Ids numbered in order of first occurrence, and that occurrence of each id."""
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inv.reshape(-1)].tolist(), first[order].tolist()


@pytest.mark.parametrize("past_head", [False, True])
def test_distinct_values_sharing_a_hash_slot_are_told_apart(past_head):
    a, b = _same_slot_pair()
    rng = np.random.default_rng(5)
    key = rng.choice(np.array([a, b, 11, 12], dtype=np.uint64), size=3 * _bytes._HEAD)
    if past_head:  # ``b`` only after the head: found by the second pass
        key[: _bytes._HEAD][key[: _bytes._HEAD] == b] = a
    assert _reference(key) == tuple(x.tolist() for x in _bytes._first_seen_ids(key))


@pytest.mark.parametrize("seed", range(20))
def test_first_seen_ids_number_numpy_uniques_values_in_order_of_first_occurrence(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3 * _bytes._HEAD))
    pool = rng.integers(0, 2**63, size=int(rng.integers(1, 40)), dtype=np.uint64)
    key = rng.choice(pool, size=n)
    late = rng.permutation(pool.max() + np.arange(1, 5, dtype=np.uint64))
    for value in late:  # values past the head only, first seen in no order of value
        where = rng.random(n) < 0.004
        where[: _bytes._HEAD] = False
        key[where] = value
    assert _reference(key) == tuple(x.tolist() for x in _bytes._first_seen_ids(key))


def _text(tokens: list[bytes], sep: bytes) -> ConllText:
    b, starts, ends = _ranges(tokens, sep)
    return ConllText(b.tobytes(), starts.astype(np.int32), ends.astype(np.int32), starts, ends)


@pytest.mark.parametrize("copies", [1, 20])  # 20: more long tokens than are compared as bytes
def test_tokens_differing_anywhere_past_their_first_8_bytes_are_found(copies):
    gold = [b"a", b"Barcelona-Madrid", b"internationalisation", b"short", b"twelve-bytes",
            b"x" * 40, b"same-long-token", b"y" * 17] * copies
    pred = [b"a", b"Barcelona-Madrix", b"internationalisatiom", b"short", b"twelve-bytez",
            b"x" * 39 + b"z", b"same-long-token", b"y" * 16 + b"Y"] * copies
    found = _differing_fields(_text(gold, b"\tO\n"), _text(pred, b" O\r\n"))
    assert found.tolist() == [8 * k + i for k in range(copies) for i in (1, 2, 4, 5, 7)]
    assert not len(_differing_fields(_text(gold, b"\tO\n"), _text(gold, b" O\r\n")))


def test_keys_all_in_the_head_are_found_by_one_table_lookup(monkeypatch):
    key = np.array([5, 9, 5, 2, 9, 9], dtype=np.uint64)
    monkeypatch.setattr(_bytes.np, "searchsorted", None)  # the binary search is not reached
    assert _reference(key) == tuple(x.tolist() for x in _bytes._first_seen_ids(key))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=40).filter(lambda t: b" " not in t and b"\n" not in t),
                min_size=1, max_size=30), st.data())
def test_differing_tokens_with_and_without_the_readers_heads(gold, data):
    """The readers' first words (either side, both, neither): the tokens that differ, no more."""
    pred = [data.draw(st.sampled_from([t, t[:-1] + b"#", t + b"x", b"#" + t[1:], t]))
            for t in gold]
    expected = [k for k, (a, b) in enumerate(zip(gold, pred, strict=True)) if a != b]
    g, p = _text(gold, b"\tO\n"), _text(pred, b" O\r\n")
    for a, b in ((g, p), (g.with_heads(), p), (g, p.with_heads()), (g.with_heads(), p.with_heads())):
        assert _differing_fields(a, b).tolist() == expected


@pytest.mark.parametrize("intern_name", ["intern_ranges", "intern_tokens"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_long_strings_are_interned_aside_in_order_of_first_occurrence(monkeypatch, intern_name,
                                                                      seed):
    """A string longer than LONG bytes never reaches the word-by-word hashing (it cost a NumPy
    pass per 8 bytes, and for labels a row that wide for every string of the file)."""
    from nerscore.io import _intern

    module = _bytes if intern_name == "intern_ranges" else _intern
    words_path = module._intern_words
    longest = []

    def spy(b, starts, ends):
        longest.append(int((ends - starts).max()) if len(starts) else 0)
        return words_path(b, starts, ends)

    monkeypatch.setattr(module, "_intern_words", spy)
    rng = np.random.default_rng(seed)
    pool = [b"O", b"B-PER", "é".encode() * 40, b"X" * (_bytes.LONG + 1), b"Y" * 5000,
            b"Z" * _bytes.LONG, b"B-" + b"Q" * 100]
    fields = [pool[i] for i in rng.integers(0, len(pool) - seed, 400)]
    b, starts, ends = _ranges(fields)
    ids, vocab = getattr(module, intern_name)(b, starts, ends)
    assert [vocab[i] for i in ids.tolist()] == [x.decode() for x in fields]
    assert vocab == tuple(dict.fromkeys(x.decode() for x in fields))
    assert max(longest) <= _bytes.LONG
    only_long = [b"L" * 100, b"M" * 99, b"L" * 100]
    ids, vocab = getattr(module, intern_name)(*_ranges(only_long))
    assert ids.tolist() == [0, 1, 0]
    assert vocab == ("L" * 100, "M" * 99)
