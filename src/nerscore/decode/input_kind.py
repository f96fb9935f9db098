"""Whether an input is tag sequences or spans (see :mod:`nerscore.decode.inputs`).

Which kind an input is comes from its first span or tag: a list of lists of
``str`` (or of 1-D arrays of ``str``, or a 2-D array of ``str``) is tags, a
list of lists of tuples/dicts/entities is spans. Inputs
without a single tag or span (``[]``, ``[[], []]``) are read as tags unless
the other side is spans; a mapping or documents are always spans. Integer
label ids are refused with the way to wrap them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np

from nerscore.errors import InputTypeError
from nerscore.values.documents import Document
from nerscore.values.spans import Entity
from nerscore.values.tags import EncodedTags

__all__ = ["Kind", "input_kind", "item_kind"]

Kind = Literal["tags", "spans"]


def _looks_like_span(x: object) -> bool:
    """A span item: Entity, mapping, or a tuple/list starting with a number (checked later)."""
    if isinstance(x, (Entity, Mapping)):
        return True
    return isinstance(x, (tuple, list)) and len(x) > 0 and isinstance(x[0], (int, float, np.number))


def item_kind(x: object) -> Kind | None:
    """Kind of one item of an inner list (a tag or a span), None if unknown."""
    if isinstance(x, str):
        return "tags"
    return "spans" if _looks_like_span(x) else None


def _side_kind(y: object) -> Kind | None:
    """``"tags"``, ``"spans"`` or None (nothing to tell: no tag and no span)."""
    if isinstance(y, EncodedTags):
        return "tags"
    if isinstance(y, Mapping):
        return "spans"
    if isinstance(y, np.ndarray) and y.dtype.kind == "U":
        return "tags"
    if isinstance(y, (str, bytes)) or not isinstance(y, Sequence | np.ndarray):
        return None  # encode_pair raises its own error
    for item in y:
        if isinstance(item, (Document, Mapping, Entity)):
            return "spans"
        if isinstance(item, str):
            return "tags"
        if _looks_like_span(item):
            return "spans"  # one document given as a flat list of spans
        if isinstance(item, Sequence | np.ndarray) and not isinstance(item, (str, bytes)):
            for x in item:
                kind = item_kind(x)
                if kind is not None:
                    return kind
                break
            continue
        return None
    return None


def _is_id(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _integer_ids(y: object) -> bool:
    """Whether ``y`` looks like integer label ids (an int array, or lists of ints only)."""
    if isinstance(y, np.ndarray):
        return y.dtype.kind in "iu"
    if isinstance(y, (str, bytes, Mapping, EncodedTags)) or not isinstance(y, Sequence):
        return False
    for item in y:
        if _is_id(item):
            return all(map(_is_id, y))
        if isinstance(item, (list, tuple, np.ndarray)):
            if len(item) == 0:
                continue
            return all(map(_is_id, item))
        return False
    return False


def input_kind(y_true: object, y_pred: object) -> Kind:
    """Whether the inputs are tag sequences or spans (see the module docstring).

    Raises
    ------
    TypeError
        When one side is tags and the other spans.

    Examples
    --------
    >>> input_kind([["B-PER"]], [["O"]]), input_kind([[(0, 1, "X")]], [[]])
    ('tags', 'spans')
    >>> input_kind([], [])
    'tags'
    """
    for y, name in ((y_true, "y_true"), (y_pred, "y_pred")):
        if _integer_ids(y):
            raise InputTypeError(
                f"`{name}` holds integers, not tag strings or spans. For label ids, wrap "
                "them with their vocabulary: nerscore.EncodedTags.from_padded(ids, "
                "vocab=[...], lengths=[...]) for a padded matrix, or nerscore.EncodedTags(ids, "
                "offsets, vocab); for spans, give each its label: (start, end, label)."
            )
    kt, kp = _side_kind(y_true), _side_kind(y_pred)
    if kt is not None and kp is not None and kt != kp:
        raise InputTypeError(
            f"y_true looks like {_KIND_WORDS[kt]} but y_pred like {_KIND_WORDS[kp]}; "
            "give both sides in the same form."
        )
    return kt or kp or "tags"


_KIND_WORDS = {"tags": "tag sequences", "spans": "spans"}
