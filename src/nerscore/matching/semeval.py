"""``semeval`` matching (docs/matchers/semeval.md): SemEval-2013 Task 9.1's four schemas.

Each gold/predicted pair is put in one of five categories — COR (correct),
INC (incorrect), PAR (partial), MIS (missed gold), SPU (spurious
prediction) — under four schemas that each ask their own question:

========  ==================================  ============
schema    COR iff the pair has ...             otherwise
========  ==================================  ============
strict    the same bounds and the same label   INC
exact     the same bounds                      INC
partial   the same bounds                      PAR
type      the same label                       INC
========  ==================================  ============

``POS = COR + INC + PAR + MIS`` (gold entities) and
``ACT = COR + INC + PAR + SPU`` (predicted entities). ``strict``, ``exact``
and ``type`` score ``P = COR / ACT`` and ``R = COR / POS``; ``partial`` gives
half a point to PAR: ``P = (COR + 0.5 PAR) / ACT``, ``R = (COR + 0.5 PAR) / POS``;
F is the harmonic mean of P and R.

Alignment (default)
    Independent of input order, one alignment per schema. Candidate pairs are
    gold/predicted spans of the same sequence with a positive overlap
    (zero-length spans pair only with an identical span). They are taken
    one-to-one, greedily, best first: ``strict`` prefers same bounds and
    label, ``exact``/``partial`` same bounds, ``type`` same label; inside
    that class a larger overlap first, then the earlier gold start, then the
    earlier predicted start (further ties: same label first, earlier gold
    end, earlier predicted end, label names). A pair counts under its gold
    label, a spurious prediction under its own label, so label rows add up to
    the overall row.

``compat="nervaluate"``
    Reproduces nervaluate 1.2.1: each prediction, in input order, takes the
    first still-unmatched gold span (in input order) that it matches, else the
    first one it overlaps by at least 1% of the gold span's length
    (``type``: the same-label gold with the closest boundaries, else the first
    other-label one); label rows come from re-running that on the entities of
    each label alone, so they need not add up to the overall row.
    nervaluate's spans have inclusive ends, so zero-length spans are an error;
    so are discontinuous entities (pass ``discontinuous="extent"``).
    (nervaluate names the ``type`` schema ``ent_type``.)

Discontinuous entities (docs/fragments.md)
    "Same bounds" means the same fragment set; the overlap of a pair is the
    number of units the two fragment sets share.

References: I. Segura-Bedmar, P. Martínez and M. Herrero-Zazo, "SemEval-2013
Task 9: Extraction of drug-drug interactions from biomedical texts", 2013;
D. S. Batista, "Named-entity evaluation metrics based on entity-level", 2018;
the nervaluate package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidSpanError
from nerscore.matching.alignment import Alignment, MatchResult
from nerscore.matching.candidates import (
    alignment_from_pairs,
    candidate_pairs,
    check_contiguous,
    greedy_matching,
    isolated,
)
from nerscore.matching.registry import Matcher, Option, choice
from nerscore.values.counts import Counts
from nerscore.values.fragments import same_fragments
from nerscore.values.ratios import ZeroDivision, check_zero_division, safe_divide
from nerscore.values.spans import EntityColumns, unify_labels

__all__ = [
    "CATEGORIES",
    "SCHEMAS",
    "match_semeval",
    "semeval_alignments",
    "semeval_tables",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The four schemas, in report order.
SCHEMAS: tuple[str, ...] = ("strict", "exact", "partial", "type")
#: The five categories, in report order.
CATEGORIES: tuple[str, ...] = ("correct", "incorrect", "partial", "missed", "spurious")
#: Valid values of the ``compat`` option (besides None).
COMPAT: tuple[str, ...] = ("nervaluate",)
#: Prefix of the Counts.extra arrays holding nervaluate's per-label re-evaluation.
LABELWISE = "nervaluate."

#: Which alignment each schema uses ("bounds" is shared by exact and partial).
_ALIGNMENT_OF = {"strict": "strict", "exact": "bounds", "partial": "bounds", "type": "type"}

# Conflict sets up to this size are resolved by a plain loop; larger ones by rounds
# of "locally best" edges, which take whole batches of pairs at once.
_SMALL = 2048


check_compat = choice("compat", (*COMPAT, None))


def _prepare_sides(gold: EntityColumns, pred: EntityColumns) -> tuple[EntityColumns, EntityColumns]:
    """One sorted label vocabulary for both sides; reject reversed or negative spans."""
    gold, pred = unify_labels(gold, pred)
    if list(gold.labels) != sorted(gold.labels):
        vocab = sorted(gold.labels)
        gold, pred = gold.with_labels(vocab), pred.with_labels(vocab)
    for side, cols in (("gold", gold), ("predicted", pred)):
        bad = np.flatnonzero((cols.start > cols.end) | (cols.start < 0))
        if len(bad):
            spans = _describe(cols, bad)
            s, e, lab = spans[0]
            raise InvalidSpanError(
                f"{len(bad)} {side} span(s) need 0 <= start <= end; the first is "
                f"({s}, {e}, {lab!r}) in sequence {int(cols.seq[bad[0]])}. "
                "Fix the offsets (spans are half-open: end is exclusive).",
                document=int(cols.seq[bad[0]]),
                spans=spans,
            )
    return gold, pred


def _describe(cols: EntityColumns, rows: IntArray) -> list[tuple[int, int, str]]:
    return [
        (int(cols.start[r]), int(cols.end[r]), cols.labels[int(cols.label[r])])
        for r in rows[:20].tolist()
    ]


# ---------------------------------------------------------------------------
# default alignment: one-to-one greedy in priority order


def _align_default(
    gold: EntityColumns, pred: EntityColumns, gi: IntArray, pi: IntArray, ov: IntArray
) -> dict[str, tuple[IntArray, IntArray]]:
    """The strict, bounds and type alignments as (gold rows, pred rows) of the pairs."""
    simple = isolated(gi, pi, len(gold), len(pred))  # taken by every schema
    c = np.flatnonzero(~simple)
    if len(c) == 0:
        return {name: (gi, pi) for name in ("strict", "bounds", "type")}
    cg, cp, cov = gi[c], pi[c], ov[c]
    gs, ge, gl = gold.start[cg], gold.end[cg], gold.label[cg]
    ps, pe, pl = pred.start[cp], pred.end[cp], pred.label[cp]
    same_bounds = same_fragments(gold, cg, pred, cp)
    same_label = gl == pl
    # every tie-break below the priority class, most significant last (np.lexsort)
    base = np.lexsort((cp, cg, pl, gl, pe, ge, ~same_label, ps, gs, -cov))
    ug, lg = np.unique(cg, return_inverse=True)
    up, lp = np.unique(cp, return_inverse=True)
    lg, lp = lg.reshape(-1), lp.reshape(-1)
    classes = {
        "strict": ~(same_bounds & same_label),
        "bounds": ~same_bounds,
        "type": ~same_label,
    }
    out = {}
    for name, worse in classes.items():
        order = base[np.argsort(worse[base], kind="stable")]
        taken = order[greedy_matching(lg[order], lp[order], len(ug), len(up), small=_SMALL)]
        mask = simple.copy()
        mask[c[taken]] = True
        rows = np.flatnonzero(mask)
        out[name] = (gi[rows], pi[rows])
    return out


# ---------------------------------------------------------------------------
# compat="nervaluate": input-order greedy matching, per prediction


def _nervaluate_pairs(
    gold: EntityColumns, pred: EntityColumns, gi: IntArray, pi: IntArray, ov: IntArray
) -> dict[str, tuple[IntArray, IntArray]]:
    """The pairs nervaluate 1.2.1 forms: the strict, bounds and type alignments.

    ``gi, pi, ov`` are the overlapping pairs; rows are in input order inside
    each sequence. A pair whose prediction and gold span overlap nothing else
    is formed by every strategy; the rest are replayed one by one.
    """
    # nervaluate's "sufficient overlap": at least 1% of the gold span (inclusive ends)
    glen = (gold.end - gold.start)[gi]
    ok = (ov / glen) * 100.0 >= 1.0
    gi, pi, ov = gi[ok], pi[ok], ov[ok]
    simple = isolated(gi, pi, len(gold), len(pred))
    c = np.flatnonzero(~simple)
    # conflicts: replay nervaluate's loops, predictions in row order, golds in row order
    c = c[np.lexsort((gi[c], pi[c]))]
    cg, cp = gi[c], pi[c]
    same_bounds = (gold.start[cg] == pred.start[cp]) & (gold.end[cg] == pred.end[cp])
    same_label = gold.label[cg] == pred.label[cp]
    dist = np.abs(gold.start[cg] - pred.start[cp]) + np.abs(gold.end[cg] - pred.end[cp])
    chosen = _replay(cg.tolist(), cp.tolist(), same_bounds.tolist(), same_label.tolist(),
                     dist.tolist(), len(gold))
    out = {}
    for name, picks in chosen.items():
        mask = simple.copy()
        mask[c[np.asarray(picks, dtype=np.int64)]] = True
        rows = np.flatnonzero(mask)
        out[name] = (gi[rows], pi[rows])
    return out


def _replay(
    eg: list[int], ep: list[int], sb: list[bool], sl: list[bool], dist: list[int], n_gold: int
) -> dict[str, list[int]]:
    """Replay nervaluate's per-prediction loops over the conflicting pairs (by prediction)."""
    # nervaluate's exact and partial strategies pick the same pairs: keep one ("bounds")
    matched = {name: bytearray(n_gold) for name in ("strict", "bounds", "type")}
    picks: dict[str, list[int]] = {name: [] for name in matched}
    exact_of = {"strict": [a and b for a, b in zip(sb, sl, strict=True)], "bounds": sb}
    n = len(eg)
    a = 0
    while a < n:
        b = a
        while b < n and ep[b] == ep[a]:
            b += 1
        for name, is_exact in exact_of.items():
            used = matched[name]
            first = -1
            pick = -1
            for k in range(a, b):
                if used[eg[k]]:
                    continue
                if is_exact[k]:
                    pick = k
                    break
                if first < 0:
                    first = k
            pick = pick if pick >= 0 else first
            if pick >= 0:
                used[eg[pick]] = 1
                picks[name].append(pick)
        used = matched["type"]
        best = -1
        first = -1
        for k in range(a, b):
            if used[eg[k]]:
                continue
            if sl[k]:
                if best < 0 or dist[k] < dist[best]:
                    best = k
            elif first < 0:
                first = k
        pick = best if best >= 0 else first
        if pick >= 0:
            used[eg[pick]] = 1
            picks["type"].append(pick)
        a = b
    return picks


