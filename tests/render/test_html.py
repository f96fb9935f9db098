import json
import re
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

import nerscore
from nerscore.cli import main


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.cells, self.attrs, self.scripts = [], [], [], []
        self._in_td = False
        self._script = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((k, v or "") for k, v in attrs)
        self._in_td = tag in ("td", "th")
        if tag == "script":
            self._script = dict(attrs).get("type", "")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self.scripts.append((self._script, data))
        elif self._in_td and data.strip():
            self.cells.append(data.strip())


def parse(page):
    c = _Collector()
    c.feed(page)
    return c


def spans_report(**kw):
    texts = ["Ann <i>Lee</i> met Bob in New York.", "ACME & Co hired Eve."]
    gold = [{"id": "d<1>", "text": texts[0],
             "spans": [(0, 14, "PER"), (19, 22, "PER"), (26, 34, "LOC")]},
            {"id": "d2", "text": texts[1], "spans": [(0, 9, "ORG"), (16, 19, "PER")]}]
    pred = [{"id": "d<1>", "text": texts[0],
             "spans": [(0, 3, "PER"), (19, 22, "LOC"), (26, 34, "LOC")]},
            {"id": "d2", "text": texts[1], "spans": [(0, 9, "ORG"), (10, 15, "ORG")]}]
    return nerscore.evaluate(gold, pred, zero_division=0.0, **kw)


def test_page_is_self_contained_and_escaped():
    r = nerscore.evaluate([["B-<i>x</i>", "O", "B-PER"]], [["B-<i>x</i>", "O", "O"]],
                          zero_division=0.0)
    page = nerscore.render_html(r, title="a & b")
    assert page.startswith("<!DOCTYPE html>")
    c = parse(page)
    assert "i" not in c.tags
    assert "link" not in c.tags
    assert "img" not in c.tags
    assert "iframe" not in c.tags
    assert not any(k in ("src", "href") and not v.startswith("#") for k, v in c.attrs)
    assert not re.search(r"(https?:)?//[a-z]", page.split("<script>")[0])
    assert "fetch(" not in page
    assert "XMLHttpRequest" not in page
    assert "<title>a &amp; b</title>" in page
    assert "<i>x</i>" in c.cells
    i = c.cells.index("PER")
    assert c.cells[i + 1:i + 9] == ["0.00", "0.00", "0.00", "1", "0", "0", "0", "1"]


def test_embedded_json_cannot_close_its_script():
    r = spans_report()
    page = nerscore.render_html(r)
    c = parse(page)
    kinds = [k for k, _ in c.scripts]
    assert kinds == ["application/json", ""]
    data = json.loads(c.scripts[0][1])
    assert data["docs"] == ["d<1>", "d2"]
    assert data["texts"][0].startswith("Ann <i>Lee</i>")
    assert "<i>" not in c.scripts[0][1]
    assert "</" not in c.scripts[0][1]
    assert page.count("</script>") == 2


def test_summary_averages_labels_and_notes():
    g = {"d": [(0, 10, "A")], "e": [(0, 3, "B")]}
    p = {"d": [(0, 5, "A")], "x": [(0, 1, "B")]}
    r = nerscore.evaluate(g, p, match="semeval", zero_division=0.0)
    page = nerscore.render_html(r, digits=3)
    c = parse(page)
    for name in ("micro avg", "macro avg", "weighted avg", "strict", "partial", "matcher",
                 "semeval", "gold entities", "predicted entities"):
        assert name in c.cells
    i = len(c.cells) - 1 - c.cells[::-1].index("partial")  # the row, after the header
    assert c.cells[i + 1:i + 8] == ["0", "0", "1", "1", "1", "2", "2"]
    assert "have no prediction" in page
    assert "<h3>Notes</h3>" in page
    tags_report = nerscore.evaluate([["B-A", "O"]], [["B-A", "B-A"]], zero_division=0.0)
    assert "Token accuracy: <strong>0.50</strong>" in nerscore.render_html(tags_report)


def test_per_label_table_is_sortable_with_sort_keys_and_bars():
    page = nerscore.render_html(spans_report())
    table = page[page.index('<table class="labels sortable"'):]
    table = table[:table.index("</table>")]
    assert table.count('<button type="button" class="sort">') == 9
    assert 'data-v="0.5"' in table
    assert "--w:50.0%" in table
    assert '<tbody class="avg">' in table


def test_confusion_heat_map_holds_raw_and_normalised_views():
    r = spans_report()
    cm = nerscore.confusion_from_report(r)
    page = nerscore.render_html(r)
    c = parse(page)
    assert "none" in c.cells
    cells = re.findall(r'data-raw="(\d+)" data-row="([^"]+)" data-col="([^"]+)"', page)
    assert len(cells) == (len(cm.labels) + 1) ** 2
    assert [int(x) for x, _, _ in cells] == cm.matrix.ravel().tolist()
    rows = cm.normalize("true").matrix.ravel().tolist()
    assert [float(y) for _, y, _ in cells] == pytest.approx(rows, abs=1e-6)
    assert 'data-view="row"' in page
    assert 'data-view="col"' in page


