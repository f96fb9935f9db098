"""``nerscore score`` and ``nerscore convert`` on model outputs, run in-process through ``main(argv)``."""

from __future__ import annotations

import json

import pytest

import nerscore
from nerscore.cli import main
from tests.paths import DATA

GOLD = str(DATA / "llm" / "gold.jsonl")
LLM = str(DATA / "llm" / "llm.jsonl")
TEXT = "Paris is in France. Paris Hilton visited Paris."
OUTPUT = ('```json [{"text":"Paris","label":"LOC"},{"text":"France","label":"LOC"},'
          '{"text":"Paris Hilton","label":"PER"},{"text":"Paris","label":"LOC"},'
          '{"text":"London","label":"LOC"}] ```')


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


@pytest.fixture
def example(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "d1", "text": TEXT, "spans": [
        [0, 5, "LOC"], [12, 18, "LOC"], [20, 32, "PER"], [41, 46, "LOC"]]}) + "\n")
    llm = tmp_path / "llm.jsonl"
    llm.write_text(json.dumps({"id": "d1", "output": OUTPUT}) + "\n")
    return str(gold), str(llm)


def overall(out):
    data = json.loads(out)["overall"]
    return data["tp"], data["fp"], data["fn"]


@pytest.mark.parametrize(("flags", "expected"), [
    ((), (4, 1, 0)),
    (("--align", "first"), (3, 2, 1)),
    (("--match", "mention"), (4, 1, 0)),
    (("--align", "first", "--match", "mention"), (4, 1, 0)),
])
def test_worked_example_on_the_command_line(capsys, example, flags, expected):
    status, out, err = run(capsys, "score", *example, "--format", "json", *flags)
    assert status == 0
    assert overall(out) == expected
    notes = json.loads(out)["notes"]
    assert "1 unaligned (hallucination rate 20.0%)" in notes[0]
    assert notes[1] == "Unaligned mentions (false positives): 'London' (LOC) in document 'd1'."
    assert err == ""


@pytest.mark.parametrize("command", ["score", "convert"])
def test_records_without_ids_that_do_not_pair_with_gold_name_the_file(capsys, tmp_path, command):
    gold = tmp_path / "gold.conll"
    gold.write_text("Anna B-PER\nleft O\n\nBob B-PER\n\n", encoding="utf-8")
    llm = tmp_path / "llm.jsonl"
    llm.write_text('{"output": "PER: Anna"}\n', encoding="utf-8")
    argv = ([str(gold), str(llm)] if command == "score" else
            [str(llm), str(tmp_path / "out.jsonl"), "--gold", str(gold), "--from-scheme", "IOB2"])
    status, out, err = run(capsys, command, *argv)
    assert (status, out) == (1, "")
    assert err == (f"nerscore {command}: error: {llm} has 1 record without an 'id' but gold has "
                   "2 documents; records without ids are paired with the gold documents in "
                   "order: give one record per gold document, or give every record the 'id' of "
                   "its document.\n")


def test_the_text_report_shows_the_llm_notes(capsys, example):
    status, out, _ = run(capsys, "score", *example, "--zero-division", "0")
    assert status == 0
    assert "note: Unaligned mentions (false positives): 'London' (LOC) in document 'd1'." in out


def test_fixture_set_equals_the_api(capsys):
    status, out, _ = run(capsys, "score", GOLD, LLM, "--format", "json", "--zero-division",
                           "0", "--label-alias", "ORG=organization", "--label-alias",
                           "PER=person")
    assert status == 0
    api = nerscore.evaluate_llm(nerscore.read_jsonl(GOLD), nerscore.read_llm_records(LLM),
                                label_aliases={"ORG": ["organization"], "PER": ["person"]},
                                zero_division=0.0)
    data = json.loads(out)
    data["version"] = api.version
    # the command line names its flags where the library names keywords
    assert data["notes"][0].endswith("; --align sequential, --normalize exact.")
    expected = api.to_dict()
    assert data["notes"][0] == expected["notes"][0].replace(
        "align='sequential', normalize='exact'", "--align sequential, --normalize exact")
    data["notes"][0] = expected["notes"][0]
    assert data == expected
    assert overall(out) == (38, 3, 7)


