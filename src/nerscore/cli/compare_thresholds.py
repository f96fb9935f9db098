"""``nerscore compare ... --threshold-from DEV_GOLD DEV_PRED ...``: each system at its own threshold.

Each system's threshold is chosen on its own development predictions
(``--objective``, docs/curves.md) and applied to its test predictions before
the comparison; the notes state every threshold. ``--threshold T`` (one
threshold for all systems) needs nothing here: it is an entity option of
every command.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from nerscore.cli import _options as opt
from nerscore.cli.thresholds import (
    add_schema_option,
    curve_kwargs,
    dev_curve,
    dev_objective,
    read_dev_files,
)

__all__ = ["add_compare_threshold_options", "per_system_thresholds"]


def add_compare_threshold_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--threshold-from DEV_GOLD DEV_PRED ...`` and ``--objective`` to ``compare``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``compare`` parser.
    """
    group = parser.add_argument_group("scored predictions (docs/curves.md)")
    group.add_argument("--threshold-from", nargs="+", metavar="FILE", default=None,
                       help="DEV_GOLD DEV_PRED ... (one DEV_PRED per system, in the order of "
                            "PRED): choose each system's threshold on its development "
                            "predictions and compare the systems at their own thresholds")
    group.add_argument("--objective", default=None, metavar="OBJECTIVE",
                       help="what --threshold-from maximises: f1 (default), fbeta, "
                            "precision@R or recall@P")
    add_schema_option(group)


def per_system_thresholds(args: argparse.Namespace, preds: list[Any], names: list[str],
                          options: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """Each system's predictions at the threshold chosen on its development files, and notes.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``compare`` arguments.
    preds : list
        The systems' test predictions as read (documents of scored spans).
    names : list of str
        The systems' names.
    options : dict
        The matcher and entity options.

    Returns
    -------
    (preds, notes)
        The predictions kept at each system's threshold (unchanged without
        ``--threshold-from``), and one note per system.

    Raises
    ------
    UsageError
        For a wrong number of files, ``--objective`` alone, or with
        ``--threshold``.
    InputTypeError
        For a span without a score in a PRED or a DEV_PRED (an input error,
        naming the file, the document and the span).
    """
    objective = dev_objective(args, options, "DEV_GOLD DEV_PRED ...")
    if objective is None:
        return preds, []
    if len(args.threshold_from) != len(preds) + 1:
        raise opt.UsageError(
            f"--threshold-from takes DEV_GOLD and one DEV_PRED per system: {len(preds) + 1} "
            f"files for {len(preds)} systems; got {len(args.threshold_from)}")
    from nerscore.errors import InputTypeError, quoted
    from nerscore.values.documents import Document

    dev = read_dev_files(args)
    out, notes = [], []
    for name, pred, dev_pred, path, test_path in zip(
            names, preds, dev[1:], args.threshold_from[1:], args.preds, strict=True):
        if not (isinstance(pred, list) and all(isinstance(d, Document) for d in pred)):
            raise opt.UsageError("--threshold-from needs span files (documents with scored "
                                 "spans) as PRED")
        point = dev_curve(path, dev[0], dev_pred, gold_path=args.threshold_from[0],
                          match=args.match,
                          **curve_kwargs(args, options)).choose(objective)
        t = point.threshold
        kept = []
        for doc in pred:
            unscored = [e for e in doc.spans if e.score is None]
            if unscored:
                e = unscored[0]
                raise InputTypeError(
                    f"{test_path}: span {quoted((e.start, e.end, e.label))} of document "
                    f"{quoted(doc.id)} has no score; --threshold-from keeps each system's "
                    "predictions scored at least its threshold, so every span of PRED needs a "
                    "score.", source=test_path)
            kept.append(dataclasses.replace(
                doc, spans=tuple(e for e in doc.spans if e.score is not None and e.score >= t)))
        out.append(kept)
        notes.append(f"{name}: threshold {t:g} chosen on {args.threshold_from[0]} and {path} "
                     f"(objective {objective}; there precision {point.precision:.4f}, recall "
                     f"{point.recall:.4f}, F1 {point.fbeta:.4f}); the system is compared with "
                     "its predictions scored at least that.")
    return out, notes
