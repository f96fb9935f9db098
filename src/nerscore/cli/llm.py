"""Model outputs on the command line: ``score`` and ``convert`` on ``output``/``mentions`` records.

``nerscore score GOLD LLM.jsonl`` recognises a prediction file whose first
record carries ``"output"`` or ``"mentions"`` instead of ``"spans"``
(:func:`nerscore.io.llm_records.is_llm_file`) and scores it with
:func:`nerscore.evaluate_llm`; ``nerscore convert LLM.jsonl OUT.jsonl --gold
GOLD`` writes the aligned spans. The gold file is any span format with texts
(JSON Lines, BRAT) or a tag file with tokens (CoNLL, Parquet), whose
sentences are then numbered ``"1"``, ``"2"``, ... (docs/llm.md).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from nerscore.cli import _options as opt
from nerscore.cli._output import is_alias_file, note
from nerscore.errors import quoted

if TYPE_CHECKING:
    from nerscore.io.formats import Format, ReadResult
    from nerscore.scoring.llm import AlignedOutputs
    from nerscore.scoring.report import Report
    from nerscore.values.documents import Document

__all__ = ["add_llm_options", "gold_documents", "is_llm_prediction", "label_aliases",
           "llm_keywords", "run_llm_score"]


class LazyChoices(Sequence[str]):
    """The choices of an option, read from the module that defines them when first needed.

    A command that does not use the option (or print its help) never imports
    that module: scoring two CoNLL files needs none of the model-output code.

    Parameters
    ----------
    module : str
        The module holding the values.
    name : str
        The name of the tuple of values in it.
    extra : tuple of str
        Values added after those.

    Examples
    --------
    >>> choices = LazyChoices("nerscore.decode.mentions", "SNAPS")
    >>> "expand" in choices, list(choices)
    (True, ['contract', 'expand', 'strict'])
    """

    def __init__(self, module: str, name: str, extra: tuple[str, ...] = ()) -> None:
        self._where = (module, name)
        self._extra = extra
        self._loaded: tuple[str, ...] | None = None

    def _values(self) -> tuple[str, ...]:
        if self._loaded is None:
            import importlib

            module, name = self._where
            self._loaded = (*getattr(importlib.import_module(module), name), *self._extra)
        return self._loaded

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._values()[index]

    def __len__(self) -> int:
        return len(self._values())

    def __iter__(self) -> Iterator[str]:
        return iter(self._values())

    def __contains__(self, value: object) -> bool:
        return value in self._values()


def add_llm_options(parser: argparse.ArgumentParser, *, normalize: bool = False) -> None:
    """Add the options of model outputs: ``--align``, ``--snap``, ``--label-alias``, ``--output-format``.

    In ``score``, ``--normalize`` is the ``mention`` matcher's flag, and for
    model outputs also how mentions are found in the text; other commands
    get it here (``normalize=True``).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    normalize : bool
        Also add ``--normalize``.
    """
    mentions = "nerscore.decode.mentions"
    group = parser.add_argument_group(
        "model outputs (records with \"output\" or \"mentions\"; docs/llm.md)")
    if normalize:
        group.add_argument("--normalize", choices=LazyChoices(mentions, "NORMALIZATIONS"), default=None,
                           help="how mention strings are found in the text (default: exact)")
    group.add_argument("--align", choices=LazyChoices(mentions, "POLICIES", ("spacy-llm",)), default=None,
                       help="which occurrence a repeated string takes: sequential (the k-th "
                            "mention the k-th free occurrence; default), first, all, or "
                            "spacy-llm (as spacy-llm's spacy.NER.v2 task; CoNLL gold); "
                            "--normalize exact|casefold|loose says how strings are found")
    group.add_argument("--snap", choices=LazyChoices(mentions, "SNAPS"), default=None,
                       help="tag gold (tokens): how character spans snap to token boundaries "
                            "(default: contract)")
    group.add_argument("--label-alias", action="append", default=None, metavar="LABEL=A,B",
                       help="read answer labels A, B as the gold label LABEL (repeatable), or "
                            "a JSON file {\"LABEL\": [\"A\", \"B\"]}; labels always match "
                            "case-insensitively")
    group.add_argument("--output-format",
                       choices=LazyChoices("nerscore.io.llm_output", "LLM_FORMATS"), default=None,
                       help="how \"output\" strings are read (default: auto)")


def is_llm_prediction(path: str, fmt: Format, encoding: str = "utf-8") -> bool:
    """Whether ``path`` is a JSON Lines file of model outputs.

    Parameters
    ----------
    path : str
        The prediction file.
    fmt : Format
        Its format.
    encoding : str
        Its encoding.

    Returns
    -------
    bool
    """
    if fmt.name != "jsonl" or not os.path.isfile(path):
        return False  # the model-output readers are imported for JSON Lines files only
    from nerscore.io.llm_records import is_llm_file

    return is_llm_file(path, encoding=encoding)


def label_aliases(values: list[str] | None) -> dict[str, list[str]] | None:
    """``--label-alias`` values (``LABEL=A,B`` or a JSON file) as ``{label: [aliases]}``.

    Parameters
    ----------
    values : list of str or None
        What was given.

    Returns
    -------
    dict or None

    Raises
    ------
    UsageError
        For a value that is neither, and for a file that is not one object of
        labels each mapped to an alias or a list of aliases, all non-empty
        strings.
    FormatError
        For a file that is not UTF-8 or not JSON (nested too deeply to read
        included), naming file and line.

    Examples
    --------
    >>> label_aliases(["LOC=location,place", "PER=person"])
    {'LOC': ['location', 'place'], 'PER': ['person']}
    """
    if not values:
        return None
    out: dict[str, list[str]] = {}
    for value in values:
        if not is_alias_file(value):
            label, _, names = value.partition("=")
            aliases = [a.strip() for a in names.split(",")]
            if not label.strip() or not all(aliases):
                raise opt.UsageError(f"--label-alias needs LABEL=ALIAS[,ALIAS...], each alias "
                                     f"non-empty; got {quoted(value)}")
            out.setdefault(label.strip(), []).extend(aliases)
            continue
        from nerscore.io._json_text import read_json_file

        try:
            data = read_json_file(value, "a --label-alias file", expect="a --label-alias file "
                                  'holds one object {"LABEL": ["alias", ...]}')
        except OSError:
            raise opt.UsageError(f"--label-alias takes LABEL=ALIAS[,ALIAS...] or a JSON file; "
                                 f"{value!r} is neither") from None
        for label, aliases in _file_aliases(value, data):
            out.setdefault(label, []).extend(aliases)
    return out


def _file_aliases(path: str, data: Any) -> Iterator[tuple[str, list[str]]]:
    """The ``(label, aliases)`` of a ``--label-alias`` file's JSON value, every one a string.

    Examples
    --------
    >>> list(_file_aliases("a.json", {"LOC": ["location", "place"], "PER": "person"}))
    [('LOC', ['location', 'place']), ('PER', ['person'])]
    >>> list(_file_aliases("a.json", {"LOC": ["location", 3]}))
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: --label-alias file a.json: label 'LOC' has the alias 3, \
which is not a string; write each alias as a JSON string: {"LABEL": ["alias", ...]}
    """
    shape = '{"LABEL": ["alias", ...]}'
    if not isinstance(data, dict):
        raise opt.UsageError(f"--label-alias file {path}: expected an object {shape}")
    for label, aliases in data.items():
        if not label.strip():
            raise opt.UsageError(f"--label-alias file {path}: the label {quoted(label)} is "
                                 f"empty; write the gold label each alias stands for: {shape}")
        listed = [aliases] if isinstance(aliases, str) else aliases
        if not isinstance(listed, list) or not listed:
            raise opt.UsageError(f"--label-alias file {path}: label {quoted(label)} maps to "
                                 f"{quoted(aliases)}; write its aliases as a list of strings: "
                                 f"{shape}")
        for alias in listed:
            if not isinstance(alias, str) or not alias.strip():
                what = "an empty string" if isinstance(alias, str) else "not a string"
                raise opt.UsageError(f"--label-alias file {path}: label {quoted(label)} has the "
                                     f"alias {quoted(alias)}, which is {what}; write each alias "
                                     f"as a JSON string: {shape}")
        yield label, listed


def gold_documents(args: argparse.Namespace, fmt: Format, reading: dict[str, Any],
                   loaded: ReadResult | None = None,
                   ) -> tuple[list[Document], list[list[str]] | None, ReadResult]:
    """The gold file as documents with texts, or with token spans and the tokens.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments (the decoding options of tag files).
    fmt : Format
        The gold file's format.
    reading : dict
        Its reader options.
    loaded : ReadResult, optional
        The gold file, when it was read already.

    Returns
    -------
    tuple
        The documents, the tokens of each (None for span files) and the read result.
    """
    from nerscore.decode.entities import tags_to_entities
    from nerscore.values.documents import Document

    gold = fmt.load(args.gold, reading) if loaded is None else loaded
    if fmt.kind_of(args.gold, reading) == "spans":
        docs = list(gold.data)
        if any(d.text is None for d in docs):
            raise opt.UsageError(f"{args.gold}: model outputs are aligned to the gold text, and "
                                 "its documents have no \"text\"")
        return docs, None, gold
    tokens = gold.data.sentence_tokens()
    if tokens is None:
        raise opt.UsageError(f"{args.gold}: model outputs are aligned to the gold tokens, and "
                             "the file has none")
    ents = tags_to_entities(gold.data, scheme=args.scheme, mode=args.mode,
                            **opt.tag_kwargs(args))
    per: list[list[Any]] = [[] for _ in range(len(tokens))]
    for e in ents:
        per[e.sentence].append(e)
    docs = [Document(str(k + 1), tuple(s)) for k, s in enumerate(per)]
    return docs, [list(t) for t in tokens], gold


def llm_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`nerscore.evaluate_llm` given on the command line.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    dict
    """
    normalize = getattr(args, "llm_normalize", None) or args.normalize
    return {"align": args.align or "sequential", "normalize": normalize or "exact",
            "snap": args.snap or "contract", "label_aliases": label_aliases(args.label_alias)}


