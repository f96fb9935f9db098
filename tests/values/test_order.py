"""lexsort: numpy.lexsort's order from one packed key, or numpy.lexsort itself."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from nerscore.values.order import lexsort


def test_empty_and_constant_keys():
    assert lexsort((np.zeros(0, dtype=np.int64),)).tolist() == []
    assert lexsort((np.array([3, 3, 3]), np.array([True, True, True]))).tolist() == [0, 1, 2]


def test_wide_ranges_fall_back_to_numpy():
    big = np.array([2**61, -(2**61), 0, 2**61])
    keys = (np.array([1, 0, 0, 0]), big, big)
    assert lexsort(keys).tolist() == np.lexsort(keys).tolist() == [1, 2, 3, 0]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.lists(st.tuples(st.integers(-5, 5), st.booleans(),
                                              st.integers(-(2**20), 2**20)),
                                    min_size=1, max_size=6), st.randoms())
def test_same_order_as_numpy_lexsort(n, specs, rnd):
    keys = []
    for a, boolean, b in specs:
        if boolean:
            keys.append(np.array([rnd.random() < 0.5 for _ in range(n)]))
        else:
            lo, hi = sorted((a, b))
            keys.append(np.array([rnd.randint(lo, hi) for _ in range(n)], dtype=np.int64))
    got = lexsort(keys)
    assert got.dtype == np.int64
    assert got.tolist() == np.lexsort(keys).tolist()
