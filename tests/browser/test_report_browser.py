"""The HTML report in a real browser: headless Chromium opens the page from file://.

Screenshots and timings go to tests/browser/artifacts/ (git-ignored). With
NERSCORE_UPDATE_SCREENSHOT=1 the screenshots of the documentation are rewritten: the README's
docs/images/report.png and docs/images/report-analysis.png (significance and diagnostics).
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

import nerscore

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "conll2000"
CATEGORIES = ("missed", "spurious", "wrong_label", "wrong_boundary", "wrong_label_and_boundary")


def _documents():
    """Eight short documents with every kind of error, and one without any."""
    words = "Ann Lee met Bob Ray in New York and Paris with ACME Corp on Monday ."
    gold, pred = [], []
    for k in range(9):
        text = f"[{k}] {words}"
        off = len(f"[{k}] ")
        ann, bob, ny, paris, acme = ((off + a, off + b) for a, b in
                                     ((0, 7), (12, 19), (23, 31), (36, 41), (47, 56)))
        g = [(*ann, "PER"), (*bob, "PER"), (*ny, "LOC"), (*paris, "LOC"), (*acme, "ORG")]
        if k == 8:
            p = list(g)
        else:
            p = [(ann[0], ann[0] + 3, "PER"),            # wrong boundary
                 (*bob, "LOC"),                          # wrong label
                 (*ny, "LOC"),                           # correct
                 (acme[0], acme[0] + 4, "LOC")]          # wrong label and boundary
            if k % 2:
                p.append((off + 60, off + 66, "DATE"))   # spurious ("Monday")
                p.append((*paris, "LOC"))
            # paris missed in even documents
        gold.append({"id": f"doc-{k}", "text": text, "spans": g})
        pred.append({"id": f"doc-{k}", "text": text, "spans": p})
    return gold, pred


def _open(page, path: Path, *, timeout: float = 30_000):
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=timeout)


def _count_text(page) -> str:
    return page.text_content("#err-count") or ""


def test_tables_filters_sorting_views_and_pages(page, tmp_path, artifacts):
    gold, pred = _documents()
    report = nerscore.evaluate(gold, pred, zero_division=0.0)
    errors = nerscore.errors_from_report(report)
    by_cat = Counter(e.category.value for e in errors)
    path = tmp_path / "report.html"
    path.write_text(nerscore.render_html(report, page_size=5, title="Browser <test>"),
                    encoding="utf-8")
    _open(page, path)
    assert page.title() == "Browser <test>"

    # the per-label table: one row per label, three averages; sort by F1 both ways
    labels = page.locator("#labels tbody.rows tr")
    assert labels.count() == len(report.labels)
    assert page.locator("#labels tbody.avg tr").count() == 3
    f_col = 1 + [*("precision", "recall", "F1")].index("F1") + 1

    def column(i):
        return [float(v) for v in page.eval_on_selector_all(
            "#labels tbody.rows tr", f"rows => rows.map(r => r.cells[{i - 1}].dataset.v)")]

    page.click("#labels thead th:nth-child(4) button")
    assert column(f_col) == sorted(r.fbeta for r in report.labels.values())
    assert page.get_attribute("#labels thead th:nth-child(4)", "aria-sort") == "ascending"
    page.click("#labels thead th:nth-child(4) button")
    assert column(f_col) == sorted((r.fbeta for r in report.labels.values()), reverse=True)
    page.click("#labels thead th:nth-child(1) button")
    names = page.eval_on_selector_all("#labels tbody.rows tr",
                                      "rows => rows.map(r => r.cells[0].textContent)")
    assert names == sorted(report.labels)

    # the confusion matrix: raw counts, then rows and columns normalised
    cm = nerscore.confusion_from_report(report)
    cells = "table.cm td[data-raw]"

    def shown():
        return [float(t) for t in page.eval_on_selector_all(
            cells, "cs => cs.map(c => c.textContent)")]

    assert shown() == cm.matrix.ravel().tolist()
    page.click(".cm-view button[data-view='row']")
    assert page.get_attribute("table.cm", "data-view") == "row"
    assert shown() == pytest.approx(cm.normalize("true").matrix.ravel().round(2).tolist())
    page.click(".cm-view button[data-view='col']")
    assert shown() == pytest.approx(cm.normalize("pred").matrix.ravel().round(2).tolist())
    page.click(".cm-view button[data-view='raw']")
    assert shown() == cm.matrix.ravel().tolist()

    # the error browser: every category filter, with its count
    assert _count_text(page) == f"Showing 1–5 of {len(errors)} errors"
    assert page.text_content(".cats button[data-cat=''] .n") == f"({len(errors)})"
    for cat in CATEGORIES:
        page.click(f".cats button[data-cat='{cat}']")
        n = by_cat[cat]
        assert page.text_content(f".cats button[data-cat='{cat}'] .n") == f"({n})"
        assert page.get_attribute(f".cats button[data-cat='{cat}']", "aria-pressed") == "true"
        items = page.locator("#err-list li")
        assert items.count() == min(n, 5)
        assert set(page.eval_on_selector_all("#err-list li", "ls => ls.map(l => l.dataset.cat)")
                   ) <= {cat}
        assert _count_text(page) == (f"Showing 1–{min(n, 5)} of {n} errors" if n
                                     else "No errors match.")
    page.click(".cats button[data-cat='']")

    # pages: forwards to the end and back
    pages = -(-len(errors) // 5)
    assert page.text_content("#err-page") == f"page 1 of {pages}"
    assert page.is_disabled("#err-prev")
    for k in range(2, pages + 1):
        page.click("#err-next")
        assert page.text_content("#err-page") == f"page {k} of {pages}"
    assert page.is_disabled("#err-next")
    last = len(errors) - 5 * (pages - 1)
    assert page.locator("#err-list li").count() == last
    assert _count_text(page) == f"Showing {5 * (pages - 1) + 1}–{len(errors)} of {len(errors)} errors"
    page.click("#err-prev")
    assert page.text_content("#err-page") == f"page {pages - 1} of {pages}"

    # label filter: errors whose gold or predicted label is LOC
    n_loc = sum(1 for e in errors if "LOC" in (e.gold_label, e.pred_label))
    page.select_option("#err-label", label="LOC")
    assert page.text_content(".cats button[data-cat=''] .n") == f"({n_loc})"
    assert page.text_content("#err-page") == f"page 1 of {-(-n_loc // 5)}"
    page.select_option("#err-label", value="")

    # document filter: a search box over the documents with errors, then the chosen one's
    # text, highlighted; by keyboard; by clicking a document's name in the list
    n_doc1 = sum(1 for e in errors if e.doc_id == "doc-1")
    page.fill("#err-doc", "DOC-")
    assert page.text_content("#err-doc-count") == "8 documents match"  # doc-8 has no error
    assert page.locator("#err-doc-list li").count() == 8
    page.fill("#err-doc", "doc-1")
    assert page.text_content("#err-doc-count") == "1 document matches"
    option = page.locator("#err-doc-list li")
    assert option.count() == 1
    assert option.locator(".name").text_content() == "doc-1"
    assert option.locator(".n").text_content() == f"{n_doc1} errors"
    option.click()
    assert page.is_hidden("#err-doc-list")
    assert page.input_value("#err-doc") == "doc-1"
    assert page.text_content(".cats button[data-cat=''] .n") == f"({n_doc1})"
    view = page.text_content("#err-doc-view")
    assert view.startswith("Document doc-1")
    assert "met Bob Ray" in view
    assert page.locator("#err-doc-view .e-wrong_label").count() >= 1
    assert page.locator("#err-doc-view .g").count() >= 5
    page.fill("#err-doc", "zzz")
    assert page.text_content("#err-doc-count") == "no document with errors matches"
    page.click("#err-doc-clear")
    assert page.input_value("#err-doc") == ""
    assert page.text_content(".cats button[data-cat=''] .n") == f"({len(errors)})"
    assert page.text_content("#err-doc-view") == ""
    page.fill("#err-doc", "doc-")
    page.press("#err-doc", "ArrowDown")
    page.press("#err-doc", "ArrowDown")
    page.press("#err-doc", "Enter")
    assert page.input_value("#err-doc") == "doc-1"
    assert page.text_content(".cats button[data-cat=''] .n") == f"({n_doc1})"
    page.fill("#err-doc", "")
    assert page.text_content(".cats button[data-cat=''] .n") == f"({len(errors)})"
    name = page.text_content("#err-list li:nth-child(3) button.doc")
    page.click("#err-list li:nth-child(3) button.doc")
    assert page.input_value("#err-doc") == name
    assert set(page.eval_on_selector_all("#err-list li button.doc", "bs => bs.map(b => "
                                         "b.textContent)")) == {name}
    # the context of an error marks the error's spans with its category
    first = page.locator("#err-list li").first
    cat = first.get_attribute("data-cat")
    assert first.locator(f".ctx .e-{cat}").count() >= 1

    page.screenshot(path=str(artifacts / "report-small.png"), full_page=True)


def test_several_systems_metric_picker_and_system_switch(page, tmp_path):
    gold, pred = _documents()
    a = nerscore.evaluate(gold, pred, zero_division=0.0)
    b = nerscore.evaluate(gold, gold, zero_division=0.0)
    path = tmp_path / "two.html"
    path.write_text(nerscore.render_html(a, systems={"model": a, "oracle": b}),
                    encoding="utf-8")
    _open(page, path)
    assert page.locator("#labels thead th.sys").all_text_contents() == ["model", "oracle"]
    page.click(".metric-pick button[data-metric='fp']")
    per = page.eval_on_selector_all(
        "#labels tbody.rows tr", "rows => rows.map(r => [r.cells[0].textContent, "
        "r.cells[2].textContent, r.cells[3].textContent])")
    assert per == [[lab, str(row.fp), "0" if lab in b.labels else "–"]
                   for lab, row in a.labels.items()]
    page.click("#labels thead th:nth-child(3) button")  # sort by the model's FP
    fps = page.eval_on_selector_all("#labels tbody.rows tr",
                                    "rows => rows.map(r => Number(r.cells[2].dataset.v))")
    assert fps == sorted(fps)
    assert page.locator("table.cm").count() == 2
    n = len(nerscore.errors_from_report(a))
    assert _count_text(page).endswith(f"of {n} errors")
    page.select_option("#err-system", label="oracle")
    assert _count_text(page) == "No errors match."
    assert page.locator("#err-list li").count() == 0


def _update_docs_image(shot: Path) -> None:
    """Copy a screenshot to docs/images/ when NERSCORE_UPDATE_SCREENSHOT=1."""
    if os.environ.get("NERSCORE_UPDATE_SCREENSHOT") == "1":
        target = ROOT / "docs" / "images" / shot.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, target)


def test_report_command_shows_significance_and_diagnostics(page, tmp_path, artifacts):
    from nerscore.cli import main

    gold, pred = EXAMPLE / "gold.conll", EXAMPLE / "pred.conll"
    discard = EXAMPLE / "pred_discard.conll"
    path = tmp_path / "cli.html"
    # the gold file as training data: the diagnostics see every test entity in training
    assert main(["report", str(gold), str(pred), str(discard), "--names", "pred", "discard",
                 "--train", str(gold), "-o", str(path), "-q"]) == 0
    _open(page, path)
    significance = page.locator("section#significance")
    assert significance.is_visible()
    text = significance.inner_text()
    assert "`" not in text
    assert "format_version" not in page.inner_text("body")
    names = page.eval_on_selector_all("section#significance table.systems tbody th",
                                      "hs => hs.map(h => h.textContent)")
    assert names == ["pred", "discard"]
    pairs = page.eval_on_selector_all(
        "section#significance table.pairs tbody tr",
        "rows => rows.map(r => Array.from(r.cells, c => c.innerText.replace(/\\s+/g, ' ')))")
    res = nerscore.compare(nerscore.read_conll(gold).tags,
                           {"pred": nerscore.read_conll(pred).tags,
                            "discard": nerscore.read_conll(discard).tags})
    (p,) = res.pairs
    d = p.difference
    from nerscore.render.significance import format_p_value

    r = res.n_resamples
    assert pairs == [["pred", "discard", f"{d.value:+.4f} [{d.low:+.4f}, {d.high:+.4f}]",
                      format_p_value(p.p_bootstrap, r), format_p_value(p.p_randomization, r)]]
    assert significance.locator("p.settings").count() == 1
    findings = page.locator("section#diagnostics table.findings > tbody > tr")
    expected = [nerscore.diagnose(nerscore.read_conll(gold).tags, nerscore.read_conll(gold).tags,
                                  pred=nerscore.read_conll(p).tags).findings
                for p in (pred, discard)]  # one subsection per system
    assert findings.count() == sum(map(len, expected)) > 0
    systems = page.eval_on_selector_all("section#diagnostics h3.system",
                                        "hs => hs.map(h => h.textContent)")
    assert systems == ["pred", "discard"]
    kinds = page.eval_on_selector_all("section#diagnostics table.findings > tbody > tr",
                                      "rows => rows.map(r => r.cells[1].textContent)")
    assert sorted(kinds) == sorted(f.kind for found in expected for f in found)
    badge = page.locator("section#diagnostics table.findings .sev").first
    assert badge.evaluate("b => getComputedStyle(b).color") == "rgb(255, 255, 255)"
    assert page.locator("section#diagnostics p.settings").count() == 2
    assert "seen_overlap" in kinds

    box = page.evaluate("""() => {
      const a = document.querySelector('#significance').getBoundingClientRect();
      const b = document.querySelector('#diagnostics').getBoundingClientRect();
      return {x: 0, y: a.top + window.scrollY - 16, width: document.documentElement.clientWidth,
              height: b.bottom - a.top + 32};
    }""")
    shot = artifacts / "report-analysis.png"
    page.screenshot(path=str(shot), clip=box, full_page=True)
    assert shot.stat().st_size > 10_000
    _update_docs_image(shot)


def test_a_multi_token_entity_is_one_box(page, tmp_path):
    tokens = [["Rockwell", "said", "to", "provide", "parts", "for", "Boeing", "."]]
    gold = [["B-NP", "B-VP", "B-VP", "I-VP", "B-NP", "B-PP", "B-NP", "O"]]
    pred = [["B-NP", "B-VP", "B-PP", "B-VP", "B-NP", "B-PP", "B-NP", "O"]]
    report = nerscore.evaluate(gold, pred, zero_division=0.0)
    chars = [{"id": "d", "text": "ACME Corp hired Ann Lee.",
              "spans": [(0, 9, "ORG"), (16, 23, "PER")]}]
    chars_pred = [{"id": "d", "text": "ACME Corp hired Ann Lee.",
                   "spans": [(0, 4, "LOC"), (5, 9, "ORG"), (16, 23, "PER")]}]
    for name, page_html in (
            ("tokens", nerscore.render_html(report, texts=tokens)),
            ("chars", nerscore.render_html(nerscore.evaluate(chars, chars_pred,
                                                             zero_division=0.0)))):
        path = tmp_path / f"{name}.html"
        path.write_text(page_html, encoding="utf-8")
        _open(page, path)
        cat = "wrong_boundary"
        page.click(f".cats button[data-cat='{cat}']")
        assert page.locator("#err-list li").count() == 1
        first = page.locator("#err-list li").first
        gold_box = first.locator(f".ctx .g.e-{cat}")
        assert gold_box.count() == 1, name   # one element around the whole gold entity
        words = "to provide" if name == "tokens" else "ACME Corp"
        assert gold_box.evaluate("b => { const c = b.cloneNode(true); c.querySelectorAll("
                                 "'.lg, .lp').forEach(x => x.remove()); return c.textContent; }"
                                 ) == words
        inner = gold_box.locator(".p")
        assert inner.count() >= 1        # the predicted entities inside the gold one
        outer = gold_box.bounding_box()
        for k in range(inner.count()):
            b = inner.nth(k).bounding_box()
            assert outer["x"] <= b["x"]
            assert b["x"] + b["width"] <= outer["x"] + outer["width"]
        # the document view boxes it once too
        first.locator("button.doc").click()
        assert page.locator(f"#err-doc-view .g.e-{cat}").count() == 1


def test_a_discontinuous_entity_is_drawn_as_one_entity(page, tmp_path):
    text = "lung cancer in the upper lobe was found"
    gold = [{"id": "d", "text": text, "spans": [
        {"start": 0, "end": 29, "label": "Disorder", "fragments": [[0, 4], [19, 29]]},
        (5, 11, "Disorder")]}]
    pred = [{"id": "d", "text": text, "spans": [(0, 29, "Disorder"), (5, 11, "Disorder")]}]
    report = nerscore.evaluate(gold, pred, zero_division=0.0)
    path = tmp_path / "fragments.html"
    path.write_text(nerscore.render_html(report), encoding="utf-8")
    _open(page, path)
    assert page.locator("#err-list li").count() == 1
    first = page.locator("#err-list li").first
    head = first.locator(".head").text_content()
    assert "gold: Disorder \u201clung \u2026 upper lobe\u201d [0, 4) + [19, 29)" in head
    assert "predicted: Disorder \u201clung cancer in the upper lobe\u201d [0, 29)" in head
    # two boxes, one per fragment, of one entity: linked, the label drawn once, after the last
    boxes = first.locator(".ctx .g.frag")
    assert boxes.count() == 2
    ents = {boxes.nth(k).get_attribute("data-ent") for k in range(2)}
    assert len(ents) == 1
    assert [boxes.nth(k).get_attribute("title") for k in range(2)] == [
        "fragment 1 of 2 of one gold Disorder entity", "fragment 2 of 2 of one gold Disorder entity"]
    assert boxes.nth(0).locator(".lg").count() == 0
    assert boxes.nth(1).locator(".lg").text_content() == "Disorder"
    texts = [boxes.nth(k).evaluate("b => { const c = b.cloneNode(true); c.querySelectorAll("
                                   "'.lg, .lp').forEach(x => x.remove()); return c.textContent; }")
             for k in range(2)]
    assert texts == ["lung", "upper lobe"]
    # both fragments carry the error's style; the contiguous gold entity is no fragment
    assert first.locator(".ctx .g.frag.e-wrong_boundary").count() == 2
    assert first.locator(".ctx .g:not(.frag)").count() == 1
    # pointing at one fragment highlights both
    boxes.nth(0).hover()
    assert first.locator(".ctx .g.frag.linked").count() == 2
    page.mouse.move(0, 0)
    assert first.locator(".ctx .g.frag.linked").count() == 0
    # the document view draws it the same way
    first.locator("button.doc").click()
    assert page.locator("#err-doc-view .g.frag").count() == 2


def test_readme_screenshot(page, tmp_path, artifacts):
    gold = nerscore.read_conll(EXAMPLE / "gold.conll")
    pred = nerscore.read_conll(EXAMPLE / "pred.conll")
    report = nerscore.evaluate(gold.tags, pred.tags)
    offsets = gold.tags.offsets.tolist()
    tokens = list(gold.tokens)
    texts = [tokens[x:y] for x, y in itertools.pairwise(offsets)]
    path = tmp_path / "conll2000.html"
    path.write_text(nerscore.render_html(report, texts=texts, page_size=6,
                                         title="CoNLL-2000 example"), encoding="utf-8")
    _open(page, path)
    page.click(".cm-view button[data-view='row']")
    page.click("#labels thead th:nth-child(4) button")
    shot = artifacts / "report.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    _update_docs_image(shot)


def _synthetic(n_docs: int):
    """Span documents giving exactly 8 errors each (and two exact matches)."""
    slot = 30
    text = " ".join(f"word{j:02d}" for j in range(60))[: slot * 10]
    kinds = ("ok", "missed", "spurious", "label", "boundary", "both", "ok", "missed", "label",
             "boundary")
    gold, pred = {}, {}
    for d in range(n_docs):
        g, p = [], []
        for k, kind in enumerate(kinds):
            s, e = k * slot, k * slot + 12
            lab = ("PER", "LOC", "ORG")[(d + k) % 3]
            other = ("LOC", "ORG", "PER")[(d + k) % 3]
            if kind != "spurious":
                g.append((s, e, lab))
            if kind == "ok" or kind == "spurious":
                p.append((s, e, lab))
            elif kind == "label":
                p.append((s, e, other))
            elif kind == "boundary":
                p.append((s + 2, e, lab))
            elif kind == "both":
                p.append((s, e - 3, other))
        gold[f"doc{d}"], pred[f"doc{d}"] = g, p
    docs_g = [{"id": k, "text": text, "spans": v} for k, v in gold.items()]
    docs_p = [{"id": k, "text": text, "spans": v} for k, v in pred.items()]
    return docs_g, docs_p


def test_hundred_thousand_errors_write_and_open_in_seconds(page, tmp_path, artifacts):
    gold, pred = _synthetic(12_500)
    t0 = time.perf_counter()
    report = nerscore.evaluate(gold, pred, zero_division=0.0)
    t1 = time.perf_counter()
    path = tmp_path / "big.html"
    path.write_text(nerscore.render_html(report), encoding="utf-8")
    t2 = time.perf_counter()
    _open(page, path, timeout=60_000)
    t3 = time.perf_counter()
    assert _count_text(page) == "Showing 1–50 of 100000 errors"
    assert page.locator("#err-list li").count() == 50
    page.click(".cats button[data-cat='wrong_boundary']")
    assert _count_text(page) == "Showing 1–50 of 25000 errors"
    page.click("#err-next")
    assert _count_text(page) == "Showing 51–100 of 25000 errors"
    page.fill("#err-doc", "doc7")
    assert page.text_content("#err-doc-count") == "1,111 documents match (first 20 shown)"
    assert page.locator("#err-doc-list li").count() == 20
    page.press("#err-doc", "Enter")   # the exact match comes first
    assert page.input_value("#err-doc") == "doc7"
    assert page.text_content(".cats button[data-cat=''] .n") == "(8)"
    t4 = time.perf_counter()
    timings = {"errors": 100_000, "evaluate_s": round(t1 - t0, 2),
               "render_and_write_s": round(t2 - t1, 2), "open_s": round(t3 - t2, 2),
               "filter_and_page_s": round(t4 - t3, 2),
               "page_mb": round(path.stat().st_size / 1e6, 1)}
    (artifacts / "timings-100k.json").write_text(json.dumps(timings, indent=1) + "\n")
    print(timings)
    assert t2 - t1 < 30, timings
    assert t3 - t2 < 30, timings


def test_seventy_thousand_errors_of_110k_sentences_open_in_about_a_second(page, tmp_path,
                                                                          artifacts):
    from tests.render.test_html import conll_like_corpus

    tokens, gold, pred = conll_like_corpus()
    report = nerscore.evaluate(gold, pred, zero_division=0.0)
    errors = nerscore.errors_from_report(report)
    path = tmp_path / "70k.html"
    t0 = time.perf_counter()
    path.write_text(nerscore.render_html(report, texts=tokens), encoding="utf-8")
    t1 = time.perf_counter()
    _open(page, path)
    assert page.locator("#err-list li .ctx").count() == 50   # the first page, with contexts
    t2 = time.perf_counter()
    assert _count_text(page) == f"Showing 1–50 of {len(errors)} errors"
    first = errors[0]
    words = " ".join(tokens[first.sequence][first.gold_start:first.gold_end])
    assert words in page.text_content("#err-list li:first-child .ctx")
    # the document search over 110,000 sentences
    name = f"sequence {errors[-1].sequence}"
    page.fill("#err-doc", name)
    assert page.text_content("#err-doc-list li:first-child .name") == name
    page.press("#err-doc", "Enter")
    n = sum(1 for e in errors if e.sequence == errors[-1].sequence)
    assert page.text_content(".cats button[data-cat=''] .n") == f"({n})"
    t3 = time.perf_counter()
    timings = {"sentences": len(tokens), "errors": len(errors),
               "page_mb": round(path.stat().st_size / 1e6, 2),
               "render_and_write_s": round(t1 - t0, 2), "open_s": round(t2 - t1, 2),
               "search_and_filter_s": round(t3 - t2, 2)}
    (artifacts / "timings-70k.json").write_text(json.dumps(timings, indent=1) + "\n")
    print(timings)
    assert path.stat().st_size < 10_000_000, timings
    assert t2 - t1 < 3, timings


def test_the_document_view_shows_the_model_output(page, tmp_path):
    from nerscore.cli import main

    data = ROOT / "tests" / "data" / "llm"
    path = tmp_path / "llm.html"
    assert main(["report", str(data / "gold.jsonl"), str(data / "llm.jsonl"), "-o", str(path),
                 "--quiet", "--zero-division", "0"]) == 0
    _open(page, path)
    page.fill("#err-doc", "s11")
    page.click("#err-doc-list li")
    raw = page.locator("#err-doc-view details.llm-raw")
    assert raw.count() == 1
    raw.locator("summary").click()
    assert "I can't" in (raw.locator("pre").text_content() or "")
    page.fill("#err-doc", "s08")
    page.click("#err-doc-list li")
    assert "- Italia (Organization)" in (page.locator("#err-doc-view pre").text_content() or "")