def run_llm_score(args: argparse.Namespace, gold_fmt: Format, reading: dict[str, Any],
                  pred_encoding: str = "utf-8") -> int:
    """``nerscore score`` on a file of model outputs.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    gold_fmt : Format
        The gold file's format.
    reading : dict
        The gold file's reader options.
    pred_encoding : str
        The prediction file's encoding.

    Returns
    -------
    int
        The exit status (0).

    Raises
    ------
    UsageError
        For an option of ``score`` that model outputs have no use for
        (:func:`~nerscore.cli._unused.check_scored_outputs`), and a reading
        option that neither file's format takes.
    """
    import dataclasses

    from nerscore.cli import _formats as fm
    from nerscore.cli._output import output_renderer, write_result
    from nerscore.cli._unused import check_scored_outputs
    from nerscore.io.llm_records import read_llm_records
    from nerscore.render.registry import ScoreOutput
    from nerscore.scoring.llm import align_outputs, score_aligned

    check_scored_outputs(args, gold_fmt.kind_of(args.gold, reading) == "tags", [args.pred],
                         every=True)
    fm.check_reader_flags(args, [("gold", gold_fmt),
                                 ("pred", fm.input_format(args.pred, args.pred_format))])
    resampling = opt.resampling_kwargs(args)  # checks --resamples, --level, --seed need --ci
    keywords = llm_keywords(args)
    args.normalize = None  # one flag: the alignment's, and the mention matcher's with it
    options = opt.match_kwargs(args)
    asked = [e for e, on in (("confusion", args.confusion), ("breakdown", args.breakdown),
                             ("intervals", args.ci)) if on]
    renderer = output_renderer(args, "scores", asked)  # a usage error before any reading
    docs, tokens, gold = gold_documents(args, gold_fmt, reading)
    records = read_llm_records(args.pred, output_format=args.output_format or "auto",
                               encoding=pred_encoding)
    aligned = align_outputs(docs, records, tokens=tokens, **keywords)  # once, for --ci too
    report = score_aligned(aligned, match=args.match, token_units=tokens is not None,
                           beta=args.beta, zero_division=args.zero_division, **options)
    if gold.notes:
        report = dataclasses.replace(report, notes=tuple(report.notes) + tuple(gold.notes))
    confusion = breakdown = None
    if args.confusion:
        from nerscore.analysis.confusion import confusion_from_report

        confusion = confusion_from_report(report)
    if args.breakdown is not None:
        from nerscore.analysis.breakdowns import breakdown_from_report

        breakdown = breakdown_from_report(report, by=args.breakdown)
    intervals = None
    if args.ci:
        intervals = llm_intervals(args, aligned, tokens is not None, gold, options, resampling)
    output = ScoreOutput(report, confusion, breakdown, intervals)
    write_result(renderer.functions["scores"](output, args.digits), args.output)
    if not renderer.shows_notes:
        for n in report.notes:
            note("score", n)
    if args.errors is not None:
        k = write_llm_errors(report, args.errors, gold)
        note("score", f"wrote {k} entity error{'s' if k != 1 else ''} to {args.errors}")
    return 0


