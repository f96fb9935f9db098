"""The Curves section of the HTML report: every scored system gets its pictures."""

from __future__ import annotations

import json
import re

import nerscore
from nerscore.cli import main
from nerscore.render.html_curves import systems_curves_section

GOLD = [{"id": "a", "spans": [[0, 4, "PER"], [10, 16, "LOC"]]}]
PRED_A = [{"id": "a", "spans": [[0, 4, "PER", 0.9], [10, 16, "PER", 0.4]]}]
PRED_B = [{"id": "a", "spans": [[0, 4, "PER", 0.3], [10, 16, "LOC", 0.8], [20, 22, "LOC", 0.6]]}]
PLAIN = [{"id": "a", "spans": [[0, 4, "PER"]]}]


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def curves_of(page):
    return page[page.index('id="curves"'):page.index("</section>", page.index('id="curves"'))]


def test_report_draws_the_curves_of_every_system(tmp_path):
    files = [write(tmp_path / f"{n}.jsonl", d) for n, d in
             (("gold", GOLD), ("a", PRED_A), ("b", PRED_B), ("plain", PLAIN))]
    out = tmp_path / "r.html"
    assert main(["report", *files, "--names", "sysA", "sysB", "sysC", "-o", str(out),
                 "--zero-division", "0", "--resamples", "20", "-q"]) == 0
    section = curves_of(out.read_text(encoding="utf-8"))
    # one picture of all systems, then three per scored system
    assert section.count("<svg") == 1 + 3 + 3
    assert re.findall(r"<h3>(.*?)</h3>", section) == ["sysA", "sysB"]
    assert "No curves for sysC: their predictions have no scores." in section
    assert 'aria-label="Precision–recall, all systems"' in section
    # each system's operating point is its own
    assert "best F1 at threshold 0.9" in section
    assert "best F1 at threshold 0.3" in section
    assert "<script src" not in section
    assert "http" not in section.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_one_system_keeps_its_single_section(tmp_path):
    files = [write(tmp_path / f"{n}.jsonl", d) for n, d in (("gold", GOLD), ("a", PRED_A))]
    out = tmp_path / "r.html"
    assert main(["report", *files, "-o", str(out), "-q"]) == 0
    section = curves_of(out.read_text(encoding="utf-8"))
    assert section.count("<svg") == 3
    assert "<h3>" not in section


def test_render_html_takes_a_curve_per_system():
    gold = {"a": [(0, 4, "PER"), (10, 16, "LOC")]}
    pa = {"a": [(0, 4, "PER", 0.9), (10, 16, "PER", 0.4)]}
    pb = {"a": [(0, 4, "PER", 0.3), (10, 16, "LOC", 0.8)]}
    reports = {"A": nerscore.evaluate(gold, pa, zero_division=0),
               "B": nerscore.evaluate(gold, pb, zero_division=0)}
    curves = {"A": nerscore.threshold_curve(gold, pa), "B": nerscore.threshold_curve(gold, pb)}
    cals = {"A": nerscore.calibration(gold, pa), "B": None}
    page = nerscore.render_html(reports["A"], systems=reports, curve=curves, calibration=cals)
    section = curves_of(page)
    assert section.count("<svg") == 1 + 3 + 2  # B has no reliability diagram
    assert systems_curves_section(curves, cals) in section


def test_the_section_says_what_a_true_positive_is_for_overlap_and_semeval():
    from nerscore.render.html_curves import curves_section

    gold = {"a": [(0, 4, "PER")]}
    pred = {"a": [(0, 3, "PER", 0.9)]}
    html = curves_section(nerscore.threshold_curve(gold, pred, match="overlap", s=0.5))
    assert "(overlap: true positives are summed partial credit, s = 0.5)" in html
    html = curves_section(nerscore.threshold_curve(gold, pred, match="semeval", schema="type"))
    assert "(SemEval type schema)" in html
    assert "schema" not in curves_section(nerscore.threshold_curve(gold, pred))


def test_a_partly_scored_system_is_named_with_how_many_predictions_lack_a_score(tmp_path):
    part = [{"id": "a", "spans": [[0, 4, "PER", 0.9], [10, 16, "LOC"], [20, 22, "LOC"]]}]
    one = [{"id": "a", "spans": [[0, 4, "PER", 0.9], [10, 16, "LOC"]]}]
    files = [write(tmp_path / f"{n}.jsonl", d) for n, d in
             (("gold", GOLD), ("a", PRED_A), ("part", part), ("one", one), ("plain", PLAIN))]
    out = tmp_path / "r.html"
    assert main(["report", *files, "-o", str(out), "--zero-division", "0", "--resamples", "40",
                 "-q"]) == 0
    section = curves_of(out.read_text(encoding="utf-8"))
    assert re.findall(r"<p>No curves for (.*?)</p>", section) == [
        "plain: their predictions have no scores.",
        "part: 2 of its 3 predictions lack a score (curves need one on every prediction).",
        "one: 1 of its 2 predictions lacks a score (curves need one on every prediction)."]


def test_render_html_names_a_system_given_no_curve():
    gold = {"a": [(0, 4, "PER")]}
    pred = {"a": [(0, 4, "PER", 0.9)]}
    reports = {"A": nerscore.evaluate(gold, pred), "B": nerscore.evaluate(gold, pred)}
    page = nerscore.render_html(reports["A"], systems=reports,
                                curve={"A": nerscore.threshold_curve(gold, pred)})
    assert "<p>No curves given for B.</p>" in curves_of(page)
