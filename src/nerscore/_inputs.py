"""Turning what users pass (tag sequences, encoded tags) into entity columns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nerscore._tags import EncodedTags, encode_pair
from nerscore.extraction import decode
from nerscore.schemes import Mode, Scheme
from nerscore.types import EntityColumns

__all__ = ["Prepared", "prepare"]


@dataclass(frozen=True, eq=False)
class Prepared:
    """Both sides as entity columns, with the encoded tags when the input was tags."""

    gold: EntityColumns
    pred: EntityColumns
    tags: tuple[EncodedTags, EncodedTags] | None
    scheme: str | None
    mode: str | None
    doc_ids: list[str] | None = None
    texts: list[str | None] | None = None
    notes: tuple[str, ...] = ()

    @property
    def n_sequences(self) -> int:
        """Number of sentences or documents."""
        return max(self.gold.n_sequences, self.pred.n_sequences)

    @property
    def n_tokens(self) -> int | None:
        """Number of tokens (tag input only)."""
        return len(self.tags[0]) if self.tags is not None else None

    def tokens_correct(self) -> int:
        """Tokens whose gold and predicted tag strings are equal."""
        if self.tags is None:
            return 0
        return int(np.count_nonzero(self.tags[0].ids == self.tags[1].ids))


def prepare(
    y_true: object,
    y_pred: object,
    *,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
) -> Prepared:
    """Decode both sides (tag sequences) into entity columns."""
    t, p = encode_pair(y_true, y_pred)
    m = Mode.parse(mode, name="mode")
    kw = {"scheme": scheme, "mode": m, "suffix": suffix, "delimiter": delimiter,
          "outside": outside}
    gold = decode(t, **kw)  # type: ignore[arg-type]
    pred = decode(p, **kw)  # type: ignore[arg-type]
    name = None if scheme is None else Scheme.parse(scheme, name="scheme").value
    return Prepared(gold, pred, (t, p), name, m.value)
