"""Advice written for Python callers, as the command line's flags.

Library messages name their options as keywords (``overlapping='merge'``);
:func:`keywords_to_flags` rewrites them as the flags a command takes
(``--overlapping merge``), and :func:`side_flags` says which flag gave an
option for the one file an error is about (``--gold-encoding`` rather than
``--encoding``). The notes and warnings of a run name its flags too
(:func:`use_flags`, :func:`flagged`, :func:`flag_notes`).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import shlex
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["command_flags", "declare_flags", "flag_notes", "flagged", "given_text",
           "keywords_to_flags", "matcher_options", "side_encoding", "side_flags", "use_flags"]

#: Library keyword -> CLI flag, for advice written for Python callers.
_KEYWORD_FLAGS = {
    "scheme": "--scheme", "mode": "--mode", "match": "--match", "beta": "--beta",
    "zero_division": "--zero-division", "suffix": "--suffix", "delimiter": "--tag-delimiter",
    "outside": "--outside", "column_delimiter": "--delimiter-columns",
    "encoding": "--encoding", "token_column": "--token-column",
    "label_column": "--label-column", "comments": "--comments",
    "from_scheme": "--from-scheme", "to_scheme": "--to-scheme", "min_score": "--threshold",
    "misaligned": "--misaligned", "labels_map": "--map", "keep": "--keep", "drop": "--drop",
    "offsets": "--offsets", "align": "--align", "snap": "--snap", "spans_key": "--spans-key",
    "parquet_kind": "--parquet-kind", "labels_as": "--labels-as",
    "to_suffix": "--to-suffix/--to-prefix", "to_delimiter": "--to-tag-delimiter",
    "to_outside": "--to-outside", "annotator": "--annotator", "label_aliases": "--label-alias",
    "column": "--column", "tokens_column": "--tokens-column",
}
#: Keywords whose True and False are each a flag of their own.
_PAIRED_FLAGS = {"to_suffix": ("--to-suffix", "--to-prefix")}
#: Library calls that advice names -> the commands that do what they do.
_CALLS = {"breakdown(..., by='seen')": "nerscore diagnose --pred PRED and nerscore report "
                                       "--train TRAIN show it"}
#: The options GOLD and PRED may each have their own flag for (``--gold-encoding``).
_SIDE_OPTIONS = ("encoding",)
_KEYWORD: list[re.Pattern[str]] = []  # compiled on first use: it needs the matcher registry
#: Keyword -> the flag that gave it on the running command line (:func:`use_flags`).
_GIVEN: dict[str, str] = {}
#: What the running command line gave that a message may quote as it is (:func:`use_flags`).
_LITERAL: list[str] = []
#: A quoted value (``'a=b'``, ``"(x)"``): user data (group 1), unless a keyword's
#: (``k='v'``, group 2), which is matched whole so that its closing quote opens no other.
_QUOTED = re.compile(r"""(?<![\w=])('[^'\n]*'|"[^"\n]*")(?!\w)|=('[^'\n]*'|"[^"\n]*")""")


def matcher_options() -> dict[str, list[tuple[str, Any]]]:
    """Every matcher option by keyword, with the matchers that take it (registry order).

    Returns
    -------
    dict of str to list of (matcher name, Option)
    """
    from nerscore.matching import get_matcher
    from nerscore.matching.registry import matcher_names

    out: dict[str, list[tuple[str, Any]]] = {}
    for name in matcher_names():
        for option in get_matcher(name).options:
            out.setdefault(option.name, []).append((name, option))
    return out


def _keyword_flags() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str], dict[str, bool]]:
    """The patterns of ``k=value`` and ``(k/k)``, keyword -> flag, and the boolean defaults.

    The defaults are those of the matcher options that are switches.
    """
    flags = dict(_KEYWORD_FLAGS)
    switches: dict[str, bool] = {}
    for name, uses in matcher_options().items():
        option = uses[0][1]
        flags[name] = option.flag
        if isinstance(option.default, bool):
            switches[name] = option.default
    if not _KEYWORD:
        names = "|".join(sorted(flags, key=len, reverse=True))
        _KEYWORD.append(re.compile(
            rf"(?<![\w.`/\\])({names})="  # not a part of a path (runs/mode=strict/p.conll)
            r"(?:'([^']*)'|\"([^\"]*)\"|(True|False|None|-?[\w.]+))(?![\w.]*[/\\])"))
        _KEYWORD.append(re.compile(rf"(?<![\w(])\(((?:{names})(?:/(?:{names}))*)\)"))
    return _KEYWORD[0], _KEYWORD[1], flags, switches


