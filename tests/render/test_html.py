import itertools
import json
import re
from html import escape
from html.parser import HTMLParser
from types import SimpleNamespace

import numpy as np
import pytest

import nerscore
from nerscore.cli import main
from nerscore.render.html_errors import error_payload, script_json


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


@pytest.mark.parametrize(("gold", "counts"), [
    ([["B-A"]], "(1 token, 1 sequence)"),
    ([["B-A", "O"]], "(2 tokens, 1 sequence)"),
    ([["B-A"], ["O"]], "(2 tokens, 2 sequences)"),
])
def test_token_accuracy_counts_tokens_and_sequences_in_the_singular_for_one(gold, counts):
    page = nerscore.render_html(nerscore.evaluate(gold, gold))
    assert f"Token accuracy: <strong>1.00</strong> {counts}</p>" in page


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


def decoded_errors(data, system=0):
    """The errors of one system of the page's data, as (category, sequence, gold, pred) tuples."""
    sys_ = data["systems"][system]
    gold, pred = data["golds"][sys_["gold"]], sys_["pred"]
    first = {id(t): list(itertools.accumulate(t["n"], initial=0)) for t in (gold, pred)}

    def side(table, row, i):
        if i < 0:
            return None, None, None
        k = first[id(table)][row] + i
        start = table["start"][k]
        return start, start + table["len"][k], data["labels"][table["label"][k]]

    e = sys_["errors"]
    return [(data["categories"][c], data["seq"][r], *side(gold, r, g), *side(pred, r, p))
            for c, r, g, p in zip(e["cat"], e["row"], e["g"], e["p"], strict=True)]


def as_tuples(errors):
    return [(e.category.value, e.sequence, e.gold_start, e.gold_end, e.gold_label,
             e.pred_start, e.pred_end, e.pred_label) for e in errors]


def test_error_payload_has_every_error():
    r = spans_report()
    page = nerscore.render_html(r, page_size=7)
    data = json.loads(parse(page).scripts[0][1])
    assert decoded_errors(data) == as_tuples(nerscore.errors_from_report(r))
    assert 'data-page-size="7"' in page
    no_errors = nerscore.render_html(r, errors=False, confusion=False)
    assert "id=\"nerscore-data\"" not in no_errors
    assert 'class="cm"' not in no_errors


def test_error_payload_holds_the_sequences_with_errors_and_each_string_once():
    tokens = [["Ann", "met", "Bob", "in", "Rome"], ["Bob", "met", "Ann"], ["Ann", "met", "Rome"]]
    gold = [["B-PER", "O", "B-PER", "O", "B-LOC"], ["B-PER", "O", "B-PER"], ["B-PER", "O", "B-LOC"]]
    pred = [["B-PER", "O", "B-LOC", "O", "B-LOC"], ["B-PER", "O", "B-PER"], ["O", "O", "B-LOC"]]
    a = nerscore.evaluate(gold, pred, zero_division=0.0)
    b = nerscore.evaluate(gold, gold, zero_division=0.0)
    data, _ = error_payload({"a": a, "b": b}, tokens)
    assert data["seq"] == [0, 2]                      # sequence 1 has no error
    assert data["tokens"] == ["Ann", "met", "Rome", "Bob", "in"]   # most frequent first, once each
    assert [[data["tokens"][i] for i in t] for t in data["texts"]] == [tokens[0], tokens[2]]
    assert len(data["golds"]) == 1                    # one gold table for both systems
    assert data["golds"][0]["n"] == [3, 2]
    assert data["labels"] == ["LOC", "PER"]
    assert decoded_errors(data, 0) == as_tuples(nerscore.errors_from_report(a))
    assert data["systems"][1]["errors"] == {"cat": [], "row": [], "g": [], "p": []}
    assert data["systems"][1]["pred"]["n"] == [3, 2]
    assert data["docs"] is None
    page = script_json(data)  # what the page holds
    assert "key" not in page
    assert page.count('"Rome"') == 1


