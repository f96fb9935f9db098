"""The one accumulator: feed batches with ``update``, merge scorers, read the report with ``compute``.

Training loops, streamed files (:mod:`nerscore.accumulate.files`) and Dask
partitions (:mod:`nerscore.integrations.dask`) all count through
:class:`EntityScorer`: counts are mergeable (``Counts + Counts``), and so are
confusion matrices and error listings (records of later batches renumbered
after earlier ones).
"""

from __future__ import annotations

import copy
import dataclasses
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nerscore.decode.label_ops import warn_unknown_labels
from nerscore.decode.text_agreement import TextMismatches
from nerscore.errors import (
    InputTypeError,
    NerscoreError,
    OptionError,
    TextMismatchWarning,
    caught_warnings,
)
from nerscore.io.chunks import NotStreamable
from nerscore.matching import get_matcher
from nerscore.scoring.counting import run_matcher
from nerscore.scoring.metrics import build_report
from nerscore.scoring.report import Report
from nerscore.values.counts import Counts
from nerscore.values.decoding import Decoding
from nerscore.values.label_ops import LabelOps, seen_labels
from nerscore.values.ratios import check_beta, check_zero_division
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.selection import Selection

if TYPE_CHECKING:  # the analysis modules are imported when a run asks for them
    from nerscore.analysis.confusion import ConfusionMatrix
    from nerscore.analysis.errors import ErrorRecord

__all__ = ["EntityScorer"]


