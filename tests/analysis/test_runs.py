"""Several runs per system: mean ± SD over runs against seqscore, t intervals, stability."""

from __future__ import annotations

import math
import random

import pytest

import nerscore
from nerscore.analysis.runs import RunStat, score_runs, t_quantile
from nerscore.cli import main
from nerscore.errors import FormatError, LengthMismatchError, OptionError
from tests.paths import ROOT

GOLD_FILE = ROOT / "examples" / "conll2000" / "gold.conll"
LABELS = ("NP", "VP", "PP", "ADVP", "ADJP", "SBAR", "XYZ")


def perturbed(gold, seed):
    """A valid IOB2 run: some chunks relabelled, some dropped, a few spurious ones added."""
    rng = random.Random(seed)
    out = []
    for sent in gold:
        tags = list(sent)
        for i, tag in enumerate(tags):
            if tag.startswith("B-"):
                j = i + 1
                while j < len(tags) and tags[j] == "I-" + tag[2:]:
                    j += 1
                r = rng.random()
                if r < 0.1:
                    tags[i:j] = ["O"] * (j - i)
                elif r < 0.2:
                    new = rng.choice(LABELS)
                    tags[i:j] = ["B-" + new] + ["I-" + new] * (j - i - 1)
            elif tag == "O" and rng.random() < 0.03:
                tags[i] = "B-" + rng.choice(LABELS)
        out.append(tags)
    return out


def write(path, tokens, tags):
    with open(path, "w", encoding="utf-8") as fh:
        for toks, ts in zip(tokens, tags, strict=True):
            fh.writelines(f"{a} {b}\n" for a, b in zip(toks, ts, strict=True))
            fh.write("\n")
    return str(path)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("runs")
    doc = nerscore.read_conll(GOLD_FILE)
    gold = doc.to_lists()
    tokens = [list(s.tokens) for s in doc]
    runs = [perturbed(gold, seed) for seed in range(4)]
    files = [write(tmp / f"run{k}.conll", tokens, r) for k, r in enumerate(runs)]
    return gold, runs, write(tmp / "gold.conll", tokens, gold), files


def seqscore_summary(gold_file, files):
    """seqscore's mean F1 and standard error per type, from its delimited output."""
    testing = pytest.importorskip("click.testing")
    script = pytest.importorskip("seqscore.scripts.seqscore")
    res = testing.CliRunner().invoke(script.cli, [
        "score", "--labels", "BIO", "--reference", gold_file, *files, "--score-format", "delim",
        "--full-precision"])
    assert res.exit_code == 0, res.output
    out: dict[str, dict[str, float]] = {}
    for line in res.output.splitlines():
        cells = line.split("\t")
        if cells[0] in ("Mean", "SE"):
            out.setdefault(cells[1], {})[cells[0]] = float(cells[4])
    return out


def test_mean_and_standard_error_equal_seqscores(corpus):
    gold, runs, gold_file, files = corpus
    theirs = seqscore_summary(gold_file, files)
    ours = score_runs(gold, runs, zero_division=0)
    assert math.isclose(ours.overall["fbeta"].mean, theirs["ALL"]["Mean"], rel_tol=1e-12)
    assert math.isclose(ours.overall["fbeta"].se, theirs["ALL"]["SE"], rel_tol=1e-12)
    assert set(ours.per_label) == set(theirs) - {"ALL"}
    for label, stats in ours.per_label.items():
        assert math.isclose(stats["fbeta"].mean, theirs[label]["Mean"], rel_tol=1e-12), label
        assert math.isclose(stats["fbeta"].se, theirs[label]["SE"], rel_tol=1e-12,
                            abs_tol=1e-15), label


