"""Validating and repairing tag sequences against a scheme (``docs/schemes.md``).

:func:`validate_tags` returns *all* problems, each with its location;
:func:`repair_tags` rewrites invalid sequences so that they decode exactly as
the raw tags decode leniently (``method="begin"``, the conlleval reading) or
strictly (``method="discard"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from nerscore.decode.decoder import flatten_with_separators
from nerscore.decode.entities import decode, write_tags
from nerscore.errors import InvalidTagError, SchemeError, quoted
from nerscore.values import schemes as sc
from nerscore.values.decoding import Decoding
from nerscore.values.options import OptionEnum
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.tag_input import encode_lists, tag_sequences
from nerscore.values.tags import EncodedTags, parse_vocab

__all__ = [
    "RepairMethod", "TagIssue", "ValidationResult", "check_tags", "repair_tags", "validate_tags",
]


class RepairMethod(OptionEnum):
    """How :func:`repair_tags` mends an invalid chunk."""

    BEGIN = "begin"
    DISCARD = "discard"


@dataclass(frozen=True)
class TagIssue:
    """One problem found by :func:`validate_tags`.

    Attributes
    ----------
    kind : {"invalid_tag", "invalid_transition"}
        A tag the scheme does not allow, or a tag that may not follow the
        previous one (``previous`` is ``None`` at a sentence start; a tag that
        may not end a sentence has ``tag`` ``None`` and the issue sits on the
        last token).
    sentence, index : int
        Sentence and token index (0-based).
    tag, previous : str or None
    token : str or None
        The token text, when known.
    source : str or None
    line : int or None
        File and 1-based line, when known.
    message : str
    """

    kind: str
    sentence: int
    index: int
    tag: str | None
    previous: str | None
    message: str
    token: str | None = field(default=None, compare=False)
    source: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ValidationResult:
    """All problems of a corpus under one scheme.

    Examples
    --------
    >>> res = validate_tags([["O", "I-PER", "I-PER"]], scheme="IOB2")
    >>> res.is_valid, len(res.issues)
    (False, 1)
    >>> print(res.issues[0].message)
    Invalid transition 'O' -> 'I-PER' at token 1 of sentence 0: the IOB2 scheme does not allow it. Pass mode='lenient' to read it as 'B-PER', or repair the tags with repair_tags(method='begin').
    """

    scheme: str
    issues: tuple[TagIssue, ...]
    n_sequences: int
    n_tokens: int

    @property
    def is_valid(self) -> bool:
        """Whether no problem was found."""
        return not self.issues

    def count(self, kind: str) -> int:
        """Number of issues of one kind."""
        return sum(1 for i in self.issues if i.kind == kind)


def _encode(tags: object) -> EncodedTags:
    if isinstance(tags, EncodedTags):
        return tags
    return encode_lists(tags, "tags")


def validate_tags(
    tags: Sequence[str] | Sequence[Sequence[str]] | EncodedTags,
    *,
    scheme: str | Scheme,
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
) -> ValidationResult:
    """Find every invalid tag and invalid transition under ``scheme``.

    Parameters
    ----------
    tags : list of str, list of list of str, array of str, or EncodedTags
        As for :func:`nerscore.tags_to_entities`. With ``EncodedTags``
        carrying ``source``/``lines``/``tokens``, issues name the file, line
        and token text.
    scheme : str or Scheme
        The scheme the tags claim to follow.
    suffix, delimiter, outside
        Tag syntax (see :func:`nerscore.tags_to_entities`).

    Returns
    -------
    ValidationResult
        Issues in corpus order. A sentence boundary counts as ``O`` on both
        sides, so ``I-X`` first in an IOB2 sentence, or ``B-X`` last in an
        IOBES sentence, is an invalid transition.

    Examples
    --------
    >>> for issue in validate_tags([["B-PER", "O", "B-LOC"]], scheme="IOBES").issues:
    ...     print(issue.message)
    Invalid transition 'B-PER' -> 'O' at token 1 of sentence 0: the IOBES scheme does not allow it.
    Invalid transition 'B-LOC' -> end of sentence at token 2 of sentence 0: the IOBES scheme does not allow it.
    """
    return check_tags(_encode(tags), Decoding(scheme, suffix=suffix, delimiter=delimiter,
                                              outside=outside))


def check_tags(enc: EncodedTags, decoding: Decoding) -> ValidationResult:
    """:func:`validate_tags` on encoded tags with the scheme and syntax of ``decoding``."""
    table = decoding.table
    if table is None:
        raise SchemeError("Validating tags needs a scheme: pass scheme='IOB2' (or another).")
    parsed = parse_vocab(enc.vocab, decoding)
    bad_tag = np.zeros(len(enc.vocab), dtype=bool)
    if parsed.invalid:
        bad_tag[list(parsed.invalid)] = True
    issues: list[tuple[int, TagIssue]] = []
    bad_tok = bad_tag[enc.ids]
    for pos in np.flatnonzero(bad_tok).tolist():
        tag_id = int(enc.ids[pos])
        tag_text = enc.vocab[tag_id]
        issues.append((2 * pos, _issue(enc, pos, "invalid_tag", tag_text, None,
                                       f"Invalid tag {quoted(tag_text)} at {enc.describe(pos)}: "
                                       f"{parsed.invalid[tag_id]}.")))
    cls, ext = flatten_with_separators(parsed.cls[enc.ids], enc.offsets, sc.O)
    lab, _ = flatten_with_separators(parsed.label[enc.ids], enc.offsets, -1)
    skip, _ = flatten_with_separators(bad_tok, enc.offsets, False)
    real, _ = flatten_with_separators(np.ones(len(enc), dtype=bool), enc.offsets, False)
    # transition k: from token k-1 (or a virtual O) to token k (a separator = sentence end)
    prev_cls = np.concatenate([[sc.O], cls[:-1]]).astype(np.int64)
    prev_lab = np.concatenate([[-1], lab[:-1]])
    prev_real = np.concatenate([[False], real[:-1]])
    prev_skip = np.concatenate([[False], skip[:-1]])
    same = prev_lab == lab
    n = sc.N_CLASSES
    any_t, same_t, diff_t = (np.zeros(n * n, dtype=bool) for _ in range(3))
    for p, c, cond in table.valid:
        {"any": any_t, "same": same_t, "diff": diff_t}[cond][p * n + c] = True
    pair = prev_cls * n + cls.astype(np.int64)
    ok = any_t[pair] | (same_t[pair] & same) | (diff_t[pair] & ~same)
    bad = ~ok & ~skip.astype(bool) & ~prev_skip.astype(bool) & (real | prev_real)
    # map flat-with-separator positions back to token positions
    seq_of = np.searchsorted(ext, np.arange(len(cls)), side="right") - 1
    tok_pos = np.arange(len(cls)) - seq_of  # position in the token array (separators: next)
    vocab = enc.vocab
    for k in np.flatnonzero(bad).tolist():
        if real[k]:
            pos = int(tok_pos[k])
            tag: str | None = vocab[int(enc.ids[pos])]
            previous = vocab[int(enc.ids[pos - 1])] if prev_real[k] else None
            where_pos = pos
        else:  # sentence end after token pos-1
            pos = int(tok_pos[k]) - 1
            tag, previous = None, vocab[int(enc.ids[pos])]
            where_pos = pos
        frm = quoted(previous) if previous is not None else "start of sentence"
        to = quoted(tag) if tag is not None else "end of sentence"
        msg = (f"Invalid transition {frm} -> {to} at {enc.describe(where_pos)}: "
               f"the {table.scheme.value} scheme does not allow it.")
        if tag is not None and parsed.cls[int(enc.ids[pos])] == sc.I and table.scheme in (
            Scheme.IOB2, Scheme.IOBES, Scheme.BILOU, Scheme.BMES
        ) and (previous is None or not same[k]):
            begin = _with_letter(tag, "B", decoding.suffix, decoding.delimiter)
            msg = msg[:-1] + (f". Pass mode='lenient' to read it as {quoted(begin)}, or repair the "
                              "tags with repair_tags(method='begin').")
        issues.append((2 * where_pos + (0 if real[k] else 1),
                       _issue(enc, where_pos, "invalid_transition", tag, previous, msg)))
    issues.sort(key=lambda x: x[0])
    return ValidationResult(table.scheme.value, tuple(i for _, i in issues), enc.n_sequences,
                            len(enc))


def _with_letter(tag: str, letter: str, suffix: bool, delimiter: str) -> str:
    if suffix:
        head, _, _ = tag.rpartition(delimiter)
        return f"{head}{delimiter}{letter}"
    _, _, tail = tag.partition(delimiter)
    return f"{letter}{delimiter}{tail}" if tail else letter


def _issue(enc: EncodedTags, pos: int, kind: str, tag: str | None, previous: str | None,
           message: str) -> TagIssue:
    seq, idx = enc.locate(pos)
    return TagIssue(
        kind, seq, idx, tag, previous, message,
        token=enc.tokens[pos] if enc.tokens is not None else None,
        source=enc.source,
        line=int(enc.lines[pos]) if enc.lines is not None else None,
    )


def repair_tags(
    tags: Sequence[str] | Sequence[Sequence[str]],
    *,
    scheme: str | Scheme,
    method: str | RepairMethod = "begin",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
) -> list[str] | list[list[str]]:
    """Rewrite invalid tag sequences into valid ones of ``scheme``.

    Parameters
    ----------
    tags : list of str, list of list of str, or array of str
        As for :func:`nerscore.tags_to_entities`.
    scheme : str or Scheme
    method : {"begin", "discard"}
        ``begin`` keeps every chunk the lenient decoder reads (an invalid
        ``I-X`` becomes ``B-X``: the conlleval reading); ``discard`` keeps only
        the chunks the strict decoder accepts (an invalid fragment becomes
        ``O``, cascading over the rest of the fragment).
    suffix, delimiter, outside
        Tag syntax.

    Returns
    -------
    list of str or list of list of str
        Same nesting as ``tags``. Sentences without issues are returned
        unchanged; decoding the result gives exactly the lenient (``begin``)
        or strict (``discard``) entities of the raw tags.

    Raises
    ------
    InvalidTagError
        For a tag the scheme does not allow at all (repair cannot guess it).

    Examples
    --------
    >>> repair_tags(["O", "I-PER", "I-PER", "O"], scheme="IOB2")
    ['O', 'B-PER', 'I-PER', 'O']
    >>> repair_tags(["O", "I-PER", "I-PER", "O"], scheme="IOB2", method="discard")
    ['O', 'O', 'O', 'O']
    """
    how = RepairMethod.parse(method, name="method")
    decoding = Decoding(scheme, suffix=suffix, delimiter=delimiter, outside=outside)
    sequences, flat = tag_sequences(tags, "tags")
    nested = [list(s) for s in sequences]
    enc = encode_lists(nested, "tags")
    result = check_tags(enc, decoding)
    if not result.is_valid:
        bad = [i for i in result.issues if i.kind == "invalid_tag"]
        if bad:
            first = bad[0]
            raise InvalidTagError(first.message + " repair_tags cannot guess its meaning.",
                                  tag=first.tag or "", sentence=first.sentence,
                                  index=first.index)
        mode = Mode.LENIENT if how is RepairMethod.BEGIN else Mode.STRICT
        cols = decode(enc, replace(decoding, mode=mode))
        broken = sorted({i.sentence for i in result.issues})
        keep = np.isin(cols.seq, broken)
        sub = cols.take(keep)
        index = {s: k for k, s in enumerate(broken)}
        remapped = type(sub)(np.array([index[s] for s in sub.seq.tolist()], dtype=np.int64),
                             sub.start, sub.end, sub.label, sub.labels, len(broken))
        fixed = write_tags(remapped, [len(nested[s]) for s in broken], decoding)
        for s, new in zip(broken, fixed, strict=False):
            nested[s] = new
    return nested[0] if flat else nested