def keywords_to_flags(message: str, given: Mapping[str, str] | None = None,
                      literal: Iterable[str] = ()) -> str:
    """Rewrite advice written as Python keywords (``compat='kaggle'``) as flags (``--compat kaggle``).

    A note's parenthesised keywords, the options that did what it says
    (``(min_score)``, ``(keep/drop)``), become their flags; of several, those
    that ``given`` names where it names any.

    Parameters
    ----------
    message : str
        The advice.
    given : mapping of str to str, optional
        Keyword -> the flag that gave it instead of the usual one
        (:func:`side_flags`); the usual flag, where the message names it, is
        rewritten too.
    literal : iterable of str, optional
        Text left as it is where the message holds it (the paths and labels
        given); quoted text (``'a=b'``, not a keyword's ``k='v'``) is left too.

    Returns
    -------
    str

    Examples
    --------
    >>> keywords_to_flags("fix them, or pass overlapping='merge' to glue them")
    'fix them, or pass --overlapping merge to glue them'
    >>> keywords_to_flags("use labeled=False, or the default (compat=None)")
    'use --unlabeled, or the default (without --compat)'
    >>> keywords_to_flags("the `encoding` option (--encoding on the command line), e.g. "
    ...                   "encoding='latin-1'", {"encoding": "--gold-encoding"})
    'the `encoding` option (--gold-encoding on the command line), e.g. --gold-encoding latin-1'
    >>> keywords_to_flags("Labels removed (keep/drop): MISC (1 entity).", {"drop": "--drop"})
    'Labels removed (--drop): MISC (1 entity).'
    >>> keywords_to_flags("only predictions scored at least 0.5 were scored (min_score)")
    'only predictions scored at least 0.5 were scored (--threshold)'
    >>> keywords_to_flags("2 span(s) moved")  # a plural, not the option s
    '2 span(s) moved'
    >>> keywords_to_flags("read runs/mode=strict/p.conll and mode=strict.conll/x")  # paths
    'read runs/mode=strict/p.conll and mode=strict.conll/x'
    >>> keywords_to_flags("the labels 'mode=X' and '(drop)' of mode=strict.conll (keep)",
    ...                   literal=["mode=strict.conll"])  # the user's data
    "the labels 'mode=X' and '(drop)' of mode=strict.conll (--keep)"
    >>> keywords_to_flags("report it too (breakdown(..., by='seen')).")
    'report it too (nerscore diagnose --pred PRED and nerscore report --train TRAIN show it).'
    >>> keywords_to_flags("spelled as the input's (to_suffix), or e.g. to_suffix=False")
    "spelled as the input's (--to-suffix/--to-prefix), or e.g. --to-prefix"
    >>> keywords_to_flags("Labels removed (keep/drop): (drop) (1 entity); mode=X (2 entities).")
    'Labels removed (--keep/--drop): (drop) (1 entity); mode=X (2 entities).'
    """
    given = dict(given or {})
    if "=" not in message and "(" not in message and not given:
        return message
    for call, commands in _CALLS.items():
        message = message.replace(call, commands)
    kept: list[str] = []

    def keep(text: str) -> str:
        kept.append(text)
        return f"\x00{len(kept) - 1}\x00"

    for text in sorted({t for t in literal if t and t in message}, key=len, reverse=True):
        message = message.replace(text, keep(text))
    message = _rewrite(_QUOTED.sub(lambda m: m.group(0) if m.group(1) is None else keep(m.group(0)),
                                   message), given)
    while "\x00" in message:  # a quote may hold a literal
        message = re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], message)
    return message


def _rewrite(message: str, given: dict[str, str]) -> str:
    """:func:`keywords_to_flags` of a message whose user data is masked.

    What follows a note's parenthesised keywords and a colon is its data, the
    labels as they are (``Labels removed (keep/drop): a=b (1 entity).``).
    """
    pattern, listed, flags, switches = _keyword_flags()
    data = re.search(listed.pattern + ": ", message)
    tail = "" if data is None else message[data.end():]
    message = message[:len(message) - len(tail)]
    for name, option in given.items():
        message = re.sub(rf"(?<![\w-]){re.escape(flags[name])}(?![\w-])", option, message)
    flags.update(given)

    def flag(m: re.Match[str]) -> str:
        name = m.group(1)
        quoted = m.group(2) if m.group(2) is not None else m.group(3)
        value = quoted if quoted is not None else m.group(4)
        option = flags[name]
        if name in _PAIRED_FLAGS and value in ("True", "False", "None") and quoted is None:
            on, off = _PAIRED_FLAGS[name]
            return {"True": on, "False": off}.get(value, f"without {on} or {off}")
        if name in switches:  # a switch turns the option away from its default
            return option if value == str(not switches[name]) else f"without {option}"
        if quoted is None and value in ("None", "False"):
            return f"without {option}"
        if quoted is None and value == "True":
            return option
        return _flag_value(option, value)

    def flag_list(m: re.Match[str]) -> str:
        names = m.group(1).split("/")
        names = [n for n in names if n in given] or names
        return "(" + "/".join(dict.fromkeys(flags[n] for n in names)) + ")"

    return listed.sub(flag_list, pattern.sub(flag, message)) + tail


