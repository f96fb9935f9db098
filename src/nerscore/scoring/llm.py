"""Scoring what generative models answered: parse, align, map labels, match (docs/llm.md).

:func:`evaluate_llm` takes gold documents and model outputs (raw strings,
parsed outputs or mentions), reads each output
(:func:`~nerscore.io.llm_output.parse_llm_output`), places its mentions in
the gold text (:func:`~nerscore.decode.mentions.align_mentions`), maps its
labels to the gold schema, and scores the aligned entities with any matcher.
Nothing is dropped silently:

- a parse failure predicts nothing for its document (its gold entities are
  all missed) and is counted;
- an unaligned mention (a hallucination) is a false positive under every
  matcher: the mentions are scored as predictions that no gold entity can
  match (under ``match="token"`` each counts its characters, or its tokens
  for token input);
- labels match case-insensitively, ``label_aliases`` maps the rest, and a
  label still outside the gold schema is scored as it is (a false positive)
  and counted apart, so that a schema problem is told apart from a
  recognition problem.

The report's ``notes`` and its ``llm`` entry (:class:`LLMSummary`) say how
many documents, parse failures, repaired outputs, mentions, unaligned
mentions (the hallucination rate), ambiguous alignments and out-of-schema
labels there were, with the policy and the normalisation used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from nerscore.decode.inputs import Prepared, prepare_spans
from nerscore.decode.label_ops import warn_unknown_labels
from nerscore.io.llm_output import Item
from nerscore.matching.registry import get_matcher
from nerscore.scoring.counting import MatcherRun, run_matcher
from nerscore.scoring.llm_align import AlignedRows, align_rows, label_aliases_map
from nerscore.scoring.metrics import build_report
from nerscore.scoring.report import Report
from nerscore.values.decoding import Decoding
from nerscore.values.documents import Document
from nerscore.values.label_ops import LabelOps, seen_labels
from nerscore.values.mentions import Mention
from nerscore.values.spans import EntityColumns
from nerscore.values.tags import encode_strings
from nerscore.values.wording import counted

__all__ = ["AlignedOutputs", "LLMSummary", "align_outputs", "evaluate_llm", "label_aliases_map",
           "lost_columns", "run_on_columns", "score_aligned"]

_SHOWN = 10


@dataclass(frozen=True)
class LLMSummary:
    """What reading and aligning model outputs counted.

    Attributes
    ----------
    documents, parse_failures, repaired, mentions, unaligned, ambiguous, out_of_schema : int
        Gold documents; outputs nothing could be read from; outputs read
        after a repair; mentions read; mentions not placed in the text;
        mentions placed while the policy chose among occurrences; mentions
        whose label is outside the gold schema after case folding and aliases.
    snapped, dropped, rewritten, offsets_rejected : int
        Token input: spans moved to token boundaries, and mentions dropped
        by snapping; inline markup: characters the model rewrote; mentions
        whose own offsets did not point at their text.
    policy, normalize : str
        The alignment policy and normalisation.
    unaligned_list : list of (str, str, str)
        ``(document id, mention text, label)`` of every unaligned mention.
    failures : list of (str, str)
        ``(document id, problem)`` of every parse failure.
    skipped : int
        Items of outputs read otherwise (or of ``mentions``) that could not be
        read as mentions (no text, no label, a key beside an entity list):
        left out of the mentions and the scores.
    skipped_list : list of (str, str)
        ``(document id, problem)`` of every skipped item.
    schema_labels : dict of str to int
        Out-of-schema labels and how often each was answered.
    without_output, without_gold : list of str
        Gold documents no output was given for (they predict nothing), and
        outputs for documents gold does not have (their mentions are
        unaligned: there is no text to place them in).
    """

    documents: int = 0
    parse_failures: int = 0
    repaired: int = 0
    mentions: int = 0
    unaligned: int = 0
    ambiguous: int = 0
    out_of_schema: int = 0
    snapped: int = 0
    dropped: int = 0
    rewritten: int = 0
    offsets_rejected: int = 0
    policy: str = "sequential"
    normalize: str = "exact"
    unaligned_list: list[tuple[str, str, str]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    skipped: int = 0
    skipped_list: list[tuple[str, str]] = field(default_factory=list)
    schema_labels: dict[str, int] = field(default_factory=dict)
    without_output: list[str] = field(default_factory=list)
    without_gold: list[str] = field(default_factory=list)

    @property
    def hallucination_rate(self) -> float:
        """Unaligned mentions over mentions (0.0 without mentions)."""
        return self.unaligned / self.mentions if self.mentions else 0.0

    def notes(self) -> tuple[str, ...]:
        """The summary in words, for a report's notes.

        Examples
        --------
        >>> LLMSummary(documents=2, mentions=5, unaligned=1,
        ...            unaligned_list=[("d1", "London", "LOC")]).notes()[:2]
        ("LLM output: 2 documents, 0 parse failures, 0 repaired outputs, 5 mentions, 1 unaligned (hallucination rate 20.0%), 0 ambiguous alignments, 0 out-of-schema labels; align='sequential', normalize='exact'.", "Unaligned mentions (false positives): 'London' (LOC) in document 'd1'.")
        """
        out = [
            f"LLM output: {counted(self.documents, 'document')}, "
            f"{counted(self.parse_failures, 'parse failure')}, "
            f"{counted(self.repaired, 'repaired output')}, {counted(self.mentions, 'mention')}, "
            f"{self.unaligned} unaligned (hallucination rate "
            f"{100 * self.hallucination_rate:.1f}%), "
            f"{counted(self.ambiguous, 'ambiguous alignment')}, "
            f"{counted(self.out_of_schema, 'out-of-schema label')}; align={self.policy!r}, "
            f"normalize={self.normalize!r}."
        ]
        if self.unaligned_list:
            shown = ", ".join(f"{t!r} ({lab}) in document {d!r}"
                              for d, t, lab in self.unaligned_list[:_SHOWN])
            more = len(self.unaligned_list) - _SHOWN
            out.append(f"Unaligned mentions (false positives): {shown}"
                       + (f" and {more} more." if more > 0 else "."))
        if self.failures:
            shown = "; ".join(f"document {d!r}: {p}" for d, p in self.failures[:_SHOWN])
            more = len(self.failures) - _SHOWN
            out.append(f"Parse failures (their gold entities count as missed): {shown}"
                       + (f"; and {more} more." if more > 0 else "."))
        if self.skipped_list:
            shown = "; ".join(f"document {d!r}: {p.removesuffix('; skipped')}"
                              for d, p in self.skipped_list[:_SHOWN])
            more = len(self.skipped_list) - _SHOWN
            out.append(f"{len(self.skipped_list)} item(s) of the outputs could not be read as "
                       f"mentions and were left out: {shown}"
                       + (f"; and {more} more." if more > 0 else "."))
        if self.schema_labels:
            listed = ", ".join(f"{lab!r} ({n})" for lab, n in sorted(self.schema_labels.items()))
            out.append(f"Labels outside the gold schema (scored as false positives; map them "
                       f"with label_aliases / --label-alias): {listed}.")
        if self.without_output:
            out.append(f"{len(self.without_output)} gold document(s) have no output and count "
                       f"as predicting nothing: {_names(self.without_output)}.")
        if self.without_gold:
            out.append(f"{len(self.without_gold)} output(s) are for documents gold does not "
                       f"have; their mentions are unaligned: {_names(self.without_gold)}.")
        if self.snapped or self.dropped:
            out.append(f"Snapping to tokens moved {self.snapped} span(s) and dropped "
                       f"{self.dropped} mention(s) with no whole token.")
        if self.rewritten:
            out.append(f"Inline markup rewrote {self.rewritten} character(s) of the text; "
                       "mentions were mapped back by a character alignment.")
        if self.offsets_rejected:
            out.append(f"{self.offsets_rejected} mention(s) had offsets that do not point at "
                       "their text; they were placed by their string.")
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe counts and lists (the report's ``llm`` entry)."""
        return {
            "documents": self.documents, "parse_failures": self.parse_failures,
            "repaired": self.repaired, "mentions": self.mentions, "unaligned": self.unaligned,
            "hallucination_rate": self.hallucination_rate, "ambiguous": self.ambiguous,
            "out_of_schema": self.out_of_schema, "snapped": self.snapped,
            "dropped": self.dropped, "rewritten": self.rewritten,
            "offsets_rejected": self.offsets_rejected, "policy": self.policy,
            "normalize": self.normalize,
            "unaligned_mentions": [{"id": d, "text": t, "label": lab}
                                   for d, t, lab in self.unaligned_list],
            "parse_failure_list": [{"id": d, "problem": p} for d, p in self.failures],
            "skipped": self.skipped,
            "skipped_items": [{"id": d, "problem": p} for d, p in self.skipped_list],
            "schema_labels": dict(sorted(self.schema_labels.items())),
            "without_output": list(self.without_output),
            "without_gold": list(self.without_gold),
        }


