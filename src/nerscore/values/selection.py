"""Which entities are scored, and how discontinuous ones are read (docs/fragments.md).

Two options that every scorer takes besides the matcher's own:

- ``discontinuous``: ``"fragments"`` (default) matches a discontinuous entity
  by its fragments; ``"extent"`` reads it as one span from its first start to
  its last end, as tools without fragments do;
- ``subset``: ``None`` (default) scores every entity; ``"discontinuous"``
  scores only the gold and predicted entities with two or more fragments
  (published discontinuous-NER work reports both);
- ``min_score``: ``None`` (default) scores every prediction; a number keeps
  only the predictions whose score is at least that number (the operating
  threshold of a system that scores its entities, docs/curves.md).

:class:`Selection` holds them as one validated value; public functions take
them as keywords (beside the matcher options, in ``**options``) and split
them off with :meth:`Selection.split`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from nerscore.errors import InputTypeError, option_error
from nerscore.values.options import OptionEnum
from nerscore.values.span_checks import first_unscored
from nerscore.values.spans import EntityColumns

__all__ = ["Discontinuous", "Selection", "Subset", "min_score_note", "parse_min_score"]


class Discontinuous(OptionEnum):
    """How discontinuous entities are matched (``discontinuous=``)."""

    FRAGMENTS = "fragments"
    EXTENT = "extent"


class Subset(OptionEnum):
    """Which entities are scored (``subset=``; None: all of them)."""

    DISCONTINUOUS = "discontinuous"


@dataclass(frozen=True)
class Selection:
    """The ``discontinuous``, ``subset`` and ``min_score`` options as one validated value.

    Examples
    --------
    >>> sel, rest = Selection.split({"subset": "discontinuous", "t": 0.5})
    >>> sel, rest
    (Selection(discontinuous='fragments', subset='discontinuous', min_score=None), {'t': 0.5})
    >>> Selection(min_score=0.5).given()
    {'min_score': 0.5}
    >>> Selection(discontinuous="EXTENT").given()
    {'discontinuous': 'extent'}
    >>> Selection(subset="all")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `subset` to be one of 'discontinuous' or None; got 'all'.
    """

    discontinuous: str = Discontinuous.FRAGMENTS.value
    subset: str | None = None
    min_score: float | None = None

    #: The keywords, as public functions take them.
    KEYWORDS = ("discontinuous", "subset", "min_score")

    def __init__(self, discontinuous: str = "fragments", subset: str | None = None,
                 min_score: float | None = None) -> None:
        object.__setattr__(self, "discontinuous",
                           Discontinuous.parse(discontinuous, name="discontinuous").value)
        if subset is not None:
            try:
                subset = Subset.parse(subset, name="subset").value
            except ValueError:
                raise option_error("subset", "one of 'discontinuous' or None", subset) from None
        object.__setattr__(self, "subset", subset)
        object.__setattr__(self, "min_score", parse_min_score(min_score))

    @classmethod
    def split(cls, options: Mapping[str, Any]) -> tuple[Selection, dict[str, Any]]:
        """The selection given among ``options``, and the other options (the matcher's)."""
        mine = {k: options[k] for k in cls.KEYWORDS if k in options}
        return cls(**mine), {k: v for k, v in options.items() if k not in cls.KEYWORDS}

    def given(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        out: dict[str, Any] = {}
        if self.discontinuous != Discontinuous.FRAGMENTS.value:
            out["discontinuous"] = self.discontinuous
        if self.subset is not None:
            out["subset"] = self.subset
        if self.min_score is not None:
            out["min_score"] = self.min_score
        return out

    def apply(self, gold: EntityColumns, pred: EntityColumns,
              doc_ids: Sequence[str] | None = None,
              ) -> tuple[EntityColumns, EntityColumns, dict[str, int]]:
        """Both sides as they are matched, and the tallies of discontinuous entities.

        The tallies (:attr:`nerscore.Counts.tallies`) count the entities of
        two or more fragments on each side as given (``gold_discontinuous``,
        ``pred_discontinuous``); then ``subset`` keeps only those, and
        ``extent`` reads them as their extents. ``min_score`` removes the
        predictions scored below it first, and counts them
        (``pred_below_min_score``). ``doc_ids`` name the documents in
        messages (by position when None).

        Raises
        ------
        InputTypeError
            For ``min_score`` with predictions that have no score.

        Examples
        --------
        >>> from nerscore.values.spans import Entity, Span
        >>> g = EntityColumns.from_entities([Entity.from_fragments([(0, 4), (19, 29)], "D"),
        ...                                  Entity(Span(5, 11), "D")])
        >>> gold, pred, tallies = Selection(subset="discontinuous").apply(g, g)
        >>> len(gold), tallies
        (1, {'gold_discontinuous': 1, 'pred_discontinuous': 1})
        >>> Selection(discontinuous="extent").apply(g, g)[0].fragments is None
        True
        """
        tallies: dict[str, int] = {}
        if self.min_score is not None:
            pred, below = self.apply_min_score(pred, doc_ids)
            tallies["pred_below_min_score"] = below
        out = []
        for name, cols in (("gold", gold), ("pred", pred)):
            many = cols.discontinuous() if cols.fragments is not None else None
            n = 0 if many is None else int(np.count_nonzero(many))
            if n:
                tallies[f"{name}_discontinuous"] = n
            if self.subset is not None:
                cols = cols.take(many) if many is not None else cols.take(
                    np.zeros(len(cols), dtype=bool))
            if self.discontinuous == Discontinuous.EXTENT.value:
                cols = cols.extent()
            out.append(cols)
        return out[0], out[1], tallies

    def apply_min_score(self, pred: EntityColumns, doc_ids: Sequence[str] | None = None,
                        ) -> tuple[EntityColumns, int]:
        """The predictions scored at least ``min_score``, and how many were removed.

        Raises
        ------
        InputTypeError
            When a prediction has no score, naming the first (in ``doc_ids``).

        Examples
        --------
        >>> p = EntityColumns([0, 0], [0, 5], [4, 9], [0, 0], ("PER",), score=[0.9, 0.3])
        >>> kept, removed = Selection(min_score=0.5).apply_min_score(p)
        >>> kept.start.tolist(), removed
        ([0], 1)
        >>> Selection(min_score=0.5).apply_min_score(EntityColumns([0], [0], [4], [0], ("PER",)),
        ...                                          ["d1"])
        Traceback (most recent call last):
        ...
        nerscore.errors.InputTypeError: min_score=0.5 keeps the predictions scored at least 0.5, but 1 of the 1 predictions have no score (the first is (0, 4, 'PER') of document 'd1'); give every predicted span a score (a dict's 'score', a tuple's fourth field, a JSON Lines span's "score"), or score them all (min_score=None).
        """
        t = self.min_score
        if t is None or not len(pred):
            return pred, 0
        score = pred.score
        unscored = pred.n_unscored
        if unscored:
            raise InputTypeError(
                f"min_score={t} keeps the predictions scored at least {t}, but {unscored} of "
                f"the {len(pred)} predictions have no score ({first_unscored(pred, doc_ids)}); "
                "give every predicted span a score "
                "(a dict's 'score', a tuple's fourth field, a JSON Lines span's \"score\"), or "
                "score them all (min_score=None).")
        assert score is not None
        keep = score >= t
        return pred.take(keep), int(len(pred) - np.count_nonzero(keep))


def parse_min_score(value: object) -> float | None:
    """``min_score`` as a float (None: no threshold).

    Examples
    --------
    >>> parse_min_score("0.5"), parse_min_score(None)
    (0.5, None)
    >>> parse_min_score("high")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `min_score` to be a finite number or None; got 'high'.
    """
    if value is None:
        return None
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        x = float("nan")
    if isinstance(value, bool) or not np.isfinite(x):
        raise option_error("min_score", "a finite number or None", value)
    return x


def min_score_note(min_score: float, below: int) -> str:
    """The note on the ``below`` predictions that ``min_score`` removed.

    Examples
    --------
    >>> min_score_note(0.5, 1)
    'Threshold: only predictions scored at least 0.5 were scored (min_score); 1 prediction below it was removed.'
    """
    s, were = ("", "was") if below == 1 else ("s", "were")
    return (f"Threshold: only predictions scored at least {min_score:g} were scored (min_score); "
            f"{below} prediction{s} below it {were} removed.")
