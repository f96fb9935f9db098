"""A file's token column (io/_conll_text.FieldView): interning every token once, then ranges."""

from __future__ import annotations

import copy
import pickle
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore.io import _conll_text
from nerscore.io._conll_text import FieldView

WORDS = ["Ann", "saw", "a", "", "Annabella-Lee", "é€", "saw", "Annabella-Lea", "x" * 17]


def _view(words: list[str]) -> FieldView:
    data = "\n".join(words).encode("utf-8")
    lens = np.array([len(w.encode("utf-8")) for w in words], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lens + 1)[:-1]]).astype(np.int32)
    return FieldView(data, starts, (starts + lens).astype(np.int32))


def _first_seen(words: list[str]) -> tuple[list[int], tuple[str, ...]]:
    index: dict[str, int] = {}
    return [index.setdefault(w, len(index)) for w in words], tuple(index)


@pytest.mark.parametrize("block", [1, 3, 1 << 19])
def test_interned_numbers_every_token_in_order_of_first_occurrence(block, monkeypatch):
    monkeypatch.setattr(_conll_text, "_INTERN_BLOCK", block)  # blocks joined
    words = [WORDS[i] for i in np.random.default_rng(block).integers(0, len(WORDS), 200)]
    ids, vocab = _view(words).interned()
    assert (ids.tolist(), vocab) == _first_seen(words)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=40), st.data())
def test_ranges_read_from_the_interned_tokens_equal_ranges_hashed_alone(words, data):
    n = len(words)
    ranges = data.draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), max_size=8))
    first = np.array([min(a, b) for a, b in ranges], dtype=np.int64)
    stop = np.array([max(a, b) for a, b in ranges], dtype=np.int64)
    alone = _view(words).intern_ranges(first, stop)
    view = _view(words)
    view.interned()
    ids, vocab = view.intern_ranges(first, stop)
    assert (ids.tolist(), vocab) == (alone[0].tolist(), alone[1])
    picked = [w for a, b in zip(first.tolist(), stop.tolist(), strict=True) for w in words[a:b]]
    assert (ids.tolist(), vocab) == _first_seen(picked)


def test_ranges_asked_for_while_another_thread_interns_wait_for_it():
    view = _view(WORDS * 3)
    computed = []
    started = threading.Event()

    def aside():
        with view._lock:  # the background thread, holding the lock while it hashes
            started.set()
            time.sleep(0.2)
            view._all = view._intern_all()
            computed.append(1)

    t = threading.Thread(target=aside)
    t.start()
    started.wait()
    ids, vocab = view.intern_ranges(np.array([9]), np.array([18]))
    t.join()
    assert computed == [1]  # read from the thread's result, not hashed again
    assert (ids.tolist(), vocab) == _first_seen(WORDS)


def test_a_view_pickles_and_copies_without_its_lock_or_tokens_interned():
    view = _view(WORDS)
    view.interned()
    for other in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view)):
        assert other[:] == WORDS
        assert other._all is None
        assert not other._lock.locked()
        assert other.interned()[1] == view.interned()[1]
