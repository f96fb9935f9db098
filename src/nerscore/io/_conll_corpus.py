"""What :func:`~nerscore.io.conll.read_conll` returns: a corpus of sentences over the file's bytes.

:class:`ConllCorpus` holds the label column as :class:`~nerscore.EncodedTags`
and the file's bytes with the byte ranges of the token and label fields
(:class:`~nerscore.io._conll_text.ConllText`), so token strings are decoded
only when looked at and the label column can be rewritten in place
(:meth:`ConllCorpus.replace_labels`). :class:`Sentence` is one sentence of it
(as :func:`~nerscore.io.conll.iter_conll` yields them too) and
:func:`reader_notes` what a reader counted and skipped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidTagError, quoted
from nerscore.io._conll_fields import FIELD_RULE, check_shape, first_bad_field
from nerscore.io._conll_text import ConllText, FieldView
from nerscore.values.tag_input import encode_lists
from nerscore.values.tags import EncodedTags

__all__ = [
    "ConllCorpus",
    "Sentence",
    "reader_notes",
]

IntArray = npt.NDArray[np.int64]


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
        new = labels if isinstance(labels, EncodedTags) else encode_lists(labels, "labels",
                                                                          one=False)
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
