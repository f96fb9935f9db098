"""Label operations applied to decoded entities (docs/label-ops.md).

:func:`relabel_entities` renames and removes the rows of one side's
:class:`~nerscore.values.spans.EntityColumns`; :func:`apply_label_ops` does
both sides of a :class:`~nerscore.decode.inputs.Prepared` input, warns about
labels the operations name that the data does not have, and counts what
changed in the input's tallies. Entities are renamed row by row, never
re-decoded: two adjacent entities whose labels become one stay two.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterable

import numpy as np

from nerscore.decode.inputs import Prepared
from nerscore.errors import OptionError, UnknownLabelWarning, closest, quoted, user_stacklevel
from nerscore.values.label_ops import LabelOps, map_name, tally_key
from nerscore.values.spans import Entity, EntityColumns

__all__ = ["apply_label_ops", "check_label_ops", "relabel_entities", "relabel_entity_list",
           "warn_unknown_labels"]


def relabel_entities(cols: EntityColumns, ops: LabelOps,
                     side: str = "gold") -> tuple[EntityColumns, dict[str, int]]:
    """One side's entities with ``ops`` applied, and the tallies of what changed.

    Parameters
    ----------
    cols : EntityColumns
        The decoded entities.
    ops : LabelOps
        What to rename, keep or drop.
    side : {"gold", "pred"}
        The side, for the tally keys.

    Returns
    -------
    EntityColumns
        The rows kept, coded against the sorted new labels (those of the
        old vocabulary that are not removed).
    dict of str to int
        Entities renamed (``labels:<side>:map:<old>><new>``), removed
        (``labels:<side>:drop:<label>``) and, for each label other labels
        were renamed to, those that had it already (``labels:<side>:into:<label>``).

    Examples
    --------
    >>> from nerscore.values.spans import Entity, Span
    >>> cols = EntityColumns.from_entities([Entity(Span(0, 1), "GPE"), Entity(Span(1, 2), "LOC"),
    ...                                     Entity(Span(3, 4), "MISC")])
    >>> new, tallies = relabel_entities(cols, LabelOps({"GPE": "LOC"}, drop=["MISC"]))
    >>> [(e.start, e.end, e.label) for e in new.to_entities()], new.labels
    ([(0, 1, 'LOC'), (1, 2, 'LOC')], ('LOC',))
    >>> tallies
    {'labels:gold:map:GPE>LOC': 1, 'labels:gold:into:LOC': 1, 'labels:gold:drop:MISC': 1}
    """
    if not ops:
        return cols, {}
    renamed = dict(ops.labels_map)
    new = [ops.new_label(lab) for lab in cols.labels]
    vocab = tuple(sorted({n for n in new if n is not None}))
    index = {lab: i for i, lab in enumerate(vocab)}
    remap = np.array([-1 if n is None else index[n] for n in new], dtype=np.int64)
    per_label = np.bincount(cols.label, minlength=len(cols.labels)) if len(cols) else \
        np.zeros(len(cols.labels), dtype=np.int64)
    tallies: dict[str, int] = {}
    targets = set(renamed.values())
    for lab, n_new, n in zip(cols.labels, new, per_label.tolist(), strict=True):
        if not n:
            continue
        if lab in renamed:
            tallies[tally_key(side, "map", map_name(lab, renamed[lab]))] = n
        elif lab in targets:
            tallies[tally_key(side, "into", lab)] = n
        if n_new is None:
            key = tally_key(side, "drop", renamed.get(lab, lab))
            tallies[key] = tallies.get(key, 0) + n
    new_label = remap[cols.label] if len(cols) else cols.label
    kept = new_label >= 0
    out = EntityColumns(cols.seq, cols.start, cols.end, np.where(kept, new_label, 0), vocab,
                        cols.n_sequences, cols.fragments, cols.score)
    if not kept.all():
        out = out.take(kept)
    return out, tallies


def relabel_entity_list(entities: Iterable[Entity], ops: LabelOps, tallies: dict[str, int],
                        side: str = "gold") -> list[Entity]:
    """Entity objects with ``ops`` applied (fragments kept), counted into ``tallies``.

    The tallies are those of :func:`relabel_entities`, plus the entities of
    each label before the operations (``labels:any:seen:<label>``).

    Examples
    --------
    >>> from nerscore.values.spans import Span
    >>> counts = {}
    >>> relabel_entity_list([Entity(Span(0, 1), "GPE"), Entity(Span(2, 3), "MISC")],
    ...                     LabelOps({"GPE": "LOC"}, drop=["MISC"]), counts)
    [Entity(span=Span(start=0, end=1), label='LOC', sentence=0)]
    >>> counts["labels:gold:map:GPE>LOC"], counts["labels:gold:drop:MISC"]
    (1, 1)
    """
    renamed = dict(ops.labels_map)
    targets = set(renamed.values())
    out = []

    def add(what: str, name: str) -> None:
        key = tally_key(side if what != "seen" else "any", what, name)
        tallies[key] = tallies.get(key, 0) + 1

    for e in entities:
        add("seen", e.label)
        new = ops.new_label(e.label)
        if e.label in renamed:
            add("map", map_name(e.label, renamed[e.label]))
        elif e.label in targets:
            add("into", e.label)
        if new is None:
            add("drop", renamed.get(e.label, e.label))
            continue
        out.append(e if new == e.label else dataclasses.replace(e, label=new))
    return out


def apply_label_ops(prep: Prepared, ops: LabelOps, *, warn: bool = True) -> Prepared:
    """Both sides of ``prep`` with ``ops`` applied, the changes counted in its tallies.

    The entities of each label before the operations are counted too
    (``labels:any:seen:<label>``, both sides together),
    so that batches scored one at a time can warn once about labels that no
    batch has (:func:`warn_unknown_labels`). With ``warn``, a label that
    ``ops`` names and neither side has (nor gets from ``labels_map``) is an
    :class:`~nerscore.errors.UnknownLabelWarning` that lists the labels the
    data has.

    Examples
    --------
    >>> from nerscore.decode.inputs import prepare
    >>> p = apply_label_ops(prepare([["B-GPE", "O", "B-MISC"]], [["B-LOC", "O", "O"]]),
    ...                     LabelOps({"GPE": "LOC"}, drop=["MISC"]))
    >>> p.gold.labels, p.pred.labels, len(p.gold)
    (('LOC',), ('LOC',), 1)
    """
    if not ops:
        return prep
    have = sorted(set(prep.gold.labels) | set(prep.pred.labels))
    if warn:
        warn_unknown_labels(ops, have)
    gold, t_gold = relabel_entities(prep.gold, ops, "gold")
    pred, t_pred = relabel_entities(prep.pred, ops, "pred")
    seen: dict[str, int] = {}
    for cols in (prep.gold, prep.pred):
        n = np.bincount(cols.label, minlength=len(cols.labels)) if len(cols) else ()
        for lab, k in zip(cols.labels, n, strict=False):
            key = tally_key("any", "seen", lab)
            seen[key] = seen.get(key, 0) + int(k)
    return dataclasses.replace(prep, gold=gold, pred=pred,
                               tallies={**prep.tallies, **t_gold, **t_pred, **seen})


def warn_unknown_labels(ops: LabelOps, labels: Iterable[str]) -> None:
    """Warn about the labels ``ops`` names that ``labels`` (the data's) cannot produce.

    Two warnings, each an :class:`~nerscore.errors.UnknownLabelWarning`: one
    on the labels that neither the data has nor ``labels_map`` gives (with
    the closest label, of the data for a name ``labels_map`` renames, after
    renaming for one ``keep`` or ``drop`` names), and one
    on the labels of the data that ``keep`` or ``drop`` name and
    ``labels_map`` renames (:meth:`~nerscore.values.label_ops.LabelOps.renamed_away`):
    they keep or drop no entity, since they name labels after renaming.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_unknown_labels(LabelOps(keep=["PRE"]), ["PER", "LOC"])
    ...     warn_unknown_labels(LabelOps({"PER": "P_X"}, keep=["PER"]), ["PER", "LOC"])
    ...     warn_unknown_labels(LabelOps({"LOC": "L"}, drop=["LCO"]), ["PER", "LOC"])
    >>> for w in caught:
    ...     print(w.message)
    The label operations name 'PRE', which is not a label of the data; the labels are 'LOC', 'PER'. Did you mean 'PER'?
    The label operations keep 'PER' (keep), which is renamed to 'P_X' (labels_map) first: labels are kept by their new names, so no entity is kept as 'PER'. Did you mean 'P_X'?
    The label operations name 'LCO', which is not a label of the data; the labels are 'LOC', 'PER'. Did you mean 'L', the new name of 'LOC' (labels_map)?
    """
    have = sorted(set(labels))
    _warn_renamed_away(ops, ops.renamed_away(have))
    unknown = ops.unknown(have)
    if not unknown:
        return
    close = [c for c in (_closest(ops, u, have) for u in unknown) if c]
    hint = f" Did you mean {' or '.join(close).rstrip(',')}?" if close else ""
    warnings.warn(
        f"The label operations name {', '.join(map(repr, unknown))}, which "
        f"{'is' if len(unknown) == 1 else 'are'} not a label of the data; the labels are "
        f"{', '.join(map(repr, have)) or 'none'}.{hint}", UnknownLabelWarning,
        stacklevel=user_stacklevel())


def _closest(ops: LabelOps, name: str, have: list[str]) -> str | None:
    """The label closest to ``name``, unknown to ``ops``, quoted: the hint of the warning.

    A name ``labels_map`` renames is one of the data (``have``); one that
    ``keep`` or ``drop`` names is one after renaming, where a label of the
    data renamed is found by its old name as well, and given with it.

    Examples
    --------
    >>> ops = LabelOps({"LOC": "L"}, drop=["LCO"])
    >>> _closest(ops, "LCO", ["LOC", "PER"]), _closest(ops, "PRE", ["LOC", "PER"])
    ("'L', the new name of 'LOC' (labels_map),", "'PER'")
    >>> _closest(LabelOps({"LCO": "L"}), "LCO", ["LOC", "PER"])
    "'LOC'"
    """
    renamed = dict(ops.labels_map)
    if name in renamed:
        found = closest(name, have)
        return None if found is None else quoted(found)
    after = {renamed.get(x, x) for x in have}
    found = closest(name, sorted(after | set(have)))
    if found is None:
        return None
    new = found if found in after else renamed[found]  # a label of the data renamed away
    if new in have:
        return quoted(new)
    olds = [quoted(x) for x in have if renamed.get(x) == new]
    return f"{quoted(new)}, the new name of {_and(olds)} (labels_map),"


def _warn_renamed_away(ops: LabelOps, renamed: list[tuple[str, str]]) -> None:
    """The warning on the labels ``keep`` or ``drop`` name that ``labels_map`` renames away."""
    if not renamed:
        return
    keyword, verb = ("keep", "kept") if ops.keep is not None else ("drop", "dropped")
    old, new = [quoted(a) for a, _ in renamed], [quoted(b) for _, b in renamed]
    one = len(renamed) == 1
    warnings.warn(
        f"The label operations {keyword} {_and(old)} ({keyword}), which "
        f"{'is' if one else 'are'} renamed to {_and(new)} (labels_map) first: labels are {verb} "
        f"by their new names, so no entity is {verb} as {' or '.join(old)}. Did you mean "
        f"{_and(new)}?", UnknownLabelWarning, stacklevel=user_stacklevel())


def _and(items: list[str]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def check_label_ops(ops: LabelOps, match: str, tags: bool) -> None:
    """Refuse label operations where they cannot act (``match="token"`` on tags)."""
    if ops and tags and match == "token":
        raise OptionError(
            "labels_map, keep and drop act on entities, but match='token' counts the tags of "
            "each token; use an entity matcher (match='exact'), or give spans.",
            option="labels_map")