def conll_like_corpus(n_sentences=110_000, seed=0):
    """Token lists, gold tags and predicted tags of a CoNLL-like test set.

    Sentences of 8 to 24 tokens drawn from a vocabulary of 20,000 random words with Zipf
    frequencies; entities of 1 to 3 tokens every 7 tokens (85 % of the slots, ~1.8 per
    sentence); a prediction with 66 % of them right, the others missed, mislabelled or one
    token too long, and a spurious MISC in about 1 slot in 28: ~0.68 errors per sentence.
    """
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype="S1")
    sizes = rng.integers(2, 11, 20_000)
    chars = letters[rng.integers(0, 26, int(sizes.sum()))].tobytes().decode()
    cuts = np.cumsum(sizes).tolist()
    vocab = list(dict.fromkeys(chars[a:b] for a, b in zip([0, *cuts[:-1]], cuts, strict=True)))
    freq = 1 / np.arange(1, len(vocab) + 1)
    lens = rng.integers(8, 25, n_sentences)
    total = int(lens.sum())
    words = np.array(vocab, dtype=object)[rng.choice(len(vocab), total, p=freq / freq.sum())]
    pos = np.arange(total) - np.repeat(np.cumsum(lens) - lens, lens)
    size = np.repeat(lens, lens)
    gold = np.full(total, "O", dtype=object)
    pred = gold.copy()
    types = np.array(["PER", "LOC", "ORG", "MISC"], dtype=object)
    starts = np.flatnonzero((pos % 7 == 1) & (pos + 4 <= size) & (rng.random(total) < 0.85))
    length, kind, fate = rng.integers(1, 4, len(starts)), rng.integers(0, 4, len(starts)), \
        rng.random(len(starts))
    for k in range(3):  # fate: < .66 right, < .77 missed, < .88 mislabelled, else one too long
        on = length > k
        prefix, f = "B-" if k == 0 else "I-", fate[on]
        gold[starts[on] + k] = prefix + types[kind[on]]
        pred[starts[on] + k] = np.where((f < 0.66) | (f >= 0.88), prefix + types[kind[on]],
                                        np.where(f >= 0.77, prefix + types[(kind[on] + 1) % 4],
                                                 "O"))
    longer = fate >= 0.88
    pred[starts[longer] + length[longer]] = "I-" + types[kind[longer]]
    pred[np.flatnonzero((pos % 7 == 5) & (rng.random(total) < 0.035))] = "B-MISC"
    bounds = np.cumsum(lens)[:-1]
    return tuple([x.tolist() for x in np.split(a, bounds)] for a in (words, gold, pred))


def test_seventy_thousand_errors_of_110k_sentences_stay_under_ten_megabytes():
    tokens, gold, pred = conll_like_corpus()
    report = nerscore.evaluate(gold, pred, zero_division=0.0)
    errors = nerscore.errors_from_report(report)
    assert len(errors) > 70_000
    page = nerscore.render_html(report, texts=tokens)
    size = len(page.encode("utf-8"))
    assert size < 10_000_000, size
    data = json.loads(parse(page).scripts[0][1])
    assert len(data["systems"][0]["errors"]["cat"]) == len(errors)
    assert decoded_errors(data) == as_tuples(errors)
    row = data["seq"].index(errors[0].sequence)
    assert [data["tokens"][i] for i in data["texts"][row]] == tokens[errors[0].sequence]


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
    assert '0.5000 <span class="ci">[0.4000, 0.6000]</span>' in page
    assert '<td class="num">&lt; 0.001</td><td class="num">not run</td>' in page
    assert "Check &lt;PER&gt; vs LOC." in page
    assert "<td>label_confusion</td>" in page
    assert "count <strong>3</strong>" in page  # no message: the numbers are the finding
    assert page.count('<table class="cm"') == 2
    data = json.loads(c.scripts[0][1])
    assert [s["name"] for s in data["systems"]] == ["A", "B<x>"]
    assert len(data["golds"]) == 1
    other = nerscore.render_html(a, systems={"B": b})  # `report` joins under `name`
    assert re.findall(r'<th colspan="\d+" class="sys">([^<]*)</th>', other) == ["system", "B"]
    with pytest.raises(TypeError, match="to_dict"):
        nerscore.render_html(a, comparison=object())


