"""nerscore: fast, reference-exact scoring of named-entity recognition output.

The public API lives here; modules whose names start with ``_`` are private.
Names are imported on first use (PEP 562), so ``import nerscore`` and the
command line start quickly; nothing else happens on import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from nerscore._version import __version__

#: public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # values and columns
    "Span": "nerscore.types",
    "Entity": "nerscore.types",
    "EntityColumns": "nerscore.types",
    "EncodedTags": "nerscore.tags",
    "Document": "nerscore.documents",
    # schemes, decoding, validation
    "Scheme": "nerscore.schemes",
    "Mode": "nerscore.schemes",
    "get_scheme": "nerscore.schemes",
    "tags_to_entities": "nerscore.extraction",
    "convert_file": "nerscore.convert",
    "ConversionResult": "nerscore.convert",
    "entities_to_tags": "nerscore.extraction",
    "validate_tags": "nerscore.validation",
    "repair_tags": "nerscore.validation",
    "ValidationResult": "nerscore.validation",
    "TagIssue": "nerscore.validation",
    "RepairMethod": "nerscore.validation",
    # counting and reduction
    "Counts": "nerscore.counts",
    "LabelCounts": "nerscore.counts",
    "Average": "nerscore.reduction",
    "Scores": "nerscore.reduction",
    "reduce_counts": "nerscore.reduction",
    "count_matches": "nerscore.metrics",
    "match_entities": "nerscore.metrics",
    "precision_score": "nerscore.metrics",
    "recall_score": "nerscore.metrics",
    "f1_score": "nerscore.metrics",
    "fbeta_score": "nerscore.metrics",
    "accuracy_score": "nerscore.metrics",
    "evaluate": "nerscore.metrics",
    "classification_report": "nerscore.metrics",
    "EntityScorer": "nerscore.scorer",
    # matchers
    "Alignment": "nerscore.matching",
    "MatchResult": "nerscore.matching",
    "match_exact": "nerscore.matching.exact",
    "match_semeval": "nerscore.matching.semeval",
    "semeval_tables": "nerscore.matching.semeval",
    "match_overlap": "nerscore.matching.overlap",
    "match_threshold": "nerscore.matching.threshold",
    # analysis
    "ConfusionMatrix": "nerscore.confusion",
    "confusion_matrix": "nerscore.confusion",
    "render_confusion": "nerscore.confusion",
    "ErrorCategory": "nerscore.analysis",
    "ErrorRecord": "nerscore.analysis",
    "list_errors": "nerscore.analysis",
    "write_errors": "nerscore.analysis",
    "Breakdown": "nerscore.breakdowns",
    "Bucket": "nerscore.breakdowns",
    "breakdown": "nerscore.breakdowns",
    "breakdown_from_report": "nerscore.breakdowns",
    "render_breakdown": "nerscore.breakdowns",
    "Diagnostics": "nerscore.diagnostics",
    "Finding": "nerscore.diagnostics",
    "diagnose": "nerscore.diagnostics",
    "render_diagnostics": "nerscore.diagnostics",
    # reports
    "Report": "nerscore.report",
    "Row": "nerscore.report",
    "render_text": "nerscore.report",
    "render_markdown": "nerscore.report",
    "render_html": "nerscore.report",
    "render_seqeval": "nerscore.report.seqeval",
    "render_conlleval": "nerscore.report.conlleval",
    # files and conversions
    "read_conll": "nerscore.io.conll",
    "iter_conll": "nerscore.io.conll",
    "score_files": "nerscore.streaming",
    "write_conll": "nerscore.io.conll",
    "read_jsonl": "nerscore.io.jsonl",
    "write_jsonl": "nerscore.io.jsonl",
    "read_brat": "nerscore.io.brat",
    "write_brat": "nerscore.io.brat",
    "align_tokens": "nerscore.conversion",
    "char_spans_to_token_spans": "nerscore.conversion",
    "token_spans_to_char_spans": "nerscore.conversion",
    "tags_to_char_spans": "nerscore.conversion",
    "char_spans_to_tags": "nerscore.conversion",
    # errors and warnings
    "NerscoreError": "nerscore.errors",
    "SchemeError": "nerscore.errors",
    "InvalidTagError": "nerscore.errors",
    "InvalidTransitionError": "nerscore.errors",
    "LengthMismatchError": "nerscore.errors",
    "InvalidSpanError": "nerscore.errors",
    "FormatError": "nerscore.errors",
    "InputTypeError": "nerscore.errors",
    "MissingDependencyError": "nerscore.errors",
    "UndefinedMetricWarning": "nerscore.errors",
    "ConllevalMergeWarning": "nerscore.errors",
    "OptionError": "nerscore.errors",
    "Decoding": "nerscore.decoding",
    "Matcher": "nerscore.matching",
    "get_matcher": "nerscore.matching",
    "confusion_from_report": "nerscore.confusion",
    "errors_from_report": "nerscore.analysis",
    # comparing systems
    "compare": "nerscore.significance",
    "confidence_intervals": "nerscore.significance",
    "render_comparison": "nerscore.significance",
    "sequence_counts": "nerscore.significance",
    "Comparison": "nerscore.significance",
    "SequenceCounts": "nerscore.significance",
}

__all__ = [
    "Alignment",
    "Average",
    "Breakdown",
    "Bucket",
    "Comparison",
    "ConfusionMatrix",
    "ConllevalMergeWarning",
    "ConversionResult",
    "Counts",
    "Decoding",
    "Diagnostics",
    "Document",
    "EncodedTags",
    "Entity",
    "EntityColumns",
    "EntityScorer",
    "ErrorCategory",
    "ErrorRecord",
    "Finding",
    "FormatError",
    "InputTypeError",
    "InvalidSpanError",
    "InvalidTagError",
    "InvalidTransitionError",
    "LabelCounts",
    "LengthMismatchError",
    "MatchResult",
    "Matcher",
    "MissingDependencyError",
    "Mode",
    "NerscoreError",
    "OptionError",
    "RepairMethod",
    "Report",
    "Row",
    "Scheme",
    "SchemeError",
    "Scores",
    "SequenceCounts",
    "Span",
    "TagIssue",
    "UndefinedMetricWarning",
    "ValidationResult",
    "__version__",
    "accuracy_score",
    "align_tokens",
    "breakdown",
    "breakdown_from_report",
    "char_spans_to_tags",
    "char_spans_to_token_spans",
    "classification_report",
    "compare",
    "confidence_intervals",
    "confusion_from_report",
    "confusion_matrix",
    "convert_file",
    "count_matches",
    "diagnose",
    "entities_to_tags",
    "errors_from_report",
    "evaluate",
    "f1_score",
    "fbeta_score",
    "get_matcher",
    "get_scheme",
    "iter_conll",
    "list_errors",
    "match_entities",
    "match_exact",
    "match_overlap",
    "match_semeval",
    "match_threshold",
    "precision_score",
    "read_brat",
    "read_conll",
    "read_jsonl",
    "recall_score",
    "reduce_counts",
    "render_breakdown",
    "render_comparison",
    "render_confusion",
    "render_conlleval",
    "render_diagnostics",
    "render_html",
    "render_markdown",
    "render_seqeval",
    "render_text",
    "repair_tags",
    "score_files",
    "semeval_tables",
    "sequence_counts",
    "tags_to_char_spans",
    "tags_to_entities",
    "token_spans_to_char_spans",
    "validate_tags",
    "write_brat",
    "write_conll",
    "write_errors",
    "write_jsonl",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'nerscore' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from nerscore.analysis import (
        ErrorCategory,
        ErrorRecord,
        errors_from_report,
        list_errors,
        write_errors,
    )
    from nerscore.breakdowns import (
        Breakdown,
        Bucket,
        breakdown,
        breakdown_from_report,
        render_breakdown,
    )
    from nerscore.confusion import (
        ConfusionMatrix,
        confusion_from_report,
        confusion_matrix,
        render_confusion,
    )
    from nerscore.conversion import (
        align_tokens,
        char_spans_to_tags,
        char_spans_to_token_spans,
        tags_to_char_spans,
        token_spans_to_char_spans,
    )
    from nerscore.convert import ConversionResult, convert_file
    from nerscore.counts import Counts, LabelCounts
    from nerscore.decoding import Decoding
    from nerscore.diagnostics import Diagnostics, Finding, diagnose, render_diagnostics
    from nerscore.documents import Document
    from nerscore.errors import (
        ConllevalMergeWarning,
        FormatError,
        InputTypeError,
        InvalidSpanError,
        InvalidTagError,
        InvalidTransitionError,
        LengthMismatchError,
        MissingDependencyError,
        NerscoreError,
        OptionError,
        SchemeError,
        UndefinedMetricWarning,
    )
    from nerscore.extraction import entities_to_tags, tags_to_entities
    from nerscore.io.brat import read_brat, write_brat
    from nerscore.io.conll import iter_conll, read_conll, write_conll
    from nerscore.io.jsonl import read_jsonl, write_jsonl
    from nerscore.matching import Alignment, Matcher, MatchResult, get_matcher
    from nerscore.matching.exact import match_exact
    from nerscore.matching.overlap import match_overlap
    from nerscore.matching.semeval import match_semeval, semeval_tables
    from nerscore.matching.threshold import match_threshold
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
    from nerscore.reduction import Average, Scores, reduce_counts
    from nerscore.report import Report, Row, render_html, render_markdown, render_text
    from nerscore.report.conlleval import render_conlleval
    from nerscore.report.seqeval import render_seqeval
    from nerscore.schemes import Mode, Scheme, get_scheme
    from nerscore.scorer import EntityScorer
    from nerscore.significance import (
        Comparison,
        SequenceCounts,
        compare,
        confidence_intervals,
        render_comparison,
        sequence_counts,
    )
    from nerscore.streaming import score_files
    from nerscore.tags import EncodedTags
    from nerscore.types import Entity, EntityColumns, Span
    from nerscore.validation import (
        RepairMethod,
        TagIssue,
        ValidationResult,
        repair_tags,
        validate_tags,
    )
