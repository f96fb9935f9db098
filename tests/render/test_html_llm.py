"""The HTML report's parts for model outputs: summary table, unaligned mentions, raw outputs."""

from __future__ import annotations

import json

import nerscore
from nerscore import Document, evaluate_llm
from nerscore.render.html_llm import outputs_payload

TEXT = "Anna met Bob in Paris."
GOLD = [Document("d1", [(0, 4, "PER"), (9, 12, "PER"), (16, 21, "LOC")], TEXT),
        Document("d2", [(0, 4, "PER")], "Anna")]
RAW = {"d1": '[{"text": "Anna", "label": "PER"}, {"text": "<b>Bob</b></script>", "label": "PER"},'
             ' {"text": "Paris", "label": "LOC"}]', "d2": "PER: Anna"}


def test_the_page_shows_the_summary_the_unaligned_mentions_and_the_escaped_outputs():
    r = evaluate_llm(GOLD, [RAW["d1"], RAW["d2"]], zero_division=0.0)
    page = nerscore.render_html(r, name="llm", model_outputs={"llm": RAW})
    assert "<h3>Model outputs</h3>" in page
    assert '<td>mentions</td><td class="num">4</td>' in page
    assert "<tr><td>d1</td><td>&lt;b&gt;Bob&lt;/b&gt;&lt;/script&gt;</td><td>PER</td>" in page
    assert ('<pre>[{&quot;text&quot;: &quot;Anna&quot;, &quot;label&quot;: &quot;PER&quot;}, '
            '{&quot;text&quot;: &quot;&lt;b&gt;Bob&lt;/b&gt;&lt;/script&gt;&quot;') in page
    assert "<b>Bob" not in page
    block = page.split('id="nerscore-llm-outputs">', 1)[1].split("</script>", 1)[0]
    assert json.loads(block) == {"llm": {"d1": RAW["d1"]}}  # d2 has no error: not embedded


def test_a_page_without_model_outputs_is_unchanged():
    r = nerscore.evaluate([[(0, 4, "PER")]], [[(0, 3, "PER")]], zero_division=0.0)
    assert nerscore.render_html(r) == nerscore.render_html(r, model_outputs={"x": {"0": "?"}})
    assert "Model outputs" not in nerscore.render_html(r)


def test_outputs_payload_keeps_the_listed_documents_of_each_system():
    payload = outputs_payload({"a": {"d1": "x", "d2": "y"}, "b": {"d2": "z"}}, ["d2", None])
    assert payload == {"a": {"d2": "y"}, "b": {"d2": "z"}}
    assert outputs_payload(None, ["d2"]) == {}
