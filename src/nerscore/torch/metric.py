"""A ``torchmetrics`` metric for entity-level scores (extra ``torchmetrics``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from torchmetrics import Metric

from nerscore.scoring.report import Report
from nerscore.torch._options import settings
from nerscore.torch.functional import counted, entity_scores
from nerscore.values.counts import Counts

__all__ = ["EntityMetric"]


class EntityMetric(Metric):
    """Entity-level precision, recall and F1, accumulated on the device.

    The states are per-label count tensors (``tp``, ``n_pred``, ``n_gold``,
    int64 of shape ``(K,)``) plus the token totals, all summed across
    processes, so distributed evaluation gives exactly the single-process
    counts. :meth:`update` runs fixed-shape tensor operations only (no
    device-to-host synchronisation); the counts equal
    :func:`nerscore.count_matches` on the tag strings with the
    ``ignore_index`` positions removed.

    Parameters
    ----------
    labels : sequence of str
        Tag of every label id (a model's ``id2label`` in id order); the
        metric's labels are the entity types of these tags.
    scheme : str, optional
        Tagging scheme; required by ``mode="strict"``.
    mode : {"lenient", "strict"}
        How tags are decoded (see :func:`nerscore.tags_to_entities`). The
        tag runs strict mode reads as no entity are not counted here (the
        update stays free of host synchronisation); scoring the tag strings
        with :func:`nerscore.evaluate` notes them.
    match : {"exact", "threshold"}
        Exact spans, or one-to-one pairs overlapping at least ``t`` of both
        spans (in tokens).
    ignore_index : int
        Target value of positions to remove (they close up; they are not
        read as ``O``).
    t : float
        Threshold of ``match="threshold"``, in ``[0.5, 1]``.
    aggregation : str
        Subword to word strategy used when :meth:`update` gets ``word_ids``.
    validate : bool
        Check the values of every batch in :meth:`update`: a NaN or infinite
        logit, or a label id outside ``[0, len(labels))`` that is not
        ``ignore_index``, raises an error naming the tensor and the position.
        Off by default: it costs one device-to-host synchronisation per
        update (see :func:`nerscore.torch.count_entities` for what is checked
        without it).
    **kwargs
        Passed to :class:`torchmetrics.Metric` (``sync_on_compute``, ...).

    Notes
    -----
    :meth:`update` takes ``(preds, target)`` in that order, as every
    torchmetrics metric does (nerscore's own functions take
    ``(y_true, y_pred)``). :meth:`compute` returns a dict of float64 tensors:
    ``precision``, ``recall``, ``f1`` (micro), ``macro_*``, ``weighted_*``,
    ``accuracy`` (tokens) and ``precision_<label>``, ``recall_<label>``,
    ``f1_<label>``. A ratio with a zero denominator is 0 (macro means
    average over the labels with a gold or predicted entity).

    Examples
    --------
    >>> import torch
    >>> metric = EntityMetric(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])
    >>> metric.update(torch.tensor([[1, 2, 0, 3]]), torch.tensor([[1, 2, 0, 1]]))
    >>> out = metric.compute()
    >>> out["precision"].item(), out["recall"].item(), out["f1_PER"].item()
    (0.5, 0.5, 0.6666666666666666)
    >>> metric.to_counts().to_dict()["PER"]
    {'tp': 1, 'n_pred': 1, 'n_gold': 2}
    """

    full_state_update = False
    higher_is_better = True
    is_differentiable = False

    tp: torch.Tensor
    n_pred: torch.Tensor
    n_gold: torch.Tensor
    tokens: torch.Tensor
    tokens_correct: torch.Tensor
    sequences: torch.Tensor

    def __init__(
        self,
        labels: Sequence[str],
        *,
        scheme: str | None = None,
        mode: str = "lenient",
        match: str = "exact",
        ignore_index: int = -100,
        t: float = 0.5,
        aggregation: str = "first",
        validate: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        s = settings(labels, scheme=scheme, mode=mode, match=match, t=t,
                     ignore_index=ignore_index, aggregation=aggregation, validate=validate)
        self.match, self.t, self.aggregation = s.match, s.t, s.aggregation
        self.ignore_index, self.validate, self.tables = s.ignore_index, s.validate, s.tables
        k = self.tables.n_labels
        for name in ("tp", "n_pred", "n_gold"):
            self.add_state(name, default=torch.zeros(k, dtype=torch.int64), dist_reduce_fx="sum")
        for name in ("tokens", "tokens_correct", "sequences"):
            self.add_state(name, default=torch.zeros((), dtype=torch.int64),
                           dist_reduce_fx="sum")

    @property
    def labels(self) -> tuple[str, ...]:
        """The entity labels, sorted."""
        return self.tables.labels

    def update(self, preds: torch.Tensor, target: torch.Tensor,
               word_ids: torch.Tensor | None = None) -> None:
        """Add one batch: ``preds`` ids ``(B, L)`` or logits ``(B, L, C)``, ``target`` ids.

        With ``word_ids`` ``(B, L)`` (negative: no word), predictions are
        aggregated per word and each word's target is its first subword's.
        Every row is a sequence (one with only ``ignore_index`` targets is an
        empty one, as an empty list of tags is for :func:`nerscore.count_matches`).
        """
        counts, tokens = counted(
            preds, target, self.tables, validate=self.validate, match=self.match, t=self.t,
            ignore_index=self.ignore_index, word_ids=word_ids, aggregation=self.aggregation,
        )
        self.tp += counts[0]
        self.n_pred += counts[1]
        self.n_gold += counts[2]
        self.tokens += tokens[0]
        self.tokens_correct += tokens[1]
        self.sequences += target.shape[0]

    def compute(self) -> dict[str, torch.Tensor]:
        """Scores as float64 tensors (see the class Notes for the keys)."""
        out = entity_scores(self.tp, self.n_pred, self.n_gold, self.tables.labels)
        tokens = self.tokens.double()
        out["accuracy"] = torch.where(tokens > 0, self.tokens_correct.double()
                                      / tokens.clamp(min=1), torch.zeros_like(tokens))
        return out

    def to_counts(self) -> Counts:
        """The accumulated counts as :class:`nerscore.Counts` (one copy to the host).

        Under ``torch.distributed`` the states of all processes are summed
        first, as in :meth:`compute`.
        """
        return self._host()[0]

    def _host(self) -> tuple[Counts, int]:
        """The counts and the number of sequences, on the host (summed across processes)."""
        with self.sync_context():
            host = torch.stack([self.tp, self.n_pred, self.n_gold]).cpu().numpy()
            tokens, correct = int(self.tokens), int(self.tokens_correct)
            sequences = int(self.sequences)
        counts = Counts(self.tables.labels, host[0], host[1], host[2], tokens=tokens,
                        tokens_correct=correct)
        return counts, sequences

    def to_report(self, *, zero_division: Any = 0.0) -> Report:
        """The accumulated counts as a :class:`nerscore.Report` (renderers, JSON).

        Examples
        --------
        >>> import torch
        >>> metric = EntityMetric(["O", "B-PER", "I-PER"])
        >>> metric.update(torch.tensor([[1, 2, 0], [0, 0, 0]]), torch.tensor([[1, 2, 0], [0, 1, -100]]))
        >>> report = metric.to_report()
        >>> report.n_sequences, report.n_tokens
        (2, 5)
        >>> str(report).splitlines()[-1]
        'accuracy: 0.80 (5 tokens, 2 sequences)'
        """
        from nerscore.scoring.metrics import build_report

        counts, sequences = self._host()
        options: dict[str, Any] = {"t": self.t} if self.match == "threshold" else {}
        return build_report(counts, match=self.match, options=options,
                            scheme=self.tables.scheme, mode=self.tables.mode.value,
                            beta=1.0, zero_division=zero_division, n_sequences=sequences,
                            n_tokens=counts.tokens)
