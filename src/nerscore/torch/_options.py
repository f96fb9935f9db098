"""The options of the tensor scorers, checked once, whatever the input.

Every option is checked when it is given, even one that the call at hand
does not use (``aggregation`` without ``word_ids``, ``t`` with
``match="exact"``): a typo is an :class:`nerscore.errors.OptionError` (a
:class:`nerscore.errors.SchemeError` for the scheme) that lists the valid
values and suggests the closest one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nerscore.errors import OptionError, SchemeError, option_error, unknown_choice
from nerscore.torch._tables import TagTables, as_tag_tuple, tag_tables
from nerscore.values.schemes import Mode, Scheme

__all__ = ["MATCHES", "MODES", "STRATEGIES", "Settings", "check_choice", "check_t",
           "settings"]

MATCHES = ("exact", "threshold")
MODES = ("lenient", "strict")
STRATEGIES = ("first", "mean_logits", "max_per_class", "hf_average", "hf_max")


def check_choice(name: str, value: object, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else an :class:`OptionError` (see :func:`nerscore.errors.unknown_choice`).

    Examples
    --------
    >>> check_choice("match", "exact", MATCHES)
    'exact'
    >>> check_choice("match", "exct", MATCHES)
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `match` to be one of 'exact', 'threshold'; got 'exct'. Did you mean 'exact'?
    """
    if isinstance(value, str) and value in choices:
        return value
    raise OptionError(unknown_choice(name, value, choices), option=name)


def check_t(t: object) -> float:
    """The threshold of ``match="threshold"``: a number in ``[0.5, 1]`` on tensors."""
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.5 <= float(t) <= 1.0:
        raise OptionError(
            f"Expected `t` (the threshold of match='threshold') to be a number in [0.5, 1] "
            f"on tensors; got {t!r}. Below 0.5 a span can qualify with several neighbours "
            "and the greedy one-to-one order has no fixed-shape form; score such thresholds "
            "with nerscore.count_matches.", option="t")
    return float(t)


def check_mode(mode: object) -> str:
    """The canonical mode name (case-insensitive; ``conlleval`` is refused by the tables)."""
    try:
        return Mode.parse(mode, name="mode").value
    except ValueError:
        raise OptionError(unknown_choice("mode", mode, MODES), option="mode") from None


def check_scheme(scheme: object) -> str | None:
    """The canonical scheme name (aliases such as ``BIO`` accepted), or None."""
    if scheme is None:
        return None
    try:
        return Scheme.parse(scheme, name="scheme").value
    except ValueError:
        raise SchemeError(unknown_choice("scheme", scheme, [s.value for s in Scheme])) from None


def check_flag(name: str, value: object) -> bool:
    """A ``bool`` option (``validate``)."""
    if not isinstance(value, bool):
        raise option_error(name, "True or False", value)
    return value


def check_ignore_index(value: object) -> int:
    """The ``ignore_index`` option: an int."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise option_error("ignore_index", "an int (the target value of positions to drop)",
                           value)
    return value


@dataclass(frozen=True, eq=False)
class Settings:
    """The checked options of a tensor scorer."""

    tables: TagTables
    match: str
    t: float
    ignore_index: int
    aggregation: str
    validate: bool


def settings(labels: Sequence[str], *, scheme: object, mode: object, match: object,
             t: object, ignore_index: object, aggregation: object,
             validate: object) -> Settings:
    """Check every option of :func:`nerscore.torch.count_entities` and the metric.

    Examples
    --------
    >>> settings(["O", "B-PER"], scheme=None, mode="lenient", match="exact", t=0.5,
    ...          ignore_index=-100, aggregation="frist", validate=False)
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `aggregation` to be one of 'first', 'mean_logits', 'max_per_class', 'hf_average', 'hf_max'; got 'frist'. Did you mean 'first'?
    """
    checked_match = check_choice("match", match, MATCHES)
    checked_t = check_t(t)
    checked_aggregation = check_choice("aggregation", aggregation, STRATEGIES)
    checked_ignore = check_ignore_index(ignore_index)
    checked_validate = check_flag("validate", validate)
    tables = tag_tables(as_tag_tuple(labels), check_scheme(scheme), check_mode(mode))
    return Settings(tables, checked_match, checked_t, checked_ignore, checked_aggregation,
                    checked_validate)
