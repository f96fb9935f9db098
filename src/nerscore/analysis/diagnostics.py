"""Dataset diagnostics: what in a train/test split (and a prediction) makes scores misleading.

:func:`diagnose` decodes the training data, the test data and optionally a
prediction through the input path of the scorers and returns a
:class:`Diagnostics` value: per-label counts and a list of :class:`Finding`
objects, each with a kind, a severity, the labels concerned, the numbers
behind it and one or two sentences of advice. The rules and thresholds are
documented in ``docs/diagnostics.md``:

=======================  ========  ==============================================
kind                     severity  rule
=======================  ========  ==============================================
``missing_in_train``     error     label in test (gold) but not in train
``missing_in_test``      warning   label in train but not in test
``few_instances``        warning   fewer than ``min_instances`` training entities
``distribution_shift``   warning   share in test / share in train >= ``k`` or
                                   <= ``1/k``, and a two-proportion z-test
                                   significant at 5 % (``|z| >= 1.96``)
``confused_labels``      warning   a gold label predicted as another for at
                                   least ``confusion_threshold`` of its entities
``invalid_transitions``  warning   tag transitions the scheme forbids (train,
                         / info    test: warning; prediction: info)
``seen_overlap``         warning   at least ``seen_threshold`` of the test
                                   entities' (surface, label) occur in train
``unseen_gap``           warning   F1 on seen minus F1 on unseen entities
                                   >= ``gap_threshold``
=======================  ========  ==============================================
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from nerscore.analysis.breakdowns import Breakdown, check_consistent, prepare_one, tally
from nerscore.analysis.findings import (
    KINDS,
    SEVERITIES,
    Finding,
    confusion_findings,
    label_findings,
    per_label,
    plain,
    seen_findings,
    shift_findings,
    transition_finding,
)
from nerscore.analysis.surfaces import seen_flags, texts_of
from nerscore.errors import InputTypeError, OptionError, option_error
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Mode, Scheme

__all__ = ["KINDS", "SEVERITIES", "Diagnostics", "Finding", "diagnose"]

@dataclass(frozen=True)
class Diagnostics:
    """What :func:`diagnose` found: per-label counts, findings and the checks left out.

    Attributes
    ----------
    labels : tuple of str
        Every label with an entity in train, test or the prediction (sorted).
    train_counts, test_counts : mapping of str to int
        Entities per label (all of ``labels``, zeros included).
    pred_counts : mapping of str to int or None
        Predicted entities per label, when a prediction was given.
    n_train_sequences, n_test_sequences : int
        Sentences or documents.
    total_variation : float
        Half the sum over labels of ``|share in test - share in train|``:
        0 for identical label distributions, 1 for disjoint ones (NaN when a
        side has no entity).
    seen : mapping or None
        ``{"n_test", "n_seen", "share"}``: test entities whose (surface form,
        label) occurs in train; None when surface forms are unknown.
    seen_scores : Breakdown or None
        Scores of seen and unseen entities, when a prediction was given.
    findings : tuple of Finding
        Most severe first.
    skipped : mapping of str to str
        Checks that could not run, with the reason.
    settings : mapping
        The thresholds, scheme, mode and matcher used.
    notes : tuple of str
        Notes of the input (e.g. documents joined by id).
    """

    #: what :func:`nerscore.render` renders it as
    render_kind: ClassVar[str] = "diagnostics"

    labels: tuple[str, ...]
    train_counts: Mapping[str, int]
    test_counts: Mapping[str, int]
    pred_counts: Mapping[str, int] | None
    n_train_sequences: int
    n_test_sequences: int
    total_variation: float
    seen: Mapping[str, Any] | None
    seen_scores: Breakdown | None
    findings: tuple[Finding, ...]
    skipped: Mapping[str, str]
    settings: Mapping[str, Any]
    notes: tuple[str, ...] = ()

    def of_kind(self, kind: str) -> list[Finding]:
        """The findings of one kind."""
        return [f for f in self.findings if f.kind == kind]

    @property
    def kinds(self) -> set[str]:
        """The kinds of the findings."""
        return {f.kind for f in self.findings}

    def count(self, severity: str) -> int:
        """Number of findings of one severity."""
        return sum(1 for f in self.findings if f.severity == severity)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dictionary (``format_version`` 1).

        Returns
        -------
        dict
            ``format_version``, ``settings``, ``labels`` (``{label: {"train",
            "test"[, "pred"]}}``), ``n_train_sequences``, ``n_test_sequences``,
            ``total_variation``, ``seen``, ``seen_scores`` (a breakdown's
            dict or None), ``findings`` (list of :meth:`Finding.to_dict`),
            ``skipped`` and ``notes``. NaN is None.
        """
        labels: dict[str, dict[str, int]] = {}
        for lab in self.labels:
            row = {"train": self.train_counts[lab], "test": self.test_counts[lab]}
            if self.pred_counts is not None:
                row["pred"] = self.pred_counts[lab]
            labels[lab] = row
        return {
            "format_version": 1,
            "settings": plain(self.settings),
            "labels": labels,
            "n_train_sequences": self.n_train_sequences,
            "n_test_sequences": self.n_test_sequences,
            "total_variation": plain(self.total_variation),
            "seen": plain(self.seen),
            "seen_scores": None if self.seen_scores is None else self.seen_scores.to_dict(),
            "findings": [f.to_dict() for f in self.findings],
            "skipped": dict(self.skipped),
            "notes": list(self.notes),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _check_threshold(name: str, value: Any, *, low: float, high: float | None = None) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value >= low and (
        high is None or value <= high) and not math.isnan(value)
    if not ok:
        expected = f"a number >= {low:g}" if high is None else f"a number from {low:g} to {high:g}"
        raise option_error(name, expected, value)
    return float(value)


def diagnose(
    train: object,
    test: object,
    *,
    pred: object = None,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    match: str = "exact",
    min_instances: int = 15,
    shift_threshold: float = 2.0,
    confusion_threshold: float = 0.1,
    seen_threshold: float = 0.5,
    gap_threshold: float = 0.1,
    train_texts: Sequence[Any] | None = None,
    test_texts: Sequence[Any] | None = None,
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> Diagnostics:
    """Check a train/test split (and a prediction) for what makes NER scores misleading.

    Parameters
    ----------
    train, test : tag sequences, EncodedTags, or span documents
        Training and test data (gold), both tags or both spans.
    pred : optional
        A prediction for ``test``; enables ``confused_labels`` and
        ``unseen_gap``.
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded (see :func:`nerscore.tags_to_entities`); with a
        ``scheme``, tag transitions are validated.
    match : str
        The matcher pairing test and prediction (``"exact"``: same bounds).
    min_instances : int
        Fewest training entities per label without a ``few_instances`` finding.
    shift_threshold : float
        ``k`` > 1: a label whose share of the entities changes by a factor
        of ``k`` or more between train and test (and significantly) is shifted.
    confusion_threshold : float
        Share of a gold label's entities predicted as another label from
        which the pair is reported.
    seen_threshold : float
        Share of test entities seen in training from which ``seen_overlap``
        is reported.
    gap_threshold : float
        F1 difference between seen and unseen entities from which
        ``unseen_gap`` is reported.
    train_texts, test_texts : sequence, optional
        One text (str) or token list per sequence, for surface forms; default:
        the texts of span documents, or the tokens of tags read from a file.
    **options
        Options of the matcher.

    Returns
    -------
    Diagnostics

    Raises
    ------
    InputTypeError
        When one of train and test is tags and the other spans.
    OptionError
        For an invalid threshold or matcher.

    Examples
    --------
    >>> train = [["B-PER", "O", "B-LOC"]] * 20 + [["B-ORG", "O"]] * 3
    >>> test = [["B-PER", "O", "B-LOC"]] * 5 + [["B-MISC"]]
    >>> d = diagnose(train, test)
    >>> [(f.kind, f.severity, f.labels) for f in d.findings]
    [('missing_in_train', 'error', ('MISC',)), ('missing_in_test', 'warning', ('ORG',)), \
('few_instances', 'warning', ('ORG',))]
    >>> d.train_counts["ORG"], d.skipped["seen_overlap"]
    (3, 'surface forms unknown: no texts or tokens')
    """
    from nerscore.decode.input_kind import input_kind
    from nerscore.scoring.counting import run_matcher

    if isinstance(min_instances, bool) or not isinstance(min_instances, int) or min_instances < 0:
        raise option_error("min_instances", "a whole number >= 0", min_instances)
    k = _check_threshold("shift_threshold", shift_threshold, low=1.0)
    if k == 1.0:
        raise option_error("shift_threshold", "a number > 1", shift_threshold)
    ct = _check_threshold("confusion_threshold", confusion_threshold, low=0.0, high=1.0)
    st = _check_threshold("seen_threshold", seen_threshold, low=0.0, high=1.0)
    gt = _check_threshold("gap_threshold", gap_threshold, low=0.0, high=1.0)
    kind_train = input_kind(train, train)
    kind_test = input_kind(test, test if pred is None else pred)
    if kind_train != kind_test and _is_empty(train):  # nothing to read either way
        train, kind_train = ({} if kind_test == "spans" else []), kind_test
    if kind_train != kind_test:
        words = {"tags": "tag sequences", "spans": "span documents"}
        raise InputTypeError(f"train is {words[kind_train]} but test is {words[kind_test]}; "
                             "give both in the same form.")
    if options and pred is None:
        raise OptionError(f"Matcher options ({', '.join(sorted(options))}) apply to the "
                          "matching of a prediction; pass pred=... or leave them out.",
                          option=sorted(options)[0])
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    train_prep = prepare_one(train, decoding)
    run = None
    if pred is not None:
        run = run_matcher(test, pred, match, decoding, options, align=True)
        if run.result.alignment is None:
            raise option_error("match", "a matcher that pairs entities (not 'token')", match)
        test_prep = run.prep
        # joined by id, the prediction's documents not in test are added: count test's own
        n_test = (test_prep.n_sequences if test_prep.doc_ids is None else
                  prepare_one(test, decoding).n_sequences)
    else:
        test_prep = prepare_one(test, decoding)
        n_test = test_prep.n_sequences
    tr, te = per_label(train_prep.gold), per_label(test_prep.gold)
    notes = _split_notes(train, test, train_prep, test_prep, n_test, tr == te, decoding,
                         (train_texts, test_texts), own_test=run is None)
    pr = None if run is None else per_label(run.prep.pred)
    labels = tuple(sorted(set(tr) | set(te) | set(pr or {})))
    train_counts = {lab: tr.get(lab, 0) for lab in labels}
    test_counts = {lab: te.get(lab, 0) for lab in labels}
    pred_counts = None if pr is None else {lab: pr.get(lab, 0) for lab in labels}

    findings = label_findings(labels, train_counts, test_counts, min_instances)
    shift, tv = shift_findings(labels, train_counts, test_counts, k)
    findings += shift
    skipped: dict[str, str] = {}
    if run is not None:
        findings += confusion_findings(run.result.alignment, match, ct)
    else:
        skipped["confused_labels"] = "no prediction given"
    if kind_train == "spans":
        skipped["invalid_transitions"] = "span input has no tags"
    elif decoding.table is None:
        skipped["invalid_transitions"] = "no scheme given"
    else:
        sides = [("train", train_prep), ("test", test_prep)]
        for side, prep in sides:
            assert prep.tags is not None
            f = transition_finding(side, prep.tags[0], decoding)
            findings += [f] if f is not None else []
        if run is not None:
            assert run.prep.tags is not None
            f = transition_finding("pred", run.prep.tags[1], decoding)
            findings += [f] if f is not None else []

    seen, scores = _seen(train_prep, test_prep, run, train_texts, test_texts, match)
    if seen is None:
        skipped["seen_overlap"] = "surface forms unknown: no texts or tokens"
    if scores is None:
        skipped["unseen_gap"] = ("no prediction given" if run is None else
                                 "surface forms unknown: no texts or tokens")
    if seen is not None:
        findings += seen_findings(seen, scores, st, gt)
    findings.sort(key=lambda f: (SEVERITIES.index(f.severity), KINDS.index(f.kind), f.labels))
    settings = {"scheme": decoding.scheme_name if kind_train == "tags" else None,
                "mode": decoding.mode.value if kind_train == "tags" else None,
                "match": match, "options": dict(run.options) if run is not None else {},
                "min_instances": min_instances, "shift_threshold": k,
                "confusion_threshold": ct, "seen_threshold": st, "gap_threshold": gt}
    return Diagnostics(
        labels, MappingProxyType(train_counts), MappingProxyType(test_counts),
        None if pred_counts is None else MappingProxyType(pred_counts),
        train_prep.n_sequences, n_test, tv,
        None if seen is None else MappingProxyType(seen), scores, tuple(findings),
        MappingProxyType(skipped), MappingProxyType(settings), (*notes, *test_prep.notes),
    )


def _is_empty(data: object) -> bool:
    """Whether ``data`` holds no sequence or document at all."""
    try:
        return len(data) == 0  # type: ignore[arg-type]
    except TypeError:
        return False


#: How the notes on a suspicious train side begin (an empty one, or the test data itself).
SPLIT_NOTES = ("train holds no sequences", "train and test hold the same data")


def _split_notes(train: object, test: object, train_prep: Any, test_prep: Any, n_test: int,
                 same_counts: bool, decoding: Decoding, texts: tuple[Any, Any], *,
                 own_test: bool) -> tuple[str, ...]:
    """Notes on a train side that is empty, or the test data itself: most often a wrong file."""
    if train_prep.n_sequences == 0:
        return ("train holds no sequences: every test label counts as missing from training "
                "and no test entity as seen in training; check that the training data was "
                "given.",)
    if train is not test and not (same_counts and train_prep.n_sequences == n_test):
        return ()
    if train is not test:
        test_only = test_prep if own_test else prepare_one(test, decoding)
        a, b = train_prep.gold, test_only.gold
        if len(a) != len(b) or not all(np.array_equal(x, y) for x, y in (
                (a.seq, b.seq), (a.start, b.start), (a.end, b.end),
                (np.asarray(a.labels, dtype=object)[a.label],
                 np.asarray(b.labels, dtype=object)[b.label]))):
            return ()
        known = [t if t is not None else texts_of(prep)
                 for t, prep in zip(texts, (train_prep, test_only), strict=True)]
        if known[0] is not None and known[1] is not None and \
                [t if isinstance(t, str) else list(t) for t in known[0]] != \
                [t if isinstance(t, str) else list(t) for t in known[1]]:
            return ()
    many = "1 sequence" if n_test == 1 else f"{n_test} sequences"
    return (f"train and test hold the same data (the same {many} with the same "
            "entities): every test entity counts as seen in training and the split says "
            "nothing about new data; check that train is the training data, not the test "
            "data.",)


def _seen(
    train_prep: Any, test_prep: Any, run: Any, train_texts: Sequence[Any] | None,
    test_texts: Sequence[Any] | None, match: str,
) -> tuple[dict[str, Any] | None, Breakdown | None]:
    texts = test_texts if test_texts is not None else texts_of(test_prep)
    queries = [(test_prep.gold, texts)]
    if run is not None:
        alignment = run.result.alignment
        check_consistent(alignment, run.result.counts, match)
        # the matcher pairs the entities it decoded: most often the very columns of the test
        if alignment.gold is not test_prep.gold:
            queries.append((alignment.gold, texts))
        queries.append((alignment.pred, texts))
    known = (train_prep.gold, train_texts if train_texts is not None else texts_of(train_prep))
    flags = seen_flags(known, *queries)
    g = None if flags is None else flags[0]
    if flags is None or g is None:
        return None, None
    n = len(g)
    seen = {"n_test": n, "n_seen": int(g.sum()), "share": float(g.sum() / n) if n else math.nan}
    if run is None:
        return seen, None
    gs, ps = (g if len(flags) == 2 else flags[1]), flags[-1]
    if gs is None or ps is None:
        return seen, None
    buckets, overall = tally(alignment, (~gs).astype(np.int64), (~ps).astype(np.int64),
                             ["seen", "unseen"], 0.0)
    return seen, Breakdown("seen", None, match, dict(run.options), tuple(buckets), overall)


# ------------------------------------------------------------------------------- rendering
