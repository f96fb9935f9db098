"""Matcher runs remembered within a block, so that one command does not match the same pair twice.

``nerscore report`` scores each system (:func:`nerscore.evaluate`) and then
diagnoses it (:func:`nerscore.diagnose`), which decodes and matches the
very same inputs again. Inside :func:`reusing_runs`, a run of the same
input objects with the same matcher, options and decoding is answered from
the first one: the same :class:`~nerscore.scoring.counting.MatcherRun`,
with the warnings it gave raised again, so the output is what two runs
give.

Runs are told apart by the identity of the inputs (the memory keeps them
alive, so no other object takes their place): the block must not change
them in place. Outside a block nothing is remembered; library calls never
are.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from nerscore.errors import caught_warnings

__all__ = ["remembered", "reusing", "reusing_runs", "run_key"]

T = TypeVar("T")

_Memory = dict[Hashable, tuple[Any, list[warnings.WarningMessage], tuple[object, ...]]]
_MEMORY: ContextVar[_Memory | None] = ContextVar("nerscore_runs", default=None)


@contextmanager
def reusing_runs() -> Iterator[None]:
    """Within the block, :func:`remembered` answers a key it has seen from memory.

    Examples
    --------
    >>> calls = []
    >>> def run():
    ...     calls.append(1)
    ...     return len(calls)
    >>> with reusing_runs():
    ...     remembered(("a",), (), run), remembered(("a",), (), run)
    (1, 1)
    >>> remembered(("a",), (), run)
    2
    """
    token = _MEMORY.set({})
    try:
        yield
    finally:
        _MEMORY.reset(token)


def reusing() -> bool:
    """Whether a :func:`reusing_runs` block is open (outside one, no key need be made)."""
    return _MEMORY.get() is not None


def run_key(*parts: object, options: Mapping[str, Any]) -> Hashable | None:
    """A key of ``parts`` (hashable values; inputs by identity) and ``options``; None if unhashable.

    Examples
    --------
    >>> run_key("exact", options={"labeled": False}) == run_key("exact", options={"labeled": False})
    True
    >>> run_key("exact", options={"labels_map": {"A": "B"}}) is None
    True
    """
    key = (*parts, tuple(sorted(options.items())))
    try:
        hash(key)
    except TypeError:  # an option holding a list or mapping: not remembered
        return None
    return key


def remembered(key: Hashable | None, keep: tuple[object, ...], compute: Callable[[], T]) -> T:
    """``compute()``, or inside :func:`reusing_runs` what it returned for ``key`` before.

    ``keep`` holds the objects ``key`` names by identity (kept alive with
    the result). The warnings ``compute`` gave are given again on every
    answer from memory. ``key=None``: never remembered.
    """
    memory = _MEMORY.get()
    if memory is None or key is None:
        return compute()
    value: T
    if key in memory:
        value, caught, _ = memory[key]
    else:
        with caught_warnings() as caught:
            value = compute()
        memory[key] = (value, caught, keep)
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return value
