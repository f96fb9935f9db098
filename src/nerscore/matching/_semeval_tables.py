"""The SemEval tables: each schema's categories counted, as rows of P, R and F (:mod:`nerscore.matching.semeval`).

:func:`~nerscore.matching.semeval.match_semeval` keeps the categories of
every schema in ``Counts.extra`` as ``"{schema}.{category}"`` arrays (per
label, so that summed counts keep them); :func:`semeval_tables` turns them,
from one call or summed over batches, into the overall and per-label rows of
each schema, and :func:`report_extra` is what the matcher adds to a report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.values.counts import Counts
from nerscore.values.ratios import ZeroDivision, check_zero_division, safe_divide

__all__ = ["CATEGORIES", "LABELWISE", "SCHEMAS", "report_extra", "semeval_tables"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The four schemas, in report order.
SCHEMAS: tuple[str, ...] = ("strict", "exact", "partial", "type")
#: The five categories, in report order.
CATEGORIES: tuple[str, ...] = ("correct", "incorrect", "partial", "missed", "spurious")
#: Prefix of the Counts.extra arrays holding nervaluate's per-label re-evaluation.
LABELWISE = "nervaluate."


def _row_values(
    cats: Mapping[str, IntArray], schema: str, names: list[str], zero_division: ZeroDivision,
) -> dict[str, FloatArray | IntArray]:
    cor, inc, par, mis, spu = (cats[c] for c in CATEGORIES)
    possible = cor + inc + par + mis
    actual = cor + inc + par + spu
    score = cor + 0.5 * par if schema == "partial" else cor
    label = f"SemEval {schema}"
    p = safe_divide(score, actual, zero_division=zero_division, metric=f"{label} precision",
                    names=names, reason="no predicted entities")
    r = safe_divide(score, possible, zero_division=zero_division, metric=f"{label} recall",
                    names=names, reason="no gold entities")
    both = p + r
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(both > 0, 2 * (p * r) / np.where(both > 0, both, 1.0), 0.0)
    f = np.where(np.isnan(both), np.nan, f)
    return {"correct": cor, "incorrect": inc, "partial": par, "missed": mis, "spurious": spu,
            "possible": possible, "actual": actual, "precision": p, "recall": r, "f1": f}


def _plain(values: Mapping[str, FloatArray | IntArray], i: int) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for key, arr in values.items():
        v = arr[i]
        out[key] = float(v) if key in ("precision", "recall", "f1") else int(v)
    return out


def semeval_tables(
    counts: Counts, *, zero_division: ZeroDivision = 0.0
) -> dict[str, dict[str, Any]]:
    """The per-schema SemEval tables (overall and per label) from category counts.

    Works on the counts of one :func:`~nerscore.matching.semeval.match_semeval`
    call and on counts summed over batches alike.

    Parameters
    ----------
    counts : Counts
        Counts whose ``extra`` holds the ``"{schema}.{category}"`` arrays.
    zero_division : "warn", 0.0, 1.0 or nan
        Value of a ratio with a zero denominator. The default 0.0 is
        nervaluate's convention; an F with ``P + R = 0`` is 0.0.

    Returns
    -------
    dict
        ``{schema: {"overall": row, "labels": {label: row}}}`` where each row
        has ``correct, incorrect, partial, missed, spurious, possible, actual``
        (int) and ``precision, recall, f1`` (float). Labels with no gold and no
        predicted entity are left out. With nervaluate compat counts the label
        rows are nervaluate's per-label re-evaluation.

    Raises
    ------
    ValueError
        When the counts hold no SemEval categories.

    Examples
    --------
    >>> from nerscore.matching.semeval import match_semeval
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0], [0], [10], [0], ("A",))
    >>> p = EntityColumns([0], [0], [5], [0], ("A",))
    >>> c = match_semeval(g, p).counts + match_semeval(g, g).counts
    >>> semeval_tables(c)["partial"]["overall"]["f1"]
    0.75
    >>> semeval_tables(c)["type"]["labels"]["A"]["correct"]
    2
    """
    zd = check_zero_division(zero_division)
    missing = [f"{s}.{c}" for s in SCHEMAS for c in CATEGORIES if f"{s}.{c}" not in counts.extra]
    if missing:
        raise ValueError(
            "These counts hold no SemEval categories (missing Counts.extra "
            f"{', '.join(repr(m) for m in missing[:3])}, ...); build them with "
            "match='semeval'."
        )
    labelwise = all(f"{LABELWISE}{s}.{c}" in counts.extra for s in SCHEMAS for c in CATEGORIES)
    tables: dict[str, dict[str, Any]] = {}
    for schema in SCHEMAS:
        cats = {c: counts.extra[f"{schema}.{c}"] for c in CATEGORIES}
        total = {c: np.array([int(v.sum())], dtype=np.int64) for c, v in cats.items()}
        overall = _plain(_row_values(total, schema, ["overall"], zd), 0)
        prefix = LABELWISE if labelwise else ""
        rows = {c: counts.extra[f"{prefix}{schema}.{c}"] for c in CATEGORIES}
        used = (sum(rows.values()) > 0) if len(counts.labels) else np.zeros(0, dtype=bool)
        keep = np.flatnonzero(used)
        names = [counts.labels[i] for i in keep.tolist()]
        values = _row_values({c: v[keep] for c, v in rows.items()}, schema, names, zd)
        tables[schema] = {
            "overall": overall,
            "labels": {name: _plain(values, j) for j, name in enumerate(names)},
        }
    return tables


def report_extra(counts: Counts, zero_division: Any) -> dict[str, Any]:
    """The schema tables rebuilt from (possibly summed) counts, honouring ``zero_division``."""
    if not any(k.startswith("strict.") for k in counts.extra):
        return {}
    zd = 0.0 if zero_division == "warn" else zero_division
    return {"schemas": semeval_tables(counts, zero_division=zd)}