@pytest.mark.parametrize("key", ["output", "mentions"])
def test_items_that_are_no_mention_are_noted_in_every_format(capsys, tmp_path, example, key):
    items = [{"text": "Paris", "label": "LOC"}, {"text": "France"}, "Lyon"]
    llm = tmp_path / "skip.jsonl"
    llm.write_text(json.dumps({"id": "d1", key: json.dumps(items) if key == "output"
                               else items}) + "\n")
    status, out, _ = run(capsys, "score", example[0], str(llm), "--zero-division", "0")
    assert status == 0
    assert ("note: 2 item(s) of the outputs could not be read as mentions "
            "and were left out: document 'd1': item 2 ({'text': 'France'}) has no label key") in out
    assert "document 'd1': item 3 ('Lyon') is not an object with a text and a label." in out
    status, out, _ = run(capsys, "score", example[0], str(llm), "--format", "json",
                         "--zero-division", "0")
    assert json.loads(out)["llm"]["skipped"] == 2


def test_label_alias_json_file(capsys, tmp_path):
    aliases = tmp_path / "aliases.json"
    aliases.write_text('{"ORG": ["organization"], "PER": "person"}')
    status, out, _ = run(capsys, "score", GOLD, LLM, "--format", "json", "--label-alias",
                         str(aliases), "--zero-division", "0")
    assert (status, overall(out)) == (0, (38, 3, 7))