def llm_intervals(args: argparse.Namespace, aligned: AlignedOutputs, token_units: bool,
                  gold: ReadResult, options: dict[str, Any], resampling: dict[str, Any]) -> Any:
    """``score --ci`` on model outputs: documents resampled, parse failures and all.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    aligned : AlignedOutputs
        The outputs aligned to the gold documents.
    token_units : bool
        Whether they were aligned to the tokens of tag gold.
    gold : ReadResult
        The gold file as read (CoNLL ``-DOCSTART-`` lines group its sentences).
    options, resampling : dict
        The matcher's options and the resampling settings.

    Returns
    -------
    Comparison
    """
    import nerscore
    from nerscore.analysis.significance.llm_units import aligned_sequence_counts
    from nerscore.cli._intervals import documents_of
    from nerscore.cli._progress import ProgressBar

    counts = aligned_sequence_counts(aligned, match=args.match, token_units=token_units,
                                     **options)
    bar = ProgressBar("bootstrap", unit="resamples")
    try:
        return nerscore.confidence_intervals(
            aligned.gold, counts, match=args.match, documents=documents_of(gold, "document"),
            zero_division=args.zero_division, progress=bar, **resampling, **options)
    finally:
        bar.close()


def write_llm_errors(report: Report, path: str, gold: ReadResult) -> int:
    """The entity errors of ``report``, then one ``unaligned`` record per unaligned mention.

    An unaligned mention has no offsets: its record has the category
    ``unaligned``, the document, the mention's text (``pred_text``) and label,
    and no start or end; its sequence is the document's index (-1 for an
    output whose document gold does not have).

    Parameters
    ----------
    report : Report
        A report of :func:`nerscore.evaluate_llm`.
    path : str
        The file (.jsonl or .csv).
    gold : ReadResult
        The gold file, for the texts.

    Returns
    -------
    int
        Records written.
    """
    from nerscore.analysis.errors import errors_from_report, write_errors
    from nerscore.analysis.llm_errors import unaligned_errors

    records = [*errors_from_report(report, texts=gold.texts()), *unaligned_errors(report)]
    fmt = "csv" if path.lower().endswith(".csv") else "jsonl"
    return write_errors(records, path, format=fmt)