def _check_nervaluate_domain(gold: EntityColumns, pred: EntityColumns) -> None:
    for side, cols in (("gold", gold), ("predicted", pred)):
        bad = np.flatnonzero(cols.start == cols.end)
        if len(bad):
            spans = _describe(cols, bad)
            s, e, lab = spans[0]
            raise InvalidSpanError(
                f"compat='nervaluate' cannot score zero-length spans: {len(bad)} {side} "
                f"span(s) have start == end, the first ({s}, {e}, {lab!r}) in sequence "
                f"{int(cols.seq[bad[0]])}. nervaluate's spans have inclusive ends, so they "
                "need end > start; drop those spans or use the default alignment "
                "(compat=None).",
                document=int(cols.seq[bad[0]]),
                spans=spans,
            )


# ---------------------------------------------------------------------------
# counting


def _categorise(
    gold: EntityColumns, pred: EntityColumns, pairs: Mapping[str, tuple[IntArray, IntArray]],
    prefix: str = "",
) -> dict[str, IntArray]:
    """Per-label arrays ``"{prefix}{schema}.{category}"`` from each alignment's pairs.

    ``pairs`` is keyed by alignment: ``"strict"``, ``"bounds"`` (exact and
    partial) and ``"type"``.
    """
    n_lab = len(gold.labels)
    out: dict[str, IntArray] = {}

    def count(labels: IntArray) -> IntArray:
        return np.bincount(labels, minlength=n_lab).astype(np.int64)

    zero = np.zeros(n_lab, dtype=np.int64)
    for name, (pg, pp) in pairs.items():
        lab = gold.label[pg]
        same_bounds = same_fragments(gold, pg, pred, pp)
        same_label = lab == pred.label[pp]
        good = {"strict": same_bounds & same_label, "bounds": same_bounds,
                "type": same_label}[name]
        g_used = np.zeros(len(gold), dtype=bool)
        g_used[pg] = True
        p_used = np.zeros(len(pred), dtype=bool)
        p_used[pp] = True
        cor, rest = count(lab[good]), count(lab[~good])
        mis, spu = count(gold.label[~g_used]), count(pred.label[~p_used])
        for schema in SCHEMAS:
            if _ALIGNMENT_OF[schema] != name:
                continue
            key = f"{prefix}{schema}."
            out[key + "correct"] = cor
            out[key + "incorrect"] = zero if schema == "partial" else rest
            out[key + "partial"] = rest if schema == "partial" else zero
            out[key + "missed"] = mis
            out[key + "spurious"] = spu
    return out


