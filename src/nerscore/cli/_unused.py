"""Options a command takes that a run has no use for: refused, never ignored.

A :class:`Table` lists the options of one meaning as :class:`Unused` rows
(flag, attribute, default, what the option does) with what they do said of
several; :func:`refuse_unused` refuses every one of a table given, in one
usage error of one line: the flags, what they do, why this run has no use
for them, and what to do. Each table is here once, for every check that
needs it: the options of the tags of tag files (:data:`TAGS`, refused for
span files by :func:`check_span_inputs`), of model outputs
(:data:`MODEL_OUTPUTS`, refused where no file holds any by
:func:`check_not_outputs`), the label operations, reading chunk by chunk,
choosing a threshold. The checks of the commands that read model outputs
(records with ``"output"`` or ``"mentions"``, docs/llm.md) are here too:
:func:`check_convert_outputs` (``convert LLM.jsonl OUT.jsonl --gold GOLD``)
and :func:`check_scored_outputs` (``score``, ``compare``, ``report``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from nerscore.cli._options import UsageError

if TYPE_CHECKING:
    from nerscore.io.formats import Format

__all__ = ["CHUNKS", "LABEL_OPS", "MODEL_OUTPUTS", "SCHEMA", "TAGS", "THRESHOLDS", "THRESHOLD_FROM", "TOKENS",
           "Table", "Unused", "check_convert_outputs", "check_not_outputs",
           "check_scored_outputs", "check_span_inputs", "holds", "it", "refuse_unused"]


class Unused(NamedTuple):
    """An option, by its flag, attribute and default, and what it does (for the message)."""

    flag: str
    dest: str
    default: object
    what: str


class Table(NamedTuple):
    """Options of one meaning: what they do, said of two or more, and the options."""

    several: str
    rows: tuple[Unused, ...]


#: Why, or what else to do: a text, or one made of the options given.
Said = str | Callable[[Sequence[Unused]], str]


def it(given: Sequence[object]) -> str:
    """``"it"`` for one thing, ``"them"`` for several.

    Examples
    --------
    >>> it(["--snap"]), it(["--snap", "--align"])
    ('it', 'them')
    """
    return "it" if len(given) == 1 else "them"


def refuse_unused(args: argparse.Namespace, options: Table | Unused, why: Said, *,
                  then: Said = "") -> None:
    """Refuse every option of ``options`` given (its attribute differs from its default).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments; an attribute the command lacks counts as not given.
    options : Table or Unused
        The options the run has no use for (one option: a table of one).
    why : str or callable
        Why; a callable gets the options given.
    then : str or callable
        What else the user may do, after "leave it out" (``", or ..."``).

    Raises
    ------
    UsageError
        ``FLAG WHAT; WHY: leave it out THEN``, or ``FLAG, FLAG SEVERAL; WHY:
        leave them out THEN``.

    Examples
    --------
    >>> snap = Unused("--snap", "snap", None, "says how mentions snap to tokens")
    >>> refuse_unused(argparse.Namespace(snap=None), snap, "g.jsonl holds spans")
    >>> refuse_unused(argparse.Namespace(snap="expand"), snap, "g.jsonl holds spans")
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: --snap says how mentions snap to tokens; g.jsonl holds \
spans: leave it out

    Every option of a table given is named in one message:

    >>> table = Table("say how model outputs are read", (
    ...     snap, Unused("--align", "align", None, "says which occurrence a mention takes")))
    >>> refuse_unused(argparse.Namespace(snap="expand", align="first"), table,
    ...               "p.jsonl holds none", then=", or give model outputs")
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: --snap, --align say how model outputs are read; p.jsonl \
holds none: leave them out, or give model outputs
    """
    table = Table("", (options,)) if isinstance(options, Unused) else options
    given = [row for row in table.rows if getattr(args, row.dest, row.default) != row.default]
    if not given:
        return
    what = given[0].what if len(given) == 1 else table.several
    reason = why(given) if callable(why) else why
    more = then(given) if callable(then) else then
    raise UsageError(f"{', '.join(row.flag for row in given)} {what}; {reason}: leave "
                     f"{it(given)} out{more}")


def holds(paths: Sequence[str]) -> str:
    """``"a.jsonl holds"``, or ``"a.jsonl, b.jsonl hold"``.

    Examples
    --------
    >>> holds(["a.jsonl"]), holds(["b.jsonl", "a.jsonl"])
    ('a.jsonl holds', 'a.jsonl, b.jsonl hold')
    """
    return f"{paths[0]} holds" if len(paths) == 1 else f"{', '.join(sorted(paths))} hold"


_READ = "says how the tags of tag files are read (CoNLL, Parquet tags, JSON Lines token records)"
_SPELLED = "says how the tags of tag files are spelled (CoNLL, Parquet tags, JSON Lines token records)"
#: The options of the tags of a file (``--from-scheme`` in ``convert``, ``--scheme``
#: elsewhere), which span files have no use for.
TAGS = Table("say how the tags of tag files are read (CoNLL, Parquet tags, JSON Lines token records)", (
    Unused("--from-scheme", "from_scheme", None, _READ),
    Unused("--scheme", "scheme", None, _READ),
    Unused("--mode", "mode", "lenient", _READ),
    Unused("--suffix", "suffix", False, _SPELLED),
    Unused("--tag-delimiter", "tag_delimiter", "-", _SPELLED),
    Unused("--outside", "outside", "O", _SPELLED),
))
#: The option of the tokens of GOLD and PRED, which span files and model outputs have none of.
TOKENS = Unused("--strict-tokens", "strict_tokens", False,
                "makes a token that differs between GOLD and PRED an error")
#: The options of model outputs (docs/llm.md), which other files have no use for.
_SNAP = Unused("--snap", "snap", None,
               "says how mentions snap to the tokens of tag gold (CoNLL, Parquet tags, JSON Lines token records)")
MODEL_OUTPUTS = Table("say how model outputs are read", (
    Unused("--align", "align", None,
           "says which occurrence of a repeated string a mention of model outputs takes"),
    _SNAP,
    Unused("--label-alias", "label_alias", None,
           "reads answer labels of model outputs as gold labels"),
    Unused("--output-format", "output_format", None,
           "says how the \"output\" strings of model outputs are read"),
))
#: ``--normalize`` of a command without ``--match`` (``convert``); one with it has the
#: ``mention`` matcher's flag, which the matcher options check.
_NORMALIZE = Unused("--normalize", "normalize", None,
                    "says how the mentions of model outputs are found in the text")
#: The options of tag output, which aligned spans written by ``convert`` have no use for.
_TAG_OUTPUT = Table("write tag output", (
    Unused("--to-scheme", "to_scheme", None, "writes the output as tags in a scheme"),
    Unused("--to-suffix/--to-prefix", "to_suffix", None, "spells the output tags"),
    Unused("--to-tag-delimiter", "to_tag_delimiter", None, "spells the output tags"),
    Unused("--to-outside", "to_outside", None, "spells the output tags"),
    Unused("--misaligned", "misaligned", "error", "moves spans onto words for tag output"),
    Unused("--labels-as", "labels_as", "int", "applies to Parquet tag output"),
    Unused("--parquet-kind", "parquet_kind", None, "applies to Parquet output"),
))
#: The options of reading (and scoring) files chunk by chunk.
CHUNKS = Table("read or score the files chunk by chunk", (
    Unused("--chunk-size", "chunk_size", None, "cuts a file converted chunk by chunk"),
    Unused("--chunk-sentences", "chunk_sentences", None, "reads the files chunk by chunk"),
    Unused("--workers", "workers", 0, "scores chunks of the files on a local Dask cluster"),
    Unused("--scheduler", "scheduler", None, "scores chunks of the files on a Dask cluster"),
))
_WHOLE = "model outputs are aligned to the gold file read whole"
#: The label operations (docs/label-ops.md).
_ENTITIES = "acts on the entities read"
LABEL_OPS = Table("act on the entities read", (
    Unused("--map", "label_map", None, _ENTITIES),
    Unused("--map-file", "label_map_file", None, _ENTITIES),
    Unused("--keep", "keep_labels", None, _ENTITIES),
    Unused("--drop", "drop_labels", None, _ENTITIES),
))
#: The SemEval schema of a threshold curve (``--match semeval``).
SCHEMA = Unused("--schema", "schema", None, "says which SemEval schema a threshold curve traces")
#: The options of choosing a threshold on scored predictions.
THRESHOLD_FROM = Unused("--threshold-from", "threshold_from", None,
                        "chooses a threshold on the scores of predictions")
THRESHOLDS = Table("choose a threshold on the scores of predictions", (
    THRESHOLD_FROM,
    Unused("--objective", "objective", None, "says what --threshold-from maximises"),
    SCHEMA,
))


def check_span_inputs(args: argparse.Namespace, formats: Iterable[Format]) -> None:
    """Refuse the options of tags and tokens for span files.

    The reading options of CoNLL files (``--token-column``, ...) are
    refused with those that no input's format takes
    (:func:`~nerscore.cli._formats.check_reader_flags`).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    formats : iterable of Format
        The formats of the inputs, every one of span files (for the message).

    Raises
    ------
    UsageError
        Naming the options given.
    """
    why = f"the inputs are span files ({'/'.join(dict.fromkeys(f.name for f in formats))})"
    refuse_unused(args, TAGS, why)
    refuse_unused(args, TOKENS, why)


def check_not_outputs(args: argparse.Namespace, paths: Sequence[str]) -> None:
    """Refuse the options of model outputs where no file holds any.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    paths : sequence of str
        The files that might have held model outputs (PRED, IN).

    Raises
    ------
    UsageError
        Naming the options given.
    """
    rows = MODEL_OUTPUTS.rows if hasattr(args, "match") else (*MODEL_OUTPUTS.rows, _NORMALIZE)
    refuse_unused(args, MODEL_OUTPUTS._replace(rows=rows),
                  f"{holds(paths)} no model outputs (JSON Lines records with \"output\" or "
                  "\"mentions\" instead of \"spans\")")


def _tag_gold(args: argparse.Namespace, gold: str, tag_gold: bool) -> None:
    """Refuse the options of the gold's tags, and ``--snap``, when ``gold`` holds spans."""
    if not tag_gold:
        refuse_unused(args, TAGS, f"{gold} holds spans")
        refuse_unused(args, _SNAP, f"{gold} holds spans")


