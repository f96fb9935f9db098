"""The two sides of a score told of the files the command read them from.

The library names the sides of its inputs ``y_true`` and ``y_pred``; a
command that scored one gold file against one prediction file names the
file instead, as the readers' own errors do (``FILE: ...``)
(:func:`naming_sides`). A prediction file that is the gold file itself is
noted (:func:`same_file_note`).
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nerscore.io.formats import Format

__all__ = ["naming_sides", "same_file_note"]


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


def _read_alike(args: argparse.Namespace, sides: Sequence[tuple[str, Format]]) -> bool:
    """Whether GOLD and PRED are read alike: one column, one annotator, not an export's two sides."""
    from nerscore.cli import _formats as fm

    label = getattr(args, "label_column", None)
    columns = [label if c is None else c
               for c in (getattr(args, "gold_column", None), getattr(args, "pred_column", None))]
    if columns[0] != columns[1] or "side" in sides[0][1].options:  # an export of both sides
        return False
    reading = [fm.reader_options(args, fmt, side) for side, fmt in sides]
    return reading[0].get("annotator") == reading[1].get("annotator")


def same_file_note(args: argparse.Namespace, gold: str, pred: str,
                   sides: Sequence[tuple[str, Format]]) -> str | None:
    """A note when PRED is GOLD: one file, or two files with the same bytes, read alike.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (the reading options of each side).
    gold, pred : str
        The two files.
    sides : sequence of (str, Format)
        ``("gold", GOLD's format)`` and ``("pred", PRED's format)``.

    Returns
    -------
    str or None
        None when the files differ, or are read differently (other label
        columns, other annotators, the two sides of one export).
    """
    if not _read_alike(args, sides):
        return None
    from nerscore.io.atomic import same_content

    try:
        if os.path.samefile(gold, pred):
            return (f"gold and prediction are the same file ({gold}); the scores compare it "
                    "with itself.")
    except OSError:
        return None
    if same_content(gold, pred):
        return (f"gold and prediction are the same file: {gold} and {pred} have "
                "identical content, so the scores compare it with itself.")
    return None
