"""Tags as users pass them, read into :class:`~nerscore.values.tags.EncodedTags`.

Every public function that takes tag sequences reads them through
:func:`tag_sequences` (lists of lists of ``str``, lists of 1-D arrays, a 2-D
array of ``str``, one flat sentence), then encodes them with
:func:`encode_lists`, or both sides against one vocabulary with
:func:`encode_pair`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import InputTypeError, LengthMismatchError, NerscoreError, quoted
from nerscore.values.spans import recode
from nerscore.values.tags import EncodedTags

__all__ = ["check_same_shape", "encode_lists", "encode_pair", "tag_sequences"]


def encode_pair(
    y_true: object, y_pred: object
) -> tuple[EncodedTags, EncodedTags]:
    """Encode gold and predicted tags against one shared vocabulary, checking their shapes."""
    t = y_true if isinstance(y_true, EncodedTags) else _encode_side(y_true, "y_true", None)
    p = y_pred if isinstance(y_pred, EncodedTags) else _encode_side(y_pred, "y_pred", t.vocab)
    check_same_shape(t, p)
    if p.vocab != t.vocab:
        vocab = tuple(dict.fromkeys(t.vocab + p.vocab))
        t = _recode(t, vocab)
        p = _recode(p, vocab)
    return t, p


def _recode(enc: EncodedTags, vocab: tuple[str, ...]) -> EncodedTags:
    if enc.vocab == vocab:
        return enc
    if vocab[: len(enc.vocab)] == enc.vocab:  # only new tags appended: ids unchanged
        return EncodedTags(enc.ids, enc.offsets, vocab, enc.source, enc.lines, enc.tokens,
                           enc.first)
    return EncodedTags(recode(enc.ids, enc.vocab, vocab), enc.offsets, vocab, enc.source,
                       enc.lines, enc.tokens, enc.first)


def _encode_side(y: object, name: str, vocab: Sequence[str] | None) -> EncodedTags:
    """Encode one side, naming the side and the place of a tag that is not a string."""
    return encode_lists(y, name, vocab)


def encode_lists(tags: object, name: str, vocab: Sequence[str] | None = None, *,
                 one: bool = True) -> EncodedTags:
    """Tag input (read by :func:`tag_sequences`) encoded, naming ``name`` and the place of a bad tag.

    Raises
    ------
    InputTypeError
        For input that :func:`tag_sequences` refuses, or a tag that is not a str.
    """
    sequences = tag_sequences(tags, name, one=one)[0]
    try:
        return EncodedTags.from_lists(sequences, vocab=vocab)
    except TypeError as exc:
        if isinstance(exc, NerscoreError):
            raise
        for k, seq in enumerate(sequences):
            for i, tag in enumerate(seq):
                if not isinstance(tag, str):
                    raise InputTypeError(
                        f"Expected every tag of `{name}` to be a str; token {i} of sentence {k} "
                        f"is {type(tag).__name__} {quoted(tag)}."
                    ) from None
        raise


def tag_sequences(tags: object, name: str, *,
                  one: bool = True) -> tuple[Sequence[Sequence[str]], bool]:
    """Tags as a user gives them, as a sequence of tag sequences: the one reading of tag input.

    Every public function that takes tags reads them here (through
    :func:`encode_lists` or :func:`encode_pair`). Accepted are a list or
    tuple of sentences, each a list, tuple or 1-D NumPy array of ``str``; a
    2-D NumPy array of ``str`` (one row per sentence, every cell a token);
    and, with ``one``, one sentence as a flat list or 1-D array of ``str``.
    Arrays become lists (:meth:`numpy.ndarray.tolist`, so every tag is a
    Python ``str``); lists of lists pass unchanged, checked at C speed. A
    tag that is not a ``str`` is found when the tags are encoded
    (:func:`encode_lists` names its place); an array whose dtype holds no
    strings (integers, floats, bytes) is refused here, naming its first tag.

    Parameters
    ----------
    tags : object
        What the user passed.
    name : str
        The argument's name, for messages.
    one : bool
        Whether a flat sequence of tags is read as one sentence.

    Returns
    -------
    sequences : sequence of sequence of str
    flat : bool
        Whether ``tags`` was one sentence.

    Raises
    ------
    InputTypeError
        For a string, an iterator or another object that is no sequence; a
        sentence that is no sequence; an array of more than two dimensions
        or of a dtype that holds no strings.

    Examples
    --------
    >>> tag_sequences(np.array([["B-X", "O"], ["O", "O"]]), "y_true")
    ([['B-X', 'O'], ['O', 'O']], False)
    >>> tag_sequences(["B-X", "O"], "y_true")
    ([['B-X', 'O']], True)
    >>> tag_sequences(np.array([[1, 2]]), "y_true")
    Traceback (most recent call last):
    ...
    nerscore.errors.InputTypeError: Expected every tag of `y_true` to be a str; token 0 of sentence 0 is int 1 (an array of dtype int64). Label ids need their vocabulary: nerscore.EncodedTags.from_padded(ids, vocab=[...], lengths=[...]).
    """
    if isinstance(tags, np.ndarray):
        tags = _array_lists(tags, name, None)
    elif isinstance(tags, str):
        raise InputTypeError(f"Expected `{name}` to be tag sequences, got a single string; give "
                             "one sentence as a list of tags, such as ['B-PER', 'I-PER', 'O'].")
    elif not isinstance(tags, Sequence):
        raise InputTypeError(
            f"Expected `{name}` to be tag sequences (a list of lists of str, a 2-D array of str, "
            f"or EncodedTags); got {type(tags).__name__}. Pass a list (for example list(...) of "
            "an iterator).")
    if one and len(tags) and isinstance(tags[0], str):
        return [tags], True
    if set(map(type, tags)) <= {list, tuple}:  # the common case, checked at C speed
        return tags, False
    return [_sentence(seq, name, k) for k, seq in enumerate(tags)], False


def _sentence(seq: object, name: str, k: int) -> Sequence[str]:
    """Sentence ``k`` of ``name``: a sequence as it is, an array as a list."""
    if isinstance(seq, np.ndarray):
        return _array_lists(seq, name, k)
    if isinstance(seq, str) or not isinstance(seq, Sequence):
        raise InputTypeError(f"Expected `{name}` to be a list of tag sequences; item {k} is "
                             f"{type(seq).__name__} {quoted(seq)}.")
    return seq


#: Advice for an array of tags whose dtype holds no strings, by dtype kind.
_ARRAY_HINTS = {
    "S": " Decode bytes to str first, e.g. np.char.decode(tags, 'utf-8').",
    "i": " Label ids need their vocabulary: nerscore.EncodedTags.from_padded(ids, vocab=[...], "
         "lengths=[...]).",
}
_ARRAY_HINTS["u"] = _ARRAY_HINTS["i"]


def _array_lists(arr: npt.NDArray[Any], name: str, row: int | None) -> list[Any]:
    """An array of tags as lists: all of ``name`` (a 2-D or 1-D array), or its sentence ``row``."""
    if arr.ndim != 1 and (row is not None or arr.ndim != 2):
        what = f"`{name}`" if row is None else f"item {row} of `{name}`"
        shape = "a 1-D array of tags" if row is not None else \
            "a 1-D array of tags or a 2-D array with one row of tags per sentence"
        raise InputTypeError(f"Expected {what} to be {shape}; got an array of shape {arr.shape}.")
    if arr.size and arr.dtype.kind not in "UO":
        first = arr.reshape(-1)[0].item()
        raise InputTypeError(
            f"Expected every tag of `{name}` to be a str; token 0 of sentence {row or 0} is "
            f"{type(first).__name__} {quoted(first)} (an array of dtype {arr.dtype})."
            f"{_ARRAY_HINTS.get(arr.dtype.kind, '')}")
    return arr.tolist()  # type: ignore[no-any-return]


def check_same_shape(t: EncodedTags, p: EncodedTags) -> None:
    """Raise :class:`LengthMismatchError` naming the first sequence whose lengths differ."""
    if t.n_sequences != p.n_sequences:
        raise LengthMismatchError.of_counts(t.source, t.n_sequences, p.source, p.n_sequences)
    if not np.array_equal(t.offsets, p.offsets):
        lt, lp = t.lengths, p.lengths
        k = int(np.flatnonzero(lt != lp)[0])
        where = ""
        if t.source or p.source:
            where = f" ({t.source or 'gold'} vs {p.source or 'prediction'})"
        raise LengthMismatchError(
            f"Sentence {t.first + k} has {int(lt[k])} gold tags but {int(lp[k])} predicted "
            f"tags{where}; every sentence needs one predicted tag per gold token.",
            expected=int(lt[k]),
            actual=int(lp[k]),
            sentence=t.first + k,
        )