def check_convert_outputs(args: argparse.Namespace, tag_gold: bool) -> None:
    """Refuse the options of ``convert`` given that aligning model outputs has no use for.

    Those of tag output, ``--chunk-size``, the label operations, and with
    span gold those of the gold's tags and ``--snap``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of ``convert LLM.jsonl OUT.jsonl --gold GOLD``.
    tag_gold : bool
        Whether GOLD holds tags.

    Raises
    ------
    UsageError
        Naming those of the first table given, why they have no use, and what to do.
    """
    refuse_unused(args, _TAG_OUTPUT, f"{args.target} gets the aligned spans")
    refuse_unused(args, CHUNKS, _WHOLE)
    refuse_unused(args, LABEL_OPS, "the aligned spans are written as aligned", then=lambda given: (
        f", and convert {args.target} again with {', '.join(row.flag for row in given)}"))
    _tag_gold(args, args.gold, tag_gold)


def check_scored_outputs(args: argparse.Namespace, tag_gold: bool, outputs: Sequence[str], *,
                         every: bool) -> None:
    """Refuse the options of ``score``, ``compare`` or ``report`` that model outputs have no use for.

    Reading and scoring files chunk by chunk (``score``), choosing a threshold
    (model outputs have no scores), ``--strict-tokens`` when every PRED holds
    model outputs (none has tokens), and with span gold the options of the
    gold's tags and ``--snap``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    tag_gold : bool
        Whether GOLD holds tags.
    outputs : sequence of str
        The PRED files of model outputs (one or more).
    every : bool
        Whether every PRED holds model outputs.

    Raises
    ------
    UsageError
        Naming those of the first table given, why they have no use, and what to do.
    """
    refuse_unused(args, CHUNKS, _WHOLE)
    refuse_unused(args, THRESHOLDS, f"{holds(outputs)} model outputs, without scores")
    if every:
        refuse_unused(args, TOKENS, f"{holds(outputs)} model outputs, which have no tokens")
    _tag_gold(args, args.gold, tag_gold)