def section(page, ident):
    body = page[page.index(f'<section id="{ident}">'):]
    return body[:body.index("</section>")]


def test_diagnostics_are_findings_with_badges_counts_and_one_line_of_settings():
    read = lambda name: nerscore.read_conll(f"tests/data/diagnostics/{name}.conll").tags  # noqa: E731
    d = nerscore.diagnose(read("train"), read("test"), pred=read("pred"), scheme="IOB2")
    html = section(nerscore.render_html(spans_report(), diagnostics=d), "diagnostics")
    assert "format_version" not in html
    assert "generic" not in html
    assert "`" not in html
    rows = re.findall(r'<tr><td><span class="sev sev-(\w+)">(\w+)</span></td>'
                      r"<td>(\w+)</td>", html)
    assert rows == [(f.severity, f.severity, f.kind) for f in d.findings]
    for f in d.findings:
        assert escape(f.message) in html
        assert escape(f.advice) in html
    assert '<p class="lead"><strong>9 findings</strong>: 1 <span class="sev sev-error">error</span>' \
        in html
    assert html.count('<p class="settings">') == 1
    assert "Settings: <span>scheme <strong>IOB2</strong></span>" in html
    assert "min instances <strong>15</strong>" in html
    assert "<details><summary>numbers</summary>" in html
    counts = re.findall(r'<tr><th scope="row">(\w+)</th><td class="num">(\d+)', html)
    assert counts[:len(d.labels)] == [(lab, str(d.train_counts[lab])) for lab in d.labels]
    assert "<h3>Seen and unseen entities</h3>" in html
    assert f"{d.seen['n_seen']}</strong> of {d.seen['n_test']} test entities" in html
    extra = {"findings": [], "skipped": {"seen_overlap": "no `texts` given"},
             "notes": ["joined by `id`"], "mystery": 3}
    html = nerscore.render_html(spans_report(), diagnostics=extra)
    assert "No findings: every check that ran passed." in html
    assert "<code>seen_overlap</code> (no <code>texts</code> given)" in html
    assert "Note: joined by <code>id</code>" in html
    assert "Also given: <span>mystery <strong>3</strong></span>" in html


def test_significance_is_a_table_of_systems_a_table_of_pairs_and_one_line_of_settings():
    from html import escape

    from nerscore.render.significance import format_p_value

    gold = nerscore.read_conll(f"{EXAMPLE}/gold.conll").tags
    preds = {name: nerscore.read_conll(f"{EXAMPLE}/{name}.conll").tags
             for name in ("pred", "pred_discard")}
    res = nerscore.compare(gold, preds, n_resamples=100, seed=1)
    html = section(nerscore.render_html(spans_report(), comparison=res), "significance")
    assert "`" not in html
    assert "<code>documents</code>" in html  # the note on sentences as units
    systems = re.findall(r'<tr><th scope="row">(\w+)</th>((?:<td.*?</td>)+)</tr>', html)
    assert [name for name, _ in systems] == ["pred", "pred_discard"]
    for (_, cells), s in zip(systems, res.systems, strict=True):
        shown = re.findall(r"([\d.]+) <span class=\"ci\">\[([\d.]+), ([\d.]+)\]", cells)
        assert shown == [(f"{e.value:.4f}", f"{e.low:.4f}", f"{e.high:.4f}")
                         for e in (s.get(m, a) for a in ("micro", "macro")
                                   for m in ("precision", "recall", "f1"))]
    (pair,) = res.pairs
    d = pair.difference
    assert (f'<tr><td>pred</td><td>pred_discard</td><td class="num est">{d.value:+.4f} '
            f'<span class="ci">[{d.low:+.4f}, {d.high:+.4f}]</span></td>'
            f'<td class="num">{escape(format_p_value(pair.p_bootstrap, 100))}</td>'
            f'<td class="num">{escape(format_p_value(pair.p_randomization, 100))}</td></tr>') in html
    assert "Δ micro F1 [95% CI]" in html
    assert html.count('<p class="settings">') == 1
    assert "Also given" not in html
    assert "method <strong>paired bootstrap and approximate randomization</strong>" in html
    assert "n resamples <strong>100</strong>" in html
    assert "zero_division" not in html
    assert "Also given" not in html


