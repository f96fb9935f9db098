"""Checks that a gold and a prediction CoNLL file list the same sentences and tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from nerscore.errors import FormatError, LengthMismatchError, quoted
from nerscore.io._bytes import low_bytes, raw_words_at, word_view
from nerscore.io._conll_corpus import ConllCorpus
from nerscore.io._conll_text import ConllText
from nerscore.values.tags import EncodedTags

__all__ = ["ONE_TAG_PER_TOKEN", "TokenDiff", "check_aligned"]

IntArray = npt.NDArray[np.int64]

#: Below this many long tokens left, :func:`_differing_fields` compares their bytes directly.
_FEW = 32

#: How CoNLL files separate their sentences: said when two files hold different numbers of them.
LAYOUT = ", separated by blank lines"
#: What a gold and a prediction file need, said when a sentence's lengths differ.
ONE_TAG_PER_TOKEN = "every sentence needs one predicted tag per gold token"


def _sentence_lines(corpus: ConllCorpus, k: int) -> str:
    o0, o1 = int(corpus.tags.offsets[k]), int(corpus.tags.offsets[k + 1])
    first, last = int(corpus.lines[o0]), int(corpus.lines[o1 - 1])
    return f"line {first}" if first == last else f"lines {first}-{last}"


#: ``where(side, k)``: the lines of sentence ``k`` of one side (a chunk), for messages.
Where = Callable[[Any, int], str]


def _length_hint(gold: Any, pred: Any, g: EncodedTags, p: EncodedTags, gname: str, pname: str,
                 where: Where) -> str:
    """The sentence whose length first differs, said after a count error ("" where none does)."""
    first = g.first  # the number of the first sentence in the file
    lg, lp = g.lengths, p.lengths
    m = min(len(lg), len(lp))
    diff = np.flatnonzero(lg[:m] != lp[:m])
    if not len(diff):
        return ""
    k = int(diff[0])
    return (f" The first sentence whose length differs is sentence {first + k}: "
            f"{int(lg[k])} tokens in {gname} ({where(gold, k)}) vs "
            f"{int(lp[k])} in {pname} ({where(pred, k)}).")


def _check_shape(gold: Any, pred: Any, g: EncodedTags, p: EncodedTags, gname: str, pname: str,
                 where: Where, layout: str) -> None:
    """Raise unless both hold as many sentences of the same lengths (named as in the file)."""
    first = g.first
    if g.n_sequences != p.n_sequences:
        raise LengthMismatchError.of_counts(
            gname, g.n_sequences, pname, p.n_sequences, layout=layout,
            hint=_length_hint(gold, pred, g, p, gname, pname, where))
    if not np.array_equal(g.offsets, p.offsets):
        lg, lp = g.lengths, p.lengths
        k = int(np.flatnonzero(lg != lp)[0])
        raise LengthMismatchError(
            f"Sentence {first + k} has {int(lg[k])} tokens in {gname} "
            f"({where(gold, k)}) but {int(lp[k])} in {pname} ({where(pred, k)}); {ONE_TAG_PER_TOKEN}.",
            expected=int(lg[k]), actual=int(lp[k]), sentence=first + k,
        )


def check_aligned(
    gold: ConllCorpus, pred: ConllCorpus, *, strict_tokens: bool = False
) -> tuple[str, ...]:
    r"""Check that a gold and a prediction file list the same sentences and tokens.

    Parameters
    ----------
    gold, pred : ConllCorpus
        The two files, as read by :func:`~nerscore.io.conll.read_conll`.
    strict_tokens : bool
        Make a differing token string an error instead of a note.

    Returns
    -------
    tuple of str
        Notes for the report: how many token strings differ and where the
        first one is (empty when all are equal).

    Raises
    ------
    LengthMismatchError
        When the number of sentences, or the length of a sentence, differs;
        the message names the sentence, both lengths and both files' lines.
    FormatError
        With ``strict_tokens=True``, at the first differing token.

    Examples
    --------
    >>> import io
    >>> from nerscore.io.conll import read_conll
    >>> g = read_conll(io.StringIO("Jonas B-PER\nleft O\n"))
    >>> p = read_conll(io.StringIO("jonas B-PER\nleft O\n"))
    >>> print(*check_aligned(g, p))  # doctest: +NORMALIZE_WHITESPACE
    1 of 2 tokens differ between gold and prediction; the first is token 0 of sentence 0:
    'Jonas' (gold, line 1) vs 'jonas' (prediction, line 1); tags are compared by position.
    """
    tokens = TokenDiff(gold.source, pred.source, strict_tokens=strict_tokens)
    tokens.add(gold, pred)
    return tokens.notes()


class TokenDiff:
    """Differing token strings of two aligned files, counted chunk by chunk.

    :func:`check_aligned` adds a whole file at once; a streaming reader adds
    chunks of the same sentences in order (their tags numbered as in the
    file, ``EncodedTags.first``) and reads :meth:`notes` at the end, which
    are then the notes of the whole files. It is the pair check of the CoNLL
    format (:mod:`nerscore.io.formats`). After :meth:`add` has raised, later
    chunks can still be added: :meth:`files_error` is then the error that
    :func:`check_aligned` raises on the whole files.

    Chunks are :class:`~nerscore.io.conll.ConllCorpus` objects; a format of
    other chunks (JSON Lines token records, :mod:`nerscore.io.jsonl_tags`)
    subclasses it, saying what a chunk's tags are (:meth:`tags_of`), where a
    sentence is (:meth:`where`) and which tokens differ (:meth:`differing`),
    and how its files separate their sentences (:attr:`layout`).

    Parameters
    ----------
    gold_source, pred_source : str or None
        The files, for messages.
    strict_tokens : bool
        Raise :class:`~nerscore.errors.FormatError` at the first differing
        token (its message counts the differences added so far; see
        :meth:`files_error`).

    Attributes
    ----------
    layout : str
        How the files separate their sentences (:data:`LAYOUT`), for the
        error of a streaming reader that finds different numbers of them.
    hint : str
        Once :meth:`add` has raised for a sentence whose lengths differ: the
        first such sentence, as the count error of the whole files says it
        where their numbers of sentences differ too ("" before).
    """

    layout = LAYOUT

    def __init__(self, gold_source: str | None, pred_source: str | None, *,
                 strict_tokens: bool = False) -> None:
        self.gname = gold_source or "gold"
        self.pname = pred_source or "prediction"
        self.strict_tokens = strict_tokens
        self.n_tokens = 0
        self.n_differ = 0
        self.n_sentences = 0
        self.first: str | None = None
        self.hint = ""
        self._length_error: LengthMismatchError | None = None
        self._token: tuple[int, int, str, int, str, int, str | None] | None = None

    def add(self, gold: Any, pred: Any) -> None:
        """Count the differing tokens of one chunk of the same sentences on both sides.

        Raises
        ------
        LengthMismatchError
            When the chunks hold different numbers of sentences, or a
            sentence has different lengths (named by its index in the file).
        FormatError
            With ``strict_tokens=True``, at the first differing token.
        """
        g, p = self.tags_of(gold), self.tags_of(pred)
        if g is None or p is None:  # no tags to compare (a format's span files)
            return
        try:
            _check_shape(gold, pred, g, p, self.gname, self.pname, self.where, self.layout)
        except LengthMismatchError as exc:
            if self._length_error is None:  # the first: the one the whole files' check names
                self.hint = _length_hint(gold, pred, g, p, self.gname, self.pname, self.where)
                self._length_error = exc
            raise
        self.n_tokens += len(g)
        self.n_sentences += g.n_sequences
        differ = self.differing(gold, pred)
        if differ is None or not len(differ):
            return
        self.n_differ += len(differ)
        if self.first is not None:
            return
        assert g.lines is not None
        assert p.lines is not None
        assert g.tokens is not None
        assert p.tokens is not None
        pos = int(differ[0])
        seq, idx = g.locate(pos)
        gl, pl = int(g.lines[pos]), int(p.lines[pos])
        gt, pt = g.tokens[pos], p.tokens[pos]
        gname, pname = self.gname, self.pname
        self.first = (f"token {idx} of sentence {seq}: {quoted(gt)} ({gname}, line {gl}) vs "
                      f"{quoted(pt)} ({pname}, line {pl})")
        if self.strict_tokens:
            self._token = (idx, seq, gt, gl, pt, pl, p.source)
            token_error = self.files_error()
            assert token_error is not None
            raise token_error

    # what a chunk of the format is: a subclass's format has chunks of its own

    def tags_of(self, side: Any) -> EncodedTags | None:
        """The tags of a chunk, with their lines and tokens (None: a chunk without tags)."""
        return cast(EncodedTags, side.tags)

    def where(self, side: Any, k: int) -> str:
        """The lines of sentence ``k`` of a chunk, for messages (``"lines 3-7"``)."""
        return _sentence_lines(side, k)

    def differing(self, gold: Any, pred: Any) -> IntArray | None:
        """Positions whose tokens differ between two chunks of the same shape (None: unknown)."""
        if gold._text is None or pred._text is None:
            return None
        return _differing_fields(gold._text, pred._text)

    def files_error(self) -> LengthMismatchError | FormatError | None:
        """The error of the whole files, once every chunk has been added (None: none).

        The first sentence whose lengths differ, else (``strict_tokens``) the
        first differing token, with the differing tokens of everything
        added counted: what :func:`check_aligned` raises on the whole files
        (where their numbers of sentences differ, it raises that instead,
        which a streaming reader finds only at their ends).
        """
        if self._length_error is not None:
            return self._length_error
        if self._token is None:
            return None
        idx, seq, gt, gl, pt, pl, source = self._token
        return FormatError(
            f"Token {idx} of sentence {seq} differs between the files: {quoted(gt)} "
            f"({self.gname}, line {gl}) vs {quoted(pt)} ({self.pname}, line {pl}); "
            f"{self.n_differ} of {self.n_tokens} tokens differ. Check that both files hold the "
            "same text, or allow differing tokens (strict_tokens=False, without "
            "--strict-tokens).",
            source=source, line=pl,
        )

    def notes(self) -> tuple[str, ...]:
        """How many tokens differ and where the first one is (empty when none does)."""
        if self.first is None:
            return ()
        return (
            f"{self.n_differ} of {self.n_tokens} tokens differ between {self.gname} and "
            f"{self.pname}; the first is {self.first}; tags are compared by position.",
        )


def _differing_fields(a: ConllText, b: ConllText) -> IntArray:
    """Positions whose token strings differ between two texts of the same shape.

    Tokens of equal length are compared 8 bytes at a time (one word gathered
    per token and side, the bytes past the token masked off): first every
    token, then the next 8 bytes of the tokens still equal and longer, and so
    on; the last few long tokens are compared as bytes. The first words are
    the texts' :meth:`~nerscore.io._conll_text.ConllText.heads`.
    """
    la = a.token_end - a.token_start
    differ = la != (b.token_end - b.token_start)
    ba = np.frombuffer(a.data, dtype=np.uint8)
    bb = np.frombuffer(b.data, dtype=np.uint8)
    ra, rb = word_view(ba), word_view(bb)
    differ |= a.heads() != b.heads()  # the first words, read by the readers where they could
    idx = np.flatnonzero(~differ & (la > 8))
    at = 8
    while len(idx) > _FEW:  # the tokens still equal that have bytes past ``at``
        rest = la[idx] - at
        bad = (raw_words_at(ba, ra, a.token_start[idx] + at)
               ^ raw_words_at(bb, rb, b.token_start[idx] + at))
        bad &= low_bytes(rest)
        same = bad == 0
        differ[idx[~same]] = True
        idx = idx[same & (rest > 8)]
        at += 8
    for i in idx.tolist():
        p, q, n = int(a.token_start[i]) + at, int(b.token_start[i]) + at, int(la[i]) - at
        if a.data[p : p + n] != b.data[q : q + n]:
            differ[i] = True
    return np.flatnonzero(differ)
