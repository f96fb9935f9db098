"""The one check that gold and prediction carry the same text for each document.

Span offsets index a document's text. When both sides give the text of a
document and the two differ, the offsets of one side may point at other
characters than the same offsets of the other side, and a score computed
from them would look right while comparing unlike things. Every entry point
runs :func:`compare_texts` when it joins documents (in memory, chunk by
chunk, on a cluster): the API warns with
:class:`~nerscore.errors.TextMismatchWarning`, and the report's notes (and
so the command line's ``note:`` lines and the HTML report's notes) name the
documents, the first differing character and a short excerpt of each side.
:func:`nerscore.agreement` and :func:`nerscore.adjudicate` run the same check
on every pair of annotators, and their notes name the two annotators in
place of gold and prediction.

Results of consecutive chunks add up (``a + b``), so a corpus read chunk by
chunk gets the note that the whole corpus gets.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from nerscore.errors import TextMismatchWarning, user_stacklevel

__all__ = ["TextMismatch", "TextMismatches", "compare_texts", "first_difference"]

#: Documents named in the note; the others are counted.
SHOWN = 5
#: Characters of each side quoted from the first difference on.
EXCERPT = 20


def first_difference(a: str, b: str) -> int:
    r"""Index of the first character where ``a`` and ``b`` differ (the shorter length if one is a prefix).

    Any ``str`` is compared, half a UTF-16 surrogate pair (``"\ud800"``,
    which no encoding writes) included: each character is its code point.

    Examples
    --------
    >>> first_difference("Anna went", "Anna left"), first_difference("ab", "abc")
    (5, 2)
    >>> first_difference("a\ud800b", "a\ud800c")
    2
    """
    n = min(len(a), len(b))
    diff = np.flatnonzero(
        np.frombuffer(a[:n].encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        != np.frombuffer(b[:n].encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    )
    return int(diff[0]) if len(diff) else n


@dataclass(frozen=True)
class TextMismatch:
    """One document whose gold and predicted texts differ.

    Attributes
    ----------
    document : str or int
        The document id, or its position when the documents have no ids.
    offset : int
        The first character where the texts differ.
    gold, pred : str
        Up to :data:`EXCERPT` characters of each text from ``offset`` on.
    """

    document: str | int
    offset: int
    gold: str
    pred: str

    def describe(self, sides: tuple[str, str] = ("gold", "prediction")) -> str:
        """``document 'a' from character 3 (gold 'a flew', prediction 'e flew')``.

        ``sides`` names the two texts (two annotators, for agreement).
        """
        name = f"document {self.document!r}" if isinstance(self.document, str) else (
            f"document {self.document}")
        return (f"{name} from character {self.offset} ({sides[0]} {self.gold!r}, {sides[1]} "
                f"{self.pred!r})")


@dataclass(frozen=True)
class TextMismatches:
    """How many documents have differing texts, and the first :data:`SHOWN` of them.

    Examples
    --------
    >>> m = compare_texts(["a", "b"], ["Anna went", "Bo"], ["Anna left", "Bo"])
    >>> m.count, m.shown[0].offset
    (1, 5)
    >>> print(m.note())
    1 document has a different text in gold and prediction: document 'a' from character 5 \
(gold 'went', prediction 'left'). Offsets are read against the gold text; give both sides \
the same texts.
    """

    count: int = 0
    shown: tuple[TextMismatch, ...] = ()

    def __bool__(self) -> bool:
        return self.count > 0

    def __add__(self, other: TextMismatches) -> TextMismatches:
        """The mismatches of ``self``'s documents, then ``other``'s."""
        return TextMismatches(self.count + other.count, (self.shown + other.shown)[:SHOWN])

    def shifted(self, by: int) -> TextMismatches:
        """Positions (documents without ids) moved by ``by``: for a chunk that starts at ``by``."""
        return TextMismatches(self.count, tuple(
            TextMismatch(m.document + by, m.offset, m.gold, m.pred)
            if isinstance(m.document, int) else m for m in self.shown))

    def note(self, annotators: tuple[str, str] | None = None) -> str:
        """The report's note: the count, then each shown document with its first difference.

        Parameters
        ----------
        annotators : (str, str), optional
            The two annotators whose texts were compared, named in place of
            gold and prediction.

        Examples
        --------
        >>> m = compare_texts(None, ["Anna went"], ["Anna left"])
        >>> print(m.note(("ann", "bob")))
        1 document has a different text for annotators 'ann' and 'bob': document 0 from \
character 5 (ann 'went', bob 'left'). Offsets are read against the first annotator's text; \
give every annotator the same texts.
        """
        many = self.count != 1
        head = (f"{self.count} documents have different texts" if many
                else "1 document has a different text")
        sides = ("gold", "prediction") if annotators is None else annotators
        listed = "; ".join(m.describe(sides) for m in self.shown)
        more = self.count - len(self.shown)
        if more > 0:
            listed += f"; and {more} more"
        if annotators is None:
            return (f"{head} in gold and prediction: {listed}. Offsets are read against the gold "
                    "text; give both sides the same texts.")
        return (f"{head} for annotators {annotators[0]!r} and {annotators[1]!r}: {listed}. "
                "Offsets are read against the first annotator's text; give every annotator "
                "the same texts.")

    def warn(self, annotators: tuple[str, str] | None = None) -> None:
        """Issue the note as a :class:`~nerscore.errors.TextMismatchWarning` (when any)."""
        if self:
            warnings.warn(self.note(annotators), TextMismatchWarning,
                          stacklevel=user_stacklevel())


def compare_texts(
    names: Sequence[str | int] | None,
    gold: Sequence[str | None],
    pred: Sequence[str | None],
) -> TextMismatches:
    """Every document whose gold and predicted texts are both known and differ.

    Parameters
    ----------
    names : sequence of str, or None
        The document ids, in the order of the texts; None names documents
        by position.
    gold, pred : sequence of str or None
        The texts of each document (None where a side has none).

    Returns
    -------
    TextMismatches
    """
    count = 0
    shown: list[TextMismatch] = []
    if list(pred).count(None) == len(pred):  # one side has no text: nothing to compare
        return TextMismatches(count, ())
    for k, (a, b) in enumerate(zip(gold, pred, strict=True)):
        if a is None or b is None or a == b:
            continue
        count += 1
        if len(shown) < SHOWN:
            pos = first_difference(a, b)
            name = names[k] if names is not None else k
            shown.append(TextMismatch(name, pos, a[pos:pos + EXCERPT], b[pos:pos + EXCERPT]))
    return TextMismatches(count, tuple(shown))
