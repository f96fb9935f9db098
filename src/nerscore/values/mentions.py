"""Mentions: what a generative model answered, before it is placed in the text (docs/llm.md).

A :class:`Mention` is an entity string and its label as a model wrote it,
with character offsets only when the model gave them (or when inline markup
placed it in the text the model wrote back). A :class:`ParsedOutput` is one
model output read as mentions, with the format it was read as, what was
repaired and what could not be read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Mention", "ParsedOutput"]


@dataclass(frozen=True, slots=True)
class Mention:
    """One entity string as a model answered it.

    Attributes
    ----------
    text : str
        The entity's surface string.
    label : str
        Its label, as the model wrote it (labels are open vocabulary).
    start, end : int or None
        Half-open character offsets, when the output carried them: into the
        source text for JSON objects with ``start``/``end``, into the text the
        model wrote back (:attr:`ParsedOutput.text`) for inline markup.

    Examples
    --------
    >>> Mention("Paris", "LOC")
    Mention(text='Paris', label='LOC', start=None, end=None)
    """

    text: str
    label: str
    start: int | None = None
    end: int | None = None

    @property
    def has_offsets(self) -> bool:
        """Whether the mention carries both offsets."""
        return self.start is not None and self.end is not None


@dataclass(frozen=True)
class ParsedOutput:
    """One model output read as mentions.

    Attributes
    ----------
    mentions : list of Mention
        In output order.
    format : str
        What the output was read as: ``"json-list"``, ``"json-dict"``,
        ``"xml"``, ``"markdown"``, ``"at-hash"``, ``"label-lines"``,
        ``"item-lines"``, ``"mentions"`` (already structured), ``"empty"``, or
        ``"failed"`` when nothing could be read.
    problems : tuple of str
        What was wrong with the output, in words, each with where it was
        (line and column, or the item number).
    repairs : tuple of str
        What was repaired to read it (a truncated JSON closed, a trailing
        comma removed, ...); empty when the output was read as written.
    text : str or None
        Inline markup only: the text the model wrote back, markup removed;
        the mentions' offsets index into it.
    raw : str
        The output as given.

    Examples
    --------
    >>> p = ParsedOutput([Mention("Paris", "LOC")], "json-list")
    >>> p.failed, p.repaired
    (False, False)
    """

    mentions: list[Mention]
    format: str
    problems: tuple[str, ...] = ()
    repairs: tuple[str, ...] = ()
    text: str | None = None
    raw: str = field(default="", repr=False)

    @property
    def failed(self) -> bool:
        """Whether the output could not be read at all (a parse failure)."""
        return self.format == "failed"

    @property
    def repaired(self) -> bool:
        """Whether reading it needed a repair."""
        return bool(self.repairs)
