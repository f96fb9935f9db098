"""Reading model outputs and placing their mentions, for scoring (docs/llm.md).

:func:`align_rows` is the reading and alignment step of
:func:`~nerscore.scoring.llm.evaluate_llm` and
:func:`~nerscore.scoring.llm.align_outputs`: every output read, its labels
mapped to the gold schema, its mentions placed in its gold document's text,
everything counted, and the aligned spans of all documents returned as rows
(document index, start, end, label) that the scorer turns into entity
columns without a Python object per span.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from nerscore.decode.inputs import Prepared, prepare_spans
from nerscore.decode.mentions import NORMALIZATIONS, POLICIES, SNAPS, Placement, align_items
from nerscore.decode.placement import place_mentions
from nerscore.decode.span_sides import quoted_ids
from nerscore.errors import FormatError, InputTypeError, OptionError, option_error
from nerscore.io.json_lists import read_json_lists
from nerscore.io.llm_output import Item, RawOutput, items_from_json, read_output
from nerscore.io.llm_records import LLMRecord
from nerscore.values.documents import Document
from nerscore.values.mentions import Mention, ParsedOutput
from nerscore.values.spans import EntityColumns, IntArray, merge_vocabs
from nerscore.values.tags import encode_strings
from nerscore.values.wording import counted

__all__ = ["AlignedRows", "align_rows", "label_aliases_map"]

_ID, _TEXT, _SPANS, _LABEL, _IGNORE = (attrgetter(f) for f in
                                        ("id", "text", "spans", "label", "ignore"))


def label_aliases_map(gold_labels: Sequence[str],
                      label_aliases: Mapping[str, Sequence[str] | str] | None) -> dict[str, str]:
    """Case-folded answer label -> gold label: each gold label, then its aliases.

    Raises
    ------
    OptionError
        For an alias of a label that is not in the gold schema, or one alias
        given to two labels.

    Examples
    --------
    >>> label_aliases_map(["LOC", "PER"], {"LOC": ["location", "Place"]})
    {'loc': 'LOC', 'per': 'PER', 'location': 'LOC', 'place': 'LOC'}
    """
    out = {lab.casefold(): lab for lab in gold_labels}
    for target, aliases in (label_aliases or {}).items():
        if target not in gold_labels:
            raise OptionError(
                f"Aliases are given to {target!r} (label_aliases), which is not a gold label; "
                f"the gold labels are {', '.join(map(repr, sorted(gold_labels)))}.",
                option="label_aliases")
        for alias in [aliases] if isinstance(aliases, str) else aliases:
            key = str(alias).casefold()
            if out.get(key, target) != target:
                raise OptionError(f"The label alias {alias!r} is given to both {out[key]!r} and "
                                  f"{target!r} (label_aliases); give it to one label.",
                                  option="label_aliases")
            out[key] = target
    return out


def _read(output: object, name: str, output_format: str) -> RawOutput:
    """One output as ``(text, label, start, end)`` items, whatever form it was given in."""
    if isinstance(output, str):
        return read_output(output, format=output_format)
    if isinstance(output, LLMRecord):
        output = output.parsed
    if isinstance(output, ParsedOutput):
        return RawOutput([(m.text, m.label, m.start, m.end) for m in output.mentions],
                         output.format, output.problems, output.repairs, output.text)
    if isinstance(output, (list, tuple)) and all(isinstance(m, Mention) for m in output):
        return RawOutput([(m.text, m.label, m.start, m.end) for m in output], "mentions")
    read = items_from_json(output)
    if read is None:
        raise InputTypeError(
            f"The output of document {name!r} is a {type(output).__name__}; give a string (the "
            "raw answer), a ParsedOutput, a list of Mention or of {'text', 'label'} dicts.")
    return RawOutput(read[0], "mentions", tuple(read[1]))


def _pair(y_pred: object, ids: list[str]) -> tuple[list[object], dict[str, object], list[str]]:
    """Each gold document's output ([] for none), the outputs of other ids, the ids without output."""
    if isinstance(y_pred, Mapping):
        outputs = {str(k): v for k, v in y_pred.items()}
    else:
        items = list(y_pred)  # type: ignore[call-overload]
        if items and all(isinstance(r, LLMRecord) and not r.numbered for r in items):
            outputs = {r.id: r for r in items}
        elif len(items) != len(ids):
            record = items[0] if isinstance(items[0], LLMRecord) else None
            if record is not None and record.source:  # numbered records of a file
                raise FormatError(
                    f"{record.source} has {counted(len(items), 'record')} without an 'id' but "
                    f"gold has {counted(len(ids), 'document')}; records without ids are paired "
                    "with the gold documents in order: give one record per gold document, or "
                    "give every record the 'id' of its document.", source=record.source)
            raise InputTypeError(
                f"Gold has {len(ids)} documents but {len(items)} outputs were given; outputs "
                "without ids are paired by position (or give a mapping {doc_id: output}).")
        else:
            return items, {}, []
    known = set(ids)
    if outputs and known and known.isdisjoint(outputs):
        sources = {r.source for r in outputs.values() if isinstance(r, LLMRecord) and r.source}
        raise FormatError(
            f"None of the {len(outputs)} model output ids appear among the {len(ids)} gold ids "
            f"(gold: {quoted_ids(ids)}; outputs: {quoted_ids(list(outputs))}); check that both "
            "sides use the same ids.", source=next(iter(sources)) if len(sources) == 1 else None)
    return (list(map(outputs.get, ids, repeat([]))),
            {name: out for name, out in outputs.items() if name not in known},
            [i for i in ids if i not in outputs])


