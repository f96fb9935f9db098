r"""JSON Lines of token records: one sentence a line, its tokens and their tags.

The layout that Hugging Face ``datasets`` writes (``Dataset.to_json``) and
many repositories ship::

    {"id": "0", "tokens": ["Ann", "left"], "ner_tags": ["B-PER", "O"]}

The ``jsonl`` format (:mod:`nerscore.io.jsonl`) reads a file as such records
when its first record is one (:func:`jsonl_kind`): it holds a list under
``"tokens"`` and none of ``"spans"``, ``"entities"``, ``"text"``,
``"output"`` and ``"mentions"`` (so it is no span document, which needs
``"spans"``, nor a model output). The token key is the reader option
``tokens_column`` (default ``"tokens"``); the tag key is ``column``, else
the first of :data:`TAG_KEYS` that the first record has. Given either
option, the file is read as token records whatever it holds.

Every record of such a file must then be one, with the same keys: tokens
and tags are lists of strings of one length. Other keys (``"id"``,
``"pos_tags"``, ...) are not read: sentences pair with the other file's by
position, as CoNLL sentences do, and :class:`RecordTokenDiff` compares their
tokens (a note, or an error with ``strict_tokens``). Tags given as integers
(the class ids of a ``ClassLabel`` feature) are an error saying how to write
the names. Errors name the file, the line and, where it helps, the token.

A file read whole is decoded to its end first, then read record by record;
read chunk by chunk (:func:`iter_jsonl_tags`) it raises the same error: after
a failing record it decodes the rest of the file, whose undecodable bytes
come first.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from operator import ne
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import FormatError, option_error, quoted
from nerscore.io._conll_align import TokenDiff
from nerscore.io._json_text import json_kind, json_object_line
from nerscore.io._textfile import decoded_lines, read_text
from nerscore.io.chunks import slice_tags
from nerscore.values.tags import EncodedTags

__all__ = ["LAYOUT", "SPAN_KEYS", "TAG_KEYS", "TOKENS_KEY", "RecordTokenDiff", "TagRecords",
           "is_tag_record", "iter_jsonl_tags", "jsonl_kind", "read_jsonl_tags"]

IntArray = npt.NDArray[np.int64]

#: The keys a record's tags are looked for under, in this order, without ``column``.
TAG_KEYS = ("ner_tags", "tags", "labels", "ner")
#: The key of a record's tokens without ``tokens_column``.
TOKENS_KEY = "tokens"
#: Keys of span documents and model outputs: a record with one is no token record.
SPAN_KEYS = ("spans", "entities", "text", "output", "mentions")
#: How token-record files separate their sentences, said when two hold different numbers.
LAYOUT = ", one a line"

_STR = {str}


def _fail(source: str, line: int, message: str) -> FormatError:
    return FormatError(f"{source}, line {line}: {message}", source=source, line=line)


def _tag_key(obj: Mapping[str, Any], column: str | None) -> str | None:
    if column is not None:
        return column
    return next((k for k in TAG_KEYS if k in obj), None)


def is_tag_record(obj: Mapping[str, Any], *, tokens_column: str | None = None) -> bool:
    """Whether a parsed record is read as a token record: a list of tokens, and no spans.

    A record with none of :data:`SPAN_KEYS` is no span document (one has
    ``"spans"`` or ``"entities"``) nor a model output; with a list of
    tokens, it is a token record, whose tags the reader looks for.

    Examples
    --------
    >>> is_tag_record({"id": "0", "tokens": ["Ann"], "ner_tags": ["B-PER"]})
    True
    >>> is_tag_record({"text": "Ann", "tokens": ["Ann"], "ner_tags": ["B-PER"]})
    False
    >>> is_tag_record({"words": ["Ann"], "bio": ["B-PER"]}, tokens_column="words")
    True
    """
    return (isinstance(obj.get(tokens_column or TOKENS_KEY), list)
            and not any(k in obj for k in SPAN_KEYS))


def _first_record(path: str, encoding: str) -> Any:
    """The JSON value of the first non-blank line of ``path``; None where there is none or it cannot be read."""
    try:
        with open(path, encoding=encoding, errors="replace", newline="\n") as fh:
            for raw in fh:
                line = raw.lstrip("\ufeff")
                if line.strip():
                    return json.loads(line)
    except (OSError, ValueError, LookupError, RecursionError):  # the reader says why
        return None
    return None


def jsonl_kind(path: str | os.PathLike[str], *, encoding: str = "utf-8",
               column: str | None = None, tokens_column: str | None = None) -> str:
    r"""What a JSON Lines file holds, by its first record: ``"tags"`` (token records) or ``"spans"``.

    Only the first non-blank line is read. Given ``column`` or
    ``tokens_column``, the file is ``"tags"`` unread. A file whose first
    record cannot be read (no such file, bytes the encoding cannot decode,
    malformed JSON, none at all) or is no token record (:func:`is_tag_record`)
    is ``"spans"``; its reader says what is wrong with it. So is a path that
    is no regular file (a pipe, which one reading would use up).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "t.jsonl").write_text('\n{"tokens": ["Ann"], "tags": ["B-PER"]}\n')
    >>> _ = (tmp / "s.jsonl").write_text('{"id": "a", "spans": []}\n')
    >>> jsonl_kind(tmp / "t.jsonl"), jsonl_kind(tmp / "s.jsonl"), jsonl_kind(tmp / "none.jsonl")
    ('tags', 'spans', 'spans')
    """
    if column is not None or tokens_column is not None:
        return "tags"
    p = os.fspath(path)
    if not os.path.isfile(p):
        return "spans"
    record = _first_record(p, encoding)
    return "tags" if isinstance(record, dict) and is_tag_record(record) else "spans"


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, eq=False)
class TagRecords:
    """Token records read: their tags (with tokens and lines) and the line of each record.

    The chunks of :func:`iter_jsonl_tags` and the ``source`` of the whole
    file's :class:`~nerscore.io.formats.ReadResult`: a sentence's line is
    known even where it has no token.

    Attributes
    ----------
    tags : EncodedTags
        One sequence per record, with ``source``, ``lines`` (each token's
        record line), ``tokens`` and ``first`` (the number of the first
        record's sentence in the file).
    record_lines : array of int
        The 1-based line of every record.
    """

    tags: EncodedTags
    record_lines: IntArray

    def __len__(self) -> int:
        return self.tags.n_sequences

    def slice(self, start: int, stop: int) -> TagRecords:
        """Records ``start`` to ``stop`` (exclusive), numbered as in the file."""
        return TagRecords(slice_tags(self.tags, start, stop), self.record_lines[start:stop])


class _Reader:
    """Token records checked line by line and collected until taken as :class:`TagRecords`."""

    def __init__(self, source: str, column: str | None, tokens_column: str | None) -> None:
        for name, value in (("column", column), ("tokens_column", tokens_column)):
            if value is not None and not isinstance(value, str):
                raise option_error(name, "a str (a key of the records) or None", value)
        self.source = source
        self.key = column
        self.tokens_key = tokens_column or TOKENS_KEY
        self.explicit = column is not None or tokens_column is not None
        self.first_line = 0  # the line of the record that chose the keys
        self._clear()

    def _clear(self) -> None:
        self.tags: list[list[str]] = []
        self.tokens: list[str] = []
        self.lines: list[int] = []

    def __len__(self) -> int:
        return len(self.lines)

    def add(self, raw: str, n: int) -> None:
        """Read line ``n``: a record, or nothing for a blank line."""
        source = self.source
        obj = json_object_line(raw, source, n, expected=_RECORD)
        if obj is None:
            return
        if not self.first_line:
            self.first_line = n
            if self.key is None:
                self.key = _tag_key(obj, None)
        spans = next((k for k in SPAN_KEYS if k in obj), None)
        key, tokens_key = self.key, self.tokens_key
        if spans is not None or key is None:
            raise _fail(source, n, self._not_a_record(spans))
        if tokens_key not in obj:
            raise _fail(source, n, f"the record has no {tokens_key!r}; {self._every()}.")
        if key not in obj:
            raise _fail(source, n, f"the record has no {key!r}; {self._every()}.")
        tokens, tags = obj[tokens_key], obj[key]
        if not isinstance(tokens, list):
            raise _fail(source, n, f"expected {tokens_key!r} to be a list of strings (the "
                        f"sentence's tokens); got {json_kind(tokens)}.")
        if not isinstance(tags, list):
            raise _fail(source, n, f"expected {key!r} to be a list of tags, one per token; got "
                        f"{json_kind(tags)}.")
        if not set(map(type, tokens)) <= _STR:
            i, bad = next((i, t) for i, t in enumerate(tokens) if not isinstance(t, str))
            raise _fail(source, n, f"token {i} of {tokens_key!r} is {json_kind(bad)} "
                        f"{quoted(bad)}; expected a list of strings (the sentence's tokens).")
        if not set(map(type, tags)) <= _STR:
            raise _fail(source, n, _not_tags(tags, key))
        if len(tokens) != len(tags):
            raise _fail(source, n, f"{tokens_key!r} holds {len(tokens)} tokens but {key!r} "
                        f"{len(tags)} tags; a record needs one tag per token.")
        self.tags.append(tags)
        self.tokens += tokens
        self.lines.append(n)

    def _every(self) -> str:
        return (f"every record of a file of token records holds its tokens under "
                f"{self.tokens_key!r} and its tags under {self.key!r}, as the first one (line "
                f"{self.first_line}) does")

    def _not_a_record(self, spans: str | None) -> str:
        """Why a record is not a token record: it holds ``spans``, or no tag key is known."""
        if spans is None:
            keys = ", ".join(map(repr, TAG_KEYS[:-1])) + f" or {TAG_KEYS[-1]!r}"
            return (f"the record has no tags under {keys}: a record of tokens holds its tags "
                    "under one of them, or under the key named by the reader option column "
                    "(e.g. column='bio').")
        why = ("the reader option column or tokens_column reads a file of token records"
               if self.explicit else f"the first record (line {self.first_line}) is a token record")
        return (f"the record has {spans!r}, but {why}: every record must hold tokens and tags "
                "only (no 'spans', 'entities', 'text', 'output' or 'mentions'). Give a file of "
                "span documents or one of token records, not both in one.")

    def take(self, first: int) -> TagRecords:
        """The records added since the last call, their first sentence numbered ``first``."""
        enc = EncodedTags.from_lists(self.tags)
        record_lines = np.array(self.lines, dtype=np.int64)
        tags = EncodedTags(enc.ids, enc.offsets, enc.vocab, self.source,
                           np.repeat(record_lines, enc.lengths), self.tokens, first)
        self._clear()
        return TagRecords(tags, record_lines)


#: What each line holds, in the message of a JSON value that is no object.
_RECORD = "a JSON object with 'tokens' and their tags"


def _not_tags(tags: list[Any], key: str) -> str:
    """Why a list of tags holds something else than strings (class ids: how to name them)."""
    i, bad = next((i, t) for i, t in enumerate(tags) if not isinstance(t, str))
    if type(bad) is int:
        return (f"{key!r} holds class ids, not tags (token {i}: {bad}), as Dataset.to_json "
                "writes a ClassLabel column. Save the dataset with dataset.save_to_disk(DIR) "
                "and read DIR instead (the hf format names the ids: docs/formats/hf.md), or "
                f"write the tag names: dataset.features[{key!r}].feature.int2str of the ids, "
                "mapped with the column declared a list of strings (docs/formats.md).")
    return (f"token {i} of {key!r} is {json_kind(bad)} {quoted(bad)}; expected each tag to be a "
            "string.")


def read_jsonl_tags(path: str | os.PathLike[str], *, encoding: str = "utf-8",
                    column: str | None = None,
                    tokens_column: str | None = None) -> TagRecords:
    r"""Read a JSON Lines file of token records whole (see the module documentation).

    Parameters
    ----------
    path : str or path-like
        The file.
    encoding : str
        Its text encoding.
    column : str, optional
        The key of the tags (default: the first of :data:`TAG_KEYS` that
        the first record has).
    tokens_column : str, optional
        The key of the tokens (default ``"tokens"``).

    Returns
    -------
    TagRecords
        ``.tags``: one sequence per record, with tokens and lines.

    Raises
    ------
    FormatError
        For undecodable bytes, a malformed line, a record that is no token
        record, tokens and tags of different lengths, or a token or tag that
        is not a string (class ids: how to name them), naming file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "gold.jsonl"
    >>> _ = tmp.write_text('{"id": "0", "tokens": ["Ann", "left"], "ner_tags": ["B-PER", "O"]}\n'
    ...                    '{"id": "1", "tokens": ["Bo"], "ner_tags": ["B-PER"]}\n')
    >>> tags = read_jsonl_tags(tmp).tags
    >>> tags.to_lists(), list(tags.sentence_tokens()), tags.lines.tolist()
    ([['B-PER', 'O'], ['B-PER']], [['Ann', 'left'], ['Bo']], [1, 1, 2])
    """
    source = os.fspath(path)
    content = read_text(path, encoding=encoding)
    reader = _Reader(source, column, tokens_column)
    for n, raw in enumerate(content.split("\n"), 1):
        reader.add(raw, n)
    return reader.take(0)


def iter_jsonl_tags(path: str | os.PathLike[str], *, chunk_size: int = 10_000,
                    encoding: str = "utf-8", column: str | None = None,
                    tokens_column: str | None = None,
                    block_size: int = 1 << 20) -> Iterator[TagRecords]:
    r"""Read a JSON Lines file of token records in chunks of at most ``chunk_size`` records.

    Each chunk is what :func:`read_jsonl_tags` reads of those lines, its
    tags numbered as the file's sentences; an error is the one
    :func:`read_jsonl_tags` raises for the file, word for word (after a
    failing record the rest of the file is decoded, keeping nothing:
    undecodable bytes there come first).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "gold.jsonl"
    >>> _ = tmp.write_text("".join('{"tokens": ["a"], "tags": ["O"]}\n' for _ in range(3)))
    >>> [(len(c), c.tags.first) for c in iter_jsonl_tags(tmp, chunk_size=2)]
    [(2, 0), (1, 2)]
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"Expected `chunk_size` to be a positive integer; got {chunk_size!r}.")
    reader = _Reader(os.fspath(path), column, tokens_column)
    first = 0
    lines = enumerate(decoded_lines(path, encoding, block_size), 1)
    for n, raw in lines:
        try:
            reader.add(raw, n)
        except FormatError as exc:
            error = exc
            break
        if len(reader) == chunk_size:
            yield reader.take(first)
            first += chunk_size
    else:
        if len(reader):
            yield reader.take(first)
        return
    for _ in lines:  # decoded to the end: bytes it cannot decode are the file's first error
        pass
    raise error