def _flag_value(option: str, value: str) -> str:
    """``option value`` as a shell and argparse take it back.

    A value the shell would split or drop is quoted, one that argparse would
    take for an option is joined by ``=``.

    Examples
    --------
    >>> _flag_value("--to-tag-delimiter", "_"), _flag_value("--to-tag-delimiter", "--")
    ('--to-tag-delimiter _', '--to-tag-delimiter=--')
    >>> _flag_value("--outside", " "), _flag_value("--outside", "-")
    ("--outside ' '", '--outside -')
    """
    if not value or re.search(r"[\s'\"\\]", value):
        value = shlex.quote(value)
    return f"{option}={value}" if value.startswith("-") and value != "-" else f"{option} {value}"


def use_flags(given: Mapping[str, str], literal: Iterable[str] = ()) -> None:
    """Say which flags gave options on the running command line, for :func:`flagged`.

    Parameters
    ----------
    given : mapping of str to str
        Keyword -> the flag that gave it (as :func:`keywords_to_flags` takes
        it); empty outside a command.
    literal : iterable of str, optional
        What the command line gave that messages quote as it is (:func:`given_text`).
    """
    _GIVEN.clear()
    _GIVEN.update(given)
    _LITERAL[:] = literal


def given_text(args: argparse.Namespace) -> list[str]:
    """The arguments' text that :func:`keywords_to_flags` could take for keywords.

    Paths and labels holding ``=`` or ``(`` (``mode=strict.conll``), which
    messages quote as they are.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    list of str

    Examples
    --------
    >>> given_text(argparse.Namespace(gold="mode=strict.conll", keep=["(x)", "PER"], n=3))
    ['mode=strict.conll', '(x)']
    """
    out: list[str] = []
    values: list[Any] = list(vars(args).values())
    while values:
        value = values.pop(0)
        if isinstance(value, (list, tuple)):
            values[:0] = value
        elif isinstance(value, str) and ("=" in value or "(" in value):
            out.append(value)
    return out


def flagged(message: str) -> str:
    """A note or warning of the running command, its keywords as the flags that gave them.

    Parameters
    ----------
    message : str

    Returns
    -------
    str

    Examples
    --------
    >>> use_flags({"labels_map": "--map-file"})
    >>> flagged("Labels renamed (labels_map): GPE -> LOC (1 entity).")
    'Labels renamed (--map-file): GPE -> LOC (1 entity).'
    >>> use_flags({})
    """
    return keywords_to_flags(message, _GIVEN, _LITERAL)


def flag_notes(result: Any) -> Any:
    """``result`` with its notes, its findings' advice (and those of the report it holds) :func:`flagged`.

    Parameters
    ----------
    result : dataclass or mapping
        What a command renders: a report, a :class:`~nerscore.render.registry.ScoreOutput`,
        a comparison, ..., or a mapping of them (each system's curve); anything else is
        returned as it is.

    Returns
    -------
    object

    Examples
    --------
    >>> @dataclasses.dataclass
    ... class Curve:
    ...     notes: tuple[str, ...]
    >>> use_flags({"min_score": "--threshold"})
    >>> flag_notes({"sys": Curve(("scored at least 0.5 (min_score)",))})
    {'sys': Curve(notes=('scored at least 0.5 (--threshold)',))}
    >>> use_flags({})
    """
    if isinstance(result, Mapping):
        return {k: flag_notes(v) for k, v in result.items()}
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        return result
    names = {f.name for f in dataclasses.fields(result)}
    changes: dict[str, Any] = {}
    notes = getattr(result, "notes", None)
    if "notes" in names and isinstance(notes, (tuple, list)):
        changes["notes"] = type(notes)(flagged(n) if isinstance(n, str) else n for n in notes)
    findings = getattr(result, "findings", None)
    if "findings" in names and isinstance(findings, tuple):  # a diagnosis
        changes["findings"] = tuple(dataclasses.replace(f, advice=flagged(f.advice))
                                    for f in findings)
    for name in ("report", "intervals"):
        if name in names and getattr(result, name) is not None:
            changes[name] = flag_notes(getattr(result, name))
    return dataclasses.replace(result, **changes) if changes else result