def test_error_payload_has_every_error():
    r = spans_report()
    page = nerscore.render_html(r, page_size=7)
    data = json.loads(parse(page).scripts[0][1])
    (system,) = data["systems"]
    errors = nerscore.errors_from_report(r)
    assert len(system["errors"]["cat"]) == len(errors)
    cats = [data["categories"][k] for k in system["errors"]["cat"]]
    assert cats == [e.category.value for e in errors]
    assert [data["labels"][k] if k >= 0 else None for k in system["errors"]["gl"]] == [
        e.gold_label for e in errors]
    assert 'data-page-size="7"' in page
    no_errors = nerscore.render_html(r, errors=False, confusion=False)
    assert "id=\"nerscore-data\"" not in no_errors
    assert 'class="cm"' not in no_errors


def test_several_systems_one_column_each_and_duck_typed_extras():
    a, b = spans_report(), spans_report(match="overlap")
    comparison = SimpleNamespace(to_dict=lambda: {
        "systems": [{"name": "A", "micro": {"f1": {"value": 0.5, "low": 0.4, "high": 0.6}}}],
        "pairs": [{"a": "A", "b": "B<x>", "p_bootstrap": 0.00012, "p_randomization": None}]})
    diagnostics = SimpleNamespace(to_dict=lambda: {"findings": [
        {"kind": "label_confusion", "severity": "warning", "labels": ["PER", "LOC"],
         "numbers": {"count": 3}, "advice": "Check <PER> vs LOC."}]})
    page = nerscore.render_html(a, systems={"A": a, "B<x>": b}, comparison=comparison,
                                diagnostics=diagnostics)
    c = parse(page)
    assert "B<x>" in c.cells
    assert "B&lt;x&gt;" in page
    assert page.count('<th class="sys">') == 2
    assert "0.5000" in page
    assert "[0.4000, 0.6000]" in page
    assert "1.20e-04" in page
    assert "Check &lt;PER&gt; vs LOC." in page
    assert "label_confusion" in c.cells
    assert page.count('<table class="cm"') == 2
    data = json.loads(c.scripts[0][1])
    assert [s["name"] for s in data["systems"]] == ["A", "B<x>"]
    assert len(data["golds"]) == 1
    other = nerscore.render_html(a, systems={"B": b})  # `report` joins under `name`
    assert re.findall(r'<th colspan="\d+" class="sys">([^<]*)</th>', other) == ["system", "B"]
    with pytest.raises(TypeError, match="to_dict"):
        nerscore.render_html(a, comparison=object())


def test_token_matcher_page_says_what_it_cannot_show():
    r = nerscore.evaluate([["B-A", "O"]], [["B-A", "B-A"]], match="token", zero_division=0.0)
    page = nerscore.render_html(r)
    assert "No confusion matrix" in page
    assert "No error listing" in page


def test_texts_must_match_the_sequences():
    with pytest.raises(ValueError, match="one item per sequence"):
        nerscore.render_html(spans_report(), texts=["only one"])


# ---------------------------------------------------------------------------- command line

EXAMPLE = "examples/conll2000"


def test_report_command_writes_one_page_per_run(tmp_path, capsys):
    out = tmp_path / "r.html"
    status = main(["report", f"{EXAMPLE}/gold.conll", f"{EXAMPLE}/pred.conll",
                   f"{EXAMPLE}/gold.conll", "--names", "model", "oracle", "-o", str(out)])
    assert status == 0
    err = capsys.readouterr().err
    assert f"wrote {out}" in err
    page = out.read_text(encoding="utf-8")
    data = json.loads(parse(page).scripts[0][1])
    assert [s["name"] for s in data["systems"]] == ["model", "oracle"]
    assert len(data["systems"][0]["errors"]["cat"]) > 0
    assert data["systems"][1]["errors"]["cat"] == []
    assert isinstance(data["texts"][0], list)  # CoNLL tokens
    assert main(["report", f"{EXAMPLE}/gold.conll", f"{EXAMPLE}/pred.conll", "--names",
                 "a", "b"]) == 2
    assert main(["report", f"{EXAMPLE}/gold.conll", f"{EXAMPLE}/pred.conll", "-o", "-",
                 "--no-errors"]) == 0
    assert "id=\"nerscore-data\"" not in capsys.readouterr().out


def test_score_confusion_in_markdown_and_html(capsys):
    args = ["score", f"{EXAMPLE}/gold.conll", f"{EXAMPLE}/pred.conll", "--confusion"]
    assert main([*args, "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "| gold \\ pred | ADJP | ADVP | NP | PP | SBAR | VP | none |" in out
    # 206 exact matches and 55 NP predictions with other bounds, paired as the error listing
    # pairs them (wrong_boundary)
    assert "| **NP** | 0 | 0 | 261 | 0 | 0 | 0 | 1 |" in out
    assert main([*args, "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("</html>")
    assert out.count("</html>") == 1
    assert 'class="cm"' in out
    assert 'data-raw="261"' in out
