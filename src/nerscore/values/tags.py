"""Tag sequences as integer arrays, and the parsing of a tag vocabulary.

Every tag string is parsed once per distinct tag (a corpus has few), then
the whole corpus is mapped to integer ids with one pass; everything after
that works on NumPy arrays.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, islice, pairwise
from operator import itemgetter

import numpy as np
import numpy.typing as npt

from nerscore.errors import (
    InvalidTagError,
    quoted,
)
from nerscore.values import schemes as sc
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Scheme, SchemeTable
from nerscore.values.slices import Slices

__all__ = ["EncodedTags", "ParsedVocab", "Slices", "encode_strings", "parse_vocab"]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class EncodedTags:
    """A corpus of tag sequences as one flat integer array.

    Parameters
    ----------
    ids : array of int
        Tag id of every token, all sequences concatenated.
    offsets : array of int
        ``len = n_sequences + 1``; sequence ``k`` is ``ids[offsets[k]:offsets[k+1]]``.
    vocab : tuple of str
        Tag strings; ``ids`` index into it.
    source : str, optional
        File the tags came from (for messages).
    lines : array of int, optional
        1-based file line of every token (for messages).
    tokens : sequence of str, optional
        Token strings (for messages).
    first : int
        Index in its file of the first sequence (for messages): a chunk of
        a file read chunk by chunk names its sequence ``k`` as the file's
        sequence ``first + k``, as the whole file would (default 0).

    Examples
    --------
    >>> enc = EncodedTags.from_lists([["B-PER", "I-PER", "O"], ["O"]])
    >>> enc.ids.tolist(), enc.offsets.tolist(), enc.vocab
    ([0, 1, 2, 2], [0, 3, 4], ('B-PER', 'I-PER', 'O'))
    >>> enc.n_sequences, len(enc)
    (2, 4)
    """

    ids: IntArray
    offsets: IntArray
    vocab: tuple[str, ...]
    source: str | None = None
    lines: IntArray | None = None
    tokens: Sequence[str] | None = None
    first: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", np.ascontiguousarray(self.ids, dtype=np.int64))
        object.__setattr__(self, "offsets", np.ascontiguousarray(self.offsets, dtype=np.int64))
        object.__setattr__(self, "vocab", tuple(self.vocab))
        n = len(self.ids)
        if len(self.offsets) == 0 or self.offsets[0] != 0 or self.offsets[-1] != n:
            raise ValueError(
                "Expected `offsets` to start at 0 and end at len(ids); "
                f"got {self.offsets[:1].tolist()}..{self.offsets[-1:].tolist()} for {n} ids."
            )
        if n and (self.ids.min() < 0 or self.ids.max() >= len(self.vocab)):
            raise ValueError(
                f"Expected `ids` in [0, {len(self.vocab)}) to index `vocab`; "
                f"got values from {int(self.ids.min())} to {int(self.ids.max())}."
            )

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def n_sequences(self) -> int:
        """Number of sequences."""
        return len(self.offsets) - 1

    @property
    def lengths(self) -> IntArray:
        """Length of every sequence."""
        return np.diff(self.offsets)

    @classmethod
    def from_lists(
        cls, sequences: Sequence[Sequence[str]], *, vocab: Sequence[str] | None = None
    ) -> EncodedTags:
        """Encode a list of tag sequences (one pass; ``vocab`` fixes the id order).

        Tags get ids in order of first appearance, after those of ``vocab``.
        """
        n_seq = len(sequences)
        lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=n_seq)
        offsets = np.zeros(n_seq + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        ids, tags = _encode_flat(sequences, offsets, vocab)
        return cls(ids, offsets, tags)

    @classmethod
    def from_padded(
        cls,
        ids: npt.ArrayLike,
        *,
        vocab: Sequence[str],
        lengths: npt.ArrayLike | None = None,
        mask: npt.ArrayLike | None = None,
    ) -> EncodedTags:
        """Encode a padded ``(n_sequences, max_len)`` id matrix with lengths or a mask.

        Examples
        --------
        >>> enc = EncodedTags.from_padded([[0, 1, 2], [2, 0, 0]], vocab=["B-X", "I-X", "O"],
        ...                               lengths=[3, 1])
        >>> enc.ids.tolist(), enc.offsets.tolist()
        ([0, 1, 2, 2], [0, 3, 4])
        """
        arr = np.asarray(ids)
        if arr.ndim != 2:
            raise ValueError(f"Expected `ids` to be 2-dimensional; got shape {arr.shape}.")
        if (lengths is None) == (mask is None):
            raise ValueError("Pass exactly one of `lengths` and `mask`.")
        if mask is not None:
            m = np.asarray(mask, dtype=bool)
            if m.shape != arr.shape:
                raise ValueError(
                    f"Expected `mask` of shape {arr.shape}; got {m.shape}."
                )
        else:
            lens = np.asarray(lengths, dtype=np.int64)
            if lens.shape != (arr.shape[0],) or (lens < 0).any() or (lens > arr.shape[1]).any():
                raise ValueError(
                    f"Expected `lengths` of shape ({arr.shape[0]},) with values in "
                    f"[0, {arr.shape[1]}]."
                )
            m = np.arange(arr.shape[1]) < lens[:, None]
        lens = m.sum(axis=1)
        offsets = np.zeros(arr.shape[0] + 1, dtype=np.int64)
        np.cumsum(lens, out=offsets[1:])
        return cls(arr[m], offsets, tuple(vocab))

    def to_lists(self) -> list[list[str]]:
        """The sequences as lists of tag strings."""
        vocab = np.asarray(self.vocab, dtype=object)
        flat = vocab[self.ids].tolist() if len(self.ids) else []
        o = self.offsets.tolist()
        return [flat[o[k] : o[k + 1]] for k in range(self.n_sequences)]

    def sentence_tokens(self) -> Slices | None:
        """The tokens of each sequence (tags read from a file carry them), else None.

        Examples
        --------
        >>> enc = EncodedTags(np.array([0, 1, 0]), np.array([0, 2, 3]), ("O", "B-X"),
        ...                   tokens=["a", "b", "c"])
        >>> list(enc.sentence_tokens())
        [['a', 'b'], ['c']]
        """
        return None if self.tokens is None else Slices(self.tokens, self.offsets)

    def starting_at(self, first: int) -> EncodedTags:
        """The same tags, their first sequence being sequence ``first`` of their file.

        Examples
        --------
        >>> enc = EncodedTags.from_lists([["O"], ["B-X", "I-X"]]).starting_at(10)
        >>> enc.locate(2), enc.describe(2)
        ((11, 1), 'token 1 of sentence 11')
        """
        if first == self.first:
            return self
        renumbered = copy.copy(self)  # the same arrays, checked already
        object.__setattr__(renumbered, "first", first)
        return renumbered

    def locate(self, position: int) -> tuple[int, int]:
        """(sequence in the file, token index) of a flat position (see ``first``)."""
        seq = int(np.searchsorted(self.offsets, position, side="right")) - 1
        return self.first + seq, int(position - self.offsets[seq])

    def describe(self, position: int) -> str:
        """Where a flat position is, for messages: token, sentence, file and line."""
        from nerscore.errors import describe_location

        seq, idx = self.locate(position)
        token = self.tokens[position] if self.tokens is not None else None
        line = int(self.lines[position]) if self.lines is not None else None
        return describe_location(sentence=seq, index=idx, token=token, source=self.source, line=line)


# ids are written as code points and read back as UTF-16 units: stay below the surrogates
_MAX_CHAR_IDS = 0xD800
# tokens looked up per block (small blocks stay in cache: a whole 1M-token corpus
# at once is twice as slow); a block with a new tag is looked up again
_BLOCK = 1 << 14


def _encode_flat(
    sequences: Sequence[Sequence[str]], offsets: IntArray, vocab: Sequence[str] | None
) -> tuple[IntArray, tuple[str, ...]]:
    """Ids of all tags (concatenated) and the vocabulary, in order of first appearance.

    Each tag is looked up once in a plain dict mapping it to a one-character
    string (C-level lookups through :func:`operator.itemgetter`); the
    characters are joined and read back as one integer array, so no Python
    integer is created per token. Sentences are taken in blocks of about
    ``_BLOCK`` tokens; a block holding a tag not seen before is looked up
    again once its new tags have been added in order of appearance.
    """
    n = int(offsets[-1])
    if vocab is not None and len(vocab) >= _MAX_CHAR_IDS:
        return _encode_flat_slow(sequences, n, vocab)
    index: dict[object, str] = {}
    for tag in vocab or ():
        if tag not in index:
            index[tag] = chr(len(index))
    n_seq = len(offsets) - 1
    cuts = np.searchsorted(offsets, np.arange(_BLOCK, n, _BLOCK), side="left").tolist()
    bounds = [0, *dict.fromkeys(c for c in cuts if 0 < c < n_seq), n_seq]
    off = offsets.tolist()
    seqs = iter(sequences)
    pieces: list[str] = []
    for lo, hi in pairwise(bounds):
        block = list(islice(seqs, hi - lo))
        m = off[hi] - off[lo]
        try:
            chars = _lookup(block, m, index)
        except KeyError:
            for tag in dict.fromkeys(chain.from_iterable(block)):
                if tag not in index:
                    if not isinstance(tag, str):
                        raise TypeError(
                            f"Expected tags to be strings; got {type(tag).__name__} {tag!r}."
                        ) from None
                    if len(index) >= _MAX_CHAR_IDS:
                        return _encode_flat_slow(sequences, n, vocab)
                    index[tag] = chr(len(index))
            chars = _lookup(block, m, index)
        pieces.append("".join(chars))
    text = "".join(pieces)
    if len(index) <= 256:
        raw = np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
    else:
        raw = np.frombuffer(text.encode("utf-16-le"), dtype="<u2")
    return raw.astype(np.int64), tuple(index)  # type: ignore[arg-type]


def encode_strings(
    values: Sequence[str], *, sort: bool = False
) -> tuple[IntArray, tuple[str, ...]]:
    """Integer ids of many strings drawn from a small vocabulary, and that vocabulary.

    The vocabulary is in order of first appearance, or sorted with ``sort``.
    Uses the same C-level lookups as :meth:`EncodedTags.from_lists`.

    Examples
    --------
    >>> ids, vocab = encode_strings(["PER", "LOC", "PER"], sort=True)
    >>> ids.tolist(), vocab
    ([1, 0, 1], ('LOC', 'PER'))
    """
    n = len(values)
    blocks = [values[i : i + _BLOCK] for i in range(0, n, _BLOCK)]
    offsets = np.array([0, *(min(i + _BLOCK, n) for i in range(0, n, _BLOCK))], dtype=np.int64)
    ids, vocab = _encode_flat(blocks, offsets, None)
    if sort and vocab:
        order = sorted(range(len(vocab)), key=vocab.__getitem__)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order), dtype=np.int64)
        return rank[ids], tuple(vocab[i] for i in order)
    return ids, vocab


def _lookup(block: list[Sequence[str]], m: int, index: dict[object, str]) -> tuple[str, ...]:
    """``index[tag]`` for the ``m`` tags of ``block``, in order."""
    if m > 1:
        return itemgetter(*chain.from_iterable(block))(index)  # type: ignore[no-any-return]
    return tuple(index[t] for t in chain.from_iterable(block))


def _encode_flat_slow(
    sequences: Sequence[Sequence[str]], n: int, vocab: Sequence[str] | None
) -> tuple[IntArray, tuple[str, ...]]:
    flat = list(chain.from_iterable(sequences))
    index: dict[str, int] = {t: i for i, t in enumerate(vocab)} if vocab is not None else {}
    for tag in dict.fromkeys(flat):
        if tag not in index:
            if not isinstance(tag, str):
                raise TypeError(
                    f"Expected tags to be strings; got {type(tag).__name__} {tag!r}."
                )
            index[tag] = len(index)
    ids = np.fromiter(map(index.__getitem__, flat), dtype=np.int64, count=n)
    return ids, tuple(index)


@dataclass(frozen=True)
class ParsedVocab:
    """Per-tag-id canonical class and label id, plus the label vocabulary.

    ``label[i]`` is ``-1`` for the outside tag; ``invalid`` lists tag ids that
    could not be parsed, with the reason.
    """

    cls: npt.NDArray[np.int8]
    label: IntArray
    labels: tuple[str, ...]
    invalid: dict[int, str]


def parse_vocab(vocab: Sequence[str], decoding: Decoding | None = None) -> ParsedVocab:
    """Parse every distinct tag into (canonical class, label) (``docs/schemes.md``).

    Prefix style splits at the first delimiter, suffix style at the last. A
    bare prefix letter is an untyped tag (label ``""``). With the IO scheme
    any non-outside tag is a label (``I-X`` is read as ``X``, a bare ``I`` is
    untyped). A prefix and a delimiter with nothing for the type (``B-``),
    and the empty tag, are invalid: they have no label, and reading them as
    the label ``""`` would silently score a blank label.

    Examples
    --------
    >>> pv = parse_vocab(["B-ARGM-LOC", "O", "I", "U-PER", "B-"])
    >>> pv.cls.tolist()[:4], [pv.labels[i] if i >= 0 else None for i in pv.label.tolist()[:4]]
    ([1, 0, 2, 4], ['ARGM-LOC', None, '', 'PER'])
    >>> pv.invalid
    {4: "its type is empty: nothing follows the prefix 'B' and the delimiter '-'; write B-TYPE (or the bare prefix 'B' for an untyped entity)"}
    """
    decoding = Decoding() if decoding is None else decoding
    scheme = decoding.table
    suffix, delimiter, outside = decoding.suffix, decoding.delimiter, decoding.outside
    letters = scheme.letters if scheme is not None else sc.DEFAULT_LETTERS
    is_io = scheme is not None and scheme.scheme is Scheme.IO
    n = len(vocab)
    cls = np.zeros(n, dtype=np.int8)
    label = np.full(n, -1, dtype=np.int64)
    label_index: dict[str, int] = {}
    invalid: dict[int, str] = {}
    for i, tag in enumerate(vocab):
        if tag == outside:
            continue
        if suffix:
            head, sep, tail = tag.rpartition(delimiter)
            letter, typ = tail, head
        else:
            head, sep, tail = tag.partition(delimiter)
            letter, typ = head, tail
        if not sep:
            letter, typ = tag, ""
        if is_io and letter != "I":  # any other non-outside tag is a bare label
            letter, typ = "I", tag
        code = letters.get(letter)
        if code is None:
            invalid[i] = _invalid_reason(tag, letter, sep != "", letters, scheme, suffix, delimiter)
            continue
        if not typ and tag != letter:  # "B-", "-B" (suffix style), "" or "I-" in IO
            invalid[i] = _empty_type_reason(tag, letter, suffix, delimiter, outside)
            continue
        cls[i] = code
        label[i] = label_index.setdefault(typ, len(label_index))
    return ParsedVocab(cls, label, tuple(label_index), invalid)


def _invalid_reason(
    tag: str,
    letter: str,
    has_sep: bool,
    letters: object,
    scheme: SchemeTable | None,
    suffix: bool,
    delimiter: str,
) -> str:
    allowed = ", ".join(sorted(letters))  # type: ignore[call-overload]
    if scheme is not None and letter in sc.DEFAULT_LETTERS:
        return (
            f"prefix {letter!r} is not used by the {scheme.scheme.value} scheme "
            f"(its prefixes: {allowed}); pass the scheme the data is written in"
        )
    style = f"TYPE{delimiter}PREFIX" if suffix else f"PREFIX{delimiter}TYPE"
    hint = "" if has_sep else "; for bare labels without prefixes pass scheme='IO'"
    return f"expected the outside tag or {style} with a prefix in {allowed}{hint}"


def _empty_type_reason(tag: str, letter: str, suffix: bool, delimiter: str, outside: str) -> str:
    if not tag:
        return (f"an empty tag has no label; write the outside tag {outside!r} for a token "
                "outside every entity")
    if suffix:
        return (f"its type is empty: nothing precedes the delimiter {delimiter!r} and the prefix "
                f"{letter!r}; write TYPE{delimiter}{letter} (or the bare prefix {letter!r} for an "
                "untyped entity)")
    return (f"its type is empty: nothing follows the prefix {letter!r} and the delimiter "
            f"{delimiter!r}; write {letter}{delimiter}TYPE (or the bare prefix {letter!r} for an "
            "untyped entity)")


def _own_line(enc: EncodedTags, pos: int) -> bool:
    """Whether token ``pos`` was read from a line of its own (a CoNLL file), its token first.

    Tokens of JSON Lines token records share their record's line (and their
    file is named ``.jsonl``, ``.json`` or ``.ndjson``): a comment hint
    would not fit them.
    """
    if enc.lines is None or enc.tokens is None:
        return False
    if (enc.source or "").lower().endswith((".jsonl", ".json", ".ndjson")):
        return False
    line = enc.lines[pos]
    return not any(0 <= k < len(enc.lines) and enc.lines[k] == line for k in (pos - 1, pos + 1))


def check_vocab(parsed: ParsedVocab, enc: EncodedTags, *, what: str = "tag") -> None:
    """Raise :class:`InvalidTagError` at the first token whose tag could not be parsed."""
    if not parsed.invalid:
        return
    bad = np.zeros(len(enc.vocab), dtype=bool)
    bad[list(parsed.invalid)] = True
    used = np.flatnonzero(bad[enc.ids])
    if len(used) == 0:  # the bad tag belongs to the other side of a shared vocabulary
        return
    pos = int(used[0])
    tag_id = int(enc.ids[pos])
    tag = enc.vocab[tag_id]
    seq, idx = enc.locate(pos)
    line = int(enc.lines[pos]) if enc.lines is not None else None
    reason = parsed.invalid[tag_id]
    if _own_line(enc, pos) and str(enc.tokens[pos]).startswith("#"):  # type: ignore[index]
        reason += ("; the line starts with '#': if it is a comment, pass comments=True to skip "
                   "comment lines")
    raise InvalidTagError(
        f"Invalid {what} {quoted(tag)} at {enc.describe(pos)}: {reason}.",
        tag=tag, sentence=seq, index=idx, source=enc.source, line=line,
    )
