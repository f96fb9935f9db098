"""F-beta terms for every beta, and the beta check."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from nerscore.errors import OptionError
from nerscore.values.ratios import check_beta, fbeta_terms

TP, GOLD, PRED = np.array([3.0, 0.0, 0.0, 2.5]), np.array([4, 0, 0, 5]), np.array([6, 2, 0, 3])


@pytest.mark.parametrize("beta", [1e-300, 0.5, 1.0, 2.0, 1e75])
def test_the_textbook_terms_up_to_a_huge_beta(beta):
    num, den = fbeta_terms(TP, GOLD, PRED, beta)
    b2 = beta * beta
    assert num.tolist() == ((1 + b2) * TP).tolist()
    assert den.tolist() == (b2 * GOLD + PRED).tolist()


@pytest.mark.parametrize("beta", [1e76, 1e154, 1e160, 1e308, np.finfo(np.float64).max])
def test_a_huge_beta_gives_the_recall(beta):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        num, den = fbeta_terms(TP, GOLD, PRED, beta)
    assert np.isfinite(num).all()
    assert np.isfinite(den).all()
    # the recall; predictions without gold score 0, nothing at all is undefined (0 / 0)
    assert (num[[0, 1, 3]] / den[[0, 1, 3]]).tolist() == pytest.approx([0.75, 0.0, 0.5])
    assert (num[2], den[2]) == (0.0, 0.0)


@pytest.mark.parametrize("beta", [math.inf, -math.inf, math.nan, 0, -1, True, "2"])
def test_check_beta_wants_a_finite_positive_number(beta):
    with pytest.raises(OptionError, match="Expected `beta` to be a positive number"):
        check_beta(beta)
    assert check_beta(1e308) == 1e308
