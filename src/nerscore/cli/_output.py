"""Where the subcommands' results and diagnostics go: ``--output``, ``--quiet``, progress.

Results go to standard output, or to the file named by ``--output``;
notes and warnings go to standard error unless ``--quiet`` is given (errors
are always printed); the progress bar is :mod:`~nerscore.cli._progress`.
Standard library only, so that ``nerscore conlleval`` starts fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

__all__ = [
    "EXTRA_FLAGS",
    "FormatGiven",
    "add_format_option",
    "add_output_option",
    "add_quiet_option",
    "check_outputs",
    "choose_format",
    "declare_files",
    "declare_formats",
    "is_alias_file",
    "is_quiet",
    "note",
    "output_renderer",
    "role_of",
    "set_quiet",
    "write_result",
]

_STATE = {"quiet": False}

#: The flag that asks for each extra of a score output.
EXTRA_FLAGS = {"confusion": "--confusion", "breakdown": "--breakdown", "intervals": "--ci"}


def set_quiet(quiet: bool) -> None:
    """Turn notes and warnings on standard error off (``--quiet``) or on."""
    _STATE["quiet"] = bool(quiet)


def is_quiet() -> bool:
    """Whether ``--quiet`` was given to the running command."""
    return _STATE["quiet"]


def note(command: str, message: str, *, kind: str = "note") -> None:
    """Print one diagnostic line on standard error.

    Parameters
    ----------
    command : str
        The subcommand.
    message : str
        The text (a line break, with the white space around it, is folded
        into one space; other spaces are kept).
    kind : str
        ``"note"``, ``"warning"`` or ``"error"``.
    """
    if kind != "error" and is_quiet():
        return
    from nerscore.cli._flags import flagged

    # a line break and the indent around it read as one space; other spaces are the message's
    # own (a quoted text keeps its runs of spaces)
    text = flagged(" ".join(filter(None, (line.strip() for line in message.splitlines()))))
    print(f"nerscore {command}: {kind}: {text}", file=sys.stderr)


def add_quiet_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``-q``/``--quiet``.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        A subcommand's parser, or one of its groups.
    """
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print no notes, warnings or progress on standard error "
                             "(errors still are)")


def add_output_option(parser: argparse.ArgumentParser, *, short: bool = True) -> None:
    """Add ``--output FILE`` (and ``-o`` when ``short``).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        A subcommand's parser.
    short : bool
        Also accept ``-o``.
    """
    flags = ("-o", "--output") if short else ("--output",)
    parser.add_argument(*flags, metavar="FILE", default=None,
                        help="write the result to FILE (default: standard output); "
                             "notes still go to standard error")


def declare_files(parser: argparse.ArgumentParser, *, inputs: tuple[str, ...],
                  outputs: dict[str, str]) -> None:
    """Say which of a subcommand's arguments are files it reads and which it writes.

    :func:`nerscore.cli.main` calls :func:`check_outputs` on every parsed
    command line before the command runs, so that no command writes over one
    of its own inputs (or writes two results to one file).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        A subcommand's parser.
    inputs : tuple of str
        Destinations (``args.<dest>``) of the files read: a path, a list of
        paths, or None.
    outputs : dict of str to str
        Destination of each file written, mapped to the flag that names it in
        messages (``{"output": "--output"}``).
    """
    parser.set_defaults(input_files=tuple(inputs), output_files=dict(outputs))


def _paths(value: object) -> list[str]:
    if value is None:
        return []
    values = value if isinstance(value, (list, tuple)) else [value]
    return [str(v) for v in values if v is not None and str(v) != "-"]


