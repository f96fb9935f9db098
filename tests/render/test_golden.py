"""Exact-string golden files of the text, Markdown and JSON renderers (tests/data/report/).

Set NERSCORE_UPDATE_GOLDEN=1 to rewrite the files from the current output (then review the diff).
The nerscore version in the output is replaced by ``X.Y.Z`` so that a release does not change them.
"""

import os

import pytest

import nerscore
from tests.paths import ROOT, TESTS

DATA = TESTS / "data" / "report"
EXAMPLE = ROOT / "examples" / "conll2000"


def loio_report():
    """The Loio article's example: two gold party spans, four predicted, s = 0.75."""
    gold = [[(190, 346, "PARTY"), (351, 473, "PARTY")]]
    pred = [[(0, 86, "PARTY"), (190, 325, "PARTY"), (330, 346, "PARTY"), (351, 473, "PARTY")]]
    return nerscore.evaluate(gold, pred, match="overlap", s=0.75, zero_division=0.0)


def conll_report():
    gold = nerscore.read_conll(EXAMPLE / "gold.conll")
    pred = nerscore.read_conll(EXAMPLE / "pred.conll")
    return nerscore.evaluate(gold.tags, pred.tags)


def semeval_report():
    gold = {"d1": [(0, 10, "PER"), (15, 20, "LOC")], "d|2": [(0, 4, "ORG")]}
    pred = {"d1": [(0, 8, "PER"), (15, 20, "ORG")], "d|2": [(0, 4, "ORG"), (6, 9, "A|B")]}
    return nerscore.evaluate(gold, pred, match="semeval", zero_division=0.0, beta=2.0)


REPORTS = {"loio": loio_report, "conll2000": conll_report, "semeval": semeval_report}
RENDERERS = {
    "txt": lambda r: nerscore.render_text(r),
    "digits4.txt": lambda r: nerscore.render_text(r, digits=4),
    "md": lambda r: nerscore.render_markdown(r),
    "json": lambda r: r.to_json(),
}


def _unversioned(text, version):
    return text.replace(f'"version": "{version}"', '"version": "X.Y.Z"').replace(
        f"nerscore {version}", "nerscore X.Y.Z").replace(f"**nerscore {version}**",
                                                         "**nerscore X.Y.Z**")


@pytest.mark.parametrize("ext", list(RENDERERS))
@pytest.mark.parametrize("name", list(REPORTS))
def test_golden(name, ext):
    report = REPORTS[name]()
    got = _unversioned(RENDERERS[ext](report), report.version) + "\n"
    path = DATA / f"{name}.{ext}"
    if os.environ.get("NERSCORE_UPDATE_GOLDEN") == "1":
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


def test_loio_example_shows_fractional_counts_with_four_decimals():
    report = loio_report()
    row = report.labels["PARTY"]
    assert (round(row.tp, 6), round(row.fp, 6), round(row.fn, 6)) == (1.649038, 2.350962, 0.350962)
    text = nerscore.render_text(report)
    assert "PARTY       0.41       0.82       0.55          2          4  1.6490  2.3510  0.3510" in text
    md = nerscore.render_markdown(report)
    assert "| PARTY | 0.41 | 0.82 | 0.55 | 2 | 4 | 1.6490 | 2.3510 | 0.3510 |" in md
    html = nerscore.render_html(report, errors=False)
    for v in ("1.6490", "2.3510", "0.3510"):
        assert f">{v}</td>" in html
    d = report.to_dict()["labels"]["PARTY"]
    assert list(d)[:5] == ["tp", "fp", "fn", "n_pred", "n_gold"]
    assert d["fp"] == d["n_pred"] - d["tp"]
    assert d["fn"] == d["n_gold"] - d["tp"]


def test_integer_counts_stay_integers():
    report = conll_report()
    d = report.to_dict()
    assert all(isinstance(d["overall"][k], int) for k in ("tp", "fp", "fn"))
    assert (d["overall"]["tp"], d["overall"]["fp"], d["overall"]["fn"]) == (371, 168, 88)
    assert "371    168     88" in nerscore.render_text(report)


def test_rows_fp_fn_follow_from_tp():
    row = nerscore.Row(0.5, 0.25, 1 / 3, 1 / 3, tp=1.5, n_pred=3, n_gold=6)
    assert (row.fp, row.fn) == (1.5, 4.5)
    assert row.to_dict()["fp"] == 1.5
