"""The output formats: one :class:`Renderer` per format, looked up by name.

Every command's ``--format`` and :func:`render_result` resolve a format here. A
renderer turns results into text for each *kind* of result it supports:

- ``"scores"``: a :class:`ScoreOutput` (a :class:`~nerscore.Report`, plus
  the confusion matrix, breakdown and confidence intervals when asked for;
  ``Renderer.extras`` says which of those the format shows);
- ``"comparison"``: a :class:`~nerscore.Comparison`;
- ``"diagnostics"``: a :class:`~nerscore.Diagnostics`;
- ``"agreement"``: an :class:`~nerscore.Agreement`;
- ``"runs"``: a :class:`~nerscore.analysis.runs.Runs` (several runs of one
  system, :func:`nerscore.score_runs`).

The built-in formats register themselves from their modules (listed in
:data:`BUILTIN`); any other module adds one with :func:`register_renderer`,
or from an installed package through the entry point group
``nerscore.renderers`` (each entry point names a module, imported when a
format name or a file name suffix is not a built-in one). A renderer's
``suffixes`` choose it for ``-o FILE`` as :data:`SUFFIXES` choose the
built-in formats (:func:`suffix_formats`). See ``docs/reports.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nerscore.errors import OptionError, closest

if TYPE_CHECKING:
    from nerscore.analysis.breakdowns import Breakdown
    from nerscore.analysis.confusion import ConfusionMatrix
    from nerscore.scoring.report import Report

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "KINDS",
    "PLAIN_SUFFIXES",
    "SUFFIXES",
    "Renderer",
    "ScoreOutput",
    "get_renderer",
    "register_renderer",
    "render_result",
    "renderer_names",
    "suffix_format",
    "suffix_formats",
]

#: Built-in format -> the module that registers it.
BUILTIN: dict[str, str] = {
    "text": "nerscore.render.text",
    "json": "nerscore.render.json",
    "markdown": "nerscore.render.text",
    "html": "nerscore.render.html",
    "seqeval": "nerscore.render.seqeval",
    "conlleval": "nerscore.render.conlleval",
}

#: File name suffix (lower case) -> the built-in format it names: the format a
#: command writes to ``-o FILE`` when ``--format`` is not given (docs/reports.md).
#: Other formats name theirs in :attr:`Renderer.suffixes`.
SUFFIXES: dict[str, str] = {
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}

#: Suffixes of plain text, which name no format: ``-o scores.txt`` writes the
#: format ``--format`` names (text by default), without looking for a
#: renderer of another package, and no renderer may claim them.
PLAIN_SUFFIXES = frozenset({".txt", ".text", ".log"})

#: The kinds of result a renderer may support.
KINDS = ("scores", "comparison", "diagnostics", "agreement", "runs")

#: Entry point group of renderers from other packages.
ENTRY_POINT_GROUP = "nerscore.renderers"

_REGISTRY: dict[str, Renderer] = {}
_PLUGINS_LOADED = [False]


@dataclass(frozen=True)
class ScoreOutput:
    """What ``nerscore score`` prints: a report, and the extras asked for.

    Attributes
    ----------
    report : Report
    confusion : ConfusionMatrix, optional
        The entity confusion matrix (``--confusion``).
    breakdown : Breakdown, optional
        Scores per bucket (``--breakdown``).
    intervals : Comparison, optional
        Bootstrap confidence intervals of the same scores (``--ci``).
    """

    report: Report
    confusion: ConfusionMatrix | None = None
    breakdown: Breakdown | None = None
    intervals: Any = None

    def extras(self) -> tuple[str, ...]:
        """The names of the extras present."""
        return tuple(k for k in ("confusion", "breakdown", "intervals")
                     if getattr(self, k) is not None)


@dataclass(frozen=True)
class Renderer:
    """One output format.

    Parameters
    ----------
    name : str
        What ``--format`` and ``render_result(..., format=)`` call it.
    summary : str
        One line for help texts.
    functions : mapping of str to callable
        For each kind it supports (:data:`KINDS`), ``f(result, digits) -> str``.
    extras : frozenset of str
        The extras of a :class:`ScoreOutput` it shows (``"confusion"``,
        ``"breakdown"``, ``"intervals"``).
    shows_notes : bool
        Whether the output includes the report's notes (otherwise the
        command line prints them on standard error).
    suffixes : tuple of str
        Lower-case file name endings (``".tsv"``) that choose this format
        for ``-o FILE`` when ``--format`` is not given, as :data:`SUFFIXES`
        do for the built-in formats; a suffix names one format only
        (:func:`register_renderer`).
    """

    name: str
    summary: str
    functions: Mapping[str, Callable[[Any, int], str]]
    extras: frozenset[str] = field(default_factory=frozenset)
    shows_notes: bool = False
    suffixes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.functions) - set(KINDS)
        if unknown:
            raise OptionError(f"Renderer {self.name!r}: unknown kinds {sorted(unknown)}; "
                              f"the kinds are {', '.join(KINDS)}.")
        bad = [s for s in self.suffixes if not isinstance(s, str) or len(s) < 2
               or not s.startswith(".") or s != s.lower() or "." in s[1:]]
        if not isinstance(self.suffixes, tuple) or bad:
            raise OptionError(f"Renderer {self.name!r}: expected `suffixes` as a tuple of "
                              "lower-case file name suffixes, each with one '.', at its start "
                              f"(e.g. ('.tsv',)); got {self.suffixes!r}.", option="suffixes")


def register_renderer(renderer: Renderer) -> Renderer:
    """Make ``renderer`` available to every command and to :func:`render_result` by its name.

    Parameters
    ----------
    renderer : Renderer
        The format; it replaces any format of the same name.

    Returns
    -------
    Renderer
        ``renderer`` (so that a module can write ``RENDERER = register_renderer(...)``).

    Raises
    ------
    OptionError
        When one of its ``suffixes`` names another format already (a
        built-in one, :data:`SUFFIXES`, or one registered before).

    Examples
    --------
    >>> shout = Renderer("shout", "the micro F1, loudly",
    ...                  {"scores": lambda out, digits: f"F1 {out.report.micro.fbeta:.{digits}f}!"})
    >>> _ = register_renderer(shout)
    >>> import nerscore
    >>> nerscore.render_result(nerscore.evaluate([["B-X"]], [["B-X"]]), format="shout")
    'F1 1.00!'
    >>> del _REGISTRY["shout"]
    """
    plain = sorted(set(renderer.suffixes) & PLAIN_SUFFIXES)
    if plain:
        raise OptionError(
            f"Renderer {renderer.name!r} claims {', '.join(plain)}, which is plain text and "
            f"names no format; choose other suffixes (--format {renderer.name} writes it to "
            f"a file of any name).", option="suffixes")
    taken = _claimed()
    shared = [s for s in renderer.suffixes if taken.get(s, renderer.name) != renderer.name]
    if shared:
        raise OptionError(
            f"Renderer {renderer.name!r} claims {', '.join(shared)}, which names the "
            f"{taken[shared[0]]} format already; choose other suffixes (--format "
            f"{renderer.name} writes it to a file of any name).", option="suffixes")
    _REGISTRY[renderer.name] = renderer
    return renderer


def _claimed() -> dict[str, str]:
    """Suffix -> format, for the built-in formats and those registered so far."""
    claimed = dict(SUFFIXES)
    for renderer in _REGISTRY.values():
        for suffix in renderer.suffixes:
            claimed.setdefault(suffix, renderer.name)
    return claimed


def suffix_formats() -> dict[str, str]:
    """Every file name suffix that names a format: the built-in ones first, then the registered.

    Loads the formats of other packages (the entry point group).

    Examples
    --------
    >>> suffix_formats()[".md"]
    'markdown'
    """
    _load_plugins()
    return _claimed()


def suffix_format(suffix: str) -> str | None:
    """The format a lower-case file name suffix names (:func:`suffix_formats`), or None.

    The formats of other packages are loaded only for a suffix that names
    no built-in one and is not plain text (:data:`PLAIN_SUFFIXES`).

    Examples
    --------
    >>> suffix_format(".htm"), suffix_format(".txt")
    ('html', None)
    """
    if suffix in PLAIN_SUFFIXES:
        return None
    return SUFFIXES.get(suffix) or suffix_formats().get(suffix)


def _load_plugins() -> None:
    if _PLUGINS_LOADED[0]:
        return
    _PLUGINS_LOADED[0] = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        importlib.import_module(ep.value.split(":")[0])


def _load_all() -> dict[str, Renderer]:
    for module in dict.fromkeys(BUILTIN.values()):
        importlib.import_module(module)
    _load_plugins()
    return _REGISTRY


def renderer_names(kind: str | None = None) -> tuple[str, ...]:
    """The format names, built-in first; with ``kind``, those that render that kind.

    Examples
    --------
    >>> renderer_names("comparison")
    ('text', 'json', 'markdown')
    """
    registry = _load_all()
    names = [*BUILTIN, *(n for n in registry if n not in BUILTIN)]
    return tuple(n for n in names if kind is None or kind in registry[n].functions)


def get_renderer(name: str, *, kind: str | None = None, extras: tuple[str, ...] = ()) -> Renderer:
    """The renderer of format ``name``, checked to render ``kind`` with ``extras``.

    Raises
    ------
    OptionError
        For an unknown format (with the close matches), or one that cannot
        render what is asked (with the formats that can).

    Examples
    --------
    >>> get_renderer("markdown").summary
    'Markdown tables'
    >>> get_renderer("seqeval", kind="comparison")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: The seqeval format does not render a comparison; formats that do: text, json, markdown.
    """
    if name not in _REGISTRY:
        if name in BUILTIN:
            importlib.import_module(BUILTIN[name])
        else:
            _load_plugins()
    renderer = _REGISTRY.get(name)
    if renderer is None:
        known = renderer_names(kind)
        close = closest(str(name), known)
        hint = f" Did you mean {close!r}?" if close else ""
        raise OptionError(f"Unknown output format {name!r}; the formats are "
                          f"{', '.join(known)}.{hint}")
    if kind is not None and kind not in renderer.functions:
        what = {"runs": "a runs summary", "agreement": "an agreement report",
                "diagnostics": "a diagnostics report", "scores": "a score report"}.get(kind, f"a {kind}")
        raise OptionError(f"The {name} format does not render {what}; formats that do: "
                          f"{', '.join(renderer_names(kind))}.")
    missing = [e for e in extras if e not in renderer.extras]
    if missing:
        able = [n for n in renderer_names(kind) if set(extras) <= _REGISTRY[n].extras]
        raise OptionError(f"The {name} format does not show the {' and '.join(missing)}; "
                          f"formats that do: {', '.join(able)}.")
    return renderer


def _kind_of(result: Any) -> str:
    from nerscore.scoring.report import Report

    if isinstance(result, (ScoreOutput, Report)):
        return "scores"
    kind = getattr(type(result), "render_kind", None)
    if kind in KINDS:
        return str(kind)
    raise OptionError(f"Cannot render a {type(result).__name__}: expected a Report, a "
                      "ScoreOutput, a Comparison, Diagnostics, an Agreement or Runs.")


def render_result(result: Any, *, format: str = "text", digits: int = 2) -> str:  # noqa: A002 - the public name
    """Any result as text in one of the output formats (what ``--format`` gives).

    Parameters
    ----------
    result : Report, ScoreOutput, Comparison, Diagnostics, Agreement or Runs
        What to render.
    format : str
        A format name (:func:`renderer_names`): ``"text"``, ``"json"``,
        ``"markdown"``, ``"html"``, ``"seqeval"``, ``"conlleval"`` or a
        registered one.
    digits : int
        Decimals of the scores.

    Returns
    -------
    str

    Examples
    --------
    >>> import nerscore
    >>> report = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "O"]])
    >>> print(nerscore.render_result(report, format="markdown").splitlines()[4])
    | PER | 1.00 | 1.00 | 1.00 | 1 | 1 | 1 | 0 | 0 |
    """
    kind = _kind_of(result)
    if kind == "scores" and not isinstance(result, ScoreOutput):
        result = ScoreOutput(result)
    extras = result.extras() if isinstance(result, ScoreOutput) else ()
    renderer = get_renderer(format, kind=kind, extras=extras)
    return renderer.functions[kind](result, digits)