def declare_flags(parser: argparse.ArgumentParser, flags: Mapping[str, str]) -> None:
    """Say which options of a command have flags of their own (``convert``: ``--from-scheme``).

    Messages name those options by the command's flags (:func:`command_flags`).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    flags : mapping of str to str
        Library keyword -> the command's flag (``{"scheme": "--from-scheme"}``).
    """
    parser.set_defaults(keyword_flags=dict(flags))


def command_flags(args: argparse.Namespace | None) -> dict[str, str]:
    """Keyword -> flag where the running command has a flag of its own (:func:`declare_flags`).

    Parameters
    ----------
    args : argparse.Namespace or None
        The parsed command line.

    Returns
    -------
    dict of str to str
        For :func:`keywords_to_flags`.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> declare_flags(parser, {"scheme": "--from-scheme"})
    >>> given = command_flags(parser.parse_args([]))
    >>> keywords_to_flags("for bare labels without prefixes pass scheme='IO'", given)
    'for bare labels without prefixes pass --from-scheme IO'
    """
    return dict(getattr(args, "keyword_flags", None) or {})


def side_encoding(args: argparse.Namespace, side: str) -> str:
    """The encoding of one side: ``--gold-encoding``/``--pred-encoding``, else ``--encoding``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    side : {"gold", "pred"}

    Returns
    -------
    str
    """
    value = getattr(args, f"{side}_encoding", None)
    return str(args.encoding if value is None else value)


def side_flags(args: argparse.Namespace | None, source: object,
               message: str = "") -> dict[str, str]:
    """The flags that gave the options of the file ``source``, where a side has its own.

    ``--gold-encoding`` for GOLD, ``--pred-encoding`` for a PRED (a run, a
    system's file), when given. A file given as both sides is the side whose
    encoding ``message`` names (``Cannot decode ... as utf-16``), else GOLD,
    which is read first. On a command with ``--gold-annotator`` and
    ``--pred-annotator``, ``annotator`` is always the side's flag (for an
    error about no file, the one given, when only one is).

    Parameters
    ----------
    args : argparse.Namespace or None
        The parsed command line.
    source : str or None
        The file an error is about.
    message : str
        The error.

    Returns
    -------
    dict of str to str
        Keyword -> flag, for :func:`keywords_to_flags`.

    Examples
    --------
    >>> args = argparse.Namespace(gold="g.conll", pred="p.conll", more_preds=["g.conll"],
    ...                           encoding="utf-8", gold_encoding=None, pred_encoding="utf-16")
    >>> side_flags(args, "p.conll"), side_flags(args, "g.conll", "Cannot decode it as utf-8 (")
    ({'encoding': '--pred-encoding'}, {})
    >>> side_flags(args, "g.conll", "Cannot decode the file as utf-16 (g.conll, line 1)")
    {'encoding': '--pred-encoding'}
    >>> side_flags(argparse.Namespace(gold="g.json", pred="p.json", pred_annotator=None), "p.json")
    {'annotator': '--pred-annotator'}
    """
    if args is None:
        return {}
    if not isinstance(source, str):  # the side whose annotator was given, if only one was
        chosen = [side for side in ("gold", "pred") if getattr(args, f"{side}_annotator", None)]
        return {"annotator": f"--{chosen[0]}-annotator"} if len(chosen) == 1 else {}
    from nerscore.io.atomic import same_file

    sides = []
    for side, dests in (("gold", ("gold",)), ("pred", ("pred", "more_preds", "preds"))):
        values = [getattr(args, dest, None) for dest in dests]
        files = [p for v in values for p in (v if isinstance(v, (list, tuple)) else [v])
                 if isinstance(p, str)]
        if any(same_file(source, p) for p in files):
            sides.append(side)
    if len(sides) > 1:
        sides = [s for s in sides if f" as {side_encoding(args, s)} (" in message] or sides
    flags = {name: f"--{sides[0]}-{name}" for name in _SIDE_OPTIONS
             if sides and getattr(args, f"{sides[0]}_{name}", None) is not None}
    if sides and hasattr(args, f"{sides[0]}_annotator"):  # no --annotator: a flag per side
        flags["annotator"] = f"--{sides[0]}-annotator"
    return flags