def _setup(
    gold: EntityColumns, pred: EntityColumns, compat: object
) -> tuple[str | None, EntityColumns, EntityColumns, dict[str, tuple[IntArray, IntArray]]]:
    """Checked options and sides, and the strict, bounds and type alignments' pairs."""
    mode = check_compat(compat)
    gold, pred = _prepare_sides(gold, pred)
    if mode == "nervaluate":
        check_contiguous(gold, pred, "compat='nervaluate'",
                         "nervaluate's entities are contiguous spans")
        _check_nervaluate_domain(gold, pred)
    gi, pi, ov = candidate_pairs(gold, pred)
    align = _nervaluate_pairs if mode == "nervaluate" else _align_default
    return mode, gold, pred, align(gold, pred, gi, pi, ov)


def _schema_alignment(
    gold: EntityColumns, pred: EntityColumns, pairs: tuple[IntArray, IntArray], schema: str
) -> Alignment:
    """The alignment of one schema; each pair's credit is 1.0 (COR), 0.5 (PAR) or 0.0 (INC)."""
    pg, pp = pairs
    same_bounds = same_fragments(gold, pg, pred, pp)
    same_label = gold.label[pg] == pred.label[pp]
    if schema == "partial":
        credit = np.where(same_bounds, 1.0, 0.5)
    else:
        good = {"strict": same_bounds & same_label, "exact": same_bounds,
                "type": same_label}[schema]
        credit = good.astype(np.float64)
    return alignment_from_pairs(gold, pred, pg, pp, credit)


