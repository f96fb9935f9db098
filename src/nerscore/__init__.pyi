"""The public namespace of nerscore: the one list of its names.

Type checkers read this file; at run time ``nerscore/__init__.py`` reads the same
imports to load each name on first use.
"""

from nerscore._version import __version__ as __version__
from nerscore.accumulate.files import (
    score_files as score_files,
)
from nerscore.accumulate.scorer import (
    EntityScorer as EntityScorer,
)
from nerscore.analysis.agreement import (
    AdjudicationStats as AdjudicationStats,
    Agreement as Agreement,
    adjudicate as adjudicate,
    agreement as agreement,
)
from nerscore.analysis.breakdowns import (
    Breakdown as Breakdown,
    Bucket as Bucket,
    breakdown as breakdown,
    breakdown_from_report as breakdown_from_report,
)
from nerscore.analysis.calibration import (
    Calibration as Calibration,
    calibration as calibration,
)
from nerscore.analysis.confusion import (
    ConfusionMatrix as ConfusionMatrix,
    confusion_from_report as confusion_from_report,
    confusion_matrix as confusion_matrix,
)
from nerscore.analysis.curves import (
    Curve as Curve,
    OperatingPoint as OperatingPoint,
    PRCurve as PRCurve,
    threshold_curve as threshold_curve,
)
from nerscore.analysis.diagnostics import (
    Diagnostics as Diagnostics,
    Finding as Finding,
    diagnose as diagnose,
)
from nerscore.analysis.errors import (
    ErrorCategory as ErrorCategory,
    ErrorRecord as ErrorRecord,
    errors_from_report as errors_from_report,
    list_errors as list_errors,
    write_errors as write_errors,
)
from nerscore.analysis.llm_errors import (
    unaligned_errors as unaligned_errors,
)
from nerscore.analysis.runs import (
    Runs as Runs,
    score_runs as score_runs,
)
from nerscore.analysis.significance import (
    Comparison as Comparison,
    RunSpread as RunSpread,
    SequenceCounts as SequenceCounts,
    compare as compare,
    compare_runs as compare_runs,
    confidence_intervals as confidence_intervals,
    sequence_counts as sequence_counts,
)
from nerscore.analysis.significance.llm_units import (
    llm_sequence_counts as llm_sequence_counts,
)
from nerscore.decode.entities import (
    entities_to_tags as entities_to_tags,
    tags_to_entities as tags_to_entities,
)
from nerscore.decode.mentions import (
    MentionAlignment as MentionAlignment,
    align_mentions as align_mentions,
)
from nerscore.decode.offsets import (
    align_tokens as align_tokens,
    char_spans_to_tags as char_spans_to_tags,
    char_spans_to_token_spans as char_spans_to_token_spans,
    tags_to_char_spans as tags_to_char_spans,
    token_spans_to_char_spans as token_spans_to_char_spans,
)
from nerscore.decode.validation import (
    RepairMethod as RepairMethod,
    TagIssue as TagIssue,
    ValidationResult as ValidationResult,
    repair_tags as repair_tags,
    validate_tags as validate_tags,
)
from nerscore.errors import (
    AnnotatorChoiceError as AnnotatorChoiceError,
    ConllevalMergeWarning as ConllevalMergeWarning,
    FormatError as FormatError,
    InputTypeError as InputTypeError,
    InvalidSpanError as InvalidSpanError,
    InvalidTagError as InvalidTagError,
    InvalidTransitionError as InvalidTransitionError,
    LengthMismatchError as LengthMismatchError,
    MissingDependencyError as MissingDependencyError,
    NerscoreError as NerscoreError,
    OptionError as OptionError,
    SchemeError as SchemeError,
    TextMismatchWarning as TextMismatchWarning,
    UndefinedMetricWarning as UndefinedMetricWarning,
    UnknownLabelWarning as UnknownLabelWarning,
)
from nerscore.io.brat import (
    read_brat as read_brat,
    write_brat as write_brat,
)
from nerscore.io.conll import (
    iter_conll as iter_conll,
    read_conll as read_conll,
    write_conll as write_conll,
)
from nerscore.io.convert import (
    ConversionResult as ConversionResult,
    convert_file as convert_file,
)
from nerscore.io.doccano import (
    read_doccano as read_doccano,
    write_doccano as write_doccano,
)
from nerscore.io.formats import (
    ChunkStream as ChunkStream,
    Format as Format,
    ReadResult as ReadResult,
    format_names as format_names,
    get_format as get_format,
    guess_format as guess_format,
    register_format as register_format,
)
from nerscore.io.jsonl import (
    read_jsonl as read_jsonl,
    write_jsonl as write_jsonl,
)
from nerscore.io.label_studio import (
    LabelStudioExport as LabelStudioExport,
    read_label_studio as read_label_studio,
    write_label_studio as write_label_studio,
)
from nerscore.io.llm_output import (
    parse_llm_output as parse_llm_output,
)
from nerscore.io.llm_records import (
    LLMRecord as LLMRecord,
    read_llm_records as read_llm_records,
)
from nerscore.io.prodigy import (
    read_prodigy as read_prodigy,
    read_prodigy_annotators as read_prodigy_annotators,
    write_prodigy as write_prodigy,
)
from nerscore.io.webanno import (
    read_webanno as read_webanno,
    read_webanno_annotators as read_webanno_annotators,
)
from nerscore.matching import (
    Alignment as Alignment,
    Matcher as Matcher,
    MatchResult as MatchResult,
    get_matcher as get_matcher,
)
from nerscore.matching.exact import (
    match_exact as match_exact,
)
from nerscore.matching.overlap import (
    match_overlap as match_overlap,
)
from nerscore.matching.semeval import (
    match_semeval as match_semeval,
    semeval_tables as semeval_tables,
)
from nerscore.matching.threshold import (
    match_threshold as match_threshold,
)
from nerscore.render.breakdown import (
    render_breakdown as render_breakdown,
)
from nerscore.render.confusion import (
    render_confusion as render_confusion,
)
from nerscore.render.conlleval import (
    render_conlleval as render_conlleval,
)
from nerscore.render.diagnostics import (
    render_diagnostics as render_diagnostics,
)
from nerscore.render.html import (
    render_html as render_html,
)
from nerscore.render.registry import (
    Renderer as Renderer,
    ScoreOutput as ScoreOutput,
    register_renderer as register_renderer,
    render_result as render_result,
    renderer_names as renderer_names,
)
from nerscore.render.seqeval import (
    render_seqeval as render_seqeval,
)
from nerscore.render.significance import (
    render_comparison as render_comparison,
)
from nerscore.render.text import (
    render_markdown as render_markdown,
    render_text as render_text,
)
from nerscore.scoring.counting import (
    count_matches as count_matches,
    match_entities as match_entities,
)
from nerscore.scoring.llm import (
    LLMSummary as LLMSummary,
    evaluate_llm as evaluate_llm,
)
from nerscore.scoring.metrics import (
    accuracy_score as accuracy_score,
    classification_report as classification_report,
    evaluate as evaluate,
    f1_score as f1_score,
    fbeta_score as fbeta_score,
    precision_score as precision_score,
    recall_score as recall_score,
)
from nerscore.scoring.reduction import (
    Average as Average,
    Scores as Scores,
    reduce_counts as reduce_counts,
)
from nerscore.scoring.report import (
    Report as Report,
    Row as Row,
)
from nerscore.values.counts import (
    Counts as Counts,
    LabelCounts as LabelCounts,
)
from nerscore.values.decoding import (
    Decoding as Decoding,
)
from nerscore.values.documents import (
    Document as Document,
)
from nerscore.values.label_ops import (
    LabelOps as LabelOps,
)
from nerscore.values.mentions import (
    Mention as Mention,
    ParsedOutput as ParsedOutput,
)
from nerscore.values.schemes import (
    Mode as Mode,
    Scheme as Scheme,
    get_scheme as get_scheme,
)
from nerscore.values.spans import (
    Entity as Entity,
    EntityColumns as EntityColumns,
    Span as Span,
)
from nerscore.values.tags import (
    EncodedTags as EncodedTags,
)
