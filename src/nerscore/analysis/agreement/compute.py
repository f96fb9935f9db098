""":func:`agreement`: every agreement number between annotators, in one call (docs/agreement.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.agreement.coefficients import alpha_from_parts
from nerscore.analysis.agreement.disagreements import annotated_shared, find_disagreements
from nerscore.analysis.agreement.ignored import ignored_note, without_ignored
from nerscore.analysis.agreement.inputs import Annotated, join_annotations, relabel
from nerscore.analysis.agreement.pairwise import (
    SYMMETRIC,
    PairCounts,
    pair_counts,
    pair_mean_sd,
)
from nerscore.analysis.agreement.results import (
    Agreement,
    DocumentAgreement,
    PairwiseF1,
)
from nerscore.analysis.agreement.tokens import token_labels, token_level
from nerscore.analysis.significance.resampling import (
    bootstrap_plan,
    bootstrap_weights,
    collapsed_notes,
    resampling_notes,
    rngs,
)
from nerscore.analysis.significance.results import Estimate
from nerscore.decode.label_ops import check_label_ops
from nerscore.errors import OptionError, option_error
from nerscore.matching.registry import get_matcher
from nerscore.values.decoding import Decoding
from nerscore.values.label_ops import LabelOps
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.selection import Selection

__all__ = ["agreement", "undefined_note"]

FloatArray = npt.NDArray[np.float64]


def _tuple(m: FloatArray) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(x) for x in row) for row in m)


def _pairwise(annotated: Annotated, pc: PairCounts, match: str) -> PairwiseF1:
    n = len(annotated.names)
    micro = pc.f1(pc.tp.sum(axis=(1, 2)), pc.total.sum(axis=(1, 2)))
    per_label = {lab: _tuple(pc.matrix(n, pc.f1(pc.tp[:, :, k].sum(axis=1),
                                                pc.total[:, :, k].sum(axis=1))))
                 for k, lab in enumerate(pc.labels)}
    return PairwiseF1(annotated.names, _tuple(pc.matrix(n, micro)), per_label,
                      match in SYMMETRIC)


def _documents(annotated: Annotated, pc: PairCounts,
               cleared: Annotated) -> tuple[DocumentAgreement, ...]:
    """Per document, the pairs' F1, least agreed first; ``cleared``: entities outside regions."""
    names = annotated.names
    f1 = pc.f1(pc.tp.sum(axis=2), pc.total.sum(axis=2))  # (pairs, docs)
    mean, sd = pair_mean_sd(f1, pc.both)
    shared = annotated_shared(cleared)
    labels = [f"{names[i]}/{names[j]}" for i, j in pc.pairs]
    every = bool(pc.both.all())
    order = np.lexsort((np.arange(len(mean)), np.nan_to_num(mean, nan=2.0)))
    compared = np.asarray(pc.both.any(axis=0))  # a document only one annotator has: no pair
    columns = f1.T.tolist()
    out = []
    for d in order[compared[order]].tolist():
        row = columns[d]
        pairs = (dict(zip(labels, row, strict=True)) if every else
                 {lab: x for lab, x, ok in zip(labels, row, pc.both[:, d], strict=True) if ok})
        out.append(DocumentAgreement(annotated.document_name(d), pairs, int(shared[d]),
                                     float(mean[d]), float(sd[d])))
    return tuple(out)


def _one_annotator_labels(annotated: Annotated) -> tuple[str, ...]:
    """A note naming the labels only one annotator uses in the documents a pair shares."""
    compared = annotated.present.sum(axis=0) >= 2
    users: dict[int, list[str]] = {}
    for name, cols in zip(annotated.names, annotated.entities, strict=True):
        for k in np.unique(cols.label[compared[cols.seq]]).tolist():
            users.setdefault(k, []).append(name)
    alone = [f"{annotated.labels[k]} (only {who[0]})" for k, who in sorted(users.items())
             if len(who) == 1]
    if not alone:
        return ()
    return (f"{len(alone)} label(s) are used by one annotator only, so no pair agrees on them "
            f"and their F1 and kappa are 0 (or undefined): {', '.join(alone)}.",)


def undefined_note(n_documents: int, where: str = "", relabelled: bool = False,
                   unit: str = "document") -> str:
    """Why every agreement number is undefined: no document, or no entity in any of them.

    ``where`` names what the documents were read from (``" of a.conll, b.conll"``);
    ``unit`` is what a document is called (``"sentence"`` for tag input).

    Examples
    --------
    >>> print(undefined_note(2, " of a.json, b.json"))
    no annotator marked any entity in the 2 documents of a.json, b.json, so their agreement is undefined: the entity F1 needs an entity, and kappa and alpha need two different labels.
    >>> print(undefined_note(1, unit="sentence"))
    no annotator marked any entity in the sentence, so their agreement is undefined: the entity F1 needs an entity, and kappa and alpha need two different labels.
    >>> print(undefined_note(0))
    the annotations hold no documents, so their agreement is undefined.
    """
    if n_documents == 0:
        return f"the annotations{where} hold no {unit}s, so their agreement is undefined."
    docs = f"the {unit}" if n_documents == 1 else f"the {n_documents} {unit}s"
    what = ("no entity is left after the label operations" if relabelled else
            "no annotator marked any entity")
    return (f"{what} in {docs}{where}, so their agreement is undefined: the entity F1 needs an "
            "entity, and kappa and alpha need two different labels.")


