import re
from html.parser import HTMLParser

import nerscore


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.cells, self.attrs = [], [], []
        self._in_td = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(v or "" for _, v in attrs)
        self._in_td = tag == "td"

    def handle_data(self, data):
        if self._in_td and data.strip():
            self.cells.append(data.strip())


def parse(page):
    c = _Collector()
    c.feed(page)
    return c


def test_page_is_self_contained_and_escaped():
    r = nerscore.evaluate([["B-<i>x</i>", "O", "B-PER"]], [["B-<i>x</i>", "O", "O"]],
                          zero_division=0.0)
    page = nerscore.render_html(r, title="a & b")
    assert page.startswith("<!DOCTYPE html>")
    c = parse(page)
    assert "script" not in c.tags
    assert "i" not in c.tags
    assert "link" not in c.tags
    assert not any(re.match(r"(https?:)?//", a) for a in c.attrs)
    assert "<title>a &amp; b</title>" in page
    assert "<i>x</i>" in c.cells
    assert "PER" in c.cells
    assert c.cells[c.cells.index("PER") + 1:c.cells.index("PER") + 7] == [
        "0.00", "0.00", "0.00", "1", "0", "0"]


def test_page_shows_averages_accuracy_schemas_and_notes():
    g = {"d": [(0, 10, "A")], "e": [(0, 3, "B")]}
    p = {"d": [(0, 5, "A")], "x": [(0, 1, "B")]}
    r = nerscore.evaluate(g, p, match="semeval", zero_division=0.0)
    c = parse(nerscore.render_html(r, digits=3))
    for name in ("micro avg", "macro avg", "weighted avg", "strict", "partial"):
        assert name in c.cells
    i = c.cells.index("partial")
    assert c.cells[i + 1:i + 8] == ["0", "0", "1", "1", "1", "2", "2"]
    page = nerscore.render_html(r)
    assert "have no prediction" in page
    assert "<h2>Notes</h2>" in page
    tags_report = nerscore.evaluate([["B-A", "O"]], [["B-A", "B-A"]], zero_division=0.0)
    assert "Token accuracy: <strong>0.50</strong>" in nerscore.render_html(tags_report)