def _option_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files options read: ``--map-file``, a ``--label-alias`` not given as ``LABEL=A,B``.

    Examples
    --------
    >>> _option_files(argparse.Namespace(label_map_file="m.json", label_alias=["L=x", "a.json"]))
    [('--map-file', 'm.json'), ('--label-alias', 'a.json')]
    """
    return [("--map-file", p) for p in _paths(getattr(args, "label_map_file", None))] + [
        ("--label-alias", p) for p in _paths(getattr(args, "label_alias", None))
        if is_alias_file(p)]


def is_alias_file(value: str) -> bool:
    """Whether a ``--label-alias`` value names a JSON file rather than ``LABEL=A,B``.

    A value without ``=`` is a file; one with ``=`` is a file only where one exists.
    """
    import os

    return "=" not in value or os.path.isfile(value)


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse a command line that would write over one of its inputs.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line; subcommands declare their files with
        :func:`declare_files`.

    Raises
    ------
    nerscore.cli._options.UsageError
        When an output is one of the inputs (the same file by any spelling:
        ``./``, a symbolic or hard link), lies inside an input folder (the
        next read of the folder would pick it up), is a folder holding an
        input, or two outputs are one file.

    Examples
    --------
    >>> ns = argparse.Namespace(gold="g.conll", pred="p.conll", output="./g.conll",
    ...                         input_files=("gold", "pred"), output_files={"output": "--output"})
    >>> check_outputs(ns)
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: --output ./g.conll is the input g.conll: writing there would destroy it; give another file name
    """
    from nerscore.cli._options import UsageError
    from nerscore.io.atomic import inside, same_file

    inputs = [p for dest in getattr(args, "input_files", ()) for p in _paths(getattr(args, dest))]
    inputs += [p for _, p in _option_files(args)]
    seen: list[tuple[str, str]] = []
    for dest, flag in getattr(args, "output_files", {}).items():
        for out in _paths(getattr(args, dest, None)):
            for src in inputs:
                if same_file(out, src):
                    raise UsageError(f"{flag} {out} is the input {src}: writing there would "
                                     "destroy it; give another file name")
                if inside(out, src):
                    raise UsageError(f"{flag} {out} is inside the input folder {src}: the next "
                                     f"read of {src} would pick up what is written there; give "
                                     "a path outside it")
                if inside(src, out):
                    raise UsageError(f"{flag} {out} is a folder holding the input {src}: "
                                     "writing there would mix the output with it; give a path "
                                     "that does not hold it")
            for other_flag, other in seen:
                if same_file(out, other):
                    raise UsageError(f"{flag} {out} and {other_flag} {other} are the same file; "
                                     "give them different names")
            seen.append((flag, out))


def role_of(args: argparse.Namespace, path: str) -> tuple[str, str] | None:
    """Which of a command's declared files ``path`` is: ``("read", "PRED")``, ``("write", "--output")``.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line (files declared with :func:`declare_files`).
    path : str
        The file an error is about.

    Returns
    -------
    tuple of str, or None
        None when it is none of them.

    Examples
    --------
    >>> ns = argparse.Namespace(gold="g.conll", preds=["a.conll", "b.conll"], output="o.txt",
    ...                         input_files=("gold", "preds"), output_files={"output": "--output"})
    >>> role_of(ns, "b.conll"), role_of(ns, "o.txt"), role_of(ns, "x")
    (('read', 'PRED'), ('write', '--output'), None)
    """
    from nerscore.io.atomic import same_file

    names = {"preds": "PRED", "files": "FILE", "source": "IN"}
    for dest in getattr(args, "input_files", ()):
        if any(same_file(path, p) for p in _paths(getattr(args, dest, None))):
            return "read", names.get(dest, dest.upper())
    for flag, p in _option_files(args):
        if same_file(path, p):
            return "read", flag
    for dest, flag in getattr(args, "output_files", {}).items():
        if any(same_file(path, p) for p in _paths(getattr(args, dest, None))):
            return "write", flag
    return None


def write_result(text: str, path: str | None, *, encoding: str = "utf-8") -> None:
    """Write a command's result to ``path``, or to standard output when it is None or '-'.

    A final line break is added when ``text`` has none. A file is replaced
    atomically: an interrupted run leaves the old file, never part of the new one.

    Parameters
    ----------
    text : str
        The result.
    path : str or None
        The ``--output`` file.
    encoding : str
        Encoding of the file.
    """
    from nerscore.cli._stdin import shown

    text = shown(text)  # standard input is <stdin> in the notes, not its temporary file
    if text and not text.endswith("\n"):
        text += "\n"
    if path is None or path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from nerscore.io.atomic import atomic_open

    with atomic_open(path, "w", encoding=encoding, newline="") as fh:
        fh.write(text)


