"""What :func:`~nerscore.io.conll.read_conll` returns: a corpus of sentences over the file's bytes.

:class:`ConllCorpus` holds the label column as :class:`~nerscore.EncodedTags`
and the byte ranges of the token and label fields (:class:`ConllText`), so
token strings are decoded only when looked at (:class:`FieldView`) and the
label column can be rewritten in place (:meth:`ConllCorpus.replace_labels`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidTagError, LengthMismatchError, quoted
from nerscore.io._bytes import word_view, words_at
from nerscore.io._conll_fields import FIELD_RULE, first_bad_field
from nerscore.io._intern import intern_tokens
from nerscore.values.tags import EncodedTags

__all__ = [
    "ConllCorpus",
    "ConllText",
    "FieldView",
    "Sentence",
    "check_shape",
    "reader_notes",
]

IntArray = npt.NDArray[np.int64]
#: Byte positions in a file (int32 below 2 GiB, else int64).
PosArray = npt.NDArray[np.signedinteger[Any]]


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a CoNLL file: its tokens and labels, with provenance.

    Parameters
    ----------
    tokens : tuple of str
        The token column.
    labels : tuple of str
        The label column, one label per token.
    lines : tuple of int
        1-based file line of every token (not compared).
    index : int
        Position of the sentence in its file, from 0 (not compared).
    document : int or None
        Index of the ``-DOCSTART-`` document the sentence belongs to, or None
        before the first ``-DOCSTART-`` line (not compared).
    source : str or None
        The file (not compared).

    Examples
    --------
    >>> s = Sentence(("Jonas", "left"), ("B-PER", "O"), lines=(3, 4))
    >>> s == Sentence(("Jonas", "left"), ("B-PER", "O"))
    True
    >>> len(s)
    2
    """

    tokens: tuple[str, ...]
    labels: tuple[str, ...]
    lines: tuple[int, ...] = field(default=(), compare=False)
    index: int = field(default=0, compare=False)
    document: int | None = field(default=None, compare=False)
    source: str | None = field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.tokens)


#: Tokens interned at a time by :meth:`FieldView.interned`.
_INTERN_BLOCK = 1 << 19


