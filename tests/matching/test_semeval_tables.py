"""The SemEval tables (matching/_semeval_tables): counted categories as rows of P, R and F."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from tests.conftest import span_cols

from nerscore.errors import UndefinedMetricWarning
from nerscore.matching.semeval import match_semeval, semeval_tables
from nerscore.values.counts import Counts
from nerscore.values.spans import EntityColumns


def test_tables_from_exact_counts_is_an_error():
    with pytest.raises(ValueError, match=r"no SemEval categories.*match='semeval'"):
        semeval_tables(Counts.from_dict({"A": (1, 1, 1)}))


def test_tables_zero_division():
    res = match_semeval(span_cols([(0, 0, 2, "A")]), EntityColumns.empty(("A",), 1))
    row = res.extra["schemas"]["strict"]["overall"]
    assert (row["precision"], row["recall"], row["f1"]) == (0.0, 0.0, 0.0)
    nan_row = semeval_tables(res.counts, zero_division=float("nan"))["strict"]["overall"]
    assert np.isnan(nan_row["precision"])
    assert np.isnan(nan_row["f1"])
    assert nan_row["recall"] == 0.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        semeval_tables(res.counts, zero_division="warn")
    messages = [str(w.message) for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    assert any(m.startswith("SemEval strict precision is ill-defined") for m in messages)
