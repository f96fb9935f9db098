"""The matcher registry: every matcher is one :class:`Matcher` entry.

A matcher module defines one module-level ``MATCHER = Matcher(...)`` that
knows its name, its options (defaults and validation), what input it needs
and how to run; :data:`MATCHERS` maps each name to its module. Adding a
matcher means writing one module and adding one line to :data:`MATCHERS`;
nothing else in the library names a matcher.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nerscore.errors import OptionError, closest, option_error, user_keywords
from nerscore.matching.alignment import Alignment, MatchResult
from nerscore.values.label_ops import LabelOps
from nerscore.values.selection import Selection, parse_min_score

if TYPE_CHECKING:
    from nerscore.decode.inputs import Prepared
    from nerscore.values.counts import Counts

__all__ = ["DECODING_KEYWORDS", "ENTITY_OPTIONS", "MATCHERS", "Matcher", "Option", "get_matcher",
           "matcher_names"]

#: name -> module that defines ``MATCHER``, in the order they are listed to users.
MATCHERS: dict[str, str] = {
    "exact": "nerscore.matching.exact",
    "semeval": "nerscore.matching.semeval",
    "overlap": "nerscore.matching.overlap",
    "threshold": "nerscore.matching.threshold",
    "token": "nerscore.matching.token",
    "mention": "nerscore.matching.mention",
}


#: The keywords every function that takes matcher options also takes (by name or through
#: its ``**options``): the matcher, how tags are decoded, and which entities are scored
#: (``discontinuous``, ``subset``, ``min_score``: :class:`~nerscore.values.selection.Selection`), and the
#: label operations (``labels_map``, ``keep``, ``drop``: :class:`~nerscore.values.label_ops.LabelOps`).
DECODING_KEYWORDS = ("match", "scheme", "mode", "suffix", "delimiter", "outside",
                     *Selection.KEYWORDS, *LabelOps.KEYWORDS)


@dataclass(frozen=True)
class Option:
    """One matcher option: its name, default and validation.

    Attributes
    ----------
    name : str
        The keyword (``s``, ``t``, ``compat``, ...); the command line's flag is
        ``--`` plus the name with ``_`` as ``-``.
    default : object
        Its default value (already valid).
    parse : callable
        Validates a user value and returns it normalised (enum members as
        plain strings); raises :class:`~nerscore.errors.OptionError`.
    help : str
        One line for ``--help`` and the docs.
    choices : tuple of str
        The valid values of an option with a fixed set (empty otherwise).
    flag_name : str
        The command line's name for it when that is not the keyword (a
        boolean option's flag turns it from its default to the other value:
        ``labeled`` is ``--unlabeled``).
    """

    name: str
    default: Any
    parse: Callable[[Any], Any]
    help: str = ""
    choices: tuple[str, ...] = ()
    flag_name: str = ""

    @property
    def flag(self) -> str:
        """The command-line flag of this option."""
        return "--" + (self.flag_name or self.name).replace("_", "-")


def choice(name: str, values: tuple[str | None, ...]) -> Callable[[Any], Any]:
    """A parser for an option with a fixed set of values (strings are case-insensitive).

    Examples
    --------
    >>> choice("compat", ("kaggle", None))("KAGGLE")
    'kaggle'
    """
    names = [repr(v) for v in values if v is not None]
    expected = "one of " + ", ".join(names) + (" or None" if None in values else "")

    def parse(value: Any) -> Any:
        if value is None and None in values:
            return None
        if isinstance(value, str):
            for v in values:
                if v is not None and v.lower() == value.strip().lower():
                    return v
        raise option_error(name, expected, value)

    return parse


#: The options every matcher takes besides its own (``discontinuous``, ``subset``, ``min_score``: :class:`~nerscore.values.selection.Selection`).
#: applied to both sides before the matcher runs, shown in a report's ``entities``, and the
#: command line's ``--discontinuous`` and ``--subset`` (docs/fragments.md).
ENTITY_OPTIONS: tuple[Option, ...] = (
    Option("discontinuous", "fragments",
           lambda v: Selection(discontinuous=v).discontinuous,
           "how discontinuous entities are matched: 'fragments' (default) or 'extent' (one "
           "span from the first start to the last end)", ("fragments", "extent")),
    Option("subset", None, lambda v: Selection(subset=v).subset,
           "'discontinuous' scores only the gold and predicted entities with two or more "
           "fragments", ("discontinuous",)),
    Option("min_score", None, parse_min_score,
           "keep only the predictions scored at least this (the operating threshold of a "
           "scored system; docs/curves.md)", flag_name="threshold"),
)


def _on_entities(fn: Callable[..., MatchResult]) -> Callable[..., MatchResult]:
    def run(prep: Prepared, **options: Any) -> MatchResult:
        return fn(prep.gold, prep.pred, **options)

    return run


def _same(alignment: Alignment) -> Alignment:
    return alignment


@dataclass(frozen=True)
class Matcher:
    """A matcher as one registry entry.

    Attributes
    ----------
    name : str
        The ``match=`` value.
    summary : str
        One line: the rule and the tool it reproduces.
    options : tuple of Option
        Its options, in the order they are documented.
    run : callable
        ``run(prepared, **options) -> MatchResult`` on both sides of a
        prepared input (entity columns, plus the encoded tags of tag inputs).
    aligns : bool
        Whether it pairs entities (False for ``token``, whose
        :class:`MatchResult` has no alignment).
    needs : str
        What it scores: ``"entities"`` (decoded tags or spans) or
        ``"units"`` (tokens of tag inputs, characters or tokens of spans).
    count : callable, optional
        ``count(prepared, **options) -> Counts``: a faster path when only the
        counts are needed; defaults to ``run(...).counts``.
    analysis : callable
        ``analysis(alignment) -> Alignment``: the pairing that the confusion
        matrix and the error listing read (the matcher's own alignment unless
        the matcher says otherwise).
    report_extra : callable, optional
        ``report_extra(counts, zero_division) -> dict``: matcher-specific
        report entries rebuilt from (possibly summed) counts.
    notes : callable, optional
        ``notes(extra, counts) -> list of str``: the notes of a result
        (``extra["notes"]``) rebuilt from its ``extra`` and counts, for a
        matcher whose notes count something; :class:`~nerscore.EntityScorer`
        rebuilds them from the sums over batches.
    """

    name: str
    summary: str
    run: Callable[..., MatchResult]
    options: tuple[Option, ...] = ()
    aligns: bool = True
    needs: str = "entities"
    count: Callable[..., Counts] | None = None
    analysis: Callable[[Alignment], Alignment] = _same
    report_extra: Callable[[Counts, Any], dict[str, Any]] | None = field(default=None)
    notes: Callable[[Mapping[str, Any], Counts], list[str]] | None = field(default=None)

    @classmethod
    def on_entities(cls, name: str, summary: str, fn: Callable[..., MatchResult],
                    **kwargs: Any) -> Matcher:
        """An entry whose ``run`` calls ``fn(gold, pred, **options)`` on entity columns."""
        return cls(name, summary, _on_entities(fn), **kwargs)

    @property
    def defaults(self) -> dict[str, Any]:
        """Every option with its default."""
        return {o.name: o.default for o in self.options}

    def resolve(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate user options and fill in the defaults.

        Raises
        ------
        OptionError
            For an unknown keyword (suggesting the closest valid one, and
            listing every keyword of the function called and every option of
            the matcher) or a bad value.

        Examples
        --------
        >>> get_matcher("overlap").resolve({"s": 1})
        {'s': 1.0, 'assignment': 'greedy', 'overlapping': 'error', 'compat': None}
        >>> get_matcher("exact").resolve({"labled": False})
        Traceback (most recent call last):
        ...
        nerscore.errors.OptionError: Unknown keyword 'labled'; did you mean 'labeled'? The keywords are 'match', 'scheme', 'mode', 'suffix', 'delimiter', 'outside', 'discontinuous', 'subset', 'min_score', 'labels_map', 'keep', 'drop' and the options of match='exact': 'labeled'.
        """
        known = {o.name: o for o in self.options}
        unknown = [n for n in options if n not in known]
        if unknown:
            raise OptionError(self._unknown_message(unknown, user_keywords()),
                              option=unknown[0])
        return {n: o.parse(options[n]) if n in options else o.default for n, o in known.items()}

    def _unknown_message(self, unknown: list[str], keywords: tuple[str, ...]) -> str:
        """What is unknown, the close matches, and every valid keyword."""
        own = [o.name for o in self.options]
        valid = list(dict.fromkeys([*keywords, *DECODING_KEYWORDS]))
        texts = []
        for name in unknown:
            found = closest(name, [*valid, *own])
            close = [found] if found else []
            elsewhere = [m for m in MATCHERS if m != self.name
                         and any(o.name == name for o in get_matcher(m).options)]
            note = ""
            if close:
                note = f"did you mean {close[0]!r}?"
            elif elsewhere:
                note = (f"an option of {' and '.join(f'match={m!r}' for m in elsewhere)}, "
                        f"not of match={self.name!r}")
            texts.append((repr(name), note))
        if len(texts) == 1 and texts[0][1].endswith("?"):
            head = f"Unknown keyword {texts[0][0]}; {texts[0][1]}"
        else:
            head = "Unknown keyword" + ("s " if len(texts) > 1 else " ") + ", ".join(
                f"{name} ({note})" if note else name for name, note in texts) + "."
        listed = ", ".join(map(repr, valid))
        if own:
            tail = f"and the options of match={self.name!r}: {', '.join(map(repr, own))}."
        else:
            tail = f"(match={self.name!r} has no options)."
        return f"{head} The keywords are {listed} {tail}"

    def counts(self, prep: Prepared, options: Mapping[str, Any]) -> Counts:
        """The counts of resolved ``options`` on ``prep`` (the fast path when there is one)."""
        if self.count is not None:
            return self.count(prep, **options)
        return self.run(prep, **options).counts

    def counted(self, prep: Prepared, options: Mapping[str, Any]) -> MatchResult:
        """The result without an alignment: the fast path's counts, or ``run``'s counts and extra.

        A matcher without a fast path keeps its ``extra`` (notes on spans it
        merged, its threshold, ...), which a result of the counts alone would lose.
        """
        if self.count is not None:
            return MatchResult(self.count(prep, **options), None)
        res = self.run(prep, **options)
        return MatchResult(res.counts, None, res.extra)


def matcher_names() -> tuple[str, ...]:
    """Every registered matcher name."""
    return tuple(MATCHERS)


def get_matcher(name: object) -> Matcher:
    """The registry entry of matcher ``name``.

    Raises
    ------
    OptionError
        For an unknown name, listing the valid ones.

    Examples
    --------
    >>> get_matcher("threshold").defaults
    {'t': 0.5, 'compat': None}
    >>> get_matcher("fuzzy")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `match` to be one of 'exact', 'semeval', 'overlap', 'threshold', 'token', 'mention'; got 'fuzzy'.
    """
    module = MATCHERS.get(name) if isinstance(name, str) else None
    if module is None:
        valid = ", ".join(repr(n) for n in MATCHERS)
        raise option_error("match", f"one of {valid}", name)
    entry: Matcher = importlib.import_module(module).MATCHER
    return entry
