"""Exceptions and warnings raised by nerscore, and the import of optional dependencies.

Every data error carries structured attributes saying *where* the problem is
(``sentence``, ``index``, ``tag``, ``source``, ``line``) and a message that
says what went wrong and how to fix it.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from types import FrameType, ModuleType

__all__ = [
    "AnnotatorChoiceError",
    "ConllevalMergeWarning",
    "FormatError",
    "InputTypeError",
    "InvalidSpanError",
    "InvalidTagError",
    "InvalidTransitionError",
    "LengthMismatchError",
    "MissingDependencyError",
    "NerscoreError",
    "OptionError",
    "SchemeError",
    "TextMismatchWarning",
    "UndefinedMetricWarning",
    "UnknownLabelWarning",
    "caught_warnings",
    "closest",
    "describe_location",
    "option_error",
    "quoted",
    "require",
    "unknown_choice",
    "user_keywords",
    "user_stacklevel",
]


#: Characters of a value quoted into a message; a longer value is cut (:func:`quoted`).
#: Text tables write a label that long whole, but let it overflow its own row.
QUOTED = 60


def quoted(value: object, show: Callable[[object], str] = repr) -> str:
    """``repr(value)`` for a message, cut short when the value is long.

    A token, label or line quoted into an error or a note can be megabytes
    long (a file without line breaks, a sentence pasted into the label
    column): its first :data:`QUOTED` characters are quoted, followed by its
    length. Short values are quoted whole, as ``repr`` quotes them (or
    ``show``: ``json.dumps`` for a value read from a JSON file).

    Examples
    --------
    >>> print(quoted("B-PER"), quoted(None))
    'B-PER' None
    >>> print(quoted("B-" + "X" * 98))
    'B-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'... (100 characters)
    >>> import json
    >>> print(quoted("B-PER", json.dumps), quoted(None, json.dumps))
    "B-PER" null
    """
    if isinstance(value, str):
        if len(value) <= QUOTED:
            return show(value)
        return f"{show(value[:QUOTED])}... ({len(value)} characters)"
    text = show(value)
    return text if len(text) <= QUOTED + 2 else f"{text[:QUOTED + 2]}... ({len(text)} characters)"


def describe_location(
    *,
    sentence: int | None = None,
    index: int | None = None,
    token: str | None = None,
    source: str | None = None,
    line: int | None = None,
) -> str:
    """Format a location such as ``token 3 ('Jonas') of sentence 12 (pred.conll, line 340)``."""
    parts = []
    if index is not None:
        parts.append(f"token {index}" + (f" ({quoted(token)})" if token is not None else ""))
    if sentence is not None:
        parts.append(f"sentence {sentence}")
    text = " of ".join(parts)
    if source is not None or line is not None:
        file_part = ", ".join(
            p for p in (source, f"line {line}" if line is not None else None) if p is not None
        )
        text = f"{text} ({file_part})" if text else file_part
    return text


def _outermost_frame() -> tuple[FrameType | None, int]:
    """The outermost nerscore frame above the function that asks, and a stack level.

    The frame is the public function the user called, however deep inside
    nerscore the question is asked (None when the asking function is not
    in nerscore). The level counts from the asking function (1) to the
    first frame outside nerscore: the ``stacklevel`` that names the user's
    line.
    """
    import os
    import sys

    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame = sys._getframe(2)  # the function that asks: level 1
    level = 1
    outermost = None
    while os.path.abspath(frame.f_code.co_filename).startswith(package):
        outermost = frame
        if frame.f_back is None:
            break
        frame = frame.f_back
        level += 1
    return outermost, level


def user_stacklevel() -> int:
    """The ``stacklevel`` at which ``warnings.warn`` names the first caller outside nerscore.

    Call it on the line that warns: ``warnings.warn(msg, Category,
    stacklevel=user_stacklevel())``. However deep inside nerscore the warning
    is raised, it then points at the user's line that called the public
    function.
    """
    return _outermost_frame()[1]


#: Held while nerscore catches warnings (:func:`caught_warnings`).
_CATCHING = threading.RLock()


@contextlib.contextmanager
def caught_warnings(action: str = "always") -> Iterator[list[warnings.WarningMessage]]:
    """``warnings.catch_warnings(record=True)`` under one filter, one thread at a time.

    ``catch_warnings`` swaps process-wide state and puts back, on leaving,
    what it found on entering. Two threads that enter and leave in crossed
    order (the workers of a threaded Dask cluster updating scorers) leave
    one thread's filters and record list in place for good: warnings given
    afterwards, in any thread, are lost. nerscore catches warnings only
    through this function, whose blocks hold a lock, so that they nest
    instead. Nothing inside a block waits for another thread.

    Examples
    --------
    >>> with caught_warnings() as caught:
    ...     warnings.warn("twice")
    ...     warnings.warn("twice")
    >>> [str(w.message) for w in caught]
    ['twice', 'twice']
    """
    with _CATCHING, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(action)  # type: ignore[arg-type]
        yield caught


def user_keywords() -> tuple[str, ...]:
    """The keyword-only parameters of the public nerscore function the user called.

    That function is the outermost nerscore frame on the stack of the
    caller (for example ``evaluate`` or ``EntityScorer.__init__``, whatever
    helper asks); an unknown keyword there is checked against them for a
    close match. Empty when the caller is not inside nerscore.
    """
    frame, _ = _outermost_frame()
    if frame is None:
        return ()
    code = frame.f_code
    return code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]


class NerscoreError(Exception):
    """Base class of every error nerscore raises on purpose."""


class OptionError(NerscoreError, ValueError, TypeError):
    """An unknown option, or an option value outside its domain.

    It is both a ``ValueError`` (a bad value) and a ``TypeError`` (an unknown
    keyword), so either ``except`` clause catches it.

    Attributes
    ----------
    option : str or None
        The option's name.
    """

    def __init__(self, message: str, *, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class AnnotatorChoiceError(OptionError):
    """A file of several annotators' annotations (or of none), read without choosing one.

    The message advises ``annotator=NAME``, as scoring reads one annotator;
    a caller that compares the annotators instead (``nerscore agree``) builds
    its own advice from the attributes.

    Attributes
    ----------
    source : str
        The file (or folder).
    annotators : tuple of str
        The annotators it holds, in order of first appearance (empty: none,
        as in a Label Studio export of predictions only).
    line : int or None
        1-based line where it was found (a file read line by line).
    """

    def __init__(self, message: str, *, source: str, annotators: Sequence[str],
                 line: int | None = None) -> None:
        super().__init__(message, option="annotator")
        self.source = source
        self.annotators = tuple(annotators)
        self.line = line


def option_error(name: str, expected: str, value: object) -> OptionError:
    """The one message template of every option check.

    Examples
    --------
    >>> print(option_error("average", "one of 'micro', 'macro', 'weighted' or None", "mirco"))
    Expected `average` to be one of 'micro', 'macro', 'weighted' or None; got 'mirco'.
    """
    return OptionError(f"Expected `{name}` to be {expected}; got {quoted(value)}.", option=name)


class MissingDependencyError(NerscoreError, ImportError):
    """An optional dependency (torch, pyarrow, dask, ...) is not installed.

    The message names the extra that installs it.
    """


class SchemeError(NerscoreError, ValueError):
    """An unknown scheme, or a scheme that cannot do what was asked."""


class InvalidTagError(NerscoreError, ValueError):
    """A tag that the scheme or the tag syntax does not allow.

    Attributes
    ----------
    tag : str
        The offending tag.
    sentence, index : int or None
        Sequence index and token index (0-based).
    source : str or None
        File name, when the tags came from a file.
    line : int or None
        1-based line number in ``source``.
    """

    def __init__(
        self,
        message: str,
        *,
        tag: str,
        sentence: int | None = None,
        index: int | None = None,
        source: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message)
        self.tag = tag
        self.sentence = sentence
        self.index = index
        self.source = source
        self.line = line


class InvalidTransitionError(InvalidTagError):
    """A tag that is valid alone but may not follow the previous tag.

    Attributes
    ----------
    previous : str
        The tag before ``tag``.
    """

    def __init__(
        self,
        message: str,
        *,
        tag: str,
        previous: str,
        sentence: int | None = None,
        index: int | None = None,
        source: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(
            message, tag=tag, sentence=sentence, index=index, source=source, line=line
        )
        self.previous = previous


class LengthMismatchError(NerscoreError, ValueError):
    """Gold and prediction disagree in the number of sequences or tokens.

    Attributes
    ----------
    sentence : int or None
        The first sequence whose lengths differ (None when the number of
        sequences differs).
    expected, actual : int
        Gold and predicted length.
    """

    def __init__(
        self, message: str, *, expected: int, actual: int, sentence: int | None = None
    ) -> None:
        super().__init__(message)
        self.sentence = sentence
        self.expected = expected
        self.actual = actual

    @classmethod
    def of_counts(cls, gold: str | None, n_gold: int, pred: str | None, n_pred: int, *,
                  unit: str = "sentences", layout: str = "",
                  hint: str = "") -> LengthMismatchError:
        """The error for two sides that hold different numbers of sentences (or documents).

        Every reader and scorer says it this way: read whole or chunk by
        chunk, from files or from lists.

        Parameters
        ----------
        gold, pred : str or None
            The files of the two sides (None: "Gold", "the prediction").
        n_gold, n_pred : int
            How many sentences (or documents) each holds.
        unit : str
            What they hold: ``"sentences"``, ``"documents"``.
        layout : str
            How the format separates them, said after "in the same order".
        hint : str
            A further sentence (where the two first differ).

        Examples
        --------
        >>> print(LengthMismatchError.of_counts("g.conll", 1, "p.conll", 2, layout=", one a line"))
        g.conll has 1 sentence but p.conll has 2; both files must list the same sentences in the same order, one a line.
        >>> print(LengthMismatchError.of_counts(None, 2, None, 1))
        Gold has 2 sentences but the prediction has 1; both must list the same sentences in the same order.
        """
        both = "both files" if gold and pred else "both"
        held = f"{n_gold} {unit[:-1] if n_gold == 1 and unit.endswith('s') else unit}"
        return cls(f"{gold or 'Gold'} has {held} but {pred or 'the prediction'} has "
                   f"{n_pred}; {both} must list the same {unit} in the same order{layout}.{hint}",
                   expected=n_gold, actual=n_pred)


class InvalidSpanError(NerscoreError, ValueError):
    """A span out of range, reversed, or overlapping where that is not allowed.

    Attributes
    ----------
    document : str or int or None
        The document id or index.
    spans : list of tuple
        The offending ``(start, end, label)`` spans.
    """

    def __init__(
        self,
        message: str,
        *,
        document: str | int | None = None,
        spans: list[tuple[int, int, str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.document = document
        self.spans = spans or []


class FormatError(NerscoreError, ValueError):
    """A file that cannot be read in the format asked for.

    Attributes
    ----------
    source : str or None
        The file.
    line : int or None
        1-based line number.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        super().__init__(message)
        self.source = source
        self.line = line


