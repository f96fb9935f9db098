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

This module counts and scores the pairs; ``_semeval_pairs`` forms them (both
alignments) and ``_semeval_tables`` turns counted categories into the tables
(:func:`semeval_tables`, importable from here).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from nerscore.matching._semeval_pairs import (
    align_default,
    check_nervaluate_domain,
    nervaluate_pairs,
    prepare_sides,
)
from nerscore.matching._semeval_tables import (
    CATEGORIES,
    LABELWISE,
    SCHEMAS,
    report_extra,
    semeval_tables,
)
from nerscore.matching.alignment import Alignment, MatchResult
from nerscore.matching.candidates import (
    alignment_from_pairs,
    candidate_pairs,
    check_contiguous,
)
from nerscore.matching.registry import Matcher, Option, choice
from nerscore.values.counts import Counts
from nerscore.values.fragments import same_fragments
from nerscore.values.spans import EntityColumns

__all__ = [
    "CATEGORIES",
    "SCHEMAS",
    "match_semeval",
    "semeval_alignments",
    "semeval_tables",
]

IntArray = npt.NDArray[np.int64]

#: Valid values of the ``compat`` option (besides None).
COMPAT: tuple[str, ...] = ("nervaluate",)
#: Which alignment each schema uses ("bounds" is shared by exact and partial).
_ALIGNMENT_OF = {"strict": "strict", "exact": "bounds", "partial": "bounds", "type": "type"}


check_compat = choice("compat", (*COMPAT, None))


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
    gold, pred = prepare_sides(gold, pred)
    if mode == "nervaluate":
        check_contiguous(gold, pred, "compat='nervaluate'",
                         "nervaluate's entities are contiguous spans")
        check_nervaluate_domain(gold, pred)
    gi, pi, ov = candidate_pairs(gold, pred)
    align = nervaluate_pairs if mode == "nervaluate" else align_default
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
        extra.update(_categorise(gold, pred, nervaluate_pairs(gold, pred, gi, pi, ov),
                                 prefix=LABELWISE))
    n_lab = len(gold.labels)
    n_gold = np.bincount(gold.label, minlength=n_lab).astype(np.int64)
    actual = (extra["strict.correct"] + extra["strict.incorrect"] + extra["strict.partial"]
              + extra["strict.spurious"])
    counts = Counts(gold.labels, extra["strict.correct"], actual, n_gold, extra=extra)
    alignment = _schema_alignment(gold, pred, pairs["strict"], "strict")
    return MatchResult(counts, alignment, {"schemas": semeval_tables(counts)})


MATCHER = Matcher.on_entities(
    "semeval",
    "SemEval-2013 strict / exact / partial / type with COR, INC, PAR, MIS, SPU (nervaluate)",
    match_semeval,
    options=(
        Option("compat", None, check_compat, "'nervaluate' reproduces nervaluate 1.2.1",
               COMPAT),
    ),
    report_extra=report_extra,
)