def test_normalize_and_text_report(capsys, tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": "Vio PARÍS.", "spans": [[4, 9, "LOC"]]}) + "\n")
    llm = tmp_path / "p.jsonl"
    llm.write_text(json.dumps({"id": "a", "mentions": [{"text": "parís", "label": "loc"}]}) + "\n")
    _, out, _ = run(capsys, "score", str(gold), str(llm), "--format", "json")
    assert overall(out) == (0, 1, 1)
    _, out, _ = run(capsys, "score", str(gold), str(llm), "--format", "json",
                    "--normalize", "casefold")
    assert overall(out) == (1, 0, 0)
    assert json.loads(out)["llm"]["normalize"] == "casefold"


def test_conll_gold_is_aligned_to_its_tokens(capsys, tmp_path):
    gold = tmp_path / "gold.conll"
    gold.write_text("Paris B-PER\nHilton I-PER\nvisited O\nNew B-LOC\nYork I-LOC\n. O\n\n"
                    "Anna B-PER\nslept O\n\n")
    llm = tmp_path / "llm.jsonl"
    llm.write_text('{"output": "PER: Paris Hil\\nLOC: New York"}\n{"output": "PER: Anna"}\n')
    _, out, _ = run(capsys, "score", str(gold), str(llm), "--format", "json")
    assert overall(out) == (2, 1, 1)
    assert json.loads(out)["llm"]["snapped"] == 1
    _, out, _ = run(capsys, "score", str(gold), str(llm), "--format", "json", "--snap", "expand")
    assert overall(out) == (3, 0, 0)


def test_errors_list_unaligned_mentions(capsys, example, tmp_path):
    errors = tmp_path / "errors.jsonl"
    status, _, err = run(capsys, "score", *example, "--errors", str(errors))
    assert status == 0
    records = [json.loads(line) for line in errors.read_text().splitlines()]
    assert records == [{"category": "unaligned", "sequence": 0, "doc_id": "d1",
                        "gold_start": None, "gold_end": None, "gold_label": None,
                        "pred_start": None, "pred_end": None, "pred_label": "LOC",
                        "gold_text": None, "pred_text": "London", "gold_fragments": None,
                        "pred_fragments": None}]
    assert "wrote 1 entity error to" in err


def test_llm_flags_need_model_outputs(capsys, tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "text": "Anna", "spans": [[0, 4, "PER"]]}\n')
    status, _, err = run(capsys, "score", str(gold), str(gold), "--align", "first")
    assert status == 2
    assert ("--align says which occurrence of a repeated string a mention of model outputs takes; "
            f"{gold} holds no model outputs (JSON Lines records with \"output\" or \"mentions\" "
            "instead of \"spans\"): leave it out") in err



def test_normalize_is_the_mention_matchers_flag_for_other_files(capsys, tmp_path):
    """Without model outputs, ``--normalize`` is the ``mention`` matcher's (convert has none)."""
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    gold.write_text('{"id": "a", "text": "Anna met ANNA", "spans": [[0, 4, "PER"]]}\n')
    pred.write_text('{"id": "a", "text": "Anna met ANNA", "spans": [[9, 13, "PER"]]}\n')
    status, out, err = run(capsys, "score", str(gold), str(pred), "--match", "mention",
                           "--normalize", "casefold", "--format", "json")
    assert (status, json.loads(out)["overall"]["tp"]) == (0, 1), err
    status, out, err = run(capsys, "compare", str(gold), str(pred), str(gold), "--match",
                           "mention", "--normalize", "casefold", "--resamples", "10")
    assert status == 0, err
    status, _, err = run(capsys, "score", str(gold), str(pred), "--normalize", "casefold")
    assert (status, "'--normalize' does not apply to --match exact" in err) == (2, True)
    status, _, err = run(capsys, "convert", str(gold), str(tmp_path / "o.jsonl"), "--normalize",
                         "loose", "--align", "first")
    assert status == 2
    assert ("--align, --normalize say how model outputs are read; "
            f"{gold} holds no model outputs") in err

def test_bad_label_alias(capsys, example):
    status, _, err = run(capsys, "score", *example, "--label-alias", "LOC")
    assert status == 2
    assert "--label-alias takes LABEL=ALIAS[,ALIAS...] or a JSON file" in err
    status, _, err = run(capsys, "score", *example, "--label-alias", "GPE=place")
    assert status == 1
    assert "error: Aliases are given to 'GPE' (--label-alias), which is not a gold label" in err
    status, _, err = run(capsys, "score", *example, "--label-alias", "LOC=X",
                         "--label-alias", "PER=x")
    assert status == 1
    assert "The label alias 'x' is given to both 'LOC' and 'PER' (--label-alias)" in err


@pytest.mark.parametrize("value", ["ORG=", "ORG=organization,,company", "ORG=organization, ",
                                   "=organization"])
def test_an_inline_label_alias_with_an_empty_alias_or_label_is_refused(capsys, example, value):
    status, out, err = run(capsys, "score", *example, "--label-alias", value)
    assert (status, out) == (2, "")
    assert (f"--label-alias needs LABEL=ALIAS[,ALIAS...], each alias non-empty; got {value!r}"
            in err)


@pytest.mark.parametrize(("content", "message"), [
    ('{"ORG": ["organization"],\n "PER" "person"}',
     "line 2: malformed JSON (Expecting ':' delimiter at column 8); a --label-alias file holds "
     'one object {"LABEL": ["alias", ...]}.'),
    ('{"ORG": ["organization"],\n "PER": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "line 2: JSON nested too deeply to read (100001 nested arrays or objects, more than "
     "Python's JSON reader can follow)."),
])
def test_a_label_alias_file_that_is_not_json_is_located(capsys, example, tmp_path, content,
                                                        message):
    aliases = tmp_path / "aliases.json"
    aliases.write_text(content)
    status, out, err = run(capsys, "score", *example, "--label-alias", str(aliases))
    assert (status, out) == (1, "")
    assert err == f"nerscore score: error: {aliases}, {message}\n"


@pytest.mark.parametrize(("content", "message"), [
    ('{"ORG": ["organization", 3]}',
     "label 'ORG' has the alias 3, which is not a string; write each alias as a JSON string"),
    ('{"ORG": ["organization", null]}', "label 'ORG' has the alias None, which is not a string"),
    ('{"ORG": [["organization", "company"]]}',
     "label 'ORG' has the alias ['organization', 'company'], which is not a string"),
    ('{"ORG": ["organization", " "]}', "label 'ORG' has the alias ' ', which is an empty string"),
    ('{"ORG": 7}', "label 'ORG' maps to 7; write its aliases as a list of strings"),
    ('{"ORG": []}', "label 'ORG' maps to []; write its aliases as a list of strings"),
    ('{"": ["organization"]}', "the label '' is empty; write the gold label each alias stands "
                               "for"),
    ('["organization"]', "expected an object"),
])
def test_a_label_alias_file_holds_strings_only(capsys, example, tmp_path, content, message):
    aliases = tmp_path / "aliases.json"
    aliases.write_text(content)
    status, out, err = run(capsys, "score", *example, "--label-alias", str(aliases))
    assert (status, out) == (2, "")
    assert f"--label-alias file {aliases}: {message}" in err
    assert '{"LABEL": ["alias", ...]}' in err


def test_convert_writes_the_aligned_spans(capsys, example, tmp_path):
    gold, llm = example
    out = tmp_path / "aligned.jsonl"
    status, _, err = run(capsys, "convert", llm, str(out), "--gold", gold)
    assert status == 0
    assert json.loads(out.read_text()) == {"id": "d1", "text": TEXT, "spans": [
        {"start": 0, "end": 5, "label": "LOC"}, {"start": 12, "end": 18, "label": "LOC"},
        {"start": 20, "end": 32, "label": "PER"}, {"start": 41, "end": 46, "label": "LOC"}]}
    assert "1 unaligned" in err
    status, _, err = run(capsys, "convert", llm, str(out))
    assert status == 2
    assert "give the gold file their mentions are aligned to with --gold GOLD" in err
    status, _, err = run(capsys, "convert", gold, str(out), "--gold", gold)
    assert status == 2
    assert "--gold is for model outputs" in err


@pytest.mark.parametrize(("flags", "message"), [
    (["--to-scheme", "IOB2"], "--to-scheme writes the output as tags in a scheme; {out} gets the "
     "aligned spans: leave it out."),
    (["--to-tag-delimiter", "_"], "--to-tag-delimiter spells the output tags; {out} gets the "
     "aligned spans: leave it out."),
    (["--to-prefix"], "--to-suffix/--to-prefix spells the output tags;"),
    (["--to-outside", "NONE"], "--to-outside spells the output tags;"),
    (["--misaligned", "expand"], "--misaligned moves spans onto words for tag output; {out} gets "
     "the aligned spans: leave it out."),
    (["--labels-as", "string"], "--labels-as applies to Parquet tag output;"),
    (["--parquet-kind", "tags"], "--parquet-kind applies to Parquet output;"),
    (["--chunk-size", "10"], "--chunk-size cuts a file converted chunk by chunk; model outputs "
     "are aligned to the gold file read whole: leave it out."),
    (["--keep", "PER"], "--keep acts on the entities read; the aligned spans are "
     "written as aligned: leave it out, and convert {out} again with --keep."),
    (["--map", "PER=P"], "--map acts on the entities read;"),
    (["--drop", "PER"], "--drop acts on the entities read;"),
    # the options of tag gold, for span gold
    (["--from-scheme", "IOB2"], "--from-scheme says how the tags of tag files are read (CoNLL, "
     "Parquet tags, JSON Lines token records); {gold} holds spans: leave it out."),
    (["--mode", "strict"], "--mode says how the tags of tag files are read"),
    (["--suffix"], "--suffix says how the tags of tag files are spelled"),
    (["--tag-delimiter", "_"], "--tag-delimiter says how the tags of tag files are spelled"),
    (["--outside", "NONE"], "--outside says how the tags of tag files are spelled"),
    (["--snap", "expand"], "--snap says how mentions snap to the tokens of tag gold (CoNLL, "
     "Parquet tags, JSON Lines token records); {gold} holds spans: leave it out."),
    (["--token-column", "1"], "--token-column applies to no input; the inputs are jsonl files"),
])
def test_convert_refuses_the_options_aligned_outputs_have_no_use_for(capsys, example, tmp_path,
                                                                     flags, message):
    gold, llm = example
    out = tmp_path / "aligned.jsonl"
    status, stdout, err = run(capsys, "convert", llm, str(out), "--gold", gold, *flags)
    assert (status, stdout) == (2, "")
    assert err.startswith("nerscore convert: error: ")
    assert message.format(out=out, gold=gold) in err
    assert len(err.splitlines()) == 1
    assert not out.exists()


def test_convert_takes_the_options_of_tag_gold(capsys, tmp_path):
    gold = tmp_path / "gold.conll"
    gold.write_text("Paris B_PER\nHilton I_PER\nvisited NONE\n\n")
    llm = tmp_path / "llm.jsonl"
    llm.write_text('{"output": "PER: Paris Hil"}\n')
    out = tmp_path / "aligned.jsonl"
    status, _, err = run(capsys, "convert", str(llm), str(out), "--gold", str(gold),
                         "--from-scheme", "IOB2", "--mode", "strict", "--tag-delimiter", "_",
                         "--outside", "NONE", "--snap", "expand")
    assert status == 0, err
    assert json.loads(out.read_text())["spans"] == [{"start": 0, "end": 12, "label": "PER"}]


@pytest.mark.parametrize(("flags", "message"), [
    # the options of tag gold, for span gold
    (["--scheme", "IOB2"], "--scheme says how the tags of tag files are read (CoNLL, Parquet "
     "tags, JSON Lines token records); {gold} holds spans: leave it out."),
    (["--mode", "strict"], "--mode says how the tags of tag files are read"),
    (["--suffix"], "--suffix says how the tags of tag files are spelled"),
    (["--tag-delimiter", "_"], "--tag-delimiter says how the tags of tag files are spelled"),
    (["--outside", "NONE"], "--outside says how the tags of tag files are spelled"),
    (["--snap", "expand"], "--snap says how mentions snap to the tokens of tag gold (CoNLL, "
     "Parquet tags, JSON Lines token records); {gold} holds spans: leave it out."),
    # model outputs have no tokens and no scores, and are aligned to the gold file read whole
    (["--strict-tokens"], "--strict-tokens makes a token that differs between GOLD and PRED an "
     "error; {llm} holds model outputs, which have no tokens: leave it out."),
    (["--chunk-sentences", "5"], "--chunk-sentences reads the files chunk by chunk; model "
     "outputs are aligned to the gold file read whole: leave it out."),
    (["--workers", "2"], "--workers scores chunks of the files on a local Dask cluster; model "
     "outputs are aligned to the gold file read whole"),
    (["--scheduler", "tcp://localhost:8786"], "--scheduler scores chunks of the files on a "
     "Dask cluster;"),
    (["--threshold-from", "{gold}", "{gold}"], "--threshold-from chooses a threshold on the "
     "scores of predictions; {llm} holds model outputs, without scores: leave it out."),
    (["--objective", "f1"], "--objective says what --threshold-from maximises; {llm} holds "
     "model outputs, without scores"),
    (["--schema", "exact"], "--schema says which SemEval schema a threshold curve traces;"),
    # reading options that neither file's format takes
    (["--token-column", "1"], "--token-column applies to no input; the inputs are jsonl files"),
    (["--gold-column", "1"], "--gold-column applies to no input"),
    (["--pred-column", "1"], "--pred-column applies to no input"),
    (["--pred-annotator", "ann"], "--pred-annotator applies to no input"),
    (["--layer", "Entity"], "--layer applies to no input"),
    (["--split", "test"], "--split applies to no input"),
    # what score checks of every prediction file
    (["--errors", "{tmp}/errors.txt"], "--errors needs a .jsonl or .csv file name"),
    (["--match", "token", "--confusion"], "--errors and --confusion need an entity matcher, "
     "not --match token"),
    (["--match", "token", "--breakdown", "length"], "--breakdown needs an entity matcher"),
])
def test_score_refuses_the_options_model_outputs_have_no_use_for(capsys, example, tmp_path,
                                                                 flags, message):
    gold, llm = example
    given = [f.format(gold=gold, tmp=tmp_path) for f in flags]
    status, out, err = run(capsys, "score", gold, llm, *given)
    assert (status, out) == (2, "")
    assert err.startswith("nerscore score: error: ")
    assert message.format(gold=gold, llm=llm) in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "errors.txt").exists()