def _undefined_notes(annotated: Annotated, ops: LabelOps) -> tuple[str, ...]:
    """:func:`undefined_note` when no annotator has an entity (after the label operations)."""
    if any(len(cols) for cols in annotated.entities):
        return ()
    return (undefined_note(annotated.n_documents, relabelled=bool(ops), unit=annotated.unit),)


def _unshared_pairs(annotated: Annotated, pc: PairCounts) -> tuple[str, ...]:
    """A note naming the pairs of annotators who annotated no document in common."""
    names = annotated.names
    pairs = dict.fromkeys(tuple(sorted((i, j))) for (i, j), both in zip(pc.pairs, pc.both,
                                                                         strict=True)
                          if not both.any())
    if not pairs or not annotated.n_documents:  # no document at all: undefined_note says so
        return ()
    shown = [f"{names[i]} and {names[j]}" for i, j in pairs]
    listed = "; ".join(shown[:4]) + (f"; ... ({len(shown) - 4} more)" if len(shown) > 4 else "")
    n, unit = len(shown), annotated.unit
    return (f"{n} pair{'s' if n != 1 else ''} of annotators share{'' if n != 1 else 's'} no "
            f"{unit} ({listed}): {'their' if n != 1 else 'its'} entity F1 and Cohen's kappa "
            f"are undefined, and so are the means over pairs (NaN, - in the tables); give every pair "
            f"some {unit}s in common.",)


def _check_bootstrap(n_resamples: object, level: object, seed: object) -> None:
    if not isinstance(n_resamples, int) or isinstance(n_resamples, bool) or n_resamples < 0:
        raise option_error("n_resamples", "a non-negative int", n_resamples)
    if not isinstance(level, float) or not 0 < level < 1:
        raise option_error("level", "a float between 0 and 1", level)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise option_error("seed", "an int or None", seed)


def _intervals(pc: PairCounts, alpha_parts: FloatArray, n_resamples: int, level: float,
               seed: int | None, point: dict[str, float],
               unit: str) -> tuple[dict[str, Estimate], tuple[str, ...]]:
    """Percentile bootstrap over documents (``unit``) of the mean pairwise F1 and alpha, and notes.

    The documents resampled are those some pair of annotators both annotated
    (the others add nothing to either number). When some resamples leave a
    number undefined (a pair with no entity in the drawn documents, every
    drawn token in one category) the interval is NaN and a note says why;
    too few resamples for ``level``, or too few documents, are noted as
    ``compare`` notes them (:func:`.resampling_notes`), and so are
    intervals of zero width (every resample the same: :func:`.collapsed_notes`).
    """
    shared = pc.both.any(axis=0)
    tp = pc.tp.sum(axis=2).T[shared]  # (docs, pairs)
    total = pc.total.sum(axis=2).T[shared]
    data = np.concatenate([tp, total, np.nan_to_num(alpha_parts[shared])], axis=1)
    n_pairs = tp.shape[1]
    if n_resamples == 0 or data.shape[0] == 0:
        return {k: Estimate(v, float("nan"), float("nan")) for k, v in point.items()}, ()
    plan = bootstrap_plan(data)
    rows = data[plan.columns]
    boot, _ = rngs(seed)
    f1s: list[FloatArray] = []
    alphas: list[FloatArray] = []
    for w in bootstrap_weights(boot, plan, n_resamples):
        sums = w @ rows
        f1 = pc.f1(sums[:, :n_pairs], sums[:, n_pairs:2 * n_pairs])
        f1s.append(f1.mean(axis=1))
        parts = sums[:, 2 * n_pairs:]
        alphas.append(np.array([alpha_from_parts(float(r[0]), r[1:]) for r in parts]))
    out = {}
    notes = [] if all(np.isnan(v) for v in point.values()) else resampling_notes(
        n_resamples, level, data.shape[0], unit, "bootstrap intervals")
    shown: dict[str, FloatArray] = {}  # the intervals computed, by the name notes give them
    for name, values in (("mean_f1", np.concatenate(f1s)), ("alpha", np.concatenate(alphas))):
        if name == "alpha" and np.isnan(alpha_parts).any():
            out[name] = Estimate(point[name], float("nan"), float("nan"))
            continue
        undefined = int(np.isnan(values).sum())
        if undefined:
            lo = hi = float("nan")
            if not np.isnan(point[name]):
                notes.append(_UNDEFINED[name].format(n=undefined, of=len(values), unit=unit))
        else:
            lo, hi = (float(x) for x in np.quantile(values, [(1 - level) / 2, (1 + level) / 2]))
            shown[_NAMES[name]] = values
        out[name] = Estimate(point[name], lo, hi)
    notes += collapsed_notes(shown, data.shape[0], unit, "annotators who agree on every "
                             "{unit}, or {unit}s annotated alike")
    return out, tuple(notes)


