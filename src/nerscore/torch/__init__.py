"""Entity scoring on PyTorch tensors, inside the training loop (extra ``torch``).

Counting runs on the tensors' device with fixed-shape operations only (no
device-to-host synchronisation, CUDA-graph capturable) and equals
:func:`nerscore.count_matches` on the tag strings with the ``ignore_index``
positions removed:

* :func:`count_entities` — per-label :class:`TensorCounts` from label ids
  ``(B, L)`` or logits ``(B, L, C)``; ``lenient`` or ``strict`` decoding in
  every scheme, ``exact`` or ``threshold`` matching, optional subword to
  word aggregation (:func:`aggregate_subwords`, :func:`word_ids_tensor`);
* :func:`entity_scores` — micro, macro, weighted and per-label P/R/F1 tensors;
* :func:`scored_spans` — gold and scored predicted spans from logits, for
  :func:`nerscore.threshold_curve` and :func:`nerscore.calibration`;
* :class:`EntityMetric` — a ``torchmetrics`` metric (extra ``torchmetrics``;
  imported on first use).

Importing this package needs PyTorch; ``import nerscore`` never imports it.

Examples
--------
>>> import torch
>>> from nerscore.torch import count_entities
>>> tags = ["O", "B-PER", "I-PER"]
>>> count_entities(torch.tensor([[1, 2, 0]]), torch.tensor([[1, 2, 0]]), tags).tp
tensor([1])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from nerscore.errors import require

require("torch", extra="torch")

from nerscore.torch.aggregation import (  # noqa: E402
    STRATEGIES,
    aggregate_subwords,
    word_ids_tensor,
    word_targets,
)
from nerscore.torch.functional import (  # noqa: E402
    TensorCounts,
    count_entities,
    entity_scores,
)
from nerscore.torch.scored import scored_spans  # noqa: E402

__all__ = [
    "STRATEGIES",
    "EntityMetric",
    "TensorCounts",
    "aggregate_subwords",
    "count_entities",
    "entity_scores",
    "scored_spans",
    "word_ids_tensor",
    "word_targets",
]


def __getattr__(name: str) -> Any:
    if name == "EntityMetric":
        require("torchmetrics", extra="torchmetrics")
        value = importlib.import_module("nerscore.torch.metric").EntityMetric
        globals()[name] = value
        return value
    raise AttributeError(f"module 'nerscore.torch' has no attribute {name!r}")


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from nerscore.torch.metric import EntityMetric