def semeval_alignments(
    gold: EntityColumns, pred: EntityColumns, *, compat: str | None = None
) -> dict[str, Alignment]:
    """The alignment behind each SemEval schema (which gold went with which prediction).

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides (label vocabularies are unified and sorted).
    compat : {"nervaluate"} or None
        ``None`` (default): the order-independent alignment of docs/matchers/semeval.md;
        ``"nervaluate"``: nervaluate 1.2.1's input-order matching.

    Returns
    -------
    dict of str to Alignment
        Keyed by ``"strict"``, ``"exact"``, ``"partial"`` and ``"type"``. Each
        pair's ``credit`` is 1.0 for COR, 0.5 for PAR and 0.0 for INC.

    Raises
    ------
    ValueError
        For an unknown ``compat``.
    InvalidSpanError
        For a span with ``start > end`` or ``start < 0``; with
        ``compat="nervaluate"`` also for zero-length spans.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0], [0], [10], [0], ("A",))
    >>> p = EntityColumns([0, 0], [0, 0], [4, 10], [0, 0], ("A",))
    >>> semeval_alignments(g, p)["strict"].pairs_pred.tolist()
    [1]
    >>> semeval_alignments(g, p, compat="nervaluate")["strict"].pairs_pred.tolist()
    [0]
    """
    _, gold, pred, pairs = _setup(gold, pred, compat)
    return {
        schema: _schema_alignment(gold, pred, pairs[_ALIGNMENT_OF[schema]], schema)
        for schema in SCHEMAS
    }


