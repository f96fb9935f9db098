"""The ``agree`` and ``adjudicate`` subcommands, run in-process: what they compute and write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerscore
from nerscore.cli import main
from tests.io.webanno_fixtures import write_export
from tests.paths import DATA

CONLL = [str(DATA / "agreement" / "conll" / f"ann{k}.conll") for k in (1, 2, 3)]
BRAT = [str(DATA / "agreement" / "brat" / f"ann{k}") for k in (1, 2, 3)]


def test_agree_prints_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", *CONLL, "--names", "a", "b", "c", "--resamples", "50"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("agreement of 3 annotators over 40 sentences; entity F1 by exact "
                          "match\n\npairwise entity F1 (micro)\n")
    expected = nerscore.agreement(dict(zip("abc", map(nerscore.read_conll, CONLL),
                                           strict=True)), n_resamples=0)
    assert f"mean pairwise F1: {expected.f1.mean():.2f}" in out
    assert "least-agreed sentences (of 40)" in out


def test_a_format_that_renders_no_agreement_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", *CONLL, "--format", "seqeval"]) == 2
    assert ("error: --format: The seqeval format does not render an agreement report; formats "
            "that do: text, json, markdown, html. See") in capsys.readouterr().err


#: What each format says of the unit of agreement: every CoNLL sentence, or every BRAT document.
UNIT_WORDS = {
    "text": ("over {n} {unit}s;", "(95% bootstrap over {unit}s)", "least-agreed {unit}s (of {n})",
             "\n{unit} "),
    "markdown": ("over {n} {unit}s;", "(95% bootstrap over {unit}s)",
                 "## least-agreed {unit}s (of {n})", "| {unit} | mean F1 |"),
    "html": ('<p class="meta">{n} {unit}s;', "95% bootstrap over {unit}s</p>",
             "<h2>Least-agreed {unit}s</h2>", "<th>{unit}</th><th>mean F1</th>",
             'aria-label="{unit}"><option value="">every {unit}</option>',
             "'</span>{unit} ' + esc(d.doc)"),
}


@pytest.mark.parametrize("fmt", [*UNIT_WORDS, "json"])
@pytest.mark.parametrize(("files", "n", "unit", "other"),
                         [(CONLL, 40, "sentence", "document"), (BRAT, 10, "document", "sentence")])
def test_agree_names_its_unit_the_same_in_every_format(
        tmp_path: Path, fmt: str, files: list[str], n: int, unit: str, other: str) -> None:
    out = tmp_path / "agreement.out"
    assert main(["agree", *files, "--format", fmt, "-o", str(out), "--resamples", "50",
                 "-q"]) == 0
    page = out.read_text(encoding="utf-8")
    if fmt == "json":
        data = json.loads(page)
        assert (data["unit"], data["n_documents"]) == (unit, n)
        return
    for words in UNIT_WORDS[fmt]:
        assert words.format(n=n, unit=unit) in page
        assert words.format(n=n, unit=other) not in page


def test_agree_json_holds_every_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", *BRAT, "--format", "json", "--match", "overlap",
                 "--resamples", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["annotators"] == ["ann1", "ann2", "ann3"]
    assert data["match"] == "overlap"
    assert data["f1"]["symmetric"] is False
    assert set(data["tokens"]["overall"]) == {"all", "labelled"}
    assert data["disagreements"]["counts"]["label"] > 0


def test_agree_html_page(tmp_path: Path) -> None:
    out = tmp_path / "agreement.html"
    assert main(["agree", *BRAT, "--format", "html", "-o", str(out), "--resamples", "10"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>Pairwise entity F1</h2>" in page
    assert 'id="dis-data"' in page
    assert "Viruca Atanes" in page


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_agree_resamples_0_gives_no_intervals(fmt: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", *CONLL, "--format", fmt, "--resamples", "1"]) == 0
    one = capsys.readouterr()
    assert "1 resample is too few" in one.out + one.err
    assert main(["agree", *CONLL, "--format", fmt, "--resamples", "0"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    if fmt == "json":
        data = json.loads(out)
        assert data["bootstrap"]["n_resamples"] == 0
        assert data["notes"] == []
        assert all(v["low"] is None and v["high"] is None for v in data["intervals"].values())
    else:
        for absent in ("resample", "bootstrap", "note:", "alpha (all tokens)", "\n\n\n"):
            assert absent not in out
        assert "\n\nmean pairwise F1: " in out


def test_agree_notes_intervals_every_resample_of_which_is_equal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = [{"id": f"d{i}", "spans": [[0, 4, "PER"], [5, 9, "LOC"]]} for i in range(12)]
    paths = []
    for name in "ab":
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
        paths.append(str(path))
    assert main(["agree", *paths, "--resamples", "100"]) == 0
    out = capsys.readouterr().out
    assert "mean pairwise F1: 1.00 (SD 0.00) [1.00, 1.00]" in out
    assert ("note: 2 bootstrap intervals have zero width (the mean pairwise F1 and alpha): all "
            "100 resamples gave the same value of each, as every document contributes alike to "
            "them (e.g. annotators who agree on every document, or documents annotated alike); "
            "an interval of zero width says nothing about their uncertainty.\n") in out


def test_agree_resamples_0_refuses_level_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", *CONLL, "--resamples", "0", "--level", "0.9", "--seed", "1"]) == 2
    assert ("error: --level, --seed apply to the bootstrap intervals; --resamples 0 turns them "
            "off: leave them out, or give --resamples 1 or more"
            in capsys.readouterr().err)
    assert main(["agree", *CONLL, "--resamples", "-1"]) == 2
    assert "--resamples: expected a whole number >= 0; got '-1'" in capsys.readouterr().err
    assert main(["agree", "--help"]) == 0
    assert "(default: 1000; 0: no intervals)" in " ".join(capsys.readouterr().out.split())


def test_options_that_cannot_apply_are_usage_errors(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "gold.conll")
    assert main(["adjudicate", *CONLL, "-o", out, "--min-votes", "4"]) == 2
    assert ("error: --min-votes 4 is more than the 3 annotators; give a number from 1 to 3"
            in capsys.readouterr().err)
    assert main(["adjudicate", *CONLL, "-o", out, "--min-votes", "0"]) == 2
    assert "--min-votes: expected a whole number >= 1; got '0'" in capsys.readouterr().err
    assert main(["agree", *BRAT, "--tags"]) == 2
    assert ("error: --tags compares the raw tags of every token; the FILEs hold spans: leave it "
            "out" in capsys.readouterr().err)
    assert main(["agree", *CONLL, "--tags", "--map", "NP=X", "--drop", "VP"]) == 2
    assert ("error: --map, --drop act on the entities read; --tags compares the raw tags of "
            "every token: leave them out, or leave out --tags" in capsys.readouterr().err)


def test_adjudicate_writes_conll_and_a_summary(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gold.conll"
    assert main(["adjudicate", *CONLL, "--min-votes", "2", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "quorum: 2 votes" in err
    assert "accepted" in err
    gold = nerscore.read_conll(out)
    docs, _ = nerscore.adjudicate([nerscore.read_conll(p) for p in CONLL], min_votes=2)
    assert sum(len(d.spans) for d in docs) == len(nerscore.tags_to_entities(
        gold.tags.to_lists(), scheme="IOB2"))


def test_adjudicate_writes_jsonl_from_brat(tmp_path: Path) -> None:
    out = tmp_path / "gold.jsonl"
    assert main(["adjudicate", *BRAT, "-o", str(out)]) == 0
    docs = nerscore.read_jsonl(out)
    assert len(docs) == 10
    assert all(d.text for d in docs)


def test_adjudicate_never_writes_over_an_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adjudicate", *CONLL, "-o", CONLL[0]]) == 2
    assert "--output" in capsys.readouterr().err


def test_agree_and_adjudicate_take_label_operations(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", *CONLL, "--resamples", "1", "--format", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["agree", *CONLL, "--resamples", "1", "--format", "json", "--keep", "NP"]) == 0
    kept = json.loads(capsys.readouterr().out)
    assert set(kept["f1"]["per_label"]) == {"NP"} != set(plain["f1"]["per_label"])
    out = tmp_path / "gold.conll"
    assert main(["adjudicate", *CONLL, "-o", str(out), "--drop", "NP"]) == 0
    assert "NP" not in out.read_text(encoding="utf-8")
    assert "Labels removed (--drop): NP" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_agree_warns_of_annotators_with_different_texts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    for name, text in (("a", "Por Viruca Atanes Madrid."), ("b", "totally other words here")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "d1.txt").write_text(text, encoding="utf-8")
        (tmp_path / name / "d1.ann").write_text(f"T1\tPER 4 17\t{text[4:17]}\n",
                                                encoding="utf-8")
    note = ("1 document has a different text for annotators 'a' and 'b': document 'd1' from "
            "character 0 (a 'Por Viruca Atanes Ma', b 'totally other words '). Offsets are "
            "read against the first annotator's text; give every annotator the same texts.")
    assert main(["agree", str(tmp_path / "a"), str(tmp_path / "b"), "--format", fmt,
                 "--resamples", "1"]) == 0
    captured = capsys.readouterr()
    assert f"nerscore agree: warning: {note}\n" in captured.err
    if fmt == "text":
        assert f"\nnote: {note}\nnote: 1 resample is too few" in captured.out
    elif fmt == "json":
        assert json.loads(captured.out)["notes"][0] == note
    else:
        assert "different text for annotators &#x27;a&#x27; and &#x27;b&#x27;" in captured.out


def test_agree_and_adjudicate_warn_of_tokens_that_differ_between_annotators(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for name, first in (("x", "Anna"), ("y", "Bob"), ("z", "Anna")):
        files.append(tmp_path / f"{name}.conll")
        files[-1].write_text(f"{first} B-PER\nwent O\n", encoding="utf-8")
    warning = ("1 of 2 tokens differ between {} and {}; the first is token 0 of sentence 0: "
               "{!r} ({}, line 1) vs {!r} ({}, line 1); tags are compared by position.")
    expected = [warning.format(files[0], files[1], "Anna", files[0], "Bob", files[1]),
                warning.format(files[1], files[2], "Bob", files[1], "Anna", files[2])]
    assert main(["agree", *map(str, files), "--resamples", "1"]) == 0
    captured = capsys.readouterr()
    assert [f"nerscore agree: warning: {w}" for w in expected] == [
        line for line in captured.err.splitlines() if "warning" in line]
    same = (f"annotators 'x.conll' and 'z.conll' are the same file: {files[0]} and {files[2]} "
            "have identical content, so one annotation counts as two annotators.")
    assert [f"note: {w}" for w in (same, *expected)] == [
        line for line in captured.out.splitlines() if line.startswith("note:")][:3]
    assert main(["adjudicate", *map(str, files), "-o", str(tmp_path / "gold.conll")]) == 0
    assert [f"nerscore adjudicate: warning: {w}" for w in expected] == [
        line for line in capsys.readouterr().err.splitlines() if "warning" in line]


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_a_sentence_of_different_lengths_is_said_of_annotators(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    a, b = tmp_path / "a.conll", tmp_path / "b.conll"
    a.write_text("Anna B-PER\nwent O\n", encoding="utf-8")
    b.write_text("Anna B-PER\nwent O\nhome O\n", encoding="utf-8")
    assert main([command, str(a), str(b), "-o", str(tmp_path / "out.conll")]) == 1
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: Sentence 0 has 2 tokens in {a} (lines 1-2) but 3 in {b} "
        "(lines 1-3); every annotator must tag the same tokens.\n")


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_agree_and_adjudicate_note_annotators_whose_files_are_identical(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    files = [str(tmp_path / f"{k}.conll") for k in (1, 2, 3)]
    for path, tag in zip(files, ("B-PER", "B-LOC", "B-PER"), strict=True):
        Path(path).write_text(f"Anna {tag}\nwent O\n", encoding="utf-8")
    note = (f"annotators 'ana' and 'cai' are the same file: {files[0]} and {files[2]} have "
            "identical content, so one annotation counts as two annotators.")
    names = ["--names", "ana", "ben", "cai"]
    assert main(["agree", *files, *names, "--format", fmt, "--resamples", "1"]) == 0
    captured = capsys.readouterr()
    if fmt == "text":
        assert f"\nnote: {note}\n" in captured.out
    elif fmt == "json":
        assert json.loads(captured.out)["notes"][0] == note
        assert f"nerscore agree: note: {note}\n" in captured.err
    else:
        assert "annotators &#x27;ana&#x27; and &#x27;cai&#x27; are the same file" in captured.out
    assert main(["adjudicate", *files, *names, "-o", str(tmp_path / "gold.conll")]) == 0
    assert f"nerscore adjudicate: note: {note}\n" in capsys.readouterr().err


def test_adjudicate_keeps_discontinuous_entities_or_counts_them(tmp_path, capsys):
    doc = {"id": "d", "text": "Anna and Bob left",
           "spans": [{"start": 0, "end": 12, "label": "PER", "fragments": [[0, 4], [9, 12]]}]}
    files = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps({**doc, "spans": [*doc["spans"], [13, 17, name.upper()]]})
                        + "\n", encoding="utf-8")
        files.append(str(path))
    out = tmp_path / "out.jsonl"
    assert main(["adjudicate", *files, "-o", str(out)]) == 0
    (written,) = nerscore.read_jsonl(out)
    assert [(e.start, e.end, e.label, e.fragments) for e in written.spans] == [
        (0, 12, "PER", (nerscore.Span(0, 4), nerscore.Span(9, 12)))]
    capsys.readouterr()
    doccano = tmp_path / "out.doccano.jsonl"
    assert main(["adjudicate", *files, "-o", str(doccano), "--output-format", "doccano"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert main(["convert", str(out), str(tmp_path / "c.doccano.jsonl"), "--to-format",
                 "doccano"]) == 0
    (lost, _) = capsys.readouterr().err.splitlines()
    assert lost == ("nerscore convert: warning: 1 discontinuous entity written as its extent "
                    "(the output cannot hold fragments).")
    assert lost.replace("convert", "adjudicate") in err


def test_adjudicate_writes_the_ignore_regions_a_majority_gives_or_counts_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"id": "d", "text": "Anna went to Paris today", "spans": [[0, 4, "PER"]]}
    files = []
    for name, ignore in (("a", [[13, 18], [19, 24, "LOC"]]), ("b", [[13, 18]]), ("c", [])):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps({**doc, "ignore": ignore}) + "\n", encoding="utf-8")
        files.append(str(path))
    out = tmp_path / "out.jsonl"
    assert main(["adjudicate", *files, "-o", str(out)]) == 0
    (written,) = nerscore.read_jsonl(out)
    assert written.ignore == (nerscore.Span(13, 18),)
    assert ("nerscore adjudicate: note: 2 candidate ignore regions: 1 kept, 1 below the quorum, "
            "0 dropped for overlapping an accepted entity of their label\n"
            in capsys.readouterr().err)
    assert main(["adjudicate", *files, "-o", str(tmp_path / "brat"), "--output-format",
                 "brat"]) == 0
    assert ("nerscore adjudicate: warning: 1 ignore region not kept (the output cannot hold it)."
            in capsys.readouterr().err)


def test_agree_leaves_out_what_lies_in_an_annotators_ignore_region_and_notes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"id": "d", "text": "Anna went to Paris today", "spans": [[0, 4, "PER"]]}
    files = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    files[0].write_text(json.dumps({**doc, "spans": [[0, 4, "PER"], [13, 18, "LOC"]]}) + "\n",
                        encoding="utf-8")
    files[1].write_text(json.dumps({**doc, "ignore": [[13, 18]]}) + "\n", encoding="utf-8")
    assert main(["agree", *map(str, files), "--names", "a", "b", "--format", "json",
                 "--resamples", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["f1"]["matrix"][0][1] == 1.0
    assert data["notes"][0].startswith("Ignore regions: 1 entity overlaps an annotator's ignore "
                                       "region of its label")
    assert main(["agree", *map(str, files), "--resamples", "50"]) == 0
    assert "\nnote: Ignore regions: 1 entity overlaps" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_agree_says_why_agreement_is_undefined_when_no_annotator_marked_an_entity(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    files = [str(tmp_path / f"{k}.conll") for k in (1, 2)]
    for path, word in zip(files, ("Anna", "Bob"), strict=True):
        Path(path).write_text(f"{word} O\nwent O\n\nhome O\n", encoding="utf-8")
    note = (f"no annotator marked any entity in the 2 sentences of {files[0]}, {files[1]}, so "
            "their agreement is undefined: the entity F1 needs an entity, and kappa and alpha "
            "need two different labels.")
    assert main(["agree", *files, "--format", fmt, "--resamples", "20"]) == 0
    captured = capsys.readouterr()
    assert f"nerscore agree: note: {note}\n" in captured.err
    if fmt == "text":
        assert f"\nnote: {note}\n" in captured.out
    else:
        assert json.loads(captured.out)["notes"][0] == note
    assert main(["agree", *files, "-q", "--resamples", "20"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_an_entity_in_its_annotators_own_ignore_region_names_the_annotator_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    own, other = tmp_path / "own.jsonl", tmp_path / "other.jsonl"
    own.write_text('{"id": "x", "text": "Bob", "spans": []}\n'
                   '{"id": "d", "text": "Anna went home", "spans": [[0, 4, "PER"]], '
                   '"ignore": [[0, 9]]}\n', encoding="utf-8")
    other.write_text('{"id": "x", "text": "Bob", "spans": []}\n'
                     '{"id": "d", "text": "Anna went home", "spans": [[0, 4, "PER"]]}\n',
                     encoding="utf-8")
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, str(other), str(own), "--names", "B", "A", *extra]) == 1
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: {own}, line 2: annotator 'A': Span (0, 4, 'PER') of "
        "document 'd' lies in the ignore region [0, 9], where nobody annotated any label; an "
        "entity of the same annotator cannot be there. Fix the region or the span.\n")


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_the_header_names_the_matcher(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         fmt: str) -> None:
    out = tmp_path / "agreement.out"
    assert main(["agree", *BRAT, "--match", "overlap", "--format", fmt, "-o", str(out),
                 "--resamples", "0"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "documents; entity F1 by overlap match" in page
    assert "match=" not in page


#: What adjudicate advises for each kind of FILE: the registered formats that write it.
WRITERS = {"span": "jsonl (.jsonl), brat (a folder), parquet (.parquet) or spacy (.spacy); or, "
                   "with --output-format, label-studio, doccano or prodigy",
           "tag": "conll (.conll) or parquet (.parquet)"}


@pytest.mark.parametrize(("kind", "output", "flags", "what"), [
    ("span", "gold.conll", [], "--output is a conll file, which holds tags"),
    ("span", "gold", [], "--output {out} has no suffix a format claims, so it is a conll file, "
                         "which holds tags"),
    ("span", "gold.tsv", ["--output-format", "webanno"],
     "--output is a webanno file, which nerscore does not write"),
    ("tag", "gold.jsonl", [], "--output is a jsonl file, which holds spans"),
])
def test_adjudicate_refuses_an_output_format_before_reading_any_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, output: str,
        flags: list[str], what: str) -> None:
    # the second FILE is malformed: had it been read, its error (status 1) would come first
    suffix = ".jsonl" if kind == "span" else ".conll"
    good, bad = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    good.write_text('{"id": "d", "text": "Anna", "spans": [[0, 4, "PER"]]}\n' if kind == "span"
                    else "Anna B-PER\n", encoding="utf-8")
    bad.write_text("{not json\n" if kind == "span" else "Anna\n", encoding="utf-8")
    out = tmp_path / output
    assert main(["adjudicate", str(good), str(bad), "-o", str(out), *flags]) == 2
    assert capsys.readouterr().err == (
        f"nerscore adjudicate: error: the inputs are {kind} files but {what.format(out=out)}; "
        f"write a format that holds {kind}s: {WRITERS[kind]}. See 'nerscore adjudicate "
        "--help'.\n")
    assert not out.exists()


def test_adjudicate_refuses_an_export_s_output_format_before_reading_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = write_export(tmp_path / "export")
    (export / "annotation" / "news1.txt" / "anna.tsv").write_text("not WebAnno TSV\n",
                                                                 encoding="utf-8")
    assert main(["adjudicate", str(export), "-o", str(tmp_path / "gold.conll")]) == 2
    assert capsys.readouterr().err == (
        "nerscore adjudicate: error: the inputs are span files but --output is a conll file, "
        f"which holds tags; write a format that holds spans: {WRITERS['span']}. See 'nerscore "
        "adjudicate --help'.\n")


@pytest.mark.parametrize("name", ["gold", "gold.out"])
def test_adjudicate_notes_an_output_named_with_no_suffix_a_format_claims(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    out = tmp_path / name
    assert main(["adjudicate", *CONLL, "-o", str(out)]) == 0
    assert (f"nerscore adjudicate: note: --output {out} has no suffix a format claims, so it is "
            "written as a conll file, as an input so named is read; name it with a format's "
            "suffix (.conll, .jsonl, ...) or give --output-format to write another format.\n"
            in capsys.readouterr().err)
    assert nerscore.read_conll(out).tags.n_sequences == 40
    # a suffix CoNLL claims, or the format named: nothing was guessed
    for flags in (["-o", str(tmp_path / "gold.conll")],
                  ["-o", str(tmp_path / "named"), "--output-format", "conll"]):
        assert main(["adjudicate", *CONLL, *flags]) == 0
        assert "no suffix a format claims" not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_a_blank_name_is_a_usage_error(capsys, tmp_path, command):
    out = ["-o", str(tmp_path / "gold.conll")] if command == "adjudicate" else []
    assert main([command, *CONLL, "--names", "a", "", "c", *out]) == 2
    err = capsys.readouterr().err
    assert "argument --names: expected a name to show in the output; got ''" in err
    assert not (tmp_path / "gold.conll").exists()