def run_llm_convert(args: argparse.Namespace) -> int:
    """``nerscore convert LLM.jsonl OUT.jsonl --gold GOLD``: write the aligned spans.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).

    Raises
    ------
    UsageError
        For an option of ``convert`` that aligning has no use for (those of
        tag output, ``--chunk-size``, the label operations; with span gold
        those of the gold's tags and ``--snap``), and a reading option that
        the gold's format does not take.
    """
    from nerscore.cli import _formats as fm
    from nerscore.cli._unused import check_convert_outputs
    from nerscore.io.jsonl import write_jsonl
    from nerscore.io.llm_records import read_llm_records
    from nerscore.scoring.llm import align_outputs

    if args.gold is None:
        raise opt.UsageError(f"{args.source} holds model outputs: give the gold file their "
                             "mentions are aligned to with --gold GOLD")
    if args.to_format not in (None, "jsonl") or (not args.target.lower().endswith(
            (".jsonl", ".json", ".ndjson")) and args.to_format is None):
        raise opt.UsageError("aligned model outputs are written as JSON Lines (OUT.jsonl)")
    gold_fmt = fm.input_format(args.gold, None)
    reading = fm.reader_options(args, gold_fmt, "gold")
    check_convert_outputs(args, gold_fmt.kind_of(args.gold, reading) == "tags")
    fm.check_reader_flags(args, [(None, gold_fmt)], ignore=("encoding",))
    args.scheme = args.from_scheme
    docs, tokens, _ = gold_documents(args, gold_fmt, reading)
    records = read_llm_records(args.source, output_format=args.output_format or "auto",
                               encoding=args.encoding)
    keywords = llm_keywords(args)
    aligned = align_outputs(docs, records, tokens=tokens, **keywords)
    from nerscore.values.documents import Document

    pred = []
    for k, doc in enumerate(docs):
        spans = aligned.pred[str(doc.id)]
        if tokens is None:
            pred.append(Document(doc.id, tuple(spans), doc.text))  # type: ignore[arg-type]
            continue
        from nerscore.decode.offsets import token_spans_to_char_spans

        text = " ".join(tokens[k])  # tokens joined by one space, as convert writes tags as spans
        pred.append(Document(doc.id, tuple(token_spans_to_char_spans(spans, tokens[k],
                                                                     text=text)), text))
    write_jsonl(pred, args.target, encoding=args.encoding)
    for n in aligned.summary.notes():
        note("convert", n)
    note("convert", f"wrote {len(pred)} document{'s' if len(pred) != 1 else ''} of aligned "
                    f"spans to {args.target}")
    return 0