class AlignedRows(NamedTuple):
    """The aligned spans of all gold documents, one row each, sorted by document.

    ``label`` codes each span's label as its index in ``vocab`` (sorted).
    """

    doc: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    vocab: tuple[str, ...]


def align_rows(
    y_true: Sequence[Document], y_pred: object, *, align: str, normalize: str, snap: str,
    label_aliases: Mapping[str, Sequence[str] | str] | None, output_format: str,
    tokens: Sequence[Sequence[str]] | None, labels: Sequence[str] | None,
) -> tuple[list[Document], AlignedRows, list[Item], list[str], dict[str, Any], Prepared | None]:
    """:func:`align_outputs` in one pass, its spans as rows.

    Also returns the gold side as :func:`~nerscore.decode.inputs.prepare_spans`
    prepares it, without predictions (None when the gold documents have
    ignore regions: these apply to the predictions).

    Outputs without offsets to align to a text (JSON lists of plain
    objects, read in bulk by :func:`~nerscore.io.json_lists.read_json_lists`,
    and the other formats once read) are placed together by
    :func:`~nerscore.decode.placement.place_mentions`; the others (inline
    markup, mentions with offsets, tokens, ``spacy-llm``) one document at a
    time by :func:`~nerscore.decode.mentions.align_items`.
    """
    docs = list(y_true)
    if not set(map(type, docs)) <= {Document} and not all(isinstance(d, Document) for d in docs):
        raise InputTypeError("evaluate_llm needs the gold side as Document objects with their "
                             "text (nerscore.Document(id, spans, text)).")
    if tokens is not None and len(tokens) != len(docs):
        raise InputTypeError(f"Gold has {len(docs)} documents but tokens were given for "
                             f"{len(tokens)}; give one token list per document.")
    compat = None
    if align == "spacy-llm":
        if tokens is None:
            raise InputTypeError("align='spacy-llm' aligns to spaCy tokens: give the gold "
                                 "documents' tokens (tokens=) with token spans.")
        compat, align = "spacy-llm", "all"
        output_format = "spacy-llm" if output_format == "auto" else output_format
    for name, value, valid in (("align", align, POLICIES), ("normalize", normalize, NORMALIZATIONS),
                               ("snap", snap, SNAPS)):
        if value not in valid:
            raise option_error(name, "one of " + ", ".join(map(repr, valid)), value)
    ids = list(map(_ID, docs))
    if not set(map(type, ids)) <= {str}:
        ids = list(map(str, ids))
    given, unknown, without_output = _pair(y_pred, ids)
    # the gold side, checked and as columns once: for its labels here, and for scoring (unless
    # ignore regions remove predictions, which the scorer then does once it has them)
    prepared = None if any(map(_IGNORE, docs)) else prepare_spans(
        docs, None, pred_columns=EntityColumns.empty(n_sequences=len(docs)))
    gold_labels = sorted(set(prepared.gold.labels if prepared is not None else map(
        _LABEL, chain.from_iterable(map(_SPANS, docs)))) | set(labels or ()))
    tally = _Tally(label_aliases_map(gold_labels, label_aliases), set(gold_labels))
    together = compat is None and tokens is None  # placed by place_mentions
    bulk = read_json_lists(given, format=output_format if together else "")
    tally.c["mentions"] += len(bulk.texts)
    label, vocab = tally.relabel_codes(bulk.label, bulk.vocab)
    more: tuple[list[int], list[str], list[str]] = ([], [], [])
    rows: list[tuple[int, int, int, str]] = []
    sources = list(map(_TEXT, docs))
    # a document without text is an error, after the outputs before it were read
    missing = sources.index(None) if tokens is None and None in sources else len(docs)
    for k in bulk.rest:
        if k > missing:
            break
        name = ids[k]
        read = tally.read(_read(given[k], name, output_format), name)
        if k == missing:
            break
        items = read.items
        if together and read.text is None and not any(
                it[2] is not None and it[3] is not None for it in items):
            more[0].extend([k] * len(items))
            more[1].extend(it[0] for it in items)
            more[2].extend(it[1] for it in items)
            continue
        text = tokens[k] if tokens is not None else sources[k] or ""
        if compat is None:
            placed = align_items(text, items, read.text, policy=align, normalize=normalize,
                                 snap=snap)
        else:
            placed = _in_schema(text, items, tally.schema)
        tally.placed(k, name, items, placed)
        rows += [(k, s, e, lab) for s, e, lab in placed.spans]
    if missing < len(docs):
        raise InputTypeError(f"Gold document {ids[missing]!r} has no text to align the model's "
                             "mentions with; give documents with their text (or tokens=).")
    sources = [t or "" for t in sources] if None in sources else sources
    doc_col, texts = bulk.doc, bulk.texts
    if more[0]:
        doc_col = np.concatenate([doc_col, np.asarray(more[0], dtype=np.int64)])
        order = np.argsort(doc_col, kind="stable")
        doc_col = doc_col[order]
        texts = list(map([*texts, *more[1]].__getitem__, order.tolist()))
        more_label, more_vocab = encode_strings(more[2])
        vocab, (label, more_label) = merge_vocabs((vocab, label), (more_vocab, more_label))
        label = np.concatenate([label, more_label])[order]
    p = place_mentions(sources, doc_col, texts, label, policy=align, normalize=normalize)
    tally.c["ambiguous"] += p.ambiguous
    out = AlignedRows(p.doc, p.start, p.end, label[p.mention], vocab)
    js = p.unaligned.tolist()
    unaligned = [texts[j] for j in js], list(map(vocab.__getitem__, label[p.unaligned].tolist()))
    # the columns of all mentions go before the unaligned ones' items are made: the cyclic
    # collector, which those would set off, then has no long lists to walk
    del bulk, texts, more
    tally.lose(doc_col[p.unaligned].tolist(), js, *unaligned, ids)
    if rows:  # each document's rows come from one side: merge them by document
        d, s, e, lab = zip(*rows, strict=True)
        new, new_vocab = encode_strings(lab)
        vocab, (old, new) = merge_vocabs((out.vocab, out.label), (new_vocab, new))
        col = np.concatenate([out.doc, np.asarray(d, dtype=np.int64)])
        order = np.argsort(col, kind="stable")
        starts, ends = (np.concatenate([a, np.asarray(b, dtype=np.int64)])[order]
                        for a, b in ((out.start, s), (out.end, e)))
        out = AlignedRows(col[order], starts, ends, np.concatenate([old, new])[order], vocab)
    for j, (name, output) in enumerate(unknown.items()):
        read = tally.read(_read(output, name, output_format), name)
        tally.placed(len(docs) + j, name, read.items,
                     Placement([], list(range(len(read.items))), 0, 0, 0, 0, []))
    lost = tally.lost_in_order()
    summary = tally.summary(
        lost, documents=len(docs), policy=compat or align, normalize=normalize,
        without_output=without_output, without_gold=list(unknown))
    return docs, out, lost[0], lost[1], summary, prepared