def _names(ids: list[str]) -> str:
    more = len(ids) - _SHOWN
    return ", ".join(map(repr, ids[:_SHOWN])) + (f" and {more} more" if more > 0 else "")


def evaluate_llm(
    y_true: Sequence[Document], y_pred: object, *, match: str = "exact",
    align: str = "sequential", normalize: str = "exact", snap: str = "contract",
    label_aliases: Mapping[str, Sequence[str] | str] | None = None,
    output_format: str = "auto", tokens: Sequence[Sequence[str]] | None = None,
    beta: float = 1.0, zero_division: Any = "warn", labels: Sequence[str] | None = None,
    **options: Any,
) -> Report:
    """Score model outputs (strings or mentions, no offsets) against gold documents.

    Parameters
    ----------
    y_true : sequence of Document
        Gold documents with their text (or with token spans and ``tokens``).
    y_pred : sequence or mapping
        One output per gold document (in order), or ``{doc_id: output}``, or
        the records of :func:`~nerscore.io.llm_records.read_llm_records`. An
        output is the raw string, a ParsedOutput, or a list of Mention or of
        ``{"text", "label"}`` dicts. A gold document without an output
        predicts nothing.
    match : str
        Any matcher (``"exact"``, ``"semeval"``, ``"overlap"``, ``"threshold"``,
        ``"token"``, ``"mention"``).
    align : {"sequential", "first", "all", "spacy-llm"}
        The alignment policy (:func:`~nerscore.decode.mentions.align_mentions`);
        ``"spacy-llm"`` aligns as spacy-llm's ``spacy.NER.v2`` task does
        (``compat="spacy-llm"``: token gold only, its ``LABEL: a, b`` parser
        unless ``output_format`` is given; mentions it drops silently are
        counted as unaligned).
    normalize : {"exact", "casefold", "loose"}
        How strings are found in the text (and compared, for ``match="mention"``
        unless its ``normalize`` option is given).
    snap : {"contract", "expand", "strict"}
        With ``tokens``: how character spans snap to token boundaries.
    label_aliases : mapping, optional
        ``{gold_label: [alias, ...]}``: answer labels (case-insensitive) read
        as the gold label.
    output_format : str
        How raw outputs are read (:func:`~nerscore.io.llm_output.parse_llm_output`).
    tokens : sequence of list of str, optional
        Each gold document's tokens when its spans are token indices (CoNLL,
        Hugging Face datasets); the text is the tokens joined by one space.
    beta, zero_division, labels
        As :func:`nerscore.evaluate`.
    **options
        The matcher's options.

    Returns
    -------
    Report
        With the LLM summary in ``notes`` and ``extra["llm"]``.

    Examples
    --------
    >>> from nerscore import Document
    >>> text = "Paris is in France. Paris Hilton visited Paris."
    >>> gold = [Document("d1", [(0, 5, "LOC"), (12, 18, "LOC"), (20, 32, "PER"),
    ...                         (41, 46, "LOC")], text)]
    >>> out = ['[{"text": "Paris", "label": "loc"}, {"text": "London", "label": "LOC"}]']
    >>> r = evaluate_llm(gold, out, zero_division=0.0)
    >>> r.micro.tp, r.micro.fp, r.micro.fn, r.extra["llm"]["unaligned"]
    (1, 1, 3, 1)
    """
    aligned = align_outputs(y_true, y_pred, align=align, normalize=normalize, snap=snap,
                            label_aliases=label_aliases, output_format=output_format,
                            tokens=tokens, labels=labels)
    return score_aligned(aligned, match=match, token_units=tokens is not None, beta=beta,
                         zero_division=zero_division, labels=labels, **options)


