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

from nerscore.errors import InputTypeError, LengthMismatchError
from nerscore.torch._checks import NAMES, Names, check_batch
from nerscore.torch._match import count_labels, exact_hits, threshold_hits
from nerscore.torch._options import MATCHES, settings
from nerscore.torch._spans import compact, decode_spans
from nerscore.torch._tables import TagTables
from nerscore.torch._validate import check_values
from nerscore.torch.aggregation import aggregate_subwords, word_targets
from nerscore.values.counts import Counts

__all__ = ["MATCHES", "TensorCounts", "count_entities", "entity_scores"]

Batch = torch.Tensor | Sequence[torch.Tensor]

#: Tokens of a chunk of rows that :func:`batch_counts` scores at once on the CPU.
CPU_CHUNK = 1 << 18


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
            raise InputTypeError(
                f"Cannot add TensorCounts of different label sets ({self.labels} and "
                f"{other.labels}); count both with the same tag list, or add their "
                ".to_counts().")
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


def as_ids(preds: torch.Tensor) -> torch.Tensor:
    """Label ids ``(B, L)`` from ids or logits ``(B, L, C)`` (arg-max on the device).

    The arg-max is taken as the index of ``max``, which is ``argmax``'s
    (the first largest value; a NaN counts as the largest) and, on the CPU,
    faster for the few classes of a tag set.
    """
    return preds.max(-1).indices if preds.dim() == 3 else preds


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
    names: Names = NAMES,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Counts of one batch: ``(counts (3, K) = [tp, n_pred, n_gold], (tokens, correct))``.

    The update step shared by :func:`count_entities` and the metric; all
    tensor operations are fixed-shape, and the checks read metadata only
    (:func:`nerscore.torch._checks.check_batch`).
    """
    preds, target, word_ids = check_batch(preds, target, word_ids, n_tags=tables.n_tags,
                                          names=names)
    k = tables.n_labels
    counts = torch.zeros((3, k), dtype=torch.int64, device=target.device)
    tokens = torch.zeros(2, dtype=torch.int64, device=target.device)
    if word_ids is not None and target.shape[1] > 0:
        preds, _ = aggregate_subwords(preds, word_ids, aggregation)
        target = word_targets(target, word_ids, ignore_index=ignore_index)
    for rows in _chunks(target):
        ids, n = compact(as_ids(preds[rows]), target[rows], ignore_index, tables)
        both = decode_spans(ids, tables)
        gold, pred = both.halves()
        hits = exact_hits(gold, pred) if match == "exact" else threshold_hits(both, t)
        counts += count_labels(hits, gold, pred, k)
        tokens += n
    return counts, tokens


def _chunks(target: torch.Tensor) -> list[slice]:
    """The rows of a batch in chunks of about :data:`CPU_CHUNK` tokens (on the CPU; else one).

    Chunks bound the memory of the temporaries, which the CPU would otherwise
    have to map afresh for every large batch. None for a batch without tokens.
    """
    rows, length = target.shape
    if length == 0:
        return []
    step = max(1, rows if target.device.type != "cpu" else CPU_CHUNK // length)
    return [slice(start, min(rows, start + step)) for start in range(0, rows, step)]


def counted(preds: torch.Tensor, target: torch.Tensor, tables: TagTables, *,
            validate: bool, names: Names = NAMES, match: str = "exact", t: float = 0.5,
            ignore_index: int = -100, word_ids: torch.Tensor | None = None,
            aggregation: str = "first") -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`batch_counts`, with the value checks when ``validate`` (one host sync).

    Without ``validate`` nothing reads the data back: a label id out of
    range fails the table lookup, on the CPU an ``IndexError`` that is
    turned here into the located error of
    :func:`nerscore.torch._validate.check_values` (on CUDA, a device-side
    assertion: validate to learn where).
    """
    if validate:
        preds, target, word_ids = check_batch(preds, target, word_ids,
                                              n_tags=tables.n_tags, names=names)
        check_values(preds, target, n_tags=tables.n_tags, ignore_index=ignore_index,
                     word_ids=word_ids, names=names)
    try:
        return batch_counts(preds, target, tables, match=match, t=t,
                            ignore_index=ignore_index, word_ids=word_ids,
                            aggregation=aggregation, names=names)
    except IndexError:
        check_values(preds, target, n_tags=tables.n_tags, ignore_index=ignore_index,
                     word_ids=word_ids, names=names)
        raise