class EntityScorer:
    """Accumulates counts batch by batch; :meth:`compute` equals one call on all the data.

    Parameters
    ----------
    scheme, mode, match, suffix, delimiter, outside, **options
        As for :func:`nerscore.count_matches` (``options`` include
        ``discontinuous`` and ``subset``, docs/fragments.md).
    beta, zero_division, labels
        As for :func:`nerscore.evaluate`, used by :meth:`compute`.
    confusion : bool
        Also sum the entity confusion matrix of every batch (:attr:`confusion`).
    on_errors : callable, optional
        Called with the error records of every batch, numbered as in the
        listing of all batches together: a sequence of ``ErrorRecord``
        held as columns (:class:`~nerscore.analysis.errors.ErrorTable`).
    whole_input : bool
        The report must be, note for note, the one of :func:`nerscore.evaluate`
        on all batches at once: a batch that warns or notes something (its
        message would speak of that batch only; also where it then raises an
        input error), or whose matcher details differ from earlier batches,
        raises
        :class:`~nerscore.io.chunks.NotStreamable` instead (what the file
        scorers use to fall back to reading whole files).

    Attributes
    ----------
    counts : Counts
    n_sequences : int
    n_batches : int
    confusion : ConfusionMatrix or None
        The summed matrix (``confusion=True``, after a batch).
    strict_unread : (int, int)
        Tag runs of gold and of the predictions that strict mode read as no
        entity, summed over batches (noted by :meth:`compute`).

    Examples
    --------
    >>> scorer = EntityScorer(zero_division=0.0)
    >>> scorer.update([["B-PER", "O"]], [["B-PER", "O"]])
    >>> scorer.update([["B-LOC"]], [["O"]])
    >>> scorer.compute().micro.recall
    0.5
    >>> other = EntityScorer(zero_division=0.0)
    >>> other.update([["B-LOC"]], [["B-LOC"]])
    >>> (scorer + other).compute().micro.recall, (scorer + other).compute().n_sequences
    (0.6666666666666666, 3)
    """

    def __init__(
        self,
        *,
        scheme: str | Scheme | None = None,
        mode: str | Mode = "lenient",
        match: str = "exact",
        beta: float = 1.0,
        zero_division: Any = "warn",
        labels: Sequence[str] | None = None,
        suffix: bool = False,
        delimiter: str = "-",
        outside: str = "O",
        confusion: bool = False,
        on_errors: Callable[[Sequence[ErrorRecord]], None] | None = None,
        whole_input: bool = False,
        **options: Any,
    ) -> None:
        self._setup(Decoding(scheme, mode, suffix, delimiter, outside), match, options, beta,
                    zero_division, labels, confusion, on_errors, whole_input)

    @classmethod
    def with_decoding(
        cls, decoding: Decoding, *, match: str = "exact",
        options: Mapping[str, Any] | None = None, beta: float = 1.0,
        zero_division: Any = "warn", labels: Sequence[str] | None = None,
        confusion: bool = False, on_errors: Callable[[Sequence[ErrorRecord]], None] | None = None,
        whole_input: bool = False,
    ) -> EntityScorer:
        """A scorer from a :class:`~nerscore.Decoding` and the matcher options as one mapping.

        Examples
        --------
        >>> from nerscore import Decoding
        >>> s = EntityScorer.with_decoding(Decoding(scheme="BIO"), match="threshold",
        ...                                options={"t": 1})
        >>> s.update([["B-PER", "I-PER"]], [["B-PER", "O"]])
        >>> s.compute().options
        {'t': 1.0, 'compat': None}
        """
        scorer = cls.__new__(cls)
        scorer._setup(decoding, match, options or {}, beta, zero_division, labels, confusion,
                      on_errors, whole_input)
        return scorer

    def _setup(self, decoding: Decoding, match: str, options: Mapping[str, Any], beta: float,
               zero_division: Any, labels: Sequence[str] | None, confusion: bool,
               on_errors: Callable[[Sequence[ErrorRecord]], None] | None,
               whole_input: bool) -> None:
        matcher = get_matcher(match)
        self._decoding = decoding
        self._match = match
        self._label_ops, options = LabelOps.split(options)
        self._selection, options = Selection.split(options)
        self._given = tuple(options)
        self._options = matcher.resolve(options)
        self._beta = check_beta(beta)
        self._zero_division = check_zero_division(zero_division)
        self._labels = labels
        self._want_confusion = bool(confusion)
        self.on_errors = on_errors
        self._whole_input = bool(whole_input)
        if whole_input and self._options.get("compat") == "kaggle":
            raise NotStreamable(
                "compat='kaggle' scores labels over the whole corpus, not as a sum of batches")
        if (confusion or on_errors is not None) and not matcher.aligns:
            raise NotStreamable(f"match={match!r} has no alignment")
        self.reset()

    def reset(self) -> None:
        """Forget everything seen."""
        self.counts = Counts()
        self.n_sequences = 0
        self.n_tokens: int | None = None
        self.n_batches = 0
        self.confusion: ConfusionMatrix | None = None
        self.strict_unread = (0, 0)
        self.text_mismatches = TextMismatches()
        self._details: tuple[str | None, str | None, dict[str, Any]] | None = None
        self._notes: dict[str, None] = {}  # the batches' notes, in order, each once

    def _aligned(self) -> bool:
        wants = self._want_confusion or self.on_errors is not None or self._whole_input
        return wants and get_matcher(self._match).aligns

    def update(self, y_true: object, y_pred: object, *,
               texts: Sequence[Any] | None = None) -> None:
        """Add one batch (both sides cover the same sentences or documents).

        Parameters
        ----------
        y_true, y_pred : object
            Any input the scorers take.
        texts : sequence, optional
            The tokens (or text) of each sequence, for the context of error records.
        """
        matcher = get_matcher(self._match)
        if self._whole_input:  # a warning would speak of this batch only
            with caught_warnings() as caught:
                try:
                    run = run_matcher(y_true, y_pred, self._match, self._decoding,
                                      self._run_options(), align=self._aligned(),
                                      warn_labels=False)
                except NerscoreError:  # warned before: the whole input warns, then raises
                    _check_unwarned(caught)
                    raise
            _check_unwarned(caught)
        else:
            run = run_matcher(y_true, y_pred, self._match, self._decoding, self._run_options(),
                              align=self._aligned(), warn_labels=False)
        prep, res = run.prep, run.result
        extra = dict(res.extra)
        if self._whole_input:
            if prep.join_notes or extra.get("notes"):
                raise NotStreamable("a chunk has notes of its own")
            self.text_mismatches += prep.text_mismatches.shifted(self.n_sequences)
        self._check_summable(self.n_batches)
        notes = extra.pop("notes", ())
        if matcher.notes is None:  # else rebuilt from the sums by compute()
            self._notes.update(dict.fromkeys(notes))
        if matcher.report_extra is not None:  # rebuilt from the summed counts by compute()
            with caught_warnings("ignore"):
                for key in matcher.report_extra(res.counts, self._zero_division):
                    extra.pop(key, None)
        self._add_details((prep.scheme, prep.mode, extra))
        self.counts = self.counts + res.counts
        self._add_unread(prep.strict_unread)
        self.n_sequences += prep.n_sequences
        if prep.n_tokens is not None:
            self.n_tokens = (self.n_tokens or 0) + prep.n_tokens
        if self._want_confusion:  # the batch's alignment is all the matrix reads
            from nerscore.analysis.confusion import confusion_from_alignment
            from nerscore.analysis.pairing import analysis_alignment

            cm = confusion_from_alignment(analysis_alignment(self._match, res.alignment))
            self.confusion = cm if self.confusion is None else self.confusion + cm
        if self.on_errors is not None:
            from nerscore.analysis.errors import alignment_errors

            # columns: records are made only if the receiver reads them one by one
            self.on_errors(alignment_errors(
                self._match, res.alignment, n_sequences=prep.n_sequences, doc_ids=prep.doc_ids,
                texts=texts if texts is not None else prep.texts,
            ).shifted(self.n_sequences - prep.n_sequences))
        self.n_batches += 1

    def _add_unread(self, unread: tuple[int, int]) -> None:
        """Add the tag runs strict mode read as no entity in a batch (or another scorer)."""
        self.strict_unread = (self.strict_unread[0] + unread[0],
                              self.strict_unread[1] + unread[1])

    def _settings(self) -> dict[str, Any]:
        """Everything that decides the counts: matcher, options, decoding, label ops, selection."""
        decoding = {f.name: getattr(self._decoding, f.name) for f in dataclasses.fields(Decoding)}
        return {"match": self._match, **decoding, **self._options, **self._label_ops.given(),
                **self._selection.given()}

    def _check_summable(self, n_batches: int) -> None:
        """Refuse to add batches to ``n_batches`` others when the matcher's counts do not add up.

        Raises
        ------
        OptionError
            For ``compat="kaggle"``: the reference's outer join adds one false
            positive or negative per label over the whole corpus, so batches
            counted apart would add one per batch.
        """
        if self.n_batches and n_batches and self._options.get("compat") == "kaggle":
            raise OptionError(
                "compat='kaggle' scores each label over the whole corpus (the reference's "
                "outer join adds one false positive or negative per label, not per batch), "
                "so its counts cannot be summed over batches; give all the data in one "
                "update, or use nerscore.evaluate.", option="compat")

    def _run_options(self) -> dict[str, Any]:
        """The matcher's options and the selection's, as :func:`run_matcher` takes them."""
        return {**self._options, **self._selection.given(), **self._label_ops.given()}

    def _add_details(self, details: tuple[str | None, str | None, dict[str, Any]]) -> None:
        """Keep the scheme, mode and matcher details of the first batch; later ones must agree."""
        if self._details is None:
            self._details = (details[0], details[1], dict(details[2]))
        elif self._whole_input:
            if not _same_details(details, self._details):
                raise NotStreamable("chunks report different matcher details")
        else:
            _add_extra(self._details[2], details[2])

    def merge(self, other: EntityScorer) -> None:
        """Add what ``other`` (same options, later inputs) has counted, in place.

        Raises
        ------
        NotStreamable
            With ``whole_input``, when the two report different matcher details.
        OptionError
            When the two count differently (another matcher, matcher option,
            decoding, label operation or selection): their counts do not add up.
        InputTypeError
            When ``other`` is not an EntityScorer.
        """
        if not isinstance(other, EntityScorer):
            raise InputTypeError(f"Expected an EntityScorer to merge; got {type(other).__name__}.")
        if other.n_batches == 0:
            return
        mine, theirs = self._settings(), other._settings()
        if mine != theirs:
            keys = [k for k in dict.fromkeys([*mine, *theirs]) if mine.get(k) != theirs.get(k)]
            differ = [f"{k}={_shown(mine, k)} here, {_shown(theirs, k)} there" for k in keys]
            raise OptionError(
                f"Cannot merge scorers that count differently ({'; '.join(differ)}): their "
                "counts do not add up. Merge scorers made with the same settings.",
                option=keys[0])
        self._check_summable(other.n_batches)
        if other._details is not None:
            self._add_details(other._details)
        self.counts = self.counts + other.counts
        self._notes.update(other._notes)
        self._add_unread(other.strict_unread)
        self.text_mismatches += other.text_mismatches.shifted(self.n_sequences)
        self.n_sequences += other.n_sequences
        if other.n_tokens is not None:
            self.n_tokens = (self.n_tokens or 0) + other.n_tokens
        if other.confusion is not None:
            self.confusion = (other.confusion if self.confusion is None
                              else self.confusion + other.confusion)
        self.n_batches += other.n_batches

    def __add__(self, other: EntityScorer) -> EntityScorer:
        out = copy.copy(self)
        out.reset()
        out.merge(self)
        out.merge(other)
        return out

    def compute(self, notes: Sequence[str] = ()) -> Report:
        """The report of everything seen so far, with ``notes`` after the scorer's own.

        With ``whole_input``, documents whose texts differ are the scorer's
        own note, and one :class:`~nerscore.errors.TextMismatchWarning`, as
        on the whole input at once. A label that the label operations name
        and no batch has is one :class:`~nerscore.errors.UnknownLabelWarning`.

        Raises
        ------
        NotStreamable
            With ``whole_input``, before any batch.
        """
        details = self._details
        if details is None:
            if self._whole_input:
                raise NotStreamable("no chunk to score")
            details = (self._decoding.scheme_name, self._decoding.mode.value, {})
        scheme, mode, extra = details
        rebuild = get_matcher(self._match).notes
        notes = (*(rebuild(extra, self.counts) if rebuild else ()), *self._notes, *notes)
        if self.text_mismatches:
            self.text_mismatches.warn()
            notes = (self.text_mismatches.note(), *notes)
        if self._label_ops and self.n_batches:  # once, over the labels of every batch
            warn_unknown_labels(self._label_ops, seen_labels(self.counts.tallies))
        return build_report(
            self.counts, match=self._match, options={k: self._options[k] for k in self._given},
            scheme=scheme, mode=mode, beta=self._beta, zero_division=self._zero_division,
            labels=self._labels, n_sequences=self.n_sequences, n_tokens=self.n_tokens,
            extra=dict(extra), notes=tuple(notes), selection=self._selection,
            strict_unread=self.strict_unread,
        )