def score_aligned(aligned: AlignedOutputs, *, match: str = "exact", token_units: bool = False,
                  beta: float = 1.0, zero_division: Any = "warn",
                  labels: Sequence[str] | None = None, **options: Any) -> Report:
    """The report of outputs aligned already (:func:`align_outputs`): :func:`evaluate_llm`'s second half.

    The aligned spans of all documents are scored at once, as columns.

    Parameters
    ----------
    aligned : AlignedOutputs
        What :func:`align_outputs` returned.
    match : str
        The matcher.
    token_units : bool
        Whether the outputs were aligned to tokens (``tokens=``).
    beta, zero_division, labels
        As :func:`nerscore.evaluate`.
    **options
        The matcher's options.

    Returns
    -------
    Report
    """
    lost, summary = aligned.lost_items, aligned.summary
    if match == "mention":
        options.setdefault("normalize", summary.normalize)
    run = run_on_columns(aligned.gold, aligned.columns(), match, options,
                         align=get_matcher(match).aligns, prepared=aligned.prepared,
                         warn_labels=not lost)
    prep, res = run.prep, run.result
    counts = res.counts
    if lost:
        counts = counts + _lost_counts(lost, match, options, token_units=token_units)
        warn_label_ops(options, counts.tallies)
    extra = {**res.extra, "llm": summary.to_dict()}
    return build_report(
        counts, match=match, options={k: run.options[k] for k in options if k in run.options},
        scheme=None, mode=None, beta=beta, zero_division=zero_division, labels=labels,
        n_sequences=prep.n_sequences, n_tokens=None, alignment=res.alignment, extra=extra,
        notes=(*prep.notes, *summary.notes()), doc_ids=prep.doc_ids, texts=prep.texts,
        selection=run.selection)


