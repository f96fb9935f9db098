r"""Prodigy JSONL: annotated examples as ``prodigy db-out`` writes them.

One example per line::

    {"text": "Anna flew", "tokens": [{"text": "Anna", "start": 0, "end": 4, "id": 0, "ws": true},
                                 {"text": "flew", "start": 5, "end": 9, "id": 1, "ws": false}],
     "spans": [{"start": 0, "end": 4, "token_start": 0, "token_end": 0, "label": "PER"}],
     "answer": "accept", "_input_hash": 1850475491, "_task_hash": -1213419093,
     "_annotator_id": "ner_news-anna", "_session_id": "ner_news-anna"}

- Only accepted examples are scored; ``reject`` and ``ignore`` are counted.
  An example without ``answer`` (a file of model suggestions, not a
  dataset) is read as accepted, counted.
- Spans are ``start``/``end`` character offsets (Python indices: Prodigy
  is written in Python); ``token_start``/``token_end`` (inclusive) are
  checked against ``tokens`` where both are given. A span's ``score``
  (model suggestions) is kept with it.
- The document id is ``_input_hash`` (the same text has the same hash in
  every dataset, so gold and predictions pair), else ``meta.id``, else the
  example's number in the file. Several accepted examples of one input are
  several annotators: choose one with ``annotator=`` (``_annotator_id`` or
  ``_session_id``); otherwise they are an error naming them.
  :func:`read_prodigy_annotators` reads every annotator's examples, which
  ``nerscore agree`` and ``adjudicate`` compare.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from nerscore.errors import AnnotatorChoiceError, FormatError, OptionError, quoted
from nerscore.io._json_text import json_kind
from nerscore.io._tool_spans import (
    ToolSpan,
    entities,
    json_lines,
    python_offsets,
    text_of,
    write_json_lines,
)
from nerscore.io.formats import AnnotatorSets, Counted, Format, ReadResult, register_format
from nerscore.values.documents import Document

if TYPE_CHECKING:
    from nerscore.io.convert.reading import WriteOptions

__all__ = ["FORMAT", "ProdigyAnnotators", "ProdigyData", "read_prodigy", "read_prodigy_annotators",
           "write_prodigy"]

_ANSWERS = ("accept", "reject", "ignore")


class ProdigyData(NamedTuple):
    """The accepted examples of a Prodigy file, their spans with scores, and the counts.

    Attributes
    ----------
    documents : list of Document
        The accepted examples, in file order.
    spans : dict of str to list of ToolSpan
        Document id -> its spans, with their ``score`` where the file has one.
    counts : dict of str to int
        ``accept``, ``reject``, ``ignore`` (examples by answer), ``no_answer``
        (read as accepted), ``other_annotator`` (examples of annotators not
        chosen).
    annotators : tuple of str
        The ``_annotator_id`` (else ``_session_id``) values, in order.
    path : str
        The file.
    """

    documents: list[Document]
    spans: dict[str, list[ToolSpan]]
    counts: dict[str, int]
    annotators: tuple[str, ...]
    path: str

    def notes(self) -> tuple[str, ...]:
        """What reading counted, as sentences naming the file.

        Examples
        --------
        >>> ProdigyData([], {}, {"accept": 3, "reject": 1, "ignore": 2}, (), "p.jsonl").notes()
        ('p.jsonl: 3 example(s) read; left out: 1 rejected, 2 ignored.',)
        """
        return _notes(self.counts, self.path)


class ProdigyAnnotators(NamedTuple):
    """The accepted examples of a Prodigy file of several annotators, per annotator.

    Attributes
    ----------
    documents : dict of str to list of Document
        Annotator (``_annotator_id``, else ``_session_id``) -> its accepted
        examples, in file order; annotators in order of first appearance.
    counts : dict of str to int
        As :attr:`ProdigyData.counts`, with ``no_annotator`` (examples naming
        no annotator, left out) for ``other_annotator``.
    path : str
        The file.
    """

    documents: dict[str, list[Document]]
    counts: dict[str, int]
    path: str

    def notes(self) -> tuple[str, ...]:
        """What reading counted, as sentences naming the file."""
        return _notes(self.counts, self.path)


def _notes(c: Mapping[str, int], path: str) -> tuple[str, ...]:
    out = []
    skipped = [f"{c[k]} {w}" for k, w in (
        ("reject", "rejected"), ("ignore", "ignored"), ("other_annotator", "of other annotators"),
        ("no_annotator", "naming no annotator (_annotator_id or _session_id)")) if c.get(k)]
    if skipped:
        out.append(f"{c.get('accept', 0) + c.get('no_answer', 0)} example(s) read; left "
                   f"out: {', '.join(skipped)}.")
    if c.get("no_answer"):
        out.append(f"{c['no_answer']} example(s) without 'answer' were read as accepted.")
    return tuple(f"{path}: {n}" for n in out)


def _fail(source: str, n: int, message: str) -> FormatError:
    return FormatError(f"{source}, line {n}: {message}", source=source, line=n)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _who(obj: dict[str, Any]) -> tuple[str | None, Any, str]:
    """The annotator's name, its value as given, and the key that gives it.

    The name is the value as text: ``7`` and ``"7"`` name one annotator (as
    ``annotator="7"`` chooses both).
    """
    key = "_annotator_id"
    who = obj.get(key)
    if who is None:  # a null _annotator_id names no one
        key, who = "_session_id", obj.get("_session_id")
    return (None if who is None else str(who)), who, key


def _spans(obj: dict[str, Any], source: str, n: int) -> list[ToolSpan]:
    spans = obj.get("spans", [])
    if not isinstance(spans, list):
        raise _fail(source, n, f"expected 'spans' to be a list; got {json_kind(spans)}.")
    tokens = obj.get("tokens")
    out = []
    for k, span in enumerate(spans):
        ok = (isinstance(span, dict) and _int(span.get("start")) and _int(span.get("end"))
              and isinstance(span.get("label"), str))
        if not ok:
            raise _fail(source, n, f"span {k} is {json.dumps(span)[:80]}; expected "
                        "{\"start\": int, \"end\": int, \"label\": str, ...}.")
        ts, te = span.get("token_start"), span.get("token_end")
        if isinstance(tokens, list) and _int(ts) and _int(te):
            try:
                first, last = tokens[ts], tokens[te]
                bounds = (first["start"], last["end"])
            except (IndexError, KeyError, TypeError):
                raise _fail(source, n, f"span {k} has token_start {ts} and token_end {te}, "
                            f"but the example has {len(tokens)} tokens.") from None
            if bounds != (span["start"], span["end"]) or ts < 0 or te < ts:
                raise _fail(source, n, f"span {k} ({span['start']}, {span['end']}, "
                            f"{quoted(span['label'])}) does not match its tokens {ts}..{te}, which "
                            f"cover {bounds[0]}..{bounds[1]}; fix the offsets or the token "
                            "indices (token_end is inclusive).")
        score = span.get("score")
        conf = float(score) if isinstance(score, int | float) and not isinstance(
            score, bool) else None
        text = span.get("text") if isinstance(span.get("text"), str) else None
        out.append(ToolSpan(span["start"], span["end"], span["label"], text, conf,
                            f"line {n}, span {k}"))
    return out


def _id(obj: dict[str, Any], k: int) -> tuple[str, str]:
    if obj.get("_input_hash") is not None:
        return str(obj["_input_hash"]), "_input_hash"
    meta = obj.get("meta")
    if isinstance(meta, dict) and meta.get("id") is not None:
        return str(meta["id"]), "meta.id"
    return str(k), "number"


def read_prodigy(path: str | os.PathLike[str], *, encoding: str = "utf-8",
                 annotator: str | None = None) -> ProdigyData:
    r"""Read a Prodigy JSONL file: the accepted examples as documents.

    Parameters
    ----------
    path : str or path-like
        The file (``prodigy db-out DATASET > file.jsonl``).
    encoding : str
        Text encoding of the file.
    annotator : str, optional
        Read only the examples whose ``_annotator_id`` (or ``_session_id``) is
        this; needed where several annotators accepted one input.

    Returns
    -------
    ProdigyData
        ``documents``, ``spans`` (with scores), ``counts``; ``notes()``.

    Raises
    ------
    FormatError
        For malformed lines, a record without text, an unknown ``answer``,
        spans that disagree with their tokens or the text, or two accepted
        examples of one input by one annotator.
    AnnotatorChoiceError
        For accepted examples of one input by several annotators, without
        ``annotator``.
    OptionError
        For an ``annotator`` the file does not have.

    Examples
    --------
    >>> data = read_prodigy("tests/data/prodigy/ner.jsonl")
    >>> [(d.id, d.span_texts()) for d in data.documents]
    [('1850475491', ['Anna Smith', 'Berlin']), ('-40178912', ['ACME', 'Paris'])]
    >>> data.counts
    {'accept': 2, 'ignore': 1, 'reject': 1}
    """
    read = _Reading(os.fspath(path), annotator=annotator)
    read.run(encoding)
    if annotator is not None and annotator not in read.annotators:
        listed = ", ".join(map(quoted, read.annotators)) or "none"
        raise OptionError(f"{read.source}: no annotator {quoted(annotator)}; the annotators "
                          f"(_annotator_id or _session_id) are {listed}.", option="annotator")
    return ProdigyData(read.groups.get(None, []), read.spans, read.counted(),
                       tuple(read.annotators), read.source)


def read_prodigy_annotators(path: str | os.PathLike[str], *,
                            encoding: str = "utf-8") -> ProdigyAnnotators:
    r"""Read a Prodigy JSONL file of several annotators: each one's accepted examples.

    A dataset several annotators worked on holds one example per annotator
    and input, told apart by ``_annotator_id`` (else ``_session_id``);
    examples naming neither are counted and left out.

    Parameters
    ----------
    path : str or path-like
        The file (``prodigy db-out DATASET > file.jsonl``).
    encoding : str
        Text encoding of the file.

    Returns
    -------
    ProdigyAnnotators
        ``documents`` by annotator (an annotator who accepted nothing has
        none), ``counts``; ``notes()``.

    Raises
    ------
    FormatError
        As :func:`read_prodigy`; also for two accepted examples of one input
        by one annotator, and for several annotators' examples without
        ``_input_hash`` (or ``meta.id``) to join them by.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
    >>> _ = tmp.write_text(
    ...     '{"text": "Ann ran", "spans": [], "_input_hash": 5, "_annotator_id": "x"}\n'
    ...     '{"text": "Ann ran", "spans": [{"start": 0, "end": 3, "label": "PER"}], '
    ...     '"_input_hash": 5, "_annotator_id": "y", "answer": "accept"}\n')
    >>> data = read_prodigy_annotators(tmp)
    >>> {who: [(d.id, d.span_texts()) for d in docs] for who, docs in data.documents.items()}
    {'x': [('5', [])], 'y': [('5', ['Ann'])]}
    >>> data.notes()[0].endswith(": 1 example(s) without 'answer' were read as accepted.")
    True
    """
    read = _Reading(os.fspath(path), split=True)
    read.run(encoding)
    ids = read.kinds == {"number"}
    if ids and len([who for who, docs in read.groups.items() if docs]) > 1:
        raise FormatError(f"{read.source}: the examples have neither _input_hash nor meta.id, so "
                          "the examples of one input by different annotators cannot be joined; "
                          "export the dataset with its hashes (prodigy db-out keeps them).",
                          source=read.source)
    documents = {who: read.groups.get(who, []) for who in read.annotators}
    return ProdigyAnnotators(documents, read.counted(), read.source)


class _Reading:
    """One pass over a Prodigy file: the accepted examples, grouped by annotator or not."""

    def __init__(self, source: str, *, annotator: str | None = None, split: bool = False):
        self.source, self.annotator, self.split = source, annotator, split
        self.counts: Counter[str] = Counter()
        self.groups: dict[str | None, list[Document]] = {}
        self.spans: dict[str, list[ToolSpan]] = {}
        self.annotators: dict[str, None] = {}
        self.kinds: set[str] = set()
        self.seen: dict[tuple[str | None, str], tuple[int, str | None, Any, str]] = {}
        self.clash: tuple[int, str, int, str | None, str | None] | None = None

    def counted(self) -> dict[str, int]:
        return dict(sorted(self.counts.items()))

    def run(self, encoding: str) -> None:
        """Read every line; raise for two annotators of one input once all are known."""
        for k, (n, obj) in enumerate(json_lines(self.source, encoding), 1):
            self.example(obj, n, k)
        if self.clash is not None:
            n, doc_id, line, other, who = self.clash
            raise AnnotatorChoiceError(
                f"{self.source}, line {n}: a second accepted example of input {doc_id} (first "
                f"on line {line}, annotator {quoted(other)}; this one {quoted(who)}): choose one "
                "annotator with annotator=NAME.",
                source=self.source, annotators=tuple(self.annotators), line=n)

    def example(self, obj: dict[str, Any], n: int, k: int) -> None:
        """Read the example on line ``n``, the ``k``-th."""
        source, (who, given, key) = self.source, _who(obj)
        if who is not None:
            self.annotators[who] = None
        answer = obj.get("answer")
        if answer is not None and answer not in _ANSWERS:
            raise _fail(source, n, f"unknown answer {quoted(answer)}; Prodigy answers are "
                        "'accept', 'reject' and 'ignore'.")
        if self.clash is not None:  # only the annotators are still wanted
            return
        if self.annotator is not None and who != self.annotator:
            self.counts["other_annotator"] += 1
            return
        if self.split and who is None:
            self.counts["no_annotator"] += 1
            return
        self.counts[answer or "no_answer"] += 1
        if answer not in (None, "accept"):
            return
        doc_id, kind = _id(obj, k)
        self.kinds.add(kind)
        if len(self.kinds) > 1:
            raise _fail(source, n, f"the example is identified by {kind} but earlier ones by "
                        f"{' and '.join(sorted(self.kinds - {kind}))}; give every example an "
                        "_input_hash (or a meta.id), or none.")
        group = who if self.split else None
        if (group, doc_id) in self.seen:
            line, other, first, first_key = self.seen[group, doc_id]
            if other != who:
                self.clash = (n, doc_id, line, other, who)
                return
            by = f"by annotator {quoted(who)}" if who is not None else "naming no annotator"
            spelt = ""
            if type(first) is not type(given):  # 7 and "7": one annotator, spelt two ways
                spelt = (f"; this one's {key} is {json.dumps(given)}, the first's {first_key} "
                         f"{json.dumps(first)}, and a value is read as its text, so both name "
                         f"annotator {quoted(who)}")
            raise _fail(source, n, f"a second accepted example of input {doc_id} {by} (the "
                        f"first is on line {line}{spelt}); keep one of the two"
                        f"{', or give the two annotators distinct ids' if spelt else ''}.")
        self.seen[group, doc_id] = (n, who, given, key)
        text = obj.get("text")
        if not isinstance(text, str):
            raise _fail(source, n, "expected a string 'text'.")
        found = python_offsets(text, _spans(obj, source, n), units="python", source=source)
        if not self.split:
            self.spans[doc_id] = found
        self.groups.setdefault(group, []).append(
            Document(doc_id, entities(found), text, source=source, line=n))


def write_prodigy(documents: Iterable[Document], path: str | os.PathLike[str], *,
                  encoding: str = "utf-8") -> None:
    r"""Write documents as accepted Prodigy examples (``text``, ``spans``, ``answer``, ``meta.id``).

    Prodigy's hashes are not computed: the document id goes to ``meta.id``,
    which :func:`read_prodigy` reads back as the id; ``prodigy db-in`` adds
    the hashes.

    Parameters
    ----------
    documents : iterable of Document
        Documents with text.
    path : str or path-like
        The file (overwritten).
    encoding : str
        Text encoding (what it cannot encode is written as JSON escapes).

    Raises
    ------
    ValueError
        For a document without text.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
    >>> write_prodigy([Document("d1", [(0, 4, "PER")], "Anna flew")], tmp)
    >>> tmp.read_text()
    '{"text": "Anna flew", "spans": [{"start": 0, "end": 4, "label": "PER"}], "answer": "accept", "meta": {"id": "d1"}}\n'
    """
    write_json_lines(documents, path, lambda doc: {
        "text": text_of(doc, "Prodigy examples"),
        "spans": [{"start": e.start, "end": e.end, "label": e.label} for e in doc.spans],
        "answer": "accept", "meta": {"id": doc.id}}, encoding=encoding)


# ----------------------------------------------------------------------------- the format


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    data = read_prodigy(path, **options)
    return ReadResult(data.documents, data.notes(), source=data)


def _annotators(path: str, options: Mapping[str, Any]) -> AnnotatorSets:
    data = read_prodigy_annotators(path, encoding=options.get("encoding") or "utf-8")
    return AnnotatorSets(data.documents, data.notes())


def _write_spans(chunks: Iterable[list[Document]], target: str, options: WriteOptions) -> int:
    documents = Counted(chunks)
    write_prodigy(documents.items(), target, encoding=options.encoding)
    return documents.count


#: The ``prodigy`` format (no suffix of its own: ``.jsonl`` is JSON Lines).
FORMAT = register_format(Format(
    "prodigy", "Prodigy JSONL: accepted examples with character spans",
    kind="spans", read=_read, options=("encoding", "annotator"), write_spans=_write_spans,
    annotators=_annotators, escapes=True,
))
