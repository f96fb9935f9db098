"""Random label-id batches and their NumPy reference counts, shared by the torch tests."""

from __future__ import annotations

import numpy as np

import nerscore
from nerscore.values.schemes import get_scheme

TYPES = ("LOC", "PER")


def tag_list(scheme: str | None, types: tuple[str, ...] = TYPES) -> list[str]:
    """The tag list of a scheme: ``O`` then every prefix letter with every type."""
    letters = sorted(get_scheme(scheme).letters) if scheme is not None else list("BIES")
    if scheme == "IO":
        letters = ["I"]
    return ["O", *(f"{letter}-{typ}" for typ in types for letter in letters)]


def random_ids(rng: np.random.Generator, shape: tuple[int, int], n_tags: int,
               *, p_outside: float = 0.35) -> np.ndarray:
    ids = rng.integers(1, n_tags, size=shape)
    return np.where(rng.random(shape) < p_outside, 0, ids)


def random_pair(rng: np.random.Generator, shape: tuple[int, int], n_tags: int,
                *, p_change: float = 0.3, p_hole: float = 0.1, ragged: bool = True,
                ignore_index: int = -100) -> tuple[np.ndarray, np.ndarray]:
    """(preds, target): target with -100 holes and padded tails; preds a noisy copy."""
    target = random_ids(rng, shape, n_tags)
    preds = np.where(rng.random(shape) < p_change, random_ids(rng, shape, n_tags), target)
    holes = rng.random(shape) < p_hole
    if ragged and shape[1]:
        lengths = rng.integers(0, shape[1] + 1, size=shape[0])
        holes |= np.arange(shape[1]) >= lengths[:, None]
    return preds, np.where(holes, ignore_index, target)


def reference_counts(preds: np.ndarray, target: np.ndarray, tags: list[str],
                     ignore_index: int = -100, **kw: object) -> nerscore.Counts:
    """nerscore.count_matches on the tag strings with the ignored positions removed."""
    vocab = np.asarray(tags, dtype=object)
    gold, pred = [], []
    for p_row, t_row in zip(preds, target, strict=True):
        keep = t_row != ignore_index
        gold.append(vocab[t_row[keep]].tolist())
        pred.append(vocab[p_row[keep]].tolist())
    return nerscore.count_matches(gold, pred, **kw)
