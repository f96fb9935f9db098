"""Writing CoNLL column files (:func:`write_conll`), importable from :mod:`nerscore.io.conll`."""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import chain
from typing import IO, Any, Literal

import numpy as np

from nerscore.errors import InputTypeError, quoted
from nerscore.io._conll_fields import FIELD_RULE, check_shape, first_bad_field
from nerscore.io.atomic import atomic_open
from nerscore.values.tag_input import encode_lists, tag_sequences
from nerscore.values.tags import EncodedTags

__all__ = ["write_conll"]

def write_conll(
    target: str | os.PathLike[str] | IO[str],
    tokens: Sequence[Sequence[str]],
    *columns: Sequence[Sequence[str]],
    column_delimiter: Literal["space", "tab"] = "space",
    documents: Sequence[int] = (),
    encoding: str = "utf-8",
    bom: bool = False,
) -> None:
    r"""Write sentences as a CoNLL column file (token first, then each column).

    Parameters
    ----------
    target : path or text file object
        Where to write.
    tokens : list of list of str
        One list of tokens per sentence.
    *columns : list of list of str
        Further columns (e.g. gold and predicted labels), shaped like ``tokens``:
        lists of sentences, :class:`~nerscore.EncodedTags`, or NumPy arrays
        of ``str`` (a 2-D one, or one 1-D array per sentence), read as the
        same lists, here and in ``tokens`` (``docs/schemes.md``, "Tag input").
    column_delimiter : {"space", "tab"}
        Between columns.
    documents : sequence of int
        Sentence indices before which a ``-DOCSTART-`` line is written.
    encoding : str
        Encoding of a file written by name.
    bom : bool
        Begin with a byte-order mark, as the file that a corpus was read
        from did (``bom=corpus.bom``, :attr:`ConllCorpus.bom`): U+FEFF is
        written first, unless ``encoding`` is one whose codec writes the
        mark itself (``utf-8-sig``, ``utf-16``, ``utf-32``).

    Raises
    ------
    LengthMismatchError
        When a column is not shaped like ``tokens``.
    InputTypeError
        For a ``target`` that is neither a path nor a file, a column that is
        not a list of sentences, or a field that is not a str.
    ValueError
        For an empty field, or a field containing the delimiter or a line break
        (:func:`first_bad_field`); for ``bom=True`` with an ``encoding`` that
        has no byte-order mark (``latin-1``).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> write_conll(out, [["Jonas", "left"], ["Hi"]], [["B-PER", "O"], ["O"]],
    ...             [["B-PER", "B-LOC"], ["O"]])
    >>> print(out.getvalue(), end="")
    Jonas B-PER B-PER
    left O B-LOC
    <BLANKLINE>
    Hi O O
    <BLANKLINE>
    >>> from nerscore.io.conll import read_conll
    >>> read_conll(io.StringIO(out.getvalue()), label_column=1).to_lists()
    [['B-PER', 'O'], ['O']]

    A corpus relabelled keeps the byte-order mark of its file:

    >>> corpus = read_conll(io.BytesIO(b"\xef\xbb\xbfJonas I-PER\n"))
    >>> out = io.StringIO()
    >>> write_conll(out, [list(corpus.tokens)], [["B-PER"]], bom=corpus.bom)
    >>> out.getvalue()
    '\ufeffJonas B-PER\n\n'
    """
    if column_delimiter not in ("space", "tab"):
        raise ValueError(
            f"Expected `column_delimiter` to be one of 'space' or 'tab'; got {column_delimiter!r}."
        )
    delim = "\t" if column_delimiter == "tab" else " "
    if not isinstance(target, (str, os.PathLike)) and not hasattr(target, "write"):
        raise InputTypeError(
            f"Expected `target` (the first argument) to be a path or a text file object; got "
            f"{type(target).__name__}. Call write_conll(path, tokens, *columns).")
    cols = [tokens, *columns]
    names = ["tokens"] + [f"column {i + 1}" for i in range(len(columns))]
    for col, name in zip(cols, names, strict=True):
        if isinstance(col, str) or not isinstance(col, Sequence | EncodedTags | np.ndarray):
            raise InputTypeError(
                f"Expected {name} to be a list of sentences (lists of str); got "
                f"{type(col).__name__}. Call write_conll(path, tokens, *columns).")
    given: list[Any] = cols
    cols = [c.to_lists() if isinstance(c, EncodedTags) else tag_sequences(c, name, one=False)[0]
            for c, name in zip(given, names, strict=True)]
    enc: list[EncodedTags] = [g if isinstance(g, EncodedTags) else encode_lists(c, name, one=False)
                              for g, c, name in zip(given, cols, names, strict=True)]
    for e, name in zip(enc[1:], names[1:], strict=True):
        check_shape(enc[0], e, "tokens", name)
    for col, name in zip(cols, names, strict=True):
        flat = list(chain.from_iterable(col))
        pos = first_bad_field(flat, column_delimiter)
        if pos is not None:
            seq, idx = enc[0].locate(pos)
            rule = FIELD_RULE[column_delimiter]
            if column_delimiter == "space":
                rule += " (or write with column_delimiter='tab')"
            raise ValueError(
                f"Cannot write {quoted(flat[pos])} (token {idx} of sentence {seq}, {name}): a "
                f"field must be {rule}."
            )
    named = isinstance(target, (str, os.PathLike))
    # a codec that writes its own mark (utf-8-sig, utf-16) encodes "" as that mark
    mark = "\ufeff" if bom and not (named and "".encode(encoding)) else ""
    if mark and named:
        try:
            mark.encode(encoding)
        except UnicodeError:
            raise ValueError(f"Cannot write a byte-order mark in {encoding}, which has none: "
                             "write the file in UTF-8 (encoding='utf-8'), or without "
                             "the mark (bom=False).") from None
    doc_set = set(documents)
    width = len(cols)
    parts: list[str] = []
    for k, rows in enumerate(zip(*cols, strict=True)):
        if k in doc_set:
            parts.append(delim.join(["-DOCSTART-"] + ["O"] * (width - 1)) + "\n\n")
        parts.append("".join(delim.join(r) + "\n" for r in zip(*rows, strict=True)) + "\n")
    text = mark + "".join(parts)
    if isinstance(target, (str, os.PathLike)):
        with atomic_open(target, "w", encoding=encoding, newline="\n") as fh:
            fh.write(text)
    else:
        target.write(text)
