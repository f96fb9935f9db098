"""Interning byte ranges and comparing the token columns of two CoNLL texts."""

from __future__ import annotations

import numpy as np
import pytest

from nerscore.io import _bytes
from nerscore.io._bytes import intern_ranges
from nerscore.io._conll_align import _differing_fields
from nerscore.io._conll_corpus import ConllText


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
