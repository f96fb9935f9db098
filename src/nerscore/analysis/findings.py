"""The checks behind :func:`nerscore.diagnose`: one function per kind of finding.

Each check takes counts or an alignment and returns :class:`Finding` values;
the rules are listed in :mod:`nerscore.analysis.diagnostics` and ``docs/diagnostics.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from nerscore.analysis.breakdowns import Breakdown
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Mode
from nerscore.values.spans import EntityColumns

__all__ = [
    "KINDS", "SEVERITIES", "Z_CRITICAL", "Finding", "confusion_findings", "label_findings",
    "per_label", "plain", "seen_findings", "shift_findings", "transition_finding",
]

#: Severities, most severe first.
SEVERITIES = ("error", "warning", "info")
#: Finding kinds, in the order they are listed.
KINDS = ("missing_in_train", "missing_in_test", "few_instances", "distribution_shift",
         "confused_labels", "invalid_transitions", "seen_overlap", "unseen_gap")
#: |z| of a two-proportion z-test significant at the 5 % level (two-sided).
Z_CRITICAL = 1.96
_FIRST = 3  # locations listed per invalid-transition finding


def plain(x: Any) -> Any:
    """A JSON-safe copy: mappings to dicts, sequences to lists, NaN to None."""
    if isinstance(x, Mapping):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, np.generic):
        return plain(x.item())
    return x


@dataclass(frozen=True)
class Finding:
    """One thing :func:`diagnose` found.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    severity : {"error", "warning", "info"}
    labels : tuple of str
        The labels concerned (empty for findings about a whole side).
    message : str
        What was found, with its numbers.
    advice : str
        What to do about it.
    numbers : mapping
        The numbers behind the finding (read-only).
    """

    kind: str
    severity: str
    labels: tuple[str, ...]
    message: str
    advice: str
    numbers: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "numbers", MappingProxyType(dict(self.numbers)))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dictionary with the keys of the attributes.

        Returns
        -------
        dict
        """
        return {"kind": self.kind, "severity": self.severity, "labels": list(self.labels),
                "message": self.message, "advice": self.advice,
                "numbers": plain(self.numbers)}


# ---------------------------------------------------------------------------------- checks


def per_label(cols: EntityColumns) -> dict[str, int]:
    """Entities per label in ``cols``."""
    n = np.bincount(cols.label, minlength=len(cols.labels))
    return {lab: int(k) for lab, k in zip(cols.labels, n.tolist(), strict=True) if k}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def label_findings(
    labels: Sequence[str], train: Mapping[str, int], test: Mapping[str, int],
    min_instances: int,
) -> list[Finding]:
    """Findings about labels: rare in training, or missing from one split."""
    out = []
    for lab in labels:
        tr, te = train[lab], test[lab]
        if tr == 0 and te > 0:
            out.append(Finding(
                "missing_in_train", "error", (lab,),
                f"{lab!r} has no training instance but {te} in the test data.",
                "The model cannot learn a label it never sees: annotate training examples of "
                "it, or drop it from the test data.", {"train": 0, "test": te}))
        elif tr > 0 and te == 0:
            out.append(Finding(
                "missing_in_test", "warning", (lab,),
                f"{lab!r} has {tr} training instances but none in the test data.",
                "Its performance cannot be measured: add test documents that contain it "
                "(e.g. move some from the training data).", {"train": tr, "test": 0}))
        if 0 < tr < min_instances:
            out.append(Finding(
                "few_instances", "warning", (lab,),
                f"{lab!r} has {tr} training instance{'s' if tr != 1 else ''}, fewer than "
                f"{min_instances}.",
                f"Add training examples of {lab!r} (at least {min_instances}, in varied "
                "contexts), or merge it with a related label.",
                {"train": tr, "min_instances": min_instances}))
    return out


def shift_findings(
    labels: Sequence[str], train: Mapping[str, int], test: Mapping[str, int], k: float,
) -> tuple[list[Finding], float]:
    """Labels whose share of entities differs between train and test (ratio and z-test)."""
    n1, n2 = sum(train.values()), sum(test.values())
    if n1 == 0 or n2 == 0:
        return [], math.nan
    tv = 0.5 * sum(abs(test[lab] / n2 - train[lab] / n1) for lab in labels)
    out = []
    for lab in labels:
        a, b = train[lab], test[lab]
        if a == 0 or b == 0:
            continue  # missing_in_train / missing_in_test
        p, q = a / n1, b / n2
        ratio = q / p
        pooled = (a + b) / (n1 + n2)
        se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        z = (q - p) / se if se > 0 else 0.0
        if (ratio >= k or ratio <= 1 / k) and abs(z) >= Z_CRITICAL:
            more = "more" if ratio > 1 else "less"
            times = ratio if ratio > 1 else 1 / ratio
            out.append(Finding(
                "distribution_shift", "warning", (lab,),
                f"{lab!r} is {times:.1f} times {more} common in test ({pct(q)} of the "
                f"entities) than in train ({pct(p)}); z = {z:.2f}.",
                "Test and training data differ in what they contain, so the test score may "
                "not reflect the data the model was built for; split the data again at random "
                "(stratified by label) or check that both come from the same source.",
                {"train": a, "test": b, "train_share": p, "test_share": q, "ratio": ratio,
                 "z": z}))
    return out, tv