class InputTypeError(FormatError, TypeError):
    """An input of a type or shape nerscore cannot read (``y_true``, ``y_pred``, a document).

    A :class:`FormatError` that is also a ``TypeError``, so either ``except``
    clause catches it. The message names the side (``y_true``/``y_pred``) and,
    where there is one, the sentence, token or document.
    """


class UndefinedMetricWarning(UserWarning):
    """A ratio had a zero denominator and was set by ``zero_division``."""


class UnknownLabelWarning(UserWarning):
    """A label asked for with ``labels=`` that has no gold and no predicted entity.

    Its scores are undefined and set by ``zero_division``; the message names
    it and lists the labels that do have entities (a misspelt label name is
    the usual cause).
    """


class ConllevalMergeWarning(UserWarning):
    """The conlleval rules merged adjacent same-type chunks that lenient mode keeps apart."""


class TextMismatchWarning(UserWarning):
    """A document has one text in gold and another in the prediction (same id or position).

    The message names the documents, the first character where the texts
    differ and an excerpt of each; the report's notes say the same. Offsets
    are read against the gold text.
    """

def require(module: str, *, extra: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` naming the extra that installs it.

    Examples
    --------
    >>> require("not_a_module_nerscore_knows", extra="torch")
    Traceback (most recent call last):
    ...
    nerscore.errors.MissingDependencyError: This feature of nerscore requires not_a_module_nerscore_knows; install with: pip install 'nerscore[torch]'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise MissingDependencyError(
            f"This feature of nerscore requires {top}; install with: "
            f"pip install 'nerscore[{extra}]'"
        ) from exc


def closest(value: str, choices: Sequence[str], *, cutoff: float = 0.6) -> str | None:
    """The choice closest to a mistyped ``value`` (case ignored), for "did you mean" hints.

    Examples
    --------
    >>> closest("frist", ["first", "mean_logits"]), closest("PRE", ["PER", "LOC"])
    ('first', 'PER')
    >>> closest("zzz", ["first"]) is None
    True
    """
    import difflib

    folded = {c.casefold(): c for c in choices}
    found = difflib.get_close_matches(value.strip().casefold(), list(folded), n=1, cutoff=cutoff)
    return folded[found[0]] if found else None


def unknown_choice(name: str, value: object, choices: Sequence[str]) -> str:
    """The message for ``value`` of option ``name`` outside ``choices``, with the closest one.

    Examples
    --------
    >>> print(unknown_choice("aggregation", "frist", ("first", "hf_max")))
    Expected `aggregation` to be one of 'first', 'hf_max'; got 'frist'. Did you mean 'first'?
    """
    message = str(option_error(name, "one of " + ", ".join(map(repr, choices)), value))
    close = closest(value, choices, cutoff=0.5) if isinstance(value, str) else None
    return message + (f" Did you mean {close!r}?" if close else "")
