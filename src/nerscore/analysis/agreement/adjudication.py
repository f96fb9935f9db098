"""An adjudicated annotation from several annotators' by voting (docs/agreement.md).

In each document, every distinct ``(start, end, label)`` entity gets one vote
from each annotator who marked it (an annotator votes once per entity). It
*wins* when its votes reach the quorum: ``min_votes``, by default a strict
majority of the annotators of that document (``n // 2 + 1``).

Two winners *conflict* when they overlap and no annotator marked both
(annotators who mark both mean them to nest or overlap, so both are kept).
Conflicts are resolved winner by winner in this order: more votes first,
then the longer span, then the earlier start, then the label in alphabetical
order; a winner that conflicts with one already kept is dropped. A conflict
decided between equal votes is a *tie*: counted and listed.

Ignore regions (documents' ``ignore``: stretches an annotator did not
annotate, for every label or one) are voted on the same way: a distinct
``(start, end, label)`` region is kept when its votes reach the quorum. A
kept region that overlaps an accepted entity of its label (of any label, for
a region of every label) is dropped, since the adjudicated set annotates
that stretch; it overlaps the entity as an ignore region overlaps a
prediction in scoring (:meth:`nerscore.decode.ignore.Regions.covering`). What is dropped is counted in the stats and their summary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from nerscore.analysis.agreement.inputs import DECIDED, Annotated, join_annotations, relabel
from nerscore.decode.ignore import Regions
from nerscore.errors import option_error
from nerscore.values.decoding import Decoding
from nerscore.values.documents import Document, is_int
from nerscore.values.label_ops import LabelOps
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import Entity, EntityColumns, Span
from nerscore.values.wording import counted

__all__ = ["AdjudicationStats", "Tie", "adjudicate"]

#: A candidate: start, end, label, then the fragments of a discontinuous entity.
Key = tuple[Any, ...]
#: An ignore region: start, end, label (None: every label).
RegionKey = tuple[int, int, str | None]


@dataclass(frozen=True)
class Tie:
    """A conflict decided between winners with equal votes.

    Attributes
    ----------
    document : str
        Its id (or position).
    kept, dropped : tuple of (int, int, str)
        The entity kept (by the rule) and the one dropped.
    votes : int
        Votes of each.
    """

    document: str
    kept: Key
    dropped: Key
    votes: int


@dataclass(frozen=True)
class AdjudicationStats:
    """What adjudication decided.

    Attributes
    ----------
    names : tuple of str
        The annotators.
    min_votes : int or None
        The quorum given (None: a strict majority of each document's annotators).
    n_documents : int
        Documents adjudicated.
    candidates : int
        Distinct entities proposed by at least one annotator.
    accepted : int
        Entities in the adjudicated set.
    below_quorum : int
        Candidates with too few votes.
    conflicts : int
        Winners dropped because they overlap a winner kept before them.
    ties : tuple of Tie
        Conflicts decided between equal votes.
    unanimous : int
        Accepted entities every annotator of the document marked, in
        documents two or more annotators annotated.
    single : int
        Accepted entities of documents only one annotator annotated (that
        annotator's word alone, not counted as unanimous).
    notes : tuple of str
        Documents some annotators lack.
    regions : int
        Distinct ignore regions given by at least one annotator.
    regions_kept : int
        Ignore regions in the adjudicated documents.
    regions_below_quorum : int
        Regions with too few votes.
    regions_overlapping : int
        Regions with enough votes dropped because they overlap an accepted
        entity of their label.
    """

    names: tuple[str, ...]
    min_votes: int | None
    n_documents: int
    candidates: int
    accepted: int
    below_quorum: int
    conflicts: int
    ties: tuple[Tie, ...]
    unanimous: int
    single: int = 0
    notes: tuple[str, ...] = ()
    regions: int = 0
    regions_kept: int = 0
    regions_below_quorum: int = 0
    regions_overlapping: int = 0

    def summary(self) -> str:
        """A few lines saying what was decided.

        Examples
        --------
        >>> _, stats = adjudicate([[["B-X", "O"]], [["B-X", "O"]], [["O", "B-Y"]]])
        >>> print(stats.summary())
        3 annotators (A, B, C), 1 document; quorum: a strict majority of each document's annotators
        2 candidate entities: 1 accepted (0 unanimous), 1 below the quorum, 0 dropped in conflicts (0 ties)
        """
        quorum = (counted(self.min_votes, "vote") if self.min_votes is not None
                  else "a strict majority of each document's annotators")
        single = f", {self.single} single annotator" if self.single else ""
        lines = [
            f"{counted(len(self.names), 'annotator')} ({', '.join(self.names)}), "
            f"{counted(self.n_documents, 'document')}; quorum: {quorum}",
            f"{counted(self.candidates, 'candidate entity', 'candidate entities')}: "
            f"{self.accepted} accepted ({self.unanimous} unanimous{single}), "
            f"{self.below_quorum} below the quorum, {self.conflicts} dropped in conflicts "
            f"({counted(len(self.ties), 'tie')})",
        ]
        if self.regions:
            lines.append(f"{counted(self.regions, 'candidate ignore region')}: "
                         f"{self.regions_kept} kept, {self.regions_below_quorum} below the "
                         f"quorum, {self.regions_overlapping} dropped for overlapping an "
                         "accepted entity of their label")
        lines += [f"tie in document {t.document}: kept {t.kept}, dropped {t.dropped} "
                  f"({counted(t.votes, 'vote')} each)" for t in self.ties]
        return "\n".join(lines)


def _entity(key: Key) -> Entity:
    """The entity a candidate stands for (discontinuous when it has fragments)."""
    if len(key) == 4:
        return Entity.from_fragments(key[3], key[2])
    return Entity(Span(key[0], key[1]), key[2])


def _overlap(a: Key, b: Key) -> bool:
    return bool((a[0] < b[1] and b[0] < a[1]) or (a[0] == a[1] == b[0] == b[1]))


def _region_key(region: Span | Entity) -> RegionKey:
    return (region.start, region.end, region.label if isinstance(region, Entity) else None)


def _vote_regions(annotated: Annotated, d: int, quorum: int, kept: list[Key]) -> tuple[
        tuple[Span | Entity, ...], int, int]:
    """Document ``d``'s regions with enough votes and clear of ``kept``; candidates, below."""
    assert annotated.regions is not None
    votes: dict[RegionKey, set[int]] = {}
    for a, docs in enumerate(annotated.regions):
        for region in docs[d]:
            votes.setdefault(_region_key(region), set()).add(a)
    winners = [Span(s, e) if lab is None else Entity(Span(s, e), lab)
               for s, e, lab in sorted(k for k, v in votes.items() if len(v) >= quorum)]
    # a region covers an entity as an ignore region covers a prediction in scoring
    covering = Regions([winners]).covering(EntityColumns.from_entities(map(_entity, kept)))
    regions = tuple(r for r, c in zip(winners, covering.tolist(), strict=True) if not c)
    return regions, len(votes), len(votes) - len(winners)


def _check_min_votes(min_votes: object, n: int) -> int | None:
    if min_votes is None:
        return None
    if not is_int(min_votes) or not 1 <= int(str(min_votes)) <= n:
        raise option_error("min_votes", f"an integer from 1 to {n} (the annotators) or None",
                           min_votes)
    return int(str(min_votes))


def adjudicate_joined(annotated: Annotated, min_votes: int | None) -> tuple[
        list[Document], AdjudicationStats]:
    """:func:`adjudicate` on annotations already joined."""
    n_docs = annotated.n_documents
    voters: list[dict[Key, set[int]]] = [{} for _ in range(n_docs)]
    for a, cols in enumerate(annotated.entities):
        labels, frags = cols.labels, cols.fragments
        for k, (d, s, e, lab) in enumerate(zip(cols.seq.tolist(), cols.start.tolist(),
                                               cols.end.tolist(), cols.label.tolist(),
                                               strict=True)):
            parts = frags.row(k) if frags is not None else ()
            key = (s, e, labels[lab]) if len(parts) < 2 else (s, e, labels[lab], parts)
            voters[d].setdefault(key, set()).add(a)
    candidates = below = conflicts = unanimous = single = 0
    n_regions = regions_below = regions_overlapping = 0
    ties: list[Tie] = []
    documents: list[Document] = []
    for d in range(n_docs):
        n_present = int(annotated.present[:, d].sum())
        quorum = min_votes if min_votes is not None else n_present // 2 + 1
        votes = voters[d]
        candidates += len(votes)
        winners = [k for k, v in votes.items() if len(v) >= quorum]
        below += len(votes) - len(winners)
        winners.sort(key=lambda k: (-len(votes[k]), -(k[1] - k[0]), k[0], k[2]))
        kept: list[Key] = []
        for w in winners:
            rival = next((k for k in kept if _overlap(k, w) and not votes[k] & votes[w]), None)
            if rival is None:
                kept.append(w)
                continue
            conflicts += 1
            if len(votes[rival]) == len(votes[w]):
                ties.append(Tie(annotated.document_name(d), rival, w, len(votes[w])))
        if n_present == 1:  # one annotator's word, not a consensus
            single += len(kept)
        else:
            unanimous += sum(len(votes[k]) == n_present for k in kept)
        kept.sort()
        text = annotated.texts[d] if annotated.texts is not None else None
        ignore: tuple[Span | Entity, ...] = ()
        if annotated.regions is not None:
            ignore, n, n_below = _vote_regions(annotated, d, quorum, kept)
            n_regions += n
            regions_below += n_below
            regions_overlapping += n - n_below - len(ignore)
        documents.append(Document(annotated.document_name(d),
                                  tuple(_entity(k) for k in kept),
                                  text=text, ignore=ignore))
    accepted = sum(len(doc.spans) for doc in documents)
    stats = AdjudicationStats(annotated.names, min_votes, n_docs, candidates, accepted, below,
                              conflicts, tuple(ties), unanimous, single=single,
                              notes=annotated.notes, regions=n_regions,
                              regions_kept=sum(len(doc.ignore) for doc in documents),
                              regions_below_quorum=regions_below,
                              regions_overlapping=regions_overlapping)
    return documents, stats


def adjudicate(
    annotations: object,
    *,
    names: Sequence[str] | None = None,
    min_votes: int | None = None,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    labels_map: Mapping[str, str] | None = None,
    keep: Sequence[str] | None = None,
    drop: Sequence[str] | None = None,
) -> tuple[list[Document], AdjudicationStats]:
    """Adjudicate several annotators' entities by voting (see the module docstring).

    Parameters
    ----------
    annotations : sequence or mapping of annotation sets
        Two or more annotation sets of the same documents (as for
        :func:`nerscore.agreement`), or ``{annotator: annotation set}``.
    names : sequence of str, optional
        The annotators' names.
    min_votes : int, optional
        Votes an entity needs; default: a strict majority of the annotators
        of its document.
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    labels_map, keep, drop : optional
        Label operations applied to every annotator's entities before the
        vote (docs/label-ops.md); the stats' notes say what they did.

    Returns
    -------
    documents : list of Document
        The adjudicated entities per document (token offsets for tag input;
        :func:`nerscore.entities_to_tags` writes them as tags).
    stats : AdjudicationStats
        Counts of what was decided, with the ties.

    Raises
    ------
    OptionError
        For fewer than two annotation sets, or ``min_votes`` outside 1 to
        the number of annotators.

    Examples
    --------
    >>> docs, stats = adjudicate({"a": {"d": [(0, 5, "PER"), (9, 12, "LOC")]},
    ...                           "b": {"d": [(0, 5, "PER")]},
    ...                           "c": {"d": [(0, 5, "ORG"), (9, 12, "LOC")]}})
    >>> [(e.start, e.end, e.label) for e in docs[0].spans]
    [(0, 5, 'PER'), (9, 12, 'LOC')]
    >>> stats.accepted, stats.below_quorum
    (2, 1)
    """
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    annotated = relabel(join_annotations(annotations, names=names, decoding=decoding,
                                         absent=DECIDED, task="adjudication"),
                        LabelOps(labels_map, keep, drop))
    return adjudicate_joined(annotated, _check_min_votes(min_votes, len(annotated.names)))