def confusion_findings(alignment: Any, match: str, threshold: float) -> list[Finding]:
    """Gold labels predicted as another label in at least ``threshold`` of their row."""
    from nerscore.analysis.confusion import confusion_from_alignment
    from nerscore.analysis.pairing import analysis_alignment

    cm = confusion_from_alignment(analysis_alignment(match, alignment))
    m = cm.matrix
    rows = m.sum(axis=1)
    labels = cm.labels
    n = len(labels)
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            cij, cji = int(m[i, j]), int(m[j, i])
            sij = cij / rows[i] if rows[i] else 0.0
            sji = cji / rows[j] if rows[j] else 0.0
            if max(sij, sji) < threshold or (cij == 0 and cji == 0):
                continue
            if sji > sij:
                i2, j2, c, s, rc, rs = j, i, cji, sji, cij, sij
            else:
                i2, j2, c, s, rc, rs = i, j, cij, sij, cji, sji
            g, p = labels[i2], labels[j2]
            out.append(Finding(
                "confused_labels", "warning", (g, p),
                f"{c} of {int(rows[i2])} gold {g!r} entities ({pct(s)}) are predicted as "
                f"{p!r}; {rc} {p!r} entities ({pct(rs)}) as {g!r}.",
                f"Review the annotation guidelines for {g!r} and {p!r} and add training "
                "examples that tell them apart; if they cannot be told apart, merge them.",
                {"gold": g, "pred": p, "count": c, "gold_total": int(rows[i2]), "share": s,
                 "reverse_count": rc, "reverse_share": rs}))
    return out


def transition_finding(side: str, enc: Any, decoding: Decoding) -> Finding | None:
    """One finding for the invalid tag transitions of one side, or None when there are none."""
    from nerscore.decode.validation import check_tags

    res = check_tags(enc, decoding)
    issues = [i for i in res.issues if i.kind == "invalid_transition"]
    if not issues:
        return None
    first = []
    where = []
    for i in issues[:_FIRST]:
        first.append({"sentence": i.sentence, "index": i.index, "previous": i.previous,
                      "tag": i.tag, "source": i.source, "line": i.line})
        loc = f"{i.source}:{i.line}" if i.source and i.line else \
            f"sentence {i.sentence}, token {i.index}"
        frm = repr(i.previous) if i.previous is not None else "start"
        to = repr(i.tag) if i.tag is not None else "end"
        where.append(f"{loc} ({frm} -> {to})")
    n_sent = len({i.sentence for i in issues})
    scheme = res.scheme
    lenient = decoding.mode is not Mode.STRICT
    reading = ("lenient decoding reads a chunk start where the scheme does not allow one"
               if lenient else "strict decoding drops the malformed chunks")
    if side == "pred":
        severity = "info"
        advice = (f"Common for token classifiers without a constrained decoder: {reading}, so "
                  "state the decoding mode with the scores.")
    else:
        severity = "warning"
        advice = (f"The annotation breaks the {scheme} scheme and {reading}; check these "
                  f"sentences and fix them (nerscore repair, or repair_tags) so that every "
                  "tool reads the same entities.")
    return Finding(
        "invalid_transitions", severity, (),
        f"{len(issues)} invalid transition{'s' if len(issues) != 1 else ''} under {scheme} in "
        f"the {side} data ({n_sent} of {res.n_sequences} sentences); first: "
        + "; ".join(where) + ".",
        advice,
        {"side": side, "count": len(issues), "sentences": n_sent,
         "n_sequences": res.n_sequences, "first": first})


def seen_findings(
    seen: Mapping[str, Any], scores: Breakdown | None, seen_threshold: float,
    gap_threshold: float,
) -> list[Finding]:
    """Findings about surface forms seen in training against unseen ones."""
    out = []
    share = seen["share"]
    if not math.isnan(share) and share >= seen_threshold:
        out.append(Finding(
            "seen_overlap", "warning", (),
            f"{seen['n_seen']} of {seen['n_test']} test entities ({pct(share)}) occur with the "
            "same surface form and label in the training data.",
            "The test score mostly measures recall of known names and overstates performance "
            "on new ones; report the score on unseen entities too (breakdown(..., "
            "by='seen')).", dict(seen)))
    if scores is not None:
        names = scores.names()
        if "seen" in names and "unseen" in names and scores["seen"].n_gold \
                and scores["unseen"].n_gold:
            f_seen, f_unseen = scores["seen"].f1, scores["unseen"].f1
            if f_seen - f_unseen >= gap_threshold:
                out.append(Finding(
                    "unseen_gap", "warning", (),
                    f"F1 is {f_seen:.2f} on entities seen in training but {f_unseen:.2f} on "
                    "unseen ones.",
                    "The model recognises names it has seen more than it generalises from "
                    "context; add training data with more varied entities, and report the "
                    "unseen score separately.",
                    {"seen_f1": f_seen, "unseen_f1": f_unseen, "gap": f_seen - f_unseen,
                     "seen_n_gold": scores["seen"].n_gold,
                     "unseen_n_gold": scores["unseen"].n_gold}))
    return out
