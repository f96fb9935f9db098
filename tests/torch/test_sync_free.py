"""The update path has fixed shapes: no host synchronisation, graph-capturable."""

from __future__ import annotations

import ast
import contextlib
import inspect
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from nerscore.torch import _checks, _match, _spans, aggregation, functional  # noqa: E402
from nerscore.torch._tables import tag_tables  # noqa: E402
from nerscore.torch.functional import batch_counts  # noqa: E402
from tests.torch._random import random_pair, tag_list  # noqa: E402

TAGS = tuple(tag_list("IOBES"))
FORBIDDEN = {"item", "tolist", "nonzero", "unique", "bincount", "masked_select", "argwhere",
             "cpu", "numpy", "any", "all", "flatnonzero"}


def _update_path_functions():
    """The tensor steps of an update (the host-side word_ids_tensor excluded), its checks,
    and the wrapper that runs the value checks only when asked."""
    funcs = [functional.batch_counts, functional.as_ids, functional.counted]
    for module in (_spans, _match, aggregation, _checks):
        funcs += [f for name, f in inspect.getmembers(module, inspect.isfunction)
                  if f.__module__ == module.__name__
                  and name != "word_ids_tensor"]
    return funcs


def test_no_synchronising_calls_in_the_update_path():
    """No call that reads data back to the host (boolean-mask indexing and other
    data-dependent shapes are refused by the fullgraph compilation below)."""
    for func in _update_path_functions():
        tree = ast.parse(inspect.getsource(func).strip())
        body = tree.body[0].body  # the statements, not the annotations of the signature
        for node in (n for stmt in body for n in ast.walk(stmt)):
            name = None
            if isinstance(node, ast.Attribute):
                name = node.attr
            elif isinstance(node, ast.Name):
                name = node.id
            assert name not in FORBIDDEN, f"{func.__qualname__} uses {name}"


@pytest.mark.parametrize(("scheme", "mode", "match", "aggregate"), [
    (None, "lenient", "exact", None),
    ("IOBES", "strict", "threshold", "hf_max"),
])
def test_compiles_to_one_graph(scheme, mode, match, aggregate):
    tables = tag_tables(TAGS, scheme, mode)

    def update(preds, target, word_ids):
        return batch_counts(preds, target, tables, match=match,
                            word_ids=word_ids if aggregate else None,
                            aggregation=aggregate or "first")

    compiled = torch.compile(update, fullgraph=True, backend="eager", dynamic=False)
    rng = np.random.default_rng(0)
    ids, target = random_pair(rng, (6, 10), len(TAGS))
    logits = torch.nn.functional.one_hot(torch.from_numpy(ids), len(TAGS)).double()
    word_ids = torch.arange(10).expand(6, 10).clone()
    target = torch.from_numpy(target)
    got = compiled(logits, target, word_ids)
    want = update(logits, target, word_ids)
    assert all(torch.equal(a, b) for a, b in zip(got, want, strict=True))
    with warnings.catch_warnings():  # some torch releases warn about their own modules here
        warnings.simplefilter("ignore", DeprecationWarning)
        torch._dynamo.reset()


@contextlib.contextmanager
def _sync_debug_mode(mode: str):
    """CUDA's synchronisation check set to ``mode`` in the block, set back however it ends."""

    def set_mode(value: str) -> None:
        with warnings.catch_warnings():  # torch warns that the check is a prototype
            warnings.filterwarnings("ignore", "Synchronization debug mode", UserWarning)
            torch.cuda.set_sync_debug_mode(value)

    try:
        set_mode(mode)
        yield
    finally:
        set_mode("default")


cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA is not available")


@cuda
@pytest.mark.parametrize(("mode", "match"), [("lenient", "exact"), ("strict", "threshold")])
def test_cuda_update_never_synchronises(mode, match):
    from nerscore.torch import EntityMetric

    metric = EntityMetric(TAGS, scheme="IOBES", mode=mode, match=match).cuda()
    rng = np.random.default_rng(1)
    _ids, target = random_pair(rng, (16, 32), len(TAGS))
    logits = torch.randn(16, 32, len(TAGS), device="cuda")
    target = torch.from_numpy(target).cuda()
    word_ids = torch.arange(32, device="cuda").expand(16, 32).contiguous()
    metric.update(logits, target)  # first call copies the tables to the device
    metric.update(logits, target, word_ids)
    torch.cuda.synchronize()
    with _sync_debug_mode("error"):
        metric.update(logits, target)
        metric.update(logits, target, word_ids)
    cpu = EntityMetric(TAGS, scheme="IOBES", mode=mode, match=match)
    for _ in range(2):
        cpu.update(logits.cpu(), target.cpu())
        cpu.update(logits.cpu(), target.cpu(), word_ids.cpu())
    assert metric.to_counts() == cpu.to_counts()


@cuda
def test_cuda_graph_capture():
    tables = tag_tables(TAGS, "IOBES", "strict")
    rng = np.random.default_rng(2)
    ids, target = random_pair(rng, (8, 24), len(TAGS))
    preds = torch.from_numpy(ids).cuda()
    target = torch.from_numpy(target).cuda()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(2):  # warm up outside the graph
            batch_counts(preds, target, tables, match="threshold")
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        counts, tokens = batch_counts(preds, target, tables, match="threshold")
    graph.replay()
    torch.cuda.synchronize()
    want = batch_counts(preds.cpu(), target.cpu(), tables, match="threshold")
    assert torch.equal(counts.cpu(), want[0])
    assert torch.equal(tokens.cpu(), want[1])
