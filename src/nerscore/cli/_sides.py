"""Errors about ``y_true``/``y_pred`` told of the files the command read them from.

The library names the sides of its inputs ``y_true`` and ``y_pred``; a
command that scored one gold file against one prediction file names the
file instead, as the readers' own errors do (``FILE: ...``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["naming_sides"]


@contextmanager
def naming_sides(gold: str, pred: str, *, names: tuple[str, str] = ("GOLD", "PRED"),
                 ) -> Iterator[None]:
    """Re-raise a span error of ``y_true`` or ``y_pred`` naming ``gold`` or ``pred``.

    The side the error is about becomes its file, in front as readers put
    it; the message's other mentions of a side become its name in the
    command's usage (``names``).

    Parameters
    ----------
    gold, pred : str
        The files read as ``y_true`` and as ``y_pred``.
    names : (str, str)
        What the command's usage calls them.

    Raises
    ------
    InvalidSpanError
        The error of the block, its side replaced by its file.

    Examples
    --------
    >>> from nerscore.errors import InvalidSpanError
    >>> try:
    ...     with naming_sides("g.jsonl", "p.jsonl"):
    ...         raise InvalidSpanError("Span 0 (0, 9, 'X') of document 'a' of y_pred ends "
    ...                                "beyond the text.", document="a")
    ... except InvalidSpanError as exc:
    ...     print(exc, exc.document)
    p.jsonl: Span 0 (0, 9, 'X') of document 'a' ends beyond the text. a
    """
    from nerscore.errors import InvalidSpanError

    try:
        yield
    except InvalidSpanError as exc:
        text = str(exc)
        for side, path in (("y_true", gold), ("y_pred", pred)):
            for named in (f" of {side}", f" ({side})"):
                if named in text:
                    text = text.replace(named, "", 1)
                    for other, name in zip(("y_true", "y_pred"), names, strict=True):
                        text = re.sub(rf"\b{other}\b", name, text)
                    raise InvalidSpanError(f"{path}: {text}", document=exc.document,
                                           spans=exc.spans) from None
        raise