class FormatGiven(argparse.Action):
    """``--format``, stored as usual and marked given: the suffix of ``-o FILE`` then chooses nothing."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.format_given = True


def declare_formats(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *,
                    kind: str | None = None, suffixes: dict[str, str] | None = None) -> None:
    """Say which formats the suffix of a command's ``--output`` may choose (:func:`choose_format`).

    The command's ``--format`` takes ``action=FormatGiven``.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        A subcommand's parser.
    kind : str, optional
        What the command renders (:data:`nerscore.render.registry.KINDS`):
        the suffixes are those of the formats that render it
        (:data:`nerscore.render.registry.SUFFIXES`, and the ``suffixes`` of
        a registered renderer).
    suffixes : dict of str to str, optional
        Suffix -> format, for a command whose formats are its own (``curve``).
    """
    parser.set_defaults(format_kind=kind, format_suffixes=dict(suffixes or {}))


def add_format_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *,
                      kind: str) -> None:
    """Add ``--format``: any output format of the renderer registry that renders ``kind``.

    The value is checked when the command runs (:func:`output_renderer`), so
    that formats from other packages are loaded only when asked for. Without
    ``--format``, the suffix of ``--output`` may choose the format
    (:func:`choose_format`).

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        A subcommand's parser.
    kind : {"scores", "comparison", "diagnostics"}
        What the command renders.
    """
    from nerscore.render.registry import BUILTIN

    names = list(BUILTIN) if kind == "scores" else ["text", "json", "markdown"]
    suffixes = ".json, .md" + (", .html" if kind == "scores" else "")
    parser.add_argument("--format", default="text", metavar="FORMAT", action=FormatGiven,
                        help=f"output format: {', '.join(names)}, or one a plugin registers "
                             f"(default: the one the suffix of the output file names, "
                             f"{suffixes} or a plugin format's own; else text)")
    declare_formats(parser, kind=kind)


def _suffix_format(args: argparse.Namespace, suffix: str) -> tuple[str | None, bool]:
    """The format ``suffix`` names, and whether the command writes it."""
    from nerscore.render.registry import suffix_format

    suffixes: dict[str, str] = getattr(args, "format_suffixes", None) or {}
    if suffixes:
        named = suffixes.get(suffix) or suffix_format(suffix)
        return named, suffix in suffixes
    from nerscore.errors import OptionError
    from nerscore.render.registry import get_renderer

    named = suffix_format(suffix)
    if named is None:
        return None, False
    kind = args.format_kind
    if kind == "scores" and getattr(args, "runs", False):  # score --runs renders a summary
        kind = "runs"
    try:
        get_renderer(named, kind=kind)
    except OptionError:
        return named, False
    return named, True


def choose_format(args: argparse.Namespace) -> None:
    """Take the format from the suffix of ``--output`` when ``--format`` is not given.

    The rule of every command with ``--format`` and ``--output``
    (:func:`declare_formats`):

    - ``--format`` not given, and the suffix names a format the command
      writes (``.json``, ``.md``/``.markdown``, ``.html``/``.htm``, those a
      registered renderer claims, :attr:`~nerscore.render.registry.Renderer.suffixes`;
      ``curve``: ``.csv``, ``.json``, ``.svg``, ``.png``): that format, silently;
    - ``--format`` given, and the suffix names another format the command
      writes: a usage error naming both and the two ways out;
    - the suffix names a format the command does not write (``compare -o
      c.html``): the default format, with a note saying so (none when
      ``--format`` is given);
    - any other suffix (``.txt``, ``.out``, none) or standard output: the
      default format, or ``--format``.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line; ``args.format`` is set in place.

    Raises
    ------
    UsageError
        When ``--format`` and the suffix of ``--output`` name two formats the
        command writes.

    Examples
    --------
    >>> ns = argparse.Namespace(command="curve", format="csv", output="pr.png",
    ...                         format_suffixes={".csv": "csv", ".png": "png"})
    >>> choose_format(ns); ns.format
    'png'
    >>> ns = argparse.Namespace(command="curve", format="csv", output="pr.png",
    ...                         format_suffixes={".csv": "csv", ".png": "png"}, format_given=True)
    >>> choose_format(ns)
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: --format csv and --output pr.png disagree: the suffix .png names the png format. Leave out --format to write png, or give --output a name that ends in .csv
    """
    import os

    from nerscore.cli._options import UsageError

    out = getattr(args, "output", None)
    if ((getattr(args, "format_kind", None) is None and not getattr(args, "format_suffixes", None))
            or out is None or out == "-"):
        return
    suffix = os.path.splitext(str(out))[1].lower()
    named, writes = _suffix_format(args, suffix) if suffix else (None, False)
    if named is None or named == args.format:
        return
    given = getattr(args, "format_given", False)
    if writes and not given:
        args.format = named
        args.format_from_output = True
    elif writes:
        own = [k for k, v in {**_all_suffixes(args)}.items() if v == args.format]
        fix = (f"give --output a name that ends in {own[0]}" if own else
               f"give --output a name with no suffix of a format (e.g. "
               f"{os.path.splitext(str(out))[0]}.txt)")
        raise UsageError(f"--format {args.format} and --output {out} disagree: the suffix "
                         f"{suffix} names the {named} format. Leave out --format to write "
                         f"{named}, or {fix}")
    elif not given:
        command = args.command + (" --runs" if getattr(args, "runs", False) else "")
        note(args.command, f"--output {out}: the suffix {suffix} names {named}, which nerscore "
                           f"{command} does not write, so the file holds {args.format}; "
                           f"--format chooses {_or(_formats(args))}")


def _formats(args: argparse.Namespace) -> list[str]:
    """The formats the command writes (for a note)."""
    own = getattr(args, "format_suffixes", None)
    if own:
        return list(dict.fromkeys(own.values()))
    from nerscore.render.registry import renderer_names

    kind = args.format_kind
    return list(renderer_names("runs" if kind == "scores" and getattr(args, "runs", False)
                               else kind))


def _all_suffixes(args: argparse.Namespace) -> dict[str, str]:
    """Every suffix the command's formats are named by (its own first)."""
    from nerscore.render.registry import suffix_formats

    return {**(getattr(args, "format_suffixes", None) or {}), **suffix_formats()}


