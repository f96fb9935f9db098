"""Dask: map-then-sum over shards equals the single-process result."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from dask.distributed import Client, LocalCluster  # noqa: E402

from nerscore import EntityScorer  # noqa: E402
from nerscore.cli import main  # noqa: E402
from nerscore.integrations.dask import score_bag, score_files  # noqa: E402
from nerscore.io.conll import read_conll, write_conll  # noqa: E402

GOLD = "examples/conll2000/gold.conll"
PRED = "examples/conll2000/pred.conll"


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, host="127.0.0.1",
                      protocol="tcp", dashboard_address="127.0.0.1:0") as cluster, \
            Client(cluster, timeout=20) as c:
        yield c


@pytest.fixture
def shards(tmp_path):
    g, p = read_conll(GOLD), read_conll(PRED)
    toks = [list(s.tokens) for s in g]
    gl, pl = g.to_lists(), p.to_lists()
    cuts = [0, 9, 20, 21, len(gl)]
    gs, ps = [], []
    for i, (a, b) in enumerate(itertools.pairwise(cuts)):
        write_conll(tmp_path / f"g{i}.conll", toks[a:b], gl[a:b])
        write_conll(tmp_path / f"p{i}.conll", toks[a:b], pl[a:b])
        gs.append(tmp_path / f"g{i}.conll")
        ps.append(tmp_path / f"p{i}.conll")
    write_conll(tmp_path / "g.conll", toks, gl)
    write_conll(tmp_path / "p.conll", toks, pl)
    return tmp_path, gs, ps


@pytest.mark.parametrize("match", ["exact", "semeval", "overlap"])
def test_score_files_equals_single_process(client, shards, match):
    from nerscore.accumulate.files import score_files as single

    tmp, gs, ps = shards
    d = score_files(gs, ps, client=client, chunk_size=4, match=match, zero_division=0,
                    confusion=True, errors=tmp / "d.jsonl")
    s = single(tmp / "g.conll", tmp / "p.conll", match=match, zero_division=0, confusion=True,
               errors=tmp / "s.jsonl")
    assert d.report.to_dict()["labels"] == s.report.to_dict()["labels"]
    assert d.report.n_sequences == s.report.n_sequences
    assert np.array_equal(d.confusion.matrix, s.confusion.matrix)
    assert (tmp / "d.jsonl").read_bytes() == (tmp / "s.jsonl").read_bytes()


def test_score_bag(client):
    import dask.bag as db

    g, p = read_conll(GOLD).to_lists(), read_conll(PRED).to_lists()
    batches = [(g[a:a + 6], p[a:a + 6]) for a in range(0, len(g), 6)]
    res = score_bag(db.from_sequence(batches, npartitions=3), match="semeval",
                    zero_division=0)
    one = EntityScorer(match="semeval", zero_division=0, whole_input=True)
    one.update(g, p)
    assert res.report.to_json() == one.compute().to_json()


def test_cli_workers_and_scheduler(client, shards, capsys):
    tmp, _, _ = shards
    assert main(["score", str(tmp / "g.conll"), str(tmp / "p.conll"), "--format", "json",
                 "--scheduler", client.scheduler.address]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main(["score", str(tmp / "g.conll"), str(tmp / "p.conll"), "--format", "json"]) == 0
    assert on_cluster == json.loads(capsys.readouterr().out)


def test_differing_texts_on_a_cluster_give_the_note_of_the_whole(client, tmp_path):
    """Shards whose documents differ in text: one note and one warning on the client."""
    import nerscore

    shards = []
    for i in range(2):
        g = [{"id": f"d{i}{k}", "text": "Anna flew", "spans": [[0, 4, "PER"]]}
             for k in range(3)]
        p = [dict(d, text="Anne flew" if k != 1 else d["text"]) for k, d in enumerate(g)]
        for side, docs in (("g", g), ("p", p)):
            (tmp_path / f"{side}{i}.jsonl").write_text(
                "".join(json.dumps(d) + "\n" for d in docs))
        shards.append((tmp_path / f"g{i}.jsonl", tmp_path / f"p{i}.jsonl"))
    with pytest.warns(nerscore.TextMismatchWarning) as w:
        res = score_files([g for g, _ in shards], [p for _, p in shards], client=client,
                          chunk_size=2)
    assert len(w) == 1
    assert res.report.micro.tp == 6
    assert res.report.notes == (str(w[0].message),)
    assert res.report.notes[0].startswith(
        "4 documents have different texts in gold and prediction: document 'd00' from "
        "character 3 (gold 'a flew', prediction 'e flew'); document 'd02' ")


def test_an_input_error_on_a_local_cluster_is_one_line(tmp_path):
    """The error of a task on a worker process is nerscore's line alone, not also the worker's log."""
    import subprocess
    import sys

    (tmp_path / "g.conll").write_text("A B-PER\n")
    (tmp_path / "p.conll").write_text("A O\n\nB O\n")
    done = subprocess.run([sys.executable, "-m", "nerscore", "score", "g.conll", "p.conll",
                           "--workers", "1"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr == (
        "nerscore score: error: g.conll has 1 sentence but p.conll has 2; both files must list "
        "the same sentences in the same order, separated by blank lines.\n")


def test_empty_files_on_a_local_cluster_are_scored_as_without_one(tmp_path):
    """Files with no sentence give no chunk to a cluster: they are scored in memory, as without one."""
    import subprocess
    import sys

    (tmp_path / "g.conll").write_text("")
    (tmp_path / "p.conll").write_text("")
    runs = [subprocess.run([sys.executable, "-m", "nerscore", "score", "g.conll", "p.conll",
                            *extra], cwd=tmp_path, capture_output=True, text=True,
                           timeout=120, check=False)
            for extra in ([], ["--workers", "1"])]
    assert runs[0].returncode == runs[1].returncode == 0
    assert "Traceback" not in runs[1].stderr
    assert (runs[1].stdout, runs[1].stderr) == (runs[0].stdout, runs[0].stderr)
