"""Error listing: every entity that is not an exact match, as one record each.

Gold and predicted entities are paired as every analysis view pairs them
(:func:`nerscore.analysis.pairing.analysis_alignment`): the matcher's own
pairing (for ``"exact"``: identical bounds, same-label pairs first), then the
entities it left unpaired one-to-one with overlapping ones of the same
sequence. The confusion matrix tallies the same pairs, so an entity has the
same partner in both. Each pair that is not an exact match, and each entity
left alone, becomes an :class:`ErrorRecord`:

============================  ===============================================
category                      meaning
============================  ===============================================
``missed``                    gold entity, no overlapping prediction (FN)
``spurious``                  prediction, no overlapping gold entity (FP)
``wrong_label``               same bounds, different label (FP + FN)
``wrong_boundary``            same label, overlapping but different bounds
``wrong_label_and_boundary``  overlapping, different label and bounds
``unaligned``                 a model's mention not found in the text (FP)
============================  ===============================================

``unaligned`` records come only from model outputs (docs/llm.md): a mention
that alignment could not place has no offsets, so its record has its text
(``pred_text``), its label and its document, and no start or end.

Every record but ``spurious`` is one false negative of its gold label, and
every record but ``missed`` one false positive of its predicted label, in
the sense of exact matching — whichever matcher paired them. Discontinuous
entities (docs/fragments.md) have the same bounds only when their fragments
are the same; a record gives their fragments and their text fragment by
fragment.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.byte_texts import ByteTexts
from nerscore.analysis.error_table import FIELDS, ErrorCategory, ErrorRecord, ErrorTable
from nerscore.analysis.pairing import analysis_alignment
from nerscore.errors import InvalidSpanError, LengthMismatchError
from nerscore.io.atomic import atomic_open
from nerscore.matching.alignment import Alignment
from nerscore.scoring.counting import run_matcher
from nerscore.values.decoding import Decoding
from nerscore.values.fragments import same_fragments
from nerscore.values.order import lexsort
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import EntityColumns
from nerscore.values.tags import Slices

if TYPE_CHECKING:
    from nerscore.scoring.report import Report

__all__ = [
    "FIELDS",
    "ErrorCategory",
    "ErrorRecord",
    "ErrorTable",
    "alignment_errors",
    "error_table",
    "errors_from_report",
    "errors_to_string",
    "list_errors",
    "write_errors",
]

IntArray = npt.NDArray[np.int64]
Frags = tuple[tuple[int, int], ...]


_MISSED, _SPURIOUS, _LABEL, _BOUNDARY, _BOTH = range(5)


def _texts_for(
    texts: Sequence[Any] | None, n_sequences: int
) -> Sequence[Any] | None:
    if texts is None:
        return None
    if isinstance(texts, str):
        raise TypeError(
            "Expected `texts` to be a sequence with one text (str) or token list per "
            "sequence; got a single str. Wrap it in a list."
        )
    if not isinstance(texts, Slices):  # token lists of a file stay unread until covered
        texts = list(texts)
    if len(texts) != n_sequences:
        raise LengthMismatchError(
            f"Expected `texts` to hold one item per sequence ({n_sequences}); "
            f"got {len(texts)}.",
            expected=n_sequences, actual=len(texts),
        )
    return texts


def _cover(item: Any, start: int, end: int, seq: int, doc: str | None,
           fragments: tuple[tuple[int, int], ...] | None = None) -> str | None:
    """The text an entity covers: a character slice, or its tokens joined by spaces."""
    if item is None:
        return None
    if fragments is not None:
        _cover(item, start, end, seq, doc)  # checks the extent against the text
        return " … ".join(str(_cover(item, a, b, seq, doc)) for a, b in fragments)
    where = f"document {doc!r}" if doc is not None else f"sequence {seq}"
    if end > len(item):
        unit = "characters" if isinstance(item, str) else "tokens"
        raise InvalidSpanError(
            f"Span [{start}, {end}) is out of range of the text of {where} "
            f"({len(item)} {unit}). Pass the texts (or tokens) the offsets refer to.",
            document=doc if doc is not None else seq,
        )
    if isinstance(item, str):
        return item[start:end]
    return " ".join(str(t) for t in item[start:end])


def _records(
    base: Alignment,
    *,
    doc_ids: Sequence[Any] | None,
    texts: Sequence[Any] | None,
) -> ErrorTable:
    gold, pred = base.gold, base.pred
    pg, pp, missed, spurious = base.pairs_gold, base.pairs_pred, base.missed, base.spurious
    same_bounds = same_fragments(gold, pg, pred, pp)
    same_label = gold.label[pg] == pred.label[pp]
    wrong = ~(same_bounds & same_label)
    pg, pp = pg[wrong], pp[wrong]
    same_bounds, same_label = same_bounds[wrong], same_label[wrong]
    cat_pair = np.where(same_bounds, _LABEL, np.where(same_label, _BOUNDARY, _BOTH))
    n_m, n_s = len(missed), len(spurious)
    none = np.full(n_m + n_s + len(pg), -1, dtype=np.int64)
    g_row = none.copy()
    g_row[: n_m] = missed
    g_row[n_m + n_s:] = pg
    p_row = none.copy()
    p_row[n_m: n_m + n_s] = spurious
    p_row[n_m + n_s:] = pp
    cat = np.concatenate([
        np.full(n_m, _MISSED), np.full(n_s, _SPURIOUS), cat_pair
    ]).astype(np.int64)
    has_g, has_p = g_row >= 0, p_row >= 0
    gr, pr = np.where(has_g, g_row, 0), np.where(has_p, p_row, 0)

    def col(values: IntArray, rows: IntArray, mask: npt.NDArray[np.bool_]) -> IntArray:
        return np.where(mask, values[rows], -1) if len(values) else none.copy()

    seq = np.where(has_g, col(gold.seq, gr, has_g), col(pred.seq, pr, has_p))
    gs, ge, gl = col(gold.start, gr, has_g), col(gold.end, gr, has_g), col(gold.label, gr, has_g)
    ps, pe, pl = col(pred.start, pr, has_p), col(pred.end, pr, has_p), col(pred.label, pr, has_p)
    start = np.where(has_g, gs, ps)
    end = np.where(has_g, ge, pe)
    order = lexsort((pl, ps, gl, cat, end, start, seq))
    cat, seq, gs, ge, gl, ps, pe, pl = (a[order] for a in (cat, seq, gs, ge, gl, ps, pe, pl))
    g_frags = _fragments_of(gold, np.where(has_g, g_row, -1)[order])
    p_frags = _fragments_of(pred, np.where(has_p, p_row, -1)[order])
    doc = None
    if doc_ids is not None:
        ids = [None if d is None else str(d) for d in doc_ids]
        doc = [ids[q] for q in seq.tolist()]
    g_text = p_text = None
    if texts is not None and (isinstance(texts, Slices) or any(t is not None for t in texts)):
        g_text, p_text = _covered(texts, seq, (gs, ge, g_frags), (ps, pe, p_frags), doc)
    return ErrorTable(cat, seq, gs, ge, gl, ps, pe, pl, tuple(gold.labels), doc,
                      g_text, p_text, g_frags, p_frags)


Side = tuple[IntArray, IntArray, "list[Frags | None] | None"]


def _covered(texts: Sequence[Any], seq: IntArray, gold: Side, pred: Side,
             doc: list[str | None] | None
             ) -> tuple[Sequence[str | None], Sequence[str | None]]:
    """The text each side of each record covers (None for an absent side or text).

    The token column of a file is cut from its bytes for all records at once
    (:class:`~nerscore.analysis.byte_texts.ByteTexts`: no string is made until
    read), other token lists joined at once
    (:meth:`~nerscore.values.tags.Slices.join_ranges`); any other text, and
    any record that would raise, record by record.
    """
    if isinstance(texts, Slices) and gold[2] is None and pred[2] is None:
        lengths = np.diff(texts.offsets)[seq] if len(seq) else seq
        fits = all(bool(((e <= lengths) | (s < 0)).all()) for s, e, _ in (gold, pred))
        if fits and hasattr(texts.flat, "joined_lines"):  # a file's: its bytes as they are
            g_bytes, p_bytes = _joined(texts.flat, texts.offsets[seq], gold[:2], pred[:2])
            return g_bytes, p_bytes
        if fits:
            (gs, ge, _), (ps, pe, _) = gold, pred
            g_joined = np.full(len(seq), None, dtype=object)
            has = np.flatnonzero(gs >= 0)
            g_joined[has] = texts.join_ranges(seq[has], gs[has], ge[has])
            p_joined = np.full(len(seq), None, dtype=object)
            same = (ps == gs) & (pe == ge) & (ps >= 0)  # the same tokens: the same text
            p_joined[same] = g_joined[same]
            has = np.flatnonzero((ps >= 0) & ~same)
            p_joined[has] = texts.join_ranges(seq[has], ps[has], pe[has])
            return g_joined.tolist(), p_joined.tolist()
    item_of = texts.view if isinstance(texts, Slices) else texts.__getitem__
    g_text: list[str | None] = []
    p_text: list[str | None] = []
    sides = ((gold, g_text), (pred, p_text))
    for k, q in enumerate(seq.tolist()):
        item = item_of(q)
        d = None if doc is None else doc[k]
        for (s, e, frags), column in sides:
            a = int(s[k])
            column.append(None if a < 0 or item is None else
                          _cover(item, a, int(e[k]), q, d, None if frags is None else frags[k]))
    return g_text, p_text


def _joined(tokens: Any, first: IntArray, *sides: tuple[IntArray, IntArray]) -> list[ByteTexts]:
    """The tokens ``start:end`` of each record's sequence (``first``: its first token), as bytes.

    ``tokens`` is a file's token column (``joined_lines``, as
    :class:`~nerscore.io._conll_text.FieldView`). One :class:`ByteTexts`
    per side (``start < 0``: none), all cut from the file at once.
    """
    n = len(first)
    out, at = tokens.joined_lines(
        np.concatenate([np.where(s >= 0, first + s, 0) for s, _ in sides]),
        np.concatenate([np.where(s >= 0, first + e, 0) for s, e in sides]))
    return [ByteTexts(out, at[k * n : (k + 1) * n + 1], s >= 0) for k, (s, _) in enumerate(sides)]


def _fragments_of(cols: EntityColumns, rows: IntArray) -> list[Frags | None] | None:
    """The fragments of each row (-1: none) that is discontinuous, else None (all None: None)."""
    if cols.fragments is None:
        return None
    many = cols.fragments.counts() > 1
    f = cols.fragments
    out = [f.row(r) if r >= 0 and many[r] else None for r in rows.tolist()]
    return out if any(x is not None for x in out) else None


def list_errors(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    texts: Sequence[Any] | None = None,
    doc_ids: Sequence[Any] | None = None,
    **options: Any,
) -> list[ErrorRecord]:
    """Every entity error between gold and prediction, one record each.

    Parameters
    ----------
    y_true, y_pred : tag sequences, span documents, or EntityColumns
        Gold and prediction, as for :func:`nerscore.evaluate`, or both sides
        as entity columns.
    match : str
        The matcher whose pairing is listed: ``"exact"`` (default) pairs
        identical bounds first (same label first); any other entity matcher
        (``"semeval"``, ``"overlap"``, ``"threshold"``) contributes its own
        alignment. Either way, entities it left unpaired are then paired
        one-to-one with overlapping ones (see the module docstring).
    scheme, mode, suffix, delimiter, outside
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    texts : sequence, optional
        One item per sequence, to fill ``gold_text``/``pred_text``: a str
        (offsets are characters) or a list of tokens (offsets are tokens;
        the covered tokens are joined by single spaces). Defaults to the
        texts of the input, or its tokens when tags were read from a file.
    doc_ids : sequence, optional
        One id per sequence, copied to ``doc_id``.
    **options
        Options of the matcher.

    Returns
    -------
    list of ErrorRecord
        Sorted by sequence, then start, then end (gold bounds where there is
        a gold entity).

    Raises
    ------
    LengthMismatchError
        When ``texts`` or ``doc_ids`` do not have one item per sequence.
    InvalidSpanError
        When an entity reaches past the end of its text.

    See Also
    --------
    errors_from_report : The same list from a :class:`~nerscore.Report`.
    write_errors : Write records as JSON Lines or CSV.

    Examples
    --------
    >>> tokens = [["Ann", "Lee", "met", "Bob", "in", "New", "York"]]
    >>> y_true = [["B-PER", "I-PER", "O", "B-PER", "O", "B-LOC", "I-LOC"]]
    >>> y_pred = [["B-PER", "O", "O", "B-LOC", "O", "O", "B-ORG"]]
    >>> for r in list_errors(y_true, y_pred, texts=tokens):
    ...     print(r.category, r.gold_text, r.gold_label, "->", r.pred_text, r.pred_label)
    wrong_boundary Ann Lee PER -> Ann PER
    wrong_label Bob PER -> Bob LOC
    wrong_label_and_boundary New York LOC -> York ORG
    """
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    run = run_matcher(y_true, y_pred, match, decoding, options, align=True)
    prep, res = run.prep, run.result
    n_seq = prep.n_sequences
    if prep.tags is None and prep.doc_ids is None and prep.texts is None:
        # columns may not know about entity-free documents at the end
        extra = [len(x) for x in (texts, doc_ids) if x is not None and not isinstance(x, str)]
        n_seq = max([n_seq, *extra])
    prep_texts: Sequence[Any] | None = prep.texts
    return list(_from_alignment(
        analysis_alignment(match, res.alignment), n_seq,
        doc_ids=doc_ids if doc_ids is not None else prep.doc_ids,
        texts=texts if texts is not None else prep_texts,
    ))


def _from_alignment(
    base: Alignment, n_seq: int, *,
    doc_ids: Sequence[Any] | None, texts: Sequence[Any] | None,
) -> ErrorTable:
    ids = None
    if doc_ids is not None:
        ids = list(doc_ids)
        if len(ids) != n_seq:
            raise LengthMismatchError(
                f"Expected `doc_ids` to hold one id per sequence ({n_seq}); got {len(ids)}.",
                expected=n_seq, actual=len(ids),
            )
    return _records(base, doc_ids=ids, texts=_texts_for(texts, n_seq))


def errors_from_report(
    report: Report, *, texts: Sequence[Any] | None = None
) -> list[ErrorRecord]:
    """Every entity error of a report, from the entities it stored (no rescoring).

    Equals :func:`list_errors` on the same inputs with the report's matcher.

    Parameters
    ----------
    report : Report
        From :func:`nerscore.evaluate` with an entity matcher.
    texts : sequence, optional
        One text (str) or token list per sequence; defaults to
        ``report.texts``.

    Returns
    -------
    list of ErrorRecord

    Raises
    ------
    ValueError
        When the report has no alignment (``match="token"``).

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "B-LOC"]], zero_division=0.0)
    >>> [(e.category.value, e.pred_start, e.pred_label) for e in errors_from_report(r)]
    [('spurious', 1, 'LOC')]
    """
    return list(error_table(report, texts=texts))


def error_table(report: Report, *, texts: Sequence[Any] | None = None) -> ErrorTable:
    """:func:`errors_from_report` as columns: records are made only when read.

    What the command line writes and the HTML report embeds; pass it to
    :func:`write_errors` to write all records at once.

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "B-LOC"]], zero_division=0.0)
    >>> t = error_table(r)
    >>> len(t), t.pred_start.tolist(), t[0] == errors_from_report(r)[0]
    (1, [1], True)
    """
    return alignment_errors(report.match, report.alignment, n_sequences=report.n_sequences,
                            doc_ids=report.doc_ids,
                            texts=texts if texts is not None else report.texts)


def alignment_errors(
    match: str, alignment: Alignment | None, *, n_sequences: int | None = None,
    doc_ids: Sequence[Any] | None = None, texts: Sequence[Any] | None = None,
) -> ErrorTable:
    """:func:`error_table` of a matcher's alignment, without a report (a scorer's batch).

    Parameters
    ----------
    match : str
        The matcher that made ``alignment``.
    alignment : Alignment or None
        Its alignment (None raises, as for ``match="token"``).
    n_sequences : int, optional
        The sequences scored (those past the last entity included).
    doc_ids, texts : sequence, optional
        One id, and one text or token list, per sequence.

    Returns
    -------
    ErrorTable
    """
    base = analysis_alignment(match, alignment)
    n_seq = max(base.gold.n_sequences, base.pred.n_sequences, n_sequences or 0)
    return _from_alignment(base, n_seq, doc_ids=doc_ids, texts=texts)


def write_errors(
    records: Iterable[ErrorRecord],
    path_or_file: str | os.PathLike[str] | IO[str],
    *,
    format: str = "jsonl",  # noqa: A002 - the public name of the option
) -> int:
    """Write error records as JSON Lines or CSV (UTF-8).

    Parameters
    ----------
    records : iterable of ErrorRecord
        From :func:`list_errors`, :func:`errors_from_report` or
        :func:`error_table` (written column by column).
    path_or_file : str, path or text file
        Where to write; a path is created or overwritten.
    format : {"jsonl", "csv"}
        JSON Lines: one object per record, keys in :data:`FIELDS` order,
        ``null`` for absent values. CSV: a header row of :data:`FIELDS`,
        then one row per record, empty cells for absent values; a cell
        holding a comma, a double quote, a carriage return or a newline is
        quoted, its quotes doubled (RFC 4180), on every Python version.

    Returns
    -------
    int
        The number of records written.

    Raises
    ------
    ValueError
        For an unknown ``format``.

    Examples
    --------
    >>> import io
    >>> recs = list_errors([["B-PER", "O"]], [["O", "B-LOC"]])
    >>> buf = io.StringIO()
    >>> write_errors(recs, buf, format="csv")
    2
    >>> print(buf.getvalue().splitlines()[1])
    missed,0,,0,1,PER,,,,,,,
    """
    if format not in ("jsonl", "csv"):
        raise ValueError(f"Expected `format` to be one of 'jsonl', 'csv'; got {format!r}.")
    table = ErrorTable.from_records(records)
    if isinstance(path_or_file, (str, os.PathLike)):
        with atomic_open(path_or_file, "wb") as fh:
            table.write_to(fh, format)
    else:
        table.write_to(path_or_file, format)
    return len(table)


def errors_to_string(records: Iterable[ErrorRecord], *, format: str = "jsonl") -> str:  # noqa: A002
    """The output of :func:`write_errors` as a string.

    Parameters
    ----------
    records : iterable of ErrorRecord
        The records.
    format : {"jsonl", "csv"}
        Output format.

    Returns
    -------
    str

    Examples
    --------
    >>> print(errors_to_string(list_errors([["B-PER"]], [["O"]])), end="")
    {"category": "missed", "sequence": 0, "doc_id": null, "gold_start": 0, "gold_end": 1, \
"gold_label": "PER", "pred_start": null, "pred_end": null, "pred_label": null, \
"gold_text": null, "pred_text": null, "gold_fragments": null, "pred_fragments": null}
    """
    buf = io.StringIO()
    write_errors(records, buf, format=format)
    return buf.getvalue()
