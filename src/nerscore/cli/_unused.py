"""Options a command takes that a run has no use for: refused, never ignored.

A table lists such options as :class:`Unused` rows (flag, attribute,
default, what the option does); :func:`refuse_unused` refuses the first one
given as a usage error of one line: the flag, what it does, why this run has
no use for it, and what to do. The tables of model outputs (records with
``"output"`` or ``"mentions"``, docs/llm.md) are here, with the checks of the
commands that read them: :func:`check_convert_outputs` (``convert LLM.jsonl
OUT.jsonl --gold GOLD``) and :func:`check_scored_outputs` (``score``,
``compare``, ``report``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from nerscore.cli._options import UsageError

__all__ = ["Unused", "check_convert_outputs", "check_scored_outputs", "holds", "refuse_unused"]


class Unused(NamedTuple):
    """An option, by its flag, attribute and default, and what it does (for the message)."""

    flag: str
    dest: str
    default: object
    what: str


def refuse_unused(args: argparse.Namespace, options: Iterable[Unused],
                  why: str | Callable[[str], str]) -> None:
    """Refuse the first of ``options`` given (its attribute differs from its default).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments; an attribute the command lacks counts as not given.
    options : iterable of Unused
        The options the run has no use for.
    why : str or callable
        Why, and what to do; a callable gets the flag.

    Raises
    ------
    UsageError
        ``FLAG WHAT; WHY``.

    Examples
    --------
    >>> rows = [Unused("--snap", "snap", None, "says how mentions snap to tokens")]
    >>> refuse_unused(argparse.Namespace(snap=None), rows, "leave it out")
    >>> refuse_unused(argparse.Namespace(snap="expand"), rows, "g.jsonl holds spans: leave it out")
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: --snap says how mentions snap to tokens; g.jsonl holds \
spans: leave it out
    """
    for flag, dest, default, what in options:
        if getattr(args, dest, default) != default:
            reason = why(flag) if callable(why) else why
            raise UsageError(f"{flag} {what}; {reason}")


def holds(paths: Sequence[str]) -> str:
    """``"a.jsonl holds"``, or ``"a.jsonl, b.jsonl hold"``.

    Examples
    --------
    >>> holds(["a.jsonl"]), holds(["b.jsonl", "a.jsonl"])
    ('a.jsonl holds', 'a.jsonl, b.jsonl hold')
    """
    return f"{paths[0]} holds" if len(paths) == 1 else f"{', '.join(sorted(paths))} hold"


#: The options of tag output, which aligned spans written by ``convert`` have no use for.
_TAG_OUTPUT = (
    Unused("--to-scheme", "to_scheme", None, "writes the output as tags in a scheme"),
    Unused("--to-suffix/--to-prefix", "to_suffix", None, "spells the output tags"),
    Unused("--to-tag-delimiter", "to_tag_delimiter", None, "spells the output tags"),
    Unused("--to-outside", "to_outside", None, "spells the output tags"),
    Unused("--misaligned", "misaligned", "error", "moves spans onto words for tag output"),
    Unused("--labels-as", "labels_as", "int", "applies to Parquet tag output"),
    Unused("--parquet-kind", "parquet_kind", None, "applies to Parquet output"),
)
#: The options of reading (and scoring) files chunk by chunk; model outputs are aligned to
#: the gold file read whole.
_CHUNKS = (
    Unused("--chunk-size", "chunk_size", None, "cuts a file converted chunk by chunk"),
    Unused("--chunk-sentences", "chunk_sentences", None, "reads the files chunk by chunk"),
    Unused("--workers", "workers", 0, "scores chunks of the files on a local Dask cluster"),
    Unused("--scheduler", "scheduler", None, "scores chunks of the files on a Dask cluster"),
)
_WHOLE = "model outputs are aligned to the gold file read whole: leave it out"
#: The label operations, of ``convert`` (which writes the aligned spans as aligned).
_LABEL_OPS = (
    Unused("--map", "label_map", None, "changes the entities a conversion writes"),
    Unused("--map-file", "label_map_file", None, "changes the entities a conversion writes"),
    Unused("--keep", "keep_labels", None, "changes the entities a conversion writes"),
    Unused("--drop", "drop_labels", None, "changes the entities a conversion writes"),
)
#: The options of the gold's tags (``--from-scheme`` in ``convert``, ``--scheme`` elsewhere),
#: which span gold has no use for.
_TAG_GOLD = (
    Unused("--from-scheme", "from_scheme", None,
           "says how the tags of tag gold are read (CoNLL, Parquet tags)"),
    Unused("--scheme", "scheme", None, "says how the tags of tag gold are read (CoNLL, Parquet "
                                       "tags)"),
    Unused("--mode", "mode", "lenient", "says how the tags of tag gold are read (CoNLL, Parquet "
                                        "tags)"),
    Unused("--suffix", "suffix", False, "says how the tags of tag gold are spelled (CoNLL, "
                                        "Parquet tags)"),
    Unused("--tag-delimiter", "tag_delimiter", "-",
           "says how the tags of tag gold are spelled (CoNLL, Parquet tags)"),
    Unused("--outside", "outside", "O", "says how the tags of tag gold are spelled (CoNLL, "
                                        "Parquet tags)"),
    Unused("--snap", "snap", None, "says how mentions snap to the tokens of tag gold (CoNLL, "
                                   "Parquet tags)"),
)
#: The options of choosing a threshold on scored predictions; model outputs have no scores.
_THRESHOLDS = (
    Unused("--threshold-from", "threshold_from", None,
           "chooses a threshold on the scores of predictions"),
    Unused("--objective", "objective", None, "says what --threshold-from maximises"),
    Unused("--schema", "schema", None, "says which SemEval schema --threshold-from traces"),
)
#: Options of prediction files with tokens.
_PRED_TOKENS = (
    Unused("--strict-tokens", "strict_tokens", False,
           "makes a token that differs between GOLD and PRED an error"),
)


def _tag_gold(args: argparse.Namespace, gold: str, tag_gold: bool) -> None:
    """Refuse the options of the gold's tags when ``gold`` holds spans."""
    if not tag_gold:
        refuse_unused(args, _TAG_GOLD, f"{gold} holds spans: leave it out")


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
        Naming the first, why it has no use, and what to do.
    """
    refuse_unused(args, _TAG_OUTPUT, f"{args.target} gets the aligned spans: leave it out")
    refuse_unused(args, _CHUNKS, _WHOLE)
    refuse_unused(args, _LABEL_OPS, lambda flag: (
        "the aligned spans are written as aligned: leave it out, and convert "
        f"{args.target} again with {flag}"))
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
        Naming the first, why it has no use, and what to do.
    """
    refuse_unused(args, _CHUNKS, _WHOLE)
    refuse_unused(args, _THRESHOLDS, f"{holds(outputs)} model outputs, without scores: leave "
                                     "it out")
    if every:
        refuse_unused(args, _PRED_TOKENS, f"{holds(outputs)} model outputs, which have no "
                                          "tokens: leave it out")
    _tag_gold(args, args.gold, tag_gold)
