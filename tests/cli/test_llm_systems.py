"""Model outputs in ``score --ci``, ``compare`` and ``report``, run in-process through ``main(argv)``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerscore
from nerscore.cli import main
from tests.paths import DATA

GOLD = str(DATA / "llm" / "gold.jsonl")
LLM = str(DATA / "llm" / "llm.jsonl")
ALIAS = ("--label-alias", "ORG=organization", "--label-alias", "PER=person")
ALIASES = {"ORG": ["organization"], "PER": ["person"]}


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def api_report(**kw):
    return nerscore.evaluate_llm(nerscore.read_jsonl(GOLD), nerscore.read_llm_records(LLM),
                                 label_aliases=ALIASES, zero_division=0.0, **kw)


@pytest.mark.parametrize("match", ["exact", "token", "mention"])
def test_score_ci_resamples_the_documents(capsys, match):
    status, out, _ = run(capsys, "score", GOLD, LLM, *ALIAS, "--ci", "--resamples", "100",
                         "--format", "json", "--zero-division", "0", "--match", match)
    assert status == 0
    data = json.loads(out)
    ci = data["confidence_intervals"]
    assert (ci["unit"], ci["n_units"]) == ("document", 11)
    f1 = ci["systems"][0]["micro"]["f1"]
    assert f1["value"] == pytest.approx(api_report(match=match).micro.f1)
    assert f1["low"] < f1["value"] < f1["high"]
    assert data["llm"]["parse_failures"] == 1


def test_score_ci_on_conll_gold_groups_sentences_into_documents(capsys, tmp_path):
    gold = tmp_path / "gold.conll"
    gold.write_text("-DOCSTART- O\n\nAnna B-PER\nslept O\n\nBob B-PER\n\n-DOCSTART- O\n\n"
                    "Paris B-LOC\n\n")
    llm = tmp_path / "llm.jsonl"
    llm.write_text('{"output": "PER: Anna"}\n{"output": "sorry"}\n{"output": "LOC: Paris"}\n')
    status, out, _ = run(capsys, "score", str(gold), str(llm), "--ci", "--resamples", "50",
                         "--format", "json")
    assert status == 0
    ci = json.loads(out)["confidence_intervals"]
    assert (ci["unit"], ci["n_units"]) == ("document", 2)
    assert ci["systems"][0]["micro"]["recall"]["value"] == pytest.approx(2 / 3)


def test_compare_a_model_with_a_span_file(capsys):
    status, out, err = run(capsys, "compare", GOLD, LLM, GOLD, "--names", "llm", "gold",
                           *ALIAS, "--resamples", "100", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["systems"][1]["micro"]["f1"]["value"] == 1.0
    assert data["systems"][0]["micro"]["f1"]["value"] == pytest.approx(api_report().micro.f1)
    assert list(data["llm"]) == ["llm"]
    assert data["llm"]["llm"]["unaligned_mentions"] == [
        {"id": "s08", "text": "Italia", "label": "ORG"}]
    assert data["notes"][0].startswith("llm: LLM output: 11 documents, 1 parse failure,")
    assert "nerscore compare: note: llm: LLM output" in err


def test_compare_two_models_each_with_its_summary(capsys):
    status, out, _ = run(capsys, "compare", GOLD, LLM, LLM, "--names", "a", "b", *ALIAS,
                         "--resamples", "50", "--align", "first", "--normalize", "loose")
    assert status == 0
    assert "note: a: LLM output: 11 documents" in out
    assert "note: b: LLM output: 11 documents" in out
    assert "--align first, --normalize loose" in out


def test_compare_notes_the_label_operations_on_model_outputs_as_on_a_span_file(capsys):
    status, out, err = run(capsys, "compare", GOLD, LLM, GOLD, "--names", "llm", "gold",
                           *ALIAS, "--drop", "MISC", "--resamples", "50", "--format", "json")
    assert status == 0
    notes = json.loads(out)["notes"]
    assert "llm: Labels removed (--drop): MISC (5 gold, 5 predicted entities)." in notes
    assert "gold: Labels removed (--drop): MISC (5 gold, 5 predicted entities)." in notes
    assert "warning" not in err  # MISC is a label of the data, though not of the unaligned


def test_compare_model_outputs_against_a_tag_file_on_conll_gold(capsys, tmp_path):
    gold = tmp_path / "gold.conll"
    gold.write_text("Anna B-PER\nslept O\n\nParis B-LOC\n\n")
    tags = tmp_path / "pred.conll"
    tags.write_text("Anna B-PER\nslept O\n\nParis O\n\n")
    llm = tmp_path / "llm.jsonl"
    llm.write_text('{"output": "PER: Anna"}\n{"output": "LOC: Paris, Rome"}\n')
    status, out, _ = run(capsys, "compare", str(gold), str(llm), str(tags), "--names", "llm",
                         "tags", "--resamples", "50", "--format", "json")
    assert status == 0
    data = json.loads(out)
    llm_micro = data["systems"][0]["micro"]
    assert (llm_micro["precision"]["value"], llm_micro["recall"]["value"]) == (2 / 3, 1.0)
    assert data["systems"][1]["micro"]["recall"]["value"] == 0.5
    assert data["llm"]["llm"]["unaligned"] == 1


def test_compare_refuses_what_does_not_apply(capsys):
    status, _, err = run(capsys, "compare", GOLD, LLM, GOLD, "--unit", "sentence")
    assert status == 2
    assert "--unit sentence needs tag files" in err
    status, _, err = run(capsys, "compare", GOLD, LLM, GOLD, "--threshold-from", GOLD, GOLD,
                         GOLD)
    assert status == 2
    assert "llm.jsonl holds model outputs, without scores: leave it out" in err
    status, _, err = run(capsys, "compare", GOLD, GOLD, GOLD, "--names", "a", "b",
                         "--align", "first")
    assert status == 2
    assert "--align says which occurrence of a repeated string a mention of model outputs" in err


def test_report_of_a_model_shows_its_summary_unaligned_mentions_and_outputs(capsys, tmp_path):
    page = tmp_path / "report.html"
    status, _, err = run(capsys, "report", GOLD, LLM, *ALIAS, "-o", str(page),
                         "--zero-division", "0")
    assert status == 0
    html = page.read_text()
    assert "<h3>Model outputs</h3>" in html
    assert '<td>unaligned mentions</td><td class="num">1</td>' in html
    assert '<td>hallucination rate</td><td class="num">2.44%</td>' in html
    assert "<tr><td>s08</td><td>Italia</td><td>ORG</td>" in html
    assert "<h3>Parse failures</h3>" in html
    assert "<pre>- Cuba (Organization)\n" in html  # s08's raw output, beside Italia
    block = html.split('id="nerscore-llm-outputs">', 1)[1].split("</script>", 1)[0]
    outputs = json.loads(block)
    records = [json.loads(line) for line in DATA.joinpath("llm", "llm.jsonl").read_text(
        encoding="utf-8").splitlines()]
    raw = {r["id"]: r["output"] for r in records if "output" in r}
    assert set(outputs) == {"llm"}
    assert outputs["llm"]["s11"] == raw["s11"]
    data = json.loads(html.split('id="nerscore-data">', 1)[1].split("</script>", 1)[0])
    assert sorted(outputs["llm"]) == sorted(data["docs"])  # the documents the browser lists
    assert all(outputs["llm"][k] == raw[k] for k in outputs["llm"])
    assert "<ORG>" not in block  # escaped inside the script element
    assert "wrote" in err


def test_report_side_by_side_with_a_span_file(capsys, tmp_path):
    page = tmp_path / "report.html"
    status, _, _ = run(capsys, "report", GOLD, LLM, GOLD, "--names", "llm", "gold", *ALIAS,
                       "-o", str(page), "--resamples", "50", "--zero-division", "0")
    assert status == 0
    html = page.read_text()
    assert "<th>model outputs</th><th>llm</th></tr>" in html
    assert "<h3>Unaligned mentions (llm)</h3>" in html
    assert 'id="significance"' in html
    assert "llm: LLM output: 11 documents" in html  # the comparison's notes


def test_report_refuses_train_diagnostics_of_model_outputs(capsys, tmp_path):
    status, _, err = run(capsys, "report", GOLD, LLM, "--train", GOLD, "-o",
                         str(tmp_path / "r.html"))
    assert status == 2
    assert "hold model outputs" in err


def test_report_draws_curves_of_a_scored_span_file_beside_model_outputs(capsys, tmp_path):
    scored = tmp_path / "scored.jsonl"
    lines = []
    for k, line in enumerate(Path(GOLD).read_text(encoding="utf-8").splitlines()):
        rec = json.loads(line)
        rec["spans"] = [[*s, round(0.5 + 0.04 * ((k + i) % 10), 2)]
                        for i, s in enumerate(rec["spans"])]
        lines.append(json.dumps(rec))
    scored.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = tmp_path / "report.html"
    status, _, _ = run(capsys, "report", GOLD, str(scored), LLM, "--names", "tagger", "llm",
                       *ALIAS, "-o", str(page), "--resamples", "20", "--zero-division", "0")
    assert status == 0
    html = page.read_text(encoding="utf-8")
    curves = html[html.index('id="curves"'):]
    curves = curves[:curves.index("</section>")]
    assert "<h3>tagger</h3>" in curves
    assert "<h3>llm</h3>" not in curves
    assert "llm" in curves  # named as a system without scores


def test_report_shows_the_outputs_as_read_for_scoring(capsys, tmp_path):
    # JSON Lines are split at "\n" only: a carriage return between members is white space
    llm = tmp_path / "llm.jsonl"
    llm.write_bytes(b'{"id": "a", "output": "LOC: Paris"}\n'
                    b'{"id": "b",\r "output": "LOC: Anna"}\n{"id": "c", "output": null}\n')
    gold = tmp_path / "gold.jsonl"
    record = {"text": "Anna in Paris", "spans": [[0, 4, "PER"]]}
    gold.write_text("".join(json.dumps({"id": i, **record}) + "\n" for i in "abc"))
    page = tmp_path / "report.html"
    status, _, err = run(capsys, "report", str(gold), str(llm), "-o", str(page))
    assert status == 0, err
    html = page.read_text()
    block = html.split('id="nerscore-llm-outputs">', 1)[1].split("</script>", 1)[0]
    assert json.loads(block) == {"llm": {"a": "LOC: Paris", "b": "LOC: Anna", "c": "null"}}


@pytest.fixture
def tag_gold(tmp_path):
    """CoNLL gold read with the options of its tags, and a model output for it."""
    gold = tmp_path / "gold.conll"
    gold.write_text("Paris B_PER\nHilton I_PER\nvisited NONE\n\n")
    llm = tmp_path / "llm.jsonl"
    llm.write_text('{"output": "PER: Paris Hil"}\n')
    return str(gold), str(llm)


TAG_GOLD_OPTIONS = ("--scheme", "IOB2", "--tag-delimiter", "_", "--outside", "NONE")
COMMANDS = {"compare": ("--resamples", "10"), "report": ("--resamples", "10", "-o", "-")}


@pytest.mark.parametrize(("command", "flags", "message"), [
    *((command, ["--snap", "expand"], "--snap says how mentions snap to the tokens of tag gold "
      "(CoNLL, Parquet tags, JSON Lines token records); {gold} holds spans: leave it out.") for command in COMMANDS),
    # compare refused these already, for the span files they are
    ("report", ["--scheme", "IOB2"], "--scheme says how the tags of tag files are read (CoNLL, "
     "Parquet tags, JSON Lines token records); {gold} holds spans: leave it out."),
    ("report", ["--mode", "strict"], "--mode says how the tags of tag files are read"),
    ("report", ["--suffix"], "--suffix says how the tags of tag files are spelled"),
    ("report", ["--tag-delimiter", "_"], "--tag-delimiter says how the tags of tag files are"),
    ("report", ["--outside", "NONE"], "--outside says how the tags of tag files are spelled"),
])
def test_span_gold_refuses_the_options_of_tag_gold(capsys, command, flags, message):
    status, out, err = run(capsys, command, GOLD, LLM, LLM, "--names", "a", "b", *flags,
                           *COMMANDS[command])
    assert (status, out) == (2, "")
    assert err.startswith(f"nerscore {command}: error: ")
    assert message.format(gold=GOLD) in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(("command", "flags", "message"), [
    *((command, ["--strict-tokens"], "--strict-tokens makes a token that differs between GOLD "
      "and PRED an error; {llm} holds model outputs, which have no tokens: leave it out.")
      for command in COMMANDS),
    *((command, ["--pred-annotator", "ann"], "--pred-annotator applies to no input; the inputs "
      "are conll, jsonl files") for command in COMMANDS),
    ("compare", ["--pred-column", "1"], "--pred-column applies to no input; the inputs are "
     "conll, jsonl files"),
])
def test_model_outputs_refuse_the_options_of_prediction_files(capsys, tag_gold, command, flags,
                                                              message):
    gold, llm = tag_gold
    status, out, err = run(capsys, command, gold, llm, llm, "--names", "a", "b",
                           *TAG_GOLD_OPTIONS, *flags, *COMMANDS[command])
    assert (status, out) == (2, "")
    assert message.format(llm=llm) in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("snap", ["contract", "expand"])
def test_tag_gold_takes_the_options_of_its_tags_and_snap(capsys, tag_gold, snap):
    gold, llm = tag_gold
    given = (gold, llm, llm, "--names", "a", "b", *TAG_GOLD_OPTIONS, "--mode", "strict",
             "--snap", snap)
    status, out, err = run(capsys, "compare", *given, *COMMANDS["compare"], "--format", "json")
    assert status == 0, err
    f1 = json.loads(out)["systems"][0]["micro"]["f1"]["value"]
    assert f1 == (1.0 if snap == "expand" else 0.0)  # "Paris Hil": "Paris Hilton" or "Paris"
    status, out, err = run(capsys, "report", *given, *COMMANDS["report"])
    assert status == 0, err
    assert out.startswith("<!DOCTYPE html>")


def test_report_comparison_notes_the_label_operations_on_model_outputs(capsys, tmp_path):
    page = tmp_path / "report.html"
    status, _, _ = run(capsys, "report", GOLD, LLM, GOLD, "--names", "llm", "gold", *ALIAS,
                       "--drop", "MISC", "-o", str(page), "--resamples", "50",
                       "--zero-division", "0")
    assert status == 0
    section = page.read_text().split('id="significance"', 1)[1]
    assert "llm: Labels removed (--drop): MISC (5 gold, 5 predicted entities)." in section
    assert "gold: Labels removed (--drop): MISC (5 gold, 5 predicted entities)." in section