_NAMES = {"mean_f1": "the mean pairwise F1", "alpha": "alpha"}


_UNDEFINED = {
    "mean_f1": ("No bootstrap interval of the mean pairwise F1: in {n} of {of} resamples some "
                "pair of annotators has no entity in the {unit}s drawn, so its F1 is undefined "
                "(too few {unit}s with entities to resample)."),
    "alpha": ("No bootstrap interval of alpha: in {n} of {of} resamples all the tokens drawn have "
              "the same label, so alpha is undefined (too few {unit}s with entities to resample)."),
}


def agreement(
    annotations: object,
    *,
    names: Sequence[str] | None = None,
    match: str = "exact",
    tags: bool = False,
    tokenizer: object = "words",
    n_resamples: int = 1000,
    level: float = 0.95,
    seed: int | None = 0,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> Agreement:
    """Agreement between two or more annotators of the same documents.

    Parameters
    ----------
    annotations : sequence or mapping of annotation sets
        One set per annotator, each in any input shape nerscore reads (tag
        sequences, :class:`~nerscore.EncodedTags`, a reader's result, span
        documents), or a mapping ``{annotator: annotation set}``. Documents
        are joined by id (or position); a document an annotator lacks is
        left out of that annotator's pairs and reported in ``notes``.
    names : sequence of str, optional
        The annotators' names (default: the mapping's keys, or A, B, C, ...).
    match : str
        The matcher of the pairwise entity F1 (``nerscore.get_matcher``).
    tags : bool
        Token level: compare raw tags instead of entity labels (tag input).
    tokenizer : str or callable
        How span documents with text are cut into tokens: ``"words"``
        (default: runs of word characters, every other non-space character
        alone), ``"whitespace"``, or ``f(text) -> (start, end) pairs``.
    n_resamples : int
        Resamples of the percentile bootstrap over documents (sentences, for
        tag input) of the mean pairwise F1 and of alpha (0: no intervals).
    level : float
        The intervals' confidence level.
    seed : int or None
        The seed of the resampling (``numpy.random.SeedSequence``).
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    **options
        The matcher's options.

    Returns
    -------
    Agreement
        Pairwise entity F1 (micro and per label), token-level Cohen's and
        Fleiss' kappa and Krippendorff's alpha (overall and per label, over
        all and over labelled tokens), per-document F1, the disagreements,
        and bootstrap intervals.

    Raises
    ------
    OptionError
        For an unknown matcher or option, or fewer than two annotation sets.
    LengthMismatchError
        For tag sets of different shapes.

    See Also
    --------
    adjudicate : one annotation from several, by voting.

    Notes
    -----
    Every number is defined with a worked example in ``docs/agreement.md``.

    Examples
    --------
    >>> a = agreement([[["B-PER", "O", "B-LOC"]], [["B-PER", "O", "O"]]], n_resamples=0)
    >>> a.f1.matrix
    ((1.0, 0.6666666666666666), (0.6666666666666666, 1.0))
    >>> round(a.tokens.overall["all"].alpha, 4)
    0.5455
    """
    _check_bootstrap(n_resamples, level, seed)
    matcher = get_matcher(match)
    ops, options = LabelOps.split(options)
    entity_keys = {o: options.pop(o) for o in Selection.KEYWORDS if o in options}
    resolved = matcher.resolve(options)
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    annotated = join_annotations(annotations, names=names, decoding=decoding)
    check_label_ops(ops, match, annotated.kind == "tags")
    if ops and tags:
        raise OptionError("labels_map, keep and drop act on entities, but tags=True compares "
                          "the raw tags of every token; leave tags=False.", option="labels_map")
    annotated = relabel(annotated, ops)
    pc = pair_counts(annotated, match, {**resolved, **entity_keys})
    f1 = _pairwise(annotated, pc, match)
    tl = token_labels(annotated, tags=tags, tokenizer=tokenizer)
    level_result, alpha_parts = token_level(
        tl, [annotated.document_name(d) for d in range(annotated.n_documents)])
    alpha = (level_result.overall["all"].alpha if level_result.overall is not None
             else float("nan"))
    intervals, interval_notes = _intervals(pc, alpha_parts, n_resamples, level, seed,
                                           {"mean_f1": f1.mean(), "alpha": alpha},
                                           annotated.unit)
    cleared, n_ignored = without_ignored(annotated)
    texts: dict[str, Any] | None = None
    source = annotated.texts if annotated.texts is not None else annotated.tokens
    if source is not None:
        texts = {annotated.document_name(d): source[d] for d in range(annotated.n_documents)
                 if source[d] is not None}
    return Agreement(
        annotated.names, match, {**resolved, **entity_keys, **ops.given()},
        annotated.n_documents, f1,
        level_result, _documents(annotated, pc, cleared), find_disagreements(cleared), intervals,
        level, n_resamples, seed,
        _undefined_notes(annotated, ops) + annotated.notes + _unshared_pairs(annotated, pc)
        + ignored_note(n_ignored, tl.n_ignored()) + _one_annotator_labels(cleared)
        + interval_notes, texts, annotated.unit,
    )
