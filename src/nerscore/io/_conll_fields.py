"""What a field of a CoNLL line may hold: the rule the readers split lines by, for writers."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["FIELD_FORBIDS", "FIELD_RULE", "LABEL_FORBIDS", "first_bad_field"]

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
