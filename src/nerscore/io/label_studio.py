r"""Label Studio JSON exports: tasks with their annotations (several annotators) and predictions.

An export (``Export > JSON`` in Label Studio) is one JSON array of tasks::

    [{"id": 7, "data": {"text": "Anna flew to Berlin"},
      "annotations": [{"id": 1, "completed_by": 2, "was_cancelled": false,
                       "result": [{"id": "a1", "type": "labels", "from_name": "label",
                                   "to_name": "text",
                                   "value": {"start": 0, "end": 4, "text": "Anna",
                                             "labels": ["PER"]}}]}],
      "predictions": [{"model_version": "v1", "score": 0.9, "result": [...]}]}]

- The text is ``data.text`` (or the one string field of ``data``); the
  document id is the task's ``id``.
- Each annotation (``completions`` in exports before Label Studio 1.0) is
  one annotator's (``completed_by``: a user id, or an object with ``id``
  and ``email``); several annotations of a task are several annotators.
  Cancelled (skipped) annotations are counted, never scored. Predictions
  are grouped by ``model_version``; a result's ``score`` (else its
  prediction's) is kept with the span.
- Only ``labels`` results are spans; other result types (choices, relations,
  text areas) are counted and ignored. A span with several labels is one
  span per label, counted.
- ``value.text`` is checked against the offsets; offsets that count UTF-16
  code units (older Label Studio versions; current ones count code points)
  are detected from it per span and converted, counted
  (docs/formats/label-studio.md).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nerscore.errors import AnnotatorChoiceError, FormatError, OptionError, closest, quoted
from nerscore.io._json_text import JSON_ESCAPES, json_kind
from nerscore.io._label_studio_tasks import annotator_of, result_spans, task_records, task_text
from nerscore.io._tool_spans import (
    ToolSpan,
    check_units,
    entities,
    load_json,
    python_offsets,
    record_id,
    text_of,
    utf16_note,
)
from nerscore.io.atomic import atomic_open
from nerscore.io.formats import AnnotatorSets, Counted, Format, ReadResult, register_format
from nerscore.values.documents import Document
from nerscore.values.spans import Span
from nerscore.values.wording import counted

if TYPE_CHECKING:
    from nerscore.io.convert.reading import WriteOptions

__all__ = ["FORMAT", "PREDICTIONS", "LabelStudioAnnotation", "LabelStudioExport",
           "read_label_studio", "write_label_studio"]

#: The ``annotator`` value that reads the predictions (``"predictions:VERSION"``: one model).
PREDICTIONS = "predictions"

#: The annotator of the annotations that name none (no ``completed_by``).
UNKNOWN = "unknown"


@dataclass(frozen=True)
class LabelStudioAnnotation:
    """One annotation (or prediction) of one task.

    Attributes
    ----------
    task : str
        The task's id (the document id).
    annotator : str
        Who made it: the annotator's id (``completed_by``), or
        ``"predictions:VERSION"`` for a prediction of model ``VERSION``.
    spans : tuple of ToolSpan
        Its spans, offsets as Python indices, with their scores.
    cancelled : bool
        A cancelled (skipped) annotation: counted, never scored.
    """

    task: str
    annotator: str
    spans: tuple[ToolSpan, ...]
    cancelled: bool = False


@dataclass(frozen=True)
class LabelStudioExport:
    """A Label Studio export: texts, annotations and predictions, and what reading counted.

    Attributes
    ----------
    path : str
        The file.
    texts : dict of str to str
        Task id -> text, in file order.
    annotations : tuple of LabelStudioAnnotation
        Every annotation, cancelled ones included, in file order.
    predictions_ : tuple of LabelStudioAnnotation
        Every prediction (annotator ``"predictions:VERSION"``).
    counts : dict of str to int
        What was counted: ``utf16`` (spans whose offsets counted UTF-16 code
        units, converted), ``multi_label`` (spans with several labels),
        ``no_annotator`` (annotations naming no annotator, read as ``"unknown"``),
        ``no_label`` (spans with an empty list of labels, left out),
        ``ignored:TYPE`` (results that are not spans), ``untyped`` (results
        without a type, or not objects), ``repeated`` (a second
        annotation of one annotator, or prediction of one model, on one
        task; the last is kept).
    counts_by : dict of str to dict
        The same counts per annotator (and per ``"predictions:VERSION"``).
    aliases : dict of str to str
        Email -> annotator id, where the export gives emails.
    """

    path: str
    texts: dict[str, str]
    annotations: tuple[LabelStudioAnnotation, ...]
    predictions_: tuple[LabelStudioAnnotation, ...] = ()
    counts: dict[str, int] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    counts_by: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def annotators(self) -> tuple[str, ...]:
        """The annotators, in order of first appearance (cancelled annotations included)."""
        return tuple(dict.fromkeys(a.annotator for a in self.annotations))

    @property
    def model_versions(self) -> tuple[str, ...]:
        """The model versions of the predictions, in order of first appearance."""
        return tuple(dict.fromkeys(a.annotator.partition(":")[2] for a in self.predictions_))

    @property
    def cancelled(self) -> dict[str, int]:
        """Annotator -> number of cancelled (skipped) annotations, never scored."""
        return dict(Counter(a.annotator for a in self.annotations if a.cancelled))

    def _annotator(self, annotator: str | int) -> str:
        name = self.aliases.get(str(annotator), str(annotator))
        if name not in self.annotators:
            known = ", ".join(map(quoted, self.annotators)) or "none"
            close = closest(name, self.annotators)
            hint = f" Did you mean {quoted(close)}?" if close else ""
            raise OptionError(f"{self.path}: no annotator {quoted(name)}; the annotators are {known}."
                              f"{hint}", option="annotator")
        return name

    def _documents(self, records: Iterable[LabelStudioAnnotation]) -> list[Document]:
        kept = {r.task: r for r in records if not r.cancelled}
        return [Document(task, entities(kept[task].spans),
                         self.texts[task], source=self.path)
                for task in self.texts if task in kept]

    def documents(self, annotator: str | int) -> list[Document]:
        """The tasks ``annotator`` annotated (not cancelled), as documents, in file order.

        Parameters
        ----------
        annotator : str or int
            An annotator of :attr:`annotators` (or the email of one).

        Returns
        -------
        list of Document

        Raises
        ------
        OptionError
            For an unknown annotator, listing those there are.
        """
        name = self._annotator(annotator)
        return self._documents(a for a in self.annotations if a.annotator == name)

    def unannotated(self, annotator: str | int) -> list[str]:
        """The tasks without a (not cancelled) annotation of ``annotator``."""
        name = self._annotator(annotator)
        done = {a.task for a in self.annotations if a.annotator == name and not a.cancelled}
        return [t for t in self.texts if t not in done]

    def predictions(self, model_version: str | None = None) -> list[Document]:
        """The predictions of every task that has one, as documents.

        Parameters
        ----------
        model_version : str, optional
            The model whose predictions to read; needed when the export holds
            predictions of several.

        Returns
        -------
        list of Document

        Raises
        ------
        OptionError
            For an unknown model version, or none given where there are several.
        """
        versions = self.model_versions
        if model_version is None and len(versions) > 1:
            raise OptionError(
                f"{self.path} holds predictions of {len(versions)} models "
                f"({', '.join(map(quoted, versions))}); choose one with annotator="
                f"'{PREDICTIONS}:VERSION' (--pred-annotator {PREDICTIONS}:VERSION).",
                option="annotator")
        if model_version is not None and model_version not in versions:
            raise OptionError(f"{self.path}: no predictions of model {quoted(model_version)}; the "
                              f"models are {', '.join(map(quoted, versions)) or 'none'}.",
                              option="annotator")
        if model_version is None:
            return self._documents(self.predictions_)
        name = f"{PREDICTIONS}:{model_version}"
        return self._documents(p for p in self.predictions_ if p.annotator == name)

    def spans(self, annotator: str) -> dict[str, tuple[ToolSpan, ...]]:
        """Task id -> the spans (with text and score) of ``annotator`` or ``"predictions:V"``."""
        pool = self.predictions_ if annotator.startswith(PREDICTIONS) else self.annotations
        name = annotator if annotator.startswith(PREDICTIONS) else self._annotator(annotator)
        return {a.task: a.spans for a in pool if not a.cancelled
                and (a.annotator == name or name == PREDICTIONS)}

    def notes(self, annotators: Iterable[str] | None = None, *,
              unnamed: bool = False) -> tuple[str, ...]:
        """What reading counted, as sentences naming the file.

        Parameters
        ----------
        annotators : iterable of str, optional
            Only what was counted reading these annotators (and
            ``"predictions:VERSION"``); default: everything.
        unnamed : bool
            Also count the annotations that name no annotator (no
            ``completed_by``), read as annotator ``"unknown"``: where the
            annotator matters (agreement, adjudication).

        Returns
        -------
        tuple of str

        Examples
        --------
        >>> LabelStudioExport("ls.json", {}, (LabelStudioAnnotation("1", "2", (), True),),
        ...                   counts={"utf16": 3}).notes()
        ("ls.json: 1 cancelled (skipped) annotation(s), left out: '2': 1.", 'ls.json: 3 span(s) had offsets counting UTF-16 code units (characters beyond U+FFFF count two), converted to character offsets.')
        """
        out = []
        who = None if annotators is None else set(annotators)
        cancelled = {a: n for a, n in self.cancelled.items() if who is None or a in who}
        if cancelled:
            per = ", ".join(f"{quoted(a)}: {n}" for a, n in cancelled.items())
            out.append(f"{sum(cancelled.values())} cancelled (skipped) annotation(s), left "
                       f"out: {per}.")
        c = self.counts if who is None else sum(
            (Counter(self.counts_by.get(a, {})) for a in sorted(who)), Counter())
        if unnamed and c.get("no_annotator"):
            n = c["no_annotator"]
            out.append(f"{n} annotation{'' if n == 1 else 's'} name{'s' if n == 1 else ''} no "
                       f"annotator (no 'completed_by'): read as annotator {quoted(UNKNOWN)}.")
        if c.get("utf16"):
            out.append(utf16_note(c["utf16"]))
        if c.get("multi_label"):
            out.append(f"{c['multi_label']} span(s) had several labels: read as one span per "
                       "label.")
        if c.get("no_label"):
            out.append(f"{c['no_label']} span(s) had an empty list of labels: left out.")
        if c.get("repeated"):
            out.append(f"{c['repeated']} task(s) had two annotations of one annotator (or two "
                       "predictions of one model): the last one was read.")
        ignored = [_results(k.partition(":")[2], n) for k, n in sorted(c.items())
                   if k.startswith("ignored:")]
        if c.get("untyped"):  # not an object with a type
            ignored.append(f"{c['untyped']} {'result' if c['untyped'] == 1 else 'results'} "
                           "without a 'type'")
        if ignored:
            out.append("ignored results that are not spans: " + ", ".join(ignored) + ".")
        return tuple(f"{self.path}: {n}" for n in out)


def _results(kind: str, n: int) -> str:
    """``n`` ignored results of type ``kind``: ``1 result of type 'choices'``."""
    return f"{n} {'result' if n == 1 else 'results'} of type {quoted(kind)}"


def read_label_studio(path: str | os.PathLike[str], *, encoding: str = "utf-8",
                      offsets: str = "auto") -> LabelStudioExport:
    r"""Read a Label Studio JSON export.

    Parameters
    ----------
    path : str or path-like
        The export (a JSON array of tasks).
    encoding : str
        Text encoding of the file.
    offsets : {"auto", "python", "utf16"}
        What the offsets count; ``"auto"`` decides from ``value.text``.

    Returns
    -------
    LabelStudioExport
        ``.annotators``, ``.documents(annotator)``, ``.predictions()``,
        ``.cancelled`` and ``.notes()``.

    Raises
    ------
    FormatError
        For malformed JSON, a task without text, a malformed result, a
        ``value.text`` that is not at its offsets, or duplicate task ids.

    Examples
    --------
    >>> ls = read_label_studio("tests/data/label_studio/export.json")
    >>> ls.annotators, ls.cancelled
    (('1', '2'), {'2': 1})
    >>> [(d.id, d.span_texts()) for d in ls.documents("1")]
    [('1', ['Anna Smith', 'Berlin']), ('2', ['ACME', 'Paris'])]
    >>> [(d.id, d.span_texts()) for d in ls.predictions()]
    [('1', ['Anna Smith', 'Berlin']), ('2', ['ACME'])]
    """
    source = os.fspath(path)
    units = check_units(offsets)
    tasks = load_json(path, encoding)
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise FormatError(f"{source}: expected a JSON array of tasks (Label Studio's JSON "
                          f"export); got {json_kind(tasks)}.", source=source)
    by: dict[str, Counter[str]] = {}
    aliases: dict[str, str] = {}
    texts: dict[str, str] = {}
    anns: list[LabelStudioAnnotation] = []
    preds: list[LabelStudioAnnotation] = []
    for k, task in enumerate(tasks):
        if not isinstance(task, dict):
            raise FormatError(f"{source}: task {k + 1} is not an object.", source=source)
        raw_id = task.get("id", k + 1)
        task_id = str(raw_id)
        where = f"task {task_id}"
        if task_id in texts:
            raise FormatError(f"{source}: task id {task_id} appears twice; ids must be unique.",
                              source=source)
        text = texts[task_id] = task_text(task, source, where)
        seen: dict[str, int] = {}  # annotator -> index in anns, for this task
        models: dict[str, int] = {}  # "predictions:VERSION" -> index in preds
        for n, ann in enumerate(task_records(task, ("annotations", "completions"), source, where)):
            named = annotator_of(ann, aliases)
            name = UNKNOWN if named is None else named
            counts = by.setdefault(name, Counter())
            if named is None:
                counts["no_annotator"] += 1
            at = f"{where}, annotation {ann.get('id', n + 1)}"
            spans = python_offsets(text, result_spans(ann.get("result", []), at, None, source,
                                                      counts), units=units, source=source,
                                   counts=counts)
            record = LabelStudioAnnotation(task_id, name, tuple(spans),
                                           bool(ann.get("was_cancelled")))
            if not record.cancelled and name in seen:
                counts["repeated"] += 1
                anns[seen[name]] = record
                continue
            if not record.cancelled:
                seen[name] = len(anns)
            anns.append(record)
        for n, pred in enumerate(task_records(task, ("predictions",), source, where)):
            version = str(pred.get("model_version") or "")
            counts = by.setdefault(f"{PREDICTIONS}:{version}", Counter())
            at = f"{where}, prediction {pred.get('id', n + 1)}"
            spans = python_offsets(text, result_spans(pred.get("result", []), at,
                                                      pred.get("score"), source, counts),
                                   units=units, source=source, counts=counts)
            model = LabelStudioAnnotation(task_id, f"{PREDICTIONS}:{version}", tuple(spans))
            if model.annotator in models:  # a second prediction of one model: the last is read
                counts["repeated"] += 1
                preds[models[model.annotator]] = model
                continue
            models[model.annotator] = len(preds)
            preds.append(model)
    total = sum(by.values(), Counter())
    return LabelStudioExport(source, texts, tuple(anns), tuple(preds),
                             dict(sorted(total.items())), aliases,
                             {k: dict(sorted(c.items())) for k, c in by.items()})


def select(export: LabelStudioExport, annotator: str | int | None = None,
           side: str | None = "gold") -> tuple[list[Document], tuple[str, ...]]:
    """The documents one side of a score reads from an export, and the notes on the choice.

    Parameters
    ----------
    export : LabelStudioExport
        The export.
    annotator : str or int, optional
        An annotator, ``"predictions"`` or ``"predictions:VERSION"``. Default:
        the only annotator for ``side="gold"``, the predictions for
        ``side="pred"``.
    side : {"gold", "pred"} or None
        Which side the documents are (None: read as gold, outside a score,
        as ``convert`` does). Gold documents of the tasks the
        annotator did not annotate (or cancelled) are unannotated (one ignore
        region over the text: predictions there count neither way); on the
        prediction side such tasks are left out (predicting nothing). Outside
        a score they are kept the gold way, and the note says so without
        speaking of scores (``convert`` writes them without entities).

    Returns
    -------
    (list of Document, tuple of str)
        The documents, and notes on what reading them counted.

    Raises
    ------
    AnnotatorChoiceError
        Where no annotator is given and the export has several (or none).
    OptionError
        Where no predictions are there to read.

    Examples
    --------
    >>> ls = read_label_studio("tests/data/label_studio/export.json")
    >>> docs, notes = select(ls, "2")
    >>> [(d.id, len(d.spans), len(d.ignore)) for d in docs]
    [('1', 2, 0), ('2', 0, 1)]
    >>> for note in notes:
    ...     print(note)
    tests/data/label_studio/export.json: 1 cancelled (skipped) annotation(s), left out: '2': 1.
    tests/data/label_studio/export.json: ignored results that are not spans: 1 result of type 'choices'.
    tests/data/label_studio/export.json: 1 task(s) without an annotation of '2' (cancelled or not done) are not scored: predictions there count neither way.
    >>> select(ls, "2", side=None)[1][-1]
    "tests/data/label_studio/export.json: 1 task(s) without an annotation of '2' (cancelled or not done) are kept without entities, their whole text a region to ignore."
    """
    if side not in ("gold", "pred", None):
        raise ValueError(f"Expected `side` to be 'gold', 'pred' or None; got {side!r}.")
    if annotator is None and side == "pred":
        annotator = PREDICTIONS
    if annotator is None:
        names, which = export.annotators, "one" if side is None else "the gold one"
        if not names:
            tasks = counted(len(export.texts), "task")
            message = (f"{export.path} holds no annotations in its {tasks}; "
                       + (f"read its predictions with annotator='{PREDICTIONS}'."
                          if export.predictions_ else
                          "export the project once its tasks are annotated."))
            raise AnnotatorChoiceError(message, source=export.path, annotators=names)
        if len(names) != 1:
            listed = ", ".join(map(quoted, names))
            message = (f"{export.path} holds annotations of {len(names)} annotators ({listed}); "
                       f"choose {which} with annotator=NAME.")
            raise AnnotatorChoiceError(message, source=export.path, annotators=names)
        annotator = names[0]
    name = str(annotator)
    if name == PREDICTIONS or name.startswith(PREDICTIONS + ":"):
        if not export.predictions_:
            raise OptionError(f"{export.path} holds no predictions; score an annotator with "
                              f"annotator=NAME; the annotators are "
                              f"{', '.join(map(quoted, export.annotators)) or 'none'}.",
                              option="annotator")
        version = name.partition(":")[2] if ":" in name else None
        models = [p.annotator for p in export.predictions_
                  if version is None or p.annotator == f"{PREDICTIONS}:{version}"]
        return export.predictions(version), export.notes(models)
    docs = export.documents(name)
    missing = export.unannotated(name)
    who = export._annotator(name)
    read = export.notes([who])
    if not missing:
        return docs, read
    if side == "pred":
        return docs, (*read, f"{export.path}: {len(missing)} task(s) without an annotation of "
                      f"{quoted(who)} predict nothing.")
    done = {d.id: d for d in docs}
    out = [done.get(t) or Document(t, (), text, source=export.path, ignore=(Span(0, len(text)),))
           for t, text in export.texts.items()]
    kept = ("are not scored: predictions there count neither way" if side == "gold" else
            "are kept without entities, their whole text a region to ignore")
    return out, (*read, f"{export.path}: {len(missing)} task(s) without an annotation of "
                 f"{quoted(who)} (cancelled or not done) {kept}.")


def _task(doc: Document, k: int) -> dict[str, Any]:
    text = text_of(doc, "Label Studio tasks")
    result = [{"id": f"{doc.id}-{n}", "from_name": "label", "to_name": "text",
               "type": "labels", "origin": "manual",
               "value": {"start": e.start, "end": e.end, "text": text[e.start:e.end],
                         "labels": [e.label]}}
              for n, e in enumerate(doc.spans, 1)]
    return {"id": record_id(doc.id), "data": {"text": text},
            "annotations": [{"id": k, "result": result, "was_cancelled": False}]}


def write_label_studio(documents: Iterable[Document], path: str | os.PathLike[str], *,
                       encoding: str = "utf-8") -> None:
    r"""Write documents as a Label Studio JSON export: one task each, its spans one annotation.

    Offsets are Python character offsets and every result stores its
    ``value.text``, so that a reader (nerscore's included) can tell the unit.
    A document id written as an integer (``12``, not ``007``) is an integer task id.

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
    >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "tasks.json"
    >>> write_label_studio([Document("3", [(0, 4, "PER")], "Anna flew")], tmp)
    >>> [(d.id, d.span_texts()) for d in read_label_studio(tmp).documents("unknown")]
    [('3', ['Anna'])]
    """
    with atomic_open(path, "w", encoding=encoding, errors=JSON_ESCAPES, newline="\n") as fh:
        fh.write("[")
        for k, doc in enumerate(documents):
            fh.write(("\n" if k == 0 else ",\n") + json.dumps(_task(doc, k + 1),
                                                               ensure_ascii=False))
        fh.write("\n]\n")


# ----------------------------------------------------------------------------- the format


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    given = dict(options)
    annotator, side = given.pop("annotator", None), given.pop("side", None)
    export = read_label_studio(path, **given)
    docs, notes = select(export, annotator, side)
    return ReadResult(docs, notes, source=export)


def _annotators(path: str, options: Mapping[str, Any]) -> AnnotatorSets:
    ls = read_label_studio(path, **{k: options[k] for k in ("encoding", "offsets") if k in options})
    return AnnotatorSets({a: ls.documents(a) for a in ls.annotators},
                         ls.notes(ls.annotators, unnamed=True))


def _write_spans(chunks: Iterable[list[Document]], target: str, options: WriteOptions) -> int:
    documents = Counted(chunks)
    write_label_studio(documents.items(), target, encoding=options.encoding)
    return documents.count


#: The ``label-studio`` format (no suffix of its own: ``.json`` is JSON Lines).
FORMAT = register_format(Format(
    "label-studio", "Label Studio JSON export: tasks with annotations and predictions",
    kind="spans", read=_read, options=("encoding", "offsets", "annotator", "side"),
    write_spans=_write_spans, annotators=_annotators, escapes=True,
))