def _in_schema(tokens: Any, items: list[Item], schema: set[str]) -> Placement:
    """spacy-llm's placement of the mentions with a gold label; the others are unaligned.

    spacy-llm reads only the lines of the task's labels; nerscore counts the
    other mentions as unaligned false positives.
    """
    keep = [k for k, it in enumerate(items) if it[1] in schema]
    p = align_items(tokens, [items[k] for k in keep], compat="spacy-llm")
    outside = [k for k, it in enumerate(items) if it[1] not in schema]
    return p._replace(unaligned=sorted([*(keep[k] for k in p.unaligned), *outside]),
                      dropped=[keep[k] for k in p.dropped])


class _Tally:
    """What reading and aligning counted, document after document."""

    def __init__(self, to_gold: dict[str, str], schema: set[str]) -> None:
        self.to_gold = to_gold
        self.schema = schema
        self.same: set[str] = set(schema)  # labels that map to themselves, in the schema
        self.mapped: dict[str, str] = {}
        self.c = dict.fromkeys(("parse_failures", "repaired", "mentions", "unaligned",
                                "ambiguous", "snapped", "dropped", "rewritten",
                                "offsets_rejected"), 0)
        self.outside: Counter[str] = Counter()
        self.failures: list[tuple[str, str]] = []
        self.skipped: list[tuple[str, str]] = []  # (document id, problem) of items not read
        # the mentions not placed, as columns: document, 0 unaligned or 1 dropped, index in its
        # output, document id, the item (text, label, start, end)
        self.lost: tuple[list[int], list[int], list[int], list[str], list[Item]] = (
            [], [], [], [], [])

    def _mapping(self, labels: Iterable[str]) -> dict[str, str]:
        """Answer label -> gold label (or itself), for ``labels`` and every label seen before."""
        mapped = self.mapped
        for lab in labels:
            if lab not in mapped:
                mapped[lab] = self.to_gold.get(lab.casefold(), lab)
        return mapped

    def relabel(self, labels: list[str]) -> list[str]:
        """Answer labels mapped to the gold schema; count those outside it."""
        if set(labels) <= self.same:  # the common case: every label is a gold label as written
            return labels
        labels = list(map(self._mapping(set(labels)).__getitem__, labels))
        for lab, n in Counter(labels).items():
            if lab not in self.schema:
                self.outside[lab] += n
        return labels

    def relabel_codes(self, codes: IntArray, vocab: tuple[str, ...],
                      ) -> tuple[IntArray, tuple[str, ...]]:
        """:meth:`relabel` for labels given as codes into ``vocab``: only the vocabulary is mapped."""
        if set(vocab) <= self.same:
            return codes, vocab
        mapped = self._mapping(vocab)
        to_new, new_vocab = encode_strings([mapped[lab] for lab in vocab], sort=True)
        codes = to_new[codes]
        counts = np.bincount(codes, minlength=len(new_vocab)).tolist()
        for lab, n in zip(new_vocab, counts, strict=True):
            if n and lab not in self.schema:
                self.outside[lab] += n
        return codes, new_vocab

    def read(self, read: RawOutput, name: str) -> RawOutput:
        """Count the output and map its labels to the gold schema."""
        c = self.c
        items = read.items
        c["mentions"] += len(items)
        if read.failed:
            c["parse_failures"] += 1
            self.failures.append((name, read.problems[0]))
        elif read.problems:
            self.skipped += zip(repeat(name), read.problems)
        if read.repairs:
            c["repaired"] += 1
        labels = [it[1] for it in items]
        mapped = self.relabel(labels)
        if mapped is labels:
            return read
        return read._replace(items=[(t, lab, s, e) for (t, _, s, e), lab
                                    in zip(items, mapped, strict=True)])

    def placed(self, k: int, name: str, items: list[Item], p: Placement) -> None:
        """Count the alignment of document ``k``; keep the mentions it could not place."""
        c = self.c
        c["ambiguous"] += p.ambiguous
        c["snapped"] += p.snapped
        c["rewritten"] += p.rewritten
        c["offsets_rejected"] += p.rejected
        for kind, js in enumerate((p.unaligned, p.dropped)):
            self._keep([k] * len(js), [kind] * len(js), js, [name] * len(js),
                       list(map(items.__getitem__, js)))

    def lose(self, docs: list[int], js: list[int], texts: list[str], labels: list[str],
             ids: list[str]) -> None:
        """Keep the unaligned mentions of :func:`place_mentions`: documents, indices, texts, labels."""
        n = len(js)
        self._keep(docs, [0] * n, js, list(map(ids.__getitem__, docs)),
                   list(zip(texts, labels, repeat(None, n), repeat(None, n), strict=True)))

    def _keep(self, docs: list[int], kinds: list[int], js: list[int], names: list[str],
              items: list[Item]) -> None:
        d, k, j, nm, it = self.lost
        d += docs
        k += kinds
        j += js
        nm += names
        it += items

    def lost_in_order(self) -> tuple[list[Item], list[str], list[int]]:
        """The mentions not placed, by document (the unaligned ones, then the dropped ones).

        Their items, their document ids and their kinds (0 unaligned, 1 dropped).
        """
        docs, kinds, js, names, items = self.lost
        order = np.lexsort(np.array([js, kinds, docs], dtype=np.int64).reshape(3, -1)).tolist()
        return (list(map(items.__getitem__, order)), list(map(names.__getitem__, order)),
                list(map(kinds.__getitem__, order)))

    def summary(self, lost: tuple[list[Item], list[str], list[int]], *, documents: int,
                policy: str, normalize: str, without_output: list[str], without_gold: list[str],
                ) -> dict[str, Any]:
        """The fields of :class:`~nerscore.scoring.llm.LLMSummary`; ``lost`` from :meth:`lost_in_order`."""
        c = self.c
        items, names, kinds = lost
        unaligned = [(name, it[0], it[1])
                     for name, it, kind in zip(names, items, kinds, strict=True) if not kind]
        return {**c, "documents": documents, "unaligned": len(unaligned), "dropped": sum(kinds),
                "out_of_schema": sum(self.outside.values()), "policy": policy,
                "normalize": normalize, "unaligned_list": unaligned, "failures": self.failures,
                "skipped": len(self.skipped), "skipped_list": self.skipped,
                "schema_labels": dict(sorted(self.outside.items())),
                "without_output": without_output, "without_gold": without_gold}