@dataclass(frozen=True)
class AlignedOutputs:
    """Model outputs read, aligned and relabelled: what :func:`evaluate_llm` scores.

    Attributes
    ----------
    gold : list of Document
        The gold documents.
    rows : AlignedRows
        The aligned mentions of all documents as columns (document index,
        start, end, label), sorted by document.
    lost_items : list of (str, str, int or None, int or None)
        The mentions not placed (unaligned, or dropped by snapping), by
        document, as (text, label, start, end); :attr:`lost` as Mention.
    summary : LLMSummary
        What was counted.
    lost_ids : list of str
        The document id of each of ``lost_items``.
    prepared : Prepared, optional
        The gold side checked and as columns, without predictions (reused
        when scoring).
    """

    gold: list[Document]
    rows: AlignedRows
    lost_items: list[Item]
    summary: LLMSummary
    lost_ids: list[str] = field(default_factory=list)
    prepared: Prepared | None = None

    @cached_property
    def lost(self) -> list[Mention]:
        """The mentions not placed, as :class:`~nerscore.values.mentions.Mention`."""
        return [Mention(*it) for it in self.lost_items]

    @cached_property
    def pred(self) -> dict[str, list[tuple[int, int, str]]]:
        """Per gold document id, its aligned mentions as ``(start, end, label)`` spans.

        Character offsets, or token indices for token input.
        """
        per_doc: list[list[tuple[int, int, str]]] = [[] for _ in self.gold]
        rows = self.rows
        for k, s, e, lab in zip(rows.doc.tolist(), rows.start.tolist(), rows.end.tolist(),
                                map(rows.vocab.__getitem__, rows.label.tolist()), strict=True):
            per_doc[k].append((s, e, lab))
        return {str(doc.id): spans for doc, spans in zip(self.gold, per_doc, strict=True)}

    def columns(self) -> EntityColumns:
        """The aligned mentions as predicted entity columns over the gold documents."""
        rows = self.rows
        return EntityColumns(rows.doc, rows.start, rows.end, rows.label, rows.vocab, len(self.gold))


def align_outputs(
    y_true: Sequence[Document], y_pred: object, *, align: str = "sequential",
    normalize: str = "exact", snap: str = "contract",
    label_aliases: Mapping[str, Sequence[str] | str] | None = None,
    output_format: str = "auto", tokens: Sequence[Sequence[str]] | None = None,
    labels: Sequence[str] | None = None,
) -> AlignedOutputs:
    r"""Read every output, map its labels and align its mentions to its gold document's text.

    The parameters are those of :func:`evaluate_llm`.

    Examples
    --------
    >>> from nerscore import Document
    >>> res = align_outputs([Document("a", [(0, 4, "PER")], "Anna in Lyon")],
    ...                     ["person: Anna\nLOC: Lyon, Paris"], label_aliases={"PER": "person"})
    >>> res.pred["a"], res.lost
    ([(0, 4, 'PER'), (8, 12, 'LOC')], [Mention(text='Paris', label='LOC', start=None, end=None)])
    >>> res.summary.schema_labels
    {'LOC': 2}
    """
    docs, rows, lost, lost_ids, fields, prepared = align_rows(
        y_true, y_pred, align=align, normalize=normalize, snap=snap,
        label_aliases=label_aliases, output_format=output_format, tokens=tokens, labels=labels)
    return AlignedOutputs(docs, rows, lost, LLMSummary(**fields), lost_ids, prepared)


