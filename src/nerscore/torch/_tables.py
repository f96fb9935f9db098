"""Lookup tables of a tag list, built once with NumPy and copied to each device.

A tag list (label id -> tag string, as a model's ``id2label``) is parsed
with the scheme and mode; everything the tensor decoders need is then two
small tables indexed by tag ids:

* ``label_of`` — the entity label of every tag id (an index into the sorted
  entity labels; ``K = len(labels)`` for the outside tag and for the extra
  *virtual outside* id ``V = len(tags)`` used as padding and as the implicit
  token before and after every sentence);
* ``pair`` — for every ``(previous id, current id)`` pair, bit flags of the
  decoder: for ``lenient``, bit 1 = an entity ends between the two tokens and
  bit 2 = one starts at the current token (the event rules of
  :func:`nerscore.decode.decoder.event_masks`); for ``strict``, bit 1 = the pair
  continues a chunk (an *inside* pattern), bit 2 = it may start one, bit 4 =
  it closes one (seqeval 1.2.2's strict patterns of the scheme).

:meth:`TagTables.on` turns them into the tensors the decoders index with
the pair of ids itself (:class:`DeviceTables`), in the small integer dtype
of the batch.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from nerscore.decode.decoder import event_masks
from nerscore.errors import InputTypeError, InvalidTagError, OptionError
from nerscore.values import schemes as sc
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Mode, Pattern
from nerscore.values.tags import parse_vocab

if TYPE_CHECKING:
    import torch

__all__ = ["CLOSE", "INSIDE", "LENIENT_END", "LENIENT_START", "MAX_INT16_LENGTH",
           "STRICT_CLOSE", "STRICT_START", "DeviceTables", "TagTables", "far_bit", "tag_tables"]

IntArray = npt.NDArray[np.int64]

LENIENT_END, LENIENT_START = 1, 2
INSIDE, STRICT_START, STRICT_CLOSE = 1, 2, 4
#: The close bit of the device pair table (:class:`DeviceTables`).
CLOSE = 1
#: Longest row whose positions and boundary keys fit in int16 (below :func:`far_bit`).
MAX_INT16_LENGTH = (1 << 13) - 1


@dataclass(frozen=True, eq=False)
class TagTables:
    """The decoder tables of one tag list (see the module docstring).

    Attributes
    ----------
    tags : tuple of str
        The tag list; tag id ``i`` is ``tags[i]``.
    labels : tuple of str
        Sorted entity labels.
    mode : Mode
        ``lenient`` or ``strict``.
    scheme : str or None
        The scheme's canonical name.
    label_of : array of int, shape (V + 1,)
        Label index of every tag id and of the virtual outside id ``V``.
    pair : array of uint8, shape ((V + 1) * (V + 1),)
        Decoder flags of the pair ``(prev, cur)`` at ``prev * (V + 1) + cur``.
    starts_in_runs : bool
        Strict: whether a pair may both start a chunk and continue a run of
        inside transitions (IOB1's patterns). Otherwise every start pattern
        begins a run, so it is the first start pattern of its run.
    """

    tags: tuple[str, ...]
    labels: tuple[str, ...]
    mode: Mode
    scheme: str | None
    label_of: IntArray
    pair: npt.NDArray[np.uint8]
    starts_in_runs: bool = False
    _on: dict[str, DeviceTables] = field(default_factory=dict, repr=False)

    @property
    def n_tags(self) -> int:
        """Number of tags ``V`` (the virtual outside id)."""
        return len(self.tags)

    @property
    def n_labels(self) -> int:
        """Number of entity labels ``K``."""
        return len(self.labels)

    def on(self, device: torch.device, dtype: torch.dtype) -> DeviceTables:
        """The tables as tensors of ``dtype`` (int16 or int32) on ``device`` (built once)."""
        import torch

        key = f"{device}/{dtype}"
        cached = self._on.get(key)
        if cached is None:
            v, b = self.n_tags, self.id_bits
            lenient = self.mode is Mode.LENIENT
            boundary = (self.pair & (LENIENT_END if lenient else INSIDE)) != 0
            # lenient: a boundary where an entity ends; strict: where a run of inside
            # transitions ends
            far = ~boundary if lenient else boundary
            close = np.zeros_like(boundary) if lenient else (self.pair & STRICT_CLOSE) != 0
            start = (self.pair & (LENIENT_START if lenient else STRICT_START)) != 0
            width = (v + 1, 1 << b)  # pair (prev, cur) at prev << b | cur
            pair, starts = np.zeros(width, dtype=np.int64), np.zeros(width, dtype=bool)
            label = np.zeros(width, dtype=np.int64)
            pair[:, :v + 1] = (far * far_bit(dtype) + close * CLOSE).reshape(v + 1, v + 1)
            starts[:, :v + 1] = start.reshape(v + 1, v + 1)
            label[:, :v + 1] = self.label_of[None, :]

            def put(table: npt.NDArray[Any], dt: torch.dtype = dtype) -> torch.Tensor:
                return torch.as_tensor(table.reshape(-1)).to(device=device, dtype=dt)

            cached = DeviceTables(put(np.arange(v)), put(pair), put(starts, torch.bool),
                                  put(label))
            self._on[key] = cached
        return cached

    @property
    def id_bits(self) -> int:
        """Bits of a tag id or the virtual outside id (``V.bit_length()``)."""
        return self.n_tags.bit_length()


class DeviceTables(NamedTuple):
    """The tensors of a :class:`TagTables` on one device, of one integer dtype.

    ``ids`` maps a tag id (``0 <= id < V``; any other value fails the
    lookup) to itself. The others are indexed by a pair of ids, ``prev << b
    | cur`` with ``b = V.bit_length()`` (the virtual outside id ``V``
    included): ``pair`` holds the bits :data:`CLOSE` (strict: the pair
    closes a chunk) and :func:`far_bit` (the pair is not a boundary: no
    entity ends there (``lenient``), or it continues a run of inside
    transitions (``strict``)); ``start`` whether an entity (a strict chunk)
    may start at ``cur``; ``label`` the label of ``cur``.
    """

    ids: torch.Tensor
    pair: torch.Tensor
    start: torch.Tensor
    label: torch.Tensor


def far_bit(dtype: torch.dtype) -> int:
    """The bit of :attr:`DeviceTables.pair` above every ``2 * position + 1`` of a row.

    ``1 << 14`` in int16 (rows of at most :data:`MAX_INT16_LENGTH` tokens),
    ``1 << 30`` in int32.
    """
    import torch

    return 1 << 14 if dtype == torch.int16 else 1 << 30


def _pattern_table(patterns: frozenset[Pattern], pc: IntArray, c: IntArray,
                   same: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    out = np.zeros(len(pc), dtype=bool)
    for p, cur, cond in patterns:
        hit = (pc == p) & (c == cur)
        if cond == "same":
            hit &= same
        elif cond == "diff":
            hit &= ~same
        out |= hit
    return out


@lru_cache(maxsize=64)
def tag_tables(tags: tuple[str, ...], scheme: str | None, mode: str) -> TagTables:
    """Parse a tag list and build its decoder tables (cached).

    Parameters
    ----------
    tags : tuple of str
        Tag id -> tag string.
    scheme : str, optional
        The tagging scheme (required by ``mode="strict"``; when given, tags
        with prefixes the scheme does not use are an error).
    mode : {"lenient", "strict"}
        How tags are decoded.

    Raises
    ------
    InvalidTagError
        For a tag that cannot be parsed, or that appears twice.
    OptionError
        For ``mode="conlleval"`` (not available on tensors).

    Examples
    --------
    >>> tt = tag_tables(("O", "B-PER", "I-PER", "B-LOC", "I-LOC"), None, "lenient")
    >>> tt.labels, tt.label_of.tolist()
    (('LOC', 'PER'), [2, 1, 1, 0, 0, 2])
    """
    decoding = Decoding(scheme, mode)
    decoding.check_decodable()
    if decoding.mode is Mode.CONLLEVAL:
        raise OptionError(
            "mode='conlleval' is not available on tensors; use mode='lenient' (the "
            "conlleval/seqeval reading) or mode='strict', or score the tag strings with "
            "nerscore.count_matches.", option="mode")
    if len(set(tags)) != len(tags):
        dup = next(t for i, t in enumerate(tags) if t in tags[:i])
        raise InvalidTagError(f"Expected distinct tags in the tag list; {dup!r} appears "
                              f"twice (label ids {tags.index(dup)} and "
                              f"{tags.index(dup, tags.index(dup) + 1)}).", tag=dup)
    parsed = parse_vocab(tags, decoding)
    if parsed.invalid:
        i = min(parsed.invalid)
        raise InvalidTagError(f"Invalid tag {tags[i]!r} (label id {i}) in the tag list: "
                              f"{parsed.invalid[i]}.", tag=tags[i])
    order = sorted(range(len(parsed.labels)), key=parsed.labels.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    k = len(order)
    v = len(tags)
    label_of = np.full(v + 1, k, dtype=np.int64)
    entity = parsed.label >= 0
    label_of[:v][entity] = rank[parsed.label[entity]]
    cls = np.append(parsed.cls.astype(np.int64), sc.O)
    typ = np.append(parsed.label, -1)
    w = v + 1
    pc, c = np.repeat(cls, w), np.tile(cls, w)
    pt, t = np.repeat(typ, w), np.tile(typ, w)
    if decoding.mode is Mode.LENIENT:
        end_ev, start_ev = event_masks(pc, pt, c, t, sc.LENIENT)
        pair = end_ev * LENIENT_END + start_ev * LENIENT_START
    else:
        table = decoding.table
        assert table is not None
        same = pt == t
        pair = (_pattern_table(table.inside, pc, c, same) * INSIDE
                + _pattern_table(table.start, pc, c, same) * STRICT_START
                + _pattern_table(table.end, pc, c, same) * STRICT_CLOSE)
    runs = decoding.mode is Mode.STRICT and bool(np.any(
        ((pair & STRICT_START) != 0) & ((pair & INSIDE) != 0)))
    return TagTables(tuple(tags), tuple(parsed.labels[i] for i in order), decoding.mode,
                     decoding.scheme_name, label_of, pair.astype(np.uint8), runs)


def as_tag_tuple(labels: object, name: str = "labels") -> tuple[str, ...]:
    """The tag list as a tuple of str (an :class:`InputTypeError` otherwise)."""
    tags: tuple[object, ...] = ()
    if isinstance(labels, Iterable) and not isinstance(labels, (str, bytes)):
        tags = tuple(labels)
    if not tags or not all(isinstance(t, str) for t in tags):
        raise InputTypeError(f"Expected `{name}` to be a non-empty sequence of tag strings "
                             f"(label id -> tag); got {labels!r:.80}.")
    return tuple(str(t) for t in tags)
