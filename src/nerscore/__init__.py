"""nerscore: fast, reference-exact scoring of named-entity recognition output.

The public API lives here; modules whose names start with ``_`` are private.
"""

from nerscore._reduce import Average, Scores, reduce_counts
from nerscore._tags import EncodedTags
from nerscore._version import __version__
from nerscore.counts import Counts, LabelCounts
from nerscore.errors import (
    FormatError,
    InvalidSpanError,
    InvalidTagError,
    InvalidTransitionError,
    LengthMismatchError,
    NerscoreError,
    SchemeError,
    UndefinedMetricWarning,
)
from nerscore.extraction import entities_to_tags, tags_to_entities
from nerscore.matching import Alignment, MatchResult
from nerscore.metrics import (
    accuracy_score,
    classification_report,
    count_matches,
    evaluate,
    f1_score,
    fbeta_score,
    match_entities,
    precision_score,
    recall_score,
)
from nerscore.report import Report, Row, render_markdown, render_text
from nerscore.schemes import Mode, Scheme, get_scheme
from nerscore.scorer import EntityScorer
from nerscore.types import Entity, EntityColumns, Span

__all__ = [
    "Alignment",
    "Average",
    "Counts",
    "EncodedTags",
    "Entity",
    "EntityColumns",
    "EntityScorer",
    "FormatError",
    "InvalidSpanError",
    "InvalidTagError",
    "InvalidTransitionError",
    "LabelCounts",
    "LengthMismatchError",
    "MatchResult",
    "Mode",
    "NerscoreError",
    "Report",
    "Row",
    "Scheme",
    "SchemeError",
    "Scores",
    "Span",
    "UndefinedMetricWarning",
    "__version__",
    "accuracy_score",
    "classification_report",
    "count_matches",
    "entities_to_tags",
    "evaluate",
    "f1_score",
    "fbeta_score",
    "get_scheme",
    "match_entities",
    "precision_score",
    "recall_score",
    "reduce_counts",
    "render_markdown",
    "render_text",
    "tags_to_entities",
]
