"""Entity counts and scores from label-id or logit tensors: the functional API.

:func:`count_entities` turns a batch of predictions and targets into
per-label count tensors (:class:`TensorCounts`) on the batch's device,
without a device-to-host synchronisation; :func:`entity_scores` divides
them (the tensor twin of :func:`nerscore.reduce_counts` with
``zero_division=0``). :meth:`TensorCounts.to_counts` gives the ordinary
:class:`nerscore.Counts` for :func:`nerscore.reduce_counts` and reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from nerscore.torch._match import count_labels, exact_hits, threshold_hits
from nerscore.torch._spans import compact, decode_spans
from nerscore.torch._tables import TagTables, as_tag_tuple, tag_tables
from nerscore.torch.aggregation import aggregate_subwords, word_targets
from nerscore.values.counts import Counts

__all__ = ["MATCHES", "TensorCounts", "count_entities", "entity_scores"]

MATCHES = ("exact", "threshold")

Batch = torch.Tensor | Sequence[torch.Tensor]


@dataclass(frozen=True, eq=False)
class TensorCounts:
    """Per-label counts as tensors on the batch's device; add them with ``+``.

    Attributes
    ----------
    labels : tuple of str
        Sorted entity labels (from the tag list).
    tp, n_pred, n_gold : tensor of int64, shape (K,)
        Per label: matches, predicted entities, gold entities.
    tokens, tokens_correct : tensor of int64, shape ()
        Scored tokens (``ignore_index`` positions excluded) and those whose
        predicted label id equals the target's.
    """

    labels: tuple[str, ...]
    tp: torch.Tensor
    n_pred: torch.Tensor
    n_gold: torch.Tensor
    tokens: torch.Tensor
    tokens_correct: torch.Tensor

    def __add__(self, other: TensorCounts) -> TensorCounts:
        if not isinstance(other, TensorCounts):
            return NotImplemented
        if other.labels != self.labels:
            raise ValueError("Cannot add TensorCounts of different label sets.")
        return TensorCounts(self.labels, self.tp + other.tp, self.n_pred + other.n_pred,
                            self.n_gold + other.n_gold, self.tokens + other.tokens,
                            self.tokens_correct + other.tokens_correct)

    def to_counts(self) -> Counts:
        """The ordinary :class:`nerscore.Counts` (copies to the host once).

        Examples
        --------
        >>> tags = ["O", "B-PER", "I-PER"]
        >>> c = count_entities(torch.tensor([[1, 2, 0]]), torch.tensor([[1, 2, 2]]), tags)
        >>> c.to_counts().to_dict()
        {'PER': {'tp': 0, 'n_pred': 1, 'n_gold': 1}}
        """
        host = torch.stack([self.tp, self.n_pred, self.n_gold]).cpu().numpy()
        return Counts(self.labels, host[0], host[1], host[2], tokens=int(self.tokens),
                      tokens_correct=int(self.tokens_correct))


def check_t(t: float) -> float:
    """Validate the threshold of ``match="threshold"`` (``0.5 <= t <= 1`` on tensors)."""
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.5 <= float(t) <= 1.0:
        raise ValueError(
            f"Expected `t` in [0.5, 1] for match='threshold' on tensors; got {t!r}. Below 0.5 "
            "a span can qualify with several neighbours and the greedy one-to-one order has "
            "no fixed-shape form; score such thresholds with nerscore.count_matches."
        )
    return float(t)


def check_match(match: str) -> str:
    """Validate ``match`` (``"exact"`` or ``"threshold"`` on tensors)."""
    if match not in MATCHES:
        raise ValueError(f"Expected `match` to be 'exact' or 'threshold' on tensors; "
                         f"got {match!r}.")
    return match


def as_ids(preds: torch.Tensor, n_tags: int) -> torch.Tensor:
    """Label ids ``(B, L)`` from ids or logits ``(B, L, C)`` (arg-max on the device)."""
    if preds.dim() == 3:
        if preds.shape[-1] != n_tags:
            raise ValueError(f"Expected logits with {n_tags} classes (one per tag) in the "
                             f"last dimension; got shape {tuple(preds.shape)}.")
        return preds.argmax(-1)
    if preds.dim() != 2:
        raise ValueError(f"Expected `preds` of shape (B, L) or (B, L, C); got "
                         f"{tuple(preds.shape)}.")
    if preds.is_floating_point():
        raise ValueError("Expected integer label ids in `preds` of shape (B, L); "
                         "pass logits as (B, L, C).")
    return preds.long()


def batch_counts(
    preds: torch.Tensor,
    target: torch.Tensor,
    tables: TagTables,
    *,
    match: str = "exact",
    t: float = 0.5,
    ignore_index: int = -100,
    word_ids: torch.Tensor | None = None,
    aggregation: str = "first",
) -> tuple[torch.Tensor, torch.Tensor]:
    """Counts of one batch: ``(counts (3, K) = [tp, n_pred, n_gold], (tokens, correct))``.

    The update step shared by :func:`count_entities` and the metric; all
    tensor operations are fixed-shape.
    """
    if word_ids is not None:
        preds, _ = aggregate_subwords(preds, word_ids, aggregation)
        target = word_targets(target, word_ids, ignore_index=ignore_index)
    if target.dim() != 2 or tuple(preds.shape[:2]) != tuple(target.shape):
        raise ValueError(f"Expected `target` of shape (B, L) matching `preds` "
                         f"{tuple(preds.shape)}; got {tuple(target.shape)}.")
    k = tables.n_labels
    pred_ids = as_ids(preds, tables.n_tags)
    if target.shape[1] == 0:
        zero = torch.zeros((), dtype=torch.int64, device=target.device)
        return torch.zeros((3, k), dtype=torch.int64, device=target.device), torch.stack(
            [zero, zero])
    p_ids, t_ids, valid = compact(pred_ids, target.long(), ignore_index, tables.n_tags)
    gold = decode_spans(t_ids, tables)
    pred = decode_spans(p_ids, tables)
    hits = exact_hits(gold, pred) if match == "exact" else threshold_hits(gold, pred, t)
    counts = count_labels(hits, gold, pred, k)
    tokens = torch.stack([valid.sum(), (valid & (p_ids == t_ids)).sum()])
    return counts, tokens


def _batches(x: Batch, name: str) -> list[torch.Tensor]:
    if isinstance(x, torch.Tensor):
        return [x]
    items = list(x)
    if not all(isinstance(b, torch.Tensor) for b in items):
        raise TypeError(f"Expected `{name}` to be a tensor or a sequence of tensors.")
    return items


def count_entities(
    preds: Batch,
    target: Batch,
    labels: Sequence[str],
    *,
    scheme: str | None = None,
    mode: str = "lenient",
    match: str = "exact",
    t: float = 0.5,
    ignore_index: int = -100,
    word_ids: Batch | None = None,
    aggregation: str = "first",
) -> TensorCounts:
    """Count entity matches of label-id or logit tensors, per label, on their device.

    Equal to :func:`nerscore.count_matches` on the tag strings with the
    ``ignore_index`` positions removed.

    Parameters
    ----------
    preds : tensor or sequence of tensors
        Predicted label ids ``(B, L)`` or logits ``(B, L, C)`` (arg-max taken
        on the device), or a list of such batches (lengths may differ).
    target : tensor or sequence of tensors
        Gold label ids ``(B, L)``; ``ignore_index`` marks positions to drop.
    labels : sequence of str
        Tag of every label id (a model's ``id2label`` in id order).
    scheme : str, optional
        Tagging scheme; required by ``mode="strict"``.
    mode : {"lenient", "strict"}
        How tags are decoded (see :func:`nerscore.tags_to_entities`).
    match : {"exact", "threshold"}
        Exact spans, or one-to-one pairs overlapping at least ``t`` of both
        spans (in tokens).
    t : float
        Threshold of ``match="threshold"``, in ``[0.5, 1]``.
    ignore_index : int
        Target value of positions to remove. They are removed, not read as
        ``O``: the tokens around them close up, so an entity interrupted by
        them stays one entity. The same positions are removed from ``preds``.
    word_ids : tensor or sequence of tensors, optional
        ``(B, L)`` word index of every subword (negative: none); when given,
        predictions are aggregated per word with ``aggregation`` and the
        target of a word is its first subword's.
    aggregation : str
        Subword aggregation strategy (see :mod:`nerscore.torch.aggregation`).

    Returns
    -------
    TensorCounts

    Notes
    -----
    Label ids must lie in ``[0, len(labels))`` (outside ``ignore_index``
    positions); others make the table lookup fail (an ``IndexError`` on the
    CPU, a device-side assertion on CUDA).

    Examples
    --------
    >>> tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    >>> target = torch.tensor([[1, 2, -100, 2, 0, 3]])
    >>> preds = torch.tensor([[1, 2, 0, 2, 0, 1]])
    >>> c = count_entities(preds, target, tags)
    >>> c.tp.tolist(), c.n_pred.tolist(), c.n_gold.tolist(), c.labels
    ([0, 1], [0, 2], [1, 1], ('LOC', 'PER'))
    """
    check_match(match)
    if match == "threshold":
        t = check_t(t)
    tables = tag_tables(as_tag_tuple(labels), scheme, mode)
    p_list, t_list = _batches(preds, "preds"), _batches(target, "target")
    w_list: list[torch.Tensor | None] = (
        [None] * len(p_list) if word_ids is None else list(_batches(word_ids, "word_ids")))
    if not (len(p_list) == len(t_list) == len(w_list)) or not p_list:
        raise ValueError("Expected as many `preds` as `target` (and `word_ids`) batches, "
                         "at least one.")
    total: torch.Tensor | None = None
    tokens: torch.Tensor | None = None
    for p, tg, w in zip(p_list, t_list, w_list, strict=True):
        c, n = batch_counts(p, tg, tables, match=match, t=t, ignore_index=ignore_index,
                            word_ids=w, aggregation=aggregation)
        total = c if total is None else total + c.to(total.device)
        tokens = n if tokens is None else tokens + n.to(tokens.device)
    assert total is not None
    assert tokens is not None
    return TensorCounts(tables.labels, total[0], total[1], total[2], tokens[0], tokens[1])


def entity_scores(tp: torch.Tensor, n_pred: torch.Tensor, n_gold: torch.Tensor,
                  labels: Sequence[str]) -> dict[str, torch.Tensor]:
    """Precision, recall and F1: micro, macro, weighted and per label, as tensors.

    The tensor twin of :func:`nerscore.reduce_counts` with
    ``zero_division=0``: a ratio with a zero denominator is 0. Macro means
    average over the labels with a gold or predicted entity (0 when there is
    none); weighted means weight by gold support (0 without gold entities).

    Returns
    -------
    dict of str to tensor
        ``precision``, ``recall``, ``f1`` (micro), ``macro_*``, ``weighted_*``
        and ``precision_<label>``, ``recall_<label>``, ``f1_<label>``.

    Examples
    --------
    >>> s = entity_scores(torch.tensor([1, 0]), torch.tensor([1, 1]), torch.tensor([2, 0]),
    ...                   ["LOC", "PER"])
    >>> round(s["f1"].item(), 4), s["macro_precision"].item(), s["f1_PER"].item()
    (0.5, 0.5, 0.0)
    """
    tp_f, np_f, ng_f = tp.double(), n_pred.double(), n_gold.double()

    def div(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.where(b > 0, a / b.clamp(min=1), torch.zeros_like(a))

    p, r, f = div(tp_f, np_f), div(tp_f, ng_f), div(2 * tp_f, np_f + ng_f)
    out = {
        "precision": div(tp_f.sum(), np_f.sum()),
        "recall": div(tp_f.sum(), ng_f.sum()),
        "f1": div(2 * tp_f.sum(), np_f.sum() + ng_f.sum()),
    }
    present = ((n_pred > 0) | (n_gold > 0)).double()
    for name, v in (("precision", p), ("recall", r), ("f1", f)):
        out[f"macro_{name}"] = div((v * present).sum(), present.sum())
        out[f"weighted_{name}"] = div((v * ng_f).sum(), ng_f.sum())
    for i, lab in enumerate(labels):
        out[f"precision_{lab}"] = p[i]
        out[f"recall_{lab}"] = r[i]
        out[f"f1_{lab}"] = f[i]
    return out