@pytest.fixture
def tag_gold(tmp_path):
    """CoNLL gold read with the options of its tags and columns, and a model output for it."""
    gold = tmp_path / "gold.conll"
    gold.write_text("# a comment\nParis B_PER x\nHilton I_PER x\nvisited NONE x\n\n")
    llm = tmp_path / "llm.jsonl"
    llm.write_bytes('{"output": "PER: Paris Hil", "note": "café"}\n'.encode("latin-1"))
    return str(gold), str(llm)


TAG_GOLD_OPTIONS = ("--scheme", "IOB2", "--mode", "strict", "--tag-delimiter", "_", "--outside",
                    "NONE", "--gold-column", "1", "--comments", "--pred-encoding", "latin-1")


@pytest.mark.parametrize(("flags", "message"), [
    (["--strict-tokens"], "--strict-tokens makes a token that differs between GOLD and PRED an "
     "error; {llm} holds model outputs, which have no tokens: leave it out."),
    (["--pred-column", "1"], "--pred-column applies to no input; the inputs are conll, jsonl "
     "files"),
    (["--layer", "Entity"], "--layer applies to no input"),
    (["--workers", "2"], "--workers scores chunks of the files on a local Dask cluster;"),
    (["--threshold-from", "{gold}", "{gold}"], "--threshold-from chooses a threshold on the "
     "scores of predictions; {llm} holds model outputs, without scores"),
])
def test_score_refuses_them_with_tag_gold_too(capsys, tag_gold, flags, message):
    gold, llm = tag_gold
    status, out, err = run(capsys, "score", gold, llm, *TAG_GOLD_OPTIONS,
                           *(f.format(gold=gold) for f in flags))
    assert (status, out) == (2, "")
    assert message.format(llm=llm) in err
    assert len(err.splitlines()) == 1


def test_score_takes_the_options_of_tag_gold_and_of_reading_the_files(capsys, tag_gold):
    _, out, err = run(capsys, "score", *tag_gold, *TAG_GOLD_OPTIONS, "--format", "json")
    assert overall(out) == (0, 1, 1), err  # "Paris Hil" contracts to "Paris"
    status, out, err = run(capsys, "score", *tag_gold, *TAG_GOLD_OPTIONS, "--snap", "expand",
                           "--format", "json")
    assert status == 0, err
    assert overall(out) == (1, 0, 0)


def test_a_usage_error_comes_before_the_files_are_read(capsys, example, monkeypatch):
    from nerscore.io import llm_records
    from nerscore.io.formats import Format

    def read(*args, **kwargs):
        raise AssertionError("a file was read")

    monkeypatch.setattr(llm_records, "read_llm_records", read)
    monkeypatch.setattr(Format, "load", read)
    status, out, err = run(capsys, "score", *example, "--format", "seqeval", "--breakdown",
                           "length")
    assert (status, out) == (2, "")
    assert "--breakdown works with --format" in err
