"""The ``nerscore`` command: one program, several subcommands.

Every subcommand module has the same interface: ``register(subparsers)``
adds its parser(s) with ``set_defaults(func=run)``, and ``run(args)`` returns
the exit status. :func:`main` parses, dispatches and turns what the user
did wrong into one line on standard error: exit status 1 for a library
error (bad data, a missing file), 2 for a usage error; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NoReturn

__all__ = ["build_parser", "main"]

#: Modules whose ``register(subparsers)`` adds subcommands, in help order.
SUBCOMMANDS = {
    "score": "nerscore.cli.commands",
    "validate": "nerscore.cli.tagfiles",
    "repair": "nerscore.cli.tagfiles",
    "convert": "nerscore.cli.convert",
    "conlleval": "nerscore.cli.conlleval",
    "report": "nerscore.cli.report",
    "compare": "nerscore.cli.compare",
    "diagnose": "nerscore.cli.diagnose",
    "agree": "nerscore.cli.agree",
    "adjudicate": "nerscore.cli.agree",
    "curve": "nerscore.cli.curve",
}


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, as the commands' own are.

    A subcommand's usage runs to dozens of lines and would bury the error, so
    the line points at ``--help`` instead; ``commands`` holds the subcommands'
    parsers, which word the errors of their own arguments.
    """

    commands: Mapping[str, argparse.ArgumentParser] = {}
    _intermixing = False

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse as argparse does; files given after options are taken as files too.

        A subcommand whose last file is optional (``score GOLD [PRED]``,
        ``compare GOLD [PRED ...]``) takes its files in one run of words:
        argparse fills ``PRED`` with nothing at ``score GOLD --match semeval
        PRED`` and leaves ``PRED`` unrecognized. When a subcommand's parse
        leaves a word that is not an option, the line is parsed again with
        files and options intermixed (:meth:`parse_known_intermixed_args`),
        which reads it as the user meant; when that leaves a word too, the
        first parse's leftovers make the error. Only then: the intermixed parse
        formats the whole usage first, which costs a fast command's
        start-up tens of milliseconds.

        Examples
        --------
        >>> parser = build_parser("score")
        >>> args = parser.parse_args(["score", "g.conll", "--format", "json", "p.conll"])
        >>> args.gold, args.pred, args.format
        ('g.conll', 'p.conll', 'json')
        """
        parsed, extra = super().parse_known_args(args, namespace)
        if (namespace is None and self._subparsers is None and args is not None
                and not self._intermixing and _has_word(extra)):
            self._intermixing = True  # the intermixed parse calls this method in turn
            try:
                again, left = self.parse_known_intermixed_args(args)
            finally:
                self._intermixing = False
            if not _has_word(left):  # else the first parse's leftovers are the error to tell
                parsed, extra = again, left
        return parsed, extra

    def error(self, message: str) -> NoReturn:
        end = "" if message.endswith(".") else "."
        self.exit(2, f"{self.prog}: error: {message}{end} See '{self.prog} --help'.\n")


def _has_word(args: list[str]) -> bool:
    """Whether ``args`` holds a word that is not an option (a file; ``-`` is standard input)."""
    return any(x == "-" or not x.startswith("-") for x in args)


def build_parser(command: str | None = None) -> CommandParser:
    """The ``nerscore`` argument parser with every subcommand registered.

    Parameters
    ----------
    command : str, optional
        Register only the module of this subcommand (what ``main`` does when
        the command line names one, so that ``nerscore conlleval`` starts fast);
        ``"--version"`` registers none.

    Returns
    -------
    CommandParser

    Examples
    --------
    >>> parser = build_parser()
    >>> parser.parse_args(["score", "g.conll", "p.conll", "--digits", "4"]).digits
    4
    """
    import importlib

    from nerscore._version import __version__

    parser = CommandParser(
        prog="nerscore",
        description="Score named-entity recognition output: exact and partial matching, "
                    "validation and repair of tag sequences, conlleval-compatible reports.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"nerscore {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: Iterable[str] = SUBCOMMANDS.values()
    if command in SUBCOMMANDS:
        modules = [SUBCOMMANDS[command]]
    elif command == "--version":  # prints and exits before any subcommand is needed
        modules = []
    for name in dict.fromkeys(modules):
        importlib.import_module(name).register(subparsers)
    parser.commands = subparsers.choices
    return parser


def _one_line(exc: BaseException, args: argparse.Namespace | None = None) -> str:
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        from nerscore.cli._output import role_of

        role = None if args is None else role_of(args, exc.filename)
        if role is None:
            return f"cannot open {exc.filename!r}: {exc.strerror}."
        verb, name = role
        return f"cannot {verb} {name} {exc.filename!r}: {exc.strerror}."
    if isinstance(exc, UnicodeEncodeError) and _is_stdout_encoding(exc.encoding):
        char = exc.object[exc.start : exc.end]
        to_file = "with --output FILE (UTF-8)" if hasattr(args, "output") else "to a file"
        return (f"standard output takes {exc.encoding} text only, which cannot hold {char!r} "
                f"of the result. Send the result {to_file}, or set PYTHONIOENCODING=utf-8.")
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _is_stdout_encoding(encoding: str) -> bool:
    """Whether ``encoding`` is that of standard output (the one the result is printed in)."""
    import codecs

    ours = getattr(sys.stdout, "encoding", None)
    try:
        return ours is not None and codecs.lookup(ours).name == codecs.lookup(encoding).name
    except LookupError:
        return False


def _report_warnings(command: str, caught: list[warnings.WarningMessage]) -> None:
    """Fold the warnings of a run into short lines on standard error, naming flags."""
    from nerscore.cli._flags import flagged
    from nerscore.errors import UndefinedMetricWarning

    undefined: list[str] = []
    for w in caught:
        text = " ".join(str(w.message).split())
        if issubclass(w.category, UndefinedMetricWarning):
            head = text.split(" Pass `zero_division`")[0].rstrip(".")
            if head not in undefined:
                undefined.append(head)
        else:
            print(f"nerscore {command}: warning: {flagged(text)}", file=sys.stderr)
    if undefined:
        more = f"; ... ({len(undefined) - 3} more)" if len(undefined) > 3 else ""
        shown = "; ".join(undefined[:3]) + more
        print(f"nerscore {command}: note: {shown}. Pass --zero-division 0, 1 or nan to choose "
              "the value of undefined scores.", file=sys.stderr)


def _silence(stream: Any) -> None:
    """Point ``stream``'s file at /dev/null so that the final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (captured output)
        pass


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Run a command with the garbage collector's automatic collections off.

    A reader of span files builds a few Python objects per span (the parsed
    JSON, an :class:`~nerscore.Entity` and its span), millions of them, which
    live until their chunk is scored and then die by reference counting:
    they hold no reference cycles. The collector still walks each of them
    about twice while it lives (once in each younger generation), and its
    oldest generation whenever that has grown by a quarter: scoring two
    files of 500,000 spans spent about 2 s of 8.5 s in collections that
    freed nothing. The commands make no cyclic garbage that grows with their
    input (a few hundred objects a run, as many for one chunk as for a
    thousand: ``tests/cli/test_main.py`` checks it), so nothing is left for
    the collector to find. It is switched back on afterwards, when it was on,
    so that :func:`main` called from Python leaves it as it was.
    """
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``nerscore`` command line and return its exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success; 1 for bad data, a file that cannot be read, or issues
        found by ``validate``; 2 for a usage error.

    Examples
    --------
    >>> main(["--version"])  # doctest: +ELLIPSIS
    nerscore ...
    0
    """
    import os

    # The command does no linear algebra: a single BLAS thread spares the start-up
    # cost of a thread pool (set before NumPy is first imported, never overriding).
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list[0] if args_list else None)
    try:
        args, extra = parser.parse_known_args(args_list)
        if extra:  # said by the subcommand that did not take them
            command_parser = parser.commands.get(getattr(args, "command", None) or "", parser)
            command_parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    command = args.command
    from nerscore.cli._flags import (
        command_flags,
        given_text,
        keywords_to_flags,
        side_flags,
        use_flags,
    )
    from nerscore.cli._labels import label_flags
    from nerscore.cli._options import UsageError
    from nerscore.cli._output import check_outputs, choose_format, set_quiet
    from nerscore.errors import NerscoreError

    set_quiet(getattr(args, "quiet", False))
    literal = given_text(args)  # the notes name the flags that did what they say, and
    own = command_flags(args)  # the command's own flags (convert: scheme is --from-scheme)
    if getattr(args, "threshold_from", None) is not None:  # the threshold it sets is chosen there
        own["min_score"] = "--threshold-from"
    use_flags({**own, **label_flags(args)}, literal)  # quote the paths and labels given as they are
    stderr, spooled = sys.stderr, None
    try:
        # not errors.caught_warnings: the command waits for its reading threads, which may
        # catch warnings themselves; this block is the outermost and crosses no other
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                check_outputs(args)  # never write over an input
                choose_format(args)  # --format, or the one the suffix of --output names
                from nerscore.cli._stdin import ShownStream, spool_standard_input

                spooled = spool_standard_input(args)  # an input given as '-'
                if spooled is not None:  # messages name it <stdin>, not its temporary file
                    sys.stderr = ShownStream(stderr)
                with _collector_paused():
                    status = int(args.func(args))
            except UsageError as exc:
                print(f"nerscore {command}: error: {exc}. See 'nerscore {command} --help'.",
                      file=sys.stderr)
                status = 2
            except BrokenPipeError:  # the reader of our output went away (e.g. `| head`)
                _silence(sys.stdout)
                status = 0
            except (NerscoreError, OSError, ValueError) as exc:
                text = _one_line(exc, args)
                sides = side_flags(args, getattr(exc, "source", None), text)
                text = keywords_to_flags(text, {**own, **sides}, literal)
                print(f"nerscore {command}: error: {text}", file=sys.stderr)
                status = 1
            except KeyboardInterrupt:
                status = 130
        if not getattr(args, "quiet", False):
            try:
                _report_warnings(command, caught)
            except BrokenPipeError:  # the reader of the messages went away (`2>&1 | head`)
                _silence(sys.stderr)
    finally:
        sys.stderr = stderr
        if spooled is not None:
            spooled.close()
        use_flags({})
    set_quiet(False)
    return status