class FieldView(Sequence[str]):
    """Strings of one column, decoded from the file's bytes only when read."""

    __slots__ = ("_all", "_data", "_ends", "_lock", "_starts")

    def __init__(self, data: bytes, starts: PosArray, ends: PosArray) -> None:
        self._data = data
        self._starts = starts
        self._ends = ends
        self._all: tuple[IntArray, tuple[str, ...]] | None = None
        self._lock = threading.Lock()

    def __getstate__(self) -> tuple[bytes, PosArray, PosArray]:
        return self._data, self._starts, self._ends

    def __setstate__(self, state: tuple[bytes, PosArray, PosArray]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            data = self._data
            return [
                data[s:e].decode("utf-8")
                for s, e in zip(self._starts[index].tolist(), self._ends[index].tolist(),
                                strict=True)
            ]
        i = int(index)
        return self._data[int(self._starts[i]) : int(self._ends[i])].decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return iter(self[:])

    def joined_lines(self, first: IntArray, stop: IntArray) -> tuple[bytes, IntArray]:
        r"""The tokens ``first[k]:stop[k]`` of each range ``k``, joined by spaces, one a line, as bytes.

        One gather over the file's bytes for all ranges, no string made per
        range or per token; an empty range is an empty line.

        Parameters
        ----------
        first, stop : array of int
            The tokens of each range (``stop[k] >= first[k]``).

        Returns
        -------
        out : bytes
            The line of each range in turn, each ended by a newline.
        at : array of int
            Where the line of range ``k`` starts in ``out``, then ``len(out)``.

        Examples
        --------
        >>> v = FieldView(b"Ann B\nLee I\nleft O\n", np.array([0, 6, 12]), np.array([3, 9, 16]))
        >>> out, at = v.joined_lines(np.array([0, 2, 1, 1]), np.array([2, 3, 1, 2]))
        >>> out, at.tolist()
        (b'Ann Lee\nleft\n\nLee\n', [0, 8, 13, 14, 18])
        """
        first = np.asarray(first, dtype=np.int64)
        counts = np.asarray(stop, dtype=np.int64) - first
        if not len(counts):
            return b"", np.zeros(1, dtype=np.int64)
        empty = counts == 0
        some_empty = bool(empty.any())
        if some_empty:  # an empty range: one token of no bytes
            first, counts = np.where(empty, -1, first), np.where(empty, 1, counts)
        before = np.cumsum(counts) - counts
        tok = np.arange(int(counts.sum()), dtype=np.int64) + np.repeat(first - before, counts)
        if some_empty:
            real = np.flatnonzero(tok >= 0)
            t_start = np.zeros(len(tok), dtype=np.int64)
            t_len = t_start.copy()
            t_start[real] = self._starts[tok[real]]
            t_len[real] = self._ends[tok[real]] - t_start[real]
        else:
            t_start = self._starts[tok].astype(np.int64)
            t_len = self._ends[tok].astype(np.int64) - t_start
        width = t_len + 1  # each token, then a space (a newline after a range's last)
        at = np.cumsum(width) - width
        src = np.arange(int(at[-1] + width[-1]), dtype=np.int64) + np.repeat(t_start - at, width)
        sep = at + t_len
        src[sep] = 0  # the separators read some byte, then are overwritten
        data = self._data
        out = np.frombuffer(data, dtype=np.uint8)[src] if len(data) else np.zeros(len(src),
                                                                                   dtype=np.uint8)
        out[sep] = ord(" ")
        last = before + counts - 1
        out[sep[last]] = ord("\n")  # a token holds no newline
        return out.tobytes(), np.append(at[before], len(out))

    def join_ranges(self, first: IntArray, stop: IntArray) -> list[str]:
        r"""The tokens ``first[k]:stop[k]`` of each range ``k``, joined by single spaces.

        The lines of :meth:`joined_lines`, decoded at once.

        Examples
        --------
        >>> v = FieldView(b"Ann B\nLee I\nleft O\n", np.array([0, 6, 12]), np.array([3, 9, 16]))
        >>> v.join_ranges(np.array([0, 2, 1]), np.array([2, 3, 1]))
        ['Ann Lee', 'left', '']
        """
        out, at = self.joined_lines(first, stop)
        return out[:-1].decode("utf-8").split("\n") if len(at) > 1 else []

    def intern_ranges(self, first: IntArray, stop: IntArray) -> tuple[IntArray, tuple[str, ...]]:
        """Ids of the tokens ``first[k]:stop[k]`` of every range (concatenated) and the strings.

        Ids number the distinct strings in order of first appearance; the
        bytes are hashed, not decoded token by token.

        Examples
        --------
        >>> v = FieldView(b"a b a c", np.array([0, 2, 4, 6]), np.array([1, 3, 5, 7]))
        >>> ids, vocab = v.intern_ranges(np.array([2, 0]), np.array([4, 2]))
        >>> ids.tolist(), vocab
        ([0, 1, 0, 2], ('a', 'c', 'b'))
        """
        first = np.asarray(first, dtype=np.int64)
        counts = np.asarray(stop, dtype=np.int64) - first
        tok = np.arange(int(counts.sum()), dtype=np.int64) + np.repeat(
            first - (np.cumsum(counts) - counts), counts)
        if self._all is None and not self._lock.locked():
            return intern_tokens(np.frombuffer(self._data, dtype=np.uint8),
                                 self._starts[tok].astype(np.int64),
                                 self._ends[tok].astype(np.int64))
        # every token interned already (or being interned): renumber the ranges' ids
        ids, vocab = self.interned()
        ids = ids[tok]
        seen = np.full(len(vocab), len(ids), dtype=np.int64)
        np.minimum.at(seen, ids, np.arange(len(ids), dtype=np.int64))  # first occurrences
        used = np.flatnonzero(seen < len(ids))
        used = used[np.argsort(seen[used])]
        new = np.empty(len(vocab), dtype=np.int64)
        new[used] = np.arange(len(used), dtype=np.int64)
        return new[ids], tuple(vocab[i] for i in used.tolist())

    def interned(self) -> tuple[IntArray, tuple[str, ...]]:
        """:meth:`intern_ranges` of every token, computed once (by whichever thread asks first).

        Once it is computed, or while another thread computes it,
        :meth:`intern_ranges` renumbers its ids instead of hashing the
        ranges' bytes again (the report computes it in a thread of its own
        while it scores).

        Examples
        --------
        >>> v = FieldView(b"a b a c", np.array([0, 2, 4, 6]), np.array([1, 3, 5, 7]))
        >>> ids, vocab = v.interned()
        >>> ids.tolist(), vocab
        ([0, 1, 0, 2], ('a', 'b', 'c'))
        >>> ids, vocab = v.intern_ranges(np.array([2, 0]), np.array([4, 2]))
        >>> ids.tolist(), vocab
        ([0, 1, 0, 2], ('a', 'c', 'b'))
        """
        with self._lock:
            if self._all is None:
                self._all = self._intern_all()
            return self._all

    def _intern_all(self) -> tuple[IntArray, tuple[str, ...]]:
        """Every token interned a block at a time (bounded temporaries), the blocks' ids joined."""
        b = np.frombuffer(self._data, dtype=np.uint8)
        ids = np.empty(len(self), dtype=np.int64)
        index: dict[str, int] = {}
        for a in range(0, len(self), _INTERN_BLOCK):
            z = min(a + _INTERN_BLOCK, len(self))
            local, words = intern_tokens(b, self._starts[a:z].astype(np.int64),
                                         self._ends[a:z].astype(np.int64))
            # a block's words in order of first occurrence: new ones numbered in that order
            joined = np.fromiter((index.setdefault(w, len(index)) for w in words),
                                 dtype=np.int64, count=len(words))
            ids[a:z] = joined[local]
        return ids, tuple(index)

    def __repr__(self) -> str:
        head = self[:5]
        more = ", ..." if len(self) > 5 else ""
        return f"<{len(self)} tokens: {', '.join(map(repr, head))}{more}>"


@dataclass(frozen=True, eq=False)
class ConllText:
    r"""The file as UTF-8 bytes and the byte ranges of the token and label fields.

    ``token_head``, where the reader computed it (:meth:`with_heads`), holds
    the first 8 bytes of each token as one little-endian word, zero past the
    token's end: what comparing two files' tokens reads first (see
    :class:`~nerscore.io._conll_align.TokenDiff`; :meth:`heads` computes the
    words where the reader did not).

    Examples
    --------
    >>> text = ConllText(b"Ann B\nvon O\n", np.array([0, 6]), np.array([3, 9]),
    ...                  np.array([4, 10]), np.array([5, 11])).with_heads()
    >>> [int(w).to_bytes(8, "little") for w in text.token_head]
    [b'Ann\x00\x00\x00\x00\x00', b'von\x00\x00\x00\x00\x00']
    >>> text.part(1, 2).token_head.tolist() == text.token_head[1:].tolist()
    True
    >>> text.part(0, 1).heads().tolist() == text.heads()[:1].tolist()
    True
    """

    data: bytes
    token_start: PosArray
    token_end: PosArray
    label_start: PosArray
    label_end: PosArray
    token_head: npt.NDArray[np.uint64] | None = None

    def heads(self) -> npt.NDArray[np.uint64]:
        """:attr:`token_head`, computed here when the reader did not."""
        if self.token_head is not None:
            return self.token_head
        b = np.frombuffer(self.data, dtype=np.uint8)
        start = self.token_start
        return words_at(b, word_view(b), start, self.token_end - start)

    def with_heads(self) -> ConllText:
        """The same text with :attr:`token_head` computed."""
        return replace(self, token_head=self.heads())

    def part(self, start: int, stop: int) -> ConllText:
        """Tokens ``start`` to ``stop`` (exclusive), over the same bytes."""
        cut = slice(start, stop)
        return ConllText(self.data, self.token_start[cut], self.token_end[cut],
                         self.label_start[cut], self.label_end[cut],
                         None if self.token_head is None else self.token_head[cut])


@dataclass(frozen=True, eq=False)
class ConllCorpus:
    r"""A CoNLL file read by :func:`~nerscore.io.conll.read_conll`.

    Attributes
    ----------
    tags : EncodedTags
        The label column, with ``source``, ``lines`` and ``tokens`` filled:
        pass it to any scorer (``nerscore.evaluate(gold.tags, pred.tags)``) and
        errors name the file and line.
    column_delimiter : {"tab", "space"}
        How the columns were split (as detected or given).
    documents : array of int
        For every ``-DOCSTART-`` line, the index of the first sentence after it.
    n_comments : int
        Number of comment lines skipped (``comments=True``).
    bom : bool
        Whether the file's text began with a byte-order mark (U+FEFF), which
        the reader skips and :meth:`replace_labels` writes back (a streamed
        file's first chunk: :class:`~nerscore.io.conll.ConllChunks`).

    Examples
    --------
    >>> import io
    >>> from nerscore.io.conll import read_conll
    >>> corpus = read_conll(io.StringIO("Jonas NNP B-PER\nleft VBD O\n\nHi UH O\n"))
    >>> len(corpus), corpus.n_tokens, corpus.to_lists()
    (2, 3, [['B-PER', 'O'], ['O']])
    >>> s = corpus[0]
    >>> s.tokens, s.labels, s.lines
    (('Jonas', 'left'), ('B-PER', 'O'), (1, 2))
    """

    tags: EncodedTags
    column_delimiter: str
    documents: IntArray
    n_comments: int = 0
    _text: ConllText | None = field(default=None, repr=False)
    bom: bool = False

    @property
    def source(self) -> str | None:
        """The file name (None for file objects without one)."""
        return self.tags.source

    @property
    def tokens(self) -> Sequence[str]:
        """Token strings of all sentences, concatenated (decoded on access)."""
        assert self.tags.tokens is not None
        return self.tags.tokens

    @property
    def lines(self) -> IntArray:
        """1-based file line of every token."""
        assert self.tags.lines is not None
        return self.tags.lines

    @property
    def n_sentences(self) -> int:
        """Number of sentences."""
        return self.tags.n_sequences

    @property
    def n_tokens(self) -> int:
        """Number of tokens."""
        return len(self.tags)

    def __len__(self) -> int:
        return self.tags.n_sequences

    def __getitem__(self, index: int) -> Sentence:
        n = len(self)
        k = int(index) + n if index < 0 else int(index)
        if not 0 <= k < n:
            raise IndexError(f"Sentence index {index} out of range for {n} sentences.")
        o0, o1 = int(self.tags.offsets[k]), int(self.tags.offsets[k + 1])
        vocab = self.tags.vocab
        return Sentence(
            tuple(self.tokens[o0:o1]),
            tuple(vocab[i] for i in self.tags.ids[o0:o1].tolist()),
            tuple(self.lines[o0:o1].tolist()),
            k,
            self._document_of(k),
            self.source,
        )

    def __iter__(self) -> Iterator[Sentence]:
        return map(self.__getitem__, range(len(self)))

    def _document_of(self, sentence: int) -> int | None:
        d = int(np.searchsorted(self.documents, sentence, side="right")) - 1
        return d if d >= 0 else None

    def to_lists(self) -> list[list[str]]:
        """The label column as one list of labels per sentence."""
        return self.tags.to_lists()

    def notes(self) -> tuple[str, ...]:
        r"""What the reader counted and did not turn into tokens, for reports.

        Examples
        --------
        >>> import io
        >>> from nerscore.io.conll import read_conll
        >>> text = "-DOCSTART- O\n\n# id 1\nHi O\n"
        >>> read_conll(io.StringIO(text), comments=True).notes()
        ('1 -DOCSTART- line read as document boundary', '1 comment line skipped')
        """
        return reader_notes(self.source, len(self.documents), self.n_comments)

    def slice(self, start: int, stop: int) -> ConllCorpus:
        r"""Sentences ``start`` to ``stop`` (exclusive) as a corpus over the same bytes.

        ``documents`` keeps the ``-DOCSTART-`` lines before sentences of the
        slice, renumbered from its first sentence; lines, token strings and
        the sentences' numbers in the file (``tags.first``) are kept, and
        :attr:`bom` by a slice from the first sentence.

        Examples
        --------
        >>> import io
        >>> from nerscore.io.conll import read_conll
        >>> corpus = read_conll(io.StringIO("a O\n\n-DOCSTART- O\n\nb B-X\nc I-X\n"))
        >>> part = corpus.slice(1, 2)
        >>> part.to_lists(), list(part.tokens), part.lines.tolist(), part.documents.tolist()
        ([['B-X', 'I-X']], ['b', 'c'], [5, 6], [0])
        """
        n = len(self)
        if not 0 <= start <= stop <= n:
            raise IndexError(f"Sentences {start}:{stop} out of range for {n} sentences.")
        tags = self.tags
        o0, o1 = int(tags.offsets[start]), int(tags.offsets[stop])
        docs = self.documents
        last = stop == n  # -DOCSTART- lines after the last sentence stay with it
        keep = (docs >= start) & ((docs < stop) | last)
        text = self._text
        tokens: Sequence[str] | None = None
        if text is not None:
            text = text.part(o0, o1)
            tokens = FieldView(text.data, text.token_start, text.token_end)
        elif tags.tokens is not None:
            tokens = tags.tokens[o0:o1]
        sliced = EncodedTags(tags.ids[o0:o1], tags.offsets[start : stop + 1] - o0, tags.vocab,
                             tags.source, None if tags.lines is None else tags.lines[o0:o1],
                             tokens, tags.first + start)
        return ConllCorpus(sliced, self.column_delimiter, docs[keep] - start,
                           self.n_comments if start == 0 else 0, text, self.bom and start == 0)

    def replace_labels(self, labels: Sequence[Sequence[str]] | EncodedTags) -> tuple[str, int]:
        r"""The file's text with the label column rewritten, everything else untouched.

        Parameters
        ----------
        labels : list of list of str, or EncodedTags
            New labels, shaped like the corpus (one list per sentence).

        Returns
        -------
        text : str
            The file's text (other columns, comments, ``-DOCSTART-`` lines,
            blank lines, line endings and a byte-order mark (:attr:`bom`)
            kept): written in the encoding the file was read in, it is the
            file with the new labels.
        n_changed : int
            Number of labels that changed.

        Raises
        ------
        LengthMismatchError
            If ``labels`` is not shaped like the corpus.
        InvalidTagError
            If a new label of a token is empty or holds white space or a
            control character (tabs or line breaks where tabs separate the
            columns), naming the token, its sentence, the file and the line.

        Examples
        --------
        >>> import io
        >>> from nerscore.io.conll import read_conll
        >>> corpus = read_conll(io.StringIO("Jonas NNP I-PER\nleft VBD O\n"))
        >>> corpus.replace_labels([["B-PER", "O"]])
        ('Jonas NNP B-PER\nleft VBD O\n', 1)
        >>> marked = read_conll(io.BytesIO(b"\xef\xbb\xbfJonas I-PER\n"))
        >>> marked.bom, marked.replace_labels([["B-PER"]])
        (True, ('\ufeffJonas B-PER\n', 1))
        """
        text = self._text
        if text is None:
            raise ValueError("This corpus has no file text to rewrite.")
        new = labels if isinstance(labels, EncodedTags) else EncodedTags.from_lists(labels)
        check_shape(self.tags, new, "the corpus", "the new labels")
        new_vocab = np.asarray(new.vocab, dtype=object)
        old_vocab = np.asarray(self.tags.vocab, dtype=object)
        new_flat = new_vocab[new.ids]
        old_flat = old_vocab[self.tags.ids]
        changed = np.flatnonzero(new_flat != old_flat)
        self._check_labels(new)
        data = text.data
        pieces: list[bytes] = [b"\xef\xbb\xbf"] if self.bom else []
        prev = 0
        starts, ends = text.label_start, text.label_end
        for pos in changed.tolist():
            pieces.append(data[prev : int(starts[pos])])
            pieces.append(str(new_flat[pos]).encode("utf-8"))
            prev = int(ends[pos])
        pieces.append(data[prev:])
        return b"".join(pieces).decode("utf-8"), len(changed)

    def _check_labels(self, new: EncodedTags) -> None:
        r"""Raise at the first token whose new label cannot be a column of its line.

        Examples
        --------
        >>> import io
        >>> from nerscore.io.conll import read_conll
        >>> corpus = read_conll(io.StringIO("a O\nb O\n"))
        >>> corpus._check_labels(EncodedTags.from_lists([["O", "B X"]]))
        Traceback (most recent call last):
        ...
        nerscore.errors.InvalidTagError: Cannot write the label 'B X' of token 1 ('b') of sentence 0 (line 2) to a CoNLL line: its fields, separated by spaces, must be non-empty and free of white space and control characters. Give the token another label.
        """
        delimiter = self.column_delimiter
        bad = [i for i, tag in enumerate(new.vocab)
               if first_bad_field([tag], delimiter) is not None]
        if not bad:
            return
        hits = np.flatnonzero(np.isin(new.ids, bad))
        if not hits.size:  # a label of the vocabulary that no token has is not written
            return
        pos = int(hits[0])
        seq, index = self.tags.locate(pos)
        label = new.vocab[int(new.ids[pos])]
        line = None if self.tags.lines is None else int(self.tags.lines[pos])
        raise InvalidTagError(
            f"Cannot write the label {quoted(label)} of {self.tags.describe(pos)} to a CoNLL "
            f"line: its fields, separated by {delimiter}s, must be {FIELD_RULE[delimiter]}. "
            "Give the token another label.", tag=label, sentence=seq, index=index, source=self.source,
            line=line)


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


def reader_notes(source: str | None, n_documents: int, n_comments: int) -> tuple[str, ...]:
    """The notes of :meth:`ConllCorpus.notes` for a file with these counts.

    Examples
    --------
    >>> reader_notes("g.conll", 2, 0)
    ('g.conll: 2 -DOCSTART- lines read as document boundaries',)
    """
    where = f"{source}: " if source else ""
    out = []
    if n_documents:
        s = "s" if n_documents != 1 else ""
        out.append(f"{where}{n_documents} -DOCSTART- line{s} read as document boundar"
                   f"{'ies' if n_documents != 1 else 'y'}")
    if n_comments:
        s = "s" if n_comments != 1 else ""
        out.append(f"{where}{n_comments} comment line{s} skipped")
    return tuple(out)