def _or(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def output_renderer(args: argparse.Namespace, kind: str, extras: Sequence[str] = ()) -> Any:
    """The renderer of ``--format``, checked to show what the command line asks for.

    Parameters
    ----------
    args : argparse.Namespace
        With ``format``.
    kind : str
        What is rendered (see :data:`nerscore.render.registry.KINDS`).
    extras : sequence of str
        Extras of a score output asked for (keys of :data:`EXTRA_FLAGS`).

    Returns
    -------
    nerscore.render.registry.Renderer
        Its functions render the notes naming the command's flags
        (:func:`~nerscore.cli._flags.flag_notes`).

    Raises
    ------
    UsageError
        For an unknown format, or one that cannot show an extra asked for.
    """
    import dataclasses

    from nerscore.cli._flags import flag_notes
    from nerscore.cli._options import UsageError
    from nerscore.errors import OptionError
    from nerscore.render.registry import get_renderer, renderer_names

    try:
        renderer = get_renderer(args.format, kind=kind)
    except OptionError as exc:
        raise UsageError(f"--format: {str(exc).rstrip('.')}") from None
    for extra in extras:
        if extra not in renderer.extras:
            able = [n for n in renderer_names(kind) if extra in get_renderer(n).extras]
            chosen = (f", which the suffix of --output {args.output} names: give one of them "
                      "with --format" if getattr(args, "format_from_output", False) else "")
            raise UsageError(f"{EXTRA_FLAGS[extra]} works with --format {_or(able)}, not "
                             f"{args.format}{chosen}")

    def flagging(render: Any) -> Any:
        return lambda result, *rest, **kw: render(flag_notes(result), *rest, **kw)

    return dataclasses.replace(renderer, functions={k: flagging(f) for k, f in
                                                    renderer.functions.items()})
