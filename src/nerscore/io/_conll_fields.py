"""What a CoNLL writer checks before it writes: fields the readers split lines back into, columns of one shape.

A field may hold nothing the readers split lines at (:func:`first_bad_field`),
and every column written beside the tokens, or over a file's labels, is shaped
like them (:func:`check_shape`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from nerscore.errors import LengthMismatchError
from nerscore.values.tags import EncodedTags

__all__ = ["FIELD_FORBIDS", "FIELD_RULE", "LABEL_FORBIDS", "check_shape", "first_bad_field"]

#: What no field of a CoNLL line can hold, by the delimiter between fields: the reader
#: splits a line at white space and control characters (``"space"``), or at tabs
#: (``"tab"``; line breaks, vertical tabs and form feeds end a line for other tools).
FIELD_FORBIDS = {"space": re.compile(r"[\s\x00-\x1f]"), "tab": re.compile(r"[\t\n\r\v\f]")}
#: The rule of each delimiter, for messages.
FIELD_RULE = {"space": "non-empty and free of white space and control characters",
              "tab": "non-empty and free of tabs and line breaks"}
#: What no label of a CoNLL file can hold, whatever its delimiter: a label is one word.
LABEL_FORBIDS = FIELD_FORBIDS["space"].pattern


def first_bad_field(values: Sequence[str], delimiter: str) -> int | None:
    r"""The index of the first of ``values`` that cannot be a field of a CoNLL line; None if none.

    Parameters
    ----------
    values : sequence of str
        Fields.
    delimiter : {"space", "tab"}
        Between the fields of the line (:data:`FIELD_FORBIDS`).

    Examples
    --------
    >>> first_bad_field(["New", "York"], "space"), first_bad_field(["a", "New York"], "space")
    (None, 1)
    >>> first_bad_field(["New York"], "tab"), first_bad_field(["a", ""], "tab")
    (None, 1)
    """
    forbids = FIELD_FORBIDS[delimiter]
    if all(values) and not forbids.search("".join(values)):
        return None
    return next(i for i, v in enumerate(values) if not v or forbids.search(v))


def check_shape(a: EncodedTags, b: EncodedTags, a_name: str, b_name: str) -> None:
    """Raise :class:`~nerscore.errors.LengthMismatchError` unless ``a`` and ``b`` have one shape.

    ``a_name`` and ``b_name`` name the two sides in the message.
    """
    if a.n_sequences != b.n_sequences:
        raise LengthMismatchError(
            f"{a_name} has {a.n_sequences} sentences but {b_name} has {b.n_sequences}.",
            expected=a.n_sequences, actual=b.n_sequences,
        )
    if not np.array_equal(a.offsets, b.offsets):
        la, lb = a.lengths, b.lengths
        k = int(np.flatnonzero(la != lb)[0])
        raise LengthMismatchError(
            f"Sentence {k} has {int(la[k])} tokens in {a_name} but {int(lb[k])} in {b_name}.",
            expected=int(la[k]), actual=int(lb[k]), sentence=k,
        )