def test_an_undefined_p_value_is_nan_not_a_test_that_did_not_run():
    from nerscore.render.html_sections import significance_section

    # JSON has no NaN: an undefined p-value is None, as is that of a test that did not run
    pair = {"a": "A", "b": "B", "difference": {"value": 0.3, "low": None, "high": None},
            "p_bootstrap": None, "p_randomization": 0.5, "p_bootstrap_holm": None,
            "p_randomization_holm": 1.0}
    html = significance_section({"method": "both", "n_resamples": 100, "pairs": [pair] * 2}, 2)
    cells = re.findall(r'<td class="num">([^<]*)</td>', html)
    assert cells == ["nan", "0.500", "nan", "1.000"] * 2
    assert "<th class=\"num\">Holm p (paired bootstrap)</th>" in html
    html = significance_section({"method": "randomization", "n_resamples": 100,
                                 "pairs": [{**pair, "p_randomization_holm": None}]}, 2)
    assert re.findall(r'<td class="num">([^<]*)</td>', html) == ["not run", "0.500"]
    html = significance_section({"pairs": [{**pair, "p_randomization": float("nan")}]}, 2)
    assert re.findall(r'<td class="num">([^<]*)</td>', html)[1] == "nan"


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
    assert isinstance(data["texts"][0], list)  # CoNLL tokens, as indices into a table
    assert isinstance(data["tokens"][0], str)
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


def test_the_error_browser_data_holds_the_fragments_of_discontinuous_entities():
    from nerscore.render.html_errors import error_payload

    text = "lung cancer in the upper lobe was found"
    gold = [{"id": "d", "text": text, "spans": [
        {"start": 0, "end": 29, "label": "Disorder", "fragments": [[0, 4], [19, 29]]},
        (5, 11, "Disorder")]}]
    pred = [{"id": "d", "text": text, "spans": [(0, 29, "Disorder"), (5, 11, "Disorder")]}]
    data, _ = error_payload({"s": nerscore.evaluate(gold, pred, zero_division=0.0)}, None)
    assert data["golds"][0]["frags"] == [[0, 0, 4, 19, 10]]
    assert "frags" not in data["systems"][0]["pred"]
    assert data["systems"][0]["errors"] == {"cat": [3], "row": [0], "g": [0], "p": [0]}


def test_payload_of_file_tokens_equals_payload_of_token_lists(tmp_path) -> None:
    """The token table interned from a file's bytes is the one built from token strings."""
    from nerscore.io.conll import read_conll

    rows = [("the", "O", "O"), ("Ann", "B-PER", "B-PER"), ("Lee", "I-PER", "O"),
            ("the", "O", "B-ORG"), ("", "", ""), ("ü", "B-LOC", "B-LOC"), ("a b", "O", "O"),
            ("the", "O", "O"), ("", "", ""), ("x", "O", "O"), ("", "", ""),
            ("long-token-of-many-bytes", "B-ORG", "B-PER"), ("the", "O", "O")]
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("".join(f"{w}\t{g}\n" if w else "\n" for w, g, _ in rows), encoding="utf-8")
    pred.write_text("".join(f"{w}\t{p}\n" if w else "\n" for w, _, p in rows), encoding="utf-8")
    g, p = read_conll(gold), read_conll(pred)
    report = nerscore.evaluate(g.tags, p.tags, zero_division=0)
    from_file, _ = error_payload({"s": report}, g.tags.sentence_tokens())
    from_lists, _ = error_payload({"s": report}, [list(s.tokens) for s in g])
    assert from_file == from_lists
    assert from_file["tokens"][0] == "the"


def test_the_diagnostics_facts_count_one_sequence_in_the_singular():
    from nerscore.render.html_sections import diagnostics_section

    html = diagnostics_section({"n_train_sequences": 1, "n_test_sequences": 2}, 2)
    assert "Train: 1 sequence; test: 2 sequences." in html
