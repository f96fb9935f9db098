"""Agreement between annotators: pairwise F1, kappa and alpha, disagreements, adjudication.

See docs/agreement.md for the definition of every number.
"""

from nerscore.analysis.agreement.adjudication import AdjudicationStats, Tie, adjudicate
from nerscore.analysis.agreement.compute import agreement
from nerscore.analysis.agreement.results import (
    Agreement,
    Disagreement,
    DocumentAgreement,
    PairwiseF1,
    TokenAgreement,
    TokenLevel,
)

__all__ = ["AdjudicationStats", "Agreement", "Disagreement", "DocumentAgreement", "PairwiseF1",
           "Tie", "TokenAgreement", "TokenLevel", "adjudicate", "agreement"]