def _check_unwarned(caught: Sequence[warnings.WarningMessage]) -> None:
    """Raise :class:`NotStreamable` for a batch that warned (its warning would speak of it only).

    Documents whose texts differ are the exception: they add up over batches,
    into one note and warning for the whole input.
    """
    caught = [w for w in caught if not issubclass(w.category, TextMismatchWarning)]
    if caught:
        raise NotStreamable(f"a chunk warned: {caught[0].message}")


def _same_details(a: tuple[Any, Any, Mapping[str, Any]],
                  b: tuple[Any, Any, Mapping[str, Any]]) -> bool:
    if a[:2] != b[:2] or a[2].keys() != b[2].keys():
        return False
    for k in a[2]:
        x, y = a[2][k], b[2][k]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True


def _add_extra(total: dict[str, Any], batch: Mapping[str, Any]) -> None:
    """Add a batch's matcher details to ``total``, in place.

    Counts add up (an integer, or a mapping of integers such as
    ``"merged"``); any other entry (the threshold ``t``, ``compat``) is the
    same in every batch and kept once.
    """
    for key, value in batch.items():
        old = total.get(key)
        if old is None:
            total[key] = value
        elif _is_count(old) and _is_count(value):
            total[key] = old + value
        elif (isinstance(old, Mapping) and isinstance(value, Mapping)
              and all(map(_is_count, (*old.values(), *value.values())))):
            total[key] = {k: old.get(k, 0) + value.get(k, 0) for k in {**old, **value}}


def _is_count(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _shown(settings: Mapping[str, Any], key: str) -> str:
    """A setting for a message: its value (an enum's value), or "unset"."""
    if key not in settings:
        return "unset"
    value = settings[key]
    return repr(getattr(value, "value", value))
