"""How messages, notes and summaries word a count: ``1 document``, ``2 documents``."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int | None, one: str, many: str | None = None) -> str:
    """``n`` and ``one``, or ``many`` (``one`` + "s" unless given) unless ``n`` is 1.

    Examples
    --------
    >>> counted(1, "sentence"), counted(40, "sentence"), counted(0, "document")
    ('1 sentence', '40 sentences', '0 documents')
    >>> counted(1, "candidate entity", "candidate entities"), counted(2, "entity", "entities")
    ('1 candidate entity', '2 entities')
    """
    return f"{n} {one if n == 1 else many or one + 's'}"