# --------------------------------------------------------------------------- pair check


class RecordTokenDiff(TokenDiff):
    r"""The pair check of JSON Lines files: the token records of gold and prediction compared.

    As CoNLL files are compared (:class:`~nerscore.io.conll.TokenDiff`):
    the same number of sentences, of the same lengths, else an error naming
    the sentence and both lines; differing tokens counted in a note, or an
    error with ``strict_tokens``. Span documents (the format's other files)
    have nothing to compare.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "g.jsonl").write_text('{"tokens": ["Ann", "left"], "tags": ["B-PER", "O"]}\n')
    >>> _ = (tmp / "p.jsonl").write_text('{"tokens": ["ann", "left"], "tags": ["B-PER", "O"]}\n')
    >>> check = RecordTokenDiff("g", "p")
    >>> check.add(read_jsonl_tags(tmp / "g.jsonl"), read_jsonl_tags(tmp / "p.jsonl"))
    >>> print(*check.notes())  # doctest: +NORMALIZE_WHITESPACE
    1 of 2 tokens differ between g and p; the first is token 0 of sentence 0:
    'Ann' (g, line 1) vs 'ann' (p, line 1); tags are compared by position.
    """

    layout = LAYOUT

    def tags_of(self, side: Any) -> EncodedTags | None:
        """The tags of a chunk of token records (None for span documents)."""
        return side.tags if isinstance(side, TagRecords) else None

    def where(self, side: Any, k: int) -> str:
        """The line of record ``k`` of a chunk."""
        return f"line {int(side.record_lines[k])}"

    def differing(self, gold: Any, pred: Any) -> IntArray | None:
        """Positions whose tokens differ."""
        a, b = gold.tags.tokens, pred.tags.tokens
        return np.flatnonzero(np.fromiter(map(ne, a, b), dtype=bool, count=len(a)))