def run_on_columns(docs: Sequence[Document], pred: EntityColumns, match: str,
                   options: Mapping[str, Any], *, align: bool,
                   prepared: Prepared | None = None, warn_labels: bool = True) -> MatcherRun:
    """Run a matcher on gold documents and predictions given as columns over them.

    ``pred.seq`` indexes ``docs``; no span object is made for the predictions.
    ``prepared`` is the gold side already prepared without predictions
    (documents without ignore regions), or None. ``warn_labels=False``
    leaves the warning on labels that the label operations name and the
    input lacks to the caller (:func:`warn_label_ops`), as for a run of
    some of the predictions (the aligned ones, or the lost ones).
    """
    def prepare() -> Prepared:
        if prepared is None:
            return prepare_spans(docs, None, pred_columns=pred)
        return replace(prepared, pred=pred)

    return run_matcher(docs, None, match, Decoding(), options, align=align, prepared=prepare,
                       warn_labels=warn_labels)


def warn_label_ops(options: Mapping[str, Any], tallies: Mapping[str, int]) -> None:
    """Warn once about labels the label operations of ``options`` name and no entity has.

    ``tallies`` are the counts of every run (the aligned predictions and the
    lost mentions together), so that a label only the aligned predictions or
    only the lost mentions have is a label of the data.
    """
    ops = LabelOps.split(options)[0]
    if ops:
        warn_unknown_labels(ops, seen_labels(tallies))


def _lost_counts(lost: list[Item], match: str, options: Mapping[str, Any], *,
                 token_units: bool) -> Any:
    """The counts of predictions no gold entity can match: one span per lost mention."""
    docs, pred = lost_columns(lost, None, token_units=token_units)
    opts = {k: v for k, v in options.items() if k not in ("discontinuous", "subset")}
    return run_on_columns(docs, pred, match, opts, align=False, warn_labels=False).result.counts


def lost_columns(lost: Sequence[Item], ids: Sequence[str] | None, *, token_units: bool,
                 ) -> tuple[list[Document], EntityColumns]:
    """Gold documents without entities and the lost mentions as predictions no gold can match.

    One document per distinct id of ``ids`` (the document of each mention),
    in order of first appearance, or one document ``"lost"`` when ``ids`` is
    None. Each mention is a span of its own length (characters, or tokens
    for token input), the spans one apart. Scored by any matcher, each
    mention is then one false positive (under ``token``, its characters or
    tokens), as :func:`evaluate_llm` counts it.

    Parameters
    ----------
    lost : sequence of (str, str, int or None, int or None)
        The mentions not placed: text, label, start, end.
    ids : sequence of str, optional
        The document of each.
    token_units : bool
        Token input (spans in tokens, no text).

    Returns
    -------
    (list of Document, EntityColumns)

    Examples
    --------
    >>> docs, pred = lost_columns([("London", "LOC", None, None), ("Rome", "LOC", None, None)],
    ...                           ["d1", "d2"], token_units=False)
    >>> [d.id for d in docs], pred.seq.tolist(), pred.start.tolist(), pred.end.tolist()
    (['d1', 'd2'], [0, 1], [0, 7], [6, 11])
    """
    names = ["lost"] if ids is None else list(dict.fromkeys(ids))
    if ids is None:
        doc = np.zeros(len(lost), dtype=np.int64)
    else:
        index = {name: k for k, name in enumerate(names)}
        doc = np.fromiter(map(index.__getitem__, ids), dtype=np.int64, count=len(ids))
    texts = [it[0] for it in lost]
    words = [t.split() for t in texts] if token_units else texts
    width = np.maximum(np.fromiter(map(len, words), dtype=np.int64, count=len(lost)), 1)
    start = np.cumsum(width + 1) - width - 1  # increasing: no two spans of a document overlap
    label, vocab = encode_strings([it[1] for it in lost], sort=True)
    order = np.argsort(doc, kind="stable")
    pred = EntityColumns(doc[order], start[order], start[order] + width[order], label[order],
                         vocab, len(names))
    return [Document(name, ()) for name in names], pred