def match_semeval(
    gold: EntityColumns, pred: EntityColumns, *, compat: str | None = None
) -> MatchResult:
    """Match entities under SemEval-2013's four schemas (strict, exact, partial, type).

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides (label vocabularies are unified and sorted).
    compat : {"nervaluate"} or None
        ``None`` (default): the order-independent alignment of docs/matchers/semeval.md, one
        per schema, with label rows that add up to the overall row.
        ``"nervaluate"``: reproduce nervaluate 1.2.1 exactly — its input-order
        matching (rows of a sequence are taken in their order), its 1% overlap
        threshold and its per-label re-evaluation.

    Returns
    -------
    MatchResult
        ``counts``: the ``strict`` schema as :class:`~nerscore.Counts`
        (``exact`` = COR, ``n_pred`` = ACT, ``n_gold`` = POS, per label) with
        every schema's categories in ``Counts.extra`` under
        ``"{schema}.{category}"`` so that summed counts keep them;
        ``alignment``: the ``strict`` schema's alignment; ``extra``:
        ``{"schemas": semeval_tables(counts)}``.

    Raises
    ------
    ValueError
        For an unknown ``compat``.
    InvalidSpanError
        For a span with ``start > end`` or ``start < 0``; with
        ``compat="nervaluate"`` also for zero-length spans.

    See Also
    --------
    semeval_tables : The per-schema tables from (summed) counts.
    semeval_alignments : The alignment of every schema.

    Notes
    -----
    A pair counts under its gold label and a spurious prediction under its
    own label (so ``n_pred`` of a label is its ACT, not the number of
    predictions carrying it). With ``compat="nervaluate"`` the overall row is
    nervaluate's and ``Counts`` attributes its categories to labels the same
    way; nervaluate's own label rows (from evaluating each label alone) are
    kept in ``Counts.extra`` under ``"nervaluate.{schema}.{category}"`` and
    are what :func:`semeval_tables` shows as label rows.

    Examples
    --------
    docs/matchers/semeval.md's worked example (one sentence of tokens):

    >>> from nerscore.values.spans import Entity, EntityColumns, Span
    >>> def cols(rows):
    ...     return EntityColumns.from_entities([Entity(Span(s, e), lab) for s, e, lab in rows])
    >>> gold = cols([(0, 1, "BRAND"), (6, 7, "DRUG"), (9, 10, "DRUG"), (12, 13, "DRUG"),
    ...              (16, 17, "GROUP")])
    >>> pred = cols([(3, 4, "BRAND"), (5, 7, "DRUG"), (9, 10, "BRAND"), (12, 13, "DRUG"),
    ...              (15, 17, "DRUG")])
    >>> tables = match_semeval(gold, pred).extra["schemas"]
    >>> for schema, table in tables.items():
    ...     row = table["overall"]
    ...     print(schema, [row[k] for k in ("correct", "incorrect", "partial", "missed",
    ...                                    "spurious")], round(row["f1"], 4))
    strict [1, 3, 0, 1, 1] 0.2
    exact [2, 2, 0, 1, 1] 0.4
    partial [2, 0, 2, 1, 1] 0.6
    type [2, 2, 0, 1, 1] 0.4
    """
    compat, gold, pred, pairs = _setup(gold, pred, compat)
    extra = _categorise(gold, pred, pairs)
    if compat == "nervaluate":
        gi, pi, ov = candidate_pairs(gold, pred, same_label=True)
        extra.update(_categorise(gold, pred, _nervaluate_pairs(gold, pred, gi, pi, ov),
                                 prefix=LABELWISE))
    n_lab = len(gold.labels)
    n_gold = np.bincount(gold.label, minlength=n_lab).astype(np.int64)
    actual = (extra["strict.correct"] + extra["strict.incorrect"] + extra["strict.partial"]
              + extra["strict.spurious"])
    counts = Counts(gold.labels, extra["strict.correct"], actual, n_gold, extra=extra)
    alignment = _schema_alignment(gold, pred, pairs["strict"], "strict")
    return MatchResult(counts, alignment, {"schemas": semeval_tables(counts)})


# ---------------------------------------------------------------------------
# tables


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

    Works on the counts of one :func:`match_semeval` call and on counts summed
    over batches alike.

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


def _report_extra(counts: Counts, zero_division: Any) -> dict[str, Any]:
    """The schema tables rebuilt from (possibly summed) counts, honouring ``zero_division``."""
    if not any(k.startswith("strict.") for k in counts.extra):
        return {}
    zd = 0.0 if zero_division == "warn" else zero_division
    return {"schemas": semeval_tables(counts, zero_division=zd)}


MATCHER = Matcher.on_entities(
    "semeval",
    "SemEval-2013 strict / exact / partial / type with COR, INC, PAR, MIS, SPU (nervaluate)",
    match_semeval,
    options=(
        Option("compat", None, check_compat, "'nervaluate' reproduces nervaluate 1.2.1",
               COMPAT),
    ),
    report_extra=_report_extra,
)