def test_the_command_line_prints_the_same_summary(corpus, capsys):
    _, _, gold_file, files = corpus
    status = main(["score", gold_file, *files, "--runs", "--zero-division", "0",
                   "--format", "json"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    import json

    data = json.loads(out)
    theirs = seqscore_summary(gold_file, files)
    assert data["runs"] == files
    assert math.isclose(data["overall"]["fbeta"]["mean"], theirs["ALL"]["Mean"], rel_tol=1e-12)
    assert math.isclose(data["overall"]["fbeta"]["se"], theirs["ALL"]["SE"], rel_tol=1e-12)
    status = main(["score", gold_file, *files, "--runs", "--zero-division", "0"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert out.splitlines()[0] == (f"4 runs against {gold_file} -- match=exact; mean ± SD over "
                                   "runs, SE = SD/√n, 95% t interval of the mean")


def test_several_pred_files_need_runs(corpus, capsys):
    _, _, gold_file, files = corpus
    assert main(["score", gold_file, *files[:2]]) == 2
    assert "several PRED files are several runs of one system: add --runs" in (
        capsys.readouterr().err)


def test_t_quantiles_equal_scipys():
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 3, 4, 9, 29, 100):
        for p in (0.9, 0.95, 0.975, 0.995, 0.05):
            assert math.isclose(t_quantile(p, df), stats.t.ppf(p, df), rel_tol=1e-9,
                                abs_tol=1e-12), (p, df)


def test_run_statistics():
    s = RunStat.of([0.5, 0.7], 0.95)
    assert s.mean == pytest.approx(0.6)
    assert s.sd == pytest.approx(math.sqrt(0.02))
    assert s.se == pytest.approx(0.1)
    assert s.high - s.mean == pytest.approx(t_quantile(0.975, 1) * 0.1)
    one = RunStat.of([0.5], 0.95)
    assert (one.mean, one.n) == (0.5, 1)
    assert math.isnan(one.sd)
    assert RunStat.of([float("nan"), 0.4], 0.95).n == 1


def test_stability_counts_the_runs_that_found_each_gold_entity():
    gold = {"d": [(0, 4, "PER"), (5, 9, "LOC"), (10, 12, "ORG")]}
    runs = [{"d": [(0, 4, "PER"), (5, 9, "LOC")]}, {"d": [(0, 4, "PER")]},
            {"d": [(0, 4, "PER"), (5, 9, "ORG")]}]
    summary = score_runs(gold, runs, zero_division=0, names=["a", "b", "c"])
    assert summary.stability() == {0: 1, 1: 1, 2: 0, 3: 1}
    assert summary.unstable() == [("d", 5, 9, "LOC", 1)]
    assert summary.to_dict()["runs"] == ["a", "b", "c"]


def test_bad_arguments():
    with pytest.raises(OptionError, match="Expected `runs` to be a list of one or more "
                                          "predictions"):
        score_runs([["O"]], [])
    with pytest.raises(LengthMismatchError, match="Got 1 names for 2 runs"):
        score_runs([["O"]], [[["O"]], [["O"]]], names=["a"])


def test_runs_that_cannot_be_scored_are_named():
    gold = {"a": [(0, 4, "PER")], "b": []}
    runs = [{"a": [(0, 4, "PER")], "b": []}, {"x": [(0, 4, "PER")]}, {"y": []}]
    with pytest.raises(FormatError) as caught:
        score_runs(gold, runs, names=["one", "two", "three"])
    said = str(caught.value)
    assert said.startswith("2 runs cannot be scored: two: None of the 1 predicted document ids "
                           "appear among the 2 gold ids")
    assert " three: None of the 1 predicted document ids" in said
    with pytest.raises(LengthMismatchError, match=r"^run2: Gold has 2 sentences but the prediction has 1;"):
        score_runs([["B-PER"], ["O"]], [[["B-PER"], ["O"]], [["B-PER"]]])


def test_the_warnings_of_scoring_name_the_runs_they_are_about():
    gold = [["B-PER", "O", "B-LOC"]]
    runs = [[["O", "O", "O"]], [["B-PER", "O", "O"]], [["O", "O", "O"]]]
    with pytest.warns(nerscore.UndefinedMetricWarning) as caught:
        score_runs(gold, runs, names=["a", "b", "c"])
    said = [str(w.message).split(" Pass")[0] for w in caught]
    assert said == [
        "a, c: Precision is ill-defined and set to 0.0 for 'LOC', 'PER' (no predicted entities).",
        "a, c: Precision is ill-defined and set to 0.0 for 'micro average' (no predicted "
        "entities).",
        "b: Precision is ill-defined and set to 0.0 for 'LOC' (no predicted entities).",
    ]
    assert all(w.filename == __file__ for w in caught)
    with pytest.warns(nerscore.UndefinedMetricWarning) as caught:
        score_runs(gold, runs[:1] * 2)
    assert [str(w.message)[:9] for w in caught] == ["Precision"] * 2