def _batches(x: object, name: str) -> list[torch.Tensor]:
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence):
        raise InputTypeError(f"Expected `{name}` to be a tensor or a sequence of tensors; "
                             f"got {type(x).__name__}.")
    items = list(x)
    for i, b in enumerate(items):
        if not isinstance(b, torch.Tensor):
            raise InputTypeError(f"Expected `{name}` to be a tensor or a sequence of "
                                 f"tensors; item {i} is {type(b).__name__}.")
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
    validate: bool = False,
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
        How tags are decoded (see :func:`nerscore.tags_to_entities`). The
        tag runs strict mode reads as no entity are not counted here;
        scoring the tag strings with :func:`nerscore.evaluate` notes them.
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
        Subword aggregation strategy (see :mod:`nerscore.torch.aggregation`);
        checked even without ``word_ids``.
    validate : bool
        Check the values too: a NaN or infinite logit, or a label id outside
        ``[0, len(labels))`` that is not ``ignore_index``, at a scored
        position raises an error naming the tensor and the position. It
        costs one device-to-host synchronisation per batch, so it is off by
        default (the hot loop never waits for the device).

    Returns
    -------
    TensorCounts

    Raises
    ------
    OptionError
        An option outside its domain (the message lists the valid values).
    InputTypeError
        Not a tensor, a wrong number of dimensions or dtype (float label
        ids, integer logits, ``bool``), logits without one class per tag,
        tensors on different devices; with ``validate``, NaN or infinite
        logits.
    LengthMismatchError
        A batch size or a length that differs between ``preds``, ``target``
        and ``word_ids``.
    InvalidTagError
        A label id out of range (always on the CPU; on CUDA with
        ``validate``, since without it a bad id is a device-side assertion).

    Notes
    -----
    Only scored positions are checked: what lies where ``target`` is
    ``ignore_index`` is dropped unread. Without ``validate``, NaN logits are
    scored as their arg-max.

    Examples
    --------
    >>> tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    >>> target = torch.tensor([[1, 2, -100, 2, 0, 3]])
    >>> preds = torch.tensor([[1, 2, 0, 2, 0, 1]])
    >>> c = count_entities(preds, target, tags)
    >>> c.tp.tolist(), c.n_pred.tolist(), c.n_gold.tolist(), c.labels
    ([0, 1], [0, 2], [1, 1], ('LOC', 'PER'))
    >>> logits = torch.tensor([[[0.0, float("nan"), 1.0]]])
    >>> count_entities(logits, torch.tensor([[1]]), tags[:3], validate=True)
    Traceback (most recent call last):
    ...
    nerscore.errors.InputTypeError: `preds` (logits of shape (1, 1, 3)) holds nan at batch 0, token 0, class 1 (position [0, 0, 1]). NaN or infinite logits have no arg-max to score; check the model's outputs (a diverged loss, a mask filled with -inf at a scored position).
    """
    s = settings(labels, scheme=scheme, mode=mode, match=match, t=t,
                 ignore_index=ignore_index, aggregation=aggregation, validate=validate)
    p_list, t_list = _batches(preds, "preds"), _batches(target, "target")
    w_list: list[torch.Tensor | None] = (
        [None] * len(p_list) if word_ids is None else list(_batches(word_ids, "word_ids")))
    if not p_list:
        raise InputTypeError("Expected at least one batch in `preds`; got an empty sequence.")
    for name, other in (("target", t_list), ("word_ids", w_list)):
        if len(other) != len(p_list):
            raise LengthMismatchError(
                f"Expected as many `{name}` batches as `preds` batches; got {len(other)} "
                f"and {len(p_list)}.", expected=len(p_list), actual=len(other))
    several = len(p_list) > 1
    total: torch.Tensor | None = None
    tokens: torch.Tensor | None = None
    for i, (p, tg, w) in enumerate(zip(p_list, t_list, w_list, strict=True)):
        names = Names(*(f"{n}[{i}]" for n in NAMES)) if several else NAMES
        c, n = counted(p, tg, s.tables, validate=s.validate, names=names, match=s.match,
                       t=s.t, ignore_index=s.ignore_index, word_ids=w,
                       aggregation=s.aggregation)
        total = c if total is None else total + c.to(total.device)
        tokens = n if tokens is None else tokens + n.to(tokens.device)
    assert total is not None
    assert tokens is not None
    return TensorCounts(s.tables.labels, total[0], total[1], total[2], tokens[0], tokens[1])


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
